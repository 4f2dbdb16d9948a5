//! The GTP engine: its state, and one function from a command line to its
//! response. No I/O here: the loop in `gtp/io.rs` drives it, and this
//! module never imports it.
//!
//! Dispatch goes through the one command table ([`crate::gtp::table`]);
//! names match exactly and case-sensitively. The handlers live by topic in
//! [`crate::gtp::cmd`] and, for analysis and pondering, in
//! [`crate::gtp::analysis`].

use super::args::{self, ArgError};
use super::line::{self, Line, Request};
use super::signal::InputSignal;
use super::table::{self, Command, Kind, PonderEffect};
use crate::clock::{Clock, TimeSource, WallTime};
use crate::game::Game;
use crate::komi::Komi;
use crate::mcts::MctsPlayer;
use crate::player::{Player, RandomPlayer};
use crate::point::{Move, Point, MAX_SIZE, MIN_SIZE};
use crate::rules::Rules;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The engine's name, as `name` reports it.
pub const NAME: &str = "Kosumi";

/// Settings from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Board size at start and after `clear_board` until `boardsize`.
    pub size: usize,
    /// Komi at start (kept by `boardsize` and `clear_board`).
    pub komi: Komi,
    /// Rules at start.
    pub rules: Rules,
    /// Seed of the player's random stream.
    pub seed: u64,
    /// Playouts of the one-shot analysis commands and of analysis outside
    /// the I/O loop (`--playouts`; `None`: 1000). The search player's own
    /// limit per move is its [`crate::mcts::SearchConfig::max_playouts`].
    pub playouts: Option<u64>,
    /// Log more to stderr.
    pub verbose: bool,
    /// Think on the opponent's time (search player, I/O loop only): after a
    /// `genmove`, search the opponent's position until the next input line.
    pub ponder: bool,
    /// The answer to `version` when set (`--override-version`, as KataGo's
    /// `-override-version`): for a controller that reads the version as
    /// another engine's (Lizzie reads it as Leela Zero's). `None`: the
    /// crate's own version. `name` is never overridden.
    pub version: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            size: 19,
            komi: Komi::default(),
            rules: Rules::CHINESE,
            seed: 1,
            playouts: None,
            verbose: false,
            ponder: false,
            version: None,
        }
    }
}

/// Why a command failed; its text is the error response. The variants
/// with fixed text are the specification's canonical messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// No such command (`unknown command`).
    UnknownCommand,
    /// Arguments that cannot be read, or too few or too many.
    Argument(ArgError),
    /// An analysis command for a player without an analyzer.
    NoAnalyzer,
    /// `illegal move`.
    IllegalMove,
    /// `unacceptable size`.
    UnacceptableSize,
    /// `cannot undo`.
    CannotUndo,
    /// `board not empty`.
    BoardNotEmpty,
    /// `invalid number of stones`.
    InvalidStoneCount,
    /// `bad vertex list`.
    BadVertexList,
    /// `cannot load file`.
    CannotLoadFile,
    /// `cannot write file`.
    CannotWriteFile,
    /// A bug: the handler panicked (`internal error`); the engine goes on.
    Internal,
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::UnknownCommand => f.write_str("unknown command"),
            CommandError::Argument(e) => e.fmt(f),
            CommandError::NoAnalyzer => {
                f.write_str("analysis needs the search player (not --player random)")
            }
            CommandError::IllegalMove => f.write_str("illegal move"),
            CommandError::UnacceptableSize => f.write_str("unacceptable size"),
            CommandError::CannotUndo => f.write_str("cannot undo"),
            CommandError::BoardNotEmpty => f.write_str("board not empty"),
            CommandError::InvalidStoneCount => f.write_str("invalid number of stones"),
            CommandError::BadVertexList => f.write_str("bad vertex list"),
            CommandError::CannotLoadFile => f.write_str("cannot load file"),
            CommandError::CannotWriteFile => f.write_str("cannot write file"),
            CommandError::Internal => f.write_str("internal error"),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<ArgError> for CommandError {
    fn from(e: ArgError) -> CommandError {
        CommandError::Argument(e)
    }
}

/// A GTP engine: a game, clocks, and a player.
pub struct Engine {
    pub(super) game: Game,
    pub(super) clock: Clock,
    pub(super) player: Box<dyn Player>,
    pub(super) config: Config,
    pub(super) quit: bool,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) input: Option<(Arc<InputSignal>, u64)>,
    pub(super) started: Instant,
    pub(super) in_game: bool,
    time: Arc<dyn TimeSource>,
    /// Game information from `loadsgf` for `printsgf` (players, date, name,
    /// and the record's result).
    pub(super) info: crate::sgf::GameInfo,
    /// The number of moves the game had when `info.result` was loaded: the
    /// result holds only while the game is still that record.
    pub(super) info_moves: usize,
    /// The log file (`--log-file`), if any: see [`crate::gtp::log`].
    pub(super) log: Option<Box<dyn Write + Send>>,
    /// Whether there is a log (it is out of `log` while a command runs).
    pub(super) logging: bool,
    /// Lines for the log after the current response.
    log_notes: Vec<String>,
}

impl Engine {
    /// An engine with `config` and `player`. The board size is clamped into
    /// 2..=25. Analysis commands and pondering work when the player offers
    /// an [`crate::player::Analyzer`].
    pub fn new(config: Config, player: Box<dyn Player>) -> Engine {
        let size = config.size.clamp(MIN_SIZE, MAX_SIZE);
        let game = Game::new(size, config.rules, config.komi).expect("size was clamped");
        Engine {
            game,
            clock: Clock::default(),
            player,
            config,
            quit: false,
            stop: Arc::new(AtomicBool::new(false)),
            input: None,
            started: Instant::now(),
            in_game: false,
            time: Arc::new(WallTime::new()),
            info: crate::sgf::GameInfo::default(),
            info_moves: 0,
            log: None,
            logging: false,
            log_notes: Vec::new(),
        }
    }

    /// Logs the GTP traffic and a summary of each move generation to
    /// `log` (see [`crate::gtp::log`]).
    pub fn set_log(&mut self, log: Box<dyn Write + Send>) {
        self.log = Some(log);
        self.logging = true;
    }

    /// Writes a command line as read into the log, if there is one.
    pub fn log_input(&mut self, raw: &[u8]) {
        if let Some(log) = &mut self.log {
            let line = String::from_utf8_lossy(raw);
            let _ = writeln!(log, "> {}", line.trim_end_matches(['\r', '\n']));
            let _ = log.flush();
        }
    }

    /// Queues a line for the log (written after the current response),
    /// if there is a log.
    pub(crate) fn log_line(&mut self, text: &str) {
        if self.logging {
            self.log_notes.push(text.to_string());
        }
    }

    /// Reads the own clock's time from `time` (a
    /// [`crate::clock::ManualTime`] in tests) instead of the wall clock.
    pub fn set_time_source(&mut self, time: Arc<dyn TimeSource>) {
        self.time = time;
    }

    /// An engine with the search player `mcts` (the same as
    /// [`Engine::new`] with it boxed).
    pub fn with_search(config: Config, mcts: MctsPlayer) -> Engine {
        Engine::new(config, Box::new(mcts))
    }

    /// An engine with the random player seeded from `config.seed`.
    pub fn with_random_player(config: Config) -> Engine {
        let seed = config.seed;
        Engine::new(config, Box::new(RandomPlayer::new(seed)))
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The clocks: set by `time_settings`, charged after each move the
    /// engine generates, corrected by `time_left` (see [`crate::clock`]).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Whether `quit` was answered.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// The flag a running command polls to stop early (GoGui's
    /// `# interrupt`); the I/O loop sets it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Tells the engine which input line it is answering (the I/O loop
    /// calls this before each line), so that [`Engine::input_waiting`] can
    /// see later lines.
    pub fn set_input(&mut self, signal: Arc<InputSignal>, seq: u64) {
        self.input = Some((signal, seq));
    }

    /// Whether any input line arrived after the one being answered: a
    /// streaming command (`lz-analyze`) stops then, as clients expect.
    /// Always false without the I/O loop.
    pub fn input_waiting(&self) -> bool {
        self.input
            .as_ref()
            .is_some_and(|(signal, seq)| signal.input_after(*seq))
    }

    pub(super) fn debug(&self, msg: &str) {
        if self.config.verbose {
            eprintln!("kosumi: {msg}");
        }
    }

    /// Executes one raw line (with or without its LF) and returns the whole
    /// response text, `=id result\n\n` or `?id message\n\n`, or `None` for a
    /// line that gets no response (empty, blank, only a comment).
    pub fn execute(&mut self, raw: &[u8]) -> Option<String> {
        self.respond(line::parse(raw))
    }

    /// Answers a line already read by [`line::parse`] or [`line::too_long`].
    /// A streaming command (`lz-analyze`, ...) runs to its end here: without
    /// the I/O loop no input can stop it, so analysis stops after
    /// `--playouts` playouts (1000 when unlimited).
    pub fn respond(&mut self, line: Line) -> Option<String> {
        let mut buf = Vec::new();
        match self.respond_to(line, &mut buf) {
            Ok(()) if buf.is_empty() => None,
            Ok(()) => Some(String::from_utf8_lossy(&buf).into_owned()),
            Err(_) => None,
        }
    }

    /// Answers a line into `out`, flushing after the response (and after
    /// each update of a streaming command). Nothing is written for a line
    /// that gets no response.
    ///
    /// After a command that plays a move on our clock (`genmove`,
    /// `kgs-genmove_cleanup`, `lz-`/`kata-genmove_analyze`; the table's
    /// `on_clock`), the own clock of the colour that moved is charged the
    /// time the command took, its response included, plus the lag
    /// ([`Clock::charge`]).
    ///
    /// # Errors
    /// A failed write to `out`.
    pub fn respond_to(&mut self, line: Line, out: &mut dyn Write) -> io::Result<()> {
        let timed =
            matches!(&line, Line::Command(r) if table::find(&r.name).is_some_and(|c| c.on_clock));
        let (t0, moves) = (self.time.now(), self.game.moves().len());
        let result = match self.log.take() {
            None => self.respond_untimed(line, out),
            Some(mut log) => {
                let mut tee = super::log::Tee {
                    out,
                    log: &mut *log,
                    at_line_start: true,
                };
                let r = self.respond_untimed(line, &mut tee);
                for note in self.log_notes.drain(..) {
                    let _ = writeln!(log, "{note}");
                }
                let _ = log.flush();
                self.log = Some(log);
                r
            }
        };
        if timed && self.game.moves().len() == moves + 1 {
            if let Some(m) = self.game.moves().last() {
                let (color, took) = (m.color, self.time.now() - t0);
                self.clock.charge(color, took + self.player.lag());
                if self.config.verbose && !self.clock.is_unlimited() {
                    let st = self.clock.of(color);
                    eprintln!(
                        "kosumi: clock: {} took {took:.2} s; {:.2} s left ({})",
                        color.name(),
                        st.seconds,
                        st.count
                    );
                }
            }
        }
        result
    }

    fn respond_untimed(&mut self, line: Line, out: &mut dyn Write) -> io::Result<()> {
        let req = match line {
            Line::Empty => return Ok(()),
            Line::Error(e) => {
                let text = format_response(e.id.as_deref(), false, &e.kind.to_string());
                out.write_all(text.as_bytes())?;
                return out.flush();
            }
            Line::Command(req) => req,
        };
        if self.config.verbose {
            eprintln!("kosumi: < {} {}", req.name, req.raw_args);
        }
        let command = table::find(&req.name);
        match command.map(|c| c.pondering) {
            Some(PonderEffect::StartsGame) => self.in_game = true,
            Some(PonderEffect::EndsGame) => self.in_game = false,
            Some(PonderEffect::Keep) | None => {}
        }
        if let Some(Command {
            kind: Kind::Stream(h),
            ..
        }) = command
        {
            return self.run_stream(*h, &req, out);
        }
        // A panic is a bug; answer it as an error (the panic message goes
        // to stderr) rather than leave the controller hanging.
        let result = match command {
            Some(Command {
                kind: Kind::Plain(h),
                ..
            }) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h(self, &req)))
                .unwrap_or(Err(CommandError::Internal)),
            Some(_) => Err(CommandError::Internal),
            None => Err(CommandError::UnknownCommand),
        };
        let text = match &result {
            Ok(body) => format_response(req.id.as_deref(), true, body),
            Err(err) => format_response(req.id.as_deref(), false, &err.to_string()),
        };
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    fn run_stream(
        &mut self,
        h: table::StreamHandler,
        req: &Request,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut sink = Counted { out, wrote: false };
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h(self, req, &mut sink)));
        self.end_stream();
        let wrote = sink.wrote;
        match result {
            Ok(Ok(io_result)) => io_result,
            Ok(Err(err)) => {
                out.write_all(
                    format_response(req.id.as_deref(), false, &err.to_string()).as_bytes(),
                )?;
                out.flush()
            }
            // A panic is a bug: end the response the client is reading.
            Err(_) if wrote => {
                out.write_all(b"\n")?;
                out.flush()
            }
            Err(_) => {
                out.write_all(
                    format_response(req.id.as_deref(), false, "internal error").as_bytes(),
                )?;
                out.flush()
            }
        }
    }

    /// A new, empty game of `size` with the same komi and rules; the clocks
    /// restart and the player forgets what it cached.
    pub(super) fn new_game(&mut self, size: usize) {
        let komi = self.game.komi();
        let rules = self.game.rules();
        self.game = Game::new(size, rules, komi).expect("size was checked");
        self.info = crate::sgf::GameInfo::default();
        self.clock = Clock::new(self.clock.settings);
        self.player.clear();
    }

    /// `points` as GTP vertices, space-separated.
    pub(super) fn vertices(&self, points: &[Point]) -> String {
        let size = self.game.size();
        points
            .iter()
            .map(|p| p.to_gtp(size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A move (vertex or `pass`) on the current board.
    pub(super) fn parse_vertex(&self, s: &str) -> Result<Move, ArgError> {
        args::vertex(s, self.game.size())
    }
}

/// Formats a response: `=id body` or `?id body`, then an empty line.
/// Control characters are removed and empty lines inside the body dropped,
/// so the response ends only where it should.
pub fn format_response(id: Option<&str>, success: bool, body: &str) -> String {
    let clean: String = body
        .chars()
        .filter(|&ch| ch == '\n' || !ch.is_control())
        .collect();
    let mut lines = clean.split('\n');
    let first = lines.next().unwrap_or("").trim_end();
    let mut out = String::with_capacity(clean.len() + 8);
    out.push(if success { '=' } else { '?' });
    out.push_str(id.unwrap_or(""));
    out.push(' ');
    out.push_str(first);
    for l in lines {
        let l = l.trim_end();
        if !l.trim().is_empty() {
            out.push('\n');
            out.push_str(l);
        }
    }
    out.push_str("\n\n");
    out
}

/// A sink that remembers whether anything was written.
struct Counted<'a> {
    out: &'a mut dyn Write,
    wrote: bool,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.wrote |= !buf.is_empty();
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_never_puts_an_empty_line_inside() {
        assert_eq!(format_response(Some("3"), true, ""), "=3 \n\n");
        assert_eq!(format_response(None, false, "x"), "? x\n\n");
        assert_eq!(format_response(None, true, "\na\n\n \nb\n"), "= \na\nb\n\n");
        assert_eq!(format_response(None, true, "a\x00b\rc"), "= abc\n\n");
    }

    #[test]
    fn argument_errors_keep_their_text() {
        let e: CommandError = ArgError::Number("x".into()).into();
        assert_eq!(e.to_string(), "invalid number 'x'");
    }
}

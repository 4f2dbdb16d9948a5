//! The GTP engine: state plus one function from a command line to its
//! response. No I/O here (see [`crate::gtp::io`] for the loop).
//!
//! One table, [`commands`], drives dispatch, `list_commands` and
//! `known_command`; names match exactly and case-sensitively.

use super::io::InputSignal;
use super::line::{self, Line, Request};
use super::status::{self, Status};
use crate::clock::{Clock, Overtime, TimeSettings, TimeSource, WallTime};
use crate::color::clip;
use crate::color::Color;
use crate::game::{fixed_handicap_points, Game, HandicapError};
use crate::mcts::{Analysis, Limits, MctsPlayer};
use crate::player::{Decision, GenmoveRequest, Player, RandomPlayer};
use crate::point::{parse_gtp_move, Move, Point, VertexError, MAX_SIZE, MIN_SIZE};
use crate::rules::{KoRule, Rules};
use crate::score::GameResult;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine's name, as `name` reports it.
pub const NAME: &str = "Kosumi";

/// Settings from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Board size at start and after `clear_board` until `boardsize`.
    pub size: usize,
    /// Komi at start (kept by `boardsize` and `clear_board`).
    pub komi: f32,
    /// Rules at start.
    pub rules: Rules,
    /// Seed of the player's random stream.
    pub seed: u64,
    /// Search threads (for the search player; the random player ignores it).
    pub threads: usize,
    /// Playouts per move, if limited (for the search player).
    pub playouts: Option<u64>,
    /// Seconds per move, if limited (for the search player).
    pub time: Option<f64>,
    /// Log more to stderr.
    pub verbose: bool,
    /// Think on the opponent's time (search player, I/O loop only): after a
    /// `genmove`, search the opponent's position until the next input line.
    pub ponder: bool,
    /// Seconds of lag charged to the own clock per move on top of the time
    /// a move-generating command took (`--lag`).
    pub lag: f64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            size: 19,
            komi: 7.5,
            rules: Rules::CHINESE,
            seed: 1,
            threads: 1,
            playouts: None,
            time: None,
            verbose: false,
            ponder: false,
            lag: crate::mcts::SearchConfig::default().lag_margin,
        }
    }
}

/// Why a command failed; its text is the error response. The variants
/// with fixed text are the specification's canonical messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// No such command (`unknown command`).
    UnknownCommand,
    /// Too few or too many arguments.
    Arguments(String),
    /// An argument that cannot be read (colour, vertex, number, name).
    Syntax(String),
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
            CommandError::Arguments(m) | CommandError::Syntax(m) => f.write_str(m),
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

impl From<String> for CommandError {
    fn from(s: String) -> CommandError {
        CommandError::Syntax(s)
    }
}

type Handler = fn(&mut Engine, &Request) -> Result<String, CommandError>;

/// A streaming command: it checks its arguments first (an error means
/// nothing was written, and the caller answers `?`), then writes its whole
/// response, `=` line to final empty line, to the sink as it goes.
type StreamHandler =
    fn(&mut Engine, &Request, &mut dyn Write) -> Result<io::Result<()>, CommandError>;

#[derive(Clone, Copy)]
enum Kind {
    Plain(Handler),
    Stream(StreamHandler),
}

/// One GTP command: its exact name, whether `list_commands` shows it, and
/// its handler.
pub struct CommandSpec {
    /// The exact, case-sensitive name.
    pub name: &'static str,
    /// Whether `list_commands` shows it (`known_command` knows every entry).
    pub listed: bool,
    handler: Kind,
}

const fn c(name: &'static str, handler: Handler) -> CommandSpec {
    CommandSpec {
        name,
        listed: true,
        handler: Kind::Plain(handler),
    }
}

const fn hidden(name: &'static str, handler: Handler) -> CommandSpec {
    CommandSpec {
        name,
        listed: false,
        handler: Kind::Plain(handler),
    }
}

const fn streaming(name: &'static str, handler: StreamHandler) -> CommandSpec {
    CommandSpec {
        name,
        listed: true,
        handler: Kind::Stream(handler),
    }
}

static COMMANDS: &[CommandSpec] = &[
    c("protocol_version", |_, r| no_args(r).map(|_| "2".into())),
    c("name", |_, r| no_args(r).map(|_| NAME.into())),
    c("version", |_, r| {
        no_args(r).map(|_| env!("CARGO_PKG_VERSION").into())
    }),
    c("known_command", cmd_known_command),
    c("list_commands", cmd_list_commands),
    c("quit", cmd_quit),
    c("boardsize", cmd_boardsize),
    c("clear_board", cmd_clear_board),
    c("komi", cmd_komi),
    c("play", cmd_play),
    c("genmove", |e, r| e.genmove(r, false, true)),
    c("reg_genmove", |e, r| e.genmove(r, false, false)),
    c("loadsgf", cmd_loadsgf),
    c("printsgf", cmd_printsgf),
    c("undo", cmd_undo),
    c("gg-undo", cmd_gg_undo),
    c("fixed_handicap", cmd_fixed_handicap),
    c("place_free_handicap", cmd_place_free_handicap),
    c("set_free_handicap", cmd_set_free_handicap),
    c("time_settings", cmd_time_settings),
    c("time_left", cmd_time_left),
    c("kgs-time_settings", cmd_kgs_time_settings),
    c("final_score", cmd_final_score),
    c("final_status_list", cmd_final_status_list),
    c("showboard", cmd_showboard),
    c("is_legal", cmd_is_legal),
    c("all_legal", cmd_all_legal),
    c("list_stones", cmd_list_stones),
    c("captures", cmd_captures),
    c("cputime", cmd_cputime),
    c("kgs-rules", cmd_kgs_rules),
    c("kgs-genmove_cleanup", |e, r| e.genmove(r, true, true)),
    c("kgs-game_over", |_, r| no_args(r).map(|_| String::new())),
    c("gogui-analyze_commands", cmd_gogui_analyze_commands),
    c("gogui-interrupt", |_, r| no_args(r).map(|_| String::new())),
    c("kosumi-rules", cmd_kosumi_rules),
    c("kosumi-superko_history", cmd_kosumi_superko_history),
    c("kosumi-ownership", cmd_kosumi_ownership),
    c("kosumi-pv", cmd_kosumi_pv),
    c("kosumi-candidates", cmd_kosumi_candidates),
    streaming("lz-analyze", |e, r, o| stream_analyze(e, r, o, Dialect::Lz)),
    streaming("kata-analyze", |e, r, o| {
        stream_analyze(e, r, o, Dialect::Kata)
    }),
    streaming("lz-genmove_analyze", |e, r, o| {
        stream_genmove_analyze(e, r, o, Dialect::Lz)
    }),
    streaming("kata-genmove_analyze", |e, r, o| {
        stream_genmove_analyze(e, r, o, Dialect::Kata)
    }),
    hidden("help", cmd_list_commands),
];

/// The command table.
pub fn commands() -> &'static [CommandSpec] {
    COMMANDS
}

fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The engine's player: the search (which also analyses), or any other
/// [`Player`] (the random player for tests).
pub enum EnginePlayer {
    /// The Monte-Carlo tree search, with live analysis.
    Search(Box<MctsPlayer>),
    /// Any other player; analysis commands answer an error.
    Other(Box<dyn Player>),
}

impl EnginePlayer {
    fn player(&mut self) -> &mut dyn Player {
        match self {
            EnginePlayer::Search(m) => m.as_mut(),
            EnginePlayer::Other(p) => p.as_mut(),
        }
    }

    fn search(&mut self) -> Result<&mut MctsPlayer, CommandError> {
        match self {
            EnginePlayer::Search(m) => Ok(m.as_mut()),
            EnginePlayer::Other(_) => Err(CommandError::Syntax(
                "analysis needs the search player (not --player random)".into(),
            )),
        }
    }

    fn clear(&mut self) {
        self.player().clear()
    }
}

/// A GTP engine: a game, clocks, and a player.
pub struct Engine {
    game: Game,
    clock: Clock,
    player: EnginePlayer,
    config: Config,
    quit: bool,
    stop: Arc<AtomicBool>,
    input: Option<(Arc<InputSignal>, u64)>,
    started: Instant,
    in_game: bool,
    time: Arc<dyn TimeSource>,
}

/// The commands that generate and play a move: each charges the own clock
/// of the colour that moved.
const MOVE_COMMANDS: [&str; 4] = [
    "genmove",
    "kgs-genmove_cleanup",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
];

impl Engine {
    /// An engine with `config` and `player`. The board size is clamped into
    /// 2..=25.
    pub fn new(config: Config, player: Box<dyn Player>) -> Engine {
        Engine::with_player(config, EnginePlayer::Other(player))
    }

    /// An engine with the search player `mcts`: analysis commands work.
    pub fn with_search(config: Config, mcts: MctsPlayer) -> Engine {
        Engine::with_player(config, EnginePlayer::Search(Box::new(mcts)))
    }

    fn with_player(config: Config, player: EnginePlayer) -> Engine {
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
        }
    }

    /// Reads the own clock's time from `time` (a
    /// [`crate::clock::ManualTime`] in tests) instead of the wall clock.
    pub fn set_time_source(&mut self, time: Arc<dyn TimeSource>) {
        self.time = time;
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

    fn debug(&self, msg: &str) {
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
    /// After a command that generated and played a move (`genmove`,
    /// `kgs-genmove_cleanup`, `lz-`/`kata-genmove_analyze`), the own clock
    /// of the colour that moved is charged the time the command took, its
    /// response included, plus the lag ([`Clock::charge`]).
    ///
    /// # Errors
    /// A failed write to `out`.
    pub fn respond_to(&mut self, line: Line, out: &mut dyn Write) -> io::Result<()> {
        let timed = matches!(&line, Line::Command(r) if MOVE_COMMANDS.contains(&r.name.as_str()));
        let (t0, moves) = (self.time.now(), self.game.moves().len());
        let result = self.respond_untimed(line, out);
        if timed && self.game.moves().len() == moves + 1 {
            if let Some(m) = self.game.moves().last() {
                let (color, took) = (m.color, self.time.now() - t0);
                self.clock.charge(color, took + self.config.lag);
                if self.config.verbose && !self.clock.is_unlimited() {
                    let st = self.clock.of(color);
                    self.debug(&format!(
                        "clock: {} took {took:.2} s; {:.2} s left ({})",
                        color.name(),
                        st.seconds,
                        st.count
                    ));
                }
            }
        }
        result
    }

    fn respond_untimed(&mut self, line: Line, out: &mut dyn Write) -> io::Result<()> {
        if let Line::Command(req) = &line {
            // Pondering belongs to a game in progress: from our first move
            // generation to a new game (or its end).
            match req.name.as_str() {
                "genmove"
                | "kgs-genmove_cleanup"
                | "lz-genmove_analyze"
                | "kata-genmove_analyze" => self.in_game = true,
                "clear_board" | "boardsize" | "loadsgf" | "kgs-game_over" | "quit" => {
                    self.in_game = false
                }
                _ => {}
            }
        }
        if let Line::Command(req) = &line {
            if let Some(CommandSpec {
                handler: Kind::Stream(h),
                ..
            }) = find(&req.name)
            {
                if self.config.verbose {
                    eprintln!("kosumi: < {} {}", req.name, req.raw_args);
                }
                let mut sink = Counted { out, wrote: false };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    h(self, req, &mut sink)
                }));
                self.end_stream();
                let wrote = sink.wrote;
                return match result {
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
                };
            }
        }
        if let Some(text) = self.respond_plain(line) {
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        Ok(())
    }

    fn respond_plain(&mut self, line: Line) -> Option<String> {
        match line {
            Line::Empty => None,
            Line::Error(e) => Some(format_response(e.id.as_deref(), false, &e.kind.to_string())),
            Line::Command(req) => {
                if self.config.verbose {
                    eprintln!("kosumi: < {} {}", req.name, req.raw_args);
                }
                // A panic is a bug; answer it as an error (the panic message
                // goes to stderr) rather than leave the controller hanging.
                let result = match find(&req.name) {
                    Some(CommandSpec {
                        handler: Kind::Plain(h),
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
                Some(text)
            }
        }
    }

    fn new_game(&mut self, size: usize) {
        let komi = self.game.komi();
        let rules = self.game.rules();
        self.game = Game::new(size, rules, komi).expect("size was checked");
        self.clock = Clock::new(self.clock.settings);
        self.player.clear();
    }

    fn genmove(&mut self, r: &Request, cleanup: bool, play: bool) -> Result<String, CommandError> {
        args_n(r, 1)?;
        let color = parse_color(&r.args[0])?;
        let decision = self.decide(color, cleanup);
        match decision {
            Decision::Resign => Ok("resign".into()),
            Decision::Play(mv) => {
                if play {
                    self.game
                        .play(color, mv)
                        .expect("decide returns legal moves");
                }
                Ok(mv.to_gtp(self.game.size()))
            }
        }
    }

    /// The move to play for `color`: the player's, checked for legality
    /// (an illegal choice becomes a pass, with a warning), and in clean-up
    /// mode never a pass or resignation while a dead opposing stone can
    /// still be attacked.
    fn decide(&mut self, color: Color, cleanup: bool) -> Decision {
        let stop = self.stop.clone();
        let req = GenmoveRequest {
            game: &self.game,
            color,
            clock: &self.clock,
            cleanup,
            stop: Some(&stop),
        };
        let d = self.player.player().genmove(&req);
        let d = self.checked(color, d);
        // The search has its own clean-up mode (it captures every stone its
        // ownership map calls dead, then passes).
        if matches!(self.player, EnginePlayer::Search(_)) {
            return d;
        }
        if cleanup && d != Decision::Play(Move::Pass) && d != Decision::Resign {
            return d;
        }
        if cleanup {
            let own = self.player.player().ownership(&self.game);
            let chains = status::classify(self.game.board(), &own);
            if let Some(mv) = status::cleanup_move(&self.game, color, &chains) {
                self.debug(&format!(
                    "clean-up: {} attacks a dead chain",
                    mv.to_gtp(self.game.size())
                ));
                return Decision::Play(mv);
            }
            return Decision::Play(Move::Pass);
        }
        d
    }

    /// `d` if it is legal for `color`, else a pass (with a warning).
    fn checked(&mut self, color: Color, d: Decision) -> Decision {
        if let Decision::Play(mv) = d {
            if let Err(e) = self.game.check(color, mv) {
                eprintln!(
                    "kosumi: warning: player {} chose the illegal move {} ({e}); passing",
                    self.player.player().name(),
                    mv.to_gtp(self.game.size())
                );
                return Decision::Play(Move::Pass);
            }
        }
        d
    }

    /// Chain statuses from the player's ownership by [`status::classify`].
    /// With the search, a chain is also dead when the search's dead-stone
    /// verdict holds for most of its stones: the search's ownership is
    /// compressed towards 0 (a lone dead stone in a finished 7x7 position
    /// scores about -0.4, inside its 0.5 threshold), so either verdict
    /// suffices.
    fn chains(&mut self) -> Vec<status::ChainStatus> {
        let own = self.player.player().ownership(&self.game);
        let mut chains = status::classify(self.game.board(), &own);
        if let EnginePlayer::Search(m) = &self.player {
            let dead = m.dead_stones(self.game.board(), &own);
            for c in &mut chains {
                let n = c.stones.iter().filter(|p| dead.contains(p)).count();
                if 2 * n > c.stones.len() {
                    c.status = Status::Dead;
                }
            }
        }
        chains
    }

    /// Marks a streaming command as running: from now on any new input line
    /// sets the stop flag (the reader thread does it), and a line that
    /// already arrived sets it at once.
    fn begin_stream(&mut self) {
        if let Some((signal, seq)) = &self.input {
            signal.streaming.store(true, Ordering::SeqCst);
            if signal.input_after(*seq) {
                self.stop.store(true, Ordering::SeqCst);
            }
        }
    }

    fn end_stream(&mut self) {
        if let Some((signal, _)) = &self.input {
            signal.streaming.store(false, Ordering::SeqCst);
        }
    }

    /// With `--ponder`, in a game (after our first move generation, until
    /// `clear_board`, `boardsize`, `loadsgf` or `kgs-game_over`) and with no
    /// input waiting: searches the position for the side to move until the
    /// next input line, so that the next `genmove` reuses the tree (KGS's
    /// `time_left` after our move does not end the game's pondering, only
    /// the current think). Returns at once otherwise (and always without
    /// the I/O loop).
    pub fn ponder(&mut self) {
        let due = self.in_game;
        let ended = self.game.two_passes();
        if !self.config.ponder
            || !due
            || ended
            || self.quit
            || self.input.is_none()
            || self.input_waiting()
            || !matches!(self.player, EnginePlayer::Search(_))
        {
            return;
        }
        self.begin_stream();
        let stop = self.stop.clone();
        let color = self.game.to_move();
        let Engine { game, player, .. } = &mut *self;
        if let EnginePlayer::Search(m) = player {
            let limits = Limits {
                playouts: None,
                time: None,
            };
            let a = m.analyze(
                game,
                color,
                limits,
                Some(&stop),
                Duration::from_secs(3600),
                &mut |_| {},
            );
            if self.config.verbose {
                eprintln!("kosumi: pondered {} playouts", a.playouts);
            }
        }
        self.end_stream();
    }

    /// Playouts an analysis may run: unbounded under the I/O loop (input
    /// stops it), else `--playouts` or 1000.
    fn analysis_limit(&self) -> Option<u64> {
        if self.input.is_some() {
            None
        } else {
            Some(self.config.playouts.unwrap_or(1000))
        }
    }

    /// Playouts of a one-shot analysis (`kosumi-pv`, `kosumi-candidates`).
    fn short_analysis(&mut self, color: Color) -> Result<Analysis, CommandError> {
        let limits = Limits {
            playouts: Some(self.config.playouts.unwrap_or(1000)),
            time: None,
        };
        let stop = self.stop.clone();
        let Engine { game, player, .. } = self;
        let m = player.search()?;
        Ok(m.analyze(
            game,
            color,
            limits,
            Some(&stop),
            Duration::from_secs(3600),
            &mut |_| {},
        ))
    }

    fn vertices(&self, points: &[Point]) -> String {
        let size = self.game.size();
        points
            .iter()
            .map(|p| p.to_gtp(size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn parse_vertex(&self, s: &str) -> Result<Move, String> {
        parse_gtp_move(s, self.game.size()).map_err(|e| e.to_string())
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

fn no_args(r: &Request) -> Result<(), CommandError> {
    args_n(r, 0)
}

fn args_n(r: &Request, n: usize) -> Result<(), CommandError> {
    if r.args.len() == n {
        Ok(())
    } else {
        Err(CommandError::Arguments(format!(
            "wrong number of arguments: {} expects {n}, got {}",
            r.name,
            r.args.len()
        )))
    }
}

fn parse_color(s: &str) -> Result<Color, String> {
    s.parse::<Color>().map_err(|e| e.to_string())
}

fn parse_count(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .map_err(|_| format!("invalid number '{}'", clip(s)))
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("invalid time '{}'", clip(s))),
    }
}

fn parse_u32(s: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .map_err(|_| format!("invalid number '{}'", clip(s)))
}

fn cmd_known_command(_: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    Ok(find(&r.args[0]).is_some().to_string())
}

fn cmd_list_commands(_: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    Ok(COMMANDS
        .iter()
        .filter(|c| c.listed)
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn cmd_quit(e: &mut Engine, _: &Request) -> Result<String, CommandError> {
    e.quit = true;
    Ok(String::new())
}

fn cmd_boardsize(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let n: i64 = r.args[0]
        .parse()
        .map_err(|_| format!("invalid size '{}'", clip(&r.args[0])))?;
    if n < MIN_SIZE as i64 || n > MAX_SIZE as i64 {
        return Err(CommandError::UnacceptableSize);
    }
    e.new_game(n as usize);
    Ok(String::new())
}

fn cmd_clear_board(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    e.new_game(e.game.size());
    Ok(String::new())
}

fn cmd_komi(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    match r.args[0].parse::<f32>() {
        Ok(k) if k.is_finite() && k.abs() <= 1000.0 => {
            e.game.set_komi(k);
            Ok(String::new())
        }
        _ => Err(CommandError::Syntax(format!(
            "invalid komi '{}'",
            clip(&r.args[0])
        ))),
    }
}

fn cmd_play(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 2)?;
    let color = parse_color(&r.args[0])?;
    let mv = e.parse_vertex(&r.args[1])?;
    match e.game.play(color, mv) {
        Ok(()) => Ok(String::new()),
        Err(why) => {
            eprintln!(
                "kosumi: play {} {}: {why}",
                color.name(),
                mv.to_gtp(e.game.size())
            );
            Err(CommandError::IllegalMove)
        }
    }
}

fn undo_n(e: &mut Engine, n: usize) -> Result<String, CommandError> {
    e.game.undo_many(n).map_err(|_| CommandError::CannotUndo)?;
    e.player.clear();
    Ok(String::new())
}

fn cmd_undo(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    undo_n(e, 1)
}

fn cmd_gg_undo(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let n = match r.args.len() {
        0 => 1,
        1 => parse_count(&r.args[0])?,
        _ => return args_n(r, 1).map(|_| String::new()),
    };
    undo_n(e, n)
}

fn handicap_error(err: HandicapError) -> CommandError {
    match err {
        HandicapError::BoardNotEmpty => CommandError::BoardNotEmpty,
        HandicapError::InvalidCount(_) => CommandError::InvalidStoneCount,
        HandicapError::BadPoint(_) => CommandError::BadVertexList,
    }
}

fn cmd_fixed_handicap(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let n = parse_count(&r.args[0])?;
    let points = e.game.fixed_handicap(n).map_err(handicap_error)?;
    e.player.clear();
    Ok(e.vertices(&points))
}

/// The points `place_free_handicap` uses for `n` stones: the fixed layout
/// where the table has one (capped at its largest count, as the spec allows
/// an engine to place fewer stones), else corner and centre points of a
/// small board.
fn free_handicap_points(size: usize, n: usize) -> Vec<Point> {
    if size >= 7 {
        let max = if size % 2 == 1 && size >= 9 { 9 } else { 4 };
        return fixed_handicap_points(size, n.min(max)).unwrap_or_default();
    }
    let far = size - 2;
    let mut pts = Vec::new();
    for (x, y) in [(far, 1), (1, far), (1, 1), (far, far), (size / 2, size / 2)] {
        let p = Point::new(x, y);
        if !pts.contains(&p) {
            pts.push(p);
        }
    }
    pts.truncate(n.min(size * size - 1));
    pts
}

fn cmd_place_free_handicap(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let n = parse_count(&r.args[0])?;
    if n < 2 || n >= e.game.size() * e.game.size() {
        return Err(CommandError::InvalidStoneCount);
    }
    if !e.game.moves().is_empty() || e.game.board().empty_count() != e.game.size().pow(2) {
        return Err(CommandError::BoardNotEmpty);
    }
    let points = free_handicap_points(e.game.size(), n);
    if points.len() < 2 {
        return Err(CommandError::InvalidStoneCount);
    }
    e.game.set_free_handicap(&points).map_err(handicap_error)?;
    e.player.clear();
    Ok(e.vertices(&points))
}

fn cmd_set_free_handicap(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let mut points = Vec::new();
    for a in &r.args {
        match e.parse_vertex(a)? {
            Move::Play(p) => points.push(p),
            Move::Pass => return Err(CommandError::BadVertexList),
        }
    }
    e.game.set_free_handicap(&points).map_err(|err| match err {
        HandicapError::BoardNotEmpty => CommandError::BoardNotEmpty,
        _ => CommandError::BadVertexList,
    })?;
    e.player.clear();
    Ok(String::new())
}

/// `loadsgf FILE [MOVE]`: the position before move MOVE (all moves when
/// omitted) of the file's main line, replayed tolerantly under the active
/// rules; board size and komi from the file (komi kept when the file has
/// none). FILE may be double-quoted when it holds spaces.
fn cmd_loadsgf(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let (file, rest) = line::quoted_arg(&r.raw_args)?;
    if file.is_empty() {
        return Err(CommandError::Arguments(
            "wrong number of arguments: loadsgf expects FILE [MOVE]".into(),
        ));
    }
    let rest: Vec<&str> = rest.split_whitespace().collect();
    let before = match rest.as_slice() {
        [] => None,
        [n] => Some(parse_count(n)?),
        _ => {
            return Err(CommandError::Arguments(
                "wrong number of arguments: loadsgf expects FILE [MOVE]".into(),
            ))
        }
    };
    let rules = e.game.rules();
    match crate::sgf::load_position(std::path::Path::new(&file), before, Some(rules)) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("kosumi: loadsgf {file}: {w}");
            }
            let komi = loaded.komi.unwrap_or(e.game.komi());
            e.game = loaded.game;
            e.game.set_komi(komi);
            e.game.set_rules(rules);
            e.player.clear();
            Ok(String::new())
        }
        Err(err) => {
            eprintln!("kosumi: loadsgf: {err}");
            Err(CommandError::CannotLoadFile)
        }
    }
}

/// `printsgf [FILE]`: the game as SGF, as the response or into FILE
/// (which may be double-quoted).
fn cmd_printsgf(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let (file, rest) = line::quoted_arg(&r.raw_args)?;
    if !rest.trim().is_empty() {
        return Err(CommandError::Arguments(
            "wrong number of arguments: printsgf expects [FILE]".into(),
        ));
    }
    let text = crate::sgf::game_to_sgf(&e.game, &crate::sgf::GameInfo::default());
    if file.is_empty() {
        return Ok(text);
    }
    std::fs::write(&file, &text).map_err(|err| {
        eprintln!("kosumi: printsgf {file}: {err}");
        CommandError::CannotWriteFile
    })?;
    Ok(String::new())
}

fn cmd_time_settings(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 3)?;
    let main = parse_seconds(&r.args[0])?;
    let byo = parse_seconds(&r.args[1])?;
    let stones = parse_u32(&r.args[2])?;
    e.clock = Clock::new(TimeSettings::from_gtp(main, byo, stones));
    Ok(String::new())
}

fn cmd_kgs_time_settings(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let kind = r.args.first().map(String::as_str).unwrap_or("");
    let settings = match (kind, r.args.len()) {
        ("none", 1) => TimeSettings::Unlimited,
        ("absolute", 2) => TimeSettings::Limited {
            main: parse_seconds(&r.args[1])?,
            overtime: Overtime::None,
        },
        ("byoyomi", 4) => TimeSettings::Limited {
            main: parse_seconds(&r.args[1])?,
            overtime: Overtime::Byoyomi {
                period: parse_seconds(&r.args[2])?,
                periods: parse_u32(&r.args[3])?,
            },
        },
        ("canadian", 4) => TimeSettings::Limited {
            main: parse_seconds(&r.args[1])?,
            overtime: Overtime::Canadian {
                period: parse_seconds(&r.args[2])?,
                stones: parse_u32(&r.args[3])?,
            },
        },
        _ => {
            return Err(CommandError::Arguments(
                "expected none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES"
                    .into(),
            ))
        }
    };
    e.clock = Clock::new(settings.normalized());
    Ok(String::new())
}

fn cmd_time_left(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 3)?;
    let color = parse_color(&r.args[0])?;
    let seconds = parse_seconds(&r.args[1])?;
    let count = parse_u32(&r.args[2])?;
    e.clock.set_time_left(color, seconds, count);
    Ok(String::new())
}

fn cmd_final_score(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    let chains = e.chains();
    let dead = status::stones_with(&chains, Status::Dead);
    let result: GameResult = e.game.area_score(&dead).result();
    Ok(result.to_string())
}

fn cmd_final_status_list(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let wanted = Status::parse(&r.args[0])
        .ok_or_else(|| format!("invalid status '{}'", clip(&r.args[0])))?;
    let chains = e.chains();
    let lines: Vec<String> = chains
        .iter()
        .filter(|c| c.status == wanted)
        .map(|c| e.vertices(&c.stones))
        .collect();
    Ok(lines.join("\n"))
}

fn cmd_showboard(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    let g = &e.game;
    Ok(format!(
        "\n{}{} to play; captures: black {}, white {}; komi {}; rules {}",
        g.board().diagram(true),
        g.to_move().name(),
        g.captures(Color::Black),
        g.captures(Color::White),
        g.komi(),
        g.rules()
    ))
}

fn cmd_is_legal(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 2)?;
    let color = parse_color(&r.args[0])?;
    match parse_gtp_move(&r.args[1], e.game.size()) {
        Ok(mv) => Ok(if e.game.is_legal(color, mv) { "1" } else { "0" }.into()),
        Err(VertexError::OffBoard(_)) => Ok("0".into()),
        Err(err) => Err(CommandError::Syntax(err.to_string())),
    }
}

fn cmd_all_legal(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let color = parse_color(&r.args[0])?;
    let pts: Vec<Point> = e
        .game
        .legal_moves(color)
        .into_iter()
        .filter_map(Move::point)
        .collect();
    Ok(e.vertices(&pts))
}

fn cmd_list_stones(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let color = parse_color(&r.args[0])?;
    let b = e.game.board();
    let pts: Vec<Point> = b.points().filter(|&p| b.get(p) == Some(color)).collect();
    Ok(e.vertices(&pts))
}

fn cmd_captures(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let color = parse_color(&r.args[0])?;
    Ok(e.game.captures(color).to_string())
}

/// CPU seconds used by this process (user + system) from `/proc/self/stat`
/// on Linux, else wall-clock seconds since the engine started.
fn cpu_seconds(started: Instant) -> f64 {
    let from_proc = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the parenthesised command name; utime and stime are
            // fields 14 and 15 of the whole line, in clock ticks (100 a second
            // on Linux).
            let rest = &s[s.rfind(')')? + 1..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            let utime: f64 = f.get(11)?.parse().ok()?;
            let stime: f64 = f.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        });
    from_proc.unwrap_or_else(|| started.elapsed().as_secs_f64())
}

fn cmd_cputime(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    Ok(format!("{:.3}", cpu_seconds(e.started)))
}

fn cmd_kgs_rules(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args_n(r, 1)?;
    let name = r.args[0].as_str();
    let Some(rules) = Rules::from_kgs_name(name) else {
        return Err(CommandError::Syntax(format!(
            "unknown rules '{}'",
            clip(name)
        )));
    };
    e.game.set_rules(rules);
    Ok(String::new())
}

const ANALYZE_COMMANDS: &str = "\
dboard/Ownership/kosumi-ownership
plist/Dead stones/final_status_list dead
plist/Seki stones/final_status_list seki
string/Final score/final_score
var/Principal variation/kosumi-pv %c
pspairs/Candidate moves (visits)/kosumi-candidates %c
string/Superko history/kosumi-superko_history
string/Rules/kosumi-rules
none/Rules: chinese/kosumi-rules chinese
none/Rules: japanese/kosumi-rules japanese
none/Rules: aga/kosumi-rules aga
none/Rules: new_zealand/kosumi-rules new_zealand
none/Rules: tromp-taylor/kosumi-rules tromp-taylor
plist/Legal moves/all_legal %c";

fn cmd_gogui_analyze_commands(_: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    Ok(ANALYZE_COMMANDS.into())
}

fn describe_rules(rules: Rules) -> String {
    format!(
        "{} (ko {}, suicide {})",
        rules.preset_name().unwrap_or("custom"),
        rules.ko.name(),
        if rules.suicide {
            "allowed"
        } else {
            "forbidden"
        }
    )
}

/// `kosumi-rules [PRESET | ko=simple|positional|situational |
/// suicide=yes|no]...`: applies each argument in turn, then shows the rules.
fn cmd_kosumi_rules(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let mut rules = e.game.rules();
    for a in &r.args {
        if let Some(k) = a.strip_prefix("ko=") {
            rules.ko = k.parse::<KoRule>().map_err(|e| e.to_string())?;
        } else if let Some(s) = a.strip_prefix("suicide=") {
            rules.suicide = match s {
                "yes" | "true" | "1" | "allowed" => true,
                "no" | "false" | "0" | "forbidden" => false,
                _ => {
                    return Err(CommandError::Syntax(format!(
                        "invalid suicide setting '{}'",
                        clip(s)
                    )))
                }
            };
        } else {
            rules = Rules::preset(a).map_err(|e| e.to_string())?;
        }
    }
    e.game.set_rules(rules);
    Ok(describe_rules(rules))
}

fn cmd_kosumi_superko_history(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    let g = &e.game;
    let size = g.size();
    let mut out = vec![format!(
        "rules {}; {} positions",
        describe_rules(g.rules()),
        g.history_len()
    )];
    for i in 0..g.history_len() {
        let Some((hash, to_move)) = g.history_entry(i) else {
            break;
        };
        let what = if i == 0 {
            "start".to_string()
        } else {
            let m = g.moves()[i - 1];
            format!("{} {}", m.color.letter(), m.mv.to_gtp(size))
        };
        out.push(format!(
            "{i} {what} {} to move {:016x}",
            to_move.name(),
            hash.0
        ));
    }
    let c = g.to_move();
    let mut forbidden = Vec::new();
    for p in g.board().points() {
        if let Err(crate::board::IllegalMove::Superko { after_move }) = g.check(c, Move::Play(p)) {
            forbidden.push(format!("{} (after move {after_move})", p.to_gtp(size)));
        }
    }
    out.push(format!(
        "superko forbids {}: {}",
        c.name(),
        if forbidden.is_empty() {
            "nothing".to_string()
        } else {
            forbidden.join(", ")
        }
    ));
    Ok(out.join("\n"))
}

fn cmd_kosumi_ownership(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    let own = e.player.player().ownership(&e.game);
    let n = e.game.size();
    Ok(own
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n"))
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

/// The analysis output format, as ../shared/CLIENTS.md 2.1 describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero: win rate, prior and lcb as integer ten-thousandths.
    Lz,
    /// KataGo: the same values as decimals (`0.465612`).
    Kata,
}

/// One `info` line of an analysis snapshot: every candidate except the
/// pass, best first, as `info move D4 visits 836 winrate 4656 prior 839
/// lcb 4640 order 0 pv D4 Q16`, `pv` last and the PV cut at its first pass;
/// with `ownership`, KataGo's `ownership` block follows the last candidate
/// (one value per point, row by row from the top, for the side analysed).
/// `None` when there is no candidate to show yet.
pub fn info_line(a: &Analysis, size: usize, dialect: Dialect, ownership: bool) -> Option<String> {
    let num = |v: f32| match dialect {
        Dialect::Lz => format!("{}", (v.clamp(0.0, 1.0) * 10000.0).round() as i64),
        Dialect::Kata => format!("{:.6}", v.clamp(0.0, 1.0)),
    };
    let mut pieces = Vec::new();
    for c in a.candidates.iter().filter(|c| c.mv != Move::Pass) {
        let pv: Vec<String> =
            c.pv.iter()
                .take_while(|m| **m != Move::Pass)
                .map(|m| m.to_gtp(size))
                .collect();
        pieces.push(format!(
            "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
            c.mv.to_gtp(size),
            c.visits,
            num(c.winrate),
            num(c.prior),
            num(c.lcb),
            pieces.len(),
            pv.join(" ")
        ));
    }
    if pieces.is_empty() {
        return None;
    }
    let mut line = pieces.join(" ");
    if ownership && a.ownership.len() == size * size {
        let sign = if a.color == Color::Black { 1.0 } else { -1.0 };
        line.push_str(" ownership");
        for v in &a.ownership {
            line.push_str(&format!(" {:.6}", sign * v));
        }
    }
    Some(line)
}

/// Arguments of the analysis commands: `[color] [interval] [key value]...`
/// (keys `interval`, `ownership true|false` for kata-, and KataGo's
/// `minmoves`/`maxmoves`, accepted and ignored).
struct AnalyzeArgs {
    color: Option<Color>,
    interval: Duration,
    ownership: bool,
}

fn parse_interval(s: &str) -> Result<Duration, CommandError> {
    let cs: u64 = s
        .parse()
        .map_err(|_| format!("invalid interval '{}'", clip(s)))?;
    // Centiseconds; at least 1 cs, so that updates never flood the client.
    Ok(Duration::from_millis(cs.clamp(1, 360_000) * 10))
}

fn parse_analyze_args(r: &Request, dialect: Dialect) -> Result<AnalyzeArgs, CommandError> {
    let mut out = AnalyzeArgs {
        color: None,
        interval: Duration::from_secs(1),
        ownership: false,
    };
    let mut args = r.args.iter().peekable();
    if let Some(a) = args.peek() {
        if let Ok(c) = a.parse::<Color>() {
            out.color = Some(c);
            args.next();
        }
    }
    if let Some(a) = args.peek() {
        if a.bytes().all(|b| b.is_ascii_digit()) {
            out.interval = parse_interval(a)?;
            args.next();
        }
    }
    while let Some(key) = args.next() {
        let Some(value) = args.next() else {
            return Err(CommandError::Arguments(format!(
                "missing value for '{}'",
                clip(key)
            )));
        };
        match key.as_str() {
            "interval" => out.interval = parse_interval(value)?,
            "ownership" if dialect == Dialect::Kata => {
                out.ownership = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(CommandError::Syntax(format!(
                            "invalid ownership '{}'",
                            clip(value)
                        )))
                    }
                }
            }
            "minmoves" | "maxmoves" => {
                parse_count(value)?;
            }
            _ => {
                return Err(CommandError::Syntax(format!(
                    "unknown analysis option '{}'",
                    clip(key)
                )))
            }
        }
    }
    Ok(out)
}

/// Writes one update line and flushes; a failed write stops the search.
fn write_update(
    out: &mut dyn Write,
    failed: &mut Option<io::Error>,
    stop: &AtomicBool,
    line: Option<String>,
) {
    let Some(line) = line else { return };
    if failed.is_some() {
        return;
    }
    let r = out
        .write_all(line.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush());
    if let Err(e) = r {
        *failed = Some(e);
        stop.store(true, Ordering::SeqCst);
    }
}

/// `lz-analyze [color] [interval]`, `kata-analyze [color] [interval]
/// [ownership true]`: the `=` line, one `info` line per interval, then
/// (when any input arrives, or the search ends) the empty line.
fn stream_analyze(
    e: &mut Engine,
    r: &Request,
    out: &mut dyn Write,
    dialect: Dialect,
) -> Result<io::Result<()>, CommandError> {
    let args = parse_analyze_args(r, dialect)?;
    e.player.search()?;
    let color = args.color.unwrap_or(e.game.to_move());
    let limits = Limits {
        playouts: e.analysis_limit(),
        time: None,
    };
    let id = r.id.clone().unwrap_or_default();
    if let Err(err) = out
        .write_all(format!("={id}\n").as_bytes())
        .and_then(|_| out.flush())
    {
        return Ok(Err(err));
    }
    e.begin_stream();
    let stop = e.stop.clone();
    let size = e.game.size();
    let Engine { game, player, .. } = e;
    let m = player.search()?;
    let mut failed = None;
    let last = m.analyze(game, color, limits, Some(&stop), args.interval, &mut |a| {
        write_update(
            out,
            &mut failed,
            &stop,
            info_line(a, size, dialect, args.ownership),
        )
    });
    // Ended by itself (a playout limit): show the final state too.
    if !stop.load(Ordering::SeqCst) {
        write_update(
            out,
            &mut failed,
            &stop,
            info_line(&last, size, dialect, args.ownership),
        );
    }
    if let Some(err) = failed {
        return Ok(Err(err));
    }
    Ok(out.write_all(b"\n").and_then(|_| out.flush()))
}

/// `lz-genmove_analyze color [interval]` (and `kata-`): like `genmove`
/// (same limits and clock), with `info` lines while the search runs, then
/// `play <move>` and the empty line; the move is played.
fn stream_genmove_analyze(
    e: &mut Engine,
    r: &Request,
    out: &mut dyn Write,
    dialect: Dialect,
) -> Result<io::Result<()>, CommandError> {
    let args = parse_analyze_args(r, dialect)?;
    let Some(color) = args.color else {
        return Err(CommandError::Arguments(format!(
            "{} expects a color first",
            r.name
        )));
    };
    e.player.search()?;
    let id = r.id.clone().unwrap_or_default();
    if let Err(err) = out
        .write_all(format!("={id}\n").as_bytes())
        .and_then(|_| out.flush())
    {
        return Ok(Err(err));
    }
    // Not stopped by new input (a queued command waits for the move, as
    // after `genmove`); `# interrupt` still ends the search early.
    let stop = e.stop.clone();
    let size = e.game.size();
    let mut failed = None;
    let decision = {
        let Engine {
            game,
            player,
            clock,
            ..
        } = &mut *e;
        let m = player.search()?;
        let req = GenmoveRequest {
            game,
            color,
            clock,
            cleanup: false,
            stop: Some(&stop),
        };
        m.genmove_analyze(&req, args.interval, &mut |a| {
            write_update(
                out,
                &mut failed,
                &stop,
                info_line(a, size, dialect, args.ownership),
            )
        })
    };
    let decision = e.checked(color, decision);
    let text = match decision {
        Decision::Resign => "resign".to_string(),
        Decision::Play(mv) => {
            e.game.play(color, mv).map_err(|_| CommandError::Internal)?;
            mv.to_gtp(size)
        }
    };
    if let Some(err) = failed {
        return Ok(Err(err));
    }
    Ok(out
        .write_all(format!("play {text}\n\n").as_bytes())
        .and_then(|_| out.flush()))
}

fn optional_color(e: &Engine, r: &Request) -> Result<Color, CommandError> {
    match r.args.as_slice() {
        [] => Ok(e.game.to_move()),
        [c] => Ok(parse_color(c)?),
        _ => args_n(r, 1).map(|_| Color::Black),
    }
}

/// `kosumi-pv [color]`: the principal variation of a short search, as
/// colour and move pairs (GoGui's `var`).
fn cmd_kosumi_pv(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let color = optional_color(e, r)?;
    let a = e.short_analysis(color)?;
    let size = e.game.size();
    let mut c = color;
    let mut out = Vec::new();
    if let Some(best) = a.candidates.first() {
        for m in &best.pv {
            out.push(format!("{} {}", c.letter(), m.to_gtp(size)));
            c = c.opponent();
        }
    }
    Ok(out.join(" "))
}

/// `kosumi-candidates [color]`: the root moves of a short search with
/// their visits (GoGui's `pspairs`).
fn cmd_kosumi_candidates(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let color = optional_color(e, r)?;
    let a = e.short_analysis(color)?;
    let size = e.game.size();
    Ok(a.candidates
        .iter()
        .filter(|c| c.mv != Move::Pass)
        .map(|c| format!("{} {}", c.mv.to_gtp(size), c.visits))
        .collect::<Vec<_>>()
        .join(" "))
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
    fn table_names_are_unique() {
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}

//! Games between two contestants: our own players, or outside GTP engines.
//!
//! [`play_game`] runs one game and returns a [`GameRecord`]; it prints
//! nothing. A game ends at two passes, a resignation or the move cap. Then,
//! unless a referee engine scores it, both sides play on in clean-up mode
//! (`kgs-genmove_cleanup` for engines that list it, [`GenmoveRequest`] with
//! `cleanup` for our players) until two more passes, and the final board is
//! counted by Tromp-Taylor area. A clean-up that changes nothing (two
//! passes straight away) is taken back, so the record ends at the game's own
//! two passes.
//!
//! Faults are part of the record, never a reason to stop: an unreadable or
//! illegal move loses by forfeit (`B+F`/`W+F`), a crash loses by forfeit, a
//! time-out loses on time (`B+T`/`W+T`); an engine that refuses a legal
//! move of the other side (its rules differ) makes the game void (`?`).
//!
//! With a game clock ([`GameConfig::clock`]) the arena is also the
//! timekeeper: both sides get the time settings at the start
//! (`time_settings`, or `kgs-time_settings` for byo-yomi to engines that
//! list it), and, when [`GameConfig::send_time_left`] is set, `time_left`
//! before each move; it runs a [`Clock`] per side on the wall time each
//! move takes ([`Clock::charge`]), and a side whose flag falls loses on
//! time; an outside engine that has not answered by the time its flag
//! falls (plus [`FLAG_GRACE`]) is killed. The clock stops for the
//! clean-up phase (only the move time-out applies there). Each record
//! keeps both sides' [`ClockUse`].
//!
//! [`run_match`] plays a series against an outside engine with colours
//! alternating. Our players are made by [`make_player`]: the search player
//! ([`crate::mcts::MctsPlayer`]) or the random player.

pub mod engine;

use crate::clock::{Clock, ClockState, Overtime, TimeSettings, TimeSource, WallTime};
use crate::color::Color;
use crate::game::{fixed_handicap_points, Game};
use crate::mcts::{MctsPlayer, SearchConfig};
use crate::player::{Decision, GenmoveRequest, Player, RandomPlayer};
use crate::point::{parse_gtp_move, Move};
use crate::rules::Rules;
use crate::score::GameResult;
use crate::sgf::{game_to_sgf, GameInfo};
use crate::stats::{json_counts, json_f64, json_str, text_counts, Tally};
use engine::{EngineError, GtpEngine};
use std::collections::BTreeMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Which of our players to build.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PlayerKind {
    /// The uniform random player (fast; the library default, for tests).
    #[default]
    Random,
    /// The Monte-Carlo tree search player (the command line's default).
    Search,
}

impl PlayerKind {
    /// `random` or `search`.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Search => "search",
        }
    }
}

/// Settings of our player, passed to [`make_player`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSpec {
    /// Which player.
    pub kind: PlayerKind,
    /// Playouts per move, if limited by count.
    pub playouts: Option<u64>,
    /// Seconds per move, if limited by time.
    pub time: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Dynamic komi per handicap stone (`None`: the search's default; see
    /// [`crate::mcts::search_komi`]).
    pub dyn_komi: Option<f32>,
    /// The longest think for one move (`None`: the search's default).
    pub max_move_time: Option<f64>,
    /// Lag charged to our own clock per move (`None`: the search's
    /// default).
    pub lag: Option<f64>,
}

impl PlayerSpec {
    /// The player's name and settings, for records: `random playouts=-
    /// time=- threads=1`.
    pub fn describe(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        let mut d = format!(
            "{} playouts={} time={} threads={}",
            self.kind.name(),
            opt(self.playouts.map(|p| p.to_string())),
            opt(self.time.map(|t| t.to_string())),
            self.threads.max(1)
        );
        if let Some(k) = self.dyn_komi {
            d.push_str(&format!(" dyn-komi={k}"));
        }
        if let Some(t) = self.max_move_time {
            d.push_str(&format!(" max-move-time={t}"));
        }
        if let Some(l) = self.lag {
            d.push_str(&format!(" lag={l}"));
        }
        d
    }

    /// The lag our player charges its own clock per move.
    pub fn lag(&self) -> f64 {
        self.lag.unwrap_or(SearchConfig::default().lag_margin)
    }
}

/// Builds our player for `spec`, seeded with `seed`. The random player
/// ignores the search settings. The search player thinks `spec.time`
/// seconds or `spec.playouts` playouts a move (its default time when
/// neither is given); with one thread and a playout limit it is
/// deterministic.
pub fn make_player(spec: &PlayerSpec, seed: u64) -> Box<dyn Player> {
    match spec.kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
        PlayerKind::Search => {
            let mut cfg = SearchConfig {
                threads: spec.threads.max(1),
                seed,
                max_playouts: spec.playouts,
                time_per_move: spec.time,
                ..SearchConfig::default()
            };
            if let Some(k) = spec.dyn_komi {
                cfg.dyn_komi_per_stone = k;
            }
            if let Some(t) = spec.max_move_time {
                cfg.max_move_time = t;
            }
            if let Some(l) = spec.lag {
                cfg.lag_margin = l;
            }
            Box::new(MctsPlayer::new(cfg))
        }
    }
}

/// A 64-bit mix of `a` and `b` (SplitMix64 finaliser over both), for
/// per-game and per-colour seeds.
pub fn mix_seed(a: u64, b: u64) -> u64 {
    fn fin(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fin(fin(a.wrapping_add(0x9e37_79b9_7f4a_7c15)) ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// What a contestant answered when asked for a move.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move (to be checked against the rules by the arena).
    Move(Move),
    /// A resignation.
    Resign,
    /// An answer that is no move (bad vertex text, a failure answer).
    Unreadable(String),
}

/// Why a contestant could not take part any more in this game.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The contestant crashed (or could not be started).
    Crash(String),
    /// The contestant did not answer in time.
    TimeOut(String),
    /// The contestant refused a command it should accept (a move the
    /// arena found legal, the board size).
    Refused(String),
    /// The stop flag was raised.
    Interrupted,
}

impl From<EngineError> for Fault {
    fn from(e: EngineError) -> Fault {
        match e {
            EngineError::TimedOut(_) => Fault::TimeOut(e.to_string()),
            EngineError::Interrupted => Fault::Interrupted,
            e => Fault::Crash(e.to_string()),
        }
    }
}

/// One side of a game.
pub trait Contestant {
    /// A name for the record.
    fn name(&self) -> String;
    /// Gets ready for a new game (`game` has no moves yet; its start is
    /// empty or holds handicap stones).
    ///
    /// # Errors
    /// A [`Fault`] if the contestant cannot start the game.
    fn new_game(&mut self, game: &Game, stop: &AtomicBool) -> Result<(), Fault>;
    /// Tells the contestant that `color` played `mv` (already in `game`).
    ///
    /// # Errors
    /// A [`Fault`] if the contestant does not take the move.
    fn play(&mut self, game: &Game, color: Color, mv: Move, stop: &AtomicBool)
        -> Result<(), Fault>;
    /// Asks for a move for `color`.
    ///
    /// # Errors
    /// A [`Fault`] if no answer comes.
    fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        cleanup: bool,
        stop: &AtomicBool,
    ) -> Result<Reply, Fault>;
    /// Playouts run so far (0 for contestants that cannot tell).
    fn playouts(&self) -> u64 {
        0
    }
    /// Tells the contestant the game's time system (after
    /// [`Contestant::new_game`], only for games with a clock). The default
    /// ignores it.
    ///
    /// # Errors
    /// A [`Fault`] if the contestant refuses it.
    fn time_settings(&mut self, _settings: TimeSettings, _stop: &AtomicBool) -> Result<(), Fault> {
        Ok(())
    }
    /// Tells the contestant `color`'s clock (GTP `time_left`). The default
    /// ignores it.
    ///
    /// # Errors
    /// A [`Fault`] if the contestant refuses it.
    fn time_left(
        &mut self,
        _color: Color,
        _state: ClockState,
        _stop: &AtomicBool,
    ) -> Result<(), Fault> {
        Ok(())
    }
    /// Limits the wait for the next move's answer to `limit` (the time to
    /// the contestant's flag and a grace); contestants that cannot be
    /// waited on ignore it.
    fn limit_next_move(&mut self, _limit: Duration) {}
}

/// How long past its flag an outside engine may take before it is killed.
pub const FLAG_GRACE: Duration = Duration::from_secs(1);

/// One of our players as a contestant. It keeps its own clock as the GTP
/// engine does: reset by the time settings, charged after each move with
/// the move's time plus the lag, corrected by `time_left`.
pub struct LocalContestant {
    player: Box<dyn Player>,
    clock: Clock,
    label: String,
    lag: f64,
    time: Arc<dyn TimeSource>,
}

impl LocalContestant {
    /// Wraps `player`; `label` names it in records. Its own clock charges
    /// [`SearchConfig`]'s default lag and reads the wall time.
    pub fn new(player: Box<dyn Player>, label: String) -> LocalContestant {
        LocalContestant {
            player,
            clock: Clock::default(),
            label,
            lag: SearchConfig::default().lag_margin,
            time: Arc::new(WallTime::new()),
        }
    }

    /// The same with its own clock charging `lag` seconds per move and
    /// reading `time`.
    pub fn with_clock(mut self, lag: f64, time: Arc<dyn TimeSource>) -> LocalContestant {
        self.lag = lag;
        self.time = time;
        self
    }

    /// The contestant's own clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
}

impl Contestant for LocalContestant {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn new_game(&mut self, _game: &Game, _stop: &AtomicBool) -> Result<(), Fault> {
        self.player.clear();
        self.clock = Clock::new(self.clock.settings);
        Ok(())
    }

    fn time_settings(&mut self, settings: TimeSettings, _stop: &AtomicBool) -> Result<(), Fault> {
        self.clock = Clock::new(settings.normalized());
        Ok(())
    }

    fn time_left(&mut self, color: Color, st: ClockState, _stop: &AtomicBool) -> Result<(), Fault> {
        self.clock.set_time_left(color, st.seconds, st.count);
        Ok(())
    }

    fn play(&mut self, _: &Game, _: Color, _: Move, _: &AtomicBool) -> Result<(), Fault> {
        Ok(())
    }

    fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        cleanup: bool,
        stop: &AtomicBool,
    ) -> Result<Reply, Fault> {
        let req = GenmoveRequest {
            game,
            color,
            clock: &self.clock,
            cleanup,
            stop: Some(stop),
        };
        let player = &mut self.player;
        let t0 = self.time.now();
        let decision = catch_unwind(AssertUnwindSafe(|| player.genmove(&req)));
        let took = self.time.now() - t0;
        if !cleanup {
            self.clock.charge(color, took + self.lag);
        }
        match decision {
            Ok(Decision::Play(mv)) => Ok(Reply::Move(mv)),
            Ok(Decision::Resign) => Ok(Reply::Resign),
            Err(p) => {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                Err(Fault::Crash(format!("player panicked: {msg}")))
            }
        }
    }

    fn playouts(&self) -> u64 {
        self.player.playouts()
    }
}

/// An outside GTP engine as a contestant; restarted for the next game
/// after a crash or a time-out. Each game starts with `boardsize`,
/// `clear_board`, `komi`, and `kgs-rules` when the engine lists it and our
/// rules have a KGS name; other rules must be set on its command line.
pub struct GtpContestant {
    command_line: String,
    engine: Option<GtpEngine>,
    move_timeout: Duration,
    setup_timeout: Duration,
    label: String,
    next_limit: Option<Duration>,
}

impl GtpContestant {
    /// Starts `command_line` now (so that a wrong command fails at once).
    ///
    /// # Errors
    /// [`EngineError`] if the engine does not start or answer.
    pub fn start(
        command_line: &str,
        move_timeout: Duration,
        setup_timeout: Duration,
    ) -> Result<GtpContestant, EngineError> {
        let engine = GtpEngine::start(command_line, setup_timeout)?;
        let label = engine.name.clone();
        Ok(GtpContestant {
            command_line: command_line.to_string(),
            engine: Some(engine),
            move_timeout,
            setup_timeout,
            label,
            next_limit: None,
        })
    }

    /// Sends a command, dropping (killing) the engine on any error.
    fn request(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Result<String, String>, Fault> {
        let Some(e) = self.engine.as_mut() else {
            return Err(Fault::Crash("engine is not running".into()));
        };
        match e.request(name, args, timeout, stop) {
            Ok(a) => Ok(a),
            Err(err) => {
                self.engine = None;
                Err(err.into())
            }
        }
    }
}

impl Contestant for GtpContestant {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn new_game(&mut self, game: &Game, stop: &AtomicBool) -> Result<(), Fault> {
        running_engine(&mut self.engine, &self.command_line, self.setup_timeout)
            .map_err(|e| Fault::Crash(format!("restart failed: {e}")))?;
        let t = self.setup_timeout;
        for (cmd, args) in start_commands(game) {
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            if let Err(msg) = self.request(cmd, &a, t, stop)? {
                if cmd == "komi" {
                    continue; // engines without komi still play
                }
                return Err(Fault::Refused(format!("{cmd} {}: {msg}", args.join(" "))));
            }
        }
        // Engines that take KGS rule names get ours; a refusal is only
        // noted by the engine (its own rules then apply, as on KGS).
        if let Some(n) = game.rules().kgs_name() {
            if self.engine.as_ref().is_some_and(|e| e.knows("kgs-rules")) {
                let _ = self.request("kgs-rules", &[n], t, stop)?;
            }
        }
        Ok(())
    }

    fn play(
        &mut self,
        game: &Game,
        color: Color,
        mv: Move,
        stop: &AtomicBool,
    ) -> Result<(), Fault> {
        let c = color.letter().to_string();
        let v = mv.to_gtp(game.size());
        let t = self.setup_timeout;
        match self.request("play", &[&c, &v], t, stop)? {
            Ok(_) => Ok(()),
            Err(msg) => Err(Fault::Refused(format!("play {c} {v}: {msg}"))),
        }
    }

    fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        cleanup: bool,
        stop: &AtomicBool,
    ) -> Result<Reply, Fault> {
        let cmd = if cleanup
            && self
                .engine
                .as_ref()
                .is_some_and(|e| e.knows("kgs-genmove_cleanup"))
        {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let c = color.letter().to_string();
        let t = match self.next_limit.take() {
            Some(limit) => limit.min(self.move_timeout),
            None => self.move_timeout,
        };
        match self.request(cmd, &[&c], t, stop)? {
            Err(msg) => Ok(Reply::Unreadable(format!("{cmd} failed: {msg}"))),
            Ok(text) => {
                let word = text.split_whitespace().next().unwrap_or("");
                if word.eq_ignore_ascii_case("resign") {
                    Ok(Reply::Resign)
                } else {
                    match parse_gtp_move(word, game.size()) {
                        Ok(mv) => Ok(Reply::Move(mv)),
                        Err(e) => Ok(Reply::Unreadable(e.to_string())),
                    }
                }
            }
        }
    }

    /// `kgs-time_settings` for byo-yomi when the engine lists it (and for
    /// anything `time_settings` cannot say), else `time_settings`.
    fn time_settings(&mut self, settings: TimeSettings, stop: &AtomicBool) -> Result<(), Fault> {
        let knows_kgs = self
            .engine
            .as_ref()
            .is_some_and(|e| e.knows("kgs-time_settings"));
        let byoyomi = matches!(
            settings,
            TimeSettings::Limited {
                overtime: Overtime::Byoyomi { .. },
                ..
            }
        );
        let (cmd, args) = match settings.to_gtp() {
            Some((m, b, n)) if !(byoyomi && knows_kgs) => (
                "time_settings",
                vec![gtp_seconds(m), gtp_seconds(b), n.to_string()],
            ),
            _ => ("kgs-time_settings", settings.to_kgs()),
        };
        let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let t = self.setup_timeout;
        match self.request(cmd, &a, t, stop)? {
            Ok(_) => Ok(()),
            Err(msg) => Err(Fault::Refused(format!("{cmd} {}: {msg}", args.join(" ")))),
        }
    }

    /// `time_left` with whole seconds (rounded down, as GTP wants
    /// integers).
    fn time_left(&mut self, color: Color, st: ClockState, stop: &AtomicBool) -> Result<(), Fault> {
        let c = color.letter().to_string();
        let secs = gtp_seconds(st.seconds.max(0.0).floor());
        let count = st.count.to_string();
        let t = self.setup_timeout;
        match self.request("time_left", &[&c, &secs, &count], t, stop)? {
            Ok(_) => Ok(()),
            Err(msg) => Err(Fault::Refused(format!(
                "time_left {c} {secs} {count}: {msg}"
            ))),
        }
    }

    fn limit_next_move(&mut self, limit: Duration) {
        self.next_limit = Some(limit);
    }
}

/// Seconds as GTP text: whole seconds without a fraction, else the decimal.
fn gtp_seconds(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A referee engine that scores finished games with `final_score`.
pub struct Referee {
    command_line: String,
    engine: Option<GtpEngine>,
    timeout: Duration,
}

impl Referee {
    /// Starts the referee now.
    ///
    /// # Errors
    /// [`EngineError`] if it does not start or answer.
    pub fn start(command_line: &str, timeout: Duration) -> Result<Referee, EngineError> {
        Ok(Referee {
            command_line: command_line.to_string(),
            engine: Some(GtpEngine::start(command_line, timeout)?),
            timeout,
        })
    }

    /// The referee's `final_score` of `game` (replayed move by move).
    ///
    /// # Errors
    /// A message when the referee fails, refuses a move or gives no
    /// readable result.
    pub fn score(&mut self, game: &Game, stop: &AtomicBool) -> Result<GameResult, String> {
        let e = running_engine(&mut self.engine, &self.command_line, self.timeout)
            .map_err(|e| e.to_string())?;
        let t = self.timeout;
        let mut cmds = start_commands(game);
        for m in game.moves() {
            cmds.push((
                "play",
                vec![m.color.letter().to_string(), m.mv.to_gtp(game.size())],
            ));
        }
        cmds.push(("final_score", vec![]));
        let mut last = String::new();
        for (name, args) in &cmds {
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            match e.request(name, &a, t, stop) {
                Ok(Ok(text)) => last = text,
                Ok(Err(msg)) => {
                    return Err(format!("referee refused {name} {}: {msg}", args.join(" ")))
                }
                Err(err) => {
                    self.engine = None;
                    return Err(format!("referee: {err}"));
                }
            }
        }
        match GameResult::parse(&last) {
            GameResult::Unknown => Err(format!("referee gave no result: '{last}'")),
            r => Ok(r),
        }
    }
}

/// The engine in `slot`, (re)started from `command_line` when there is
/// none or it has died.
fn running_engine<'a>(
    slot: &'a mut Option<GtpEngine>,
    command_line: &str,
    timeout: Duration,
) -> Result<&'a mut GtpEngine, EngineError> {
    if slot.as_ref().is_none_or(|e| e.is_dead()) {
        *slot = None;
        *slot = Some(GtpEngine::start(command_line, timeout)?);
    }
    Ok(slot.as_mut().expect("started above"))
}

/// The GTP commands that set an engine up at `game`'s start position:
/// `boardsize`, `clear_board`, `komi`, and `set_free_handicap` with the
/// handicap stones, if any (the only start positions games here have).
fn start_commands(game: &Game) -> Vec<(&'static str, Vec<String>)> {
    let mut cmds = vec![
        ("boardsize", vec![game.size().to_string()]),
        ("clear_board", vec![]),
        ("komi", vec![game.komi().to_string()]),
    ];
    let stones = game.handicap_stones();
    if !stones.is_empty() {
        let vertices = stones.iter().map(|&p| Move::Play(p).to_gtp(game.size()));
        cmds.push(("set_free_handicap", vertices.collect()));
    }
    cmds
}

/// The settings of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameConfig {
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f32,
    /// Rules.
    pub rules: Rules,
    /// Moves (passes counted) after which the game is stopped and scored.
    pub max_moves: usize,
    /// Longest time a contestant may take for a move (or a command), if
    /// limited.
    pub move_timeout: Option<Duration>,
    /// Whether to play a clean-up phase before counting.
    pub cleanup: bool,
    /// Fixed handicap stones for Black (0: none; White then moves first).
    pub handicap: usize,
    /// Black's and White's game clocks ([`TimeSettings::Unlimited`]:
    /// none).
    pub clock: [TimeSettings; 2],
    /// With a clock: tell each side its clock (`time_left`) before each of
    /// its moves.
    pub send_time_left: bool,
}

impl GameConfig {
    /// Checks the settings an outside caller could get wrong.
    ///
    /// # Errors
    /// A message for a board size outside 2..=25 or a komi that is not a
    /// finite number.
    pub fn check(&self) -> Result<(), String> {
        if !(crate::point::MIN_SIZE..=crate::point::MAX_SIZE).contains(&self.size) {
            return Err(format!(
                "board size {} is not between {} and {}",
                self.size,
                crate::point::MIN_SIZE,
                crate::point::MAX_SIZE
            ));
        }
        if !self.komi.is_finite() {
            return Err(format!("komi {} is not a number", self.komi));
        }
        for c in self.clock {
            if c.normalized() != c {
                return Err(format!("clock {c} is not a usable time system"));
            }
        }
        if self.handicap != 0 && fixed_handicap_points(self.size, self.handicap).is_none() {
            return Err(format!(
                "{} fixed handicap stones do not fit a {}x{} board",
                self.handicap, self.size, self.size
            ));
        }
        Ok(())
    }

    /// Defaults for `size`: komi 7.5, Chinese rules, a cap of `3·N·N`
    /// moves, no time-out, clean-up on, no handicap, no clock.
    pub fn new(size: usize) -> GameConfig {
        GameConfig {
            size,
            komi: 7.5,
            rules: Rules::CHINESE,
            max_moves: 3 * size * size,
            move_timeout: None,
            cleanup: true,
            handicap: 0,
            clock: [TimeSettings::Unlimited; 2],
            send_time_left: false,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Two passes in a row.
    TwoPasses,
    /// The move cap was reached.
    MoveCap,
    /// This colour resigned.
    Resignation(Color),
    /// This colour answered with an illegal or unreadable move.
    IllegalMove {
        /// Who.
        by: Color,
        /// The move and why it is illegal.
        what: String,
    },
    /// This colour crashed.
    Crash {
        /// Who.
        by: Color,
        /// How.
        what: String,
    },
    /// This colour did not answer in time.
    TimeOut {
        /// Who.
        by: Color,
        /// The detail.
        what: String,
    },
    /// This colour refused a command it should accept (void game).
    Refused {
        /// Who.
        by: Color,
        /// The command and its answer.
        what: String,
    },
    /// Stopped from outside (Ctrl-C); the game is not kept.
    Interrupted,
}

impl Ending {
    /// A short key: `passes`, `cap`, `resign`, `illegal`, `crash`,
    /// `timeout`, `refused`, `interrupted`.
    pub fn key(&self) -> &'static str {
        match self {
            Ending::TwoPasses => "passes",
            Ending::MoveCap => "cap",
            Ending::Resignation(_) => "resign",
            Ending::IllegalMove { .. } => "illegal",
            Ending::Crash { .. } => "crash",
            Ending::TimeOut { .. } => "timeout",
            Ending::Refused { .. } => "refused",
            Ending::Interrupted => "interrupted",
        }
    }

    /// The colour at fault or resigning, if any.
    pub fn by(&self) -> Option<Color> {
        match self {
            Ending::Resignation(c) => Some(*c),
            Ending::IllegalMove { by, .. }
            | Ending::Crash { by, .. }
            | Ending::TimeOut { by, .. }
            | Ending::Refused { by, .. } => Some(*by),
            _ => None,
        }
    }

    /// Whether a fault of one side ended the game (illegal move, crash,
    /// time-out, refusal).
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Ending::IllegalMove { .. }
                | Ending::Crash { .. }
                | Ending::TimeOut { .. }
                | Ending::Refused { .. }
        )
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::TwoPasses => f.write_str("two passes"),
            Ending::MoveCap => f.write_str("move cap reached"),
            Ending::Resignation(c) => write!(f, "{} resigned", c.name()),
            Ending::IllegalMove { by, what } => write!(f, "illegal move by {}: {what}", by.name()),
            Ending::Crash { by, what } => write!(f, "{} crashed: {what}", by.name()),
            Ending::TimeOut { by, what } => write!(f, "{} timed out: {what}", by.name()),
            Ending::Refused { by, what } => {
                write!(f, "{} refused a legal command (void): {what}", by.name())
            }
            Ending::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves, clean-up included.
    pub game: Game,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub ending: Ending,
    /// How the result was found (count, referee, fault).
    pub scoring: String,
    /// Moves before the clean-up phase (the game's length).
    pub length: usize,
    /// Black's and White's names.
    pub names: [String; 2],
    /// Time each colour spent on its moves.
    pub think: [Duration; 2],
    /// Moves each colour was asked for.
    pub genmoves: [u32; 2],
    /// Playouts run by both sides in this game (as far as they tell).
    pub playouts: u64,
    /// How Black and White used their clocks, in games with a clock.
    pub clock: Option<[ClockUse; 2]>,
}

/// How one side used its game clock (clean-up moves not counted).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClockUse {
    /// Seconds its moves took.
    pub used: f64,
    /// The least slack after a move: how much longer that move could have
    /// taken before the flag fell (see [`Clock::charge`]); below 0 the flag
    /// fell. Infinite before the first move.
    pub least_slack: f64,
    /// Moves timed.
    pub moves: u32,
    /// The time the clock gave those moves: main time, plus a period
    /// (byo-yomi) or a period's share per stone (Canadian) for each move
    /// that ended in overtime.
    pub available: f64,
}

impl ClockUse {
    fn new(settings: TimeSettings) -> ClockUse {
        let available = match settings {
            TimeSettings::Limited { main, .. } => main,
            TimeSettings::Unlimited => 0.0,
        };
        ClockUse {
            used: 0.0,
            least_slack: f64::INFINITY,
            moves: 0,
            available,
        }
    }

    /// The share of the available time used (0 before any move).
    pub fn share(&self) -> f64 {
        if self.available > 0.0 {
            self.used / self.available
        } else {
            0.0
        }
    }

    /// `used 18.2 s of 20 s (91%), least slack 1.30 s`.
    pub fn describe(&self) -> String {
        format!(
            "used {:.1} s of {:.1} s ({:.0}%), least slack {:.2} s",
            self.used,
            self.available,
            100.0 * self.share(),
            self.least_slack
        )
    }
}

/// Plays one game between `black` and `white`, timed on the wall clock.
///
/// # Panics
/// If `cfg` fails [`GameConfig::check`] (the runners check it first).
pub fn play_game(
    cfg: &GameConfig,
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    referee: Option<&mut Referee>,
    stop: &AtomicBool,
) -> GameRecord {
    play_game_timed(cfg, black, white, referee, stop, &WallTime::new())
}

/// Plays one game between `black` and `white`; the game clocks read
/// `time` (a [`crate::clock::ManualTime`] in tests).
///
/// # Panics
/// If `cfg` fails [`GameConfig::check`] (the runners check it first).
pub fn play_game_timed(
    cfg: &GameConfig,
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    referee: Option<&mut Referee>,
    stop: &AtomicBool,
    time: &dyn TimeSource,
) -> GameRecord {
    let sides: [&mut dyn Contestant; 2] = [black, white];
    let mut game = Game::new(cfg.size, cfg.rules, cfg.komi).expect("GameConfig::check passed");
    if cfg.handicap != 0 {
        game.fixed_handicap(cfg.handicap)
            .expect("GameConfig::check passed");
    }
    let names = [sides[0].name(), sides[1].name()];
    let playouts_before = sides[0].playouts() + sides[1].playouts();
    let mut think = [Duration::ZERO; 2];
    let mut genmoves = [0u32; 2];
    let mut ending = None;
    let timed = cfg.clock.map(|s| s != TimeSettings::Unlimited);
    let mut clocks = cfg.clock.map(Clock::new);
    let mut clock_use = cfg.clock.map(ClockUse::new);
    for c in Color::ALL {
        let mut r = sides[c.index()].new_game(&game, stop);
        if timed[c.index()] && r.is_ok() {
            r = sides[c.index()].time_settings(cfg.clock[c.index()], stop);
        }
        if let Err(f) = r {
            ending = Some(fault_ending(c, f));
            break;
        }
    }
    let mut cleanup = false;
    let mut cleanup_start = 0;
    let mut passes = 0;
    // Until a fault, or the end of the game (and of its clean-up).
    while ending.is_none() || cleanup {
        if stop.load(Ordering::SeqCst) {
            ending = Some(Ending::Interrupted);
            break;
        }
        let n = game.moves().len();
        if !cleanup && n >= cfg.max_moves {
            ending = Some(Ending::MoveCap);
            if cfg.cleanup && referee.is_none() {
                cleanup = true;
                cleanup_start = n;
                passes = 0;
            } else {
                break;
            }
        }
        if cleanup && n - cleanup_start >= cfg.max_moves {
            break;
        }
        let c = game.to_move();
        let on_clock = timed[c.index()] && !cleanup;
        let clock = &mut clocks[c.index()];
        if on_clock {
            if cfg.send_time_left {
                if let Err(f) = sides[c.index()].time_left(c, clock.of(c), stop) {
                    ending = Some(fault_ending(c, f));
                    break;
                }
            }
            let to_flag = clock.time_to_flag(c).min(1e9);
            sides[c.index()].limit_next_move(Duration::from_secs_f64(to_flag) + FLAG_GRACE);
        }
        let t0 = time.now();
        let reply = sides[c.index()].genmove(&game, c, cleanup, stop);
        let secs = (time.now() - t0).max(0.0);
        let dt = Duration::from_secs_f64(secs);
        think[c.index()] += dt;
        genmoves[c.index()] += 1;
        if on_clock {
            let to_flag = clock.time_to_flag(c);
            let slack = clock.charge(c, secs);
            let u = &mut clock_use[c.index()];
            u.used += secs;
            u.moves += 1;
            u.least_slack = u.least_slack.min(slack);
            if clock.in_overtime(c) {
                u.available += match cfg.clock[c.index()] {
                    TimeSettings::Limited {
                        overtime: Overtime::Byoyomi { period, .. },
                        ..
                    } => period,
                    TimeSettings::Limited {
                        overtime: Overtime::Canadian { period, stones },
                        ..
                    } => period / stones.max(1) as f64,
                    _ => 0.0,
                };
            }
            if slack < 0.0 {
                ending = Some(Ending::TimeOut {
                    by: c,
                    what: format!(
                        "ran out of time: took {secs:.2} s with {to_flag:.2} s to the flag"
                    ),
                });
                break;
            }
        }
        let reply = match reply {
            Ok(r) => r,
            Err(f) => {
                ending = Some(fault_ending(c, f));
                break;
            }
        };
        if let Some(limit) = cfg.move_timeout {
            if dt > limit {
                ending = Some(Ending::TimeOut {
                    by: c,
                    what: format!(
                        "took {:.1} s for a move, limit {:.1} s",
                        dt.as_secs_f64(),
                        limit.as_secs_f64()
                    ),
                });
                break;
            }
        }
        let mv = match reply {
            Reply::Resign => {
                ending = Some(Ending::Resignation(c));
                break;
            }
            Reply::Unreadable(what) => {
                ending = Some(Ending::IllegalMove { by: c, what });
                break;
            }
            Reply::Move(mv) => mv,
        };
        if let Err(why) = game.play(c, mv) {
            ending = Some(Ending::IllegalMove {
                by: c,
                what: format!("{} ({why})", mv.to_gtp(cfg.size)),
            });
            break;
        }
        let other = c.opponent();
        if let Err(f) = sides[other.index()].play(&game, c, mv, stop) {
            ending = Some(fault_ending(other, f));
            break;
        }
        if mv == Move::Pass {
            passes += 1;
        } else {
            passes = 0;
        }
        if passes >= 2 {
            if cleanup {
                break;
            }
            ending = Some(Ending::TwoPasses);
            if cfg.cleanup && referee.is_none() {
                cleanup = true;
                cleanup_start = game.moves().len();
                passes = 0;
            } else {
                break;
            }
        }
    }
    let mut length = game.moves().len();
    if cleanup {
        length = cleanup_start;
        if game.moves().len() == cleanup_start + 2 && game.two_passes() {
            // The clean-up changed nothing: keep the record as played.
            let _ = game.undo_many(2);
        }
    }
    let ending = ending.unwrap_or(Ending::TwoPasses);
    let (result, scoring) = match &ending {
        Ending::TwoPasses | Ending::MoveCap => score(&game, cleanup, referee, stop),
        Ending::Resignation(c) => (GameResult::Resign(c.opponent()), "resignation".into()),
        Ending::IllegalMove { by, .. } | Ending::Crash { by, .. } => {
            (GameResult::Forfeit(by.opponent()), "forfeit".into())
        }
        Ending::TimeOut { by, .. } => (GameResult::Time(by.opponent()), "loss on time".into()),
        Ending::Refused { .. } => (GameResult::Unknown, "void".into()),
        Ending::Interrupted => (GameResult::Unknown, "interrupted".into()),
    };
    let playouts = (sides[0].playouts() + sides[1].playouts()).saturating_sub(playouts_before);
    GameRecord {
        game,
        result,
        ending,
        scoring,
        length,
        names,
        think,
        genmoves,
        playouts,
        clock: (timed[0] || timed[1]).then_some(clock_use),
    }
}

fn fault_ending(by: Color, f: Fault) -> Ending {
    match f {
        Fault::Crash(what) => Ending::Crash { by, what },
        Fault::TimeOut(what) => Ending::TimeOut { by, what },
        Fault::Refused(what) => Ending::Refused { by, what },
        Fault::Interrupted => Ending::Interrupted,
    }
}

fn score(
    game: &Game,
    cleaned: bool,
    referee: Option<&mut Referee>,
    stop: &AtomicBool,
) -> (GameResult, String) {
    let mut note = String::new();
    if let Some(r) = referee {
        match r.score(game, stop) {
            Ok(res) => return (res, "referee final_score".into()),
            Err(e) => note = format!("{e}; "),
        }
    }
    let s = game.area_score(&[]);
    let how = if cleaned {
        "Tromp-Taylor count after clean-up"
    } else {
        "Tromp-Taylor count"
    };
    (
        s.result(),
        format!(
            "{note}{how}: Black {}, White {}, komi {}",
            s.black, s.white, s.komi
        ),
    )
}

/// The record as SGF text: `PB`/`PW` are the names, `RE` the result, `GN`
/// the game name and `C` the comment (the caller's text, then how the game
/// ended and was scored).
pub fn record_to_sgf(
    rec: &GameRecord,
    game_name: &str,
    comment: &str,
    date: Option<String>,
    extra: Vec<(String, Vec<String>)>,
) -> String {
    let mut c = comment.to_string();
    if !c.is_empty() {
        c.push('\n');
    }
    let played = rec.game.moves().len();
    let cleanup = if played > rec.length {
        format!(", then {} clean-up moves", played - rec.length)
    } else {
        String::new()
    };
    c.push_str(&format!(
        "Ended by {}; result {} ({}); {} moves{cleanup}.",
        rec.ending, rec.result, rec.scoring, rec.length
    ));
    if let Some([b, w]) = &rec.clock {
        c.push_str(&format!(
            "\nClock: Black {}; White {}.",
            b.describe(),
            w.describe()
        ));
    }
    let info = GameInfo {
        black: Some(rec.names[0].clone()),
        white: Some(rec.names[1].clone()),
        result: Some(rec.result.to_string()),
        date,
        game_name: Some(game_name.to_string()),
        comment: Some(c),
        extra,
    };
    game_to_sgf(&rec.game, &info)
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that no half-written file is ever left under `path`.
///
/// # Errors
/// The I/O error of the write or the rename (the temporary is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    let r = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// Settings of a match against an outside engine.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Per-game settings.
    pub game: GameConfig,
    /// Number of games.
    pub games: usize,
    /// Our player.
    pub player: PlayerSpec,
    /// Base seed of our player (per game: [`mix_seed`] of seed and index).
    pub seed: u64,
    /// The opponent's command line.
    pub opponent: String,
    /// A referee's command line, if games are scored by `final_score`.
    pub referee: Option<String>,
    /// Time allowed for start-up and non-move commands.
    pub setup_timeout: Duration,
    /// The opponent's clock when it differs from Kosumi's (`game.clock`
    /// gives Kosumi's, for both colours).
    pub opponent_clock: Option<TimeSettings>,
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// 0-based game number.
    pub index: usize,
    /// The colour Kosumi played.
    pub kosumi: Color,
    /// The game.
    pub record: GameRecord,
}

/// A match in numbers, from Kosumi's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSummary {
    /// Finished games (interrupted ones are not counted).
    pub games: u64,
    /// Kosumi's results.
    pub kosumi: Tally,
    /// Kosumi's results as Black.
    pub as_black: Tally,
    /// Kosumi's results as White.
    pub as_white: Tally,
    /// Games without a result.
    pub void: u64,
    /// Games by ending and culprit: `passes`, `cap`, `resign-kosumi`,
    /// `illegal-opponent`, ...
    pub endings: BTreeMap<String, u64>,
    /// Kosumi's and the opponent's total thinking time in seconds.
    pub think: [f64; 2],
    /// Moves Kosumi and the opponent were asked for.
    pub moves: [u64; 2],
    /// The opponent's name.
    pub opponent: String,
    /// Clock use, in matches with a game clock.
    pub clock: Option<ClockSummary>,
}

/// How Kosumi (0) and the opponent (1) used their game clocks over a
/// match (clean-up moves not counted).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockSummary {
    /// The time system, in `--clock` form.
    pub settings: String,
    /// Games counted.
    pub games: u64,
    /// The least slack of any move (the worst margin), seconds.
    pub least_slack: [f64; 2],
    /// The smallest share of the available time used in a game.
    pub share_min: [f64; 2],
    /// The largest share.
    pub share_max: [f64; 2],
    /// The sum of the shares (for the mean).
    pub share_sum: [f64; 2],
}

impl ClockSummary {
    /// An empty summary for a match with `cfg`, if either side has a clock.
    pub fn for_match(cfg: &MatchConfig) -> Option<ClockSummary> {
        let mine = cfg.game.clock[0];
        let theirs = cfg.opponent_clock.unwrap_or(mine);
        if mine == TimeSettings::Unlimited && theirs == TimeSettings::Unlimited {
            return None;
        }
        let settings = if mine == theirs {
            mine.to_string()
        } else {
            format!("{mine}, opponent {theirs}")
        };
        Some(ClockSummary {
            settings,
            games: 0,
            least_slack: [f64::INFINITY; 2],
            share_min: [f64::INFINITY; 2],
            share_max: [0.0; 2],
            share_sum: [0.0; 2],
        })
    }

    /// Adds one game's clock use, Kosumi's first.
    pub fn add(&mut self, uses: [ClockUse; 2]) {
        self.games += 1;
        for (i, u) in uses.iter().enumerate() {
            self.least_slack[i] = self.least_slack[i].min(u.least_slack);
            self.share_min[i] = self.share_min[i].min(u.share());
            self.share_max[i] = self.share_max[i].max(u.share());
            self.share_sum[i] += u.share();
        }
    }

    /// The mean share of side `i` (0: Kosumi).
    pub fn share_mean(&self, i: usize) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.share_sum[i] / self.games as f64
        }
    }

    fn text(&self) -> String {
        let side = |i: usize| {
            format!(
                "least slack {:.2} s, clock used {:.0}% (min {:.0}%, max {:.0}%)",
                self.least_slack[i],
                100.0 * self.share_mean(i),
                100.0 * self.share_min[i],
                100.0 * self.share_max[i]
            )
        };
        format!(
            "clock {} ({} games): Kosumi {}; opponent {}",
            self.settings,
            self.games,
            side(0),
            side(1)
        )
    }

    fn json(&self) -> String {
        let side = |i: usize| {
            format!(
                "{{\"least_slack\":{},\"share_mean\":{},\"share_min\":{},\"share_max\":{}}}",
                json_f64(self.least_slack[i]),
                json_f64(self.share_mean(i)),
                json_f64(self.share_min[i]),
                json_f64(self.share_max[i])
            )
        };
        format!(
            "{{\"settings\":{},\"games\":{},\"kosumi\":{},\"opponent\":{}}}",
            json_str(&self.settings),
            self.games,
            side(0),
            side(1)
        )
    }
}

impl MatchSummary {
    /// Adds one finished game.
    pub fn add(&mut self, g: &MatchGame) {
        let r = &g.record;
        if r.ending == Ending::Interrupted {
            return;
        }
        self.games += 1;
        if !self.kosumi.add(&r.result, g.kosumi) {
            self.void += 1;
        }
        match g.kosumi {
            Color::Black => self.as_black.add(&r.result, g.kosumi),
            Color::White => self.as_white.add(&r.result, g.kosumi),
        };
        let key = match r.ending.by() {
            Some(c) if c == g.kosumi => format!("{}-kosumi", r.ending.key()),
            Some(_) => format!("{}-opponent", r.ending.key()),
            None => r.ending.key().to_string(),
        };
        *self.endings.entry(key).or_insert(0) += 1;
        let k = g.kosumi.index();
        let o = 1 - k;
        self.think[0] += r.think[k].as_secs_f64();
        self.think[1] += r.think[o].as_secs_f64();
        self.moves[0] += r.genmoves[k] as u64;
        self.moves[1] += r.genmoves[o] as u64;
        if let (Some(c), Some(uses)) = (self.clock.as_mut(), r.clock) {
            c.add([uses[k], uses[o]]);
        }
    }

    /// Mean seconds per move of Kosumi (0) or the opponent (1).
    pub fn per_move(&self, side: usize) -> f64 {
        if self.moves[side] == 0 {
            0.0
        } else {
            self.think[side] / self.moves[side] as f64
        }
    }

    /// The summary for people, several lines.
    pub fn text(&self) -> String {
        let mut t = format!(
            "games {}  vs {}\nKosumi wins {}\n  as Black {}\n  as White {}\n\
             void {}  endings: {}\ntime per move: Kosumi {:.3} s, opponent {:.3} s",
            self.games,
            self.opponent,
            self.kosumi.describe(),
            self.as_black.describe(),
            self.as_white.describe(),
            self.void,
            text_counts(&self.endings),
            self.per_move(0),
            self.per_move(1)
        );
        if let Some(c) = &self.clock {
            t.push('\n');
            t.push_str(&c.text());
        }
        t
    }

    /// The summary as one JSON object.
    pub fn json(&self) -> String {
        fn tally(t: &Tally) -> String {
            let (lo, hi) = t.interval();
            format!(
                "{{\"wins\":{},\"losses\":{},\"draws\":{},\"rate\":{},\"ci95\":[{},{}]}}",
                t.wins,
                t.losses,
                t.draws,
                t.rate().map_or("null".into(), json_f64),
                json_f64(lo),
                json_f64(hi)
            )
        }
        let clock = match &self.clock {
            Some(c) => format!(",\"clock\":{}", c.json()),
            None => String::new(),
        };
        format!(
            "{{\"kind\":\"match\",\"opponent\":{},\"games\":{},\"kosumi\":{},\"as_black\":{},\
             \"as_white\":{},\"void\":{},\"endings\":{},\"seconds_per_move\":\
             {{\"kosumi\":{},\"opponent\":{}}}{clock}}}",
            json_str(&self.opponent),
            self.games,
            tally(&self.kosumi),
            tally(&self.as_black),
            tally(&self.as_white),
            self.void,
            json_counts(&self.endings),
            json_f64(self.per_move(0)),
            json_f64(self.per_move(1))
        )
    }
}

/// Why a match could not be played at all.
#[derive(Debug)]
pub enum MatchError {
    /// The settings fail [`GameConfig::check`].
    Config(String),
    /// The opponent or referee does not start.
    Engine(String, EngineError),
    /// A record could not be written.
    Io(std::path::PathBuf, std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(e) => f.write_str(e),
            MatchError::Engine(who, e) => write!(f, "{who}: {e}"),
            MatchError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for MatchError {}

/// Plays a match of `cfg.games` games, Kosumi Black in even-numbered games
/// (0, 2, ...). Calls `on_game` after each finished game (to write the
/// record, show progress); stops early, without counting the game in
/// progress, when `stop` is raised.
///
/// # Errors
/// [`MatchError`] for settings that fail [`GameConfig::check`], if the
/// opponent or the referee cannot be started, or if `on_game` fails.
pub fn run_match(
    cfg: &MatchConfig,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&MatchGame, &MatchSummary) -> Result<(), MatchError>,
) -> Result<MatchSummary, MatchError> {
    cfg.game.check().map_err(MatchError::Config)?;
    let move_timeout = cfg.game.move_timeout.unwrap_or(Duration::from_secs(3600));
    let mut opp = GtpContestant::start(&cfg.opponent, move_timeout, cfg.setup_timeout)
        .map_err(|e| MatchError::Engine("opponent".into(), e))?;
    let mut referee = match &cfg.referee {
        Some(r) => Some(
            Referee::start(r, cfg.setup_timeout)
                .map_err(|e| MatchError::Engine("referee".into(), e))?,
        ),
        None => None,
    };
    let mut summary = MatchSummary {
        opponent: opp.name(),
        clock: ClockSummary::for_match(cfg),
        ..MatchSummary::default()
    };
    for index in 0..cfg.games {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let kosumi = if index % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut me = LocalContestant::new(
            make_player(&cfg.player, mix_seed(cfg.seed, index as u64)),
            format!(
                "Kosumi {} ({})",
                env!("CARGO_PKG_VERSION"),
                cfg.player.describe()
            ),
        )
        .with_clock(cfg.player.lag(), Arc::new(WallTime::new()));
        let mut game = cfg.game.clone();
        if let Some(o) = cfg.opponent_clock {
            game.clock[kosumi.opponent().index()] = o;
        }
        let record = match kosumi {
            Color::Black => play_game(&game, &mut me, &mut opp, referee.as_mut(), stop),
            Color::White => play_game(&game, &mut opp, &mut me, referee.as_mut(), stop),
        };
        if record.ending == Ending::Interrupted {
            break;
        }
        let g = MatchGame {
            index,
            kosumi,
            record,
        };
        summary.add(&g);
        on_game(&g, &summary)?;
    }
    Ok(summary)
}

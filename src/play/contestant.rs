//! The two sides of a game: one of our players, or an outside GTP engine.
//!
//! A [`Contestant`] is asked for moves and told the other side's; what it
//! answers is a [`Reply`], and a [`Fault`] when it cannot go on (a crash,
//! a time-out, a refused command, the stop flag).

use super::client::{ClientError, GtpClient};
use crate::clock::{Clock, ClockState, Overtime, TimeSettings, TimeSource, WallTime};
use crate::color::Color;
use crate::game::Game;
use crate::mcts::SearchConfig;
use crate::player::{Analysis, Decision, GenmoveRequest, Player};
use crate::point::{parse_gtp_move, Move};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What a contestant answered when asked for a move.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move (to be checked against the rules by the game loop).
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
    /// game loop found legal, the board size).
    Refused(String),
    /// The stop flag was raised.
    Interrupted,
}

impl From<ClientError> for Fault {
    fn from(e: ClientError) -> Fault {
        match e {
            ClientError::TimedOut(_) => Fault::TimeOut(e.to_string()),
            ClientError::Interrupted => Fault::Interrupted,
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
    /// Black's win rate (0..1) by the search behind the move `mv` this
    /// contestant just chose for `color`, if it can tell. The default
    /// tells nothing.
    fn last_black_winrate(&self, _color: Color, _mv: Move) -> Option<f32> {
        None
    }
    /// The root visits behind the last move it chose (none for
    /// contestants that cannot tell).
    fn root_visits(&self) -> Vec<(Move, u32)> {
        Vec::new()
    }
    /// Tells the contestant the game's time system (after
    /// [`Contestant::new_game`], only for a side with a clock). The default
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
/// the move's time plus the lag, corrected by `time_left` (in whole
/// seconds, as over GTP).
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

    /// Whole seconds, rounded down, as [`GtpContestant`] tells an outside
    /// engine, so both sides of a match read the same clock.
    fn time_left(&mut self, color: Color, st: ClockState, _stop: &AtomicBool) -> Result<(), Fault> {
        self.clock
            .set_time_left(color, st.seconds.max(0.0).floor(), st.count);
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

    fn last_black_winrate(&self, color: Color, mv: Move) -> Option<f32> {
        black_winrate_of(self.player.last_search()?, color, mv)
    }

    fn root_visits(&self) -> Vec<(Move, u32)> {
        self.player.last_search().map_or_else(Vec::new, |a| {
            a.candidates.iter().map(|c| (c.mv, c.visits)).collect()
        })
    }
}

/// Black's win rate (0..1) behind the move `mv` that `color` played, by
/// the search `a` (none unless it searched for `color`): the win rate of
/// `mv` among the candidates, or the best move's where `mv` has no
/// visits (a clean-up move, or a move played instead of a most visited
/// pass that the count says loses).
fn black_winrate_of(a: &Analysis, color: Color, mv: Move) -> Option<f32> {
    if a.color != color || a.visits == 0 {
        return None;
    }
    let own = a
        .candidates
        .iter()
        .find(|c| c.mv == mv)
        .map_or(a.winrate, |c| c.winrate);
    Some(match color {
        Color::Black => own,
        Color::White => 1.0 - own,
    })
}

/// An outside GTP engine as a contestant; restarted for the next game
/// after a crash or a time-out. Each game starts with `boardsize`,
/// `clear_board`, `komi`, and `kgs-rules` when the engine lists it and our
/// rules have a KGS name; other rules must be set on its command line.
pub struct GtpContestant {
    command_line: String,
    engine: Option<GtpClient>,
    move_timeout: Duration,
    setup_timeout: Duration,
    label: String,
    seed: Option<u64>,
    next_limit: Option<Duration>,
}

impl GtpContestant {
    /// Starts `command_line` now (so that a wrong command fails at once).
    ///
    /// # Errors
    /// [`ClientError`] if the engine does not start or answer.
    pub fn start(
        command_line: &str,
        move_timeout: Duration,
        setup_timeout: Duration,
    ) -> Result<GtpContestant, ClientError> {
        let engine = GtpClient::start(command_line, setup_timeout)?;
        let label = engine.name.clone();
        Ok(GtpContestant {
            command_line: command_line.to_string(),
            engine: Some(engine),
            move_timeout,
            setup_timeout,
            label,
            seed: None,
            next_limit: None,
        })
    }

    /// The random seed the engine gets at the start of each following
    /// game, with `set_random_seed` (GNU Go's command, which Kosumi also
    /// answers) when the engine lists it; engines without it keep their
    /// own seed. Reduced modulo 2^31, since engines read it as an `int`.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = Some(seed % (1 << 31));
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
        if let Some(seed) = self.seed {
            if self
                .engine
                .as_ref()
                .is_some_and(|e| e.knows("set_random_seed"))
            {
                let seed = seed.to_string();
                if let Err(msg) = self.request("set_random_seed", &[&seed], t, stop)? {
                    return Err(Fault::Refused(format!("set_random_seed {seed}: {msg}")));
                }
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

/// The engine in `slot`, (re)started from `command_line` when there is
/// none or it has died.
pub(super) fn running_engine<'a>(
    slot: &'a mut Option<GtpClient>,
    command_line: &str,
    timeout: Duration,
) -> Result<&'a mut GtpClient, ClientError> {
    if slot.as_ref().is_none_or(|e| e.is_dead()) {
        *slot = None;
        *slot = Some(GtpClient::start(command_line, timeout)?);
    }
    Ok(slot.as_mut().expect("started above"))
}

/// The GTP commands that set an engine up at `game`'s start position:
/// `boardsize`, `clear_board`, `komi`, and `set_free_handicap` with the
/// handicap stones, if any (the only start positions games here have).
pub(super) fn start_commands(game: &Game) -> Vec<(&'static str, Vec<String>)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::CandidateInfo;

    #[test]
    fn the_record_takes_the_win_rate_of_the_move_played() {
        // White's search: the pass most visited at 100% (playouts that
        // keep a false seki), but the count says the pass loses, and
        // White plays A5 at 10%.
        let a5 = parse_gtp_move("A5", 9).unwrap();
        let b1 = parse_gtp_move("B1", 9).unwrap();
        let a = Analysis {
            color: Color::White,
            visits: 12_000,
            playouts: 12_000,
            winrate: 1.0,
            score_lead: -3.0,
            root_winrate: 0.4,
            root_score_lead: -3.0,
            root_score_stdev: 5.0,
            candidates: vec![
                CandidateInfo::bare(Move::Pass, 7000, 1.0),
                CandidateInfo::bare(a5, 5000, 0.1),
            ],
            unvisited: Vec::new(),
            ownership: Vec::new(),
        };
        let black = |color, mv| black_winrate_of(&a, color, mv);
        assert!((black(Color::White, a5).unwrap() - 0.9).abs() < 1e-6);
        assert_eq!(black(Color::White, Move::Pass), Some(0.0));
        // A move the search never visited gets the best move's.
        assert_eq!(black(Color::White, b1), Some(0.0));
        // A search for the other side tells nothing.
        assert_eq!(black(Color::Black, a5), None);
    }
}

//! One game between two contestants: its settings, the game loop, how it
//! ended and its record.
//!
//! [`play_game`] runs one game and returns a [`GameRecord`]; it prints
//! nothing. See [the module above](super) for how games end and how faults
//! are recorded.

use super::contestant::{Contestant, Fault, Reply, FLAG_GRACE};
use super::referee::Referee;
use crate::clock::{Clock, Overtime, TimeSettings, TimeSource, WallTime};
use crate::color::Color;
use crate::endgame;
use crate::game::{fixed_handicap_points, Game};
use crate::komi::Komi;
use crate::player::policy_ownership;
use crate::point::{Move, ARRAY_LEN};
use crate::rules::{Rules, Scoring};
use crate::score::GameResult;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The settings of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameConfig {
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: Komi,
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
    /// A message for a board size outside 2..=25 or a handicap that does
    /// not fit the board (komi is a [`Komi`], checked when it was made).
    pub fn check(&self) -> Result<(), String> {
        if !(crate::point::MIN_SIZE..=crate::point::MAX_SIZE).contains(&self.size) {
            return Err(format!(
                "board size {} is not between {} and {}",
                self.size,
                crate::point::MIN_SIZE,
                crate::point::MAX_SIZE
            ));
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
            komi: Komi::default(),
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
    /// Black's win rate (0..1) after each move, as the search of the side
    /// that chose it saw it (`None` for a side that does not tell, such as
    /// an outside engine); written as Sabaki's `SBKV` in the record.
    pub winrates: Vec<Option<f32>>,
    /// Per move of `game`, the root visits of the search that chose it
    /// (empty where the contestant cannot tell).
    pub visits: Vec<Vec<(Move, u32)>>,
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

    /// `used 18.2 s of 20.0 s (91%), least slack 1.30 s`, or `no timed
    /// moves` (a side without a clock).
    pub fn describe(&self) -> String {
        if self.moves == 0 {
            return "no timed moves".to_string();
        }
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
    mut referee: Option<&mut Referee>,
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
    // The referee's verdict at the two passes, when it was asked then and
    // answered.
    let mut ruling: Option<Ruling> = None;
    let mut winrates: Vec<Option<f32>> = Vec::new();
    let mut visits: Vec<Vec<(Move, u32)>> = Vec::new();
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
        winrates.resize(game.moves().len() - 1, None);
        winrates.push(sides[c.index()].last_black_winrate(c, mv));
        visits.push(sides[c.index()].root_visits());
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
            if let (true, Some(r)) = (cfg.cleanup, referee.as_deref_mut()) {
                ruling = check_referee(r, &game, stop);
            }
            let disputed = matches!(ruling, Some(Ruling::Disputed(_)));
            if cfg.cleanup && (referee.is_none() || disputed) {
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
    visits.truncate(game.moves().len());
    let ending = ending.unwrap_or(Ending::TwoPasses);
    let (result, scoring) = match &ending {
        Ending::TwoPasses | Ending::MoveCap => match ruling {
            Some(Ruling::Agreed(res)) => (res, "referee final_score".into()),
            Some(Ruling::Disputed(note)) => {
                let (res, how) = score(&game, cleanup.then_some(cleanup_start), None, stop);
                (res, format!("{note}; {how}"))
            }
            None => score(&game, cleanup.then_some(cleanup_start), referee, stop),
        },
        Ending::Resignation(c) => (GameResult::Resign(c.opponent()), "resignation".into()),
        Ending::IllegalMove { by, .. } | Ending::Crash { by, .. } => {
            (GameResult::Forfeit(by.opponent()), "forfeit".into())
        }
        Ending::TimeOut { by, .. } => (GameResult::Time(by.opponent()), "loss on time".into()),
        Ending::Refused { .. } => (GameResult::Unknown, "void".into()),
        Ending::Interrupted => (GameResult::Unknown, "interrupted".into()),
    };
    let playouts = (sides[0].playouts() + sides[1].playouts()).saturating_sub(playouts_before);
    winrates.resize(game.moves().len(), None);
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
        winrates,
        visits,
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

/// Playouts of the ownership estimate behind the count of a finished game.
pub const COUNT_PLAYOUTS: usize = 200;

/// The count of a finished game without a referee: [`endgame::count`] by
/// the game's rules, with the chains that [`endgame::classify`] calls dead
/// by [`policy_ownership`] ([`COUNT_PLAYOUTS`] playouts of the search's
/// policy, a fixed seed, so the same game always counts the same)
/// removed. The policy keeps sekis; uniform playouts, used until
/// November 2026, called a seki dead and counted a game that GNU Go's
/// `final_score` gives White by 3 as Black's by 22.
pub fn count_finished(game: &Game) -> endgame::Count {
    let own = policy_ownership(game, COUNT_PLAYOUTS, 1);
    let chains = endgame::classify(game.board(), &own);
    endgame::count(game, &chains)
}

/// The count of a finished game whose clean-up began after `start` moves
/// (see [`count_finished`] for the dead stones).
///
/// By area, the position after the clean-up counts as it stands: a stone
/// played in it changes nothing. By territory, each stone played in the
/// clean-up would cost its player a point (GNU Go's clean-up, and ours,
/// capture dead stones inside their own territory, which the count would
/// have given them as prisoners anyway; KGS plays no clean-up under
/// Japanese rules). So the position before the clean-up is counted, with
/// the chains the clean-up captured, and those still dead after it,
/// removed as dead.
pub fn count_after_cleanup(game: &Game, start: usize) -> endgame::Count {
    let own = policy_ownership(game, COUNT_PLAYOUTS, 1);
    let end_chains = endgame::classify(game.board(), &own);
    let played = game.moves().len();
    if game.rules().scoring == Scoring::Area || start >= played {
        return endgame::count(game, &end_chains);
    }
    let mut before = game.clone();
    before
        .undo_many(played - start)
        .expect("start is below the moves played");
    let mut status_at = vec![None; ARRAY_LEN];
    for ch in &end_chains {
        for p in &ch.stones {
            status_at[p.index()] = Some(ch.status);
        }
    }
    let after = game.board();
    let mut chains = endgame::classify(before.board(), &own);
    for ch in &mut chains {
        ch.status = if ch.stones.iter().any(|&p| after.get(p) != Some(ch.color)) {
            endgame::Status::Dead
        } else {
            status_at[ch.stones[0].index()].unwrap_or(ch.status)
        };
    }
    endgame::count(&before, &chains)
}

/// The referee's `final_score` at the two passes, checked against our own
/// count.
enum Ruling {
    /// The referee's result, whose winner our count agrees with.
    Agreed(GameResult),
    /// The two name different winners (the referee's dead stones are
    /// GNU Go's guess, and GNU Go calls some sekis dead): the game goes
    /// on in clean-up mode, where each side can capture what it holds
    /// dead, and is counted as a game without a referee. The note says
    /// both results.
    Disputed(String),
}

/// Asks the referee for the score of `game` at its two passes and checks
/// the winner against [`count_finished`]; none when the referee fails (the
/// end of the game then asks it again, as without the check).
fn check_referee(r: &mut Referee, game: &Game, stop: &AtomicBool) -> Option<Ruling> {
    let theirs = r.score(game, stop).ok()?;
    let ours = count_finished(game).result();
    Some(if ours.winner() == theirs.winner() {
        Ruling::Agreed(theirs)
    } else {
        Ruling::Disputed(format!(
            "referee final_score {theirs} disputed by the count {ours} at the two passes, \
             so played on in clean-up mode"
        ))
    })
}

fn score(
    game: &Game,
    cleanup_start: Option<usize>,
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
    let count = match cleanup_start {
        None => count_finished(game),
        Some(start) => count_after_cleanup(game, start),
    };
    let after = match (cleanup_start, count.scoring) {
        (None, _) => "",
        (Some(_), Scoring::Territory) => " before clean-up, dead stones as the clean-up found them",
        (Some(_), Scoring::Area) => " after clean-up",
    };
    (
        count.result(),
        format!("{note}{}{after}, dead stones by endgame", count.describe()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::point::parse_gtp_move;

    fn pt(v: &str) -> crate::point::Point {
        match parse_gtp_move(v, 9).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!(),
        }
    }

    /// Black's wall on E and White's on F, a dead white stone at B5 inside
    /// Black's 36 points; then, from move 0, a clean-up in which Black
    /// captures it with four stones while White passes.
    fn cleaned_up(rules: Rules) -> Game {
        let mut rows = [". . . . X O . . ."; 9];
        rows[4] = ". O . . X O . . .";
        let board = Board::from_diagram(&rows.join("\n")).unwrap();
        let komi = Komi::new(6.5).unwrap();
        let mut game = Game::from_position(board, Color::Black, rules, komi);
        for v in ["A5", "B6", "B4", "C5"] {
            if !game.moves().is_empty() {
                game.play(Color::White, Move::Pass).unwrap();
            }
            game.play(Color::Black, Move::Play(pt(v))).unwrap();
        }
        assert!(game.board().is_empty(pt("B5")));
        game
    }

    #[test]
    fn territory_count_after_clean_up_charges_no_clean_up_stone() {
        let game = cleaned_up(Rules::JAPANESE);
        // Counted as it stands, Black pays a point for each of its four
        // clean-up stones: 32 points of territory and the prisoner.
        let naive = count_finished(&game);
        assert_eq!((naive.black, naive.white), (33, 27));
        // Before the clean-up, with B5 dead: 36 points and the prisoner.
        let c = count_after_cleanup(&game, 0);
        assert_eq!((c.black, c.white), (37, 27));
        assert_eq!(c.result().to_string(), "B+3.5");
    }

    #[test]
    fn area_count_after_clean_up_is_the_count_as_it_stands() {
        let game = cleaned_up(Rules::CHINESE);
        let c = count_after_cleanup(&game, 0);
        assert_eq!((c.black, c.white), (45, 36));
        assert_eq!(c, count_finished(&game));
    }
}

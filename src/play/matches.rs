//! Matches: a series of games between one of our players and an outside
//! GTP engine, colours alternating, and their summary.

use super::contestant::{Contestant, GtpContestant, LocalContestant};
use super::game::{play_game, ClockUse, Ending};
use super::match_table::{MatchConfig, MatchError, MatchGame, MatchRow, SprtJson, SprtState};
use super::referee::Referee;
use super::spec::{describe_player, make_player};
use crate::clock::{TimeSettings, WallTime};
use crate::color::Color;
use crate::sprt::SprtVerdict;
use crate::stats::{text_counts, Num, Tally, TallyJson};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
    /// The sequential test, when the match runs one.
    pub sprt: Option<SprtState>,
    /// Clock use, in matches with a game clock.
    pub clock: Option<ClockSummary>,
}

/// How Kosumi (0) and the opponent (1) used their game clocks over a
/// match (clean-up moves not counted).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockSummary {
    /// The time systems, in `--clock` form.
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
            if !self.least_slack[i].is_finite() {
                return "no timed moves".to_string();
            }
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

    /// The clock use as the JSON summary writes it.
    pub fn to_json(&self) -> ClockJson {
        let side = |i: usize| ClockSideJson {
            least_slack: Num(self.least_slack[i]),
            share_mean: Num(self.share_mean(i)),
            share_min: Num(self.share_min[i]),
            share_max: Num(self.share_max[i]),
        };
        ClockJson {
            settings: self.settings.clone(),
            games: self.games,
            kosumi: side(0),
            opponent: side(1),
        }
    }
}

/// One side's clock use in the JSON summary of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockSideJson {
    /// The least slack of any move, seconds (`null`: no timed move).
    pub least_slack: Num,
    /// The mean share of the available time used in a game.
    pub share_mean: Num,
    /// The smallest share.
    pub share_min: Num,
    /// The largest share.
    pub share_max: Num,
}

/// Clock use in the JSON summary of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockJson {
    /// The time systems, in `--clock` form.
    pub settings: String,
    /// Games counted.
    pub games: u64,
    /// Kosumi's.
    pub kosumi: ClockSideJson,
    /// The opponent's.
    pub opponent: ClockSideJson,
}

/// Seconds per move of both sides in the JSON summary of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerMoveJson {
    /// Kosumi's.
    pub kosumi: Num,
    /// The opponent's.
    pub opponent: Num,
}

/// The JSON summary of a match (`match --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchJson {
    /// Always `match`.
    pub kind: String,
    /// The opponent's name.
    pub opponent: String,
    /// Finished games.
    pub games: u64,
    /// Kosumi's results.
    pub kosumi: TallyJson,
    /// Kosumi's results as Black.
    pub as_black: TallyJson,
    /// Kosumi's results as White.
    pub as_white: TallyJson,
    /// Games without a result.
    pub void: u64,
    /// Games by ending.
    pub endings: BTreeMap<String, u64>,
    /// Mean seconds per move.
    pub seconds_per_move: PerMoveJson,
    /// The sequential test, when the match runs one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtJson>,
    /// Clock use, in matches with a game clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockJson>,
}

impl MatchSummary {
    /// Adds one finished game.
    pub fn add(&mut self, g: &MatchGame) {
        if g.record.ending == Ending::Interrupted {
            return;
        }
        self.add_row(&MatchRow::of(g));
        // Clock use is not in the table: a resumed match shows it for the
        // games it played itself.
        let k = g.kosumi.index();
        if let (Some(c), Some(uses)) = (self.clock.as_mut(), g.record.clock) {
            c.add([uses[k], uses[1 - k]]);
        }
    }

    /// Adds one finished game from its table row.
    pub fn add_row(&mut self, r: &MatchRow) {
        self.games += 1;
        if !self.kosumi.add(&r.result, r.kosumi) {
            self.void += 1;
        }
        match r.kosumi {
            Color::Black => self.as_black.add(&r.result, r.kosumi),
            Color::White => self.as_white.add(&r.result, r.kosumi),
        };
        *self.endings.entry(r.ending.clone()).or_insert(0) += 1;
        if let Some(s) = self.sprt.as_mut() {
            s.add(r.index, &r.result, r.kosumi);
        }
        self.think[0] += r.think[0];
        self.think[1] += r.think[1];
        self.moves[0] += r.moves[0];
        self.moves[1] += r.moves[1];
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
        let text = format!(
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
        let text = match &self.sprt {
            Some(s) => format!("{text}\n{}", s.text()),
            None => text,
        };
        match &self.clock {
            Some(c) => format!("{text}\n{}", c.text()),
            None => text,
        }
    }

    /// The summary as the JSON form writes it.
    pub fn to_json(&self) -> MatchJson {
        MatchJson {
            kind: "match".into(),
            opponent: self.opponent.clone(),
            games: self.games,
            kosumi: self.kosumi.to_json(),
            as_black: self.as_black.to_json(),
            as_white: self.as_white.to_json(),
            void: self.void,
            endings: self.endings.clone(),
            seconds_per_move: PerMoveJson {
                kosumi: Num(self.per_move(0)),
                opponent: Num(self.per_move(1)),
            },
            sprt: self.sprt.as_ref().map(SprtState::to_json),
            clock: self.clock.as_ref().map(ClockSummary::to_json),
        }
    }

    /// The summary as one JSON object.
    pub fn json(&self) -> String {
        serde_json::to_string(&self.to_json()).expect("a summary serializes")
    }
}

/// Plays a match of `cfg.games` games, Kosumi Black in even-numbered games
/// (0, 2, ...); with an SPRT, stops after the pair that decides it. Calls `on_game` after each finished game (to write the
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
    run_match_from(cfg, &[], stop, on_game)
}

/// [`run_match`] resumed: the games of `done` (from
/// [`prepare_match_out`]) are counted, not played, and the match plays the
/// rest of its shard's games ([`MatchConfig::indices`]) in order (or ends,
/// when they decide its SPRT).
///
/// A match in one shard with an SPRT stops after the pair that decides
/// it. The shards of a sharded match play all their games: the test is
/// decided on the merged tables (`match summarize`), which count the pairs
/// in order up to the deciding one, as the one-machine match would.
///
/// # Errors
/// As [`run_match`].
pub fn run_match_from(
    cfg: &MatchConfig,
    done: &[MatchRow],
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
        sprt: cfg.sprt.map(SprtState::new),
        clock: ClockSummary::for_match(cfg),
        ..MatchSummary::default()
    };
    let one_shard = cfg.shard.count == 1;
    let decided = |s: &MatchSummary| {
        one_shard
            && s.sprt
                .as_ref()
                .is_some_and(|t| t.open_pairs() == 0 && t.verdict() != SprtVerdict::Continue)
    };
    let played: std::collections::BTreeSet<usize> = done.iter().map(|r| r.index).collect();
    for r in done {
        summary.add_row(r);
    }
    for index in cfg.indices() {
        if stop.load(Ordering::SeqCst) || decided(&summary) {
            break;
        }
        if played.contains(&index) {
            continue;
        }
        let kosumi = if index % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut me = LocalContestant::new(
            make_player(&cfg.player, cfg.game_seed(index)),
            format!(
                "Kosumi {} ({})",
                env!("CARGO_PKG_VERSION"),
                describe_player(&cfg.player)
            ),
        )
        .with_clock(cfg.player.lag(), Arc::new(WallTime::new()));
        opp.set_seed(cfg.opponent_seed(index));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::GameResult;

    #[test]
    fn match_rows_round_trip_and_count_like_games() {
        let r = MatchRow {
            index: 3,
            kosumi: Color::White,
            result: GameResult::parse("W+R"),
            ending: "resign-opponent".into(),
            think: [1.5, 0.25],
            moves: [20, 21],
        };
        let line = r.line();
        assert_eq!(
            line,
            "3\twhite\tW+R\tresign-opponent\t1.500000\t0.250000\t20\t21\n"
        );
        assert_eq!(MatchRow::parse(line.trim_end()), Ok(r.clone()));
        for bad in [
            "3\twhite",
            "x\twhite\tW+R\tpasses\t0\t0\t1\t1",
            "3\tgreen\tW+R\tpasses\t0\t0\t1\t1",
        ] {
            assert!(MatchRow::parse(bad).is_err(), "{bad}");
        }
        let mut s = MatchSummary::default();
        s.add_row(&r);
        assert_eq!((s.games, s.kosumi.wins, s.as_white.wins), (1, 1, 1));
        assert_eq!(s.endings.get("resign-opponent"), Some(&1));
        assert_eq!((s.think, s.moves), ([1.5, 0.25], [20, 21]));
    }

    /// The bytes of `match --json` as the hand-written writer gave them
    /// before serde: field order, escapes, numbers (six decimals at most,
    /// integers without a point, `null` for no value).
    #[test]
    fn json_bytes_are_pinned() {
        let mut s = MatchSummary {
            opponent: "GNU \"Go\"\\ 3.8\t\u{1}é".into(),
            sprt: Some(SprtState::new(
                crate::sprt::SprtConfig::parse("0,10").unwrap(),
            )),
            clock: Some(ClockSummary {
                settings: "0+1x1".into(),
                games: 0,
                least_slack: [f64::INFINITY; 2],
                share_min: [f64::INFINITY; 2],
                share_max: [0.0; 2],
                share_sum: [0.0; 2],
            }),
            ..MatchSummary::default()
        };
        for (i, r) in ["B+R", "W+3.5", "0", "?", "B+T"].iter().enumerate() {
            s.add_row(&MatchRow {
                index: i,
                kosumi: if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                result: GameResult::parse(r),
                ending: [
                    "passes",
                    "resign-opponent",
                    "passes",
                    "refused",
                    "time-opponent",
                ][i]
                    .into(),
                think: [1.0 / 3.0, 2.0],
                moves: [30, 31],
            });
        }
        if let Some(c) = s.clock.as_mut() {
            c.add([
                ClockUse {
                    used: 0.5,
                    least_slack: 0.25,
                    moves: 3,
                    available: 2.0,
                },
                ClockUse {
                    used: 1.0,
                    least_slack: f64::INFINITY,
                    moves: 0,
                    available: 0.0,
                },
            ]);
        }
        assert_eq!(
            s.json(),
            r#"{"kind":"match","opponent":"GNU \"Go\"\\ 3.8\t\u0001é","games":5,"kosumi":{"wins":3,"losses":0,"draws":1,"rate":0.875,"ci95":[0.395773,0.986809]},"as_black":{"wins":2,"losses":0,"draws":1,"rate":0.833333,"ci95":[0.309988,0.982347]},"as_white":{"wins":1,"losses":0,"draws":0,"rate":1,"ci95":[0.206549,1]},"void":1,"endings":{"passes":2,"refused":1,"resign-opponent":1,"time-opponent":1},"seconds_per_move":{"kosumi":0.011111,"opponent":0.064516},"sprt":{"elo0":0,"elo1":10,"alpha":0.05,"beta":0.05,"llr":0.028311,"lower":-2.944439,"upper":2.944439,"pairs":1,"pentanomial":[0,0,0,0,1],"void_pairs":1,"verdict":"continue"},"clock":{"settings":"0+1x1","games":1,"kosumi":{"least_slack":0.25,"share_mean":0.25,"share_min":0.25,"share_max":0.25},"opponent":{"least_slack":null,"share_mean":0,"share_min":0,"share_max":0}}}"#
        );
        // Read back, written again: the same bytes.
        let back: MatchJson = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), s.json());
        assert_eq!(
            MatchSummary::default().json(),
            r#"{"kind":"match","opponent":"","games":0,"kosumi":{"wins":0,"losses":0,"draws":0,"rate":null,"ci95":[0,1]},"as_black":{"wins":0,"losses":0,"draws":0,"rate":null,"ci95":[0,1]},"as_white":{"wins":0,"losses":0,"draws":0,"rate":null,"ci95":[0,1]},"void":0,"endings":{},"seconds_per_move":{"kosumi":0,"opponent":0}}"#
        );
    }
}

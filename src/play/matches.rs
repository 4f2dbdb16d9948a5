//! Matches: a series of games between one of our players and an outside
//! GTP engine, colours alternating, and their summary.

use super::client::ClientError;
use super::contestant::{Contestant, GtpContestant, LocalContestant};
use super::game::{play_game, Ending, GameConfig, GameRecord};
use super::referee::Referee;
use super::spec::{make_player, mix_seed, PlayerSpec};
use crate::color::Color;
use crate::stats::{json_counts, json_f64, json_str, text_counts, Tally};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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
        format!(
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
        )
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
        format!(
            "{{\"kind\":\"match\",\"opponent\":{},\"games\":{},\"kosumi\":{},\"as_black\":{},\
             \"as_white\":{},\"void\":{},\"endings\":{},\"seconds_per_move\":\
             {{\"kosumi\":{},\"opponent\":{}}}}}",
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
    Engine(String, ClientError),
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
        );
        let record = match kosumi {
            Color::Black => play_game(&cfg.game, &mut me, &mut opp, referee.as_mut(), stop),
            Color::White => play_game(&cfg.game, &mut opp, &mut me, referee.as_mut(), stop),
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

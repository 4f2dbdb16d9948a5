//! Matches: a series of games between one of our players and an outside
//! GTP engine, colours alternating, and their summary.

use super::client::ClientError;
use super::contestant::{Contestant, GtpContestant, LocalContestant};
use super::game::{play_game, ClockUse, Ending, GameConfig, GameRecord};
use super::referee::Referee;
use super::spec::{make_player, mix_seed, PlayerSpec};
use crate::clock::{TimeSettings, WallTime};
use crate::color::Color;
use crate::score::GameResult;
use crate::sprt::{Pentanomial, SprtConfig, SprtVerdict};
use crate::stats::{json_counts, json_f64, json_str, text_counts, Tally};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    /// A sequential test that ends the match once decided (`games` is
    /// then the most games played); games come in pairs with one seed.
    pub sprt: Option<SprtConfig>,
    /// The opponent's clock when it differs from Kosumi's (`game.clock`
    /// gives Kosumi's, for both colours).
    pub opponent_clock: Option<TimeSettings>,
}

impl MatchConfig {
    /// The settings that decide a match's games, as one line: a match
    /// resumes in an `--out` directory only when its table has the same.
    pub fn settings(&self) -> String {
        let g = &self.game;
        format!(
            "size={} komi={} handicap={} rules={} max-moves={} cleanup={} move-timeout={:?} \
             clock={:?} time-left={} player={} seed={} games={} opponent={:?} referee={:?} sprt={}",
            g.size,
            g.komi,
            g.handicap,
            g.rules,
            g.max_moves,
            if g.cleanup { "on" } else { "off" },
            g.move_timeout,
            g.clock,
            g.send_time_left,
            self.player.describe().replace(' ', ","),
            self.seed,
            self.games,
            self.opponent,
            self.referee,
            self.sprt.map_or("none".to_string(), |c| c.to_string())
        )
    }

    /// The seed of game `index`: [`mix_seed`] of the base seed and the
    /// index, or with an SPRT, of the pair's index, so that the two games
    /// of a pair (colours swapped) share it.
    pub fn game_seed(&self, index: usize) -> u64 {
        let k = if self.sprt.is_some() {
            index / 2
        } else {
            index
        };
        mix_seed(self.seed, k as u64)
    }

    /// The seed the opponent gets for game `index` (when it takes
    /// `set_random_seed`): derived from [`MatchConfig::game_seed`], so
    /// that every game (or pair) differs on both sides.
    pub fn opponent_seed(&self, index: usize) -> u64 {
        mix_seed(self.game_seed(index), 0x6f70_706f_6e65_6e74)
    }
}

/// Where a match's SPRT stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtState {
    /// The test's settings.
    pub config: SprtConfig,
    /// Finished pairs by Kosumi's half points in the pair.
    pub pairs: Pentanomial,
    /// Pairs left out because a game of theirs had no result.
    pub void_pairs: u64,
    /// Kosumi's half points in the current pair's first game, once played
    /// (`None` if it had no result).
    pending: Option<Option<usize>>,
}

impl SprtState {
    fn new(config: SprtConfig) -> SprtState {
        SprtState {
            config,
            pairs: Pentanomial::default(),
            void_pairs: 0,
            pending: None,
        }
    }

    /// Counts one game of Kosumi's; every second game closes a pair.
    fn add(&mut self, result: &GameResult, kosumi: Color) {
        let half = match result {
            GameResult::Draw => Some(1),
            r => r.winner().map(|w| if w == kosumi { 2 } else { 0 }),
        };
        match self.pending.take() {
            None => self.pending = Some(half),
            Some(first) => match (first, half) {
                (Some(a), Some(b)) => self.pairs.add(a + b),
                _ => self.void_pairs += 1,
            },
        }
    }

    /// The log-likelihood ratio so far.
    pub fn llr(&self) -> f64 {
        self.pairs.llr(&self.config)
    }

    /// Where the test stands.
    pub fn verdict(&self) -> SprtVerdict {
        self.pairs.verdict(&self.config)
    }

    /// One line for people: LLR, bounds, pairs and the verdict.
    pub fn text(&self) -> String {
        format!(
            "SPRT {}: LLR {:.3} (bounds {:.3}, {:.3}), {} pairs {:?}, {}",
            self.config,
            self.llr(),
            self.config.lower_bound(),
            self.config.upper_bound(),
            self.pairs.pairs(),
            self.pairs.counts,
            self.verdict()
        )
    }

    fn json(&self) -> String {
        let c = &self.config;
        let counts: Vec<String> = self.pairs.counts.iter().map(u64::to_string).collect();
        format!(
            "{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{},\"lower\":{},\
             \"upper\":{},\"pairs\":{},\"pentanomial\":[{}],\"void_pairs\":{},\"verdict\":{}}}",
            json_f64(c.elo0),
            json_f64(c.elo1),
            json_f64(c.alpha),
            json_f64(c.beta),
            json_f64(self.llr()),
            json_f64(c.lower_bound()),
            json_f64(c.upper_bound()),
            self.pairs.pairs(),
            counts.join(","),
            self.void_pairs,
            json_str(&self.verdict().to_string())
        )
    }
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

/// One finished game of a match as a row of its table
/// ([`MATCH_TABLE`]): what the summary counts, so that a resumed match
/// counts the games it does not play again.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    /// 0-based game number.
    pub index: usize,
    /// The colour Kosumi played.
    pub kosumi: Color,
    /// The result.
    pub result: GameResult,
    /// The ending with its culprit (`passes`, `resign-kosumi`, ...).
    pub ending: String,
    /// Seconds Kosumi (0) and the opponent (1) thought.
    pub think: [f64; 2],
    /// Moves Kosumi (0) and the opponent (1) were asked for.
    pub moves: [u64; 2],
}

impl MatchRow {
    /// The row of a finished game.
    pub fn of(g: &MatchGame) -> MatchRow {
        let r = &g.record;
        let ending = match r.ending.by() {
            Some(c) if c == g.kosumi => format!("{}-kosumi", r.ending.key()),
            Some(_) => format!("{}-opponent", r.ending.key()),
            None => r.ending.key().to_string(),
        };
        let k = g.kosumi.index();
        let o = 1 - k;
        MatchRow {
            index: g.index,
            kosumi: g.kosumi,
            result: r.result,
            ending,
            think: [r.think[k].as_secs_f64(), r.think[o].as_secs_f64()],
            moves: [r.genmoves[k] as u64, r.genmoves[o] as u64],
        }
    }

    /// The row as a table line (with its newline).
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{:.6}\t{:.6}\t{}\t{}\n",
            self.index,
            self.kosumi.name(),
            self.result,
            self.ending,
            self.think[0],
            self.think[1],
            self.moves[0],
            self.moves[1]
        )
    }

    /// Reads a table line (without its newline).
    ///
    /// # Errors
    /// A message for a malformed line.
    pub fn parse(line: &str) -> Result<MatchRow, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 8 {
            return Err(format!("{} fields where 8 were expected", f.len()));
        }
        let num = |i: usize| {
            f[i].parse::<u64>()
                .map_err(|_| format!("bad number '{}'", crate::text::clip(f[i])))
        };
        let secs = |i: usize| {
            f[i].parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("bad seconds '{}'", crate::text::clip(f[i])))
        };
        Ok(MatchRow {
            index: num(0)? as usize,
            kosumi: f[1]
                .parse()
                .map_err(|e: crate::color::ColorParseError| e.to_string())?,
            result: GameResult::parse(f[2]),
            ending: f[3].to_string(),
            think: [secs(4)?, secs(5)?],
            moves: [num(6)?, num(7)?],
        })
    }
}

/// The table of a match in its `--out` directory.
pub const MATCH_TABLE: &str = "match.tsv";

/// Prepares a match's `--out` directory before the opponent starts: makes
/// it, checks that it is writable, and gives the games already finished
/// when it holds this match's table with the same settings (the first
/// games in order whose row and record are both there; the table is
/// rewritten with those rows only). A directory with another run's files
/// (a table with other settings, self-play tables, or game records without
/// this match's table) is refused; other files are left alone.
///
/// # Errors
/// [`MatchError::OutInUse`], or [`MatchError::Io`] when the directory
/// cannot be made, read or written.
pub fn prepare_match_out(dir: &Path, cfg: &MatchConfig) -> Result<Vec<MatchRow>, MatchError> {
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| MatchError::Io(p, e)
    };
    super::record::prepare_out_dir(dir).map_err(io(dir))?;
    let names = super::record::run_files(dir).map_err(io(dir))?;
    let table = dir.join(MATCH_TABLE);
    let settings = cfg.settings();
    let header = format!(
        "# kosumi match table 1\n# settings: {settings}\n\
         index\tkosumi\tresult\tending\tkosumi_seconds\topponent_seconds\tkosumi_moves\topponent_moves\n"
    );
    let in_use = |what: String| Err(MatchError::OutInUse(dir.to_path_buf(), what));
    if let Some(t) = names.iter().find(|n| n.ends_with(".tsv")) {
        return in_use(format!("the self-play table {t}"));
    }
    let mut done = Vec::new();
    if table.exists() {
        let bytes = crate::files::read_capped(&table)
            .map_err(|e| MatchError::Io(table.clone(), e.into()))?;
        let text = String::from_utf8_lossy(&bytes);
        let theirs = text.lines().find_map(|l| l.strip_prefix("# settings: "));
        if theirs != Some(settings.as_str()) {
            return in_use(format!(
                "{MATCH_TABLE} has the settings {}",
                theirs.unwrap_or("(none)")
            ));
        }
        let complete = text.ends_with('\n');
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with('#') || line.starts_with("index\t") || line.trim().is_empty() {
                continue;
            }
            if !complete && i + 1 == lines.len() {
                break;
            }
            let row = MatchRow::parse(line).map_err(|e| {
                MatchError::Io(
                    table.clone(),
                    std::io::Error::other(format!("line {}: {e}", i + 1)),
                )
            })?;
            let record = super::selfplay::sgf_name(row.index);
            if row.index != done.len() || !names.contains(&record) {
                break;
            }
            done.push(row);
        }
    } else if let Some(n) = names.first() {
        return in_use(format!("{n} and no {MATCH_TABLE}"));
    }
    if let Some(n) = names
        .iter()
        .find(|n| super::selfplay::sgf_index(n).is_some_and(|i| i >= cfg.games))
    {
        return in_use(format!("{n} is past this match's {} games", cfg.games));
    }
    let mut text = header;
    for r in &done {
        text.push_str(&r.line());
    }
    super::record::write_atomic(&table, text.as_bytes()).map_err(io(&table))?;
    Ok(done)
}

/// Appends a finished game's row to the match table in `dir` (after its
/// record is in place, so that a kill between the two leaves a record
/// without a row, which a resumed match plays again).
///
/// # Errors
/// [`MatchError::Io`] when the table cannot be written.
pub fn append_match_row(dir: &Path, row: &MatchRow) -> Result<(), MatchError> {
    let table = dir.join(MATCH_TABLE);
    std::fs::OpenOptions::new()
        .append(true)
        .open(&table)
        .and_then(|mut f| f.write_all(row.line().as_bytes()))
        .map_err(|e| MatchError::Io(table, e))
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
            s.add(&r.result, r.kosumi);
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
             {{\"kosumi\":{},\"opponent\":{}}}{}{}}}",
            json_str(&self.opponent),
            self.games,
            tally(&self.kosumi),
            tally(&self.as_black),
            tally(&self.as_white),
            self.void,
            json_counts(&self.endings),
            json_f64(self.per_move(0)),
            json_f64(self.per_move(1)),
            self.sprt
                .as_ref()
                .map_or(String::new(), |s| format!(",\"sprt\":{}", s.json())),
            self.clock
                .as_ref()
                .map_or(String::new(), |c| format!(",\"clock\":{}", c.json()))
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
    /// The output directory holds another run's files (the directory, what
    /// was found).
    OutInUse(std::path::PathBuf, String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(e) => f.write_str(e),
            MatchError::Engine(who, e) => write!(f, "{who}: {e}"),
            MatchError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            MatchError::OutInUse(d, what) => write!(
                f,
                "--out {} holds another run's files ({what}); a match never overwrites them: \
                 give a new --out directory, or delete those files (the same settings resume \
                 a match)",
                d.display()
            ),
        }
    }
}

impl std::error::Error for MatchError {}

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

/// [`run_match`] resumed: the games of `done` (games `0..done.len()`, from
/// [`prepare_match_out`]) are counted, not played, and the match goes on
/// from the next game (or ends, when they decide its SPRT).
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
    for r in done {
        summary.add_row(r);
    }
    let decided = summary
        .sprt
        .as_ref()
        .is_some_and(|s| done.len().is_multiple_of(2) && s.verdict() != SprtVerdict::Continue);
    for index in done.len()..cfg.games {
        if stop.load(Ordering::SeqCst) || decided {
            break;
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
                cfg.player.describe()
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
        if summary
            .sprt
            .as_ref()
            .is_some_and(|s| index % 2 == 1 && s.verdict() != SprtVerdict::Continue)
        {
            break;
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

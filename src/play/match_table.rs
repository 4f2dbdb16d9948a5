//! A match's settings, its games as rows of the table `match.tsv` in
//! `--out` (written after each record, read back to resume a match with
//! the same settings), the SPRT state, and why a match could not be played.

use super::client::ClientError;
use super::game::{GameConfig, GameRecord};
use super::spec::{describe_player, mix_seed};
use crate::clock::TimeSettings;
use crate::color::Color;
use crate::mcts::SearchArgs;
use crate::score::GameResult;
use crate::sprt::{Pentanomial, SprtConfig, SprtVerdict};
use crate::stats::{json_f64, json_str};
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Settings of a match against an outside engine.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Per-game settings.
    pub game: GameConfig,
    /// Number of games.
    pub games: usize,
    /// Our player.
    pub player: SearchArgs,
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
            describe_player(&self.player).replace(' ', ","),
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
    pub(super) fn new(config: SprtConfig) -> SprtState {
        SprtState {
            config,
            pairs: Pentanomial::default(),
            void_pairs: 0,
            pending: None,
        }
    }

    /// Counts one game of Kosumi's; every second game closes a pair.
    pub(super) fn add(&mut self, result: &GameResult, kosumi: Color) {
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

    pub(super) fn json(&self) -> String {
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

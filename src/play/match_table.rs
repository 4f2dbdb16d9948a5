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
use crate::shard::Shard;
use crate::sprt::{Pentanomial, SprtConfig, SprtVerdict};
use crate::stats::Num;
use serde::{Deserialize, Serialize};
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
    /// Which part of the match to play ([`MatchConfig::indices`]).
    pub shard: Shard,
}

impl MatchConfig {
    /// The settings that decide a match's games, as one line: a match
    /// resumes in an `--out` directory only when its table has the same.
    /// The opponent's own clock is in it only when one was given
    /// (`--opponent-clock`), so a table written before it was there still
    /// resumes.
    pub fn settings(&self) -> String {
        let g = &self.game;
        let opponent_clock = self
            .opponent_clock
            .map_or(String::new(), |o| format!(" opponent-clock={o:?}"));
        format!(
            "size={} komi={} handicap={} rules={} max-moves={} cleanup={} move-timeout={:?} \
             clock={:?}{} time-left={} player={} knobs={} seed={} games={} opponent={:?} referee={:?} sprt={}",
            g.size,
            g.komi,
            g.handicap,
            g.rules,
            g.max_moves,
            if g.cleanup { "on" } else { "off" },
            g.move_timeout,
            g.clock,
            opponent_clock,
            g.send_time_left,
            describe_player(&self.player).replace(' ', ","),
            self.player.knob_values(),
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

    /// Whether game `index` is this shard's: by game index, or with an
    /// SPRT by pair (`index / 2`), so that a pair stays on one shard.
    pub fn owns(&self, index: usize) -> bool {
        self.shard.owns(if self.sprt.is_some() {
            index / 2
        } else {
            index
        })
    }

    /// The indices of this shard's games, in order.
    pub fn indices(&self) -> Vec<usize> {
        (0..self.games).filter(|&i| self.owns(i)).collect()
    }

    /// The name of this shard's table: [`MATCH_TABLE`] for a whole
    /// match, `match-I-of-N.tsv` for shard `I/N`.
    pub fn table_name(&self) -> String {
        table_name(self.shard)
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
    /// Kosumi's half points in the first game played of each open pair,
    /// by pair (`None` if it had no result).
    pending: std::collections::BTreeMap<usize, Option<usize>>,
}

impl SprtState {
    pub(super) fn new(config: SprtConfig) -> SprtState {
        SprtState {
            config,
            pairs: Pentanomial::default(),
            void_pairs: 0,
            pending: std::collections::BTreeMap::new(),
        }
    }

    /// Counts game `index` of Kosumi's; the second game of a pair (games
    /// `2k` and `2k + 1`, in either order) closes it.
    pub(super) fn add(&mut self, index: usize, result: &GameResult, kosumi: Color) {
        let half = match result {
            GameResult::Draw => Some(1),
            r => r.winner().map(|w| if w == kosumi { 2 } else { 0 }),
        };
        match self.pending.remove(&(index / 2)) {
            None => {
                self.pending.insert(index / 2, half);
            }
            Some(first) => match (first, half) {
                (Some(a), Some(b)) => self.pairs.add(a + b),
                _ => self.void_pairs += 1,
            },
        }
    }

    /// Pairs with only one game counted so far.
    pub fn open_pairs(&self) -> usize {
        self.pending.len()
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

    /// The test as the JSON summary writes it.
    pub fn to_json(&self) -> SprtJson {
        let c = &self.config;
        SprtJson {
            elo0: Num(c.elo0),
            elo1: Num(c.elo1),
            alpha: Num(c.alpha),
            beta: Num(c.beta),
            llr: Num(self.llr()),
            lower: Num(c.lower_bound()),
            upper: Num(c.upper_bound()),
            pairs: self.pairs.pairs(),
            pentanomial: self.pairs.counts,
            void_pairs: self.void_pairs,
            verdict: self.verdict().to_string(),
        }
    }
}

/// An SPRT in the JSON summary of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtJson {
    /// Elo of the null hypothesis.
    pub elo0: Num,
    /// Elo of the alternative.
    pub elo1: Num,
    /// The false positive rate.
    pub alpha: Num,
    /// The false negative rate.
    pub beta: Num,
    /// The log-likelihood ratio.
    pub llr: Num,
    /// The lower bound (accept H0 at or below).
    pub lower: Num,
    /// The upper bound (accept H1 at or above).
    pub upper: Num,
    /// Pairs counted.
    pub pairs: u64,
    /// Pairs by Kosumi's half points, 0 to 4.
    pub pentanomial: [u64; 5],
    /// Pairs left out for a game without a result.
    pub void_pairs: u64,
    /// `continue`, `H0 accepted` or `H1 accepted`.
    pub verdict: String,
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

/// The table name of shard `shard`: [`MATCH_TABLE`] for the whole match.
pub fn table_name(shard: Shard) -> String {
    if shard.count == 1 {
        MATCH_TABLE.to_string()
    } else {
        format!("match-{}-of-{}.tsv", shard.index, shard.count)
    }
}

/// The shard a match table's name stands for (`match.tsv`: the whole
/// match), or `None` for another name.
pub fn table_shard(name: &str) -> Option<Shard> {
    if name == MATCH_TABLE {
        return Some(Shard::default());
    }
    let rest = name.strip_prefix("match-")?.strip_suffix(".tsv")?;
    let (i, n) = rest.split_once("-of-")?;
    let shard: Shard = format!("{i}/{n}").parse().ok()?;
    (table_name(shard) == name).then_some(shard)
}

/// The settings line of a match table's text.
pub(super) fn table_settings(text: &str) -> Option<&str> {
    text.lines().find_map(|l| l.strip_prefix("# settings: "))
}

/// Prepares a match's `--out` directory before the opponent starts: makes
/// it, checks that it is writable, and gives the games already finished
/// when it holds this shard's table with the same settings (the games of
/// the shard whose row and record are both there, in index order; the
/// table is rewritten with those rows only). Other shards' tables of the
/// same match may share the directory: each shard writes only its own
/// table and its own games' records. A directory with another run's files
/// (a match table with other settings or another shard count, self-play
/// tables, or game records without any match table) is refused; other
/// files are left alone.
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
    let mut names = super::record::run_files(dir).map_err(io(dir))?;
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let name = entry.map_err(io(dir))?.file_name();
        let name = name.to_string_lossy();
        if table_shard(&name).is_some() {
            names.push(name.into_owned());
        }
    }
    let own = cfg.table_name();
    let table = dir.join(&own);
    let settings = cfg.settings();
    let shard_line = if cfg.shard.count > 1 {
        format!("# shard: {}\n", cfg.shard)
    } else {
        String::new()
    };
    let header = format!(
        "# kosumi match table 1\n# settings: {settings}\n{shard_line}\
         index\tkosumi\tresult\tending\tkosumi_seconds\topponent_seconds\tkosumi_moves\topponent_moves\n"
    );
    let in_use = |what: String| Err(MatchError::OutInUse(dir.to_path_buf(), what));
    let mut any_table = false;
    for t in names.iter().filter(|n| n.ends_with(".tsv")) {
        let Some(sh) = table_shard(t) else {
            return in_use(format!("the self-play table {t}"));
        };
        any_table = true;
        if sh.count != cfg.shard.count {
            return in_use(format!(
                "{t} is a table of a match in {} shards, not {}",
                sh.count, cfg.shard.count
            ));
        }
        let bytes = crate::files::read_capped(&dir.join(t))
            .map_err(|e| MatchError::Io(dir.join(t), e.into()))?;
        let text = String::from_utf8_lossy(&bytes);
        let theirs = table_settings(&text);
        if theirs != Some(settings.as_str()) {
            return in_use(match theirs {
                Some(theirs) => super::table::settings_differ("this match", &settings, t, theirs),
                None => format!("{t} has no settings line"),
            });
        }
    }
    if !any_table {
        if let Some(n) = names.first() {
            return in_use(format!("{n} and no {MATCH_TABLE}"));
        }
    }
    let mut done: std::collections::BTreeMap<usize, MatchRow> = std::collections::BTreeMap::new();
    if table.exists() {
        let bytes = crate::files::read_capped(&table)
            .map_err(|e| MatchError::Io(table.clone(), e.into()))?;
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in data_lines(&text).filter_map(Result::ok) {
            let row = MatchRow::parse(line).map_err(|e| {
                MatchError::Io(
                    table.clone(),
                    std::io::Error::other(format!("line {n}: {e}")),
                )
            })?;
            let record = super::selfplay::sgf_name(row.index);
            if row.index < cfg.games && cfg.owns(row.index) && names.contains(&record) {
                done.insert(row.index, row);
            }
        }
    }
    if let Some(n) = names
        .iter()
        .find(|n| super::selfplay::sgf_index(n).is_some_and(|i| i >= cfg.games))
    {
        return in_use(format!("{n} is past this match's {} games", cfg.games));
    }
    let mut text = header;
    for r in done.values() {
        text.push_str(&r.line());
    }
    super::record::write_atomic(&table, text.as_bytes()).map_err(io(&table))?;
    Ok(done.into_values().collect())
}

/// The rows of a match table's text with their line numbers (from 1):
/// comments, the column header and blank lines skipped; a last row
/// without its newline, torn by a kill, comes as `Err` with its number.
pub(super) fn data_lines(text: &str) -> impl Iterator<Item = Result<(usize, &str), usize>> {
    let complete = text.ends_with('\n');
    let count = text.lines().count();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !(l.starts_with('#') || l.starts_with("index\t") || l.trim().is_empty()))
        .map(move |(i, l)| {
            if !complete && i + 1 == count {
                Err(i + 1)
            } else {
                Ok((i + 1, l))
            }
        })
}

/// Appends a finished game's row to this shard's match table in `dir`
/// (after its record is in place, so that a kill between the two leaves a
/// record without a row, which a resumed match plays again).
///
/// # Errors
/// [`MatchError::Io`] when the table cannot be written.
pub fn append_match_row(dir: &Path, cfg: &MatchConfig, row: &MatchRow) -> Result<(), MatchError> {
    let table = dir.join(cfg.table_name());
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

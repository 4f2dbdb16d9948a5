//! `match summarize`: the tables of a match's shards (or of one match)
//! merged into one summary, with how far each shard got.
//!
//! Tables must share their settings line and shard count; a game found in
//! two tables (a shard run twice) is counted once and must agree. With an
//! SPRT the games are counted in index order, pair by pair, up to the pair
//! that decides the test when every pair before it is there: exactly the
//! games a one-machine match would have counted before stopping. Games
//! after it are reported, not counted. Without a decision the LLR is that
//! of all the merged pairs.

use super::match_table::SprtState;
use super::match_table::{table_settings, table_shard, MatchRow};
use super::matches::{MatchJson, MatchSummary};
use crate::shard::Shard;
use crate::sprt::{SprtConfig, SprtVerdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How far one shard got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardProgress {
    /// The shard.
    pub shard: Shard,
    /// Its games in its table.
    pub played: usize,
    /// The games it has to play.
    pub assigned: usize,
    /// Whether a table of it was found.
    pub found: bool,
}

/// What [`summarize_match`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchMerged {
    /// The merged numbers (no clock use: the tables do not keep it).
    pub summary: MatchSummary,
    /// The settings line all tables share.
    pub settings: String,
    /// Tables read.
    pub tables: usize,
    /// Games of the match (from the settings; the most, with an SPRT).
    pub expected: usize,
    /// Distinct games found.
    pub present: usize,
    /// Rows seen more than once, counted once.
    pub duplicates: usize,
    /// Rows cut off at the end of a table, skipped.
    pub torn: usize,
    /// Per shard, in order.
    pub shards: Vec<ShardProgress>,
    /// With an SPRT decided in index order: the pairs counted up to the
    /// deciding one.
    pub decided_at: Option<u64>,
    /// Games played after the deciding pair (not counted).
    pub after_decision: usize,
}

/// Why tables could not be merged.
#[derive(Debug)]
pub enum MergeError {
    /// A file or directory could not be read.
    Io(PathBuf, std::io::Error),
    /// A malformed table (file, line, what).
    Parse(PathBuf, usize, String),
    /// Tables of different runs, or disagreeing games.
    Mixed(String),
    /// No match table in the directories.
    NoTables,
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            MergeError::Parse(p, l, e) => write!(f, "{}:{l}: {e}", p.display()),
            MergeError::Mixed(e) => f.write_str(e),
            MergeError::NoTables => {
                f.write_str("no match table (match.tsv, match-I-of-N.tsv) found")
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// The value of `key=` in a settings line (up to the next space).
fn setting<'a>(settings: &'a str, key: &str) -> Option<&'a str> {
    settings
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// The SPRT of a match's settings line (`sprt=elo0=A elo1=B alpha=C
/// beta=D`, last), if it runs one.
pub fn settings_sprt(settings: &str) -> Result<Option<SprtConfig>, String> {
    let Some((_, rest)) = settings.rsplit_once(" sprt=") else {
        return Err("no sprt= in the settings".into());
    };
    if rest == "none" {
        return Ok(None);
    }
    let mut v = Vec::new();
    for (kv, key) in rest
        .split_whitespace()
        .zip(["elo0", "elo1", "alpha", "beta"])
    {
        v.push(
            kv.strip_prefix(key)
                .and_then(|x| x.strip_prefix('='))
                .ok_or_else(|| format!("bad sprt setting '{}'", crate::text::clip(rest)))?,
        );
    }
    SprtConfig::parse(&v.join(","))
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The opponent command of a settings line (`opponent="..."`).
fn settings_opponent(settings: &str) -> String {
    let Some(start) = settings.find(" opponent=\"") else {
        return String::new();
    };
    let rest = &settings[start + " opponent=\"".len()..];
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// Counts `rows` (by index, each once) as one match with `sprt`: all of
/// them, or with an SPRT the pairs in order up to the deciding one when
/// no pair before it is missing. Gives the summary, the pairs counted at
/// the decision and the games left out after it.
pub fn count_rows(
    rows: &BTreeMap<usize, MatchRow>,
    sprt: Option<SprtConfig>,
) -> (MatchSummary, Option<u64>, usize) {
    let mut summary = MatchSummary {
        sprt: sprt.map(SprtState::new),
        ..MatchSummary::default()
    };
    let mut gapless = true;
    let mut decided_at = None;
    let mut after = 0;
    let mut expect = 0;
    for (i, r) in rows {
        if decided_at.is_some() {
            after += 1;
            continue;
        }
        if *i != expect {
            gapless = false;
        }
        expect = i + 1;
        summary.add_row(r);
        if let Some(s) = &summary.sprt {
            if gapless && i % 2 == 1 && s.open_pairs() == 0 && s.verdict() != SprtVerdict::Continue
            {
                decided_at = Some(s.pairs.pairs() + s.void_pairs);
            }
        }
    }
    (summary, decided_at, after)
}

/// Reads every match table in `dirs` and merges them.
///
/// # Errors
/// [`MergeError`] for unreadable files, malformed rows, tables of other
/// runs (settings or shard counts), disagreeing duplicates, or no table.
pub fn summarize_match(dirs: &[PathBuf]) -> Result<MatchMerged, MergeError> {
    let mut files = Vec::new();
    for d in dirs {
        let rd = std::fs::read_dir(d).map_err(|e| MergeError::Io(d.clone(), e))?;
        for entry in rd {
            let entry = entry.map_err(|e| MergeError::Io(d.clone(), e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(sh) = table_shard(&name) {
                files.push((entry.path(), sh));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    if files.is_empty() {
        return Err(MergeError::NoTables);
    }
    let mut first: Option<(String, Shard, PathBuf)> = None;
    let mut games: BTreeMap<usize, (MatchRow, PathBuf)> = BTreeMap::new();
    let mut per_shard: BTreeMap<usize, std::collections::BTreeSet<usize>> = BTreeMap::new();
    let (mut duplicates, mut torn) = (0, 0);
    for (f, sh) in &files {
        let bytes =
            crate::files::read_capped(f).map_err(|e| MergeError::Io(f.clone(), e.into()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| MergeError::Parse(f.clone(), 1, "not UTF-8 text".into()))?;
        let Some(settings) = table_settings(&text) else {
            return Err(MergeError::Parse(
                f.clone(),
                1,
                "no '# settings:' line".into(),
            ));
        };
        match &first {
            None => first = Some((settings.to_string(), *sh, f.clone())),
            Some((s0, _, f0)) if s0 != settings => {
                return Err(MergeError::Mixed(format!(
                    "different settings: {}",
                    super::table::settings_differ(
                        &f0.display().to_string(),
                        s0,
                        &f.display().to_string(),
                        settings
                    )
                )))
            }
            Some((_, s0, f0)) if s0.count != sh.count => {
                return Err(MergeError::Mixed(format!(
                    "{} is shard {s0} and {} shard {sh}: a match split two ways",
                    f0.display(),
                    f.display()
                )))
            }
            Some(_) => {}
        }
        let seen = per_shard.entry(sh.index).or_default();
        for item in super::match_table::data_lines(&text) {
            let Ok((n, line)) = item else {
                torn += 1;
                continue;
            };
            let r = MatchRow::parse(line).map_err(|e| MergeError::Parse(f.clone(), n, e))?;
            seen.insert(r.index);
            match games.get(&r.index) {
                Some((old, p)) => {
                    if old.result != r.result || old.kosumi != r.kosumi {
                        return Err(MergeError::Mixed(format!(
                            "game {} differs between {} and {}",
                            r.index,
                            p.display(),
                            f.display()
                        )));
                    }
                    duplicates += 1;
                }
                None => {
                    games.insert(r.index, (r, f.clone()));
                }
            }
        }
    }
    let (settings, shard0, _) = first.expect("at least one table");
    let expected: usize = setting(&settings, "games")
        .and_then(|g| g.parse().ok())
        .unwrap_or(0);
    let sprt = settings_sprt(&settings).map_err(|e| MergeError::Parse(files[0].0.clone(), 2, e))?;
    let rows: BTreeMap<usize, MatchRow> = games.into_iter().map(|(i, (r, _))| (i, r)).collect();
    let (mut summary, decided_at, after_decision) = count_rows(&rows, sprt);
    summary.opponent = settings_opponent(&settings);
    let shards = (0..shard0.count)
        .map(|index| {
            let shard = Shard {
                index,
                count: shard0.count,
            };
            let owns = |i: usize| shard.owns(if sprt.is_some() { i / 2 } else { i });
            ShardProgress {
                shard,
                played: per_shard.get(&index).map_or(0, |s| s.len()),
                assigned: (0..expected).filter(|&i| owns(i)).count(),
                found: per_shard.contains_key(&index),
            }
        })
        .collect();
    Ok(MatchMerged {
        summary,
        settings,
        tables: files.len(),
        expected,
        present: rows.len(),
        duplicates,
        torn,
        shards,
        decided_at,
        after_decision,
    })
}

impl MatchMerged {
    /// The merge for people: a line on the tables, one per shard that has
    /// not finished, then the summary.
    pub fn text(&self) -> String {
        let mut out = format!(
            "tables {}  games present {} of {}  duplicates {}  torn rows {}\nsettings: {}\n",
            self.tables, self.present, self.expected, self.duplicates, self.torn, self.settings
        );
        let unit = if self.summary.sprt.is_some() { 2 } else { 1 };
        for p in &self.shards {
            if p.played < p.assigned && self.decided_at.is_none() {
                out.push_str(&format!(
                    "shard {}: {} of its {} {} ({})\n",
                    p.shard,
                    p.played / unit,
                    p.assigned / unit,
                    if unit == 2 { "pairs" } else { "games" },
                    if p.found {
                        "stopped early; resume it with the same command"
                    } else {
                        "no table found"
                    }
                ));
            }
        }
        if let Some(k) = self.decided_at {
            out.push_str(&format!(
                "SPRT decided at pair {k} in game order; {} later games not counted\n",
                self.after_decision
            ));
        }
        out.push_str(&self.summary.text());
        out
    }

    /// The merge as one JSON object.
    pub fn json(&self) -> String {
        let j = MergedJson {
            tables: self.tables,
            present: self.present,
            expected: self.expected,
            duplicates: self.duplicates,
            torn: self.torn,
            shards: self
                .shards
                .iter()
                .map(|p| ShardJson {
                    shard: p.shard.to_string(),
                    played: p.played,
                    assigned: p.assigned,
                    found: p.found,
                })
                .collect(),
            decided_at: self.decided_at,
            after_decision: self.after_decision,
            summary: self.summary.to_json(),
        };
        serde_json::to_string(&j).expect("a summary serializes")
    }
}

/// One shard in the JSON form of `match summarize`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardJson {
    /// `I/N`.
    pub shard: String,
    /// Its games in its table.
    pub played: usize,
    /// The games it has to play.
    pub assigned: usize,
    /// Whether its table was found.
    pub found: bool,
}

/// The JSON form of `match summarize --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedJson {
    /// Tables read.
    pub tables: usize,
    /// Distinct games found.
    pub present: usize,
    /// Games of the match.
    pub expected: usize,
    /// Rows seen more than once.
    pub duplicates: usize,
    /// Rows cut off, skipped.
    pub torn: usize,
    /// Per shard.
    pub shards: Vec<ShardJson>,
    /// Pairs counted up to an SPRT's decision in index order.
    pub decided_at: Option<u64>,
    /// Games after the decision, not counted.
    pub after_decision: usize,
    /// The merged summary.
    #[serde(flatten)]
    pub summary: MatchJson,
}

/// Whether `dir` holds a match table.
pub fn has_match_table(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.flatten()
            .any(|e| table_shard(&e.file_name().to_string_lossy()).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::score::GameResult;

    fn row(index: usize, kosumi_wins: bool) -> MatchRow {
        let kosumi = if index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let winner = if kosumi_wins {
            kosumi
        } else {
            kosumi.opponent()
        };
        MatchRow {
            index,
            kosumi,
            result: GameResult::Resign(winner),
            ending: "passes".into(),
            think: [1.0, 1.0],
            moves: [10, 10],
        }
    }

    #[test]
    fn merged_shards_give_the_whole_runs_llr() {
        let cfg = SprtConfig::parse("0,100").unwrap();
        // 40 games in pairs, a pseudo-random pattern of wins.
        let all: BTreeMap<usize, MatchRow> = (0..40)
            .map(|i| (i, row(i, (i * 7 + i / 3) % 5 < 3)))
            .collect();
        let (whole, _, _) = count_rows(&all, Some(cfg));
        // The same games as four shards, merged in shard order.
        let mut merged = BTreeMap::new();
        for k in 0..4 {
            let sh = Shard { index: k, count: 4 };
            for (i, r) in all.iter().filter(|(i, _)| sh.owns(*i / 2)) {
                merged.insert(*i, r.clone());
            }
        }
        let (m, _, _) = count_rows(&merged, Some(cfg));
        let (a, b) = (whole.sprt.unwrap(), m.sprt.unwrap());
        assert_eq!(a.pairs.counts, b.pairs.counts);
        assert_eq!(a.llr(), b.llr());
        assert_eq!(a.pairs.pairs(), 20);
        assert_eq!(whole.kosumi, m.kosumi);
    }

    #[test]
    fn a_decided_sprt_counts_up_to_the_deciding_pair() {
        // Kosumi wins everything: a narrow test decides after a few pairs.
        let cfg = SprtConfig::parse("0,400").unwrap();
        let all: BTreeMap<usize, MatchRow> = (0..40).map(|i| (i, row(i, true))).collect();
        let (s, at, after) = count_rows(&all, Some(cfg));
        let k = at.expect("decided");
        assert_eq!(s.games, 2 * k);
        assert_eq!(after, 40 - 2 * k as usize);
        assert_eq!(s.sprt.as_ref().unwrap().verdict(), SprtVerdict::AcceptH1);
        // A gap before the deciding pair: nothing is cut.
        let mut gap = all.clone();
        gap.remove(&0);
        let (s, at, after) = count_rows(&gap, Some(cfg));
        assert_eq!((at, after, s.games), (None, 0, 39));
    }

    #[test]
    fn settings_give_the_sprt_and_opponent() {
        let s = "size=9 komi=7.5 games=10 opponent=\"gnugo \\\"x\\\" --mode gtp\" referee=None \
                 sprt=elo0=0 elo1=10 alpha=0.05 beta=0.1";
        let c = settings_sprt(s).unwrap().unwrap();
        assert_eq!((c.elo0, c.elo1, c.alpha, c.beta), (0.0, 10.0, 0.05, 0.1));
        assert_eq!(settings_opponent(s), "gnugo \"x\" --mode gtp");
        assert_eq!(settings_sprt("games=2 sprt=none"), Ok(None));
        assert!(settings_sprt("games=2").is_err());
        assert!(settings_sprt("games=2 sprt=elo0=x elo1=1").is_err());
    }
}

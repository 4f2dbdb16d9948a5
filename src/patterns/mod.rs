//! Learned move patterns: Bradley-Terry ratings of move features (Coulom,
//! "Computing Elo Ratings of Move Patterns in the Game of Go", 2007).
//!
//! - [`shape`]: 3x3 codes with the liberty status (one, two) of the
//!   neighbouring chains, and large pattern codes (Coulom sizes 3 to 14),
//!   relative to the side to move and canonical under the 8 symmetries.
//! - [`features`]: the features of a candidate move (pass, capture, atari
//!   escape with a ladder reader, atari, self-atari, distances to the two
//!   previous moves, the lines from the edges, liberties after the move,
//!   pressure on neighbouring chains, extending a chain of ours that has
//!   two liberties, the shapes).
//! - [`ladder`]: the ladder reader of the features.
//! - [`lean`]: the same features for every candidate of one position at
//!   once, the work per position shared (the search's priors).
//! - [`mm`]: the minorization-maximization fit.
//! - [`data`]: the trained table's text format and the copy built into the
//!   binary.
//!
//! This module also holds the corpus side: finding game records, the
//! deterministic hold-out split, replaying each record position by
//! position, training ([`train`]) and measuring move prediction
//! ([`evaluate`]). The search reads the ratings for the priors of new
//! tree nodes ([`crate::mcts::prior`], through [`lean`]).

pub mod cli;
pub mod data;
pub mod features;
pub mod ladder;
pub mod lean;
pub mod mm;
pub mod shape;

pub use data::PatternTable;
pub use features::{candidate_points, extract, Family, MoveFeatures, Position, FAMILIES};

use crate::game::{Game, PlayedMove};
use crate::point::Move;
use crate::sgf::{self, ReadOptions, ReplayOptions};
use features::N_FAMILIES;
use fxhash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What can go wrong in training, evaluation or reading a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// A directory or file could not be read or written.
    Io(String),
    /// A table line is wrong (1-based line number).
    Table {
        /// The line.
        line: usize,
        /// What is wrong with it.
        msg: String,
    },
    /// No game could be read for the purpose.
    NoGames(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Io(m) => write!(f, "{m}"),
            PatternError::Table { line, msg } => write!(f, "pattern table line {line}: {msg}"),
            PatternError::NoGames(m) => write!(f, "no games: {m}"),
        }
    }
}

impl std::error::Error for PatternError {}

/// Every `.sgf` file (any case) under `dirs`, recursively, sorted by path.
///
/// # Errors
/// [`PatternError::Io`] for a directory that cannot be read.
pub fn sgf_files(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, PatternError> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    while let Some(d) = stack.pop() {
        if d.is_file() {
            out.push(d);
            continue;
        }
        let rd = std::fs::read_dir(&d).map_err(|e| {
            PatternError::Io(format!("{}: {}", d.display(), e.to_string().to_lowercase()))
        })?;
        for entry in rd {
            let path = entry
                .map_err(|e| PatternError::Io(format!("{}: {e}", d.display())))?
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Whether the file at `path` is held out: the FNV-1a hash of its file
/// name (not the directories) modulo `holdout` is 0, so about one file in
/// `holdout`, the same wherever the corpus lies. `holdout` 0 holds out
/// nothing.
pub fn is_held_out(path: &Path, holdout: u32) -> bool {
    if holdout == 0 {
        return false;
    }
    let name = path
        .file_name()
        .map_or_else(Vec::new, |n| n.to_string_lossy().as_bytes().to_vec());
    fnv1a(&name).is_multiple_of(u64::from(holdout))
}

/// One game record ready to be walked through.
#[derive(Clone, Debug)]
pub struct Record {
    /// The file, for messages.
    pub file: String,
    /// The start position (setup and handicap stones, side to move).
    pub start: Game,
    /// The main line as far as it replays.
    pub moves: Vec<PlayedMove>,
}

impl Record {
    /// The board size.
    pub fn size(&self) -> usize {
        self.start.size()
    }

    /// Calls `f` with each position of the main line and the move played
    /// in it (by whichever colour the record says).
    pub fn for_each_position(&self, mut f: impl FnMut(&Position, Move)) {
        self.for_each_numbered(|_, pos, mv| f(pos, mv));
    }

    /// As [`Record::for_each_position`], with the move number (from 1).
    pub fn for_each_numbered(&self, mut f: impl FnMut(usize, &Position, Move)) {
        let mut g = self.start.clone();
        for (i, m) in self.moves.iter().enumerate() {
            let pos = Position {
                board: g.board(),
                to_move: m.color,
                last: i.checked_sub(1).map(|j| self.moves[j].mv),
                last2: i.checked_sub(2).map(|j| self.moves[j].mv),
            };
            f(i + 1, &pos, m.mv);
            if g.play_tolerant(m.color, m.mv).is_err() {
                break;
            }
        }
    }
}

/// Reads every game of the SGF file at `path` with a tolerant replay.
/// Games that fail to replay are left out (and named in the second list);
/// a game stopped by a move the board cannot hold keeps the moves before
/// it.
pub fn load_records(path: &Path) -> (Vec<Record>, Vec<String>) {
    let name = path.display().to_string();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let c = match sgf::read_file(path, ReadOptions::default()) {
        Ok(c) => c,
        Err(e) => {
            problems.push(e.to_string());
            return (out, problems);
        }
    };
    let opts = ReplayOptions {
        tolerant: true,
        ..ReplayOptions::default()
    };
    for tree in &c.trees {
        match sgf::replay_tree(&name, tree, &opts) {
            Ok(r) => {
                if let Some(a) = &r.illegal {
                    problems.push(format!("{name}: stopped at {a}"));
                }
                let g = &r.game;
                let start =
                    Game::from_position(g.start().clone(), g.start_to_move(), g.rules(), g.komi());
                out.push(Record {
                    file: name.clone(),
                    start,
                    moves: g.moves().to_vec(),
                });
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    (out, problems)
}

/// Reads the records of `files`, reporting problems through `log`.
pub fn load_all(files: &[PathBuf], log: &mut dyn FnMut(&str)) -> Vec<Record> {
    let mut out = Vec::new();
    for f in files {
        let (recs, problems) = load_records(f);
        for p in problems {
            log(&format!("skipped: {p}"));
        }
        out.extend(recs);
    }
    out
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// MM iterations (each updates every family once).
    pub iterations: usize,
    /// A large pattern enters the table when the move played has it at least
    /// this many times in the training games.
    pub min_count: u32,
    /// Families left out of the model (for ablations).
    pub without: Vec<Family>,
    /// Virtual wins and losses against a gamma-1 opponent per feature.
    pub prior: f64,
    /// Header lines for the table (the command, the corpus).
    pub header: Vec<String>,
}

/// What training saw.
#[derive(Clone, Debug, Default)]
pub struct TrainSummary {
    /// Games read.
    pub games: usize,
    /// Positions kept (the move played was a candidate).
    pub positions: usize,
    /// Candidates over all positions.
    pub candidates: usize,
    /// Features fitted, per family.
    pub features: [usize; N_FAMILIES],
    /// Mean log-likelihood of the move played, per iteration.
    pub log_likelihood: Vec<f64>,
}

/// Fits a table on `records`: harvests the large patterns of the moves played,
/// builds every position's candidates (the legal points and the pass) with
/// their features, and runs [`mm::fit`].
pub fn train(
    records: &[Record],
    opts: &TrainOptions,
    log: &mut dyn FnMut(&str),
) -> (PatternTable, TrainSummary) {
    let use_family = |f: Family| !opts.without.contains(&f);
    // Diamonds of the moves played.
    let mut seen: FxHashMap<u64, u32> = FxHashMap::default();
    if use_family(Family::Large) {
        for r in records {
            r.for_each_position(|pos, mv| {
                if let Move::Play(p) = mv {
                    if pos.board.is_empty(p) {
                        for d in shape::large_patterns(pos.board, pos.to_move, p) {
                            *seen.entry(d).or_insert(0) += 1;
                        }
                    }
                }
            });
        }
    }
    let dict: FxHashSet<u64> = seen
        .iter()
        .filter(|(_, &n)| n >= opts.min_count)
        .map(|(&d, _)| d)
        .collect();
    log(&format!(
        "large patterns: {} distinct at the moves played, {} seen at least {} times",
        seen.len(),
        dict.len(),
        opts.min_count
    ));
    drop(seen);

    let mut data = mm::Dataset::new();
    let mut keys: Vec<(Family, u64)> = Vec::new();
    let mut ids: FxHashMap<(Family, u64), u32> = FxHashMap::default();
    let mut team: Vec<u32> = Vec::with_capacity(N_FAMILIES);
    let mut summary = TrainSummary {
        games: records.len(),
        ..TrainSummary::default()
    };
    for (n, r) in records.iter().enumerate() {
        r.for_each_position(|pos, played| {
            data.begin();
            let moves = candidate_points(pos.board, pos.to_move)
                .map(Move::Play)
                .chain(std::iter::once(Move::Pass));
            for mv in moves {
                let f = extract(pos, mv);
                team.clear();
                for fam in FAMILIES {
                    if !use_family(fam) {
                        continue;
                    }
                    let key = if fam == Family::Large {
                        f.large.iter().rev().copied().find(|d| dict.contains(d))
                    } else {
                        f.get(fam).map(u64::from)
                    };
                    if let Some(k) = key {
                        let id = *ids.entry((fam, k)).or_insert_with(|| {
                            keys.push((fam, k));
                            data.add_feature(fam as u8)
                        });
                        team.push(id);
                    }
                }
                if team.is_empty() {
                    // Only when the ablation removes every family this move
                    // has: a neutral feature outside the families.
                    let id = *ids.entry((Family::Pass, u64::MAX)).or_insert_with(|| {
                        keys.push((Family::Pass, u64::MAX));
                        data.add_feature(N_FAMILIES as u8)
                    });
                    team.push(id);
                }
                data.push(&team, mv == played);
            }
            data.end();
        });
        if (n + 1) % 100 == 0 {
            log(&format!(
                "features: {} of {} games, {} positions, {} candidates",
                n + 1,
                records.len(),
                data.positions(),
                data.candidates()
            ));
        }
    }
    summary.positions = data.positions();
    summary.candidates = data.candidates();
    log(&format!(
        "data: {} positions, {} candidates, {} features",
        summary.positions,
        summary.candidates,
        data.features()
    ));
    let (gamma, report) = mm::fit(&data, opts.iterations, opts.prior, |it, ll| {
        log(&format!("iteration {it}: mean log-likelihood {ll:.4}"));
    });
    summary.log_likelihood = report.log_likelihood;
    let mut table = PatternTable::new(opts.header.clone());
    for (i, &(fam, key)) in keys.iter().enumerate() {
        if key == u64::MAX && fam == Family::Pass {
            continue;
        }
        table.insert(fam, key, gamma[i] as f32);
        summary.features[fam as usize] += 1;
    }
    (table, summary)
}

/// `kosumi patterns train`: the directories, the split and the settings.
#[derive(Clone, Debug)]
pub struct TrainCommand {
    /// Directories (or files) of SGF records, searched recursively.
    pub games: Vec<PathBuf>,
    /// Hold out one file in this many (0: none).
    pub holdout: u32,
    /// Training settings; `header` is filled in by [`train_command`] after
    /// the lines given here (the command line).
    pub options: TrainOptions,
}

/// Runs `kosumi patterns train`: finds the files, trains on those not
/// held out and returns the table with its header (the lines given, the
/// feature version, the corpus, the split, the figures of the fit).
///
/// # Errors
/// [`PatternError::Io`] for an unreadable directory,
/// [`PatternError::NoGames`] when no training game could be read.
pub fn train_command(
    cmd: &TrainCommand,
    log: &mut dyn FnMut(&str),
) -> Result<(PatternTable, TrainSummary), PatternError> {
    let files = sgf_files(&cmd.games)?;
    let (held, kept): (Vec<PathBuf>, Vec<PathBuf>) = files
        .iter()
        .cloned()
        .partition(|f| is_held_out(f, cmd.holdout));
    log(&format!(
        "{} files: {} for training, {} held out",
        files.len(),
        kept.len(),
        held.len()
    ));
    let records = load_all(&kept, log);
    if records.is_empty() {
        return Err(PatternError::NoGames(
            "no training game could be read".into(),
        ));
    }
    let moves: usize = records.iter().map(|r| r.moves.len()).sum();
    let mut opts = cmd.options.clone();
    let (mut table, summary) = train(&records, &opts, log);
    let mut header = vec![format!("kosumi patterns, {}", data::FEATURE_VERSION)];
    header.append(&mut opts.header);
    header.push(format!(
        "corpus: {} files, {} held out (FNV-1a of the file name mod {} == 0), {} training games, {} moves",
        files.len(),
        held.len(),
        cmd.holdout,
        records.len(),
        moves
    ));
    header.push(format!(
        "fit: {} positions, {} candidates, {} iterations, min-count {}, prior {}, without [{}]",
        summary.positions,
        summary.candidates,
        opts.iterations,
        opts.min_count,
        opts.prior,
        opts.without
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(",")
    ));
    header.push(format!(
        "mean log-likelihood per iteration: {}",
        summary
            .log_likelihood
            .iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    header.push(
        "features per family: ".to_string()
            + &FAMILIES
                .iter()
                .map(|f| format!("{} {}", f.name(), summary.features[*f as usize]))
                .collect::<Vec<_>>()
                .join(", "),
    );
    header.push("columns: family, key (large patterns in hex), gamma".into());
    table.header = header;
    Ok((table, summary))
}

/// Runs `kosumi patterns eval`: the held-out files of `games` (the same
/// split as training), evaluated with `table`.
///
/// # Errors
/// [`PatternError::Io`] for an unreadable directory,
/// [`PatternError::NoGames`] when no held-out game could be read.
pub fn eval_command(
    games: &[PathBuf],
    holdout: u32,
    table: &PatternTable,
    log: &mut dyn FnMut(&str),
) -> Result<EvalResult, PatternError> {
    let files = sgf_files(games)?;
    let held: Vec<PathBuf> = files
        .iter()
        .filter(|f| holdout == 0 || is_held_out(f, holdout))
        .cloned()
        .collect();
    log(&format!("{} files, {} held out", files.len(), held.len()));
    let records = load_all(&held, log);
    if records.is_empty() {
        return Err(PatternError::NoGames(
            "no held-out game could be read".into(),
        ));
    }
    Ok(evaluate(&records, table))
}

/// Move prediction on one board size: the move played's expected rank
/// hits (ties split evenly), for the whole model and with each family's
/// gammas set to 1.
#[derive(Clone, Debug, Default)]
pub struct SizeStats {
    /// Positions measured.
    pub positions: usize,
    /// Expected top-1 hits: `[0]` the whole model, `[1 + f]` without family
    /// `f`.
    pub top1: [f64; N_FAMILIES + 1],
    /// Expected top-5 hits, indexed as `top1`.
    pub top5: [f64; N_FAMILIES + 1],
    /// Sum of the log-probability the model gives the move played (whole
    /// model).
    pub log_likelihood: f64,
    /// Positions and expected top-1 hits of the whole model by the move
    /// number of the move played: 1..=30, 31..=100, 101 and later.
    pub by_phase: [(usize, f64); 3],
}

/// Prediction figures per board size.
pub type EvalResult = BTreeMap<usize, SizeStats>;

/// The chance that the move played is in the top `k` when `greater`
/// candidates are stronger and `equal` (itself included) as strong, ties
/// broken at random.
pub(crate) fn top_k_share(greater: usize, equal: usize, k: usize) -> f64 {
    if greater >= k {
        0.0
    } else {
        ((k - greater) as f64 / equal as f64).min(1.0)
    }
}

/// Measures move prediction of `table` on `records`: in every position,
/// every candidate's strength, and where the move played ranks.
pub fn evaluate(records: &[Record], table: &PatternTable) -> EvalResult {
    let mut out = EvalResult::new();
    let mut gammas: Vec<[f32; N_FAMILIES]> = Vec::new();
    for r in records {
        let stats = out.entry(r.size()).or_default();
        r.for_each_numbered(|number, pos, played| {
            gammas.clear();
            let mut winner = None;
            let moves = candidate_points(pos.board, pos.to_move)
                .map(Move::Play)
                .chain(std::iter::once(Move::Pass));
            for mv in moves {
                if mv == played {
                    winner = Some(gammas.len());
                }
                gammas.push(table.move_gammas(&extract(pos, mv)));
            }
            let Some(w) = winner else {
                return;
            };
            stats.positions += 1;
            for v in 0..=N_FAMILIES {
                let strength = |g: &[f32; N_FAMILIES]| -> f64 {
                    g.iter()
                        .enumerate()
                        .filter(|&(f, _)| f + 1 != v)
                        .map(|(_, &x)| f64::from(x))
                        .product()
                };
                let sw = strength(&gammas[w]);
                let (mut greater, mut equal, mut total) = (0, 0, 0.0);
                for g in &gammas {
                    let s = strength(g);
                    total += s;
                    if s > sw {
                        greater += 1;
                    } else if s == sw {
                        equal += 1;
                    }
                }
                stats.top1[v] += top_k_share(greater, equal, 1);
                stats.top5[v] += top_k_share(greater, equal, 5);
                if v == 0 {
                    stats.log_likelihood += (sw / total).ln();
                    let phase = match number {
                        0..=30 => 0,
                        31..=100 => 1,
                        _ => 2,
                    };
                    stats.by_phase[phase].0 += 1;
                    stats.by_phase[phase].1 += top_k_share(greater, equal, 1);
                }
            }
        });
    }
    out
}

/// One board size's move-prediction figures, as [`prediction_table`]
/// prints them (the pattern table's and the network's alike).
#[derive(Clone, Copy, Debug)]
pub struct PredictionRow {
    /// The board size.
    pub size: usize,
    /// Positions judged.
    pub positions: usize,
    /// Positions whose move was the first choice (ties shared).
    pub top1: f64,
    /// Positions whose move was among the first five.
    pub top5: f64,
    /// The sum of the log-likelihoods of the moves played.
    pub log_likelihood: f64,
    /// Per phase (moves 1-30, 31-100, 101-): positions and top-1 hits.
    pub by_phase: [(usize, f64); 3],
}

/// The move-prediction table `patterns eval` and `nn eval` print: per
/// board size the positions, top-1, top-5 and the mean log-likelihood,
/// then top-1 by move number.
pub fn prediction_table(rows: impl Iterator<Item = PredictionRow> + Clone) -> String {
    let mut s = String::new();
    let pct = |x: f64, n: usize| 100.0 * x / n.max(1) as f64;
    s.push_str("size  positions   top-1    top-5   mean log-likelihood\n");
    for r in rows.clone() {
        s.push_str(&format!(
            "{:>4}  {:>9}  {:>6.2}%  {:>6.2}%  {:.4}\n",
            r.size,
            r.positions,
            pct(r.top1, r.positions),
            pct(r.top5, r.positions),
            r.log_likelihood / r.positions.max(1) as f64
        ));
    }
    s.push_str("\ntop-1 by move number\nsize   1-30       31-100     101-\n");
    for r in rows {
        s.push_str(&format!("{:>4}", r.size));
        for (n, hits) in r.by_phase {
            s.push_str(&format!("  {:>5.1}% {:>5}", pct(hits, n), n));
        }
        s.push('\n');
    }
    s
}

/// The evaluation as a text table: per board size, positions, top-1 and
/// top-5 of the whole model, then top-1 with each family's gammas set to
/// 1 and the difference it makes.
pub fn eval_text(result: &EvalResult) -> String {
    let pct = |x: f64, n: usize| 100.0 * x / n.max(1) as f64;
    let mut s = prediction_table(result.iter().map(|(&size, st)| PredictionRow {
        size,
        positions: st.positions,
        top1: st.top1[0],
        top5: st.top5[0],
        log_likelihood: st.log_likelihood,
        by_phase: st.by_phase,
    }));
    s.push_str("\ntop-1 with one family's gammas set to 1 (change from the whole model)\n");
    s.push_str("family      ");
    for size in result.keys() {
        s.push_str(&format!("  {:>16}", format!("{size}x{size}")));
    }
    s.push('\n');
    for fam in FAMILIES {
        s.push_str(&format!("{:<12}", fam.name()));
        for st in result.values() {
            let v = fam as usize + 1;
            let with = pct(st.top1[0], st.positions);
            let without = pct(st.top1[v], st.positions);
            s.push_str(&format!("  {without:>6.1}% ({:>+5.1})", without - with));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hold_out_is_by_file_name_and_about_a_tenth() {
        let a = Path::new("/x/y/game-17.sgf");
        let b = Path::new("elsewhere/game-17.sgf");
        assert_eq!(is_held_out(a, 10), is_held_out(b, 10));
        let held = (0..1000)
            .filter(|i| is_held_out(Path::new(&format!("g{i}.sgf")), 10))
            .count();
        assert!((60..=140).contains(&held), "{held}");
        assert!(!is_held_out(a, 0));
        assert!((0..50).all(|i| is_held_out(Path::new(&format!("g{i}.sgf")), 1)));
    }

    #[test]
    fn ties_are_shared() {
        assert_eq!(top_k_share(0, 1, 1), 1.0);
        assert_eq!(top_k_share(0, 4, 1), 0.25);
        assert_eq!(top_k_share(3, 4, 5), 0.5);
        assert_eq!(top_k_share(5, 1, 5), 0.0);
    }
}

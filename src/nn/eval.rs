//! Move prediction of a network on held-out records (`kosumi nn eval`):
//! the same positions, split and table as `patterns eval`, so that the
//! two read side by side.
//!
//! In each position the candidates are the pattern code's (the legal
//! points on the board alone and the pass); the network's logits of the
//! candidates, through a softmax, give the move played's probability,
//! and its rank gives top-1 and top-5 (ties shared evenly, as
//! `patterns eval` does).

use super::export::Split;
use super::net::{Evaluator, Network};
use super::planes::{
    planes, point_index, symmetric_planes, symmetry_index, NnPosition, PlaneScratch, BASE_PLANES,
    SYMMETRIES,
};
use super::NnError;
use crate::patterns::{candidate_points, load_all, sgf_files, top_k_share, PatternTable, Record};
use crate::point::Move;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Move prediction on one board size.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NnSizeStats {
    /// Positions measured.
    pub positions: usize,
    /// Expected top-1 hits.
    pub top1: f64,
    /// Expected top-5 hits.
    pub top5: f64,
    /// Sum of the log-probability of the move played.
    pub log_likelihood: f64,
    /// Positions and expected top-1 hits by move number: 1..=30,
    /// 31..=100, 101 and later.
    pub by_phase: [(usize, f64); 3],
}

/// Prediction figures per board size.
pub type NnEvalResult = BTreeMap<usize, NnSizeStats>;

/// Whether `net` reads the pattern plane.
pub fn wants_pattern_plane(net: &Network) -> bool {
    net.shape.planes == BASE_PLANES + 1
}

/// Measures `net` on `records` (the pattern plane from `table` when the
/// network reads one). With `symmetries` over 1 the network sees each
/// position under the first that many [`SYMMETRIES`] and the move's
/// probability is the mean of their softmaxes (1: the position as it
/// stands, its logits alone).
///
/// # Errors
/// [`NnError::Format`] when the network's planes are neither
/// [`BASE_PLANES`] nor one more.
pub fn evaluate(
    records: &[Record],
    net: &Network,
    table: &PatternTable,
    symmetries: usize,
) -> Result<NnEvalResult, NnError> {
    let k = symmetries.clamp(1, SYMMETRIES);
    let pattern = wants_pattern_plane(net);
    if net.shape.planes != BASE_PLANES && !pattern {
        return Err(NnError::Format(format!(
            "the network reads {} planes; positions have {BASE_PLANES} or {}",
            net.shape.planes,
            BASE_PLANES + 1
        )));
    }
    let mut out = NnEvalResult::new();
    let mut evaluators: BTreeMap<usize, Evaluator> = BTreeMap::new();
    let mut input = Vec::new();
    let mut logits = Vec::new();
    let mut scratch = PlaneScratch::default();
    let mut cand: Vec<(usize, f32)> = Vec::new();
    let mut batch = Vec::new();
    let mut probs: Vec<f64> = Vec::new();
    for r in records {
        let n = r.size();
        let area = n * n;
        let ev = evaluators
            .entry(n)
            .or_insert_with(|| Evaluator::new(net, n, k));
        let stats = out.entry(n).or_default();
        input.resize(net.shape.planes * area, 0.0);
        logits.resize(k * (area + 1), 0.0);
        batch.resize(k * net.shape.planes * area, 0.0);
        let mut g = r.start.clone();
        let mut history: Vec<Move> = Vec::with_capacity(r.moves.len());
        for (i, m) in r.moves.iter().enumerate() {
            let b = g.board();
            cand.clear();
            let mut winner = None;
            let pos = NnPosition {
                board: b,
                to_move: m.color,
                history: &history,
            };
            let points: Vec<usize> = candidate_points(b, m.color)
                .map(|p| {
                    if m.mv == Move::Play(p) {
                        winner = Some(point_index(p, n));
                    }
                    point_index(p, n)
                })
                .collect();
            if m.mv == Move::Pass {
                winner = Some(area);
            }
            if let Some(w) = winner {
                planes(&pos, pattern.then_some(table), &mut scratch, &mut input);
                let (greater, equal, ll) = if k == 1 {
                    ev.evaluate(net, &input, 1, &mut logits, None);
                    cand.extend(points.iter().map(|&k| (k, logits[k])));
                    cand.push((area, logits[area]));
                    let lw = logits[w];
                    let max = cand.iter().map(|c| c.1).fold(f32::NEG_INFINITY, f32::max);
                    let z: f64 = cand.iter().map(|c| f64::from(c.1 - max).exp()).sum();
                    let greater = cand.iter().filter(|c| c.1 > lw).count();
                    let equal = cand.iter().filter(|c| c.1 == lw).count();
                    (greater, equal, f64::from(lw - max) - z.ln())
                } else {
                    let planes_n = net.shape.planes;
                    for s in 0..k {
                        let out = &mut batch[s * planes_n * area..(s + 1) * planes_n * area];
                        symmetric_planes(&input, planes_n, n, s, out);
                    }
                    ev.evaluate(net, &batch, k, &mut logits, None);
                    mean_softmax(&logits, n, k, &points, &mut probs);
                    // The pass is the last candidate.
                    let at = points.iter().position(|&q| q == w).unwrap_or(points.len());
                    let pw = probs[at];
                    let greater = probs.iter().filter(|&&q| q > pw).count();
                    let equal = probs.iter().filter(|&&q| q == pw).count();
                    (greater, equal, pw.ln())
                };
                let t1 = top_k_share(greater, equal, 1);
                stats.positions += 1;
                stats.top1 += t1;
                stats.top5 += top_k_share(greater, equal, 5);
                stats.log_likelihood += ll;
                let phase = match i + 1 {
                    0..=30 => 0,
                    31..=100 => 1,
                    _ => 2,
                };
                stats.by_phase[phase].0 += 1;
                stats.by_phase[phase].1 += t1;
            }
            history.push(m.mv);
            if g.play_tolerant(m.color, m.mv).is_err() {
                break;
            }
        }
    }
    Ok(out)
}

/// The mean over `k` symmetries of the softmax over the candidates, the
/// point indices `points` and then the pass, into `probs` (in that
/// order): `logits` holds the `k` evaluations, the one of symmetry `s`
/// seeing the position under [`symmetry_index`]`(_, size, s)`.
fn mean_softmax(logits: &[f32], size: usize, k: usize, points: &[usize], probs: &mut Vec<f64>) {
    let area = size * size;
    probs.clear();
    probs.resize(points.len() + 1, 0.0);
    for s in 0..k {
        let l = &logits[s * (area + 1)..(s + 1) * (area + 1)];
        let cand = points
            .iter()
            .map(|&i| l[symmetry_index(i, size, s)])
            .chain(std::iter::once(l[area]));
        let max = cand.clone().fold(f32::NEG_INFINITY, f32::max);
        let z: f64 = cand.clone().map(|x| f64::from(x - max).exp()).sum();
        for (q, x) in probs.iter_mut().zip(cand) {
            *q += f64::from(x - max).exp() / z / k as f64;
        }
    }
}

/// Runs `kosumi nn eval`: the files of `split` (the held-out ones by
/// default, as `patterns eval`), evaluated with `net`.
///
/// # Errors
/// [`NnError::Io`] for an unreadable directory, [`NnError::NoGames`]
/// when no game of the split could be read, and as [`evaluate`].
pub fn eval_command(
    games: &[PathBuf],
    holdout: u32,
    split: Split,
    net: &Network,
    table: &PatternTable,
    symmetries: usize,
    log: &mut dyn FnMut(&str),
) -> Result<NnEvalResult, NnError> {
    let files = sgf_files(games).map_err(|e| NnError::Io(e.to_string()))?;
    let kept: Vec<PathBuf> = files
        .iter()
        .filter(|f| split.keeps(f, holdout))
        .cloned()
        .collect();
    log(&format!(
        "{} files, {} in the split",
        files.len(),
        kept.len()
    ));
    let records = load_all(&kept, log);
    if records.is_empty() {
        return Err(NnError::NoGames(
            "no game of the split could be read".into(),
        ));
    }
    evaluate(&records, net, table, symmetries)
}

/// The evaluation as the text table `patterns eval` prints first (per
/// board size: positions, top-1, top-5, mean log-likelihood), then top-1
/// by move number.
pub fn eval_text(result: &NnEvalResult) -> String {
    crate::patterns::prediction_table(result.iter().map(|(&size, st)| {
        crate::patterns::PredictionRow {
            size,
            positions: st.positions,
            top1: st.top1,
            top5: st.top5,
            log_likelihood: st.log_likelihood,
            by_phase: st.by_phase,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::net::Shape;
    use crate::patterns::load_records;
    use std::path::Path;

    /// A random network of one block of 4 channels.
    fn small_net(seed: u64) -> Network {
        Network::random(
            Shape {
                planes: BASE_PLANES,
                blocks: 1,
                channels: 4,
                value_hidden: 0,
            },
            seed,
        )
    }

    #[test]
    fn a_network_measures_every_position_patterns_measures() {
        let path = Path::new("sgf-fixtures/pro/9x9");
        let files = sgf_files(&[path.to_path_buf()]).expect("fixtures");
        let (records, _) = load_records(&files[0]);
        assert!(!records.is_empty());
        let net = small_net(3);
        let r = evaluate(&records, &net, PatternTable::builtin(), 1).expect("eval");
        let p = crate::patterns::evaluate(&records, PatternTable::builtin());
        assert_eq!(r.len(), 1);
        let (size, st) = r.iter().next().expect("one size");
        assert_eq!(st.positions, p[size].positions);
        assert!(st.positions > 10);
        // Shares: top-5 at least top-1, both at most the positions; the
        // log-likelihood negative.
        assert!(st.top1 <= st.top5 && st.top5 <= st.positions as f64);
        assert!(st.log_likelihood < 0.0);
        let text = eval_text(&r);
        assert!(text.starts_with("size  positions   top-1"));
        assert!(text.contains(&format!("{:>9}", st.positions)));
        // A network of the wrong planes is refused.
        let wrong = Network::random(
            Shape {
                planes: 3,
                blocks: 0,
                channels: 2,
                value_hidden: 0,
            },
            1,
        );
        assert!(evaluate(&records, &wrong, PatternTable::builtin(), 1).is_err());
    }

    /// The records of `fixture` played on an empty board, and the same
    /// games turned by symmetry `s`.
    fn turned_records(s: usize) -> (Vec<Record>, Vec<Record>) {
        use crate::nn::planes::symmetry_index;
        use crate::point::Point;
        let path = Path::new("sgf-fixtures/pro/9x9");
        let files = sgf_files(&[path.to_path_buf()]).expect("fixtures");
        let (records, _) = load_records(&files[0]);
        let records: Vec<Record> = records
            .into_iter()
            .filter(|r| r.start.board().empty_count() == r.size() * r.size())
            .collect();
        assert!(!records.is_empty());
        let turned = records
            .iter()
            .map(|r| {
                let n = r.size();
                let mut t = r.clone();
                for m in &mut t.moves {
                    if let Move::Play(p) = m.mv {
                        let i = symmetry_index(point_index(p, n), n, s);
                        m.mv = Move::Play(Point::new(i % n, i / n));
                    }
                }
                t
            })
            .collect();
        (records, turned)
    }

    /// Averaged over all eight symmetries a network rates a game and its
    /// turned copy alike; as it stands (one symmetry) it does not.
    #[test]
    fn eight_symmetries_rate_a_turned_game_alike() {
        let net = small_net(5);
        let (records, turned) = turned_records(3);
        let t = PatternTable::builtin();
        let ll = |r: &[Record], k: usize| {
            let e = evaluate(r, &net, t, k).expect("eval");
            let st = e.values().next().expect("one size").clone();
            (st.positions, st.log_likelihood)
        };
        let (a, b) = (ll(&records, 8), ll(&turned, 8));
        assert_eq!(a.0, b.0);
        assert!((a.1 - b.1).abs() < 1e-6 * a.1.abs(), "{a:?} {b:?}");
        let (c, d) = (ll(&records, 1), ll(&turned, 1));
        assert!((c.1 - d.1).abs() > 1e-3, "{c:?} {d:?}");
    }
}

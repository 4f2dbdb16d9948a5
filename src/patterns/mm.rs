//! Bradley-Terry ratings of move features fitted by minorization-
//! maximization (Coulom 2007).
//!
//! A candidate's strength is the product of the gammas of its features; in
//! every position the move played wins against all the other candidates.
//! One step updates the features of one family, holding the rest:
//!
//! `gamma_i <- (W_i + k) / (sum_j C_ij / E_j + 2k / (gamma_i + 1))`
//!
//! where `W_i` counts the wins of teams with feature `i`, `E_j` is the total
//! strength of the candidates of position `j` and `C_ij` the strength of the
//! candidates of `j` holding `i`, divided by `gamma_i` (the strength of
//! `i`'s teammates). The `+ k` and `2k / (gamma_i + 1)` are the prior: `k`
//! virtual wins and `k` virtual losses against a gamma-1 opponent (Coulom
//! uses `k = 1`).
//!
//! Candidates are stored flat: feature ids in one `Vec<u32>`, the last id
//! of each candidate marked by the top bit; positions hold an offset, a
//! candidate count and the winner's index.

/// The top bit marks the last feature id of a candidate.
const LAST: u32 = 1 << 31;

/// One position: its candidates' ids start at `start`.
#[derive(Clone, Copy, Debug)]
struct Entry {
    start: u32,
    candidates: u32,
    winner: u32,
}

/// Training positions, candidates and their feature ids.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    family: Vec<u8>,
    ids: Vec<u32>,
    positions: Vec<Entry>,
    open: Option<Entry>,
    max_candidates: usize,
}

impl Dataset {
    /// An empty data set.
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Adds a feature of family `family`; returns its id.
    pub fn add_feature(&mut self, family: u8) -> u32 {
        self.family.push(family);
        (self.family.len() - 1) as u32
    }

    /// Number of features.
    pub fn features(&self) -> usize {
        self.family.len()
    }

    /// Number of complete positions.
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// Number of candidates over all complete positions.
    pub fn candidates(&self) -> usize {
        self.positions.iter().map(|e| e.candidates as usize).sum()
    }

    /// Starts a position (dropping an unfinished one).
    pub fn begin(&mut self) {
        if let Some(e) = self.open.take() {
            self.ids.truncate(e.start as usize);
        }
        self.open = Some(Entry {
            start: self.ids.len() as u32,
            candidates: 0,
            winner: u32::MAX,
        });
    }

    /// Adds a candidate with these feature ids (at least one) to the open
    /// position; `winner` marks the move played.
    ///
    /// # Panics
    /// Without an open position, with no ids, or with an unknown id.
    pub fn push(&mut self, ids: &[u32], winner: bool) {
        let e = self.open.as_mut().expect("begin() first");
        assert!(!ids.is_empty(), "a candidate needs a feature");
        for (k, &id) in ids.iter().enumerate() {
            assert!((id as usize) < self.family.len(), "unknown feature {id}");
            self.ids
                .push(if k + 1 == ids.len() { id | LAST } else { id });
        }
        if winner {
            e.winner = e.candidates;
        }
        e.candidates += 1;
    }

    /// Closes the open position; it is kept only if it has a winner and
    /// at least two candidates. Returns whether it was kept.
    pub fn end(&mut self) -> bool {
        let Some(e) = self.open.take() else {
            return false;
        };
        if e.winner == u32::MAX || e.candidates < 2 {
            self.ids.truncate(e.start as usize);
            return false;
        }
        self.max_candidates = self.max_candidates.max(e.candidates as usize);
        self.positions.push(e);
        true
    }

    /// How often each feature is in the winning team.
    fn wins(&self) -> Vec<f64> {
        let mut w = vec![0.0; self.family.len()];
        for e in &self.positions {
            let mut i = e.start as usize;
            let mut c = 0;
            while c < e.candidates {
                let id = self.ids[i];
                if c == e.winner {
                    w[(id & !LAST) as usize] += 1.0;
                }
                if id & LAST != 0 {
                    c += 1;
                }
                i += 1;
            }
        }
        w
    }
}

/// How a fit went: the mean log-likelihood of the move played per
/// iteration (before that iteration's updates).
#[derive(Clone, Debug, Default)]
pub struct FitReport {
    /// Mean log-likelihood per position at the start of each iteration.
    pub log_likelihood: Vec<f64>,
}

/// Fits the gammas of every feature of `data` by `iterations` rounds of
/// MM, one family at a time in the order of their numbers, with `prior`
/// virtual wins and losses per feature. `progress` is called after each
/// iteration with its number and the mean log-likelihood measured during
/// it.
pub fn fit(
    data: &Dataset,
    iterations: usize,
    prior: f64,
    mut progress: impl FnMut(usize, f64),
) -> (Vec<f64>, FitReport) {
    let n = data.family.len();
    let mut gamma = vec![1.0f64; n];
    let wins = data.wins();
    let families: Vec<u8> = {
        let mut f = data.family.clone();
        f.sort_unstable();
        f.dedup();
        f
    };
    let mut denom = vec![0.0f64; n];
    // Per candidate of the current position: strength and the id of its
    // feature in the family being updated (u32::MAX if none).
    let mut scratch: Vec<(f64, u32)> = vec![(0.0, u32::MAX); data.max_candidates];
    let mut report = FitReport::default();
    for it in 0..iterations {
        let mut loglik = 0.0;
        for (k, &fam) in families.iter().enumerate() {
            for (d, &f) in denom.iter_mut().zip(&data.family) {
                if f == fam {
                    *d = 0.0;
                }
            }
            for e in &data.positions {
                let mut i = e.start as usize;
                let mut total = 0.0;
                for slot in scratch.iter_mut().take(e.candidates as usize) {
                    let mut s = 1.0;
                    let mut mine = u32::MAX;
                    loop {
                        let raw = data.ids[i];
                        i += 1;
                        let id = raw & !LAST;
                        s *= gamma[id as usize];
                        if data.family[id as usize] == fam {
                            mine = id;
                        }
                        if raw & LAST != 0 {
                            break;
                        }
                    }
                    *slot = (s, mine);
                    total += s;
                }
                if k == 0 {
                    loglik += (scratch[e.winner as usize].0 / total).ln();
                }
                let inv = 1.0 / total;
                for &(s, id) in scratch.iter().take(e.candidates as usize) {
                    if id != u32::MAX {
                        denom[id as usize] += s / gamma[id as usize] * inv;
                    }
                }
            }
            for i in 0..n {
                if data.family[i] == fam {
                    gamma[i] = (wins[i] + prior) / (denom[i] + 2.0 * prior / (gamma[i] + 1.0));
                }
            }
        }
        let mean = loglik / data.positions.len().max(1) as f64;
        report.log_likelihood.push(mean);
        progress(it + 1, mean);
    }
    (gamma, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (splitmix64) for the synthetic set.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn mm_recovers_known_gammas() {
        // Family 0: a baseline feature (gamma 1 by construction, every
        // candidate without another family-0 feature has it) and two
        // others; family 1: optional features. Every candidate has exactly
        // one family-0 feature, so family 0 is fixed by pinning the
        // baseline through the data: the baseline is the most common.
        let truth0 = [1.0, 4.0, 0.25];
        let truth1 = [2.5, 0.5];
        let mut data = Dataset::new();
        let ids0: Vec<u32> = truth0.iter().map(|_| data.add_feature(0)).collect();
        let ids1: Vec<u32> = truth1.iter().map(|_| data.add_feature(1)).collect();
        let mut rng = Rng(7);
        for _ in 0..20_000 {
            let k = 3 + (rng.next() % 6) as usize;
            let mut teams: Vec<(Vec<u32>, f64)> = Vec::new();
            for _ in 0..k {
                let a = (rng.next() % 3) as usize;
                let mut ids = vec![ids0[a]];
                let mut s = truth0[a];
                let b = rng.next() % 3;
                if b < 2 {
                    ids.push(ids1[b as usize]);
                    s *= truth1[b as usize];
                }
                teams.push((ids, s));
            }
            let total: f64 = teams.iter().map(|t| t.1).sum();
            let mut u = rng.unit() * total;
            let mut winner = k - 1;
            for (i, t) in teams.iter().enumerate() {
                if u < t.1 {
                    winner = i;
                    break;
                }
                u -= t.1;
            }
            data.begin();
            for (i, t) in teams.iter().enumerate() {
                data.push(&t.0, i == winner);
            }
            assert!(data.end());
        }
        let (gamma, report) = fit(&data, 40, 1.0, |_, _| {});
        // Family 0 is defined up to a common factor: compare ratios.
        let base = gamma[ids0[0] as usize];
        for (i, &t) in truth0.iter().enumerate() {
            let got = gamma[ids0[i] as usize] / base;
            assert!((got / t - 1.0).abs() < 0.1, "family 0 #{i}: {got} vs {t}");
        }
        for (i, &t) in truth1.iter().enumerate() {
            let got = gamma[ids1[i] as usize];
            assert!((got / t - 1.0).abs() < 0.1, "family 1 #{i}: {got} vs {t}");
        }
        // The likelihood rises.
        let ll = &report.log_likelihood;
        assert!(ll[ll.len() - 1] > ll[0] + 0.01, "{ll:?}");
    }

    #[test]
    fn positions_without_winner_or_choice_are_dropped() {
        let mut data = Dataset::new();
        let a = data.add_feature(0);
        let b = data.add_feature(0);
        data.begin();
        data.push(&[a], false);
        data.push(&[b], false);
        assert!(!data.end());
        data.begin();
        data.push(&[a], true);
        assert!(!data.end());
        data.begin();
        data.push(&[a], true);
        data.push(&[b], false);
        assert!(data.end());
        assert_eq!((data.positions(), data.candidates()), (1, 2));
        assert_eq!(data.ids.len(), 2);
    }
}

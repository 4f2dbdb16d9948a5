//! A sequential probability ratio test for matches, as engine testers run
//! it: the match stops as soon as the games say which of two hypotheses
//! about the Elo difference holds, `elo0` (typically "no gain") or `elo1`
//! (the gain worth having), with error rates `alpha` (accepting `elo1`
//! when `elo0` is true) and `beta` (the other way).
//!
//! Games come in pairs from one seed with colours swapped, so the unit of
//! evidence is the pair: its score for the tested side is 0, 1/2, 1, 3/2
//! or 2 points (a pentanomial outcome; a jigo is half a point). Pairing
//! cancels most of the colour and opening luck, which a per-game model
//! would count as noise twice.
//!
//! The log-likelihood ratio is the generalised one: under each hypothesis
//! the pair-score distribution is the most likely one (given the observed
//! frequencies) whose mean is that hypothesis's expected score, and the LLR
//! is the difference of the two log-likelihoods of the observed pairs. A
//! count of zero is replaced by a small weight before fitting, so that a
//! short one-sided run gives a small, finite LLR instead of an infinite
//! one.

use std::fmt;

/// What `--sprt ELO0,ELO1[,ALPHA,BETA]` holds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtConfig {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis (above `elo0`).
    pub elo1: f64,
    /// Probability of accepting `elo1` when `elo0` holds.
    pub alpha: f64,
    /// Probability of accepting `elo0` when `elo1` holds.
    pub beta: f64,
}

/// Why an `--sprt` argument was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtConfigError {
    /// Not two or four comma-separated numbers.
    Shape(String),
    /// A field that is not a finite number.
    Number(String),
    /// `elo1` not above `elo0`, or either outside -1000..=1000.
    Elo,
    /// An error rate outside the open interval (0, 0.5).
    ErrorRate,
}

impl fmt::Display for SprtConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtConfigError::Shape(s) => write!(
                f,
                "expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, got '{}'",
                crate::text::clip(s)
            ),
            SprtConfigError::Number(s) => {
                write!(f, "'{}' is not a finite number", crate::text::clip(s))
            }
            SprtConfigError::Elo => {
                write!(f, "ELO1 must be above ELO0, both within -1000..1000")
            }
            SprtConfigError::ErrorRate => {
                write!(f, "ALPHA and BETA must be above 0 and below 0.5")
            }
        }
    }
}

impl std::error::Error for SprtConfigError {}

impl SprtConfig {
    /// Parses `ELO0,ELO1` (alpha and beta 0.05) or `ELO0,ELO1,ALPHA,BETA`.
    ///
    /// # Errors
    ///
    /// A [`SprtConfigError`] naming what is wrong.
    pub fn parse(text: &str) -> Result<SprtConfig, SprtConfigError> {
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        if fields.len() != 2 && fields.len() != 4 {
            return Err(SprtConfigError::Shape(text.to_string()));
        }
        let mut numbers = Vec::with_capacity(4);
        for field in &fields {
            match field.parse::<f64>() {
                Ok(x) if x.is_finite() => numbers.push(x),
                _ => return Err(SprtConfigError::Number(field.to_string())),
            }
        }
        let (alpha, beta) = if numbers.len() == 4 {
            (numbers[2], numbers[3])
        } else {
            (0.05, 0.05)
        };
        let config = SprtConfig {
            elo0: numbers[0],
            elo1: numbers[1],
            alpha,
            beta,
        };
        if !(config.elo0 < config.elo1 && config.elo0 >= -1000.0 && config.elo1 <= 1000.0) {
            return Err(SprtConfigError::Elo);
        }
        let rate_ok = |r: f64| r > 0.0 && r < 0.5;
        if !(rate_ok(alpha) && rate_ok(beta)) {
            return Err(SprtConfigError::ErrorRate);
        }
        Ok(config)
    }

    /// The lower bound of the LLR: at or below it, `elo0` is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound of the LLR: at or above it, `elo1` is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

impl fmt::Display for SprtConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The expected score of a side `elo` points stronger, on the logistic
/// Elo scale.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Counts of game pairs by the tested side's points in the pair, in half
/// points: index `k` holds the pairs it scored `k / 2` points in (0..=2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by half points scored.
    pub counts: [u64; 5],
}

/// The state of the test after some pairs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Neither bound reached: play on.
    Continue,
    /// The LLR reached the lower bound: `elo0` is accepted.
    AcceptH0,
    /// The LLR reached the upper bound: `elo1` is accepted.
    AcceptH1,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::Continue => "continue",
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
        })
    }
}

/// The weight a pair outcome never seen gets when the distributions are
/// fitted.
const EMPTY_WEIGHT: f64 = 1e-3;

impl Pentanomial {
    /// Records a pair in which the tested side scored `half_points / 2`
    /// points (`half_points` in 0..=4; larger values are clamped).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The generalised log-likelihood ratio of `elo1` against `elo0`; 0
    /// before the first pair.
    pub fn llr(&self, config: &SprtConfig) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let weights: Vec<f64> = self
            .counts
            .iter()
            .map(|&c| if c == 0 { EMPTY_WEIGHT } else { c as f64 })
            .collect();
        let total: f64 = weights.iter().sum();
        let freq: Vec<f64> = weights.iter().map(|w| w / total).collect();
        let p0 = fit_with_mean(&freq, expected_score(config.elo0));
        let p1 = fit_with_mean(&freq, expected_score(config.elo1));
        let per_pair: f64 = freq
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(f, (a, b))| f * (b / a).ln())
            .sum();
        n as f64 * per_pair
    }

    /// Where the test stands: compares [`Pentanomial::llr`] with the
    /// bounds.
    pub fn verdict(&self, config: &SprtConfig) -> SprtVerdict {
        let llr = self.llr(config);
        if llr >= config.upper_bound() {
            SprtVerdict::AcceptH1
        } else if llr <= config.lower_bound() {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// The pair-score value of outcome `k`, normalised to 0..=1.
fn outcome_score(k: usize) -> f64 {
    k as f64 / 4.0
}

/// The distribution closest in likelihood to `freq` (all entries
/// positive, summing to 1) whose mean pair score is `mean` (strictly
/// inside 0..1): `p_k = f_k / (1 + lambda (x_k - mean))`, with `lambda`
/// found by bisection so that the mean holds.
fn fit_with_mean(freq: &[f64], mean: f64) -> Vec<f64> {
    let d: Vec<f64> = (0..freq.len()).map(|k| outcome_score(k) - mean).collect();
    // 1 + lambda d_k > 0 for every k bounds lambda on both sides.
    let d_max = d.iter().cloned().fold(f64::MIN, f64::max);
    let d_min = d.iter().cloned().fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / d_max, -1.0 / d_min);
    let shrink = 1e-12;
    lo += shrink * (hi - lo);
    hi -= shrink * (hi - lo);
    // g(lambda) = sum f_k d_k / (1 + lambda d_k) decreases in lambda.
    let g = |lambda: f64| -> f64 {
        freq.iter()
            .zip(&d)
            .map(|(f, dk)| f * dk / (1.0 + lambda * dk))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let p: Vec<f64> = freq
        .iter()
        .zip(&d)
        .map(|(f, dk)| f / (1.0 + lambda * dk))
        .collect();
    let sum: f64 = p.iter().sum();
    p.into_iter().map(|x| x / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SprtConfig {
        SprtConfig::parse("0,10").unwrap()
    }

    #[test]
    fn parse_and_bounds() {
        let c = SprtConfig::parse("-5, 15,0.1,0.2").unwrap();
        assert_eq!((c.elo0, c.elo1, c.alpha, c.beta), (-5.0, 15.0, 0.1, 0.2));
        assert!((c.lower_bound() - (0.2f64 / 0.9).ln()).abs() < 1e-12);
        assert!((c.upper_bound() - (0.8f64 / 0.1).ln()).abs() < 1e-12);
        let d = config();
        assert_eq!((d.alpha, d.beta), (0.05, 0.05));
        assert!((d.upper_bound() - 2.944).abs() < 1e-3);
        assert!((d.lower_bound() + 2.944).abs() < 1e-3);
        for bad in [
            "",
            "1",
            "1,2,3",
            "a,2",
            "5,5",
            "10,0",
            "0,10,0,0.05",
            "0,10,0.5,0.1",
            "nan,1",
            "0,inf",
        ] {
            assert!(SprtConfig::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn fitted_distribution_has_the_asked_mean() {
        let freq = [0.1, 0.2, 0.3, 0.25, 0.15];
        for mean in [0.3, 0.5, 0.514, 0.7] {
            let p = fit_with_mean(&freq, mean);
            let sum: f64 = p.iter().sum();
            let m: f64 = p
                .iter()
                .enumerate()
                .map(|(k, x)| x * outcome_score(k))
                .sum();
            assert!((sum - 1.0).abs() < 1e-9);
            assert!((m - mean).abs() < 1e-9, "{m} vs {mean}");
        }
        // Already at the mean: the fit is the frequencies themselves.
        let f = [0.2, 0.2, 0.2, 0.2, 0.2];
        let p = fit_with_mean(&f, 0.5);
        assert!(p.iter().all(|x| (x - 0.2).abs() < 1e-9));
    }

    #[test]
    fn llr_sign_follows_the_results() {
        let c = config();
        let even = Pentanomial {
            counts: [10, 0, 30, 0, 10],
        };
        assert!(even.llr(&c) < 0.0);
        let strong = Pentanomial {
            counts: [5, 0, 30, 0, 15],
        };
        assert!(strong.llr(&c) > 0.0);
        assert_eq!(Pentanomial::default().llr(&c), 0.0);
    }

    #[test]
    fn one_sided_start_is_small_and_finite() {
        // One pair won twice says little: about ln(s1 / s0) per pair.
        let c = config();
        let mut p = Pentanomial::default();
        p.add(4);
        let llr = p.llr(&c);
        let expected = (expected_score(10.0) / 0.5).ln();
        assert!(
            llr.is_finite() && llr > 0.0 && llr < 3.0 * expected,
            "{llr}"
        );
        assert_eq!(p.verdict(&c), SprtVerdict::Continue);
    }

    #[test]
    fn stops_on_clear_evidence() {
        let c = config();
        let mut p = Pentanomial { counts: [0; 5] };
        // A side that scores 70% over 200 pairs: H1 (10 Elo) is accepted;
        // over 100 pairs it is not yet (the LLR grows by about
        // (s1 - s0)(2 mean - s0 - s1) / (2 var) a pair, 0.025 here).
        p.counts = [10, 0, 40, 0, 50];
        assert_eq!(p.verdict(&c), SprtVerdict::Continue);
        p.counts = [20, 0, 80, 0, 100];
        assert_eq!(p.verdict(&c), SprtVerdict::AcceptH1);
        // A side that scores 37.5% over 320 pairs: H0 is accepted (an even
        // score would take thousands of pairs with bounds this close).
        p.counts = [120, 0, 160, 0, 40];
        assert_eq!(p.verdict(&c), SprtVerdict::AcceptH0);
        // Even results over few pairs: continue.
        p.counts = [3, 0, 4, 0, 3];
        assert_eq!(p.verdict(&c), SprtVerdict::Continue);
    }

    #[test]
    fn simulated_tests_respect_their_error_rates() {
        // Pairs of independent games at a known score; the rates of
        // wrong verdicts stay near alpha and beta (generous margins: 200
        // runs each).
        use rand_xoshiro::rand_core::{Rng, SeedableRng};
        let c = SprtConfig::parse("0,30").unwrap();
        let run = |true_elo: f64, seed: u64| -> SprtVerdict {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let s = expected_score(true_elo);
            let mut p = Pentanomial::default();
            for _ in 0..20_000 {
                let mut half = 0;
                for _ in 0..2 {
                    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    if u < s {
                        half += 2;
                    }
                }
                p.add(half);
                let v = p.verdict(&c);
                if v != SprtVerdict::Continue {
                    return v;
                }
            }
            SprtVerdict::Continue
        };
        let false_h1 = (0..200)
            .filter(|&i| run(0.0, i) == SprtVerdict::AcceptH1)
            .count();
        let false_h0 = (0..200)
            .filter(|&i| run(30.0, 1000 + i) == SprtVerdict::AcceptH0)
            .count();
        assert!(false_h1 <= 25, "{false_h1} of 200 wrongly accepted H1");
        assert!(false_h0 <= 25, "{false_h0} of 200 wrongly accepted H0");
    }
}

//! Honest statistics for match and self-play results: win rates with a
//! 95% Wilson score interval, and tallies that add up.
//!
//! A draw (jigo) counts as half a win for each side. A game without a
//! result (void, interrupted) is counted separately and left out of every
//! rate.

use crate::color::Color;
use crate::score::GameResult;
use serde::{Deserialize, Serialize};

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `wins` successes out of `n` trials at
/// normal quantile `z`, as `(low, high)` fractions in `0..=1`. `wins` may
/// be fractional (draws count half). With `n == 0` the interval is the
/// whole range `(0, 1)`.
pub fn wilson(wins: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (wins / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// Wins, losses and draws from one side's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Tally {
    /// Games with a result: wins + losses + draws.
    pub fn decided(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points scored: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The win rate (draws half), or `None` without decided games.
    pub fn rate(&self) -> Option<f64> {
        let n = self.decided();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The 95% Wilson interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.points(), self.decided(), Z95)
    }

    /// Counts one result for `side`: a win if `side` won, a loss if the
    /// other colour won, a draw on jigo. Returns `false` (counting nothing)
    /// for a game without a result.
    pub fn add(&mut self, result: &GameResult, side: Color) -> bool {
        match result {
            GameResult::Draw => self.draws += 1,
            GameResult::Unknown => return false,
            r => match r.winner() {
                Some(c) if c == side => self.wins += 1,
                Some(_) => self.losses += 1,
                None => return false,
            },
        }
        true
    }

    /// `"12/20 = 60.0% (95% CI 38.7-78.1%)"`, or `"no decided games"`.
    pub fn describe(&self) -> String {
        match self.rate() {
            None => "no decided games".to_string(),
            Some(r) => {
                let (lo, hi) = self.interval();
                format!(
                    "{}/{} = {:.1}% (95% CI {:.1}-{:.1}%)",
                    fmt_points(self.points()),
                    self.decided(),
                    100.0 * r,
                    100.0 * lo,
                    100.0 * hi
                )
            }
        }
    }
}

/// `12` or `12.5`.
fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{}", p as u64)
    } else {
        format!("{p:.1}")
    }
}

/// A JSON number's text: finite floats with up to 6 decimals, `null`
/// otherwise.
pub fn json_f64(x: f64) -> String {
    if x.is_finite() {
        let s = format!("{x:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s.is_empty() || s == "-" {
            "0".to_string()
        } else {
            s.to_string()
        }
    } else {
        "null".to_string()
    }
}

/// A number in the JSON summaries: written as [`json_f64`] writes it (up
/// to 6 decimals, `3` rather than `3.0`, `null` when not finite), read as
/// any JSON number (`null` reads as NaN).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        if !self.0.is_finite() {
            return s.serialize_none();
        }
        serde_json::value::RawValue::from_string(json_f64(self.0))
            .map_err(S::Error::custom)?
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        Ok(Num(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN)))
    }
}

/// A tally in the JSON summaries: counts, the rate (`null` without
/// decided games) and its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TallyJson {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// The win rate, draws half.
    pub rate: Option<Num>,
    /// The 95% Wilson interval of the rate.
    pub ci95: [Num; 2],
}

/// A colour's wins in the self-play summary: wins, rate and interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WinsJson {
    /// Games won.
    pub wins: u64,
    /// The win rate, draws half.
    pub rate: Option<Num>,
    /// The 95% Wilson interval of the rate.
    pub ci95: [Num; 2],
}

impl Tally {
    /// The tally as the JSON summaries write it.
    pub fn to_json(&self) -> TallyJson {
        let (lo, hi) = self.interval();
        TallyJson {
            wins: self.wins,
            losses: self.losses,
            draws: self.draws,
            rate: self.rate().map(Num),
            ci95: [Num(lo), Num(hi)],
        }
    }

    /// The wins, rate and interval as the self-play summary writes them.
    pub fn to_wins_json(&self) -> WinsJson {
        let (lo, hi) = self.interval();
        WinsJson {
            wins: self.wins,
            rate: self.rate().map(Num),
            ci95: [Num(lo), Num(hi)],
        }
    }
}

/// Counts by name for people: `passes 3, resign 1`.
pub fn text_counts(counts: &std::collections::BTreeMap<String, u64>) -> String {
    let fields: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    fields.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 0 of 20: upper bound z^2/(n+z^2) = 3.8415/23.8415.
        let (lo, hi) = wilson(0.0, 20, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.161_125).abs() < 1e-5, "{hi}");
        // 10 of 20: symmetric around one half.
        let (lo, hi) = wilson(10.0, 20, Z95);
        assert!((lo + hi - 1.0).abs() < 1e-12);
        assert!((lo - 0.299_298).abs() < 1e-5, "{lo}");
        // No games: no information.
        assert_eq!(wilson(0.0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn tally_counts_draws_half_and_skips_void_games() {
        let mut t = Tally::default();
        assert!(t.add(&GameResult::Score(Color::Black, 3.5), Color::Black));
        assert!(t.add(&GameResult::Resign(Color::White), Color::Black));
        assert!(t.add(&GameResult::Draw, Color::Black));
        assert!(!t.add(&GameResult::Unknown, Color::Black));
        assert_eq!(
            t,
            Tally {
                wins: 1,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(t.rate(), Some(0.5));
        assert!(t.describe().starts_with("1.5/3 = 50.0% (95% CI "));
    }

    #[test]
    fn json_text() {
        assert_eq!(json_f64(0.5), "0.5");
        assert_eq!(json_f64(3.0), "3");
        assert_eq!(json_f64(f64::NAN), "null");
        let v = [
            Num(0.5),
            Num(3.0),
            Num(f64::INFINITY),
            Num(1e-7),
            Num(-2.25),
        ];
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(text, "[0.5,3,null,0,-2.25]");
        let back: Vec<Num> = serde_json::from_str(&text).unwrap();
        assert_eq!(back[..2], [Num(0.5), Num(3.0)]);
        assert!(back[2].0.is_nan());
        let t = Tally {
            wins: 1,
            losses: 2,
            draws: 1,
        };
        let (lo, hi) = t.interval();
        assert_eq!(
            serde_json::to_string(&t.to_json()).unwrap(),
            format!(
                "{{\"wins\":1,\"losses\":2,\"draws\":1,\"rate\":0.375,\"ci95\":[{},{}]}}",
                json_f64(lo),
                json_f64(hi)
            )
        );
    }
}

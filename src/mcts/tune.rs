//! Tuning settings: `KEY=VALUE` strings that change one knob of a
//! [`SearchConfig`], as the hidden `--set` option of `gtp`, `match`,
//! `selfplay` and the other game commands passes them. They exist for A/B
//! matches between settings of one binary; the defaults are the tuned
//! values.

use super::{PriorSource, SearchConfig};

/// The keys [`SearchConfig::set`] knows, each with what it changes.
pub const SETTINGS: &[(&str, &str)] = &[
    (
        "rave_equiv",
        "real visits at which real and AMAF statistics weigh the same (> 0)",
    ),
    ("uct_c", "UCT exploration constant (>= 0)"),
    (
        "expand_visits",
        "visits a node below the root needs before it gets children (>= 1)",
    ),
    ("priors", "prior source: patterns or hand"),
    (
        "prior_visits",
        "virtual visits of the pattern priors (>= 0)",
    ),
    (
        "prior_exponent",
        "exponent on a move's rating relative to the best (>= 0)",
    ),
    (
        "prior_hand",
        "keep the hand priors beside the pattern priors (yes/no)",
    ),
    (
        "prior_even",
        "hand prior: virtual visits of every move, half wins (>= 0)",
    ),
    (
        "atari_prob",
        "playouts: probability of the capture and escape replies (0..1)",
    ),
    (
        "pattern_prob",
        "playouts: probability of the shape replies (0..1)",
    ),
    (
        "self_atari_reject",
        "playouts: probability of refusing a one-stone self-atari (0..1)",
    ),
    (
        "ladder_budget",
        "playouts: ladder steps read for escapes (0 off, at most 200)",
    ),
    (
        "ladder_in_shapes",
        "playouts: ladder check on the shape replies (yes/no)",
    ),
    (
        "self_atari_reading",
        "playouts: allow self-ataris that reading calls good (yes/no)",
    ),
    (
        "resign_threshold",
        "win rate below which the search resigns (0..0.5)",
    ),
];

fn number(key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(x),
        _ => Err(format!(
            "{key}: expected a number from {lo} to {hi}, not '{v}'"
        )),
    }
}

fn integer(key: &str, v: &str, lo: u32, hi: u32) -> Result<u32, String> {
    match v.parse::<u32>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(format!(
            "{key}: expected a whole number from {lo} to {hi}, not '{v}'"
        )),
    }
}

fn yes_no(key: &str, v: &str) -> Result<bool, String> {
    match v {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("{key}: expected yes or no, not '{v}'")),
    }
}

impl SearchConfig {
    /// Applies one tuning setting `KEY=VALUE` (the keys are [`SETTINGS`]).
    ///
    /// # Errors
    /// A message when the `=` is missing, the key is unknown or the value
    /// does not parse or is out of its range; the configuration is then
    /// unchanged.
    pub fn set(&mut self, setting: &str) -> Result<(), String> {
        let Some((key, v)) = setting.split_once('=') else {
            return Err(format!("expected KEY=VALUE, not '{setting}'"));
        };
        let (key, v) = (key.trim(), v.trim());
        let big = 1e9;
        match key {
            "rave_equiv" => self.rave_equiv = number(key, v, 1e-3, big)?,
            "uct_c" => self.uct_c = number(key, v, 0.0, 100.0)?,
            "expand_visits" => self.expand_visits = integer(key, v, 1, 1_000_000)?,
            "priors" => {
                self.prior_source = v
                    .parse::<PriorSource>()
                    .map_err(|e| format!("{key}: {e}"))?
            }
            "prior_visits" => self.pattern_prior.visits = number(key, v, 0.0, 1e6)? as f32,
            "prior_exponent" => self.pattern_prior.exponent = number(key, v, 0.0, 100.0)? as f32,
            "prior_hand" => self.pattern_prior.hand = yes_no(key, v)?,
            "prior_even" => self.prior.prior_even = number(key, v, 0.0, 1e6)? as f32,
            "atari_prob" => self.playout.atari_prob = number(key, v, 0.0, 1.0)?,
            "pattern_prob" => self.playout.pattern_prob = number(key, v, 0.0, 1.0)?,
            "self_atari_reject" => self.playout.self_atari_reject = number(key, v, 0.0, 1.0)?,
            "ladder_budget" => self.playout.ladder_budget = integer(key, v, 0, 200)?,
            "ladder_in_shapes" => self.playout.ladder_in_shapes = yes_no(key, v)?,
            "self_atari_reading" => self.playout.self_atari_reading = yes_no(key, v)?,
            "resign_threshold" => self.resign_threshold = number(key, v, 0.0, 0.5)?,
            _ => {
                let keys: Vec<&str> = SETTINGS.iter().map(|s| s.0).collect();
                return Err(format!(
                    "unknown setting '{key}' (known: {})",
                    keys.join(", ")
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_key_is_known_and_changes_the_config() {
        // A value for each key that differs from the default.
        let value = |k: &str| match k {
            "priors" => "hand",
            "prior_hand" => "no",
            "ladder_in_shapes" | "self_atari_reading" => "no",
            "ladder_budget" => "17",
            "expand_visits" => "5",
            "atari_prob" | "pattern_prob" | "self_atari_reject" => "0.31",
            "resign_threshold" => "0.27",
            _ => "7.5",
        };
        for (k, _) in SETTINGS {
            let mut c = SearchConfig::default();
            c.set(&format!("{k}={}", value(k)))
                .unwrap_or_else(|e| panic!("{k}: {e}"));
            assert_ne!(
                format!("{c:?}"),
                format!("{:?}", SearchConfig::default()),
                "{k}"
            );
        }
    }

    #[test]
    fn values_land_where_named() {
        let mut c = SearchConfig::default();
        c.set("rave_equiv=1200").expect("ok");
        c.set(" prior_visits = 40 ").expect("ok");
        assert_eq!(c.rave_equiv, 1200.0);
        assert_eq!(c.pattern_prior.visits, 40.0);
    }

    #[test]
    fn bad_settings_are_refused_and_change_nothing() {
        for bad in [
            "rave_equiv",
            "rave_equiv=",
            "rave_equiv=-1",
            "rave_equiv=nan",
            "uct_c=inf",
            "expand_visits=7.5",
            "ladder_budget=-1",
            "atari_prob=1.5",
            "priors=mogo",
            "nonsense=1",
            "=1",
        ] {
            let mut c = SearchConfig::default();
            assert!(c.set(bad).is_err(), "{bad}");
            assert_eq!(
                format!("{c:?}"),
                format!("{:?}", SearchConfig::default()),
                "{bad}"
            );
        }
    }
}

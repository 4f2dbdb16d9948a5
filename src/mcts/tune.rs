//! The knob table: every search setting the command line's
//! `--set KEY=VALUE` reaches, one row each with its key, one line of help,
//! its range and how it applies to a [`SearchConfig`]. The table alone
//! drives `--set`: its parser ([`Setting::parse`]), its error message
//! (naming the valid keys), its listing (`--set list`, [`listing`]) and its
//! tests. The knobs exist for A/B matches between settings of one binary;
//! the defaults are the tuned values.

use super::SearchConfig;

/// What values a knob takes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Range {
    /// A finite number from `lo` to `hi` (inclusive).
    Number(f64, f64),
    /// A whole number from `lo` to `hi` (inclusive).
    Whole(u32, u32),
    /// `yes` or `no`.
    YesNo,
}

/// A knob's value, checked against its [`Range`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value {
    /// A [`Range::Number`].
    Number(f64),
    /// A [`Range::Whole`].
    Whole(u32),
    /// A [`Range::YesNo`].
    Flag(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Number(x) => write!(f, "{x}"),
            Value::Whole(n) => write!(f, "{n}"),
            Value::Flag(b) => f.write_str(if *b { "yes" } else { "no" }),
        }
    }
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Range::Number(lo, hi) => write!(f, "{lo}..{hi}"),
            Range::Whole(lo, hi) => write!(f, "{lo}..{hi} (whole)"),
            Range::YesNo => f.write_str("yes|no"),
        }
    }
}

impl Range {
    /// Reads `text` as a value of this range.
    ///
    /// # Errors
    /// A message naming the range when `text` is not one of its values.
    pub fn parse(self, text: &str) -> Result<Value, String> {
        let refused = || format!("expected {}, not '{text}'", self.expected());
        match self {
            Range::Number(lo, hi) => match text.parse::<f64>() {
                Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(Value::Number(x)),
                _ => Err(refused()),
            },
            Range::Whole(lo, hi) => match text.parse::<u32>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(Value::Whole(n)),
                _ => Err(refused()),
            },
            Range::YesNo => match text {
                "yes" => Ok(Value::Flag(true)),
                "no" => Ok(Value::Flag(false)),
                _ => Err(refused()),
            },
        }
    }

    /// The range in words, for messages.
    fn expected(self) -> String {
        match self {
            Range::Number(lo, hi) => format!("a number from {lo} to {hi}"),
            Range::Whole(lo, hi) => format!("a whole number from {lo} to {hi}"),
            Range::YesNo => "yes or no".to_string(),
        }
    }
}

/// One row of the knob table.
pub struct Knob {
    /// The key of `--set KEY=VALUE`.
    pub key: &'static str,
    /// What the knob changes, in one line.
    pub help: &'static str,
    /// The values it takes.
    pub range: Range,
    /// Writes a value of [`Knob::range`] into the configuration.
    pub apply: fn(&mut SearchConfig, Value),
    /// Reads the knob's value from the configuration.
    pub get: fn(&SearchConfig) -> Value,
}

fn number(v: Value) -> f64 {
    match v {
        Value::Number(x) => x,
        Value::Whole(n) => f64::from(n),
        Value::Flag(b) => f64::from(u8::from(b)),
    }
}

fn whole(v: Value) -> u32 {
    match v {
        Value::Whole(n) => n,
        Value::Number(x) => x as u32,
        Value::Flag(b) => u32::from(b),
    }
}

fn flag(v: Value) -> bool {
    match v {
        Value::Flag(b) => b,
        Value::Number(x) => x != 0.0,
        Value::Whole(n) => n != 0,
    }
}

/// Every knob, in the order of [`SearchConfig`]'s groups.
pub const KNOBS: &[Knob] = &[
    // Tree and RAVE.
    Knob {
        key: "rave_equiv",
        help: "real visits at which real and AMAF statistics weigh the same, boards up to 9x9",
        range: Range::Number(1e-3, 1e9),
        apply: |c, v| c.rave_equiv = number(v),
        get: |c| Value::Number(c.rave_equiv),
    },
    Knob {
        key: "rave_equiv_large",
        help: "the same on boards larger than 9x9",
        range: Range::Number(1e-3, 1e9),
        apply: |c, v| c.rave_equiv_large = number(v),
        get: |c| Value::Number(c.rave_equiv_large),
    },
    Knob {
        key: "amaf_distance",
        help: "AMAF weight of the move right after a node, falling to 1 for the last (1: even), boards up to 9x9",
        range: Range::Whole(1, 64),
        apply: |c, v| c.amaf_distance = whole(v),
        get: |c| Value::Whole(c.amaf_distance),
    },
    Knob {
        key: "amaf_distance_large",
        help: "the same on boards larger than 9x9",
        range: Range::Whole(1, 64),
        apply: |c, v| c.amaf_distance_large = whole(v),
        get: |c| Value::Whole(c.amaf_distance_large),
    },
    Knob {
        key: "uct_c",
        help: "UCT exploration constant (0: priors and RAVE alone)",
        range: Range::Number(0.0, 100.0),
        apply: |c, v| c.uct_c = number(v),
        get: |c| Value::Number(c.uct_c),
    },
    Knob {
        key: "puct",
        help: "weight of the policy exploration term (0: none)",
        range: Range::Number(0.0, 100.0),
        apply: |c, v| c.puct = number(v),
        get: |c| Value::Number(c.puct),
    },
    Knob {
        key: "expand_visits",
        help: "visits a node below the root needs before it gets children",
        range: Range::Whole(1, 1_000_000),
        apply: |c, v| c.expand_visits = whole(v),
        get: |c| Value::Whole(c.expand_visits),
    },
    Knob {
        key: "playout_target",
        help: "fraction of --playouts after which a search stops when the best move is clear",
        range: Range::Number(0.05, 1.0),
        apply: |c, v| c.playout_target = number(v),
        get: |c| Value::Number(c.playout_target),
    },
    Knob {
        key: "clear_ratio",
        help: "the best move is clear (stop at the target) with this many times the visits of the second",
        range: Range::Number(1.0, 100.0),
        apply: |c, v| c.clear_ratio = number(v),
        get: |c| Value::Number(c.clear_ratio),
    },
    // Priors.
    Knob {
        key: "prior_visits",
        help: "pattern priors: virtual visits given to each move",
        range: Range::Number(0.0, 1e6),
        apply: |c, v| c.pattern_prior.visits = number(v) as f32,
        get: |c| Value::Number(f64::from(c.pattern_prior.visits)),
    },
    Knob {
        key: "prior_exponent",
        help: "pattern priors: exponent on a move's rating relative to the best",
        range: Range::Number(0.0, 100.0),
        apply: |c, v| c.pattern_prior.exponent = number(v) as f32,
        get: |c| Value::Number(f64::from(c.pattern_prior.exponent)),
    },
    Knob {
        key: "prune_ladders",
        help: "tree: leave out escapes from atari that a ladder captures",
        range: Range::YesNo,
        apply: |c, v| c.prune_ladders = flag(v),
        get: |c| Value::Flag(c.prune_ladders),
    },
    Knob {
        key: "prior_hand",
        help: "pattern priors: keep the hand priors beside them",
        range: Range::YesNo,
        apply: |c, v| c.pattern_prior.hand = flag(v),
        get: |c| Value::Flag(c.pattern_prior.hand),
    },
    Knob {
        key: "nn_mix",
        help: "with --nn: the network's share of the mixed prior (0: the patterns alone)",
        range: Range::Number(0.0, 1.0),
        apply: |c, v| c.nn.mix = number(v),
        get: |c| Value::Number(c.nn.mix),
    },
    Knob {
        key: "nn_visits",
        help: "with --nn: visits at which a node below the root gets the network's prior",
        range: Range::Whole(1, 1_000_000),
        apply: |c, v| c.nn.visits = whole(v),
        get: |c| Value::Whole(c.nn.visits),
    },
    Knob {
        key: "prior_even",
        help: "hand priors: virtual visits of every move, half of them wins",
        range: Range::Number(0.0, 1e6),
        apply: |c, v| c.prior.prior_even = number(v) as f32,
        get: |c| Value::Number(f64::from(c.prior.prior_even)),
    },
    // Playout.
    Knob {
        key: "atari_prob",
        help: "playouts: probability of the capture and escape replies",
        range: Range::Number(0.0, 1.0),
        apply: |c, v| c.playout.atari_prob = number(v),
        get: |c| Value::Number(c.playout.atari_prob),
    },
    Knob {
        key: "race_prob",
        help: "playouts: probability of the capture-race replies (an own chain left two liberties takes a liberty of a short opposing chain)",
        range: Range::Number(0.0, 1.0),
        apply: |c, v| c.playout.race_prob = number(v),
        get: |c| Value::Number(c.playout.race_prob),
    },
    Knob {
        key: "mercy",
        help: "playouts: on boards up to 9x9, stop a playout when one side has captured this many stones more (0: off)",
        range: Range::Whole(0, 1000),
        apply: |c, v| c.playout.mercy = whole(v),
        get: |c| Value::Whole(c.playout.mercy),
    },
    Knob {
        key: "mercy_large",
        help: "playouts: the same on boards larger than 9x9",
        range: Range::Whole(0, 1000),
        apply: |c, v| c.playout.mercy_large = whole(v),
        get: |c| Value::Whole(c.playout.mercy_large),
    },
    Knob {
        key: "pattern_prob",
        help: "playouts: probability of the shape replies",
        range: Range::Number(0.0, 1.0),
        apply: |c, v| c.playout.pattern_prob = number(v),
        get: |c| Value::Number(c.playout.pattern_prob),
    },
    Knob {
        key: "self_atari_reject",
        help: "playouts: probability of refusing a one-stone self-atari",
        range: Range::Number(0.0, 1.0),
        apply: |c, v| c.playout.self_atari_reject = number(v),
        get: |c| Value::Number(c.playout.self_atari_reject),
    },
    Knob {
        key: "ladder_budget",
        help: "playouts: ladder steps read for escapes (0: off)",
        range: Range::Whole(0, 200),
        apply: |c, v| c.playout.ladder_budget = whole(v),
        get: |c| Value::Whole(c.playout.ladder_budget),
    },
    Knob {
        key: "ladder_in_shapes",
        help: "playouts: ladder check on the shape replies",
        range: Range::YesNo,
        apply: |c, v| c.playout.ladder_in_shapes = flag(v),
        get: |c| Value::Flag(c.playout.ladder_in_shapes),
    },
    Knob {
        key: "self_atari_reading",
        help: "playouts: allow the self-ataris that reading calls good",
        range: Range::YesNo,
        apply: |c, v| c.playout.self_atari_reading = flag(v),
        get: |c| Value::Flag(c.playout.self_atari_reading),
    },
    Knob {
        key: "shortage_self_atari",
        help: "playouts, hand priors and tree: a self-atari that puts a larger chain in atari on its enclosed liberty is good",
        range: Range::YesNo,
        apply: |c, v| {
            let on = flag(v);
            c.playout.shortage_self_atari = on;
            c.prior.prior_shortage = on;
        },
        get: |c| Value::Flag(c.playout.shortage_self_atari && c.prior.prior_shortage),
    },
    // End of game.
    Knob {
        key: "resign_threshold",
        help: "win rate below which the search resigns (0: never)",
        range: Range::Number(0.0, 0.5),
        apply: |c, v| c.resign_threshold = number(v),
        get: |c| Value::Number(c.resign_threshold),
    },
];

/// The knob named `key`.
pub fn knob(key: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

/// The valid keys, comma-separated, for messages.
pub fn keys() -> String {
    let keys: Vec<&str> = KNOBS.iter().map(|k| k.key).collect();
    keys.join(", ")
}

/// The knob table as `--set list` prints it: one line per knob with its
/// key, range, default and help.
pub fn listing() -> String {
    let d = SearchConfig::default();
    let mut out = String::from("KEY                 RANGE                  DEFAULT  HELP\n");
    for k in KNOBS {
        out.push_str(&format!(
            "{:<19} {:<22} {:<8} {}\n",
            k.key,
            k.range.to_string(),
            (k.get)(&d).to_string(),
            k.help
        ));
    }
    out
}

/// One `--set KEY=VALUE`, checked against the knob table: applying it
/// cannot fail.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    key: &'static str,
    value: Value,
    text: String,
}

impl Setting {
    /// Reads `KEY=VALUE` (spaces around either are ignored).
    ///
    /// # Errors
    /// A message when the `=` is missing, the key is not in [`KNOBS`]
    /// (the message names the valid keys) or the value is out of the
    /// knob's range.
    pub fn parse(text: &str) -> Result<Setting, String> {
        let Some((key, v)) = text.split_once('=') else {
            return Err(format!(
                "expected KEY=VALUE, not '{text}' (keys: {}; `--set list` shows them)",
                keys()
            ));
        };
        let (key, v) = (key.trim(), v.trim());
        let Some(k) = knob(key) else {
            return Err(format!(
                "unknown setting '{key}' (known: {}; `--set list` shows them)",
                keys()
            ));
        };
        let value = k.range.parse(v).map_err(|e| format!("{key}: {e}"))?;
        Ok(Setting {
            key: k.key,
            value,
            text: text.to_string(),
        })
    }

    /// The knob's key.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The value.
    pub fn value(&self) -> Value {
        self.value
    }

    /// The text it was read from, as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Writes the value into `cfg`.
    pub fn apply(&self, cfg: &mut SearchConfig) {
        if let Some(k) = knob(self.key) {
            (k.apply)(cfg, self.value);
        }
    }
}

impl SearchConfig {
    /// Applies one setting `KEY=VALUE` of the knob table ([`KNOBS`]).
    ///
    /// # Errors
    /// [`Setting::parse`]'s message; the configuration is then unchanged.
    pub fn set(&mut self, setting: &str) -> Result<(), String> {
        Setting::parse(setting)?.apply(self);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value of `range` other than `v`.
    fn other(range: Range, v: Value) -> Value {
        match (range, v) {
            (Range::YesNo, Value::Flag(b)) => Value::Flag(!b),
            (Range::Whole(lo, hi), Value::Whole(n)) => Value::Whole(if n == hi { lo } else { hi }),
            (Range::Number(lo, hi), Value::Number(x)) => {
                let mid = (lo + hi) / 2.0;
                Value::Number(if x == hi {
                    lo
                } else if x == mid {
                    hi
                } else {
                    mid
                })
            }
            _ => panic!("{v:?} does not belong to {range:?}"),
        }
    }

    #[test]
    fn no_key_is_listed_twice() {
        for (i, k) in KNOBS.iter().enumerate() {
            assert!(
                KNOBS[i + 1..].iter().all(|o| o.key != k.key),
                "{} twice",
                k.key
            );
            assert!(!k.help.is_empty() && !k.help.contains('\n'), "{}", k.key);
        }
    }

    #[test]
    fn the_amaf_distance_follows_the_board_size() {
        let mut c = SearchConfig::default();
        c.set("amaf_distance=3").unwrap();
        c.set("amaf_distance_large=5").unwrap();
        for (size, want) in [(2, 3), (9, 3), (10, 5), (13, 5), (19, 5)] {
            assert_eq!(c.amaf_distance_for(size), want, "{size}");
        }
    }

    #[test]
    fn the_rave_equivalence_follows_the_board_size() {
        let mut c = SearchConfig::default();
        c.set("rave_equiv=123").unwrap();
        c.set("rave_equiv_large=456").unwrap();
        for (size, want) in [
            (2, 123.0),
            (9, 123.0),
            (10, 456.0),
            (13, 456.0),
            (19, 456.0),
        ] {
            assert_eq!(c.rave_equiv_for(size), want, "{size}");
        }
    }

    #[test]
    fn every_key_round_trips() {
        let d = SearchConfig::default();
        for k in KNOBS {
            // The default, written and read back, changes nothing.
            let text = format!("{}={}", k.key, (k.get)(&d));
            let mut c = SearchConfig::default();
            c.set(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format!("{c:?}"), format!("{d:?}"), "{text}");
            // Another value lands where the key says, and only there.
            let v = other(k.range, (k.get)(&d));
            let text = format!("{} = {v}", k.key);
            let s = Setting::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((s.key(), s.value(), s.text()), (k.key, v, text.as_str()));
            let mut c = SearchConfig::default();
            s.apply(&mut c);
            assert_eq!((k.get)(&c), v, "{text}");
            assert_ne!(format!("{c:?}"), format!("{d:?}"), "{text}");
            for o in KNOBS.iter().filter(|o| o.key != k.key) {
                assert_eq!((o.get)(&c), (o.get)(&d), "{text} moved {}", o.key);
            }
        }
    }

    #[test]
    fn out_of_range_values_are_errors_and_change_nothing() {
        for k in KNOBS {
            let bad: Vec<String> = match k.range {
                Range::Number(lo, hi) => vec![
                    format!("{}", lo - 1.0),
                    format!("{}", hi * 2.0 + 1.0),
                    "nan".into(),
                    "inf".into(),
                    "x".into(),
                    String::new(),
                ],
                Range::Whole(lo, hi) => vec![
                    format!("{}", i64::from(lo) - 1),
                    format!("{}", u64::from(hi) + 1),
                    "1.5".into(),
                    String::new(),
                ],
                Range::YesNo => vec!["maybe".into(), "1".into(), String::new()],
            };
            for b in bad {
                let text = format!("{}={b}", k.key);
                let mut c = SearchConfig::default();
                let e = c.set(&text).expect_err(&text);
                assert!(e.starts_with(k.key) && e.contains("expected"), "{e}");
                assert_eq!(
                    format!("{c:?}"),
                    format!("{:?}", SearchConfig::default()),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn unknown_keys_name_the_valid_ones() {
        for bad in [
            "nonsense=1",
            "=1",
            "rave_equiv",
            "lgrf=yes",
            "two_lib_prob=0.5",
        ] {
            let e = Setting::parse(bad).expect_err(bad);
            for k in KNOBS {
                assert!(e.contains(k.key), "{bad}: {e}");
            }
        }
    }

    #[test]
    fn the_listing_has_one_line_per_knob() {
        let l = listing();
        assert_eq!(l.lines().count(), KNOBS.len() + 1);
        for (line, k) in l.lines().skip(1).zip(KNOBS) {
            assert!(line.starts_with(k.key) && line.ends_with(k.help), "{line}");
            assert!(line.contains(&k.range.to_string()), "{line}");
        }
    }
}

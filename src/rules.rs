//! Rule sets: the ko rule, whether suicide is allowed, and named presets.
//!
//! Komi is not part of [`Rules`]: GTP and SGF set it on its own (`komi`,
//! `KM`), and a rules change (`kgs-rules`) must not reset it. The counting
//! method is: [`Scoring::Territory`] for the Japanese preset (territory
//! plus prisoners, nothing in seki), [`Scoring::Area`] for the others
//! (see [`crate::endgame`]).

use crate::text::clip;
use std::fmt;
use std::str::FromStr;

/// Which repetitions are forbidden.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single-stone ko.
    Simple,
    /// No move may recreate an earlier whole-board position.
    Positional,
    /// No move may recreate an earlier whole-board position with the same
    /// side to move.
    Situational,
}

impl KoRule {
    /// `simple`, `positional` or `situational`.
    pub fn name(self) -> &'static str {
        match self {
            KoRule::Simple => "simple",
            KoRule::Positional => "positional",
            KoRule::Situational => "situational",
        }
    }
}

impl FromStr for KoRule {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<KoRule, RulesError> {
        match s.to_ascii_lowercase().as_str() {
            "simple" => Ok(KoRule::Simple),
            "positional" | "psk" => Ok(KoRule::Positional),
            "situational" | "ssk" => Ok(KoRule::Situational),
            _ => Err(RulesError(format!("unknown ko rule '{}'", clip(s)))),
        }
    }
}

/// How a finished game is counted.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Scoring {
    /// Stones plus the empty points they surround (Chinese, AGA, New
    /// Zealand, Tromp-Taylor).
    Area,
    /// Surrounded empty points plus prisoners (captured stones and dead
    /// stones removed at the end); nothing counts in seki, and a pass gives
    /// the opponent no prisoner (Japanese).
    Territory,
}

impl Scoring {
    /// `area` or `territory`.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Area => "area",
            Scoring::Territory => "territory",
        }
    }
}

/// A rule set.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Rules {
    /// The ko rule.
    pub ko: KoRule,
    /// Whether a move that leaves its own chain of two or more stones
    /// without liberties is allowed (the chain is then removed). A
    /// single-stone suicide is never legal.
    pub suicide: bool,
    /// How the game is counted.
    pub scoring: Scoring,
}

impl Default for Rules {
    /// Chinese rules: positional superko, no suicide.
    fn default() -> Rules {
        Rules::CHINESE
    }
}

/// Rules or a part of them could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Positional superko, no suicide.
    pub const CHINESE: Rules = Rules {
        ko: KoRule::Positional,
        suicide: false,
        scoring: Scoring::Area,
    };
    /// Simple ko, no suicide, territory scoring.
    pub const JAPANESE: Rules = Rules {
        ko: KoRule::Simple,
        suicide: false,
        scoring: Scoring::Territory,
    };
    /// Situational superko, no suicide.
    pub const AGA: Rules = Rules {
        ko: KoRule::Situational,
        suicide: false,
        scoring: Scoring::Area,
    };
    /// Situational superko, suicide allowed.
    pub const NEW_ZEALAND: Rules = Rules {
        ko: KoRule::Situational,
        suicide: true,
        scoring: Scoring::Area,
    };
    /// Positional superko, suicide allowed.
    pub const TROMP_TAYLOR: Rules = Rules {
        ko: KoRule::Positional,
        suicide: true,
        scoring: Scoring::Area,
    };

    /// The presets by name.
    pub const PRESETS: [(&'static str, Rules); 5] = [
        ("chinese", Rules::CHINESE),
        ("japanese", Rules::JAPANESE),
        ("aga", Rules::AGA),
        ("new_zealand", Rules::NEW_ZEALAND),
        ("tromp-taylor", Rules::TROMP_TAYLOR),
    ];

    /// The name of the preset these rules equal, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        Rules::PRESETS
            .iter()
            .find(|(_, r)| r == self)
            .map(|(n, _)| *n)
    }

    /// The `kgs-rules` name of these rules: the preset's name, for every
    /// preset but Tromp-Taylor (KGS has no such rules).
    pub fn kgs_name(&self) -> Option<&'static str> {
        self.preset_name().filter(|&n| n != "tromp-taylor")
    }

    /// The rules of a `kgs-rules` name (exact and lower case, as kgsGtp
    /// sends it).
    pub fn from_kgs_name(name: &str) -> Option<Rules> {
        Rules::PRESETS
            .iter()
            .find(|&&(n, _)| n == name && n != "tromp-taylor")
            .map(|&(_, r)| r)
    }

    /// A preset by name: `chinese`, `japanese`, `aga`, `new_zealand`
    /// (also `nz`, `new-zealand`), `tromp-taylor` (also `tromp_taylor`,
    /// `tt`). Case-insensitive.
    ///
    /// # Errors
    /// [`RulesError`] for any other name.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        let n = name.to_ascii_lowercase().replace('-', "_");
        match n.as_str() {
            "chinese" => Ok(Rules::CHINESE),
            "japanese" => Ok(Rules::JAPANESE),
            "aga" => Ok(Rules::AGA),
            "new_zealand" | "nz" => Ok(Rules::NEW_ZEALAND),
            "tromp_taylor" | "tt" => Ok(Rules::TROMP_TAYLOR),
            _ => Err(RulesError(format!(
                "unknown rules '{}' (chinese, japanese, aga, new_zealand, tromp-taylor)",
                clip(name)
            ))),
        }
    }
}

impl fmt::Display for Rules {
    /// The preset name, or `ko=<rule> suicide=<bool>` for other rules
    /// (with ` scoring=territory` when they count territory).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(n) => f.write_str(n),
            None => {
                write!(f, "ko={} suicide={}", self.ko.name(), self.suicide)?;
                if self.scoring == Scoring::Territory {
                    f.write_str(" scoring=territory")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        Rules::preset(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kgs_names_round_trip_and_tromp_taylor_has_none() {
        for name in ["japanese", "chinese", "aga", "new_zealand"] {
            let rules = Rules::preset(name).unwrap();
            assert_eq!(rules.kgs_name(), Some(name));
            assert_eq!(Rules::from_kgs_name(name), Some(rules));
        }
        assert_eq!(Rules::TROMP_TAYLOR.kgs_name(), None);
        assert_eq!(Rules::from_kgs_name("Chinese"), None);
        assert_eq!(Rules::from_kgs_name("tromp-taylor"), None);
    }

    #[test]
    fn presets_round_trip_by_name() {
        for (name, rules) in Rules::PRESETS {
            assert_eq!(Rules::preset(name), Ok(rules));
            assert_eq!(rules.to_string(), name);
        }
        assert_eq!(Rules::preset("NZ"), Ok(Rules::NEW_ZEALAND));
        assert!(Rules::preset("ing").is_err());
        let odd = Rules {
            ko: KoRule::Simple,
            suicide: true,
            scoring: Scoring::Area,
        };
        assert_eq!(odd.to_string(), "ko=simple suicide=true");
    }
}

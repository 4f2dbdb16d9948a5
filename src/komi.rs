//! `Komi`: the points White gets for moving second, checked in one place.
//!
//! A komi is a finite number of points with magnitude at most
//! [`Komi::MAX`] (1000). GTP allows any float, but no board up to 25x25
//! has more than 625 points, so a komi beyond 1000 only ever means a typo;
//! 1000 is the bound the GTP `komi` command and `match`/`selfplay` have
//! always used. Text is read as Rust reads an `f32` (`7.5`, `-3`, `+0.5`,
//! `1e1`, `.5`); NaN and the infinities are refused whatever their
//! spelling.

use crate::text::clip;
use std::fmt;
use std::str::FromStr;

/// A finite komi of magnitude at most [`Komi::MAX`].
#[derive(Copy, Clone, Debug, PartialEq, PartialOrd)]
pub struct Komi(f32);

/// Why a komi was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum KomiError {
    /// The text is not a number (GTP: a `syntax error`); the text, clipped.
    Syntax(String),
    /// NaN or an infinity.
    NotFinite,
    /// A finite number beyond [`Komi::MAX`].
    OutOfRange(f32),
}

impl fmt::Display for KomiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KomiError::Syntax(t) => write!(f, "invalid komi '{t}'"),
            KomiError::NotFinite => write!(f, "komi is not a finite number"),
            KomiError::OutOfRange(k) => {
                write!(f, "komi {k} is beyond {} points either way", Komi::MAX)
            }
        }
    }
}

impl std::error::Error for KomiError {}

impl Komi {
    /// The largest magnitude accepted.
    pub const MAX: f32 = 1000.0;

    /// No komi (an SGF record without `KM`).
    pub const ZERO: Komi = Komi(0.0);

    /// The komi `k`.
    ///
    /// # Errors
    /// [`KomiError::NotFinite`] for NaN and infinities,
    /// [`KomiError::OutOfRange`] beyond [`Komi::MAX`].
    pub fn new(k: f32) -> Result<Komi, KomiError> {
        if !k.is_finite() {
            Err(KomiError::NotFinite)
        } else if k.abs() > Komi::MAX {
            Err(KomiError::OutOfRange(k))
        } else {
            Ok(Komi(k))
        }
    }

    /// Parses komi text (surrounding whitespace is not trimmed).
    ///
    /// # Errors
    /// [`KomiError::Syntax`] when the text is not a number, and those of
    /// [`Komi::new`].
    pub fn parse(s: &str) -> Result<Komi, KomiError> {
        let k: f32 = s.parse().map_err(|_| KomiError::Syntax(clip(s)))?;
        Komi::new(k)
    }

    /// The komi in points.
    pub fn get(self) -> f32 {
        self.0
    }
}

impl Default for Komi {
    /// 7.5, the Chinese-rules komi and every command's default.
    fn default() -> Komi {
        Komi(7.5)
    }
}

impl FromStr for Komi {
    type Err = KomiError;

    fn from_str(s: &str) -> Result<Komi, KomiError> {
        Komi::parse(s)
    }
}

impl TryFrom<f32> for Komi {
    type Error = KomiError;

    fn try_from(k: f32) -> Result<Komi, KomiError> {
        Komi::new(k)
    }
}

impl From<Komi> for f32 {
    fn from(k: Komi) -> f32 {
        k.0
    }
}

impl fmt::Display for Komi {
    /// As the `f32` prints (`7.5`, `-3`, `0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_what_gtp_and_the_commands_accept() {
        for (s, k) in [
            ("7.5", 7.5),
            ("-3", -3.0),
            ("+0.5", 0.5),
            ("0", 0.0),
            (".5", 0.5),
            ("1e1", 10.0),
            ("1000", 1000.0),
            ("-1000", -1000.0),
        ] {
            assert_eq!(Komi::parse(s).map(Komi::get), Ok(k), "{s}");
        }
        assert_eq!(Komi::default().get(), 7.5);
        assert_eq!(Komi::parse("-6.5").unwrap().to_string(), "-6.5");
    }

    #[test]
    fn refuses_text_nan_infinities_and_huge_values() {
        assert_eq!(Komi::parse("x"), Err(KomiError::Syntax("x".into())));
        assert_eq!(Komi::parse(""), Err(KomiError::Syntax(String::new())));
        assert_eq!(Komi::parse(" 7.5"), Err(KomiError::Syntax(" 7.5".into())));
        for s in ["nan", "NaN", "inf", "-inf", "infinity", "1e39"] {
            assert_eq!(Komi::parse(s), Err(KomiError::NotFinite), "{s}");
        }
        assert_eq!(Komi::parse("1000.5"), Err(KomiError::OutOfRange(1000.5)));
        assert_eq!(Komi::new(f32::NAN), Err(KomiError::NotFinite));
        assert_eq!(Komi::try_from(-2000.0), Err(KomiError::OutOfRange(-2000.0)));
        let long = "9".repeat(100) + "x";
        assert_eq!(
            Komi::parse(&long).unwrap_err().to_string(),
            format!("invalid komi '{}'", "9".repeat(40))
        );
    }
}

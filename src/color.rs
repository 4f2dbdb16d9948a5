//! Stone colours and their text forms.

use crate::text::clip;
use std::fmt;
use std::str::FromStr;

/// The colour of a stone or of a player.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Black, who moves first in an even game.
    Black = 1,
    /// White.
    White = 2,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into two-element tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// `B` or `W`, as SGF writes it.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// `black` or `white`, as GTP and humans write it.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A colour that is not `b`, `w`, `black` or `white` (in any case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColorParseError(pub String);

impl fmt::Display for ColorParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid color '{}'", self.0)
    }
}

impl std::error::Error for ColorParseError {}

impl FromStr for Color {
    type Err = ColorParseError;

    /// Parses `b`, `w`, `black` or `white`, in any case.
    fn from_str(s: &str) -> Result<Color, ColorParseError> {
        if s.eq_ignore_ascii_case("b") || s.eq_ignore_ascii_case("black") {
            Ok(Color::Black)
        } else if s.eq_ignore_ascii_case("w") || s.eq_ignore_ascii_case("white") {
            Ok(Color::White)
        } else {
            Err(ColorParseError(clip(s)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_is_case_insensitive() {
        for s in ["b", "B", "black", "BLACK", "Black"] {
            assert_eq!(s.parse::<Color>(), Ok(Color::Black));
        }
        for s in ["w", "W", "white", "WHITE"] {
            assert_eq!(s.parse::<Color>(), Ok(Color::White));
        }
        assert!("bl".parse::<Color>().is_err());
        assert!("".parse::<Color>().is_err());
    }

    #[test]
    fn opponent_and_index() {
        assert_eq!(Color::Black.opponent(), Color::White);
        assert_eq!(Color::White.opponent().index(), 0);
    }
}

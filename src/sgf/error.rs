//! Errors: why a text is no SGF ([`SyntaxError`]) and why a tree is no
//! usable Go record ([`ContentError`]), each with its place, as values a
//! caller can match on. `Display` of a kind gives the lowercase message;
//! `Display` of an error gives `line:column: message`.

use super::tree::Pos;
use crate::color::Color;
use std::fmt;

/// A syntax error: where the reader stopped, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the reader stopped (1:1 for the charset).
    pub pos: Pos,
    /// What.
    pub kind: SyntaxErrorKind,
}

/// What a [`SyntaxError`] is about. `found` fields hold the character the
/// reader saw (`None`: the end of the file). Texts quoted from the file
/// are clipped to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// Strict: bytes invalid in the charset a byte order mark names.
    BytesInvalidAfterBom {
        /// The charset's name.
        charset: String,
    },
    /// Strict: bytes invalid in the declared or detected charset.
    BytesInvalid {
        /// The charset's name.
        charset: String,
    },
    /// Strict: a `CA` naming no known charset.
    UnknownCharset {
        /// The `CA` value.
        name: String,
    },
    /// Strict: something other than `(` before the first game tree.
    ExpectedTree {
        /// What stood there.
        found: Option<char>,
    },
    /// Strict: something other than `(` after a game tree.
    ExpectedTreeOrEnd {
        /// What stood there.
        found: Option<char>,
    },
    /// No `;` after `(`.
    ExpectedSemicolon {
        /// What stood there.
        found: Option<char>,
    },
    /// The file ends after the first `(`.
    EndBeforeSemicolon,
    /// Strict: two roots in one game tree.
    TwoRoots,
    /// Strict: a node after a closed variation (`FF[1]` style).
    NodeAfterVariation,
    /// Strict: the file ends inside a game tree.
    UnclosedParen {
        /// Where the innermost open `(` stands.
        open: Pos,
    },
    /// A character where a node, `(` or `)` must stand.
    ExpectedNodeOrParen {
        /// What stood there.
        found: Option<char>,
    },
    /// No game tree in the text.
    NoGameTree,
    /// A property identifier of more than 64 letters.
    IdentifierTooLong,
    /// A property identifier without upper-case letters.
    NoUpperCase {
        /// As written.
        raw: String,
    },
    /// Strict: an `FF[3]` long property name.
    LongName {
        /// As written.
        raw: String,
    },
    /// The file ends inside a value.
    UnclosedValue {
        /// Where the value's `[` stands.
        open: Pos,
    },
    /// A property without a value.
    ExpectedValue {
        /// The property.
        id: String,
        /// What stood after it.
        found: Option<char>,
    },
    /// Strict: a property repeated in one node.
    RepeatedProperty {
        /// The property.
        id: String,
    },
}

/// How a message names the character found: `'x'`, `'\n'` (controls and
/// whitespace escaped), or `end of file`.
pub(crate) fn describe(c: Option<char>) -> String {
    match c {
        None => "end of file".to_string(),
        Some(c) if c.is_control() || c.is_whitespace() => format!("{:?}", c),
        Some(c) => format!("'{c}'"),
    }
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SyntaxErrorKind::*;
        match self {
            BytesInvalidAfterBom { charset } => write!(f, "bytes invalid in {charset}"),
            BytesInvalid { charset } => write!(f, "bytes invalid in charset {charset}"),
            UnknownCharset { name } => write!(f, "unknown charset 'CA[{name}]'"),
            ExpectedTree { found } => write!(
                f,
                "expected '(' to open a game tree, found {}",
                describe(*found)
            ),
            ExpectedTreeOrEnd { found } => write!(
                f,
                "expected '(' or end of file after a game tree, found {}",
                describe(*found)
            ),
            ExpectedSemicolon { found } => {
                write!(f, "expected ';' after '(', found {}", describe(*found))
            }
            EndBeforeSemicolon => f.write_str("unexpected end of file: expected ';'"),
            TwoRoots => f.write_str("a game tree has two roots"),
            NodeAfterVariation => f.write_str("expected '(' or ')' after a variation, found ';'"),
            UnclosedParen { open } => write!(
                f,
                "unexpected end of file: expected ')' to close the '(' at {open}"
            ),
            ExpectedNodeOrParen { found } => {
                write!(f, "expected ';', '(' or ')', found {}", describe(*found))
            }
            NoGameTree => f.write_str("no game tree: expected '(;'"),
            IdentifierTooLong => f.write_str("property identifier longer than 64 letters"),
            NoUpperCase { raw } => write!(
                f,
                "expected a property identifier in upper case, found '{raw}'"
            ),
            LongName { raw } => write!(
                f,
                "property identifier '{raw}' is not upper case (ff[3] long name)"
            ),
            UnclosedValue { open } => write!(
                f,
                "unexpected end of file: expected ']' to close the value opened at {open}"
            ),
            ExpectedValue { id, found } => write!(
                f,
                "expected '[' after property {id}, found {}",
                describe(*found)
            ),
            RepeatedProperty { id } => write!(f, "property {id} appears twice in one node"),
        }
    }
}

impl SyntaxError {
    /// A syntax error at `pos`.
    pub fn new(pos: Pos, kind: SyntaxErrorKind) -> SyntaxError {
        SyntaxError { pos, kind }
    }

    /// A syntax error about the whole file (at 1:1, as for the charset).
    pub fn at_start(kind: SyntaxErrorKind) -> SyntaxError {
        SyntaxError::new(Pos { line: 1, column: 1 }, kind)
    }
}

impl fmt::Display for SyntaxError {
    /// `line:column: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.kind)
    }
}

impl std::error::Error for SyntaxError {}

/// A tree whose Go content cannot be used: where, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ContentError {
    /// The property at fault (1:1 when there is none).
    pub pos: Pos,
    /// What.
    pub kind: ContentErrorKind,
}

/// What a [`ContentError`] is about. Values quoted from the file are
/// clipped to 40 characters (a komi's text is quoted whole).
#[derive(Clone, Debug, PartialEq)]
pub enum ContentErrorKind {
    /// A `GM` other than 1.
    NotGo {
        /// The value.
        text: String,
    },
    /// An `SZ` that is no number.
    InvalidSize {
        /// The (first) value.
        text: String,
    },
    /// A rectangular `SZ`.
    Rectangular {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A square size outside 2..=25.
    UnsupportedSize(usize),
    /// Strict: a `KM` that is no number.
    InvalidKomi {
        /// The value.
        text: String,
    },
    /// Strict: a `KM` of 100 or more (the x100 encoding).
    KomiTimes100 {
        /// The value.
        text: String,
        /// The value divided by 100.
        komi: f32,
    },
    /// A point-list value that names no point of the board.
    InvalidPoint {
        /// The property.
        id: String,
        /// The value.
        text: String,
        /// The board size.
        size: usize,
    },
    /// `B` and `W` in one node.
    TwoMoves,
    /// Strict: setup and a move in one node.
    SetupWithMove {
        /// The setup property.
        id: String,
    },
    /// Strict: whitespace around a point-list value.
    WhitespaceInPointList {
        /// The property.
        id: String,
    },
    /// A setup point off the board.
    SetupOffBoard {
        /// The setup property.
        id: String,
    },
    /// Strict: a `PL` that is no colour.
    InvalidPl {
        /// The value.
        text: String,
    },
    /// Strict: a move with several values.
    SeveralMoveValues {
        /// `B` or `W`.
        id: String,
        /// How many values.
        count: usize,
    },
    /// Strict: whitespace around a move value.
    WhitespaceInMove {
        /// `B` or `W`.
        id: String,
        /// The value as written.
        text: String,
    },
    /// A move value that names no point of the board and is no pass.
    InvalidMove {
        /// `B` or `W`.
        id: String,
        /// The value.
        text: String,
        /// The board size.
        size: usize,
    },
    /// Strict: the same colour moves twice.
    OutOfTurn {
        /// The move number.
        number: usize,
        /// The colour that moved.
        color: Color,
    },
    /// Strict: setup stones without liberties.
    DeadSetup {
        /// The points, in SGF coordinates.
        points: Vec<String>,
    },
}

impl fmt::Display for ContentErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ContentErrorKind::*;
        match self {
            NotGo { text } => write!(f, "not a go game (GM[{text}])"),
            InvalidSize { text } => write!(f, "invalid board size 'SZ[{text}]'"),
            Rectangular { width, height } => write!(
                f,
                "rectangular board {width}x{height} is not supported (square boards 2..=25 only)"
            ),
            UnsupportedSize(n) => write!(f, "board size {n} is not supported (2..=25)"),
            InvalidKomi { text } => write!(f, "invalid komi 'KM[{text}]'"),
            KomiTimes100 { text, komi } => {
                write!(f, "komi {text} is out of range (x100 encoding of {komi}?)")
            }
            InvalidPoint { id, text, size } => {
                write!(f, "invalid point '{id}[{text}]' on a {size}x{size} board")
            }
            TwoMoves => f.write_str("two moves in one node"),
            SetupWithMove { id } => write!(f, "setup {id} and a move in one node"),
            WhitespaceInPointList { id } => write!(f, "whitespace in point list {id}"),
            SetupOffBoard { id } => write!(f, "setup point off the board in {id}"),
            InvalidPl { text } => write!(f, "invalid color 'PL[{text}]'"),
            SeveralMoveValues { id, count } => write!(f, "move {id} has {count} values"),
            WhitespaceInMove { id, text } => write!(f, "whitespace in move '{id}[{text}]'"),
            InvalidMove { id, text, size } => {
                write!(f, "invalid move '{id}[{text}]' on a {size}x{size} board")
            }
            OutOfTurn { number, color } => write!(f, "move {number}: {color} plays out of turn"),
            DeadSetup { points } => {
                write!(f, "setup stones without liberties: {}", points.join(" "))
            }
        }
    }
}

impl ContentError {
    /// A content error at `pos`.
    pub fn new(pos: Pos, kind: ContentErrorKind) -> ContentError {
        ContentError { pos, kind }
    }
}

impl fmt::Display for ContentError {
    /// `line:column: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.kind)
    }
}

impl std::error::Error for ContentError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::{read_str, replay, ReadOptions, ReplayOptions};

    const STRICT: ReadOptions = ReadOptions { strict: true };

    #[test]
    fn syntax_errors_are_values_with_places_and_todays_texts() {
        let e = read_str("(;B[aa]\n;W[bb", STRICT).unwrap_err();
        assert_eq!(
            e.kind,
            SyntaxErrorKind::UnclosedValue {
                open: Pos { line: 2, column: 3 }
            }
        );
        assert_eq!(e.pos, Pos { line: 2, column: 6 });
        assert_eq!(
            e.to_string(),
            "2:6: unexpected end of file: expected ']' to close the value opened at 2:3"
        );
        let e = read_str("(;B[aa] @)", STRICT).unwrap_err();
        assert_eq!(
            e.kind,
            SyntaxErrorKind::ExpectedNodeOrParen { found: Some('@') }
        );
        assert_eq!(e.kind.to_string(), "expected ';', '(' or ')', found '@'");
        let e = read_str("(;B\n)", ReadOptions::default()).unwrap_err();
        assert_eq!(
            e.kind.to_string(),
            "expected '[' after property B, found ')'"
        );
        let e = read_str("junk", STRICT).unwrap_err();
        assert_eq!(e.kind, SyntaxErrorKind::ExpectedTree { found: Some('j') });
        assert_eq!(
            SyntaxErrorKind::ExpectedSemicolon { found: Some('\t') }.to_string(),
            "expected ';' after '(', found '\\t'"
        );
        assert_eq!(
            SyntaxErrorKind::ExpectedSemicolon { found: None }.to_string(),
            "expected ';' after '(', found end of file"
        );
    }

    #[test]
    fn content_errors_are_values_with_places_and_todays_texts() {
        let strict = ReplayOptions {
            strict: true,
            ..ReplayOptions::default()
        };
        let tree = |s: &str| read_str(s, ReadOptions::default()).unwrap().trees[0].clone();
        let e = replay(&tree("(;SZ[9:13])"), &strict).unwrap_err();
        assert_eq!(
            e.kind,
            ContentErrorKind::Rectangular {
                width: 9,
                height: 13
            }
        );
        assert_eq!(e.pos, Pos { line: 1, column: 3 });
        let e = replay(&tree("(;KM[650])"), &strict).unwrap_err();
        assert_eq!(
            e.kind,
            ContentErrorKind::KomiTimes100 {
                text: "650".into(),
                komi: 6.5
            }
        );
        assert_eq!(
            e.to_string(),
            "1:3: komi 650 is out of range (x100 encoding of 6.5?)"
        );
        let e = replay(&tree("(;B[aa];B[bb])"), &strict).unwrap_err();
        assert_eq!(
            e.kind,
            ContentErrorKind::OutOfTurn {
                number: 2,
                color: Color::Black
            }
        );
        let e = replay(&tree("(;SZ[5];W[zz])"), &ReplayOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "1:9: invalid move 'W[zz]' on a 5x5 board");
    }

    #[test]
    fn a_km_beyond_a_komi_after_x100_is_invalid() {
        let tree = |s: &str| read_str(s, ReadOptions::default()).unwrap().trees[0].clone();
        // 99999 reads as 999.99, a komi; 1e9 would be 1e7, no komi.
        let r = replay(&tree("(;KM[99999])"), &ReplayOptions::default()).unwrap();
        assert_eq!(r.komi.map(crate::komi::Komi::get), Some(999.99));
        let r = replay(&tree("(;KM[1e9])"), &ReplayOptions::default()).unwrap();
        assert_eq!(r.komi, None);
        assert_eq!(r.game.komi().get(), 0.0);
        assert_eq!(r.warnings, ["1:3: invalid komi 'KM[1e9]' ignored"]);
        let strict = ReplayOptions {
            strict: true,
            ..ReplayOptions::default()
        };
        let e = replay(&tree("(;KM[1e9])"), &strict).unwrap_err();
        assert_eq!(
            e.kind.to_string(),
            "komi 1e9 is out of range (x100 encoding of 10000000?)"
        );
        let e = replay(&tree("(;KM[inf])"), &strict).unwrap_err();
        assert_eq!(e.kind, ContentErrorKind::InvalidKomi { text: "inf".into() });
    }
}

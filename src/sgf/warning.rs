//! Warnings: the leniencies a read or replay used and the rule violations
//! it played through, each with its place, as values a caller can match
//! on. `Display` gives the `line:column: text` form `kosumi replay
//! --warnings` and GTP `loadsgf` print.

use super::go::IllegalAt;
use super::tree::Pos;
use crate::color::Color;
use std::fmt;

/// One warning: where, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// Where (1:1 for the whole file, as for the charset).
    pub pos: Pos,
    /// What.
    pub kind: WarningKind,
}

/// What a [`Warning`] is about. Texts quoted from the file are clipped to
/// 40 characters.
#[derive(Clone, Debug, PartialEq)]
pub enum WarningKind {
    /// Bytes invalid in the charset, replaced by U+FFFD.
    BytesReplaced {
        /// The charset's name.
        charset: String,
    },
    /// UTF-16 recognised without a byte order mark.
    NoByteOrderMark {
        /// The charset's name.
        charset: String,
    },
    /// Game trees in several charsets, each decoded by its own `CA`.
    SeveralCharsets {
        /// The charsets' names, in order of first use.
        charsets: Vec<String>,
    },
    /// A `CA` naming no known charset.
    UnknownCharset {
        /// The `CA` value.
        name: String,
    },
    /// A UTF-16 `CA` on bytes that are not UTF-16.
    NotUtf16 {
        /// The declared charset's name.
        declared: String,
    },
    /// No usable `CA` and not UTF-8: the charset was guessed.
    GuessedCharset {
        /// The guess.
        charset: String,
    },
    /// Text before, between or after game trees.
    TextOutsideTree,
    /// `(` not followed by `;` before the first properties.
    MissingSemicolon,
    /// An empty game tree `()`.
    EmptyTree,
    /// A `(` never closed before the end of the file.
    UnclosedParen,
    /// Two roots in one game tree, read as two games.
    TwoRoots,
    /// Nodes after a closed variation (`FF[1]` style).
    NodeAfterVariation,
    /// A redundant `((`.
    RedundantParen,
    /// An empty variation `()`.
    EmptyVariation,
    /// The final `)` is missing.
    MissingCloseParen,
    /// An `FF[3]` long property name.
    LongName {
        /// As written.
        raw: String,
        /// As read.
        id: String,
    },
    /// An unescaped `]` kept inside a value.
    UnescapedBracket {
        /// The property.
        id: String,
    },
    /// A property repeated in one node, values merged.
    RepeatedProperty {
        /// The property.
        id: String,
    },
    /// More warnings than the 100 kept.
    MoreNotShown(usize),
    /// A `KM` that is no number, ignored.
    InvalidKomi {
        /// The value.
        text: String,
    },
    /// A `KM` of 100 or more read as komi x100.
    KomiTimes100 {
        /// The value.
        text: String,
        /// The komi read.
        komi: f32,
    },
    /// An `RU` naming no known rule set: Chinese rules used.
    UnknownRules {
        /// The value.
        text: String,
    },
    /// Setup and a move in one node.
    SetupWithMove {
        /// The setup property.
        id: String,
    },
    /// A `PL` that is no colour, ignored.
    InvalidPl {
        /// The value.
        text: String,
    },
    /// A move with several values: the first used.
    SeveralMoveValues {
        /// `B` or `W`.
        id: String,
    },
    /// Whitespace around a move value.
    WhitespaceInMove {
        /// `B` or `W`.
        id: String,
    },
    /// The same colour moves twice.
    OutOfTurn {
        /// The move number.
        number: usize,
        /// The colour that moved.
        color: Color,
    },
    /// A move the rules forbid, played anyway (tolerant replay).
    PlayedAnyway(IllegalAt),
    /// Setup stones without liberties, removed.
    DeadSetupRemoved {
        /// The points, in SGF coordinates.
        points: Vec<String>,
    },
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WarningKind::*;
        match self {
            BytesReplaced { charset } => write!(f, "bytes invalid in {charset} replaced by U+FFFD"),
            NoByteOrderMark { charset } => write!(f, "no byte order mark; read as {charset}"),
            SeveralCharsets { charsets } => write!(
                f,
                "game trees in several charsets, each decoded by its own CA: {}",
                charsets.join(", ")
            ),
            UnknownCharset { name } => write!(f, "unknown charset 'CA[{name}]' ignored"),
            NotUtf16 { declared } => write!(f, "declared {declared} but the bytes are not utf-16"),
            GuessedCharset { charset } => write!(
                f,
                "no usable charset declared and not utf-8; guessed {charset}"
            ),
            TextOutsideTree => f.write_str("text outside a game tree skipped"),
            MissingSemicolon => f.write_str("missing ';' before the first node"),
            EmptyTree => f.write_str("empty game tree '()' skipped"),
            UnclosedParen => f.write_str("unclosed '(' at end of file ignored"),
            TwoRoots => f.write_str("two roots in one game tree: read as two games"),
            NodeAfterVariation => {
                f.write_str("node after a closed variation continues the main line (ff[1] style)")
            }
            RedundantParen => f.write_str("redundant '(' read as one"),
            EmptyVariation => f.write_str("empty variation '()' skipped"),
            MissingCloseParen => f.write_str("missing ')' at end of file"),
            LongName { raw, id } => write!(f, "long property name '{raw}' read as '{id}'"),
            UnescapedBracket { id } => {
                write!(f, "unescaped ']' inside the value of {id} kept as text")
            }
            RepeatedProperty { id } => {
                write!(f, "property {id} repeated in one node: values merged")
            }
            MoreNotShown(n) => write!(f, "{n} more warnings not shown"),
            InvalidKomi { text } => write!(f, "invalid komi 'KM[{text}]' ignored"),
            KomiTimes100 { text, komi } => {
                write!(f, "komi {text} read as {komi} (x100 encoding)")
            }
            UnknownRules { text } => write!(f, "unknown rules 'RU[{text}]': chinese used"),
            SetupWithMove { id } => write!(f, "setup {id} and a move in one node"),
            InvalidPl { text } => write!(f, "invalid color 'PL[{text}]' ignored"),
            SeveralMoveValues { id } => write!(f, "move {id} has several values; first used"),
            WhitespaceInMove { id } => write!(f, "whitespace in move {id} ignored"),
            OutOfTurn { number, color } => write!(f, "move {number}: {color} plays out of turn"),
            PlayedAnyway(a) => write!(f, "{a}: played anyway"),
            DeadSetupRemoved { points } => write!(
                f,
                "setup stones without liberties removed: {}",
                points.join(" ")
            ),
        }
    }
}

impl Warning {
    /// A warning at `pos`.
    pub fn new(pos: Pos, kind: WarningKind) -> Warning {
        Warning { pos, kind }
    }

    /// A warning about the whole file (at 1:1).
    pub fn at_start(kind: WarningKind) -> Warning {
        Warning::new(Pos { line: 1, column: 1 }, kind)
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.kind)
    }
}

impl PartialEq<str> for Warning {
    /// Compares the `line:column: text` form.
    fn eq(&self, other: &str) -> bool {
        let text = self.to_string();
        text == other
    }
}

impl PartialEq<&str> for Warning {
    /// Compares the `line:column: text` form.
    fn eq(&self, other: &&str) -> bool {
        let text = self.to_string();
        text == **other
    }
}

impl PartialEq<String> for Warning {
    /// Compares the `line:column: text` form.
    fn eq(&self, other: &String) -> bool {
        let text = self.to_string();
        text == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::{read_str, replay, ReadOptions, ReplayOptions};

    #[test]
    fn warnings_are_values_with_places_and_todays_texts() {
        let c = read_str(
            "junk(;GaMe[1]SZ[9]KM[650];B[ dd];B[ee]",
            ReadOptions::default(),
        )
        .unwrap();
        let kinds: Vec<&WarningKind> = c.warnings.iter().map(|w| &w.kind).collect();
        assert_eq!(
            kinds,
            [
                &WarningKind::TextOutsideTree,
                &WarningKind::LongName {
                    raw: "GaMe".into(),
                    id: "GM".into()
                },
                &WarningKind::MissingCloseParen,
            ]
        );
        assert_eq!(c.warnings[0].pos, Pos { line: 1, column: 1 });
        assert_eq!(c.warnings[1], "1:7: long property name 'GaMe' read as 'GM'");
        let r = replay(&c.trees[0], &ReplayOptions::default()).unwrap();
        assert_eq!(
            r.warnings[0].kind,
            WarningKind::KomiTimes100 {
                text: "650".into(),
                komi: 6.5
            }
        );
        assert!(matches!(
            r.warnings[1].kind,
            WarningKind::WhitespaceInMove { ref id } if id == "B"
        ));
        assert!(matches!(
            r.warnings[2].kind,
            WarningKind::OutOfTurn {
                number: 2,
                color: Color::Black
            }
        ));
        assert_eq!(
            r.warnings[2].to_string(),
            "1:34: move 2: black plays out of turn"
        );
    }
}

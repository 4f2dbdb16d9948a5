//! Command lines: preprocessing exactly as GTP v2 section 3.1 says, then
//! splitting into id, command name and arguments.
//!
//! The preprocessing works on bytes, before any UTF-8 decoding:
//!
//! 1. every control character except HT and LF is removed (CR, NUL, DEL and
//!    the rest of 0x00-0x1F and 0x7F);
//! 2. everything from a `#` to the end of the line is dropped (a comment);
//! 3. each HT becomes a space;
//! 4. a line that is then empty or only spaces is ignored.
//!
//! What remains must be UTF-8 (else the line gets an error response). Its
//! first token is the id when it is all ASCII digits; the next token is the
//! command name; the rest are the arguments, split on spaces.

use std::fmt;

/// A command line, preprocessed and split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The id exactly as sent (ASCII digits), if any.
    pub id: Option<String>,
    /// The command name (case-sensitive).
    pub name: String,
    /// The arguments, split on spaces.
    pub args: Vec<String>,
    /// The text after the command name, spaces trimmed at both ends (for
    /// arguments that may hold spaces inside double quotes, such as file
    /// names).
    pub raw_args: String,
}

/// A line that is not a command although it is not empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The id, when one could be read.
    pub id: Option<String>,
    /// Why the line is no command.
    pub kind: LineErrorKind,
}

/// Why a line is no command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineErrorKind {
    /// The bytes left after preprocessing are not UTF-8.
    InvalidUtf8,
    /// An id with no command name after it.
    MissingCommand,
    /// The line is longer than the engine reads.
    TooLong,
}

impl fmt::Display for LineErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineErrorKind::InvalidUtf8 => f.write_str("invalid utf-8 in command line"),
            LineErrorKind::MissingCommand => f.write_str("missing command name"),
            LineErrorKind::TooLong => f.write_str("command line too long"),
        }
    }
}

/// What a raw line turns out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Nothing to answer: empty, blank, or only a comment.
    Empty,
    /// A command.
    Command(Request),
    /// Not a command; answer with an error.
    Error(LineError),
}

/// Steps 1-3 of the preprocessing, on bytes: control characters except HT
/// and LF removed, the comment dropped, HT turned into a space. The line
/// ends at the first LF if there is one.
pub fn preprocess(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'\n' | b'#' => break,
            b'\t' => out.push(b' '),
            0..=0x1f | 0x7f => {}
            _ => out.push(b),
        }
    }
    out
}

/// Whether the raw line holds a `#` comment (so that whatever follows it,
/// however long, does not matter).
pub fn has_comment(raw: &[u8]) -> bool {
    raw.iter().take_while(|&&b| b != b'\n').any(|&b| b == b'#')
}

/// Whether `raw` is GoGui's interrupt line: a comment reading `interrupt`.
pub fn is_interrupt(raw: &[u8]) -> bool {
    let text: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|&b| b != b'\r' && b != b'\n')
        .collect();
    let trimmed = trim_spaces(&text);
    match trimmed.strip_prefix(b"#") {
        Some(rest) => trim_spaces(rest) == b"interrupt",
        None => false,
    }
}

fn trim_spaces(b: &[u8]) -> &[u8] {
    let is_space = |c: &u8| *c == b' ' || *c == b'\t';
    let start = b.iter().position(|c| !is_space(c)).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !is_space(c))
        .map_or(start, |e| e + 1);
    &b[start..end]
}

/// The id at the start of a preprocessed line, if the first token is all
/// ASCII digits.
fn leading_id(text: &[u8]) -> Option<String> {
    let t = trim_spaces(text);
    let end = t.iter().position(|&b| b == b' ').unwrap_or(t.len());
    let first = &t[..end];
    if !first.is_empty() && first.iter().all(|b| b.is_ascii_digit()) {
        Some(String::from_utf8_lossy(first).into_owned())
    } else {
        None
    }
}

/// Reads one raw line (with or without its LF).
pub fn parse(raw: &[u8]) -> Line {
    let text = preprocess(raw);
    if trim_spaces(&text).is_empty() {
        return Line::Empty;
    }
    let s = match std::str::from_utf8(&text) {
        Ok(s) => s,
        Err(_) => {
            return Line::Error(LineError {
                id: leading_id(&text),
                kind: LineErrorKind::InvalidUtf8,
            })
        }
    };
    let mut rest = s.trim_matches(' ');
    let mut id = None;
    let first_end = rest.find(' ').unwrap_or(rest.len());
    let first = &rest[..first_end];
    if first.bytes().all(|b| b.is_ascii_digit()) {
        id = Some(first.to_string());
        rest = rest[first_end..].trim_start_matches(' ');
        if rest.is_empty() {
            return Line::Error(LineError {
                id,
                kind: LineErrorKind::MissingCommand,
            });
        }
    }
    let name_end = rest.find(' ').unwrap_or(rest.len());
    let name = rest[..name_end].to_string();
    let raw_args = rest[name_end..].trim_matches(' ').to_string();
    let args = raw_args
        .split(' ')
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect();
    Line::Command(Request {
        id,
        name,
        args,
        raw_args,
    })
}

/// The answer to a line too long to read whole, given its first bytes: an
/// error, with the id when the prefix shows one.
pub fn too_long(prefix: &[u8]) -> Line {
    Line::Error(LineError {
        id: leading_id(&preprocess(prefix)),
        kind: LineErrorKind::TooLong,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(raw: &[u8]) -> Request {
        match parse(raw) {
            Line::Command(r) => r,
            other => panic!("not a command: {other:?}"),
        }
    }

    #[test]
    fn control_characters_comments_and_tabs() {
        let r = cmd(b"\x0012\tpl\x7fay\r b\x01 d4 # comment");
        assert_eq!(r.id.as_deref(), Some("12"));
        assert_eq!(r.name, "play");
        assert_eq!(r.args, ["b", "d4"]);
        assert_eq!(parse(b"   # only a comment\n"), Line::Empty);
        assert_eq!(parse(b"\r\n"), Line::Empty);
        assert_eq!(parse(b"\t \x00"), Line::Empty);
    }

    #[test]
    fn ids_and_errors() {
        assert_eq!(cmd(b"007 name").id.as_deref(), Some("007"));
        assert_eq!(cmd(b"12a name").name, "12a");
        assert!(matches!(
            parse(b"12   "),
            Line::Error(LineError {
                kind: LineErrorKind::MissingCommand,
                ..
            })
        ));
        match parse(b"3 name \xff") {
            Line::Error(e) => {
                assert_eq!(e.id.as_deref(), Some("3"));
                assert_eq!(e.kind, LineErrorKind::InvalidUtf8);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn interrupt_lines() {
        assert!(is_interrupt(b"# interrupt\r\n"));
        assert!(is_interrupt(b"#interrupt"));
        assert!(!is_interrupt(b"# interrupted"));
    }
}

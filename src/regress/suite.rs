//! Reading `.tst` files: commands, test ids and `#?` expectations.
//!
//! The format, as GNU Go's `regress.pl` and GoGui's `gogui-regress` read
//! it:
//!
//! - Lines are trimmed. Blank lines and lines starting with `#` are
//!   comments (`#>` lines included), except `#?` lines.
//! - Any other line is a GTP command. A `#` and what follows it is a
//!   comment, dropped before sending, as GTP preprocessing does. A command
//!   whose first word is a number is a test with that id; the others set
//!   up state (`loadsgf`, `play`, `komi`, ...).
//! - `#? [EXPECTED]` after a test holds its expectation; blank and comment
//!   lines may come between. EXPECTED is a regular expression that must
//!   match the whole answer, case-insensitively; alternatives are written
//!   `A|B|C`. A `!` first inside the brackets negates it. After the
//!   closing bracket, `*` marks a known failure and `&` a test whose
//!   answer is only recorded, never judged.
//! - A test without an `#?` line (or with a bare `#?`) passes unless the
//!   engine answers with an error, as in `gogui-regress`.

use crate::text::clip;
use regex::Regex;
use std::fmt;
use std::path::{Path, PathBuf};

/// What a `.tst` file is expected to produce for one test.
#[derive(Debug, Clone)]
pub struct Expectation {
    /// The text between the brackets, `!` included: what reports show.
    pub text: String,
    /// The pattern, anchored to the whole answer, case-insensitive.
    pub regex: Regex,
    /// `!` in front: the test passes when the pattern does not match.
    pub negate: bool,
    /// Trailing `*`: a failure is known and expected.
    pub known_failure: bool,
    /// Trailing `&`: the answer is only recorded.
    pub record_only: bool,
}

/// One command line of a suite.
#[derive(Debug, Clone)]
pub struct Item {
    /// 1-based line number in the file.
    pub line: usize,
    /// The test id, for a numbered command.
    pub id: Option<u64>,
    /// The command name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
    /// The expectation of a test (`None` for setup commands and for tests
    /// without a `#?` line).
    pub expect: Option<Expectation>,
}

impl Item {
    /// Whether this command is a test (it has an id).
    pub fn is_test(&self) -> bool {
        self.id.is_some()
    }

    /// The command as sent, `name args...`.
    pub fn command(&self) -> String {
        let mut s = self.name.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// A parsed `.tst` file.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The file as given.
    pub path: PathBuf,
    /// The folder the engine runs in (the file's folder).
    pub dir: PathBuf,
    /// Every command, in order.
    pub items: Vec<Item>,
}

impl Suite {
    /// The number of tests.
    pub fn tests(&self) -> usize {
        self.items.iter().filter(|i| i.is_test()).count()
    }
}

/// A `.tst` file that cannot be read or has a malformed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line, or 0 when the file cannot be read.
    pub line: usize,
    /// What is wrong, lowercase.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)
        }
    }
}

impl std::error::Error for SuiteError {}

/// Reads and parses the `.tst` file at `path`.
///
/// # Errors
/// [`SuiteError`] when the file cannot be read or a line is malformed.
pub fn read_suite(path: &Path) -> Result<Suite, SuiteError> {
    let bytes = std::fs::read(path).map_err(|e| SuiteError {
        path: path.to_path_buf(),
        line: 0,
        message: e.to_string(),
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    parse_suite(&String::from_utf8_lossy(&bytes), path, &dir)
}

/// Parses the text of a `.tst` file; `path` names it in errors and `dir`
/// is the folder its engine runs in.
///
/// # Errors
/// [`SuiteError`] naming the line of a malformed `#?` line or command.
pub fn parse_suite(text: &str, path: &Path, dir: &Path) -> Result<Suite, SuiteError> {
    let err = |line: usize, message: String| SuiteError {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut items: Vec<Item> = Vec::new();
    // The index of the latest command, if it is a test still without an
    // expectation.
    let mut open_test: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("#?") {
            let Some(i) = open_test.take() else {
                return Err(err(
                    line_no,
                    "`#?` line without a numbered test command before it".into(),
                ));
            };
            items[i].expect = parse_expectation(rest.trim()).map_err(|m| err(line_no, m))?;
            continue;
        }
        let content = line.split('#').next().unwrap_or("");
        // GTP preprocessing: control characters but tabs dropped, tabs as
        // blanks.
        let content: String = content
            .chars()
            .filter(|&c| c == '\t' || !c.is_control())
            .collect();
        let mut words = content.split_whitespace();
        let Some(first) = words.next() else {
            continue;
        };
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            let id = first
                .parse::<u64>()
                .map_err(|_| err(line_no, format!("test id {} is too large", clip(first))))?;
            let Some(name) = words.next() else {
                return Err(err(line_no, format!("test {id} has no command")));
            };
            (Some(id), name)
        } else {
            (None, first)
        };
        if !name.is_ascii() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(err(
                line_no,
                format!("{:?} is not a GTP command name", clip(name)),
            ));
        }
        open_test = id.map(|_| items.len());
        items.push(Item {
            line: line_no,
            id,
            name: name.to_string(),
            args: words.map(|w| w.to_string()).collect(),
            expect: None,
        });
    }
    Ok(Suite {
        path: path.to_path_buf(),
        dir: dir.to_path_buf(),
        items,
    })
}

/// Parses what follows `#?`: `[PATTERN]`, `[!PATTERN]`, then any of `*`
/// and `&`; an empty text is no expectation.
fn parse_expectation(s: &str) -> Result<Option<Expectation>, String> {
    if s.is_empty() {
        return Ok(None);
    }
    let Some(body) = s.strip_prefix('[') else {
        return Err(format!("expected `[` after `#?`, found {:?}", clip(s)));
    };
    let Some(close) = body.rfind(']') else {
        return Err(format!("no closing `]` in {:?}", clip(s)));
    };
    let (inner, flags) = (&body[..close], body[close + 1..].trim());
    if let Some(bad) = flags.chars().find(|c| !matches!(c, '*' | '&' | ' ' | '\t')) {
        return Err(format!(
            "unexpected {bad:?} after `]` (only `*` and `&` may follow)"
        ));
    }
    let text = inner.trim().to_string();
    let (negate, pattern) = match text.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, text.as_str()),
    };
    let regex = Regex::new(&format!("(?ims)\\A(?:{pattern})\\z")).map_err(|e| {
        format!(
            "bad pattern [{}]: {}",
            clip(&text),
            first_line(&e.to_string())
        )
    })?;
    Ok(Some(Expectation {
        negate,
        known_failure: flags.contains('*'),
        record_only: flags.contains('&'),
        regex,
        text,
    }))
}

fn first_line(s: &str) -> String {
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_string()
}

impl Expectation {
    /// Whether `answer` (the text of a success answer) passes, before
    /// `*` is taken into account.
    pub fn accepts(&self, answer: &str) -> bool {
        self.regex.is_match(answer.trim()) != self.negate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Suite, SuiteError> {
        parse_suite(text, Path::new("t.tst"), Path::new("."))
    }

    #[test]
    fn commands_tests_and_expectations() {
        let s = parse(
            "# comment\n\
             #> shown by regress.pl\n\
             loadsgf games/x.sgf 23 # trailing comment\n\
             \n\
             1 reg_genmove black\n\
             # a comment between\n\
             #? [C3|D4]*\n\
             \t2\treg_genmove white\n\
             #? [!PASS]&\n\
             3 is_legal b a1\n\
             play b c3\n\
             4 name\n\
             #?\n",
        )
        .unwrap();
        let cmds: Vec<(usize, Option<u64>, String)> = s
            .items
            .iter()
            .map(|i| (i.line, i.id, i.command()))
            .collect();
        assert_eq!(
            cmds,
            [
                (3, None, "loadsgf games/x.sgf 23".to_string()),
                (5, Some(1), "reg_genmove black".to_string()),
                (8, Some(2), "reg_genmove white".to_string()),
                (10, Some(3), "is_legal b a1".to_string()),
                (11, None, "play b c3".to_string()),
                (12, Some(4), "name".to_string()),
            ]
        );
        assert_eq!(s.tests(), 4);
        let e1 = s.items[1].expect.as_ref().unwrap();
        assert!(e1.known_failure && !e1.record_only && !e1.negate);
        assert!(e1.accepts("C3") && e1.accepts("d4") && e1.accepts(" D4\n"));
        assert!(!e1.accepts("C33") && !e1.accepts("C3 D4") && !e1.accepts("E5"));
        let e2 = s.items[2].expect.as_ref().unwrap();
        assert!(e2.negate && e2.record_only && !e2.known_failure);
        assert!(e2.accepts("A1") && !e2.accepts("pass"));
        assert!(s.items[3].expect.is_none() && s.items[5].expect.is_none());
    }

    #[test]
    fn both_flags_and_multiline_answers() {
        let s = parse("1 showboard\n#? [.*X.*] *&\n").unwrap();
        let e = s.items[0].expect.as_ref().unwrap();
        assert!(e.known_failure && e.record_only);
        assert!(e.accepts("\n 1 . X .\n 2 . . .\n"));
    }

    #[test]
    fn malformed_lines_name_the_file_and_line() {
        let cases = [
            ("#? [A1]\n", 1, "without a numbered test"),
            ("1 name\nplay b a1\n#? [A1]\n", 3, "without a numbered test"),
            ("1 name\n#? A1\n", 2, "expected `[`"),
            ("1 name\n#? [A1\n", 2, "no closing"),
            ("1 name\n#? [A1] x\n", 2, "after `]`"),
            ("\n\n1 name\n#? [A1(]\n", 4, "bad pattern"),
            ("7\n", 1, "has no command"),
            ("99999999999999999999999 name\n", 1, "too large"),
        ];
        for (text, line, what) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().starts_with(&format!("t.tst:{line}: ")), "{e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let e = read_suite(Path::new("/nonexistent/kosumi/x.tst")).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(
            e.to_string().starts_with("/nonexistent/kosumi/x.tst: "),
            "{e}"
        );
    }
}

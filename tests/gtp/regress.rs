//! A gogui-regress-compatible runner for `.tst` files, and the superko
//! legality suites in `tests/gtp/regress/`.
//!
//! The rules are GoGui's (`gogui-regress`): the file is a GTP stream sent
//! to a fresh engine whose working directory is the file's directory; only
//! commands with a numeric id are tests; the next `#?` line holds the
//! expectation of the latest numbered command, `#? [REGEX]`, with `!` first
//! inside the brackets to negate and a trailing `*` for an expected
//! failure. The regex (flags MULTILINE and DOTALL, as Java's `Pattern`
//! gets them there) must match the **whole** response text after `=id `;
//! an error response (`?`) always fails.

use regex::Regex;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_kosumi");

/// One expectation of a `.tst` file.
#[derive(Debug, Clone, PartialEq)]
struct Expectation {
    id: String,
    command: String,
    pattern: String,
    negate: bool,
    expected_failure: bool,
}

/// The outcome of one test.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Pass,
    /// Failed and not marked `*`.
    UnexpectedFailure(String),
    /// Failed and marked `*`.
    ExpectedFailure,
    /// Passed although marked `*`.
    UnexpectedPass,
}

fn parse_expectations(text: &str) -> Result<Vec<Expectation>, String> {
    let mut out = Vec::new();
    let mut latest: Option<(String, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix("#?") {
            let (id, command) = latest
                .take()
                .ok_or_else(|| format!("line {}: #? without a numbered command", n + 1))?;
            let rest = rest.trim();
            let (body, expected_failure) = match rest.strip_suffix('*') {
                Some(b) => (b.trim_end(), true),
                None => (rest, false),
            };
            let inner = body
                .strip_prefix('[')
                .and_then(|b| b.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: expectation must be [REGEX]", n + 1))?;
            let (pattern, negate) = match inner.strip_prefix('!') {
                Some(p) => (p.to_string(), true),
                None => (inner.to_string(), false),
            };
            out.push(Expectation {
                id,
                command,
                pattern,
                negate,
                expected_failure,
            });
            continue;
        }
        let content = line.split('#').next().unwrap_or("").trim();
        let mut words = content.split_whitespace();
        if let Some(first) = words.next() {
            if first.bytes().all(|b| b.is_ascii_digit()) {
                latest = Some((first.to_string(), words.collect::<Vec<_>>().join(" ")));
            }
        }
    }
    Ok(out)
}

/// Responses by id: (success, text after `=id `).
fn responses_by_id(stdout: &str) -> HashMap<String, (bool, String)> {
    let mut map = HashMap::new();
    for chunk in stdout.split_terminator("\n\n") {
        let success = chunk.starts_with('=');
        let rest = &chunk[1..];
        let id_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let id = &rest[..id_end];
        let text = rest[id_end..].strip_prefix(' ').unwrap_or(&rest[id_end..]);
        if !id.is_empty() {
            map.insert(id.to_string(), (success, text.to_string()));
        }
    }
    map
}

fn judge(e: &Expectation, response: Option<&(bool, String)>) -> Outcome {
    let passed = match response {
        None => Err("no response".to_string()),
        Some((false, text)) => Err(format!("error response: ? {text}")),
        Some((true, text)) => {
            let re = Regex::new(&format!("(?ms)\\A(?:{})\\z", e.pattern))
                .map_err(|err| format!("bad regex: {err}"));
            match re {
                Err(msg) => Err(msg),
                Ok(re) if re.is_match(text) != e.negate => Ok(()),
                Ok(_) => Err(format!("got {text:?}")),
            }
        }
    };
    match (passed, e.expected_failure) {
        (Ok(()), false) => Outcome::Pass,
        (Ok(()), true) => Outcome::UnexpectedPass,
        (Err(_), true) => Outcome::ExpectedFailure,
        (Err(why), false) => Outcome::UnexpectedFailure(why),
    }
}

/// Runs one `.tst` file through a fresh `kosumi` started in the file's
/// directory; returns every test with its outcome.
fn run_tst(path: &Path) -> Vec<(Expectation, Outcome)> {
    let text = std::fs::read_to_string(path).unwrap();
    run_tst_text(&text, path.parent().unwrap())
}

fn run_tst_text(text: &str, dir: &Path) -> Vec<(Expectation, Outcome)> {
    let expectations = parse_expectations(text).unwrap();
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(child.wait().unwrap().success());
    writer.join().unwrap().unwrap();
    let responses = responses_by_id(&out);
    expectations
        .into_iter()
        .map(|e| {
            let o = judge(&e, responses.get(&e.id));
            (e, o)
        })
        .collect()
}

#[test]
fn runner_follows_the_gogui_regress_rules() {
    let suite = "\
boardsize 5
play b b5
play b a4
play b b3
play w c5
play w b4
play w d4
play w c3
play b c4
1 is_legal w b4
#? [0]
2 is_legal w b4
#? [1]
3 list_stones black
#? [A4 B5 B3]
4 list_stones black
#? [B5.*]
5 list_stones black
#? [B5]
6 list_stones black
#? [!A4]
7 play w z9
#? [.*]
8 is_legal w b4 # comment after the command
#? [1]*
9 is_legal w b4
#? [0]*
10 showboard
#? [\\n.* 5 \\. X O \\. \\. 5\\n.*]
11 kosumi-rules japanese
#? [japanese.*]
";
    let results = run_tst_text(suite, Path::new(env!("CARGO_MANIFEST_DIR")));
    let outcomes: Vec<(String, Outcome)> = results
        .into_iter()
        .map(|(e, o)| {
            let o = match o {
                Outcome::UnexpectedFailure(_) => Outcome::UnexpectedFailure(String::new()),
                o => o,
            };
            (e.id, o)
        })
        .collect();
    let fail = Outcome::UnexpectedFailure(String::new());
    assert_eq!(
        outcomes,
        [
            ("1".to_string(), Outcome::Pass),
            ("2".to_string(), fail.clone()),
            // Board order: B5 (top row), A4, B3.
            ("3".to_string(), fail.clone()),
            ("4".to_string(), Outcome::Pass),
            // A regex must match the whole response, not a part.
            ("5".to_string(), fail.clone()),
            ("6".to_string(), Outcome::Pass),
            // An error response fails whatever the regex.
            ("7".to_string(), fail.clone()),
            ("8".to_string(), Outcome::ExpectedFailure),
            ("9".to_string(), Outcome::UnexpectedPass),
            ("10".to_string(), Outcome::Pass),
            ("11".to_string(), Outcome::Pass),
        ]
    );
}

#[test]
fn superko_legality_suites() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp/regress");
    let mut total = 0;
    let mut failures = Vec::new();
    for rule in ["simple", "situational", "positional"] {
        let path = dir.join(format!("superko-{rule}.tst"));
        for (e, o) in run_tst(&path) {
            total += 1;
            match o {
                Outcome::Pass => {}
                other => failures.push(format!("{rule} {} {}: {other:?}", e.id, e.command)),
            }
        }
    }
    assert!(total >= 100, "only {total} tests found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

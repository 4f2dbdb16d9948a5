//! The summaries of a regression run: text for people, one JSON document
//! for machines.

use super::{Outcome, SuiteResult, TestResult};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The counts of a suite or of the whole run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Tests run.
    pub tests: usize,
    /// Answers that passed as expected.
    pub pass: usize,
    /// Answers that failed, not marked `*`.
    pub fail: usize,
    /// Answers that passed although marked `*`.
    pub unexpected_pass: usize,
    /// Answers that failed, marked `*`.
    pub known_failure: usize,
    /// Commands the engine does not know.
    pub unknown: usize,
    /// Answers only recorded (`&`).
    pub recorded: usize,
    /// Crashes and hangs.
    pub fault: usize,
}

impl Counts {
    /// The counts of `tests`.
    pub fn of(tests: &[TestResult]) -> Counts {
        let mut c = Counts::default();
        for t in tests {
            c.tests += 1;
            match t.outcome {
                Outcome::Pass => c.pass += 1,
                Outcome::Fail => c.fail += 1,
                Outcome::UnexpectedPass => c.unexpected_pass += 1,
                Outcome::KnownFailure => c.known_failure += 1,
                Outcome::Unknown => c.unknown += 1,
                Outcome::Recorded => c.recorded += 1,
                Outcome::Fault => c.fault += 1,
            }
        }
        c
    }

    /// Answers that passed (as expected or not).
    pub fn passed(&self) -> usize {
        self.pass + self.unexpected_pass
    }

    /// Tests whose answer was judged.
    pub fn judged(&self) -> usize {
        self.tests - self.unknown - self.recorded
    }

    fn add(&mut self, o: &Counts) {
        self.tests += o.tests;
        self.pass += o.pass;
        self.fail += o.fail;
        self.unexpected_pass += o.unexpected_pass;
        self.known_failure += o.known_failure;
        self.unknown += o.unknown;
        self.recorded += o.recorded;
        self.fault += o.fault;
    }

    /// `20 of 73 passed (3 unexpected passes), 2 failed, ...`.
    fn text(&self) -> String {
        let mut s = format!(
            "{} of {} passed ({} unexpected {}), {} failed, {} known {}",
            self.passed(),
            self.judged(),
            self.unexpected_pass,
            if self.unexpected_pass == 1 {
                "pass"
            } else {
                "passes"
            },
            self.fail + self.fault,
            self.known_failure,
            if self.known_failure == 1 {
                "failure"
            } else {
                "failures"
            },
        );
        if self.fault > 0 {
            s.push_str(&format!(
                ", {} crashed or hung (counted as failed)",
                self.fault
            ));
        }
        s.push_str(&format!(", {} unknown", self.unknown));
        if self.recorded > 0 {
            s.push_str(&format!(", {} recorded", self.recorded));
        }
        s
    }

    fn json(&self) -> JsonCounts {
        JsonCounts {
            tests: self.tests,
            judged: self.judged(),
            passed: self.passed(),
            pass: self.pass,
            fail: self.fail,
            unexpected_pass: self.unexpected_pass,
            known_failure: self.known_failure,
            unknown: self.unknown,
            recorded: self.recorded,
            fault: self.fault,
        }
    }
}

/// The counts over every suite.
pub fn total(results: &[SuiteResult]) -> Counts {
    let mut c = Counts::default();
    for r in results {
        c.add(&Counts::of(&r.tests));
    }
    c
}

/// Whether no test of the run failed unexpectedly (the exit status).
pub fn all_ok(results: &[SuiteResult]) -> bool {
    results.iter().all(SuiteResult::ok)
}

fn one_line(s: &str) -> String {
    let s = s.trim();
    let mut out: String = s.lines().map(str::trim).collect::<Vec<_>>().join(" / ");
    if out.chars().count() > 200 {
        out = out.chars().take(200).collect::<String>() + "...";
    }
    out
}

fn test_line(t: &TestResult) -> String {
    let label = match t.outcome {
        Outcome::Fail => "FAILED",
        Outcome::Fault => "FAILED (crash or hang)",
        Outcome::UnexpectedPass => "UNEXPECTED PASS",
        Outcome::Unknown => "unknown command",
        Outcome::Recorded => "recorded",
        Outcome::Pass => "passed",
        Outcome::KnownFailure => "known failure",
    };
    let expected = match &t.expected {
        Some(e) => format!("expected [{e}], "),
        None => String::new(),
    };
    format!(
        "  {} {label}: {} (line {}): {expected}got '{}'",
        t.id,
        t.command,
        t.line,
        one_line(&t.answer)
    )
}

/// The text report: per suite a summary line, then a line for each test
/// that failed, passed unexpectedly, is unknown to the engine or only
/// recorded, and the ids of the known failures; then a total line.
pub fn text(results: &[SuiteResult]) -> String {
    let mut out = String::new();
    for r in results {
        let c = Counts::of(&r.tests);
        let per_test = if c.tests > 0 {
            r.seconds / c.tests as f64
        } else {
            0.0
        };
        out.push_str(&format!(
            "{}: {}; {:.1} s, {:.2} s a test",
            r.path.display(),
            c.text(),
            r.seconds,
            per_test
        ));
        if r.restarts > 0 {
            out.push_str(&format!("; engine restarted {} times", r.restarts));
        }
        out.push('\n');
        for t in &r.tests {
            if !matches!(t.outcome, Outcome::Pass | Outcome::KnownFailure) {
                out.push_str(&test_line(t));
                out.push('\n');
            }
        }
        let known: Vec<String> = r
            .tests
            .iter()
            .filter(|t| t.outcome == Outcome::KnownFailure)
            .map(|t| t.id.to_string())
            .collect();
        if !known.is_empty() {
            out.push_str(&format!("  known failures: {}\n", known.join(" ")));
        }
    }
    let c = total(results);
    out.push_str(&format!(
        "Total: {} in {} {}",
        c.text(),
        results.len(),
        if results.len() == 1 {
            "suite"
        } else {
            "suites"
        }
    ));
    out
}

/// The counts as the JSON report writes them (with `judged` and
/// `passed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct JsonCounts {
    tests: usize,
    judged: usize,
    passed: usize,
    pass: usize,
    fail: usize,
    unexpected_pass: usize,
    known_failure: usize,
    unknown: usize,
    recorded: usize,
    fault: usize,
}

/// Seconds with three decimals, as a JSON number.
fn three_decimals<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::Error;
    let text = if x.is_finite() {
        format!("{x:.3}")
    } else {
        "null".to_string()
    };
    serde_json::value::RawValue::from_string(text)
        .map_err(S::Error::custom)?
        .serialize(s)
}

/// One test in the JSON report.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct JsonTest {
    id: u64,
    line: usize,
    command: String,
    expected: Option<String>,
    answer: String,
    outcome: String,
    #[serde(serialize_with = "three_decimals")]
    seconds: f64,
}

/// One suite in the JSON report.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct JsonSuite {
    file: String,
    counts: JsonCounts,
    #[serde(serialize_with = "three_decimals")]
    seconds: f64,
    restarts: usize,
    tests: Vec<JsonTest>,
}

/// The JSON report.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct JsonReport {
    suites: Vec<JsonSuite>,
    total: JsonCounts,
    ok: bool,
}

/// The JSON report: `{"suites":[{"file","counts","seconds","restarts",
/// "tests":[{"id","line","command","expected","answer","outcome",
/// "seconds"}]}],"total":{counts},"ok":bool}` on one line.
pub fn json(results: &[SuiteResult]) -> String {
    let report = JsonReport {
        suites: results
            .iter()
            .map(|r| JsonSuite {
                file: r.path.display().to_string(),
                counts: Counts::of(&r.tests).json(),
                seconds: r.seconds,
                restarts: r.restarts,
                tests: r
                    .tests
                    .iter()
                    .map(|t| JsonTest {
                        id: t.id,
                        line: t.line,
                        command: t.command.clone(),
                        expected: t.expected.clone(),
                        answer: t.answer.clone(),
                        outcome: t.outcome.name().to_string(),
                        seconds: t.seconds,
                    })
                    .collect(),
            })
            .collect(),
        total: total(results).json(),
        ok: all_ok(results),
    };
    serde_json::to_string(&report).expect("a report serializes")
}

/// Reads a JSON report ([`json`]) back into its suites' results.
///
/// # Errors
/// A message for text that is not such a report, an unknown outcome, or
/// counts that disagree with the tests listed.
pub fn read_json(text: &str) -> Result<Vec<SuiteResult>, String> {
    let report: JsonReport = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for s in report.suites {
        let mut tests = Vec::new();
        for t in s.tests {
            let outcome = Outcome::from_name(&t.outcome).ok_or_else(|| {
                format!(
                    "{}: test {}: unknown outcome '{}'",
                    s.file,
                    t.id,
                    crate::text::clip(&t.outcome)
                )
            })?;
            tests.push(TestResult {
                id: t.id,
                line: t.line,
                command: t.command,
                expected: t.expected,
                answer: t.answer,
                outcome,
                seconds: t.seconds,
            });
        }
        if Counts::of(&tests).json() != s.counts {
            return Err(format!(
                "{}: the counts disagree with the tests listed",
                s.file
            ));
        }
        out.push(SuiteResult {
            path: PathBuf::from(s.file),
            tests,
            restarts: s.restarts,
            seconds: s.seconds,
        });
    }
    Ok(out)
}

/// Reads the `--json` reports in `files` and merges them ([`merge`]).
///
/// # Errors
/// A file that cannot be read or is not a report, with its path; or the
/// merge's own refusal.
pub fn merge_files(files: &[PathBuf]) -> Result<Vec<SuiteResult>, String> {
    let mut all = Vec::new();
    for f in files {
        let read = crate::files::read_capped(f)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8 text".to_string()))
            .and_then(|t| read_json(&t));
        all.push(read.map_err(|e| format!("{}: {e}", f.display()))?);
    }
    merge(&all)
}

/// Merges the results of a run's shards (each from [`read_json`]) into
/// the run's: the same suites in the same order in every report; per
/// suite the tests of all shards by line, restarts and seconds added.
///
/// # Errors
/// A message when the reports list other suites, or two hold the same
/// test (shards that overlap, or one report given twice).
pub fn merge(reports: &[Vec<SuiteResult>]) -> Result<Vec<SuiteResult>, String> {
    let Some(first) = reports.first() else {
        return Err("no report to merge".into());
    };
    let mut out: Vec<SuiteResult> = first
        .iter()
        .map(|r| SuiteResult {
            path: r.path.clone(),
            tests: Vec::new(),
            restarts: 0,
            seconds: 0.0,
        })
        .collect();
    for (k, rep) in reports.iter().enumerate() {
        let paths: Vec<&PathBuf> = rep.iter().map(|r| &r.path).collect();
        let want: Vec<&PathBuf> = out.iter().map(|r| &r.path).collect();
        if paths != want {
            return Err(format!(
                "report {} lists other suites than report 1: not shards of one run",
                k + 1
            ));
        }
        for (o, r) in out.iter_mut().zip(rep) {
            o.tests.extend(r.tests.iter().cloned());
            o.restarts += r.restarts;
            o.seconds += r.seconds;
        }
    }
    for o in &mut out {
        o.tests.sort_by_key(|t| t.line);
        if let Some(w) = o.tests.windows(2).find(|w| w[0].line == w[1].line) {
            return Err(format!(
                "{}: the test at line {} is in two reports (shards overlap, or a report was \
                 given twice)",
                o.path.display(),
                w[0].line
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn t(id: u64, outcome: Outcome, answer: &str) -> TestResult {
        TestResult {
            id,
            line: id as usize * 2,
            command: "reg_genmove b".into(),
            expected: Some("C3|D4".into()),
            answer: answer.into(),
            outcome,
            seconds: 0.5,
        }
    }

    fn sample() -> Vec<SuiteResult> {
        vec![SuiteResult {
            path: PathBuf::from("a/x.tst"),
            tests: vec![
                t(1, Outcome::Pass, "C3"),
                t(2, Outcome::Fail, "E5"),
                t(3, Outcome::UnexpectedPass, "D4"),
                t(4, Outcome::KnownFailure, "A1"),
                t(5, Outcome::KnownFailure, "B1"),
                t(6, Outcome::Unknown, "? unknown command"),
                t(7, Outcome::Fault, "engine crashed: x"),
            ],
            restarts: 1,
            seconds: 3.5,
        }]
    }

    #[test]
    fn text_lists_what_needs_a_look() {
        let s = text(&sample());
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(
            lines[0],
            "a/x.tst: 2 of 6 passed (1 unexpected pass), 2 failed, 2 known failures, \
             1 crashed or hung (counted as failed), 1 unknown; 3.5 s, 0.50 s a test; \
             engine restarted 1 times"
        );
        assert_eq!(
            lines[1],
            "  2 FAILED: reg_genmove b (line 4): expected [C3|D4], got 'E5'"
        );
        assert!(lines[2].starts_with("  3 UNEXPECTED PASS:"), "{s}");
        assert!(lines[3].starts_with("  6 unknown command:"), "{s}");
        assert!(lines[4].starts_with("  7 FAILED (crash or hang):"), "{s}");
        assert_eq!(lines[5], "  known failures: 4 5");
        assert!(lines[6].starts_with("Total: 2 of 6 passed"), "{s}");
        assert_eq!(lines.len(), 7);
    }

    /// The report's bytes as the hand-written writer gave them before
    /// serde (escapes, three decimals, field order).
    #[test]
    fn json_bytes_are_pinned() {
        let mut r = sample();
        r[0].tests.truncate(2);
        r[0].tests[1].answer = "say \"hi\"\\\n\tx\u{1}".into();
        r[0].tests[1].expected = None;
        r[0].tests[1].seconds = 1.0 / 3.0;
        assert_eq!(
            json(&r),
            "{\"suites\":[{\"file\":\"a/x.tst\",\"counts\":{\"tests\":2,\"judged\":2,\"passed\":1,\
             \"pass\":1,\"fail\":1,\"unexpected_pass\":0,\"known_failure\":0,\"unknown\":0,\
             \"recorded\":0,\"fault\":0},\"seconds\":3.500,\"restarts\":1,\"tests\":[{\"id\":1,\
             \"line\":2,\"command\":\"reg_genmove b\",\"expected\":\"C3|D4\",\"answer\":\"C3\",\
             \"outcome\":\"pass\",\"seconds\":0.500},{\"id\":2,\"line\":4,\"command\":\
             \"reg_genmove b\",\"expected\":null,\"answer\":\"say \\\"hi\\\"\\\\\\n\\tx\\u0001\",\
             \"outcome\":\"fail\",\"seconds\":0.333}]}],\"total\":{\"tests\":2,\"judged\":2,\
             \"passed\":1,\"pass\":1,\"fail\":1,\"unexpected_pass\":0,\"known_failure\":0,\
             \"unknown\":0,\"recorded\":0,\"fault\":0},\"ok\":false}"
        );
    }

    #[test]
    fn reports_read_back_and_shards_merge() {
        let whole = sample();
        let back = read_json(&json(&whole)).unwrap();
        assert_eq!(back[0].tests.len(), 7);
        assert_eq!(back[0].tests[1].outcome, Outcome::Fail);
        assert_eq!(json(&back), json(&whole));
        // Three shards: tests split, restarts and seconds split.
        let mut parts = [whole.clone(), whole.clone(), whole.clone()];
        for (k, p) in parts.iter_mut().enumerate() {
            p[0].tests = whole[0].tests.iter().skip(k).step_by(3).cloned().collect();
            p[0].restarts = usize::from(k == 1);
            p[0].seconds = [1.0, 2.0, 0.5][k];
        }
        let reports: Vec<Vec<SuiteResult>> =
            parts.iter().map(|p| read_json(&json(p)).unwrap()).collect();
        assert_eq!(json(&merge(&reports).unwrap()), json(&whole));
        // The same report twice, or another run's suites: refused.
        let twice = [reports[0].clone(), reports[0].clone()];
        assert!(merge(&twice).unwrap_err().contains("two reports"));
        let mut other = reports[1].clone();
        other[0].path = PathBuf::from("b/y.tst");
        assert!(merge(&[reports[0].clone(), other])
            .unwrap_err()
            .contains("other suites"));
        assert!(read_json("{\"suites\":1}").is_err());
        let bad = json(&whole).replace("\"outcome\":\"pass\"", "\"outcome\":\"fine\"");
        assert!(read_json(&bad).unwrap_err().contains("unknown outcome"));
    }

    #[test]
    fn json_counts_and_ok() {
        let j = json(&sample());
        assert!(j.contains("\"total\":{\"tests\":7,\"judged\":6,\"passed\":2,\"pass\":1,\"fail\":1,\"unexpected_pass\":1,\"known_failure\":2,\"unknown\":1,\"recorded\":0,\"fault\":1}"), "{j}");
        assert!(j.ends_with(",\"ok\":false}"), "{j}");
        assert!(j.contains("{\"id\":2,\"line\":4,\"command\":\"reg_genmove b\",\"expected\":\"C3|D4\",\"answer\":\"E5\",\"outcome\":\"fail\",\"seconds\":0.500}"), "{j}");
        let mut ok = sample();
        ok[0].tests.retain(|t| !t.outcome.is_unexpected_failure());
        assert!(json(&ok).ends_with(",\"ok\":true}"));
        assert!(all_ok(&ok) && !all_ok(&sample()));
    }
}

//! The summaries of a regression run: text for people, one JSON document
//! for machines.

use super::{Outcome, SuiteResult, TestResult};
use crate::stats::json_str;

/// The counts of a suite or of the whole run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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

    fn json(&self) -> String {
        format!(
            "{{\"tests\":{},\"judged\":{},\"passed\":{},\"pass\":{},\"fail\":{},\"unexpected_pass\":{},\"known_failure\":{},\"unknown\":{},\"recorded\":{},\"fault\":{}}}",
            self.tests,
            self.judged(),
            self.passed(),
            self.pass,
            self.fail,
            self.unexpected_pass,
            self.known_failure,
            self.unknown,
            self.recorded,
            self.fault
        )
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

/// The JSON report: `{"suites":[{"file","counts","seconds","restarts",
/// "tests":[{"id","line","command","expected","answer","outcome",
/// "seconds"}]}],"total":{counts},"ok":bool}` on one line.
pub fn json(results: &[SuiteResult]) -> String {
    let suites: Vec<String> = results
        .iter()
        .map(|r| {
            let tests: Vec<String> = r
                .tests
                .iter()
                .map(|t| {
                    format!(
                        "{{\"id\":{},\"line\":{},\"command\":{},\"expected\":{},\"answer\":{},\"outcome\":\"{}\",\"seconds\":{:.3}}}",
                        t.id,
                        t.line,
                        json_str(&t.command),
                        t.expected.as_deref().map_or("null".to_string(), json_str),
                        json_str(&t.answer),
                        t.outcome.name(),
                        t.seconds
                    )
                })
                .collect();
            format!(
                "{{\"file\":{},\"counts\":{},\"seconds\":{:.3},\"restarts\":{},\"tests\":[{}]}}",
                json_str(&r.path.display().to_string()),
                Counts::of(&r.tests).json(),
                r.seconds,
                r.restarts,
                tests.join(",")
            )
        })
        .collect();
    format!(
        "{{\"suites\":[{}],\"total\":{},\"ok\":{}}}",
        suites.join(","),
        total(results).json(),
        all_ok(results)
    )
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

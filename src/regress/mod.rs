//! `kosumi regress`: GTP regression suites (`.tst` files) as GNU Go's
//! regression scripts and GoGui's `gogui-regress` run them.
//!
//! - [`suite`]: reading `.tst` files (commands, test ids, `#?` lines).
//! - [`run`]: running them against any GTP engine, one process per unit
//!   of work, in the suite's folder; crashes and hangs fail the test and
//!   the engine is restarted with the suite's state replayed.
//! - [`options`]: the command line's options of `kosumi regress`.
//! - [`report`]: the text and JSON summaries, and the merge of the JSON
//!   reports of a run's shards.
//!
//! A test's answer is judged against its `#?` line: the pattern must match
//! the whole answer (case-insensitive); `!` negates; `*` marks a known
//! failure; `&` only records the answer. An error answer fails the test,
//! unless the engine does not know the command: such tests are counted
//! apart as unknown, never as failures.
//!
//! Where GNU Go's scripts differ, this follows `gogui-regress`, except for
//! case: `regress.awk` and `regress.pl` wrap the pattern as `^A|B$`, which
//! anchors only the first and last alternatives, match case-sensitively,
//! and judge an error answer's text like any other (`regress.awk` reads
//! only its first line). Here the whole answer must match one alternative,
//! case is ignored (GTP vertices ignore it), and an error answer fails.
//! GNU Go's own answers to its nine move suites get the same verdicts
//! either way.

pub mod options;
pub mod report;
pub mod run;
pub mod suite;

use std::path::PathBuf;

/// How one test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The answer matched, as expected.
    Pass,
    /// The answer did not match, and the test is not marked `*`.
    Fail,
    /// The answer matched although the test is marked `*`.
    UnexpectedPass,
    /// The answer did not match, as the `*` said.
    KnownFailure,
    /// The engine does not know the command.
    Unknown,
    /// The test is marked `&`: the answer is only recorded.
    Recorded,
    /// The engine crashed or hung (it was killed and restarted): a failure
    /// whatever the `*`.
    Fault,
}

impl Outcome {
    /// Whether the answer passed (as expected or not).
    pub fn passed(self) -> bool {
        matches!(self, Outcome::Pass | Outcome::UnexpectedPass)
    }

    /// Whether the test counts against the run (the exit status).
    pub fn is_unexpected_failure(self) -> bool {
        matches!(self, Outcome::Fail | Outcome::Fault)
    }

    /// The outcome named `name` ([`Outcome::name`]).
    pub fn from_name(name: &str) -> Option<Outcome> {
        [
            Outcome::Pass,
            Outcome::Fail,
            Outcome::UnexpectedPass,
            Outcome::KnownFailure,
            Outcome::Unknown,
            Outcome::Recorded,
            Outcome::Fault,
        ]
        .into_iter()
        .find(|o| o.name() == name)
    }

    /// The name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::UnexpectedPass => "unexpected_pass",
            Outcome::KnownFailure => "known_failure",
            Outcome::Unknown => "unknown",
            Outcome::Recorded => "recorded",
            Outcome::Fault => "fault",
        }
    }
}

/// One test's result.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    /// The test id.
    pub id: u64,
    /// Its line in the file.
    pub line: usize,
    /// The command sent, without the id.
    pub command: String,
    /// The text inside the `#?` brackets, if any.
    pub expected: Option<String>,
    /// The answer (`? text` for an error answer), or what went wrong.
    pub answer: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Seconds from sending the command to the answer (restart included).
    pub seconds: f64,
}

/// One suite's results.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteResult {
    /// The `.tst` file.
    pub path: PathBuf,
    /// Every test run, in file order.
    pub tests: Vec<TestResult>,
    /// How often the engine was restarted after a crash or a hang.
    pub restarts: usize,
    /// Seconds spent waiting for answers (summed over the pieces of the
    /// suite run in parallel).
    pub seconds: f64,
}

impl SuiteResult {
    /// The number of tests that ended with `o`.
    pub fn count(&self, o: Outcome) -> usize {
        self.tests.iter().filter(|t| t.outcome == o).count()
    }

    /// The number of tests whose answer was judged (all but unknown and
    /// recorded ones).
    pub fn judged(&self) -> usize {
        self.tests
            .iter()
            .filter(|t| !matches!(t.outcome, Outcome::Unknown | Outcome::Recorded))
            .count()
    }

    /// The number of tests whose answer passed.
    pub fn passed(&self) -> usize {
        self.tests.iter().filter(|t| t.outcome.passed()).count()
    }

    /// Whether no test failed unexpectedly.
    pub fn ok(&self) -> bool {
        !self.tests.iter().any(|t| t.outcome.is_unexpected_failure())
    }
}

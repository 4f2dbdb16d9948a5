//! Running suites against a GTP engine: one engine process per unit of
//! work, crashes and hangs recorded and the engine restarted with the
//! suite's state replayed, units spread over worker threads.

use super::suite::{Item, Suite};
use super::{Outcome, SuiteResult, TestResult};
use crate::play::client::{ClientError, GtpClient};
use crate::shard::Shard;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How suites are run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The engine's command line (split as a shell would).
    pub engine: String,
    /// How long one command may take before the engine counts as hung and
    /// is killed. Starting an engine (its `list_commands`, `name` and
    /// `version`) may take [`START_TIMEOUT`] if that is longer.
    pub timeout: Duration,
    /// Worker threads, each with its own engine process. With fewer
    /// suites than jobs, suites are cut into pieces of consecutive tests,
    /// each started on a fresh engine with the state before it replayed.
    pub jobs: usize,
    /// The part of the run to play: shard `I/N` runs, of each suite, the
    /// `I`-th of `N` runs of consecutive tests, with the state before it
    /// replayed ([`crate::shard::Shard`]).
    pub shard: Shard,
}

/// The least time an engine gets to start: loading its data may take
/// longer than a move.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Commands that change no engine state (by the GTP specification or
/// GNU Go's documentation): never replayed after a restart.
const READ_ONLY: &[&str] = &[
    "reg_genmove",
    "restricted_genmove",
    "is_legal",
    "list_stones",
    "showboard",
    "name",
    "version",
    "protocol_version",
    "known_command",
    "list_commands",
    "final_score",
    "final_status_list",
    "estimate_score",
    "attack",
    "defend",
    "owl_attack",
    "owl_defend",
    "dragon_status",
    "unconditional_status",
    "top_moves",
    "top_moves_black",
    "top_moves_white",
    "cputime",
    "echo",
    "echo_err",
    "countlib",
    "findlib",
    "color",
    "captures",
    "query_boardsize",
    "get_komi",
    "kosumi-analyze",
];

/// Commands that play the move they answer: replayed as `play`.
const GENMOVE: &[&str] = &[
    "genmove",
    "kgs-genmove_cleanup",
    "genmove_black",
    "genmove_white",
];

/// What happened to a run that could not go on at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The engine program cannot be started.
    Spawn(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(s) => write!(f, "cannot start the engine: {s}"),
        }
    }
}

impl std::error::Error for RunError {}

/// A piece of one suite: the items `start..end`, with `0..start` replayed
/// first.
#[derive(Debug, Clone, Copy)]
struct Unit {
    suite: usize,
    order: usize,
    start: usize,
    end: usize,
}

/// Cuts the suites into units: of each suite the shard's run of
/// consecutive tests (all of them for one shard; a suite with no test of
/// the shard is left out), then whole runs when there are at least as many
/// suites as jobs, else about `2 * jobs / suites` pieces per run, each
/// ending after a test.
fn units(suites: &[Suite], jobs: usize, shard: Shard) -> Vec<Unit> {
    let pieces = if jobs <= 1 || suites.len() >= jobs {
        1
    } else {
        (2 * jobs).div_ceil(suites.len())
    };
    let mut out = Vec::new();
    for (si, s) in suites.iter().enumerate() {
        let pos: Vec<usize> = s
            .items
            .iter()
            .enumerate()
            .filter(|(_, item)| item.is_test())
            .map(|(i, _)| i)
            .collect();
        let n = pos.len();
        let (a, b) = (
            shard.index * n / shard.count,
            (shard.index + 1) * n / shard.count,
        );
        if a == b && shard.count > 1 {
            continue;
        }
        let mut start = if a == 0 { 0 } else { pos[a - 1] + 1 };
        let end = if b == n {
            s.items.len()
        } else {
            pos[b - 1] + 1
        };
        let tests = b - a;
        let per = tests.div_ceil(pieces).max(1);
        let mut order = 0;
        for (k, &p) in pos[a..b].iter().enumerate() {
            let seen = k + 1;
            if seen % per == 0 && seen < tests {
                out.push(Unit {
                    suite: si,
                    order,
                    start,
                    end: p + 1,
                });
                order += 1;
                start = p + 1;
            }
        }
        out.push(Unit {
            suite: si,
            order,
            start,
            end,
        });
    }
    out
}

/// Runs every suite and returns one result per suite, in order.
/// `progress` is called after each test (from worker threads). A raised
/// `stop` ends the run early: the tests not run are left out.
///
/// # Errors
/// [`RunError::Spawn`] when the engine program cannot be started at all.
pub fn run_suites(
    suites: &[Suite],
    cfg: &RunConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(&TestResult) + Sync),
) -> Result<Vec<SuiteResult>, RunError> {
    let queue: Mutex<VecDeque<Unit>> = Mutex::new(units(suites, cfg.jobs, cfg.shard).into());
    let done: Mutex<Vec<(Unit, Result<UnitResult, RunError>)>> = Mutex::new(Vec::new());
    let workers = cfg.jobs.max(1);
    // Raised when the engine cannot be started: the other workers stop.
    let abort = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                if abort.load(Ordering::SeqCst) {
                    break;
                }
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some(unit) = next else { break };
                let r = run_unit(&suites[unit.suite], unit, cfg, stop, progress);
                let failed = r.is_err();
                done.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((unit, r));
                if failed {
                    abort.store(true, Ordering::SeqCst);
                    break;
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(u, _)| (u.suite, u.order));
    let mut results: Vec<SuiteResult> = suites
        .iter()
        .map(|s| SuiteResult {
            path: s.path.clone(),
            tests: Vec::new(),
            restarts: 0,
            seconds: 0.0,
        })
        .collect();
    for (unit, r) in done {
        let r = r?;
        let out = &mut results[unit.suite];
        out.tests.extend(r.tests);
        out.restarts += r.restarts;
        out.seconds += r.seconds;
    }
    Ok(results)
}

/// Why an engine could not be (re)started.
enum StartError {
    /// The program cannot be run at all: the whole run stops.
    Spawn(String),
    /// It started but failed its first requests or the replay: this
    /// command fails.
    Failed(String),
}

struct UnitResult {
    tests: Vec<TestResult>,
    restarts: usize,
    seconds: f64,
}

/// The engine of one unit and the commands that made its state.
struct Session<'a> {
    cfg: &'a RunConfig,
    suite: &'a Suite,
    engine: Option<GtpClient>,
    /// Commands to replay after a restart, as `(name, args)`.
    history: Vec<(String, Vec<String>)>,
    restarts: usize,
    started_once: bool,
}

impl Session<'_> {
    /// The running engine, started (and the history replayed) if needed.
    fn engine(&mut self, stop: &AtomicBool) -> Result<&mut GtpClient, StartError> {
        if self.engine.as_ref().is_some_and(|e| e.is_dead()) {
            self.engine = None;
        }
        if self.engine.is_none() {
            let mut e = GtpClient::start_in(
                &self.cfg.engine,
                Some(&self.suite.dir),
                self.cfg.timeout.max(START_TIMEOUT),
            )
            .map_err(|e| match e {
                ClientError::Spawn(s) => StartError::Spawn(s),
                e => StartError::Failed(format!("engine did not start: {e}")),
            })?;
            if self.started_once {
                self.restarts += 1;
            }
            self.started_once = true;
            for (name, args) in &self.history {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                // An error answer is the engine's business; only a crash
                // or a hang stops the replay.
                let _answer = e
                    .request(name, &args, self.cfg.timeout, stop)
                    .map_err(|err| {
                        StartError::Failed(format!("replaying `{name}` after a restart: {err}"))
                    })?;
            }
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Remembers a command that answered `answer` for later replays.
    fn remember(&mut self, item: &Item, answer: &Result<String, String>) {
        let Ok(answer) = answer else { return };
        let name = item.name.as_str();
        if READ_ONLY.contains(&name) || name == "quit" {
            return;
        }
        if GENMOVE.contains(&name) {
            let color = match name {
                "genmove_black" => "black".to_string(),
                "genmove_white" => "white".to_string(),
                _ => item.args.first().cloned().unwrap_or_default(),
            };
            let mv = answer.trim();
            if !mv.eq_ignore_ascii_case("resign") && !mv.is_empty() {
                self.history
                    .push(("play".into(), vec![color, mv.to_string()]));
            }
            return;
        }
        self.history.push((item.name.clone(), item.args.clone()));
    }
}

fn run_unit(
    suite: &Suite,
    unit: Unit,
    cfg: &RunConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(&TestResult) + Sync),
) -> Result<UnitResult, RunError> {
    let mut s = Session {
        cfg,
        suite,
        engine: None,
        history: Vec::new(),
        restarts: 0,
        started_once: false,
    };
    // The state before the unit: its setup commands (answers unknown, so
    // genmove-like tests are sent as they are).
    for item in &suite.items[..unit.start] {
        let name = item.name.as_str();
        if READ_ONLY.contains(&name) || name == "quit" {
            continue;
        }
        s.history.push((item.name.clone(), item.args.clone()));
    }
    let mut tests = Vec::new();
    let mut seconds = 0.0;
    for item in &suite.items[unit.start..unit.end] {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        if item.name == "quit" {
            continue;
        }
        let t0 = Instant::now();
        let answer = match s.engine(stop) {
            Err(StartError::Spawn(s)) => return Err(RunError::Spawn(s)),
            Err(StartError::Failed(msg)) => Err(msg),
            Ok(engine) => {
                let args: Vec<&str> = item.args.iter().map(String::as_str).collect();
                let knows = engine.commands.is_empty() || engine.knows(&item.name);
                match engine.request(&item.name, &args, cfg.timeout, stop) {
                    Ok(answer) => {
                        s.remember(item, &answer);
                        Ok((answer, knows))
                    }
                    Err(ClientError::Interrupted) => break,
                    Err(e) => Err(e.to_string()),
                }
            }
        };
        if stop.load(Ordering::SeqCst) {
            // Interrupted: this test was not run to its end.
            break;
        }
        let elapsed = t0.elapsed().as_secs_f64();
        seconds += elapsed;
        let Some(id) = item.id else { continue };
        let (outcome, text) = judge(item, answer);
        let r = TestResult {
            id,
            line: item.line,
            command: item.command(),
            expected: item.expect.as_ref().map(|e| e.text.clone()),
            answer: text,
            outcome,
            seconds: elapsed,
        };
        progress(&r);
        tests.push(r);
    }
    Ok(UnitResult {
        tests,
        restarts: s.restarts,
        seconds,
    })
}

/// The outcome of a test and the answer text to show: `answer` is
/// `Ok((engine answer, whether the engine lists the command))` or the
/// fault (crash, hang, failed restart).
fn judge(item: &Item, answer: Result<(Result<String, String>, bool), String>) -> (Outcome, String) {
    let known_failure = item.expect.as_ref().is_some_and(|e| e.known_failure);
    let (passed, text) = match answer {
        Err(fault) => return (Outcome::Fault, fault),
        Ok((Err(msg), knows)) => {
            if !knows || msg.to_ascii_lowercase().contains("unknown command") {
                return (Outcome::Unknown, format!("? {msg}"));
            }
            (false, format!("? {msg}"))
        }
        Ok((Ok(text), _)) => match &item.expect {
            Some(e) if e.record_only => return (Outcome::Recorded, text),
            Some(e) => (e.accepts(&text), text),
            None => (true, text),
        },
    };
    let outcome = match (passed, known_failure) {
        (true, false) => Outcome::Pass,
        (true, true) => Outcome::UnexpectedPass,
        (false, false) => Outcome::Fail,
        (false, true) => Outcome::KnownFailure,
    };
    (outcome, text)
}

#[cfg(test)]
mod tests {
    use super::super::suite::parse_suite;
    use super::*;
    use std::path::Path;

    #[test]
    fn units_end_after_tests_and_cover_every_item() {
        let mut text = String::from("boardsize 9\n");
        for i in 1..=10 {
            text.push_str(&format!("play b a{i}\n{i} reg_genmove w\n#? [A1]\n"));
        }
        text.push_str("clear_board\n");
        let s = parse_suite(&text, Path::new("t.tst"), Path::new(".")).unwrap();
        let suites = vec![s.clone()];
        for jobs in [1, 2, 3, 8] {
            let u = units(&suites, jobs, Shard::default());
            assert_eq!(u[0].start, 0);
            assert_eq!(u.last().unwrap().end, s.items.len());
            for w in u.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert!(s.items[w[0].end - 1].is_test());
            }
            if jobs == 1 {
                assert_eq!(u.len(), 1);
            } else {
                assert!(u.len() >= jobs.min(10), "{jobs}: {u:?}");
            }
        }
        // As many suites as jobs: whole suites.
        assert_eq!(units(&[s.clone(), s], 2, Shard::default()).len(), 2);
    }

    #[test]
    fn shards_run_each_test_once() {
        let mut text = String::from("boardsize 9\n");
        for i in 1..=7 {
            text.push_str(&format!("play b a{i}\n{i} reg_genmove w\n#? [A1]\n"));
        }
        let s = parse_suite(&text, Path::new("t.tst"), Path::new(".")).unwrap();
        let tiny = parse_suite("1 name\n", Path::new("u.tst"), Path::new(".")).unwrap();
        let suites = vec![s.clone(), tiny];
        for count in [1, 2, 3, 5, 9] {
            for jobs in [1, 4] {
                let mut seen = vec![0; s.items.len()];
                let mut tiny_seen = 0;
                for index in 0..count {
                    for u in units(&suites, jobs, Shard { index, count }) {
                        if u.suite == 1 {
                            tiny_seen += 1;
                            continue;
                        }
                        for n in &mut seen[u.start..u.end] {
                            *n += 1;
                        }
                    }
                }
                for (k, item) in s.items.iter().enumerate() {
                    if item.is_test() {
                        assert_eq!(seen[k], 1, "{count} shards, {jobs} jobs, item {k}");
                    }
                }
                // The one-test suite runs on exactly one shard.
                assert_eq!(tiny_seen, 1, "{count} shards");
            }
        }
    }
}

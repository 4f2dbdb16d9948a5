//! The analysis engine: query lines in, response lines out, positions
//! searched on several analysis threads at once.
//!
//! The reader (the caller's thread) parses each line and queues its jobs
//! by priority (higher first, then earlier); each analysis thread owns a
//! search player and takes the next job. Responses go out whole, one per
//! line, in whatever order the searches finish. At the end of input the
//! queued jobs are still analysed before [`serve`] returns.

use crate::analysis::query::{parse_line, Action, Defaults, Job, Message, Parsed};
use crate::analysis::response::{after, ownership_for, r6, response, Include, NoResults};
use crate::mcts::{policy_map, Limits, MctsPlayer, TimeBudget};
use crate::player::{mc_ownership, Player};
use serde_json::Value;
use std::collections::{BinaryHeap, HashMap};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What the engine reports as its version (`query_version`).
#[derive(Clone, Debug)]
pub struct Version {
    /// The release version (the crate's).
    pub version: String,
    /// The commit built from, or `<omitted>`.
    pub git_hash: String,
}

impl Version {
    /// This build's version and commit (`<omitted>` outside a checkout).
    pub fn of_build() -> Version {
        Version {
            version: crate::build_info::VERSION.to_string(),
            git_hash: crate::build_info::git_hash()
                .unwrap_or("<omitted>")
                .to_string(),
        }
    }
}

/// The longest query line read (longer lines are refused whole).
pub const MAX_LINE: usize = 16 << 20;

const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const TERMINATED: u8 = 2;

/// A job's shared state, for `terminate`.
struct Open {
    id: String,
    turn: usize,
    status: AtomicU8,
    stop: AtomicBool,
}

struct Entry {
    priority: i64,
    seq: u64,
    job: Job,
    open: Arc<Open>,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Entry) -> bool {
        (self.priority, self.seq) == (o.priority, o.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Entry) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Entry) -> std::cmp::Ordering {
        // Highest priority first, then earliest.
        self.priority.cmp(&o.priority).then(o.seq.cmp(&self.seq))
    }
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Entry>,
    closed: bool,
    open: HashMap<u64, Arc<Open>>,
    seq: u64,
}

struct Shared<W> {
    queue: Mutex<Queue>,
    ready: Condvar,
    out: Mutex<W>,
}

impl<W: Write> Shared<W> {
    /// Writes one line; a closed output is ignored (the searches still end).
    fn write(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }

    fn json<T: serde::Serialize>(&self, v: &T) {
        match serde_json::to_string(v) {
            Ok(s) => self.write(&s),
            Err(e) => self.write(&Message::general(format!("internal error: {e}")).to_line()),
        }
    }
}

/// Serves the protocol: reads query lines from `input` until its end,
/// writes responses to `output`, with `threads` analysis threads; returns
/// once every queued job is answered.
pub fn serve<R: BufRead, W: Write + Send>(
    defaults: &Defaults,
    threads: usize,
    version: &Version,
    mut input: R,
    output: W,
) {
    let shared = Shared {
        queue: Mutex::new(Queue::default()),
        ready: Condvar::new(),
        out: Mutex::new(output),
    };
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| worker(&shared, defaults));
        }
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = match std::io::Read::take(input.by_ref(), MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
            {
                Ok(n) => n,
                Err(e) => {
                    shared.write(&Message::general(format!("could not read input: {e}")).to_line());
                    break;
                }
            };
            if n == 0 {
                break;
            }
            if buf.len() > MAX_LINE {
                shared.write(
                    &Message::general(format!("query line longer than {MAX_LINE} bytes, ignored"))
                        .to_line(),
                );
                // Skip the rest of the line.
                let mut rest = Vec::new();
                let _ = input.read_until(b'\n', &mut rest);
                continue;
            }
            let line = match std::str::from_utf8(&buf) {
                Ok(l) => l.trim(),
                Err(_) => {
                    shared.write(
                        &Message::general(
                            "invalid UTF-8 - could not parse input line as json request",
                        )
                        .to_line(),
                    );
                    continue;
                }
            };
            if line.is_empty() {
                continue;
            }
            handle_line(&shared, defaults, version, line);
        }
        let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.closed = true;
        shared.ready.notify_all();
    });
}

fn handle_line<W: Write>(shared: &Shared<W>, defaults: &Defaults, version: &Version, line: &str) {
    match parse_line(line, defaults) {
        Parsed::Error(m) => shared.write(&m.to_line()),
        Parsed::Action {
            action, mut echo, ..
        } => match action {
            Action::QueryVersion => {
                echo.insert("version".into(), Value::from(version.version.clone()));
                echo.insert("git_hash".into(), Value::from(version.git_hash.clone()));
                shared.json(&echo);
            }
            Action::ClearCache => shared.json(&echo),
            Action::Terminate { id, turns } => {
                terminate(shared, Some(&id), turns.as_deref());
                shared.json(&echo);
            }
            Action::TerminateAll { turns } => {
                terminate(shared, None, turns.as_deref());
                shared.json(&echo);
            }
        },
        Parsed::Jobs { jobs, warnings } => {
            for w in &warnings {
                shared.write(&w.to_line());
            }
            let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            for job in jobs {
                let open = Arc::new(Open {
                    id: job.id.clone(),
                    turn: job.turn,
                    status: AtomicU8::new(QUEUED),
                    stop: AtomicBool::new(false),
                });
                q.seq += 1;
                let seq = q.seq;
                q.open.insert(seq, open.clone());
                q.heap.push(Entry {
                    priority: job.priority,
                    seq,
                    job,
                    open,
                });
            }
            shared.ready.notify_all();
        }
    }
}

/// Terminates the open jobs with `id` (any when `None`) and, when given,
/// one of `turns`: a queued one is answered at once with `noResults`, a
/// running one is stopped and answers with what it has.
fn terminate<W: Write>(shared: &Shared<W>, id: Option<&str>, turns: Option<&[i64]>) {
    let q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
    for open in q.open.values() {
        if id.is_some_and(|i| i != open.id) {
            continue;
        }
        if turns.is_some_and(|t| !t.contains(&(open.turn as i64))) {
            continue;
        }
        match open
            .status
            .compare_exchange(QUEUED, TERMINATED, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => shared.json(&NoResults {
                id: open.id.clone(),
                is_during_search: false,
                no_results: true,
                turn_number: open.turn,
            }),
            Err(RUNNING) => open.stop.store(true, Ordering::SeqCst),
            Err(_) => {}
        }
    }
}

fn worker<W: Write>(shared: &Shared<W>, defaults: &Defaults) {
    let mut player = MctsPlayer::new(defaults.cfg.clone());
    loop {
        let entry = {
            let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(e) = q.heap.pop() {
                    break Some(e);
                }
                if q.closed {
                    break None;
                }
                q = shared.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let Some(entry) = entry else {
            return;
        };
        if entry
            .open
            .status
            .compare_exchange(QUEUED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            run_job(shared, &mut player, &entry.job, &entry.open.stop);
        }
        let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.open.remove(&entry.seq);
    }
}

/// Searches one job and writes its responses (the reports during the
/// search, then the final one).
fn run_job<W: Write>(shared: &Shared<W>, player: &mut MctsPlayer, job: &Job, stop: &AtomicBool) {
    let mut cfg = job.cfg.clone();
    // Every job starts from a fresh tree and the same seed, so that the
    // answer does not depend on which thread took the job nor on the order.
    cfg.reuse_tree = false;
    cfg.early_stop = false;
    player.set_config(cfg);
    player.clear();
    player.set_seed(job.cfg.seed);
    let inc = Include {
        perspective: job.perspective,
        ownership: job.ownership,
        pv_visits: job.pv_visits,
        pv_len: job.pv_len,
    };
    let limits = Limits {
        playouts: Some(job.visits),
        time: job.time.map(|t| TimeBudget { target: t, max: t }),
    };
    let interval = job
        .report_every
        .map_or(Duration::from_secs(86_400), Duration::from_secs_f64);
    // The network's policy, once: the same in every response of the job.
    let policy = job.cfg.nn.net.as_ref().filter(|_| job.policy).map(|net| {
        policy_map(net.network(), &job.game, job.color)
            .into_iter()
            .map(|p| r6(f64::from(p)))
            .collect::<Vec<f64>>()
    });
    let mut on_update = |a: &crate::player::Analysis| {
        // Not before a candidate has its first visit: the root counts a
        // descent as it starts, so a report taken then would list no move.
        if job.report_every.is_some() && !a.candidates.is_empty() {
            let mut r = response(&job.id, job.turn, true, &job.game, a, &inc);
            r.policy.clone_from(&policy);
            shared.json(&r);
        }
    };
    let a = player.analyze_filtered(
        &job.game,
        job.color,
        limits,
        Some(stop),
        interval,
        &job.filter,
        &mut on_update,
    );
    let mut r = response(&job.id, job.turn, false, &job.game, &a, &inc);
    r.policy = policy;
    if job.moves_ownership {
        // Cheap: uniform playouts from the position after each candidate.
        for (info, c) in r.move_infos.iter_mut().zip(&a.candidates) {
            if let Some(g) = after(&job.game, job.color, c.mv) {
                let own = mc_ownership(&g, 100, job.cfg.seed);
                info.ownership = Some(ownership_for(&own, job.color, job.perspective));
            }
        }
    }
    shared.json(&r);
}

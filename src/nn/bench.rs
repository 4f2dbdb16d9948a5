//! `kosumi bench --nn`: evaluations a second of a random-weight network on
//! one core (the matrix products run in the calling thread).

use super::net::{Evaluator, Network, Shape};
use super::planes::{base_planes, NnPosition, BASE_PLANES};
use crate::board::Board;
use crate::color::Color;
use std::time::Instant;

/// One measurement.
#[derive(Clone, Debug)]
pub struct NnBench {
    /// Board size.
    pub size: usize,
    /// Positions per evaluation call.
    pub batch: usize,
    /// Positions evaluated.
    pub positions: usize,
    /// Seconds they took.
    pub seconds: f64,
    /// CPU seconds the thread spent on them, where the system tells
    /// (on a loaded machine, the rate per CPU second is the one to read).
    pub cpu_seconds: Option<f64>,
    /// Multiply-adds of one position, times two.
    pub flops: f64,
}

impl NnBench {
    /// Positions a second.
    pub fn rate(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }

    /// Positions a CPU second of the thread, where known.
    pub fn cpu_rate(&self) -> Option<f64> {
        self.cpu_seconds
            .map(|c| self.positions as f64 / c.max(1e-9))
    }

    /// The result as one line.
    pub fn line(&self, shape: &Shape) -> String {
        let cpu = match self.cpu_rate() {
            Some(r) => format!(
                " evals_per_cpu_s={r:.0} gflops_per_cpu_s={:.1}",
                r * self.flops / 1e9
            ),
            None => String::new(),
        };
        format!(
            "nn blocks={} channels={} size={} batch={} positions={} evals_per_s={:.0} gflops={:.1}{cpu}",
            shape.blocks,
            shape.channels,
            self.size,
            self.batch,
            self.positions,
            self.rate(),
            self.rate() * self.flops / 1e9
        )
    }
}

/// The calling thread's CPU time in seconds.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// The calling thread's CPU time: unknown here.
#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// Evaluates `positions` positions (rounded up to whole batches) of an
/// empty `size` board, `batch` at a time, after one warm-up call.
pub fn bench(net: &Network, size: usize, batch: usize, positions: usize) -> NnBench {
    let area = size * size;
    let board = Board::new(size).expect("a size the board takes");
    let mut one = vec![0.0f32; net.shape.planes.max(BASE_PLANES) * area];
    base_planes(
        &NnPosition {
            board: &board,
            to_move: Color::Black,
            history: &[],
        },
        &mut one,
    );
    let one = &one[..net.shape.planes * area];
    let input: Vec<f32> = (0..batch).flat_map(|_| one.iter().copied()).collect();
    let mut ev = Evaluator::new(net, size, batch);
    let mut policy = vec![0.0f32; batch * (area + 1)];
    ev.evaluate(net, &input, batch, &mut policy, None);
    let calls = positions.div_ceil(batch).max(1);
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    for _ in 0..calls {
        ev.evaluate(net, &input, batch, &mut policy, None);
    }
    let cpu_seconds = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    NnBench {
        size,
        batch,
        positions: calls * batch,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds,
        flops: net.flops(size),
    }
}

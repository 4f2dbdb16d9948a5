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
    /// Multiply-adds of one position, times two.
    pub flops: f64,
}

impl NnBench {
    /// Positions a second.
    pub fn rate(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }

    /// The result as one line.
    pub fn line(&self, shape: &Shape) -> String {
        format!(
            "nn blocks={} channels={} size={} batch={} positions={} evals_per_s={:.0} gflops={:.1}",
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
    for _ in 0..calls {
        ev.evaluate(net, &input, batch, &mut policy, None);
    }
    NnBench {
        size,
        batch,
        positions: calls * batch,
        seconds: start.elapsed().as_secs_f64(),
        flops: net.flops(size),
    }
}

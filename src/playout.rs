//! The uniform random playout of the speed benchmark, defined exactly so
//! that its results can be compared with any other implementation.
//!
//! Start from the given position; the side to move is given. A candidate is
//! an empty point that is legal without any superko check (not a suicide of
//! any size, not the simple-ko recapture) and is not an eye of the mover
//! ([`Board::is_eye`]). The move is drawn exactly uniformly among the
//! candidates: random empty points are drawn without replacement until one
//! qualifies. A side with no candidate passes. The playout stops after two
//! consecutive passes or `3·N·N` moves, passes counted, and is scored by
//! Tromp-Taylor area.

use crate::board::Board;
use crate::color::Color;
use crate::score::area_counts;
use rand_xoshiro::rand_core::Rng;
use std::time::Instant;

/// A uniform integer in `0..n` (`n > 0`), by 64x64->128 multiplication
/// (bias below 2^-54 for any board).
#[inline]
pub fn below<R: Rng>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// Plays one benchmark playout on `board` with `to_move` first; returns the
/// number of moves played, passes included.
pub fn uniform_playout<R: Rng>(board: &mut Board, mut to_move: Color, rng: &mut R) -> u32 {
    let n = board.size();
    let max_moves = (3 * n * n) as u32;
    let mut moves = 0;
    let mut passes = 0;
    while moves < max_moves && passes < 2 {
        let chosen = board.draw_playout_candidate(to_move, |k| below(rng, k));
        match chosen {
            Some(p) => {
                board.play_unchecked(to_move, p);
                passes = 0;
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    moves
}

/// The figures of one benchmark run.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    /// Board size.
    pub size: usize,
    /// Playouts run.
    pub playouts: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Mean moves per playout, passes included.
    pub mean_moves: f64,
    /// Fraction of playouts Black won with komi 7.5.
    pub black_win_rate: f64,
}

impl BenchResult {
    /// Playouts per second.
    pub fn playouts_per_s(&self) -> f64 {
        self.playouts as f64 / self.seconds.max(1e-9)
    }

    /// The benchmark's one-line report.
    pub fn line(&self) -> String {
        format!(
            "size={} playouts={} seconds={:.3} playouts_per_s={:.0} mean_moves={:.2} black_win_rate={:.4}",
            self.size,
            self.playouts,
            self.seconds,
            self.playouts_per_s(),
            self.mean_moves,
            self.black_win_rate
        )
    }
}

/// Runs `playouts` benchmark playouts from the empty `size` board, Black
/// first, komi 7.5, with one random stream seeded by `seed`.
///
/// # Panics
/// If `size` is not a valid board size (callers check it first).
pub fn bench(size: usize, playouts: u64, seed: u64) -> BenchResult {
    use rand_xoshiro::rand_core::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let empty = Board::new(size).expect("valid board size");
    let mut total_moves = 0u64;
    let mut black_wins = 0u64;
    let start = Instant::now();
    let mut b = empty.clone();
    for _ in 0..playouts {
        b.clone_from(&empty);
        total_moves += uniform_playout(&mut b, Color::Black, &mut rng) as u64;
        let (black, white) = area_counts(&b);
        if black as f32 - white as f32 - 7.5 > 0.0 {
            black_wins += 1;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    BenchResult {
        size,
        playouts,
        seconds,
        mean_moves: total_moves as f64 / playouts.max(1) as f64,
        black_win_rate: black_wins as f64 / playouts.max(1) as f64,
    }
}

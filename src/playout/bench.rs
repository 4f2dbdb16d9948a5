//! `kosumi bench`: uniform benchmark playouts from the empty board, timed,
//! with the figures another implementation can be compared against (mean
//! moves and Black's win rate for a seed).

use super::uniform::uniform_playout;
use crate::board::Board;
use crate::color::Color;
use crate::score::area_counts;
use std::time::Instant;

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
        let (black, white) = b.area_counts_closed().unwrap_or_else(|| area_counts(&b));
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn closed_area_counts_agree_with_the_flood_fill() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut closed = 0;
        for size in [2, 3, 5, 9, 13] {
            let empty = Board::new(size).unwrap();
            // The empty board has open regions: no closed count.
            assert_eq!(empty.area_counts_closed(), None);
            for _ in 0..200 {
                let mut b = empty.clone();
                let moves = uniform_playout(&mut b, Color::Black, &mut rng);
                let counted = area_counts(&b);
                match b.area_counts_closed() {
                    Some(fast) => {
                        assert_eq!(fast, counted, "{b:?}");
                        closed += 1;
                    }
                    // Only a playout cut at its move limit may end open.
                    None => assert_eq!(moves as usize, 3 * size * size, "{b:?}"),
                }
                let count = |c| b.points().filter(|&p| b.get(p) == Some(c)).count() as u32;
                assert_eq!(b.stone_counts(), (count(Color::Black), count(Color::White)));
            }
        }
        assert!(closed > 900, "{closed}");
    }
}

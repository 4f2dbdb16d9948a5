//! The cost of the pattern priors' feature extraction per candidate move:
//! `patterns::extract` and `PatternTable::strength` on every legal point of
//! an empty and a middle-game 19x19 board, the best of 5 rounds of 50.
//!
//! `cargo run --release --example pattern_cost` (a rough wall-clock figure;
//! the checksum shows that a faster extraction gives the same strengths).

use kosumi::patterns::{candidate_points, extract, PatternTable, Position};
use kosumi::point::Move;
use std::time::Instant;

fn main() {
    let t = PatternTable::builtin();
    let empty = kosumi::Game::new(19, kosumi::Rules::default(), kosumi::Komi::default());
    let games = [
        ("empty", empty.ok()),
        ("middle", kosumi::mcts::middle_game(19, 0.4, 1)),
    ];
    for (name, game) in games {
        let Some(game) = game else { continue };
        let b = game.board();
        let pos = Position {
            board: b,
            to_move: game.to_move(),
            last: None,
            last2: None,
        };
        let cands: Vec<_> = candidate_points(b, game.to_move()).collect();
        let reps = 50;
        let mut best = f64::INFINITY;
        let mut sum = 0.0;
        for _ in 0..5 {
            let s = Instant::now();
            sum = 0.0;
            for _ in 0..reps {
                for &p in &cands {
                    sum += t.strength(&extract(&pos, Move::Play(p)));
                }
            }
            best = best.min(s.elapsed().as_secs_f64());
        }
        println!(
            "{name}: {} candidates, {:.2} us per candidate, {:.0} us per expansion, checksum {sum:.1}",
            cands.len(),
            best * 1e6 / (reps * cands.len()) as f64,
            best * 1e6 / reps as f64
        );
    }
}

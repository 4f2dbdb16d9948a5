//! Criterion benchmarks of the rules core.
//!
//! - `playout/9x9`, `playout/19x19`: one uniform random playout of the
//!   speed benchmark per iteration (the policy of [`kosumi::playout`]), from
//!   the empty board: board clone, playout, and area count, as
//!   `kosumi bench` does for each playout.
//! - `superko_check/*`: a full legality check with positional superko
//!   (`Game::check`) of one move on 19x19 with 300 positions of history,
//!   for one fixed quiet move, and averaged over every point in turn.
//!
//! Run: `cargo bench --bench playout` (criterion prints the median in the
//! middle of each `time: [low median high]` line).

use criterion::{criterion_group, criterion_main, Criterion};
use kosumi::playout::{below, uniform_playout};
use kosumi::score::area_counts;
use kosumi::{Board, Color, Game, Move, Point, Rules};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    for size in [9, 19] {
        let empty = Board::new(size).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                let mut board = empty.clone();
                let moves = uniform_playout(&mut board, Color::Black, &mut rng);
                black_box((moves, area_counts(&board)))
            })
        });
    }
    group.finish();
}

/// A 19x19 game under positional superko with 300 moves played at random
/// (no passes), so the history holds 301 positions.
fn game_with_history(moves: usize) -> Game {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut g = Game::new(19, Rules::CHINESE, kosumi::Komi::default()).unwrap();
    while g.moves().len() < moves {
        let c = g.to_move();
        let legal: Vec<Move> = g
            .legal_moves(c)
            .into_iter()
            .filter(|m| *m != Move::Pass)
            .collect();
        let mv = legal[below(&mut rng, legal.len())];
        g.play(c, mv).unwrap();
    }
    assert_eq!(g.history_len(), moves + 1);
    g
}

fn superko_check(c: &mut Criterion) {
    let g = game_with_history(300);
    let to_move = g.to_move();
    let legal = g.legal_moves(to_move);
    // A quiet legal move: the first legal point, in the usual case of a
    // position never seen before (a hash miss).
    let quiet = legal[0];
    assert!(g.check(to_move, quiet).is_ok());
    let mut group = c.benchmark_group("superko_check");
    group.bench_function("19x19_300_history_one_move", |b| {
        b.iter(|| black_box(g.check(black_box(to_move), black_box(quiet))))
    });
    let all: Vec<Move> = Point::all(19).map(Move::Play).collect();
    let mut i = 0;
    group.bench_function("19x19_300_history_each_point", |b| {
        b.iter(|| {
            i = (i + 1) % all.len();
            black_box(g.check(to_move, all[i]))
        })
    });
    group.finish();
}

criterion_group!(benches, playouts, superko_check);
criterion_main!(benches);

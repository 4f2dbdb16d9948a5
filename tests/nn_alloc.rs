//! The input planes of a position (the 24 base planes, ladder reading
//! included: the built-in network's inputs) allocate nothing once their
//! buffers have grown, and the
//! network's evaluation allocates nothing. The allocator of this test
//! binary counts the allocations of the thread that evaluates.

use kosumi::board::Board;
use kosumi::color::Color;
use kosumi::nn::planes::{plane_count, planes, NnPosition, PlaneScratch};
use kosumi::nn::{Evaluator, Network, Shape};
use kosumi::patterns::PatternTable;
use kosumi::point::Move;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static COUNT: Cell<Option<u64>> = const { Cell::new(None) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get().map(|n| n + 1)));
        // SAFETY: the caller's contract, passed on to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(Some(0)));
    f();
    COUNT.with(|c| c.replace(None)).unwrap_or(0)
}

#[test]
fn a_warm_evaluation_allocates_nothing() {
    // Chains in atari on both sides (the planes read their ladders): the
    // black stone on D4 and the white one on F6.
    let b = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        . . . . X O X . .
        . . . O O . . . .
        . . O X . . . . .
        . . . O . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    )
    .expect("diagram");
    let history = [Move::Pass; 6];
    let pos = NnPosition {
        board: &b,
        to_move: Color::Black,
        history: &history,
    };
    for pattern_plane in [false, true] {
        let shape = Shape {
            planes: plane_count(pattern_plane),
            blocks: 2,
            channels: 16,
            value_hidden: 0,
        };
        let net = Network::random(shape, 7);
        let table = pattern_plane.then(PatternTable::builtin);
        let mut ev = Evaluator::new(&net, 9, 1);
        let mut scratch = PlaneScratch::default();
        let mut input = vec![0.0f32; shape.planes * 81];
        let mut logits = vec![0.0f32; 82];
        // The first evaluation grows the buffers (the ladder reader's
        // boards among them): the counter sees it.
        let first = allocations(|| {
            planes(&pos, table, &mut scratch, &mut input);
            ev.evaluate(&net, &input, 1, &mut logits, None);
        });
        assert!(first > 0, "the counter counts nothing");
        let warm = allocations(|| planes(&pos, table, &mut scratch, &mut input));
        // The pattern plane's features are extracted one move at a time
        // (`patterns::extract`), which allocates.
        if !pattern_plane {
            assert_eq!(warm, 0, "planes");
        }
        let eval = allocations(|| ev.evaluate(&net, &input, 1, &mut logits, None));
        assert_eq!(eval, 0, "evaluation");
    }
}

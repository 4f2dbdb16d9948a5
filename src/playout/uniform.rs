//! The uniform random playout of the speed benchmark, defined exactly so
//! that its results can be compared with any other implementation.
//!
//! Start from the given position; the side to move is given. A candidate is
//! an empty point that is legal without any superko check (not a suicide of
//! any size, not the simple-ko recapture) and is not an eye of the mover
//! ([`Board::is_eye`]). The move is drawn exactly uniformly among the
//! candidates: random empty points are drawn without replacement until one
//! qualifies, each the `below(rng, k)`-th of the `k` not drawn yet
//! ([`super::below`]). A side with no candidate passes. The playout stops after two
//! consecutive passes or `3·N·N` moves, passes counted, and is scored by
//! Tromp-Taylor area.

use crate::board::Board;
use crate::color::Color;
use rand_xoshiro::rand_core::Rng;

/// Plays one benchmark playout on `board` with `to_move` first; returns the
/// number of moves played, passes included.
pub fn uniform_playout<R: Rng>(board: &mut Board, mut to_move: Color, rng: &mut R) -> u32 {
    let n = board.size();
    let max_moves = (3 * n * n) as u32;
    let mut moves = 0;
    let mut passes = 0;
    while moves < max_moves && passes < 2 {
        match board.play_playout_move(to_move, || rng.next_u64()) {
            Some(_) => passes = 0,
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

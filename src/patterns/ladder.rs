//! The ladder reader of the move features ([`super::extract`]) and of the
//! search's priors ([`super::lean`]): the attacker tries every atari, the
//! defender extends and may capture, up to [`LADDER_BUDGET`] positions.
//! Where the liberties after a move without captures settle the reading
//! ([`Board::liberties_after`] is exact then) it answers without playing
//! the move; the boards of the positions read come from a pool.
//!
//! The playouts have their own reader (`playout::tactics`), on one line
//! with a step budget and no allocation, since they read many times more
//! often and can afford no branching; where it calls an extension
//! captured, this reader agrees (its twin test).

use crate::board::Board;
use crate::color::Color;
use crate::point::Point;

/// How many ladder positions one reading may visit before it gives up
/// (and calls the chain free).
pub const LADDER_BUDGET: u32 = 300;

/// Whether the chain on `p` (one liberty, its owner to move) is captured
/// in a ladder (`captured` with boards of its own).
pub fn ladder_captured(b: &Board, p: Point, budget: &mut u32) -> bool {
    captured(b, p, budget, &mut Vec::new())
}

/// Whether the chain on `r` touches a chain of colour `c` with one liberty.
pub(crate) fn touches_chain_in_atari(b: &Board, r: Point, c: Color) -> bool {
    let mut found = false;
    b.for_each_stone(r, |s| {
        if found {
            return;
        }
        for q in s.neighbors() {
            if b.get(q) == Some(c) && b.in_atari(q) {
                found = true;
            }
        }
    });
    found
}

/// Whether a stone of `c` on the empty point `p` captures anything.
fn captures_any(b: &Board, c: Color, p: Point) -> bool {
    let opp = c.opponent();
    p.neighbors()
        .iter()
        .any(|&q| b.get(q) == Some(opp) && b.in_atari(q))
}

/// The liberties of the chain a stone of `c` on `p` would make, as far as
/// the ladder reader needs them.
pub(crate) enum After {
    /// Exactly this many (0 or 1), nothing captured.
    Libs(usize),
    /// Exactly two, nothing captured.
    Two,
    /// Three or more.
    Open,
    /// Fewer than three by the count before captures, and the move
    /// captures: play it to know.
    Captures,
}

pub(crate) fn after_move(b: &Board, c: Color, p: Point) -> After {
    // A lower bound when the move captures, exact otherwise.
    let l = b.liberties_after(c, p, 3);
    if l >= 3 {
        After::Open
    } else if captures_any(b, c, p) {
        After::Captures
    } else if l == 2 {
        After::Two
    } else {
        After::Libs(l)
    }
}

/// A board from the pool (or a new one) holding a copy of `b`.
pub(crate) fn take(pool: &mut Vec<Box<Board>>, b: &Board) -> Box<Board> {
    match pool.pop() {
        Some(mut x) => {
            (*x).clone_from(b);
            x
        }
        None => Box::new(b.clone()),
    }
}

/// Whether the attacker, to move, captures the chain on `p` (two
/// liberties) by a ladder: an atari on either liberty (in the order of
/// [`Board::chain_liberties`]), then [`captured`]. Boards for the reading
/// come from `pool` and go back to it.
pub(crate) fn attacker_captures(
    b: &Board,
    p: Point,
    budget: &mut u32,
    pool: &mut Vec<Box<Board>>,
) -> bool {
    let Some(d) = b.get(p) else {
        return false;
    };
    let a = d.opponent();
    // The liberties in the order of `Board::chain_liberties` (sorted).
    let mut libs = [p; 4];
    let mut k = 0;
    let mut more = false;
    b.for_each_stone(p, |s| {
        for q in s.neighbors() {
            if b.is_empty(q) && !libs[..k].contains(&q) {
                if k < libs.len() {
                    libs[k] = q;
                    k += 1;
                } else {
                    more = true;
                }
            }
        }
    });
    let all: Vec<Point>;
    let libs: &[Point] = if more {
        all = b.chain_liberties(p);
        &all
    } else {
        libs[..k].sort_unstable();
        &libs[..k]
    };
    for &l in libs {
        if *budget == 0 {
            return false;
        }
        if b.check(a, l, false).is_err() {
            continue;
        }
        let mut next = take(pool, b);
        next.play_unchecked(a, l);
        let caught = next.get(p) == Some(d) && next.in_atari(p) && captured(&next, p, budget, pool);
        pool.push(next);
        if caught {
            return true;
        }
    }
    false
}

/// Whether the chain on `p` (one liberty, its owner to move) is captured
/// when it extends and the attacker keeps giving atari. The defender
/// escapes when it can capture a chain next to it that is in atari, when
/// extending gives three liberties, or when the reading budget (positions
/// visited) runs out. Boards for the reading come from `pool` and go back
/// to it.
pub(crate) fn captured(b: &Board, p: Point, budget: &mut u32, pool: &mut Vec<Box<Board>>) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Some(d) = b.get(p) else {
        return false;
    };
    if touches_chain_in_atari(b, p, d.opponent()) {
        return false;
    }
    let Some(lib) = b.last_liberty(p) else {
        return false;
    };
    if b.check(d, lib, false).is_err() {
        return true;
    }
    // `lib` is next to the chain: after the extension it is the chain.
    match after_move(b, d, lib) {
        After::Libs(_) => true,
        After::Open => false,
        After::Two => {
            let mut next = take(pool, b);
            next.play_unchecked(d, lib);
            let caught = attacker_captures(&next, p, budget, pool);
            pool.push(next);
            caught
        }
        After::Captures => {
            let mut next = take(pool, b);
            next.play_unchecked(d, lib);
            let caught = match next.liberties(p) {
                0 | 1 => true,
                2 => attacker_captures(&next, p, budget, pool),
                _ => false,
            };
            pool.push(next);
            caught
        }
    }
}

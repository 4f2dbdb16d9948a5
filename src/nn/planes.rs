//! The network's input: feature planes of a position, computed by the
//! board and the pattern code, from the side to move's point of view.
//!
//! Every plane has one value per point, row by row from the top left
//! (`y * size + x`, as [`Point::x`] and [`Point::y`] count). The planes,
//! in order ([`BASE_PLANES`] of them, all 0 or 1):
//!
//! | plane | meaning |
//! |-------|---------|
//! | 0 | a stone of the side to move |
//! | 1 | an opponent stone |
//! | 2 | an empty point |
//! | 3..=6 | a stone of the side to move whose chain has 1, 2, 3, 4+ liberties |
//! | 7..=10 | an opponent stone whose chain has 1, 2, 3, 4+ liberties |
//! | 11..=14 | a legal move of the side to move (empty, not the simple-ko recapture, not suicide) that leaves its chain 1, 2, 3, 4+ liberties ([`Board::liberties_after`]: a lower bound when the move captures) |
//! | 15 | a stone of the side to move in a chain in atari that a ladder captures ([`captured`]) |
//! | 16 | an opponent stone in a chain in atari that a ladder would capture if the opponent extended it |
//! | 17..=20 | the previous move, the one before, and so on back four moves (a pass or no move: the plane is 0) |
//! | 21 | the simple-ko point the side to move may not take back |
//! | 22 | a point of the board (all 1: with the zero padding of the convolutions, the board's extent) |
//! | 23 | Black to move (all 1 or all 0) |
//!
//! With the pattern plane on, plane [`BASE_PLANES`] holds the pattern
//! table's opinion: on each legal point, `q / 255` where `q = round(255 *
//! (1 + max(ln p, -16) / 16))` and `p` the point's probability under the
//! table (its strength over the sum of every candidate's, the pass
//! included); 0 elsewhere. The quantization is the export format's (one
//! byte a point), so the network sees the same values in training and in
//! play.

use crate::board::Board;
use crate::color::Color;
use crate::patterns::features::{candidate_points, extract, Position};
use crate::patterns::ladder::{captured, LADDER_BUDGET};
use crate::patterns::PatternTable;
use crate::point::{Move, Point};

/// Binary planes (see the module docs).
pub const BASE_PLANES: usize = 24;

/// Previous moves given a plane each.
pub const HISTORY: usize = 4;

/// The planes' count: [`BASE_PLANES`], plus one with the pattern plane.
pub fn plane_count(pattern_plane: bool) -> usize {
    BASE_PLANES + usize::from(pattern_plane)
}

/// A position as the network sees it: the board, the side to move and the
/// moves that led here (oldest first; only the last [`HISTORY`] are read).
#[derive(Clone, Copy, Debug)]
pub struct NnPosition<'a> {
    /// The board.
    pub board: &'a Board,
    /// The side to move.
    pub to_move: Color,
    /// The moves so far, oldest first.
    pub history: &'a [Move],
}

/// The plane index of point `p` on a `size` board.
#[inline]
pub fn point_index(p: Point, size: usize) -> usize {
    p.y() * size + p.x()
}

/// The symmetries of the square board: the identity and the seven
/// rotations and reflections ([`symmetry_index`]).
pub const SYMMETRIES: usize = 8;

/// The index that point index `i` (row by row on a `size` board) moves to
/// under symmetry `s` (`0..SYMMETRIES`): bit 0 transposes, bit 1 flips
/// the rows, bit 2 flips the columns; symmetry 0 is the identity.
#[inline]
pub fn symmetry_index(i: usize, size: usize, s: usize) -> usize {
    let (mut x, mut y) = (i % size, i / size);
    if s & 1 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    if s & 2 != 0 {
        y = size - 1 - y;
    }
    if s & 4 != 0 {
        x = size - 1 - x;
    }
    y * size + x
}

/// Writes the `planes` planes of `input` (one position, plane by plane)
/// into `out` under symmetry `s`: each plane's value at point `i` goes to
/// [`symmetry_index`]`(i, size, s)`.
///
/// # Panics
/// If a slice is shorter than `planes * size * size`.
pub fn symmetric_planes(input: &[f32], planes: usize, size: usize, s: usize, out: &mut [f32]) {
    let area = size * size;
    for p in 0..planes {
        let src = &input[p * area..(p + 1) * area];
        let dst = &mut out[p * area..(p + 1) * area];
        for (i, &v) in src.iter().enumerate() {
            dst[symmetry_index(i, size, s)] = v;
        }
    }
}

/// Writes the [`BASE_PLANES`] binary planes of `pos` into `out` (length at
/// least `BASE_PLANES * size * size`; the rest is left alone).
///
/// # Panics
/// If `out` is too short.
pub fn base_planes(pos: &NnPosition, out: &mut [f32]) {
    base_planes_in(pos, out, &mut PlaneScratch::default());
}

/// The buffers of [`planes`], kept from one position to the next so that
/// an evaluation allocates nothing once they have grown.
#[derive(Default)]
pub struct PlaneScratch {
    /// The pattern plane's bytes.
    bytes: Vec<u8>,
    /// Ladder verdicts per chain root.
    ladder: Vec<(Point, bool)>,
    /// Boards of the ladder reader.
    pool: Vec<Box<Board>>,
    /// The candidates' pattern strengths.
    strengths: Vec<(usize, f64)>,
}

/// [`base_planes`] with the buffers of `scratch`.
fn base_planes_in(pos: &NnPosition, out: &mut [f32], scratch: &mut PlaneScratch) {
    let b = pos.board;
    let n = b.size();
    let area = n * n;
    let out = &mut out[..BASE_PLANES * area];
    out.fill(0.0);
    let me = pos.to_move;
    let mut set = |plane: usize, i: usize| out[plane * area + i] = 1.0;
    // Ladder verdicts per chain root, read once.
    let ladder = &mut scratch.ladder;
    ladder.clear();
    for p in b.points() {
        let i = point_index(p, n);
        set(22, i);
        if me == Color::Black {
            set(23, i);
        }
        match b.get(p) {
            Some(c) => {
                let own = c == me;
                set(if own { 0 } else { 1 }, i);
                let libs = b.liberties(p).clamp(1, 4);
                set(if own { 2 + libs } else { 6 + libs }, i);
                if libs == 1 {
                    let r = b.chain_root(p);
                    let captured = match ladder.iter().find(|(q, _)| *q == r) {
                        Some(&(_, v)) => v,
                        None => {
                            let mut budget = LADDER_BUDGET;
                            let v = captured(b, p, &mut budget, &mut scratch.pool);
                            ladder.push((r, v));
                            v
                        }
                    };
                    if captured {
                        set(if own { 15 } else { 16 }, i);
                    }
                }
            }
            None => {
                set(2, i);
                if b.check(me, p, false).is_ok() {
                    let libs = b.liberties_after(me, p, 4).clamp(1, 4);
                    set(10 + libs, i);
                }
            }
        }
    }
    for (k, mv) in pos.history.iter().rev().take(HISTORY).enumerate() {
        if let Move::Play(p) = mv {
            if b.on_board(*p) {
                set(17 + k, point_index(*p, n));
            }
        }
    }
    if let Some((p, c)) = b.ko() {
        if c == me && b.on_board(p) {
            set(21, point_index(p, n));
        }
    }
}

/// The pattern plane's bytes of `pos` (see the module docs) into `out`
/// (length `size * size`).
///
/// # Panics
/// If `out` is shorter than the board's area.
pub fn pattern_bytes(pos: &NnPosition, table: &PatternTable, out: &mut [u8]) {
    pattern_bytes_in(pos, table, out, &mut Vec::new());
}

/// [`pattern_bytes`] with a buffer for the candidates' strengths.
fn pattern_bytes_in(
    pos: &NnPosition,
    table: &PatternTable,
    out: &mut [u8],
    strengths: &mut Vec<(usize, f64)>,
) {
    let b = pos.board;
    let n = b.size();
    out[..n * n].fill(0);
    let h = pos.history;
    let fp = Position {
        board: b,
        to_move: pos.to_move,
        last: h.last().copied(),
        last2: h.len().checked_sub(2).map(|i| h[i]),
    };
    strengths.clear();
    let mut total = table.strength(&extract(&fp, Move::Pass));
    for p in candidate_points(b, pos.to_move) {
        let s = table.strength(&extract(&fp, Move::Play(p)));
        total += s;
        strengths.push((point_index(p, n), s));
    }
    for &(i, s) in strengths.iter() {
        let lp = (s / total).ln().max(-16.0);
        let q = (255.0 * (1.0 + lp / 16.0)).round().clamp(0.0, 255.0);
        out[i] = q as u8;
    }
}

/// All planes of `pos` as the network reads them: [`base_planes`], then
/// the pattern plane (bytes over 255) when `table` is given. `scratch`
/// holds the buffers (grown once, then reused).
///
/// # Panics
/// If `out` is shorter than the planes.
pub fn planes(
    pos: &NnPosition,
    table: Option<&PatternTable>,
    scratch: &mut PlaneScratch,
    out: &mut [f32],
) {
    base_planes_in(pos, out, scratch);
    if let Some(t) = table {
        let area = pos.board.size() * pos.board.size();
        scratch.bytes.resize(area, 0);
        pattern_bytes_in(pos, t, &mut scratch.bytes, &mut scratch.strengths);
        let plane = &mut out[BASE_PLANES * area..(BASE_PLANES + 1) * area];
        for (o, &q) in plane.iter_mut().zip(scratch.bytes.iter()) {
            *o = f32::from(q) / 255.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(out: &[f32], k: usize, n: usize) -> Vec<u8> {
        out[k * n * n..(k + 1) * n * n]
            .iter()
            .map(|&v| v as u8)
            .collect()
    }

    /// The positions of the ones of plane `k`, as (x, y).
    fn ones(out: &[f32], k: usize, n: usize) -> Vec<(usize, usize)> {
        plane(out, k, n)
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == 1)
            .map(|(i, _)| (i % n, i / n))
            .collect()
    }

    #[test]
    fn planes_of_a_small_position_by_hand() {
        // 5x5, White to move. Black: a stone at (1,0) in atari (white on
        // (0,0)? no: white at (2,0) and (1,1), black (1,0) has one
        // liberty (0,0)); a black pair at (3,3),(4,3).
        let b = Board::from_diagram(
            ". X O . .\n\
             . O . . .\n\
             . . . . .\n\
             . . . X X\n\
             . . . . .",
        )
        .expect("diagram");
        let history = [
            Move::Play(Point::new(3, 3)),
            Move::Play(Point::new(2, 0)),
            Move::Play(Point::new(1, 0)),
            Move::Pass,
            Move::Play(Point::new(4, 3)),
            Move::Play(Point::new(1, 1)),
        ];
        let pos = NnPosition {
            board: &b,
            to_move: Color::Black,
            history: &history,
        };
        let n = 5;
        let mut out = vec![9.0; BASE_PLANES * n * n + 3];
        base_planes(&pos, &mut out);
        assert_eq!(out[BASE_PLANES * n * n], 9.0, "past the planes untouched");
        // Black to move: own = X.
        assert_eq!(ones(&out, 0, n), vec![(1, 0), (3, 3), (4, 3)]);
        assert_eq!(ones(&out, 1, n), vec![(2, 0), (1, 1)]);
        assert_eq!(
            plane(&out, 2, n).iter().map(|&v| v as usize).sum::<usize>(),
            20
        );
        // Own liberties: (1,0) has one (0,0); the pair has 4 ((3,2),(4,2),(2,3),(3,4),(4,4): 5 -> 4+).
        assert_eq!(ones(&out, 3, n), vec![(1, 0)]);
        assert!(ones(&out, 4, n).is_empty() && ones(&out, 5, n).is_empty());
        assert_eq!(ones(&out, 6, n), vec![(3, 3), (4, 3)]);
        // Opponent: (2,0) has (3,0),(2,1): 2; (1,1) has (0,1),(2,1),(1,2): 3.
        assert_eq!(ones(&out, 8, n), vec![(2, 0)]);
        assert_eq!(ones(&out, 9, n), vec![(1, 1)]);
        assert!(ones(&out, 7, n).is_empty() && ones(&out, 10, n).is_empty());
        // Liberties after a black move: (0,0) joins (1,0): liberties
        // (0,1) only -> 1.
        assert!(ones(&out, 11, n).contains(&(0, 0)));
        // (3,0) touches white (2,0): 2 liberties (4,0),(3,1).
        assert!(ones(&out, 12, n).contains(&(3, 0)));
        // (0,4): corner, 2 liberties.
        assert!(ones(&out, 12, n).contains(&(0, 4)));
        // (2,2): 4 liberties.
        assert!(ones(&out, 14, n).contains(&(2, 2)));
        // Every empty point is legal here: planes 11..=14 cover the 20.
        let legal: usize = (11..=14).map(|k| ones(&out, k, n).len()).sum();
        assert_eq!(legal, 20);
        // The black stone in atari at (1,0) cannot escape: extending to
        // (0,0) leaves one liberty. A ladder captures it.
        assert_eq!(ones(&out, 15, n), vec![(1, 0)]);
        assert!(ones(&out, 16, n).is_empty());
        // History: last (1,1), then (4,3), then a pass, then (1,0).
        assert_eq!(ones(&out, 17, n), vec![(1, 1)]);
        assert_eq!(ones(&out, 18, n), vec![(4, 3)]);
        assert!(ones(&out, 19, n).is_empty());
        assert_eq!(ones(&out, 20, n), vec![(1, 0)]);
        assert!(ones(&out, 21, n).is_empty());
        assert_eq!(ones(&out, 22, n).len(), 25);
        assert_eq!(ones(&out, 23, n).len(), 25);
        // White to move: colours swap, the side plane is 0, the
        // opponent's chain in atari shows on plane 16.
        let pos = NnPosition {
            to_move: Color::White,
            ..pos
        };
        base_planes(&pos, &mut out);
        assert_eq!(ones(&out, 0, n), vec![(2, 0), (1, 1)]);
        assert_eq!(ones(&out, 7, n), vec![(1, 0)]);
        assert_eq!(ones(&out, 16, n), vec![(1, 0)]);
        assert!(ones(&out, 15, n).is_empty());
        assert!(ones(&out, 23, n).is_empty());
        // White at (0,0) captures: a legal move, liberties at least 1.
        assert!((11..=14).any(|k| ones(&out, k, n).contains(&(0, 0))));
    }

    #[test]
    fn the_symmetries_are_the_eight_maps_of_the_square() {
        for n in [2, 5, 9, 19] {
            let mut maps = std::collections::BTreeSet::new();
            for s in 0..SYMMETRIES {
                let map: Vec<usize> = (0..n * n).map(|i| symmetry_index(i, n, s)).collect();
                let mut sorted = map.clone();
                sorted.sort_unstable();
                assert_eq!(
                    sorted,
                    (0..n * n).collect::<Vec<_>>(),
                    "a permutation: {n} {s}"
                );
                maps.insert(map);
            }
            assert_eq!(maps.len(), SYMMETRIES, "distinct on {n}x{n}");
            assert!((0..n * n).all(|i| symmetry_index(i, n, 0) == i));
        }
        // (x, y) = (1, 0) on 5x5: transposed to (0, 1), rows flipped to
        // (1, 4), columns flipped to (3, 0).
        assert_eq!(symmetry_index(1, 5, 1), 5);
        assert_eq!(symmetry_index(1, 5, 2), 21);
        assert_eq!(symmetry_index(1, 5, 4), 3);
    }

    /// The planes of a position played out under a symmetry are its
    /// planes moved by [`symmetric_planes`]: stones, liberties, the
    /// moves' history and the ko point all follow the board.
    #[test]
    fn the_planes_of_a_transformed_position_are_the_transformed_planes() {
        let n = 7;
        // Black's capture at (2, 1) ends in a ko that White may not
        // take back at once.
        #[rustfmt::skip]
        let moves: [(usize, usize); 13] = [
            (5, 5), (4, 6), (3, 4), (4, 4), (1, 0), (2, 0), (0, 1),
            (3, 1), (1, 2), (2, 2), (6, 3), (1, 1), (2, 1),
        ];
        let play = |s: usize| {
            let mut b = Board::new(n).expect("size");
            let mut history = Vec::new();
            let mut c = Color::Black;
            for &(x, y) in &moves {
                let i = symmetry_index(y * n + x, n, s);
                let p = Point::new(i % n, i / n);
                if b.play(c, p, false).is_ok() {
                    history.push(Move::Play(p));
                }
                c = c.opponent();
            }
            (b, history, c)
        };
        let planes_of = |(b, history, to_move): &(Board, Vec<Move>, Color)| {
            let pos = NnPosition {
                board: b,
                to_move: *to_move,
                history,
            };
            let mut out = vec![0.0; (BASE_PLANES + 1) * n * n];
            planes(
                &pos,
                Some(PatternTable::builtin()),
                &mut PlaneScratch::default(),
                &mut out,
            );
            out
        };
        let first = play(0);
        assert!(first.0.ko().is_some(), "the moves end in a ko");
        let p0 = planes_of(&first);
        for s in 1..SYMMETRIES {
            let direct = planes_of(&play(s));
            let mut moved = vec![0.0; (BASE_PLANES + 1) * n * n];
            symmetric_planes(&p0, BASE_PLANES, n, s, &mut moved);
            assert_eq!(
                direct[..BASE_PLANES * n * n],
                moved[..BASE_PLANES * n * n],
                "symmetry {s}"
            );
        }
    }

    #[test]
    fn ko_point_and_illegal_points() {
        // Black captures at (2,1) ... set up by playing.
        let mut b = Board::from_diagram(
            ". X O . .\n\
             X . X O .\n\
             . X O . .\n\
             . . . . .\n\
             . . . . .",
        )
        .expect("diagram");
        // White takes at (1,1), capturing (2,1): ko for Black at (2,1).
        b.play(Color::White, Point::new(1, 1), false)
            .expect("legal");
        assert_eq!(b.ko(), Some((Point::new(2, 1), Color::Black)));
        let pos = NnPosition {
            board: &b,
            to_move: Color::Black,
            history: &[],
        };
        let n = 5;
        let mut out = vec![0.0; BASE_PLANES * n * n];
        base_planes(&pos, &mut out);
        assert_eq!(ones(&out, 21, n), vec![(2, 1)]);
        // The ko recapture is not a legal move: no liberties-after plane.
        assert!((11..=14).all(|k| !ones(&out, k, n).contains(&(2, 1))));
        // No history: planes 17..=20 empty.
        assert!((17..=20).all(|k| ones(&out, k, n).is_empty()));
    }

    #[test]
    fn pattern_plane_favours_the_capture() {
        let b = Board::from_diagram(
            ". X O . .\n\
             . O . . .\n\
             . . . . .\n\
             . . . . .\n\
             . . . . .",
        )
        .expect("diagram");
        let pos = NnPosition {
            board: &b,
            to_move: Color::White,
            history: &[Move::Play(Point::new(1, 0))],
        };
        let mut bytes = vec![0u8; 25];
        pattern_bytes(&pos, PatternTable::builtin(), &mut bytes);
        // The capture is likely (p > 3%), the occupied points are 0, and
        // the probabilities the bytes stand for sum to at most 1 (with
        // the rounding: each byte is off by at most 1/32 in ln p).
        assert!(bytes[0] > 200, "{bytes:?}");
        for i in [1, 2, 6] {
            assert_eq!(bytes[i], 0, "occupied {i}");
        }
        let sum: f64 = bytes
            .iter()
            .filter(|&&q| q > 0)
            .map(|&q| ((f64::from(q) / 255.0 - 1.0) * 16.0).exp())
            .sum();
        assert!(sum <= 1.04 && sum > 0.5, "{sum}");
        assert_eq!(bytes[1], 0, "occupied");
    }
}

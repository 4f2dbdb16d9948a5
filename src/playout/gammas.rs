//! Learned 3x3 shape ratings for the playout policy (issue 11): a dense
//! table indexed by the 3x3 neighbourhood of a point read straight from the
//! board, colours relative to the side to move, with the atari status of
//! the four orthogonal neighbours' chains.
//!
//! The ratings are Bradley-Terry gammas that `kosumi patterns train
//! --playout-shapes` fits on the professional records (the command is in
//! the header of `data/playout-gammas.tsv`, built into the binary): the
//! families pass, distance to the previous and the second previous move,
//! and the 3x3 shape with atari bits ([`shape3_atari`]). Training takes
//! about 20 s of CPU.
//!
//! At play time a point's index is 8 cell reads and up to 4 constant-time
//! atari tests; the table holds one byte per index (the gamma's logarithm
//! in sixteenths, 0 for a shape the records never showed), 331,776 bytes
//! for every combination of 4 orthogonal cells of 6 kinds (empty, own,
//! opponent, off the board, own in atari, opponent in atari) and 4 diagonal
//! cells of 4, so the lookup needs no symmetry, no hashing and no
//! allocation. The symmetries are folded in when the table is built.
//!
//! [`shape3_atari`]: crate::patterns::shape::shape3_atari

use super::policy::{playable, PlayoutConfig};
use super::shapes::is_shape;
use crate::board::Board;
use crate::color::Color;
use crate::patterns::shape::{shape3_symmetries, SHAPE3_BITS};
use crate::patterns::{Family, PatternTable};
use crate::point::{Point, STRIDE};
use rand_xoshiro::rand_core::Rng;
use std::sync::OnceLock;

const BUILTIN: &str = include_str!("../../data/playout-gammas.tsv");

/// Entries of the dense table: `6^4` orthogonal by `4^4` diagonal cells.
pub const INDICES: usize = 1296 * 256;

/// Steps of the stored logarithm per unit of `ln(gamma)`.
const STEPS: f32 = 16.0;

/// The stored byte of `ln(gamma) == 0`.
const ZERO: i32 = 128;

/// Board offsets of the orthogonal neighbours (north, east, south, west)
/// and then the diagonals (north-east, south-east, south-west, north-west),
/// the cell order of
/// [`crate::patterns::shape::shape3_atari_from_cells`].
const ORTH: [isize; 4] = [-(STRIDE as isize), 1, STRIDE as isize, -1];
const DIAG: [isize; 4] = [
    1 - STRIDE as isize,
    1 + STRIDE as isize,
    STRIDE as isize - 1,
    -1 - (STRIDE as isize),
];

/// A board cell code (0 empty, 1 black, 2 white, 3 off the board) as a
/// state for the side to move: 0 empty, 1 own, 2 opponent, 3 off the
/// board. Row 0 for Black, row 1 for White.
const RELATIVE: [[u8; 4]; 2] = [[0, 1, 2, 3], [0, 2, 1, 3]];

/// The playout gammas as a dense table (see the module docs).
pub struct PlayoutGammas {
    /// Per index: 0 for an unknown shape, else `ZERO + round(16 ln gamma)`
    /// clamped to 1..=255.
    code: Box<[u8]>,
    /// `exp((q - ZERO) / 16)` for every stored byte `q` (0 for 0).
    value: [f32; 256],
    /// The distance gamma of a diagonal neighbour of the previous move
    /// over an orthogonal one's.
    diagonal: f32,
}

/// The dense index of the point `p` (empty, on the board) for `c` to move.
#[inline]
pub fn index(b: &Board, c: Color, p: Point) -> usize {
    let rel = &RELATIVE[c as usize - 1];
    let i = p.index() as isize;
    let mut orth = 0usize;
    for &d in ORTH.iter().rev() {
        let q = Point::from_index((i + d) as usize);
        let cell = b.cell_code(q);
        let mut s = rel[cell as usize] as usize;
        if (cell == 1 || cell == 2) && b.in_atari(q) {
            s += 3;
        }
        orth = orth * 6 + s;
    }
    let mut diag = 0usize;
    for &d in DIAG.iter().rev() {
        let q = Point::from_index((i + d) as usize);
        diag = diag * 4 + rel[b.cell_code(q) as usize] as usize;
    }
    orth + 1296 * diag
}

/// The dense index of a raw 3x3 code with atari bits only, or `None` for
/// a code with other bits (two-liberty bits, move marks) or an atari bit on
/// a cell without a stone.
fn index_of_raw(raw: u32) -> Option<usize> {
    if raw >> SHAPE3_BITS != 0 {
        return None;
    }
    let mut orth = 0usize;
    let mut diag = 0usize;
    for i in (0..4).rev() {
        let cell = (raw >> (4 * i)) & 15;
        let state = (cell & 3) as usize;
        let atari = cell & 4 != 0;
        if cell & 8 != 0 || (atari && !(state == 1 || state == 2)) {
            return None;
        }
        orth = orth * 6 + state + if atari { 3 } else { 0 };
        diag = diag * 4 + ((raw >> (16 + 2 * i)) & 3) as usize;
    }
    Some(orth + 1296 * diag)
}

/// Board offsets of the orthogonal neighbours, then the diagonals.
const AROUND: [isize; 8] = [
    -(STRIDE as isize),
    1,
    STRIDE as isize,
    -1,
    1 - STRIDE as isize,
    1 + STRIDE as isize,
    STRIDE as isize - 1,
    -1 - (STRIDE as isize),
];

/// The local step with learned ratings ([`PlayoutConfig::gammas`]): a
/// candidate next to `last` drawn by its gamma, or `None` for the random
/// move (no candidate, or the draw fell on the rest weight). Draws one
/// random number when there is a candidate, none otherwise.
pub(super) fn reply<R: Rng>(
    b: &Board,
    c: Color,
    last: Point,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Option<Point> {
    let g = PlayoutGammas::builtin();
    let i = last.index() as isize;
    let mut points = [last; 8];
    let mut weights = [0f32; 8];
    let mut n = 0;
    let mut total = 0f32;
    for (k, d) in AROUND.iter().enumerate() {
        let q = Point::from_index((i + d) as usize);
        if !b.is_empty(q) {
            continue;
        }
        let w = g.value(g.code(index(b, c, q)));
        if w < cfg.gamma_min || w == 0.0 || (cfg.gamma_shapes && !is_shape(b, q)) {
            continue;
        }
        let w = if k >= 4 { w * g.diagonal_factor() } else { w };
        points[n] = q;
        weights[n] = w;
        n += 1;
        total += w;
    }
    // Draw among the candidates and the rest; a drawn candidate that is
    // not playable or a self-atari leaves and the draw is repeated, which
    // draws from the good candidates and the rest in proportion, as
    // filtering first would, with the tests made only on drawn points.
    let rest = cfg.gamma_rest.max(0.0);
    while n > 0 {
        let unit = (rng.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32);
        let mut r = unit * (total + rest);
        let mut drawn = None;
        for (k, &w) in weights[..n].iter().enumerate() {
            if r < w {
                drawn = Some(k);
                break;
            }
            r -= w;
        }
        let k = drawn?;
        let q = points[k];
        if playable(b, c, q) && b.liberties_after(c, q, 2) >= 2 {
            return Some(q);
        }
        total -= weights[k];
        n -= 1;
        points[k] = points[n];
        weights[k] = weights[n];
    }
    None
}

#[cfg(test)]
/// The cells of a dense index: the orthogonal states, their atari bits and
/// the diagonal states, in the order of
/// [`crate::patterns::shape::shape3_atari_from_cells`].
fn cells_of(index: usize) -> ([u8; 4], [bool; 4], [u8; 4]) {
    let mut orth = [0u8; 4];
    let mut atari = [false; 4];
    let mut diag = [0u8; 4];
    let (mut o, mut d) = (index % 1296, index / 1296);
    for k in 0..4 {
        let s = (o % 6) as u8;
        o /= 6;
        orth[k] = if s >= 4 { s - 3 } else { s };
        atari[k] = s >= 4;
        diag[k] = (d % 4) as u8;
        d /= 4;
    }
    (orth, atari, diag)
}

impl PlayoutGammas {
    /// The dense table of `table`'s [`Family::Shape3`] gammas (keyed as
    /// [`crate::patterns::shape::shape3_atari`]) and its distance gammas:
    /// each shape's gamma goes to the indices of its 8 symmetric forms.
    pub fn from_table(table: &PatternTable) -> PlayoutGammas {
        let mut code = vec![0u8; INDICES].into_boxed_slice();
        for (key, g) in table.features(Family::Shape3) {
            let q = (ZERO + (STEPS * g.ln()).round() as i32).clamp(1, 255) as u8;
            for raw in shape3_symmetries(key as u32) {
                if let Some(i) = index_of_raw(raw) {
                    code[i] = q;
                }
            }
        }
        let mut value = [0f32; 256];
        for (q, v) in value.iter_mut().enumerate().skip(1) {
            *v = ((q as i32 - ZERO) as f32 / STEPS).exp();
        }
        let dist = |d: u64| table.gamma(Family::DistPrev, d).unwrap_or(1.0);
        PlayoutGammas {
            code,
            value,
            diagonal: dist(3) / dist(2),
        }
    }

    /// The table built into the binary (`data/playout-gammas.tsv`), made
    /// once.
    ///
    /// # Panics
    /// If the built-in table does not parse (a test guards against it).
    pub fn builtin() -> &'static PlayoutGammas {
        static TABLE: OnceLock<PlayoutGammas> = OnceLock::new();
        TABLE.get_or_init(|| {
            let t = PatternTable::parse(BUILTIN).expect("built-in playout gammas");
            PlayoutGammas::from_table(&t)
        })
    }

    /// The stored byte at a dense index: 0 for a shape never seen, else
    /// larger for a larger gamma.
    #[inline]
    pub fn code(&self, index: usize) -> u8 {
        self.code[index]
    }

    /// The gamma of a stored byte (0 for 0).
    #[inline]
    pub fn value(&self, code: u8) -> f32 {
        self.value[code as usize]
    }

    /// The gamma of the point `p` for `c`: its shape's gamma, 0 if unseen.
    pub fn gamma(&self, b: &Board, c: Color, p: Point) -> f32 {
        self.value(self.code(index(b, c, p)))
    }

    /// The distance gamma of a neighbour of the previous move relative to
    /// an orthogonal one: 1 for an orthogonal neighbour, less (about 0.8)
    /// for a diagonal one.
    #[inline]
    pub fn diagonal_factor(&self) -> f32 {
        self.diagonal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::shape::{canonical_shape3, shape3_atari, shape3_atari_from_cells};
    use crate::playout::policy::choose_move;
    use rand_xoshiro::rand_core::SeedableRng;

    /// White D5 between black C5 and E5 on 7x7.
    const HANE: &str = "
            . . . . . . .
            . . . . . . .
            . . X O X . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";

    fn at(b: &Board, v: &str) -> Point {
        b.test_point(v)
    }

    #[test]
    fn dense_index_agrees_with_the_canonical_code() {
        // Every empty point of a position with chains in atari on both
        // sides and edges: the dense table's gamma is the table's gamma of
        // the canonical code, for both sides to move.
        let b = Board::from_diagram(
            "
            . X O . . . .
            X O . O X . .
            . X O X . . .
            . . X . . O .
            . O . . . . .
            . . . X O . .
            . . . . . . .",
        )
        .unwrap();
        let table = PatternTable::parse(BUILTIN).unwrap();
        let g = PlayoutGammas::builtin();
        let mut seen = 0;
        for y in 0..7 {
            for x in 0..7 {
                let p = Point::new(x, y);
                if !b.is_empty(p) {
                    continue;
                }
                for c in [Color::Black, Color::White] {
                    let key = shape3_atari(&b, c, p);
                    let want = table.gamma(Family::Shape3, u64::from(key));
                    let got = g.gamma(&b, c, p);
                    match want {
                        None => assert_eq!(got, 0.0),
                        Some(w) => {
                            seen += 1;
                            assert!((got / w - 1.0).abs() < 0.04, "{x},{y}: {got} vs {w}");
                        }
                    }
                }
            }
        }
        assert!(seen > 40, "{seen}");
    }

    #[test]
    fn symmetric_build_fills_what_canonicalising_every_index_fills() {
        // The slow way: canonicalise each of the 331,776 indices.
        let table = PatternTable::parse(BUILTIN).unwrap();
        let fast = PlayoutGammas::from_table(&table);
        for i in 0..INDICES {
            let (orth, atari, diag) = cells_of(i);
            let raw = shape3_atari_from_cells(orth, atari, diag);
            assert_eq!(index_of_raw(raw), Some(i));
            let key = canonical_shape3(raw);
            let want = table.gamma(Family::Shape3, u64::from(key)).map_or(0, |g| {
                (ZERO + (STEPS * g.ln()).round() as i32).clamp(1, 255) as u8
            });
            assert_eq!(fast.code(i), want, "index {i}");
        }
    }

    #[test]
    fn index_reads_colours_relative_to_the_mover() {
        // The same shape with colours swapped reads the same for the other
        // side; a stone in atari is not a stone with liberties.
        let b = Board::from_diagram(
            "
            . . . . .
            . X O . .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let w = Board::from_diagram(
            "
            . . . . .
            . O X . .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let p = b.test_point("B3");
        assert_eq!(index(&b, Color::Black, p), index(&w, Color::White, p));
        assert_ne!(index(&b, Color::Black, p), index(&b, Color::White, p));
        // White B4 is in atari (its last liberty B5): B5 reads it as an
        // opponent stone in atari to the south, the edge to the north.
        let atari = Board::from_diagram(
            "
            . . . . .
            X O X . .
            . X . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let q = atari.test_point("B5");
        let (orth, at, diag) = cells_of(index(&atari, Color::Black, q));
        assert_eq!(orth, [3, 0, 2, 0]);
        assert_eq!(at, [false, false, true, false]);
        assert_eq!(diag, [3, 1, 1, 3]);
        let (orth, at, _) = cells_of(index(&atari, Color::White, q));
        assert_eq!(orth, [3, 0, 1, 0]);
        assert_eq!(at, [false, false, true, false]);
    }

    #[test]
    fn builtin_gammas_are_learned() {
        let g = PlayoutGammas::builtin();
        let used = g.code.iter().filter(|&&q| q != 0).count();
        assert!(used > 1000, "{used}");
        assert!((0.5..1.0).contains(&g.diagonal_factor()));
        // Capturing a lone stone in atari (opponent stone in atari to the
        // north, own stones around it) beats the empty-board shape.
        let cap = Board::from_diagram(
            "
            . . X . .
            . X O X .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let empty = Board::from_diagram(
            "
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let p = cap.test_point("C3");
        let gc = g.gamma(&cap, Color::Black, p);
        let ge = g.gamma(&empty, Color::Black, p);
        assert!(gc > 10.0 * ge, "{gc} vs {ge}");
        assert_eq!(g.value(ZERO as u8), 1.0);
        assert_eq!(g.value(0), 0.0);
    }

    #[test]
    fn gamma_step_plays_rated_local_moves_and_falls_through() {
        // White E5 was just played next to Black D5. With no rest weight
        // the move is always one of its empty neighbours (diagonals too)
        // whose gamma reaches the minimum, never a self-atari; with a huge
        // minimum there is no candidate and the random move follows.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . X O . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        let last = at(&b, "E5");
        let g = PlayoutGammas::builtin();
        let cfg = PlayoutConfig {
            atari_prob: 0.0,
            gammas: true,
            gamma_rest: 0.0,
            ..PlayoutConfig::default()
        };
        // A move's offset from the last move.
        let offset = |m: Point| {
            (
                m.x() as i32 - last.x() as i32,
                m.y() as i32 - last.y() as i32,
            )
        };
        let mut counts = std::collections::HashMap::new();
        for seed in 0..400 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = b.clone();
            let m = choose_move(&mut bb, Color::Black, Some(last), &mut rng, &cfg).expect("a move");
            let (dx, dy) = offset(m);
            assert!(dx.abs() <= 1 && dy.abs() <= 1, "seed {seed}: {m:?}");
            assert!(g.gamma(&b, Color::Black, m) >= cfg.gamma_min);
            assert!(b.liberties_after(Color::Black, m, 2) >= 2);
            *counts.entry(m).or_insert(0usize) += 1;
        }
        // Drawn in proportion to the weights (gamma, times the diagonal
        // factor off the lines of the last move).
        let weight = |x: Point| {
            let d = x.x() != last.x() && x.y() != last.y();
            g.gamma(&b, Color::Black, x) * if d { g.diagonal_factor() } else { 1.0 }
        };
        let sum: f32 = counts.keys().map(|&p| weight(p)).sum();
        for (&p, &n) in &counts {
            let share = weight(p) / sum;
            let seen = n as f32 / 400.0;
            assert!((seen - share).abs() < 0.07, "{p:?}: {seen} vs {share}");
        }
        assert!(counts.len() >= 2, "{counts:?}");
        // No candidate reaches the minimum: the random move, anywhere.
        let none = PlayoutConfig {
            gamma_min: 1e9,
            ..cfg.clone()
        };
        let mut far = 0;
        for seed in 0..100 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = b.clone();
            let m =
                choose_move(&mut bb, Color::Black, Some(last), &mut rng, &none).expect("a move");
            let (dx, dy) = offset(m);
            far += usize::from(dx.abs() > 1 || dy.abs() > 1);
        }
        assert!(far > 70, "{far}");
    }

    #[test]
    fn gammas_off_draws_what_the_shapes_draw() {
        // The knob off is the shape step: the same moves, seed for seed,
        // as a configuration whose gamma settings differ.
        let b = Board::from_diagram(HANE).unwrap();
        let last = at(&b, "D5");
        let off = PlayoutConfig::default();
        let tuned = PlayoutConfig {
            gamma_rest: 50.0,
            gamma_min: 0.0,
            ..PlayoutConfig::default()
        };
        for seed in 0..50 {
            let mut r1 = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut r2 = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (mut b1, mut b2) = (b.clone(), b.clone());
            let m1 = choose_move(&mut b1, Color::White, Some(last), &mut r1, &off);
            let m2 = choose_move(&mut b2, Color::White, Some(last), &mut r2, &tuned);
            assert_eq!(m1, m2, "seed {seed}");
            assert_eq!(
                r1.next_u64(),
                r2.next_u64(),
                "seed {seed}: the streams part"
            );
        }
    }
}

//! Shape codes around a point: the 3x3 square with the liberty status (one,
//! two, more) of the four orthogonal neighbours, and larger patterns (the points within a
//! distance of 3 to 14 in Coulom's measure `dx + dy + max(dx, dy)`: from
//! the 3x3 square to roughly a diamond of radius 7). Both are read relative to the side to move (own,
//! opponent), so a shape and its colour-swapped twin with the other side to
//! move read the same, and both are made canonical under the 8 symmetries of
//! the square (the smallest code over the 8 transforms).
//!
//! Cell states: 0 empty, 1 own stone, 2 opponent stone, 3 off the board.

use crate::board::Board;
use crate::color::Color;
use crate::point::Point;
use std::sync::OnceLock;

/// The 8 symmetries of the square as functions of an offset `(dx, dy)`:
/// identity, the three rotations, and the four reflections.
/// A symmetry of the square, as a map of offsets.
type Transform = fn(i32, i32) -> (i32, i32);

const TRANSFORMS: [Transform; 8] = [
    |x, y| (x, y),
    |x, y| (-y, x),
    |x, y| (-x, -y),
    |x, y| (y, -x),
    |x, y| (-x, y),
    |x, y| (x, -y),
    |x, y| (y, x),
    |x, y| (-y, -x),
];

/// Orthogonal neighbours first (N, E, S, W), then diagonals (NE, SE, SW, NW):
/// the order of the cells in a 3x3 code.
const SQUARE: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Bits of a raw 3x3 code: 4 bits per orthogonal cell (state, then the
/// atari bit at 4 and the two-liberty bit at 8), 2 bits per diagonal cell.
pub const SHAPE3_BITS: u32 = 24;

/// Where cell `i` of [`SQUARE`] sits in a raw 3x3 code, and its width mask.
#[inline]
fn cell_slot(i: usize) -> (u32, u32) {
    if i < 4 {
        (4 * i as u32, 15)
    } else {
        (16 + 2 * (i as u32 - 4), 3)
    }
}

/// The distance that orders the points of the large patterns: Coulom's
/// `dx + dy + max(dx, dy)`, whose balls are rounder than diamonds.
#[inline]
pub fn pattern_distance(dx: i32, dy: i32) -> i32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    ax + ay + ax.max(ay)
}

/// The sizes of the large patterns: the points within these distances
/// ([`pattern_distance`]) of the move, smallest first. Size 3 is the 3x3
/// square without atari bits.
pub const PATTERN_SIZES: [i32; 12] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

/// Number of large pattern sizes.
pub const LEVELS: usize = PATTERN_SIZES.len();

/// The state of `(x + dx, y + dy)` for the side `me`: 0 empty, 1 own, 2
/// opponent, 3 off the board.
#[inline]
fn state_at(board: &Board, me: Color, x: i32, y: i32) -> u8 {
    let n = board.size() as i32;
    if x < 0 || y < 0 || x >= n || y >= n {
        return 3;
    }
    match board.get(Point::new(x as usize, y as usize)) {
        None => 0,
        Some(c) if c == me => 1,
        Some(_) => 2,
    }
}

/// The raw (not canonical) 3x3 code around the empty point `p` for the side
/// to move `me`: each cell's state, and for a stone next to `p` whether its
/// chain has one liberty or two.
pub fn shape3_raw(board: &Board, me: Color, p: Point) -> u32 {
    raw_with(board, me, p, |q| match board.liberties(q) {
        1 => 4,
        2 => 8,
        _ => 0,
    })
}

/// The raw 3x3 code around `p`: each cell's state, with `bits(q)` added
/// to the cell of each stone `q` next to `p`.
#[inline]
fn raw_with(board: &Board, me: Color, p: Point, bits: impl Fn(Point) -> u32) -> u32 {
    let (x, y) = (p.x() as i32, p.y() as i32);
    let mut code = 0u32;
    for (i, &(dx, dy)) in SQUARE.iter().enumerate() {
        let mut cell = state_at(board, me, x + dx, y + dy) as u32;
        if i < 4 && (cell == 1 || cell == 2) {
            cell |= bits(Point::new((x + dx) as usize, (y + dy) as usize));
        }
        code |= cell << cell_slot(i).0;
    }
    code
}

/// For each transform, where each of the 8 square cells goes.
fn square_perms() -> &'static [[usize; 8]; 8] {
    static PERMS: OnceLock<[[usize; 8]; 8]> = OnceLock::new();
    PERMS.get_or_init(|| {
        let mut perms = [[0usize; 8]; 8];
        for (t, f) in TRANSFORMS.iter().enumerate() {
            for (i, &(dx, dy)) in SQUARE.iter().enumerate() {
                let to = f(dx, dy);
                perms[t][i] = SQUARE.iter().position(|&o| o == to).expect("a symmetry");
            }
        }
        perms
    })
}

/// A raw 3x3 code under the transform given by `perm`.
fn transform_shape3(code: u32, perm: &[usize; 8]) -> u32 {
    let mut out = 0u32;
    for shift in [SHAPE3_BITS, SHAPE3_BITS + 4] {
        let marker = (code >> shift) & 15;
        if marker != 0 {
            out |= (perm[marker as usize - 1] as u32 + 1) << shift;
        }
    }
    for (i, &to) in perm.iter().enumerate() {
        let (from_shift, mask) = cell_slot(i);
        let cell = (code >> from_shift) & mask;
        out |= cell << cell_slot(to).0;
    }
    out
}

/// A raw 3x3 code under each of the 8 symmetries of the square (the
/// identity first): every raw code whose canonical form is
/// `canonical_shape3(code)` is among them.
pub fn shape3_symmetries(code: u32) -> [u32; 8] {
    let perms = square_perms();
    std::array::from_fn(|t| transform_shape3(code, &perms[t]))
}

/// Swaps own and opponent in a raw 3x3 code (the same cells seen by the
/// other side).
pub fn swap_shape3(code: u32) -> u32 {
    let mut out = code & (255 << SHAPE3_BITS);
    for i in 0..8 {
        let (shift, mask) = cell_slot(i);
        let cell = (code >> shift) & mask;
        let state = match cell & 3 {
            1 => 2,
            2 => 1,
            other => other,
        };
        out |= ((cell & !3) | state) << shift;
    }
    out
}

/// The canonical form of a raw 3x3 code: the smallest code among its 8
/// transforms.
pub fn canonical_shape3(raw: u32) -> u32 {
    square_perms()
        .iter()
        .map(|p| transform_shape3(raw, p))
        .min()
        .expect("8 transforms")
}

/// The canonical 3x3 code around the empty point `p` for the side to move,
/// with the cell of the previous move `last` marked (4 bits above the
/// [`SHAPE3_BITS`]: 0 when `last` is not one of the 8 cells, else its
/// index in the square plus 1).
pub fn shape3_with_last(board: &Board, me: Color, p: Point, last: Option<Point>) -> u32 {
    shape3_with_moves(board, me, p, last, None)
}

/// As [`shape3_with_last`], with the cell of the move before the previous
/// one marked too (the next 4 bits).
pub fn shape3_with_moves(
    board: &Board,
    me: Color,
    p: Point,
    last: Option<Point>,
    last2: Option<Point>,
) -> u32 {
    let mut raw = shape3_raw(board, me, p);
    for (q, shift) in [(last, SHAPE3_BITS), (last2, SHAPE3_BITS + 4)] {
        let Some(q) = q else {
            continue;
        };
        let (dx, dy) = (q.x() as i32 - p.x() as i32, q.y() as i32 - p.y() as i32);
        if let Some(i) = SQUARE.iter().position(|&o| o == (dx, dy)) {
            raw |= (i as u32 + 1) << shift;
        }
    }
    canonical_shape3(raw)
}

/// The raw 3x3 code of the playout policy around the empty point `p` for
/// the side to move: each cell's state, and for a stone next to `p` only
/// whether its chain is in atari (bit 4 of its cell; no two-liberty bit, no
/// move marks). Constant time: the atari test reads the chain's liberty
/// sums.
pub fn shape3_atari_raw(board: &Board, me: Color, p: Point) -> u32 {
    raw_with(board, me, p, |q| if board.in_atari(q) { 4 } else { 0 })
}

/// The canonical form of [`shape3_atari_raw`]: the key of the playout
/// gammas (`kosumi patterns train --playout-shapes`).
pub fn shape3_atari(board: &Board, me: Color, p: Point) -> u32 {
    canonical_shape3(shape3_atari_raw(board, me, p))
}

/// The raw 3x3 code with the atari bits only ([`shape3_atari_raw`]) from
/// its cells: `orth[i]` the state of the i-th orthogonal neighbour (north,
/// east, south, west; 0 empty, 1 own, 2 opponent, 3 off the board),
/// `atari[i]` whether that stone's chain is in atari, `diag[i]` the states
/// of the diagonals (north-east, south-east, south-west, north-west).
pub fn shape3_atari_from_cells(orth: [u8; 4], atari: [bool; 4], diag: [u8; 4]) -> u32 {
    let mut code = 0u32;
    for i in 0..4 {
        let mut cell = u32::from(orth[i] & 3);
        if atari[i] && (cell == 1 || cell == 2) {
            cell |= 4;
        }
        code |= cell << cell_slot(i).0;
        code |= u32::from(diag[i] & 3) << cell_slot(i + 4).0;
    }
    code
}

/// The canonical 3x3 code around the empty point `p` for the side to move.
pub fn shape3(board: &Board, me: Color, p: Point) -> u32 {
    canonical_shape3(shape3_raw(board, me, p))
}

/// The large-pattern geometry: offsets ordered by distance, where each
/// transform sends each offset, and the Zobrist-style keys per offset and
/// state.
struct Geometry {
    offsets: Vec<(i32, i32)>,
    /// Number of offsets within each of [`PATTERN_SIZES`].
    within: [usize; LEVELS],
    /// `perm[t][k]`: the index of offset k under transform t.
    #[cfg_attr(not(test), allow(dead_code))]
    perm: [Vec<u16>; 8],
    /// `keys[k * 4 + state]`.
    #[cfg_attr(not(test), allow(dead_code))]
    keys: Vec<u64>,
    /// `delta[k][state * 8 + t]`: `keys[perm[t][k] * 4 + state] ^
    /// keys[perm[t][k] * 4]`, what a non-empty cell k changes in transform
    /// t's hash (0 for an empty cell).
    delta: Vec<[u64; 32]>,
    /// `empty[level][t]`: transform t's hash when every cell within the
    /// level's size is empty.
    empty: [[u64; 8]; LEVELS],
}

/// A fixed 64-bit mixing step (splitmix64), for the pattern keys. Changing
/// the seed or this function changes every pattern code, so the built-in
/// table would have to be retrained (a test pins one code).
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| {
        let max = PATTERN_SIZES[LEVELS - 1];
        let mut offsets = Vec::new();
        for d in 1..=max {
            for dy in -max..=max {
                for dx in -max..=max {
                    if (dx, dy) != (0, 0) && pattern_distance(dx, dy) == d {
                        offsets.push((dx, dy));
                    }
                }
            }
        }
        let within = PATTERN_SIZES.map(|size| {
            offsets
                .iter()
                .filter(|&&(dx, dy)| pattern_distance(dx, dy) <= size)
                .count()
        });
        let perm: [Vec<u16>; 8] = std::array::from_fn(|t| {
            offsets
                .iter()
                .map(|&(dx, dy)| {
                    let to = TRANSFORMS[t](dx, dy);
                    offsets.iter().position(|&o| o == to).expect("a symmetry") as u16
                })
                .collect()
        });
        let mut seed = 0x6B6F_7375_6D69_0001u64; // "kosumi" + 1
        let keys: Vec<u64> = (0..offsets.len() * 4)
            .map(|_| splitmix64(&mut seed))
            .collect();
        let delta = (0..offsets.len())
            .map(|k| {
                let mut d = [0u64; 32];
                for s in 0..4 {
                    for t in 0..8 {
                        let j = perm[t][k] as usize * 4;
                        d[s * 8 + t] = keys[j + s] ^ keys[j];
                    }
                }
                d
            })
            .collect();
        let mut empty = [[0u64; 8]; LEVELS];
        let mut h = [0u64; 8];
        let mut k = 0;
        for (level, &end) in within.iter().enumerate() {
            while k < end {
                for t in 0..8 {
                    h[t] ^= keys[perm[t][k] as usize * 4];
                }
                k += 1;
            }
            empty[level] = h;
        }
        Geometry {
            offsets,
            within,
            perm,
            keys,
            delta,
            empty,
        }
    })
}

/// The canonical codes of the large patterns around the empty point `p` for
/// the side to move, one per size of [`PATTERN_SIZES`] (smallest first).
/// The size's index is in the top 4 bits of each code, so codes of
/// different sizes never meet, and no code is 0.
pub fn large_patterns(board: &Board, me: Color, p: Point) -> [u64; LEVELS] {
    // Each transform's hash is the all-empty hash of the size, changed by
    // the non-empty cells only: on a sparse board most cells cost one read.
    let g = geometry();
    let (x, y) = (p.x() as i32, p.y() as i32);
    let mut h = [0u64; 8];
    let mut best = [0u64; LEVELS];
    let mut k = 0;
    for (level, &end) in g.within.iter().enumerate() {
        while k < end {
            let (dx, dy) = g.offsets[k];
            let s = state_at(board, me, x + dx, y + dy) as usize;
            if s != 0 {
                let d = &g.delta[k][s * 8..s * 8 + 8];
                for t in 0..8 {
                    h[t] ^= d[t];
                }
            }
            k += 1;
        }
        let e = &g.empty[level];
        let mut m = u64::MAX;
        for t in 0..8 {
            m = m.min((e[t] ^ h[t]) >> 4);
        }
        best[level] = m | ((level as u64 + 1) << 60);
    }
    best
}

/// The stones of one board for one side to move as bitmasks per row and
/// side, filled once per position and read for every candidate by
/// [`large_hashes_grid`].
#[derive(Clone)]
pub(crate) struct StateGrid {
    size: usize,
    /// Per row, the columns of its stones as bits: own stones at index 0,
    /// opponent stones at index 1.
    rows: [[u32; 2]; crate::point::MAX_SIZE],
}

impl StateGrid {
    /// An empty grid (size 0: fill it before use).
    pub(crate) fn new() -> StateGrid {
        StateGrid {
            size: 0,
            rows: [[0; 2]; crate::point::MAX_SIZE],
        }
    }

    /// Reads `board` for the side to move `me`.
    pub(crate) fn fill(&mut self, board: &Board, me: Color) {
        let n = board.size();
        self.size = n;
        self.rows = [[0; 2]; crate::point::MAX_SIZE];
        for y in 0..n {
            for x in 0..n {
                match board.get(Point::new(x, y)) {
                    None => {}
                    Some(c) if c == me => self.rows[y][0] |= 1 << x,
                    Some(_) => self.rows[y][1] |= 1 << x,
                }
            }
        }
    }
}

/// What [`large_hashes_grid`] reads besides the grid: per offset what an
/// own or opponent stone there changes in each transform's hash, where
/// each offset lies, and per board size and point the hashes of the
/// pattern with every on-board cell empty (the off-board cells included).
struct GridGeometry {
    /// `delta[k + 1][state]`: what a cell in that state at offset k
    /// changes in each transform's hash: the [`Geometry`]'s `delta` for
    /// the stones, nothing for an empty cell, and nothing at all in entry
    /// 0 (no offset).
    delta: Vec<[[u64; 8]; 3]>,
    /// `slot[(dy + 7) * SLOT_W + dx + MAX_SIZE - 1]` for `|dy| <= 7` and
    /// any `dx` between two points of a board: 1 + the index k of the
    /// offset `(dx, dy)`, 0 for the centre and the cells outside every
    /// pattern.
    slot: Vec<u8>,
    /// `level[k + 1]`: the smallest level whose size holds offset k (0
    /// for entry 0).
    level: Vec<u8>,
    /// `reach[|dy|]`: the largest `|dx|` of an offset `(dx, dy)`.
    reach: [usize; 8],
    /// Per size (index `size - 2`), per point `y * size + x`, per level,
    /// per transform: the hash with only the off-board cells filled in.
    base: [OnceLock<Vec<[[u64; 8]; LEVELS]>>; crate::point::MAX_SIZE - 1],
}

/// Width of [`GridGeometry::slot`]'s rows: every column difference on the
/// largest board.
const SLOT_W: usize = 2 * crate::point::MAX_SIZE - 1;

fn grid_geometry() -> &'static GridGeometry {
    static G: OnceLock<GridGeometry> = OnceLock::new();
    G.get_or_init(|| {
        let g = geometry();
        let mut delta = vec![[[0u64; 8]; 3]];
        for d in &g.delta {
            let mut e = [[0u64; 8]; 3];
            for (s, row) in e.iter_mut().enumerate().skip(1) {
                row.copy_from_slice(&d[s * 8..s * 8 + 8]);
            }
            delta.push(e);
        }
        let mut slot = vec![0u8; 15 * SLOT_W];
        for (k, &(dx, dy)) in g.offsets.iter().enumerate() {
            slot[(dy + 7) as usize * SLOT_W + (dx + crate::point::MAX_SIZE as i32 - 1) as usize] =
                k as u8 + 1;
        }
        let mut level = vec![0u8];
        level.extend(
            (0..g.offsets.len())
                .map(|k| g.within.iter().position(|&end| k < end).expect("a level") as u8),
        );
        GridGeometry {
            delta,
            slot,
            level,
            reach: std::array::from_fn(|ady| {
                g.offsets
                    .iter()
                    .filter(|o| o.1.unsigned_abs() as usize == ady)
                    .map(|o| o.0.unsigned_abs() as usize)
                    .max()
                    .unwrap_or(0)
            }),
            base: [const { OnceLock::new() }; crate::point::MAX_SIZE - 1],
        }
    })
}

/// The all-empty hashes of every point of a board of `size`, off-board
/// cells included (see [`GridGeometry::base`]).
fn grid_bases(size: usize) -> &'static [[[u64; 8]; LEVELS]] {
    grid_geometry().base[size - 2].get_or_init(|| {
        let g = geometry();
        let n = size as i32;
        let mut out = Vec::with_capacity(size * size);
        for y in 0..n {
            for x in 0..n {
                let mut h = [0u64; 8];
                let mut per_level = [[0u64; 8]; LEVELS];
                let mut k = 0;
                for (level, &end) in g.within.iter().enumerate() {
                    while k < end {
                        let (dx, dy) = g.offsets[k];
                        let (qx, qy) = (x + dx, y + dy);
                        if qx < 0 || qy < 0 || qx >= n || qy >= n {
                            let d = &g.delta[k][3 * 8..4 * 8];
                            for t in 0..8 {
                                h[t] ^= d[t];
                            }
                        }
                        k += 1;
                    }
                    for t in 0..8 {
                        per_level[level][t] = g.empty[level][t] ^ h[t];
                    }
                }
                out.push(per_level);
            }
        }
        out
    })
}

/// The large-pattern hashes of one point before the minimum over the
/// transforms: per level, per transform.
pub(crate) struct LargeHashes {
    h: [[u64; 8]; LEVELS],
}

impl LargeHashes {
    /// The code of the size with index `level` ([`large_patterns`]'s
    /// `level`th code).
    #[inline]
    pub(crate) fn code(&self, level: usize) -> u64 {
        let h = &self.h[level];
        let mut m = u64::MAX;
        for x in h {
            m = m.min(x >> 4);
        }
        m | ((level as u64 + 1) << 60)
    }

    /// Every size's code, smallest first.
    pub(crate) fn codes(&self) -> [u64; LEVELS] {
        std::array::from_fn(|level| self.code(level))
    }
}

/// [`large_patterns`] read from a filled [`StateGrid`] (the same codes).
#[cfg(test)]
pub(crate) fn large_patterns_grid(grid: &StateGrid, p: Point) -> [u64; LEVELS] {
    large_hashes_grid(grid, p).codes()
}

/// The columns of row `y` within a large pattern around `(px, py)`
/// (`|y - py| <= 7`): the pattern's cells of the row, exactly.
#[inline]
fn reach_mask(gg: &GridGeometry, px: usize, py: usize, y: usize) -> u32 {
    let r = gg.reach[y.abs_diff(py)];
    let lo = px.saturating_sub(r);
    let hi = px + r; // at most 31
    (((1u64 << (hi + 1)) - 1) as u32) & !((1u32 << lo) - 1)
}

/// The hashes behind [`large_patterns`] of the empty point `p` of the
/// board in `grid`, with the codes computed on demand: the off-board
/// cells come from a table per board size and point, and only the stones
/// within the pattern cost work (each one's change into its level, then
/// the levels summed).
pub(crate) fn large_hashes_grid(grid: &StateGrid, p: Point) -> LargeHashes {
    let gg = grid_geometry();
    let n = grid.size;
    let (px, py) = (p.x(), p.y());
    let mut out = LargeHashes {
        h: grid_bases(n)[py * n + px],
    };
    let mut acc = [[0u64; 8]; LEVELS];
    for y in py.saturating_sub(7)..(py + 8).min(n) {
        let mask = reach_mask(gg, px, py, y);
        let row = (y + 7 - py) * SLOT_W + crate::point::MAX_SIZE - 1 - px;
        for (s, &bits) in grid.rows[y].iter().enumerate() {
            let mut m = bits & mask;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let k = gg.slot[row + x] as usize;
                let d = &gg.delta[k][s + 1];
                let a = &mut acc[gg.level[k] as usize];
                for t in 0..8 {
                    a[t] ^= d[t];
                }
            }
        }
    }
    let mut h = [0u64; 8];
    for (level, a) in acc.iter().enumerate() {
        for t in 0..8 {
            h[t] ^= a[t];
            out.h[level][t] ^= h[t];
        }
    }
    out
}

/// Per transform, the transformed code of each byte of the three low
/// bytes of a raw 3x3 code, and of each previous-move marker.
struct Shape3Tables {
    bytes: [[[u32; 256]; 3]; 8],
    /// `marker[t][m]`: marker value `m` (0..=8) under transform t.
    marker: [[u32; 16]; 8],
}

fn shape3_tables() -> &'static Shape3Tables {
    static T: OnceLock<Shape3Tables> = OnceLock::new();
    T.get_or_init(|| {
        let perms = square_perms();
        let mut t = Shape3Tables {
            bytes: [[[0; 256]; 3]; 8],
            marker: [[0; 16]; 8],
        };
        for (ti, perm) in perms.iter().enumerate() {
            for byte in 0..3 {
                for v in 0..256u32 {
                    t.bytes[ti][byte][v as usize] = transform_shape3(v << (8 * byte), perm);
                }
            }
            for m in 0..=8u32 {
                t.marker[ti][m as usize] = transform_shape3(m << SHAPE3_BITS, perm) >> SHAPE3_BITS;
            }
        }
        t
    })
}

/// [`canonical_shape3`] by table lookups (the same codes): a cell of a raw
/// code never straddles a byte, so a transform is the OR of its bytes'
/// transforms.
pub(crate) fn canonical_shape3_fast(raw: u32) -> u32 {
    let t = shape3_tables();
    let b = [raw & 255, (raw >> 8) & 255, (raw >> 16) & 255];
    let (m1, m2) = (
        ((raw >> SHAPE3_BITS) & 15) as usize,
        ((raw >> (SHAPE3_BITS + 4)) & 15) as usize,
    );
    let mut best = u32::MAX;
    for ti in 0..8 {
        let bytes = &t.bytes[ti];
        let code = bytes[0][b[0] as usize]
            | bytes[1][b[1] as usize]
            | bytes[2][b[2] as usize]
            | t.marker[ti][m1] << SHAPE3_BITS
            | t.marker[ti][m2] << (SHAPE3_BITS + 4);
        best = best.min(code);
    }
    best
}

/// The marker of a previous move at `q` in the 3x3 square around `p`: its
/// index in [`SQUARE`] plus 1, or 0 when it is not one of the 8 cells.
pub(crate) fn square_marker(p: Point, q: Option<Point>) -> u32 {
    let Some(q) = q else {
        return 0;
    };
    let (dx, dy) = (q.x() as i32 - p.x() as i32, q.y() as i32 - p.y() as i32);
    SQUARE
        .iter()
        .position(|&o| o == (dx, dy))
        .map_or(0, |i| i as u32 + 1)
}

/// Where the cells of a raw 3x3 code lie around a point, as steps in the
/// board's padded layout, in [`SQUARE`] order.
pub(crate) fn square_steps() -> [isize; 8] {
    SQUARE.map(|(dx, dy)| dy as isize * crate::point::STRIDE as isize + dx as isize)
}

/// [`large_patterns`] the direct way (every cell, every transform), to
/// check the fast one against.
#[cfg(test)]
fn large_patterns_direct(board: &Board, me: Color, p: Point) -> [u64; LEVELS] {
    let g = geometry();
    let (x, y) = (p.x() as i32, p.y() as i32);
    let mut states = [0u8; 256];
    for (k, &(dx, dy)) in g.offsets.iter().enumerate() {
        states[k] = state_at(board, me, x + dx, y + dy);
    }
    let mut best = [u64::MAX; LEVELS];
    for perm in &g.perm {
        let mut h = 0u64;
        let mut k = 0;
        for (level, &end) in g.within.iter().enumerate() {
            while k < end {
                h ^= g.keys[perm[k] as usize * 4 + states[k] as usize];
                k += 1;
            }
            let code = (h >> 4) | ((level as u64 + 1) << 60);
            if code < best[level] {
                best[level] = code;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded position with about `fill` of the points taken: random
    /// candidate moves from the empty board.
    fn middle_game(size: usize, fill: f64, seed: u64) -> Board {
        use rand_xoshiro::rand_core::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut b = Board::new(size).expect("size");
        let mut c = Color::Black;
        let target = (fill * (size * size) as f64) as usize;
        for _ in 0..10 * size * size {
            if b.points().filter(|&p| !b.is_empty(p)).count() >= target {
                break;
            }
            let moves: Vec<Point> = crate::patterns::candidate_points(&b, c).collect();
            if moves.is_empty() {
                break;
            }
            b.play_unchecked(c, moves[(rng.next_u64() % moves.len() as u64) as usize]);
            c = c.opponent();
        }
        b
    }

    fn board(diagram: &str) -> Board {
        Board::from_diagram(diagram).expect("diagram")
    }

    /// The 8 transforms of a diagram board (x, y) -> t(x, y) about the centre.
    fn transformed(b: &Board, t: usize) -> Board {
        let n = b.size() as i32;
        let mut out = Board::new(b.size()).expect("size");
        let c = n - 1;
        for p in b.points() {
            if let Some(col) = b.get(p) {
                let (dx, dy) = (2 * p.x() as i32 - c, 2 * p.y() as i32 - c);
                let (tx, ty) = TRANSFORMS[t](dx, dy);
                let q = Point::new(((tx + c) / 2) as usize, ((ty + c) / 2) as usize);
                out.set(q, Some(col)).expect("set");
            }
        }
        out
    }

    fn transform_point(p: Point, n: usize, t: usize) -> Point {
        let c = n as i32 - 1;
        let (dx, dy) = (2 * p.x() as i32 - c, 2 * p.y() as i32 - c);
        let (tx, ty) = TRANSFORMS[t](dx, dy);
        Point::new(((tx + c) / 2) as usize, ((ty + c) / 2) as usize)
    }

    fn swapped(b: &Board) -> Board {
        let mut out = Board::new(b.size()).expect("size");
        for p in b.points() {
            if let Some(col) = b.get(p) {
                out.set(p, Some(col.opponent())).expect("set");
            }
        }
        out
    }

    const SAMPLE: &str = "
        . . . . . . .
        . X O . . . .
        . O X X . . .
        . . . . O . .
        . X . O X . .
        . . . . . . .
        . . . . . . .
    ";

    #[test]
    fn shapes_are_invariant_under_symmetries_and_colour_swap() {
        let b = board(SAMPLE);
        let n = b.size();
        let mut distinct = std::collections::BTreeSet::new();
        for p in b.points().filter(|&p| b.is_empty(p)) {
            let s = shape3(&b, Color::Black, p);
            let d = large_patterns(&b, Color::Black, p);
            distinct.insert(d[LEVELS - 1]);
            for t in 0..8 {
                let bt = transformed(&b, t);
                let q = transform_point(p, n, t);
                assert_eq!(shape3(&bt, Color::Black, q), s, "3x3 at {p:?}, t {t}");
                assert_eq!(
                    large_patterns(&bt, Color::Black, q),
                    d,
                    "large at {p:?}, t {t}"
                );
                let sw = swapped(&bt);
                assert_eq!(shape3(&sw, Color::White, q), s, "swap 3x3 {p:?} t {t}");
                assert_eq!(large_patterns(&sw, Color::White, q), d, "swap large {p:?}");
            }
        }
        // The codes still tell shapes apart.
        assert!(
            distinct.len() > 10,
            "only {} distinct large patterns",
            distinct.len()
        );
    }

    #[test]
    fn own_and_opponent_differ_and_atari_shows() {
        let b = board(
            "
            . . . . .
            . . X . .
            . . . . .
            . . . . .
            . . . . .
        ",
        );
        let p = Point::new(2, 2);
        assert_ne!(shape3(&b, Color::Black, p), shape3(&b, Color::White, p));
        let raw = shape3_raw(&b, Color::Black, p);
        assert_eq!(swap_shape3(raw), shape3_raw(&b, Color::White, p));
        // The same stone in atari gives another code.
        let a = board(
            "
            . . O . .
            . O X O .
            . . . . .
            . . . . .
            . . . . .
        ",
        );
        assert_eq!(shape3_raw(&a, Color::Black, p) & 15, 1 | 4);
        assert_eq!(shape3_raw(&b, Color::Black, p) & 15, 1);
        // And with two liberties, another again.
        let two = board(
            "
            . . O . .
            . O X . .
            . . . . .
            . . . . .
            . . . . .
        ",
        );
        assert_eq!(shape3_raw(&two, Color::Black, p) & 15, 1 | 8);
        assert_ne!(shape3(&two, Color::Black, p), shape3(&a, Color::Black, p));
    }

    #[test]
    fn previous_move_marker_follows_the_symmetries() {
        let b = Board::new(9).expect("size");
        let p = Point::new(4, 4);
        let north = shape3_with_last(&b, Color::Black, p, Some(Point::new(4, 3)));
        let east = shape3_with_last(&b, Color::Black, p, Some(Point::new(5, 4)));
        let diag = shape3_with_last(&b, Color::Black, p, Some(Point::new(5, 5)));
        let far = shape3_with_last(&b, Color::Black, p, Some(Point::new(0, 0)));
        assert_eq!(north, east);
        assert_ne!(north, diag);
        assert_eq!(far, shape3(&b, Color::Black, p));
        assert_ne!(north, far);
        // Both previous moves: the pair's geometry counts, not its turn.
        let (n, e, s) = (Point::new(4, 3), Point::new(5, 4), Point::new(4, 5));
        let ne = shape3_with_moves(&b, Color::Black, p, Some(n), Some(e));
        let en = shape3_with_moves(&b, Color::Black, p, Some(e), Some(n));
        let ns = shape3_with_moves(&b, Color::Black, p, Some(n), Some(s));
        assert_eq!(ne, en);
        assert_ne!(ne, ns);
        assert_ne!(ne, north);
    }

    #[test]
    fn pattern_sizes_nest_and_codes_are_pinned() {
        let b = Board::new(19).expect("size");
        let d = large_patterns(&b, Color::Black, Point::new(9, 9));
        for (i, code) in d.iter().enumerate() {
            assert_eq!(code >> 60, i as u64 + 1);
        }
        assert_eq!(geometry().within[0], 8);
        assert!(geometry().offsets.len() < 256);
        // Pinned: the built-in table depends on these codes.
        assert_eq!(format!("{:016x}", d[LEVELS - 1]), "cdc307341e2ac055");
    }

    #[test]
    fn grid_large_patterns_and_table_shape3_match_the_plain_ones() {
        let mut grid = StateGrid::new();
        let mut checked = 0;
        // Sizes from the smallest to the largest, where most of a pattern
        // lies off the board; the grid refilled from a larger board to a
        // smaller one and back.
        for (size, seed) in [(19, 3), (2, 1), (5, 2), (9, 4), (25, 5), (7, 6)] {
            let b = &middle_game(size, 0.4, seed);
            for me in [Color::Black, Color::White] {
                grid.fill(b, me);
                for p in b.points().filter(|&p| b.is_empty(p)) {
                    assert_eq!(large_patterns_grid(&grid, p), large_patterns(b, me, p));
                    let raw = shape3_raw(b, me, p);
                    assert_eq!(canonical_shape3_fast(raw), canonical_shape3(raw));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        // Every previous-move marker pair on random cell codes.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let raw = (x as u32) & ((1 << SHAPE3_BITS) - 1);
            let (m1, m2) = ((x >> 32) as u32 % 9, (x >> 40) as u32 % 9);
            let raw = raw | m1 << SHAPE3_BITS | m2 << (SHAPE3_BITS + 4);
            assert_eq!(canonical_shape3_fast(raw), canonical_shape3(raw), "{raw:x}");
        }
    }

    #[test]
    fn fast_large_patterns_match_the_direct_sum() {
        // A random 19x19 middle game, both colours to move, every empty point
        // (edges and corners included).
        let b = &middle_game(19, 0.4, 7);
        let mut checked = 0;
        for p in b.points().filter(|&p| b.is_empty(p)) {
            for me in [Color::Black, Color::White] {
                assert_eq!(
                    large_patterns(b, me, p),
                    large_patterns_direct(b, me, p),
                    "{p:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
        let s = board(SAMPLE);
        for p in s.points().filter(|&p| s.is_empty(p)) {
            assert_eq!(
                large_patterns(&s, Color::Black, p),
                large_patterns_direct(&s, Color::Black, p)
            );
        }
    }
}

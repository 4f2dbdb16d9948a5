//! The board: stones, chains, liberties, captures, the simple-ko point and
//! the incremental stone hash. No history, no turn order, no superko (see
//! [`crate::game`]), no randomness.
//!
//! Storage is fixed-size arrays over the padded layout of [`crate::point`],
//! with no heap fields, so cloning a board is one `memcpy`.
//!
//! This is also the playout kernel, built for speed. Per point: the cell
//! code, a packed word of neighbour counts (empty / black / white / off the
//! board; orthogonal and diagonal) and a chain id (0 on empty and
//! off-board points). Chains are union-find with full path compression:
//! every stone stores its chain's root directly, and the stones of a chain
//! form a circular list through `next`; when chains merge, the smaller
//! chain's stones are relinked to the larger chain's root. Per chain, the
//! root keeps the stone count and *pseudo-liberties* (one per stone and
//! empty neighbour pair) with the sum and the sum of squares of their
//! indices, all three packed in one `u64`, so that placing, merging and
//! capturing need no de-duplication, and "in atari" and "its only
//! liberty" are still exact and constant-time.
//! Exact liberty counts of larger chains are counted on demand
//! ([`Board::liberties`]).
use crate::color::Color;
use crate::point::{Point, ARRAY_LEN, MAX_POINTS, MAX_SIZE, MIN_SIZE, STRIDE};
use crate::zobrist::{self, Keys, StoneHash};
use std::fmt;
use std::hint::select_unpredictable;

const EMPTY: u8 = 0;
const OFF: u8 = 3;
const BITSET_WORDS: usize = ARRAY_LEN.div_ceil(64);

/// Why a move may not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalMove {
    /// The point is not on this board.
    OffBoard,
    /// The point already holds a stone.
    Occupied,
    /// The stone would have no liberties and capture nothing (forbidden by
    /// the rules, or a single-stone suicide, which is never legal).
    Suicide,
    /// An immediate recapture of a simple ko.
    Ko,
    /// The move would repeat the position (positional superko) or the
    /// position and side to move (situational superko) that stood after move
    /// `after_move` (0 = the start position). Only [`crate::game::Game`]
    /// reports this.
    Superko {
        /// The move number (passes counted) after which the repeated
        /// position stood.
        after_move: usize,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard => f.write_str("off the board"),
            IllegalMove::Occupied => f.write_str("occupied"),
            IllegalMove::Suicide => f.write_str("suicide"),
            IllegalMove::Ko => f.write_str("ko"),
            IllegalMove::Superko { after_move } => {
                write!(f, "superko (repeats the position after move {after_move})")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A board size outside 2..=25.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeError(pub usize);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {} is not between {MIN_SIZE} and {MAX_SIZE}",
            self.0
        )
    }
}

impl std::error::Error for SizeError {}

/// Why a diagram could not be read by [`Board::from_diagram`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramError(pub String);

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad diagram: {}", self.0)
    }
}

impl std::error::Error for DiagramError {}

/// A small set of point indices, for deduplicating liberties.
struct IndexSet([u64; BITSET_WORDS]);

impl IndexSet {
    #[inline]
    fn new() -> IndexSet {
        IndexSet([0; BITSET_WORDS])
    }

    /// Inserts `i`; true if it was not there yet.
    #[inline]
    fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }
}

/// The first and last index whose four neighbours and four diagonals all
/// lie inside the padded arrays (every on-board point of every size is in
/// this frame).
const FRAME_LO: usize = STRIDE + 1;
const FRAME_HI: usize = ARRAY_LEN - STRIDE - 2;

/// Whether index `i` is inside the frame, so that its eight neighbours are
/// valid indices.
#[inline(always)]
fn in_frame(i: usize) -> bool {
    i.wrapping_sub(FRAME_LO) <= FRAME_HI - FRAME_LO
}

/// The neighbour-count word of a point packs four 4-bit counts of its four
/// orthogonal neighbours, one field per cell code: bits 0-3 empty, 4-7
/// black, 8-11 white, 12-15 off the board; and the same four counts of its
/// four diagonal neighbours in bits 16-31. `unit(code)` is one orthogonal
/// neighbour of that code, `unit(code) << DIAG` one diagonal neighbour.
#[inline(always)]
const fn unit(cell: u8) -> u32 {
    1 << (4 * cell as u32)
}

/// One field of a neighbour-count word.
const NB_FIELD: u32 = 0xF;

/// The shift of the diagonal counts in a neighbour-count word.
const DIAG: u32 = 16;

/// Whether a point with neighbour-count word `w` is an eye of the colour
/// whose opponent has the cell code `opp`, in the benchmark playout's
/// sense ([`Board::is_eye`]): no empty or `opp` orthogonal neighbour, and
/// the `opp` diagonals plus one if any diagonal is off the board at most 1.
#[inline(always)]
fn eye_word(w: u32, opp: u8) -> bool {
    let bad = (w >> (DIAG + 4 * opp as u32)) & NB_FIELD;
    let edge = (w >> (DIAG + 4 * OFF as u32) != 0) as u32;
    w & ((unit(EMPTY) | unit(opp)) * NB_FIELD) == 0 && bad + edge <= 1
}

/// The pseudo-liberties of a chain, valid at its root, packed in one word.
///
/// The liberties are *pseudo-liberties*: one per (stone, empty neighbour)
/// pair, so that a liberty next to three stones of the chain counts three
/// times. Together with the sum and the sum of squares of their indices,
/// this makes "exactly one liberty" exact and branch-free: a multiset of
/// `n > 0` numbers has one distinct value exactly when
/// `n * sum2 == sum * sum` (Cauchy-Schwarz), and that value is `sum / n`.
///
/// The three numbers share one `u64`: the count in bits 0-11, the sum in
/// bits 12-31, the sum of squares in bits 32-63, so that adding or removing
/// a pseudo-liberty `q` is one addition of [`lib_key`]`(q)`, a merge one
/// addition of two words, and "no liberty" is the word 0. No field can
/// carry into the next: a chain has at most 1,200 pseudo-liberties (the
/// edges of a 25x25 grid), whose indices are below 676, so the sum stays
/// below 2^20 and the sum of squares below 2^30; and an exact record never
/// goes below zero in any field.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Libs(u64);

/// Bits of the pseudo-liberty count in [`Libs`].
const LIBS_BITS: u32 = 12;
/// Bits of the index sum in [`Libs`].
const SUM_BITS: u32 = 20;

/// The [`Libs`] word of one pseudo-liberty on index `q`.
const fn lib_key(q: usize) -> u64 {
    1 | (q as u64) << LIBS_BITS | ((q * q) as u64) << (LIBS_BITS + SUM_BITS)
}

/// [`lib_key`] of every index, looked up in the kernel's inner loops;
/// 0 for index 0, a corner of the padding that is never a liberty, so that
/// `key_of(q * w)` adds `q`'s key `w` (0 or 1) times with an unconditional
/// load (a select between a load and 0 becomes a mispredicted branch).
static LIB_KEYS: [u64; ARRAY_LEN] = {
    let mut t = [0; ARRAY_LEN];
    let mut i = 1;
    while i < ARRAY_LEN {
        t[i] = lib_key(i);
        i += 1;
    }
    t
};

/// [`lib_key`] by table, for an index below `ARRAY_LEN`.
#[inline(always)]
fn key_of(q: usize) -> u64 {
    debug_assert!(q < ARRAY_LEN);
    // SAFETY: q < ARRAY_LEN (every caller passes a point index of the
    // padded layout).
    unsafe { *LIB_KEYS.get_unchecked(q) }
}

impl Libs {
    /// The pseudo-liberty count.
    #[inline(always)]
    fn count(self) -> u64 {
        self.0 & ((1 << LIBS_BITS) - 1)
    }

    /// The sum of the pseudo-liberties' indices.
    #[inline(always)]
    fn sum(self) -> u64 {
        (self.0 >> LIBS_BITS) & ((1 << SUM_BITS) - 1)
    }

    /// The sum of their squares.
    #[inline(always)]
    fn sum2(self) -> u64 {
        self.0 >> (LIBS_BITS + SUM_BITS)
    }

    /// Whether the chain has no liberty.
    #[inline(always)]
    fn none(self) -> bool {
        self.0 == 0
    }

    /// Whether every pseudo-liberty is the same point (true for none).
    #[inline(always)]
    fn at_most_one(self) -> bool {
        self.count() * self.sum2() == self.sum() * self.sum()
    }

    /// Whether every pseudo-liberty is the point whose [`lib_key`] is `kp`
    /// (true for none): one multiplication. For a chain next to that
    /// point, this is "in atari with its only liberty there".
    #[inline(always)]
    fn all_at(self, kp: u64) -> bool {
        self.0 == self.count().wrapping_mul(kp)
    }

    /// Whether the chain has exactly one liberty.
    #[inline(always)]
    fn in_atari(self) -> bool {
        !self.none() & self.at_most_one()
    }

    /// Whether the chain has two liberties or more.
    #[inline(always)]
    fn two_or_more(self) -> bool {
        !self.at_most_one()
    }

    /// The only liberty, when [`Libs::in_atari`].
    #[inline(always)]
    fn only_liberty(self) -> u16 {
        (self.sum() / self.count()) as u16
    }
}

impl fmt::Debug for Libs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Libs {{ count: {}, sum: {}, sum2: {} }}",
            self.count(),
            self.sum(),
            self.sum2()
        )
    }
}

/// A Go board of any size from 2x2 to 25x25.
pub struct Board {
    size: u8,
    /// 0 empty, 1 black, 2 white, 3 off the board.
    cells: [u8; ARRAY_LEN],
    /// Packed counts of each on-board point's neighbours by cell code (see
    /// [`unit`]). Meaningless off the board.
    nbrs: [u32; ARRAY_LEN],
    /// Root of the chain a stone belongs to (the chain id); 0 on empty
    /// and off-board points, whose record `libs[0]` is a dump that the
    /// placement writes to without reading it back.
    root: [u16; ARRAY_LEN],
    /// Next stone of the same chain (circular list).
    next: [u16; ARRAY_LEN],
    /// Per chain, valid at roots: the pseudo-liberties.
    libs: [Libs; ARRAY_LEN],
    /// Per chain, valid at roots: the stone count.
    stones: [u16; ARRAY_LEN],
    /// The empty points, in no particular order.
    empties: [u16; MAX_POINTS],
    /// Position of each empty point in `empties`.
    empty_pos: [u16; ARRAY_LEN],
    n_empty: u16,
    /// The simple-ko point (0 for none) and the colour it is forbidden to.
    ko: u16,
    ko_color: u8,
    /// Stones captured by Black, by White.
    captures: [u32; 2],
    hash: u64,
    keys: &'static Keys,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            size: self.size,
            cells: self.cells,
            nbrs: self.nbrs,
            root: self.root,
            next: self.next,
            libs: self.libs,
            stones: self.stones,
            empties: self.empties,
            empty_pos: self.empty_pos,
            n_empty: self.n_empty,
            ko: self.ko,
            ko_color: self.ko_color,
            captures: self.captures,
            hash: self.hash,
            keys: self.keys,
        }
    }

    /// Copies only the part of the arrays a board of this size uses when
    /// both boards have the same size (everything past it is off the board
    /// in both and never read or written), as a playout loop resetting its
    /// board from the same start position does.
    fn clone_from(&mut self, src: &Board) {
        if self.size != src.size {
            *self = src.clone();
            return;
        }
        // Every neighbour and diagonal of an on-board point is below this.
        let end = (self.size() + 2) * STRIDE;
        self.cells[..end].copy_from_slice(&src.cells[..end]);
        self.nbrs[..end].copy_from_slice(&src.nbrs[..end]);
        self.root[..end].copy_from_slice(&src.root[..end]);
        // `next`, `libs` and `stones` are read only at stones (and `libs`
        // at index 0, the dump, which is never read): an empty board, the
        // benchmark's start, has nothing there to copy.
        if src.n_empty as usize != src.size() * src.size() {
            self.next[..end].copy_from_slice(&src.next[..end]);
            self.libs[..end].copy_from_slice(&src.libs[..end]);
            self.stones[..end].copy_from_slice(&src.stones[..end]);
        }
        self.empty_pos[..end].copy_from_slice(&src.empty_pos[..end]);
        let n = src.n_empty as usize;
        self.empties[..n].copy_from_slice(&src.empties[..n]);
        self.n_empty = src.n_empty;
        self.ko = src.ko;
        self.ko_color = src.ko_color;
        self.captures = src.captures;
        self.hash = src.hash;
        self.keys = src.keys;
    }
}

impl PartialEq for Board {
    /// Two boards are equal when they have the same size, stones, simple-ko
    /// point and capture counts.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self.ko == other.ko
            && (self.ko == 0 || self.ko_color == other.ko_color)
            && self.captures == other.captures
            && self
                .points()
                .all(|p| self.cells[p.index()] == other.cells[p.index()])
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({}x{})\n{}",
            self.size,
            self.size,
            self.diagram(true)
        )
    }
}

#[inline]
fn cell_of(c: Color) -> u8 {
    c as u8
}

#[inline]
fn color_of(cell: u8) -> Option<Color> {
    match cell {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

/// Unchecked access to the per-point arrays, for the kernel's inner loops.
/// Every index passed here is below `ARRAY_LEN`: a neighbour or diagonal of
/// an index checked with [`in_frame`], a value read from `root`, `next` or
/// `empties` (which only ever hold on-board indices, or 0 in `root` off the
/// board), or the dummy index 0.
impl Board {
    #[inline(always)]
    fn cell_at(&self, i: usize) -> u8 {
        debug_assert!(i < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        unsafe { *self.cells.get_unchecked(i) }
    }

    #[inline(always)]
    fn set_cell(&mut self, i: usize, v: u8) {
        debug_assert!(i < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        unsafe { *self.cells.get_unchecked_mut(i) = v }
    }

    #[inline(always)]
    fn nb_at(&self, i: usize) -> u32 {
        debug_assert!(i < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        unsafe { *self.nbrs.get_unchecked(i) }
    }

    #[inline(always)]
    fn nb_add(&mut self, i: usize, delta: u32) {
        debug_assert!(i < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        unsafe {
            let w = self.nbrs.get_unchecked_mut(i);
            *w = w.wrapping_add(delta);
        }
    }

    #[inline(always)]
    fn root_at(&self, i: usize) -> usize {
        debug_assert!(i < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        let r = unsafe { *self.root.get_unchecked(i) } as usize;
        debug_assert!(r < ARRAY_LEN);
        r
    }

    #[inline(always)]
    fn set_root(&mut self, i: usize, r: usize) {
        debug_assert!(i < ARRAY_LEN && r < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        unsafe { *self.root.get_unchecked_mut(i) = r as u16 }
    }

    #[inline(always)]
    fn next_at(&self, i: usize) -> usize {
        debug_assert!(i < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        let n = unsafe { *self.next.get_unchecked(i) } as usize;
        debug_assert!(n < ARRAY_LEN);
        n
    }

    #[inline(always)]
    fn libs_at(&self, r: usize) -> Libs {
        debug_assert!(r < ARRAY_LEN);
        // SAFETY: r < ARRAY_LEN (see the impl's comment).
        unsafe { *self.libs.get_unchecked(r) }
    }

    #[inline(always)]
    fn libs_mut(&mut self, r: usize) -> &mut u64 {
        debug_assert!(r < ARRAY_LEN);
        // SAFETY: r < ARRAY_LEN (see the impl's comment).
        unsafe { &mut self.libs.get_unchecked_mut(r).0 }
    }

    #[inline(always)]
    fn stones_at(&self, r: usize) -> u16 {
        debug_assert!(r < ARRAY_LEN);
        // SAFETY: r < ARRAY_LEN (see the impl's comment).
        unsafe { *self.stones.get_unchecked(r) }
    }

    #[inline(always)]
    fn stones_mut(&mut self, r: usize) -> &mut u16 {
        debug_assert!(r < ARRAY_LEN);
        // SAFETY: r < ARRAY_LEN (see the impl's comment).
        unsafe { self.stones.get_unchecked_mut(r) }
    }

    #[inline(always)]
    fn set_next(&mut self, i: usize, n: usize) {
        debug_assert!(i < ARRAY_LEN && n < ARRAY_LEN);
        // SAFETY: i < ARRAY_LEN (see the impl's comment).
        unsafe { *self.next.get_unchecked_mut(i) = n as u16 }
    }

    #[inline(always)]
    fn key_at(&self, cell: u8, i: usize) -> u64 {
        debug_assert!((1..=2).contains(&cell) && i < ARRAY_LEN);
        // SAFETY: cell is a stone code (1 or 2) and i < ARRAY_LEN.
        unsafe {
            *self
                .keys
                .stone
                .get_unchecked(cell as usize - 1)
                .get_unchecked(i)
        }
    }

    /// The pseudo-liberties of the chain on `i` (any stone index).
    #[inline(always)]
    fn libs_of(&self, i: usize) -> Libs {
        self.libs_at(self.root_at(i))
    }
}

/// The `k`-th neighbour of index `i` (up, left, right, down: the order of
/// [`Point::neighbors`]).
#[inline(always)]
fn neighbor(i: usize, k: usize) -> usize {
    const OFFSETS: [usize; 4] = [STRIDE.wrapping_neg(), 1usize.wrapping_neg(), 1, STRIDE];
    i.wrapping_add(OFFSETS[k & 3])
}

/// Panics unless `p` is inside the frame, so that the unchecked accesses to
/// its neighbours are in bounds (every on-board point is).
#[inline(always)]
fn framed(p: Point) -> usize {
    let i = p.index();
    assert!(in_frame(i), "point index {i} outside the board's frame");
    i
}

impl Board {
    /// An empty board of `size` x `size`.
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is in 2..=25.
    pub fn new(size: usize) -> Result<Board, SizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SizeError(size));
        }
        let mut b = Board {
            size: size as u8,
            cells: [OFF; ARRAY_LEN],
            nbrs: [0; ARRAY_LEN],
            root: [0; ARRAY_LEN],
            next: [0; ARRAY_LEN],
            libs: [Libs::default(); ARRAY_LEN],
            stones: [0; ARRAY_LEN],
            empties: [0; MAX_POINTS],
            empty_pos: [0; ARRAY_LEN],
            n_empty: 0,
            ko: 0,
            ko_color: 0,
            captures: [0; 2],
            hash: 0,
            keys: zobrist::keys(),
        };
        for p in Point::all(size) {
            b.cells[p.index()] = EMPTY;
        }
        b.rebuild();
        Ok(b)
    }

    /// The board's width and height.
    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// Every on-board point, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        Point::all(self.size())
    }

    /// Whether `p` is on this board.
    #[inline]
    pub fn on_board(&self, p: Point) -> bool {
        p.index() < ARRAY_LEN && self.cells[p.index()] != OFF
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        color_of(self.cells[p.index()])
    }

    /// Whether `p` is an empty on-board point.
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.index()] == EMPTY
    }

    /// The hash of the stones on the board.
    #[inline]
    pub fn hash(&self) -> StoneHash {
        StoneHash(self.hash)
    }

    /// The simple-ko point and the colour that may not play there now.
    pub fn ko(&self) -> Option<(Point, Color)> {
        if self.ko == 0 {
            None
        } else {
            color_of(self.ko_color).map(|c| (Point(self.ko), c))
        }
    }

    /// Stones captured so far by `by`.
    #[inline]
    pub fn captures(&self, by: Color) -> u32 {
        self.captures[by.index()]
    }

    /// Sets the capture counts (for setup from a record).
    pub fn set_captures(&mut self, black: u32, white: u32) {
        self.captures = [black, white];
    }

    /// The number of empty points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.n_empty as usize]
    }

    /// The stones of each colour on the board: (Black's, White's).
    pub fn stone_counts(&self) -> (u32, u32) {
        // The cell codes from the first on-board point to the last sum to
        // Black's stones + 2 x White's + 3 x the off-board cells between
        // the rows; one contiguous sum, which vectorises.
        let n = self.size();
        let span = &self.cells[STRIDE + 1..n * STRIDE + n + 1];
        let sum: u32 = span.iter().map(|&c| c as u32).sum();
        let off = (3 * (n - 1) * (STRIDE - n)) as u32;
        let stones = (n * n - self.n_empty as usize) as u32;
        let white = sum - off - stones;
        (stones - white, white)
    }

    /// The Tromp-Taylor area counts (stones, plus the empty points that
    /// reach stones of one colour only), (Black's, White's), when no empty
    /// point has an empty neighbour, as at the end of a benchmark playout
    /// that ends with two passes: then every empty region is one point and
    /// its neighbour-count word tells its owner. `None` otherwise (count
    /// with [`crate::score::area_counts`]).
    pub fn area_counts_closed(&self) -> Option<(u32, u32)> {
        let (mut black, mut white) = self.stone_counts();
        let mut open = 0u32;
        for &e in self.empty_points() {
            let w = self.nbrs[e as usize];
            open |= w & NB_FIELD;
            let b = w & (unit(1) * NB_FIELD) != 0;
            let wh = w & (unit(2) * NB_FIELD) != 0;
            black += (b & !wh) as u32;
            white += (wh & !b) as u32;
        }
        (open == 0).then_some((black, white))
    }

    /// The root stone of the chain on `p` (a stable name for the chain until
    /// the next move).
    ///
    /// # Panics
    /// In debug builds, if `p` is empty.
    #[inline]
    pub fn chain_root(&self, p: Point) -> Point {
        debug_assert!(self.get(p).is_some());
        Point(self.root[p.index()])
    }

    /// The exact liberty count of the chain on `p` (0 for an empty point).
    /// Counted on demand (the board keeps pseudo-liberties): constant time
    /// for a chain with none or one, a walk over the chain otherwise.
    pub fn liberties(&self, p: Point) -> usize {
        if self.get(p).is_none() {
            return 0;
        }
        let ch = self.libs[self.root[p.index()] as usize];
        if ch.none() {
            0
        } else if ch.in_atari() {
            1
        } else {
            self.count_liberties(p, usize::MAX)
        }
    }

    /// Whether the chain on `p` has exactly one liberty (false for an empty
    /// point). Constant time.
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.get(p).is_some() && self.libs[self.root[p.index()] as usize].in_atari()
    }

    /// The distinct liberties of the chain on the stone `p`, counted up to
    /// `limit`, by walking the chain.
    fn count_liberties(&self, p: Point, limit: usize) -> usize {
        let mut set = IndexSet::new();
        let mut n = 0;
        let start = p.index();
        let mut s = start;
        loop {
            for q in Point(s as u16).neighbors() {
                if self.cells[q.index()] == EMPTY && set.insert(q.index()) {
                    n += 1;
                    if n >= limit {
                        return n;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == start {
                return n;
            }
        }
    }

    /// The number of stones in the chain on `p` (0 for an empty point).
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        if self.get(p).is_none() {
            return 0;
        }
        self.stones[self.root[p.index()] as usize] as usize
    }

    /// The stones of the chain on `p` (empty for an empty point).
    pub fn chain(&self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        self.for_each_stone(p, |s| out.push(s));
        out
    }

    /// The liberties of the chain on `p`, sorted (empty for an empty point).
    pub fn chain_liberties(&self, p: Point) -> Vec<Point> {
        let mut set = IndexSet::new();
        let mut out = Vec::new();
        for s in self.chain(p) {
            for q in s.neighbors() {
                if self.cells[q.index()] == EMPTY && set.insert(q.index()) {
                    out.push(q);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// If the chain on `p` has exactly one liberty, that liberty. Constant
    /// time.
    #[inline]
    pub fn last_liberty(&self, p: Point) -> Option<Point> {
        self.get(p)?;
        let ch = self.libs[self.root[p.index()] as usize];
        if ch.in_atari() {
            Some(Point(ch.only_liberty()))
        } else {
            None
        }
    }

    /// Whether a stone of `c` on the empty point `p` would have no liberty
    /// after captures (a suicide of one or more stones).
    ///
    /// # Panics
    /// If `p` is not inside the padded layout's frame (no on-board point is
    /// outside it).
    #[inline]
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        let pi = framed(p);
        self.nb_at(pi) & NB_FIELD == 0 && self.suicide_closed(cell_of(c), pi)
    }

    /// [`Board::is_suicide`] for a point `pi` (in the frame) with no empty
    /// neighbour: no neighbouring chain of `me` has two liberties or more
    /// and no neighbouring chain of the opponent is in atari.
    #[inline(always)]
    fn suicide_closed(&self, me: u8, pi: usize) -> bool {
        !self.saved_closed(me, pi)
    }

    /// Whether some neighbour of `pi` gives a stone of `me` there a liberty
    /// (an own chain with two liberties or more, an opposing chain in
    /// atari), for a point with no empty neighbour. Every neighbouring
    /// chain has `pi` as a liberty, so it is in atari exactly when all its
    /// pseudo-liberties are `pi` ([`Libs::all_at`]). No branch: an
    /// off-board neighbour counts for neither colour.
    #[inline(always)]
    fn saved_closed(&self, me: u8, pi: usize) -> bool {
        let opp = me ^ 3;
        let kp = key_of(pi);
        let mut saved = false;
        for qi in [pi - STRIDE, pi - 1, pi + 1, pi + STRIDE] {
            let cell = self.cell_at(qi);
            debug_assert!(cell != EMPTY);
            let one = self.libs_of(qi).all_at(kp);
            saved |= ((cell == me) & !one) | ((cell == opp) & one);
        }
        saved
    }

    /// The raw content of a cell of the padded layout, for pattern codes:
    /// 0 empty, 1 black, 2 white, 3 off the board. `p` may be any index of
    /// the padded array (the neighbours and diagonals of an on-board point
    /// always are).
    #[inline]
    pub fn cell_code(&self, p: Point) -> u8 {
        self.cells[p.index()]
    }

    /// Calls `f` on every stone of the chain on `p` (nothing for an empty
    /// point), without allocating.
    #[inline]
    pub fn for_each_stone(&self, p: Point, mut f: impl FnMut(Point)) {
        if self.get(p).is_none() {
            return;
        }
        let start = p.0;
        let mut s = start;
        loop {
            f(Point(s));
            s = self.next[s as usize];
            if s == start {
                break;
            }
        }
    }

    /// How many liberties, counted up to `limit` (at most 8), the chain of a
    /// stone of `c` on the empty point `p` would have after the move. The
    /// count is exact when the move captures nothing; a capture counts only
    /// the captured stones next to `p` as new liberties, so the result is
    /// then a lower bound. A cheap self-atari test for the playout policy:
    /// `liberties_after(c, p, 2) < 2`.
    ///
    /// # Panics
    /// If `p` is not inside the padded layout's frame.
    pub fn liberties_after(&self, c: Color, p: Point, limit: usize) -> usize {
        let pi = framed(p);
        let limit = limit.min(8);
        let open = (self.nb_at(pi) & NB_FIELD) as usize;
        if open >= limit {
            return limit;
        }
        let me = cell_of(c);
        let opp = me ^ 3;
        let mut found = [0u16; 8];
        let add = |q: u16, found: &mut [u16; 8], n: &mut usize| {
            if *n < limit && !found[..*n].contains(&q) {
                found[*n] = q;
                *n += 1;
            }
        };
        // The neighbours, without classification branches: the empty ones
        // and the opposing ones in atari (captured) are liberties, all
        // distinct; the own ones go into a mask.
        let nbrs = Point(pi as u16).neighbors();
        let mut roots = [0usize; 4];
        let mut own = 0u32;
        let mut n = 0;
        for (k, q) in nbrs.into_iter().enumerate() {
            let qi = q.index();
            let cell = self.cell_at(qi);
            roots[k] = self.root_at(qi);
            let take = (cell == EMPTY) | ((cell == opp) & self.libs_at(roots[k]).in_atari());
            found[n] = q.0;
            n += take as usize;
            own |= ((cell == me) as u32) << k;
        }
        if n >= limit {
            return limit;
        }
        // Each own chain once, with the number of its stones next to `p`.
        while own != 0 {
            let r = roots[own.trailing_zeros() as usize & 3];
            let mut same = 0u32;
            for (k, &rk) in roots.iter().enumerate() {
                same |= (own >> k & 1 & (rk == r) as u32) << k;
            }
            own &= !same;
            // The chain's pseudo-liberties other than `p`: `p` counts once
            // for each of the chain's stones next to it.
            let k = same.count_ones() as u64;
            let rest = Libs(self.libs_at(r).0 - k * key_of(pi));
            if rest.none() {
                continue;
            }
            if rest.at_most_one() {
                add(rest.only_liberty(), &mut found, &mut n);
                if n >= limit {
                    return n;
                }
                continue;
            }
            // Two distinct liberties besides `p`, or more.
            if limit <= 2 {
                return limit;
            }
            let mut s = r;
            loop {
                for l in Point(s as u16).neighbors() {
                    if self.cell_at(l.index()) == EMPTY && l.index() != pi {
                        add(l.0, &mut found, &mut n);
                    }
                }
                if n >= limit {
                    return n;
                }
                s = self.next_at(s);
                if s == r {
                    break;
                }
            }
        }
        n
    }

    /// How many of the four neighbours of `p` are empty (one read of the
    /// neighbour-count word).
    ///
    /// # Panics
    /// If `p` is not inside the padded layout's frame.
    #[inline]
    pub fn empty_neighbors(&self, p: Point) -> usize {
        (self.nb_at(framed(p)) & NB_FIELD) as usize
    }

    /// Whether `p` has a neighbouring stone of colour `c`.
    #[inline]
    fn has_neighbor(&self, c: Color, p: Point) -> bool {
        let me = cell_of(c);
        p.neighbors().iter().any(|q| self.cells[q.index()] == me)
    }

    /// Whether playing `c` on `p` is the simple-ko recapture.
    #[inline]
    pub fn is_ko_recapture(&self, c: Color, p: Point) -> bool {
        self.ko == p.0 && self.ko_color == cell_of(c)
    }

    /// Checks a move by `c` on `p` against the board alone: on the board,
    /// empty, not the simple-ko recapture, and not a suicide (multi-stone
    /// suicide passes when `suicide_allowed`; single-stone suicide never
    /// does).
    ///
    /// # Errors
    /// The first reason the move is illegal, in the order above.
    pub fn check(&self, c: Color, p: Point, suicide_allowed: bool) -> Result<(), IllegalMove> {
        if !self.on_board(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p.index()] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        if self.is_ko_recapture(c, p) {
            return Err(IllegalMove::Ko);
        }
        if self.is_suicide(c, p) && !(suicide_allowed && self.has_neighbor(c, p)) {
            return Err(IllegalMove::Suicide);
        }
        Ok(())
    }

    /// Plays `c` on `p` after [`Board::check`]; returns the number of
    /// opposing stones captured.
    ///
    /// # Errors
    /// As [`Board::check`]; the board is unchanged then.
    pub fn play(&mut self, c: Color, p: Point, suicide_allowed: bool) -> Result<u32, IllegalMove> {
        self.check(c, p, suicide_allowed)?;
        Ok(self.play_unchecked(c, p))
    }

    /// A pass: clears the simple-ko point.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = 0;
    }

    /// What the stone hash would be after `c` plays on the empty point `p`
    /// (captures and multi-stone suicide included), without playing.
    pub fn hash_after(&self, c: Color, p: Point) -> StoneHash {
        let me = cell_of(c);
        let opp = cell_of(c.opponent());
        let mut h = self.hash ^ self.keys.stone[c.index()][p.index()];
        let mut seen = [0u16; 4];
        let mut n = 0;
        let mut captures = false;
        for q in p.neighbors() {
            if self.cells[q.index()] == opp {
                let r = self.root[q.index()];
                if self.libs[r as usize].in_atari() && !seen[..n].contains(&r) {
                    seen[n] = r;
                    n += 1;
                    captures = true;
                    h ^= self.chain_key(r);
                }
            }
        }
        if !captures && self.is_suicide(c, p) {
            // The new chain (p and its friendly neighbours) leaves the board.
            h ^= self.keys.stone[c.index()][p.index()];
            let mut n = 0;
            for q in p.neighbors() {
                if self.cells[q.index()] == me {
                    let r = self.root[q.index()];
                    if !seen[..n].contains(&r) {
                        seen[n] = r;
                        n += 1;
                        h ^= self.chain_key(r);
                    }
                }
            }
        }
        StoneHash(h)
    }

    fn chain_key(&self, r: u16) -> u64 {
        let c = color_of(self.cells[r as usize]).expect("chain_key on a stone");
        let table = &self.keys.stone[c.index()];
        let mut h = 0;
        let mut s = r;
        loop {
            h ^= table[s as usize];
            s = self.next[s as usize];
            if s == r {
                return h;
            }
        }
    }

    #[inline(always)]
    fn remove_empty(&mut self, i: usize) {
        debug_assert!(i < ARRAY_LEN && self.n_empty > 0);
        // SAFETY: i < ARRAY_LEN; positions are below n_empty <= MAX_POINTS
        // and the list holds only on-board indices.
        unsafe {
            let pos = *self.empty_pos.get_unchecked(i) as usize;
            self.n_empty -= 1;
            let last = *self.empties.get_unchecked(self.n_empty as usize);
            *self.empties.get_unchecked_mut(pos) = last;
            *self.empty_pos.get_unchecked_mut(last as usize) = pos as u16;
        }
    }

    #[inline(always)]
    fn add_empty(&mut self, i: usize) {
        debug_assert!(i < ARRAY_LEN && (self.n_empty as usize) < MAX_POINTS);
        // SAFETY: i < ARRAY_LEN; n_empty < MAX_POINTS because i is an
        // on-board point that was not in the list.
        unsafe {
            *self.empties.get_unchecked_mut(self.n_empty as usize) = i as u16;
            *self.empty_pos.get_unchecked_mut(i) = self.n_empty;
        }
        self.n_empty += 1;
    }

    /// Swaps two entries of the empty-point list (for sampling without
    /// replacement in playouts).
    #[inline]
    pub(crate) fn swap_empties(&mut self, a: usize, b: usize) {
        let (pa, pb) = (self.empties[a], self.empties[b]);
        self.empties[a] = pb;
        self.empties[b] = pa;
        self.empty_pos[pb as usize] = a as u16;
        self.empty_pos[pa as usize] = b as u16;
    }

    /// Merges the chains rooted at `a` and `b` (same colour, distinct);
    /// returns the new root. Pseudo-liberties simply add up. Out of line,
    /// to keep the placement's registers for its common path.
    #[inline(never)]
    fn merge(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.stones_at(a) >= self.stones_at(b) {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.set_root(s, big);
            s = self.next_at(s);
            if s == small {
                break;
            }
        }
        let add = self.libs_at(small).0;
        let l = self.libs_mut(big);
        *l = l.wrapping_add(add);
        let n = self.stones_at(small);
        *self.stones_mut(big) += n;
        let (nb, ns) = (self.next_at(big), self.next_at(small));
        self.set_next(big, ns);
        self.set_next(small, nb);
        big
    }

    /// Removes the chain rooted at `r`; returns its stone count. Each
    /// removed stone becomes a pseudo-liberty of every stone next to it,
    /// without a branch: an empty or off-board neighbour has root 0 and
    /// the addition goes to the dump record `libs[0]`; the stones of the
    /// chain itself not yet removed get theirs in the dead chain's record,
    /// which is never read again.
    #[inline(never)]
    fn remove_chain(&mut self, r: usize) -> u32 {
        let color = self.cell_at(r);
        debug_assert!(color == 1 || color == 2, "remove_chain on a stone");
        let stones = self.stones_at(r) as u32;
        let delta = unit(EMPTY).wrapping_sub(unit(color));
        let mut s = r;
        loop {
            self.set_cell(s, EMPTY);
            self.set_root(s, 0);
            self.hash ^= self.key_at(color, s);
            self.add_empty(s);
            let ks = key_of(s);
            for qi in [s - STRIDE, s - 1, s + 1, s + STRIDE] {
                self.nb_add(qi, delta);
                let rq = self.root_at(qi);
                let l = self.libs_mut(rq);
                *l = l.wrapping_add(ks);
            }
            for di in [
                s - STRIDE - 1,
                s - STRIDE + 1,
                s + STRIDE - 1,
                s + STRIDE + 1,
            ] {
                self.nb_add(di, delta << DIAG);
            }
            s = self.next_at(s);
            if s == r {
                break;
            }
        }
        stones
    }

    /// Plays `c` on the empty point `p` without checking legality; returns
    /// the number of opposing stones captured. A chain left without
    /// liberties after captures (a suicide) is removed and credited to the
    /// opponent. This is the playout path.
    ///
    /// # Panics
    /// If `p` is not an empty on-board point.
    pub fn play_unchecked(&mut self, c: Color, p: Point) -> u32 {
        let pi = framed(p);
        // A real check: the empty list's unchecked updates rely on `p`
        // being in it.
        assert!(
            self.cell_at(pi) == EMPTY,
            "play_unchecked on a non-empty point"
        );
        self.place(cell_of(c), pi)
    }

    /// [`Board::play_unchecked`] of the stone code `me` on `pi`, an empty
    /// on-board point (hence in the frame and in the empty list). Out of
    /// line: the draw loop keeps its registers (the random generator's
    /// state among them) and this function gets its own.
    #[inline(never)]
    fn place(&mut self, me: u8, pi: usize) -> u32 {
        debug_assert!(in_frame(pi) && self.cell_at(pi) == EMPTY);
        let opp = me ^ 3;
        self.remove_empty(pi);
        self.set_cell(pi, me);
        self.hash ^= self.key_at(me, pi);

        // Every neighbouring stone's chain loses the pseudo-liberty `p`;
        // every empty neighbour is one of the new stone's. No branches:
        // empty and off-board cells have root 0, the dump record, which
        // loses `p` too and is never read. A chain next to `p` several
        // times reaches zero only at its last update, so the capture test
        // is one OR of compares made on the way.
        let nbrs = [pi - STRIDE, pi - 1, pi + 1, pi + STRIDE];
        let delta = unit(me).wrapping_sub(unit(EMPTY));
        let kp = key_of(pi);
        let mut own = 0u64;
        let mut any = false;
        let mut friends = 0u32;
        for (k, &qi) in nbrs.iter().enumerate() {
            self.nb_add(qi, delta);
            let cell = self.cell_at(qi);
            let r = self.root_at(qi);
            let l = self.libs_mut(r);
            *l = l.wrapping_sub(kp);
            any |= (cell == opp) & (*l == 0);
            friends |= ((cell == me) as u32) << k;
            own = own.wrapping_add(key_of(qi * (cell == EMPTY) as usize));
        }
        for di in [
            pi - STRIDE - 1,
            pi - STRIDE + 1,
            pi + STRIDE - 1,
            pi + STRIDE + 1,
        ] {
            self.nb_add(di, delta << DIAG);
        }
        self.set_root(pi, pi);
        self.set_next(pi, pi);
        *self.libs_mut(pi) = own;
        *self.stones_mut(pi) = 1;

        // Join the first friendly neighbour's chain without a branch: one
        // of the two chains is the new stone alone, or both are single
        // stones, so the merge relinks one stone. The larger chain's root
        // stays the root (the new stone's on a tie, as `merge` does). With
        // no friendly neighbour, `r1` is the new stone itself and nothing
        // changes.
        let first = (friends | 16).trailing_zeros() as usize;
        // The first friendly neighbour, or `pi` itself (offset 0) for none.
        const FIRST: [usize; 5] = [STRIDE.wrapping_neg(), 1usize.wrapping_neg(), 1, STRIDE, 0];
        // SAFETY: first <= 4.
        let r1 = self.root_at(pi.wrapping_add(unsafe { *FIRST.get_unchecked(first) }));
        let joins = r1 != pi;
        let single = self.stones_at(r1) == 1;
        let big = select_unpredictable(single, pi, r1);
        let small = select_unpredictable(single, r1, pi);
        self.set_root(small, big);
        let add = select_unpredictable(joins, self.libs_at(small).0, 0);
        let l = self.libs_mut(big);
        *l = l.wrapping_add(add);
        *self.stones_mut(big) += joins as u16;
        let (nb, ns) = (self.next_at(big), self.next_at(small));
        self.set_next(big, ns);
        self.set_next(small, nb);
        friends &= friends.wrapping_sub(1);

        // Merge with the other friendly neighbours' chains, one bit each.
        let mut mine = big;
        while friends != 0 {
            let k = friends.trailing_zeros() as usize & 3;
            friends &= friends - 1;
            let r = self.root_at(neighbor(pi, k));
            if r != mine {
                mine = self.merge(mine, r);
            }
        }

        self.ko = 0;
        let captured = if any {
            self.capture_around(me, pi, mine)
        } else {
            0
        };

        if self.libs_at(mine).none() {
            let lost = self.remove_chain(mine);
            self.captures[(opp - 1) as usize] += lost;
        }
        captured
    }

    /// The capturing half of [`Board::place`]: removes the opposing chains
    /// next to the new stone of `me` left without liberties, counts them to
    /// `me` and sets the simple-ko point; returns the stones removed. Out
    /// of line: most moves capture nothing.
    #[inline(never)]
    fn capture_around(&mut self, me: u8, pi: usize, mine: usize) -> u32 {
        let opp = me ^ 3;
        let mut captured = 0;
        let mut last_captured = 0;
        for k in 0..4 {
            let qi = neighbor(pi, k);
            if self.cell_at(qi) == opp {
                let r = self.root_at(qi);
                if self.libs_at(r).none() {
                    captured += self.remove_chain(r);
                    last_captured = r;
                }
            }
        }
        self.captures[(me - 1) as usize] += captured;
        if captured == 1 && self.stones_at(mine) == 1 && self.libs_at(mine).in_atari() {
            self.ko = last_captured as u16;
            self.ko_color = opp;
        }
        captured
    }

    /// Whether `p` is an eye of `c` in the benchmark playout's sense: every
    /// on-board neighbour is a stone of `c`, and the diagonal stones of the
    /// opponent number 0 on the edge and at most 1 elsewhere.
    ///
    /// # Panics
    /// If `p` is not inside the padded layout's frame.
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        let pi = framed(p);
        eye_word(self.nb_at(pi), cell_of(c.opponent()))
    }

    /// Whether the benchmark playout may play `c` on the empty point `p`:
    /// not an eye of `c` ([`Board::is_eye`]), not the simple-ko recapture,
    /// and not a suicide of any size ([`Board::is_suicide`]). Same answer as
    /// those three tests; one read of `p`'s neighbour-count word settles
    /// the usual case of a point with an empty neighbour (never an eye, a
    /// suicide or the ko point).
    ///
    /// # Panics
    /// If `p` is not inside the padded layout's frame.
    #[inline]
    pub fn is_playout_candidate(&self, c: Color, p: Point) -> bool {
        let pi = framed(p);
        let w = self.nb_at(pi);
        w & NB_FIELD != 0 || self.closed_candidate(cell_of(c), pi, w)
    }

    /// The benchmark playout's draw: empty points are drawn without
    /// replacement until one passes [`Board::is_playout_candidate`] for
    /// `c`; `None` when none does. Each draw takes one number `x` from
    /// `next_u64` and picks index `x * k / 2^64` (the high word of the
    /// product: [`crate::playout::below`]'s formula) among the `k` points
    /// not drawn yet. A rejected point is swapped behind the ones left, so
    /// the order of the empty list changes.
    #[inline]
    pub fn draw_playout_candidate(
        &mut self,
        c: Color,
        next_u64: impl FnMut() -> u64,
    ) -> Option<Point> {
        self.draw_candidate(cell_of(c), next_u64)
            .map(|pi| Point(pi as u16))
    }

    /// One move of the benchmark playout: [`Board::draw_playout_candidate`]
    /// then [`Board::play_unchecked`] of the point drawn, in one call;
    /// `None` (and nothing played: the caller passes) when no empty point
    /// is a candidate.
    #[inline]
    pub fn play_playout_move(&mut self, c: Color, next_u64: impl FnMut() -> u64) -> Option<Point> {
        let me = cell_of(c);
        let pi = self.draw_candidate(me, next_u64)?;
        self.place(me, pi);
        Some(Point(pi as u16))
    }

    /// [`Board::draw_playout_candidate`] for the stone code `me`, returning
    /// the index drawn. The usual cases are settled inline: a point with an
    /// empty neighbour (a candidate) and an eye of `me` (not one).
    #[inline(always)]
    fn draw_candidate(&mut self, me: u8, mut next_u64: impl FnMut() -> u64) -> Option<usize> {
        let opp = me ^ 3;
        let mut k = self.n_empty as usize;
        while k > 0 {
            // i < k: the high word of a 64-bit number times k.
            let i = ((next_u64() as u128 * k as u128) >> 64) as usize;
            debug_assert!(i < k && k <= self.n_empty as usize);
            debug_assert!(self.n_empty as usize <= MAX_POINTS);
            // SAFETY: i < k <= n_empty <= MAX_POINTS = empties.len().
            let pi = unsafe { *self.empties.get_unchecked(i) } as usize;
            // An empty-list entry is an on-board point, inside the frame.
            debug_assert!(in_frame(pi));
            let w = self.nb_at(pi);
            if w & NB_FIELD != 0 {
                return Some(pi);
            }
            if !eye_word(w, opp) && self.closed_not_eye(me, pi) {
                return Some(pi);
            }
            k -= 1;
            // SAFETY: i, k < n_empty <= MAX_POINTS, and the entries are
            // on-board indices below ARRAY_LEN.
            unsafe {
                let pk = *self.empties.get_unchecked(k);
                *self.empties.get_unchecked_mut(i) = pk;
                *self.empties.get_unchecked_mut(k) = pi as u16;
                *self.empty_pos.get_unchecked_mut(pk as usize) = i as u16;
                *self.empty_pos.get_unchecked_mut(pi) = k as u16;
            }
        }
        None
    }

    /// [`Board::is_playout_candidate`] for a point with no empty neighbour
    /// and neighbour-count word `w`.
    #[inline(always)]
    fn closed_candidate(&self, me: u8, pi: usize, w: u32) -> bool {
        !eye_word(w, me ^ 3) && self.closed_not_eye(me, pi)
    }

    /// The rest of [`Board::closed_candidate`] for a point that is not an
    /// eye of `me`: not the ko recapture, and some neighbour saves the
    /// stone. Out of line: rarer than the cases before it.
    #[inline(never)]
    fn closed_not_eye(&self, me: u8, pi: usize) -> bool {
        let ko = (self.ko as usize == pi) & (self.ko_color == me);
        !ko && self.saved_closed(me, pi)
    }

    /// Puts a stone on `p` or clears it, for setup (SGF `AB`/`AW`/`AE`,
    /// handicap). Nothing is captured, whatever the liberties; chains,
    /// liberties and hash are rebuilt, and the simple-ko point cleared.
    ///
    /// # Errors
    /// [`IllegalMove::OffBoard`] for a point off this board.
    pub fn set(&mut self, p: Point, c: Option<Color>) -> Result<(), IllegalMove> {
        self.set_many(&[(p, c)])
    }

    /// [`Board::set`] for several points, rebuilding once.
    ///
    /// # Errors
    /// [`IllegalMove::OffBoard`] if any point is off this board; nothing is
    /// changed then.
    pub fn set_many(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), IllegalMove> {
        if changes.iter().any(|&(p, _)| !self.on_board(p)) {
            return Err(IllegalMove::OffBoard);
        }
        for &(p, c) in changes {
            self.cells[p.index()] = c.map_or(EMPTY, cell_of);
        }
        self.rebuild();
        Ok(())
    }

    /// The neighbour-count word of `p`, counted from the cells.
    fn count_neighbors(&self, p: Point) -> u32 {
        let orth: u32 = p
            .neighbors()
            .iter()
            .map(|q| unit(self.cells[q.index()]))
            .sum();
        let diag: u32 = p
            .diagonals()
            .iter()
            .map(|q| unit(self.cells[q.index()]))
            .sum();
        orth | diag << DIAG
    }

    /// Recomputes chains, pseudo-liberties, neighbour counts, hash and
    /// empty list from the stones.
    fn rebuild(&mut self) {
        self.n_empty = 0;
        self.hash = 0;
        self.ko = 0;
        let size = self.size();
        self.root = [0; ARRAY_LEN];
        self.libs = [Libs::default(); ARRAY_LEN];
        self.stones = [0; ARRAY_LEN];
        for p in Point::all(size) {
            let i = p.index();
            self.next[i] = i as u16;
            self.nbrs[i] = self.count_neighbors(p);
            match color_of(self.cells[i]) {
                None => self.add_empty(i),
                Some(c) => {
                    self.hash ^= self.keys.stone[c.index()][i];
                    self.root[i] = i as u16;
                    self.stones[i] = 1;
                }
            }
        }
        // Union neighbours of the same colour, then count pseudo-liberties.
        for p in Point::all(size) {
            let i = p.index();
            let cell = self.cells[i];
            if cell == EMPTY {
                continue;
            }
            for q in [i + 1, i + STRIDE] {
                if self.cells[q] == cell {
                    let (a, b) = (self.root[i] as usize, self.root[q] as usize);
                    if a != b {
                        self.merge(a, b);
                    }
                }
            }
        }
        for p in Point::all(size) {
            let i = p.index();
            if self.cells[i] == EMPTY {
                continue;
            }
            let r = self.root[i] as usize;
            for q in p.neighbors() {
                let qi = q.index();
                if self.cells[qi] == EMPTY {
                    self.libs[r].0 += lib_key(qi);
                }
            }
        }
    }

    /// Rebuilds chains, pseudo-liberties and their sums, neighbour counts
    /// and hash from the stones alone (flood fill, no incremental
    /// structure) and compares them with the incremental ones.
    ///
    /// # Errors
    /// A description of the first difference found.
    pub fn check_invariants(&self) -> Result<(), String> {
        let size = self.size();
        let mut hash = 0u64;
        let mut empties = 0;
        let mut visited = [false; ARRAY_LEN];
        for i in 0..ARRAY_LEN {
            let on = Point(i as u16).on_board(size);
            if on != (self.cells[i] != OFF) {
                return Err(format!("cell {i} on-board mismatch"));
            }
            if (!on || self.cells[i] == EMPTY) && self.root[i] != 0 {
                return Err(format!(
                    "off-board or empty cell {i} has root {}",
                    self.root[i]
                ));
            }
            if self.root[i] as usize >= ARRAY_LEN || self.next[i] as usize >= ARRAY_LEN {
                return Err(format!("cell {i} links out of the arrays"));
            }
        }
        for p in Point::all(size) {
            let i = p.index();
            if self.nbrs[i] != self.count_neighbors(p) {
                return Err(format!(
                    "neighbour counts at {}: {:08x} incremental, {:08x} counted",
                    p.to_gtp(size),
                    self.nbrs[i],
                    self.count_neighbors(p)
                ));
            }
            match color_of(self.cells[i]) {
                None => {
                    empties += 1;
                    let pos = self.empty_pos[i] as usize;
                    if pos >= self.n_empty as usize || self.empties[pos] as usize != i {
                        return Err(format!("empty point {} missing from list", p.to_gtp(size)));
                    }
                }
                Some(c) => {
                    hash ^= self.keys.stone[c.index()][i];
                    if visited[i] {
                        continue;
                    }
                    // Flood fill the chain, counting pseudo-liberties.
                    let mut stack = vec![p];
                    let mut members = vec![];
                    let mut libs = std::collections::BTreeSet::new();
                    // Pseudo-liberty count, index sum and sum of squares.
                    let mut pseudo = (0u64, 0u64, 0u64);
                    visited[i] = true;
                    while let Some(s) = stack.pop() {
                        members.push(s);
                        for q in s.neighbors() {
                            let cell = self.cells[q.index()];
                            if cell == EMPTY {
                                libs.insert(q);
                                let qi = q.index() as u64;
                                pseudo.0 += 1;
                                pseudo.1 += qi;
                                pseudo.2 += qi * qi;
                            } else if cell == self.cells[i] && !visited[q.index()] {
                                visited[q.index()] = true;
                                stack.push(q);
                            }
                        }
                    }
                    let r = self.root[i];
                    if !members.contains(&Point(r)) {
                        return Err(format!(
                            "the root of the chain at {} is not one of its stones",
                            p.to_gtp(size)
                        ));
                    }
                    if self.stones[r as usize] as usize != members.len() {
                        return Err(format!(
                            "chain at {}: {} stones recorded, {} counted",
                            p.to_gtp(size),
                            self.stones[r as usize],
                            members.len()
                        ));
                    }
                    for s in &members {
                        if self.root[s.index()] != r {
                            return Err(format!("chain at {} has two roots", p.to_gtp(size)));
                        }
                    }
                    let mut listed: Vec<Point> = self.chain(p);
                    listed.sort_unstable();
                    members.sort_unstable();
                    if listed != members {
                        return Err(format!(
                            "chain list at {} differs from flood fill",
                            p.to_gtp(size)
                        ));
                    }
                    let ch = self.libs[r as usize];
                    // The fields, and the whole word (no field carried
                    // into the next).
                    let packed =
                        pseudo.0 | pseudo.1 << LIBS_BITS | pseudo.2 << (LIBS_BITS + SUM_BITS);
                    if (ch.count(), ch.sum(), ch.sum2()) != pseudo || ch.0 != packed {
                        return Err(format!(
                            "chain record at {}: {ch:?} incremental, {pseudo:?} counted",
                            p.to_gtp(size)
                        ));
                    }
                    if ch.in_atari() != (libs.len() == 1) || (libs.len() > 1) != ch.two_or_more() {
                        return Err(format!("atari test at {} wrong", p.to_gtp(size)));
                    }
                    if libs.len() == 1 && self.last_liberty(p) != libs.first().copied() {
                        return Err(format!("last liberty at {} wrong", p.to_gtp(size)));
                    }
                }
            }
        }
        if empties != self.n_empty as usize {
            return Err(format!("{} empty points, {} listed", empties, self.n_empty));
        }
        if hash != self.hash {
            return Err("stone hash differs from recomputed hash".to_string());
        }
        if self.ko != 0 && self.cells[self.ko as usize] != EMPTY {
            return Err("ko point is not empty".to_string());
        }
        Ok(())
    }

    /// The hash recomputed from the stones, without the incremental value.
    pub fn recompute_hash(&self) -> StoneHash {
        let mut h = 0;
        for p in self.points() {
            if let Some(c) = self.get(p) {
                h ^= self.keys.stone[c.index()][p.index()];
            }
        }
        StoneHash(h)
    }

    /// Reads a diagram: one line per row from the top, `.` or `+` for an
    /// empty point, `X`/`x`/`#` for Black, `O`/`o` for White, cells
    /// optionally separated by spaces. Row numbers at either end of a line
    /// and lines of column letters are ignored, so [`Board::diagram`] output
    /// with coordinates reads back. The board is as wide as it is tall.
    ///
    /// # Errors
    /// [`DiagramError`] for an unknown character, ragged rows, or a size
    /// outside 2..=25.
    pub fn from_diagram(text: &str) -> Result<Board, DiagramError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for line in text.lines() {
            let cells: String = line
                .chars()
                .filter(|ch| !ch.is_whitespace() && !ch.is_ascii_digit())
                .collect();
            if cells.is_empty() {
                continue;
            }
            let is_row = cells.chars().all(|ch| ".+XxOo#".contains(ch));
            if !is_row {
                let is_header = cells.chars().all(|ch| ch.is_ascii_uppercase());
                if is_header {
                    continue;
                }
                let bad = cells
                    .chars()
                    .find(|ch| !".+XxOo#".contains(*ch))
                    .unwrap_or('?');
                return Err(DiagramError(format!("unexpected character '{bad}'")));
            }
            rows.push(
                cells
                    .chars()
                    .map(|ch| match ch {
                        'X' | 'x' | '#' => Some(Color::Black),
                        'O' | 'o' => Some(Color::White),
                        _ => None,
                    })
                    .collect(),
            );
        }
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(DiagramError(format!("{size} rows; a board has 2 to 25")));
        }
        let mut changes = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(DiagramError(format!(
                    "row {} has {} points, expected {size}",
                    y + 1,
                    row.len()
                )));
            }
            for (x, &c) in row.iter().enumerate() {
                if c.is_some() {
                    changes.push((Point::new(x, y), c));
                }
            }
        }
        let mut b = Board::new(size).map_err(|e| DiagramError(e.to_string()))?;
        b.set_many(&changes)
            .map_err(|e| DiagramError(e.to_string()))?;
        Ok(b)
    }

    /// The position as text: `X` Black, `O` White, `.` empty, cells
    /// separated by spaces; with `coords`, GTP column letters above and below
    /// and row numbers at both ends. [`Board::from_diagram`] reads it back.
    pub fn diagram(&self, coords: bool) -> String {
        let size = self.size();
        let mut out = String::new();
        let letters: String = b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[..size]
            .iter()
            .map(|&b| format!("{} ", b as char))
            .collect();
        let header = format!("   {}\n", letters.trim_end());
        if coords {
            out.push_str(&header);
        }
        for y in 0..size {
            if coords {
                out.push_str(&format!("{:>2} ", size - y));
            }
            for x in 0..size {
                let ch = match self.get(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                out.push(ch);
                if x + 1 < size {
                    out.push(' ');
                }
            }
            if coords {
                out.push_str(&format!(" {}", size - y));
            }
            out.push('\n');
        }
        if coords {
            out.push_str(&header);
        }
        out
    }
}

impl fmt::Display for Board {
    /// The diagram without coordinates; `{:#}` adds them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram(f.alternate()))
    }
}

#[cfg(test)]
impl Board {
    /// The point named by the GTP vertex `v` (tests only; panics on a bad
    /// vertex or a pass).
    pub(crate) fn test_point(&self, v: &str) -> Point {
        crate::point::parse_gtp_move(v, self.size())
            .unwrap()
            .point()
            .unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(diagram: &str) -> Board {
        Board::from_diagram(diagram).unwrap()
    }

    #[test]
    fn diagram_round_trip_with_and_without_coordinates() {
        let board = b("
            . X O .
            X O . .
            . . . .
            O . . X");
        assert_eq!(Board::from_diagram(&board.to_string()).unwrap(), board);
        assert_eq!(Board::from_diagram(&format!("{board:#}")).unwrap(), board);
        board.check_invariants().unwrap();
    }

    #[test]
    fn diagram_errors() {
        assert!(Board::from_diagram(". .\n. Z").is_err());
        assert!(Board::from_diagram(". .\n. . .").is_err());
        assert!(Board::from_diagram(".").is_err());
    }

    #[test]
    fn liberties_after_counts_self_atari() {
        let board = b("
            . X O . .
            X O . . .
            . O . . .
            . . . . .
            . . . . .");
        // Black A3 joins A4: liberties A2 and A5.
        assert_eq!(board.liberties_after(Color::Black, Point::new(0, 2), 8), 2);
        // Black A5 joins B5 and A4, leaving only A3: self-atari.
        assert_eq!(board.liberties_after(Color::Black, Point::new(0, 0), 2), 1);
        // White A5 captures B5, whose point becomes its one liberty.
        assert_eq!(board.liberties_after(Color::White, Point::new(0, 0), 8), 1);
        // An open point in the middle has four.
        assert_eq!(board.liberties_after(Color::Black, Point::new(3, 3), 8), 4);
        let mut stones = 0;
        board.for_each_stone(Point::new(1, 1), |_| stones += 1);
        assert_eq!(stones, 2);
        assert_eq!(board.cell_code(Point::new(1, 0)), 1);
    }

    #[test]
    fn clone_from_copies_the_used_prefix_only_when_sizes_agree() {
        let empty = Board::new(5).unwrap();
        let mut played = empty.clone();
        for (i, &p) in [(1, 1), (2, 1), (1, 2), (2, 2), (0, 1), (3, 1)]
            .iter()
            .enumerate()
        {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            played.play(c, Point::new(p.0, p.1), false).unwrap();
        }
        // Back to the empty start: equal, and every record consistent.
        let mut b = played.clone();
        b.clone_from(&empty);
        assert_eq!(b, empty);
        b.check_invariants().unwrap();
        // Forward to the played position, then play on from it.
        b.clone_from(&played);
        assert_eq!(b, played);
        b.check_invariants().unwrap();
        b.play(Color::Black, Point::new(4, 4), false).unwrap();
        b.check_invariants().unwrap();
        // A different size falls back to a whole copy.
        let mut other = Board::new(19).unwrap();
        other.clone_from(&played);
        assert_eq!(other, played);
        other.check_invariants().unwrap();
    }

    #[test]
    fn last_liberty_and_atari_from_the_sums() {
        let mut board = b("
            . X X . .
            X O O . .
            X O . . .
            . X . . .
            . . . . .");
        // White's three stones: liberties D4 and C3 (C3 twice as a
        // pseudo-liberty, next to two of them).
        let white = Point::new(1, 1);
        assert!(!board.in_atari(white));
        assert_eq!(board.last_liberty(white), None);
        assert_eq!(board.liberties(white), 2);
        board.play(Color::Black, Point::new(3, 1), false).unwrap();
        assert!(board.in_atari(white));
        assert_eq!(board.last_liberty(white), Some(Point::new(2, 2)));
        assert_eq!(board.liberties(white), 1);
        assert_eq!(board.chain_len(white), 3);
        // Black C3 captures all three.
        assert_eq!(board.play(Color::Black, Point::new(2, 2), false), Ok(3));
        assert!(!board.in_atari(white));
        assert_eq!(board.liberties(Point::new(2, 2)), 4);
        board.check_invariants().unwrap();
    }

    #[test]
    fn capture_in_the_corner() {
        let mut board = b("
            . X O .
            X O . .
            . . . .
            . . . .");
        // B4 (one stone, one liberty at A4) is captured by White A4.
        assert_eq!(board.play(Color::White, Point::new(0, 0), false), Ok(1));
        assert_eq!(board.get(Point::new(1, 0)), None);
        assert_eq!(board.captures(Color::White), 1);
        board.check_invariants().unwrap();
    }
}

//! The board: stones, chains, liberties, captures, the simple-ko point and
//! the incremental stone hash. No history, no turn order, no superko (see
//! [`crate::game`]), no randomness.
//!
//! Storage is fixed-size arrays over the padded layout of [`crate::point`],
//! with no heap fields, so cloning a board is one `memcpy` (about 9 KB).
//!
//! Chains are union-find with full path compression: every stone stores its
//! chain's root directly, and the stones of a chain form a circular list
//! through `next`. When chains merge, the smaller chain's stones are relinked
//! to the larger chain's root. The root keeps the chain's exact stone count
//! and exact liberty count (distinct empty points next to the chain).

use crate::color::Color;
use crate::point::{Point, ARRAY_LEN, MAX_POINTS, MAX_SIZE, MIN_SIZE, STRIDE};
use crate::zobrist::{self, Keys, StoneHash};
use std::fmt;

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

/// A Go board of any size from 2x2 to 25x25.
#[derive(Clone)]
pub struct Board {
    size: u8,
    /// 0 empty, 1 black, 2 white, 3 off the board.
    cells: [u8; ARRAY_LEN],
    /// Root of the chain a stone belongs to.
    root: [u16; ARRAY_LEN],
    /// Next stone of the same chain (circular list).
    next: [u16; ARRAY_LEN],
    /// Exact liberty count, valid at roots.
    libs: [u16; ARRAY_LEN],
    /// Stone count, valid at roots.
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
            root: [0; ARRAY_LEN],
            next: [0; ARRAY_LEN],
            libs: [0; ARRAY_LEN],
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

    /// The liberty count of the chain on `p` (0 for an empty point).
    #[inline]
    pub fn liberties(&self, p: Point) -> usize {
        if self.get(p).is_none() {
            return 0;
        }
        self.libs[self.root[p.index()] as usize] as usize
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
        if self.get(p).is_none() {
            return out;
        }
        let start = p.0;
        let mut s = start;
        loop {
            out.push(Point(s));
            s = self.next[s as usize];
            if s == start {
                break;
            }
        }
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

    /// If the chain on `p` has exactly one liberty, that liberty.
    pub fn last_liberty(&self, p: Point) -> Option<Point> {
        if self.liberties(p) != 1 {
            return None;
        }
        let start = p.0;
        let mut s = start;
        loop {
            for q in Point(s).neighbors() {
                if self.cells[q.index()] == EMPTY {
                    return Some(q);
                }
            }
            s = self.next[s as usize];
            if s == start {
                return None;
            }
        }
    }

    /// Whether a stone of `c` on the empty point `p` would have no liberty
    /// after captures (a suicide of one or more stones).
    #[inline]
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        let me = cell_of(c);
        for q in p.neighbors() {
            let cell = self.cells[q.index()];
            if cell == EMPTY {
                return false;
            }
            if cell == OFF {
                continue;
            }
            let l = self.libs[self.root[q.index()] as usize];
            if cell == me {
                if l > 1 {
                    return false;
                }
            } else if l == 1 {
                return false;
            }
        }
        true
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
    pub fn liberties_after(&self, c: Color, p: Point, limit: usize) -> usize {
        let limit = limit.min(8);
        let me = cell_of(c);
        let mut found = [0u16; 8];
        let mut n = 0;
        let add = |q: u16, found: &mut [u16; 8], n: &mut usize| {
            if *n < limit && !found[..*n].contains(&q) {
                found[*n] = q;
                *n += 1;
            }
        };
        for q in p.neighbors() {
            let cell = self.cells[q.index()];
            let captured = cell != EMPTY
                && cell != OFF
                && cell != me
                && self.libs[self.root[q.index()] as usize] == 1;
            if cell == EMPTY || captured {
                add(q.0, &mut found, &mut n);
            }
        }
        let mut roots = [0u16; 4];
        let mut nr = 0;
        for q in p.neighbors() {
            if n >= limit {
                return n;
            }
            if self.cells[q.index()] != me {
                continue;
            }
            let r = self.root[q.index()];
            if roots[..nr].contains(&r) {
                continue;
            }
            roots[nr] = r;
            nr += 1;
            let mut s = r;
            loop {
                for l in Point(s).neighbors() {
                    if self.cells[l.index()] == EMPTY && l != p {
                        add(l.0, &mut found, &mut n);
                    }
                }
                if n >= limit {
                    return n;
                }
                s = self.next[s as usize];
                if s == r {
                    break;
                }
            }
        }
        n
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
                if self.libs[r as usize] == 1 && !seen[..n].contains(&r) {
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

    #[inline]
    fn remove_empty(&mut self, i: usize) {
        let pos = self.empty_pos[i] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        self.empties[pos] = last;
        self.empty_pos[last as usize] = pos as u16;
    }

    #[inline]
    fn add_empty(&mut self, i: usize) {
        self.empties[self.n_empty as usize] = i as u16;
        self.empty_pos[i] = self.n_empty;
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

    /// Whether `q` (an empty point) touches the chain rooted at `r`.
    #[inline]
    fn touches(&self, q: usize, r: u16) -> bool {
        let q = Point(q as u16);
        q.neighbors().iter().any(|n| {
            self.cells[n.index()] < OFF
                && self.cells[n.index()] != EMPTY
                && self.root[n.index()] == r
        })
    }

    /// Merges the chains rooted at `a` and `b` (same colour); returns the new
    /// root. The larger chain's liberty count must be exact; the result's is
    /// too.
    fn merge(&mut self, a: u16, b: u16) -> u16 {
        let (big, small) = if self.stones[a as usize] >= self.stones[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        // Count the small chain's liberties that the big one lacks. Each
        // small stone joins `big` right after its neighbours are looked at,
        // so `touches(q, big)` is true for a liberty the big chain already
        // has *or* one counted from an earlier small stone: every new
        // liberty is counted exactly once, with no set to clear.
        let mut fresh = 0u16;
        let mut s = small;
        loop {
            for q in Point(s).neighbors() {
                let qi = q.index();
                if self.cells[qi] == EMPTY && !self.touches(qi, big) {
                    fresh += 1;
                }
            }
            self.root[s as usize] = big;
            s = self.next[s as usize];
            if s == small {
                break;
            }
        }
        self.libs[big as usize] += fresh;
        self.stones[big as usize] += self.stones[small as usize];
        self.next.swap(big as usize, small as usize);
        big
    }

    /// Removes the chain rooted at `r`; returns its stone count.
    fn remove_chain(&mut self, r: u16) -> u32 {
        let c = color_of(self.cells[r as usize]).expect("remove_chain on a stone");
        let key = &self.keys.stone[c.index()];
        let mut s = r;
        loop {
            self.cells[s as usize] = EMPTY;
            self.hash ^= key[s as usize];
            self.add_empty(s as usize);
            s = self.next[s as usize];
            if s == r {
                break;
            }
        }
        // Every removed stone is a new liberty of each distinct neighbouring chain.
        loop {
            let mut seen = [0u16; 4];
            let mut n = 0;
            for q in Point(s).neighbors() {
                let cell = self.cells[q.index()];
                if cell != EMPTY && cell != OFF {
                    let rq = self.root[q.index()];
                    if !seen[..n].contains(&rq) {
                        seen[n] = rq;
                        n += 1;
                        self.libs[rq as usize] += 1;
                    }
                }
            }
            s = self.next[s as usize];
            if s == r {
                break;
            }
        }
        self.stones[r as usize] as u32
    }

    /// Plays `c` on the empty point `p` without checking legality; returns
    /// the number of opposing stones captured. A chain left without
    /// liberties after captures (a suicide) is removed and credited to the
    /// opponent. This is the playout path.
    ///
    /// # Panics
    /// In debug builds, if `p` is not an empty on-board point.
    pub fn play_unchecked(&mut self, c: Color, p: Point) -> u32 {
        let pi = p.index();
        debug_assert_eq!(self.cells[pi], EMPTY, "play_unchecked on a non-empty point");
        let me = cell_of(c);
        self.remove_empty(pi);
        self.cells[pi] = me;
        self.hash ^= self.keys.stone[c.index()][pi];
        self.root[pi] = pi as u16;
        self.next[pi] = pi as u16;
        self.stones[pi] = 1;

        let mut seen = [0u16; 4];
        let mut n = 0;
        let mut own_libs = 0;
        for q in p.neighbors() {
            let cell = self.cells[q.index()];
            if cell == EMPTY {
                own_libs += 1;
            } else if cell != OFF {
                let r = self.root[q.index()];
                if !seen[..n].contains(&r) {
                    seen[n] = r;
                    n += 1;
                    self.libs[r as usize] -= 1;
                }
            }
        }
        self.libs[pi] = own_libs;

        let mut mine = pi as u16;
        for &r in &seen[..n] {
            if self.cells[r as usize] == me {
                mine = self.merge(mine, r);
            }
        }

        let mut captured = 0;
        let mut last_captured = 0u16;
        for &r in &seen[..n] {
            let cell = self.cells[r as usize];
            if cell != me && cell != EMPTY && self.libs[r as usize] == 0 {
                captured += self.remove_chain(r);
                last_captured = r;
            }
        }
        self.captures[c.index()] += captured;

        self.ko = 0;
        if captured == 1 && self.stones[mine as usize] == 1 && self.libs[mine as usize] == 1 {
            self.ko = last_captured;
            self.ko_color = cell_of(c.opponent());
        }

        if self.libs[mine as usize] == 0 {
            let lost = self.remove_chain(mine);
            self.captures[c.opponent().index()] += lost;
        }
        captured
    }

    /// Whether `p` is an eye of `c` in the benchmark playout's sense: every
    /// on-board neighbour is a stone of `c`, and the diagonal stones of the
    /// opponent number 0 on the edge and at most 1 elsewhere.
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        let me = cell_of(c);
        for q in p.neighbors() {
            let cell = self.cells[q.index()];
            if cell != me && cell != OFF {
                return false;
            }
        }
        let opp = cell_of(c.opponent());
        let mut bad = 0;
        let mut edge = false;
        for q in p.diagonals() {
            let cell = self.cells[q.index()];
            if cell == opp {
                bad += 1;
            } else if cell == OFF {
                edge = true;
            }
        }
        if edge {
            bad == 0
        } else {
            bad <= 1
        }
    }

    /// Whether the benchmark playout may play `c` on the empty point `p`:
    /// not an eye of `c` ([`Board::is_eye`]), not the simple-ko recapture,
    /// and not a suicide of any size ([`Board::is_suicide`]). Same answer as
    /// those three tests, in one pass in the usual case of a point with an
    /// empty neighbour (the ko point never has one).
    #[inline]
    pub fn is_playout_candidate(&self, c: Color, p: Point) -> bool {
        let me = cell_of(c);
        let mut all_mine = true;
        for q in p.neighbors() {
            let cell = self.cells[q.index()];
            if cell == EMPTY {
                return true;
            }
            if cell != me && cell != OFF {
                all_mine = false;
            }
        }
        if all_mine && self.is_eye(c, p) {
            return false;
        }
        !self.is_ko_recapture(c, p) && !self.is_suicide(c, p)
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

    /// Recomputes chains, liberties, hash and empty list from the stones.
    fn rebuild(&mut self) {
        self.n_empty = 0;
        self.hash = 0;
        self.ko = 0;
        let size = self.size();
        for p in Point::all(size) {
            let i = p.index();
            self.root[i] = i as u16;
            self.next[i] = i as u16;
            self.stones[i] = 1;
            self.libs[i] = 0;
            match color_of(self.cells[i]) {
                None => self.add_empty(i),
                Some(c) => self.hash ^= self.keys.stone[c.index()][i],
            }
        }
        // Union neighbours of the same colour, then count liberties.
        for p in Point::all(size) {
            let i = p.index();
            let cell = self.cells[i];
            if cell == EMPTY {
                continue;
            }
            for q in [Point(i as u16 + 1), Point(i as u16 + STRIDE as u16)] {
                if self.cells[q.index()] == cell {
                    let (a, b) = (self.root[i], self.root[q.index()]);
                    if a != b {
                        self.relink(a, b);
                    }
                }
            }
        }
        for p in Point::all(size) {
            let i = p.index();
            if self.cells[i] != EMPTY && self.root[i] == i as u16 {
                self.libs[i] = self.chain_liberties(p).len() as u16;
            }
        }
    }

    /// Joins two chains without liberty bookkeeping (for rebuilds).
    fn relink(&mut self, a: u16, b: u16) {
        let (big, small) = if self.stones[a as usize] >= self.stones[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.root[s as usize] = big;
            s = self.next[s as usize];
            if s == small {
                break;
            }
        }
        self.stones[big as usize] += self.stones[small as usize];
        self.next.swap(big as usize, small as usize);
    }

    /// Rebuilds chains, liberties and hash from the stones alone (flood
    /// fill, no incremental structure) and compares them with the
    /// incremental ones.
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
        }
        for p in Point::all(size) {
            let i = p.index();
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
                    // Flood fill the chain.
                    let mut stack = vec![p];
                    let mut members = vec![];
                    let mut libs = std::collections::BTreeSet::new();
                    visited[i] = true;
                    while let Some(s) = stack.pop() {
                        members.push(s);
                        for q in s.neighbors() {
                            let cell = self.cells[q.index()];
                            if cell == EMPTY {
                                libs.insert(q);
                            } else if cell == self.cells[i] && !visited[q.index()] {
                                visited[q.index()] = true;
                                stack.push(q);
                            }
                        }
                    }
                    let r = self.root[i];
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
                    if self.stones[r as usize] as usize != members.len() {
                        return Err(format!("stone count at {} wrong", p.to_gtp(size)));
                    }
                    if self.libs[r as usize] as usize != libs.len() {
                        return Err(format!(
                            "liberty count at {}: {} incremental, {} counted",
                            p.to_gtp(size),
                            self.libs[r as usize],
                            libs.len()
                        ));
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

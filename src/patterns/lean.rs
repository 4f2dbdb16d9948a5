//! The features of many candidates of one position, for the search's
//! priors: the same [`MoveFeatures`] as [`extract`](super::extract), with
//! the work per position done once.
//!
//! What is shared between the candidates of one position:
//! - the stones as bitmasks per row and side (`shape::StateGrid`), so the
//!   large patterns visit only the stones inside the pattern; the
//!   off-board cells come from a table per board size and point
//!   (`shape::large_hashes_grid`), and a size's code (the minimum over the
//!   8 symmetries) is taken only when the table lookup asks for it, from
//!   the largest size down;
//! - the exact liberty count of each chain, counted once;
//! - the canonical 3x3 code by per-byte tables
//!   (`shape::canonical_shape3_fast`).
//!
//! The ladder reader is the one of [`super::features`] with early answers
//! where the liberties after a move without captures settle the reading
//! ([`Board::liberties_after`] is exact then), and copies of the board
//! made into reused boards. `extract` stays the reference:
//! `lean_features_match_extract` below compares the two on random
//! positions with ataris, ladders and captures.

use super::features::{
    dist_prev2_key, save_key, Family, MoveFeatures, Position, ATARI_KO, ATARI_LADDER, ATARI_OTHER,
    CAPTURE_BIG, CAPTURE_COUNTER, CAPTURE_LAST, CAPTURE_ONE, CAPTURE_SAVES, ESCAPE_NEW,
    ESCAPE_NEW_LADDER, ESCAPE_OLD, ESCAPE_OLD_LADDER, LADDER_BUDGET,
};
use super::shape::{self, StateGrid};
use super::PatternTable;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point, ARRAY_LEN};

/// Boards the ladder reader keeps between positions.
const POOL_KEEP: usize = 32;

/// Reusable buffers for the features of the candidates of one position
/// after another (one per search thread).
pub struct Scanner {
    grid: StateGrid,
    /// Per chain root: its liberty count plus 1, 0 when not counted yet.
    libs: Vec<u16>,
    /// Boards for the ladder reader's positions, reused.
    pool: Vec<Box<Board>>,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner::new()
    }
}

impl Scanner {
    /// Empty buffers.
    pub fn new() -> Scanner {
        Scanner {
            grid: StateGrid::new(),
            libs: vec![0; ARRAY_LEN],
            pool: Vec::new(),
        }
    }

    /// The features of each point of `points` (each one that
    /// [`candidate_points`](super::candidate_points) lists for `pos`), in
    /// order, into `out` (cleared first): what
    /// [`extract`](super::extract) gives for `Move::Play` of each.
    pub fn features(&mut self, pos: &Position, points: &[Point], out: &mut Vec<MoveFeatures>) {
        out.clear();
        self.prepare(pos);
        for &p in points {
            out.push(self.one(pos, p, true));
        }
    }

    /// The strength ([`PatternTable::strength`]) of each point of `points`
    /// for `pos`, in order, into `out` (cleared first).
    pub fn strengths(
        &mut self,
        pos: &Position,
        points: &[Point],
        table: &PatternTable,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        self.prepare(pos);
        for &p in points {
            let f = self.one(pos, p, false);
            // The largest pattern the table knows, from the largest size
            // down, each code computed only when asked for.
            let hashes = shape::large_hashes_grid(&self.grid, p);
            let large = (0..shape::LEVELS)
                .rev()
                .find_map(|level| table.large_gamma(hashes.code(level)));
            out.push(table.strength_with_large(&f, large));
        }
    }

    fn prepare(&mut self, pos: &Position) {
        self.grid.fill(pos.board, pos.to_move);
        self.libs.fill(0);
        // A long reading's boards are not all kept (16 KB each).
        self.pool.truncate(POOL_KEEP);
    }

    /// The exact liberty count of the chain on the stone `q` of the
    /// prepared position.
    fn liberties(&mut self, b: &Board, q: Point) -> usize {
        let r = b.chain_root(q).index();
        if self.libs[r] == 0 {
            self.libs[r] = b.liberties(q) as u16 + 1;
        }
        self.libs[r] as usize - 1
    }

    /// [`extract`](super::extract) of `Move::Play(p)`, `pos` prepared;
    /// without the large pattern codes unless `all_large`.
    fn one(&mut self, pos: &Position, p: Point, all_large: bool) -> MoveFeatures {
        let mut f = MoveFeatures::default();
        let set = |f: &mut MoveFeatures, fam: Family, v: u32| f.values[fam as usize] = Some(v);
        let b = pos.board;
        let me = pos.to_move;
        let n = b.size();
        let lx = (p.x().min(n - 1 - p.x()) + 1).min(7);
        let ly = (p.y().min(n - 1 - p.y()) + 1).min(7);
        set(&mut f, Family::Edge, (10 * lx.min(ly) + lx.max(ly)) as u32);
        let last = match pos.last {
            Some(Move::Play(q)) => Some(q),
            _ => None,
        };
        let last2 = match pos.last2 {
            Some(Move::Play(q)) => Some(q),
            _ => None,
        };
        if let Some(q) = last {
            set(&mut f, Family::DistPrev, distance(p, q));
        }
        if let Some(q) = last2 {
            set(&mut f, Family::DistPrev2, dist_prev2_key(p, q, last));
        }
        let raw = self.shape3_raw(b, me, p)
            | shape::square_marker(p, last) << shape::SHAPE3_BITS
            | shape::square_marker(p, last2) << (shape::SHAPE3_BITS + 4);
        set(&mut f, Family::Shape3, shape::canonical_shape3_fast(raw));
        if all_large {
            f.large = shape::large_hashes_grid(&self.grid, p).codes();
        }
        // The distinct chains next to `p`, ours and theirs, once.
        let (own, theirs) = neighbour_chains(b, me, p);
        let (own, theirs) = (&own.0[..own.1], &theirs.0[..theirs.1]);
        let captures = self.capture_level(b, me, theirs, last);
        if let Some(level) = captures {
            set(&mut f, Family::Capture, u32::from(level));
        }
        if let Some(level) = self.escape_level(b, me, p, own, last) {
            set(&mut f, Family::Escape, u32::from(level));
        }
        if let Some(level) = self.atari_level(b, me, p, theirs) {
            set(&mut f, Family::Atari, u32::from(level));
        }
        let joins = own.len();
        let libs = b.liberties_after(me, p, 5).clamp(1, 5);
        set(&mut f, Family::Libs, (libs + 10 * joins.min(2)) as u32);
        if let Some(v) = self.press_level(b, me, theirs, last) {
            set(&mut f, Family::Press, v);
        }
        let save = own
            .iter()
            .filter(|&&r| self.liberties(b, r) == 2)
            .map(|&r| save_key(b, me, r, last, libs))
            .max();
        if let Some(v) = save {
            set(&mut f, Family::Save, v);
        }
        if captures.is_none() {
            if let Some(size) = self.self_atari_size(b, p, own) {
                set(&mut f, Family::SelfAtari, (size.min(3) - 1) as u32);
            }
        }
        f
    }

    /// [`shape::shape3_raw`] with the cached liberty counts.
    fn shape3_raw(&mut self, b: &Board, me: Color, p: Point) -> u32 {
        let mut code = 0u32;
        for (i, step) in shape::square_steps().into_iter().enumerate() {
            let q = Point((p.index() as isize + step) as u16);
            let mut cell = match b.get(q) {
                _ if !b.on_board(q) => 3,
                None => 0,
                Some(c) if c == me => 1,
                Some(_) => 2,
            };
            let shift = if i < 4 {
                if cell == 1 || cell == 2 {
                    match self.liberties(b, q) {
                        1 => cell |= 4,
                        2 => cell |= 8,
                        _ => {}
                    }
                }
                4 * i as u32
            } else {
                16 + 2 * (i as u32 - 4)
            };
            code |= cell << shift;
        }
        code
    }

    fn press_level(
        &mut self,
        b: &Board,
        me: Color,
        theirs: &[Point],
        last: Option<Point>,
    ) -> Option<u32> {
        let opp = me.opponent();
        let last_root = last
            .filter(|&q| b.get(q) == Some(opp))
            .map(|q| b.chain_root(q));
        let mut best: Option<(usize, usize, bool)> = None;
        for &r in theirs {
            let libs = self.liberties(b, r);
            if libs <= 1 {
                continue;
            }
            let after = (libs - 1).min(4);
            let size = b.chain_len(r);
            let is_last = last_root == Some(r);
            if best.is_none_or(|(l, s, w)| (after, !is_last, size.min(2)) < (l, !w, s.min(2))) {
                best = Some((after, size, is_last));
            }
        }
        best.map(|(l, s, w)| (l + if s >= 2 { 10 } else { 0 } + if w { 20 } else { 0 }) as u32)
    }

    fn capture_level(
        &mut self,
        b: &Board,
        me: Color,
        theirs: &[Point],
        last: Option<Point>,
    ) -> Option<u8> {
        let opp = me.opponent();
        let mut best: Option<u8> = None;
        for &r in theirs {
            if !b.in_atari(r) {
                continue;
            }
            let is_last = last.is_some_and(|q| b.get(q) == Some(opp) && b.chain_root(q) == r);
            let saves = touches_chain_in_atari(b, r, me);
            let level = match (is_last, saves) {
                (true, true) => CAPTURE_COUNTER,
                (false, true) => CAPTURE_SAVES,
                (true, false) => CAPTURE_LAST,
                _ if b.chain_len(r) == 1 => CAPTURE_ONE,
                _ => CAPTURE_BIG,
            };
            best = Some(best.map_or(level, |x| x.min(level)));
        }
        best
    }

    fn escape_level(
        &mut self,
        b: &Board,
        me: Color,
        p: Point,
        own: &[Point],
        last: Option<Point>,
    ) -> Option<u8> {
        let mut in_atari = [p; 4];
        let mut m = 0;
        for &r in own {
            if b.in_atari(r) {
                in_atari[m] = r;
                m += 1;
            }
        }
        if m == 0 {
            return None;
        }
        let in_atari = &in_atari[..m];
        let new = last.is_some_and(|q| {
            q.neighbors().iter().any(|&s| {
                b.on_board(s) && b.get(s) == Some(me) && in_atari.contains(&b.chain_root(s))
            })
        });
        let caught = match after_move(b, me, p) {
            After::Libs(l) => l <= 1,
            After::Open => false,
            After::Two => {
                let mut after = take(&mut self.pool, b);
                after.play_unchecked(me, p);
                let mut budget = LADDER_BUDGET;
                let caught = attacker_captures(&after, p, &mut budget, &mut self.pool);
                self.pool.push(after);
                caught
            }
            After::Captures => {
                let mut after = take(&mut self.pool, b);
                after.play_unchecked(me, p);
                let caught = match after.liberties(p) {
                    0 | 1 => true,
                    2 => {
                        let mut budget = LADDER_BUDGET;
                        attacker_captures(&after, p, &mut budget, &mut self.pool)
                    }
                    _ => false,
                };
                self.pool.push(after);
                caught
            }
        };
        Some(match (new, caught) {
            (true, false) => ESCAPE_NEW,
            (true, true) => ESCAPE_NEW_LADDER,
            (false, false) => ESCAPE_OLD,
            (false, true) => ESCAPE_OLD_LADDER,
        })
    }

    fn atari_level(&mut self, b: &Board, me: Color, p: Point, theirs: &[Point]) -> Option<u8> {
        let opp = me.opponent();
        let mut targets = [p; 4];
        let mut m = 0;
        for &r in theirs {
            if self.liberties(b, r) == 2 {
                targets[m] = r;
                m += 1;
            }
        }
        if m == 0 {
            return None;
        }
        let mut after = take(&mut self.pool, b);
        after.play_unchecked(me, p);
        let mut any = false;
        let mut ladder = false;
        for &r in &targets[..m] {
            if after.get(r) != Some(opp) || !after.in_atari(r) {
                continue;
            }
            any = true;
            let mut budget = LADDER_BUDGET;
            if ladder_captured(&after, r, &mut budget, &mut self.pool) {
                ladder = true;
                break;
            }
        }
        self.pool.push(after);
        if ladder {
            return Some(ATARI_LADDER);
        }
        if !any {
            return None;
        }
        Some(if b.ko().is_some() {
            ATARI_KO
        } else {
            ATARI_OTHER
        })
    }

    /// As `features::self_atari_size`, with the cached liberty counts.
    fn self_atari_size(&mut self, b: &Board, p: Point, own: &[Point]) -> Option<usize> {
        super::features::self_atari_size_with(b, p, own, |r| self.liberties(b, r))
    }
}

/// `dx + dy + max(dx, dy)`, capped at 17 (as `features::distance`).
fn distance(a: Point, b: Point) -> u32 {
    let dx = a.x().abs_diff(b.x()) as u32;
    let dy = a.y().abs_diff(b.y()) as u32;
    (dx + dy + dx.max(dy)).min(17)
}

/// Chain roots (at most 4) and their number.
type Chains = ([Point; 4], usize);

/// The distinct chain roots next to `p` of `me` and of the opponent, in
/// the order of `p`'s neighbours.
fn neighbour_chains(b: &Board, me: Color, p: Point) -> (Chains, Chains) {
    let mut own = ([p; 4], 0);
    let mut theirs = ([p; 4], 0);
    for q in p.neighbors() {
        let Some(c) = b.get(q) else {
            continue;
        };
        let r = b.chain_root(q);
        let (roots, k) = if c == me { &mut own } else { &mut theirs };
        if !roots[..*k].contains(&r) {
            roots[*k] = r;
            *k += 1;
        }
    }
    (own, theirs)
}

/// Whether the chain on `r` touches a chain of colour `c` with one liberty.
fn touches_chain_in_atari(b: &Board, r: Point, c: Color) -> bool {
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
enum After {
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

fn after_move(b: &Board, c: Color, p: Point) -> After {
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
fn take(pool: &mut Vec<Box<Board>>, b: &Board) -> Box<Board> {
    match pool.pop() {
        Some(mut x) => {
            (*x).clone_from(b);
            x
        }
        None => Box::new(b.clone()),
    }
}

/// `features::attacker_captures`: whether the attacker, to move, captures
/// the chain on `p` (two liberties) by a ladder.
fn attacker_captures(b: &Board, p: Point, budget: &mut u32, pool: &mut Vec<Box<Board>>) -> bool {
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
        let caught =
            next.get(p) == Some(d) && next.in_atari(p) && ladder_captured(&next, p, budget, pool);
        pool.push(next);
        if caught {
            return true;
        }
    }
    false
}

/// `features::ladder_captured`: whether the chain on `p` (one liberty, its
/// owner to move) is captured when it extends and the attacker keeps
/// giving atari.
fn ladder_captured(b: &Board, p: Point, budget: &mut u32, pool: &mut Vec<Box<Board>>) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::{candidate_points, extract};
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// Every candidate of `pos`: the lean features equal `extract`'s and
    /// the strengths are the same bits. Returns the features.
    fn check(pos: &Position, scanner: &mut Scanner, table: &PatternTable) -> Vec<MoveFeatures> {
        let points: Vec<Point> = candidate_points(pos.board, pos.to_move).collect();
        let mut lean = Vec::new();
        scanner.features(pos, &points, &mut lean);
        let mut strengths = Vec::new();
        scanner.strengths(pos, &points, table, &mut strengths);
        assert_eq!((lean.len(), strengths.len()), (points.len(), points.len()));
        for ((&p, f), s) in points.iter().zip(&lean).zip(&strengths) {
            let plain = extract(pos, Move::Play(p));
            assert_eq!(*f, plain, "{p:?}\n{}", pos.board);
            assert_eq!(
                s.to_bits(),
                table.strength(&plain).to_bits(),
                "{p:?}\n{}",
                pos.board
            );
        }
        lean
    }

    #[test]
    fn lean_features_match_extract() {
        let table = PatternTable::builtin();
        let mut scanner = Scanner::new();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut checked, mut ladders, mut escapes, mut captures, mut ataris) = (0, 0, 0, 0, 0);
        // Random games on several sizes, both colours to move, looked at
        // every few moves from the opening to the crowded end.
        for (size, games) in [(9, 6), (13, 3), (19, 3), (5, 3)] {
            for _ in 0..games {
                let mut b = Board::new(size).expect("size");
                let mut c = Color::Black;
                let (mut last, mut last2) = (None, None);
                for ply in 0..(size * size * 2) {
                    if ply % 7 == 0 {
                        for to_move in [c, c.opponent()] {
                            let pos = Position {
                                board: &b,
                                to_move,
                                last: last.map(Move::Play),
                                last2: last2.map(Move::Play),
                            };
                            let lean = check(&pos, &mut scanner, table);
                            checked += lean.len();
                            for f in lean {
                                let is = |fam, v: u8| f.get(fam) == Some(u32::from(v));
                                ladders += usize::from(
                                    is(Family::Atari, ATARI_LADDER)
                                        || is(Family::Escape, ESCAPE_NEW_LADDER)
                                        || is(Family::Escape, ESCAPE_OLD_LADDER),
                                );
                                escapes += usize::from(f.get(Family::Escape).is_some());
                                captures += usize::from(f.get(Family::Capture).is_some());
                                ataris += usize::from(f.get(Family::Atari).is_some());
                            }
                        }
                    }
                    let moves: Vec<Point> = candidate_points(&b, c).collect();
                    if moves.is_empty() {
                        break;
                    }
                    // A uniform index by 64x64->128 multiplication.
                    let i = (u128::from(rng.next_u64()) * moves.len() as u128) >> 64;
                    let p = moves[i as usize];
                    b.play_unchecked(c, p);
                    (last2, last) = (last, Some(p));
                    c = c.opponent();
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
        assert!(ladders > 50, "{ladders}");
        assert!(escapes > 200, "{escapes}");
        assert!(captures > 200, "{captures}");
        assert!(ataris > 200, "{ataris}");
    }
}

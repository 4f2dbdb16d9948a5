//! Cheap tactical reading for the playout policy: ladders for atari
//! escapes, read along one line with a small step budget and no heap
//! allocation (one copy of the board on the stack per reading), and the
//! self-ataris worth playing (snapback, nakade).
//!
//! Two ladder readers stay, this one and [`crate::patterns::ladder`]
//! (the move features' and the priors'), because they answer different
//! needs. The playouts read an escape for almost every atari of every
//! playout, so this reader follows one line: of the attacker's two ataris
//! only the one that leaves the defender fewest liberties, for at most
//! [`PlayoutConfig::ladder_budget`](super::PlayoutConfig::ladder_budget)
//! steps, and it calls the chain free wherever it stops short (an
//! extension that captures, a branch it does not follow, the budget).
//! The features' reader branches on every atari and follows the
//! defender's captures, with boards from a pool, which the playouts
//! cannot afford. Where this reader calls an extension captured, the full
//! reader agrees: `one_line_reader_agrees_with_the_full_reader` checks it
//! on positions of seeded playout games.

use crate::board::Board;
use crate::color::Color;
use crate::point::Point;

/// Up to `N` distinct liberties of the chain on the stone `p`, and how many
/// were found (stops at `N`).
#[inline]
pub(crate) fn liberties_upto<const N: usize>(b: &Board, p: Point) -> ([Point; N], usize) {
    let mut libs = [p; N];
    let mut n = 0;
    let mut full = false;
    b.for_each_stone(p, |s| {
        if full {
            return;
        }
        for q in s.neighbors() {
            if b.is_empty(q) && !libs[..n].contains(&q) {
                if n == N {
                    full = true;
                    return;
                }
                libs[n] = q;
                n += 1;
            }
        }
    });
    if full {
        (libs, N + 1)
    } else {
        (libs, n)
    }
}

/// Whether some chain of `c` next to the chain on `p` is in atari (the
/// chain on `p` could capture it).
fn touches_atari(b: &Board, p: Point, c: Color) -> bool {
    let mut found = false;
    b.for_each_stone(p, |s| {
        if !found {
            found = s
                .neighbors()
                .iter()
                .any(|&q| b.get(q) == Some(c) && b.in_atari(q));
        }
    });
    found
}

/// Whether extending the chain on `p` (in atari, its owner `d` to move) on
/// its last liberty still loses it to a ladder: the extension leaves it at
/// most one liberty, or exactly two and the attacker catches it by
/// repeated ataris. The attacker's line is read greedily, one copy of the
/// board and no branching: of the two ataris it plays the one that leaves
/// the defender fewest liberties after the next extension, and only an
/// atari stone with two liberties or more. The defender gets away when it
/// can capture a chain next to it that is in atari, when an extension
/// reaches three liberties or captures something, or when `budget`
/// (ladder steps) runs out.
pub(crate) fn escape_fails(b: &Board, d: Color, p: Point, budget: u32) -> bool {
    let Some(lib) = b.last_liberty(p) else {
        return false;
    };
    match extension(b, d, p, lib) {
        Some(false) => return false,
        Some(true) => return true,
        None => {}
    }
    if budget == 0 {
        return false;
    }
    let a = d.opponent();
    let mut s = b.clone();
    let mut lib = lib;
    for _ in 0..budget {
        s.play_unchecked(d, lib);
        let (libs, n) = liberties_upto::<2>(&s, p);
        if n != 2 {
            return n < 2;
        }
        // The attacker's atari: the one leaving the fewest liberties after
        // the defender extends on the other liberty.
        let mut best: Option<(usize, Point, Point)> = None;
        for (at, e) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if s.is_ko_recapture(a, at) || s.is_suicide(a, at) || s.liberties_after(a, at, 2) < 2 {
                continue;
            }
            if s.is_suicide(d, e) {
                // The defender cannot extend after this atari.
                best = Some((0, at, e));
                break;
            }
            // `at` is one of the liberties counted; the atari fills it.
            let after = s.liberties_after(d, e, 4).saturating_sub(1);
            if best.is_none_or(|(k, _, _)| after < k) {
                best = Some((after, at, e));
            }
        }
        let Some((after, at, e)) = best else {
            return false;
        };
        if after >= 3 {
            return false;
        }
        s.play_unchecked(a, at);
        if s.get(p) != Some(d) {
            return true;
        }
        match extension(&s, d, p, e) {
            Some(false) => return false,
            Some(true) => return true,
            None => lib = e,
        }
    }
    false
}

/// The defender's extension of the chain on `p` (of `d`, in atari) on its
/// last liberty `lib`, judged without playing it: `Some(false)` when the
/// chain gets away (it can capture a chain next to it in atari, the
/// extension captures something or reaches three liberties),
/// `Some(true)` when it stays in atari (or cannot be played), `None` when
/// it gets exactly two liberties and the ladder goes on.
fn extension(b: &Board, d: Color, p: Point, lib: Point) -> Option<bool> {
    let a = d.opponent();
    if touches_atari(b, p, a) {
        return Some(false);
    }
    if b.is_ko_recapture(d, lib) || b.is_suicide(d, lib) {
        return Some(true);
    }
    if lib
        .neighbors()
        .iter()
        .any(|&q| b.get(q) == Some(a) && b.in_atari(q))
    {
        return Some(false);
    }
    match b.liberties_after(d, lib, 3) {
        0 | 1 => Some(true),
        2 => None,
        _ => Some(false),
    }
}

/// Whether `c` playing on `l` to save its chain on `q` (in atari, `l` its
/// last liberty) is a wasted move that a ladder captures anyway.
pub(crate) fn extension_is_ladder_dead(b: &Board, c: Color, q: Point, budget: u32) -> bool {
    debug_assert_eq!(b.get(q), Some(c));
    escape_fails(b, c, q, budget)
}

/// What a move of `c` on the empty point `p` makes of its chain.
enum SelfAtari {
    /// The move captures: not a self-atari worth reading.
    Captures,
    /// A chain of `n` stones (at most four, in `stones[..n]`) with the one
    /// liberty `l`.
    Chain { n: usize, l: Point },
    /// Anything else: more liberties, none, or a larger chain.
    Other,
}

/// The chain that `c` on `p` makes, when it is a self-atari of at most
/// four stones that captures nothing; its stones go to `stones`.
fn self_atari_chain(b: &Board, c: Color, p: Point, stones: &mut [Point; 5]) -> SelfAtari {
    stones[0] = p;
    let mut n = 1;
    let mut lib: Option<Point> = None;
    let mut roots = [p; 4];
    let mut n_roots = 0;
    for q in p.neighbors() {
        match b.get(q) {
            None if b.is_empty(q) => {
                if lib.is_some_and(|l| l != q) {
                    return SelfAtari::Other;
                }
                lib = Some(q);
            }
            Some(col) if col == c => {
                let r = b.chain_root(q);
                if roots[..n_roots].contains(&r) {
                    continue;
                }
                roots[n_roots] = r;
                n_roots += 1;
                if n + b.chain_len(q) > 4 {
                    return SelfAtari::Other;
                }
                let mut libs_ok = true;
                b.for_each_stone(q, |s| {
                    stones[n] = s;
                    n += 1;
                    for t in s.neighbors() {
                        if b.is_empty(t) && t != p {
                            if lib.is_some_and(|l| l != t) {
                                libs_ok = false;
                            }
                            lib = Some(t);
                        }
                    }
                });
                if !libs_ok {
                    return SelfAtari::Other;
                }
            }
            Some(_) if b.in_atari(q) => return SelfAtari::Captures,
            _ => {}
        }
    }
    match lib {
        Some(l) => SelfAtari::Chain { n, l },
        None => SelfAtari::Other,
    }
}

/// Whether `c` on the empty point `p`, a self-atari that captures nothing,
/// is still a good move: a snapback, or a nakade (the stones it leaves in
/// atari, when captured, leave the opponent an eye space of one eye), or,
/// with `shortage`, a sacrifice that leaves a larger chain short of liberties
/// ([`shortage_self_atari`]).
///
/// Snapback: a single stone whose capture on its liberty `l` leaves the
/// capturing chain (two stones or more) with no liberty but `p`.
/// Nakade: the chain on `p` after the move has at most three stones, or
/// four in a square or a T; it and its liberty `l` are enclosed by the
/// opponent's stones and the edge; and every opposing chain around has
/// three liberties or more (a chain short of liberties may be in seki, or
/// in a race that the self-atari loses).
pub(crate) fn good_self_atari(b: &Board, c: Color, p: Point, shortage: bool) -> bool {
    let mut stones = [p; 5];
    match self_atari_chain(b, c, p, &mut stones) {
        SelfAtari::Captures => true,
        SelfAtari::Other => false,
        SelfAtari::Chain { n, l } => {
            (n == 1 && snapback(b, c, p, l))
                || nakade(b, c.opponent(), &stones[..n], l)
                || (shortage && shortage_on(b, c, p, n, l))
        }
    }
}

/// Whether `c` on the empty point `p` is a self-atari (of at most three
/// stones, capturing nothing) that puts a larger opposing chain in atari
/// on the self-atari's own liberty `l`, with `l` enclosed by that chain
/// and ours: the opponent's capture on `l` leaves its chain with no
/// liberty but the points it captured, short of liberties (a
/// connect-and-die, or a throw-in before a snapback).
pub(crate) fn shortage_self_atari(b: &Board, c: Color, p: Point) -> bool {
    let mut stones = [p; 5];
    match self_atari_chain(b, c, p, &mut stones) {
        SelfAtari::Chain { n, l } => shortage_on(b, c, p, n, l),
        _ => false,
    }
}

/// [`shortage_self_atari`] for the chain of `n` stones on `p` with the one
/// liberty `l`.
fn shortage_on(b: &Board, c: Color, p: Point, n: usize, l: Point) -> bool {
    // Three stones at most: a straight four captured may leave two eyes.
    if n > 3 || l.neighbors().iter().any(|&t| t != p && b.is_empty(t)) {
        return false;
    }
    let opp = c.opponent();
    p.neighbors().iter().any(|&q| {
        if b.get(q) != Some(opp) || b.chain_len(q) <= n {
            return false;
        }
        let (libs, k) = liberties_upto::<3>(b, q);
        let root = b.chain_root(q);
        // The capture on `l` joins no other chain (with liberties of its
        // own) to the one in atari.
        k == 2
            && libs[..2].contains(&p)
            && libs[..2].contains(&l)
            && l.neighbors()
                .iter()
                .all(|&t| b.get(t) != Some(opp) || b.chain_root(t) == root)
    })
}

/// Whether a stone of `c` on `p` (no stone of `c` next to it, one
/// liberty `l`) is a snapback.
fn snapback(b: &Board, c: Color, p: Point, l: Point) -> bool {
    let opp = c.opponent();
    for q in l.neighbors() {
        if q == p {
            continue;
        }
        match b.get(q) {
            None if b.is_empty(q) => return false,
            // Another chain of ours that the capture would take too.
            Some(col) if col == c && b.in_atari(q) => return false,
            _ => {}
        }
    }
    let mut capturers = 0;
    for q in l.neighbors() {
        if q != p && b.get(q) == Some(opp) {
            let (libs, k) = liberties_upto::<2>(b, q);
            if k > 2 || libs[..k].iter().any(|&t| t != p && t != l) {
                return false;
            }
            capturers += 1;
        }
    }
    capturers >= 1
}

/// Whether the chain `stones` (of the opponent of `opp`, one liberty `l`)
/// is a nakade: small and in a dead shape, enclosed with `l` by `opp`,
/// with every chain of `opp` around it holding three liberties or more.
fn nakade(b: &Board, opp: Color, stones: &[Point], l: Point) -> bool {
    let n = stones.len();
    if n > 4 {
        return false;
    }
    if n == 4 {
        let degree = |s: Point| s.neighbors().iter().filter(|t| stones.contains(t)).count();
        let mut d = [0; 4];
        for (k, &s) in stones.iter().enumerate() {
            d[k] = degree(s);
        }
        d.sort_unstable();
        // A square (2,2,2,2) or a T (1,1,1,3).
        if d != [2, 2, 2, 2] && d != [1, 1, 1, 3] {
            return false;
        }
    }
    // Enclosure first (cheap), then the liberties of the chains around.
    let mut around = [l; 16];
    let mut n_around = 0;
    for &s in stones.iter().chain(std::iter::once(&l)) {
        for t in s.neighbors() {
            if t == l || stones.contains(&t) || !b.on_board(t) {
                continue;
            }
            if b.get(t) != Some(opp) {
                return false;
            }
            let r = b.chain_root(t);
            if !around[..n_around].contains(&r) && n_around < around.len() {
                around[n_around] = r;
                n_around += 1;
            }
        }
    }
    around[..n_around]
        .iter()
        .all(|&r| !b.in_atari(r) && liberties_upto::<2>(b, r).1 >= 3)
}

/// A position (move 55) of a 9x9 game that Kosumi lost to Pachi as White:
/// White's chain of sixteen stones has the two liberties E1 and F2, Black
/// F1 the same two. For the tests of the shortage reading here and in
/// the priors.
#[cfg(test)]
pub(crate) const SHORTAGE: &str = "
    . . . . . . . . .
    . . . X X O O . .
    . . . . O O O O O
    . . X X O X X O X
    . . X O X X X X .
    . . X O O O X X X
    . X O O O O O X .
    . X X O O . O X X
    . . X O . X O O O";

/// Capture-race replies for `c` after the opponent's `last` move: where
/// `last` left an own chain next to it exactly two liberties, the
/// liberties of the opposing chains touching that chain that have one or
/// two liberties themselves (with `c` to move, taking one of them wins a
/// race of two against two), pushed through `push` unless the stone
/// there would keep fewer than two liberties (filling a shared liberty
/// puts the own chain in atari). Own chains of more than
/// [`RACE_MAX_STONES`] stones are not walked.
pub(crate) fn race_replies(b: &Board, c: Color, last: Point, mut push: impl FnMut(Point)) {
    let opp = c.opponent();
    let mut seen = [last; 4];
    let mut n_seen = 0;
    for q in last.neighbors() {
        if b.get(q) != Some(c) {
            continue;
        }
        let root = b.chain_root(q);
        if seen[..n_seen].contains(&root) {
            continue;
        }
        seen[n_seen] = root;
        n_seen += 1;
        if b.in_atari(q) || b.chain_len(q) > RACE_MAX_STONES || liberties_upto::<2>(b, q).1 != 2 {
            continue;
        }
        let mut foes = [q; 8];
        let mut n_foes = 0;
        b.for_each_stone(q, |s| {
            for t in s.neighbors() {
                if b.get(t) != Some(opp) {
                    continue;
                }
                let r = b.chain_root(t);
                if foes[..n_foes].contains(&r) || n_foes == foes.len() {
                    continue;
                }
                foes[n_foes] = r;
                n_foes += 1;
            }
        });
        for &y in &foes[..n_foes] {
            let (libs, k) = liberties_upto::<2>(b, y);
            if k > 2 {
                continue;
            }
            for &z in &libs[..k] {
                if !b.is_ko_recapture(c, z)
                    && !b.is_suicide(c, z)
                    && b.liberties_after(c, z, 2) >= 2
                {
                    push(z);
                }
            }
        }
    }
}

/// The largest own chain [`race_replies`] walks.
const RACE_MAX_STONES: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        b.test_point(v)
    }

    #[test]
    fn ladder_in_the_open_is_dead_and_a_breaker_saves_it() {
        // White D6 in atari (black C6, D7, E6): extending to D5 leaves two
        // liberties (C5, D4) and Black E5 starts a ladder to the lower left.
        let open = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . X . . . . .
            . . X O X . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        let q = at(&open, "D6");
        assert_eq!(open.get(q), Some(Color::White));
        assert!(extension_is_ladder_dead(&open, Color::White, q, 40));
        // A white stone on the ladder's path (B3) breaks it.
        let broken = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . X . . . . .
            . . X O X . . . .
            . . . . X . . . .
            . . . . . . . . .
            . O . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        assert!(!extension_is_ladder_dead(&broken, Color::White, q, 40));
        // With no budget the reader gives up: the extension is allowed.
        assert!(!extension_is_ladder_dead(&open, Color::White, q, 0));
    }

    #[test]
    fn one_line_reader_agrees_with_the_full_reader() {
        use crate::patterns::ladder::{ladder_captured, LADDER_BUDGET};
        use crate::playout::policy::choose_move;
        use crate::playout::PlayoutConfig;
        use rand_xoshiro::rand_core::SeedableRng;
        let cfg = PlayoutConfig::default();
        // (both captured, both free, only the full reader captured), and
        // the ladders among the first: captured after one extension or more.
        let (mut both, mut free, mut full_only, mut ladders) = (0, 0, 0, 0);
        for (size, games) in [(9, 40), (13, 10), (19, 6)] {
            for seed in 0..games {
                let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut b = Board::new(size).expect("size");
                let mut c = Color::Black;
                let mut last = None;
                for _ in 0..size * size * 2 {
                    // Every chain in atari of this position, its owner as
                    // the defender.
                    let mut roots = Vec::new();
                    for p in b.points() {
                        if b.get(p).is_some() && b.in_atari(p) && !roots.contains(&b.chain_root(p))
                        {
                            roots.push(b.chain_root(p));
                        }
                    }
                    for &r in &roots {
                        let d = b.get(r).expect("stone");
                        let one_line = escape_fails(&b, d, r, cfg.ladder_budget);
                        let mut budget = LADDER_BUDGET;
                        let full = ladder_captured(&b, r, &mut budget);
                        assert!(!one_line || full, "{d:?} {r:?}\n{b}");
                        match (one_line, full) {
                            (true, _) => {
                                both += 1;
                                let lib = b.last_liberty(r).expect("in atari");
                                ladders += usize::from(extension(&b, d, r, lib).is_none());
                            }
                            (false, false) => free += 1,
                            (false, true) => full_only += 1,
                        }
                    }
                    let Some(p) = choose_move(&mut b, c, last, &mut rng, &cfg) else {
                        break;
                    };
                    b.play_unchecked(c, p);
                    last = Some(p);
                    c = c.opponent();
                }
            }
        }
        let counts = format!("{both} {free} {full_only} {ladders}");
        assert!(both > 1000 && free > 1000, "{counts}");
        assert!(ladders > 500, "{counts}");
        // The one-line reader misses few of the full reader's ladders.
        assert!(full_only * 10 < ladders, "{counts}");
    }

    #[test]
    fn liberties_upto_counts_and_stops() {
        let b = Board::from_diagram(
            "
            . . . . .
            . . . . .
            . . X . .
            . . X . .
            . . . . .",
        )
        .unwrap();
        let (libs, n) = liberties_upto::<8>(&b, at(&b, "C3"));
        assert_eq!(n, 6);
        assert!(libs[..n].contains(&at(&b, "C1")));
        let (_, n) = liberties_upto::<3>(&b, at(&b, "C3"));
        assert_eq!(n, 4);
    }

    #[test]
    fn nakade_self_atari_is_good_and_an_open_one_is_not() {
        // Black C5-D5 inside White's square eye space of four: C4 (or D4)
        // makes a bent three in atari whose capture leaves White one eye.
        let b = Board::from_diagram(
            "
            . . . . . . .
            . O O O O . .
            . O X X O . .
            . O . . O . .
            . O O O O . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap();
        assert!(b.liberties_after(Color::Black, at(&b, "C4"), 2) < 2);
        assert!(good_self_atari(&b, Color::Black, at(&b, "C4"), false));
        assert!(good_self_atari(&b, Color::Black, at(&b, "D4"), false));
        // The space opened on the right (no E4): not an eye space.
        let open = Board::from_diagram(
            "
            . . . . . . .
            . O O O O . .
            . O X X O . .
            . O . . . . .
            . O O O O . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap();
        assert!(!good_self_atari(
            &open,
            Color::Black,
            at(&open, "C4"),
            false
        ));
    }

    #[test]
    fn snapback_is_good() {
        // Black C1 is in atari at D1, but White capturing there is left
        // with the one liberty C1, and Black takes seven stones back.
        let b = Board::from_diagram(
            "
            . . . . .
            . . . . .
            X X X X X
            X O O O O
            X O . . O",
        )
        .unwrap();
        let c1 = at(&b, "C1");
        assert!(b.liberties_after(Color::Black, c1, 2) < 2);
        assert!(snapback(&b, Color::Black, c1, at(&b, "D1")));
        assert!(good_self_atari(&b, Color::Black, c1, false));
        // With a liberty more for White (E3 empty) it is a plain throw-in
        // next to an open space: neither snapback nor nakade.
        let b2 = Board::from_diagram(
            "
            . . . . .
            . . . . .
            X X X X .
            X O O O O
            X O . . O",
        )
        .unwrap();
        assert!(!snapback(&b2, Color::Black, c1, at(&b2, "D1")));
    }

    #[test]
    fn seki_liberty_is_no_nakade() {
        // Black A7-A6 and White C7-C6 share their two liberties B7 and B6
        // (a local seki; White may also connect out at B6, no self-atari):
        // filling one is a small enclosed self-atari, yet no nakade, since
        // the chain it fights has two liberties too.
        let b = Board::from_diagram(
            "
            X . O X . . .
            X . O X . . .
            O O X X . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap();
        for (c, v) in [
            (Color::Black, "B7"),
            (Color::Black, "B6"),
            (Color::White, "B7"),
        ] {
            let p = at(&b, v);
            assert!(b.liberties_after(c, p, 2) < 2, "{v}");
            assert!(!good_self_atari(&b, c, p, false), "{c:?} {v}");
        }
    }

    #[test]
    fn a_sacrifice_that_shorts_a_larger_chain_of_liberties_is_good() {
        // Black F2 is a self-atari of two stones (F1, F2; liberty E1) that
        // puts White in atari on E1: White captures two stones on E1 and is
        // left with the liberties F1 and F2 alone, and Black F1 is then a
        // snapback. Black E1 is the same sacrifice from the other side.
        let b = Board::from_diagram(super::SHORTAGE).unwrap();
        for v in ["F2", "E1"] {
            let p = at(&b, v);
            assert!(b.liberties_after(Color::Black, p, 2) < 2, "{v}");
            assert!(shortage_self_atari(&b, Color::Black, p), "{v}");
            assert!(!good_self_atari(&b, Color::Black, p, false), "{v}");
            assert!(good_self_atari(&b, Color::Black, p, true), "{v}");
        }
        // White's own fill of a liberty is no sacrifice of Black's.
        assert!(!shortage_self_atari(&b, Color::White, at(&b, "E1")));
        // With D1 empty, White has a third liberty and E1 an open
        // neighbour: F2 would only be a self-atari.
        let mut open = super::SHORTAGE.to_string();
        let last = open.rfind(". . X O . X O O O").unwrap();
        open.replace_range(last.., ". . X . . X O O O");
        let b = Board::from_diagram(&open).unwrap();
        let f2 = at(&b, "F2");
        assert!(b.liberties_after(Color::Black, f2, 2) < 2);
        assert!(!shortage_self_atari(&b, Color::Black, f2));
        assert!(!good_self_atari(&b, Color::Black, f2, true));
    }
    /// Black's A3-B3-B2-B1 (liberties A2, A1) and White's chain from A4
    /// to C1 (liberties C5, D1) in a race of two liberties against two.
    const RACE: &str = "
            . . . . . .
            X X . . . .
            O O O X . .
            X X O X . .
            . X O X . .
            . X O . . .";

    #[test]
    fn race_replies_take_the_short_opposing_chains_liberties() {
        let b = Board::from_diagram(RACE).unwrap();
        let mut got = Vec::new();
        // White's C1 left the black chain two liberties: Black takes one
        // of White's two (both outside liberties).
        race_replies(&b, Color::Black, at(&b, "C1"), |p| got.push(p));
        got.sort_unstable();
        let mut want = vec![at(&b, "C5"), at(&b, "D1")];
        want.sort_unstable();
        assert_eq!(got, want);
        // C4 touches no black chain of two liberties: nothing.
        let mut none = Vec::new();
        race_replies(&b, Color::Black, at(&b, "C4"), |p| none.push(p));
        assert!(none.is_empty(), "{none:?}");
        // With A5 empty White's chain has three liberties: no race reply.
        let mut freer = b.clone();
        freer.set(at(&b, "A5"), None).unwrap();
        let mut none = Vec::new();
        race_replies(&freer, Color::Black, at(&b, "C1"), |p| none.push(p));
        assert!(none.is_empty(), "{none:?}");
        // A liberty that would leave the stone in atari is left out: with
        // White's chain through D2 (Black on E2), a black stone on D1
        // would have E1 alone.
        let mut short = b.clone();
        short.set(at(&b, "D2"), Some(Color::White)).unwrap();
        short.set(at(&b, "E2"), Some(Color::Black)).unwrap();
        let mut got = Vec::new();
        race_replies(&short, Color::Black, at(&b, "C1"), |p| got.push(p));
        assert_eq!(got, vec![at(&b, "C5")]);
    }
}

//! The playout policy: the moves of the random games that the search
//! scores its positions with.
//!
//! The playout policy, in order, for the side to move:
//!
//! 1. replies to the last move's tactics (with probability
//!    [`PlayoutConfig::atari_prob`]): capture the chain that was just played
//!    or any chain next to it left in atari, and save own chains next to
//!    the last move that are in atari (extend to a second liberty unless a
//!    ladder captures the chain anyway, [`PlayoutConfig::ladder_budget`];
//!    or capture an attacker in atari);
//! 2. shape (with probability [`PlayoutConfig::pattern_prob`]): an empty
//!    point next to the last move whose 3x3 neighbourhood is one of the
//!    [`SHAPES`](super::shapes::SHAPES), not a self-atari, and (with
//!    [`PlayoutConfig::ladder_in_shapes`]) not the extension of a chain in
//!    atari that a ladder captures anyway;
//! 3. (with probability [`PlayoutConfig::global_atari_prob`], off by
//!    default) any chain on the board left in atari ([`AtariWatch`]):
//!    capture an opposing one, save an own one as in step 1;
//! 4. a random point, drawn uniformly without replacement, that is legal,
//!    not an eye of the mover, and not a self-atari of two or more stones
//!    unless reading calls it a snapback or a nakade
//!    ([`PlayoutConfig::self_atari_reading`]; a self-atari in a seki is none)
//!    (any other single-stone self-atari is refused with probability
//!    [`PlayoutConfig::self_atari_reject`]).
//!
//! A side with no candidate passes; the playout ends after two passes or
//! [`PlayoutConfig::playout_length`] moves per point and is scored by area
//! (every empty point left is an eye, so point by point).
//!
//! The settings are [`PlayoutConfig`]; the search holds one in its
//! configuration. The priors of the moves entering the tree are the
//! search's (`mcts::prior`).

use super::random::{below, chance};
use super::shapes::{is_shape, OFFSETS};
use super::tactics;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Point, ARRAY_LEN, STRIDE};
use crate::score::point_owners;
use rand_xoshiro::rand_core::Rng;

/// The playout policy's knobs.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Probability of looking for captures and atari escapes after the last
    /// move in a playout.
    pub atari_prob: f64,
    /// Probability of looking for 3x3 shapes next to the last move.
    pub pattern_prob: f64,
    /// Probability of refusing a random single-stone self-atari (bigger
    /// self-ataris are always refused).
    pub self_atari_reject: f64,
    /// Playout length cap in moves per board point.
    pub playout_length: usize,
    /// Use the uniform benchmark playout instead of the policy (for
    /// comparison).
    pub uniform_playouts: bool,
    /// Ladder steps read for the ladder check of an atari escape (an extension
    /// that a ladder captures anyway is not played); 0 turns it off.
    pub ladder_budget: u32,
    /// Apply the ladder check to the shape replies too (a shape move that
    /// extends a ladder-dead chain is skipped).
    pub ladder_in_shapes: bool,
    /// Let the random move play a self-atari that reading calls good (a
    /// snapback, a nakade) whatever its size; other self-ataris of two
    /// stones or more stay refused.
    pub self_atari_reading: bool,
    /// With `self_atari_reading`, also play the self-ataris that put a
    /// larger opposing chain in atari on their own enclosed liberty
    /// ([`tactics::shortage_self_atari`]).
    pub shortage_self_atari: bool,
    /// Probability of the global atari step: when the replies to the last
    /// move found nothing, capture or save any chain left in atari on the
    /// board (0: off).
    pub global_atari_prob: f64,
}

impl Default for PlayoutConfig {
    fn default() -> PlayoutConfig {
        PlayoutConfig {
            atari_prob: 0.9,
            pattern_prob: 0.9,
            self_atari_reject: 0.7,
            playout_length: 3,
            uniform_playouts: false,
            ladder_budget: 20,
            ladder_in_shapes: true,
            self_atari_reading: true,
            shortage_self_atari: true,
            global_atari_prob: 0.0,
        }
    }
}

/// Whether `c` may play on the empty point `p` in a playout: not the
/// simple-ko recapture, not a suicide.
#[inline]
pub(super) fn playable(b: &Board, c: Color, p: Point) -> bool {
    !b.is_ko_recapture(c, p) && !b.is_suicide(c, p)
}

/// A short list of candidate points without heap allocation.
struct Candidates {
    points: [Point; 32],
    n: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            points: [Point::from_index(0); 32],
            n: 0,
        }
    }

    #[inline]
    fn push(&mut self, p: Point) {
        if self.n < 32 && !self.points[..self.n].contains(&p) {
            self.points[self.n] = p;
            self.n += 1;
        }
    }

    fn pick<R: Rng>(&self, rng: &mut R) -> Option<Point> {
        if self.n == 0 {
            None
        } else {
            Some(self.points[below(rng, self.n)])
        }
    }
}

/// Tactical replies for `c` after the opponent's `last` move: captures of
/// chains in atari on or next to `last`, and saving moves for `c`'s chains
/// next to `last` that are in atari.
fn tactical_replies(b: &Board, c: Color, last: Point, cfg: &PlayoutConfig, out: &mut Candidates) {
    let opp = c.opponent();
    let mut around = [last; 5];
    around[1..].copy_from_slice(&last.neighbors());
    // Own chains in atari already looked at (a chain can touch `last` on
    // several sides).
    let mut seen = [last; 5];
    let mut n_seen = 0;
    for q in around {
        match b.get(q) {
            Some(col) if col == opp => {
                if let Some(l) = b.last_liberty(q) {
                    if playable(b, c, l) {
                        out.push(l);
                    }
                }
            }
            Some(_) => {
                // Our chain in atari: extend, or capture a neighbour in atari.
                let Some(l) = b.last_liberty(q) else { continue };
                let root = b.chain_root(q);
                if seen[..n_seen].contains(&root) {
                    continue;
                }
                seen[n_seen] = root;
                n_seen += 1;
                save_replies(b, c, q, l, cfg, out);
            }
            None => {}
        }
    }
}

/// The moves that save `c`'s chain on `q`, in atari on `l`: the extension
/// to a second liberty unless a ladder captures the chain anyway, and the
/// captures of opposing chains in atari next to it.
fn save_replies(
    b: &Board,
    c: Color,
    q: Point,
    l: Point,
    cfg: &PlayoutConfig,
    out: &mut Candidates,
) {
    let opp = c.opponent();
    if playable(b, c, l)
        && b.liberties_after(c, l, 2) >= 2
        && (cfg.ladder_budget == 0
            || !tactics::extension_is_ladder_dead(b, c, q, cfg.ladder_budget))
    {
        out.push(l);
    }
    if b.chain_len(q) <= 16 {
        b.for_each_stone(q, |s| {
            for n in s.neighbors() {
                if b.get(n) == Some(opp) {
                    if let Some(cl) = b.last_liberty(n) {
                        if playable(b, c, cl) {
                            out.push(cl);
                        }
                    }
                }
            }
        });
    }
}

/// The chains that may be in atari during a playout, for the global atari
/// step: one stone of each chain found in atari at the start
/// ([`AtariWatch::scan`]) or next to a move since ([`AtariWatch::note`]).
/// A chain enters atari only when a stone is played next to it (or is
/// itself the stone played), so every chain in atari is on the list
/// while it has room; entries whose chain has left atari or the board are
/// dropped when read.
pub(crate) struct AtariWatch {
    stones: [Point; 32],
    colors: [Color; 32],
    n: usize,
}

impl AtariWatch {
    /// An empty watch list (the global step finds nothing).
    pub(crate) fn new() -> AtariWatch {
        AtariWatch {
            stones: [Point::from_index(0); 32],
            colors: [Color::Black; 32],
            n: 0,
        }
    }

    /// The watch list of `b`: every chain in atari on it.
    pub(crate) fn scan(b: &Board) -> AtariWatch {
        let mut w = AtariWatch::new();
        for p in b.points() {
            if b.in_atari(p) && b.chain_root(p) == p {
                w.push(b, p);
            }
        }
        w
    }

    fn push(&mut self, b: &Board, s: Point) {
        let Some(col) = b.get(s) else { return };
        let root = b.chain_root(s);
        let known = (0..self.n).any(|i| {
            b.get(self.stones[i]) == Some(self.colors[i]) && b.chain_root(self.stones[i]) == root
        });
        if !known && self.n < self.stones.len() {
            self.stones[self.n] = s;
            self.colors[self.n] = col;
            self.n += 1;
        }
    }

    /// Notes the chains in atari after a stone was played on `p`: its own
    /// and its neighbours'.
    pub(crate) fn note(&mut self, b: &Board, p: Point) {
        if b.in_atari(p) {
            self.push(b, p);
        }
        for q in p.neighbors() {
            if b.in_atari(q) {
                self.push(b, q);
            }
        }
    }

    /// Drops the entries whose chain is gone or out of atari, and gives
    /// `c`'s replies to those left: captures of opposing chains, the
    /// saving moves of its own ([`save_replies`]).
    fn replies(&mut self, b: &Board, c: Color, cfg: &PlayoutConfig, out: &mut Candidates) {
        let mut i = 0;
        while i < self.n {
            let s = self.stones[i];
            if b.get(s) != Some(self.colors[i]) || !b.in_atari(s) {
                self.n -= 1;
                self.stones[i] = self.stones[self.n];
                self.colors[i] = self.colors[self.n];
                continue;
            }
            if let Some(l) = b.last_liberty(s) {
                if self.colors[i] == c {
                    save_replies(b, c, s, l, cfg, out);
                } else if playable(b, c, l) {
                    out.push(l);
                }
            }
            i += 1;
        }
    }
}

/// Shape replies for `c`: empty points next to `last` (including the
/// diagonals) that match a shape and are no self-atari.
fn shape_replies(b: &Board, c: Color, last: Point, cfg: &PlayoutConfig, out: &mut Candidates) {
    let i = last.index() as i32;
    for (dx, dy) in OFFSETS {
        let q = Point::from_index((i + dy * STRIDE as i32 + dx) as usize);
        if b.is_empty(q)
            && is_shape(b, q)
            && playable(b, c, q)
            && b.liberties_after(c, q, 2) >= 2
            && !(cfg.ladder_in_shapes && ladder_dead_extension(b, c, q, cfg.ladder_budget))
        {
            out.push(q);
        }
    }
}

/// The shape step (2): the [`SHAPES`](super::shapes::SHAPES) with
/// probability [`PlayoutConfig::pattern_prob`].
fn local_reply<R: Rng>(
    b: &Board,
    c: Color,
    last: Point,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Option<Point> {
    if chance(rng, cfg.pattern_prob) {
        pick(rng, |out| shape_replies(b, c, last, cfg, out))
    } else {
        None
    }
}

/// Whether `c` on `q` extends an own chain in atari (`q` its last liberty)
/// that a ladder captures anyway, read with `budget` ladder steps (0 reads
/// nothing: never).
fn ladder_dead_extension(b: &Board, c: Color, q: Point, budget: u32) -> bool {
    budget > 0
        && q.neighbors().iter().any(|&s| {
            b.get(s) == Some(c)
                && b.last_liberty(s) == Some(q)
                && tactics::extension_is_ladder_dead(b, c, s, budget)
        })
}

/// Picks the playout move for `c`, or `None` to pass. `last` is the
/// previous move (its point, whether or not the stone is still there).
pub(crate) fn choose_move<R: Rng>(
    b: &mut Board,
    c: Color,
    last: Option<Point>,
    rng: &mut R,
    cfg: &PlayoutConfig,
) -> Option<Point> {
    let mut watch = if cfg.global_atari_prob > 0.0 {
        AtariWatch::scan(b)
    } else {
        AtariWatch::new()
    };
    choose_watched(b, c, last, rng, cfg, &mut watch)
}

/// [`choose_move`] with the playout's [`AtariWatch`] for the global atari
/// step.
fn choose_watched<R: Rng>(
    b: &mut Board,
    c: Color,
    last: Option<Point>,
    rng: &mut R,
    cfg: &PlayoutConfig,
    watch: &mut AtariWatch,
) -> Option<Point> {
    if !cfg.uniform_playouts {
        if let Some(l) = last {
            if chance(rng, cfg.atari_prob) {
                let mut cands = Candidates::new();
                tactical_replies(b, c, l, cfg, &mut cands);
                if let Some(p) = cands.pick(rng) {
                    return Some(p);
                }
            }
            if let Some(p) = local_reply(b, c, l, cfg, rng) {
                return Some(p);
            }
        }
        if cfg.global_atari_prob > 0.0 && watch.n > 0 && chance(rng, cfg.global_atari_prob) {
            let mut cands = Candidates::new();
            watch.replies(b, c, cfg, &mut cands);
            if let Some(p) = cands.pick(rng) {
                return Some(p);
            }
        }
    }
    // Random fallback, without replacement.
    let mut k = b.empty_count();
    while k > 0 {
        let i = below(rng, k);
        let p = Point::from_index(b.empty_points()[i] as usize);
        if b.is_playout_candidate(c, p) {
            if cfg.uniform_playouts {
                return Some(p);
            }
            let open = b.empty_neighbors(p);
            let ok = open >= 2
                || b.liberties_after(c, p, 2) >= 2
                || (cfg.self_atari_reading
                    && tactics::good_self_atari(b, c, p, cfg.shortage_self_atari))
                || (!p.neighbors().iter().any(|&q| b.get(q) == Some(c))
                    && !chance(rng, cfg.self_atari_reject));
            if ok {
                return Some(p);
            }
        }
        k -= 1;
        b.swap_empties(i, k);
    }
    None
}

/// A random one of the candidates `find` gives, if any.
fn pick<R: Rng>(rng: &mut R, find: impl FnOnce(&mut Candidates)) -> Option<Point> {
    let mut cands = Candidates::new();
    find(&mut cands);
    cands.pick(rng)
}

/// The end of one playout.
pub(crate) struct PlayoutEnd {
    /// Black's area minus White's, komi not included.
    pub margin: i32,
    /// The moves played (passes included).
    pub moves: usize,
}

/// For AMAF: per point, the colour and index of the first stone a
/// simulation played there ([`first_play_entry`]), 0 where none.
pub(crate) type FirstPlay = [u16; ARRAY_LEN];

/// The largest move index a [`FirstPlay`] entry records.
pub(crate) const FIRST_PLAY_MAX_TIME: usize = (1 << 14) - 1;

/// The [`FirstPlay`] entry of a stone of colour `c` played as move `t` of
/// a simulation (the root's child is move 0): the colour code (1 black,
/// 2 white) in the low two bits, the move's index (capped) above them.
#[inline]
pub(crate) fn first_play_entry(c: Color, t: usize) -> u16 {
    (c as u16) | ((t.min(FIRST_PLAY_MAX_TIME) as u16) << 2)
}

/// Plays out `b` with `to_move` first, after the opponent's move `last`,
/// the playout's first move being move `start` of the simulation;
/// `first_play` gets the [`first_play_entry`] of the first stone played
/// on each point where it is still 0 (for AMAF). Returns the area margin
/// of the final position and the moves played; `owner` gets the final
/// owner of every point (+1 black, -1 white, 0).
#[allow(clippy::too_many_arguments)]
pub(crate) fn playout<R: Rng>(
    b: &mut Board,
    mut to_move: Color,
    mut last: Option<Point>,
    rng: &mut R,
    cfg: &PlayoutConfig,
    start: usize,
    first_play: &mut FirstPlay,
    owner: &mut [i8; ARRAY_LEN],
) -> PlayoutEnd {
    let n = b.size();
    let max_moves = cfg.playout_length * n * n;
    let mut passes = 0;
    let mut moves = 0;
    let global = cfg.global_atari_prob > 0.0 && !cfg.uniform_playouts;
    let mut watch = if global {
        AtariWatch::scan(b)
    } else {
        AtariWatch::new()
    };
    while moves < max_moves && passes < 2 {
        let mv = choose_watched(b, to_move, last, rng, cfg, &mut watch);
        match mv {
            Some(p) => {
                b.play_unchecked(to_move, p);
                if global {
                    watch.note(b, p);
                }
                if first_play[p.index()] == 0 {
                    first_play[p.index()] = first_play_entry(to_move, start + moves);
                }
                passes = 0;
                last = Some(p);
            }
            None => {
                b.pass();
                passes += 1;
                last = None;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    PlayoutEnd {
        margin: point_owners(b, owner),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::SeedableRng;

    /// Black E6 has just put White D6 in atari; extending to D5 runs
    /// into a ladder that Black wins.
    const LADDER: &str = "
            . . . . . . . . .
            . . . . . . . . .
            . . . X . . . . .
            . . X O X . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";

    fn at(b: &Board, v: &str) -> Point {
        b.test_point(v)
    }

    #[test]
    fn policy_captures_the_chain_in_atari() {
        // White's C3-C2 chain has three liberties: no tactic, a random move.
        let b = Board::from_diagram(
            "
            . . . . .
            . . X . .
            . X O X .
            . . O . .
            . . . . .",
        )
        .unwrap();
        let cfg = PlayoutConfig {
            atari_prob: 1.0,
            ..PlayoutConfig::default()
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let mut bb = b.clone();
        let m = choose_move(&mut bb, Color::Black, Some(at(&b, "C2")), &mut rng, &cfg);
        assert!(m.is_some());
        // White's C3-C2 chain with one liberty left (C1): always captured.
        let b2 = Board::from_diagram(
            "
            . . . . .
            . . X . .
            . X O X .
            . X O X .
            . . . . .",
        )
        .unwrap();
        for seed in 0..20 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = b2.clone();
            let m = choose_move(&mut bb, Color::Black, Some(at(&b2, "C2")), &mut rng, &cfg);
            assert_eq!(m, Some(at(&b2, "C1")), "seed {seed}");
        }
    }

    #[test]
    fn policy_leaves_a_ladder_dead_chain_and_seki_liberties_alone() {
        let cfg = PlayoutConfig {
            atari_prob: 1.0,
            ladder_budget: 20,
            ladder_in_shapes: true,
            self_atari_reading: true,
            ..PlayoutConfig::default()
        };
        // Black E6 just put White D6 in atari; extending to D5 runs into a
        // ladder that Black wins, so White never plays D5 as a reply.
        let ladder = Board::from_diagram(LADDER).unwrap();
        let d5 = at(&ladder, "D5");
        let mut extended = 0;
        for seed in 0..200 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = ladder.clone();
            let e6 = at(&ladder, "E6");
            let m = choose_move(&mut bb, Color::White, Some(e6), &mut rng, &cfg);
            extended += usize::from(m == Some(d5));
        }
        // Only the random move (one point in 70 or so) may still land there.
        assert!(extended < 20, "extended {extended} times in 200");
        let off = PlayoutConfig {
            ladder_budget: 0,
            ..cfg.clone()
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut bb = ladder.clone();
        let m = choose_move(
            &mut bb,
            Color::White,
            Some(at(&ladder, "E6")),
            &mut rng,
            &off,
        );
        assert_eq!(m, Some(d5), "without the ladder check the reply extends");
        // Shared liberties B7 and B6 of Black A7-A6 and White C7-C6.
        let seki = Board::from_diagram(
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
        for seed in 0..300 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = seki.clone();
            let m = choose_move(&mut bb, Color::Black, None, &mut rng, &cfg);
            assert!(m.is_some());
            assert!(
                m != Some(at(&seki, "B7")) && m != Some(at(&seki, "B6")),
                "seed {seed}: {m:?}"
            );
        }
    }

    #[test]
    fn global_atari_step_captures_and_saves_far_from_the_last_move() {
        // White A9 is in atari on B9 (Black A8); Black's own G4 is in atari
        // on G3 and extends there to three liberties. The last move, E5, is
        // far from both, so the replies to it find nothing (the shape step
        // is off, so that it does not answer E5 either).
        let b = Board::from_diagram(
            "
            O . . . . . . . .
            X . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . O . O . .
            . . . . . O X O .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        let e5 = at(&b, "E5");
        let (b9, g3) = (at(&b, "B9"), at(&b, "G3"));
        let on = PlayoutConfig {
            atari_prob: 1.0,
            pattern_prob: 0.0,
            global_atari_prob: 1.0,
            ..PlayoutConfig::default()
        };
        let mut seen = [0usize; 2];
        for seed in 0..100 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = b.clone();
            let m = choose_move(&mut bb, Color::Black, Some(e5), &mut rng, &on);
            assert!(m == Some(b9) || m == Some(g3), "seed {seed}: {m:?}");
            seen[usize::from(m == Some(g3))] += 1;
        }
        assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
        // Off (the default): the random move, which lands on either point
        // only now and then.
        let off = PlayoutConfig {
            global_atari_prob: 0.0,
            ..on.clone()
        };
        let mut hits = 0;
        for seed in 0..100 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = b.clone();
            let m = choose_move(&mut bb, Color::Black, Some(e5), &mut rng, &off);
            hits += usize::from(m == Some(b9) || m == Some(g3));
        }
        assert!(hits < 20, "{hits} of 100");
        // White to move: extend A9 (unless a ladder takes it anyway) or
        // capture G4 on G3.
        for seed in 0..50 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut bb = b.clone();
            let m = choose_move(&mut bb, Color::White, Some(e5), &mut rng, &on);
            assert!(m == Some(b9) || m == Some(g3), "seed {seed}: {m:?}");
        }
    }

    #[test]
    fn atari_watch_holds_every_chain_in_atari_through_playouts() {
        let cfg = PlayoutConfig {
            global_atari_prob: 0.9,
            ..PlayoutConfig::default()
        };
        for seed in 0..40 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut b = Board::new(9).unwrap();
            let mut watch = AtariWatch::scan(&b);
            let mut c = Color::Black;
            let mut last = None;
            for _ in 0..200 {
                let Some(p) = choose_watched(&mut b, c, last, &mut rng, &cfg, &mut watch) else {
                    break;
                };
                b.play_unchecked(c, p);
                watch.note(&b, p);
                for q in b.points() {
                    if b.in_atari(q) {
                        let root = b.chain_root(q);
                        let listed = (0..watch.n).any(|i| {
                            b.get(watch.stones[i]) == Some(watch.colors[i])
                                && b.chain_root(watch.stones[i]) == root
                        });
                        assert!(listed, "seed {seed}: the chain on {q:?} is not watched");
                    }
                }
                last = Some(p);
                c = c.opponent();
            }
        }
    }
}

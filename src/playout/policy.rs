//! Cheap Go knowledge: the playout policy, 3x3 shape patterns, and the
//! priors given to moves when they enter the tree.
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
//!    [`SHAPES`], not a self-atari, and (with
//!    [`PlayoutConfig::ladder_in_shapes`]) not the extension of a chain in
//!    atari that a ladder captures anyway; or, with
//!    [`PlayoutConfig::gammas`] (off by default), an empty point next to
//!    the last move drawn by its learned 3x3 gamma ([`super::gammas`])
//!    against a fixed weight for the random move;
//! 3. a random point, drawn uniformly without replacement, that is legal,
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
//! The settings are [`PlayoutConfig`] (the playouts) and [`PriorConfig`]
//! (the priors); the search holds one of each in its configuration.

use super::gammas::{self, PlayoutGammas};
use super::random::{below, chance};
use super::tactics;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Point, ARRAY_LEN, STRIDE};
use crate::score::point_owners;
use rand_xoshiro::rand_core::Rng;
use std::sync::OnceLock;

/// The playout policy's knobs.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Probability of looking for captures and atari escapes after the last
    /// move in a playout.
    pub atari_prob: f64,
    /// Probability of looking for 3x3 shapes next to the last two moves.
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
    /// that a ladder captures anyway is not played); 0 turns it off. 20 by
    /// default, with [`PlayoutConfig::ladder_in_shapes`] and
    /// [`PlayoutConfig::self_atari_reading`] (see there). Alone (round 2,
    /// before the pattern priors) 20 steps won 52.9% of 85 9x9 games at
    /// equal playouts and 50.5% of 281 at equal time.
    pub ladder_budget: u32,
    /// Apply the ladder check to the shape replies too (a shape move that
    /// extends a ladder-dead chain is skipped). On by default, with
    /// `ladder_budget` 20 and `self_atari_reading`, since November 2026:
    /// against c97e4bc (all three off) at equal time (0.1 s a move, 9x9) the
    /// three won 56.7% of 365 games (51.6-61.7%); against GNU Go level 10
    /// on 9x9 at 20,000 playouts (seeds 6700 and 6800) they won 193 of 200
    /// (96.5%, 93.0-98.3%) at 0.33 s a move, where c97e4bc won 140.5 of 150
    /// (93.7%) on the same seeds. The search runs 0.79 (empty 9x9 board)
    /// to 0.82 (middle position) times c97e4bc's playouts a second
    /// (`kosumi bench --search --size 9`, medians of interleaved rounds).
    /// Earlier (round 2, before the pattern priors and the RAVE
    /// retuning) they won 58.6% of 76 at equal playouts and 45.5% of 56 at
    /// equal time.
    pub ladder_in_shapes: bool,
    /// Let the random move play a self-atari that reading calls good (a
    /// snapback, a nakade) whatever its size; other self-ataris of two
    /// stones or more stay refused. On by default (see `ladder_in_shapes`).
    pub self_atari_reading: bool,
    /// Learned ratings in place of the shape step (2): the empty points
    /// next to the last move (diagonals too) that are no self-atari and
    /// whose 3x3 gamma ([`super::gammas`]) is at least
    /// [`PlayoutConfig::gamma_min`] are candidates, weighted by that gamma
    /// (a diagonal one times the learned distance factor, about 0.8); one
    /// of them is drawn with probability `sum / (sum +`
    /// [`PlayoutConfig::gamma_rest`]`)`, else the random move follows.
    /// [`PlayoutConfig::pattern_prob`] is not used then. Off by default
    /// until an equal-time match settles it. Against main (0882d6f) on
    /// 9x9, 5000 playouts: with `gamma_rest` 0.5 (the default here) it won
    /// 54.9% of 225 games (SPRT 0/30 LLR +1.35); with `gamma_rest` 2 it won
    /// 49.4% of 179 at equal playouts and 47.6% of 208 at equal time; with
    /// `gamma_min` 4 (and rest 2) 34.6% of 78. The more local the policy,
    /// the better. It costs 2-3% more instructions per playout and 3-12%
    /// more time per move in games.
    pub gammas: bool,
    /// With [`PlayoutConfig::gammas`]: the weight of the random move
    /// against the local candidates' gammas.
    pub gamma_rest: f32,
    /// With [`PlayoutConfig::gammas`]: the least gamma of a candidate.
    pub gamma_min: f32,
    /// With [`PlayoutConfig::gammas`]: only points matching one of the
    /// [`SHAPES`] are candidates (the shape step with the uniform choice
    /// replaced by the gammas).
    pub gamma_shapes: bool,
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
            gammas: false,
            gamma_rest: 0.5,
            gamma_min: 1.0,
            gamma_shapes: false,
        }
    }
}

/// The knobs of [`prior`]: virtual visits and wins from cheap knowledge.
#[derive(Clone, Debug, PartialEq)]
pub struct PriorConfig {
    /// Prior virtual visits of every move, half of them wins.
    pub prior_even: f32,
    /// Prior wins (and visits) for capturing one stone.
    pub prior_capture_one: f32,
    /// Prior wins (and visits) for capturing two or more stones.
    pub prior_capture_many: f32,
    /// Prior wins (and visits) for saving an own chain from atari.
    pub prior_escape: f32,
    /// Prior losses (visits without wins) for a self-atari.
    pub prior_self_atari: f32,
    /// Prior wins (and visits) for a 3x3 shape ([`SHAPES`]).
    pub prior_shape: f32,
    /// Prior wins (and visits) for a move next to one of the last two
    /// moves (distance `dx+dy+max(dx,dy)` at most 3), and near them (at most
    /// 5).
    pub prior_near_last: [f32; 2],
    /// Prior losses for a first- or second-line move in an empty area (no
    /// stone within distance 3).
    pub prior_empty_low: f32,
    /// Prior wins for a third-line move (fourth too from 13x13) in an empty
    /// area.
    pub prior_empty_third: f32,
}

impl Default for PriorConfig {
    fn default() -> PriorConfig {
        PriorConfig {
            prior_even: 10.0,
            prior_capture_one: 15.0,
            prior_capture_many: 30.0,
            prior_escape: 20.0,
            prior_self_atari: 15.0,
            prior_shape: 10.0,
            prior_near_last: [12.0, 6.0],
            prior_empty_low: 15.0,
            prior_empty_third: 10.0,
        }
    }
}

/// The 3x3 shapes, centre = the candidate point, in the notation: `X` a
/// stone of one colour, `O` of the other, `.` empty, `#` off the board,
/// `?` anything, `x` anything but `X` on the board, `o` anything but `O` on
/// the board. Each shape counts in all eight orientations and with the
/// colours swapped, so it does not matter whose move it is. These are the
/// classic hane, cut and edge shapes described for MoGo (Gelly, Wang,
/// Munos, Teytaud 2006, "Modification of UCT with patterns in Monte-Carlo
/// Go", figure 2), written out here in this notation.
pub const SHAPES: &[[&str; 3]] = &[
    // Hane that encloses a stone between two.
    ["XOX", "...", "???"],
    // Hane that does not cut.
    ["XO.", "...", "?.?"],
    // Turn (magari) around the head of a stone.
    ["XO?", "X..", "x.?"],
    // Diagonal attachment under an isolated stone.
    [".O.", "X..", "..."],
    // Cut with nothing protecting it.
    ["XO?", "O.o", "?o?"],
    // Cut after a peep.
    ["XO?", "O.X", "???"],
    // Pushing through between two stones.
    ["?X?", "O.O", "ooo"],
    // Cutting the knight's move.
    ["OX?", "o.O", "???"],
    // Edge: chasing along the first line.
    ["X.?", "O.?", "##?"],
    // Edge: blocking the cut on the side.
    ["OX?", "X.O", "###"],
    // Edge: blocking the connection underneath.
    ["?X?", "x.O", "###"],
    // Edge: descending (sagari).
    ["?XO", "x.x", "###"],
    // Edge: cutting on the side.
    ["?OX", "X.O", "###"],
];

/// Offsets of the eight neighbours, row by row, in the order of the bits of
/// a 3x3 code (two bits each, first neighbour in the highest bits).
const OFFSETS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The 3x3 code of the point `p`: the eight neighbours' cell codes
/// ([`Board::cell_code`]), two bits each.
#[inline]
pub fn code3x3(b: &Board, p: Point) -> u16 {
    let i = p.index() as i32;
    let mut code = 0u16;
    for (dx, dy) in OFFSETS {
        let q = Point::from_index((i + dy * STRIDE as i32 + dx) as usize);
        code = (code << 2) | b.cell_code(q) as u16;
    }
    code
}

/// A bit per 3x3 code: set when the code matches one of [`SHAPES`].
struct ShapeTable(Box<[u64]>);

impl ShapeTable {
    fn build() -> ShapeTable {
        let mut bits = vec![0u64; 65536 / 64].into_boxed_slice();
        for shape in SHAPES {
            let grid: Vec<u8> = shape.iter().flat_map(|row| row.bytes()).collect();
            for sym in 0..8 {
                for swap in [false, true] {
                    // The cell of the shape seen at neighbour k under this symmetry.
                    let mut cells = [b'?'; 8];
                    for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
                        let (sx, sy) = transform(dx, dy, sym);
                        let ch = grid[((sy + 1) * 3 + sx + 1) as usize];
                        cells[k] = if swap { swap_case(ch) } else { ch };
                    }
                    expand(&cells, 0, 0, &mut bits);
                }
            }
        }
        ShapeTable(bits)
    }

    #[inline]
    fn matches(&self, code: u16) -> bool {
        self.0[code as usize / 64] >> (code % 64) & 1 == 1
    }
}

/// One of the eight symmetries of the square applied to an offset.
fn transform(dx: i32, dy: i32, sym: u32) -> (i32, i32) {
    let (x, y) = if sym & 1 == 1 { (-dx, dy) } else { (dx, dy) };
    let (x, y) = if sym & 2 == 2 { (x, -y) } else { (x, y) };
    if sym & 4 == 4 {
        (y, x)
    } else {
        (x, y)
    }
}

fn swap_case(ch: u8) -> u8 {
    match ch {
        b'X' => b'O',
        b'O' => b'X',
        b'x' => b'o',
        b'o' => b'x',
        other => other,
    }
}

/// Sets the bit of every concrete code matching `cells` from neighbour `k`
/// on, with `code` holding the neighbours before it.
fn expand(cells: &[u8; 8], k: usize, code: u32, bits: &mut [u64]) {
    if k == 8 {
        bits[code as usize / 64] |= 1 << (code % 64);
        return;
    }
    let allowed: &[u32] = match cells[k] {
        b'.' => &[0],
        b'X' => &[1],
        b'O' => &[2],
        b'#' => &[3],
        b'x' => &[0, 2],
        b'o' => &[0, 1],
        _ => &[0, 1, 2, 3],
    };
    for &v in allowed {
        expand(cells, k + 1, (code << 2) | v, bits);
    }
}

fn shapes() -> &'static ShapeTable {
    static TABLE: OnceLock<ShapeTable> = OnceLock::new();
    TABLE.get_or_init(ShapeTable::build)
}

/// Whether the 3x3 neighbourhood of the empty point `p` is one of the
/// [`SHAPES`].
#[inline]
pub fn is_shape(b: &Board, p: Point) -> bool {
    shapes().matches(code3x3(b, p))
}

/// Whether `c` may play on the empty point `p` in a playout: not the
/// simple-ko recapture, not a suicide.
#[inline]
fn playable(b: &Board, c: Color, p: Point) -> bool {
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
            None => {}
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

/// The local step with learned ratings ([`PlayoutConfig::gammas`]): a
/// candidate next to `last` drawn by its gamma, or `None` for the random
/// move (no candidate, or the draw fell on the rest weight). Draws one
/// random number when there is a candidate, none otherwise.
fn gamma_reply<R: Rng>(
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
        let w = g.value(g.code(gammas::index(b, c, q)));
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

/// The shape step (2): learned ratings with [`PlayoutConfig::gammas`],
/// else the [`SHAPES`] with probability [`PlayoutConfig::pattern_prob`].
fn local_reply<R: Rng>(
    b: &Board,
    c: Color,
    last: Point,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Option<Point> {
    if cfg.gammas {
        gamma_reply(b, c, last, cfg, rng)
    } else if chance(rng, cfg.pattern_prob) {
        pick(rng, |out| shape_replies(b, c, last, cfg, out))
    } else {
        None
    }
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
                || (cfg.self_atari_reading && tactics::good_self_atari(b, c, p))
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
}

/// Plays out `b` with `to_move` first, after the opponent's move `last`;
/// `first_play` gets the colour code (1 black, 2 white) of the first stone
/// played on each point where it is still 0 (for AMAF). Returns the area
/// margin of the final position; `owner` gets the final owner of every
/// point (+1 black, -1 white, 0).
pub(crate) fn playout<R: Rng>(
    b: &mut Board,
    mut to_move: Color,
    mut last: Option<Point>,
    rng: &mut R,
    cfg: &PlayoutConfig,
    first_play: &mut [u8; ARRAY_LEN],
    owner: &mut [i8; ARRAY_LEN],
) -> PlayoutEnd {
    let n = b.size();
    let max_moves = cfg.playout_length * n * n;
    let mut passes = 0;
    let mut moves = 0;
    while moves < max_moves && passes < 2 {
        let mv = choose_move(b, to_move, last, rng, cfg);
        match mv {
            Some(p) => {
                b.play_unchecked(to_move, p);
                if first_play[p.index()] == 0 {
                    first_play[p.index()] = to_move as u8;
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
    }
}

/// The prior of a move entering the tree, as virtual visits and wins (wins
/// for the player making the move).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Prior {
    /// Virtual visits.
    pub visits: f32,
    /// Virtual wins among them.
    pub wins: f32,
}

/// Cheap knowledge about `c` playing the legal empty point `p`, given the
/// last two moves: captures, escaping atari, self-atari, shape, distance to
/// the last moves, and the line in an empty area (the opening).
pub fn prior(
    b: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    last2: Option<Point>,
    cfg: &PriorConfig,
) -> Prior {
    let mut pr = Prior {
        visits: cfg.prior_even,
        wins: cfg.prior_even / 2.0,
    };
    let bonus = |pr: &mut Prior, w: f32| {
        pr.visits += w;
        pr.wins += w;
    };
    let opp = c.opponent();
    let mut captured = 0usize;
    let mut escapes = false;
    for q in p.neighbors() {
        match b.get(q) {
            Some(col) if col == opp && b.in_atari(q) => captured += b.chain_len(q),
            Some(col) if col == c && b.in_atari(q) => escapes = true,
            _ => {}
        }
    }
    if captured > 0 {
        bonus(
            &mut pr,
            if captured == 1 {
                cfg.prior_capture_one
            } else {
                cfg.prior_capture_many
            },
        );
    }
    let libs = b.liberties_after(c, p, 3);
    if escapes && libs >= 2 {
        bonus(&mut pr, cfg.prior_escape);
    }
    if libs < 2 && captured == 0 {
        pr.visits += cfg.prior_self_atari;
    }
    if is_shape(b, p) {
        bonus(&mut pr, cfg.prior_shape);
    }
    let near = |m: Option<Point>| {
        m.map(|m| {
            let dx = (m.x() as i32 - p.x() as i32).abs();
            let dy = (m.y() as i32 - p.y() as i32).abs();
            dx + dy + dx.max(dy)
        })
    };
    // Distance dx + dy + max(dx, dy): 2 for a neighbour, 3 for a diagonal.
    for d in [near(last), near(last2)].into_iter().flatten() {
        if d <= 3 {
            bonus(&mut pr, cfg.prior_near_last[0]);
        } else if d <= 5 {
            bonus(&mut pr, cfg.prior_near_last[1]);
        }
    }
    // Lines in an empty area: low moves are bad, third and fourth line good.
    let n = b.size();
    let line = p.x().min(p.y()).min(n - 1 - p.x()).min(n - 1 - p.y());
    if empty_area(b, p, 3) {
        if line <= 1 {
            pr.visits += cfg.prior_empty_low;
        } else if line == 2 || (line == 3 && n >= 13) {
            bonus(&mut pr, cfg.prior_empty_third);
        }
    }
    pr
}

/// Whether no stone lies within Manhattan distance `r` of `p`.
fn empty_area(b: &Board, p: Point, r: i32) -> bool {
    let n = b.size() as i32;
    let (px, py) = (p.x() as i32, p.y() as i32);
    for dy in -r..=r {
        let rest = r - dy.abs();
        for dx in -rest..=rest {
            let (x, y) = (px + dx, py + dy);
            if x >= 0
                && y >= 0
                && x < n
                && y < n
                && b.get(Point::new(x as usize, y as usize)).is_some()
            {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn hane_shape_matches_in_every_orientation() {
        // White D5 between black C5 and E5: D4 is the enclosing hane.
        let b = Board::from_diagram(HANE).unwrap();
        assert!(is_shape(&b, at(&b, "D4")));
        assert!(!is_shape(&b, at(&b, "A1")));
        // Rotated a quarter turn and colours swapped.
        let r = Board::from_diagram(
            "
            . . . . . . .
            . . . O . . .
            . . . X . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap();
        assert!(is_shape(&r, at(&r, "C5")));
        assert!(is_shape(&r, at(&r, "E5")));
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
    fn prior_prefers_capture_and_dislikes_self_atari() {
        let b = Board::from_diagram(
            "
            . . . . .
            . . X . .
            . X O X .
            . X O X .
            . . . . .",
        )
        .unwrap();
        let cfg = PriorConfig::default();
        let cap = prior(&b, Color::Black, at(&b, "C1"), None, None, &cfg);
        let plain = prior(&b, Color::Black, at(&b, "E5"), None, None, &cfg);
        assert!(cap.wins / cap.visits > plain.wins / plain.visits);
        // White B5 would have one liberty (A5) and capture nothing.
        let b = Board::from_diagram(
            "
            . . X . .
            . X . . .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let sa = prior(&b, Color::White, at(&b, "B5"), None, None, &cfg);
        let plain_w = prior(&b, Color::White, at(&b, "D3"), None, None, &cfg);
        assert!(sa.wins / sa.visits < plain_w.wins / plain_w.visits);
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

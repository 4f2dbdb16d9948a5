//! One search: threads descending the shared tree, expanding leaves with
//! priors, running playouts, and backing up results and AMAF statistics.
//!
//! Legality in the tree: the root's children are checked with
//! [`Game::check`] (exact superko against the game's whole history).
//! Deeper, a move must pass [`Board::check`] and its resulting position
//! (stones, plus the side to move under situational superko) must not be
//! in the game's history or on the path from the root, by 64-bit hash: a
//! collision could only hide a move below the root, never allow an illegal
//! one at the root. Playouts use the simple-ko rule only.

use super::nn_prior::{NnRequest, NnScratch};
use super::prior::{priors_nn, Prior, PriorContext, PriorScratch};
use super::time::TimeBudget;
use super::tree::{
    decode_move, encode_move, rave_value, uct_numerator, Tree, EXPANDED, EXPANDING, FULL, LEAF,
    PASS,
};
use super::SearchConfig;
use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::nn::planes::HISTORY;
use crate::nn::Network;
use crate::player::MoveFilter;
use crate::playout::policy::{first_play_entry, playout, FirstPlay};
use crate::point::{Move, Point, ARRAY_LEN};
use crate::rules::{KoRule, Scoring};
use crate::score::territory_shift;
use crate::zobrist::{SituationHash, StoneHash};
use fxhash::FxHashSet;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::*};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// When a search stops (whichever comes first; none = until `stop`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    /// New playouts to run.
    pub playouts: Option<u64>,
    /// Thinking time.
    pub time: Option<TimeBudget>,
}

/// Playout statistics gathered by one thread.
pub(crate) struct Accum {
    /// Sum of final owners per point index (+1 black, -1 white).
    pub owner: Vec<i32>,
    /// Playouts counted.
    pub count: u64,
    /// Sum of Black's playout margins (komi not included): area, or
    /// territory when the rules count territory.
    pub margin: i64,
}

impl Accum {
    fn new() -> Accum {
        Accum {
            owner: vec![0; ARRAY_LEN],
            count: 0,
            margin: 0,
        }
    }
}

/// What every search thread shares.
pub(crate) struct Search<'a> {
    pub tree: &'a Tree,
    pub cfg: &'a SearchConfig,
    pub game: &'a Game,
    pub color: Color,
    pub limits: Limits,
    pub stop: Option<&'a AtomicBool>,
    /// The komi playouts are scored with: the game's, plus the handicap
    /// games' dynamic komi ([`super::search_komi`]).
    pub komi: f32,
    /// KataGo's `avoid`/`allow`: moves selection skips near the root
    /// (`None`, the default, skips nothing). The tree keeps every legal
    /// child, so a later search without the filter reuses it whole.
    pub filter: Option<&'a MoveFilter>,
    /// The network of the prior, when the configuration has one that
    /// covers the board's size.
    nn: Option<&'a Network>,
    /// Network evaluations made (counted when a thread ends).
    pub nn_evals: AtomicU64,
    /// Nanoseconds they took.
    pub nn_nanos: AtomicU64,
    /// With rules that count territory, the shift from area to territory
    /// at the root ([`territory_shift`]); each stone the descent adds moves
    /// it by one more. See [`Search::iterate`].
    root_shift: Option<i32>,
    /// One over the RAVE equivalence for this board
    /// ([`SearchConfig::rave_equiv_for`]), as [`rave_value`] takes it.
    inv_rave_equiv: f64,
    /// The AMAF distance weight for this board
    /// ([`SearchConfig::amaf_distance_for`]).
    amaf_distance: u32,
    /// More than one thread updates the tree: statistics are added with
    /// atomic read-modify-writes. With one thread a plain load and store
    /// adds the same (see [`add_u32`]).
    shared: bool,
    history: FxHashSet<u64>,
    last: Option<Point>,
    last2: Option<Point>,
    root_passes: u32,
    pub done: AtomicBool,
    pub playouts: AtomicU64,
    pub start: Instant,
    pub accum: Vec<Padded<Mutex<Accum>>>,
}

struct Worker {
    rng: Xoshiro256PlusPlus,
    path: Vec<u32>,
    keys: Vec<u64>,
    first_play: FirstPlay,
    owner: [i8; ARRAY_LEN],
    /// Buffers of the expansions.
    expand: ExpandScratch,
    /// The board of the current descent and playout.
    board: Board,
}

/// A value on a cache line of its own, so that one thread's writes do not
/// evict another's (the per-thread accumulators sit side by side).
#[repr(align(128))]
pub(crate) struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The buffers one expansion fills, reused by the next (one set per
/// thread).
#[derive(Default)]
pub(crate) struct ExpandScratch {
    points: Vec<Point>,
    priors: Vec<Prior>,
    moves: Vec<(u16, Prior)>,
    prior: PriorScratch,
    ladder_pool: Vec<Box<Board>>,
    /// The network's buffers, made on the thread's first evaluation.
    nn: Option<NnScratch>,
}

impl<'a> Search<'a> {
    /// A search of `game` for `color` to move; time limits count from
    /// `start`.
    pub fn new(
        tree: &'a Tree,
        cfg: &'a SearchConfig,
        game: &'a Game,
        color: Color,
        limits: Limits,
        stop: Option<&'a AtomicBool>,
        start: Instant,
    ) -> Search<'a> {
        let ko = game.rules().ko;
        let mut history = FxHashSet::default();
        if ko != KoRule::Simple {
            for i in 0..game.history_len() {
                if let Some((h, to_move)) = game.history_entry(i) {
                    history.insert(key(ko, h, to_move));
                }
            }
        }
        let moves = game.moves();
        let pt = |k: usize| moves.len().checked_sub(k).and_then(|i| moves[i].mv.point());
        let root_passes = moves
            .iter()
            .rev()
            .take(2)
            .take_while(|m| m.mv == Move::Pass)
            .count() as u32;
        let threads = cfg.threads.max(1);
        Search {
            tree,
            cfg,
            game,
            color,
            limits,
            stop,
            komi: super::search_komi(cfg, game),
            filter: None,
            nn: cfg
                .nn
                .net
                .as_ref()
                .filter(|n| n.covers(game.size()))
                .map(|n| n.network()),
            nn_evals: AtomicU64::new(0),
            nn_nanos: AtomicU64::new(0),
            root_shift: (game.rules().scoring == Scoring::Territory)
                .then(|| territory_shift(game.board())),
            inv_rave_equiv: 1.0 / cfg.rave_equiv_for(game.size()),
            amaf_distance: cfg.amaf_distance_for(game.size()),
            shared: threads > 1,
            history,
            last: pt(1),
            last2: pt(2),
            root_passes,
            done: AtomicBool::new(false),
            playouts: AtomicU64::new(0),
            start,
            accum: (0..threads)
                .map(|_| Padded(Mutex::new(Accum::new())))
                .collect(),
        }
    }

    /// Runs the search on `cfg.threads` threads until a limit or the stop
    /// flag; `on_tick` (if any) is called on the calling thread about every
    /// `interval` meanwhile.
    pub fn run(&self, seed: u64, interval: Duration, mut on_tick: Option<&mut dyn FnMut(&Search)>) {
        let threads = self.cfg.threads.max(1);
        std::thread::scope(|s| {
            for id in 0..threads {
                s.spawn(move || self.work(id, seed));
            }
            if let Some(f) = on_tick.as_mut() {
                let mut next = Instant::now() + interval;
                while !self.done.load(Acquire) {
                    std::thread::sleep(Duration::from_millis(2));
                    if Instant::now() >= next {
                        f(self);
                        next += interval;
                    }
                }
            }
        });
    }

    fn work(&self, id: usize, seed: u64) {
        let mut w = Worker {
            rng: Xoshiro256PlusPlus::seed_from_u64(
                seed ^ (id as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            ),
            path: Vec::with_capacity(64),
            keys: Vec::with_capacity(64),
            first_play: [0; ARRAY_LEN],
            owner: [0; ARRAY_LEN],
            expand: ExpandScratch::default(),
            board: self.game.board().clone(),
        };
        // A root kept from the last search was expanded without the
        // network, or as a node deeper down: its priors are made again.
        if id == 0 && self.nn.is_some() && self.tree.root().state.load(Acquire) == EXPANDED {
            w.board.clone_from(self.game.board());
            w.path.clear();
            w.path.push(0);
            self.reprior(
                0,
                &w.board,
                self.color,
                self.last,
                self.last2,
                &w.path,
                &mut w.expand,
            );
        }
        let mut iterations = 0u64;
        loop {
            if self.done.load(Relaxed) {
                break;
            }
            // A stop asked for before this thread's first playout waits
            // for it: that playout expands a new root and visits a move
            // (on a new root the one the priors rate best), so a search
            // stopped at once (say by the end of the input) still answers
            // a move, not a pass.
            if iterations > 0 && self.stop.is_some_and(|s| s.load(Relaxed)) {
                self.done.store(true, Release);
                break;
            }
            let k = self.playouts.fetch_add(1, Relaxed);
            if self.limits.playouts.is_some_and(|lim| k >= lim) {
                self.done.store(true, Release);
                break;
            }
            self.iterate(&mut w, id);
            iterations += 1;
            if id == 0
                && (iterations.is_multiple_of(16) || self.limits.time.is_some())
                && self.should_stop(iterations.is_multiple_of(16))
            {
                self.done.store(true, Release);
                break;
            }
        }
        if let Some(nn) = &w.expand.nn {
            self.nn_evals.fetch_add(nn.evals, Relaxed);
            self.nn_nanos.fetch_add(nn.nanos, Relaxed);
        }
    }

    /// The two largest visit counts among the root's selectable children,
    /// and whether the most visited one also has the best win rate among
    /// children with at least a tenth of its visits.
    pub fn top_two(&self) -> (u32, u32, bool) {
        let (mut v1, mut v2, mut best) = (0u32, 0u32, None);
        for ch in self.tree.children(0) {
            let n = self.tree.node(ch);
            if !self.root_selectable(n.mv.load(Relaxed)) {
                continue;
            }
            let v = n.visits();
            if v > v1 {
                v2 = v1;
                v1 = v;
                best = Some(ch);
            } else if v > v2 {
                v2 = v;
            }
        }
        let Some(best) = best else {
            return (0, 0, true);
        };
        let rate = |i: u32| {
            let n = self.tree.node(i);
            n.wins() / n.visits().max(1) as f64
        };
        let br = rate(best);
        let clear = self.tree.children(0).all(|ch| {
            let n = self.tree.node(ch);
            ch == best
                || !self.root_selectable(n.mv.load(Relaxed))
                || n.visits() * 10 < v1
                || rate(ch) <= br
        }) && v1 as f64 >= self.cfg.clear_ratio * v2 as f64;
        (v1, v2, clear)
    }

    /// Whether the root's child with move code `code` may be chosen: not
    /// forbidden by the filter.
    pub fn root_selectable(&self, code: u16) -> bool {
        !self.forbidden(code, self.color, 0)
    }

    /// Whether the filter forbids move code `code` for `c` at `depth`.
    #[inline]
    pub fn forbidden(&self, code: u16, c: Color, depth: usize) -> bool {
        self.filter.is_some_and(|f| {
            let slot = if code == PASS {
                ARRAY_LEN
            } else {
                code as usize
            };
            f.forbids_slot(c, slot, depth)
        })
    }

    /// Whether the search should end now: the time is up, the best move is
    /// clear past the playout target, or the best move cannot change in the
    /// playouts left (the last two checked when `full`).
    fn should_stop(&self, full: bool) -> bool {
        let elapsed = self.start.elapsed().as_secs_f64();
        let done = self.playouts.load(Relaxed) as f64;
        let mut remaining = f64::INFINITY;
        // The root's two best visit counts, read at most once per check.
        let mut top: Option<(u32, u32, bool)> = None;
        if let Some(t) = self.limits.time {
            if elapsed >= t.max {
                return true;
            }
            if !full || done < self.cfg.min_playouts as f64 {
                return false;
            }
            let (_, _, clear) = *top.get_or_insert_with(|| self.top_two());
            let deadline = if clear { t.target } else { t.max };
            if elapsed >= deadline {
                return true;
            }
            let rate = done / elapsed.max(1e-3);
            remaining = rate * (deadline - elapsed);
        }
        if let Some(lim) = self.limits.playouts {
            let lim = lim as f64;
            if full
                && self.cfg.early_stop
                && self.cfg.playout_target < 1.0
                && done >= self.cfg.min_playouts as f64
                && done >= self.cfg.playout_target * lim
                && top.get_or_insert_with(|| self.top_two()).2
            {
                return true;
            }
            remaining = remaining.min(lim - done);
        }
        if !full
            || !self.cfg.early_stop
            || remaining.is_infinite()
            || done < self.cfg.min_playouts as f64
        {
            return false;
        }
        let (v1, v2, _) = *top.get_or_insert_with(|| self.top_two());
        v1 > 0 && (v1 - v2) as f64 > remaining
    }

    fn expand_threshold(&self, depth: usize) -> u32 {
        if depth == 0 {
            1
        } else {
            self.cfg.expand_visits
        }
    }

    /// One descent, playout and backup.
    ///
    /// Playouts are scored by area. Under rules that count territory, the
    /// margin is shifted to territory: a finished position's territory
    /// margin is its area margin less the stones Black placed over the
    /// whole game plus those White placed ([`territory_shift`] gives it at
    /// the root), so each stone of the descent moves the shift by one,
    /// and a stone played inside one's own territory, or a capture of dead
    /// stones there, costs the point it costs in the count. The playout's
    /// own stones are left out: a random playout fills each side's
    /// territory down to one-point eyes, stones no real player would
    /// place, and the side with more territory would pay for more of them.
    fn iterate(&self, w: &mut Worker, id: usize) {
        let tree = self.tree;
        // The root position copied into the thread's board: only the rows
        // the size uses (`Board::clone_from`).
        w.board.clone_from(self.game.board());
        let b = &mut w.board;
        let mut c = self.color;
        let ko = self.game.rules().ko;
        w.path.clear();
        w.path.push(0);
        w.keys.clear();
        w.first_play.fill(0);
        // The visits of the current node with this descent's.
        let mut arrived = add_u32(&tree.root().visits, 1, self.shared);
        let (mut last, mut last2) = (self.last, self.last2);
        let mut passes = self.root_passes;
        let mut shift = self.root_shift;
        let mut node = 0u32;
        loop {
            let depth = w.path.len() - 1;
            let n = tree.node(node);
            let threshold = self.expand_threshold(depth);
            let visits = n.visits();
            if n.state.load(Acquire) == LEAF
                && visits >= threshold
                && n.state
                    .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
                    .is_ok()
            {
                let nn = self.nn.is_some() && (depth == 0 || visits >= self.cfg.nn.visits);
                let ok = self.expand(
                    node,
                    b,
                    c,
                    depth,
                    last,
                    last2,
                    &w.keys,
                    &w.path,
                    nn,
                    &mut w.expand,
                );
                n.state.store(if ok { EXPANDED } else { FULL }, Release);
            } else if self.nn.is_some()
                && depth > 0
                && arrived == self.cfg.nn.visits
                && self.cfg.nn.visits > threshold
                && n.state.load(Acquire) == EXPANDED
            {
                self.reprior(node, b, c, last, last2, &w.path, &mut w.expand);
            }
            let Some(child) = self.select(node, depth, c) else {
                break;
            };
            let cn = tree.node(child);
            arrived = add_u32(&cn.visits, 1, self.shared);
            w.path.push(child);
            match cn.mv() {
                Move::Pass => {
                    b.pass();
                    passes += 1;
                    last2 = last;
                    last = None;
                }
                Move::Play(p) => {
                    b.play_unchecked(c, p);
                    if w.first_play[p.index()] == 0 {
                        // Move `depth` of the simulation (the root's
                        // child is move 0).
                        w.first_play[p.index()] = first_play_entry(c, depth);
                    }
                    if let Some(s) = shift.as_mut() {
                        *s += if c == Color::Black { -1 } else { 1 };
                    }
                    passes = 0;
                    last2 = last;
                    last = Some(p);
                }
            }
            c = c.opponent();
            w.keys.push(key(ko, b.hash(), c));
            node = child;
            if passes >= 2 {
                break;
            }
        }
        let tree_moves = w.path.len() - 1;
        // The area margin Black must beat: the komi less the territory
        // shift of the moves so far (the mercy rule's test).
        let area_komi = self.komi - shift.map_or(0.0, |s| s as f32);
        let mut end = playout(
            b,
            c,
            last,
            &mut w.rng,
            &self.cfg.playout,
            area_komi,
            tree_moves,
            &mut w.first_play,
            &mut w.owner,
        );
        let moves = tree_moves + end.moves;
        if let Some(s) = shift {
            end.margin += s;
        }
        let margin = end.margin as f32 - self.komi;
        let black2: u32 = if margin > 0.0 {
            2
        } else if margin < 0.0 {
            0
        } else {
            1
        };
        let win2 = |col: Color| {
            if col == Color::Black {
                black2
            } else {
                2 - black2
            }
        };
        let opp = self.color.opponent();
        let shared = self.shared;
        for (d, &ni) in w.path.iter().enumerate() {
            let n = tree.node(ni);
            tree.score(ni).add(end.margin, shared);
            if d > 0 {
                let mover = if d % 2 == 1 { self.color } else { opp };
                add_u32(&n.wins2, win2(mover), shared);
            }
            let to_move = if d % 2 == 0 { self.color } else { opp };
            let code = to_move as u16;
            let w2 = win2(to_move);
            let weights = AmafWeights::new(self.amaf_distance, d, moves);
            for (_, cn) in tree.child_nodes(ni) {
                let mv = cn.mv.load(Relaxed);
                if mv == PASS {
                    continue;
                }
                let entry = w.first_play[mv as usize];
                if entry & 3 == code {
                    let weight = weights.of(usize::from(entry >> 2));
                    add_u32(&cn.amaf_visits, weight, shared);
                    add_u32(&cn.amaf_wins2, w2 * weight, shared);
                }
            }
        }
        let mut acc = self.accum[id].lock().unwrap_or_else(|e| e.into_inner());
        for p in b.points() {
            acc.owner[p.index()] += w.owner[p.index()] as i32;
        }
        acc.count += 1;
        acc.margin += end.margin as i64;
    }

    /// The child of `ni` (at `depth`, `c` to move) to descend into.
    fn select(&self, ni: u32, depth: usize, c: Color) -> Option<u32> {
        let tree = self.tree;
        let parent = tree.node(ni).visits() as f64;
        let explore = uct_numerator(self.cfg.uct_c, parent);
        // The policy term's numerator, `puct * sqrt(parent)` (0: none).
        let policy_explore = if self.cfg.puct > 0.0 {
            self.cfg.puct * parent.sqrt()
        } else {
            0.0
        };
        let su = self.cfg.score_utility;
        // With a score utility: the mover's sign and the parent's mean
        // margin, which a child without playouts takes as its own.
        let (sign, parent_mean) = if su > 0.0 {
            let sign = if c == Color::Black { 1.0 } else { -1.0 };
            (sign, tree.score_data(ni).mean().unwrap_or(0.0))
        } else {
            (0.0, 0.0)
        };
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        for (ch, n) in tree.child_nodes(ni) {
            if self.filter.is_some() && self.forbidden(n.mv.load(Relaxed), c, depth) {
                continue;
            }
            // Under territory scoring a stone in one's own territory costs
            // a point, which noisy playouts hide, and the pass has no AMAF
            // statistics to lift it: a pass that lost its first playouts
            // would not be tried again. At the root it gets at least
            // sqrt(parent) visits.
            if depth == 0
                && self.root_shift.is_some()
                && n.mv.load(Relaxed) == PASS
                && f64::from(n.visits()) < parent.sqrt()
            {
                return Some(ch);
            }
            let (pv, pw) = n.prior();
            let mut v = rave_value(
                n.visits() as f64,
                n.wins(),
                pv as f64,
                pw as f64,
                n.amaf_visits.load(Relaxed) as f64,
                n.amaf_wins2.load(Relaxed) as f64 / 2.0,
                self.inv_rave_equiv,
                explore,
            );
            if policy_explore > 0.0 {
                v += policy_explore * f64::from(n.policy()) / (f64::from(n.visits()) + 1.0);
            }
            if su > 0.0 {
                let visits = n.visits();
                let mean = if visits > 0 {
                    tree.score_sum(ch) as f64 / f64::from(visits)
                } else {
                    parent_mean
                };
                v += su * score_utility(sign * (mean - f64::from(self.komi)), self.game.size());
            }
            if v > best_v {
                best_v = v;
                best = Some(ch);
            }
        }
        best
    }

    /// Creates the children of `ni` (position `b`, `c` to move); false when
    /// the arena is full.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        ni: u32,
        b: &Board,
        c: Color,
        depth: usize,
        last: Option<Point>,
        last2: Option<Point>,
        path_keys: &[u64],
        path: &[u32],
        nn: bool,
        scratch: &mut ExpandScratch,
    ) -> bool {
        let rules = self.game.rules();
        let points = &mut scratch.points;
        points.clear();
        // Empty points in index order (`points()` runs row by row), so the
        // children's order does not depend on the empty list's shuffling.
        for p in b.points().filter(|&p| b.is_empty(p)) {
            if b.is_eye(c, p) {
                continue;
            }
            let legal = if depth == 0 {
                self.game.check(c, Move::Play(p)).is_ok()
            } else {
                b.check(c, p, rules.suicide).is_ok()
                    && !(rules.ko != KoRule::Simple && {
                        let k = key(rules.ko, b.hash_after(c, p), c.opponent());
                        self.history.contains(&k) || path_keys.contains(&k)
                    })
            };
            if legal
                && !(self.cfg.prune_ladders
                    && failed_ladder_escape(b, c, p, &mut scratch.ladder_pool)
                    && !(self.cfg.prior.prior_shortage
                        && crate::playout::tactics::shortage_self_atari(b, c, p)))
            {
                points.push(p);
            }
        }
        let ctx = PriorContext {
            board: b,
            to_move: c,
            last,
            last2,
        };
        self.node_priors(&ctx, path, nn, scratch);
        let pr = &scratch.priors;
        let points = &scratch.points;
        let moves = &mut scratch.moves;
        moves.clear();
        for (p, x) in points.iter().zip(pr.iter()) {
            moves.push((p.index() as u16, *x));
        }
        let [pv, pw] = if self.root_shift.is_some() {
            self.cfg.prior_pass_territory
        } else {
            self.cfg.prior_pass
        };
        // The ratings leave the pass out. Under territory scoring it is a
        // real candidate at the root (a stone in one's own territory costs
        // a point that noisy playouts hide), so there it takes the policy
        // of the best-rated stone, and the policy term explores it as much.
        let policy = if depth == 0 && self.root_shift.is_some() {
            moves.iter().map(|(_, x)| x.policy).fold(0.0, f32::max)
        } else {
            0.0
        };
        moves.push((
            encode_move(Move::Pass),
            Prior {
                visits: pv,
                wins: pw,
                policy,
            },
        ));
        let Some(first) = self.tree.alloc(moves.len() as u32) else {
            return false;
        };
        self.tree.init_children(first, moves);
        let n = self.tree.node(ni);
        n.first_child.store(first, Relaxed);
        n.n_children.store(moves.len() as u16, Relaxed);
        true
    }

    /// The priors of `scratch.points` in `ctx` into `scratch.priors`, the
    /// network's share mixed in when `nn` (the moves of `path`, the
    /// descent from the root to the node, are its history).
    fn node_priors(&self, ctx: &PriorContext, path: &[u32], nn: bool, scratch: &mut ExpandScratch) {
        let net = self.nn.filter(|_| nn);
        let mut req = net.map(|net| {
            let size = ctx.board.size();
            if scratch.nn.as_ref().is_some_and(|s| s.size() != size) {
                scratch.nn = None;
            }
            let s = scratch.nn.get_or_insert_with(|| NnScratch::new(net, size));
            self.history(path, &mut s.history);
            NnRequest {
                net,
                scratch: s,
                mix: self.cfg.nn.mix,
            }
        });
        priors_nn(
            ctx,
            &scratch.points,
            self.cfg.prior_source,
            &self.cfg.prior,
            &self.cfg.pattern_prior,
            &mut scratch.prior,
            req.as_mut(),
            &mut scratch.priors,
        );
    }

    /// The last moves before the node at the end of `path` (the game's,
    /// then the descent's), oldest first, into `out`.
    fn history(&self, path: &[u32], out: &mut Vec<Move>) {
        out.clear();
        let descent = path.len().saturating_sub(1);
        let moves = self.game.moves();
        let from_game = HISTORY.saturating_sub(descent).min(moves.len());
        out.extend(moves[moves.len() - from_game..].iter().map(|m| m.mv));
        let skip = descent.saturating_sub(HISTORY);
        out.extend(path[1 + skip..].iter().map(|&ni| self.tree.node(ni).mv()));
    }

    /// Computes the priors of the children of the expanded node `ni`
    /// (position `b`, `c` to move, reached by `path`) again with the
    /// network's share, and stores them; the pass keeps its prior.
    #[allow(clippy::too_many_arguments)]
    fn reprior(
        &self,
        ni: u32,
        b: &Board,
        c: Color,
        last: Option<Point>,
        last2: Option<Point>,
        path: &[u32],
        scratch: &mut ExpandScratch,
    ) {
        scratch.points.clear();
        for (_, n) in self.tree.child_nodes(ni) {
            if let Move::Play(p) = n.mv() {
                scratch.points.push(p);
            }
        }
        let ctx = PriorContext {
            board: b,
            to_move: c,
            last,
            last2,
        };
        self.node_priors(&ctx, path, true, scratch);
        let mut pr = scratch.priors.iter();
        for (_, n) in self.tree.child_nodes(ni) {
            if n.mv() != Move::Pass {
                if let Some(x) = pr.next() {
                    n.set_prior(*x);
                }
            }
        }
    }

    /// The summed playout statistics of all threads.
    pub fn accum(&self) -> Accum {
        let mut total = Accum::new();
        for a in &self.accum {
            let a = a.lock().unwrap_or_else(|e| e.into_inner());
            for (t, x) in total.owner.iter_mut().zip(&a.owner) {
                *t += x;
            }
            total.count += a.count;
            total.margin += a.margin;
        }
        total
    }
}

/// The superko key of a position under `ko`.
fn key(ko: KoRule, h: StoneHash, to_move: Color) -> u64 {
    match ko {
        KoRule::Situational => SituationHash::new(h, to_move).0,
        _ => h.0,
    }
}

/// Whether `mv` at the root was checked and may be kept when the tree is
/// reused: every root child must be legal in `game` for `color`.
pub(crate) fn root_children_legal(tree: &Tree, game: &Game, color: Color) -> bool {
    tree.children(0)
        .all(|ch| game.is_legal(color, decode_move(tree.node(ch).mv.load(Relaxed))))
}

/// Whether `c` on the empty point `p` only extends an own chain out of
/// atari into a ladder that captures it: `p` is the liberty of a chain of
/// `c` in atari, the move captures nothing, and the ladder reader
/// ([`crate::patterns::ladder::captured`]) catches the chain. Boards for the
/// reading come from `pool`.
fn failed_ladder_escape(b: &Board, c: Color, p: Point, pool: &mut Vec<Box<Board>>) -> bool {
    let mut chain = None;
    for q in p.neighbors() {
        match b.get(q) {
            Some(col) if col == c && b.in_atari(q) => chain = Some(q),
            Some(col) if col != c && b.in_atari(q) => return false,
            _ => {}
        }
    }
    let Some(q) = chain else {
        return false;
    };
    let mut budget = crate::patterns::ladder::LADDER_BUDGET;
    crate::patterns::ladder::captured(b, q, &mut budget, pool)
}

/// The score utility of a lead of `lead` points for the mover on a board of
/// `size`: `lead / (size + |lead|)`, between -1 and 1, steepest around an
/// even game (a rational sigmoid: one division in the tree's inner loop).
/// [`SearchConfig::score_utility`] weighs it beside the win rate, so that
/// among moves that win (or lose) alike the search prefers the larger
/// margin: a lost side keeps a seki instead of sacrificing into it.
fn score_utility(lead: f64, size: usize) -> f64 {
    lead / (size as f64 + lead.abs())
}

/// Adds `v` to `a` and returns the new value: an atomic read-modify-write
/// when other threads may add at the same time (`shared`), otherwise a
/// plain load and store, which gives the same sum without a locked
/// instruction.
#[inline(always)]
fn add_u32(a: &AtomicU32, v: u32, shared: bool) -> u32 {
    if shared {
        a.fetch_add(v, Relaxed).wrapping_add(v)
    } else {
        let x = a.load(Relaxed).wrapping_add(v);
        a.store(x, Relaxed);
        x
    }
}

/// [`amaf_weight`] for the children of one node, with the division by the
/// span done as a multiplication by a reciprocal, exact for every span and
/// move index a simulation can have (checked against [`amaf_weight`] by
/// a test over the whole range).
#[derive(Copy, Clone, Debug)]
struct AmafWeights {
    /// `distance - 1`, 0 when distance weighting is off.
    k1: u64,
    depth: usize,
    moves: usize,
    /// `moves - depth`.
    span: u64,
    /// `2^40 / span + 1` (0 when distance weighting is off).
    recip: u64,
}

impl AmafWeights {
    fn new(distance: u32, depth: usize, moves: usize) -> AmafWeights {
        let span = moves.saturating_sub(depth).max(1) as u64;
        AmafWeights {
            k1: u64::from(distance.max(1) - 1),
            depth,
            moves,
            span,
            // Only distance weighting reads it (off on boards above 9x9).
            recip: if distance > 1 {
                (1u64 << 40) / span + 1
            } else {
                0
            },
        }
    }

    /// The weight of a sample first played as move `t`.
    #[inline]
    fn of(&self, t: usize) -> u32 {
        if self.k1 == 0 || t < self.depth || self.moves <= self.depth {
            return 1;
        }
        let left = self.moves.saturating_sub(t).min(self.moves - self.depth) as u64;
        let num = self.k1 * left;
        // Exact while `num < 2^20` and `span < 2^14` (the error of the
        // reciprocal stays below `2^-20 < 1 / span`); beyond, divide.
        let q = if num < 1 << 20 && self.span < 1 << 14 {
            (num * self.recip) >> 40
        } else {
            num / self.span
        };
        1 + q as u32
    }
}

/// The weight of a child's AMAF sample at a node at depth `depth` (whose
/// children are move `depth` of the simulation) when the child's point
/// was first played, by the node's side, as move `t` of a simulation of
/// `moves` moves: with `distance` K above 1, K for move `depth` falling
/// linearly towards 1 for the last move; 1 for a move before `depth`, and
/// always 1 with K = 1 ([`SearchConfig::amaf_distance`]).
#[cfg(test)]
fn amaf_weight(distance: u32, depth: usize, t: usize, moves: usize) -> u32 {
    if distance <= 1 || t < depth || moves <= depth {
        return 1;
    }
    let span = (moves - depth) as u64;
    let left = moves.saturating_sub(t).min(moves - depth) as u64;
    1 + (u64::from(distance - 1) * left / span) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn amaf_weights_fall_from_the_nodes_move_to_the_last() {
        // Off: every sample counts once.
        for t in 0..10 {
            assert_eq!(amaf_weight(1, 2, t, 10), 1);
        }
        // K = 4 at depth 2 of a 10-move simulation: 4 for move 2, falling
        // to 1 for move 9; moves before the node's count once.
        let w: Vec<u32> = (0..10).map(|t| amaf_weight(4, 2, t, 10)).collect();
        assert_eq!(w, [1, 1, 4, 3, 3, 2, 2, 2, 1, 1]);
        // A simulation that ends at the node: no move after it.
        assert_eq!(amaf_weight(4, 5, 5, 5), 1);
        // A capped move index past the end counts once.
        assert_eq!(amaf_weight(4, 0, 20, 10), 1);
    }

    /// The reciprocal form gives the divided weight for every distance,
    /// depth, move index and simulation length a search can meet (the
    /// lengths past the 9x9 cap sampled, and past a 19x19 one).
    #[test]
    fn amaf_weights_by_reciprocal_equal_the_divided_ones() {
        for distance in [1, 2, 4, 8, 64] {
            for moves in (0..300).chain([1082, 1083, 4000, 16383, 16384]) {
                for depth in [0, 1, 2, 5, 17, 60, 299] {
                    let w = AmafWeights::new(distance, depth, moves);
                    for t in (0..moves + 3).step_by(1 + moves / 400) {
                        assert_eq!(
                            w.of(t),
                            amaf_weight(distance, depth, t, moves),
                            "distance {distance} depth {depth} t {t} moves {moves}"
                        );
                    }
                }
            }
        }
    }

    /// With one thread the plain add gives the atomic add's sums.
    #[test]
    fn plain_and_atomic_adds_agree() {
        let (a, b) = (AtomicU32::new(7), AtomicU32::new(7));
        for v in [0, 1, 5, u32::MAX - 3] {
            add_u32(&a, v, false);
            add_u32(&b, v, true);
            assert_eq!(a.load(Relaxed), b.load(Relaxed));
        }
    }

    /// The threads' accumulators sit in one vector: each must start a
    /// cache line of its own (two lines, for the adjacent-line
    /// prefetcher), or one thread's playouts evict its neighbour's.
    #[test]
    fn accumulators_do_not_share_cache_lines() {
        assert_eq!(std::mem::align_of::<Padded<Mutex<Accum>>>(), 128);
        let v: Vec<Padded<Mutex<Accum>>> =
            (0..3).map(|_| Padded(Mutex::new(Accum::new()))).collect();
        let a = std::ptr::from_ref(&v[0]) as usize;
        let b = std::ptr::from_ref(&v[1]) as usize;
        assert_eq!(a % 128, 0);
        assert!(b - a >= 128);
    }

    /// White has just taken a ko at B6; Black is to move. Two passes later
    /// the simple-ko point is gone and Black's retake at C6 would recreate
    /// the start position.
    fn after_ko_capture(ko: KoRule) -> Game {
        let board = Board::from_diagram(
            "
            . X O . . . .
            X . X O . . .
            . X O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap();
        let rules = Rules {
            ko,
            ..Rules::default()
        };
        let mut game = Game::from_position(
            board,
            Color::White,
            rules,
            crate::komi::Komi::new(0.5).unwrap(),
        );
        game.play(Color::White, Move::Play(Point::new(1, 1)))
            .unwrap();
        game
    }

    /// A search for Black in `game`, no limits.
    fn black_search<'a>(tree: &'a Tree, cfg: &'a SearchConfig, game: &'a Game) -> Search<'a> {
        Search::new(
            tree,
            cfg,
            game,
            Color::Black,
            Limits::default(),
            None,
            Instant::now(),
        )
    }

    /// The moves of the children created for Black two passes below the
    /// root.
    fn children_after_two_passes(ko: KoRule) -> Vec<Move> {
        let game = after_ko_capture(ko);
        let cfg = SearchConfig::default();
        let tree = Tree::new(4096);
        let s = black_search(&tree, &cfg, &game);
        let mut b = game.board().clone();
        b.pass();
        let k1 = key(ko, b.hash(), Color::White);
        b.pass();
        let k2 = key(ko, b.hash(), Color::Black);
        assert!(s.expand(
            0,
            &b,
            Color::Black,
            2,
            None,
            None,
            &[k1, k2],
            &[0],
            false,
            &mut ExpandScratch::default()
        ));
        tree.root().state.store(EXPANDED, Release);
        tree.children(0).map(|c| tree.node(c).mv()).collect()
    }

    #[test]
    fn superko_is_checked_below_the_root() {
        let retake = Move::Play(Point::new(2, 1));
        assert!(children_after_two_passes(KoRule::Simple).contains(&retake));
        let psk = children_after_two_passes(KoRule::Positional);
        assert!(!psk.contains(&retake));
        assert!(psk.contains(&Move::Pass));
        assert!(psk.len() > 30);
    }

    /// `tree` with the root of an empty `size` board expanded for Black
    /// (no network).
    fn expanded_empty_root(size: usize, cfg: &SearchConfig) -> Tree {
        expanded_empty_node(size, Rules::default(), 0, cfg)
    }

    /// A tree whose root holds the children of the empty board under
    /// `rules`, expanded as a node at `depth`.
    fn expanded_empty_node(size: usize, rules: Rules, depth: usize, cfg: &SearchConfig) -> Tree {
        let game = Game::new(size, rules, crate::komi::Komi::default()).unwrap();
        let tree = Tree::new(4096);
        let s = black_search(&tree, cfg, &game);
        assert!(s.expand(
            0,
            game.board(),
            Color::Black,
            depth,
            None,
            None,
            &[],
            &[0],
            false,
            &mut ExpandScratch::default()
        ));
        tree.root().state.store(EXPANDED, Release);
        tree
    }

    /// The prior win rate of each root child after expanding an empty
    /// 19x19 board with priors from `source`.
    fn root_prior_rates(source: super::super::PriorSource) -> Vec<(Move, f32)> {
        let cfg = SearchConfig {
            prior_source: source,
            ..SearchConfig::default()
        };
        let tree = expanded_empty_root(19, &cfg);
        tree.children(0)
            .map(|c| {
                let n = tree.node(c);
                let (v, w) = n.prior();
                (n.mv(), w / v)
            })
            .collect()
    }

    #[test]
    fn expansion_uses_the_pattern_ratings() {
        use super::super::PriorSource;
        let rate = |rates: &[(Move, f32)], x: usize, y: usize| {
            rates
                .iter()
                .find(|(m, _)| *m == Move::Play(Point::new(x, y)))
                .expect("child")
                .1
        };
        let pat = root_prior_rates(PriorSource::Patterns);
        assert_eq!(pat.len(), 19 * 19 + 1);
        // 3-4 and 4-4 points well above the 1-1 and 2-2 points.
        for (x, y) in [(2, 3), (3, 3), (15, 16)] {
            assert!(rate(&pat, x, y) > rate(&pat, 0, 0) + 0.3, "{x},{y}");
            assert!(rate(&pat, x, y) > rate(&pat, 1, 1) + 0.3, "{x},{y}");
        }
        // The hand priors see every third- and fourth-line point alike.
        let hand = root_prior_rates(PriorSource::Hand);
        assert_eq!(rate(&hand, 2, 3), rate(&hand, 3, 9));
        assert_ne!(rate(&pat, 2, 3), rate(&pat, 3, 9));
    }

    #[test]
    fn expansion_gives_the_ratings_policy_shares() {
        let tree = expanded_empty_root(9, &SearchConfig::default());
        let shares: Vec<(Move, f32)> = tree
            .children(0)
            .map(|c| (tree.node(c).mv(), tree.node(c).policy()))
            .collect();
        assert_eq!(shares.len(), 82);
        let sum: f32 = shares.iter().map(|&(_, p)| p).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        let share = |m: Move| shares.iter().find(|&&(x, _)| x == m).expect("child").1;
        assert_eq!(share(Move::Pass), 0.0);
        // The 5-5 point of the empty 9x9 board well above its corner.
        assert!(share(Move::Play(Point::new(4, 4))) > 4.0 * share(Move::Play(Point::new(0, 0))));
    }

    #[test]
    fn under_territory_scoring_the_root_pass_takes_the_best_policy() {
        let cfg = SearchConfig::default();
        let policies = |depth: usize| {
            let tree = expanded_empty_node(9, Rules::JAPANESE, depth, &cfg);
            let all: Vec<(Move, f32)> = tree
                .children(0)
                .map(|c| (tree.node(c).mv(), tree.node(c).policy()))
                .collect();
            let pass = all.iter().find(|(m, _)| *m == Move::Pass).expect("pass").1;
            let best = all
                .iter()
                .filter(|(m, _)| *m != Move::Pass)
                .map(|&(_, p)| p)
                .fold(0.0, f32::max);
            (pass, best)
        };
        let (pass, best) = policies(0);
        assert!(best > 0.0);
        assert_eq!(pass, best);
        // Below the root the pass keeps no share, as under area scoring.
        assert_eq!(policies(1).0, 0.0);
    }

    #[test]
    fn the_policy_term_sends_the_descent_to_the_favoured_child() {
        let game = Game::new(9, Rules::default(), crate::komi::Komi::default()).unwrap();
        let pick = |puct: f64| {
            let cfg = SearchConfig {
                puct,
                ..SearchConfig::default()
            };
            let tree = Tree::new(4096);
            let s = black_search(&tree, &cfg, &game);
            // Two children alike but for their policy shares; the first
            // wins a tie.
            let first = tree.alloc(2).unwrap();
            let pr = |policy| Prior {
                visits: 10.0,
                wins: 5.0,
                policy,
            };
            tree.init_children(first, &[(10, pr(0.1)), (20, pr(0.9))]);
            let root = tree.root();
            root.first_child.store(first, Relaxed);
            root.n_children.store(2, Relaxed);
            root.visits.store(100, Relaxed);
            root.state.store(EXPANDED, Release);
            let ch = s.select(0, 0, Color::Black).expect("a child");
            tree.node(ch).mv.load(Relaxed)
        };
        assert_eq!(pick(0.0), 10);
        assert_eq!(pick(0.5), 20);
    }
}

#[cfg(test)]
mod ladder_tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        match crate::point::parse_gtp_move(v, b.size()).expect("vertex") {
            Move::Play(p) => p,
            Move::Pass => panic!("pass"),
        }
    }

    #[test]
    fn escapes_into_a_working_ladder_are_failed() {
        // Black's D4 is in atari at E4 (rows from the top: row 9 first);
        // extending there leaves two liberties and a ladder White wins.
        let diagram = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . O O . . . .
            . . O X . . . . .
            . . . O . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        let b = Board::from_diagram(diagram).expect("diagram");
        let mut pool = Vec::new();
        assert!(failed_ladder_escape(
            &b,
            Color::Black,
            at(&b, "E4"),
            &mut pool
        ));
        // Not an escape: another point, and White's moves.
        assert!(!failed_ladder_escape(
            &b,
            Color::Black,
            at(&b, "F4"),
            &mut pool
        ));
        assert!(!failed_ladder_escape(
            &b,
            Color::White,
            at(&b, "E4"),
            &mut pool
        ));
        // A black ladder breaker on the ladder's path: the escape works.
        let lines: Vec<&str> = diagram.lines().collect();
        let broken =
            lines[..8].join("\n") + "\n            . . . . . . X . .\n" + &lines[9..].join("\n");
        let b = Board::from_diagram(&broken).expect("diagram");
        assert!(!failed_ladder_escape(
            &b,
            Color::Black,
            at(&b, "E4"),
            &mut pool
        ));
    }
}

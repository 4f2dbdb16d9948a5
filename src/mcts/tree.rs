//! The search tree: an arena of nodes shared by all search threads.
//!
//! Every field of a [`Node`] is an atomic, so threads read and update
//! statistics without locks. A node's children are one contiguous block of
//! the arena, allocated by an atomic bump counter and published by the
//! node's `state` (written with release ordering after the children are
//! initialised, read with acquire ordering before they are used). Only the
//! thread that wins the `LEAF -> EXPANDING` exchange expands a node.
//!
//! The arena is cut into chunks allocated on first use, so a large node cap
//! costs memory only when the tree grows. When the cap is reached, leaves
//! simply stop expanding and the search goes on with playouts from them.
//!
//! Virtual loss: a visit is counted on the way down and its result on the
//! way back, so a node being searched by another thread looks like a loss
//! meanwhile and threads spread over the tree.
//!
//! Score statistics (the count, sum and sum of squares of the playouts'
//! final margins, area or territory as the rules count, for analysis) live
//! in a second arena with the same indices, [`ScoreStats`], so that
//! selection, which reads only [`Node`]s, touches no more memory than
//! before.

use super::prior::Prior;
use crate::point::{Move, Point};
use std::sync::atomic::{AtomicI64, AtomicU16, AtomicU32, AtomicU64, Ordering::*};
use std::sync::OnceLock;

/// `state` of a node that has no children yet.
pub(crate) const LEAF: u32 = 0;
/// `state` while one thread creates the children.
pub(crate) const EXPANDING: u32 = 1;
/// `state` once the children may be read.
pub(crate) const EXPANDED: u32 = 2;
/// `state` of a leaf that could not expand because the arena is full.
pub(crate) const FULL: u32 = 3;

/// The move code of a pass.
pub(crate) const PASS: u16 = u16::MAX;

const CHUNK_BITS: u32 = 14;
const CHUNK: usize = 1 << CHUNK_BITS;

/// One node: the move that leads to it and its statistics, from the point of
/// view of the player who made that move.
#[derive(Default, Debug)]
pub struct Node {
    /// The move's point index, or [`PASS`].
    pub(crate) mv: AtomicU16,
    /// Number of children.
    pub(crate) n_children: AtomicU16,
    /// [`LEAF`], [`EXPANDING`], [`EXPANDED`] or [`FULL`].
    pub(crate) state: AtomicU32,
    /// Index of the first child.
    pub(crate) first_child: AtomicU32,
    /// Visits (counted on the way down).
    pub(crate) visits: AtomicU32,
    /// Twice the wins (a draw counts 1).
    pub(crate) wins2: AtomicU32,
    /// AMAF (all-moves-as-first) visits.
    pub(crate) amaf_visits: AtomicU32,
    /// Twice the AMAF wins.
    pub(crate) amaf_wins2: AtomicU32,
    /// Prior visits, `f32` bits.
    pub(crate) prior_visits: AtomicU32,
    /// Prior wins, `f32` bits.
    pub(crate) prior_wins: AtomicU32,
    /// The move's policy share ([`Prior::policy`]),
    /// `f32` bits.
    pub(crate) policy: AtomicU32,
}

/// The final scores of the playouts through one node, as Black's margin
/// (area, or territory as the search shifts it under territory rules)
/// without komi (an integer): their sum and sum of squares. The
/// count is the node's visits (every visit backs up one score; while a
/// search runs, the visits of playouts still under way are counted a
/// little early). Integers, so the atomic sums are exact and never need a
/// CAS loop; 16 bytes a node.
#[derive(Default, Debug)]
pub struct ScoreStats {
    /// Sum of the margins.
    sum: AtomicI64,
    /// Sum of the squared margins.
    sum_sq: AtomicU64,
}

/// A plain copy of [`ScoreStats`].
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ScoreData {
    /// Sum of Black's margins (komi not included).
    pub sum: i64,
    /// Sum of their squares.
    pub sum_sq: u64,
    /// Playouts counted (the node's visits).
    pub count: u32,
}

impl ScoreData {
    /// Mean of Black's margin (komi not included); `None` without playouts.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// Standard deviation of the margins (population form); `None` without
    /// playouts.
    pub fn stdev(&self) -> Option<f64> {
        let m = self.mean()?;
        let var = self.sum_sq as f64 / self.count as f64 - m * m;
        Some(var.max(0.0).sqrt())
    }
}

impl ScoreStats {
    /// Counts one playout ending with Black's margin `margin`: with atomic
    /// read-modify-writes when other threads may count at the same time
    /// (`shared`), otherwise with plain loads and stores (the same sums).
    #[inline]
    pub(crate) fn add(&self, margin: i32, shared: bool) {
        let sq = (margin as i64 * margin as i64) as u64;
        if shared {
            self.sum.fetch_add(margin as i64, Relaxed);
            self.sum_sq.fetch_add(sq, Relaxed);
        } else {
            self.sum
                .store(self.sum.load(Relaxed).wrapping_add(margin as i64), Relaxed);
            self.sum_sq
                .store(self.sum_sq.load(Relaxed).wrapping_add(sq), Relaxed);
        }
    }

    fn set(&self, d: &ScoreData) {
        self.sum.store(d.sum, Relaxed);
        self.sum_sq.store(d.sum_sq, Relaxed);
    }
}

/// The bytes one node takes: its [`Node`] and its [`ScoreStats`].
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + std::mem::size_of::<ScoreStats>();

/// A plain copy of a node, for moving subtrees.
#[derive(Copy, Clone, Debug, Default)]
struct NodeData {
    mv: u16,
    n_children: u16,
    state: u32,
    first_child: u32,
    visits: u32,
    wins2: u32,
    amaf_visits: u32,
    amaf_wins2: u32,
    prior_visits: u32,
    prior_wins: u32,
    policy: u32,
}

impl Node {
    /// The move leading here.
    pub(crate) fn mv(&self) -> Move {
        decode_move(self.mv.load(Relaxed))
    }

    /// Visits so far.
    #[inline]
    pub(crate) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Wins so far (draws count half).
    #[inline]
    pub(crate) fn wins(&self) -> f64 {
        self.wins2.load(Relaxed) as f64 / 2.0
    }

    /// The prior, as (visits, wins).
    pub(crate) fn prior(&self) -> (f32, f32) {
        (
            f32::from_bits(self.prior_visits.load(Relaxed)),
            f32::from_bits(self.prior_wins.load(Relaxed)),
        )
    }

    /// The policy share given with the prior.
    #[inline]
    pub(crate) fn policy(&self) -> f32 {
        f32::from_bits(self.policy.load(Relaxed))
    }

    fn snapshot(&self) -> NodeData {
        NodeData {
            mv: self.mv.load(Relaxed),
            n_children: self.n_children.load(Relaxed),
            state: self.state.load(Acquire),
            first_child: self.first_child.load(Relaxed),
            visits: self.visits.load(Relaxed),
            wins2: self.wins2.load(Relaxed),
            amaf_visits: self.amaf_visits.load(Relaxed),
            amaf_wins2: self.amaf_wins2.load(Relaxed),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed),
            policy: self.policy.load(Relaxed),
        }
    }

    fn restore(&self, d: &NodeData) {
        self.mv.store(d.mv, Relaxed);
        self.n_children.store(d.n_children, Relaxed);
        self.first_child.store(d.first_child, Relaxed);
        self.visits.store(d.visits, Relaxed);
        self.wins2.store(d.wins2, Relaxed);
        self.amaf_visits.store(d.amaf_visits, Relaxed);
        self.amaf_wins2.store(d.amaf_wins2, Relaxed);
        self.prior_visits.store(d.prior_visits, Relaxed);
        self.prior_wins.store(d.prior_wins, Relaxed);
        self.policy.store(d.policy, Relaxed);
        self.state.store(d.state, Release);
    }

    /// Replaces the prior and the policy share (another thread may read
    /// the old visits with the new wins meanwhile: a passing blur of one
    /// node's value).
    pub(crate) fn set_prior(&self, pr: Prior) {
        self.prior_visits.store(pr.visits.to_bits(), Relaxed);
        self.prior_wins.store(pr.wins.to_bits(), Relaxed);
        self.policy.store(pr.policy.to_bits(), Relaxed);
    }

    /// Resets the node for `mv` with the given prior and policy share.
    pub(crate) fn init(&self, mv: u16, pr: Prior) {
        self.restore(&NodeData {
            mv,
            prior_visits: pr.visits.to_bits(),
            prior_wins: pr.wins.to_bits(),
            policy: pr.policy.to_bits(),
            ..NodeData::default()
        });
    }
}

/// The move code of `mv`.
pub(crate) fn encode_move(mv: Move) -> u16 {
    match mv {
        Move::Pass => PASS,
        Move::Play(p) => p.index() as u16,
    }
}

/// The move of a move code.
pub(crate) fn decode_move(code: u16) -> Move {
    if code == PASS {
        Move::Pass
    } else {
        Move::Play(Point::from_index(code as usize))
    }
}

/// The arena. Node 0 is the root.
pub struct Tree {
    chunks: Vec<OnceLock<Box<[Node]>>>,
    score_chunks: Vec<OnceLock<Box<[ScoreStats]>>>,
    next: AtomicU32,
    cap: u32,
}

/// The iterator of [`Tree::child_nodes`].
pub(crate) struct ChildNodes<'a> {
    tree: &'a Tree,
    next: u32,
    end: u32,
    /// The chunk of `next` once looked up (empty before).
    chunk: &'a [Node],
}

impl<'a> Iterator for ChildNodes<'a> {
    type Item = (u32, &'a Node);

    #[inline]
    fn next(&mut self) -> Option<(u32, &'a Node)> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let off = i as usize & (CHUNK - 1);
        if off == 0 || self.chunk.is_empty() {
            self.chunk = self.tree.chunk(i >> CHUNK_BITS);
        }
        Some((i, &self.chunk[off]))
    }
}

impl Tree {
    /// An arena for at most `max_nodes` nodes (at least 1024), with an empty
    /// root.
    pub fn new(max_nodes: usize) -> Tree {
        let cap = max_nodes.clamp(1024, u32::MAX as usize / 2) as u32;
        let n_chunks = (cap as usize).div_ceil(CHUNK);
        let t = Tree {
            chunks: (0..n_chunks).map(|_| OnceLock::new()).collect(),
            score_chunks: (0..n_chunks).map(|_| OnceLock::new()).collect(),
            next: AtomicU32::new(1),
            cap,
        };
        t.node(0).init(PASS, Prior::NONE);
        t.score(0).set(&ScoreData::default());
        t
    }

    /// The score statistics of node `i`, counted by its visits.
    pub(crate) fn score_data(&self, i: u32) -> ScoreData {
        let s = self.score(i);
        ScoreData {
            sum: s.sum.load(Relaxed),
            sum_sq: s.sum_sq.load(Relaxed),
            count: self.node(i).visits(),
        }
    }

    /// The sum of node `i`'s margins (its mean is this over its visits).
    #[inline]
    pub(crate) fn score_sum(&self, i: u32) -> i64 {
        self.score(i).sum.load(Relaxed)
    }

    /// The score sums of node `i`.
    #[inline]
    pub(crate) fn score(&self, i: u32) -> &ScoreStats {
        let chunk = self.score_chunks[(i >> CHUNK_BITS) as usize]
            .get_or_init(|| (0..CHUNK).map(|_| ScoreStats::default()).collect());
        &chunk[i as usize & (CHUNK - 1)]
    }

    /// Resets node `first + k` for each `(mv, prior)`, with empty score
    /// statistics.
    pub(crate) fn init_children(&self, first: u32, moves: &[(u16, Prior)]) {
        for (k, &(mv, pr)) in moves.iter().enumerate() {
            let i = first + k as u32;
            self.node(i).init(mv, pr);
            self.score(i).set(&ScoreData::default());
        }
    }

    /// The node with index `i`.
    #[inline]
    pub(crate) fn node(&self, i: u32) -> &Node {
        &self.chunk(i >> CHUNK_BITS)[i as usize & (CHUNK - 1)]
    }

    /// The nodes of chunk `c`.
    #[inline]
    fn chunk(&self, c: u32) -> &[Node] {
        self.chunks[c as usize].get_or_init(|| (0..CHUNK).map(|_| Node::default()).collect())
    }

    /// The children of node `i` (none unless expanded) with their
    /// indices, in order: [`Tree::children`] and [`Tree::node`] with one
    /// chunk lookup per chunk instead of one per node.
    #[inline]
    pub(crate) fn child_nodes(&self, i: u32) -> ChildNodes<'_> {
        let r = self.children(i);
        ChildNodes {
            tree: self,
            next: r.start,
            end: r.end,
            chunk: &[],
        }
    }

    /// The root.
    #[inline]
    pub(crate) fn root(&self) -> &Node {
        self.node(0)
    }

    /// Nodes in use.
    pub fn len(&self) -> usize {
        (self.next.load(Relaxed).min(self.cap)) as usize
    }

    /// Whether only the root is in use.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }

    /// The node cap.
    pub fn capacity(&self) -> usize {
        self.cap as usize
    }

    /// Reserves `n` consecutive nodes; `None` when the arena is full.
    pub(crate) fn alloc(&self, n: u32) -> Option<u32> {
        if self.next.load(Relaxed) as u64 + n as u64 > self.cap as u64 {
            return None;
        }
        let start = self.next.fetch_add(n, Relaxed);
        if start as u64 + n as u64 > self.cap as u64 {
            return None;
        }
        Some(start)
    }

    /// The children of node `i` (empty unless expanded), as indices.
    #[inline]
    pub(crate) fn children(&self, i: u32) -> std::ops::Range<u32> {
        let n = self.node(i);
        if n.state.load(Acquire) != EXPANDED {
            return 0..0;
        }
        let f = n.first_child.load(Relaxed);
        f..f + n.n_children.load(Relaxed) as u32
    }

    /// Empties the tree: a fresh root.
    pub fn clear(&mut self) {
        self.next.store(1, Relaxed);
        self.node(0).init(PASS, Prior::NONE);
        self.score(0).set(&ScoreData::default());
    }

    /// Makes node `new_root` the root, keeping its subtree and dropping the
    /// rest (no search may run). Subtrees are copied breadth first, so the
    /// kept nodes end up packed at the start of the arena.
    pub fn reroot(&mut self, new_root: u32) {
        if new_root == 0 {
            return;
        }
        let mut out: Vec<NodeData> = Vec::new();
        let mut scores: Vec<ScoreData> = Vec::new();
        let mut old_index: Vec<u32> = vec![new_root];
        let mut r = self.node(new_root).snapshot();
        r.mv = PASS;
        out.push(r);
        let mut k = 0;
        while k < old_index.len() {
            let old = old_index[k];
            let mut d = out[k];
            if d.state == EXPANDED {
                let first_new = old_index.len() as u32;
                let first_old = self.node(old).first_child.load(Relaxed);
                for c in 0..d.n_children as u32 {
                    old_index.push(first_old + c);
                }
                d.first_child = first_new;
            } else {
                d.state = LEAF;
                d.n_children = 0;
            }
            out[k] = d;
            k += 1;
            // Snapshot the nodes queued so far.
            while out.len() < old_index.len() {
                let s = self.node(old_index[out.len()]).snapshot();
                out.push(s);
            }
        }
        for &old in &old_index {
            scores.push(self.score_data(old));
        }
        for (i, (d, sc)) in out.iter().zip(&scores).enumerate() {
            self.node(i as u32).restore(d);
            self.score(i as u32).set(sc);
        }
        self.next.store(out.len() as u32, Relaxed);
    }
}

/// The value of a child for selection (pure): the prior-smoothed win rate
/// mixed with the AMAF win rate by the RAVE weight, plus a UCT exploration
/// term.
///
/// `visits`/`wins` are real, `prior_*` virtual, `amaf_*` all-moves-as-first
/// statistics; `inv_equiv` is one over the RAVE equivalence, the visit
/// count at which real and AMAF statistics weigh the same; `explore` is
/// the UCT term's numerator, `c * sqrt(ln(parent + 1))` ([`uct_numerator`],
/// the same for every child of a node), divided here by `sqrt(n + 1)`.
///
/// With `n` the real and prior visits, `q` their win rate, `a` the AMAF
/// win rate of `m` AMAF visits and the weight `beta = m / (m + n + n m /
/// equiv)`, the value `(1 - beta) q + beta a` is computed in the form
/// `(W t + A) / (m + n t)` with `t = 1 + m / equiv` (`W` and `A` the real
/// and prior wins and the AMAF wins): one division instead of four, in
/// the loop that selection runs over every child at every step down the
/// tree.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn rave_value(
    visits: f64,
    wins: f64,
    prior_visits: f64,
    prior_wins: f64,
    amaf_visits: f64,
    amaf_wins: f64,
    inv_equiv: f64,
    explore: f64,
) -> f64 {
    let n = visits + prior_visits;
    let t = 1.0 + amaf_visits * inv_equiv;
    let den = amaf_visits + n * t;
    let mut v = if den > 0.0 {
        ((wins + prior_wins) * t + amaf_wins) / den
    } else {
        0.5
    };
    if explore > 0.0 {
        v += explore / (n + 1.0).sqrt();
    }
    v
}

/// The numerator of the UCT exploration term for the children of a node
/// with `parent_visits` visits: `uct_c * sqrt(ln(parent_visits + 1))`
/// (0 when `uct_c` is 0).
#[inline]
pub fn uct_numerator(uct_c: f64, parent_visits: f64) -> f64 {
    if uct_c > 0.0 {
        uct_c * (parent_visits + 1.0).ln().sqrt()
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One virtual visit, half of it a win, no policy share.
    fn half() -> Prior {
        Prior {
            visits: 1.0,
            wins: 0.5,
            policy: 0.0,
        }
    }

    /// `rave_value` in the form of Gelly and Silver, as written before
    /// the one-division form.
    fn rave_value_by_beta(n: f64, w: f64, m: f64, a: f64, equiv: f64) -> f64 {
        let q = if n > 0.0 { w / n } else { 0.5 };
        if m > 0.0 {
            let beta = m / (m + n + n * m / equiv);
            (1.0 - beta) * q + beta * a / m
        } else {
            q
        }
    }

    #[test]
    fn one_division_form_equals_the_beta_form() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |hi: f64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1_000_000) as f64 / 1_000_000.0 * hi
        };
        for _ in 0..20_000 {
            let visits = next(1e6).floor() * f64::from(next(1.0) > 0.2);
            let prior = next(80.0) * f64::from(next(1.0) > 0.1);
            let n = visits + prior;
            let w = next(1.0) * n;
            let m = next(5e6).floor() * f64::from(next(1.0) > 0.2);
            let a = next(1.0) * m;
            let equiv = 1.0 + next(5000.0);
            let fast = rave_value(
                visits,
                w * visits / n.max(1e-300),
                prior,
                w * prior / n.max(1e-300),
                m,
                a,
                1.0 / equiv,
                0.0,
            );
            let slow = rave_value_by_beta(n, w, m, a, equiv);
            assert!(
                (fast - slow).abs() < 1e-12,
                "n {n} w {w} m {m} a {a} equiv {equiv}: {fast} {slow}"
            );
        }
        // No statistics at all: an even value.
        assert_eq!(rave_value(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.001, 0.0), 0.5);
        // AMAF alone: its win rate.
        assert!((rave_value(0.0, 0.0, 0.0, 0.0, 40.0, 10.0, 0.001, 0.0) - 0.25).abs() < 1e-15);
    }

    #[test]
    fn rave_weight_moves_from_amaf_to_real_statistics() {
        // With few real visits the AMAF rate dominates; with many, the real one.
        let early = rave_value(1.0, 0.0, 0.0, 0.0, 100.0, 90.0, 1e-3, 0.0);
        let late = rave_value(10000.0, 1000.0, 0.0, 0.0, 100.0, 90.0, 1e-3, 0.0);
        assert!(early > 0.8, "{early}");
        assert!(late < 0.2, "{late}");
        // The prior counts as real visits.
        let p = rave_value(0.0, 0.0, 10.0, 9.0, 0.0, 0.0, 1e-3, 0.0);
        assert!((p - 0.9).abs() < 1e-9);
        // Exploration raises a rarely visited child, by
        // c * sqrt(ln(parent + 1) / (n + 1)).
        let e = uct_numerator(0.5, 100.0);
        let a = rave_value(1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 1e-3, e);
        let b = rave_value(50.0, 25.0, 0.0, 0.0, 0.0, 0.0, 1e-3, e);
        assert!(a > b);
        assert!(
            (a - 0.5 - 0.5 * (101f64.ln() / 2.0).sqrt()).abs() < 1e-12,
            "{a}"
        );
        assert_eq!(uct_numerator(0.0, 100.0), 0.0);
    }

    #[test]
    fn child_nodes_cross_chunks() {
        let t = Tree::new(3 * CHUNK);
        // Nothing before the expansion.
        assert_eq!(t.child_nodes(0).count(), 0);
        // Children from 5 below a chunk's end to 25 past it.
        t.alloc(CHUNK as u32 - 6).unwrap();
        let f = t.alloc(30).unwrap();
        assert_eq!(f as usize, CHUNK - 5);
        let moves: Vec<(u16, Prior)> = (0..30).map(|k| (k as u16 + 30, half())).collect();
        t.init_children(f, &moves);
        t.root().first_child.store(f, Relaxed);
        t.root().n_children.store(30, Relaxed);
        t.root().state.store(EXPANDED, Release);
        let got: Vec<(u32, *const Node)> = t
            .child_nodes(0)
            .map(|(i, n)| (i, n as *const Node))
            .collect();
        let want: Vec<(u32, *const Node)> = t
            .children(0)
            .map(|i| (i, t.node(i) as *const Node))
            .collect();
        assert_eq!(got.len(), 30);
        assert_eq!(got, want);
        assert!(t.child_nodes(0).map(|(_, n)| n.mv.load(Relaxed)).eq(30..60));
    }

    #[test]
    fn score_statistics_are_exact_sums() {
        let t = Tree::new(1024);
        assert_eq!(t.score_data(0).mean(), None);
        for m in [10, -4, 3, 3] {
            t.root().visits.fetch_add(1, Relaxed);
            t.score(0).add(m, false);
        }
        let d = t.score_data(0);
        assert_eq!((d.count, d.sum, d.sum_sq), (4, 12, 134));
        assert_eq!(d.mean(), Some(3.0));
        // Population variance 134/4 - 9 = 24.5.
        assert!((d.stdev().unwrap() - 24.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn reroot_keeps_the_subtree_packed() {
        let mut t = Tree::new(4096);
        let f = t.alloc(3).unwrap();
        for k in 0..3 {
            t.node(f + k).init(k as u16 + 30, half());
        }
        t.root().first_child.store(f, Relaxed);
        t.root().n_children.store(3, Relaxed);
        t.root().state.store(EXPANDED, Release);
        // Grandchildren under the middle child.
        let g = t.alloc(2).unwrap();
        for k in 0..2 {
            t.node(g + k).init(k as u16 + 60, half());
            t.node(g + k).visits.store(7 + k, Relaxed);
        }
        let mid = f + 1;
        t.score(g + 1).add(-7, false);
        t.score(mid).add(5, true);
        t.node(mid).first_child.store(g, Relaxed);
        t.node(mid).n_children.store(2, Relaxed);
        t.node(mid).state.store(EXPANDED, Release);
        t.node(mid).visits.store(20, Relaxed);
        t.reroot(mid);
        assert_eq!(t.len(), 3);
        assert_eq!(t.root().visits(), 20);
        let kids: Vec<u32> = t.children(0).collect();
        assert_eq!(kids, vec![1, 2]);
        assert_eq!(t.node(1).mv.load(Relaxed), 60);
        assert_eq!(t.node(2).visits(), 8);
        assert!(t.children(1).is_empty());
        // Score statistics move with their nodes.
        assert_eq!(t.score_data(0).sum, 5);
        assert_eq!(t.score_data(1).sum_sq, 0);
        assert_eq!(t.score_data(2).sum, -7);
    }
}

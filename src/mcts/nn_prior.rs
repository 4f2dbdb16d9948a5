//! The network as the search's prior (`--nn auto|builtin|FILE|none`), and the
//! player that plays the network's top move without search
//! (`--player policy`).
//!
//! The mixing rule is documented in [`super::prior`]; this file holds the
//! network handle the command line loads ([`NnNet`], [`parse_nn`]), its
//! knobs ([`NnPriorConfig`]), the per-thread buffers of one evaluation
//! ([`NnScratch`]: one [`Evaluator`] reused by every evaluation of a
//! search thread), the mix itself ([`mix_shares`]) and [`PolicyPlayer`].
//!
//! Board sizes: a weights file's header names the board sizes it was
//! trained on (`data: ... positions of 19x19, ...`, as the trainer writes
//! it). On a board of another size the search searches without the
//! network, after one line of warning on stderr unless the network came
//! from `auto` (the default); a header that names no size covers every
//! size. `--player policy` plays such a size anyway
//! (after the same warning): it is a measurement player.

use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::nn::eval::wants_pattern_plane;
use crate::nn::planes::{planes, point_index, NnPosition, PlaneScratch, BASE_PLANES};
use crate::nn::{Evaluator, Network};
use crate::patterns::PatternTable;
use crate::player::{sensible_moves, Decision, GenmoveRequest, Player};
use crate::point::{Move, Point};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The weights built into the binary (`--nn builtin`).
const BUILTIN: &[u8] = include_bytes!("../../data/nn-19-6x64.bin");

/// A network the search or the policy player reads: the weights, the text
/// that named it on the command line, and the board sizes it covers.
#[derive(Clone)]
pub struct NnNet {
    name: String,
    net: Arc<Network>,
    sizes: Vec<usize>,
    /// Whether a board size it does not cover gets a warning (`auto`,
    /// the default, goes without one silently).
    warn: bool,
}

impl std::fmt::Debug for NnNet {
    /// The name only (the weights would fill pages).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NnNet({})", self.name)
    }
}

impl PartialEq for NnNet {
    /// Networks named alike are alike.
    fn eq(&self, other: &NnNet) -> bool {
        self.name == other.name
    }
}

impl NnNet {
    /// `net` under `name`, covering the sizes its header names.
    ///
    /// # Errors
    /// A message when the network reads neither [`BASE_PLANES`] planes nor
    /// one more (the pattern plane).
    pub fn new(name: &str, net: Network) -> Result<NnNet, String> {
        if net.shape.planes != BASE_PLANES && !wants_pattern_plane(&net) {
            return Err(format!(
                "{name}: the network reads {} input planes; Kosumi writes {BASE_PLANES} or {}",
                net.shape.planes,
                BASE_PLANES + 1
            ));
        }
        let sizes = trained_sizes(&net.header);
        Ok(NnNet {
            name: name.to_string(),
            net: Arc::new(net),
            sizes,
            warn: true,
        })
    }

    /// The network built into the binary (`data/nn-19-6x64.bin`).
    pub fn builtin() -> NnNet {
        static NET: OnceLock<NnNet> = OnceLock::new();
        NET.get_or_init(|| {
            let net = Network::from_bytes(BUILTIN).expect("the built-in network reads");
            NnNet::new("builtin", net).expect("the built-in network has Kosumi's planes")
        })
        .clone()
    }

    /// `--nn auto`, the default: the built-in network on the sizes it
    /// covers, and on the others the search without it and no warning.
    pub fn auto() -> NnNet {
        NnNet {
            name: "auto".to_string(),
            warn: false,
            ..NnNet::builtin()
        }
    }

    /// The name given on the command line (`auto`, `builtin` or the path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The weights.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The board sizes the header names (empty: every size).
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Whether the network covers a `size` board.
    pub fn covers(&self, size: usize) -> bool {
        self.sizes.is_empty() || self.sizes.contains(&size)
    }

    /// The one-line warning for a board size the network does not cover.
    pub fn uncovered_warning(&self, size: usize) -> String {
        let sizes: Vec<String> = self.sizes.iter().map(|s| format!("{s}x{s}")).collect();
        format!(
            "kosumi: warning: the network {} was trained on {}, not {size}x{size}; searching without it",
            self.name,
            sizes.join(", ")
        )
    }
}

/// The board sizes named by the `data:` lines of a weights header
/// (`... positions of 19x19, ...`), in order, each once.
pub fn trained_sizes(header: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for line in header.lines().filter(|l| l.starts_with("data:")) {
        for part in line.split(" of ").skip(1) {
            let dims: String = part
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == 'x')
                .collect();
            if let Some((a, b)) = dims.split_once('x') {
                if let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) {
                    if a == b && !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
    }
    out
}

/// The value of `--nn`: no network, or one loaded (`auto` is the built-in
/// one under that name).
#[derive(Clone, Debug, PartialEq)]
pub enum NnArg {
    /// `none`.
    Off,
    /// `auto`, `builtin` or a weights file.
    Net(NnNet),
}

impl NnArg {
    /// The text as the command line takes it back.
    pub fn text(&self) -> &str {
        match self {
            NnArg::Off => "none",
            NnArg::Net(n) => n.name(),
        }
    }

    /// The network, if any.
    pub fn net(&self) -> Option<&NnNet> {
        match self {
            NnArg::Off => None,
            NnArg::Net(n) => Some(n),
        }
    }
}

/// Reads `--nn`: `auto`, `none`, `builtin` or the path of a weights file,
/// which is loaded here so that a bad file is an error of the command line.
///
/// # Errors
/// A message naming the file when it cannot be read, is not a weights
/// file, or reads other input planes than Kosumi writes.
pub fn parse_nn(s: &str) -> Result<NnArg, String> {
    match s {
        "none" => Ok(NnArg::Off),
        "builtin" => Ok(NnArg::Net(NnNet::builtin())),
        "auto" => Ok(NnArg::Net(NnNet::auto())),
        "" => Err("expected auto, builtin, none or a weights file".to_string()),
        path => {
            let net = Network::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
            NnNet::new(path, net).map(NnArg::Net)
        }
    }
}

/// The knobs of the network prior (`--nn`, `--set nn_mix=`, `--set
/// nn_visits=`).
#[derive(Clone, Debug, PartialEq)]
pub struct NnPriorConfig {
    /// The network (`None`: the search does not use one).
    pub net: Option<NnNet>,
    /// The network's share `lambda` of the mixed prior, 0..=1.
    pub mix: f64,
    /// Visits at which a node below the root gets the network's prior:
    /// at its expansion when it has this many visits by then, otherwise
    /// when it reaches this many (its children's priors are computed
    /// again). The root always gets it.
    pub visits: u32,
}

impl Default for NnPriorConfig {
    fn default() -> NnPriorConfig {
        NnPriorConfig {
            net: None,
            mix: 0.5,
            visits: 256,
        }
    }
}

/// The buffers of one search thread's evaluations (one [`Evaluator`] for
/// the board size, reused), and what they cost.
pub(crate) struct NnScratch {
    ev: Evaluator,
    input: Vec<f32>,
    logits: Vec<f32>,
    planes: PlaneScratch,
    probs: Vec<f64>,
    /// The moves that led to the position, oldest first (only the last
    /// few are read), filled by the caller.
    pub history: Vec<Move>,
    /// Evaluations made.
    pub evals: u64,
    /// Nanoseconds they took (input planes and network).
    pub nanos: u64,
}

impl NnScratch {
    /// Buffers for `net` on a `size` board.
    pub fn new(net: &Network, size: usize) -> NnScratch {
        let area = size * size;
        NnScratch {
            ev: Evaluator::new(net, size, 1),
            input: vec![0.0; net.shape.planes.max(BASE_PLANES + 1) * area],
            logits: vec![0.0; area + 1],
            planes: PlaneScratch::default(),
            probs: Vec::with_capacity(area),
            history: Vec::with_capacity(16),
            evals: 0,
            nanos: 0,
        }
    }

    /// The board size the buffers are for.
    pub fn size(&self) -> usize {
        self.ev.size()
    }

    /// Evaluates `net` on `board` with `to_move` to move and
    /// [`NnScratch::history`] behind it: the logits, points row by row then
    /// the pass.
    fn logits(&mut self, net: &Network, board: &Board, to_move: Color) -> &[f32] {
        let start = Instant::now();
        let pos = NnPosition {
            board,
            to_move,
            history: &self.history,
        };
        let table = wants_pattern_plane(net).then(PatternTable::builtin);
        planes(&pos, table, &mut self.planes, &mut self.input);
        self.ev
            .evaluate(net, &self.input, 1, &mut self.logits, None);
        self.evals += 1;
        self.nanos += start.elapsed().as_nanos() as u64;
        &self.logits
    }

    /// The network's shares of `points` (legal, empty): the softmax of
    /// their logits alone, summing to 1.
    pub fn policy(
        &mut self,
        net: &Network,
        board: &Board,
        to_move: Color,
        points: &[Point],
    ) -> &[f64] {
        let n = board.size();
        self.logits(net, board, to_move);
        let logits = &self.logits;
        let probs = &mut self.probs;
        probs.clear();
        let max = points
            .iter()
            .map(|&p| logits[point_index(p, n)])
            .fold(f32::NEG_INFINITY, f32::max);
        let mut z = 0.0f64;
        for &p in points {
            let e = f64::from(logits[point_index(p, n)] - max).exp();
            z += e;
            probs.push(e);
        }
        if z > 0.0 && z.is_finite() {
            for q in probs.iter_mut() {
                *q /= z;
            }
        } else {
            let even = 1.0 / points.len().max(1) as f64;
            probs.iter_mut().for_each(|q| *q = even);
        }
        &self.probs
    }
}

/// One evaluation asked of the prior: the network, the thread's buffers
/// (history filled) and the network's share.
pub(crate) struct NnRequest<'a> {
    /// The network.
    pub net: &'a Network,
    /// The thread's buffers.
    pub scratch: &'a mut NnScratch,
    /// The network's share `lambda`.
    pub mix: f64,
}

impl NnRequest<'_> {
    /// Replaces the pattern ratings `ratings` of `points` by the mixed
    /// weights ([`mix_shares`]); with no ratings (the hand priors), fills
    /// them with the network's shares alone.
    pub fn mix_into(
        &mut self,
        board: &Board,
        to_move: Color,
        points: &[Point],
        ratings: &mut Vec<f64>,
    ) {
        let q = self.scratch.policy(self.net, board, to_move, points);
        if ratings.len() != q.len() {
            ratings.clear();
            ratings.extend_from_slice(q);
            return;
        }
        mix_shares(ratings, q, self.mix);
    }
}

/// The mixing rule of [`super::prior`]: with `ratings` the candidates'
/// gammas `g` (summing to `S`) and `q` the network's shares, writes
/// `(1 - lambda) * g + lambda * S * q` into `ratings`, that is `S` times
/// `p = (1 - lambda) * p_pat + lambda * p_nn`; the rating priors read any
/// common scale. At `lambda` 0 the ratings keep their bits. When the
/// ratings sum to nothing usable, the network's shares alone.
pub fn mix_shares(ratings: &mut [f64], q: &[f64], lambda: f64) {
    let s: f64 = ratings.iter().sum();
    if !(s > 0.0 && s.is_finite()) {
        ratings.copy_from_slice(q);
        return;
    }
    for (g, &p) in ratings.iter_mut().zip(q) {
        *g = (1.0 - lambda) * *g + lambda * s * p;
    }
}

/// Prints [`NnNet::uncovered_warning`] once per network and board size
/// in the process (self-play's two players, a match's games).
pub(crate) fn warn_uncovered(net: &NnNet, size: usize) {
    static WARNED: std::sync::Mutex<Vec<(String, usize)>> = std::sync::Mutex::new(Vec::new());
    if net.covers(size) || !net.warn {
        return;
    }
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if !warned.iter().any(|(n, s)| *s == size && *n == net.name) {
        eprintln!("{}", net.uncovered_warning(size));
        warned.push((net.name.clone(), size));
    }
}

/// The network's move probabilities for `color` in `game`, laid out as
/// KataGo's analysis reports `policy`: one per point, row by row from the
/// top, then the pass; -1 where a move is illegal (an occupied point, a
/// suicide, a ko or superko repetition). The softmax runs over the legal
/// moves and the pass, so the rest sums to 1.
pub fn policy_map(net: &Network, game: &Game, color: Color) -> Vec<f32> {
    let size = game.size();
    let area = size * size;
    let mut s = NnScratch::new(net, size);
    s.history.extend(game.moves().iter().map(|m| m.mv));
    let logits = s.logits(net, game.board(), color).to_vec();
    let mut legal = vec![false; area + 1];
    legal[area] = true;
    for p in game.board().points() {
        if game.is_legal(color, Move::Play(p)) {
            legal[point_index(p, size)] = true;
        }
    }
    let max = logits
        .iter()
        .zip(&legal)
        .filter(|(_, &l)| l)
        .map(|(&x, _)| x)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut out: Vec<f64> = logits
        .iter()
        .zip(&legal)
        .map(|(&x, &l)| if l { f64::from(x - max).exp() } else { 0.0 })
        .collect();
    let z: f64 = out.iter().sum();
    for (o, &l) in out.iter_mut().zip(&legal) {
        *o = if l { *o / z } else { -1.0 };
    }
    out.into_iter().map(|x| x as f32).collect()
}

/// Plays the network's top move among the legal moves that do not fill
/// an own eye (superko checked); passes when there is none. No search,
/// no randomness, never resigns: for measuring the network alone.
pub struct PolicyPlayer {
    net: NnNet,
    scratch: Option<NnScratch>,
    warned: Option<usize>,
}

impl PolicyPlayer {
    /// A policy player of `net`.
    pub fn new(net: NnNet) -> PolicyPlayer {
        PolicyPlayer {
            net,
            scratch: None,
            warned: None,
        }
    }

    /// The network's top move for `color` in `game`.
    pub fn best_move(&mut self, game: &Game, color: Color) -> Move {
        let moves = sensible_moves(game, color);
        if moves.is_empty() {
            return Move::Pass;
        }
        let size = game.size();
        let net = self.net.network();
        if self.scratch.as_ref().is_none_or(|s| s.size() != size) {
            self.scratch = Some(NnScratch::new(net, size));
        }
        let Some(s) = self.scratch.as_mut() else {
            return Move::Pass;
        };
        s.history.clear();
        s.history.extend(game.moves().iter().map(|m| m.mv));
        let logits = s.logits(net, game.board(), color);
        let mut best = moves[0];
        for &p in &moves[1..] {
            if logits[point_index(p, size)] > logits[point_index(best, size)] {
                best = p;
            }
        }
        Move::Play(best)
    }
}

impl Player for PolicyPlayer {
    fn name(&self) -> String {
        "policy".to_string()
    }

    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        warn_policy(&self.net, req.game.size(), &mut self.warned);
        Decision::Play(self.best_move(req.game, req.color))
    }
}

/// The policy player's warning for a size its network does not cover
/// (it plays anyway).
fn warn_policy(net: &NnNet, size: usize, warned: &mut Option<usize>) {
    if !net.covers(size) && *warned != Some(size) {
        eprintln!(
            "{}",
            net.uncovered_warning(size)
                .replace("searching without it", "playing it anyway")
        );
        *warned = Some(size);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::nn::Shape;

    /// A network of no blocks and one channel whose policy prefers the top
    /// left point (A19 on 19x19) by 20 logits over every other point: the
    /// channel is `relu(1 - [left, above and above-left points on the
    /// board])`, which is 1 at the top left corner alone.
    pub(crate) fn corner_net() -> Network {
        let shape = Shape {
            planes: BASE_PLANES,
            blocks: 0,
            channels: 1,
            value_hidden: 0,
        };
        let mut w = vec![0.0f32; BASE_PLANES * 9];
        // Plane 22 (the board), kernel rows above, same, below.
        for (ky, kx) in [(0, 0), (0, 1), (1, 0)] {
            w[22 * 9 + ky * 3 + kx] = -1.0;
        }
        w.push(1.0); // input bias
        w.extend([1.0, 0.0]); // policy 1x1 [2][1]
        w.extend([0.0, 0.0]); // its bias
        w.extend([20.0, 0.0]); // policy to one logit
        w.push(0.0); // its bias
        w.push(0.0); // pass weight
        w.push(-50.0); // pass bias
        let header = "kosumi nn weights\ndata: test: 1 positions of 9x9, 24 planes\n";
        Network::from_weights(header.to_string(), shape, &w).expect("corner net")
    }

    #[test]
    fn the_corner_net_prefers_the_top_left_point() {
        let net = corner_net();
        let b = Board::new(9).expect("size");
        let mut s = NnScratch::new(&net, 9);
        let points: Vec<Point> = b.points().collect();
        let q = s.policy(&net, &b, Color::Black, &points).to_vec();
        assert_eq!(s.evals, 1);
        let top = Point::new(0, 0);
        let i = points.iter().position(|&p| p == top).expect("A9");
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(q[i] > 0.9, "{}", q[i]);
        assert!(q
            .iter()
            .enumerate()
            .all(|(k, &x)| k == i || x < q[i] / 1000.0));
    }

    #[test]
    fn sizes_come_from_the_header() {
        assert_eq!(
            trained_sizes("x\ndata: a.bin: 5 positions of 19x19, 24 planes\n"),
            vec![19]
        );
        assert_eq!(
            trained_sizes("data: a: 1 positions of 9x9, b: 2 positions of 13x13 and 9x9\n"),
            vec![9, 13]
        );
        assert!(trained_sizes("command: x of 9x9\n").is_empty());
        let b = NnNet::builtin();
        assert_eq!(b.sizes(), &[19]);
        assert!(b.covers(19) && !b.covers(9));
        assert!(b.uncovered_warning(9).contains("19x19"));
        let any = NnNet::new("t", Network::random(b.network().shape, 1)).expect("planes");
        assert!(any.covers(7) && any.covers(25));
    }

    #[test]
    fn mixing_keeps_the_ratings_at_zero_and_follows_the_shares() {
        let g = [3.0, 1.0, 0.5e-3, 7.25];
        let q = [0.1, 0.6, 0.3, 0.0];
        let mut r = g.to_vec();
        mix_shares(&mut r, &q, 0.0);
        assert_eq!(
            r.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            g.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        let s: f64 = g.iter().sum();
        let mut r = g.to_vec();
        mix_shares(&mut r, &q, 1.0);
        for (x, p) in r.iter().zip(q) {
            assert!((x / s - p).abs() < 1e-12);
        }
        let mut r = g.to_vec();
        mix_shares(&mut r, &q, 0.25);
        for ((x, gi), p) in r.iter().zip(g).zip(q) {
            assert!((x / s - (0.75 * gi / s + 0.25 * p)).abs() < 1e-12);
        }
        let mut r = vec![0.0; 4];
        mix_shares(&mut r, &q, 0.5);
        assert_eq!(r, q.to_vec());
    }

    #[test]
    fn bad_nn_values_are_errors() {
        assert_eq!(parse_nn("none"), Ok(NnArg::Off));
        assert_eq!(parse_nn("builtin").expect("builtin").text(), "builtin");
        assert!(parse_nn("").is_err());
        let e = parse_nn("/no/such/weights.bin").expect_err("missing");
        assert!(e.contains("/no/such/weights.bin"), "{e}");
        // A network of other planes than Kosumi writes.
        let odd = Network::random(
            Shape {
                planes: 3,
                blocks: 0,
                channels: 2,
                value_hidden: 0,
            },
            1,
        );
        let e = NnNet::new("odd", odd).expect_err("planes");
        assert!(e.contains("3 input planes"), "{e}");
    }

    /// A single-threaded search of `playouts` on an empty 9x9 board with
    /// `cfg` (a fresh tree): the tree and the network's evaluations.
    fn search_9x9(
        cfg: &crate::mcts::SearchConfig,
        playouts: u64,
    ) -> (crate::mcts::tree::Tree, u64) {
        let tree = crate::mcts::tree::Tree::new(1 << 16);
        let evals = search_on(&tree, cfg, playouts);
        (tree, evals)
    }

    /// [`search_9x9`] on `tree` as it is: the network's evaluations.
    fn search_on(
        tree: &crate::mcts::tree::Tree,
        cfg: &crate::mcts::SearchConfig,
        playouts: u64,
    ) -> u64 {
        use crate::mcts::search::{Limits, Search};
        let game = Game::new(
            9,
            crate::rules::Rules::default(),
            crate::komi::Komi::default(),
        )
        .expect("game");
        let s = Search::new(
            tree,
            cfg,
            &game,
            Color::Black,
            Limits {
                playouts: Some(playouts),
                time: None,
            },
            None,
            Instant::now(),
        );
        s.run(7, std::time::Duration::from_secs(1), None);
        s.nn_evals.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn cfg_with(net: Option<NnNet>, mix: f64, visits: u32) -> crate::mcts::SearchConfig {
        let mut cfg = crate::mcts::SearchConfig {
            threads: 1,
            seed: 3,
            early_stop: false,
            // Even AMAF samples: these tests follow the prior, and a few
            // dozen playouts weighted by distance outweigh it sooner.
            amaf_distance: 1,
            ..crate::mcts::SearchConfig::default()
        };
        cfg.nn = NnPriorConfig { net, mix, visits };
        cfg
    }

    /// The root's children as (move, prior visits bits, prior wins bits,
    /// visits).
    fn root_children(tree: &crate::mcts::tree::Tree) -> Vec<(Move, u32, u32, u32)> {
        tree.child_nodes(0)
            .map(|(_, n)| {
                let (v, w) = n.prior();
                (n.mv(), v.to_bits(), w.to_bits(), n.visits())
            })
            .collect()
    }

    #[test]
    fn the_root_follows_a_network_that_prefers_one_point() {
        let corner = NnNet::new("corner", corner_net()).expect("net");
        let a9 = Move::Play(Point::new(0, 0));
        let rate = |c: &(Move, u32, u32, u32)| f32::from_bits(c.2) / f32::from_bits(c.1);
        // Without the network the patterns and hand priors rate the 1-1
        // point low; with the network alone it has the highest prior and
        // the most visits.
        let (plain, _) = search_9x9(&cfg_with(None, 1.0, 64), 60);
        let (nn, evals) = search_9x9(&cfg_with(Some(corner), 1.0, 64), 60);
        assert_eq!(
            evals, 1,
            "the root alone reaches no threshold in 60 playouts"
        );
        for (tree, with) in [(&plain, false), (&nn, true)] {
            let kids = root_children(tree);
            let best_prior = kids
                .iter()
                .filter(|c| c.0 != Move::Pass)
                .max_by(|a, b| rate(a).total_cmp(&rate(b)))
                .expect("children");
            let most = kids.iter().max_by_key(|c| c.3).expect("children");
            assert_eq!(best_prior.0 == a9, with, "{:?}", best_prior.0);
            assert_eq!(most.0 == a9, with, "{:?}", most.0);
        }
    }

    #[test]
    fn at_no_share_the_priors_are_those_without_a_network_bit_for_bit() {
        let corner = NnNet::new("corner", corner_net()).expect("net");
        for visits in [64, 20] {
            let (plain, none) = search_9x9(&cfg_with(None, 0.0, visits), 400);
            let (mixed, evals) = search_9x9(&cfg_with(Some(corner.clone()), 0.0, visits), 400);
            assert_eq!(none, 0);
            assert!(evals >= 1);
            assert_eq!(root_children(&plain), root_children(&mixed));
            assert_eq!(plain.len(), mixed.len());
        }
    }

    #[test]
    fn a_root_kept_from_a_search_without_the_network_gets_its_priors() {
        let corner = NnNet::new("corner", corner_net()).expect("net");
        let with = cfg_with(Some(corner), 1.0, 64);
        let (fresh, _) = search_9x9(&with, 1);
        let kept = crate::mcts::tree::Tree::new(1 << 16);
        assert_eq!(search_on(&kept, &cfg_with(None, 1.0, 64), 1), 0);
        let before = root_children(&kept);
        assert_eq!(search_on(&kept, &with, 1), 1);
        let priors = |t: &crate::mcts::tree::Tree| -> Vec<(Move, u32, u32)> {
            root_children(t).iter().map(|c| (c.0, c.1, c.2)).collect()
        };
        assert_eq!(priors(&kept), priors(&fresh));
        assert_ne!(
            before.iter().map(|c| (c.0, c.1, c.2)).collect::<Vec<_>>(),
            priors(&fresh)
        );
    }

    #[test]
    fn the_root_and_each_node_that_reaches_the_threshold_are_evaluated_once() {
        use crate::mcts::tree::EXPANDED;
        let corner = NnNet::new("corner", corner_net()).expect("net");
        let visits = 20;
        let (tree, evals) = search_9x9(&cfg_with(Some(corner.clone()), 0.5, visits), 1500);
        // Every expanded node below the root with the threshold's visits.
        let mut reached = 0;
        let mut stack: Vec<u32> = tree.children(0).collect();
        while let Some(i) = stack.pop() {
            let n = tree.node(i);
            if n.state.load(std::sync::atomic::Ordering::Acquire) == EXPANDED {
                if n.visits() >= visits {
                    reached += 1;
                }
                stack.extend(tree.children(i));
            }
        }
        assert!(reached > 3, "{reached}");
        assert_eq!(evals, 1 + reached);
        // With the threshold at the expansion's visits, every expansion
        // is evaluated.
        let (tree, evals) = search_9x9(&cfg_with(Some(corner), 0.5, 1), 300);
        let expanded = (0..tree.len() as u32)
            .filter(|&i| {
                tree.node(i)
                    .state
                    .load(std::sync::atomic::Ordering::Acquire)
                    == EXPANDED
            })
            .count() as u64;
        assert_eq!(evals, expanded);
    }

    #[test]
    fn the_policy_player_plays_the_argmax_and_passes_without_moves() {
        let net = NnNet::new("corner", corner_net()).expect("net");
        let mut p = PolicyPlayer::new(net);
        let mut g = Game::new(
            9,
            crate::rules::Rules::default(),
            crate::komi::Komi::default(),
        )
        .expect("game");
        assert_eq!(p.best_move(&g, Color::Black), Move::Play(Point::new(0, 0)));
        g.play(Color::Black, Move::Play(Point::new(0, 0)))
            .expect("A9");
        // A9 is taken: some other legal point.
        let m = p.best_move(&g, Color::White);
        assert!(matches!(m, Move::Play(q) if q != Point::new(0, 0)));
        // Only own eyes left: pass.
        let b = Board::from_diagram(
            "
            . X .
            X X X
            . X .",
        )
        .expect("board");
        let g = Game::from_position(
            b,
            Color::Black,
            crate::rules::Rules::default(),
            crate::komi::Komi::default(),
        );
        assert_eq!(p.best_move(&g, Color::Black), Move::Pass);
    }
}

//! Monte-Carlo tree search: the player people play against.
//!
//! - [`tree`]: the node arena shared by the search threads (atomics, no
//!   locks), virtual loss, the selection formula as a pure function, and
//!   tree reuse ([`tree::Tree::reroot`]).
//! - the playout policy, 3x3 shapes and priors from cheap Go knowledge
//!   are in [`crate::playout::policy`]; the search holds their settings
//!   ([`SearchConfig::playout`], [`SearchConfig::prior`]).
//! - [`prior`]: the priors of new nodes, from the hand-written knowledge
//!   or the learned pattern ratings ([`SearchConfig::prior_source`]).
//! - [`time`]: the thinking budget as a pure function of the clock.
//! - [`search`]: one search over several threads.
//!
//! Selection is UCT with RAVE (AMAF) in the form of Gelly and Silver: a
//! child's value mixes its real win rate, smoothed by prior virtual visits,
//! with its all-moves-as-first win rate, the AMAF weight shrinking as real
//! visits grow ([`SearchConfig::rave_equiv`]).
//!
//! Game end: the player passes only when passing wins by the count of
//! [`crate::endgame`] (the rules' area or territory count, with the chains
//! that the search's ownership calls dead removed); in clean-up mode it
//! plays the endgame's clean-up moves while an opposing chain is dead,
//! unless the search finds a move clearly more urgent (an answer to a
//! threat: [`cleanup_choice`]). It resigns when the win rate stays below
//! [`SearchConfig::resign_threshold`] for [`SearchConfig::resign_moves`]
//! moves, unless the expected score is close.

pub mod prior;
pub mod search;
pub mod time;
pub mod tree;
pub mod tune;

use crate::board::Board;
use crate::color::Color;
use crate::endgame;
use crate::game::{Game, PlayedMove};
use crate::player::{Decision, GenmoveRequest, MoveFilter, Player};
use crate::playout::policy::{self, PlayoutConfig, PriorConfig};
use crate::point::Move;
use crate::rules::Rules;
pub use prior::{PatternPriorConfig, PriorSource};
pub use search::Limits;
use search::{root_children_legal, Search};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;
pub use time::TimeBudget;
use tree::{encode_move, Tree, NODE_BYTES};

// The snapshot types live in `player`, beside the `Analyzer` trait that
// hands them out; re-exported here where the search makes them.
pub use crate::player::{Analysis, Analyzer, CandidateInfo};

/// Every knob of the search, the playout policy, time control and game end.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Seed of the random streams; with one thread and a playout limit the
    /// same seed gives the same move every run.
    pub seed: u64,
    /// Playouts per move (`None`: no playout limit).
    pub max_playouts: Option<u64>,
    /// Seconds per move (`None`: only the clock limits).
    pub time_per_move: Option<f64>,
    /// Seconds per move when nothing else limits the search.
    pub default_time: f64,
    /// Node cap of the tree (each node takes [`NODE_BYTES`] bytes); when
    /// reached, leaves stop expanding.
    pub max_nodes: usize,
    /// Keep the subtree of the moves played between searches.
    pub reuse_tree: bool,
    /// Visits a node below the root needs before it gets children.
    pub expand_visits: u32,
    /// Real visits at which real and AMAF statistics weigh the same (1000:
    /// against 3500 it won 58.4% of 280 9x9 games at 5,000 playouts, SPRT
    /// 0/30 accepted; 20 of 41 19x19 games at 1,000).
    pub rave_equiv: f64,
    /// UCT exploration constant (0: rely on priors and RAVE).
    pub uct_c: f64,
    /// Stop early when the most visited move cannot be overtaken in the
    /// playouts left.
    pub early_stop: bool,
    /// Playouts a search runs before it may stop early (the ownership map
    /// behind pass and dead-stone decisions needs them); the time maximum
    /// and the stop flag still end it sooner.
    pub min_playouts: u64,
    /// The best move is "clear" when it has this many times the visits of
    /// the second and the best win rate; otherwise think up to the budget's
    /// maximum.
    pub clear_ratio: f64,

    /// Where the priors of moves entering the tree come from.
    pub prior_source: PriorSource,
    /// The hand-written priors of moves entering the tree.
    pub prior: PriorConfig,
    /// The priors from the learned pattern ratings.
    pub pattern_prior: PatternPriorConfig,
    /// Prior visits and wins of the pass.
    pub prior_pass: [f32; 2],

    /// The playout policy.
    pub playout: PlayoutConfig,

    /// Seconds of transmission and process lag per move: charged to our
    /// own clock on top of each move's measured time, and kept back per
    /// move still to play (`--lag`).
    pub lag_margin: f64,
    /// The longest think for one move, whatever the clock
    /// (`--max-move-time`).
    pub max_move_time: f64,
    /// Fraction of the main time left kept back as a reserve.
    pub safety_fraction: f64,
    /// The shortest think, seconds, while the clock allows it.
    pub min_think: f64,
    /// The think when the clock is nearly out: the floor below
    /// `min_think`.
    pub emergency_think: f64,
    /// Own moves still expected per empty point above the empty points
    /// expected at the end.
    pub moves_left_per_empty: f64,
    /// Fraction of the board expected to be empty when the game ends.
    pub end_empty_fraction: f64,
    /// Own moves still expected at least (on 19x19; scaled by area).
    pub min_moves_left: f64,
    /// Own moves per board point the sudden-death reserve pays the lag
    /// and the emergency think for, beyond the moves expected (a game
    /// may last longer than expected).
    pub tail_moves_per_point: f64,
    /// Time factor in the middle game (10% to 50% of the board filled).
    pub middle_game_factor: f64,
    /// How much longer than the target to think when the best move is
    /// unclear.
    pub unclear_factor: f64,
    /// Never spend more than this fraction of the main time pool on one
    /// move.
    pub max_main_fraction: f64,
    /// Overtime margin: this fraction of a byo-yomi period (or of a
    /// Canadian period's time left) is kept back...
    pub overtime_margin_fraction: f64,
    /// ... but no more than this many seconds ...
    pub overtime_margin_cap: f64,
    /// ... and at least the lag plus this many seconds.
    pub overtime_margin_min: f64,

    /// Resign when the win rate is below this (0 never resigns).
    pub resign_threshold: f64,
    /// ... for this many own moves in a row.
    pub resign_moves: u32,
    /// Never resign when the expected score margin is within this many
    /// points (a close endgame).
    pub resign_close_margin: f32,
    /// Never resign.
    pub no_resign: bool,
    /// Playouts of the short search behind [`Player::ownership`].
    pub ownership_playouts: u64,

    /// Dynamic komi for handicap games: points per handicap stone that the
    /// search adds to White's komi at the start, so that either side sees
    /// a game it can win or lose (0: off). See [`search_komi`].
    pub dyn_komi_per_stone: f32,
    /// The dynamic komi falls linearly to nothing over this many moves per
    /// board point (0.5: 180 moves on 19x19, 40 on 9x9).
    pub dyn_komi_moves: f64,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            max_playouts: None,
            time_per_move: None,
            default_time: 1.0,
            max_nodes: 4_000_000,
            reuse_tree: true,
            expand_visits: 8,
            rave_equiv: 1000.0,
            uct_c: 0.0,
            early_stop: true,
            min_playouts: 1000,
            clear_ratio: 1.5,
            prior_source: PriorSource::Patterns,
            prior: PriorConfig::default(),
            pattern_prior: PatternPriorConfig::default(),
            prior_pass: [10.0, 1.0],
            playout: PlayoutConfig::default(),
            lag_margin: 0.05,
            max_move_time: 60.0,
            safety_fraction: 0.05,
            min_think: 0.05,
            emergency_think: 0.01,
            moves_left_per_empty: 0.5,
            end_empty_fraction: 0.35,
            min_moves_left: 20.0,
            tail_moves_per_point: 0.25,
            middle_game_factor: 1.4,
            unclear_factor: 2.0,
            max_main_fraction: 0.15,
            overtime_margin_fraction: 0.15,
            overtime_margin_cap: 2.0,
            overtime_margin_min: 0.15,
            resign_threshold: 0.1,
            resign_moves: 3,
            resign_close_margin: 5.0,
            no_resign: false,
            ownership_playouts: 1000,
            dyn_komi_per_stone: 7.0,
            dyn_komi_moves: 0.5,
        }
    }
}

/// What the process needs besides the tree (code, thread stacks, the
/// game and its history, analysis buffers; about 5 MiB measured on 19x19),
/// with room to spare. [`SearchConfig::nodes_for_memory`] keeps it out of
/// a memory budget.
pub const NON_TREE_BYTES: usize = 16 << 20;

impl SearchConfig {
    /// The node cap that keeps the whole process within `bytes`: the tree
    /// gets the budget less [`NON_TREE_BYTES`], and at least half of it.
    pub fn nodes_for_memory(bytes: usize) -> usize {
        bytes.saturating_sub(NON_TREE_BYTES).max(bytes / 2) / NODE_BYTES
    }
}

/// The komi the search scores its playouts with. In a handicap game it is
/// the game's komi plus [`SearchConfig::dyn_komi_per_stone`] for each
/// handicap stone, falling linearly to the game's komi after
/// `dyn_komi_moves` moves per board point. Both sides get the same
/// virtual komi: as Black the engine keeps playing for a margin instead
/// of coasting on its stones, as White it sees a game it can still win
/// and neither plays desperate moves nor resigns at move one. Win rates
/// in analysis are for this komi; score leads stay with the real one, and
/// passing and counting always use the real one.
pub fn search_komi(cfg: &SearchConfig, game: &Game) -> f32 {
    let h = game.handicap_stones().len();
    let span = cfg.dyn_komi_moves * (game.size() * game.size()) as f64;
    if h == 0 || cfg.dyn_komi_per_stone == 0.0 || span <= 0.0 {
        return game.komi().get();
    }
    let left = (1.0 - game.moves().len() as f64 / span).max(0.0);
    game.komi().get() + (cfg.dyn_komi_per_stone as f64 * h as f64 * left) as f32
}

/// How much higher a win rate the search must give its most visited move
/// than the calm choice of clean-up mode (the clean-up move, or the pass)
/// before clean-up mode plays that move instead: [`cleanup_choice`].
pub const CLEANUP_URGENCY: f32 = 0.05;

/// The fewest visits that make a root move's win rate count in
/// [`cleanup_choice`].
pub const CLEANUP_MIN_VISITS: u32 = 30;

/// Clean-up mode's move, given the search's root `candidates` (most
/// visited first) and `calm`, the move it plays when nothing is urgent:
/// the clean-up move, or the pass when no opposing chain is dead.
///
/// Capturing dead stones changes nothing in an area count, so the search
/// alone would not clean up; but the opponent's clean-up moves may be real
/// threats (an atari, a semeai, an invasion that lives if left alone), and
/// answering only dead stones can lose a won game. So the most visited
/// move is played instead of `calm` when the search rates it at least
/// [`CLEANUP_URGENCY`] above the better of `calm` and the pass (each with
/// at least [`CLEANUP_MIN_VISITS`] visits). When neither has that many
/// visits the search has starved both: the most visited move is played
/// if the opponent's last move was a stone (`opponent_moved`: something
/// changed), and `calm` after a pass, so that clean-up ends.
pub fn cleanup_choice(candidates: &[CandidateInfo], calm: Move, opponent_moved: bool) -> Move {
    let Some(best) = candidates.first() else {
        return calm;
    };
    if best.mv == calm || best.mv == Move::Pass {
        return calm;
    }
    let reference = candidates
        .iter()
        .filter(|c| (c.mv == calm || c.mv == Move::Pass) && c.visits >= CLEANUP_MIN_VISITS)
        .map(|c| c.winrate)
        .reduce(f32::max);
    match reference {
        Some(w) if best.winrate >= w + CLEANUP_URGENCY => best.mv,
        Some(_) => calm,
        None if opponent_moved => best.mv,
        None => calm,
    }
}

/// What the tree's root stands for, to find it again after moves.
struct RootKey {
    start: Board,
    start_to_move: Color,
    moves: Vec<PlayedMove>,
    komi: f32,
    rules: Rules,
    color: Color,
}

/// The Monte-Carlo tree search player.
pub struct MctsPlayer {
    cfg: SearchConfig,
    tree: Tree,
    root: Option<RootKey>,
    searches: u64,
    total_playouts: u64,
    low_streak: u32,
    last: Option<Analysis>,
}

impl MctsPlayer {
    /// A player with `cfg`.
    pub fn new(cfg: SearchConfig) -> MctsPlayer {
        MctsPlayer {
            tree: Tree::new(cfg.max_nodes),
            cfg,
            root: None,
            searches: 0,
            total_playouts: 0,
            low_streak: 0,
            last: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    /// Changes the configuration (a new node cap drops the tree).
    pub fn set_config(&mut self, cfg: SearchConfig) {
        if cfg.max_nodes != self.cfg.max_nodes {
            self.tree = Tree::new(cfg.max_nodes);
            self.root = None;
        }
        self.cfg = cfg;
    }

    /// Nodes in the tree now.
    pub fn tree_nodes(&self) -> usize {
        self.tree.len()
    }

    /// The snapshot taken at the end of the last search.
    pub fn last_analysis(&self) -> Option<&Analysis> {
        self.last.as_ref()
    }

    /// Points the tree at `game` with `color` to move, keeping the subtree
    /// of the moves played since the last search when possible.
    fn prepare_root(&mut self, game: &Game, color: Color) {
        let mut reused = false;
        if let (true, Some(k)) = (self.cfg.reuse_tree, &self.root) {
            let moves = game.moves();
            let same_game = k.start == *game.start()
                && k.start_to_move == game.start_to_move()
                && k.komi == game.komi().get()
                && k.rules == game.rules()
                && moves.len() >= k.moves.len()
                && moves[..k.moves.len()] == k.moves[..];
            if same_game {
                let mut node = 0u32;
                let mut to_move = k.color;
                let mut found = true;
                for m in &moves[k.moves.len()..] {
                    let code = encode_move(m.mv);
                    let next = self
                        .tree
                        .children(node)
                        .find(|&ch| self.tree.node(ch).mv.load(Relaxed) == code);
                    match next {
                        Some(ch) if m.color == to_move => {
                            node = ch;
                            to_move = to_move.opponent();
                        }
                        _ => {
                            found = false;
                            break;
                        }
                    }
                }
                if found && to_move == color {
                    self.tree.reroot(node);
                    reused = root_children_legal(&self.tree, game, color);
                }
            }
        }
        if !reused {
            self.tree.clear();
        }
        self.root = Some(RootKey {
            start: game.start().clone(),
            start_to_move: game.start_to_move(),
            moves: game.moves().to_vec(),
            komi: game.komi().get(),
            rules: game.rules(),
            color,
        });
    }

    /// Searches `game` for `color` within `limits` (or until `stop`), calling
    /// `on_update` with a snapshot about every `interval`; returns the final
    /// snapshot. This is the entry point for live analysis.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        limits: Limits,
        stop: Option<&AtomicBool>,
        interval: Duration,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let none = MoveFilter::default();
        self.analyze_filtered(game, color, limits, stop, interval, &none, on_update)
    }

    /// [`MctsPlayer::analyze`] never considering the moves `filter`
    /// forbids (KataGo's `avoid`/`allow`).
    #[allow(clippy::too_many_arguments)]
    pub fn analyze_filtered(
        &mut self,
        game: &Game,
        color: Color,
        limits: Limits,
        stop: Option<&AtomicBool>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        self.search(game, color, limits, stop, interval, filter, Some(on_update))
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        game: &Game,
        color: Color,
        limits: Limits,
        stop: Option<&AtomicBool>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: Option<&mut dyn FnMut(&Analysis)>,
    ) -> Analysis {
        let start = std::time::Instant::now();
        self.prepare_root(game, color);
        self.searches += 1;
        let seed = self
            .cfg
            .seed
            .wrapping_add(self.searches.wrapping_mul(0x632B_E59B_D9B4_E019));
        let mut s = Search::new(&self.tree, &self.cfg, game, color, limits, stop, start);
        if !filter.is_empty() {
            s.filter = Some(filter);
        }
        match on_update {
            Some(f) => {
                let mut tick = |s: &Search| f(&snapshot(s));
                s.run(seed, interval, Some(&mut tick));
            }
            None => s.run(seed, interval, None),
        }
        let a = snapshot(&s);
        self.total_playouts += a.playouts;
        self.last = Some(a.clone());
        a
    }

    /// Whether `color` wins if the game ends now, counted by
    /// [`endgame::count`] with the chains [`endgame::classify`] calls dead
    /// by `ownership` removed. False without an ownership estimate.
    pub fn passing_wins(&self, game: &Game, color: Color, ownership: &[f32]) -> bool {
        if ownership.is_empty() {
            return false;
        }
        let chains = endgame::classify(game.board(), ownership);
        endgame::passing_wins(game, color, &chains)
    }

    /// The clean-up move: among [`endgame::cleanup_moves`] by the
    /// search's ownership, the one the search visited most (the first when
    /// it visited none); a pass when no opposing chain is dead. Clean-up
    /// mode plays it unless [`cleanup_choice`] finds something more
    /// urgent; the GTP engine then checks a pass against its own
    /// dead-stone list.
    fn cleanup_move(&self, game: &Game, color: Color, a: &Analysis) -> Move {
        if a.ownership.is_empty() {
            return Move::Pass;
        }
        let chains = endgame::classify(game.board(), &a.ownership);
        let moves = endgame::cleanup_moves(game, color, &chains);
        let visits = |m: &Move| {
            a.candidates
                .iter()
                .find(|c| c.mv == *m)
                .map_or(0, |c| c.visits)
        };
        let mut best: Option<(u32, Move)> = None;
        for m in moves {
            let v = visits(&m);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, m));
            }
        }
        best.map_or(Move::Pass, |(_, m)| m)
    }

    /// [`Player::genmove`] with live analysis: `on_update` gets a snapshot
    /// about every `interval` while the search runs (GTP's
    /// `lz-genmove_analyze`).
    pub fn genmove_analyze(
        &mut self,
        req: &GenmoveRequest<'_>,
        interval: Duration,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Decision {
        self.decide(req, interval, &MoveFilter::default(), Some(on_update))
    }

    /// [`MctsPlayer::genmove_analyze`] never considering (nor choosing) the
    /// moves `filter` forbids.
    pub fn genmove_analyze_filtered(
        &mut self,
        req: &GenmoveRequest<'_>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Decision {
        self.decide(req, interval, filter, Some(on_update))
    }

    fn decide(
        &mut self,
        req: &GenmoveRequest<'_>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: Option<&mut dyn FnMut(&Analysis)>,
    ) -> Decision {
        let game = req.game;
        let color = req.color;
        let limits = self.limits_for(req);
        let a = self.search(game, color, limits, req.stop, interval, filter, on_update);
        if req.cleanup {
            let calm = self.cleanup_move(game, color, &a);
            let opponent_moved = game
                .moves()
                .last()
                .is_some_and(|m| m.color != color && m.mv != Move::Pass);
            return Decision::Play(cleanup_choice(&a.candidates, calm, opponent_moved));
        }
        let Some(best) = a.candidates.first() else {
            return Decision::Play(Move::Pass);
        };
        // Resignation.
        if !self.cfg.no_resign && self.cfg.resign_threshold > 0.0 {
            if (best.winrate as f64) < self.cfg.resign_threshold {
                self.low_streak += 1;
            } else {
                self.low_streak = 0;
            }
            if self.low_streak >= self.cfg.resign_moves
                && a.score_lead < -self.cfg.resign_close_margin
            {
                return Decision::Resign;
            }
        }
        let opponent_passed = game
            .moves()
            .last()
            .is_some_and(|m| m.mv == Move::Pass && m.color != color);
        let pass_wins = self.passing_wins(game, color, &a.ownership);
        if opponent_passed && pass_wins {
            return Decision::Play(Move::Pass);
        }
        if best.mv == Move::Pass && !pass_wins {
            if let Some(c) = a.candidates.iter().find(|c| c.mv != Move::Pass) {
                return Decision::Play(c.mv);
            }
        }
        Decision::Play(best.mv)
    }

    fn limits_for(&self, req: &GenmoveRequest<'_>) -> Limits {
        let size = req.game.size();
        let empty = req.game.board().empty_count();
        let mut limits = Limits {
            playouts: self.cfg.max_playouts,
            time: time::budget(req.clock, req.color, size, empty, &self.cfg),
        };
        if limits.playouts.is_none() && limits.time.is_none() {
            let t = self.cfg.default_time;
            limits.time = Some(TimeBudget { target: t, max: t });
        }
        limits
    }
}

/// The lead of `color` for a mean Black margin `mean` (komi not
/// included) under `komi`.
fn lead_for(color: Color, mean: f64, komi: f32) -> f32 {
    let lead = mean as f32 - komi;
    if color == Color::Black {
        lead
    } else {
        -lead
    }
}

/// The root snapshot of a running or finished search.
fn snapshot(s: &Search) -> Analysis {
    let tree = s.tree;
    let sign = if s.color == Color::Black { 1.0 } else { -1.0 };
    let komi = s.game.komi().get();
    let acc = s.accum();
    let ownership: Vec<f32> = if acc.count == 0 {
        Vec::new()
    } else {
        s.game
            .board()
            .points()
            .map(|p| acc.owner[p.index()] as f32 / acc.count as f32)
            .collect()
    };
    let score_lead = if acc.count == 0 {
        0.0
    } else {
        sign * (acc.margin as f32 / acc.count as f32 - komi)
    };
    let root_score = tree.score_data(0);
    let root_score_lead = root_score
        .mean()
        .map_or(score_lead, |m| lead_for(s.color, m, komi));
    let root_score_stdev = root_score.stdev().unwrap_or(0.0) as f32;
    let prior_total: f32 = tree.children(0).map(|ch| tree.node(ch).prior().1).sum();
    let (mut root_wins, mut root_visits) = (0.0f64, 0u64);
    let mut cands: Vec<CandidateInfo> = Vec::new();
    let mut unvisited: Vec<CandidateInfo> = Vec::new();
    for ch in tree.children(0) {
        let n = tree.node(ch);
        let code = n.mv.load(Relaxed);
        if !s.root_selectable(code) {
            continue;
        }
        let v = n.visits();
        let (pv_n, pw_n) = n.prior();
        let prior = pw_n / prior_total.max(1e-9);
        if v == 0 {
            let wr = if pv_n > 0.0 { pw_n / pv_n } else { 0.5 };
            unvisited.push(CandidateInfo {
                mv: n.mv(),
                visits: 0,
                winrate: wr.clamp(0.0, 1.0),
                prior,
                lcb: 0.0,
                order: 0,
                pv: vec![n.mv()],
                pv_visits: vec![0],
                score_lead: root_score_lead,
                score_stdev: root_score_stdev,
            });
            continue;
        }
        root_wins += n.wins();
        root_visits += v as u64;
        let wr = (n.wins() / v as f64).clamp(0.0, 1.0);
        let lcb = (wr - 1.96 * (wr * (1.0 - wr) / v as f64).sqrt()).max(0.0);
        let mut pv = vec![n.mv()];
        let mut pv_visits = vec![v];
        let mut at = ch;
        let mut to_move = s.color.opponent();
        while pv.len() < 12 {
            let depth = pv.len();
            let next = tree
                .children(at)
                .filter(|&c| {
                    tree.node(c).visits() > 0
                        && !s.forbidden(tree.node(c).mv.load(Relaxed), to_move, depth)
                })
                .max_by_key(|&c| tree.node(c).visits());
            match next {
                Some(c) => {
                    pv.push(tree.node(c).mv());
                    pv_visits.push(tree.node(c).visits());
                    at = c;
                    to_move = to_move.opponent();
                }
                None => break,
            }
        }
        let sc = tree.score_data(ch);
        cands.push(CandidateInfo {
            mv: n.mv(),
            visits: v,
            winrate: wr as f32,
            prior,
            lcb: lcb as f32,
            order: 0,
            pv,
            pv_visits,
            score_lead: sc
                .mean()
                .map_or(root_score_lead, |m| lead_for(s.color, m, komi)),
            score_stdev: sc.stdev().map_or(root_score_stdev, |d| d as f32),
        });
    }
    cands.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    for (i, c) in cands.iter_mut().enumerate() {
        c.order = i;
    }
    unvisited.sort_by(|a, b| b.prior.total_cmp(&a.prior));
    let best_rate = cands.first().map_or(0.5, |c| c.winrate);
    Analysis {
        color: s.color,
        visits: tree.root().visits(),
        playouts: acc.count,
        winrate: best_rate,
        score_lead,
        root_winrate: if root_visits > 0 {
            (root_wins / root_visits as f64) as f32
        } else {
            best_rate
        },
        root_score_lead,
        root_score_stdev,
        candidates: cands,
        unvisited,
        ownership,
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        "kosumi-mcts".to_string()
    }

    fn playouts(&self) -> u64 {
        self.total_playouts
    }

    fn root_visits(&self) -> Vec<(Move, u32)> {
        self.last.as_ref().map_or_else(Vec::new, |a| {
            a.candidates.iter().map(|c| (c.mv, c.visits)).collect()
        })
    }

    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        self.decide(
            req,
            Duration::from_millis(100),
            &MoveFilter::default(),
            None,
        )
    }

    fn ownership(&mut self, game: &Game) -> Vec<f32> {
        let limits = Limits {
            playouts: Some(self.cfg.ownership_playouts),
            time: None,
        };
        let a = self.search(
            game,
            game.to_move(),
            limits,
            None,
            Duration::from_millis(100),
            &MoveFilter::default(),
            None,
        );
        a.ownership
    }

    fn set_seed(&mut self, seed: u64) {
        self.cfg.seed = seed;
        self.searches = 0;
    }

    fn analyzer(&mut self) -> Option<&mut dyn Analyzer> {
        Some(self)
    }

    fn clear(&mut self) {
        self.tree.clear();
        self.root = None;
        self.low_streak = 0;
        self.last = None;
    }
}

impl Analyzer for MctsPlayer {
    fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        playouts: Option<u64>,
        stop: Option<&AtomicBool>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let limits = Limits {
            playouts,
            time: None,
        };
        self.analyze_filtered(game, color, limits, stop, interval, filter, on_update)
    }

    fn genmove_analyze(
        &mut self,
        req: &GenmoveRequest<'_>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Decision {
        self.genmove_analyze_filtered(req, interval, filter, on_update)
    }
}

/// A middle-game position for benchmarks: `fill` of the board's points
/// played by the playout policy from the empty board (seeded, so always the
/// same), every move checked by the game.
pub fn middle_game(size: usize, fill: f64, seed: u64) -> Option<Game> {
    use rand_xoshiro::rand_core::SeedableRng;
    let mut game = Game::new(size, Rules::default(), crate::komi::Komi::default()).ok()?;
    let cfg = SearchConfig::default();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let target = (fill * (size * size) as f64) as usize;
    let mut tries = 0;
    while game
        .board()
        .points()
        .filter(|&p| !game.board().is_empty(p))
        .count()
        < target
        && tries < 10 * size * size
    {
        tries += 1;
        let c = game.to_move();
        let moves = game.moves();
        let last = moves.last().and_then(|m| m.mv.point());
        let mut b = game.board().clone();
        // No `last2`: the positions stay those of the earlier builds
        // whatever `capture_last2` is.
        let mv = policy::choose_move(&mut b, c, last, None, &mut rng, &cfg.playout)
            .map_or(Move::Pass, Move::Play);
        if game.play(c, mv).is_err() {
            game.play(c, Move::Pass).ok()?;
        }
    }
    Some(game)
}

/// The figures of one search benchmark run.
#[derive(Clone, Debug)]
pub struct SearchBench {
    /// Playouts per second of each repetition.
    pub rates: Vec<f64>,
    /// Nodes in the tree after the last repetition.
    pub nodes: usize,
}

impl SearchBench {
    /// The median rate.
    pub fn median(&self) -> f64 {
        let mut r = self.rates.clone();
        r.sort_by(f64::total_cmp);
        if r.is_empty() {
            0.0
        } else {
            r[r.len() / 2]
        }
    }
}

/// Runs `repeat` searches of `playouts` playouts each on `game` with
/// `threads` threads (fresh tree each time, no early stop) and measures
/// playouts per second.
pub fn bench_search(
    game: &Game,
    threads: usize,
    playouts: u64,
    repeat: usize,
    seed: u64,
) -> SearchBench {
    bench_search_with(
        game,
        threads,
        playouts,
        repeat,
        seed,
        SearchConfig::default().playout,
    )
}

/// As [`bench_search`], with the playout policy's settings `playout`.
pub fn bench_search_with(
    game: &Game,
    threads: usize,
    playouts: u64,
    repeat: usize,
    seed: u64,
    playout: crate::playout::PlayoutConfig,
) -> SearchBench {
    let cfg = SearchConfig {
        threads,
        seed,
        max_playouts: Some(playouts),
        early_stop: false,
        reuse_tree: false,
        playout,
        ..SearchConfig::default()
    };
    let mut p = MctsPlayer::new(cfg);
    let mut rates = Vec::new();
    for _ in 0..repeat.max(1) {
        let start = std::time::Instant::now();
        let limits = Limits {
            playouts: Some(playouts),
            time: None,
        };
        let a = p.search(
            game,
            game.to_move(),
            limits,
            None,
            Duration::from_millis(100),
            &MoveFilter::default(),
            None,
        );
        rates.push(a.playouts as f64 / start.elapsed().as_secs_f64().max(1e-9));
    }
    SearchBench {
        rates,
        nodes: p.tree_nodes(),
    }
}

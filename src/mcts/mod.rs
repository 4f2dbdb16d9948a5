//! Monte-Carlo tree search: the player people play against.
//!
//! The modules, each using only those listed before it:
//!
//! - [`tree`]: the node arena shared by the search threads (atomics, no
//!   locks), virtual loss, the selection formula as a pure function, and
//!   tree reuse ([`tree::Tree::reroot`]).
//! - [`nn_prior`]: the network as the prior (`--nn`): the loaded network,
//!   its knobs, the buffers of one evaluation per thread, the mix of its
//!   shares with the pattern ratings; [`nn_prior::PolicyPlayer`], the
//!   network's top move without search (`--player policy`).
//! - [`prior`]: the priors of new nodes, from the hand-written knowledge
//!   or the learned pattern ratings ([`SearchConfig::prior_source`]),
//!   with the network's share mixed in where the search asks for it.
//! - [`config`]: [`SearchConfig`], every setting of the search grouped by
//!   concern, and the dynamic komi ([`search_komi`]).
//! - [`tune`]: the knob table: `--set KEY=VALUE`, its keys, ranges and
//!   help, applied to a [`SearchConfig`].
//! - [`args`]: [`SearchArgs`], the search options every command shares,
//!   and the one function that builds a [`SearchConfig`] from them.
//! - [`time`]: the thinking budget as a pure function of the clock.
//! - [`search`]: one search over several threads.
//! - [`snapshot`]: the analysis snapshot of a search's root.
//! - this file: [`MctsPlayer`], the player's decisions (pass, resign,
//!   clean-up).
//! - [`bench`]: the search benchmark and its middle-game positions.
//!
//! Selection is UCT with RAVE (AMAF) in the form of Gelly and Silver: a
//! child's value mixes its real win rate, smoothed by prior virtual visits,
//! with its all-moves-as-first win rate, the AMAF weight shrinking as real
//! visits grow ([`SearchConfig::rave_equiv_for`]).
//!
//! Game end: the player passes only when passing wins by the count of
//! [`crate::endgame`] (the rules' area or territory count, with the chains
//! that the search's ownership calls dead removed); in clean-up mode it
//! plays the endgame's clean-up moves while an opposing chain is dead,
//! unless, after a stone of the opponent's, the search finds a move
//! clearly more urgent (an answer to a threat: [`cleanup_choice`]). It
//! resigns when the win rate stays below
//! [`SearchConfig::resign_threshold`] for [`SearchConfig::resign_moves`]
//! moves, unless the expected score is close.

pub mod args;
pub mod bench;
pub mod config;
pub mod nn_prior;
pub mod prior;
pub mod search;
pub mod snapshot;
pub mod time;
pub mod tree;
pub mod tune;

use crate::board::Board;
use crate::color::Color;
use crate::endgame;
use crate::game::{Game, PlayedMove};
use crate::player::{Decision, GenmoveRequest, MoveFilter, Player};
use crate::point::Move;
use crate::rules::Rules;
pub use args::{NnOption, PlayerKind, SearchArgs};
pub use bench::{bench_search, middle_game, SearchBench};
pub use config::{search_komi, SearchConfig, NON_TREE_BYTES};
pub use nn_prior::{policy_map, NnArg, NnNet, PolicyPlayer};
pub use prior::{PatternPriorConfig, PriorConfig, PriorSource};
pub use search::Limits;
use search::{root_children_legal, Search};
use snapshot::snapshot;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;
pub use time::TimeBudget;
use tree::{encode_move, Tree};

// The snapshot types live in `player`, beside the `Analyzer` trait that
// hands them out; re-exported here where the search makes them.
pub use crate::player::{Analysis, Analyzer, CandidateInfo};

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
/// answering only dead stones can lose a won game. So after a stone of
/// the opponent's (`opponent_moved`) the most visited move is played
/// instead of `calm` when the search rates it at least [`CLEANUP_URGENCY`]
/// above the better of `calm` and the pass (each with at least
/// [`CLEANUP_MIN_VISITS`] visits), or when neither has that many visits
/// (the search has starved both). After a pass, or with no move yet,
/// nothing new threatens and `calm` is played: a lead of the most visited
/// move there is the playouts' view of a settled position, and a move
/// inside one's own area costs a point under territory scoring.
pub fn cleanup_choice(candidates: &[CandidateInfo], calm: Move, opponent_moved: bool) -> Move {
    let Some(best) = candidates.first() else {
        return calm;
    };
    if !opponent_moved || best.mv == calm || best.mv == Move::Pass {
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
        None => best.mv,
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
    nn_stats: NnStats,
}

/// What the network prior cost a player's searches so far.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct NnStats {
    /// Evaluations made.
    pub evals: u64,
    /// Seconds they took (input planes and network), summed over threads.
    pub seconds: f64,
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
            nn_stats: NnStats::default(),
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

    /// What the network prior cost this player's searches so far.
    pub fn nn_stats(&self) -> NnStats {
        self.nn_stats
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

    /// A search of `playouts` playouts for the side to move in `game`,
    /// with no clock, stop flag, filter or updates.
    pub(crate) fn search_playouts(&mut self, game: &Game, playouts: u64) -> Analysis {
        let limits = Limits {
            playouts: Some(playouts),
            time: None,
        };
        self.search(
            game,
            game.to_move(),
            limits,
            None,
            Duration::from_millis(100),
            &MoveFilter::default(),
            None,
        )
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
        if let Some(net) = &self.cfg.nn.net {
            nn_prior::warn_uncovered(net, game.size());
        }
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
        self.nn_stats.evals += s.nn_evals.load(Relaxed);
        self.nn_stats.seconds += s.nn_nanos.load(Relaxed) as f64 * 1e-9;
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
            if let Some(m) = capture_of_dead_in_atari(game, color, &a.ownership) {
                return Decision::Play(m);
            }
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

/// Under area scoring, the capture of an opposing chain in atari that
/// the search's `ownership` calls dead, where there is one: after the
/// opponent's pass it costs nothing, and it leaves the scorer (the
/// opponent, a referee) no dead chain to misjudge. None under territory
/// scoring (a stone in one's own territory costs a point) or when no such
/// chain is left.
fn capture_of_dead_in_atari(game: &Game, color: Color, ownership: &[f32]) -> Option<Move> {
    if ownership.is_empty() || game.rules().scoring != crate::rules::Scoring::Area {
        return None;
    }
    let board = game.board();
    let chains = endgame::classify(board, ownership);
    endgame::cleanup_moves(game, color, &chains)
        .into_iter()
        .find(|m| {
            m.point().is_some_and(|p| {
                p.neighbors().iter().any(|&q| {
                    board.on_board(q)
                        && board.get(q) == Some(color.opponent())
                        && board.liberties(q) == 1
                })
            })
        })
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        "kosumi-mcts".to_string()
    }

    fn playouts(&self) -> u64 {
        self.total_playouts
    }

    fn lag(&self) -> f64 {
        self.cfg.lag_margin
    }

    fn last_search(&self) -> Option<&Analysis> {
        self.last.as_ref()
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
        // The statuses judge every point: playouts played to the end (no
        // mercy rule, which leaves a lopsided board unsettled).
        let play = (self.cfg.score_utility, self.cfg.playout.clone());
        self.cfg.score_utility = self.cfg.ownership_score_utility;
        self.cfg.playout = self.cfg.playout.played_out();
        let own = self
            .search_playouts(game, self.cfg.ownership_playouts)
            .ownership;
        (self.cfg.score_utility, self.cfg.playout) = play;
        own
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

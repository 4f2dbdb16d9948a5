//! [`SearchConfig`]: every setting of the search, grouped by concern
//! (limits, tree and RAVE, priors, playout, time manager, end of game,
//! dynamic komi), each with its default in [`SearchConfig::default`].
//! The command line reaches them through [`super::args::SearchArgs`] and
//! the knob table of [`super::tune`].

use super::nn_prior::NnPriorConfig;
use super::prior::{PatternPriorConfig, PriorConfig, PriorSource};
use super::tree::NODE_BYTES;
use crate::game::Game;
use crate::playout::policy::PlayoutConfig;

/// Every setting of the search, the playout policy, time control and game
/// end.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    // --- Limits ---
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
    /// Stop early when the most visited move cannot be overtaken in the
    /// playouts left, or (under a playout limit) when it is clear past
    /// `playout_target`; off, a search runs to its limit.
    pub early_stop: bool,
    /// Under a playout limit, the fraction of it after which a search
    /// stops when the best move is clear (`clear_ratio`); while it is
    /// unclear the search runs on to the limit (1: always the limit).
    /// The clock's target and maximum, in playouts.
    pub playout_target: f64,
    /// Playouts a search runs before it may stop early (the ownership map
    /// behind pass and dead-stone decisions needs them); the time maximum
    /// and the stop flag still end it sooner.
    pub min_playouts: u64,

    // --- Tree and RAVE ---
    /// Keep the subtree of the moves played between searches.
    pub reuse_tree: bool,
    /// Visits a node below the root needs before it gets children.
    pub expand_visits: u32,
    /// Real visits at which real and AMAF statistics weigh the same, on
    /// boards up to 9x9 ([`SearchConfig::rave_equiv_for`]).
    pub rave_equiv: f64,
    /// The same on boards larger than 9x9.
    pub rave_equiv_large: f64,
    /// Distance-weighted AMAF on boards up to 9x9: a child's AMAF sample
    /// weighs this much when its move came right after the node, falling
    /// linearly to 1 for the simulation's last move (1: every sample once;
    /// [`SearchConfig::amaf_distance_for`]).
    pub amaf_distance: u32,
    /// The same on boards larger than 9x9.
    pub amaf_distance_large: u32,
    /// UCT exploration constant (0: rely on priors and RAVE).
    pub uct_c: f64,
    /// Weight of a policy exploration term in the tree's selection,
    /// `puct * policy * sqrt(parent) / (1 + visits)`, the policy being
    /// the child's share of its node's ratings (the patterns', mixed with
    /// the network's where it evaluated the node); 0: no term.
    pub puct: f64,
    /// Weight of the score utility beside the win rate in the tree's
    /// selection (0: the win rate alone); see `search::score_utility`.
    /// 0 for the moves; the short search behind the statuses sets it to
    /// [`SearchConfig::ownership_score_utility`].
    pub score_utility: f64,

    // --- Priors ---
    /// Where the priors of moves entering the tree come from.
    pub prior_source: PriorSource,
    /// The hand-written priors of moves entering the tree.
    pub prior: PriorConfig,
    /// The priors from the learned pattern ratings.
    pub pattern_prior: PatternPriorConfig,
    /// Leave out of the tree the moves that extend an own chain out of
    /// atari when a ladder captures it anyway (and the move captures
    /// nothing).
    pub prune_ladders: bool,
    /// The network's share of the priors (`--nn`; off by default).
    pub nn: NnPriorConfig,
    /// Prior visits and wins of the pass.
    pub prior_pass: [f32; 2],
    /// Prior visits and wins of the pass under rules that count territory:
    /// a neutral start, since passing is right once every point left is
    /// dame or one's own.
    pub prior_pass_territory: [f32; 2],

    // --- Playout ---
    /// The playout policy.
    pub playout: PlayoutConfig,

    // --- Time manager ---
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
    /// The best move is "clear" when it has this many times the visits of
    /// the second and the best win rate; otherwise think up to the budget's
    /// maximum.
    pub clear_ratio: f64,
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

    // --- End of game ---
    /// Resign when the win rate is below this (0 never resigns).
    pub resign_threshold: f64,
    /// ... for this many own moves in a row.
    pub resign_moves: u32,
    /// Never resign when the expected score margin is within this many
    /// points (a close endgame).
    pub resign_close_margin: f32,
    /// Never resign.
    pub no_resign: bool,
    /// Playouts of the short search behind
    /// [`crate::player::Player::ownership`].
    pub ownership_playouts: u64,
    /// The score utility ([`SearchConfig::score_utility`]) of that short
    /// search: the statuses judge the board as it stands, and a side that
    /// loses anyway should not be seen sacrificing its stones into a seki.
    pub ownership_score_utility: f64,

    // --- Dynamic komi ---
    /// Dynamic komi for handicap games: points per handicap stone that the
    /// search adds to White's komi at the start, so that either side sees
    /// a game it can win or lose (0: off). See [`search_komi`].
    pub dyn_komi_per_stone: f32,
    /// The dynamic komi falls linearly to nothing over this many moves per
    /// board point.
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
            early_stop: true,
            playout_target: 0.5,
            min_playouts: 1000,
            reuse_tree: true,
            expand_visits: 8,
            rave_equiv: 400.0,
            rave_equiv_large: 1000.0,
            amaf_distance: 4,
            amaf_distance_large: 1,
            uct_c: 0.0,
            puct: 0.3,
            score_utility: 0.0,
            prior_source: PriorSource::Patterns,
            prior: PriorConfig::default(),
            pattern_prior: PatternPriorConfig::default(),
            prune_ladders: true,
            nn: NnPriorConfig::default(),
            prior_pass: [10.0, 1.0],
            prior_pass_territory: [10.0, 5.0],
            playout: PlayoutConfig::default(),
            lag_margin: crate::player::DEFAULT_LAG,
            max_move_time: 60.0,
            safety_fraction: 0.05,
            min_think: 0.05,
            emergency_think: 0.01,
            moves_left_per_empty: 0.5,
            end_empty_fraction: 0.35,
            min_moves_left: 20.0,
            tail_moves_per_point: 0.25,
            middle_game_factor: 1.4,
            clear_ratio: 1.5,
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
            ownership_score_utility: 0.2,
            dyn_komi_per_stone: 7.0,
            dyn_komi_moves: 0.5,
        }
    }
}

/// What the process needs besides the tree (code, thread stacks, the
/// game and its history, analysis buffers), with room to spare.
/// [`SearchConfig::nodes_for_memory`] keeps it out of a memory budget.
pub const NON_TREE_BYTES: usize = 16 << 20;

impl SearchConfig {
    /// The RAVE equivalence on a board of `size`: `rave_equiv` up to 9x9,
    /// `rave_equiv_large` above.
    pub fn rave_equiv_for(&self, size: usize) -> f64 {
        if size <= 9 {
            self.rave_equiv
        } else {
            self.rave_equiv_large
        }
    }

    /// The AMAF distance weight on a board of `size`: `amaf_distance` up
    /// to 9x9, `amaf_distance_large` above.
    pub fn amaf_distance_for(&self, size: usize) -> u32 {
        if size <= 9 {
            self.amaf_distance
        } else {
            self.amaf_distance_large
        }
    }

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

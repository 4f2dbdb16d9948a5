//! Our players as the games here build them, and the seeds they get.
//!
//! A [`SearchArgs`] names a player and its settings; [`make_player`] builds
//! it with a seed; [`mix_seed`] derives per-game and per-colour seeds.

use crate::mcts::nn_prior::PolicyPlayer;
use crate::mcts::{MctsPlayer, PlayerKind, SearchArgs};
use crate::player::{Player, RandomPlayer};

/// Search threads of our player in games (`match`, `selfplay`) unless
/// `--threads` says otherwise: games run side by side (`--jobs`) and
/// with one thread and a playout limit a game is deterministic.
pub const GAME_THREADS: usize = 1;

/// The search threads of our player in games.
pub fn game_threads(spec: &SearchArgs) -> usize {
    spec.threads.unwrap_or(GAME_THREADS)
}

/// Our player and its settings, for records (see
/// [`SearchArgs::describe`]).
pub fn describe_player(spec: &SearchArgs) -> String {
    spec.describe(game_threads(spec))
}

/// Builds our player for `spec`, seeded with `seed`. The random and the
/// policy players ignore the search settings. The search player thinks `spec.time`
/// seconds or `spec.playouts` playouts a move (its default time when
/// neither is given), with [`game_threads`] threads; with one thread and
/// a playout limit it is deterministic.
pub fn make_player(spec: &SearchArgs, seed: u64) -> Box<dyn Player> {
    match spec.kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
        PlayerKind::Search => Box::new(MctsPlayer::new(spec.search_config(seed, GAME_THREADS))),
        PlayerKind::Policy => Box::new(PolicyPlayer::new(spec.policy_network())),
    }
}

/// A 64-bit mix of `a` and `b` (SplitMix64 finaliser over both), for
/// per-game and per-colour seeds.
pub fn mix_seed(a: u64, b: u64) -> u64 {
    fn fin(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fin(fin(a.wrapping_add(0x9e37_79b9_7f4a_7c15)) ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

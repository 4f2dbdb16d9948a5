//! Our players as the games here build them, and the seeds they get.
//!
//! A [`PlayerSpec`] names a player and its settings; [`make_player`] builds
//! it with a seed; [`mix_seed`] derives per-game and per-colour seeds.

use crate::mcts::{MctsPlayer, SearchConfig};
use crate::player::{Player, RandomPlayer};

/// Which of our players to build.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PlayerKind {
    /// The uniform random player (fast; the library default, for tests).
    #[default]
    Random,
    /// The Monte-Carlo tree search player (the command line's default).
    Search,
}

impl PlayerKind {
    /// `random` or `search`.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Search => "search",
        }
    }
}

/// Settings of our player, passed to [`make_player`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSpec {
    /// Which player.
    pub kind: PlayerKind,
    /// Playouts per move, if limited by count.
    pub playouts: Option<u64>,
    /// Seconds per move, if limited by time.
    pub time: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Dynamic komi per handicap stone (`None`: the search's default; see
    /// [`crate::mcts::search_komi`]).
    pub dyn_komi: Option<f32>,
    /// The longest think for one move (`None`: the search's default).
    pub max_move_time: Option<f64>,
    /// Lag charged to our own clock per move (`None`: the search's
    /// default).
    pub lag: Option<f64>,
    /// Tuning settings `KEY=VALUE` applied to the search's configuration
    /// in order ([`SearchConfig::set`]; the search player only). They are
    /// checked when parsed: one that does not apply is skipped.
    pub settings: Vec<String>,
}

impl PlayerSpec {
    /// The player's name and settings, for records: `random playouts=-
    /// time=- threads=1`.
    pub fn describe(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        let mut d = format!(
            "{} playouts={} time={} threads={}",
            self.kind.name(),
            opt(self.playouts.map(|p| p.to_string())),
            opt(self.time.map(|t| t.to_string())),
            self.threads.max(1)
        );
        if let Some(k) = self.dyn_komi {
            d.push_str(&format!(" dyn-komi={k}"));
        }
        if let Some(t) = self.max_move_time {
            d.push_str(&format!(" max-move-time={t}"));
        }
        if let Some(l) = self.lag {
            d.push_str(&format!(" lag={l}"));
        }
        for s in &self.settings {
            d.push_str(&format!(" set:{s}"));
        }
        d
    }

    /// The lag our player charges its own clock per move.
    pub fn lag(&self) -> f64 {
        self.lag.unwrap_or(SearchConfig::default().lag_margin)
    }
}

/// Builds our player for `spec`, seeded with `seed`. The random player
/// ignores the search settings. The search player thinks `spec.time`
/// seconds or `spec.playouts` playouts a move (its default time when
/// neither is given); with one thread and a playout limit it is
/// deterministic.
pub fn make_player(spec: &PlayerSpec, seed: u64) -> Box<dyn Player> {
    match spec.kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
        PlayerKind::Search => {
            let mut cfg = SearchConfig {
                threads: spec.threads.max(1),
                seed,
                max_playouts: spec.playouts,
                time_per_move: spec.time,
                ..SearchConfig::default()
            };
            if let Some(k) = spec.dyn_komi {
                cfg.dyn_komi_per_stone = k;
            }
            if let Some(t) = spec.max_move_time {
                cfg.max_move_time = t;
            }
            if let Some(l) = spec.lag {
                cfg.lag_margin = l;
            }
            for s in &spec.settings {
                // Checked by the parser already; a bad one changes nothing.
                let _ = cfg.set(s);
            }
            Box::new(MctsPlayer::new(cfg))
        }
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

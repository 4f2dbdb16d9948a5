//! Benchmarks of the search (`kosumi bench --search`) and the seeded
//! middle-game positions they start from.

use super::{MctsPlayer, NnStats, PlayerKind, SearchArgs, SearchConfig};
use crate::game::Game;
use crate::playout::policy;
use crate::point::Move;
use crate::rules::Rules;

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
        let mv = policy::choose_move(&mut b, c, last, &mut rng, &cfg.playout)
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
    /// Seconds the searches took, all repetitions.
    pub seconds: f64,
    /// What the network prior cost them (nothing without `--nn`).
    pub nn: NnStats,
    /// Whether the searches had a network prior.
    pub with_nn: bool,
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

    /// The network's figures for the benchmark's line, empty without a
    /// network: evaluations a search, their seconds a search and their
    /// share of the search's time.
    pub fn nn_text(&self) -> String {
        if !self.with_nn {
            return String::new();
        }
        let runs = self.rates.len().max(1) as f64;
        format!(
            " nn_evals_per_search={:.1} nn_s_per_search={:.4} search_s={:.4} nn_share={:.1}%",
            self.nn.evals as f64 / runs,
            self.nn.seconds / runs,
            self.seconds / runs,
            100.0 * self.nn.seconds / self.seconds.max(1e-9)
        )
    }
}

/// Runs `kosumi bench --nn` (without `--search`): the evaluation speed of
/// a random network of `shape` when given, else of `--nn`'s network (a
/// random 6x64 for `--nn none`), `--playouts / 20` positions a
/// measurement.
pub fn run_nn_bench(
    args: &SearchArgs,
    shape: Option<(usize, usize)>,
    seed: u64,
) -> std::process::ExitCode {
    let positions = args.playouts.unwrap_or(BENCH_PLAYOUTS).min(100_000) as usize / 20;
    match (shape, args.nn.as_ref().and_then(|n| n.net())) {
        (None, Some(net)) => crate::nn::cli::run_bench_net(net.network(), positions),
        (shape, _) => {
            let (b, c) = shape.unwrap_or((6, 64));
            crate::nn::cli::run_bench(b, c, positions, seed)
        }
    }
}

/// Playouts of a benchmark run unless `--playouts` says otherwise.
pub const BENCH_PLAYOUTS: u64 = 20_000;

/// The search configuration of `kosumi bench --search` from its search
/// options: [`SearchArgs::search_config`] with one thread unless
/// `--threads` says otherwise, [`BENCH_PLAYOUTS`] playouts unless
/// `--playouts` does, a fresh tree each search and no early stop.
///
/// # Errors
/// `--player random` (the benchmark measures the search), or time
/// options that do not go together.
pub fn bench_config(args: &SearchArgs, seed: u64) -> Result<SearchConfig, String> {
    if args.kind != PlayerKind::Search {
        return Err("--search measures the search player, not --player random".into());
    }
    args.check()?;
    let mut cfg = args.search_config(seed, 1);
    cfg.max_playouts = Some(args.playouts.unwrap_or(BENCH_PLAYOUTS));
    cfg.early_stop = false;
    cfg.reuse_tree = false;
    Ok(cfg)
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
    let cfg = SearchConfig {
        threads,
        seed,
        max_playouts: Some(playouts),
        early_stop: false,
        reuse_tree: false,
        ..SearchConfig::default()
    };
    bench_search_config(game, cfg, repeat)
}

/// Runs `repeat` searches of `cfg.max_playouts` playouts each (1 when
/// unset) on `game` with the settings of `cfg` and measures playouts per
/// second.
pub fn bench_search_config(game: &Game, cfg: SearchConfig, repeat: usize) -> SearchBench {
    let playouts = cfg.max_playouts.unwrap_or(1);
    let with_nn = cfg.nn.net.as_ref().is_some_and(|n| n.covers(game.size()));
    let mut p = MctsPlayer::new(cfg);
    let mut rates = Vec::new();
    let mut seconds = 0.0;
    for _ in 0..repeat.max(1) {
        let start = std::time::Instant::now();
        let a = p.search_playouts(game, playouts);
        let s = start.elapsed().as_secs_f64();
        seconds += s;
        rates.push(a.playouts as f64 / s.max(1e-9));
    }
    SearchBench {
        rates,
        nodes: p.tree_nodes(),
        seconds,
        nn: p.nn_stats(),
        with_nn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_config_measures_the_search_alone() {
        let a = SearchArgs {
            kind: PlayerKind::Search,
            ..SearchArgs::default()
        };
        let c = bench_config(&a, 3).expect("search");
        assert_eq!((c.threads, c.seed), (1, 3));
        assert_eq!(c.max_playouts, Some(BENCH_PLAYOUTS));
        assert!(!c.early_stop && !c.reuse_tree);
        assert!(bench_config(&SearchArgs::default(), 3).is_err(), "random");
    }

    #[test]
    fn a_bench_runs_its_playouts_and_the_middle_game_is_seeded() {
        let g = middle_game(9, 0.4, 2).expect("position");
        let again = middle_game(9, 0.4, 2).expect("position");
        assert_eq!(g.board(), again.board());
        assert!(g.board().points().any(|p| !g.board().is_empty(p)));
        let r = bench_search(&g, 1, 200, 2, 1);
        assert_eq!(r.rates.len(), 2);
        assert!(r.rates.iter().all(|&x| x > 0.0));
        assert!(r.nodes > 1);
        assert!(r.median() > 0.0);
    }
}

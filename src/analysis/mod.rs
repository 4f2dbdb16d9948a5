//! `kosumi analysis`: KataGo's JSON analysis protocol on stdin/stdout, as
//! KataGo's `docs/Analysis_Engine.md` documents it, served by the tree
//! search.
//!
//! One JSON query per line in, one JSON response per line out, in any
//! order; several positions are searched at once (`--analysis-threads`,
//! each with `--threads` search threads). At the end of input the queued
//! queries are finished before the engine exits.
//!
//! Queries: `id`, `moves`, `initialStones`, `initialPlayer`, `rules` (a
//! name or an object, see [`query::parse_rules`]), `komi`, `boardXSize` and
//! `boardYSize` (equal: Kosumi plays on square boards, 2 to 25),
//! `analyzeTurns`, `maxVisits`, `analysisPVLen`, `includeOwnership`,
//! `includeMovesOwnership` (uniform-playout ownership after each
//! candidate, cheap and rough), `includePVVisits`, `avoidMoves`,
//! `allowMoves`, `priority`, `priorities`, `reportDuringSearchEvery`,
//! `overrideSettings` (`maxVisits`, `maxPlayouts`, `maxTime`,
//! `reportAnalysisWinratesAs`, `analysisPVLen`, `cpuctExploration` (the
//! policy term's `puct`), `numSearchThreads`, and any key of `kosumi
//! --set`; others get KataGo's `Unknown config params` warning).
//! Actions: `query_version`,
//! `clear_cache` (nothing to clear: every search starts afresh),
//! `terminate`, `terminate_all`.
//!
//! Responses: `id`, `isDuringSearch`, `turnNumber`, `moveInfos` (`move`,
//! `visits`, `winrate`, `scoreMean`, `scoreStdev`, `scoreLead`, `prior`,
//! `lcb`, `order`, `pv`, `pvVisits`, `ownership`), `rootInfo` (`winrate`,
//! `scoreLead`, `scoreStdev`, `visits`, `currentPlayer`, `thisHash`,
//! `symHash`), `ownership` and `policy` (`includePolicy`: the network's
//! move probabilities, row by row from the top, then the pass, -1 where
//! a move is illegal; on a board size the network covers, and with a
//! warning and left out elsewhere or under `--nn none`). Win rates, score leads and ownership are
//! Black's by default, as KataGo's example analysis configuration reports
//! them; `--report-as white|side` changes that. The scores are the mean
//! final scores of the search's playouts, not a network's estimate.
//!
//! Left out, since only a network's value, score or ownership heads
//! would fill them: `humanPrior`, `utility`, `utilityLcb`,
//! `scoreSelfplay`, the ownership deviations. Asking for the deviations
//! gets a warning and the query runs without them; `rootPolicyTemperature` and
//! `rootFpuReductionMax` get a warning and are ignored.
//!
//! Errors and warnings are KataGo's lines: `{"error": ..., "field": ...,
//! "id": ...}` and `{"warning": ..., "field": ..., "id": ...}`, with
//! KataGo's texts where it has one. Kosumi refuses what KataGo's engine
//! would accept but Kosumi cannot analyse: a non-square board, button
//! rules, `tax: ALL`, and a move the rules forbid (KataGo's engine plays
//! through superko and ko; Kosumi answers `Illegal move N: VERTEX`).

pub mod engine;
pub mod query;
pub mod response;

pub use engine::{serve, Version};
pub use query::{Defaults, Perspective};

use crate::mcts::SearchConfig;

/// The options of `kosumi analysis`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalysisArgs {
    /// Positions analysed at once (KataGo's numAnalysisThreads).
    #[arg(long, default_value_t = 2, value_parser = crate::settings::threads)]
    pub analysis_threads: usize,
    /// Search threads per position (KataGo's
    /// numSearchThreadsPerAnalysisThread).
    #[arg(long, default_value_t = 1, value_parser = crate::settings::threads)]
    pub threads: usize,
    /// Visits per position when a query gives no maxVisits.
    #[arg(long, default_value_t = 500, value_parser = crate::settings::playouts)]
    pub visits: u64,
    /// Whose side win rates, score leads and ownership are reported from:
    /// black (the default, as KataGo's example configuration), white, or
    /// side (the side to move).
    #[arg(long, default_value = "black", value_parser = Perspective::parse)]
    pub report_as: Perspective,
    /// The longest principal variation reported.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub pv_len: u64,
    /// Random seed of the searches (every position starts from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The network as the search's prior (`--nn`).
    #[command(flatten)]
    pub nn: crate::mcts::NnOption,
}

/// Runs `kosumi analysis` on stdin and stdout until the end of input.
pub fn run(args: &AnalysisArgs, version: Version) {
    let defaults = Defaults {
        cfg: SearchConfig {
            threads: args.threads,
            seed: args.seed,
            no_resign: true,
            nn: args.nn.config(),
            ..SearchConfig::default()
        },
        visits: args.visits,
        perspective: args.report_as,
        pv_len: args.pv_len as usize,
    };
    let stdin = std::io::stdin();
    serve(
        &defaults,
        args.analysis_threads,
        &version,
        stdin.lock(),
        std::io::stdout(),
    );
}

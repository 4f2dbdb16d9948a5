//! Soak: a long 19x19 analysis must keep the tree under its node cap and
//! the whole process's memory (peak RSS) under the `--max-memory` budget
//! the cap comes from. Ignored by default (ten minutes); run with
//!
//! ```sh
//! KOSUMI_SOAK_SECS=600 KOSUMI_SOAK_MB=256 \
//!   cargo test --release --test mcts_soak -- --ignored --nocapture
//! ```

use kosumi::mcts::search::Limits;
use kosumi::mcts::time::TimeBudget;
use kosumi::mcts::{MctsPlayer, SearchConfig};
use kosumi::{Color, Game, Rules};
use std::time::Duration;

/// Resident set size in bytes (Linux), if known.
fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
#[ignore = "runs for minutes; see the module docs"]
fn long_19x19_analysis_stays_under_the_memory_cap() {
    let secs: f64 = std::env::var("KOSUMI_SOAK_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600.0);
    let mb: usize = std::env::var("KOSUMI_SOAK_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let cap_bytes = mb * 1024 * 1024;
    let cfg = SearchConfig {
        threads: 2,
        max_nodes: SearchConfig::nodes_for_memory(cap_bytes),
        early_stop: false,
        ..SearchConfig::default()
    };
    let cap_nodes = cfg.max_nodes;
    let game = Game::new(19, Rules::default(), kosumi::Komi::default()).unwrap();
    let mut p = MctsPlayer::new(cfg);
    let mut peak = 0u64;
    let a = p.analyze(
        &game,
        Color::Black,
        Limits {
            playouts: None,
            time: Some(TimeBudget {
                target: secs,
                max: secs,
            }),
        },
        None,
        Duration::from_secs(10),
        &mut |a| {
            let rss = rss_bytes().unwrap_or(0);
            peak = peak.max(rss);
            println!(
                "playouts {} visits {} best {:?} rss {} MB",
                a.playouts,
                a.visits,
                a.candidates.first().map(|c| c.mv),
                rss >> 20
            );
        },
    );
    println!(
        "done: {} playouts, {} nodes of {cap_nodes}, peak rss {} MB",
        a.playouts,
        p.tree_nodes(),
        peak >> 20
    );
    assert!(p.tree_nodes() <= cap_nodes + 1024);
    // The whole process, not only the tree, stays within the budget.
    assert!(peak <= cap_bytes as u64, "peak rss {peak}");
}

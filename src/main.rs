//! The `kosumi` command line: subcommands and wiring only.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "kosumi", version, about = "Kosumi, a Go engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Uniform random playouts per second (the rules-core speed benchmark).
    Bench {
        /// Board size.
        #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u64).range(2..=25))]
        size: u64,
        /// Number of playouts.
        #[arg(long, default_value_t = 20000)]
        playouts: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Benchmark the tree search instead (playouts per search, default 20000).
        #[arg(long)]
        search: bool,
        /// Search threads (with --search).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Start position (with --search): `empty` or `middle`.
        #[arg(long, default_value = "empty", value_parser = ["empty", "middle"])]
        position: String,
        /// Repetitions (with --search); the median is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
        repeat: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench {
            size,
            playouts,
            seed,
            search: true,
            threads,
            position,
            repeat,
        }) => {
            let size = size as usize;
            let game = if position == "middle" {
                kosumi::mcts::middle_game(size, 0.4, seed)
            } else {
                kosumi::Game::new(size, kosumi::Rules::default(), 7.5).ok()
            };
            let Some(game) = game else {
                eprintln!("kosumi: cannot set up a {size}x{size} {position} position");
                return ExitCode::FAILURE;
            };
            let r = kosumi::mcts::bench_search(
                &game,
                threads as usize,
                playouts,
                repeat as usize,
                seed,
            );
            let rates: Vec<String> = r.rates.iter().map(|x| format!("{x:.0}")).collect();
            println!(
                "search size={size} position={position} threads={threads} playouts={playouts} median_playouts_per_s={:.0} runs=[{}] nodes={}",
                r.median(),
                rates.join(","),
                r.nodes
            );
            ExitCode::SUCCESS
        }
        Some(Command::Bench {
            size,
            playouts,
            seed,
            ..
        }) => {
            let r = kosumi::playout::bench(size as usize, playouts, seed);
            println!("{}", r.line());
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("kosumi: the GTP engine is not built yet; try `kosumi bench`");
            ExitCode::FAILURE
        }
    }
}

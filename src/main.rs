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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench {
            size,
            playouts,
            seed,
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

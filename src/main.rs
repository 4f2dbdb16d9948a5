//! The `kosumi` command line: subcommands and wiring only.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "kosumi", version, about = "Kosumi, a Go engine")]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: the GTP engine with these options.
    #[command(flatten)]
    gtp: GtpArgs,
}

/// Options of the GTP engine (`kosumi gtp`, also the default).
#[derive(clap::Args, Clone, Debug)]
struct GtpArgs {
    /// Rules: chinese, japanese, aga, new_zealand, tromp-taylor.
    #[arg(long, default_value = "chinese", value_parser = |s: &str| s.parse::<kosumi::Rules>().map_err(|e| e.to_string()))]
    rules: kosumi::Rules,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    komi: f32,
    /// Board size at start.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u64).range(2..=25))]
    size: u64,
    /// Search threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Playouts per move (also bounds analysis without the I/O loop).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    playouts: Option<u64>,
    /// Seconds per move (a cap besides the clock; default: the clock, or 1 s
    /// per move without one).
    #[arg(long)]
    time: Option<f64>,
    /// Tree memory cap in MiB.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    max_memory: Option<u64>,
    /// Never resign.
    #[arg(long)]
    no_resign: bool,
    /// Think on the opponent's time (until the next command arrives).
    #[arg(long)]
    ponder: bool,
    /// The player: `mcts` (the search, default) or `random` (for tests).
    #[arg(long, default_value = "mcts", value_parser = ["mcts", "random"])]
    player: String,
    /// Random seed of the player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Log more to stderr.
    #[arg(long)]
    verbose: bool,
}

fn run_gtp(a: GtpArgs) -> ExitCode {
    if !a.komi.is_finite() || a.time.is_some_and(|t| !t.is_finite() || t <= 0.0) {
        eprintln!("kosumi: invalid --komi or --time");
        return ExitCode::from(2);
    }
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let config = kosumi::gtp::Config {
        size: a.size as usize,
        komi: a.komi,
        rules: a.rules,
        seed: a.seed,
        threads,
        playouts: a.playouts,
        time: a.time,
        verbose: a.verbose,
        ponder: a.ponder,
    };
    let mut engine = if a.player == "random" {
        kosumi::gtp::Engine::with_random_player(config)
    } else {
        let mut cfg = kosumi::mcts::SearchConfig {
            threads,
            seed: a.seed,
            max_playouts: a.playouts,
            time_per_move: a.time,
            no_resign: a.no_resign,
            ..kosumi::mcts::SearchConfig::default()
        };
        if let Some(mib) = a.max_memory {
            cfg.max_nodes =
                kosumi::mcts::SearchConfig::nodes_for_memory(mib as usize * 1024 * 1024);
        }
        kosumi::gtp::Engine::with_search(config, kosumi::mcts::MctsPlayer::new(cfg))
    };
    if a.verbose {
        eprintln!(
            "kosumi: GTP engine ready ({} player, {threads} threads, seed {})",
            a.player, a.seed
        );
    }
    match kosumi::gtp::io::run(&mut engine, std::io::stdin(), std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kosumi: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// The GTP v2 engine on stdin/stdout (the default).
    Gtp(GtpArgs),
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
    /// Replay SGF files: one line per game (size, moves, rules, komi, the
    /// result in the file, the Tromp-Taylor area score of the final
    /// position, the first illegal move); exit status 1 if any file or game
    /// failed.
    Replay {
        /// SGF files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
        /// Replay under these rules (chinese, japanese, aga, new_zealand,
        /// tromp-taylor) instead of each record's RU.
        #[arg(long, value_parser = parse_rules)]
        rules: Option<kosumi::Rules>,
        /// Refuse every leniency (see the sgf module docs).
        #[arg(long)]
        strict: bool,
        /// Play through ko, superko and multi-stone suicide violations.
        #[arg(long)]
        tolerant: bool,
        /// Replay only the first MOVE moves of each game.
        #[arg(long, value_name = "MOVE")]
        until: Option<usize>,
        /// Print the final position of each game.
        #[arg(long)]
        board: bool,
        /// Print the leniencies used (on stderr).
        #[arg(long)]
        warnings: bool,
    },
}

fn parse_rules(s: &str) -> Result<kosumi::Rules, String> {
    kosumi::Rules::preset(s).map_err(|e| e.to_string())
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
        Some(Command::Gtp(a)) => run_gtp(a),
        Some(Command::Replay {
            files,
            rules,
            strict,
            tolerant,
            until,
            board,
            warnings,
        }) => {
            let opts = kosumi::sgf::ReplayOptions {
                rules,
                strict,
                tolerant,
                stop_before: None,
            };
            let mut ok = true;
            for f in &files {
                let rep = kosumi::sgf::report::replay_file(f, &opts, until);
                if warnings {
                    for w in &rep.warnings {
                        eprintln!("warning: {w}");
                    }
                }
                for (i, line) in rep.lines.iter().enumerate() {
                    println!("{line}");
                    if board {
                        if let Some(Some(b)) = rep.boards.get(i) {
                            println!("{b}");
                        }
                    }
                }
                ok &= rep.ok;
            }
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        None => run_gtp(cli.gtp),
    }
}

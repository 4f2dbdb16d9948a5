//! The `kosumi` command line: subcommands and wiring only.

use clap::{Args, Parser, Subcommand};
use std::process::ExitCode;

/// `println!` for what the reports write on standard output. A reader
/// that stops early (`kosumi replay *.sgf | head`) closes the pipe, and
/// `println!` would panic on the next line; `say!` ends the program
/// quietly with success instead, as Unix tools do. Any other write error
/// is reported and exits with 1.
macro_rules! say {
    ($($arg:tt)*) => {
        write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes and flushes `args` on standard output, ending the program as
/// [`say!`] describes when that fails.
fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        drop(out);
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("kosumi: standard output: {e}");
        std::process::exit(1);
    }
}

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
    /// Komi (finite, at most 1000 either way).
    #[arg(long, default_value = "7.5", allow_negative_numbers = true, value_parser = parse_komi)]
    komi: kosumi::Komi,
    /// Board size at start.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u64).range(2..=25))]
    size: u64,
    /// Search threads (default: all cores; at most 4 x the cores).
    #[arg(long, value_parser = kosumi::settings::threads)]
    threads: Option<usize>,
    /// Playouts per move (also bounds analysis without the I/O loop).
    #[arg(long, value_parser = kosumi::settings::playouts)]
    playouts: Option<u64>,
    /// Seconds per move (a cap besides the clock; default: the clock, or 1 s
    /// per move without one). At most one day.
    #[arg(long)]
    time: Option<f64>,
    /// The longest think for one move, whatever the clock (default 60;
    /// at most one day).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    max_move_time: Option<f64>,
    /// Seconds of lag charged to the engine's own clock per move on top of
    /// the time it measures, and kept back per move (default 0.05; 0 to 60).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    lag: Option<f64>,
    /// Tree memory cap in MiB.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    max_memory: Option<u64>,
    /// Never resign.
    #[arg(long)]
    no_resign: bool,
    /// Dynamic komi in handicap games: points per handicap stone at the
    /// start, falling to nothing by mid-game (0 turns it off).
    #[arg(long, value_name = "POINTS", default_value_t = 7.0, value_parser = kosumi::settings::dyn_komi)]
    dyn_komi: f32,
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
    /// Answer `version` with TEXT instead of Kosumi's version (as KataGo's
    /// -override-version), for a GUI that reads the version as another
    /// engine's: Lizzie warns unless a non-KataGo engine's version is 0.15
    /// or later. `name` still answers Kosumi.
    #[arg(long, value_name = "TEXT")]
    override_version: Option<String>,
    /// Priors of new tree nodes: `patterns` (the learned move ratings, the
    /// default) or `hand` (the hand-written knowledge alone).
    #[arg(long, value_name = "patterns|hand", default_value = "patterns")]
    priors: kosumi::mcts::PriorSource,
    /// Virtual visits the pattern priors give each move on 9x9 (on every
    /// size unless `--set prior_growth` scales them; for tuning).
    #[arg(long, value_name = "N", hide = true)]
    prior_visits: Option<f32>,
    /// Exponent on a move's rating relative to the best (for tuning).
    #[arg(long, value_name = "X", hide = true)]
    prior_exponent: Option<f32>,
    /// Keep the hand priors beside the pattern priors (for tuning).
    #[arg(long, value_name = "yes|no", hide = true, action = clap::ArgAction::Set, value_parser = parse_yes_no)]
    prior_hand: Option<bool>,
    /// Learned 3x3 ratings in the playouts' shape step (for matches; the
    /// same as `--set playout_gammas=yes|no`).
    #[arg(long, value_name = "yes|no", hide = true, action = clap::ArgAction::Set, value_parser = parse_yes_no)]
    playout_gammas: Option<bool>,
    /// A tuning setting KEY=VALUE (repeatable; for A/B matches).
    #[arg(long = "set", value_name = "KEY=VALUE", hide = true, value_parser = parse_setting)]
    settings: Vec<String>,
}

fn run_gtp(a: GtpArgs) -> ExitCode {
    // --time, --max-move-time and --lag: the clock's own check.
    if let Err(e) = time_options(a.time, a.max_move_time, a.lag).check() {
        eprintln!("kosumi: {e}");
        return ExitCode::from(2);
    }
    // One token of printable ASCII: it goes into a response line as it is.
    if a.override_version
        .as_deref()
        .is_some_and(|v| v.is_empty() || !v.bytes().all(|b| b.is_ascii_graphic() && b != b'#'))
    {
        eprintln!("kosumi: --override-version takes printable ASCII without spaces or '#'");
        return ExitCode::from(2);
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
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
        lag: a
            .lag
            .unwrap_or(kosumi::mcts::SearchConfig::default().lag_margin),
        version: a.override_version,
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
            dyn_komi_per_stone: a.dyn_komi,
            ..kosumi::mcts::SearchConfig::default()
        };
        if let Some(t) = a.max_move_time {
            cfg.max_move_time = t;
        }
        if let Some(l) = a.lag {
            cfg.lag_margin = l;
        }
        if let Some(mib) = a.max_memory {
            cfg.max_nodes =
                kosumi::mcts::SearchConfig::nodes_for_memory(mib as usize * 1024 * 1024);
        }
        cfg.prior_source = a.priors;
        if let Some(v) = a.prior_visits {
            cfg.pattern_prior.visits = v;
        }
        if let Some(x) = a.prior_exponent {
            cfg.pattern_prior.exponent = x;
        }
        if let Some(h) = a.prior_hand {
            cfg.pattern_prior.hand = h;
        }
        if let Some(g) = a.playout_gammas {
            cfg.playout.gammas = g;
        }
        for s in &a.settings {
            // Checked by the parser already.
            let _ = cfg.set(s);
        }
        kosumi::gtp::Engine::new(config, Box::new(kosumi::mcts::MctsPlayer::new(cfg)))
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
        #[arg(long, default_value_t = 20000, value_parser = kosumi::settings::playouts)]
        playouts: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Benchmark the tree search instead (playouts per search, default 20000).
        #[arg(long)]
        search: bool,
        /// Search threads (with --search; at most 4 x the cores).
        #[arg(long, default_value_t = 1, value_parser = kosumi::settings::threads)]
        threads: usize,
        /// Start position (with --search): `empty` or `middle`.
        #[arg(long, default_value = "empty", value_parser = ["empty", "middle"])]
        position: String,
        /// Repetitions (with --search); the median is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
        repeat: u64,
        /// Learned 3x3 ratings in the playouts (with --search).
        #[arg(long, value_name = "yes|no", hide = true, action = clap::ArgAction::Set, value_parser = parse_yes_no)]
        playout_gammas: Option<bool>,
        /// Benchmark the network's evaluation instead (random weights, one
        /// core, 9x9 and 19x19; --playouts / 20 positions a measurement).
        #[arg(long)]
        nn: bool,
        /// The network's shape for --nn, BLOCKSxCHANNELS.
        #[arg(long, default_value = "6x64", value_parser = kosumi::nn::cli::parse_shape)]
        nn_shape: (usize, usize),
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
    /// Plays Kosumi against itself, one SGF file per game, and prints a
    /// summary; `selfplay summarize DIR...` merges the tables of runs or
    /// shards.
    #[command(args_conflicts_with_subcommands = true)]
    Selfplay {
        #[command(subcommand)]
        action: Option<SelfplayAction>,
        #[command(flatten)]
        args: SelfplayArgs,
    },
    /// Plays Kosumi against an outside GTP engine, colours alternating,
    /// and prints Kosumi's win rate.
    Match(MatchArgs),
    /// Runs GTP regression suites (`.tst` files, GNU Go / gogui-regress
    /// format) against Kosumi or any GTP engine; exit status 1 if a test
    /// failed unexpectedly.
    Regress(RegressArgs),
    /// Learned move patterns: `patterns train` fits Bradley-Terry ratings
    /// of move features on game records, `patterns eval` measures move
    /// prediction on the held-out records.
    Patterns {
        #[command(subcommand)]
        action: PatternsAction,
    },
    /// The neural network: `nn export` writes training positions, `nn
    /// eval` measures move prediction on the held-out records.
    Nn(kosumi::nn::cli::NnArgs),
}

#[derive(Subcommand)]
enum PatternsAction {
    /// Fits a pattern table on the records not held out and writes it.
    Train {
        /// Directories of SGF records (searched recursively).
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<std::path::PathBuf>,
        /// The table to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Hold out one file in N (by a hash of the file name; 0: none).
        #[arg(long, default_value_t = 10)]
        holdout: u32,
        /// MM iterations.
        #[arg(long, default_value_t = 25)]
        iterations: usize,
        /// A diamond enters the table when the moves played show it at
        /// least this many times.
        #[arg(long, default_value_t = 3)]
        min_count: u32,
        /// Virtual wins and losses against a gamma-1 opponent per feature
        /// (the prior; Coulom uses 1).
        #[arg(long, default_value_t = 1.0)]
        prior: f64,
        /// Leave these feature families out (comma-separated), for
        /// ablations.
        #[arg(long, value_delimiter = ',', value_parser = parse_family)]
        without: Vec<kosumi::patterns::Family>,
        /// Key the 3x3 shapes as the playout policy reads them (atari bits
        /// only, no marks of the previous moves): the playout gammas'
        /// table (`data/playout-gammas.tsv`).
        #[arg(long)]
        playout_shapes: bool,
    },
    /// Move prediction on the held-out records: top-1 and top-5 per board
    /// size, and top-1 with each feature family's gammas set to 1.
    Eval {
        /// Directories of SGF records (searched recursively).
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<std::path::PathBuf>,
        /// The table (default: the one built in).
        #[arg(long)]
        table: Option<std::path::PathBuf>,
        /// The hold-out used in training (0: evaluate on every file).
        #[arg(long, default_value_t = 10)]
        holdout: u32,
    },
}

fn parse_family(s: &str) -> Result<kosumi::patterns::Family, String> {
    kosumi::patterns::Family::from_name(s).ok_or_else(|| format!("unknown feature family '{s}'"))
}

fn run_patterns(action: PatternsAction) -> ExitCode {
    use kosumi::patterns;
    let mut log = |s: &str| eprintln!("{s}");
    match action {
        PatternsAction::Train {
            games,
            out,
            holdout,
            iterations,
            min_count,
            prior,
            without,
            playout_shapes,
        } => {
            if !(prior.is_finite() && prior > 0.0) {
                eprintln!("kosumi: --prior must be positive");
                return ExitCode::from(2);
            }
            let mut command = String::from("command: kosumi patterns train --games");
            for g in &games {
                command.push_str(&format!(" {}", g.display()));
            }
            command.push_str(&format!(
                " --out {} --holdout {holdout} --iterations {iterations} --min-count {min_count} --prior {prior}",
                out.display()
            ));
            if !without.is_empty() {
                let names: Vec<&str> = without.iter().map(|f| f.name()).collect();
                command.push_str(&format!(" --without {}", names.join(",")));
            }
            if playout_shapes {
                command.push_str(" --playout-shapes");
            }
            let cmd = patterns::TrainCommand {
                games,
                holdout,
                options: patterns::TrainOptions {
                    iterations,
                    min_count,
                    without,
                    prior,
                    header: vec![command],
                    playout_shapes,
                },
            };
            let table = match patterns::train_command(&cmd, &mut log) {
                Ok((t, _)) => t,
                Err(e) => {
                    eprintln!("kosumi: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if let Err(e) = std::fs::write(&out, table.to_text()) {
                eprintln!("kosumi: {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
            eprintln!("wrote {} features to {}", table.len(), out.display());
            ExitCode::SUCCESS
        }
        PatternsAction::Eval {
            games,
            table,
            holdout,
        } => {
            let loaded;
            let t = match table {
                Some(path) => {
                    let text = match std::fs::read_to_string(&path) {
                        Ok(t) => t,
                        Err(e) => {
                            eprintln!("kosumi: {}: {e}", path.display());
                            return ExitCode::FAILURE;
                        }
                    };
                    loaded = match patterns::PatternTable::parse(&text) {
                        Ok(t) => t,
                        Err(e) => {
                            eprintln!("kosumi: {}: {e}", path.display());
                            return ExitCode::FAILURE;
                        }
                    };
                    &loaded
                }
                None => patterns::PatternTable::builtin(),
            };
            match patterns::eval_command(&games, holdout, t, &mut log) {
                Ok(r) => {
                    write_stdout(format_args!("{}", patterns::eval_text(&r)));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("kosumi: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

#[derive(Args)]
struct RegressArgs {
    /// The `.tst` files; each runs with its folder as working directory.
    #[arg(required = true, value_name = "FILE.tst")]
    files: Vec<std::path::PathBuf>,
    /// The engine's command line, e.g. 'gnugo --mode gtp' (default: this
    /// Kosumi, `kosumi gtp` with the engine options given here).
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Engine processes at once: suites in parallel, or pieces of a suite
    /// each started with the suite's state replayed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
    /// Seconds a command may take before the engine counts as hung (it is
    /// then killed, the test fails and the engine is restarted; at most a
    /// day).
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS", value_parser = kosumi::settings::seconds)]
    timeout: f64,
    /// Print the results as one JSON line.
    #[arg(long)]
    json: bool,
    /// Options of Kosumi's own engine (ignored with --engine).
    #[command(flatten)]
    gtp: GtpArgs,
}

/// Settings shared by `selfplay` and `match`.
#[derive(Args, Clone)]
struct GameArgs {
    /// Number of games (for a sharded self-play run: of the whole run).
    #[arg(long, default_value_t = 10, value_parser = kosumi::settings::games)]
    games: usize,
    /// Board size.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u64).range(2..=25))]
    size: u64,
    /// Komi (finite, at most 1000 either way).
    #[arg(long, default_value = "7.5", allow_negative_numbers = true, value_parser = parse_komi)]
    komi: kosumi::Komi,
    /// Rules: chinese, japanese, aga, new_zealand, tromp-taylor.
    #[arg(long, default_value = "chinese", value_parser = parse_rules)]
    rules: kosumi::Rules,
    /// Kosumi's player: search (Monte-Carlo tree search) or random.
    #[arg(long, default_value = "search", value_parser = parse_player_kind)]
    player: kosumi::play::PlayerKind,
    /// Kosumi's playouts per move (for the search player).
    #[arg(long, value_parser = kosumi::settings::playouts)]
    playouts: Option<u64>,
    /// Kosumi's seconds per move (for the search player; at most a day).
    #[arg(long)]
    time: Option<f64>,
    /// Kosumi's longest think for one move (for the search player;
    /// default 60).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    max_move_time: Option<f64>,
    /// Lag Kosumi charges its own clock per move (default 0.05).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    lag: Option<f64>,
    /// Kosumi's search threads (at most 4 x the cores).
    #[arg(long, default_value_t = 1, value_parser = kosumi::settings::threads)]
    threads: usize,
    /// Fixed handicap stones for Black (White moves first); 0 for none.
    #[arg(long, default_value_t = 0)]
    handicap: usize,
    /// Kosumi's dynamic komi in handicap games, points per handicap stone
    /// at the start (0 turns it off; default 7).
    #[arg(long, value_name = "POINTS", value_parser = kosumi::settings::dyn_komi)]
    dyn_komi: Option<f32>,
    /// Base random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Moves (passes counted) after which a game is stopped and counted;
    /// default 3 x size x size.
    #[arg(long, value_parser = kosumi::settings::max_moves)]
    max_moves: Option<usize>,
    /// Print the summary as one JSON line.
    #[arg(long)]
    json: bool,
    /// A tuning setting KEY=VALUE of Kosumi's search (repeatable; for A/B
    /// matches).
    #[arg(long = "set", value_name = "KEY=VALUE", hide = true, value_parser = parse_setting)]
    settings: Vec<String>,
}

#[derive(Args)]
struct SelfplayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Output directory for the SGF files and the table.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = kosumi::settings::jobs)]
    jobs: usize,
    /// Play only shard I of N (0-based; the games with index % N == I).
    #[arg(long, value_parser = parse_shard)]
    shard: Option<kosumi::play::selfplay::Shard>,
    /// Also write each game's root visit counts beside its record
    /// (`game-NNNNNN.visits`), the policy targets of `nn export`.
    #[arg(long)]
    visits: bool,
}

#[derive(Subcommand)]
enum SelfplayAction {
    /// Merges the tables in one or more self-play output directories.
    Summarize {
        /// Directories written by `kosumi selfplay --out`.
        #[arg(required = true)]
        dirs: Vec<std::path::PathBuf>,
        /// Print the summary as one JSON line.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The opponent's GTP command line, e.g. 'gnugo --mode gtp --level 10'.
    #[arg(long)]
    opponent: String,
    /// A referee's command line; games ending by passes or the move cap
    /// are scored with its final_score instead of Kosumi's own count.
    #[arg(long)]
    referee: Option<String>,
    /// Seconds a side may take for one move (or a command) before it loses
    /// on time (at most a day).
    #[arg(long, default_value_t = 60.0, value_parser = kosumi::settings::seconds)]
    move_timeout: f64,
    /// A game clock for both sides: MAIN (sudden death), MAIN+PERIODxN
    /// (byo-yomi, N periods), MAIN+PERIOD/N (Canadian, N stones a period)
    /// or none; seconds, e.g. 20, 0+1x1, 600+30x5, 600+300/25.
    #[arg(long, value_name = "SPEC", default_value = "none", value_parser = parse_clock)]
    clock: kosumi::clock::TimeSettings,
    /// The opponent's clock when it differs from --clock (same forms; none
    /// leaves it unclocked, for engines that cannot keep a short clock).
    #[arg(long, value_name = "SPEC", value_parser = parse_clock)]
    opponent_clock: Option<kosumi::clock::TimeSettings>,
    /// With --clock: send each side `time_left` before each of its moves.
    #[arg(long, value_name = "yes|no", default_value = "no", action = clap::ArgAction::Set, value_parser = parse_yes_no)]
    time_left: bool,
    /// Output directory for the SGF files (none written without it).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Sequential probability ratio test: stop as soon as the games
    /// accept ELO1 (Kosumi that much stronger) or ELO0; `--games` is the
    /// most games played. Games come in pairs, one seed and colours
    /// swapped. ALPHA and BETA default to 0.05.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = parse_sprt)]
    sprt: Option<kosumi::sprt::SprtConfig>,
}

fn parse_sprt(s: &str) -> Result<kosumi::sprt::SprtConfig, String> {
    kosumi::sprt::SprtConfig::parse(s).map_err(|e| e.to_string())
}

fn parse_clock(s: &str) -> Result<kosumi::clock::TimeSettings, String> {
    s.parse()
        .map_err(|e: kosumi::clock::ClockSpecError| e.to_string())
}

/// A tuning setting that applies to the default search configuration.
fn parse_setting(s: &str) -> Result<String, String> {
    kosumi::mcts::SearchConfig::default().set(s)?;
    Ok(s.to_string())
}

fn parse_yes_no(s: &str) -> Result<bool, String> {
    match s {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("expected yes or no, not '{s}'")),
    }
}

fn time_options(
    time: Option<f64>,
    max_move_time: Option<f64>,
    lag: Option<f64>,
) -> kosumi::clock::TimeOptions {
    kosumi::clock::TimeOptions {
        time,
        max_move_time,
        lag,
    }
}

fn parse_rules(s: &str) -> Result<kosumi::Rules, String> {
    kosumi::Rules::preset(s).map_err(|e| e.to_string())
}

fn parse_komi(s: &str) -> Result<kosumi::Komi, String> {
    kosumi::Komi::parse(s).map_err(|e| e.to_string())
}

fn parse_shard(s: &str) -> Result<kosumi::play::selfplay::Shard, String> {
    s.parse()
}

/// Raised by the first Ctrl-C; a second one exits at once.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn install_ctrlc() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nkosumi: stopping after the finished games (Ctrl-C again to quit at once)");
    });
}

/// Prints a run's summary (`json` or `text` as `--json` asks) and gives
/// the exit status.
fn print_summary(as_json: bool, json: String, text: String) -> ExitCode {
    say!("{}", if as_json { json } else { text });
    finish_code()
}

fn progress_bar(len: usize) -> indicatif::ProgressBar {
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(len as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}  eta {eta}",
        )
        .expect("constant template")
        .progress_chars("=> "),
    );
    pb
}

/// Checks what clap's parsers cannot: `--time`, `--max-move-time` and
/// `--lag` together (the clock's own check).
fn check_game_args(g: &GameArgs) -> Result<(), String> {
    time_options(g.time, g.max_move_time, g.lag)
        .check()
        .map_err(|e| e.to_string())
}

fn game_config(g: &GameArgs) -> kosumi::play::GameConfig {
    let size = g.size as usize;
    let mut cfg = kosumi::play::GameConfig::new(size);
    cfg.komi = g.komi;
    cfg.rules = g.rules;
    cfg.handicap = g.handicap;
    if let Some(m) = g.max_moves {
        cfg.max_moves = m;
    }
    cfg
}

fn parse_player_kind(s: &str) -> Result<kosumi::play::PlayerKind, String> {
    match s {
        "search" | "mcts" => Ok(kosumi::play::PlayerKind::Search),
        "random" => Ok(kosumi::play::PlayerKind::Random),
        _ => Err(format!("unknown player '{s}' (search, random)")),
    }
}

fn player_spec(g: &GameArgs) -> kosumi::play::PlayerSpec {
    kosumi::play::PlayerSpec {
        kind: g.player,
        playouts: g.playouts,
        time: g.time,
        threads: g.threads,
        dyn_komi: g.dyn_komi,
        max_move_time: g.max_move_time,
        lag: g.lag,
        settings: g.settings.clone(),
    }
}

fn run_selfplay(a: SelfplayArgs) -> ExitCode {
    use kosumi::play::selfplay;
    let Some(out) = a.out else {
        eprintln!("kosumi selfplay: --out DIR is required");
        return ExitCode::from(2);
    };
    if let Err(e) = check_game_args(&a.game) {
        eprintln!("kosumi selfplay: {e}");
        return ExitCode::from(2);
    }
    let cfg = selfplay::SelfplayConfig {
        game: game_config(&a.game),
        games: a.game.games,
        seed: a.game.seed,
        player: player_spec(&a.game),
        jobs: a.jobs,
        shard: a.shard.unwrap_or_default(),
        out,
        visits: a.visits,
    };
    install_ctrlc();
    let pb = progress_bar(cfg.indices().len());
    let result = selfplay::run(&cfg, &STOP, &mut |_, s| {
        pb.inc(1);
        pb.set_message(format!(
            "Black {:.1}%",
            100.0 * s.black.rate().unwrap_or(0.0)
        ));
    });
    pb.finish_and_clear();
    match result {
        Ok(s) => print_summary(a.game.json, s.json(), s.text()),
        Err(e @ kosumi::play::selfplay::SelfplayError::OutInUse(..)) => {
            eprintln!("kosumi selfplay: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("kosumi selfplay: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_summarize(dirs: Vec<std::path::PathBuf>, json: bool) -> ExitCode {
    match kosumi::play::selfplay::summarize(&dirs) {
        Ok(m) => {
            if json {
                say!("{}", m.json());
            } else {
                say!(
                    "tables {}  games present {} of {}  duplicates {}  torn rows {}",
                    m.tables,
                    m.present,
                    m.expected,
                    m.duplicates,
                    m.torn
                );
                if m.unrecorded > 0 || m.missing > 0 {
                    say!(
                        "records without a row {} (not counted; resume the run to replay them)  \
                         rows without a record {}",
                        m.unrecorded,
                        m.missing
                    );
                }
                say!("settings: {}", m.settings);
                say!("{}", m.summary.text());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kosumi selfplay summarize: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(a: MatchArgs) -> ExitCode {
    use kosumi::play;
    if let Err(e) = check_game_args(&a.game) {
        eprintln!("kosumi match: {e}");
        return ExitCode::from(2);
    }
    let mut game = game_config(&a.game);
    game.move_timeout = Some(std::time::Duration::from_secs_f64(a.move_timeout));
    game.clock = [a.clock; 2];
    game.send_time_left = a.time_left;
    let cfg = play::MatchConfig {
        game,
        games: a.game.games,
        player: player_spec(&a.game),
        seed: a.game.seed,
        opponent: a.opponent.clone(),
        referee: a.referee.clone(),
        setup_timeout: std::time::Duration::from_secs_f64(a.move_timeout.max(10.0)),
        sprt: a.sprt,
        opponent_clock: a.opponent_clock,
    };
    let done = match &a.out {
        None => Vec::new(),
        Some(out) => match play::prepare_match_out(out, &cfg) {
            Ok(done) => done,
            Err(e @ play::MatchError::OutInUse(..)) => {
                eprintln!("kosumi match: {e}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("kosumi match: --out: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    if !done.is_empty() {
        eprintln!(
            "kosumi match: resuming after the {} games already in the table",
            done.len()
        );
    }
    install_ctrlc();
    let pb = progress_bar(cfg.games);
    pb.set_position(done.len() as u64);
    let date = today();
    let result = play::run_match_from(&cfg, &done, &STOP, &mut |g, s| {
        pb.inc(1);
        if let Some(uses) = g.record.clock {
            let k = g.kosumi.index();
            pb.suspend(|| {
                eprintln!(
                    "game {}: {} ({}), Kosumi {}: {}; opponent: {}",
                    g.index,
                    g.record.result,
                    g.record.ending.key(),
                    g.kosumi.name(),
                    uses[k].describe(),
                    uses[1 - k].describe()
                )
            });
        }
        pb.set_message(match &s.sprt {
            Some(t) => format!(
                "Kosumi {:.1}%  LLR {:.2} ({:.2}, {:.2})",
                100.0 * s.kosumi.rate().unwrap_or(0.0),
                t.llr(),
                t.config.lower_bound(),
                t.config.upper_bound()
            ),
            None => format!("Kosumi {:.1}%", 100.0 * s.kosumi.rate().unwrap_or(0.0)),
        });
        if let Some(out) = &a.out {
            let comment = format!(
                "Kosumi match game {} (0-based), Kosumi {} ({}), seed {}.\n\
                 Opponent: {}.\nReferee: {}.",
                g.index,
                g.kosumi.name(),
                cfg.player.describe(),
                cfg.game_seed(g.index),
                cfg.opponent,
                cfg.referee.as_deref().unwrap_or("none (own count)")
            );
            let text = play::record_to_sgf(
                &g.record,
                &format!("kosumi match game {}", g.index),
                &comment,
                date.clone(),
                Vec::new(),
            );
            let path = out.join(kosumi::play::selfplay::sgf_name(g.index));
            play::write_atomic(&path, text.as_bytes())
                .map_err(|e| play::MatchError::Io(path, e))?;
            // The row after its record: a kill between the two leaves an
            // uncounted record that a resumed match plays again.
            play::append_match_row(out, &play::MatchRow::of(g))?;
        }
        Ok(())
    });
    pb.finish_and_clear();
    match result {
        Ok(s) => print_summary(a.game.json, s.json(), s.text()),
        Err(e) => {
            eprintln!("kosumi match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The options of `kosumi gtp` that `a` holds, as command-line words.
fn gtp_words(a: &GtpArgs) -> Vec<String> {
    let mut w = vec![
        "gtp".to_string(),
        format!("--rules={}", a.rules),
        format!("--komi={}", a.komi),
        format!("--size={}", a.size),
        format!("--dyn-komi={}", a.dyn_komi),
        format!("--player={}", a.player),
        format!("--seed={}", a.seed),
    ];
    if let Some(t) = a.threads {
        w.push(format!("--threads={t}"));
    }
    if let Some(p) = a.playouts {
        w.push(format!("--playouts={p}"));
    }
    if let Some(t) = a.time {
        w.push(format!("--time={t}"));
    }
    if let Some(m) = a.max_memory {
        w.push(format!("--max-memory={m}"));
    }
    w.push(format!("--priors={}", a.priors));
    if let Some(v) = a.prior_visits {
        w.push(format!("--prior-visits={v}"));
    }
    if let Some(x) = a.prior_exponent {
        w.push(format!("--prior-exponent={x}"));
    }
    if let Some(h) = a.prior_hand {
        w.push(format!("--prior-hand={}", if h { "yes" } else { "no" }));
    }
    if let Some(g) = a.playout_gammas {
        w.push(format!("--playout-gammas={}", if g { "yes" } else { "no" }));
    }
    for s in &a.settings {
        w.push(format!("--set={s}"));
    }
    for (on, flag) in [
        (a.no_resign, "--no-resign"),
        (a.ponder, "--ponder"),
        (a.verbose, "--verbose"),
    ] {
        if on {
            w.push(flag.to_string());
        }
    }
    w
}

/// `word` quoted for `play::client::split_command_line`.
fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

fn run_regress(a: RegressArgs) -> ExitCode {
    use kosumi::regress;
    if !(a.timeout > 0.0 && a.timeout.is_finite()) {
        eprintln!("kosumi regress: --timeout must be a positive number of seconds");
        return ExitCode::from(2);
    }
    let engine = match a.engine {
        Some(e) => e,
        None => {
            let exe = match std::env::current_exe() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("kosumi regress: cannot find this program: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut words = vec![shell_quote(&exe.to_string_lossy())];
            words.extend(gtp_words(&a.gtp).iter().map(|w| shell_quote(w)));
            words.join(" ")
        }
    };
    let mut suites = Vec::new();
    for f in &a.files {
        match regress::suite::read_suite(f) {
            Ok(s) => suites.push(s),
            Err(e) => {
                eprintln!("kosumi regress: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let cfg = regress::run::RunConfig {
        engine,
        timeout: std::time::Duration::from_secs_f64(a.timeout),
        jobs: a.jobs as usize,
    };
    install_ctrlc();
    let tests: usize = suites.iter().map(|s| s.tests()).sum();
    let pb = progress_bar(tests);
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} tests  {msg}  eta {eta}",
        )
        .expect("constant template")
        .progress_chars("=> "),
    );
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let result = regress::run::run_suites(&suites, &cfg, &STOP, &|t| {
        if t.outcome.is_unexpected_failure() {
            failed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        pb.inc(1);
        pb.set_message(format!(
            "{} unexpected failures",
            failed.load(std::sync::atomic::Ordering::SeqCst)
        ));
    });
    pb.finish_and_clear();
    match result {
        Ok(results) => {
            if a.json {
                say!("{}", regress::report::json(&results));
            } else {
                say!("{}", regress::report::text(&results));
            }
            if STOP.load(std::sync::atomic::Ordering::SeqCst) {
                ExitCode::from(130)
            } else if regress::report::all_ok(&results) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("kosumi regress: {e}");
            ExitCode::FAILURE
        }
    }
}

/// 130 after a Ctrl-C (the summary covers the finished games), else 0.
fn finish_code() -> ExitCode {
    if STOP.load(std::sync::atomic::Ordering::SeqCst) {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    }
}

/// Today's date (UTC) as SGF `DT` text.
fn today() -> Option<String> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench {
            nn: true,
            nn_shape,
            playouts,
            seed,
            ..
        }) => kosumi::nn::cli::run_bench(
            nn_shape.0,
            nn_shape.1,
            playouts.min(100_000) as usize / 20,
            seed,
        ),
        Some(Command::Bench {
            size,
            playouts,
            seed,
            search: true,
            threads,
            position,
            repeat,
            playout_gammas,
            ..
        }) => {
            let size = size as usize;
            let game = if position == "middle" {
                kosumi::mcts::middle_game(size, 0.4, seed)
            } else {
                kosumi::Game::new(size, kosumi::Rules::default(), kosumi::Komi::default()).ok()
            };
            let Some(game) = game else {
                eprintln!("kosumi: cannot set up a {size}x{size} {position} position");
                return ExitCode::FAILURE;
            };
            let playout = kosumi::playout::PlayoutConfig {
                gammas: playout_gammas.unwrap_or(false),
                ..kosumi::playout::PlayoutConfig::default()
            };
            let r = kosumi::mcts::bench_search_with(
                &game,
                threads,
                playouts,
                repeat as usize,
                seed,
                playout,
            );
            let rates: Vec<String> = r.rates.iter().map(|x| format!("{x:.0}")).collect();
            say!(
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
            say!("{}", r.line());
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
                    say!("{line}");
                    if board {
                        if let Some(Some(b)) = rep.boards.get(i) {
                            say!("{b}");
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
        Some(Command::Selfplay { action, args }) => match action {
            Some(SelfplayAction::Summarize { dirs, json }) => run_summarize(dirs, json),
            None => run_selfplay(args),
        },
        Some(Command::Match(a)) => run_match(a),
        Some(Command::Patterns { action }) => run_patterns(action),
        Some(Command::Nn(a)) => kosumi::nn::cli::run(a),
        Some(Command::Regress(a)) => run_regress(a),
        None => run_gtp(cli.gtp),
    }
}

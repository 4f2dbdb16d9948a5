//! The `kosumi` command line: subcommands and wiring only.

use clap::{Parser, Subcommand};
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
#[command(name = "kosumi", version = kosumi::build_info::LONG_VERSION, about = "Kosumi, a Go engine")]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: the GTP engine with these options.
    #[command(flatten)]
    gtp: GtpArgs,
}

use kosumi::gtp::GtpArgs;
use kosumi::patterns::cli::PatternsAction;
use kosumi::play::options::{MatchArgs, SelfplayArgs};
use kosumi::regress::options::RegressArgs;

fn run_gtp(a: GtpArgs) -> ExitCode {
    if listed(&a.search) {
        return ExitCode::SUCCESS;
    }
    if let Err(e) = a.check() {
        eprintln!("kosumi: {e}");
        return ExitCode::from(2);
    }
    let mut engine = a.engine();
    if let Some(path) = &a.log_file {
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(f) => engine.set_log(Box::new(std::io::LineWriter::new(f))),
            Err(e) => {
                eprintln!("kosumi: --log-file {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if a.verbose || std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("{}", a.ready_line());
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
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Benchmark the tree search instead (playouts per search, default
        /// 20000; threads default 1).
        #[arg(long)]
        search: bool,
        /// Start position (with --search): `empty` or `middle`.
        #[arg(long, default_value = "empty", value_parser = ["empty", "middle"])]
        position: String,
        /// Repetitions (with --search); the median is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
        repeat: u64,
        /// The search options (`--playouts` also counts the uniform
        /// playouts, default 20000; the others apply with --search). With
        /// `--nn` and without --search: the network's evaluation speed
        /// instead (one core, 9x9 and 19x19; --playouts / 20 positions a
        /// measurement); with --search, what the network prior costs.
        #[command(flatten)]
        args: kosumi::mcts::SearchArgs,
        /// With --nn: measure a network of random weights of this shape,
        /// BLOCKSxCHANNELS, instead (`--nn none` alone: 6x64).
        #[arg(long, value_parser = kosumi::nn::cli::parse_shape)]
        nn_shape: Option<(usize, usize)>,
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
    /// and prints Kosumi's win rate; `match summarize DIR...` merges the
    /// tables of a match's shards.
    #[command(args_conflicts_with_subcommands = true)]
    Match {
        #[command(subcommand)]
        action: Option<SelfplayAction>,
        #[command(flatten)]
        args: MatchArgs,
    },
    /// Runs GTP regression suites (`.tst` files, GNU Go / gogui-regress
    /// format) against Kosumi or any GTP engine; exit status 1 if a test
    /// failed unexpectedly. `regress merge FILE.json...` merges the JSON
    /// reports of a run's shards.
    #[command(args_conflicts_with_subcommands = true)]
    Regress {
        #[command(subcommand)]
        action: Option<RegressAction>,
        #[command(flatten)]
        args: RegressArgs,
    },
    /// KataGo's JSON analysis protocol on stdin/stdout (queries in,
    /// responses out, positions analysed in parallel).
    Analysis(kosumi::analysis::AnalysisArgs),
    /// Reviews finished games: every move judged by the search, an
    /// annotated SGF, a win-rate graph and a summary per player.
    Analyze(kosumi::review::AnalyzeArgs),
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
            let cmd = patterns::TrainCommand {
                games,
                holdout,
                options: patterns::TrainOptions {
                    iterations,
                    min_count,
                    without,
                    prior,
                    header: vec![command],
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

#[derive(Subcommand)]
enum RegressAction {
    /// Merges the `--json` reports of a run's shards into the run's report
    /// (exit status as the run's).
    Merge {
        /// The reports, one per shard.
        #[arg(required = true, value_name = "REPORT.json")]
        reports: Vec<std::path::PathBuf>,
        /// Print the merged report as JSON (default: text).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum SelfplayAction {
    /// Merges the tables in one or more output directories of a run or
    /// of its shards.
    Summarize {
        /// Directories written with `--out`.
        #[arg(required = true)]
        dirs: Vec<std::path::PathBuf>,
        /// Print the summary as one JSON line.
        #[arg(long)]
        json: bool,
    },
}

fn parse_rules(s: &str) -> Result<kosumi::Rules, String> {
    kosumi::settings::rules(s)
}

/// With `--set list`: prints the knob table and says so.
fn listed(a: &kosumi::mcts::SearchArgs) -> bool {
    if a.wants_listing() {
        say!("{}", kosumi::mcts::args::listing().trim_end());
    }
    a.wants_listing()
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

fn run_selfplay(a: SelfplayArgs) -> ExitCode {
    use kosumi::play::selfplay;
    if listed(&a.game.search) {
        return ExitCode::SUCCESS;
    }
    let cfg = match a.config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kosumi selfplay: {e}");
            return ExitCode::from(2);
        }
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

fn run_match_summarize(dirs: Vec<std::path::PathBuf>, json: bool) -> ExitCode {
    match kosumi::play::summarize_match(&dirs) {
        Ok(m) => {
            say!("{}", if json { m.json() } else { m.text() });
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kosumi match summarize: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(a: MatchArgs) -> ExitCode {
    use kosumi::play;
    if listed(&a.game.search) {
        return ExitCode::SUCCESS;
    }
    let cfg = match a.config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kosumi match: {e}");
            return ExitCode::from(2);
        }
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
    let pb = progress_bar(cfg.indices().len());
    pb.set_position(done.len() as u64);
    let date = play::options::today();
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
            play::options::write_match_game(out, &cfg, g, date.clone())?;
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

fn run_regress_merge(reports: &[std::path::PathBuf], json: bool) -> ExitCode {
    use kosumi::regress::report;
    match report::merge_files(reports) {
        Ok(m) => {
            say!(
                "{}",
                if json {
                    report::json(&m)
                } else {
                    report::text(&m)
                }
            );
            if report::all_ok(&m) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("kosumi regress merge: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_regress(a: RegressArgs) -> ExitCode {
    use kosumi::regress;
    if listed(&a.gtp.search) {
        return ExitCode::SUCCESS;
    }
    if a.files.is_empty() {
        eprintln!("kosumi regress: give one or more FILE.tst (or `regress merge REPORT.json...`)");
        return ExitCode::from(2);
    }
    if !(a.timeout > 0.0 && a.timeout.is_finite()) {
        eprintln!("kosumi regress: --timeout must be a positive number of seconds");
        return ExitCode::from(2);
    }
    let shard = match kosumi::play::options::resolve_shard(a.shard) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kosumi regress: {e}");
            return ExitCode::from(2);
        }
    };
    let engine = match a.engine_command() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("kosumi regress: {e}");
            return ExitCode::FAILURE;
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
        shard,
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

fn run_bench(
    size: usize,
    seed: u64,
    search: bool,
    position: &str,
    repeat: usize,
    args: &kosumi::mcts::SearchArgs,
) -> ExitCode {
    if listed(args) {
        return ExitCode::SUCCESS;
    }
    let playouts = args.playouts.unwrap_or(kosumi::mcts::bench::BENCH_PLAYOUTS);
    if !search {
        say!("{}", kosumi::playout::bench(size, playouts, seed).line());
        return ExitCode::SUCCESS;
    }
    let cfg = match kosumi::mcts::bench::bench_config(args, seed) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kosumi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let game = if position == "middle" {
        kosumi::mcts::middle_game(size, 0.4, seed)
    } else {
        kosumi::Game::new(size, kosumi::Rules::default(), kosumi::Komi::default()).ok()
    };
    let Some(game) = game else {
        eprintln!("kosumi: cannot set up a {size}x{size} {position} position");
        return ExitCode::FAILURE;
    };
    let r = kosumi::mcts::bench::bench_search_config(&game, cfg.clone(), repeat);
    let rates: Vec<String> = r.rates.iter().map(|x| format!("{x:.0}")).collect();
    say!(
        "search size={size} position={position} threads={} playouts={playouts} median_playouts_per_s={:.0} runs=[{}] nodes={}{}",
        cfg.threads,
        r.median(),
        rates.join(","),
        r.nodes,
        r.nn_text()
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench {
            search: false,
            nn_shape,
            seed,
            args,
            ..
        }) if args.nn.is_some() => kosumi::mcts::bench::run_nn_bench(&args, nn_shape, seed),
        Some(Command::Bench {
            size,
            seed,
            search,
            position,
            repeat,
            args,
            ..
        }) => run_bench(
            size as usize,
            seed,
            search,
            &position,
            repeat as usize,
            &args,
        ),
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
        Some(Command::Match { action, args }) => match action {
            Some(SelfplayAction::Summarize { dirs, json }) => run_match_summarize(dirs, json),
            None => run_match(args),
        },
        Some(Command::Patterns { action }) => run_patterns(action),
        Some(Command::Regress { action, args }) => match action {
            Some(RegressAction::Merge { reports, json }) => run_regress_merge(&reports, json),
            None => run_regress(args),
        },
        Some(Command::Analyze(a)) => ExitCode::from(kosumi::review::run(&a)),
        Some(Command::Analysis(a)) => {
            kosumi::analysis::run(&a, kosumi::analysis::Version::of_build());
            ExitCode::SUCCESS
        }
        Some(Command::Nn(a)) => kosumi::nn::cli::run(a),
        None => run_gtp(cli.gtp),
    }
}

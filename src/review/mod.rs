//! `kosumi analyze FILE.sgf...`: a review of finished games.
//!
//! Every position of each game's main line (or of `--moves A-B`) is
//! searched (`--visits` or `--time` a position, `--threads` search
//! threads, `--jobs` files side by side); each move is judged by what it
//! lost against the search's best move ([`core`] documents the losses and
//! the verdict thresholds). Outputs, for each file:
//!
//! - an annotated SGF beside the input, `NAME-kosumi.sgf` (or
//!   `NAME-kosumi-2.sgf` and so on: an existing file is never
//!   overwritten): a comment per move in plain words, the best line as a
//!   variation, bad-move marks, and Sabaki's win-rate property `SBKV`
//!   ([`annotate`]);
//! - the graph of Black's win rate and score lead, `NAME-kosumi.svg` and
//!   `NAME-kosumi.png`, with the mistakes marked ([`graph`]);
//! - a summary per player on stdout (on stderr with `--json`): the mean
//!   loss and the biggest mistakes;
//! - with `--json`, one JSON line per move on stdout: `file`,
//!   `turnNumber`, `player`, `move`, `bestMove`, `winrateLoss` and
//!   `scoreLoss` (the mover's), `verdict`, and the analysis protocol's
//!   `rootInfo` and `moveInfos` for the position before the move (Black's
//!   side, as `kosumi analysis` reports by default).
//!
//! Ctrl-C stops the searches under way and keeps what is done: the moves
//! reviewed so far are written as above (a second Ctrl-C quits at once).
//! With `--threads 1` and the same `--seed` and `--visits`, a review is
//! the same every time.

pub mod annotate;
pub mod core;
pub mod graph;

use crate::analysis::query::Perspective;
use crate::analysis::response::{move_info, r6, Include, MoveInfo, RootInfo};
use crate::color::Color;
use crate::game::Game;
use crate::mcts::SearchConfig;
use crate::sgf::{self, GameTree, ReadOptions, ReplayOptions};
use crate::text::clip;
use core::{judge, summarize, MoveReview, PlayerSummary, Position, Reviewer, SearchPlan};
use serde::Serialize;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The options of `kosumi analyze`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// SGF files to review (the first game of each).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Review only these moves: `50-120`, `50-` (to the end), `-120`, or
    /// one move `73`.
    #[arg(long, value_name = "A-B", value_parser = MoveRange::parse)]
    pub moves: Option<MoveRange>,
    /// Playouts a position (default 1000 unless --time is given).
    #[arg(long, value_parser = crate::settings::playouts)]
    pub visits: Option<u64>,
    /// Seconds a position (with --visits: whichever ends first).
    #[arg(long, value_name = "SECONDS", value_parser = crate::settings::seconds)]
    pub time: Option<f64>,
    /// Search threads a position.
    #[arg(long, default_value_t = 1, value_parser = crate::settings::threads)]
    pub threads: usize,
    /// Files reviewed side by side.
    #[arg(long, default_value_t = 1, value_parser = crate::settings::jobs)]
    pub jobs: usize,
    /// One JSON line per move on stdout (the summaries go to stderr).
    #[arg(long)]
    pub json: bool,
    /// Random seed of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The network as the search's prior (`--nn`).
    #[command(flatten)]
    pub nn: crate::mcts::NnOption,
    /// Review under these rules instead of each record's RU.
    #[arg(long, value_parser = |s: &str| s.parse::<crate::rules::Rules>().map_err(|e| e.to_string()))]
    pub rules: Option<crate::rules::Rules>,
    /// Write no graph files.
    #[arg(long)]
    pub no_graph: bool,
}

/// Moves to review, by number (the first move is 1), both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRange {
    /// The first move reviewed.
    pub first: usize,
    /// The last move reviewed (`usize::MAX`: to the end).
    pub last: usize,
}

impl MoveRange {
    /// Reads `A-B`, `A-`, `-B` or `A`.
    ///
    /// # Errors
    /// A message saying what is accepted.
    pub fn parse(s: &str) -> Result<MoveRange, String> {
        let bad = || {
            format!(
                "'{}' is no move range (50-120, 50-, -120 or 73; moves from 1)",
                clip(s)
            )
        };
        let num = |t: &str| -> Result<usize, String> {
            match t.trim().parse::<usize>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(bad()),
            }
        };
        let r = match s.split_once('-') {
            Some((a, b)) => MoveRange {
                first: if a.trim().is_empty() { 1 } else { num(a)? },
                last: if b.trim().is_empty() {
                    usize::MAX
                } else {
                    num(b)?
                },
            },
            None => {
                let n = num(s)?;
                MoveRange { first: n, last: n }
            }
        };
        if r.first > r.last {
            return Err(bad());
        }
        Ok(r)
    }
}

/// One JSON line of `--json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveLine<'a> {
    file: &'a str,
    turn_number: usize,
    player: String,
    #[serde(rename = "move")]
    mv: String,
    best_move: String,
    winrate_loss: f64,
    score_loss: f64,
    verdict: core::Verdict,
    root_info: RootInfo,
    move_infos: Vec<MoveInfo>,
}

/// The outcome of one file.
#[derive(Debug)]
pub struct FileReview {
    /// The input.
    pub input: PathBuf,
    /// The board size.
    pub size: usize,
    /// The reviewed moves.
    pub moves: Vec<MoveReview>,
    /// Summaries for Black and White.
    pub summaries: [PlayerSummary; 2],
    /// The files written.
    pub written: Vec<PathBuf>,
    /// Whether Ctrl-C cut the review short.
    pub interrupted: bool,
}

/// The main line's move nodes: the nodes with `B` or `W`, in order.
fn move_nodes(tree: &GameTree) -> Vec<usize> {
    tree.main_line()
        .into_iter()
        .filter(|&i| tree.nodes[i].get("B").is_some() || tree.nodes[i].get("W").is_some())
        .collect()
}

/// `dir/stem-kosumi[-k].ext` for each of `exts`, with the least `k` for
/// which none exists yet.
fn output_paths(input: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let dir = input.parent().unwrap_or(Path::new(""));
    let stem = input
        .file_stem()
        .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
    for k in 1.. {
        let suffix = if k == 1 {
            String::new()
        } else {
            format!("-{k}")
        };
        let paths: Vec<PathBuf> = exts
            .iter()
            .map(|e| dir.join(format!("{stem}-kosumi{suffix}.{e}")))
            .collect();
        if paths.iter().all(|p| !p.exists()) {
            return paths;
        }
    }
    unreachable!("some suffix is free")
}

/// Creates `path` (never replacing a file) and writes `bytes`.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(bytes)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// What a review run shares between its files.
pub struct Run<'a> {
    /// The options.
    pub args: &'a AnalyzeArgs,
    /// Set by Ctrl-C: stop the searches, keep what is done.
    pub stop: &'a AtomicBool,
    /// Called after each position searched.
    pub tick: &'a (dyn Fn() + Sync),
    /// Where JSON lines go.
    pub out: &'a Mutex<Box<dyn Write + Send>>,
}

/// Positions a file will search (for the progress bar); 0 when it cannot
/// be read (the review reports the error).
pub fn positions_in(path: &Path, range: Option<MoveRange>) -> usize {
    let Ok(c) = sgf::read_file(path, ReadOptions::default()) else {
        return 0;
    };
    let Some(tree) = c.trees.first() else {
        return 0;
    };
    let n = move_nodes(tree).len();
    let (lo, hi) = bounds(n, range);
    if n == 0 || lo > hi {
        0
    } else {
        hi - lo + 2
    }
}

/// Moves `lo..=hi` (1-based) of `n` to review.
fn bounds(n: usize, range: Option<MoveRange>) -> (usize, usize) {
    let r = range.unwrap_or(MoveRange {
        first: 1,
        last: usize::MAX,
    });
    (r.first, r.last.min(n))
}

/// Reviews the first game of `path` and writes its outputs.
///
/// # Errors
/// An unreadable file or game, or an output that cannot be written.
pub fn review_file(path: &Path, run: &Run<'_>) -> Result<FileReview, String> {
    let args = run.args;
    let name = path.display().to_string();
    let c = sgf::read_file(path, ReadOptions::default()).map_err(|e| e.to_string())?;
    let tree = c.trees.first().ok_or_else(|| format!("{name}: no game"))?;
    let opts = ReplayOptions {
        rules: args.rules,
        strict: false,
        tolerant: true,
        stop_before: None,
    };
    let r = sgf::replay_tree(&name, tree, &opts).map_err(|e| e.to_string())?;
    if let Some(a) = &r.illegal {
        return Err(format!("{name}: illegal {a}"));
    }
    let nodes = move_nodes(tree);
    let game = &r.game;
    if nodes.len() != game.moves().len() || r.moves_played != game.moves().len() {
        return Err(format!(
            "{name}: the main line sets stones up between moves; Kosumi reviews records whose setup stands before the first move"
        ));
    }
    let size = game.size();
    let n = game.moves().len();
    let (lo, hi) = bounds(n, args.moves);
    if n == 0 || lo > hi {
        return Err(format!(
            "{name}: no move to review (the record has {n} moves)"
        ));
    }
    let plan = SearchPlan {
        cfg: SearchConfig {
            threads: args.threads,
            seed: args.seed,
            no_resign: true,
            nn: args.nn.config(),
            ..SearchConfig::default()
        },
        visits: args.visits.or(if args.time.is_some() {
            None
        } else {
            Some(1000)
        }),
        time: args.time,
    };
    let mut reviewer = Reviewer::new(plan);
    // Replay to the position before move `lo`, then search positions
    // lo-1 ..= hi (a move needs the position before and after it).
    let mut cur = Game::from_position(
        game.start().clone(),
        game.start_to_move(),
        game.rules(),
        game.komi(),
    );
    let play = |g: &mut Game, k: usize| {
        let m = game.moves()[k];
        let _ = g.play_tolerant(m.color, m.mv);
    };
    for k in 0..lo - 1 {
        play(&mut cur, k);
    }
    let inc = Include {
        perspective: Perspective::Black,
        ownership: false,
        pv_visits: false,
        pv_len: 15,
    };
    let mut positions: Vec<Position> = Vec::new();
    let mut reviews: Vec<MoveReview> = Vec::new();
    let mut interrupted = false;
    for turn in lo - 1..=hi {
        if run.stop.load(Ordering::SeqCst) {
            interrupted = true;
            break;
        }
        let a = reviewer.search(&cur, run.stop);
        if run.stop.load(Ordering::SeqCst) {
            // This search was cut short: not a full evaluation.
            interrupted = true;
            break;
        }
        (run.tick)();
        positions.push(Position {
            turn,
            game: cur.clone(),
            analysis: a,
        });
        if let [.., before, after] = positions.as_slice() {
            let m = game.moves()[before.turn];
            let rv = judge(before, after, m.color, m.mv);
            if args.json {
                let line = MoveLine {
                    file: &name,
                    turn_number: before.turn,
                    player: m.color.letter().to_string(),
                    mv: m.mv.to_gtp(size),
                    best_move: rv.best.to_gtp(size),
                    winrate_loss: r6(rv.winrate_loss),
                    score_loss: r6(rv.score_loss),
                    verdict: rv.verdict,
                    root_info: crate::analysis::response::response(
                        "",
                        before.turn,
                        false,
                        &before.game,
                        &before.analysis,
                        &inc,
                    )
                    .root_info,
                    move_infos: before
                        .analysis
                        .candidates
                        .iter()
                        .map(|c| move_info(c, size, before.analysis.color, &inc))
                        .collect(),
                };
                if let Ok(s) = serde_json::to_string(&line) {
                    let mut out = run.out.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = writeln!(out, "{s}").and_then(|()| out.flush());
                }
            }
            reviews.push(rv);
        }
        if turn < n {
            play(&mut cur, turn);
        }
    }
    let text = |id: &str| {
        tree.root()
            .get(id)
            .map(|p| p.simple_text())
            .filter(|t| !t.is_empty())
    };
    let summaries = [
        summarize(&reviews, Color::Black, text("PB"), size),
        summarize(&reviews, Color::White, text("PW"), size),
    ];
    let mut written = Vec::new();
    if !reviews.is_empty() {
        let exts: &[&str] = if args.no_graph {
            &["sgf"]
        } else {
            &["sgf", "svg", "png"]
        };
        let outs = output_paths(path, exts);
        let annotated = annotate::annotate(tree, &nodes, &reviews, &positions, size);
        write_new(
            &outs[0],
            sgf::tree::to_utf8_file_text(&[annotated]).as_bytes(),
        )?;
        written.push(outs[0].clone());
        if !args.no_graph {
            let points: Vec<graph::GraphPoint> = positions
                .iter()
                .map(|p| graph::GraphPoint {
                    x: p.turn,
                    winrate: p.black_winrate() * 100.0,
                    lead: p.black_lead(),
                    verdict: reviews
                        .iter()
                        .find(|r| r.number == p.turn)
                        .map(|r| r.verdict),
                })
                .collect();
            let title = format!(
                "{}: Black's win rate and lead by Kosumi",
                path.file_name()
                    .map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned())
            );
            let svg =
                graph::svg(&points, &title).map_err(|e| format!("{}: {e}", outs[1].display()))?;
            write_new(&outs[1], svg.as_bytes())?;
            written.push(outs[1].clone());
            // Reserve the name (never replacing a file), then draw into it.
            write_new(&outs[2], b"")?;
            graph::png(&points, &outs[2]).map_err(|e| format!("{}: {e}", outs[2].display()))?;
            written.push(outs[2].clone());
        }
    }
    Ok(FileReview {
        input: path.to_path_buf(),
        size,
        moves: reviews,
        summaries,
        written,
        interrupted,
    })
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The summary of a file review in plain words.
pub fn summary_text(f: &FileReview) -> String {
    let mut s = format!("{}: {} moves reviewed", f.input.display(), f.moves.len());
    if let (Some(a), Some(b)) = (f.moves.first(), f.moves.last()) {
        s.push_str(&format!(" ({}-{})", a.number, b.number));
    }
    if f.interrupted {
        s.push_str(", interrupted");
    }
    s.push('\n');
    if !f.written.is_empty() {
        let names: Vec<String> = f.written.iter().map(|p| p.display().to_string()).collect();
        s.push_str(&format!("  written: {}\n", names.join(", ")));
    }
    for p in &f.summaries {
        let who = if p.player == "B" { "Black" } else { "White" };
        let name = p
            .name
            .as_deref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        s.push_str(&format!(
            "  {who}{name}: {}, mean loss {:.1}% win rate and {:.1} points; {}, {}, {}\n",
            count(p.moves, "move", "moves"),
            p.mean_winrate_loss * 100.0,
            p.mean_score_loss,
            count(p.blunders, "blunder", "blunders"),
            count(p.mistakes, "mistake", "mistakes"),
            count(p.inaccuracies, "inaccuracy", "inaccuracies")
        ));
        for w in &p.worst {
            s.push_str(&format!(
                "    move {} {} (best {}): -{:.1}% win rate, -{:.1} points, {}\n",
                w.move_number,
                w.played,
                w.best,
                w.winrate_loss * 100.0,
                w.score_loss,
                w.verdict.name()
            ));
        }
    }
    s
}

/// Runs `kosumi analyze`: installs the Ctrl-C handler, reviews the files
/// (`--jobs` at a time) with a progress bar on a terminal, prints the
/// summaries. Returns the exit status: 0, or 1 if a file failed.
pub fn run(args: &AnalyzeArgs) -> u8 {
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nkosumi: stopping; writing what is reviewed (Ctrl-C again to quit at once)");
    });
    let total: usize = args.files.iter().map(|f| positions_in(f, args.moves)).sum();
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(total as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} positions  eta {eta}",
    ) {
        pb.set_style(style.progress_chars("=> "));
    }
    let tick = || pb.inc(1);
    let out: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(std::io::stdout()));
    let run = Run {
        args,
        stop: &STOP,
        tick: &tick,
        out: &out,
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<FileReview, String>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..args.jobs.min(args.files.len()).max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(f) = args.files.get(i) else { break };
                let r = review_file(f, &run);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, r));
            });
        }
    });
    pb.finish_and_clear();
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut failed = false;
    for (_, r) in results {
        match r {
            Ok(f) => {
                let text = summary_text(&f);
                if args.json {
                    eprint!("{text}");
                } else {
                    print!("{text}");
                }
            }
            Err(e) => {
                failed = true;
                eprintln!("kosumi: {e}");
            }
        }
    }
    u8::from(failed)
}

//! The `kosumi nn` subcommand and `kosumi bench --nn`: arguments and run
//! functions (`main.rs` only wires them).

use super::bench::bench;
use super::eval::{eval_command, eval_text};
use super::export::{export, ExportCommand, Split};
use super::net::{Network, Shape};
use super::planes::BASE_PLANES;
use crate::patterns::PatternTable;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `kosumi nn`'s arguments.
#[derive(clap::Args, Debug)]
pub struct NnArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: NnAction,
}

/// `kosumi nn`'s actions.
#[derive(clap::Subcommand, Debug)]
pub enum NnAction {
    /// Writes training positions from SGF records (and self-play visit
    /// files beside them) in the binary format of `docs/nn.md`.
    Export(ExportArgs),
    /// Move prediction of a network on the held-out records: the table
    /// `patterns eval` prints.
    Eval(EvalArgs),
}

/// `kosumi nn export`'s arguments.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Directories (or files) of SGF records, searched recursively.
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// The data file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Hold out one file in N by a hash of its name, as `patterns` (0:
    /// none).
    #[arg(long, default_value_t = 10)]
    pub holdout: u32,
    /// Which files: those `patterns train` trains on, the held-out ones,
    /// or all.
    #[arg(long, value_enum, default_value_t = Split::Train)]
    pub split: Split,
    /// Only records of this board size.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u64).range(2..=25))]
    pub size: u64,
    /// Add the pattern table's plane.
    #[arg(long)]
    pub pattern_plane: bool,
    /// The pattern table for the plane (default: the one built in).
    #[arg(long)]
    pub table: Option<PathBuf>,
}

/// `kosumi nn eval`'s arguments.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Directories (or files) of SGF records, searched recursively.
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// The weights file.
    #[arg(long)]
    pub weights: PathBuf,
    /// The hold-out used in training (0: every file).
    #[arg(long, default_value_t = 10)]
    pub holdout: u32,
    /// Which files (default: the held-out ones).
    #[arg(long, value_enum, default_value_t = Split::HeldOut)]
    pub split: Split,
    /// The pattern table, for a network that reads the pattern plane
    /// (default: the one built in).
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Evaluate each position under this many of the board's 8
    /// symmetries (1 to 8) and average the move probabilities.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub symmetries: u8,
}

fn load_table(path: Option<&Path>) -> Result<PatternTable, String> {
    match path {
        None => Ok(PatternTable::builtin().clone()),
        Some(p) => {
            let bytes =
                crate::files::read_capped(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let text =
                String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", p.display()))?;
            PatternTable::parse(&text).map_err(|e| format!("{}: {e}", p.display()))
        }
    }
}

/// Runs `kosumi nn`.
pub fn run(args: NnArgs) -> ExitCode {
    let result = match args.action {
        NnAction::Export(a) => run_export(a),
        NnAction::Eval(a) => run_eval(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kosumi nn: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_export(a: ExportArgs) -> Result<(), String> {
    let pattern_table = if a.pattern_plane {
        Some(load_table(a.table.as_deref())?)
    } else {
        None
    };
    let cmd = ExportCommand {
        games: a.games,
        holdout: a.holdout,
        split: a.split,
        size: a.size as usize,
        pattern_table,
    };
    // Written to a temporary name and renamed when complete, so a failed
    // run leaves no half file under the name asked for.
    let mut tmp = a.out.clone().into_os_string();
    tmp.push(".part");
    let tmp = PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let mut log = |s: &str| eprintln!("{s}");
    let summary = export(&cmd, &mut w, &mut log).and_then(|s| {
        w.flush()
            .map_err(|e| super::NnError::Io(format!("{}: {e}", tmp.display())))?;
        Ok(s)
    });
    let summary = match summary {
        Ok(s) => s,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e.to_string());
        }
    };
    std::fs::rename(&tmp, &a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    eprintln!(
        "{} files, {} games of {}x{}, {} positions ({} with visit targets) to {}",
        summary.files,
        summary.games,
        cmd.size,
        cmd.size,
        summary.positions,
        summary.with_visits,
        a.out.display()
    );
    Ok(())
}

fn run_eval(a: EvalArgs) -> Result<(), String> {
    let net = Network::load(&a.weights).map_err(|e| e.to_string())?;
    let table = load_table(a.table.as_deref())?;
    let mut log = |s: &str| eprintln!("{s}");
    let r = eval_command(
        &a.games,
        a.holdout,
        a.split,
        &net,
        &table,
        usize::from(a.symmetries),
        &mut log,
    )
    .map_err(|e| e.to_string())?;
    print!("{}", eval_text(&r));
    Ok(())
}

/// Parses `BLOCKSxCHANNELS` (for `bench --nn-shape`).
///
/// # Errors
/// A message for anything but two numbers, blocks 0..=64, channels
/// 1..=512.
pub fn parse_shape(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("shape '{s}' is not BLOCKSxCHANNELS (blocks 0..=64, channels 1..=512)");
    let (b, c) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    if b > 64 || !(1..=512).contains(&c) {
        return Err(bad());
    }
    Ok((b, c))
}

/// Runs `kosumi bench --nn`: a random-weight network of `blocks` x
/// `channels` on 9x9 and 19x19, batches of 1 and 8, about `positions`
/// positions each; one line a measurement.
pub fn run_bench(blocks: usize, channels: usize, positions: usize, seed: u64) -> ExitCode {
    let shape = Shape {
        planes: BASE_PLANES,
        blocks,
        channels,
        value_hidden: 0,
    };
    run_bench_net(&Network::random(shape, seed), positions)
}

/// Runs `kosumi bench --nn` on `net`: 9x9 and 19x19, batches of 1 and 8,
/// about `positions` positions each; one line a measurement.
pub fn run_bench_net(net: &Network, positions: usize) -> ExitCode {
    for size in [9, 19] {
        for batch in [1, 8] {
            let r = bench(net, size, batch, positions);
            println!("{}", r.line(&net.shape));
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse() {
        assert_eq!(parse_shape("6x64"), Ok((6, 64)));
        assert_eq!(parse_shape("0X8"), Ok((0, 8)));
        for bad in ["6", "6x0", "65x8", "ax8", "6x513", ""] {
            assert!(parse_shape(bad).is_err(), "{bad}");
        }
    }
}

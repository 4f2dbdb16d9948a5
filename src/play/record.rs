//! Game records as files: SGF text and writes that never leave a
//! half-written file.

use super::game::GameRecord;
use crate::sgf::{game_to_tree, GameInfo, Property};
use std::path::Path;

/// The record as SGF text: `PB`/`PW` are the names, `RE` the result, `GN`
/// the game name and `C` the comment (the caller's text, then how the game
/// ended and was scored); each move the search chose carries Black's win
/// rate in percent as `SBKV`, from which Sabaki draws its graph.
pub fn record_to_sgf(
    rec: &GameRecord,
    game_name: &str,
    comment: &str,
    date: Option<String>,
    extra: Vec<(String, Vec<String>)>,
) -> String {
    let mut c = comment.to_string();
    if !c.is_empty() {
        c.push('\n');
    }
    let played = rec.game.moves().len();
    let cleanup = if played > rec.length {
        format!(", then {} clean-up moves", played - rec.length)
    } else {
        String::new()
    };
    c.push_str(&format!(
        "Ended by {}; result {} ({}); {} moves{cleanup}.",
        rec.ending, rec.result, rec.scoring, rec.length
    ));
    if let Some([b, w]) = &rec.clock {
        c.push_str(&format!(
            "\nClock: Black {}; White {}.",
            b.describe(),
            w.describe()
        ));
    }
    let info = GameInfo {
        black: Some(rec.names[0].clone()),
        white: Some(rec.names[1].clone()),
        result: Some(rec.result.to_string()),
        date,
        game_name: Some(game_name.to_string()),
        comment: Some(c),
        extra,
    };
    let mut tree = game_to_tree(&rec.game, &info);
    let move_nodes = tree
        .main_line()
        .into_iter()
        .filter(|&i| tree.nodes[i].get("B").is_some() || tree.nodes[i].get("W").is_some());
    let sbkv: Vec<(usize, f32)> = move_nodes
        .zip(&rec.winrates)
        .filter_map(|(i, w)| w.map(|w| (i, w)))
        .collect();
    for (i, w) in sbkv {
        // Sabaki's win-rate graph: Black's win rate in percent.
        let v = format!("{:.2}", (w * 100.0).clamp(0.0, 100.0));
        tree.nodes[i].props.push(Property::new("SBKV", vec![v]));
    }
    tree.to_sgf()
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that no half-written file is ever left under `path`.
///
/// # Errors
/// The I/O error of the write or the rename (the temporary is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    let r = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// Makes the output directory `dir` (and its parents) and checks that a
/// file can be written in it, before the first game is played. The probe
/// file is named after the process and the call, so that the shards of a
/// run starting at once in one shared directory do not remove each
/// other's probe.
///
/// # Errors
/// The I/O error of making the directory or of the test write.
pub fn prepare_out_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = dir.join(format!(".kosumi-write-test{}-{n}", std::process::id()));
    write_atomic(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// The names in `dir` that a Kosumi run writes (game records
/// `game-NNNNNN.sgf` and self-play tables `selfplay-*.tsv`), sorted.
///
/// # Errors
/// The I/O error of reading the directory.
pub fn run_files(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        let record = name.starts_with("game-") && name.ends_with(".sgf");
        let table = name.starts_with("selfplay-") && name.ends_with(".tsv");
        if record || table {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_starting_at_once_in_one_directory_all_pass_the_write_probe() {
        let dir = std::env::temp_dir().join(format!("kosumi-probe-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let dir = dir.clone();
                std::thread::spawn(move || (0..200).all(|_| prepare_out_dir(&dir).is_ok()))
            })
            .collect();
        for t in threads {
            assert!(t.join().expect("no panic"), "a probe failed");
        }
        // Nothing is left behind.
        assert_eq!(std::fs::read_dir(&dir).expect("made").count(), 0);
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}

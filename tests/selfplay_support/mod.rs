//! Shared by the selfplay and match tests: a fresh scratch directory, and
//! replays of the records Kosumi writes (with the SGF module and with
//! `kosumi replay`) to check that the moves reach the recorded result.
#![allow(dead_code)]

use kosumi::score::GameResult;
use kosumi::sgf::{read_str, replay_tree, ReadOptions, ReplayOptions};
use kosumi::Game;
use std::path::{Path, PathBuf};

/// An empty directory under the test target directory.
pub fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The files of `dir` whose names end with `ext`, with their bytes,
/// sorted by name.
pub fn files(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(ext))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The text of the first `ID[...]` property (escapes kept).
pub fn prop<'a>(sgf: &'a str, id: &str) -> Option<&'a str> {
    let key = format!("{id}[");
    let mut from = 0;
    while let Some(i) = sgf[from..].find(&key) {
        let start = from + i;
        let prev = sgf[..start].chars().last();
        if prev.is_some_and(|c| c.is_ascii_uppercase()) {
            from = start + 1;
            continue;
        }
        let body = start + key.len();
        let end = body + sgf[body..].find(']')?;
        return Some(&sgf[body..end]);
    }
    None
}

/// Replays a Kosumi record with the SGF module, strictly (our records
/// need no leniency), and returns the game.
pub fn replay(sgf: &str) -> Game {
    let opts = ReadOptions { strict: true };
    let coll = read_str(sgf, opts).unwrap_or_else(|e| panic!("unreadable record: {e:?}"));
    assert_eq!(coll.trees.len(), 1);
    let r = replay_tree(
        "record",
        &coll.trees[0],
        &ReplayOptions {
            strict: true,
            ..ReplayOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("record does not replay: {e}"));
    assert!(
        r.illegal.is_none(),
        "illegal move in record: {:?}",
        r.illegal
    );
    assert_eq!(r.moves_in_record, r.game.moves().len());
    r.game
}

/// What the comment of a record counted by Kosumi says.
pub const COUNTED: &str = "count: Black ";

/// Checks that a record ended by passes or the move cap, and scored by
/// Kosumi's own count, has the result its final position counts to.
/// Returns whether the record was such a record.
pub fn check_counted_result(sgf: &str) -> bool {
    let game = replay(sgf);
    let re = GameResult::parse(prop(sgf, "RE").unwrap());
    if !sgf.contains(COUNTED) {
        return false;
    }
    // Kosumi's count of a finished game: the rules' count with
    // the chains the endgame calls dead removed.
    assert_eq!(
        kosumi::play::count_finished(&game).result(),
        re,
        "record does not count to its result"
    );
    true
}

/// Runs `kosumi replay` on `files`; every game must replay (exit 0) and,
/// where the record was counted, reach its `RE` as its area score.
pub fn replay_with_cli(files: &[PathBuf]) {
    if files.is_empty() {
        return;
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .arg("replay")
        .args(files)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "kosumi replay failed: {text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(" game ")).collect();
    assert_eq!(lines.len(), files.len(), "{text}");
    for (f, line) in files.iter().zip(&lines) {
        let sgf = std::fs::read_to_string(f).unwrap();
        if sgf.contains(COUNTED) {
            // `kosumi replay` counts area with every stone alive: the
            // record's result when the endgame calls no chain dead.
            let re = prop(&sgf, "RE").unwrap();
            let game = replay(&sgf);
            let alive = game.area_score(&[]).result();
            if alive.to_string() == re {
                assert!(
                    line.contains(&format!("RE {re}, area score {re}")),
                    "{}: {line}",
                    f.display()
                );
            } else {
                assert!(
                    line.contains(&format!("RE {re}, ")),
                    "{}: {line}",
                    f.display()
                );
            }
        }
    }
}

//! Shared by the selfplay and match tests: a fresh scratch directory, and
//! a replay of the records Kosumi writes (one game, root properties, then
//! `;B[..]`/`;W[..]` nodes) to check that the moves reach the recorded
//! Tromp-Taylor result. (To be replaced by `kosumi replay` once it lands.)
#![allow(dead_code)]

use kosumi::point::parse_sgf_move;
use kosumi::score::GameResult;
use kosumi::{Color, Game, Rules};
use std::path::{Path, PathBuf};

/// An empty directory under the test target directory.
pub fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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

/// Replays the moves of a Kosumi record and returns the game.
pub fn replay(sgf: &str) -> Game {
    let size: usize = prop(sgf, "SZ").unwrap().parse().unwrap();
    let komi: f32 = prop(sgf, "KM").unwrap().parse().unwrap();
    let mut game = Game::new(size, Rules::CHINESE, komi).unwrap();
    // Moves follow the root comment: every node after the first.
    let root_end = sgf.find("]\n;").map(|i| i + 2).unwrap_or(sgf.len());
    let moves = &sgf[root_end..];
    for node in moves.split(';').skip(1) {
        let node = node.trim().trim_end_matches(')').trim();
        let (c, rest) = match node.as_bytes().first() {
            Some(b'B') => (Color::Black, &node[1..]),
            Some(b'W') => (Color::White, &node[1..]),
            _ => panic!("unexpected node '{node}'"),
        };
        let v = rest.trim_start_matches('[').trim_end_matches(']');
        let mv = parse_sgf_move(v, size).unwrap();
        game.play(c, mv)
            .unwrap_or_else(|e| panic!("move {v} of {c:?} illegal on replay: {e}"));
    }
    game
}

/// Checks that a record ended by passes or the move cap, and scored by
/// Kosumi's own count, has the result its final position counts to.
/// Returns whether the record was such a record.
pub fn check_counted_result(sgf: &str) -> bool {
    let game = replay(sgf);
    let re = GameResult::parse(prop(sgf, "RE").unwrap());
    if !sgf.contains("Tromp-Taylor count") {
        return false;
    }
    assert_eq!(
        game.area_score(&[]).result(),
        re,
        "record does not count to its result"
    );
    true
}

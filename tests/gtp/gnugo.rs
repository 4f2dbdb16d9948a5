//! Interop with GNU Go through GTP: a short 9x9 game between `kosumi`
//! (the search with 200 playouts a move, Black) and `gnugo --mode gtp --level 1` (White), each
//! engine told the other's moves with `play`. Every command must be
//! answered with success, and at the end both engines must hold the same
//! stones and the same capture counts.
//!
//! Skips with a note when /usr/games/gnugo is missing, unless
//! `KOSUMI_REQUIRE_GNUGO=1` (set by `.ci/run`, which installs it).

use crate::controller::Controller;
use kosumi::point::{parse_gtp_move, Move};
use std::path::Path;

const GNUGO: &str = "/usr/games/gnugo";
const KOSUMI: &str = env!("CARGO_BIN_EXE_kosumi");

fn stones(c: &mut Controller, color: &str) -> Vec<Move> {
    let mut v: Vec<Move> = c
        .ok(&format!("list_stones {color}"))
        .split_whitespace()
        .map(|s| parse_gtp_move(s, 9).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect();
    v.sort_by_key(|m| m.point());
    v
}

fn play_one_game(seed: u64, max_plies: usize) -> usize {
    let seed = seed.to_string();
    // The search player with a small playout limit, so that CI stays fast.
    let mut k = Controller::start(
        KOSUMI,
        &[
            "--seed",
            &seed,
            "--rules",
            "chinese",
            "--threads",
            "1",
            "--playouts",
            "200",
        ],
    );
    // Positional superko on both sides, suicide forbidden (GNU Go's default).
    let mut g = Controller::start(
        GNUGO,
        &["--mode", "gtp", "--level", "1", "--positional-superko"],
    );
    for c in [&mut k, &mut g] {
        c.ok("boardsize 9");
        c.ok("clear_board");
        c.ok("komi 7.5");
    }
    let mut passes = 0;
    let mut plies = 0;
    while plies < max_plies && passes < 2 {
        let (mover, other, color) = if plies % 2 == 0 {
            (&mut k, &mut g, "b")
        } else {
            (&mut g, &mut k, "w")
        };
        let mv = mover.ok(&format!("genmove {color}"));
        let mv = mv.trim().to_string();
        if mv.eq_ignore_ascii_case("resign") {
            break;
        }
        // Our own parser reads GNU Go's vertices (it prints PASS in capitals).
        let parsed = parse_gtp_move(&mv, 9).unwrap_or_else(|e| panic!("{mv}: {e}"));
        passes = if parsed == Move::Pass { passes + 1 } else { 0 };
        other.ok(&format!("play {color} {mv}"));
        plies += 1;
    }
    for color in ["black", "white"] {
        assert_eq!(
            stones(&mut k, color),
            stones(&mut g, color),
            "{color} stones differ after {plies} plies (seed {seed})"
        );
        assert_eq!(
            k.ok(&format!("captures {color}")),
            g.ok(&format!("captures {color}")),
            "{color} captures differ"
        );
    }
    for c in [&mut k, &mut g] {
        c.ok("quit");
        c.check_stream();
    }
    k.stop();
    g.stop();
    plies
}

#[test]
fn short_game_against_gnugo_keeps_both_boards_equal() {
    if !Path::new(GNUGO).exists() {
        if std::env::var("KOSUMI_REQUIRE_GNUGO").as_deref() == Ok("1") {
            panic!("{GNUGO} is missing and KOSUMI_REQUIRE_GNUGO=1");
        }
        eprintln!("SKIPPED: {GNUGO} not installed (apt-get install gnugo); interop not tested");
        return;
    }
    let plies = play_one_game(11, 80);
    eprintln!("kosumi vs gnugo: {plies} plies, boards agree");
    assert!(plies >= 20, "the game ended after only {plies} plies");
}

/// Whole games to two passes (or 400 plies) for five seeds, about 100
/// plies each, ten seconds in all:
/// `cargo test --release --test gtp_suite -- gnugo --ignored`.
#[test]
#[ignore]
fn whole_games_against_gnugo() {
    if !Path::new(GNUGO).exists() {
        eprintln!("SKIPPED: {GNUGO} not installed");
        return;
    }
    for seed in 1..=5 {
        let plies = play_one_game(seed, 400);
        eprintln!("seed {seed}: {plies} plies, boards agree");
    }
}

/// Records with setup (`AB`, `AW`) and `PL` after the first move (issue
/// 13): `loadsgf` gives the same stones, captures and side to move as in
/// GNU Go, for the whole main line and for `loadsgf FILE N`.
#[test]
fn setup_after_moves_loads_as_in_gnugo() {
    if !Path::new(GNUGO).exists() {
        if std::env::var("KOSUMI_REQUIRE_GNUGO").as_deref() == Ok("1") {
            panic!("{GNUGO} is missing and KOSUMI_REQUIRE_GNUGO=1");
        }
        eprintln!("SKIPPED: {GNUGO} not installed (apt-get install gnugo); interop not tested");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sgf-fixtures/setup-later");
    let mut k = Controller::start(KOSUMI, &["--threads", "1", "--playouts", "10"]);
    let mut g = Controller::start(GNUGO, &["--mode", "gtp"]);
    for (file, size, counts) in [
        ("_semeai_C9_018.sgf", 19, &[0usize, 30, 50][..]),
        ("ab-aw-after-moves.sgf", 9, &[0, 4, 5, 6, 9, 10][..]),
        ("pl-after-moves.sgf", 9, &[0, 3, 4, 5][..]),
    ] {
        let path = dir.join(file);
        for &n in counts {
            let cmd = if n == 0 {
                format!("loadsgf {}", path.display())
            } else {
                format!("loadsgf {} {n}", path.display())
            };
            // GNU Go answers with the side to move, Kosumi with nothing.
            k.ok(&cmd);
            let gnugo_to_move = g.ok(&cmd);
            let what = format!("{file} {n}");
            for color in ["black", "white"] {
                let list = |c: &mut Controller| {
                    let mut v: Vec<Move> = c
                        .ok(&format!("list_stones {color}"))
                        .split_whitespace()
                        .map(|s| parse_gtp_move(s, size).unwrap())
                        .collect();
                    v.sort_by_key(|m| m.point());
                    v
                };
                assert_eq!(list(&mut k), list(&mut g), "{color} stones, {what}");
                assert_eq!(
                    k.ok(&format!("captures {color}")),
                    g.ok(&format!("captures {color}")),
                    "{color} captures, {what}"
                );
            }
            let line = k.ok("showboard");
            let ours = if line.contains("white to play") {
                "white"
            } else {
                "black"
            };
            assert_eq!(ours, gnugo_to_move.trim(), "side to move, {what}");
        }
    }
    for c in [&mut k, &mut g] {
        c.ok("quit");
    }
    k.stop();
    g.stop();
}

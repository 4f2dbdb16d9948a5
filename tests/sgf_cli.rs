//! `kosumi replay`: golden lines and exit status.

use std::path::Path;
use std::process::Command;

fn replay(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("sgf-fixtures"))
        .arg("replay")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const STATS: &str = "format-edge/gogui/statistics-game-1.sgf";
const REP: &str = "superko/fuego-repetition/repetition-1.sgf";

#[test]
fn one_line_per_game_and_exit_status() {
    let (code, out, _) = replay(&[STATS, "format-edge/gogui/ff4_ex.sgf"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "format-edge/gogui/statistics-game-1.sgf game 1: 9x9, 3 of 3 moves, rules chinese, komi 6.5, RE -, area score W+5.5, ok\n\
         format-edge/gogui/ff4_ex.sgf game 1: 19x19, 13 of 13 moves, rules chinese, komi -, RE -, area score B+1, ok\n\
         format-edge/gogui/ff4_ex.sgf game 2: 19x19, 2 of 2 moves, rules chinese, komi -, RE -, area score 0, ok\n"
    );
    let (code, out, _) = replay(&[STATS, REP]);
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().nth(1).unwrap(),
        "superko/fuego-repetition/repetition-1.sgf game 1: 9x9, 64 of 105 moves, rules tromp-taylor, komi 0, RE -, area score W+1, illegal move 65 (black J2): superko (repeats the position after move 62)"
    );
}

#[test]
fn rules_until_tolerant_strict_board() {
    let (code, out, _) = replay(&["--rules", "japanese", REP]);
    assert_eq!(code, 0);
    assert!(out.contains("105 of 105 moves, rules japanese"), "{out}");
    let (code, out, _) = replay(&["--until", "10", REP]);
    assert_eq!(code, 0);
    assert!(out.contains("10 of 105 moves"), "{out}");
    let (code, out, _) = replay(&["--tolerant", REP]);
    assert_eq!(code, 0);
    assert!(
        out.contains("105 of 105 moves")
            && out.contains("rule violations played through (first: move 65 (black J2)"),
        "{out}"
    );
    let (code, out, _) = replay(&["--board", STATS]);
    assert_eq!(code, 0);
    assert!(
        out.contains("   A B C D E F G H J\n 9 . . . . . . . . . 9\n"),
        "{out}"
    );
    let lenient = "format-edge/sgf-parse/ff3-mixed-case-identifier.sgf";
    let (code, _, err) = replay(&["--warnings", lenient]);
    assert_eq!(code, 0);
    assert!(
        err.contains("long property name 'CoPyright' read as 'CP'"),
        "{err}"
    );
    let (code, out, _) = replay(&["--strict", lenient]);
    assert_eq!(code, 1);
    assert!(out.contains(": error: "), "{out}");
}

#[test]
fn bad_input_is_an_error_line_not_a_crash() {
    let (code, out, _) = replay(&["no-such-file.sgf", STATS]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("no-such-file.sgf: error: no-such-file.sgf: cannot read file: "),
        "{out}"
    );
    assert!(out.lines().nth(1).unwrap().ends_with(", ok"));
    let (code, _, err) = replay(&["--rules", "ing", STATS]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown rules 'ing'"), "{err}");
    let (code, _, _) = replay(&[]);
    assert_eq!(code, 2);
}

/// A reader that stops early (`kosumi replay ... | head -1`) closes the
/// pipe: the report ends quietly with success instead of panicking on the
/// next line (it did, exit 101, before `say!`).
#[test]
fn a_closed_pipe_ends_the_report_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // About 650 kB of report lines, far more than a pipe holds.
    let files = vec![STATS; 5000];
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("sgf-fixtures"))
        .arg("replay")
        .args(&files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with(STATS), "{first}");
    // The reader is dropped here, closing the pipe.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

//! The built `kosumi` binary driven through pipes by the `gtp` crate (the
//! controller side), the way Sabaki drives an engine (everything written
//! at once, no ids) and the way kgsGtp does (one command at a time,
//! lower-case moves, `final_status_list dead`, `kgs-genmove_cleanup`), plus
//! process-level edge cases: invalid UTF-8, a 1 MB line, end of input,
//! `quit` with input still open.
//!
//! Vertices in responses are read with `kosumi::point::parse_gtp_move`,
//! never with the `gtp` crate's `EntityParser::vertex`, which maps the
//! non-existent column I onto H.

use crate::controller::Controller;
use gtp_client::Command;
use kosumi::point::{parse_gtp_move, Move};
use std::io::{Read, Write};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_kosumi");

fn vertex(text: &str, size: usize) -> Move {
    parse_gtp_move(text.trim(), size).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

#[test]
fn sabaki_style_pipelined_without_ids() {
    let mut c = Controller::start(BIN, &["--threads", "1", "--playouts", "300"]);
    // Attach, then sync a position: everything written before any answer.
    let lines = [
        Command::new("name"),
        Command::new("version"),
        Command::new("protocol_version"),
        Command::new("list_commands"),
        Command::cmd("komi", |e| e.f(6.5)),
        Command::cmd("boardsize", |e| e.i(9)),
        Command::new("clear_board"),
        Command::cmd("play", |e| e.s("B").s("d4").list()),
        Command::cmd("play", |e| e.s("B").s("f4").list()),
        Command::cmd("play", |e| e.s("W").s("e5").list()),
        Command::cmd("play", |e| e.s("B").s("pass").list()),
        Command::cmd("genmove", |e| e.s("W")),
        Command::new("undo"),
        Command::cmd("play", |e| e.s("W").s("c7").list()),
        Command::cmd("list_stones", |e| e.s("W")),
    ];
    let batch: String = lines.iter().map(|l| l.to_string()).collect();
    c.write(&batch);
    assert_eq!(c.expect_ok(), "Kosumi");
    assert_eq!(c.expect_ok(), env!("CARGO_PKG_VERSION"));
    assert_eq!(c.expect_ok(), "2");
    let list = c.expect_ok();
    let names: Vec<&str> = list.split('\n').collect();
    for n in &names {
        assert_eq!(n.trim(), *n, "untrimmed command name {n:?}");
    }
    for needed in [
        "undo",
        "genmove",
        "play",
        "komi",
        "boardsize",
        "clear_board",
    ] {
        assert!(names.contains(&needed), "{needed} not listed");
    }
    for listed in [
        "lz-analyze",
        "kata-analyze",
        "lz-genmove_analyze",
        "kata-genmove_analyze",
    ] {
        assert!(names.contains(&listed), "{listed} not listed");
    }
    // Not offered: Sabaki would pick `analyze` / `genmove_analyze` first.
    for absent in ["analyze", "genmove_analyze", "kgs-chat"] {
        assert!(!names.contains(&absent), "{absent} listed");
    }
    for _ in 0..7 {
        assert_eq!(c.expect_ok(), "");
    }
    // Black just passed and White wins on the area count now: the search
    // may pass (Tromp-Taylor), or play on; either way a vertex.
    let mv = c.expect_ok();
    vertex(&mv, 9);
    assert_eq!(c.expect_ok(), ""); // undo
    assert_eq!(c.expect_ok(), ""); // play W c7
    let white: Vec<Move> = c
        .expect_ok()
        .split_whitespace()
        .map(|v| vertex(v, 9))
        .collect();
    assert_eq!(white, [vertex("C7", 9), vertex("E5", 9)]);
    // Sabaki stops an engine with quit.
    c.send(Command::new("quit"));
    assert_eq!(c.expect_ok(), "");
    c.check_stream();
    c.stop();
}

#[test]
fn kgsgtp_style_one_at_a_time() {
    let mut c = Controller::start(BIN, &["--seed", "3", "--threads", "1", "--playouts", "500"]);
    let list = c.ok("list_commands");
    let names: Vec<&str> = list.split_whitespace().collect();
    for needed in [
        "kgs-rules",
        "kgs-time_settings",
        "kgs-genmove_cleanup",
        "kgs-game_over",
        "final_status_list",
        "clear_board",
        "undo",
    ] {
        assert!(names.contains(&needed), "{needed} not listed");
    }
    assert!(!names.contains(&"kgs-chat"));
    assert_eq!(c.ok("name"), "Kosumi");
    assert!(!c.ok("version").contains('#'));
    c.ok("kgs-rules chinese");
    c.ok("boardsize 7");
    c.ok("clear_board");
    c.ok("komi 7.5");
    c.ok("kgs-time_settings byoyomi 300 30 5");
    // The finished position, sent as kgsGtp sends moves: lower case.
    for y in 1..=7 {
        c.ok(&format!("play b c{y}"));
        c.ok(&format!("play w d{y}"));
    }
    c.ok("play w a4");
    c.ok("play b f4");
    c.ok("time_left b 280 0");
    let dead = c.ok("final_status_list dead");
    let dead: Vec<Move> = dead.split_whitespace().map(|v| vertex(v, 7)).collect();
    assert_eq!(dead, [vertex("A4", 7), vertex("F4", 7)]);
    assert_eq!(c.ok("final_score"), "W+14.5");
    // Clean-up: Black captures what it considers dead before passing.
    let mut passed = false;
    for _ in 0..200 {
        let mv = c.ok("kgs-genmove_cleanup b");
        let dead_now = c.ok("final_status_list dead");
        let white_now = c.ok("list_stones w");
        if vertex(&mv, 7) == Move::Pass {
            for v in dead_now.split_whitespace() {
                assert!(
                    !white_now.split_whitespace().any(|w| w == v),
                    "passed with the dead white stone {v} on the board"
                );
            }
            passed = true;
            break;
        }
        c.ok("play w pass");
    }
    assert!(passed, "clean-up never ended");
    let before = c.ok("list_stones b");
    c.ok("kgs-game_over");
    assert_eq!(c.ok("list_stones b"), before, "kgs-game_over changed state");
    c.ok("quit");
    c.check_stream();
    c.stop();
}

/// Runs the binary on `input` with stdin closed after it; returns stdout
/// and the exit code.
fn run_with_input(args: &[&str], input: Vec<u8>) -> (String, i32) {
    let mut child = Process::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The engine may quit before reading everything.
        let _ = stdin.write_all(&input);
    });
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    writer.join().unwrap();
    (out, status.code().unwrap_or(-1))
}

#[test]
fn invalid_utf8_and_a_megabyte_line_get_errors_then_eof_exits_0() {
    let mut input = b"1 name \xc3\x28\n".to_vec();
    input.extend_from_slice(b"2 komi ");
    input.extend(std::iter::repeat_n(b'9', 1 << 20));
    input.extend_from_slice(b"\n3 name\n4 komi 6.5");
    let (out, code) = run_with_input(&[], input);
    assert_eq!(
        out,
        "?1 invalid utf-8 in command line\n\n?2 command line too long\n\n=3 Kosumi\n\n=4 \n\n"
    );
    assert_eq!(code, 0);
    let (out, code) = run_with_input(&["gtp"], Vec::new());
    assert_eq!((out.as_str(), code), ("", 0));
}

#[test]
fn quit_answers_then_exits_0_with_input_still_open() {
    let mut child = Process::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"7 quit\n8 name\n").unwrap();
    stdin.flush().unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "kosumi did not exit after quit"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "=7 \n\n");
    assert_eq!(status.code(), Some(0));
    drop(stdin);
}

#[test]
fn command_line_options_set_the_start_position() {
    let (out, code) = run_with_input(
        &["--size", "9", "--komi", "-3", "--rules", "japanese"],
        b"showboard\n".to_vec(),
    );
    assert_eq!(code, 0);
    assert!(out.contains(" 9 . . . . . . . . . 9"), "{out}");
    assert!(out.ends_with("komi -3; rules japanese\n\n"), "{out}");
    let (out, code) = run_with_input(&["--rules", "ing"], Vec::new());
    assert_eq!((out.as_str(), code), ("", 2));
}

//! Hostile inputs at the built binary: files that are not
//! regular or too large for `loadsgf`, and the end of input during a
//! search that would otherwise run for a long time.
//!
//! `/dev/zero` is only ever opened by a child under an address-space limit
//! (`ulimit -v`), so that a regression fails the test instead of taking
//! the machine's memory. Waits have a generous backstop so that a
//! regression fails instead of hanging; no test asserts a duration.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_kosumi");

/// A fresh scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kosumi-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The binary with `args`, under a 3 GB address-space limit.
fn limited(args: &str) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("ulimit -v 3000000; exec '{BIN}' {args}"));
    c
}

/// Waits for `child` to exit, killing it and failing after `backstop`.
fn wait_or_fail(child: &mut Child, backstop: Duration, what: &str) -> i32 {
    let t = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code().unwrap_or(-1);
        }
        if t.elapsed() > backstop {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kosumi did not exit: {what}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `cmd` with `input` on stdin, then end of input; returns stdout,
/// stderr and the exit status, failing if it does not exit in time.
fn run(mut cmd: Command, input: &str, what: &str) -> (String, String, i32) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let o = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let e = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    let code = wait_or_fail(&mut child, Duration::from_secs(120), what);
    (o.join().unwrap(), e.join().unwrap(), code)
}

fn mkfifo(p: &Path) {
    assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
}

#[test]
fn loadsgf_refuses_devices_fifos_directories_and_huge_files_at_once() {
    let d = scratch("loadsgf");
    let fifo = d.join("pipe.sgf");
    mkfifo(&fifo);
    let big = d.join("big.sgf");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(kosumi::files::MAX_FILE_BYTES + 1)
        .unwrap();
    let ok = d.join("ok.sgf");
    std::fs::write(&ok, "(;SZ[9];B[ee])").unwrap();
    let input = format!(
        "1 loadsgf /dev/zero\n2 loadsgf {}\n3 loadsgf {}\n4 loadsgf {}\n5 loadsgf {}\n6 list_stones b\n",
        fifo.display(),
        d.display(),
        big.display(),
        ok.display()
    );
    let (out, err, code) = run(limited("--player random"), &input, "loadsgf");
    assert_eq!(
        out,
        "?1 cannot load file\n\n?2 cannot load file\n\n?3 cannot load file\n\n\
         ?4 cannot load file\n\n=5 \n\n=6 E5\n\n"
    );
    assert_eq!(code, 0);
    assert!(
        err.contains("/dev/zero: cannot read file: not a regular file (a device)"),
        "{err}"
    );
    assert!(
        err.contains("pipe.sgf: cannot read file: not a regular file (a fifo)"),
        "{err}"
    );
    assert!(err.contains("not a regular file (a directory)"), "{err}");
    assert!(
        err.contains("big.sgf: cannot read file: larger than 64 MiB"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn replay_refuses_devices_fifos_and_directories_at_once() {
    let d = scratch("replay");
    let fifo = d.join("pipe.sgf");
    mkfifo(&fifo);
    let args = format!("replay /dev/zero '{}' '{}'", fifo.display(), d.display());
    let (out, _, code) = run(limited(&args), "", "replay");
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].ends_with("not a regular file (a device)"), "{out}");
    assert!(lines[1].ends_with("not a regular file (a fifo)"), "{out}");
    assert!(
        lines[2].ends_with("not a regular file (a directory)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A search of `command` with a move time of a thousand seconds, then the
/// end of input: the process answers and exits 0 well before.
fn eof_stops(command: &str) -> String {
    let input = format!("1 boardsize 9\n2 {command}\n");
    let (out, _, code) = run(
        limited("--threads 1 --time 1000"),
        &input,
        &format!("{command} after the end of input"),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("=1 \n\n=2"), "{out}");
    out
}

#[test]
fn end_of_input_stops_genmove() {
    let out = eof_stops("genmove b");
    let mv = out["=1 \n\n=2 ".len()..].trim();
    assert!(kosumi::point::parse_gtp_move(mv, 9).is_ok(), "{out}");
    // A search stopped at once still plays a stone on the empty board:
    // its first playout visits the move the priors rate best.
    assert!(!mv.eq_ignore_ascii_case("pass"), "{out}");
    assert!(out.ends_with("\n\n"), "{out}");
}

#[test]
fn end_of_input_stops_genmove_analyze() {
    let out = eof_stops("lz-genmove_analyze b 10");
    assert!(out.contains("\nplay "), "{out}");
    assert!(!out.contains("\nplay pass"), "{out}");
    assert!(out.ends_with("\n\n"), "{out}");
}

#[test]
fn a_queued_command_still_gets_its_genmove_in_full() {
    // With `quit` queued after it, end of input does not cut the search
    // short: the playout limit decides the move, the same every run.
    let input = "boardsize 9\ngenmove b\nquit\n";
    let args = "--threads 1 --playouts 400 --seed 3";
    let (a, _, ca) = run(limited(args), input, "genmove then quit");
    let (b, _, cb) = run(limited(args), input, "genmove then quit");
    assert_eq!((ca, cb), (0, 0));
    assert_eq!(a, b);
    let mut engine_out = Vec::new();
    let mut engine = kosumi::gtp::Engine::new(
        kosumi::gtp::Config {
            size: 19,
            komi: kosumi::Komi::parse("7.5").unwrap(),
            rules: kosumi::Rules::default(),
            seed: 3,
            playouts: Some(400),
            verbose: false,
            ponder: false,
            ..kosumi::gtp::Config::default()
        },
        Box::new(kosumi::mcts::MctsPlayer::new(kosumi::mcts::SearchConfig {
            threads: 1,
            seed: 3,
            max_playouts: Some(400),
            ..kosumi::mcts::SearchConfig::default()
        })),
    );
    for line in input.lines() {
        if let Some(r) = engine.execute(line.as_bytes()) {
            engine_out.extend_from_slice(r.as_bytes());
        }
    }
    assert_eq!(a, String::from_utf8(engine_out).unwrap());
}

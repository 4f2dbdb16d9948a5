//! Golden GTP transcripts: each `tests/gtp/NAME.gtp` is fed line by line to
//! a fresh engine (default configuration: 19x19, komi 7.5, chinese rules,
//! seed 1), without any I/O, and the concatenated responses must equal
//! `tests/gtp/NAME.out` byte for byte. The expected files were written by
//! hand from the GTP specification and the engine's documented messages.

use kosumi::gtp::{Config, Engine};
use std::path::Path;

fn run_transcript(input: &[u8]) -> String {
    let mut engine = Engine::with_random_player(Config::default());
    let mut out = String::new();
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for line in lines {
        if let Some(r) = engine.execute(line) {
            out.push_str(&r);
        }
        if engine.quit_requested() {
            break;
        }
    }
    out
}

fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: got {x:?}, expected {y:?}", i + 1);
        }
    }
    format!(
        "lengths differ: got {} lines, expected {}",
        a.lines().count(),
        b.lines().count()
    )
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "gtp"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "transcripts missing in {}", dir.display());
    let mut failures = Vec::new();
    for input in &names {
        let expected_path = input.with_extension("out");
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        let got = run_transcript(&std::fs::read(input).unwrap());
        if got != expected {
            failures.push(format!(
                "{}: {}\n--- got ---\n{got}",
                input.file_name().unwrap().to_string_lossy(),
                first_difference(&got, &expected)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

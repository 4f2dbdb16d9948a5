//! Fuzzing the GTP command line with proptest (`cargo fuzz` needs a
//! nightly toolchain, which this project does not use).
//!
//! Properties, for any input: no panic; exactly one response for every
//! line that is not empty, blank or a comment, and none for those; the
//! response starts with `=` or `?` followed by the line's id when it has
//! one, ends with the only empty line, and holds no control character but
//! LF; the board stays consistent (`check_invariants`) after every command.
//!
//! The default run is short. The soak run goes on for `KOSUMI_FUZZ_SECS`
//! seconds (default 600):
//! `KOSUMI_FUZZ_SECS=600 cargo test --release --test gtp_suite -- fuzz::soak --ignored --nocapture`.

use kosumi::gtp::line::{self, Line};
use kosumi::gtp::{Config, Engine};
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};
use std::time::{Duration, Instant};

/// Checks one response against the line that caused it.
fn check_response(raw: &[u8], response: Option<String>) -> Result<(), TestCaseError> {
    let parsed = line::parse(raw);
    match (&parsed, response) {
        (Line::Empty, None) => Ok(()),
        (Line::Empty, Some(r)) => Err(TestCaseError::fail(format!(
            "response {r:?} to the empty line {raw:?}"
        ))),
        (_, None) => Err(TestCaseError::fail(format!("no response to {raw:?}"))),
        (_, Some(r)) => {
            let id = match &parsed {
                Line::Command(req) => req.id.clone(),
                Line::Error(e) => e.id.clone(),
                Line::Empty => None,
            };
            let prefix_ok = ["=", "?"]
                .iter()
                .any(|s| r.starts_with(&format!("{s}{} ", id.as_deref().unwrap_or(""))));
            prop_assert!(prefix_ok, "bad start {:?} for {:?}", r, raw);
            prop_assert!(r.ends_with("\n\n"), "bad end {:?}", r);
            prop_assert!(
                !r.contains("internal error"),
                "a handler panicked on {:?}",
                raw
            );
            prop_assert!(
                !r[..r.len() - 2].contains("\n\n"),
                "empty line inside {:?}",
                r
            );
            prop_assert!(
                r.chars().all(|c| c == '\n' || !c.is_control()),
                "control character in {:?}",
                r
            );
            Ok(())
        }
    }
}

fn run_lines(lines: &[Vec<u8>]) -> Result<(), TestCaseError> {
    let mut engine = Engine::with_random_player(Config {
        size: 9,
        ..Config::default()
    });
    for raw in lines {
        let r = engine.execute(raw);
        check_response(raw, r)?;
        if let Err(e) = engine.game().board().check_invariants() {
            return Err(TestCaseError::fail(format!("after {raw:?}: {e}")));
        }
        if engine.quit_requested() {
            break;
        }
    }
    Ok(())
}

/// Raw bytes, one line each (no LF inside), biased towards the bytes that
/// matter to the preprocessing.
fn raw_line() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => any::<u8>().prop_filter("no LF", |b| *b != b'\n'),
        2 => prop::sample::select(vec![b' ', b'\t', b'\r', 0u8, 0x7f, b'#', b'1', b'b', b'w']),
        2 => prop::sample::select(b"abcdefghijklmnopqrstuvwxyz_-0123456789".to_vec()),
    ];
    prop::collection::vec(byte, 0..80)
}

/// Command lines made of real command names and plausible or hostile
/// arguments, so that state-changing paths are reached.
fn command_line() -> impl Strategy<Value = Vec<u8>> {
    let names: Vec<&'static str> = kosumi::gtp::table::commands()
        .iter()
        .map(|c| c.name)
        // quit ends a session; printsgf with an argument writes a file.
        .filter(|n| *n != "quit" && *n != "printsgf")
        .chain(["kgs-chat", "Play", "lz-analyze"])
        .collect();
    let arg = prop::sample::select(vec![
        "b",
        "w",
        "B",
        "white",
        "x",
        "d4",
        "D4",
        "e5",
        "i5",
        "a0",
        "j9",
        "j10",
        "k5",
        "t19",
        "pass",
        "PASS",
        "0",
        "1",
        "2",
        "5",
        "9",
        "19",
        "25",
        "26",
        "-1",
        "6.5",
        "nan",
        "inf",
        "alive",
        "dead",
        "seki",
        "none",
        "absolute",
        "byoyomi",
        "canadian",
        "japanese",
        "chinese",
        "aga",
        "new_zealand",
        "ko=simple",
        "suicide=yes",
        "tromp-taylor",
        "\"a b\"",
        "\u{e9}",
    ]);
    (
        prop::option::of(0u32..1000),
        prop::sample::select(names),
        prop::collection::vec(arg, 0..5),
        prop::sample::select(vec!["", "\r", " # c", "\t"]),
    )
        .prop_map(|(id, name, args, tail)| {
            let mut s = String::new();
            if let Some(id) = id {
                s.push_str(&format!("{id} "));
            }
            s.push_str(name);
            for a in args {
                s.push(' ');
                s.push_str(a);
            }
            s.push_str(tail);
            s.into_bytes()
        })
}

/// A vertex on or near a 9x9 board (column I and row 0 included), or a
/// pass.
fn vertex() -> impl Strategy<Value = String> {
    prop_oneof![
        10 => (0usize..10, 0usize..11).prop_map(|(x, y)| {
            format!("{}{y}", b"ABCDEFGHIJ"[x] as char)
        }),
        1 => Just("pass".to_string()),
    ]
}

fn colour() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["b", "w", "B", "W", "black", "white"]).prop_map(String::from)
}

/// Commands with the argument shapes they expect, so that play, genmove,
/// undo, handicaps and scoring really change and read the state.
fn shaped_command() -> impl Strategy<Value = Vec<u8>> {
    let gen = prop::sample::select(vec!["genmove", "reg_genmove", "kgs-genmove_cleanup"]);
    let plain = prop::sample::select(vec![
        "clear_board",
        "undo",
        "showboard",
        "final_score",
        "kosumi-superko_history",
        "printsgf",
        "list_commands",
    ]);
    let line = prop_oneof![
        8 => (colour(), vertex()).prop_map(|(c, v)| format!("play {c} {v}")),
        3 => (gen, colour()).prop_map(|(g, c)| format!("{g} {c}")),
        2 => plain.prop_map(String::from),
        1 => (0usize..5).prop_map(|n| format!("gg-undo {n}")),
        1 => prop::sample::select(vec![2usize, 3, 5, 7, 9, 9, 9]).prop_map(|n| format!("boardsize {n}")),
        1 => (0usize..12).prop_map(|n| format!("fixed_handicap {n}")),
        1 => (0usize..12).prop_map(|n| format!("place_free_handicap {n}")),
        1 => prop::collection::vec(vertex(), 0..5).prop_map(|v| format!("set_free_handicap {}", v.join(" "))),
        1 => (colour(), vertex()).prop_map(|(c, v)| format!("is_legal {c} {v}")),
        1 => prop::sample::select(vec!["alive", "dead", "seki"]).prop_map(|s| format!("final_status_list {s}")),
        1 => prop::sample::select(vec!["japanese", "chinese", "aga", "new_zealand"]).prop_map(|r| format!("kgs-rules {r}")),
        1 => prop::sample::select(vec!["ko=simple", "ko=situational", "ko=positional", "suicide=yes", "suicide=no"]).prop_map(|r| format!("kosumi-rules {r}")),
    ];
    (prop::option::of(0u32..100), line).prop_map(|(id, l)| match id {
        Some(id) => format!("{id} {l}").into_bytes(),
        None => l.into_bytes(),
    })
}

fn mixed_session() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(
        prop_oneof![1 => raw_line(), 2 => command_line(), 6 => shaped_command()],
        1..80,
    )
}

/// The specification's four preprocessing steps, written out one by one
/// on text (a second implementation to compare with `line::preprocess`).
fn reference_preprocess(raw: &[u8]) -> Vec<u8> {
    let line: Vec<u8> = raw.iter().copied().take_while(|&b| b != b'\n').collect();
    // 1. Remove control characters except HT and LF.
    let step1: Vec<u8> = line
        .into_iter()
        .filter(|&b| b == b'\t' || !(b < 32 || b == 127))
        .collect();
    // 2. Remove comments.
    let step2: Vec<u8> = match step1.iter().position(|&b| b == b'#') {
        Some(i) => step1[..i].to_vec(),
        None => step1,
    };
    // 3. HT to space.
    step2
        .into_iter()
        .map(|b| if b == b'\t' { b' ' } else { b })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn preprocessing_matches_the_four_spec_steps(raw in raw_line()) {
        prop_assert_eq!(line::preprocess(&raw), reference_preprocess(&raw));
        // 4. A line empty after the steps gets no response.
        let blank = reference_preprocess(&raw).iter().all(|&b| b == b' ');
        prop_assert_eq!(blank, line::parse(&raw) == Line::Empty);
    }

    #[test]
    fn any_bytes_get_one_well_formed_response(lines in prop::collection::vec(raw_line(), 1..20)) {
        run_lines(&lines)?;
    }

    #[test]
    fn command_sessions_keep_the_engine_consistent(lines in mixed_session()) {
        run_lines(&lines)?;
    }
}

#[test]
#[ignore]
fn soak() {
    let secs: u64 = std::env::var("KOSUMI_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let limit = Duration::from_secs(secs);
    let start = Instant::now();
    let mut sessions = 0u64;
    let mut rounds = 0u64;
    while start.elapsed() < limit {
        let mut runner = TestRunner::new(RunnerConfig {
            cases: 500,
            failure_persistence: None,
            ..RunnerConfig::default()
        });
        runner
            .run(&mixed_session(), |lines| run_lines(&lines))
            .unwrap();
        let mut runner = TestRunner::new(RunnerConfig {
            cases: 500,
            failure_persistence: None,
            ..RunnerConfig::default()
        });
        runner
            .run(&prop::collection::vec(raw_line(), 1..20), |lines| {
                run_lines(&lines)
            })
            .unwrap();
        sessions += 1000;
        rounds += 1;
    }
    eprintln!(
        "gtp fuzz soak: {sessions} sessions in {rounds} rounds, {:.0} s, no failure",
        start.elapsed().as_secs_f64()
    );
}

//! `kosumi regress` at the built binary: the small suites in
//! `tests/regress/` against a fake engine (`tests/regress/fake-gtp.sh`)
//! whose every answer is known (pass, fail, unexpected pass, known
//! failure, unknown command, recorded, crash, hang), a malformed suite,
//! `--jobs`, and the superko suites of `tests/gtp/regress/` against
//! Kosumi itself (the default engine).
#![cfg(unix)]

use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_kosumi");

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress")
}

fn fake() -> String {
    format!("sh {}", dir().join("fake-gtp.sh").display())
}

/// Runs `kosumi regress ARGS` from a folder other than the suites', so
/// that the working directory the engine gets is the runner's doing.
fn regress(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("regress")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Outcome by test id, per suite file name, from the JSON report.
fn outcomes(json: &str) -> BTreeMap<String, BTreeMap<u64, String>> {
    let suite_re = Regex::new(r#"\{"file":"([^"]*)""#).unwrap();
    let test_re = Regex::new(r#"\{"id":(\d+),.*?"outcome":"([a-z_]+)""#).unwrap();
    let starts: Vec<(usize, String)> = suite_re
        .captures_iter(json)
        .map(|c| {
            let name = Path::new(&c[1]).file_name().unwrap();
            (
                c.get(0).unwrap().start(),
                name.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let mut out = BTreeMap::new();
    for (i, (start, name)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(json.len(), |s| s.0);
        let tests = test_re
            .captures_iter(&json[*start..end])
            .map(|c| (c[1].parse().unwrap(), c[2].to_string()))
            .collect();
        out.insert(name.clone(), tests);
    }
    out
}

fn expect(pairs: &[(u64, &str)]) -> BTreeMap<u64, String> {
    pairs.iter().map(|(i, o)| (*i, o.to_string())).collect()
}

#[test]
fn every_outcome_of_the_fake_engine() {
    let suite = dir().join("outcomes.tst");
    let o = regress(&["--engine", &fake(), "--json", suite.to_str().unwrap()]);
    // Tests 2, 9, 10 and 11 fail unexpectedly.
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let json = stdout(&o);
    assert_eq!(
        outcomes(&json)["outcomes.tst"],
        expect(&[
            (1, "pass"),
            (2, "fail"),
            (3, "unexpected_pass"),
            (4, "known_failure"),
            (5, "unknown"),
            (6, "recorded"),
            // `[PASS]` matches `pass`: case does not matter.
            (7, "pass"),
            (8, "pass"),
            (9, "fail"),
            // The whole answer must match, not a part.
            (10, "fail"),
            // An error answer from a command the engine knows fails.
            (11, "fail"),
            (12, "pass"),
            // No `#?` line: passes unless the answer is an error.
            (13, "pass"),
            // The engine runs in the suite's folder.
            (14, "pass"),
            (15, "known_failure"),
        ])
    );
    assert!(
        json.contains("\"total\":{\"tests\":15,\"judged\":13,\"passed\":7,\"pass\":6,\"fail\":4,\"unexpected_pass\":1,\"known_failure\":2,\"unknown\":1,\"recorded\":1,\"fault\":0}"),
        "{json}"
    );
    assert!(
        json.contains("\"id\":6,\"line\":15,\"command\":\"answer anything at all\",\"expected\":\"C3\",\"answer\":\"anything at all\""),
        "{json}"
    );

    let o = regress(&["--engine", &fake(), suite.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let first = text.lines().next().unwrap();
    // The line goes on with the seconds taken, which no test asserts.
    assert!(
        first.contains(
            "outcomes.tst: 7 of 13 passed (1 unexpected pass), 4 failed, 2 known failures, \
             1 unknown, 1 recorded; "
        ),
        "{text}"
    );
    assert!(
        text.contains("\n  2 FAILED: answer E5 (line 7): expected [C3|D4], got 'E5'\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  3 UNEXPECTED PASS: answer D4 (line 9)"),
        "{text}"
    );
    assert!(
        text.contains("\n  5 unknown command: owl_attack A1 (line 13): expected [1 A1], got '? unknown command'\n"),
        "{text}"
    );
    assert!(text.contains("\n  known failures: 4 15\n"), "{text}");
    assert!(text.contains("\nTotal: 7 of 13 passed"), "{text}");
}

#[test]
fn a_crash_and_a_hang_fail_their_tests_and_the_suite_goes_on() {
    let suite = dir().join("faults.tst");
    let o = regress(&[
        "--engine",
        &fake(),
        "--timeout",
        "2",
        "--json",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let json = stdout(&o);
    assert_eq!(
        outcomes(&json)["faults.tst"],
        expect(&[
            (1, "pass"),
            // A crash fails even a test marked `*`.
            (2, "fault"),
            // The restarted engine got `remember seven` again.
            (3, "pass"),
            (4, "fault"),
            (5, "pass"),
            (6, "pass"),
        ])
    );
    assert!(json.contains("\"restarts\":2,"), "{json}");
    assert!(json.contains("crashing on purpose"), "{json}");
    assert!(json.contains("did not answer within 2.0 s"), "{json}");
}

#[test]
fn jobs_cut_a_suite_into_pieces_with_the_state_replayed() {
    let suite = dir().join("pieces.tst");
    let all_pass: Vec<(u64, &str)> = (1..=8).map(|i| (i, "pass")).collect();
    for jobs in ["1", "3", "8"] {
        let o = regress(&[
            "--engine",
            &fake(),
            "--jobs",
            jobs,
            "--json",
            suite.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "jobs {jobs}: {o:?}");
        assert_eq!(outcomes(&stdout(&o))["pieces.tst"], expect(&all_pass));
    }
    // Several suites at once keep their order and their own results.
    let a = dir().join("outcomes.tst");
    let o = regress(&[
        "--engine",
        &fake(),
        "--jobs",
        "2",
        "--json",
        a.to_str().unwrap(),
        suite.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let json = stdout(&o);
    let names: Vec<String> = outcomes(&json).keys().cloned().collect();
    assert_eq!(names, ["outcomes.tst", "pieces.tst"]);
    assert!(
        json.find("outcomes.tst").unwrap() < json.find("pieces.tst").unwrap(),
        "{json}"
    );
    assert_eq!(outcomes(&json)["outcomes.tst"].len(), 15);
}

#[test]
fn a_malformed_line_is_named_by_file_and_line() {
    let suite = dir().join("malformed.tst");
    let o = regress(&["--engine", &fake(), suite.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}:5: expected `[` after `#?`", suite.display())),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn a_missing_engine_is_a_clear_error() {
    let suite = dir().join("pieces.tst");
    let o = regress(&[
        "--engine",
        "/nonexistent/kosumi-fake-engine",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot start the engine"), "{err}");
}

#[test]
fn the_superko_suites_pass_against_kosumi_itself() {
    let gtp = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp/regress");
    let files: Vec<String> = ["simple", "situational", "positional"]
        .iter()
        .map(|r| {
            gtp.join(format!("superko-{r}.tst"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut args = vec!["--threads", "1", "--jobs", "2", "--json"];
    args.extend(files.iter().map(String::as_str));
    let o = regress(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let results = outcomes(&stdout(&o));
    assert_eq!(results.len(), 3);
    let mut total = 0;
    for (name, tests) in &results {
        for (id, outcome) in tests {
            assert_eq!(outcome, "pass", "{name} {id}");
        }
        total += tests.len();
    }
    assert!(total >= 100, "only {total} tests");
}

#[test]
fn kosumi_gets_the_engine_options_and_unknown_commands_are_counted_apart() {
    let scratch = std::env::temp_dir().join(format!("kosumi-regress-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let suite = scratch.join("unknown.tst");
    std::fs::write(
        &suite,
        "1 kosumi-rules\n#? [japanese.*]\n2 final_score\n#? [W\\+3\\.5]\n\
         boardsize 9\nplay b e5\n3 owl_attack E5\n#? [0]\n4 is_legal w e5\n#? [0]\n",
    )
    .unwrap();
    // The engine options reach Kosumi's engine.
    let o = regress(&[
        "--player",
        "random",
        "--rules",
        "japanese",
        "--komi",
        "3.5",
        "--json",
        suite.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&scratch).unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(
        outcomes(&stdout(&o))["unknown.tst"],
        expect(&[(1, "pass"), (2, "pass"), (3, "unknown"), (4, "pass")])
    );
}

#[test]
fn a_restart_replays_setup_and_genmove_as_play_but_no_queries() {
    let suite = dir().join("replay.tst");
    let o = regress(&["--engine", &fake(), "--json", suite.to_str().unwrap()]);
    let json = stdout(&o);
    // The crash is an unexpected failure, whatever the `*`.
    assert_eq!(o.status.code(), Some(1), "{json}");
    assert_eq!(
        outcomes(&json)["replay.tst"],
        expect(&[
            (1, "pass"),
            (2, "pass"),
            (3, "known_failure"),
            (4, "pass"),
            (5, "fault"),
            (6, "pass"),
        ])
    );
}

//! Every bad setting on every subcommand is refused before anything runs,
//! with clap's message and exit status 2 (`gtp`, `bench`,
//! `selfplay`, `match` and `regress` share one validation, `kosumi::settings`,
//! and one set of search options, `kosumi::mcts::SearchArgs`).

use std::process::{Command, Stdio};

fn kosumi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
}

/// Runs `args` with stdin closed and asserts exit status 2 and a message
/// naming `option`.
fn refused(args: &[&str], option: &str) {
    let out = kosumi().args(args).stdin(Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} not refused: {err}");
    // clap's parsers say "invalid value"; the clock's check of the time
    // options (`clock::TimeOptions::check`) says "out of range".
    assert!(
        (err.contains("invalid value") || err.contains("out of range")) && err.contains(option),
        "{args:?}: {err}"
    );
    assert!(out.stdout.is_empty(), "{args:?} printed something");
}

const TOO_MANY_THREADS: &str = "100000";

#[test]
fn gtp_refuses_each_bad_setting() {
    for prefix in [&[][..], &["gtp"][..]] {
        for (opt, bad) in [
            ("--threads", "0"),
            ("--threads", TOO_MANY_THREADS),
            ("--playouts", "0"),
            ("--time", "0"),
            ("--time", "-2"),
            ("--time", "NaN"),
            ("--time", "1e300"),
            ("--komi", "inf"),
            ("--dyn-komi", "-1"),
        ] {
            let mut args = prefix.to_vec();
            let given = format!("{opt}={bad}");
            args.push(&given);
            refused(&args, opt);
        }
    }
}

#[test]
fn bench_refuses_each_bad_setting() {
    for (opt, bad) in [
        ("--threads", "0"),
        ("--threads", TOO_MANY_THREADS),
        ("--playouts", "0"),
    ] {
        refused(&["bench", "--search", opt, bad], opt);
        refused(&["bench", opt, bad], opt);
    }
}

/// Settings `selfplay` and `match` share.
const GAME_SETTINGS: [(&str, &str); 11] = [
    ("--threads", "0"),
    ("--threads", TOO_MANY_THREADS),
    ("--playouts", "0"),
    ("--max-moves", "0"),
    ("--games", "0"),
    ("--time", "0"),
    ("--time", "1e300"),
    ("--time", "inf"),
    ("--komi", "NaN"),
    ("--komi", "1e9"),
    ("--dyn-komi", "101"),
];

#[test]
fn selfplay_refuses_each_bad_setting() {
    let out = std::env::temp_dir().join(format!("kosumi-settings-{}", std::process::id()));
    let out = out.to_str().unwrap();
    for (opt, bad) in GAME_SETTINGS.iter().copied().chain([("--jobs", "0")]) {
        refused(&["selfplay", "--out", out, opt, bad], opt);
    }
    assert!(
        !std::path::Path::new(out).exists(),
        "a refused run made its --out"
    );
}

#[test]
fn match_refuses_each_bad_setting() {
    let settings = GAME_SETTINGS
        .iter()
        .copied()
        .chain([("--move-timeout", "0"), ("--move-timeout", "1e300")]);
    for (opt, bad) in settings {
        refused(&["match", "--opponent", "false", opt, bad], opt);
    }
}

#[test]
fn regress_refuses_each_bad_setting() {
    for (opt, bad) in [
        ("--timeout", "0"),
        ("--timeout", "1e300"),
        ("--threads", "0"),
        ("--playouts", "0"),
        ("--jobs", "0"),
    ] {
        refused(&["regress", "x.tst", &format!("{opt}={bad}")], opt);
    }
}

/// The hidden tuning option `--set KEY=VALUE` is checked like the others
/// on every command that builds our search.
#[test]
fn tuning_settings_are_checked() {
    for args in [
        &["gtp"][..],
        &["match", "--opponent", "true"][..],
        &["selfplay", "--out", "/nonexistent-kosumi-dir"][..],
        &["regress", "x.tst"][..],
    ] {
        for bad in [
            "nonsense=1",
            "rave_equiv=-3",
            "ladder_in_shapes=perhaps",
            "uct_c",
        ] {
            let given = format!("--set={bad}");
            let mut a = args.to_vec();
            a.push(&given);
            refused(&a, "--set");
        }
    }
    // A good one is taken: the engine answers.
    let out = kosumi()
        .args([
            "gtp",
            "--set",
            "rave_equiv=1000",
            "--set",
            "prior_visits=40",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().expect("stdin").write_all(b"name\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "= Kosumi\n\n= \n\n");
}

/// `--set list` prints the knob table on every command that builds our
/// search, and nothing runs.
#[test]
fn set_list_prints_the_knob_table_everywhere() {
    for args in [
        &["gtp"][..],
        &[][..],
        &["match", "--opponent", "false"][..],
        &["selfplay"][..],
        &["regress", "x.tst"][..],
        &["bench", "--search"][..],
    ] {
        let mut a = args.to_vec();
        a.extend(["--set", "list"]);
        let out = kosumi().args(&a).stdin(Stdio::null()).output().unwrap();
        assert!(out.status.success(), "{a:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let keys: Vec<&str> = text
            .lines()
            .skip(1)
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert!(text.starts_with("KEY"), "{a:?}: {text}");
        assert!(keys.contains(&"rave_equiv") && keys.contains(&"resign_threshold"));
        assert_eq!(keys.len(), text.lines().count() - 1, "{a:?}");
    }
}

/// The search options take the same values on every command, `--player`
/// both spellings of the search, and the hidden second spellings of the
/// knobs are gone.
#[test]
fn search_options_mean_the_same_everywhere() {
    let ok_args: [&[&str]; 3] = [
        &["--player", "mcts", "--set", "list"],
        &["--player", "search", "--set", "list"],
        &[
            "--priors",
            "hand",
            "--no-resign",
            "--max-memory",
            "64",
            "--set",
            "list",
        ],
    ];
    for cmd in [
        &["gtp"][..],
        &["selfplay"][..],
        &["match", "--opponent", "x"][..],
    ] {
        for extra in ok_args {
            let mut a = cmd.to_vec();
            a.extend_from_slice(extra);
            let out = kosumi().args(&a).stdin(Stdio::null()).output().unwrap();
            assert!(out.status.success(), "{a:?}");
        }
        for (opt, bad) in [
            ("--player", "gnugo"),
            ("--priors", "mogo"),
            ("--max-memory", "1"),
            ("--prior-visits", "40"),
            ("--prior-exponent", "1"),
            ("--prior-hand", "yes"),
            ("--playout-gammas", "yes"),
        ] {
            let mut a = cmd.to_vec();
            a.extend([opt, bad]);
            let out = kosumi().args(&a).stdin(Stdio::null()).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{a:?}");
            assert!(String::from_utf8_lossy(&out.stderr).contains(opt), "{a:?}");
        }
    }
}

//! The `kosumi selfplay` command line: same bytes twice, shards merged by
//! `selfplay summarize`, a clean stop on Ctrl-C.

mod selfplay_support;

use selfplay_support::{check_counted_result, files, replay_with_cli, scratch};
use std::process::Command;

fn kosumi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn selfplay_twice_gives_the_same_files_and_shards_merge() {
    let a = scratch("cli-selfplay-a");
    let b = scratch("cli-selfplay-b");
    let args = [
        "selfplay", "--player", "random", "--games", "4", "--size", "9", "--komi", "7.5",
    ];
    let text = run_ok(kosumi().args(args).args(["--seed", "9", "--out"]).arg(&a));
    assert!(text.contains("games 4"), "{text}");
    assert!(
        text.contains("Black wins") && text.contains("95% CI"),
        "{text}"
    );
    run_ok(kosumi().args(args).args(["--seed", "9", "--out"]).arg(&b));
    let fa = files(&a, ".sgf");
    assert_eq!(fa.len(), 4);
    assert_eq!(fa, files(&b, ".sgf"));
    for (_, bytes) in &fa {
        assert!(check_counted_result(std::str::from_utf8(bytes).unwrap()));
    }
    let paths: Vec<_> = fa.iter().map(|(n, _)| a.join(n)).collect();
    replay_with_cli(&paths);

    // Two shards into two directories, merged.
    let s0 = scratch("cli-selfplay-s0");
    let s1 = scratch("cli-selfplay-s1");
    for (i, d) in [(0, &s0), (1, &s1)] {
        run_ok(
            kosumi()
                .args(args)
                .args(["--seed", "9", "--shard", &format!("{i}/2"), "--out"])
                .arg(d),
        );
    }
    let mut union = files(&s0, ".sgf");
    union.extend(files(&s1, ".sgf"));
    union.sort();
    assert_eq!(union, fa);
    let whole = run_ok(kosumi().args(["selfplay", "summarize", "--json"]).arg(&a));
    let merged = run_ok(
        kosumi()
            .args(["selfplay", "summarize", "--json"])
            .arg(&s0)
            .arg(&s1),
    );
    // Equal except the thinking time and the number of tables.
    let strip = |s: &str| {
        let from = s.find("\"kind\"").unwrap();
        s[from..].split(",\"seconds\"").next().unwrap().to_string()
    };
    assert_eq!(strip(&whole), strip(&merged));
    assert!(
        whole.starts_with(
            "{\"tables\":1,\"present\":4,\"expected\":4,\"duplicates\":0,\"torn\":0,\
             \"kind\":\"selfplay\",\"games\":4,"
        ),
        "{whole}"
    );
    assert!(
        merged.starts_with("{\"tables\":2,\"present\":4,"),
        "{merged}"
    );
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    for args in [
        vec!["selfplay", "--games", "2"], // no --out
        vec!["selfplay", "--shard", "3/3", "--out", "x"],
        vec!["selfplay", "--size", "30", "--out", "x"],
        vec!["selfplay", "--rules", "klingon", "--out", "x"],
        vec!["selfplay", "--komi", "NaN", "--out", "x"],
        vec!["selfplay", "--time", "-1", "--out", "x"],
        vec!["match", "--opponent", "x", "--move-timeout", "0"],
        vec!["selfplay", "summarize", "/nonexistent/kosumi/dir"],
        vec![
            "match",
            "--opponent",
            "/nonexistent/engine --gtp",
            "--games",
            "1",
        ],
        vec!["match", "--opponent", "'unterminated", "--games", "1"],
    ] {
        let out = kosumi().args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}: no message");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_finished_games_and_leaves_no_partial_file() {
    let d = scratch("cli-selfplay-ctrlc");
    let child = kosumi()
        .args([
            "selfplay", "--player", "random", "--games", "1000000", "--size", "13", "--out",
        ])
        .arg(&d)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until some games are written, then interrupt.
    let t0 = std::time::Instant::now();
    while files(&d, ".sgf").len() < 3 {
        assert!(t0.elapsed().as_secs() < 60, "no games written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let text = String::from_utf8(out.stdout).unwrap();
    let sgfs = files(&d, ".sgf");
    // The summary, the table and the directory agree on the games.
    assert!(text.contains(&format!("games {} ", sgfs.len())), "{text}");
    let table = std::fs::read_to_string(d.join("selfplay-0-of-1.tsv")).unwrap();
    let rows = table
        .lines()
        .filter(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .count();
    assert_eq!(rows, sgfs.len());
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
}

/// Self-play records carry the search's win rate on every move as Sabaki's
/// `SBKV` (Black's, in percent), the same in two runs.
#[test]
fn selfplay_records_carry_sbkv_on_every_move() {
    let (a, b) = (
        scratch("cli-selfplay-sbkv-a"),
        scratch("cli-selfplay-sbkv-b"),
    );
    let args = [
        "selfplay",
        "--player",
        "search",
        "--games",
        "1",
        "--size",
        "7",
        "--playouts",
        "60",
        "--threads",
        "1",
        "--max-moves",
        "30",
    ];
    run_ok(kosumi().args(args).args(["--seed", "3", "--out"]).arg(&a));
    run_ok(kosumi().args(args).args(["--seed", "3", "--out"]).arg(&b));
    let fa = files(&a, ".sgf");
    assert_eq!(fa, files(&b, ".sgf"), "deterministic");
    let (name, bytes) = &fa[0];
    let c = kosumi::sgf::read_bytes(bytes, kosumi::sgf::ReadOptions::default()).unwrap();
    let tree = &c.trees[0];
    let mut moves = 0;
    for i in tree.main_line() {
        let n = &tree.nodes[i];
        if n.get("B").is_none() && n.get("W").is_none() {
            continue;
        }
        moves += 1;
        let v: f64 = n
            .value("SBKV")
            .unwrap_or_else(|| panic!("{name}: a move without SBKV"))
            .parse()
            .unwrap();
        assert!((0.0..=100.0).contains(&v));
    }
    assert!(moves > 0);
}

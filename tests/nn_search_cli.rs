//! The network on the command line: `--nn auto|builtin|FILE|none` and
//! its errors, the default (`auto`), a board size the network does not
//! cover, `--player policy`, and `--nn none` leaving self-play's records
//! as they were.

mod selfplay_support;

use kosumi::nn::{Network, Shape};
use selfplay_support::{files, scratch};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn kosumi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
}

/// Runs `kosumi ARGS` with `input` on stdin.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = kosumi()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kosumi starts");
    // A command refused at its arguments ends before it reads.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("kosumi ends")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A network of no blocks and one channel whose policy prefers the top
/// left point by 20 logits: the channel is `relu(1 - [left, above and
/// above-left points on the board] + 0.5 [the previous move below-left])`,
/// 1 at the top left corner alone, 0.5 up and right of the previous move
/// on the edge (B9 after A8), 0 elsewhere (up to rounding). Its header
/// names 9x9.
fn corner_net() -> Network {
    let shape = Shape {
        planes: 24,
        blocks: 0,
        channels: 1,
        value_hidden: 0,
    };
    let mut w = vec![0.0f32; 24 * 9];
    for k in [0, 1, 3] {
        w[22 * 9 + k] = -1.0;
    }
    // Plane 17, the previous move, at the kernel's bottom left.
    w[17 * 9 + 6] = 0.5;
    w.extend([1.0, 1.0, 0.0, 0.0, 0.0, 20.0, 0.0, 0.0, 0.0, -50.0]);
    let header = "kosumi nn weights\ndata: test: 1 positions of 9x9, 24 planes\n";
    Network::from_weights(header.to_string(), shape, &w).expect("corner net")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("written");
    p.to_string_lossy().into_owned()
}

#[test]
fn bad_networks_are_command_line_errors() {
    let dir = scratch("nn-cli-bad");
    let garbage = write(&dir, "garbage.bin", b"not a network at all");
    let mut short = corner_net().to_bytes();
    short.truncate(short.len() - 8);
    let short = write(&dir, "short.bin", &short);
    let planes = Network::random(
        Shape {
            planes: 5,
            blocks: 0,
            channels: 2,
            value_hidden: 0,
        },
        1,
    );
    let planes = write(&dir, "planes.bin", &planes.to_bytes());
    let missing = dir.join("missing.bin").to_string_lossy().into_owned();
    for (file, why) in [
        (&garbage, "magic"),
        (&short, ""),
        (&planes, "5 input planes"),
        (&missing, ""),
    ] {
        for cmd in ["gtp", "selfplay", "match", "bench", "analysis", "analyze"] {
            let out = run(&[cmd, "--nn", file], "quit\n");
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {file}: {err}");
            assert!(err.contains("--nn") && err.contains(file.as_str()), "{err}");
            assert!(err.contains(why), "{err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    let out = run(&["gtp", "--player", "policy", "--nn", "none"], "quit\n");
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("--player policy"));
    // Unknown players name the policy player.
    let out = run(&["gtp", "--player", "net"], "quit\n");
    assert!(text(&out.stderr).contains("policy"));
}

#[test]
fn the_policy_player_plays_the_networks_top_move() {
    let dir = scratch("nn-cli-policy");
    let net = write(&dir, "corner.bin", &corner_net().to_bytes());
    let out = run(
        &["gtp", "--player", "policy", "--nn", &net, "--size", "9"],
        "genmove b\nplay w A8\ngenmove b\nquit\n",
    );
    let answers = text(&out.stdout);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    // A9 first; then, A9 taken, B9 (up and right of White's A8) by 10
    // logits over every other point.
    let moves: Vec<&str> = answers
        .lines()
        .filter_map(|l| l.strip_prefix("= "))
        .filter(|m| !m.is_empty())
        .collect();
    assert_eq!(moves, ["A9", "B9"], "{answers}");
    assert!(!err.contains("warning"), "{err}");
    // On 19x19 the corner net (trained on 9x9, its header says) still
    // plays, after one warning.
    let out = run(
        &["gtp", "--player", "policy", "--nn", &net],
        "genmove b\ngenmove w\nquit\n",
    );
    let err = text(&out.stderr);
    assert!(text(&out.stdout).contains("= A19"), "{}", text(&out.stdout));
    assert_eq!(err.matches("warning").count(), 1, "{err}");
}

/// Self-play of one 9x9 game with fixed playouts and `extra` options: the
/// records and stderr.
fn selfplay(name: &str, extra: &[&str]) -> (Vec<(String, Vec<u8>)>, String) {
    let dir = scratch(name);
    let out = kosumi()
        .args([
            "selfplay",
            "--games",
            "1",
            "--size",
            "9",
            "--playouts",
            "150",
            "--seed",
            "4",
            "--out",
        ])
        .arg(&dir)
        .args(extra)
        .output()
        .expect("selfplay runs");
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    (files(&dir, ".sgf"), err)
}

#[test]
fn no_network_and_an_uncovered_size_search_as_before() {
    let (plain, err) = selfplay("nn-cli-plain", &[]);
    assert_eq!(plain.len(), 1);
    assert!(!err.contains("warning"), "{err}");
    let (none, _) = selfplay("nn-cli-none", &["--nn", "none"]);
    assert_eq!(plain, none, "--nn none changes nothing");
    // The built-in network covers 19x19 only: one warning, and the game
    // is the same as without it, but for the player's name in the record.
    let (builtin, err) = selfplay("nn-cli-builtin", &["--nn", "builtin"]);
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    assert!(err.contains("19x19") && err.contains("9x9"), "{err}");
    let unnamed = |b: &[u8]| {
        text(b)
            .replace(" nn=builtin", "")
            .replace(",nn=builtin", "")
    };
    assert_eq!(unnamed(&builtin[0].1), unnamed(&plain[0].1));
    assert!(text(&builtin[0].1).contains("nn=builtin"));
}

#[test]
fn a_network_that_covers_the_size_changes_the_game() {
    let dir = scratch("nn-cli-net");
    let net = write(&dir, "corner.bin", &corner_net().to_bytes());
    let (plain, _) = selfplay("nn-cli-net-plain", &[]);
    let (with, err) = selfplay("nn-cli-net-with", &["--nn", &net, "--set", "nn_mix=1"]);
    assert!(!err.contains("warning"), "{err}");
    let moves = |b: &[u8]| {
        text(b)
            .split(';')
            .map(|m| m.chars().take(5).collect::<String>())
            .filter(|m| m.starts_with("B[") || m.starts_with("W["))
            .collect::<Vec<_>>()
    };
    assert!(moves(&plain[0].1).len() > 10);
    assert_ne!(moves(&plain[0].1), moves(&with[0].1));
}

/// `nn_evals_per_search=N` of a `bench --search` line, if any.
fn evals(out: &Output) -> Option<f64> {
    let s = text(&out.stdout);
    let v = s.split("nn_evals_per_search=").nth(1)?;
    v.split_whitespace().next()?.parse().ok()
}

/// `kosumi bench --search` of 300 playouts on a `size` board.
fn bench(size: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "bench",
        "--search",
        "--size",
        size,
        "--playouts",
        "300",
        "--repeat",
        "1",
    ];
    args.extend_from_slice(extra);
    let out = run(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

#[test]
fn the_default_is_the_built_in_network_where_it_was_trained() {
    // 19x19: the default evaluates the network (at least at the root),
    // as `--nn auto` and `--nn builtin` do; `--nn none` does not.
    for extra in [&[][..], &["--nn", "auto"], &["--nn", "builtin"]] {
        let out = bench("19", extra);
        assert!(
            evals(&out).is_some_and(|e| e >= 1.0),
            "{extra:?}: {}",
            text(&out.stdout)
        );
        assert!(
            !text(&out.stderr).contains("warning"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = bench("19", &["--nn", "none"]);
    assert!(evals(&out).is_none(), "{}", text(&out.stdout));
    // 9x9: the default goes without the network and says nothing; the
    // network asked for by name does the same after a warning.
    for (extra, warns) in [(&[][..], false), (&["--nn", "builtin"][..], true)] {
        let out = bench("9", extra);
        assert!(evals(&out).is_none(), "{}", text(&out.stdout));
        let err = text(&out.stderr);
        assert_eq!(err.contains("warning"), warns, "{extra:?}: {err}");
    }
}

/// The `policy` of `kosumi analysis ARGS` for one query (None when the
/// response has none), with stderr and the warning lines.
fn analysis_policy(args: &[&str], query: &str) -> (Option<Vec<f64>>, Vec<String>) {
    let mut a = vec!["analysis"];
    a.extend_from_slice(args);
    let out = run(&a, &format!("{query}\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut policy = None;
    let mut warnings = Vec::new();
    for line in text(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if let Some(w) = v.get("warning") {
            warnings.push(format!("{}: {w}", v["field"]));
        } else if v["isDuringSearch"] == false {
            policy = v.get("policy").map(|p| {
                p.as_array()
                    .expect("an array")
                    .iter()
                    .map(|x| x.as_f64().expect("a number"))
                    .collect()
            });
        }
    }
    (policy, warnings)
}

#[test]
fn analysis_reports_the_networks_policy_where_it_has_one() {
    let dir = scratch("nn-cli-analysis-policy");
    let net = write(&dir, "corner.bin", &corner_net().to_bytes());
    let q = |size: usize, moves: &str| {
        format!(
            r#"{{"id":"p","moves":[{moves}],"rules":"chinese","komi":7,"boardXSize":{size},"boardYSize":{size},"maxVisits":20,"includePolicy":true}}"#
        )
    };
    // The corner net on its 9x9: A9 (the first entry) outweighs every
    // other point by e^20, and the pass by far more.
    let (p, w) = analysis_policy(&["--nn", &net], &q(9, ""));
    let p = p.expect("a policy");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(p.len(), 82);
    assert!(p[0] > 0.999, "{}", p[0]);
    assert!(p[81] < 1e-6, "pass {}", p[81]);
    // With A9 taken, it is -1 (illegal) and the other 80 points share
    // evenly what is left.
    let (p, _) = analysis_policy(&["--nn", &net], &q(9, r#"["B","A9"]"#));
    let p = p.expect("a policy");
    assert_eq!(p[0], -1.0);
    let legal: Vec<f64> = p.iter().copied().filter(|&x| x >= 0.0).collect();
    assert_eq!(legal.len(), 81, "80 points and the pass");
    assert!((legal.iter().sum::<f64>() - 1.0).abs() < 1e-4);
    assert!((p[1] - 1.0 / 80.0).abs() < 1e-4, "{}", p[1]);
    assert!((p[80] - p[1]).abs() < 1e-6);
    // The built-in network on 19x19 (the default): its top point is the
    // move the policy player plays.
    let moves = r#"["B","Q16"],["W","D4"],["B","Q3"]"#;
    let (p, w) = analysis_policy(&[], &q(19, moves));
    let p = p.expect("a policy on 19x19 by default");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(p.len(), 362);
    for (i, v) in ["Q16", "D4", "Q3"].iter().enumerate() {
        let col = "ABCDEFGHJKLMNOPQRST".find(&v[..1]).expect("a column");
        let row = 19 - v[1..].parse::<usize>().expect("a row");
        assert_eq!(p[row * 19 + col], -1.0, "move {i} {v} is occupied");
    }
    assert!((p.iter().filter(|&&x| x >= 0.0).sum::<f64>() - 1.0).abs() < 1e-4);
    let top = (0..361)
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .expect("a point");
    let top = format!(
        "{}{}",
        &"ABCDEFGHJKLMNOPQRST"[top % 19..top % 19 + 1],
        19 - top / 19
    );
    let out = run(
        &["gtp", "--player", "policy"],
        "play b Q16\nplay w D4\nplay b Q3\ngenmove w\nquit\n",
    );
    assert!(
        text(&out.stdout).contains(&format!("= {top}\n")),
        "{top}: {}",
        text(&out.stdout)
    );
    // Without a network, or on a size it does not cover: a warning that
    // names the field, and no policy.
    for (args, size) in [(&["--nn", "none"][..], 19), (&[][..], 9)] {
        let (p, w) = analysis_policy(args, &q(size, ""));
        assert!(p.is_none(), "{args:?} {size}");
        assert!(
            w.len() == 1 && w[0].starts_with("\"includePolicy\""),
            "{args:?} {size}: {w:?}"
        );
    }
}

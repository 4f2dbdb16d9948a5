//! `kosumi analyze`: a planted blunder found, repeatable output, files
//! never overwritten, the annotated SGF read back with the win-rate
//! property on every move. With `KOSUMI_SABAKI_REVIEW_DIR=DIR` the
//! annotated record and a JSON sidecar of its moves are also written to
//! DIR for `.ci/sabaki-review.js` (Sabaki's parser).

use kosumi::sgf::{self, ReadOptions, ReplayOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/review/planted-blunder.sgf"
);

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kosumi-review-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_fixture(dir: &Path) -> PathBuf {
    let p = dir.join("planted-blunder.sgf");
    std::fs::copy(FIXTURE, &p).unwrap();
    p
}

fn analyze(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("run kosumi")
}

#[test]
fn the_planted_blunder_is_the_worst_mistake() {
    let dir = temp_dir("blunder");
    let sgf_path = copy_fixture(&dir);
    let out = analyze(&[
        sgf_path.to_str().unwrap(),
        "--visits",
        "400",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 5, "one line per move");
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["turnNumber"], i);
        assert!(l["rootInfo"]["visits"].as_u64() == Some(400));
        assert!(l["moveInfos"].as_array().is_some_and(|m| !m.is_empty()));
        for f in [
            "player",
            "move",
            "bestMove",
            "winrateLoss",
            "scoreLoss",
            "verdict",
        ] {
            assert!(!l[f].is_null(), "{f} in {l}");
        }
    }
    let worst = lines
        .iter()
        .max_by(|a, b| {
            a["winrateLoss"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["winrateLoss"].as_f64().unwrap())
        })
        .unwrap();
    assert_eq!(worst["turnNumber"], 1, "{worst}");
    assert_eq!(worst["player"], "B");
    assert_eq!(worst["move"], "B2");
    assert_eq!(worst["bestMove"], "D5");
    assert_eq!(worst["verdict"], "blunder");
    assert!(worst["winrateLoss"].as_f64().unwrap() > 0.3);
    // The summary (on stderr with --json) names it first for Black.
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("move 2 B2 (best D5)"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn same_seed_one_thread_same_files_and_nothing_overwritten() {
    let (a, b) = (temp_dir("det-a"), temp_dir("det-b"));
    let (pa, pb) = (copy_fixture(&a), copy_fixture(&b));
    for p in [&pa, &pb] {
        let out = analyze(&[
            p.to_str().unwrap(),
            "--visits",
            "300",
            "--threads",
            "1",
            "--seed",
            "5",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("blunder"));
    }
    for ext in ["sgf", "svg", "png"] {
        let name = format!("planted-blunder-kosumi.{ext}");
        let x = std::fs::read(a.join(&name)).unwrap();
        let y = std::fs::read(b.join(&name)).unwrap();
        assert!(!x.is_empty());
        assert_eq!(x, y, "{name} differs between two runs");
    }
    // A second run beside the first writes new names.
    let before = std::fs::read(a.join("planted-blunder-kosumi.sgf")).unwrap();
    let out = analyze(&[
        pa.to_str().unwrap(),
        "--visits",
        "50",
        "--threads",
        "1",
        "--no-graph",
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(a.join("planted-blunder-kosumi.sgf")).unwrap(),
        before
    );
    assert!(a.join("planted-blunder-kosumi-2.sgf").exists());
    assert!(!a.join("planted-blunder-kosumi-2.svg").exists());
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn the_annotated_record_reads_back_with_sbkv_on_every_move() {
    let dir = temp_dir("readback");
    let p = copy_fixture(&dir);
    let out = analyze(&[
        p.to_str().unwrap(),
        "--visits",
        "200",
        "--threads",
        "1",
        "--no-graph",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let annotated = dir.join("planted-blunder-kosumi.sgf");
    let read = |path: &Path| {
        let c = sgf::read_file(path, ReadOptions::default()).unwrap();
        let tree = c.trees.into_iter().next().unwrap();
        let r = sgf::replay_tree("x", &tree, &ReplayOptions::default()).unwrap();
        (tree, r)
    };
    let (orig_tree, orig) = read(&p);
    let (tree, again) = read(&annotated);
    assert_eq!(orig.game.moves(), again.game.moves(), "same main line");
    assert_eq!(orig.game.start(), again.game.start(), "same setup");
    let line = tree.main_line();
    assert_eq!(line.len(), orig_tree.main_line().len());
    for &i in &line {
        let v = tree.nodes[i]
            .value("SBKV")
            .expect("SBKV on every node of the main line");
        let x: f64 = v.parse().unwrap();
        assert!((0.0..=100.0).contains(&x), "{v}");
    }
    // The blunder: a comment in words, a bad-move mark, the best line as
    // a variation beside it (D5 instead of B2).
    let blunder = line[2];
    let c = tree.nodes[blunder].get("C").unwrap().text();
    assert!(
        c.contains("blunder") && c.contains("Kosumi prefers D5"),
        "{c}"
    );
    assert_eq!(tree.nodes[blunder].value("BM"), Some("2"));
    let parent = &tree.nodes[line[1]];
    assert_eq!(parent.children.len(), 2);
    assert_eq!(tree.nodes[parent.children[1]].value("B"), Some("de"));
    if let Some(d) = std::env::var_os("KOSUMI_SABAKI_REVIEW_DIR") {
        let d = PathBuf::from(d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(&annotated, d.join("review.sgf")).unwrap();
        let moves: Vec<String> = again
            .game
            .moves()
            .iter()
            .map(|m| match m.mv {
                kosumi::Move::Pass => String::new(),
                kosumi::Move::Play(p) => p.to_sgf(),
            })
            .collect();
        std::fs::write(
            d.join("review.json"),
            serde_json::json!({ "moves": moves }).to_string(),
        )
        .unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_move_range_and_bad_input() {
    let dir = temp_dir("range");
    let p = copy_fixture(&dir);
    let out = analyze(&[
        p.to_str().unwrap(),
        "--visits",
        "100",
        "--moves",
        "2-3",
        "--json",
        "--no-graph",
    ]);
    assert!(out.status.success());
    let turns: Vec<u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["turnNumber"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(turns, vec![1, 2]);
    let junk = dir.join("junk.sgf");
    std::fs::write(&junk, "this is not SGF").unwrap();
    let out = analyze(&[junk.to_str().unwrap(), "--visits", "10"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("junk.sgf"));
    let out = analyze(&[p.to_str().unwrap(), "--moves", "9-3"]);
    assert_eq!(out.status.code(), Some(2), "a bad range is a usage error");
    let out = analyze(&[p.to_str().unwrap(), "--moves", "40-50", "--visits", "10"]);
    assert_eq!(out.status.code(), Some(1), "no move in the range");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT) during a review: the searches stop, the moves reviewed
/// so far are written, the summary says it was interrupted. The signal is
/// sent once the first JSON line (the first reviewed move) is out: no
/// clock involved.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_what_is_done() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = temp_dir("ctrlc");
    let game = dir.join("long.sgf");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/sgf-fixtures/pro/9x9/egc2008-Fuego9-LeelaBot.sgf"
        ),
        &game,
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "analyze",
            game.to_str().unwrap(),
            "--visits",
            "3000",
            "--threads",
            "1",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().expect("a first line").unwrap();
    assert!(first.contains("\"turnNumber\":0"), "{first}");
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit {:?}", out.status);
    let reviewed = 1 + rest.len();
    assert!(reviewed < 57, "stopped early ({reviewed} of 57)");
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("interrupted"), "{summary}");
    assert!(
        summary.contains(&format!("{reviewed} moves reviewed")),
        "{summary}"
    );
    let annotated = std::fs::read_to_string(dir.join("long-kosumi.sgf")).unwrap();
    assert_eq!(
        annotated.matches("Kosumi: ").count(),
        reviewed,
        "a comment per reviewed move"
    );
    assert!(dir.join("long-kosumi.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

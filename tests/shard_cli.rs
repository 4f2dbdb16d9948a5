//! Runs spread over machines, at the built binary: the shards of
//! `selfplay`, `match` and `regress`, their index read from the
//! environment a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`) or a Slurm
//! array (`SLURM_ARRAY_TASK_*`) gives each child process, all written into
//! one shared directory (as on a volume claim), merged, and compared with
//! the one-machine run; a shard resumed after losing games replays only
//! those.
#![cfg(unix)]

mod selfplay_support;

use regex::Regex;
use selfplay_support::{files, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_kosumi");

/// The batch systems' variables, none of them inherited from the
/// environment the tests run in.
const VARS: &[&str] = &[
    "JOB_COMPLETION_INDEX",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
];

fn kosumi(env: &[(&str, String)]) -> Command {
    let mut c = Command::new(BIN);
    for v in VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

fn ok(o: Output) -> String {
    assert!(
        o.status.success(),
        "status {:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

const SELFPLAY: &[&str] = &[
    "selfplay",
    "--games",
    "7",
    "--size",
    "7",
    "--playouts",
    "24",
    "--seed",
    "5",
];

#[test]
fn selfplay_shards_from_job_completion_index_make_the_whole_run() {
    let whole = scratch("shard-sp-whole");
    ok(kosumi(&[])
        .args(SELFPLAY)
        .arg("--out")
        .arg(&whole)
        .output()
        .unwrap());
    let shared = scratch("shard-sp-shared");
    for i in 0..3 {
        let env = [("JOB_COMPLETION_INDEX", i.to_string())];
        ok(kosumi(&env)
            .args(SELFPLAY)
            .args(["--shard", "auto/3", "--out"])
            .arg(&shared)
            .output()
            .unwrap());
    }
    assert_eq!(files(&shared, ".sgf"), files(&whole, ".sgf"));
    assert_eq!(files(&shared, ".tsv").len(), 3);
    let merged = ok(kosumi(&[])
        .args(["selfplay", "summarize", "--json"])
        .arg(&shared)
        .output()
        .unwrap());
    let one = ok(kosumi(&[])
        .args(["selfplay", "summarize", "--json"])
        .arg(&whole)
        .output()
        .unwrap());
    // The same games, results and lengths; tables and thinking time aside.
    let games = Regex::new(r#""games":\d+,"black":\{[^}]*\}"#).unwrap();
    assert_eq!(
        games.find(&merged).map(|m| m.as_str()),
        games.find(&one).map(|m| m.as_str())
    );
    assert!(
        merged.contains("\"present\":7,\"expected\":7,\"duplicates\":0"),
        "{merged}"
    );

    // A node failure: shard 1 loses two records and its table's last
    // row. Resumed, it plays only those games again, to the same bytes.
    let lost = ["game-000001.sgf", "game-000004.sgf"];
    for n in lost {
        std::fs::remove_file(shared.join(n)).unwrap();
    }
    let before = files(&shared, ".sgf");
    let env = [("JOB_COMPLETION_INDEX", "1".to_string())];
    let out = kosumi(&env)
        .args(SELFPLAY)
        .args(["--shard", "auto/3", "--out"])
        .arg(&shared)
        .output()
        .unwrap();
    ok(out);
    assert_eq!(files(&shared, ".sgf"), files(&whole, ".sgf"));
    assert_eq!(before.len() + 2, files(&whole, ".sgf").len());
}

#[test]
fn auto_without_a_batch_system_or_with_disagreeing_values_is_refused() {
    let d = scratch("shard-sp-refused");
    type Env<'a> = Vec<(&'a str, String)>;
    let cases: Vec<(Env, &str, &str)> = vec![
        (vec![], "auto", "neither"),
        (
            vec![("JOB_COMPLETION_INDEX", "1".into())],
            "auto",
            "count is not",
        ),
        (
            vec![("JOB_COMPLETION_INDEX", "3".into())],
            "auto/3",
            "not below",
        ),
        (
            vec![
                ("SLURM_ARRAY_TASK_ID", "0".into()),
                ("SLURM_ARRAY_TASK_COUNT", "2".into()),
                ("JOB_COMPLETION_INDEX", "1".into()),
            ],
            "auto/2",
            "says",
        ),
    ];
    for (env, spec, needle) in cases {
        let out = kosumi(&env)
            .args(SELFPLAY)
            .args(["--shard", spec, "--out"])
            .arg(&d)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{env:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{env:?}: {err}");
    }
    assert!(files(&d, "").is_empty(), "nothing written");
}

/// Rows of the match tables in `dir`, without the thinking times, by
/// game.
fn match_rows(dir: &Path) -> Vec<String> {
    let mut rows: Vec<String> = files(dir, ".tsv")
        .iter()
        .flat_map(|(_, b)| {
            String::from_utf8(b.clone())
                .unwrap()
                .lines()
                .filter(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
                .map(|l| {
                    let f: Vec<&str> = l.split('\t').collect();
                    format!("{} {} {} {} {} {}", f[0], f[1], f[2], f[3], f[6], f[7])
                })
                .collect::<Vec<_>>()
        })
        .collect();
    rows.sort_by_key(|r| r.split(' ').next().unwrap().parse::<usize>().unwrap());
    rows
}

fn match_cmd(env: &[(&str, String)], dir: &Path, extra: &[&str]) -> Command {
    let opponent = format!("{BIN} --player random --seed 3");
    let mut c = kosumi(env);
    c.args([
        "match",
        "--player",
        "search",
        "--playouts",
        "16",
        "--games",
        "10",
    ])
    .args(["--size", "7", "--sprt", "0,35", "--opponent", &opponent])
    .args(extra)
    .arg("--out")
    .arg(dir);
    c
}

#[test]
fn match_shards_from_slurm_merge_to_the_whole_match() {
    let whole = scratch("shard-m-whole");
    ok(match_cmd(&[], &whole, &[]).output().unwrap());
    let shared = scratch("shard-m-shared");
    for i in 0..3 {
        let env = [
            ("SLURM_ARRAY_TASK_ID", i.to_string()),
            ("SLURM_ARRAY_TASK_COUNT", "3".to_string()),
            ("SLURM_ARRAY_TASK_MIN", "0".to_string()),
            ("SLURM_ARRAY_TASK_MAX", "2".to_string()),
        ];
        ok(match_cmd(&env, &shared, &["--shard", "auto"])
            .output()
            .unwrap());
    }
    // Pairs stay on one shard: shard 1 of 3 has pairs 1 and 4.
    let t1 = String::from_utf8(std::fs::read(shared.join("match-1-of-3.tsv")).unwrap()).unwrap();
    let idx: Vec<&str> = t1
        .lines()
        .filter(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(idx, ["2", "3", "8", "9"]);
    let summarize = |d: &Path| {
        ok(kosumi(&[])
            .args(["match", "summarize", "--json"])
            .arg(d)
            .output()
            .unwrap())
    };
    let (merged, one) = (summarize(&shared), summarize(&whole));
    // The one-machine match may stop at a decided SPRT; the merge counts
    // the same games up to it.
    let sprt = Regex::new(r#""sprt":\{[^}]*\}"#).unwrap();
    let kos = Regex::new(r#""kosumi":\{[^}]*\}"#).unwrap();
    for re in [&sprt, &kos] {
        let a = re.find(&merged).map(|m| m.as_str().to_string());
        assert!(a.is_some(), "{merged}");
        assert_eq!(a, re.find(&one).map(|m| m.as_str().to_string()));
    }
    let counted = whole_count(&one);
    let rows = match_rows(&shared);
    assert_eq!(match_rows(&whole)[..], rows[..counted]);

    // Shard 0 (pairs 0 and 3) loses game 6's record and game 7's row:
    // resubmitted alone (a one-task array, --shard auto/3), it plays them
    // again to the same results.
    let before = match_rows(&shared);
    std::fs::remove_file(shared.join("game-000006.sgf")).unwrap();
    let t = shared.join("match-0-of-3.tsv");
    let text = std::fs::read_to_string(&t).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("7\t")).collect();
    std::fs::write(&t, kept.join("\n") + "\n").unwrap();
    // Before the resubmission, the merge says how far shard 0 got.
    let stopped = summarize(&shared);
    assert!(
        stopped.contains(r#"{"shard":"0/3","played":3,"assigned":4,"found":true}"#),
        "{stopped}"
    );
    if stopped.contains(r#""decided_at":null"#) {
        let text = ok(kosumi(&[])
            .args(["match", "summarize"])
            .arg(&shared)
            .output()
            .unwrap());
        assert!(text.contains("shard 0/3: 1 of its 2 pairs"), "{text}");
    }
    let env = [
        ("SLURM_ARRAY_TASK_ID", "0".to_string()),
        ("SLURM_ARRAY_TASK_COUNT", "1".to_string()),
        ("SLURM_ARRAY_TASK_MIN", "0".to_string()),
        ("SLURM_ARRAY_TASK_MAX", "0".to_string()),
    ];
    let out = match_cmd(&env, &shared, &["--shard", "auto/3"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    ok(out);
    assert!(err.contains("resuming after the 2 games"), "{err}");
    assert_eq!(match_rows(&shared), before);

    // Another run's settings in the shared directory: refused.
    let out = match_cmd(&[], &shared, &["--shard", "0/3", "--komi", "6.5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // Another shard count: refused.
    let out = match_cmd(&[], &shared, &["--shard", "0/2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // Merging tables of a run split two ways, or of other settings: refused.
    let both = kosumi(&[])
        .args(["match", "summarize"])
        .args([&shared, &whole])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&both.stderr).contains("split two ways"));
    let other = scratch("shard-m-other");
    ok(match_cmd(&[], &other, &["--komi", "6.5"]).output().unwrap());
    let mixed = kosumi(&[])
        .args(["match", "summarize"])
        .args([&whole, &other])
        .output()
        .unwrap();
    assert_eq!(mixed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("different settings"));
}

/// The games a summary counted.
fn whole_count(json: &str) -> usize {
    let re = Regex::new(r#""kind":"match","opponent":"[^"]*","games":(\d+)"#).unwrap();
    re.captures(json).expect(json)[1].parse().unwrap()
}

fn regress_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress")
}

/// A report with every time set to zero.
fn timeless(json: &str) -> String {
    Regex::new(r#""seconds":[0-9.]+"#)
        .unwrap()
        .replace_all(json, "\"seconds\":0")
        .into_owned()
}

#[test]
fn regress_shards_merge_to_the_whole_report() {
    let fake = format!("sh {}", regress_dir().join("fake-gtp.sh").display());
    // Shards replay the state before their tests as `--jobs` pieces do:
    // equal for an engine whose read-only commands change nothing (the
    // fake engine's `reg_genmove` does, see replay.tst).
    let suites = [regress_dir().join("pieces.tst")];
    let run = |env: &[(&str, String)], extra: &[&str]| {
        let o = kosumi(env)
            .args(["regress", "--json", "--engine", &fake])
            .args(extra)
            .args(&suites)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let whole = run(&[], &[]);
    assert!(whole.starts_with("{\"suites\":"), "{whole}");
    let d = scratch("shard-regress");
    let mut reports = Vec::new();
    for i in 0..3 {
        let env = [("JOB_COMPLETION_INDEX", i.to_string())];
        let part = run(&env, &["--shard", "auto/3"]);
        assert_ne!(timeless(&part), timeless(&whole));
        let f = d.join(format!("report-{i}.json"));
        std::fs::write(&f, part).unwrap();
        reports.push(f);
    }
    let merged = kosumi(&[])
        .args(["regress", "merge", "--json"])
        .args(&reports)
        .output()
        .unwrap();
    let merged = String::from_utf8(merged.stdout).unwrap();
    assert_eq!(timeless(merged.trim_end()), timeless(whole.trim_end()));
    // One shard given twice: refused.
    let twice = kosumi(&[])
        .args(["regress", "merge"])
        .args([&reports[0], &reports[0]])
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("two reports"));
}

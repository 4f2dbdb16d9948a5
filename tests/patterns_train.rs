//! Training and evaluating pattern tables on the fixture records
//! (`sgf-fixtures/pro/human-pro`, three 19x19 professional games; sources
//! in `sgf-fixtures/README.md`).

use kosumi::patterns::{self, Family, PatternTable, TrainOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sgf-fixtures/pro/human-pro")
}

fn records() -> Vec<patterns::Record> {
    let files = patterns::sgf_files(&[fixture_dir()]).expect("fixture dir");
    assert_eq!(files.len(), 3);
    let mut log = |_: &str| {};
    let recs = patterns::load_all(&files, &mut log);
    assert_eq!(recs.len(), 3);
    recs
}

fn options(iterations: usize) -> TrainOptions {
    TrainOptions {
        iterations,
        min_count: 1,
        without: Vec::new(),
        prior: 1.0,
        header: vec!["kosumi patterns, features v2".into(), "test".into()],
    }
}

#[test]
fn training_is_deterministic_and_learns() {
    let recs = records();
    let mut log = |_: &str| {};
    let (a, sa) = patterns::train(&recs, &options(4), &mut log);
    let (b, _) = patterns::train(&recs, &options(4), &mut log);
    assert_eq!(a.to_text(), b.to_text());
    assert!(sa.positions > 500, "{}", sa.positions);
    // The likelihood of the moves played rises with the iterations.
    let ll = &sa.log_likelihood;
    assert!(ll[3] > ll[0] + 0.5, "{ll:?}");
    // On its own training games the table beats the flat one by far.
    let trained = patterns::evaluate(&recs, &a);
    let flat = patterns::evaluate(&recs, &PatternTable::new(Vec::new()));
    let t = &trained[&19];
    let f = &flat[&19];
    assert_eq!(t.positions, f.positions);
    assert!(
        t.top1[0] > 0.3 * t.positions as f64,
        "{} of {}",
        t.top1[0],
        t.positions
    );
    assert!(f.top1[0] < 0.05 * f.positions as f64, "{}", f.top1[0]);
    // The text form evaluates the same.
    let back = PatternTable::parse(&a.to_text()).expect("parse");
    let again = patterns::evaluate(&recs, &back);
    assert_eq!(again[&19].top1[0], t.top1[0]);
}

#[test]
fn leaving_a_family_out_removes_its_features() {
    let recs = records();
    let mut log = |_: &str| {};
    let mut opts = options(2);
    opts.without = vec![Family::Large, Family::DistPrev];
    let (t, s) = patterns::train(&recs, &opts, &mut log);
    assert_eq!(t.count(Family::Large), 0);
    assert_eq!(t.count(Family::DistPrev), 0);
    assert_eq!(s.features[Family::Large as usize], 0);
    assert!(t.count(Family::Shape3) > 100);
}

#[test]
fn builtin_table_predicts_fixture_games() {
    let recs = records();
    let r = patterns::evaluate(&recs, PatternTable::builtin());
    let st = &r[&19];
    assert!(
        st.top1[0] > 0.25 * st.positions as f64,
        "{} of {}",
        st.top1[0],
        st.positions
    );
    assert!(st.top5[0] > st.top1[0]);
}

#[test]
fn cli_train_then_eval() {
    let dir = std::env::temp_dir().join(format!("kosumi-patterns-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("t.tsv");
    let exe = env!("CARGO_BIN_EXE_kosumi");
    let st = Command::new(exe)
        .args(["patterns", "train", "--games"])
        .arg(fixture_dir())
        .arg("--out")
        .arg(&out)
        .args(["--holdout", "3", "--iterations", "2", "--min-count", "1"])
        .output()
        .expect("run");
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("table");
    assert!(text.starts_with("# kosumi patterns, features v2\n"));
    assert!(text.contains("# command: kosumi patterns train --games"));
    let table = PatternTable::parse(&text).expect("parse");
    assert!(table.count(Family::Shape3) > 50);
    let ev = Command::new(exe)
        .args(["patterns", "eval", "--holdout", "0", "--games"])
        .arg(fixture_dir())
        .arg("--table")
        .arg(&out)
        .output()
        .expect("run");
    assert!(
        ev.status.success(),
        "{}",
        String::from_utf8_lossy(&ev.stderr)
    );
    let report = String::from_utf8_lossy(&ev.stdout);
    assert!(report.contains("\n  19  "), "{report}");
    assert!(report.contains("large"), "{report}");
    // A table that is no table is an error, not a panic.
    std::fs::write(&out, "capture\t0\t1\n").expect("write");
    let bad = Command::new(exe)
        .args(["patterns", "eval", "--holdout", "0", "--games"])
        .arg(fixture_dir())
        .arg("--table")
        .arg(&out)
        .output()
        .expect("run");
    assert_eq!(bad.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

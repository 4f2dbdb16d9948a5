//! A second run into the same `--out`: the same settings
//! resume, other settings are refused, nothing is overwritten; a kill
//! between a record and its row is reconciled by `summarize` and by the
//! resumed run; `match` checks its `--out` before the first game.

mod selfplay_support;

use selfplay_support::scratch;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

fn kosumi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
}

const RUN: [&str; 8] = [
    "selfplay", "--player", "random", "--games", "4", "--size", "9", "--seed",
];

fn selfplay(dir: &Path, extra: &[&str]) -> Output {
    kosumi()
        .args(RUN)
        .arg("5")
        .args(extra)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap()
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every file of `dir` by name.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn table(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("selfplay-0-of-1.tsv")).unwrap()
}

fn summarize(dir: &Path) -> String {
    ok(kosumi()
        .args(["selfplay", "summarize", "--json"])
        .arg(dir)
        .output()
        .unwrap())
}

#[test]
fn the_same_settings_resume_and_others_are_refused() {
    let d = scratch("resume-same");
    let first = ok(selfplay(&d, &[]));
    assert!(first.contains("games 4 "), "{first}");
    let before = contents(&d);
    assert_eq!(before.len(), 5, "{:?}", before.keys());

    // The same run again: nothing left to play, the same summary.
    let again = ok(selfplay(&d, &[]));
    assert_eq!(again, first);
    assert_eq!(contents(&d), before);

    // Another run (another komi, move cap or player) is refused and
    // changes nothing.
    for other in [
        &["--komi", "6.5"][..],
        &["--max-moves", "50"][..],
        &["--threads", "2"][..],
    ] {
        let out = selfplay(&d, other);
        assert_eq!(out.status.code(), Some(2), "{other:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("holds another run's files") && err.contains("new --out directory"),
            "{err}"
        );
        assert_eq!(contents(&d), before, "{other:?} changed the directory");
    }

    // Records without any table are another run's too.
    let bare = scratch("resume-bare");
    std::fs::copy(d.join("game-000000.sgf"), bare.join("game-000000.sgf")).unwrap();
    let out = selfplay(&bare, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no table of this run"));
}

#[test]
fn a_kill_between_record_and_row_is_reconciled() {
    let d = scratch("resume-kill");
    let first = ok(selfplay(&d, &[]));
    let whole = contents(&d);
    let full_table = table(&d);

    // Simulate kills: game 3's record written but its row never; game 2's
    // row torn half-way. Game 1's record lost as well (a row without it).
    let rows: Vec<&str> = full_table.lines().collect();
    let keep: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|l| !l.starts_with("2\t") && !l.starts_with("3\t"))
        .collect();
    let row2 = rows.iter().find(|l| l.starts_with("2\t")).unwrap();
    let torn = format!("{}\n{}", keep.join("\n"), &row2[..row2.len() / 2]);
    std::fs::write(d.join("selfplay-0-of-1.tsv"), torn).unwrap();
    std::fs::remove_file(d.join("game-000001.sgf")).unwrap();

    // The summary counts rows, and says what does not match.
    let s = summarize(&d);
    assert!(
        s.starts_with("{\"tables\":1,\"present\":2,\"expected\":4,\"duplicates\":0,\"torn\":1,"),
        "{s}"
    );
    assert!(s.ends_with(",\"unrecorded\":2,\"missing\":1}\n"), "{s}");

    // The resumed run plays games 1, 2 and 3 again and gives back the
    // whole run: the same records, one row per game.
    let resumed = ok(selfplay(&d, &[]));
    assert!(resumed.contains("games 4 "), "{resumed}");
    let after = contents(&d);
    for (name, bytes) in &whole {
        if name.ends_with(".sgf") {
            assert_eq!(after.get(name), Some(bytes), "{name}");
        }
    }
    assert_eq!(after.len(), whole.len());
    let rows = table(&d)
        .lines()
        .filter(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .count();
    assert_eq!(rows, 4);
    let s = summarize(&d);
    assert!(
        s.starts_with("{\"tables\":1,\"present\":4,\"expected\":4,\"duplicates\":0,\"torn\":0,"),
        "{s}"
    );
    assert!(s.ends_with(",\"unrecorded\":0,\"missing\":0}\n"), "{s}");
    // Times aside, the resumed run's numbers are the first run's.
    let strip = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("playouts/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&resumed), strip(&first));
}

#[test]
fn match_refuses_a_used_or_unwritable_out_before_the_first_game() {
    let d = scratch("match-out-used");
    ok(selfplay(&d, &[]));
    let before = contents(&d);
    let out = kosumi()
        .args(["match", "--opponent", "/nonexistent/engine", "--games", "1"])
        .arg("--out")
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("holds another run's files") && err.contains("self-play table"),
        "{err}"
    );
    assert!(
        !err.contains("nonexistent"),
        "the opponent was started: {err}"
    );
    assert_eq!(contents(&d), before);

    // A directory that cannot be made: refused before the opponent runs.
    let file = d.join("game-000000.sgf");
    let out = kosumi()
        .args(["match", "--opponent", "/nonexistent/engine", "--games", "1"])
        .arg("--out")
        .arg(file.join("sub"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--out"), "{err}");
    assert!(!err.contains("engine"), "the opponent was started: {err}");
}

#[cfg(unix)]
#[test]
fn summarize_refuses_a_table_that_is_a_fifo_at_once() {
    let d = scratch("summarize-fifo");
    let t = d.join("selfplay-0-of-1.tsv");
    assert!(Command::new("mkfifo").arg(&t).status().unwrap().success());
    // No writer: a blocking read would never return.
    let out = kosumi()
        .args(["selfplay", "summarize"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a regular file (a fifo)"), "{err}");
}

fn match_run(dir: &Path, extra: &[&str]) -> Output {
    let opponent = format!("{} --player random", env!("CARGO_BIN_EXE_kosumi"));
    kosumi()
        .args(["match", "--player", "random", "--games", "4", "--size", "9"])
        .args(["--opponent", &opponent])
        .args(extra)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap()
}

fn match_rows(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("match.tsv"))
        .unwrap()
        .lines()
        .filter(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_match_resumes_with_its_settings_and_refuses_others() {
    let d = scratch("match-resume");
    let first = ok(match_run(&d, &[]));
    assert!(first.contains("games 4 "), "{first}");
    let before = contents(&d);
    assert_eq!(before.len(), 5, "{:?}", before.keys());
    assert_eq!(match_rows(&d).len(), 4);

    // The same match again: every game is in the table, none is played,
    // the numbers are the same (the opponent's name aside, all of it).
    let again = match_run(&d, &[]);
    let err = String::from_utf8_lossy(&again.stderr).into_owned();
    assert!(err.contains("resuming after the 4 games"), "{err}");
    assert_eq!(ok(again), first);
    assert_eq!(contents(&d), before);

    // A kill after game 3's record, before its row: the resumed match
    // plays game 3 again and the table has one row per record.
    let rows = match_rows(&d);
    let text = std::fs::read_to_string(d.join("match.tsv")).unwrap();
    let cut = text.find(&rows[3]).unwrap();
    std::fs::write(d.join("match.tsv"), &text[..cut]).unwrap();
    let resumed = match_run(&d, &[]);
    let err = String::from_utf8_lossy(&resumed.stderr).into_owned();
    assert!(err.contains("resuming after the 3 games"), "{err}");
    let resumed = ok(resumed);
    assert!(resumed.contains("games 4 "), "{resumed}");
    assert_eq!(match_rows(&d).len(), 4);
    assert_eq!(match_rows(&d)[..3], rows[..3]);

    // Other settings: refused, nothing changed; a clock for the opponent
    // alone is another setting too.
    let now = contents(&d);
    for extra in [&["--komi", "6.5"][..], &["--opponent-clock", "600"][..]] {
        let out = match_run(&d, extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("holds another run's files") && err.contains("new --out"),
            "{extra:?}: {err}"
        );
        assert_eq!(contents(&d), now);
    }
}

/// `table` with the value of knob `key` in its settings line replaced
/// by `value`: the table of a build whose default differs.
fn with_knob(table: &str, key: &str, value: &str) -> String {
    let line = table
        .lines()
        .find(|l| l.starts_with("# settings: "))
        .expect("a settings line");
    let knobs = line
        .split(' ')
        .find_map(|f| f.strip_prefix("knobs="))
        .expect("the settings line holds every knob");
    let changed: Vec<String> = knobs
        .split(',')
        .map(|kv| match kv.split_once('=') {
            Some((k, _)) if k == key => format!("{key}={value}"),
            _ => kv.to_string(),
        })
        .collect();
    let changed = changed.join(",");
    assert_ne!(changed, knobs, "{key} is in the line, with another value");
    table.replace(
        line,
        &line.replace(&format!("knobs={knobs}"), &format!("knobs={changed}")),
    )
}

#[test]
fn a_table_from_a_build_with_other_knob_defaults_is_refused_naming_the_knob() {
    // A match: its table as a build with another `puct` default wrote it.
    let d = scratch("match-knob-default");
    ok(match_run(&d, &[]));
    let path = d.join("match.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, with_knob(&text, "puct", "0.05")).unwrap();
    let now = contents(&d);
    let out = match_run(&d, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("holds another run's files") && err.contains("match.tsv has knobs=puct=0.05"),
        "{err}"
    );
    assert_eq!(
        contents(&d),
        now,
        "the refused resume changed the directory"
    );

    // Self-play: the same, for a flag knob.
    let d = scratch("selfplay-knob-default");
    ok(selfplay(&d, &[]));
    let path = d.join("selfplay-0-of-1.tsv");
    let text = table(&d);
    let flipped = if text.contains("prune_ladders=yes") {
        "no"
    } else {
        "yes"
    };
    std::fs::write(&path, with_knob(&text, "prune_ladders", flipped)).unwrap();
    let out = selfplay(&d, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "selfplay-0-of-1.tsv has knobs=prune_ladders={flipped}"
        )),
        "{err}"
    );
}

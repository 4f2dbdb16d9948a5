//! Self-play is deterministic, shards add up to the whole run, and every
//! record replays to its result.

mod selfplay_support;

use kosumi::play::selfplay::{self, SelfplayConfig, Shard};
use kosumi::play::{GameConfig, SearchArgs};
use selfplay_support::{check_counted_result, scratch};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

fn config(out: PathBuf, games: usize, seed: u64) -> SelfplayConfig {
    SelfplayConfig {
        game: GameConfig::new(9),
        games,
        seed,
        player: SearchArgs {
            threads: Some(1),
            ..SearchArgs::default()
        },
        jobs: 1,
        shard: Shard::default(),
        out,
        visits: false,
    }
}

/// The SGF files of a directory, by name.
fn sgfs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".tmp"), "temporary file left: {name}");
        if name.ends_with(".sgf") {
            m.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    m
}

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let a = scratch("selfplay-same-a");
    let b = scratch("selfplay-same-b");
    let sa = selfplay::run(&config(a.clone(), 5, 42), &never(), &mut |_, _| {}).unwrap();
    // Two jobs change the order games finish in, not their records.
    let mut cb = config(b.clone(), 5, 42);
    cb.jobs = 2;
    let sb = selfplay::run(&cb, &never(), &mut |_, _| {}).unwrap();
    let (fa, fb) = (sgfs(&a), sgfs(&b));
    assert_eq!(fa.len(), 5);
    assert_eq!(fa, fb);
    assert_eq!(sa.black, sb.black);
    assert_eq!(sa.total_length, sb.total_length);
    // Another seed gives other games.
    let c = scratch("selfplay-same-c");
    selfplay::run(&config(c.clone(), 5, 43), &never(), &mut |_, _| {}).unwrap();
    assert_ne!(sgfs(&c), fa);
}

#[test]
fn shards_add_up_to_the_whole_run() {
    let whole = scratch("selfplay-shard-whole");
    let all = selfplay::run(&config(whole.clone(), 8, 7), &never(), &mut |_, _| {}).unwrap();
    let mut union = BTreeMap::new();
    let mut dirs = Vec::new();
    for i in 0..3 {
        let d = scratch(&format!("selfplay-shard-{i}"));
        let mut c = config(d.clone(), 8, 7);
        c.shard = Shard { index: i, count: 3 };
        let s = selfplay::run(&c, &never(), &mut |_, _| {}).unwrap();
        assert_eq!(s.games as usize, c.indices().len());
        for (name, bytes) in sgfs(&d) {
            assert!(union.insert(name, bytes).is_none(), "a game in two shards");
        }
        dirs.push(d);
    }
    assert_eq!(union, sgfs(&whole));

    // The merged tables give the whole run's numbers (times aside).
    let merged = selfplay::summarize(&dirs).unwrap();
    assert_eq!((merged.tables, merged.present, merged.expected), (3, 8, 8));
    assert_eq!(merged.summary.games, all.games);
    assert_eq!(merged.summary.black, all.black);
    assert_eq!(merged.summary.total_length, all.total_length);
    assert_eq!(merged.summary.endings, all.endings);

    // A shard run twice is counted once.
    dirs.push(whole.clone());
    let again = selfplay::summarize(&dirs).unwrap();
    assert_eq!((again.present, again.duplicates), (8, 8));
    assert_eq!(again.summary.black, all.black);
}

#[test]
fn tables_with_other_settings_do_not_merge() {
    let a = scratch("selfplay-mixed-a");
    let b = scratch("selfplay-mixed-b");
    selfplay::run(&config(a.clone(), 2, 1), &never(), &mut |_, _| {}).unwrap();
    let mut cb = config(b.clone(), 2, 1);
    cb.game.komi = kosumi::Komi::new(6.5).unwrap();
    selfplay::run(&cb, &never(), &mut |_, _| {}).unwrap();
    let e = selfplay::summarize(&[a, b]).unwrap_err();
    assert!(e.to_string().contains("different settings"), "{e}");
    let empty = scratch("selfplay-mixed-empty");
    assert!(selfplay::summarize(&[empty]).is_err());
}

#[test]
fn every_record_replays_to_its_result() {
    let d = scratch("selfplay-replay");
    let mut c = config(d.clone(), 6, 5);
    c.game.size = 7;
    c.game.max_moves = 40; // some games hit the cap and are counted as they stand
    let s = selfplay::run(&c, &never(), &mut |_, _| {}).unwrap();
    assert!(
        s.endings.get("cap").copied().unwrap_or(0) > 0,
        "{:?}",
        s.endings
    );
    let files = sgfs(&d);
    assert_eq!(files.len(), 6);
    for (name, bytes) in files {
        let text = String::from_utf8(bytes).unwrap();
        assert!(check_counted_result(&text), "{name} was not counted");
        assert!(text.contains("game seed"), "{name} lacks its seed");
        assert!(text.contains("KM[7.5]") && text.contains("RU[Chinese]"));
    }
}

#[test]
fn a_stop_keeps_the_finished_games_only() {
    let d = scratch("selfplay-stop");
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let s = selfplay::run(&config(d.clone(), 50, 3), &stop, &mut |_, _| {
        seen += 1;
        if seen == 4 {
            stop.store(true, Ordering::SeqCst);
        }
    })
    .unwrap();
    // Games the worker finished before it saw the flag are kept too;
    // every kept game has its record and its row, nothing else is left.
    assert!(s.games >= 4 && s.games < 50, "{} games", s.games);
    assert_eq!(sgfs(&d).len() as u64, s.games);
    let merged = selfplay::summarize(&[d]).unwrap();
    assert_eq!((merged.present as u64, merged.expected), (s.games, 50));
}

#[test]
fn bad_settings_are_errors() {
    let d = scratch("selfplay-bad-settings");
    let mut c = config(d.clone(), 1, 1);
    c.game.size = 26;
    assert!(selfplay::run(&c, &never(), &mut |_, _| {}).is_err());
    c.game.size = 9;
    // A NaN komi cannot reach the settings: GameConfig holds a Komi.
    assert!(kosumi::Komi::new(f32::NAN).is_err());
    c.game.handicap = 10;
    assert!(selfplay::run(&c, &never(), &mut |_, _| {}).is_err());
    assert!(sgfs(&d).is_empty());
}

#[test]
fn visits_files_sit_beside_the_records_and_change_nothing_else() {
    let searched = |out: PathBuf, visits: bool| SelfplayConfig {
        player: SearchArgs {
            kind: kosumi::play::PlayerKind::Search,
            playouts: Some(40),
            threads: Some(1),
            ..SearchArgs::default()
        },
        visits,
        ..config(out, 2, 11)
    };
    let with = scratch("selfplay-visits-on");
    let without = scratch("selfplay-visits-off");
    selfplay::run(&searched(with.clone(), true), &never(), &mut |_, _| {}).unwrap();
    selfplay::run(&searched(without.clone(), false), &never(), &mut |_, _| {}).unwrap();
    // The records are the same bytes; only the visits files are added.
    assert_eq!(sgfs(&with), sgfs(&without));
    let count = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".visits")
            })
            .count()
    };
    assert_eq!((count(&with), count(&without)), (2, 0));
    let text = std::fs::read_to_string(with.join("game-000000.visits")).unwrap();
    let v = kosumi::nn::export::parse_visits(&text, 9).unwrap();
    assert!(v.len() > 10, "{} lines", v.len());
    // Every search line counts visits; the first move's search ran its 40
    // playouts, spread over more than one move.
    assert_eq!(v[0].0, 1);
    let first: u32 = v[0].1.iter().map(|&(_, n)| n).sum();
    assert!((20..=80).contains(&first), "{first}");
    assert!(v.iter().any(|(_, m)| m.len() > 1), "{text}");
    assert!(v
        .iter()
        .all(|(_, m)| m.iter().map(|&(_, n)| n).sum::<u32>() > 0));
    // `nn export` turns them into policy targets.
    let cmd = kosumi::nn::export::ExportCommand {
        games: vec![with.clone()],
        holdout: 0,
        split: kosumi::nn::export::Split::All,
        size: 9,
        pattern_table: None,
    };
    let mut bytes = Vec::new();
    let s = kosumi::nn::export::export(&cmd, &mut bytes, &mut |_| {}).unwrap();
    assert!(s.with_visits > 20 && s.with_visits <= s.positions, "{s:?}");
    let (_, recs) = kosumi::nn::export::decode(&bytes).unwrap();
    let p = recs[0].policy.as_ref().expect("a target for move 1");
    assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
}

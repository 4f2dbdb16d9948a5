//! Matches against real GTP engines: GNU Go (when installed; required when
//! `KOSUMI_REQUIRE_GNUGO=1`, as in `.ci/run`) and Kosumi itself over GTP.
//! All games finish, the summary counts add up,
//! and the records replay to their results.

mod selfplay_support;

use selfplay_support::{check_counted_result, prop, replay, replay_with_cli, scratch};
use std::path::Path;
use std::process::Command;

const GNUGO: &str = "/usr/games/gnugo";

fn have_gnugo() -> bool {
    if Path::new(GNUGO).exists() {
        return true;
    }
    if std::env::var("KOSUMI_REQUIRE_GNUGO").as_deref() == Ok("1") {
        panic!("{GNUGO} is missing and KOSUMI_REQUIRE_GNUGO=1");
    }
    eprintln!("skipping: {GNUGO} is not installed");
    false
}

/// A number field of a flat JSON object text: `"key":123`.
fn field(json: &str, key: &str) -> u64 {
    let k = format!("\"{key}\":");
    let i = json.find(&k).unwrap_or_else(|| panic!("{key} in {json}")) + k.len();
    json[i..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Runs `kosumi match` with `args`, checks the summary adds up and the
/// records replay; returns the JSON line.
fn run_match(dir: &Path, games: u64, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "match",
            "--size",
            "9",
            "--json",
            "--games",
            &games.to_string(),
        ])
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "match failed: {err}");
    let json = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&json, "games"), games, "{json}");
    let k = &json[json.find("\"kosumi\":").unwrap()..];
    let decided = field(k, "wins") + field(k, "losses") + field(k, "draws");
    assert_eq!(decided + field(&json, "void"), games, "{json}");
    let b = &json[json.find("\"as_black\":").unwrap()..];
    let w = &json[json.find("\"as_white\":").unwrap()..];
    assert_eq!(
        field(b, "wins") + field(w, "wins"),
        field(k, "wins"),
        "{json}"
    );
    // One record per game, each replaying to its result.
    let paths: Vec<_> = (0..games)
        .map(|i| dir.join(format!("game-{i:06}.sgf")))
        .collect();
    replay_with_cli(&paths);
    for i in 0..games {
        let p = dir.join(format!("game-{i:06}.sgf"));
        let text = std::fs::read_to_string(&p).unwrap();
        let re = prop(&text, "RE").unwrap();
        assert!(re != "?", "{}: no result", p.display());
        replay(&text);
        check_counted_result(&text);
    }
    json
}

/// No game of the summary ended by a fault.
fn assert_no_faults(json: &str) {
    for fault in ["illegal", "crash", "timeout", "refused"] {
        assert!(!json.contains(&format!("\"{fault}")), "{json}");
    }
}

#[test]
fn match_against_gnugo_level_1() {
    if !have_gnugo() {
        return;
    }
    let d = scratch("match-gnugo");
    let json = run_match(
        &d,
        2,
        &[
            "--opponent",
            &format!("{GNUGO} --mode gtp --level 1"),
            "--player",
            "search",
            "--playouts",
            "300",
            "--threads",
            "1",
        ],
    );
    assert!(json.contains("\"opponent\":\"GNU Go"), "{json}");
}

#[test]
fn match_against_gnugo_with_a_referee() {
    if !have_gnugo() {
        return;
    }
    let d = scratch("match-gnugo-referee");
    run_match(
        &d,
        1,
        &[
            "--opponent",
            &format!("{GNUGO} --mode gtp --level 1"),
            "--referee",
            &format!("{GNUGO} --mode gtp --chinese-rules"),
            "--player",
            "random",
        ],
    );
    let text = std::fs::read_to_string(d.join("game-000000.sgf")).unwrap();
    assert!(text.contains("referee final_score") || text.contains("resign"));
}

#[test]
fn match_against_kosumi_over_gtp() {
    let exe = env!("CARGO_BIN_EXE_kosumi");
    let d = scratch("match-kosumi");
    let json = run_match(
        &d,
        4,
        &[
            "--opponent",
            &format!("{exe} gtp --threads 1 --playouts 200"),
            "--player",
            "random",
        ],
    );
    // A broken `kosumi gtp` would lose every game by forfeit and still add
    // up; real games end by passes, resignation or the move cap.
    assert_no_faults(&json);
}

#[test]
fn handicap_match_against_gnugo_sets_the_stones_on_every_side() {
    if !have_gnugo() {
        return;
    }
    let d = scratch("match-gnugo-handicap");
    let json = run_match(
        &d,
        2,
        &[
            "--opponent",
            &format!("{GNUGO} --mode gtp --level 1"),
            "--referee",
            &format!("{GNUGO} --mode gtp --chinese-rules"),
            "--handicap",
            "3",
            "--komi",
            "0.5",
            "--player",
            "search",
            "--playouts",
            "200",
        ],
    );
    // Had GNU Go or the referee not been given the stones, their boards
    // would differ from ours: a GNU Go move on a handicap point would end
    // the game as illegal, a refused referee move as a fault.
    assert_no_faults(&json);
    for i in 0..2 {
        let text = std::fs::read_to_string(d.join(format!("game-{i:06}.sgf"))).unwrap();
        assert_eq!(prop(&text, "HA"), Some("3"), "{text}");
        let game = replay(&text);
        assert_eq!(game.handicap_stones().len(), 3);
        assert_eq!(game.moves()[0].color, kosumi::Color::White);
    }
}

#[test]
fn match_refuses_a_handicap_that_does_not_fit() {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "match",
            "--size",
            "7",
            "--handicap",
            "5",
            "--opponent",
            "true",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("handicap"), "{err}");
}

/// A string field of a flat JSON object text: `"key":"value"`.
fn str_field<'a>(json: &'a str, key: &str) -> &'a str {
    let k = format!("\"{key}\":\"");
    let i = json.find(&k).unwrap_or_else(|| panic!("{key} in {json}")) + k.len();
    &json[i..i + json[i..].find('"').unwrap()]
}

#[test]
fn sprt_match_stops_once_decided_and_pairs_share_a_seed() {
    // The search against uniform random moves: far more than 200 Elo, so
    // the test accepts H1 after a few pairs, long before 60 games.
    let exe = env!("CARGO_BIN_EXE_kosumi");
    let d = scratch("match-sprt");
    let out = Command::new(exe)
        .args([
            "match", "--size", "7", "--komi", "7.5", "--json", "--games", "60",
        ])
        .args(["--player", "search", "--playouts", "200", "--threads", "1"])
        .args(["--sprt", "0,200", "--seed", "5", "--out"])
        .arg(&d)
        .args(["--opponent", &format!("{exe} gtp --player random")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "match failed: {err}");
    let json = String::from_utf8(out.stdout).unwrap();
    let games = field(&json, "games");
    assert!(games < 60 && games.is_multiple_of(2), "{json}");
    let sprt = &json[json.find("\"sprt\":").expect("sprt field")..];
    assert_eq!(str_field(sprt, "verdict"), "H1 accepted", "{json}");
    assert_eq!(field(sprt, "pairs") * 2, games, "{json}");
    // The two games of a pair name the same seed, pairs differ.
    let seed_of = |i: u64| {
        let text = std::fs::read_to_string(d.join(format!("game-{i:06}.sgf"))).unwrap();
        let at = text.find(", seed ").unwrap() + 7;
        text[at..at + text[at..].find('.').unwrap()].to_string()
    };
    assert_eq!(seed_of(0), seed_of(1));
    assert_eq!(seed_of(2), seed_of(3));
    assert_ne!(seed_of(0), seed_of(2));
}

#[test]
fn sprt_argument_is_checked() {
    for bad in ["10,0", "0", "0,10,0.7,0.1", "a,b"] {
        let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
            .args(["match", "--opponent", "true", "--sprt", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--sprt {bad} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--sprt"), "{err}");
    }
}

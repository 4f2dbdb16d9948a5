//! Writing SGF: a golden record, and every game Kosumi can replay from the
//! fixtures written with `game_to_sgf` and read back to the same game.
//!
//! With `KOSUMI_SABAKI_DIR=DIR`, `export_for_sabaki` also writes each
//! record and a JSON sidecar with the setup and moves taken from the `Game`
//! (not from the SGF) into DIR, for `.ci/sabaki-roundtrip.js`, which
//! parses the records with `@sabaki/sgf` and compares.

mod sgf_support;

use kosumi::color::Color;
use kosumi::game::Game;
use kosumi::point::{Move, Point};
use kosumi::rules::{KoRule, Rules};
use kosumi::sgf::{self, GameInfo, ReadOptions, ReplayOptions};
use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    sgf_support::sgf_files(&sgf_support::fixtures_dir())
}

/// Every game of the fixtures that replays (tolerantly) to the end.
fn replayable_games() -> Vec<(String, Game)> {
    let opts = ReplayOptions {
        tolerant: true,
        ..ReplayOptions::default()
    };
    let mut out = Vec::new();
    for p in fixtures() {
        let c = match sgf::read_file(&p, ReadOptions::default()) {
            Ok(c) => c,
            Err(_) => continue,
        };
        for (i, t) in c.trees.iter().enumerate() {
            if let Ok(r) = sgf::replay(t, &opts) {
                if r.illegal.is_none() {
                    let name = p.file_stem().unwrap().to_string_lossy().to_string();
                    out.push((format!("{name}-{}", i + 1), r.game));
                }
            }
        }
    }
    out
}

/// Reads a record back strictly (what Kosumi writes needs no leniency),
/// except that a game whose moves do not alternate stays out of turn.
fn read_back(text: &str) -> sgf::Replay {
    let alternating = !text.contains("PL[")
        && text
            .split(';')
            .filter_map(|n| n.chars().next().filter(|c| *c == 'B' || *c == 'W'))
            .collect::<Vec<_>>()
            .windows(2)
            .all(|w| w[0] != w[1]);
    let c = sgf::read_str(text, ReadOptions { strict: true }).unwrap();
    assert_eq!(c.trees.len(), 1);
    sgf::replay(
        &c.trees[0],
        &ReplayOptions {
            strict: alternating,
            tolerant: true,
            ..ReplayOptions::default()
        },
    )
    .unwrap()
}

fn assert_same_game(a: &Game, b: &Game, what: &str) {
    assert_eq!(a.size(), b.size(), "{what}");
    assert_eq!(a.start(), b.start(), "{what}: start");
    assert_eq!(
        a.start_to_move(),
        b.start_to_move(),
        "{what}: start to move"
    );
    assert_eq!(a.moves(), b.moves(), "{what}: moves");
    assert_eq!(a.komi(), b.komi(), "{what}: komi");
    assert_eq!(a.rules(), b.rules(), "{what}: rules");
    assert_eq!(a.board().hash(), b.board().hash(), "{what}: final position");
    assert_eq!(a.to_move(), b.to_move(), "{what}: to move");
}

#[test]
fn golden_record() {
    let mut g = Game::new(5, Rules::CHINESE, kosumi::Komi::default()).unwrap();
    g.play(Color::Black, Move::Play(Point::new(2, 2))).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    g.play(Color::Black, Move::Play(Point::new(1, 1))).unwrap();
    let info = GameInfo {
        black: Some("Kosumi".into()),
        white: Some("a]b\\c".into()),
        result: Some("B+R".into()),
        date: Some("2026-11-21".into()),
        comment: Some("two\nlines".into()),
        extra: vec![("TM".into(), vec!["600".into()])],
        ..GameInfo::default()
    };
    let want = concat!(
        "(;GM[1]FF[4]CA[UTF-8]AP[Kosumi:",
        env!("CARGO_PKG_VERSION"),
        "]SZ[5]KM[7.5]RU[Chinese]RE[B+R]PB[Kosumi]PW[a\\]b\\\\c]DT[2026-11-21]C[two\nlines]TM[600]\n",
        ";B[cc];W[];B[bb])\n"
    );
    let text = sgf::game_to_sgf(&g, &info);
    assert_eq!(text, want);
    let r = read_back(&text);
    assert_same_game(&g, &r.game, "golden");
    assert_eq!(r.result.as_deref(), Some("B+R"));
    let c = sgf::read_str(&text, ReadOptions::default()).unwrap();
    assert_eq!(c.trees[0].root().get("PW").unwrap().text(), "a]b\\c");
}

#[test]
fn handicap_setup_and_odd_rules_round_trip() {
    // Fixed handicap: HA, AB, White to move, no PL needed.
    let mut g = Game::new(9, Rules::JAPANESE, kosumi::Komi::new(0.5).unwrap()).unwrap();
    g.fixed_handicap(3).unwrap();
    let text = sgf::game_to_sgf(&g, &GameInfo::default());
    assert!(text.contains("HA[3]AB["), "{text}");
    assert!(!text.contains("PL["), "{text}");
    let r = read_back(&text);
    assert_same_game(&g, &r.game, "handicap, no moves");
    g.play(Color::White, Move::Play(Point::new(4, 4))).unwrap();
    assert_same_game(
        &g,
        &read_back(&sgf::game_to_sgf(&g, &GameInfo::default())).game,
        "handicap",
    );
    // Mixed setup, White to move, a rule set that is no preset, negative komi.
    let mut b = kosumi::Board::new(7).unwrap();
    b.set(Point::new(0, 0), Some(Color::Black)).unwrap();
    b.set(Point::new(3, 3), Some(Color::White)).unwrap();
    let odd = Rules {
        ko: KoRule::Simple,
        suicide: true,
        ..Rules::default()
    };
    let mut g = Game::from_position(b, Color::White, odd, kosumi::Komi::new(-2.5).unwrap());
    let text = sgf::game_to_sgf(&g, &GameInfo::default());
    assert!(text.contains("RU[koSIMPLEscoreAREAsui1]"), "{text}");
    assert!(text.contains("PL[W]"), "{text}");
    assert_same_game(&g, &read_back(&text).game, "setup, no moves");
    g.play(Color::White, Move::Play(Point::new(1, 0))).unwrap();
    g.play(Color::White, Move::Play(Point::new(0, 1))).unwrap(); // captures, out of turn
    let text = sgf::game_to_sgf(&g, &GameInfo::default());
    // Written out of turn, read back out of turn (a tolerant, lenient read).
    let c = sgf::read_str(&text, ReadOptions::default()).unwrap();
    let r = sgf::replay(&c.trees[0], &ReplayOptions::default()).unwrap();
    assert_same_game(&g, &r.game, "out of turn");
    assert_eq!(r.game.captures(Color::White), 1);
}

#[test]
fn every_replayable_fixture_game_round_trips() {
    let games = replayable_games();
    assert!(games.len() >= 250, "{} games", games.len());
    for (name, g) in &games {
        let text = sgf::game_to_sgf(g, &GameInfo::default());
        let r = read_back(&text);
        if g.start().captures(Color::Black) + g.start().captures(Color::White) > 0 {
            // Setup after moves starts the game afresh from a
            // position that keeps the prisoners taken before it; SGF has
            // no property for prisoners, so the written record starts
            // with none. Everything else is the same.
            assert!(name.starts_with("ab-aw-after-moves"), "{name}");
            assert_eq!(g.start().hash(), r.game.start().hash(), "{name}");
            assert_eq!(g.moves(), r.game.moves(), "{name}");
            assert_eq!(g.board().hash(), r.game.board().hash(), "{name}");
            continue;
        }
        assert_same_game(g, &r.game, name);
    }
}

fn json_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The sidecar for the Sabaki check, from the `Game` itself: points as
/// numeric `[x, y]` (column from the left, row from the top) and a pass as
/// `null`, not through `Point::to_sgf`, which the writer uses too.
fn sidecar(g: &Game) -> String {
    let start = g.start();
    let xy = |p: kosumi::Point| format!("[{},{}]", p.x(), p.y());
    let list = |c: Color| -> String {
        let v: Vec<String> = start
            .points()
            .filter(|&p| start.get(p) == Some(c))
            .map(xy)
            .collect();
        format!("[{}]", v.join(","))
    };
    let moves: Vec<String> = g
        .moves()
        .iter()
        .map(|m| {
            let v = match m.mv {
                Move::Pass => "null".to_string(),
                Move::Play(p) => xy(p),
            };
            format!("[{},{}]", json_str(&m.color.letter().to_string()), v)
        })
        .collect();
    format!(
        "{{\"size\":{},\"komi\":{},\"AB\":{},\"AW\":{},\"moves\":[{}]}}\n",
        g.size(),
        g.komi(),
        list(Color::Black),
        list(Color::White),
        moves.join(",")
    )
}

#[test]
fn export_for_sabaki() {
    let dir = match std::env::var_os("KOSUMI_SABAKI_DIR") {
        Some(d) => PathBuf::from(d),
        None => return,
    };
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for (name, g) in replayable_games() {
        let info = GameInfo {
            black: Some("Black \\ \"name\"".into()),
            white: Some("White ]".into()),
            comment: Some(format!("from {name}")),
            ..GameInfo::default()
        };
        std::fs::write(dir.join(format!("{n:03}.sgf")), sgf::game_to_sgf(&g, &info)).unwrap();
        std::fs::write(dir.join(format!("{n:03}.json")), sidecar(&g)).unwrap();
        n += 1;
    }
    assert!(n >= 250);
}

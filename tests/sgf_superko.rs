//! The superko verdicts of `sgf-fixtures/superko/EXPECTED.tsv` (copied
//! from the corpus), checked under simple ko, situational and positional
//! superko.
//!
//! For an "in-record" row: the position before the move (reached by a
//! tolerant replay) is checked with `Game::check`, giving the verdict and,
//! for superko, the move whose position is repeated; and a plain replay
//! under that rule stops exactly at the move when the rule forbids it (or
//! earlier, at another row of the same file) and passes it when the rule
//! allows it. For a "next" row: the whole main line replays cleanly and
//! `Game::check` of the next move gives the verdict.
//!
//! The KataGo rule transcriptions use rectangular boards, which Kosumi
//! refuses with a clear message: that refusal is what is checked for them.

use kosumi::board::IllegalMove;
use kosumi::color::Color;
use kosumi::point::{parse_sgf_point, Move};
use kosumi::rules::{KoRule, Rules};
use kosumi::sgf::{self, ReadOptions, ReplayOptions};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sgf-fixtures/superko")
}

struct Row {
    file: String,
    next: bool,
    move_no: usize,
    color: Color,
    point: String,
    verdicts: [String; 3],
    repeats: Option<usize>,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(dir().join("EXPECTED.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                file: f[0].to_string(),
                next: match f[1] {
                    "next" => true,
                    "in-record" => false,
                    k => panic!("kind {k}"),
                },
                move_no: f[2].parse().unwrap(),
                color: f[3].parse().unwrap(),
                point: f[4].to_string(),
                verdicts: [f[5].to_string(), f[6].to_string(), f[7].to_string()],
                repeats: f[8].parse().ok(),
            }
        })
        .collect()
}

const KO: [KoRule; 3] = [KoRule::Simple, KoRule::Situational, KoRule::Positional];

/// The record's suicide rule (`RU`), or allowed where the corpus says the
/// record needs it (the Pachi random playout has no `RU`).
fn suicide_allowed(file: &str, ru: Option<Rules>) -> bool {
    file == "pachi/random-playout-superko-at-move-424.sgf" || ru.is_some_and(|r| r.suicide)
}

#[test]
fn expected_tsv_verdicts() {
    let rows = rows();
    assert!(rows.len() >= 45, "{} rows", rows.len());
    let mut checked = 0;
    let mut rectangular = 0;
    for row in &rows {
        let path = dir().join(&row.file);
        let c = sgf::read_file(&path, ReadOptions::default()).unwrap();
        let tree = &c.trees[0];
        let ru = tree
            .root()
            .get("RU")
            .and_then(|p| sgf::go::rules_from_ru(&p.simple_text()));
        let sz = tree.root().value("SZ").unwrap_or("19");
        if sz.contains(':') {
            let e = sgf::replay(tree, &ReplayOptions::default()).unwrap_err();
            let message = e.kind.to_string();
            assert!(message.starts_with("rectangular board"), "{message}");
            rectangular += 1;
            continue;
        }
        let size: usize = sz.parse().unwrap();
        let point = parse_sgf_point(&row.point, size).unwrap();
        for (k, ko) in KO.iter().enumerate() {
            let rules = Rules {
                ko: *ko,
                suicide: suicide_allowed(&row.file, ru),
                ..Rules::default()
            };
            let what = format!("{} move {} under {:?}", row.file, row.move_no, ko);
            let verdict = row.verdicts[k].as_str();
            // The position before the move.
            let before = sgf::replay(
                tree,
                &ReplayOptions {
                    rules: Some(rules),
                    tolerant: true,
                    stop_before: if row.next { None } else { Some(row.move_no) },
                    ..ReplayOptions::default()
                },
            )
            .unwrap();
            assert!(before.illegal.is_none(), "{what}: {:?}", before.illegal);
            let g = &before.game;
            assert_eq!(g.moves().len(), row.move_no - 1, "{what}");
            let got = g.check(row.color, Move::Play(point));
            match verdict {
                "legal" => assert_eq!(got, Ok(()), "{what}"),
                "n/a" => assert_eq!(got, Err(IllegalMove::Suicide), "{what}"),
                "illegal" => match got {
                    Err(IllegalMove::Ko) => {}
                    Err(IllegalMove::Superko { after_move }) => {
                        let want = row.repeats.expect("repeats given");
                        if *ko == KoRule::Positional {
                            assert_eq!(after_move, want, "{what}");
                        } else {
                            // Situational: the same position, perhaps seen
                            // first with the other side to move.
                            assert!(after_move >= want, "{what}: {after_move}");
                            assert_eq!(
                                g.history_entry(after_move).unwrap().0,
                                g.history_entry(want).unwrap().0,
                                "{what}"
                            );
                        }
                    }
                    other => panic!("{what}: {other:?}"),
                },
                v => panic!("verdict {v}"),
            }
            // A plain replay under the rule.
            let plain = sgf::replay(
                tree,
                &ReplayOptions {
                    rules: Some(rules),
                    ..ReplayOptions::default()
                },
            )
            .unwrap();
            if row.next {
                assert!(plain.illegal.is_none(), "{what}: {:?}", plain.illegal);
            } else if verdict == "legal" {
                if let Some(a) = &plain.illegal {
                    assert!(a.number > row.move_no, "{what}: stopped at {a}");
                }
            } else {
                let a = plain.illegal.as_ref().expect("stops");
                let earlier_row = rows.iter().any(|r| {
                    r.file == row.file
                        && !r.next
                        && r.move_no < row.move_no
                        && r.verdicts[k] == "illegal"
                });
                if earlier_row {
                    assert!(a.number < row.move_no, "{what}: {a}");
                } else {
                    assert_eq!(a.number, row.move_no, "{what}: {a}");
                    assert_eq!(a.color, row.color, "{what}");
                    assert_eq!(a.point, point, "{what}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 3 * 38, "{checked} checks");
    assert_eq!(rectangular, 7);
}

#[test]
fn illegal_move_is_reported_with_number_colour_point_and_reason() {
    let path = dir().join("fuego-repetition/repetition-1.sgf");
    let c = sgf::read_file(&path, ReadOptions::default()).unwrap();
    let r = sgf::replay(&c.trees[0], &ReplayOptions::default()).unwrap();
    // RU[GOE]: positional superko.
    let a = r.illegal.unwrap();
    assert_eq!(
        a.to_string(),
        "move 65 (black J2): superko (repeats the position after move 62)"
    );
    let r = sgf::replay(
        &c.trees[0],
        &ReplayOptions {
            tolerant: true,
            ..ReplayOptions::default()
        },
    )
    .unwrap();
    assert!(r.illegal.is_none());
    assert_eq!(r.game.moves().len(), 105);
    assert_eq!(r.broken[0].number, 65);
    assert!(r.warnings.iter().any(|w| w.to_string().ends_with(
        "move 65 (black J2): superko (repeats the position after move 62): played anyway"
    )));
}

#[test]
fn load_position_is_before_the_move_and_tolerant() {
    let path = dir().join("fuego-repetition/repetition-1.sgf");
    let l = sgf::load_position(&path, Some(6), None).unwrap();
    assert_eq!(l.game.moves().len(), 5);
    let l = sgf::load_position(&path, Some(1), None).unwrap();
    assert_eq!(l.game.moves().len(), 0);
    let l = sgf::load_position(&path, Some(0), None).unwrap();
    assert_eq!(l.game.moves().len(), 0);
    let l = sgf::load_position(&path, None, Some(Rules::CHINESE)).unwrap();
    assert_eq!(l.game.moves().len(), 105);
    assert!(l
        .warnings
        .iter()
        .any(|w| w.to_string().contains("played anyway")));
    let l = sgf::load_position(&path, Some(1000), None).unwrap();
    assert_eq!(l.game.moves().len(), 105);
    // A single-stone suicide is an error even when tolerant.
    let e = sgf::load_position(
        &dir().join("katago-testsgf/single-stone-suicide.sgf"),
        None,
        None,
    )
    .unwrap_err();
    let text = e.to_string();
    assert!(text.contains("single-stone-suicide.sgf:"), "{text}");
    assert!(
        text.ends_with("illegal move 1 (black C3): suicide"),
        "{text}"
    );
}

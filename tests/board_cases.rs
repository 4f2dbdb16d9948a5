//! Board-level cases as diagrams: captures at edges and corners, several
//! chains captured by one move, snapback, suicide, simple ko, liberty counts
//! after merges, and the superko shapes of the shared SGF corpus (triple ko,
//! eternal life, sending two returning one, situational versus positional).
//!
//! Diagrams: `X` Black, `O` White, `.` empty, first line the top row.
//! Moves are GTP vertices (`A1` lower left) unless the case says SGF.

use kosumi::point::{parse_gtp_move, parse_sgf_move};
use kosumi::{Board, Color, Game, IllegalMove, KoRule, Move, Point, Rules};

use Color::{Black, White};

fn board(diagram: &str) -> Board {
    let b = Board::from_diagram(diagram).unwrap();
    b.check_invariants().unwrap();
    b
}

/// Komi 0.5, the komi of every game here.
fn half() -> kosumi::Komi {
    kosumi::Komi::new(0.5).unwrap()
}

fn pt(b: &Board, vertex: &str) -> Point {
    match parse_gtp_move(vertex, b.size()) {
        Ok(Move::Play(p)) => p,
        other => panic!("bad vertex {vertex}: {other:?}"),
    }
}

fn pts(b: &Board, vertices: &[&str]) -> Vec<Point> {
    let mut v: Vec<Point> = vertices.iter().map(|s| pt(b, s)).collect();
    v.sort_unstable();
    v
}

/// Plays and checks the invariants; returns the number captured.
fn play(b: &mut Board, c: Color, vertex: &str, suicide: bool) -> Result<u32, IllegalMove> {
    let p = pt(b, vertex);
    let r = b.play(c, p, suicide);
    b.check_invariants().unwrap();
    r
}

fn same(b: &Board, diagram: &str) {
    let want = Board::from_diagram(diagram).unwrap();
    for p in b.points() {
        assert_eq!(b.get(p), want.get(p), "at {}\n{b:?}", p.to_gtp(b.size()));
    }
    assert_eq!(b.hash(), want.hash());
}

#[test]
fn capture_in_each_corner() {
    let mut b = board(
        "
        O X . X O
        . . . . .
        . . . . .
        . . . . .
        O X . X O",
    );
    let mut total = 0;
    for (v, captured) in [("A4", "A5"), ("E4", "E5"), ("A2", "A1"), ("E2", "E1")] {
        assert_eq!(b.liberties(pt(&b, captured)), 1);
        total += 1;
        assert_eq!(play(&mut b, Black, v, false), Ok(1), "{v}");
        assert_eq!(b.get(pt(&b, captured)), None);
        assert_eq!(b.captures(Black), total);
    }
    // A captured corner point is a liberty again: B5 has A5, C5 and B4.
    assert_eq!(b.liberties(pt(&b, "B5")), 3);
    assert_eq!(
        b.chain_liberties(pt(&b, "B5")),
        pts(&b, &["A5", "C5", "B4"])
    );
    assert_eq!(b.liberties(pt(&b, "A4")), 3);
}

#[test]
fn capture_on_the_edge() {
    let mut b = board(
        "
        . X O O .
        . . X X .
        . . . . .
        O . . . .
        . . . . .",
    );
    assert_eq!(b.liberties(pt(&b, "C5")), 1);
    assert_eq!(b.chain_len(pt(&b, "D5")), 2);
    assert_eq!(play(&mut b, Black, "E5", false), Ok(2));
    same(
        &b,
        "
        . X . . X
        . . X X .
        . . . . .
        O . . . .
        . . . . .",
    );
    assert_eq!(b.captures(Black), 2);
    assert_eq!(b.chain_liberties(pt(&b, "E5")), pts(&b, &["D5", "E4"]));
    assert_eq!(b.liberties(pt(&b, "C4")), 6);
    // A stone on the left edge: three liberties, then two.
    assert_eq!(b.liberties(pt(&b, "A2")), 3);
    assert_eq!(play(&mut b, Black, "A1", false), Ok(0));
    assert_eq!(b.liberties(pt(&b, "A2")), 2);
    assert_eq!(play(&mut b, Black, "B2", false), Ok(0));
    assert_eq!(play(&mut b, Black, "A3", false), Ok(1));
    assert_eq!(b.get(pt(&b, "A2")), None);
    assert_eq!(b.chain_len(pt(&b, "A3")), 1);
}

#[test]
fn one_move_captures_four_chains() {
    let mut b = board(
        "
        . . X . .
        . X O X .
        X O . O X
        . X O X .
        . . X . .",
    );
    for v in ["C4", "B3", "D3", "C2"] {
        assert_eq!(b.liberties(pt(&b, v)), 1);
    }
    // White may not play there (suicide), Black captures all four.
    assert_eq!(play(&mut b, White, "C3", false), Err(IllegalMove::Suicide));
    assert_eq!(play(&mut b, Black, "C3", false), Ok(4));
    same(
        &b,
        "
        . . X . .
        . X . X .
        X . X . X
        . X . X .
        . . X . .",
    );
    assert_eq!(b.liberties(pt(&b, "C3")), 4);
    assert_eq!(b.liberties(pt(&b, "B4")), 4);
    assert_eq!(b.captures(Black), 4);
    assert_eq!(b.ko(), None);
}

#[test]
fn one_move_captures_two_chains_in_the_corner() {
    let d = "
        X . . .
        O X . .
        O X X .
        . O O X";
    let mut b = board(d);
    // A2-A3 and B1-C1 are two chains, each with the one liberty A1.
    assert_ne!(b.chain_root(pt(&b, "A2")), b.chain_root(pt(&b, "B1")));
    assert_eq!(b.chain_liberties(pt(&b, "A3")), pts(&b, &["A1"]));
    assert_eq!(b.chain_liberties(pt(&b, "C1")), pts(&b, &["A1"]));
    assert_eq!(play(&mut b, Black, "A1", false), Ok(4));
    same(
        &b,
        "
        X . . .
        . X . .
        . X X .
        X . . X",
    );
    assert_eq!(b.chain_liberties(pt(&b, "A1")), pts(&b, &["A2", "B1"]));
    assert_eq!(b.captures(Black), 4);
    // White A1 instead joins both chains into five stones without a
    // liberty: a suicide, legal only when suicide is allowed.
    let mut b = board(d);
    assert_eq!(play(&mut b, White, "A1", false), Err(IllegalMove::Suicide));
    assert_eq!(play(&mut b, White, "A1", true), Ok(0));
    assert_eq!(b.captures(Black), 5);
    assert_eq!(b.empty_count(), 16 - 5);
}

#[test]
fn snapback() {
    let mut b = board(
        "
        . . . . .
        . . . . .
        X X X X .
        O O O X .
        . . O X .",
    );
    // White A2-B2-C2-C1 has two liberties, A1 and B1.
    assert_eq!(b.chain_liberties(pt(&b, "C1")), pts(&b, &["A1", "B1"]));
    // Black throws in at B1: one liberty, White in atari.
    assert_eq!(play(&mut b, Black, "B1", false), Ok(0));
    assert_eq!(b.liberties(pt(&b, "B1")), 1);
    assert_eq!(b.liberties(pt(&b, "C1")), 1);
    // White captures the throw-in, and is left with the one liberty B1.
    assert_eq!(play(&mut b, White, "A1", false), Ok(1));
    assert_eq!(b.chain_len(pt(&b, "A1")), 5);
    assert_eq!(b.chain_liberties(pt(&b, "A1")), pts(&b, &["B1"]));
    // Not a ko (White's chain has five stones): Black takes back at once.
    assert_eq!(b.ko(), None);
    assert_eq!(play(&mut b, Black, "B1", false), Ok(5));
    same(
        &b,
        "
        . . . . .
        . . . . .
        X X X X .
        . . . X .
        . X . X .",
    );
    assert_eq!(b.captures(Black), 5);
    assert_eq!(b.captures(White), 1);
    assert_eq!(b.liberties(pt(&b, "B1")), 3);
}

#[test]
fn single_stone_suicide_is_never_legal() {
    for suicide in [false, true] {
        let mut b = board(
            "
            . X .
            X . .
            . . .",
        );
        assert_eq!(
            play(&mut b, White, "A3", suicide),
            Err(IllegalMove::Suicide)
        );
        assert_eq!(b.get(pt(&b, "A3")), None);
        // Black may fill its own eye.
        assert_eq!(play(&mut b, Black, "A3", suicide), Ok(0));
        assert_eq!(b.chain_len(pt(&b, "A3")), 3);
    }
    for (_, rules) in Rules::PRESETS {
        let mut g = Game::from_position(
            board(
                "
                . X .
                X . .
                . . .",
            ),
            White,
            rules,
            half(),
        );
        let a3 = Move::Play(Point::new(0, 0));
        assert_eq!(g.check(White, a3), Err(IllegalMove::Suicide), "{rules}");
        assert_eq!(g.play(White, a3), Err(IllegalMove::Suicide));
        assert!(!g.legal_moves(White).contains(&a3));
        assert_eq!(g.history_len(), 1);
    }
}

#[test]
fn multi_stone_suicide_only_when_allowed() {
    let diagram = "
        O . X
        X X .
        . . .";
    // White B3 would join A3 and leave both without a liberty.
    let mut b = board(diagram);
    assert!(b.is_suicide(White, pt(&b, "B3")));
    assert_eq!(play(&mut b, White, "B3", false), Err(IllegalMove::Suicide));
    same(&b, diagram);
    assert_eq!(play(&mut b, White, "B3", true), Ok(0));
    same(
        &b,
        "
        . . X
        X X .
        . . .",
    );
    // The suicided stones count as captured by Black.
    assert_eq!(b.captures(Black), 2);
    assert_eq!(b.captures(White), 0);
    assert_eq!(
        b.chain_liberties(pt(&b, "A2")),
        pts(&b, &["A3", "B3", "A1", "B1", "C2"])
    );
    assert_eq!(b.liberties(pt(&b, "C3")), 2);
    assert_eq!(b.ko(), None);

    for (name, rules) in Rules::PRESETS {
        let g = Game::from_position(board(diagram), White, rules, half());
        let b3 = Move::Play(Point::new(1, 0));
        let want = if rules.suicide {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        };
        assert_eq!(g.check(White, b3), want, "{name}");
    }
}

#[test]
fn simple_ko_recapture_refused_then_allowed() {
    let start = "
        . X O .
        X . X O
        . X O .
        . . . .";
    let mut b = board(start);
    // White takes the ko at B3, capturing C3.
    assert_eq!(play(&mut b, White, "B3", false), Ok(1));
    assert_eq!(b.ko(), Some((pt(&b, "C3"), Black)));
    assert_eq!(b.chain_liberties(pt(&b, "B3")), pts(&b, &["C3"]));
    assert_eq!(play(&mut b, Black, "C3", false), Err(IllegalMove::Ko));
    assert_eq!(b.check(Black, pt(&b, "C3"), true), Err(IllegalMove::Ko));
    // The ko binds only Black, and only until the next move.
    assert_eq!(b.check(White, pt(&b, "C3"), false), Ok(()));
    assert_eq!(play(&mut b, Black, "D1", false), Ok(0));
    assert_eq!(b.ko(), None);
    assert_eq!(play(&mut b, White, "A1", false), Ok(0));
    assert_eq!(play(&mut b, Black, "C3", false), Ok(1));
    assert_eq!(b.ko(), Some((pt(&b, "B3"), White)));
    // A pass clears the ko point too.
    b.pass();
    assert_eq!(b.ko(), None);

    // The same in a game, under every ko rule.
    for ko in [KoRule::Simple, KoRule::Situational, KoRule::Positional] {
        let rules = Rules {
            ko,
            ..Rules::default()
        };
        let mut g = Game::from_position(board(start), White, rules, half());
        let m = |v: &str| parse_gtp_move(v, 4).unwrap();
        g.play(White, m("B3")).unwrap();
        assert_eq!(g.check(Black, m("C3")), Err(IllegalMove::Ko), "{ko:?}");
        assert_eq!(g.play(Black, m("C3")), Err(IllegalMove::Ko));
        g.play(Black, m("D1")).unwrap();
        g.play(White, m("A1")).unwrap();
        assert_eq!(g.play(Black, m("C3")), Ok(()), "{ko:?}");
        assert_eq!(g.captures(Black), 1);
        assert_eq!(g.captures(White), 1);
        // Now White may not retake at once. After a pass each the simple
        // ko is lifted, but retaking would recreate the position after
        // move 3 (White A1), Black to move then as now: superko forbids it.
        assert_eq!(g.check(White, m("B3")), Err(IllegalMove::Ko));
        g.play(White, Move::Pass).unwrap();
        g.play(Black, Move::Pass).unwrap();
        let want = match ko {
            KoRule::Simple => Ok(()),
            _ => Err(IllegalMove::Superko { after_move: 3 }),
        };
        assert_eq!(g.check(White, m("B3")), want, "{ko:?}");
    }
}

#[test]
fn liberties_after_merges() {
    let mut b = board(
        "
        . . . . .
        . X . X .
        . . . . .
        . X . O .
        . . . . .",
    );
    assert_eq!(b.liberties(pt(&b, "B4")), 4);
    // C4 joins B4 and D4: eight liberties (C4's own C5 and C3 included).
    assert_eq!(play(&mut b, Black, "C4", false), Ok(0));
    assert_eq!(b.chain_len(pt(&b, "B4")), 3);
    assert_eq!(b.chain_root(pt(&b, "B4")), b.chain_root(pt(&b, "D4")));
    assert_eq!(
        b.chain_liberties(pt(&b, "D4")),
        pts(&b, &["A4", "B5", "C5", "D5", "E4", "B3", "C3", "D3"])
    );
    assert_eq!(b.liberties(pt(&b, "C4")), 8);
    // B3 joins B2 as well; C3 is shared and counts once; B3 itself stops
    // being a liberty.
    assert_eq!(play(&mut b, Black, "B3", false), Ok(0));
    assert_eq!(b.chain_len(pt(&b, "B2")), 5);
    assert_eq!(
        b.chain_liberties(pt(&b, "B2")),
        pts(
            &b,
            &["A4", "B5", "C5", "D5", "E4", "C3", "D3", "A3", "A2", "C2", "B1"]
        )
    );
    assert_eq!(b.liberties(pt(&b, "B2")), 11);
    // White D3 joins D2 and takes one liberty from Black.
    assert_eq!(play(&mut b, White, "D3", false), Ok(0));
    assert_eq!(b.liberties(pt(&b, "B2")), 10);
    assert_eq!(b.chain_len(pt(&b, "D2")), 2);
    assert_eq!(
        b.chain_liberties(pt(&b, "D3")),
        pts(&b, &["C3", "E3", "C2", "E2", "D1"])
    );
    // Black C3 touches the chain twice (B3 and C4): it joins once, loses
    // the liberty C3 and adds none (C2 is already one); White D2-D3 loses C3.
    assert_eq!(play(&mut b, Black, "C3", false), Ok(0));
    assert_eq!(b.chain_len(pt(&b, "C3")), 6);
    assert_eq!(b.liberties(pt(&b, "C3")), 9);
    assert_eq!(b.liberties(pt(&b, "D3")), 4);
    // Empty points have no chain.
    assert_eq!(b.liberties(pt(&b, "E5")), 0);
    assert_eq!(b.chain_len(pt(&b, "E5")), 0);
    assert!(b.chain_liberties(pt(&b, "E5")).is_empty());
}

#[test]
fn off_board_and_occupied() {
    let mut b = board(
        "
        X .
        . .",
    );
    assert_eq!(
        b.play(White, Point::new(2, 0), false),
        Err(IllegalMove::OffBoard)
    );
    assert_eq!(
        b.play(White, Point::new(0, 5), false),
        Err(IllegalMove::OffBoard)
    );
    assert_eq!(play(&mut b, White, "A2", false), Err(IllegalMove::Occupied));
    let g = Game::new(2, Rules::default(), half()).unwrap();
    assert_eq!(
        g.check(Black, Move::Play(Point::new(24, 24))),
        Err(IllegalMove::OffBoard)
    );
}

// ---------------------------------------------------------------------------
// Superko shapes from ../shared/sgf-corpus/superko (EXPECTED.md, EXPECTED.tsv),
// rebuilt here as diagrams plus SGF move lists. KataGo's rectangular boards
// are padded to squares with empty lines the play never reaches, which
// changes no repetition.

/// The verdicts on `test` (SGF point, played by the side to move) after
/// `moves` (SGF points, alternating from `to_move`; "" is a pass), under
/// simple ko, situational superko and positional superko, in that order.
fn verdicts(
    diagram: &str,
    to_move: Color,
    suicide: bool,
    moves: &[&str],
    test: &str,
) -> [Result<(), IllegalMove>; 3] {
    let rules = [KoRule::Simple, KoRule::Situational, KoRule::Positional];
    rules.map(|ko| {
        let start = board(diagram);
        let size = start.size();
        let mut g = Game::from_position(
            start,
            to_move,
            Rules {
                ko,
                suicide,
                ..Rules::default()
            },
            half(),
        );
        for (n, m) in moves.iter().enumerate() {
            let mv = parse_sgf_move(m, size).unwrap();
            let c = g.to_move();
            g.play(c, mv)
                .unwrap_or_else(|e| panic!("{ko:?}: move {} {m} refused: {e}", n + 1));
            g.board().check_invariants().unwrap();
        }
        let mv = parse_sgf_move(test, size).unwrap();
        let c = g.to_move();
        let v = g.check(c, mv);
        assert_eq!(g.is_legal(c, mv), v.is_ok());
        v
    })
}

const OK: Result<(), IllegalMove> = Ok(());

fn superko(after_move: usize) -> Result<(), IllegalMove> {
    Err(IllegalMove::Superko { after_move })
}

/// fuego-repetition/simpleko.sgf: the immediate recapture is a ko under
/// every rule.
#[test]
fn corpus_simple_ko() {
    let d = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O X . . . . . . .
        . O X . . . . . .";
    let ko = Err(IllegalMove::Ko);
    assert_eq!(verdicts(d, Black, false, &["ai"], "bi"), [ko, ko, ko]);
}

/// fuego-repetition/triple-ko.sgf: White E7 (move 6) recreates the setup
/// position with Black to move.
#[test]
fn corpus_triple_ko() {
    let d = "
        . X O . O X O . .
        . X O O X X O . .
        . X O . O X O . .
        . X O O X X O . .
        . X O X . X O . .
        . X O O X X O . .
        . X X X O O O . .
        . . . . . . . . .
        . . . . . . . . .";
    let moves = ["da", "ee", "dc", "ea", "de"];
    assert_eq!(
        verdicts(d, Black, false, &moves, "ec"),
        [OK, superko(0), superko(0)]
    );
}

/// katago-testrules/triple-ko-positional.sgf (7x6 padded to 7x7): after
/// five moves White may not retake at bc (an immediate ko recapture) nor at
/// fc (superko only: it recreates the setup position).
#[test]
fn corpus_triple_ko_katago() {
    let d = "
        O O O O O O O
        O X O . O . O
        X . X O X O X
        X X X X X X X
        O O O O O O O
        . . . . . . .
        . . . . . . .";
    let moves = ["db", "bc", "fb", "dc", "bb"];
    let ko = Err(IllegalMove::Ko);
    assert_eq!(verdicts(d, Black, false, &moves, "bc"), [ko, ko, ko]);
    assert_eq!(
        verdicts(d, Black, false, &moves, "fc"),
        [OK, superko(0), superko(0)]
    );
}

/// fuego-repetition/long-life.sgf (eternal life): White's throw-in at af
/// (move 4) recreates the setup position with Black to move.
#[test]
fn corpus_long_life() {
    let d = "
        . X . . . . . . .
        O O X O . . . . .
        . O X O . . . . .
        X O X O . . . . .
        . X X O . . . . .
        O X O O . . . . .
        X O . . . . . . .
        . O . . . . . . .
        . . . . . . . . .";
    assert_eq!(
        verdicts(d, Black, false, &["ac", "ae", "ad"], "af"),
        [OK, superko(0), superko(0)]
    );
}

/// katago-testrules/eternal-life-cycle.sgf (8x5 padded to 8x8 by three
/// empty rows on top, so its row e is our row h): W fh (move 4) recreates
/// the setup position; under simple ko the whole 8-move cycle is legal and
/// comes back to it twice.
#[test]
fn corpus_eternal_life_cycle() {
    let d = "
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        O O O O O O . .
        X X X X X O . .
        X O O O X X O O
        . O . X . O X .";
    assert_eq!(
        verdicts(d, Black, false, &["ch", "eh", "dh"], "fh"),
        [OK, superko(0), superko(0)]
    );
    let start = board(d);
    let mut g = Game::from_position(start.clone(), Black, Rules::JAPANESE, half());
    for m in ["ch", "eh", "dh", "fh", "ch", "eh", "dh", "fh"] {
        let c = g.to_move();
        g.play(c, parse_sgf_move(m, 8).unwrap()).unwrap();
        if g.moves().len().is_multiple_of(4) {
            assert_eq!(g.board().hash(), start.hash());
            for p in start.points() {
                assert_eq!(g.board().get(p), start.get(p));
            }
        }
    }
    assert_eq!(g.to_move(), Black);
}

/// fuego-repetition/positional-superko.sgf: White B9 (move 3) recreates the
/// setup position, but with Black to move where the setup had White: legal
/// under situational superko, illegal under positional.
#[test]
fn corpus_situational_legal_positional_illegal() {
    let d = "
        . O . X O . . . .
        O X X X O . . . .
        O . X O O . . . .
        X X X O . . . . .
        O O O O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    assert_eq!(
        verdicts(d, White, false, &["ca", "aa"], "ba"),
        [OK, OK, superko(0)]
    );
}

const S2R1: &str = "
        . O . X X O
        O X X X O .
        O . X . O O
        X X . O O .
        O O O O . O
        . . . . . .";

/// katago-testrules/s2r1-violation-positional-only.sgf (6x5 padded to 6x6):
/// White sends two at ca, Black captures two at aa, and White returning one
/// at ba recreates the position after move 3 with the other side to move.
#[test]
fn corpus_sending_two_returning_one() {
    let moves = ["fb", "", "dc", "ca", "aa"];
    assert_eq!(
        verdicts(S2R1, Black, false, &moves, "ba"),
        [OK, OK, superko(3)]
    );
    // White's retaking the other ko at fa instead is legal under every rule
    // (move 6 of KataGo's line).
    assert_eq!(verdicts(S2R1, Black, false, &moves, "fa"), [OK, OK, OK]);
}

/// katago-testrules/s2r1-violation-both.sgf: after ten legal moves Black's
/// aa repeats the position after move 6 (positional) and the situation after
/// move 7 (situational).
#[test]
fn corpus_illegal_under_both_superko_rules() {
    let moves = ["fb", "", "dc", "ca", "aa", "fa", "", "ba", "", "ca"];
    assert_eq!(
        verdicts(S2R1, Black, false, &moves, "aa"),
        [OK, superko(7), superko(6)]
    );
    // And fb: positional forbids it, situational allows it (EXPECTED.md).
    let v = verdicts(S2R1, Black, false, &moves, "fb");
    assert_eq!(v[0], OK);
    assert_eq!(v[1], OK);
    assert!(matches!(v[2], Err(IllegalMove::Superko { .. })));
}

/// katago-testrules/suicide-superko.sgf (6x5 padded to 6x6), multi-stone
/// suicide allowed: moves 1-9 are legal (suicides at 1, 4 and 5), and White
/// ab (move 10) repeats the position after move 4 under both superko rules.
#[test]
fn corpus_suicide_superko() {
    let d = "
        . O X O . X
        O X X O O O
        X X . . . .
        . . . . . .
        . . . . . .
        . . . . . .";
    let moves = ["ea", "", "ea", "aa", "fa", "ba", "", "aa", "ea"];
    assert_eq!(
        verdicts(d, Black, true, &moves, "ab"),
        [OK, superko(4), superko(4)]
    );
    // Without suicide the first move is already refused.
    let v = verdicts(d, Black, false, &[], "ea");
    assert_eq!(v, [Err(IllegalMove::Suicide); 3]);
}

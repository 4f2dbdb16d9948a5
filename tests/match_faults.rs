//! A match goes on when the opponent crashes, answers with an illegal or
//! unreadable move, hangs, or refuses our moves; each fault is recorded in
//! the game record and the summary. The opponent is a small fake GTP
//! engine written as a shell script.
#![cfg(unix)]

mod selfplay_support;

use kosumi::play::{self, Ending, GameConfig, MatchConfig, MatchGame, SearchArgs};
use kosumi::score::GameResult;
use kosumi::Color;
use selfplay_support::{check_counted_result, scratch};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A GTP engine in sh. Modes: `crash` (exits at its second genmove of a
/// game), `illegal` (always answers A1), `bad` (answers I5, no column I),
/// `hang` (does not answer its second genmove for 30 s: ten times the
/// move limit of the test that uses it), `refuse` (rejects every play),
/// `pass` (always passes; with ids echoed and chatter before answers).
const FAKE: &str = r#"#!/bin/sh
mode=$1
n=0
while IFS= read -r line; do
  set -- $line
  id=
  case $1 in [0-9]*) id=$1; shift;; esac
  case $1 in
    genmove|kgs-genmove_cleanup)
      n=$((n+1))
      ans=pass
      case $mode in
        crash) if [ $n -ge 2 ]; then echo "fake: crashing on purpose" >&2; exit 3; fi;;
        illegal) ans=A1;;
        bad) ans=I5;;
        hang) if [ $n -ge 2 ]; then sleep 30; fi;;
        pass) echo "thinking..." ;;
      esac
      printf '=%s %s\n\n' "$id" "$ans";;
    play)
      if [ "$mode" = refuse ]; then printf '?%s illegal move\n\n' "$id"; else printf '=%s\n\n' "$id"; fi;;
    clear_board) n=0; printf '=%s\n\n' "$id";;
    list_commands) printf '=%s boardsize\nclear_board\nkomi\nplay\ngenmove\nquit\n\n' "$id";;
    name) printf '=%s fake\n\n' "$id";;
    version) printf '=%s 1\n\n' "$id";;
    quit) printf '=%s\n\n' "$id"; exit 0;;
    *) printf '=%s\n\n' "$id";;
  esac
done
"#;

/// The fake engine's script, written once: the tests run in parallel, and
/// a test that wiped the folder while another started the engine from it
/// made that one fail.
fn fake_engine() -> PathBuf {
    static SCRIPT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCRIPT
        .get_or_init(|| {
            let p = scratch("match-fake-engine").join("fake-gtp.sh");
            std::fs::write(&p, FAKE).unwrap();
            p
        })
        .clone()
}

fn play(mode: &str, games: usize, timeout: f64) -> (Vec<MatchGame>, play::MatchSummary) {
    let mut game = GameConfig::new(7);
    game.move_timeout = Some(Duration::from_secs_f64(timeout));
    let cfg = MatchConfig {
        game,
        games,
        player: SearchArgs::default(),
        seed: 1,
        opponent: format!("sh {} {mode}", fake_engine().display()),
        referee: None,
        setup_timeout: Duration::from_secs(10),
        sprt: None,
        opponent_clock: None,
        shard: kosumi::shard::Shard::default(),
    };
    let mut played = Vec::new();
    let s = play::run_match(&cfg, &AtomicBool::new(false), &mut |g, _| {
        played.push(g.clone());
        Ok(())
    })
    .unwrap();
    (played, s)
}

/// The opponent's colour in game `g`.
fn opp(g: &MatchGame) -> Color {
    g.kosumi.opponent()
}

fn sgf(g: &MatchGame) -> String {
    play::record_to_sgf(&g.record, "test", "", None, Vec::new())
}

#[test]
fn a_crashing_opponent_loses_by_forfeit_and_the_match_goes_on() {
    let (games, s) = play("crash", 3, 10.0);
    assert_eq!(games.len(), 3);
    for g in &games {
        let Ending::Crash { by, what } = &g.record.ending else {
            panic!("{:?}", g.record.ending)
        };
        assert_eq!(*by, opp(g));
        assert!(what.contains("crashing on purpose"), "{what}");
        assert_eq!(g.record.result, GameResult::Forfeit(g.kosumi));
        let text = sgf(g);
        assert!(
            text.contains(&format!("RE[{}+F]", g.kosumi.letter())),
            "{text}"
        );
        assert!(text.contains("crashed"), "{text}");
    }
    assert_eq!(s.games, 3);
    assert_eq!(s.kosumi.wins, 3);
    assert_eq!(s.endings.get("crash-opponent"), Some(&3));
    assert_eq!(s.as_black.decided() + s.as_white.decided(), 3);
}

#[test]
fn illegal_and_unreadable_moves_lose_by_forfeit() {
    for mode in ["illegal", "bad"] {
        let (games, s) = play(mode, 2, 10.0);
        assert_eq!(games.len(), 2, "{mode}");
        for g in &games {
            let Ending::IllegalMove { by, what } = &g.record.ending else {
                panic!("{mode}: {:?}", g.record.ending)
            };
            assert_eq!(*by, opp(g));
            match mode {
                "illegal" => assert!(what.starts_with("A1 ("), "{what}"),
                _ => assert!(what.contains("I5"), "{what}"),
            }
            assert_eq!(g.record.result, GameResult::Forfeit(g.kosumi));
            assert!(sgf(g).contains("illegal move by"));
        }
        assert_eq!(s.kosumi.wins, 2);
        assert_eq!(s.endings.get("illegal-opponent"), Some(&2));
    }
}

#[test]
fn a_hanging_opponent_loses_on_time() {
    let (games, s) = play("hang", 2, 3.0);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            matches!(g.record.ending, Ending::TimeOut { by, .. } if by == opp(g)),
            "{:?}",
            g.record.ending
        );
        assert_eq!(g.record.result, GameResult::Time(g.kosumi));
        assert!(sgf(g).contains(&format!("RE[{}+T]", g.kosumi.letter())));
    }
    assert_eq!(s.endings.get("timeout-opponent"), Some(&2));
    assert_eq!(s.kosumi.wins, 2);
}

#[test]
fn an_opponent_refusing_legal_moves_makes_the_game_void() {
    let (games, s) = play("refuse", 2, 10.0);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(matches!(g.record.ending, Ending::Refused { .. }));
        assert_eq!(g.record.result, GameResult::Unknown);
        assert!(sgf(g).contains("RE[?]"));
    }
    assert_eq!((s.games, s.void, s.kosumi.decided()), (2, 2, 0));
    assert!(s.text().contains("no decided games"));
}

#[test]
fn a_passing_opponent_is_counted_by_tromp_taylor() {
    let (games, s) = play("pass", 4, 10.0);
    assert_eq!(games.len(), 4);
    // Colours alternate, Kosumi Black first.
    let colours: Vec<Color> = games.iter().map(|g| g.kosumi).collect();
    assert_eq!(
        colours,
        [Color::Black, Color::White, Color::Black, Color::White]
    );
    for g in &games {
        assert!(check_counted_result(&sgf(g)));
        // The random player fills the board while the fake passes.
        assert_eq!(g.record.result.winner(), Some(g.kosumi));
    }
    assert_eq!(s.kosumi.wins, 4);
    assert!(s.moves[1] >= 4, "{:?}", s.moves);
}

/// Our own side's faults are recorded the same way: a player that plays an
/// occupied point, one that panics, one that is too slow.
mod local_faults {
    use kosumi::clock::ManualTime;
    use kosumi::play::{play_game_timed, Ending, GameConfig, LocalContestant};
    use kosumi::player::{Decision, GenmoveRequest, Player, RandomPlayer};
    use kosumi::score::GameResult;
    use kosumi::{Color, Move, Point};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Duration;

    /// A player with a fault; the game's clock is `.1`, a manual one, so
    /// that "slow" means the same on every machine.
    struct Faulty(&'static str, Arc<ManualTime>);

    impl Player for Faulty {
        fn name(&self) -> String {
            self.0.to_string()
        }
        fn genmove(&mut self, _req: &GenmoveRequest<'_>) -> Decision {
            match self.0 {
                "occupied" => Decision::Play(Move::Play(Point::new(0, 0))),
                "slow" => {
                    self.1.advance(0.06);
                    Decision::Play(Move::Pass)
                }
                _ => panic!("faulty player gives up"),
            }
        }
    }

    fn game_with(kind: &'static str, faulty: Color) -> kosumi::play::GameRecord {
        let mut cfg = GameConfig::new(5);
        cfg.move_timeout = Some(Duration::from_millis(30));
        let time = Arc::new(ManualTime::new());
        let mut bad = LocalContestant::new(Box::new(Faulty(kind, time.clone())), kind.into());
        let mut good = LocalContestant::new(Box::new(RandomPlayer::new(1)), "random".into());
        let stop = AtomicBool::new(false);
        match faulty {
            Color::Black => play_game_timed(&cfg, &mut bad, &mut good, None, &stop, &*time),
            Color::White => play_game_timed(&cfg, &mut good, &mut bad, None, &stop, &*time),
        }
    }

    #[test]
    fn either_colour_forfeits_for_an_illegal_move() {
        for c in Color::ALL {
            let r = game_with("occupied", c);
            assert!(
                matches!(&r.ending, Ending::IllegalMove { by, what } if *by == c && what.contains("A5")),
                "{:?}",
                r.ending
            );
            assert_eq!(r.result, GameResult::Forfeit(c.opponent()));
        }
    }

    #[test]
    fn a_panicking_player_is_a_crash() {
        let r = game_with("panic", Color::White);
        assert!(
            matches!(&r.ending, Ending::Crash { by: Color::White, what } if what.contains("gives up")),
            "{:?}",
            r.ending
        );
        assert_eq!(r.result, GameResult::Forfeit(Color::Black));
    }

    #[test]
    fn a_slow_player_loses_on_time() {
        let r = game_with("slow", Color::Black);
        assert!(
            matches!(
                r.ending,
                Ending::TimeOut {
                    by: Color::Black,
                    ..
                }
            ),
            "{:?}",
            r.ending
        );
        assert_eq!(r.result, GameResult::Time(Color::White));
        assert_eq!(r.game.moves().len(), 0);
    }
}

//! A referee's `final_score` is checked against our own count at the two
//! passes: when the two name different winners the game goes on in
//! clean-up mode and is counted as a game without a referee, the dispute
//! noted in the record. The record is a game against Pachi that ended in
//! a seki GNU Go called dead (GNU Go: B+4; by the rules White wins by 24).
//! The referee is a fake GTP engine in sh that answers `final_score` with
//! the text it is given; both players replay the record, then pass.
#![cfg(unix)]

mod selfplay_support;

use kosumi::play::{play_game, Contestant, Ending, Fault, GameConfig, Referee, Reply};
use kosumi::score::GameResult;
use kosumi::{Color, Game, Komi, Move};
use selfplay_support::{replay, scratch};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A referee that answers `final_score` with its first argument (an
/// error when it is `fail`) and everything else with an empty success.
const FAKE_REFEREE: &str = r#"#!/bin/sh
verdict=$1
while IFS= read -r line; do
  set -- $line
  id=
  case $1 in [0-9]*) id=$1; shift;; esac
  case $1 in
    final_score)
      if [ "$verdict" = fail ]; then printf '?%s cannot score\n\n' "$id";
      else printf '=%s %s\n\n' "$id" "$verdict"; fi;;
    name) printf '=%s fake referee\n\n' "$id";;
    quit) printf '=%s\n\n' "$id"; exit 0;;
    *) printf '=%s\n\n' "$id";;
  esac
done
"#;

fn fake_referee() -> PathBuf {
    static SCRIPT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCRIPT
        .get_or_init(|| {
            let p = scratch("match-fake-referee").join("fake-referee.sh");
            std::fs::write(&p, FAKE_REFEREE).unwrap();
            p
        })
        .clone()
}

fn record() -> Game {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/pachi-seki.sgf");
    replay(&std::fs::read_to_string(path).expect("record"))
}

/// Plays the record's moves for its colour, then passes (in clean-up mode
/// too); counts the clean-up moves it was asked for.
struct Replayer {
    moves: Vec<Move>,
    cleanup_asks: u32,
}

impl Contestant for Replayer {
    fn name(&self) -> String {
        "replayer".into()
    }
    fn new_game(&mut self, _: &Game, _: &AtomicBool) -> Result<(), Fault> {
        Ok(())
    }
    fn play(&mut self, _: &Game, _: Color, _: Move, _: &AtomicBool) -> Result<(), Fault> {
        Ok(())
    }
    fn genmove(
        &mut self,
        game: &Game,
        _: Color,
        cleanup: bool,
        _: &AtomicBool,
    ) -> Result<Reply, Fault> {
        if cleanup {
            self.cleanup_asks += 1;
        }
        let n = game.moves().len();
        Ok(Reply::Move(
            self.moves.get(n).copied().unwrap_or(Move::Pass),
        ))
    }
}

/// Plays the record again under a referee that answers `verdict`.
fn refereed(verdict: &str, cleanup: bool) -> (kosumi::play::GameRecord, u32) {
    let rec = record();
    let moves: Vec<Move> = rec.moves().iter().map(|m| m.mv).collect();
    let mut cfg = GameConfig::new(19);
    cfg.komi = Komi::new(7.0).unwrap();
    cfg.cleanup = cleanup;
    let mut black = Replayer {
        moves: moves.clone(),
        cleanup_asks: 0,
    };
    let mut white = Replayer {
        moves,
        cleanup_asks: 0,
    };
    let cmd = format!("sh {} {verdict}", fake_referee().display());
    let mut referee = Referee::start(&cmd, Duration::from_secs(20)).expect("fake referee");
    let stop = AtomicBool::new(false);
    let r = play_game(&cfg, &mut black, &mut white, Some(&mut referee), &stop);
    assert_eq!(r.ending, Ending::TwoPasses, "{}", r.scoring);
    // The record is played whole; a clean-up that changed nothing is
    // taken back.
    assert_eq!(r.game.moves(), rec.moves());
    (r, black.cleanup_asks + white.cleanup_asks)
}

#[test]
fn a_referee_that_calls_a_seki_dead_is_overruled_by_the_clean_up() {
    let (r, asks) = refereed("B+4", true);
    assert_eq!(r.result.winner(), Some(Color::White), "{}", r.scoring);
    assert!(
        r.scoring.contains("referee final_score B+4 disputed"),
        "{}",
        r.scoring
    );
    // Both sides were asked for clean-up moves before the count.
    assert_eq!(asks, 2, "{}", r.scoring);
}

#[test]
fn a_referee_our_count_agrees_with_keeps_its_score() {
    let (r, asks) = refereed("W+23", true);
    assert_eq!(r.result, GameResult::Score(Color::White, 23.0));
    assert_eq!(r.scoring, "referee final_score");
    assert_eq!(asks, 0);
}

#[test]
fn without_clean_up_the_referee_has_the_last_word() {
    let (r, asks) = refereed("B+4", false);
    assert_eq!(r.result, GameResult::Score(Color::Black, 4.0));
    assert_eq!(r.scoring, "referee final_score");
    assert_eq!(asks, 0);
}

#[test]
fn a_referee_that_cannot_score_leaves_our_count() {
    let (r, _) = refereed("fail", true);
    assert_eq!(r.result.winner(), Some(Color::White), "{}", r.scoring);
    assert!(r.scoring.contains("cannot score"), "{}", r.scoring);
}

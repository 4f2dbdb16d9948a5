//! Games with a game clock: the arena sends the time settings and, when
//! asked, `time_left`, keeps both sides' clocks, and a side whose flag
//! falls loses on time. In-process contestants run on a manual clock (no
//! waiting, no wall-clock asserts); one outside fake engine in sh hangs
//! past its clock. The time options' checks are run through the binary.
#![cfg(unix)]

mod selfplay_support;

use kosumi::clock::{ClockState, ManualTime, TimeSettings, TimeSource};
use kosumi::play::{
    self, play_game_timed, Contestant, Ending, Fault, GameConfig, LocalContestant, MatchConfig,
    Reply, SearchArgs,
};
use kosumi::player::{sensible_moves, Decision, GenmoveRequest, Player};
use kosumi::score::GameResult;
use kosumi::{Color, Game, Move};
use selfplay_support::scratch;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a contestant was told.
#[derive(Default)]
struct Told {
    settings: Vec<TimeSettings>,
    time_left: Vec<(Color, ClockState)>,
}

/// Plays the first sensible move (else passes) and takes `per_move`
/// seconds of the manual clock for each.
struct Timed {
    time: Arc<ManualTime>,
    per_move: f64,
    told: Arc<Mutex<Told>>,
}

impl Contestant for Timed {
    fn name(&self) -> String {
        format!("timed {}", self.per_move)
    }
    fn new_game(&mut self, _: &Game, _: &AtomicBool) -> Result<(), Fault> {
        Ok(())
    }
    fn play(&mut self, _: &Game, _: Color, _: Move, _: &AtomicBool) -> Result<(), Fault> {
        Ok(())
    }
    fn genmove(&mut self, game: &Game, c: Color, _: bool, _: &AtomicBool) -> Result<Reply, Fault> {
        self.time.advance(self.per_move);
        Ok(Reply::Move(
            sensible_moves(game, c)
                .first()
                .map_or(Move::Pass, |&p| Move::Play(p)),
        ))
    }
    fn time_settings(&mut self, s: TimeSettings, _: &AtomicBool) -> Result<(), Fault> {
        self.told.lock().unwrap().settings.push(s);
        Ok(())
    }
    fn time_left(&mut self, c: Color, st: ClockState, _: &AtomicBool) -> Result<(), Fault> {
        self.told.lock().unwrap().time_left.push((c, st));
        Ok(())
    }
}

fn timed(time: &Arc<ManualTime>, per_move: f64) -> (Timed, Arc<Mutex<Told>>) {
    let told = Arc::new(Mutex::new(Told::default()));
    (
        Timed {
            time: time.clone(),
            per_move,
            told: told.clone(),
        },
        told,
    )
}

fn config(clock: &str, send_time_left: bool) -> GameConfig {
    let mut cfg = GameConfig::new(7);
    cfg.clock = [clock.parse().unwrap(); 2];
    cfg.send_time_left = send_time_left;
    cfg
}

#[test]
fn the_side_whose_flag_falls_loses_on_time() {
    let time = Arc::new(ManualTime::new());
    let (mut fast, _) = timed(&time, 0.5);
    let (mut slow, _) = timed(&time, 3.0);
    let cfg = config("10", false);
    let stop = AtomicBool::new(false);
    let r = play_game_timed(&cfg, &mut fast, &mut slow, None, &stop, &*time);
    // White's fourth move takes it to 12 s of its 10.
    assert!(
        matches!(&r.ending, Ending::TimeOut { by: Color::White, what } if what.contains("ran out of time")),
        "{:?}",
        r.ending
    );
    assert_eq!(r.result, GameResult::Time(Color::Black));
    assert_eq!(r.genmoves, [4, 4]);
    let [b, w] = r.clock.unwrap();
    assert_eq!((b.moves, w.moves), (4, 4));
    assert!((b.used - 2.0).abs() < 1e-6 && (b.least_slack - 8.0).abs() < 1e-6);
    assert!((w.least_slack + 2.0).abs() < 1e-6, "{w:?}");
    assert!((w.share() - 1.2).abs() < 1e-6);
    let text = play::record_to_sgf(&r, "t", "", None, Vec::new());
    assert!(text.contains("RE[B+T]") && text.contains("Clock: Black used 2.0 s of 10.0 s (20%)"));
}

#[test]
fn byoyomi_periods_are_kept_by_moves_inside_them() {
    let stop = AtomicBool::new(false);
    let time = Arc::new(ManualTime::new());
    let (mut b, _) = timed(&time, 0.9);
    let (mut w, _) = timed(&time, 0.95);
    let r = play_game_timed(&config("0+1x1", false), &mut b, &mut w, None, &stop, &*time);
    assert!(!r.ending.is_fault(), "{:?}", r.ending);
    assert!(r.genmoves[0] > 10, "{:?}", r.genmoves);
    let [ub, uw] = r.clock.unwrap();
    assert!((ub.least_slack - 0.1).abs() < 1e-6 && (ub.share() - 0.9).abs() < 1e-6);
    assert!((uw.least_slack - 0.05).abs() < 1e-6);
    // Over the period: lost at once. With two periods, the first is used
    // up and the second move loses.
    for (clock, moves) in [("0+1x1", 1), ("0+1x2", 2)] {
        let (mut b, _) = timed(&time, 0.5);
        let (mut w, _) = timed(&time, 1.6);
        let r = play_game_timed(&config(clock, false), &mut b, &mut w, None, &stop, &*time);
        assert!(
            matches!(
                r.ending,
                Ending::TimeOut {
                    by: Color::White,
                    ..
                }
            ),
            "{clock}: {:?}",
            r.ending
        );
        assert_eq!(r.genmoves[1], moves, "{clock}");
    }
}

#[test]
fn canadian_stones_count_down_per_period() {
    let stop = AtomicBool::new(false);
    let time = Arc::new(ManualTime::new());
    // 5 stones in 10 s: 1.9 s a move keeps up, 2.1 s does not.
    let (mut b, _) = timed(&time, 1.9);
    let (mut w, _) = timed(&time, 2.1);
    let r = play_game_timed(
        &config("0+10/5", false),
        &mut b,
        &mut w,
        None,
        &stop,
        &*time,
    );
    assert!(
        matches!(
            r.ending,
            Ending::TimeOut {
                by: Color::White,
                ..
            }
        ),
        "{:?}",
        r.ending
    );
    assert_eq!(r.genmoves, [5, 5]);
}

#[test]
fn time_settings_and_time_left_are_sent_as_asked() {
    let stop = AtomicBool::new(false);
    let time = Arc::new(ManualTime::new());
    for send in [false, true] {
        let (mut b, told_b) = timed(&time, 1.0);
        let (mut w, told_w) = timed(&time, 0.25);
        let mut cfg = config("30", send);
        cfg.max_moves = 10;
        let r = play_game_timed(&cfg, &mut b, &mut w, None, &stop, &*time);
        assert_eq!(r.ending, Ending::MoveCap);
        for told in [&told_b, &told_w] {
            assert_eq!(told.lock().unwrap().settings, [cfg.clock[0]]);
        }
        let left = &told_b.lock().unwrap().time_left;
        if !send {
            assert!(left.is_empty());
            continue;
        }
        let seconds: Vec<f64> = left.iter().map(|(_, st)| st.seconds).collect();
        assert_eq!(seconds, [30.0, 29.0, 28.0, 27.0, 26.0]);
        assert!(left
            .iter()
            .all(|(c, st)| *c == Color::Black && st.count == 0));
        assert_eq!(told_w.lock().unwrap().time_left[4].1.seconds, 29.0);
    }
}

/// A player that takes `per_move` seconds of the manual clock a move and
/// notes the clock it was given.
struct Noting {
    time: Arc<ManualTime>,
    per_move: f64,
    seen: Arc<Mutex<Vec<ClockState>>>,
}

impl Player for Noting {
    fn name(&self) -> String {
        "noting".into()
    }
    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        self.seen.lock().unwrap().push(req.clock.of(req.color));
        self.time.advance(self.per_move);
        let m = sensible_moves(req.game, req.color);
        Decision::Play(m.first().map_or(Move::Pass, |&p| Move::Play(p)))
    }
}

/// Four moves of a `Noting` player (Black, `per_move` seconds each, 0.5 s
/// of lag) on a 60 s clock against a 1 s-a-move opponent, with or without
/// `time_left`: the clock it was given before each move, and its own
/// clock after the last.
fn noting_game(per_move: f64, send: bool) -> (Vec<f64>, f64) {
    let stop = AtomicBool::new(false);
    let time = Arc::new(ManualTime::new());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let player = Noting {
        time: time.clone(),
        per_move,
        seen: seen.clone(),
    };
    let src: Arc<dyn TimeSource> = time.clone();
    let mut me = LocalContestant::new(Box::new(player), "noting".into()).with_clock(0.5, src);
    let (mut opp, _) = timed(&time, 1.0);
    let mut cfg = config("60", send);
    cfg.max_moves = 8;
    cfg.cleanup = false;
    play_game_timed(&cfg, &mut me, &mut opp, None, &stop, &*time);
    let seconds: Vec<f64> = seen.lock().unwrap().iter().map(|s| s.seconds).collect();
    (seconds, me.clock().of(Color::Black).seconds)
}

#[test]
fn our_player_keeps_its_own_clock_and_takes_time_left() {
    for send in [false, true] {
        let (seconds, own) = noting_game(2.0, send);
        if send {
            // The referee's clock: 2 s a move.
            assert_eq!(seconds, [60.0, 58.0, 56.0, 54.0]);
        } else {
            // Its own: 2 s plus 0.5 s of lag a move.
            assert_eq!(seconds, [60.0, 57.5, 55.0, 52.5]);
        }
        assert_eq!(own, seconds[3] - 2.5);
    }
}

#[test]
fn our_player_is_told_whole_seconds_as_an_engine_over_gtp() {
    // 2.25 s a move: the referee's clock reads 57.75, 55.5 and 53.25;
    // `time_left` over GTP says 57, 55 and 53, and so must the in-process
    // side's, or it thinks on the fraction its opponent never sees.
    let (seconds, own) = noting_game(2.25, true);
    assert_eq!(seconds, [60.0, 57.0, 55.0, 53.0]);
    // Its own clock after the last move: the whole seconds it was told,
    // less the move and the lag.
    assert_eq!(own, 53.0 - 2.75);
}

/// A GTP engine in sh that answers `pass` at once, except that its second
/// genmove of a game never comes (it sleeps 30 s).
const HANGS: &str = r#"#!/bin/sh
n=0
while IFS= read -r line; do
  set -- $line
  id=
  case $1 in [0-9]*) id=$1; shift;; esac
  case $1 in
    genmove)
      n=$((n+1))
      if [ $n -ge 2 ]; then sleep 30; fi
      printf '=%s pass\n\n' "$id";;
    clear_board) n=0; printf '=%s\n\n' "$id";;
    list_commands) printf '=%s boardsize\nclear_board\nkomi\nplay\ngenmove\ntime_settings\ntime_left\nquit\n\n' "$id";;
    name) printf '=%s hangs\n\n' "$id";;
    quit) printf '=%s\n\n' "$id"; exit 0;;
    *) printf '=%s\n\n' "$id";;
  esac
done
"#;

#[test]
fn an_outside_engine_past_its_flag_loses_on_time_and_is_killed() {
    let dir = scratch("match-clock-hangs");
    let script = dir.join("hangs.sh");
    std::fs::write(&script, HANGS).unwrap();
    let mut game = GameConfig::new(5);
    // The move time-out alone would wait a minute; the clock kills the
    // engine at its flag plus the grace.
    game.move_timeout = Some(Duration::from_secs(60));
    game.clock = ["0.2".parse().unwrap(); 2];
    game.send_time_left = true;
    let cfg = MatchConfig {
        game,
        games: 1,
        player: SearchArgs::default(),
        seed: 1,
        opponent: format!("sh {}", script.display()),
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
    let g = &played[0];
    assert!(
        matches!(
            g.record.ending,
            Ending::TimeOut {
                by: Color::White,
                ..
            }
        ),
        "{:?}",
        g.record.ending
    );
    assert_eq!(g.record.result, GameResult::Time(Color::Black));
    assert_eq!(s.endings.get("timeout-opponent"), Some(&1));
    let c = s.clock.as_ref().unwrap();
    assert_eq!(c.games, 1);
    assert!(c.least_slack[1] < 0.0);
    assert!(s.text().contains("clock 0.2 (1 games)"), "{}", s.text());
    assert!(s.json().contains("\"clock\":{\"settings\":\"0.2\""));
}

fn kosumi(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn absurd_time_options_are_refused_with_status_2() {
    for (args, says) in [
        (&["--time", "1e300"][..], "--time 1e300 is out of range"),
        (&["gtp", "--time", "NaN"][..], "--time NaN is out of range"),
        (
            &["--max-move-time", "0"][..],
            "--max-move-time 0 is out of range",
        ),
        (&["--lag", "-1"][..], "--lag -1 is out of range"),
        (
            &["match", "--opponent", "x", "--time", "1e9"][..],
            "one day",
        ),
        (
            &["match", "--opponent", "x", "--clock", "1e9"][..],
            "invalid clock",
        ),
        (
            &["match", "--opponent", "x", "--clock", "10+5"][..],
            "MAIN+PERIODxPERIODS",
        ),
        (
            &["match", "--opponent", "x", "--time-left", "maybe"][..],
            "expected yes or no",
        ),
    ] {
        let (code, err) = kosumi(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn an_unclocked_side_is_never_told_nor_flagged() {
    let stop = AtomicBool::new(false);
    let time = Arc::new(ManualTime::new());
    let (mut b, told_b) = timed(&time, 0.5);
    let (mut w, told_w) = timed(&time, 30.0);
    let mut cfg = config("0+1x1", true);
    cfg.clock[1] = TimeSettings::Unlimited;
    cfg.max_moves = 20;
    let r = play_game_timed(&cfg, &mut b, &mut w, None, &stop, &*time);
    assert_eq!(r.ending, Ending::MoveCap);
    assert_eq!(told_b.lock().unwrap().time_left.len(), 10);
    let w = told_w.lock().unwrap();
    assert!(w.settings.is_empty() && w.time_left.is_empty());
    let [ub, uw] = r.clock.unwrap();
    assert_eq!((ub.moves, uw.moves), (10, 0));
}

//! The engine's own clock, on a manual clock: `time_settings` sets it, each
//! move-generating command charges the colour it moved for with the time
//! it took plus the lag, `time_left` corrects it, `clear_board` restarts
//! it. A player that always thinks its budget's maximum (the search's
//! worst case) plays whole games without `time_left` inside the clock.

use kosumi::clock::{ClockState, ManualTime, TimeSettings};
use kosumi::gtp::{Config, Engine};
use kosumi::mcts::time::budget;
use kosumi::mcts::SearchConfig;
use kosumi::player::{sensible_moves, Decision, GenmoveRequest, Player};
use kosumi::point::Move;
use kosumi::Color;
use std::sync::{Arc, Mutex};

const LAG: f64 = 0.05;

/// What the player saw: the clock of the colour to move, and the think it
/// took.
type Seen = Arc<Mutex<Vec<(Color, ClockState, f64)>>>;

/// Thinks exactly its budget's maximum (plus 5 ms) on the manual clock and
/// plays the first sensible move, else passes.
struct Budgeted {
    time: Arc<ManualTime>,
    cfg: SearchConfig,
    seen: Seen,
}

impl Player for Budgeted {
    fn name(&self) -> String {
        "budgeted".into()
    }
    fn lag(&self) -> f64 {
        self.cfg.lag_margin
    }
    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        let g = req.game;
        let b = budget(
            req.clock,
            req.color,
            g.size(),
            g.board().empty_count(),
            &self.cfg,
        );
        let took = b.map_or(self.cfg.default_time, |b| b.max) + 0.005;
        self.time.advance(took);
        self.seen
            .lock()
            .unwrap()
            .push((req.color, req.clock.of(req.color), took));
        let m = sensible_moves(g, req.color);
        Decision::Play(m.first().map_or(Move::Pass, |&p| Move::Play(p)))
    }
}

fn engine(size: usize) -> (Engine, Seen) {
    let time = Arc::new(ManualTime::new());
    let seen: Seen = Arc::default();
    let cfg = SearchConfig {
        lag_margin: LAG,
        ..SearchConfig::default()
    };
    let p = Budgeted {
        time: time.clone(),
        cfg,
        seen: seen.clone(),
    };
    let config = Config {
        size,
        ..Config::default()
    };
    let mut e = Engine::new(config, Box::new(p));
    e.set_time_source(time);
    (e, seen)
}

fn ok(e: &mut Engine, line: &str) -> String {
    let r = e.execute(line.as_bytes()).expect("a response");
    assert!(r.starts_with("= "), "{line}: {r}");
    r[2..r.len() - 2].to_string()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn whole_games_without_time_left_stay_inside_the_clock() {
    for (size, main, moves) in [(9, 20.0, 40), (9, 10.0, 40), (19, 60.0, 180)] {
        let (mut e, seen) = engine(size);
        ok(&mut e, &format!("time_settings {main} 0 0"));
        for _ in 0..moves {
            ok(&mut e, "genmove b");
            ok(&mut e, "genmove w");
        }
        let seen = seen.lock().unwrap();
        let used: f64 = seen
            .iter()
            .filter(|s| s.0 == Color::Black)
            .map(|s| s.2)
            .sum();
        let left = e.clock().of(Color::Black).seconds;
        // The own clock holds the real time used plus the lag.
        // (The manual clock counts whole microseconds.)
        assert!(
            (left - (main - used - LAG * moves as f64)).abs() < 1e-3,
            "{size}: {left} {used}"
        );
        assert!(left > 0.0, "{size}x{size} {main} s: {left}");
        assert!(used > 0.6 * main, "{size}x{size} {main} s: used {used}");
    }
}

#[test]
fn time_left_corrects_the_own_clock_and_clear_board_restarts_it() {
    let (mut e, seen) = engine(9);
    ok(&mut e, "time_settings 60 0 0");
    ok(&mut e, "genmove b");
    ok(&mut e, "genmove b");
    // Not a move of the game: not charged.
    ok(&mut e, "reg_genmove b");
    ok(&mut e, "time_left b 50 0");
    ok(&mut e, "genmove b");
    let s = seen.lock().unwrap().clone();
    assert_eq!(s[0].1.seconds, 60.0);
    assert!(close(s[1].1.seconds, 60.0 - s[0].2 - LAG));
    assert!(close(s[2].1.seconds, 60.0 - s[0].2 - s[1].2 - 2.0 * LAG));
    assert_eq!(s[3].1.seconds, 50.0);
    assert!(close(
        e.clock().of(Color::Black).seconds,
        50.0 - s[3].2 - LAG
    ));
    assert_eq!(e.clock().of(Color::White).seconds, 60.0);
    ok(&mut e, "clear_board");
    assert_eq!(e.clock().of(Color::Black).seconds, 60.0);
}

#[test]
fn byoyomi_periods_are_kept_and_canadian_stones_counted() {
    let (mut e, seen) = engine(9);
    ok(&mut e, "kgs-time_settings byoyomi 0 1 1");
    for _ in 0..30 {
        ok(&mut e, "genmove w");
        assert_eq!(
            e.clock().of(Color::White),
            ClockState {
                seconds: 1.0,
                count: 1
            }
        );
    }
    // Most of the period each move.
    assert!(seen.lock().unwrap().iter().all(|s| s.2 > 0.8));
    ok(&mut e, "kgs-time_settings canadian 0 10 5");
    ok(&mut e, "genmove w");
    ok(&mut e, "genmove w");
    let st = e.clock().of(Color::White);
    assert_eq!(st.count, 3);
    assert!(st.seconds > 5.0 && st.seconds < 7.0, "{st:?}");
}

#[test]
fn huge_clocks_are_no_clock_or_capped() {
    let (mut e, seen) = engine(19);
    ok(&mut e, "time_settings 99999999999 0 0");
    assert!(e.clock().is_unlimited());
    ok(&mut e, "kgs-time_settings absolute 99999999999");
    assert!(e.clock().is_unlimited());
    ok(&mut e, "genmove b");
    // No clock: the default time per move.
    assert!(close(seen.lock().unwrap()[0].2, 1.005));
    ok(&mut e, "time_settings 36000 0 0");
    assert_eq!(
        e.clock().settings,
        TimeSettings::Limited {
            main: 36000.0,
            overtime: kosumi::clock::Overtime::None
        }
    );
    ok(&mut e, "genmove w");
    // Capped at the default --max-move-time of a minute.
    assert!(close(seen.lock().unwrap()[1].2, 60.005));
}

//! Time control: how long to think about one move, as a pure function of
//! the clock state (no wall clock here, so it is tested with fake clocks).
//!
//! The clock is the controller's (`time_left`) or the engine's own (see
//! [`crate::clock::Clock::charge`]); either way every move costs its think,
//! a little process overhead, and `lag_margin` seconds of lag.
//!
//! - **Sudden death** (main time, and main time before overtime): the own
//!   moves still expected are `moves_left_per_empty` per empty point above
//!   the `end_empty_fraction` of the board expected empty at the end, at
//!   least `min_moves_left` (on 19x19, scaled by area). With no overtime a
//!   reserve is kept back: `safety_fraction` of the time left, the lag of
//!   every expected move, and the lag and emergency think of a tail of
//!   `tail_moves_per_point` moves per point beyond them (a game may run
//!   long). The rest is the pool; a move's target is the pool over the
//!   moves expected (times `middle_game_factor` while 10% to 50% of the
//!   board is filled), its maximum `unclear_factor` times that, at most
//!   `max_main_fraction` of the pool. The floor is `min_think`, or less
//!   (down to `emergency_think`) when the pool cannot pay it for every
//!   move left.
//! - **Byo-yomi**: in overtime, the period less a margin, every move:
//!   the margin is `overtime_margin_fraction` of the period, at most
//!   `overtime_margin_cap`, at least the lag plus `overtime_margin_min`
//!   (1 s periods: 0.8 s a move; 10 s: 8.5 s; 60 s: 58 s). In main time at
//!   least 80% of that, and a move may run into the first period.
//! - **Canadian**: in overtime, the period's time left less the margin and
//!   the lag of the other stones, over the stones to play (up to 1.5 times
//!   that while more than one is left). In main time at least 80% of a
//!   fresh period's pace.
//!
//! Every budget from the clock is capped by `max_move_time` and by the
//! time to the flag less the lag; `time_per_move` (`--time`), when set,
//! caps it too, and is the budget on its own without a clock (an explicit
//! `--time` above `max_move_time` is obeyed). Without a limit (no
//! clock, or a "no limit" clock, see [`crate::clock`]) there is no budget
//! and the search thinks `default_time` per move.
//!
//! The budget has a target (stop there when the best move is clear) and a
//! maximum (think on to there while the best move is unclear).

use super::SearchConfig;
use crate::clock::{Clock, Overtime, TimeSettings};
use crate::color::Color;

/// How long to think about one move, in seconds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeBudget {
    /// Stop here when the best move is clear.
    pub target: f64,
    /// Never think longer than this.
    pub max: f64,
}

impl TimeBudget {
    fn new(target: f64, max: f64, floor: f64) -> TimeBudget {
        let target = target.max(floor);
        TimeBudget {
            target,
            max: max.max(target),
        }
    }

    fn capped(self, cap: f64) -> TimeBudget {
        TimeBudget {
            target: self.target.min(cap),
            max: self.max.min(cap),
        }
    }
}

/// The own moves still expected with `empty` empty points on a `size`
/// board.
pub fn moves_left(size: usize, empty: usize, cfg: &SearchConfig) -> f64 {
    let area = (size * size) as f64;
    let floor = cfg.min_moves_left * area / 361.0;
    (cfg.moves_left_per_empty * (empty as f64 - cfg.end_empty_fraction * area))
        .max(floor)
        .max(1.0)
}

/// Spends more in the middle game: a factor by the fraction of the board
/// that is filled.
fn phase_factor(size: usize, empty: usize, cfg: &SearchConfig) -> f64 {
    let filled = 1.0 - empty as f64 / (size * size) as f64;
    if (0.1..0.5).contains(&filled) {
        cfg.middle_game_factor
    } else {
        1.0
    }
}

/// The margin kept back from `seconds` of overtime.
fn overtime_margin(seconds: f64, cfg: &SearchConfig) -> f64 {
    (cfg.overtime_margin_fraction * seconds)
        .min(cfg.overtime_margin_cap)
        .max(cfg.lag_margin + cfg.overtime_margin_min)
}

/// A byo-yomi move's think with `seconds` left in a `period`.
fn byoyomi_think(seconds: f64, period: f64, cfg: &SearchConfig) -> f64 {
    (seconds.min(period) - overtime_margin(period, cfg)).max(0.0)
}

/// Canadian overtime: the target and maximum for one of `stones` stones
/// with `seconds` left in the period.
fn canadian_think(seconds: f64, stones: u32, cfg: &SearchConfig) -> (f64, f64) {
    let k = stones.max(1) as f64;
    let pool = (seconds - overtime_margin(seconds, cfg) - (k - 1.0) * cfg.lag_margin).max(0.0);
    let t = pool / k;
    let m = if stones > 1 { (t * 1.5).min(pool) } else { t };
    (t, m)
}

/// Main time: the target, the maximum and the floor for one move with
/// `seconds` left; `reserve` says whether to keep the sudden-death reserve
/// (no overtime follows).
fn main_think(
    seconds: f64,
    size: usize,
    empty: usize,
    reserve: bool,
    cfg: &SearchConfig,
) -> (f64, f64, f64) {
    let e = moves_left(size, empty, cfg);
    let n = if reserve {
        e + cfg.tail_moves_per_point * (size * size) as f64
    } else {
        e
    };
    let pool = (seconds * (1.0 - cfg.safety_fraction) - n * cfg.lag_margin).max(0.0);
    let t = pool / e * phase_factor(size, empty, cfg);
    let m = (t * cfg.unclear_factor).min(pool * cfg.max_main_fraction);
    let floor = cfg.min_think.min(pool / n).max(cfg.emergency_think);
    (t, m, floor)
}

/// The thinking budget for `color`'s next move, or `None` when neither the
/// clock nor `cfg.time_per_move` limits it. `empty` is the number of empty
/// points on the `size` board.
pub fn budget(
    clock: &Clock,
    color: Color,
    size: usize,
    empty: usize,
    cfg: &SearchConfig,
) -> Option<TimeBudget> {
    let from_clock = clock_budget(clock, color, size, empty, cfg)
        .map(|b| b.capped(cfg.max_move_time.max(cfg.emergency_think)));
    let per_move = cfg
        .time_per_move
        .map(|t| TimeBudget::new(t, t, cfg.min_think));
    match (from_clock, per_move) {
        (Some(a), Some(b)) => Some(TimeBudget::new(
            a.target.min(b.target),
            a.max.min(b.max),
            cfg.emergency_think,
        )),
        (a, b) => a.or(b),
    }
}

fn clock_budget(
    clock: &Clock,
    color: Color,
    size: usize,
    empty: usize,
    cfg: &SearchConfig,
) -> Option<TimeBudget> {
    let TimeSettings::Limited { overtime, .. } = clock.settings else {
        return None;
    };
    let st = clock.of(color);
    let s = st.seconds.max(0.0);
    let b = match overtime {
        Overtime::None => {
            let (t, m, floor) = main_think(s, size, empty, true, cfg);
            TimeBudget::new(t, m, floor)
        }
        Overtime::Canadian { period, stones } => {
            if st.count > 0 {
                let (t, m) = canadian_think(s, st.count, cfg);
                TimeBudget::new(t, m, cfg.emergency_think)
            } else {
                // Main time, with the overtime pace as a floor; the move
                // that overruns main time is the period's first stone.
                let (t, m, floor) = main_think(s, size, empty, false, cfg);
                let (pace, _) = canadian_think(period, stones, cfg);
                let cap = s + pace;
                TimeBudget::new(t.max(pace * 0.8), m.max(pace), floor).capped(cap)
            }
        }
        Overtime::Byoyomi { period, .. } => {
            let per = byoyomi_think(period, period, cfg);
            if st.count > 0 {
                // In byo-yomi: most of the period, which is kept.
                let u = byoyomi_think(s, period, cfg);
                TimeBudget::new(u, u, cfg.emergency_think)
            } else {
                // Main time; running into the first period is safe.
                let (t, m, floor) = main_think(s, size, empty, false, cfg);
                let cap = s + per;
                TimeBudget::new(t.max(per * 0.8), m.max(per), floor).capped(cap)
            }
        }
    };
    // Never past the flag.
    let hard = (clock.time_to_flag(color) - cfg.lag_margin - 0.02).max(cfg.emergency_think);
    Some(b.capped(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(settings: TimeSettings, seconds: f64, count: u32) -> Clock {
        let mut c = Clock::new(settings);
        c.set_time_left(Color::Black, seconds, count);
        c
    }

    #[test]
    fn unlimited_clock_has_no_budget_unless_per_move_time() {
        let cfg = SearchConfig::default();
        assert_eq!(budget(&Clock::default(), Color::Black, 9, 81, &cfg), None);
        let cfg = SearchConfig {
            time_per_move: Some(2.0),
            ..SearchConfig::default()
        };
        let b = budget(&Clock::default(), Color::Black, 9, 81, &cfg).unwrap();
        assert_eq!((b.target, b.max), (2.0, 2.0));
    }

    #[test]
    fn absolute_time_is_spread_and_never_exceeded() {
        let cfg = SearchConfig::default();
        let abs = TimeSettings::Limited {
            main: 600.0,
            overtime: Overtime::None,
        };
        let b = budget(&clock(abs, 600.0, 0), Color::Black, 19, 361, &cfg).unwrap();
        assert!(b.target > 1.0 && b.target < 10.0, "{b:?}");
        assert!(b.max >= b.target && b.max <= 600.0 * cfg.max_main_fraction);
        // Middle game thinks longer than the opening with the same clock.
        let mid = budget(&clock(abs, 600.0, 0), Color::Black, 19, 250, &cfg).unwrap();
        assert!(mid.target > b.target);
        // Nearly out of time: tiny budget, below the time left.
        let low = budget(&clock(abs, 2.0, 0), Color::Black, 19, 200, &cfg).unwrap();
        assert!(low.max < 2.0 - cfg.lag_margin, "{low:?}");
        let none = budget(&clock(abs, 0.1, 0), Color::Black, 19, 200, &cfg).unwrap();
        assert_eq!(none.max, cfg.emergency_think);
    }

    #[test]
    fn byoyomi_uses_most_of_a_period_but_not_more() {
        let cfg = SearchConfig::default();
        let by = TimeSettings::Limited {
            main: 0.0,
            overtime: Overtime::Byoyomi {
                period: 10.0,
                periods: 3,
            },
        };
        let b = budget(&clock(by, 10.0, 3), Color::Black, 19, 200, &cfg).unwrap();
        assert!(b.max < 10.0 - cfg.lag_margin + 1e-9, "{b:?}");
        assert!(b.target > 8.0, "{b:?}");
        // The controller reports less left in the period: the budget follows.
        let b2 = budget(&clock(by, 4.0, 1), Color::Black, 19, 200, &cfg).unwrap();
        assert!(b2.max < 4.0 - cfg.lag_margin + 1e-9);
    }

    #[test]
    fn canadian_overtime_divides_by_stones() {
        let cfg = SearchConfig::default();
        let ca = TimeSettings::Limited {
            main: 0.0,
            overtime: Overtime::Canadian {
                period: 300.0,
                stones: 25,
            },
        };
        let b = budget(&clock(ca, 300.0, 25), Color::Black, 19, 200, &cfg).unwrap();
        assert!(b.target > 9.0 && b.target < 12.0, "{b:?}");
        // One stone left with 5 seconds: at most the usable 5 seconds.
        let last = budget(&clock(ca, 5.0, 1), Color::Black, 19, 200, &cfg).unwrap();
        assert!(last.max <= 5.0 - cfg.lag_margin);
        // The sum over the period's stones stays inside the period.
        let mut left = 300.0;
        for stones in (1..=25).rev() {
            let b = budget(&clock(ca, left, stones), Color::Black, 19, 200, &cfg).unwrap();
            left -= b.max + cfg.lag_margin;
        }
        assert!(left > 0.0, "{left}");
    }

    #[test]
    fn per_move_limit_caps_the_clock() {
        let cfg = SearchConfig {
            time_per_move: Some(1.0),
            ..SearchConfig::default()
        };
        let abs = TimeSettings::Limited {
            main: 3600.0,
            overtime: Overtime::None,
        };
        let b = budget(&clock(abs, 3600.0, 0), Color::Black, 19, 361, &cfg).unwrap();
        assert_eq!(b.max, 1.0);
    }

    /// Plays `own_moves` moves on our own clock (no `time_left`): each
    /// move takes the budget's maximum plus 5 ms of overhead, and the
    /// clock is charged that plus the lag. Returns the least slack and
    /// the seconds actually spent.
    fn own_clock_game(
        settings: TimeSettings,
        size: usize,
        own_moves: usize,
        cfg: &SearchConfig,
    ) -> (f64, f64) {
        let mut c = Clock::new(settings);
        let area = size * size;
        let (mut least, mut spent) = (f64::INFINITY, 0.0);
        for i in 0..own_moves {
            let empty = area.saturating_sub(2 * i).max(area / 5);
            let b = budget(&c, Color::White, size, empty, cfg).unwrap();
            let took = b.max + 0.005;
            spent += took;
            least = least.min(c.charge(Color::White, took + cfg.lag_margin));
        }
        (least, spent)
    }

    #[test]
    fn whole_sudden_death_games_on_the_own_clock_never_flag() {
        let cfg = SearchConfig::default();
        for (size, main) in [(9, 20.0), (9, 10.0), (19, 60.0), (13, 120.0), (19, 1800.0)] {
            let area = size * size;
            let abs = TimeSettings::Limited {
                main,
                overtime: Overtime::None,
            };
            // Games from short to long (half the board's points each).
            for own_moves in [area * 3 / 10, area * 4 / 10, area / 2] {
                let (least, spent) = own_clock_game(abs, size, own_moves, &cfg);
                assert!(
                    least > 0.0,
                    "{size}x{size} {main} s, {own_moves} moves: {least}"
                );
                // A game of usual length spends most of the clock.
                if own_moves == area * 4 / 10 {
                    assert!(spent > 0.7 * main, "{size}x{size} {main} s: {spent}");
                }
            }
        }
    }

    #[test]
    fn byoyomi_games_keep_every_period_and_use_most_of_it() {
        let cfg = SearchConfig::default();
        for (main, period) in [(0.0, 1.0), (0.0, 10.0), (5.0, 1.0), (60.0, 30.0)] {
            let by = TimeSettings::Limited {
                main,
                overtime: Overtime::Byoyomi { period, periods: 1 },
            };
            let mut c = Clock::new(by);
            for i in 0..100 {
                let b = budget(&c, Color::Black, 9, 81 - (i % 60), &cfg).unwrap();
                if c.in_overtime(Color::Black) {
                    assert!(b.target >= 0.8 * period - 1e-9, "{b:?}");
                }
                let slack = c.charge(Color::Black, b.max + 0.005 + cfg.lag_margin);
                assert!(slack > 0.0, "{main}+{period}: move {i}");
            }
            assert_eq!(c.of(Color::Black).count, 1);
        }
    }

    #[test]
    fn canadian_games_never_flag() {
        let cfg = SearchConfig::default();
        let ca = TimeSettings::Limited {
            main: 10.0,
            overtime: Overtime::Canadian {
                period: 30.0,
                stones: 10,
            },
        };
        let mut c = Clock::new(ca);
        let mut overtime_spent = 0.0;
        for i in 0..200 {
            let b = budget(&c, Color::Black, 19, 361 - i, &cfg).unwrap();
            if c.in_overtime(Color::Black) {
                overtime_spent += b.max;
            }
            assert!(c.charge(Color::Black, b.max + 0.005 + cfg.lag_margin) > 0.0);
        }
        // Most of every period is used: about 190 moves in overtime, 19
        // periods of 30 s.
        assert!(overtime_spent > 0.8 * 19.0 * 30.0, "{overtime_spent}");
    }

    #[test]
    fn huge_clocks_are_capped_or_no_clock() {
        let cfg = SearchConfig::default();
        let ten_hours = clock(TimeSettings::from_gtp(36_000.0, 0.0, 0), 36_000.0, 0);
        let b = budget(&ten_hours, Color::Black, 19, 300, &cfg).unwrap();
        assert_eq!(b.max, 60.0);
        let cfg2 = SearchConfig {
            max_move_time: 5.0,
            ..SearchConfig::default()
        };
        let b = budget(&ten_hours, Color::Black, 19, 300, &cfg2).unwrap();
        assert_eq!((b.target, b.max), (5.0, 5.0));
        // An explicit time per move above the cap is obeyed without a
        // clock, and capped with one.
        let cfg3 = SearchConfig {
            time_per_move: Some(120.0),
            ..SearchConfig::default()
        };
        let b = budget(&Clock::default(), Color::Black, 19, 300, &cfg3).unwrap();
        assert_eq!(b.max, 120.0);
        let b = budget(&ten_hours, Color::Black, 19, 300, &cfg3).unwrap();
        assert_eq!(b.max, 60.0);
        // "No limit" clocks: no budget, the default time per move.
        let endless = Clock::new(TimeSettings::from_gtp(99_999_999_999.0, 0.0, 0));
        assert!(endless.is_unlimited());
        assert_eq!(budget(&endless, Color::Black, 19, 361, &cfg), None);
        // A huge time_left under a real clock is capped too.
        let abs = TimeSettings::from_gtp(600.0, 0.0, 0);
        let b = budget(&clock(abs, 1e12, 0), Color::Black, 19, 361, &cfg).unwrap();
        assert_eq!(b.max, 60.0);
    }

    #[test]
    fn time_left_corrects_the_own_clock() {
        let cfg = SearchConfig::default();
        let abs = TimeSettings::from_gtp(60.0, 0.0, 0);
        let mut c = Clock::new(abs);
        c.charge(Color::Black, 50.0);
        let low = budget(&c, Color::Black, 9, 60, &cfg).unwrap();
        c.set_time_left(Color::Black, 40.0, 0);
        let high = budget(&c, Color::Black, 9, 60, &cfg).unwrap();
        assert!(high.target > 3.0 * low.target, "{low:?} {high:?}");
    }
}

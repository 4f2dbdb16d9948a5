//! Time control: how long to think about one move, as a pure function of
//! the clock state (no wall clock here, so it is tested with fake clocks).
//!
//! Main time is spread over the moves we still expect to play, estimated
//! from the empty points (`empty * moves_left_per_empty`, at least
//! `min_moves_left`), spending a little more in the middle game. Byo-yomi
//! uses nearly a whole period per move once main time is gone; Canadian
//! overtime divides the period's time by the stones still to play. Every
//! figure first takes off a safety margin for network and process lag
//! (`lag_margin` seconds plus `safety_fraction` of what is left), and the
//! result is never below `min_think`.
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
    fn new(target: f64, max: f64, min_think: f64) -> TimeBudget {
        let target = target.max(min_think);
        TimeBudget {
            target,
            max: max.max(target),
        }
    }
}

/// The moves `color` still expects to play with `empty` empty points on a
/// `size` board.
fn moves_left(size: usize, empty: usize, cfg: &SearchConfig) -> f64 {
    let floor = cfg.min_moves_left * (size * size) as f64 / 361.0;
    (empty as f64 * cfg.moves_left_per_empty)
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

/// Seconds usable out of `seconds` after the safety margin.
fn usable(seconds: f64, cfg: &SearchConfig) -> f64 {
    (seconds - cfg.lag_margin - cfg.safety_fraction * seconds).max(0.0)
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
    let from_clock = clock_budget(clock, color, size, empty, cfg);
    let per_move = cfg
        .time_per_move
        .map(|t| TimeBudget::new(t, t, cfg.min_think));
    match (from_clock, per_move) {
        (Some(a), Some(b)) => Some(TimeBudget::new(
            a.target.min(b.target),
            a.max.min(b.max),
            cfg.min_think,
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
    let left = moves_left(size, empty, cfg);
    let phase = phase_factor(size, empty, cfg);
    let main_share = |seconds: f64| {
        let u = usable(seconds, cfg);
        let t = u / left * phase;
        (t, (t * cfg.unclear_factor).min(u * cfg.max_main_fraction))
    };
    let b = match overtime {
        Overtime::None => {
            let (t, m) = main_share(st.seconds);
            TimeBudget::new(t, m, cfg.min_think)
        }
        Overtime::Canadian { period, stones } => {
            if st.count > 0 {
                // In overtime: share this period's time among its stones.
                let u = usable(st.seconds, cfg);
                let t = u / st.count as f64;
                let m = if st.count > 1 { t * 1.5 } else { t };
                TimeBudget::new(t, m.min(u), cfg.min_think)
            } else {
                // Main time, with the overtime pace as a floor.
                let (t, m) = main_share(st.seconds);
                let pace = usable(period, cfg) / stones.max(1) as f64;
                let cap = usable(st.seconds, cfg) + pace;
                TimeBudget::new(
                    t.max(pace * 0.8).min(cap),
                    m.max(pace).min(cap),
                    cfg.min_think,
                )
            }
        }
        Overtime::Byoyomi { period, .. } => {
            let per = usable(period, cfg);
            if st.count > 0 {
                // In byo-yomi: most of the period, which is kept.
                let u = usable(st.seconds.min(period), cfg);
                TimeBudget::new(u, u, cfg.min_think)
            } else {
                // Main time; running into the first period is safe.
                let (t, m) = main_share(st.seconds);
                let cap = usable(st.seconds, cfg) + per;
                TimeBudget::new(
                    t.max(per * 0.8).min(cap),
                    m.max(per).min(cap),
                    cfg.min_think,
                )
            }
        }
    };
    Some(b)
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
        assert_eq!(none.max, cfg.min_think);
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
            left -= b.max;
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
}

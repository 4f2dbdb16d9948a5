//! Time settings, the clock state, and how a move's time runs a clock down.
//!
//! GTP `time_settings`, `kgs-time_settings` and `time_left` fill these in;
//! a player reads them to decide how long to think. Times are seconds as
//! `f64` (GTP says integers; some controllers send fractions).
//!
//! A [`Clock`] is also the engine's own clock: after each move the engine
//! charges the time it took with [`Clock::charge`], which advances main
//! time, Canadian stones and byo-yomi periods as a real game clock does, so
//! the clock stays right when the controller never sends `time_left` (a
//! `time_left` that arrives simply overrides it). The referee of
//! `kosumi match` keeps its clocks the same way.
//!
//! "No limit" rules: GTP `time_settings M B 0` with `B > 0`, `kgs-time_settings
//! none`, an all-zero `time_settings 0 0 0`, and any main time or period
//! above [`NO_LIMIT_SECONDS`] (controllers send `99999999999` for "no
//! limit") give [`TimeSettings::Unlimited`]. Byo-yomi with no period (or
//! periods of no time) and Canadian overtime with no stones are absolute
//! time.
//!
//! Time is read through [`TimeSource`], so that tests run whole games on a
//! [`ManualTime`] without waiting.

use crate::color::Color;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Main times and periods above this many seconds (about 11.6 days) mean
/// "no limit".
pub const NO_LIMIT_SECONDS: f64 = 1e6;

/// The largest value of a time option (`--time`, `--max-move-time`,
/// `--clock` figures): one day.
pub const MAX_OPTION_SECONDS: f64 = 86_400.0;

/// The largest `--lag`: one minute.
pub const MAX_LAG_SECONDS: f64 = 60.0;

/// How overtime works once main time is used up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Overtime {
    /// No overtime: the game is lost when main time runs out (absolute).
    None,
    /// Canadian: `stones` moves must be played in each `period` seconds.
    Canadian {
        /// Seconds per overtime period.
        period: f64,
        /// Stones to play per period.
        stones: u32,
    },
    /// Japanese byo-yomi: `periods` periods of `period` seconds; a move
    /// played within a period keeps it.
    Byoyomi {
        /// Seconds per period.
        period: f64,
        /// Number of periods.
        periods: u32,
    },
}

/// The time system of a game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TimeSettings {
    /// No time limit.
    Unlimited,
    /// Main time, then overtime.
    Limited {
        /// Main time in seconds.
        main: f64,
        /// What follows main time.
        overtime: Overtime,
    },
}

impl TimeSettings {
    /// From GTP `time_settings main byo stones`: `byo > 0, stones == 0`
    /// means no limit; `byo == 0` means absolute time. The result is
    /// [`normalized`](TimeSettings::normalized).
    pub fn from_gtp(main: f64, byo: f64, stones: u32) -> TimeSettings {
        let s = if byo > 0.0 && stones == 0 {
            TimeSettings::Unlimited
        } else if byo <= 0.0 {
            TimeSettings::Limited {
                main,
                overtime: Overtime::None,
            }
        } else {
            TimeSettings::Limited {
                main,
                overtime: Overtime::Canadian {
                    period: byo,
                    stones,
                },
            }
        };
        s.normalized()
    }

    /// The same time system with the "no limit" rules of the module docs
    /// applied: an overtime without time or stones becomes none; no time at
    /// all, a main time or a period above [`NO_LIMIT_SECONDS`], or a time
    /// that is not a finite number becomes [`TimeSettings::Unlimited`].
    pub fn normalized(self) -> TimeSettings {
        let TimeSettings::Limited { main, overtime } = self else {
            return self;
        };
        let bad = |x: f64| !x.is_finite() || x > NO_LIMIT_SECONDS;
        if bad(main) {
            return TimeSettings::Unlimited;
        }
        let main = main.max(0.0);
        let overtime = match overtime {
            Overtime::Canadian { period, stones } if period > 0.0 && stones > 0 => {
                if bad(period) {
                    return TimeSettings::Unlimited;
                }
                overtime
            }
            Overtime::Byoyomi { period, periods } if period > 0.0 && periods > 0 => {
                if bad(period) {
                    return TimeSettings::Unlimited;
                }
                overtime
            }
            _ => Overtime::None,
        };
        if main == 0.0 && overtime == Overtime::None {
            return TimeSettings::Unlimited;
        }
        TimeSettings::Limited { main, overtime }
    }

    /// The GTP `time_settings` arguments for this system, if it has a form
    /// there: Japanese byo-yomi has one only with a single period (as
    /// Canadian overtime of one stone).
    pub fn to_gtp(&self) -> Option<(f64, f64, u32)> {
        match *self {
            TimeSettings::Unlimited => Some((0.0, 1.0, 0)),
            TimeSettings::Limited { main, overtime } => match overtime {
                Overtime::None => Some((main, 0.0, 0)),
                Overtime::Canadian { period, stones } => Some((main, period, stones)),
                Overtime::Byoyomi { period, periods: 1 } => Some((main, period, 1)),
                Overtime::Byoyomi { .. } => None,
            },
        }
    }

    /// The `kgs-time_settings` arguments for this system.
    pub fn to_kgs(&self) -> Vec<String> {
        match *self {
            TimeSettings::Unlimited => vec!["none".into()],
            TimeSettings::Limited { main, overtime } => match overtime {
                Overtime::None => vec!["absolute".into(), secs(main)],
                Overtime::Byoyomi { period, periods } => vec![
                    "byoyomi".into(),
                    secs(main),
                    secs(period),
                    periods.to_string(),
                ],
                Overtime::Canadian { period, stones } => vec![
                    "canadian".into(),
                    secs(main),
                    secs(period),
                    stones.to_string(),
                ],
            },
        }
    }
}

/// Seconds as GTP text: whole seconds without a fraction.
fn secs(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// The `--clock` text form: `none`, `MAIN` (absolute), `MAIN+PERIODxN`
/// (byo-yomi, N periods) or `MAIN+PERIOD/N` (Canadian, N stones a period),
/// seconds as decimals.
impl fmt::Display for TimeSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeSettings::Unlimited => f.write_str("none"),
            TimeSettings::Limited { main, overtime } => match overtime {
                Overtime::None => write!(f, "{main}"),
                Overtime::Byoyomi { period, periods } => write!(f, "{main}+{period}x{periods}"),
                Overtime::Canadian { period, stones } => write!(f, "{main}+{period}/{stones}"),
            },
        }
    }
}

/// A `--clock` text that is not a time system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockSpecError(String);

impl fmt::Display for ClockSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid clock '{}': expected none, MAIN, MAIN+PERIODxPERIODS (byo-yomi) or \
             MAIN+PERIOD/STONES (Canadian), seconds from 0 to {MAX_OPTION_SECONDS}",
            self.0
        )
    }
}

impl std::error::Error for ClockSpecError {}

impl FromStr for TimeSettings {
    type Err = ClockSpecError;

    /// Reads the `--clock` form of [`Display`](fmt::Display). Every figure
    /// must be a finite number of seconds from 0 to [`MAX_OPTION_SECONDS`]
    /// and the count from 1 to 1000; a clock with no time at all is
    /// refused (write `none`).
    fn from_str(s: &str) -> Result<TimeSettings, ClockSpecError> {
        let err = || ClockSpecError(s.chars().take(40).collect());
        let t = s.trim();
        if t.eq_ignore_ascii_case("none") {
            return Ok(TimeSettings::Unlimited);
        }
        let num = |x: &str| -> Result<f64, ClockSpecError> {
            match x.trim().parse::<f64>() {
                Ok(v) if v.is_finite() && (0.0..=MAX_OPTION_SECONDS).contains(&v) => Ok(v),
                _ => Err(err()),
            }
        };
        let count = |x: &str| -> Result<u32, ClockSpecError> {
            match x.trim().parse::<u32>() {
                Ok(n) if (1..=1000).contains(&n) => Ok(n),
                _ => Err(err()),
            }
        };
        let (main, overtime) = match t.split_once('+') {
            None => (num(t)?, Overtime::None),
            Some((m, o)) => {
                let main = num(m)?;
                let overtime = if let Some((p, n)) = o.split_once(['x', 'X']) {
                    Overtime::Byoyomi {
                        period: num(p)?,
                        periods: count(n)?,
                    }
                } else if let Some((p, n)) = o.split_once('/') {
                    Overtime::Canadian {
                        period: num(p)?,
                        stones: count(n)?,
                    }
                } else {
                    return Err(err());
                };
                let period = match overtime {
                    Overtime::Byoyomi { period, .. } | Overtime::Canadian { period, .. } => period,
                    Overtime::None => 0.0,
                };
                if period <= 0.0 {
                    return Err(err());
                }
                (main, overtime)
            }
        };
        if main <= 0.0 && overtime == Overtime::None {
            return Err(err());
        }
        Ok(TimeSettings::Limited { main, overtime })
    }
}

/// One player's clock.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClockState {
    /// Seconds left in the current phase (main time, or the current
    /// overtime period).
    pub seconds: f64,
    /// In Canadian overtime, stones left to play in this period; in
    /// byo-yomi overtime, periods left; 0 while in main time.
    pub count: u32,
}

/// Both players' clocks under one time system.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// The time system.
    pub settings: TimeSettings,
    /// Black's and White's clocks.
    pub state: [ClockState; 2],
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeSettings::Unlimited)
    }
}

impl Clock {
    /// Fresh clocks for `settings`: full main time for both (or the first
    /// overtime period when there is no main time).
    pub fn new(settings: TimeSettings) -> Clock {
        let fresh = match settings {
            TimeSettings::Unlimited => ClockState {
                seconds: f64::INFINITY,
                count: 0,
            },
            TimeSettings::Limited { main, .. } if main > 0.0 => ClockState {
                seconds: main,
                count: 0,
            },
            TimeSettings::Limited { overtime, .. } => overtime_start(overtime),
        };
        Clock {
            settings,
            state: [fresh; 2],
        }
    }

    /// Records GTP `time_left color seconds count`.
    pub fn set_time_left(&mut self, color: Color, seconds: f64, count: u32) {
        self.state[color.index()] = ClockState { seconds, count };
    }

    /// The clock of `color`.
    pub fn of(&self, color: Color) -> ClockState {
        self.state[color.index()]
    }

    /// Whether there is no time limit.
    pub fn is_unlimited(&self) -> bool {
        matches!(self.settings, TimeSettings::Unlimited)
    }

    /// Whether `color`'s clock is in overtime (its count is running).
    pub fn in_overtime(&self, color: Color) -> bool {
        match self.settings {
            TimeSettings::Limited { overtime, .. } => {
                overtime != Overtime::None && self.of(color).count > 0
            }
            TimeSettings::Unlimited => false,
        }
    }

    /// The most `color`'s next move may take before the flag falls: main
    /// time left plus what overtime allows one move (a whole Canadian
    /// period, every byo-yomi period left). Infinite without a limit.
    pub fn time_to_flag(&self, color: Color) -> f64 {
        let st = self.of(color);
        match self.settings {
            TimeSettings::Unlimited => f64::INFINITY,
            TimeSettings::Limited { overtime, .. } => {
                let s = st.seconds.max(0.0);
                match overtime {
                    Overtime::None => s,
                    Overtime::Canadian { period, .. } if st.count == 0 => s + period,
                    Overtime::Canadian { .. } => s,
                    Overtime::Byoyomi { period, periods } if st.count == 0 => {
                        s + period * periods as f64
                    }
                    Overtime::Byoyomi { period, .. } => s + period * (st.count - 1) as f64,
                }
            }
        }
    }

    /// Charges `color` for a move that took `seconds`, as a game clock
    /// does: main time runs down, then overtime starts (the move that
    /// overran main time is the first of the period). Canadian: the
    /// period's time runs down and a stone is counted; after the period's
    /// last stone a fresh period starts. Byo-yomi: a move within the
    /// current period keeps it (the period starts afresh); a longer move
    /// uses up one period for each period it overran.
    ///
    /// Returns the slack: how much longer the move could have taken before
    /// the flag fell ([`Clock::time_to_flag`] before the move, less
    /// `seconds`); below 0 the flag fell, and the clock is left at 0 (no
    /// periods, no stones).
    pub fn charge(&mut self, color: Color, seconds: f64) -> f64 {
        let slack = self.time_to_flag(color) - seconds.max(0.0);
        let TimeSettings::Limited { overtime, .. } = self.settings else {
            return slack;
        };
        let mut t = seconds.max(0.0);
        let st = &mut self.state[color.index()];
        if overtime == Overtime::None {
            st.seconds = (st.seconds - t).max(0.0);
            st.count = 0;
            return slack;
        }
        if st.count == 0 {
            if t <= st.seconds {
                st.seconds -= t;
                return slack;
            }
            t -= st.seconds.max(0.0);
            *st = overtime_start(overtime);
        }
        if slack < 0.0 {
            *st = ClockState {
                seconds: 0.0,
                count: 0,
            };
            return slack;
        }
        match overtime {
            Overtime::Canadian { period, stones } => {
                st.seconds -= t;
                st.count -= 1;
                if st.count == 0 {
                    *st = ClockState {
                        seconds: period,
                        count: stones,
                    };
                }
            }
            Overtime::Byoyomi { period, .. } => {
                while t > st.seconds && st.count > 1 {
                    t -= st.seconds;
                    st.count -= 1;
                    st.seconds = period;
                }
                st.seconds = period;
            }
            Overtime::None => {}
        }
        slack
    }
}

/// The clock at the start of overtime.
fn overtime_start(overtime: Overtime) -> ClockState {
    match overtime {
        Overtime::None => ClockState {
            seconds: 0.0,
            count: 0,
        },
        Overtime::Canadian { period, stones } => ClockState {
            seconds: period,
            count: stones,
        },
        Overtime::Byoyomi { period, periods } => ClockState {
            seconds: period,
            count: periods,
        },
    }
}

/// Where engines and referees read the time: [`WallTime`], or
/// [`ManualTime`] in tests and simulations.
pub trait TimeSource: Send + Sync {
    /// Seconds since some fixed start.
    fn now(&self) -> f64;
}

/// The wall clock (monotonic), counted from its creation.
#[derive(Debug)]
pub struct WallTime(Instant);

impl WallTime {
    /// A wall clock starting now.
    pub fn new() -> WallTime {
        WallTime(Instant::now())
    }
}

impl Default for WallTime {
    fn default() -> WallTime {
        WallTime::new()
    }
}

impl TimeSource for WallTime {
    fn now(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

/// A clock that moves only when told to (microsecond steps), shared
/// between threads.
#[derive(Debug, Default)]
pub struct ManualTime(AtomicU64);

impl ManualTime {
    /// A manual clock at 0.
    pub fn new() -> ManualTime {
        ManualTime(AtomicU64::new(0))
    }

    /// Moves the clock on by `seconds` (negative or not-a-number: not at
    /// all).
    pub fn advance(&self, seconds: f64) {
        let us = (seconds.max(0.0) * 1e6).round();
        if us.is_finite() {
            self.0.fetch_add(us as u64, Ordering::SeqCst);
        }
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> f64 {
        self.0.load(Ordering::SeqCst) as f64 / 1e6
    }
}

/// A time option of the command line that is out of range.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeOptionError {
    /// The option, `--time`.
    pub option: &'static str,
    /// Its value.
    pub value: f64,
    /// The allowed range, in words.
    pub range: String,
}

impl fmt::Display for TimeOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.value;
        let value = if v.is_finite() && v.abs() < 1e15 {
            format!("{v}")
        } else {
            format!("{v:?}")
        };
        write!(
            f,
            "{} {value} is out of range: expected {}",
            self.option, self.range
        )
    }
}

impl std::error::Error for TimeOptionError {}

/// The engine's time options as the command line gives them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeOptions {
    /// `--time`: seconds per move, if limited.
    pub time: Option<f64>,
    /// `--max-move-time`: the longest think for one move, whatever the
    /// clock.
    pub max_move_time: Option<f64>,
    /// `--lag`: seconds charged to our own clock per move on top of the
    /// time measured, and kept back per move, for transmission and
    /// process lag.
    pub lag: Option<f64>,
}

impl TimeOptions {
    /// Checks the options: `--time` and `--max-move-time` must be finite,
    /// above 0 and at most [`MAX_OPTION_SECONDS`] (one day); `--lag` finite
    /// and from 0 to [`MAX_LAG_SECONDS`].
    ///
    /// # Errors
    /// The first option out of range.
    pub fn check(&self) -> Result<(), TimeOptionError> {
        let positive = |option, v: Option<f64>| match v {
            Some(x) if !(x.is_finite() && x > 0.0 && x <= MAX_OPTION_SECONDS) => {
                Err(TimeOptionError {
                    option,
                    value: x,
                    range: format!("seconds above 0 and at most {MAX_OPTION_SECONDS} (one day)"),
                })
            }
            _ => Ok(()),
        };
        positive("--time", self.time)?;
        positive("--max-move-time", self.max_move_time)?;
        if let Some(x) = self.lag {
            if !(x.is_finite() && (0.0..=MAX_LAG_SECONDS).contains(&x)) {
                return Err(TimeOptionError {
                    option: "--lag",
                    value: x,
                    range: format!("seconds from 0 to {MAX_LAG_SECONDS}"),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn byo(main: f64, period: f64, periods: u32) -> TimeSettings {
        TimeSettings::Limited {
            main,
            overtime: Overtime::Byoyomi { period, periods },
        }
    }

    fn canadian(main: f64, period: f64, stones: u32) -> TimeSettings {
        TimeSettings::Limited {
            main,
            overtime: Overtime::Canadian { period, stones },
        }
    }

    fn absolute(main: f64) -> TimeSettings {
        TimeSettings::Limited {
            main,
            overtime: Overtime::None,
        }
    }

    fn st(seconds: f64, count: u32) -> ClockState {
        ClockState { seconds, count }
    }

    #[test]
    fn gtp_time_settings_forms() {
        assert_eq!(TimeSettings::from_gtp(0.0, 1.0, 0), TimeSettings::Unlimited);
        assert_eq!(TimeSettings::from_gtp(300.0, 0.0, 0), absolute(300.0));
        let c = Clock::new(TimeSettings::from_gtp(0.0, 30.0, 5));
        assert_eq!(c.of(Color::Black), st(30.0, 5));
    }

    #[test]
    fn huge_and_empty_clocks_mean_no_limit() {
        for s in [
            TimeSettings::from_gtp(99_999_999_999.0, 0.0, 0),
            TimeSettings::from_gtp(1e6 + 1.0, 30.0, 5),
            TimeSettings::from_gtp(0.0, 1e12, 1),
            TimeSettings::from_gtp(0.0, 0.0, 0),
            byo(f64::INFINITY, 30.0, 5).normalized(),
            byo(0.0, 30.0, 0).normalized(),
        ] {
            assert_eq!(s, TimeSettings::Unlimited);
        }
        // Ten hours is a real clock (the time manager caps single moves).
        assert_eq!(TimeSettings::from_gtp(36_000.0, 0.0, 0), absolute(36_000.0));
        // Overtime without periods or stones is absolute time.
        assert_eq!(byo(60.0, 30.0, 0).normalized(), absolute(60.0));
        assert_eq!(canadian(60.0, 0.0, 5).normalized(), absolute(60.0));
    }

    #[test]
    fn absolute_time_runs_down_to_the_flag() {
        let mut c = Clock::new(absolute(10.0));
        assert_eq!(c.charge(Color::Black, 4.0), 6.0);
        assert_eq!(c.of(Color::Black), st(6.0, 0));
        assert_eq!(c.of(Color::White), st(10.0, 0));
        assert!(c.charge(Color::Black, 6.5) < 0.0);
        assert_eq!(c.of(Color::Black).seconds, 0.0);
    }

    #[test]
    fn byoyomi_keeps_a_period_used_within_and_loses_one_per_overrun() {
        let mut c = Clock::new(byo(5.0, 10.0, 3));
        // 3 s of main time.
        assert_eq!(c.charge(Color::Black, 3.0), 5.0 + 30.0 - 3.0);
        assert_eq!(c.of(Color::Black), st(2.0, 0));
        // 2 s of main time left, the move takes 11: 9 s into the first
        // period, which is kept.
        c.charge(Color::Black, 11.0);
        assert_eq!(c.of(Color::Black), st(10.0, 3));
        assert!(c.in_overtime(Color::Black));
        // 9.9 s: still three periods.
        assert!((c.charge(Color::Black, 9.9) - 20.1).abs() < 1e-9);
        assert_eq!(c.of(Color::Black), st(10.0, 3));
        // 25 s overruns two periods.
        c.charge(Color::Black, 25.0);
        assert_eq!(c.of(Color::Black), st(10.0, 1));
        // The last period overrun: the flag falls.
        assert!(c.charge(Color::Black, 10.5) < 0.0);
        assert_eq!(c.of(Color::Black), st(0.0, 0));
    }

    #[test]
    fn byoyomi_of_one_second_without_main_time() {
        let mut c = Clock::new(byo(0.0, 1.0, 1));
        for _ in 0..100 {
            let slack = c.charge(Color::White, 0.8);
            assert!((slack - 0.2).abs() < 1e-9);
            assert_eq!(c.of(Color::White), st(1.0, 1));
        }
        assert!(c.charge(Color::White, 1.01) < 0.0);
    }

    #[test]
    fn canadian_counts_stones_and_starts_fresh_periods() {
        let mut c = Clock::new(canadian(10.0, 30.0, 3));
        // Overrunning main time by 4 s: the first stone of the period.
        c.charge(Color::White, 14.0);
        assert_eq!(c.of(Color::White), st(26.0, 2));
        c.charge(Color::White, 6.0);
        assert_eq!(c.of(Color::White), st(20.0, 1));
        // The third stone in time: a fresh period.
        assert_eq!(c.charge(Color::White, 15.0), 5.0);
        assert_eq!(c.of(Color::White), st(30.0, 3));
        // More than the period's time left: lost.
        c.charge(Color::White, 29.0);
        assert!(c.charge(Color::White, 1.5) < 0.0);
        assert_eq!(c.of(Color::White), st(0.0, 0));
    }

    #[test]
    fn time_left_overrides_the_own_clock() {
        let mut c = Clock::new(absolute(60.0));
        c.charge(Color::Black, 10.0);
        c.set_time_left(Color::Black, 55.0, 0);
        assert_eq!(c.of(Color::Black), st(55.0, 0));
        c.charge(Color::Black, 5.0);
        assert_eq!(c.of(Color::Black), st(50.0, 0));
    }

    #[test]
    fn unlimited_clocks_never_run_down() {
        let mut c = Clock::default();
        assert_eq!(c.charge(Color::Black, 1e9), f64::INFINITY);
        assert!(c.of(Color::Black).seconds.is_infinite());
    }

    #[test]
    fn clock_spec_text_round_trips() {
        for (text, settings) in [
            ("20", absolute(20.0)),
            ("0+1x1", byo(0.0, 1.0, 1)),
            ("600+30x5", byo(600.0, 30.0, 5)),
            ("60+300/25", canadian(60.0, 300.0, 25)),
            ("1.5", absolute(1.5)),
            ("none", TimeSettings::Unlimited),
        ] {
            let parsed: TimeSettings = text.parse().unwrap();
            assert_eq!(parsed, settings, "{text}");
            assert_eq!(parsed.to_string(), text);
        }
        for bad in [
            "",
            "0",
            "-5",
            "nan",
            "inf",
            "1e9",
            "10+",
            "10+5",
            "10+5x0",
            "10+0x3",
            "10+5/0",
            "10+5x",
            "x",
            "10+5x3x",
            "10+5x1001",
        ] {
            assert!(bad.parse::<TimeSettings>().is_err(), "{bad}");
        }
        let e = "1e9".parse::<TimeSettings>().unwrap_err().to_string();
        assert!(e.contains("MAIN+PERIODxPERIODS"), "{e}");
    }

    #[test]
    fn gtp_and_kgs_forms_for_the_referee() {
        assert_eq!(absolute(20.0).to_gtp(), Some((20.0, 0.0, 0)));
        assert_eq!(byo(0.0, 1.0, 1).to_gtp(), Some((0.0, 1.0, 1)));
        assert_eq!(byo(0.0, 1.0, 3).to_gtp(), None);
        assert_eq!(
            byo(0.0, 1.5, 3).to_kgs(),
            ["byoyomi", "0", "1.5", "3"].map(String::from)
        );
        assert_eq!(
            TimeSettings::from_gtp(0.0, 1.0, 0),
            TimeSettings::Unlimited,
            "GTP's own no-limit form"
        );
    }

    #[test]
    fn time_options_are_checked_in_one_place() {
        let ok = TimeOptions {
            time: Some(2.0),
            max_move_time: Some(60.0),
            lag: Some(0.0),
        };
        assert_eq!(ok.check(), Ok(()));
        for bad in [
            TimeOptions {
                time: Some(1e300),
                ..ok
            },
            TimeOptions {
                time: Some(f64::NAN),
                ..ok
            },
            TimeOptions {
                time: Some(0.0),
                ..ok
            },
            TimeOptions {
                max_move_time: Some(-1.0),
                ..ok
            },
            TimeOptions {
                max_move_time: Some(86_401.0),
                ..ok
            },
            TimeOptions {
                lag: Some(-0.1),
                ..ok
            },
            TimeOptions {
                lag: Some(f64::INFINITY),
                ..ok
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
        let e = TimeOptions {
            time: Some(1e300),
            ..ok
        }
        .check()
        .unwrap_err();
        assert_eq!(e.option, "--time");
        assert!(e.to_string().contains("one day"), "{e}");
    }

    #[test]
    fn manual_time_moves_only_when_told() {
        let t = ManualTime::new();
        assert_eq!(t.now(), 0.0);
        t.advance(1.25);
        t.advance(-3.0);
        assert_eq!(t.now(), 1.25);
    }
}

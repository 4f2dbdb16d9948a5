//! Time settings and the clock state a controller reports.
//!
//! GTP `time_settings`, `kgs-time_settings` and `time_left` fill these in;
//! a player reads them to decide how long to think. Times are seconds as
//! `f64` (GTP says integers; some controllers send fractions).

use crate::color::Color;

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
    /// means no limit; `byo == 0` means absolute time.
    pub fn from_gtp(main: f64, byo: f64, stones: u32) -> TimeSettings {
        if byo > 0.0 && stones == 0 {
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
        }
    }
}

/// One player's clock as last reported.
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
            TimeSettings::Limited { main, overtime } if main > 0.0 => {
                let _ = overtime;
                ClockState {
                    seconds: main,
                    count: 0,
                }
            }
            TimeSettings::Limited { overtime, .. } => match overtime {
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
            },
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_time_settings_forms() {
        assert_eq!(TimeSettings::from_gtp(0.0, 1.0, 0), TimeSettings::Unlimited);
        assert_eq!(
            TimeSettings::from_gtp(300.0, 0.0, 0),
            TimeSettings::Limited {
                main: 300.0,
                overtime: Overtime::None
            }
        );
        let c = Clock::new(TimeSettings::from_gtp(0.0, 30.0, 5));
        assert_eq!(
            c.of(Color::Black),
            ClockState {
                seconds: 30.0,
                count: 5
            }
        );
    }
}

//! Time: the clock settings and time left the controller reports, and
//! `cputime`.

use crate::clock::{Clock, Overtime, TimeSettings};
use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;
use std::time::Instant;

pub(crate) fn cmd_time_settings(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 3)?;
    let main = args::seconds(&r.args[0])?;
    let byo = args::seconds(&r.args[1])?;
    let stones = args::u32(&r.args[2])?;
    e.clock = Clock::new(TimeSettings::from_gtp(main, byo, stones));
    Ok(String::new())
}

pub(crate) fn cmd_kgs_time_settings(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let kind = r.args.first().map(String::as_str).unwrap_or("");
    let settings = match (kind, r.args.len()) {
        ("none", 1) => TimeSettings::Unlimited,
        ("absolute", 2) => TimeSettings::Limited {
            main: args::seconds(&r.args[1])?,
            overtime: Overtime::None,
        },
        ("byoyomi", 4) => TimeSettings::Limited {
            main: args::seconds(&r.args[1])?,
            overtime: Overtime::Byoyomi {
                period: args::seconds(&r.args[2])?,
                periods: args::u32(&r.args[3])?,
            },
        },
        ("canadian", 4) => TimeSettings::Limited {
            main: args::seconds(&r.args[1])?,
            overtime: Overtime::Canadian {
                period: args::seconds(&r.args[2])?,
                stones: args::u32(&r.args[3])?,
            },
        },
        _ => {
            return Err(ArgError::Usage(
                "expected none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES",
            )
            .into())
        }
    };
    e.clock = Clock::new(settings.normalized());
    Ok(String::new())
}

pub(crate) fn cmd_time_left(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 3)?;
    let color = args::color(&r.args[0])?;
    let seconds = args::seconds(&r.args[1])?;
    let count = args::u32(&r.args[2])?;
    e.clock.set_time_left(color, seconds, count);
    Ok(String::new())
}

/// CPU seconds used by this process (user + system) from `/proc/self/stat`
/// on Linux, else wall-clock seconds since the engine started.
fn cpu_seconds(started: Instant) -> f64 {
    let from_proc = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the parenthesised command name; utime and stime are
            // fields 14 and 15 of the whole line, in clock ticks (100 a second
            // on Linux).
            let rest = &s[s.rfind(')')? + 1..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            let utime: f64 = f.get(11)?.parse().ok()?;
            let stime: f64 = f.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        });
    from_proc.unwrap_or_else(|| started.elapsed().as_secs_f64())
}

pub(crate) fn cmd_cputime(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    Ok(format!("{:.3}", cpu_seconds(e.started)))
}

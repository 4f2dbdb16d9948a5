//! The command line's values, validated once for every subcommand
//! (`gtp`, `bench`, `selfplay`, `match`, `regress`): each function takes
//! the text of an option and gives its value or a message saying what is
//! allowed. The option structs (`main.rs`, `crate::mcts::args`,
//! `crate::gtp::options`, `crate::play::options`) hand them to clap as
//! value parsers, so a refusal prints clap's error and exits with status
//! 2, the same way everywhere.
//!
//! | setting | allowed |
//! |---|---|
//! | `--threads` | 1 to [`max_threads`]: 4 x the cores (at least 4) |
//! | `--playouts` | at least 1 |
//! | `--jobs` | 1 to [`MAX_JOBS`] |
//! | `--games` | at least 1 |
//! | `--max-moves` | at least 1 |
//! | `--move-timeout`, `regress --timeout` | seconds, finite, above 0, at most [`MAX_SECONDS`] (one day) |
//! | `--time`, `--max-move-time`, `--lag` | checked together by [`crate::clock::TimeOptions::check`] (same range; exit 2) |
//! | `--komi` | a [`crate::komi::Komi`]: finite, at most 1000 either way |
//! | `--dyn-komi` | finite, 0 to 100 points |
//! | `--rules` | a preset name of [`crate::rules::Rules::preset`] |
//! | `--set` | a key of the knob table `crate::mcts::tune` and a value in its range |

/// Search threads a core may carry: more only slows a search down.
pub const THREADS_PER_CORE: usize = 4;

/// The most games played at once.
pub const MAX_JOBS: usize = 1024;

/// The longest time setting in seconds: one day, the clock's
/// [`crate::clock::MAX_OPTION_SECONDS`].
pub const MAX_SECONDS: f64 = crate::clock::MAX_OPTION_SECONDS;

/// The most search threads: [`THREADS_PER_CORE`] x the cores this
/// machine offers, and at least [`THREADS_PER_CORE`].
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(THREADS_PER_CORE).max(THREADS_PER_CORE)
}

/// A whole number from `lo` to `hi` (inclusive).
///
/// # Errors
/// Not a number, or out of range, as a message naming the range.
fn whole(s: &str, lo: u64, hi: Option<u64>, what: &str) -> Result<u64, String> {
    let range = match hi {
        Some(hi) => format!("{what} from {lo} to {hi}"),
        None => format!("{what} of at least {lo}"),
    };
    let v: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number; expected {range}"))?;
    if v < lo || hi.is_some_and(|hi| v > hi) {
        return Err(format!("{v} is out of range; expected {range}"));
    }
    Ok(v)
}

/// `--threads`: 1 to [`max_threads`].
///
/// # Errors
/// Not a number, 0, or more than [`max_threads`].
pub fn threads(s: &str) -> Result<usize, String> {
    let max = max_threads();
    whole(
        s,
        1,
        Some(max as u64),
        &format!("threads ({THREADS_PER_CORE} x the cores at most)"),
    )
    .map(|v| v as usize)
}

/// `--playouts`: at least 1.
///
/// # Errors
/// Not a number, or 0.
pub fn playouts(s: &str) -> Result<u64, String> {
    whole(s, 1, None, "playouts")
}

/// `--jobs`: 1 to [`MAX_JOBS`].
///
/// # Errors
/// Not a number, 0, or more than [`MAX_JOBS`].
pub fn jobs(s: &str) -> Result<usize, String> {
    whole(s, 1, Some(MAX_JOBS as u64), "games at once").map(|v| v as usize)
}

/// `--games`: at least 1.
///
/// # Errors
/// Not a number, or 0.
pub fn games(s: &str) -> Result<usize, String> {
    whole(s, 1, Some(usize::MAX as u64), "games").map(|v| v as usize)
}

/// `--max-moves`: at least 1.
///
/// # Errors
/// Not a number, or 0.
pub fn max_moves(s: &str) -> Result<usize, String> {
    whole(s, 1, Some(usize::MAX as u64), "moves").map(|v| v as usize)
}

/// A time setting in seconds: finite, above 0, at most [`MAX_SECONDS`].
///
/// # Errors
/// Not a number, not finite, 0 or less, or more than a day.
pub fn seconds(s: &str) -> Result<f64, String> {
    let expected = format!("seconds above 0 and at most {MAX_SECONDS} (one day)");
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number; expected {expected}"))?;
    if !(v.is_finite() && v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!("{s} is out of range; expected {expected}"));
    }
    Ok(v)
}

/// A number of points from `lo` to `hi`.
fn points(s: &str, lo: f32, hi: f32) -> Result<f32, String> {
    let expected = format!("points from {lo} to {hi}");
    let v: f32 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number; expected {expected}"))?;
    if !(v.is_finite() && (lo..=hi).contains(&v)) {
        return Err(format!("{s} is out of range; expected {expected}"));
    }
    Ok(v)
}

/// `--rules`: a preset name ([`crate::rules::Rules::preset`]).
///
/// # Errors
/// An unknown name, as the presets' message.
pub fn rules(s: &str) -> Result<crate::rules::Rules, String> {
    crate::rules::Rules::preset(s).map_err(|e| e.to_string())
}

/// `--komi`: a [`crate::komi::Komi`].
///
/// # Errors
/// Not a number, not finite, or beyond 1000 either way.
pub fn komi(s: &str) -> Result<crate::komi::Komi, String> {
    crate::komi::Komi::parse(s).map_err(|e| e.to_string())
}

/// `yes` or `no`.
///
/// # Errors
/// Anything else.
pub fn yes_no(s: &str) -> Result<bool, String> {
    match s {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("expected yes or no, not '{s}'")),
    }
}

/// `--dyn-komi`: 0 to 100 points per handicap stone.
///
/// # Errors
/// Not a number, not finite, negative or above 100.
pub fn dyn_komi(s: &str) -> Result<f32, String> {
    points(s, 0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_from_one_to_four_per_core() {
        assert_eq!(threads("1"), Ok(1));
        assert_eq!(threads(&max_threads().to_string()), Ok(max_threads()));
        assert!(max_threads() >= THREADS_PER_CORE);
        for bad in [
            "0",
            "-1",
            "x",
            "",
            "10000",
            &(max_threads() + 1).to_string(),
        ] {
            assert!(threads(bad).is_err(), "{bad}");
        }
        assert!(threads("0").unwrap_err().contains("4 x the cores"));
    }

    #[test]
    fn counts_start_at_one() {
        assert_eq!(playouts("1"), Ok(1));
        assert_eq!(jobs("3"), Ok(3));
        assert_eq!(games("10"), Ok(10));
        assert_eq!(max_moves("1"), Ok(1));
        for bad in ["0", "-3", "1.5", "lots"] {
            assert!(playouts(bad).is_err(), "{bad}");
            assert!(jobs(bad).is_err(), "{bad}");
            assert!(games(bad).is_err(), "{bad}");
            assert!(max_moves(bad).is_err(), "{bad}");
        }
        assert!(jobs("1025").is_err());
        assert_eq!(
            playouts("0").unwrap_err(),
            "0 is out of range; expected playouts of at least 1"
        );
    }

    #[test]
    fn times_are_finite_positive_and_at_most_a_day() {
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert_eq!(seconds("86400"), Ok(86400.0));
        for bad in ["0", "-1", "NaN", "inf", "1e300", "86401", "soon"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rules_komi_and_yes_no() {
        assert_eq!(
            rules("japanese"),
            Ok(crate::rules::Rules::preset("japanese").unwrap())
        );
        assert!(rules("martian").is_err());
        assert_eq!(komi("6.5").map(|k| k.get()), Ok(6.5));
        assert!(komi("inf").is_err());
        assert_eq!((yes_no("yes"), yes_no("no")), (Ok(true), Ok(false)));
        assert!(yes_no("maybe").is_err());
    }

    #[test]
    fn dynamic_komi_is_finite_and_bounded() {
        assert_eq!(dyn_komi("0"), Ok(0.0));
        for bad in ["-1", "100.5", "NaN"] {
            assert!(dyn_komi(bad).is_err(), "{bad}");
        }
    }
}

//! GTP argument reading: every helper returns a typed [`ArgError`], whose
//! text is the error response (the same texts the engine always gave).
//!
//! Outside text quoted in a message is clipped to 40 characters.

use super::line::Request;
use crate::color::{Color, ColorParseError};
use crate::point::{parse_gtp_move, Move, VertexError};
use crate::rules::RulesError;
use crate::text::clip;
use std::fmt;
use std::time::Duration;

/// Why a command's arguments could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// Too few or too many arguments for a command with a fixed count.
    Count {
        /// The command's name.
        command: String,
        /// How many it takes.
        expected: usize,
        /// How many it got.
        got: usize,
    },
    /// Too few or too many arguments; the text is the command's usage.
    Usage(&'static str),
    /// A streaming command that needs its colour first (the command's
    /// name).
    ColorFirst(String),
    /// A key of `key value` pairs without its value (the key).
    MissingValue(String),
    /// A colour that is not `b`, `w`, `black` or `white` (any case).
    Color(ColorParseError),
    /// A vertex that cannot be read, or lies off the board.
    Vertex(VertexError),
    /// A double-quoted argument without its closing quote.
    UnterminatedQuote,
    /// Not a non-negative integer.
    Number(String),
    /// Not a board size.
    Size(String),
    /// Not a finite, non-negative number of seconds.
    Time(String),
    /// A komi that is not a (finite, decimal) number: GTP's `syntax error`.
    KomiSyntax,
    /// A komi that is a number but out of range.
    Komi(String),
    /// Not `alive`, `dead` or `seki`.
    Status(String),
    /// Not a rule set KGS names.
    KgsRules(String),
    /// A rules preset or ko rule that does not exist.
    Rules(RulesError),
    /// Not a suicide setting (`yes`, `no`, ...).
    Suicide(String),
    /// Not an analysis interval in centiseconds.
    Interval(String),
    /// Not `true` or `false` for `ownership`.
    Ownership(String),
    /// An analysis key the engine does not know.
    AnalysisOption(String),
    /// Not `true` or `false` for a flag of the analysis commands (the key,
    /// the value).
    Flag(String, String),
    /// Not a depth of at least 1 for `avoid`/`allow`.
    Depth(String),
    /// `allow` given twice for one colour, or with `avoid` for it (the
    /// colour).
    AllowTwice(Color),
}

impl ArgError {
    /// `true` for a wrong number of arguments, `false` for an argument that
    /// cannot be read (GTP's "syntax error" family).
    pub fn is_count(&self) -> bool {
        matches!(
            self,
            ArgError::Count { .. }
                | ArgError::Usage(_)
                | ArgError::ColorFirst(_)
                | ArgError::MissingValue(_)
        )
    }
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Count {
                command,
                expected,
                got,
            } => write!(
                f,
                "wrong number of arguments: {command} expects {expected}, got {got}"
            ),
            ArgError::Usage(u) => f.write_str(u),
            ArgError::ColorFirst(c) => write!(f, "{c} expects a color first"),
            ArgError::MissingValue(k) => write!(f, "missing value for '{k}'"),
            ArgError::Color(e) => e.fmt(f),
            ArgError::Vertex(e) => e.fmt(f),
            ArgError::UnterminatedQuote => f.write_str("unterminated quote"),
            ArgError::Number(s) => write!(f, "invalid number '{s}'"),
            ArgError::Size(s) => write!(f, "invalid size '{s}'"),
            ArgError::Time(s) => write!(f, "invalid time '{s}'"),
            ArgError::KomiSyntax => f.write_str("syntax error"),
            ArgError::Komi(s) => write!(f, "invalid komi '{s}'"),
            ArgError::Status(s) => write!(f, "invalid status '{s}'"),
            ArgError::KgsRules(s) => write!(f, "unknown rules '{s}'"),
            ArgError::Rules(e) => e.fmt(f),
            ArgError::Suicide(s) => write!(f, "invalid suicide setting '{s}'"),
            ArgError::Interval(s) => write!(f, "invalid interval '{s}'"),
            ArgError::Ownership(s) => write!(f, "invalid ownership '{s}'"),
            ArgError::AnalysisOption(s) => write!(f, "unknown analysis option '{s}'"),
            ArgError::Flag(k, v) => write!(f, "invalid {k} '{v}' (true or false)"),
            ArgError::Depth(s) => write!(f, "invalid depth '{s}' (1 or more)"),
            ArgError::AllowTwice(c) => write!(
                f,
                "for {}, allow cannot be combined with avoid or another allow",
                c.name()
            ),
        }
    }
}

impl std::error::Error for ArgError {}

impl From<ColorParseError> for ArgError {
    fn from(e: ColorParseError) -> ArgError {
        ArgError::Color(e)
    }
}

impl From<VertexError> for ArgError {
    fn from(e: VertexError) -> ArgError {
        ArgError::Vertex(e)
    }
}

impl From<RulesError> for ArgError {
    fn from(e: RulesError) -> ArgError {
        ArgError::Rules(e)
    }
}

/// The wrong-count error for `r` when it should have `n` arguments.
pub fn count_error(r: &Request, n: usize) -> ArgError {
    ArgError::Count {
        command: r.name.clone(),
        expected: n,
        got: r.args.len(),
    }
}

/// Checks that `r` has exactly `n` arguments.
///
/// # Errors
/// [`ArgError::Count`] otherwise.
pub fn args_n(r: &Request, n: usize) -> Result<(), ArgError> {
    if r.args.len() == n {
        Ok(())
    } else {
        Err(count_error(r, n))
    }
}

/// Checks that `r` has no arguments.
///
/// # Errors
/// [`ArgError::Count`] otherwise.
pub fn no_args(r: &Request) -> Result<(), ArgError> {
    args_n(r, 0)
}

/// A colour.
///
/// # Errors
/// [`ArgError::Color`].
pub fn color(s: &str) -> Result<Color, ArgError> {
    Ok(s.parse::<Color>()?)
}

/// A move (vertex or `pass`) on a board of `size`.
///
/// # Errors
/// [`ArgError::Vertex`] for bad text or a vertex off the board.
pub fn vertex(s: &str, size: usize) -> Result<Move, ArgError> {
    Ok(parse_gtp_move(s, size)?)
}

/// A non-negative integer (a count).
///
/// # Errors
/// [`ArgError::Number`].
pub fn count(s: &str) -> Result<usize, ArgError> {
    s.parse::<usize>().map_err(|_| ArgError::Number(clip(s)))
}

/// A non-negative 32-bit integer (stones, periods).
///
/// # Errors
/// [`ArgError::Number`].
pub fn u32(s: &str) -> Result<u32, ArgError> {
    s.parse::<u32>().map_err(|_| ArgError::Number(clip(s)))
}

/// A finite, non-negative number of seconds.
///
/// # Errors
/// [`ArgError::Time`].
pub fn seconds(s: &str) -> Result<f64, ArgError> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(ArgError::Time(clip(s))),
    }
}

/// An analysis interval in centiseconds, clamped into 1 cs ..= 1 hour so
/// that updates never flood the client.
///
/// # Errors
/// [`ArgError::Interval`].
pub fn interval(s: &str) -> Result<Duration, ArgError> {
    let cs: u64 = s.parse().map_err(|_| ArgError::Interval(clip(s)))?;
    Ok(Duration::from_millis(cs.clamp(1, 360_000) * 10))
}

/// An optional colour as the only argument: `default` when there is none.
///
/// # Errors
/// [`ArgError::Count`] for more than one argument, [`ArgError::Color`].
pub fn optional_color(r: &Request, default: Color) -> Result<Color, ArgError> {
    match r.args.as_slice() {
        [] => Ok(default),
        [c] => color(c),
        _ => Err(count_error(r, 1)),
    }
}

/// The first argument of `raw`, which may be double-quoted to hold spaces,
/// and the rest of the text after it.
///
/// # Errors
/// [`ArgError::UnterminatedQuote`].
pub fn quoted_arg(raw: &str) -> Result<(String, &str), ArgError> {
    let raw = raw.trim_start_matches(' ');
    if let Some(inner) = raw.strip_prefix('"') {
        match inner.find('"') {
            Some(end) => Ok((inner[..end].to_string(), &inner[end + 1..])),
            None => Err(ArgError::UnterminatedQuote),
        }
    } else {
        let end = raw.find(' ').unwrap_or(raw.len());
        Ok((raw[..end].to_string(), &raw[end..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(name: &str, args: &[&str]) -> Request {
        Request {
            id: None,
            name: name.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
            raw_args: args.join(" "),
        }
    }

    #[test]
    fn texts_are_the_engine_s_responses() {
        let r = req("play", &["b"]);
        assert_eq!(
            args_n(&r, 2).unwrap_err().to_string(),
            "wrong number of arguments: play expects 2, got 1"
        );
        assert_eq!(color("x").unwrap_err().to_string(), "invalid color 'x'");
        assert_eq!(count("-1").unwrap_err().to_string(), "invalid number '-1'");
        assert_eq!(
            seconds("nan").unwrap_err().to_string(),
            "invalid time 'nan'"
        );
        assert_eq!(
            vertex("z99", 19).unwrap_err().to_string(),
            parse_gtp_move("z99", 19).unwrap_err().to_string()
        );
        let long = "y".repeat(100);
        assert_eq!(
            u32(&long).unwrap_err().to_string(),
            format!("invalid number '{}'", "y".repeat(40))
        );
    }

    #[test]
    fn count_and_syntax_families() {
        assert!(args_n(&req("x", &[]), 1).unwrap_err().is_count());
        assert!(!color("q").unwrap_err().is_count());
        assert!(ArgError::MissingValue("k".into()).is_count());
    }

    #[test]
    fn optional_color_and_interval() {
        assert_eq!(
            optional_color(&req("kosumi-pv", &[]), Color::White),
            Ok(Color::White)
        );
        assert_eq!(
            optional_color(&req("kosumi-pv", &["b"]), Color::White),
            Ok(Color::Black)
        );
        assert!(optional_color(&req("kosumi-pv", &["b", "w"]), Color::White)
            .unwrap_err()
            .is_count());
        assert_eq!(interval("0"), Ok(Duration::from_millis(10)));
        assert_eq!(interval("50"), Ok(Duration::from_millis(500)));
        assert!(interval("x").is_err());
    }

    #[test]
    fn quoted_arguments() {
        assert_eq!(
            quoted_arg(" \"a b.sgf\" 12").unwrap(),
            ("a b.sgf".to_string(), " 12")
        );
        assert_eq!(quoted_arg("x.sgf 3").unwrap(), ("x.sgf".to_string(), " 3"));
        assert_eq!(quoted_arg("\"open"), Err(ArgError::UnterminatedQuote));
    }
}

//! The Go Text Protocol (GTP v2) engine.
//!
//! - [`line`](mod@line): preprocessing of a command line exactly as the
//!   specification says, and its split into id, name and arguments.
//! - [`args`]: reading a command's arguments, with typed errors.
//! - [`engine`]: the engine state and dispatch; a line in, a response out,
//!   no I/O.
//! - [`table`]: the one command table: every command's name, handler,
//!   listing, effect on pondering and GoGui analyze entries.
//! - [`cmd`]: the handlers by topic (setup, play, time, scoring, SGF,
//!   Kosumi's extensions).
//! - [`info`]: the analysis `info` line format and the analysis commands'
//!   arguments (KataGo's keys).
//! - [`analysis`]: the streaming analysis commands and pondering, through
//!   the player's [`Analyzer`](crate::player::Analyzer).
//! - [`signal`]: what the reader thread tells a running command.
//! - [`options`]: the command line's options of `kosumi gtp` and the
//!   engine they build.
//! - [`io`]: the thin loop on stdin/stdout, with a reader thread so that a
//!   running command can be interrupted. It depends on the engine, never
//!   the reverse.
//!
//! Most commands return their whole response as a string. The analysis
//! commands (`lz-analyze`, `kata-analyze`, `lz-genmove_analyze`,
//! `kata-genmove_analyze`) stream instead: [`Engine::respond_to`] hands
//! them the output sink, and while one runs the reader thread sets the
//! engine's stop flag as soon as any new line (or the end of input)
//! arrives.

pub mod analysis;
pub mod args;
pub mod cmd;
pub mod engine;
pub mod info;
pub mod io;
pub mod line;
pub mod log;
pub mod options;
pub mod signal;
pub mod table;

pub use engine::{Config, Engine};
pub use info::Dialect;
pub use options::GtpArgs;

//! The Go Text Protocol (GTP v2) engine.
//!
//! - [`line`]: preprocessing of a command line exactly as the
//!   specification says, and its split into id, name and arguments.
//! - [`engine`]: the engine state and the one command table that drives
//!   dispatch, `list_commands` and `known_command`; a line in, a response
//!   out, no I/O.
//! - [`status`]: dead, alive and seki chains from an ownership estimate,
//!   for `final_status_list`, `final_score` and `kgs-genmove_cleanup`.
//! - [`io`]: the thin loop on stdin/stdout, with a reader thread so that a
//!   running command can be interrupted.
//!
//! Most commands return their whole response as a string. The analysis
//! commands (`lz-analyze`, `kata-analyze`, `lz-genmove_analyze`,
//! `kata-genmove_analyze`) stream instead: [`Engine::respond_to`] hands
//! them the output sink, and while one runs the reader thread sets the
//! engine's stop flag as soon as any new line (or the end of input)
//! arrives.

pub mod engine;
pub mod io;
pub mod line;
pub mod status;

pub use engine::{Config, Dialect, Engine, EnginePlayer};

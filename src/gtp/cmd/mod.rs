//! The command handlers, by topic. Each is named in the command table
//! ([`crate::gtp::table`]); none is reached any other way.

pub mod extensions;
pub mod play;
pub mod scoring;
pub mod setup;
pub mod sgf;
pub mod time;

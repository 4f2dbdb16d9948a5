//! Every GTP integration test, in one test binary (one link instead of
//! seven). The modules live in `tests/gtp/`, beside the golden transcripts
//! and the superko regression suites (`tests/gtp/regress/*.tst`, run through
//! `kosumi regress` by `tests/regress_cli.rs`):
//!
//! - `analysis`: the `info` line format read back the way Sabaki reads
//!   it, and analysis stopped by the next command at the built binary;
//! - `hostile`: files that are not regular or too large, and the end of
//!   input during a long search, at the built binary;
//! - `golden`: transcripts `tests/gtp/*.gtp` against `*.out`, no I/O;
//! - `endgame`: clean-up (also disputed, kgsGtp-style) and territory or
//!   area `final_score`;
//! - `engine`: the engine and the I/O loop in process (clocks, clean-up,
//!   interrupts, pipelining, hostile lines, SGF round trip);
//! - `process`: the built binary driven by the `gtp` crate like Sabaki and
//!   like kgsGtp;
//! - `gnugo`: a game against GNU Go;
//! - `fuzz`: proptest over command lines, and the soak run.

#[path = "gtp/analysis.rs"]
mod analysis;
#[path = "gtp/controller.rs"]
mod controller;
#[path = "gtp/endgame.rs"]
mod endgame;
#[path = "gtp/engine.rs"]
mod engine;
#[path = "gtp/fuzz.rs"]
mod fuzz;
#[path = "gtp/gnugo.rs"]
mod gnugo;
#[path = "gtp/golden.rs"]
mod golden;
#[path = "gtp/hostile.rs"]
mod hostile;
#[path = "gtp/own_clock.rs"]
mod own_clock;
#[path = "gtp/process.rs"]
mod process;

//! A neural network of Kosumi's own: move prediction learned from game
//! records and self-play, evaluated on the CPU.
//!
//! - [`planes`]: the input planes of a position, from the board and the
//!   pattern code.
//! - [`export`]: training positions as a binary file (`kosumi nn
//!   export`), from SGF records and self-play visit files.
//! - [`net`]: the weights file and the evaluation (a residual tower,
//!   Winograd convolutions, preallocated buffers).
//! - [`eval`]: move prediction on held-out records (`kosumi nn eval`), the
//!   table `patterns eval` prints.
//! - [`bench`]: evaluations a second (`kosumi bench --nn`).
//! - [`cli`]: the `nn` subcommand's arguments and run functions.
//!
//! The trainer is `scripts/nn/train.py` (PyTorch); `docs/nn.md` tells the
//! whole path from records to a weights file.

pub mod bench;
pub mod cli;
pub mod eval;
pub mod export;
pub mod net;
pub mod planes;

pub use net::{Evaluator, Network, Shape};

use std::fmt;

/// What can go wrong reading, writing or evaluating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NnError {
    /// A file or directory could not be read or written.
    Io(String),
    /// A data, weights or visits file is malformed.
    Format(String),
    /// Nothing to work on.
    NoGames(String),
}

impl fmt::Display for NnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NnError::Io(m) | NnError::Format(m) => write!(f, "{m}"),
            NnError::NoGames(m) => write!(f, "no games: {m}"),
        }
    }
}

impl std::error::Error for NnError {}

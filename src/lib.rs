//! Kosumi, a Go (baduk, weiqi) engine.
//!
//! Modules, lowest layer first; a module uses only modules above it here:
//!
//! - [`build_info`]: the version and the commit the binary was built from.
//! - [`text`]: helpers for outside text in messages (`clip`).
//! - [`files`]: reading outside files with a size cap, regular files only.
//! - [`color`]: `Color` and its text forms.
//! - [`point`]: `Point`, `Move`, board geometry for sizes 2..=25, GTP vertex
//!   and SGF coordinate text.
//! - [`zobrist`]: fixed-seed key tables; `StoneHash` and `SituationHash`.
//! - [`board`]: stones, union-find chains with pseudo-liberties, captures,
//!   simple ko, incremental hash, `check_invariants`.
//! - [`rules`]: ko rule, suicide, scoring kind, named presets.
//! - [`score`]: area and territory counts of a board, result text.
//! - [`komi`]: `Komi`, parsed and checked in one place.
//! - [`game`]: `Game` with the superko history, undo, handicap.
//! - [`endgame`]: the end of a game: chain status (alive, dead, seki)
//!   from ownership, area or territory counts, the clean-up move.
//! - [`sgf`]: SGF text to trees and back (charsets, escapes, variations,
//!   leniencies and strict mode), trees to `Game`s and back.
//! - [`patterns`]: learned move patterns: shape codes, move features,
//!   the Bradley-Terry (MM) trainer, the built-in table, move prediction.
//! - [`nn`]: a neural network of Kosumi's own: input planes, the training
//!   data export, the weights file and CPU evaluation, move prediction.
//! - [`playout`]: the uniform benchmark playout and `bench`, the search's
//!   playout policy, the random draws.
//! - [`clock`]: time settings and clock state as controllers report them.
//! - [`settings`]: the command line's values, validated once for every
//!   subcommand.
//! - [`shard`]: `--shard I/N`, `auto` and `auto/N`: one part of a run, from
//!   the option or a Slurm or Kubernetes job array's environment.
//! - [`player`]: the `Player` trait, the random player, Monte-Carlo
//!   ownership.
//! - [`mcts`]: the Monte-Carlo tree search player: its configuration and
//!   knob table, the search options of the command line, tree, priors,
//!   selection, threads, time control, analysis snapshots, benchmarks.
//! - [`analysis`]: KataGo's JSON analysis protocol (`kosumi analysis`):
//!   queries read, positions searched in parallel, responses written.
//! - [`review`]: `kosumi analyze`: game review (losses, verdicts), the
//!   annotated SGF, the win-rate graph, the summaries.
//! - [`gtp`]: the GTP v2 engine: line preprocessing, one command table,
//!   the engine as a line-to-response function, the stdin/stdout loop.
//! - [`stats`]: win rates with Wilson intervals, tallies, JSON text.
//! - [`sprt`]: the sequential probability ratio test of `match --sprt`.
//! - [`play`]: games between our players and outside GTP engines (the
//!   client side of GTP), with faults recorded; matches; deterministic,
//!   shardable self-play and its summaries.
//! - [`regress`]: GTP regression suites (`.tst` files) against any engine.
#![deny(missing_docs)]

pub mod analysis;
pub mod board;
pub mod build_info;
pub mod clock;
pub mod color;
pub mod endgame;
pub mod files;
pub mod game;
pub mod gtp;
pub mod komi;
pub mod mcts;
pub mod nn;
pub mod patterns;
pub mod play;
pub mod player;
pub mod playout;
pub mod point;
pub mod regress;
pub mod review;
pub mod rules;
pub mod score;
pub mod settings;
pub mod sgf;
pub mod shard;
pub mod sprt;
pub mod stats;
pub mod text;
pub mod zobrist;

pub use board::{Board, IllegalMove};
pub use color::Color;
pub use game::Game;
pub use komi::Komi;
pub use point::{Move, Point};
pub use rules::{KoRule, Rules, Scoring};

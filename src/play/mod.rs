//! Games between two contestants: our own players, or outside GTP engines;
//! matches and self-play at scale.
//!
//! [`play_game`] runs one game and returns a [`GameRecord`]; it prints
//! nothing. A game ends at two passes, a resignation or the move cap. Then,
//! unless a referee engine scores it, both sides play on in clean-up mode
//! (`kgs-genmove_cleanup` for engines that list it,
//! [`crate::player::GenmoveRequest`] with `cleanup` for our players) until
//! two more passes, and the final board is counted by the rules' area or
//! territory count with the chains [`crate::endgame`] calls dead (by a
//! fixed-seed ownership of the playout policy) removed: [`count_finished`].
//! By territory, the position before the clean-up is counted instead, the
//! chains the clean-up captured dead, so that no clean-up stone costs its
//! player a point: [`count_after_cleanup`]. A
//! clean-up that changes nothing (two passes straight away) is taken back,
//! so the record ends at the game's own two passes. A referee's
//! `final_score` is checked at the two passes against
//! [`count_finished`]; when they name different winners the clean-up and
//! the count decide, and the scoring note names both.
//!
//! Faults are part of the record, never a reason to stop: an unreadable or
//! illegal move loses by forfeit (`B+F`/`W+F`), a crash loses by forfeit, a
//! time-out loses on time (`B+T`/`W+T`); an engine that refuses a legal
//! move of the other side (its rules differ) makes the game void (`?`).
//!
//! With a game clock ([`GameConfig::clock`]) [`play_game`] is also the
//! timekeeper: each clocked side gets the time settings at the start
//! (`time_settings`, or `kgs-time_settings` for byo-yomi to engines that
//! list it), and, when [`GameConfig::send_time_left`] is set, `time_left`
//! before each move; it runs a [`crate::clock::Clock`] per side on the
//! wall time each move takes ([`crate::clock::Clock::charge`]), and a side
//! whose flag falls loses on time; an outside engine that has not answered
//! by the time its flag falls (plus [`FLAG_GRACE`]) is killed. The clock
//! stops for the clean-up phase (only the move time-out applies there).
//! Each record keeps both sides' [`ClockUse`].
//!
//! [`run_match`] plays a series against an outside engine with colours
//! alternating; [`selfplay`] plays deterministic, shardable self-play. Our
//! players are made by [`make_player`]: the search player
//! ([`crate::mcts::MctsPlayer`]) or the random player.
//!
//! The files, each using only those above it:
//!
//! - `spec`: [`make_player`] from a [`SearchArgs`], [`describe_player`],
//!   [`mix_seed`].
//! - [`client`]: the client side of GTP: an outside engine as a child
//!   process ([`GtpClient`], [`ClientError`]).
//! - `contestant`: [`Contestant`], [`LocalContestant`], [`GtpContestant`],
//!   [`Reply`], [`Fault`].
//! - `referee`: [`Referee`], scoring with an outside engine's `final_score`.
//! - `game`: [`GameConfig`], [`play_game`], [`Ending`], [`GameRecord`].
//! - `record`: [`record_to_sgf`], [`write_atomic`].
//! - `match_table`: [`MatchConfig`], [`MatchGame`], the SPRT state, the
//!   rows of a match's table `match.tsv` ([`MatchRow`], resuming), and
//!   [`MatchError`].
//! - `matches`: [`run_match`], [`MatchSummary`] with its clock use.
//! - `match_merge`: [`summarize_match`], the tables of a match's shards
//!   merged ([`MatchMerged`]).
//! - `table`: self-play table rows and summaries (re-exported by
//!   [`selfplay`]).
//! - [`selfplay`]: self-play runs and the merging of their tables.
//! - [`options`]: the command line's options of `selfplay` and `match`,
//!   the configurations they build, and how a match writes its games.

pub mod client;
mod contestant;
mod game;
mod match_merge;
mod match_table;
mod matches;
pub mod options;
mod record;
mod referee;
pub mod selfplay;
mod spec;
mod table;

pub use crate::mcts::{PlayerKind, SearchArgs};
pub use client::{ClientError, GtpClient};
pub use contestant::{Contestant, Fault, GtpContestant, LocalContestant, Reply, FLAG_GRACE};
pub use game::{
    count_after_cleanup, count_finished, play_game, play_game_timed, ClockUse, Ending, GameConfig,
    GameRecord, COUNT_PLAYOUTS,
};
pub use match_merge::{
    count_rows, has_match_table, settings_sprt, summarize_match, MatchMerged, MergeError,
    MergedJson, ShardJson, ShardProgress,
};
pub use match_table::{
    append_match_row, prepare_match_out, table_name, table_shard, MatchConfig, MatchError,
    MatchGame, MatchRow, SprtJson, SprtState, MATCH_TABLE,
};
pub use matches::{
    run_match, run_match_from, ClockJson, ClockSideJson, ClockSummary, MatchJson, MatchSummary,
    PerMoveJson,
};
pub use record::{prepare_out_dir, record_to_sgf, run_files, write_atomic};
pub use referee::Referee;
pub use spec::{describe_player, game_threads, make_player, mix_seed, GAME_THREADS};

//! Playouts: the random games played to the end that the search scores
//! positions with, and the speed benchmark.
//!
//! - [`uniform`]: the benchmark's uniform random playout, defined exactly
//!   so that other implementations can be compared with it.
//! - [`policy`]: the search's playout policy (tactics, 3x3 shapes, no
//!   self-atari), the priors of moves entering the tree, and their
//!   settings ([`PlayoutConfig`], [`PriorConfig`]).
//! - `tactics`: the policy's cheap reading (ladders for atari escapes,
//!   snapback and nakade self-ataris), each behind a [`PlayoutConfig`]
//!   knob, on by default.
//! - [`gammas`]: learned 3x3 shape ratings in a dense table, for the
//!   policy's local step when [`PlayoutConfig::gammas`] is on.
//! - [`random`]: the uniform draws both use ([`below`], [`random::chance`]).
//! - [`bench`](mod@bench): `kosumi bench`, timed uniform playouts.
//!
//! Nothing here knows the search: `mcts` holds a [`PlayoutConfig`] and a
//! [`PriorConfig`] and calls in, never the reverse.

pub mod bench;
pub mod gammas;
pub mod policy;
pub mod random;
pub(crate) mod tactics;
pub mod uniform;

pub use bench::{bench, BenchResult};
pub use policy::{PlayoutConfig, PriorConfig};
pub use random::below;
pub use uniform::uniform_playout;

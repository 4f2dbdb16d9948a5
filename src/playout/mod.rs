//! Playouts: the random games played to the end that the search scores
//! positions with, and the speed benchmark.
//!
//! - [`uniform`]: the benchmark's uniform random playout, defined exactly
//!   so that other implementations can be compared with it.
//! - [`policy`]: the search's playout policy (tactics, 3x3 shapes, no
//!   self-atari) and its settings ([`PlayoutConfig`]).
//! - [`shapes`]: the hand-written 3x3 shapes, for the policy and the
//!   search's hand priors.
//! - `tactics`: the policy's cheap reading (ladders for atari escapes,
//!   snapback and nakade self-ataris), each behind a [`PlayoutConfig`]
//!   knob, on by default.
//! - [`random`]: the uniform draws both use ([`below`], [`random::chance`]).
//! - [`bench`](mod@bench): `kosumi bench`, timed uniform playouts.
//!
//! Nothing here knows the search: `mcts` holds a [`PlayoutConfig`] and
//! calls in, never the reverse; the priors of the tree are `mcts::prior`'s.

pub mod bench;
pub mod policy;
pub mod random;
pub mod shapes;
pub(crate) mod tactics;
pub mod uniform;

pub use bench::{bench, BenchResult};
pub use policy::PlayoutConfig;
pub use random::below;
pub use uniform::uniform_playout;

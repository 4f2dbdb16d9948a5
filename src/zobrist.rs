//! Zobrist keys and the hash types built from them.
//!
//! The keys come from a `rand_xoshiro` stream with a fixed seed, so a
//! position hashes to the same value in every run and on every machine; a
//! test pins a few values so they never drift. There is one key per colour
//! and point index (the layout of [`crate::point`] is the same for every
//! board size) and one key for "White to move".

use crate::color::Color;
use crate::point::{Point, ARRAY_LEN};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::OnceLock;

/// The seed of the key stream. Changing it changes every hash.
pub const SEED: u64 = 0x6b6f_7375_6d69; // "kosumi"

/// The key tables.
#[derive(Debug)]
pub struct Keys {
    /// `stone[color.index()][point.index()]`.
    pub stone: [[u64; ARRAY_LEN]; 2],
    /// XORed into a [`SituationHash`] when White is to move.
    pub white_to_move: u64,
}

/// The process-wide key tables, built on first use.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        let mut stone = [[0u64; ARRAY_LEN]; 2];
        for table in stone.iter_mut() {
            for k in table.iter_mut() {
                *k = rng.next_u64();
            }
        }
        let white_to_move = rng.next_u64();
        Keys {
            stone,
            white_to_move,
        }
    })
}

/// The key of one stone.
#[inline]
pub fn stone_key(color: Color, p: Point) -> u64 {
    keys().stone[color.index()][p.index()]
}

/// A hash of the stones on the board only (positional superko). The empty
/// board hashes to 0.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct StoneHash(pub u64);

/// A hash of the stones and the side to move (situational superko).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct SituationHash(pub u64);

impl SituationHash {
    /// The situation of `stones` with `to_move` to play.
    #[inline]
    pub fn new(stones: StoneHash, to_move: Color) -> SituationHash {
        match to_move {
            Color::Black => SituationHash(stones.0),
            Color::White => SituationHash(stones.0 ^ keys().white_to_move),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let k = keys();
        let mut all: Vec<u64> = k.stone.iter().flatten().copied().collect();
        all.push(k.white_to_move);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * ARRAY_LEN + 1);
        assert!(!all.contains(&0));
    }
}

//! The Zobrist keys and the hashes built from them must never drift: stored
//! hashes, opening books and test expectations depend on them.
//!
//! Two guards: literal values of a few keys and of a small position's hash
//! (recorded once, when the key scheme was fixed), and the whole key table
//! regenerated here from the published SplitMix64 and xoshiro256++
//! algorithms, independent of the `rand_xoshiro` crate, so a change in that
//! crate's output would show.

use kosumi::point::ARRAY_LEN;
use kosumi::zobrist::{self, SituationHash, StoneHash};
use kosumi::{Board, Color, Point};

/// SplitMix64 (Steele, Lea, Flood), used to expand a 64-bit seed.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// xoshiro256++ (Blackman, Vigna).
struct Xoshiro256pp([u64; 4]);

impl Xoshiro256pp {
    fn from_u64(seed: u64) -> Xoshiro256pp {
        let mut sm = seed;
        Xoshiro256pp([
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ])
    }

    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
}

#[test]
fn key_values_are_pinned() {
    let k = zobrist::keys();
    assert_eq!(zobrist::SEED, 0x6b6f_7375_6d69);
    let pins = [
        ((0, 0), 0xba19_cb5c_6cc2_096c, 0xbce7_3a9f_ee62_4397),
        ((3, 3), 0xf008_105c_c74c_0d4f, 0xf8bf_9fdd_c542_ed94),
        ((18, 18), 0x3009_42d2_e629_0b24, 0x857f_20ac_d18c_c55d),
        ((24, 24), 0x17bb_9266_a89f_e47c, 0x09ff_1488_bdbb_4ba9),
    ];
    for ((x, y), black, white) in pins {
        let p = Point::new(x, y);
        assert_eq!(k.stone[Color::Black.index()][p.index()], black, "({x},{y})");
        assert_eq!(k.stone[Color::White.index()][p.index()], white, "({x},{y})");
        assert_eq!(zobrist::stone_key(Color::Black, p), black);
        assert_eq!(zobrist::stone_key(Color::White, p), white);
    }
    assert_eq!(k.white_to_move, 0x595f_4842_bb17_63e5);
}

#[test]
fn key_table_is_the_seeded_xoshiro_stream() {
    let k = zobrist::keys();
    let mut rng = Xoshiro256pp::from_u64(zobrist::SEED);
    for c in Color::ALL {
        for i in 0..ARRAY_LEN {
            assert_eq!(k.stone[c.index()][i], rng.next(), "{c} index {i}");
        }
    }
    assert_eq!(k.white_to_move, rng.next());
}

#[test]
fn hash_of_a_small_position_is_pinned() {
    let b = Board::from_diagram(
        "
        X . .
        . O .
        . . X",
    )
    .unwrap();
    assert_eq!(b.hash(), StoneHash(0xa56c_dc61_f758_6ff6));
    assert_eq!(b.hash(), b.recompute_hash());
    // The same as XORing the three keys by hand.
    let k = zobrist::keys();
    let by_hand = k.stone[0][Point::new(0, 0).index()]
        ^ k.stone[1][Point::new(1, 1).index()]
        ^ k.stone[0][Point::new(2, 2).index()];
    assert_eq!(b.hash().0, by_hand);
    assert_eq!(
        SituationHash::new(b.hash(), Color::White),
        SituationHash(0xfc33_9423_4c4f_0c13)
    );
    assert_eq!(SituationHash::new(b.hash(), Color::Black).0, b.hash().0);
    // The empty board hashes to 0 on every size, and a point keeps its key
    // on every size.
    for size in 2..=25 {
        let mut e = Board::new(size).unwrap();
        assert_eq!(e.hash(), StoneHash(0));
        e.play(Color::Black, Point::new(0, 0), false).unwrap();
        assert_eq!(e.hash().0, 0xba19_cb5c_6cc2_096c);
    }
}

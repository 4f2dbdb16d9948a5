//! Any bytes through the whole SGF reader: charset detection, the parser in
//! both modes, the writer (whose output must read back to the same trees),
//! and the replay of every tree plainly and tolerantly. Nothing may panic
//! or hang. Run: `cargo +nightly fuzz run sgf_read fuzz/corpus/sgf_read`.
#![no_main]

use kosumi::sgf::{self, ReadOptions, ReplayOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for strict in [false, true] {
        let c = match sgf::read_bytes(data, ReadOptions { strict }) {
            Ok(c) => c,
            Err(_) => continue,
        };
        let text = sgf::tree::write_collection(&c.trees);
        let again = sgf::read_str(&text, ReadOptions { strict: true }).expect("own output reads");
        assert!(again.trees == c.trees, "write then read changed a tree");
        for t in &c.trees {
            for tolerant in [false, true] {
                let opts = ReplayOptions {
                    strict,
                    tolerant,
                    ..ReplayOptions::default()
                };
                if let Ok(r) = sgf::replay(t, &opts) {
                    let out = sgf::game_to_sgf(&r.game, &sgf::GameInfo::default());
                    let back = sgf::read_str(&out, ReadOptions { strict: true }).expect("game record reads");
                    assert_eq!(back.trees.len(), 1);
                }
            }
        }
    }
});

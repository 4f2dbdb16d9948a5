//! Property tests standing in for the `cargo fuzz` target
//! (`fuzz/fuzz_targets/sgf_read.rs` runs the same pipeline): random bytes,
//! SGF token soup, and mutated fixture files go through the charset
//! detection, the parser in both modes, the writer (whose output must read
//! back to the same trees) and the replay of every tree; nothing may panic.
//!
//! The default run is short. For a soak run set `PROPTEST_CASES`, e.g.
//! `PROPTEST_CASES=200000 cargo test --release --test sgf_fuzz`.

mod sgf_support;

use kosumi::sgf::{self, ReadOptions, ReplayOptions};
use proptest::prelude::*;
use sgf_support::{fixtures_dir, sgf_files};
use std::sync::OnceLock;

/// The pipeline every input goes through.
fn exercise(data: &[u8]) {
    for strict in [false, true] {
        let c = match sgf::read_bytes(data, ReadOptions { strict }) {
            Ok(c) => c,
            Err(e) => {
                assert!(!e.kind.to_string().is_empty());
                assert!(e.pos.line >= 1 && e.pos.column >= 1);
                continue;
            }
        };
        assert!(!c.trees.is_empty());
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
                    r.game.board().check_invariants().unwrap();
                    let out = sgf::game_to_sgf(&r.game, &sgf::GameInfo::default());
                    let back = sgf::read_str(&out, ReadOptions { strict: true })
                        .expect("game record reads");
                    assert_eq!(back.trees.len(), 1);
                }
            }
        }
    }
}

fn fixtures() -> &'static Vec<Vec<u8>> {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| {
        let mut out: Vec<Vec<u8>> = sgf_files(&fixtures_dir())
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        out.sort();
        out
    })
}

const TOKENS: [&str; 32] = [
    "(",
    ")",
    ";",
    "[",
    "]",
    "\\",
    "\\]",
    "(;",
    ")(",
    "B[aa]",
    "W[]",
    "B[tt]",
    "W[ss]",
    "AB[aa:cc]",
    "AW[bb][cc]",
    "AE[aa]",
    "SZ[",
    "SZ[5]",
    "SZ[19:13]",
    "SZ[2]",
    "KM[650]",
    "PL[W]",
    "CA[GBK]",
    "CA[UTF-16LE]",
    "GaMe[1]",
    "C[x]]",
    "\r\n",
    " ",
    "\u{feff}",
    "\0",
    "RU[japanese]",
    "HA[2]",
];

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, usize),
    Delete(usize, usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(i, t)| Mutation::Insert(i, t)),
        (any::<usize>(), 1usize..64).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(mut data: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let len = data.len();
        match *m {
            Mutation::Flip(i, b) if len > 0 => data[i % len] = b,
            Mutation::Insert(i, t) => {
                let at = if len == 0 { 0 } else { i % (len + 1) };
                data.splice(at..at, TOKENS[t].bytes());
            }
            Mutation::Delete(i, n) if len > 0 => {
                let at = i % len;
                let end = (at + n).min(len);
                data.drain(at..end);
            }
            Mutation::Truncate(i) if len > 0 => data.truncate(i % len),
            _ => {}
        }
    }
    data
}

proptest! {
    #[test]
    fn random_bytes(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        exercise(&data);
    }

    #[test]
    fn token_soup(tokens in proptest::collection::vec(0..TOKENS.len(), 0..200)) {
        let s: String = tokens.iter().map(|&t| TOKENS[t]).collect();
        exercise(s.as_bytes());
    }

    #[test]
    fn mutated_fixtures(
        which in any::<usize>(),
        muts in proptest::collection::vec(mutation(), 1..12),
    ) {
        let f = fixtures();
        let data = mutate(f[which % f.len()].clone(), &muts);
        exercise(&data);
    }
}

#[test]
fn pathological_inputs() {
    exercise(&b"(".repeat(100_000));
    exercise(&b"(;".repeat(100_000));
    exercise(&b")".repeat(100_000));
    exercise(&b"(;C[".repeat(50_000));
    exercise(&b"(;B[aa]".repeat(20_000));
    exercise("(;C[]]]]]]]]]]]]]]]]]]]]]]".repeat(5_000).as_bytes());
    exercise(&[0u8; 10_000]);
    exercise(&[0xffu8; 10_000]);
    let mut s = String::from("(;SZ[9]");
    for _ in 0..100_000 {
        s.push_str("(;B[aa];W[aa]");
    }
    exercise(s.as_bytes());
}

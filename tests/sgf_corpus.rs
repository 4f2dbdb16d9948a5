//! The whole SGF corpus (`../shared/sgf-corpus`, or `KOSUMI_SGF_CORPUS`):
//! every file read, every tree written and read back unchanged, every tree
//! replayed under its own rules, and nothing panics. Prints the counts.
//!
//! Ignored by default (it reads outside the repository); run with
//! `cargo test --release --test sgf_corpus -- --ignored --nocapture`.

mod sgf_support;

use kosumi::sgf::{self, ReadOptions, ReplayOptions};
use sgf_support::sgf_files as files;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    match std::env::var_os("KOSUMI_SGF_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/sgf-corpus"),
    }
}

/// Files the corpus README lists as broken or illegal on purpose (syntax
/// or content), and folders of material illegal on purpose.
const ON_PURPOSE: [&str; 26] = [
    "format-edge/sgfc-testsuite/test.sgf",
    "sgf-parse/unclosed-property-value.sgf",
    "sgf-parse/missing-property-value.sgf",
    "sgf-parse/missing-first-semicolon.sgf",
    "sgf-parse/unescaped-bracket-in-comment.sgf",
    "sgf-parse/trailing-garbage-paren.sgf",
    "sgf-parse/two-moves-one-node.sgf",
    "sgf-parse/setup-and-move-in-one-node.sgf",
    "sgf-parse/invalid-move-value.sgf",
    "sgf-parse/unknown-game-GM37.sgf",
    "sgf-parse/compressed-list-unknown-game.sgf",
    "sgf-parse/mixed-games-collection.sgf",
    "littlego/Illegal_games/",
    "littlego/19x19/Fuego_vs._Fuego.sgf",
    "gogui/human-readable.sgf",
    "gogui/invalidmove.sgf",
    "gogui/size-after-invalid-points.sgf",
    "real-world-quirks/fox-broken-BR-swallows-WR-KM.sgf",
    "real-world-quirks/fox-moves-on-occupied-point.sgf",
    "superko/",
    "katago-testsgf/rectangular",
    "katago-testsgf/giant-37x37",
    "katago-testsgf/two-moves-in-one-node",
    "sgfc-testsuite/",
    "libsgfcplusplus/escaping.sgf",
    "libsgfcplusplus/compressed-point-list.sgf",
];

#[derive(Default, Debug)]
struct Counts {
    files: usize,
    files_unreadable: usize,
    files_unreadable_on_purpose: usize,
    trees: usize,
    clean: usize,
    clean_with_warnings: usize,
    illegal_move: usize,
    illegal_move_on_purpose: usize,
    refused: usize,
    refused_on_purpose: usize,
    tolerant_complete: usize,
    panics: usize,
}

#[test]
#[ignore]
fn whole_corpus() {
    let root = corpus();
    assert!(root.is_dir(), "no corpus at {}", root.display());
    let mut n = Counts::default();
    let mut surprises = Vec::new();
    for p in files(&root) {
        let rel = p.strip_prefix(&root).unwrap().to_string_lossy().to_string();
        let on_purpose = ON_PURPOSE.iter().any(|s| rel.contains(s));
        n.files += 1;
        let outcome = std::panic::catch_unwind(|| {
            let mut lines = Vec::new();
            let mut k = Counts::default();
            let c = match sgf::read_file(&p, ReadOptions::default()) {
                Ok(c) => c,
                Err(e) => {
                    k.files_unreadable += 1;
                    lines.push(format!("unreadable: {e}"));
                    return (k, lines);
                }
            };
            // parse(write(x)) == x
            let text = sgf::tree::write_collection(&c.trees);
            let again = sgf::read_str(&text, ReadOptions { strict: true }).expect("own output");
            assert!(again.trees == c.trees, "write/read changed {rel}");
            for (i, t) in c.trees.iter().enumerate() {
                k.trees += 1;
                match sgf::replay(t, &ReplayOptions::default()) {
                    Err(e) => {
                        k.refused += 1;
                        lines.push(format!("game {}: refused: {}: {}", i + 1, e.pos, e.kind));
                    }
                    Ok(r) => match &r.illegal {
                        Some(a) => {
                            k.illegal_move += 1;
                            lines.push(format!("game {}: illegal {a}", i + 1));
                        }
                        None => {
                            k.clean += 1;
                            if !r.warnings.is_empty() || !c.warnings.is_empty() {
                                k.clean_with_warnings += 1;
                            }
                        }
                    },
                }
                let tol = ReplayOptions {
                    tolerant: true,
                    ..ReplayOptions::default()
                };
                if let Ok(r) = sgf::replay(t, &tol) {
                    if r.illegal.is_none() {
                        k.tolerant_complete += 1;
                    }
                }
            }
            (k, lines)
        });
        match outcome {
            Err(_) => {
                n.panics += 1;
                surprises.push(format!("{rel}: PANIC"));
            }
            Ok((k, lines)) => {
                n.files_unreadable += k.files_unreadable;
                n.trees += k.trees;
                n.clean += k.clean;
                n.clean_with_warnings += k.clean_with_warnings;
                n.illegal_move += k.illegal_move;
                n.refused += k.refused;
                n.tolerant_complete += k.tolerant_complete;
                if on_purpose {
                    n.files_unreadable_on_purpose += k.files_unreadable;
                    n.illegal_move_on_purpose += k.illegal_move;
                    n.refused_on_purpose += k.refused;
                }
                for l in lines {
                    let tag = if on_purpose {
                        "on purpose"
                    } else {
                        "not listed as on purpose"
                    };
                    println!("{tag}: {rel}: {l}");
                    if !on_purpose {
                        surprises.push(format!("{rel}: {l}"));
                    }
                }
            }
        }
    }
    println!("{n:#?}");
    println!("not marked on purpose: {}", surprises.len());
    assert_eq!(n.panics, 0);
    assert!(n.trees >= 900, "{n:?}");
}

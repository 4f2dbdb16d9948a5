//! What the SGF tests share: where the fixtures are and the `*.sgf` files
//! below a folder. Each test binary uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The `sgf-fixtures` folder of this crate.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sgf-fixtures")
}

/// Every `*.sgf` file below `root`, sorted by path.
pub fn sgf_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "sgf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

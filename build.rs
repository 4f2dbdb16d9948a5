//! Build script: records the commit the binary is built from, for
//! `kosumi --version` and the analysis protocol's `query_version`. It runs
//! `git` on the local checkout only (no network); outside a git checkout,
//! or without git, the commit is left out and the build goes on.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=KOSUMI_GIT_HASH");
    let hash = std::env::var("KOSUMI_GIT_HASH")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| git(&["rev-parse", "HEAD"]));
    // Rebuild when HEAD moves: the HEAD file and the branch it points to.
    for path in [
        git(&["rev-parse", "--git-path", "HEAD"]),
        git(&["rev-parse", "--symbolic-full-name", "HEAD"])
            .and_then(|r| git(&["rev-parse", "--git-path", &r])),
    ]
    .into_iter()
    .flatten()
    {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    if let Some(p) = git(&["rev-parse", "--git-path", "packed-refs"]) {
        if std::path::Path::new(&p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    match hash {
        Some(h) if h.len() >= 7 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            println!("cargo:rustc-env=KOSUMI_GIT_HASH={h}");
            println!(
                "cargo:rustc-env=KOSUMI_LONG_VERSION={version} (commit {})",
                &h[..12.min(h.len())]
            );
        }
        _ => {
            println!("cargo:rustc-env=KOSUMI_GIT_HASH=");
            println!("cargo:rustc-env=KOSUMI_LONG_VERSION={version}");
        }
    }
}

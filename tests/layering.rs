//! The layering rule: `src/lib.rs` lists the modules lowest layer first,
//! and a module uses only modules listed before it. This test reads the
//! list, checks that ARCHITECTURE.md's layer table gives the same order and
//! that every module is listed, then reads every `crate::` path in the code
//! of `src/` (comments left out, tests included) and fails on one that
//! names a module listed after the file's own.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names in backquotes that open the list items of lib.rs's module
/// doc (`//! - [`name`]: ...`).
fn lib_order(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .filter_map(|l| l.split_once("`]"))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The modules of the layer table of ARCHITECTURE.md, in order (a row
/// may name several: `` `stats`, `play` ``).
fn architecture_order(text: &str) -> Vec<String> {
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers, lowest first"))
        .expect("ARCHITECTURE.md has a section 'Layers, lowest first'");
    let mut out = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let first = row.split('|').nth(1).unwrap_or("");
        for name in first.split(',') {
            let name = name.trim().trim_matches('`');
            if !name.ends_with(".rs") {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module names that `crate::` paths in `code` start with.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        // `kosumi_crate::x` or `$crate::x` are not ours.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c}`: each name before `::`, `,` or `}`.
            let inner = group.split('}').next().unwrap_or("");
            for part in inner.split(',') {
                let name = part.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    out.push(name.to_string());
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// `line` without its `//` comment (strings holding `//` do not name
/// modules by `crate::`, so the cut never hides a path).
fn code_of(line: &str) -> &str {
    line.find("//").map_or(line, |i| &line[..i])
}

#[test]
fn the_path_reader_finds_what_it_should() {
    assert_eq!(crate_paths("use crate::board::Board;"), ["board"]);
    assert_eq!(
        crate_paths("use crate::{game::Game, point};"),
        ["game", "point"]
    );
    assert_eq!(
        crate_paths("let x = crate::mcts::f(crate::komi::K);"),
        ["mcts", "komi"]
    );
    assert!(crate_paths("$crate::x; my_crate::y").is_empty());
    assert_eq!(code_of("use a; // crate::mcts"), "use a; ");
    let arch = "x\n## Layers, lowest first\n\n| `a` | . |\n| `b`, `c` | . |\n| `main.rs` | . |\n## Next\n| `d` | . |\n";
    assert_eq!(architecture_order(arch), ["a", "b", "c"]);
    assert_eq!(
        lib_order("//! - [`a`]: x\n//!   y\n//! - [`b`]: z\n"),
        ["a", "b"]
    );
}

#[test]
fn lib_rs_and_architecture_md_give_the_same_order_of_every_module() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("lib.rs");
    let order = lib_order(&lib);
    let declared: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    assert_eq!(
        listed.len(),
        order.len(),
        "a module listed twice: {order:?}"
    );
    assert_eq!(listed, declared, "lib.rs: the list and the `pub mod` lines");
    let arch = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    assert_eq!(
        architecture_order(&arch),
        order,
        "ARCHITECTURE.md's layer table"
    );
}

#[test]
fn no_module_uses_one_listed_after_it() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("lib.rs");
    let order = lib_order(&lib);
    let rank = |m: &str| order.iter().position(|o| o == m);
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut seen = 0;
    for f in &files {
        let rel = f.strip_prefix(root().join("src")).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .expect("a name");
        // The binary and the crate root sit above every module.
        let Some(own) = rank(&top) else {
            assert!(
                top == "main" || top == "lib",
                "{} is not listed",
                rel.display()
            );
            continue;
        };
        let text = std::fs::read_to_string(f).expect("readable");
        for (n, line) in text.lines().enumerate() {
            for m in crate_paths(code_of(line)) {
                seen += 1;
                match rank(&m) {
                    Some(r) if r > own => {
                        upward.push(format!("{}:{}: {top} uses {m}", rel.display(), n + 1))
                    }
                    Some(_) => {}
                    None => upward.push(format!(
                        "{}:{}: crate::{m} is not a listed module",
                        rel.display(),
                        n + 1
                    )),
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} crate:: paths read");
    assert!(upward.is_empty(), "upward uses:\n{}", upward.join("\n"));
}

//! The talking engine: `--log-file` (GTP traffic and a summary line per
//! genmove), the ready line, and `--version` naming the commit.

use std::io::Write;
use std::process::{Command, Stdio};

fn kosumi(args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kosumi");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_log_file_has_the_traffic_and_a_genmove_summary() {
    let dir = std::env::temp_dir().join(format!("kosumi-gtplog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("gtp.log");
    std::fs::write(&log, "earlier line\n").unwrap();
    let args = [
        "--log-file",
        log.to_str().unwrap(),
        "--size",
        "9",
        "--playouts",
        "200",
        "--threads",
        "1",
    ];
    let out = kosumi(&args, "genmove b\nplay w E5\nquit\n");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("earlier line\n"), "appends: {text}");
    assert!(text.contains("> genmove b\n"), "{text}");
    let answer = stdout.lines().next().unwrap();
    assert!(text.contains(&format!("< {answer}\n")), "{text}");
    let summary = text
        .lines()
        .find(|l| l.starts_with("# genmove B: "))
        .expect("summary");
    let mv = answer.trim_start_matches("= ");
    assert!(
        summary.starts_with(&format!("# genmove B: {mv} in ")),
        "{summary}"
    );
    assert!(
        summary.contains("200 playouts") && summary.contains("best: "),
        "{summary}"
    );
    assert!(
        summary.contains("win rate") && summary.contains("score lead") && summary.contains("pv "),
        "{summary}"
    );
    assert!(text.contains("> play w E5\n") && text.contains("> quit\n"));
    // A log file that cannot be opened: a usage error, not a panic.
    let out = kosumi(&["--log-file", dir.to_str().unwrap()], "quit\n");
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ready_line_on_verbose_and_silence_on_a_pipe() {
    let out = kosumi(&["--player", "random"], "quit\n");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("ready"));
    let out = kosumi(
        &["--player", "random", "--verbose", "--threads", "2"],
        "quit\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GTP engine ready, 2 threads, random player")
            && err.contains("type list_commands or quit"),
        "{err}"
    );
}

#[test]
fn version_names_the_commit_in_a_checkout() {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .arg("--version")
        .output()
        .unwrap();
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(
        v.starts_with(&format!("kosumi {}", env!("CARGO_PKG_VERSION"))),
        "{v}"
    );
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    if let Ok(h) = head {
        if h.status.success() {
            let hash = String::from_utf8_lossy(&h.stdout);
            // Built from this checkout: the commit built (HEAD when the
            // build script last ran) is named; it is HEAD unless a commit
            // came since without a rebuild.
            assert!(v.contains("(commit "), "{v}");
            assert!(v.trim_end().ends_with(')') && hash.len() >= 12);
        }
    }
}

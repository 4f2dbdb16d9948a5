//! `kosumi analysis` driven by tests/analysis_client.py, a client of
//! KataGo's analysis protocol written from KataGo's documentation. Skips
//! (with a note) where python3 is missing, unless KOSUMI_REQUIRE_PYTHON
//! is set (CI sets it).

use std::process::Command;

#[test]
fn katago_protocol_client() {
    let python = Command::new("python3").arg("--version").output();
    if python.is_err() || !python.as_ref().is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os("KOSUMI_REQUIRE_PYTHON").is_none(),
            "python3 is required (KOSUMI_REQUIRE_PYTHON is set)"
        );
        eprintln!("skipped: no python3");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/analysis_client.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kosumi"))
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "client failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("checks passed"), "{stdout}");
}

//! The version and the commit this binary was built from (set by
//! `build.rs` from the local git checkout; empty outside one).

/// The crate's release version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The full commit hash the build came from, if known.
pub fn git_hash() -> Option<&'static str> {
    let h = env!("KOSUMI_GIT_HASH");
    (!h.is_empty()).then_some(h)
}

/// `0.1.0 (commit 0123456789ab)`, or just the version outside a checkout.
pub const LONG_VERSION: &str = env!("KOSUMI_LONG_VERSION");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_version_starts_with_the_crate_version() {
        let v = LONG_VERSION;
        assert!(v.starts_with(VERSION));
        if let Some(h) = git_hash() {
            assert!(h.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(v.contains(&h[..7]));
        }
    }
}

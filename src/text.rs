//! Small helpers for text that comes from outside (files, GTP lines,
//! command-line values) and ends up in messages.

/// At most 40 characters of outside text, for quoting it in an error
/// message without echoing a whole hostile line.
pub fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_forty_characters_not_bytes() {
        assert_eq!(clip("short"), "short");
        let long: String = "é".repeat(50);
        assert_eq!(clip(&long).chars().count(), 40);
        assert_eq!(clip(&long), "é".repeat(40));
        assert_eq!(clip(""), "");
    }
}

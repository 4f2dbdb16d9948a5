//! The options of `kosumi regress` and the engine command they name.

use crate::gtp::options::GtpArgs;

/// Options of `kosumi regress`.
#[derive(clap::Args, Clone, Debug)]
pub struct RegressArgs {
    /// The `.tst` files; each runs with its folder as working directory.
    #[arg(value_name = "FILE.tst")]
    pub files: Vec<std::path::PathBuf>,
    /// The engine's command line, e.g. 'gnugo --mode gtp' (default: this
    /// Kosumi, `kosumi gtp` with the engine options given here).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// Engine processes at once: suites in parallel, or pieces of a suite
    /// each started with the suite's state replayed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Seconds a command may take before the engine counts as hung (it is
    /// then killed, the test fails and the engine is restarted; at most a
    /// day).
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS", value_parser = crate::settings::seconds)]
    pub timeout: f64,
    /// Print the results as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Run only shard I of N (0-based: of each suite the I-th of N runs
    /// of consecutive tests); `auto` or `auto/N` reads a Slurm or
    /// Kubernetes job array's index. Merge the shards' --json reports with
    /// `regress merge`.
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = |s: &str| s.parse::<crate::shard::ShardSpec>())]
    pub shard: Option<crate::shard::ShardSpec>,
    /// Options of Kosumi's own engine (ignored with --engine).
    #[command(flatten)]
    pub gtp: GtpArgs,
}

impl RegressArgs {
    /// The engine's command line: `--engine`, or this program's `gtp` with
    /// the engine options given, each word quoted for
    /// [`crate::play::client::split_command_line`].
    ///
    /// # Errors
    /// A message when this program's path cannot be found.
    pub fn engine_command(&self) -> Result<String, String> {
        if let Some(e) = &self.engine {
            return Ok(e.clone());
        }
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let mut words = vec![shell_quote(&exe.to_string_lossy())];
        words.extend(self.gtp.words().iter().map(|w| shell_quote(w)));
        Ok(words.join(" "))
    }
}

/// `word` quoted for [`crate::play::client::split_command_line`].
pub fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::client::split_command_line;

    #[test]
    fn quoted_words_split_back_to_themselves() {
        for w in ["plain", "with space", "it's", "a'b'c", ""] {
            let line = format!("{} {}", shell_quote(w), shell_quote("next"));
            let words = split_command_line(&line).expect("splits");
            assert_eq!(words, vec![w.to_string(), "next".to_string()], "{w:?}");
        }
    }
}

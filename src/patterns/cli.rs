//! The command line's options of `kosumi patterns` (`train`, `eval`).

/// The actions of `kosumi patterns`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum PatternsAction {
    /// Fits a pattern table on the records not held out and writes it.
    Train {
        /// Directories of SGF records (searched recursively).
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<std::path::PathBuf>,
        /// The table to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Hold out one file in N (by a hash of the file name; 0: none).
        #[arg(long, default_value_t = 10)]
        holdout: u32,
        /// MM iterations.
        #[arg(long, default_value_t = 25)]
        iterations: usize,
        /// A diamond enters the table when the moves played show it at
        /// least this many times.
        #[arg(long, default_value_t = 3)]
        min_count: u32,
        /// Virtual wins and losses against a gamma-1 opponent per feature
        /// (the prior; Coulom uses 1).
        #[arg(long, default_value_t = 1.0)]
        prior: f64,
        /// Leave these feature families out (comma-separated), for
        /// ablations.
        #[arg(long, value_delimiter = ',', value_parser = parse_family)]
        without: Vec<super::Family>,
    },
    /// Move prediction on the held-out records: top-1 and top-5 per board
    /// size, and top-1 with each feature family's gammas set to 1.
    Eval {
        /// Directories of SGF records (searched recursively).
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<std::path::PathBuf>,
        /// The table (default: the one built in).
        #[arg(long)]
        table: Option<std::path::PathBuf>,
        /// The hold-out used in training (0: evaluate on every file).
        #[arg(long, default_value_t = 10)]
        holdout: u32,
    },
}

/// A feature family by its name, for `--without`.
///
/// # Errors
/// A message naming the unknown family.
pub fn parse_family(s: &str) -> Result<super::Family, String> {
    super::Family::from_name(s).ok_or_else(|| format!("unknown feature family '{s}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_parse_by_name_and_unknown_ones_are_refused() {
        for f in super::super::FAMILIES {
            assert_eq!(parse_family(f.name()), Ok(f));
        }
        assert!(parse_family("no-such-family")
            .unwrap_err()
            .contains("no-such-family"));
    }
}

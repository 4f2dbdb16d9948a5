//! The options of `kosumi gtp` (also the command line's default): the
//! game at start, the engine's own options, and the search options every
//! command shares ([`SearchArgs`]); [`GtpArgs::engine`] builds the engine
//! from them.

use super::{Config, Engine};
use crate::komi::Komi;
use crate::mcts::{MctsPlayer, PlayerKind, SearchArgs};
use crate::rules::Rules;

/// Options of the GTP engine.
#[derive(clap::Args, Clone, Debug)]
pub struct GtpArgs {
    /// Rules: chinese, japanese, aga, new_zealand, tromp-taylor.
    #[arg(long, default_value = "chinese", value_parser = crate::settings::rules)]
    pub rules: Rules,
    /// Komi (finite, at most 1000 either way).
    #[arg(long, default_value = "7.5", allow_negative_numbers = true, value_parser = crate::settings::komi)]
    pub komi: Komi,
    /// Board size at start.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u64).range(2..=25))]
    pub size: u64,
    /// Think on the opponent's time (until the next command arrives).
    #[arg(long)]
    pub ponder: bool,
    /// Random seed of the player.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Log more to stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Append the GTP traffic and a summary of each genmove (playouts,
    /// win rate, best moves, why it passed or resigned) to FILE.
    #[arg(long, value_name = "FILE")]
    pub log_file: Option<std::path::PathBuf>,
    /// Answer `version` with TEXT instead of Kosumi's version (as KataGo's
    /// -override-version), for a GUI that reads the version as another
    /// engine's: Lizzie warns unless a non-KataGo engine's version is 0.15
    /// or later. `name` still answers Kosumi.
    #[arg(long, value_name = "TEXT")]
    pub override_version: Option<String>,
    /// The search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The search threads of `kosumi gtp` unless `--threads` says otherwise:
/// all cores (the engine of a GUI has the machine to itself).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl GtpArgs {
    /// Checks what clap's parsers cannot: the time options together, and
    /// `--override-version` as one token of printable ASCII (it goes into
    /// a response line as it is).
    ///
    /// # Errors
    /// A message for the first option refused.
    pub fn check(&self) -> Result<(), String> {
        self.search.check()?;
        if self
            .override_version
            .as_deref()
            .is_some_and(|v| v.is_empty() || !v.bytes().all(|b| b.is_ascii_graphic() && b != b'#'))
        {
            return Err("--override-version takes printable ASCII without spaces or '#'".into());
        }
        Ok(())
    }

    /// The search threads the engine runs with.
    pub fn threads(&self) -> usize {
        self.search.threads.unwrap_or_else(default_threads)
    }

    /// The engine's configuration.
    pub fn config(&self) -> Config {
        Config {
            size: self.size as usize,
            komi: self.komi,
            rules: self.rules,
            seed: self.seed,
            playouts: self.search.playouts,
            verbose: self.verbose,
            ponder: self.ponder,
            version: self.override_version.clone(),
        }
    }

    /// The line that tells a person at a terminal the engine is ready.
    pub fn ready_line(&self) -> String {
        super::log::ready_line(
            &self.config(),
            self.threads(),
            self.search.time,
            self.search.kind.name(),
        )
    }

    /// The engine these options describe, with the player `--player`
    /// names.
    pub fn engine(&self) -> Engine {
        match self.search.kind {
            PlayerKind::Random => Engine::with_random_player(self.config()),
            PlayerKind::Policy => Engine::new(
                self.config(),
                Box::new(crate::mcts::nn_prior::PolicyPlayer::new(
                    self.search.policy_network(),
                )),
            ),
            PlayerKind::Search => {
                let cfg = self.search.search_config(self.seed, self.threads());
                Engine::with_search(self.config(), MctsPlayer::new(cfg))
            }
        }
    }

    /// These options as the words of a `kosumi gtp` command line (the
    /// program's name not included), for `regress` to start the engine.
    pub fn words(&self) -> Vec<String> {
        let mut w = vec![
            "gtp".to_string(),
            format!("--rules={}", self.rules),
            format!("--komi={}", self.komi),
            format!("--size={}", self.size),
            format!("--seed={}", self.seed),
        ];
        w.extend(self.search.words());
        if let Some(v) = &self.override_version {
            w.push(format!("--override-version={v}"));
        }
        for (on, flag) in [(self.ponder, "--ponder"), (self.verbose, "--verbose")] {
            if on {
                w.push(flag.to_string());
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        gtp: GtpArgs,
    }

    fn parse(args: &[&str]) -> GtpArgs {
        Cli::try_parse_from(std::iter::once("kosumi").chain(args.iter().copied()))
            .expect("options")
            .gtp
    }

    #[test]
    fn defaults_are_the_engines() {
        let a = parse(&[]);
        assert!(a.check().is_ok());
        assert_eq!(a.search.kind, PlayerKind::Search);
        assert_eq!(a.threads(), default_threads());
        let c = a.config();
        assert_eq!((c.size, c.seed, c.playouts), (19, 1, None));
        assert_eq!(c.rules, Rules::CHINESE);
        assert_eq!(c.komi, Komi::default());
        assert!(!c.ponder && !c.verbose && c.version.is_none());
    }

    #[test]
    fn the_words_give_the_same_options_back() {
        let a = parse(&[
            "--size=9",
            "--komi=6.5",
            "--rules=japanese",
            "--seed=4",
            "--player=random",
            "--threads=2",
            "--playouts=50",
            "--set=uct_c=0.3",
            "--ponder",
            "--override-version=0.15",
        ]);
        let words = a.words();
        assert_eq!(words[0], "gtp");
        let b = parse(&words[1..].iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(b.words(), words);
        assert_eq!(b.search, a.search);
        assert_eq!(b.config().size, 9);
        assert_eq!(b.config().version.as_deref(), Some("0.15"));
    }

    #[test]
    fn bad_combinations_are_refused() {
        assert!(parse(&["--override-version=a b"]).check().is_err());
        assert!(parse(&["--override-version=#1"]).check().is_err());
        assert!(parse(&["--lag=61"]).check().is_err());
    }
}

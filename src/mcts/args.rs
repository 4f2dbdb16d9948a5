//! [`SearchArgs`]: the search options of the command line, one clap
//! struct flattened into `gtp`, `match`, `selfplay`, `regress` and
//! `bench`, so that each option means the same thing everywhere, and
//! [`SearchArgs::search_config`], the one function that builds a
//! [`SearchConfig`] from them.
//!
//! One default differs by command: `--threads` is all cores for `gtp`
//! (a GUI's engine) and 1 for `match`, `selfplay` and `bench` (runs that
//! play many games at once, and measurements); the caller passes it to
//! [`SearchArgs::search_config`].

use super::nn_prior::{parse_nn, NnArg, NnNet};
use super::prior::PriorSource;
use super::tune::{self, Setting};
use super::SearchConfig;
use crate::player::DEFAULT_LAG;

/// Which of our players to build.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PlayerKind {
    /// The uniform random player (fast; the library default, for tests).
    #[default]
    Random,
    /// The Monte-Carlo tree search player (the command line's default).
    Search,
    /// The network's top move without search
    /// ([`super::nn_prior::PolicyPlayer`]), for measuring the network.
    Policy,
}

impl PlayerKind {
    /// `random` or `search`.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Search => "search",
            PlayerKind::Policy => "policy",
        }
    }
}

impl std::str::FromStr for PlayerKind {
    type Err = String;

    /// `search` (also `mcts`), `random` or `policy`.
    fn from_str(s: &str) -> Result<PlayerKind, String> {
        match s {
            "search" | "mcts" => Ok(PlayerKind::Search),
            "random" => Ok(PlayerKind::Random),
            "policy" => Ok(PlayerKind::Policy),
            _ => Err(format!("unknown player '{s}' (search, random, policy)")),
        }
    }
}

/// The `--set` parser: a [`Setting`] of the knob table, or `list`, which
/// asks for the table ([`SearchArgs::wants_listing`]).
fn parse_set(s: &str) -> Result<SetArg, String> {
    if s.trim() == "list" {
        return Ok(SetArg::List);
    }
    Setting::parse(s).map(SetArg::Set)
}

/// One `--set` option: a setting, or `list`.
#[derive(Clone, Debug, PartialEq)]
pub enum SetArg {
    /// `KEY=VALUE`, checked against the knob table.
    Set(Setting),
    /// `list`: print the knob table and exit.
    List,
}

/// The search options every command that builds our player shares.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct SearchArgs {
    /// The player: `search` (the Monte-Carlo tree search, default; also
    /// spelled `mcts`), `random` (for tests) or `policy` (the network's
    /// top move without search, for measurement; the network of `--nn`,
    /// the built-in one by default).
    #[arg(
        long = "player",
        value_name = "search|random|policy",
        default_value = "search"
    )]
    pub kind: PlayerKind,
    /// The network as the search's prior: `auto` (the default: the
    /// network built into the binary on the board sizes it was trained on,
    /// 19x19, and none elsewhere), `builtin` (that network; also `--nn`
    /// alone), a weights file, or `none`. With `builtin` or a file, a board
    /// size the network was not trained on gets a warning and a search
    /// without it.
    #[arg(
        long,
        value_name = "auto|builtin|FILE|none",
        value_parser = parse_nn,
        num_args = 0..=1,
        default_missing_value = "builtin"
    )]
    pub nn: Option<NnArg>,
    /// Priors of new tree nodes: `patterns` (the learned move ratings, the
    /// default) or `hand` (the hand-written knowledge alone).
    #[arg(long, value_name = "patterns|hand", default_value = "patterns")]
    pub priors: PriorSource,
    /// Playouts per move (default: limited by time; in `gtp` also the
    /// playouts of `kosumi-pv`, `kosumi-candidates` and of analysis
    /// outside the I/O loop, 1000 by default).
    #[arg(long, value_parser = crate::settings::playouts)]
    pub playouts: Option<u64>,
    /// Seconds per move (a cap besides the clock; default: the clock, or
    /// 1 s per move without one). At most one day.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// The longest think for one move, whatever the clock (default 60; at
    /// most one day).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub max_move_time: Option<f64>,
    /// Seconds of lag charged to the own clock per move on top of the time
    /// measured, and kept back per move (default 0.05; 0 to 60).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub lag: Option<f64>,
    /// Search threads (default: all cores for `gtp`, 1 elsewhere; at most
    /// 4 x the cores).
    #[arg(long, value_parser = crate::settings::threads)]
    pub threads: Option<usize>,
    /// Tree memory cap in MiB (default: a tree of 4,000,000 nodes).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    pub max_memory: Option<u64>,
    /// Never resign.
    #[arg(long)]
    pub no_resign: bool,
    /// Dynamic komi in handicap games: points per handicap stone at the
    /// start, falling to nothing by mid-game (default 7; 0 turns it off).
    #[arg(long, value_name = "POINTS", value_parser = crate::settings::dyn_komi)]
    pub dyn_komi: Option<f32>,
    /// A search setting KEY=VALUE of the knob table (repeatable; for A/B
    /// matches); `--set list` prints the keys with their ranges.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_set)]
    pub settings: Vec<SetArg>,
}

impl Default for SearchArgs {
    /// The random player (the library's default, for tests) with every
    /// search option at its default.
    fn default() -> SearchArgs {
        SearchArgs {
            kind: PlayerKind::Random,
            nn: None,
            priors: PriorSource::Patterns,
            playouts: None,
            time: None,
            max_move_time: None,
            lag: None,
            threads: None,
            max_memory: None,
            no_resign: false,
            dyn_komi: None,
            settings: Vec::new(),
        }
    }
}

impl SearchArgs {
    /// Whether `--set list` was given: print [`tune::listing`] and exit.
    pub fn wants_listing(&self) -> bool {
        self.settings.contains(&SetArg::List)
    }

    /// The `--set` settings, in order.
    pub fn settings(&self) -> impl Iterator<Item = &Setting> {
        self.settings.iter().filter_map(|s| match s {
            SetArg::Set(s) => Some(s),
            SetArg::List => None,
        })
    }

    /// Checks what clap's parsers cannot: `--time`, `--max-move-time` and
    /// `--lag` together (the clock's own check), and that `--player
    /// policy` has a network.
    ///
    /// # Errors
    /// The clock's message, or one for `--player policy --nn none`.
    pub fn check(&self) -> Result<(), String> {
        if self.kind == PlayerKind::Policy && self.nn == Some(NnArg::Off) {
            return Err(
                "--player policy plays a network: --nn builtin or a weights file, not none".into(),
            );
        }
        crate::clock::TimeOptions {
            time: self.time,
            max_move_time: self.max_move_time,
            lag: self.lag,
        }
        .check()
        .map_err(|e| e.to_string())
    }

    /// The network of `--player policy`: `--nn`'s, the built-in one when
    /// `--nn` is not given (or is `none`, which [`SearchArgs::check`]
    /// refuses).
    pub fn policy_network(&self) -> NnNet {
        match &self.nn {
            Some(NnArg::Net(n)) => n.clone(),
            _ => NnNet::builtin(),
        }
    }

    /// The search configuration these options give, seeded with `seed`,
    /// with `default_threads` threads unless `--threads` says otherwise.
    /// Settings not named keep [`SearchConfig::default`]; the `--set`
    /// settings apply last, in order.
    pub fn search_config(&self, seed: u64, default_threads: usize) -> SearchConfig {
        let mut cfg = SearchConfig {
            threads: self.threads.unwrap_or(default_threads).max(1),
            seed,
            max_playouts: self.playouts,
            time_per_move: self.time,
            no_resign: self.no_resign,
            prior_source: self.priors,
            ..SearchConfig::default()
        };
        cfg.nn.net = match &self.nn {
            Some(n) => n.net().cloned(),
            None => Some(NnNet::auto()),
        };
        if let Some(k) = self.dyn_komi {
            cfg.dyn_komi_per_stone = k;
        }
        if let Some(t) = self.max_move_time {
            cfg.max_move_time = t;
        }
        if let Some(l) = self.lag {
            cfg.lag_margin = l;
        }
        if let Some(mib) = self.max_memory {
            cfg.max_nodes = SearchConfig::nodes_for_memory(mib as usize * 1024 * 1024);
        }
        for s in self.settings() {
            s.apply(&mut cfg);
        }
        cfg
    }

    /// The player and its settings, for records: `search playouts=300
    /// time=- threads=1`, then the options that differ from their
    /// defaults. `threads` is the count the player runs with.
    pub fn describe(&self, threads: usize) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        let mut d = format!(
            "{} playouts={} time={} threads={}",
            self.kind.name(),
            opt(self.playouts.map(|p| p.to_string())),
            opt(self.time.map(|t| t.to_string())),
            threads.max(1)
        );
        if let Some(k) = self.dyn_komi {
            d.push_str(&format!(" dyn-komi={k}"));
        }
        if let Some(t) = self.max_move_time {
            d.push_str(&format!(" max-move-time={t}"));
        }
        if let Some(l) = self.lag {
            d.push_str(&format!(" lag={l}"));
        }
        if self.priors != PriorSource::Patterns {
            d.push_str(&format!(" priors={}", self.priors));
        }
        if let Some(NnArg::Net(n)) = &self.nn {
            d.push_str(&format!(" nn={}", n.name()));
        }
        if let Some(m) = self.max_memory {
            d.push_str(&format!(" max-memory={m}"));
        }
        if self.no_resign {
            d.push_str(" no-resign");
        }
        for s in self.settings() {
            d.push_str(&format!(" set:{}", s.text()));
        }
        d
    }

    /// Every knob of [`tune::KNOBS`] with the value this player's search
    /// uses (its default, or the `--set` that changed it), as
    /// `key=value` comma-separated: the settings line of a match or a
    /// self-play run holds it, so that a run resumes or merges only with
    /// a build that plays the same search.
    pub fn knob_values(&self) -> String {
        let cfg = self.search_config(0, 1);
        let values: Vec<String> = tune::KNOBS
            .iter()
            .map(|k| format!("{}={}", k.key, (k.get)(&cfg)))
            .collect();
        values.join(",")
    }

    /// The lag our player charges its own clock per move.
    pub fn lag(&self) -> f64 {
        self.lag.unwrap_or(DEFAULT_LAG)
    }

    /// These options as command-line words (`--playouts=300`, ...), the
    /// defaults left out except `--player` and `--priors`: what `regress`
    /// passes to the `kosumi gtp` it starts.
    pub fn words(&self) -> Vec<String> {
        let mut w = vec![
            format!("--player={}", self.kind.name()),
            format!("--priors={}", self.priors),
        ];
        let mut opt = |name: &str, v: Option<String>| {
            if let Some(v) = v {
                w.push(format!("--{name}={v}"));
            }
        };
        opt("playouts", self.playouts.map(|v| v.to_string()));
        opt("time", self.time.map(|v| v.to_string()));
        opt("max-move-time", self.max_move_time.map(|v| v.to_string()));
        opt("lag", self.lag.map(|v| v.to_string()));
        opt("threads", self.threads.map(|v| v.to_string()));
        opt("max-memory", self.max_memory.map(|v| v.to_string()));
        opt("dyn-komi", self.dyn_komi.map(|v| v.to_string()));
        opt("nn", self.nn.as_ref().map(|n| n.text().to_string()));
        for s in self.settings() {
            w.push(format!("--set={}", s.text()));
        }
        if self.no_resign {
            w.push("--no-resign".to_string());
        }
        w
    }
}

/// The knob table as `--set list` prints it.
pub fn listing() -> String {
    tune::listing()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        search: SearchArgs,
    }

    fn parse(args: &[&str]) -> Result<SearchArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("kosumi").chain(args.iter().copied())).map(|c| c.search)
    }

    #[test]
    fn no_options_give_the_default_config_with_the_commands_threads() {
        let a = parse(&[]).expect("no options");
        assert_eq!(a.kind, PlayerKind::Search);
        let c = a.search_config(9, 3);
        let mut d = SearchConfig {
            threads: 3,
            seed: 9,
            ..SearchConfig::default()
        };
        // The command line's default network is `auto`; the library's
        // default configuration has none.
        assert!(d.nn.net.is_none());
        d.nn.net = Some(NnNet::auto());
        assert_eq!(format!("{c:?}"), format!("{d:?}"));
        assert_eq!(a.describe(1), "search playouts=- time=- threads=1");
    }

    #[test]
    fn each_option_lands_in_the_config() {
        let a = parse(&[
            "--player=mcts",
            "--priors=hand",
            "--playouts=300",
            "--time=2.5",
            "--max-move-time=9",
            "--lag=0.2",
            "--threads=2",
            "--max-memory=64",
            "--no-resign",
            "--dyn-komi=3",
            "--set",
            "rave_equiv=1200",
            "--set=uct_c=0.5",
        ])
        .expect("options");
        assert_eq!(a.kind, PlayerKind::Search);
        let c = a.search_config(5, 7);
        assert_eq!(c.threads, 2);
        assert_eq!(c.seed, 5);
        assert_eq!(c.prior_source, PriorSource::Hand);
        assert_eq!(c.max_playouts, Some(300));
        assert_eq!(c.time_per_move, Some(2.5));
        assert_eq!(c.max_move_time, 9.0);
        assert_eq!(c.lag_margin, 0.2);
        assert_eq!(c.max_nodes, SearchConfig::nodes_for_memory(64 << 20));
        assert!(c.no_resign);
        assert_eq!(c.dyn_komi_per_stone, 3.0);
        assert_eq!(c.rave_equiv, 1200.0);
        assert_eq!(c.uct_c, 0.5);
        assert_eq!(a.lag(), 0.2);
        // The words give the same options back.
        let mut words = vec!["kosumi".to_string()];
        words.extend(a.words());
        let again = Cli::try_parse_from(words).expect("words").search;
        assert_eq!(again, a);
        assert_eq!(
            a.describe(2),
            "search playouts=300 time=2.5 threads=2 dyn-komi=3 max-move-time=9 lag=0.2 \
             priors=hand max-memory=64 no-resign set:rave_equiv=1200 set:uct_c=0.5"
        );
    }

    #[test]
    fn the_player_takes_the_same_values_everywhere() {
        for (word, kind) in [
            ("search", PlayerKind::Search),
            ("mcts", PlayerKind::Search),
            ("random", PlayerKind::Random),
        ] {
            assert_eq!(parse(&["--player", word]).expect(word).kind, kind);
        }
        assert!(parse(&["--player", "gnugo"]).is_err());
    }

    #[test]
    fn the_network_option_lands_in_the_config_and_goes_back_to_words() {
        for (args, name) in [
            (&["--nn"][..], "builtin"),
            (&["--nn", "builtin"][..], "builtin"),
        ] {
            let a = parse(args).expect("nn");
            let c = a.search_config(1, 1);
            assert_eq!(c.nn.net.as_ref().map(|n| n.name()), Some(name));
            assert!(a.describe(1).ends_with(" nn=builtin"), "{}", a.describe(1));
            let mut words = vec!["kosumi".to_string()];
            words.extend(a.words());
            assert!(words.contains(&"--nn=builtin".to_string()));
            assert_eq!(Cli::try_parse_from(words).expect("words").search, a);
        }
        let off = parse(&[
            "--nn",
            "none",
            "--set",
            "nn_mix=0.25",
            "--set",
            "nn_visits=9",
        ])
        .expect("none");
        let c = off.search_config(1, 1);
        assert!(c.nn.net.is_none());
        assert_eq!((c.nn.mix, c.nn.visits), (0.25, 9));
        assert!(!off.describe(1).contains("nn="));
        let default = parse(&[]).expect("default").search_config(1, 1);
        assert_eq!(default.nn.net.as_ref().map(NnNet::name), Some("auto"));
        assert_eq!(default.nn.visits, 256);
        let auto = parse(&["--nn", "auto"]).expect("auto");
        assert_eq!(auto.search_config(1, 1).nn.net, default.nn.net);
        assert_eq!(auto.words().last().map(String::as_str), Some("--nn=auto"));
        assert!(parse(&["--nn", "/no/such/file.bin"]).is_err());
        // The policy player needs a network; the built-in one by default.
        let p = parse(&["--player", "policy"]).expect("policy");
        assert_eq!(p.kind, PlayerKind::Policy);
        assert!(p.check().is_ok());
        assert_eq!(p.policy_network().name(), "builtin");
        let e = parse(&["--player", "policy", "--nn", "none"])
            .expect("parsed")
            .check()
            .expect_err("no network");
        assert!(e.contains("--player policy"), "{e}");
    }

    #[test]
    fn bad_settings_are_refused_and_list_is_a_request() {
        for bad in ["nonsense=1", "rave_equiv=-1", "uct_c", "lgrf=yes"] {
            let e = parse(&["--set", bad]).expect_err(bad).to_string();
            assert!(e.contains("--set") && e.contains("rave_equiv"), "{e}");
        }
        let a = parse(&["--set", "list"]).expect("list");
        assert!(a.wants_listing());
        assert!(!parse(&[]).expect("none").wants_listing());
        assert!(listing().contains("resign_threshold"));
    }

    #[test]
    fn the_time_options_are_checked_together() {
        assert!(parse(&["--lag=-1"]).expect("parsed").check().is_err());
        assert!(parse(&["--time=1", "--lag=0.1"])
            .expect("parsed")
            .check()
            .is_ok());
    }
}

/// The `--nn` option of the commands that search without [`SearchArgs`]
/// (`analysis`, `analyze`): the network as the search's prior, with the
/// knobs' defaults.
#[derive(clap::Args, Clone, Debug)]
pub struct NnOption {
    /// The network as the search's prior: `auto` (the default: the
    /// built-in network on the sizes it was trained on, none elsewhere),
    /// `builtin` (also `--nn` alone), a weights file, or `none`; see
    /// docs/nn.md.
    #[arg(
        long,
        value_name = "auto|builtin|FILE|none",
        value_parser = parse_nn,
        num_args = 0..=1,
        default_value = "auto",
        default_missing_value = "builtin"
    )]
    pub nn: NnArg,
}

impl NnOption {
    /// The network prior's settings: this network, the default knobs.
    pub fn config(&self) -> super::nn_prior::NnPriorConfig {
        super::nn_prior::NnPriorConfig {
            net: self.nn.net().cloned(),
            ..Default::default()
        }
    }
}

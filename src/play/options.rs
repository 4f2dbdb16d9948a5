//! The command line's options of `selfplay` and `match`, the
//! configurations they build, and how a match writes each finished game
//! (its SGF record, then its row of the table).

use super::game::GameConfig;
use super::match_table::{append_match_row, MatchConfig, MatchError, MatchGame, MatchRow};
use super::record::{record_to_sgf, write_atomic};
use super::selfplay::{sgf_name, SelfplayConfig};
use crate::clock::TimeSettings;
use crate::komi::Komi;
use crate::mcts::SearchArgs;
use crate::rules::Rules;
use crate::shard::{Shard, ShardSpec};
use crate::sprt::SprtConfig;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Settings shared by `selfplay` and `match`.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// Number of games (for a sharded run: of the whole run).
    #[arg(long, default_value_t = 10, value_parser = crate::settings::games)]
    pub games: usize,
    /// Board size.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u64).range(2..=25))]
    pub size: u64,
    /// Komi (finite, at most 1000 either way).
    #[arg(long, default_value = "7.5", allow_negative_numbers = true, value_parser = crate::settings::komi)]
    pub komi: Komi,
    /// Rules: chinese, japanese, aga, new_zealand, tromp-taylor.
    #[arg(long, default_value = "chinese", value_parser = crate::settings::rules)]
    pub rules: Rules,
    /// Fixed handicap stones for Black (White moves first); 0 for none.
    #[arg(long, default_value_t = 0)]
    pub handicap: usize,
    /// Base random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Moves (passes counted) after which a game is stopped and counted;
    /// default 3 x size x size.
    #[arg(long, value_parser = crate::settings::max_moves)]
    pub max_moves: Option<usize>,
    /// Print the summary as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Kosumi's search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

impl GameArgs {
    /// The game settings these options give.
    pub fn game_config(&self) -> GameConfig {
        let mut cfg = GameConfig::new(self.size as usize);
        cfg.komi = self.komi;
        cfg.rules = self.rules;
        cfg.handicap = self.handicap;
        if let Some(m) = self.max_moves {
            cfg.max_moves = m;
        }
        cfg
    }
}

/// Options of `kosumi selfplay`.
#[derive(clap::Args, Clone, Debug)]
pub struct SelfplayArgs {
    /// The game settings and Kosumi's search options.
    #[command(flatten)]
    pub game: GameArgs,
    /// Output directory for the SGF files and the table.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = crate::settings::jobs)]
    pub jobs: usize,
    /// Play only shard I of N (0-based; the games with index % N == I);
    /// `auto` or `auto/N` reads a Slurm or Kubernetes job array's index.
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = |s: &str| s.parse::<ShardSpec>())]
    pub shard: Option<ShardSpec>,
    /// Also write each game's root visit counts beside its record
    /// (`game-NNNNNN.visits`), the policy targets of `nn export`.
    #[arg(long)]
    pub visits: bool,
}

/// The shard `--shard` names (the whole run without it), `auto` read from
/// the process environment.
///
/// # Errors
/// The shard's own message, prefixed with the option's name.
pub fn resolve_shard(spec: Option<ShardSpec>) -> Result<Shard, String> {
    spec.map_or(Ok(Shard::default()), |s| {
        s.resolve_from_process()
            .map_err(|e| format!("--shard: {e}"))
    })
}

impl SelfplayArgs {
    /// The self-play run these options describe.
    ///
    /// # Errors
    /// A message when `--out` is missing, the time options do not go
    /// together or the shard cannot be resolved.
    pub fn config(&self) -> Result<SelfplayConfig, String> {
        let Some(out) = self.out.clone() else {
            return Err("--out DIR is required".into());
        };
        self.game.search.check()?;
        let shard = resolve_shard(self.shard)?;
        Ok(SelfplayConfig {
            game: self.game.game_config(),
            games: self.game.games,
            seed: self.game.seed,
            player: self.game.search.clone(),
            jobs: self.jobs,
            shard,
            out,
            visits: self.visits,
        })
    }
}

/// Options of `kosumi match`.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchArgs {
    /// The game settings and Kosumi's search options.
    #[command(flatten)]
    pub game: GameArgs,
    /// The opponent's GTP command line, e.g. 'gnugo --mode gtp --level 10'.
    /// Required (optional to clap only because `match summarize` takes
    /// none).
    #[arg(long)]
    pub opponent: Option<String>,
    /// A referee's command line; games ending by passes or the move cap
    /// are scored with its final_score instead of Kosumi's own count.
    #[arg(long)]
    pub referee: Option<String>,
    /// Seconds a side may take for one move (or a command) before it loses
    /// on time (at most a day).
    #[arg(long, default_value_t = 60.0, value_parser = crate::settings::seconds)]
    pub move_timeout: f64,
    /// A game clock for both sides: MAIN (sudden death), MAIN+PERIODxN
    /// (byo-yomi, N periods), MAIN+PERIOD/N (Canadian, N stones a period)
    /// or none; seconds, e.g. 20, 0+1x1, 600+30x5, 600+300/25.
    #[arg(long, value_name = "SPEC", default_value = "none", value_parser = parse_clock)]
    pub clock: TimeSettings,
    /// The opponent's clock when it differs from --clock (same forms; none
    /// leaves it unclocked, for engines that cannot keep a short clock).
    #[arg(long, value_name = "SPEC", value_parser = parse_clock)]
    pub opponent_clock: Option<TimeSettings>,
    /// With --clock: send each side `time_left` before each of its moves.
    #[arg(long, value_name = "yes|no", default_value = "no", action = clap::ArgAction::Set, value_parser = crate::settings::yes_no)]
    pub time_left: bool,
    /// Output directory for the SGF files (none written without it).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play only shard I of N (0-based; the games with index % N == I, or
    /// with --sprt the pairs); `auto` or `auto/N` reads a Slurm or
    /// Kubernetes job array's index. Needs --out.
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = |s: &str| s.parse::<ShardSpec>())]
    pub shard: Option<ShardSpec>,
    /// Sequential probability ratio test: stop as soon as the games
    /// accept ELO1 (Kosumi that much stronger) or ELO0; `--games` is the
    /// most games played. Games come in pairs, one seed and colours
    /// swapped. ALPHA and BETA default to 0.05.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = parse_sprt)]
    pub sprt: Option<SprtConfig>,
}

fn parse_sprt(s: &str) -> Result<SprtConfig, String> {
    SprtConfig::parse(s).map_err(|e| e.to_string())
}

fn parse_clock(s: &str) -> Result<TimeSettings, String> {
    s.parse()
        .map_err(|e: crate::clock::ClockSpecError| e.to_string())
}

impl MatchArgs {
    /// The match these options describe.
    ///
    /// # Errors
    /// A message when `--opponent` is missing, the time options do not
    /// go together, or the shard cannot be resolved or has no `--out`.
    pub fn config(&self) -> Result<MatchConfig, String> {
        let Some(opponent) = self.opponent.clone() else {
            return Err("--opponent CMD is required".into());
        };
        self.game.search.check()?;
        let shard = resolve_shard(self.shard)?;
        if shard.count > 1 && self.out.is_none() {
            return Err("--shard needs --out (the shards' tables are merged)".into());
        }
        let mut game = self.game.game_config();
        game.move_timeout = Some(Duration::from_secs_f64(self.move_timeout));
        game.clock = [self.clock; 2];
        game.send_time_left = self.time_left;
        Ok(MatchConfig {
            game,
            games: self.game.games,
            player: self.game.search.clone(),
            seed: self.game.seed,
            opponent,
            referee: self.referee.clone(),
            setup_timeout: Duration::from_secs_f64(self.move_timeout.max(10.0)),
            sprt: self.sprt,
            opponent_clock: self.opponent_clock,
            shard,
        })
    }
}

/// The root comment of a match game's SGF record.
pub fn match_game_comment(cfg: &MatchConfig, g: &MatchGame) -> String {
    format!(
        "Kosumi match game {} (0-based), Kosumi {} ({}), seed {}.\n\
         Opponent: {}.\nReferee: {}.",
        g.index,
        g.kosumi.name(),
        super::describe_player(&cfg.player),
        cfg.game_seed(g.index),
        cfg.opponent,
        cfg.referee.as_deref().unwrap_or("none (own count)")
    )
}

/// Writes a finished match game into `out`: its SGF record (dated `date`)
/// first, then its row of the table, so that a kill between the two
/// leaves an uncounted record that a resumed match plays again.
///
/// # Errors
/// A failed write, with its path.
pub fn write_match_game(
    out: &Path,
    cfg: &MatchConfig,
    g: &MatchGame,
    date: Option<String>,
) -> Result<(), MatchError> {
    let text = record_to_sgf(
        &g.record,
        &format!("kosumi match game {}", g.index),
        &match_game_comment(cfg, g),
        date,
        Vec::new(),
    );
    let path = out.join(sgf_name(g.index));
    write_atomic(&path, text.as_bytes()).map_err(|e| MatchError::Io(path, e))?;
    append_match_row(out, cfg, &MatchRow::of(g))
}

/// The civil date (proleptic Gregorian, UTC) of `days` since 1970-01-01,
/// as SGF `DT` text `YYYY-MM-DD` (Howard Hinnant's algorithm).
pub fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Today's date (UTC) as SGF `DT` text; `None` when the system clock is
/// before 1970.
pub fn today() -> Option<String> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    Some(civil_date((secs / 86_400) as i64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::PlayerKind;
    use clap::Parser;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(-1), "1969-12-31");
        assert_eq!(civil_date(59), "1970-03-01");
        // 2000 is a leap year, 1900 and 2100 are not.
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(11_017), "2000-03-01");
        assert_eq!(civil_date(47_540), "2100-02-28");
        assert_eq!(civil_date(47_541), "2100-03-01");
        assert_eq!(civil_date(20_598), "2026-05-25");
        assert_eq!(civil_date(-25_509), "1900-02-28");
        assert_eq!(civil_date(-25_508), "1900-03-01");
        let t = today().expect("a clock after 1970");
        assert_eq!(t.len(), 10);
    }

    #[test]
    fn a_match_game_is_written_record_first_then_its_row() {
        use super::super::{play_game, LocalContestant};
        use crate::color::Color;
        use crate::player::RandomPlayer;
        let Cmd::Match(a) = parse(&["match", "--opponent", "gnugo --mode gtp", "--seed", "5"])
        else {
            panic!("match")
        };
        let mut cfg = a.config().expect("config");
        cfg.game = GameConfig::new(5);
        let dir = std::env::temp_dir().join(format!("kosumi-match-out-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let done = super::super::prepare_match_out(&dir, &cfg).expect("out");
        assert!(done.is_empty());
        let mut b = LocalContestant::new(Box::new(RandomPlayer::new(1)), "b".into());
        let mut w = LocalContestant::new(Box::new(RandomPlayer::new(2)), "w".into());
        let stop = std::sync::atomic::AtomicBool::new(false);
        let record = play_game(&cfg.game, &mut b, &mut w, None, &stop);
        let g = MatchGame {
            index: 0,
            kosumi: Color::Black,
            record,
        };
        write_match_game(&dir, &cfg, &g, Some("2026-05-25".into())).expect("written");
        let sgf = std::fs::read_to_string(dir.join(sgf_name(0))).expect("record");
        assert!(sgf.contains("DT[2026-05-25]"), "{sgf}");
        assert!(sgf.contains("GN[kosumi match game 0]"), "{sgf}");
        let comment = match_game_comment(&cfg, &g);
        assert!(comment.starts_with("Kosumi match game 0 (0-based), Kosumi black (search "));
        assert!(comment.contains("Opponent: gnugo --mode gtp.\nReferee: none (own count)."));
        // The row is there: the match resumed from this folder counts it.
        let done = super::super::prepare_match_out(&dir, &cfg).expect("resumed");
        assert_eq!(done.len(), 1);
        let (row, want) = (&done[0], MatchRow::of(&g));
        assert_eq!(
            (row.index, row.kosumi, &row.result, &row.ending, row.moves),
            (
                want.index,
                want.kosumi,
                &want.result,
                &want.ending,
                want.moves
            )
        );
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        cmd: Cmd,
    }

    #[derive(clap::Subcommand)]
    enum Cmd {
        Selfplay(SelfplayArgs),
        Match(MatchArgs),
    }

    fn parse(args: &[&str]) -> Cmd {
        Cli::try_parse_from(std::iter::once("kosumi").chain(args.iter().copied()))
            .expect("options")
            .cmd
    }

    #[test]
    fn selfplay_defaults_and_options() {
        let Cmd::Selfplay(a) = parse(&["selfplay", "--out", "d"]) else {
            panic!("selfplay")
        };
        let c = a.config().expect("config");
        assert_eq!((c.games, c.seed, c.jobs, c.game.size), (10, 1, 1, 9));
        assert_eq!(c.player.kind, PlayerKind::Search);
        assert_eq!(
            super::super::describe_player(&c.player),
            "search playouts=- time=- threads=1"
        );
        let Cmd::Selfplay(a) = parse(&["selfplay"]) else {
            panic!("selfplay")
        };
        assert!(a.config().is_err(), "no --out");
        let Cmd::Selfplay(a) = parse(&[
            "selfplay",
            "--out",
            "d",
            "--size",
            "13",
            "--max-moves",
            "40",
            "--handicap",
            "2",
            "--player",
            "mcts",
            "--threads",
            "2",
            "--lag",
            "-1",
        ]) else {
            panic!("selfplay")
        };
        assert!(a.config().is_err(), "negative lag");
        assert_eq!(a.game.game_config().max_moves, 40);
        assert_eq!(a.game.game_config().handicap, 2);
        assert_eq!(a.game.search.threads, Some(2));
    }

    #[test]
    fn match_options() {
        let Cmd::Match(a) = parse(&[
            "match",
            "--opponent",
            "gnugo --mode gtp",
            "--move-timeout",
            "5",
            "--clock",
            "10+1x1",
            "--time-left",
            "yes",
        ]) else {
            panic!("match")
        };
        let c = a.config().expect("config");
        assert_eq!(c.game.move_timeout, Some(Duration::from_secs(5)));
        assert_eq!(c.setup_timeout, Duration::from_secs(10));
        assert!(c.game.send_time_left);
        assert_eq!(c.game.clock[0], c.game.clock[1]);
        assert_eq!(c.opponent, "gnugo --mode gtp");
        assert_eq!(c.player.kind, PlayerKind::Search);
    }
}

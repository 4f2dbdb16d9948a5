//! Self-play at scale: deterministic games, sharding, and summaries that
//! merge.
//!
//! Game `i` of a run (0-based, global over all shards) is played with the
//! seed [`game_seed`]`(seed, i)`; Black's player gets [`mix_seed`] of that
//! and 1, White's of that and 2. So a game's record depends only on the
//! settings, the base seed and its index: the same run gives byte-identical
//! SGF files, whatever the number of jobs (with one search thread), and
//! shard `I/N` (0-based `I`, playing the games with `i % N == I`) writes
//! exactly the files the whole run would write for those games.
//!
//! Output in the directory: `game-NNNNNN.sgf` per game (written to a
//! temporary name, then renamed), and a table `selfplay-I-of-N.tsv` with a
//! `#` header (the settings that must agree for tables to merge) and one
//! tab-separated row per finished game, appended as games finish:
//! `index seed result length ending playouts seconds file`. The table,
//! not the SGF files, is what [`summarize`] reads: it carries the playout
//! counts and times that a byte-identical SGF cannot, and needs no SGF
//! parser. Games cut off by Ctrl-C are neither written nor counted.

use super::contestant::LocalContestant;
use super::game::{play_game, Ending, GameConfig, GameRecord};
use super::record::{record_to_sgf, write_atomic};
use super::spec::{describe_player, make_player, mix_seed};
use super::table::{read_table, table_rows};
pub use super::table::{
    sgf_index, summarize, GameLine, SelfplayError, SelfplayJson, SelfplaySummary, Summarized,
    SummarizedJson,
};
use crate::mcts::SearchArgs;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

pub use crate::shard::Shard;

/// The settings of a self-play run.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Per-game settings.
    pub game: GameConfig,
    /// Games in the whole run (all shards).
    pub games: usize,
    /// Base seed.
    pub seed: u64,
    /// The player (both colours).
    pub player: SearchArgs,
    /// Games played at once.
    pub jobs: usize,
    /// Which part of the run to play.
    pub shard: Shard,
    /// Output directory.
    pub out: PathBuf,
    /// Also write each game's root visits beside its record
    /// (`game-NNNNNN.visits`, the format of [`crate::nn::export`]).
    pub visits: bool,
}

impl SelfplayConfig {
    /// The settings that decide the games, as one line; tables merge only
    /// when theirs agree.
    pub fn settings(&self) -> String {
        let g = &self.game;
        // Written only for handicap games, so that even-game tables from
        // before the option still merge.
        let handicap = match g.handicap {
            0 => String::new(),
            n => format!(" handicap={n}"),
        };
        format!(
            "size={} komi={}{handicap} rules={} max-moves={} cleanup={} player={} knobs={} seed={} games={}",
            g.size,
            g.komi,
            g.rules,
            g.max_moves,
            if g.cleanup { "on" } else { "off" },
            describe_player(&self.player).replace(' ', ","),
            self.player.knob_values(),
            self.seed,
            self.games
        )
    }

    /// The global indices of this shard's games.
    pub fn indices(&self) -> Vec<usize> {
        (0..self.games)
            .filter(|i| i % self.shard.count == self.shard.index)
            .collect()
    }

    /// The table file of this shard.
    pub fn table_path(&self) -> PathBuf {
        self.out.join(format!(
            "selfplay-{}-of-{}.tsv",
            self.shard.index, self.shard.count
        ))
    }
}

/// The seed of game `index` of a run with base seed `seed`.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    mix_seed(seed, index as u64)
}

/// The SGF file name of game `index`.
pub fn sgf_name(index: usize) -> String {
    format!("game-{index:06}.sgf")
}

/// Plays game `index` of the run (deterministic for one search thread).
pub fn play_one(cfg: &SelfplayConfig, index: usize, stop: &AtomicBool) -> GameRecord {
    let s = game_seed(cfg.seed, index);
    let label = format!(
        "Kosumi {} ({})",
        env!("CARGO_PKG_VERSION"),
        describe_player(&cfg.player)
    );
    let mut black = LocalContestant::new(make_player(&cfg.player, mix_seed(s, 1)), label.clone());
    let mut white = LocalContestant::new(make_player(&cfg.player, mix_seed(s, 2)), label);
    play_game(&cfg.game, &mut black, &mut white, None, stop)
}

/// The SGF text of game `index` (no date, no timings: byte-identical for
/// identical games).
pub fn game_sgf(cfg: &SelfplayConfig, index: usize, rec: &GameRecord) -> String {
    let s = game_seed(cfg.seed, index);
    let comment = format!(
        "Kosumi self-play game {index} (0-based) of {}, game seed {s}, base seed {}.\n\
         Both players: {}.\nSettings: {}.",
        cfg.games,
        cfg.seed,
        describe_player(&cfg.player),
        cfg.settings()
    );
    record_to_sgf(
        rec,
        &format!("kosumi selfplay seed {} game {index}", cfg.seed),
        &comment,
        None,
        Vec::new(),
    )
}

impl GameLine {
    /// The row for game `index` with record `rec`.
    pub fn of(cfg: &SelfplayConfig, index: usize, rec: &GameRecord) -> GameLine {
        let ending = match rec.ending.by() {
            Some(c) => format!("{}-{}", rec.ending.key(), c.name()),
            None => rec.ending.key().to_string(),
        };
        GameLine {
            index,
            seed: game_seed(cfg.seed, index),
            result: rec.result,
            length: rec.length,
            ending,
            playouts: rec.playouts,
            seconds: (rec.think[0] + rec.think[1]).as_secs_f64(),
            file: sgf_name(index),
        }
    }
}

/// Plays this shard's games with `cfg.jobs` games at a time, writing each
/// SGF and then its table row as the game finishes, and calling `on_game`
/// (in the calling thread) after each. Stops starting games when `stop` is
/// raised; games cut off are not kept.
///
/// An `--out` directory that already holds this shard's table with the
/// same settings resumes the run: the games with a row and a record are
/// kept (and passed to `on_game` first), the others are played, a record
/// without a row (a kill between the two writes) is played again and
/// replaced by the same bytes. A directory holding another run's files is
/// refused ([`SelfplayError::OutInUse`]); files that are not Kosumi's are
/// left alone.
///
/// # Errors
/// [`SelfplayError::Config`] for settings that fail [`GameConfig::check`];
/// [`SelfplayError::OutInUse`] for a directory with another run's files;
/// [`SelfplayError::Io`] if the directory, a record or the table cannot be
/// written.
pub fn run(
    cfg: &SelfplayConfig,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&GameLine, &SelfplaySummary),
) -> Result<SelfplaySummary, SelfplayError> {
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| SelfplayError::Io(p, e)
    };
    cfg.game.check().map_err(SelfplayError::Config)?;
    super::record::prepare_out_dir(&cfg.out).map_err(io(&cfg.out))?;
    let table_path = cfg.table_path();
    let done = prepare_out(cfg)?;
    let mut header = format!(
        "# kosumi selfplay table 1\n# settings: {}\n# shard: {}\n\
         index\tseed\tresult\tlength\tending\tplayouts\tseconds\tfile\n",
        cfg.settings(),
        cfg.shard
    );
    for line in done.values() {
        header.push_str(&line.row());
    }
    // The table is rewritten whole (the rows kept, a torn one dropped),
    // then appended to.
    write_atomic(&table_path, header.as_bytes()).map_err(io(&table_path))?;
    let mut table = std::fs::OpenOptions::new()
        .append(true)
        .open(&table_path)
        .map_err(io(&table_path))?;

    let mut summary = SelfplaySummary::default();
    for line in done.values() {
        summary.add(line);
        on_game(line, &summary);
    }
    let indices: Vec<usize> = cfg
        .indices()
        .into_iter()
        .filter(|i| !done.contains_key(i))
        .collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<GameLine, SelfplayError>>();
    let jobs = cfg.jobs.clamp(1, indices.len().max(1));
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (indices, next) = (&indices, &next);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&index) = indices.get(k) else { break };
                let rec = play_one(cfg, index, stop);
                if rec.ending == Ending::Interrupted {
                    break;
                }
                if cfg.visits {
                    // Before the record: a kept record has its visits.
                    let v = cfg.out.join(sgf_name(index).replace(".sgf", ".visits"));
                    let text = crate::nn::export::visits_text(&rec.visits, cfg.game.size);
                    if let Err(e) = write_atomic(&v, text.as_bytes()) {
                        let _ = tx.send(Err(SelfplayError::Io(v, e)));
                        break;
                    }
                }
                let path = cfg.out.join(sgf_name(index));
                let sent = match write_atomic(&path, game_sgf(cfg, index, &rec).as_bytes()) {
                    Ok(()) => tx.send(Ok(GameLine::of(cfg, index, &rec))),
                    Err(e) => tx.send(Err(SelfplayError::Io(path, e))),
                };
                if sent.is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for msg in rx {
            match msg {
                Ok(line) => {
                    if first_error.is_none() {
                        if let Err(e) = table.write_all(line.row().as_bytes()) {
                            first_error = Some(SelfplayError::Io(table_path.clone(), e));
                            // Workers stop at their next game.
                            next.store(usize::MAX / 2, Ordering::SeqCst);
                        }
                    }
                    summary.add(&line);
                    on_game(&line, &summary);
                }
                Err(e) => {
                    if first_error.is_none() {
                        first_error = Some(e);
                    }
                    next.store(usize::MAX / 2, Ordering::SeqCst);
                }
            }
        }
    });
    match first_error {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// Whether `name` is a temporary file of [`write_atomic`] for a record or
/// a table whose writer no longer runs (a kill left it). Only where
/// `/proc` tells which processes run; elsewhere temporaries stay.
fn is_stale_temporary(name: &str) -> bool {
    let ours = (name.starts_with(".game-") && name.contains(".sgf.tmp"))
        || (name.starts_with(".selfplay-") && name.contains(".tsv.tmp"));
    let Some((_, pid)) = name.rsplit_once(".tmp") else {
        return false;
    };
    let proc = Path::new("/proc");
    ours && pid.parse::<u32>().is_ok() && proc.join("self").exists() && !proc.join(pid).exists()
}

/// Looks at the output directory before a run: refuses another run's
/// files, removes our own temporary files left by a kill, and gives the
/// games of this shard already finished (a row in this shard's table and
/// its record present).
///
/// # Errors
/// [`SelfplayError::OutInUse`], or a table that cannot be read.
fn prepare_out(cfg: &SelfplayConfig) -> Result<BTreeMap<usize, GameLine>, SelfplayError> {
    let dir = &cfg.out;
    let io = |e| SelfplayError::Io(dir.clone(), e);
    let settings = cfg.settings();
    let table_path = cfg.table_path();
    let mut records = std::collections::BTreeSet::new();
    let mut own_rows = Vec::new();
    let mut same_run_table = false;
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if is_stale_temporary(&name) {
            let _ = std::fs::remove_file(&path);
        } else if let Some(i) = sgf_index(&name) {
            if i >= cfg.games {
                return Err(SelfplayError::OutInUse(
                    dir.clone(),
                    format!("{name} is past this run's {} games", cfg.games),
                ));
            }
            records.insert(i);
        } else if name.starts_with("selfplay-") && name.ends_with(".tsv") {
            let (theirs, rows) = table_rows(&path, &read_table(&path)?)?;
            if theirs != settings {
                return Err(SelfplayError::OutInUse(
                    dir.clone(),
                    super::table::settings_differ("this run", &settings, &name, &theirs),
                ));
            }
            same_run_table = true;
            if path == table_path {
                own_rows = rows;
            }
        }
    }
    if !records.is_empty() && !same_run_table {
        return Err(SelfplayError::OutInUse(
            dir.clone(),
            format!("{} game records and no table of this run", records.len()),
        ));
    }
    Ok(own_rows
        .into_iter()
        .filter(|l| {
            records.contains(&l.index)
                && l.index % cfg.shard.count == cfg.shard.index
                && l.index < cfg.games
        })
        .map(|l| (l.index, l))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_split_the_games() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["4/4", "1/0", "x/2", "1", "-1/2", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let mut cfg = SelfplayConfig {
            game: GameConfig::new(9),
            games: 10,
            seed: 1,
            player: SearchArgs::default(),
            jobs: 1,
            shard: Shard { index: 1, count: 3 },
            out: PathBuf::from("unused"),
            visits: false,
        };
        assert_eq!(cfg.indices(), vec![1, 4, 7]);
        let mut all = Vec::new();
        for i in 0..3 {
            cfg.shard.index = i;
            all.extend(cfg.indices());
        }
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn handicap_is_part_of_the_settings_only_when_given() {
        let even = SelfplayConfig {
            game: GameConfig::new(9),
            games: 4,
            seed: 1,
            player: SearchArgs::default(),
            jobs: 1,
            shard: Shard::default(),
            out: PathBuf::from("x"),
            visits: false,
        };
        assert!(!even.settings().contains("handicap"), "{}", even.settings());
        let mut h = even.clone();
        h.game.handicap = 2;
        assert!(h.settings().contains(" handicap=2 "), "{}", h.settings());
        assert_ne!(h.settings(), even.settings());
    }
}

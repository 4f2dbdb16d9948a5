//! Self-play tables: one row per finished game, and the numbers of a run
//! (the part of [`super::selfplay`] that reads and counts, with no I/O).

use crate::color::Color;
use crate::score::GameResult;
use crate::stats::{text_counts, Num, Tally, WinsJson};
use crate::text::clip;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// One row of a table: one finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// Global game index.
    pub index: usize,
    /// The game's seed.
    pub seed: u64,
    /// The result.
    pub result: GameResult,
    /// Moves before clean-up.
    pub length: usize,
    /// [`Ending::key`](super::Ending::key), with `-black`/`-white` for the colour at fault.
    pub ending: String,
    /// Playouts run in the game.
    pub playouts: u64,
    /// Seconds both players spent thinking.
    pub seconds: f64,
    /// The SGF file name.
    pub file: String,
}

impl GameLine {
    pub(super) fn row(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{:.6}\t{}\n",
            self.index,
            self.seed,
            self.result,
            self.length,
            self.ending,
            self.playouts,
            self.seconds,
            self.file
        )
    }

    pub(super) fn parse(row: &str) -> Result<GameLine, String> {
        let f: Vec<&str> = row.split('\t').collect();
        if f.len() != 8 {
            return Err(format!("{} fields where 8 were expected", f.len()));
        }
        let num = |i: usize, what: &str| -> Result<u64, String> {
            f[i].parse::<u64>()
                .map_err(|_| format!("bad {what} '{}'", clip(f[i])))
        };
        let seconds: f64 = f[6]
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| format!("bad seconds '{}'", clip(f[6])))?;
        Ok(GameLine {
            index: num(0, "index")? as usize,
            seed: num(1, "seed")?,
            result: GameResult::parse(f[2]),
            length: num(3, "length")? as usize,
            ending: f[4].to_string(),
            playouts: num(5, "playouts")?,
            seconds,
            file: f[7].to_string(),
        })
    }
}

/// A self-play run in numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfplaySummary {
    /// Finished games.
    pub games: u64,
    /// Results from Black's side (White's are the mirror).
    pub black: Tally,
    /// Games without a result.
    pub void: u64,
    /// Sum of game lengths (moves before clean-up).
    pub total_length: u64,
    /// Games by ending (`passes`, `cap`, `resign-black`, ...).
    pub endings: BTreeMap<String, u64>,
    /// Playouts run.
    pub playouts: u64,
    /// Seconds spent thinking (summed over games, not wall clock).
    pub seconds: f64,
}

impl SelfplaySummary {
    /// Adds one game.
    pub fn add(&mut self, l: &GameLine) {
        self.games += 1;
        if !self.black.add(&l.result, Color::Black) {
            self.void += 1;
        }
        self.total_length += l.length as u64;
        *self.endings.entry(l.ending.clone()).or_insert(0) += 1;
        self.playouts += l.playouts;
        self.seconds += l.seconds;
    }

    /// Results from White's side.
    pub fn white(&self) -> Tally {
        Tally {
            wins: self.black.losses,
            losses: self.black.wins,
            draws: self.black.draws,
        }
    }

    /// Mean game length in moves (passes counted, clean-up not).
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_length as f64 / self.games as f64
        }
    }

    /// Games ended by a resignation of either colour.
    pub fn resignations(&self) -> u64 {
        self.endings
            .iter()
            .filter(|(k, _)| k.starts_with("resign"))
            .map(|(_, v)| v)
            .sum()
    }

    /// Playouts per second of thinking time, if any playouts were run.
    pub fn playouts_per_second(&self) -> Option<f64> {
        (self.playouts > 0 && self.seconds > 0.0).then(|| self.playouts as f64 / self.seconds)
    }

    /// The summary for people, several lines.
    pub fn text(&self) -> String {
        let pps = match self.playouts_per_second() {
            Some(p) => format!("{p:.0}"),
            None => "n/a (the player runs no playouts)".into(),
        };
        format!(
            "games {}  draws {}  void {}\nBlack wins {}\nWhite wins {}\n\
             mean length {:.1} moves  resignations {}  endings: {}\nplayouts/s {}",
            self.games,
            self.black.draws,
            self.void,
            self.black.describe(),
            self.white().describe(),
            self.mean_length(),
            self.resignations(),
            text_counts(&self.endings),
            pps
        )
    }

    /// The summary as the JSON form writes it.
    pub fn to_json(&self) -> SelfplayJson {
        SelfplayJson {
            kind: "selfplay".into(),
            games: self.games,
            black: self.black.to_wins_json(),
            white: self.white().to_wins_json(),
            draws: self.black.draws,
            void: self.void,
            mean_length: Num(self.mean_length()),
            resignations: self.resignations(),
            endings: self.endings.clone(),
            playouts: self.playouts,
            seconds: Num(self.seconds),
            playouts_per_second: self.playouts_per_second().map(Num),
        }
    }

    /// The summary as one JSON object.
    pub fn json(&self) -> String {
        serde_json::to_string(&self.to_json()).expect("a summary serializes")
    }
}

/// The JSON summary of a self-play run (`selfplay --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfplayJson {
    /// Always `selfplay`.
    pub kind: String,
    /// Finished games.
    pub games: u64,
    /// Black's wins.
    pub black: WinsJson,
    /// White's wins.
    pub white: WinsJson,
    /// Draws.
    pub draws: u64,
    /// Games without a result.
    pub void: u64,
    /// Mean game length in moves.
    pub mean_length: Num,
    /// Games ended by a resignation.
    pub resignations: u64,
    /// Games by ending.
    pub endings: BTreeMap<String, u64>,
    /// Playouts run.
    pub playouts: u64,
    /// Seconds spent thinking.
    pub seconds: Num,
    /// Playouts per second of thinking (`null` without playouts).
    pub playouts_per_second: Option<Num>,
}

/// The JSON form of `selfplay summarize --json`: the merge's counts
/// around the merged summary's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummarizedJson {
    /// Tables read.
    pub tables: usize,
    /// Games found.
    pub present: usize,
    /// Games of the run.
    pub expected: usize,
    /// Rows seen more than once.
    pub duplicates: usize,
    /// Rows cut off, skipped.
    pub torn: usize,
    /// The merged summary.
    #[serde(flatten)]
    pub summary: SelfplayJson,
    /// Records without a row.
    pub unrecorded: usize,
    /// Rows without a record.
    pub missing: usize,
}

/// What [`summarize`](super::selfplay::summarize) found.
#[derive(Clone, Debug, PartialEq)]
pub struct Summarized {
    /// The merged numbers.
    pub summary: SelfplaySummary,
    /// The settings line all tables share.
    pub settings: String,
    /// Tables read.
    pub tables: usize,
    /// Games of the run (from the settings).
    pub expected: usize,
    /// Games found once or more.
    pub present: usize,
    /// Rows seen more than once (a shard run twice), counted once.
    pub duplicates: usize,
    /// Rows cut off at the end of a table (an interrupted write), skipped.
    pub torn: usize,
    /// Game records (`game-NNNNNN.sgf`) without a row in a table of their
    /// directory (a kill between a record and its row): not counted.
    pub unrecorded: usize,
    /// Rows whose record is not in their table's directory (counted).
    pub missing: usize,
}

impl Summarized {
    /// The merged summary as one JSON object, with the table and game
    /// counts of the merge.
    pub fn json(&self) -> String {
        let j = SummarizedJson {
            tables: self.tables,
            present: self.present,
            expected: self.expected,
            duplicates: self.duplicates,
            torn: self.torn,
            summary: self.summary.to_json(),
            unrecorded: self.unrecorded,
            missing: self.missing,
        };
        serde_json::to_string(&j).expect("a summary serializes")
    }
}

/// Why self-play or a summary failed.
#[derive(Debug)]
pub enum SelfplayError {
    /// A file or directory could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A table row or header is malformed (file, line, what).
    Parse(PathBuf, usize, String),
    /// Tables from runs with different settings, or disagreeing games.
    Mixed(String),
    /// No table in the directories given.
    NoTables,
    /// The settings fail [`GameConfig::check`].
    Config(String),
    /// The output directory holds another run's files (the directory, what
    /// was found).
    OutInUse(PathBuf, String),
}

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfplayError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            SelfplayError::Parse(p, l, e) => write!(f, "{}:{l}: {e}", p.display()),
            SelfplayError::Mixed(e) => f.write_str(e),
            SelfplayError::NoTables => f.write_str("no selfplay-*.tsv table found"),
            SelfplayError::Config(e) => f.write_str(e),
            SelfplayError::OutInUse(d, what) => write!(
                f,
                "{} holds another run's files ({what}); give a new --out directory, \
                 or delete those files to start over (the same settings resume a run)",
                d.display()
            ),
        }
    }
}

impl std::error::Error for SelfplayError {}

/// The fields of a settings line: split at spaces outside double quotes
/// (a quoted command keeps its spaces; a backslash escapes the next
/// character inside quotes).
fn settings_fields(line: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else if quoted && c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == ' ' && !quoted {
            if i > start {
                fields.push(&line[start..i]);
            }
            start = i + 1;
        }
    }
    if start < line.len() {
        fields.push(&line[start..]);
    }
    fields
}

/// Where two settings lines differ: the first field that is not the
/// same in `a` and in `b` (`(nothing)` where a line has no such field);
/// for a field of comma-separated values under the same key (`player=`,
/// `knobs=`), only the values that differ, under the key. `None` when
/// the lines are equal.
pub fn settings_difference(a: &str, b: &str) -> Option<(String, String)> {
    if a == b {
        return None;
    }
    let (fa, fb) = (settings_fields(a), settings_fields(b));
    let i = (0..fa.len().max(fb.len()))
        .find(|&i| fa.get(i) != fb.get(i))
        .unwrap_or(0);
    let (x, y) = (fa.get(i).copied(), fb.get(i).copied());
    if let (Some((kx, vx)), Some((ky, vy))) = (
        x.and_then(|f| f.split_once('=')),
        y.and_then(|f| f.split_once('=')),
    ) {
        if kx == ky && (vx.contains(',') || vy.contains(',')) {
            let (vx, vy): (Vec<&str>, Vec<&str>) =
                (vx.split(',').collect(), vy.split(',').collect());
            let only = |p: &[&str], q: &[&str]| {
                let d: Vec<&str> = p.iter().filter(|v| !q.contains(v)).copied().collect();
                format!(
                    "{kx}={}",
                    if d.is_empty() {
                        "-".to_string()
                    } else {
                        d.join(",")
                    }
                )
            };
            return Some((only(&vx, &vy), only(&vy, &vx)));
        }
    }
    let show = |f: Option<&str>| f.unwrap_or("(nothing)").to_string();
    Some((show(x), show(y)))
}

/// A refusal's words for two settings lines that differ: what `a` (named
/// `name_a`) has where `b` (named `name_b`) has something else.
pub fn settings_differ(name_a: &str, a: &str, name_b: &str, b: &str) -> String {
    match settings_difference(a, b) {
        Some((x, y)) => format!("{name_a} has {x} where {name_b} has {y}"),
        None => format!("{name_a} and {name_b} have the same settings"),
    }
}

/// The game index of a record name `game-NNNNNN.sgf`.
pub fn sgf_index(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("game-")?.strip_suffix(".sgf")?;
    if digits.len() < 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The settings line of a table's text, and its complete rows (a last row
/// without its newline, torn by a kill, is left out).
///
/// # Errors
/// [`SelfplayError::Parse`] for a malformed row or no settings line.
pub(super) fn table_rows(f: &Path, text: &str) -> Result<(String, Vec<GameLine>), SelfplayError> {
    let mut settings = None;
    let mut rows = Vec::new();
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(s) = line.strip_prefix("# settings: ") {
            settings = Some(s.to_string());
            continue;
        }
        if line.starts_with('#') || line.starts_with("index\t") || line.trim().is_empty() {
            continue;
        }
        if settings.is_none() {
            return Err(SelfplayError::Parse(
                f.to_path_buf(),
                i + 1,
                "no '# settings:' header before the rows".into(),
            ));
        }
        if !complete && i + 1 == lines.len() {
            continue;
        }
        rows.push(
            GameLine::parse(line).map_err(|e| SelfplayError::Parse(f.to_path_buf(), i + 1, e))?,
        );
    }
    match settings {
        Some(s) => Ok((s, rows)),
        None => Err(SelfplayError::Parse(
            f.to_path_buf(),
            1,
            "no '# settings:' header".into(),
        )),
    }
}

/// The text of a table (a regular file of at most
/// [`crate::files::MAX_FILE_BYTES`]).
pub(super) fn read_table(f: &Path) -> Result<String, SelfplayError> {
    let bytes =
        crate::files::read_capped(f).map_err(|e| SelfplayError::Io(f.to_path_buf(), e.into()))?;
    String::from_utf8(bytes)
        .map_err(|_| SelfplayError::Parse(f.to_path_buf(), 1, "not UTF-8 text".into()))
}

/// Reads every `selfplay-*.tsv` table in `dirs` and merges them: tables
/// must share their settings; a game found twice is counted once (and
/// must agree). Games are counted by their rows; records and rows are
/// reconciled per directory: a record without a row (a kill between the
/// record and its row; a resumed run plays it again) is not counted but
/// reported in [`Summarized::unrecorded`], a row without its record in
/// [`Summarized::missing`].
///
/// # Errors
/// [`SelfplayError`] for unreadable files, malformed rows, mixed settings,
/// disagreeing duplicates, or no table at all.
pub fn summarize(dirs: &[PathBuf]) -> Result<Summarized, SelfplayError> {
    let mut files = Vec::new();
    // Records and rows by directory and game, to reconcile the two.
    let mut records = std::collections::BTreeSet::new();
    let mut rows = std::collections::BTreeSet::new();
    for d in dirs {
        let rd = std::fs::read_dir(d).map_err(|e| SelfplayError::Io(d.clone(), e))?;
        for entry in rd {
            let entry = entry.map_err(|e| SelfplayError::Io(d.clone(), e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("selfplay-") && name.ends_with(".tsv") {
                files.push(entry.path());
            } else if let Some(i) = sgf_index(&name) {
                records.insert((d.clone(), i));
            }
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(SelfplayError::NoTables);
    }
    let mut settings: Option<(String, PathBuf)> = None;
    let mut games: BTreeMap<usize, (GameLine, PathBuf)> = BTreeMap::new();
    let mut duplicates = 0;
    let mut torn = 0;
    for f in &files {
        let text = read_table(f)?;
        let mut have_settings = false;
        let complete = text.ends_with('\n');
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let lineno = i + 1;
            if let Some(s) = line.strip_prefix("# settings: ") {
                match &settings {
                    None => settings = Some((s.to_string(), f.clone())),
                    Some((s0, f0)) if s0 != s => {
                        return Err(SelfplayError::Mixed(format!(
                            "different settings: {}",
                            settings_differ(
                                &f0.display().to_string(),
                                s0,
                                &f.display().to_string(),
                                s
                            )
                        )))
                    }
                    Some(_) => {}
                }
                have_settings = true;
                continue;
            }
            if !have_settings && !line.starts_with('#') {
                return Err(SelfplayError::Parse(
                    f.clone(),
                    lineno,
                    "no '# settings:' header before the rows".into(),
                ));
            }
            if line.starts_with('#') || line.starts_with("index\t") || line.trim().is_empty() {
                continue;
            }
            if !complete && i + 1 == lines.len() {
                torn += 1;
                continue;
            }
            let g =
                GameLine::parse(line).map_err(|e| SelfplayError::Parse(f.clone(), lineno, e))?;
            let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
            rows.insert((dir, g.index));
            match games.get(&g.index) {
                Some((old, p)) => {
                    if old.result != g.result || old.length != g.length || old.seed != g.seed {
                        return Err(SelfplayError::Mixed(format!(
                            "game {} differs between {} and {}",
                            g.index,
                            p.display(),
                            f.display()
                        )));
                    }
                    duplicates += 1;
                }
                None => {
                    games.insert(g.index, (g, f.clone()));
                }
            }
        }
        if !have_settings {
            return Err(SelfplayError::Parse(
                f.clone(),
                1,
                "no '# settings:' header".into(),
            ));
        }
    }
    let settings = settings.map(|s| s.0).unwrap_or_default();
    let expected = settings
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("games="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut summary = SelfplaySummary::default();
    for (g, _) in games.values() {
        summary.add(g);
    }
    Ok(Summarized {
        summary,
        settings,
        tables: files.len(),
        expected,
        present: games.len(),
        duplicates,
        torn,
        unrecorded: records.difference(&rows).count(),
        missing: rows.difference(&records).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::selfplay::sgf_name;

    #[test]
    fn settings_differ_at_their_first_unequal_field() {
        let a = r#"size=9 opponent="sh -c 'a b' \"x y\"" player=search,playouts=10 knobs=puct=0.3,uct_c=0 seed=1"#;
        // A space inside the quoted command is not a field's end.
        assert_eq!(
            settings_fields(a),
            vec![
                "size=9",
                r#"opponent="sh -c 'a b' \"x y\"""#,
                "player=search,playouts=10",
                "knobs=puct=0.3,uct_c=0",
                "seed=1"
            ]
        );
        assert_eq!(settings_difference(a, a), None);
        // One knob: only it, under its key.
        let b = a.replace("puct=0.3", "puct=0");
        assert_eq!(
            settings_difference(a, &b),
            Some(("knobs=puct=0.3".into(), "knobs=puct=0".into()))
        );
        // A field only one line has.
        let c = a.replace(" seed=1", "");
        assert_eq!(
            settings_difference(a, &c),
            Some(("seed=1".into(), "(nothing)".into()))
        );
        // A line from before the knobs: the field where they part.
        let d = a.replace(" knobs=puct=0.3,uct_c=0", "");
        assert_eq!(
            settings_differ("this run", a, "t.tsv", &d),
            "this run has knobs=puct=0.3,uct_c=0 where t.tsv has seed=1"
        );
        // A value inside the command differs: the whole field.
        let e = a.replace("x y", "x z");
        assert_eq!(
            settings_difference(a, &e).unwrap().1,
            r#"opponent="sh -c 'a b' \"x z\"""#
        );
    }

    #[test]
    fn table_rows_round_trip() {
        let l = GameLine {
            index: 17,
            seed: 12345678901234567890,
            result: GameResult::Score(Color::White, 3.5),
            length: 101,
            ending: "passes".into(),
            playouts: 0,
            seconds: 0.25,
            file: sgf_name(17),
        };
        let row = l.row();
        assert_eq!(
            row,
            "17\t12345678901234567890\tW+3.5\t101\tpasses\t0\t0.250000\tgame-000017.sgf\n"
        );
        assert_eq!(GameLine::parse(row.trim_end()).unwrap(), l);
        assert!(GameLine::parse("17\tx").is_err());
        assert!(GameLine::parse("a\t1\tB+R\t3\tresign-white\t0\t0.1\tf").is_err());
    }

    #[test]
    fn summary_counts_and_text() {
        let mut s = SelfplaySummary::default();
        for (i, (r, e)) in [
            ("B+3.5", "passes"),
            ("W+R", "resign-black"),
            ("0", "passes"),
            ("?", "refused-white"),
        ]
        .iter()
        .enumerate()
        {
            s.add(&GameLine {
                index: i,
                seed: 0,
                result: GameResult::parse(r),
                length: 10 * (i + 1),
                ending: e.to_string(),
                playouts: 0,
                seconds: 1.0,
                file: sgf_name(i),
            });
        }
        assert_eq!(s.games, 4);
        assert_eq!(s.void, 1);
        assert_eq!(s.black.wins + s.black.losses + s.black.draws + s.void, 4);
        assert_eq!(s.white().wins, 1);
        assert_eq!(s.resignations(), 1);
        assert_eq!(s.mean_length(), 25.0);
        assert_eq!(s.playouts_per_second(), None);
        assert!(
            s.text().contains("Black wins 1.5/3 = 50.0%"),
            "{}",
            s.text()
        );
        assert!(s.json().starts_with("{\"kind\":\"selfplay\",\"games\":4,"));
    }

    /// The bytes of `selfplay --json` and `selfplay summarize --json` as
    /// the hand-written writer gave them before serde.
    #[test]
    fn json_bytes_are_pinned() {
        let mut s = SelfplaySummary::default();
        assert_eq!(
            s.json(),
            r#"{"kind":"selfplay","games":0,"black":{"wins":0,"rate":null,"ci95":[0,1]},"white":{"wins":0,"rate":null,"ci95":[0,1]},"draws":0,"void":0,"mean_length":0,"resignations":0,"endings":{},"playouts":0,"seconds":0,"playouts_per_second":null}"#
        );
        for (i, r) in ["B+R", "W+0.5", "0", "?"].iter().enumerate() {
            s.add(&GameLine {
                index: i,
                seed: 7,
                result: GameResult::parse(r),
                length: 31 + i,
                ending: ["resign-white", "passes", "passes", "cap"][i].into(),
                playouts: 1000,
                seconds: 0.7,
                file: sgf_name(i),
            });
        }
        assert_eq!(
            s.json(),
            r#"{"kind":"selfplay","games":4,"black":{"wins":1,"rate":0.5,"ci95":[0.125334,0.874666]},"white":{"wins":1,"rate":0.5,"ci95":[0.125334,0.874666]},"draws":1,"void":1,"mean_length":32.5,"resignations":1,"endings":{"cap":1,"passes":2,"resign-white":1},"playouts":4000,"seconds":2.8,"playouts_per_second":1428.571429}"#
        );
        let m = Summarized {
            summary: s,
            settings: "size=9".into(),
            tables: 2,
            expected: 5,
            present: 4,
            duplicates: 1,
            torn: 0,
            unrecorded: 1,
            missing: 0,
        };
        assert_eq!(
            m.json(),
            r#"{"tables":2,"present":4,"expected":5,"duplicates":1,"torn":0,"kind":"selfplay","games":4,"black":{"wins":1,"rate":0.5,"ci95":[0.125334,0.874666]},"white":{"wins":1,"rate":0.5,"ci95":[0.125334,0.874666]},"draws":1,"void":1,"mean_length":32.5,"resignations":1,"endings":{"cap":1,"passes":2,"resign-white":1},"playouts":4000,"seconds":2.8,"playouts_per_second":1428.571429,"unrecorded":1,"missing":0}"#
        );
        // Read back, written again: the same bytes.
        let back: SummarizedJson = serde_json::from_str(&m.json()).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), m.json());
    }
}

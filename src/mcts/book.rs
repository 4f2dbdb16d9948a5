//! The opening book: for positions of the first moves of a game, the move
//! that Kosumi's own long search chose there, played without searching
//! (knob `book`).
//!
//! A book holds one board size and one komi, under area scoring. A
//! position is keyed by its stones in the smallest of its eight symmetric
//! images (the cells row by row from the top, `.` empty, `X` black, `O`
//! white, compared as bytes) and the side to move; the move is stored in
//! that image's orientation and mapped back to the board's. A position
//! with a simple-ko point is never looked up.
//!
//! [`build`] makes a book: from the empty board, ply by ply, each position
//! is searched with a fresh tree (one seed per position, so the book is
//! the same whatever the jobs), its most visited move is recorded, and
//! the positions after its most visited distinct moves (`branching[ply]`
//! of them, each with at least `min_share` of the visits) are searched at
//! the next ply. Those moves are the replies Kosumi expects of either
//! side, so the book covers its own moves as Black and as White.
//!
//! The text form (`data/book9.tsv` is built into the binary):
//!
//! ```text
//! # kosumi opening book 1
//! # size=9 komi=7
//! # command: ...
//! POSITION<TAB>TO_MOVE<TAB>MOVE<TAB>VISITS<TAB>WINRATE<TAB>SCORE_LEAD
//! ```
//!
//! `POSITION` gives the rows of the canonical image from the top, joined
//! by `/`; `TO_MOVE` is `b` or `w`; `MOVE` a GTP vertex in that image;
//! `VISITS`, `WINRATE` and `SCORE_LEAD` are the search's figures for the
//! move (win rate and lead for the side to move, the lead komi included).

use super::{MctsPlayer, SearchConfig};
use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::komi::Komi;
use crate::player::{Analysis, CandidateInfo};
use crate::point::{parse_gtp_move, Move, Point};
use crate::rules::{Rules, Scoring};
use fxhash::FxHashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

/// The first line of a book's text form.
pub const BOOK_FORMAT: &str = "# kosumi opening book 1";

/// The book built into the binary (9x9, komi 7).
const BUILTIN_9: &str = include_str!("../../data/book9.tsv");

/// The move of one book position and the search's figures for it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BookEntry {
    /// The move, in the orientation of the position's canonical image.
    pub mv: Point,
    /// Visits of the move in the search that chose it.
    pub visits: u32,
    /// Its win rate for the side to move.
    pub winrate: f32,
    /// Its score lead for the side to move, komi included.
    pub score_lead: f32,
}

/// A book move found for a game: the move on the game's board and the
/// entry it came from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BookHit {
    /// The move to play.
    pub mv: Move,
    /// The entry.
    pub entry: BookEntry,
}

impl BookHit {
    /// The hit as a search's snapshot would give it: one candidate, the
    /// book move with its figures, no playouts and no ownership.
    pub fn analysis(&self, color: Color) -> Analysis {
        let e = self.entry;
        Analysis {
            color,
            visits: e.visits,
            playouts: 0,
            winrate: e.winrate,
            score_lead: e.score_lead,
            root_winrate: e.winrate,
            root_score_lead: e.score_lead,
            root_score_stdev: 0.0,
            candidates: vec![CandidateInfo {
                mv: self.mv,
                visits: e.visits,
                winrate: e.winrate,
                prior: 1.0,
                lcb: e.winrate,
                order: 0,
                pv: vec![self.mv],
                pv_visits: vec![e.visits],
                score_lead: e.score_lead,
                score_stdev: 0.0,
            }],
            unvisited: Vec::new(),
            ownership: Vec::new(),
        }
    }
}

/// A key: the canonical image's cells and the side to move.
type Key = (Vec<u8>, Color);

/// An opening book for one board size and komi.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    size: usize,
    komi: f32,
    /// Comment lines after the first two, without their `# `.
    header: Vec<String>,
    entries: FxHashMap<Key, BookEntry>,
}

/// A book text that does not parse: the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "opening book line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

/// Where the point `(x, y)` of a board of size `n` goes under symmetry `s`
/// (0 to 7: bit 2 swaps the axes, then bit 0 mirrors the columns and bit
/// 1 the rows).
fn map(s: u8, n: usize, x: usize, y: usize) -> (usize, usize) {
    let (mut a, mut b) = if s & 4 != 0 { (y, x) } else { (x, y) };
    if s & 1 != 0 {
        a = n - 1 - a;
    }
    if s & 2 != 0 {
        b = n - 1 - b;
    }
    (a, b)
}

/// The cell byte of a point.
fn cell(c: Option<Color>) -> u8 {
    match c {
        None => b'.',
        Some(Color::Black) => b'X',
        Some(Color::White) => b'O',
    }
}

/// The canonical image of `board` (the smallest of its eight, as bytes)
/// and a symmetry that gives it.
pub fn canonical(board: &Board) -> (Vec<u8>, u8) {
    let n = board.size();
    let mut best: Option<(Vec<u8>, u8)> = None;
    let mut img = vec![b'.'; n * n];
    for s in 0..8u8 {
        for p in Point::all(n) {
            let (a, b) = map(s, n, p.x(), p.y());
            img[b * n + a] = cell(board.get(p));
        }
        if best.as_ref().is_none_or(|(b, _)| img < *b) {
            best = Some((img.clone(), s));
        }
    }
    best.expect("eight images")
}

impl Book {
    /// An empty book for `size` and `komi`.
    pub fn new(size: usize, komi: Komi) -> Book {
        Book {
            size,
            komi: komi.get(),
            header: Vec::new(),
            entries: FxHashMap::default(),
        }
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The komi.
    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds (or replaces) the entry of the canonical `image` with `to_move`.
    fn insert(&mut self, image: Vec<u8>, to_move: Color, entry: BookEntry) {
        self.entries.insert((image, to_move), entry);
    }

    /// The book move for `color` in `game`, if the book holds the
    /// position: the same size and komi, area scoring, `color` to move, no
    /// simple-ko point, and a legal move.
    pub fn lookup(&self, game: &Game, color: Color) -> Option<BookHit> {
        let board = game.board();
        if game.size() != self.size
            || game.komi().get() != self.komi
            || game.rules().scoring != Scoring::Area
            || game.to_move() != color
            || board.ko().is_some()
        {
            return None;
        }
        let (image, s) = canonical(board);
        let entry = *self.entries.get(&(image, color))?;
        let n = self.size;
        let actual =
            Point::all(n).find(|p| map(s, n, p.x(), p.y()) == (entry.mv.x(), entry.mv.y()))?;
        let mv = Move::Play(actual);
        game.check(color, mv).ok()?;
        Some(BookHit { mv, entry })
    }

    /// The books built into the binary, parsed once.
    ///
    /// # Panics
    /// If a built-in book does not parse (a test guards against it).
    pub fn builtin() -> &'static [Book] {
        static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();
        BOOKS.get_or_init(|| vec![Book::parse(BUILTIN_9).expect("built-in opening book")])
    }

    /// The book move of the built-in books for `color` in `game`.
    pub fn builtin_lookup(game: &Game, color: Color) -> Option<BookHit> {
        Book::builtin().iter().find_map(|b| b.lookup(game, color))
    }

    /// Reads a book's text form.
    ///
    /// # Errors
    /// The first line that is not what the format says.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let err = |line: usize, message: String| BookError { line, message };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        match lines.next() {
            Some((_, l)) if l == BOOK_FORMAT => {}
            _ => return Err(err(1, format!("expected '{BOOK_FORMAT}'"))),
        }
        let (size, komi) = match lines.next() {
            Some((i, l)) => parse_size_komi(l).map_err(|m| err(i, m))?,
            None => return Err(err(2, "expected '# size=N komi=K'".into())),
        };
        let mut book = Book::new(size, komi);
        for (i, l) in lines {
            if let Some(c) = l.strip_prefix('#') {
                book.header.push(c.trim_start().to_string());
                continue;
            }
            if l.trim().is_empty() {
                continue;
            }
            let (image, to_move, entry) = parse_entry(l, size).map_err(|m| err(i, m))?;
            if book.entries.contains_key(&(image.clone(), to_move)) {
                return Err(err(i, "the position is already in the book".into()));
            }
            book.insert(image, to_move, entry);
        }
        Ok(book)
    }

    /// The text form, entries sorted (the same bytes for the same book).
    pub fn to_text(&self) -> String {
        let n = self.size;
        let mut out = format!("{BOOK_FORMAT}\n# size={n} komi={}\n", self.komi);
        for h in &self.header {
            out.push_str(&format!("# {h}\n"));
        }
        let mut keys: Vec<&Key> = self.entries.keys().collect();
        keys.sort_by(|a, b| (&a.0, a.1 as u8).cmp(&(&b.0, b.1 as u8)));
        for k in keys {
            let e = &self.entries[k];
            let rows: Vec<&str> =
                k.0.chunks(n)
                    .map(|r| std::str::from_utf8(r).expect("cell bytes"))
                    .collect();
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{:.4}\t{:.2}\n",
                rows.join("/"),
                if k.1 == Color::Black { "b" } else { "w" },
                e.mv.to_gtp(n),
                e.visits,
                e.winrate,
                e.score_lead
            ));
        }
        out
    }

    /// Adds a comment line to the header.
    pub fn add_comment(&mut self, line: &str) {
        self.header.push(line.to_string());
    }
}

/// `# size=N komi=K`.
fn parse_size_komi(l: &str) -> Result<(usize, Komi), String> {
    let bad = || format!("expected '# size=N komi=K', not '{}'", crate::text::clip(l));
    let rest = l.strip_prefix("# ").ok_or_else(bad)?;
    let mut size = None;
    let mut komi = None;
    for w in rest.split_whitespace() {
        if let Some(v) = w.strip_prefix("size=") {
            size = v.parse::<usize>().ok().filter(|n| (2..=25).contains(n));
        } else if let Some(v) = w.strip_prefix("komi=") {
            komi = Komi::parse(v).ok();
        }
    }
    Ok((size.ok_or_else(bad)?, komi.ok_or_else(bad)?))
}

/// One entry line of a book of `size`.
fn parse_entry(l: &str, size: usize) -> Result<(Vec<u8>, Color, BookEntry), String> {
    let f: Vec<&str> = l.split('\t').collect();
    if f.len() != 6 {
        return Err(format!("expected 6 tab-separated fields, not {}", f.len()));
    }
    let rows: Vec<&str> = f[0].split('/').collect();
    if rows.len() != size || rows.iter().any(|r| r.len() != size) {
        return Err(format!("the position is not {size} rows of {size} cells"));
    }
    let image: Vec<u8> = rows.concat().into_bytes();
    if image.iter().any(|c| !matches!(c, b'.' | b'X' | b'O')) {
        return Err("a cell is not '.', 'X' or 'O'".into());
    }
    let to_move = match f[1] {
        "b" => Color::Black,
        "w" => Color::White,
        other => {
            return Err(format!(
                "expected b or w, not '{}'",
                crate::text::clip(other)
            ))
        }
    };
    let mv = match parse_gtp_move(f[2], size) {
        Ok(Move::Play(p)) => p,
        _ => {
            return Err(format!(
                "'{}' is not a point of the board",
                crate::text::clip(f[2])
            ))
        }
    };
    if image[mv.y() * size + mv.x()] != b'.' {
        return Err(format!("the move {} is on a stone", f[2]));
    }
    let mut board = Board::new(size).map_err(|e| e.to_string())?;
    for p in Point::all(size) {
        let c = match image[p.y() * size + p.x()] {
            b'X' => Some(Color::Black),
            b'O' => Some(Color::White),
            _ => None,
        };
        if let Some(c) = c {
            if board.play(c, p, false).is_err() {
                return Err("the position is not one a game can have".into());
            }
        }
    }
    if canonical(&board).0 != image {
        return Err("the position is not in its canonical orientation".into());
    }
    let visits = f[3]
        .parse::<u32>()
        .map_err(|_| format!("bad visits '{}'", crate::text::clip(f[3])))?;
    let number = |s: &str, what: &str| {
        s.parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("bad {what} '{}'", crate::text::clip(s)))
    };
    let winrate = number(f[4], "win rate")?;
    if !(0.0..=1.0).contains(&winrate) {
        return Err(format!("win rate {winrate} is outside 0..1"));
    }
    let score_lead = number(f[5], "score lead")?;
    Ok((
        image,
        to_move,
        BookEntry {
            mv,
            visits,
            winrate,
            score_lead,
        },
    ))
}

/// What [`build`] searches.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: Komi,
    /// Playouts of each position's search.
    pub playouts: u64,
    /// For each ply, how many of a position's most visited distinct moves
    /// lead to positions of the next ply; its length is the last ply whose
    /// positions are searched.
    pub branching: Vec<usize>,
    /// The least share of a search's visits a move needs to lead to a
    /// position of the next ply.
    pub min_share: f64,
    /// Positions searched at the same time, one search thread each unless
    /// the configuration says more.
    pub jobs: usize,
    /// The base seed; each position's search gets this seed mixed with
    /// its key.
    pub seed: u64,
}

/// FNV-1a of a key, for the seeds.
fn key_hash(image: &[u8], to_move: Color) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in image.iter().chain(std::iter::once(&(to_move as u8))) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Builds a book (see the module docs) with the search settings of `cfg`
/// (its playout limit, seed and early stop are set here), reporting each
/// ply to `log`.
pub fn build(opts: &BuildOptions, cfg: &SearchConfig, log: &mut dyn FnMut(&str)) -> Book {
    let rules = Rules::CHINESE;
    let mut book = Book::new(opts.size, opts.komi);
    let mut seen: std::collections::HashSet<Key> = std::collections::HashSet::new();
    let start = Game::new(opts.size, rules, opts.komi).expect("a board size of 2 to 25");
    let (image, _) = canonical(start.board());
    seen.insert((image, start.to_move()));
    let mut frontier = vec![start];
    for ply in 0..=opts.branching.len() {
        let results = search_all(&frontier, opts, cfg);
        let mut next = Vec::new();
        for (game, a) in frontier.iter().zip(&results) {
            let color = game.to_move();
            let Some(best) = a.candidates.iter().find(|c| c.mv != Move::Pass) else {
                continue;
            };
            let Move::Play(p) = best.mv else { continue };
            let (image, s) = canonical(game.board());
            let (x, y) = map(s, opts.size, p.x(), p.y());
            book.insert(
                image,
                color,
                BookEntry {
                    mv: Point::new(x, y),
                    visits: best.visits,
                    winrate: best.winrate,
                    score_lead: best.score_lead,
                },
            );
            let Some(&k) = opts.branching.get(ply) else {
                continue;
            };
            let least = opts.min_share * f64::from(a.visits.max(1));
            let mut taken = 0;
            for c in &a.candidates {
                if taken >= k || f64::from(c.visits) < least {
                    break;
                }
                if c.mv == Move::Pass {
                    continue;
                }
                let mut g = game.clone();
                if g.play(color, c.mv).is_err() || g.board().ko().is_some() {
                    continue;
                }
                let (image, _) = canonical(g.board());
                if seen.insert((image, g.to_move())) {
                    next.push(g);
                    taken += 1;
                }
            }
        }
        log(&format!(
            "ply {ply}: {} positions searched, {} in the book",
            frontier.len(),
            book.len()
        ));
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }
    book
}

/// Searches every game of `games` for its side to move, `opts.jobs` at a
/// time, each with a fresh player; the snapshots in the games' order.
fn search_all(games: &[Game], opts: &BuildOptions, cfg: &SearchConfig) -> Vec<Analysis> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Analysis>>> = Mutex::new(vec![None; games.len()]);
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(game) = games.get(i) else { break };
                let (image, _) = canonical(game.board());
                let mut c = cfg.clone();
                c.seed = opts.seed ^ key_hash(&image, game.to_move());
                c.early_stop = false;
                c.max_playouts = Some(opts.playouts);
                c.resign_threshold = 0.0;
                let mut player = MctsPlayer::new(c);
                let a = player.search_playouts(game, opts.playouts);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(a);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|a| a.expect("every position searched"))
        .collect()
}

/// The options of `kosumi book`.
#[derive(clap::Args, Clone, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: BookAction,
}

/// The actions of `kosumi book`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum BookAction {
    /// Builds an opening book by searching the first plies from the empty
    /// board (see `ARCHITECTURE.md`) and writes its text form.
    Build {
        /// Board size.
        #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u64).range(2..=25))]
        size: u64,
        /// Komi.
        #[arg(long, default_value = "7", allow_negative_numbers = true, value_parser = crate::settings::komi)]
        komi: Komi,
        /// For each ply, how many of a position's most visited distinct
        /// moves lead on to the next ply (comma-separated; the list's
        /// length is the last ply searched).
        #[arg(long, value_delimiter = ',', default_value = "8,4,2,1", value_parser = branch)]
        branching: Vec<usize>,
        /// The least share of a search's visits a move needs to lead on.
        #[arg(long, default_value_t = 0.0005, value_parser = share)]
        min_share: f64,
        /// Positions searched at the same time (the book is the same
        /// whatever the jobs).
        #[arg(long, default_value_t = 1, value_parser = crate::settings::jobs)]
        jobs: usize,
        /// Base seed of the searches.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The book to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// The search options (`--playouts`: each position's search,
        /// 250,000 by default; one thread a job unless `--threads`).
        #[command(flatten)]
        search: super::SearchArgs,
    },
}

/// One count of `--branching`: 1 to 50.
fn branch(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(k) if (1..=50).contains(&k) => Ok(k),
        _ => Err(format!(
            "expected a count from 1 to 50, not '{}'",
            crate::text::clip(s)
        )),
    }
}

/// `--min-share`: a number from 0 to 1.
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "expected a number from 0 to 1, not '{}'",
            crate::text::clip(s)
        )),
    }
}

/// The most plies `--branching` may name.
const MAX_PLIES: usize = 12;

/// Runs `kosumi book`: exit status 2 for options that cannot run, 1 for
/// a failure while running.
pub fn run(args: BookArgs) -> std::process::ExitCode {
    let BookAction::Build {
        branching, search, ..
    } = &args.action;
    let refused = if branching.len() > MAX_PLIES {
        Some(format!(
            "--branching names at most {MAX_PLIES} plies, not {}",
            branching.len()
        ))
    } else {
        search.check().err()
    };
    if let Some(e) = refused {
        eprintln!("kosumi book: {e}");
        return std::process::ExitCode::from(2);
    }
    match run_action(args.action) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kosumi book: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run_action(action: BookAction) -> Result<(), String> {
    let BookAction::Build {
        size,
        komi,
        branching,
        min_share,
        jobs,
        seed,
        out,
        search,
    } = action;
    // The file is made before the searches, so a path that cannot be
    // written fails at once; it is renamed when complete.
    let mut tmp = out.clone().into_os_string();
    tmp.push(".part");
    let tmp = std::path::PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let playouts = search.playouts.unwrap_or(250_000);
    let cfg = search.search_config(seed, 1);
    let opts = BuildOptions {
        size: size as usize,
        komi,
        playouts,
        branching: branching.clone(),
        min_share,
        jobs,
        seed,
    };
    let started = std::time::Instant::now();
    let mut book = build(&opts, &cfg, &mut |s| eprintln!("{s}"));
    let list: Vec<String> = branching.iter().map(|k| k.to_string()).collect();
    book.add_comment(&format!(
        "command: kosumi book build --size {size} --komi {} --branching {} --min-share {min_share} --seed {seed} ({}, playouts={playouts})",
        komi.get(),
        list.join(","),
        search.describe(cfg.threads)
    ));
    book.add_comment(&format!(
        "built by kosumi {}",
        crate::build_info::LONG_VERSION
    ));
    use std::io::Write;
    file.write_all(book.to_text().as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    drop(file);
    std::fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "wrote {} positions to {} in {:.0} s",
        book.len(),
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn game_of(size: usize, moves: &[&str], komi: f32) -> Game {
        let mut g = Game::new(size, Rules::default(), Komi::new(komi).unwrap()).unwrap();
        for m in moves {
            let mv = parse_gtp_move(m, size).unwrap();
            let c = g.to_move();
            g.play(c, mv).unwrap();
        }
        g
    }

    /// The eight images of a position, as games.
    fn images(size: usize, moves: &[&str]) -> Vec<Game> {
        (0..8u8)
            .map(|s| {
                let mut g = Game::new(size, Rules::default(), Komi::new(7.0).unwrap()).unwrap();
                for m in moves {
                    let Move::Play(p) = parse_gtp_move(m, size).unwrap() else {
                        panic!("pass")
                    };
                    let (x, y) = map(s, size, p.x(), p.y());
                    let c = g.to_move();
                    g.play(c, Move::Play(Point::new(x, y))).unwrap();
                }
                g
            })
            .collect()
    }

    #[test]
    fn every_image_of_a_position_has_one_key() {
        let moves = ["E5", "C3", "G4", "D7", "C6"];
        let keys: Vec<Vec<u8>> = images(9, &moves)
            .iter()
            .map(|g| canonical(g.board()).0)
            .collect();
        assert!(keys.iter().all(|k| *k == keys[0]));
        // Another position has another key.
        let other = game_of(9, &["E5", "C3", "G4", "D7", "C7"], 7.0);
        assert_ne!(canonical(other.board()).0, keys[0]);
    }

    /// A book with one entry: after E5 C4 (Black to move, a position
    /// with no symmetry of its own), F7.
    fn one_entry_book() -> Book {
        let g = game_of(9, &["E5", "C4"], 7.0);
        let (image, s) = canonical(g.board());
        let (x, y) = map(s, 9, 5, 2); // F7: column F, row 7 from the bottom
        let mut book = Book::new(9, Komi::new(7.0).unwrap());
        book.insert(
            image,
            Color::Black,
            BookEntry {
                mv: Point::new(x, y),
                visits: 1000,
                winrate: 0.55,
                score_lead: 1.5,
            },
        );
        book
    }

    #[test]
    fn the_book_move_follows_the_board_through_every_symmetry() {
        let book = one_entry_book();
        for (s, g) in images(9, &["E5", "C4"]).iter().enumerate() {
            let hit = book.lookup(g, Color::Black).expect("in the book");
            let (x, y) = map(s as u8, 9, 5, 2);
            assert_eq!(hit.mv, Move::Play(Point::new(x, y)), "symmetry {s}");
            assert_eq!(hit.entry.visits, 1000);
        }
        // E5 C3 is its own mirror image across the diagonal through C3:
        // the book's move there is one of the two mirrored points.
        let g = game_of(9, &["E5", "C3"], 7.0);
        let (image, s) = canonical(g.board());
        let (x, y) = map(s, 9, 5, 2);
        let mut book = Book::new(9, Komi::new(7.0).unwrap());
        let entry = BookEntry {
            mv: Point::new(x, y),
            visits: 1,
            winrate: 0.5,
            score_lead: 0.0,
        };
        book.insert(image, Color::Black, entry);
        // Played on the first image, F7 gives the canonical position that
        // the book move gives on every image.
        let Move::Play(f7) = parse_gtp_move("F7", 9).unwrap() else {
            panic!("pass")
        };
        let mut first = g.board().clone();
        first.play(Color::Black, f7, false).unwrap();
        let want = canonical(&first).0;
        for g in images(9, &["E5", "C3"]) {
            let hit = book.lookup(&g, Color::Black).expect("in the book");
            let Move::Play(p) = hit.mv else {
                panic!("pass")
            };
            let mut b = g.board().clone();
            b.play(Color::Black, p, false).unwrap();
            assert_eq!(canonical(&b).0, want);
        }
    }

    #[test]
    fn the_book_answers_only_its_size_komi_scoring_and_side() {
        let book = one_entry_book();
        let g = game_of(9, &["E5", "C4"], 7.0);
        assert!(book.lookup(&g, Color::Black).is_some());
        assert!(book.lookup(&g, Color::White).is_none());
        assert!(book
            .lookup(&game_of(9, &["E5", "C4"], 6.5), Color::Black)
            .is_none());
        assert!(book
            .lookup(&game_of(9, &["E5", "C3"], 7.0), Color::Black)
            .is_none());
        assert!(book
            .lookup(&game_of(11, &["E5", "C4"], 7.0), Color::Black)
            .is_none());
        let mut japanese = Game::new(9, Rules::JAPANESE, Komi::new(7.0).unwrap()).unwrap();
        for m in ["E5", "C4"] {
            let c = japanese.to_move();
            japanese.play(c, parse_gtp_move(m, 9).unwrap()).unwrap();
        }
        assert!(book.lookup(&japanese, Color::Black).is_none());
    }

    #[test]
    fn text_form_round_trips_and_names_bad_lines() {
        let mut book = one_entry_book();
        book.add_comment("command: test");
        let text = book.to_text();
        assert!(text.starts_with(BOOK_FORMAT));
        let back = Book::parse(&text).expect("parses");
        assert_eq!(back, book);
        assert_eq!(back.to_text(), text);
        let entry = text.lines().nth(3).expect("an entry line");
        let cases: Vec<(String, usize)> = vec![
            (String::new(), 1),
            ("# kosumi opening book 2\n".into(), 1),
            (format!("{BOOK_FORMAT}\n# size=99 komi=7\n"), 2),
            (format!("{BOOK_FORMAT}\n# size=9 komi=x\n"), 2),
            (format!("{BOOK_FORMAT}\n# size=9 komi=7\nnot an entry\n"), 3),
            (
                format!("{BOOK_FORMAT}\n# size=9 komi=7\n{entry}\n{entry}\n"),
                4,
            ),
            (
                format!(
                    "{BOOK_FORMAT}\n# size=9 komi=7\n{}\n",
                    entry.replace("\tb\t", "\tq\t")
                ),
                3,
            ),
            (
                format!(
                    "{BOOK_FORMAT}\n# size=9 komi=7\n{}\n",
                    entry.replacen('.', "Z", 1)
                ),
                3,
            ),
            (
                format!(
                    "{BOOK_FORMAT}\n# size=9 komi=7\n{}\n",
                    entry.replace("0.5500", "1.5")
                ),
                3,
            ),
            (
                format!(
                    "{BOOK_FORMAT}\n# size=9 komi=7\n{}\n",
                    entry.replace("0.5500", "NaN")
                ),
                3,
            ),
        ];
        for (t, line) in cases {
            let e = Book::parse(&t).expect_err(&t);
            assert_eq!(e.line, line, "{t}: {e}");
        }
        // A move on a stone, and a position not in canonical orientation.
        let g = game_of(9, &["E5", "C4"], 7.0);
        let (image, _) = canonical(g.board());
        let rows: Vec<String> = image
            .chunks(9)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let on_stone = format!(
            "{BOOK_FORMAT}\n# size=9 komi=7\n{}\tb\tE5\t1\t0.5\t0\n",
            rows.join("/")
        );
        assert!(Book::parse(&on_stone).is_err());
        let mut flipped: Vec<String> = rows.clone();
        flipped.reverse();
        let flipped: Vec<String> = flipped.iter().map(|r| r.chars().rev().collect()).collect();
        if flipped != rows {
            let t = format!(
                "{BOOK_FORMAT}\n# size=9 komi=7\n{}\tb\tA1\t1\t0.5\t0\n",
                flipped.join("/")
            );
            let e = Book::parse(&t).expect_err("not canonical");
            assert!(e.message.contains("canonical"), "{e}");
        }
    }

    #[test]
    fn the_builtin_book_parses_and_its_moves_are_legal() {
        for book in Book::builtin() {
            for ((image, to_move), e) in &book.entries {
                let mut b = Board::new(book.size).unwrap();
                for p in Point::all(book.size) {
                    match image[p.y() * book.size + p.x()] {
                        b'X' => {
                            b.play(Color::Black, p, false).unwrap();
                        }
                        b'O' => {
                            b.play(Color::White, p, false).unwrap();
                        }
                        _ => {}
                    }
                }
                assert!(b.check(*to_move, e.mv, false).is_ok());
                assert!((0.0..=1.0).contains(&e.winrate));
            }
        }
    }

    /// The player with `book` on answers the built-in book's move at once
    /// (no playout), with the book's figures as its last search; off, or
    /// in clean-up mode, it searches.
    #[test]
    fn the_player_plays_the_book_move_without_a_playout() {
        use crate::clock::Clock;
        use crate::player::{Decision, GenmoveRequest, Player};
        let g = Game::new(9, Rules::CHINESE, Komi::new(7.0).unwrap()).unwrap();
        let hit =
            Book::builtin_lookup(&g, Color::Black).expect("the empty 9x9 board is in the book");
        let clock = Clock::default();
        let req = |cleanup| GenmoveRequest {
            game: &g,
            color: Color::Black,
            clock: &clock,
            cleanup,
            stop: None,
        };
        let cfg = |book| SearchConfig {
            threads: 1,
            max_playouts: Some(300),
            book,
            ..SearchConfig::default()
        };
        let mut p = MctsPlayer::new(cfg(true));
        assert_eq!(p.genmove(&req(false)), Decision::Play(hit.mv));
        assert_eq!(p.playouts(), 0);
        let last = p.last_search().expect("the book's figures");
        assert_eq!(last.candidates[0].mv, hit.mv);
        assert_eq!(last.visits, hit.entry.visits);
        p.genmove(&req(true));
        assert!(p.playouts() >= 300);
        let mut off = MctsPlayer::new(cfg(false));
        off.genmove(&req(false));
        assert!(off.playouts() >= 300);
    }

    #[test]
    fn a_build_is_the_same_whatever_the_jobs() {
        let cfg = SearchConfig {
            threads: 1,
            ..SearchConfig::default()
        };
        let opts = BuildOptions {
            size: 5,
            komi: Komi::new(7.0).unwrap(),
            playouts: 300,
            branching: vec![3, 2],
            min_share: 0.01,
            jobs: 1,
            seed: 5,
        };
        let one = build(&opts, &cfg, &mut |_| {});
        let two = build(
            &BuildOptions {
                jobs: 2,
                ..opts.clone()
            },
            &cfg,
            &mut |_| {},
        );
        assert_eq!(one.to_text(), two.to_text());
        // The empty board, three replies, and two replies to each of them.
        assert!(one.len() >= 4, "{}", one.to_text());
        assert!(one.len() <= 1 + 3 + 6);
        // Its first move is what the book answers on the empty board.
        let g = Game::new(5, Rules::default(), Komi::new(7.0).unwrap()).unwrap();
        let hit = one
            .lookup(&g, Color::Black)
            .expect("the empty board is in the book");
        assert!(g.check(Color::Black, hit.mv).is_ok());
    }
}

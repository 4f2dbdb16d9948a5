//! Training positions as a little-endian binary file (`kosumi nn export`).
//!
//! One file holds one board size. It starts with a 32-byte header:
//!
//! | bytes | field |
//! |-------|-------|
//! | 0..8 | magic `KSNNDATA` |
//! | 8..12 | version, u32 ([`DATA_VERSION`]) |
//! | 12..16 | binary planes per record, u32 ([`BASE_PLANES`]) |
//! | 16..20 | board size, u32 |
//! | 20..24 | flags, u32: bit 0, each record carries the pattern plane |
//! | 24..28 | previous moves given a plane, u32 ([`HISTORY`]) |
//! | 28..32 | reserved, 0 |
//!
//! Then records, one per position, until the end of the file. With
//! `A = size * size`, a record is:
//!
//! | bytes | field |
//! |-------|-------|
//! | 2 | the move played, u16: `y * size + x`, `A` for a pass |
//! | 1 | the game's result for the side to move, i8: 1 won, -1 lost, 0 unknown or a draw |
//! | 1 | record flags, u8: bit 0, a policy target follows the planes |
//! | 2 | the move number (from 1), u16, saturating |
//! | 2 | reserved, 0 |
//! | `ceil(planes * A / 8)` | the binary planes ([`super::planes`]), plane after plane, point after point; bit `i` of that sequence is bit `i % 8` of byte `i / 8` |
//! | `A` (with header flag bit 0) | the pattern plane, one byte a point (`q`, see [`super::planes`]) |
//! | `4 * (A + 1)` (with record flag bit 0) | the policy target: f32 probabilities, points then the pass, summing to 1 |
//!
//! Records without a policy target train towards the move played.
//!
//! ## Visit files
//!
//! Beside a self-play record `game-000001.sgf`, a `game-000001.visits`
//! (written by `kosumi selfplay --visits`) gives the search's root visit
//! counts per move, as text:
//!
//! ```text
//! # kosumi visits 1
//! 1\tD4:120 Q16:80 pass:2
//! 2\t...
//! ```
//!
//! (`\t` a tab) a `#` line, then one line per move searched: the move
//! number (from 1), a tab, and space-separated `vertex:visits` pairs (GTP vertices,
//! `pass`). `nn export` turns each line into its move's policy target
//! (the visits over their sum).

use super::planes::{
    base_planes, pattern_bytes, plane_count, point_index, NnPosition, BASE_PLANES, HISTORY,
};
use super::NnError;
use crate::color::Color;
use crate::game::Game;
use crate::patterns::{is_held_out, sgf_files, PatternTable, Record};
use crate::point::{parse_gtp_move, Move};
use crate::sgf::{self, ReadOptions, ReplayOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The magic bytes of a data file.
pub const DATA_MAGIC: &[u8; 8] = b"KSNNDATA";
/// The data format's version.
pub const DATA_VERSION: u32 = 1;

/// A data file's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    /// Board size.
    pub size: usize,
    /// Whether records carry the pattern plane.
    pub pattern_plane: bool,
}

impl DataHeader {
    /// The 32 header bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut h = [0u8; 32];
        h[..8].copy_from_slice(DATA_MAGIC);
        h[8..12].copy_from_slice(&DATA_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(BASE_PLANES as u32).to_le_bytes());
        h[16..20].copy_from_slice(&(self.size as u32).to_le_bytes());
        h[20..24].copy_from_slice(&u32::from(self.pattern_plane).to_le_bytes());
        h[24..28].copy_from_slice(&(HISTORY as u32).to_le_bytes());
        h
    }

    /// Reads a header.
    ///
    /// # Errors
    /// [`NnError::Format`] for a short header, another magic, version,
    /// plane count or history, or a size outside 2..=25.
    pub fn parse(b: &[u8]) -> Result<DataHeader, NnError> {
        let bad = |m: String| NnError::Format(format!("data header: {m}"));
        if b.len() < 32 {
            return Err(bad("shorter than 32 bytes".into()));
        }
        if &b[..8] != DATA_MAGIC {
            return Err(bad("not a kosumi nn data file (magic)".into()));
        }
        let u = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        if u(8) != DATA_VERSION {
            return Err(bad(format!("version {} (expected {DATA_VERSION})", u(8))));
        }
        if u(12) as usize != BASE_PLANES || u(24) as usize != HISTORY {
            return Err(bad(format!(
                "{} planes, history {} (expected {BASE_PLANES}, {HISTORY})",
                u(12),
                u(24)
            )));
        }
        let size = u(16) as usize;
        if !(2..=25).contains(&size) {
            return Err(bad(format!("board size {size}")));
        }
        Ok(DataHeader {
            size,
            pattern_plane: u(20) & 1 == 1,
        })
    }

    /// Planes the network reads from records of this file.
    pub fn planes(&self) -> usize {
        plane_count(self.pattern_plane)
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct DataRecord {
    /// The move played: a point index or `size * size` for a pass.
    pub mv: u16,
    /// The result for the side to move: 1, -1, or 0.
    pub result: i8,
    /// The move number, from 1.
    pub number: u16,
    /// The planes, [`DataHeader::planes`] of them, as the network reads
    /// them.
    pub planes: Vec<f32>,
    /// The policy target (points, then the pass), if the record has one.
    pub policy: Option<Vec<f32>>,
}

/// A record's move, result and move number (see [`DataRecord`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordMeta {
    /// The move played: a point index or `size * size` for a pass.
    pub mv: u16,
    /// The result for the side to move: 1, -1, or 0.
    pub result: i8,
    /// The move number, from 1.
    pub number: u16,
}

/// Appends the bytes of a record: `planes` as the network reads them
/// ([`super::planes::planes`]); the pattern plane, if the header has it,
/// as its bytes `pattern`.
pub fn encode_record(
    out: &mut Vec<u8>,
    h: &DataHeader,
    meta: RecordMeta,
    planes: &[f32],
    pattern: Option<&[u8]>,
    policy: Option<&[f32]>,
) {
    let area = h.size * h.size;
    out.extend_from_slice(&meta.mv.to_le_bytes());
    out.push(meta.result as u8);
    out.push(u8::from(policy.is_some()));
    out.extend_from_slice(&meta.number.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    let bits = BASE_PLANES * area;
    let start = out.len();
    out.resize(start + bits.div_ceil(8), 0);
    for (i, &v) in planes[..bits].iter().enumerate() {
        if v != 0.0 {
            out[start + i / 8] |= 1 << (i % 8);
        }
    }
    if h.pattern_plane {
        let p = pattern.expect("pattern bytes for a file with the pattern plane");
        out.extend_from_slice(&p[..area]);
    }
    if let Some(p) = policy {
        for &x in &p[..area + 1] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
}

/// Reads a whole data file's bytes.
///
/// # Errors
/// [`NnError::Format`] for a bad header or a record cut short.
pub fn decode(bytes: &[u8]) -> Result<(DataHeader, Vec<DataRecord>), NnError> {
    let h = DataHeader::parse(bytes)?;
    let area = h.size * h.size;
    let bits = BASE_PLANES * area;
    let mut at = 32;
    let mut out = Vec::new();
    while at < bytes.len() {
        let fixed = 8 + bits.div_ceil(8) + if h.pattern_plane { area } else { 0 };
        let short = || NnError::Format(format!("record {} cut short", out.len() + 1));
        let r = bytes.get(at..at + fixed).ok_or_else(short)?;
        let mv = u16::from_le_bytes([r[0], r[1]]);
        if usize::from(mv) > area {
            return Err(NnError::Format(format!(
                "record {}: move {mv} off the board",
                out.len() + 1
            )));
        }
        let mut planes = vec![0.0f32; h.planes() * area];
        for (i, p) in planes[..bits].iter_mut().enumerate() {
            if r[8 + i / 8] >> (i % 8) & 1 == 1 {
                *p = 1.0;
            }
        }
        if h.pattern_plane {
            let q = &r[8 + bits.div_ceil(8)..];
            for (p, &b) in planes[bits..].iter_mut().zip(q) {
                *p = f32::from(b) / 255.0;
            }
        }
        at += fixed;
        let policy = if r[3] & 1 == 1 {
            let n = 4 * (area + 1);
            let pb = bytes.get(at..at + n).ok_or_else(short)?;
            at += n;
            Some(
                pb.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            )
        } else {
            None
        };
        out.push(DataRecord {
            mv,
            result: r[2] as i8,
            number: u16::from_le_bytes([r[4], r[5]]),
            planes,
            policy,
        });
    }
    Ok((h, out))
}

/// Which files of the corpus to export.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// The files `patterns train` trains on.
    Train,
    /// The held-out files `patterns eval` measures on.
    HeldOut,
    /// Every file.
    All,
}

impl Split {
    /// Whether `path` belongs to this split under `holdout`.
    pub fn keeps(self, path: &Path, holdout: u32) -> bool {
        match self {
            Split::Train => !is_held_out(path, holdout),
            Split::HeldOut => holdout == 0 || is_held_out(path, holdout),
            Split::All => true,
        }
    }
}

/// A game record with its result.
#[derive(Clone, Debug)]
pub struct ResultRecord {
    /// The record.
    pub record: Record,
    /// The winner, when the record's `RE` names one.
    pub winner: Option<Color>,
}

/// The winner an SGF `RE` value names (`B+...`, `W+...`).
pub fn winner_of(re: &str) -> Option<Color> {
    let t = re.trim();
    if t.starts_with("B+") || t.starts_with("b+") {
        Some(Color::Black)
    } else if t.starts_with("W+") || t.starts_with("w+") {
        Some(Color::White)
    } else {
        None
    }
}

/// Reads every game of the SGF file at `path` as
/// [`crate::patterns::load_records`] does (a tolerant replay), keeping the
/// result; problems go to `log`.
pub fn load_with_results(path: &Path, log: &mut dyn FnMut(&str)) -> Vec<ResultRecord> {
    let name = path.display().to_string();
    let c = match sgf::read_file(path, ReadOptions::default()) {
        Ok(c) => c,
        Err(e) => {
            log(&format!("skipped: {e}"));
            return Vec::new();
        }
    };
    let opts = ReplayOptions {
        tolerant: true,
        ..ReplayOptions::default()
    };
    let mut out = Vec::new();
    for tree in &c.trees {
        match sgf::replay_tree(&name, tree, &opts) {
            Ok(r) => {
                if let Some(a) = &r.illegal {
                    log(&format!("skipped: {name}: stopped at {a}"));
                }
                let g = &r.game;
                let start =
                    Game::from_position(g.start().clone(), g.start_to_move(), g.rules(), g.komi());
                out.push(ResultRecord {
                    record: Record {
                        file: name.clone(),
                        start,
                        moves: g.moves().to_vec(),
                    },
                    winner: r.result.as_deref().and_then(winner_of),
                });
            }
            Err(e) => log(&format!("skipped: {e}")),
        }
    }
    out
}

/// The visits of a `.visits` file: per move number, the moves and their
/// visit counts.
pub type Visits = Vec<(usize, Vec<(Move, u32)>)>;

/// The visit counts of a `.visits` file (see the module docs): per move
/// number, the moves and their visits.
///
/// # Errors
/// [`NnError::Format`] for a line that is not `number<TAB>vertex:visits...`
/// or a vertex off the board.
pub fn parse_visits(text: &str, size: usize) -> Result<Visits, NnError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |m: &str| NnError::Format(format!("visits line {}: {m}", i + 1));
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (num, rest) = line.split_once('\t').ok_or_else(|| bad("no tab"))?;
        let number: usize = num.trim().parse().map_err(|_| bad("bad move number"))?;
        let mut moves = Vec::new();
        for pair in rest.split_whitespace() {
            let (v, n) = pair
                .rsplit_once(':')
                .ok_or_else(|| bad("pair without ':'"))?;
            let mv = parse_gtp_move(v, size).map_err(|e| bad(&e.to_string()))?;
            let n: u32 = n.parse().map_err(|_| bad("bad visit count"))?;
            moves.push((mv, n));
        }
        out.push((number, moves));
    }
    Ok(out)
}

/// The text of a `.visits` file (see the module docs) for a game's
/// `visits`, one entry per move (moves with no visits get no line).
pub fn visits_text(visits: &[Vec<(Move, u32)>], size: usize) -> String {
    let mut s = String::from("# kosumi visits 1\n");
    for (i, v) in visits.iter().enumerate() {
        if v.is_empty() {
            continue;
        }
        s.push_str(&(i + 1).to_string());
        s.push('\t');
        let pairs: Vec<String> = v
            .iter()
            .map(|(m, n)| format!("{}:{n}", m.to_gtp(size)))
            .collect();
        s.push_str(&pairs.join(" "));
        s.push('\n');
    }
    s
}

/// `kosumi nn export`: the corpus, the split and the output.
#[derive(Clone, Debug)]
pub struct ExportCommand {
    /// Directories (or files) of SGF records.
    pub games: Vec<PathBuf>,
    /// Hold out one file in this many (0: none), as `patterns`.
    pub holdout: u32,
    /// Which files.
    pub split: Split,
    /// Only records of this board size.
    pub size: usize,
    /// The pattern plane, from this table.
    pub pattern_table: Option<PatternTable>,
}

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Files of the split.
    pub files: usize,
    /// Games of the board size read.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Of which with a policy target from a visits file.
    pub with_visits: usize,
}

/// Writes the positions of `cmd`'s games to `out`: every position of
/// every main line of the board size, from the files of the split (sorted
/// by path), where the move played is legal on the board.
///
/// # Errors
/// [`NnError::Io`] for an unreadable directory or a failed write;
/// [`NnError::Format`] for a bad visits file.
pub fn export(
    cmd: &ExportCommand,
    out: &mut dyn Write,
    log: &mut dyn FnMut(&str),
) -> Result<ExportSummary, NnError> {
    let files = sgf_files(&cmd.games).map_err(|e| NnError::Io(e.to_string()))?;
    let kept: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| cmd.split.keeps(f, cmd.holdout))
        .collect();
    let h = DataHeader {
        size: cmd.size,
        pattern_plane: cmd.pattern_table.is_some(),
    };
    let io = |e: std::io::Error| NnError::Io(format!("writing the data: {e}"));
    out.write_all(&h.to_bytes()).map_err(io)?;
    let area = h.size * h.size;
    let mut summary = ExportSummary {
        files: kept.len(),
        ..ExportSummary::default()
    };
    let mut planes = vec![0.0f32; h.planes() * area];
    let mut pattern = vec![0u8; area];
    let mut policy = vec![0.0f32; area + 1];
    let mut buf = Vec::new();
    for f in &kept {
        let visits_path = f.with_extension("visits");
        let visits = if visits_path.is_file() {
            let text = std::fs::read_to_string(&visits_path)
                .map_err(|e| NnError::Io(format!("{}: {e}", visits_path.display())))?;
            parse_visits(&text, h.size)
                .map_err(|e| NnError::Format(format!("{}: {e}", visits_path.display())))?
        } else {
            Vec::new()
        };
        for rr in load_with_results(f, log) {
            let r = &rr.record;
            if r.size() != h.size {
                continue;
            }
            summary.games += 1;
            let mut g = r.start.clone();
            let mut history: Vec<Move> = Vec::with_capacity(r.moves.len());
            for (i, m) in r.moves.iter().enumerate() {
                let b = g.board();
                let legal = match m.mv {
                    Move::Pass => true,
                    Move::Play(p) => b.is_empty(p) && b.check(m.color, p, false).is_ok(),
                };
                if legal {
                    let pos = NnPosition {
                        board: b,
                        to_move: m.color,
                        history: &history,
                    };
                    base_planes(&pos, &mut planes);
                    if let Some(t) = &cmd.pattern_table {
                        pattern_bytes(&pos, t, &mut pattern);
                    }
                    let mv = match m.mv {
                        Move::Pass => area as u16,
                        Move::Play(p) => point_index(p, h.size) as u16,
                    };
                    let result = match rr.winner {
                        Some(w) if w == m.color => 1,
                        Some(_) => -1,
                        None => 0,
                    };
                    let target = visits
                        .iter()
                        .find(|(n, _)| *n == i + 1)
                        .map(|(_, v)| v.as_slice());
                    let has_policy = match target {
                        Some(v) if v.iter().map(|&(_, n)| u64::from(n)).sum::<u64>() > 0 => {
                            policy.fill(0.0);
                            let total: u64 = v.iter().map(|&(_, n)| u64::from(n)).sum();
                            for &(vm, n) in v {
                                let k = match vm {
                                    Move::Pass => area,
                                    Move::Play(p) => point_index(p, h.size),
                                };
                                policy[k] += (f64::from(n) / total as f64) as f32;
                            }
                            summary.with_visits += 1;
                            true
                        }
                        _ => false,
                    };
                    buf.clear();
                    encode_record(
                        &mut buf,
                        &h,
                        RecordMeta {
                            mv,
                            result,
                            number: (i + 1).min(usize::from(u16::MAX)) as u16,
                        },
                        &planes,
                        h.pattern_plane.then_some(&pattern[..]),
                        has_policy.then_some(&policy[..]),
                    );
                    out.write_all(&buf).map_err(io)?;
                    summary.positions += 1;
                }
                history.push(m.mv);
                if g.play_tolerant(m.color, m.mv).is_err() {
                    break;
                }
            }
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn records_round_trip_bit_for_bit() {
        let b = Board::from_diagram(". X .\nO . .\n. . X").expect("diagram");
        let history = [Move::Play(crate::point::Point::new(2, 2))];
        let pos = NnPosition {
            board: &b,
            to_move: Color::White,
            history: &history,
        };
        for pattern_plane in [false, true] {
            let h = DataHeader {
                size: 3,
                pattern_plane,
            };
            let mut planes = vec![0.0f32; h.planes() * 9];
            base_planes(&pos, &mut planes);
            let mut pat = vec![0u8; 9];
            pattern_bytes(&pos, PatternTable::builtin(), &mut pat);
            if pattern_plane {
                for (o, &q) in planes[BASE_PLANES * 9..].iter_mut().zip(&pat) {
                    *o = f32::from(q) / 255.0;
                }
            }
            let policy: Vec<f32> = (0..10).map(|i| i as f32 / 45.0).collect();
            let mut bytes = h.to_bytes().to_vec();
            encode_record(
                &mut bytes,
                &h,
                RecordMeta {
                    mv: 4,
                    result: -1,
                    number: 7,
                },
                &planes,
                Some(&pat),
                None,
            );
            encode_record(
                &mut bytes,
                &h,
                RecordMeta {
                    mv: 9,
                    result: 1,
                    number: 8,
                },
                &planes,
                Some(&pat),
                Some(&policy),
            );
            let header_and_fixed = 32 + 8 + (BASE_PLANES * 9).div_ceil(8);
            let expected = header_and_fixed
                + usize::from(pattern_plane) * 9
                + 8
                + (BASE_PLANES * 9).div_ceil(8)
                + usize::from(pattern_plane) * 9
                + 40;
            assert_eq!(bytes.len(), expected);
            let (h2, recs) = decode(&bytes).expect("decode");
            assert_eq!(h2, h);
            assert_eq!(recs.len(), 2);
            assert_eq!((recs[0].mv, recs[0].result, recs[0].number), (4, -1, 7));
            assert_eq!(recs[0].planes, planes);
            assert_eq!(recs[0].policy, None);
            assert_eq!((recs[1].mv, recs[1].result, recs[1].number), (9, 1, 8));
            assert_eq!(recs[1].policy.as_deref(), Some(&policy[..]));
            // Cut short: an error, not a panic.
            assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        }
    }

    #[test]
    fn bad_headers_are_errors() {
        let h = DataHeader {
            size: 9,
            pattern_plane: false,
        }
        .to_bytes();
        assert!(DataHeader::parse(&h).is_ok());
        assert!(DataHeader::parse(&h[..31]).is_err());
        let mut m = h;
        m[0] = b'X';
        assert!(DataHeader::parse(&m).is_err());
        let mut v = h;
        v[8] = 9;
        assert!(DataHeader::parse(&v).is_err());
        let mut s = h;
        s[16] = 26;
        assert!(DataHeader::parse(&s).is_err());
        let mut bytes = h.to_vec();
        bytes.extend_from_slice(&[0xff, 0xff]);
        bytes.resize(32 + 8 + (BASE_PLANES * 81).div_ceil(8), 0);
        assert!(decode(&bytes).is_err(), "move off the board");
    }

    #[test]
    fn results_and_visits_parse() {
        assert_eq!(winner_of("B+R"), Some(Color::Black));
        assert_eq!(winner_of(" W+3.5"), Some(Color::White));
        assert_eq!(winner_of("0"), None);
        assert_eq!(winner_of("Void"), None);
        let v = parse_visits("# kosumi visits 1\n1\tD4:3 pass:1\n2\t\n", 9).expect("parse");
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].0, 1);
        assert_eq!(
            v[0].1,
            vec![
                (Move::Play(crate::point::Point::new(3, 5)), 3),
                (Move::Pass, 1)
            ]
        );
        assert!(v[1].1.is_empty());
        let text = visits_text(&[v[0].1.clone(), Vec::new(), vec![(Move::Pass, 2)]], 9);
        assert_eq!(text, "# kosumi visits 1\n1\tD4:3 pass:1\n3\tpass:2\n");
        let back = parse_visits(&text, 9).expect("parse");
        assert_eq!(back[0], v[0]);
        assert_eq!(back[1], (3, vec![(Move::Pass, 2)]));
        for bad in [
            "1 D4:3\n",
            "x\tD4:3\n",
            "1\tZ99:3\n",
            "1\tD4\n",
            "1\tD4:-1\n",
        ] {
            assert!(parse_visits(bad, 9).is_err(), "{bad:?}");
        }
    }
}

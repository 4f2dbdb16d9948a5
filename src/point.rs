//! Board geometry: points, moves, and their GTP and SGF text forms.
//!
//! Every board size uses the same padded layout: a point's index is
//! `(y + 1) * STRIDE + (x + 1)` with `STRIDE = 26`, `x` the column from the
//! left and `y` the row from the top (SGF order). Column 0 and rows 0 and
//! `size + 1` are off the board, and so is every column past `size`, so the
//! four neighbours and four diagonals of an on-board point are always valid
//! indices. A [`Point`] therefore means the same intersection on every board
//! size; only its validity depends on the size.

use crate::text::clip;
use std::fmt;

/// The smallest board size supported.
pub const MIN_SIZE: usize = 2;
/// The largest board size supported (GTP's vertex letters stop at Z).
pub const MAX_SIZE: usize = 25;
/// Distance between vertically adjacent points in the padded layout.
pub const STRIDE: usize = MAX_SIZE + 1;
/// Length of every per-point array (covers all neighbours and diagonals).
pub const ARRAY_LEN: usize = (MAX_SIZE + 2) * STRIDE + 2;
/// The most on-board points any board has.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// GTP column letters: A to Z without I.
const GTP_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// An intersection, as an index into the padded layout described above.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The point at column `x` and row `y` (both from 0, `y` from the top).
    ///
    /// # Panics
    /// If `x` or `y` is not below [`MAX_SIZE`].
    #[inline]
    pub fn new(x: usize, y: usize) -> Point {
        assert!(
            x < MAX_SIZE && y < MAX_SIZE,
            "point ({x}, {y}) off every board"
        );
        Point(((y + 1) * STRIDE + x + 1) as u16)
    }

    /// Column from the left, from 0.
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - 1
    }

    /// Row from the top, from 0.
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - 1
    }

    /// The index into per-point arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The point with array index `i`, unchecked (for tables built over
    /// [`ARRAY_LEN`]).
    #[inline]
    pub fn from_index(i: usize) -> Point {
        Point(i as u16)
    }

    /// Whether this point lies on a `size` x `size` board.
    #[inline]
    pub fn on_board(self, size: usize) -> bool {
        let i = self.0 as usize;
        let (row, col) = (i / STRIDE, i % STRIDE);
        row >= 1 && row <= size && col >= 1 && col <= size
    }

    /// The four orthogonal neighbours' indices (some may be off the board).
    #[inline]
    pub fn neighbors(self) -> [Point; 4] {
        let i = self.0;
        let s = STRIDE as u16;
        [Point(i - s), Point(i - 1), Point(i + 1), Point(i + s)]
    }

    /// The four diagonal neighbours' indices (some may be off the board).
    #[inline]
    pub fn diagonals(self) -> [Point; 4] {
        let i = self.0;
        let s = STRIDE as u16;
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }

    /// GTP vertex text on a board of `size` (`A1` is the lower left).
    pub fn to_gtp(self, size: usize) -> String {
        let col = GTP_COLUMNS[self.x()] as char;
        format!("{}{}", col, size - self.y())
    }

    /// SGF coordinate text (`aa` is the upper left).
    pub fn to_sgf(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'a' + self.x() as u8) as char);
        s.push((b'a' + self.y() as u8) as char);
        s
    }

    /// Every on-board point of a `size` x `size` board, row by row from the
    /// top.
    pub fn all(size: usize) -> impl Iterator<Item = Point> {
        (0..size).flat_map(move |y| (0..size).map(move |x| Point::new(x, y)))
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Put a stone on this point.
    Play(Point),
    /// Pass.
    Pass,
}

impl Move {
    /// GTP text: a vertex or `pass`.
    pub fn to_gtp(self, size: usize) -> String {
        match self {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".to_string(),
        }
    }

    /// The point, if this is not a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

/// Why a GTP vertex could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VertexError {
    /// Not a column letter followed by a row number (or `pass`).
    Syntax(String),
    /// A well-formed vertex that lies off a board of this size.
    OffBoard(String),
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexError::Syntax(s) => write!(f, "invalid vertex '{s}'"),
            VertexError::OffBoard(s) => write!(f, "vertex '{s}' is off the board"),
        }
    }
}

impl std::error::Error for VertexError {}

/// Reads a GTP vertex (`D4`, `d4`, `pass`; no column I) for a board of
/// `size`.
///
/// # Errors
/// [`VertexError::Syntax`] for text that is no vertex (column `I`, row 0,
/// junk), [`VertexError::OffBoard`] for a vertex beyond this board.
pub fn parse_gtp_move(s: &str, size: usize) -> Result<Move, VertexError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = s.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 {
        return Err(VertexError::Syntax(clip(s)));
    }
    let letter = bytes[0].to_ascii_uppercase();
    let x = GTP_COLUMNS
        .iter()
        .position(|&c| c == letter)
        .ok_or_else(|| VertexError::Syntax(clip(s)))?;
    let digits = &s[1..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return Err(VertexError::Syntax(clip(s)));
    }
    let row: usize = digits.parse().map_err(|_| VertexError::Syntax(clip(s)))?;
    if row == 0 || row > MAX_SIZE {
        return Err(VertexError::Syntax(clip(s)));
    }
    if x >= size || row > size {
        return Err(VertexError::OffBoard(clip(s)));
    }
    Ok(Move::Play(Point::new(x, size - row)))
}

/// Why an SGF point could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SgfPointError {
    /// Not two letters `a`-`z` / `A`-`Z`.
    Syntax(String),
    /// Two letters naming a point beyond this board.
    OffBoard(String),
}

impl fmt::Display for SgfPointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfPointError::Syntax(s) => write!(f, "invalid sgf point '{s}'"),
            SgfPointError::OffBoard(s) => write!(f, "sgf point '{s}' is off the board"),
        }
    }
}

impl std::error::Error for SgfPointError {}

fn sgf_letter(b: u8) -> Option<usize> {
    match b {
        b'a'..=b'z' => Some((b - b'a') as usize),
        b'A'..=b'Z' => Some((b - b'A') as usize + 26),
        _ => None,
    }
}

/// Reads an SGF move value for a board of `size`: two letters, or the empty
/// value for a pass. `tt` is a pass on boards up to 19x19 and a point on
/// larger ones.
///
/// # Errors
/// [`SgfPointError`] for anything else, or a point off the board.
pub fn parse_sgf_move(s: &str, size: usize) -> Result<Move, SgfPointError> {
    if s.is_empty() || (size <= 19 && s == "tt") {
        return Ok(Move::Pass);
    }
    parse_sgf_point(s, size).map(Move::Play)
}

/// Reads an SGF point (two letters) for a board of `size`.
///
/// # Errors
/// [`SgfPointError`] for anything but two letters naming an on-board point.
pub fn parse_sgf_point(s: &str, size: usize) -> Result<Point, SgfPointError> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return Err(SgfPointError::Syntax(clip(s)));
    }
    match (sgf_letter(b[0]), sgf_letter(b[1])) {
        (Some(x), Some(y)) if x < size && y < size => Ok(Point::new(x, y)),
        (Some(_), Some(_)) => Err(SgfPointError::OffBoard(clip(s))),
        _ => Err(SgfPointError::Syntax(clip(s))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_round_trip_every_point_every_size() {
        for size in MIN_SIZE..=MAX_SIZE {
            for p in Point::all(size) {
                let text = p.to_gtp(size);
                assert_eq!(parse_gtp_move(&text, size), Ok(Move::Play(p)));
                assert_eq!(
                    parse_gtp_move(&text.to_lowercase(), size),
                    Ok(Move::Play(p))
                );
                assert!(p.on_board(size));
            }
        }
    }

    #[test]
    fn gtp_vertex_errors() {
        assert!(matches!(
            parse_gtp_move("I5", 19),
            Err(VertexError::Syntax(_))
        ));
        assert!(matches!(
            parse_gtp_move("A0", 19),
            Err(VertexError::Syntax(_))
        ));
        assert!(matches!(
            parse_gtp_move("A05", 19),
            Err(VertexError::Syntax(_))
        ));
        assert!(matches!(
            parse_gtp_move("T20", 19),
            Err(VertexError::OffBoard(_))
        ));
        assert!(matches!(
            parse_gtp_move("K1", 9),
            Err(VertexError::OffBoard(_))
        ));
        assert!(matches!(
            parse_gtp_move("A26", 25),
            Err(VertexError::Syntax(_))
        ));
        assert!(matches!(
            parse_gtp_move("", 19),
            Err(VertexError::Syntax(_))
        ));
        assert!(matches!(
            parse_gtp_move("ä1", 19),
            Err(VertexError::Syntax(_))
        ));
        assert_eq!(parse_gtp_move("PASS", 9), Ok(Move::Pass));
        assert_eq!(parse_gtp_move("J1", 9), Ok(Move::Play(Point::new(8, 8))));
        assert_eq!(parse_gtp_move("a9", 9), Ok(Move::Play(Point::new(0, 0))));
    }

    #[test]
    fn sgf_points_and_passes() {
        assert_eq!(parse_sgf_move("", 19), Ok(Move::Pass));
        assert_eq!(parse_sgf_move("tt", 19), Ok(Move::Pass));
        assert_eq!(parse_sgf_move("tt", 9), Ok(Move::Pass));
        assert_eq!(parse_sgf_move("tt", 21), Ok(Move::Play(Point::new(19, 19))));
        assert_eq!(parse_sgf_point("cd", 19), Ok(Point::new(2, 3)));
        assert_eq!(Point::new(2, 3).to_sgf(), "cd");
        assert!(parse_sgf_point("jj", 9).is_err());
        assert!(parse_sgf_point("a", 9).is_err());
    }

    #[test]
    fn neighbors_stay_in_arrays() {
        for p in Point::all(MAX_SIZE) {
            for n in p.neighbors().into_iter().chain(p.diagonals()) {
                assert!(n.index() < ARRAY_LEN);
            }
        }
        let corner = Point::new(0, 0);
        assert_eq!(
            corner.neighbors().iter().filter(|n| n.on_board(2)).count(),
            2
        );
    }
}

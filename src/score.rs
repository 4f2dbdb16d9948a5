//! Area (Tromp-Taylor) and territory counts of a board, and result text.
//!
//! These count a board as it stands (after any dead stones are removed);
//! which stones are dead, prisoners and the rules' choice of count live in
//! [`crate::endgame`].

use crate::board::Board;
use crate::color::Color;
use crate::point::{Point, ARRAY_LEN, STRIDE};
use std::fmt;

/// The area count of a position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AreaScore {
    /// Black stones plus empty points reaching only Black.
    pub black: u32,
    /// White stones plus empty points reaching only White.
    pub white: u32,
    /// Komi added to White.
    pub komi: f32,
}

impl AreaScore {
    /// Black's margin: `black - white - komi` (negative when White leads).
    pub fn margin(&self) -> f32 {
        self.black as f32 - self.white as f32 - self.komi
    }

    /// The result this score gives.
    pub fn result(&self) -> GameResult {
        GameResult::from_margin(self.margin())
    }
}

/// Counts the area score of `board` with `komi`, after removing the stones
/// on the points in `dead` (points without stones are ignored): every stone
/// counts for its colour, and every empty region counts for the one colour
/// whose stones it touches, or for nobody if it touches both or neither.
pub fn area_score(board: &Board, komi: f32, dead: &[Point]) -> AreaScore {
    let mut b = board.clone();
    if !dead.is_empty() {
        let changes: Vec<_> = dead
            .iter()
            .filter(|p| b.on_board(**p))
            .map(|&p| (p, None))
            .collect();
        b.set_many(&changes).expect("points were checked");
    }
    let (black, white) = area_counts(&b);
    AreaScore { black, white, komi }
}

/// Black's and White's area on `board` as it stands.
pub fn area_counts(board: &Board) -> (u32, u32) {
    let mut counts = [0u32; 2];
    let mut seen = [false; ARRAY_LEN];
    let mut stack = Vec::new();
    let size = board.size();
    for y in 0..size {
        for x in 0..size {
            let p = Point::from_index((y + 1) * STRIDE + x + 1);
            if let Some(c) = board.get(p) {
                counts[c.index()] += 1;
                continue;
            }
            if seen[p.index()] {
                continue;
            }
            // A one-point region (no empty neighbour), the usual case at the
            // end of a playout: no flood fill needed.
            if let Some(owner) = lone_point_owner(board, p) {
                if let Some(c) = owner {
                    counts[c.index()] += 1;
                }
                continue;
            }
            flood_region(board, p, &mut seen, &mut stack, &mut counts, None);
        }
    }
    (counts[0], counts[1])
}

/// For an empty point with no empty neighbour: `Some(owner)`, the one
/// colour its neighbours have (`None` when both colours touch it). `None`
/// when it has an empty neighbour.
#[inline]
fn lone_point_owner(board: &Board, p: Point) -> Option<Option<Color>> {
    let mut touches = [false; 2];
    for n in p.neighbors() {
        if !board.on_board(n) {
            continue;
        }
        match board.get(n) {
            Some(c) => touches[c.index()] = true,
            None => return None,
        }
    }
    Some(match touches {
        [true, false] => Some(Color::Black),
        [false, true] => Some(Color::White),
        _ => None,
    })
}

/// Flood fills the empty region of `p` and credits it to the one colour it
/// touches, if only one, and if it touches no stone marked in `neutral`
/// (the chains in seki, for territory counts).
fn flood_region(
    board: &Board,
    p: Point,
    seen: &mut [bool; ARRAY_LEN],
    stack: &mut Vec<Point>,
    counts: &mut [u32; 2],
    neutral: Option<&[bool; ARRAY_LEN]>,
) {
    let mut region = 0u32;
    let mut touches = [false; 2];
    let mut seki = false;
    seen[p.index()] = true;
    stack.push(p);
    while let Some(q) = stack.pop() {
        region += 1;
        for n in q.neighbors() {
            if !board.on_board(n) {
                continue;
            }
            match board.get(n) {
                Some(c) => {
                    touches[c.index()] = true;
                    seki |= neutral.is_some_and(|m| m[n.index()]);
                }
                None => {
                    if !seen[n.index()] {
                        seen[n.index()] = true;
                        stack.push(n);
                    }
                }
            }
        }
    }
    if seki {
        return;
    }
    match touches {
        [true, false] => counts[0] += region,
        [false, true] => counts[1] += region,
        _ => {}
    }
}

/// The empty points each colour surrounds on `board` as it stands
/// (Black's, White's): every empty region that touches stones of one
/// colour only counts for that colour, unless it touches a point of
/// `neutral` (the stones of chains in seki), which makes it nobody's.
pub fn territory_counts(board: &Board, neutral: &[Point]) -> (u32, u32) {
    let mut counts = [0u32; 2];
    let mut is_neutral = [false; ARRAY_LEN];
    for p in neutral {
        if board.on_board(*p) {
            is_neutral[p.index()] = true;
        }
    }
    let mut seen = [false; ARRAY_LEN];
    let mut stack = Vec::new();
    for p in board.points() {
        if !board.is_empty(p) || seen[p.index()] {
            continue;
        }
        flood_region(
            board,
            p,
            &mut seen,
            &mut stack,
            &mut counts,
            Some(&is_neutral),
        );
    }
    (counts[0], counts[1])
}

/// What turns the area margin (Black's minus White's) of `b`, a position
/// where every chain left is alive (as at the end of a playout), into its
/// territory margin: Black's prisoners minus White's, less Black's stones on
/// the board minus White's. Each colour's territory is then its area less
/// its stones, and its score that territory plus its prisoners. An eye
/// inside a seki counts here as the area count has it;
/// [`crate::endgame::count`] leaves such regions out.
pub fn territory_shift(b: &Board) -> i32 {
    let mut stones = 0i32;
    for p in b.points() {
        match b.cell_code(p) {
            1 => stones += 1,
            2 => stones -= 1,
            _ => {}
        }
    }
    b.captures(Color::Black) as i32 - b.captures(Color::White) as i32 - stones
}

/// Fills `owner` with the owner of each on-board point (a stone's colour,
/// or the one colour all on-board neighbours of an empty point have) and
/// returns Black's count minus White's: the end-of-playout count, where
/// every empty region left is a one-point eye (larger regions count for
/// nobody).
pub fn point_owners(b: &Board, owner: &mut [i8; ARRAY_LEN]) -> i32 {
    let mut margin = 0i32;
    for p in b.points() {
        let o = match b.cell_code(p) {
            1 => 1,
            2 => -1,
            _ => {
                let mut seen = 0u8;
                for q in p.neighbors() {
                    seen |= match b.cell_code(q) {
                        0 => 4,
                        1 => 1,
                        2 => 2,
                        _ => 0,
                    };
                }
                match seen {
                    1 => 1,
                    2 => -1,
                    _ => 0,
                }
            }
        };
        owner[p.index()] = o;
        margin += o as i32;
    }
    margin
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum GameResult {
    /// This colour won by this many points.
    Score(Color, f32),
    /// This colour won by resignation.
    Resign(Color),
    /// This colour won on time.
    Time(Color),
    /// This colour won because the other played an illegal move or broke
    /// down.
    Forfeit(Color),
    /// A draw (jigo).
    Draw,
    /// No result (unfinished, void, unknown).
    Unknown,
}

impl GameResult {
    /// The result of a count with Black ahead by `margin` points (komi
    /// included; negative when White leads): `B+m`, `W+m` or a draw.
    pub fn from_margin(margin: f32) -> GameResult {
        if margin > 0.0 {
            GameResult::Score(Color::Black, margin)
        } else if margin < 0.0 {
            GameResult::Score(Color::White, -margin)
        } else {
            GameResult::Draw
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            GameResult::Score(c, _)
            | GameResult::Resign(c)
            | GameResult::Time(c)
            | GameResult::Forfeit(c) => Some(c),
            _ => None,
        }
    }

    /// Reads SGF `RE` / GTP `final_score` text: `B+3.5`, `W+R`, `W+Resign`,
    /// `B+T`, `B+F`, `0`, `Draw`, `?`, `Void`. Anything else is
    /// [`GameResult::Unknown`].
    pub fn parse(s: &str) -> GameResult {
        let s = s.trim();
        let lower = s.to_ascii_lowercase();
        if lower == "0" || lower == "draw" || lower == "jigo" || lower == "d" {
            return GameResult::Draw;
        }
        let mut parts = s.splitn(2, '+');
        let who = parts.next().unwrap_or("");
        let how = parts.next();
        let color = match who.to_ascii_uppercase().as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            _ => return GameResult::Unknown,
        };
        match how.map(|h| h.trim().to_ascii_lowercase()) {
            None => GameResult::Unknown,
            Some(h) if h == "r" || h == "resign" => GameResult::Resign(color),
            Some(h) if h == "t" || h == "time" => GameResult::Time(color),
            Some(h) if h == "f" || h == "forfeit" || h == "illegal" => GameResult::Forfeit(color),
            Some(h) => match h.parse::<f32>() {
                Ok(v) if v.is_finite() && v > 0.0 => GameResult::Score(color, v),
                Ok(0.0) => GameResult::Draw,
                _ => GameResult::Unknown,
            },
        }
    }
}

impl fmt::Display for GameResult {
    /// SGF and GTP text: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Score(c, v) => write!(f, "{}+{}", c.letter(), v),
            GameResult::Resign(c) => write!(f, "{}+R", c.letter()),
            GameResult::Time(c) => write!(f, "{}+T", c.letter()),
            GameResult::Forfeit(c) => write!(f, "{}+F", c.letter()),
            GameResult::Draw => f.write_str("0"),
            GameResult::Unknown => f.write_str("?"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn territory_shift_turns_area_into_territory_plus_prisoners() {
        let mut b = Board::from_diagram(
            "
            . X O .
            X X O .
            . X O O
            X X O .",
        )
        .unwrap();
        let pt = |v: &str| match crate::point::parse_gtp_move(v, 4).unwrap() {
            crate::point::Move::Play(p) => p,
            crate::point::Move::Pass => unreachable!(),
        };
        let mut owner = [0i8; ARRAY_LEN];
        // Six black stones, five white.
        assert_eq!(territory_shift(&b), -1);
        // Black fills its own eye: a point less territory.
        b.play(Color::Black, pt("A2"), false).unwrap();
        assert_eq!(territory_shift(&b), -2);
        // Black throws in at D4 and White captures. Now every region is a
        // one-point eye: area 8 to 8; territory 1 (A4) to 2 (D4, D1) plus
        // White's prisoner.
        b.play(Color::Black, pt("D4"), false).unwrap();
        assert_eq!(b.play(Color::White, pt("D3"), false), Ok(1));
        assert_eq!(point_owners(&b, &mut owner), 0);
        assert_eq!(territory_shift(&b), 1 - 3);
    }

    #[test]
    fn area_counts_regions() {
        let b = Board::from_diagram(
            "
            . X O .
            X X O .
            . X O O
            X X O .",
        )
        .unwrap();
        // Black: 6 stones + A4 + A2; White: 5 stones + D4, D3, D1.
        let s = area_score(&b, 0.5, &[]);
        assert_eq!((s.black, s.white), (8, 8));
        assert_eq!(s.result(), GameResult::Score(Color::White, 0.5));
        // Removing the white stones as dead gives Black the whole board.
        let dead: Vec<Point> = b
            .points()
            .filter(|&p| b.get(p) == Some(Color::White))
            .collect();
        let s = area_score(&b, 0.5, &dead);
        assert_eq!((s.black, s.white), (16, 0));
    }

    #[test]
    fn territory_counts_regions_and_leaves_seki_out() {
        let b = Board::from_diagram(
            "
            . X O .
            X X O .
            . X O O
            X X O .",
        )
        .unwrap();
        // Black: A4, A2; White: D4, D3, D1. Stones do not count.
        assert_eq!(territory_counts(&b, &[]), (2, 3));
        // The white wall in seki: the regions it touches count for nobody.
        let wall: Vec<Point> = b
            .points()
            .filter(|&p| b.get(p) == Some(Color::White))
            .collect();
        assert_eq!(territory_counts(&b, &wall), (2, 0));
    }

    #[test]
    fn results_parse_and_print() {
        for text in ["B+3.5", "W+R", "B+T", "W+F", "0"] {
            assert_eq!(GameResult::parse(text).to_string(), text);
        }
        assert_eq!(
            GameResult::parse("W+Resign"),
            GameResult::Resign(Color::White)
        );
        assert_eq!(GameResult::parse("Void"), GameResult::Unknown);
        assert_eq!(GameResult::parse("B+"), GameResult::Unknown);
        assert_eq!(GameResult::parse("W+0.0"), GameResult::Draw);
    }
}

//! The features of a candidate move, read from the position before it.
//!
//! Every family has at most one value per move (a level, a distance, a
//! shape code). The levels are listed with each family; the trained table
//! names features as `family key`.

use super::ladder::{attacker_captures, captured, LADDER_BUDGET};
use super::shape;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};

/// A family of features; a move has at most one feature of each family.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Family {
    /// The pass: 0 a pass, 1 a pass answering a pass.
    Pass = 0,
    /// A capture (levels [`CAPTURE_COUNTER`] .. [`CAPTURE_BIG`]).
    Capture = 1,
    /// Extending a chain of ours in atari (levels [`ESCAPE_NEW`] ..
    /// [`ESCAPE_OLD_LADDER`]).
    Escape = 2,
    /// Putting an opponent chain in atari (levels [`ATARI_LADDER`] ..
    /// [`ATARI_OTHER`]).
    Atari = 3,
    /// A self-atari that captures nothing, by the size of the chain left in
    /// atari: 0 one stone, 1 two, 2 three or more.
    SelfAtari = 4,
    /// Distance to the previous move, `dx + dy + max(dx, dy)`: 2..=16, and
    /// 17 for 17 or more.
    DistPrev = 5,
    /// The same distance to the move before the previous one, plus 32
    /// times the distance to the previous move capped at 9 (0 after a
    /// pass): keyed jointly ([`dist_prev2_key`]).
    DistPrev2 = 6,
    /// The lines from the nearest edge and from the nearest edge across:
    /// `10 * near + far`, each 1..=7 (7 for the seventh line or higher), so
    /// 44 is a 4-4 point and 34 a 3-4 point.
    Edge = 7,
    /// The liberties of our chain after the move, `1..=5` (5 for five or
    /// more; a lower bound when the move captures), plus 10 when the move
    /// joins one chain of ours and 20 when it joins two or more.
    Libs = 8,
    /// The fewest liberties, after the move, of an opponent chain next to
    /// it that the move does not capture: `1..=4` (4 for four or more),
    /// plus 10 when that chain has two stones or more, plus 20 when it is
    /// the chain of the previous move.
    Press = 9,
    /// The canonical 3x3 shape with liberty bits and the cells of the two
    /// previous moves marked ([`shape::shape3_with_moves`]).
    Shape3 = 10,
    /// The largest pattern (of [`shape::PATTERN_SIZES`]) the table knows
    /// ([`shape::large_patterns`]).
    Large = 11,
    /// Extends a chain of ours with two liberties: 1 when the previous
    /// move touches that chain, plus 2 when the move leaves it two
    /// liberties or fewer, plus 4 when it has two stones or more.
    Save = 12,
}

/// Every family, in table order.
pub const FAMILIES: [Family; 13] = [
    Family::Pass,
    Family::Capture,
    Family::Escape,
    Family::Atari,
    Family::SelfAtari,
    Family::DistPrev,
    Family::DistPrev2,
    Family::Edge,
    Family::Libs,
    Family::Press,
    Family::Shape3,
    Family::Large,
    Family::Save,
];

/// Number of families.
pub const N_FAMILIES: usize = FAMILIES.len();

impl Family {
    /// The family's name in the table and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Family::Pass => "pass",
            Family::Capture => "capture",
            Family::Escape => "escape",
            Family::Atari => "atari",
            Family::SelfAtari => "self-atari",
            Family::DistPrev => "dist-prev",
            Family::DistPrev2 => "dist-prev2",
            Family::Edge => "edge",
            Family::Libs => "libs",
            Family::Press => "press",
            Family::Shape3 => "shape3",
            Family::Large => "large",
            Family::Save => "save",
        }
    }

    /// The family named `s`, if any.
    pub fn from_name(s: &str) -> Option<Family> {
        FAMILIES.iter().copied().find(|f| f.name() == s)
    }

    /// The family with index `i` (its `as u8` value).
    pub fn from_index(i: usize) -> Option<Family> {
        FAMILIES.get(i).copied()
    }
}

/// Captures the chain of the previous move, which had put a chain of ours
/// in atari.
pub const CAPTURE_COUNTER: u8 = 0;
/// Captures a chain next to a chain of ours in atari (an escape by capture).
pub const CAPTURE_SAVES: u8 = 1;
/// Captures the chain of the previous move (otherwise).
pub const CAPTURE_LAST: u8 = 2;
/// Any other capture of one stone.
pub const CAPTURE_ONE: u8 = 3;
/// Any other capture of two or more stones.
pub const CAPTURE_BIG: u8 = 4;

/// Extends a chain the previous move put in atari, and it is not caught in
/// a ladder.
pub const ESCAPE_NEW: u8 = 0;
/// Extends a chain the previous move put in atari into a ladder that
/// catches it (or to one liberty).
pub const ESCAPE_NEW_LADDER: u8 = 1;
/// Extends a chain in atari from earlier, not caught in a ladder.
pub const ESCAPE_OLD: u8 = 2;
/// Extends a chain in atari from earlier into a ladder that catches it.
pub const ESCAPE_OLD_LADDER: u8 = 3;

/// An atari the defender cannot escape by extending (a working ladder).
pub const ATARI_LADDER: u8 = 0;
/// Another atari while a simple-ko point is on the board.
pub const ATARI_KO: u8 = 1;
/// Any other atari.
pub const ATARI_OTHER: u8 = 2;

/// The position a move is chosen in: the board, the side to move, and the
/// two previous moves (most recent first), as the features see them.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The board before the move.
    pub board: &'a Board,
    /// The side to move.
    pub to_move: Color,
    /// The previous move, if any.
    pub last: Option<Move>,
    /// The move before the previous one, if any.
    pub last2: Option<Move>,
}

/// The features of one candidate move: one optional value per family, and
/// the large pattern codes (the table picks the largest it knows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFeatures {
    /// One value per family ([`Family`] as index); `Diamond` is unused
    /// here (see `large`).
    pub values: [Option<u32>; N_FAMILIES],
    /// Large pattern codes, smallest first (all 0 for a pass).
    pub large: [u64; shape::LEVELS],
}

impl MoveFeatures {
    /// The value of `family` (not `Diamond`).
    pub fn get(&self, family: Family) -> Option<u32> {
        self.values[family as usize]
    }

    fn set(&mut self, family: Family, v: u32) {
        self.values[family as usize] = Some(v);
    }
}

/// The legal candidates for the side to move on the board alone (empty,
/// not the simple-ko recapture, not a suicide), row by row; the pass is
/// a candidate too, but not listed here. Superko is not checked.
pub fn candidate_points(board: &Board, c: Color) -> impl Iterator<Item = Point> + '_ {
    board
        .points()
        .filter(move |&p| board.is_empty(p) && board.check(c, p, false).is_ok())
}

/// `dx + dy + max(dx, dy)`, capped at 17: Coulom's move distance.
fn distance(a: Point, b: Point) -> u32 {
    let dx = a.x().abs_diff(b.x()) as u32;
    let dy = a.y().abs_diff(b.y()) as u32;
    (dx + dy + dx.max(dy)).min(17)
}

/// The features of `mv` in `pos`. `mv` must be the pass or a point
/// [`candidate_points`] lists.
pub fn extract(pos: &Position, mv: Move) -> MoveFeatures {
    let mut f = MoveFeatures::default();
    let p = match mv {
        Move::Pass => {
            let after_pass = pos.last == Some(Move::Pass);
            f.set(Family::Pass, u32::from(after_pass));
            return f;
        }
        Move::Play(p) => p,
    };
    let b = pos.board;
    let me = pos.to_move;
    let n = b.size();
    let lx = (p.x().min(n - 1 - p.x()) + 1).min(7);
    let ly = (p.y().min(n - 1 - p.y()) + 1).min(7);
    f.set(Family::Edge, (10 * lx.min(ly) + lx.max(ly)) as u32);
    if let Some(Move::Play(q)) = pos.last {
        f.set(Family::DistPrev, distance(p, q));
    }
    let last = match pos.last {
        Some(Move::Play(q)) => Some(q),
        _ => None,
    };
    let last2 = match pos.last2 {
        Some(Move::Play(q)) => Some(q),
        _ => None,
    };
    if let Some(q) = last2 {
        f.set(Family::DistPrev2, dist_prev2_key(p, q, last));
    }
    f.set(
        Family::Shape3,
        shape::shape3_with_moves(b, me, p, last, last2),
    );
    f.large = shape::large_patterns(b, me, p);
    let captures = capture_level(b, me, p, last);
    if let Some(level) = captures {
        f.set(Family::Capture, u32::from(level));
    }
    if let Some(level) = escape_level(b, me, p, last) {
        f.set(Family::Escape, u32::from(level));
    }
    if let Some(level) = atari_level(b, me, p) {
        f.set(Family::Atari, u32::from(level));
    }
    let joins = own_chain_count(b, me, p);
    let libs = b.liberties_after(me, p, 5).clamp(1, 5);
    f.set(Family::Libs, (libs + 10 * joins.min(2)) as u32);
    if let Some(v) = press_level(b, me, p, last) {
        f.set(Family::Press, v);
    }
    if let Some(v) = save_level(b, me, p, last, libs) {
        f.set(Family::Save, v);
    }
    if captures.is_none() {
        if let Some(size) = self_atari_size(b, me, p) {
            f.set(Family::SelfAtari, (size.min(3) - 1) as u32);
        }
    }
    f
}

/// Distinct chain roots of colour `c` next to `p` (at most 4).
fn neighbour_chains(b: &Board, c: Color, p: Point) -> ([Point; 4], usize) {
    let mut roots = [p; 4];
    let mut k = 0;
    for q in p.neighbors() {
        if b.on_board(q) && b.get(q) == Some(c) {
            let r = b.chain_root(q);
            if !roots[..k].contains(&r) {
                roots[k] = r;
                k += 1;
            }
        }
    }
    (roots, k)
}

/// The [`Family::DistPrev2`] key of a move on `p`: the distance to the
/// second previous move `q`, and to the previous move `last` (capped at
/// 9; 0 after a pass) times 32. Jointly, because a move far from the
/// previous one and near the one before it (a reply to a tenuki) is
/// another story than one near both.
pub(super) fn dist_prev2_key(p: Point, q: Point, last: Option<Point>) -> u32 {
    let d1 = last.map_or(0, |r| distance(p, r).min(9));
    distance(p, q) + 32 * d1
}

/// The [`Family::Save`] value of a stone of `me` on `p` that leaves its
/// chain `libs` liberties: the largest [`save_key`] over the chains of
/// ours next to `p` with two liberties.
fn save_level(b: &Board, me: Color, p: Point, last: Option<Point>, libs: usize) -> Option<u32> {
    let (roots, k) = neighbour_chains(b, me, p);
    roots[..k]
        .iter()
        .filter(|&&r| b.liberties(r) == 2)
        .map(|&r| save_key(b, me, r, last, libs))
        .max()
}

/// The [`Family::Save`] key of a move that extends the chain of `me` at
/// `r` (which has two liberties) and leaves `libs` liberties: 1 when the
/// previous move `last` touches the chain, plus 2 when the move leaves
/// two liberties or fewer, plus 4 when the chain has two stones or more.
pub(super) fn save_key(b: &Board, me: Color, r: Point, last: Option<Point>, libs: usize) -> u32 {
    let r = b.chain_root(r);
    let touched = last.is_some_and(|q| {
        q.neighbors()
            .into_iter()
            .any(|n| b.on_board(n) && b.get(n) == Some(me) && b.chain_root(n) == r)
    });
    u32::from(touched) + if libs <= 2 { 2 } else { 0 } + if b.chain_len(r) >= 2 { 4 } else { 0 }
}

/// How many distinct chains of `c` are next to `p`.
fn own_chain_count(b: &Board, c: Color, p: Point) -> usize {
    neighbour_chains(b, c, p).1
}

/// The [`Family::Press`] value of a stone of `me` on `p`.
fn press_level(b: &Board, me: Color, p: Point, last: Option<Point>) -> Option<u32> {
    let opp = me.opponent();
    let (roots, k) = neighbour_chains(b, opp, p);
    let last_root = last
        .filter(|&q| b.get(q) == Some(opp))
        .map(|q| b.chain_root(q));
    let mut best: Option<(usize, usize, bool)> = None;
    for &r in &roots[..k] {
        let libs = b.liberties(r);
        if libs <= 1 {
            continue;
        }
        let after = (libs - 1).min(4);
        let size = b.chain_len(r);
        let is_last = last_root == Some(r);
        if best.is_none_or(|(l, s, w)| (after, !is_last, size.min(2)) < (l, !w, s.min(2))) {
            best = Some((after, size, is_last));
        }
    }
    best.map(|(l, s, w)| (l + if s >= 2 { 10 } else { 0 } + if w { 20 } else { 0 }) as u32)
}

/// Whether the chain on `r` touches a chain of colour `c` with one liberty.
fn touches_chain_in_atari(b: &Board, r: Point, c: Color) -> bool {
    let mut found = false;
    b.for_each_stone(r, |s| {
        for q in s.neighbors() {
            if b.on_board(q) && b.get(q) == Some(c) && b.liberties(q) == 1 {
                found = true;
            }
        }
    });
    found
}

fn capture_level(b: &Board, me: Color, p: Point, last: Option<Point>) -> Option<u8> {
    let opp = me.opponent();
    let (roots, k) = neighbour_chains(b, opp, p);
    let mut best: Option<u8> = None;
    for &r in &roots[..k] {
        if b.liberties(r) != 1 {
            continue;
        }
        let is_last = last.is_some_and(|q| b.get(q) == Some(opp) && b.chain_root(q) == r);
        let saves = touches_chain_in_atari(b, r, me);
        let level = match (is_last, saves) {
            (true, true) => CAPTURE_COUNTER,
            (false, true) => CAPTURE_SAVES,
            (true, false) => CAPTURE_LAST,
            _ if b.chain_len(r) == 1 => CAPTURE_ONE,
            _ => CAPTURE_BIG,
        };
        best = Some(best.map_or(level, |x| x.min(level)));
    }
    best
}

fn escape_level(b: &Board, me: Color, p: Point, last: Option<Point>) -> Option<u8> {
    let (roots, k) = neighbour_chains(b, me, p);
    let in_atari: Vec<Point> = roots[..k]
        .iter()
        .copied()
        .filter(|&r| b.liberties(r) == 1)
        .collect();
    if in_atari.is_empty() {
        return None;
    }
    let new = last.is_some_and(|q| {
        q.neighbors()
            .iter()
            .any(|&s| b.on_board(s) && b.get(s) == Some(me) && in_atari.contains(&b.chain_root(s)))
    });
    let mut after = b.clone();
    after.play_unchecked(me, p);
    let caught = match after.liberties(p) {
        0 | 1 => true,
        2 => {
            let mut budget = LADDER_BUDGET;
            attacker_captures(&after, p, &mut budget, &mut Vec::new())
        }
        _ => false,
    };
    Some(match (new, caught) {
        (true, false) => ESCAPE_NEW,
        (true, true) => ESCAPE_NEW_LADDER,
        (false, false) => ESCAPE_OLD,
        (false, true) => ESCAPE_OLD_LADDER,
    })
}

fn atari_level(b: &Board, me: Color, p: Point) -> Option<u8> {
    let opp = me.opponent();
    let (roots, k) = neighbour_chains(b, opp, p);
    let targets: Vec<Point> = roots[..k]
        .iter()
        .copied()
        .filter(|&r| b.liberties(r) == 2)
        .collect();
    if targets.is_empty() {
        return None;
    }
    let mut after = b.clone();
    after.play_unchecked(me, p);
    let mut any = false;
    for &r in &targets {
        if after.get(r) != Some(opp) || after.liberties(r) != 1 {
            continue;
        }
        any = true;
        let mut budget = LADDER_BUDGET;
        if captured(&after, r, &mut budget, &mut Vec::new()) {
            return Some(ATARI_LADDER);
        }
    }
    if !any {
        return None;
    }
    Some(if b.ko().is_some() {
        ATARI_KO
    } else {
        ATARI_OTHER
    })
}

/// The size of the chain a stone of `me` on `p` would leave in atari,
/// if the move captures nothing and leaves it one liberty.
fn self_atari_size(b: &Board, me: Color, p: Point) -> Option<usize> {
    let (roots, k) = neighbour_chains(b, me, p);
    self_atari_size_with(b, p, &roots[..k], |r| b.liberties(r))
}

/// [`self_atari_size`] given the chains of ours next to `p` (`own`) and
/// a liberty count of a chain (`liberties`, which may be cached).
pub(crate) fn self_atari_size_with(
    b: &Board,
    p: Point,
    own: &[Point],
    mut liberties: impl FnMut(Point) -> usize,
) -> Option<usize> {
    let mut libs = [p; 2];
    let mut nlibs = 0;
    let mut add = |q: Point, libs: &mut [Point; 2]| -> bool {
        if q == p || libs[..nlibs].contains(&q) {
            return false;
        }
        if nlibs == 2 {
            return true;
        }
        libs[nlibs] = q;
        nlibs += 1;
        nlibs == 2
    };
    for q in p.neighbors() {
        if b.is_empty(q) && add(q, &mut libs) {
            return None;
        }
    }
    for &r in own {
        if liberties(r) >= 3 {
            return None;
        }
    }
    let mut size = 1;
    for &r in own {
        size += b.chain_len(r);
        for q in b.chain_liberties(r) {
            if add(q, &mut libs) {
                return None;
            }
        }
    }
    Some(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(board: &Board, to_move: Color, last: Option<Point>) -> Position<'_> {
        Position {
            board,
            to_move,
            last: last.map(Move::Play),
            last2: None,
        }
    }

    fn at(b: &Board, gtp: &str) -> Point {
        match crate::point::parse_gtp_move(gtp, b.size()).expect("vertex") {
            Move::Play(p) => p,
            Move::Pass => panic!("pass"),
        }
    }

    fn features(diagram: &str, me: Color, last: Option<&str>, mv: &str) -> MoveFeatures {
        let b = Board::from_diagram(diagram).expect("diagram");
        let last = last.map(|s| at(&b, s));
        let p = at(&b, mv);
        assert!(candidate_points(&b, me).any(|q| q == p), "{mv} not legal");
        extract(&pos(&b, me, last), Move::Play(p))
    }

    #[test]
    fn capture_levels() {
        // White B3 has one liberty, B2.
        let d = "
            . . . . .
            . X . . .
            X O X . .
            . . . . .
            . . . . .
        ";
        let f = features(d, Color::Black, None, "B2");
        assert_eq!(f.get(Family::Capture), Some(u32::from(CAPTURE_ONE)));
        let f = features(d, Color::Black, None, "D4");
        assert_eq!(f.get(Family::Capture), None);
        // The same capture when B3 was the previous move.
        let f = features(d, Color::Black, Some("B3"), "B2");
        assert_eq!(f.get(Family::Capture), Some(u32::from(CAPTURE_LAST)));
        // White B3 also put Black A3 in atari: taking it back is a counter.
        let d = "
            . . . . .
            . X . . .
            X O X . .
            O . . . .
            . . . . .
        ";
        let f = features(d, Color::Black, Some("B3"), "B2");
        assert_eq!(f.get(Family::Capture), Some(u32::from(CAPTURE_COUNTER)));
        let f = features(d, Color::Black, None, "B2");
        assert_eq!(f.get(Family::Capture), Some(u32::from(CAPTURE_SAVES)));
        assert_eq!(f.get(Family::SelfAtari), None);
        // Two stones.
        let d = "
            . X X . .
            X O O X .
            . X . . .
            . . . . .
            . . . . .
        ";
        let f = features(d, Color::Black, None, "C3");
        assert_eq!(f.get(Family::Capture), Some(u32::from(CAPTURE_BIG)));
    }

    const LADDER: &str = "
        . . . . . . . . .
        . . X X . . . . .
        . X O . . . . . .
        . . X . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    ";

    const LADDER_BREAKER: &str = "
        . . . . . . . . .
        . . X X . . . . .
        . X O . . . . . .
        . . X . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . O . .
        . . . . . . . . .
        . . . . . . . . .
    ";

    #[test]
    fn escape_is_ladder_checked() {
        // White C7 in atari; extending to D7 gives two liberties and the
        // ladder runs to the lower right edge.
        let f = features(LADDER, Color::White, Some("C6"), "D7");
        assert_eq!(f.get(Family::Escape), Some(u32::from(ESCAPE_NEW_LADDER)));
        let f = features(LADDER, Color::White, None, "D7");
        assert_eq!(f.get(Family::Escape), Some(u32::from(ESCAPE_OLD_LADDER)));
        // A White stone on G3 breaks the ladder.
        let f = features(LADDER_BREAKER, Color::White, Some("C6"), "D7");
        assert_eq!(f.get(Family::Escape), Some(u32::from(ESCAPE_NEW)));
        let f = features(LADDER_BREAKER, Color::White, None, "E5");
        assert_eq!(f.get(Family::Escape), None);
    }

    #[test]
    fn atari_is_ladder_checked() {
        // White C7 with two liberties, C6 and D7.
        let open = "
            . . . . . . . . .
            . . X X . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
        ";
        let f = features(open, Color::Black, None, "C6");
        assert_eq!(f.get(Family::Atari), Some(u32::from(ATARI_LADDER)));
        let f = features(open, Color::Black, None, "D7");
        assert_eq!(f.get(Family::Atari), Some(u32::from(ATARI_OTHER)));
        let f = features(open, Color::Black, None, "E5");
        assert_eq!(f.get(Family::Atari), None);
        let broken = "
            . . . . . . . . .
            . . X X . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . O . .
            . . . . . . . . .
            . . . . . . . . .
        ";
        let f = features(broken, Color::Black, None, "C6");
        assert_eq!(f.get(Family::Atari), Some(u32::from(ATARI_OTHER)));
    }

    #[test]
    fn self_atari_by_size() {
        // Black B4 joins A4 and B5: three stones left with A5 only.
        let d = "
            . X O . .
            X . O . .
            O O . . .
            . . . . .
            . . . . .
        ";
        let f = features(d, Color::Black, None, "B4");
        assert_eq!(f.get(Family::SelfAtari), Some(2));
        // A lone stone with one liberty.
        let d = "
            . . . . .
            . . . . .
            O . . . .
            . O . . .
            . . . . .
        ";
        let f = features(d, Color::Black, None, "A2");
        assert_eq!(f.get(Family::SelfAtari), Some(0));
        let f = features(d, Color::Black, None, "C3");
        assert_eq!(f.get(Family::SelfAtari), None);
        // A suicide is no candidate at all.
        let b = Board::from_diagram(
            "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .
        ",
        )
        .expect("diagram");
        assert!(!candidate_points(&b, Color::Black).any(|q| q == at(&b, "A1")));
    }

    #[test]
    fn liberties_and_pressure() {
        let d = "
            . . . . .
            . X O . .
            . . . . .
            . . . . .
            . . . . .
        ";
        // D4 takes a liberty of White C4 (three left to two) and has three.
        let f = features(d, Color::Black, None, "D4");
        assert_eq!(f.get(Family::Press), Some(2));
        assert_eq!(f.get(Family::Libs), Some(3));
        // B3 extends B4: one chain joined, five liberties, nothing pressed.
        let f = features(d, Color::Black, None, "B3");
        assert_eq!(f.get(Family::Libs), Some(15));
        assert_eq!(f.get(Family::Press), None);
        // C5 on the edge between: presses C4 to two, joins nothing.
        let f = features(d, Color::Black, None, "C5");
        assert_eq!(f.get(Family::Press), Some(2));
        let f = features(d, Color::Black, Some("C4"), "C5");
        assert_eq!(f.get(Family::Press), Some(22));
        assert_eq!(f.get(Family::Libs), Some(2));
    }

    #[test]
    fn save_levels() {
        // Black B4-C4 has two liberties, B3 and C5.
        let d = "
            . O . . .
            O X X O .
            . . O . .
            . . . . .
            . . . . O
        ";
        // B3 leaves three liberties: 4 for the two stones.
        assert_eq!(
            features(d, Color::Black, None, "B3").get(Family::Save),
            Some(4)
        );
        // ... plus 1 when the previous move (C3) touches the chain.
        assert_eq!(
            features(d, Color::Black, Some("C3"), "B3").get(Family::Save),
            Some(5)
        );
        // C5 leaves two: 2 more; B5 touches B4 as the previous move.
        assert_eq!(
            features(d, Color::Black, None, "C5").get(Family::Save),
            Some(6)
        );
        assert_eq!(
            features(d, Color::Black, Some("B5"), "C5").get(Family::Save),
            Some(7)
        );
        // A previous move elsewhere does not count.
        assert_eq!(
            features(d, Color::Black, Some("E1"), "C5").get(Family::Save),
            Some(6)
        );
        // A move that touches no chain of ours with two liberties.
        assert_eq!(
            features(d, Color::Black, None, "D2").get(Family::Save),
            None
        );
        // A single stone with two liberties: B1 extends A1 to three.
        let d = "
            . . .
            . . .
            X . .
        ";
        assert_eq!(
            features(d, Color::Black, None, "B1").get(Family::Save),
            Some(0)
        );
    }

    #[test]
    fn distances_edge_and_pass() {
        let b = Board::new(9).expect("size");
        let p = Point::new(2, 3);
        let position = Position {
            board: &b,
            to_move: Color::Black,
            last: Some(Move::Play(Point::new(3, 3))),
            last2: Some(Move::Play(Point::new(8, 8))),
        };
        let f = extract(&position, Move::Play(p));
        assert_eq!(f.get(Family::DistPrev), Some(2));
        // Keyed jointly with the distance to the previous move (2).
        assert_eq!(f.get(Family::DistPrev2), Some(17 + 32 * 2));
        assert_eq!(f.get(Family::Edge), Some(34));
        assert!(f.get(Family::Shape3).is_some());
        let f = extract(&position, Move::Pass);
        assert_eq!(f.get(Family::Pass), Some(0));
        assert_eq!(f.get(Family::Edge), None);
        let after_pass = Position {
            last: Some(Move::Pass),
            ..position
        };
        assert_eq!(extract(&after_pass, Move::Pass).get(Family::Pass), Some(1));
        // After a pass the second previous move's distance stands alone.
        let f = extract(&after_pass, Move::Play(p));
        assert_eq!(f.get(Family::DistPrev), None);
        assert_eq!(f.get(Family::DistPrev2), Some(17));
    }
}

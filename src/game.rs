//! A game: the board, the side to move, the move list, captures, and the
//! superko history.
//!
//! The history holds every position since the start (setup and handicap
//! stones make the start): the stone hash and the situation hash (stones and
//! side to move) of each go into an `FxHashSet`, and the position itself is
//! kept packed at two bits a point. A move is refused for superko only when
//! its resulting hash is in the set *and* a stored position with that hash
//! really equals the new one, so a 64-bit collision can never forbid a legal
//! move. There is no window: a 2,000-move game keeps all 2,001 positions.
//!
//! Memory per move: the move itself (4 bytes), one history entry (two
//! hashes, the side to move, and the packed position: `ceil(2·N²/64)` words,
//! 24 bytes on 9x9, 96 on 19x19, 160 on 25x25, plus a 16-byte box header),
//! and one entry in each hash set (8 bytes plus the set's load overhead): on
//! 19x19, about 160 bytes a move.
//!
//! A pass is always legal; the position after it enters the history with the
//! new side to move (it matters to situational superko).

use crate::board::{Board, IllegalMove, SizeError};
use crate::color::Color;
use crate::komi::Komi;
use crate::point::{Move, Point};
use crate::rules::{KoRule, Rules};
use crate::score::{area_score, AreaScore};
use crate::zobrist::{SituationHash, StoneHash};
use fxhash::FxHashSet;
use std::fmt;

/// A position packed at two bits a point (0 empty, 1 black, 2 white), row
/// by row from the top.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PackedPosition(Box<[u64]>);

impl PackedPosition {
    /// Packs the stones of `board`.
    pub fn of(board: &Board) -> PackedPosition {
        let n = board.size() * board.size();
        let mut words = vec![0u64; (2 * n).div_ceil(64)];
        for (i, p) in board.points().enumerate() {
            let v = board.get(p).map_or(0, |c| c as u64);
            words[i / 32] |= v << (2 * (i % 32));
        }
        PackedPosition(words.into_boxed_slice())
    }
}

/// One position of the history.
#[derive(Clone, Debug)]
struct HistoryEntry {
    stones: StoneHash,
    to_move: Color,
    position: PackedPosition,
}

/// A move played, with who played it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who played it.
    pub color: Color,
    /// What was played.
    pub mv: Move,
}

/// A handicap request that cannot be met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandicapError {
    /// The board already has stones or moves.
    BoardNotEmpty,
    /// This many fixed handicap stones do not fit this board size (the GTP
    /// table: 2-9 on odd sizes from 9, 2-4 on even sizes from 8 and on 7x7,
    /// none below 7).
    InvalidCount(usize),
    /// A free handicap point is off the board or given twice.
    BadPoint(Point),
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandicapError::BoardNotEmpty => f.write_str("board not empty"),
            HandicapError::InvalidCount(n) => write!(f, "invalid number of handicap stones: {n}"),
            HandicapError::BadPoint(_) => f.write_str("bad vertex list"),
        }
    }
}

impl std::error::Error for HandicapError {}

/// A game under a rule set.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    start: Board,
    start_to_move: Color,
    to_move: Color,
    rules: Rules,
    komi: Komi,
    moves: Vec<PlayedMove>,
    history: Vec<HistoryEntry>,
    positional: FxHashSet<u64>,
    situational: FxHashSet<u64>,
}

impl Game {
    /// A new game on an empty board, Black to move.
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is in 2..=25.
    pub fn new(size: usize, rules: Rules, komi: Komi) -> Result<Game, SizeError> {
        Ok(Game::from_position(
            Board::new(size)?,
            Color::Black,
            rules,
            komi,
        ))
    }

    /// A game starting from `board` (setup stones) with `to_move` to play.
    /// The start position is the first entry of the superko history.
    pub fn from_position(board: Board, to_move: Color, rules: Rules, komi: Komi) -> Game {
        let mut g = Game {
            start: board.clone(),
            board,
            start_to_move: to_move,
            to_move,
            rules,
            komi,
            moves: Vec::new(),
            history: Vec::new(),
            positional: FxHashSet::default(),
            situational: FxHashSet::default(),
        };
        g.push_history();
        g
    }

    /// The current position.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The start position (setup and handicap stones).
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// Who is to play at the start.
    pub fn start_to_move(&self) -> Color {
        self.start_to_move
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// Who is to play.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets who is to play (SGF `PL`, or a controller's out-of-turn move).
    /// The latest history entry takes the new side to move.
    pub fn set_to_move(&mut self, c: Color) {
        if c == self.to_move {
            return;
        }
        self.to_move = c;
        if self.moves.is_empty() {
            self.start_to_move = c;
        }
        let last = self.history.last_mut().expect("history is never empty");
        last.to_move = c;
        self.rebuild_sets();
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules; the history is kept and applies at once.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Komi (points added to White's score).
    pub fn komi(&self) -> Komi {
        self.komi
    }

    /// Sets komi (checked by [`Komi`]: finite, at most 1000 either way).
    pub fn set_komi(&mut self, komi: Komi) {
        self.komi = komi;
    }

    /// The moves played since the start, in order.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// Stones captured so far by `by`.
    pub fn captures(&self, by: Color) -> u32 {
        self.board.captures(by)
    }

    /// The number of positions in the superko history (moves + 1).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The stone hash and side to move of history entry `i` (0 = start).
    pub fn history_entry(&self, i: usize) -> Option<(StoneHash, Color)> {
        self.history.get(i).map(|e| (e.stones, e.to_move))
    }

    /// Whether the last two moves were passes.
    pub fn two_passes(&self) -> bool {
        let n = self.moves.len();
        n >= 2 && self.moves[n - 1].mv == Move::Pass && self.moves[n - 2].mv == Move::Pass
    }

    fn push_history(&mut self) {
        let stones = self.board.hash();
        self.positional.insert(stones.0);
        self.situational
            .insert(SituationHash::new(stones, self.to_move).0);
        self.history.push(HistoryEntry {
            stones,
            to_move: self.to_move,
            position: PackedPosition::of(&self.board),
        });
    }

    fn rebuild_sets(&mut self) {
        self.positional.clear();
        self.situational.clear();
        for e in &self.history {
            self.positional.insert(e.stones.0);
            self.situational
                .insert(SituationHash::new(e.stones, e.to_move).0);
        }
    }

    /// The earliest move number after which the position that `c` playing
    /// on `p` would create already stood, under the active ko rule. The
    /// move must be legal on the board. `None` when it repeats nothing (or
    /// the ko rule is simple).
    fn repetition(&self, c: Color, p: Point) -> Option<usize> {
        let next_to_move = c.opponent();
        let after = self.board.hash_after(c, p);
        let hit = match self.rules.ko {
            KoRule::Simple => return None,
            KoRule::Positional => self.positional.contains(&after.0),
            KoRule::Situational => self
                .situational
                .contains(&SituationHash::new(after, next_to_move).0),
        };
        if !hit {
            return None;
        }
        // Confirm against the stored positions.
        let mut b = self.board.clone();
        b.play_unchecked(c, p);
        let packed = PackedPosition::of(&b);
        self.history.iter().position(|e| {
            e.stones == after
                && (self.rules.ko == KoRule::Positional || e.to_move == next_to_move)
                && e.position == packed
        })
    }

    /// Checks whether `c` may play `mv` now under the rules, playing nothing.
    /// A pass is always legal.
    ///
    /// # Errors
    /// Why the move is illegal: off the board, occupied, ko, suicide, or
    /// superko (with the move after which the repeated position stood).
    pub fn check(&self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        let p = match mv {
            Move::Pass => return Ok(()),
            Move::Play(p) => p,
        };
        self.board.check(c, p, self.rules.suicide)?;
        match self.repetition(c, p) {
            Some(after_move) => Err(IllegalMove::Superko { after_move }),
            None => Ok(()),
        }
    }

    /// Whether `c` may play `mv` now.
    pub fn is_legal(&self, c: Color, mv: Move) -> bool {
        self.check(c, mv).is_ok()
    }

    /// Plays `mv` for `c` (who need not be the side to move: a controller
    /// may send setup stones as consecutive moves of one colour); the other
    /// colour is to move afterwards.
    ///
    /// # Errors
    /// As [`Game::check`]; nothing changes then.
    pub fn play(&mut self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(c, mv)?;
        self.apply(c, mv);
        Ok(())
    }

    /// Plays `mv` for `c` if the board allows it, whatever the ko rule and
    /// the suicide rule say (a tolerant replay, as of a record made under
    /// other rules). Returns the rule the move broke, if any, as a warning.
    ///
    /// # Errors
    /// A move the board cannot hold: off the board, occupied, or a
    /// single-stone suicide (which would change nothing).
    pub fn play_tolerant(
        &mut self,
        c: Color,
        mv: Move,
    ) -> Result<Option<IllegalMove>, IllegalMove> {
        let broken = self.check(c, mv).err();
        if let Move::Play(p) = mv {
            if let Err(e) = self.board.check(c, p, true) {
                if e != IllegalMove::Ko {
                    return Err(e);
                }
            }
        }
        self.apply(c, mv);
        Ok(broken)
    }

    fn apply(&mut self, c: Color, mv: Move) {
        match mv {
            Move::Pass => self.board.pass(),
            Move::Play(p) => {
                self.board.play_unchecked(c, p);
            }
        }
        self.moves.push(PlayedMove { color: c, mv });
        self.to_move = c.opponent();
        self.push_history();
    }

    /// Takes back the last move.
    ///
    /// # Errors
    /// `Err(())` when there is no move to take back.
    #[allow(clippy::result_unit_err)]
    pub fn undo(&mut self) -> Result<(), ()> {
        self.undo_many(1)
    }

    /// Takes back the last `n` moves, restoring board, captures, hashes,
    /// simple-ko point and history exactly (by replay from the start).
    ///
    /// # Errors
    /// `Err(())`, changing nothing, when fewer than `n` moves were played.
    #[allow(clippy::result_unit_err)]
    pub fn undo_many(&mut self, n: usize) -> Result<(), ()> {
        if n > self.moves.len() {
            return Err(());
        }
        if n == 0 {
            return Ok(());
        }
        let keep = self.moves.len() - n;
        self.moves.truncate(keep);
        self.history.truncate(keep + 1);
        self.board = self.start.clone();
        for m in &self.moves {
            match m.mv {
                Move::Pass => self.board.pass(),
                Move::Play(p) => {
                    self.board.play_unchecked(m.color, p);
                }
            }
        }
        self.to_move = self.history.last().expect("history is never empty").to_move;
        self.rebuild_sets();
        Ok(())
    }

    /// Every move `c` may play now: the legal points, then the pass.
    pub fn legal_moves(&self, c: Color) -> Vec<Move> {
        let mut out: Vec<Move> = self
            .board
            .points()
            .filter(|&p| self.is_legal(c, Move::Play(p)))
            .map(Move::Play)
            .collect();
        out.push(Move::Pass);
        out
    }

    /// The Tromp-Taylor area score with this game's komi, after removing the
    /// stones on `dead`.
    pub fn area_score(&self, dead: &[Point]) -> AreaScore {
        area_score(&self.board, self.komi.get(), dead)
    }

    /// Replaces the start position with stones added, for handicap and setup
    /// before the first move. The added position starts the history afresh.
    ///
    /// # Errors
    /// [`HandicapError::BoardNotEmpty`] after the first move;
    /// [`HandicapError::BadPoint`] for a point off the board or occupied.
    pub fn add_setup_stones(&mut self, c: Color, points: &[Point]) -> Result<(), HandicapError> {
        if !self.moves.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let mut b = self.board.clone();
        for &p in points {
            if !b.on_board(p) || !b.is_empty(p) {
                return Err(HandicapError::BadPoint(p));
            }
            b.set(p, Some(c)).map_err(|_| HandicapError::BadPoint(p))?;
        }
        *self = Game::from_position(b, self.to_move, self.rules, self.komi);
        Ok(())
    }

    /// The handicap stones: the Black stones of a start position with no
    /// White stone and White to move (what [`Game::fixed_handicap`],
    /// [`Game::set_free_handicap`] and an SGF `HA`/`AB` setup leave), when
    /// there are at least two; else none.
    pub fn handicap_stones(&self) -> Vec<Point> {
        let b = &self.start;
        let black: Vec<Point> = b
            .points()
            .filter(|&p| b.get(p) == Some(Color::Black))
            .collect();
        let white = b.points().any(|p| b.get(p) == Some(Color::White));
        if white || black.len() < 2 || self.start_to_move != Color::White {
            return Vec::new();
        }
        black
    }

    /// Places `n` fixed handicap stones for Black as the GTP specification
    /// lays them out, and gives White the move. Returns the points.
    ///
    /// # Errors
    /// [`HandicapError`] if the board is not empty or `n` does not fit.
    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Point>, HandicapError> {
        if !self.moves.is_empty() || self.board.empty_count() != self.size() * self.size() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let points = fixed_handicap_points(self.size(), n).ok_or(HandicapError::InvalidCount(n))?;
        self.set_free_handicap(&points)?;
        Ok(points)
    }

    /// Places Black handicap stones on `points` (free placement) and gives
    /// White the move.
    ///
    /// # Errors
    /// [`HandicapError`] if the board is not empty, fewer than 2 points are
    /// given, a point repeats, or the stones would fill the board.
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        if !self.moves.is_empty() || self.board.empty_count() != self.size() * self.size() {
            return Err(HandicapError::BoardNotEmpty);
        }
        if points.len() < 2 || points.len() >= self.size() * self.size() {
            return Err(HandicapError::InvalidCount(points.len()));
        }
        let mut seen = FxHashSet::default();
        for &p in points {
            if !seen.insert(p) {
                return Err(HandicapError::BadPoint(p));
            }
        }
        self.to_move = Color::White;
        self.add_setup_stones(Color::Black, points)
    }
}

/// The GTP specification's fixed handicap points for `n` stones on a
/// `size` board, or `None` where the table has none: 2 to 9 stones on odd
/// sizes from 9x9 up; 2 to 4 on even sizes from 8x8 up and on 7x7; none on
/// boards smaller than 7x7.
pub fn fixed_handicap_points(size: usize, n: usize) -> Option<Vec<Point>> {
    if size < 7 || n < 2 {
        return None;
    }
    let max = if size % 2 == 1 && size >= 9 { 9 } else { 4 };
    if n > max {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (edge, size - 1 - edge, size / 2);
    // Coordinates as (x, y) with y from the top; GTP names lower-left A1.
    let p = |x: usize, y: usize| Point::new(x, y);
    let lower_left = p(lo, hi);
    let upper_right = p(hi, lo);
    let upper_left = p(lo, lo);
    let lower_right = p(hi, hi);
    let center = p(mid, mid);
    let left = p(lo, mid);
    let right = p(hi, mid);
    let top = p(mid, lo);
    let bottom = p(mid, hi);
    // The spec's order: the corners, then the sides, the centre last on odd
    // counts.
    let corners = [lower_left, upper_right, upper_left, lower_right];
    let extra: &[Point] = match n {
        2..=4 => &[],
        5 => &[center],
        6 => &[left, right],
        7 => &[left, right, center],
        8 => &[left, right, bottom, top],
        9 => &[left, right, bottom, top, center],
        _ => return None,
    };
    let mut pts: Vec<Point> = corners[..n.min(4)].to_vec();
    pts.extend_from_slice(extra);
    Some(pts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp(points: &[Point], size: usize) -> Vec<String> {
        points.iter().map(|p| p.to_gtp(size)).collect()
    }

    #[test]
    fn handicap_table_matches_gtp_spec() {
        assert_eq!(
            gtp(&fixed_handicap_points(19, 2).unwrap(), 19),
            ["D4", "Q16"]
        );
        assert_eq!(
            gtp(&fixed_handicap_points(19, 9).unwrap(), 19),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(
            gtp(&fixed_handicap_points(9, 3).unwrap(), 9),
            ["C3", "G7", "C7"]
        );
        assert_eq!(
            gtp(&fixed_handicap_points(7, 4).unwrap(), 7),
            ["C3", "E5", "C5", "E3"]
        );
        let nine: Vec<String> = gtp(&fixed_handicap_points(19, 9).unwrap(), 19);
        for (n, extra) in [
            (5, vec!["K10"]),
            (6, vec!["D10", "Q10"]),
            (7, vec!["D10", "Q10", "K10"]),
            (8, vec!["D10", "Q10", "K4", "K16"]),
        ] {
            let mut want: Vec<String> = nine[..4].to_vec();
            want.extend(extra.iter().map(|s| s.to_string()));
            assert_eq!(
                gtp(&fixed_handicap_points(19, n).unwrap(), 19),
                want,
                "{n} stones"
            );
        }
        assert!(fixed_handicap_points(7, 5).is_none());
        assert!(fixed_handicap_points(10, 5).is_none());
        assert!(fixed_handicap_points(6, 2).is_none());
        assert!(fixed_handicap_points(19, 10).is_none());
    }

    #[test]
    fn pass_is_always_legal_and_undo_restores() {
        let mut g = Game::new(5, Rules::default(), Komi::default()).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Play(Point::new(2, 2))).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        g.undo().unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.history_len(), 2);
        g.undo().unwrap();
        assert!(g.undo().is_err());
    }
}

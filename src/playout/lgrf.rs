//! Last-good-reply with forgetting, LGRF-2 (Baier and Drake 2010, "The
//! Power of Forgetting: Improving the Last-Good-Reply Policy in Monte
//! Carlo Go").
//!
//! Per colour, a reply to the previous move (`reply1[prev]`) and a reply
//! to the last two moves (`reply2[prev2][prev]`). After a playout, every
//! move of the winner is stored as the reply to the move(s) before it, and
//! for every move of the loser a stored reply equal to that move is
//! deleted. In a playout the side to move first tries the LGR-2 reply,
//! then the LGR-1 reply, each only if it is playable (empty, legal, not its
//! own eye) and no self-atari; otherwise the rest of the policy chooses.
//!
//! A pass (or no move, before the first of a game) is a previous move like
//! any other: key 0. A pass is never stored as a reply. A drawn playout
//! (margin equal to komi) teaches nothing.
//!
//! [`Lgrf`] is one search thread's state: the [`ReplyTable`] and the
//! [`MoveRecord`] of the current simulation (the tree's moves, then the
//! playout's), in fixed-size storage reused by every playout.
//!
//! Switched by [`PlayoutConfig::lgrf`] (off by default) and placed in the
//! policy by [`PlayoutConfig::lgrf_place`].
//!
//! # Measured (komi 7, 5000 playouts a move, one thread)
//!
//! Against the policy without it (the previous main) on 9x9, LGRF lost in
//! every placement: first, 19 wins, 48 losses and 2 draws; after the
//! tactical replies, 13-33-3; after the shapes too, 46-65-3 (matches
//! stopped once clearly lost). Keeping each thread's tables across the
//! searches of a game, as Orego does, lost too: 78-113-9 over 200 games,
//! SPRT (0, 30) accepting H0. In a lopsided position (komi -60) the
//! winner's replies, learned from every playout and never forgotten, crowd
//! out its shape moves: the root score lead falls from about +69 to +42
//! with the reply before the shapes, and stays about +66 after them. It
//! costs about a fifth of the playout speed on 19x19 (reply tables of half
//! a megabyte per thread), little on 9x9.
//!
//! [`PlayoutConfig::lgrf`]: super::PlayoutConfig::lgrf
//! [`PlayoutConfig::lgrf_place`]: super::PlayoutConfig::lgrf_place

use crate::board::Board;
use crate::color::Color;
use crate::point::{Point, ARRAY_LEN, MAX_SIZE};

/// The key of a pass (or no move) and the value of "no reply".
const NONE: u16 = 0;

/// The moves of one simulation, as point indices (0 for a pass), the two
/// moves before it first. Its storage is allocated once; moves past its
/// capacity are not recorded (and so teach nothing).
#[derive(Clone, Debug)]
pub struct MoveRecord {
    moves: Vec<u16>,
    /// The most entries `moves` takes (its allocation holds them all).
    cap: usize,
    /// Who plays the first move after the two context moves.
    first: Color,
}

impl MoveRecord {
    /// An empty record with room for `capacity` moves besides the two of
    /// context.
    pub fn with_capacity(capacity: usize) -> MoveRecord {
        MoveRecord {
            moves: Vec::with_capacity(capacity + 2),
            cap: capacity + 2,
            first: Color::Black,
        }
    }

    /// Starts a simulation: `prev2` and `prev` are the two moves before it
    /// (`None` for a pass or no move), `first` moves next.
    pub fn start(&mut self, prev2: Option<Point>, prev: Option<Point>, first: Color) {
        self.moves.clear();
        self.moves.push(code(prev2));
        self.moves.push(code(prev));
        self.first = first;
    }

    /// Records the next move (`None` for a pass); ignored when full.
    #[inline]
    pub fn push(&mut self, mv: Option<Point>) {
        if self.moves.len() < self.cap {
            self.moves.push(code(mv));
        }
    }

    /// Whether further moves are dropped.
    #[inline]
    fn is_full(&self) -> bool {
        self.moves.len() >= self.cap
    }

    /// The last two moves recorded (keys: 0 for a pass or no move).
    #[inline]
    fn last_two(&self) -> (u16, u16) {
        let n = self.moves.len();
        (self.moves[n - 2], self.moves[n - 1])
    }

    /// The moves recorded after the two of context.
    pub fn played(&self) -> usize {
        self.moves.len().saturating_sub(2)
    }
}

#[inline]
fn code(mv: Option<Point>) -> u16 {
    mv.map_or(NONE, |p| p.index() as u16)
}

/// The reply tables of both colours for one board size.
#[derive(Clone, Debug)]
pub struct ReplyTable {
    size: usize,
    /// Dense key of each point index: 1 + row * size + column on the
    /// board, 0 for a pass and everything else.
    slot: Box<[u16]>,
    /// Keys per colour: every point and the pass.
    slots: usize,
    /// `[colour][prev]`: the reply's point index, or 0.
    reply1: Box<[u16]>,
    /// `[colour][prev2][prev]`: the reply's point index, or 0.
    reply2: Box<[u16]>,
}

impl ReplyTable {
    /// Empty tables for boards of `size` (2..=25).
    pub fn new(size: usize) -> ReplyTable {
        let size = size.clamp(1, MAX_SIZE);
        let mut slot = vec![0u16; ARRAY_LEN].into_boxed_slice();
        for y in 0..size {
            for x in 0..size {
                slot[Point::new(x, y).index()] = (1 + y * size + x) as u16;
            }
        }
        let slots = size * size + 1;
        ReplyTable {
            size,
            slot,
            slots,
            reply1: vec![NONE; 2 * slots].into_boxed_slice(),
            reply2: vec![NONE; 2 * slots * slots].into_boxed_slice(),
        }
    }

    /// The board size the tables are for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Forgets every reply.
    pub fn clear(&mut self) {
        self.reply1.fill(NONE);
        self.reply2.fill(NONE);
    }

    #[inline]
    fn i1(&self, c: Color, prev: u16) -> usize {
        (c as usize - 1) * self.slots + self.slot[prev as usize] as usize
    }

    #[inline]
    fn i2(&self, c: Color, prev2: u16, prev: u16) -> usize {
        ((c as usize - 1) * self.slots + self.slot[prev2 as usize] as usize) * self.slots
            + self.slot[prev as usize] as usize
    }

    /// The stored replies of `c` to `prev2` then `prev` (LGR-2) and to
    /// `prev` (LGR-1), each `None` when nothing is stored.
    pub fn replies(
        &self,
        c: Color,
        prev2: Option<Point>,
        prev: Option<Point>,
    ) -> (Option<Point>, Option<Point>) {
        let (r2, r1) = self.replies_raw(c, code(prev2), code(prev));
        let pt = |r: u16| (r != NONE).then(|| Point::from_index(r as usize));
        (pt(r2), pt(r1))
    }

    #[inline]
    fn replies_raw(&self, c: Color, prev2: u16, prev: u16) -> (u16, u16) {
        (
            self.reply2[self.i2(c, prev2, prev)],
            self.reply1[self.i1(c, prev)],
        )
    }

    /// Learns from the simulation in `record` won by `winner` (`None`: a
    /// draw, which teaches nothing): the winner's moves become the replies
    /// to the moves before them, and the loser's moves are forgotten where
    /// stored as those replies.
    pub fn learn(&mut self, record: &MoveRecord, winner: Option<Color>) {
        let Some(winner) = winner else { return };
        let m = &record.moves;
        let mut c = record.first;
        for i in 2..m.len() {
            let mv = m[i];
            if mv != NONE {
                let (k1, k2) = (self.i1(c, m[i - 1]), self.i2(c, m[i - 2], m[i - 1]));
                if c == winner {
                    self.reply1[k1] = mv;
                    self.reply2[k2] = mv;
                } else {
                    if self.reply1[k1] == mv {
                        self.reply1[k1] = NONE;
                    }
                    if self.reply2[k2] == mv {
                        self.reply2[k2] = NONE;
                    }
                }
            }
            c = c.opponent();
        }
    }
}

/// One search thread's LGRF-2 state: the tables and the current
/// simulation's moves.
#[derive(Clone, Debug)]
pub struct Lgrf {
    /// The reply tables.
    pub table: ReplyTable,
    /// The moves of the simulation under way.
    pub record: MoveRecord,
}

impl Lgrf {
    /// Empty tables for boards of `size`, and a record long enough for a
    /// descent of `tree_moves` moves and a playout of `playout_moves`.
    pub fn new(size: usize, tree_moves: usize, playout_moves: usize) -> Lgrf {
        Lgrf {
            table: ReplyTable::new(size),
            record: MoveRecord::with_capacity(tree_moves + playout_moves),
        }
    }

    /// The stored reply for `c` after the moves recorded so far, LGR-2
    /// first, then LGR-1, that `c` may play on `b`: empty, not the ko
    /// recapture, no suicide, not `c`'s own eye, and no self-atari.
    #[inline]
    pub fn reply(&self, b: &Board, c: Color) -> Option<Point> {
        if self.record.is_full() {
            // The last two moves were not recorded.
            return None;
        }
        let (p2, p1) = self.record.last_two();
        let (r2, r1) = self.table.replies_raw(c, p2, p1);
        for r in [r2, r1] {
            if r == NONE {
                continue;
            }
            let p = Point::from_index(r as usize);
            if b.is_empty(p) && b.is_playout_candidate(c, p) && b.liberties_after(c, p, 2) >= 2 {
                return Some(p);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: usize, y: usize) -> Option<Point> {
        Some(Point::new(x, y))
    }

    #[test]
    fn a_won_playout_teaches_and_a_lost_one_forgets() {
        let mut t = ReplyTable::new(9);
        let mut r = MoveRecord::with_capacity(16);
        // Before: W at (0,0), B at (1,1). Then W (4,4), B (5,5), W (6,6).
        r.start(pt(0, 0), pt(1, 1), Color::White);
        for m in [pt(4, 4), pt(5, 5), pt(6, 6)] {
            r.push(m);
        }
        t.learn(&r, Some(Color::White));
        assert_eq!(
            t.replies(Color::White, pt(0, 0), pt(1, 1)),
            (pt(4, 4), pt(4, 4))
        );
        assert_eq!(
            t.replies(Color::White, pt(4, 4), pt(5, 5)),
            (pt(6, 6), pt(6, 6))
        );
        // The loser's move is not learned.
        assert_eq!(t.replies(Color::Black, pt(1, 1), pt(4, 4)), (None, None));
        // A draw changes nothing.
        let before = t.clone();
        t.learn(&r, None);
        assert_eq!(before.reply1, t.reply1);
        assert_eq!(before.reply2, t.reply2);

        // Black wins the same game: White's replies are forgotten, Black's
        // learned.
        t.learn(&r, Some(Color::Black));
        assert_eq!(t.replies(Color::White, pt(0, 0), pt(1, 1)), (None, None));
        assert_eq!(t.replies(Color::White, pt(4, 4), pt(5, 5)), (None, None));
        assert_eq!(
            t.replies(Color::Black, pt(1, 1), pt(4, 4)),
            (pt(5, 5), pt(5, 5))
        );
    }

    #[test]
    fn forgetting_removes_only_the_losing_move() {
        let mut t = ReplyTable::new(9);
        let mut r = MoveRecord::with_capacity(4);
        r.start(None, pt(2, 2), Color::Black);
        r.push(pt(3, 3));
        t.learn(&r, Some(Color::Black));
        // Black answers (2,2) elsewhere and loses: (3,3) stays stored.
        r.start(None, pt(2, 2), Color::Black);
        r.push(pt(7, 7));
        t.learn(&r, Some(Color::White));
        assert_eq!(
            t.replies(Color::Black, None, pt(2, 2)),
            (pt(3, 3), pt(3, 3))
        );
        // A different second previous move: only LGR-1 applies, and a loss
        // with (3,3) there forgets LGR-1 but not the old LGR-2.
        r.start(pt(8, 8), pt(2, 2), Color::Black);
        r.push(pt(3, 3));
        t.learn(&r, Some(Color::White));
        assert_eq!(t.replies(Color::Black, pt(8, 8), pt(2, 2)), (None, None));
        assert_eq!(t.replies(Color::Black, None, pt(2, 2)), (pt(3, 3), None));
    }

    #[test]
    fn passes_are_keys_but_never_replies() {
        let mut t = ReplyTable::new(5);
        let mut r = MoveRecord::with_capacity(8);
        r.start(None, None, Color::Black);
        r.push(None);
        r.push(pt(2, 2));
        t.learn(&r, Some(Color::White));
        assert_eq!(t.replies(Color::Black, None, None), (None, None));
        assert_eq!(t.replies(Color::White, None, None), (pt(2, 2), pt(2, 2)));
    }

    #[test]
    fn a_full_record_drops_further_moves() {
        let mut r = MoveRecord::with_capacity(2);
        r.start(None, None, Color::Black);
        for x in 0..5 {
            r.push(pt(x, 0));
        }
        assert_eq!(r.played(), 2);
        assert_eq!(r.last_two(), (code(pt(0, 0)), code(pt(1, 0))));
    }

    #[test]
    fn replies_must_be_playable_and_no_self_atari() {
        let b = Board::from_diagram(
            "
            . X . . .
            X . X . .
            . X . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let mut l = Lgrf::new(5, 4, 4);
        let eye = Point::new(1, 1);
        let stone = Point::new(1, 0);
        let open = Point::new(3, 3);
        // White there has one liberty, (0,3).
        let self_atari = Point::new(0, 2);
        l.record.start(None, pt(4, 4), Color::White);
        l.record.push(Some(eye));
        l.table.learn(&l.record, Some(Color::White));
        // White's reply to (4,4) is Black's eye: suicide for Black, and
        // White at (1,1) would be a suicide too.
        l.record.start(None, pt(4, 4), Color::White);
        assert_eq!(l.reply(&b, Color::White), None);
        // Reply on a stone: refused.
        l.record.start(None, pt(4, 4), Color::White);
        l.record.push(Some(stone));
        l.table.learn(&l.record, Some(Color::White));
        l.record.start(None, pt(4, 4), Color::White);
        assert_eq!(l.reply(&b, Color::White), None);
        // A self-atari: refused; an open point: played.
        for (p, want) in [(self_atari, None), (open, Some(open))] {
            l.record.start(None, pt(4, 4), Color::White);
            l.record.push(Some(p));
            l.table.learn(&l.record, Some(Color::White));
            l.record.start(None, pt(4, 4), Color::White);
            assert_eq!(l.reply(&b, Color::White), want);
        }
        // Black's own eye is refused for Black, even with a reply stored.
        l.record.start(None, pt(4, 3), Color::Black);
        l.record.push(Some(eye));
        l.table.learn(&l.record, Some(Color::Black));
        l.record.start(None, pt(4, 3), Color::Black);
        assert_eq!(l.reply(&b, Color::Black), None);
    }
}

#[cfg(test)]
mod playout_tests {
    use super::*;
    use crate::playout::policy::{playout, LgrfPlace, PlayoutConfig};
    use rand_xoshiro::rand_core::SeedableRng;

    /// The first move of a playout on an empty 9x9 board after Black's
    /// (4,4), White to move, with the given LGRF state.
    fn first_reply(seed: u64, place: LgrfPlace, lgrf: Option<&mut Lgrf>) -> Option<u16> {
        let mut b = Board::new(9).unwrap();
        b.play_unchecked(Color::Black, Point::new(4, 4));
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut first = [0u8; ARRAY_LEN];
        let mut owner = [0i8; ARRAY_LEN];
        let cfg = PlayoutConfig {
            lgrf_place: place,
            ..PlayoutConfig::default()
        };
        let last = Some(Point::new(4, 4));
        match lgrf {
            Some(l) => {
                l.record.start(None, last, Color::White);
                playout(
                    &mut b,
                    Color::White,
                    last,
                    None,
                    &mut rng,
                    &cfg,
                    &mut first,
                    &mut owner,
                    Some(&mut *l),
                );
                assert!(l.record.played() > 10);
                Some(l.record.moves[2])
            }
            None => {
                playout(
                    &mut b,
                    Color::White,
                    last,
                    None,
                    &mut rng,
                    &cfg,
                    &mut first,
                    &mut owner,
                    None,
                );
                None
            }
        }
    }

    #[test]
    fn a_playout_plays_the_stored_reply() {
        let reply = Point::new(2, 6);
        // Store White's reply to (4,4) from a won simulation.
        let mut t = ReplyTable::new(9);
        let mut r = MoveRecord::with_capacity(2);
        r.start(None, Some(Point::new(4, 4)), Color::White);
        r.push(Some(reply));
        t.learn(&r, Some(Color::White));
        // A lone stone: no tactics, no shape, so every placement plays the
        // reply first.
        let places = [
            LgrfPlace::First,
            LgrfPlace::AfterTactics,
            LgrfPlace::AfterShapes,
        ];
        for place in places {
            // Without a stored reply, the first move varies with the seed.
            let mut l = Lgrf::new(9, 4, 3 * 81);
            let firsts: Vec<_> = (0..8)
                .map(|seed| first_reply(seed, place, Some(&mut l)).unwrap())
                .collect();
            assert!(firsts.iter().any(|&f| f != firsts[0]), "{firsts:?}");
            for seed in 0..8 {
                let mut l = Lgrf::new(9, 4, 3 * 81);
                l.table = t.clone();
                assert_eq!(
                    first_reply(seed, place, Some(&mut l)),
                    Some(reply.index() as u16),
                    "{place:?} seed {seed}"
                );
            }
        }
        // Without LGRF the playout runs and records nothing.
        assert_eq!(first_reply(0, LgrfPlace::First, None), None);
    }
}

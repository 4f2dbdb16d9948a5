//! The end of a game: which chains are dead, alive or in seki, how the
//! board is counted, and the clean-up move.
//!
//! Everything that decides the end of a game goes through here:
//! `final_status_list`, `final_score`, `kgs-genmove_cleanup`, the search's
//! decision to pass, and the counting of finished games in `match` and
//! `selfplay`.
//!
//! **Status.** One rule, one threshold: a chain's ownership is the mean of
//! its points' ownership values seen from its own colour (+1: always its
//! owner's, -1: always the opponent's). A chain is **dead** when that mean
//! is below `-DEAD_THRESHOLD`. A living chain is in **seki** when its mean
//! is within `SEKI_BAND` of 0 and it shares a liberty with a living chain
//! of the other colour; a living chain sharing a liberty with an enemy
//! chain in seki is in seki too. A living chain is in seki as well when
//! the board shows it: each of its liberties is its own eye or shared with
//! a living opposing chain, and a stone of either colour there would be a
//! self-atari (`mutual_seki`). Everything else is **alive**.
//!
//! **Counting** ([`count`]) follows the rules' [`Scoring`]:
//! - area: every stone left after the dead ones are removed, plus the empty
//!   regions that touch one colour only (Tromp-Taylor once the dead stones
//!   are gone);
//! - territory (Japanese): the empty regions that touch one colour only and
//!   no chain in seki, plus prisoners: the stones the colour captured during
//!   the game and the opponent's dead stones removed at the end. A pass
//!   gives the opponent no prisoner (unlike AGA rules' pass stones), and
//!   stones do not count; so a move inside one's own territory costs a
//!   point, and one inside the opponent's territory, once removed as dead,
//!   costs a point too.
//!
//! **Clean-up** ([`cleanup_moves`]): the moves that attack an opponent chain
//! called dead, on its liberties only, so that the player never fills an
//! eye of its own (a point whose neighbours are all its own stones is never
//! the liberty of an opponent chain). A chain in atari is captured at once;
//! else liberties outside (with a neighbour that is neither ours nor that
//! chain) come before inner ones, and a move that would leave our own new
//! chain in atari without capturing comes only when nothing else is left.

use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::point::{Move, Point};
use crate::rules::Scoring;
use crate::score::{area_counts, territory_counts, GameResult};
use fxhash::FxHashSet;

/// A chain is dead when its own ownership is below minus this: when its
/// points end up the opponent's in most playouts. Ownership estimates are
/// compressed towards 0 (a lone dead stone in a finished 7x7 position
/// scores about -0.3 to -0.4), so anything clearly negative counts. Tuned
/// against GNU Go's `final_status_list dead` on the 134 finished games of
/// the SGF corpus that both read (scored results, 9x9 to 19x19): at 0.05
/// (0 to 0.05 give the same) 127 games get the same dead list and 66 of
/// the 1,381 stones either names dead differ; at 0.2, 124 and 87; at 0.3,
/// 123 and 99.
pub const DEAD_THRESHOLD: f32 = 0.05;
/// A living chain whose ownership is within this of 0 and that shares a
/// liberty with a living opposing chain is in seki.
pub const SEKI_BAND: f32 = 0.5;

/// The status of a chain.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Alive (and not in seki).
    Alive,
    /// Dead: to be removed before counting.
    Dead,
    /// Alive in seki.
    Seki,
}

impl Status {
    /// Reads `alive`, `dead` or `seki`.
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "alive" => Some(Status::Alive),
            "dead" => Some(Status::Dead),
            "seki" => Some(Status::Seki),
            _ => None,
        }
    }
}

/// One chain with its status.
#[derive(Clone, Debug)]
pub struct ChainStatus {
    /// The chain's colour.
    pub color: Color,
    /// Its stones, in board order.
    pub stones: Vec<Point>,
    /// Its status.
    pub status: Status,
}

/// Classifies every chain of `board` from `ownership` (one value per
/// on-board point, row by row from the top, +1 Black).
pub fn classify(board: &Board, ownership: &[f32]) -> Vec<ChainStatus> {
    let n = board.size();
    let own = |p: Point| ownership.get(p.y() * n + p.x()).copied().unwrap_or(0.0);
    let mut seen = FxHashSet::default();
    let mut chains = Vec::new();
    let mut means = Vec::new();
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        let root = board.chain_root(p);
        if !seen.insert(root) {
            continue;
        }
        let mut stones = board.chain(p);
        stones.sort();
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let mean = stones.iter().map(|&q| sign * own(q)).sum::<f32>() / stones.len() as f32;
        let status = if mean < -DEAD_THRESHOLD {
            Status::Dead
        } else {
            Status::Alive
        };
        chains.push(ChainStatus {
            color: c,
            stones,
            status,
        });
        means.push(mean);
    }
    // Seki: a weakly owned living chain sharing a liberty with a living
    // opposing chain.
    let alive_roots: FxHashSet<Point> = chains
        .iter()
        .filter(|c| c.status == Status::Alive)
        .map(|c| board.chain_root(c.stones[0]))
        .collect();
    for (i, chain) in chains.iter_mut().enumerate() {
        if chain.status != Status::Alive {
            continue;
        }
        if mutual_seki(board, chain.stones[0], &alive_roots) {
            chain.status = Status::Seki;
            continue;
        }
        if means[i].abs() >= SEKI_BAND {
            continue;
        }
        let shares = board.chain_liberties(chain.stones[0]).iter().any(|&lib| {
            lib.neighbors().iter().any(|&q| {
                board.on_board(q)
                    && board.get(q) == Some(chain.color.opponent())
                    && alive_roots.contains(&board.chain_root(q))
            })
        });
        if shares {
            chain.status = Status::Seki;
        }
    }
    // The other side of a seki: a living chain that shares a liberty with
    // an enemy chain in seki is in it too, however firmly its points are
    // owned (two inner stones with the only liberties of a surrounded
    // group, say).
    let seki_libs: FxHashSet<(Point, Color)> = chains
        .iter()
        .filter(|c| c.status == Status::Seki)
        .flat_map(|c| {
            board
                .chain_liberties(c.stones[0])
                .into_iter()
                .map(move |l| (l, c.color))
        })
        .collect();
    for chain in chains.iter_mut().filter(|c| c.status == Status::Alive) {
        let enemy = chain.color.opponent();
        if board
            .chain_liberties(chain.stones[0])
            .iter()
            .any(|&l| seki_libs.contains(&(l, enemy)))
        {
            chain.status = Status::Seki;
        }
    }
    chains
}

/// Whether the chain of `p` is in a seki that the board shows by itself:
/// it has two liberties or more, and each is either its own eye (every
/// neighbour a stone of this chain) or shared with a living opposing
/// chain (in `alive_roots`) of two liberties or more, where a stone of
/// either colour would be a self-atari; at least one is shared. The
/// ownership misses such a seki when the search lets a losing side
/// sacrifice into it.
fn mutual_seki(board: &Board, p: Point, alive_roots: &FxHashSet<Point>) -> bool {
    let Some(c) = board.get(p) else { return false };
    let root = board.chain_root(p);
    let libs = board.chain_liberties(p);
    if libs.len() < 2 {
        return false;
    }
    let mut shared = false;
    for &l in &libs {
        let around = l.neighbors();
        let mut on = around.iter().filter(|&&q| board.on_board(q));
        if on
            .clone()
            .all(|&q| board.get(q) == Some(c) && board.chain_root(q) == root)
        {
            continue;
        }
        let enemy = on.find(|&&q| {
            board.get(q) == Some(c.opponent())
                && alive_roots.contains(&board.chain_root(q))
                && board.chain_liberties(q).len() >= 2
        });
        if enemy.is_none()
            || board.liberties_after(c, l, 2) >= 2
            || board.liberties_after(c.opponent(), l, 2) >= 2
        {
            return false;
        }
        shared = true;
    }
    shared
}

/// The stones of every chain with status `status`.
pub fn stones_with(chains: &[ChainStatus], status: Status) -> Vec<Point> {
    let mut v: Vec<Point> = chains
        .iter()
        .filter(|c| c.status == status)
        .flat_map(|c| c.stones.iter().copied())
        .collect();
    v.sort();
    v
}

/// A count of a finished game under the rules' [`Scoring`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Count {
    /// Area or territory.
    pub scoring: Scoring,
    /// Black's points: area, or territory plus prisoners.
    pub black: u32,
    /// White's points, as Black's.
    pub white: u32,
    /// Komi added to White.
    pub komi: f32,
}

impl Count {
    /// Black's margin: `black - white - komi` (negative when White leads).
    pub fn margin(&self) -> f32 {
        self.black as f32 - self.white as f32 - self.komi
    }

    /// The result this count gives.
    pub fn result(&self) -> GameResult {
        GameResult::from_margin(self.margin())
    }

    /// A one-line account: `area count: Black 45, White 27, komi 7.5`.
    pub fn describe(&self) -> String {
        format!(
            "{} count: Black {}, White {}, komi {}",
            self.scoring.name(),
            self.black,
            self.white,
            self.komi
        )
    }
}

/// Counts `game` as it stands with the chains of `chains` that are dead
/// removed (and, under territory scoring, their stones given to the
/// opponent as prisoners and the regions touching a chain in seki left
/// out), by the game's rules and komi.
pub fn count(game: &Game, chains: &[ChainStatus]) -> Count {
    let mut board = game.board().clone();
    let dead = stones_with(chains, Status::Dead);
    let mut dead_of = [0u32; 2];
    let changes: Vec<_> = dead
        .iter()
        .filter_map(|&p| {
            let c = board.get(p)?;
            dead_of[c.index()] += 1;
            Some((p, None))
        })
        .collect();
    board
        .set_many(&changes)
        .expect("dead stones are stones of the board");
    let rules = game.rules();
    let (black, white) = match rules.scoring {
        Scoring::Area => area_counts(&board),
        Scoring::Territory => {
            let seki: Vec<Point> = stones_with(chains, Status::Seki)
                .into_iter()
                .filter(|&p| board.get(p).is_some())
                .collect();
            let (bt, wt) = territory_counts(&board, &seki);
            (
                bt + game.captures(Color::Black) + dead_of[Color::White.index()],
                wt + game.captures(Color::White) + dead_of[Color::Black.index()],
            )
        }
    };
    Count {
        scoring: rules.scoring,
        black,
        white,
        komi: game.komi().get(),
    }
}

/// Whether `color` wins if the game ends now, counted by [`count`] with the
/// chains of `chains`.
pub fn passing_wins(game: &Game, color: Color, chains: &[ChainStatus]) -> bool {
    let m = count(game, chains).margin();
    match color {
        Color::Black => m > 0.0,
        Color::White => m < 0.0,
    }
}

/// The clean-up moves for `color`, best tier only: the legal moves on
/// liberties of opposing chains that `chains` calls dead, as the module
/// docs order them (captures; outside liberties; inner liberties;
/// self-ataris). Empty when no opposing chain is dead or none can be
/// attacked. Within a tier, chains with fewer liberties come first (and
/// larger chains among captures).
pub fn cleanup_moves(game: &Game, color: Color, chains: &[ChainStatus]) -> Vec<Move> {
    let board = game.board();
    let mut dead: Vec<&ChainStatus> = chains
        .iter()
        .filter(|c| {
            c.status == Status::Dead
                && c.color == color.opponent()
                && board.get(c.stones[0]) == Some(c.color)
        })
        .collect();
    dead.sort_by_key(|c| {
        (
            board.liberties(c.stones[0]),
            std::cmp::Reverse(c.stones.len()),
        )
    });
    let dead_roots: FxHashSet<Point> = dead.iter().map(|c| board.chain_root(c.stones[0])).collect();
    // Tiers: 0 capture, 1 outside liberty, 2 inner liberty, 3 self-atari.
    let mut tiers: [Vec<Move>; 4] = Default::default();
    for chain in &dead {
        let libs = board.chain_liberties(chain.stones[0]);
        for &lib in &libs {
            let mv = Move::Play(lib);
            if !game.is_legal(color, mv) || tiers.iter().any(|t| t.contains(&mv)) {
                continue;
            }
            let tier = if libs.len() == 1 {
                0
            } else if board.liberties_after(color, lib, 2) < 2 {
                3
            } else if lib.neighbors().iter().any(|&q| {
                board.on_board(q)
                    && match board.get(q) {
                        None => true,
                        Some(c) if c == color => false,
                        Some(_) => !dead_roots.contains(&board.chain_root(q)),
                    }
            }) {
                1
            } else {
                2
            };
            tiers[tier].push(mv);
        }
    }
    tiers
        .into_iter()
        .find(|t| !t.is_empty())
        .unwrap_or_default()
}

/// The first of [`cleanup_moves`], if any.
pub fn cleanup_move(game: &Game, color: Color, chains: &[ChainStatus]) -> Option<Move> {
    cleanup_moves(game, color, chains).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_alive_and_seki_from_ownership() {
        let b = Board::from_diagram(
            "
            X O .
            X O .
            . O .",
        )
        .unwrap();
        // Ownership: the black chain owned by White, the white chain by White.
        let own = vec![-0.9, -1.0, -1.0, -0.9, -1.0, -1.0, -1.0, -1.0, -1.0];
        let chains = classify(&b, &own);
        assert_eq!(
            stones_with(&chains, Status::Dead),
            vec![Point::new(0, 0), Point::new(0, 1)]
        );
        assert_eq!(stones_with(&chains, Status::Alive).len(), 3);
        // Both weakly owned and sharing the liberty A1: seki.
        let own = vec![0.1, -0.1, 0.0, 0.1, -0.1, 0.0, 0.0, -0.1, 0.0];
        let chains = classify(&b, &own);
        assert_eq!(stones_with(&chains, Status::Seki).len(), 5);
    }

    /// Every stone owned by its own colour, every empty point by no one:
    /// the ownership of a board where everything on it lives.
    fn all_alive(b: &Board) -> Vec<f32> {
        let n = b.size();
        let mut own = vec![0.0; n * n];
        for p in b.points() {
            own[p.y() * n + p.x()] = match b.get(p) {
                Some(Color::Black) => 1.0,
                Some(Color::White) => -1.0,
                None => 0.0,
            };
        }
        own
    }

    #[test]
    fn a_seki_without_eyes_is_seki_however_firmly_owned() {
        // White's C column and Black's D-E group share D6 and D7, the
        // only liberties of both: whoever fills one is captured. The outer
        // groups live with two eyes each.
        let b = Board::from_diagram(
            "
            . X O . X O .
            X X O . X O O
            X X O X X O O
            X X O X X O O
            . X O X X O .
            X X O X X O O
            X X O X X O O",
        )
        .unwrap();
        let chains = classify(&b, &all_alive(&b));
        let seki = stones_with(&chains, Status::Seki);
        assert_eq!(seki.len(), 7 + 12, "{seki:?}");
        let outer = b
            .points()
            .filter(|&p| b.get(p) == Some(Color::White))
            .max_by_key(|p| p.x());
        let outer = b.chain(outer.unwrap());
        assert_eq!(outer.len(), 12);
        assert!(
            outer.iter().all(|p| !seki.contains(p)),
            "the outer White group lives"
        );
        assert_eq!(stones_with(&chains, Status::Alive).len(), 12 + 12);
        assert!(stones_with(&chains, Status::Dead).is_empty());
    }

    #[test]
    fn an_eye_against_no_eye_is_no_seki() {
        // As above, but White's column has an eye of its own at C4: White
        // may fill D6 without a self-atari, and Black's group is dead. Fed
        // an ownership that calls everything alive, neither side is in
        // seki.
        let b = Board::from_diagram(
            "
            . X O . X O .
            X X O . X O O
            X O O X X O O
            X O . O X O O
            . X O O X O .
            X X O X X O O
            X X O X X O O",
        )
        .unwrap();
        let chains = classify(&b, &all_alive(&b));
        assert!(stones_with(&chains, Status::Seki).is_empty());
    }

    /// A game on `diagram` with Black to move and every point Black's by
    /// ownership (so every white chain is dead).
    fn black_owns_all(diagram: &str) -> (Game, Vec<ChainStatus>) {
        let b = Board::from_diagram(diagram).unwrap();
        let own = vec![1.0; b.size() * b.size()];
        let chains = classify(&b, &own);
        let game = Game::from_position(
            b,
            Color::Black,
            crate::rules::Rules::CHINESE,
            crate::komi::Komi::new(0.5).unwrap(),
        );
        (game, chains)
    }

    #[test]
    fn clean_up_captures_first_then_fills_outside_liberties() {
        // A white stone in atari at A1 and one with three liberties at C4:
        // the capture comes first.
        let (game, chains) = black_owns_all(
            "
            . . . . .
            . . O . .
            . . . . .
            . . . . .
            O X . . .",
        );
        let gtp = |m: &Move| m.to_gtp(5);
        let first: Vec<String> = cleanup_moves(&game, Color::Black, &chains)
            .iter()
            .map(gtp)
            .collect();
        assert_eq!(first, ["A2"], "A1's last liberty");
        // B5 has two liberties: C5 touches an empty point (outside), A5
        // only Black and B5 (inner): C5 first.
        let (game, chains) = black_owns_all(
            "
            . O . . .
            X X X X .
            . . . . .
            . . . . .
            . . . . .",
        );
        let moves = cleanup_moves(&game, Color::Black, &chains);
        assert_eq!(moves, [Move::Play(Point::new(2, 0))]);
        // No dead white chain: nothing to do.
        let b = Board::from_diagram(
            "
            . X
            O .",
        )
        .unwrap();
        let chains = classify(&b, &[0.0, 1.0, -1.0, 0.0]);
        let game = Game::from_position(
            b,
            Color::Black,
            crate::rules::Rules::CHINESE,
            crate::komi::Komi::new(0.5).unwrap(),
        );
        assert!(cleanup_move(&game, Color::Black, &chains).is_none());
    }

    #[test]
    fn territory_count_gives_dead_stones_as_prisoners() {
        // Black's wall on B, White's on C; a dead white stone at A2.
        let b = Board::from_diagram(
            "
            . X O .
            O X O .
            . X O .
            . X O .",
        )
        .unwrap();
        let mut own = vec![0.0f32; 16];
        for y in 0..4 {
            own[y * 4] = 1.0;
            own[y * 4 + 1] = 1.0;
            own[y * 4 + 2] = -1.0;
            own[y * 4 + 3] = -1.0;
        }
        let chains = classify(&b, &own);
        assert_eq!(stones_with(&chains, Status::Dead), [Point::new(0, 1)]);
        let game = Game::from_position(
            b.clone(),
            Color::Black,
            crate::rules::Rules::JAPANESE,
            crate::komi::Komi::new(0.5).unwrap(),
        );
        let c = count(&game, &chains);
        // Black: 4 points of territory (A2 included) + 1 prisoner; White: 4.
        assert_eq!((c.scoring, c.black, c.white), (Scoring::Territory, 5, 4));
        assert_eq!(c.result(), GameResult::Score(Color::Black, 0.5));
        let game = Game::from_position(
            b,
            Color::Black,
            crate::rules::Rules::CHINESE,
            crate::komi::Komi::new(0.5).unwrap(),
        );
        let c = count(&game, &chains);
        assert_eq!((c.scoring, c.black, c.white), (Scoring::Area, 8, 8));
    }
}

//! Stone status for scoring: which chains are dead, alive, or in seki,
//! from an ownership estimate.
//!
//! A chain's ownership is the mean of its points' ownership values seen from
//! its own colour (+1: always its owner's, -1: always the opponent's). A
//! chain is **dead** when that mean is below `-DEAD_THRESHOLD`. A living
//! chain is in **seki** when its mean is within `SEKI_BAND` of 0 and it
//! shares a liberty with a living chain of the other colour; a living chain
//! sharing a liberty with an enemy chain in seki is in seki too. Everything
//! else is **alive**.

use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};
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
        if chain.status != Status::Alive || means[i].abs() >= SEKI_BAND {
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

/// A clean-up move for `color`: a legal move on a liberty of a dead
/// opposing chain, preferring the chain with the fewest liberties (so that
/// a capture comes first). `None` when there is no dead opposing chain or
/// no legal move on their liberties.
pub fn cleanup_move(
    game: &crate::game::Game,
    color: Color,
    chains: &[ChainStatus],
) -> Option<Move> {
    let board = game.board();
    let mut dead: Vec<&ChainStatus> = chains
        .iter()
        .filter(|c| c.status == Status::Dead && c.color == color.opponent())
        .collect();
    dead.sort_by_key(|c| board.liberties(c.stones[0]));
    for chain in dead {
        for lib in board.chain_liberties(chain.stones[0]) {
            if game.is_legal(color, Move::Play(lib)) {
                return Some(Move::Play(lib));
            }
        }
    }
    None
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
}

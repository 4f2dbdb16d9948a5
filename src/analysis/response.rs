//! Responses of the analysis protocol: a search snapshot ([`Analysis`])
//! turned into KataGo's `moveInfos`, `rootInfo` and `ownership`, from the
//! reporting side's point of view.

use crate::analysis::query::Perspective;
use crate::color::Color;
use crate::game::Game;
use crate::player::{Analysis, CandidateInfo};
use crate::point::{Move, Point};
use crate::zobrist::stone_key;
use serde::{Deserialize, Serialize};

/// One candidate move (`moveInfos` entry).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    /// The move, as a GTP vertex.
    #[serde(rename = "move")]
    pub mv: String,
    /// Visits through the move.
    pub visits: u32,
    /// Win rate, 0..1.
    pub winrate: f64,
    /// The same as `scoreLead` (KataGo keeps it for old tools).
    pub score_mean: f64,
    /// Standard deviation of the final scores through the move.
    pub score_stdev: f64,
    /// Mean final score lead, komi included.
    pub score_lead: f64,
    /// The move's prior, 0..1.
    pub prior: f64,
    /// Lower confidence bound of the win rate (flipped with the win rate,
    /// as KataGo flips it, when reported for the other side).
    pub lcb: f64,
    /// Rank, 0 for the best.
    pub order: usize,
    /// Principal variation from this move.
    pub pv: Vec<String>,
    /// Visits of each PV node (`includePVVisits`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pv_visits: Option<Vec<u32>>,
    /// Ownership after the move (`includeMovesOwnership`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ownership: Option<Vec<f64>>,
}

/// Statistics of the position itself (`rootInfo`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RootInfo {
    /// Win rate at the root, 0..1.
    pub winrate: f64,
    /// Mean final score lead at the root, komi included.
    pub score_lead: f64,
    /// Standard deviation of those scores.
    pub score_stdev: f64,
    /// Root visits.
    pub visits: u32,
    /// The side to move, `B` or `W`.
    pub current_player: String,
    /// A hash of the stones, the side to move and the simple-ko point.
    pub this_hash: String,
    /// The same, equal for positions that are rotations or reflections of
    /// each other.
    pub sym_hash: String,
}

/// One analysis response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    /// The query's id.
    pub id: String,
    /// True on the reports sent while the search runs.
    pub is_during_search: bool,
    /// The turn analysed.
    pub turn_number: usize,
    /// Candidate moves, best first.
    pub move_infos: Vec<MoveInfo>,
    /// The position's own statistics.
    pub root_info: RootInfo,
    /// Ownership per point, row by row from the top (`includeOwnership`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ownership: Option<Vec<f64>>,
    /// The network's move probabilities, row by row from the top, then the
    /// pass; -1 for an illegal move (`includePolicy`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub policy: Option<Vec<f64>>,
}

/// The response to a query terminated before any analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoResults {
    /// The query's id.
    pub id: String,
    /// Always false.
    pub is_during_search: bool,
    /// Always true.
    pub no_results: bool,
    /// The turn that was not analysed.
    pub turn_number: usize,
}

/// What to put into a response besides the candidates.
#[derive(Clone, Copy, Debug, Default)]
pub struct Include {
    /// The reporting side.
    pub perspective: Perspective,
    /// `ownership`.
    pub ownership: bool,
    /// `pvVisits`.
    pub pv_visits: bool,
    /// The longest PV.
    pub pv_len: usize,
}

/// Rounds to 6 decimals: the search's f32 values carry no more, and
/// shorter numbers keep the lines readable.
pub(crate) fn r6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// `c` as a `moveInfos` entry, for the side `to_move` at the root.
pub fn move_info(c: &CandidateInfo, size: usize, to_move: Color, inc: &Include) -> MoveInfo {
    let sign = inc.perspective.sign(to_move);
    let wr = |w: f32| r6(if sign < 0.0 { 1.0 - w as f64 } else { w as f64 });
    let lead = r6(sign * c.score_lead as f64);
    let len = inc.pv_len.max(1);
    MoveInfo {
        mv: c.mv.to_gtp(size),
        visits: c.visits,
        winrate: wr(c.winrate),
        score_mean: lead,
        score_stdev: r6(c.score_stdev as f64),
        score_lead: lead,
        prior: r6(c.prior as f64),
        lcb: wr(c.lcb),
        order: c.order,
        pv: c.pv.iter().take(len).map(|m| m.to_gtp(size)).collect(),
        pv_visits: inc
            .pv_visits
            .then(|| c.pv_visits.iter().take(len).copied().collect()),
        ownership: None,
    }
}

/// Ownership (+1 Black's) as the reporting side sees it.
pub fn ownership_for(own: &[f32], to_move: Color, p: Perspective) -> Vec<f64> {
    // Ownership is Black's; "side" means the side to move's.
    let sign = match p {
        Perspective::Black => 1.0,
        Perspective::White => -1.0,
        Perspective::Side => Perspective::Black.sign(to_move),
    };
    own.iter().map(|&o| r6(sign * o as f64)).collect()
}

/// The response for `a`, a snapshot of `game` with `to_move` to play.
pub fn response(
    id: &str,
    turn: usize,
    during: bool,
    game: &Game,
    a: &Analysis,
    inc: &Include,
) -> Response {
    let size = game.size();
    let to_move = a.color;
    let sign = inc.perspective.sign(to_move);
    let (this_hash, sym_hash) = hashes(game, to_move);
    Response {
        id: id.to_string(),
        is_during_search: during,
        turn_number: turn,
        move_infos: a
            .candidates
            .iter()
            .map(|c| move_info(c, size, to_move, inc))
            .collect(),
        root_info: RootInfo {
            winrate: r6(if sign < 0.0 {
                1.0 - a.root_winrate as f64
            } else {
                a.root_winrate as f64
            }),
            score_lead: r6(sign * a.root_score_lead as f64),
            score_stdev: r6(a.root_score_stdev as f64),
            visits: a.visits,
            current_player: to_move.letter().to_string(),
            this_hash,
            sym_hash,
        },
        ownership: (inc.ownership && !a.ownership.is_empty())
            .then(|| ownership_for(&a.ownership, to_move, inc.perspective)),
        policy: None,
    }
}

/// `thisHash` and `symHash`: the stones' keys, the side to move and the
/// simple-ko point; the symmetric one is the least over the eight
/// symmetries of the board.
pub fn hashes(game: &Game, to_move: Color) -> (String, String) {
    let size = game.size();
    let board = game.board();
    let n = size - 1;
    let ko = board.ko().map(|(p, _)| p);
    let side = if to_move == Color::White {
        0x9E37_79B9_7F4A_7C15u64
    } else {
        0
    };
    let mut all = [0u64; 8];
    for (s, h) in all.iter_mut().enumerate() {
        let map = |p: Point| -> Point {
            let (x, y) = (p.x(), p.y());
            let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
            let x = if s & 1 != 0 { n - x } else { x };
            let y = if s & 2 != 0 { n - y } else { y };
            Point::new(x, y)
        };
        let mut acc = side;
        for p in Point::all(size) {
            if let Some(c) = board.get(p) {
                acc ^= stone_key(c, map(p));
            }
        }
        if let Some(k) = ko {
            acc ^= stone_key(Color::Black, map(k)).rotate_left(17) ^ 0x5151_5151_5151_5151;
        }
        *h = acc;
    }
    (
        format!("{:016X}", all[0]),
        format!("{:016X}", all.iter().min().copied().unwrap_or(0)),
    )
}

/// Plays `mv` for `to_move` on a copy of `game`, if legal.
pub fn after(game: &Game, to_move: Color, mv: Move) -> Option<Game> {
    let mut g = game.clone();
    g.play(to_move, mv).ok().map(|_| g)
}

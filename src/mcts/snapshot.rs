//! The analysis snapshot of a running or finished search: the root's
//! candidates with their win rates, score leads and principal variations,
//! the ownership map and the root's totals, as [`Analysis`].

use super::search::Search;
use crate::color::Color;
use crate::player::{Analysis, CandidateInfo};
use std::sync::atomic::Ordering::Relaxed;

/// The lead of `color` for a mean Black margin `mean` (komi not
/// included) under `komi`.
fn lead_for(color: Color, mean: f64, komi: f32) -> f32 {
    let lead = mean as f32 - komi;
    if color == Color::Black {
        lead
    } else {
        -lead
    }
}

/// The root snapshot of a running or finished search.
pub(super) fn snapshot(s: &Search) -> Analysis {
    let tree = s.tree;
    let sign = if s.color == Color::Black { 1.0 } else { -1.0 };
    let komi = s.game.komi().get();
    let acc = s.accum();
    let ownership: Vec<f32> = if acc.count == 0 {
        Vec::new()
    } else {
        s.game
            .board()
            .points()
            .map(|p| acc.owner[p.index()] as f32 / acc.count as f32)
            .collect()
    };
    let score_lead = if acc.count == 0 {
        0.0
    } else {
        sign * (acc.margin as f32 / acc.count as f32 - komi)
    };
    let root_score = tree.score_data(0);
    let root_score_lead = root_score
        .mean()
        .map_or(score_lead, |m| lead_for(s.color, m, komi));
    let root_score_stdev = root_score.stdev().unwrap_or(0.0) as f32;
    let prior_total: f32 = tree.children(0).map(|ch| tree.node(ch).prior().1).sum();
    let (mut root_wins, mut root_visits) = (0.0f64, 0u64);
    let mut cands: Vec<CandidateInfo> = Vec::new();
    let mut unvisited: Vec<CandidateInfo> = Vec::new();
    for ch in tree.children(0) {
        let n = tree.node(ch);
        let code = n.mv.load(Relaxed);
        if !s.root_selectable(code) {
            continue;
        }
        let v = n.visits();
        let (pv_n, pw_n) = n.prior();
        let prior = pw_n / prior_total.max(1e-9);
        if v == 0 {
            let wr = if pv_n > 0.0 { pw_n / pv_n } else { 0.5 };
            unvisited.push(CandidateInfo {
                mv: n.mv(),
                visits: 0,
                winrate: wr.clamp(0.0, 1.0),
                prior,
                lcb: 0.0,
                order: 0,
                pv: vec![n.mv()],
                pv_visits: vec![0],
                score_lead: root_score_lead,
                score_stdev: root_score_stdev,
            });
            continue;
        }
        root_wins += n.wins();
        root_visits += v as u64;
        let wr = (n.wins() / v as f64).clamp(0.0, 1.0);
        let lcb = (wr - 1.96 * (wr * (1.0 - wr) / v as f64).sqrt()).max(0.0);
        let mut pv = vec![n.mv()];
        let mut pv_visits = vec![v];
        let mut at = ch;
        let mut to_move = s.color.opponent();
        while pv.len() < 12 {
            let depth = pv.len();
            let next = tree
                .children(at)
                .filter(|&c| {
                    tree.node(c).visits() > 0
                        && !s.forbidden(tree.node(c).mv.load(Relaxed), to_move, depth)
                })
                .max_by_key(|&c| tree.node(c).visits());
            match next {
                Some(c) => {
                    pv.push(tree.node(c).mv());
                    pv_visits.push(tree.node(c).visits());
                    at = c;
                    to_move = to_move.opponent();
                }
                None => break,
            }
        }
        let sc = tree.score_data(ch);
        cands.push(CandidateInfo {
            mv: n.mv(),
            visits: v,
            winrate: wr as f32,
            prior,
            lcb: lcb as f32,
            order: 0,
            pv,
            pv_visits,
            score_lead: sc
                .mean()
                .map_or(root_score_lead, |m| lead_for(s.color, m, komi)),
            score_stdev: sc.stdev().map_or(root_score_stdev, |d| d as f32),
        });
    }
    cands.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    for (i, c) in cands.iter_mut().enumerate() {
        c.order = i;
    }
    unvisited.sort_by(|a, b| b.prior.total_cmp(&a.prior));
    let best_rate = cands.first().map_or(0.5, |c| c.winrate);
    Analysis {
        color: s.color,
        visits: tree.root().visits(),
        playouts: acc.count,
        winrate: best_rate,
        score_lead,
        root_winrate: if root_visits > 0 {
            (root_wins / root_visits as f64) as f32
        } else {
            best_rate
        },
        root_score_lead,
        root_score_stdev,
        candidates: cands,
        unvisited,
        ownership,
    }
}

//! The priors of the moves entering the tree: virtual visits and wins that
//! a child starts with when its parent is expanded.
//!
//! Two sources, chosen by [`PriorSource`]:
//! - `Hand`: the hand-written knowledge of [`hand_prior`]
//!   (captures, escapes, self-atari, a dozen MoGo shapes, distance to the
//!   last moves, the line in an empty area);
//! - `Patterns`: the learned move ratings of [`crate::patterns`] (Coulom's
//!   Bradley-Terry gammas, trained on professional games) on top of the
//!   hand priors' tactical parts (or all of them, see
//!   [`PatternPriorConfig::hand`]).
//!
//! From gammas to priors: among the candidates of one expansion, the move
//! with the largest gamma gets `visits` virtual visits, all of them wins;
//! a move with gamma `g` gets the same visits with `visits * (g / g_max) ^
//! exponent` wins. The exponent below 1 flattens the ratings' huge range
//! (a first-line move on an empty board rates about a ten-thousandth of a
//! 3-4 point), so a move the patterns dislike still gets a share of the
//! playouts once RAVE finds it good. This is progressive bias in the form
//! of virtual experience, as the search already uses for its hand priors.
//!
//! ## The network's share (`--nn`)
//!
//! With a network ([`super::nn_prior`]), at the nodes it evaluates (the
//! root, and the nodes that reach `nn_visits` visits), the ratings are
//! mixed before they become priors: the pattern share of a candidate is
//! `p_pat = gamma / sum(gamma)` over the candidates, the network's
//! `p_nn` the softmax of its logits over the same candidates (the legal
//! points; renormalized, the pass left out), and the mix
//! `p = (1 - lambda) * p_pat + lambda * p_nn` (`lambda` the knob
//! `nn_mix`) goes through [`add_rating_priors`] as the gammas do without
//! a network. The hand
//! priors stay as the pattern path keeps them ([`PatternPriorConfig::hand`]).
//! With the hand priors alone (`--priors hand`) there is no pattern share
//! and `p = p_nn`. At `lambda` 0 the priors equal those without a network,
//! bit for bit.

use super::nn_prior::NnRequest;
use crate::board::Board;
use crate::color::Color;
use crate::patterns::lean::Scanner;
use crate::patterns::{PatternTable, Position};
use crate::playout::shapes::is_shape;
use crate::playout::tactics;
use crate::point::{Move, Point};

/// Where the priors of new tree nodes come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PriorSource {
    /// The hand-written priors only.
    Hand,
    /// The learned pattern ratings (with the hand priors, see
    /// [`PatternPriorConfig::hand`]).
    Patterns,
}

impl std::fmt::Display for PriorSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PriorSource::Hand => "hand",
            PriorSource::Patterns => "patterns",
        })
    }
}

impl std::str::FromStr for PriorSource {
    type Err = String;

    /// `hand` or `patterns`.
    ///
    /// # Errors
    /// A message naming the accepted values for anything else.
    fn from_str(s: &str) -> Result<PriorSource, String> {
        match s {
            "hand" => Ok(PriorSource::Hand),
            "patterns" => Ok(PriorSource::Patterns),
            _ => Err(format!("expected hand or patterns, not '{s}'")),
        }
    }
}

/// The knobs of [`hand_prior`]: virtual visits and wins from cheap knowledge.
#[derive(Clone, Debug, PartialEq)]
pub struct PriorConfig {
    /// Prior virtual visits of every move, half of them wins.
    pub prior_even: f32,
    /// Prior wins (and visits) for capturing one stone.
    pub prior_capture_one: f32,
    /// Prior wins (and visits) for capturing two or more stones.
    pub prior_capture_many: f32,
    /// Prior wins (and visits) for saving an own chain from atari.
    pub prior_escape: f32,
    /// Prior losses (visits without wins) for a self-atari.
    pub prior_self_atari: f32,
    /// Prior wins (and visits) for a 3x3 shape ([`SHAPES`](crate::playout::shapes::SHAPES)).
    pub prior_shape: f32,
    /// Prior wins (and visits) for a move next to one of the last two
    /// moves (distance `dx+dy+max(dx,dy)` at most 3), and near them (at most
    /// 5).
    pub prior_near_last: [f32; 2],
    /// Prior losses for a first- or second-line move in an empty area (no
    /// stone within distance 3).
    pub prior_empty_low: f32,
    /// Prior wins for a third-line move (fourth too from 13x13) in an empty
    /// area.
    pub prior_empty_third: f32,
    /// Treat a self-atari that puts a larger opposing chain in atari on its
    /// own enclosed liberty ([`tactics::shortage_self_atari`]) as a capture
    /// of two stones or more, not as a self-atari (and the search keeps it
    /// when it extends a chain that a ladder would capture).
    pub prior_shortage: bool,
}

impl Default for PriorConfig {
    fn default() -> PriorConfig {
        PriorConfig {
            prior_even: 10.0,
            prior_capture_one: 15.0,
            prior_capture_many: 30.0,
            prior_escape: 20.0,
            prior_self_atari: 15.0,
            prior_shape: 10.0,
            prior_near_last: [12.0, 6.0],
            prior_empty_low: 15.0,
            prior_empty_third: 10.0,
            prior_shortage: true,
        }
    }
}

/// The knobs of the pattern priors.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternPriorConfig {
    /// Virtual visits the rating adds to every candidate, on every board
    /// size.
    pub visits: f32,
    /// Exponent on a move's gamma relative to the best candidate's.
    pub exponent: f32,
    /// Keep every hand prior besides the ratings (otherwise only the even
    /// prior, [`PriorConfig::prior_even`]).
    pub hand: bool,
}

impl Default for PatternPriorConfig {
    fn default() -> PatternPriorConfig {
        PatternPriorConfig {
            visits: 20.0,
            exponent: 0.5,
            hand: true,
        }
    }
}

/// The prior of a move entering the tree, as virtual visits and wins (wins
/// for the player making the move).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Prior {
    /// Virtual visits.
    pub visits: f32,
    /// Virtual wins among them.
    pub wins: f32,
    /// The move's share of the ratings of its node's candidates (the
    /// patterns', mixed with the network's where it evaluated the node),
    /// 0..=1; 0 without ratings. The search's `puct` term reads it.
    pub policy: f32,
}

impl Prior {
    /// No virtual experience and no policy share (the root's).
    pub const NONE: Prior = Prior {
        visits: 0.0,
        wins: 0.0,
        policy: 0.0,
    };
}

/// Cheap knowledge about `c` playing the legal empty point `p`, given the
/// last two moves: captures, escaping atari, self-atari, shape, distance to
/// the last moves, and the line in an empty area (the opening).
pub fn hand_prior(
    b: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    last2: Option<Point>,
    cfg: &PriorConfig,
) -> Prior {
    let mut pr = Prior {
        visits: cfg.prior_even,
        wins: cfg.prior_even / 2.0,
        policy: 0.0,
    };
    let bonus = |pr: &mut Prior, w: f32| {
        pr.visits += w;
        pr.wins += w;
    };
    let opp = c.opponent();
    let mut captured = 0usize;
    let mut escapes = false;
    for q in p.neighbors() {
        match b.get(q) {
            Some(col) if col == opp && b.in_atari(q) => captured += b.chain_len(q),
            Some(col) if col == c && b.in_atari(q) => escapes = true,
            _ => {}
        }
    }
    if captured > 0 {
        bonus(
            &mut pr,
            if captured == 1 {
                cfg.prior_capture_one
            } else {
                cfg.prior_capture_many
            },
        );
    }
    let libs = b.liberties_after(c, p, 3);
    if escapes && libs >= 2 {
        bonus(&mut pr, cfg.prior_escape);
    }
    if libs < 2 && captured == 0 {
        if cfg.prior_shortage && tactics::shortage_self_atari(b, c, p) {
            bonus(&mut pr, cfg.prior_capture_many);
        } else {
            pr.visits += cfg.prior_self_atari;
        }
    }
    if is_shape(b, p) {
        bonus(&mut pr, cfg.prior_shape);
    }
    let near = |m: Option<Point>| {
        m.map(|m| {
            let dx = (m.x() as i32 - p.x() as i32).abs();
            let dy = (m.y() as i32 - p.y() as i32).abs();
            dx + dy + dx.max(dy)
        })
    };
    // Distance dx + dy + max(dx, dy): 2 for a neighbour, 3 for a diagonal.
    for d in [near(last), near(last2)].into_iter().flatten() {
        if d <= 3 {
            bonus(&mut pr, cfg.prior_near_last[0]);
        } else if d <= 5 {
            bonus(&mut pr, cfg.prior_near_last[1]);
        }
    }
    // Lines in an empty area: low moves are bad, third and fourth line good.
    let n = b.size();
    let line = p.x().min(p.y()).min(n - 1 - p.x()).min(n - 1 - p.y());
    if empty_area(b, p, 3) {
        if line <= 1 {
            pr.visits += cfg.prior_empty_low;
        } else if line == 2 || (line == 3 && n >= 13) {
            bonus(&mut pr, cfg.prior_empty_third);
        }
    }
    pr
}

/// Whether no stone lies within Manhattan distance `r` of `p`.
fn empty_area(b: &Board, p: Point, r: i32) -> bool {
    let n = b.size() as i32;
    let (px, py) = (p.x() as i32, p.y() as i32);
    for dy in -r..=r {
        let rest = r - dy.abs();
        for dx in -rest..=rest {
            let (x, y) = (px + dx, py + dy);
            if x >= 0
                && y >= 0
                && x < n
                && y < n
                && b.get(Point::new(x as usize, y as usize)).is_some()
            {
                return false;
            }
        }
    }
    true
}

/// The position a node is expanded in, as the priors see it.
#[derive(Clone, Copy)]
pub(crate) struct PriorContext<'a> {
    /// The board.
    pub board: &'a Board,
    /// The side to move.
    pub to_move: Color,
    /// The previous move's point, if it was a play.
    pub last: Option<Point>,
    /// The point of the move before it, if it was a play.
    pub last2: Option<Point>,
}

/// The buffers of the pattern priors, reused from one expansion to the
/// next (one per search thread).
#[derive(Default)]
pub(crate) struct PriorScratch {
    scanner: Scanner,
    strengths: Vec<f64>,
}

/// Writes the priors of the candidate points `points` (legal, empty) into
/// `out` (cleared first), one per point in order, with the network's
/// share mixed in when `nn` is given (see the module docs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn priors_nn(
    ctx: &PriorContext,
    points: &[Point],
    source: PriorSource,
    hand: &PriorConfig,
    pat: &PatternPriorConfig,
    scratch: &mut PriorScratch,
    nn: Option<&mut NnRequest>,
    out: &mut Vec<Prior>,
) {
    out.clear();
    let keep_hand = source == PriorSource::Hand || pat.hand;
    for &p in points {
        out.push(if keep_hand {
            hand_prior(ctx.board, ctx.to_move, p, ctx.last, ctx.last2, hand)
        } else {
            Prior {
                visits: hand.prior_even,
                wins: hand.prior_even / 2.0,
                policy: 0.0,
            }
        });
    }
    if points.is_empty() {
        return;
    }
    match (source, nn) {
        (PriorSource::Patterns, nn) => {
            add_pattern_priors(ctx, points, pat, PatternTable::builtin(), scratch, nn, out);
        }
        (PriorSource::Hand, Some(nn)) => {
            let shares = &mut scratch.strengths;
            shares.clear();
            nn.mix_into(ctx.board, ctx.to_move, points, shares);
            add_rating_priors(shares, pat, out);
        }
        (PriorSource::Hand, None) => {}
    }
}

/// Adds the rating part to `out` (one prior per point of `points`).
fn add_pattern_priors(
    ctx: &PriorContext,
    points: &[Point],
    pat: &PatternPriorConfig,
    table: &PatternTable,
    scratch: &mut PriorScratch,
    nn: Option<&mut NnRequest>,
    out: &mut [Prior],
) {
    let pos = Position {
        board: ctx.board,
        to_move: ctx.to_move,
        last: ctx.last.map(Move::Play),
        last2: ctx.last2.map(Move::Play),
    };
    // The strengths of `extract` + `PatternTable::strength`, the same
    // bits (the lean scanner's test checks it).
    let strengths = &mut scratch.strengths;
    scratch.scanner.strengths(&pos, points, table, strengths);
    if let Some(nn) = nn {
        nn.mix_into(ctx.board, ctx.to_move, points, strengths);
    }
    add_rating_priors(strengths, pat, out);
}

/// Adds the priors of the candidates' ratings `weights` (non-negative, one
/// per prior of `out`, on any common scale: gammas or probabilities), in
/// the form of the module's documentation, and sets each prior's
/// [`Prior::policy`] to its weight's share of their sum (where the sum is
/// finite). Nothing is added when no weight is positive and finite.
pub(crate) fn add_rating_priors(weights: &[f64], pat: &PatternPriorConfig, out: &mut [Prior]) {
    let best = weights.iter().fold(0.0f64, |b, &s| b.max(s));
    if best.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !best.is_finite() {
        return;
    }
    let sum: f64 = weights.iter().sum();
    let inv_sum = if sum.is_finite() { 1.0 / sum } else { 0.0 };
    let e = f64::from(pat.exponent);
    let visits = pat.visits;
    for (pr, &s) in out.iter_mut().zip(weights.iter()) {
        let share = (s / best).powf(e) as f32;
        pr.visits += visits;
        pr.wins += visits * share;
        pr.policy = (s * inv_sum) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, gtp: &str) -> Point {
        match crate::point::parse_gtp_move(gtp, b.size()).expect("vertex") {
            Move::Play(p) => p,
            Move::Pass => panic!("pass"),
        }
    }

    fn rate(p: &Prior) -> f32 {
        p.wins / p.visits
    }

    /// The priors of every empty legal point of `b` for `c`.
    fn all(b: &Board, c: Color, source: PriorSource, hand: bool) -> (Vec<Point>, Vec<Prior>) {
        let points: Vec<Point> = crate::patterns::candidate_points(b, c).collect();
        let ctx = PriorContext {
            board: b,
            to_move: c,
            last: None,
            last2: None,
        };
        let pat = PatternPriorConfig {
            hand,
            ..PatternPriorConfig::default()
        };
        let mut out = Vec::new();
        priors_nn(
            &ctx,
            &points,
            source,
            &PriorConfig::default(),
            &pat,
            &mut PriorScratch::default(),
            None,
            &mut out,
        );
        assert_eq!(out.len(), points.len());
        (points, out)
    }

    #[test]
    fn opening_points_outrank_the_corner_on_an_empty_board() {
        let b = Board::new(19).expect("size");
        for hand in [false, true] {
            let (points, pr) = all(&b, Color::Black, PriorSource::Patterns, hand);
            let of = |v: &str| rate(&pr[points.iter().position(|&p| p == at(&b, v)).expect("pt")]);
            let (r34, r44, r11, r22) = (of("D16"), of("Q4"), of("A1"), of("B2"));
            assert!(r34 > r11 + 0.3, "3-4 {r34} vs 1-1 {r11} (hand {hand})");
            assert!(r44 > r22 + 0.3, "4-4 {r44} vs 2-2 {r22} (hand {hand})");
            // The best point's rating adds only wins.
            let top = pr.iter().map(rate).fold(0.0f32, f32::max);
            assert!(top > 0.7, "{top}");
        }
        // The hand priors alone barely tell 3-4 from 5-5 or the centre.
        let (points, pr) = all(&b, Color::Black, PriorSource::Hand, true);
        let of = |v: &str| rate(&pr[points.iter().position(|&p| p == at(&b, v)).expect("pt")]);
        assert_eq!(of("K10"), of("E15"));
    }

    #[test]
    fn capturing_a_big_chain_beats_an_empty_first_line_move() {
        // White's four stones in the middle have one liberty, E5.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . X X X . . .
            . . X O O O X . .
            . . X O . X . . .
            . . . X . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        )
        .expect("diagram");
        // The professionals' games rate a big capture low (gamma 1.5: such
        // chains are usually dead already), so the hand priors' capture
        // bonus stays (the default).
        let (points, pr) = all(&b, Color::Black, PriorSource::Patterns, true);
        let of = |v: &str| pr[points.iter().position(|&p| p == at(&b, v)).expect("pt")];
        let capture = of("E5");
        let edge = of("A9");
        assert!(rate(&capture) > 0.75, "{capture:?}");
        assert!(rate(&capture) > rate(&edge) + 0.4, "{capture:?} {edge:?}");
        // Without the hand priors every candidate gets the same visits, and
        // the capture still rates above the corner.
        let (points, pr) = all(&b, Color::Black, PriorSource::Patterns, false);
        let of = |v: &str| pr[points.iter().position(|&p| p == at(&b, v)).expect("pt")];
        assert!(rate(&of("E5")) > rate(&of("A9")) + 0.2);
        let ev = PriorConfig::default().prior_even + PatternPriorConfig::default().visits;
        assert!(pr.iter().all(|p| p.visits == ev));
    }

    #[test]
    fn rating_visits_are_the_same_on_every_size() {
        let flat = PatternPriorConfig::default();
        // Every candidate of a 19x19 expansion gets the same visits as on
        // 9x9 (without the hand priors, each has the even prior plus
        // the ratings' visits).
        let b = Board::new(19).expect("size");
        let (_, pr) = all(&b, Color::Black, PriorSource::Patterns, false);
        let ev = PriorConfig::default().prior_even + flat.visits;
        assert!(pr.iter().all(|p| p.visits == ev), "{:?}", pr[0]);
    }

    #[test]
    fn hand_source_ignores_the_ratings() {
        let b = Board::new(9).expect("size");
        let (points, pr) = all(&b, Color::Black, PriorSource::Hand, true);
        for (&p, x) in points.iter().zip(&pr) {
            let h = hand_prior(&b, Color::Black, p, None, None, &PriorConfig::default());
            assert_eq!((x.visits, x.wins), (h.visits, h.wins));
        }
    }

    /// The pattern part of the priors as it was computed before the lean
    /// scanner: `extract` and `PatternTable::strength` per candidate.
    fn plain_pattern_priors(ctx: &PriorContext, points: &[Point], out: &mut [Prior]) {
        let table = PatternTable::builtin();
        let pat = PatternPriorConfig::default();
        let pos = Position {
            board: ctx.board,
            to_move: ctx.to_move,
            last: ctx.last.map(Move::Play),
            last2: ctx.last2.map(Move::Play),
        };
        let strengths: Vec<f64> = points
            .iter()
            .map(|&p| table.strength(&crate::patterns::extract(&pos, Move::Play(p))))
            .collect();
        let best = strengths.iter().fold(0.0f64, |b, &s| b.max(s));
        let e = f64::from(pat.exponent);
        let visits = pat.visits;
        for (pr, s) in out.iter_mut().zip(strengths) {
            let share = (s / best).powf(e) as f32;
            pr.visits += visits;
            pr.wins += visits * share;
        }
    }

    #[test]
    fn priors_are_the_plain_extraction_bit_for_bit() {
        // Positions of a search's tree: random middle games, both colours,
        // with the two previous moves, one scratch reused throughout.
        let mut scratch = PriorScratch::default();
        let mut checked = 0;
        for (size, seed) in [(9, 1), (19, 2), (13, 3), (9, 4)] {
            let game = crate::mcts::middle_game(size, 0.45, seed).expect("position");
            let moves = game.moves();
            let last = moves.last().and_then(|m| m.mv.point());
            let last2 = moves.iter().rev().nth(1).and_then(|m| m.mv.point());
            for c in [Color::Black, Color::White] {
                let b = game.board();
                let points: Vec<Point> = crate::patterns::candidate_points(b, c).collect();
                let ctx = PriorContext {
                    board: b,
                    to_move: c,
                    last,
                    last2,
                };
                let hand = PriorConfig::default();
                let mut lean = Vec::new();
                priors_nn(
                    &ctx,
                    &points,
                    PriorSource::Patterns,
                    &hand,
                    &PatternPriorConfig::default(),
                    &mut scratch,
                    None,
                    &mut lean,
                );
                let mut plain: Vec<Prior> = points
                    .iter()
                    .map(|&p| hand_prior(b, c, p, last, last2, &hand))
                    .collect();
                plain_pattern_priors(&ctx, &points, &mut plain);
                assert_eq!(lean.len(), plain.len());
                for (x, y) in lean.iter().zip(&plain) {
                    assert_eq!(x.visits.to_bits(), y.visits.to_bits());
                    assert_eq!(x.wins.to_bits(), y.wins.to_bits());
                }
                checked += points.len();
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn rating_priors_follow_the_ratio_to_the_best() {
        let even = Prior {
            visits: 10.0,
            wins: 5.0,
            policy: 0.0,
        };
        let weights = [64.0, 16.0, 0.0];
        let mut out = vec![even; 3];
        add_rating_priors(&weights, &PatternPriorConfig::default(), &mut out);
        // Every candidate gets the visits, the best all of them as wins,
        // the others (ratio ^ 0.5) of them.
        assert!(out.iter().all(|p| p.visits == 30.0));
        assert_eq!(out[0].wins, 25.0);
        assert_eq!(out[1].wins, 15.0);
        assert_eq!(out[2].wins, 5.0);
        // The policy is each weight's share of the sum.
        assert_eq!(out[0].policy, 0.8);
        assert_eq!(out[1].policy, 0.2);
        assert_eq!(out[2].policy, 0.0);
        // No positive weight: nothing added.
        let mut out = vec![even; 2];
        add_rating_priors(&[0.0, 0.0], &PatternPriorConfig::default(), &mut out);
        assert_eq!(out, vec![even; 2]);
    }

    #[test]
    fn sources_parse() {
        assert_eq!("hand".parse::<PriorSource>(), Ok(PriorSource::Hand));
        assert_eq!("patterns".parse::<PriorSource>(), Ok(PriorSource::Patterns));
        assert!("mogo".parse::<PriorSource>().is_err());
    }

    #[test]
    fn prior_prefers_capture_and_dislikes_self_atari() {
        let b = Board::from_diagram(
            "
            . . . . .
            . . X . .
            . X O X .
            . X O X .
            . . . . .",
        )
        .unwrap();
        let cfg = PriorConfig::default();
        let cap = hand_prior(&b, Color::Black, at(&b, "C1"), None, None, &cfg);
        let plain = hand_prior(&b, Color::Black, at(&b, "E5"), None, None, &cfg);
        assert!(cap.wins / cap.visits > plain.wins / plain.visits);
        // White B5 would have one liberty (A5) and capture nothing.
        let b = Board::from_diagram(
            "
            . . X . .
            . X . . .
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let sa = hand_prior(&b, Color::White, at(&b, "B5"), None, None, &cfg);
        let plain_w = hand_prior(&b, Color::White, at(&b, "D3"), None, None, &cfg);
        assert!(sa.wins / sa.visits < plain_w.wins / plain_w.visits);
    }

    #[test]
    fn prior_shortage_lifts_the_sacrifice_that_shorts_liberties() {
        // As in `tactics`: Black F2 sacrifices F1 and F2 to leave White's
        // chain of sixteen stones short of liberties.
        let b = Board::from_diagram(crate::playout::tactics::SHORTAGE).unwrap();
        let f2 = at(&b, "F2");
        let on = PriorConfig::default();
        let off = PriorConfig {
            prior_shortage: false,
            ..PriorConfig::default()
        };
        let rate = |p: Prior| p.wins / p.visits;
        let before = hand_prior(&b, Color::Black, f2, None, None, &off);
        let after = hand_prior(&b, Color::Black, f2, None, None, &on);
        assert!(rate(before) < 0.5);
        assert!(rate(after) > 0.5);
        // A plain self-atari (White B1, its one liberty A1) stays disliked
        // with the knob on.
        let b1 = at(&b, "B1");
        assert!(b.liberties_after(Color::White, b1, 2) < 2);
        assert!(rate(hand_prior(&b, Color::White, b1, None, None, &on)) < 0.5);
    }
}

//! The priors of the moves entering the tree: virtual visits and wins that
//! a child starts with when its parent is expanded.
//!
//! Two sources, chosen by [`PriorSource`]:
//! - `Hand`: the hand-written knowledge of [`crate::playout::policy::prior`]
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

use crate::board::Board;
use crate::color::Color;
use crate::patterns::lean::Scanner;
use crate::patterns::{PatternTable, Position};
use crate::playout::policy::{prior as hand_prior, Prior, PriorConfig};
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
/// `out` (cleared first), one per point in order.
pub(crate) fn priors(
    ctx: &PriorContext,
    points: &[Point],
    source: PriorSource,
    hand: &PriorConfig,
    pat: &PatternPriorConfig,
    scratch: &mut PriorScratch,
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
            }
        });
    }
    if source == PriorSource::Patterns && !points.is_empty() {
        add_pattern_priors(ctx, points, pat, PatternTable::builtin(), scratch, out);
    }
}

/// Adds the rating part to `out` (one prior per point of `points`).
fn add_pattern_priors(
    ctx: &PriorContext,
    points: &[Point],
    pat: &PatternPriorConfig,
    table: &PatternTable,
    scratch: &mut PriorScratch,
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
    let best = strengths.iter().fold(0.0f64, |b, &s| b.max(s));
    if best.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !best.is_finite() {
        return;
    }
    let e = f64::from(pat.exponent);
    let visits = pat.visits;
    for (pr, &s) in out.iter_mut().zip(strengths.iter()) {
        let share = (s / best).powf(e) as f32;
        pr.visits += visits;
        pr.wins += visits * share;
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
        priors(
            &ctx,
            &points,
            source,
            &PriorConfig::default(),
            &pat,
            &mut PriorScratch::default(),
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
                priors(
                    &ctx,
                    &points,
                    PriorSource::Patterns,
                    &hand,
                    &PatternPriorConfig::default(),
                    &mut scratch,
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
    fn sources_parse() {
        assert_eq!("hand".parse::<PriorSource>(), Ok(PriorSource::Hand));
        assert_eq!("patterns".parse::<PriorSource>(), Ok(PriorSource::Patterns));
        assert!("mogo".parse::<PriorSource>().is_err());
    }
}

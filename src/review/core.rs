//! The review itself: every position of a game's main line searched, each
//! move judged by what it lost against the search's best move.
//!
//! A move's loss is the mover's win rate (and score lead) in the position
//! before it, as the search's best move gives it, minus the same after
//! the move, as the search of the next position gives it. Both are the
//! search's estimates, so small losses are noise: the verdicts below
//! start well above it.
//!
//! | verdict | win-rate loss | or score loss |
//! |---|---|---|
//! | good | below 5% | below 3 points |
//! | inaccuracy | 5% to 10% | 3 to 7 points |
//! | mistake | 10% to 20% | 7 to 15 points |
//! | blunder | 20% or more | 15 points or more |
//!
//! The worse of the two grades is the verdict. Win rates and leads are
//! reported from Black's side where the text says "Black's", and losses
//! from the mover's side.

use crate::color::Color;
use crate::game::Game;
use crate::mcts::{Limits, MctsPlayer, SearchConfig, TimeBudget};
use crate::player::{Analysis, MoveFilter, Player};
use crate::point::Move;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A move's grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Within the noise.
    Good,
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A loss that can turn the game.
    Blunder,
}

impl Verdict {
    /// Win-rate loss thresholds (fractions) of inaccuracy, mistake, blunder.
    pub const WINRATE: [f64; 3] = [0.05, 0.10, 0.20];
    /// Score loss thresholds (points) of inaccuracy, mistake, blunder.
    pub const SCORE: [f64; 3] = [3.0, 7.0, 15.0];

    /// The grade of a move losing `winrate` (a fraction) and `score`
    /// (points): the worse of the two grades.
    pub fn of(winrate: f64, score: f64) -> Verdict {
        let grade = |x: f64, t: [f64; 3]| t.iter().filter(|&&l| x >= l).count();
        match grade(winrate, Self::WINRATE).max(grade(score, Self::SCORE)) {
            0 => Verdict::Good,
            1 => Verdict::Inaccuracy,
            2 => Verdict::Mistake,
            _ => Verdict::Blunder,
        }
    }

    /// The word.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }
}

/// How each position is searched.
#[derive(Clone, Debug)]
pub struct SearchPlan {
    /// The search's settings (threads, seed).
    pub cfg: SearchConfig,
    /// Playouts per position (`None`: the time alone bounds it).
    pub visits: Option<u64>,
    /// Seconds per position, if any.
    pub time: Option<f64>,
}

/// One position's search, kept for the outputs.
#[derive(Clone, Debug)]
pub struct Position {
    /// Moves played before it.
    pub turn: usize,
    /// The game there (its history included).
    pub game: Game,
    /// The search's snapshot (for the side to move).
    pub analysis: Analysis,
}

impl Position {
    /// Black's win rate (0..1) by the search's best move.
    pub fn black_winrate(&self) -> f64 {
        let w = self.analysis.winrate as f64;
        if self.analysis.color == Color::Black {
            w
        } else {
            1.0 - w
        }
    }

    /// Black's score lead (points) by the search's best move.
    pub fn black_lead(&self) -> f64 {
        let s = self.analysis.score_lead as f64;
        if self.analysis.color == Color::Black {
            s
        } else {
            -s
        }
    }
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number (1 for the first move).
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The move played.
    pub played: Move,
    /// The search's best move in the position before it.
    pub best: Move,
    /// The best move's principal variation.
    pub best_pv: Vec<Move>,
    /// Black's win rate before the move (by the best move) and after it.
    pub black_winrate: (f64, f64),
    /// Black's score lead before and after.
    pub black_lead: (f64, f64),
    /// The mover's win-rate loss (negative: the move did better than the
    /// search expected).
    pub winrate_loss: f64,
    /// The mover's score loss in points.
    pub score_loss: f64,
    /// The grade.
    pub verdict: Verdict,
}

/// Judges the move from `before` to `after` (`after.turn == before.turn +
/// 1`), `mv` played by `color`.
pub fn judge(before: &Position, after: &Position, color: Color, mv: Move) -> MoveReview {
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let (w0, w1) = (before.black_winrate(), after.black_winrate());
    let (s0, s1) = (before.black_lead(), after.black_lead());
    let winrate_loss = sign * (w0 - w1);
    let score_loss = sign * (s0 - s1);
    let best = before.analysis.candidates.first();
    MoveReview {
        number: before.turn + 1,
        color,
        played: mv,
        best: best.map_or(Move::Pass, |c| c.mv),
        best_pv: best.map_or_else(Vec::new, |c| c.pv.clone()),
        black_winrate: (w0, w1),
        black_lead: (s0, s1),
        winrate_loss,
        score_loss,
        verdict: if best.is_some_and(|c| c.mv == mv) {
            // The search's own choice loses nothing but noise.
            Verdict::Good
        } else {
            Verdict::of(winrate_loss, score_loss)
        },
    }
}

/// A searcher of positions: one search player, a fresh tree and the same
/// seed for every position (so a review with one thread repeats exactly).
pub struct Reviewer {
    player: MctsPlayer,
    plan: SearchPlan,
}

impl Reviewer {
    /// A reviewer with `plan`.
    pub fn new(plan: SearchPlan) -> Reviewer {
        let mut cfg = plan.cfg.clone();
        cfg.reuse_tree = false;
        cfg.early_stop = false;
        Reviewer {
            player: MctsPlayer::new(cfg),
            plan,
        }
    }

    /// Searches `game` for the side to move; `stop` ends it early.
    pub fn search(&mut self, game: &Game, stop: &AtomicBool) -> Analysis {
        self.player.clear();
        self.player.set_seed(self.plan.cfg.seed);
        let limits = Limits {
            playouts: self.plan.visits,
            time: self.plan.time.map(|t| TimeBudget { target: t, max: t }),
        };
        self.player.analyze_filtered(
            game,
            game.to_move(),
            limits,
            Some(stop),
            Duration::from_secs(86_400),
            &MoveFilter::default(),
            &mut |_| {},
        )
    }
}

/// Summary of one player's moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSummary {
    /// `B` or `W`.
    pub player: String,
    /// The player's name from the record, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Moves reviewed.
    pub moves: usize,
    /// Mean win-rate loss (losses below zero counted as zero).
    pub mean_winrate_loss: f64,
    /// Mean score loss in points (likewise).
    pub mean_score_loss: f64,
    /// Counts of inaccuracies, mistakes and blunders.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// The biggest losses, worst first (at most five): move number,
    /// played, best, win-rate loss, score loss.
    pub worst: Vec<Worst>,
}

/// One of a player's biggest losses.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Worst {
    /// Move number.
    pub move_number: usize,
    /// The move played (GTP vertex).
    pub played: String,
    /// The best move (GTP vertex).
    pub best: String,
    /// Win-rate loss.
    pub winrate_loss: f64,
    /// Score loss.
    pub score_loss: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// The moves ordered worst first: by win-rate loss, then score loss.
pub fn worst_first(moves: &[MoveReview]) -> Vec<&MoveReview> {
    let mut v: Vec<&MoveReview> = moves.iter().collect();
    v.sort_by(|a, b| {
        b.winrate_loss
            .total_cmp(&a.winrate_loss)
            .then(b.score_loss.total_cmp(&a.score_loss))
            .then(a.number.cmp(&b.number))
    });
    v
}

/// The summary of `color`'s moves among `moves`.
pub fn summarize(
    moves: &[MoveReview],
    color: Color,
    name: Option<String>,
    size: usize,
) -> PlayerSummary {
    let mine: Vec<MoveReview> = moves.iter().filter(|m| m.color == color).cloned().collect();
    let n = mine.len();
    let mean = |f: &dyn Fn(&MoveReview) -> f64| {
        if n == 0 {
            0.0
        } else {
            mine.iter().map(|m| f(m).max(0.0)).sum::<f64>() / n as f64
        }
    };
    let count = |v: Verdict| mine.iter().filter(|m| m.verdict == v).count();
    PlayerSummary {
        player: color.letter().to_string(),
        name,
        moves: n,
        mean_winrate_loss: mean(&|m| m.winrate_loss),
        mean_score_loss: mean(&|m| m.score_loss),
        inaccuracies: count(Verdict::Inaccuracy),
        mistakes: count(Verdict::Mistake),
        blunders: count(Verdict::Blunder),
        worst: worst_first(&mine)
            .into_iter()
            .filter(|m| m.verdict != Verdict::Good)
            .take(5)
            .map(|m| Worst {
                move_number: m.number,
                played: m.played.to_gtp(size),
                best: m.best.to_gtp(size),
                winrate_loss: m.winrate_loss,
                score_loss: m.score_loss,
                verdict: m.verdict,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_thresholds() {
        assert_eq!(Verdict::of(0.049, 2.9), Verdict::Good);
        assert_eq!(Verdict::of(0.05, 0.0), Verdict::Inaccuracy);
        assert_eq!(Verdict::of(0.0, 7.0), Verdict::Mistake);
        assert_eq!(Verdict::of(0.12, 16.0), Verdict::Blunder);
        assert_eq!(Verdict::of(0.25, -3.0), Verdict::Blunder);
        assert_eq!(Verdict::of(-0.3, -20.0), Verdict::Good);
    }
}

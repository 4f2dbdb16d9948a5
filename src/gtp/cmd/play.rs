//! Playing: moves, move generation, undo, and questions about the
//! position.

use crate::color::Color;
use crate::endgame;
use crate::gtp::args;
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;
use crate::player::{Decision, GenmoveRequest, MoveFilter};
use crate::point::{parse_gtp_move, Move, Point, VertexError};
use std::time::Duration;

impl Engine {
    /// `genmove` (`play`: the move is played; `reg_genmove` does not) and
    /// `kgs-genmove_cleanup` (`cleanup`).
    pub(crate) fn genmove(
        &mut self,
        r: &Request,
        cleanup: bool,
        play: bool,
    ) -> Result<String, CommandError> {
        args::args_n(r, 1)?;
        let color = args::color(&r.args[0])?;
        let t0 = std::time::Instant::now();
        let decision = self.decide(color, cleanup);
        if self.logging {
            let summary = crate::gtp::log::genmove_summary(
                color,
                decision,
                t0.elapsed(),
                self.player.last_search(),
                self.game.size(),
                self.stop.load(std::sync::atomic::Ordering::SeqCst),
            );
            self.log_line(&summary);
        }
        match decision {
            Decision::Resign => Ok("resign".into()),
            Decision::Play(mv) => {
                if play {
                    self.game
                        .play(color, mv)
                        .expect("decide returns legal moves");
                }
                Ok(mv.to_gtp(self.game.size()))
            }
        }
    }

    /// The move to play for `color`: the player's, checked for legality
    /// (an illegal choice becomes a pass, with a warning). In clean-up mode
    /// a resignation counts as a pass, and a pass is replaced by
    /// [`endgame::cleanup_move`] while an opposing chain that
    /// `final_status_list` calls dead (the same [`Engine::chains`]) stands
    /// on the board: the engine never passes with such a stone left.
    fn decide(&mut self, color: Color, cleanup: bool) -> Decision {
        let stop = self.stop.clone();
        let req = GenmoveRequest {
            game: &self.game,
            color,
            clock: &self.clock,
            cleanup,
            stop: Some(&stop),
        };
        let d = self.player.genmove(&req);
        let d = self.checked(color, d);
        if !cleanup || matches!(d, Decision::Play(Move::Play(_))) {
            return d;
        }
        let chains = self.chains();
        if let Some(mv) = endgame::cleanup_move(&self.game, color, &chains) {
            self.debug(&format!(
                "clean-up: {} attacks a dead chain",
                mv.to_gtp(self.game.size())
            ));
            return Decision::Play(mv);
        }
        Decision::Play(Move::Pass)
    }

    /// `d` if it is legal for `color`, else a pass (with a warning).
    pub(crate) fn checked(&mut self, color: Color, d: Decision) -> Decision {
        if let Decision::Play(mv) = d {
            if let Err(e) = self.game.check(color, mv) {
                eprintln!(
                    "kosumi: warning: player {} chose the illegal move {} ({e}); passing",
                    self.player.name(),
                    mv.to_gtp(self.game.size())
                );
                return Decision::Play(Move::Pass);
            }
        }
        d
    }
}

/// `restricted_genmove COLOR VERTEX...` (GNU Go's extension, used by its
/// regression suites): the move the player would choose for `color` among
/// the listed vertices, not played. The search runs as for `reg_genmove`
/// with every other root move (the pass included) left out; a listed
/// vertex that is not legal is dropped, and with none legal the answer is
/// a pass (`pass`; GNU Go prints `PASS`). A player without a search
/// answers the first legal vertex.
pub(crate) fn cmd_restricted_genmove(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    if r.args.len() < 2 {
        return Err(args::ArgError::Usage("restricted_genmove COLOR VERTEX...").into());
    }
    let color = args::color(&r.args[0])?;
    let size = e.game.size();
    let mut allowed = Vec::with_capacity(r.args.len() - 1);
    for a in &r.args[1..] {
        match e.parse_vertex(a)? {
            Move::Pass => {
                return Err(args::ArgError::Usage("restricted_genmove COLOR VERTEX...").into())
            }
            mv => {
                if e.game.is_legal(color, mv) && !allowed.contains(&mv) {
                    allowed.push(mv);
                }
            }
        }
    }
    let Some(&first) = allowed.first() else {
        return Ok(Move::Pass.to_gtp(size));
    };
    if allowed.len() == 1 {
        return Ok(first.to_gtp(size));
    }
    let mut filter = MoveFilter::default();
    filter.allow_only(color, &allowed, 1);
    // The most visited allowed move of the last snapshot stands in for a
    // resignation (the search resigns the position, not the choice).
    let mut best = first;
    let decision = match e.with_analyzer(color, |an, req| {
        an.genmove_analyze(req, Duration::from_millis(100), &filter, &mut |a| {
            if let Some(c) = a.candidates.iter().find(|c| allowed.contains(&c.mv)) {
                best = c.mv;
            }
        })
    }) {
        Ok(d) => d,
        Err(CommandError::NoAnalyzer) => return Ok(first.to_gtp(size)),
        Err(err) => return Err(err),
    };
    let mv = match decision {
        Decision::Play(mv) if allowed.contains(&mv) => mv,
        _ => best,
    };
    Ok(mv.to_gtp(size))
}

pub(crate) fn cmd_play(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 2)?;
    let color = args::color(&r.args[0])?;
    let mv = e.parse_vertex(&r.args[1])?;
    match e.game.play(color, mv) {
        Ok(()) => Ok(String::new()),
        Err(why) => {
            eprintln!(
                "kosumi: play {} {}: {why}",
                color.name(),
                mv.to_gtp(e.game.size())
            );
            Err(CommandError::IllegalMove)
        }
    }
}

fn undo_n(e: &mut Engine, n: usize) -> Result<String, CommandError> {
    e.game.undo_many(n).map_err(|_| CommandError::CannotUndo)?;
    e.player.clear();
    Ok(String::new())
}

pub(crate) fn cmd_undo(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    undo_n(e, 1)
}

pub(crate) fn cmd_gg_undo(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let n = match r.args.len() {
        0 => 1,
        1 => args::count(&r.args[0])?,
        _ => return Err(args::count_error(r, 1).into()),
    };
    undo_n(e, n)
}

pub(crate) fn cmd_showboard(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    let g = &e.game;
    Ok(format!(
        "\n{}{} to play; captures: black {}, white {}; komi {}; rules {}",
        g.board().diagram(true),
        g.to_move().name(),
        g.captures(Color::Black),
        g.captures(Color::White),
        g.komi(),
        g.rules()
    ))
}

pub(crate) fn cmd_is_legal(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 2)?;
    let color = args::color(&r.args[0])?;
    match parse_gtp_move(&r.args[1], e.game.size()) {
        Ok(mv) => Ok(if e.game.is_legal(color, mv) { "1" } else { "0" }.into()),
        Err(VertexError::OffBoard(_)) => Ok("0".into()),
        Err(err) => Err(args::ArgError::from(err).into()),
    }
}

pub(crate) fn cmd_all_legal(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let color = args::color(&r.args[0])?;
    let pts: Vec<Point> = e
        .game
        .legal_moves(color)
        .into_iter()
        .filter_map(Move::point)
        .collect();
    Ok(e.vertices(&pts))
}

pub(crate) fn cmd_list_stones(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let color = args::color(&r.args[0])?;
    let b = e.game.board();
    let pts: Vec<Point> = b.points().filter(|&p| b.get(p) == Some(color)).collect();
    Ok(e.vertices(&pts))
}

pub(crate) fn cmd_captures(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let color = args::color(&r.args[0])?;
    Ok(e.game.captures(color).to_string())
}

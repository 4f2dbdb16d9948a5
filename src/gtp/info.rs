//! The analysis line format and the analysis commands' arguments: the
//! `info` lines of `lz-analyze` and `kata-analyze` (with KataGo's score,
//! `pvVisits`, `rootInfo` and ownership fields) and the `[color]
//! [interval] [key value]...` arguments with KataGo's keys. The streaming
//! itself is in [`super::analysis`].

use crate::color::Color;
use crate::gtp::args::{self, ArgError};
use crate::gtp::line::Request;
use crate::player::{Analysis, MoveFilter};
use crate::point::{parse_gtp_move, Move};
use crate::text::clip;
use std::time::Duration;

/// The analysis output format, as ../shared/CLIENTS.md 2.1 describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero: win rate, prior and lcb as integer ten-thousandths.
    Lz,
    /// KataGo: the same values as decimals (`0.465612`).
    Kata,
}

/// What an `info` line shows besides the candidates' basic fields (the
/// analysis commands' `key value` options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Show {
    /// `ownership true` (kata-): the ownership block after the candidates.
    pub ownership: bool,
    /// `pvVisits true` (kata-): each candidate's `pvVisits` after its `pv`.
    pub pv_visits: bool,
    /// `pvEdgeVisits true` (kata-): each candidate's `pvEdgeVisits` after
    /// its `pv` (the same numbers as `pvVisits`: KataGo's differ only when
    /// its search is a graph, and this one is a tree).
    pub pv_edge_visits: bool,
    /// `rootInfo true` (kata-): the `rootInfo` block after the candidates.
    pub root_info: bool,
    /// `minmoves N`: show at least N moves, unvisited ones if needed.
    pub min_moves: usize,
    /// `maxmoves N`: show at most N moves.
    pub max_moves: usize,
}

impl Default for Show {
    fn default() -> Show {
        Show {
            ownership: false,
            pv_visits: false,
            pv_edge_visits: false,
            root_info: false,
            min_moves: 0,
            max_moves: usize::MAX,
        }
    }
}

/// One `info` line of an analysis snapshot: every candidate except the
/// pass, best first, as `info move D4 visits 836 winrate 4656 prior 839
/// lcb 4640 order 0 pv D4 Q16`, `pv` last and the PV cut at its first pass;
/// with `ownership`, KataGo's `ownership` block follows the last candidate
/// (one value per point, row by row from the top, for the side analysed).
/// `None` when there is no candidate to show yet. The KataGo dialect also
/// shows `scoreMean`, `scoreStdev` and `scoreLead` (see [`info_line_with`]).
pub fn info_line(a: &Analysis, size: usize, dialect: Dialect, ownership: bool) -> Option<String> {
    let show = Show {
        ownership,
        ..Show::default()
    };
    info_line_with(a, size, dialect, &show)
}

/// [`info_line`] with every option of the analysis commands, in KataGo's
/// order: per candidate `info move M visits N winrate W [scoreMean S
/// scoreStdev D scoreLead S] prior P lcb L order O pv ... [pvVisits ...]`
/// (the scores in the KataGo dialect only: the mean final score of the
/// candidate's playouts as the lead of the side to move, komi included,
/// and their standard deviation; `scoreMean` repeats `scoreLead` as KataGo
/// does), then `rootInfo visits N winrate W scoreMean S scoreStdev D
/// scoreLead S`, then the ownership block. Unvisited moves (visits 0, the
/// prior's win rate, the root's scores) fill up to `min_moves`; the list
/// is cut at `max_moves`. `None` when no move is shown.
pub fn info_line_with(a: &Analysis, size: usize, dialect: Dialect, show: &Show) -> Option<String> {
    let num = |v: f32| match dialect {
        Dialect::Lz => format!("{}", (v.clamp(0.0, 1.0) * 10000.0).round() as i64),
        Dialect::Kata => format!("{:.6}", v.clamp(0.0, 1.0)),
    };
    let score = |lead: f32, stdev: f32| match dialect {
        Dialect::Lz => String::new(),
        Dialect::Kata => format!(" scoreMean {lead:.6} scoreStdev {stdev:.6} scoreLead {lead:.6}"),
    };
    let visited = a.candidates.iter().filter(|c| c.mv != Move::Pass);
    let fill = show.min_moves.saturating_sub(visited.clone().count());
    let mut pieces = Vec::new();
    for c in visited
        .chain(a.unvisited.iter().filter(|c| c.mv != Move::Pass).take(fill))
        .take(show.max_moves)
    {
        let pv: Vec<String> =
            c.pv.iter()
                .take_while(|m| **m != Move::Pass)
                .map(|m| m.to_gtp(size))
                .collect();
        let mut piece = format!(
            "info move {} visits {} winrate {}{} prior {} lcb {} order {} pv {}",
            c.mv.to_gtp(size),
            c.visits,
            num(c.winrate),
            score(c.score_lead, c.score_stdev),
            num(c.prior),
            num(c.lcb),
            pieces.len(),
            pv.join(" ")
        );
        for (on, key) in [
            (show.pv_visits, " pvVisits"),
            (show.pv_edge_visits, " pvEdgeVisits"),
        ] {
            if on {
                piece.push_str(key);
                for v in c.pv_visits.iter().take(pv.len()) {
                    piece.push_str(&format!(" {v}"));
                }
            }
        }
        pieces.push(piece);
    }
    if pieces.is_empty() {
        return None;
    }
    let mut line = pieces.join(" ");
    if show.root_info {
        line.push_str(&format!(
            " rootInfo visits {} winrate {}{}",
            a.visits,
            num(a.root_winrate),
            score(a.root_score_lead, a.root_score_stdev)
        ));
    }
    if show.ownership && a.ownership.len() == size * size {
        let sign = if a.color == Color::Black { 1.0 } else { -1.0 };
        line.push_str(" ownership");
        for v in &a.ownership {
            line.push_str(&format!(" {:.6}", sign * v));
        }
    }
    Some(line)
}

/// Arguments of the analysis commands: `[color] [interval] [key value]...`
/// with KataGo's keys: `interval`, `minmoves`, `maxmoves`, `avoid COLOR
/// VERTICES DEPTH`, `allow COLOR VERTICES DEPTH`, and for kata- only
/// `ownership`, `pvVisits`, `pvEdgeVisits` and `rootInfo` (`true` or
/// `false`).
pub(super) struct AnalyzeArgs {
    pub(super) color: Option<Color>,
    pub(super) interval: Duration,
    pub(super) show: Show,
    pub(super) filter: MoveFilter,
}

/// `true` or `false` for flag `key`.
fn flag(key: &str, value: &str) -> Result<bool, ArgError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ArgError::Flag(clip(key), clip(value))),
    }
}

/// KataGo's comma-separated vertex list (`D4,Q16,pass`; empty items
/// skipped).
fn vertex_list(s: &str, size: usize) -> Result<Vec<Move>, ArgError> {
    s.split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| parse_gtp_move(v, size).map_err(ArgError::from))
        .collect()
}

pub(super) fn parse_analyze_args(
    r: &Request,
    dialect: Dialect,
    size: usize,
) -> Result<AnalyzeArgs, ArgError> {
    let mut out = AnalyzeArgs {
        color: None,
        interval: Duration::from_secs(1),
        show: Show::default(),
        filter: MoveFilter::default(),
    };
    // Colours given `avoid` or `allow` so far (Black, White).
    let mut avoided = [false; 2];
    let mut allowed = [false; 2];
    let mut rest = r.args.iter().peekable();
    if let Some(a) = rest.peek() {
        if let Ok(c) = a.parse::<Color>() {
            out.color = Some(c);
            rest.next();
        }
    }
    if let Some(a) = rest.peek() {
        if a.bytes().all(|b| b.is_ascii_digit()) {
            out.interval = args::interval(a)?;
            rest.next();
        }
    }
    let kata = dialect == Dialect::Kata;
    while let Some(key) = rest.next() {
        let Some(value) = rest.next() else {
            return Err(ArgError::MissingValue(clip(key)));
        };
        match key.as_str() {
            "interval" => out.interval = args::interval(value)?,
            "ownership" if kata => {
                out.show.ownership = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(ArgError::Ownership(clip(value))),
                }
            }
            "pvVisits" if kata => out.show.pv_visits = flag(key, value)?,
            "pvEdgeVisits" if kata => out.show.pv_edge_visits = flag(key, value)?,
            "rootInfo" if kata => out.show.root_info = flag(key, value)?,
            "minmoves" => out.show.min_moves = args::count(value)?,
            "maxmoves" => out.show.max_moves = args::count(value)?,
            "avoid" | "allow" => {
                let color: Color = value.parse()?;
                let (Some(list), Some(depth)) = (rest.next(), rest.next()) else {
                    return Err(ArgError::MissingValue(clip(key)));
                };
                let moves = vertex_list(list, size)?;
                let until = match depth.parse::<u16>() {
                    Ok(d) if d >= 1 => d,
                    _ => return Err(ArgError::Depth(clip(depth))),
                };
                let i = usize::from(color == Color::White);
                if allowed[i] || (key == "allow" && avoided[i]) {
                    return Err(ArgError::AllowTwice(color));
                }
                if key == "allow" {
                    allowed[i] = true;
                    out.filter.allow_only(color, &moves, until);
                } else {
                    avoided[i] = true;
                    out.filter.avoid(color, &moves, until);
                }
            }
            _ => return Err(ArgError::AnalysisOption(clip(key))),
        }
    }
    Ok(out)
}

//! Setting up a game: board size, komi, handicap, rules, quitting.

use crate::game::{fixed_handicap_points, HandicapError};
use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;
use crate::komi::KomiError;
use crate::point::{Move, Point, MAX_SIZE, MIN_SIZE};
use crate::rules::Rules;
use crate::text::clip;

pub(crate) fn cmd_quit(e: &mut Engine, _: &Request) -> Result<String, CommandError> {
    e.quit = true;
    Ok(String::new())
}

pub(crate) fn cmd_boardsize(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let n: i64 = r.args[0]
        .parse()
        .map_err(|_| ArgError::Size(clip(&r.args[0])))?;
    if n < MIN_SIZE as i64 || n > MAX_SIZE as i64 {
        return Err(CommandError::UnacceptableSize);
    }
    e.new_game(n as usize);
    Ok(String::new())
}

pub(crate) fn cmd_clear_board(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    e.new_game(e.game.size());
    Ok(String::new())
}

pub(crate) fn cmd_komi(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    // A komi that is not a number (NaN and the infinities included) is
    // the specification's `syntax error`.
    match crate::komi::Komi::parse(&r.args[0]) {
        Ok(k) => {
            e.game.set_komi(k);
            Ok(String::new())
        }
        Err(KomiError::OutOfRange(_)) => Err(ArgError::Komi(clip(&r.args[0])).into()),
        Err(KomiError::Syntax(_) | KomiError::NotFinite) => Err(ArgError::KomiSyntax.into()),
    }
}

fn handicap_error(err: HandicapError) -> CommandError {
    match err {
        HandicapError::BoardNotEmpty => CommandError::BoardNotEmpty,
        HandicapError::InvalidCount(_) => CommandError::InvalidStoneCount,
        HandicapError::BadPoint(_) => CommandError::BadVertexList,
    }
}

pub(crate) fn cmd_fixed_handicap(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let n = args::count(&r.args[0])?;
    let points = e.game.fixed_handicap(n).map_err(handicap_error)?;
    e.player.clear();
    Ok(e.vertices(&points))
}

/// The points `place_free_handicap` uses for `n` stones: the fixed layout
/// where the table has one (capped at its largest count, as the spec allows
/// an engine to place fewer stones), else corner and centre points of a
/// small board.
fn free_handicap_points(size: usize, n: usize) -> Vec<Point> {
    if size >= 7 {
        let max = if size % 2 == 1 && size >= 9 { 9 } else { 4 };
        return fixed_handicap_points(size, n.min(max)).unwrap_or_default();
    }
    let far = size - 2;
    let mut pts = Vec::new();
    for (x, y) in [(far, 1), (1, far), (1, 1), (far, far), (size / 2, size / 2)] {
        let p = Point::new(x, y);
        if !pts.contains(&p) {
            pts.push(p);
        }
    }
    pts.truncate(n.min(size * size - 1));
    pts
}

pub(crate) fn cmd_place_free_handicap(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let n = args::count(&r.args[0])?;
    if n < 2 || n >= e.game.size() * e.game.size() {
        return Err(CommandError::InvalidStoneCount);
    }
    if !e.game.moves().is_empty() || e.game.board().empty_count() != e.game.size().pow(2) {
        return Err(CommandError::BoardNotEmpty);
    }
    let points = free_handicap_points(e.game.size(), n);
    if points.len() < 2 {
        return Err(CommandError::InvalidStoneCount);
    }
    e.game.set_free_handicap(&points).map_err(handicap_error)?;
    e.player.clear();
    Ok(e.vertices(&points))
}

pub(crate) fn cmd_set_free_handicap(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let mut points = Vec::new();
    // Any vertex that is unreadable, off the board or a pass makes the
    // whole list bad (the specification's `bad vertex list`).
    for a in &r.args {
        match e.parse_vertex(a) {
            Ok(Move::Play(p)) => points.push(p),
            Ok(Move::Pass) | Err(_) => return Err(CommandError::BadVertexList),
        }
    }
    e.game.set_free_handicap(&points).map_err(|err| match err {
        HandicapError::BoardNotEmpty => CommandError::BoardNotEmpty,
        _ => CommandError::BadVertexList,
    })?;
    e.player.clear();
    Ok(String::new())
}

pub(crate) fn cmd_kgs_rules(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let name = r.args[0].as_str();
    let Some(rules) = Rules::from_kgs_name(name) else {
        return Err(ArgError::KgsRules(clip(name)).into());
    };
    e.game.set_rules(rules);
    Ok(String::new())
}

/// `set_random_seed N` (GNU Go's command): the player's random stream
/// restarts from `N`, so that a controller can give every game its own
/// seed.
pub(crate) fn cmd_set_random_seed(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let seed = r.args[0]
        .parse::<u64>()
        .map_err(|_| ArgError::Number(clip(&r.args[0])))?;
    e.player.set_seed(seed);
    Ok(String::new())
}

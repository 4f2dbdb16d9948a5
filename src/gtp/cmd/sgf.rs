//! SGF files: `loadsgf` and `printsgf`.

use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;

const LOADSGF_USAGE: &str = "wrong number of arguments: loadsgf expects FILE [MOVE]";

/// `loadsgf FILE [MOVE]`: the position before move MOVE (all moves when
/// omitted) of the file's main line, replayed tolerantly under the active
/// rules; board size and komi from the file (komi kept when the file has
/// none). FILE may be double-quoted when it holds spaces.
pub(crate) fn cmd_loadsgf(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let (file, rest) = args::quoted_arg(&r.raw_args)?;
    if file.is_empty() {
        return Err(ArgError::Usage(LOADSGF_USAGE).into());
    }
    let rest: Vec<&str> = rest.split_whitespace().collect();
    let before = match rest.as_slice() {
        [] => None,
        [n] => Some(args::count(n)?),
        _ => return Err(ArgError::Usage(LOADSGF_USAGE).into()),
    };
    let rules = e.game.rules();
    match crate::sgf::load_position(std::path::Path::new(&file), before, Some(rules)) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("kosumi: loadsgf {file}: {w}");
            }
            let komi = loaded.komi.unwrap_or(e.game.komi());
            e.game = loaded.game;
            e.info = loaded.info;
            e.info_moves = e.game.moves().len();
            e.game.set_komi(komi);
            e.game.set_rules(rules);
            e.player.clear();
            Ok(String::new())
        }
        Err(err) => {
            eprintln!("kosumi: loadsgf: {err}");
            Err(CommandError::CannotLoadFile)
        }
    }
}

/// `printsgf [FILE]`: the game as SGF, as the response or into FILE
/// (which may be double-quoted). The root carries `SZ`, `KM`, `RU`, `HA`
/// for a handicap start, and what is known of `PB`, `PW`, `DT`, `GN` (from
/// the record `loadsgf` read) and `RE`: the record's while the game is
/// still the loaded record, else `final_score`'s once two passes end it.
pub(crate) fn cmd_printsgf(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let (file, rest) = args::quoted_arg(&r.raw_args)?;
    if !rest.trim().is_empty() {
        return Err(ArgError::Usage("wrong number of arguments: printsgf expects [FILE]").into());
    }
    let mut info = e.info.clone();
    if e.game.moves().len() != e.info_moves {
        info.result = None;
    }
    if info.result.is_none() && e.game.two_passes() {
        let chains = e.chains();
        info.result = Some(crate::endgame::count(&e.game, &chains).result().to_string());
    }
    let text = crate::sgf::game_to_sgf(&e.game, &info);
    if file.is_empty() {
        return Ok(text);
    }
    std::fs::write(&file, &text).map_err(|err| {
        eprintln!("kosumi: printsgf {file}: {err}");
        CommandError::CannotWriteFile
    })?;
    Ok(String::new())
}

//! The per-game lines of `kosumi replay`.

use super::{read_file, replay_tree, ReadOptions, ReplayOptions};
use std::path::Path;

/// What `kosumi replay` found in one file: one line per game, warnings,
/// boards, and whether everything replayed.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    /// One line per game (or one error line for an unreadable file).
    pub lines: Vec<String>,
    /// Warnings, each prefixed with the file name.
    pub warnings: Vec<String>,
    /// The final position of each game, as a diagram (`None` for a game
    /// that could not be replayed), in the order of `lines`.
    pub boards: Vec<Option<String>>,
    /// False if the file could not be read, a game could not be replayed,
    /// or a game stopped at an illegal move.
    pub ok: bool,
}

/// Reads the file at `path` and replays every game in it. `until`: replay
/// only the first `until` moves of each main line.
pub fn replay_file(path: &Path, opts: &ReplayOptions, until: Option<usize>) -> FileReport {
    let name = path.display().to_string();
    let mut rep = FileReport {
        ok: true,
        ..FileReport::default()
    };
    let c = match read_file(
        path,
        ReadOptions {
            strict: opts.strict,
        },
    ) {
        Ok(c) => c,
        Err(e) => {
            rep.lines.push(format!("{name}: error: {e}"));
            rep.ok = false;
            return rep;
        }
    };
    for w in &c.warnings {
        rep.warnings.push(format!("{name}:{w}"));
    }
    let mut opts = opts.clone();
    if let Some(n) = until {
        opts.stop_before = Some(n.saturating_add(1));
    }
    for (i, tree) in c.trees.iter().enumerate() {
        let head = format!("{name} game {}", i + 1);
        let r = match replay_tree(&name, tree, &opts) {
            Ok(r) => r,
            Err(e) => {
                rep.lines.push(format!("{head}: error: {e}"));
                rep.boards.push(None);
                rep.ok = false;
                continue;
            }
        };
        for w in &r.warnings {
            rep.warnings.push(format!("{name}:{w}"));
        }
        let g = &r.game;
        let size = g.size();
        let score = g.area_score(&[]).result();
        let status = match &r.illegal {
            None => "ok".to_string(),
            Some(a) => {
                rep.ok = false;
                format!("illegal {a}")
            }
        };
        let broken = if r.broken.is_empty() {
            String::new()
        } else {
            format!(
                ", {} rule violations played through (first: {})",
                r.broken.len(),
                r.broken[0]
            )
        };
        rep.lines.push(format!(
            "{head}: {size}x{size}, {} of {} moves, rules {}, komi {}, RE {}, area score {score}, {status}{broken}",
            r.moves_played,
            r.moves_in_record,
            r.rules,
            r.komi.map_or("-".to_string(), |k| k.to_string()),
            r.result.as_deref().filter(|s| !s.is_empty()).unwrap_or("-"),
        ));
        rep.boards.push(Some(g.board().diagram(true)));
    }
    rep
}

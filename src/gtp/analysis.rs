//! Analysis and pondering: the streaming commands (`lz-analyze`,
//! `kata-analyze`, `lz-genmove_analyze`, `kata-genmove_analyze`), the
//! one-shot `kosumi-pv` and `kosumi-candidates`, and thinking on the
//! opponent's time. All of it goes through the player's
//! [`Analyzer`]; a player without one gets an
//! error (and no pondering).

use crate::color::Color;
use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::info::{info_line_with, parse_analyze_args, Dialect};
use crate::gtp::line::Request;
use crate::player::{Analysis, Analyzer, Decision, GenmoveRequest, MoveFilter, Player};
use crate::point::Move;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The player's analyzer, or the error for a player without one.
fn analyzer(player: &mut dyn Player) -> Result<&mut dyn Analyzer, CommandError> {
    player.analyzer().ok_or(CommandError::NoAnalyzer)
}

impl Engine {
    /// Marks a streaming command as running: from now on any new input line
    /// sets the stop flag (the reader thread does it), and a line that
    /// already arrived sets it at once.
    fn begin_stream(&mut self) {
        if let Some((signal, seq)) = &self.input {
            signal.streaming.store(true, Ordering::SeqCst);
            if signal.input_after(*seq) {
                self.stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Marks the streaming command as ended (the engine calls this after
    /// every streaming command, however it ended).
    pub(crate) fn end_stream(&mut self) {
        if let Some((signal, _)) = &self.input {
            signal.streaming.store(false, Ordering::SeqCst);
        }
    }

    /// With `--ponder`, in a game (after our first move generation, until
    /// `clear_board`, `boardsize`, `loadsgf` or `kgs-game_over`) and with no
    /// input waiting: searches the position for the side to move until the
    /// next input line, so that the next `genmove` reuses the tree (KGS's
    /// `time_left` after our move does not end the game's pondering, only
    /// the current think). Returns at once otherwise (and always without
    /// the I/O loop, or for a player without an analyzer).
    pub fn ponder(&mut self) {
        let due = self.in_game;
        let ended = self.game.two_passes();
        if !self.config.ponder
            || !due
            || ended
            || self.quit
            || self.input.is_none()
            || self.input_waiting()
            || self.player.analyzer().is_none()
        {
            return;
        }
        self.begin_stream();
        let stop = self.stop.clone();
        let color = self.game.to_move();
        let Engine { game, player, .. } = &mut *self;
        if let Some(an) = player.analyzer() {
            let a = an.analyze(
                game,
                color,
                None,
                Some(&stop),
                Duration::from_secs(3600),
                &MoveFilter::default(),
                &mut |_| {},
            );
            if self.config.verbose {
                eprintln!("kosumi: pondered {} playouts", a.playouts);
            }
        }
        self.end_stream();
    }

    /// Playouts an analysis may run: unbounded under the I/O loop (input
    /// stops it), else `--playouts` or 1000.
    fn analysis_limit(&self) -> Option<u64> {
        if self.input.is_some() {
            None
        } else {
            Some(self.config.playouts.unwrap_or(1000))
        }
    }

    /// `f` with the player's analyzer and a request to move for `color`
    /// in the current position (no clean-up; the engine's stop flag), or
    /// the error for a player without an analyzer.
    pub(crate) fn with_analyzer<R>(
        &mut self,
        color: Color,
        f: impl FnOnce(&mut dyn Analyzer, &GenmoveRequest<'_>) -> R,
    ) -> Result<R, CommandError> {
        let stop = self.stop.clone();
        let Engine {
            game,
            player,
            clock,
            ..
        } = self;
        let an = analyzer(player.as_mut())?;
        let req = GenmoveRequest {
            game,
            color,
            clock,
            cleanup: false,
            stop: Some(&stop),
        };
        Ok(f(an, &req))
    }

    /// Playouts of a one-shot analysis (`kosumi-pv`, `kosumi-candidates`).
    fn short_analysis(&mut self, color: Color) -> Result<Analysis, CommandError> {
        let playouts = Some(self.config.playouts.unwrap_or(1000));
        let stop = self.stop.clone();
        let Engine { game, player, .. } = self;
        let an = analyzer(player.as_mut())?;
        Ok(an.analyze(
            game,
            color,
            playouts,
            Some(&stop),
            Duration::from_secs(3600),
            &MoveFilter::default(),
            &mut |_| {},
        ))
    }
}

/// Writes one update line and flushes; a failed write stops the search.
fn write_update(
    out: &mut dyn Write,
    failed: &mut Option<io::Error>,
    stop: &AtomicBool,
    line: Option<String>,
) {
    let Some(line) = line else { return };
    if failed.is_some() {
        return;
    }
    let r = out
        .write_all(line.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush());
    if let Err(e) = r {
        *failed = Some(e);
        stop.store(true, Ordering::SeqCst);
    }
}

/// `lz-analyze [color] [interval]`, `kata-analyze [color] [interval]
/// [ownership true]`: the `=` line, one `info` line per interval, then
/// (when any input arrives, or the search ends) the empty line.
pub(crate) fn stream_analyze(
    e: &mut Engine,
    r: &Request,
    out: &mut dyn Write,
    dialect: Dialect,
) -> Result<io::Result<()>, CommandError> {
    let opts = parse_analyze_args(r, dialect, e.game.size())?;
    analyzer(e.player.as_mut())?;
    let color = opts.color.unwrap_or(e.game.to_move());
    let playouts = e.analysis_limit();
    let id = r.id.clone().unwrap_or_default();
    if let Err(err) = out
        .write_all(format!("={id}\n").as_bytes())
        .and_then(|_| out.flush())
    {
        return Ok(Err(err));
    }
    e.begin_stream();
    let stop = e.stop.clone();
    let size = e.game.size();
    let Engine { game, player, .. } = e;
    let an = analyzer(player.as_mut())?;
    let mut failed = None;
    let last = an.analyze(
        game,
        color,
        playouts,
        Some(&stop),
        opts.interval,
        &opts.filter,
        &mut |a| {
            write_update(
                out,
                &mut failed,
                &stop,
                info_line_with(a, size, dialect, &opts.show),
            )
        },
    );
    // Ended by itself (a playout limit): show the final state too.
    if !stop.load(Ordering::SeqCst) {
        write_update(
            out,
            &mut failed,
            &stop,
            info_line_with(&last, size, dialect, &opts.show),
        );
    }
    if let Some(err) = failed {
        return Ok(Err(err));
    }
    Ok(out.write_all(b"\n").and_then(|_| out.flush()))
}

/// `lz-genmove_analyze color [interval]` (and `kata-`): like `genmove`
/// (same limits and clock), with `info` lines while the search runs, then
/// `play <move>` and the empty line; the move is played.
pub(crate) fn stream_genmove_analyze(
    e: &mut Engine,
    r: &Request,
    out: &mut dyn Write,
    dialect: Dialect,
) -> Result<io::Result<()>, CommandError> {
    let opts = parse_analyze_args(r, dialect, e.game.size())?;
    let Some(color) = opts.color else {
        return Err(ArgError::ColorFirst(r.name.clone()).into());
    };
    analyzer(e.player.as_mut())?;
    let id = r.id.clone().unwrap_or_default();
    if let Err(err) = out
        .write_all(format!("={id}\n").as_bytes())
        .and_then(|_| out.flush())
    {
        return Ok(Err(err));
    }
    // Not stopped by new input (a queued command waits for the move, as
    // after `genmove`); `# interrupt` still ends the search early.
    let stop = e.stop.clone();
    let size = e.game.size();
    let mut failed = None;
    let decision = e.with_analyzer(color, |an, req| {
        an.genmove_analyze(req, opts.interval, &opts.filter, &mut |a| {
            write_update(
                out,
                &mut failed,
                &stop,
                info_line_with(a, size, dialect, &opts.show),
            )
        })
    })?;
    let decision = e.checked(color, decision);
    let text = match decision {
        Decision::Resign => "resign".to_string(),
        Decision::Play(mv) => {
            e.game.play(color, mv).map_err(|_| CommandError::Internal)?;
            mv.to_gtp(size)
        }
    };
    if let Some(err) = failed {
        return Ok(Err(err));
    }
    Ok(out
        .write_all(format!("play {text}\n\n").as_bytes())
        .and_then(|_| out.flush()))
}

/// `kosumi-pv [color]`: the principal variation of a short search, as
/// colour and move pairs (GoGui's `var`).
pub(crate) fn cmd_kosumi_pv(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let color = args::optional_color(r, e.game.to_move())?;
    let a = e.short_analysis(color)?;
    let size = e.game.size();
    let mut c = color;
    let mut out = Vec::new();
    if let Some(best) = a.candidates.first() {
        for m in &best.pv {
            out.push(format!("{} {}", c.letter(), m.to_gtp(size)));
            c = c.opponent();
        }
    }
    Ok(out.join(" "))
}

/// `kosumi-candidates [color]`: the root moves of a short search with
/// their visits (GoGui's `pspairs`).
pub(crate) fn cmd_kosumi_candidates(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let color = args::optional_color(r, e.game.to_move())?;
    let a = e.short_analysis(color)?;
    let size = e.game.size();
    Ok(a.candidates
        .iter()
        .filter(|c| c.mv != Move::Pass)
        .map(|c| format!("{} {}", c.mv.to_gtp(size), c.visits))
        .collect::<Vec<_>>()
        .join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::engine::Config;
    use crate::player::{CandidateInfo, Player};
    use crate::point::parse_gtp_move;

    /// A player that is not the search but offers an analyzer: a fixed
    /// snapshot, counting its calls.
    struct Fake {
        calls: usize,
    }

    fn snapshot(color: Color) -> Analysis {
        let c3 = parse_gtp_move("C3", 5).unwrap();
        let d4 = parse_gtp_move("D4", 5).unwrap();
        Analysis {
            color,
            visits: 10,
            playouts: 10,
            winrate: 0.6,
            score_lead: 1.0,
            root_winrate: 0.6,
            root_score_lead: 1.0,
            root_score_stdev: 0.0,
            candidates: vec![CandidateInfo {
                mv: c3,
                visits: 7,
                winrate: 0.6,
                prior: 0.5,
                lcb: 0.4,
                order: 0,
                pv: vec![c3, d4],
                pv_visits: vec![7, 3],
                score_lead: 1.0,
                score_stdev: 0.0,
            }],
            unvisited: Vec::new(),
            ownership: Vec::new(),
        }
    }

    impl Player for Fake {
        fn name(&self) -> String {
            "fake".into()
        }
        fn genmove(&mut self, _: &GenmoveRequest<'_>) -> Decision {
            Decision::Play(Move::Pass)
        }
        fn analyzer(&mut self) -> Option<&mut dyn Analyzer> {
            Some(self)
        }
    }

    impl Analyzer for Fake {
        fn analyze(
            &mut self,
            _: &crate::game::Game,
            color: Color,
            playouts: Option<u64>,
            _: Option<&AtomicBool>,
            _: Duration,
            _: &MoveFilter,
            on_update: &mut dyn FnMut(&Analysis),
        ) -> Analysis {
            assert_eq!(playouts, Some(1000), "no I/O loop: the short limit");
            self.calls += 1;
            let a = snapshot(color);
            on_update(&a);
            a
        }
        fn genmove_analyze(
            &mut self,
            _: &GenmoveRequest<'_>,
            _: Duration,
            _: &MoveFilter,
            _: &mut dyn FnMut(&Analysis),
        ) -> Decision {
            Decision::Play(parse_gtp_move("C3", 5).unwrap())
        }
    }

    fn engine() -> Engine {
        let config = Config {
            size: 5,
            ..Config::default()
        };
        Engine::new(config, Box::new(Fake { calls: 0 }))
    }

    #[test]
    fn any_player_with_an_analyzer_answers_analysis() {
        let mut e = engine();
        assert_eq!(
            e.execute(b"kosumi-pv w").as_deref(),
            Some("= W C3 B D4\n\n")
        );
        assert_eq!(
            e.execute(b"kosumi-candidates").as_deref(),
            Some("= C3 7\n\n")
        );
        let out = e.execute(b"lz-analyze b 1").unwrap();
        assert!(
            out.starts_with("=\ninfo move C3 visits 7 winrate 6000"),
            "{out}"
        );
        assert_eq!(
            e.execute(b"lz-genmove_analyze b").as_deref(),
            Some("=\nplay C3\n\n")
        );
        assert_eq!(e.game().moves().len(), 1);
    }

    #[test]
    fn a_player_without_one_gets_the_error() {
        let mut e = Engine::with_random_player(Config::default());
        assert_eq!(
            e.execute(b"lz-analyze").as_deref(),
            Some("? analysis needs the search player (not --player random)\n\n")
        );
        assert!(e.player.analyzer().is_none());
    }
}

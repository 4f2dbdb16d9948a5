//! Telling a person what the engine does: the line at start on a
//! terminal, and the log file (`--log-file`): the GTP traffic (`> ` before
//! each command read, `< ` before each response line) and, after each
//! move generation, one summary line of the search (`# genmove ...`),
//! since GUIs hide stderr.

use crate::color::Color;
use crate::gtp::engine::Config;
use crate::player::{Analysis, Decision};
use crate::point::Move;
use std::io::{self, Write};
use std::time::Duration;

/// The line written on stderr at start when stdin is a terminal.
pub fn ready_line(config: &Config, threads: usize, time: Option<f64>, player: &str) -> String {
    let limit = match (config.playouts, time) {
        (Some(p), _) => format!("{p} playouts a move"),
        (None, Some(t)) => format!("{t} s a move"),
        (None, None) => "the clock's time (1 s a move without one)".to_string(),
    };
    format!(
        "Kosumi {}: GTP engine ready, {} threads, {} player, {}x{}, {} rules, komi {}, {limit}; type list_commands or quit",
        crate::build_info::LONG_VERSION,
        threads,
        player,
        config.size,
        config.size,
        config.rules,
        config.komi,
    )
}

/// A writer that copies what it writes into a log, each line after
/// `< ` (the responses).
pub struct Tee<'a> {
    /// Where the responses go.
    pub out: &'a mut dyn Write,
    /// The log.
    pub log: &'a mut dyn Write,
    /// Whether the next byte starts a line.
    pub at_line_start: bool,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        // The log is best effort: a full disk must not stop the engine.
        for line in buf[..n].split_inclusive(|&b| b == b'\n') {
            if self.at_line_start {
                let _ = self.log.write_all(b"< ");
            }
            let _ = self.log.write_all(line);
            self.at_line_start = line.ends_with(b"\n");
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.log.flush();
        self.out.flush()
    }
}

/// The summary line of one move generation: playouts, time, win rate and
/// score lead (of the side that moved), the best moves with their visits,
/// the principal variation, and why the engine passed or resigned.
/// `stopped`: whether the search was stopped from outside (an interrupt,
/// or the end of input) rather than by its own limits.
pub fn genmove_summary(
    color: Color,
    decision: Decision,
    took: Duration,
    a: Option<&Analysis>,
    size: usize,
    stopped: bool,
) -> String {
    let answer = match decision {
        Decision::Resign => "resign".to_string(),
        Decision::Play(m) => m.to_gtp(size),
    };
    let mut s = format!(
        "# genmove {}: {answer} in {:.2} s",
        color.letter(),
        took.as_secs_f64()
    );
    let Some(a) = a else {
        s.push_str(" (no search)");
        return s;
    };
    s.push_str(&format!(
        "; {} playouts, {} root visits; win rate {:.1}%, score lead {:+.1} for {}",
        a.playouts,
        a.visits,
        a.winrate * 100.0,
        a.score_lead,
        color.name()
    ));
    let best: Vec<String> = a
        .candidates
        .iter()
        .take(5)
        .map(|c| {
            format!(
                "{} {} ({:.1}%)",
                c.mv.to_gtp(size),
                c.visits,
                c.winrate * 100.0
            )
        })
        .collect();
    s.push_str(&format!("; best: {}", best.join(", ")));
    if let Some(c) = a.candidates.first() {
        let pv: Vec<String> = c.pv.iter().map(|m| m.to_gtp(size)).collect();
        s.push_str(&format!("; pv {}", pv.join(" ")));
    }
    let top = a.candidates.first().map(|c| c.mv);
    match decision {
        Decision::Resign => s.push_str(&format!(
            "; resigned: the best win rate, {:.1}%, stayed below the resign threshold",
            a.winrate * 100.0
        )),
        Decision::Play(Move::Pass) if top == Some(Move::Pass) => {
            s.push_str("; passed: a pass is the search's best move")
        }
        Decision::Play(Move::Pass) if top.is_none() && stopped => s.push_str(
            "; passed: the search was stopped (an interrupt, or the end of input) before its first playout",
        ),
        Decision::Play(Move::Pass) if top.is_none() => {
            s.push_str("; passed: the search found no move to consider")
        }
        Decision::Play(Move::Pass) => {
            s.push_str("; passed: passing wins by the count of the position (dead stones removed)")
        }
        Decision::Play(_) => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::CandidateInfo;

    fn analysis(best: Move) -> Analysis {
        let c = CandidateInfo {
            mv: best,
            visits: 90,
            winrate: 0.04,
            prior: 0.5,
            lcb: 0.01,
            order: 0,
            pv: vec![best, Move::Pass],
            pv_visits: vec![90, 40],
            score_lead: -12.5,
            score_stdev: 3.0,
        };
        Analysis {
            color: Color::White,
            visits: 100,
            playouts: 100,
            winrate: 0.04,
            score_lead: -12.5,
            root_winrate: 0.05,
            root_score_lead: -12.0,
            root_score_stdev: 3.0,
            candidates: vec![c],
            unvisited: vec![],
            ownership: vec![],
        }
    }

    #[test]
    fn the_summary_says_why() {
        let a = analysis(Move::Pass);
        let s = genmove_summary(
            Color::White,
            Decision::Resign,
            Duration::from_millis(1500),
            Some(&a),
            9,
            false,
        );
        assert!(
            s.starts_with("# genmove W: resign in 1.50 s; 100 playouts"),
            "{s}"
        );
        assert!(
            s.contains("win rate 4.0%") && s.contains("score lead -12.5 for white"),
            "{s}"
        );
        assert!(
            s.contains("best: pass 90 (4.0%)") && s.contains("resigned"),
            "{s}"
        );
        let s = genmove_summary(
            Color::White,
            Decision::Play(Move::Pass),
            Duration::ZERO,
            Some(&a),
            9,
            false,
        );
        assert!(
            s.contains("passed: a pass is the search's best move"),
            "{s}"
        );
        let s = genmove_summary(
            Color::Black,
            Decision::Play(Move::Pass),
            Duration::ZERO,
            None,
            9,
            false,
        );
        assert!(s.ends_with("(no search)"), "{s}");
        let mut none = analysis(Move::Pass);
        none.candidates.clear();
        none.playouts = 0;
        let summary = |stopped| {
            genmove_summary(
                Color::Black,
                Decision::Play(Move::Pass),
                Duration::ZERO,
                Some(&none),
                9,
                stopped,
            )
        };
        assert!(
            summary(true)
                .ends_with("stopped (an interrupt, or the end of input) before its first playout"),
            "{}",
            summary(true)
        );
        assert!(
            summary(false).ends_with("found no move to consider"),
            "{}",
            summary(false)
        );
    }

    #[test]
    fn tee_marks_response_lines() {
        let (mut out, mut log) = (Vec::new(), Vec::new());
        {
            let mut t = Tee {
                out: &mut out,
                log: &mut log,
                at_line_start: true,
            };
            t.write_all(b"= D4\n\n").unwrap();
            t.write_all(b"info move").unwrap();
            t.write_all(b" D4\n").unwrap();
        }
        assert_eq!(out, b"= D4\n\ninfo move D4\n");
        assert_eq!(log, b"< = D4\n< \n< info move D4\n");
    }

    #[test]
    fn ready_line_names_version_and_threads() {
        let l = ready_line(&Config::default(), 3, None, "search");
        assert!(l.starts_with(&format!("Kosumi {}", crate::build_info::VERSION)));
        assert!(
            l.contains("GTP engine ready, 3 threads") && l.ends_with("type list_commands or quit")
        );
    }
}

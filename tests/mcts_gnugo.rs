//! Strength against GNU Go over GTP pipes (ignored: needs `gnugo` and
//! minutes of CPU). Run, for example:
//!
//! ```sh
//! KOSUMI_GAMES=10 KOSUMI_TIME=1 KOSUMI_THREADS=2 \
//!   cargo test --release --test mcts_gnugo -- --ignored --nocapture
//! ```
//!
//! Settings (environment): `KOSUMI_GAMES` (10), `KOSUMI_SIZE` (9),
//! `KOSUMI_TIME` seconds per move (1.0) or `KOSUMI_PLAYOUTS` per move,
//! `KOSUMI_THREADS` (2), `KOSUMI_UNIFORM=1` for uniform playouts,
//! `KOSUMI_SEED` (1), `GNUGO` (`/usr/games/gnugo`), `GNUGO_LEVEL` (10),
//! `KOSUMI_VERBOSE` (set: playouts of every Kosumi move on stderr).
//! Komi 7, Chinese rules; colours alternate, Kosumi Black in even games.
//! A game ends at two passes, a resignation or 3·N² moves and is scored by
//! area after removing the stones GNU Go's `final_status_list dead` names;
//! a draw (possible with komi 7) counts half a win.

use kosumi::clock::Clock;
use kosumi::mcts::{MctsPlayer, SearchConfig};
use kosumi::player::{Decision, GenmoveRequest, Player};
use kosumi::point::parse_gtp_move;
use kosumi::rules::Rules;
use kosumi::{Color, Game, Move, Point};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn spawn(program: &str, args: &[&str]) -> Gtp {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends one command; returns the response text after `=`, or the
    /// error after `?`.
    fn send(&mut self, cmd: &str) -> Result<String, String> {
        writeln!(self.input, "{cmd}").unwrap();
        self.input.flush().unwrap();
        let mut text = String::new();
        let mut started = false;
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).unwrap() == 0 {
                return Err("engine closed".into());
            }
            let line = line.trim_end_matches(['\n', '\r']);
            if !started {
                if line.starts_with('=') || line.starts_with('?') {
                    started = true;
                } else {
                    continue;
                }
            } else if line.is_empty() {
                break;
            }
            text.push_str(line);
            text.push('\n');
        }
        let body = text[1..].trim().to_string();
        if text.starts_with('=') {
            Ok(body)
        } else {
            Err(body)
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Wilson score interval at 95%.
fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let p = wins / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

#[test]
fn wilson_interval_brackets_the_rate() {
    let (lo, hi) = wilson(8.0, 10.0);
    assert!(lo < 0.8 && hi > 0.8 && lo > 0.4 && hi < 1.0);
}

#[test]
#[ignore = "plays GNU Go for minutes; see the module docs"]
fn match_against_gnugo() {
    let games: usize = env("KOSUMI_GAMES", 10);
    let size: usize = env("KOSUMI_SIZE", 9);
    let time: f64 = env("KOSUMI_TIME", 1.0);
    let playouts: u64 = env("KOSUMI_PLAYOUTS", 0);
    let threads: usize = env("KOSUMI_THREADS", 2);
    let seed: u64 = env("KOSUMI_SEED", 1);
    let uniform = env("KOSUMI_UNIFORM", 0) == 1;
    let gnugo: String = env("GNUGO", "/usr/games/gnugo".to_string());
    let level: u32 = env("GNUGO_LEVEL", 10);
    let cfg = SearchConfig {
        threads,
        seed,
        max_playouts: (playouts > 0).then_some(playouts),
        time_per_move: (playouts == 0).then_some(time),
        uniform_playouts: uniform,
        ..SearchConfig::default()
    };
    println!(
        "kosumi vs gnugo level {level}: {games} games {size}x{size}, komi 7, {}, threads {threads}, uniform {uniform}",
        if playouts > 0 {
            format!("{playouts} playouts/move")
        } else {
            format!("{time} s/move")
        }
    );
    let level_arg = level.to_string();
    let mut wins2 = 0u32;
    let mut kosumi_moves = 0usize;
    let mut playouts_total = 0u64;
    for g in 0..games {
        let mut engine = Gtp::spawn(
            &gnugo,
            &[
                "--mode",
                "gtp",
                "--level",
                &level_arg,
                "--chinese-rules",
                "--komi",
                "7",
            ],
        );
        engine.send(&format!("boardsize {size}")).unwrap();
        engine.send("clear_board").unwrap();
        engine.send("komi 7").unwrap();
        let mut player = MctsPlayer::new(SearchConfig {
            seed: seed + g as u64,
            ..cfg.clone()
        });
        let me = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut game = Game::new(size, Rules::default(), 7.0).unwrap();
        let clock = Clock::default();
        let mut result: Option<(Color, String)> = None;
        let mut record = Vec::new();
        while result.is_none() && !game.two_passes() && game.moves().len() < 3 * size * size {
            let c = game.to_move();
            let mv = if c == me {
                let d = player.genmove(&GenmoveRequest {
                    game: &game,
                    color: c,
                    clock: &clock,
                    cleanup: false,
                    stop: None,
                });
                kosumi_moves += 1;
                playouts_total += player.last_analysis().map_or(0, |a| a.playouts);
                if std::env::var("KOSUMI_VERBOSE").is_ok() {
                    eprintln!(
                        "move {} playouts {:?}",
                        game.moves().len(),
                        player.last_analysis().map(|a| a.playouts)
                    );
                }
                match d {
                    Decision::Resign => {
                        result = Some((c.opponent(), "resign".into()));
                        continue;
                    }
                    Decision::Play(m) => {
                        engine
                            .send(&format!("play {} {}", c.letter(), m.to_gtp(size)))
                            .expect("gnugo refused kosumi's move");
                        m
                    }
                }
            } else {
                let r = engine.send(&format!("genmove {}", c.letter())).unwrap();
                if r.eq_ignore_ascii_case("resign") {
                    result = Some((c.opponent(), "resign".into()));
                    continue;
                }
                parse_gtp_move(&r, size).expect("gnugo vertex")
            };
            game.play(c, mv).expect("legal move");
            record.push(mv.to_gtp(size));
        }
        let (winner, how) = match result {
            Some((c, how)) => (Some(c), how),
            None => {
                let dead_text = engine.send("final_status_list dead").unwrap_or_default();
                let dead: Vec<Point> = dead_text
                    .split_whitespace()
                    .filter_map(|v| parse_gtp_move(v, size).ok().and_then(Move::point))
                    .collect();
                let score = game.area_score(&dead);
                let m = score.margin();
                let w = if m > 0.0 {
                    Some(Color::Black)
                } else if m < 0.0 {
                    Some(Color::White)
                } else {
                    None
                };
                let gnugo_score = engine.send("final_score").unwrap_or_default();
                (w, format!("{:+.1} (gnugo says {gnugo_score})", m))
            }
        };
        match winner {
            Some(w) if w == me => wins2 += 2,
            None => wins2 += 1,
            _ => {}
        }
        println!(
            "game {} kosumi {} winner {} {} moves {} | {}",
            g + 1,
            me.letter(),
            winner.map_or("draw".to_string(), |w| w.letter().to_string()),
            how,
            game.moves().len(),
            record.join(" ")
        );
    }
    let wins = wins2 as f64 / 2.0;
    let (lo, hi) = wilson(wins, games as f64);
    println!(
        "kosumi won {wins}/{games} (draws count half) = {:.0}% (95% Wilson {:.0}%..{:.0}%), mean playouts/move {:.0}",
        100.0 * wins / games.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
        playouts_total as f64 / kosumi_moves.max(1) as f64
    );
}

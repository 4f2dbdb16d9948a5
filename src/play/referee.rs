//! A referee: an outside GTP engine that scores finished games with
//! `final_score`.

use super::client::{ClientError, GtpClient};
use super::contestant::{running_engine, start_commands};
use crate::game::Game;
use crate::score::GameResult;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A referee engine that scores finished games with `final_score`.
pub struct Referee {
    command_line: String,
    engine: Option<GtpClient>,
    timeout: Duration,
}

impl Referee {
    /// Starts the referee now.
    ///
    /// # Errors
    /// [`ClientError`] if it does not start or answer.
    pub fn start(command_line: &str, timeout: Duration) -> Result<Referee, ClientError> {
        Ok(Referee {
            command_line: command_line.to_string(),
            engine: Some(GtpClient::start(command_line, timeout)?),
            timeout,
        })
    }

    /// The referee's `final_score` of `game` (replayed move by move).
    ///
    /// # Errors
    /// A message when the referee fails, refuses a move or gives no
    /// readable result.
    pub fn score(&mut self, game: &Game, stop: &AtomicBool) -> Result<GameResult, String> {
        let e = running_engine(&mut self.engine, &self.command_line, self.timeout)
            .map_err(|e| e.to_string())?;
        let t = self.timeout;
        let mut cmds = start_commands(game);
        for m in game.moves() {
            cmds.push((
                "play",
                vec![m.color.letter().to_string(), m.mv.to_gtp(game.size())],
            ));
        }
        cmds.push(("final_score", vec![]));
        let mut last = String::new();
        for (name, args) in &cmds {
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            match e.request(name, &a, t, stop) {
                Ok(Ok(text)) => last = text,
                Ok(Err(msg)) => {
                    return Err(format!("referee refused {name} {}: {msg}", args.join(" ")))
                }
                Err(err) => {
                    self.engine = None;
                    return Err(format!("referee: {err}"));
                }
            }
        }
        match GameResult::parse(&last) {
            GameResult::Unknown => Err(format!("referee gave no result: '{last}'")),
            r => Ok(r),
        }
    }
}

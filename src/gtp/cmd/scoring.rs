//! Scoring: chain statuses, `final_score`, `final_status_list` and the
//! ownership map.

use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;
use crate::gtp::status::{self, Status};
use crate::score::GameResult;
use crate::text::clip;

impl Engine {
    /// Chain statuses from the player's ownership by [`status::classify`].
    /// With a player that has an analyzer (the search), a chain is also
    /// dead when the analyzer's dead-stone verdict holds for most of its
    /// stones: the search's ownership is compressed towards 0 (a lone dead
    /// stone in a finished 7x7 position scores about -0.4, inside its 0.5
    /// threshold), so either verdict suffices.
    fn chains(&mut self) -> Vec<status::ChainStatus> {
        let own = self.player.ownership(&self.game);
        let mut chains = status::classify(self.game.board(), &own);
        if let Some(an) = self.player.analyzer() {
            let dead = an.dead_stones(self.game.board(), &own);
            for c in &mut chains {
                let n = c.stones.iter().filter(|p| dead.contains(p)).count();
                if 2 * n > c.stones.len() {
                    c.status = Status::Dead;
                }
            }
        }
        chains
    }
}

pub(crate) fn cmd_final_score(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    let chains = e.chains();
    let dead = status::stones_with(&chains, Status::Dead);
    let result: GameResult = e.game.area_score(&dead).result();
    Ok(result.to_string())
}

pub(crate) fn cmd_final_status_list(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::args_n(r, 1)?;
    let wanted = Status::parse(&r.args[0]).ok_or_else(|| ArgError::Status(clip(&r.args[0])))?;
    let chains = e.chains();
    let lines: Vec<String> = chains
        .iter()
        .filter(|c| c.status == wanted)
        .map(|c| e.vertices(&c.stones))
        .collect();
    Ok(lines.join("\n"))
}

pub(crate) fn cmd_kosumi_ownership(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    let own = e.player.ownership(&e.game);
    let n = e.game.size();
    Ok(own
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

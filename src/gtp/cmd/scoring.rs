//! Scoring: chain statuses, `final_score`, `final_status_list` and the
//! ownership map.

use crate::endgame::{self, Status};
use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;
use crate::text::clip;

impl Engine {
    /// Chain statuses of the current position: the player's ownership
    /// judged by [`endgame::classify`]. `final_status_list`, `final_score`
    /// and the clean-up check of `kgs-genmove_cleanup` all use it.
    pub(crate) fn chains(&mut self) -> Vec<endgame::ChainStatus> {
        let own = self.player.ownership(&self.game);
        endgame::classify(self.game.board(), &own)
    }
}

pub(crate) fn cmd_final_score(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    args::no_args(r)?;
    let chains = e.chains();
    let count = endgame::count(&e.game, &chains);
    e.debug(&count.describe());
    Ok(count.result().to_string())
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

//! Kosumi's own commands: the rules in detail and the superko history.

use crate::gtp::args::{self, ArgError};
use crate::gtp::engine::{CommandError, Engine};
use crate::gtp::line::Request;
use crate::point::Move;
use crate::rules::{KoRule, Rules, RulesError, Scoring};
use crate::text::clip;

/// The rules as `kosumi-rules` shows them: preset name, ko rule, suicide,
/// and `territory scoring` for custom rules that count territory (the
/// Japanese preset's name says it; every other preset counts area).
fn describe_rules(rules: Rules) -> String {
    let scoring = if rules.preset_name().is_none() && rules.scoring == Scoring::Territory {
        ", territory scoring"
    } else {
        ""
    };
    format!(
        "{} (ko {}, suicide {}{scoring})",
        rules.preset_name().unwrap_or("custom"),
        rules.ko.name(),
        if rules.suicide {
            "allowed"
        } else {
            "forbidden"
        }
    )
}

/// `kosumi-rules [PRESET | ko=simple|positional|situational |
/// suicide=yes|no | scoring=area|territory]...`: applies each argument in
/// turn, then shows the rules.
pub(crate) fn cmd_kosumi_rules(e: &mut Engine, r: &Request) -> Result<String, CommandError> {
    let mut rules = e.game.rules();
    for a in &r.args {
        if let Some(k) = a.strip_prefix("ko=") {
            rules.ko = k.parse::<KoRule>().map_err(ArgError::Rules)?;
        } else if let Some(s) = a.strip_prefix("suicide=") {
            rules.suicide = match s {
                "yes" | "true" | "1" | "allowed" => true,
                "no" | "false" | "0" | "forbidden" => false,
                _ => return Err(ArgError::Suicide(clip(s)).into()),
            };
        } else if let Some(s) = a.strip_prefix("scoring=") {
            rules.scoring = match s {
                "area" => Scoring::Area,
                "territory" => Scoring::Territory,
                _ => {
                    return Err(ArgError::Rules(RulesError(format!(
                        "unknown scoring '{}' (area, territory)",
                        clip(s)
                    )))
                    .into())
                }
            };
        } else {
            rules = Rules::preset(a).map_err(ArgError::Rules)?;
        }
    }
    e.game.set_rules(rules);
    Ok(describe_rules(rules))
}

pub(crate) fn cmd_kosumi_superko_history(
    e: &mut Engine,
    r: &Request,
) -> Result<String, CommandError> {
    args::no_args(r)?;
    let g = &e.game;
    let size = g.size();
    let mut out = vec![format!(
        "rules {}; {} positions",
        describe_rules(g.rules()),
        g.history_len()
    )];
    for i in 0..g.history_len() {
        let Some((hash, to_move)) = g.history_entry(i) else {
            break;
        };
        let what = if i == 0 {
            "start".to_string()
        } else {
            let m = g.moves()[i - 1];
            format!("{} {}", m.color.letter(), m.mv.to_gtp(size))
        };
        out.push(format!(
            "{i} {what} {} to move {:016x}",
            to_move.name(),
            hash.0
        ));
    }
    let c = g.to_move();
    let mut forbidden = Vec::new();
    for p in g.board().points() {
        if let Err(crate::board::IllegalMove::Superko { after_move }) = g.check(c, Move::Play(p)) {
            forbidden.push(format!("{} (after move {after_move})", p.to_gtp(size)));
        }
    }
    out.push(format!(
        "superko forbids {}: {}",
        c.name(),
        if forbidden.is_empty() {
            "nothing".to_string()
        } else {
            forbidden.join(", ")
        }
    ));
    Ok(out.join("\n"))
}

//! The one command table. Every fact about a command is in its entry: its
//! exact name, its handler, whether `list_commands` shows it, what it does
//! to pondering, whether it plays on our clock, and its GoGui analyze
//! entries. Dispatch,
//! `known_command`, `list_commands`, `help`, `gogui-analyze_commands` and
//! the pondering phase all read this table; no other list of command
//! names exists.

use super::analysis;
use super::args::no_args;
use super::cmd::{extensions, play, scoring, setup, sgf, time};
use super::engine::{CommandError, Engine, NAME};
use super::info::Dialect;
use super::line::Request;
use std::io::{self, Write};

/// A command that returns its whole response body.
pub type Handler = fn(&mut Engine, &Request) -> Result<String, CommandError>;

/// A streaming command: it checks its arguments first (an error means
/// nothing was written, and the caller answers `?`), then writes its whole
/// response, `=` line to final empty line, to the sink as it goes.
pub type StreamHandler =
    fn(&mut Engine, &Request, &mut dyn Write) -> Result<io::Result<()>, CommandError>;

/// How a command runs.
#[derive(Clone, Copy)]
pub enum Kind {
    /// The response is returned whole.
    Plain(Handler),
    /// The response is written as the command runs.
    Stream(StreamHandler),
}

/// What a command does to pondering, which belongs to a game in progress:
/// from our first move generation to a new game (or the game's end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PonderEffect {
    /// Nothing.
    Keep,
    /// We generate a move: the game is under way, pondering may follow.
    StartsGame,
    /// A new game, a loaded one, or the end: no pondering until the next
    /// move generation.
    EndsGame,
}

/// One line of `gogui-analyze_commands`: `kind/label/command[ args]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoguiEntry {
    /// Place in GoGui's menu (the menu's order is not the table's).
    pub rank: u8,
    /// GoGui's result type (`dboard`, `plist`, `string`, `var`, ...).
    pub kind: &'static str,
    /// The menu label.
    pub label: &'static str,
    /// Arguments after the command name (`%c` is the colour to move), or
    /// empty.
    pub args: &'static str,
}

const fn g(rank: u8, kind: &'static str, label: &'static str, args: &'static str) -> GoguiEntry {
    GoguiEntry {
        rank,
        kind,
        label,
        args,
    }
}

/// One GTP command.
pub struct Command {
    /// The exact, case-sensitive name.
    pub name: &'static str,
    /// Whether `list_commands` shows it (`known_command` knows every entry).
    pub listed: bool,
    /// What it does to pondering.
    pub pondering: PonderEffect,
    /// Whether it generates and plays a move on our clock: the time it
    /// takes (plus the lag) is charged to the own clock of the colour that
    /// moved.
    pub on_clock: bool,
    /// Its entries in GoGui's analyze menu.
    pub gogui: &'static [GoguiEntry],
    pub(super) kind: Kind,
}

impl Command {
    const fn new(name: &'static str, kind: Kind) -> Command {
        Command {
            name,
            listed: true,
            pondering: PonderEffect::Keep,
            on_clock: false,
            gogui: &[],
            kind,
        }
    }

    const fn hidden(mut self) -> Command {
        self.listed = false;
        self
    }

    const fn starts_game(mut self) -> Command {
        self.pondering = PonderEffect::StartsGame;
        self
    }

    const fn on_clock(mut self) -> Command {
        self.on_clock = true;
        self
    }

    const fn ends_game(mut self) -> Command {
        self.pondering = PonderEffect::EndsGame;
        self
    }

    const fn gogui(mut self, entries: &'static [GoguiEntry]) -> Command {
        self.gogui = entries;
        self
    }
}

const fn c(name: &'static str, handler: Handler) -> Command {
    Command::new(name, Kind::Plain(handler))
}

const fn streaming(name: &'static str, handler: StreamHandler) -> Command {
    Command::new(name, Kind::Stream(handler))
}

static COMMANDS: &[Command] = &[
    c("protocol_version", |_, r| answer(r, "2")),
    c("name", |_, r| answer(r, NAME)),
    c("version", |e, r| {
        let own = env!("CARGO_PKG_VERSION");
        answer(r, e.config.version.as_deref().unwrap_or(own))
    }),
    c("known_command", cmd_known_command),
    c("list_commands", cmd_list_commands),
    c("quit", setup::cmd_quit).ends_game(),
    c("boardsize", setup::cmd_boardsize).ends_game(),
    c("clear_board", setup::cmd_clear_board).ends_game(),
    c("komi", setup::cmd_komi),
    c("play", play::cmd_play),
    c("genmove", |e, r| e.genmove(r, false, true))
        .starts_game()
        .on_clock(),
    c("reg_genmove", |e, r| e.genmove(r, false, false)),
    c("restricted_genmove", play::cmd_restricted_genmove),
    c("loadsgf", sgf::cmd_loadsgf).ends_game(),
    c("printsgf", sgf::cmd_printsgf),
    c("undo", play::cmd_undo),
    c("gg-undo", play::cmd_gg_undo),
    c("fixed_handicap", setup::cmd_fixed_handicap),
    c("place_free_handicap", setup::cmd_place_free_handicap),
    c("set_free_handicap", setup::cmd_set_free_handicap),
    c("time_settings", time::cmd_time_settings),
    c("time_left", time::cmd_time_left),
    c("kgs-time_settings", time::cmd_kgs_time_settings),
    c("final_score", scoring::cmd_final_score).gogui(&[g(3, "string", "Final score", "")]),
    c("final_status_list", scoring::cmd_final_status_list).gogui(&[
        g(1, "plist", "Dead stones", "dead"),
        g(2, "plist", "Seki stones", "seki"),
    ]),
    c("showboard", play::cmd_showboard),
    c("is_legal", play::cmd_is_legal),
    c("all_legal", play::cmd_all_legal).gogui(&[g(13, "plist", "Legal moves", "%c")]),
    c("list_stones", play::cmd_list_stones),
    c("captures", play::cmd_captures),
    c("cputime", time::cmd_cputime),
    c("set_random_seed", setup::cmd_set_random_seed),
    c("kgs-rules", setup::cmd_kgs_rules),
    c("kgs-genmove_cleanup", |e, r| e.genmove(r, true, true))
        .starts_game()
        .on_clock(),
    c("kgs-game_over", |_, r| answer(r, "")).ends_game(),
    c("gogui-analyze_commands", cmd_gogui_analyze_commands),
    c("gogui-interrupt", |_, r| answer(r, "")),
    c("kosumi-rules", extensions::cmd_kosumi_rules).gogui(&[
        g(7, "string", "Rules", ""),
        g(8, "none", "Rules: chinese", "chinese"),
        g(9, "none", "Rules: japanese", "japanese"),
        g(10, "none", "Rules: aga", "aga"),
        g(11, "none", "Rules: new_zealand", "new_zealand"),
        g(12, "none", "Rules: tromp-taylor", "tromp-taylor"),
    ]),
    c(
        "kosumi-superko_history",
        extensions::cmd_kosumi_superko_history,
    )
    .gogui(&[g(6, "string", "Superko history", "")]),
    c("kosumi-ownership", scoring::cmd_kosumi_ownership).gogui(&[g(0, "dboard", "Ownership", "")]),
    c("kosumi-pv", analysis::cmd_kosumi_pv).gogui(&[g(4, "varc", "Principal variation", "%c")]),
    c("kosumi-candidates", analysis::cmd_kosumi_candidates).gogui(&[g(
        5,
        "pspairs",
        "Candidate moves (visits)",
        "%c",
    )]),
    streaming("lz-analyze", |e, r, o| {
        analysis::stream_analyze(e, r, o, Dialect::Lz)
    }),
    streaming("kata-analyze", |e, r, o| {
        analysis::stream_analyze(e, r, o, Dialect::Kata)
    }),
    streaming("lz-genmove_analyze", |e, r, o| {
        analysis::stream_genmove_analyze(e, r, o, Dialect::Lz)
    })
    .starts_game()
    .on_clock(),
    streaming("kata-genmove_analyze", |e, r, o| {
        analysis::stream_genmove_analyze(e, r, o, Dialect::Kata)
    })
    .starts_game()
    .on_clock(),
    c("help", cmd_list_commands).hidden(),
];

/// A command without arguments that answers `text`.
fn answer(r: &Request, text: &str) -> Result<String, CommandError> {
    no_args(r)?;
    Ok(text.to_string())
}

/// The command table.
pub fn commands() -> &'static [Command] {
    COMMANDS
}

/// The entry named exactly `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

fn cmd_known_command(_: &mut Engine, r: &Request) -> Result<String, CommandError> {
    super::args::args_n(r, 1)?;
    Ok(find(&r.args[0]).is_some().to_string())
}

fn cmd_list_commands(_: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    Ok(COMMANDS
        .iter()
        .filter(|c| c.listed)
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// GoGui's analyze menu, one `kind/label/command[ args]` line per entry,
/// in menu order.
fn analyze_menu() -> String {
    let mut entries: Vec<(&GoguiEntry, &str)> = COMMANDS
        .iter()
        .flat_map(|c| c.gogui.iter().map(move |e| (e, c.name)))
        .collect();
    entries.sort_by_key(|(e, _)| e.rank);
    entries
        .iter()
        .map(|(e, name)| {
            let mut line = format!("{}/{}/{name}", e.kind, e.label);
            if !e.args.is_empty() {
                line.push(' ');
                line.push_str(e.args);
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn cmd_gogui_analyze_commands(_: &mut Engine, r: &Request) -> Result<String, CommandError> {
    no_args(r)?;
    Ok(analyze_menu())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_unique() {
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn gogui_ranks_are_unique_and_dense() {
        let mut ranks: Vec<u8> = COMMANDS
            .iter()
            .flat_map(|c| c.gogui.iter().map(|e| e.rank))
            .collect();
        ranks.sort();
        let want: Vec<u8> = (0..ranks.len() as u8).collect();
        assert_eq!(ranks, want);
    }

    #[test]
    fn analyze_menu_names_listed_commands() {
        let menu = analyze_menu();
        assert_eq!(menu.lines().count(), 14);
        assert_eq!(
            menu.lines().next(),
            Some("dboard/Ownership/kosumi-ownership")
        );
        for line in menu.lines() {
            let cmd = line.splitn(3, '/').nth(2).unwrap();
            let name = cmd.split(' ').next().unwrap();
            assert!(find(name).is_some_and(|c| c.listed), "{line}");
        }
    }

    #[test]
    fn pondering_phases() {
        let starts: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.pondering == PonderEffect::StartsGame)
            .map(|c| c.name)
            .collect();
        assert_eq!(
            starts,
            [
                "genmove",
                "kgs-genmove_cleanup",
                "lz-genmove_analyze",
                "kata-genmove_analyze"
            ]
        );
        let ends = COMMANDS
            .iter()
            .filter(|c| c.pondering == PonderEffect::EndsGame)
            .count();
        assert_eq!(ends, 5);
        // The commands that play a move on our clock are those (not
        // reg_genmove, which plays nothing).
        let timed: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.on_clock)
            .map(|c| c.name)
            .collect();
        assert_eq!(timed, starts);
    }
}

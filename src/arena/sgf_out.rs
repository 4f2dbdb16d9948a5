//! TEMPORARY: a minimal SGF writer for game records, to be replaced by
//! `sgf::game_to_sgf` once the `sgf` module lands on main. It writes one
//! game, root properties in a fixed order, one node per move, passes as
//! `B[]`, text escaped as FF[4] asks (`\` before `]` and `\`).

use crate::game::Game;
use crate::point::Move;

/// Root properties of a record, in the order written.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// `PB`.
    pub black: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `RE`.
    pub result: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// `GN`.
    pub game_name: Option<String>,
    /// `C` on the root.
    pub comment: Option<String>,
    /// Further root properties.
    pub extra: Vec<(String, Vec<String>)>,
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The record of `game` as SGF text.
pub fn game_to_sgf(game: &Game, info: &Info) -> String {
    let mut s = String::from("(;GM[1]FF[4]CA[UTF-8]AP[Kosumi:");
    s.push_str(env!("CARGO_PKG_VERSION"));
    s.push(']');
    s.push_str(&format!("SZ[{}]", game.size()));
    s.push_str(&format!("KM[{}]", game.komi()));
    let rules = game.rules();
    match rules.preset_name() {
        Some("chinese") => s.push_str("RU[Chinese]"),
        Some("japanese") => s.push_str("RU[Japanese]"),
        Some("aga") => s.push_str("RU[AGA]"),
        Some("new_zealand") => s.push_str("RU[NZ]"),
        _ => s.push_str(&format!("RU[{}]", escape(&rules.to_string()))),
    }
    let props = [
        ("PB", &info.black),
        ("PW", &info.white),
        ("RE", &info.result),
        ("DT", &info.date),
        ("GN", &info.game_name),
        ("C", &info.comment),
    ];
    for (id, v) in props {
        if let Some(v) = v {
            s.push_str(&format!("{id}[{}]", escape(v)));
        }
    }
    for (id, vals) in &info.extra {
        s.push_str(id);
        for v in vals {
            s.push_str(&format!("[{}]", escape(v)));
        }
    }
    for (i, m) in game.moves().iter().enumerate() {
        if i % 12 == 0 {
            s.push('\n');
        }
        s.push(';');
        s.push(m.color.letter());
        match m.mv {
            Move::Play(p) => s.push_str(&format!("[{}]", p.to_sgf())),
            Move::Pass => s.push_str("[]"),
        }
    }
    s.push_str(")\n");
    s
}

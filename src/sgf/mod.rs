//! SGF: bytes to trees and back, trees to [`Game`]s and back.
//!
//! Reading has three steps, each with its own error:
//!
//! 1. **Charset** ([`parse::decode`]): a byte order mark wins (UTF-8,
//!    UTF-16 LE/BE); UTF-16 without one is recognised by its zero bytes;
//!    otherwise the `CA[]` of the game tree names the charset (any WHATWG
//!    label through `encoding_rs`, plus `UTF8`, `EUC-CN`, `ISO8859_1`,
//!    `MS_KANJI`...; when the trees of one file declare different
//!    charsets, each tree's bytes are decoded by its own); without a usable
//!    `CA`, valid UTF-8 is UTF-8 and anything else is whatever `chardetng`
//!    guesses (Latin-1 for one undeclared tree among declared ones). The
//!    bytes are decoded before they are parsed, since in Shift_JIS, Big5
//!    and GBK the bytes of `]` and `\` occur inside characters.
//! 2. **Syntax** ([`parse::read_str`]): a loop with an explicit stack, so
//!    nesting depth costs memory, never the call stack. Trees keep every
//!    property, known or not, and every variation ([`tree`]).
//! 3. **Go content** ([`go::replay`]): `GM`, `SZ`, `KM`, `RU`, `HA`,
//!    `AB`/`AW`/`AE`, `PL`, `B`/`W`, `RE`; the main line (first child each
//!    time) is replayed into a [`Game`].
//!
//! # Leniencies
//!
//! Accepted with a warning by default; each one is an error with
//! [`ReadOptions::strict`] / [`ReplayOptions::strict`]:
//!
//! - text before the first `(` and between or after game trees (junk,
//!   stray `)`), skipped;
//! - `FF[3]` long property names (`GaMe`, `Black`, `CoPyright`): the
//!   lower-case letters are dropped (`GM`, `B`, `CP`);
//! - a property repeated in one node (`AB[dd]AB[pd]`): values merged;
//! - an unescaped `]` inside a value (`C[rank [12k]: hi]`) when what follows
//!   is no SGF (another value, property, node, `(`, `)` or the end): kept
//!   as text;
//! - a missing `;` after `(` before the first properties (the Nihon Ki-in
//!   export), an empty `()`, redundant `((`;
//! - nodes after a closed variation (`FF[1]` style `(;a(;b);c)`): `c`
//!   continues the main line (it becomes `a`'s first child);
//! - two roots in one tree (`((;a)(;b))`): read as two games;
//! - missing `)` at the end of the file;
//! - an unknown `CA` charset or bytes invalid in the charset (replaced by
//!   U+FFFD);
//! - komi written x100 (`KM[650]` is 6.5; any value of 100 or more; a
//!   value whose x100 reading is still no [`crate::Komi`], beyond 1000
//!   points either way, is ignored as unreadable);
//! - setup (`AB`/`AW`/`AE`) and a move in the same node before the first
//!   move (Fox);
//! - moves out of turn (the same colour twice: handicap written as moves,
//!   passes omitted);
//! - setup stones without liberties: removed;
//! - several values for `B`/`W`: the first is used; an unreadable `PL` or
//!   `KM`: ignored;
//! - whitespace around a move or point value (`B[ dd]`): ignored.
//!
//! Noted but not refused in strict mode: an `RU` that names no known rule
//! set (Chinese rules are used), a `CA` of UTF-16 on bytes that are not
//! UTF-16.
//!
//! Not leniencies (`FF[4]` allows them): `B[tt]` is a pass on boards up to
//! 19x19 (a point on larger boards), whitespace between identifier and
//! value, compressed point lists `AB[aa:cc]`, several game trees per file,
//! soft line breaks.
//!
//! Always errors: unclosed values, a property without a value, characters
//! where a property, `;`, `(` or `)` must stand, no `(` in the file;
//! `GM` other than 1, rectangular or unsupported `SZ`, invalid move or
//! point values (`B[R16]`, off-board points), two moves in one node.
//!
//! Every leniency used and every rule violation played through is a
//! [`Warning`]: its place and a [`WarningKind`] to match on; `Display`
//! gives the `line:column: text` form. Errors are values the same way: a
//! [`SyntaxError`] (a place and a [`SyntaxErrorKind`]) from reading, a
//! [`ContentError`] (a place and a [`ContentErrorKind`]) from replaying,
//! and [`SgfError`] adds the file name.
//!
//! # Replay
//!
//! Move numbers count the B and W properties of the main line from 1,
//! passes included. The side to move at the start is `PL`, else the colour
//! of the first move, else White for a handicap (`HA` with only Black
//! setup stones) and Black otherwise. `RU` maps to a preset
//! ([`go::rules_from_ru`]); unknown or absent rules are Chinese. A plain
//! replay stops at the first illegal move ([`go::IllegalAt`]: number,
//! colour, point, reason); a tolerant one plays on through ko, superko and
//! multi-stone suicide violations and stops only where the board cannot
//! take the move (occupied, single-stone suicide).
//!
//! Setup (`AB`, `AW`, `AE`) and `PL` may stand in any node of the main
//! line, as in GNU Go and Sabaki. Setup after the first move changes the
//! position as it stands and starts the game afresh from there: the stones
//! and prisoners of the moves before stay, the moves leave the move list
//! (so `undo` stops there and a written record gives the position as
//! setup), and the superko history restarts. The side to move after it is
//! the node's `PL`, else the colour of the next move, else unchanged.
//!
//! # Writing
//!
//! [`game_to_sgf`] writes `GM[1]FF[4]CA[UTF-8]AP[Kosumi:<version>]SZ KM RU`
//! then `RE PB PW DT`, setup, and one move per node with `B[]` for a
//! pass. [`tree::write_collection`] writes any tree back; reading what it
//! writes gives the same tree.

pub mod error;
pub mod go;
pub mod parse;
pub mod report;
pub mod tree;
pub mod warning;

pub use error::{ContentError, ContentErrorKind, SyntaxError, SyntaxErrorKind};
pub use go::{game_to_tree, replay, GameInfo, IllegalAt, Replay, ReplayOptions};
pub use parse::{read_bytes, read_str, Collection, ReadOptions};
pub use tree::{GameTree, Node, Pos, Property};
pub use warning::{Warning, WarningKind};

use crate::game::Game;
use crate::rules::Rules;
use std::fmt;
use std::path::Path;

/// What went wrong, without the place.
#[derive(Clone, Debug, PartialEq)]
pub enum SgfErrorKind {
    /// The file could not be read (the system's message, lowercase).
    Io(String),
    /// The text is no SGF (or needs a leniency in strict mode).
    Syntax(SyntaxErrorKind),
    /// The SGF is no usable Go record.
    Content(ContentErrorKind),
    /// A move of the main line cannot be played.
    IllegalMove(IllegalAt),
}

/// An error reading or replaying an SGF file: the file, the line and
/// column, and what was expected.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfError {
    /// The file name as given (`<input>` for text without a file).
    pub file: String,
    /// Where (1:1 when the whole file is at fault).
    pub pos: Pos,
    /// What.
    pub kind: SgfErrorKind,
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SgfErrorKind::Io(m) => write!(f, "{}: cannot read file: {m}", self.file),
            SgfErrorKind::Syntax(k) => write!(f, "{}:{}: {k}", self.file, self.pos),
            SgfErrorKind::Content(k) => write!(f, "{}:{}: {k}", self.file, self.pos),
            SgfErrorKind::IllegalMove(a) => {
                write!(f, "{}:{}: illegal {a}", self.file, self.pos)
            }
        }
    }
}

impl std::error::Error for SgfError {}

impl SgfError {
    fn syntax(file: &str, e: SyntaxError) -> SgfError {
        SgfError {
            file: file.to_string(),
            pos: e.pos,
            kind: SgfErrorKind::Syntax(e.kind),
        }
    }

    fn content(file: &str, e: ContentError) -> SgfError {
        SgfError {
            file: file.to_string(),
            pos: e.pos,
            kind: SgfErrorKind::Content(e.kind),
        }
    }
}

/// Reads every game tree of the file at `path`.
///
/// # Errors
/// [`SgfErrorKind::Io`] or [`SgfErrorKind::Syntax`].
pub fn read_file(path: &Path, opts: ReadOptions) -> Result<Collection, SgfError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| SgfError {
        file: name.clone(),
        pos: Pos { line: 0, column: 0 },
        kind: SgfErrorKind::Io(e.to_string().to_lowercase()),
    })?;
    read_bytes(&bytes, opts).map_err(|e| SgfError::syntax(&name, e))
}

/// Replays one tree read from `file` (for error messages) and turns a
/// content error into an [`SgfError`].
///
/// # Errors
/// [`SgfErrorKind::Content`].
pub fn replay_tree(file: &str, tree: &GameTree, opts: &ReplayOptions) -> Result<Replay, SgfError> {
    replay(tree, opts).map_err(|e| SgfError::content(file, e))
}

/// A position loaded for GTP `loadsgf`.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The game, its history replayed.
    pub game: Game,
    /// Leniencies used and rule violations played through.
    pub warnings: Vec<Warning>,
    /// Komi from `KM`, if the record has one.
    pub komi: Option<crate::komi::Komi>,
    /// The record's `PB`, `PW`, `DT` and `GN`, and its `RE` when the whole
    /// main line was loaded.
    pub info: GameInfo,
}

/// Reads the first game of the file at `path` and replays its main line
/// into a [`Game`]: the position before move `before_move` (1-based; `None`
/// = after the whole main line), as GTP `loadsgf FILE MOVE` specifies
/// (`loadsgf f 6` = the position after 5 moves; 0 and 1 give the start).
/// `rules`: `Some(r)` replays under `r`; `None` uses the record's `RU`
/// (Chinese if absent or unknown).
///
/// Tolerant: a move the rules forbid but the board allows (ko, superko,
/// multi-stone suicide) is played ([`Game::play_tolerant`]) and a warning
/// pushed.
///
/// # Errors
/// An unreadable file, a syntax or content error, or a move on an
/// occupied point or a single-stone suicide ([`SgfErrorKind::IllegalMove`]).
pub fn load_position(
    path: &Path,
    before_move: Option<usize>,
    rules: Option<Rules>,
) -> Result<Loaded, SgfError> {
    let name = path.display().to_string();
    let c = read_file(path, ReadOptions::default())?;
    let tree = c.trees.first().expect("a collection has a tree");
    let opts = ReplayOptions {
        rules,
        strict: false,
        tolerant: true,
        stop_before: before_move,
    };
    let r = replay_tree(&name, tree, &opts)?;
    if let Some(a) = r.illegal {
        return Err(SgfError {
            file: name,
            pos: a.pos,
            kind: SgfErrorKind::IllegalMove(a),
        });
    }
    let mut warnings = c.warnings;
    warnings.extend(r.warnings);
    let root = tree.root();
    let text = |id: &str| {
        root.get(id)
            .map(|p| p.simple_text())
            .filter(|t| !t.trim().is_empty())
    };
    let info = GameInfo {
        black: text("PB"),
        white: text("PW"),
        result: if before_move.is_none() {
            r.result.filter(|t| !t.trim().is_empty())
        } else {
            None
        },
        date: text("DT"),
        game_name: text("GN"),
        ..GameInfo::default()
    };
    Ok(Loaded {
        game: r.game,
        warnings,
        komi: r.komi,
        info,
    })
}

/// A whole game record as SGF text (see [`game_to_tree`]): root
/// `GM[1]FF[4]CA[UTF-8]AP[Kosumi:<version>]SZ KM RU RE PB PW DT`, `AB`/`AW`
/// setup from [`Game::start`], one move per node, `B[]` for a pass.
pub fn game_to_sgf(game: &Game, info: &GameInfo) -> String {
    game_to_tree(game, info).to_sgf()
}

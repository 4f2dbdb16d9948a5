//! The Go reading of a tree: board size, komi, rules, setup, the main line
//! replayed into a [`Game`]; and a [`Game`] written back as a tree.

use super::error::{ContentError, ContentErrorKind};
use super::tree::{escape, GameTree, Node, Pos, Property};
use super::warning::{Warning, WarningKind};
use crate::board::{Board, IllegalMove};
use crate::color::Color;
use crate::game::Game;
use crate::komi::Komi;
use crate::point::{parse_sgf_move, parse_sgf_point, Move, Point, MAX_SIZE, MIN_SIZE};
use crate::rules::{KoRule, Rules, Scoring};
use crate::text::clip;
use std::fmt;

fn content(pos: Pos, kind: ContentErrorKind) -> ContentError {
    ContentError::new(pos, kind)
}

/// A move of the record that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAt {
    /// The move number: B and W properties of the main line counted from 1,
    /// passes included.
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The point.
    pub point: Point,
    /// The board size (to print the point).
    pub size: usize,
    /// Why it is illegal.
    pub reason: IllegalMove,
    /// Where the move stands in the file.
    pub pos: Pos,
}

impl fmt::Display for IllegalAt {
    /// `move 65 (black J2): superko (repeats the position after move 62)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({} {}): {}",
            self.number,
            self.color,
            self.point.to_gtp(self.size),
            self.reason
        )
    }
}

/// How to replay a tree.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// Replay under these rules instead of the record's `RU`.
    pub rules: Option<Rules>,
    /// Refuse the Go-content leniencies (see the module docs).
    pub strict: bool,
    /// Go on past moves the ko or suicide rule forbids but the board allows
    /// (noted in the warnings and in [`Replay::broken`]).
    pub tolerant: bool,
    /// Stop before this move number (1-based, as GTP `loadsgf`): `Some(1)`
    /// gives the start position, `None` the whole main line.
    pub stop_before: Option<usize>,
}

/// A replayed main line.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game as far as it was replayed.
    pub game: Game,
    /// Komi from `KM` (after x100 correction), if the record has one.
    pub komi: Option<Komi>,
    /// The rules replayed under.
    pub rules: Rules,
    /// The `RE` text, if any.
    pub result: Option<String>,
    /// B and W properties in the main line.
    pub moves_in_record: usize,
    /// Moves of the main line played, those before a setup after moves
    /// included (which [`Replay::game`]'s move list then no longer holds).
    pub moves_played: usize,
    /// The move that stopped the replay, if one did.
    pub illegal: Option<IllegalAt>,
    /// Moves the rules forbid that a tolerant replay played anyway.
    pub broken: Vec<IllegalAt>,
    /// Leniencies used, as `line:column: message`.
    pub warnings: Vec<Warning>,
}

/// The rules an SGF `RU` value names: the presets by name (`Chinese`,
/// `Japanese`, `Korean`, `AGA`, `NZ`, `Tromp-Taylor`, `Tromp/Taylor`,
/// `GOE`/`Ing`), and KataGo's `koPOSITIONAL...sui1` strings. `None` for
/// anything else.
pub fn rules_from_ru(ru: &str) -> Option<Rules> {
    let l: String = ru
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let named = match l.as_str() {
        "chinese" | "cn" | "chineseko" => Some(Rules::CHINESE),
        "japanese" | "jp" | "korean" | "kr" | "ko" => Some(Rules::JAPANESE),
        "aga" | "bga" | "french" => Some(Rules::AGA),
        "nz" | "newzealand" => Some(Rules::NEW_ZEALAND),
        "tromptaylor" | "tt" | "tromp" => Some(Rules::TROMP_TAYLOR),
        "goe" | "ing" => Some(Rules::TROMP_TAYLOR),
        _ => None,
    };
    // Names first: `Korean` also starts with "ko", KataGo's rule strings'
    // prefix.
    named.or_else(|| {
        let rest = l.strip_prefix("ko")?;
        let ko = if rest.starts_with("simple") {
            KoRule::Simple
        } else if rest.starts_with("positional") {
            KoRule::Positional
        } else if rest.starts_with("situational") || rest.starts_with("spight") {
            KoRule::Situational
        } else {
            return None;
        };
        let suicide = l.contains("sui1");
        let scoring = if l.contains("scoreterritory") {
            Scoring::Territory
        } else {
            Scoring::Area
        };
        Some(Rules {
            ko,
            suicide,
            scoring,
        })
    })
}

/// The `RU` text Kosumi writes for `rules`.
pub fn ru_text(rules: Rules) -> String {
    match rules.preset_name() {
        Some("chinese") => "Chinese".into(),
        Some("japanese") => "Japanese".into(),
        Some("aga") => "AGA".into(),
        Some("new_zealand") => "NZ".into(),
        Some("tromp-taylor") => "Tromp-Taylor".into(),
        _ => format!(
            "ko{}score{}sui{}",
            rules.ko.name().to_ascii_uppercase(),
            rules.scoring.name().to_ascii_uppercase(),
            u8::from(rules.suicide)
        ),
    }
}

/// Reads `SZ`: a square size in 2..=25 (19 when absent).
///
/// # Errors
/// A rectangular size, a size out of range, or a value that is no number.
pub fn board_size(root: &Node) -> Result<usize, ContentError> {
    let p = match root.get("SZ") {
        None => return Ok(19),
        Some(p) => p,
    };
    let (a, b) = p.compose();
    let num = |s: &str| -> Result<usize, ContentError> {
        s.trim().parse::<usize>().map_err(|_| {
            content(
                p.pos,
                ContentErrorKind::InvalidSize {
                    text: clip(&p.values[0]),
                },
            )
        })
    };
    let w = num(&a)?;
    if let Some(b) = b {
        let h = num(&b)?;
        if h != w {
            return Err(content(
                p.pos,
                ContentErrorKind::Rectangular {
                    width: w,
                    height: h,
                },
            ));
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&w) {
        return Err(content(p.pos, ContentErrorKind::UnsupportedSize(w)));
    }
    Ok(w)
}

/// Reads `KM`. Values of 100 or more in absolute value are the x100
/// encoding some servers (Fox) write: `KM[650]` is 6.5 komi, with a
/// warning (an error when `strict`). Returns `None` when absent, and (with
/// a warning) for a value that is no number or whose x100 reading is no
/// [`Komi`] (beyond 1000 points either way).
///
/// # Errors
/// With `strict`, a value that is no number or an x100 value.
pub fn komi(
    root: &Node,
    strict: bool,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Komi>, ContentError> {
    let p = match root.get("KM") {
        None => return Ok(None),
        Some(p) => p,
    };
    let text = p.simple_text();
    if text.is_empty() {
        return Ok(None);
    }
    let value = text.parse::<f32>().ok().filter(|k| k.is_finite());
    let times100 = value.is_some_and(|k| k.abs() >= 100.0);
    if let (Some(k), true, true) = (value, times100, strict) {
        return Err(content(
            p.pos,
            ContentErrorKind::KomiTimes100 {
                text: text.to_string(),
                komi: k / 100.0,
            },
        ));
    }
    let komi = value.and_then(|k| Komi::new(if times100 { k / 100.0 } else { k }).ok());
    let komi = match komi {
        Some(k) => k,
        None => {
            if strict {
                return Err(content(
                    p.pos,
                    ContentErrorKind::InvalidKomi { text: clip(&text) },
                ));
            }
            warnings.push(Warning::new(
                p.pos,
                WarningKind::InvalidKomi { text: clip(&text) },
            ));
            return Ok(None);
        }
    };
    if times100 {
        warnings.push(Warning::new(
            p.pos,
            WarningKind::KomiTimes100 {
                text: text.to_string(),
                komi: komi.get(),
            },
        ));
    }
    Ok(Some(komi))
}

/// Expands a point-list property (`AB[aa][cc:dd]`) on a board of `size`.
///
/// # Errors
/// A value that names no point of this board.
pub fn point_list(p: &Property, size: usize) -> Result<Vec<Point>, ContentError> {
    let mut out = Vec::new();
    for v in &p.values {
        let v = v.trim();
        if v.is_empty() {
            continue;
        }
        let bad = || {
            content(
                p.pos,
                ContentErrorKind::InvalidPoint {
                    id: p.id.clone(),
                    text: clip(v),
                    size,
                },
            )
        };
        let pt = |s: &str| parse_sgf_point(s.trim(), size).map_err(|_| bad());
        match v.split_once(':') {
            None => out.push(pt(v)?),
            Some((a, b)) => {
                let (a, b) = (pt(a)?, pt(b)?);
                let (x0, x1) = (a.x().min(b.x()), a.x().max(b.x()));
                let (y0, y1) = (a.y().min(b.y()), a.y().max(b.y()));
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        out.push(Point::new(x, y));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Replays the main line of `tree` (see [`ReplayOptions`]).
///
/// # Errors
/// [`ContentError`] for a tree that is no Go game or whose content cannot
/// be replayed: other `GM`, bad `SZ`, a bad move or point value, two moves
/// in one node, and (with `strict`) each Go-content leniency. Setup
/// (`AB`, `AW`, `AE`) and `PL` may stand in any node of the main line. An illegal move is no error: it ends the
/// replay and is reported in [`Replay::illegal`].
pub fn replay(tree: &GameTree, opts: &ReplayOptions) -> Result<Replay, ContentError> {
    let root = tree.root();
    let mut warnings = Vec::new();
    if let Some(gm) = root.get("GM") {
        let v = gm.simple_text();
        if v != "1" {
            return Err(content(gm.pos, ContentErrorKind::NotGo { text: clip(&v) }));
        }
    }
    let size = board_size(root)?;
    let komi_value = komi(root, opts.strict, &mut warnings)?;
    let rules = match opts.rules {
        Some(r) => r,
        None => match root.get("RU") {
            None => Rules::CHINESE,
            Some(p) => {
                let t = p.simple_text();
                match rules_from_ru(&t) {
                    Some(r) => r,
                    None => {
                        if !t.is_empty() {
                            warnings.push(Warning::new(
                                p.pos,
                                WarningKind::UnknownRules { text: clip(&t) },
                            ));
                        }
                        Rules::CHINESE
                    }
                }
            }
        },
    };
    let result = root.get("RE").map(|p| p.simple_text());
    let line = tree.main_line();
    // The first move's colour, for the side to move at the start.
    let first_color = line.iter().find_map(|&i| {
        let n = &tree.nodes[i];
        if n.get("B").is_some() {
            Some(Color::Black)
        } else if n.get("W").is_some() {
            Some(Color::White)
        } else {
            None
        }
    });
    let moves_in_record = line
        .iter()
        .filter(|&&i| tree.nodes[i].get("B").is_some() || tree.nodes[i].get("W").is_some())
        .count();

    let mut setup = Board::new(size).expect("size checked");
    let mut setup_pl: Option<Color> = None;
    let mut game: Option<Game> = None;
    let mut number = 0usize;
    let mut illegal = None;
    let mut broken = Vec::new();
    let mut moves_played = 0usize;
    let komi_f = komi_value.unwrap_or(Komi::ZERO);

    for (k, &i) in line.iter().enumerate() {
        let node = &tree.nodes[i];
        let mv_prop = match (node.get("B"), node.get("W")) {
            (Some(b), Some(w)) => {
                let later = if b.pos.line > w.pos.line
                    || (b.pos.line == w.pos.line && b.pos.column > w.pos.column)
                {
                    b
                } else {
                    w
                };
                return Err(content(later.pos, ContentErrorKind::TwoMoves));
            }
            (Some(b), None) => Some((Color::Black, b)),
            (None, Some(w)) => Some((Color::White, w)),
            (None, None) => None,
        };
        // Setup and PL, in any node of the main line.
        let mut changes = Vec::new();
        let mut setup_pos = None;
        for id in ["AB", "AW", "AE"] {
            let p = match node.get(id) {
                Some(p) => p,
                None => continue,
            };
            setup_pos.get_or_insert((p.pos, id));
            if mv_prop.is_some() {
                if opts.strict {
                    return Err(content(
                        p.pos,
                        ContentErrorKind::SetupWithMove { id: id.to_string() },
                    ));
                }
                warnings.push(Warning::new(
                    p.pos,
                    WarningKind::SetupWithMove { id: id.to_string() },
                ));
            }
            let c = match id {
                "AB" => Some(Color::Black),
                "AW" => Some(Color::White),
                _ => None,
            };
            if opts.strict && p.values.iter().any(|v| v.trim().len() != v.len()) {
                return Err(content(
                    p.pos,
                    ContentErrorKind::WhitespaceInPointList { id: id.to_string() },
                ));
            }
            let pts = point_list(p, size)?;
            let start = changes.len();
            changes.extend(pts.into_iter().map(|pt| (pt, c)));
            if game.is_none() {
                setup.set_many(&changes[start..]).map_err(|_| {
                    content(
                        p.pos,
                        ContentErrorKind::SetupOffBoard { id: id.to_string() },
                    )
                })?;
            }
        }
        let mut pl = None;
        if let Some(p) = node.get("PL") {
            match p.simple_text().parse::<Color>() {
                Ok(c) => pl = Some(c),
                Err(_) => {
                    if opts.strict {
                        return Err(content(
                            p.pos,
                            ContentErrorKind::InvalidPl {
                                text: clip(&p.text()),
                            },
                        ));
                    }
                    warnings.push(Warning::new(
                        p.pos,
                        WarningKind::InvalidPl {
                            text: clip(&p.text()),
                        },
                    ));
                }
            }
        }
        match game.as_mut() {
            None => setup_pl = pl.or(setup_pl),
            Some(g) => {
                if let Some((pos, id)) = setup_pos {
                    // Setup after moves: the position with the stones
                    // added or removed starts the game afresh (moves before
                    // it stay on the board, not in the move list).
                    let mut board = g.board().clone();
                    board.set_many(&changes).map_err(|_| {
                        content(pos, ContentErrorKind::SetupOffBoard { id: id.to_string() })
                    })?;
                    let next = line[k..].iter().find_map(|&j| {
                        let n = &tree.nodes[j];
                        if n.get("B").is_some() {
                            Some(Color::Black)
                        } else if n.get("W").is_some() {
                            Some(Color::White)
                        } else {
                            None
                        }
                    });
                    let to_move = pl.or(next).unwrap_or(g.to_move());
                    *g = start_game(
                        &mut board,
                        to_move,
                        rules,
                        komi_f,
                        opts.strict,
                        pos,
                        &mut warnings,
                    )?;
                } else if let Some(c) = pl {
                    g.set_to_move(c);
                }
            }
        }
        let (color, p) = match mv_prop {
            Some(x) => x,
            None => continue,
        };
        if opts.stop_before.is_some_and(|n| number + 1 >= n) {
            break;
        }
        number += 1;
        if p.values.len() > 1 {
            if opts.strict {
                return Err(content(
                    p.pos,
                    ContentErrorKind::SeveralMoveValues {
                        id: p.id.clone(),
                        count: p.values.len(),
                    },
                ));
            }
            warnings.push(Warning::new(
                p.pos,
                WarningKind::SeveralMoveValues { id: p.id.clone() },
            ));
        }
        let raw = p.values[0].trim();
        if raw.len() != p.values[0].len() {
            if opts.strict {
                return Err(content(
                    p.pos,
                    ContentErrorKind::WhitespaceInMove {
                        id: p.id.clone(),
                        text: clip(&p.values[0]),
                    },
                ));
            }
            warnings.push(Warning::new(
                p.pos,
                WarningKind::WhitespaceInMove { id: p.id.clone() },
            ));
        }
        let mv = parse_sgf_move(raw, size).map_err(|_| {
            content(
                p.pos,
                ContentErrorKind::InvalidMove {
                    id: p.id.clone(),
                    text: clip(raw),
                    size,
                },
            )
        })?;
        if game.is_none() {
            game = Some(start_game(
                &mut setup,
                setup_pl.or(first_color).unwrap_or(Color::Black),
                rules,
                komi_f,
                opts.strict,
                root.get("AB").map_or(Pos::default(), |p| p.pos),
                &mut warnings,
            )?);
        }
        let g = game.as_mut().expect("built above");
        if color != g.to_move() {
            if opts.strict {
                return Err(content(
                    p.pos,
                    ContentErrorKind::OutOfTurn { number, color },
                ));
            }
            if warnings.len() < 100 {
                warnings.push(Warning::new(
                    p.pos,
                    WarningKind::OutOfTurn { number, color },
                ));
            }
        }
        let at = |reason: IllegalMove, point: Point| IllegalAt {
            number,
            color,
            point,
            size,
            reason,
            pos: p.pos,
        };
        if opts.tolerant {
            match g.play_tolerant(color, mv) {
                Ok(None) => {}
                Ok(Some(reason)) => {
                    let a = at(reason, mv.point().expect("a pass is always legal"));
                    if warnings.len() < 100 {
                        warnings.push(Warning::new(p.pos, WarningKind::PlayedAnyway(a.clone())));
                    }
                    broken.push(a);
                }
                Err(reason) => {
                    illegal = Some(at(reason, mv.point().expect("a pass is always legal")));
                    break;
                }
            }
        } else if let Err(reason) = g.play(color, mv) {
            illegal = Some(at(reason, mv.point().expect("a pass is always legal")));
            break;
        }
        moves_played += 1;
    }
    let game = match game {
        Some(g) => g,
        None => {
            let only_black = setup.points().all(|p| setup.get(p) != Some(Color::White));
            let has_black = setup.points().any(|p| setup.get(p) == Some(Color::Black));
            let default = if only_black && has_black && root.get("HA").is_some() {
                Color::White
            } else {
                Color::Black
            };
            start_game(
                &mut setup,
                setup_pl.or(first_color).unwrap_or(default),
                rules,
                komi_f,
                opts.strict,
                root.get("AB").map_or(Pos::default(), |p| p.pos),
                &mut warnings,
            )?
        }
    };
    Ok(Replay {
        game,
        komi: komi_value,
        rules,
        result,
        moves_in_record,
        moves_played,
        illegal,
        broken,
        warnings,
    })
}

/// The game at the start: setup stones without liberties are removed
/// (an error when `strict`).
fn start_game(
    setup: &mut Board,
    to_move: Color,
    rules: Rules,
    komi: Komi,
    strict: bool,
    pos: Pos,
    warnings: &mut Vec<Warning>,
) -> Result<Game, ContentError> {
    let dead: Vec<Point> = setup
        .points()
        .filter(|&p| setup.get(p).is_some() && setup.liberties(p) == 0)
        .collect();
    if !dead.is_empty() {
        let names: Vec<String> = dead.iter().map(|p| p.to_sgf()).collect();
        if strict {
            return Err(content(pos, ContentErrorKind::DeadSetup { points: names }));
        }
        warnings.push(Warning::new(
            pos,
            WarningKind::DeadSetupRemoved { points: names },
        ));
        let changes: Vec<_> = dead.iter().map(|&p| (p, None)).collect();
        setup.set_many(&changes).expect("points are on the board");
    }
    Ok(Game::from_position(setup.clone(), to_move, rules, komi))
}

/// Game information for the root of a written record.
#[derive(Default, Clone, Debug)]
pub struct GameInfo {
    /// `PB`.
    pub black: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `RE` (`B+R`, `W+3.5`, ...).
    pub result: Option<String>,
    /// `DT` (`2026-11-21`).
    pub date: Option<String>,
    /// `GN`.
    pub game_name: Option<String>,
    /// `C` on the root.
    pub comment: Option<String>,
    /// More root properties, written as given (values are escaped).
    pub extra: Vec<(String, Vec<String>)>,
}

/// A game as a tree: root `GM[1]FF[4]CA[UTF-8]AP[Kosumi:<version>]SZ KM
/// RU`, then `RE PB PW DT GN C` from `info` when given, `HA` for a
/// handicap (Black setup stones only and White to move), the extra
/// properties, `AB`/`AW` from the start position, `PL` when the side to
/// move at the start is not the one a reader would assume, then one node
/// per move (`B[]` for a pass), and a last node with `PL` if the side to
/// move changed after the last move.
pub fn game_to_tree(game: &Game, info: &GameInfo) -> GameTree {
    let mut root = Node::default();
    let mut add = |id: &str, v: String| root.props.push(Property::new(id, vec![v]));
    add("GM", "1".into());
    add("FF", "4".into());
    add("CA", "UTF-8".into());
    add("AP", format!("Kosumi:{}", env!("CARGO_PKG_VERSION")));
    add("SZ", game.size().to_string());
    add("KM", format!("{}", game.komi()));
    add("RU", ru_text(game.rules()));
    for (id, v) in [
        ("RE", &info.result),
        ("PB", &info.black),
        ("PW", &info.white),
        ("DT", &info.date),
        ("GN", &info.game_name),
        ("C", &info.comment),
    ] {
        if let Some(v) = v {
            add(id, escape(v));
        }
    }
    let start = game.start();
    let mut black = Vec::new();
    let mut white = Vec::new();
    for p in start.points() {
        match start.get(p) {
            Some(Color::Black) => black.push(p.to_sgf()),
            Some(Color::White) => white.push(p.to_sgf()),
            None => {}
        }
    }
    let to_move = game.start_to_move();
    let handicap = white.is_empty() && black.len() >= 2 && to_move == Color::White;
    if handicap {
        add("HA", black.len().to_string());
    }
    for (id, values) in &info.extra {
        let id: String = id.chars().filter(|c| c.is_ascii_uppercase()).collect();
        if id.is_empty() || root.props.iter().any(|p| p.id == id) {
            continue;
        }
        root.props.push(Property::new(
            &id,
            values.iter().map(|v| escape(v)).collect(),
        ));
    }
    if !black.is_empty() {
        root.props.push(Property::new("AB", black));
    }
    if !white.is_empty() {
        root.props.push(Property::new("AW", white));
    }
    // A reader takes the first move's colour, or without moves White after
    // a handicap and Black otherwise: write PL only when that is wrong.
    let assumed = match game.moves().first() {
        Some(m) => m.color,
        None if handicap => Color::White,
        None => Color::Black,
    };
    if assumed != to_move {
        root.props
            .push(Property::new("PL", vec![to_move.letter().to_string()]));
    }
    let mut nodes = vec![root];
    for m in game.moves() {
        let v = match m.mv {
            Move::Pass => String::new(),
            Move::Play(p) => p.to_sgf(),
        };
        let i = nodes.len();
        nodes[i - 1].children.push(i);
        nodes.push(Node {
            props: vec![Property::new(&m.color.letter().to_string(), vec![v])],
            children: vec![],
        });
    }
    // A side to move changed after the last move (GTP, SGF PL).
    if let Some(last) = game.moves().last() {
        if game.to_move() != last.color.opponent() {
            let i = nodes.len();
            nodes[i - 1].children.push(i);
            nodes.push(Node {
                props: vec![Property::new(
                    "PL",
                    vec![game.to_move().letter().to_string()],
                )],
                children: vec![],
            });
        }
    }
    GameTree { nodes }
}

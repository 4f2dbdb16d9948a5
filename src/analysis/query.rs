//! One query line of the analysis protocol read into jobs (one per turn
//! to analyse), an action, or the error KataGo's engine would answer.
//!
//! The fields, their checks and the error texts follow KataGo's
//! `docs/Analysis_Engine.md` and the messages its engine prints, so that
//! a client written for KataGo reads Kosumi's answers the same way.

use crate::color::Color;
use crate::game::Game;
use crate::komi::Komi;
use crate::mcts::SearchConfig;
use crate::player::MoveFilter;
use crate::point::{parse_gtp_move, Move, Point, MAX_SIZE, MIN_SIZE};
use crate::rules::{KoRule, Rules, Scoring};
use crate::text::clip;
use serde::Serialize;
use serde_json::{Map, Value};

/// Whose side the win rates, score leads and ownership are reported from
/// (KataGo's `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Perspective {
    /// Black's (KataGo's example analysis configuration; the default).
    #[default]
    Black,
    /// White's.
    White,
    /// The side to move's.
    Side,
}

impl Perspective {
    /// Reads `black`, `white` or `side` (also KataGo's `BLACK`, `WHITE`,
    /// `SIDETOMOVE`), case-insensitive.
    ///
    /// # Errors
    /// A message naming the accepted words.
    pub fn parse(s: &str) -> Result<Perspective, String> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => Ok(Perspective::Black),
            "white" | "w" => Ok(Perspective::White),
            "side" | "sidetomove" => Ok(Perspective::Side),
            _ => Err(format!(
                "'{}' is not black, white or side (SIDETOMOVE)",
                clip(s)
            )),
        }
    }

    /// +1 when values for `to_move` are reported as they are, -1 when
    /// they are turned to the other side.
    pub fn sign(self, to_move: Color) -> f64 {
        let flip = match self {
            Perspective::Black => to_move == Color::White,
            Perspective::White => to_move == Color::Black,
            Perspective::Side => false,
        };
        if flip {
            -1.0
        } else {
            1.0
        }
    }
}

/// The engine's defaults for a query's settings (its command line).
#[derive(Clone, Debug)]
pub struct Defaults {
    /// The search's settings (threads, seed and the rest).
    pub cfg: SearchConfig,
    /// Visits per position when a query gives no `maxVisits`.
    pub visits: u64,
    /// The reporting side.
    pub perspective: Perspective,
    /// The longest principal variation reported.
    pub pv_len: usize,
}

/// One position to analyse.
#[derive(Clone, Debug)]
pub struct Job {
    /// The query's `id`.
    pub id: String,
    /// The turn number (0: the start position).
    pub turn: usize,
    /// The game up to that turn (history included, for superko).
    pub game: Game,
    /// The side to move there.
    pub color: Color,
    /// The search's settings (with `overrideSettings` applied).
    pub cfg: SearchConfig,
    /// Visits to run.
    pub visits: u64,
    /// A time cap in seconds (`maxTime`), if any.
    pub time: Option<f64>,
    /// The reporting side.
    pub perspective: Perspective,
    /// `includeOwnership`.
    pub ownership: bool,
    /// `includeMovesOwnership`.
    pub moves_ownership: bool,
    /// `includePVVisits`.
    pub pv_visits: bool,
    /// `includePolicy`, on a board size the search's network covers.
    pub policy: bool,
    /// `analysisPVLen`.
    pub pv_len: usize,
    /// `reportDuringSearchEvery`, in seconds.
    pub report_every: Option<f64>,
    /// `priority` (or this turn's entry of `priorities`).
    pub priority: i64,
    /// `avoidMoves` / `allowMoves`.
    pub filter: MoveFilter,
}

/// A special action query.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `query_version`: the query echoed with `version` and `git_hash`.
    QueryVersion,
    /// `clear_cache`: the query echoed (Kosumi has no cache to empty; each
    /// search starts from a fresh tree).
    ClearCache,
    /// `terminate`: stop the queries with this id (and these turns).
    Terminate {
        /// `terminateId`.
        id: String,
        /// `turnNumbers`, if given.
        turns: Option<Vec<i64>>,
    },
    /// `terminate_all`: stop every open query (of these turns).
    TerminateAll {
        /// `turnNumbers`, if given.
        turns: Option<Vec<i64>>,
    },
}

/// An error or warning line, as KataGo words them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Message {
    /// The error text (errors only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The warning text (warnings only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// The query field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The query's id, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

impl Message {
    /// A general error (no field, no id).
    pub fn general(text: impl Into<String>) -> Message {
        Message {
            error: Some(text.into()),
            warning: None,
            field: None,
            id: None,
        }
    }

    /// An error about `field` of the query `id`.
    pub fn error(id: &str, field: &str, text: impl Into<String>) -> Message {
        Message {
            error: Some(text.into()),
            warning: None,
            field: Some(field.to_string()),
            id: Some(id.to_string()),
        }
    }

    /// A warning about `field` of the query `id` (the query still runs).
    pub fn warning(id: &str, field: &str, text: impl Into<String>) -> Message {
        Message {
            error: None,
            warning: Some(text.into()),
            field: Some(field.to_string()),
            id: Some(id.to_string()),
        }
    }

    /// The line to write.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| String::from("{\"error\":\"internal\"}"))
    }
}

/// What a query line asks for.
#[derive(Debug)]
pub enum Parsed {
    /// A special action; `echo` is the query object to echo back.
    Action {
        /// The query's id.
        id: String,
        /// The action.
        action: Action,
        /// The query as received, to echo.
        echo: Map<String, Value>,
    },
    /// Positions to analyse, and warnings to write first.
    Jobs {
        /// The jobs, in turn order.
        jobs: Vec<Job>,
        /// Warnings about the query.
        warnings: Vec<Message>,
    },
    /// The query is refused.
    Error(Message),
}

/// The largest `maxVisits` (KataGo's 2^50).
const MAX_VISITS: i64 = 1 << 50;
/// The priority bound (KataGo's 2^62).
const MAX_PRIORITY: i64 = 0x3FFF_FFFF_FFFF_FFFF;
const PAIRS: &str = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
const AVOID: &str = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";

type Res<T> = Result<T, Message>;

struct Ctx<'a> {
    id: &'a str,
}

impl Ctx<'_> {
    fn err<T>(&self, field: &str, text: impl Into<String>) -> Res<T> {
        Err(Message::error(self.id, field, text))
    }

    fn integer(&self, v: &Value, field: &str, min: i64, max: i64, msg: &str) -> Res<i64> {
        match v.as_i64() {
            Some(x) if (min..=max).contains(&x) => Ok(x),
            _ => self.err(field, msg),
        }
    }

    fn number(&self, v: &Value, field: &str, min: f64, max: f64, msg: &str) -> Res<f64> {
        match v.as_f64() {
            Some(x) if x.is_finite() && x >= min && x <= max => Ok(x),
            _ => self.err(field, msg),
        }
    }

    fn boolean(&self, v: &Value, field: &str) -> Res<bool> {
        v.as_bool()
            .map_or_else(|| self.err(field, "Must be a boolean"), Ok)
    }

    fn player(&self, v: &Value, field: &str) -> Res<Color> {
        v.as_str()
            .and_then(parse_player)
            .map_or_else(|| self.err(field, "Must be \"b\" or \"w\""), Ok)
    }
}

/// A player string: `B`, `W`, `black`, `white` (any case).
pub fn parse_player(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A location as KataGo's queries give it: a GTP vertex (`D4`, `pass`) or
/// `(x,y)` with `x` from the left and `y` from the top, both from 0.
pub fn parse_location(s: &str, size: usize) -> Option<Move> {
    let t = s.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let x: usize = x.trim().parse().ok()?;
        let y: usize = y.trim().parse().ok()?;
        return (x < size && y < size).then(|| Move::Play(Point::new(x, y)));
    }
    parse_gtp_move(t, size).ok()
}

/// Kosumi's rules for KataGo's rules names and objects: the names map to
/// the nearest of Kosumi's presets (`chinese`, `chinese-ogs`,
/// `chinese-kgs` to chinese; `japanese`, `korean` to japanese; `aga`,
/// `bga` to aga; `new-zealand`; `tromp-taylor`; `stone-scoring` to
/// chinese); an object sets `ko`, `scoring` and `suicide` (`tax` may be
/// `NONE` or `SEKI`, `hasButton` only false). A button or `tax: ALL` has
/// no Kosumi counterpart and is refused.
///
/// # Errors
/// The reason, for the `rules` field.
pub fn parse_rules(v: &Value) -> Result<Rules, String> {
    if let Some(s) = v.as_str() {
        let n = s.to_ascii_lowercase().replace('_', "-");
        return match n.as_str() {
            "chinese" | "chinese-ogs" | "chinese-kgs" | "stone-scoring" => Ok(Rules::CHINESE),
            "japanese" | "korean" => Ok(Rules::JAPANESE),
            "aga" | "bga" => Ok(Rules::AGA),
            "new-zealand" | "nz" => Ok(Rules::NEW_ZEALAND),
            "tromp-taylor" | "tt" => Ok(Rules::TROMP_TAYLOR),
            "aga-button" => Err(format!(
                "Could not parse rules: {} (Kosumi has no button rules)",
                clip(s)
            )),
            _ => Err(format!("Could not parse rules: {}", clip(s))),
        };
    }
    let Some(obj) = v.as_object() else {
        return Err("Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.".to_string());
    };
    let dump = clip(&v.to_string());
    let bad = |why: &str| format!("Could not parse rules: {dump} ({why})");
    let mut rules = Rules::TROMP_TAYLOR;
    for (key, val) in obj {
        let text = val.as_str().map(|s| s.to_ascii_uppercase());
        match key.as_str() {
            "ko" => {
                rules.ko = match text.as_deref() {
                    Some("SIMPLE") => KoRule::Simple,
                    Some("POSITIONAL") => KoRule::Positional,
                    Some("SITUATIONAL") => KoRule::Situational,
                    _ => return Err(bad("ko is SIMPLE, POSITIONAL or SITUATIONAL")),
                }
            }
            "scoring" => {
                rules.scoring = match text.as_deref() {
                    Some("AREA") => Scoring::Area,
                    Some("TERRITORY") => Scoring::Territory,
                    _ => return Err(bad("scoring is AREA or TERRITORY")),
                }
            }
            "suicide" | "multiStoneSuicideLegal" => {
                rules.suicide = val.as_bool().ok_or_else(|| bad("suicide is a boolean"))?
            }
            "tax" => match text.as_deref() {
                Some("NONE") | Some("SEKI") => {}
                Some("ALL") => return Err(bad("Kosumi has no tax ALL")),
                _ => return Err(bad("tax is NONE, SEKI or ALL")),
            },
            "hasButton" => match val.as_bool() {
                Some(false) => {}
                Some(true) => return Err(bad("Kosumi has no button rules")),
                None => return Err(bad("hasButton is a boolean")),
            },
            "whiteHandicapBonus" | "friendlyPassOk" | "komi" => {}
            _ => return Err(bad(&format!("unknown key {}", clip(key)))),
        }
    }
    Ok(rules)
}

fn moves_list(
    ctx: &Ctx<'_>,
    v: &Value,
    field: &str,
    size: usize,
    pass: bool,
) -> Res<Vec<(Color, Move)>> {
    let Some(arr) = v.as_array() else {
        return ctx.err(field, PAIRS);
    };
    let mut out = Vec::with_capacity(arr.len());
    for elt in arr {
        let pair = match elt.as_array() {
            Some(p) if p.len() == 2 => p,
            _ => return ctx.err(field, PAIRS),
        };
        let (Some(p), Some(l)) = (pair[0].as_str(), pair[1].as_str()) else {
            return ctx.err(field, PAIRS);
        };
        let Some(c) = parse_player(p) else {
            return ctx.err(field, format!("Could not parse player: {}", clip(p)));
        };
        match parse_location(l, size) {
            Some(Move::Pass) if !pass => {
                return ctx.err(
                    field,
                    format!("Could not parse board location: {}", clip(l)),
                )
            }
            Some(m) => out.push((c, m)),
            None => {
                return ctx.err(
                    field,
                    format!("Could not parse board location: {}", clip(l)),
                )
            }
        }
    }
    Ok(out)
}

fn int_list(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

/// Reads one query line. `version` and `git_hash` are not needed here: the
/// caller adds them to a `query_version` echo.
pub fn parse_line(line: &str, defaults: &Defaults) -> Parsed {
    let input: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return Parsed::Error(Message::general(format!(
                "{e} - could not parse input line as json request: {}",
                clip(line)
            )))
        }
    };
    let Value::Object(obj) = input else {
        return Parsed::Error(Message::general(format!(
            "Request line was valid json but was not an object, ignoring: {}",
            clip(&input.to_string())
        )));
    };
    let Some(id) = obj.get("id").and_then(Value::as_str).map(str::to_string) else {
        let mut m = Message::general("Request must have a string \"id\" field");
        m.field = Some("id".to_string());
        return Parsed::Error(m);
    };
    match parse_object(&id, &obj, defaults) {
        Ok(p) => p,
        Err(m) => Parsed::Error(m),
    }
}

fn parse_action(ctx: &Ctx<'_>, action: &str, obj: &Map<String, Value>) -> Res<Action> {
    let turns = || -> Res<Option<Vec<i64>>> {
        match obj.get("turnNumbers") {
            None => Ok(None),
            Some(v) => int_list(v).map(Some).map_or_else(
                || {
                    ctx.err(
                        "turnNumbers",
                        "If provided, must be an array of integers indicating turns to terminate",
                    )
                },
                Ok,
            ),
        }
    };
    match action {
        "query_version" => Ok(Action::QueryVersion),
        "clear_cache" => Ok(Action::ClearCache),
        "terminate" => {
            let Some(t) = obj.get("terminateId").and_then(Value::as_str) else {
                return ctx.err(
                    "terminateId",
                    "Requests for a terminate action must have a string \"terminateId\" field",
                );
            };
            Ok(Action::Terminate {
                id: t.to_string(),
                turns: turns()?,
            })
        }
        "terminate_all" => Ok(Action::TerminateAll { turns: turns()? }),
        _ => ctx.err(
            "action",
            "'action' field must be 'query_version' or 'clear_cache' or 'terminate' or 'terminate_all'",
        ),
    }
}

fn parse_object(id: &str, obj: &Map<String, Value>, defaults: &Defaults) -> Res<Parsed> {
    let ctx = Ctx { id };
    if let Some(a) = obj.get("action") {
        let Some(a) = a.as_str() else {
            return ctx.err("action", "'action' field must be a string");
        };
        let action = parse_action(&ctx, a, obj)?;
        return Ok(Parsed::Action {
            id: id.to_string(),
            action,
            echo: obj.clone(),
        });
    }
    let mut warnings = Vec::new();

    // Board size: square only.
    let size_msg = format!("Must provide an integer from {MIN_SIZE} to {MAX_SIZE}");
    let mut dims = [0usize; 2];
    for (i, f) in ["boardXSize", "boardYSize"].iter().enumerate() {
        let Some(v) = obj.get(*f) else {
            return ctx.err(f, size_msg);
        };
        dims[i] = ctx.integer(v, f, MIN_SIZE as i64, MAX_SIZE as i64, &size_msg)? as usize;
    }
    if dims[0] != dims[1] {
        return ctx.err(
            "boardYSize",
            format!(
                "Kosumi plays on square boards only: boardXSize {} and boardYSize {} differ",
                dims[0], dims[1]
            ),
        );
    }
    let size = dims[0];

    let stones = match obj.get("initialStones") {
        Some(v) => moves_list(&ctx, v, "initialStones", size, false)?,
        None => Vec::new(),
    };
    let moves = match obj.get("moves") {
        Some(v) => moves_list(&ctx, v, "moves", size, true)?,
        None => return ctx.err("moves", "Must specify an array of [player,location] pairs"),
    };
    let initial_player = match obj.get("initialPlayer") {
        Some(v) => Some(ctx.player(v, "initialPlayer")?),
        None => None,
    };

    let mut analyze = vec![false; moves.len() + 1];
    let mut turn_list: Option<Vec<i64>> = None;
    match obj.get("analyzeTurns") {
        Some(v) => {
            let Some(turns) = int_list(v) else {
                return ctx.err(
                    "analyzeTurns",
                    "Must specify an array of integers indicating turns to analyze",
                );
            };
            for &t in &turns {
                if t < 0 || t as usize >= analyze.len() {
                    return ctx.err("analyzeTurns", format!("Invalid turn number: {t}"));
                }
                analyze[t as usize] = true;
            }
            turn_list = Some(turns);
        }
        None => analyze[moves.len()] = true,
    }

    let mut priorities: Option<Vec<(usize, i64)>> = None;
    if let Some(v) = obj.get("priorities") {
        let Some(list) = int_list(v) else {
            return ctx.err(
                "priorities",
                "Must specify an array of integers indicating priorities",
            );
        };
        let Some(turns) = &turn_list else {
            return ctx.err(
                "priorities",
                "Can only specify when also specifying analyzeTurns",
            );
        };
        if list.len() != turns.len() {
            return ctx.err("priorities", "Must be of matching length to analyzeTurns");
        }
        if let Some(p) = list.iter().find(|p| p.abs() > MAX_PRIORITY) {
            return ctx.err("priorities", format!("Invalid priority: {p}"));
        }
        priorities = Some(turns.iter().map(|&t| t as usize).zip(list).collect());
    }

    let rules = match obj.get("rules") {
        Some(v) => parse_rules(v).or_else(|e| ctx.err("rules", e))?,
        None => {
            return ctx.err("rules", "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.")
        }
    };

    let komi_msg = "Must be a integer or half-integer from -150.0 to 150.0";
    let komi = match obj.get("komi") {
        Some(v) => {
            let k = ctx.number(v, "komi", -150.0, 150.0, komi_msg)?;
            if (k * 2.0).fract() != 0.0 {
                return ctx.err("komi", komi_msg);
            }
            k as f32
        }
        None if rules.scoring == Scoring::Territory => 6.5,
        None => 7.5,
    };
    let komi = Komi::new(komi).or_else(|e| ctx.err("komi", e.to_string()))?;

    if let Some(v) = obj.get("whiteHandicapBonus") {
        match v.as_str() {
            Some("0") => {}
            Some("N") | Some("N-1") => warnings.push(Message::warning(
                id,
                "whiteHandicapBonus",
                "Kosumi gives White no handicap bonus: fold it into komi",
            )),
            Some(_) => return ctx.err("whiteHandicapBonus", "Must be \"0\", \"N\" or \"N-1\""),
            None => return ctx.err("whiteHandicapBonus", "Must be a string"),
        }
    }

    let mut cfg = defaults.cfg.clone();
    let mut visits = defaults.visits;
    let mut time = None;
    let mut perspective = defaults.perspective;
    let mut pv_len = defaults.pv_len;
    if let Some(v) = obj.get("overrideSettings") {
        let Some(settings) = v.as_object() else {
            return ctx.err("overrideSettings", "Must be an object");
        };
        let mut unknown = Vec::new();
        for (key, val) in settings {
            let text = match val {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let fail =
                |why: String| ctx.err("overrideSettings", format!("Could not set settings: {why}"));
            let positive = |x: &str| -> Result<f64, String> {
                match x.parse::<f64>() {
                    Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
                    _ => Err(format!("{key} must be a positive number, not {}", clip(x))),
                }
            };
            match key.as_str() {
                "maxVisits" | "maxPlayouts" => match positive(&text) {
                    Ok(n) if n <= MAX_VISITS as f64 => visits = n as u64,
                    Ok(_) => return fail(format!("{key} must be at most 2^50")),
                    Err(e) => return fail(e),
                },
                "maxTime" => match positive(&text) {
                    Ok(n) if n <= 86_400.0 => time = Some(n),
                    Ok(_) => return fail(format!("{key} must be at most 86400")),
                    Err(e) => return fail(e),
                },
                "reportAnalysisWinratesAs" => match Perspective::parse(&text) {
                    Ok(p) => perspective = p,
                    Err(e) => return fail(e),
                },
                "analysisPVLen" => match text.parse::<usize>() {
                    Ok(n) if (1..=1000).contains(&n) => pv_len = n,
                    _ => return fail(format!("{key} must be an integer from 1 to 1000")),
                },
                // KataGo's coefficient of its PUCT term, the form of the
                // search's policy term.
                "cpuctExploration" => match positive(&text) {
                    Ok(n) if n <= 100.0 => cfg.puct = n,
                    _ => return fail(format!("{key} must be a number above 0, at most 100")),
                },
                "numSearchThreads" => match text.parse::<usize>() {
                    Ok(n) if (1..=256).contains(&n) => cfg.threads = n,
                    _ => return fail(format!("{key} must be an integer from 1 to 256")),
                },
                k => {
                    let mut probe = cfg.clone();
                    match probe.set(&format!("{k}={text}")) {
                        Ok(()) => cfg = probe,
                        Err(e) if e.contains("unknown") => unknown.push(k.to_string()),
                        Err(e) => return fail(e),
                    }
                }
            }
        }
        if !unknown.is_empty() {
            warnings.push(Message::warning(
                id,
                "overrideSettings",
                format!("Unknown config params: {}", unknown.join(",")),
            ));
        }
    }

    if let Some(v) = obj.get("maxVisits") {
        visits = ctx.integer(
            v,
            "maxVisits",
            1,
            MAX_VISITS,
            "Must be an integer from 1 to 2^50",
        )? as u64;
    }
    if let Some(v) = obj.get("analysisPVLen") {
        pv_len = ctx.integer(
            v,
            "analysisPVLen",
            1,
            1000,
            "Must be an integer from 1 to 1000",
        )? as usize;
    }
    let mut flags = [false; 3];
    for (i, f) in [
        "includeOwnership",
        "includeMovesOwnership",
        "includePVVisits",
    ]
    .iter()
    .enumerate()
    {
        if let Some(v) = obj.get(*f) {
            flags[i] = ctx.boolean(v, f)?;
        }
    }
    let mut policy = false;
    if let Some(v) = obj.get("includePolicy") {
        if ctx.boolean(v, "includePolicy")? {
            match cfg.nn.net.as_ref() {
                Some(net) if net.covers(size) => policy = true,
                Some(_) => warnings.push(Message::warning(
                    id,
                    "includePolicy",
                    "Kosumi's network was not trained on this board size: this field is left out of the responses",
                )),
                None => warnings.push(Message::warning(
                    id,
                    "includePolicy",
                    "Kosumi runs without a neural net (--nn none): this field is left out of the responses",
                )),
            }
        }
    }
    for f in ["includeOwnershipStdev", "includeMovesOwnershipStdev"] {
        if let Some(v) = obj.get(f) {
            if ctx.boolean(v, f)? {
                warnings.push(Message::warning(
                    id,
                    f,
                    "Kosumi's network has no ownership head: this field is left out of the responses",
                ));
            }
        }
    }
    for f in ["rootPolicyTemperature", "rootFpuReductionMax"] {
        if obj.contains_key(f) {
            warnings.push(Message::warning(
                id,
                f,
                "Kosumi's search has no such parameter: ignored",
            ));
        }
    }
    let seconds = "Must be number of seconds from 0.001 to 1000000.0";
    let mut report_every = None;
    if let Some(v) = obj.get("reportDuringSearchEvery") {
        report_every = Some(ctx.number(v, "reportDuringSearchEvery", 0.001, 1e6, seconds)?);
    }
    if let Some(v) = obj.get("firstReportDuringSearchAfter") {
        let first = ctx.number(v, "firstReportDuringSearchAfter", 0.001, 1e6, seconds)?;
        report_every.get_or_insert(first);
    }
    let mut priority = 0;
    if let Some(v) = obj.get("priority") {
        if priorities.is_some() {
            return ctx.err("priority", "Cannot specify both priority and priorities");
        }
        priority = ctx.integer(
            v,
            "priority",
            -MAX_PRIORITY,
            MAX_PRIORITY,
            "Must be a number between -2^62 and 2^62",
        )?;
    }

    let filter = parse_filter(&ctx, obj, size)?;

    // The game, turn by turn.
    let mut game =
        Game::new(size, rules, komi).or_else(|e| ctx.err("boardXSize", e.to_string()))?;
    for c in Color::ALL {
        let pts: Vec<Point> = stones
            .iter()
            .filter(|(sc, _)| *sc == c)
            .filter_map(|(_, m)| m.point())
            .collect();
        if !pts.is_empty() {
            if let Err(e) = game.add_setup_stones(c, &pts) {
                return ctx.err("initialStones", format!("Illegal initial stones: {e}"));
            }
        }
    }
    let handicap_like = stones.len() >= 2 && stones.iter().all(|(c, _)| *c == Color::Black);
    let first = initial_player.unwrap_or(match moves.first() {
        Some((c, _)) => *c,
        None if handicap_like => Color::White,
        None => Color::Black,
    });
    game.set_to_move(first);
    let mut jobs = Vec::new();
    for (turn, &wanted) in analyze.iter().enumerate() {
        if wanted {
            let priority = priorities
                .as_ref()
                .and_then(|p| p.iter().find(|(t, _)| *t == turn).map(|(_, p)| *p))
                .unwrap_or(priority);
            jobs.push(Job {
                id: id.to_string(),
                turn,
                color: game.to_move(),
                game: game.clone(),
                cfg: cfg.clone(),
                visits,
                time,
                perspective,
                ownership: flags[0],
                moves_ownership: flags[1],
                pv_visits: flags[2],
                policy,
                pv_len,
                report_every,
                priority,
                filter: filter.clone(),
            });
        }
        let Some(&(c, mv)) = moves.get(turn) else {
            break;
        };
        if let Err(e) = game.play(c, mv) {
            return ctx.err(
                "moves",
                format!("Illegal move {turn}: {} ({e})", mv.to_gtp(size)),
            );
        }
    }
    Ok(Parsed::Jobs { jobs, warnings })
}

fn parse_filter(ctx: &Ctx<'_>, obj: &Map<String, Value>, size: usize) -> Res<MoveFilter> {
    let mut filter = MoveFilter::default();
    let allow = obj.get("allowMoves");
    let avoid = obj.get("avoidMoves");
    let (field, list) = match (allow, avoid) {
        (None, None) => return Ok(filter),
        (Some(_), Some(_)) => {
            return ctx.err(
                "allowMoves",
                "Cannot specify both allowMoves and avoidMoves",
            )
        }
        (Some(a), None) => ("allowMoves", a),
        (None, Some(a)) => ("avoidMoves", a),
    };
    let Some(list) = list.as_array() else {
        return ctx.err(field, AVOID);
    };
    if field == "allowMoves" && list.len() > 1 {
        return ctx.err(field, "Currently allowMoves only allows one entry");
    }
    for entry in list {
        let (Some(p), Some(m), Some(u)) = (
            entry.get("player"),
            entry.get("moves"),
            entry.get("untilDepth"),
        ) else {
            return ctx.err(field, AVOID);
        };
        let color = ctx.player(p, field)?;
        let Some(locs) = m.as_array() else {
            return ctx.err(field, "Must be an array of GTP board vertices");
        };
        let mut moves = Vec::with_capacity(locs.len());
        for l in locs {
            let Some(s) = l.as_str() else {
                return ctx.err(field, "Must be an array of GTP board vertices");
            };
            match parse_location(s, size) {
                Some(mv) => moves.push(mv),
                None => {
                    return ctx.err(
                        field,
                        format!("Could not parse board location: {}", clip(s)),
                    )
                }
            }
        }
        let until = ctx.integer(u, field, 1, 1_000_000_000, "Must be a positive integer")?;
        let until = until.min(u16::MAX as i64) as u16;
        if field == "allowMoves" {
            filter.allow_only(color, &moves, until);
        } else {
            filter.avoid(color, &moves, until);
        }
    }
    Ok(filter)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Defaults {
        Defaults {
            cfg: SearchConfig::default(),
            visits: 100,
            perspective: Perspective::Black,
            pv_len: 10,
        }
    }

    fn error_field(line: &str) -> Option<String> {
        match parse_line(line, &defaults()) {
            Parsed::Error(m) => {
                assert!(m.error.is_some());
                m.field
            }
            other => panic!("expected an error for {line}, got {other:?}"),
        }
    }

    #[test]
    fn turns_become_jobs_with_their_side_to_move() {
        let q = r#"{"id":"q","moves":[["B","D4"],["W","Q16"]],"rules":"japanese","komi":6.5,
            "boardXSize":19,"boardYSize":19,"analyzeTurns":[2,0],"priorities":[3,4]}"#
            .replace('\n', "");
        let Parsed::Jobs { jobs, warnings } = parse_line(&q, &defaults()) else {
            panic!("not jobs");
        };
        assert!(warnings.is_empty());
        assert_eq!(jobs.len(), 2);
        assert_eq!(
            (jobs[0].turn, jobs[0].color, jobs[0].priority),
            (0, Color::Black, 4)
        );
        assert_eq!(
            (jobs[1].turn, jobs[1].color, jobs[1].priority),
            (2, Color::Black, 3)
        );
        assert_eq!(jobs[1].game.moves().len(), 2);
        assert_eq!(jobs[1].game.rules(), Rules::JAPANESE);
        assert_eq!(jobs[1].game.komi().get(), 6.5);
        assert_eq!(jobs[0].visits, 100);
    }

    #[test]
    fn cpuct_exploration_sets_the_policy_term() {
        let q = r#"{"id":"q","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,
            "overrideSettings":{"cpuctExploration":1.25}}"#
            .replace('\n', "");
        let Parsed::Jobs { jobs, warnings } = parse_line(&q, &defaults()) else {
            panic!("not jobs");
        };
        assert!(warnings.is_empty());
        assert_eq!(jobs[0].cfg.puct, 1.25);
        assert_eq!(jobs[0].cfg.uct_c, defaults().cfg.uct_c);
        let line = r#"{"id":"x","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"overrideSettings":{"cpuctExploration":0}}"#;
        assert_eq!(error_field(line).as_deref(), Some("overrideSettings"));
    }

    #[test]
    fn errors_name_their_field() {
        let ok = r#""moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9"#;
        assert_eq!(error_field("{"), None);
        assert_eq!(error_field("{\"moves\":[]}").as_deref(), Some("id"));
        for (extra, field) in [
            (r#","maxVisits":-3"#, "maxVisits"),
            (r#","komi":1000"#, "komi"),
            (r#","analyzeTurns":[1]"#, "analyzeTurns"),
            (
                r#","priority":1,"priorities":[1],"analyzeTurns":[0]"#,
                "priority",
            ),
            (r#","allowMoves":[],"avoidMoves":[]"#, "allowMoves"),
            (
                r#","overrideSettings":{"uct_c":"many"}"#,
                "overrideSettings",
            ),
        ] {
            let line = format!("{{\"id\":\"x\",{ok}{extra}}}");
            assert_eq!(error_field(&line).as_deref(), Some(field), "{line}");
        }
        let line = r#"{"id":"x","moves":[["B","pass"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"initialStones":[["B","pass"]]}"#;
        assert_eq!(error_field(line).as_deref(), Some("initialStones"));
    }

    #[test]
    fn locations_and_rules_read_as_katago_writes_them() {
        assert_eq!(
            parse_location("(0,0)", 9),
            Some(Move::Play(Point::new(0, 0)))
        );
        assert_eq!(parse_location("A9", 9), Some(Move::Play(Point::new(0, 0))));
        assert_eq!(parse_location("(9,0)", 9), None);
        assert_eq!(parse_location("pass", 9), Some(Move::Pass));
        assert_eq!(parse_rules(&Value::from("korean")), Ok(Rules::JAPANESE));
        assert_eq!(
            parse_rules(&Value::from("tromp-taylor")),
            Ok(Rules::TROMP_TAYLOR)
        );
        assert!(parse_rules(&Value::from("aga-button")).is_err());
        let obj: Value =
            serde_json::from_str(r#"{"ko":"SITUATIONAL","scoring":"AREA","suicide":true}"#)
                .unwrap();
        assert_eq!(parse_rules(&obj), Ok(Rules::NEW_ZEALAND));
        let tax: Value = serde_json::from_str(r#"{"tax":"ALL"}"#).unwrap();
        assert!(parse_rules(&tax).is_err());
    }

    #[test]
    fn perspective_signs() {
        assert_eq!(Perspective::Black.sign(Color::White), -1.0);
        assert_eq!(Perspective::White.sign(Color::White), 1.0);
        assert_eq!(Perspective::Side.sign(Color::White), 1.0);
        assert_eq!(Perspective::parse("SIDETOMOVE"), Ok(Perspective::Side));
        assert!(Perspective::parse("both").is_err());
    }
}

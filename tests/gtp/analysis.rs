//! Live analysis for Sabaki: the `info` line format read back with a
//! Sabaki-style parser, the engine in process with a playout limit
//! (deterministic), and the built binary interrupted by the next command
//! as Sabaki does it (`protocol_version` after `lz-analyze`).

use kosumi::color::Color;
use kosumi::game::Game;
use kosumi::gtp::info::{info_line, info_line_with, Show};
use kosumi::gtp::{Config, Dialect, Engine};
use kosumi::mcts::{Analysis, Analyzer, CandidateInfo, MctsPlayer, SearchConfig};
use kosumi::player::{Decision, GenmoveRequest, MoveFilter, Player};
use kosumi::point::{parse_gtp_move, Move};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_kosumi");

/// One variation as Sabaki reads it.
#[derive(Debug, PartialEq)]
struct Variation {
    pairs: Vec<(String, String)>,
    pv: Vec<String>,
}

fn is_vertex(t: &str) -> bool {
    t == "pass" || {
        let mut c = t.chars();
        c.next().is_some_and(|x| x.is_ascii_alphabetic())
            && !c.as_str().is_empty()
            && c.as_str().bytes().all(|b| b.is_ascii_digit())
    }
}

/// Sabaki's algorithm (CLIENTS.md 2.1): split on `info`, the PV is the
/// longest suffix of vertices (cut at a pass), the tokens before it minus
/// the `pv` keyword are key/value pairs; a piece without PV is dropped.
fn sabaki_parse(line: &str) -> Vec<Variation> {
    let mut out = Vec::new();
    for piece in line.split("info ").skip(1) {
        let toks: Vec<&str> = piece.split_whitespace().collect();
        let mut start = toks.len();
        while start > 0 && is_vertex(toks[start - 1]) {
            start -= 1;
        }
        if start == toks.len() || start == 0 {
            continue;
        }
        let pv: Vec<String> = toks[start..]
            .iter()
            .take_while(|t| **t != "pass")
            .map(|t| t.to_string())
            .collect();
        let keys = &toks[..start - 1];
        assert_eq!(toks[start - 1], "pv", "pv is not the last key: {piece}");
        assert_eq!(keys.len() % 2, 0, "odd key/value tokens: {piece}");
        let pairs = keys
            .chunks(2)
            .map(|kv| (kv[0].to_string(), kv[1].to_string()))
            .collect();
        out.push(Variation { pairs, pv });
    }
    out
}

fn get<'a>(v: &'a Variation, key: &str) -> &'a str {
    &v.pairs.iter().find(|(k, _)| k == key).unwrap().1
}

fn mv(s: &str) -> Move {
    parse_gtp_move(s, 19).unwrap()
}

fn sample() -> Analysis {
    let cand = |m: &str, visits, winrate, prior, lcb, order, pv: &[&str]| CandidateInfo {
        mv: mv(m),
        visits,
        winrate,
        prior,
        lcb,
        order,
        pv: pv.iter().map(|s| mv(s)).collect(),
        pv_visits: (0..pv.len() as u32).map(|k| visits >> k).collect(),
        score_lead: -1.5,
        score_stdev: 20.25,
    };
    Analysis {
        color: Color::White,
        visits: 1000,
        playouts: 1000,
        winrate: 0.4656,
        score_lead: -1.0,
        root_winrate: 0.45,
        root_score_lead: -1.25,
        root_score_stdev: 21.5,
        unvisited: vec![cand("K10", 0, 0.5, 0.004, 0.0, 0, &["K10"])],
        candidates: vec![
            cand(
                "D4",
                836,
                0.465612,
                0.0839,
                0.464,
                0,
                &["D4", "Q16", "pass", "C3"],
            ),
            cand("pass", 100, 0.3, 0.01, 0.25, 1, &["pass"]),
            cand("Q16", 60, 0.41, 0.2, 0.3, 2, &["Q16"]),
        ],
        ownership: (0..361)
            .map(|i| if i < 180 { 0.5 } else { -0.25 })
            .collect(),
    }
}

#[test]
fn lz_line_reads_back_as_sabaki_reads_it() {
    let line = info_line(&sample(), 19, Dialect::Lz, false).unwrap();
    assert_eq!(
        line,
        "info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 \
         info move Q16 visits 60 winrate 4100 prior 2000 lcb 3000 order 1 pv Q16"
    );
    let vars = sabaki_parse(&line);
    assert_eq!(vars.len(), 2, "the pass candidate is not shown");
    assert_eq!(get(&vars[0], "move"), "D4");
    assert_eq!(get(&vars[0], "visits"), "836");
    assert_eq!(vars[0].pv, ["D4", "Q16"], "PV cut at the pass");
    assert_eq!(get(&vars[1], "order"), "1");
}

#[test]
fn kata_line_has_decimals_and_an_ownership_block() {
    let line = info_line(&sample(), 19, Dialect::Kata, true).unwrap();
    let (info, own) = line.split_once(" ownership ").unwrap();
    let vars = sabaki_parse(info);
    assert_eq!(get(&vars[0], "winrate"), "0.465612");
    assert_eq!(get(&vars[1], "prior"), "0.200000");
    let values: Vec<f32> = own.split(' ').map(|v| v.parse().unwrap()).collect();
    assert_eq!(values.len(), 361);
    // For White, the side analysed: Black's half is negative.
    assert_eq!(values[0], -0.5);
    assert_eq!(values[360], 0.25);
    let mut empty = sample();
    empty.candidates.retain(|c| c.mv == Move::Pass);
    assert_eq!(info_line(&empty, 19, Dialect::Kata, true), None);
}

fn search_engine(playouts: u64) -> Engine {
    let cfg = SearchConfig {
        threads: 1,
        seed: 7,
        max_playouts: Some(playouts),
        ..SearchConfig::default()
    };
    Engine::with_search(
        Config {
            size: 9,
            playouts: Some(playouts),
            ..Config::default()
        },
        MctsPlayer::new(cfg),
    )
}

#[test]
fn analysis_in_process_is_deterministic_and_well_framed() {
    let run = || {
        let mut e = search_engine(300);
        e.execute(b"play b e5").unwrap();
        // A huge interval: only the final line (the playout limit ends it).
        e.execute(b"3 lz-analyze w 360000").unwrap()
    };
    let a = run();
    assert_eq!(a, run(), "same seed, same analysis");
    assert!(a.starts_with("=3\ninfo move "), "{a}");
    assert!(a.ends_with("\n\n") && !a[..a.len() - 2].contains("\n\n"));
    let lines: Vec<&str> = a.trim_end().lines().collect();
    assert_eq!(lines.len(), 2);
    let vars = sabaki_parse(lines[1]);
    assert!(!vars.is_empty());
    let total: u32 = vars
        .iter()
        .map(|v| get(v, "visits").parse::<u32>().unwrap())
        .sum();
    assert!(total > 0 && total <= 300, "visits {total}");
    let mut e = search_engine(200);
    let k = e.execute(b"kata-analyze b 360000 ownership true").unwrap();
    let own = k.trim_end().split(" ownership ").nth(1).unwrap();
    assert_eq!(own.split(' ').count(), 81);
    assert!(e
        .execute(b"kata-analyze b 50 ownership maybe")
        .unwrap()
        .starts_with("? "));
    assert!(e
        .execute(b"lz-analyze b 50 foo 1")
        .unwrap()
        .starts_with("? "));
    // genmove_analyze ends with the move, and plays it.
    let g = e.execute(b"lz-genmove_analyze b 360000").unwrap();
    let last = g.trim_end().lines().last().unwrap();
    let v = last.strip_prefix("play ").unwrap();
    let m = parse_gtp_move(v, 9).unwrap();
    assert!(g.ends_with("\n\n"));
    assert_eq!(e.game().moves().last().map(|p| p.mv), Some(m));
    assert_eq!(e.game().moves().len(), 1);
}

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Proc {
    fn start(args: &[&str]) -> Proc {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Proc {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, s: &str) {
        self.stdin.write_all(s.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&mut self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(60))
            .expect("no output from the engine")
    }

    fn quit(mut self) {
        self.send("quit");
        assert_eq!(self.line(), "= ");
        assert_eq!(self.child.wait().unwrap().code(), Some(0));
    }
}

/// Sends `cmd`, waits for an info line, interrupts with
/// `protocol_version`; returns the info line seen.
fn analyze_then_interrupt(p: &mut Proc, cmd: &str) -> String {
    p.send(cmd);
    assert_eq!(p.line(), "=");
    let info = p.line();
    assert!(info.starts_with("info move "), "{info}");
    p.send("protocol_version");
    // More updates may come before the stop; then the empty line.
    loop {
        let l = p.line();
        if l.is_empty() {
            break;
        }
        assert!(l.starts_with("info move "), "{l}");
    }
    assert_eq!(p.line(), "= 2");
    assert_eq!(p.line(), "");
    info
}

#[test]
fn the_next_command_stops_analysis_at_the_built_binary() {
    let mut p = Proc::start(&["--threads", "1", "--seed", "3", "--size", "9"]);
    p.send("play b e5");
    assert_eq!(p.line(), "= ");
    assert_eq!(p.line(), "");
    let info = analyze_then_interrupt(&mut p, "lz-analyze W 10");
    assert!(!sabaki_parse(&info).is_empty());
    let info = analyze_then_interrupt(&mut p, "kata-analyze B 10 ownership true");
    let own = info.split(" ownership ").nth(1).unwrap();
    assert_eq!(own.split(' ').count(), 81);
    // Pipelined behind the analysis: both answered, in order.
    p.send("lz-analyze B 10\nname\nprotocol_version");
    assert_eq!(p.line(), "=");
    loop {
        if p.line().is_empty() {
            break;
        }
    }
    assert_eq!(p.line(), "= Kosumi");
    assert_eq!(p.line(), "");
    assert_eq!(p.line(), "= 2");
    assert_eq!(p.line(), "");
    p.quit();
}

#[test]
fn genmove_analyze_at_the_built_binary_ends_with_a_legal_play() {
    let mut p = Proc::start(&[
        "--threads",
        "1",
        "--seed",
        "5",
        "--size",
        "9",
        "--playouts",
        "400",
    ]);
    p.send("play b e5");
    assert_eq!(p.line(), "= ");
    assert_eq!(p.line(), "");
    p.send("lz-genmove_analyze w 5");
    assert_eq!(p.line(), "=");
    let mut last = String::new();
    loop {
        let l = p.line();
        if l.is_empty() {
            break;
        }
        last = l;
    }
    let v = last
        .strip_prefix("play ")
        .expect("ends with play")
        .to_string();
    let m = parse_gtp_move(&v, 9).unwrap();
    assert!(matches!(m, Move::Play(_)), "{v}");
    p.send("list_stones w");
    assert_eq!(p.line(), format!("= {v}"));
    assert_eq!(p.line(), "");
    p.quit();
}

/// `genmove b`, a pause of `wait`, then `play w` on E5 or (if Black took
/// it) D4; checks both answers.
fn genmove_b_then_play_w(p: &mut Proc, wait: Duration) {
    p.send("genmove b");
    let v = p
        .line()
        .strip_prefix("= ")
        .expect("genmove answered")
        .to_string();
    assert_eq!(p.line(), "");
    std::thread::sleep(wait);
    let reply = if v.eq_ignore_ascii_case("E5") {
        "d4"
    } else {
        "e5"
    };
    p.send(&format!("play w {reply}"));
    assert_eq!(p.line(), "= ");
    assert_eq!(p.line(), "");
}

#[test]
fn pondering_stops_at_the_next_command() {
    let mut p = Proc::start(&[
        "--threads",
        "1",
        "--seed",
        "2",
        "--size",
        "9",
        "--playouts",
        "200",
        "--ponder",
    ]);
    // The engine thinks on White's time until `play w` arrives.
    genmove_b_then_play_w(&mut p, Duration::from_millis(200));
    p.send("genmove b\nprotocol_version");
    let second = p.line();
    let m = parse_gtp_move(second.strip_prefix("= ").unwrap(), 9).unwrap();
    assert!(matches!(m, Move::Play(_)), "{second}");
    assert_eq!(p.line(), "");
    assert_eq!(p.line(), "= 2");
    assert_eq!(p.line(), "");
    p.quit();
}

#[test]
fn queued_lines_stop_analysis_and_are_answered_in_order() {
    let mut e = search_engine(100_000);
    let input =
        b"kata-analyze b 1 ownership true\n2 name\nlz-analyze w 1\nprotocol_version\n".to_vec();
    let mut out = Vec::new();
    kosumi::gtp::io::run(&mut e, std::io::Cursor::new(input), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    // Each analysis: the `=` line, maybe updates, then the empty line.
    let parts: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(parts.len(), 5, "{out}");
    assert!(parts[0].starts_with('='));
    assert_eq!(parts[1], "=2 Kosumi");
    assert!(parts[2].starts_with('='));
    assert_eq!(parts[3], "= 2");
    assert_eq!(parts[4], "");
    for p in [parts[0], parts[2]] {
        for l in p.lines().skip(1) {
            assert!(l.starts_with("info move "), "{l}");
        }
    }
}

#[test]
fn end_of_input_stops_analysis_and_exits_0() {
    let mut p = Proc::start(&["--threads", "1", "--size", "9", "--ponder"]);
    p.send("genmove b\nlz-analyze w 10");
    let Proc {
        mut child,
        stdin,
        lines,
    } = p;
    drop(stdin);
    let mut all = Vec::new();
    while let Ok(l) = lines.recv_timeout(Duration::from_secs(60)) {
        all.push(l);
    }
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(all[0].starts_with("= "), "{all:?}");
    assert_eq!(all[1], "");
    assert_eq!(all[2], "=");
    assert_eq!(all.last().map(String::as_str), Some(""), "{all:?}");
}

#[test]
fn gogui_pv_and_candidates_come_from_a_short_search() {
    let mut e = search_engine(300);
    e.execute(b"play b e5").unwrap();
    let pv = e.execute(b"kosumi-pv w").unwrap();
    let toks: Vec<&str> = pv.trim_end().trim_start_matches("= ").split(' ').collect();
    assert!(toks.len() >= 2 && toks.len().is_multiple_of(2), "{pv}");
    for (i, pair) in toks.chunks(2).enumerate() {
        assert_eq!(pair[0], if i % 2 == 0 { "W" } else { "B" }, "{pv}");
        parse_gtp_move(pair[1], 9).unwrap();
    }
    // The first move of the PV is a legal move for White here.
    let first = parse_gtp_move(toks[1], 9).unwrap();
    assert!(e.game().is_legal(Color::White, first), "{pv}");
    let c = e.execute(b"kosumi-candidates w").unwrap();
    let toks: Vec<&str> = c.trim_end().trim_start_matches("= ").split(' ').collect();
    assert!(toks.len().is_multiple_of(2), "{c}");
    let mut total = 0;
    for pair in toks.chunks(2) {
        assert!(
            matches!(parse_gtp_move(pair[0], 9), Ok(Move::Play(_))),
            "{c}"
        );
        total += pair[1].parse::<u32>().unwrap();
    }
    // Two searches of 300 playouts on the same position: the second reuses
    // the first one's tree.
    assert!(total > 300 && total <= 600, "{c}");
    let random = Engine::with_random_player(Config::default()).execute(b"kosumi-pv");
    assert!(random.unwrap().starts_with("? "));
}

/// The search player, publishing the playouts of the analysis it runs
/// now (pondering included) in `playouts`.
struct Watched {
    inner: MctsPlayer,
    playouts: Arc<AtomicU64>,
}

impl Player for Watched {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        self.inner.genmove(req)
    }
    fn analyzer(&mut self) -> Option<&mut dyn Analyzer> {
        Some(self)
    }
    fn clear(&mut self) {
        self.inner.clear();
    }
}

impl Analyzer for Watched {
    fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        playouts: Option<u64>,
        stop: Option<&AtomicBool>,
        _interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let seen = self.playouts.clone();
        let a = Analyzer::analyze(
            &mut self.inner,
            game,
            color,
            playouts,
            stop,
            Duration::from_millis(5),
            filter,
            &mut |a: &Analysis| {
                seen.store(a.playouts, Ordering::SeqCst);
                on_update(a);
            },
        );
        seen.store(a.playouts, Ordering::SeqCst);
        a
    }
    fn genmove_analyze(
        &mut self,
        req: &GenmoveRequest<'_>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Decision {
        self.inner
            .genmove_analyze_filtered(req, interval, filter, on_update)
    }
}

/// Input lines for the engine's I/O loop, sent by the test.
struct Lines {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for Lines {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            match self.rx.recv() {
                Ok(b) => (self.buf, self.at) = (b, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The engine's output, passed on to the test.
struct Sink(mpsc::Sender<Vec<u8>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(b.to_vec());
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The search engine (one thread, 200 playouts a move) under the I/O loop
/// in a thread of its own: its input, its output, and the playouts of
/// the analysis it runs now.
struct Looped {
    input: mpsc::Sender<Vec<u8>>,
    output: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    playouts: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Looped {
    fn start(ponder: bool) -> Looped {
        let playouts = Arc::new(AtomicU64::new(0));
        let player = Watched {
            inner: MctsPlayer::new(SearchConfig {
                threads: 1,
                seed: 3,
                max_playouts: Some(200),
                ..SearchConfig::default()
            }),
            playouts: playouts.clone(),
        };
        let config = Config {
            size: 9,
            playouts: Some(200),
            ponder,
            ..Config::default()
        };
        let (input, rx) = mpsc::channel();
        let (tx, output) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            let mut e = Engine::new(config, Box::new(player));
            let lines = Lines {
                rx,
                buf: Vec::new(),
                at: 0,
            };
            kosumi::gtp::io::run(&mut e, lines, Sink(tx)).expect("the loop ends well");
        });
        Looped {
            input,
            output,
            pending: Vec::new(),
            playouts,
            thread: Some(thread),
        }
    }

    /// Sends `line` and returns the response without its blank line.
    fn ask(&mut self, line: &str) -> String {
        self.input
            .send(format!("{line}\n").into_bytes())
            .expect("engine reading");
        loop {
            if let Some(i) = self.pending.windows(2).position(|w| w == b"\n\n") {
                let r: Vec<u8> = self.pending.drain(..i + 2).collect();
                return String::from_utf8(r[..i].to_vec()).expect("UTF-8");
            }
            let more = self.output.recv().expect("engine answering");
            self.pending.extend(more);
        }
    }

    fn quit(mut self) {
        assert_eq!(self.ask("quit"), "= ");
        self.thread
            .take()
            .expect("running")
            .join()
            .expect("no panic");
    }
}

/// Plays `genmove b` and `play w` (a reply that is not Black's move) on
/// `e`; Black is then to move, and a pondering engine thinks about that
/// position until the next line.
fn genmove_b_then_reply(e: &mut Looped) {
    let v = e.ask("genmove b");
    let reply = if v.eq_ignore_ascii_case("= E5") {
        "d4"
    } else {
        "e5"
    };
    assert!(v.starts_with("= "), "{v}");
    assert_eq!(e.ask(&format!("play w {reply}")), "= ");
}

/// The visits `kosumi-candidates b` reports over all root moves (its own
/// 200 playouts plus what the tree held before).
fn candidate_visits(e: &mut Looped) -> u32 {
    let c = e.ask("kosumi-candidates b");
    let toks: Vec<&str> = c.trim_start_matches("= ").split(' ').collect();
    toks.chunks(2)
        .map(|pair| pair[1].parse::<u32>().expect("visits"))
        .sum()
}

#[test]
fn pondering_grows_the_tree_the_next_search_uses() {
    // Without pondering the root can hold at most the 200 playouts of the
    // genmove (the subtree of White's reply) plus its own 200.
    let mut quiet = Looped::start(false);
    genmove_b_then_reply(&mut quiet);
    let visits = candidate_visits(&mut quiet);
    assert!(visits <= 400, "{visits} visits without pondering");
    quiet.quit();
    // Pondering: wait (a bounded number of polls, however slow the
    // machine) until the search on the opponent's time has run 1,000
    // playouts, then the next search finds them under its root.
    let mut e = Looped::start(true);
    genmove_b_then_reply(&mut e);
    let mut polls = 0;
    while e.playouts.load(Ordering::SeqCst) < 1000 && polls < 600_000 {
        std::thread::sleep(Duration::from_millis(1));
        polls += 1;
    }
    let pondered = e.playouts.load(Ordering::SeqCst);
    assert!(pondered >= 1000, "pondering ran only {pondered} playouts");
    let visits = candidate_visits(&mut e);
    assert!(visits > 1000, "only {visits} visits after pondering");
    e.quit();
}

#[test]
fn a_corner_short_of_liberties_is_dead_not_seki() {
    // Black's five stones and White's two inner stones share the
    // liberties A2 and B1, and the rest of the board is White's. No seki:
    // White A2 gives up three stones, Black's capture on B1 leaves a bent
    // three in the corner, and White's A2 again kills (GNU Go 3.8's
    // `final_status_list dead` names the five black stones, its seki list
    // is empty). The search sees it since the shortage reading
    // (`shortage_self_atari`); before, it called the corner seki.
    let mut e = search_engine(1000);
    let setup = "boardsize 7\nkomi 0.5\nplay b a3\nplay b b3\nplay b c3\nplay b c2\n\
                 play b c1\nplay w b2\nplay w a1\nplay w a4\nplay w b4\nplay w c4\n\
                 play w d4\nplay w d3\nplay w d2\nplay w d1";
    for line in setup.lines() {
        e.execute(line.as_bytes()).unwrap();
    }
    let seki = e.execute(b"final_status_list seki").unwrap();
    assert_eq!(seki.trim_end(), "=", "{seki:?}");
    let dead = e.execute(b"final_status_list dead").unwrap();
    let mut names: Vec<&str> = dead.trim_start_matches("= ").split_whitespace().collect();
    names.sort();
    assert_eq!(names, ["A3", "B3", "C1", "C2", "C3"], "{dead}");
}

#[test]
fn a_seki_stays_a_seki_when_its_side_has_lost_anyway() {
    // White's C column and Black's D-E group share D6 and D7, the only
    // liberties of both; the outer groups live with two eyes each. Black
    // wins by 4.5 however White plays, so a search by the win rate alone
    // lets White fill D6 (every move loses) and called the C column dead
    // (B+20.5). GNU Go 3.8 lists both groups in seki, nothing dead, B+4.5.
    let mut e = search_engine(1000);
    e.execute(b"boardsize 7").unwrap();
    e.execute(b"komi 0.5").unwrap();
    let rows = [
        ".XO.XO.", "XXO.XOO", "XXOXXOO", "XXOXXOO", ".XOXXO.", "XXOXXOO", "XXOXXOO",
    ];
    for (i, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let color = match ch {
                'X' => "b",
                'O' => "w",
                _ => continue,
            };
            let vertex = format!("{}{}", "ABCDEFG".as_bytes()[x] as char, 7 - i);
            e.execute(format!("play {color} {vertex}").as_bytes())
                .unwrap();
        }
    }
    let dead = e.execute(b"final_status_list dead").unwrap();
    assert_eq!(dead.trim_end(), "=", "{dead:?}");
    let seki = e.execute(b"final_status_list seki").unwrap();
    let mut names: Vec<&str> = seki.trim_start_matches("= ").split_whitespace().collect();
    names.sort();
    assert_eq!(names.len(), 19, "{seki}");
    assert!(
        names.iter().all(|v| v.starts_with(['C', 'D', 'E'])),
        "{seki}"
    );
    let score = e.execute(b"final_score").unwrap();
    assert_eq!(score.trim_end(), "= B+4.5");
}

/// KataGo's fields as its GTP_Extensions.md lists them, read robustly to
/// order: `info` pieces of `key value` pairs where `pv`, `pvVisits` run to
/// the next known key, then an optional `rootInfo` block and an optional
/// `ownership` block of numbers.
#[derive(Debug, Default)]
struct KataLine {
    moves: Vec<Vec<(String, Vec<String>)>>,
    root: Vec<(String, Vec<String>)>,
    ownership: Vec<f32>,
}

fn kata_parse(line: &str) -> KataLine {
    const LISTS: [&str; 3] = ["pv", "pvVisits", "pvEdgeVisits"];
    let mut out = KataLine::default();
    let mut toks = line.split_whitespace().peekable();
    // Which block the pairs go to: 0 a move, 1 rootInfo.
    let mut block = 0;
    while let Some(t) = toks.next() {
        match t {
            "info" => {
                out.moves.push(Vec::new());
                block = 0;
            }
            "rootInfo" => block = 1,
            "ownership" => {
                out.ownership = toks.by_ref().map(|v| v.parse().unwrap()).collect();
            }
            key => {
                let mut values = Vec::new();
                if LISTS.contains(&key) {
                    while let Some(v) = toks.peek() {
                        if ["info", "rootInfo", "ownership"].contains(v) || LISTS.contains(v) {
                            break;
                        }
                        values.push(toks.next().unwrap().to_string());
                    }
                } else {
                    values.push(toks.next().expect("a value").to_string());
                }
                let pairs = if block == 0 {
                    out.moves.last_mut().expect("a key before any info")
                } else {
                    &mut out.root
                };
                pairs.push((key.to_string(), values));
            }
        }
    }
    out
}

fn field<'a>(pairs: &'a [(String, Vec<String>)], key: &str) -> &'a [String] {
    &pairs
        .iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no {key} in {pairs:?}"))
        .1
}

fn num(pairs: &[(String, Vec<String>)], key: &str) -> f64 {
    field(pairs, key)[0].parse().unwrap()
}

#[test]
fn kata_scores_come_before_the_pv_where_sabaki_reads_them() {
    let line = info_line(&sample(), 19, Dialect::Kata, false).unwrap();
    let vars = sabaki_parse(&line);
    assert_eq!(vars.len(), 2);
    assert_eq!(get(&vars[0], "scoreLead"), "-1.500000");
    assert_eq!(get(&vars[0], "scoreMean"), "-1.500000");
    assert_eq!(get(&vars[0], "scoreStdev"), "20.250000");
    assert_eq!(vars[0].pv, ["D4", "Q16"]);
    // Leela Zero's dialect has no scores.
    let lz = info_line(&sample(), 19, Dialect::Lz, false).unwrap();
    assert!(!lz.contains("score"), "{lz}");
}

#[test]
fn pv_visits_root_info_and_move_counts_as_katago_documents_them() {
    let show = Show {
        ownership: true,
        pv_visits: true,
        root_info: true,
        ..Show::default()
    };
    let line = info_line_with(&sample(), 19, Dialect::Kata, &show).unwrap();
    let k = kata_parse(&line);
    assert_eq!(k.moves.len(), 2, "{line}");
    // The PV stops at its pass, and so do its visits.
    assert_eq!(field(&k.moves[0], "pv"), ["D4", "Q16"]);
    assert_eq!(field(&k.moves[0], "pvVisits"), ["836", "418"]);
    assert_eq!(field(&k.moves[1], "pvVisits"), ["60"]);
    assert_eq!(num(&k.root, "visits"), 1000.0);
    assert_eq!(num(&k.root, "winrate"), 0.45);
    assert_eq!(num(&k.root, "scoreLead"), -1.25);
    assert_eq!(num(&k.root, "scoreStdev"), 21.5);
    assert_eq!(k.ownership.len(), 361);
    // rootInfo after the candidates, ownership last.
    assert!(line.find(" rootInfo ").unwrap() < line.find(" ownership ").unwrap());

    let count = |show: Show| {
        let l = info_line_with(&sample(), 19, Dialect::Kata, &show);
        l.map_or(0, |l| kata_parse(&l).moves.len())
    };
    // minmoves fills with the unvisited move (only one exists here).
    let k10 = info_line_with(
        &sample(),
        19,
        Dialect::Kata,
        &Show {
            min_moves: 5,
            ..Show::default()
        },
    )
    .unwrap();
    let k = kata_parse(&k10);
    assert_eq!(k.moves.len(), 3);
    assert_eq!(field(&k.moves[2], "move"), ["K10"]);
    assert_eq!(field(&k.moves[2], "visits"), ["0"]);
    assert_eq!(field(&k.moves[2], "order"), ["2"]);
    assert_eq!(
        count(Show {
            max_moves: 1,
            ..Show::default()
        }),
        1
    );
    assert_eq!(
        count(Show {
            max_moves: 0,
            ..Show::default()
        }),
        0
    );
}

/// `kata-analyze` at the engine in process with a playout limit; the
/// single final line, parsed.
fn kata_analyze(e: &mut Engine, args: &str) -> KataLine {
    let out = e
        .execute(format!("kata-analyze {args}").as_bytes())
        .unwrap();
    assert!(out.starts_with("=\ninfo move "), "{out}");
    let lines: Vec<&str> = out.trim_end().lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    kata_parse(lines[1])
}

#[test]
fn score_lead_is_the_lead_of_the_side_analysed() {
    // With komi -60 on 9x9 Black leads by about 60 whoever moves.
    let mut e = search_engine(400);
    e.execute(b"komi -60").unwrap();
    let b = kata_analyze(&mut e, "b 360000 rootInfo true");
    let w = kata_analyze(&mut e, "w 360000 rootInfo true");
    // A move seen by a few playouts shows their scores: anything from the
    // whole board White's (Black's lead -21) to the whole board Black's
    // (141, a single playout there once), so the size of the lead is asked
    // only of moves with some visits; the sign flips with the side.
    for m in &b.moves {
        let lead = num(m, "scoreLead");
        assert!((-21.0..=141.0).contains(&lead), "{m:?}");
        if num(m, "visits") >= 10.0 {
            assert!(lead > 30.0, "{m:?}");
        }
        assert_eq!(num(m, "scoreMean"), lead);
        assert!(num(m, "scoreStdev") >= 0.0, "{m:?}");
    }
    for m in &w.moves {
        let lead = num(m, "scoreLead");
        assert!((-141.0..=21.0).contains(&lead), "{m:?}");
        if num(m, "visits") >= 10.0 {
            assert!(lead < -30.0, "{m:?}");
        }
    }
    assert!(
        b.moves.iter().any(|m| num(m, "visits") >= 10.0),
        "{:?}",
        b.moves
    );
    assert!(
        w.moves.iter().any(|m| num(m, "visits") >= 10.0),
        "{:?}",
        w.moves
    );
    assert!(num(&b.root, "scoreLead") > 30.0, "{:?}", b.root);
    assert!(num(&w.root, "scoreLead") < -30.0, "{:?}", w.root);
    assert!(num(&b.root, "winrate") > 0.9, "{:?}", b.root);
    // The playouts' scores spread widely here (stdev about 40 points):
    // with the pattern priors White's root win rate is 0.100 at 400
    // playouts (seed 7), so the bound is 0.15 (was 0.1 with hand priors).
    assert!(num(&w.root, "winrate") < 0.15, "{:?}", w.root);
    // rootInfo counts every visit of the root: at least the candidates'.
    let shown: f64 = b.moves.iter().map(|m| num(m, "visits")).sum();
    assert!(num(&b.root, "visits") >= shown, "{:?}", b.root);
}

#[test]
fn pv_visits_count_down_the_pv_in_a_search() {
    let mut e = search_engine(600);
    e.execute(b"play b e5").unwrap();
    let k = kata_analyze(&mut e, "w 360000 pvVisits true pvEdgeVisits true");
    for m in &k.moves {
        // A tree, not a graph: edge visits are node visits.
        assert_eq!(field(m, "pvEdgeVisits"), field(m, "pvVisits"));
        let pv = field(m, "pv");
        let visits: Vec<u32> = field(m, "pvVisits")
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(pv.len(), visits.len(), "{m:?}");
        assert_eq!(visits[0] as f64, num(m, "visits"));
        assert!(visits.windows(2).all(|w| w[1] <= w[0]), "{m:?}");
    }
}

fn moves_of(k: &KataLine) -> Vec<String> {
    k.moves
        .iter()
        .map(|m| field(m, "move")[0].clone())
        .collect()
}

#[test]
fn avoid_and_allow_keep_moves_out_of_the_search() {
    let mut e = search_engine(600);
    e.execute(b"play b e5").unwrap();
    let near = ["D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6"];
    let plain = kata_analyze(&mut e, "w 360000");
    assert!(
        moves_of(&plain).iter().any(|m| near.contains(&m.as_str())),
        "the search likes the points next to E5: {:?}",
        moves_of(&plain)
    );
    // White may not play next to E5 at the root, nor on the 1st line
    // anywhere in the first three plies of the tree.
    let mut e = search_engine(600);
    e.execute(b"play b e5").unwrap();
    let args = format!(
        "w 360000 avoid w {} 1 avoid w A1,A2,A3,A4,A5,A6,A7,A8,A9 3 minmoves 200",
        near.join(",")
    );
    let k = kata_analyze(&mut e, &args);
    for m in &k.moves {
        let mv = &field(m, "move")[0];
        assert!(!near.contains(&mv.as_str()), "{mv}");
        let pv = field(m, "pv");
        // Depth 2 is White's again.
        if pv.len() > 2 {
            assert!(!pv[2].starts_with('A'), "{pv:?}");
        }
        assert!(!mv.starts_with('A'), "{mv}");
    }
    // minmoves 200: every other legal move is listed (81 - 1 - 8 - 9).
    assert_eq!(k.moves.len(), 63);
    // allow: only these, and the game's next genmove still sees them all.
    let k = kata_analyze(&mut e, "w 360000 allow w C3,G7 1 minmoves 10");
    let mut got = moves_of(&k);
    got.sort();
    assert_eq!(got, ["C3", "G7"]);
    let g = e
        .execute(b"kata-genmove_analyze w 360000 allow w J9 1")
        .unwrap();
    assert!(g.trim_end().ends_with("play J9"), "{g}");
    assert_eq!(
        e.game().moves().last().map(|m| m.mv),
        Some(parse_gtp_move("J9", 9).unwrap())
    );
}

#[test]
fn bad_analysis_options_are_refused() {
    let mut e = search_engine(50);
    for bad in [
        "kata-analyze b 10 allow b E5 1 allow b D4 1",
        "kata-analyze b 10 avoid b E5 1 allow b D4 1",
        "kata-analyze b 10 allow b E5 1 avoid b D4 1",
        "kata-analyze b 10 avoid b E5 0",
        "kata-analyze b 10 avoid b Z99 1",
        "kata-analyze b 10 avoid x E5 1",
        "kata-analyze b 10 avoid b E5",
        "kata-analyze b 10 pvVisits yes",
        "kata-analyze b 10 rootInfo 1",
        "kata-analyze b 10 maxmoves -1",
        "lz-analyze b 10 rootInfo true",
        "lz-analyze b 10 pvVisits true",
        "kata-analyze b 10 ownershipStdev true",
    ] {
        let out = e.execute(bad.as_bytes()).unwrap();
        assert!(out.starts_with("? "), "{bad}: {out}");
    }
    // avoid for both colours together, and allow for the other one, is fine.
    let ok = e
        .execute(b"kata-analyze b 360000 avoid b E5 1 allow w D4 2 avoid b C3 1")
        .unwrap();
    assert!(ok.starts_with("=\n"), "{ok}");
    let lz = e
        .execute(b"lz-analyze b 360000 avoid b E5,D4 1 minmoves 3 maxmoves 5")
        .unwrap();
    assert!(lz.starts_with("=\ninfo move "), "{lz}");
}

#[test]
fn override_version_answers_version_and_keeps_the_name() {
    let mut p = Proc::start(&["--player", "random", "--override-version", "0.15"]);
    p.send("version");
    assert_eq!(p.line(), "= 0.15");
    assert_eq!(p.line(), "");
    p.send("name");
    assert_eq!(p.line(), "= Kosumi");
    assert_eq!(p.line(), "");
    p.quit();
    let mut e = Engine::with_random_player(Config::default());
    assert_eq!(
        e.execute(b"version").as_deref(),
        Some(concat!("= ", env!("CARGO_PKG_VERSION"), "\n\n"))
    );
}

//! The GTP engine through its line -> response function and through the
//! I/O loop on in-memory streams: clocks and clean-up reach the player,
//! illegal player moves never reach the board, `# interrupt` stops a
//! running command, pipelined lines are answered in order, hostile lines
//! get error responses.

use kosumi::clock::{ClockState, Overtime, TimeSettings};
use kosumi::game::Game;
use kosumi::gtp::{io, Config, Engine};
use kosumi::mcts::{MctsPlayer, SearchConfig};
use kosumi::player::{Decision, GenmoveRequest, Player};
use kosumi::point::{Move, Point};
use kosumi::Color;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn ok(e: &mut Engine, line: &str) -> String {
    let r = e.execute(line.as_bytes()).expect("a response");
    assert!(r.starts_with("= "), "{line}: {r}");
    r[2..r.len() - 2].to_string()
}

fn fails(e: &mut Engine, line: &str) -> String {
    let r = e.execute(line.as_bytes()).expect("a response");
    assert!(r.starts_with("? "), "{line}: {r}");
    r[2..r.len() - 2].to_string()
}

/// What the scripted player saw and what it answers.
#[derive(Default)]
struct Seen {
    clocks: Vec<ClockState>,
    cleanup: Vec<bool>,
    stop_at_start: Vec<bool>,
    stopped: bool,
}

struct Scripted {
    answer: Decision,
    spin_until_stopped: bool,
    seen: Arc<Mutex<Seen>>,
}

impl Player for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        let mut seen = self.seen.lock().unwrap();
        seen.clocks.push(req.clock.of(req.color));
        seen.cleanup.push(req.cleanup);
        seen.stop_at_start
            .push(req.stop.is_some_and(|s| s.load(Ordering::SeqCst)));
        if self.spin_until_stopped {
            let t = Instant::now();
            while t.elapsed() < Duration::from_secs(20) {
                if req.stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
                    seen.stopped = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        self.answer
    }
}

fn scripted(answer: Decision, spin: bool) -> (Engine, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let p = Scripted {
        answer,
        spin_until_stopped: spin,
        seen: seen.clone(),
    };
    (Engine::new(Config::default(), Box::new(p)), seen)
}

#[test]
fn time_commands_fill_the_clock_passed_to_genmove() {
    let (mut e, seen) = scripted(Decision::Play(Move::Pass), false);
    ok(&mut e, "kgs-time_settings byoyomi 600 30 5");
    assert_eq!(
        e.clock().settings,
        TimeSettings::Limited {
            main: 600.0,
            overtime: Overtime::Byoyomi {
                period: 30.0,
                periods: 5
            }
        }
    );
    ok(&mut e, "time_left w 45 3");
    assert_eq!(ok(&mut e, "genmove w"), "pass");
    assert_eq!(
        seen.lock().unwrap().clocks,
        [ClockState {
            seconds: 45.0,
            count: 3
        }]
    );
    ok(&mut e, "time_settings 0 1 0");
    assert!(e.clock().is_unlimited());
    ok(&mut e, "time_settings 300 0 0");
    assert_eq!(
        e.clock().settings,
        TimeSettings::Limited {
            main: 300.0,
            overtime: Overtime::None
        }
    );
}

#[test]
fn an_illegal_choice_of_the_player_becomes_a_pass() {
    let (mut e, _) = scripted(Decision::Play(Move::Play(Point::new(3, 3))), false);
    ok(&mut e, "boardsize 9");
    ok(&mut e, "play b d6");
    // D6 on 9x9 is (3, 3): occupied now.
    assert_eq!(ok(&mut e, "genmove w"), "pass");
    assert_eq!(e.game().moves().len(), 2);
    let (mut e, _) = scripted(Decision::Resign, false);
    assert_eq!(ok(&mut e, "genmove b"), "resign");
    assert!(e.game().moves().is_empty());
}

/// 7x7: a black wall on column C, a white wall on D, a dead white stone at
/// A4 inside Black's area and a dead black one at F4 inside White's.
fn finished_7x7(e: &mut Engine) {
    ok(e, "boardsize 7");
    for y in 1..=7 {
        ok(e, &format!("play b c{y}"));
        ok(e, &format!("play w d{y}"));
    }
    ok(e, "play w a4");
    ok(e, "play b f4");
}

#[test]
fn cleanup_captures_dead_stones_before_passing() {
    // A player that always passes: clean-up mode must still capture.
    let (mut e, seen) = scripted(Decision::Play(Move::Pass), false);
    finished_7x7(&mut e);
    assert_eq!(ok(&mut e, "final_status_list dead"), "A4\nF4");
    let mut moves = Vec::new();
    loop {
        let mv = ok(&mut e, "kgs-genmove_cleanup b");
        if mv == "pass" {
            break;
        }
        moves.push(mv);
        assert!(moves.len() <= 3, "{moves:?}");
    }
    // A4 has three liberties: three black moves capture it.
    moves.sort();
    assert_eq!(moves, ["A3", "A5", "B4"]);
    assert_eq!(ok(&mut e, "captures black"), "1");
    assert_eq!(ok(&mut e, "final_status_list dead"), "F4");
    assert!(seen.lock().unwrap().cleanup.iter().all(|&c| c));
    // A plain genmove with the same player passes.
    assert_eq!(ok(&mut e, "genmove w"), "pass");
    assert_eq!(seen.lock().unwrap().cleanup.last(), Some(&false));
}

#[test]
fn random_player_cleanup_never_passes_with_dead_stones_left() {
    let mut e = Engine::with_random_player(Config {
        seed: 5,
        ..Config::default()
    });
    finished_7x7(&mut e);
    for _ in 0..200 {
        let dead_white_left = e.game().board().get(Point::new(0, 3)) == Some(Color::White);
        let mv = ok(&mut e, "kgs-genmove_cleanup b");
        if mv == "pass" {
            assert!(
                !dead_white_left,
                "passed with the dead A4 stone on the board"
            );
            return;
        }
        ok(&mut e, "play w pass");
    }
    panic!("clean-up never ended");
}

#[test]
fn superko_history_names_the_repeated_position() {
    let mut e = Engine::with_random_player(Config::default());
    for l in [
        "boardsize 5",
        "play b b5",
        "play b a4",
        "play b b3",
        "play w c5",
        "play w b4",
        "play w d4",
        "play w c3",
        "play b c4",
        "play w pass",
        "play b pass",
    ] {
        ok(&mut e, l);
    }
    let h = ok(&mut e, "kosumi-superko_history");
    let lines: Vec<&str> = h.lines().collect();
    assert_eq!(
        lines[0],
        "rules chinese (ko positional, suicide forbidden); 11 positions"
    );
    assert!(lines[1].starts_with("0 start black to move "), "{h}");
    assert!(lines[8].starts_with("7 W C3 black to move "), "{h}");
    assert!(lines[11].starts_with("10 B pass white to move "), "{h}");
    assert_eq!(lines[12], "superko forbids white: B4 (after move 7)");
    // The hash after a pass equals the one before it (same stones).
    let hash = |l: &str| l.rsplit(' ').next().unwrap().to_string();
    assert_eq!(hash(lines[9]), hash(lines[10]));
    assert_eq!(fails(&mut e, "play w b4"), "illegal move");
}

#[test]
fn ownership_board_has_one_row_per_line() {
    let mut e = Engine::with_random_player(Config::default());
    finished_7x7(&mut e);
    let own = ok(&mut e, "kosumi-ownership");
    let rows: Vec<Vec<f32>> = own
        .lines()
        .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 7);
    assert!(rows.iter().all(|r| r.len() == 7));
    // C4 (a black wall stone) and A4 (a dead white stone) Black's; D4 (a
    // white wall stone) and F4 (a dead black stone) White's. Uniform
    // playouts are noisy, so only the signs are firm.
    assert!(rows[3][2] > 0.3 && rows[3][0] > 0.3, "{own}");
    assert!(rows[3][3] < -0.3 && rows[3][5] < -0.2, "{own}");
}

/// Runs the I/O loop on `input` and returns everything it wrote.
fn run_io(engine: &mut Engine, input: Vec<u8>) -> String {
    let mut out = Vec::new();
    io::run(engine, std::io::Cursor::new(input), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn pipelined_lines_are_answered_in_order_and_eof_ends_the_loop() {
    let mut e = Engine::with_random_player(Config::default());
    let mut input = Vec::new();
    for i in 1..=50 {
        input.extend_from_slice(format!("{i} name\n").as_bytes());
    }
    input.extend_from_slice(b"51 protocol_version");
    let out = run_io(&mut e, input);
    let responses: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 51);
    for (i, r) in responses.iter().enumerate().take(50) {
        assert_eq!(*r, format!("={} Kosumi", i + 1));
    }
    assert_eq!(responses[50], "=51 2");
}

#[test]
fn hostile_lines_get_errors_and_the_loop_goes_on() {
    let mut e = Engine::with_random_player(Config::default());
    let mut input = b"1 name \xff\xfe\n".to_vec();
    input.extend_from_slice(b"2 play b ");
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(b"3 name # ");
    input.extend(std::iter::repeat_n(b'c', 1 << 20));
    input.push(b'\n');
    input.extend(std::iter::repeat_n(b' ', 1 << 20));
    input.extend_from_slice(b"\n4 quit\n5 name\n");
    let out = run_io(&mut e, input);
    assert_eq!(
        out,
        "?1 invalid utf-8 in command line\n\n\
         ?2 command line too long\n\n\
         =3 Kosumi\n\n\
         ? command line too long\n\n\
         =4 \n\n"
    );
    assert!(e.quit_requested());
}

#[test]
fn gogui_interrupt_stops_a_running_genmove() {
    let (mut e, seen) = scripted(Decision::Play(Move::Pass), true);
    let (reader, mut writer) = std::io::pipe().unwrap();
    let feeder = std::thread::spawn(move || {
        writer.write_all(b"1 genmove b\n").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        writer.write_all(b"# interrupt\n2 name\n").unwrap();
    });
    let mut out = Vec::new();
    io::run(&mut e, reader, &mut out).unwrap();
    feeder.join().unwrap();
    // The player spins until it sees the stop (20 s at most, a backstop
    // against a hang): it saw it.
    assert!(
        seen.lock().unwrap().stopped,
        "the player never saw the stop"
    );
    assert_eq!(String::from_utf8(out).unwrap(), "=1 pass\n\n=2 Kosumi\n\n");
}

#[test]
fn a_stale_interrupt_does_not_stop_the_next_command() {
    // The interrupt arrives while nothing runs: the genmoves after it must
    // start with the stop flag clear.
    let (mut e, seen) = scripted(Decision::Play(Move::Pass), false);
    // The comment after the last genmove keeps it from being the last
    // line read: the end of input stops the command answering that one.
    let out = run_io(
        &mut e,
        b"1 genmove b\n# interrupt\n2 genmove w\n3 genmove b\n# end\n".to_vec(),
    );
    assert_eq!(out, "=1 pass\n\n=2 pass\n\n=3 pass\n\n");
    // The first genmove may or may not have seen the interrupt (it was
    // read after it, so it was meant for it); the later two never do.
    let starts = seen.lock().unwrap().stop_at_start.clone();
    assert_eq!(&starts[1..], [false, false]);
    let g: &Game = e.game();
    assert_eq!(g.moves().len(), 3);
}

#[test]
fn input_waiting_sees_lines_queued_behind_the_running_one() {
    use kosumi::gtp::io::InputSignal;
    let mut e = Engine::with_random_player(Config::default());
    assert!(!e.input_waiting());
    let signal = Arc::new(InputSignal::default());
    signal.lines_read.store(3, Ordering::SeqCst);
    e.set_input(signal.clone(), 3);
    assert!(!e.input_waiting());
    signal.lines_read.store(4, Ordering::SeqCst);
    assert!(e.input_waiting());
}

#[test]
fn printsgf_then_loadsgf_gives_the_same_position() {
    let mut e = Engine::with_random_player(Config {
        seed: 9,
        ..Config::default()
    });
    ok(&mut e, "boardsize 9");
    ok(&mut e, "komi 5.5");
    ok(&mut e, "fixed_handicap 2");
    for _ in 0..30 {
        ok(&mut e, "genmove w");
        ok(&mut e, "genmove b");
    }
    ok(&mut e, "play w pass");
    let text = ok(&mut e, "printsgf");
    assert!(
        text.starts_with("(;") && text.trim_end().ends_with(')'),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("kosumi gtp {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("round trip.sgf");
    let quoted = format!("\"{}\"", file.display());
    ok(&mut e, &format!("printsgf {quoted}"));
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim_end(), text);
    let before: Vec<String> = [
        "list_stones b",
        "list_stones w",
        "captures b",
        "captures w",
        "showboard",
    ]
    .iter()
    .map(|c| ok(&mut e, c))
    .collect();
    let moves = e.game().moves().to_vec();
    ok(&mut e, "clear_board");
    ok(&mut e, &format!("loadsgf {quoted}"));
    let after: Vec<String> = [
        "list_stones b",
        "list_stones w",
        "captures b",
        "captures w",
        "showboard",
    ]
    .iter()
    .map(|c| ok(&mut e, c))
    .collect();
    assert_eq!(before, after);
    assert_eq!(e.game().moves(), moves.as_slice());
    std::fs::remove_dir_all(&dir).unwrap();
}

struct Broken;

impl Player for Broken {
    fn name(&self) -> String {
        "broken".into()
    }
    fn genmove(&mut self, _: &GenmoveRequest<'_>) -> Decision {
        panic!("deliberate test panic in a player")
    }
}

#[test]
fn a_panicking_command_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::new(Config::default(), Box::new(Broken));
    assert_eq!(e.execute(b"5 genmove b").unwrap(), "?5 internal error\n\n");
    assert_eq!(ok(&mut e, "name"), "Kosumi");
    ok(&mut e, "play b d4");
    assert_eq!(ok(&mut e, "list_stones b"), "D4");
}

/// Ten moves of a 19x19 game between the search (a few playouts) and
/// itself, after `set_random_seed SEED`, following a game with another
/// seed so that the engine's earlier searches are part of the test.
fn moves_after_seed(seed: &str) -> Vec<String> {
    let cfg = SearchConfig {
        threads: 1,
        max_playouts: Some(30),
        ..SearchConfig::default()
    };
    let mut e = Engine::with_search(Config::default(), MctsPlayer::new(cfg));
    ok(&mut e, "set_random_seed 99");
    ok(&mut e, "genmove b");
    ok(&mut e, "clear_board");
    ok(&mut e, &format!("set_random_seed {seed}"));
    (0..10)
        .map(|i| ok(&mut e, if i % 2 == 0 { "genmove b" } else { "genmove w" }))
        .collect()
}

#[test]
fn set_random_seed_makes_the_moves_a_function_of_the_seed() {
    let a = moves_after_seed("7");
    assert_eq!(a, moves_after_seed("7"));
    assert_ne!(a, moves_after_seed("8"));
    let mut e = Engine::with_random_player(Config::default());
    assert_eq!(fails(&mut e, "set_random_seed x"), "invalid number 'x'");
    fails(&mut e, "set_random_seed");
    fails(&mut e, "set_random_seed -1");
}

fn small_search() -> Engine {
    let cfg = SearchConfig {
        threads: 1,
        max_playouts: Some(400),
        ..SearchConfig::default()
    };
    Engine::with_search(Config::default(), MctsPlayer::new(cfg))
}

#[test]
fn restricted_genmove_chooses_among_the_listed_vertices_and_plays_nothing() {
    let mut e = small_search();
    ok(&mut e, "boardsize 9");
    // On an empty board the search's own choice is near the centre; the
    // answer must still be one of the two corners.
    for seed in ["1", "2", "3"] {
        ok(&mut e, &format!("set_random_seed {seed}"));
        let a = ok(&mut e, "restricted_genmove b A1 J9");
        assert!(a == "A1" || a == "J9", "{a}");
    }
    assert_eq!(ok(&mut e, "list_stones b"), "");
    // White E5 in atari: among the capture and a first-line point, the
    // capture.
    for mv in ["b d5", "b f5", "b e4", "w e5"] {
        ok(&mut e, &format!("play {mv}"));
    }
    assert_eq!(ok(&mut e, "restricted_genmove b A9 E6"), "E6");
    assert_eq!(ok(&mut e, "list_stones w"), "E5");
    // One legal vertex among illegal ones: that one, without a search;
    // none legal: a pass, as GNU Go answers.
    assert_eq!(ok(&mut e, "restricted_genmove w D5 E6 e6"), "E6");
    assert_eq!(ok(&mut e, "restricted_genmove w D5 F5"), "pass");
}

#[test]
fn restricted_genmove_rejects_what_it_cannot_read() {
    let mut e = small_search();
    ok(&mut e, "boardsize 9");
    fails(&mut e, "restricted_genmove b");
    fails(&mut e, "restricted_genmove");
    fails(&mut e, "restricted_genmove x A1");
    fails(&mut e, "restricted_genmove b A1 pass");
    fails(&mut e, "restricted_genmove b A1 Z99");
    fails(&mut e, "restricted_genmove b I5");
    // The random player has no search: the first legal vertex.
    let mut r = Engine::with_random_player(Config::default());
    ok(&mut r, "boardsize 9");
    ok(&mut r, "play b a1");
    assert_eq!(ok(&mut r, "restricted_genmove w A1 C3 D4"), "C3");
}

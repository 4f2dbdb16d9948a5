//! The network's fixtures: the Rust evaluation against the trainer's
//! logits (the golden test), the export against the committed data, and
//! the export's split against the pattern code's.

use kosumi::nn::export::{decode, export, ExportCommand, Split};
use kosumi::nn::planes::{base_planes, NnPosition, BASE_PLANES};
use kosumi::nn::{Evaluator, Network};
use kosumi::patterns::{self, load_records, PatternTable};
use kosumi::Move;
use std::path::{Path, PathBuf};

fn read(p: &str) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The trainer's logits file: count, logits per position, values.
fn logits_file(b: &[u8]) -> (usize, usize, Vec<f32>, Vec<f32>) {
    assert_eq!(&b[..8], b"KSNNLOGT");
    let u = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize;
    let (n, per, has_value) = (u(8), u(12), u(16));
    let f: Vec<f32> = b[20..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(f.len(), n * per + has_value * n);
    let (l, v) = f.split_at(n * per);
    (n, per, l.to_vec(), v.to_vec())
}

#[test]
fn rust_logits_equal_the_trainers() {
    let net = Network::from_bytes(&read("tests/nn/golden.weights")).expect("weights");
    assert!(net.header.contains("train.py"), "{}", net.header);
    assert!(net.shape.blocks >= 1 && net.shape.value_hidden > 0);
    let (h, recs) = decode(&read("tests/nn/golden.data")).expect("data");
    let (n, per, logits, values) = logits_file(&read("tests/nn/golden.logits"));
    assert_eq!(per, h.size * h.size + 1);
    assert_eq!(n, recs.len());
    assert!(n >= 4);
    let mut ev = Evaluator::new(&net, h.size, n);
    // One at a time and all in one batch.
    let mut out = vec![0.0f32; per];
    let mut v = [0.0f32];
    let mut worst = 0.0f32;
    for (i, r) in recs.iter().enumerate() {
        ev.evaluate(&net, &r.planes, 1, &mut out, Some(&mut v));
        for (a, b) in out.iter().zip(&logits[i * per..(i + 1) * per]) {
            worst = worst.max((a - b).abs());
        }
        assert!(
            (v[0] - values[i]).abs() < 1e-4,
            "value {i}: {} vs {}",
            v[0],
            values[i]
        );
    }
    assert!(worst < 1e-4, "largest logit difference {worst}");
    let batch: Vec<f32> = recs.iter().flat_map(|r| r.planes.iter().copied()).collect();
    let mut all = vec![0.0f32; n * per];
    let mut vs = vec![0.0f32; n];
    ev.evaluate(&net, &batch, n, &mut all, Some(&mut vs));
    for (a, b) in all.iter().zip(&logits) {
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }
    // The logits are not flat: the test would see a wrong tensor order.
    let spread = logits[..per].iter().fold(0.0f32, |m, &x| m.max(x))
        - logits[..per].iter().fold(0.0f32, |m, &x| m.min(x));
    assert!(spread > 0.01, "{spread}");
}

#[test]
fn export_reproduces_the_committed_positions() {
    let (h, recs) = decode(&read("tests/nn/golden.data")).expect("data");
    let (records, problems) =
        load_records(Path::new("sgf-fixtures/pro/9x9/mogo-vs-pro-zhou9a.sgf"));
    assert!(problems.is_empty(), "{problems:?}");
    let r = &records[0];
    assert_eq!(r.size(), h.size);
    let mut g = r.start.clone();
    let mut history: Vec<Move> = Vec::new();
    let area = h.size * h.size;
    let mut planes = vec![0.0f32; BASE_PLANES * area];
    for (i, rec) in recs.iter().enumerate() {
        let m = r.moves[i];
        base_planes(
            &NnPosition {
                board: g.board(),
                to_move: m.color,
                history: &history,
            },
            &mut planes,
        );
        assert_eq!(rec.planes, planes, "position {}", i + 1);
        let mv = match m.mv {
            Move::Pass => area as u16,
            Move::Play(p) => (p.y() * h.size + p.x()) as u16,
        };
        assert_eq!(rec.mv, mv);
        assert_eq!(usize::from(rec.number), i + 1);
        history.push(m.mv);
        g.play(m.color, m.mv).expect("legal");
    }
}

fn export_bytes(split: Split, games: &[PathBuf]) -> Vec<u8> {
    let cmd = ExportCommand {
        games: games.to_vec(),
        holdout: 10,
        split,
        size: 9,
        pattern_table: None,
    };
    let mut out = Vec::new();
    export(&cmd, &mut out, &mut |_| {}).expect("export");
    out
}

#[test]
fn export_split_is_the_pattern_split() {
    let games = vec![PathBuf::from("sgf-fixtures/pro/9x9")];
    let held = decode(&export_bytes(Split::HeldOut, &games))
        .expect("held")
        .1;
    let train = decode(&export_bytes(Split::Train, &games))
        .expect("train")
        .1;
    let all = decode(&export_bytes(Split::All, &games)).expect("all").1;
    assert!(!held.is_empty() && !train.is_empty());
    assert_eq!(held.len() + train.len(), all.len());
    // The held-out positions are the ones `patterns eval` measures.
    let p = patterns::eval_command(&games, 10, PatternTable::builtin(), &mut |_| {}).expect("eval");
    assert_eq!(p[&9].positions, held.len());
    // Results are filled in from RE, from the side to move's view: the
    // two sides of one game disagree.
    assert!(all.iter().any(|r| r.result == 1) && all.iter().any(|r| r.result == -1));
    // The same command gives the same bytes.
    assert_eq!(
        export_bytes(Split::All, &games),
        export_bytes(Split::All, &games)
    );
}

#[test]
fn visits_beside_a_record_become_policy_targets() {
    let dir = std::env::temp_dir().join(format!("kosumi-nn-visits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let sgf = dir.join("game-000000.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[9]KM[7]RE[B+R];B[ee];W[cc];B[gg])").expect("write");
    std::fs::write(
        dir.join("game-000000.visits"),
        "# kosumi visits 1\n1\tE5:30 D4:10\n3\tG3:1 pass:3\n",
    )
    .expect("write");
    let recs = decode(&export_bytes(Split::All, std::slice::from_ref(&dir)))
        .expect("decode")
        .1;
    assert_eq!(recs.len(), 3);
    let e5 = 4 * 9 + 4;
    let d4 = 5 * 9 + 3;
    let p0 = recs[0].policy.as_ref().expect("target of move 1");
    assert!((p0[e5] - 0.75).abs() < 1e-6 && (p0[d4] - 0.25).abs() < 1e-6);
    assert_eq!(p0.iter().filter(|&&x| x > 0.0).count(), 2);
    assert!(recs[1].policy.is_none());
    let p2 = recs[2].policy.as_ref().expect("target of move 3");
    assert!((p2[81] - 0.75).abs() < 1e-6);
    assert_eq!((recs[0].result, recs[1].result, recs[2].result), (1, -1, 1));
    // A bad visits file is an error, not a panic.
    std::fs::write(dir.join("game-000000.visits"), "1\tZ99:3\n").expect("write");
    let cmd = ExportCommand {
        games: vec![dir.clone()],
        holdout: 0,
        split: Split::All,
        size: 9,
        pattern_table: None,
    };
    assert!(export(&cmd, &mut Vec::new(), &mut |_| {}).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_kept_network_reads_and_names_its_training() {
    let net = Network::from_bytes(&read("data/nn-19-6x64.bin")).expect("weights");
    assert_eq!((net.shape.blocks, net.shape.channels), (6, 64));
    assert_eq!(net.shape.planes, BASE_PLANES);
    for line in ["command: ", "data: ", "shape: ", "held-out: "] {
        assert!(net.header.contains(line), "no {line:?} in {}", net.header);
    }
    // Trained, not random: on the empty 19x19 board it prefers the
    // 4-4 and 3-4 points to the centre's neighbours and the first line.
    let board = kosumi::Board::new(19).expect("board");
    let mut planes = vec![0.0f32; BASE_PLANES * 361];
    base_planes(
        &NnPosition {
            board: &board,
            to_move: kosumi::Color::Black,
            history: &[],
        },
        &mut planes,
    );
    let mut ev = Evaluator::new(&net, 19, 1);
    let mut logits = vec![0.0f32; 362];
    ev.evaluate(&net, &planes, 1, &mut logits, None);
    let at = |x: usize, y: usize| logits[y * 19 + x];
    let star = at(3, 3).max(at(2, 3)).max(at(3, 2));
    assert!(star > at(0, 0) + 2.0, "{star} vs {}", at(0, 0));
    assert!(star > at(9, 8), "{star} vs {}", at(9, 8));
}

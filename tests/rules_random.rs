//! Seeded random games on every board size from 2x2 to 25x25, for every rule
//! preset, checked after every move against a naive reference board written
//! here: flood-fill captures, a plain list of full positions for superko, no
//! hashing, no union-find.
//!
//! After every move:
//! - the incremental stone hash equals the recomputed hash and the hash of
//!   the reference position (built from the Zobrist keys directly);
//! - `check_invariants()` holds, and every chain's stone and liberty counts
//!   equal the reference's flood fill, and so does the area count;
//! - for every point, `Game::check` (and `is_legal`) gives exactly the
//!   reference's verdict, reason included: occupied, suicide, ko, or superko
//!   naming the first move after which the repeated position stood;
//! - the benchmark playout's eye and candidate tests agree with the
//!   reference's, and so does the policy's `liberties_after` (every third
//!   move);
//! - undo then replay returns the same state.
//!
//! The moves include superko-illegal attempts, which must be refused without
//! changing anything; the number of refusals is printed
//! (`cargo test --release --test rules_random -- --nocapture`) and must be
//! above zero for each superko rule set.

use kosumi::playout::below;
use kosumi::score::area_counts;
use kosumi::zobrist;
use kosumi::{Board, Color, Game, IllegalMove, KoRule, Move, Point, Rules};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const EMPTY: u8 = 0;

fn code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// A whole-board position, one byte a point (0 empty, 1 black, 2 white),
/// row by row from the top.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Pos {
    size: usize,
    cells: Vec<u8>,
}

/// What a move does to a [`Pos`].
struct Outcome {
    pos: Pos,
    captured: u32,
    lost: u32,
}

impl Pos {
    fn empty(size: usize) -> Pos {
        Pos {
            size,
            cells: vec![EMPTY; size * size],
        }
    }

    fn neighbors(&self, i: usize) -> Vec<usize> {
        let (x, y, n) = (i % self.size, i / self.size, self.size);
        let mut out = Vec::with_capacity(4);
        if y > 0 {
            out.push(i - n);
        }
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < n {
            out.push(i + 1);
        }
        if y + 1 < n {
            out.push(i + n);
        }
        out
    }

    /// The chain on `i` and its number of distinct liberties, by flood fill.
    fn flood(&self, i: usize) -> (Vec<usize>, usize) {
        let color = self.cells[i];
        assert_ne!(color, EMPTY);
        let mut seen = vec![false; self.cells.len()];
        let mut lib_seen = vec![false; self.cells.len()];
        let mut chain = vec![i];
        let mut stack = vec![i];
        let mut libs = 0;
        seen[i] = true;
        while let Some(s) = stack.pop() {
            for q in self.neighbors(s) {
                if self.cells[q] == EMPTY {
                    if !lib_seen[q] {
                        lib_seen[q] = true;
                        libs += 1;
                    }
                } else if self.cells[q] == color && !seen[q] {
                    seen[q] = true;
                    chain.push(q);
                    stack.push(q);
                }
            }
        }
        (chain, libs)
    }

    /// The position after `c` plays on `i`, under the board's own rules:
    /// opposing chains left without liberties are removed; then the mover's
    /// chain, if it has none, is removed when suicide is allowed and it has
    /// two or more stones, and the move is refused otherwise.
    fn play(&self, c: Color, i: usize, suicide_allowed: bool) -> Result<Outcome, IllegalMove> {
        if self.cells[i] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        let mut pos = self.clone();
        pos.cells[i] = code(c);
        let mut captured = 0;
        for q in pos.neighbors(i) {
            if pos.cells[q] == code(c.opponent()) {
                let (chain, libs) = pos.flood(q);
                if libs == 0 {
                    captured += chain.len() as u32;
                    for s in chain {
                        pos.cells[s] = EMPTY;
                    }
                }
            }
        }
        let mut lost = 0;
        let (chain, libs) = pos.flood(i);
        if libs == 0 {
            if chain.len() == 1 || !suicide_allowed {
                return Err(IllegalMove::Suicide);
            }
            lost = chain.len() as u32;
            for s in chain {
                pos.cells[s] = EMPTY;
            }
        }
        Ok(Outcome {
            pos,
            captured,
            lost,
        })
    }

    /// `Board::liberties_after` by its definition: the distinct points among
    /// the empty neighbours of `i`, the neighbours of `i` holding opposing
    /// chains with one liberty, and the liberties other than `i` of `c`'s
    /// chains next to `i`; at most `limit`.
    fn liberties_after(&self, c: Color, i: usize, limit: usize) -> usize {
        let mut set = std::collections::BTreeSet::new();
        for n in self.neighbors(i) {
            let cell = self.cells[n];
            if cell == EMPTY || (cell == code(c.opponent()) && self.flood(n).1 == 1) {
                set.insert(n);
            }
        }
        for n in self.neighbors(i) {
            if self.cells[n] == code(c) {
                for s in self.flood(n).0 {
                    for m in self.neighbors(s) {
                        if self.cells[m] == EMPTY && m != i {
                            set.insert(m);
                        }
                    }
                }
            }
        }
        set.len().min(limit)
    }

    /// The benchmark playout's eye: every on-board neighbour is a stone of
    /// `c`; opposing diagonal stones number 0 on the edge, at most 1
    /// elsewhere.
    fn is_eye(&self, c: Color, i: usize) -> bool {
        if self.neighbors(i).iter().any(|&q| self.cells[q] != code(c)) {
            return false;
        }
        let (x, y, n) = (i % self.size, i / self.size, self.size as isize);
        let mut on_edge = false;
        let mut opposing = 0;
        for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let (qx, qy) = (x as isize + dx, y as isize + dy);
            if qx < 0 || qy < 0 || qx >= n || qy >= n {
                on_edge = true;
            } else if self.cells[(qy * n + qx) as usize] == code(c.opponent()) {
                opposing += 1;
            }
        }
        if on_edge {
            opposing == 0
        } else {
            opposing <= 1
        }
    }

    fn stone_counts(&self) -> (usize, usize) {
        let b = self.cells.iter().filter(|&&v| v == 1).count();
        let w = self.cells.iter().filter(|&&v| v == 2).count();
        (b, w)
    }

    /// Tromp-Taylor area by flood fill of every empty region: (black,
    /// white).
    fn area(&self) -> (u32, u32) {
        let mut counts = [0u32; 2];
        let mut seen = vec![false; self.cells.len()];
        for i in 0..self.cells.len() {
            match self.cells[i] {
                EMPTY if !seen[i] => {
                    let mut region = 0;
                    let mut touches = [false; 2];
                    let mut stack = vec![i];
                    seen[i] = true;
                    while let Some(s) = stack.pop() {
                        region += 1;
                        for q in self.neighbors(s) {
                            match self.cells[q] {
                                EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    stack.push(q);
                                }
                                EMPTY => {}
                                v => touches[v as usize - 1] = true,
                            }
                        }
                    }
                    match touches {
                        [true, false] => counts[0] += region,
                        [false, true] => counts[1] += region,
                        _ => {}
                    }
                }
                EMPTY => {}
                v => counts[v as usize - 1] += 1,
            }
        }
        (counts[0], counts[1])
    }

    fn point(&self, i: usize) -> Point {
        Point::new(i % self.size, i / self.size)
    }

    /// The Zobrist stone hash, straight from the key table.
    fn hash(&self) -> u64 {
        let keys = zobrist::keys();
        let mut h = 0;
        for (i, &v) in self.cells.iter().enumerate() {
            if v != EMPTY {
                h ^= keys.stone[v as usize - 1][self.point(i).index()];
            }
        }
        h
    }
}

/// The reference game: the current position, every position since the
/// start with its side to move (and stone counts, an exact pre-filter for
/// comparing positions), captures, and whether the last move was a play.
struct Reference {
    rules: Rules,
    history: Vec<(Pos, Color, (usize, usize))>,
    captures: [u32; 2],
    last_was_play: bool,
}

impl Reference {
    fn new(size: usize, rules: Rules) -> Reference {
        let pos = Pos::empty(size);
        Reference {
            rules,
            history: vec![(pos, Color::Black, (0, 0))],
            captures: [0, 0],
            last_was_play: false,
        }
    }

    fn current(&self) -> &Pos {
        &self.history.last().unwrap().0
    }

    /// The verdict on `c` playing on point index `i`.
    fn check(&self, c: Color, i: usize) -> Result<Outcome, IllegalMove> {
        let out = self.current().play(c, i, self.rules.suicide)?;
        // Simple ko: recreating the position that stood before the
        // opponent's last move (which must have been a play).
        let n = self.history.len();
        if self.last_was_play && n >= 2 && self.history[n - 2].0 == out.pos {
            return Err(IllegalMove::Ko);
        }
        if self.rules.ko != KoRule::Simple {
            let counts = out.pos.stone_counts();
            let next = c.opponent();
            for (j, (pos, to_move, cnt)) in self.history.iter().enumerate() {
                if *cnt == counts
                    && (self.rules.ko == KoRule::Positional || *to_move == next)
                    && *pos == out.pos
                {
                    return Err(IllegalMove::Superko { after_move: j });
                }
            }
        }
        Ok(out)
    }

    /// Whether the benchmark playout may play `c` on the empty point `i`:
    /// not an eye, not a suicide of any size, not the simple-ko recapture.
    fn playout_candidate(&self, c: Color, i: usize) -> bool {
        if self.current().is_eye(c, i) {
            return false;
        }
        match self.current().play(c, i, true) {
            Err(_) => false,
            Ok(out) if out.lost > 0 => false,
            Ok(out) => {
                let n = self.history.len();
                !(self.last_was_play && n >= 2 && self.history[n - 2].0 == out.pos)
            }
        }
    }

    fn apply(&mut self, c: Color, mv: Move) {
        let pos = match mv {
            Move::Pass => {
                self.last_was_play = false;
                self.current().clone()
            }
            Move::Play(p) => {
                let i = p.y() * self.current().size + p.x();
                let out = self.check(c, i).expect("reference: move is legal");
                self.captures[c.index()] += out.captured;
                self.captures[c.opponent().index()] += out.lost;
                self.last_was_play = true;
                out.pos
            }
        };
        let counts = pos.stone_counts();
        self.history.push((pos, c.opponent(), counts));
    }
}

/// Everything undo must restore.
#[derive(Debug, PartialEq)]
struct Snapshot {
    board: Board,
    to_move: Color,
    captures: [u32; 2],
    history_len: usize,
    moves: usize,
    history: Vec<(u64, Color)>,
}

fn snapshot(g: &Game) -> Snapshot {
    Snapshot {
        board: g.board().clone(),
        to_move: g.to_move(),
        captures: [g.captures(Color::Black), g.captures(Color::White)],
        history_len: g.history_len(),
        moves: g.moves().len(),
        history: (0..g.history_len())
            .map(|i| {
                let (h, c) = g.history_entry(i).unwrap();
                (h.0, c)
            })
            .collect(),
    }
}

/// Compares the game's board with the reference position: stones, hashes,
/// captures, chains and liberties.
fn compare_board(g: &Game, r: &Reference, context: &str) {
    let b = g.board();
    let pos = r.current();
    for (i, &v) in pos.cells.iter().enumerate() {
        let p = pos.point(i);
        assert_eq!(
            b.get(p).map_or(EMPTY, code),
            v,
            "{context}: stone at {} differs\n{b:?}",
            p.to_gtp(pos.size)
        );
    }
    assert_eq!(b.hash(), b.recompute_hash(), "{context}: incremental hash");
    assert_eq!(b.hash().0, pos.hash(), "{context}: hash vs reference");
    b.check_invariants()
        .unwrap_or_else(|e| panic!("{context}: {e}\n{b:?}"));
    assert_eq!(
        [g.captures(Color::Black), g.captures(Color::White)],
        r.captures,
        "{context}: captures"
    );
    assert_eq!(area_counts(b), pos.area(), "{context}: area count");
    // Chains and liberties against the reference's flood fill.
    let mut done = vec![false; pos.cells.len()];
    for i in 0..pos.cells.len() {
        if pos.cells[i] == EMPTY || done[i] {
            continue;
        }
        let (chain, libs) = pos.flood(i);
        let root = b.chain_root(pos.point(i));
        for &s in &chain {
            done[s] = true;
            let p = pos.point(s);
            assert_eq!(b.chain_root(p), root, "{context}: chain root");
            assert_eq!(b.chain_len(p), chain.len(), "{context}: chain_len");
            assert_eq!(b.liberties(p), libs, "{context}: liberties");
        }
    }
}

/// Counters for one run (one size, one rule set).
#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    moves: u64,
    passes: u64,
    captures: u64,
    suicides: u64,
    ko_verdicts: u64,
    superko_verdicts: u64,
    superko_refusals: u64,
}

/// Plays `games` seeded random games of at most `max_moves` moves on a
/// `size` board under `rules`, checking everything after every move.
fn run(size: usize, rules: Rules, seed: u64, games: usize, max_moves: usize) -> Stats {
    let mut stats = Stats::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let points: Vec<Point> = Point::all(size).collect();
    for game_no in 0..games {
        let mut g = Game::new(size, rules, kosumi::Komi::default()).unwrap();
        let mut r = Reference::new(size, rules);
        // Tiny boards pass more often, so that passes and situational
        // differences come up.
        let pass_one_in = if size <= 3 { 6 } else { 40 };
        for move_no in 0..max_moves {
            let c = g.to_move();
            let context = format!(
                "size {size} rules {rules} game {game_no} move {}",
                move_no + 1
            );
            // The verdict on every point, against the reference.
            let mut legal = Vec::new();
            let mut superko = Vec::new();
            let mut verdicts = Vec::with_capacity(points.len());
            for (i, &p) in points.iter().enumerate() {
                let want = r.check(c, i).map(|_| ());
                let got = g.check(c, Move::Play(p));
                assert_eq!(
                    got,
                    want,
                    "{context}: {} {}\n{:?}",
                    c,
                    p.to_gtp(size),
                    g.board()
                );
                assert_eq!(g.is_legal(c, Move::Play(p)), want.is_ok());
                if g.board().is_empty(p) {
                    let b = g.board();
                    assert_eq!(b.is_eye(c, p), r.current().is_eye(c, i), "{context}: eye");
                    assert_eq!(
                        b.is_playout_candidate(c, p),
                        r.playout_candidate(c, i),
                        "{context}: playout candidate {}",
                        p.to_gtp(size)
                    );
                    if move_no % 3 == 0 {
                        for limit in 1..=4 {
                            assert_eq!(
                                b.liberties_after(c, p, limit),
                                r.current().liberties_after(c, i, limit),
                                "{context}: liberties_after {} limit {limit}",
                                p.to_gtp(size)
                            );
                        }
                    }
                }
                verdicts.push(want);
                match want {
                    Ok(()) => legal.push(p),
                    Err(IllegalMove::Superko { after_move }) => {
                        stats.superko_verdicts += 1;
                        superko.push((p, after_move));
                    }
                    Err(IllegalMove::Ko) => stats.ko_verdicts += 1,
                    Err(_) => {}
                }
            }
            assert!(g.is_legal(c, Move::Pass));
            if move_no.is_multiple_of(16) {
                let mut want: Vec<Move> = legal.iter().map(|&p| Move::Play(p)).collect();
                want.push(Move::Pass);
                assert_eq!(g.legal_moves(c), want, "{context}: legal_moves");
            }

            // Try a superko-illegal move now and then: it must be refused
            // and change nothing.
            if !superko.is_empty() && below(&mut rng, 2) == 0 {
                let (p, after_move) = superko[below(&mut rng, superko.len())];
                let before = snapshot(&g);
                assert_eq!(
                    g.play(c, Move::Play(p)),
                    Err(IllegalMove::Superko { after_move }),
                    "{context}"
                );
                assert_eq!(snapshot(&g), before, "{context}: refusal changed state");
                stats.superko_refusals += 1;
            }

            let mv = if legal.is_empty() || below(&mut rng, pass_one_in) == 0 {
                Move::Pass
            } else {
                Move::Play(legal[below(&mut rng, legal.len())])
            };
            let before = snapshot(&g);
            let empties_before = g.board().empty_count();
            g.play(c, mv)
                .unwrap_or_else(|e| panic!("{context}: {mv:?} refused: {e}"));
            r.apply(c, mv);
            stats.moves += 1;
            match mv {
                Move::Pass => stats.passes += 1,
                Move::Play(_) => {
                    if g.board().empty_count() > empties_before - 1 {
                        if g.board().get(mv.point().unwrap()).is_none() {
                            stats.suicides += 1;
                        } else {
                            stats.captures += 1;
                        }
                    }
                }
            }
            compare_board(&g, &r, &context);
            assert_eq!(g.to_move(), c.opponent());
            assert_eq!(g.history_len(), r.history.len());

            // Undo then replay returns the same state.
            let after = snapshot(&g);
            let mut u = g.clone();
            u.undo().unwrap();
            assert_eq!(snapshot(&u), before, "{context}: undo");
            // The restored superko history gives the same verdicts as before.
            for (&p, want) in points.iter().zip(&verdicts) {
                assert_eq!(&u.check(c, Move::Play(p)), want, "{context}: after undo");
            }
            u.play(c, mv).unwrap();
            assert_eq!(snapshot(&u), after, "{context}: replay");
            // Now and then, undo several moves and replay them.
            if move_no % 8 == 7 {
                let k = 1 + below(&mut rng, g.moves().len().min(12));
                let tail: Vec<_> = g.moves()[g.moves().len() - k..].to_vec();
                let mut u = g.clone();
                u.undo_many(k).unwrap();
                assert_eq!(u.history_len(), g.history_len() - k);
                for m in tail {
                    u.play(m.color, m.mv)
                        .unwrap_or_else(|e| panic!("{context}: replay after undo_many: {e}"));
                }
                assert_eq!(snapshot(&u), after, "{context}: undo_many + replay");
            }
        }
    }
    stats
}

/// Runs every preset on every size and prints and checks the counters.
fn run_all(games_and_moves: impl Fn(usize) -> (usize, usize)) {
    let mut failures = Vec::new();
    for (k, (name, rules)) in Rules::PRESETS.iter().enumerate() {
        let mut total = Stats::default();
        let mut per_size = Vec::new();
        for size in 2..=25 {
            let (games, moves) = games_and_moves(size);
            let seed = 0x5eed_0000 + (k as u64) * 1000 + size as u64;
            let s = run(size, *rules, seed, games, moves);
            per_size.push(format!("{size}:{}", s.superko_refusals));
            total.moves += s.moves;
            total.passes += s.passes;
            total.captures += s.captures;
            total.suicides += s.suicides;
            total.ko_verdicts += s.ko_verdicts;
            total.superko_verdicts += s.superko_verdicts;
            total.superko_refusals += s.superko_refusals;
        }
        eprintln!(
            "{name}: {} moves, {} passes, {} capturing moves, {} multi-stone suicides, \
             {} ko verdicts, {} superko verdicts, {} superko refusals (by size {})",
            total.moves,
            total.passes,
            total.captures,
            total.suicides,
            total.ko_verdicts,
            total.superko_verdicts,
            total.superko_refusals,
            per_size.join(" ")
        );
        if rules.ko != KoRule::Simple && total.superko_refusals == 0 {
            failures.push(format!("{name}: no superko refusal exercised"));
        }
        if rules.ko == KoRule::Simple && total.superko_refusals != 0 {
            failures.push(format!("{name}: superko refusals under simple ko"));
        }
        if rules.suicide && total.suicides == 0 {
            failures.push(format!("{name}: no multi-stone suicide exercised"));
        }
        if total.ko_verdicts == 0 {
            failures.push(format!("{name}: no ko verdict exercised"));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// The default run: many short games on small boards, fewer and shorter ones
/// as the board grows.
#[test]
fn random_games_match_the_naive_reference() {
    run_all(|size| match size {
        2..=3 => (60, 80),
        4..=5 => (20, 3 * size * size),
        6..=9 => (4, 3 * size * size),
        10..=13 => (1, 2 * size * size),
        _ => (1, 250),
    });
}

/// The soak run: many more and longer games on every size. Takes several
/// minutes in release:
/// `cargo test --release --test rules_random -- --ignored --nocapture`
#[test]
#[ignore]
fn random_games_match_the_naive_reference_soak() {
    run_all(|size| match size {
        2..=3 => (2000, 80),
        4..=5 => (300, 4 * size * size),
        6..=9 => (40, 4 * size * size),
        10..=13 => (8, 3 * size * size),
        _ => (3, 2 * size * size),
    });
}

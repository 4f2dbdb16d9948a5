//! Players: anything that chooses moves for a [`Game`].
//!
//! The GTP engine, self-play and matches talk to a `dyn Player`; the random
//! player here is the reference until the search lands, and
//! [`mc_ownership`] gives any player a cheap ownership estimate, which
//! [`crate::endgame`] turns into dead-stone lists and counts.
//!
//! A player that can show its thinking (the search) offers an
//! [`Analyzer`] through [`Player::analyzer`]: live snapshots
//! ([`Analysis`]) for the analysis commands and pondering. Controllers ask
//! for it instead of naming the player's type.

use crate::board::Board;
use crate::clock::Clock;
use crate::color::Color;
use crate::game::Game;
use crate::playout::policy::{playout, FirstPlay};
use crate::playout::{below, uniform_playout, PlayoutConfig};
use crate::point::{Move, Point, ARRAY_LEN};
use crate::score::point_owners;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What a player decides to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (a point or a pass).
    Play(Move),
    /// Resign the game.
    Resign,
}

/// What a player is asked to do.
#[derive(Clone, Debug)]
pub struct GenmoveRequest<'a> {
    /// The game so far.
    pub game: &'a Game,
    /// The colour to move for (may differ from the game's side to move).
    pub color: Color,
    /// The clocks, as far as the controller told them.
    pub clock: &'a Clock,
    /// Clean-up mode (`kgs-genmove_cleanup`): capture every dead stone
    /// before passing, and never resign. A controller replaces a pass in
    /// this mode by [`crate::endgame::cleanup_move`] while a dead opposing
    /// stone is left, so a player may simply pass.
    pub cleanup: bool,
    /// Set by the controller side (an interrupt, new input) to ask the
    /// player to answer as soon as it can with the best move so far.
    pub stop: Option<&'a AtomicBool>,
}

/// Seconds of transmission and process lag a player charges its own
/// clock per move on top of the time it measures, unless set otherwise
/// (`--lag`).
pub const DEFAULT_LAG: f64 = 0.05;

/// A Go player.
pub trait Player: Send {
    /// A short name for records and logs.
    fn name(&self) -> String;

    /// Chooses a move for `req.color` in `req.game`. The move must be legal
    /// in the game (a pass always is).
    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision;

    /// Estimated ownership of every on-board point, row by row from the top:
    /// +1 Black's, -1 White's. The default is [`mc_ownership`] with 200
    /// playouts.
    fn ownership(&mut self, game: &Game) -> Vec<f32> {
        mc_ownership(game, 200, 1)
    }

    /// The player's analysis capability, if it has one (the search does).
    /// The default is `None`.
    fn analyzer(&mut self) -> Option<&mut dyn Analyzer> {
        None
    }

    /// Called when the controller starts a new game or changes the position
    /// in a way the player cannot follow (a cue to drop cached state).
    fn clear(&mut self) {}

    /// Restarts the player's random stream from `seed` (GTP
    /// `set_random_seed`), so that a controller can give every game its
    /// own seed. The default, for players without randomness, does nothing.
    fn set_seed(&mut self, _seed: u64) {}

    /// The snapshot of this player's last search, if it searches (for the
    /// log's summary of a move generation). The default is `None`.
    fn last_search(&self) -> Option<&Analysis> {
        None
    }

    /// Playouts run so far by this player, for self-play and match
    /// statistics (playouts per second). The default, for players that
    /// run none, is 0.
    fn playouts(&self) -> u64 {
        0
    }

    /// Seconds of lag charged to the player's own clock per move on top of
    /// the time a move took. The default is [`DEFAULT_LAG`].
    fn lag(&self) -> f64 {
        DEFAULT_LAG
    }
}

/// One root move in an [`Analysis`].
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateInfo {
    /// The move.
    pub mv: Move,
    /// Visits (playouts through it).
    pub visits: u32,
    /// Win rate for the side to move, 0..1.
    pub winrate: f32,
    /// The move's share of the prior wins of all root moves, 0..1.
    pub prior: f32,
    /// Lower confidence bound of the win rate (95%, normal approximation).
    pub lcb: f32,
    /// Rank by visits, 0 for the best.
    pub order: usize,
    /// Principal variation from this move (most visited child each step).
    pub pv: Vec<Move>,
    /// Visits of each node of the PV (the first is `visits`).
    pub pv_visits: Vec<u32>,
    /// Mean final score of the playouts through the move, as the lead of
    /// the side to move at the root (komi included; the real komi even
    /// where the search plays with dynamic komi).
    pub score_lead: f32,
    /// Standard deviation of those final scores.
    pub score_stdev: f32,
}

impl CandidateInfo {
    /// A root move with `visits` at `winrate` and nothing else known: no
    /// prior, the move alone as its PV, zero scores (for made-up analyses).
    pub fn bare(mv: Move, visits: u32, winrate: f32) -> CandidateInfo {
        CandidateInfo {
            mv,
            visits,
            winrate,
            prior: 0.0,
            lcb: 0.0,
            order: 0,
            pv: vec![mv],
            pv_visits: vec![visits],
            score_lead: 0.0,
            score_stdev: 0.0,
        }
    }
}

/// A snapshot of the search at the root, for analysis output.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The side to move at the root.
    pub color: Color,
    /// Root visits (including those of reused subtrees).
    pub visits: u32,
    /// Playouts run by this search.
    pub playouts: u64,
    /// Win rate of the best move for the side to move.
    pub winrate: f32,
    /// Mean playout score margin for the side to move, komi included.
    pub score_lead: f32,
    /// Win rate at the root for the side to move: the wins of all root
    /// moves over their visits.
    pub root_winrate: f32,
    /// Mean final score of every playout through the root (reused subtrees
    /// included), as the lead of the side to move, komi included.
    pub root_score_lead: f32,
    /// Standard deviation of those final scores.
    pub root_score_stdev: f32,
    /// Root moves with at least one visit, best first.
    pub candidates: Vec<CandidateInfo>,
    /// Root moves the search may play but has not visited yet, highest
    /// prior first (for KataGo's `minmoves`): zero visits, the root's score
    /// lead and the prior's win rate.
    pub unvisited: Vec<CandidateInfo>,
    /// Ownership per on-board point, row by row from the top: +1 Black's,
    /// -1 White's (empty before any playout).
    pub ownership: Vec<f32>,
}

/// KataGo's `avoid` and `allow` lists: moves a search may not consider for
/// one colour until a depth (in plies from the root, which is depth 0).
/// The default filters nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFilter {
    /// Per colour (Black, White): for each point index, and the pass at
    /// index [`ARRAY_LEN`], the depth from which the move is allowed again
    /// (0: always allowed). Empty when the colour has no list.
    until: [Vec<u16>; 2],
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn slot(mv: Move) -> usize {
    match mv {
        Move::Pass => ARRAY_LEN,
        Move::Play(p) => p.index(),
    }
}

impl MoveFilter {
    /// Whether no move of either colour is filtered.
    pub fn is_empty(&self) -> bool {
        self.until.iter().all(Vec::is_empty)
    }

    fn table(&mut self, color: Color) -> &mut Vec<u16> {
        let t = &mut self.until[side(color)];
        if t.is_empty() {
            t.resize(ARRAY_LEN + 1, 0);
        }
        t
    }

    /// `avoid COLOR MOVES UNTIL`: `color` may not play `moves` at depths
    /// below `until`.
    pub fn avoid(&mut self, color: Color, moves: &[Move], until: u16) {
        let t = self.table(color);
        for &m in moves {
            t[slot(m)] = until;
        }
    }

    /// `allow COLOR MOVES UNTIL`: below depth `until`, `color` may play
    /// only `moves` (the pass included only when listed).
    pub fn allow_only(&mut self, color: Color, moves: &[Move], until: u16) {
        let t = self.table(color);
        t.fill(until);
        for &m in moves {
            t[slot(m)] = 0;
        }
    }

    /// Whether `color` may not play `mv` at `depth` plies below the root.
    #[inline]
    pub fn forbids(&self, color: Color, mv: Move, depth: usize) -> bool {
        self.forbids_slot(color, slot(mv), depth)
    }

    /// [`MoveFilter::forbids`] by slot: a point index, or [`ARRAY_LEN`] for
    /// the pass.
    #[inline]
    pub fn forbids_slot(&self, color: Color, slot: usize, depth: usize) -> bool {
        let t = &self.until[side(color)];
        !t.is_empty() && depth < t[slot] as usize
    }
}

/// What a player that can show its thinking offers a controller (GTP's
/// analysis commands and pondering).
pub trait Analyzer {
    /// Searches `game` for `color` with at most `playouts` playouts (no
    /// limit when `None`) or until `stop` is set, never considering the
    /// moves `filter` forbids, calling `on_update` with a snapshot about
    /// every `interval`; returns the final snapshot.
    #[allow(clippy::too_many_arguments)]
    fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        playouts: Option<u64>,
        stop: Option<&AtomicBool>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Analysis;

    /// [`Player::genmove`] with live analysis: `on_update` gets a snapshot
    /// about every `interval` while the search runs; the moves `filter`
    /// forbids are neither searched nor chosen.
    fn genmove_analyze(
        &mut self,
        req: &GenmoveRequest<'_>,
        interval: Duration,
        filter: &MoveFilter,
        on_update: &mut dyn FnMut(&Analysis),
    ) -> Decision;
}

/// The moves `color` may play now that do not fill one of its own eyes
/// (superko checked), without the pass.
pub fn sensible_moves(game: &Game, color: Color) -> Vec<Point> {
    let b = game.board();
    b.points()
        .filter(|&p| b.is_empty(p) && !b.is_eye(color, p) && game.is_legal(color, Move::Play(p)))
        .collect()
}

/// Plays uniformly at random among the legal moves that do not fill its own
/// eyes; passes when there is none. Never resigns.
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player with its own stream seeded by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Decision {
        let moves = sensible_moves(req.game, req.color);
        if moves.is_empty() {
            Decision::Play(Move::Pass)
        } else {
            Decision::Play(Move::Play(moves[below(&mut self.rng, moves.len())]))
        }
    }
}

/// Ownership estimated from `playouts` uniform random playouts of the
/// current position (the benchmark policy, side to move first): for each
/// on-board point, row by row from the top, the mean over playouts of +1
/// when the point ends Black's (stone or eye), -1 when White's, 0 otherwise.
pub fn mc_ownership(game: &Game, playouts: usize, seed: u64) -> Vec<f32> {
    mean_ownership(game, playouts, seed, |b, c, rng, own| {
        uniform_playout(b, c, rng);
        point_owners(b, own);
    })
}

/// [`mc_ownership`] with the search's playout policy (default
/// [`PlayoutConfig`]) instead of uniform moves. The policy never plays a
/// self-atari of two stones or more, so chains in seki keep their shared
/// liberties and end the playouts alive, where uniform playouts fill the
/// liberties and call one side dead.
pub fn policy_ownership(game: &Game, playouts: usize, seed: u64) -> Vec<f32> {
    // Every point's owner read on a finished board.
    let cfg = PlayoutConfig::default().played_out();
    let mut first_play: FirstPlay = [0; ARRAY_LEN];
    // The playout fills `own` with the final owners as it scores.
    let komi = game.komi().get();
    mean_ownership(game, playouts, seed, |b, c, rng, own| {
        playout(b, c, None, rng, &cfg, komi, 0, &mut first_play, own);
    })
}

/// The mean final owner of every point over `playouts` runs of `play_out`
/// from `game`'s position (side to move first), which plays a copy of the
/// board out and fills the owner of every point.
fn mean_ownership(
    game: &Game,
    playouts: usize,
    seed: u64,
    mut play_out: impl FnMut(&mut Board, Color, &mut Xoshiro256PlusPlus, &mut [i8; ARRAY_LEN]),
) -> Vec<f32> {
    let start = game.board();
    let n = start.size();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut sum = vec![0f32; n * n];
    let mut own = [0i8; ARRAY_LEN];
    for _ in 0..playouts.max(1) {
        let mut b: Board = start.clone();
        play_out(&mut b, game.to_move(), &mut rng, &mut own);
        for (i, p) in b.points().enumerate() {
            sum[i] += f32::from(own[p.index()]);
        }
    }
    let k = playouts.max(1) as f32;
    sum.iter().map(|s| s / k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn random_player_plays_legal_moves_until_both_pass() {
        let mut game = Game::new(5, Rules::default(), crate::komi::Komi::default()).unwrap();
        let mut p = RandomPlayer::new(7);
        let clock = Clock::default();
        let mut n = 0;
        while !game.two_passes() && n < 500 {
            let c = game.to_move();
            let d = p.genmove(&GenmoveRequest {
                game: &game,
                color: c,
                clock: &clock,
                cleanup: false,
                stop: None,
            });
            let Decision::Play(mv) = d else {
                panic!("random player resigned")
            };
            game.play(c, mv).unwrap();
            n += 1;
        }
        assert!(game.two_passes(), "game did not end in 500 moves");
    }

    #[test]
    fn move_filters_count_depth_from_the_root_per_colour() {
        let d4 = Move::Play(Point::new(3, 3));
        let e5 = Move::Play(Point::new(4, 4));
        let mut f = MoveFilter::default();
        assert!(f.is_empty());
        assert!(!f.forbids(Color::Black, d4, 0));
        f.avoid(Color::Black, &[d4], 3);
        assert!(!f.is_empty());
        // Depths 0, 1, 2 are below 3; White is not concerned.
        assert!(f.forbids(Color::Black, d4, 0));
        assert!(f.forbids(Color::Black, d4, 2));
        assert!(!f.forbids(Color::Black, d4, 3));
        assert!(!f.forbids(Color::Black, e5, 0));
        assert!(!f.forbids(Color::White, d4, 0));
        // allow: everything else, the pass included, until depth 1.
        f.allow_only(Color::White, &[e5], 1);
        assert!(f.forbids(Color::White, d4, 0));
        assert!(f.forbids(Color::White, Move::Pass, 0));
        assert!(!f.forbids(Color::White, e5, 0));
        assert!(!f.forbids(Color::White, d4, 1));
        f.allow_only(Color::Black, &[Move::Pass], 2);
        assert!(!f.forbids(Color::Black, Move::Pass, 0));
        assert!(f.forbids(Color::Black, e5, 1));
    }

    #[test]
    fn ownership_of_a_settled_board() {
        let b = Board::from_diagram(
            "
            . X O .
            X X O O
            X X O .
            . X O O",
        )
        .unwrap();
        let game = Game::from_position(
            b,
            Color::Black,
            Rules::default(),
            crate::komi::Komi::new(0.5).unwrap(),
        );
        let own = mc_ownership(&game, 20, 3);
        assert_eq!(own[0], 1.0);
        assert_eq!(own[2], -1.0);
    }
}

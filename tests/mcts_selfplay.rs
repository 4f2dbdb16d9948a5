//! The playout policy against uniform playouts, same search otherwise
//! (ignored: minutes of CPU). Run, for example:
//!
//! ```sh
//! KOSUMI_GAMES=10 KOSUMI_TIME=0.5 \
//!   cargo test --release --test mcts_selfplay -- --ignored --nocapture
//! ```
//!
//! Both sides get `KOSUMI_TIME` seconds per move on one thread (or
//! `KOSUMI_PLAYOUTS` playouts); colours alternate, the policy side is Black
//! in even games. Games end at two passes, a resignation or 3·N² moves and
//! are scored by area after removing the stones the policy side's ownership
//! calls dead. The test fails unless the policy side wins more than half.

use kosumi::clock::Clock;
use kosumi::mcts::{MctsPlayer, SearchConfig};
use kosumi::player::{Decision, GenmoveRequest, Player};
use kosumi::rules::Rules;
use kosumi::{Color, Game};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "plays for minutes; see the module docs"]
fn policy_against_uniform_playouts() {
    let games: usize = env("KOSUMI_GAMES", 10);
    let size: usize = env("KOSUMI_SIZE", 9);
    let time: f64 = env("KOSUMI_TIME", 0.5);
    let playouts: u64 = env("KOSUMI_PLAYOUTS", 0);
    let base = SearchConfig {
        threads: 1,
        max_playouts: (playouts > 0).then_some(playouts),
        time_per_move: (playouts == 0).then_some(time),
        ..SearchConfig::default()
    };
    let mut policy_wins = 0;
    let mut rates = [0u64; 2];
    let mut counts = [0u64; 2];
    for g in 0..games {
        let policy_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut policy = MctsPlayer::new(SearchConfig {
            seed: 100 + g as u64,
            ..base.clone()
        });
        let mut uniform = MctsPlayer::new(SearchConfig {
            seed: 200 + g as u64,
            playout: kosumi::playout::PlayoutConfig {
                uniform_playouts: true,
                ..base.playout.clone()
            },
            ..base.clone()
        });
        let mut game = Game::new(size, Rules::default(), kosumi::Komi::default()).unwrap();
        let clock = Clock::default();
        let mut winner = None;
        while winner.is_none() && !game.two_passes() && game.moves().len() < 3 * size * size {
            let c = game.to_move();
            let (p, k) = if c == policy_color {
                (&mut policy, 0)
            } else {
                (&mut uniform, 1)
            };
            let d = p.genmove(&GenmoveRequest {
                game: &game,
                color: c,
                clock: &clock,
                cleanup: false,
                stop: None,
            });
            rates[k] += p.last_analysis().map_or(0, |a| a.playouts);
            counts[k] += 1;
            match d {
                Decision::Resign => winner = Some(c.opponent()),
                Decision::Play(m) => game.play(c, m).unwrap(),
            }
        }
        let winner = winner.unwrap_or_else(|| {
            let own = policy.ownership(&game);
            let chains = kosumi::endgame::classify(game.board(), &own);
            if kosumi::endgame::count(&game, &chains).margin() > 0.0 {
                Color::Black
            } else {
                Color::White
            }
        });
        if winner == policy_color {
            policy_wins += 1;
        }
        println!(
            "game {} policy {} winner {} moves {}",
            g + 1,
            policy_color.letter(),
            winner.letter(),
            game.moves().len()
        );
    }
    println!(
        "policy playouts won {policy_wins}/{games}; mean playouts/move policy {:.0} uniform {:.0}",
        rates[0] as f64 / counts[0].max(1) as f64,
        rates[1] as f64 / counts[1].max(1) as f64
    );
    assert!(
        2 * policy_wins > games,
        "the playout policy won only {policy_wins} of {games} games against uniform playouts"
    );
}

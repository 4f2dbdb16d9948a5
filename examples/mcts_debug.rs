//! Prints the root analysis of a position given as a diagram file.
use kosumi::mcts::search::Limits;
use kosumi::mcts::{MctsPlayer, SearchConfig};
use kosumi::rules::Rules;
use kosumi::{Board, Color, Game};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("diagram file");
    let color = if args[2] == "b" {
        Color::Black
    } else {
        Color::White
    };
    let playouts: u64 = args[3].parse().expect("playouts");
    let game = Game::from_position(
        Board::from_diagram(&text).expect("diagram"),
        color,
        Rules::default(),
        7.5,
    );
    let mut p = MctsPlayer::new(SearchConfig {
        threads: 1,
        seed: 1,
        ..SearchConfig::default()
    });
    let a = p.analyze(
        &game,
        color,
        Limits {
            playouts: Some(playouts),
            time: None,
        },
        None,
        Duration::from_secs(100),
        &mut |_| {},
    );
    println!(
        "playouts {} visits {} winrate {:.3} score {:.1}",
        a.playouts, a.visits, a.winrate, a.score_lead
    );
    let n = game.size();
    for y in 0..n {
        let row: Vec<String> = (0..n)
            .map(|x| format!("{:+.1}", a.ownership[y * n + x]))
            .collect();
        println!("{}", row.join(" "));
    }
    println!(
        "dead {:?} passing wins {}",
        p.dead_stones(game.board(), &a.ownership)
            .iter()
            .map(|q| q.to_gtp(n))
            .collect::<Vec<_>>(),
        p.passing_wins(&game, color, &a.ownership)
    );
    for c in a.candidates.iter().take(10) {
        let pv: Vec<String> = c.pv.iter().map(|m| m.to_gtp(game.size())).collect();
        println!(
            "{} v={} wr={:.3} prior={:.3} lcb={:.3} pv {}",
            c.mv.to_gtp(game.size()),
            c.visits,
            c.winrate,
            c.prior,
            c.lcb,
            pv.join(" ")
        );
    }
}

//! The count of a finished game keeps a seki alive (`play::count_finished`).

mod selfplay_support;

use kosumi::play::count_finished;
use kosumi::player::mc_ownership;
use kosumi::Color;

fn record() -> kosumi::Game {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/gnugo-seki.sgf");
    selfplay_support::replay(&std::fs::read_to_string(path).expect("record"))
}

#[test]
fn a_seki_is_counted_as_seki_not_as_dead_stones() {
    let game = record();
    let count = count_finished(&game);
    // GNU Go's final_score: W+3 (it counts one point differently); the
    // seki stays on the board either way, so White wins.
    assert_eq!(
        count.result().winner(),
        Some(Color::White),
        "{}",
        count.describe()
    );
    // The uniform playouts of the old count fill the shared liberty and
    // call White's group dead: Black by 22.
    let uniform = mc_ownership(&game, kosumi::play::COUNT_PLAYOUTS, 1);
    let chains = kosumi::endgame::classify(game.board(), &uniform);
    let old = kosumi::endgame::count(&game, &chains);
    assert_eq!(
        old.result().winner(),
        Some(Color::Black),
        "{}",
        old.describe()
    );
}

//! The count of a game with a clean-up under territory rules charges no
//! clean-up stone (`play::count_after_cleanup`).

mod selfplay_support;

use kosumi::play::{count_after_cleanup, count_finished};
use kosumi::rules::Scoring;
use kosumi::{Color, Move};

#[test]
fn a_japanese_clean_up_does_not_turn_the_result() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/records/gnugo-japanese-cleanup.sgf"
    );
    let game = selfplay_support::replay(&std::fs::read_to_string(path).expect("record"));
    assert_eq!(game.rules().scoring, Scoring::Territory);
    let start = 274;
    assert!(game.moves()[start - 2..start]
        .iter()
        .all(|m| m.mv == Move::Pass));
    assert_eq!(game.moves().len(), start + 84);
    // Counted as the board stands after the clean-up: Black wins.
    let after = count_finished(&game);
    assert_eq!(
        after.result().winner(),
        Some(Color::Black),
        "{}",
        after.describe()
    );
    // Counted before it, with the chains it captured dead: White wins by
    // 1.5, as GNU Go's final_score says of that position.
    let count = count_after_cleanup(&game, start);
    assert_eq!(
        count.result().winner(),
        Some(Color::White),
        "{}",
        count.describe()
    );
    assert_eq!(count.result().to_string(), "W+1.5", "{}", count.describe());
}

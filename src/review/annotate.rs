//! The annotated record: the input's game tree with, on each reviewed
//! move, a comment in plain words, Sabaki's win-rate property, a bad-move
//! mark for mistakes, and the search's best line as a variation.
//!
//! Sabaki draws its win-rate graph from `SBKV` (read from the nodes of
//! the current line, `SBKV[0]` as a number): Black's win rate in percent
//! after the node's move, the value Sabaki itself writes when it analyses
//! with an engine. The root carries the start position's.

use crate::color::Color;
use crate::point::Move;
use crate::review::core::{MoveReview, Position, Verdict};
use crate::sgf::{GameTree, Node, Property};

/// The move in SGF form (`B[dd]`, a pass as `B[]`).
fn move_prop(color: Color, mv: Move) -> Property {
    let v = match mv {
        Move::Pass => String::new(),
        Move::Play(p) => p.to_sgf(),
    };
    Property::new(&color.letter().to_string(), vec![v])
}

fn set(node: &mut Node, prop: Property) {
    match node.props.iter_mut().find(|p| p.id == prop.id) {
        Some(p) => *p = prop,
        None => node.props.push(prop),
    }
}

/// Appends `text` to the node's comment (a blank line after what was
/// there).
fn add_comment(node: &mut Node, text: &str) {
    let old = node.get("C").map(|p| p.text()).unwrap_or_default();
    let new = if old.trim().is_empty() {
        text.to_string()
    } else {
        format!("{}\n\n{text}", old.trim_end())
    };
    set(node, Property::from_text("C", &new));
}

/// Black's win rate in percent as Sabaki's `SBKV` value.
pub fn sbkv(black_winrate: f64) -> String {
    format!("{:.2}", (black_winrate * 100.0).clamp(0.0, 100.0))
}

fn signed(x: f64) -> String {
    format!("{x:+.1}")
}

/// The comment of a reviewed move, in plain words.
pub fn comment(r: &MoveReview, size: usize) -> String {
    let who = r.color.name();
    let who = format!("{}{}", who[..1].to_uppercase(), &who[1..]);
    let played = r.played.to_gtp(size);
    let mut s = format!(
        "Kosumi: {who} {played}. Black's win rate {:.1}% before, {:.1}% after; Black's lead {} points before, {} after.",
        r.black_winrate.0 * 100.0,
        r.black_winrate.1 * 100.0,
        signed(r.black_lead.0),
        signed(r.black_lead.1),
    );
    if r.best == r.played {
        s.push_str(" This is Kosumi's choice too.");
    } else {
        s.push_str(&format!(
            " Against Kosumi's best move, it changes {who}'s win rate by {:+.1}% and lead by {:+.1} points: {}.",
            -r.winrate_loss * 100.0,
            -r.score_loss,
            match r.verdict {
                Verdict::Good => "about as good as Kosumi's choice",
                Verdict::Inaccuracy => "an inaccuracy",
                Verdict::Mistake => "a mistake",
                Verdict::Blunder => "a blunder",
            }
        ));
        let line: Vec<String> = r.best_pv.iter().map(|m| m.to_gtp(size)).collect();
        s.push_str(&format!(
            " Kosumi prefers {} (best line: {}).",
            r.best.to_gtp(size),
            line.join(" ")
        ));
    }
    s
}

/// Annotates `tree`: `move_nodes[k]` is the node of move `k + 1` of the
/// main line; `reviews` the reviewed moves; `positions` the searched
/// positions (by turn) for the graph property.
pub fn annotate(
    tree: &GameTree,
    move_nodes: &[usize],
    reviews: &[MoveReview],
    positions: &[Position],
    size: usize,
) -> GameTree {
    let mut t = tree.clone();
    // The graph property: the position after each move (root: the start).
    for p in positions {
        let node = if p.turn == 0 {
            if move_nodes.first() == Some(&0) {
                continue;
            }
            0
        } else {
            match move_nodes.get(p.turn - 1) {
                Some(&n) => n,
                None => continue,
            }
        };
        set(
            &mut t.nodes[node],
            Property::new("SBKV", vec![sbkv(p.black_winrate())]),
        );
    }
    for r in reviews {
        let Some(&node) = move_nodes.get(r.number - 1) else {
            continue;
        };
        add_comment(&mut t.nodes[node], &comment(r, size));
        match r.verdict {
            Verdict::Blunder => set(&mut t.nodes[node], Property::new("BM", vec!["2".into()])),
            Verdict::Mistake => set(&mut t.nodes[node], Property::new("BM", vec!["1".into()])),
            Verdict::Inaccuracy => {
                set(&mut t.nodes[node], Property::new("DO", vec![String::new()]))
            }
            Verdict::Good => {}
        }
        // The best line as a variation beside the move played.
        if r.best == r.played || r.best_pv.is_empty() {
            continue;
        }
        let parent = if r.number == 1 {
            if node == 0 {
                continue; // the first move stands in the root: no sibling possible
            }
            0
        } else {
            move_nodes[r.number - 2]
        };
        let mut color = r.color;
        let mut at = parent;
        for (i, &mv) in r.best_pv.iter().enumerate() {
            let mut n = Node::default();
            n.props.push(move_prop(color, mv));
            if i == 0 {
                n.props.push(Property::from_text(
                    "C",
                    &format!(
                        "Kosumi's best line instead of {} {}.",
                        if r.color == Color::Black {
                            "Black"
                        } else {
                            "White"
                        },
                        r.played.to_gtp(size)
                    ),
                ));
            }
            t.nodes.push(n);
            let id = t.nodes.len() - 1;
            t.nodes[at].children.push(id);
            at = id;
            color = color.opponent();
        }
    }
    t.renumber();
    t
}

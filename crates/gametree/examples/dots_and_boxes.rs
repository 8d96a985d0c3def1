//! Dots and Boxes on a 2×2 board, written the natural way: a player who completes a box moves
//! again, so the side to move does not always change. docs/your-own-game.md quotes it. Run with
//!
//! ```sh
//! cargo run --release -p gametree --example dots_and_boxes
//! ```
//!
//! Its tests check every exact searcher of the registry, in every reachable position, against a
//! brute force (`cargo test --release -p gametree --example dots_and_boxes`).

use gametree::prelude::*;

/// Dots and Boxes on 3×3 dots: 12 edges around 2×2 boxes. Players take turns drawing an edge; a
/// player who completes a box scores it and moves again; the player with more boxes wins.
#[derive(Clone, Copy, Debug, Default)]
struct DotsAndBoxes;

/// The edges drawn (bit `e` for edge `e`, see [`BOXES`]), the boxes each player scored, and who
/// moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Board {
    edges: u16,
    boxes: [u8; 2],
    to_move: u8,
}

/// Edges 0–5 are horizontal, row by row (`2·row + column`, rows 0–2); edges 6–11 vertical
/// (`6 + 3·row + column`, rows 0–1, columns 0–2). Each box, as the mask of its four edges.
const BOXES: [u16; 4] = [
    1 << 0 | 1 << 2 | 1 << 6 | 1 << 7,   // top left
    1 << 1 | 1 << 3 | 1 << 7 | 1 << 8,   // top right
    1 << 2 | 1 << 4 | 1 << 9 | 1 << 10,  // bottom left
    1 << 3 | 1 << 5 | 1 << 10 | 1 << 11, // bottom right
];

/// Every edge drawn.
const ALL_EDGES: u16 = (1 << 12) - 1;

/// How many boxes the edges complete.
fn complete(edges: u16) -> u8 {
    BOXES.iter().filter(|&&b| edges & b == b).count() as u8
}

impl Game for DotsAndBoxes {
    type State = Board;
    type Move = u8; // the edge

    fn initial_state(&self) -> Board {
        Board::default()
    }

    fn apply(&self, board: &mut Board, edge: u8) -> Option<Board> {
        let edges = board.edges | 1 << edge;
        let scored = complete(edges) - complete(board.edges);
        let mut next = Board { edges, ..*board };
        next.boxes[usize::from(board.to_move)] += scored;
        if scored == 0 {
            next.to_move = 1 - board.to_move; // no box: the turn passes
        }
        Some(next)
    }

    fn state_hash(&self, board: &Board) -> Option<u64> {
        let [a, b] = board.boxes.map(u64::from);
        let key = u64::from(board.edges) | a << 16 | b << 24 | u64::from(board.to_move) << 32;
        Some(gametree::game::mix64(key))
    }
}

impl ZeroSumGame for DotsAndBoxes {
    fn side_to_move(&self, board: &Board) -> PlayerId {
        board.to_move.into() // the same player again after a completed box
    }

    fn outcome(&self, board: &Board) -> Option<Outcome> {
        let (mine, theirs) = (
            board.boxes[board.to_move as usize],
            board.boxes[1 - board.to_move as usize],
        );
        (board.edges == ALL_EDGES).then(|| Outcome::margin_of(i32::from(mine) - i32::from(theirs)))
    }

    fn moves(&self, board: &Board, moves: &mut MoveList<u8>) {
        moves.extend((0..12).filter(|&e| board.edges & 1 << e == 0));
    }
}

/// The evaluation: the box difference so far, side to move minus opponent (one box is the unit).
#[derive(Clone, Copy, Debug)]
struct BoxDifference;

impl Evaluator<DotsAndBoxes> for BoxDifference {
    fn evaluate(&mut self, _: &DotsAndBoxes, board: &Board) -> Score {
        let mine = i32::from(board.boxes[board.to_move as usize]);
        mine - i32::from(board.boxes[1 - board.to_move as usize])
    }

    /// A finished game scores its margin in boxes, on the evaluation's scale.
    fn terminal(&mut self, _: &DotsAndBoxes, _: &Board, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (game, start) = (DotsAndBoxes, DotsAndBoxes.initial_state());
    let kit = Kit::new(BoxDifference, 1);
    for spec in [
        "pvs:depth=12,tt=1mb",
        "mtdf:depth=12,tt=1mb",
        "alphabeta:depth=12",
    ] {
        let result = kit
            .searcher(&game, spec)?
            .search(&game, &start, &Limits::none());
        // Twelve plies reach the end of every game, and a finished game scores its margin in
        // boxes: the value is the result.
        let reading = Scale::Margin.read(result.value);
        let line: Vec<String> = result.pv.iter().map(|&e| e.to_string()).collect();
        println!(
            "{spec:<22} {reading} ({}), {} nodes, line {}",
            result.bound,
            result.stats.generated,
            line.join(" ")
        );
        assert_eq!(reading, Reading::Win { by: 2 });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// The margin `board` is worth to its side to move with best play, by memoised brute force:
    /// the best over every edge of the next position's margin, as it is where the same player
    /// moves again, negated where the turn passed.
    fn solve(board: Board, memo: &mut HashMap<Board, Score>) -> Score {
        if let Some(&known) = memo.get(&board) {
            return known;
        }
        let value = match DotsAndBoxes.outcome(&board) {
            Some(outcome) => outcome.margin(),
            None => (0..12u8)
                .filter(|&e| board.edges & 1 << e == 0)
                .map(|e| {
                    let next = DotsAndBoxes
                        .apply(&mut board.clone(), e)
                        .expect("copy-make");
                    let v = solve(next, memo);
                    if next.to_move == board.to_move {
                        v
                    } else {
                        -v
                    }
                })
                .max()
                .expect("a game in progress has an edge left"),
        };
        memo.insert(board, value);
        value
    }

    /// Every position reachable from the start, with its brute-force value.
    fn reachable() -> Vec<(Board, Score)> {
        let mut memo = HashMap::new();
        solve(Board::default(), &mut memo);
        let mut all: Vec<(Board, Score)> = memo.into_iter().collect();
        all.sort_by_key(|(b, _)| (b.edges.count_ones(), b.edges, b.boxes, b.to_move));
        all
    }

    #[test]
    fn the_brute_force_sees_extra_turns_and_every_position() {
        let all = reachable();
        let extra_turns = all
            .iter()
            .filter(|(b, _)| complete(b.edges) > 0 && b.edges != ALL_EDGES)
            .count();
        assert!(
            all.len() > 5_000 && extra_turns > 1_000,
            "{}, {extra_turns}",
            all.len()
        );
    }

    /// Every searcher the registry calls exact returns the brute-force value, exact, in every
    /// reachable position; Minimax, which visits every line, where at most 8 edges are left
    /// (8! lines), which still covers more than half of the positions.
    #[test]
    fn every_exact_searcher_gets_the_true_value_in_every_position() {
        let kit = Kit::new(BoxDifference, 1);
        let exact = gametree::registry::SEARCHERS.iter().filter(|s| s.exact);
        let mut specs: Vec<(String, u32)> = exact
            .map(|s| match s.name {
                "minimax" => ("minimax:depth=12".to_string(), 8),
                name => (format!("{name}:depth=12,tt=1mb"), 12),
            })
            .collect();
        specs.push(("pvs:depth=12,tt=1mb,threads=2".to_string(), 12));
        specs.push(("alphabeta:depth=12,tt=0".to_string(), 12));
        let all = reachable();
        for (spec, edges_left) in &specs {
            let mut searcher = kit.searcher(&DotsAndBoxes, spec).expect("a valid spec");
            let mut checked = 0;
            for (board, truth) in &all {
                if 12 - board.edges.count_ones() > *edges_left || board.edges == ALL_EDGES {
                    continue;
                }
                let r = searcher.search(&DotsAndBoxes, board, &Limits::none());
                assert_eq!(
                    (r.value, r.bound),
                    (*truth, Bound::Exact),
                    "{spec} at {board:?}"
                );
                checked += 1;
            }
            assert!(checked > all.len() / 2, "{spec}: {checked} positions");
        }
    }
}

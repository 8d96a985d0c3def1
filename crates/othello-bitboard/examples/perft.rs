//! Perft from the start position, with timing: `cargo run --release -p othello-bitboard --example perft -- 11`.
//! Add `--portable` to force the baseline build, `--generic` for the game-trait route, `--mailbox` for
//! an independent square-by-square generator (an array of 64 cells, no bitboards): the second method
//! that confirms the counts beyond the tested depths.

use std::time::Instant;

use game_trait::{Game, MoveList, ZeroSumGame};
use othello_bitboard::{perft, perft_portable, Board, Othello, Position};

fn generic(
    game: &Othello,
    state: &Position,
    depth: u32,
    moves: &mut [MoveList<othello_bitboard::Move>],
) -> u64 {
    if depth == 0 || game.outcome(state).is_some() {
        return 1;
    }
    let (here, deeper) = moves.split_first_mut().expect("one buffer per ply");
    here.clear();
    game.moves(state, here);
    let mut total = 0;
    for &mv in here.iter() {
        let mut s = *state;
        let child = game.apply(&mut s, mv).expect("copy-make");
        total += generic(game, &child, depth - 1, deeper);
    }
    total
}

/// Cells: 1 the side to move, -1 the opponent, 0 empty; a1 = 0, h8 = 63.
type Cells = [i8; 64];

/// The children of `cells` by placements only, each seen from its own side to move.
fn mailbox_children(cells: &Cells) -> Vec<Cells> {
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let on_board = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
    let mut children = Vec::new();
    for sq in (0..64).filter(|&sq| cells[sq] == 0) {
        let mut child = *cells;
        for (df, dr) in DIRS {
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            let mut line = Vec::new();
            while on_board(f, r) && cells[(r * 8 + f) as usize] == -1 {
                line.push((r * 8 + f) as usize);
                (f, r) = (f + df, r + dr);
            }
            if on_board(f, r) && cells[(r * 8 + f) as usize] == 1 {
                line.iter().for_each(|&i| child[i] = 1);
            }
        }
        if child != *cells {
            child[sq] = 1;
            children.push(child.map(|c| -c));
        }
    }
    children
}

fn mailbox(cells: &Cells, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = mailbox_children(cells);
    if !children.is_empty() {
        return children.iter().map(|c| mailbox(c, depth - 1)).sum();
    }
    let passed = cells.map(|c| -c);
    if mailbox_children(&passed).is_empty() {
        return 1; // neither side can move: the game is over
    }
    mailbox(&passed, depth - 1)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(11);
    let portable = args.iter().any(|a| a == "--portable");
    let use_generic = args.iter().any(|a| a == "--generic");
    let use_mailbox = args.iter().any(|a| a == "--mailbox");
    for d in 1..=depth {
        let start = Instant::now();
        let count = if use_mailbox {
            let mut cells = [0i8; 64];
            (cells[28], cells[35], cells[27], cells[36]) = (1, 1, -1, -1);
            mailbox(&cells, d)
        } else if use_generic {
            let mut buffers = vec![MoveList::new(); d as usize + 1];
            generic(&Othello, &Position::start(), d, &mut buffers)
        } else if portable {
            perft_portable(Board::START, d)
        } else {
            perft(Board::START, d)
        };
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{d} {count} {seconds:.3} ({:.0} M leaves/s)",
            count as f64 / seconds / 1e6
        );
    }
}

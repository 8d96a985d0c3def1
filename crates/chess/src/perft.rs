//! [`perft`]: counting move sequences, the standard test of a chess move generator.
//!
//! `perft(p, 0) = 1`; otherwise `perft(p, d)` is the sum of `perft(c, d − 1)` over the legal moves
//! of `p`. A checkmate or stalemate before the last ply has no moves and so counts 0, and the draw
//! rules (repetition, fifty moves, insufficient material) are not applied: this is the convention
//! of the published counts (the Chess Programming Wiki's *Perft Results*). It differs from
//! search-core's generic perft, which counts a finished game as 1 at any depth and applies every
//! rule of [`ZeroSumGame::outcome`](game_trait::ZeroSumGame::outcome).
//!
//! The last ply is counted without playing its moves ("bulk counting"), as the move generator's
//! own perft example does.

use cozy_chess::{Board, Move};

use crate::position::Position;

/// The number of move sequences `depth` plies long from `board` (see the [module docs](self)).
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut count = 0;
            board.generate_moves(|moves| {
                count += moves.len() as u64;
                false
            });
            count
        }
        _ => {
            let mut count = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    count += perft(&child, depth - 1);
                }
                false
            });
            count
        }
    }
}

/// [`perft`] split by the first move, in UCI notation, sorted by it: for finding which subtree a
/// generator gets wrong by comparing with another program's divide.
pub fn divide(position: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let board = position.board();
    let mut first: Vec<Move> = Vec::new();
    board.generate_moves(|moves| {
        first.extend(moves);
        false
    });
    let mut divided: Vec<(String, u64)> = first
        .into_iter()
        .map(|mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            (position.uci(mv), perft(&child, depth - 1))
        })
        .collect();
    divided.sort();
    divided
}

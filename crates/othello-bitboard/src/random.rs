//! Seeded random playouts from the start position: test positions for perft, the evaluations and the
//! endgame solver. Every choice flows from the caller's seed through `rand_pcg::Pcg64`, so the same
//! seed gives the same position on every machine.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::position::Position;
use crate::square::{Move, Square};

/// Plays uniformly random legal moves (passes when forced) from the start position until at most
/// `empties` squares are empty or the game is over, and returns the position reached.
///
/// ```
/// use othello_bitboard::random_position;
/// let p = random_position(42, 10);
/// assert!(p.empty_count() <= 10 || p.is_game_over());
/// assert_eq!(p, random_position(42, 10));
/// ```
pub fn random_position(seed: u64, empties: u32) -> Position {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut position = Position::start();
    while position.empty_count() > empties && !position.is_game_over() {
        position = position.play_legal(random_move(&position, &mut rng));
    }
    position
}

/// A uniformly random legal move of a position that is not over (the pass when it is forced).
pub fn random_move(position: &Position, rng: &mut impl Rng) -> Move {
    let squares = position.legal_squares();
    if squares == 0 {
        return Move::PASS;
    }
    // Pick the k-th set bit.
    let mut bits = squares;
    for _ in 0..rng.gen_range(0..squares.count_ones()) {
        bits &= bits - 1;
    }
    Move::at(Square::lowest(bits))
}

/// Every position of one random game from the start (the start included), `seed` choosing the moves.
pub fn random_game(seed: u64) -> Vec<Position> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut game = vec![Position::start()];
    let mut position = Position::start();
    while !position.is_game_over() {
        position = position.play_legal(random_move(&position, &mut rng));
        game.push(position);
    }
    game
}

//! [`Othello`]: the rules as a game-trait [`Game`] and [`ZeroSumGame`], so every searcher of the
//! workspace runs on it.

use game_trait::{Game, MoveList, Outcome, PlayerId, ZeroSumGame};

use crate::position::Position;
use crate::square::{Move, Square};

/// The rules of Othello (8x8, standard start, black first). Copy-make: [`Game::apply`] returns the
/// child [`Position`] and never mutates.
///
/// - [`ZeroSumGame::moves`]: the side to move's legal squares, or [`Move::PASS`] alone when it has
///   none but its opponent has some.
/// - [`ZeroSumGame::outcome`]: once neither side can move, the disc difference from the side to
///   move's view with the empty squares going to the winner (the FFO / Edax convention).
/// - [`Game::state_hash`] is [`Position::hash`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Othello;

impl Game for Othello {
    type State = Position;
    type Move = Move;

    fn initial_state(&self) -> Position {
        Position::start()
    }

    #[inline]
    fn apply(&self, state: &mut Position, mv: Move) -> Option<Position> {
        Some(state.play_legal(mv))
    }

    #[inline]
    fn state_hash(&self, state: &Position) -> Option<u64> {
        Some(state.hash())
    }

    fn move_name(&self, _: &Position, mv: Move) -> String {
        mv.to_string()
    }
}

impl ZeroSumGame for Othello {
    /// A player who cannot move passes, and the pass is a move: the turn always changes.
    const ALTERNATES: bool = true;

    #[inline]
    fn side_to_move(&self, state: &Position) -> PlayerId {
        state.side().id()
    }

    #[inline]
    fn outcome(&self, state: &Position) -> Option<Outcome> {
        state
            .is_game_over()
            .then(|| Outcome::margin_of(state.final_score()))
    }

    #[inline]
    fn moves(&self, state: &Position, moves: &mut MoveList<Move>) {
        let mut bits = state.legal_squares();
        if bits == 0 {
            moves.push(Move::PASS);
            return;
        }
        while bits != 0 {
            moves.push(Move::at(Square::lowest(bits)));
            bits &= bits - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::random::random_game;
    use crate::symmetry::Symmetry;
    use crate::Color;
    use game_trait::{GeneralGame, Turn};
    use quickcheck::quickcheck;

    /// Perft through the trait only, the route every negamax searcher takes.
    fn trait_perft(game: &Othello, state: &Position, depth: u32) -> u64 {
        if depth == 0 || game.outcome(state).is_some() {
            return 1;
        }
        let mut moves = MoveList::new();
        game.moves(state, &mut moves);
        let mut total = 0;
        for &mv in &moves {
            let mut s = *state;
            let child = game.apply(&mut s, mv).expect("copy-make");
            assert_eq!(s, *state, "apply must not mutate");
            total += trait_perft(game, &child, depth - 1);
        }
        total
    }

    #[test]
    fn trait_route_perft_agrees_with_the_bulk_counter() {
        for depth in 0..=7 {
            let got = trait_perft(&Othello, &Othello.initial_state(), depth);
            assert_eq!(got, crate::perft(Board::START, depth), "depth {depth}");
        }
        for seed in 0..20 {
            let position = crate::random_position(seed, 10 + (seed % 40) as u32);
            let depth = 3;
            assert_eq!(
                trait_perft(&Othello, &position, depth),
                crate::perft(position.board(), depth),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn a_forced_pass_is_the_only_move_and_the_end_is_over() {
        // Black a1, white b1, white to move: white has nothing to flip, black could play c1.
        let position = Position::from_colors(1, 2, Color::White).unwrap();
        assert!(position.must_pass());
        assert_eq!(Othello.turn(&position), Turn::Player(1));
        let mut moves = MoveList::new();
        Othello.legal_moves(&position, 1, &mut moves);
        assert_eq!(moves.as_slice(), &[Move::PASS]);
        let after = Othello.apply(&mut position.clone(), Move::PASS).unwrap();
        assert_eq!(after.side(), Color::Black);
        assert_eq!(after.board(), position.board().pass());
        // Black plays c1: all three discs black, nobody can move.
        let end = after.play("c1".parse().unwrap()).unwrap();
        assert_eq!(Othello.turn(&end), Turn::Over);
        // White to move, lost 0-3 with 61 empties.
        assert_eq!(Othello.outcome(&end), Some(Outcome::margin_of(-64)));
        assert_eq!(Othello.payoff(&end, 0), 1.0);
        assert_eq!(Othello.payoff(&end, 1), 0.0);
    }

    #[test]
    fn a_draw_pays_half() {
        let board = Board::new(u64::MAX >> 32, u64::MAX << 32).unwrap();
        let position = Position::new(board, Color::Black);
        assert_eq!(Othello.turn(&position), Turn::Over);
        assert_eq!(Othello.outcome(&position), Some(Outcome::DRAW));
        assert_eq!(Othello.payoff(&position, 0), 0.5);
        assert_eq!(Othello.payoff(&position, 1), 0.5);
    }

    quickcheck! {
        fn random_games_keep_the_invariants(seed: u64) -> bool {
            let game = random_game(seed);
            let last = game.last().unwrap();
            game.windows(2).all(|w| {
                let (before, after) = (w[0], w[1]);
                let discs = |p: &Position| (p.black() | p.white()).count_ones();
                let placed = discs(&after) - discs(&before);
                // Every move, a pass too, hands the turn over: what `ALTERNATES` promises.
                (placed == 1 || (placed == 0 && before.must_pass()))
                    && after.side() == before.side().other()
                    && Othello.turn(&before) == Turn::Player(before.side().id())
            }) && Othello.turn(last) == Turn::Over
                && (last.empty_count() == 0 || last.is_game_over())
        }

        fn symmetries_commute_with_the_rules(seed: u64) -> bool {
            let game = random_game(seed);
            game.windows(2).all(|w| {
                let mv = (w[1].black() | w[1].white()) ^ (w[0].black() | w[0].white());
                let mv = if mv == 0 { Move::PASS } else { Move::at(crate::Square::lowest(mv)) };
                Symmetry::ALL.iter().all(|&s| {
                    let image = w[0].transform(s);
                    image.legal_squares() == s.bits(w[0].legal_squares())
                        && image.play(s.mv(mv)) == Some(w[1].transform(s))
                        && image.final_score() == w[0].final_score()
                })
            })
        }

        fn hashes_are_distinct_along_games(seed: u64) -> bool {
            let game = random_game(seed);
            let hashes: std::collections::HashSet<u64> = game.iter().filter_map(|p| Othello.state_hash(p)).collect();
            hashes.len() == game.len()
        }
    }

    #[test]
    fn no_hash_collisions_among_all_positions_six_plies_deep() {
        fn collect(p: Position, depth: u32, out: &mut std::collections::HashMap<u64, Position>) {
            if let Some(other) = out.insert(p.hash(), p) {
                assert_eq!(other, p, "hash collision");
            }
            if depth > 0 {
                for mv in p.legal_moves() {
                    collect(p.play_legal(mv), depth - 1, out);
                }
            }
        }
        let mut seen = std::collections::HashMap::new();
        collect(Position::start(), 7, &mut seen);
        assert!(seen.len() > 20_000, "{}", seen.len());
    }
}

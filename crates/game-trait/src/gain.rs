//! [`StaticGain`]: a plausibility for any game with a static evaluator.

use crate::eval::Evaluator;
use crate::game::{MoveList, ZeroSumGame};
use crate::hooks::Plausibility;
use crate::score::Score;

/// Interest from the game's static evaluator, for games without a hand-written plausibility:
///
/// > `interest = 1000 / legal moves + max(0, 100 × gain / unit)`
///
/// where `gain = ±eval(child) − eval(state)` is how much the move improves the static value for its
/// mover: the child's evaluation is from its own side to move's view, negated where that is the
/// opponent, as it is where the mover moves again (see [`ZeroSumGame`] on turn order). The first
/// term is
/// the base interest of Rollason's Treebeard (*Interest Search — Another Way to Do Minimax*, 2014);
/// the second plays the part of its "value of capture" term: a move gaining `unit` evaluation points
/// earns +100, a move that loses earns nothing and keeps the base interest. `unit` is a property of
/// the evaluator's scale (a pawn, a disc, …).
///
/// Each call counts the legal moves and evaluates two positions; the move is applied to a clone of
/// `state` (the child is returned by copy-make games, or is the clone itself for make/unmake
/// games), so `state` is never changed and nothing needs undoing.
#[derive(Clone, Debug)]
pub struct StaticGain<E> {
    evaluator: E,
    unit: Score,
}

impl<E> StaticGain<E> {
    /// Interest from `evaluator`, with a gain of `unit` (at least 1) worth +100 interest.
    pub fn new(evaluator: E, unit: Score) -> StaticGain<E> {
        StaticGain {
            evaluator,
            unit: unit.max(1),
        }
    }

    /// The evaluation gain worth +100 interest.
    pub fn unit(&self) -> Score {
        self.unit
    }
}

impl<G: ZeroSumGame, E: Evaluator<G>> Plausibility<G> for StaticGain<E> {
    fn interest(&mut self, game: &G, state: &G::State, mv: G::Move) -> u32 {
        let mut moves = MoveList::new();
        game.moves(state, &mut moves);
        let base = 1000 / moves.len().max(1) as i64;
        let here = i64::from(self.evaluator.evaluate(game, state));
        let mover = game.side_to_move(state);
        let mut scratch = state.clone();
        let child = match game.apply(&mut scratch, mv) {
            Some(child) => child,
            None => scratch, // make/unmake: the clone is the child, and nothing needs undoing
        };
        let there = i64::from(self.evaluator.value(game, &child));
        let there = if game.side_to_move(&child) == mover {
            there
        } else {
            -there
        };
        let gain = there - here;
        let bonus = (100 * gain / i64::from(self.unit)).max(0);
        (base + bonus).clamp(1, i64::from(u32::MAX)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Outcome, PlayerId};

    /// A running total (player 0's view) and who moves: a move adds its number to the total; 0
    /// and 1 keep the mover's turn (an extra move), 2 and 3 hand it over. Never ends.
    struct Bonus;

    impl Game for Bonus {
        type State = (i32, PlayerId);
        type Move = i32;
        fn initial_state(&self) -> (i32, PlayerId) {
            (0, 0)
        }
        fn apply(&self, s: &mut (i32, PlayerId), mv: i32) -> Option<(i32, PlayerId)> {
            let side = if mv < 2 { s.1 } else { 1 - s.1 };
            Some((s.0 + mv, side))
        }
    }

    impl ZeroSumGame for Bonus {
        fn side_to_move(&self, s: &(i32, PlayerId)) -> PlayerId {
            s.1
        }
        fn outcome(&self, _: &(i32, PlayerId)) -> Option<Outcome> {
            None
        }
        fn moves(&self, _: &(i32, PlayerId), moves: &mut MoveList<i32>) {
            moves.extend(0..4);
        }
    }

    /// The total as the side to move sees it.
    #[derive(Clone, Copy)]
    struct Total;

    impl Evaluator<Bonus> for Total {
        fn evaluate(&mut self, _: &Bonus, s: &(i32, PlayerId)) -> Score {
            if s.1 == 0 {
                s.0
            } else {
                -s.0
            }
        }
    }

    /// A move gaining `g` for its mover earns `100·g / unit` over the base of 1000 / 4 moves,
    /// whether the mover moves again or the turn passes; a move that loses earns nothing.
    #[test]
    fn the_gain_is_the_movers_whoever_moves_next() {
        let mut gain = StaticGain::new(Total, 1);
        for (state, mv, interest) in [
            ((0, 0), 1, 250 + 100), // player 0 moves again, the total up by 1
            ((0, 0), 3, 250 + 300), // the turn passes, the total up by 3
            ((0, 1), 1, 250),       // player 1 moves again: the total up is a loss for them
            ((0, 1), 0, 250),
        ] {
            assert_eq!(
                gain.interest(&Bonus, &state, mv),
                interest,
                "{state:?} {mv}"
            );
        }
    }
}

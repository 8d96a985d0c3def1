//! [`StaticGain`]: a plausibility for any game with a static evaluator.

use crate::eval::Evaluator;
use crate::game::{MoveList, ZeroSumGame};
use crate::hooks::Plausibility;
use crate::score::Score;

/// Interest from the game's static evaluator, for games without a hand-written plausibility:
///
/// > `interest = 1000 / legal moves + max(0, 100 × gain / unit)`
///
/// where `gain = −eval(child) − eval(state)` is how much the move improves the static value for its
/// mover (the child's evaluation is from the opponent's side, hence the minus). The first term is
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
        let mut scratch = state.clone();
        let there = match game.apply(&mut scratch, mv) {
            Some(child) => self.evaluator.value(game, &child),
            None => self.evaluator.value(game, &scratch),
        };
        let gain = -i64::from(there) - here;
        let bonus = (100 * gain / i64::from(self.unit)).max(0);
        (base + bonus).clamp(1, i64::from(u32::MAX)) as u32
    }
}

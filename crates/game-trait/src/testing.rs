//! A small game for the unit tests: Nim with one pile, take 1 or 2, whoever takes the last stone
//! wins.

use crate::game::{Game, MoveList, Outcome, PlayerId, ZeroSumGame};

/// The rules. Derives `Hash` like many game types do, with `std::hash::Hash` in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Nim;

/// The pile and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pile {
    pub(crate) stones: u32,
    pub(crate) to_move: PlayerId,
}

impl Game for Nim {
    type State = Pile;
    type Move = u32;

    fn initial_state(&self) -> Pile {
        Pile {
            stones: 7,
            to_move: 0,
        }
    }

    fn apply(&self, pile: &mut Pile, take: u32) -> Option<Pile> {
        Some(Pile {
            stones: pile.stones - take,
            to_move: 1 - pile.to_move,
        })
    }

    fn state_hash(&self, pile: &Pile) -> Option<u64> {
        Some(crate::mix64(
            u64::from(pile.stones) * 2 + pile.to_move as u64 + 1,
        ))
    }
}

impl ZeroSumGame for Nim {
    fn side_to_move(&self, pile: &Pile) -> PlayerId {
        pile.to_move
    }

    fn outcome(&self, pile: &Pile) -> Option<Outcome> {
        (pile.stones == 0).then_some(Outcome::LOSS)
    }

    fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
        moves.extend((1..=2).filter(|&take| take <= pile.stones));
    }
}

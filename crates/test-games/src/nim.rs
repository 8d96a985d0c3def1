//! Nim with one pile.

use game_trait::{Game, MoveList, Outcome, PlayerId, ZeroSumGame};

/// One pile of `stones`; each turn takes 1 or 2 stones; whoever takes the last stone wins. From
/// `n` stones the side to move wins by taking `n mod 3`, and loses when `n` is a multiple of 3.
/// Copy-make; [`NimInPlace`] is the same game with make/unmake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    /// The stones at the start.
    pub stones: u32,
}

/// A position of [`Nim`]: the stones left and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pile {
    /// Stones left.
    pub stones: u32,
    /// The player to move (0 or 1).
    pub mover: PlayerId,
}

impl Pile {
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | self.mover as u64
    }

    /// The key of the pile after taking `take`, without taking them.
    fn hash_after(&self, take: u32) -> u64 {
        Pile {
            stones: self.stones - take,
            mover: 1 - self.mover,
        }
        .hash()
    }

    fn moves(&self, moves: &mut MoveList<u32>) {
        moves.extend((1..=2).filter(|&take| take <= self.stones));
    }
}

impl Game for Nim {
    type State = Pile;
    type Move = u32;

    fn initial_state(&self) -> Pile {
        Pile {
            stones: self.stones,
            mover: 0,
        }
    }

    fn apply(&self, pile: &mut Pile, take: u32) -> Option<Pile> {
        Some(Pile {
            stones: pile.stones - take,
            mover: 1 - pile.mover,
        })
    }

    fn state_hash(&self, pile: &Pile) -> Option<u64> {
        Some(pile.hash())
    }

    fn state_hash_after(&self, pile: &Pile, take: u32) -> Option<u64> {
        Some(pile.hash_after(take))
    }

    fn move_name(&self, _: &Pile, take: u32) -> String {
        format!("take{take}")
    }
}

impl ZeroSumGame for Nim {
    fn side_to_move(&self, pile: &Pile) -> PlayerId {
        pile.mover
    }

    /// The side to move at an empty pile lost: the opponent took the last stone.
    fn outcome(&self, pile: &Pile) -> Option<Outcome> {
        (pile.stones == 0).then_some(Outcome::LOSS)
    }

    fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
        pile.moves(moves);
    }
}

/// [`Nim`] played by make/unmake: [`Game::apply`] changes the pile in place and [`Game::undo`]
/// takes the move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimInPlace {
    /// The stones at the start.
    pub stones: u32,
}

impl Game for NimInPlace {
    type State = Pile;
    type Move = u32;

    fn initial_state(&self) -> Pile {
        Nim {
            stones: self.stones,
        }
        .initial_state()
    }

    fn apply(&self, pile: &mut Pile, take: u32) -> Option<Pile> {
        pile.stones -= take;
        pile.mover = 1 - pile.mover;
        None
    }

    fn undo(&self, pile: &mut Pile, take: u32) {
        pile.stones += take;
        pile.mover = 1 - pile.mover;
    }

    fn state_hash(&self, pile: &Pile) -> Option<u64> {
        Some(pile.hash())
    }

    fn state_hash_after(&self, pile: &Pile, take: u32) -> Option<u64> {
        Some(pile.hash_after(take))
    }

    fn move_name(&self, _: &Pile, take: u32) -> String {
        format!("take{take}")
    }
}

impl ZeroSumGame for NimInPlace {
    fn side_to_move(&self, pile: &Pile) -> PlayerId {
        pile.mover
    }

    fn outcome(&self, pile: &Pile) -> Option<Outcome> {
        (pile.stones == 0).then_some(Outcome::LOSS)
    }

    fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
        pile.moves(moves);
    }
}

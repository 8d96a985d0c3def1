//! Shared by the crate's tests.

use game_trait::round::Round;
use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, RoundGame, Turn};

/// A game whose round is another's with one table changed.
pub struct Altered<G> {
    pub game: G,
    pub round: Round,
}

impl<G: RoundGame> Game for Altered<G> {
    type State = G::State;
    type Move = G::Move;
    fn initial_state(&self) -> G::State {
        self.game.initial_state()
    }
    fn apply(&self, state: &mut G::State, mv: G::Move) -> Option<G::State> {
        self.game.apply(state, mv)
    }
    fn undo(&self, state: &mut G::State, mv: G::Move) {
        self.game.undo(state, mv)
    }
}

impl<G: RoundGame> GeneralGame for Altered<G> {
    fn players(&self) -> usize {
        self.game.players()
    }
    fn turn(&self, state: &G::State) -> Turn {
        self.game.turn(state)
    }
    fn legal_moves(&self, state: &G::State, player: PlayerId, moves: &mut MoveList<G::Move>) {
        self.game.legal_moves(state, player, moves)
    }
    fn chance_outcomes(&self, state: &G::State, outcomes: &mut ChanceList<G::Move>) {
        self.game.chance_outcomes(state, outcomes)
    }
    fn play_joint(&self, state: &mut G::State, joint: &[G::Move]) {
        self.game.play_joint(state, joint)
    }
    fn payoff(&self, state: &G::State, player: PlayerId) -> f64 {
        self.game.payoff(state, player)
    }
}

impl<G: RoundGame> RoundGame for Altered<G> {
    fn round(&self) -> &Round {
        &self.round
    }
    fn state_values(&self, state: &G::State, values: &mut Vec<u32>) {
        self.game.state_values(state, values)
    }
    fn action(&self, player: Option<PlayerId>, value: u32) -> G::Move {
        self.game.action(player, value)
    }
    fn action_value(&self, player: Option<PlayerId>, mv: G::Move) -> u32 {
        self.game.action_value(player, mv)
    }
}

//! [`Perspective`]: a GDL game with its players renumbered so that one chosen role is player 0.
//! UCT reports player 0's move at a simultaneous root; seen through this view, that is ours.

use gametree::game::{ChanceList, Game, GeneralGame, MoveList, PlayerId, Turn};
use gametree::gdl::{FluentSet, GdlGame, GdlMove};

/// `game` seen by player `me`: players 0 and `me` swap numbers, the others keep theirs.
#[derive(Clone, Debug)]
pub struct Perspective {
    game: GdlGame,
    me: PlayerId,
}

impl Perspective {
    /// `game` with player `me` as player 0.
    pub fn new(game: GdlGame, me: PlayerId) -> Perspective {
        Perspective { game, me }
    }

    /// The swap is its own inverse: it maps view numbers to game numbers and back.
    fn swap(&self, p: PlayerId) -> PlayerId {
        match p {
            0 => self.me,
            p if p == self.me => 0,
            p => p,
        }
    }
}

impl Game for Perspective {
    type State = FluentSet;
    type Move = GdlMove;

    fn initial_state(&self) -> FluentSet {
        self.game.initial_state()
    }

    fn identity(&self) -> Option<u64> {
        self.game.identity()
    }

    fn apply(&self, state: &mut FluentSet, mv: GdlMove) -> Option<FluentSet> {
        self.game.apply(state, mv)
    }

    fn play(&self, state: &mut FluentSet, mv: GdlMove) {
        self.game.play(state, mv)
    }

    fn state_hash(&self, state: &FluentSet) -> Option<u64> {
        self.game.state_hash(state)
    }

    fn move_name(&self, state: &FluentSet, mv: GdlMove) -> String {
        self.game.move_name(state, mv)
    }
}

impl GeneralGame for Perspective {
    fn players(&self) -> usize {
        self.game.players()
    }

    fn turn(&self, state: &FluentSet) -> Turn {
        match self.game.turn(state) {
            Turn::Player(p) => Turn::Player(self.swap(p)),
            other => other,
        }
    }

    fn legal_moves(&self, state: &FluentSet, player: PlayerId, moves: &mut MoveList<GdlMove>) {
        self.game.legal_moves(state, self.swap(player), moves)
    }

    fn chance_outcomes(&self, state: &FluentSet, outcomes: &mut ChanceList<GdlMove>) {
        self.game.chance_outcomes(state, outcomes)
    }

    /// `joint` lists the view's players, then chance: reorder it into the game's numbering.
    fn play_joint(&self, state: &mut FluentSet, joint: &[GdlMove]) {
        let mut ordered = joint.to_vec();
        let players = self.game.players();
        if self.me < players.min(joint.len()) {
            ordered.swap(0, self.me);
        }
        self.game.play_joint(state, &ordered)
    }

    fn payoff(&self, state: &FluentSet, player: PlayerId) -> f64 {
        self.game.payoff(state, self.swap(player))
    }
}

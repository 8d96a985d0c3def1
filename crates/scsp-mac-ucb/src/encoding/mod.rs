//! From a [`RoundGame`]'s round to the one-stage network of one state (`μSCSP_t`, Koriche et al.,
//! Section 3.3), and [`check_round`], which confirms that a game's round agrees with its rules.
//!
//! # The network of a state
//! [`round_network`] keeps the round's terminal, state, action, helper and chance variables, in
//! that order, and every table but the next tables; the state variables are fixed to the state's
//! values (their domains become that one value, and the tables keep only the tuples that agree).
//! Helper variables that the tables determine from the state (gates, such as "this line of four
//! is complete") are fixed the same way; helpers that only next tables name (gates that read
//! the moves) are left out with those tables.
//! The chance variable is distributed uniformly over the values that the tables on the state and
//! the chance variable alone allow. A feasible policy is then a joint action of the players (and
//! helper values) that every chance outcome of positive probability keeps consistent.
//!
//! The next variables `f_{t+1}` and their tables are left out. In a correct description they are
//! determined once the actions and the chance outcome are (Section 3.3: "such variables express
//! fluents for which the value is propagated by the next constraint"), so they remove no policy;
//! the players take the successor from the game's own transition, which [`check_round`] confirms
//! the next tables agree with. Kept, they would follow the stochastic variable and make the
//! network two-stage for [`solve`](crate::solve()).
//!
//! A player instantiates many networks of one game: a [`RoundEncoder`] checks the round once and
//! indexes every table by the state variables it reads, so that the network of a state costs a
//! lookup per table instead of a pass over its tuples.

mod check;
mod encoder;
mod kinds;
mod state;

use game_trait::{GeneralGame, MoveList, PlayerId, RoundGame, Turn};

use crate::error::ScspError;
use crate::model::{Network, VarId};
pub use check::check_round;
pub use encoder::{round_network, RoundEncoder};
pub use state::{check_state_networks, state_network, StateEncoding};

/// How a player reads a game as one-stage networks: the network of a state, and the values of
/// its action variables as the game's moves. Two encodings are implemented:
///
/// - [`RoundEncoder`], for a [`RoundGame`]: the game's round, described once as tables, the
///   state variables fixed to the state's values (the paper's Section 3.2 encoding);
/// - [`StateEncoding`], for any [`GeneralGame`] whose states have keys: the network of a state
///   built from the rules at that state ([`state_network`]), for games whose round cannot be
///   described as tables (recursive rules, goals over many fluents, descriptions too large).
pub trait Encoding<G: GeneralGame> {
    /// The one-stage network of `state`, which is not finished.
    fn network(&self, game: &G, state: &G::State) -> Result<RoundNetwork, ScspError>;

    /// The move that `value` of `player`'s action variable (`None`: the chance variable) stands
    /// for in `state`.
    fn move_of(&self, game: &G, state: &G::State, player: Option<PlayerId>, value: u32) -> G::Move;

    /// The value of `player`'s (`None`: chance's) action variable that `mv` is in `state`.
    fn value_of(&self, game: &G, state: &G::State, player: Option<PlayerId>, mv: G::Move) -> u32;

    /// Replaces `values` with values that identify `state`: equal values, the same position.
    fn state_values(&self, game: &G, state: &G::State, values: &mut Vec<u32>);

    /// The values of `player`'s legal moves in `state`, in the order the rules list them.
    fn legal_values(&self, game: &G, state: &G::State, player: PlayerId) -> Vec<u32> {
        let mut moves = MoveList::new();
        game.legal_moves(state, player, &mut moves);
        (moves.iter())
            .map(|&m| self.value_of(game, state, Some(player), m))
            .collect()
    }
}

impl<G: RoundGame> Encoding<G> for RoundEncoder {
    fn network(&self, game: &G, state: &G::State) -> Result<RoundNetwork, ScspError> {
        RoundEncoder::network(self, game, state)
    }

    fn move_of(&self, game: &G, _: &G::State, player: Option<PlayerId>, value: u32) -> G::Move {
        game.action(player, value)
    }

    fn value_of(&self, game: &G, _: &G::State, player: Option<PlayerId>, mv: G::Move) -> u32 {
        game.action_value(player, mv)
    }

    fn state_values(&self, game: &G, state: &G::State, values: &mut Vec<u32>) {
        game.state_values(state, values);
    }
}

/// Plays one round of `game` in place, read through `encoding`: `joint[p]` is player `p`'s
/// action value, `chance` the chance variable's when chance moves. Only the players the game
/// asks move (`p` at a `Player(p)` turn).
pub(crate) fn play_values<G: GeneralGame, E: Encoding<G>>(
    encoding: &E,
    game: &G,
    state: &mut G::State,
    turn: Turn,
    joint: &[u32],
    chance: Option<u32>,
) {
    let move_of = |p: Option<PlayerId>, v: u32| encoding.move_of(game, state, p, v);
    match turn {
        Turn::Player(p) => {
            let mv = move_of(Some(p), joint[p]);
            game.play(state, mv);
        }
        Turn::Chance => {
            // A chance turn without an outcome breaks the game's contract: nothing is played.
            if let Some(y) = chance {
                let mv = move_of(None, y);
                game.play(state, mv);
            }
        }
        Turn::Simultaneous => {
            let mut moves: MoveList<G::Move> = (joint.iter().enumerate())
                .map(|(p, &a)| move_of(Some(p), a))
                .collect();
            moves.extend(chance.map(|y| move_of(None, y)));
            game.play_joint(state, &moves);
        }
        Turn::Over => {}
    }
}

/// The one-stage network of a state of a [`RoundGame`] (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundNetwork {
    /// The network: threshold 0, every feasible policy a solution.
    pub network: Network,
    /// For each player, the place of its action variable among the network's decision variables
    /// ([`Solution::assignment`](crate::Solution::assignment) is in that order).
    pub actions: Vec<usize>,
    /// The chance variable, if the round has one.
    pub chance: Option<VarId>,
}

/// Whether the players the game asks in a state of `turn` include `p`.
pub(crate) fn asks(turn: Turn, p: PlayerId) -> bool {
    match turn {
        Turn::Player(q) => q == p,
        Turn::Simultaneous => true,
        Turn::Chance | Turn::Over => false,
    }
}

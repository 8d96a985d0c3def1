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

use game_trait::{MoveList, PlayerId, RoundGame, Turn};

use crate::model::{Network, VarId};
pub use check::check_round;
pub use encoder::{round_network, RoundEncoder};

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

/// Plays one round in place: `joint[p]` is player `p`'s action value, `chance` the chance
/// variable's when chance moves. Only the players the game asks move (`p` at a `Player(p)` turn).
pub(crate) fn play_round<G: RoundGame>(
    game: &G,
    state: &mut G::State,
    turn: Turn,
    joint: &[u32],
    chance: Option<u32>,
) {
    match turn {
        Turn::Player(p) => game.play(state, game.action(Some(p), joint[p])),
        Turn::Chance => {
            // A chance turn without an outcome breaks the game's contract: nothing is played.
            if let Some(y) = chance {
                game.play(state, game.action(None, y));
            }
        }
        Turn::Simultaneous => {
            let mut moves: MoveList<G::Move> = joint
                .iter()
                .enumerate()
                .map(|(p, &a)| game.action(Some(p), a))
                .collect();
            moves.extend(chance.map(|y| game.action(None, y)));
            game.play_joint(state, &moves);
        }
        Turn::Over => {}
    }
}

/// Whether the players the game asks in a state of `turn` include `p`.
pub(crate) fn asks(turn: Turn, p: PlayerId) -> bool {
    match turn {
        Turn::Player(q) => q == p,
        Turn::Simultaneous => true,
        Turn::Chance | Turn::Over => false,
    }
}

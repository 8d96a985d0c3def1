//! Seeded random playouts over any [`Game`]: the workload of the benches and the cross-checks.

use game_trait::{ChanceList, GeneralGame, MoveList, Turn};
use rand::Rng;
use smallvec::SmallVec;

/// How a random playout ended.
#[derive(Clone, Debug)]
pub struct Playout<S> {
    /// The last state reached.
    pub state: S,
    /// The number of rounds played.
    pub steps: usize,
    /// Whether the last state is terminal (`false`: stopped after `max_steps`, or a player had no
    /// legal move).
    pub finished: bool,
}

/// Plays uniformly random moves (chance by its distribution) from `state` until the game is over or
/// `max_steps` rounds were played. Reuses its buffers: no allocation per step beyond the game's own.
pub fn random_playout<G: GeneralGame, R: Rng>(
    game: &G,
    mut state: G::State,
    rng: &mut R,
    max_steps: usize,
) -> Playout<G::State> {
    let mut moves: MoveList<G::Move> = MoveList::new();
    let mut chance: ChanceList<G::Move> = ChanceList::new();
    let mut joint: SmallVec<[G::Move; 8]> = SmallVec::new();
    for steps in 0..max_steps {
        match game.turn(&state) {
            Turn::Over => {
                return Playout {
                    state,
                    steps,
                    finished: true,
                };
            }
            Turn::Player(p) => {
                game.legal_moves(&state, p, &mut moves);
                if moves.is_empty() {
                    return Playout {
                        state,
                        steps,
                        finished: false,
                    };
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                game.play(&mut state, mv);
            }
            Turn::Chance => {
                game.chance_outcomes(&state, &mut chance);
                let Some(mv) = sample(&chance, rng) else {
                    return Playout {
                        state,
                        steps,
                        finished: false,
                    };
                };
                game.play(&mut state, mv);
            }
            Turn::Simultaneous => {
                joint.clear();
                for p in 0..game.players() {
                    game.legal_moves(&state, p, &mut moves);
                    if moves.is_empty() {
                        return Playout {
                            state,
                            steps,
                            finished: false,
                        };
                    }
                    joint.push(moves[rng.gen_range(0..moves.len())]);
                }
                game.chance_outcomes(&state, &mut chance);
                if let Some(mv) = sample(&chance, rng) {
                    joint.push(mv);
                }
                game.play_joint(&mut state, &joint);
            }
        }
    }
    let finished = game.turn(&state) == Turn::Over;
    Playout {
        state,
        steps: max_steps,
        finished,
    }
}

/// Draws a move from a chance distribution; `None` if it is empty.
pub fn sample<M: Copy, R: Rng>(outcomes: &[(M, f64)], rng: &mut R) -> Option<M> {
    let mut x: f64 = rng.gen();
    for &(m, p) in outcomes {
        if x < p {
            return Some(m);
        }
        x -= p;
    }
    outcomes.last().map(|&(m, _)| m)
}

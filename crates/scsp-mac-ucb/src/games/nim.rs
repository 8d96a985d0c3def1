//! [`Nim`]: one heap, take one to three stones, whoever takes the last stone wins. Deterministic
//! and turn-taking: its rounds have no chance variable, so MAC-UCB solves them by MAC alone.

use game_trait::round::{Round, TableRole, VariableKind};
use game_trait::{Game, GeneralGame, MoveList, PlayerId, RoundGame, Turn};

use game_trait::hash::key_of;

/// Nim on one heap: the players alternate taking one, two or three stones; whoever takes the last
/// one wins (a position is lost for the player to move exactly when the heap is a multiple of 4).
///
/// Moves are the number of stones taken. Round variables: `terminal`, the state `heap` and
/// `control` (the player to move), each player's `take` (`1`, `2`, `3` or `noop`), the next
/// `heap'` and `control'`.
#[derive(Clone, Debug)]
pub struct Nim {
    heap: u32,
    round: Round,
}

/// A position of [`Nim`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimState {
    /// Stones left.
    pub heap: u32,
    /// The player to move.
    pub mover: PlayerId,
}

const NOOP: u32 = 3;

impl Nim {
    /// Nim starting from a heap of `heap` stones, player 0 to move.
    pub fn new(heap: u32) -> Nim {
        Nim {
            heap,
            round: round(heap),
        }
    }
}

/// The round: see [`Nim`].
fn round(heap: u32) -> Round {
    let counts: Vec<String> = (0..=heap).map(|h| h.to_string()).collect();
    let counts: Vec<&str> = counts.iter().map(String::as_str).collect();
    let mut r = Round::new(2);
    let terminal = r.variable("terminal", VariableKind::Terminal, &["no", "yes"]);
    let h = r.variable("heap", VariableKind::State, &counts);
    let control = r.variable("control", VariableKind::State, &["0", "1"]);
    let take: Vec<usize> = (0..2)
        .map(|p| {
            r.variable(
                &format!("take({p})"),
                VariableKind::Action(p),
                &["1", "2", "3", "noop"],
            )
        })
        .collect();
    let h2 = r.variable("heap'", VariableKind::Next(h), &counts);
    let control2 = r.variable("control'", VariableKind::Next(control), &["0", "1"]);

    r.hard_table("terminal", TableRole::Terminal, &[h, terminal], |t| {
        (t[0] == 0) == (t[1] == 1)
    });
    for (p, &a) in take.iter().enumerate() {
        r.hard_table(
            &format!("legal({p})"),
            TableRole::Legal,
            &[h, control, a],
            |t| {
                let (heap, mover, action) = (t[0], t[1] as usize, t[2]);
                if mover == p && heap > 0 {
                    action != NOOP && action < heap
                } else {
                    action == NOOP
                }
            },
        );
    }
    let scope = [h, control, take[0], take[1], h2];
    r.hard_table("next(heap)", TableRole::Next, &scope, |t| {
        let taken = t[2 + t[1] as usize];
        taken != NOOP && t[4] + taken + 1 == t[0]
    });
    r.hard_table(
        "next(control)",
        TableRole::Next,
        &[control, control2],
        |t| t[0] != t[1],
    );
    // At an empty heap the player to move has lost: the other one took the last stone.
    r.goal_table("goal", &[h, control], |t| {
        (t[0] == 0).then(|| {
            if t[1] == 0 {
                vec![0.0, 1.0]
            } else {
                vec![1.0, 0.0]
            }
        })
    });
    r
}

impl Game for Nim {
    type State = NimState;
    type Move = u32;

    /// The heap's size: Nims of different heaps are different games.
    fn identity(&self) -> Option<u64> {
        Some(u64::from(self.heap))
    }

    fn initial_state(&self) -> NimState {
        NimState {
            heap: self.heap,
            mover: 0,
        }
    }

    fn apply(&self, state: &mut NimState, taken: u32) -> Option<NimState> {
        Some(NimState {
            heap: state.heap - taken,
            mover: 1 - state.mover,
        })
    }

    /// The state's values mixed into a key, so that UCT can reuse its tree between moves.
    fn state_hash(&self, state: &NimState) -> Option<u64> {
        Some(key_of([state.heap, state.mover as u32]))
    }

    fn move_name(&self, _: &NimState, taken: u32) -> String {
        format!("take{taken}")
    }
}

impl GeneralGame for Nim {
    fn players(&self) -> usize {
        2
    }

    fn turn(&self, state: &NimState) -> Turn {
        if state.heap == 0 {
            Turn::Over
        } else {
            Turn::Player(state.mover)
        }
    }

    fn legal_moves(&self, state: &NimState, player: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        if player == state.mover {
            moves.extend(1..=state.heap.min(3));
        }
    }

    fn payoff(&self, state: &NimState, player: PlayerId) -> f64 {
        // The player to move at an empty heap did not take the last stone.
        if player == state.mover {
            0.0
        } else {
            1.0
        }
    }
}

impl RoundGame for Nim {
    fn round(&self) -> &Round {
        &self.round
    }

    fn state_values(&self, state: &NimState, values: &mut Vec<u32>) {
        values.clear();
        values.extend([state.heap, state.mover as u32]);
    }

    fn action(&self, _: Option<PlayerId>, value: u32) -> u32 {
        value + 1
    }

    fn action_value(&self, _: Option<PlayerId>, taken: u32) -> u32 {
        taken - 1
    }
}

//! [`Pig`]: the dice game, each round a decision and a die thrown at once.

use game_trait::round::{Round, TableRole, VariableKind};
use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, RoundGame, Turn};

use game_trait::hash::key_of;

/// Pig, two players: the player in control either rolls the die, adding its face to the turn
/// total (a 1 loses the total and passes control), or holds, banking the total and passing control.
/// The first to bank `target` points wins (reward 1, the other 0). A game ends with probability 1
/// but may in principle last forever (both players always rolling 1s): a search needs a horizon or
/// a deadline, as for any game without a bound on its length.
///
/// Every round is simultaneous in the [`GeneralGame`] sense: the player in control chooses, the
/// other plays `noop`, and the chance player throws the die at the same time (its face counts only
/// when the player rolls), as in the rounds of a GDL-II game. Moves: 0 roll, 1 hold, 2 noop; die
/// faces 0..6 stand for 1..=6. Round variables: the state `score(0)`, `score(1)`, `total` (all
/// capped at `target`) and `control`; the actions `act(0)`, `act(1)`; the chance variable
/// `die`; their next variables, and `terminal`.
#[derive(Clone, Debug)]
pub struct Pig {
    target: u32,
    round: Round,
}

/// A position of [`Pig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    /// Banked points.
    pub scores: [u32; 2],
    /// The turn total of the player in control.
    pub total: u32,
    /// The player in control.
    pub mover: PlayerId,
}

/// Roll the die.
pub const ROLL: u32 = 0;
/// Bank the turn total.
pub const HOLD: u32 = 1;
const NOOP: u32 = 2;

impl Pig {
    /// Pig to `target` points.
    pub fn new(target: u32) -> Pig {
        Pig {
            target,
            round: round(target),
        }
    }

    /// The position after a round.
    fn next(&self, s: &PigState, act: u32, face: u32) -> PigState {
        let mut next = *s;
        if act == HOLD {
            next.scores[s.mover] = (s.scores[s.mover] + s.total).min(self.target);
        }
        if act == HOLD || face == 1 {
            next.total = 0;
            next.mover = 1 - s.mover;
        } else {
            next.total = (s.total + face).min(self.target);
        }
        next
    }

    fn winner(&self, s: &PigState) -> Option<PlayerId> {
        (0..2).find(|&p| s.scores[p] >= self.target)
    }
}

/// The round: see [`Pig`].
fn round(target: u32) -> Round {
    let points: Vec<String> = (0..=target).map(|v| v.to_string()).collect();
    let points: Vec<&str> = points.iter().map(String::as_str).collect();
    const ACTS: [&str; 3] = ["roll", "hold", "noop"];
    const FACES: [&str; 6] = ["1", "2", "3", "4", "5", "6"];
    let mut r = Round::new(2);
    let terminal = r.variable("terminal", VariableKind::Terminal, &["no", "yes"]);
    let score = [0, 1].map(|p| r.variable(&format!("score({p})"), VariableKind::State, &points));
    let total = r.variable("total", VariableKind::State, &points);
    let control = r.variable("control", VariableKind::State, &["0", "1"]);
    let act = [0, 1].map(|p| r.variable(&format!("act({p})"), VariableKind::Action(p), &ACTS));
    let die = r.variable("die", VariableKind::Chance, &FACES);
    let score2 = [0, 1].map(|p| {
        r.variable(
            &format!("score({p})'"),
            VariableKind::Next(score[p]),
            &points,
        )
    });
    let total2 = r.variable("total'", VariableKind::Next(total), &points);
    let control2 = r.variable("control'", VariableKind::Next(control), &["0", "1"]);

    r.hard_table(
        "terminal",
        TableRole::Terminal,
        &[score[0], score[1], terminal],
        |t| (t[0] >= target || t[1] >= target) == (t[2] == 1),
    );
    for p in 0..2 {
        r.hard_table(
            &format!("legal({p})"),
            TableRole::Legal,
            &[control, act[p]],
            |t| (t[0] as usize == p) == (t[1] != NOOP),
        );
        let scope = [score[p], total, control, act[p], score2[p]];
        r.hard_table(&format!("next(score({p}))"), TableRole::Next, &scope, |t| {
            let banks = t[2] as usize == p && t[3] == HOLD;
            t[4] == if banks {
                (t[0] + t[1]).min(target)
            } else {
                t[0]
            }
        });
    }
    r.hard_table("legal(die)", TableRole::Legal, &[die], |_| true);
    let scope = [total, control, act[0], act[1], die, total2, control2];
    r.hard_table("next(total, control)", TableRole::Next, &scope, |t| {
        let (total, mover, face) = (t[0], t[1], t[4] + 1);
        let act = t[2 + mover as usize];
        let passes = act == HOLD || (act == ROLL && face == 1);
        let (total2, mover2) = if passes {
            (0, 1 - mover)
        } else if act == ROLL {
            ((total + face).min(target), mover)
        } else {
            (total, mover)
        };
        (t[5], t[6]) == (total2, mover2)
    });
    r.goal_table("goal", &[score[0], score[1]], |t| {
        if t[0] >= target {
            Some(vec![1.0, 0.0])
        } else {
            (t[1] >= target).then(|| vec![0.0, 1.0])
        }
    });
    r
}

impl Game for Pig {
    type State = PigState;
    type Move = u32;

    /// The target: Pigs played to different targets are different games.
    fn identity(&self) -> Option<u64> {
        Some(u64::from(self.target))
    }

    fn initial_state(&self) -> PigState {
        PigState {
            scores: [0, 0],
            total: 0,
            mover: 0,
        }
    }

    /// Only joint moves are played in Pig; a lone move is the mover's with a die showing 2.
    fn apply(&self, state: &mut PigState, act: u32) -> Option<PigState> {
        Some(self.next(state, act, 2))
    }

    /// A player's move (`roll`, `hold`, `noop`); die faces are not named apart.
    /// The state's values mixed into a key, so that UCT can reuse its tree between moves.
    fn state_hash(&self, s: &PigState) -> Option<u64> {
        Some(key_of([s.scores[0], s.scores[1], s.total, s.mover as u32]))
    }

    fn move_name(&self, _: &PigState, act: u32) -> String {
        ["roll", "hold", "noop"][act.min(2) as usize].to_string()
    }
}

impl GeneralGame for Pig {
    fn players(&self) -> usize {
        2
    }

    fn turn(&self, state: &PigState) -> Turn {
        if self.winner(state).is_some() {
            Turn::Over
        } else {
            Turn::Simultaneous
        }
    }

    fn legal_moves(&self, state: &PigState, player: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        if player == state.mover {
            moves.extend([ROLL, HOLD]);
        } else {
            moves.push(NOOP);
        }
    }

    fn chance_outcomes(&self, _: &PigState, outcomes: &mut ChanceList<u32>) {
        outcomes.clear();
        outcomes.extend((0..6).map(|face| (face, 1.0 / 6.0)));
    }

    fn play_joint(&self, state: &mut PigState, joint: &[u32]) {
        *state = self.next(state, joint[state.mover], joint[2] + 1);
    }

    fn payoff(&self, state: &PigState, player: PlayerId) -> f64 {
        f64::from(u8::from(self.winner(state) == Some(player)))
    }
}

impl RoundGame for Pig {
    fn round(&self) -> &Round {
        &self.round
    }

    fn state_values(&self, s: &PigState, values: &mut Vec<u32>) {
        values.clear();
        values.extend([s.scores[0], s.scores[1], s.total, s.mover as u32]);
    }

    fn action(&self, _: Option<PlayerId>, value: u32) -> u32 {
        value
    }

    fn action_value(&self, _: Option<PlayerId>, mv: u32) -> u32 {
        mv
    }
}

//! [`CooperativePennies`]: Koriche, Lagrue, Piette and Tabary's Example 1, the cooperative matching
//! pennies of their Figures 1 and 3.

use game_trait::round::{Round, TableRole, VariableKind};
use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, RoundGame, Turn};

use game_trait::hash::key_of;

/// Cooperative matching pennies (Koriche et al., 2016, Example 1): in the first round alice
/// (player 0) and bob (player 1) simultaneously place a coin, heads or tails; in the second the
/// chance player flips its coin; both win (reward 1) if the three coins show the same side, else
/// both get 0. The best joint policy (alice and bob agree on a side) wins with probability ½.
///
/// Moves are sides: 0 heads, 1 tails (2, `noop`, is never played). The round is the encoding of
/// the paper's Figure 3: per coin owner `p` ∈ {alice, bob, random} the state variables
/// `coin(p)` ∈ {heads, tails, unset} and `control(p)` ∈ {false, true}, the action `choose(p)` ∈
/// {heads, tails, noop} (chance's is the chance variable) and the next variables; the terminal
/// table (no coin unset), a legal table per owner (a side when in control, else `noop`), the next
/// tables and the goal table.
#[derive(Clone, Debug)]
pub struct CooperativePennies {
    round: Round,
}

/// A position of [`CooperativePennies`]: each owner's coin (0 heads, 1 tails, 2 unset) and control,
/// in the order alice, bob, random.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PenniesState {
    /// The coins.
    pub coins: [u32; 3],
    /// Who may choose a side this round.
    pub control: [bool; 3],
}

const UNSET: u32 = 2;
const NOOP: u32 = 2;
const RANDOM: usize = 2;

impl CooperativePennies {
    /// The game.
    pub fn new() -> CooperativePennies {
        CooperativePennies { round: round() }
    }
}

impl Default for CooperativePennies {
    fn default() -> CooperativePennies {
        CooperativePennies::new()
    }
}

/// The round of the paper's Figure 3.
fn round() -> Round {
    const OWNERS: [&str; 3] = ["alice", "bob", "random"];
    const SIDES: [&str; 3] = ["heads", "tails", "unset"];
    let mut r = Round::new(2);
    let terminal = r.variable("terminal", VariableKind::Terminal, &["false", "true"]);
    let coin = OWNERS.map(|o| r.variable(&format!("coin({o})"), VariableKind::State, &SIDES));
    let control = OWNERS.map(|o| {
        r.variable(
            &format!("control({o})"),
            VariableKind::State,
            &["false", "true"],
        )
    });
    let choose = [Some(0), Some(1), None].map(|p| {
        let kind = p.map_or(VariableKind::Chance, VariableKind::Action);
        let name = format!("choose({})", OWNERS[p.unwrap_or(RANDOM)]);
        r.variable(&name, kind, &["heads", "tails", "noop"])
    });
    let coin2 = [0, 1, 2].map(|i| {
        r.variable(
            &format!("coin({})'", OWNERS[i]),
            VariableKind::Next(coin[i]),
            &SIDES,
        )
    });
    let control2 = [0, 1, 2].map(|i| {
        let name = format!("control({})'", OWNERS[i]);
        r.variable(&name, VariableKind::Next(control[i]), &["false", "true"])
    });

    r.hard_table(
        "terminal",
        TableRole::Terminal,
        &[coin[0], coin[1], coin[2], terminal],
        |t| t[..3].iter().all(|&c| c != UNSET) == (t[3] == 1),
    );
    for i in 0..3 {
        r.hard_table(
            &format!("legal({})", OWNERS[i]),
            TableRole::Legal,
            &[control[i], choose[i]],
            |t| (t[0] == 1) == (t[1] != NOOP),
        );
        // next(coin(P, X)) ← does(P, choose(X)); next(coin(P, X)) ← does(P, noop), true(coin(P, X)).
        let scope = [coin[i], choose[i], coin2[i]];
        r.hard_table(
            &format!("next(coin({}))", OWNERS[i]),
            TableRole::Next,
            &scope,
            |t| {
                if t[1] == NOOP {
                    t[2] == t[0]
                } else {
                    t[2] == t[1]
                }
            },
        );
    }
    // next(control(random)) ← true(control(alice)); nobody else keeps or gains control.
    r.hard_table(
        "next(control(random))",
        TableRole::Next,
        &[control[0], control2[2]],
        |t| t[0] == t[1],
    );
    for i in 0..2 {
        let name = format!("next(control({}))", OWNERS[i]);
        r.hard_table(&name, TableRole::Next, &[control2[i]], |t| t[0] == 0);
    }
    r.goal_table("goal", &[coin[0], coin[1], coin[2]], |t| {
        let won = t[0] != UNSET && t[0] == t[1] && t[1] == t[2];
        t.iter()
            .all(|&c| c != UNSET)
            .then(|| vec![f64::from(u8::from(won)); 2])
    });
    r
}

impl Game for CooperativePennies {
    type State = PenniesState;
    type Move = u32;

    fn initial_state(&self) -> PenniesState {
        PenniesState {
            coins: [UNSET; 3],
            control: [true, true, false],
        }
    }

    /// The chance player's flip (the only move played alone).
    fn apply(&self, state: &mut PenniesState, side: u32) -> Option<PenniesState> {
        let mut next = *state;
        next.coins[RANDOM] = side;
        next.control = [false; 3];
        Some(next)
    }

    /// The state's values mixed into a key, so that UCT can reuse its tree between moves.
    fn state_hash(&self, state: &PenniesState) -> Option<u64> {
        let mut values = Vec::new();
        self.state_values(state, &mut values);
        Some(key_of(values))
    }

    fn move_name(&self, _: &PenniesState, side: u32) -> String {
        ["heads", "tails", "noop"][side.min(2) as usize].to_string()
    }
}

impl GeneralGame for CooperativePennies {
    fn players(&self) -> usize {
        2
    }

    fn turn(&self, state: &PenniesState) -> Turn {
        if state.coins.iter().all(|&c| c != UNSET) {
            Turn::Over
        } else if state.control[RANDOM] {
            Turn::Chance
        } else {
            Turn::Simultaneous
        }
    }

    fn legal_moves(&self, state: &PenniesState, player: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        if state.control[player] {
            moves.extend([0, 1]);
        }
    }

    fn chance_outcomes(&self, state: &PenniesState, outcomes: &mut ChanceList<u32>) {
        outcomes.clear();
        if state.control[RANDOM] {
            outcomes.extend([(0, 0.5), (1, 0.5)]);
        }
    }

    fn play_joint(&self, state: &mut PenniesState, joint: &[u32]) {
        state.coins[0] = joint[0];
        state.coins[1] = joint[1];
        state.control = [false, false, true];
    }

    fn payoff(&self, state: &PenniesState, _: PlayerId) -> f64 {
        let [a, b, r] = state.coins;
        f64::from(u8::from(a == b && b == r))
    }
}

impl RoundGame for CooperativePennies {
    fn round(&self) -> &Round {
        &self.round
    }

    fn state_values(&self, state: &PenniesState, values: &mut Vec<u32>) {
        values.clear();
        values.extend(state.coins);
        values.extend(state.control.map(u32::from));
    }

    fn action(&self, _: Option<PlayerId>, value: u32) -> u32 {
        value
    }

    fn action_value(&self, _: Option<PlayerId>, side: u32) -> u32 {
        side
    }
}

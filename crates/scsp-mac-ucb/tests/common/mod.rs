//! Shared by the crate's tests: a game whose round is altered, and a small game of luck.
#![allow(dead_code)] // each test binary uses a part

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

/// One player who moves, is lucky or not, then chooses: state 0 (`go`) → chance (good or bad, ½
/// each) → good {x: 1.0, y: 0.9} or bad {x: 0.5, y: 0.1} → the end. After `go` the best arm's
/// estimate is about (1.0 + 0.5) / 2, above every arm of the bad state.
#[derive(Clone, Debug)]
pub struct Luck {
    round: Round,
}

impl Luck {
    pub const START: u32 = 0;
    pub const BAD: u32 = 3;
    /// The best payoff from the bad state.
    pub const BAD_BEST: f64 = 0.5;
    pub const GO: u32 = 0;
    pub const X: u32 = 1;
    pub const Y: u32 = 2;
    const GOOD_FLIP: u32 = 10;
    const BAD_FLIP: u32 = 11;

    fn payoff(s: u32) -> f64 {
        match s {
            4 => 1.0,
            5 => 0.9,
            6 => 0.5,
            7 => 0.1,
            _ => 0.0,
        }
    }

    /// The successor of `s` after action `act` and chance value `luck` (0 good, 1 bad).
    fn next(s: u32, act: u32, luck: u32) -> u32 {
        match (s, act, luck) {
            (0, 0, _) => 1,
            (1, _, 0) => 2,
            (1, _, 1) => 3,
            (2 | 3, 1 | 2, _) => 2 * s + act - 1,
            (s, _, _) => s,
        }
    }

    pub fn new() -> Luck {
        use game_trait::round::{TableRole, VariableKind};
        let states = ["0", "1", "2", "3", "4", "5", "6", "7"];
        let mut r = Round::new(1);
        let g = r.variable("terminal", VariableKind::Terminal, &["no", "yes"]);
        let s = r.variable("s", VariableKind::State, &states);
        let a = r.variable("act", VariableKind::Action(0), &["go", "x", "y", "noop"]);
        let y = r.variable("luck", VariableKind::Chance, &["good", "bad", "none"]);
        let s2 = r.variable("s'", VariableKind::Next(s), &states);
        r.hard_table("terminal", TableRole::Terminal, &[s, g], |t| {
            (t[0] >= 4) == (t[1] == 1)
        });
        r.hard_table("legal", TableRole::Legal, &[s, a], |t| match t[0] {
            0 => t[1] == 0,
            2 | 3 => t[1] == 1 || t[1] == 2,
            _ => t[1] == 3,
        });
        r.hard_table("legal(luck)", TableRole::Legal, &[s, y], |t| {
            (t[0] == 1) == (t[1] < 2)
        });
        r.hard_table("next", TableRole::Next, &[s, a, y, s2], |t| {
            t[3] == Luck::next(t[0], t[1], t[2])
        });
        r.goal_table("goal", &[s], |t| {
            (t[0] >= 4).then(|| vec![Luck::payoff(t[0])])
        });
        Luck { round: r }
    }
}

impl Game for Luck {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        Luck::START
    }
    fn apply(&self, s: &mut u32, mv: u32) -> Option<u32> {
        Some(match mv {
            Luck::GOOD_FLIP | Luck::BAD_FLIP => Luck::next(*s, 3, mv - Luck::GOOD_FLIP),
            act => Luck::next(*s, act, 2),
        })
    }
}

impl GeneralGame for Luck {
    fn players(&self) -> usize {
        1
    }
    fn turn(&self, s: &u32) -> Turn {
        match s {
            0 | 2 | 3 => Turn::Player(0),
            1 => Turn::Chance,
            _ => Turn::Over,
        }
    }
    fn legal_moves(&self, s: &u32, _: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        match s {
            0 => moves.push(Luck::GO),
            2 | 3 => moves.extend([Luck::X, Luck::Y]),
            _ => {}
        }
    }
    fn chance_outcomes(&self, s: &u32, outcomes: &mut ChanceList<u32>) {
        outcomes.clear();
        if *s == 1 {
            outcomes.extend([(Luck::GOOD_FLIP, 0.5), (Luck::BAD_FLIP, 0.5)]);
        }
    }
    fn payoff(&self, s: &u32, _: PlayerId) -> f64 {
        Luck::payoff(*s)
    }
}

impl RoundGame for Luck {
    fn round(&self) -> &Round {
        &self.round
    }
    fn state_values(&self, s: &u32, values: &mut Vec<u32>) {
        values.clear();
        values.push(*s);
    }
    fn action(&self, player: Option<PlayerId>, value: u32) -> u32 {
        match player {
            Some(_) => value,
            None => Luck::GOOD_FLIP + value,
        }
    }
    fn action_value(&self, player: Option<PlayerId>, mv: u32) -> u32 {
        match player {
            Some(_) => mv,
            None => mv - Luck::GOOD_FLIP,
        }
    }
}

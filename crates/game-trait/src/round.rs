//! [`RoundGame`]: a game that describes one round of play as finite-domain variables and tables,
//! the encoding of Koriche, Lagrue, Piette and Tabary, *General Game Playing with Stochastic CSP*
//! (Constraints, 2016, Section 3.2), which stochastic-constraint players solve round by round.
//!
//! A round is the same for every state: its **state variables** `f_t` take their values from the
//! current state ([`RoundGame::state_values`]); its **action variables** `a_{t,p}` (one per player)
//! and the **chance variable** `y_t` are what the round decides; its **next variables** `f_{t+1}`
//! hold the successor state and its **terminal variable** `g_t` whether the game is over. Tables
//! relate them:
//!
//! | [`TableRole`] | relation | scope |
//! |---|---|---|
//! | `Legal` | hard: the allowed (state, action) tuples | state variables and one action (or the chance) variable |
//! | `Next` | hard: the successor values each (state, actions) tuple leads to | state, action and next variables |
//! | `Terminal` | hard: which states are terminal | state variables and the terminal variable |
//! | `Goal` | soft: each player's reward in `[0, 1]` per state (0 where unlisted) | state variables |
//!
//! The chance variable is uniformly distributed over its legal values in the current state (as GDL-II
//! defines chance). A variable's values are `0..values.len()`, named by `values` for display.
//!
//! ```
//! use game_trait::round::{Relation, Round, TableRole, VariableKind};
//!
//! // A coin that one player turns over once: state `turned` ∈ {no, yes}, action ∈ {turn, noop}.
//! let mut round = Round::new(1);
//! let turned = round.variable("turned", VariableKind::State, &["no", "yes"]);
//! let action = round.variable("act", VariableKind::Action(0), &["turn", "noop"]);
//! let next = round.variable("turned'", VariableKind::Next(turned), &["no", "yes"]);
//! // Turn the coin while it is not turned yet, wait afterwards; either way it ends turned.
//! let legal = Relation::allowed([[0, 0], [1, 1]]);
//! round.table("legal", TableRole::Legal, &[turned, action], legal);
//! round.hard_table("next", TableRole::Next, &[turned, action, next], |t| t[2] == 1);
//! assert_eq!(round.variables.len(), 3);
//! assert_eq!(round.tables[1].relation, Relation::allowed([[0, 0, 1], [0, 1, 1], [1, 0, 1], [1, 1, 1]]));
//! assert_eq!(round.indices(|k| k == VariableKind::State), vec![turned]);
//! ```

use crate::game::PlayerId;
use crate::general::GeneralGame;

/// What a variable of a [`Round`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariableKind {
    /// `g_t`: whether the state is terminal (values: not terminal, terminal).
    Terminal,
    /// A state variable `f_t`: its value in a state is [`RoundGame::state_values`].
    State,
    /// `a_{t,p}`: the action of player `p`.
    Action(PlayerId),
    /// `y_t`: the chance player's action.
    Chance,
    /// `f_{t+1}`: the next value of the state variable with this index.
    Next(usize),
    /// A helper variable of the encoding. Where hard tables determine it from the state (a
    /// *gate*, such as "this line of four is complete", defined by a table over the state
    /// variables and other gates that allows one value of it per assignment), players fix it
    /// with the state; one that only next tables read belongs to the transition; any other is
    /// decided with the actions.
    Auxiliary,
}

/// A variable of a [`Round`]: its values are `0..values.len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundVariable {
    /// Its name, for display (`coin(alice)`, `choose(bob)`).
    pub name: String,
    /// What it stands for.
    pub kind: VariableKind,
    /// The names of its values, for display; value `i` is named `values[i]`.
    pub values: Vec<String>,
}

/// What a [`Table`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableRole {
    /// The legal actions of one player (or of chance) in each state.
    Legal,
    /// The successor state.
    Next,
    /// Which states are terminal.
    Terminal,
    /// The players' rewards.
    Goal,
    /// Anything else the encoding needs (relations between helper variables).
    Other,
}

/// The relation of a [`Table`], over the values of its scope.
#[derive(Clone, Debug, PartialEq)]
pub enum Relation {
    /// A hard relation: exactly these tuples are allowed.
    Allowed(Vec<Vec<u32>>),
    /// A soft relation: each listed tuple's reward for every player, in `[0, 1]`; unlisted tuples
    /// are worth 0 to everyone.
    Utility(Vec<(Vec<u32>, Vec<f64>)>),
}

impl Relation {
    /// A hard relation from any collection of tuples.
    pub fn allowed<T: AsRef<[u32]>>(tuples: impl IntoIterator<Item = T>) -> Relation {
        Relation::Allowed(tuples.into_iter().map(|t| t.as_ref().to_vec()).collect())
    }
}

/// A table of a [`Round`]: a relation over a scope of variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Its name, for display (`legal(alice)`, `next(coin)`).
    pub name: String,
    /// What it says.
    pub role: TableRole,
    /// Indices into [`Round::variables`], in the order of the tuples' values.
    pub scope: Vec<usize>,
    /// The tuples.
    pub relation: Relation,
}

/// One round of a game as variables and tables (see the [module docs](self)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// Number of players, not counting chance.
    pub players: usize,
    /// The variables: terminal and state variables, actions, the chance variable, next variables
    /// and helpers (players decide them state first, then actions and helpers, then chance).
    pub variables: Vec<RoundVariable>,
    /// The tables.
    pub tables: Vec<Table>,
}

impl Round {
    /// An empty round of a game of `players` players.
    pub fn new(players: usize) -> Round {
        Round {
            players,
            ..Round::default()
        }
    }

    /// Adds a variable with the named values and returns its index.
    pub fn variable(&mut self, name: &str, kind: VariableKind, values: &[&str]) -> usize {
        self.variables.push(RoundVariable {
            name: name.to_string(),
            kind,
            values: values.iter().map(|v| v.to_string()).collect(),
        });
        self.variables.len() - 1
    }

    /// Adds a table.
    pub fn table(&mut self, name: &str, role: TableRole, scope: &[usize], relation: Relation) {
        self.tables.push(Table {
            name: name.to_string(),
            role,
            scope: scope.to_vec(),
            relation,
        });
    }

    /// Adds a hard table over `scope` that allows exactly the tuples `allowed` accepts, out of every
    /// combination of the scope's values: how a hand-written game states its rules.
    pub fn hard_table(
        &mut self,
        name: &str,
        role: TableRole,
        scope: &[usize],
        allowed: impl Fn(&[u32]) -> bool,
    ) {
        let mut tuples = Vec::new();
        self.each_tuple(scope, |t| {
            if allowed(t) {
                tuples.push(t.to_vec());
            }
        });
        self.table(name, role, scope, Relation::Allowed(tuples));
    }

    /// Adds a goal table over `scope`: `reward` gives every player's reward for a tuple, or `None`
    /// where everyone gets 0 (non-terminal states).
    pub fn goal_table(
        &mut self,
        name: &str,
        scope: &[usize],
        reward: impl Fn(&[u32]) -> Option<Vec<f64>>,
    ) {
        let mut rows = Vec::new();
        self.each_tuple(scope, |t| {
            if let Some(r) = reward(t) {
                rows.push((t.to_vec(), r));
            }
        });
        self.table(name, TableRole::Goal, scope, Relation::Utility(rows));
    }

    /// Calls `visit` with every combination of the values of `scope`, in lexicographic order.
    fn each_tuple(&self, scope: &[usize], mut visit: impl FnMut(&[u32])) {
        let sizes: Vec<u32> = scope
            .iter()
            .map(|&v| self.variables[v].values.len() as u32)
            .collect();
        if sizes.contains(&0) {
            return;
        }
        let mut tuple = vec![0u32; scope.len()];
        loop {
            visit(&tuple);
            // The odometer: increment the last position, carrying leftwards.
            let Some(i) = (0..tuple.len()).rev().find(|&i| tuple[i] + 1 < sizes[i]) else {
                return;
            };
            tuple[i] += 1;
            tuple[i + 1..].iter_mut().for_each(|t| *t = 0);
        }
    }

    /// The indices of the variables of `kind`, in order.
    pub fn indices(&self, kind: impl Fn(VariableKind) -> bool) -> Vec<usize> {
        (0..self.variables.len())
            .filter(|&i| kind(self.variables[i].kind))
            .collect()
    }
}

/// A game whose rounds are described by a [`Round`]: what the stochastic-CSP players need besides
/// the rules themselves. The description must agree with the game's [`GeneralGame`] rules:
///
/// - in every non-terminal state, the legal table of each player the game asks for a move (`p` at a
///   `Player(p)` turn, everyone at a `Simultaneous` one) allows exactly that player's legal moves;
///   every other player's (the "noop" of GDL) and the chance variable's when chance does not move
///   allow exactly one value, which is never played; when chance moves, its legal table allows
///   exactly the values of [`GeneralGame::chance_outcomes`], which are equally likely;
/// - the next tables give the successor's state values, the terminal table says whether the game is
///   over and the goal tables give [`GeneralGame::payoff`] in terminal states;
/// - two states with the same [`state_values`](RoundGame::state_values) are the same position
///   (players cache what they learn about a state under its values).
///
/// `scsp_mac_ucb::check_round` checks all of this on the states of random games.
pub trait RoundGame: GeneralGame {
    /// The round's variables and tables, the same for every state.
    fn round(&self) -> &Round;

    /// Replaces the contents of `values` with the values of the round's state variables in
    /// `state`, in the order of `round().variables` (only the [`VariableKind::State`] ones).
    fn state_values(&self, state: &Self::State, values: &mut Vec<u32>);

    /// The move that `value` of the action variable of `player` (`None`: the chance variable)
    /// stands for. Only asked for values that stand for moves the game can play.
    fn action(&self, player: Option<PlayerId>, value: u32) -> Self::Move;

    /// The value of `player`'s (`None`: chance's) action variable that `mv` is; the inverse of
    /// [`action`](RoundGame::action).
    fn action_value(&self, player: Option<PlayerId>, mv: Self::Move) -> u32;
}

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

use std::collections::BTreeSet;

use game_trait::round::{Relation as TableRelation, Round, TableRole, VariableKind};
use game_trait::{ChanceList, GeneralGame, MoveList, PlayerId, RoundGame, Turn};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::error::ScspError;
use crate::model::{Network, VarId};

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

/// The round's variables by kind, checked: one action variable per player, at most one chance
/// variable, next variables only in next tables.
struct Kinds {
    state: Vec<usize>,
    actions: Vec<usize>,
    chance: Option<usize>,
}

impl Kinds {
    /// The kinds of `round`'s variables, after checking that its tables are well formed and that
    /// it has the game's number of players.
    fn of(round: &Round, players: usize) -> Result<Kinds, ScspError> {
        if round.players != players {
            return Err(error(format!(
                "the round has {} players, the game {players}",
                round.players
            )));
        }
        check_tables(round)?;
        let state = round.indices(|k| k == VariableKind::State);
        let actions = (0..round.players)
            .map(
                |p| match round.indices(|k| k == VariableKind::Action(p))[..] {
                    [a] => Ok(a),
                    ref found => Err(error(format!(
                        "player {p} has {} action variables; it needs exactly one",
                        found.len()
                    ))),
                },
            )
            .collect::<Result<Vec<_>, _>>()?;
        let chance = match round.indices(|k| k == VariableKind::Chance)[..] {
            [] => None,
            [y] => Some(y),
            ref found => return Err(error(format!("{} chance variables", found.len()))),
        };
        for v in &round.variables {
            match v.kind {
                VariableKind::Action(p) if p >= round.players => {
                    return Err(error(format!("`{}` is the action of player {p}", v.name)));
                }
                VariableKind::Next(s)
                    if round.variables.get(s).map(|s| s.kind) != Some(VariableKind::State) =>
                {
                    return Err(error(format!(
                        "`{}` is not the next value of a state variable",
                        v.name
                    )));
                }
                _ => {}
            }
        }
        Ok(Kinds {
            state,
            actions,
            chance,
        })
    }

    /// The value of every state variable in `values` (by round index), checked against the domains.
    fn fixed(&self, round: &Round, values: &[u32]) -> Result<Vec<Option<u32>>, ScspError> {
        if values.len() != self.state.len() {
            return Err(error(format!(
                "{} state values for {} state variables",
                values.len(),
                self.state.len()
            )));
        }
        let mut fixed = vec![None; round.variables.len()];
        for (&v, &value) in self.state.iter().zip(values) {
            let var = &round.variables[v];
            if value as usize >= var.values.len() {
                return Err(error(format!(
                    "value {value} of `{}` is out of its domain",
                    var.name
                )));
            }
            fixed[v] = Some(value);
        }
        determine(round, &mut fixed);
        Ok(fixed)
    }
}

/// Fixes the helper variables that the hard tables determine from the `known` values: a table
/// whose scope is known but for one helper variable, and whose tuples that agree with the known
/// values give that variable a single value, fixes it (a *gate*, such as "this line of four is
/// complete", is determined by the state). Repeated until nothing changes.
fn determine(round: &Round, known: &mut [Option<u32>]) {
    loop {
        let mut changed = false;
        for table in &round.tables {
            let TableRelation::Allowed(tuples) = &table.relation else {
                continue;
            };
            let mut unknown = (table.scope.iter().enumerate()).filter(|(_, &v)| known[v].is_none());
            let (Some((at, &x)), None) = (unknown.next(), unknown.next()) else {
                continue;
            };
            if round.variables[x].kind != VariableKind::Auxiliary {
                continue;
            }
            let agrees = |t: &&Vec<u32>| {
                (table.scope.iter().zip(t.iter())).all(|(&v, &t)| known[v].map_or(true, |k| k == t))
            };
            let mut values = tuples.iter().filter(agrees).map(|t| t[at]);
            if let Some(first) = values.next() {
                if values.all(|v| v == first) {
                    known[x] = Some(first);
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

fn error(message: String) -> ScspError {
    ScspError::Round { message }
}

/// Every table names existing variables, only next tables name next variables, and every tuple
/// has one value per variable of its scope, within that variable's values.
fn check_tables(round: &Round) -> Result<(), ScspError> {
    for t in &round.tables {
        if let Some(&v) = t.scope.iter().find(|&&v| v >= round.variables.len()) {
            return Err(error(format!(
                "table `{}` names variable {v}, which does not exist",
                t.name
            )));
        }
        let next = t
            .scope
            .iter()
            .any(|&v| matches!(round.variables[v].kind, VariableKind::Next(_)));
        if next && t.role != TableRole::Next {
            return Err(error(format!(
                "table `{}` names a next variable but is not a next table",
                t.name
            )));
        }
        let tuples: Vec<&[u32]> = match &t.relation {
            TableRelation::Allowed(tuples) => tuples.iter().map(Vec::as_slice).collect(),
            TableRelation::Utility(rows) => rows.iter().map(|(t, _)| t.as_slice()).collect(),
        };
        for tuple in tuples {
            let fits = tuple.len() == t.scope.len()
                && t.scope
                    .iter()
                    .zip(tuple)
                    .all(|(&v, &x)| (x as usize) < round.variables[v].values.len());
            if !fits {
                return Err(error(format!(
                    "table `{}` holds the tuple {tuple:?}, which does not fit its scope",
                    t.name
                )));
            }
        }
    }
    Ok(())
}

/// The one-stage network `μSCSP_t` of `state` (see the [module docs](self)). An error names what
/// in the game's round is inconsistent.
pub fn round_network<G: RoundGame>(game: &G, state: &G::State) -> Result<RoundNetwork, ScspError> {
    let round = game.round();
    let kinds = Kinds::of(round, game.players())?;
    let mut values = Vec::new();
    game.state_values(state, &mut values);
    let fixed = kinds.fixed(round, &values)?;

    let mut network = Network::new(round.players);
    let mut id: Vec<Option<VarId>> = vec![None; round.variables.len()];
    // Helpers that only next tables name (gates that read the moves) are left out with them.
    let mut kept = vec![false; round.variables.len()];
    for table in round.tables.iter().filter(|t| t.role != TableRole::Next) {
        table.scope.iter().for_each(|&v| kept[v] = true);
    }
    let decisions = (0..round.variables.len()).filter(|&i| match round.variables[i].kind {
        VariableKind::Next(_) | VariableKind::Chance => false,
        VariableKind::Auxiliary => kept[i],
        _ => true,
    });
    for i in decisions.chain(kinds.chance) {
        let var = &round.variables[i];
        let domain: Vec<i64> = match fixed[i] {
            Some(value) => vec![i64::from(value)],
            None => (0..var.values.len() as i64).collect(),
        };
        id[i] = Some(network.variable(&var.name, &domain, var.kind == VariableKind::Chance));
    }
    for table in round.tables.iter().filter(|t| t.role != TableRole::Next) {
        let scope: Vec<VarId> = table.scope.iter().map(|&v| id[v].expect("kept")).collect();
        // Tuples that agree with the state, its values re-indexed into one-value domains.
        let restrict = |tuple: &[u32]| -> Option<Vec<u32>> {
            if tuple.len() != table.scope.len() {
                return None;
            }
            table
                .scope
                .iter()
                .zip(tuple)
                .map(|(&v, &t)| match fixed[v] {
                    Some(value) => (t == value).then_some(0),
                    None => Some(t),
                })
                .collect()
        };
        match &table.relation {
            TableRelation::Allowed(tuples) => network.hard(
                &table.name,
                &scope,
                tuples.iter().filter_map(|t| restrict(t)).collect(),
            ),
            TableRelation::Utility(rows) => network.soft(
                &table.name,
                &scope,
                rows.iter()
                    .filter_map(|(t, u)| Some((restrict(t)?, u.clone())))
                    .collect(),
            ),
        }
    }
    if let Some(y) = kinds.chance {
        let legal = legal_values(round, y, &fixed);
        if legal.is_empty() {
            return Err(error(format!(
                "no value of the chance variable is legal in {state:?}"
            )));
        }
        let size = round.variables[y].values.len();
        let p = 1.0 / legal.len() as f64;
        let distribution = (0..size as u32)
            .map(|v| if legal.contains(&v) { p } else { 0.0 })
            .collect();
        network.cpt(id[y].expect("kept"), &[], vec![(Vec::new(), distribution)]);
    }
    network.validate()?;
    let decisions = network.decisions();
    let actions = kinds
        .actions
        .iter()
        .map(|&a| {
            decisions
                .iter()
                .position(|&d| Some(d) == id[a])
                .expect("a decision")
        })
        .collect();
    Ok(RoundNetwork {
        network,
        actions,
        chance: kinds.chance.and_then(|y| id[y]),
    })
}

/// The values of round variable `x` that every hard table over `x` and fixed (state) variables
/// allows, given the fixed values.
fn legal_values(round: &Round, x: usize, fixed: &[Option<u32>]) -> BTreeSet<u32> {
    let mut legal: BTreeSet<u32> = (0..round.variables[x].values.len() as u32).collect();
    for table in &round.tables {
        let TableRelation::Allowed(tuples) = &table.relation else {
            continue;
        };
        let local = table.scope.iter().all(|&v| v == x || fixed[v].is_some());
        if !table.scope.contains(&x) || !local {
            continue;
        }
        let allowed: BTreeSet<u32> = tuples
            .iter()
            .filter(|t| {
                table
                    .scope
                    .iter()
                    .zip(t.iter())
                    .all(|(&v, &t)| fixed[v].map_or(true, |f| f == t))
            })
            .filter_map(|t| table.scope.iter().position(|&v| v == x).map(|i| t[i]))
            .collect();
        legal.retain(|v| allowed.contains(v));
    }
    legal
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

/// Checks that `game`'s round agrees with its rules (the contract of [`RoundGame`]) in every state
/// of `playouts` random games from the initial state (moves uniform, from a generator seeded with
/// `seed`): terminal, legal and goal tables against [`GeneralGame::turn`], the legal moves, the
/// chance outcomes and the payoffs; next tables against the successor of the move played; every
/// move's action value round-trips through [`RoundGame::action`]. Returns the number of states
/// checked; the first disagreement is an error naming the state and the table.
pub fn check_round<G: RoundGame>(game: &G, seed: u64, playouts: usize) -> Result<usize, ScspError> {
    let round = game.round();
    let kinds = Kinds::of(round, game.players())?;
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..playouts {
        let mut state = game.initial_state();
        loop {
            checked += 1;
            let mut values = Vec::new();
            game.state_values(&state, &mut values);
            let fixed = kinds.fixed(round, &values)?;
            let turn = game.turn(&state);
            check_terminal(round, &fixed, turn == Turn::Over, &state)?;
            if turn == Turn::Over {
                check_goals(game, round, &fixed, &state)?;
                break;
            }
            let (joint, chance) = check_legal(game, &kinds, &fixed, turn, &state, &mut rng)?;
            let mut next = state.clone();
            play_round(
                game,
                &mut next,
                turn,
                &joint,
                chance.filter(|_| moves_chance(game, &state, turn)),
            );
            let mut next_values = Vec::new();
            game.state_values(&next, &mut next_values);
            kinds.fixed(round, &next_values)?;
            let mut known = fixed.clone();
            for (&a, &value) in kinds.actions.iter().zip(&joint) {
                known[a] = Some(value);
            }
            if let (Some(y), Some(value)) = (kinds.chance, chance) {
                known[y] = Some(value);
            }
            determine(round, &mut known);
            check_next(round, &kinds, &known, &next_values, &state)?;
            state = next;
        }
    }
    Ok(checked)
}

fn moves_chance<G: GeneralGame>(game: &G, state: &G::State, turn: Turn) -> bool {
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    turn == Turn::Chance || !outcomes.is_empty()
}

fn check_terminal<S: std::fmt::Debug>(
    round: &Round,
    fixed: &[Option<u32>],
    over: bool,
    state: &S,
) -> Result<(), ScspError> {
    for g in round.indices(|k| k == VariableKind::Terminal) {
        let allowed = legal_values(round, g, fixed);
        if allowed != BTreeSet::from([u32::from(over)]) {
            let says = if over { "over" } else { "not over" };
            return Err(error(format!(
                "in {state:?} the game is {says}, but `{}` may be {allowed:?}",
                round.variables[g].name
            )));
        }
    }
    Ok(())
}

fn check_goals<G: RoundGame>(
    game: &G,
    round: &Round,
    fixed: &[Option<u32>],
    state: &G::State,
) -> Result<(), ScspError> {
    let mut reward = vec![0.0; round.players];
    for table in round.tables.iter().filter(|t| t.role == TableRole::Goal) {
        let TableRelation::Utility(rows) = &table.relation else {
            return Err(error(format!(
                "goal table `{}` is not a utility table",
                table.name
            )));
        };
        let agrees = |t: &[u32]| {
            table
                .scope
                .iter()
                .zip(t)
                .all(|(&v, &t)| match round.variables[v].kind {
                    VariableKind::Terminal => t == 1,
                    _ => fixed[v] == Some(t),
                })
        };
        for (_, u) in rows.iter().filter(|(t, _)| agrees(t)) {
            reward.iter_mut().zip(u).for_each(|(r, u)| *r += u);
        }
    }
    for (p, &r) in reward.iter().enumerate() {
        let payoff = game.payoff(state, p);
        if (r - payoff).abs() > 1e-9 {
            return Err(error(format!(
                "in {state:?} player {p}'s payoff is {payoff}, but the goal tables give {r}"
            )));
        }
    }
    Ok(())
}

/// Checks the legal tables of every player and of chance, and draws a random joint action (and
/// chance value) among the legal ones.
fn check_legal<G: RoundGame>(
    game: &G,
    kinds: &Kinds,
    fixed: &[Option<u32>],
    turn: Turn,
    state: &G::State,
    rng: &mut Pcg64,
) -> Result<(Vec<u32>, Option<u32>), ScspError> {
    let round = game.round();
    let mut joint = Vec::with_capacity(round.players);
    let mut moves = MoveList::new();
    for (p, &a) in kinds.actions.iter().enumerate() {
        let tables = legal_values(round, a, fixed);
        let name = &round.variables[a].name;
        if asks(turn, p) {
            game.legal_moves(state, p, &mut moves);
            let rules = values_of(game, Some(p), &moves, state)?;
            if rules != tables {
                return Err(error(format!(
                    "in {state:?} player {p}'s legal moves are {rules:?}, but `{name}` may be {tables:?}"
                )));
            }
        } else if tables.len() != 1 {
            return Err(error(format!(
                "in {state:?} player {p} does not move, but `{name}` may be {tables:?} (one value expected)"
            )));
        }
        joint.push(pick(&tables, rng, &format!("player {p}"), state)?);
    }
    let Some(y) = kinds.chance else {
        if moves_chance(game, state, turn) {
            return Err(error(format!(
                "in {state:?} chance moves, but the round has no chance variable"
            )));
        }
        return Ok((joint, None));
    };
    let tables = legal_values(round, y, fixed);
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    let name = &round.variables[y].name;
    if moves_chance(game, state, turn) {
        let uniform = 1.0 / outcomes.len() as f64;
        if let Some((m, p)) = outcomes.iter().find(|(_, p)| (p - uniform).abs() > 1e-9) {
            return Err(error(format!(
                "in {state:?} chance plays {m:?} with probability {p}, not uniformly"
            )));
        }
        let chance_moves: MoveList<G::Move> = outcomes.iter().map(|&(m, _)| m).collect();
        let rules = values_of(game, None, &chance_moves, state)?;
        if rules != tables {
            return Err(error(format!(
                "in {state:?} chance's moves are {rules:?}, but `{name}` may be {tables:?}"
            )));
        }
    } else if tables.len() != 1 {
        return Err(error(format!(
            "in {state:?} chance does not move, but `{name}` may be {tables:?} (one value expected)"
        )));
    }
    Ok((joint, Some(pick(&tables, rng, "chance", state)?)))
}

/// The action values of `moves`, checking that each round-trips through [`RoundGame::action`].
fn values_of<G: RoundGame>(
    game: &G,
    player: Option<PlayerId>,
    moves: &[G::Move],
    state: &G::State,
) -> Result<BTreeSet<u32>, ScspError> {
    moves
        .iter()
        .map(|&m| {
            let value = game.action_value(player, m);
            if game.action(player, value) == m {
                Ok(value)
            } else {
                Err(error(format!(
                    "in {state:?} move {m:?} has action value {value}, which stands for {:?}",
                    game.action(player, value)
                )))
            }
        })
        .collect()
}

/// A value drawn uniformly from `values`; an error if there is none (a game in progress where
/// someone who must move cannot).
fn pick<S: std::fmt::Debug>(
    values: &BTreeSet<u32>,
    rng: &mut Pcg64,
    who: &str,
    state: &S,
) -> Result<u32, ScspError> {
    if values.is_empty() {
        return Err(error(format!(
            "in {state:?}, which is not over, {who} has no legal move"
        )));
    }
    let i = rng.gen_range(0..values.len());
    Ok(*values.iter().nth(i).expect("in range"))
}

/// Checks every next table: the successor's values must be allowed, and be the only next values
/// the table allows with the same state, actions, chance and helper values (a helper that the
/// tables do not determine may take any value).
fn check_next<S: std::fmt::Debug>(
    round: &Round,
    kinds: &Kinds,
    known: &[Option<u32>],
    next_values: &[u32],
    state: &S,
) -> Result<(), ScspError> {
    let next_value = |v: usize| match round.variables[v].kind {
        VariableKind::Next(s) => kinds
            .state
            .iter()
            .position(|&x| x == s)
            .map(|i| next_values[i]),
        _ => None,
    };
    for table in round.tables.iter().filter(|t| t.role == TableRole::Next) {
        let TableRelation::Allowed(tuples) = &table.relation else {
            return Err(error(format!(
                "next table `{}` is not a hard table",
                table.name
            )));
        };
        let same_move = |t: &&Vec<u32>| {
            table
                .scope
                .iter()
                .zip(t.iter())
                .all(|(&v, &t)| match round.variables[v].kind {
                    VariableKind::Next(_) => true,
                    _ => known[v].map_or(true, |k| k == t),
                })
        };
        let successor: Vec<Option<u32>> = table.scope.iter().map(|&v| next_value(v)).collect();
        // With helper variables, other tuples may belong to other helper values: only the
        // successor's presence is checked.
        let helpers = table
            .scope
            .iter()
            .any(|&v| round.variables[v].kind == VariableKind::Auxiliary && known[v].is_none());
        let mut found = false;
        for t in tuples.iter().filter(same_move) {
            let matches = successor
                .iter()
                .zip(t)
                .all(|(s, &t)| s.map_or(true, |s| s == t));
            if !matches && !helpers {
                return Err(error(format!(
                    "in {state:?} table `{}` allows the next values {t:?}, but the game moves to {next_values:?}",
                    table.name
                )));
            }
            found |= matches;
        }
        if !found {
            return Err(error(format!(
                "in {state:?} table `{}` allows no successor for the move played",
                table.name
            )));
        }
    }
    Ok(())
}

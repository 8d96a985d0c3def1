//! [`check_round`]: whether a game's round agrees with its rules along random games.

use std::collections::BTreeSet;

use game_trait::round::{Relation as TableRelation, Round, TableRole, VariableKind};
use game_trait::{ChanceList, GeneralGame, MoveList, PlayerId, RoundGame, Turn};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::kinds::{determine, error, legal_values, Kinds};
use super::{asks, play_values, RoundEncoder};
use crate::error::ScspError;
use crate::model::{Network, VarId};

/// Checks that `game`'s round agrees with its rules (the contract of [`RoundGame`]) in every state
/// of `playouts` random games from the initial state (moves uniform, from a generator seeded with
/// `seed`): terminal, legal and goal tables against [`GeneralGame::turn`], the legal moves, the
/// chance outcomes and the payoffs; next tables against the successor of the move played; every
/// move's action value round-trips through [`RoundGame::action`]; and the network a
/// [`RoundEncoder`] builds from its index is the one read off the tables directly. Returns the
/// number of states checked; the first disagreement is an error naming the state and the table.
pub fn check_round<G: RoundGame>(game: &G, seed: u64, playouts: usize) -> Result<usize, ScspError> {
    let round = game.round();
    let kinds = Kinds::of(round, game.players())?;
    let encoder = RoundEncoder::new(game)?;
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
            let indexed = (turn != Turn::Over).then(|| encoder.network(game, &state));
            if let Some(network) = indexed {
                if network? != scanned_network(round, &kinds, &fixed, &state)? {
                    return Err(error(format!(
                        "in {state:?} the encoder's network differs from the one the tables give"
                    )));
                }
            }
            check_terminal(round, &fixed, turn == Turn::Over, &state)?;
            if turn == Turn::Over {
                check_goals(game, round, &fixed, &state)?;
                break;
            }
            let (joint, chance) = check_legal(game, &kinds, &fixed, turn, &state, &mut rng)?;
            let mut next = state.clone();
            play_values(
                &encoder,
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

/// The network of a state read off the round's tables by scanning every tuple: what
/// [`RoundEncoder`] must build from its index.
fn scanned_network<S: std::fmt::Debug>(
    round: &Round,
    kinds: &Kinds,
    fixed: &[Option<u32>],
    state: &S,
) -> Result<super::RoundNetwork, ScspError> {
    let mut kept = vec![false; round.variables.len()];
    for table in round.tables.iter().filter(|t| t.role != TableRole::Next) {
        table.scope.iter().for_each(|&v| kept[v] = true);
    }
    let decisions = (0..round.variables.len()).filter(|&i| match round.variables[i].kind {
        VariableKind::Next(_) | VariableKind::Chance => false,
        VariableKind::Auxiliary => kept[i],
        _ => true,
    });
    let mut network = Network::new(round.players);
    let mut id: Vec<Option<VarId>> = vec![None; round.variables.len()];
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
        let restrict = |tuple: &[u32]| -> Option<Vec<u32>> {
            (table.scope.iter().zip(tuple))
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
        let legal = legal_values(round, y, fixed);
        if legal.is_empty() {
            return Err(error(format!(
                "no value of the chance variable is legal in {state:?}"
            )));
        }
        let p = 1.0 / legal.len() as f64;
        let distribution = (0..round.variables[y].values.len() as u32)
            .map(|v| if legal.contains(&v) { p } else { 0.0 })
            .collect();
        network.cpt(id[y].expect("kept"), &[], vec![(Vec::new(), distribution)]);
    }
    let decisions = network.decisions();
    let actions = (kinds.actions.iter())
        .map(|&a| {
            decisions
                .iter()
                .position(|&d| Some(d) == id[a])
                .expect("a decision")
        })
        .collect();
    Ok(super::RoundNetwork {
        network,
        actions,
        chance: kinds.chance.and_then(|y| id[y]),
    })
}

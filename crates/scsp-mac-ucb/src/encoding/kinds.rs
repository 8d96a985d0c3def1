//! The round's variables by kind, checked once per game, and the values a state fixes.

use std::collections::BTreeSet;

use game_trait::round::{Relation as TableRelation, Round, TableRole, VariableKind};

use crate::error::ScspError;

/// The round's variables by kind, checked: one action variable per player, at most one chance
/// variable, next variables only in next tables.
#[derive(Clone, Debug)]
pub(super) struct Kinds {
    pub(super) state: Vec<usize>,
    pub(super) actions: Vec<usize>,
    pub(super) chance: Option<usize>,
}

impl Kinds {
    /// The kinds of `round`'s variables, after checking that its tables are well formed and that
    /// it has the game's number of players.
    pub(super) fn of(round: &Round, players: usize) -> Result<Kinds, ScspError> {
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
    pub(super) fn fixed(
        &self,
        round: &Round,
        values: &[u32],
    ) -> Result<Vec<Option<u32>>, ScspError> {
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
pub(super) fn determine(round: &Round, known: &mut [Option<u32>]) {
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

pub(super) fn error(message: String) -> ScspError {
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

/// allows, given the fixed values.
pub(super) fn legal_values(round: &Round, x: usize, fixed: &[Option<u32>]) -> BTreeSet<u32> {
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

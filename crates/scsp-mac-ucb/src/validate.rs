//! The checks of [`Network::validate`]: everything Definitions 2 and 3 require, each failure
//! naming its place. A place is written only when a check fails: the players validate every
//! network they solve, and formatting a place per tuple cost more than the checks.

use std::collections::HashSet;

use crate::error::ScspError;
use crate::model::{Network, Relation, VarId, PROBABILITY_TOLERANCE};

pub(crate) fn network(n: &Network) -> Result<(), ScspError> {
    if n.players == 0 {
        return Err(shape("players", "a network has at least one player"));
    }
    if n.threshold.len() != n.players {
        let message = format!("{} values for {} players", n.threshold.len(), n.players);
        return Err(shape("threshold", &message));
    }
    if let Some(t) = n.threshold.iter().find(|t| !(0.0..=1.0).contains(*t)) {
        return Err(shape("threshold", &format!("{t} is not in [0, 1]")));
    }
    variables(n)?;
    for (i, c) in n.constraints.iter().enumerate() {
        scope(n, &c.scope, &|| format!("constraints[{i}]"))?;
        match &c.relation {
            Relation::Allowed(tuples) => {
                for (j, t) in tuples.iter().enumerate() {
                    tuple(n, &c.scope, t, &|| format!("constraints[{i}].allowed[{j}]"))?;
                }
            }
            Relation::Utility(rows) => {
                for (j, (t, u)) in rows.iter().enumerate() {
                    let place = || format!("constraints[{i}].utility[{j}]");
                    tuple(n, &c.scope, t, &place)?;
                    utility(n, u, &place)?;
                }
            }
        }
    }
    cpts(n)
}

fn shape(place: &str, message: &str) -> ScspError {
    ScspError::Shape {
        place: place.to_string(),
        message: message.to_string(),
    }
}

fn variables(n: &Network) -> Result<(), ScspError> {
    let mut names = HashSet::new();
    for (i, v) in n.variables.iter().enumerate() {
        let place = format!("variables[{i}]");
        if !names.insert(v.name.as_str()) {
            return Err(ScspError::DuplicateVariable {
                place,
                name: v.name.clone(),
            });
        }
        if v.domain.is_empty() {
            return Err(shape(
                &place,
                &format!("the domain of `{}` is empty", v.name),
            ));
        }
        let distinct: HashSet<i64> = v.domain.iter().copied().collect();
        if distinct.len() != v.domain.len() {
            return Err(shape(
                &place,
                &format!("the domain of `{}` repeats a value", v.name),
            ));
        }
    }
    Ok(())
}

/// Where a check is made, written only if it fails.
type Place<'a> = &'a dyn Fn() -> String;

fn scope(n: &Network, scope: &[VarId], place: Place) -> Result<(), ScspError> {
    for (k, &v) in scope.iter().enumerate() {
        if v >= n.variables.len() {
            return Err(shape(
                &format!("{}.scope[{k}]", place()),
                "no such variable",
            ));
        }
        if scope[..k].contains(&v) {
            let name = &n.variables[v].name;
            return Err(shape(
                &format!("{}.scope[{k}]", place()),
                &format!("`{name}` twice"),
            ));
        }
    }
    Ok(())
}

fn tuple(n: &Network, scope: &[VarId], tuple: &[u32], place: Place) -> Result<(), ScspError> {
    if tuple.len() != scope.len() {
        return Err(ScspError::Arity {
            place: place(),
            expected: scope.len(),
            found: tuple.len(),
        });
    }
    for (k, (&v, &t)) in scope.iter().zip(tuple).enumerate() {
        if t as usize >= n.variables[v].domain.len() {
            return Err(shape(
                &format!("{}[{k}]", place()),
                &format!(
                    "value index {t} outside the domain of `{}`",
                    n.variables[v].name
                ),
            ));
        }
    }
    Ok(())
}

fn utility(n: &Network, u: &[f64], place: Place) -> Result<(), ScspError> {
    if u.len() != n.players {
        return Err(ScspError::Utility {
            place: place(),
            message: format!("{} utilities for {} players", u.len(), n.players),
        });
    }
    match u.iter().find(|x| !(0.0..=1.0).contains(*x)) {
        None => Ok(()),
        Some(x) => Err(ScspError::Utility {
            place: place(),
            message: format!("{x} is not in [0, 1]"),
        }),
    }
}

fn cpts(n: &Network) -> Result<(), ScspError> {
    let mut seen = HashSet::new();
    for (i, cpt) in n.cpts.iter().enumerate() {
        let place = || format!("cpts[{i}]");
        let y = cpt.variable;
        let probability = |message: String| ScspError::Probability {
            place: place(),
            message,
        };
        if y >= n.variables.len() || !n.variables[y].stochastic {
            return Err(probability(
                "a table for a variable that is not stochastic".into(),
            ));
        }
        if !seen.insert(y) {
            let name = &n.variables[y].name;
            return Err(probability(format!("a second table for `{name}`")));
        }
        scope(n, &cpt.scope, &place)?;
        if let Some(&late) = cpt.scope.iter().find(|&&v| v >= y) {
            let (late, y) = (&n.variables[late].name, &n.variables[y].name);
            return Err(probability(format!("`{late}` does not come before `{y}`")));
        }
        let mut tuples = HashSet::new();
        for (j, (t, dist)) in cpt.rows.iter().enumerate() {
            let place = || format!("cpts[{i}].rows[{j}]");
            tuple(n, &cpt.scope, t, &place)?;
            if !tuples.insert(t.clone()) {
                return Err(ScspError::Probability {
                    place: place(),
                    message: "a second row for this tuple".into(),
                });
            }
            distribution(n.variables[y].domain.len(), dist, &place)?;
        }
        let needed: f64 = cpt
            .scope
            .iter()
            .map(|&v| n.variables[v].domain.len() as f64)
            .product();
        if (tuples.len() as f64) < needed {
            return Err(probability(format!(
                "{} rows for the {needed} tuples of its scope: every tuple needs a distribution",
                tuples.len()
            )));
        }
    }
    Ok(())
}

fn distribution(size: usize, dist: &[f64], place: Place) -> Result<(), ScspError> {
    let error = |message: String| ScspError::Probability {
        place: place(),
        message,
    };
    if dist.len() != size {
        return Err(error(format!(
            "{} probabilities for {size} values",
            dist.len()
        )));
    }
    if let Some(p) = dist.iter().find(|p| !p.is_finite() || **p < 0.0) {
        return Err(error(format!("{p} is not a probability")));
    }
    let sum: f64 = dist.iter().sum();
    if (sum - 1.0).abs() > PROBABILITY_TOLERANCE {
        return Err(error(format!("the probabilities sum to {sum}, not 1")));
    }
    Ok(())
}

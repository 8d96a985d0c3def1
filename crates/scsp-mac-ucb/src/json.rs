//! The JSON form of a network, read by [`parse`] and [`read`]:
//!
//! ```json
//! {"players": 2,
//!  "variables": [{"name": "x1", "domain": [1, 2, 3]},
//!                {"name": "y", "domain": [0, 1, 2], "stochastic": true}],
//!  "constraints": [
//!    {"scope": ["x1", "y"], "allowed": [[1, 0], [1, 1], [2, 2]]},
//!    {"scope": ["x1", "y"], "utility": [[[1, 0], [1.0, 0.0]], [[2, 2], [0.5, 0.5]]]}],
//!  "cpts": [{"variable": "y", "scope": [], "rows": [[[], [0.25, 0.25, 0.5]]]}],
//!  "threshold": [0.0, 0.0]}
//! ```
//!
//! Variables are ordered as listed; `stochastic` defaults to false; a stochastic variable without
//! a table is uniform; a constraint has either `allowed` tuples (hard) or `utility` rows (soft, each
//! `[tuple, utilities]`, unlisted tuples worth 0 to everyone) and optionally a `name`; `cpts` and
//! `threshold` (default 0 for every player) may be left out. Values are written as themselves, not
//! as indices. Every error names its place: the line and column for malformed JSON, a path such as
//! `constraints[1].allowed[0][1]` otherwise.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::ScspError;
use crate::model::{Network, VarId};

/// The most players a file may declare (utilities and thresholds have one number per player).
pub const MAX_PLAYERS: usize = 1_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    players: usize,
    variables: Vec<FileVariable>,
    #[serde(default)]
    constraints: Vec<FileConstraint>,
    #[serde(default)]
    cpts: Vec<FileCpt>,
    threshold: Option<Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileVariable {
    name: String,
    domain: Vec<i64>,
    #[serde(default)]
    stochastic: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConstraint {
    name: Option<String>,
    scope: Vec<String>,
    allowed: Option<Vec<Vec<i64>>>,
    utility: Option<Vec<(Vec<i64>, Vec<f64>)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCpt {
    variable: String,
    #[serde(default)]
    scope: Vec<String>,
    rows: Vec<(Vec<i64>, Vec<f64>)>,
}

/// Reads the network in the file at `path`.
pub fn read(path: impl AsRef<Path>) -> Result<Network, ScspError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| ScspError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    parse(&text)
}

/// serde_json's `byte_column` of `line` as a 1-based column in characters, as editors count and
/// as every other reader of the workspace reports: the two differ after a non-ASCII character.
/// serde_json says 0 when the text ends early; the place is then the start of the last line.
fn char_column(text: &str, line: usize, byte_column: usize) -> usize {
    let line = text.split('\n').nth(line.saturating_sub(1)).unwrap_or("");
    let mut end = byte_column.min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].chars().count().max(1)
}

/// Parses a network from its JSON form (see the [module docs](self)) and validates it.
pub fn parse(text: &str) -> Result<Network, ScspError> {
    let file: File = serde_json::from_str(text).map_err(|e| {
        // serde_json ends its message with the place, which the error states on its own.
        let message = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        ScspError::Syntax {
            line: e.line(),
            column: char_column(text, e.line(), e.column()),
            message: message
                .strip_suffix(&suffix)
                .unwrap_or(&message)
                .to_string(),
        }
    })?;
    if file.players > MAX_PLAYERS {
        return Err(ScspError::Shape {
            place: "players".into(),
            message: format!("{} players; at most {MAX_PLAYERS}", file.players),
        });
    }
    let mut network = Network::new(file.players);
    for v in &file.variables {
        network.variable(&v.name, &v.domain, v.stochastic);
    }
    let mut names: HashMap<&str, VarId> = HashMap::new();
    for (i, v) in file.variables.iter().enumerate() {
        if names.insert(v.name.as_str(), i).is_some() {
            return Err(ScspError::DuplicateVariable {
                place: format!("variables[{i}]"),
                name: v.name.clone(),
            });
        }
    }
    let reader = Reader {
        network: &network,
        names: &names,
    };
    let mut constraints = Vec::new();
    for (i, c) in file.constraints.iter().enumerate() {
        constraints.push(reader.constraint(c, i)?);
    }
    let mut cpts = Vec::new();
    for (i, c) in file.cpts.iter().enumerate() {
        cpts.push(reader.cpt(c, i)?);
    }
    for (name, scope, relation) in constraints {
        match relation {
            Ok(tuples) => network.hard(&name, &scope, tuples),
            Err(rows) => network.soft(&name, &scope, rows),
        }
    }
    for (y, scope, rows) in cpts {
        network.cpt(y, &scope, rows);
    }
    if let Some(threshold) = file.threshold {
        network.threshold = threshold;
    }
    network.validate()?;
    Ok(network)
}

/// A constraint read: its name, scope, and allowed tuples (`Ok`) or utility rows (`Err`).
type ReadConstraint = (
    String,
    Vec<VarId>,
    Result<Vec<Vec<u32>>, Vec<(Vec<u32>, Vec<f64>)>>,
);

/// Resolves names and values against the variables.
struct Reader<'a> {
    network: &'a Network,
    names: &'a HashMap<&'a str, VarId>,
}

impl Reader<'_> {
    fn scope(&self, names: &[String], place: &str) -> Result<Vec<VarId>, ScspError> {
        names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                self.names
                    .get(name.as_str())
                    .copied()
                    .ok_or_else(|| ScspError::UnknownVariable {
                        place: format!("{place}.scope[{k}]"),
                        name: name.clone(),
                    })
            })
            .collect()
    }

    /// The value indices of `values` over `scope`.
    fn tuple(&self, scope: &[VarId], values: &[i64], place: &str) -> Result<Vec<u32>, ScspError> {
        if values.len() != scope.len() {
            return Err(ScspError::Arity {
                place: place.to_string(),
                expected: scope.len(),
                found: values.len(),
            });
        }
        scope
            .iter()
            .zip(values)
            .enumerate()
            .map(|(k, (&v, &value))| self.index(v, value, &format!("{place}[{k}]")))
            .collect()
    }

    fn index(&self, v: VarId, value: i64, place: &str) -> Result<u32, ScspError> {
        let var = &self.network.variables[v];
        var.domain
            .iter()
            .position(|&d| d == value)
            .map(|i| i as u32)
            .ok_or_else(|| ScspError::ValueOutOfDomain {
                place: place.to_string(),
                variable: var.name.clone(),
                value,
            })
    }

    fn constraint(&self, c: &FileConstraint, i: usize) -> Result<ReadConstraint, ScspError> {
        let place = format!("constraints[{i}]");
        let scope = self.scope(&c.scope, &place)?;
        let name = c.name.clone().unwrap_or_else(|| place.clone());
        let relation = match (&c.allowed, &c.utility) {
            (Some(allowed), None) => Ok(allowed
                .iter()
                .enumerate()
                .map(|(j, t)| self.tuple(&scope, t, &format!("{place}.allowed[{j}]")))
                .collect::<Result<_, _>>()?),
            (None, Some(rows)) => Err(rows
                .iter()
                .enumerate()
                .map(|(j, (t, u))| {
                    let place = format!("{place}.utility[{j}]");
                    Ok((self.tuple(&scope, t, &place)?, u.clone()))
                })
                .collect::<Result<_, ScspError>>()?),
            _ => {
                return Err(ScspError::Shape {
                    place,
                    message: "a constraint has either `allowed` or `utility`, not both or neither"
                        .into(),
                })
            }
        };
        Ok((name, scope, relation))
    }

    #[allow(clippy::type_complexity)]
    fn cpt(
        &self,
        c: &FileCpt,
        i: usize,
    ) -> Result<(VarId, Vec<VarId>, Vec<(Vec<u32>, Vec<f64>)>), ScspError> {
        let place = format!("cpts[{i}]");
        let y = *self
            .names
            .get(c.variable.as_str())
            .ok_or_else(|| ScspError::UnknownVariable {
                place: format!("{place}.variable"),
                name: c.variable.clone(),
            })?;
        let scope = self.scope(&c.scope, &place)?;
        let rows = c
            .rows
            .iter()
            .enumerate()
            .map(|(j, (t, dist))| {
                let place = format!("{place}.rows[{j}]");
                Ok((self.tuple(&scope, t, &place)?, dist.clone()))
            })
            .collect::<Result<_, ScspError>>()?;
        Ok((y, scope, rows))
    }
}

//! [`RoundEncoder`]: the networks of many states of one game, each a lookup per table.
//!
//! [`round_network`] on its own checks the round and scans every tuple of every table to keep
//! those that agree with the state: a few milliseconds on a dice game, where a random move costs
//! microseconds. A player instantiates a network at every state it extends its search to, so
//! the encoder does the state-independent work once: it checks the round, decides which
//! variables the networks keep, and indexes each table's tuples by the values of the state
//! variables in its scope. The network of a state then reads, per table, the tuples filed under
//! the state's values, in their original order: the same network [`round_network`] builds.

use std::collections::HashMap;

use game_trait::round::{Relation as TableRelation, Round, TableRole, VariableKind};
use game_trait::{mix64, RoundGame};

use super::kinds::{error, Kinds};
use super::RoundNetwork;
use crate::budget::Budget;
use crate::error::ScspError;
use crate::model::{Network, VarId};
use game_trait::hash::{BuildPrehashed, GOLDEN_GAMMA};

/// The one-stage network `μSCSP_t` of `state` (see the [module docs](crate::encoding)). An error names what
/// in the game's round is inconsistent. To build the networks of many states of one game, keep a
/// [`RoundEncoder`].
pub fn round_network<G: RoundGame>(game: &G, state: &G::State) -> Result<RoundNetwork, ScspError> {
    RoundEncoder::new(game)?.network(game, state)
}

/// A game's round, checked and indexed for building the network of any state.
///
/// [`round_network`] on its own checks the round and scans every tuple of every table to keep
/// those that agree with the state. The encoder does the state-independent work once: it checks
/// the round, decides which variables the networks keep, and files each table's tuples by the
/// values of the state variables in its scope. The network of a state then reads, per table, the
/// tuples filed under the state's values, in their original order: the same network
/// [`round_network`] builds, which [`check_round`](crate::check_round) confirms at every state
/// it visits.
#[derive(Clone, Debug)]
pub struct RoundEncoder {
    players: usize,
    kinds: Kinds,
    /// Each round variable's name, number of values and kind.
    variables: Vec<(String, usize, VariableKind)>,
    /// The round variables the networks keep, in the networks' order: decisions, then chance.
    order: Vec<usize>,
    /// Each kept round variable's place in the networks.
    id: Vec<Option<VarId>>,
    /// Every table but the next tables, which the networks leave out.
    tables: Vec<IndexedTable>,
    /// Hard next tables, indexed the same way: only to fix helper variables, as the round's
    /// checker does.
    next_tables: Vec<IndexedTable>,
    /// For each player, the place of its action variable among the networks' decisions.
    actions: Vec<usize>,
}

/// A table whose tuples are filed by the values they give the state variables of its scope.
#[derive(Clone, Debug)]
struct IndexedTable {
    name: String,
    scope: Vec<usize>,
    /// Positions in `scope` of the state variables.
    state_at: Vec<usize>,
    /// The tuples, in the round's order, one after the other (`scope.len()` values each).
    tuples: Vec<u32>,
    /// The utilities of a soft table, one vector per tuple.
    utilities: Option<Vec<Vec<f64>>>,
    /// The tuples' indices grouped by the hash of their state values, each group in order.
    order: Vec<u32>,
    /// Each hash's group in `order`: where it starts and how many tuples it holds. A hash may
    /// file tuples of several state values, which the lookup's filter tells apart.
    groups: HashMap<u64, (u32, u32), BuildPrehashed>,
}

/// How many tuples the encoder indexes between two looks at the budget.
const TUPLES_PER_POLL: usize = 1 << 14;

impl IndexedTable {
    /// The table indexed, or `None` if `budget` ran out first (it is polled every
    /// [`TUPLES_PER_POLL`] tuples: a table can hold hundreds of thousands).
    fn new(
        table: &game_trait::round::Table,
        round: &Round,
        budget: &mut Budget,
    ) -> Option<IndexedTable> {
        let state_at: Vec<usize> = (0..table.scope.len())
            .filter(|&i| round.variables[table.scope[i]].kind == VariableKind::State)
            .collect();
        let rows: Vec<&[u32]> = match &table.relation {
            TableRelation::Allowed(tuples) => tuples.iter().map(Vec::as_slice).collect(),
            TableRelation::Utility(rows) => rows.iter().map(|(t, _)| t.as_slice()).collect(),
        };
        let utilities = match &table.relation {
            TableRelation::Allowed(_) => None,
            TableRelation::Utility(rows) => Some(rows.iter().map(|(_, u)| u.clone()).collect()),
        };
        // A counting sort by hash: number the groups, count them, place each tuple after the
        // ones before it in its group.
        let mut groups: HashMap<u64, (u32, u32), BuildPrehashed> = HashMap::default();
        let mut group_of = Vec::with_capacity(rows.len());
        let mut sizes: Vec<u32> = Vec::new();
        for (i, tuple) in rows.iter().enumerate() {
            if i % TUPLES_PER_POLL == 0 && budget.spent_after(1) {
                return None;
            }
            let key = projection_key(state_at.iter().map(|&at| tuple[at]));
            let next = groups.len() as u32;
            let (group, _) = *groups.entry(key).or_insert((next, 0));
            if group == next {
                sizes.push(0);
            }
            sizes[group as usize] += 1;
            group_of.push(group);
        }
        let mut fill: Vec<u32> = sizes
            .iter()
            .scan(0, |start, &size| {
                *start += size;
                Some(*start - size)
            })
            .collect();
        for (first, count) in groups.values_mut() {
            let group = *first as usize;
            (*first, *count) = (fill[group], sizes[group]);
        }
        let mut order = vec![0; rows.len()];
        for (i, &group) in group_of.iter().enumerate() {
            order[fill[group as usize] as usize] = i as u32;
            fill[group as usize] += 1;
        }
        Some(IndexedTable {
            name: table.name.clone(),
            scope: table.scope.clone(),
            state_at,
            tuples: rows.concat(),
            utilities,
            order,
            groups,
        })
    }

    /// Tuple `i`.
    fn tuple(&self, i: usize) -> &[u32] {
        let arity = self.scope.len();
        &self.tuples[i * arity..(i + 1) * arity]
    }

    /// The indices of the tuples that agree with every known value, in order.
    fn agreeing<'a>(&'a self, known: &'a [Option<u32>]) -> impl Iterator<Item = usize> + 'a {
        let key = projection_key(
            self.state_at
                .iter()
                .map(|&at| known[self.scope[at]].unwrap_or(u32::MAX)),
        );
        let (first, count) = self.groups.get(&key).copied().unwrap_or_default();
        let filed = &self.order[first as usize..(first + count) as usize];
        filed.iter().map(|&i| i as usize).filter(move |&i| {
            self.scope
                .iter()
                .zip(self.tuple(i))
                .all(|(&v, &t)| known[v].map_or(true, |k| k == t))
        })
    }
}

/// The hash a tuple is filed under: its state values, mixed.
fn projection_key(values: impl Iterator<Item = u32>) -> u64 {
    values.fold(GOLDEN_GAMMA, |h, v| mix64(h ^ u64::from(v)))
}

impl RoundEncoder {
    /// Checks `game`'s round (one action variable per player, at most one chance variable, next
    /// variables in next tables only, tuples within the domains) and indexes its tables.
    pub fn new<G: RoundGame>(game: &G) -> Result<RoundEncoder, ScspError> {
        RoundEncoder::within(game, &mut Budget::default())
    }

    /// [`RoundEncoder::new`] within `budget`: [`ScspError::Stopped`] if it runs out first.
    pub(crate) fn within<G: RoundGame>(
        game: &G,
        budget: &mut Budget,
    ) -> Result<RoundEncoder, ScspError> {
        let round = game.round();
        let kinds = Kinds::of(round, game.players())?;
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
        let order: Vec<usize> = decisions.chain(kinds.chance).collect();
        let mut id = vec![None; round.variables.len()];
        for (place, &v) in order.iter().enumerate() {
            id[v] = Some(place);
        }
        // The chance variable comes last, so a decision's place is its place in `order`.
        let actions = kinds
            .actions
            .iter()
            .map(|&a| id[a].expect("an action variable is kept"))
            .collect();
        let (next, other): (Vec<_>, Vec<_>) =
            round.tables.iter().partition(|t| t.role == TableRole::Next);
        let hard = |t: &&game_trait::round::Table| matches!(t.relation, TableRelation::Allowed(_));
        let mut index = |tables: Vec<&game_trait::round::Table>| {
            let mut indexed = Vec::with_capacity(tables.len());
            for table in tables {
                let stopped = ScspError::Stopped {
                    what: "indexing the round's tables",
                };
                indexed.push(IndexedTable::new(table, round, budget).ok_or(stopped)?);
            }
            Ok(indexed)
        };
        let tables = index(other)?;
        let next_tables = index(next.into_iter().filter(hard).collect())?;
        Ok(RoundEncoder {
            players: round.players,
            variables: round
                .variables
                .iter()
                .map(|v| (v.name.clone(), v.values.len(), v.kind))
                .collect(),
            order,
            id,
            tables,
            next_tables,
            actions,
            kinds,
        })
    }

    /// The one-stage network of `state` (see the [module docs](crate::encoding)), the same as
    /// [`round_network`]'s.
    pub fn network<G: RoundGame>(
        &self,
        game: &G,
        state: &G::State,
    ) -> Result<RoundNetwork, ScspError> {
        let mut values = Vec::new();
        game.state_values(state, &mut values);
        let fixed = self.fixed(&values)?;
        let mut network = Network::new(self.players);
        for &v in &self.order {
            let (name, size, kind) = &self.variables[v];
            let domain: Vec<i64> = match fixed[v] {
                Some(value) => vec![i64::from(value)],
                None => (0..*size as i64).collect(),
            };
            network.variable(name, &domain, *kind == VariableKind::Chance);
        }
        for table in &self.tables {
            self.add_table(&mut network, table, &fixed);
        }
        if let Some(y) = self.kinds.chance {
            let legal = self.legal_values(y, &fixed);
            if legal.is_empty() {
                return Err(error(format!(
                    "no value of the chance variable is legal in {state:?}"
                )));
            }
            let p = 1.0 / legal.len() as f64;
            let mut distribution = vec![0.0; self.variables[y].1];
            legal.iter().for_each(|&v| distribution[v as usize] = p);
            let y = self.id[y].expect("the chance variable is kept");
            network.cpt(y, &[], vec![(Vec::new(), distribution)]);
        }
        // Built from a round checked once: [`solve`](crate::solve()) validates what it solves.
        Ok(RoundNetwork {
            network,
            actions: self.actions.clone(),
            chance: self.kinds.chance.and_then(|y| self.id[y]),
        })
    }

    /// The state variables' values, checked, and the helper variables they determine.
    fn fixed(&self, values: &[u32]) -> Result<Vec<Option<u32>>, ScspError> {
        if values.len() != self.kinds.state.len() {
            return Err(error(format!(
                "{} state values for {} state variables",
                values.len(),
                self.kinds.state.len()
            )));
        }
        let mut fixed = vec![None; self.variables.len()];
        for (&v, &value) in self.kinds.state.iter().zip(values) {
            let (name, size, _) = &self.variables[v];
            if value as usize >= *size {
                return Err(error(format!(
                    "value {value} of `{name}` is out of its domain"
                )));
            }
            fixed[v] = Some(value);
        }
        self.determine(&mut fixed);
        Ok(fixed)
    }

    /// Fixes the helper variables that the hard tables determine from the `known` values, as
    /// the round's checker does (a table known but for one helper, whose agreeing tuples give it
    /// one value), until nothing changes.
    fn determine(&self, known: &mut [Option<u32>]) {
        let hard = |t: &&IndexedTable| t.utilities.is_none();
        loop {
            let mut changed = false;
            for table in self.tables.iter().chain(&self.next_tables).filter(hard) {
                let mut unknown =
                    (table.scope.iter().enumerate()).filter(|(_, &v)| known[v].is_none());
                let (Some((at, &x)), None) = (unknown.next(), unknown.next()) else {
                    continue;
                };
                if self.variables[x].2 != VariableKind::Auxiliary {
                    continue;
                }
                let single = {
                    let mut values = table.agreeing(known).map(|i| table.tuple(i)[at]);
                    let first = values.next();
                    first.filter(|&first| values.all(|v| v == first))
                };
                if single.is_some() {
                    known[x] = single;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// The values of round variable `x` that every hard table over `x` and fixed variables allows.
    fn legal_values(&self, x: usize, fixed: &[Option<u32>]) -> Vec<u32> {
        let mut legal = vec![true; self.variables[x].1];
        for table in self.tables.iter().filter(|t| t.utilities.is_none()) {
            let Some(at) = table.scope.iter().position(|&v| v == x) else {
                continue;
            };
            if !table.scope.iter().all(|&v| v == x || fixed[v].is_some()) {
                continue;
            }
            let mut allowed = vec![false; legal.len()];
            for i in table.agreeing(fixed) {
                allowed[table.tuple(i)[at] as usize] = true;
            }
            legal.iter_mut().zip(allowed).for_each(|(l, a)| *l &= a);
        }
        (0..legal.len() as u32)
            .filter(|&v| legal[v as usize])
            .collect()
    }

    /// Adds `table` restricted to the tuples that agree with `fixed`, the fixed variables'
    /// values re-indexed into their one-value domains.
    fn add_table(&self, network: &mut Network, table: &IndexedTable, fixed: &[Option<u32>]) {
        let scope: Vec<VarId> = table
            .scope
            .iter()
            .map(|&v| self.id[v].expect("kept"))
            .collect();
        let restrict = |i: usize| -> Vec<u32> {
            let tuple = table.tuple(i);
            table
                .scope
                .iter()
                .zip(tuple)
                .map(|(&v, &t)| if fixed[v].is_some() { 0 } else { t })
                .collect()
        };
        let rows = table.agreeing(fixed);
        match &table.utilities {
            None => network.hard(&table.name, &scope, rows.map(restrict).collect()),
            Some(utilities) => network.soft(
                &table.name,
                &scope,
                rows.map(|i| (restrict(i), utilities[i].clone())).collect(),
            ),
        }
    }
}

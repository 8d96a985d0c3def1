//! Seeded random networks, for the tests and the benches: the same seed gives the same network on
//! every machine.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::gac::TableConstraint;
use crate::model::{Network, VarId};

/// The shape of [`one_stage`] networks.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Decision variables, placed first.
    pub decisions: usize,
    /// Stochastic variables, after them.
    pub stochastic: usize,
    /// Largest domain size (each variable draws its own from `1..=max_domain`).
    pub max_domain: usize,
    /// Hard constraints.
    pub hard: usize,
    /// Soft constraints.
    pub soft: usize,
    /// Largest scope of a constraint.
    pub max_arity: usize,
    /// Share of a hard constraint's tuples it allows, in percent.
    pub tightness_percent: u32,
    /// Number of players.
    pub players: usize,
}

impl Shape {
    /// At most 6 variables with domains of at most 4 values, as the solvers' cross-checks use.
    pub fn small(seed: u64) -> Shape {
        let mut rng = Pcg64::seed_from_u64(seed ^ 0x5eed);
        let decisions = rng.gen_range(1..=4);
        Shape {
            decisions,
            stochastic: rng.gen_range(0..=(6 - decisions).min(2)),
            max_domain: 4,
            hard: rng.gen_range(0..=4),
            soft: rng.gen_range(0..=2),
            max_arity: 3,
            tightness_percent: rng.gen_range(40..=90),
            players: rng.gen_range(1..=2),
        }
    }
}

/// A random one-stage network of the given shape: random tables over random scopes, random
/// conditional probability tables (some probabilities 0) over random decision variables, and a
/// random threshold.
pub fn one_stage(shape: &Shape, seed: u64) -> Network {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut n = Network::new(shape.players);
    let count = shape.decisions + shape.stochastic;
    for v in 0..count {
        let size = rng.gen_range(1..=shape.max_domain) as i64;
        let domain: Vec<i64> = (0..size).map(|i| 10 * v as i64 + i).collect();
        let stochastic = v >= shape.decisions;
        n.variable(
            &format!("{}{v}", if stochastic { "y" } else { "x" }),
            &domain,
            stochastic,
        );
    }
    for c in 0..shape.hard + shape.soft {
        let scope = random_scope(&mut rng, count, shape.max_arity);
        let tuples = all_tuples(&n, &scope);
        if c < shape.hard {
            let kept = tuples
                .into_iter()
                .filter(|_| rng.gen_range(0..100) < shape.tightness_percent)
                .collect();
            n.hard(&format!("h{c}"), &scope, kept);
        } else {
            let mut rows = Vec::new();
            for t in tuples {
                if rng.gen_bool(0.5) {
                    let u = (0..shape.players).map(|_| rng.gen_range(0..=4) as f64 / 4.0);
                    rows.push((t, u.collect()));
                }
            }
            n.soft(&format!("s{c}"), &scope, rows);
        }
    }
    for y in shape.decisions..count {
        if rng.gen_bool(0.3) {
            continue; // uniform
        }
        let scope = random_scope(&mut rng, shape.decisions, 2);
        let size = n.variables[y].domain.len();
        let rows = all_tuples(&n, &scope)
            .into_iter()
            .map(|t| (t, random_distribution(&mut rng, size)))
            .collect();
        n.cpt(y, &scope, rows);
    }
    n.threshold = (0..shape.players)
        .map(|_| rng.gen_range(0..=2) as f64 / 4.0)
        .collect();
    n
}

/// A random one-stage network shaped like a game round, for the benches: `decisions` decision
/// variables of 4 values in a chain of binary hard constraints (each allowing a random 55 % of the
/// pairs) plus one random ternary hard constraint per four variables, as the rules relate actions
/// and helper variables; then one uniform stochastic variable of 4 values, bound by a hard
/// constraint to each of three decision variables that forbids it one outcome for a random
/// quarter of their values (as legal and next tables bind chance to the actions); and a soft
/// constraint over the last decision variable and the stochastic one. The number of feasible
/// policies grows about as `1.6^decisions`.
pub fn round_like(decisions: usize, seed: u64) -> Network {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut n = Network::new(1);
    for v in 0..decisions {
        n.variable(&format!("x{v}"), &[0, 1, 2, 3], false);
    }
    let y = n.variable("y", &[0, 1, 2, 3], true);
    for v in 1..decisions {
        let scope = [v - 1, v];
        let kept = all_tuples(&n, &scope)
            .into_iter()
            .filter(|_| rng.gen_bool(0.55))
            .collect();
        n.hard(&format!("chain{v}"), &scope, kept);
    }
    for c in 0..decisions / 4 {
        let scope = random_scope_of_arity(&mut rng, decisions, 3);
        let kept = all_tuples(&n, &scope)
            .into_iter()
            .filter(|_| rng.gen_bool(0.8))
            .collect();
        n.hard(&format!("rule{c}"), &scope, kept);
    }
    for c in 0..3.min(decisions) {
        let x = rng.gen_range(0..decisions);
        let forbidden: Vec<Option<u32>> = (0..4)
            .map(|_| rng.gen_bool(0.25).then(|| rng.gen_range(0..4)))
            .collect();
        let kept = all_tuples(&n, &[x, y])
            .into_iter()
            .filter(|t| forbidden[t[0] as usize] != Some(t[1]))
            .collect();
        n.hard(&format!("chance{c}"), &[x, y], kept);
    }
    let last = decisions.saturating_sub(1);
    let rows = all_tuples(&n, &[last, y])
        .into_iter()
        .map(|t| (t, vec![rng.gen_range(0..=4) as f64 / 4.0]))
        .collect();
    n.soft("reward", &[last, y], rows);
    n
}

fn random_scope_of_arity(rng: &mut Pcg64, count: usize, arity: usize) -> Vec<VarId> {
    let mut scope: Vec<VarId> = (0..count).collect();
    for i in 0..arity.min(count) {
        let j = rng.gen_range(i..count);
        scope.swap(i, j);
    }
    scope.truncate(arity.min(count));
    scope
}

/// A random CSP of table constraints, for the propagators' benches: `variables` variables of
/// `domain` values, `constraints` tables over random scopes of `arity` distinct variables, each
/// allowing every tuple with probability `density`. Returns the tables and the domain sizes.
pub fn table_csp(
    variables: usize,
    domain: usize,
    constraints: usize,
    arity: usize,
    density: f64,
    seed: u64,
) -> (Vec<TableConstraint>, Vec<usize>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let tables = (0..constraints)
        .map(|_| {
            let scope = random_scope_of_arity(&mut rng, variables, arity);
            let mut tuples = vec![Vec::new()];
            for _ in &scope {
                tuples = tuples
                    .into_iter()
                    .flat_map(|t: Vec<u32>| {
                        (0..domain as u32).map(move |a| [&t[..], &[a]].concat())
                    })
                    .collect();
            }
            tuples.retain(|_| rng.gen_bool(density));
            TableConstraint { scope, tuples }
        })
        .collect();
    (tables, vec![domain; variables])
}

fn random_scope(rng: &mut Pcg64, count: usize, max_arity: usize) -> Vec<VarId> {
    if count == 0 {
        return Vec::new();
    }
    let arity = rng.gen_range(1..=max_arity.min(count));
    let mut scope: Vec<VarId> = (0..count).collect();
    for i in 0..arity {
        let j = rng.gen_range(i..count);
        scope.swap(i, j);
    }
    scope.truncate(arity);
    scope
}

/// Every tuple of value indices of `scope`'s domains, in lexicographic order.
pub fn all_tuples(n: &Network, scope: &[VarId]) -> Vec<Vec<u32>> {
    let mut tuples = vec![Vec::new()];
    for &v in scope {
        let size = n.variables[v].domain.len() as u32;
        tuples = tuples
            .into_iter()
            .flat_map(|t| {
                (0..size).map(move |a| {
                    let mut t = t.clone();
                    t.push(a);
                    t
                })
            })
            .collect();
    }
    tuples
}

/// A distribution over `size` values in quarters, some of them 0.
fn random_distribution(rng: &mut Pcg64, size: usize) -> Vec<f64> {
    let mut quarters = vec![0u32; size];
    for _ in 0..4 {
        quarters[rng.gen_range(0..size)] += 1;
    }
    quarters.iter().map(|&q| q as f64 / 4.0).collect()
}

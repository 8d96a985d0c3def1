//! Seeded random networks, for the tests and the benches: the same seed gives the same network on
//! every machine.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

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

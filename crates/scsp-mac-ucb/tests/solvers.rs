//! The solvers against each other and against the paper's examples: MAC + FC, FC and brute force
//! find the same feasible policies with the same values on random networks; each preprocessing
//! step keeps them; Compact-Table leaves exactly the values the simple propagator leaves; the
//! paper's Example 2, whole and decomposed.

use quickcheck::{QuickCheck, TestResult};
use scsp_mac_ucb::gac::{arc_consistent, count_solutions, Engine, TableConstraint};
use scsp_mac_ucb::preprocess::{
    merge_same_scope, preprocess, project_unary, remove_universal, singleton_arc_consistency,
};
use scsp_mac_ucb::random::{one_stage, Shape};
use scsp_mac_ucb::{
    json, policies, solve, Algorithm, Feasibility, Network, Policy, Solution, SolveOptions,
};

fn testdata(name: &str) -> String {
    format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(network: &Network, algorithm: Algorithm, feasibility: Feasibility) -> Vec<Solution> {
    let options = SolveOptions {
        algorithm,
        feasibility,
        ..SolveOptions::default()
    };
    solve(network, &options)
        .expect("a valid one-stage network")
        .feasible
}

/// Same assignments in the same order, values equal up to rounding.
fn same(a: &[Solution], b: &[Solution]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.assignment == y.assignment
                && x.value
                    .iter()
                    .zip(&y.value)
                    .all(|(u, v)| (u - v).abs() < 1e-9)
        })
}

#[test]
fn mac_fc_fc_and_brute_force_find_the_same_feasible_policies() {
    fn prop(seed: u64) -> TestResult {
        let network = one_stage(&Shape::small(seed), seed);
        for feasibility in [Feasibility::Probable, Feasibility::EveryPath] {
            let brute = run(&network, Algorithm::Brute, feasibility);
            let fc = run(&network, Algorithm::Fc, feasibility);
            let mac = run(&network, Algorithm::MacFc, feasibility);
            if !same(&brute, &fc) || !same(&brute, &mac) {
                return TestResult::error(format!(
                    "seed {seed}, {feasibility:?}:\nbrute {brute:?}\nfc {fc:?}\nmac {mac:?}"
                ));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(400)
        .quickcheck(prop as fn(u64) -> TestResult);
}

#[test]
fn the_cross_check_meets_feasible_and_infeasible_networks() {
    // The property above must not pass vacuously: across its seeds, some networks have feasible
    // policies, some have none, and the two readings of feasibility sometimes differ.
    let (mut some, mut none, mut differ) = (0, 0, 0);
    for seed in 0..200 {
        let network = one_stage(&Shape::small(seed), seed);
        let probable = run(&network, Algorithm::Brute, Feasibility::Probable);
        let every = run(&network, Algorithm::Brute, Feasibility::EveryPath);
        if probable.is_empty() {
            none += 1;
        } else {
            some += 1;
        }
        differ += usize::from(probable.len() != every.len());
    }
    assert!(
        some > 40 && none > 10 && differ > 5,
        "{some} {none} {differ}"
    );
}

#[test]
fn every_preprocessing_step_keeps_the_feasible_policies() {
    type Step = fn(&Network) -> Network;
    let steps: [(&str, Step); 5] = [
        ("merge", merge_same_scope),
        ("unary", project_unary),
        ("universal", remove_universal),
        ("sac", singleton_arc_consistency),
        ("all", preprocess),
    ];
    for seed in 0..300 {
        let network = one_stage(&Shape::small(seed), seed);
        let before = run(&network, Algorithm::Brute, Feasibility::Probable);
        for (name, step) in steps {
            let after = run(&step(&network), Algorithm::Brute, Feasibility::Probable);
            assert!(same(&before, &after), "{name}, seed {seed}");
        }
    }
}

#[test]
fn preprocessing_does_something() {
    // Merging, unary projection and universal variables on a network built to have them.
    let mut n = Network::new(1);
    let x = n.variable("x", &[0, 1, 2], false);
    let y = n.variable("y", &[0, 1], false);
    n.hard(
        "a",
        &[x, y],
        vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]],
    );
    n.hard("b", &[y, x], vec![vec![0, 0], vec![1, 0], vec![1, 1]]);
    n.hard("unary", &[x], vec![vec![0], vec![1]]);
    let merged = merge_same_scope(&n);
    assert_eq!(merged.constraints.len(), 2);
    let projected = project_unary(&merged);
    assert_eq!(projected.variables[x].domain, vec![0, 1]);
    assert_eq!(projected.constraints.len(), 1);
    // "a ∩ b" allows (0,0), (0,1), (1,1) over (x, y): no variable is universal.
    assert_eq!(remove_universal(&projected).constraints[0].scope.len(), 2);
    // A constraint that allows everything loses both variables and disappears.
    let mut free = Network::new(1);
    let a = free.variable("a", &[0, 1], false);
    let b = free.variable("b", &[0, 1], false);
    free.hard(
        "all",
        &[a, b],
        scsp_mac_ucb::random::all_tuples(&free, &[a, b]),
    );
    assert!(remove_universal(&free).constraints.is_empty());
    // SAC removes values arc consistency alone keeps: v1, v2 ∈ {1, 2} and v0 ∈ {0, 1, 2} pairwise
    // different. Every value has a support in every constraint, but v0 = 1 or 2 leaves v1 and v2
    // one value for two.
    let mut sac = Network::new(1);
    let v0 = sac.variable("v0", &[0, 1, 2], false);
    let v1 = sac.variable("v1", &[1, 2], false);
    let v2 = sac.variable("v2", &[1, 2], false);
    let different = |n: &Network, a: usize, b: usize| -> Vec<Vec<u32>> {
        scsp_mac_ucb::random::all_tuples(n, &[a, b])
            .into_iter()
            .filter(|t| {
                n.variables[a].domain[t[0] as usize] != n.variables[b].domain[t[1] as usize]
            })
            .collect()
    };
    for (a, b) in [(v0, v1), (v0, v2), (v1, v2)] {
        let tuples = different(&sac, a, b);
        sac.hard("different", &[a, b], tuples);
    }
    let after = singleton_arc_consistency(&sac);
    assert_eq!(after.variables[v0].domain, vec![0]);
    assert_eq!(after.variables[v1].domain, vec![1, 2]);
}

#[test]
fn compact_table_leaves_exactly_what_the_simple_propagator_leaves() {
    fn prop(seed: u64) -> TestResult {
        let network = one_stage(
            &Shape {
                decisions: 5,
                stochastic: 0,
                hard: 5,
                tightness_percent: 60,
                ..Shape::small(seed)
            },
            seed,
        );
        let tables = TableConstraint::of(&network);
        let sizes: Vec<usize> = network.variables.iter().map(|v| v.domain.len()).collect();
        // A few assignments in a seeded order, each followed by propagation.
        let assignments: Vec<(usize, u32)> = (0..3)
            .map(|k| {
                let x = (seed as usize).wrapping_add(k * 7) % sizes.len();
                (x, ((seed >> (8 * k)) % sizes[x] as u64) as u32)
            })
            .collect();
        for prefix in 0..=assignments.len() {
            let ct = arc_consistent(
                &tables,
                &sizes,
                &assignments[..prefix],
                Engine::CompactTable,
            );
            let str = arc_consistent(&tables, &sizes, &assignments[..prefix], Engine::Str);
            if ct != str {
                return TestResult::error(format!(
                    "seed {seed}, prefix {prefix}: {ct:?} vs {str:?}"
                ));
            }
            if let Some(domains) = &ct {
                // Every remaining value has a support in every table (checked by brute force).
                for t in &tables {
                    for (i, &x) in t.scope.iter().enumerate() {
                        for &a in &domains[x] {
                            let supported = t.tuples.iter().any(|tuple| {
                                tuple[i] == a
                                    && t.scope
                                        .iter()
                                        .zip(tuple)
                                        .all(|(&y, b)| domains[y].contains(b))
                            });
                            if !supported {
                                return TestResult::error(format!("seed {seed}: {x}={a}"));
                            }
                        }
                    }
                }
            }
        }
        let ct = count_solutions(&tables, &sizes, Engine::CompactTable);
        let str = count_solutions(&tables, &sizes, Engine::Str);
        if ct != str {
            return TestResult::error(format!("seed {seed}: {ct} vs {str} solutions"));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u64) -> TestResult);
}

/// Example 2: the policy of Figure 2(b) (both players choose heads twice).
fn figure_2b() -> Policy {
    use Policy::{Chance, Decide, Leaf};
    let heads = 0; // index of H (value 1) in every domain of the example
    let decide = |v, next| Decide(v, Box::new(next));
    decide(
        heads,
        decide(
            heads,
            Chance(vec![decide(heads, decide(heads, Chance(vec![Leaf, Leaf])))]),
        ),
    )
}

#[test]
fn example_2_the_policy_of_figure_2b_is_a_solution_of_value_one_half() {
    let network = json::read(testdata("example2.json")).expect("the example parses");
    let policy = figure_2b();
    assert_eq!(
        policy.value(&network, Feasibility::Probable),
        vec![0.5, 0.5]
    );
    assert!(policy.is_feasible(&network, Feasibility::Probable));
    assert!(policy.is_solution(&network, Feasibility::Probable));
    // Changing alice's coin between the rounds breaks c_a: infeasible, worth −∞.
    use Policy::{Chance, Decide, Leaf};
    let decide = |v, next| Decide(v, Box::new(next));
    let changed = decide(
        0,
        decide(
            0,
            Chance(vec![decide(1, decide(0, Chance(vec![Leaf, Leaf])))]),
        ),
    );
    assert!(!changed.is_feasible(&network, Feasibility::Probable));
    assert!(changed.value(&network, Feasibility::Probable)[0].is_infinite());
    let all = policies(&network, Feasibility::Probable);
    // Feasible policies keep each player's coin: 4 choices, each worth ½ if both match, else 0.
    assert_eq!(all.len(), 4);
    let solutions: Vec<_> = all.iter().filter(|(_, v)| v == &vec![0.5, 0.5]).collect();
    assert_eq!(solutions.len(), 2);
    assert!(all.iter().any(|(p, _)| *p == figure_2b()));
}

#[test]
fn example_2_decomposes_into_two_stages_whose_sequence_gives_the_same_policy_value() {
    let network = json::read(testdata("example2.json")).expect("the example parses");
    assert_eq!(network.stages().len(), 2);
    assert!(
        solve(&network, &SolveOptions::default()).is_err(),
        "two stages"
    );
    let stages = network.decompose();
    assert_eq!(stages.len(), 2);
    // Stage 1 has no constraint: every choice is feasible, worth 0.
    let first = solve(&stages[0], &SolveOptions::default()).unwrap();
    assert_eq!(first.feasible.len(), 4);
    // Stage 2 reads round 1's coins; instantiated with heads for both, its solutions are the
    // coins kept, worth ½.
    let second = &stages[1];
    let heads = |n: &Network, name: &str| n.find(name).unwrap();
    let fixed = second
        .instantiate(heads(second, "x1a"), 0)
        .instantiate(heads(second, "x1b"), 0);
    let solved = solve(&fixed, &SolveOptions::default()).unwrap();
    assert_eq!(solved.feasible.len(), 1);
    assert_eq!(solved.feasible[0].value, vec![0.5, 0.5]);
    assert_eq!(solved.solutions().count(), 1);
}

#[test]
fn the_one_stage_example_has_three_feasible_policies_and_two_solutions() {
    let network = json::read(testdata("one-stage.json")).expect("parses");
    for algorithm in [Algorithm::Brute, Algorithm::Fc, Algorithm::MacFc] {
        let solved = solve(
            &network,
            &SolveOptions {
                algorithm,
                ..SolveOptions::default()
            },
        )
        .unwrap();
        let values: Vec<(i64, Vec<f64>)> = solved
            .feasible
            .iter()
            .map(|s| (s.assignment[0], s.value.clone()))
            .collect();
        assert_eq!(
            values,
            vec![
                (1, vec![0.5, 0.0]),
                (2, vec![0.5, 0.5]),
                (3, vec![0.0, 0.5])
            ]
        );
        assert_eq!(solved.solutions().count(), 2);
        // Read literally, every path must be consistent: x1 = 1 and 2 have impossible branches
        // the hard constraint forbids.
        let every = run(&network, algorithm, Feasibility::EveryPath);
        assert_eq!(every.len(), 1);
        assert_eq!(every[0].assignment, vec![3]);
    }
}

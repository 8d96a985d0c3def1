//! The solvers against each other and against the paper's examples: MAC + FC, FC and brute force
//! find the same feasible policies with the same values on random networks; each preprocessing
//! step keeps them; Compact-Table leaves exactly the values the simple propagator leaves; the
//! paper's Example 2, whole and decomposed.

use quickcheck::{QuickCheck, TestResult};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use scsp_mac_ucb::gac::{arc_consistent, count_solutions, Engine, TableConstraint};
use scsp_mac_ucb::preprocess::{
    merge_same_scope, preprocess, project_unary, remove_universal, singleton_arc_consistency,
};
use scsp_mac_ucb::random::{all_tuples, one_stage, table_csp, Shape};
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
        for feasibility in [Feasibility::Probable, Feasibility::EveryPath] {
            let before = run(&network, Algorithm::Brute, feasibility);
            for (name, step) in steps {
                let after = step(&network);
                assert!(
                    same(&before, &run(&after, Algorithm::Brute, feasibility)),
                    "{name}, seed {seed}, {feasibility:?}"
                );
                // A stochastic variable keeps every value: a removed one of positive
                // probability would hide an inconsistent branch.
                for (v, w) in network.variables.iter().zip(&after.variables) {
                    assert!(!v.stochastic || v.domain == w.domain, "{name}, seed {seed}");
                }
            }
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

/// Compact-Table's and STR's domains after `assigned`: Compact-Table's when the two agree (`None`
/// on a wipeout), both otherwise.
fn propagate_both(
    tables: &[TableConstraint],
    sizes: &[usize],
    assigned: &[(usize, u32)],
) -> Result<Option<Vec<Vec<u32>>>, String> {
    let ct = arc_consistent(tables, sizes, assigned, Engine::CompactTable);
    let str = arc_consistent(tables, sizes, assigned, Engine::Str);
    if ct == str {
        Ok(ct)
    } else {
        Err(format!("{ct:?} vs {str:?}"))
    }
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
            let ct = match propagate_both(&tables, &sizes, &assignments[..prefix]) {
                Ok(ct) => ct,
                Err(e) => return TestResult::error(format!("seed {seed}, prefix {prefix}: {e}")),
            };
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

/// Networks the shapes above do not make: stochastic variables whose tables read earlier
/// stochastic variables, up to three of them, constraints over no variable, one or two players.
fn wider(seed: u64) -> Network {
    let mut rng = Pcg64::seed_from_u64(seed);
    let players = rng.gen_range(1..=2);
    let (decisions, stochastic) = (rng.gen_range(1..=3), rng.gen_range(0..=3));
    let count = decisions + stochastic;
    let mut n = Network::new(players);
    for v in 0..count {
        let domain: Vec<i64> = (0..rng.gen_range(1..=4))
            .map(|i| 100 * v as i64 + i)
            .collect();
        n.variable(&format!("v{v}"), &domain, v >= decisions);
    }
    for c in 0..rng.gen_range(0..=5) {
        let arity = rng.gen_range(0..=3.min(count));
        let mut scope: Vec<usize> = (0..count).collect();
        for i in 0..arity {
            scope.swap(i, rng.gen_range(i..count));
        }
        scope.truncate(arity);
        let tuples = all_tuples(&n, &scope);
        if rng.gen_bool(0.6) {
            let kept = tuples.into_iter().filter(|_| rng.gen_bool(0.75)).collect();
            n.hard(&format!("h{c}"), &scope, kept);
        } else {
            let mut rows = Vec::new();
            for t in tuples {
                if !rng.gen_bool(0.6) {
                    continue;
                }
                let utility = (0..players).map(|_| rng.gen_range(0..=4) as f64 / 4.0);
                rows.push((t, utility.collect()));
            }
            n.soft(&format!("s{c}"), &scope, rows);
        }
    }
    for y in decisions..count {
        if rng.gen_bool(0.3) {
            continue; // uniform
        }
        let scope: Vec<usize> = (0..y).filter(|_| rng.gen_bool(0.4)).take(2).collect();
        let size = n.variables[y].domain.len();
        let rows = all_tuples(&n, &scope)
            .into_iter()
            .map(|t| {
                let mut quarters = vec![0u32; size];
                for _ in 0..4 {
                    quarters[rng.gen_range(0..size)] += 1;
                }
                (t, quarters.iter().map(|&q| f64::from(q) / 4.0).collect())
            })
            .collect();
        n.cpt(y, &scope, rows);
    }
    n
}

/// On the wider networks, every method, with and without preprocessing, under both readings of
/// feasibility, finds the policies Definition 2 enumerates (`policies`), with their values.
#[test]
fn on_wider_networks_every_method_agrees_with_definition_2() {
    fn prop(seed: u64) -> TestResult {
        let network = wider(seed);
        if network.validate().is_err() {
            return TestResult::discard();
        }
        for feasibility in [Feasibility::Probable, Feasibility::EveryPath] {
            let definition: Vec<Vec<f64>> = policies(&network, feasibility)
                .into_iter()
                .map(|(_, value)| value)
                .collect();
            let brute = run(&network, Algorithm::Brute, feasibility);
            let values_agree = definition.len() == brute.len()
                && definition
                    .iter()
                    .zip(&brute)
                    .all(|(d, b)| d.iter().zip(&b.value).all(|(x, y)| (x - y).abs() < 1e-9));
            if !values_agree {
                return TestResult::error(format!(
                    "seed {seed}, {feasibility:?}: {definition:?} vs {brute:?}"
                ));
            }
            for algorithm in [Algorithm::Fc, Algorithm::MacFc] {
                for preprocess in [false, true] {
                    let options = SolveOptions {
                        algorithm,
                        feasibility,
                        preprocess,
                        ..SolveOptions::default()
                    };
                    let found = solve(&network, &options).expect("valid").feasible;
                    if !same(&brute, &found) {
                        return TestResult::error(format!(
                            "seed {seed}, {feasibility:?}, {algorithm:?}, preprocess {preprocess}"
                        ));
                    }
                }
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(prop as fn(u64) -> TestResult);
}

/// Compact-Table's bit-sets span several 64-bit words once a table has more than 64 tuples: the
/// sparse list of non-zero words and its restoration are exercised here, against STR.
#[test]
fn compact_table_agrees_with_str_on_tables_of_many_words() {
    fn prop(seed: u64) -> TestResult {
        let mut rng = Pcg64::seed_from_u64(seed);
        let variables = rng.gen_range(3..=7);
        let domain = rng.gen_range(5..=7);
        let arity = rng.gen_range(2..=3);
        let (tables, sizes) = table_csp(variables, domain, rng.gen_range(1..=6), arity, 0.6, seed);
        if tables.iter().all(|t| t.tuples.len() <= 64) {
            return TestResult::discard();
        }
        let assignments: Vec<(usize, u32)> = (0..4)
            .map(|_| (rng.gen_range(0..variables), rng.gen_range(0..domain as u32)))
            .collect();
        for prefix in 0..=assignments.len() {
            if let Err(e) = propagate_both(&tables, &sizes, &assignments[..prefix]) {
                return TestResult::error(format!("seed {seed}, prefix {prefix}: {e}"));
            }
        }
        // Whole searches (every backtrack restoring the words), where they stay small.
        if variables <= 5 {
            let counts = (
                count_solutions(&tables, &sizes, Engine::CompactTable),
                count_solutions(&tables, &sizes, Engine::Str),
            );
            if counts.0 != counts.1 {
                return TestResult::error(format!("seed {seed}: {counts:?}"));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u64) -> TestResult);
}

#[test]
fn a_constraint_over_no_variable_stays_in_the_decomposition() {
    let mut n = Network::new(1);
    let x = n.variable("x", &[0, 1], false);
    let y = n.variable("y", &[0, 1], true);
    n.variable("z", &[0, 1], false);
    n.hard("impossible", &[], vec![]);
    n.hard("xy", &[x, y], all_tuples(&n, &[x, y]));
    assert!(policies(&n, Feasibility::Probable).is_empty());
    let stages = n.decompose();
    let constraints: usize = stages.iter().map(|s| s.constraints.len()).sum();
    assert_eq!(constraints, 2);
    assert!(solve(&stages[0], &SolveOptions::default())
        .unwrap()
        .feasible
        .is_empty());
}

#[test]
fn a_tree_that_is_not_a_policy_of_the_network_is_worth_minus_infinity() {
    let mut n = Network::new(1);
    n.variable("x", &[0, 1], false);
    let leaf = || Box::new(Policy::Leaf);
    for tree in [
        Policy::Decide(5, leaf()), // a value outside the domain
        Policy::Decide(0, Box::new(Policy::Decide(0, leaf()))), // longer than the network
        Policy::Chance(vec![Policy::Leaf, Policy::Leaf]), // chance at a decision
        Policy::Leaf,              // shorter
    ] {
        assert_eq!(
            tree.value(&n, Feasibility::Probable),
            vec![f64::NEG_INFINITY]
        );
    }
    assert_eq!(
        Policy::Decide(1, leaf()).value(&n, Feasibility::Probable),
        vec![0.0]
    );
}

/// A stop flag already set, or a deadline already passed, stops preprocessing and every method
/// early: the enumeration reports itself incomplete.
#[test]
fn a_raised_stop_flag_or_a_passed_deadline_stops_the_solver() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Instant;
    let network = scsp_mac_ucb::random::round_like(16, 1);
    let all = solve(&network, &SolveOptions::default()).unwrap();
    assert!(all.complete && all.feasible.len() > 10_000);
    for algorithm in [Algorithm::MacFc, Algorithm::Fc] {
        let stopped = [
            SolveOptions {
                stop: Some(Arc::new(AtomicBool::new(true))),
                ..SolveOptions::default()
            },
            SolveOptions {
                deadline: Some(Instant::now()),
                ..SolveOptions::default()
            },
        ];
        for options in stopped {
            let options = SolveOptions {
                algorithm,
                preprocess: true,
                ..options
            };
            let partial = solve(&network, &options).unwrap();
            assert!(!partial.complete, "{algorithm:?}");
            assert!(partial.feasible.len() < all.feasible.len(), "{algorithm:?}");
        }
    }
}

/// Pruning by the threshold while solving keeps exactly the solution policies, whichever method
/// solves, on random networks under random thresholds.
#[test]
fn pruning_by_the_threshold_keeps_exactly_the_solutions() {
    fn prop(seed: u64) -> TestResult {
        let mut network = one_stage(&Shape::small(seed), seed);
        let mut rng = Pcg64::seed_from_u64(seed);
        network.threshold = (0..network.players)
            .map(|_| rng.gen_range(0.0..0.6))
            .collect();
        for algorithm in [Algorithm::Brute, Algorithm::Fc, Algorithm::MacFc] {
            let options = SolveOptions {
                algorithm,
                ..SolveOptions::default()
            };
            let all = solve(&network, &options).unwrap();
            let solutions: Vec<Solution> = all.solutions().cloned().collect();
            let pruned = solve(
                &network,
                &SolveOptions {
                    prune: true,
                    ..options
                },
            )
            .unwrap();
            if !same(&pruned.feasible, &solutions) {
                return TestResult::error(format!(
                    "seed {seed}, {algorithm:?}: solutions {solutions:?}, pruned {:?}",
                    pruned.feasible
                ));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u64) -> TestResult);
}

/// Section 4.4: the higher `θ`, the fewer policies of the stochastic part reach the feasibility
/// constraint `c_s`. The one-stage example's three policies are worth ½, ½ and 0 to the first
/// player: raising its threshold from 0.25 to 0.5 leaves `c_s` with two, then none past ½.
#[test]
fn a_raised_threshold_removes_policies_before_mac_runs() {
    let mut network = json::read(testdata("one-stage.json")).expect("parses");
    let pruned = |network: &Network| {
        let options = SolveOptions {
            prune: true,
            ..SolveOptions::default()
        };
        let solved = solve(network, &options).unwrap();
        (solved.feasible.len(), solved.pruned)
    };
    network.threshold = vec![0.0, 0.0];
    assert_eq!(pruned(&network), (3, 0));
    network.threshold = vec![0.5, 0.0];
    assert_eq!(pruned(&network), (2, 1));
    network.threshold = vec![0.6, 0.0];
    assert_eq!(pruned(&network), (0, 3));
}

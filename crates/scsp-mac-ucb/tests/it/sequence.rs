//! The sequence reading of MAC-UCB: a tree of solved networks that, given the budget, solves small
//! games exactly; the solve share changing what is built; the threshold reaching the solver.

use crate::common::RandomTree;
use game_trait::{Game, GeneralGame, Limits};
use quickcheck::{QuickCheck, TestResult};
use scsp_mac_ucb::{check_round, MacUcb, MacUcbConfig};

fn samples(n: u64) -> MacUcbConfig {
    MacUcbConfig {
        samples: n,
        ..MacUcbConfig::default()
    }
}

/// On random trees with chance, once the root is known exactly its value is expectimax's (the
/// mover's best child for the mover, chance's average), and the move played is expectimax's.
#[test]
fn a_completely_explored_root_has_the_expectimax_value() {
    fn prop(seed: u64) -> TestResult {
        match solved_like_expectimax(seed) {
            Ok(true) => TestResult::passed(),
            Ok(false) => TestResult::discard(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(u64) -> TestResult);
}

/// The trees of seeds 0 to 299 are all solved within 20,000 samples (in 29 on average).
#[test]
fn small_random_trees_are_solved_within_the_budget() {
    for seed in 0..300 {
        assert_eq!(solved_like_expectimax(seed), Ok(true), "seed {seed}");
    }
}

/// Whether MAC-UCB solves the random tree of `seed` within 20,000 samples; an error if it then
/// disagrees with expectimax. A tree that is over at its root counts as solved.
fn solved_like_expectimax(seed: u64) -> Result<bool, String> {
    {
        let tree = RandomTree::new(seed, 4, 3);
        let root = tree.initial_state();
        if tree.turn(&root) == game_trait::Turn::Over {
            return Ok(true);
        }
        check_round(&tree, seed, 20).map_err(|e| format!("seed {seed}: {e}"))?;
        let (result, analysis) =
            MacUcb::new(samples(20_000))
                .unwrap()
                .analyse(&tree, &root, &Limits::none());
        if !analysis.exact {
            return Ok(false);
        }
        let want = tree.expectimax(root);
        let chosen = &analysis.arms[analysis.chosen.unwrap()];
        let got = chosen.mean.clone().unwrap();
        let same = got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-9);
        if !same {
            return Err(format!("seed {seed}: {got:?}, expectimax {want:?}"));
        }
        if let (Some(mv), game_trait::Turn::Player(p)) = (result.best_move, tree.turn(&root)) {
            let child = tree.apply(&mut root.clone(), mv).unwrap();
            if (tree.expectimax(child)[p] - want[p]).abs() > 1e-9 {
                return Err(format!("seed {seed}: move {mv} is not the best"));
            }
        }
        Ok(true)
    }
}

/// The solve share decides how much of the tree is solved: with none, only the root's network;
/// with some, more the larger it is (counted in networks and samples, the search having no
/// deadline); the samples drawn are the same budget.
#[test]
fn the_solve_share_changes_what_is_built() {
    let pig = scsp_mac_ucb::games::Pig::new(20);
    let root = pig.initial_state();
    let built = |share: f64| {
        let config = MacUcbConfig {
            solve_share: share,
            ..samples(2_000)
        };
        let (_, a) = MacUcb::new(config)
            .unwrap()
            .analyse(&pig, &root, &Limits::none());
        assert_eq!(a.samples, 2_000);
        (a.networks, a.cached_states)
    };
    let (none, some, most) = (built(0.0), built(0.2), built(0.9));
    assert_eq!(none.0, 1, "the root's network only");
    assert!(
        none.0 < some.0 && some.0 < most.0,
        "{none:?} {some:?} {most:?}"
    );
    assert!(
        none.1 < some.1 && some.1 < most.1,
        "{none:?} {some:?} {most:?}"
    );
}

/// A player keeps its tree between searches of one game: a second search of a state the first
/// one solved exactly is answered from the tree, with no sample.
#[test]
fn the_tree_is_kept_between_searches() {
    let tree = RandomTree::new(7, 4, 3);
    let root = tree.initial_state();
    let mut player = MacUcb::new(samples(20_000)).unwrap();
    let (first, a) = player.analyse(&tree, &root, &Limits::none());
    assert!(a.exact && a.samples > 0);
    let (second, b) = player.analyse(&tree, &root, &Limits::none());
    assert!(b.exact);
    assert_eq!((b.samples, b.networks), (0, 0));
    assert_eq!(
        (first.best_move, first.value),
        (second.best_move, second.value)
    );
}

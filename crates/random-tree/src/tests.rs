//! Properties of the trees: determinism, order independence, and the distributions the paper assumes.

use game_trait::{GeneralGame, Turn, ZeroSumGame};
use quickcheck::quickcheck;

use crate::*;

/// Every node of the tree in depth-first order, children visited in the given index order.
fn collect(tree: &RandomTree, node: Node, reverse: bool, out: &mut Vec<Node>) {
    out.push(node);
    let children: Vec<u16> = if reverse {
        (0..node.branching()).rev().collect()
    } else {
        (0..node.branching()).collect()
    };
    for i in children {
        collect(tree, tree.child(&node, i), reverse, out);
    }
}

fn small_config(b: u8, d: u8, seed: u64, random: bool) -> RandomTreeConfig {
    let b = u16::from(b % 4 + 1);
    let d = u16::from(d % 5);
    let c = if random {
        RandomTreeConfig::random(b, d)
    } else {
        RandomTreeConfig::uniform(b, d)
    };
    c.with_seed(seed)
}

quickcheck! {
    fn same_seed_same_tree_whatever_the_visiting_order(b: u8, d: u8, seed: u64, random: bool) -> bool {
        let tree = RandomTree::new(small_config(b, d, seed, random)).unwrap();
        let (mut forward, mut backward) = (Vec::new(), Vec::new());
        collect(&tree, tree.root(), false, &mut forward);
        collect(&tree, tree.root(), true, &mut backward);
        backward.sort_by_key(|n| n.key());
        let mut sorted = forward.clone();
        sorted.sort_by_key(|n| n.key());
        // A fresh tree object from the same config regenerates identical nodes.
        let again = RandomTree::new(small_config(b, d, seed, random)).unwrap();
        let mut replay = Vec::new();
        collect(&again, again.root(), false, &mut replay);
        sorted == backward && forward == replay
    }

    fn costs_are_path_sums_and_leaves_are_exactly_at_depth_d(b: u8, d: u8, seed: u64, random: bool) -> bool {
        let config = small_config(b, d, seed, random);
        let tree = RandomTree::new(config).unwrap();
        let (l, u) = tree.exact_edge_bounds();
        let mut ok = true;
        let mut stack = vec![tree.root()];
        while let Some(node) = stack.pop() {
            let over = tree.turn(&node) == Turn::Over;
            ok &= over == (node.depth() == config.depth);
            ok &= tree.side_to_move(&node) == usize::from(node.depth() % 2);
            for i in 0..node.branching() {
                let child = tree.child(&node, i);
                let edge = child.cost() - node.cost();
                ok &= (l..=u).contains(&edge) && child.depth() == node.depth() + 1;
                stack.push(child);
            }
        }
        ok
    }
}

#[test]
fn different_seeds_give_different_trees_and_trials_differ() {
    let base = RandomTreeConfig::uniform(5, 3);
    let costs = |c: RandomTreeConfig| {
        let t = RandomTree::new(c).unwrap();
        (0..5)
            .map(|i| t.child(&t.root(), i).cost())
            .collect::<Vec<_>>()
    };
    assert_ne!(costs(base.with_seed(1)), costs(base.with_seed(2)));
    assert_ne!(costs(base.trial(0)), costs(base.trial(1)));
    assert_eq!(costs(base.trial(7)), costs(base.trial(7)));
}

#[test]
fn a_tree_is_identified_by_its_configuration() {
    use game_trait::Game;
    let base = RandomTreeConfig::uniform(5, 3);
    let id = |c: RandomTreeConfig| RandomTree::new(c).unwrap().identity();
    assert_eq!(id(base.with_seed(1)), id(base.with_seed(1)));
    assert_ne!(id(base.with_seed(1)), id(base.with_seed(2)));
    assert_ne!(id(base), id(RandomTreeConfig::uniform(5, 4)));
}

/// Pins the generator: a change to the hashing would silently change every published experiment.
#[test]
fn the_generator_is_stable_across_versions() {
    let tree = RandomTree::new(RandomTreeConfig::uniform(5, 6).with_seed(1)).unwrap();
    let root = tree.root();
    let first = tree.child(&root, 0);
    let deep = tree.child(&tree.child(&first, 4), 2);
    let pinned = (first.cost(), deep.cost(), deep.key() % 1_000_003);
    assert_eq!(pinned, PINNED, "generator changed: {pinned:?}");
}

const PINNED: (i32, i32, u64) = (4882, 37517, 233601);

/// Edge costs are uniform on {l..u}: a chi-square test over 16 equal bins of the paper's range.
#[test]
fn edge_costs_are_uniform_over_the_whole_range() {
    let tree = RandomTree::new(RandomTreeConfig::uniform(8, 3).with_seed(11)).unwrap();
    let (l, u) = tree.exact_edge_bounds();
    let span = i64::from(u) - i64::from(l) + 1;
    let mut bins = [0u64; 16];
    let (mut lowest, mut highest) = (i32::MAX, i32::MIN);
    let mut n = 0u64;
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        for i in 0..node.branching() {
            let child = tree.child(&node, i);
            let edge = child.cost() - node.cost();
            lowest = lowest.min(edge);
            highest = highest.max(edge);
            bins[((i64::from(edge) - i64::from(l)) * 16 / span) as usize] += 1;
            n += 1;
            if child.depth() < 3 {
                stack.push(child);
            }
        }
    }
    // Chi-square with 15 degrees of freedom: P(X > 37.7) = 0.001.
    let expected = n as f64 / 16.0;
    let chi2: f64 = bins
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 37.7, "chi2 = {chi2} over {n} edges: {bins:?}");
    assert!(l <= lowest && highest <= u);
    // With 584 edges the extremes come within 2% of the range ends.
    assert!(lowest < l + (span / 50) as i32 && highest > u - (span / 50) as i32);
}

/// Random branching is uniform on {1..B}, the root gets the mean, and small custom ranges are exact.
#[test]
fn branching_factors_are_uniform_on_one_to_big_b() {
    let tree = RandomTree::new(RandomTreeConfig::random(5, 8).with_seed(3)).unwrap();
    let root = tree.root();
    assert_eq!(root.branching(), 5);
    let mut counts = [0u64; 10];
    let mut stack = vec![root];
    let mut n = 0;
    while n < 9_000 {
        let node = stack.pop().expect("tree large enough");
        for i in 0..node.branching() {
            let child = tree.child(&node, i);
            if child.depth() < 8 {
                counts[usize::from(child.branching())] += 1;
                n += 1;
                stack.push(child);
            }
        }
    }
    assert_eq!(counts[0], 0);
    let expected = n as f64 / 9.0;
    let chi2: f64 = counts[1..]
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    // Chi-square with 8 degrees of freedom: P(X > 26.1) = 0.001.
    assert!(chi2 < 26.1, "chi2 = {chi2}: {counts:?}");
}

#[test]
fn tiny_cost_ranges_hit_every_value() {
    let config = RandomTreeConfig {
        min_edge: -1,
        max_edge: 1,
        ..RandomTreeConfig::uniform(6, 2).with_seed(5)
    };
    let tree = RandomTree::new(config).unwrap();
    let mut seen = [false; 3];
    for i in 0..6 {
        let c = tree.child(&tree.root(), i);
        seen[(c.cost() + 1) as usize] = true;
        for j in 0..6 {
            let g = tree.child(&c, j);
            seen[(g.cost() - c.cost() + 1) as usize] = true;
        }
    }
    assert_eq!(seen, [true; 3]);
}

#[test]
fn leaves_are_finished_games_scored_by_cost() {
    let tree = RandomTree::new(RandomTreeConfig::uniform(2, 1).with_seed(4)).unwrap();
    let leaf = tree.child(&tree.root(), 1);
    assert_eq!(tree.turn(&leaf), Turn::Over);
    // MIN is "to move" at ply 1: the result is the negated cost.
    assert_eq!(tree.outcome(&leaf).map(|o| o.margin()), Some(-leaf.cost()));
    let max_wins = leaf.cost() > 0;
    assert_eq!(tree.payoff(&leaf, 0) == 1.0, max_wins);
    assert_eq!(tree.payoff(&leaf, 0) + tree.payoff(&leaf, 1), 1.0);
    let empty = RandomTree::new(RandomTreeConfig::uniform(2, 0)).unwrap();
    assert_eq!(empty.turn(&empty.root()), Turn::Over);
}

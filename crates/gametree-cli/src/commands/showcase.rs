//! `gametree` with no arguments: a short tour of what is implemented (well under a minute).

use gametree::game::{Game, Limits, Searcher};
use gametree::search::tree::{ExplicitTree, LeafValue};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Minimax};

use crate::Failure;

pub fn run() -> Result<(), Failure> {
    println!("gametree — reusable game-tree search. `gametree --help` lists the commands.\n");
    bounds_on_a_random_tree();
    Ok(())
}

/// Alpha-beta against the minimax oracle on an explicit random tree, with the seed's bound reporting.
fn bounds_on_a_random_tree() {
    let tree = ExplicitTree::random(7, 8, 4);
    let root = tree.initial_state();
    let exact = Minimax::new(LeafValue, 8).search(&tree, &root, &Limits::none());
    let mut ab = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig {
        depth: 8,
        ..AlphaBetaConfig::default()
    });
    let pruned = ab.search(&tree, &root, &Limits::none());
    println!("== alpha-beta vs minimax on `tree:seed=7,depth=8,branching=4`");
    println!(
        "   minimax   value {:>4} ({}) {:>8} nodes generated",
        exact.value, exact.bound, exact.stats.generated
    );
    println!(
        "   alphabeta value {:>4} ({}) {:>8} nodes generated ({} pv / {} cut / {} all nodes)",
        pruned.value,
        pruned.bound,
        pruned.stats.generated,
        pruned.stats.pv_nodes,
        pruned.stats.cut_nodes,
        pruned.stats.all_nodes
    );
    println!();
}

//! `gametree` with no arguments: a short tour of what is implemented (a few seconds in a release
//! build). Each section is one composition a user could write; the figures are measured live.

use std::time::Instant;

use gametree::conspiracy::CaevPlayer;
use gametree::forward_estimation::{EdgeBounds, ForwardEstimation};
use gametree::game::{Game, GeneralGame, Limits, SearchResult, Searcher};
use gametree::interest_search::{InterestConfig, InterestHorizon, InterestOrdering};
use gametree::othello::{perft, Ev1, FastestFirst, Othello, OthelloPlausibility, Position};
use gametree::othello_solve::{solve, SolveOptions};
use gametree::random_tree::{NodeCost, RandomTree, RandomTreeConfig};
use gametree::search::tree::{ExplicitTree, LeafValue};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Minimax};

use crate::out::outln;
use crate::Failure;

pub fn run() -> Result<(), Failure> {
    outln!("gametree: reusable game-tree search. `gametree --help` lists the commands,");
    outln!("`gametree list` the games, searchers and reproductions.\n");
    bounds_on_a_random_tree();
    othello_perft_and_search();
    forward_estimation();
    conspiracy_numbers();
    interest_search();
    endgame();
    Ok(())
}

fn header(title: &str, command: &str) {
    outln!("== {title}");
    outln!("   (try: {command})");
}

fn line(label: &str, r: &SearchResult<impl Copy>, seconds: f64) {
    outln!(
        "   {label:<28} value {:>6} ({:<5}) {:>10} nodes generated  {:>7.3} s",
        r.value,
        r.bound.name(),
        r.stats.generated,
        seconds
    );
}

fn timed<M>(f: impl FnOnce() -> SearchResult<M>) -> (SearchResult<M>, f64) {
    let start = Instant::now();
    let r = f();
    (r, start.elapsed().as_secs_f64())
}

/// Alpha-beta against the minimax oracle on an explicit random tree, with its bound reporting.
fn bounds_on_a_random_tree() {
    header(
        "alpha-beta vs the minimax oracle on an explicit random tree (depth 8, branching <= 4)",
        "gametree search tree:seed=7,depth=8 --searcher alphabeta:depth=8",
    );
    let tree = ExplicitTree::random(7, 8, 4);
    let root = tree.initial_state();
    let (exact, t1) = timed(|| Minimax::new(LeafValue, 8).search(&tree, &root, &Limits::none()));
    let mut ab = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::alpha_beta(8));
    let (pruned, t2) = timed(|| ab.search(&tree, &root, &Limits::none()));
    line("minimax", &exact, t1);
    line("alphabeta", &pruned, t2);
    let s = pruned.stats;
    outln!(
        "   alpha-beta's node kinds: {} PV, {} Cut, {} All\n",
        s.pv_nodes,
        s.cut_nodes,
        s.all_nodes
    );
}

/// Othello: the standard perft counts, then PVS with EV1 from the start position.
fn othello_perft_and_search() {
    header(
        "Othello on bitboards: perft, then PVS with EV1",
        "gametree perft othello 11",
    );
    let start = Instant::now();
    let counts: Vec<String> = (1..=9)
        .map(|d| perft(Position::start().board(), d).to_string())
        .collect();
    outln!(
        "   perft 1..9: {} ({:.3} s)",
        counts.join(" "),
        start.elapsed().as_secs_f64()
    );
    let root = Position::start();
    let mut pvs = AlphaBeta::new(Ev1)
        .with_config(AlphaBetaConfig {
            tt_bytes: 16 << 20,
            ..AlphaBetaConfig::pvs(9)
        })
        .with_ordering(FastestFirst::default());
    let (r, t) = timed(|| pvs.search(&Othello, &root, &Limits::none()));
    line("pvs depth 9, EV1", &r, t);
    outln!(
        "   principal variation: {}\n",
        pv_names(&Othello, &root, &r.pv)
    );
}

/// Zhang's forward estimation on one of his incremental random trees.
fn forward_estimation() {
    header(
        "forward estimation (Zhang) vs alpha-beta on a random tree, d = 10, mean b = 5",
        "gametree reproduce fe-table1 --trials 20",
    );
    let Ok(tree) = RandomTree::new(RandomTreeConfig::random(5, 10).with_seed(3)) else {
        return;
    };
    let root = tree.initial_state();
    let (l, u) = tree.exact_edge_bounds();
    let mut ab = AlphaBeta::new(NodeCost).with_config(AlphaBetaConfig::alpha_beta(10));
    let (plain, t1) = timed(|| ab.search(&tree, &root, &Limits::none()));
    let mut fe = AlphaBeta::new(NodeCost)
        .with_config(AlphaBetaConfig::alpha_beta(10))
        .with_pruning(ForwardEstimation::new(EdgeBounds::Exact { l, u }));
    let (pruned, t2) = timed(|| fe.search(&tree, &root, &Limits::none()));
    line("alphabeta", &plain, t1);
    line("fe, exact bounds, delta 1", &pruned, t2);
    outln!("   same value, as the paper guarantees with exact bounds\n");
}

/// The CN(3, 2) player of Vu et al. next to the plain alpha-beta of the same total depth.
fn conspiracy_numbers() {
    header(
        "conspiracy numbers: the CN(3,2) player vs alpha-beta depth 5 (Othello, EV1)",
        "gametree search othello --searcher caev:cn=3,ab=2,eval=ev1",
    );
    let root = Position::start()
        .play_moves("f5d6c3d3c4f4f6")
        .unwrap_or_else(|_| Position::start());
    let mut ab = AlphaBeta::new(Ev1).with_config(AlphaBetaConfig::alpha_beta(5));
    let (plain, t1) = timed(|| ab.search(&Othello, &root, &Limits::none()));
    let leaf = AlphaBeta::new(Ev1).with_config(AlphaBetaConfig::alpha_beta(2));
    // One corner is EV1's unit, which sets the paper's RANGE = 1000 and STEP = 50.
    let Ok(mut cn) = CaevPlayer::layered(leaf, 3, 2, 1000) else {
        return;
    };
    let (caev, t2) = timed(|| cn.search(&Othello, &root, &Limits::none()));
    line("alphabeta depth 5", &plain, t1);
    line("CN(3,2): value is a CAEV", &caev, t2);
    let name = |r: &SearchResult<_>| {
        r.best_move
            .map_or("-".to_string(), |m| Othello.move_name(&root, m))
    };
    outln!(
        "   moves chosen: alpha-beta {}, CN(3,2) {}\n",
        name(&plain),
        name(&caev)
    );
}

/// Rollason's interest search against depth-iterating PVS with the same ordering.
fn interest_search() {
    header(
        "interest search (Rollason) vs depth iterations, 6 iterations each (Othello, EV1)",
        "gametree reproduce interest-table --games 4",
    );
    let root = Position::start()
        .play_moves("f5d6c3d3c4f4f6f3e6e7")
        .unwrap_or_else(|_| Position::start());
    let engine = AlphaBetaConfig {
        tt_bytes: 4 << 20,
        history: false,
        ..AlphaBetaConfig::pvs(6)
    };
    let plausibility = OthelloPlausibility::new();
    let mut off = AlphaBeta::new(Ev1)
        .with_config(engine)
        .with_ordering(InterestOrdering::new(plausibility.clone()));
    let (depth, t1) = timed(|| off.search(&Othello, &root, &Limits::none()));
    let mut on = AlphaBeta::new(Ev1)
        .with_config(engine)
        .with_horizon(InterestHorizon::with_config(
            InterestConfig::default(),
            plausibility.clone(),
        ))
        .with_ordering(InterestOrdering::new(plausibility));
    let (interest, t2) = timed(|| on.search(&Othello, &root, &Limits::none()));
    line("iterating by depth", &depth, t1);
    line("iterating by interest", &interest, t2);
    outln!();
}

/// An exact endgame solve: search-core's PVS with the transposition table and Othello's hooks.
fn endgame() {
    header(
        "exact endgame solving: PVS + transposition table + Othello hooks (a 20-empty position)",
        "gametree solve testdata/ffo/fforum-1-19.obf",
    );
    let position = gametree::othello::random_position(2024, 20);
    let r = solve(&position, &SolveOptions::default());
    let best = r.best_move.map_or("-".to_string(), |m| m.to_string());
    outln!(
        "   exact score {:+} with {best}: {} nodes in {:.3} s ({:.1} M nodes/s)\n",
        r.score,
        r.nodes,
        r.seconds,
        r.nodes as f64 / r.seconds.max(1e-9) / 1e6
    );
}

fn pv_names<G: GeneralGame>(game: &G, root: &G::State, pv: &[G::Move]) -> String {
    crate::commands::search::pv_names(game, root, pv).join(" ")
}

//! Reproductions of Zhang, *Forward Estimation for Minimax Search* (ISI/RR-95-429, 1995) on
//! incremental random trees: Table 1 (`fe-table1`), Figure 1 (`fe-fig1a`, `fe-fig1b`), Figure 2
//! (`fe-fig2`) and Figure 3(a) (`fe-fig3a`).
//!
//! **Engines.** Alpha-beta is search-core's [`AlphaBeta`] with [`AlphaBetaConfig::alpha_beta`]:
//! plain fail-soft α/β, no transposition table, with [`StaticOrdering`]: at every node with at
//! least two plies left the children are generated, sorted by static value (best for the mover
//! first) and searched in that order; the frontier's parents generate their children one at a time.
//! The paper does not say so, but its Table 1 does: 16.872 nodes at depth 2 and 64.934 at depth 3
//! are what this ordering gives (a simulation: 16.74, 65.21), while generation order gives 20.0 at
//! depth 2 (our first reading, which disagreed with the whole table by a factor up to 2.9).
//! Forward estimation is the same engine with a [`ForwardEstimation`] hook.
//!
//! **Nodes generated.** The paper counts node generations; its depth-1 row is exactly 5.000 nodes
//! on trees whose root has 5 children, so the root is *not* counted. The engine counts the root, so
//! every figure here is `stats.generated − 1`. Every child of a sorted node was generated (sorting
//! needs them all), and so was a child skipped by forward estimation (its static value had to be
//! computed): both are counted.
//!
//! **Trees.** Trial `k` of an experiment is `config.with_seed(--seed).trial(k)`: the same tree on
//! every machine. Decision quality is the percentage of trials whose first move equals that of a
//! full-depth α/β search of the same tree.

pub mod othello;
pub mod protocol;

use forward_estimation::{EdgeBounds, ForwardEstimation, Reading};
use game_trait::{ForwardPruning, Limits, NoPruning, Searcher};
use random_tree::{Node, NodeCost, RandomTree, RandomTreeConfig, StaticOrdering};
use search_core::{AlphaBeta, AlphaBetaConfig};
use serde_json::{json, Value};

use crate::shard::{run_all, Units};
use crate::svg::{Chart, Series};
use crate::{ExperimentError, Report, ReproduceOptions};
use protocol::{play_protocol, points, Point, Tournament};

/// Trials per data point in the paper (Table 1, Figures 1 and 2).
pub const PAPER_TRIALS: usize = 1000;

/// Table 1 of the paper, by search depth 1–10: (decision quality, nodes) for FE with exact bounds,
/// FE with on-line learned bounds, and alpha-beta.
pub const PAPER_TABLE1: [[(f64, f64); 3]; 10] = [
    [(39.3, 5.000), (39.3, 5.000), (39.3, 5.000)],
    [(52.5, 16.872), (52.5, 16.872), (52.5, 16.872)],
    [(61.4, 49.445), (61.5, 48.903), (61.4, 64.934)],
    [(67.3, 134.679), (67.3, 133.933), (67.3, 162.410)],
    [(71.6, 318.996), (71.6, 317.857), (71.6, 481.141)],
    [(76.4, 767.819), (76.4, 766.321), (76.4, 1100.197)],
    [(79.8, 1689.049), (79.8, 1687.089), (79.8, 2993.929)],
    [(82.2, 3856.462), (82.2, 3854.028), (82.2, 6591.826)],
    [(87.0, 8192.156), (87.0, 8188.984), (87.0, 17226.045)],
    [(100.0, 18387.580), (100.0, 18383.889), (100.0, 37402.340)],
];

/// Registered names and descriptions.
pub const TABLE1: (&str, &str) = (
    "fe-table1",
    "Zhang 1995, Table 1: decision quality and nodes of FE (exact, on-line bounds) and alpha-beta, d=10, b=5",
);
/// Figure 1(a).
pub const FIG1A: (&str, &str) = (
    "fe-fig1a",
    "Zhang 1995, Figure 1(a): nodes vs depth, FE and alpha-beta (and perfect ordering) on uniform trees",
);
/// Figure 1(b).
pub const FIG1B: (&str, &str) = (
    "fe-fig1b",
    "Zhang 1995, Figure 1(b): nodes vs depth, FE and alpha-beta on random-branching trees",
);
/// Figure 2.
pub const FIG2: (&str, &str) = (
    "fe-fig2",
    "Zhang 1995, Figure 2: FE as selective search, delta 1.0..0.2 vs alpha-beta, d=10, b=5",
);
/// Figure 3(a).
pub const FIG3A: (&str, &str) = (
    "fe-fig3a",
    "Zhang 1995, Figure 3(a): FE (delta 0.5) plays alpha-beta on random trees, d=100, b=5",
);

/// One search of `tree` from `root` to `depth` plies: (nodes generated without the root, move).
fn run<P: ForwardPruning<RandomTree>>(
    tree: &RandomTree,
    root: &Node,
    depth: u32,
    pruning: P,
) -> (u64, Option<u16>) {
    let result = AlphaBeta::new(NodeCost)
        .with_config(AlphaBetaConfig::alpha_beta(depth))
        .with_ordering(StaticOrdering::default())
        .with_pruning(pruning)
        .search(tree, root, &Limits::none());
    (result.stats.generated - 1, result.best_move)
}

/// Both readings of the conditions, the literal one first: every FE experiment runs each.
const READINGS: [Reading; 2] = [Reading::Literal, Reading::NodeCut];

fn exact(tree: &RandomTree, reading: Reading) -> ForwardEstimation {
    let (l, u) = tree.exact_edge_bounds();
    ForwardEstimation::new(EdgeBounds::Exact { l, u }).with_reading(reading)
}

fn online(delta: f64, reading: Reading) -> Result<ForwardEstimation, ExperimentError> {
    let fe = ForwardEstimation::new(EdgeBounds::Online)
        .with_delta(delta)
        .map_err(|e| ExperimentError::InvalidOption {
            experiment: "fe",
            message: e.to_string(),
        })?;
    Ok(fe.with_reading(reading))
}

/// `""` for the literal reading, `"-node-cut"` for the other: the suffix of an algorithm's name.
fn suffix(reading: Reading) -> &'static str {
    match reading {
        Reading::Literal => "",
        Reading::NodeCut => "-node-cut",
    }
}

fn trials(options: &ReproduceOptions, experiment: &'static str) -> Result<usize, ExperimentError> {
    match options.trials.unwrap_or(PAPER_TRIALS) {
        0 => Err(ExperimentError::InvalidOption {
            experiment,
            message: "--trials must be at least 1".into(),
        }),
        n => Ok(n),
    }
}

fn tree(config: RandomTreeConfig, options: &ReproduceOptions, k: usize) -> RandomTree {
    // Validated configurations only: the experiments build them from constants.
    RandomTree::new(config.with_seed(options.seed).trial(k as u64)).expect("valid tree parameters")
}

/// Mean nodes and decision-quality tally for one algorithm at one depth.
#[derive(Clone, Copy, Default)]
struct Cell {
    nodes: u64,
    same_move: u64,
}

impl Cell {
    fn add(&mut self, (nodes, mv): (u64, Option<u16>), reference: Option<u16>) {
        self.nodes += nodes;
        self.same_move += u64::from(mv == reference);
    }
    fn mean_nodes(&self, trials: usize) -> f64 {
        self.nodes as f64 / trials as f64
    }
    fn quality(&self, trials: usize) -> f64 {
        100.0 * self.same_move as f64 / trials as f64
    }
}

impl Cell {
    fn to_json(self) -> Value {
        json!([self.nodes, self.same_move])
    }

    fn from_json(value: &Value) -> Option<Cell> {
        Some(Cell {
            nodes: value.get(0)?.as_u64()?,
            same_move: value.get(1)?.as_u64()?,
        })
    }
}

/// An FE experiment over random trees as units (see [`crate::shard`]): trial `k` searches tree `k`
/// and tallies a grid of cells; the report sums the trials' grids.
struct FeTrials {
    experiment: &'static str,
    options: ReproduceOptions,
    trials: usize,
    /// How many cells a trial tallies.
    cells: usize,
    /// Trial `k`'s cells, flattened.
    trial: fn(&ReproduceOptions, usize) -> Result<Vec<Cell>, ExperimentError>,
    /// The report from the sums of every trial's cells.
    report: fn(&ReproduceOptions, usize, &[Cell]) -> Report,
}

impl Units for FeTrials {
    fn count(&self) -> usize {
        self.trials
    }

    fn run(&self, index: usize) -> Result<Value, ExperimentError> {
        let cells = (self.trial)(&self.options, index)?;
        let cells: Vec<Value> = cells.into_iter().map(Cell::to_json).collect();
        Ok(json!({"trial": index, "cells": cells}))
    }

    fn report(&self, records: &[Value]) -> Result<Report, ExperimentError> {
        let mut sums = vec![Cell::default(); self.cells];
        for (k, record) in records.iter().enumerate() {
            let cells = record["cells"].as_array().filter(|_| record["trial"] == k);
            let cells =
                cells.and_then(|c| c.iter().map(Cell::from_json).collect::<Option<Vec<_>>>());
            let cells = cells.filter(|c| c.len() == self.cells);
            let cells = cells.ok_or_else(|| ExperimentError::InvalidOption {
                experiment: self.experiment,
                message: format!("unit {k}'s record is not trial {k}'s cells"),
            })?;
            for (sum, cell) in sums.iter_mut().zip(cells) {
                sum.nodes += cell.nodes;
                sum.same_move += cell.same_move;
            }
        }
        Ok((self.report)(&self.options, self.trials, &sums))
    }
}

/// `fe-table1`: random trees of depth 10, random branching with mean 5, the paper's edge costs;
/// search depths 1–10; FE with exact bounds, FE with on-line learned bounds (conditions (1), δ = 1),
/// alpha-beta.
pub fn table1(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(table1_plan(options)?.as_ref(), 1, progress)
}

/// `fe-table1` as units, one per trial (see [`crate::shard`]).
pub fn table1_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    Ok(Box::new(FeTrials {
        experiment: TABLE1.0,
        options: options.clone(),
        trials: trials(options, TABLE1.0)?,
        cells: 5 * TABLE1_DEPTH as usize,
        trial: table1_trial,
        report: table1_report,
    }))
}

/// Table 1's depth: of the trees and of the deepest search.
const TABLE1_DEPTH: u32 = 10;

/// Trial `k` of Table 1: per depth, FE exact, FE learned, alpha-beta, then FE exact and learned
/// in the node-cut reading.
fn table1_trial(options: &ReproduceOptions, k: usize) -> Result<Vec<Cell>, ExperimentError> {
    const DEPTH: u32 = TABLE1_DEPTH;
    let t = tree(RandomTreeConfig::random(5, DEPTH as u16), options, k);
    let root = t.root();
    let reference = run(&t, &root, DEPTH, NoPruning).1;
    let mut cells = Vec::with_capacity(5 * DEPTH as usize);
    for depth in 1..=DEPTH {
        let mut row = [Cell::default(); 5];
        for (i, reading) in READINGS.into_iter().enumerate() {
            let at = if i == 0 { 0 } else { 3 };
            row[at].add(run(&t, &root, depth, exact(&t, reading)), reference);
            row[at + 1].add(run(&t, &root, depth, online(1.0, reading)?), reference);
        }
        row[2].add(run(&t, &root, depth, NoPruning), reference);
        cells.extend(row);
    }
    Ok(cells)
}

/// Table 1 from the sums of every trial's cells.
fn table1_report(_: &ReproduceOptions, trials: usize, sums: &[Cell]) -> Report {
    const DEPTH: u32 = TABLE1_DEPTH;
    let mut cells = [[Cell::default(); 5]; DEPTH as usize];
    for (row, sums) in cells.iter_mut().zip(sums.chunks(5)) {
        row.copy_from_slice(sums);
    }
    let names = [
        "fe-exact",
        "fe-learned",
        "alphabeta",
        "fe-exact-node-cut",
        "fe-learned-node-cut",
    ];
    let mut report = Report {
        text: format!(
        "Zhang 1995, Table 1: random trees d = 10, random branching mean 5 (B = 9), edge costs {{-2^15+1..2^15}}, {trials} trials (paper: 1000).\n\
         Decision quality = % same first move as a full-depth search; nodes = mean nodes generated (root not counted).\n\n\
         {:>5} | {:>20} | {:>20} | {:>20} || paper: {:>17} | {:>17} | {:>17}\n",
        "depth", "FE exact  dq / nodes", "FE learned dq/nodes", "alpha-beta dq/nodes", "FE exact", "FE learned", "alpha-beta"
    ),
        ..Report::default()
    };
    for (d, row) in cells.iter().enumerate() {
        let ours: Vec<String> = row[..3]
            .iter()
            .map(|c| format!("{:5.1} / {:12.3}", c.quality(trials), c.mean_nodes(trials)))
            .collect();
        let paper: Vec<String> = PAPER_TABLE1[d]
            .iter()
            .map(|(q, n)| format!("{q:5.1} / {n:9.3}"))
            .collect();
        report.text += &format!(
            "{:>5} | {} || {}\n",
            d + 1,
            ours.join(" | "),
            paper.join(" | ")
        );
        for (cell, name) in row.iter().zip(names) {
            report.rows.push(json!({
                "depth": d + 1,
                "algorithm": name,
                "decision_quality": round(cell.quality(trials), 1),
                "nodes": round(cell.mean_nodes(trials), 1),
            }));
        }
    }
    let last = &cells[DEPTH as usize - 1];
    report.text += &format!(
        "\nDepth 10, ours vs paper: FE exact {:.1}% / {:.1} vs 100.0% / 18387.6; FE learned {:.1}% / {:.1} vs 100.0% / 18383.9; \
         alpha-beta {:.1}% / {:.1} vs 100.0% / 37402.3.\nFE/alpha-beta node ratio at depth 10: ours {:.3}, paper {:.3}.\n",
        last[0].quality(trials), last[0].mean_nodes(trials),
        last[1].quality(trials), last[1].mean_nodes(trials),
        last[2].quality(trials), last[2].mean_nodes(trials),
        last[0].mean_nodes(trials) / last[2].mean_nodes(trials),
        18387.58 / 37402.34,
    );
    report.text += &node_cut_table(&cells, trials);
    report
}

/// Table 1's second block: the node-cut reading, and each reading's FE (exact) / alpha-beta node
/// ratio next to the paper's.
fn node_cut_table(cells: &[[Cell; 5]], trials: usize) -> String {
    let mut text = format!(
        "\nThe node-cut reading (condition (1) on subtrees of depth >= 2, and a node cut when a child's estimated range settles it):\n\n\
         {:>5} | {:>20} | {:>20} || {:>13} | {:>13} | {:>11}\n",
        "depth", "FE exact  dq / nodes", "FE learned dq/nodes", "FE/AB literal", "FE/AB node-cut", "FE/AB paper"
    );
    for (d, row) in cells.iter().enumerate() {
        let ab = row[2].mean_nodes(trials);
        let paper = PAPER_TABLE1[d][0].1 / PAPER_TABLE1[d][2].1;
        text += &format!(
            "{:>5} | {:5.1} / {:12.3} | {:5.1} / {:12.3} || {:>13.3} | {:>14.3} | {:>11.3}\n",
            d + 1,
            row[3].quality(trials),
            row[3].mean_nodes(trials),
            row[4].quality(trials),
            row[4].mean_nodes(trials),
            row[0].mean_nodes(trials) / ab,
            row[3].mean_nodes(trials) / ab,
            paper,
        );
    }
    text
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// Figure 1 stops a curve once its mean passes this many nodes (the top of the paper's axis).
pub const FIG1_NODE_CAP: f64 = 1.0e6;
/// Deepest tree of Figure 1.
pub const FIG1_MAX_DEPTH: u16 = 16;

/// Nodes generated by α/β with perfect ordering on a uniform tree of branching `b` searched to depth
/// `d` (Knuth and Moore 1975, the paper's reference \[9\]): the minimal tree has `b^⌈k/2⌉ + b^⌊k/2⌋ − 1`
/// nodes at level `k`, and perfect ordering generates exactly the minimal tree (root not counted).
pub fn perfect_ordering_nodes(b: u64, d: u32) -> f64 {
    (1..=d)
        .map(|k| (b as f64).powi(k.div_ceil(2) as i32) + (b as f64).powi((k / 2) as i32) - 1.0)
        .sum()
}

/// `fe-fig1a`: uniform trees.
pub fn fig1a(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    fig1(options, progress, false)
}

/// `fe-fig1b`: random branching trees.
pub fn fig1b(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    fig1(options, progress, true)
}

/// Figure 1: trees of depth `d` = 1, 2, … searched to the end by α/β and by FE (exact bounds) in
/// each reading, for (mean) branching 2, 5 and 10; each curve stops after passing
/// [`FIG1_NODE_CAP`] or at depth 16.
fn fig1(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
    random: bool,
) -> Result<Report, ExperimentError> {
    let (name, _) = if random { FIG1B } else { FIG1A };
    let trials = trials(options, name)?;
    let kind = if random { "random" } else { "uniform" };
    let mut report = Report {
        text: format!(
        "Zhang 1995, Figure {}: mean nodes generated to search {kind}-branching trees to the end, edge costs {{-2^15+1..2^15}}, \
         {trials} trials per point (paper: 1000). Curves stop after passing {FIG1_NODE_CAP:e} nodes.\n\n\
         {:>3} {:>5} {:>14} {:>14} {:>9} {:>14} {:>9}{}\n",
        if random { "1(b)" } else { "1(a)" },
        "b", "depth", "alpha-beta", "FE exact", "FE/AB", "FE node-cut", "NC/AB",
        if random { String::new() } else { format!(" {:>14}", "perfect (LB)") },
    ),
        ..Report::default()
    };
    let mut chart = Chart {
        title: format!("Forward estimation vs alpha-beta, {kind} branching"),
        x_label: "tree depth".into(),
        y_label: "nodes generated".into(),
        y_log: true,
        ..Chart::default()
    };
    let branchings = [2u16, 5, 10];
    let total = (branchings.len() * usize::from(FIG1_MAX_DEPTH)) as u64;
    let mut done = 0;
    for b in branchings {
        // Curves: alpha-beta, FE literal, FE node-cut.
        let mut curves: [Vec<(f64, f64)>; 3] = Default::default();
        let mut lb_curve = Vec::new();
        let mut alive = [true; 3];
        for d in 1..=FIG1_MAX_DEPTH {
            done += 1;
            if alive.iter().all(|a| !a) {
                continue;
            }
            let config = if random {
                RandomTreeConfig::random(b, d)
            } else {
                RandomTreeConfig::uniform(b, d)
            };
            let mut sums = [0u64; 3];
            for k in 0..trials {
                let t = tree(config, options, k);
                let root = t.root();
                let depth = u32::from(d);
                if alive[0] {
                    sums[0] += run(&t, &root, depth, NoPruning).0;
                }
                for (i, reading) in READINGS.into_iter().enumerate() {
                    if alive[1 + i] {
                        sums[1 + i] += run(&t, &root, depth, exact(&t, reading)).0;
                    }
                }
            }
            let means = sums.map(|n| n as f64 / trials as f64);
            let lb = perfect_ordering_nodes(u64::from(b), u32::from(d));
            report.text += &fig1_line(b, d, means, alive, (!random).then_some(lb));
            let mut row = json!({"branching": b, "depth": d, "kind": kind});
            for (i, key) in ["alphabeta", "fe", "fe_node_cut"].into_iter().enumerate() {
                if alive[i] {
                    curves[i].push((f64::from(d), means[i]));
                    row[key] = json!(round(means[i], 1));
                }
            }
            if !random {
                lb_curve.push((f64::from(d), lb));
                row["perfect_ordering"] = json!(round(lb, 1));
            }
            report.rows.push(row);
            for i in 0..3 {
                alive[i] &= means[i] <= FIG1_NODE_CAP;
            }
            progress(done, total);
        }
        lb_curve.truncate(curves[0].len());
        let [ab_curve, fe_curve, nc_curve] = curves;
        chart.series.push(Series {
            name: format!("AB b={b}"),
            points: ab_curve,
            dashed: true,
        });
        chart.series.push(Series {
            name: format!("FE b={b}"),
            points: fe_curve,
            dashed: false,
        });
        chart.series.push(Series {
            name: format!("FE-NC b={b}"),
            points: nc_curve,
            dashed: false,
        });
        if !random {
            chart.series.push(Series {
                name: format!("LB b={b}"),
                points: lb_curve,
                dashed: true,
            });
        }
    }
    report.text += "\nThe paper gives Figure 1 only as a plot; its text reads off one point: with 10^6 nodes alpha-beta \
                    cannot reach depth 10 on uniform b = 10 trees while FE reaches depth 11.\n";
    if options.svg {
        report.svg = Some(chart.to_svg());
    }
    Ok(report)
}

/// One line of Figure 1's table: the means of alpha-beta, FE literal and FE node-cut (`-` for a
/// curve that has stopped), their ratios to alpha-beta, and the perfect-ordering bound.
fn fig1_line(b: u16, d: u16, means: [f64; 3], alive: [bool; 3], lb: Option<f64>) -> String {
    let show = |i: usize| {
        if alive[i] {
            format!("{:14.1}", means[i])
        } else {
            format!("{:>14}", "-")
        }
    };
    let ratio = |i: usize| {
        if alive[0] && alive[i] {
            format!("{:9.3}", means[i] / means[0])
        } else {
            format!("{:>9}", "-")
        }
    };
    let lb = lb.map_or(String::new(), |lb| format!(" {lb:14.1}"));
    format!(
        "{b:>3} {d:>5} {} {} {} {} {}{lb}\n",
        show(0),
        show(1),
        ratio(1),
        show(2),
        ratio(2)
    )
}

/// The δ values of Figure 2.
pub const FIG2_DELTAS: [f64; 5] = [1.0, 0.8, 0.6, 0.4, 0.2];

/// `fe-fig2`: decision quality against nodes for α/β and FE (on-line bounds, conditions (3)) with
/// each δ, search depths 1–10, on depth-10 trees with random branching of mean 5.
pub fn fig2(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(fig2_plan(options)?.as_ref(), 1, progress)
}

/// `fe-fig2` as units, one per trial (see [`crate::shard`]).
pub fn fig2_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    Ok(Box::new(FeTrials {
        experiment: FIG2.0,
        options: options.clone(),
        trials: trials(options, FIG2.0)?,
        cells: (1 + 2 * FIG2_DELTAS.len()) * FIG2_DEPTH,
        trial: fig2_trial,
        report: fig2_report,
    }))
}

/// Figure 2's depth: of the trees and of the deepest search.
const FIG2_DEPTH: usize = 10;

/// Trial `k` of Figure 2: per curve (alpha-beta, then FE in each reading with each δ), per depth.
fn fig2_trial(options: &ReproduceOptions, k: usize) -> Result<Vec<Cell>, ExperimentError> {
    const DEPTH: u32 = FIG2_DEPTH as u32;
    let t = tree(RandomTreeConfig::random(5, DEPTH as u16), options, k);
    let root = t.root();
    let reference = run(&t, &root, DEPTH, NoPruning).1;
    // cells[0] is alpha-beta, cells[1 + r·n + i] FE in READINGS[r] with FIG2_DELTAS[i].
    let n = FIG2_DELTAS.len();
    let mut cells = vec![[Cell::default(); FIG2_DEPTH]; 1 + 2 * n];
    for depth in 1..=DEPTH {
        let i = depth as usize - 1;
        cells[0][i].add(run(&t, &root, depth, NoPruning), reference);
        for (r, reading) in READINGS.into_iter().enumerate() {
            for (j, &delta) in FIG2_DELTAS.iter().enumerate() {
                let fe = online(delta, reading)?;
                cells[1 + r * n + j][i].add(run(&t, &root, depth, fe), reference);
            }
        }
    }
    Ok(cells.concat())
}

/// Figure 2 from the sums of every trial's cells.
fn fig2_report(options: &ReproduceOptions, trials: usize, sums: &[Cell]) -> Report {
    const DEPTH: u32 = FIG2_DEPTH as u32;
    let n = FIG2_DELTAS.len();
    let mut cells = [[Cell::default(); FIG2_DEPTH]; 1 + 2 * FIG2_DELTAS.len()];
    for (curve, sums) in cells.iter_mut().zip(sums.chunks(FIG2_DEPTH)) {
        curve.copy_from_slice(sums);
    }
    let mut report = Report {
        text: format!(
        "Zhang 1995, Figure 2: forward estimation as selective search (on-line bounds, conditions (3)), random trees d = 10, \
         mean b = 5, {trials} trials (paper: 1000).\nEach cell: decision quality % / mean nodes generated; FE in the literal \
         reading, then FE-NC in the node-cut reading.\n"
    ),
        ..Report::default()
    };
    let labels: Vec<String> = std::iter::once("AB".to_string())
        .chain(FIG2_DELTAS.iter().map(|d| format!("FE-{d:.1}")))
        .chain(FIG2_DELTAS.iter().map(|d| format!("FE-NC-{d:.1}")))
        .collect();
    for r in 0..READINGS.len() {
        // Alpha-beta, then this reading's curves.
        let columns: Vec<usize> = std::iter::once(0)
            .chain(1 + r * n..1 + (r + 1) * n)
            .collect();
        report.text += &fig2_block(&cells, &columns, &labels, trials);
    }
    for i in 0..DEPTH as usize {
        for (j, curve) in cells.iter().enumerate() {
            let c = curve[i];
            let (algorithm, delta) = match j {
                0 => ("alphabeta".to_string(), serde_json::Value::Null),
                j => {
                    let reading = READINGS[(j - 1) / n];
                    (
                        format!("fe{}", suffix(reading)),
                        json!(FIG2_DELTAS[(j - 1) % n]),
                    )
                }
            };
            report.rows.push(json!({
                "depth": i + 1,
                "algorithm": algorithm,
                "delta": delta,
                "decision_quality": round(c.quality(trials), 1),
                "nodes": round(c.mean_nodes(trials), 1),
            }));
        }
    }
    report.text += "\nThe paper gives Figure 2 only as a plot: FE-1.0 lies left of AB at equal quality and reaches 100% at depth 10; \
                    FE with delta < 1 trades quality for nodes, FE-0.2 too much.\n";
    if options.svg {
        let chart = Chart {
            title: "Forward estimation as selective search (d=10, b=5)".into(),
            x_label: "number of nodes generated".into(),
            y_label: "decision quality (%)".into(),
            x_log: true,
            series: cells
                .iter()
                .zip(&labels)
                .map(|(curve, label)| Series {
                    name: label.clone(),
                    points: curve
                        .iter()
                        .map(|c| (c.mean_nodes(trials), c.quality(trials)))
                        .collect(),
                    dashed: label == "AB",
                })
                .collect(),
            ..Chart::default()
        };
        report.svg = Some(chart.to_svg());
    }
    report
}

/// One block of Figure 2's table: the given curves (indexes into `cells` and `labels`) by depth.
fn fig2_block(cells: &[[Cell; 10]], columns: &[usize], labels: &[String], trials: usize) -> String {
    let mut text = format!("\n{:>5}", "depth");
    for &j in columns {
        text += &format!(" | {:>18}", labels[j]);
    }
    text.push('\n');
    for (depth, _) in cells[0].iter().enumerate() {
        text += &format!("{:>5}", depth + 1);
        for &j in columns {
            let c = cells[j][depth];
            text += &format!(
                " | {:5.1} / {:10.1}",
                c.quality(trials),
                c.mean_nodes(trials)
            );
        }
        text.push('\n');
    }
    text
}

/// Depth of the game trees of Figure 3(a).
pub const FIG3_TREE_DEPTH: u16 = 100;
/// Pairs of games per tournament in the paper.
pub const FIG3_PAIRS: usize = 100;
/// δ of the forward-estimation player in Figure 3(a).
pub const FIG3_DELTA: f64 = 0.5;
/// The protocol stops once alpha-beta's horizon would pass this depth. The paper's axis reaches 10;
/// 8 keeps a default run within minutes (a tournament at horizon 10 costs ~10^10 nodes).
pub const FIG3_MAX_AB_HORIZON: u32 = 8;

/// Plays one game on `tree` from the root to a leaf; FE plays MAX iff `fe_is_max`. Each side searches
/// to its horizon (nodes beyond the leaves simply do not exist). Returns the leaf's cost (the outcome,
/// MAX's view) and the nodes each side generated.
fn play_game(
    tree: &RandomTree,
    fe_is_max: bool,
    fe_horizon: u32,
    ab_horizon: u32,
) -> Result<(i32, u64, u64), ExperimentError> {
    let (mut node, mut fe_nodes, mut ab_nodes) = (tree.root(), 0, 0);
    while node.branching() > 0 {
        let mv = if node.is_max() == fe_is_max {
            let (nodes, mv) = run(
                tree,
                &node,
                fe_horizon,
                online(FIG3_DELTA, Reading::Literal)?,
            );
            fe_nodes += nodes;
            mv
        } else {
            let (nodes, mv) = run(tree, &node, ab_horizon, NoPruning);
            ab_nodes += nodes;
            mv
        };
        // A non-leaf always yields a move: α/β searches at least its first child.
        node = tree.child(&node, mv.unwrap_or(0));
    }
    Ok((node.cost(), fe_nodes, ab_nodes))
}

/// The paper's pairs: each tree played twice with the players swapping MAX; the winner is whoever
/// played MAX when the larger outcome came, a tie if the outcomes are equal.
fn tournament(
    options: &ReproduceOptions,
    pairs: usize,
    fe_horizon: u32,
    ab_horizon: u32,
) -> Result<Tournament, ExperimentError> {
    let config = RandomTreeConfig::random(5, FIG3_TREE_DEPTH);
    let mut t = Tournament::new(fe_horizon, ab_horizon);
    for k in 0..pairs {
        let tree = tree(config, options, k);
        let (fe_max, fe1, ab1) = play_game(&tree, true, fe_horizon, ab_horizon)?;
        let (ab_max, fe2, ab2) = play_game(&tree, false, fe_horizon, ab_horizon)?;
        t.fe_nodes += fe1 + fe2;
        t.ab_nodes += ab1 + ab2;
        t.record_pair(fe_max.cmp(&ab_max));
    }
    Ok(t)
}

/// `fe-fig3a`: FE (on-line bounds, δ = 0.5) against α/β on random trees of depth 100 with mean
/// branching 5, by the paper's protocol: both start at horizon 1; after each tournament, whichever
/// side generated fewer nodes in total searches one ply deeper in the next (on a tie, FE: at horizon 1
/// both generate exactly the root's children). For each α/β horizon `h`, **MORE** is the tournament
/// in which FE, one step deeper, first generated more nodes than α/β at `h`; **LESS** is FE one ply
/// shallower than MORE against the same `h` (played separately if the protocol skipped it). Every
/// tournament plays the same `--games` (default 100) trees. Win rate counts a tied pair as half.
pub fn fig3a(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let pairs = match options.games.or(options.trials).unwrap_or(FIG3_PAIRS) {
        0 => {
            return Err(ExperimentError::InvalidOption {
                experiment: FIG3A.0,
                message: "--games must be at least 1".into(),
            })
        }
        n => n,
    };
    let mut play = |fe_h, ab_h| tournament(options, pairs, fe_h, ab_h);
    // FE's horizon cannot run away: its node counts grow with depth, and a cap bounds the loop anyway.
    let played = play_protocol(FIG3_MAX_AB_HORIZON, 12, &mut play, progress)?;
    let mut report = Report {
        text: format!(
        "Zhang 1995, Figure 3(a): FE (on-line bounds, delta = {FIG3_DELTA}) vs alpha-beta, random trees d = {FIG3_TREE_DEPTH}, mean b = 5, {pairs} pairs of games per tournament (paper: 100).

Tournaments in the order played:
{:>4} {:>4} {:>8} {:>5} {:>5} {:>5} {:>14} {:>14}
",
        "FE h", "AB h", "FE win%", "FE", "AB", "ties", "FE nodes", "AB nodes"
    ),
        ..Report::default()
    };
    for t in &played {
        report.text += &format!(
            "{:>4} {:>4} {:>8.1} {:>5} {:>5} {:>5} {:>14} {:>14}
",
            t.fe_horizon,
            t.ab_horizon,
            t.win_rate(),
            t.fe_wins,
            t.ab_wins,
            t.ties,
            t.fe_nodes,
            t.ab_nodes
        );
    }
    report.text += &format!(
        "
{:>4} {:>6} {:>10} {:>6} {:>10}
",
        "AB h", "MORE h", "MORE win%", "LESS h", "LESS win%"
    );
    let (mut more_curve, mut less_curve) = (Vec::new(), Vec::new());
    for Point {
        ab_horizon: h,
        more,
        less,
    } in points(&played, FIG3_MAX_AB_HORIZON, &mut play)?
    {
        report.text += &format!(
            "{h:>4} {:>6} {:>10.1} {:>6} {:>10}
",
            more.fe_horizon,
            more.win_rate(),
            less.map_or("-".into(), |t| t.fe_horizon.to_string()),
            less.map_or("-".into(), |t| format!("{:.1}", t.win_rate())),
        );
        more_curve.push((f64::from(h), more.win_rate()));
        let mut rows = vec![("more", more)];
        if let Some(less) = less {
            less_curve.push((f64::from(h), less.win_rate()));
            rows.push(("less", less));
        }
        for (curve, t) in rows {
            report.rows.push(json!({
                "ab_horizon": h, "curve": curve, "fe_horizon": t.fe_horizon,
                "win_rate": round(t.win_rate(), 1), "fe_wins": t.fe_wins, "ab_wins": t.ab_wins, "ties": t.ties,
                "fe_nodes": t.fe_nodes, "ab_nodes": t.ab_nodes,
            }));
        }
    }
    report.text += "
The paper gives Figure 3(a) only as a plot: FE-0.5(MORE) wins well above 50% from alpha-beta horizon 4 on; FE-0.5(LESS) is near or below 50% up to horizon 3, where both search to the same depth.
";
    if options.svg {
        let chart = Chart {
            title: format!(
                "FE (delta {FIG3_DELTA}) vs alpha-beta, random games d={FIG3_TREE_DEPTH}, b=5"
            ),
            x_label: "alpha-beta search horizon".into(),
            y_label: "winning rate of FE (%)".into(),
            series: vec![
                Series {
                    name: "FE-0.5 (MORE)".into(),
                    points: more_curve,
                    dashed: true,
                },
                Series {
                    name: "FE-0.5 (LESS)".into(),
                    points: less_curve,
                    dashed: false,
                },
            ],
            ..Chart::default()
        };
        report.svg = Some(chart.to_svg());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_trait::{Game, MoveOrdering};
    use search_core::Minimax;

    /// Orders children by their exact minimax value at the remaining depth (best first for the
    /// mover): perfect ordering, computed by brute force, for small trees only.
    struct Oracle;
    impl MoveOrdering<RandomTree> for Oracle {
        fn score(&mut self, game: &RandomTree, state: &Node, mv: u16, depth: u32) -> i32 {
            let child = game.child(state, mv);
            -Minimax::new(NodeCost, depth - 1)
                .search(game, &child, &Limits::none())
                .value
        }
    }

    #[test]
    fn perfect_ordering_generates_the_knuth_moore_minimal_tree() {
        for (b, d) in [(2u16, 6u16), (3, 5), (5, 4)] {
            for seed in 0..5 {
                let t = RandomTree::new(RandomTreeConfig::uniform(b, d).with_seed(seed)).unwrap();
                let r = AlphaBeta::new(NodeCost)
                    .with_config(AlphaBetaConfig::alpha_beta(u32::from(d)))
                    .with_ordering(Oracle)
                    .search(&t, &t.initial_state(), &Limits::none());
                let expected = perfect_ordering_nodes(u64::from(b), u32::from(d));
                assert_eq!(
                    (r.stats.generated - 1) as f64,
                    expected,
                    "b={b} d={d} seed={seed}"
                );
            }
        }
    }

    #[test]
    fn table1_quick_run_has_the_papers_shape() {
        let options = ReproduceOptions {
            trials: Some(20),
            ..ReproduceOptions::default()
        };
        let report = table1(&options, &mut |_, _| {}).unwrap();
        assert_eq!(report.rows.len(), 50);
        let row = |d: u64, a: &str| {
            report
                .rows
                .iter()
                .find(|r| r["depth"] == d && r["algorithm"] == a)
                .unwrap()
                .clone()
        };
        // Depth 1: every algorithm generates the root's 5 children and nothing else.
        let algorithms = [
            "fe-exact",
            "fe-learned",
            "alphabeta",
            "fe-exact-node-cut",
            "fe-learned-node-cut",
        ];
        for a in algorithms {
            assert_eq!(row(1, a)["nodes"], 5.0);
            assert_eq!(row(10, a)["decision_quality"], 100.0);
        }
        let nodes = |d: u64, a: &str| row(d, a)["nodes"].as_f64().unwrap();
        assert!(nodes(10, "fe-exact") < nodes(10, "alphabeta"));
        // The node-cut reading is alpha-beta at depth 2, as the paper's FE is, and saves more below.
        assert_eq!(nodes(2, "fe-exact-node-cut"), nodes(2, "alphabeta"));
        assert!(nodes(2, "fe-exact") < nodes(2, "alphabeta"));
        assert!(nodes(10, "fe-exact-node-cut") < nodes(10, "fe-exact"));
        let last = row(10, "fe-exact");
        let keys: Vec<&String> = last.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["algorithm", "decision_quality", "depth", "nodes"]);
    }
}

//! [`UctConfig::solver`](super::UctConfig::solver): the tree records the subtrees its simulations
//! have explored completely, with their exact values, and selection uses them.
//!
//! Koriche, Lagrue, Piette and Tabary (*General Game Playing with Stochastic CSP*, 2016) gave the
//! UCT they played against "a cache allowing it to know in advance the subtrees already
//! explored", and say no more. Our reading is that of MCTS-Solver (Winands, Björnsson and Saito,
//! *Monte-Carlo Tree Search Solver*, 2008), generalised to chance and to `n` players:
//!
//! - a finished game's node is exact, its value the payoffs;
//! - a `Player(p)` node is exact once one of its children is exact and worth 1 to `p` (nothing
//!   beats it), or once every child is exact: its value is the child best for `p`, the first of
//!   equals;
//! - a `Chance` node is exact once every outcome's child is, its value their expectation;
//! - a `Simultaneous` node is exact once every joint move's child (and chance outcome's) is, if at
//!   most one player has a choice there or every outcome pays the players alike (a cooperative
//!   game): a maximum does not solve a matrix game.
//!
//! A simulation that reaches an exact node stops there and backs up its value. At a `Player`
//! node an edge whose child is exact has a confidence interval of width zero: its UCB1 index is
//! its value alone. The value of the best policy is what this computes (the player to move
//! choosing its best child), which is also what the MAC-UCB player of the same paper backs up.

use game_trait::Turn;

use super::tree::{NodeId, NONE};
use super::{PlayoutPolicy, Run};
use game_trait::GeneralGame;

/// A rounding margin for values in `[0, 1]`.
const EPSILON: f64 = 1e-9;

impl<G: GeneralGame, P: PlayoutPolicy<G>> Run<'_, G, P> {
    /// Settles the nodes of the simulation's path from the deepest up, until one is not exact.
    pub(super) fn settle_path(&mut self) {
        for i in (0..self.path.len()).rev() {
            let node = self.path[i].0;
            if !self.tree.exact.contains_key(&node) && !self.settle(node) {
                return;
            }
        }
    }

    /// Records the exact value of the finished game at `node`, whose payoffs were just read.
    pub(super) fn settle_finished(&mut self, node: NodeId) {
        self.tree.exact.insert(node, self.payoffs.clone().into());
    }

    /// The exact value of `node`'s child `child`, if it has one.
    pub(super) fn exact_child(&self, child: NodeId) -> Option<&[f64]> {
        (child != NONE)
            .then(|| self.tree.exact.get(&child).map(|v| &**v))
            .flatten()
    }

    /// Gives `node` its exact value if its children's give it; returns whether they do.
    fn settle(&mut self, node: NodeId) -> bool {
        let n = &self.tree.nodes[node as usize];
        if !n.expanded {
            return false;
        }
        let first = n.first_edge as usize;
        let edges = first..first + n.edge_count as usize;
        let value = match n.turn {
            Turn::Over => None,
            Turn::Player(p) => {
                let children = self.tree.edges[edges]
                    .iter()
                    .map(|e| self.exact_child(e.child));
                best_for(p, children, true)
            }
            Turn::Chance => {
                let mut value = vec![0.0; self.players];
                let all = self.tree.edges[edges].iter().all(|e| {
                    let Some(v) = self.exact_child(e.child) else {
                        return false;
                    };
                    value
                        .iter_mut()
                        .zip(v)
                        .for_each(|(x, v)| *x += e.probability * v);
                    true
                });
                all.then_some(value)
            }
            Turn::Simultaneous => self.joint_value(node).map(|(_, value)| value),
        };
        let settled = value.is_some();
        if let Some(value) = value {
            self.tree.exact.insert(node, value.into());
        }
        settled
    }

    /// The exact value of the `Simultaneous` node `node`, if every joint move's children are
    /// exact and its players' choices can be ranked (see the [module docs](self)), and the arms
    /// (one edge per player) of the joint move that gives it.
    pub(super) fn joint_value(&self, node: NodeId) -> Option<(Vec<usize>, Vec<f64>)> {
        let ranges: Vec<std::ops::Range<usize>> =
            (0..self.players).map(|p| self.tree.arms(node, p)).collect();
        let chance = self.tree.arms(node, self.players);
        let choosing: Vec<usize> = (0..self.players).filter(|&p| ranges[p].len() > 1).collect();
        // Every combination of the players' arms, as an odometer over their ranges.
        let mut index: Vec<usize> = ranges.iter().map(|r| r.start).collect();
        let mut combinations = Vec::new();
        loop {
            let mut value = vec![0.0; self.players];
            let outcomes: Vec<Option<usize>> = if chance.is_empty() {
                vec![None]
            } else {
                chance.clone().map(Some).collect()
            };
            for outcome in outcomes {
                let mut arms = index.clone();
                arms.extend(outcome);
                let code = self.code_of(node, &arms)?;
                let child = self.tree.joint_children.get(&(node, code)).copied()?;
                let v = self.exact_child(child)?;
                let p = outcome.map_or(1.0, |o| self.tree.edges[o].probability);
                value.iter_mut().zip(v).for_each(|(x, v)| *x += p * v);
            }
            combinations.push((index.clone(), value));
            let next = (0..index.len())
                .rev()
                .find(|&p| index[p] + 1 < ranges[p].end);
            let Some(p) = next else { break };
            index[p] += 1;
            for q in p + 1..index.len() {
                index[q] = ranges[q].start;
            }
        }
        let best = |p: usize| {
            let values = combinations.iter().map(|(_, v)| Some(&v[..]));
            let value = best_for(p, values, false)?;
            combinations.iter().find(|(_, v)| *v == value).cloned()
        };
        match choosing[..] {
            [] => combinations.into_iter().next(),
            [p] => best(p),
            _ => {
                let alike =
                    |(_, v): &(Vec<usize>, Vec<f64>)| v.iter().all(|x| (x - v[0]).abs() < EPSILON);
                if combinations.iter().all(alike) {
                    best(0)
                } else {
                    None
                }
            }
        }
    }

    /// The mixed-radix code of the joint move whose arms (absolute edge indices, one per player
    /// and then the chance outcome if chance moves) are `arms`: as [`Run::joint_code`] computes
    /// it for a simulation's path.
    fn code_of(&self, node: NodeId, arms: &[usize]) -> Option<u64> {
        let mut code = 0u64;
        let mut radix = 1u64;
        for (p, &edge) in arms.iter().enumerate() {
            let range = self.tree.arms(node, p);
            let digit = (edge - range.start) as u64;
            code = code.checked_add(digit.checked_mul(radix)?)?;
            radix = radix.checked_mul(range.len() as u64)?;
        }
        Some(code)
    }
}

/// The value best for player `p` among `children` (the first of equals): one worth 1 to `p` as
/// soon as it is known when `early`, else once every child is known.
fn best_for<'v>(
    p: usize,
    children: impl Iterator<Item = Option<&'v [f64]>>,
    early: bool,
) -> Option<Vec<f64>> {
    let mut best: Option<&[f64]> = None;
    let mut all = true;
    for child in children {
        match child {
            Some(v) if early && v[p] >= 1.0 - EPSILON => return Some(v.to_vec()),
            Some(v) if best.map_or(true, |b| v[p] > b[p]) => best = Some(v),
            Some(_) => {}
            None => all = false,
        }
    }
    if all {
        best.map(<[f64]>::to_vec)
    } else {
        None
    }
}

//! UCB at the nodes of the tree (Section 4.3): which arm a sample takes, and which arm the search
//! plays.
//!
//! - At a node where one player chooses (its turn, or a simultaneous round where the others have
//!   one action each), the arm that maximises `ū_i + c·√(ln n / n_i)` for that player: `ū_i`
//!   its mean (exact once known), `n_i` its samples, `n` the samples of the node's live arms; an
//!   arm never sampled first, ties broken at random.
//! - At a chance node, its one arm.
//! - Where several players choose at once, each runs UCB over its own actions, their
//!   statistics summed over the arms holding them (decoupled UCB, as our UCT plays such rounds);
//!   a joint arm valued by one player's reward would have the others play for that player. The
//!   arm of the players' choices is taken, or, if the threshold removed it, the live arm whose
//!   actions' indices sum highest.

use game_trait::{GeneralGame, Turn};
use rand::Rng;

use super::tree::Node;
use super::Search;
use crate::player::config::FinalChoice;

impl<G: GeneralGame, E: crate::encoding::Encoding<G>> Search<'_, G, E> {
    /// The arm a sample takes at `node` (which has a live arm).
    pub(super) fn select(&mut self, node: u32) -> u32 {
        let players = self.game.players();
        let c = self.config.exploration;
        let n = &self.tree.nodes[node as usize];
        let rng = &mut self.rng;
        let arm = match chooser(n, players) {
            Some(p) => best(n.live(), |a| arm_index(n, a, p, c), rng),
            None if n.turn == Turn::Chance => 0,
            None => {
                let choices: Vec<u32> = (0..players)
                    .map(|p| {
                        let actions = own_actions(n, p);
                        let i = best(0..actions.len(), |i| actions[i].index(c, total(n)), rng);
                        actions[i].action
                    })
                    .collect();
                let exact = n.live().find(|&a| *n.arms[a].joint == *choices);
                exact.unwrap_or_else(|| {
                    let sum = |a: usize| {
                        (0..players)
                            .map(|p| {
                                let actions = own_actions(n, p);
                                let own = actions.iter().find(|s| s.action == n.arms[a].joint[p]);
                                own.map_or(0.0, |s| s.index(c, total(n)))
                            })
                            .sum::<f64>()
                    };
                    best(n.live(), sum, rng)
                })
            }
        };
        arm as u32
    }
}

/// The player whose reward the arms of `node` maximise: the one at its turn, or the only one with
/// a choice in a simultaneous round; `None` at chance nodes and where several choose.
pub(super) fn chooser(node: &Node, players: usize) -> Option<usize> {
    match node.turn {
        Turn::Player(p) => Some(p),
        Turn::Simultaneous => match node.choosers(players)[..] {
            [p] => Some(p),
            [] => Some(0),
            _ => None,
        },
        Turn::Chance | Turn::Over => None,
    }
}

/// Samples of the node's live arms.
fn total(node: &Node) -> u64 {
    node.live().map(|a| node.arms[a].visits).sum()
}

/// UCB's index of arm `a` for player `p`: infinite before its first sample; once it is known
/// exactly, its value alone, the width of a confidence interval around a value known for certain
/// being zero. So a sample takes an exact arm only while no other arm's index reaches its value,
/// and then backs up that value, which is what the node is worth if that arm is the best.
fn arm_index(node: &Node, a: usize, p: usize, c: f64) -> f64 {
    let arm = &node.arms[a];
    match (&arm.exact, arm.mean(p)) {
        (Some(exact), _) => exact[p],
        (None, None) => f64::INFINITY,
        (None, Some(mean)) => {
            mean + c * ((total(node).max(1) as f64).ln() / arm.visits as f64).sqrt()
        }
    }
}

/// One player's action at a node, with the statistics of the live arms holding it.
struct Own {
    action: u32,
    visits: u64,
    sum: f64,
}

impl Own {
    fn index(&self, c: f64, total: u64) -> f64 {
        if self.visits == 0 {
            return f64::INFINITY;
        }
        let mean = self.sum / self.visits as f64;
        mean + c * ((total.max(1) as f64).ln() / self.visits as f64).sqrt()
    }
}

/// Player `p`'s actions among the node's live arms, in order of first appearance.
fn own_actions(node: &Node, p: usize) -> Vec<Own> {
    let mut own: Vec<Own> = Vec::new();
    for a in node.live() {
        let arm = &node.arms[a];
        let action = arm.joint[p];
        let i = match own.iter().position(|o| o.action == action) {
            Some(i) => i,
            None => {
                own.push(Own {
                    action,
                    visits: 0,
                    sum: 0.0,
                });
                own.len() - 1
            }
        };
        own[i].visits += arm.visits;
        own[i].sum += arm.mean(p).map_or(0.0, |m| m * arm.visits as f64);
    }
    own
}

/// The candidate with the greatest key, ties broken uniformly at random.
fn best(
    candidates: impl Iterator<Item = usize>,
    key: impl Fn(usize) -> f64,
    rng: &mut impl Rng,
) -> usize {
    let mut best = Vec::new();
    let mut top = f64::NEG_INFINITY;
    for i in candidates {
        let k = key(i);
        if k > top {
            top = k;
            best.clear();
        }
        if k == top {
            best.push(i);
        }
    }
    match best.len() {
        0 => 0,
        1 => best[0],
        n => best[rng.gen_range(0..n)],
    }
}

/// The arm the search plays at the root, for `player`: the best exact one once the root is known
/// exactly, else the arm `choice` picks among the live ones (ties: the first). Where several
/// players choose, `choice` picks `player`'s action by its summed statistics, and the arm is that
/// action's most sampled one.
pub(super) fn final_arm(
    node: &Node,
    player: usize,
    players: usize,
    choice: FinalChoice,
    c: f64,
) -> usize {
    if node.exact.is_some() {
        // Removed arms are exact too, and never better than the best live one.
        let value = |a: usize| node.arms[a].exact.as_ref().map_or(-1.0, |e| e[player]);
        return first_best(node.live(), |a| (value(a), 0.0));
    }
    if node.turn == Turn::Simultaneous && chooser(node, players).is_none() {
        let own = own_actions(node, player);
        let mean = |i: usize| own[i].sum / own[i].visits.max(1) as f64;
        let visits = |i: usize| own[i].visits as f64;
        let i = match choice {
            FinalChoice::UcbIndex => {
                first_best(0..own.len(), |i| (own[i].index(c, total(node)), 0.0))
            }
            FinalChoice::Mean => first_best(0..own.len(), |i| (mean(i), visits(i))),
            FinalChoice::MostSampled => first_best(0..own.len(), |i| (visits(i), mean(i))),
        };
        let holding = node
            .live()
            .filter(|&a| node.arms[a].joint[player] == own[i].action);
        return first_best(holding, |a| (node.arms[a].visits as f64, 0.0));
    }
    let mean = |a: usize| node.arms[a].mean(player).unwrap_or(0.0);
    let visits = |a: usize| node.arms[a].visits as f64;
    match choice {
        FinalChoice::UcbIndex => first_best(node.live(), |a| (arm_index(node, a, player, c), 0.0)),
        FinalChoice::Mean => first_best(node.live(), |a| (mean(a), visits(a))),
        FinalChoice::MostSampled => first_best(node.live(), |a| (visits(a), mean(a))),
    }
}

/// The first candidate with the greatest key, compared lexicographically.
fn first_best(candidates: impl Iterator<Item = usize>, key: impl Fn(usize) -> (f64, f64)) -> usize {
    let mut best: Option<(usize, (f64, f64))> = None;
    for i in candidates {
        let k = key(i);
        if best.map_or(true, |(_, b)| k > b) {
            best = Some((i, k));
        }
    }
    best.map_or(0, |(i, _)| i)
}

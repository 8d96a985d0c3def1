//! The tree of solved networks: a node per state whose network was solved (or whose value is
//! known: a finished game, the horizon), an arm per feasible joint action, a child per chance
//! outcome; UCB's statistics on the arms; and the exact values of completely explored subtrees.
//!
//! Nodes are found by their state's key (its values and the rounds left to the horizon, as the
//! cache of explored states keys them), so a state reached along two paths is one node: the tree
//! is a graph. A node's value depends only on its state, so sharing is sound; a game whose states
//! repeat (Pig, where a turn can bank nothing) makes cycles, which a descent breaks by never
//! entering a node already on its path.

use std::collections::HashMap;

use game_trait::Turn;

use game_trait::hash::BuildPrehashed;

/// Index of a node in [`Tree::nodes`].
pub(super) type NodeId = u32;

/// A child not known yet.
pub(super) const UNKNOWN: NodeId = NodeId::MAX;

/// A rounding margin for comparing values in `[0, 1]`.
const EPSILON: f64 = 1e-9;

/// One state of the tree.
#[derive(Debug)]
pub(super) struct Node {
    /// Who acts here.
    pub turn: Turn,
    /// Chance's outcomes here, as (value of the chance variable, probability); empty when chance
    /// does not move.
    pub chance: Box<[(u32, f64)]>,
    /// The joint actions of the network's solutions (exact ones the threshold removed stay,
    /// marked `removed`).
    pub arms: Vec<Arm>,
    /// The node's value for every player, once it is known exactly.
    pub exact: Option<Box<[f64]>>,
    /// Whether the arms stand for every legal joint action (some possibly removed on exact
    /// values), which an exact value needs: false after a fallback to the rules' moves on a
    /// network cut short, or a joint action removed on an estimate.
    pub complete: bool,
    /// Samples that went through the node, and their summed values for every player.
    pub visits: u64,
    pub sum: Box<[f64]>,
    /// Whether the current descent passed through the node.
    pub on_path: bool,
}

/// One joint action of a node.
#[derive(Debug)]
pub(super) struct Arm {
    /// Its action values, one per player (those not asked: whatever the solution gave them).
    pub joint: Box<[u32]>,
    /// Samples drawn through it, and their summed values for every player.
    pub visits: u64,
    pub sum: Box<[f64]>,
    /// The child after each chance outcome (one child when chance does not move).
    pub children: Box<[NodeId]>,
    /// Its value for every player, once every child's is known exactly.
    pub exact: Option<Box<[f64]>>,
    /// Whether the threshold removed it.
    pub removed: bool,
}

impl Arm {
    /// An arm for `joint` with `outcomes` children, none known.
    pub(super) fn new(joint: Vec<u32>, outcomes: usize, players: usize) -> Arm {
        Arm {
            joint: joint.into(),
            visits: 0,
            sum: vec![0.0; players].into(),
            children: vec![UNKNOWN; outcomes.max(1)].into(),
            exact: None,
            removed: false,
        }
    }

    /// Player `p`'s mean: exact once known, else the samples' (`None` before any sample).
    pub(super) fn mean(&self, p: usize) -> Option<f64> {
        match &self.exact {
            Some(exact) => Some(exact[p]),
            None => (self.visits > 0).then(|| self.sum[p] / self.visits as f64),
        }
    }

    /// Every player's mean, as [`Arm::mean`].
    pub(super) fn means(&self) -> Option<Vec<f64>> {
        (0..self.sum.len()).map(|p| self.mean(p)).collect()
    }
}

impl Node {
    /// A node whose value is known without solving anything: a finished game, or the horizon.
    pub(super) fn known(turn: Turn, value: &[f64]) -> Node {
        Node {
            turn,
            chance: Box::new([]),
            arms: Vec::new(),
            exact: Some(value.into()),
            complete: true,
            visits: 0,
            sum: vec![0.0; value.len()].into(),
            on_path: false,
        }
    }

    /// The arms UCB may pick: those the threshold left.
    pub(super) fn live(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.arms.len()).filter(|&a| !self.arms[a].removed)
    }

    /// The players with more than one action among the arms.
    pub(super) fn choosers(&self, players: usize) -> Vec<usize> {
        (0..players)
            .filter(|&p| {
                self.arms
                    .iter()
                    .any(|a| a.joint[p] != self.arms[0].joint[p])
            })
            .collect()
    }

    /// The node's exact value if its arms' values give it (see [`Tree::settle`]).
    fn settled_value(&self, players: usize) -> Option<Box<[f64]>> {
        if !self.complete || self.arms.is_empty() {
            return None;
        }
        let best_for = |p: usize| -> Option<Box<[f64]>> {
            // An arm worth the most a payoff can be is the best, whatever the others are worth.
            let top = self.arms.iter().filter_map(|a| a.exact.as_ref());
            if let Some(win) = top.clone().find(|v| v[p] >= 1.0 - EPSILON) {
                return Some(win.clone());
            }
            let all: Option<Vec<&Box<[f64]>>> =
                self.arms.iter().map(|a| a.exact.as_ref()).collect();
            let all = all?;
            let best = all
                .iter()
                .fold(None::<&Box<[f64]>>, |b, v| match b {
                    Some(b) if b[p] >= v[p] => Some(b),
                    _ => Some(v),
                })
                .expect("a node has an arm");
            Some(best.clone())
        };
        match self.turn {
            Turn::Over => None,
            Turn::Chance => self.arms[0].exact.clone(),
            Turn::Player(p) => best_for(p),
            Turn::Simultaneous => match self.choosers(players)[..] {
                [] => self.arms[0].exact.clone(),
                [p] => best_for(p),
                // Several players choosing at once play a matrix game, which a maximum does not
                // solve; when every outcome pays all players alike (a cooperative game) it does.
                _ => {
                    let alike = |a: &Arm| {
                        let e = a.exact.as_ref();
                        e.is_some_and(|e| e.iter().all(|x| (x - e[0]).abs() < EPSILON))
                    };
                    if self.arms.iter().all(alike) {
                        best_for(0)
                    } else {
                        None
                    }
                }
            },
        }
    }
}

/// The tree of one game, kept across searches.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub(super) nodes: Vec<Node>,
    /// The node of each state key.
    index: HashMap<u64, NodeId, BuildPrehashed>,
    /// What the nodes take, as [`Tree::footprint`] counts it.
    bytes: usize,
}

impl Tree {
    /// The node of the state with key `key`.
    pub(super) fn find(&self, key: u64) -> Option<NodeId> {
        self.index.get(&key).copied()
    }

    /// Adds `node` for the state with key `key` and returns it.
    pub(super) fn add(&mut self, key: u64, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.bytes += footprint(&node);
        self.nodes.push(node);
        self.index.insert(key, id);
        id
    }

    /// Replaces the arms of `node` (a root solved again), keeping the statistics and children of
    /// the joint actions it had.
    pub(super) fn replace_arms(&mut self, node: NodeId, mut arms: Vec<Arm>, complete: bool) {
        let n = &mut self.nodes[node as usize];
        self.bytes -= footprint(n);
        for arm in &mut arms {
            if let Some(old) = n.arms.iter_mut().find(|o| o.joint == arm.joint) {
                let removed = arm.removed;
                std::mem::swap(arm, old);
                arm.removed = removed;
            }
        }
        n.arms = arms;
        n.complete = complete;
        n.exact = None;
        self.bytes += footprint(n);
    }

    /// Bytes the nodes take (an estimate: their fields, arms, children and index entries).
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Records that a sample through `node` and its arm `arm` (if any) was worth `value`.
    pub(super) fn record(&mut self, node: NodeId, arm: Option<u32>, value: &[f64]) {
        let n = &mut self.nodes[node as usize];
        n.visits += 1;
        n.sum.iter_mut().zip(value).for_each(|(s, v)| *s += v);
        if let Some(a) = arm {
            let a = &mut n.arms[a as usize];
            a.visits += 1;
            a.sum.iter_mut().zip(value).for_each(|(s, v)| *s += v);
        }
    }

    /// Gives arm `arm` of `node` its exact value if every child's is known, then the node its
    /// own if its arms give it; returns whether the node became exact. `players` is the game's
    /// number of players.
    pub(super) fn settle(&mut self, node: NodeId, arm: u32, players: usize) -> bool {
        let n = &self.nodes[node as usize];
        if n.exact.is_some() {
            return false;
        }
        let a = &n.arms[arm as usize];
        if a.exact.is_none() {
            let weights: Vec<f64> = if n.chance.is_empty() {
                vec![1.0]
            } else {
                n.chance.iter().map(|&(_, p)| p).collect()
            };
            let mut value = vec![0.0; players];
            for (&child, w) in a.children.iter().zip(weights) {
                let Some(v) = self.exact_of(child) else {
                    return false;
                };
                value
                    .iter_mut()
                    .zip(v.iter())
                    .for_each(|(x, v)| *x += w * v);
            }
            self.nodes[node as usize].arms[arm as usize].exact = Some(value.into());
        }
        let value = self.nodes[node as usize].settled_value(players);
        let settled = value.is_some();
        self.nodes[node as usize].exact = value;
        settled
    }

    /// The exact value of `child`, if it is a node whose value is known.
    fn exact_of(&self, child: NodeId) -> Option<&[f64]> {
        (child != UNKNOWN)
            .then(|| self.nodes[child as usize].exact.as_deref())
            .flatten()
    }

    /// Removes the arms of `node` whose exact value falls below `threshold` for one of
    /// `players_compared`, except the best exact arm (for `chooser`, else for its worst-off
    /// player): the threshold comes from an earlier estimate, and may be above every arm here.
    pub(super) fn prune(
        &mut self,
        node: NodeId,
        chooser: Option<usize>,
        threshold: &[f64],
        players_compared: &[usize],
    ) {
        let n = &mut self.nodes[node as usize];
        let worth = |a: &Arm| {
            let e = a.exact.as_ref().expect("an exact arm");
            chooser.map_or_else(|| e.iter().copied().fold(1.0, f64::min), |c| e[c])
        };
        let best = (0..n.arms.len())
            .filter(|&a| n.arms[a].exact.is_some())
            .max_by(|&a, &b| {
                worth(&n.arms[a])
                    .total_cmp(&worth(&n.arms[b]))
                    .then(b.cmp(&a))
            });
        for a in 0..n.arms.len() {
            let arm = &mut n.arms[a];
            let Some(exact) = &arm.exact else { continue };
            if Some(a) != best
                && players_compared
                    .iter()
                    .any(|&p| exact[p] < threshold[p] - EPSILON)
            {
                arm.removed = true;
            }
        }
    }
}

/// The bytes `node` takes, with its arms, their children and an index entry.
fn footprint(node: &Node) -> usize {
    let players = node.sum.len();
    let values = 8 * players;
    let arm = |a: &Arm| {
        std::mem::size_of::<Arm>() + 4 * a.joint.len() + 2 * values + 4 * a.children.len()
    };
    std::mem::size_of::<Node>()
        + 2 * values
        + 16 * node.chance.len()
        + node.arms.iter().map(arm).sum::<usize>()
        + 24
}

//! [`TreeGame`]: an explicit game tree with a mover and a static value on every node.

use game_trait::{Game, MoveList, Outcome, PlayerId, Score, ZeroSumGame};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A game whose positions are the nodes of an explicit tree. Nodes without children are finished
/// games; `value` is player 0's view (the evaluator's and the final result's source).
///
/// As a game its state is a node id (the root is 0) and its move the id of the child moved to.
#[derive(Clone, Debug)]
pub struct TreeGame {
    /// The nodes; the root is the first.
    pub nodes: Vec<TreeNode>,
}

/// A node of a [`TreeGame`].
#[derive(Clone, Debug)]
pub struct TreeNode {
    /// The ids of its children, in the order the game generates them.
    pub children: Vec<u32>,
    /// Its static value from player 0's point of view (the final result at a finished game).
    pub value: Score,
    /// The player to move there.
    pub mover: PlayerId,
}

impl TreeGame {
    /// A random tree: interior nodes to `depth` plies have 1..=`branching` children, except that a node
    /// above `depth` ends the game with probability 1/5. Every node at `depth` has one child more (so it
    /// is an *open* leaf when the tree is built to `depth`). Values in `-spread..=spread`.
    pub fn random(seed: u64, depth: u32, branching: u32, spread: Score) -> TreeGame {
        let mut rng = Pcg64::seed_from_u64(seed);
        let root_mover = rng.gen_range(0..2);
        let mut game = TreeGame { nodes: Vec::new() };
        game.grow(&mut rng, 0, depth, branching, spread, root_mover);
        game
    }

    /// A MAX root (player 0) over MIN nodes whose children are open leaves with the given values
    /// (player 0's view); each open leaf has one terminal child so that the game goes on below it.
    pub fn from_shape(shape: &[&[Score]]) -> TreeGame {
        let mut game = TreeGame {
            nodes: vec![TreeNode {
                children: vec![],
                value: 0,
                mover: 0,
            }],
        };
        for leaves in shape {
            let min = game.push(0, 1);
            game.nodes[0].children.push(min);
            for &value in leaves.iter() {
                let leaf = game.push(value, 0);
                game.nodes[min as usize].children.push(leaf);
                let below = game.push(value, 1);
                game.nodes[leaf as usize].children.push(below);
            }
        }
        game
    }

    fn push(&mut self, value: Score, mover: PlayerId) -> u32 {
        self.nodes.push(TreeNode {
            children: vec![],
            value,
            mover,
        });
        self.nodes.len() as u32 - 1
    }

    fn grow(
        &mut self,
        rng: &mut Pcg64,
        d: u32,
        depth: u32,
        branching: u32,
        spread: Score,
        mover: PlayerId,
    ) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(TreeNode {
            children: Vec::new(),
            value: rng.gen_range(-spread..=spread),
            mover,
        });
        let count = if d == depth {
            1
        } else if d > 0 && rng.gen_ratio(1, 5) {
            0
        } else {
            rng.gen_range(1..=branching)
        };
        for _ in 0..count {
            let child = if d == depth {
                self.leaf(rng, spread, 1 - mover)
            } else {
                self.grow(rng, d + 1, depth, branching, spread, 1 - mover)
            };
            self.nodes[id as usize].children.push(child);
        }
        id
    }

    fn leaf(&mut self, rng: &mut Pcg64, spread: Score, mover: PlayerId) -> u32 {
        self.nodes.push(TreeNode {
            children: Vec::new(),
            value: rng.gen_range(-spread..=spread),
            mover,
        });
        self.nodes.len() as u32 - 1
    }
}

impl Game for TreeGame {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        0
    }
    fn apply(&self, _: &mut u32, mv: u32) -> Option<u32> {
        Some(mv)
    }
    fn state_hash(&self, s: &u32) -> Option<u64> {
        Some(u64::from(*s))
    }
    fn state_hash_after(&self, _: &u32, mv: u32) -> Option<u64> {
        Some(u64::from(mv))
    }
}

impl ZeroSumGame for TreeGame {
    fn side_to_move(&self, s: &u32) -> PlayerId {
        self.nodes[*s as usize].mover
    }
    fn outcome(&self, s: &u32) -> Option<Outcome> {
        let n = &self.nodes[*s as usize];
        n.children
            .is_empty()
            .then(|| Outcome::margin_of(self.stored(*s)))
    }
    fn moves(&self, s: &u32, moves: &mut MoveList<u32>) {
        moves.extend(self.nodes[*s as usize].children.iter().copied());
    }
}

impl TreeGame {
    /// The value stored at `s`, from its side to move's view.
    pub fn stored(&self, s: u32) -> Score {
        let n = &self.nodes[s as usize];
        if n.mover == 0 {
            n.value
        } else {
            -n.value
        }
    }
}

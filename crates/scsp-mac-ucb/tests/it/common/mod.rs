//! Shared by the crate's tests: a game whose round is altered, and a small game of luck.

use game_trait::round::Round;
use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, RoundGame, Turn};

/// A game whose round is another's with one table changed.
pub struct Altered<G> {
    pub game: G,
    pub round: Round,
}

impl<G: RoundGame> Game for Altered<G> {
    type State = G::State;
    type Move = G::Move;
    fn initial_state(&self) -> G::State {
        self.game.initial_state()
    }
    fn apply(&self, state: &mut G::State, mv: G::Move) -> Option<G::State> {
        self.game.apply(state, mv)
    }
    fn undo(&self, state: &mut G::State, mv: G::Move) {
        self.game.undo(state, mv)
    }
}

impl<G: RoundGame> GeneralGame for Altered<G> {
    fn players(&self) -> usize {
        self.game.players()
    }
    fn turn(&self, state: &G::State) -> Turn {
        self.game.turn(state)
    }
    fn legal_moves(&self, state: &G::State, player: PlayerId, moves: &mut MoveList<G::Move>) {
        self.game.legal_moves(state, player, moves)
    }
    fn chance_outcomes(&self, state: &G::State, outcomes: &mut ChanceList<G::Move>) {
        self.game.chance_outcomes(state, outcomes)
    }
    fn play_joint(&self, state: &mut G::State, joint: &[G::Move]) {
        self.game.play_joint(state, joint)
    }
    fn payoff(&self, state: &G::State, player: PlayerId) -> f64 {
        self.game.payoff(state, player)
    }
}

impl<G: RoundGame> RoundGame for Altered<G> {
    fn round(&self) -> &Round {
        &self.round
    }
    fn state_values(&self, state: &G::State, values: &mut Vec<u32>) {
        self.game.state_values(state, values)
    }
    fn action(&self, player: Option<PlayerId>, value: u32) -> G::Move {
        self.game.action(player, value)
    }
    fn action_value(&self, player: Option<PlayerId>, mv: G::Move) -> u32 {
        self.game.action_value(player, mv)
    }
}

/// One player who moves, is lucky or not, then chooses: state 0 (`go`) → chance (good or bad, ½
/// each) → good {x: 1.0, y: 0.9} or bad {x: 0.5, y: 0.1} → the end. After `go` the best arm's
/// estimate is about (1.0 + 0.5) / 2, above every arm of the bad state.
#[derive(Clone, Debug)]
pub struct Luck {
    round: Round,
}

impl Luck {
    pub const START: u32 = 0;
    pub const BAD: u32 = 3;
    /// The best payoff from the bad state.
    pub const BAD_BEST: f64 = 0.5;
    pub const GO: u32 = 0;
    pub const X: u32 = 1;
    pub const Y: u32 = 2;
    const GOOD_FLIP: u32 = 10;
    const BAD_FLIP: u32 = 11;

    fn payoff(s: u32) -> f64 {
        match s {
            4 => 1.0,
            5 => 0.9,
            6 => 0.5,
            7 => 0.1,
            _ => 0.0,
        }
    }

    /// The successor of `s` after action `act` and chance value `luck` (0 good, 1 bad).
    fn next(s: u32, act: u32, luck: u32) -> u32 {
        match (s, act, luck) {
            (0, 0, _) => 1,
            (1, _, 0) => 2,
            (1, _, 1) => 3,
            (2 | 3, 1 | 2, _) => 2 * s + act - 1,
            (s, _, _) => s,
        }
    }

    pub fn new() -> Luck {
        use game_trait::round::{TableRole, VariableKind};
        let states = ["0", "1", "2", "3", "4", "5", "6", "7"];
        let mut r = Round::new(1);
        let g = r.variable("terminal", VariableKind::Terminal, &["no", "yes"]);
        let s = r.variable("s", VariableKind::State, &states);
        let a = r.variable("act", VariableKind::Action(0), &["go", "x", "y", "noop"]);
        let y = r.variable("luck", VariableKind::Chance, &["good", "bad", "none"]);
        let s2 = r.variable("s'", VariableKind::Next(s), &states);
        r.hard_table("terminal", TableRole::Terminal, &[s, g], |t| {
            (t[0] >= 4) == (t[1] == 1)
        });
        r.hard_table("legal", TableRole::Legal, &[s, a], |t| match t[0] {
            0 => t[1] == 0,
            2 | 3 => t[1] == 1 || t[1] == 2,
            _ => t[1] == 3,
        });
        r.hard_table("legal(luck)", TableRole::Legal, &[s, y], |t| {
            (t[0] == 1) == (t[1] < 2)
        });
        r.hard_table("next", TableRole::Next, &[s, a, y, s2], |t| {
            t[3] == Luck::next(t[0], t[1], t[2])
        });
        r.goal_table("goal", &[s], |t| {
            (t[0] >= 4).then(|| vec![Luck::payoff(t[0])])
        });
        Luck { round: r }
    }
}

impl Game for Luck {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        Luck::START
    }
    fn apply(&self, s: &mut u32, mv: u32) -> Option<u32> {
        Some(match mv {
            Luck::GOOD_FLIP | Luck::BAD_FLIP => Luck::next(*s, 3, mv - Luck::GOOD_FLIP),
            act => Luck::next(*s, act, 2),
        })
    }
}

impl GeneralGame for Luck {
    fn players(&self) -> usize {
        1
    }
    fn turn(&self, s: &u32) -> Turn {
        match s {
            0 | 2 | 3 => Turn::Player(0),
            1 => Turn::Chance,
            _ => Turn::Over,
        }
    }
    fn legal_moves(&self, s: &u32, _: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        match s {
            0 => moves.push(Luck::GO),
            2 | 3 => moves.extend([Luck::X, Luck::Y]),
            _ => {}
        }
    }
    fn chance_outcomes(&self, s: &u32, outcomes: &mut ChanceList<u32>) {
        outcomes.clear();
        if *s == 1 {
            outcomes.extend([(Luck::GOOD_FLIP, 0.5), (Luck::BAD_FLIP, 0.5)]);
        }
    }
    fn payoff(&self, s: &u32, _: PlayerId) -> f64 {
        Luck::payoff(*s)
    }
}

impl RoundGame for Luck {
    fn round(&self) -> &Round {
        &self.round
    }
    fn state_values(&self, s: &u32, values: &mut Vec<u32>) {
        values.clear();
        values.push(*s);
    }
    fn action(&self, player: Option<PlayerId>, value: u32) -> u32 {
        match player {
            Some(_) => value,
            None => Luck::GOOD_FLIP + value,
        }
    }
    fn action_value(&self, player: Option<PlayerId>, mv: u32) -> u32 {
        match player {
            Some(_) => mv,
            None => mv - Luck::GOOD_FLIP,
        }
    }
}

/// A small random game tree, two players, with chance nodes and payoffs drawn uniformly from
/// `[0, 1]` for each player (ties have probability 0): the state is a node, a move the place of
/// a child among its siblings.
/// Its round has one state variable (the node), an action variable per player and the chance
/// variable (each with a `noop` value last), and the tables its structure gives.
#[derive(Clone, Debug)]
pub struct RandomTree {
    pub nodes: Vec<TreeNode>,
    round: Round,
}

/// A node of a [`RandomTree`].
#[derive(Clone, Debug)]
pub enum TreeNode {
    /// Player `.0` chooses among the children.
    Decide(PlayerId, Vec<u32>),
    /// Chance draws a child uniformly.
    Chance(Vec<u32>),
    /// Every player's payoff.
    End([f64; 2]),
}

impl RandomTree {
    /// A tree from `seed`: up to `depth` levels, 1 to `width` children per inner node.
    pub fn new(seed: u64, depth: u32, width: u32) -> RandomTree {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut nodes = Vec::new();
        fn grow(
            nodes: &mut Vec<TreeNode>,
            rng: &mut rand_pcg::Pcg64,
            depth: u32,
            width: u32,
        ) -> u32 {
            let id = nodes.len() as u32;
            nodes.push(TreeNode::End([0.0; 2]));
            if depth == 0 || (id > 0 && rng.gen_bool(0.2)) {
                nodes[id as usize] = TreeNode::End([rng.gen(), rng.gen()]);
                return id;
            }
            let n = rng.gen_range(1..=width);
            let children = (0..n).map(|_| grow(nodes, rng, depth - 1, width)).collect();
            nodes[id as usize] = match rng.gen_range(0..3) {
                0 => TreeNode::Chance(children),
                p => TreeNode::Decide(p - 1, children),
            };
            id
        }
        grow(&mut nodes, &mut rng, depth, width);
        let round = RandomTree::describe(&nodes, width);
        RandomTree { nodes, round }
    }

    /// The round: `node` → actions of both players and chance → `node'`.
    fn describe(nodes: &[TreeNode], width: u32) -> Round {
        use game_trait::round::{TableRole, VariableKind};
        let names: Vec<String> = (0..nodes.len()).map(|i| format!("n{i}")).collect();
        let node_values: Vec<&str> = names.iter().map(String::as_str).collect();
        let moves: Vec<String> = (0..width)
            .map(|i| format!("m{i}"))
            .chain(["noop".into()])
            .collect();
        let move_values: Vec<&str> = moves.iter().map(String::as_str).collect();
        let noop = width;
        let mut round = Round::new(2);
        let terminal = round.variable("terminal", VariableKind::Terminal, &["no", "yes"]);
        let node = round.variable("node", VariableKind::State, &node_values);
        let a0 = round.variable("does(0)", VariableKind::Action(0), &move_values);
        let a1 = round.variable("does(1)", VariableKind::Action(1), &move_values);
        let y = round.variable("does(random)", VariableKind::Chance, &move_values);
        let next = round.variable("node'", VariableKind::Next(node), &node_values);
        let children = |n: u32| match &nodes[n as usize] {
            TreeNode::Decide(_, c) | TreeNode::Chance(c) => c.clone(),
            TreeNode::End(_) => Vec::new(),
        };
        // Who acts at a node, by variable: its moves, or `noop` alone.
        let legal = move |n: u32, who: Option<PlayerId>, a: u32| {
            let acts = match (&nodes[n as usize], who) {
                (TreeNode::Decide(p, _), Some(q)) => *p == q,
                (TreeNode::Chance(_), None) => true,
                _ => false,
            };
            if acts {
                a < children(n).len() as u32
            } else {
                a == noop && !matches!(nodes[n as usize], TreeNode::End(_))
            }
        };
        round.hard_table("terminal", TableRole::Terminal, &[node, terminal], |t| {
            u32::from(matches!(nodes[t[0] as usize], TreeNode::End(_))) == t[1]
        });
        for (who, var) in [(Some(0), a0), (Some(1), a1), (None, y)] {
            round.hard_table("legal", TableRole::Legal, &[node, var], move |t| {
                legal(t[0], who, t[1])
            });
        }
        round.hard_table("next", TableRole::Next, &[node, a0, a1, y, next], |t| {
            let picked = match &nodes[t[0] as usize] {
                TreeNode::Decide(0, c) => c.get(t[1] as usize),
                TreeNode::Decide(_, c) => c.get(t[2] as usize),
                TreeNode::Chance(c) => c.get(t[3] as usize),
                TreeNode::End(_) => None,
            };
            picked == Some(&t[4])
        });
        round.goal_table("goal", &[node, terminal], |t| match nodes[t[0] as usize] {
            TreeNode::End(payoffs) if t[1] == 1 => Some(payoffs.to_vec()),
            _ => None,
        });
        round
    }

    /// The value of `node` for both players: the mover's best child for the mover (the first of
    /// equals), chance's children averaged.
    pub fn expectimax(&self, node: u32) -> [f64; 2] {
        match &self.nodes[node as usize] {
            TreeNode::End(payoffs) => *payoffs,
            TreeNode::Chance(children) => {
                let values: Vec<[f64; 2]> = children.iter().map(|&c| self.expectimax(c)).collect();
                let n = values.len() as f64;
                [0, 1].map(|p| values.iter().map(|v| v[p]).sum::<f64>() / n)
            }
            TreeNode::Decide(p, children) => children
                .iter()
                .map(|&c| self.expectimax(c))
                .fold(None::<[f64; 2]>, |best, v| match best {
                    Some(b) if b[*p] >= v[*p] => Some(b),
                    _ => Some(v),
                })
                .expect("a decision has a child"),
        }
    }
}

impl Game for RandomTree {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        0
    }
    fn apply(&self, state: &mut u32, mv: u32) -> Option<u32> {
        match &self.nodes[*state as usize] {
            TreeNode::Decide(_, c) | TreeNode::Chance(c) => Some(c[mv as usize]),
            TreeNode::End(_) => None,
        }
    }
}

impl GeneralGame for RandomTree {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, state: &u32) -> Turn {
        match &self.nodes[*state as usize] {
            TreeNode::Decide(p, _) => Turn::Player(*p),
            TreeNode::Chance(_) => Turn::Chance,
            TreeNode::End(_) => Turn::Over,
        }
    }
    fn legal_moves(&self, state: &u32, player: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        if let TreeNode::Decide(p, children) = &self.nodes[*state as usize] {
            if *p == player {
                moves.extend(0..children.len() as u32);
            }
        }
    }
    fn chance_outcomes(&self, state: &u32, outcomes: &mut ChanceList<u32>) {
        outcomes.clear();
        if let TreeNode::Chance(children) = &self.nodes[*state as usize] {
            let p = 1.0 / children.len() as f64;
            outcomes.extend((0..children.len() as u32).map(|c| (c, p)));
        }
    }
    fn payoff(&self, state: &u32, player: PlayerId) -> f64 {
        match &self.nodes[*state as usize] {
            TreeNode::End(payoffs) => payoffs[player],
            _ => 0.0,
        }
    }
}

impl RoundGame for RandomTree {
    fn round(&self) -> &Round {
        &self.round
    }
    fn state_values(&self, state: &u32, values: &mut Vec<u32>) {
        values.clear();
        values.push(*state);
    }
    fn action(&self, _: Option<PlayerId>, value: u32) -> u32 {
        value
    }
    fn action_value(&self, _: Option<PlayerId>, mv: u32) -> u32 {
        mv
    }
}

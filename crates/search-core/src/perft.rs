//! [`perft`]: counting the leaves of a game tree, the standard test of a move generator.
//!
//! # Definition
//! `perft(s, 0) = 1`; a finished game counts 1 whatever the depth left; otherwise `perft(s, d)` is the
//! sum of `perft(child, d − 1)` over the moves of `s`, where a *move* is
//!
//! - at a [`Turn::Player`] node, one legal move of that player (a forced pass is a move);
//! - at a [`Turn::Chance`] node, one outcome of [`GeneralGame::chance_outcomes`] (probabilities are ignored:
//!   perft counts positions, not their likelihood);
//! - at a [`Turn::Simultaneous`] node, one *joint* move: an element of the cartesian product of every
//!   player's legal moves, times the chance outcomes when chance moves too.
//!
//! # Implementation
//! Depth-first with an explicit stack (deep trees cannot overflow the call stack), one frame per ply
//! holding that ply's move buffers, reused for the whole count: no allocation per node. Copy-make games
//! push the returned child; make/unmake games change the state in place and undo it on the way back;
//! simultaneous moves, which [`GeneralGame::play_joint`] applies in place without an undo, are played on a
//! clone. At depth 1 the moves are counted without being applied ("bulk counting"), which is what makes
//! perft fast enough for deep counts.
//!
//! # Cost
//! One move generation per node above the last ply, one applied move per node strictly between the
//! root and the last ply: for uniform branching `b`, `O(b^(d−1))` work for a count of `b^d` leaves;
//! `O(d)` memory.

use game_trait::{ChanceList, GeneralGame, MoveList, Turn};

/// Counts the leaves of the game tree `depth` plies below `state` ("perft").
///
/// `perft(s, 0) = 1`; a finished game counts 1 whatever the depth left; otherwise `perft(s, d)` is the
/// sum of `perft(child, d − 1)` over the moves of `s`, where a move is one legal move at a
/// [`Turn::Player`] node (a forced pass is a move), one outcome at a [`Turn::Chance`] node
/// (probabilities are ignored: perft counts positions), and one *joint* move at a
/// [`Turn::Simultaneous`] node: an element of the cartesian product of every player's legal moves,
/// times the chance outcomes when chance moves too.
///
/// Works with copy-make and make/unmake games alike; an explicit stack (no recursion) keeps deep
/// trees off the call stack, per-ply move buffers are reused (no allocation per node), and the last
/// ply is counted without applying its moves ("bulk counting"). Simultaneous moves are played on a
/// clone, since [`GeneralGame::play_joint`] has no undo.
///
/// Counts saturate at `u64::MAX` rather than overflow.
///
/// ```
/// # use game_trait::{Game, GeneralGame, MoveList, PlayerId, Turn};
/// /// Take 1 or 2 stones, alone, until none is left.
/// struct Solitaire;
/// impl Game for Solitaire {
///     type State = u32;
///     type Move = u32;
///     fn initial_state(&self) -> u32 { 4 }
///     fn apply(&self, s: &mut u32, take: u32) -> Option<u32> { Some(*s - take) }
/// }
/// impl GeneralGame for Solitaire {
///     fn players(&self) -> usize { 1 }
///     fn turn(&self, s: &u32) -> Turn { if *s == 0 { Turn::Over } else { Turn::Player(0) } }
///     fn legal_moves(&self, s: &u32, _: PlayerId, moves: &mut MoveList<u32>) {
///         moves.clear();
///         moves.extend((1..=2).filter(|&n| n <= *s));
///     }
///     fn payoff(&self, _: &u32, _: PlayerId) -> f64 { 1.0 }
/// }
/// // 4 → {3, 2} → {2, 1, 1, 0} → {1, 0, 0, 0, finished 0}
/// assert_eq!(search_core::perft(&Solitaire, &4, 0), 1);
/// assert_eq!(search_core::perft(&Solitaire, &4, 1), 2);
/// assert_eq!(search_core::perft(&Solitaire, &4, 2), 4);
/// assert_eq!(search_core::perft(&Solitaire, &4, 3), 5); // the finished game counts 1
/// assert_eq!(search_core::perft(&Solitaire, &4, 9), 5); // every complete game
/// ```
pub fn perft<G: GeneralGame>(game: &G, state: &G::State, depth: u32) -> u64 {
    Perft::new(game, state.clone()).count(depth)
}

/// [`perft`] split by the first move: one entry per move of `state` with the number of leaves below it,
/// in generation order, for finding which subtree a move generator gets wrong.
///
/// Each move is a joint move: one entry for a `Player` or `Chance` node, every player's move (then the
/// chance outcome, if chance moves too) at a `Simultaneous` node, as passed to [`GeneralGame::play_joint`].
/// Empty when `depth` is 0 or the game is over (there is no first move); otherwise the counts sum to
/// `perft(game, state, depth)`.
pub fn perft_divide<G: GeneralGame>(
    game: &G,
    state: &G::State,
    depth: u32,
) -> Vec<(Vec<G::Move>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut perft = Perft::new(game, state.clone());
    let mut root = Frame::default();
    let children = root.generate(game, &perft.states[0]);
    let mut divided = Vec::with_capacity(children.min(4096) as usize);
    for index in 0..children {
        let moves = root.joint_move(index, &mut perft.joint).to_vec();
        let made = make(game, &mut perft.states, &root, index, &mut perft.joint);
        let count = perft.count(depth - 1);
        perft.restore(made);
        divided.push((moves, count));
    }
    divided
}

/// The moves of one ply, reused across all the nodes at that ply.
struct Frame<M> {
    turn: Turn,
    /// `Player` and `Chance` nodes: that player's moves / the outcomes. Unused at `Simultaneous` nodes.
    moves: MoveList<M>,
    /// `Simultaneous` nodes: each player's legal moves.
    joint_moves: Vec<MoveList<M>>,
    /// Chance outcomes (at `Chance` nodes, and at `Simultaneous` nodes where chance moves too).
    outcomes: ChanceList<M>,
    /// Number of children of the node.
    children: u64,
    /// Next child to visit.
    next: u64,
    /// Depth left below this node.
    depth: u32,
    /// How this node was made from its parent, i.e. how to restore the parent on return; `None` for
    /// the node a count started from.
    made: Option<Made<M>>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            turn: Turn::Over,
            moves: MoveList::new(),
            joint_moves: Vec::new(),
            outcomes: ChanceList::new(),
            children: 0,
            next: 0,
            depth: 0,
            made: None,
        }
    }
}

impl<M: Copy> Frame<M> {
    /// Generates the moves of `state` and returns how many children it has (0 when the game is over).
    fn generate<G: GeneralGame<Move = M>>(&mut self, game: &G, state: &G::State) -> u64 {
        self.turn = game.turn(state);
        self.next = 0;
        self.children = match self.turn {
            Turn::Over => 0,
            Turn::Player(p) => {
                game.legal_moves(state, p, &mut self.moves);
                self.moves.len() as u64
            }
            Turn::Chance => {
                game.chance_outcomes(state, &mut self.outcomes);
                self.outcomes.len() as u64
            }
            Turn::Simultaneous => {
                let players = game.players();
                self.joint_moves.resize_with(players, MoveList::new);
                let mut product = 1u64;
                for (p, moves) in self.joint_moves.iter_mut().enumerate() {
                    game.legal_moves(state, p, moves);
                    product = product.saturating_mul(moves.len() as u64);
                }
                game.chance_outcomes(state, &mut self.outcomes);
                product.saturating_mul((self.outcomes.len() as u64).max(1))
            }
        };
        self.children
    }

    /// The joint move of child `index` at a `Simultaneous` node, decoded in mixed radix (player 0's
    /// move index varies fastest, the chance outcome slowest), written into `joint`. At other nodes the
    /// single move.
    fn joint_move<'j>(&self, index: u64, joint: &'j mut Vec<M>) -> &'j [M] {
        joint.clear();
        match self.turn {
            Turn::Player(_) => joint.push(self.moves[index as usize]),
            Turn::Chance => joint.push(self.outcomes[index as usize].0),
            Turn::Simultaneous => {
                let mut rest = index;
                for moves in &self.joint_moves {
                    let len = moves.len() as u64;
                    joint.push(moves[(rest % len) as usize]);
                    rest /= len;
                }
                if !self.outcomes.is_empty() {
                    joint.push(self.outcomes[rest as usize].0);
                }
            }
            Turn::Over => {}
        }
        joint
    }
}

/// How a child was made from the state on top of the stack.
#[derive(Clone, Copy)]
enum Made<M> {
    /// The top state was changed in place by `apply(mv)`; `undo(mv)` restores it.
    InPlace(M),
    /// The child was pushed on the state stack.
    Pushed,
}

/// Makes child `index` of the node described by `frame` from the state on top of `states`.
fn make<G: GeneralGame>(
    game: &G,
    states: &mut Vec<G::State>,
    frame: &Frame<G::Move>,
    index: u64,
    joint: &mut Vec<G::Move>,
) -> Made<G::Move> {
    let top = states.last_mut().expect("the root state is never popped");
    let single = match frame.turn {
        Turn::Player(_) => Some(frame.moves[index as usize]),
        Turn::Chance => Some(frame.outcomes[index as usize].0),
        Turn::Simultaneous | Turn::Over => None,
    };
    match single {
        Some(mv) => match game.apply(top, mv) {
            Some(child) => {
                states.push(child);
                Made::Pushed
            }
            None => Made::InPlace(mv),
        },
        None => {
            // play_joint has no undo: play it on a copy.
            let mut child = top.clone();
            game.play_joint(&mut child, frame.joint_move(index, joint));
            states.push(child);
            Made::Pushed
        }
    }
}

/// The explicit-stack perft walker.
struct Perft<'g, G: GeneralGame> {
    game: &'g G,
    /// States owned along the current path; the top is the current node's state.
    states: Vec<G::State>,
    /// One frame per ply of the current path, kept (with their buffers) when the path shrinks.
    frames: Vec<Frame<G::Move>>,
    /// Joint-move buffer for `play_joint`.
    joint: Vec<G::Move>,
}

impl<'g, G: GeneralGame> Perft<'g, G> {
    fn new(game: &'g G, state: G::State) -> Self {
        Perft {
            game,
            states: vec![state],
            frames: Vec::new(),
            joint: Vec::new(),
        }
    }

    /// Counts the leaves `depth` plies below the state on top of the stack, leaving the stack as it was.
    fn count(&mut self, depth: u32) -> u64 {
        let base = self.states.len();
        let mut total = 0u64;
        // `top` frames are live; frames[top - 1] is the deepest.
        let mut top = 0usize;
        if let Some(n) = self.enter(&mut top, depth) {
            total = total.saturating_add(n);
        }
        while top > 0 {
            let frame = &mut self.frames[top - 1];
            if frame.next == frame.children {
                self.leave(&mut top);
                continue;
            }
            let index = frame.next;
            frame.next += 1;
            let child_depth = frame.depth - 1;
            let made = make(
                self.game,
                &mut self.states,
                &self.frames[top - 1],
                index,
                &mut self.joint,
            );
            let before = top;
            if let Some(n) = self.enter(&mut top, child_depth) {
                total = total.saturating_add(n);
            }
            // The child's frame (if one was pushed) remembers how to restore the parent's state;
            // a child counted without a frame is restored right away.
            if top > before {
                self.frames[top - 1].made = Some(made);
            } else {
                self.restore(made);
            }
        }
        debug_assert_eq!(self.states.len(), base);
        total
    }

    /// Visits the node on top of the state stack with `depth` left: returns its count if it is a leaf
    /// or counted in bulk, or pushes a frame for it and returns `None`.
    fn enter(&mut self, top: &mut usize, depth: u32) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        if self.frames.len() == *top {
            self.frames.push(Frame::default());
        }
        let state = self.states.last().expect("the root state is never popped");
        let frame = &mut self.frames[*top];
        let children = frame.generate(self.game, state);
        if frame.turn == Turn::Over {
            return Some(1);
        }
        if depth == 1 {
            // Bulk counting: every child is a leaf at depth 0 (finished or not, it counts 1).
            return Some(children);
        }
        frame.depth = depth;
        frame.made = None;
        *top += 1;
        None
    }

    /// Pops the deepest frame and restores its parent's state.
    fn leave(&mut self, top: &mut usize) {
        *top -= 1;
        // The frame of the node `count` started from has nothing to restore.
        if let Some(made) = self.frames[*top].made {
            self.restore(made);
        }
    }

    fn restore(&mut self, made: Made<G::Move>) {
        match made {
            Made::Pushed => {
                self.states.pop();
            }
            Made::InPlace(mv) => {
                let top = self
                    .states
                    .last_mut()
                    .expect("the root state is never popped");
                self.game.undo(top, mv);
            }
        }
    }
}

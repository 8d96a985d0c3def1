//! [`Minimax`]: plain full-width negamax, the oracle every pruning search is tested against.
//!
//! `score(n) = terminal(outcome(n))` for a finished game, `evaluate(n)` at the depth horizon, otherwise
//! `score(n) = max over children c of ±score(c)` (von Neumann's minimax in the negamax form of Knuth
//! and Moore, *An Analysis of Alpha-Beta Pruning*, 1975), with [`Evaluator::value`] doing the first
//! two cases; `±` is `−` where the child's side to move is the other player and `+` where the same
//! player moves again, read from the game at every node. Every node of the depth-limited tree is visited: `O(b^d)` nodes for branching `b` and depth
//! `d`, `O(d)` memory. The value is always [`Bound::Exact`], and with a full window every expanded node
//! is a PV node in the terms of *Minimax with α/β Pruning*.

use std::time::Instant;

use game_trait::{
    Bound, Evaluator, Limits, MoveList, Reset, Score, SearchResult, SearchStats, Searcher,
    ZeroSumGame,
};

use crate::stopwatch::Stopwatch;
use crate::MAX_PLY;

/// Plain negamax to a fixed depth, without pruning: the oracle.
///
/// `score(n) = terminal(outcome(n))` for a finished game ([`Evaluator::terminal`]), `evaluate(n)` at
/// the depth horizon, otherwise `score(n) = max over children c of ±score(c)`: `−score(c)` where the
/// other player moves at `c`, `score(c)` where the same player moves again (it asks
/// [`side_to_move`](ZeroSumGame::side_to_move) at every node, whatever the game declares, so that
/// it assumes as little as an oracle can). Every node of the depth-limited tree is visited:
/// `O(b^d)` nodes for branching `b` and depth `d`, `O(d)` memory. The value is always exact, and
/// with a full window every expanded node is a PV node. Nodes deeper than
/// [`MAX_PLY`](crate::MAX_PLY) are evaluated statically.
///
/// ```
/// use game_trait::{Game, Limits, Searcher};
/// use search_core::{ExplicitTree, LeafValue, Minimax};
///
/// let tree = ExplicitTree::random(1, 4, 3);
/// let result = Minimax::new(LeafValue, 4).search(&tree, &tree.initial_state(), &Limits::none());
/// assert_eq!(result.bound, game_trait::Bound::Exact);
/// ```
#[derive(Clone, Debug)]
pub struct Minimax<E> {
    eval: E,
    depth: u32,
    /// Set by [`Reset::reset`]: the evaluator is reset at the start of the next search.
    reset_evaluator: bool,
}

impl<E> Minimax<E> {
    /// A searcher that looks `depth` plies ahead (overridden by [`Limits::depth`]) and evaluates
    /// the horizon with `eval`.
    pub fn new(eval: E, depth: u32) -> Minimax<E> {
        Minimax {
            eval,
            depth,
            reset_evaluator: false,
        }
    }

    /// The evaluator.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.eval
    }

    /// The configured depth.
    pub fn depth(&self) -> u32 {
        self.depth
    }
}

/// One search: the borrowed game and evaluator, the counters, and the limits.
struct Run<'a, G: ZeroSumGame, E> {
    game: &'a G,
    eval: &'a mut E,
    stats: SearchStats,
    watch: Stopwatch<'a>,
    /// `pv[ply]`: the principal variation below the node at `ply`, rebuilt bottom-up. Rows keep their
    /// capacity between nodes, so after warm-up the oracle allocates nothing either.
    pv: Vec<Vec<G::Move>>,
}

impl<G: ZeroSumGame, E: Evaluator<G>> Run<'_, G, E> {
    fn leaf(&mut self, state: &G::State) -> Score {
        self.stats.evaluated += 1;
        self.eval.value(self.game, state)
    }

    /// The negamax score of `state` searched `depth` plies deep; `None` if a limit stopped the search.
    fn negamax(&mut self, state: &mut G::State, depth: u32, ply: usize) -> Option<Score> {
        self.pv[ply].clear();
        if depth == 0 || ply >= MAX_PLY || self.game.outcome(state).is_some() {
            return Some(self.leaf(state));
        }
        let mut moves = MoveList::new();
        self.game.moves(state, &mut moves);
        if moves.is_empty() {
            return Some(self.leaf(state));
        }
        self.stats.expanded += 1;
        self.stats.pv_nodes += 1;
        let mut best: Option<Score> = None;
        for &mv in &moves {
            self.stats.generated += 1;
            if self.watch.tick(self.stats.generated) {
                return None;
            }
            let value = self.successor(state, mv, depth, ply)?;
            if best.map_or(true, |b| value > b) {
                best = Some(value);
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
            }
        }
        best
    }

    /// The score of the successor of `state` by `mv` from the point of view of `state`'s side to
    /// move: negated where the other player moves there, as it is where the same player moves
    /// again. The oracle assumes nothing about turn order, whatever the game declares
    /// ([`ALTERNATES`](ZeroSumGame::ALTERNATES)): it asks the game every time.
    fn successor(
        &mut self,
        state: &mut G::State,
        mv: G::Move,
        depth: u32,
        ply: usize,
    ) -> Option<Score> {
        let mover = self.game.side_to_move(state);
        let (value, same_side) = match self.game.apply(state, mv) {
            Some(mut child) => {
                let same_side = self.game.side_to_move(&child) == mover;
                (self.negamax(&mut child, depth - 1, ply + 1), same_side)
            }
            None => {
                // make/unmake: `state` is the child until it is undone.
                let same_side = self.game.side_to_move(state) == mover;
                let value = self.negamax(state, depth - 1, ply + 1);
                self.game.undo(state, mv);
                (value, same_side)
            }
        };
        value.map(|v| if same_side { v } else { -v })
    }
}

impl<G: ZeroSumGame, E: Evaluator<G>> Searcher<G> for Minimax<E> {
    /// Searches to `limits.depth` (or the configured depth). If a node budget, deadline or stop flag
    /// interrupts it, the result is the best fully searched root move with [`Bound::Lower`] (the root
    /// is worth at least that much: it may still have better, unsearched moves), or the static value
    /// at depth 0 if no root move was finished.
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        let start = Instant::now();
        if std::mem::take(&mut self.reset_evaluator) {
            self.eval.reset();
        }
        let depth = limits.depth.unwrap_or(self.depth);
        let mut root = state.clone();
        let mut run = Run {
            game,
            eval: &mut self.eval,
            stats: SearchStats {
                generated: 1,
                ..SearchStats::default()
            },
            watch: Stopwatch::new(limits),
            pv: vec![Vec::new(); depth.min(MAX_PLY as u32) as usize + 2],
        };
        let mut moves = MoveList::new();
        if depth > 0 && game.outcome(&root).is_none() {
            game.moves(&root, &mut moves);
        }
        if moves.is_empty() {
            let value = run.leaf(&root);
            let mut result = SearchResult::leaf(value);
            result.stats = run.stats;
            result.elapsed = start.elapsed();
            return result;
        }
        // The root's loop is the recursion's, kept here so that an interrupted search can still
        // report the moves it finished.
        run.stats.expanded += 1;
        run.stats.pv_nodes += 1;
        let mut best: Option<(Score, Vec<G::Move>)> = None;
        let mut complete = true;
        for &mv in &moves {
            run.stats.generated += 1;
            let Some(value) = run.successor(&mut root, mv, depth, 0) else {
                complete = false;
                break;
            };
            if best.as_ref().map_or(true, |(b, _)| value > *b) {
                let mut pv = vec![mv];
                pv.extend_from_slice(&run.pv[1]);
                best = Some((value, pv));
            }
        }
        let stats = run.stats;
        let mut result = match best {
            Some((value, pv)) => SearchResult {
                best_move: pv.first().copied(),
                value,
                bound: if complete { Bound::Exact } else { Bound::Lower },
                pv,
                depth,
                stats,
                elapsed: start.elapsed(),
            },
            None => SearchResult::leaf(self.eval.value(game, state)),
        };
        result.stats = stats;
        result.elapsed = start.elapsed();
        result
    }
}

/// Minimax keeps nothing between searches but what its evaluator may keep: the evaluator is reset
/// ([`Evaluator::reset`]) at the start of the next search.
impl<E> Reset for Minimax<E> {
    fn reset(&mut self) {
        self.reset_evaluator = true;
    }
}

//! [`Hooks`] and [`SharedHooks`]: the six hooks of an [`AlphaBeta`] as one bound, so that every
//! search method asks for `Self: Hooks<G>` instead of repeating six trait bounds.
//!
//! A bound on `Self` does not tell the compiler that `E: Evaluator<G>`, so the code that calls
//! the hooks — readying a search, deepening, one window — lives in the traits' hidden methods,
//! implemented once below under the six bounds; the public search methods call them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use game_trait::{
    Evaluator, ForwardPruning, HorizonPolicy, Limits, MoveOrdering, Quiescence, Score,
    SearchResult, Selectivity, ZeroSumGame,
};

use super::negamax::Run;
use super::pv::PvTable;
use super::{AlphaBeta, Iteration};
use crate::ordering::{move_key, Heuristics};
use crate::tt::TranspositionTable;

mod sealed {
    /// Only [`AlphaBeta`](super::AlphaBeta) implements the hook bounds.
    pub trait Sealed {}

    impl<E, P, H, O, Q, S> Sealed for super::AlphaBeta<E, P, H, O, Q, S> {}
}

/// An [`AlphaBeta`] that can search game `G`: its evaluator `E` implements [`Evaluator<G>`], and
/// its pruning `P`, horizon `H`, ordering `O`, quiescence `Q` and selectivity `S` implement
/// [`ForwardPruning<G>`], [`HorizonPolicy<G>`], [`MoveOrdering<G>`], [`Quiescence<G>`] and
/// [`Selectivity<G>`]. Implemented for every such `AlphaBeta` (and nothing else), so code generic
/// over the hooks needs one bound, `AlphaBeta<E, P, H, O, Q, S>: Hooks<G>`, instead of six.
///
/// ```
/// use game_trait::{Game, Limits, Score, Searcher, ZeroSumGame};
/// use search_core::{AlphaBeta, AlphaBetaConfig, ExplicitTree, Hooks, LeafValue};
///
/// /// The value of `state` by any α/β with the default horizon, ordering, quiescence and
/// /// selectivity, whatever its evaluator `E` and pruning `P`.
/// fn value<G, E, P>(engine: &mut AlphaBeta<E, P>, game: &G, state: &G::State) -> Score
/// where
///     G: ZeroSumGame,
///     AlphaBeta<E, P>: Hooks<G>,
/// {
///     engine.search(game, state, &Limits::none()).value
/// }
///
/// let tree = ExplicitTree::random(3, 4, 2);
/// let mut ab = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::alpha_beta(4));
/// let root = tree.initial_state();
/// assert_eq!(value(&mut ab, &tree, &root), ab.search(&tree, &root, &Limits::none()).value);
/// ```
pub trait Hooks<G: ZeroSumGame>: sealed::Sealed {
    /// Readies the evaluator, the table and the heuristics for a search of `state`.
    #[doc(hidden)]
    fn prepare_search(&mut self, game: &G, state: &G::State);

    /// Readies the heuristics and the pruning hook for one more search of a sequence on the same
    /// root and table (a probe of [`search_windows_parallel`](AlphaBeta::search_windows_parallel),
    /// a helper thread's search).
    #[doc(hidden)]
    fn prepare_probe(&mut self);

    /// Whether a search keeps the path's move keys and reply tables.
    #[doc(hidden)]
    fn tracks_path(&self) -> bool;

    /// Iterative deepening (or the one iteration) over `table`, to the depth of `limits` (or the
    /// configured one) plus `extra` plies: the body of [`Searcher::search`](game_trait::Searcher),
    /// and of every thread of [`search_parallel`](AlphaBeta::search_parallel).
    #[doc(hidden)]
    fn deepen(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        table: Option<&TranspositionTable>,
        extra: u32,
        start: Instant,
    ) -> SearchResult<G::Move>;

    /// The body of [`search_window`](AlphaBeta::search_window), over `table`; it also stops
    /// once `stop` is set.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn window(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        table: Option<&TranspositionTable>,
        window: (Score, Score),
        stop: Option<&AtomicBool>,
        start: Instant,
    ) -> SearchResult<G::Move>;
}

/// An [`AlphaBeta`] that can search game `G` on several threads
/// ([`search_parallel`](AlphaBeta::search_parallel)): [`Hooks<G>`], with every hook also `Clone`
/// (each helper thread searches with clones) and `Send`.
pub trait SharedHooks<G: ZeroSumGame>: Hooks<G> + Send + Sized {
    /// A searcher for a helper thread: clones of the evaluator, hooks and configuration, fresh
    /// heuristics, no table of its own (it shares the caller's).
    #[doc(hidden)]
    fn helper(&self) -> Self;
}

impl<G, E, P, H, O, Q, S> Hooks<G> for AlphaBeta<E, P, H, O, Q, S>
where
    G: ZeroSumGame,
    E: Evaluator<G>,
    P: ForwardPruning<G>,
    H: HorizonPolicy<G>,
    O: MoveOrdering<G>,
    Q: Quiescence<G>,
    S: Selectivity<G>,
{
    /// Readies the evaluator, the table and the heuristics for a search of `state`.
    fn prepare_search(&mut self, game: &G, state: &G::State) {
        if std::mem::take(&mut self.reset_evaluator) {
            self.eval.reset();
        }
        self.prepare(game.state_hash(state).is_some(), self.tracks_path());
        self.pruning.start_search();
    }

    /// Whether a search keeps the path's move keys and reply tables.
    fn tracks_path(&self) -> bool {
        Run::<G, E, P, H, O, Q, S>::TRACKS_PATH || self.config.countermoves
    }

    /// Iterative deepening (or the one iteration) over `table`, to the depth of `limits` (or the
    /// configured one) plus `extra` plies: the body of [`Searcher::search`], and of every thread
    /// of [`search_parallel`](AlphaBeta::search_parallel).
    fn deepen(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        table: Option<&TranspositionTable>,
        extra: u32,
        start: Instant,
    ) -> SearchResult<G::Move> {
        let depth = limits.depth.unwrap_or(self.config.depth) + extra;
        let first = if self.config.iterative {
            depth.min(1)
        } else {
            depth
        };
        let tracks_path = self.tracks_path();
        let mut root = state.clone();
        let mut run = self.run(game, limits, table);
        let mut done: Option<Iteration<G::Move>> = None;
        for iteration in first..=depth {
            let budget = run.horizon.root_budget(iteration);
            let previous = done.as_ref().map(|d| d.value);
            let cut_short_before = run.cut_short;
            let (value, bound) = run.iteration(&mut root, budget, previous);
            if run.watch.stopped() {
                break;
            }
            // Every line of this iteration ended the game: deeper ones would find the same.
            let closed = run.cut_short == cut_short_before;
            let pv = run.root_pv(&root);
            if tracks_path {
                run.heuristics
                    .set_previous_best(pv.first().map_or(0, move_key));
            }
            done = Some(Iteration {
                value,
                bound,
                pv,
                depth: iteration,
            });
            if closed {
                break;
            }
        }
        run.finish(&root, done, start)
    }

    fn prepare_probe(&mut self) {
        self.prepare_heuristics(self.tracks_path());
        self.pruning.start_search();
    }

    /// The body of [`search_window`](AlphaBeta::search_window), over `table`; it also stops
    /// once `stop` is set.
    #[allow(clippy::too_many_arguments)]
    fn window(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        table: Option<&TranspositionTable>,
        (alpha, beta): (Score, Score),
        stop: Option<&AtomicBool>,
        start: Instant,
    ) -> SearchResult<G::Move> {
        let depth = limits.depth.unwrap_or(self.config.depth);
        let mut root = state.clone();
        let mut run = self.run(game, limits, table);
        run.watch = run.watch.or_when(stop);
        let budget = run.horizon.root_budget(depth);
        let (value, bound) = run.root_window(&mut root, budget, alpha, beta);
        if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            // Another thread answered: the caller discards this result, so it skips the static
            // fallback (which an exact evaluator would turn into a whole solve).
            run.static_fallback = false;
        }
        let done = (!run.watch.stopped()).then(|| Iteration {
            value,
            bound,
            pv: run.root_pv(&root),
            depth,
        });
        let closed = done.is_some() && run.cut_short == 0;
        let result = run.finish(&root, done, start);
        self.closed = closed;
        result
    }
}

impl<G, E, P, H, O, Q, S> SharedHooks<G> for AlphaBeta<E, P, H, O, Q, S>
where
    G: ZeroSumGame,
    E: Evaluator<G> + Clone + Send,
    P: ForwardPruning<G> + Clone + Send,
    H: HorizonPolicy<G> + Clone + Send,
    O: MoveOrdering<G> + Clone + Send,
    Q: Quiescence<G> + Clone + Send,
    S: Selectivity<G> + Clone + Send,
{
    /// A searcher for a helper thread: clones of the evaluator, hooks and configuration, fresh
    /// heuristics, no table of its own (it shares the caller's).
    fn helper(&self) -> Self {
        AlphaBeta {
            eval: self.eval.clone(),
            pruning: self.pruning.clone(),
            horizon: self.horizon.clone(),
            ordering: self.ordering.clone(),
            quiescence: self.quiescence.clone(),
            selectivity: self.selectivity.clone(),
            config: self.config,
            tt: None,
            heuristics: Heuristics::default(),
            pv: PvTable::default(),
            reset_evaluator: false,
            helper_thread: true,
            busy: self.busy.clone(),
            closed: false,
        }
    }
}

//! Lazy SMP: the α/β engine on several threads sharing one transposition table, with move
//! deferral (simplified ABDADA).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use game_trait::{Limits, Score, SearchResult, ZeroSumGame};

use super::busy::BusyMoves;
use super::{AlphaBeta, Hooks, SharedHooks};
use crate::tt::TranspositionTable;

impl<E, P, H, O, Q, S> AlphaBeta<E, P, H, O, Q, S> {
    /// The search of [`Searcher::search`](game_trait::Searcher::search) on `threads` threads
    /// sharing this searcher's transposition table: *Lazy SMP*. Each helper thread runs the same
    /// iterative deepening with clones of the evaluator and the hooks and heuristics of its own;
    /// odd helpers search one iteration deeper, so that the threads' trees diverge and their table
    /// entries help each other (one-shot searches, without `iterative`, all search the same
    /// depth). Where the horizon allows it, the threads also defer moves another thread is
    /// searching ([`defer_draft`](crate::AlphaBetaConfig::defer_draft), simplified ABDADA), so
    /// that threads in the same subtree split its moves. The calling thread's search is the result (with the helpers'
    /// nodes added to its statistics); when it ends, the helpers are stopped.
    ///
    /// The table is lock-free ([`tt`](crate::tt)), so an entry another thread wrote is only ever
    /// used as the engine uses its own: exact searches return exactly the value and bound of the
    /// one-thread search (the crate's tests check it), though node counts, the move among equals,
    /// and the iteration at which deepening stops for having reached the end of the game on
    /// every line (helpers' entries may show it sooner), vary from run to run. Searches whose tree depends on the path or the table are not
    /// exact in this sense: late-move reductions, null moves, singular extensions, and a game's
    /// extensions (their cap depends on the line, and helpers search deeper). Without a table (`tt_bytes = 0`) the threads share nothing
    /// and the helpers only cost time. With `threads ≤ 1` this is [`search`](AlphaBeta).
    pub fn search_parallel<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        threads: usize,
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame + Sync,
        G::State: Send + Sync,
        G::Move: Send,
        Self: SharedHooks<G>,
    {
        let start = Instant::now();
        // A deeper root budget means one more iteration only for iterative searches; a one-shot
        // search's budget may be special (an endgame solver's "unlimited").
        let skew = self.config.iterative;
        self.lazy_smp(
            game,
            state,
            limits,
            threads,
            start,
            |main, table| main.deepen(game, state, limits, table, 0, start),
            |helper, table, limits, i| {
                let extra = u32::from(skew && i % 2 == 1);
                helper.deepen(game, state, limits, table, extra, start)
            },
        )
    }

    /// [`search_window`](AlphaBeta::search_window) on `threads` threads sharing this searcher's
    /// transposition table: every thread searches the window `(alpha, beta)`, the first to finish
    /// answers (with every thread's nodes in its statistics), and the others are stopped. For a
    /// sequence of windows on one root, such as MTD(f)'s probes,
    /// [`search_windows_parallel`](AlphaBeta::search_windows_parallel) keeps the threads for all
    /// of them.
    ///
    /// The threads share the work through the table and through move deferral
    /// ([`defer_draft`](crate::AlphaBetaConfig::defer_draft)), as in
    /// [`search_parallel`](AlphaBeta::search_parallel): exact searches return exactly the value
    /// and bound of `search_window`.
    #[allow(clippy::too_many_arguments)]
    pub fn search_window_parallel<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        alpha: Score,
        beta: Score,
        threads: usize,
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame + Sync,
        G::State: Send + Sync,
        G::Move: Send,
        Self: SharedHooks<G>,
    {
        self.search_windows_parallel(game, state, limits, threads, |probe| probe(alpha, beta))
    }

    /// Runs `main` on the calling thread over the shared table while `threads − 1` helpers
    /// search the same root (iterative searches: odd helpers one iteration deeper), and stops
    /// the helpers when `main` returns.
    #[allow(clippy::too_many_arguments)]
    fn lazy_smp<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        threads: usize,
        start: Instant,
        main: impl FnOnce(&mut Self, Option<&TranspositionTable>) -> SearchResult<G::Move>,
        helper_search: impl Fn(&mut Self, Option<&TranspositionTable>, &Limits, usize) -> SearchResult<G::Move>
            + Sync,
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame + Sync,
        G::State: Send + Sync,
        G::Move: Send,
        Self: SharedHooks<G>,
    {
        self.prepare_search(game, state);
        let table = self.tt.take();
        let stop = Arc::new(AtomicBool::new(false));
        let helper_limits = Limits {
            nodes: None,
            stop: Some(stop.clone()),
            ..limits.clone()
        };
        let helper_search = &helper_search;
        if threads > 1 && self.config.defer_draft.is_some() {
            self.busy = Some(Arc::new(BusyMoves::new()));
        }
        let mut result = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads.max(1))
                .map(|i| {
                    let mut helper = self.helper();
                    let (table, limits) = (table.as_ref(), &helper_limits);
                    scope.spawn(move || {
                        helper.prepare_probe();
                        helper_search(&mut helper, table, limits, i).stats
                    })
                })
                .collect();
            let mut result = main(self, table.as_ref());
            stop.store(true, Ordering::Relaxed);
            for helper in helpers {
                result.stats += helper.join().expect("a search thread panicked");
            }
            result
        });
        self.tt = table;
        self.busy = None;
        result.elapsed = start.elapsed();
        result
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use game_trait::{Bound, Limits, Reset, Searcher};
    use quickcheck::{QuickCheck, TestResult};

    use super::{AlphaBeta, BusyMoves};
    use crate::{AlphaBetaConfig, ExplicitTree, LeafValue, Minimax};

    /// Move deferral only reorders a node's moves: with about half of all moves reported busy
    /// (as another thread would), one thread's search in any window returns a value that its
    /// bound makes true of the minimax value, exact when it lies inside the window, and the
    /// minimax value itself with the full window. Checked with and without PVS and both cutoffs.
    #[test]
    fn deferring_moves_keeps_every_bound_true() {
        fn prop(seed: u64, depth: u8, branching: u8, window: (i8, i8), pvs: bool) -> TestResult {
            let (depth, branching) = (1 + u32::from(depth) % 6, 1 + u32::from(branching) % 5);
            let tree = ExplicitTree::random(seed, depth, branching);
            let exact = Minimax::new(LeafValue, depth)
                .search(&tree, &0, &Limits::none())
                .value;
            let (a, b) = (
                i32::from(window.0.min(window.1)),
                i32::from(window.0.max(window.1)),
            );
            let (alpha, beta) = if a == b { (a - 1, b + 1) } else { (a, b) };
            for cutoff in [
                game_trait::Cutoff::AtLeastBeta,
                game_trait::Cutoff::AboveBeta,
            ] {
                let config = AlphaBetaConfig {
                    pvs,
                    cutoff,
                    tt_bytes: 1 << 14,
                    defer_draft: Some(1),
                    ..AlphaBetaConfig::alpha_beta(depth)
                };
                let mut ab = AlphaBeta::new(LeafValue).with_config(config);
                ab.busy = Some(Arc::new(BusyMoves::scrambled(seed)));
                let full = ab.search(&tree, &0, &Limits::none());
                ab.reset();
                let r = ab.search_window(&tree, &0, &Limits::none(), alpha, beta);
                let holds = r.bound != Bound::Estimate && r.bound.admits(r.value, exact);
                let inside = alpha < r.value && r.value < beta;
                if full.value != exact || !holds || (inside && r.bound != Bound::Exact) {
                    return TestResult::error(format!(
                        "{config:?} ({alpha}, {beta}): {r:?}, full {full:?}, minimax {exact}"
                    ));
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(500)
            .quickcheck(prop as fn(u64, u8, u8, (i8, i8), bool) -> TestResult);
    }
}

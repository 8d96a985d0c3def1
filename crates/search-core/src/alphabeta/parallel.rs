//! Lazy SMP: the α/β engine on several threads sharing one transposition table.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use game_trait::{
    Evaluator, ForwardPruning, HorizonPolicy, Limits, MoveOrdering, Quiescence, SearchResult,
    ZeroSumGame,
};

use super::pv::PvTable;
use super::AlphaBeta;
use crate::ordering::Heuristics;
use crate::tt::TranspositionTable;

impl<E, P, H, O, Q> AlphaBeta<E, P, H, O, Q> {
    /// The search of [`Searcher::search`](game_trait::Searcher::search) on `threads` threads
    /// sharing this searcher's transposition table: *Lazy SMP*. Each helper thread runs the same
    /// iterative deepening with clones of the evaluator and the hooks and heuristics of its own;
    /// odd helpers search one iteration deeper, so that the threads' trees diverge and their table
    /// entries help each other (one-shot searches, without `iterative`, all search the same
    /// depth). The calling thread's search is the result (with the helpers'
    /// nodes added to its statistics); when it ends, the helpers are stopped.
    ///
    /// The table is lock-free ([`tt`](crate::tt)), so an entry another thread wrote is only ever
    /// used as the engine uses its own: exact searches return exactly the value and bound of the
    /// one-thread search (the crate's tests check it), though node counts, and the move among
    /// equals, vary from run to run. Without a table (`tt_bytes = 0`) the threads share nothing
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
        E: Evaluator<G> + Clone + Send,
        P: ForwardPruning<G> + Clone + Send,
        H: HorizonPolicy<G> + Clone + Send,
        O: MoveOrdering<G> + Clone + Send,
        Q: Quiescence<G> + Clone + Send,
    {
        let start = Instant::now();
        self.lazy_smp(game, state, limits, threads, start, |main, table| {
            main.deepen(game, state, limits, table, 0, start)
        })
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
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame + Sync,
        G::State: Send + Sync,
        G::Move: Send,
        E: Evaluator<G> + Clone + Send,
        P: ForwardPruning<G> + Clone + Send,
        H: HorizonPolicy<G> + Clone + Send,
        O: MoveOrdering<G> + Clone + Send,
        Q: Quiescence<G> + Clone + Send,
    {
        self.prepare_search(game, state);
        let table = self.tt.take();
        let stop = Arc::new(AtomicBool::new(false));
        let helper_limits = Limits {
            nodes: None,
            stop: Some(stop.clone()),
            ..limits.clone()
        };
        let tracks_path = self.tracks_path::<G>();
        // A deeper root budget means one more iteration only for iterative searches; a one-shot
        // search's budget may be special (an endgame solver's "unlimited").
        let skew = self.config.iterative;
        let mut result = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads.max(1))
                .map(|i| {
                    let mut helper = self.helper();
                    let (table, limits) = (table.as_ref(), &helper_limits);
                    scope.spawn(move || {
                        helper.prepare_heuristics(tracks_path);
                        helper.pruning.start_search();
                        let extra = u32::from(skew && i % 2 == 1);
                        helper
                            .deepen(game, state, limits, table, extra, start)
                            .stats
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
        result.elapsed = start.elapsed();
        result
    }

    /// A searcher for a helper thread: clones of the evaluator, hooks and configuration, fresh
    /// heuristics, no table of its own (it shares the caller's).
    fn helper(&self) -> AlphaBeta<E, P, H, O, Q>
    where
        E: Clone,
        P: Clone,
        H: Clone,
        O: Clone,
        Q: Clone,
    {
        AlphaBeta {
            eval: self.eval.clone(),
            pruning: self.pruning.clone(),
            horizon: self.horizon.clone(),
            ordering: self.ordering.clone(),
            quiescence: self.quiescence.clone(),
            config: self.config,
            tt: None,
            heuristics: Heuristics::default(),
            pv: PvTable::default(),
            reset_evaluator: false,
        }
    }
}

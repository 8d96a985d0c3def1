//! [`AlphaBeta`]: negamax α/β, fail-soft, reporting whether each value is exact or a bound and
//! classifying nodes as in the note *Minimax with α/β Pruning*; with its [`AlphaBetaConfig`] also principal variation search, iterative
//! deepening, aspiration windows, a transposition table, killers and history; with its generic hooks
//! forward pruning ([`ForwardPruning`]), any horizon ([`HorizonPolicy`]), game-specific move
//! ordering ([`MoveOrdering`]), quiescence ([`Quiescence`]) and the game's null moves and
//! extensions ([`Selectivity`]).
//!
//! The crate docs describe the algorithm, what every returned bound means, and how hooks are called.

mod busy;
mod config;
mod hooks;
mod negamax;
mod parallel;
mod probes;
mod pv;

use std::sync::Arc;
use std::time::Instant;

use game_trait::{
    Bound, DepthHorizon, Evaluator, ForwardPruning, HorizonPolicy, Limits, MoveList, MoveOrdering,
    NoOrdering, NoPruning, NoQuiescence, NoSelectivity, Quiescence, Reset, Score, SearchResult,
    SearchStats, Searcher, Selectivity, ZeroSumGame, INFINITY,
};

pub use config::{AlphaBetaConfig, LateMoveReduction, NullMovePruning, SingularExtension};
pub use hooks::{Hooks, SharedHooks};

use crate::error::SearchError;
use crate::ordering::Heuristics;
use crate::stopwatch::Stopwatch;
use crate::tt::{TranspositionTable, NO_MOVE};
use busy::BusyMoves;
use negamax::Run;
use pv::PvTable;

/// Negamax α/β search with bound reporting (see the [crate docs](crate) for the algorithm).
///
/// Generic over the evaluator `E` and five hooks, each statically dispatched and free when left at
/// its no-op default: forward pruning `P` ([`NoPruning`]), the horizon `H` ([`DepthHorizon`]),
/// move ordering `O` ([`NoOrdering`]), quiescence `Q` ([`NoQuiescence`]) and selectivity `S`
/// ([`NoSelectivity`]: null moves and extensions).
///
/// ```
/// use game_trait::{Bound, Game, Limits, Searcher};
/// use search_core::{AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue, Minimax};
///
/// let tree = ExplicitTree::random(5, 6, 4);
/// let root = tree.initial_state();
/// let mut ab = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::alpha_beta(6));
/// let mut pvs = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::pvs(6));
/// let oracle = Minimax::new(LeafValue, 6).search(&tree, &root, &Limits::none());
/// for result in [ab.search(&tree, &root, &Limits::none()), pvs.search(&tree, &root, &Limits::none())] {
///     assert_eq!((result.value, result.bound), (oracle.value, Bound::Exact));
///     assert!(result.stats.generated <= oracle.stats.generated);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct AlphaBeta<
    E,
    P = NoPruning,
    H = DepthHorizon,
    O = NoOrdering,
    Q = NoQuiescence,
    S = NoSelectivity,
> {
    eval: E,
    pruning: P,
    horizon: H,
    ordering: O,
    quiescence: Q,
    selectivity: S,
    config: AlphaBetaConfig,
    /// Allocated at the first search that needs it, kept across searches (see `clear`).
    tt: Option<TranspositionTable>,
    heuristics: Heuristics,
    pv: PvTable,
    /// Set by [`Reset::reset`]: the evaluator is reset at the start of the next search (the
    /// evaluator's `reset` names the game, which only a search knows).
    reset_evaluator: bool,
    /// A Lazy SMP helper thread's searcher: only its table entries and node counts are used, so
    /// a stopped search of it skips the static evaluation of the root that stands in for a
    /// finished iteration (which an exact evaluator would turn into a whole solve).
    helper_thread: bool,
    /// The moves the threads of a parallel search are searching, shared by them while it runs.
    busy: Option<Arc<BusyMoves>>,
    /// Whether the last window search ([`search_window`](Self::search_window)) was closed: every
    /// line it searched ended the game (see `Run::cut_short`).
    closed: bool,
}

impl<E> AlphaBeta<E> {
    /// Plain fail-soft α/β with the [default configuration](AlphaBetaConfig::default) and no-op
    /// hooks, evaluating leaves with `eval`.
    pub fn new(eval: E) -> AlphaBeta<E> {
        AlphaBeta {
            eval,
            pruning: NoPruning,
            horizon: DepthHorizon,
            ordering: NoOrdering,
            quiescence: NoQuiescence,
            selectivity: NoSelectivity,
            config: AlphaBetaConfig::default(),
            tt: None,
            heuristics: Heuristics::default(),
            pv: PvTable::default(),
            reset_evaluator: false,
            helper_thread: false,
            busy: None,
            closed: false,
        }
    }
}

impl<E, P, H, O, Q, S> AlphaBeta<E, P, H, O, Q, S> {
    /// Replaces the configuration.
    pub fn with_config(mut self, config: AlphaBetaConfig) -> Self {
        self.config = config;
        self
    }

    /// Replaces the forward-pruning hook.
    pub fn with_pruning<P2>(self, pruning: P2) -> AlphaBeta<E, P2, H, O, Q, S> {
        self.rehook(|(_, h, o, q, s)| (pruning, h, o, q, s))
    }

    /// Replaces the horizon policy.
    pub fn with_horizon<H2>(self, horizon: H2) -> AlphaBeta<E, P, H2, O, Q, S> {
        self.rehook(|(p, _, o, q, s)| (p, horizon, o, q, s))
    }

    /// Replaces the move-ordering hook.
    pub fn with_ordering<O2>(self, ordering: O2) -> AlphaBeta<E, P, H, O2, Q, S> {
        self.rehook(|(p, h, _, q, s)| (p, h, ordering, q, s))
    }

    /// Replaces the quiescence hook: horizon leaves are then resolved by a search of the moves it
    /// calls noisy (see [`Quiescence`](game_trait::Quiescence)).
    pub fn with_quiescence<Q2>(self, quiescence: Q2) -> AlphaBeta<E, P, H, O, Q2, S> {
        self.rehook(|(p, h, o, _, s)| (p, h, o, quiescence, s))
    }

    /// Replaces the selectivity hook: the game's null moves and extensions (see
    /// [`Selectivity`](game_trait::Selectivity)); null moves are tried only with
    /// [`AlphaBetaConfig::null_move`] set.
    pub fn with_selectivity<S2>(self, selectivity: S2) -> AlphaBeta<E, P, H, O, Q, S2> {
        self.rehook(|(p, h, o, q, _)| (p, h, o, q, selectivity))
    }

    /// The searcher with its hooks (pruning, horizon, ordering, quiescence, selectivity) replaced
    /// by what `hooks` makes of them, and everything else kept: the one place the builders move
    /// the searcher's state to a new type.
    fn rehook<P2, H2, O2, Q2, S2>(
        self,
        hooks: impl FnOnce((P, H, O, Q, S)) -> (P2, H2, O2, Q2, S2),
    ) -> AlphaBeta<E, P2, H2, O2, Q2, S2> {
        let old = (
            self.pruning,
            self.horizon,
            self.ordering,
            self.quiescence,
            self.selectivity,
        );
        let (pruning, horizon, ordering, quiescence, selectivity) = hooks(old);
        AlphaBeta {
            eval: self.eval,
            pruning,
            horizon,
            ordering,
            quiescence,
            selectivity,
            config: self.config,
            tt: self.tt,
            heuristics: self.heuristics,
            pv: self.pv,
            reset_evaluator: self.reset_evaluator,
            helper_thread: self.helper_thread,
            busy: self.busy,
            closed: self.closed,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// The configuration, to change between searches (a changed `tt_bytes` reallocates the table
    /// at the next search).
    pub fn config_mut(&mut self) -> &mut AlphaBetaConfig {
        &mut self.config
    }

    /// The evaluator.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.eval
    }

    /// The forward-pruning hook (e.g. to read what it learned).
    pub fn pruning(&self) -> &P {
        &self.pruning
    }

    /// The forward-pruning hook, mutably.
    pub fn pruning_mut(&mut self) -> &mut P {
        &mut self.pruning
    }

    /// The horizon policy, mutably.
    pub fn horizon_mut(&mut self) -> &mut H {
        &mut self.horizon
    }

    /// The move-ordering hook, mutably.
    pub fn ordering_mut(&mut self) -> &mut O {
        &mut self.ordering
    }

    /// Allocates the transposition table of the configured size now, rather than at the first
    /// search, so that a size the machine cannot provide is an error here instead of a search
    /// without a table (with `tt_bytes` 0 it frees any table). The facade's builders call it.
    pub fn allocate_table(&mut self) -> Result<(), SearchError> {
        let bytes = self.config.tt_bytes;
        match &self.tt {
            _ if bytes == 0 => self.tt = None,
            Some(tt) if tt.bytes() == TranspositionTable::new_size(bytes) => {}
            _ => {
                self.tt = None; // free the old table before allocating the new one
                self.tt = Some(TranspositionTable::try_new(bytes)?);
            }
        }
        Ok(())
    }

    /// Brings the transposition table in line with the configuration and ages what earlier
    /// searches learned. A missing table is allocated only for a search whose root has a key
    /// (`root_has_key`), so that games that never hash cost no memory; nodes without a key are
    /// neither probed nor stored. If the machine cannot provide the table, the search runs
    /// without one ([`allocate_table`](Self::allocate_table) reports that as an error).
    fn prepare(&mut self, root_has_key: bool, replies: bool) {
        let bytes = self.config.tt_bytes;
        match &mut self.tt {
            _ if bytes == 0 => self.tt = None,
            Some(tt) if tt.bytes() == TranspositionTable::new_size(bytes) => tt.new_search(),
            _ if !root_has_key => self.tt = None,
            _ => {
                self.tt = None;
                self.tt = TranspositionTable::try_new(bytes).ok();
            }
        }
        self.prepare_heuristics(replies);
    }

    /// Starts a search's killers, history and reply tables (`replies`: whether the search keeps
    /// them, see `Run::TRACKS_PATH`) and its PV table.
    fn prepare_heuristics(&mut self, replies: bool) {
        self.heuristics
            .new_search(self.config.killers, self.config.history, replies);
        self.pv.ensure_allocated();
    }
}

/// A finished iteration: what a stopped search falls back to.
struct Iteration<M> {
    value: Score,
    bound: Bound,
    pv: Vec<M>,
    depth: u32,
}

impl<E, P, H, O, Q, S> AlphaBeta<E, P, H, O, Q, S> {
    /// Borrows the searcher's parts for one search.
    fn run<'a, G: ZeroSumGame>(
        &'a mut self,
        game: &'a G,
        limits: &'a Limits,
        table: Option<&'a TranspositionTable>,
    ) -> Run<'a, G, E, P, H, O, Q, S> {
        Run {
            game,
            eval: &mut self.eval,
            pruning: &mut self.pruning,
            horizon: &mut self.horizon,
            ordering: &mut self.ordering,
            quiescence: &mut self.quiescence,
            selectivity: &mut self.selectivity,
            config: self.config,
            tt: table,
            heuristics: &mut self.heuristics,
            pv: &mut self.pv,
            stats: SearchStats::default(),
            watch: Stopwatch::new(limits),
            static_fallback: !self.helper_thread,
            busy: self.busy.as_deref(),
            after_null: usize::MAX,
            extended: 0,
            root_draft: 0,
            exclusion: None,
            root_player: 0,
            cut_short: 0,
        }
    }
}

impl<G, E, P, H, O, Q, S> Run<'_, G, E, P, H, O, Q, S>
where
    G: ZeroSumGame,
    E: Evaluator<G>,
    P: ForwardPruning<G>,
    H: HorizonPolicy<G>,
    O: MoveOrdering<G>,
    Q: Quiescence<G>,
    S: Selectivity<G>,
{
    /// One root search in the window `(alpha, beta)`; the root counts as generated each time.
    fn root_window(
        &mut self,
        root: &mut G::State,
        budget: H::Budget,
        alpha: Score,
        beta: Score,
    ) -> (Score, Bound) {
        self.stats.generated += 1;
        if !G::ALTERNATES {
            self.root_player = self.game.side_to_move(root);
        }
        self.node(root, budget, alpha, beta, 0, None)
    }

    /// One iteration: with an aspiration window around `previous` if configured, re-searching with
    /// the failed side opened to ±∞ until the value is exact or the window is full.
    fn iteration(
        &mut self,
        root: &mut G::State,
        budget: H::Budget,
        previous: Option<Score>,
    ) -> (Score, Bound) {
        let (mut alpha, mut beta) = match (self.config.aspiration, previous) {
            (Some(delta), Some(v)) => {
                let delta = delta.max(1);
                (
                    v.saturating_sub(delta).max(-INFINITY),
                    v.saturating_add(delta).min(INFINITY),
                )
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let (value, bound) = self.root_window(root, budget, alpha, beta);
            match bound {
                _ if self.watch.stopped() => return (value, bound),
                Bound::Upper if alpha > -INFINITY => alpha = -INFINITY,
                Bound::Lower if beta < INFINITY => beta = INFINITY,
                _ => return (value, bound),
            }
        }
    }

    /// The root's principal variation as moves, replayed from the PV table's move indices.
    fn root_pv(&self, root: &G::State) -> Vec<G::Move> {
        let mut state = root.clone();
        let mut moves = MoveList::new();
        let mut line = Vec::with_capacity(self.pv.root().len());
        for &index in self.pv.root() {
            moves.clear();
            if self.game.outcome(&state).is_none() {
                self.game.moves(&state, &mut moves);
            }
            match moves.get(index as usize) {
                Some(&mv) if index != NO_MOVE => {
                    line.push(mv);
                    self.game.play(&mut state, mv);
                }
                _ => break,
            }
        }
        line
    }

    /// The result: the last completed iteration, or, if a limit stopped the first one, the root's
    /// static value at depth 0 with the best root move finished so far (or the first legal move) as
    /// the move to play.
    fn finish(
        mut self,
        root: &G::State,
        done: Option<Iteration<G::Move>>,
        start: Instant,
    ) -> SearchResult<G::Move> {
        let nothing_known = || Iteration {
            value: -INFINITY,
            bound: Bound::Lower,
            pv: Vec::new(),
            depth: 0,
        };
        let done = done.unwrap_or_else(|| {
            if !self.static_fallback {
                return nothing_known();
            }
            let mut pv = self.root_pv(root);
            pv.truncate(1);
            if pv.is_empty() && self.game.outcome(root).is_none() {
                let mut moves = MoveList::new();
                self.game.moves(root, &mut moves);
                pv.extend(moves.first().copied());
            }
            self.stats.evaluated += 1;
            Iteration {
                value: self.eval.value(self.game, root),
                bound: Bound::Exact,
                pv,
                depth: 0,
            }
        });
        SearchResult {
            best_move: done.pv.first().copied(),
            value: done.value,
            bound: done.bound,
            pv: done.pv,
            depth: done.depth,
            stats: self.stats,
            elapsed: start.elapsed(),
        }
    }
}

impl<E, P, H, O, Q, S> AlphaBeta<E, P, H, O, Q, S> {
    /// One search of `state` at the depth of `limits` (or the configured depth) in the explicit
    /// window `(alpha, beta)`, without iterative deepening or aspiration: the building block of
    /// MTD(f)-style drivers, and how the bound reporting is tested. The returned value honours its
    /// [`Bound`] against the true score; with `alpha < value < beta` it is exact.
    pub fn search_window<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        alpha: Score,
        beta: Score,
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame,
        Self: Hooks<G>,
    {
        let start = Instant::now();
        self.prepare_search(game, state);
        let table = self.tt.take();
        let window = (alpha, beta);
        let result = self.window(game, state, limits, table.as_ref(), window, None, start);
        self.tt = table;
        result
    }

    /// Whether the last [`search_window`](Self::search_window) was closed: it ran to the end, and
    /// every line it searched ended the game (no static value of a game in progress, no move
    /// beyond the horizon, nothing pruned or cut by a heuristic). Its value and bound are then
    /// the game's own, whatever the depth: a deeper search would return them again.
    pub(crate) fn last_window_closed(&self) -> bool {
        self.closed
    }
}

impl<G, E, P, H, O, Q, S> Searcher<G> for AlphaBeta<E, P, H, O, Q, S>
where
    G: ZeroSumGame,
    Self: Hooks<G>,
{
    /// Searches to `limits.depth` (or the configured depth): one iteration, or iterations `1..=depth`
    /// with [`iterative`](AlphaBetaConfig::iterative), stopping after an iteration every line of
    /// which ended the game (the result's `depth` is then that iteration's). The value is from the
    /// root's side to move's view; a limit stops the search within
    /// [`CHECK_INTERVAL`](crate::CHECK_INTERVAL) nodes (under a deadline, within about a
    /// millisecond of it) and returns the last completed iteration.
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.prepare_search(game, state);
        let table = self.tt.take();
        let result = self.deepen(game, state, limits, table.as_ref(), 0, start);
        self.tt = table;
        result
    }
}

impl<E, P, H, O, Q, S> Reset for AlphaBeta<E, P, H, O, Q, S> {
    /// Empties the transposition table and forgets killers and history; the evaluator is reset
    /// ([`Evaluator::reset`]) at the start of the next search.
    fn reset(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        self.heuristics.clear();
        self.reset_evaluator = true;
    }
}

//! [`Searcher`]: anything that picks a move, with the [`Limits`] it must honour and the
//! [`SearchResult`] and [`SearchStats`] it reports.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::game::Game;
use crate::score::{Bound, Score};

/// What a search may spend. Every field is optional; a searcher stops at the first limit reached and
/// returns the result of its last completed iteration (or its best guess so far if none completed).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nominal depth in plies (for iterative deepening: the last iteration).
    pub depth: Option<u32>,
    /// Maximum nodes generated (for UCT: simulations).
    pub nodes: Option<u64>,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// A flag another thread sets to stop the search as soon as possible.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limits at all: searchers fall back to their configured depth or simulation count.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Search to exactly `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Adds a node budget.
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// Adds a deadline `time` from now.
    pub fn with_time(mut self, time: Duration) -> Limits {
        self.deadline = Some(Instant::now() + time);
        self
    }

    /// Adds a shared stop flag.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    /// Whether the search must stop now, having generated `nodes` nodes. Reads the clock, so call it
    /// every few thousand nodes rather than at every node.
    pub fn exhausted(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|max| nodes >= max)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// How often to look at [`Limits`]: every `interval` units of a search's work (nodes,
/// simulations), the interval following the work's cost so that a deadline is overrun by about a
/// millisecond whether a unit costs a microsecond or much more (a leaf valued by a search of its
/// own, a playout on a slow reasoner). Each look measures the time since the previous one: closer
/// than [`Pace::TARGET`], the next look waits twice as many units (up to `max`); further, half as
/// many (down to 1). The first look measures nothing and keeps the interval at 1. Reading the
/// clock costs more than a fast unit of work; this keeps it to about one read a millisecond.
///
/// ```
/// use game_trait::{Limits, Pace};
/// use std::time::Duration;
///
/// let limits = Limits::none().with_time(Duration::from_millis(5));
/// let mut pace = Pace::new(256);
/// let (mut work, mut next) = (0u64, 0u64);
/// loop {
///     if work == next {
///         if limits.exhausted(work) {
///             break;
///         }
///         next = work + pace.interval_after_look();
///     }
///     work += 1; // one unit of the search's work
/// }
/// assert!(work > 0);
/// ```
#[derive(Clone, Debug)]
pub struct Pace {
    interval: u64,
    max: u64,
    last: Option<Instant>,
}

impl Pace {
    /// The time between looks the interval aims at.
    pub const TARGET: Duration = Duration::from_millis(1);

    /// A pace starting at every unit, never slower than one look every `max` units (at least 1).
    pub fn new(max: u64) -> Pace {
        Pace {
            interval: 1,
            max: max.max(1),
            last: None,
        }
    }

    /// Units of work between looks now.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// To be called at every look: measures the time since the previous look, adjusts the
    /// interval and returns it (the units of work to the next look).
    pub fn interval_after_look(&mut self) -> u64 {
        let now = Instant::now();
        if let Some(last) = self.last {
            self.interval = if now.duration_since(last) < Self::TARGET {
                (self.interval * 2).min(self.max)
            } else {
                (self.interval / 2).max(1)
            };
        }
        self.last = Some(now);
        self.interval
    }
}

/// Counters every searcher keeps. "Generated" is the papers' complexity measure (Zhang counts nodes
/// generated); the others explain where the work went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Nodes generated: every position created by applying a move, plus the root.
    pub generated: u64,
    /// Nodes expanded: interior nodes whose moves were generated and at least one searched.
    pub expanded: u64,
    /// Leaves whose static value was computed by the evaluator.
    pub evaluated: u64,
    /// Cutoffs (a successor's value failed high against β).
    pub cutoffs: u64,
    /// Children skipped by a forward-pruning hook, or that ended their parent by its node cut.
    pub pruned: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Transposition-table probes that found the position.
    pub tt_hits: u64,
    /// Nodes classified PV (exact value).
    pub pv_nodes: u64,
    /// Nodes classified Cut (lower bound).
    pub cut_nodes: u64,
    /// Nodes classified All (upper bound).
    pub all_nodes: u64,
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, o: SearchStats) {
        self.generated += o.generated;
        self.expanded += o.expanded;
        self.evaluated += o.evaluated;
        self.cutoffs += o.cutoffs;
        self.pruned += o.pruned;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.pv_nodes += o.pv_nodes;
        self.cut_nodes += o.cut_nodes;
        self.all_nodes += o.all_nodes;
    }
}

/// What a search found. `value` is from the root's side to move's point of view.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play, or `None` when the search names none: the root is a finished game, or
    /// the search did not look below the root (α/β or Minimax at depth 0, a horizon that admits
    /// no root move), or Minimax was stopped before it finished a root move. A stopped α/β that
    /// completed no iteration still names a move in a game in progress: the best root move it
    /// finished, else the first legal move, with the root's static value and `depth` 0.
    pub best_move: Option<M>,
    /// The value of the root, from its side to move's point of view.
    pub value: Score,
    /// What `value` says about the root's true score at the searched depth.
    pub bound: Bound,
    /// Principal variation, starting with `best_move`: the line both sides are expected to play.
    /// It may end before the searched depth: where a transposition-table entry or a pruning hook
    /// settled a node, the line below it was not searched this time and is not known.
    pub pv: Vec<M>,
    /// Deepest completed iteration (nominal depth), 0 if none.
    pub depth: u32,
    /// Work done, summed over all iterations.
    pub stats: SearchStats,
    /// Wall-clock time taken.
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// A result for a root with nothing to search (a finished game): its static value, exact.
    pub fn leaf(value: Score) -> SearchResult<M> {
        SearchResult {
            best_move: None,
            value,
            bound: Bound::Exact,
            pv: Vec::new(),
            depth: 0,
            stats: SearchStats {
                generated: 1,
                evaluated: 1,
                ..SearchStats::default()
            },
            elapsed: Duration::ZERO,
        }
    }
}

/// Anything that chooses a move in a position: every algorithm of the workspace implements it, and
/// a fixed-depth searcher is also an [`Evaluator`](crate::Evaluator) through
/// [`FixedDepth`](crate::FixedDepth), so searchers compose.
///
/// What a searcher learned from earlier searches (a transposition table, history) it may keep for
/// the next one; [`Reset::reset`] forgets it.
pub trait Searcher<G: Game>: Reset {
    /// Searches `state` within `limits` and reports the best move and the root's value.
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move>;
}

/// Forgetting what earlier searches learned. A supertrait of [`Searcher`] that does not name the
/// game, so that `searcher.reset()` needs no type annotation on a searcher that plays many games.
pub trait Reset {
    /// Forgets what earlier searches learned (transposition table, history, on-line bounds), so that
    /// the next search behaves as on a fresh searcher. A searcher that owns an evaluator also
    /// resets it ([`Evaluator::reset`](crate::Evaluator::reset)), at the start of its next search.
    /// The default does nothing: for searchers that keep nothing between searches.
    fn reset(&mut self) {}
}

impl<S: Reset + ?Sized> Reset for Box<S> {
    fn reset(&mut self) {
        (**self).reset()
    }
}

impl<G: Game, S: Searcher<G> + ?Sized> Searcher<G> for Box<S> {
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        (**self).search(game, state, limits)
    }
}

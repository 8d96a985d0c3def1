//! The recursive node search: fail-soft negamax α/β with exact bound reporting, PVS null
//! windows, transposition table, move ordering, the hooks, and the quiescence search below the
//! horizon.
//!
//! Every quantity is named as in *Minimax with α/β Pruning*: at a node, `alpha0` is
//! `node·alpha[0]`, `alpha` the running `node·alpha[k]`, `retval` the running `node·best[k]`, `x` the
//! return value of the successor just searched as the node sees it and `d` its bound. Where the turn
//! passes to the other player (every move, in a game that alternates) that is the successor's value
//! negated and its bound inverted, and the successor is searched in the window negated and swapped;
//! where the same player moves again the successor is searched in the node's own window and its
//! value and bound are the node's as they are ([`child_window`], [`to_parent`]).

use game_trait::{
    is_decisive, Bound, Cutoff, Evaluator, ForwardPruning, HorizonPolicy, MoveHints, MoveList,
    MoveOrdering, PlayerId, PruneContext, Quiescence, Score, SearchStats, Selectivity, Step,
    ZeroSumGame, INFINITY, MOVES_INLINE,
};
use smallvec::SmallVec;

use super::busy::BusyMoves;
use super::pv::PvTable;
use super::AlphaBetaConfig;
use crate::ordering::{
    move_key, pack, sort_descending, unpack, Heuristics, BEST_REPLY_PRIORITY, KILLER_PRIORITY,
    NULL_MOVE_KEY, PROMOTED_KEY, TT_MOVE_PRIORITY,
};
use crate::stopwatch::Stopwatch;
use crate::tt::{TranspositionTable, TtEntry, NO_MOVE};
use crate::MAX_PLY;

/// What the parent learns from one successor.
#[derive(Clone, Copy, Debug)]
struct ChildResult {
    /// The successor's negated return value (parent's point of view).
    value: Score,
    /// Its inverted bound (parent's point of view).
    bound: Bound,
    /// Whether the pruning hook skipped it instead of searching it.
    pruned: bool,
    /// Whether it has no line below it (pruned, or a leaf): its PV row was not written.
    lineless: bool,
}

/// The budgets a successor may be searched with: its full one, and under late-move reductions a
/// smaller one to try first.
#[derive(Clone, Copy, Debug)]
struct Budgets<B> {
    full: B,
    reduced: Option<B>,
}

/// What a successor's search needs to know of its parent.
#[derive(Clone, Copy, Debug)]
struct Parent {
    /// The parent's ply.
    ply: usize,
    /// The parent's static value (its own view), for the pruning hook; 0 without one.
    static_value: Score,
    /// The parent's side to move (read only for games that may not alternate).
    mover: PlayerId,
    /// Whether the parent's side to move is the root's.
    root_side: bool,
}

/// The window `(alpha, beta)` of a node as a child searches it: negated and swapped where the turn
/// passes to the other player (`turns`), as it is where the same player moves again.
#[inline(always)]
fn child_window(turns: bool, alpha: Score, beta: Score) -> (Score, Score) {
    if turns {
        (-beta, -alpha)
    } else {
        (alpha, beta)
    }
}

/// A child's value and bound as its parent sees them: negated and inverted where the turn passed
/// (`turns`), as they are where the same player moved again.
#[inline(always)]
fn to_parent(turns: bool, (value, bound): (Score, Bound)) -> (Score, Bound) {
    if turns {
        (-value, bound.invert())
    } else {
        (value, bound)
    }
}

/// What a node knows before it searches its moves.
struct NodeFacts<B> {
    budget: B,
    /// The horizon's draft of `budget`.
    draft: u32,
    ply: usize,
    /// The window the node was given: `node·alpha[0]` and β.
    alpha0: Score,
    beta: Score,
    /// The node's static value, if its parent computed it.
    known: Option<Score>,
    /// The side to move (read only for games that may not alternate).
    mover: PlayerId,
    /// Whether the side to move is the root's.
    root_side: bool,
    /// The heuristics' index of the side to move.
    side: usize,
    /// The node's key, if the table knows it.
    hash: Option<u64>,
    /// The table's move for the node, `NO_MOVE` if none.
    tt_move: u16,
    /// The move a singularity test searches the node without.
    excluded: Option<u16>,
    /// [`Run::cut_short`] on entering the node: unchanged on leaving it if the node's search
    /// was closed.
    cut_short_before: u64,
}

/// What the table says of a node.
enum Probe {
    /// An entry settles the node: its value and bound.
    Settled((Score, Bound)),
    /// The node is to be searched; the entry that may make its table move singular.
    Open(Option<TtEntry>),
}

/// The search order of a node's moves. (The moves themselves are kept apart: the game's move
/// generator writes them through a reference, and a struct whose address a call takes stays in
/// memory whole, where the order's keys, unused by a plain search, would be a frame's largest
/// part.)
struct SearchOrder {
    /// When `ordered`: each move's priority and index ([`pack`]), in search order.
    keys: SmallVec<[i64; MOVES_INLINE]>,
    ordered: bool,
    /// Whether the ordering hook scores the moves at this node.
    hook_orders: bool,
    /// Whether the ordering hook built (and counted) every successor already.
    generated_at_once: bool,
}

impl SearchOrder {
    /// The index in `list` of the `k`-th move in search order.
    #[inline(always)]
    fn index(&self, k: usize) -> usize {
        if self.ordered {
            unpack(self.keys[k])
        } else {
            k
        }
    }

    /// Whether the `k`-th move in search order was promoted out of the hook's order (the table
    /// move, a killer, the countermove).
    #[inline(always)]
    fn promoted(&self, k: usize) -> bool {
        self.ordered && self.keys[k] >= PROMOTED_KEY
    }
}

/// The move being searched: `k`-th in search order, `i`-th generated.
#[derive(Clone, Copy, Debug)]
struct MoveAt<M> {
    k: usize,
    i: usize,
    mv: M,
    /// Whether it was promoted out of the hook's order.
    promoted: bool,
    parent: Parent,
}

/// The successor loop's running values, named as in *Minimax with α/β Pruning*.
struct Scan {
    /// `node·alpha[0]`.
    alpha0: Score,
    /// `node·alpha[k]`, raised by each successor searched.
    alpha: Score,
    /// `retval ⋆ beta` as one comparison: `≥ β` is `≥ β`, `> β` is `≥ β + 1` on integers.
    beta_cut: Score,
    /// `node·best[k]`: `unknown` (−∞) until the first successor (`tried == 1`).
    retval: Score,
    bound: Bound,
    /// The best move's index among the generated moves, and its own bound.
    best: usize,
    best_bound: Bound,
    /// Successors given a budget: searched or pruned.
    tried: usize,
    /// Successors searched (not pruned).
    searched: usize,
    /// Whether some successor's value met `alpha[0]` (a Pv node, if none cut).
    meets_alpha: bool,
    /// Whether a successor cut the node off, and whether it left moves unexamined.
    cut: bool,
    cut_early: bool,
    /// The node's static value for the pruning hook (0 without one).
    static_value: Score,
}

impl Scan {
    fn new(alpha: Score, beta: Score, cutoff: Cutoff, static_value: Score) -> Scan {
        let beta_cut = match cutoff {
            Cutoff::AtLeastBeta => beta,
            Cutoff::AboveBeta => beta.saturating_add(1),
        };
        Scan {
            alpha0: alpha,
            alpha,
            beta_cut,
            retval: -INFINITY,
            bound: Bound::Exact,
            best: 0,
            best_bound: Bound::Upper,
            tried: 0,
            searched: 0,
            meets_alpha: false,
            cut: false,
            cut_early: false,
            static_value,
        }
    }

    /// Takes the result of successor `i` of the node at `ply`; whether it cuts the node off.
    /// `if retval = unknown or x ≥ retval: when x = retval then bound ← join(bound, d); when
    /// x > retval then bound ← d; retval ← x`, and the best move's line into the PV table.
    #[inline(always)]
    fn record(&mut self, pv: &mut PvTable, ply: usize, i: usize, child: ChildResult) -> bool {
        let ChildResult {
            value: x,
            bound: d,
            pruned,
            lineless,
        } = child;
        self.searched += usize::from(!pruned);
        let new_best = if self.tried == 1 || x > self.retval {
            self.bound = d;
            self.retval = x;
            true
        } else if x == self.retval {
            self.bound = self.bound.join(d);
            // Among equal values the best move is the one whose bound the join kept (lower,
            // else exact, else upper): a move only known to be "at most retval" must not be
            // named best when another is known to reach it.
            d > self.best_bound
        } else {
            false
        };
        if new_best {
            self.best = i;
            self.best_bound = d;
            // The line only matters where the value can be exact (it reaches α) and at the
            // root, which must name a move even when it fails low; elsewhere copying it would
            // be most of the cost of a node.
            if x >= self.alpha || ply == 0 {
                let index = u16::try_from(i).unwrap_or(NO_MOVE);
                if lineless {
                    pv.set_single(ply, index);
                } else {
                    pv.update(ply, index);
                }
            }
        }
        self.meets_alpha |= x >= self.alpha0;
        if self.retval >= self.beta_cut {
            self.cut = true;
            return true;
        }
        self.alpha = self.alpha.max(x);
        false
    }
}

/// Which of a node's tests can be true, as the const parameter `SHAPE` of the node functions
/// ([`Run::interior`], [`Run::successor`]): a test of an option that is off in every node of the
/// search is the constant `false` there, and its code is compiled out. A search runs the
/// narrowest shape its options allow ([`Run::shape`]); its values, bounds, lines and counts are
/// those of [`FULL`](shape::FULL) (a test in this module compares them).
///
/// A third shape for a table and heuristics without selectivity (the `pvs` preset) was tried
/// and measured: no faster than the full one on the `iterative` line of
/// `benches/benches/vs_minimax.rs`, so it is not kept.
pub(crate) mod shape {
    /// No table, no killers, history or countermoves, no selectivity, no hook that prunes,
    /// orders, extends or reads hints: plain α/β, the `fixed` line of the bench, 1.3 times
    /// faster than the full shape there.
    pub(crate) const PLAIN: u8 = 0;
    /// Everything.
    pub(crate) const FULL: u8 = 1;
}
use shape::{FULL, PLAIN};

/// What a successor's search returns once a limit stops it; callers discard it.
const STOPPED_CHILD: ChildResult = ChildResult {
    value: 0,
    bound: Bound::Exact,
    pruned: false,
    lineless: true,
};

/// The value returned by every frame once a limit stops the search; callers discard it.
const STOPPED: (Score, Bound) = (0, Bound::Exact);

/// One search: borrowed parts of the searcher plus this search's counters and limits.
pub(crate) struct Run<'a, G: ZeroSumGame, E, P, H, O, Q, S> {
    pub(crate) game: &'a G,
    pub(crate) eval: &'a mut E,
    pub(crate) pruning: &'a mut P,
    pub(crate) horizon: &'a mut H,
    pub(crate) ordering: &'a mut O,
    pub(crate) quiescence: &'a mut Q,
    pub(crate) selectivity: &'a mut S,
    pub(crate) config: AlphaBetaConfig,
    pub(crate) tt: Option<&'a TranspositionTable>,
    pub(crate) heuristics: &'a mut Heuristics,
    pub(crate) pv: &'a mut PvTable,
    pub(crate) stats: SearchStats,
    pub(crate) watch: Stopwatch<'a>,
    /// Whether a search stopped before finishing an iteration reports the root's static value
    /// (else it reports that nothing is known: a value of −∞ as a lower bound).
    pub(crate) static_fallback: bool,
    /// In a parallel search with move deferral: the moves the threads are searching.
    pub(crate) busy: Option<&'a BusyMoves>,
    /// The ply of the node reached by a null move being searched (its own null move is not
    /// tried: two passes in a row search the same position shallower), `usize::MAX` for none.
    pub(crate) after_null: usize,
    /// Plies added by extensions along the current line.
    pub(crate) extended: u32,
    /// The root's draft in the current search: the cap on `extended`.
    pub(crate) root_draft: u32,
    /// A singular-extension test about to search the node at this ply without this move (its
    /// index in the generated moves); taken by that node as it starts, so its children never
    /// see it.
    pub(crate) exclusion: Option<(usize, u16)>,
    /// The root's side to move (kept only for games that may not alternate).
    pub(crate) root_player: PlayerId,
    /// How many times this search stopped short of the end of the game: a game in progress
    /// valued statically, a move the horizon declined, a child pruned or a node cut by a
    /// heuristic, a table entry that holds only at its own draft. A search that adds none is
    /// *closed*: every line it searched ended the game, so its value and bound are the game's
    /// own, and a deeper search would return them again.
    pub(crate) cut_short: u64,
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
    /// Whether a hook asks for [`MoveHints`]: the engine then keeps the keys of the moves on the
    /// path and the best-reply tables (as it does for `countermoves`).
    pub(crate) const TRACKS_PATH: bool = H::HINTS || O::HINTS;

    /// Whether this search keeps the path's move keys and the reply tables.
    #[inline(always)]
    fn tracks_path(&self) -> bool {
        Self::TRACKS_PATH || self.config.countermoves
    }

    /// The side to move at `state`, for games that may not alternate; a constant for games that
    /// do, which never need it.
    #[inline(always)]
    fn mover(&self, state: &G::State) -> PlayerId {
        if G::ALTERNATES {
            0
        } else {
            self.game.side_to_move(state)
        }
    }

    /// Whether the node at `ply`, whose side to move is `mover`, is played by the root's side to
    /// move: the ply's parity where the game alternates, else the game's word.
    #[inline(always)]
    fn is_root_side(&self, mover: PlayerId, ply: usize) -> bool {
        if G::ALTERNATES {
            ply % 2 == 0
        } else {
            mover == self.root_player
        }
    }

    /// Whether the turn passes from a node whose side to move is `mover` to its successor `child`:
    /// always where the game alternates (a constant), else as the game says.
    #[inline(always)]
    fn turns(&self, mover: PlayerId, child: &G::State) -> bool {
        G::ALTERNATES || self.game.side_to_move(child) != mover
    }

    /// The heuristics' index of a side: 0 for the root's side to move, 1 for the other.
    #[inline(always)]
    fn side_index(root_side: bool) -> usize {
        usize::from(!root_side)
    }

    /// What the engine's heuristics know of the move `i` (with `key`) at `ply`, played by the
    /// side of `side_index`.
    #[inline]
    fn hints(&self, i: usize, key: u64, tt_move: u16, ply: usize, side: usize) -> MoveHints {
        let mut hints = self.heuristics.hints(ply, side, key);
        if i == tt_move as usize {
            hints |= MoveHints::TABLE;
        }
        if self.config.killers && self.heuristics.killer_rank(ply, key).is_some() {
            hints |= MoveHints::KILLER;
        }
        hints
    }

    /// A leaf: its static value, exact (`return evaluate(position), exact`). `known` is the
    /// node's own static value when the parent already computed it for the pruning hook.
    #[inline(always)]
    fn leaf(
        &mut self,
        state: &G::State,
        known: Option<Score>,
        alpha: Score,
        beta: Score,
    ) -> (Score, Bound) {
        self.stats.evaluated += 1;
        if let Some(v) = known.filter(|_| !Q::ENABLED) {
            // Known only to a pruning hook's search, which may value a finished game too.
            self.cut_short += u64::from(self.game.outcome(state).is_none());
            return (v, Bound::Exact);
        }
        if let Some(outcome) = self.game.outcome(state) {
            return (self.eval.terminal(self.game, state, outcome), Bound::Exact);
        }
        // A game in progress, valued where the tree stops: the search is not closed.
        self.cut_short += 1;
        if Q::ENABLED {
            // The leaf's state is borrowed immutably; make/unmake games need their own copy.
            let depth = self.config.quiescence_depth;
            return self.quiesce(&mut state.clone(), known, alpha, beta, depth);
        }
        // The evaluator's bounds follow `≥ β` fail-soft α/β; under `> β` a lower bound may only
        // be returned above β and an upper bound only below α, so its window is one wider.
        let (lo, hi) = match self.config.cutoff {
            Cutoff::AtLeastBeta => (alpha, beta),
            Cutoff::AboveBeta => (alpha.saturating_sub(1), beta.saturating_add(1)),
        };
        let (value, bound) = self.eval.evaluate_window(self.game, state, lo, hi);
        // Only what the window allows: a bound outside its side of the window would break the
        // bookkeeping, so it is taken as exact only if the evaluator says so.
        match bound {
            Bound::Lower if value >= hi => (value, Bound::Lower),
            Bound::Upper if value <= lo => (value, Bound::Upper),
            _ => (value, Bound::Exact),
        }
    }

    /// The quiescence value of a horizon leaf in progress, in the window `(alpha, beta)`:
    /// `max(eval, max over noisy moves of −q(child))`, the stand-pat value counting as the first
    /// successor searched, with the bound bookkeeping of [`interior`](Self::interior) (a stand-pat
    /// cutoff is a lower bound when noisy moves are left unsearched). `depth` noisy plies at most;
    /// the `state` is restored before returning.
    fn quiesce(
        &mut self,
        state: &mut G::State,
        known: Option<Score>,
        alpha: Score,
        beta: Score,
        depth: u32,
    ) -> (Score, Bound) {
        let stand_pat = known.unwrap_or_else(|| self.eval.evaluate(self.game, state));
        if depth == 0 {
            return (stand_pat, Bound::Exact);
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        self.game.moves(state, &mut moves);
        moves.retain(|mv| self.quiescence.is_noisy(self.game, state, *mv));
        let mover = self.mover(state);
        let (mut retval, mut bound, mut alpha) = (stand_pat, Bound::Exact, alpha.max(stand_pat));
        for &mv in &moves {
            if self.config.cutoff.fails_high(retval, beta) {
                // A cutoff with noisy moves left unsearched: they may only raise the value.
                return (retval, Bound::Lower);
            }
            self.stats.generated += 1;
            if self.watch.tick(self.stats.generated) {
                return STOPPED;
            }
            let (x, d) = match self.game.apply(state, mv) {
                Some(mut child) => self.quiesce_child(&mut child, mover, alpha, beta, depth),
                None => {
                    let xd = self.quiesce_child(state, mover, alpha, beta, depth);
                    self.game.undo(state, mv);
                    xd
                }
            };
            if self.watch.stopped() {
                return STOPPED;
            }
            if x > retval {
                (retval, bound) = (x, d);
            } else if x == retval {
                bound = bound.join(d);
            }
            alpha = alpha.max(x);
        }
        (retval, bound)
    }

    /// One noisy successor of a quiescence node whose side to move is `mover`: terminal, or
    /// searched one noisy ply shallower; its value and bound as the node sees them.
    #[inline]
    fn quiesce_child(
        &mut self,
        child: &mut G::State,
        mover: PlayerId,
        alpha: Score,
        beta: Score,
        depth: u32,
    ) -> (Score, Bound) {
        self.stats.evaluated += 1;
        let turns = self.turns(mover, child);
        let own = match self.game.outcome(child) {
            Some(outcome) => (self.eval.terminal(self.game, child, outcome), Bound::Exact),
            None => {
                let (lo, hi) = child_window(turns, alpha, beta);
                self.quiesce(child, None, lo, hi, depth - 1)
            }
        };
        to_parent(turns, own)
    }

    /// Whether a table entry of sufficient draft settles the node for the window `(alpha, beta)`
    /// without a search. Only results a real search could have returned are accepted: an exact
    /// value, a lower bound that fails high, or an upper bound that fails low (the mirror test), so
    /// the invariants the bound bookkeeping relies on (a lower bound is at least β, an upper
    /// bound at most α) still hold.
    #[inline]
    fn settles(&self, e: &TtEntry, alpha: Score, beta: Score) -> bool {
        let cutoff = self.config.cutoff;
        match e.bound {
            Bound::Exact => true,
            Bound::Lower => cutoff.fails_high(e.value, beta),
            Bound::Upper => cutoff.fails_high(-e.value, -alpha),
            // The engine stores no estimates; one would settle nothing.
            Bound::Estimate => false,
        }
    }

    /// Searches the node `state` with `budget` in the window `(alpha, beta)`, `ply` plies below the
    /// root, and returns its value with what that value says about its score
    /// (`search(position, alpha, beta)` returning `retval, bound`). `known` is the node's static value
    /// if the parent computed it. `state` is restored before returning (make/unmake games).
    pub(crate) fn node(
        &mut self,
        state: &mut G::State,
        budget: H::Budget,
        alpha: Score,
        beta: Score,
        ply: usize,
        known: Option<Score>,
    ) -> (Score, Bound) {
        if self.is_leaf(state, &budget, ply) {
            self.pv.clear(ply);
            return self.leaf(state, known, alpha, beta);
        }
        match self.shape() {
            PLAIN => self.interior::<PLAIN>(state, budget, alpha, beta, ply, known),
            _ => self.interior::<FULL>(state, budget, alpha, beta, ply, known),
        }
    }

    /// The narrowest [`shape`] of node this search's options allow.
    pub(crate) fn shape(&self) -> u8 {
        #[cfg(test)]
        if tests::FULL_ONLY.with(std::cell::Cell::get) {
            return FULL;
        }
        let c = &self.config;
        let selective = c.null_move.is_some()
            || c.singular_extension.is_some()
            || c.late_move_reduction.is_some()
            || c.etc_draft.is_some()
            || self.busy.is_some()
            || P::ENABLED
            || S::EXTENDS;
        let ordered = self.tt.is_some()
            || c.killers
            || c.history
            || c.countermoves
            || O::ENABLED
            || Self::TRACKS_PATH;
        if selective || ordered {
            FULL
        } else {
            PLAIN
        }
    }

    /// Whether this thread defers busy moves at a node of `draft` (see
    /// [`AlphaBetaConfig::defer_draft`]): only where the horizon does not care about the order.
    #[inline(always)]
    fn defers(&self, draft: u32) -> bool {
        H::ORDER_INDEPENDENT && self.config.defer_draft.is_some_and(|d| draft >= d)
    }

    /// Whether the node is a leaf by the horizon, or by [`MAX_PLY`] whatever the horizon says (the
    /// stack must not overflow).
    #[inline(always)]
    fn is_leaf(&self, state: &G::State, budget: &H::Budget, ply: usize) -> bool {
        ply >= MAX_PLY || self.horizon.is_leaf(self.game, state, budget)
    }

    /// [`node`](Self::node) for a node that is not a horizon leaf, in the search's
    /// [`shape`](Self::shape): the table, the null move and the singularity test first, each of
    /// which may settle the node; then its moves, searched in order by [`scan`](Self::scan); then
    /// what the node learnt goes to the heuristics and the table ([`conclude`](Self::conclude)).
    fn interior<const SHAPE: u8>(
        &mut self,
        state: &mut G::State,
        budget: H::Budget,
        alpha: Score,
        beta: Score,
        ply: usize,
        known: Option<Score>,
    ) -> (Score, Bound) {
        let excluded = match SHAPE {
            FULL => self.excluded_move(ply),
            _ => None,
        };
        self.pv.clear(ply);
        if let Some(outcome) = self.game.outcome(state) {
            // A finished game: scored by its outcome, exact, whatever its budget.
            self.stats.evaluated += 1;
            return (self.eval.terminal(self.game, state, outcome), Bound::Exact);
        }
        let mut node = self.facts::<SHAPE>(state, budget, (alpha, beta), ply, known, excluded);
        let singular_entry = match self.probe(&mut node) {
            Probe::Settled(settled) => return settled,
            Probe::Open(entry) => entry,
        };
        if SHAPE == FULL && S::NULL_MOVES && self.config.null_move.is_some() && excluded.is_none() {
            if let Some(cut) = self.null_move_node(state, &node) {
                return cut;
            }
        }
        let singular = match singular_entry {
            Some(entry) => {
                let singular = self.is_singular(state, &budget, &entry, ply);
                if self.watch.stopped() {
                    return STOPPED;
                }
                singular
            }
            None => false,
        };
        // Filled in place: a move list returned by value is copied, in every node.
        let mut moves: MoveList<G::Move> = MoveList::new();
        let mut order = SearchOrder {
            keys: SmallVec::new(),
            ordered: false,
            hook_orders: false,
            generated_at_once: false,
        };
        if !self.generate::<SHAPE>(state, &node, &mut moves, &mut order) {
            // A game in progress without a move breaks `ZeroSumGame::moves`' contract (a game
            // that cannot move must pass or be over): valued statically rather than searched.
            return self.leaf(state, known, alpha, beta);
        }
        // Not in a singularity test: the cutoff could come from the excluded move.
        let etc = SHAPE == FULL
            && self.config.etc_draft.is_some_and(|d| node.draft >= d)
            && excluded.is_none();
        if self.tt.is_some() && ply > 0 && etc {
            let at = (ply, node.mover);
            if let Some(x) = self.enhanced_cutoff(state, &budget, &moves, beta, at) {
                self.classify(true, true);
                return (x, Bound::Lower);
            }
        }
        let static_value = self.static_value(state, &node);
        let mut scan = Scan::new(node.alpha0, node.beta, self.config.cutoff, static_value);
        let node_moves = (&moves[..], &order);
        if !self.scan::<SHAPE>(state, &node, node_moves, singular, &mut scan) {
            return STOPPED;
        }
        self.conclude::<SHAPE>(state, &node, &moves, &scan)
    }

    /// What the node knows before its moves: its budget and draft, its window, who moves, and its
    /// key in the table if it has one (a state without a key is neither probed nor stored, and a
    /// node searched without a move is not the node the table knows).
    #[inline(always)]
    fn facts<const SHAPE: u8>(
        &mut self,
        state: &G::State,
        budget: H::Budget,
        (alpha, beta): (Score, Score),
        ply: usize,
        known: Option<Score>,
        excluded: Option<u16>,
    ) -> NodeFacts<H::Budget> {
        let draft = self.horizon.draft(&budget);
        if ply == 0 {
            self.root_draft = draft;
        }
        let mover = self.mover(state);
        let root_side = self.is_root_side(mover, ply);
        let hash = match SHAPE {
            FULL => self
                .tt
                .filter(|_| excluded.is_none())
                .and_then(|_| self.game.state_hash(state)),
            _ => None,
        };
        NodeFacts {
            budget,
            draft,
            ply,
            alpha0: alpha,
            beta,
            known,
            mover,
            root_side,
            side: Self::side_index(root_side),
            hash,
            tt_move: NO_MOVE,
            excluded,
            cut_short_before: self.cut_short,
        }
    }

    /// Probes the table for the node: its value if an entry settles it, else the entry that may
    /// make the table move singular (tested after the null move). The table move goes to
    /// `node.tt_move`.
    #[inline(always)]
    fn probe(&mut self, node: &mut NodeFacts<H::Budget>) -> Probe {
        let (Some(tt), Some(hash)) = (self.tt, node.hash) else {
            return Probe::Open(None);
        };
        self.stats.tt_probes += 1;
        let Some(entry) = tt.probe(hash) else {
            return Probe::Open(None);
        };
        self.stats.tt_hits += 1;
        node.tt_move = entry.mv;
        // Only an entry of exactly this budget answers the question asked here (the score at
        // this draft); a deeper one would answer a different one. Never at the root, which must
        // produce a move.
        let same_budget =
            entry.draft == node.draft && entry.budget == self.horizon.budget_key(&node.budget);
        if node.ply > 0 && same_budget && self.settles(&entry, node.alpha0, node.beta) {
            self.cut_short += u64::from(!entry.closed);
            return Probe::Settled((entry.value, entry.bound));
        }
        Probe::Open(self.config.singular_extension.and(Some(entry)))
    }

    /// The node cut by a null move (see [`null_move_cut`](Self::null_move_cut)), counted and
    /// stored as a lower bound; `None` if the null move does not cut it.
    fn null_move_node(
        &mut self,
        state: &G::State,
        node: &NodeFacts<H::Budget>,
    ) -> Option<(Score, Bound)> {
        let (alpha, beta) = (node.alpha0, node.beta);
        let value = self.null_move_cut(state, &node.budget, alpha, beta, node.ply, node.known)?;
        // A heuristic's answer: the node's moves were not searched.
        self.cut_short += 1;
        self.classify(true, true);
        if let (Some(tt), Some(hash)) = (self.tt, node.hash) {
            let key = self.horizon.budget_key(&node.budget);
            tt.store(hash, value, Bound::Lower, node.draft, key, NO_MOVE, false);
        }
        Some((value, Bound::Lower))
    }

    /// Fills `moves` with the node's moves and `order` with their search order when the node
    /// orders them (the table move, the killers, the countermove, then the ordering hook's score
    /// plus history); `false` if it has none.
    #[inline(always)]
    fn generate<const SHAPE: u8>(
        &mut self,
        state: &G::State,
        node: &NodeFacts<H::Budget>,
        moves: &mut MoveList<G::Move>,
        order: &mut SearchOrder,
    ) -> bool {
        order.hook_orders = O::ENABLED && self.ordering.orders_at(node.draft);
        self.game.moves(state, moves);
        let n = moves.len();
        if n == 0 {
            return false;
        }
        let c = &self.config;
        order.ordered = SHAPE == FULL
            && n < NO_MOVE as usize
            && (node.tt_move != NO_MOVE
                || c.killers
                || c.history
                || c.countermoves
                || order.hook_orders);
        if order.ordered {
            let at = (node.draft, node.ply, node.side);
            let hook_orders = order.hook_orders;
            self.order(state, moves, node.tt_move, at, hook_orders, &mut order.keys);
        }
        // An ordering that builds every successor generated them all (see `MoveOrdering`).
        order.generated_at_once = order.hook_orders && O::GENERATES_CHILDREN;
        if order.generated_at_once {
            self.stats.generated += n as u64;
        }
        true
    }

    /// The node's static value for the pruning hook, computed once per node, and only if a hook
    /// will read it (0 otherwise).
    #[inline(always)]
    fn static_value(&mut self, state: &G::State, node: &NodeFacts<H::Budget>) -> Score {
        match (P::ENABLED, node.known) {
            (false, _) => 0,
            (true, Some(v)) => v,
            (true, None) => self.eval.evaluate(self.game, state), // in progress: tested above
        }
    }

    /// Searches the node's moves in order until one cuts it off or the horizon ends the node
    /// (`for each move … if retval ⋆ beta: break`), into `scan`; in a parallel search the moves
    /// other threads are searching wait until the others are done. `false` if a limit stopped
    /// the search.
    #[inline(always)]
    fn scan<const SHAPE: u8>(
        &mut self,
        state: &mut G::State,
        node: &NodeFacts<H::Budget>,
        (moves, order): (&[G::Move], &SearchOrder),
        singular: bool,
        scan: &mut Scan,
    ) -> bool {
        let parent = Parent {
            ply: node.ply,
            static_value: scan.static_value,
            mover: node.mover,
            root_side: node.root_side,
        };
        let mut tally = H::NodeTally::default();
        // Move deferral: the node's key when this thread may defer its moves, and the order
        // positions it deferred (searched after the others, in order).
        let busy = match SHAPE {
            FULL => self.busy.filter(|_| self.defers(node.draft)).zip(node.hash),
            _ => None,
        };
        let mut deferred: SmallVec<[u32; 8]> = SmallVec::new();
        let n = moves.len();
        if SHAPE == FULL && n > 0 {
            self.prefetch_child(state, node, moves[order.index(0)]);
        }
        let (mut next, mut next_deferred) = (0, 0);
        loop {
            let (k, revisit) = if next < n {
                next += 1;
                (next - 1, false)
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                (deferred[next_deferred - 1] as usize, true)
            } else {
                break;
            };
            let i = order.index(k);
            if node.excluded == Some(i as u16) {
                continue;
            }
            let mv = moves[i];
            let busy_key = busy.map(|(table, hash)| (table, BusyMoves::key(hash, move_key(&mv))));
            if let Some((table, key)) = busy_key {
                if scan.tried > 0 && !revisit && table.is_busy(key) {
                    deferred.push(k as u32);
                    continue;
                }
            }
            let promoted = order.promoted(k);
            let at = MoveAt {
                k,
                i,
                mv,
                promoted,
                parent,
            };
            let Some(child_budget) = self.admit::<SHAPE>(state, node, order, at, &mut tally, scan)
            else {
                if promoted {
                    // Out of the hook's order: declining it says nothing about the moves after it.
                    continue;
                }
                // The horizon ends the node here: the remaining moves are outside the searched
                // tree (see the crate docs on horizons), not unsearched successors.
                break;
            };
            scan.tried += 1;
            if let Some((table, key)) = busy_key {
                table.enter(key);
            }
            if SHAPE == FULL && next < n && !revisit {
                self.prefetch_child(state, node, moves[order.index(next)]);
            }
            let searched = (node, order.generated_at_once, singular);
            let child = self.search_move::<SHAPE>(state, searched, at, child_budget, scan);
            if let Some((table, key)) = busy_key {
                table.leave(key);
            }
            if self.watch.stopped() {
                return false;
            }
            if scan.record(self.pv, node.ply, i, child) {
                // Whether the cut left moves unexamined.
                scan.cut_early = next < n || next_deferred < deferred.len();
                break;
            }
        }
        true
    }

    /// Asks for the table bucket of the successor by `mv` (the next move in search order) while
    /// the move before it is searched, where the successor will probe the table (it is not a
    /// leaf) and the game tells its key without making the move
    /// ([`Game::state_hash_after`]): a miss in a large table otherwise costs a wait for memory
    /// at every interior node.
    #[inline(always)]
    fn prefetch_child(&self, state: &G::State, node: &NodeFacts<H::Budget>, mv: G::Move) {
        let Some(tt) = self.tt.filter(|_| node.draft >= 2) else {
            return;
        };
        if let Some(hash) = self.game.state_hash_after(state, mv) {
            tt.prefetch(hash);
        }
    }

    /// The budget the horizon gives move `at.i` (the `k`-th in search order), its key entered on
    /// the path if the search keeps one; `None` if the horizon declines it (the search is then
    /// not closed).
    #[inline(always)]
    fn admit<const SHAPE: u8>(
        &mut self,
        state: &G::State,
        node: &NodeFacts<H::Budget>,
        order: &SearchOrder,
        at: MoveAt<G::Move>,
        tally: &mut H::NodeTally,
        scan: &Scan,
    ) -> Option<H::Budget> {
        let (mv, promoted) = (at.mv, at.promoted);
        let tracks_path = SHAPE == FULL && self.tracks_path();
        let key = if tracks_path { move_key(&mv) } else { 0 };
        let mut step = Step::new(mv, scan.tried, node.root_side).with_promoted(promoted);
        if H::HINTS {
            // The hook's own score is the key's priority when nothing else was added to it.
            let scored = order.ordered && order.hook_orders && !promoted && !self.config.history;
            let hints = self.hints(at.i, key, node.tt_move, node.ply, node.side);
            let score = scored.then(|| (order.keys[at.k] >> 16) as i32);
            step = step.with_hints(hints).with_order_score(score);
        }
        let budget = self
            .horizon
            .child_budget(self.game, state, &node.budget, tally, step);
        if budget.is_none() {
            self.cut_short += 1;
        } else if tracks_path {
            self.heuristics.enter(node.ply, key);
        }
        budget
    }

    /// Makes move `at.i`, which the horizon gave `child_budget`, searches the successor (extended,
    /// or reduced first, as the options say) and unmakes it. Once a limit stops the search the
    /// result is to be discarded (a returned `Option` here cost 7 % of a plain search's time).
    /// `(node, generated_at_once, singular)`: the node, whether its ordering generated every
    /// successor already, and whether its table move is singular.
    #[inline(always)]
    fn search_move<const SHAPE: u8>(
        &mut self,
        state: &mut G::State,
        (node, generated_at_once, singular): (&NodeFacts<H::Budget>, bool, bool),
        at: MoveAt<G::Move>,
        child_budget: H::Budget,
        scan: &Scan,
    ) -> ChildResult {
        if !generated_at_once {
            self.stats.generated += 1;
        }
        if self.watch.tick(self.stats.generated) {
            return STOPPED_CHILD;
        }
        let mv = at.mv;
        let null_window = self.config.pvs && scan.searched > 0;
        let singular_move = singular && at.i == node.tt_move as usize;
        let extension = match S::EXTENDS || singular_move {
            true => self.extension(state, mv, &child_budget, singular_move),
            false => None,
        };
        let (budgets, plies_extended) = match extension {
            Some((extended, plies)) => {
                self.extended += plies;
                let budgets = Budgets {
                    full: extended,
                    reduced: None,
                };
                (budgets, plies)
            }
            None => {
                let reduced = match SHAPE {
                    FULL => {
                        let (draft, promoted) = (node.draft, at.promoted);
                        let searched = scan.searched;
                        self.late_reduction(state, mv, &child_budget, draft, searched, promoted)
                    }
                    _ => None,
                };
                let budgets = Budgets {
                    full: child_budget,
                    reduced,
                };
                (budgets, 0)
            }
        };
        let (alpha, beta, parent) = (scan.alpha, node.beta, at.parent);
        let child = match self.game.apply(state, mv) {
            Some(mut child) => {
                self.successor::<SHAPE>(&mut child, budgets, alpha, beta, parent, null_window)
            }
            None => {
                let child =
                    self.successor::<SHAPE>(state, budgets, alpha, beta, parent, null_window);
                self.game.undo(state, mv);
                child
            }
        };
        if plies_extended > 0 {
            self.extended -= plies_extended;
        }
        child
    }

    /// After the node's moves: the node's kind counted, the best move given to the reply table
    /// and, on a cutoff, to the killers and history; the cutoff's bound; the result stored in the
    /// table. Returns `retval, bound`.
    #[inline(always)]
    fn conclude<const SHAPE: u8>(
        &mut self,
        state: &G::State,
        node: &NodeFacts<H::Budget>,
        moves: &MoveList<G::Move>,
        scan: &Scan,
    ) -> (Score, Bound) {
        let &Scan {
            retval,
            mut bound,
            best,
            tried,
            searched,
            meets_alpha,
            cut,
            cut_early,
            ..
        } = scan;
        if tried == 0 && node.excluded.is_some() {
            // A singularity test of a node with no other move: nothing reaches any value.
            return (-INFINITY, Bound::Upper);
        }
        if tried == 0 {
            // The horizon admitted no move: the node is a leaf.
            let known = node.known.or(P::ENABLED.then_some(scan.static_value));
            return self.leaf(state, known, node.alpha0, node.beta);
        }
        if searched > 0 {
            self.classify(cut, meets_alpha);
        }
        if SHAPE == FULL && self.tracks_path() && (cut || bound == Bound::Exact) {
            self.heuristics
                .record_best(node.ply, node.side, move_key(&moves[best]));
        }
        if cut {
            // `bound ← lower if retval ⋆ beta and move ≠ none`.
            if cut_early {
                bound = Bound::Lower;
            }
            let (killers, history) = (self.config.killers, self.config.history);
            if SHAPE == FULL && (killers || history) {
                let key = move_key(&moves[best]);
                self.heuristics
                    .record_cutoff(node.ply, node.side, key, node.draft, killers, history);
            }
        }
        if let (Some(tt), Some(hash)) = (self.tt, node.hash) {
            // A fail-low's best move is noise: keep whatever move the entry had.
            let mv = match bound {
                Bound::Upper => NO_MOVE,
                _ => u16::try_from(best).unwrap_or(NO_MOVE),
            };
            let closed = self.cut_short == node.cut_short_before;
            let key = self.horizon.budget_key(&node.budget);
            tt.store(hash, retval, bound, node.draft, key, mv, closed);
        }
        (retval, bound)
    }

    /// Counts the node as Pv, Cut or All by the definitions of *Minimax with α/β Pruning*, which look at values, not at the
    /// reported bound: Cut if a successor caused a cutoff, else Pv if some negated successor value
    /// met or exceeded `alpha[0]`, else All.
    #[inline]
    fn classify(&mut self, cut: bool, meets_alpha: bool) {
        self.stats.expanded += 1;
        if cut {
            self.stats.cutoffs += 1;
            self.stats.cut_nodes += 1;
        } else if meets_alpha {
            self.stats.pv_nodes += 1;
        } else {
            self.stats.all_nodes += 1;
        }
    }

    /// Enhanced transposition cutoff: a successor whose table entry (of its own exact budget)
    /// already proves it worth at least β from this node's view settles the node without a search.
    /// Returns that value, a lower bound that meets β. Costs one probe per successor, so the engine
    /// tries it only at drafts of at least [`AlphaBetaConfig::etc_draft`].
    fn enhanced_cutoff(
        &mut self,
        state: &mut G::State,
        budget: &H::Budget,
        moves: &MoveList<G::Move>,
        beta: Score,
        (ply, mover): (usize, PlayerId),
    ) -> Option<Score> {
        let tt = self.tt?;
        let root_side = self.is_root_side(mover, ply);
        for (index, &mv) in moves.iter().enumerate() {
            let step = Step::new(mv, index, root_side);
            let mut tally = H::NodeTally::default();
            let Some(child_budget) = self
                .horizon
                .child_budget(self.game, state, budget, &mut tally, step)
            else {
                continue;
            };
            let (hash, turns) = match self.game.apply(state, mv) {
                Some(child) => (self.game.state_hash(&child), self.turns(mover, &child)),
                None => {
                    let read = (self.game.state_hash(state), self.turns(mover, state));
                    self.game.undo(state, mv);
                    read
                }
            };
            let Some(hash) = hash else { continue };
            let child_budget = match turns {
                true => child_budget,
                false => self.horizon.same_mover(child_budget),
            };
            self.stats.tt_probes += 1;
            let Some(e) = tt.probe(hash) else { continue };
            let exact_budget = e.draft == self.horizon.draft(&child_budget)
                && e.budget == self.horizon.budget_key(&child_budget);
            // The successor is worth at least `x` here unless its entry is only an upper bound
            // from this node's view.
            let (x, d) = to_parent(turns, (e.value, e.bound));
            if exact_budget && d != Bound::Upper && self.config.cutoff.fails_high(x, beta) {
                self.stats.tt_hits += 1;
                self.stats.cutoffs += 1;
                self.cut_short += u64::from(!e.closed);
                return Some(x);
            }
        }
        None
    }

    /// A successor that is a horizon leaf, evaluated in the child's window; with PVS first in the
    /// null window `(α, null_beta)`, and again in the full window only if that leaves the value
    /// undecided (a plain evaluator is exact at once and never needs the second call). `turns`:
    /// whether the other player moves at the child.
    #[inline(always)]
    fn leaf_successor(
        &mut self,
        child: &G::State,
        known: Option<Score>,
        (alpha, beta): (Score, Score),
        null_beta: Option<Score>,
        turns: bool,
    ) -> ChildResult {
        let outcome = |vd: (Score, Bound)| {
            let (value, bound) = to_parent(turns, vd);
            ChildResult {
                value,
                bound,
                pruned: false,
                lineless: true,
            }
        };
        if let Some(null_beta) = null_beta {
            let (lo, hi) = child_window(turns, alpha, null_beta);
            let first = outcome(self.leaf(child, known, lo, hi));
            let settled = first.value <= alpha || self.config.cutoff.fails_high(first.value, beta);
            if settled || first.bound == Bound::Exact {
                return first;
            }
        }
        let (lo, hi) = child_window(turns, alpha, beta);
        outcome(self.leaf(child, known, lo, hi))
    }

    /// The move a singular-extension test of this very node excludes (the node is searched
    /// without it), taken so that the node's children never see it.
    #[inline(always)]
    fn excluded_move(&mut self, ply: usize) -> Option<u16> {
        self.config.singular_extension?;
        match self.exclusion.take() {
            Some((at, index)) if at == ply => Some(index),
            other => {
                self.exclusion = other;
                None
            }
        }
    }

    /// Null-move pruning (see [`AlphaBetaConfig::null_move`]): the value that cuts the node
    /// (its `β` under the cutoff criterion, a lower bound) if passing keeps it at β or above, or
    /// `None` if no null move is tried here or it does not cut. Tried only at null-window nodes
    /// below the root, not right after another null move, at a draft of at least the configured
    /// one, where β is not a decisive score and the static value reaches β.
    fn null_move_cut(
        &mut self,
        state: &G::State,
        budget: &H::Budget,
        alpha: Score,
        beta: Score,
        ply: usize,
        known: Option<Score>,
    ) -> Option<Score> {
        let config = self.config.null_move?;
        let cutoff = self.config.cutoff;
        // The value the cut reports: the smallest that fails high, so that it claims no more than
        // the reduced search showed (and never a decisive score it did not prove).
        let beta_cut = match cutoff {
            Cutoff::AtLeastBeta => beta,
            Cutoff::AboveBeta => beta.saturating_add(1),
        };
        let null_window = beta_cut <= alpha.saturating_add(1);
        let eligible = ply > 0
            && ply != self.after_null
            && null_window
            && !is_decisive(beta)
            && self.horizon.draft(budget) >= config.min_draft;
        if !eligible {
            return None;
        }
        let stand = known.unwrap_or_else(|| self.eval.evaluate(self.game, state));
        if !cutoff.fails_high(stand, beta) {
            return None;
        }
        let reduced = self.horizon.reduced(budget, 1 + config.reduction)?;
        let mut passed = self.selectivity.null_move(self.game, state)?;
        self.stats.generated += 1;
        // Whoever the game says moves after the pass: the opponent, as a pass should give.
        let turns = self.turns(self.mover(state), &passed);
        let reduced = match turns {
            true => reduced,
            false => self.horizon.same_mover(reduced),
        };
        let outer = std::mem::replace(&mut self.after_null, ply + 1);
        if self.tracks_path() {
            // The pass is the previous move of the node it leads to (countermoves, hints).
            self.heuristics.enter(ply, NULL_MOVE_KEY);
        }
        // The node's own window, as the side to move after the pass sees it: a null window tells
        // "≥ β" apart.
        let (lo, hi) = child_window(turns, alpha, beta);
        let searched = self.node(&mut passed, reduced, lo, hi, ply + 1, None);
        let (x, _) = to_parent(turns, searched);
        self.after_null = outer;
        let cuts = !self.watch.stopped() && cutoff.fails_high(x, beta);
        cuts.then_some(beta_cut)
    }

    /// Whether the table move of the node is singular (see
    /// [`AlphaBetaConfig::singular_extension`]): the table's `entry` proves the node worth at
    /// least `v`, and a shallower search of every other move stays below `v − margin`.
    fn is_singular(
        &mut self,
        state: &mut G::State,
        budget: &H::Budget,
        entry: &TtEntry,
        ply: usize,
    ) -> bool {
        let Some(config) = self.config.singular_extension else {
            return false;
        };
        let draft = self.horizon.draft(budget);
        let candidate = ply > 0
            && draft >= config.min_draft
            && entry.mv != NO_MOVE
            && entry.bound != Bound::Upper
            && entry.draft.saturating_add(3) >= draft
            && !is_decisive(entry.value);
        let Some(shallower) = candidate
            .then(|| self.horizon.reduced(budget, draft.div_ceil(2)))
            .flatten()
        else {
            return false;
        };
        // "Does any other move reach s?" with a null window at s (s − 1 < x ≤ s under > β).
        let s = entry.value.saturating_sub(config.margin.max(0));
        let beta = match self.config.cutoff {
            Cutoff::AtLeastBeta => s,
            Cutoff::AboveBeta => s - 1,
        };
        self.exclusion = Some((ply, entry.mv));
        let (v, _) = self.interior::<FULL>(state, shallower, s - 1, beta, ply, None);
        self.exclusion = None;
        // The test wrote its own line in this ply's row.
        self.pv.clear(ply);
        !self.watch.stopped() && v < s
    }

    /// The budget of a move the selectivity hook or a singular extension extends, with the plies
    /// added, or `None` if it is not extended: neither adds a ply, the horizon cannot deepen its
    /// budget, or the line would exceed its cap (extensions along one line add at most the root's
    /// draft).
    #[inline]
    fn extension(
        &mut self,
        state: &G::State,
        mv: G::Move,
        budget: &H::Budget,
        singular: bool,
    ) -> Option<(H::Budget, u32)> {
        let declared = match S::EXTENDS {
            true => self.selectivity.extension(self.game, state, mv),
            false => 0,
        };
        let plies = declared + u32::from(singular);
        if plies == 0 || self.extended.saturating_add(plies) > self.root_draft {
            return None;
        }
        Some((self.horizon.extended(budget, plies)?, plies))
    }

    /// The reduced budget of a late move under [late-move reductions](AlphaBetaConfig::late_move_reduction),
    /// or `None` if the move is searched with its full budget: one of the node's first moves, the
    /// table move, a killer or the countermove, a noisy move, or a node too shallow.
    #[inline(always)]
    fn late_reduction(
        &mut self,
        state: &G::State,
        mv: G::Move,
        budget: &H::Budget,
        draft: u32,
        searched: usize,
        promoted: bool,
    ) -> Option<H::Budget> {
        let lmr = self.config.late_move_reduction?;
        // Only moves searched with a null window (PVS, after the first) are reduced.
        let late =
            self.config.pvs && draft >= lmr.min_draft && searched >= (lmr.after as usize).max(1);
        if !late || promoted || (Q::ENABLED && self.quiescence.is_noisy(self.game, state, mv)) {
            return None;
        }
        self.horizon.reduced(budget, lmr.plies)
    }

    /// One successor, already created: offers it to the pruning hook, then searches it (PVS: with a
    /// null window first when `null_window`; under late-move reductions that null window is first
    /// searched with the reduced budget), and returns its value from the parent's view.
    #[inline(always)]
    fn successor<const SHAPE: u8>(
        &mut self,
        child: &mut G::State,
        mut budgets: Budgets<H::Budget>,
        alpha: Score,
        beta: Score,
        parent: Parent,
        null_window: bool,
    ) -> ChildResult {
        let ply = parent.ply;
        let turns = self.turns(parent.mover, child);
        if !turns {
            // The mover moves again: budgets were given before the move was made.
            budgets = Budgets {
                full: self.horizon.same_mover(budgets.full),
                reduced: budgets.reduced.map(|b| self.horizon.same_mover(b)),
            };
        }
        let budget = budgets.full;
        let mut known = None;
        if P::ENABLED {
            let own = self.eval.value(self.game, child);
            known = Some(own);
            if let Some(pruned) = self.offer_to_pruning(own, &budget, alpha, beta, parent, turns) {
                return pruned;
            }
        }
        // PVS: the narrowest window that still tells "x > α" from "x ≤ α" under the criterion,
        // when it is narrower than the window itself.
        let scout_beta = match self.config.cutoff {
            Cutoff::AtLeastBeta => alpha + 1,
            Cutoff::AboveBeta => alpha,
        };
        let null_beta = (null_window && scout_beta < beta).then_some(scout_beta);
        // A horizon leaf is evaluated here rather than in a call of `node`: most nodes are leaves,
        // and a call with its frame costs more than the evaluation.
        if self.is_leaf(child, &budget, ply + 1) {
            return self.leaf_successor(child, known, (alpha, beta), null_beta, turns);
        }
        let searched = |(value, bound)| ChildResult {
            value,
            bound,
            pruned: false,
            lineless: false,
        };
        // Late-move reductions: the reduced budget first, in the scout window, which is the
        // node's own window where that is already null (most of the tree).
        if let Some(reduced) = budgets.reduced.filter(|_| null_window) {
            let (lo, hi) = child_window(turns, alpha, scout_beta);
            let (x, d) = to_parent(turns, self.node(child, reduced, lo, hi, ply + 1, known));
            if self.watch.stopped() || x <= alpha {
                // The reduced search fails low: the move is taken to be no better than α.
                return searched((x, d));
            }
            // Better than α at reduced depth: searched again with the full budget.
        }
        if let Some(null_beta) = null_beta {
            let (lo, hi) = child_window(turns, alpha, null_beta);
            let searched_node = self.interior::<SHAPE>(child, budget, lo, hi, ply + 1, known);
            let (x, d) = to_parent(turns, searched_node);
            let settled = x <= alpha || self.config.cutoff.fails_high(x, beta);
            if self.watch.stopped() || settled || d == Bound::Exact {
                return searched((x, d));
            }
            // x > α inside the window: the successor may be the new best; re-search.
        }
        let (lo, hi) = child_window(turns, alpha, beta);
        searched(to_parent(
            turns,
            self.interior::<SHAPE>(child, budget, lo, hi, ply + 1, known),
        ))
    }

    /// Offers a successor whose own static value is `own` to the pruning hook: the successor's
    /// outcome if the hook skips it (a value at most α, an upper bound) or cuts its parent (a
    /// value that fails high, a lower bound), `None` if it is to be searched. Anything else the
    /// hook says is refused: it could break the bound bookkeeping.
    #[inline(always)]
    fn offer_to_pruning(
        &mut self,
        own: Score,
        budget: &H::Budget,
        alpha: Score,
        beta: Score,
        parent: Parent,
        turns: bool,
    ) -> Option<ChildResult> {
        let ctx = PruneContext {
            parent_static: parent.static_value,
            child_static: if turns { -own } else { own },
            alpha,
            beta,
            child_depth: self.horizon.draft(budget),
            child_is_max: parent.root_side != turns,
            parent_is_max: parent.root_side,
            ply: parent.ply as u32,
        };
        let pruned = |value, bound| ChildResult {
            value,
            bound,
            pruned: true,
            lineless: true,
        };
        if let Some(value) = self.pruning.prune(&ctx).filter(|&v| v <= alpha) {
            self.stats.pruned += 1;
            self.cut_short += 1;
            return Some(pruned(value, Bound::Upper));
        }
        if P::CUTS {
            let cut = self.pruning.cut(&ctx);
            if let Some(value) = cut.filter(|&v| self.config.cutoff.fails_high(v, beta)) {
                self.stats.pruned += 1;
                self.cut_short += 1;
                return Some(pruned(value, Bound::Lower));
            }
        }
        None
    }

    /// Fills `keys` with the search order: the table move, the killers, then descending hook score
    /// plus history; ties keep the generation order.
    /// `at` is the node's draft, ply and side index.
    fn order(
        &mut self,
        state: &G::State,
        moves: &MoveList<G::Move>,
        tt_move: u16,
        (draft, ply, side): (u32, usize, usize),
        hook_orders: bool,
        keys: &mut SmallVec<[i64; MOVES_INLINE]>,
    ) {
        let (killers, history) = (self.config.killers, self.config.history);
        let countermoves = self.config.countermoves;
        let wants_key = killers || history || countermoves || O::HINTS;
        for (i, mv) in moves.iter().enumerate() {
            let key = if wants_key { move_key(mv) } else { 0 };
            let priority = if i == tt_move as usize {
                TT_MOVE_PRIORITY
            } else if let Some(rank) = killers
                .then(|| self.heuristics.killer_rank(ply, key))
                .flatten()
            {
                KILLER_PRIORITY - ((rank as i64) << 40)
            } else if countermoves && self.heuristics.is_best_reply(ply, side, key) {
                BEST_REPLY_PRIORITY
            } else {
                let mut p = 0i64;
                if hook_orders {
                    p += if O::HINTS {
                        let hints = self.hints(i, key, tt_move, ply, side);
                        self.ordering
                            .hinted_score(self.game, state, *mv, draft, hints)
                    } else {
                        self.ordering.score(self.game, state, *mv, draft)
                    } as i64;
                }
                if history {
                    p += self.heuristics.history(side, key) as i64;
                }
                p
            };
            keys.push(pack(priority, i));
        }
        sort_descending(keys);
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use game_trait::{Cutoff, Limits, SearchResult, Searcher};
    use quickcheck::{QuickCheck, TestResult};

    use crate::tree::{ExplicitTree, ExtraTurnTree, LeafValue};
    use crate::{AlphaBeta, AlphaBetaConfig};

    thread_local! {
        /// Set by these tests to search any configuration in the full shape.
        pub(super) static FULL_ONLY: Cell<bool> = const { Cell::new(false) };
    }

    /// The parts of a result every shape must agree on (all but the time).
    fn key(r: &SearchResult<u32>) -> String {
        let (mv, pv, stats) = (r.best_move, &r.pv, &r.stats);
        format!(
            "{mv:?} {} {:?} {pv:?} {} {stats:?}",
            r.value, r.bound, r.depth
        )
    }

    /// Searches `game` with `config` in its own shape, then in the full one.
    fn both_shapes<G>(game: &G, config: AlphaBetaConfig) -> (String, String)
    where
        G: game_trait::ZeroSumGame<State = u32, Move = u32>,
        LeafValue: game_trait::Evaluator<G>,
    {
        let search = |full: bool| {
            FULL_ONLY.with(|f| f.set(full));
            let mut ab = AlphaBeta::new(LeafValue).with_config(config);
            let r = ab.search(game, &0, &Limits::none());
            FULL_ONLY.with(|f| f.set(false));
            key(&r)
        };
        (search(false), search(true))
    }

    /// The configurations of the plain shape: both cutoffs, PVS or not, iterative deepening or
    /// not.
    fn plain_configs(depth: u32) -> Vec<AlphaBetaConfig> {
        let mut configs = Vec::new();
        for cutoff in [Cutoff::AtLeastBeta, Cutoff::AboveBeta] {
            for (pvs, iterative) in [(false, false), (true, false), (true, true)] {
                configs.push(AlphaBetaConfig {
                    depth,
                    cutoff,
                    pvs,
                    iterative,
                    ..AlphaBetaConfig::default()
                });
            }
        }
        configs
    }

    /// Every configuration of the plain shape returns the same value, bound, move, line and
    /// counts in its shape as in the full one, on trees whose players alternate and on trees
    /// where a player may move twice.
    #[test]
    fn every_shape_searches_as_the_full_one() {
        fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
            let depth = 1 + u32::from(depth) % 6;
            let branching = 1 + u32::from(branching) % 5;
            let tree = ExplicitTree::random(seed, depth, branching);
            let extra = ExtraTurnTree::random(seed, depth, branching);
            for config in plain_configs(depth + 1) {
                for (narrow, full) in [both_shapes(&tree, config), both_shapes(&extra, config)] {
                    if narrow != full {
                        return TestResult::error(format!("{config:?}:\n{narrow}\n{full}"));
                    }
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(200)
            .quickcheck(prop as fn(u64, u8, u8) -> TestResult);
    }

    /// The presets run in the shapes they are meant to: plain α/β plain; PVS (table, killers,
    /// history) and plain α/β with a null move full.
    #[test]
    fn presets_run_in_their_shapes() {
        use super::shape::{FULL, PLAIN};
        use crate::alphabeta::NullMovePruning;
        use crate::tt::TranspositionTable;

        let tree = ExplicitTree::random(1, 3, 3);
        let table = TranspositionTable::new(1 << 16);
        let limits = Limits::none();
        let shape = |config: AlphaBetaConfig| {
            let mut ab = AlphaBeta::new(LeafValue).with_config(config);
            let table = (config.tt_bytes > 0).then_some(&table);
            let shape = ab.run(&tree, &limits, table).shape();
            shape
        };
        let plain = AlphaBetaConfig::alpha_beta(4);
        assert_eq!(shape(plain), PLAIN);
        assert_eq!(shape(AlphaBetaConfig::pvs(4)), FULL);
        let null_move = Some(NullMovePruning::default());
        assert_eq!(shape(AlphaBetaConfig { null_move, ..plain }), FULL);
    }
}

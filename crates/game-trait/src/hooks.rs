//! Extension points of the α/β engine. Each is a trait with a no-op default ([`NoPruning`],
//! [`DepthHorizon`], [`NoOrdering`]) that the engine takes as a generic parameter, so an unused hook
//! costs nothing: static dispatch, and `const ENABLED: bool = false` lets the compiler delete the call
//! sites entirely.
//!
//! | hook | default | implemented by |
//! |---|---|---|
//! | [`ForwardPruning`] | [`NoPruning`] | `forward-estimation` (Zhang's pruning by estimated bounds) |
//! | [`HorizonPolicy`] | [`DepthHorizon`] | `interest-search` (Rollason's per-player interest budget), Othello's endgame solver |
//! | [`MoveOrdering`] | [`NoOrdering`] | games (Othello's fastest-first) |
//! | [`Quiescence`] | [`NoQuiescence`] | games that name their noisy moves |
//! | [`Selectivity`] | [`NoSelectivity`] | games that declare null moves legal or moves worth extending |
//! | [`Plausibility`] | — | games, read by `interest-search` |

use std::fmt::Debug;

use crate::game::ZeroSumGame;
use crate::score::Score;

/// What a [`ForwardPruning`] hook sees about a child before it is searched. All values are from the
/// **parent's** side to move's point of view (negamax), so the child can only matter if its value
/// (from this point of view) could exceed `alpha`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PruneContext {
    /// Static value of the parent, parent's point of view.
    pub parent_static: Score,
    /// Static value of the child, **also from the parent's point of view**: the child's own
    /// evaluation, negated where the other player moves at the child.
    pub child_static: Score,
    /// The parent's α when this child is about to be searched.
    pub alpha: Score,
    /// The parent's β.
    pub beta: Score,
    /// Remaining depth (horizon draft) of the subtree rooted at the child.
    pub child_depth: u32,
    /// Whether the child is a MAX node: its side to move is the player to move at the root.
    pub child_is_max: bool,
    /// Whether the parent is a MAX node. Usually the opposite of `child_is_max`; the same where the
    /// parent's side to move moves again at the child (see
    /// [`ZeroSumGame`] on turn order).
    pub parent_is_max: bool,
    /// Ply of the parent (root = 0).
    pub ply: u32,
}

/// Forward pruning: may skip a child before it is searched, from static values and the window.
pub trait ForwardPruning<G: ZeroSumGame> {
    /// `false` only for the no-op hook: the engine then skips computing static values altogether.
    const ENABLED: bool = true;

    /// Called once at the start of every search (e.g. to reset on-line learned bounds).
    fn start_search(&mut self) {}

    /// Called for each child before it is searched. Returning `Some(v)` skips the child, asserting that
    /// its value from the parent's point of view is at most `v` (an upper bound); `v` must be at most
    /// `ctx.alpha` for the skip to be sound, and the engine then treats the child as having returned
    /// `v` with [`Bound::Upper`](crate::Bound::Upper).
    fn prune(&mut self, ctx: &PruneContext) -> Option<Score>;

    /// `true` when [`cut`](ForwardPruning::cut) may answer; `false`, the default, compiles its
    /// call out of the engine.
    const CUTS: bool = false;

    /// Called for each child that [`prune`](ForwardPruning::prune) did not skip, before it is
    /// searched. Returning `Some(v)` abandons the **parent**: it asserts that the child's value
    /// from the parent's point of view is at least `v` (a lower bound), so that the parent fails
    /// high when `v` reaches `ctx.beta`. The engine then treats the child as having returned `v`
    /// with [`Bound::Lower`](crate::Bound::Lower), which ends the parent's loop as a β cut; a `v`
    /// that does not fail high is ignored and the child searched. Only read when
    /// [`CUTS`](ForwardPruning::CUTS) is `true`.
    #[inline(always)]
    fn cut(&mut self, _ctx: &PruneContext) -> Option<Score> {
        None
    }
}

/// The no-op pruning hook: never prunes, and is compiled away.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPruning;

impl<G: ZeroSumGame> ForwardPruning<G> for NoPruning {
    const ENABLED: bool = false;
    #[inline(always)]
    fn prune(&mut self, _: &PruneContext) -> Option<Score> {
        None
    }
}

/// Decides when a node is a leaf and what budget each child gets. The default is depth; interest
/// search replaces it with an interest budget tallied per player.
pub trait HorizonPolicy<G: ZeroSumGame> {
    /// What a node has left to spend (depth left, or per-player interest tallies).
    type Budget: Copy + Debug;
    /// State accumulated over the moves already tried at one node (e.g. interest search's
    /// `total_cost_this_ply`); a fresh `default()` per node.
    type NodeTally: Default;

    /// Whether the engine should fill [`Step::hints`] (which costs it a few table reads per move
    /// and a path of move keys); `false`, the default, compiles the work out.
    const HINTS: bool = false;

    /// Whether [`child_budget`](HorizonPolicy::child_budget) depends only on the node's budget and
    /// the move, never on the order it is asked in (the step's index, hints and the node's tally),
    /// and never declines a move. Then a parallel search may defer a move another thread is
    /// searching to the end of the node. `false`, the default, keeps every node's order as the
    /// hooks chose it.
    const ORDER_INDEPENDENT: bool = false;

    /// The root's budget for iteration `iteration` of an iterative search (the nominal depth for depth
    /// horizons; the `iteration`-th interest limit for interest search).
    fn root_budget(&mut self, iteration: u32) -> Self::Budget;

    /// Whether `state` with `budget` is a leaf, to be evaluated statically without generating moves.
    fn is_leaf(&self, game: &G, state: &G::State, budget: &Self::Budget) -> bool;

    /// The budget for the child reached by `step.mv` from `state`, or `None` if the move lies beyond
    /// the horizon. The engine asks in its search order: the transposition-table move and killers
    /// first ([`Step::promoted`]), then the ordering hook's order. A declined promoted move is
    /// skipped (it was out of the hook's order, so it says nothing about the moves after it); a
    /// declined move in the hook's order ends the node: no further move is explored. A node where no
    /// move was admitted is a leaf and is evaluated statically.
    fn child_budget(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &Self::Budget,
        tally: &mut Self::NodeTally,
        step: Step<G::Move>,
    ) -> Option<Self::Budget>;

    /// The budget [`child_budget`](HorizonPolicy::child_budget) gave, corrected for a child whose
    /// side to move is the player who just moved (a game where a player moves again, see
    /// [`ZeroSumGame`] on turn order): `child_budget` is asked before the move
    /// is made, so it cannot know. The engine asks only for games that do not declare
    /// [`ALTERNATES`](crate::ZeroSumGame::ALTERNATES), and only for such children. The default
    /// returns the budget as it is: a depth does not care who moves.
    #[inline(always)]
    fn same_mover(&self, budget: Self::Budget) -> Self::Budget {
        budget
    }

    /// The budget as a depth, for transposition-table draft comparisons and for pruning hooks that
    /// reason in plies. Larger means a deeper, more trustworthy search.
    fn draft(&self, budget: &Self::Budget) -> u32;

    /// `budget` less `plies` plies, for late-move reductions (the engine searches a late, quiet
    /// move of a node with this budget first, and with the full one only if it proves better than
    /// α). `None`, the default, where the horizon has no notion of a shallower search: moves are
    /// then never reduced.
    #[inline(always)]
    fn reduced(&self, budget: &Self::Budget, plies: u32) -> Option<Self::Budget> {
        let _ = (budget, plies);
        None
    }

    /// `budget` plus `plies` plies, for extensions (the engine searches a move a
    /// [`Selectivity`] hook extends with this budget instead of the one
    /// [`child_budget`](HorizonPolicy::child_budget) gave it). `None`, the default, where the
    /// horizon has no notion of a deeper search: moves are then never extended.
    #[inline(always)]
    fn extended(&self, budget: &Self::Budget, plies: u32) -> Option<Self::Budget> {
        let _ = (budget, plies);
        None
    }

    /// What distinguishes budgets of equal [`draft`](HorizonPolicy::draft) that would search
    /// different trees below the same position (interest search: how the remaining interest is
    /// split between the players). The engine reuses a stored value only for an equal draft *and*
    /// an equal key; 16 bits of it are stored. The default, 0, says the draft is the whole budget.
    #[inline(always)]
    fn budget_key(&self, budget: &Self::Budget) -> u16 {
        let _ = budget;
        0
    }
}

/// The move a [`HorizonPolicy`] is asked about, with what the engine knows of it.
///
/// Built by the engine with [`Step::new`] and the `with_*` methods; the fields are public to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step<M> {
    /// The move about to be explored.
    pub mv: M,
    /// Whether the engine put this move ahead of the ordering hook's order (the transposition-table
    /// move or a killer): declining it does not end the node.
    pub promoted: bool,
    /// How many moves were already explored at this node (0 for the first).
    pub index: usize,
    /// Whether the player making the move is the root's side to move: says which player's tally pays
    /// (Rollason's separate search parities). Read from the game's side to move, not from the
    /// ply's parity: a player may move twice in a row.
    pub mover_is_root_side: bool,
    /// What the engine's own heuristics say about the move (table move, killer, …); empty unless
    /// the horizon asks for them ([`HorizonPolicy::HINTS`]).
    pub hints: MoveHints,
    /// The score the ordering hook gave this move at this node, when the engine asked for one
    /// ([`MoveOrdering::hinted_score`], history not added); `None` for promoted moves and unordered
    /// nodes. A horizon that prices moves by the same measure need not compute it twice.
    pub order_score: Option<i32>,
}

impl<M> Step<M> {
    /// A move in the ordering hook's order, without hints or a score.
    #[inline(always)]
    pub fn new(mv: M, index: usize, mover_is_root_side: bool) -> Step<M> {
        Step {
            mv,
            promoted: false,
            index,
            mover_is_root_side,
            hints: MoveHints::NONE,
            order_score: None,
        }
    }

    /// The same step, marked as put ahead of the ordering hook's order (or not).
    #[inline(always)]
    pub fn with_promoted(self, promoted: bool) -> Step<M> {
        Step { promoted, ..self }
    }

    /// The same step with the engine's hints.
    #[inline(always)]
    pub fn with_hints(self, hints: MoveHints) -> Step<M> {
        Step { hints, ..self }
    }

    /// The same step with the ordering hook's score.
    #[inline(always)]
    pub fn with_order_score(self, order_score: Option<i32>) -> Step<M> {
        Step {
            order_score,
            ..self
        }
    }
}

/// What the α/β engine's dynamic heuristics know about a move at a node: the dynamic terms of
/// Rollason's Treebeard interest list (*Interest Search — Another Way to Do Minimax*, 2014), which
/// only the searching engine can supply. A set of flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveHints(u8);

impl MoveHints {
    /// No hint.
    pub const NONE: MoveHints = MoveHints(0);
    /// The transposition table's move for this position ("move is in the transposition table").
    pub const TABLE: MoveHints = MoveHints(1);
    /// At the root, the best move of the previous iteration ("ply 1 existing previous iteration
    /// best move").
    pub const PREVIOUS_BEST: MoveHints = MoveHints(1 << 1);
    /// One of the killer moves of this ply.
    pub const KILLER: MoveHints = MoveHints(1 << 2);
    /// The move last found best in reply to the move just played, anywhere in the tree ("voted
    /// global best reply to previous move in branch"; the countermove heuristic).
    pub const BEST_REPLY: MoveHints = MoveHints(1 << 3);
    /// The move last found best after the mover's own previous move, two plies up ("best
    /// follow-on from previous move 2 plies ago").
    pub const FOLLOW_ON: MoveHints = MoveHints(1 << 4);

    /// Whether every flag of `other` is set.
    #[inline(always)]
    pub fn contains(self, other: MoveHints) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no flag is set.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The flags as bits (stable: the order of the constants above).
    #[inline(always)]
    pub fn bits(self) -> u8 {
        self.0
    }
}

impl std::ops::BitOr for MoveHints {
    type Output = MoveHints;
    #[inline(always)]
    fn bitor(self, other: MoveHints) -> MoveHints {
        MoveHints(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for MoveHints {
    #[inline(always)]
    fn bitor_assign(&mut self, other: MoveHints) {
        self.0 |= other.0;
    }
}

/// The standard horizon: a node is a leaf at depth 0; each child gets one ply less.
#[derive(Clone, Copy, Debug, Default)]
pub struct DepthHorizon;

impl<G: ZeroSumGame> HorizonPolicy<G> for DepthHorizon {
    type Budget = u32;
    type NodeTally = ();
    const ORDER_INDEPENDENT: bool = true;

    #[inline(always)]
    fn root_budget(&mut self, iteration: u32) -> u32 {
        iteration
    }
    #[inline(always)]
    fn is_leaf(&self, _: &G, _: &G::State, depth: &u32) -> bool {
        *depth == 0
    }
    #[inline(always)]
    fn child_budget(
        &mut self,
        _: &G,
        _: &G::State,
        depth: &u32,
        _: &mut (),
        _: Step<G::Move>,
    ) -> Option<u32> {
        Some(depth - 1)
    }
    #[inline(always)]
    fn draft(&self, depth: &u32) -> u32 {
        *depth
    }
    #[inline(always)]
    fn reduced(&self, depth: &u32, plies: u32) -> Option<u32> {
        Some(depth.saturating_sub(plies))
    }
    #[inline(always)]
    fn extended(&self, depth: &u32, plies: u32) -> Option<u32> {
        Some(depth.saturating_add(plies))
    }
}

/// Game-specific move ordering. The engine searches the transposition-table move first, then killer
/// moves, then the rest by descending `score` (plus its history heuristic, if enabled).
pub trait MoveOrdering<G: ZeroSumGame> {
    /// `false` only for the no-op hook, which the engine then never calls.
    const ENABLED: bool = true;

    /// Whether scoring a move builds its successor (as ordering by the children's static values
    /// must): the engine then counts every successor of a node this hook orders as generated when
    /// the node is ordered (the papers' "nodes generated"), not as each one is searched.
    const GENERATES_CHILDREN: bool = false;

    /// Whether the hook orders the moves of a node with draft `depth`; where it does not, they are
    /// searched in generation order (after the table move and killers) and generated one at a
    /// time. The default orders everywhere.
    #[inline(always)]
    fn orders_at(&self, depth: u32) -> bool {
        let _ = depth;
        true
    }

    /// Ordering key of `mv` in `state` (higher is searched first). `depth` is the draft left at the node.
    fn score(&mut self, game: &G, state: &G::State, mv: G::Move, depth: u32) -> i32;

    /// Whether the engine should call [`hinted_score`](MoveOrdering::hinted_score) with its
    /// heuristics' [`MoveHints`] instead of [`score`](MoveOrdering::score); `false`, the default,
    /// spares it computing them.
    const HINTS: bool = false;

    /// [`score`](MoveOrdering::score) knowing what the engine's heuristics say about the move
    /// (only called when [`HINTS`](MoveOrdering::HINTS) is `true`). The default ignores the hints.
    #[inline(always)]
    fn hinted_score(
        &mut self,
        game: &G,
        state: &G::State,
        mv: G::Move,
        depth: u32,
        hints: MoveHints,
    ) -> i32 {
        let _ = hints;
        self.score(game, state, mv, depth)
    }
}

/// The no-op ordering hook: moves keep the game's generation order (after TT move and killers).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOrdering;

impl<G: ZeroSumGame> MoveOrdering<G> for NoOrdering {
    const ENABLED: bool = false;
    #[inline(always)]
    fn score(&mut self, _: &G, _: &G::State, _: G::Move, _: u32) -> i32 {
        0
    }
}

/// Quiescence: which moves are *noisy* (captures, checks, promotions: whatever makes a position's
/// static value unreliable until they are resolved). At a horizon leaf the α/β engine does not
/// evaluate at once: the side to move may stand pat on the static value or play a noisy move, and
/// the leaf's value is
///
/// > `q(s) = max(eval(s), max over noisy m of −q(s·m))`
///
/// searched with α/β to at most the engine's quiescence depth in noisy plies (search-core's
/// `AlphaBetaConfig::quiescence_depth`; at the cap, `eval(s)`). The default, [`NoQuiescence`],
/// compiles the search out.
pub trait Quiescence<G: ZeroSumGame> {
    /// `false` only for the no-op hook, which the engine then never calls.
    const ENABLED: bool = true;

    /// Whether `mv` is noisy in `state`: searched below the horizon.
    fn is_noisy(&mut self, game: &G, state: &G::State, mv: G::Move) -> bool;
}

/// The no-op quiescence hook: horizon leaves are evaluated statically.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoQuiescence;

impl<G: ZeroSumGame> Quiescence<G> for NoQuiescence {
    const ENABLED: bool = false;
    #[inline(always)]
    fn is_noisy(&mut self, _: &G, _: &G::State, _: G::Move) -> bool {
        false
    }
}

/// What a game tells the α/β engine's selective search: where passing the turn is a fair test of
/// a position (null-move pruning), and which moves deserve a deeper look (extensions, such as
/// checks in chess). Both change the tree searched, so values are no longer those of a fixed
/// depth; the default, [`NoSelectivity`], compiles both out.
///
/// **Null-move pruning** (Beal, *A Generalised Quiescence Search Algorithm*, 1990; Donninger,
/// *Null Move and Deep Search*, 1993): at a node searched with a null window, whose static value
/// already reaches β, the engine first lets the side to move pass and searches the result
/// `R + 1` plies shallower in the node's own null window; if even passing keeps the value at
/// β (past β, under the `> β` criterion), the node is cut without searching a move. The test
/// is sound only where some move is at least as good as passing: games return `None` where that
/// may fail (zugzwang: chess endings with only pawns, Othello and Connect Four nearly always).
///
/// **Extensions**: a move with a positive [`extension`](Selectivity::extension) is searched
/// that many plies deeper than its siblings (the engine caps the plies added along one line at
/// the root's depth, so a line is never searched more than twice as deep as the nominal
/// depth).
pub trait Selectivity<G: ZeroSumGame> {
    /// Whether [`null_move`](Selectivity::null_move) may answer; `false`, the default, compiles
    /// null-move pruning out.
    const NULL_MOVES: bool = false;

    /// Whether [`extension`](Selectivity::extension) may answer; `false`, the default, compiles
    /// extensions out.
    const EXTENDS: bool = false;

    /// The state after the side to move passes in `state`, or `None` where a null move must not
    /// be tried (the side to move is in check, or the position may be zugzwang). `state` is
    /// never terminal. Only read when [`NULL_MOVES`](Selectivity::NULL_MOVES) is `true`.
    #[inline(always)]
    fn null_move(&mut self, game: &G, state: &G::State) -> Option<G::State> {
        let _ = (game, state);
        None
    }

    /// Plies by which the move `mv` from `state` is searched deeper than its siblings (0 for
    /// none; a check in chess is typically 1). Only read when
    /// [`EXTENDS`](Selectivity::EXTENDS) is `true`.
    #[inline(always)]
    fn extension(&mut self, game: &G, state: &G::State, mv: G::Move) -> u32 {
        let _ = (game, state, mv);
        0
    }
}

/// The no-op selectivity hook: no null moves, no extensions.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSelectivity;

impl<G: ZeroSumGame> Selectivity<G> for NoSelectivity {}

/// How interesting a move is, as a game judges it: Rollason's plausibility. Interest search turns it
/// into a cost (`scale / interest`). Games implement it without depending on the interest-search crate.
pub trait Plausibility<G: ZeroSumGame> {
    /// Interest of `mv` in `state`, at least 1; higher means more worth exploring.
    fn interest(&mut self, game: &G, state: &G::State, mv: G::Move) -> u32;

    /// A key shared by "similar" moves (same piece type dropped, same square class), for the
    /// similar-moves penalty; `None` when the move is like no other.
    fn similarity(&self, game: &G, state: &G::State, mv: G::Move) -> Option<u32> {
        let _ = (game, state, mv);
        None
    }
}

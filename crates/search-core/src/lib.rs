//! gametree's search engine: the minimax oracle, negamax α/β with exact bound reporting (plus PVS,
//! iterative deepening, aspiration windows, a transposition table, killers, history,
//! countermoves, late-move reductions, null moves, extensions and Lazy SMP on threads), MTD(f),
//! UCT, perft, a match runner, and explicit trees to test them all on.
//!
//! # Should I be using this crate?
//! Use it to search any two-player zero-sum game that implements [`game_trait::ZeroSumGame`]
//! ([`AlphaBeta`], [`Minimax`]) or any [`game_trait::GeneralGame`] ([`Uct`], [`perft`]). Algorithms that
//! *modify* α/β (forward estimation, interest search, an endgame solver) do not fork it: they plug
//! into its hooks ([`game_trait::hooks`]) and stay in their own crates. Through the `gametree` facade
//! this crate is `gametree::search`.
//!
//! # Contents
//! | item | what it is |
//! |---|---|
//! | [`Minimax`] | plain full-width negamax, the oracle every pruning search is tested against |
//! | [`AlphaBeta`], [`AlphaBetaConfig`] | fail-soft negamax α/β that reports whether its value is exact or a bound; PVS, iterative deepening, aspiration, TT, ETC, killers, history, countermoves, late-move reductions, null-move pruning, singular extensions; five hooks (pruning, horizon, ordering, quiescence, selectivity) |
//! | [`Mtdf`] | MTD(f): the minimax value by null-window α/β probes over the engine's table |
//! | [`tt`] | the transposition table (bytes, buckets, replacement policy) |
//! | [`horizon`] | horizon combinators: [`horizon::WidthLimit`], a narrow (n-best) search |
//! | [`ordering`] | killers, history, best replies and follow-ons, and the move key they use |
//! | [`tree`] | [`ExplicitTree`], [`Nested`], [`LeafValue`]: random and hand-written explicit trees; [`ExtraTurnTree`], where a player may move twice in a row |
//! | [`Uct`], [`UctConfig`] | Monte-Carlo tree search for n players, simultaneous and chance moves; tree-parallel (virtual loss) or root-parallel on several threads |
//! | [`perft`] | leaf counts of any game, the move generators' test |
//! | [`arena`] | the match runner: two searchers, colours swapped, Elo with a 95% interval |
//!
//! # Example
//! ```
//! use game_trait::{Bound, Game, Limits, Searcher};
//! use search_core::{AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue, Minimax};
//!
//! let tree = ExplicitTree::random(7, 8, 4); // seed, depth, maximum branching
//! let root = tree.initial_state();
//! let mut ab = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig { depth: 8, ..AlphaBetaConfig::default() });
//! let result = ab.search(&tree, &root, &Limits::none());
//! let oracle = Minimax::new(LeafValue, 8).search(&tree, &root, &Limits::none());
//! assert_eq!((result.value, result.bound), (oracle.value, Bound::Exact));
//! assert!(result.stats.generated < oracle.stats.generated);
//! let s = result.stats;
//! assert_eq!(s.pv_nodes + s.cut_nodes + s.all_nodes, s.expanded);
//!
//! // In a window above the score the search fails low: the value is at most α, and its bound says
//! // what it proves (an upper bound, or exact when every line that decided it was exact).
//! let (alpha, beta) = (oracle.value + 1, oracle.value + 3);
//! let narrow = ab.search_window(&tree, &root, &Limits::none(), alpha, beta);
//! assert!(narrow.value <= alpha && narrow.bound != Bound::Lower);
//! assert!(narrow.bound.admits(narrow.value, oracle.value));
//! ```
//!
//! # α/β with bound reporting
//! α/β is Knuth and Moore's (*An Analysis of Alpha-Beta Pruning*, Artificial Intelligence 6,
//! 1975), fail-soft as in Fishburn (*Another Optimization of Alpha-Beta Search*, SIGART Newsletter,
//! 1983): the value returned is the maximum of the negated successor values searched, not clamped
//! to the window. The bound bookkeeping (`node·alpha[k]`, `node·best[k]`, `invert`, `join`, node
//! kinds by values, the cutoff criterion `⋆`) is the one defined in the note *Minimax with α/β
//! Pruning*, and the names in the code follow it.
//!
//! Negamax: every value is from the side to move's point of view, and a successor where the other
//! player moves is searched with the window negated and swapped, `succ.alpha[0] = −beta`,
//! `succ.beta = −alpha[k]`. A node's *score* is its minimax value (what [`Minimax`] computes); its
//! *return value* `ret` is what α/β returns, which is the score or a bound on it.
//!
//! ```text
//! search(position, alpha, beta):
//!   if position is a leaf: return value(position), exact
//!   retval, bound ← unknown
//!   for each move, in order:
//!     child ← apply(position, move)
//!     if side_to_move(child) ≠ side_to_move(position):
//!       x', d' ← search(child, −beta, −alpha);  x, d ← −x', invert(d')
//!     else:                                      (the same player moves again)
//!       x, d ← search(child, alpha, beta)
//!     if retval = unknown or x > retval: retval, bound ← x, d
//!     else if x = retval: bound ← join(bound, d)
//!     break if retval ⋆ beta                       (a cutoff)
//!     alpha ← max(alpha, x)
//!   bound ← lower if retval ⋆ beta and a move is left unsearched
//!   return retval, bound
//! ```
//!
//! A player may move twice in a row (Dots and Boxes: a completed box earns another move), so the
//! engine asks the game who moves at every successor; a game that declares
//! [`ALTERNATES`](game_trait::ZeroSumGame::ALTERNATES) is searched without the question, which then
//! compiles to the first branch alone. Everything below (null windows, tables, killers, history,
//! hooks, null moves, quiescence) follows the same rule: the value of a successor where the same
//! player moves again is the node's own, in the node's own window.
//!
//! `⋆` is the cutoff criterion, [`Cutoff::AtLeastBeta`](game_trait::Cutoff) (`≥`, the default) or
//! [`Cutoff::AboveBeta`](game_trait::Cutoff) (`>`). With upper, exact, lower as −1, 0, +1,
//! [`invert`](game_trait::Bound::invert) is negation and [`join`](game_trait::Bound::join) is `max`.
//! What the result means (checked against [`Minimax`] by the crate's tests in random windows):
//!
//! | returned | `⋆` is `≥` | `⋆` is `>` |
//! |---|---|---|
//! | `alpha[0] < ret < beta` | exact | exact |
//! | `ret = alpha[0]` or `ret = beta` | exact or a bound: read `bound` | exact |
//! | `ret > beta` | lower bound (score ≥ ret) | lower bound |
//! | `ret < alpha[0]` | upper bound (score ≤ ret) | upper bound |
//!
//! In every case the reported [`Bound`](game_trait::Bound) is right: `bound.admits(ret, score)`. It
//! can be sharper than the table (an All node whose successors are all leaves reports `exact`). The
//! engine keeps the two invariants this bookkeeping relies on: a lower bound is returned only when
//! `ret ⋆ beta`, an upper bound only when `ret ≤ alpha[0]` (strictly below it under `>`, unless a
//! pruning hook claims exactly α, which the hook contract allows).
//!
//! **Node kinds** are counted in [`SearchStats`](game_trait::SearchStats) by the note's definitions,
//! which look at values (Knuth and Moore's types 1–3): *Cut* if a successor caused a cutoff (even
//! the last one), else *Pv* if some negated successor value met or exceeded `alpha[0]`, else *All*.
//! Only expanded nodes are classified (`pv_nodes + cut_nodes + all_nodes == expanded`); leaves,
//! finished games, table hits and nodes whose every successor was pruned are not.
//!
//! # The engine, node by node
//! 1. **Leaf or finished game?** A node at [`MAX_PLY`], or one the horizon's `is_leaf` declares a
//!    leaf, is not expanded. Whether it is a leaf or not, the engine then asks the game's
//!    [`outcome`](game_trait::ZeroSumGame::outcome) before anything else: a finished game is scored
//!    by [`Evaluator::terminal`](game_trait::Evaluator::terminal), exact, whatever its budget, and
//!    nothing more is asked about it. A leaf that is a game in progress is valued by
//!    [`Evaluator::evaluate_window`](game_trait::Evaluator::evaluate_window) in the node's window
//!    (one wider on each side under `>`), and its bound is kept only where the bookkeeping allows it
//!    (a lower bound at or above β, an upper bound at or below α), otherwise it is read as exact.
//! 2. **Transposition table** (if `tt_bytes > 0` and the game gives this state a key,
//!    [`state_hash`](game_trait::Game::state_hash); a state without one is neither probed nor
//!    stored): an entry of *exactly* this node's draft and
//!    [`budget_key`](game_trait::HorizonPolicy::budget_key) settles the node if it is exact, a
//!    lower bound with `value ⋆ beta`, or an upper bound that fails low; otherwise its move is
//!    tried first.
//!    Deeper entries are not used for cutoffs: they answer a different question (the score at
//!    another depth), and using them would make the value differ from the fixed-depth minimax value
//!    whenever positions transpose across depths. Never at the root, which must produce a move.
//! 3. **Moves**: [`ZeroSumGame::moves`](game_trait::ZeroSumGame::moves). A game in progress without
//!    a move breaks that method's contract; the engine values such a node statically.
//! 4. **Order**: table move, killers, then descending hook score (where the hook's `orders_at`
//!    accepts the draft) plus history; generation order among equals. With no table move and every
//!    ordering option off, no sorting happens at all.
//! 5. **Enhanced transposition cutoffs** (with `etc_draft = Some(d)`, a table, below the root, at
//!    drafts `≥ d`): every successor's entry is probed; one of exactly the successor's budget that
//!    is exact or an upper bound, and whose negated value `⋆ beta`, ends the node with that value as
//!    a lower bound (counted as a Cut node).
//! 6. **For each move**: the horizon's `child_budget` (`None` on the first move ⇒ this node is a
//!    leaf; `None` later ⇒ the remaining moves are outside the searched tree; `None` on a promoted
//!    move ⇒ that move is skipped), then the child is generated; then the pruning hook, then the
//!    search (PVS: a null window `(α, α+1)` under `≥`, `(α, α)` under `>`, on every successor after
//!    the first searched, re-searched with the full window when it returns inside it without an
//!    exact value).
//! 7. **Bookkeeping**: the `retval`/`bound` update and cutoff of the pseudocode above; then the node
//!    kind, killers and history on a cutoff, and a table store (no move for an upper bound).
//!
//! ## Hooks
//! - [`ForwardPruning`](game_trait::ForwardPruning): called only if `P::ENABLED` (the default
//!   [`NoPruning`](game_trait::NoPruning) is compiled away), once per generated child, with the
//!   parent's static value and the child's negated static value (both in the **parent's** view;
//!   each node is evaluated once, and a leaf reuses the value its parent computed), the window, the
//!   child's draft, `child_is_max` and `parent_is_max` (whether the child's and the parent's side
//!   to move is the root's, as the game says). A
//!   returned `Some(v)` with `v ≤ α` skips the child, which then counts as having returned `v` with
//!   an upper bound, and as generated but not searched (`stats.pruned`). A `v > α` would break the
//!   invariants above, so the engine refuses it and searches the child. A hook with `CUTS` is then
//!   asked `cut`: a `Some(v)` that fails high ends the parent as a β cut, the child counting as
//!   having returned `v` with a lower bound (also in `stats.pruned`); any other `v` is refused.
//! - [`HorizonPolicy`](game_trait::HorizonPolicy): `root_budget(iteration)` at every iteration,
//!   `is_leaf` before moves are generated, `child_budget` per move with a fresh `NodeTally` per node,
//!   `draft` and `budget_key` for the table, `draft` for the pruning hook. A node where `child_budget` declines moves after the
//!   first returns the minimax value **of the tree the horizon defines**: declined moves are beyond
//!   the horizon exactly as the successors of a depth-0 node are, so the value is reported exact
//!   relative to that tree (and is a lower bound on the full-width value of the same node). In the
//!   pseudocode, "a move is left unsearched" means a move left after a cutoff.
//! - [`MoveOrdering`](game_trait::MoveOrdering): its score orders the moves after the table move
//!   and the killers; never called when `O::ENABLED` is false.
//!
//! ## Configuration
//! | [`AlphaBetaConfig`] field | default | [`AlphaBetaConfig::pvs`] |
//! |---|---|---|
//! | `depth` | 4 | the argument |
//! | `cutoff` | `AtLeastBeta` (`ret ≥ β`) | `AtLeastBeta` |
//! | `pvs` | `false` | `true` |
//! | `iterative` | `false` | `true` |
//! | `aspiration` | `None` | `None` |
//! | `tt_bytes` | 0 (no table) | 64 MiB |
//! | `killers`, `history` | `false` | `true` |
//! | `etc_draft` | `None` (no enhanced transposition cutoffs) | `None` |
//! | `late_move_reduction` | `None` | `None` |
//!
//! [`AlphaBetaConfig`] says what each field does. Where the enhancements come from: principal
//! variation search (Marsland and Campbell, *Parallel Search of Strongly Ordered Game Trees*, 1982;
//! Reinefeld's NegaScout, *An Improvement to the Scout Tree Search Algorithm*, 1983); iterative
//! deepening and the transposition table (Slate and Atkin, *CHESS 4.5 — The Northwestern University
//! Chess Program*, 1977; the table is keyed by the game's 64-bit hash, for which Zobrist's *A New
//! Hashing Method with Application for Game Playing*, 1970, is the classic choice); killers (Akl and Newborn, *The Principal
//! Continuation and the Killer Heuristic*, 1977); history (Schaeffer, *The History Heuristic and
//! Alpha-Beta Search Enhancements in Practice*, 1989); enhanced transposition cutoffs (Plaat,
//! Schaeffer, Pijls and de Bruin, *Exploiting Graph Properties of Game Trees*, 1996); late-move
//! reductions (reducing moves by their place in the order goes back to Levy, Broughton and Taylor,
//! *The SEX Algorithm in Computer Chess*, 1989; the form used here, a reduced null-window search
//! re-searched at full depth when it fails high, is the one Romstad's *An Introduction to Late Move
//! Reductions* describes for chess programs); null-move pruning (Beal, *A Generalised Quiescence
//! Search Algorithm*, 1990; Donninger, *Null Move and Deep Search*, 1993), where the game's
//! [`Selectivity`](game_trait::Selectivity) hook offers a null move; extensions the same hook
//! declares (checks, in chess); singular extensions (Anantharaman, Campbell and Hsu, *Singular
//! Extensions: Adding Selectivity to Brute-Force Searching*, 1990).
//!
//! ## Limits and stopping
//! [`Limits::depth`](game_trait::Limits) overrides `depth`. Iterative deepening (and MTD(f)'s
//! depths) stop at the first iteration that is *closed*: every line it searched ended the game, no
//! game in progress was valued statically, no move lay beyond the horizon, no child was pruned and
//! no node cut by a heuristic (a table entry counts as closed only if the search that stored it
//! was; entries carry the flag). Its value is then the game's own, and deeper iterations cannot
//! change it; the result reports that iteration's depth. A node budget alone is looked at every
//! [`CHECK_INTERVAL`] generated nodes; under a deadline or a stop flag the limits are looked at
//! about once a millisecond, every 1 to [`CHECK_INTERVAL`] nodes as the nodes' cost says, so a
//! search whose nodes cost a millisecond each stops about as promptly as one whose nodes cost a
//! microsecond. A stopped search returns its last completed iteration (move, value, bound, PV,
//! depth). If none completed it returns the root's static value at
//! depth 0 with, as the move to play, the best root move finished so far or else the first legal move.
//!
//! ## Memory and speed
//! No allocation per node: each recursion frame keeps its move list and ordering keys on the stack
//! ([`MoveList`](game_trait::MoveList) is a `SmallVec`), the triangular PV table (move indices) and
//! the killer and history tables are allocated once per searcher, the transposition table once per
//! size. Everything is monomorphised over game, evaluator and hooks; the benches
//! (`benches/benches/alphabeta.rs`) compare it with a hand-written α/β.
//!
//! ## Complexity
//! [`Minimax`] visits every node: `Θ(b^d)` for uniform branching `b` and depth `d`. α/β visits
//! between `b^⌈d/2⌉ + b^⌊d/2⌋ − 1` leaves (perfect ordering, Knuth and Moore 1975) and `b^d` (worst
//! ordering); it never generates more nodes than [`Minimax`] (tested). Memory is `O(d)` frames plus
//! the fixed tables.
//!
//! # Choices where the sources are silent (each one tested)
//! - The best move is the successor that set `retval`; among successors tied at `retval`, the one
//!   whose bound the `join` kept (lower, else exact, else upper), so that a move only known to be
//!   worth *at most* `retval` (a pruned child, a table bound, a null-window fail-low) is never named
//!   best when another is known to reach it.
//! - The PV of a node is kept as a triangular table of move indices, updated whenever a successor
//!   becomes the node's best with a value reaching α (always at the root), including a pruned one,
//!   whose line ends there. Only lines of exact values are complete.
//! - A table entry's move is its index in the generated move list, so the table is independent of the
//!   game's move type; killers and history key moves by a fixed 64-bit hash ([`ordering::move_key`]).
//! - Table cutoffs need an equal draft (see above). With depth horizons and no transpositions across
//!   depths this loses nothing and keeps every result equal to the fixed-depth minimax value.
//! - `ret = β` under `>` does not cut off; `ret = β` under `≥` with moves left reports a lower bound,
//!   with no move left the joined bound (the note's `move ≠ none`).
#![deny(missing_docs)]

mod alphabeta;
pub mod arena;
mod error;
pub mod horizon;
mod minimax;
mod mtdf;
pub mod ordering;
mod perft;
mod stopwatch;
pub mod tree;
pub mod tt;
pub mod uct;

pub use alphabeta::{
    AlphaBeta, AlphaBetaConfig, Hooks, LateMoveReduction, NullMovePruning, SharedHooks,
    SingularExtension,
};
pub use error::SearchError;
pub use minimax::Minimax;
pub use mtdf::Mtdf;
pub use perft::{perft, perft_divide};
pub use stopwatch::CHECK_INTERVAL;
pub use tree::{ExplicitTree, ExtraTurnTree, LeafValue, Nested};
pub use uct::{Uct, UctConfig};

/// The deepest ply any search of this crate reaches: a node this far below the root is evaluated
/// statically whatever its depth or budget says, so that deep or endless games cannot overflow the
/// stack (every ply costs one frame of about a kilobyte).
pub const MAX_PLY: usize = 256;

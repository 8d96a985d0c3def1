//! Rollason's **interest search**: iterate by interest, not by depth.
//!
//! Jeff Rollason, *Interest Search — Another Way to Do Minimax*, AI Factory, 2014 (the search of AI
//! Factory's Treebeard chess and Shotest shogi); "the article" below. A branch is searched as long
//! as it is *interesting*: every move costs its mover interest according to how plausible the move
//! is, and a branch ends when it has cost more than the current iteration's *interest limit*. Lines
//! of plausible moves go deep, lines containing one poor move (or two mediocre ones) end early.
//!
//! This crate supplies the policy; search-core's α/β engine does the searching:
//! [`InterestHorizon`] is a [`HorizonPolicy`](game_trait::HorizonPolicy) (replacing depth),
//! [`InterestOrdering`] a [`MoveOrdering`](game_trait::MoveOrdering) (cheapest move first). The
//! game supplies a [`Plausibility`](game_trait::Plausibility), implemented in the game's own crate
//! (Othello's is `othello_bitboard::OthelloPlausibility`); [`StaticGain`] derives one from any
//! static evaluator, and [`Uniform`] (every move alike) turns interest search back into depth search.
//!
//! # Should I be using this crate?
//! Use it to give an α/β searcher a selective, human-like horizon, most useful in games with a large
//! branching factor. Through the facade, `gametree::interest_search`; on the command line,
//! `interest:limit_step=1000,eval=ev1`.
//!
//! # The algorithm, term by term
//! A move of interest `i` (from the game's plausibility, ≥ 1) has the base cost
//!
//! > `cost = max(1, scale / i)`  (the article's `Cost = 1 / interest`, in integer units)
//!
//! and, if `k` moves with the same [`similarity`](game_trait::Plausibility::similarity) key were
//! already searched at this node (Shotest's similar-moves penalty),
//!
//! > `cost_this_move = cost × (1 + k × similar_percent / 100)`.
//!
//! Moves are tried in increasing cost. Before a move is tried,
//!
//! > `net_cost = total_path_cost(mover) + sibling_percent% × total_cost_this_ply + cost_this_move`
//!
//! where `total_path_cost(mover)` is what the mover's moves on the path cost, and
//! `total_cost_this_ply` the sum of the `cost_this_move` of the moves already explored at this node.
//! If `net_cost` exceeds the mover's share of the iteration's limit, no further move is explored at
//! this node (if it was the first move, the node is a leaf and is evaluated statically).
//! Otherwise the child is searched with `total_path_cost(mover) = net_cost`.
//!
//! **Parity rule.** Each player's moves charge that player's own tally (the article's "separate
//! interest cost tally for different search parities"), so the opponent cannot end a line before a
//! threat matures by inserting an expensive, dull move: that move spends only its own interest.
//!
//! **Iterations.** Iteration `n` has the limit `n × limit_step`, for any step ≥ 1 ("any
//! incremental value, however small"). The engine's iterative deepening calls
//! [`root_budget`](game_trait::HorizonPolicy::root_budget)`(n)`, so its transposition table and the
//! previous iteration's best move order the next iteration, as in Treebeard.
//!
//! | parameter | default | meaning |
//! |---|---|---|
//! | `limit_step` | 1000 | interest added to the limit per iteration |
//! | `scale` | 100 000 | `cost = scale / interest`: interest 100 costs one default step |
//! | `sibling_percent` | 100 | weight of `total_cost_this_ply` (100 = the article's, 0 = off) |
//! | `similar_percent` | 100 | penalty per similar move already searched at the node |
//! | `parities` | `separate` | one tally per player (`shared`: the flawed first version the article describes) |
//! | `inherit_siblings` | `true` | a child inherits `net_cost`, elder siblings included (reading 1) |
//! | `limits` | `whole` | each tally meets the whole limit (`alternate`: the limit shared out, reading 2) |
//! | `bonuses` | Treebeard's | interest added for the engine's hints (see *Dynamic terms*) |
//! | `beyond_depth_percent` | 50 | interest kept per ply past the nominal depth (reading 6) |
//!
//! # Readings of the article (where it is silent or ambiguous)
//! 1. **What is passed down includes the siblings.** The article's diagram shows the branch's net
//!    cost growing "left and down": a later sibling's subtree inherits the costs of its elder
//!    siblings, so `net_cost`, not `total_path_cost + cost_this_move`, becomes the child's path
//!    cost. Late moves thus get shallower searches (late-move reductions, avant la lettre). With
//!    `inherit_siblings = false` a child inherits only `total_path_cost + cost_this_move`: the
//!    sibling tally then limits how many moves a node explores but not how deep each goes.
//! 2. **How the limit meets two tallies.** The article compares each net cost to "the iteration
//!    interest limit", so by default ([`LimitSplit::Whole`]) each parity's tally is compared with
//!    the whole limit `n × limit_step`: a line where every move costs one step reaches `2n` plies
//!    in iteration `n`, each player making `n` moves. [`LimitSplit::Alternate`] shares the limit
//!    out as iterative deepening shares plies (the root side `⌈n/2⌉` steps, the other side
//!    `⌊n/2⌋`), so that with one step per move iteration `n` is exactly the depth-`n` search; it
//!    was this crate's earlier reading and is kept for comparison (the tests' closed forms use it).
//! 3. **The fixed-depth property and the sibling tally conflict.** With every move costing `c =
//!    limit_step`, iteration `d` visits exactly the depth-`d` tree (alternating limits; the
//!    depth-`2d` tree with whole limits) *only if* `sibling_percent = 0`.
//!    With the article's sibling tally, a node whose mover has `r` steps left explores `min(b, r)`
//!    moves and its `i`-th child keeps `r − i`: a full-width search is impossible at any limit,
//!    since the last interior ply already affords one move. This is not a bug but the point of the
//!    tally (the article: "no absolute limit on any one moves list" — width is bought with
//!    interest), so the default follows the article and `sibling_percent = 0` recovers depth search
//!    exactly; both behaviours are tested (the node counts of the second have a closed form).
//! 4. **Leaves.** A node is a leaf without generating moves when its mover has nothing left (every
//!    move costs at least 1); otherwise when its cheapest move does not fit. The root is the
//!    exception: with a non-zero limit its first move is searched whatever it costs (its mover then
//!    has nothing left), because an iteration must produce a move to play, and the article's first
//!    iteration, whose limit we do not know, evidently did. Iteration 0 (limit 0) is a leaf.
//! 5. **Draft.** For the transposition table and depth-reasoning pruning hooks, a budget's depth is
//!    the interest both parities have left, in `limit_step`s: the nominal depth at the root,
//!    exactly the remaining depth when every move costs one step, smaller for late siblings. The
//!    draft forgets how the remainder is split between the players, so the horizon also reports a
//!    [`budget_key`](game_trait::HorizonPolicy::budget_key) of the split (and of the distance to
//!    the nominal depth, which reading 6 makes matter): the engine reuses a stored value only for
//!    the same draft and key, while the stored best move still orders the next iteration.
//! 6. **Diminishing interest.** Treebeard's term 15, "diminish interest if beyond iteration
//!    depth", gives no amount. We read the iteration depth as the *nominal depth*, how deep a line
//!    of one-step moves reaches in the iteration (`2n` with whole limits, `n` alternating), and
//!    multiply the interest of a move that takes a line `k` plies past it by
//!    `(beyond_depth_percent / 100)^k`, 50 % by default: each ply beyond doubles the cost of
//!    going on. 100 turns the term off.
//!
//! # Dynamic terms: what the engine knows
//! Five of Treebeard's terms are about the search, not the position, and only the engine can
//! supply them. search-core's engine passes them as [`MoveHints`](game_trait::MoveHints) in each
//! [`Step`](game_trait::Step) (the horizon and the ordering both ask for them), and
//! [`HintBonuses`] turns them into interest:
//!
//! | term | hint | bonus |
//! |---|---|---|
//! | 3. move is in the transposition table | the table's move at this node | +25 |
//! | 4. ply 1 existing previous iteration best move | at the root, the last iteration's best | +100 |
//! | 5. killer move | one of the ply's two killers | +100 |
//! | 6. voted global best reply to the previous move | last best reply to that move, anywhere | +100 |
//! | 7. best follow-on from the move two plies ago | last best move after the mover's own move | +100 |
//!
//! Reading of term 3: "in the transposition table" is taken as *the table's stored move for this
//! position*, which costs nothing to know; whether the child position has an entry would cost a
//! probe per move and is not implemented.
//!
//! # With search-core's engine
//! An interest searcher is search-core's α/β engine with this crate's two hooks, built together
//! by [`hooks`] on clones of one plausibility, with iterative deepening and without the history
//! heuristic. Iteration `n` of the engine searches with the budget
//! [`root_budget`](game_trait::HorizonPolicy::root_budget)`(n)`, so the engine's `depth` is the
//! number of interest iterations. For Othello (the facade's `interest` searcher is built the same
//! way):
//!
//! ```text
//! let config = AlphaBetaConfig { history: false, ..AlphaBetaConfig::pvs(6) }; // 6 iterations
//! let (horizon, ordering) = interest_search::hooks(InterestConfig::default(), OthelloPlausibility::new());
//! let mut searcher = AlphaBeta::new(Ev1).with_config(config).with_horizon(horizon).with_ordering(ordering);
//! ```
//!
//! Both hooks are needed: the horizon ends a node at the first move in the hook's order that does
//! not fit, so without [`InterestOrdering`] moves would be cut in generation order rather than by
//! cost. Without `iterative` the engine runs only the last iteration, and no earlier iteration's
//! table move and killers order it.
//!
//! - **Order.** The engine tries the transposition-table move and the killers first, then the
//!   ordering hook's order (interest plus the bonuses of the hints, so that the order is by
//!   cost). A promoted move that does not fit is skipped; the first move in the hook's order that
//!   does not fit ends the node. The history heuristic adds its scores to the hook's and would
//!   break the increasing-cost order, so interest searchers run without it (the facade's
//!   `interest` searcher does).
//! - **Forward estimation.** Pruning hooks such as forward estimation read the draft as the plies
//!   left below a node. Zhang's guarantee needs that to be an upper bound, which holds when every
//!   move costs at least one `limit_step` (interest at most `scale / limit_step`, 100 by default);
//!   with more interesting moves a line can outrun its draft and the combination is a heuristic.
//!   The cross-crate tests check the exact case.
//!
//! # Cost
//! With hooks built by [`hooks`], the plausibility is asked once per move of each node the engine
//! orders: the ordering scores every move, and the horizon reads that score back from
//! [`Step::order_score`](game_trait::Step::order_score); only the table move and the killers,
//! which the engine puts first without scoring them, are priced by the horizon itself. A node that
//! turns out to be a leaf (its cheapest move does not fit) has still scored its moves, since the
//! cheapest is only known then. The horizon does `O(1)` arithmetic per move, the engine a few
//! table reads for the hints; memory is the engine's. The tree an iteration explores is set by
//! the limit: with every move costing one step, `sibling_percent = 0` and alternating limits,
//! iteration `n` is the full depth-`n` tree, `O(b^n)` nodes for branching `b`; with the default
//! sibling tally a node whose mover has `r` steps left explores at most `min(b, r)` moves, so the
//! tree grows far more slowly with `n` (the tests give its node counts in closed form).
//!
//! # The horizon effect that remains
//! Separate tallies stop a side from cutting the *opponent's* line short, but not its own: a side
//! whose sound-looking move leads to a disaster a few of its own moves later can prefer an
//! expensive bad move that exhausts its own tally, so that its next turn is a leaf and the disaster
//! lies beyond the horizon. Minimax has the same defect (the horizon effect); the difference, as
//! the article notes, is that minimax wastes time searching the bad move while interest search cuts
//! it off early. A test builds exactly this tree and shows the bad move being chosen.
//!
//! # Example
//! A tiny game, its plausibility, and the budgets the engine would compute (the engine itself lives
//! in search-core: see *With search-core's engine* above for how the hooks plug into it).
//! ```
//! use game_trait::{Game, HorizonPolicy, MoveList, Outcome, PlayerId, Plausibility, Step, ZeroSumGame};
//! use interest_search::{InterestConfig, InterestHorizon, InterestOrdering, Parity};
//!
//! /// Take 1, 2 or 3 stones; whoever takes the last one wins.
//! struct Take;
//! impl Game for Take {
//!     type State = (u32, PlayerId);
//!     type Move = u32;
//!     fn initial_state(&self) -> (u32, PlayerId) { (10, 0) }
//!     fn apply(&self, s: &mut (u32, PlayerId), n: u32) -> Option<(u32, PlayerId)> {
//!         Some((s.0 - n, 1 - s.1))
//!     }
//! }
//! impl ZeroSumGame for Take {
//!     fn side_to_move(&self, s: &(u32, PlayerId)) -> PlayerId { s.1 }
//!     fn outcome(&self, s: &(u32, PlayerId)) -> Option<Outcome> {
//!         (s.0 == 0).then_some(Outcome::LOSS)
//!     }
//!     fn moves(&self, s: &(u32, PlayerId), moves: &mut MoveList<u32>) {
//!         moves.extend((1..=3).filter(|&n| n <= s.0));
//!     }
//! }
//!
//! /// Greedy moves are the interesting ones: taking n stones has interest 50 × n.
//! #[derive(Clone)]
//! struct Greedy;
//! impl Plausibility<Take> for Greedy {
//!     fn interest(&mut self, _: &Take, _: &(u32, PlayerId), n: u32) -> u32 { 50 * n }
//! }
//!
//! let config = InterestConfig { limit_step: 1000, ..InterestConfig::default() };
//! let mut horizon = InterestHorizon::with_config(config, Greedy);
//! let _ordering = InterestOrdering::new(Greedy); // 3 first, then 2, then 1
//! let (game, root) = (Take, Take.initial_state());
//!
//! // Iteration 2: each side may spend the whole limit, 2000.
//! let budget = horizon.root_budget(2);
//! assert_eq!(budget.limit(Parity::RootSide), 2000);
//! let mut tally = Default::default();
//! let step = |mv, index| Step::new(mv, index, true);
//! // Taking 3 costs 100000 / 150 = 666; taking 2 then costs 666 + 1000 more: 1666 ≤ 2000.
//! let after3 = horizon.child_budget(&game, &root, &budget, &mut tally, step(3, 0)).unwrap();
//! let after2 = horizon.child_budget(&game, &root, &budget, &mut tally, step(2, 1)).unwrap();
//! assert_eq!((after3.spent(Parity::RootSide), after2.spent(Parity::RootSide)), (666, 1666));
//! // Taking 1 would cost 1666 + 2000 > 2000: the root explores no further move.
//! assert!(horizon.child_budget(&game, &root, &budget, &mut tally, step(1, 2)).is_none());
//! // The other side's tally is untouched: its replies are judged against its own 2000.
//! assert_eq!(after2.remaining(Parity::OtherSide), 2000);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod config;
mod horizon;
mod ordering;
mod similar;
mod uniform;

pub use config::{HintBonuses, InterestConfig, LimitSplit};
pub use game_trait::StaticGain;
pub use horizon::{InterestBudget, InterestHorizon, InterestTally, Parity};
pub use ordering::InterestOrdering;
pub use similar::{SimilarCounts, SIMILAR_KEYS};
pub use uniform::Uniform;

/// The two hooks of an interest searcher on clones of one `plausibility`: the horizon with
/// `config`, and the ordering with the same [`bonuses`](InterestConfig::bonuses), paired so that
/// each move's interest is computed once, by the ordering, and read back by the horizon from the
/// engine's [`Step::order_score`](game_trait::Step::order_score).
pub fn hooks<Pl: Clone>(
    config: InterestConfig,
    plausibility: Pl,
) -> (InterestHorizon<Pl>, InterestOrdering<Pl>) {
    let ordering = InterestOrdering::with_bonuses(plausibility.clone(), config.bonuses);
    let horizon = InterestHorizon::with_config(config, plausibility).paired();
    (horizon, ordering)
}

#[cfg(test)]
mod tests;

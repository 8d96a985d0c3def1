//! The Othello-specific parts of the exact endgame solver: the [`EndgameHorizon`] that stops the
//! generic α/β engine a few empty squares before the end, and the [`ExactEvaluator`] that solves those
//! last squares with specialised code.
//!
//! # Where the line is, and why
//! Near the end of the game almost every node of the tree is within the last few plies (each ply
//! multiplies the node count), and there the work per node is tiny: a move generator call and a
//! comparison. The generic engine's per-node machinery (move list, ordering keys, a
//! transposition-table probe that misses the cache, principal-variation bookkeeping, hooks) then
//! costs several times the actual work. So the engine searches while more than
//! [`EndgameHorizon::exact_empties`] squares are empty (default [`DEFAULT_EXACT_EMPTIES`] = 7), and
//! the evaluator solves the rest with specialised code ([`solve_window`]): no move list, no table;
//! with more than [`FASTEST_FIRST_EMPTIES`] (5) empties the children are sorted on the stack by the
//! opponent's replies (fastest first), below that the empty-square bitboard is walked odd-parity
//! quadrants first; a stability cutoff ([`crate::stability`]) ends a node whose opponent's stable
//! discs already cap the score at α; the last two empty squares are straight-line code (no
//! ordering, no stability test), and the last one is solved by counting its flips with table
//! lookups (`last_flip`). Neither of these last two changes the node count; both save time.
//!
//! The default line, 7 empties, was chosen by timing exact solves of the FFO endgame suite
//! (positions 20–39) with the line at several values: 7 and 8 are about equally fast, and 8
//! generates more nodes. The facade's `gametree solve FILE --exact-empties N` moves the line; the
//! measurements and the commands that repeat them are in the repository's `docs/reproductions.md`
//! ("Exact endgame solving").
//!
//! The evaluator receives the engine's window through [`Evaluator::evaluate_window`] and solves its
//! subtree with it, fail-soft: under a null window it only decides on which side the value lies.
//!
//! # Cost
//! [`solve_window`] is a depth-first α/β over the remaining empty squares: exponential in their
//! number `e` (at most `e!` lines, far fewer with the ordering and cutoffs), `O(e)` stack, no heap.
//! It is meant for the last few squares below an [`EndgameHorizon`].
//!
//! # Scale
//! Values are final disc differences (empties to the winner), −64..=64, from the side to move's view:
//! the exact evaluator scores a finished game by its [`Outcome`]'s margin, as
//! [`game_trait::MarginOnly`] does.

use game_trait::{Bound, Evaluator, HorizonPolicy, Outcome, Score, Step};

use crate::board::{flips, Board, ADJACENT};
use crate::game::Othello;
use crate::last_flip::count_last_flips;
use crate::ordering::{weighted_replies, QUADRANTS};
use crate::position::Position;
use crate::stability::{score_ceiling, stable_discs};

/// Default number of empty squares at or below which the [`ExactEvaluator`] takes over.
pub const DEFAULT_EXACT_EMPTIES: u32 = 7;

/// Root budgets at least this large never run out: an Othello game has at most 60 placements and 60
/// passes left, so a budget of 128 plies means "search to the end". Below such a root every budget
/// is `UNLIMITED + empty squares`: a position's draft is then the same at whatever ply a
/// transposition reaches it, and larger for larger subtrees, which the transposition table's
/// depth-preferred replacement needs to keep the expensive entries.
pub const UNLIMITED: u32 = 128;

/// A horizon for exact endgame solving: a node is a leaf when at most `exact_empties` squares are
/// empty (the [`ExactEvaluator`] then solves it), or when a finite depth budget runs out.
///
/// The budget is in plies; budgets of at least [`UNLIMITED`] never run out (see there). The draft
/// reported to the transposition table is the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameHorizon {
    /// Positions with at most this many empty squares are leaves (default
    /// [`DEFAULT_EXACT_EMPTIES`]).
    pub exact_empties: u32,
}

impl Default for EndgameHorizon {
    fn default() -> EndgameHorizon {
        EndgameHorizon {
            exact_empties: DEFAULT_EXACT_EMPTIES,
        }
    }
}

impl HorizonPolicy<Othello> for EndgameHorizon {
    type Budget = u32;
    type NodeTally = ();
    const ORDER_INDEPENDENT: bool = true;

    #[inline(always)]
    fn root_budget(&mut self, iteration: u32) -> u32 {
        iteration
    }

    #[inline(always)]
    fn is_leaf(&self, _: &Othello, state: &Position, budget: &u32) -> bool {
        *budget == 0 || state.empty_count() <= self.exact_empties
    }

    #[inline(always)]
    fn child_budget(
        &mut self,
        _: &Othello,
        state: &Position,
        budget: &u32,
        _: &mut (),
        step: Step<crate::Move>,
    ) -> Option<u32> {
        Some(if *budget >= UNLIMITED {
            // Unlimited: the budget records the child's empty squares, so that the draft (and the
            // table's depth-preferred replacement) ranks a position by the size of its subtree.
            let placed = u32::from(step.mv.square().is_some());
            UNLIMITED + state.empty_count() - placed
        } else {
            budget - 1
        })
    }

    #[inline(always)]
    fn draft(&self, budget: &u32) -> u32 {
        *budget
    }
}

/// Evaluates a position by solving it exactly: the final disc difference under perfect play, empties
/// to the winner, from the side to move's view (see [`solve_exact`]). Meant for the few empty squares
/// below an [`EndgameHorizon`]; correct (but slow) for any position.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactEvaluator {
    /// Positions generated by all solves so far (moves and passes played), for node counts
    /// comparable with whole-tree solvers.
    pub nodes: u64,
}

impl Evaluator<Othello> for ExactEvaluator {
    #[inline]
    fn evaluate(&mut self, _: &Othello, state: &Position) -> Score {
        solve_exact(state.board(), &mut self.nodes)
    }

    /// [`solve_window`] in the engine's window: most leaves of a principal variation search only
    /// need to know on which side of a null window they fall.
    #[inline]
    fn evaluate_window(
        &mut self,
        _: &Othello,
        state: &Position,
        alpha: Score,
        beta: Score,
    ) -> (Score, Bound) {
        let v = solve_window(state.board(), alpha, beta, &mut self.nodes);
        let bound = if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        (v, bound)
    }

    /// A finished game's disc difference: scores are final disc differences throughout.
    #[inline]
    fn terminal(&mut self, _: &Othello, _: &Position, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

/// The exact final disc difference of `board` under perfect play (side to move's view, empties to the
/// winner), adding the positions generated to `nodes`.
///
/// ```
/// use othello_bitboard::{endgame::solve_exact, random_position};
/// let p = random_position(3, 8);
/// let mut nodes = 0;
/// let score = solve_exact(p.board(), &mut nodes);
/// // The score is the best of the children's scores, negated (negamax).
/// let best = p.legal_moves().iter().map(|&mv| -solve_exact(p.play_legal(mv).board(), &mut nodes)).max();
/// assert_eq!(best.unwrap_or(p.final_score()), score);
/// ```
pub fn solve_exact(board: Board, nodes: &mut u64) -> i32 {
    solve_window(board, -65, 65, nodes)
}

/// Fail-soft α/β solve of `board` in the window `(alpha, beta)`: a value `v` with `alpha < v < beta`
/// is exact, `v <= alpha` an upper bound, `v >= beta` a lower bound.
pub fn solve_window(board: Board, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::perft::has_x86_64_v3() {
        // SAFETY: the CPU supports every feature `solve_x86_64_v3` is compiled with.
        return unsafe { solve_x86_64_v3(board, alpha, beta, nodes) };
    }
    solve_baseline(board, alpha, beta, nodes)
}

/// [`solve_window`] on the baseline build only (no run-time feature detection), for testing that path.
pub fn solve_window_portable(board: Board, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    solve_baseline(board, alpha, beta, nodes)
}

/// The empty squares in parity order: those in quadrants with an odd number of empties first (the
/// mover there may get the last move of the region), then the rest.
#[inline(always)]
fn parity_order(empties: u64) -> [u64; 2] {
    let mut odd = 0;
    for quadrant in QUADRANTS {
        let q = empties & quadrant;
        if q.count_ones() % 2 == 1 {
            odd |= q;
        }
    }
    [empties & odd, empties & !odd]
}

/// The exact score with one empty square `sq` left: whoever can move there does (the side to move
/// first), and the board is full or the game over. Flips are counted, not computed
/// ([`count_last_flips`]): every other square holds a disc.
#[inline(always)]
fn last_square(board: Board, sq: u8, nodes: &mut u64) -> i32 {
    let (p, o) = (board.player(), board.opponent());
    let flipped = count_last_flips(p, sq);
    if flipped != 0 {
        *nodes += 1;
        // The board is full afterwards: the difference is 2·mine − 64.
        return 2 * (p.count_ones() + flipped + 1) as i32 - 64;
    }
    let flipped = count_last_flips(o, sq);
    if flipped != 0 {
        *nodes += 2; // the pass and the opponent's move
        return 64 - 2 * (o.count_ones() + flipped + 1) as i32;
    }
    board.final_score()
}

/// The exact score with two empty squares left (fail-soft in `(alpha, beta)`): the side to move's
/// moves, else the opponent's after a pass, else the game is over. Straight-line code: with two
/// squares there is nothing to order and no stability cutoff to hope for, and these nodes are
/// among the most numerous of the search.
#[inline(always)]
fn two_squares(board: Board, empties: u64, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    let first = empties.trailing_zeros() as u8;
    let second = (empties & (empties - 1)).trailing_zeros() as u8;
    if let Some(v) = best_of_two(board, [first, second], beta, nodes) {
        return v;
    }
    // A pass: the opponent's best, which fails high for it where it fails low for us.
    if let Some(v) = best_of_two(board.pass(), [first, second], -alpha, nodes) {
        *nodes += 1;
        return -v;
    }
    board.final_score()
}

/// The side to move's best over its legal moves among `squares` (the last two), each followed by
/// the last square; `None` when it has no move there. Stops at the first move reaching `beta`.
#[inline(always)]
fn best_of_two(board: Board, squares: [u8; 2], beta: i32, nodes: &mut u64) -> Option<i32> {
    let (p, o) = (board.player(), board.opponent());
    let mut best = None;
    for (sq, last) in [(squares[0], squares[1]), (squares[1], squares[0])] {
        let flipped = flips_if_adjacent(p, o, sq);
        if flipped == 0 {
            continue;
        }
        *nodes += 1;
        let v = -last_square(board.apply_flips(1 << sq, flipped), last, nodes);
        if v >= beta {
            return Some(v);
        }
        best = Some(best.map_or(v, |b: i32| b.max(v)));
    }
    best
}

/// The discs `player` flips by playing on the empty square `sq` (0 when the move is illegal). A move
/// must flip an adjacent opponent disc, so one table load rejects most illegal squares before the
/// eight-ray computation.
#[inline(always)]
fn flips_if_adjacent(player: u64, opponent: u64, sq: u8) -> u64 {
    if ADJACENT[sq as usize] & opponent == 0 {
        0
    } else {
        flips(player, opponent, sq)
    }
}

/// With more than this many empty squares the specialised solver orders moves fastest-first (by
/// the opponent's replies); at or below it, by parity only, which costs nothing.
pub const FASTEST_FIRST_EMPTIES: u32 = 5;

/// The smallest α at which the solver looks for a stability cutoff with `empties` empty squares:
/// the cap `64 − 2 · stable` can only fall to α when the opponent has many stable discs, which is
/// unlikely while α is low and many squares are empty, and computing them costs a few dozen
/// operations (Edax's thresholds).
#[inline(always)]
fn stability_threshold(empties: u32) -> i32 {
    const THRESHOLD: [i32; 24] = [
        99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
        46,
    ];
    THRESHOLD.get(empties as usize).copied().unwrap_or(48)
}

/// Defines the recursive solver; instantiated for the baseline CPU and for x86-64-v3.
macro_rules! define_solve {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        fn $name(board: Board, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
            let empties = board.empties();
            let count = empties.count_ones();
            match count {
                0 => return board.final_score(),
                1 => return last_square(board, empties.trailing_zeros() as u8, nodes),
                2 => return two_squares(board, empties, alpha, beta, nodes),
                _ => {}
            }
            let (p, o) = (board.player(), board.opponent());
            if alpha >= stability_threshold(count) {
                // Stability cutoff: the opponent's stable discs cap our final score.
                let ceiling = score_ceiling(stable_discs(o, p));
                if ceiling <= alpha {
                    return ceiling;
                }
            }
            let mut best = -65;
            if count > FASTEST_FIRST_EMPTIES {
                // Fastest first: children sorted by the replies they leave (corners twice, as in
                // the engine's ordering), on the stack.
                let mut children = [(0u32, Board::START); 32];
                let mut n = 0;
                let mut squares = empties;
                while squares != 0 {
                    let sq = squares.trailing_zeros() as u8;
                    squares &= squares - 1;
                    let flipped = flips_if_adjacent(p, o, sq);
                    if flipped == 0 {
                        continue;
                    }
                    let child = board.apply_flips(1 << sq, flipped);
                    let key = weighted_replies(child);
                    let mut i = n;
                    while i > 0 && children[i - 1].0 > key {
                        children[i] = children[i - 1];
                        i -= 1;
                    }
                    children[i] = (key, child);
                    n += 1;
                }
                for &(_, child) in &children[..n] {
                    *nodes += 1;
                    let v = -$name(child, -beta, -alpha, nodes);
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if v >= beta {
                                return v;
                            }
                        }
                    }
                }
            } else {
                for mut squares in parity_order(empties) {
                    while squares != 0 {
                        let sq = squares.trailing_zeros() as u8;
                        squares &= squares - 1;
                        let flipped = flips_if_adjacent(p, o, sq);
                        if flipped == 0 {
                            continue;
                        }
                        *nodes += 1;
                        let v = -$name(board.apply_flips(1 << sq, flipped), -beta, -alpha, nodes);
                        if v > best {
                            best = v;
                            if v > alpha {
                                alpha = v;
                                if v >= beta {
                                    return v;
                                }
                            }
                        }
                    }
                }
            }
            if best > -65 {
                return best;
            }
            if board.opponent_moves() == 0 {
                // Neither side can move: the game is over.
                return board.final_score();
            }
            *nodes += 1;
            -$name(board.pass(), -beta, -alpha, nodes)
        }
    };
}

define_solve!(
    /// The solver, baseline CPU features.
    solve_baseline
);

#[cfg(target_arch = "x86_64")]
define_solve!(
    /// The solver with x86-64-v3 features (only called after checking them).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    solve_x86_64_v3
);

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::random::random_position;
    use crate::symmetry::Symmetry;
    use game_trait::{Game, MoveList, ZeroSumGame};

    /// Brute-force negamax through the game trait, no pruning: the oracle of every solver.
    pub(crate) fn minimax_solve(state: &Position) -> i32 {
        let game = Othello;
        if let Some(outcome) = game.outcome(state) {
            return outcome.margin();
        }
        let mut moves = MoveList::new();
        game.moves(state, &mut moves);
        moves
            .iter()
            .map(|&mv| -minimax_solve(&game.apply(&mut state.clone(), mv).unwrap()))
            .max()
            .expect("a position that is not over has a move")
    }

    #[test]
    fn exact_solves_match_brute_force_minimax() {
        for seed in 0..400 {
            let p = random_position(seed, 4 + (seed % 5) as u32);
            let expected = minimax_solve(&p);
            let mut nodes = 0;
            assert_eq!(
                solve_exact(p.board(), &mut nodes),
                expected,
                "seed {seed}\n{p}"
            );
            assert_eq!(
                solve_window_portable(p.board(), -65, 65, &mut nodes),
                expected
            );
            assert_eq!(ExactEvaluator::default().evaluate(&Othello, &p), expected);
        }
    }

    #[test]
    fn windowed_solves_honour_their_bounds() {
        for seed in 0..600 {
            // 2..=7 empties: every specialised stage is the root of some of these solves.
            let p = random_position(1000 + seed, 2 + (seed % 6) as u32);
            let exact = minimax_solve(&p);
            let alpha = (seed as i32 % 41) - 20;
            let beta = alpha + 1 + (seed as i32 % 7);
            let mut nodes = 0;
            for v in [
                solve_window(p.board(), alpha, beta, &mut nodes),
                solve_window_portable(p.board(), alpha, beta, &mut nodes),
            ] {
                let ok = if v <= alpha {
                    exact <= v
                } else if v >= beta {
                    exact >= v
                } else {
                    exact == v
                };
                assert!(
                    ok,
                    "seed {seed}: window ({alpha}, {beta}) gave {v}, exact {exact}\n{p}"
                );
            }
        }
    }

    #[test]
    fn exact_scores_are_invariant_under_the_symmetries() {
        for seed in 0..40 {
            let p = random_position(seed, 9);
            let mut nodes = 0;
            let score = solve_exact(p.board(), &mut nodes);
            for s in Symmetry::ALL {
                assert_eq!(solve_exact(s.board(p.board()), &mut nodes), score);
            }
        }
    }

    #[test]
    fn passes_and_finished_games_are_scored_exactly() {
        // Black a1, white b1, white to move: white passes, black plays c1 and wins 3-0, 61 empties
        // to the winner.
        let p = Position::from_colors(1, 2, crate::Color::White).unwrap();
        let mut nodes = 0;
        assert_eq!(solve_exact(p.board(), &mut nodes), -64);
        assert_eq!(minimax_solve(&p), -64);
        assert_eq!(nodes, 2);
    }

    #[test]
    fn the_horizon_stops_at_the_cutoff_and_unlimited_budgets_never_run_out() {
        let mut h = EndgameHorizon::default();
        let step = Step::new(crate::Move::PASS, 0, true);
        let p = random_position(5, 4);
        assert!(h.is_leaf(&Othello, &p, &10));
        let q = random_position(5, 12);
        assert!(!h.is_leaf(&Othello, &q, &10) && h.is_leaf(&Othello, &q, &0));
        assert_eq!(h.child_budget(&Othello, &q, &10, &mut (), step), Some(9));
        // Unlimited budgets never run out and record the child's empty squares.
        let empties = q.empty_count();
        assert_eq!(
            h.child_budget(&Othello, &q, &UNLIMITED, &mut (), step),
            Some(UNLIMITED + empties)
        );
        let placement = Step::new(q.legal_moves()[0], 0, true);
        assert_eq!(
            h.child_budget(&Othello, &q, &(UNLIMITED + empties), &mut (), placement),
            Some(UNLIMITED + empties - 1)
        );
        assert_eq!(HorizonPolicy::<Othello>::root_budget(&mut h, 7), 7);
    }
}

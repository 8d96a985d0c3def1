//! The Conspiracy Adjusted Evaluation Value, equation (6), integrated as the appendix's Algorithm 3.

use game_trait::Score;

use crate::error::ConspiracyError;
use crate::numbers::{Cn, ConspiracyNumbers, Grid, CN_INFINITE};
use crate::tree::{MinimaxTree, NodeId};

/// RANGE and STEP of the CAEV integral (see the module docs).
///
/// ```text
///          ∫ x / CN(x) dx
/// CAEV = ───────────────── ,  both integrals over [m − RANGE, m + RANGE]        (6)
///          ∫ 1 / CN(x) dx
/// ```
///
/// `1 / CN(x)` plays the part of a probability density of the node's "true" value; `CN(m)` is taken
/// as 1 instead of 0 (Figure 4), and an infinite number (a value only terminal leaves could reach)
/// contributes 0.
///
/// **Integration (Algorithm 3).** The window is cut into segments of length STEP; conspiracy numbers
/// are computed at the segment ends only, and inside each segment the integrand's weight is the
/// straight line through `(v − STEP, 1/CN(v − STEP))` and `(v, 1/CN(v))` — the appendix's
/// `intgr(x, fx, y, fy)` "integral of a straight line which goes through (x, fx) to (y, fy)". So it is
/// `1/CN` that is linear within a segment (section 3.2's prose says "CN() linear"; the appendix's
/// code is the precise statement, and the two differ only inside segments). With weight `w` linear
/// from `wa` at `a` to `wb` at `b` the segment integrals are exact:
///
/// ```text
/// ∫ w dx   = (b − a)(wa + wb) / 2
/// ∫ x w dx = (b − a)(wa(2a + b) + wb(a + 2b)) / 6
/// ```
///
/// **Numerator and denominator.** Algorithm 3 as printed returns only the running `sum` of `intgr`
/// terms, i.e. the denominator `∫ 1/CN`; we compute equation (6), the ratio, which is what the text
/// defines as the CAEV and what has the unit of an evaluation.
///
/// **Scale.** RANGE is in the evaluation's units, so it depends on the evaluation: the paper takes
/// RANGE = 1000, "the difference of 1 corner stone in our evaluation function", and STEP = 50.
/// [`for_unit`](CaevConfig::for_unit) derives both from the evaluation's unit (an evaluation
/// difference that is one clear advantage) the same way for any game: `for_unit(1000)` is the
/// paper's. There is no default: RANGE 1000 on an evaluation that counts boxes or pawns would
/// average over a window hundreds of clear advantages wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaevConfig {
    range: i64,
    step: i64,
}

impl CaevConfig {
    /// RANGE and STEP for an evaluation whose `unit` is one clear advantage (a corner in Othello's
    /// EV1: 1000; a box in Dots and Boxes: 1): RANGE = `unit`, STEP =
    /// [`step_for(unit)`](CaevConfig::step_for). `unit` must be positive.
    ///
    /// ```
    /// use conspiracy::CaevConfig;
    /// let paper = CaevConfig::for_unit(1000)?; // Othello's EV1
    /// assert_eq!((paper.range(), paper.step()), (1000, 50));
    /// assert_eq!(CaevConfig::for_unit(1)?.step(), 1);
    /// assert!(CaevConfig::for_unit(0).is_err());
    /// # Ok::<(), conspiracy::ConspiracyError>(())
    /// ```
    pub fn for_unit(unit: i64) -> Result<CaevConfig, ConspiracyError> {
        if unit <= 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "unit",
                value: unit,
            });
        }
        CaevConfig::new(unit, CaevConfig::step_for(unit))
    }

    /// The STEP [`for_unit`](CaevConfig::for_unit) takes for `range` (at least 1): the largest
    /// divisor of `range` that is at most `range / 20`, at least 1; so `range` is a whole number of
    /// segments, about 20 when it has a divisor near `range / 20` (1000: 50; 1001: 13; a prime:
    /// 1). `O(√range)`.
    pub fn step_for(range: i64) -> i64 {
        let limit = (range / 20).max(1);
        let mut best = 1;
        let mut d = 1;
        while d <= range / d {
            if range % d == 0 {
                for divisor in [d, range / d] {
                    if divisor <= limit {
                        best = best.max(divisor);
                    }
                }
            }
            d += 1;
        }
        best
    }

    /// Integrates over `[m − range, m + range]` in segments of `step`; `range` must be a positive
    /// multiple of `step`, so that `m` is a segment end.
    pub fn new(range: i64, step: i64) -> Result<CaevConfig, ConspiracyError> {
        if range <= 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "range",
                value: range,
            });
        }
        Grid::around(0, range, step)?;
        Ok(CaevConfig { range, step })
    }

    /// RANGE: how far from the node's value the integral reaches.
    pub fn range(&self) -> i64 {
        self.range
    }

    /// STEP: the segment length.
    pub fn step(&self) -> i64 {
        self.step
    }

    /// The grid of segment ends around `m`.
    pub fn grid(&self, m: Score) -> Grid {
        Grid::around(m, self.range, self.step).expect("validated by CaevConfig::new")
    }

    /// The CAEV of the subtree rooted at `node` (root player's view), reusing `numbers`' buffers.
    pub fn caev<M>(
        &self,
        tree: &MinimaxTree<M>,
        node: NodeId,
        numbers: &mut ConspiracyNumbers,
    ) -> f64 {
        let grid = self.grid(tree.node(node).value);
        integrate(&grid, numbers.compute(tree, node, &grid))
    }
}

/// Equation (6) over a grid of segment ends with their conspiracy numbers (`numbers[i]` at
/// `grid.value(i)`), `1/CN` linear within each segment, `CN = 0` counted as 1 and `CN = ∞` as weight 0.
/// Returns the grid's middle value if every weight is 0 (no window to average over).
///
/// # Panics
/// If `numbers` does not hold exactly one number per grid value (a caller's bug: the numbers of
/// [`ConspiracyNumbers::compute`](crate::ConspiracyNumbers::compute) over `grid` always do).
pub fn integrate(grid: &Grid, numbers: &[Cn]) -> f64 {
    assert_eq!(
        grid.len(),
        numbers.len(),
        "one conspiracy number per grid value"
    );
    let weight = |cn: Cn| match cn {
        CN_INFINITE => 0.0,
        0 => 1.0,
        n => 1.0 / f64::from(n),
    };
    // Integrate x − mid rather than x: keeps the products small when m is a decisive score.
    let mid = grid.value(grid.len() / 2);
    let (mut moment, mut mass) = (0.0, 0.0);
    for i in 1..grid.len() {
        let a = (grid.value(i - 1) - mid) as f64;
        let b = (grid.value(i) - mid) as f64;
        let (wa, wb) = (weight(numbers[i - 1]), weight(numbers[i]));
        mass += (b - a) * (wa + wb) / 2.0;
        moment += (b - a) * (wa * (2.0 * a + b) + wb * (a + 2.0 * b)) / 6.0;
    }
    if mass > 0.0 {
        mid as f64 + moment / mass
    } else {
        mid as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_ranges_and_steps_are_errors_not_overflows() {
        assert!(CaevConfig::new(i64::MAX, i64::MAX).is_err());
        assert!(CaevConfig::new(crate::MAX_RANGE + 1, 1).is_err());
        let widest = CaevConfig::new(crate::MAX_RANGE, crate::MAX_RANGE).unwrap();
        // A window around the most extreme score still computes.
        let grid = widest.grid(Score::MIN);
        assert_eq!(grid.len(), 3);
        assert!(grid.value(2) > grid.value(0));
        assert!(crate::Grid::new(i64::MAX - 5, 3, 3).is_err());
        assert!(crate::Grid::new(i64::MAX - 6, 3, 3).is_ok());
    }
    use crate::testing::{brute_force_cn, Reading, StoredValue, TreeGame};
    use quickcheck::{QuickCheck, TestResult};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * (1.0 + a.abs().max(b.abs()))
    }

    #[test]
    fn symmetric_numbers_average_to_the_centre() {
        let grid = Grid::around(137, 3, 1).unwrap();
        assert!(close(integrate(&grid, &[3, 2, 1, 0, 1, 2, 3]), 137.0));
        let grid = Grid::around(-5_000, 1000, 50).unwrap();
        let numbers: Vec<Cn> = (-20i32..=20)
            .map(|k| k.unsigned_abs().div_ceil(3))
            .collect();
        assert!(close(integrate(&grid, &numbers), -5_000.0));
    }

    #[test]
    fn one_linear_segment_is_integrated_exactly() {
        // 1/CN goes linearly from 1 at x = 0 to 1/2 at x = 10:
        // ∫ x(1 − x/20) dx = 50 − 1000/60 = 100/3, ∫ (1 − x/20) dx = 15/2, ratio 40/9.
        let grid = Grid::new(0, 10, 2).unwrap();
        assert!(close(integrate(&grid, &[0, 2]), 40.0 / 9.0));
    }

    #[test]
    fn infinite_numbers_weigh_nothing() {
        // [-10, 0]: weight 0 → 1, ∫ = 5, ∫ x = −50/3; [0, 10]: weight 1, ∫ = 10, ∫ x = 50.
        let grid = Grid::new(-10, 10, 3).unwrap();
        assert!(close(
            integrate(&grid, &[CN_INFINITE, 0, 1]),
            (50.0 - 50.0 / 3.0) / 15.0
        ));
        // A position no leaf can change (all terminal): only the triangle around m, symmetric.
        assert!(close(integrate(&grid, &[CN_INFINITE, 0, CN_INFINITE]), 0.0));
    }

    #[test]
    fn the_step_is_the_largest_divisor_of_the_range_up_to_a_twentieth() {
        for (range, step) in [
            (1, 1),
            (5, 1),
            (19, 1),
            (20, 1),
            (40, 2),
            (100, 5),
            (997, 1), // a prime
            (1000, 50),
            (1001, 13), // 7 × 11 × 13
            (16384, 512),
            (1 << 40, 1 << 35),
        ] {
            assert_eq!(CaevConfig::step_for(range), step, "range {range}");
            assert_eq!(range % step, 0);
        }
    }

    #[test]
    fn configuration_is_validated() {
        assert_eq!(
            CaevConfig::for_unit(1000).unwrap(),
            CaevConfig::new(1000, 50).unwrap()
        );
        assert_eq!(
            CaevConfig::for_unit(-3),
            Err(ConspiracyError::NonPositive {
                parameter: "unit",
                value: -3
            })
        );
        assert_eq!(
            CaevConfig::new(1000, 30),
            Err(ConspiracyError::RangeNotMultipleOfStep {
                range: 1000,
                step: 30
            })
        );
        assert!(matches!(
            CaevConfig::new(0, 50),
            Err(ConspiracyError::NonPositive { .. })
        ));
        assert!(matches!(
            CaevConfig::new(100, 0),
            Err(ConspiracyError::NonPositive { .. })
        ));
    }

    /// Equation (6) by brute force: conspiracy numbers from leaf subsets, and the integrals by a fine
    /// midpoint rule over the piecewise linear `1/CN`.
    fn brute_force_caev(tree: &MinimaxTree<u32>, node: NodeId, range: i64, step: i64) -> f64 {
        let m = i64::from(tree.node(node).value);
        let w = |x: i64| match brute_force_cn(tree, node, x as Score, Reading::AtLeast) {
            None => 0.0,
            Some(0) => 1.0,
            Some(n) => 1.0 / f64::from(n),
        };
        let (mut moment, mut mass) = (0.0, 0.0);
        let mut a = m - range;
        while a < m + range {
            let (wa, wb) = (w(a), w(a + step));
            let slices = 200;
            for k in 0..slices {
                let t = (k as f64 + 0.5) / slices as f64;
                let x = a as f64 + t * step as f64;
                let weight = wa + t * (wb - wa);
                moment += x * weight * step as f64 / slices as f64;
                mass += weight * step as f64 / slices as f64;
            }
            a += step;
        }
        moment / mass
    }

    #[test]
    fn caev_matches_a_brute_force_integral_on_random_trees() {
        fn prop(seed: u64) -> TestResult {
            let depth = 1 + (seed % 3) as u32;
            let game = TreeGame::random(seed, depth, if depth == 3 { 2 } else { 3 }, 6);
            let tree = MinimaxTree::build(&game, &0, depth, &mut StoredValue);
            let config = CaevConfig::new(8, 2).unwrap();
            let mut numbers = ConspiracyNumbers::new();
            for node in std::iter::once(NodeId::ROOT).chain(tree.root().children()) {
                let fast = config.caev(&tree, node, &mut numbers);
                let slow = brute_force_caev(&tree, node, 8, 2);
                if (fast - slow).abs() > 1e-6 {
                    eprintln!("seed {seed}: {fast} vs {slow}");
                    return TestResult::failed();
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(100)
            .quickcheck(prop as fn(u64) -> TestResult);
    }

    #[test]
    fn caev_moves_with_the_values_and_stays_in_the_window() {
        fn prop(seed: u64, shift: i16) -> bool {
            let game = TreeGame::random(seed, 2, 3, 6);
            let mut shifted = game.clone();
            for n in &mut shifted.nodes {
                // player 0's view shifted by `shift`: the root player's view shifts by ±shift.
                n.value += i32::from(shift);
            }
            let tree = MinimaxTree::build(&game, &0, 2, &mut StoredValue);
            let moved = MinimaxTree::build(&shifted, &0, 2, &mut StoredValue);
            let sign = if tree.root_player() == 0 { 1.0 } else { -1.0 };
            let config = CaevConfig::new(10, 1).unwrap();
            let mut numbers = ConspiracyNumbers::new();
            let a = config.caev(&tree, NodeId::ROOT, &mut numbers);
            let b = config.caev(&moved, NodeId::ROOT, &mut numbers);
            let m = f64::from(tree.root().value);
            close(b, a + sign * f64::from(shift)) && (m - 10.0..=m + 10.0).contains(&a)
        }
        QuickCheck::new()
            .tests(200)
            .quickcheck(prop as fn(u64, i16) -> bool);
    }
}

//! [`RandomTreeConfig`]: the parameters of a tree.

use std::fmt;

use game_trait::EVAL_LIMIT;

use crate::error::ConfigError;

/// How many children an interior node has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branching {
    /// Every interior node has exactly this many children (the paper's uniform trees).
    Uniform(u16),
    /// Every interior node but the root draws its number of children uniformly from `{1, …, max}`;
    /// the root gets the mean, [`Branching::root`].
    Random {
        /// The paper's `B`.
        max: u16,
    },
}

impl Branching {
    /// Random branching with mean `b`: `B = 2b − 1`, so that the mean `(B + 1)/2` is exactly `b`.
    /// `B` is a `u16`: for `b` above [`MAX_RANDOM_MEAN`] it saturates at 65535 and the mean is
    /// 32768, not `b`.
    pub fn random_with_mean(b: u16) -> Branching {
        let max = (2 * u32::from(b)).saturating_sub(1);
        Branching::Random {
            max: u16::try_from(max).unwrap_or(u16::MAX).max(1),
        }
    }

    /// The mean branching factor `b`, as a real number: `(B + 1)/2` for random branching.
    pub fn mean(self) -> f64 {
        match self {
            Branching::Uniform(b) => f64::from(b),
            Branching::Random { max } => (f64::from(max) + 1.0) / 2.0,
        }
    }

    /// The root's branching factor. For random branching the paper sets it to "the mean branching
    /// factor" `(B + 1)/2`; when `B` is even that is not an integer, and we read it as the C integer
    /// division `(B + 1) / 2`, i.e. rounded down (for the paper's own trees, `B` = 3, 9, 19, it is exact).
    pub fn root(self) -> u16 {
        match self {
            Branching::Uniform(b) => b,
            Branching::Random { max } => max.div_ceil(2).max(1),
        }
    }

    /// The largest number of children any node can have.
    pub fn max(self) -> u16 {
        match self {
            Branching::Uniform(b) => b,
            Branching::Random { max } => max,
        }
    }
}

/// The largest mean `b` that random branching represents exactly: `B = 2b − 1` must fit a `u16`.
pub const MAX_RANDOM_MEAN: u16 = 32768;

/// The parameters of an incremental random tree.
///
/// The defaults are the paper's: random branching with mean 5 (`B = 9`), depth 10, edge costs uniform in
/// `{−2^15 + 1, …, 2^15}`, seed 0.
///
/// ```
/// use random_tree::{Branching, RandomTreeConfig};
/// let uniform = RandomTreeConfig::uniform(5, 6).with_seed(1);
/// assert_eq!(uniform.branching, Branching::Uniform(5));
/// let random = RandomTreeConfig::random(5, 10); // mean 5: B = 9
/// assert_eq!(random.branching, Branching::Random { max: 9 });
/// assert_eq!(random.to_string(), "max_b=9,d=10,seed=0");
/// assert!(RandomTreeConfig { min_edge: 5, max_edge: 4, ..uniform }.validate().is_err());
/// ```
///
/// The `gametree` facade names trees in text as `random-tree:b=5,d=6,seed=1` (uniform) or
/// `random-tree:max_b=9,d=10` (random branching from `{1, …, 9}`), the form
/// [`Display`](fmt::Display) writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandomTreeConfig {
    /// Branching factors.
    pub branching: Branching,
    /// Depth `d`: nodes at ply `d` are leaves (the game is over there).
    pub depth: u16,
    /// Smallest edge cost `l` (inclusive).
    pub min_edge: i32,
    /// Largest edge cost `u` (inclusive).
    pub max_edge: i32,
    /// Tree seed.
    pub seed: u64,
}

/// The paper's smallest edge cost, `−2^15 + 1`.
pub const PAPER_MIN_EDGE: i32 = -(1 << 15) + 1;
/// The paper's largest edge cost, `2^15`.
pub const PAPER_MAX_EDGE: i32 = 1 << 15;

impl Default for RandomTreeConfig {
    fn default() -> RandomTreeConfig {
        RandomTreeConfig {
            branching: Branching::random_with_mean(5),
            depth: 10,
            min_edge: PAPER_MIN_EDGE,
            max_edge: PAPER_MAX_EDGE,
            seed: 0,
        }
    }
}

impl RandomTreeConfig {
    /// A uniform tree with branching `b` and depth `d`, paper edge costs, seed 0.
    pub fn uniform(b: u16, d: u16) -> RandomTreeConfig {
        RandomTreeConfig {
            branching: Branching::Uniform(b),
            depth: d,
            ..RandomTreeConfig::default()
        }
    }

    /// A random-branching tree with mean branching `b` (`B = 2b − 1`) and depth `d`, paper edge costs.
    pub fn random(b: u16, d: u16) -> RandomTreeConfig {
        RandomTreeConfig {
            branching: Branching::random_with_mean(b),
            depth: d,
            ..RandomTreeConfig::default()
        }
    }

    /// The same parameters with seed `seed`.
    pub fn with_seed(self, seed: u64) -> RandomTreeConfig {
        RandomTreeConfig { seed, ..self }
    }

    /// The tree of trial `k` of an experiment whose master seed is `self.seed`: a seed derived by
    /// hashing, so trial `k` is the same tree on every machine and trials are independent.
    pub fn trial(self, k: u64) -> RandomTreeConfig {
        let seed =
            crate::mix::mix(self.seed ^ crate::mix::mix(k.wrapping_add(0x5851_F42D_4C95_7F2D)));
        self.with_seed(seed)
    }

    /// Checks that the tree is well formed and that every node cost fits the evaluators' range
    /// (`d · max(|l|, |u|) ≤ EVAL_LIMIT`), so costs never overflow.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.branching.max() == 0 {
            return Err(ConfigError::NoBranching);
        }
        if self.min_edge > self.max_edge {
            return Err(ConfigError::EmptyEdgeRange {
                lo: self.min_edge,
                hi: self.max_edge,
            });
        }
        let widest = i64::from(self.min_edge)
            .abs()
            .max(i64::from(self.max_edge).abs());
        if widest * i64::from(self.depth) > i64::from(EVAL_LIMIT) {
            return Err(ConfigError::CostOverflow {
                depth: self.depth,
                widest,
                limit: EVAL_LIMIT,
            });
        }
        Ok(())
    }
}

impl fmt::Display for RandomTreeConfig {
    /// The text form of the facade's `random-tree:` spec: `b=5,d=6,seed=1` or
    /// `max_b=9,d=10,seed=0`, with `lo` and `hi` when the edge costs are not the paper's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.branching {
            Branching::Uniform(b) => write!(f, "b={b}")?,
            Branching::Random { max } => write!(f, "max_b={max}")?,
        }
        write!(f, ",d={},seed={}", self.depth, self.seed)?;
        if (self.min_edge, self.max_edge) != (PAPER_MIN_EDGE, PAPER_MAX_EDGE) {
            write!(f, ",lo={},hi={}", self.min_edge, self.max_edge)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_root_branching_follow_the_paper() {
        let r = Branching::random_with_mean(5);
        assert_eq!(
            (r, r.mean(), r.root()),
            (Branching::Random { max: 9 }, 5.0, 5)
        );
        let even = Branching::Random { max: 10 };
        assert_eq!((even.mean(), even.root()), (5.5, 5));
        assert_eq!(Branching::Random { max: 1 }.root(), 1);
        assert_eq!(Branching::Uniform(3).root(), 3);
    }

    #[test]
    fn invalid_trees_are_refused_with_the_parameter_at_fault() {
        let ok = RandomTreeConfig::uniform(5, 100);
        assert!(ok.validate().is_ok());
        assert_eq!(
            RandomTreeConfig::uniform(0, 3).validate(),
            Err(ConfigError::NoBranching)
        );
        let empty = RandomTreeConfig {
            min_edge: 5,
            max_edge: 4,
            ..ok
        };
        assert_eq!(
            empty.validate(),
            Err(ConfigError::EmptyEdgeRange { lo: 5, hi: 4 })
        );
        // Costs would leave the evaluator range.
        assert_eq!(
            RandomTreeConfig::uniform(5, 5000).validate(),
            Err(ConfigError::CostOverflow {
                depth: 5000,
                widest: 32768,
                limit: EVAL_LIMIT
            })
        );
    }

    #[test]
    fn random_means_saturate_above_the_largest_exact_one() {
        let exact = Branching::random_with_mean(MAX_RANDOM_MEAN);
        assert_eq!(exact, Branching::Random { max: u16::MAX });
        assert_eq!(exact.mean(), f64::from(MAX_RANDOM_MEAN));
        assert_eq!(Branching::random_with_mean(u16::MAX), exact);
    }
}

//! [`RandomTreeConfig`]: the parameters of a tree, and their textual form `b=5,d=6,seed=1`.

use std::fmt;
use std::str::FromStr;

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
    pub fn random_with_mean(b: u16) -> Branching {
        Branching::Random {
            max: b.saturating_mul(2).saturating_sub(1).max(1),
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

/// The parameters of an incremental random tree.
///
/// The defaults are the paper's: random branching with mean 5 (`B = 9`), depth 10, edge costs uniform in
/// `{−2^15 + 1, …, 2^15}`, seed 0.
///
/// # Text form
/// Comma-separated `key=value` pairs, in any order, optionally after `random-tree:`:
///
/// | key | meaning | default |
/// |---|---|---|
/// | `b` | branching factor: exact for uniform trees, the mean for random ones | 5 |
/// | `B` | random branching from `{1, …, B}` (implies `branching=random`; excludes `b`) | — |
/// | `branching` | `uniform` or `random` | `random` if `B` is given, else `uniform` |
/// | `d` (or `depth`) | depth of the tree: leaves are `d` plies below the root | 10 |
/// | `seed` | the tree's seed: same seed, same tree, on every machine | 0 |
/// | `lo`, `hi` | inclusive range of edge costs | `-32767`, `32768` |
///
/// ```
/// use random_tree::{Branching, RandomTreeConfig};
/// let c: RandomTreeConfig = "b=5,d=6,seed=1".parse()?;
/// assert_eq!((c.branching, c.depth, c.seed), (Branching::Uniform(5), 6, 1));
/// let r: RandomTreeConfig = "random-tree:b=5,branching=random,d=10".parse()?;
/// assert_eq!(r.branching, Branching::Random { max: 9 });
/// assert_eq!(r, "B=9,d=10".parse()?);
/// assert!("b=5,x=1".parse::<RandomTreeConfig>().unwrap_err().to_string().contains("accepted keys"));
/// # Ok::<(), random_tree::ConfigError>(())
/// ```
///
/// Note that a bare `b=5` gives a *uniform* tree (the natural reading of a CLI spec), while
/// [`RandomTreeConfig::default`] is the paper's random-branching tree.
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

/// The keys [`RandomTreeConfig::from_str`] accepts, for error messages.
pub const ACCEPTED_KEYS: &str = "b, B, branching, d (or depth), seed, lo, hi";

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
            return Err(ConfigError::Invalid {
                message: "the branching factor must be at least 1".into(),
            });
        }
        if self.min_edge > self.max_edge {
            return Err(ConfigError::Invalid {
                message: format!(
                    "empty edge-cost range: lo = {} > hi = {}",
                    self.min_edge, self.max_edge
                ),
            });
        }
        let widest = i64::from(self.min_edge)
            .abs()
            .max(i64::from(self.max_edge).abs());
        if widest * i64::from(self.depth) > i64::from(EVAL_LIMIT) {
            return Err(ConfigError::Invalid {
                message: format!(
                    "node costs could reach {} · {widest}, beyond the evaluators' limit {EVAL_LIMIT}",
                    self.depth
                ),
            });
        }
        Ok(())
    }
}

impl fmt::Display for RandomTreeConfig {
    /// The text form, which parses back to the same configuration.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.branching {
            Branching::Uniform(b) => write!(f, "b={b}")?,
            Branching::Random { max } => write!(f, "B={max}")?,
        }
        write!(f, ",d={},seed={}", self.depth, self.seed)?;
        if (self.min_edge, self.max_edge) != (PAPER_MIN_EDGE, PAPER_MAX_EDGE) {
            write!(f, ",lo={},hi={}", self.min_edge, self.max_edge)?;
        }
        Ok(())
    }
}

impl FromStr for RandomTreeConfig {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<RandomTreeConfig, ConfigError> {
        let body_start = text.find(':').map_or(0, |i| i + 1);
        if body_start > 0 && text[..body_start - 1].trim() != "random-tree" {
            return Err(ConfigError::Syntax {
                column: 1,
                message: format!(
                    "expected `random-tree:` before the parameters, found `{}`",
                    &text[..body_start]
                ),
            });
        }
        let mut b = None;
        let mut big_b = None;
        let mut random = None;
        let mut config = RandomTreeConfig::default();
        let mut offset = body_start;
        for part in text[body_start..].split(',') {
            let column = offset + part.len() - part.trim_start().len() + 1;
            offset += part.len() + 1;
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some((key, value)) = part.split_once('=') else {
                return Err(ConfigError::Syntax {
                    column,
                    message: format!("`{part}` is not `key=value`"),
                });
            };
            let (key, value) = (key.trim(), value.trim());
            let bad = |expected: &str| ConfigError::Value {
                key: key.to_string(),
                value: value.to_string(),
                column,
                expected: expected.to_string(),
            };
            match key {
                "b" => {
                    b = Some(
                        value
                            .parse::<u16>()
                            .ok()
                            .filter(|&b| b >= 1)
                            .ok_or_else(|| bad("an integer from 1 to 65535"))?,
                    )
                }
                "B" => {
                    big_b = Some(
                        value
                            .parse::<u16>()
                            .ok()
                            .filter(|&b| b >= 1)
                            .ok_or_else(|| bad("an integer from 1 to 65535"))?,
                    )
                }
                "branching" => {
                    random = Some(match value {
                        "uniform" => false,
                        "random" => true,
                        _ => return Err(bad("`uniform` or `random`")),
                    })
                }
                "d" | "depth" => {
                    config.depth = value
                        .parse()
                        .map_err(|_| bad("an integer from 0 to 65535"))?
                }
                "seed" => {
                    config.seed = value
                        .parse()
                        .map_err(|_| bad("an unsigned 64-bit integer"))?
                }
                "lo" => config.min_edge = value.parse().map_err(|_| bad("a 32-bit integer"))?,
                "hi" => config.max_edge = value.parse().map_err(|_| bad("a 32-bit integer"))?,
                _ => {
                    return Err(ConfigError::UnknownKey {
                        key: key.to_string(),
                        column,
                        accepted: ACCEPTED_KEYS,
                    })
                }
            }
        }
        config.branching = match (b, big_b, random) {
            (Some(_), Some(_), _) => {
                return Err(ConfigError::Invalid {
                    message: "give either `b` (mean or uniform branching) or `B` (random branching from {1..B}), not both".into(),
                })
            }
            (None, Some(_), Some(false)) => {
                return Err(ConfigError::Invalid {
                    message: "`B` means random branching; it contradicts `branching=uniform`".into(),
                })
            }
            (None, Some(max), _) => Branching::Random { max },
            (b, None, Some(true)) => Branching::random_with_mean(b.unwrap_or(5)),
            (b, None, _) => Branching::Uniform(b.unwrap_or(5)),
        };
        config.validate()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for text in [
            "b=5,d=6,seed=1",
            "B=9,d=10,seed=3",
            "b=2,d=0,seed=0,lo=-3,hi=4",
            "B=10,d=1,seed=7",
        ] {
            let c: RandomTreeConfig = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
            assert_eq!(c.to_string().parse::<RandomTreeConfig>().unwrap(), c);
        }
    }

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
    fn errors_say_what_and_where() {
        let err = "b=5, depht=3".parse::<RandomTreeConfig>().unwrap_err();
        assert_eq!(
            err,
            ConfigError::UnknownKey {
                key: "depht".into(),
                column: 6,
                accepted: ACCEPTED_KEYS
            }
        );
        assert!(err.to_string().contains("accepted keys: b, B"));
        let err = "random-tree:b=5,d=x"
            .parse::<RandomTreeConfig>()
            .unwrap_err();
        assert!(
            matches!(err, ConfigError::Value { column: 17, .. }),
            "{err:?}"
        );
        assert!(matches!(
            "b=5,d".parse::<RandomTreeConfig>(),
            Err(ConfigError::Syntax { column: 5, .. })
        ));
        assert!("othello:b=5".parse::<RandomTreeConfig>().is_err());
        assert!("b=5,B=9".parse::<RandomTreeConfig>().is_err());
        assert!("B=9,branching=uniform".parse::<RandomTreeConfig>().is_err());
        assert!("b=0".parse::<RandomTreeConfig>().is_err());
        assert!("lo=5,hi=4".parse::<RandomTreeConfig>().is_err());
        assert!("d=100".parse::<RandomTreeConfig>().is_ok());
        assert!(
            "d=5000".parse::<RandomTreeConfig>().is_err(),
            "costs would leave the evaluator range"
        );
    }
}

//! [`InterestConfig`]: the parameters of interest search, their defaults, and the
//! `interest:key=value,...` text form the CLI registers.

use std::str::FromStr;

use crate::error::InterestError;

/// Every parameter of interest search. All costs are in integer *cost units*; a move of interest `i`
/// costs `max(1, scale / i)` units (Rollason's `cost = 1 / interest`, scaled to integers).
///
/// | field | default | meaning |
/// |---|---|---|
/// | [`limit_step`](Self::limit_step) | 1000 | interest limit added per iteration (any size ≥ 1) |
/// | [`scale`](Self::scale) | 100 000 | numerator of `cost = scale / interest` |
/// | [`sibling_percent`](Self::sibling_percent) | 100 | share of `total_cost_this_ply` charged (100 = the seed) |
/// | [`similar_percent`](Self::similar_percent) | 100 | cost added per similar move already searched at the node |
/// | [`separate_parities`](Self::separate_parities) | `true` | one tally per player (the seed's fix) |
/// | [`inherit_siblings`](Self::inherit_siblings) | `true` | children inherit their elder siblings' costs |
///
/// With the defaults a move of interest 100 (Treebeard's base interest `1000 / legal moves` for ten
/// legal moves) costs 1000 units, exactly one `limit_step`: one iteration buys one such move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterestConfig {
    /// How much each iteration raises the interest limit: iteration `i` has the limit
    /// `i × limit_step`, shared between the two parities (see the crate docs). Any value ≥ 1: the
    /// seed's point is that iterations need not be whole plies.
    pub limit_step: u32,
    /// Numerator of the cost formula `cost = max(1, scale / interest)`. Only the ratio
    /// `limit_step / scale` matters for the shape of the tree; a large scale keeps integer rounding
    /// negligible.
    pub scale: u32,
    /// Percentage of `total_cost_this_ply` (the costs of the siblings already explored at a node)
    /// added to `net_cost`. 100 is the seed; 0 drops the term, which turns a search where every move
    /// costs the same into a fixed-depth search (see the crate docs for why the two conflict).
    pub sibling_percent: u32,
    /// The similar-moves penalty (Shotest's Shogi enhancement): a move whose
    /// [`similarity`](game_trait::Plausibility::similarity) key was already searched `k` times at
    /// this node costs `base × (1 + k × similar_percent / 100)`. 0 turns the penalty off.
    pub similar_percent: u32,
    /// Charge each player's moves to that player's own tally (the seed's fix for the opponent
    /// dodging an outcome with an expensive move). `false` keeps one shared tally, the flawed first
    /// version the seed describes, for comparison.
    pub separate_parities: bool,
    /// Whether a child inherits `net_cost` (its elder siblings' costs included) as its
    /// `total_path_cost` — our reading of the seed's diagram, default `true` — or only the path's
    /// own moves (`false`: the sibling tally then limits a node's width but not its children's
    /// depth).
    pub inherit_siblings: bool,
}

impl Default for InterestConfig {
    fn default() -> InterestConfig {
        InterestConfig {
            limit_step: 1000,
            scale: 100_000,
            sibling_percent: 100,
            similar_percent: 100,
            separate_parities: true,
            inherit_siblings: true,
        }
    }
}

/// The keys [`InterestConfig::from_str`] accepts, for error messages.
pub const INTEREST_KEYS: &str =
    "limit_step, scale, sibling_percent, similar_percent, parities, inherit_siblings";

impl InterestConfig {
    /// Parses `interest:key=value,...` (the `interest:` prefix is optional), returning the
    /// configuration and every `key=value` pair it does not know, in order, for the caller to
    /// interpret (the CLI reads `eval=ev1` from them). Unknown keys are therefore *not* an error
    /// here; use [`str::parse`] to reject them.
    ///
    /// ```
    /// use interest_search::InterestConfig;
    /// let (config, rest) = InterestConfig::parse_with_rest("interest:limit_step=250,eval=ev1")?;
    /// assert_eq!(config.limit_step, 250);
    /// assert_eq!(rest, vec![("eval".to_string(), "ev1".to_string())]);
    /// # Ok::<(), interest_search::InterestError>(())
    /// ```
    pub fn parse_with_rest(
        text: &str,
    ) -> Result<(InterestConfig, Vec<(String, String)>), InterestError> {
        let (params, offset) = strip_name(text)?;
        let mut config = InterestConfig::default();
        let mut seen: Vec<&str> = Vec::new();
        let mut rest = Vec::new();
        let mut column = offset + 1;
        for param in params.split(',') {
            let here = column;
            column += param.len() + 1;
            if param.is_empty() {
                continue;
            }
            let Some((key, value)) = param.split_once('=') else {
                return Err(InterestError::Malformed {
                    text: param.to_string(),
                    column: here,
                });
            };
            let value_column = here + key.len() + 1;
            if seen.contains(&key) {
                return Err(InterestError::Duplicate {
                    key: key.to_string(),
                    column: here,
                });
            }
            seen.push(key);
            if !config.set(key, value, value_column)? {
                rest.push((key.to_string(), value.to_string()));
            }
        }
        Ok((config, rest))
    }

    /// Sets `key` to `value`; `Ok(false)` if the key is not one of ours.
    fn set(&mut self, key: &str, value: &str, column: usize) -> Result<bool, InterestError> {
        match key {
            "limit_step" => self.limit_step = positive("limit_step", value, column)?,
            "scale" => self.scale = positive("scale", value, column)?,
            "sibling_percent" => self.sibling_percent = percent("sibling_percent", value, column)?,
            "similar_percent" => self.similar_percent = percent("similar_percent", value, column)?,
            "parities" => {
                self.separate_parities = match value {
                    "separate" => true,
                    "shared" => false,
                    _ => {
                        return Err(InterestError::BadValue {
                            key: "parities",
                            value: value.to_string(),
                            column,
                            expected: "`separate` (one tally per player) or `shared`",
                        })
                    }
                }
            }
            "inherit_siblings" => {
                self.inherit_siblings = match value {
                    "true" | "yes" | "on" => true,
                    "false" | "no" | "off" => false,
                    _ => {
                        return Err(InterestError::BadValue {
                            key: "inherit_siblings",
                            value: value.to_string(),
                            column,
                            expected: "`true` or `false`",
                        })
                    }
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl FromStr for InterestConfig {
    type Err = InterestError;

    /// Parses `interest:key=value,...` with the keys of [`INTEREST_KEYS`]; any other key is an
    /// error naming its column.
    ///
    /// ```
    /// use interest_search::{InterestConfig, InterestError};
    /// let config: InterestConfig = "interest:limit_step=500,parities=shared".parse()?;
    /// assert!(!config.separate_parities);
    /// let err = "interest:depth=3".parse::<InterestConfig>().unwrap_err();
    /// assert!(matches!(err, InterestError::UnknownKey { column: 10, .. }));
    /// # Ok::<(), InterestError>(())
    /// ```
    fn from_str(text: &str) -> Result<InterestConfig, InterestError> {
        let (config, rest) = InterestConfig::parse_with_rest(text)?;
        match rest.first() {
            None => Ok(config),
            Some((key, _)) => Err(InterestError::UnknownKey {
                key: key.clone(),
                column: column_of_key(text, key),
                accepted: INTEREST_KEYS,
            }),
        }
    }
}

/// Splits off an optional `interest:` name; returns the parameter text and its byte offset.
fn strip_name(text: &str) -> Result<(&str, usize), InterestError> {
    match text.split_once(':') {
        Some((name, params)) if name == "interest" => Ok((params, name.len() + 1)),
        Some((name, _)) if !name.contains('=') && !name.contains(',') => {
            Err(InterestError::WrongName {
                name: name.to_string(),
            })
        }
        _ if text == "interest" => Ok(("", text.len())),
        _ => Ok((text, 0)),
    }
}

/// 1-based column of the parameter `key=` in `text` (for keys returned by `parse_with_rest`).
fn column_of_key(text: &str, key: &str) -> usize {
    let (params, offset) = strip_name(text).unwrap_or((text, 0));
    let mut column = offset + 1;
    for param in params.split(',') {
        if param.split_once('=').is_some_and(|(k, _)| k == key) {
            return column;
        }
        column += param.len() + 1;
    }
    1
}

fn positive(key: &'static str, value: &str, column: usize) -> Result<u32, InterestError> {
    match value.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(InterestError::BadValue {
            key,
            value: value.to_string(),
            column,
            expected: "an integer from 1 to 4294967295",
        }),
    }
}

fn percent(key: &'static str, value: &str, column: usize) -> Result<u32, InterestError> {
    match value.parse::<u32>() {
        Ok(n) if n <= 10_000 => Ok(n),
        _ => Err(InterestError::BadValue {
            key,
            value: value.to_string(),
            column,
            expected: "a percentage from 0 to 10000",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_every_key_parse() {
        let c: InterestConfig =
            "interest:limit_step=7,scale=70,sibling_percent=0,similar_percent=50,parities=shared"
                .parse()
                .unwrap();
        assert_eq!(
            c,
            InterestConfig {
                limit_step: 7,
                scale: 70,
                sibling_percent: 0,
                similar_percent: 50,
                separate_parities: false,
                inherit_siblings: true,
            }
        );
        assert_eq!(
            "interest".parse::<InterestConfig>(),
            Ok(InterestConfig::default())
        );
        assert_eq!(
            "interest:".parse::<InterestConfig>(),
            Ok(InterestConfig::default())
        );
        assert_eq!(
            "limit_step=3".parse::<InterestConfig>().unwrap().limit_step,
            3
        );
    }

    #[test]
    fn errors_name_the_key_and_column() {
        let e = "interest:limit_step=0"
            .parse::<InterestConfig>()
            .unwrap_err();
        assert_eq!(
            e,
            InterestError::BadValue {
                key: "limit_step",
                value: "0".into(),
                column: 21,
                expected: "an integer from 1 to 4294967295"
            }
        );
        let e = "interest:scale=9,bogus=1"
            .parse::<InterestConfig>()
            .unwrap_err();
        assert!(
            matches!(e, InterestError::UnknownKey { column: 18, ref key, .. } if key == "bogus")
        );
        let e = "interest:scale".parse::<InterestConfig>().unwrap_err();
        assert_eq!(
            e,
            InterestError::Malformed {
                text: "scale".into(),
                column: 10
            }
        );
        let e = "interest:scale=2,scale=3"
            .parse::<InterestConfig>()
            .unwrap_err();
        assert_eq!(
            e,
            InterestError::Duplicate {
                key: "scale".into(),
                column: 18
            }
        );
        let e = "alphabeta:depth=3".parse::<InterestConfig>().unwrap_err();
        assert_eq!(
            e,
            InterestError::WrongName {
                name: "alphabeta".into()
            }
        );
        let e = "interest:parities=maybe"
            .parse::<InterestConfig>()
            .unwrap_err();
        assert!(matches!(
            e,
            InterestError::BadValue {
                key: "parities",
                column: 19,
                ..
            }
        ));
        assert!(e.to_string().contains("column 19"));
    }

    #[test]
    fn unknown_keys_pass_through_parse_with_rest_in_order() {
        let (c, rest) =
            InterestConfig::parse_with_rest("interest:eval=ev1,limit_step=9,depth=2").unwrap();
        assert_eq!(c.limit_step, 9);
        assert_eq!(
            rest,
            vec![("eval".into(), "ev1".into()), ("depth".into(), "2".into())]
        );
    }
}

//! Short textual specifications such as `alphabeta:depth=5`, `pvs:depth=8,tt=64mb` or
//! `random-tree:b=5,d=6,seed=1`: a name, then optional comma-separated `key=value` parameters.
//!
//! [`Spec`] parses the text; its typed getters record which keys were read so that
//! [`Spec::finish`] can reject any key nobody asked for, listing the accepted ones.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// Why a specification was rejected. The messages are written for the command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The text is empty or a parameter is not `key=value`.
    #[error("malformed spec `{spec}`: {message}")]
    Malformed {
        /// The whole specification.
        spec: String,
        /// What is wrong with it.
        message: String,
    },
    /// No game or searcher has that name.
    #[error("unknown {kind} `{name}`; accepted: {accepted}")]
    UnknownName {
        /// "game" or "searcher".
        kind: &'static str,
        /// The name given.
        name: String,
        /// The accepted names, comma-separated.
        accepted: String,
    },
    /// A parameter the named item does not take.
    #[error("`{name}` has no parameter `{key}`; accepted: {accepted}")]
    UnknownKey {
        /// The game or searcher.
        name: String,
        /// The unexpected key.
        key: String,
        /// The accepted keys, comma-separated.
        accepted: String,
    },
    /// A value that does not parse or is out of range.
    #[error("bad value `{value}` for `{name}:{key}`: {message}")]
    BadValue {
        /// The game or searcher.
        name: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        message: String,
    },
}

/// A parsed `name:key=value,...` specification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    name: String,
    params: Vec<(String, String)>,
    read: BTreeSet<String>,
    accepted: Vec<&'static str>,
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let malformed = |message: &str| SpecError::Malformed {
            spec: text.to_string(),
            message: message.to_string(),
        };
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(malformed("missing name before `:`"));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        for part in rest
            .into_iter()
            .flat_map(|r| r.split(','))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let Some((key, value)) = part.split_once('=') else {
                return Err(malformed(&format!("parameter `{part}` is not `key=value`")));
            };
            let key = key.trim().to_string();
            if params.iter().any(|(k, _)| *k == key) {
                return Err(malformed(&format!("parameter `{key}` given twice")));
            }
            params.push((key, value.trim().to_string()));
        }
        Ok(Spec {
            name: name.to_string(),
            params,
            read: BTreeSet::new(),
            accepted: Vec::new(),
        })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl Spec {
    /// The name before the colon.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The raw value of `key`, marking it as accepted and read.
    pub fn raw(&mut self, key: &'static str) -> Option<String> {
        self.accepted.push(key);
        let value = self
            .params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone());
        if value.is_some() {
            self.read.insert(key.to_string());
        }
        value
    }

    /// The value of `key` parsed as `T`, or `default` when absent.
    pub fn get<T: FromStr>(&mut self, key: &'static str, default: T) -> Result<T, SpecError>
    where
        T::Err: fmt::Display,
    {
        match self.raw(key) {
            None => Ok(default),
            Some(value) => value
                .parse()
                .map_err(|e: T::Err| self.bad(key, &value, &e.to_string())),
        }
    }

    /// A byte size such as `64mb`, `1gb`, `512kb` or a plain number of bytes.
    pub fn bytes(&mut self, key: &'static str, default: usize) -> Result<usize, SpecError> {
        let Some(value) = self.raw(key) else {
            return Ok(default);
        };
        parse_bytes(&value)
            .ok_or_else(|| self.bad(key, &value, "expected a size such as 64mb, 1gb or 4096"))
    }

    /// An error for a bad `value` of `key`.
    pub fn bad(&self, key: &str, value: &str, message: &str) -> SpecError {
        SpecError::BadValue {
            name: self.name.clone(),
            key: key.to_string(),
            value: value.to_string(),
            message: message.to_string(),
        }
    }

    /// Fails if a parameter was given that no getter asked for.
    pub fn finish(&self) -> Result<(), SpecError> {
        match self.params.iter().find(|(k, _)| !self.read.contains(k)) {
            None => Ok(()),
            Some((key, _)) => Err(SpecError::UnknownKey {
                name: self.name.clone(),
                key: key.clone(),
                accepted: if self.accepted.is_empty() {
                    "(none)".to_string()
                } else {
                    self.accepted.join(", ")
                },
            }),
        }
    }
}

/// Parses a byte size such as `64mb`, `1gb`, `512KiB` or a plain number of bytes.
pub fn parse_bytes(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    let (digits, unit) = match lower.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => lower.split_at(i),
        None => (lower.as_str(), ""),
    };
    let n: usize = digits.parse().ok()?;
    let scale: usize = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_and_parameters() {
        let mut s: Spec = "pvs:depth=8,tt=64mb".parse().unwrap();
        assert_eq!(s.name(), "pvs");
        assert_eq!(s.get("depth", 1u32).unwrap(), 8);
        assert_eq!(s.bytes("tt", 0).unwrap(), 64 << 20);
        assert!(s.finish().is_ok());
        assert_eq!(s.to_string(), "pvs:depth=8,tt=64mb");
    }

    #[test]
    fn rejects_unknown_keys_listing_the_accepted_ones() {
        let mut s: Spec = "alphabeta:depht=3".parse().unwrap();
        s.get("depth", 4u32).unwrap();
        let err = s.finish().unwrap_err().to_string();
        assert!(
            err.contains("depht") && err.contains("accepted: depth"),
            "{err}"
        );
    }

    #[test]
    fn rejects_malformed_text_and_bad_values() {
        assert!("".parse::<Spec>().is_err());
        assert!("uct:sims".parse::<Spec>().is_err());
        assert!("uct:c=1,c=2".parse::<Spec>().is_err());
        let mut s: Spec = "uct:sims=lots".parse().unwrap();
        assert!(s
            .get("sims", 1u64)
            .unwrap_err()
            .to_string()
            .contains("lots"));
        let mut s: Spec = "pvs:tt=12parsecs".parse().unwrap();
        assert!(s.bytes("tt", 0).is_err());
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("4096"), Some(4096));
        assert_eq!(parse_bytes("1gb"), Some(1 << 30));
        assert_eq!(parse_bytes("16MiB"), Some(16 << 20));
        assert_eq!(parse_bytes("mb"), None);
    }
}

//! The one grammar for naming a searcher or a game in text: `name`, or
//! `name:key=value,key=value,…` — `pvs:depth=8,tt=64mb`, `othello:moves=f5d6`,
//! `random-tree:b=5,d=6,seed=1`.
//!
//! [`Spec`] is the parsed text. Each searcher and game declares its parameters once, as a table of
//! [`Param`]s (key, kind of value, default, help) in the [registry](crate::registry); [`Args`]
//! checks a spec against that table (unknown keys and malformed values are errors that say what is
//! accepted and where the culprit is) and hands the builders typed values, the table's default for
//! every key not given. The same tables produce `gametree list` and the registry's documentation,
//! so a default is written in exactly one place.

use std::fmt;
use std::str::FromStr;

/// Why a spec was rejected. Columns are 1-based character positions in the spec's text. The
/// messages are written for the command line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// The text is not `name[:key=value,…]`.
    #[error("malformed spec `{spec}` at column {column}: {message}")]
    Malformed {
        /// The whole spec.
        spec: String,
        /// Where the problem starts.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// No searcher or game has that name.
    #[error("unknown {kind} `{name}`; accepted: {accepted}")]
    UnknownName {
        /// `searcher` or `game`.
        kind: &'static str,
        /// The name given.
        name: String,
        /// The accepted names.
        accepted: String,
    },
    /// A parameter the searcher or game does not take.
    #[error("`{name}` has no parameter `{key}` (column {column}); accepted: {accepted}")]
    UnknownKey {
        /// The searcher or game.
        name: String,
        /// The key given.
        key: String,
        /// Where the parameter starts.
        column: usize,
        /// The accepted parameters with their defaults.
        accepted: String,
    },
    /// A value that is not of its parameter's kind.
    #[error("bad value `{value}` for `{name}:{key}` (column {column}): expected {expected}")]
    BadValue {
        /// The searcher or game.
        name: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// Where the value starts.
        column: usize,
        /// What the parameter accepts.
        expected: String,
    },
    /// Values that parse but do not make a valid searcher or game together (a game file that
    /// cannot be read, a bound this game does not know, a window an algorithm refuses).
    #[error("invalid `{name}`: {message}")]
    Invalid {
        /// The searcher or game.
        name: String,
        /// What is wrong.
        message: String,
    },
}

/// A parsed `name:key=value,…`. Parsing checks only the grammar; [`Args`] checks the parameters
/// against what the named item accepts.
///
/// ```
/// use gametree::spec::Spec;
/// let spec: Spec = "pvs:depth=8,tt=64mb".parse()?;
/// assert_eq!(spec.name(), "pvs");
/// assert_eq!(spec.value("tt"), Some("64mb"));
/// assert!("pvs:depth".parse::<Spec>().is_err()); // not `key=value`
/// # Ok::<(), gametree::spec::SpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    text: String,
    name: String,
    params: Vec<Given>,
}

/// One `key=value` as written, with the columns of the key and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Given {
    key: String,
    value: String,
    key_column: usize,
    value_column: usize,
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let malformed = |column: usize, message: String| SpecError::Malformed {
            spec: text.to_string(),
            column,
            message,
        };
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        if name.trim().is_empty() {
            return Err(malformed(1, "a name is missing before `:`".into()));
        }
        let mut params: Vec<Given> = Vec::new();
        let mut column = name.chars().count() + 2; // 1-based, after `name:`
        for part in rest.split(',') {
            let start = column + (part.chars().count() - part.trim_start().chars().count());
            column += part.chars().count() + 1;
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some(equals) = part.find('=') else {
                return Err(malformed(start, format!("`{part}` is not `key=value`")));
            };
            let (key, value) = (part[..equals].trim(), &part[equals + 1..]);
            if params.iter().any(|p| p.key == key) {
                return Err(malformed(start, format!("`{key}` is given twice")));
            }
            // The value's first character, after any spaces that follow `=`.
            let value_start = part.len() - value.trim_start().len();
            params.push(Given {
                key: key.to_string(),
                value: value.trim().to_string(),
                key_column: start,
                value_column: start + part[..value_start].chars().count(),
            });
        }
        Ok(Spec {
            text: text.to_string(),
            name: name.trim().to_string(),
            params,
        })
    }
}

impl fmt::Display for Spec {
    /// The text as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Spec {
    /// The name before the colon.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value given for `key`, if any.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.given(key).map(|g| g.value.as_str())
    }

    fn given(&self, key: &str) -> Option<&Given> {
        self.params.iter().find(|g| g.key == key)
    }
}

/// One parameter of a searcher or game: everything the builders, `gametree list`, the error
/// messages and the documentation need to know about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The key, as written in a spec.
    pub key: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// Its value when not given.
    pub default: DefaultValue,
    /// What it means, in one line.
    pub help: &'static str,
}

/// The values a [`Param`] takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// A real number in `min..=max`.
    Real {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// A size in bytes, at most [`MAX_SIZE`] (64 GiB): `4096`, `512kb`, `64mb`, `1gb` (`kib`, `mib`,
    /// `gib` too; every unit is a power of 1024).
    Size,
    /// `true` or `false`.
    Flag,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Free text without `,`.
    Text,
}

/// The largest [`Kind::Size`]: 64 GiB, more than any table these searchers need, so that a typo
/// such as `tt=1000gb` is a bad value rather than an allocation the machine refuses.
pub const MAX_SIZE: u64 = 64 << 30;

/// The value of a [`Param`] that is not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    /// This value, as it would be written in a spec.
    Fixed(&'static str),
    /// Derived from the game (its evaluation's scale, its typical number of moves) as described.
    Derived(&'static str),
}

impl Param {
    /// A parameter whose default is `default`, written as in a spec.
    pub const fn fixed(
        key: &'static str,
        kind: Kind,
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            key,
            kind,
            default: DefaultValue::Fixed(default),
            help,
        }
    }

    /// A parameter whose default the game decides, as `how` describes.
    pub const fn derived(
        key: &'static str,
        kind: Kind,
        how: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            key,
            kind,
            default: DefaultValue::Derived(how),
            help,
        }
    }
}

impl Kind {
    /// Whether `value` is of this kind.
    fn accepts(&self, value: &str) -> bool {
        match *self {
            Kind::Int { min, max } => value.parse::<i64>().is_ok_and(|v| (min..=max).contains(&v)),
            Kind::Real { min, max } => value
                .parse::<f64>()
                .is_ok_and(|v| v.is_finite() && (min..=max).contains(&v)),
            Kind::Size => parse_size(value).is_some_and(|bytes| bytes as u64 <= MAX_SIZE),
            Kind::Flag => matches!(value, "true" | "false"),
            Kind::Choice(words) => words.contains(&value),
            Kind::Text => !value.is_empty(),
        }
    }
}

impl fmt::Display for Kind {
    /// What the kind accepts, for messages and documentation: `an integer from 1 to 64`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Kind::Int { min, max } if max == i64::MAX => write!(f, "an integer ≥ {min}"),
            Kind::Int { min, max } => write!(f, "an integer from {min} to {max}"),
            Kind::Real { min, max } if max == f64::MAX => write!(f, "a number ≥ {min}"),
            Kind::Real { min, max } => write!(f, "a number from {min} to {max}"),
            Kind::Size => f.write_str("a size up to 64gb, such as 4096, 512kb, 64mb or 1gb"),
            Kind::Flag => f.write_str("`true` or `false`"),
            Kind::Choice(words) => write!(f, "one of {}", words.join(", ")),
            Kind::Text => f.write_str("text"),
        }
    }
}

impl fmt::Display for Param {
    /// `key=default`, or `key=<derived>` when the game decides.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.default {
            DefaultValue::Fixed(value) => write!(f, "{}={value}", self.key),
            DefaultValue::Derived(_) => write!(f, "{}=<game>", self.key),
        }
    }
}

/// Parses a size such as `64mb`, `1gb`, `512KiB` or a plain number of bytes.
pub fn parse_size(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    let split = lower
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(lower.len());
    let (digits, unit) = lower.split_at(split);
    let scale: usize = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        _ => return None,
    };
    digits.parse::<usize>().ok()?.checked_mul(scale)
}

/// A spec checked against the parameters of what it names: every key given is known and every
/// value is of its parameter's kind, so the getters cannot fail. Each getter returns the value
/// given or the table's default, and records it, so that [`full_spec`](Args::full_spec) can
/// write the spec out with every parameter as it was used.
///
/// The getters panic if asked for a key that is not in the table, or to read an integer into a
/// type that cannot hold every value of its table's range: those are bugs of the builder, which
/// panic whatever the value (the default included), so the registry's tests catch them. No value a
/// user gives can make a getter panic.
#[derive(Debug)]
pub struct Args<'a> {
    spec: &'a Spec,
    params: Vec<&'a Param>,
    used: Vec<(&'static str, String)>,
}

impl<'a> Args<'a> {
    /// Checks `spec` against `params` (a searcher's or game's table, plus any extra parameters the
    /// game adds).
    pub fn new(spec: &'a Spec, tables: &[&'a [Param]]) -> Result<Args<'a>, SpecError> {
        let params: Vec<&Param> = tables.iter().flat_map(|t| t.iter()).collect();
        for given in &spec.params {
            let Some(param) = params.iter().find(|p| p.key == given.key) else {
                return Err(SpecError::UnknownKey {
                    name: spec.name.clone(),
                    key: given.key.clone(),
                    column: given.key_column,
                    accepted: accepted(&params),
                });
            };
            if !param.kind.accepts(&given.value) {
                return Err(SpecError::BadValue {
                    name: spec.name.clone(),
                    key: given.key.clone(),
                    value: given.value.clone(),
                    column: given.value_column,
                    expected: param.kind.to_string(),
                });
            }
        }
        Ok(Args {
            spec,
            params,
            used: Vec::new(),
        })
    }

    /// The name of what the spec names.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Whether `key` was given in the spec (rather than left to its default).
    pub fn is_given(&self, key: &str) -> bool {
        self.spec.given(key).is_some()
    }

    /// The text of `key`: given, or the default. `None` for a derived default not given.
    fn raw(&mut self, key: &str) -> Option<String> {
        let param = self.param(key);
        let text = match (self.spec.value(key), param.default) {
            (Some(value), _) => canonical(param.kind, value),
            (None, DefaultValue::Fixed(value)) => value.to_string(),
            (None, DefaultValue::Derived(_)) => return None,
        };
        self.record(param.key, text.clone());
        Some(text)
    }

    /// Panics unless `T` holds every value of `key`'s integer range (a builder's bug, whatever the
    /// value given), so that converting a validated value to `T` cannot fail.
    fn check_fits<T: FromStr>(&self, key: &str) {
        if let Kind::Int { min, max } = self.param(key).kind {
            let fits = |v: i64| v.to_string().parse::<T>().is_ok();
            assert!(
                fits(min) && fits(max),
                "`{}`: the range {min}..={max} of `{key}` does not fit {}",
                self.name(),
                std::any::type_name::<T>()
            );
        }
    }

    fn param(&self, key: &str) -> &'a Param {
        self.params
            .iter()
            .copied()
            .find(|p| p.key == key)
            .unwrap_or_else(|| panic!("`{}` has no parameter `{key}` in its table", self.name()))
    }

    fn record(&mut self, key: &'static str, text: String) {
        self.used.retain(|(k, _)| *k != key);
        self.used.push((key, text));
    }

    fn fixed(&mut self, key: &str) -> String {
        self.raw(key)
            .unwrap_or_else(|| panic!("`{key}` has a derived default: read it with `derived`"))
    }

    /// An integer parameter, as `T`, which must hold every value of the parameter's range.
    pub fn int<T: FromStr>(&mut self, key: &str) -> T {
        assert!(
            matches!(self.param(key).kind, Kind::Int { .. }),
            "`{key}` is not an integer"
        );
        self.check_fits::<T>(key);
        parse(&self.fixed(key))
    }

    /// A real parameter.
    pub fn real(&mut self, key: &str) -> f64 {
        parse(&self.fixed(key))
    }

    /// A size parameter, in bytes.
    pub fn size(&mut self, key: &str) -> usize {
        parse_size(&self.fixed(key)).expect("validated by its kind")
    }

    /// A flag parameter.
    pub fn flag(&mut self, key: &str) -> bool {
        self.fixed(key) == "true"
    }

    /// A choice parameter: one of the words of its [`Kind::Choice`].
    pub fn choice(&mut self, key: &str) -> &'static str {
        let value = self.fixed(key);
        match self.param(key).kind {
            Kind::Choice(words) => words
                .iter()
                .find(|w| **w == value)
                .expect("validated by its kind"),
            _ => panic!("`{key}` is not a choice"),
        }
    }

    /// A text parameter (empty when its default is empty and it is not given).
    pub fn text(&mut self, key: &str) -> String {
        self.fixed(key)
    }

    /// The value given for `key` (parsed as `T`), or `None` if the spec leaves it out; for
    /// parameters whose default depends on others. A value given is recorded for
    /// [`full_spec`](Args::full_spec); when it is left out, record the value then used with
    /// [`derived`](Args::derived) (or a getter), so that the full spec shows it.
    pub fn optional<T: FromStr>(&mut self, key: &str) -> Option<T> {
        self.check_fits::<T>(key);
        let param = self.param(key);
        let value = canonical(param.kind, self.spec.value(key)?);
        self.record(param.key, value.clone());
        Some(parse(&value))
    }

    /// A parameter whose default the game decides: the value given (parsed as `T`), else
    /// `derived`; either way recorded for [`full_spec`](Args::full_spec).
    pub fn derived<T: FromStr + ToString>(&mut self, key: &str, derived: T) -> T {
        self.check_fits::<T>(key);
        match self.raw(key) {
            Some(text) => parse(&text),
            None => {
                self.record(self.param(key).key, derived.to_string());
                derived
            }
        }
    }

    /// An error about the value of `key` that its kind could not catch.
    pub fn invalid(&self, key: &str, message: impl fmt::Display) -> SpecError {
        SpecError::Invalid {
            name: self.spec.name.clone(),
            message: match self.spec.value(key) {
                Some(value) => format!("{key}={value}: {message}"),
                None => format!("{key}: {message}"),
            },
        }
    }

    /// The spec written out with every parameter read, as used: `pvs:depth=8,tt=64mb,cutoff=ge`.
    pub fn full_spec(&self) -> String {
        let mut text = self.spec.name.clone();
        let mut separator = ':';
        for param in &self.params {
            if let Some((_, value)) = self.used.iter().find(|(k, _)| *k == param.key) {
                text.push(separator);
                separator = ',';
                text.push_str(param.key);
                text.push('=');
                text.push_str(value);
            }
        }
        text
    }
}

/// A given value as the getters read it and [`Args::full_spec`] writes it: integers in their
/// plain decimal form (`+7`, `007` and `-0` are `7`, `7` and `0`), so that every type holding the
/// range parses them.
fn canonical(kind: Kind, value: &str) -> String {
    match (kind, value.parse::<i64>()) {
        (Kind::Int { .. }, Ok(number)) => number.to_string(),
        _ => value.to_string(),
    }
}

/// Parses a value its kind validated, into a type [`Args::check_fits`] accepted.
fn parse<T: FromStr>(text: &str) -> T {
    text.parse()
        .ok()
        .expect("validated by its kind, into a type that holds its range")
}

/// `key=default, key=default, …` for error messages.
fn accepted(params: &[&Param]) -> String {
    if params.is_empty() {
        return "none".to_string();
    }
    params
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[Param] = &[
        Param::fixed("depth", Kind::Int { min: 0, max: 64 }, "4", "plies"),
        Param::fixed("tt", Kind::Size, "0", "table"),
        Param::fixed("cutoff", Kind::Choice(&["ge", "gt"]), "ge", "criterion"),
        Param::derived(
            "step",
            Kind::Int { min: 1, max: 1000 },
            "from the game",
            "step",
        ),
    ];

    fn args(text: &str) -> Result<String, SpecError> {
        let spec: Spec = text.parse()?;
        let mut args = Args::new(&spec, &[TABLE])?;
        let depth: u32 = args.int("depth");
        let tt = args.size("tt");
        let cutoff = args.choice("cutoff");
        let step: u32 = args.derived("step", 7);
        Ok(format!("{depth} {tt} {cutoff} {step} {}", args.full_spec()))
    }

    #[test]
    fn defaults_come_from_the_table_and_the_full_spec_lists_them() {
        assert_eq!(
            args("x").unwrap(),
            "4 0 ge 7 x:depth=4,tt=0,cutoff=ge,step=7"
        );
        assert_eq!(
            args("x: tt=1kb , depth=9,step=3").unwrap(),
            "9 1024 ge 3 x:depth=9,tt=1kb,cutoff=ge,step=3"
        );
    }

    #[test]
    fn errors_name_the_column_and_what_is_accepted() {
        let err = args("x:depth=4,depht=3").unwrap_err();
        assert!(
            matches!(&err, SpecError::UnknownKey { key, column: 11, .. } if key == "depht"),
            "{err:?}"
        );
        assert!(err
            .to_string()
            .contains("depth=4, tt=0, cutoff=ge, step=<game>"));
        let err = args("x:depth=65").unwrap_err();
        assert!(
            matches!(err, SpecError::BadValue { column: 9, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("an integer from 0 to 64"));
        let err = args("x:cutoff=gte").unwrap_err();
        assert!(err.to_string().contains("one of ge, gt"), "{err}");
        assert!(matches!(
            args("x:depth"),
            Err(SpecError::Malformed { column: 3, .. })
        ));
        assert!(matches!(
            args("x:depth=1,depth=2"),
            Err(SpecError::Malformed { column: 11, .. })
        ));
        assert!(matches!(args(":depth=1"), Err(SpecError::Malformed { .. })));
        assert!(args("x:tt=12parsecs").is_err());
        let err = args("x:tt=1000gb").unwrap_err();
        assert!(
            matches!(err, SpecError::BadValue { column: 6, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("a size up to 64gb"), "{err}");
        assert!(args("x:tt=64gb").is_ok());
        assert!(args("x:tt=65537mb").is_err());
    }

    /// The character a 1-based column points at.
    fn at(text: &str, column: usize) -> String {
        text.chars().skip(column - 1).collect()
    }

    #[test]
    fn columns_point_at_the_key_or_value_after_spaces_and_wide_characters() {
        for (text, rest) in [
            ("x:depth= 99", "99"),
            ("x: tt = 1kb , depth =  99", "99"),
            ("x:cutoff=é,depth=99", "é,depth=99"),
            ("é:tt=é1,depth=1", "é1,depth=1"),
            ("ééé: depth = ééé", "ééé"),
        ] {
            match args(text) {
                Err(SpecError::BadValue { column, .. }) => assert_eq!(at(text, column), rest),
                other => panic!("{text}: {other:?}"),
            }
        }
        for (text, rest) in [("x:depth=4, depht=3", "depht=3"), ("é:tt=1k, ü =1", "ü =1")] {
            match args(text) {
                Err(SpecError::UnknownKey { column, .. }) => assert_eq!(at(text, column), rest),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn integers_are_read_and_written_in_their_plain_form() {
        assert_eq!(
            args("x:depth=+07,step=-0").unwrap_err(),
            SpecError::BadValue {
                name: "x".into(),
                key: "step".into(),
                value: "-0".into(),
                column: 18,
                expected: "an integer from 1 to 1000".into(),
            }
        );
        assert_eq!(
            args("x:depth=+07,step=0003").unwrap(),
            "7 0 ge 3 x:depth=7,tt=0,cutoff=ge,step=3"
        );
        let spec: Spec = "x:depth=-0".parse().unwrap();
        let mut args = Args::new(&spec, &[TABLE]).unwrap();
        assert_eq!(args.int::<u8>("depth"), 0);
    }

    /// A builder reading a parameter into a type too small for its range is caught by any test
    /// that reads it, whatever the value: here the default.
    #[test]
    #[should_panic(expected = "the range 1..=1000 of `step` does not fit u8")]
    fn a_range_that_does_not_fit_its_type_fails_whatever_the_value() {
        let spec: Spec = "x:step=2".parse().unwrap();
        let mut args = Args::new(&spec, &[TABLE]).unwrap();
        args.derived::<u8>("step", 7);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("1gb"), Some(1 << 30));
        assert_eq!(parse_size("16MiB"), Some(16 << 20));
        assert_eq!(parse_size("64mb"), Some(64 << 20));
        assert_eq!(parse_size("12parsecs"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("99999999999999999999gb"), None);
    }
}

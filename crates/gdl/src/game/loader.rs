//! [`Loader`]: the one way to load a description as a [`GdlGame`], or to check it, from a file or
//! from text, within [`Limits`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::description::UnsafeVariables;
use crate::error::GdlError;
use crate::game::check::{check, CheckReport};
use crate::game::GdlGame;
use crate::limits::Limits;

/// Loads a game description: where it comes from (a file or text), the name its messages give it,
/// and the [`Limits`] of loading. [`load`](Loader::load) parses, validates and grounds it into a
/// [`GdlGame`]; [`check`](Loader::check) does the same and summarises what it found
/// (`gametree gdl check`).
///
/// ```
/// use gdl::{Limits, Loader, ReasonerKind, UnsafeVariables};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.kif");
/// let game = Loader::file(path).load()?;
/// assert_eq!(game.reasoner_kind(), ReasonerKind::Fast);
///
/// // Text, named in messages, accepting the unsafe variables GGP Base's rulesheets use, and
/// // with no grounding: the reference reasoner plays it.
/// let limits = Limits { ground_rules: 0, ..Limits::default() };
/// let report = Loader::text("(role a) (<= (legal ?p go) (role a)) (<= terminal (true done))
///                            (<= (next done) (does a go)) (<= (goal a 100) (true done))")
///     .name("tiny.kif")
///     .limits(&limits)
///     .unsafe_variables(UnsafeVariables::RangeOverGroundTerms)
///     .check()?;
/// assert_eq!(report.roles, ["a"]);
/// assert!(!report.fast_reasoner);
/// # Ok::<(), gdl::GdlError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Loader<'a> {
    input: Input<'a>,
    name: Option<String>,
    limits: Limits,
}

#[derive(Clone, Debug)]
enum Input<'a> {
    File(PathBuf),
    Text(&'a str),
}

impl<'a> Loader<'a> {
    /// The description in the file at `path` (named by its path in messages).
    /// [`GdlError::Unreadable`] when it cannot be read as UTF-8 text.
    pub fn file(path: impl AsRef<Path>) -> Loader<'static> {
        Loader {
            input: Input::File(path.as_ref().to_path_buf()),
            name: None,
            limits: Limits::default(),
        }
    }

    /// The description `text`, in KIF or infix syntax (named `<input>` in messages unless
    /// [`name`](Loader::name)d).
    pub fn text(text: &'a str) -> Loader<'a> {
        Loader {
            input: Input::Text(text),
            name: None,
            limits: Limits::default(),
        }
    }

    /// Names the description `name` in messages ([`Diagnostic`](crate::Diagnostic)s, reports).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Loads within `limits` instead of [`Limits::default`].
    pub fn limits(mut self, limits: &Limits) -> Self {
        self.limits = limits.clone();
        self
    }

    /// Whether rules with unsafe variables are rejected (the default, as GDL says) or read as GGP
    /// Base reads them: [`Limits::unsafe_variables`].
    pub fn unsafe_variables(mut self, policy: UnsafeVariables) -> Self {
        self.limits.unsafe_variables = policy;
        self
    }

    /// Parses, validates and grounds the description: the fast reasoner when grounding succeeds
    /// within the limits, the reference reasoner otherwise (see [`GdlGame::reasoner_kind`]).
    ///
    /// Errors: [`GdlError::Unreadable`] for a file that cannot be read; [`GdlError::Syntax`] and
    /// [`GdlError::Invalid`] for descriptions that are not valid GDL; [`GdlError::Budget`] when the
    /// static relations, or grounding without an acceptable fallback, exceed the limits (the
    /// message names the rule); [`GdlError::NotStratified`] when ground atoms recurse through
    /// negation.
    pub fn load(&self) -> Result<GdlGame, GdlError> {
        let (text, name) = self.read()?;
        GdlGame::load(&text, &name, &self.limits)
    }

    /// Loads the description as [`load`](Loader::load) does, plays seeded random playouts to look
    /// for dead ends and games that never end, and summarises it. `Err` for invalid descriptions,
    /// with every problem found ([`GdlError::exit_code`] gives the CLI's exit code).
    pub fn check(&self) -> Result<CheckReport, GdlError> {
        let (text, name) = self.read()?;
        check(&text, &name, &self.limits)
    }

    /// The text and its name.
    fn read(&self) -> Result<(Cow<'a, str>, String), GdlError> {
        match &self.input {
            Input::Text(text) => Ok((
                Cow::Borrowed(*text),
                self.name.clone().unwrap_or_else(|| "<input>".to_string()),
            )),
            Input::File(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| GdlError::Unreadable {
                    path: path.display().to_string(),
                    reason: e.to_string(),
                })?;
                let name = (self.name.clone()).unwrap_or_else(|| path.display().to_string());
                Ok((Cow::Owned(text), name))
            }
        }
    }
}

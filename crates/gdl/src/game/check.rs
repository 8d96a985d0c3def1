//! [`CheckReport`]: a description validated and summarised, for `gametree gdl check`
//! ([`Loader::check`](crate::Loader::check)).

use std::fmt;

use game_trait::Game;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::error::GdlError;
use crate::game::playout::random_playout;
use crate::game::{GdlGame, ReasonerKind};
use crate::limits::Limits;

/// What [`Loader::check`](crate::Loader::check) found out about a valid description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Where it came from.
    pub source: String,
    /// The syntax it is written in.
    pub syntax: &'static str,
    /// All roles, `random` included, in declaration order.
    pub roles: Vec<String>,
    /// Fluents known (all reachable ones when the fast reasoner applies; those seen so far otherwise).
    pub fluents: usize,
    /// Ground moves known (same caveat).
    pub moves: usize,
    /// Whether the fast (grounded) reasoner applies.
    pub fast_reasoner: bool,
    /// The reasoner that plays the game.
    pub reasoner: ReasonerKind,
    /// Ground rules of the fast reasoner, or why it does not apply.
    pub reasoner_note: String,
    /// Problems that do not make the description invalid (from the validator and from
    /// [`CheckReport::PLAYOUTS`] seeded random playouts).
    pub warnings: Vec<String>,
}

impl CheckReport {
    /// How many random playouts `check` plays to look for dead ends.
    pub const PLAYOUTS: usize = 20;
    /// The longest playout `check` plays.
    pub const MAX_STEPS: usize = 10_000;
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: valid GDL ({} syntax)", self.source, self.syntax)?;
        writeln!(f, "roles:    {}", self.roles.join(" "))?;
        writeln!(f, "fluents:  {}", self.fluents)?;
        writeln!(f, "moves:    {}", self.moves)?;
        writeln!(
            f,
            "reasoner: {} ({})",
            self.reasoner.name(),
            self.reasoner_note
        )?;
        for w in &self.warnings {
            writeln!(f, "warning:  {w}")?;
        }
        Ok(())
    }
}

/// Loads `text` (named `file` in messages) within `limits` and summarises it: what
/// [`Loader::check`](crate::Loader::check) does once it has the text.
pub(crate) fn check(text: &str, file: &str, limits: &Limits) -> Result<CheckReport, GdlError> {
    let game = GdlGame::load(text, file, limits)?;
    let mut warnings = game.warnings();
    let mut rng = Pcg64::seed_from_u64(0);
    for i in 0..CheckReport::PLAYOUTS {
        let p = random_playout(
            &game,
            game.initial_state(),
            &mut rng,
            CheckReport::MAX_STEPS,
        );
        let problem = if !p.finished && p.steps >= CheckReport::MAX_STEPS {
            Some(format!(
                "random playout {i} did not end within {} rounds",
                CheckReport::MAX_STEPS
            ))
        } else if !p.finished {
            Some(format!(
                "random playout {i} reached a non-terminal state where a role has no legal move: {}",
                game.fluent_names(&p.state).join(" ")
            ))
        } else if let Some(p_) = game.goals(&p.state).iter().position(Option::is_none) {
            Some(format!(
                "player `{}` has no goal value in a terminal state: {}",
                game.player_name(p_),
                game.fluent_names(&p.state).join(" ")
            ))
        } else {
            None
        };
        if let Some(w) = problem {
            warnings.push(w);
            break;
        }
    }
    let (fluents, moves) = game.counts();
    Ok(CheckReport {
        source: file.to_string(),
        syntax: match crate::syntax::detect(text) {
            crate::syntax::Syntax::Kif => "KIF",
            crate::syntax::Syntax::Infix => "infix",
        },
        roles: game.roles().to_vec(),
        fluents,
        moves,
        fast_reasoner: game.reasoner_kind() == ReasonerKind::Fast,
        reasoner: game.reasoner_kind(),
        reasoner_note: match game.ground_rules() {
            Some(n) => format!("{n} ground rules"),
            None => game.fallback_reason().unwrap_or_default().to_string(),
        },
        warnings,
    })
}

//! [`Limits`]: what loading a game may spend; [`LoadProfile`]: what it spent.

use std::time::Duration;

use crate::description::UnsafeVariables;

/// The budget of loading a game: grounding and the static part of the reference reasoner stop
/// within these limits, with an error naming the rule being evaluated, instead of exhausting
/// memory or time. Pass them to [`Loader::limits`](crate::Loader::limits).
///
/// When grounding exceeds them (or `ground_time`, or `ground_steps`) and `fallback` is set, the
/// game is played by the reference reasoner, evaluating goal-directed (only what a query asks about), if one
/// of its queries on the initial state fits in `fallback_query` (sound, and fast enough to play);
/// otherwise loading fails.
///
/// One field is a policy rather than a budget: `unsafe_variables`, whether rules GDL forbids but
/// rulesheets in circulation use are accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most ground rules grounding may produce.
    pub ground_rules: usize,
    /// The most atoms a model (the static relations, the relaxed model of domain analysis) may hold.
    pub atoms: usize,
    /// The most atoms a non-recursive static relation may hold to be evaluated whole at load. A
    /// larger one, and every relation that reads it, is evaluated in each query instead,
    /// goal-directed: only for the arguments the query binds. (A recursive one stays whole,
    /// under `atoms`: goal-directed, it would answer by a chain of calls as long as itself.) Descriptions
    /// that define lists or coordinate relations over every combination (`(isList (list ?a (list
    /// ?b …)))` over 25 elements, a direction between any two squares of a large board) play
    /// this way; a relation this large could not be grounded within `relaxed_atoms` either.
    pub static_relation_atoms: usize,
    /// The most atoms domain analysis may find before grounding gives up: a game whose relaxed
    /// model is larger (GGP chess: millions, through its seven-argument threat relations) has a
    /// ground program too large to evaluate quickly, and is played by the reference reasoner.
    /// A count, not a time, so that which reasoner a game gets does not depend on the machine.
    pub relaxed_atoms: usize,
    /// When grounding gives up: a relation whose relaxed model reaches this many atoms is too
    /// large to ground, and a game whose other relations ground is played by the hybrid reasoner
    /// (those relations ground on demand and evaluated in each state, the rest by the ground
    /// network: [`ReasonerKind::Hybrid`](crate::ReasonerKind::Hybrid)). 0 (the default): no
    /// hybrid reasoner, the game falls back to the reference reasoner.
    /// [`Limits::HYBRID_RELATION_ATOMS`] is the measured choice; on GGP Base's chess the hybrid
    /// plays several times faster than the reference reasoner, but loads about 2 s slower and
    /// its cache of ground rules grows to a few hundred MB (`gametree gdl bench chess.kif
    /// --hybrid` against the same without), which is why it is asked for, not the default.
    pub hybrid_relation_atoms: usize,
    /// The most memory terms, atoms and ground rules may take, in bytes (an estimate, checked
    /// every few thousand join steps).
    pub memory_bytes: usize,
    /// The longest loading may take.
    pub time: Duration,
    /// The longest grounding may take before the game falls back to the reference reasoner.
    pub ground_time: Duration,
    /// The most join steps grounding may take (a step binds one body literal or fails to): a
    /// measure of work that, unlike `ground_time`, stops grounding at the same point on every
    /// machine. The shipped games take at most 3 million.
    pub ground_steps: u64,
    /// Whether a game grounding gives up on may be played by the reference reasoner.
    pub fallback: bool,
    /// How long one reference query on the initial state may take for the fallback to apply.
    pub fallback_query: Duration,
    /// Whether a rule with an unsafe variable makes the description invalid (the default, as GDL
    /// says) or is read as GGP Base reads it.
    pub unsafe_variables: UnsafeVariables,
}

impl Limits {
    /// A [`hybrid_relation_atoms`](Limits::hybrid_relation_atoms) that defers GGP Base chess's
    /// threat relations and nothing else: 16,000 atoms. Its other relations stay below it in
    /// domain analysis (`legal` and `legal2`, the largest, about 7,600; `different_cells`, with
    /// 65,280, is static, decided while grounding).
    pub const HYBRID_RELATION_ATOMS: usize = 16_000;
}

impl Default for Limits {
    /// Two million ground rules, five million atoms (half a million for one static relation
    /// evaluated whole, and for domain analysis), no hybrid reasoner, 2 GB, 60 s (20 and 100
    /// million join steps for grounding); the fallback applies when a reference
    /// query on the initial state takes less than a second; unsafe variables are rejected.
    fn default() -> Limits {
        Limits {
            ground_rules: 2_000_000,
            atoms: 5_000_000,
            static_relation_atoms: 500_000,
            relaxed_atoms: 500_000,
            hybrid_relation_atoms: 0,
            memory_bytes: 2_000_000_000,
            time: Duration::from_secs(60),
            ground_time: Duration::from_secs(20),
            ground_steps: 100_000_000,
            fallback: true,
            fallback_query: Duration::from_secs(1),
            unsafe_variables: UnsafeVariables::Reject,
        }
    }
}

/// Where the time of loading a game went (wall clock, one thread): the figures behind
/// `gametree gdl bench`'s load time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadProfile {
    /// Parsing and validation.
    pub parse: Duration,
    /// Evaluating the static relations (the reference reasoner's base layer, the initial state).
    pub statics: Duration,
    /// Domain analysis: the relaxed model.
    pub domain: Duration,
    /// Instantiating the rules into ground rules (with the stratification check).
    pub instantiate: Duration,
    /// Compiling the ground rules (or probing the reference reasoner, when grounding gave up).
    pub compile: Duration,
}

impl LoadProfile {
    /// The sum of the phases.
    pub fn total(&self) -> Duration {
        self.parse + self.statics + self.domain + self.instantiate + self.compile
    }
}

//! [`ScspError`]: why a network was rejected, naming the place.

/// Why a stochastic constraint network could not be read or built. `place` is a path into the
/// network (`constraints[2].allowed[5]`, `cpts[0].rows[1]`) so that the culprit can be found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScspError {
    /// The file is not JSON of the expected shape.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// The network's shape is wrong: no player or too many, a utility vector or threshold whose
    /// length is not the player count, a constraint with both or neither of `allowed` and
    /// `utility`.
    #[error("{place}: {message}")]
    Shape {
        /// Where.
        place: String,
        /// What is wrong.
        message: String,
    },
    /// A name that is not a variable of the network.
    #[error("{place}: unknown variable `{name}`")]
    UnknownVariable {
        /// Where the name appears.
        place: String,
        /// The name.
        name: String,
    },
    /// Two variables with one name.
    #[error("{place}: variable `{name}` is declared twice")]
    DuplicateVariable {
        /// Where the second declaration is.
        place: String,
        /// The name.
        name: String,
    },
    /// A value outside its variable's domain.
    #[error("{place}: {value} is not in the domain of `{variable}`")]
    ValueOutOfDomain {
        /// Where.
        place: String,
        /// The variable.
        variable: String,
        /// The value.
        value: i64,
    },
    /// A tuple whose length is not its scope's.
    #[error("{place}: {found} values for a scope of {expected} variables")]
    Arity {
        /// Where.
        place: String,
        /// The scope's size.
        expected: usize,
        /// The tuple's length.
        found: usize,
    },
    /// A utility that is not a vector of one number in `[0, 1]` per player.
    #[error("{place}: {message}")]
    Utility {
        /// Where.
        place: String,
        /// What is wrong.
        message: String,
    },
    /// A conditional probability table that does not define a distribution for every tuple of its
    /// scope, whose probabilities are not a distribution, or whose scope is not earlier in the
    /// order.
    #[error("{place}: {message}")]
    Probability {
        /// Where.
        place: String,
        /// What is wrong.
        message: String,
    },
    /// A solver that needs a one-stage network (every decision variable before every stochastic
    /// one) was given another.
    #[error("not a one-stage network: decision variable `{decision}` follows stochastic variable `{stochastic}`")]
    NotOneStage {
        /// The decision variable.
        decision: String,
        /// The stochastic variable it follows.
        stochastic: String,
    },
    /// A game's description of its rounds that contradicts itself or the game's rules (see
    /// [`check_round`](crate::check_round)).
    #[error("the game's round description: {message}")]
    Round {
        /// What is wrong, and in which state.
        message: String,
    },
    /// The deadline or the stop flag ended the work first (indexing a round for its networks).
    #[error("stopped by the deadline or the stop flag before {what} was done")]
    Stopped {
        /// What was under way.
        what: &'static str,
    },
    /// A player parameter out of its range.
    #[error("parameter `{name}` {message}")]
    Parameter {
        /// The parameter.
        name: &'static str,
        /// What its value must be.
        message: String,
    },
}

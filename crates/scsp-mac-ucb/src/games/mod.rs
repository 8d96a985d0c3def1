//! Small hand-written games that describe their rounds ([`RoundGame`](game_trait::RoundGame)), to
//! play with and to test the players on: one deterministic and turn-taking ([`Nim`]), one
//! cooperative with simultaneous moves and a chance turn ([`CooperativePennies`], the paper's own
//! example), one where chance moves every round ([`Pig`]). Each is a page of code: the rules as
//! [`GeneralGame`](game_trait::GeneralGame) methods, the round as tables written with
//! [`Round::hard_table`](game_trait::round::Round::hard_table); [`check_round`](crate::check_round)
//! confirms the two agree.

mod nim;
mod pennies;
mod pig;

pub use nim::{Nim, NimState};
pub use pennies::{CooperativePennies, PenniesState};
pub use pig::{Pig, PigState, HOLD, ROLL};

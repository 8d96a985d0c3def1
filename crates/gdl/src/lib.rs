//! The Game Description Language for gametree: parse any game written in GDL or GDL-II, validate it,
//! reason about it with a simple reference reasoner or a fast grounded one, and play it through the
//! game-trait [`Game`](game_trait::Game) interface with every searcher of the workspace.
//!
//! # Should I be using this crate?
//! Use it to load General Game Playing descriptions (`.kif` files) and play or search them. Through
//! the `gametree` facade it is `gametree::gdl`; the CLI exposes it as `gametree gdl check` and
//! `gametree gdl bench`, and `perft`/`search`/`match` accept `.kif` files.
//!
//! # The pipeline, stage by stage
//! A description goes through these stages, each a folder of the source:
//!
//! | stage | what it does | public API |
//! |---|---|---|
//! | syntax | KIF and infix text → syntax trees; interned symbols, hash-consed terms | [`syntax`]: [`syntax::parse`], [`syntax::term`] |
//! | description | syntax trees → rules; the validator's checks, stratification, unsafe variables | [`description`]: [`description::load`], [`Diagnostic`], [`UnsafeVariables`] |
//! | Datalog, reference | bottom-up stratified evaluation; the reference reasoner and its goal-directed mode | internal; chosen through [`ReasonerKind`] |
//! | grounding | rules decomposed, grounded over the relaxed model, cones of the ground atoms; rules bridged around relations too large to ground | internal; bounded by [`Limits`], timed by [`LoadProfile`] |
//! | network | the ground rules compiled to straight-line programs; views updated from the previous state's | internal: the [`ReasonerKind::Fast`] and [`ReasonerKind::Hybrid`] reasoners |
//! | round encoding | a round of play as variables and tables for stochastic-constraint players | [`GdlRound`], [`EncodeOptions`], [`RoundStats`] |
//! | games | the description as a game: n players, chance, simultaneous moves; a two-player view; playouts, checks, benchmarks | [`Loader`], [`GdlGame`], [`TurnTaking`], [`random_playout`], [`CheckReport`], [`bench()`] |
//!
//! - [`Loader`]: the one way in: a file or text, the [`Limits`] of loading and the unsafe-variable
//!   policy; [`Loader::load`] gives a [`GdlGame`], [`Loader::check`] a [`CheckReport`] (what
//!   `gametree gdl check` prints). `text.parse::<GdlGame>()` is `Loader::text(text).load()`.
//! - [`GdlGame`]: a description as an n-player [`Game`](game_trait::Game) with simultaneous moves
//!   and a chance player (`random`); states are [`FluentSet`]s, moves [`GdlMove`]s.
//! - [`TurnTaking`], [`GoalEvaluator`], [`TurnState`]: the checked two-player view for negamax
//!   searchers.
//! - [`bench()`] → [`BenchReport`]: load time, ground rules, fluents, random playouts per second, for
//!   `gametree gdl bench`.
//! - [`random_playout`], [`sample`]: seeded random playouts over any game.
//! - [`GdlRound`]: a game as a game-trait [`RoundGame`](game_trait::RoundGame), the stochastic-CSP
//!   encoding MAC-UCB plays ([`round`](mod@round), with Matching Pennies as the worked example).
//! - Shipped games (`games/`, as text in [`SHIPPED`] and [`shipped`]): tic-tac-toe, connect
//!   four, Matching Pennies, Monty Hall, a dice duel,
//!   three rounds of rock-paper-scissors; and the GGP classics chess, checkers, breakthrough,
//!   10x10 Amazons and two-player pacman (GGP Base rulesheets), Othello, 9x9 Hex and 10x10 Tron
//!   (simultaneous moves) written here;
//!   chess again as `chess_groundable.kif` (written here: the full rules, with legality by pins and
//!   checks, so that it grounds to about 100,000 rules and plays on the fast reasoner, where the
//!   GGP Base chess is played goal-directed);
//!   and GDL-II games written here: Orchard, Käseklau, three-player Chinese Checkers and Bomberman,
//!   and small variants of Pickomino, Yahtzee, Can't Stop and Backgammon, with a small Awale; each
//!   file saying where it comes from and, for a variant, what differs from the real game.
//!
//! # The language accepted
//! **KIF**, the GGP standard (Love, Hinrichs, Haley, Schkufza, Genesereth, *General Game Playing: Game
//! Description Language Specification*, 2008): `;` comments, constants case-insensitive (normalised to
//! lower case), variables `?x`, facts and rules `(<= head body…)`, body literals `(not …)`, `(or …)`,
//! `(distinct a b)`, `(true f)`, `(does r m)`; the keywords `role init true next legal does goal terminal
//! base input`, and GDL-II's `random` role and `sees` (Thielscher, *A General Game Description Language
//! for Incomplete Information Games*, AAAI 2010).
//!
//! **Infix**, the Prolog-like form papers print (e.g. Figure 1 of Koriche, Lagrue, Piette, Tabary,
//! *General Game Playing with Stochastic CSP*, Constraints, 2016):
//! `legal(P, choose(X)) :- true(control(P)), side(X).`,
//! with `:-`, `←`, `<-` or `<=`, literals separated by `,` or `&`, `not(l)` or `not l`, `distinct(a, b)`,
//! `or(l1, l2)`. **In the infix form, identifiers starting with an upper-case letter or `_` are
//! variables** (as in Prolog; `_` alone is anonymous); everything else is a constant, lower-cased. `%`
//! and `;` start comments. A file whose first significant character is `(` is KIF, otherwise infix.
//! `crates/gdl/games/matching_pennies.kif` is the paper's figure in infix, with the four corrections it
//! needs to be valid GDL listed in its header.
//!
//! Not supported: nesting deeper than [`syntax::MAX_NESTING`] parentheses, reported as an error, never
//! as a crash.
//!
//! # Validation
//! Every problem is reported with file, line, column and the rule ([`Diagnostic`]): syntax; arity
//! clashes; unsafe variables (in the head, in `not` or `distinct`, without a positive binding literal);
//! violations of the recursion restriction; `legal`/`terminal`/`goal` depending on `does`; `init`
//! depending on `true` or `does`; rules defining `true` or `does`; no `role`; a role other than
//! `random` without a `goal` rule. Ground atoms that depend on themselves through negation are
//! reported when grounding finds them ([`GdlError::NotStratified`], the cycle named).
//!
//! Two leniencies, for rulesheets in circulation. `base` and `input` facts of other arities than
//! GDL's (GGP Base's compact `(base cell (val 1 2 3) (val x o b))`) are dropped with a warning
//! when no rule reads them, since declarations only describe the game; read by a rule, they are
//! an arity clash. And when asked ([`Limits::unsafe_variables`], which `gametree ggp` sets), a rule
//! with unsafe variables (`(legal ?player pass)`, `(<= (sum ?x 0 ?x) (succ 0 1))`) is read as
//! GGP Base's top-down prover reads it (the caller binds the variable), with a warning
//! ([`UnsafeVariables`]). A variable of the head ranges over the constants that can reach its
//! argument positions: positions are connected when a rule writes one variable at both, and
//! where `init`, `true` and `next` (or `legal` and `does`, or the role arguments) meet; a value
//! reaches a position only from a connected one (the argument domains of Kissmann and Edelkamp,
//! *Instantiating General Games*, 2009). Where those positions can hold compound terms, and for
//! a variable only in `not` or `distinct` (which GGP Base's prover reads as asking about any
//! value), it ranges over every ground term the description writes as an argument.
//!
//! # Semantics
//! A state is a set of ground fluents. The initial state holds every `f` with `init(f)`. In a state,
//! the model is the stratified model of the rules plus `true(f)` for each fluent; `legal`, `terminal`
//! and `goal` are read off it. The successor under a joint move holds every `f` with `next(f)` in the
//! model that also contains `does(r, m)` for each role's move. `random`'s moves are uniformly
//! distributed (GDL-II; the MAC-UCB paper's semantics). `sees` is parsed and evaluated
//! ([`GdlGame::percepts`]), but play is full-information, as in that paper. How this maps onto
//! game-trait's `Turn` is documented on [`GdlGame`]. Goal values must be numeric constants 0–100;
//! payoffs are goal/100.
//!
//! # The reasoners
//! Both rest on one Datalog engine: bottom-up, stratified, semi-naive evaluation with
//! hash-indexed joins, under a budget.
//! * **Reference** ([`ReasonerKind::Reference`]): every query computes the stratified model of the
//!   rules plus the state (and joint move) with the engine and reads the answer off it. The relations
//!   that depend on neither `true` nor `does` are evaluated once at load; a query evaluates only what
//!   its answer depends on. Easy to read, the oracle of the tests. For a game grounding gave up on
//!   it evaluates goal-directed: only the atoms a query asks about, tabled per call.
//! * **Fast** ([`ReasonerKind::Fast`]): the rules are decomposed where a variable multiplies
//!   instances, grounded over the relaxed model of domain analysis (every atom that can hold in some
//!   reachable state), static relations folded away, and the ground rules compiled into three
//!   straight-line programs (view = legal + terminal; goal and next, which start from the view) over
//!   one bitset per evaluation; nothing is allocated per query whatever the game's size. If
//!   grounding exceeds its [`Limits`], the game falls back to the reference reasoner when that is
//!   fast enough and says so ([`GdlGame::reasoner_kind`], [`GdlGame::fallback_reason`]); otherwise
//!   loading fails with an error naming the rule.
//! * **Hybrid** ([`ReasonerKind::Hybrid`], when [`Limits::hybrid_relation_atoms`] asks for it):
//!   for a description grounding gives up on, the relations too large to ground (those whose
//!   atoms in domain analysis reach that many) are evaluated per state, and everything else is
//!   grounded. Each output rule that reads such a relation is split around it: the network
//!   computes which of its atoms a state can use (the rule's other literals hold), asks for
//!   exactly those, and evaluates the view or the successor a second time with the answers as
//!   inputs. The answers come from grounding on demand: an asked atom's rules are ground the
//!   first time a state needs them, then evaluated in every later state over the state's fluent
//!   bits ([`GdlGame::per_state_reasoner`] says how much is ground, or why the goal-directed
//!   engine answers instead). GGP Base's chess plays this way with its threat relations deferred
//!   (perft 20, 400, 8,902 from the start), about twice as fast as on the reference reasoner
//!   after a load of 2.3–3.6 s, with its ground cache growing to a few hundred MB over a minute,
//!   so it is asked for, not the default (`gametree gdl bench crates/gdl/games/chess.kif
//!   --hybrid`; the `ggp` player asks for it given a start clock of 10 s or more).
//!
//! Recursion through negation is accepted when the ground rules are stratified (a warning says so),
//! and rejected ([`GdlError::NotStratified`]) when ground atoms depend on themselves through
//! negation.
//!
//! They are cross-checked on every shipped game along seeded random playouts (same legal sets, next
//! states, terminal and goals), and every shipped game's perft is checked against an independent
//! count (published counts, or a model of the rules written in the tests).
//!
//! # Example: parse tic-tac-toe, play a random game
//! ```
//! use game_trait::{Game, GeneralGame, MoveList, Turn};
//! use gdl::{GdlGame, Loader, ReasonerKind};
//! use rand::{Rng, SeedableRng};
//!
//! let game = Loader::file(concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.kif")).load()?;
//! assert_eq!(game.roles(), ["xplayer", "oplayer"]);
//! assert_eq!(game.reasoner_kind(), ReasonerKind::Fast);
//!
//! let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
//! let mut state = game.initial_state();
//! let mut moves = MoveList::new();
//! while let Turn::Player(p) = game.turn(&state) {
//!     game.legal_moves(&state, p, &mut moves);
//!     let mv = moves[rng.gen_range(0..moves.len())];
//!     println!("{} plays {}", game.player_name(p), game.move_name(&state, mv));
//!     game.play(&mut state, mv);
//! }
//! assert_eq!(game.turn(&state), Turn::Over);
//! let total = game.payoff(&state, 0) + game.payoff(&state, 1);
//! assert_eq!(total, 1.0); // win/loss or draw
//!
//! // The paper's Matching Pennies, in infix syntax: alice and bob choose at once, then chance flips.
//! let pennies = Loader::text(
//!     "role(alice). role(bob). role(random). side(heads). side(tails).
//!      init(control(alice)). init(control(bob)).
//!      legal(P, choose(X)) :- true(control(P)), side(X).
//!      legal(P, noop) :- role(P), not true(control(P)).
//!      next(coin(P, X)) :- does(P, choose(X)).
//!      next(control(random)) :- true(control(alice)).
//!      next(coin(P, X)) :- true(coin(P, X)).
//!      terminal :- true(coin(random, X)).
//!      goal(P, 100) :- role(P), true(coin(alice, X)), true(coin(bob, X)), true(coin(random, X)).
//!      goal(P, 0) :- role(P), not won.
//!      won :- true(coin(alice, X)), true(coin(bob, X)), true(coin(random, X)).",
//! )
//! .load()?;
//! assert_eq!(pennies.turn(&pennies.initial_state()), Turn::Simultaneous);
//! # Ok::<(), gdl::GdlError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod datalog;
pub mod description;
mod error;
mod game;
mod grounding;
mod limits;
mod network;
mod reference;
pub mod round;
pub mod syntax;

pub use description::UnsafeVariables;
pub use error::{Diagnostic, GdlError, Location};
pub use game::bench::{bench, BenchReport};
pub use game::check::CheckReport;
pub use game::fluents::FluentSet;
pub use game::loader::Loader;
pub use game::playout::{random_playout, sample, Playout};
pub use game::shipped::{shipped, SHIPPED};
pub use game::turn_taking::{GoalEvaluator, TurnState, TurnTaking};
pub use game::{GdlGame, GdlMove, ReasonerKind, RuleSteps};
pub use limits::{Limits, LoadProfile};
pub use round::{EncodeOptions, GdlRound, RoundStats};

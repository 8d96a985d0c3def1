//! [`GdlRound`]: a GDL game as a game-trait [`RoundGame`], the stochastic-CSP encoding of Koriche,
//! Lagrue, Piette and Tabary, *General Game Playing with Stochastic CSP* (Constraints, 2016,
//! Section 3.2), read off the game's ground rules.
//!
//! # The encoding
//! One round (one stage `μSCSP_t`) has
//! - the **terminal** variable `g_t` ∈ {false, true};
//! - the **state variables** `f_t`: one per group of fluents proven exclusive (at most one holds
//!   in every reachable state; see [Exclusive fluents](#exclusive-fluents)), whose values are the group's
//!   fluents, plus `none` unless one of them always holds; one Boolean per remaining fluent;
//! - an **action variable** `a_{t,p}` per player, `does(p)`, whose values are the moves some
//!   ground `legal(p, m)` atom names, and the **chance variable** `y_t`, `does(random)`, likewise
//!   for the `random` role if the game has it;
//! - a **next variable** `f_{t+1}` per state variable.
//!
//! and the tables
//! - `terminal`: `g_t` against the state variables the ground rules of `terminal` read;
//! - `legal(p)[k]`: one table per group of `p`'s moves whose `legal` atoms read the same state
//!   variables, over those and `does(p)`: a move of the group is allowed exactly where its `legal`
//!   atom holds, every other move everywhere (the intersection of the tables is the legal set);
//! - `next(f)`: `f_{t+1}` against the state and action variables the ground rules of `f`'s `next`
//!   atoms read; combinations after which the rules give `f` no single value (two fluents of a
//!   group) are left out, as no legal joint move from a reachable state leads there;
//! - `goal(p)`: a soft table, `p`'s reward `goal / 100` over the state variables its `goal` atoms
//!   read and `g_t = true` (0 in non-terminal states and wherever it is unlisted).
//!
//! "The ground rules an atom reads" is its cone in the ground program: every fluent and move some
//! rule below it mentions, positively or negatively. The atom is a function of its cone, so
//! each table is computed exactly by enumerating the values of the variables in its scope and
//! asking the game's fast reasoner; a table is refused ([`GdlError::Encoding`]) when that
//! enumeration passes [`EncodeOptions::max_tuples`]. The chance variable is uniform over its
//! legal values (GDL-II), which the players read off the legal tables. A rule that reads a whole
//! board (connect four's `terminal`: every line of four) would make a table over the whole board;
//! such tables go through helper variables instead.
//!
//! # Helper variables
//! When a table's cone passes [`EncodeOptions::max_tuples`] (and [`EncodeOptions::gates`] is on),
//! the derived atoms below it get Boolean helper variables ([`VariableKind::Auxiliary`],
//! *gates*), named after the atom they stand for: `(line red)` is a gate whose table relates it
//! to the gates of the lines it is made of, and `terminal` is then a table over a few gates. Each
//! gate's table is over the variables its own rules read, with the gates of its children in place
//! of their cones, and is kept to about 256 value combinations: an atom whose rules read more is
//! split, each rule a conjunction cut into gated chunks (`(line red)#3`), the rules joined by a
//! tree of gated disjunctions. Every gate table is functional (one gate value per assignment of
//! its inputs), so the state fixes every gate that reads no move, and the state and the moves fix
//! the rest; a gate that reads a move is part of the transition and its table a next table. A
//! legal table too large to enumerate becomes one table per move, over the move's gate and the
//! action variable. An atom that depends on itself (Hex's paths) cannot be a function of its own
//! gate: a table that needs one is refused, naming the atom.
//!
//! Connect four encodes this way with 256 variables (the lines are gates), Othello with 6,685 and
//! breakthrough with 181; Hex, whose winner is a recursive path, is refused, and so is checkers,
//! whose tables would enumerate 140 million combinations in all
//! ([`EncodeOptions::max_total_tuples`]).
//!
//! # Exclusive fluents
//! For every fluent name, arity `n ≥ 1` and argument position `k`, the ground fluents that agree
//! on all arguments but the `k`-th are a candidate group: `(cell 1 1 x)`, `(cell 1 1 o)`,
//! `(cell 1 1 b)` make `(cell 1 1 ?)`. A candidate holding two fluents initially is dropped; one
//! holding one is *exactly one*, one holding none *at most one*. Assuming every surviving
//! candidate holds in a state, each candidate must hold after every joint move: the fluents its
//! `next` atoms read are assigned every way the assumption allows and tried with every joint move
//! those atoms can see; a successor that breaks the candidate counts only if its joint move can be
//! legal, which is checked the same way on the fluents its `legal` atoms read. A failing *exactly
//! one* candidate is retried as *at most one*, a failing *at most one* is dropped, and the
//! survivors are checked again until none fails. They hold initially and are preserved by every
//! legal joint move from every state where they hold: by induction they hold in every reachable
//! state. The check tries more states than are reachable (it is sound, not complete), and drops a
//! candidate whose check would enumerate more than about a million cases. Per fluent name, the
//! argument position whose survivors cover most fluents gives the variables.
//!
//! # Worked example: Matching Pennies
//! `games/matching_pennies.kif` (the paper's Example 1): alice and bob place a coin, then `random`
//! flips one. The analysis proves `(coin alice ?)`, `(coin bob ?)`, `(coin random ?)` *exactly
//! one* (each starts `unset`, and every move replaces a side by a side), and finds no group for
//! `control`, since alice and bob both start in control. The round is the paper's Figure 3:
//!
//! | variables | values |
//! |---|---|
//! | `terminal` | false, true |
//! | `(coin p ?)`, `(coin p ?)'` for p ∈ {alice, bob, random} | unset, tails, heads |
//! | `(control p)`, `(control p)'` | false, true |
//! | `does(alice)`, `does(bob)`, `does(random)` (chance) | noop, (choose tails), (choose heads) |
//!
//! | table | scope | tuples |
//! |---|---|---|
//! | `terminal` | the three coins, `terminal` | 27: true where no coin is unset |
//! | `legal(p)[0]` | `(control p)`, `does(p)` | (false, noop), (true, tails), (true, heads) |
//! | `next((coin p ?))` | `(coin p ?)`, `does(p)`, `(coin p ?)'` | 9: `noop` keeps the side, a choice sets it |
//! | `next((control random))` | `(control alice)`, `(control random)'` | random is in control after alice |
//! | `next((control p))`, p ∈ {alice, bob} | `(control p)'` | false: nothing gives control back |
//! | `goal(p)` | the three coins, `terminal` | 2 rows: all heads or all tails, reward 1/100 |
//!
//! 16 variables, largest domain 3, 12 tables. Once alice and bob have chosen, `(control random)`
//! holds and the chance variable is uniform over `(choose tails)` and `(choose heads)`.
//!
//! ```
//! use game_trait::RoundGame;
//! use gdl::{GdlRound, Loader};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/matching_pennies.kif");
//! let round = GdlRound::new(Loader::file(path).load()?)?;
//! assert_eq!(round.round().players, 2);
//! let stats = round.stats();
//! assert_eq!((stats.variables, stats.max_domain, stats.constraints), (16, 3, 12));
//! # Ok::<(), gdl::GdlError>(())
//! ```

mod gates;
mod groups;
mod probe;
mod tables;

use std::time::{Duration, Instant};

use game_trait::round::Round;
#[cfg(doc)]
use game_trait::round::VariableKind;
use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, RoundGame, Turn};

use crate::error::GdlError;
use crate::game::fluents::FluentSet;
use crate::game::{GdlGame, GdlMove};
use crate::network::Outputs;
use crate::reference::NO_MOVE;
use groups::Groups;
use probe::{Probe, StateVar};
use tables::{Actor, Encoder, Parts};

/// How [`GdlRound`] encodes a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// The most value combinations a table's scope may have (the encoder enumerates them all).
    /// Default 1,000,000.
    pub max_tuples: u64,
    /// The most value combinations all the tables together may enumerate, estimated from the
    /// cones before any is enumerated: a game past it is refused at once rather than after
    /// minutes of work. Default 20,000,000 (about 20 s).
    pub max_total_tuples: u64,
    /// The most tables (constraints) the round may have: encoding stops with an error as soon as
    /// it passes this many. Default: no limit.
    pub max_tables: usize,
    /// Whether state variables are multi-valued where the analysis of the [module docs](self#exclusive-fluents)
    /// proves a group of fluents exclusive (default), or one Boolean per fluent.
    pub groups: bool,
    /// Whether a table too large to enumerate is split through helper variables, as described in
    /// [Helper variables](self#helper-variables) (default), or refused.
    pub gates: bool,
}

impl Default for EncodeOptions {
    fn default() -> EncodeOptions {
        EncodeOptions {
            max_tuples: 1_000_000,
            max_total_tuples: 20_000_000,
            max_tables: usize::MAX,
            groups: true,
            gates: true,
        }
    }
}

/// The size of an encoding, as Table 2 of Koriche et al. reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundStats {
    /// Variables of one round (terminal, state, action, chance, next and helper variables).
    pub variables: usize,
    /// The largest domain.
    pub max_domain: usize,
    /// Tables (constraints).
    pub constraints: usize,
}

/// A [`GdlGame`] with its round: a [`RoundGame`] for the stochastic-CSP players (see the
/// [module docs](self)). It plays exactly as the game it wraps.
#[derive(Clone, Debug)]
pub struct GdlRound {
    game: GdlGame,
    round: Round,
    vars: Vec<StateVar>,
    /// Per player, the move ids of its action variable's values.
    moves: Vec<Vec<u32>>,
    /// The move ids of the chance variable's values.
    chance: Vec<u32>,
    time: Duration,
}

impl GdlRound {
    /// Encodes `game` with the default [`EncodeOptions`].
    pub fn new(game: GdlGame) -> Result<GdlRound, GdlError> {
        GdlRound::with_options(game, &EncodeOptions::default())
    }

    /// Encodes `game`. [`GdlError::Encoding`] says why a game cannot be encoded: it has no
    /// ground program (it is played by the reference reasoner), a player has no legal move in
    /// any state, or a table would pass [`EncodeOptions::max_tuples`].
    pub fn with_options(game: GdlGame, options: &EncodeOptions) -> Result<GdlRound, GdlError> {
        let start = Instant::now();
        let refuse = |why: &str| GdlError::Encoding(why.to_string());
        let net = game.network().ok_or_else(|| {
            refuse("the game has no ground program (it is played by the reference reasoner)")
        })?;
        let (kb, g) = game
            .ground_program()
            .ok_or_else(|| refuse("grounding the game again failed"))?;
        if (kb.fluents.len(), kb.moves.len()) != game.counts() {
            return Err(refuse(
                "grounding the game again found other fluents or moves",
            ));
        }
        let outputs = Outputs::new(&kb, &g, [&[], &[]]);
        let show = |t| kb.desc.terms.show(t);
        let boolean_name = |f: u32| show(kb.fluents[f as usize]);
        let vars: Vec<StateVar> = if options.groups {
            let init = game.initial_state();
            Groups::new(&kb, &outputs, &g, Probe::new(net), &init).variables(boolean_name)
        } else {
            (0..kb.fluents.len() as u32)
                .map(|f| StateVar::boolean(f, boolean_name(f)))
                .collect()
        };
        let actor = |role: usize, player: usize| {
            let mut moves: Vec<u32> = outputs.legal[role].iter().map(|&(_, m)| m).collect();
            moves.dedup();
            Actor {
                role,
                name: game.roles()[role].clone(),
                chance: Some(role) == game.random_role(),
                player,
                labels: moves.iter().map(|&m| show(kb.moves[m as usize])).collect(),
                moves,
            }
        };
        let mut actors: Vec<Actor> = (0..game.players())
            .map(|p| actor(game.role_of(p), p))
            .collect();
        actors.extend(game.random_role().map(|r| actor(r, 0)));
        if let Some(a) = actors.iter().find(|a| a.moves.is_empty()) {
            return Err(refuse(&format!(
                "`{}` has no legal move in any state",
                a.name
            )));
        }
        let atom_name = |slot: u32| show(g.atoms[slot as usize]);
        let parts = Parts {
            gates: options.gates,
            atom_name: &atom_name,
            g: &g,
            outputs,
            probe: Probe::new(net),
            vars: &vars,
            fluents: kb.fluents.len(),
            players: game.players(),
            max_tuples: options.max_tuples,
            max_total_tuples: options.max_total_tuples,
            max_tables: options.max_tables,
        };
        let round = Encoder::new(parts, &actors).encode(&actors)?;
        let mut moves: Vec<Vec<u32>> = actors.into_iter().map(|a| a.moves).collect();
        let chance = if game.random_role().is_some() {
            moves.pop().unwrap_or_default()
        } else {
            Vec::new()
        };
        Ok(GdlRound {
            game,
            round,
            vars,
            moves,
            chance,
            time: start.elapsed(),
        })
    }

    /// The game.
    pub fn game(&self) -> &GdlGame {
        &self.game
    }

    /// How long encoding took.
    pub fn encode_time(&self) -> Duration {
        self.time
    }

    /// The size of the encoding.
    pub fn stats(&self) -> RoundStats {
        let r = &self.round;
        RoundStats {
            variables: r.variables.len(),
            max_domain: r
                .variables
                .iter()
                .map(|v| v.values.len())
                .max()
                .unwrap_or(0),
            constraints: r.tables.len(),
        }
    }

    fn moves_of(&self, player: Option<PlayerId>) -> &[u32] {
        match player {
            Some(p) => self.moves.get(p).map_or(&[], Vec::as_slice),
            None => &self.chance,
        }
    }
}

impl RoundGame for GdlRound {
    fn round(&self) -> &Round {
        &self.round
    }

    /// A state outside the encoding's invariants (none can be reached by playing) gets the value
    /// one past the domain for a variable it gives no value.
    fn state_values(&self, state: &FluentSet, values: &mut Vec<u32>) {
        values.clear();
        values.extend(
            self.vars
                .iter()
                .map(|v| v.value_in(state).unwrap_or(v.values.len() as u32)),
        );
    }

    fn action(&self, player: Option<PlayerId>, value: u32) -> GdlMove {
        GdlMove(
            self.moves_of(player)
                .get(value as usize)
                .copied()
                .unwrap_or(NO_MOVE),
        )
    }

    /// A move the round does not know (no `legal` atom names it) gets the value one past the domain.
    fn action_value(&self, player: Option<PlayerId>, mv: GdlMove) -> u32 {
        let moves = self.moves_of(player);
        moves.binary_search(&mv.0).unwrap_or(moves.len()) as u32
    }
}

impl Game for GdlRound {
    type State = FluentSet;
    type Move = GdlMove;

    fn initial_state(&self) -> FluentSet {
        self.game.initial_state()
    }

    fn identity(&self) -> Option<u64> {
        self.game.identity()
    }

    fn apply(&self, state: &mut FluentSet, mv: GdlMove) -> Option<FluentSet> {
        self.game.apply(state, mv)
    }

    fn play(&self, state: &mut FluentSet, mv: GdlMove) {
        self.game.play(state, mv);
    }

    fn state_hash(&self, state: &FluentSet) -> Option<u64> {
        self.game.state_hash(state)
    }

    fn move_name(&self, state: &FluentSet, mv: GdlMove) -> String {
        self.game.move_name(state, mv)
    }
}

impl GeneralGame for GdlRound {
    fn players(&self) -> usize {
        self.game.players()
    }

    fn turn(&self, state: &FluentSet) -> Turn {
        self.game.turn(state)
    }

    fn legal_moves(&self, state: &FluentSet, player: PlayerId, moves: &mut MoveList<GdlMove>) {
        self.game.legal_moves(state, player, moves);
    }

    fn chance_outcomes(&self, state: &FluentSet, outcomes: &mut ChanceList<GdlMove>) {
        self.game.chance_outcomes(state, outcomes);
    }

    fn play_joint(&self, state: &mut FluentSet, joint: &[GdlMove]) {
        self.game.play_joint(state, joint);
    }

    fn payoff(&self, state: &FluentSet, player: PlayerId) -> f64 {
        self.game.payoff(state, player)
    }
}

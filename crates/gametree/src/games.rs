//! The built-in games by name ([`GameChoice`]), and a visitor that runs generic code on whichever
//! game a spec turns out to name ([`GameVisitor`]), as the `gametree` command line does.
//!
//! Rust has no generic closures, so code that must run on "the chosen game" implements
//! [`GameVisitor`]; [`GameChoice::visit`] calls it with the concrete game type, and everything
//! below is monomorphised for that game.
//!
//! ```
//! # #[cfg(feature = "othello")] {
//! use gametree::games::{GameChoice, GameVisitor, Registered};
//! use gametree::prelude::*;
//! use gametree::spec::Spec;
//!
//! struct BestMove(Spec);
//! impl GameVisitor for BestMove {
//!     type Output = Option<String>;
//!     fn visit<G: Registered>(self, game: &G, root: &G::State) -> Option<String> {
//!         let mut searcher = game.searcher(&self.0).ok()?.searcher;
//!         let result = searcher.search(game, root, &Limits::none());
//!         result.best_move.map(|m| game.move_name(root, m))
//!     }
//! }
//! let othello = GameChoice::parse("othello:moves=f5d6")?;
//! let best = othello.visit(BestMove("pvs:depth=4,eval=ev2,tt=1mb".parse()?));
//! assert!(best.is_some());
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

use game_trait::ZeroSumGame;

use crate::kit::{self, Built, Kit, SharedGeneralGame};
use crate::registry::{self, Needs};
use crate::spec::{Args, Spec, SpecError};

/// A game known by name: it builds searchers from specs and counts its tree.
pub trait Registered: SharedGeneralGame + Sized {
    /// The searcher `spec` names, for this game. The default offers the searchers that play every
    /// game (UCT); two-player zero-sum games build theirs from a [`Kit`].
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        kit::general_searcher(spec)
    }

    /// The number of leaves `depth` plies below `state` (perft). Games with a faster counter
    /// (Othello's bulk counting) override it.
    fn perft(&self, state: &Self::State, depth: u32) -> u64 {
        search_core::perft(self, state, depth)
    }
}

/// Generic code to run on a game chosen at run time.
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Runs on `game` from `root`.
    fn visit<G: Registered>(self, game: &G, root: &G::State) -> Self::Output;
    /// Runs on a two-player zero-sum game; defaults to [`visit`](Self::visit).
    fn visit_zero_sum<G: Registered + ZeroSumGame>(self, game: &G, root: &G::State) -> Self::Output
    where
        Self: Sized,
    {
        self.visit(game, root)
    }
}

/// A game selected by a spec (see the [registry] for every name and parameter),
/// with the position to start from.
#[derive(Debug, Clone)]
pub enum GameChoice {
    /// `othello[:moves=…]`.
    #[cfg(feature = "othello")]
    Othello(othello_bitboard::Position),
    /// `chess[:fen=…,moves=…]`.
    #[cfg(feature = "chess")]
    Chess(Box<gametree_chess::Position>),
    /// `random-tree:…`.
    #[cfg(feature = "random-tree")]
    RandomTree(random_tree::RandomTree),
    /// `tree:…`.
    Tree(search_core::tree::ExplicitTree),
    /// `nim:heap=…`.
    #[cfg(feature = "scsp")]
    Nim(scsp_mac_ucb::games::Nim),
    /// `pennies`.
    #[cfg(feature = "scsp")]
    Pennies(scsp_mac_ucb::games::CooperativePennies),
    /// `pig:target=…`.
    #[cfg(feature = "scsp")]
    Pig(scsp_mac_ucb::games::Pig),
    /// A GDL file: the general game and, when it is two-player, turn-taking and constant-sum, its
    /// zero-sum view.
    #[cfg(feature = "gdl")]
    Gdl(Box<GdlChoice>),
}

/// A GDL game and its zero-sum view, made when first asked for: telling whether the game is
/// two-player, turn-taking and constant-sum plays [`gdl::TurnTaking::DEFAULT_PLAYOUTS`] random
/// games, seconds on a description the reference reasoner plays (about 8 s for GGP Base's
/// chess), which a searcher of every game never needs.
#[cfg(feature = "gdl")]
#[derive(Debug, Clone)]
pub struct GdlChoice {
    game: gdl::GdlGame,
    zero_sum: std::sync::OnceLock<Option<gdl::TurnTaking>>,
}

#[cfg(feature = "gdl")]
impl GdlChoice {
    /// `game`, its zero-sum view not made yet.
    pub fn new(game: gdl::GdlGame) -> GdlChoice {
        GdlChoice {
            game,
            zero_sum: std::sync::OnceLock::new(),
        }
    }

    /// The general game.
    pub fn game(&self) -> &gdl::GdlGame {
        &self.game
    }

    /// The zero-sum view ([`gdl::TurnTaking::new`]), or `None` if the game is not two-player,
    /// turn-taking and constant-sum; made by the first call.
    pub fn zero_sum(&self) -> Option<&gdl::TurnTaking> {
        self.zero_sum
            .get_or_init(|| gdl::TurnTaking::new(self.game.clone()).ok())
            .as_ref()
    }
}

impl GameChoice {
    /// Parses a game spec: a built-in game's name with parameters, or a path to a game file.
    pub fn parse(text: &str) -> Result<GameChoice, SpecError> {
        if is_game_file(text) {
            return game_file(text);
        }
        GameChoice::built_in(text)
    }

    /// [`parse`](Self::parse), loading a game file within `limits` (e.g. to accept the unsafe
    /// variables of GGP Base rulesheets: [`gdl::UnsafeVariables`]).
    #[cfg(feature = "gdl")]
    pub fn parse_with(text: &str, limits: &gdl::Limits) -> Result<GameChoice, SpecError> {
        if is_game_file(text) {
            return gdl_file(text, limits);
        }
        GameChoice::built_in(text)
    }

    /// A built-in game's spec.
    fn built_in(text: &str) -> Result<GameChoice, SpecError> {
        let spec: Spec = text.parse()?;
        let entry = registry::game(spec.name())?;
        let mut args = Args::new(&spec, &[entry.params])?;
        Ok(match entry.name {
            #[cfg(feature = "othello")]
            "othello" => {
                let moves = args.text("moves");
                let start = othello_bitboard::Position::start();
                GameChoice::Othello(
                    start
                        .play_moves(&moves)
                        .map_err(|e| args.invalid("moves", e))?,
                )
            }
            #[cfg(feature = "chess")]
            "chess" => {
                let fen = args.text("fen");
                let mut position = match fen.trim() {
                    "" => gametree_chess::Position::start(),
                    fen => gametree_chess::Position::from_fen(fen)
                        .map_err(|e| args.invalid("fen", e))?,
                };
                let moves = args.text("moves");
                position
                    .play_line(&moves)
                    .map_err(|e| args.invalid("moves", e))?;
                GameChoice::Chess(Box::new(position))
            }
            #[cfg(feature = "random-tree")]
            "random-tree" => GameChoice::RandomTree(random_tree(&mut args)?),
            "tree" => GameChoice::Tree(search_core::tree::ExplicitTree::random(
                args.int("seed"),
                args.int("depth"),
                args.int("branching"),
            )),
            #[cfg(feature = "scsp")]
            "nim" => GameChoice::Nim(scsp_mac_ucb::games::Nim::new(args.int("heap"))),
            #[cfg(feature = "scsp")]
            "pennies" => GameChoice::Pennies(scsp_mac_ucb::games::CooperativePennies::new()),
            #[cfg(feature = "scsp")]
            "pig" => GameChoice::Pig(scsp_mac_ucb::games::Pig::new(args.int("target"))),
            other => unreachable!("`{other}` is in the registry but has no builder"),
        })
    }

    /// Runs `visitor` on the game from its start position: on its zero-sum form when it has one.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        use game_trait::Game;
        match self {
            #[cfg(feature = "othello")]
            GameChoice::Othello(root) => visitor.visit_zero_sum(&othello_bitboard::Othello, root),
            #[cfg(feature = "chess")]
            GameChoice::Chess(root) => visitor.visit_zero_sum(&gametree_chess::Chess, root),
            #[cfg(feature = "random-tree")]
            GameChoice::RandomTree(tree) => visitor.visit_zero_sum(tree, &tree.initial_state()),
            GameChoice::Tree(tree) => visitor.visit_zero_sum(tree, &tree.initial_state()),
            #[cfg(feature = "scsp")]
            GameChoice::Nim(nim) => visitor.visit(nim, &nim.initial_state()),
            #[cfg(feature = "scsp")]
            GameChoice::Pennies(pennies) => visitor.visit(pennies, &pennies.initial_state()),
            #[cfg(feature = "scsp")]
            GameChoice::Pig(pig) => visitor.visit(pig, &pig.initial_state()),
            #[cfg(feature = "gdl")]
            GameChoice::Gdl(gdl) => match gdl.zero_sum() {
                Some(two) => visitor.visit_zero_sum(two, &two.initial_state()),
                None => visitor.visit(gdl.game(), &gdl.game().initial_state()),
            },
        }
    }

    /// Runs `visitor` on the form of the game that suits the searcher `spec` names: a GDL game's
    /// general form for searchers that play every game (UCT then plays the goal values, not just
    /// win, draw or loss), otherwise as [`visit`](Self::visit).
    pub fn visit_for<V: GameVisitor>(&self, spec: &Spec, visitor: V) -> V::Output {
        let general = registry::searcher(spec.name()).is_ok_and(|s| s.needs != Needs::ZeroSum);
        if general {
            self.visit_general(visitor)
        } else {
            self.visit(visitor)
        }
    }

    /// Runs `visitor` on the general form of the game: GDL games as `n`-player games with
    /// simultaneous moves (perft counts joint moves), every other game as [`visit`](Self::visit).
    pub fn visit_general<V: GameVisitor>(&self, visitor: V) -> V::Output {
        match self {
            #[cfg(feature = "gdl")]
            GameChoice::Gdl(gdl) => {
                use game_trait::Game;
                visitor.visit(gdl.game(), &gdl.game().initial_state())
            }
            _ => self.visit(visitor),
        }
    }
}

/// Whether `text` names a game file rather than a built-in game: a game-file extension, or a path
/// without `:` parameters.
fn is_game_file(text: &str) -> bool {
    let extension = Path::new(text).extension().and_then(|e| e.to_str());
    matches!(extension, Some("kif" | "gdl" | "kif2" | "pl"))
        || (text.contains(std::path::MAIN_SEPARATOR) && !text.contains(':'))
}

#[cfg(feature = "gdl")]
fn game_file(path: &str) -> Result<GameChoice, SpecError> {
    gdl_file(path, &gdl::Limits::default())
}

#[cfg(feature = "gdl")]
fn gdl_file(path: &str, limits: &gdl::Limits) -> Result<GameChoice, SpecError> {
    let game = gdl::Loader::file(path)
        .limits(limits)
        .load()
        .map_err(|e| SpecError::Invalid {
            name: path.to_string(),
            message: e.headline(),
        })?;
    Ok(GameChoice::Gdl(Box::new(GdlChoice::new(game))))
}

#[cfg(not(feature = "gdl"))]
fn game_file(path: &str) -> Result<GameChoice, SpecError> {
    Err(SpecError::Invalid {
        name: path.to_string(),
        message: "game files need the `gdl` feature, which this build does not have".to_string(),
    })
}

/// `random-tree:b=…,max_b=…,branching=…,d=…,seed=…,lo=…,hi=…`: `b` is the exact branching factor
/// of a uniform tree or the mean of a random one; `max_b` asks for random branching from
/// `{1, …, max_b}` (with `b` too, it must be `2b − 1`). The branching mode, and `max_b` for random
/// branching, are recorded as used.
#[cfg(feature = "random-tree")]
fn random_tree(args: &mut Args) -> Result<random_tree::RandomTree, SpecError> {
    use random_tree::{Branching, ConfigError, RandomTree, RandomTreeConfig, MAX_RANDOM_MEAN};
    let b: Option<u16> = args.optional("b");
    let max_b: Option<u16> = args.optional("max_b");
    let mode: Option<String> = args.optional("branching");
    let random = match (mode.as_deref(), max_b) {
        (Some("uniform"), Some(_)) => {
            return Err(args.invalid("max_b", "max_b means random branching, not uniform"))
        }
        (Some(mode), _) => mode == "random",
        (None, max_b) => max_b.is_some(),
    };
    let branching = match (random, b, max_b) {
        (false, b, _) => Branching::Uniform(b.unwrap_or_else(|| args.int("b"))),
        (true, Some(b), Some(max)) if u32::from(max) != 2 * u32::from(b) - 1 => {
            let why = format!(
                "random branching with mean b={b} draws from 1..={}: give max_b={} or leave \
                 out b or max_b",
                2 * u32::from(b) - 1,
                2 * u32::from(b) - 1
            );
            return Err(args.invalid("max_b", why));
        }
        (true, _, Some(max)) => Branching::Random { max },
        (true, b, None) => {
            let b = b.unwrap_or_else(|| args.int("b"));
            if b > MAX_RANDOM_MEAN {
                let why = format!(
                    "random branching draws from 1..=2b − 1, which must be at most 65535: b is at \
                     most {MAX_RANDOM_MEAN}"
                );
                return Err(args.invalid("b", why));
            }
            Branching::random_with_mean(b)
        }
    };
    args.derived(
        "branching",
        (if random { "random" } else { "uniform" }).to_string(),
    );
    if let Branching::Random { max } = branching {
        args.derived("max_b", max);
    }
    let config = RandomTreeConfig {
        branching,
        depth: args.int("d"),
        min_edge: args.int("lo"),
        max_edge: args.int("hi"),
        seed: args.int("seed"),
    };
    RandomTree::new(config).map_err(|e| {
        let given = |key: &'static str| args.is_given(key).then_some(key);
        let key = match e {
            ConfigError::NoBranching => given("max_b").unwrap_or("b"),
            ConfigError::EmptyEdgeRange { .. } => given("lo").or(given("hi")).unwrap_or("lo"),
            ConfigError::CostOverflow { .. } => {
                given("d").or(given("lo")).or(given("hi")).unwrap_or("d")
            }
        };
        args.invalid(key, e)
    })
}

/// The games that describe their rounds take MAC-UCB and FC-UCB besides UCT.
#[cfg(feature = "scsp")]
macro_rules! round_games {
    ($($game:ty),*) => {$(
        impl Registered for $game {
            fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
                kit::round_searcher(spec)
            }
        }
    )*};
}

#[cfg(feature = "scsp")]
round_games!(
    scsp_mac_ucb::games::Nim,
    scsp_mac_ucb::games::CooperativePennies,
    scsp_mac_ucb::games::Pig
);

#[cfg(all(feature = "scsp", feature = "gdl"))]
round_games!(gdl::GdlRound);

impl Registered for search_core::tree::ExplicitTree {
    /// Node values are small integers: 10 is a clear advantage.
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        let kit = Kit::new(search_core::tree::LeafValue, 10).with_typical_moves(4);
        kit.build(self, spec)
    }
}

#[cfg(feature = "random-tree")]
impl Registered for random_tree::RandomTree {
    /// The paper's static evaluation (the node's cost), half the largest edge cost as the unit,
    /// the tree's exact edge-cost bounds for `fe`, and [`random_tree::EdgePlausibility`] (the
    /// static gain of the edge, with a similarity key) for `interest`.
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        let (l, u) = self.exact_edge_bounds();
        let typical = self.config().branching.mean().round() as u32;
        let unit = (u / 2).max(1);
        Kit::new(random_tree::NodeCost, unit)
            .with_plausibility(random_tree::EdgePlausibility::new(unit))
            .with_exact_edges(l, u)
            .with_typical_moves(typical)
            .build(self, spec)
    }
}

#[cfg(feature = "othello")]
impl Registered for othello_bitboard::Othello {
    /// `eval=ev1` (default) or `eval=ev2`, one corner (1000) as the unit, fastest-first ordering
    /// and Othello's plausibility for interest search, null moves with more than 14 empty squares.
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        use crate::registry::GameEntry;
        use othello_bitboard::{Ev1, Ev2, FastestFirst, NullMoves, OthelloPlausibility};
        let game = registry::game("othello")?;
        let searcher = registry::searcher(spec.name())?;
        // Searchers that do not evaluate take no `eval` (the kit refuses it): any will do.
        let eval = match searcher.evaluates {
            true => Args::new(spec, &[searcher.params, game.searcher_params])?.choice("eval"),
            false => "ev1",
        };
        fn kit<E: Clone>(
            eval: E,
            game: &GameEntry,
        ) -> Kit<E, FastestFirst, OthelloPlausibility, NullMoves> {
            Kit::new(eval, 1000)
                .with_ordering(FastestFirst::default())
                .with_plausibility(OthelloPlausibility::new())
                .with_selectivity(NullMoves::default())
                .with_searcher_params(game.searcher_params)
        }
        match eval {
            "ev2" => kit(Ev2, game).build(self, spec),
            _ => kit(Ev1, game).build(self, spec),
        }
    }

    /// Othello's own perft: bulk counting at the last ply, with run-time CPU dispatch.
    fn perft(&self, state: &othello_bitboard::Position, depth: u32) -> u64 {
        othello_bitboard::perft(state.board(), depth)
    }
}

#[cfg(feature = "chess")]
impl Registered for gametree_chess::Chess {
    /// PeSTO's evaluation with a pawn (100 centipawns) as the unit, MVV-LVA and static-exchange
    /// ordering, null moves out of check and king-and-pawn endings (`pvs:null=R`), Treebeard's
    /// plausibility for `interest`, 35 typical moves. `quiescence=on` adds the capture search at
    /// the horizon, `checks=N` the check extensions; both only to the searchers built on the α/β
    /// engine, and refused by the others.
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        use gametree_chess::{
            CaptureOrdering, Captures, ChessPlausibility, ChessSelectivity, Pesto,
        };
        let game = registry::game("chess")?;
        let searcher = registry::searcher(spec.name())?;
        let (quiescence, checks): (bool, u32) = match searcher.evaluates {
            true => {
                let mut args = Args::new(spec, &[searcher.params, game.searcher_params])?;
                (args.choice("quiescence") == "on", args.int("checks"))
            }
            false => (false, 0),
        };
        let refuse = |key: &str, takes: &[&str]| -> Result<(), SpecError> {
            match takes.contains(&searcher.name) {
                true => Ok(()),
                false => Err(SpecError::Invalid {
                    name: searcher.name.to_string(),
                    message: format!(
                        "{key} needs a searcher built on the α/β engine: {}",
                        takes.join(", ")
                    ),
                }),
            }
        };
        if quiescence {
            refuse(
                "quiescence=on",
                &["alphabeta", "pvs", "mtdf", "fe", "interest"],
            )?;
        }
        if checks > 0 {
            refuse("checks", &["alphabeta", "pvs", "mtdf", "fe"])?;
        }
        let kit = Kit::new(Pesto, 100)
            .with_ordering(CaptureOrdering)
            .with_plausibility(ChessPlausibility::new())
            .with_selectivity(ChessSelectivity::new(checks))
            .with_typical_moves(35)
            .with_searcher_params(game.searcher_params);
        match quiescence {
            true => kit.with_quiescence(Captures::default()).build(self, spec),
            false => kit.build(self, spec),
        }
    }

    /// The chess crate's perft, in the published counts' convention: a checkmate or stalemate
    /// before the last ply counts 0 and the draw rules are not applied (the generic perft counts a
    /// finished game as 1), so `gametree perft chess 6` is 119,060,324.
    fn perft(&self, state: &gametree_chess::Position, depth: u32) -> u64 {
        gametree_chess::perft(state.board(), depth)
    }
}

#[cfg(feature = "gdl")]
impl Registered for gdl::GdlGame {
    /// UCT; with the `scsp` feature also MAC-UCB and FC-UCB, which play the networks of the
    /// game's round encoding ([`gdl::GdlRound`], computed when the searcher is built) or those
    /// its rules give at each state, as their `networks` parameter says.
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        #[cfg(feature = "scsp")]
        if registry::searcher(spec.name())?.needs == Needs::Rounds {
            return on_round::searcher(self, spec);
        }
        kit::general_searcher(spec)
    }
}

/// MAC-UCB and FC-UCB for a GDL game: searchers of its round encoding ([`gdl::GdlRound`]) that
/// search the game itself (both have the same states and moves), or, where the encoder refuses
/// the game (recursive rules, goals over many fluents, tables too large) or its encoding is large
/// (`networks=auto`), searchers of the networks its rules give at each state
/// ([`scsp_mac_ucb::StateEncoding`]).
#[cfg(all(feature = "gdl", feature = "scsp"))]
mod on_round {
    use game_trait::{Limits, Reset, SearchResult, Searcher};
    use gdl::{FluentSet, GdlGame, GdlMove, GdlRound};
    use scsp_mac_ucb::MacUcb;

    use crate::kit::{self, Built, Networks};
    use crate::spec::{Spec, SpecError};

    /// `spec`'s round searcher on the networks its `networks` parameter asks for: `game`'s round
    /// encoding, or the networks its rules give at each state.
    pub(super) fn searcher(game: &GdlGame, spec: &Spec) -> Result<Built<GdlGame>, SpecError> {
        let (player, networks, full) = kit::mac_ucb_with_networks(spec)?;
        let round = match networks {
            Networks::State => None,
            Networks::Round => {
                Some(GdlRound::new(game.clone()).map_err(|e| SpecError::Invalid {
                    name: spec.name().to_string(),
                    message: format!("networks=round: {e}"),
                })?)
            }
            Networks::Auto => GdlRound::with_options(game.clone(), &Networks::auto_options()).ok(),
        };
        let searcher: Box<dyn Searcher<GdlGame>> = match round {
            Some(round) => prepared(round, player, networks, spec)?,
            None => Box::new(ByState { player }),
        };
        Ok(Built {
            searcher,
            spec: full,
            scale: game_trait::Scale::MEAN_PAYOFF,
        })
    }

    /// The player on `round`, its tables indexed now: once per game, before any clock runs, and
    /// at the round's final address, which the player recognises the game by. Left to the first
    /// search, the index would eat into its deadline, and on a game whose index takes longer than
    /// a move every search would stop before it was done. Tables the player cannot read are an
    /// error with `networks=round`; `auto` then plays the rules' networks.
    fn prepared(
        round: GdlRound,
        player: MacUcb,
        networks: Networks,
        spec: &Spec,
    ) -> Result<Box<dyn Searcher<GdlGame>>, SpecError> {
        let mut on_round = Box::new(OnRound { round, player });
        let OnRound { round, player } = &mut *on_round;
        match (player.prepare(round), networks) {
            (Ok(()), _) => Ok(on_round),
            (Err(e), Networks::Round) => Err(SpecError::Invalid {
                name: spec.name().to_string(),
                message: format!("networks=round: {e}"),
            }),
            (Err(_), _) => Ok(Box::new(ByState {
                player: on_round.player,
            })),
        }
    }

    /// The player on the game's round encoding.
    struct OnRound {
        round: GdlRound,
        player: MacUcb,
    }

    impl Reset for OnRound {
        fn reset(&mut self) {
            self.player.reset();
        }
    }

    impl Searcher<GdlGame> for OnRound {
        fn search(
            &mut self,
            _: &GdlGame,
            state: &FluentSet,
            limits: &Limits,
        ) -> SearchResult<GdlMove> {
            self.player.search(&self.round, state, limits)
        }
    }

    /// The player on the networks the rules give at each state.
    struct ByState {
        player: MacUcb,
    }

    impl Reset for ByState {
        fn reset(&mut self) {
            self.player.reset();
        }
    }

    impl Searcher<GdlGame> for ByState {
        fn search(
            &mut self,
            game: &GdlGame,
            state: &FluentSet,
            limits: &Limits,
        ) -> SearchResult<GdlMove> {
            self.player.analyse_by_state(game, state, limits).0
        }
    }
}

#[cfg(feature = "gdl")]
impl Registered for gdl::TurnTaking {
    /// The goal-based evaluation ([`gdl::GoalEvaluator`]): one goal point (1000) as the unit.
    fn searcher(&self, spec: &Spec) -> Result<Built<Self>, SpecError> {
        Kit::new(gdl::GoalEvaluator, 1000)
            .with_typical_moves(8)
            .build(self, spec)
    }
}

#[cfg(test)]
#[cfg(feature = "random-tree")]
mod tests {
    use super::*;
    use random_tree::Branching;

    /// The tree a `random-tree` spec builds, and the spec written out as used.
    fn tree(text: &str) -> Result<(Branching, String), SpecError> {
        let spec: Spec = text.parse()?;
        let mut args = Args::new(&spec, &[registry::game("random-tree")?.params])?;
        let tree = random_tree(&mut args)?;
        Ok((tree.config().branching, args.full_spec()))
    }

    /// The message of the error `text` gives.
    fn error(text: &str) -> String {
        tree(text).unwrap_err().to_string()
    }

    #[test]
    fn every_tree_error_names_its_own_parameter() {
        let err = error("random-tree:lo=5,hi=1");
        assert!(
            err.contains("lo=5: invalid random tree: empty edge-cost range"),
            "{err}"
        );
        let err = error("random-tree:hi=-40000");
        assert!(
            err.contains("hi=-40000: invalid random tree: empty"),
            "{err}"
        );
        let err = error("random-tree:d=5000");
        assert!(
            err.contains("d=5000: invalid random tree: node costs"),
            "{err}"
        );
        let err = error("random-tree:d=100,lo=-2000000");
        assert!(err.contains("d=100: "), "{err}");
    }

    #[test]
    fn random_branching_refuses_a_mean_it_cannot_represent() {
        let err = error("random-tree:b=65535,branching=random");
        assert!(err.contains("b=65535: random branching draws"), "{err}");
        assert_eq!(
            tree("random-tree:b=32768,branching=random").unwrap().0,
            Branching::Random { max: 65535 }
        );
        assert_eq!(
            tree("random-tree:b=65535").unwrap().0,
            Branching::Uniform(65535)
        );
    }

    #[test]
    fn max_b_asks_for_random_branching_and_agrees_with_b_or_is_refused() {
        let full = |text| tree(text).unwrap().1;
        assert_eq!(
            full("random-tree:b=4"),
            "random-tree:b=4,branching=uniform,d=10,seed=0,lo=-32767,hi=32768"
        );
        assert_eq!(
            full("random-tree:max_b=9,d=3"),
            "random-tree:max_b=9,branching=random,d=3,seed=0,lo=-32767,hi=32768"
        );
        assert_eq!(
            full("random-tree:b=3,branching=random,d=3"),
            "random-tree:b=3,max_b=5,branching=random,d=3,seed=0,lo=-32767,hi=32768"
        );
        assert_eq!(
            tree("random-tree:b=3,max_b=5").unwrap().0,
            Branching::Random { max: 5 }
        );
        let err = error("random-tree:b=3,max_b=6");
        assert!(
            err.contains("max_b=6: random branching with mean b=3 draws from 1..=5"),
            "{err}"
        );
        let err = error("random-tree:max_b=9,branching=uniform");
        assert!(
            err.contains("max_b=9: max_b means random branching"),
            "{err}"
        );
        // The old case-sensitive `B` is no longer a key: `B=5` for `b=5` cannot switch modes.
        assert!(matches!(
            tree("random-tree:B=5"),
            Err(SpecError::UnknownKey { .. })
        ));
    }
}

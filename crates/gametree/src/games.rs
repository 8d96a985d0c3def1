//! Games by name: which built-in game (or game file) a spec selects, and a visitor that runs generic
//! code on whichever game it turns out to be.
//!
//! | spec | game |
//! |---|---|
//! | `othello`, `othello:moves=f5d6c3` | Othello from the start, or after the given moves (`ps` passes) |
//! | `random-tree:b=5,d=6,seed=1` | a Korf–Pemberton–Zhang incremental random tree (keys: see [`random_tree::ACCEPTED_KEYS`]) |
//! | `tree:seed=1,depth=6,branching=4` | an explicit random tree with small integer leaf values |
//! | `path/to/game.kif` | a GDL game; two-player turn-taking zero-sum ones also get the negamax searchers |
//!
//! Rust has no generic closures, so code that must run on "the chosen game" implements
//! [`GameVisitor`]; [`GameChoice::visit`] calls it with the concrete game type, and everything
//! below is monomorphised for that game.

use std::path::Path;

use game_trait::{Evaluator, NoOrdering, Score, Searcher, ZeroSumGame};

use crate::registry::{zero_sum_searcher, Kit, Registered};
use crate::spec::{Spec, SpecError};

/// The names of the built-in games, for error messages.
pub const GAME_NAMES: &[&str] = &[
    #[cfg(feature = "othello")]
    "othello",
    #[cfg(feature = "random-tree")]
    "random-tree",
    "tree",
    #[cfg(feature = "gdl")]
    "<file>.kif",
];

/// Generic code to run on a game chosen at run time.
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Runs on a game that is not two-player zero-sum (only general searchers apply), from `root`.
    fn visit<G: Registered>(self, game: &G, root: &G::State) -> Self::Output;
    /// Runs on a two-player zero-sum game (every searcher applies). Defaults to [`visit`](Self::visit).
    fn visit_zero_sum<G: Registered + ZeroSumGame>(self, game: &G, root: &G::State) -> Self::Output
    where
        Self: Sized,
    {
        self.visit(game, root)
    }
}

/// A game selected by a spec, with the position to start from.
#[derive(Debug, Clone)]
pub enum GameChoice {
    /// `othello[:moves=...]`.
    #[cfg(feature = "othello")]
    Othello(othello_bitboard::Position),
    /// `random-tree:...`.
    #[cfg(feature = "random-tree")]
    RandomTree(random_tree::RandomTree),
    /// `tree:seed=S,depth=D,branching=B`.
    Tree(search_core::tree::ExplicitTree),
    /// A GDL file: the general game, and its two-player view when the game is turn-taking and
    /// constant-sum.
    #[cfg(feature = "gdl")]
    Gdl(Box<GdlChoice>),
}

/// A GDL game and, when it is turn-taking, two-player and constant-sum, its zero-sum view.
#[cfg(feature = "gdl")]
#[derive(Debug, Clone)]
pub struct GdlChoice {
    /// The general game (n players, simultaneous and chance moves).
    pub game: gdl::GdlGame,
    /// Its [`TurnTaking`](gdl::TurnTaking) view, if the game passes its checks.
    pub two_player: Option<gdl::TurnTaking>,
}

/// Why a game spec was rejected.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A malformed or unknown spec.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The game file could not be read or is not a valid game.
    #[cfg(feature = "gdl")]
    #[error(transparent)]
    Gdl(#[from] gdl::GdlError),
}

impl GameChoice {
    /// Parses a game spec: a built-in game's name with parameters, or a path to a game file.
    pub fn parse(text: &str) -> Result<GameChoice, GameError> {
        if is_game_file(text) {
            return game_file(text);
        }
        let mut spec: Spec = text.parse()?;
        let game = match spec.name() {
            #[cfg(feature = "othello")]
            "othello" => {
                let start = othello_bitboard::Position::start();
                let root = match spec.raw("moves") {
                    None => start,
                    Some(moves) => start
                        .play_moves(&moves)
                        .map_err(|e| spec.bad("moves", &moves, &e.to_string()))?,
                };
                GameChoice::Othello(root)
            }
            #[cfg(feature = "random-tree")]
            "random-tree" => {
                let config: random_tree::RandomTreeConfig =
                    text.parse().map_err(|e| SpecError::Malformed {
                        spec: text.to_string(),
                        message: format!("{e}"),
                    })?;
                let tree =
                    random_tree::RandomTree::new(config).map_err(|e| SpecError::Malformed {
                        spec: text.to_string(),
                        message: format!("{e}"),
                    })?;
                return Ok(GameChoice::RandomTree(tree));
            }
            "tree" => {
                let seed = spec.get("seed", 1u64)?;
                let depth = spec.get("depth", 6u32)?;
                let branching = spec.get("branching", 4u32)?;
                if depth > 12 {
                    return Err(spec.bad("depth", &depth.to_string(), "at most 12").into());
                }
                if !(1..=16).contains(&branching) {
                    return Err(spec
                        .bad("branching", &branching.to_string(), "from 1 to 16")
                        .into());
                }
                GameChoice::Tree(search_core::tree::ExplicitTree::random(
                    seed, depth, branching,
                ))
            }
            other => {
                return Err(SpecError::UnknownName {
                    kind: "game",
                    name: other.to_string(),
                    accepted: GAME_NAMES.join(", "),
                }
                .into())
            }
        };
        spec.finish()?;
        Ok(game)
    }

    /// Runs `visitor` on the chosen game from its start position.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        use game_trait::Game;
        match self {
            #[cfg(feature = "othello")]
            GameChoice::Othello(root) => visitor.visit_zero_sum(&othello_bitboard::Othello, root),
            #[cfg(feature = "random-tree")]
            GameChoice::RandomTree(tree) => visitor.visit_zero_sum(tree, &tree.initial_state()),
            GameChoice::Tree(tree) => visitor.visit_zero_sum(tree, &tree.initial_state()),
            #[cfg(feature = "gdl")]
            GameChoice::Gdl(choice) => match &choice.two_player {
                Some(two) => visitor.visit_zero_sum(two, &two.initial_state()),
                None => visitor.visit(&choice.game, &choice.game.initial_state()),
            },
        }
    }

    /// Runs `visitor` on the general form of the game: GDL games as n-player simultaneous games
    /// (perft counts joint moves), every other game as [`visit`](Self::visit) does.
    pub fn visit_general<V: GameVisitor>(&self, visitor: V) -> V::Output {
        match self {
            #[cfg(feature = "gdl")]
            GameChoice::Gdl(choice) => {
                use game_trait::Game;
                visitor.visit(&choice.game, &choice.game.initial_state())
            }
            _ => self.visit(visitor),
        }
    }
}

/// Whether `text` names a game file rather than a built-in game: it has no `:` parameters and
/// either exists or ends in a game-file extension.
fn is_game_file(text: &str) -> bool {
    let path = Path::new(text);
    let has_extension = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("kif" | "gdl" | "kif2" | "pl")
    );
    has_extension || (text.contains(std::path::MAIN_SEPARATOR) && !text.contains(':'))
}

#[cfg(feature = "gdl")]
fn game_file(path: &str) -> Result<GameChoice, GameError> {
    let game = gdl::GdlGame::from_file(path)?;
    let two_player = gdl::TurnTaking::new(game.clone()).ok();
    Ok(GameChoice::Gdl(Box::new(GdlChoice { game, two_player })))
}

#[cfg(not(feature = "gdl"))]
fn game_file(path: &str) -> Result<GameChoice, GameError> {
    Err(SpecError::Malformed {
        spec: path.to_string(),
        message: "game files need the `gdl` feature, which this build does not have".to_string(),
    }
    .into())
}

/// The plausibility of games without a hand-written one: a move's interest from its static gain
/// ([`StaticGain`](interest_search::StaticGain)).
#[cfg(feature = "interest-search")]
type GainOf<E> = interest_search::StaticGain<E>;
/// Without the `interest-search` feature no searcher reads a plausibility.
#[cfg(not(feature = "interest-search"))]
type GainOf<E> = EvenInterest<E>;

/// Every move equally interesting (stands in for [`GainOf`] in builds without interest search).
#[cfg(not(feature = "interest-search"))]
#[derive(Clone, Debug)]
pub struct EvenInterest<E>(std::marker::PhantomData<E>);

#[cfg(not(feature = "interest-search"))]
impl<G: game_trait::Game, E: 'static> game_trait::Plausibility<G> for EvenInterest<E> {
    fn interest(&mut self, _: &G, _: &G::State, _: G::Move) -> u32 {
        1
    }
}

/// The kit of a game without a hand-written ordering or plausibility: no ordering hook, and the
/// interest of a move from its static gain, `unit` evaluation points being worth +100 interest.
#[allow(unused_variables)]
fn kit<E: Clone>(eval: E, unit: Score, typical_moves: u32) -> Kit<E, NoOrdering, GainOf<E>> {
    Kit {
        #[cfg(feature = "interest-search")]
        plausibility: interest_search::StaticGain::new(eval.clone(), unit),
        #[cfg(not(feature = "interest-search"))]
        plausibility: EvenInterest(std::marker::PhantomData),
        eval,
        ordering: NoOrdering,
        exact_edges: None,
        typical_moves,
    }
}

impl Registered for search_core::tree::ExplicitTree {
    fn searcher(&self, spec: &mut Spec) -> Result<Box<dyn Searcher<Self>>, SpecError> {
        zero_sum_searcher(self, spec, kit(search_core::tree::LeafValue, 10, 4))
    }
}

#[cfg(feature = "random-tree")]
impl Registered for random_tree::RandomTree {
    /// Every zero-sum searcher with the paper's static evaluation (the node's cost) and the tree's
    /// exact edge-cost bounds for `fe`.
    fn searcher(&self, spec: &mut Spec) -> Result<Box<dyn Searcher<Self>>, SpecError> {
        let (l, u) = self.exact_edge_bounds();
        let typical = self.config().branching.mean().round().max(1.0) as u32;
        let kit = Kit {
            exact_edges: Some((l, u)),
            ..kit(random_tree::NodeCost, (u / 2).max(1), typical)
        };
        zero_sum_searcher(self, spec, kit)
    }
}

#[cfg(feature = "othello")]
impl Registered for othello_bitboard::Othello {
    /// Every zero-sum searcher with `eval=ev1` (default) or `eval=ev2`, fastest-first ordering and
    /// Othello's plausibility for interest search.
    fn searcher(&self, spec: &mut Spec) -> Result<Box<dyn Searcher<Self>>, SpecError> {
        use othello_bitboard::{Ev1, Ev2, FastestFirst, OthelloPlausibility};
        fn with<E>(
            game: &othello_bitboard::Othello,
            spec: &mut Spec,
            eval: E,
        ) -> SearcherResult<othello_bitboard::Othello>
        where
            E: Evaluator<othello_bitboard::Othello> + Clone + 'static,
        {
            let kit = Kit {
                eval,
                ordering: FastestFirst::default(),
                plausibility: OthelloPlausibility::new(),
                exact_edges: None,
                typical_moves: 10,
            };
            zero_sum_searcher(game, spec, kit)
        }
        match spec.raw("eval").as_deref() {
            None | Some("ev1") => with(self, spec, Ev1),
            Some("ev2") => with(self, spec, Ev2),
            Some(other) => Err(spec.bad("eval", other, "expected `ev1` or `ev2`")),
        }
    }

    /// Othello's own perft: bulk counting at the last ply, with run-time CPU dispatch.
    fn perft(&self, state: &othello_bitboard::Position, depth: u32) -> u64 {
        othello_bitboard::perft(state.board(), depth)
    }
}

#[cfg(feature = "gdl")]
impl Registered for gdl::GdlGame {}

#[cfg(feature = "gdl")]
impl Registered for gdl::TurnTaking {
    /// Every zero-sum searcher with the goal-based evaluation ([`gdl::GoalEvaluator`]).
    fn searcher(&self, spec: &mut Spec) -> Result<Box<dyn Searcher<Self>>, SpecError> {
        zero_sum_searcher(self, spec, kit(gdl::GoalEvaluator, 1000, 8))
    }
}

type SearcherResult<G> = Result<Box<dyn Searcher<G>>, SpecError>;

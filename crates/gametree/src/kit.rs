//! [`Kit`]: what a game brings to the searchers (its evaluation, a move ordering, a plausibility,
//! the scale of its values), and every searcher of the [registry] built from a
//! spec for it.
//!
//! ```
//! use gametree::kit::Kit;
//! use gametree::prelude::*;
//! use gametree::search::{ExplicitTree, LeafValue};
//!
//! let tree = ExplicitTree::random(3, 5, 3); // seed, depth, branching
//! // Leaf values are small integers: a difference of 10 is a clear advantage.
//! let kit = Kit::new(LeafValue, 10).with_typical_moves(3);
//! let mut pvs = kit.searcher(&tree, "pvs:depth=5,tt=1mb")?;
//! let mut minimax = kit.searcher(&tree, "minimax:depth=5")?;
//! let root = tree.initial_state();
//! assert_eq!(
//!     pvs.search(&tree, &root, &Limits::none()).value,
//!     minimax.search(&tree, &root, &Limits::none()).value,
//! );
//! // Every parameter with the value it took, defaults included:
//! let built = kit.build(&tree, &"pvs:depth=5".parse()?)?;
//! assert_eq!(built.spec, "pvs:depth=5,tt=64mb,cutoff=ge,aspiration=0,countermoves=false,lmr=0,null=0,singular=0,threads=1");
//! # Ok::<(), gametree::spec::SpecError>(())
//! ```

use game_trait::{
    Cutoff, DepthHorizon, Evaluator, Game, GeneralGame, Limits, MoveOrdering, NoOrdering,
    NoPruning, NoQuiescence, NoSelectivity, Plausibility, Quiescence, Reading, Reset, Scale, Score,
    SearchResult, Searcher, Selectivity, StaticGain, ZeroSumGame,
};
use search_core::uct::PlayoutPolicy;
use search_core::{
    AlphaBeta, AlphaBetaConfig, LateMoveReduction, Minimax, NullMovePruning, SharedHooks,
    SingularExtension, Uct, UctConfig,
};

use crate::registry::{self, Needs};
use crate::spec::{Args, Param, Spec, SpecError};

/// What a two-player zero-sum game brings to its searchers. Build one with [`Kit::new`], add what
/// you have, then ask for searchers by spec ([`Kit::searcher`]).
///
/// | part | default | read by |
/// |---|---|---|
/// | evaluation | (required) | every searcher but `uct` |
/// | unit: an evaluation difference that is one clear advantage (a pawn, a corner) | (required) | `caev` (RANGE = unit, STEP = the largest divisor of RANGE up to RANGE / 20, at least 1: `CaevConfig::for_unit`), the default plausibility (+100 interest per unit gained), the reading of values ([`Built::scale`]) |
/// | move ordering | none ([`NoOrdering`]) | `alphabeta`, `pvs`, `fe` |
/// | selectivity: null moves, extensions | none ([`NoSelectivity`]) | `alphabeta`, `pvs` (null moves with `null=R`), `mtdf`, `fe` |
/// | quiescence: the moves searched below the horizon | none ([`NoQuiescence`]) | `alphabeta`, `pvs`, `mtdf`, `fe`, `interest` |
/// | plausibility | [`StaticGain`] of the evaluation | `interest` |
/// | exact edge-cost bounds | unknown | `fe:bounds=exact` (the default when known) |
/// | typical number of legal moves | 10 | `interest` (limit step = 100 per move) |
#[derive(Clone, Debug)]
pub struct Kit<E, O = NoOrdering, Pl = StaticGain<E>, S = NoSelectivity, Q = NoQuiescence> {
    eval: E,
    ordering: O,
    plausibility: Pl,
    selectivity: S,
    quiescence: Q,
    unit: Score,
    exact_edges: Option<(Score, Score)>,
    typical_moves: u32,
    searcher_params: &'static [Param],
}

/// A two-player zero-sum game whose searchers may run on several threads (`pvs:threads=N`,
/// `uct:threads=N`): the threads share the game and its states, and send moves back. Every game
/// whose types are thread-safe is one (a blanket implementation).
pub trait SharedGame: ZeroSumGame<State: Send + Sync, Move: Send> + Sync + 'static {}

impl<G> SharedGame for G where G: ZeroSumGame<State: Send + Sync, Move: Send> + Sync + 'static {}

/// [`SharedGame`] for any game: what `uct:threads=N` needs.
pub trait SharedGeneralGame: GeneralGame<State: Send + Sync, Move: Send> + Sync + 'static {}

impl<G> SharedGeneralGame for G where G: GeneralGame<State: Send + Sync, Move: Send> + Sync + 'static
{}

/// The α/β engine the kit builds for `alphabeta`, `pvs` and `fe`.
type Engine<E, O, S, Q> = AlphaBeta<E, NoPruning, DepthHorizon, O, Q, S>;

/// A searcher built from a spec, the spec written out with every parameter as used, and the scale
/// of the searcher's values.
pub struct Built<G: Game> {
    /// The searcher.
    pub searcher: Box<dyn Searcher<G>>,
    /// The spec with every parameter it read, defaults included: `pvs:depth=6,tt=64mb,…`.
    pub spec: String,
    /// The scale of the searcher's values: the kit's evaluation with its unit, or a mean payoff
    /// (UCT, MAC-UCB). [`Built::read`] says what a value means.
    pub scale: Scale,
}

impl<G: Game> Built<G> {
    /// What `result`'s value says about the game, on this searcher's scale: "win by 100",
    /// "ahead by 1.50 units", "expected payoff 0.543" (see [`Scale`]). Its bound still says
    /// whether that is exact, at least, at most, or an estimate.
    ///
    /// ```
    /// use gametree::kit::Kit;
    /// use gametree::prelude::*;
    /// use gametree::search::{ExplicitTree, LeafValue};
    ///
    /// let tree = ExplicitTree::random(3, 4, 3);
    /// let kit = Kit::new(LeafValue, 10);
    /// let mut uct = kit.build(&tree, &"uct:sims=500".parse()?)?;
    /// let result = uct.searcher.search(&tree, &0, &Limits::none());
    /// assert!(uct.read(&result).to_string().starts_with("expected payoff"));
    /// # Ok::<(), gametree::spec::SpecError>(())
    /// ```
    pub fn read(&self, result: &SearchResult<G::Move>) -> Reading {
        self.scale.read(result.value)
    }
}

impl<E: Clone> Kit<E> {
    /// A kit with evaluation `eval`, whose `unit` (at least 1) is an evaluation difference that
    /// counts as one clear advantage: it scales the defaults that depend on the evaluation.
    pub fn new(eval: E, unit: Score) -> Kit<E> {
        let unit = unit.max(1);
        Kit {
            plausibility: StaticGain::new(eval.clone(), unit),
            eval,
            ordering: NoOrdering,
            selectivity: NoSelectivity,
            quiescence: NoQuiescence,
            unit,
            exact_edges: None,
            typical_moves: 10,
            searcher_params: &[],
        }
    }
}

impl<E, O, Pl, S, Q> Kit<E, O, Pl, S, Q> {
    /// Orders the moves of `alphabeta`, `pvs` and `fe` (after the table move and killers).
    pub fn with_ordering<O2>(self, ordering: O2) -> Kit<E, O2, Pl, S, Q> {
        Kit {
            eval: self.eval,
            ordering,
            plausibility: self.plausibility,
            selectivity: self.selectivity,
            quiescence: self.quiescence,
            unit: self.unit,
            exact_edges: self.exact_edges,
            typical_moves: self.typical_moves,
            searcher_params: self.searcher_params,
        }
    }

    /// The interest of moves for `interest`, instead of the evaluation's static gain.
    pub fn with_plausibility<Pl2>(self, plausibility: Pl2) -> Kit<E, O, Pl2, S, Q> {
        Kit {
            eval: self.eval,
            ordering: self.ordering,
            plausibility,
            selectivity: self.selectivity,
            quiescence: self.quiescence,
            unit: self.unit,
            exact_edges: self.exact_edges,
            typical_moves: self.typical_moves,
            searcher_params: self.searcher_params,
        }
    }

    /// The game's null moves and extensions for `alphabeta`, `pvs`, `mtdf` and `fe` (see
    /// [`Selectivity`]): extensions apply wherever the hook declares them (the values of those
    /// searchers, `mtdf` included, are then those of the extended tree); null moves where the
    /// spec asks for them (`pvs:null=R`).
    pub fn with_selectivity<S2>(self, selectivity: S2) -> Kit<E, O, Pl, S2, Q> {
        Kit {
            eval: self.eval,
            ordering: self.ordering,
            plausibility: self.plausibility,
            selectivity,
            quiescence: self.quiescence,
            unit: self.unit,
            exact_edges: self.exact_edges,
            typical_moves: self.typical_moves,
            searcher_params: self.searcher_params,
        }
    }

    /// The game's quiescence hook for `alphabeta`, `pvs`, `mtdf`, `fe` and `interest` (see
    /// [`Quiescence`]): their horizon leaves are then valued by a search of the moves it calls
    /// noisy (captures, in chess), and their values are no longer those of a fixed depth.
    pub fn with_quiescence<Q2>(self, quiescence: Q2) -> Kit<E, O, Pl, S, Q2> {
        Kit {
            eval: self.eval,
            ordering: self.ordering,
            plausibility: self.plausibility,
            selectivity: self.selectivity,
            quiescence,
            unit: self.unit,
            exact_edges: self.exact_edges,
            typical_moves: self.typical_moves,
            searcher_params: self.searcher_params,
        }
    }

    /// The exact smallest and largest change of the evaluation along one move (MAX's view), for
    /// forward estimation.
    pub fn with_exact_edges(self, lowest: Score, highest: Score) -> Self {
        Kit {
            exact_edges: Some((lowest, highest)),
            ..self
        }
    }

    /// The typical number of legal moves (at least 1), which scales interest search's limit step.
    pub fn with_typical_moves(self, moves: u32) -> Self {
        Kit {
            typical_moves: moves.max(1),
            ..self
        }
    }

    /// Parameters the game adds to the spec of every searcher that evaluates, read by the game
    /// itself before it built this kit (Othello's `eval`): accepted, and written out in
    /// [`Built::spec`]. Searchers that do not evaluate (`uct`) refuse them as unknown.
    pub fn with_searcher_params(self, params: &'static [Param]) -> Self {
        Kit {
            searcher_params: params,
            ..self
        }
    }
}

impl<E, O, Pl, S, Q> Kit<E, O, Pl, S, Q>
where
    E: Clone + Send + 'static,
    O: Clone + Send + 'static,
    Pl: Clone + 'static,
    S: Clone + Send + 'static,
    Q: Clone + Send + 'static,
{
    /// The searcher `spec` names (see the [registry] for every name and
    /// parameter), for `game`.
    pub fn searcher<G>(&self, game: &G, spec: &str) -> Result<Box<dyn Searcher<G>>, SpecError>
    where
        G: SharedGame,
        E: Evaluator<G>,
        O: MoveOrdering<G>,
        S: Selectivity<G>,
        Q: Quiescence<G>,
        Pl: Plausibility<G>,
    {
        Ok(self.build(game, &spec.parse()?)?.searcher)
    }

    /// [`searcher`](Kit::searcher) from a parsed spec, with the spec written out in full.
    pub fn build<G>(&self, game: &G, spec: &Spec) -> Result<Built<G>, SpecError>
    where
        G: SharedGame,
        E: Evaluator<G>,
        O: MoveOrdering<G>,
        S: Selectivity<G>,
        Q: Quiescence<G>,
        Pl: Plausibility<G>,
    {
        let entry = registry::searcher(spec.name())?;
        if entry.needs == Needs::Rounds {
            return Err(refused(entry, &[Needs::ZeroSum, Needs::General]));
        }
        // The game's evaluation parameters, only for searchers that evaluate.
        let game_params = if entry.evaluates {
            self.searcher_params
        } else {
            &[]
        };
        let mut args = Args::new(spec, &[entry.params, game_params])?;
        for param in game_params {
            args.text(param.key);
        }
        let searcher: Box<dyn Searcher<G>> = match entry.name {
            "minimax" => Box::new(Minimax::new(self.eval.clone(), args.int("depth"))),
            "alphabeta" => Box::new(self.alpha_beta(&mut args, AlphaBetaConfig::alpha_beta(0))?),
            "pvs" => {
                let mut engine = self.alpha_beta(&mut args, AlphaBetaConfig::pvs(0))?;
                let width: Score = args.int("aspiration");
                engine.config_mut().aspiration = (width > 0).then_some(width);
                engine.config_mut().countermoves = args.flag("countermoves");
                let plies: u32 = args.int("lmr");
                engine.config_mut().late_move_reduction =
                    (plies > 0).then_some(LateMoveReduction {
                        plies,
                        ..LateMoveReduction::default()
                    });
                engine.config_mut().null_move = self.null_move::<G>(&mut args)?;
                let margin: Score = args.int("singular");
                engine.config_mut().singular_extension =
                    (margin > 0).then_some(SingularExtension {
                        margin,
                        ..SingularExtension::default()
                    });
                on_threads(engine, args.int("threads"))
            }
            "mtdf" => Box::new(self.mtdf(&mut args)?),
            #[cfg(feature = "forward-estimation")]
            "fe" => self.forward_estimation(game, &mut args)?,
            #[cfg(feature = "interest-search")]
            "interest" => self.interest(&mut args)?,
            #[cfg(feature = "conspiracy")]
            "caev" => self.caev(&mut args)?,
            #[cfg(feature = "conspiracy")]
            "cns" => self.cns(&mut args)?,
            "uct" => uct(&mut args)?,
            other => unreachable!("`{other}` is in the registry but has no builder"),
        };
        // Only `fe` reads the game (to sample games for its off-line bounds); a build without
        // forward estimation has no other use for it.
        #[cfg(not(feature = "forward-estimation"))]
        let _ = game;
        // UCT's values are mean payoffs; every other searcher's are the kit's evaluation.
        let scale = match entry.needs {
            Needs::General => Scale::MEAN_PAYOFF,
            _ => Scale::Evaluation { unit: self.unit },
        };
        Ok(Built {
            searcher,
            spec: args.full_spec(),
            scale,
        })
    }

    /// The α/β engine with `depth`, `tt` and `cutoff` read on top of `config`, and the kit's
    /// evaluation and ordering; its table is allocated now, so that a size the machine cannot
    /// provide is an error of the spec.
    fn alpha_beta(
        &self,
        args: &mut Args,
        config: AlphaBetaConfig,
    ) -> Result<Engine<E, O, S, Q>, SpecError> {
        let config = AlphaBetaConfig {
            depth: args.int("depth"),
            tt_bytes: args.size("tt"),
            cutoff: match args.choice("cutoff") {
                "gt" => Cutoff::AboveBeta,
                _ => Cutoff::AtLeastBeta,
            },
            ..config
        };
        let mut engine = AlphaBeta::new(self.eval.clone())
            .with_config(config)
            .with_ordering(self.ordering.clone())
            .with_selectivity(self.selectivity.clone())
            .with_quiescence(self.quiescence.clone());
        engine.allocate_table().map_err(|e| args.invalid("tt", e))?;
        Ok(engine)
    }

    /// `null=R`: null-move pruning with reduction `R`, if the game offers null moves.
    fn null_move<G>(&self, args: &mut Args) -> Result<Option<NullMovePruning>, SpecError>
    where
        G: ZeroSumGame,
        S: Selectivity<G>,
    {
        let reduction: u32 = args.int("null");
        if reduction > 0 && !S::NULL_MOVES {
            return Err(args.invalid("null", "this game offers no null move"));
        }
        Ok((reduction > 0).then_some(NullMovePruning {
            reduction,
            ..NullMovePruning::default()
        }))
    }

    /// `mtdf`: MTD(f) over the engine of `pvs` (table, killers, history, iterative deepening);
    /// no `cutoff` parameter, since its probes read their bounds under `≥ β`.
    fn mtdf(
        &self,
        args: &mut Args,
    ) -> Result<search_core::Mtdf<E, NoPruning, DepthHorizon, O, Q, S>, SpecError> {
        let config = AlphaBetaConfig {
            tt_bytes: args.size("tt"),
            ..AlphaBetaConfig::pvs(args.int("depth"))
        };
        let mut engine = AlphaBeta::new(self.eval.clone())
            .with_config(config)
            .with_ordering(self.ordering.clone())
            .with_selectivity(self.selectivity.clone())
            .with_quiescence(self.quiescence.clone());
        engine.allocate_table().map_err(|e| args.invalid("tt", e))?;
        Ok(search_core::Mtdf::new(engine).with_first_guess(args.int("guess")))
    }

    /// `fe`: α/β pruned by Zhang's forward estimation.
    #[cfg(feature = "forward-estimation")]
    fn forward_estimation<G>(
        &self,
        game: &G,
        args: &mut Args,
    ) -> Result<Box<dyn Searcher<G>>, SpecError>
    where
        G: SharedGame,
        E: Evaluator<G>,
        O: MoveOrdering<G>,
        S: Selectivity<G>,
        Q: Quiescence<G>,
    {
        use forward_estimation::{learn_offline, EdgeBounds, ForwardEstimation, Reading};
        let engine = self.alpha_beta(args, AlphaBetaConfig::alpha_beta(0))?;
        let known = if self.exact_edges.is_some() {
            "exact"
        } else {
            "offline"
        };
        let bounds = match args.derived("bounds", known.to_string()).as_str() {
            "exact" => match self.exact_edges {
                Some((l, u)) => EdgeBounds::Exact { l, u },
                None => {
                    let why = "this game does not know its exact edge costs; use offline or online";
                    return Err(args.invalid("bounds", why));
                }
            },
            "online" => EdgeBounds::Online,
            likely_or_offline => {
                let (samples, seed): (usize, u64) = (args.int("samples"), args.int("seed"));
                let learned = learn_offline(game, &mut self.eval.clone(), samples, seed)
                    .map_err(|e| args.invalid("samples", e))?;
                match likely_or_offline {
                    "likely" => learned.likely_bounds(),
                    _ => learned.bounds(),
                }
            }
        };
        let pruning = ForwardEstimation::new(bounds)
            .with_delta(args.real("delta"))
            .map_err(|e| args.invalid("delta", e))?
            .with_reading(match args.choice("reading") {
                "node-cut" => Reading::NodeCut,
                _ => Reading::Literal,
            });
        Ok(Box::new(engine.with_pruning(pruning)))
    }

    /// `interest`: iterative-deepening PVS whose horizon is Rollason's interest budget; the engine
    /// runs without the history heuristic, which would break the increasing-cost order (see the
    /// interest-search crate docs).
    #[cfg(feature = "interest-search")]
    fn interest<G>(&self, args: &mut Args) -> Result<Box<dyn Searcher<G>>, SpecError>
    where
        G: SharedGame,
        E: Evaluator<G>,
        Pl: Plausibility<G>,
        Q: Quiescence<G>,
    {
        use interest_search::{HintBonuses, InterestConfig, LimitSplit};
        let config = InterestConfig {
            limit_step: args.derived("limit_step", 100 * self.typical_moves),
            scale: args.int("scale"),
            sibling_percent: args.int("sibling_percent"),
            similar_percent: args.int("similar_percent"),
            separate_parities: args.choice("parities") == "separate",
            inherit_siblings: args.flag("inherit_siblings"),
            limits: match args.choice("limits") {
                "alternate" => LimitSplit::Alternate,
                _ => LimitSplit::Whole,
            },
            bonuses: match args.choice("bonuses") {
                "none" => HintBonuses::NONE,
                _ => HintBonuses::TREEBEARD,
            },
            beyond_depth_percent: args.int("beyond_depth_percent"),
        };
        let engine = AlphaBetaConfig {
            tt_bytes: args.size("tt"),
            history: false,
            ..AlphaBetaConfig::pvs(args.int("iterations"))
        };
        let (horizon, ordering) = interest_search::hooks(config, self.plausibility.clone());
        let mut engine = AlphaBeta::new(self.eval.clone())
            .with_config(engine)
            .with_horizon(horizon)
            .with_ordering(ordering)
            .with_quiescence(self.quiescence.clone());
        engine.allocate_table().map_err(|e| args.invalid("tt", e))?;
        Ok(Box::new(engine))
    }

    /// `caev`: the CN(x, y) player. CN(0, y) is plain α/β of depth y, CN(x, 0) values the layer's
    /// leaves statically, otherwise the leaves are valued by a depth-y α/β.
    #[cfg(feature = "conspiracy")]
    fn caev<G>(&self, args: &mut Args) -> Result<Box<dyn Searcher<G>>, SpecError>
    where
        G: SharedGame,
        E: Evaluator<G>,
    {
        use conspiracy::ConspiracyError;
        use conspiracy::{CaevConfig, CaevPlayer};
        let (x, y): (u32, u32) = (args.int("cn"), args.int("ab"));
        if (x, y) == (0, 0) {
            let why = "CN(0, 0) would search nothing and name no move: with cn=0, ab is at least 1";
            return Err(args.invalid("ab", why));
        }
        // As `CaevConfig::for_unit`: the paper's RANGE = 1000, STEP = 50 for Othello's EV1,
        // whose unit is 1000.
        let range: i64 = args.derived("range", i64::from(self.unit));
        let step: i64 = args.derived("step", CaevConfig::step_for(range));
        // Blame the parameter the user gave: a derived step always divides the range.
        let culprit = |e: &ConspiracyError| match e {
            ConspiracyError::NonPositive { parameter, .. }
            | ConspiracyError::TooLarge { parameter, .. } => *parameter,
            _ if args.is_given("step") => "step",
            _ => "range",
        };
        let caev = CaevConfig::new(range, step).map_err(|e| args.invalid(culprit(&e), e))?;
        let alpha_beta =
            AlphaBeta::new(self.eval.clone()).with_config(AlphaBetaConfig::alpha_beta(y));
        let layer = |e: conspiracy::ConspiracyError| args.invalid("cn", e);
        Ok(match (x, y) {
            (0, _) => Box::new(alpha_beta),
            (_, 0) => Box::new(
                CaevPlayer::new(self.eval.clone(), x, self.unit)
                    .map_err(layer)?
                    .with_caev(caev),
            ),
            _ => Box::new(
                CaevPlayer::layered(alpha_beta, x, y, self.unit)
                    .map_err(layer)?
                    .with_caev(caev),
            ),
        })
    }

    /// `cns`: McAllester's conspiracy number search.
    #[cfg(feature = "conspiracy")]
    fn cns<G>(&self, args: &mut Args) -> Result<Box<dyn Searcher<G>>, SpecError>
    where
        G: SharedGame,
        E: Evaluator<G>,
    {
        use conspiracy::{Cns, CnsConfig};
        let config = CnsConfig::new(args.int("w"), args.int("t"))
            .map_err(|e| args.invalid("w", e))?
            .with_max_nodes(args.int("nodes"));
        Ok(Box::new(Cns::new(self.eval.clone(), config)))
    }
}

/// The searcher `spec` names for a game that is not two-player zero-sum: only the searchers of
/// the [registry] that play every game (UCT).
pub fn general_searcher<G: SharedGeneralGame>(spec: &Spec) -> Result<Built<G>, SpecError> {
    let entry = registry::searcher(spec.name())?;
    if entry.needs != Needs::General {
        return Err(refused(entry, &[Needs::General]));
    }
    let mut args = Args::new(spec, &[entry.params])?;
    let searcher = uct(&mut args)?;
    Ok(Built {
        searcher,
        spec: args.full_spec(),
        scale: Scale::MEAN_PAYOFF,
    })
}

/// The searcher `spec` names for a game that describes its rounds: MAC-UCB, FC-UCB, or a searcher
/// that plays every game.
#[cfg(feature = "scsp")]
pub fn round_searcher<G: game_trait::RoundGame + SharedGeneralGame>(
    spec: &Spec,
) -> Result<Built<G>, SpecError> {
    let entry = registry::searcher(spec.name())?;
    match entry.needs {
        Needs::General => return general_searcher(spec),
        Needs::ZeroSum => return Err(refused(entry, &[Needs::General, Needs::Rounds])),
        Needs::Rounds => {}
    }
    let (player, spec) = mac_ucb(spec)?;
    Ok(Built {
        searcher: Box::new(player),
        spec,
        scale: Scale::MEAN_PAYOFF,
    })
}

/// Which networks a MAC-UCB player of a GDL game solves (its `networks` parameter).
#[cfg(feature = "scsp")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Networks {
    /// The round encoding's where it plans at most [`Networks::AUTO_TUPLES`] table rows and has
    /// at most [`Networks::AUTO_TABLES`] tables, else the rules' at each state.
    Auto,
    /// The round encoding's.
    Round,
    /// The rules' at each state.
    State,
}

#[cfg(feature = "scsp")]
impl Networks {
    /// The encoding `auto` tries: at most [`Networks::AUTO_TABLES`] tables, and at most
    /// [`Networks::AUTO_TUPLES`] table rows estimated before any is enumerated, so that a large
    /// game is turned down in a second rather than encoded in ten (Bomberman, chess_groundable).
    #[cfg(feature = "gdl")]
    pub fn auto_options() -> gdl::EncodeOptions {
        gdl::EncodeOptions {
            max_total_tuples: Networks::AUTO_TUPLES,
            max_tables: Networks::AUTO_TABLES,
            ..gdl::EncodeOptions::default()
        }
    }

    /// The most table rows `auto`'s encoding may plan: 3,000,000 admits the shipped dice games
    /// (Can't Stop needs 3,000,000, Orchard, Pickomino, Yahtzee and Backgammon 1,000,000) and
    /// turns down Bomberman and Chinese Checkers in about a second (each encodes only with
    /// 20,000,000: `gdl::GdlRound::with_options` at rising `EncodeOptions::max_total_tuples`).
    pub const AUTO_TUPLES: u64 = 3_000_000;

    /// The most tables a round encoding may have for `auto` to play through it: the paper's
    /// reading (networks of the game's round, where MAC has constraints to propagate) where it is
    /// affordable, the rules' networks where the encoding is large. Measured from the start of
    /// the shipped games, 2,000 samples (`gametree search crates/gdl/games/GAME.kif --searcher
    /// mac-ucb:samples=2000,networks=N`; both grow the same tree), round against state: Pickomino
    /// (59 tables) 0.59 s against 0.13 s; Käseklau (1,848) 3.1 s against 0.87 s; Bomberman (1,348)
    /// 2.5 s against 0.06 s; Chinese Checkers (1,811) 33 s against 0.41 s; Othello (6,688) 32 s
    /// against 1.5 s. chess_groundable's 68,864 tables took 10 GB.
    pub const AUTO_TABLES: usize = 1000;
}

/// The MAC-UCB or FC-UCB player `spec` names, and the spec with every parameter it read.
#[cfg(feature = "scsp")]
pub fn mac_ucb(spec: &Spec) -> Result<(scsp_mac_ucb::MacUcb, String), SpecError> {
    mac_ucb_with_networks(spec).map(|(player, _, spec)| (player, spec))
}

/// [`mac_ucb`], with the networks `spec` asks for.
#[cfg(feature = "scsp")]
pub fn mac_ucb_with_networks(
    spec: &Spec,
) -> Result<(scsp_mac_ucb::MacUcb, Networks, String), SpecError> {
    use scsp_mac_ucb::{Arms, FinalChoice, Lookahead, MacUcb, MacUcbConfig, ThresholdPruning};
    let entry = registry::searcher(spec.name())?;
    let mut args = Args::new(spec, &[entry.params])?;
    let base = match entry.name {
        "mac-ucb" => MacUcbConfig::default(),
        "fc-ucb" => MacUcbConfig::fc_ucb(),
        _ => return Err(refused(entry, &[Needs::Rounds])),
    };
    let horizon: u32 = args.int("horizon");
    let config = MacUcbConfig {
        samples: args.int("samples"),
        lookahead: match args.choice("lookahead") {
            "round" => Lookahead::Round,
            _ => Lookahead::Sequence,
        },
        solve_share: args.real("share"),
        exploration: args.real("c"),
        seed: args.int("seed"),
        horizon: (horizon > 0).then_some(horizon),
        arms: match args.choice("arms") {
            "own" => Arms::OwnAction,
            _ => Arms::Joint,
        },
        choice: match args.choice("choice") {
            "mean" => FinalChoice::Mean,
            "ucb" => FinalChoice::UcbIndex,
            _ => FinalChoice::MostSampled,
        },
        pruning: match args.choice("pruning") {
            "all" => ThresholdPruning::AllPlayers,
            "off" => ThresholdPruning::Off,
            _ => ThresholdPruning::Chooser,
        },
        preprocess: args.choice("preprocess") == "on",
        confidence_pruning: args.choice("confidence") == "on",
        cache_bytes: args.size("cache"),
        player: args.optional("player"),
        ..base
    };
    let networks = match args.choice("networks") {
        "round" => Networks::Round,
        "state" => Networks::State,
        _ => Networks::Auto,
    };
    let player = MacUcb::new(config).map_err(|e| SpecError::Invalid {
        name: entry.name.to_string(),
        message: e.to_string(),
    })?;
    Ok((player, networks, args.full_spec()))
}

/// The error for a searcher that does not play this kind of game: what it plays, and the
/// searchers of the kinds the game `takes`.
fn refused(entry: &registry::SearcherEntry, takes: &[Needs]) -> SpecError {
    let accepted: Vec<&str> = registry::SEARCHERS
        .iter()
        .filter(|s| takes.contains(&s.needs))
        .map(|s| s.name)
        .collect();
    SpecError::Invalid {
        name: entry.name.to_string(),
        message: format!(
            "it plays {}; this game takes: {}",
            entry.plays(),
            accepted.join(", ")
        ),
    }
}

/// `uct`, on its `threads`, tree- or root-parallel as `parallel` says. Root-parallel threads
/// grow trees of their own and keep none, so `reuse` with them is an error rather than ignored.
fn uct<G: SharedGeneralGame>(args: &mut Args) -> Result<Box<dyn Searcher<G>>, SpecError> {
    let reuse = args.flag("reuse");
    let uct = Uct::new(UctConfig {
        simulations: args.int("sims"),
        exploration: args.real("c"),
        seed: args.int("seed"),
        reuse,
        solver: args.flag("solver"),
        ..UctConfig::default()
    });
    let threads: usize = args.int("threads");
    let tree = args.choice("parallel") == "tree";
    if threads == 1 {
        return Ok(Box::new(uct));
    }
    if reuse && !tree {
        let why =
            "root-parallel threads (parallel=root) keep no tree: use parallel=tree, or drop reuse";
        return Err(args.invalid("reuse", why));
    }
    Ok(Box::new(UctOnThreads { uct, threads, tree }))
}

/// `searcher` as it is on one thread, else on `threads` threads.
fn on_threads<G: Game, S>(searcher: S, threads: usize) -> Box<dyn Searcher<G>>
where
    S: Searcher<G> + 'static,
    OnThreads<S>: Searcher<G>,
{
    if threads > 1 {
        Box::new(OnThreads { searcher, threads })
    } else {
        Box::new(searcher)
    }
}

/// A searcher whose every search runs on `threads` threads: α/β by Lazy SMP
/// ([`AlphaBeta::search_parallel`]).
struct OnThreads<S> {
    searcher: S,
    threads: usize,
}

impl<S: Reset> Reset for OnThreads<S> {
    fn reset(&mut self) {
        self.searcher.reset();
    }
}

impl<G, E, P, H, O, Q, S> Searcher<G> for OnThreads<AlphaBeta<E, P, H, O, Q, S>>
where
    G: SharedGame,
    AlphaBeta<E, P, H, O, Q, S>: SharedHooks<G>,
{
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        self.searcher
            .search_parallel(game, state, limits, self.threads)
    }
}

/// UCT whose every search runs on `threads` threads: tree-parallel
/// ([`Uct::analyse_tree_parallel`]) or root-parallel ([`Uct::analyse_parallel`]).
struct UctOnThreads<P> {
    uct: Uct<P>,
    threads: usize,
    /// Tree-parallel, else root-parallel.
    tree: bool,
}

impl<P> Reset for UctOnThreads<P> {
    fn reset(&mut self) {
        self.uct.reset();
    }
}

impl<G: SharedGeneralGame, P> Searcher<G> for UctOnThreads<P>
where
    P: PlayoutPolicy<G> + Clone + Send,
{
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        let analysis = if self.tree {
            self.uct
                .analyse_tree_parallel(game, state, limits, self.threads)
        } else {
            self.uct.analyse_parallel(game, state, limits, self.threads)
        };
        analysis.result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::{ExplicitTree, LeafValue};

    /// The spec `spec` builds to on a small tree with `kit`, written out in full.
    fn full<O, Pl>(kit: &Kit<LeafValue, O, Pl>, spec: &str) -> Result<String, SpecError>
    where
        O: MoveOrdering<ExplicitTree> + Clone + Send + 'static,
        Pl: Plausibility<ExplicitTree> + Clone + 'static,
    {
        let tree = ExplicitTree::random(1, 3, 3);
        Ok(kit.build(&tree, &spec.parse()?)?.spec)
    }

    #[test]
    fn null_moves_are_refused_where_the_game_offers_none() {
        let error = full(&Kit::new(LeafValue, 10), "pvs:null=2").unwrap_err();
        assert!(error.to_string().contains("offers no null move"), "{error}");
        assert!(full(&Kit::new(LeafValue, 10), "pvs:null=0").is_ok());
    }

    #[cfg(feature = "othello")]
    #[test]
    fn othello_offers_null_moves() {
        use crate::games::Registered;
        let spec = "pvs:depth=3,null=2".parse().unwrap();
        let built = othello_bitboard::Othello.searcher(&spec).unwrap();
        assert!(built.spec.contains("null=2"), "{}", built.spec);
    }

    #[test]
    fn defaults_are_written_out_and_out_of_range_values_refused() {
        let kit = Kit::new(LeafValue, 10);
        assert_eq!(
            full(&kit, "pvs:depth=3").unwrap(),
            "pvs:depth=3,tt=64mb,cutoff=ge,aspiration=0,countermoves=false,lmr=0,null=0,singular=0,threads=1"
        );
        assert_eq!(full(&kit, "minimax").unwrap(), "minimax:depth=3");
        for bad in [
            "minimax:depth=0",
            "pvs:depth=257",
            "pvs:aspiration=-1",
            "uct:sims=0",
        ] {
            let err = full(&kit, bad).unwrap_err();
            assert!(matches!(err, SpecError::BadValue { .. }), "{bad}: {err:?}");
        }
    }

    #[test]
    fn threads_search_to_the_one_thread_value() {
        let kit = Kit::new(LeafValue, 10);
        for seed in 0..8 {
            let tree = ExplicitTree::random(seed, 7, 5);
            let value = |spec: &str| {
                let mut searcher = kit.searcher(&tree, spec).unwrap();
                searcher.search(&tree, &0, &Limits::none()).value
            };
            let one = value("pvs:depth=7,tt=1mb");
            for threads in [2, 3] {
                let spec = format!("pvs:depth=7,tt=1mb,threads={threads}");
                assert_eq!(value(&spec), one, "seed {seed}, {threads} threads");
            }
        }
        // UCT on threads plays a move of the root, tree- and root-parallel.
        let tree = ExplicitTree::random(1, 4, 4);
        for spec in [
            "uct:sims=400,threads=2",
            "uct:sims=400,threads=2,parallel=root",
            "uct:sims=400,threads=2,parallel=tree,reuse=true",
        ] {
            let mut uct = kit.searcher(&tree, spec).unwrap();
            for _ in 0..2 {
                let result = uct.search(&tree, &0, &Limits::none());
                let mv = result.best_move.expect("the root has moves");
                assert!((mv as usize) < tree.children(0).len(), "{spec}: {mv}");
            }
        }
    }

    #[test]
    fn uct_reuse_is_refused_with_root_parallel_threads_only() {
        let kit = Kit::new(LeafValue, 10);
        let err = full(&kit, "uct:threads=2,parallel=root,reuse=true").unwrap_err();
        assert!(matches!(err, SpecError::Invalid { .. }), "{err:?}");
        assert!(err.to_string().contains("reuse"), "{err}");
        for fine in [
            "uct:threads=2,parallel=tree,reuse=true",
            "uct:threads=1,parallel=root,reuse=true",
            "uct:threads=2,parallel=root",
        ] {
            assert!(full(&kit, fine).is_ok(), "{fine}");
        }
        let uct = full(&kit, "uct").unwrap();
        assert!(uct.ends_with(",threads=1,parallel=root"), "{uct}");
        // Without `parallel`, threads are root-parallel, and so refuse reuse.
        assert!(full(&kit, "uct:threads=2,reuse=true").is_err());
    }

    #[test]
    #[cfg(feature = "conspiracy")]
    fn caev_derives_range_from_the_unit_and_blames_only_what_was_given() {
        let caev = |unit: Score, spec: &str| full(&Kit::new(LeafValue, unit), spec);
        assert_eq!(caev(5, "caev").unwrap(), "caev:cn=3,ab=2,range=5,step=1");
        assert_eq!(
            caev(1000, "caev").unwrap(),
            "caev:cn=3,ab=2,range=1000,step=50"
        );
        assert_eq!(
            caev(1030, "caev").unwrap(),
            "caev:cn=3,ab=2,range=1030,step=10"
        );
        assert_eq!(
            caev(1000, "caev:range=1001").unwrap(),
            "caev:cn=3,ab=2,range=1001,step=13"
        );
        assert_eq!(
            caev(1000, "caev:range=100,step=10").unwrap(),
            "caev:cn=3,ab=2,range=100,step=10"
        );
        let err = caev(1000, "caev:range=100,step=7").unwrap_err();
        assert!(
            err.to_string()
                .contains("step=7: range 100 is not a multiple of step 7"),
            "{err}"
        );
        let err = caev(10, "caev:step=3").unwrap_err();
        assert!(err.to_string().contains("step=3"), "{err}");
        // A prime range of a million has a million segments a side: too fine a grid, and the
        // range (the only thing given) is blamed.
        let err = caev(1000, "caev:range=1000003").unwrap_err();
        assert!(err.to_string().contains("range=1000003: grid of"), "{err}");
        let err = caev(1000, "caev:range=1099511627777").unwrap_err();
        assert!(matches!(err, SpecError::BadValue { .. }), "{err:?}");
    }

    #[test]
    #[cfg(feature = "interest-search")]
    fn the_interest_limit_step_is_a_hundred_per_typical_move() {
        let step = |kit: &Kit<LeafValue>, spec: &str| {
            let spec: Spec = full(kit, spec).unwrap().parse().unwrap();
            spec.value("limit_step").unwrap().to_string()
        };
        assert_eq!(step(&Kit::new(LeafValue, 10), "interest"), "1000");
        assert_eq!(
            step(&Kit::new(LeafValue, 10).with_typical_moves(7), "interest"),
            "700"
        );
        assert_eq!(
            step(&Kit::new(LeafValue, 10).with_typical_moves(0), "interest"),
            "100"
        );
        let given = Kit::new(LeafValue, 10).with_typical_moves(7);
        assert_eq!(step(&given, "interest:limit_step=33"), "33");
        let err = full(&given, "interest:limit_step=0").unwrap_err();
        assert!(matches!(err, SpecError::BadValue { .. }), "{err:?}");
    }

    #[test]
    #[cfg(feature = "forward-estimation")]
    fn fe_bounds_are_exact_where_the_game_knows_its_edges_else_learned_offline() {
        let bounds = |kit: &Kit<LeafValue>, spec: &str| -> Result<String, SpecError> {
            let spec: Spec = full(kit, spec)?.parse().unwrap();
            Ok(spec.value("bounds").unwrap().to_string())
        };
        let learned = Kit::new(LeafValue, 10);
        let known = Kit::new(LeafValue, 10).with_exact_edges(-20, 20);
        assert_eq!(bounds(&known, "fe").unwrap(), "exact");
        assert_eq!(bounds(&learned, "fe").unwrap(), "offline");
        assert_eq!(bounds(&known, "fe:bounds=online").unwrap(), "online");
        let err = bounds(&learned, "fe:bounds=exact").unwrap_err();
        assert!(
            err.to_string()
                .contains("bounds=exact: this game does not know"),
            "{err}"
        );
        for bad in [
            "fe:delta=1.5",
            "fe:samples=0",
            "fe:depth=257",
            "fe:bounds=maybe",
        ] {
            let err = bounds(&learned, bad).unwrap_err();
            assert!(matches!(err, SpecError::BadValue { .. }), "{bad}: {err:?}");
        }
    }
}

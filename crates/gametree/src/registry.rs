//! Searchers by name: what the `gametree` CLI and the cross-crate test matrix run.
//!
//! A game spec (`othello`, `random-tree:b=5,d=6,seed=1`, `tree:seed=3`, a `.kif` file) selects a
//! [`Registered`] game (see [`games`](crate::games)); a searcher spec (`alphabeta:depth=5`,
//! `pvs:depth=8,tt=64mb`, `uct:sims=10000,c=1.4`, `caev:cn=3,ab=2,eval=ev1`) is then built for that
//! game by [`Registered::searcher`]. Searchers are returned boxed: dynamic dispatch happens once per
//! `search()` call, never per node, because every searcher is monomorphised over its game,
//! evaluator and hooks before boxing.
//!
//! [`SEARCHERS`] lists every name with its parameters and defaults; the error for an unknown name
//! or parameter lists what is accepted.

use game_trait::{
    Evaluator, GeneralGame, MoveOrdering, Plausibility, Score, Searcher, ZeroSumGame,
};
use search_core::{AlphaBeta, AlphaBetaConfig, Minimax, Uct, UctConfig};

use crate::spec::{Spec, SpecError};

/// A game known by name, able to build searchers from specs.
pub trait Registered: GeneralGame + Sized + 'static {
    /// Builds the searcher `spec` names for this game. The default offers what works on any game
    /// (UCT); two-player zero-sum games override it with [`zero_sum_searcher`].
    fn searcher(&self, spec: &mut Spec) -> Result<Box<dyn Searcher<Self>>, SpecError> {
        general_searcher(spec)
    }

    /// Counts the leaves of the game tree `depth` plies below `state` (perft). Games with a faster,
    /// specialised counter (Othello's bulk counting) override it.
    fn perft(&self, state: &Self::State, depth: u32) -> u64 {
        search_core::perft(self, state, depth)
    }
}

/// One registered searcher: its name, its parameters with their defaults, and what it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearcherInfo {
    /// The name before the colon.
    pub name: &'static str,
    /// Its parameters, `key=default` (meaning), comma-separated.
    pub params: &'static str,
    /// Whether it needs a two-player zero-sum game.
    pub zero_sum: bool,
    /// Whether, at the same depth and evaluation, it returns exactly [`Minimax`]'s value.
    pub exact: bool,
    /// What it is, in one line.
    pub about: &'static str,
}

/// Every searcher the registry builds, in the order `gametree --help` lists them. Zero-sum
/// searchers also take `eval=` where the game offers several evaluations (Othello: `ev1`, `ev2`).
pub const SEARCHERS: &[SearcherInfo] = &[
    SearcherInfo {
        name: "minimax",
        params: "depth=3",
        zero_sum: true,
        exact: true,
        about: "plain full-width negamax, the oracle",
    },
    SearcherInfo {
        name: "alphabeta",
        params:
            "depth=4, tt=0 (table size, e.g. 16mb), cutoff=ge (ge: ret >= beta, gt: ret > beta)",
        zero_sum: true,
        exact: true,
        about: "fail-soft negamax alpha-beta with the seed's exact/lower/upper bounds",
    },
    SearcherInfo {
        name: "pvs",
        params: "depth=6, tt=64mb, cutoff=ge, aspiration=0 (half-width, 0 for none)",
        zero_sum: true,
        exact: true,
        about: "principal variation search, iterative deepening, table, killers, history",
    },
    #[cfg(feature = "forward-estimation")]
    SearcherInfo {
        name: "fe",
        params: "depth=4, delta=1.0, bounds=exact|offline|likely|online (exact where the game \
                 knows its edge costs, else offline; likely: the off-line samples' mean rise and \
                 fall, the paper's conditions (2)), samples=10, seed=1, tt=0, cutoff=ge",
        zero_sum: true,
        exact: false,
        about: "alpha-beta with Zhang's forward-estimation pruning",
    },
    #[cfg(feature = "interest-search")]
    SearcherInfo {
        name: "interest",
        params: "iterations=6, limit_step=100 x typical moves (Othello 1000), scale=100000, \
                 sibling_percent=100, similar_percent=100, parities=separate|shared, \
                 inherit_siblings=true, tt=4mb",
        zero_sum: true,
        exact: false,
        about: "PVS iterating by interest (Rollason) instead of depth",
    },
    #[cfg(feature = "conspiracy")]
    SearcherInfo {
        name: "caev",
        params: "cn=3 (layer depth x), ab=2 (leaf alpha-beta depth y), range=1000, step=50",
        zero_sum: true,
        exact: false,
        about: "the CN(x, y) player: conspiracy-adjusted evaluation values (Vu et al.)",
    },
    #[cfg(feature = "conspiracy")]
    SearcherInfo {
        name: "cns",
        params: "w=1, t=1, nodes=4194304 (tree size in memory)",
        zero_sum: true,
        exact: false,
        about: "McAllester's conspiracy number search",
    },
    SearcherInfo {
        name: "uct",
        params: "sims=10000, c=1.4 (exploration), seed=0",
        zero_sum: false,
        exact: false,
        about: "Monte Carlo tree search with UCB1 (decoupled at simultaneous nodes)",
    },
];

/// The names of the searchers accepted on games that are not two-player zero-sum.
fn general_names() -> String {
    names(|s| !s.zero_sum)
}

fn names(filter: impl Fn(&SearcherInfo) -> bool) -> String {
    SEARCHERS
        .iter()
        .filter(|s| filter(s))
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Builds a searcher that works on any [`GeneralGame`] (UCT).
pub fn general_searcher<G: GeneralGame + 'static>(
    spec: &mut Spec,
) -> Result<Box<dyn Searcher<G>>, SpecError> {
    let searcher: Box<dyn Searcher<G>> = match spec.name() {
        "uct" => Box::new(uct(spec)?),
        other => return Err(unknown_searcher(other, general_names())),
    };
    spec.finish()?;
    Ok(searcher)
}

/// What a two-player zero-sum game brings to its searchers: the static evaluation (side to move's
/// view), a move ordering for the α/β family, a plausibility for interest search, and the exact
/// edge-cost bounds for forward estimation where the game knows them.
#[derive(Clone, Debug)]
pub struct Kit<E, O, Pl> {
    /// The static evaluation.
    pub eval: E,
    /// Ordering of `alphabeta`, `pvs` and `fe` after the table move and killers.
    pub ordering: O,
    /// Interest of moves for `interest`.
    pub plausibility: Pl,
    /// The exact `[l, u]` of edge costs (MAX's view), for `fe:bounds=exact`.
    pub exact_edges: Option<(Score, Score)>,
    /// Typical number of legal moves: `interest` scales its default `limit_step` so that a move of
    /// base interest (`1000 / typical`) costs one step.
    pub typical_moves: u32,
}

/// Builds any searcher of [`SEARCHERS`] on a two-player zero-sum game with `kit`'s evaluation and
/// hooks.
pub fn zero_sum_searcher<G, E, O, Pl>(
    game: &G,
    spec: &mut Spec,
    kit: Kit<E, O, Pl>,
) -> Result<Box<dyn Searcher<G>>, SpecError>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + Clone + 'static,
    O: MoveOrdering<G> + Clone + 'static,
    Pl: Plausibility<G> + Clone + 'static,
{
    let searcher: Box<dyn Searcher<G>> = match spec.name() {
        "minimax" => Box::new(Minimax::new(kit.eval, spec.get("depth", 3u32)?)),
        "alphabeta" => {
            let config = alpha_beta_options(spec, AlphaBetaConfig::alpha_beta(4))?;
            Box::new(
                AlphaBeta::new(kit.eval)
                    .with_config(config)
                    .with_ordering(kit.ordering),
            )
        }
        "pvs" => {
            let config = alpha_beta_options(spec, AlphaBetaConfig::pvs(6))?;
            let width: Score = spec.get("aspiration", 0)?;
            let config = AlphaBetaConfig {
                aspiration: (width > 0).then_some(width),
                ..config
            };
            Box::new(
                AlphaBeta::new(kit.eval)
                    .with_config(config)
                    .with_ordering(kit.ordering),
            )
        }
        #[cfg(feature = "forward-estimation")]
        "fe" => forward_estimation(game, spec, kit)?,
        #[cfg(feature = "interest-search")]
        "interest" => interest(spec, kit)?,
        #[cfg(feature = "conspiracy")]
        "caev" => caev(spec, kit.eval)?,
        #[cfg(feature = "conspiracy")]
        "cns" => cns(spec, kit.eval)?,
        "uct" => Box::new(uct(spec)?),
        other => return Err(unknown_searcher(other, names(|_| true))),
    };
    let _ = game;
    spec.finish()?;
    Ok(searcher)
}

/// Reads the options common to the α/β family (`depth`, `tt`, `cutoff`) on top of `config`.
fn alpha_beta_options(
    spec: &mut Spec,
    mut config: AlphaBetaConfig,
) -> Result<AlphaBetaConfig, SpecError> {
    config.depth = spec.get("depth", config.depth)?;
    config.tt_bytes = spec.bytes("tt", config.tt_bytes)?;
    if let Some(cutoff) = spec.raw("cutoff") {
        config.cutoff = match cutoff.as_str() {
            ">=" | "ge" => game_trait::Cutoff::AtLeastBeta,
            ">" | "gt" => game_trait::Cutoff::AboveBeta,
            _ => {
                return Err(spec.bad(
                    "cutoff",
                    &cutoff,
                    "expected `ge` (ret >= beta) or `gt` (ret > beta)",
                ))
            }
        };
    }
    Ok(config)
}

/// `fe`: α/β with a [`ForwardEstimation`](forward_estimation::ForwardEstimation) pruning hook.
#[cfg(feature = "forward-estimation")]
fn forward_estimation<G, E, O, Pl>(
    game: &G,
    spec: &mut Spec,
    kit: Kit<E, O, Pl>,
) -> Result<Box<dyn Searcher<G>>, SpecError>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + Clone + 'static,
    O: MoveOrdering<G> + Clone + 'static,
{
    use forward_estimation::{learn_offline, EdgeBounds, ForwardEstimation};
    let config = alpha_beta_options(spec, AlphaBetaConfig::alpha_beta(4))?;
    let delta: f64 = spec.get("delta", 1.0)?;
    let default_source = if kit.exact_edges.is_some() {
        "exact"
    } else {
        "offline"
    };
    let source = spec
        .raw("bounds")
        .unwrap_or_else(|| default_source.to_string());
    let samples: usize = spec.get("samples", 10)?;
    let seed: u64 = spec.get("seed", 1)?;
    let bounds = match source.as_str() {
        "exact" => match kit.exact_edges {
            Some((l, u)) => EdgeBounds::Exact { l, u },
            None => {
                return Err(spec.bad(
                    "bounds",
                    &source,
                    "this game does not know its exact edge costs; use `offline` or `online`",
                ))
            }
        },
        "offline" | "likely" => {
            let mut eval = kit.eval.clone();
            let learned = learn_offline(game, &mut eval, samples, seed)
                .map_err(|e| spec.bad("samples", &samples.to_string(), &e.to_string()))?;
            if source == "likely" {
                learned.likely_bounds()
            } else {
                learned.bounds()
            }
        }
        "online" => EdgeBounds::Online,
        _ => {
            return Err(spec.bad(
                "bounds",
                &source,
                "expected `exact`, `offline`, `likely` or `online`",
            ))
        }
    };
    let pruning = ForwardEstimation::new(bounds)
        .with_delta(delta)
        .map_err(|e| spec.bad("delta", &delta.to_string(), &e.to_string()))?;
    Ok(Box::new(
        AlphaBeta::new(kit.eval)
            .with_config(config)
            .with_ordering(kit.ordering)
            .with_pruning(pruning),
    ))
}

/// `interest`: iterative-deepening PVS whose horizon is Rollason's interest budget. The interest
/// keys are parsed by [`InterestConfig`](interest_search::InterestConfig)'s own parser; the engine
/// runs without the history heuristic, which would break the increasing-cost order (see the
/// interest-search crate docs).
#[cfg(feature = "interest-search")]
fn interest<G, E, O, Pl>(
    spec: &mut Spec,
    kit: Kit<E, O, Pl>,
) -> Result<Box<dyn Searcher<G>>, SpecError>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + Clone + 'static,
    Pl: Plausibility<G> + Clone + 'static,
{
    use interest_search::{InterestConfig, InterestHorizon, InterestOrdering};
    const KEYS: [&str; 6] = [
        "limit_step",
        "scale",
        "sibling_percent",
        "similar_percent",
        "parities",
        "inherit_siblings",
    ];
    let iterations: u32 = spec.get("iterations", 6)?;
    let tt = spec.bytes("tt", 4 << 20)?;
    // A move of base interest (`1000 / typical moves`) costs one step unless the user says otherwise.
    let mut params: Vec<String> = Vec::new();
    for key in KEYS {
        if let Some(value) = spec.raw(key) {
            params.push(format!("{key}={value}"));
        }
    }
    if !params.iter().any(|p| p.starts_with("limit_step=")) {
        params.push(format!("limit_step={}", 100 * kit.typical_moves.max(1)));
    }
    let text = format!("interest:{}", params.join(","));
    let config: InterestConfig =
        text.parse()
            .map_err(|e: interest_search::InterestError| SpecError::Malformed {
                spec: spec.to_string(),
                message: e.to_string(),
            })?;
    let engine = AlphaBetaConfig {
        tt_bytes: tt,
        history: false,
        ..AlphaBetaConfig::pvs(iterations)
    };
    Ok(Box::new(
        AlphaBeta::new(kit.eval)
            .with_config(engine)
            .with_horizon(InterestHorizon::with_config(
                config,
                kit.plausibility.clone(),
            ))
            .with_ordering(InterestOrdering::new(kit.plausibility)),
    ))
}

/// `caev`: the CN(x, y) player. CN(0, y) is plain α/β of depth y, CN(x, 0) values the layer's
/// leaves statically, otherwise the leaves are valued by a depth-y α/β (the paper's composition).
#[cfg(feature = "conspiracy")]
fn caev<G, E>(spec: &mut Spec, eval: E) -> Result<Box<dyn Searcher<G>>, SpecError>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + Clone + 'static,
{
    use conspiracy::{CaevConfig, CaevPlayer};
    let x: u32 = spec.get("cn", 3)?;
    let y: u32 = spec.get("ab", 2)?;
    let defaults = CaevConfig::default();
    let range: i64 = spec.get("range", defaults.range())?;
    let step: i64 = spec.get("step", defaults.step())?;
    let caev = CaevConfig::new(range, step)
        .map_err(|e| spec.bad("step", &step.to_string(), &e.to_string()))?;
    let alpha_beta = AlphaBeta::new(eval.clone()).with_config(AlphaBetaConfig::alpha_beta(y));
    let bad_depth = |e: conspiracy::ConspiracyError| spec.bad("cn", &x.to_string(), &e.to_string());
    Ok(match (x, y) {
        (0, _) => Box::new(alpha_beta),
        (_, 0) => Box::new(CaevPlayer::new(eval, x).map_err(bad_depth)?.with_caev(caev)),
        _ => Box::new(
            CaevPlayer::layered(alpha_beta, x, y)
                .map_err(bad_depth)?
                .with_caev(caev),
        ),
    })
}

/// `cns`: McAllester's conspiracy number search.
#[cfg(feature = "conspiracy")]
fn cns<G, E>(spec: &mut Spec, eval: E) -> Result<Box<dyn Searcher<G>>, SpecError>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + Clone + 'static,
{
    use conspiracy::{Cns, CnsConfig};
    let defaults = CnsConfig::default();
    let w: i64 = spec.get("w", defaults.w())?;
    let t: u32 = spec.get("t", defaults.t())?;
    let nodes: usize = spec.get("nodes", defaults.max_nodes())?;
    let config = CnsConfig::new(w, t)
        .map_err(|e| spec.bad("w", &w.to_string(), &e.to_string()))?
        .with_max_nodes(nodes);
    Ok(Box::new(Cns::new(eval, config)))
}

fn uct(spec: &mut Spec) -> Result<Uct, SpecError> {
    let defaults = UctConfig::default();
    let config = UctConfig {
        simulations: spec.get("sims", defaults.simulations)?,
        exploration: spec.get("c", defaults.exploration)?,
        seed: spec.get("seed", defaults.seed)?,
        ..defaults
    };
    Ok(Uct::new(config))
}

fn unknown_searcher(name: &str, accepted: String) -> SpecError {
    SpecError::UnknownName {
        kind: "searcher",
        name: name.to_string(),
        accepted,
    }
}

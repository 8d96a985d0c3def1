//! [`Mtdf`]: MTD(f), the minimax value by a sequence of null-window α/β searches.

use std::time::Instant;

use game_trait::{
    Bound, Cutoff, Limits, NoQuiescence, NoSelectivity, Reset, Score, SearchResult, SearchStats,
    Searcher, ZeroSumGame, INFINITY,
};

use crate::{AlphaBeta, Hooks};

/// MTD(f) (Plaat, Schaeffer, Pijls and de Bruin, *Best-First Fixed-Depth Minimax Algorithms*,
/// Artificial Intelligence 87, 1996): the minimax value of a depth as the limit of null-window
/// α/β searches, each one moving a bound towards it, with the engine's transposition table
/// remembering the tree between them.
///
/// ```text
/// g ← first guess; lower ← −∞; upper ← +∞
/// while lower < upper:
///   β ← g + 1 if g = lower, else g
///   g ← αβ(root, β − 1, β)                  (fail-soft)
///   if g < β: upper ← g  else: lower ← g
/// return g
/// ```
///
/// With [`iterative`](crate::AlphaBetaConfig::iterative) each depth starts from the previous
/// depth's value, as the paper recommends, and the deepening stops at the first depth whose every
/// probe searched only lines that ended the game (its value is then the game's, and a deeper depth
/// would find it again); otherwise only the last depth is searched, from
/// [`first_guess`](Mtdf::with_first_guess) (0 by default). The probes use the cutoff `≥ β`
/// ([`Cutoff::AtLeastBeta`]) whatever the engine's configuration says, since the loop above reads
/// their bounds that way; PVS and aspiration windows do nothing in a null window. The best move is
/// the last fail-high probe's (it reaches the final value), or the exact probe's.
///
/// The engine needs a transposition table to be fast (every probe re-searches the tree from the
/// root), not to be right: the value is the minimax value of the depth either way, which the
/// crate's tests check against [`Minimax`](crate::Minimax).
#[derive(Clone, Debug)]
pub struct Mtdf<E, P, H, O, Q = NoQuiescence, S = NoSelectivity> {
    engine: AlphaBeta<E, P, H, O, Q, S>,
    first_guess: Score,
}

impl<E, P, H, O, Q, S> Mtdf<E, P, H, O, Q, S> {
    /// MTD(f) over `engine`, with the first guess 0.
    pub fn new(mut engine: AlphaBeta<E, P, H, O, Q, S>) -> Mtdf<E, P, H, O, Q, S> {
        engine.config_mut().cutoff = Cutoff::AtLeastBeta;
        Mtdf {
            engine,
            first_guess: 0,
        }
    }

    /// The same searcher starting the first depth from `guess` (the closer to the value, the
    /// fewer probes).
    pub fn with_first_guess(self, guess: Score) -> Mtdf<E, P, H, O, Q, S> {
        Mtdf {
            first_guess: guess,
            ..self
        }
    }

    /// The α/β engine that runs the probes.
    pub fn engine(&self) -> &AlphaBeta<E, P, H, O, Q, S> {
        &self.engine
    }

    /// The α/β engine, mutably (its configuration, its hooks).
    pub fn engine_mut(&mut self) -> &mut AlphaBeta<E, P, H, O, Q, S> {
        &mut self.engine
    }
}

/// What one depth's convergence produced: the depth's result, or, when a limit stopped a probe,
/// that probe's (the engine's fallback: a static value at depth 0 and the best move found so
/// far); with the statistics of every probe, and whether every probe was closed (every line it
/// searched ended the game).
struct Converged<M> {
    result: Result<SearchResult<M>, SearchResult<M>>,
    probes: SearchStats,
    closed: bool,
}

impl<E, P, H, O, Q, S> Mtdf<E, P, H, O, Q, S> {
    /// Converges on the value of `depth` from `guess`, counting the nodes generated in `used`.
    fn converge<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        depth: u32,
        guess: Score,
        used: &mut u64,
    ) -> Converged<G::Move>
    where
        G: ZeroSumGame,
        AlphaBeta<E, P, H, O, Q, S>: Hooks<G>,
    {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut g = guess.clamp(-INFINITY + 1, INFINITY);
        let mut probes = SearchStats::default();
        let mut best: Option<SearchResult<G::Move>> = None;
        let mut closed = true;
        loop {
            // Probes shorter than the engine's polling interval never look at the limits: look
            // between them, so that many small probes cannot overrun a budget.
            if limits.exhausted(*used) {
                if let Some(last) = best {
                    return Converged {
                        result: Err(last),
                        probes,
                        closed: false,
                    };
                }
            }
            let beta = if g == lower { g + 1 } else { g };
            let probe_limits = Limits {
                depth: Some(depth),
                nodes: limits.nodes.map(|n| n.saturating_sub(*used)),
                ..limits.clone()
            };
            let probe = self
                .engine
                .search_window(game, state, &probe_limits, beta - 1, beta);
            *used += probe.stats.generated;
            probes += probe.stats;
            if probe.depth != depth {
                // Only a stopped probe reports another depth (the engine's depth-0 fallback).
                return Converged {
                    result: Err(probe),
                    probes,
                    closed: false,
                };
            }
            closed &= self.engine.last_window_closed();
            g = probe.value;
            match probe.bound {
                // The engine reports no estimates; one would end the loop as an exact value does.
                Bound::Exact | Bound::Estimate => (lower, upper) = (g, g),
                Bound::Lower => lower = g,
                Bound::Upper => upper = g,
            }
            if probe.bound != Bound::Upper || best.is_none() {
                best = Some(probe);
            }
            if lower >= upper {
                let mut result = best.expect("at least one probe ran");
                (result.value, result.bound) = (g, Bound::Exact);
                return Converged {
                    result: Ok(result),
                    probes,
                    closed,
                };
            }
        }
    }
}

impl<G, E, P, H, O, Q, S> Searcher<G> for Mtdf<E, P, H, O, Q, S>
where
    G: ZeroSumGame,
    AlphaBeta<E, P, H, O, Q, S>: Hooks<G>,
{
    /// The exact minimax value of `limits.depth` (or the engine's depth) and a move reaching it;
    /// with iterative deepening, the last depth a limit let finish.
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        let start = Instant::now();
        let config = *self.engine.config();
        let depth = limits.depth.unwrap_or(config.depth);
        let first = if config.iterative {
            depth.min(1)
        } else {
            depth
        };
        let (mut guess, mut used) = (self.first_guess, 0);
        let mut stats = SearchStats::default();
        let mut done: Option<SearchResult<G::Move>> = None;
        let mut stopped = None;
        for d in first..=depth {
            let c = self.converge(game, state, limits, d, guess, &mut used);
            stats += c.probes;
            match c.result {
                Ok(result) => {
                    guess = result.value;
                    done = Some(result);
                    if c.closed {
                        break; // the game's value: deeper depths cannot change it
                    }
                }
                Err(fallback) => {
                    stopped = Some(fallback);
                    break;
                }
            }
        }
        // The last depth that finished; if none did, the stopped probe's fallback.
        let mut result = done.or(stopped).expect("at least one depth was tried");
        result.stats = stats;
        result.elapsed = start.elapsed();
        result
    }
}

impl<E, P, H, O, Q, S> Reset for Mtdf<E, P, H, O, Q, S> {
    /// Resets the engine (its table, killers and history).
    fn reset(&mut self) {
        self.engine.reset();
    }
}

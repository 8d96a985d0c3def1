//! Off-line learning of edge-cost bounds (Zhang §3): sample games with the static evaluator.

use game_trait::{Evaluator, MoveList, Score, ZeroSumGame};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::bounds::EdgeBounds;
use crate::error::FeError;

/// A sampled game stops after this many plies even if it has not ended (guards games that can cycle).
pub const MAX_SAMPLE_PLIES: usize = 10_000;

/// What off-line sampling saw: extremes and typical sizes of the edge costs, in MAX's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnedEdges {
    /// Smallest edge cost seen: the learned `l`.
    pub min: Score,
    /// Largest edge cost seen: the learned `u`.
    pub max: Score,
    /// Mean of the positive edge costs: our reading of the paper's "most likely increment" `u'`
    /// (0 if none was positive).
    pub mean_increment: f64,
    /// Mean of the negative edge costs: the "most likely decrement" `l'` (0 if none was negative).
    pub mean_decrement: f64,
    /// Number of edges measured.
    pub edges: u64,
}

impl LearnedEdges {
    /// The minimal and maximal sampled edge costs, for conditions (1).
    pub fn bounds(&self) -> EdgeBounds {
        EdgeBounds::Offline {
            l: self.min,
            u: self.max,
        }
    }

    /// The most likely decrement and increment, for conditions (2). The paper does not say how it
    /// computed them ("around u' = 59869 and l' = −53618" against extremes 50 times larger on Othello);
    /// we read "most likely" as the mean size of a rise and of a fall.
    pub fn likely_bounds(&self) -> EdgeBounds {
        EdgeBounds::Offline {
            l: self.mean_decrement.round() as Score,
            u: self.mean_increment.round() as Score,
        }
    }
}

/// Learns edge-cost bounds off-line by sampling `samples` games from `game`'s initial state.
///
/// Each sampled game is a random playout (uniform moves drawn from `Pcg64` seeded with `seed`); at every
/// position on it, **every** child is evaluated, so each position contributes all its edges, not only
/// the one played. An edge's cost is the child's static value minus the parent's, both in the view of
/// MAX, the player to move in the initial state (`evaluator` is in the side to move's view, so values
/// of positions where the other player moves are negated). Edges into finished games are skipped: their
/// values are outcomes, not evaluations. A playout stops after [`MAX_SAMPLE_PLIES`].
pub fn learn_offline<G, E>(
    game: &G,
    evaluator: &mut E,
    samples: usize,
    seed: u64,
) -> Result<LearnedEdges, FeError>
where
    G: ZeroSumGame,
    E: Evaluator<G>,
{
    if samples == 0 {
        return Err(FeError::NoSamples);
    }
    let mut rng = Pcg64::seed_from_u64(seed);
    let root = game.initial_state();
    let max_player = game.side_to_move(&root);
    let mut tally = Tally::default();
    let mut moves = MoveList::new();
    for _ in 0..samples {
        let mut state = root.clone();
        for _ in 0..MAX_SAMPLE_PLIES {
            if game.outcome(&state).is_some() {
                break;
            }
            moves.clear();
            game.moves(&state, &mut moves);
            let parent = max_view(game, evaluator, &state, max_player);
            for &mv in &moves {
                match game.apply(&mut state, mv) {
                    Some(child) => tally.edge(game, evaluator, &child, parent, max_player),
                    None => {
                        tally.edge(game, evaluator, &state, parent, max_player);
                        game.undo(&mut state, mv);
                    }
                }
            }
            let chosen = moves[rng.gen_range(0..moves.len())];
            game.play(&mut state, chosen);
        }
    }
    tally.finish(samples)
}

fn max_view<G: ZeroSumGame, E: Evaluator<G>>(
    game: &G,
    eval: &mut E,
    state: &G::State,
    max: usize,
) -> i64 {
    let v = i64::from(eval.evaluate(game, state));
    if game.side_to_move(state) == max {
        v
    } else {
        -v
    }
}

#[derive(Default)]
struct Tally {
    min: i64,
    max: i64,
    rises: (f64, u64),
    falls: (f64, u64),
    edges: u64,
}

impl Tally {
    fn edge<G: ZeroSumGame, E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &mut E,
        child: &G::State,
        parent: i64,
        max: usize,
    ) {
        if game.outcome(child).is_some() {
            return;
        }
        let edge = max_view(game, eval, child, max) - parent;
        if self.edges == 0 {
            (self.min, self.max) = (edge, edge);
        }
        self.min = self.min.min(edge);
        self.max = self.max.max(edge);
        if edge > 0 {
            self.rises = (self.rises.0 + edge as f64, self.rises.1 + 1);
        } else if edge < 0 {
            self.falls = (self.falls.0 + edge as f64, self.falls.1 + 1);
        }
        self.edges += 1;
    }

    fn finish(self, samples: usize) -> Result<LearnedEdges, FeError> {
        if self.edges == 0 {
            return Err(FeError::NoEdges { samples });
        }
        let mean = |(sum, n): (f64, u64)| if n == 0 { 0.0 } else { sum / n as f64 };
        let clamp = |x: i64| x.clamp(i64::from(Score::MIN), i64::from(Score::MAX)) as Score;
        Ok(LearnedEdges {
            min: clamp(self.min),
            max: clamp(self.max),
            mean_increment: mean(self.rises),
            mean_decrement: mean(self.falls),
            edges: self.edges,
        })
    }
}

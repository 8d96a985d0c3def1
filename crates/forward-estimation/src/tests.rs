//! The hook's conditions checked by hand, in the parent's negamax view, and off-line learning.

use game_trait::{
    Evaluator, ForwardPruning, Game, MoveList, Outcome, PlayerId, PruneContext, Score, ZeroSumGame,
};

use crate::*;

/// A game whose MAX moves add 1 or 2 to a counter and whose MIN moves subtract 5 (in MAX's view);
/// it ends after `plies` moves. Its edges in MAX's view are exactly {−5, +1, +2}.
struct Counter {
    plies: u8,
}

#[derive(Clone, Copy, Debug)]
struct Pos {
    total: i32,
    ply: u8,
}

impl Game for Counter {
    type State = Pos;
    type Move = i32;
    fn initial_state(&self) -> Pos {
        Pos { total: 0, ply: 0 }
    }
    fn apply(&self, s: &mut Pos, step: i32) -> Option<Pos> {
        Some(Pos {
            total: s.total + step,
            ply: s.ply + 1,
        })
    }
}

impl ZeroSumGame for Counter {
    fn side_to_move(&self, s: &Pos) -> PlayerId {
        usize::from(s.ply % 2)
    }
    fn outcome(&self, s: &Pos) -> Option<Outcome> {
        (s.ply == self.plies).then(|| Outcome::margin_of(Counter::total(s)))
    }
    fn moves(&self, s: &Pos, moves: &mut MoveList<i32>) {
        moves.extend_from_slice(if s.ply % 2 == 0 { &[1, 2] } else { &[-5] });
    }
}

impl Counter {
    /// The counter from the side to move's view.
    fn total(s: &Pos) -> i32 {
        s.total * if s.ply % 2 == 0 { 1 } else { -1 }
    }
}

/// The counter from the side to move's view.
struct Total;
impl Evaluator<Counter> for Total {
    fn evaluate(&mut self, _: &Counter, s: &Pos) -> Score {
        Counter::total(s)
    }
}

fn prune(fe: &mut ForwardEstimation, ctx: PruneContext) -> Option<Score> {
    ForwardPruning::<Counter>::prune(fe, &ctx)
}

fn ctx(
    parent_static: Score,
    child_static: Score,
    alpha: Score,
    child_depth: u32,
    child_is_max: bool,
) -> PruneContext {
    PruneContext {
        parent_static,
        child_static,
        alpha,
        beta: alpha + 1000,
        child_depth,
        child_is_max,
        parent_is_max: !child_is_max,
        ply: 1,
    }
}

/// Asymmetric bounds (l = −3, u = 100) tell the two cases apart: a MIN child is bounded with u,
/// a MAX child with l.
const ASYMMETRIC: EdgeBounds = EdgeBounds::Exact { l: -3, u: 100 };

#[test]
fn min_child_under_a_max_parent_is_pruned_when_c_plus_u_d_is_at_most_alpha() {
    let mut fe = ForwardEstimation::new(ASYMMETRIC);
    // c + u·d = −250 + 100·2 = −50.
    assert_eq!(
        prune(&mut fe, ctx(0, -250, -50, 2, false)),
        Some(-50),
        "equality prunes"
    );
    assert_eq!(prune(&mut fe, ctx(0, -250, -40, 2, false)), Some(-50));
    assert_eq!(prune(&mut fe, ctx(0, -250, -51, 2, false)), None);
}

#[test]
fn max_child_under_a_min_parent_is_pruned_when_c_plus_l_d_is_at_least_beta() {
    let mut fe = ForwardEstimation::new(ASYMMETRIC);
    // In MAX's view the child has c = 40 and can fall to at most c + l·d = 40 − 3·2 = 34. Its parent
    // (MIN) has α_P = −30 in its own view, i.e. the child's β is 30 in MAX's view: 34 ≥ 30, prune.
    // In the parent's view the child is −40 and worth at most −40 + 3·2 = −34 ≤ −30.
    assert_eq!(prune(&mut fe, ctx(0, -40, -30, 2, true)), Some(-34));
    // β = 34 exactly still prunes; β = 35 does not.
    assert_eq!(prune(&mut fe, ctx(0, -40, -34, 2, true)), Some(-34));
    assert_eq!(prune(&mut fe, ctx(0, -40, -35, 2, true)), None);
}

/// Where a player moves twice in a row the child is on the parent's side: the bound is the
/// parent's (u for a MAX parent, −l for a MIN one), whatever the child is.
#[test]
fn a_child_on_its_parents_side_is_bounded_by_the_parents_edge_costs() {
    let mut fe = ForwardEstimation::new(ASYMMETRIC);
    let same_side = |child_static, alpha, max| PruneContext {
        child_is_max: max,
        parent_is_max: max,
        ..ctx(0, child_static, alpha, 2, max)
    };
    // MAX parent, MAX child: c + u·d = −250 + 100·2 = −50, as for a MIN child of a MAX parent.
    assert_eq!(prune(&mut fe, same_side(-250, -50, true)), Some(-50));
    assert_eq!(prune(&mut fe, same_side(-250, -51, true)), None);
    // MIN parent, MIN child: −40 + 3·2 = −34, as for a MAX child of a MIN parent.
    assert_eq!(prune(&mut fe, same_side(-40, -34, false)), Some(-34));
    assert_eq!(prune(&mut fe, same_side(-40, -35, false)), None);
    // The node cut reads the parent's smallest rise the same way: −40 + l·d = −46 for a MAX
    // parent (β ≤ −46 settles it), −40 − u·d = −240 for a MIN parent.
    let mut cut = ForwardEstimation::new(ASYMMETRIC).with_reading(Reading::NodeCut);
    let cut_at = |fe: &mut ForwardEstimation, max, beta| {
        let ctx = PruneContext {
            beta,
            ..same_side(-40, -1000, max)
        };
        ForwardPruning::<Counter>::cut(fe, &ctx)
    };
    assert_eq!(cut_at(&mut cut, true, -46), Some(-46));
    assert_eq!(cut_at(&mut cut, true, -45), None);
    assert_eq!(cut_at(&mut cut, false, -240), Some(-240));
    assert_eq!(cut_at(&mut cut, false, -239), None);
}

#[test]
fn leaf_children_are_pruned_exactly_when_they_fail_low() {
    let mut fe = ForwardEstimation::new(ASYMMETRIC);
    assert_eq!(prune(&mut fe, ctx(0, 7, 7, 0, false)), Some(7));
    assert_eq!(prune(&mut fe, ctx(0, 8, 7, 0, true)), None);
}

#[test]
fn delta_scales_both_bounds() {
    let mut fe = ForwardEstimation::new(ASYMMETRIC).with_delta(0.5).unwrap();
    // MIN child: c + δu·d = −250 + 50·2 = −150.
    assert_eq!(prune(&mut fe, ctx(0, -250, -150, 2, false)), Some(-150));
    assert_eq!(prune(&mut fe, ctx(0, -250, -151, 2, false)), None);
    // MAX child: −40 − δl·d = −40 + 1.5·3 = −35.5, rounded down to −36.
    assert_eq!(prune(&mut fe, ctx(0, -40, -36, 3, true)), Some(-36));
    assert_eq!(prune(&mut fe, ctx(0, -40, -37, 3, true)), None);
    assert!(ForwardEstimation::new(ASYMMETRIC).with_delta(1.5).is_err());
    assert!(ForwardEstimation::new(ASYMMETRIC)
        .with_delta(f64::NAN)
        .is_err());
}

#[test]
fn online_bounds_learn_edges_in_max_view_and_reset_per_search() {
    let mut fe = ForwardEstimation::new(EdgeBounds::Online);
    assert_eq!(fe.current_bounds(), None);
    // A MAX parent at 10 sees a MIN child at 14: edge +4 in MAX's view; bounds (4, 4).
    // Pruning test with d = 1: 14 + 4 = 18 ≤ 20.
    assert_eq!(prune(&mut fe, ctx(10, 14, 20, 1, false)), Some(18));
    assert_eq!(fe.current_bounds(), Some((4, 4)));
    // A MIN parent at −14 (MAX's 14) sees a MAX child at 20 in MAX's view, −20 in the parent's:
    // edge +6 in MAX's view.
    prune(&mut fe, ctx(-14, -20, -1000, 1, true));
    assert_eq!(fe.current_bounds(), Some((4, 6)));
    // A MIN parent sees its child 9 better for itself: MAX's edge −9.
    prune(&mut fe, ctx(0, 9, -1000, 1, true));
    assert_eq!(fe.current_bounds(), Some((-9, 6)));
    // Now a MAX child under a MIN parent rises by at most −l = 9 per ply in the parent's view.
    assert_eq!(prune(&mut fe, ctx(0, -30, -12, 2, true)), Some(-12));
    ForwardPruning::<Counter>::start_search(&mut fe);
    assert_eq!(fe.current_bounds(), None);
    // Fixed bounds survive a new search.
    let mut exact = ForwardEstimation::new(ASYMMETRIC);
    ForwardPruning::<Counter>::start_search(&mut exact);
    assert_eq!(exact.current_bounds(), Some((-3, 100)));
}

#[test]
fn offline_learning_measures_edges_in_the_initial_players_view() {
    let game = Counter { plies: 6 };
    let learned = learn_offline(&game, &mut Total, 3, 1).unwrap();
    assert_eq!((learned.min, learned.max), (-5, 2));
    assert_eq!(learned.mean_increment, 1.5);
    assert_eq!(learned.mean_decrement, -5.0);
    // Plies 0..5 have 2, 1, 2, 1, 2 edges into unfinished positions; the last ply's edges end the game.
    assert_eq!(learned.edges, 3 * 8);
    assert_eq!(learned.bounds(), EdgeBounds::Offline { l: -5, u: 2 });
    assert_eq!(learned.likely_bounds(), EdgeBounds::Offline { l: -5, u: 2 });
    assert_eq!(
        learn_offline(&game, &mut Total, 0, 1),
        Err(FeError::NoSamples)
    );
    let over = Counter { plies: 1 };
    assert_eq!(
        learn_offline(&over, &mut Total, 2, 1),
        Err(FeError::NoEdges { samples: 2 })
    );
}

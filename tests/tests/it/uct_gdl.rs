//! UCT on GDL games through the `gdl` reasoner: a chance game against its expectimax value, and a
//! simultaneous-move game played mixed.

use gametree::game::{ChanceList, Game, GeneralGame, Limits, MoveList, Turn};
use gametree::gdl::{FluentSet, GdlGame, Loader};
use gametree::search::{Uct, UctConfig};

fn load(name: &str) -> GdlGame {
    let path = format!("{}/../crates/gdl/games/{name}", env!("CARGO_MANIFEST_DIR"));
    Loader::file(&path)
        .load()
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn uct(simulations: u64, seed: u64) -> Uct {
    Uct::new(UctConfig {
        simulations,
        seed,
        ..UctConfig::default()
    })
}

fn child(g: &GdlGame, s: &FluentSet, mv: <GdlGame as Game>::Move) -> FluentSet {
    let mut s = s.clone();
    g.play(&mut s, mv);
    s
}

/// Expectimax for turn-taking games with chance: each player maximises its own payoff, chance
/// averages. Returns every player's value.
fn expectimax(g: &GdlGame, s: &FluentSet) -> Vec<f64> {
    match g.turn(s) {
        Turn::Over => (0..g.players()).map(|p| g.payoff(s, p)).collect(),
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            g.legal_moves(s, p, &mut moves);
            moves
                .iter()
                .map(|&m| expectimax(g, &child(g, s, m)))
                .max_by(|a, b| a[p].total_cmp(&b[p]))
                .expect("a player to move has a move")
        }
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(s, &mut outcomes);
            let mut value = vec![0.0; g.players()];
            for &(m, prob) in &outcomes {
                for (v, c) in value.iter_mut().zip(expectimax(g, &child(g, s, m))) {
                    *v += prob * c;
                }
            }
            value
        }
        Turn::Simultaneous => panic!("expectimax is for turn-taking games"),
    }
}

#[test]
fn dice_duel_uct_gambles_and_estimates_the_expectimax_value() {
    // Alice's gamble is worth 4/9 = 0.444, her safe 3 only 5/12 = 0.417 (bob answers best).
    let g = load("dice_duel.kif");
    let s = g.initial_state();
    let mut moves = MoveList::new();
    g.legal_moves(&s, 0, &mut moves);
    let values: Vec<f64> = moves
        .iter()
        .map(|&m| expectimax(&g, &child(&g, &s, m))[0])
        .collect();
    let best = expectimax(&g, &s)[0];
    assert!((best - 4.0 / 9.0).abs() < 1e-9, "{values:?}");
    for seed in 0..3 {
        let a = uct(60_000, seed).analyse(&g, &s, &Limits::none());
        let chosen = moves
            .iter()
            .position(|&m| Some(m) == a.result.best_move)
            .expect("a legal move");
        assert_eq!(values[chosen], best, "seed {seed}: {:?}", a.arms);
        let mean = a.arms[chosen].mean.expect("visited");
        assert!((mean - best).abs() < 0.02, "seed {seed}: {mean} vs {best}");
    }
}

#[test]
fn rock_paper_scissors_is_played_mixed() {
    let g = load("rps3.kif");
    let s = g.initial_state();
    assert_eq!(g.turn(&s), Turn::Simultaneous);
    let a = uct(30_000, 1).analyse(&g, &s, &Limits::none());
    assert_eq!(a.arms.len(), 6);
    for arm in &a.arms {
        assert!(arm.visits > 30_000 / 5, "{:?}", a.arms);
    }
    assert!((a.root_mean[0] - 0.5).abs() < 0.05, "{:?}", a.root_mean);
    assert!((a.root_mean[0] + a.root_mean[1] - 1.0).abs() < 1e-9);
}

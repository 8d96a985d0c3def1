//! Can't Stop, the small variant (`games/cant_stop_mini.kif`), against a hand-written model of
//! the same rules: along seeded random playouts the description and the model agree on every
//! role's legal moves, the chance outcomes and their probabilities, the successor states and the
//! goals; the game trees agree in size (perft); and the dice give the exact probabilities of the
//! sums and of a bust that counting the 16 equally likely rolls gives.

use std::collections::BTreeMap;

use game_trait::{Game, GeneralGame, Turn};
use gdl::{FluentSet, GdlGame, GdlRound, Loader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{
    assert_even_coin, assert_moves_agree, assert_payoffs_agree, child, choices, Finished,
};

const RULES: &str = include_str!("../../games/cant_stop_mini.kif");
const PLAYERS: [&str; 2] = ["red", "blue"];
/// Columns 2, 3, 4 (index 0, 1, 2) and their heights.
const TOP: [u8; 3] = [2, 3, 2];
const RUNNERS: usize = 2;

fn game() -> GdlGame {
    Loader::text(RULES).load().unwrap()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Track {
    Empty,
    Runner(u8),
    Claimed(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// Rolling die `i` (0-based).
    Roll(usize),
    Choose,
    Decide,
}

/// The game as a player reads the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    control: usize,
    phase: Phase,
    dice: [u8; 4],
    marker: [[u8; 3]; 2],
    track: [Track; 3],
}

impl Model {
    fn new() -> Model {
        Model {
            control: 0,
            phase: Phase::Roll(0),
            dice: [1; 4],
            marker: [[0; 3]; 2],
            track: [Track::Empty; 3],
        }
    }

    fn claimed_by(&self, p: usize) -> usize {
        self.track
            .iter()
            .filter(|&&t| t == Track::Claimed(p))
            .count()
    }

    fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| self.claimed_by(p) >= 2)
    }

    fn runners(&self) -> usize {
        let on = |t: &&Track| matches!(t, Track::Runner(_));
        self.track.iter().filter(on).count()
    }

    /// The state after one step on column `c`, if it can take one.
    fn step(&self, c: usize) -> Option<Model> {
        let height = match self.track[c] {
            Track::Runner(k) if k < TOP[c] => k,
            Track::Empty if self.runners() < RUNNERS => self.marker[self.control][c],
            _ => return None,
        };
        let mut s = self.clone();
        s.track[c] = Track::Runner(height + 1);
        Some(s)
    }

    /// The three ways to pair the dice, as pairs of sums.
    fn pairings(&self) -> [(u8, u8); 3] {
        let d = self.dice;
        [
            (d[0] + d[1], d[2] + d[3]),
            (d[0] + d[2], d[1] + d[3]),
            (d[0] + d[3], d[1] + d[2]),
        ]
    }

    /// The moves of the player in control after the roll and the state each leads to: a pairing
    /// advances both sums when it can, in either order, else each one that can alone.
    fn advances(&self) -> BTreeMap<String, Model> {
        let mut out = BTreeMap::new();
        for (x, y) in self.pairings() {
            let (a, b) = (x.min(y), x.max(y));
            let (ca, cb) = (a as usize - 2, b as usize - 2);
            if a == b {
                // Two steps on one column, or one if only one fits.
                if let Some(s) = self.step(ca) {
                    out.insert(format!("(advance {a} {a})"), s.step(ca).unwrap_or(s));
                }
                continue;
            }
            let both = |first: usize, second: usize| self.step(first)?.step(second);
            match both(ca, cb).or_else(|| both(cb, ca)) {
                Some(s) => {
                    out.insert(format!("(advance {a} {b})"), s);
                }
                None => {
                    for (sum, c) in [(a, ca), (b, cb)] {
                        if let Some(s) = self.step(c) {
                            out.insert(format!("(advance_one {sum})"), s);
                        }
                    }
                }
            }
        }
        out
    }

    /// Every role's legal moves (red, blue, random), none when the game is over.
    fn legal(&self) -> [Vec<String>; 3] {
        if self.winner().is_some() {
            return Default::default();
        }
        let noop = || vec!["noop".to_string()];
        let mover = match self.phase {
            Phase::Roll(_) => noop(),
            Phase::Choose => {
                let moves: Vec<String> = self.advances().into_keys().collect();
                if moves.is_empty() {
                    vec!["bust".into()]
                } else {
                    moves
                }
            }
            Phase::Decide => vec!["roll".into(), "stop".into()],
        };
        let chance = match self.phase {
            Phase::Roll(_) => vec!["(roll 1)".into(), "(roll 2)".into()],
            _ => noop(),
        };
        let mut out = [noop(), noop(), chance];
        out[self.control] = mover;
        out
    }

    /// The state after the move of the role with a choice (or the single non-noop move).
    fn play(&self, mv: &str) -> Model {
        let mut s = self.clone();
        match self.phase {
            Phase::Roll(i) => {
                s.dice[i] = if mv == "(roll 1)" { 1 } else { 2 };
                s.phase = if i == 3 {
                    Phase::Choose
                } else {
                    Phase::Roll(i + 1)
                };
            }
            Phase::Choose if mv == "bust" => {
                for t in s.track.iter_mut() {
                    if matches!(t, Track::Runner(_)) {
                        *t = Track::Empty;
                    }
                }
                s.end_turn();
            }
            Phase::Choose => {
                s = self.advances().remove(mv).expect("a legal advance");
                s.phase = Phase::Decide;
            }
            Phase::Decide if mv == "roll" => s.phase = Phase::Roll(0),
            Phase::Decide => {
                let p = self.control;
                for (c, (track, top)) in s.track.iter_mut().zip(TOP).enumerate() {
                    if let Track::Runner(k) = *track {
                        s.marker[p][c] = k;
                        *track = if k == top {
                            Track::Claimed(p)
                        } else {
                            Track::Empty
                        };
                    }
                }
                s.end_turn();
            }
        }
        s
    }

    fn end_turn(&mut self) {
        self.control = 1 - self.control;
        self.phase = Phase::Roll(0);
    }

    /// The fluents of the description's state, sorted.
    fn fluents(&self) -> Vec<String> {
        let mut out = vec![
            format!("(control {})", PLAYERS[self.control]),
            match self.phase {
                Phase::Roll(i) => format!("(phase r{})", i + 1),
                Phase::Choose => "(phase choose)".into(),
                Phase::Decide => "(phase decide)".into(),
            },
        ];
        for (i, d) in self.dice.iter().enumerate() {
            out.push(format!("(die {} {d})", i + 1));
        }
        for (p, name) in PLAYERS.iter().enumerate() {
            for c in 0..3 {
                out.push(format!("(marker {name} {} {})", c + 2, self.marker[p][c]));
            }
        }
        for (c, t) in self.track.iter().enumerate() {
            out.push(match t {
                Track::Empty => format!("(track {} empty)", c + 2),
                Track::Runner(k) => format!("(track {} {k})", c + 2),
                Track::Claimed(p) => format!("(track {} {})", c + 2, PLAYERS[*p]),
            });
        }
        out.sort();
        out
    }

    fn goals(&self) -> [f64; 2] {
        match self.winner() {
            Some(0) => [1.0, 0.0],
            Some(_) => [0.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    /// Leaves `depth` moves below (a finished game is a leaf).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.winner().is_some() {
            return 1;
        }
        let legal = self.legal();
        let moves = match self.phase {
            Phase::Roll(_) => &legal[2],
            _ => &legal[self.control],
        };
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

/// Checks that the description's state and the model agree in every respect but the moves'
/// outcomes.
fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    assert_eq!(g.fluent_names(s), m.fluents());
    assert_moves_agree(g, s, &m.legal(), m);
    assert_eq!(g.is_terminal(s), m.winner().is_some());
    assert_payoffs_agree(g, s, &m.goals(), m);
    match g.turn(s) {
        Turn::Chance => {
            assert!(matches!(m.phase, Phase::Roll(_)));
            assert_even_coin(g, s);
        }
        Turn::Player(p) => assert_eq!(p, m.control),
        Turn::Over => assert!(m.winner().is_some()),
        Turn::Simultaneous => panic!("simultaneous"),
    }
}

#[test]
fn the_description_plays_as_the_model_along_random_playouts() {
    let g = game();
    let mut rng = Pcg64::seed_from_u64(2016);
    let (mut states, mut busts, mut claims, mut wins) = (0, 0, 0, [0; 2]);
    for _ in 0..300 {
        let mut s = g.initial_state();
        let mut m = Model::new();
        loop {
            agree(&g, &s, &m);
            states += 1;
            if let Some(w) = m.winner() {
                wins[w] += 1;
                break;
            }
            let c = choices(&g, &s);
            let (name, mv, _) = c[rng.gen_range(0..c.len())].clone();
            busts += usize::from(name == "bust");
            let next = m.play(&name);
            claims += next.claimed_by(m.control) - m.claimed_by(m.control);
            s = child(&g, &s, mv);
            m = next;
        }
    }
    // The playouts went through the rules that matter.
    assert!(states > 5_000, "{states}");
    assert!(
        busts > 100 && claims > 300,
        "{busts} busts, {claims} claims"
    );
    assert!(wins[0] > 50 && wins[1] > 50, "{wins:?}");
}

#[test]
fn the_game_tree_has_the_models_size() {
    let g = game();
    // Two full turns of red and the start of blue's, with every roll and choice.
    for depth in [4, 6, 7, 12, 14] {
        assert_eq!(
            common::perft(&g, &g.initial_state(), depth, Finished::Leaf),
            Model::new().perft(depth),
            "depth {depth}"
        );
    }
    // From a state where both runners are out and a column is nearly claimed.
    let mut s = g.initial_state();
    let mut m = Model::new();
    for mv in [
        "(roll 1)",
        "(roll 1)",
        "(roll 1)",
        "(roll 2)",
        "(advance 2 3)",
        "roll",
    ] {
        s = child(&g, &s, g.find_move(mv).unwrap());
        m = m.play(mv);
    }
    agree(&g, &s, &m);
    assert_eq!(common::perft(&g, &s, 12, Finished::Leaf), m.perft(12));
}

/// The probability of each set of the player's moves after all four dice are rolled from `s`,
/// through the description's chance outcomes.
fn roll_distribution(g: &GdlGame, s: &FluentSet) -> BTreeMap<Vec<String>, f64> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(s.clone(), 1.0)];
    while let Some((s, p)) = stack.pop() {
        if g.turn(&s) == Turn::Chance {
            for (_, mv, q) in choices(g, &s) {
                stack.push((child(g, &s, mv), p * q));
            }
        } else {
            let mut moves: Vec<String> = choices(g, &s).into_iter().map(|c| c.0).collect();
            moves.sort();
            *out.entry(moves).or_insert(0.0) += p;
        }
    }
    out
}

/// The same from the model: each of the 16 ordered rolls has probability 1/16.
fn model_distribution(m: &Model) -> BTreeMap<Vec<String>, f64> {
    let mut out = BTreeMap::new();
    for roll in 0..16u8 {
        let mut m = m.clone();
        m.dice = [0, 1, 2, 3].map(|i| 1 + (roll >> i & 1));
        m.phase = Phase::Choose;
        *out.entry(m.legal()[m.control].clone()).or_insert(0.0) += 1.0 / 16.0;
    }
    out
}

fn close(a: &BTreeMap<Vec<String>, f64>, b: &BTreeMap<Vec<String>, f64>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, pa), (kb, pb))| ka == kb && (pa - pb).abs() < 1e-12)
}

#[test]
fn each_die_shows_each_face_with_probability_one_half() {
    let g = game();
    let mut s = g.initial_state();
    for _ in 0..4 {
        let c = choices(&g, &s);
        let names: Vec<&str> = c.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["(roll 1)", "(roll 2)"]);
        assert!(c.iter().all(|c| c.2 == 0.5));
        s = child(&g, &s, c[1].1);
    }
    assert_eq!(g.turn(&s), Turn::Player(0));
}

#[test]
fn the_sums_come_up_as_often_as_counting_the_rolls_says() {
    let g = game();
    let s = g.initial_state();
    let through_rules = roll_distribution(&g, &s);
    assert!(close(&through_rules, &model_distribution(&Model::new())));
    // By hand: a pair of sums is one of the three pairings of the dice. Four ones: only 2+2
    // (1/16); three ones: 2+3 (4/16); two of each: 2+4 or 3+3 (6/16); and so on.
    let p = |moves: &[&str]| {
        let key: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        through_rules.get(&key).copied().unwrap_or(0.0)
    };
    assert_eq!(p(&["(advance 2 2)"]), 1.0 / 16.0);
    assert_eq!(p(&["(advance 2 3)"]), 4.0 / 16.0);
    assert_eq!(p(&["(advance 2 4)", "(advance 3 3)"]), 6.0 / 16.0);
    assert_eq!(p(&["(advance 3 4)"]), 4.0 / 16.0);
    assert_eq!(p(&["(advance 4 4)"]), 1.0 / 16.0);
    // A sum of 3 needs a one and a two: 14 rolls in 16.
    let three: f64 = (through_rules.iter())
        .filter(|(moves, _)| moves.iter().any(|m| m.contains('3')))
        .map(|(_, p)| p)
        .sum();
    assert!((three - 14.0 / 16.0).abs() < 1e-12);
}

#[test]
fn with_runners_on_two_and_three_only_four_twos_bust() {
    let g = game();
    let mut s = g.initial_state();
    let mut m = Model::new();
    for mv in [
        "(roll 1)",
        "(roll 1)",
        "(roll 1)",
        "(roll 2)",
        "(advance 2 3)",
        "roll",
    ] {
        s = child(&g, &s, g.find_move(mv).unwrap());
        m = m.play(mv);
    }
    let through_rules = roll_distribution(&g, &s);
    assert!(close(&through_rules, &model_distribution(&m)));
    assert_eq!(through_rules[&vec!["bust".to_string()]], 1.0 / 16.0);
    // Three ones and a two pair as 2+3 (both runners climb) or 3+2; a 4 has no runner left.
    assert_eq!(
        through_rules[&vec!["(advance 2 3)".to_string()]],
        4.0 / 16.0
    );
}

#[test]
fn the_round_encoding_is_small() {
    let round = GdlRound::new(game()).unwrap();
    let stats = round.stats();
    eprintln!("cant_stop_mini: {stats:?} in {:?}", round.encode_time());
    assert!(stats.max_domain <= 16, "{stats:?}");
}

//! Yahtzee mini (`games/yahtzee_mini.kif`), a GDL-II dice game, against a hand-written model of
//! the same rules (3 dice, categories chance, yahtzee and straight): along seeded random playouts
//! and over every move sequence of the first plies both give the same legal moves to every role,
//! the same dice and scores, the same end and goals; optimal play of a last turn wins as often
//! through the description as in the model; each die shows its six faces equally often and every
//! ordered throw is equally likely.

use std::collections::{BTreeMap, HashMap};

use game_trait::{ChanceList, Game, GeneralGame, Turn};
use gdl::{FluentSet, GdlGame, GdlMove, Loader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{assert_payoffs_agree, sorted_names, GameModel};

const RULES: &str = include_str!("../../games/yahtzee_mini.kif");

const CATEGORIES: [&str; 3] = ["chance", "yahtzee", "straight"];
const ROLES: [&str; 3] = ["alice", "bob", "random"];
const MASKS: [[u8; 3]; 7] = [
    [0, 0, 1],
    [0, 1, 0],
    [0, 1, 1],
    [1, 0, 0],
    [1, 0, 1],
    [1, 1, 0],
    [1, 1, 1],
];

/// The points the dice score in category `c`.
fn points(c: usize, dice: [u8; 3]) -> u32 {
    let mut sorted = dice;
    sorted.sort();
    match c {
        0 => dice.iter().map(|&d| u32::from(d)).sum(),
        1 if dice[0] == dice[1] && dice[1] == dice[2] => 50,
        2 if sorted[1] == sorted[0] + 1 && sorted[2] == sorted[1] + 1 => 30,
        _ => 0,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum At {
    /// The die `random` throws next.
    Die(usize),
    Decide,
}

/// The game as a player reads the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    mover: usize,
    at: At,
    dice: [Option<u8>; 3],
    /// The dice still to fall in this throw.
    marked: [bool; 3],
    rerolls: u8,
    scored: [[Option<u32>; 3]; 2],
}

impl Model {
    fn new() -> Model {
        Model {
            mover: 0,
            at: At::Die(0),
            dice: [None; 3],
            marked: [true; 3],
            rerolls: 2,
            scored: [[None; 3]; 2],
        }
    }

    fn over(&self) -> bool {
        self.scored.iter().flatten().all(Option::is_some)
    }

    fn total(&self, p: usize) -> u32 {
        self.scored[p].iter().flatten().sum()
    }

    fn moves(&self, r: usize) -> Vec<String> {
        if self.over() {
            return Vec::new();
        }
        let noop = vec!["noop".to_string()];
        match (r, self.at) {
            (2, At::Die(_)) => (1..=6).map(|v| format!("(roll {v})")).collect(),
            (2, At::Decide) => noop,
            (r, _) if r != self.mover => noop,
            (_, At::Die(_)) => noop,
            (_, At::Decide) => {
                let mut v = Vec::new();
                if self.rerolls > 0 {
                    v.extend(
                        MASKS
                            .iter()
                            .map(|m| format!("(reroll {} {} {})", m[0], m[1], m[2])),
                    );
                }
                v.extend(
                    (0..3)
                        .filter(|&c| self.scored[self.mover][c].is_none())
                        .map(|c| format!("(score {})", CATEGORIES[c])),
                );
                v
            }
        }
    }

    /// The next die to fall after die `i` (or from the first), or the player's choice.
    fn next_at(&self, from: usize) -> At {
        (from..3)
            .find(|&j| self.marked[j])
            .map_or(At::Decide, At::Die)
    }

    /// The fluents the description should hold for this state.
    fn fluents(&self) -> Vec<String> {
        let mut v = vec![
            format!("(control {})", ROLES[self.mover]),
            match self.at {
                At::Die(i) => format!("(at {})", i + 1),
                At::Decide => "(at decide)".to_string(),
            },
            format!("(rerolls {})", self.rerolls),
        ];
        for i in 0..3 {
            if let Some(d) = self.dice[i] {
                v.push(format!("(die {} {d})", i + 1));
            }
            if self.marked[i] {
                v.push(format!("(marked {})", i + 1));
            }
        }
        for (role, scored) in ROLES.iter().zip(&self.scored) {
            for (c, s) in CATEGORIES.iter().zip(scored) {
                if let Some(s) = s {
                    v.push(format!("(scored {role} {c} {s})"));
                }
            }
        }
        v.sort();
        v
    }
}

impl GameModel for Model {
    fn chooser(&self) -> Option<(usize, Vec<String>)> {
        if self.over() {
            return None;
        }
        match self.at {
            At::Die(_) => Some((2, self.moves(2))),
            At::Decide => Some((self.mover, self.moves(self.mover))),
        }
    }

    fn play(&mut self, mv: &str) {
        match self.at {
            At::Die(i) => {
                let v: u8 = mv
                    .trim_start_matches("(roll ")
                    .trim_end_matches(')')
                    .parse()
                    .unwrap();
                self.dice[i] = Some(v);
                self.marked[i] = false;
                self.at = self.next_at(i + 1);
            }
            At::Decide if mv.starts_with("(reroll ") => {
                let bits = mv[8..mv.len() - 1].split(' ');
                for (i, bit) in bits.enumerate() {
                    if bit == "1" {
                        self.dice[i] = None;
                        self.marked[i] = true;
                    }
                }
                self.rerolls -= 1;
                self.at = self.next_at(0);
            }
            At::Decide => {
                let c = CATEGORIES
                    .iter()
                    .position(|c| mv == format!("(score {c})"))
                    .expect("a category");
                let dice = self.dice.map(|d| d.expect("every die has fallen"));
                self.scored[self.mover][c] = Some(points(c, dice));
                self.mover = 1 - self.mover;
                self.at = At::Die(0);
                self.dice = [None; 3];
                self.marked = [true; 3];
                self.rerolls = 2;
            }
        }
    }

    fn payoff(&self, p: usize) -> f64 {
        match self.total(p).cmp(&self.total(1 - p)) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }
}

fn names(g: &GdlGame, moves: &[GdlMove]) -> Vec<String> {
    sorted_names(g, moves)
}

fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    if !m.over() {
        // In a terminal state the description moves no die and no turn: compare the scores.
        assert_eq!(g.fluent_names(s), m.fluents(), "{m:?}");
    }
    for (r, role) in ROLES.iter().enumerate() {
        let mut expected = m.moves(r);
        expected.sort();
        assert_eq!(names(g, &g.role_moves(s, r)), expected, "{role} in {m:?}");
    }
    match m.chooser() {
        None => {
            assert_eq!(g.turn(s), Turn::Over);
            let scores: Vec<String> = g
                .fluent_names(s)
                .into_iter()
                .filter(|f| f.starts_with("(scored "))
                .collect();
            let expected: Vec<String> = m
                .fluents()
                .into_iter()
                .filter(|f| f.starts_with("(scored "))
                .collect();
            assert_eq!(scores, expected);
            assert_payoffs_agree(g, s, &[m.payoff(0), m.payoff(1)], m);
        }
        Some((2, _)) => assert_eq!(g.turn(s), Turn::Chance),
        Some((p, _)) => assert_eq!(g.turn(s), Turn::Player(p)),
    }
}

fn child(g: &GdlGame, s: &FluentSet, mv: &str) -> FluentSet {
    let mv = g.find_move(mv).unwrap_or_else(|| panic!("no move {mv}"));
    let mut s = s.clone();
    g.play(&mut s, mv);
    s
}

fn perft(g: &GdlGame, s: &FluentSet, m: &Model, depth: u32) -> u64 {
    agree(g, s, m);
    match m.chooser() {
        Some((_, moves)) if depth > 0 => moves
            .iter()
            .map(|mv| {
                let mut next = m.clone();
                next.play(mv);
                perft(g, &child(g, s, mv), &next, depth - 1)
            })
            .sum(),
        _ => 1,
    }
}

#[test]
fn the_first_plies_agree_with_the_model() {
    let g = Loader::text(RULES).load().unwrap();
    // A throw of three dice, a choice (7 rerolls or 3 categories), then the next throw.
    let depth = 6;
    let count = perft(&g, &g.initial_state(), &Model::new(), depth);
    assert_eq!(count, common::model_perft(&Model::new(), depth));
    assert!(count > 50_000, "{count}");
}

#[test]
fn random_playouts_agree_with_the_model() {
    let g = Loader::text(RULES).load().unwrap();
    let mut rng = Pcg64::seed_from_u64(1);
    let mut results = [0; 3];
    let mut patterns = [0; 3];
    for _ in 0..300 {
        let mut s = g.initial_state();
        let mut m = Model::new();
        loop {
            agree(&g, &s, &m);
            let Some((_, moves)) = m.chooser() else {
                break;
            };
            let mv = &moves[rng.gen_range(0..moves.len())];
            s = child(&g, &s, mv);
            m.play(mv);
        }
        results[(m.payoff(0) * 2.0) as usize] += 1;
        for c in 1..3 {
            patterns[c] += m.scored.iter().filter(|s| s[c] > Some(0)).count();
        }
    }
    // Both players win games, and the yahtzee and the straight are scored now and then.
    assert!(results[0] > 50 && results[2] > 50, "{results:?}");
    assert!(patterns[1] > 5 && patterns[2] > 20, "{patterns:?}");
}

/// The rules with some of alice's and bob's scores set in advance, bob to move: the game is what
/// is left.
fn endgame(alice: &[(usize, u32)], bob: &[(usize, u32)]) -> (GdlGame, Model) {
    let mut m = Model::new();
    m.mover = 1;
    let mut init = String::new();
    for &(c, v) in alice {
        m.scored[0][c] = Some(v);
        init += &format!("(init (scored alice {} {v}))\n", CATEGORIES[c]);
    }
    for &(c, v) in bob {
        m.scored[1][c] = Some(v);
        init += &format!("(init (scored bob {} {v}))\n", CATEGORIES[c]);
    }
    let text = RULES.replace(
        "(init (control alice))",
        &format!("(init (control bob))\n{init}"),
    );
    assert_ne!(text, RULES);
    (Loader::text(&text).load().unwrap(), m)
}

#[test]
fn a_last_turn_is_won_as_often_as_the_model_says() {
    for (alice, bob) in [
        // Bob needs the yahtzee.
        (vec![(0, 12), (1, 0), (2, 30)], vec![(0, 10), (2, 30)]),
        // Bob needs the straight.
        (vec![(0, 12), (1, 50), (2, 0)], vec![(0, 11), (1, 50)]),
        // Bob needs 14 or more from chance (13 draws).
        (vec![(0, 13), (1, 0), (2, 30)], vec![(1, 0), (2, 30)]),
        // Bob's chance, then alice's straight: bob at 30 plus his chance, alice at 10 plus 30
        // or 0.
        (vec![(0, 10), (1, 0)], vec![(1, 0), (2, 30)]),
    ] {
        let (g, m) = endgame(&alice, &bob);
        let through_rules = common::value_by_rules(&g, &g.initial_state(), 1, &mut HashMap::new());
        let by_model = common::value_by_model(&m, 1, &mut HashMap::new());
        assert!(
            (through_rules - by_model).abs() < 1e-9,
            "{alice:?} {bob:?}: {through_rules} through the rules, {by_model} by the model"
        );
        assert!(0.0 < by_model && by_model < 1.0, "{by_model}");
    }
    // Three dice all alike within three throws: 0.2177 (a pair kept, or a single die when all
    // differ).
    let (g, _) = endgame(&[(0, 12), (1, 0), (2, 30)], &[(0, 10), (2, 30)]);
    let v = common::value_by_rules(&g, &g.initial_state(), 1, &mut HashMap::new());
    assert!((0.2176..0.2178).contains(&v), "{v}");
}

#[test]
fn a_die_shows_six_faces_equally_often() {
    let g = Loader::text(RULES).load().unwrap();
    let s = g.initial_state();
    assert_eq!(g.turn(&s), Turn::Chance);
    let mut outcomes = ChanceList::new();
    g.chance_outcomes(&s, &mut outcomes);
    let moves: Vec<GdlMove> = outcomes.iter().map(|&(m, _)| m).collect();
    let expected: Vec<String> = (1..=6).map(|v| format!("(roll {v})")).collect();
    assert_eq!(names(&g, &moves), expected);
    assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / 6.0).abs() < 1e-12));
}

/// The dice once the player is to choose, with their probabilities through the chance outcomes.
fn throw_distribution(g: &GdlGame, s: &FluentSet) -> BTreeMap<Vec<String>, f64> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(s.clone(), 1.0)];
    while let Some((s, p)) = stack.pop() {
        if g.turn(&s) != Turn::Chance {
            let dice: Vec<String> = g
                .fluent_names(&s)
                .into_iter()
                .filter(|f| f.starts_with("(die "))
                .collect();
            *out.entry(dice).or_insert(0.0) += p;
            continue;
        }
        let mut outcomes = ChanceList::new();
        g.chance_outcomes(&s, &mut outcomes);
        for &(mv, q) in outcomes.iter() {
            let mut next = s.clone();
            g.play(&mut next, mv);
            stack.push((next, p * q));
        }
    }
    out
}

#[test]
fn every_ordered_throw_is_equally_likely() {
    let g = Loader::text(RULES).load().unwrap();
    let all = throw_distribution(&g, &g.initial_state());
    assert_eq!(all.len(), 216);
    assert!(all.values().all(|&p| (p - 1.0 / 216.0).abs() < 1e-12));
    // The chance of three alike, and of a straight, in one throw: 6/216 and 24/216.
    let alike = all.keys().filter(|k| {
        let v: Vec<&str> = k.iter().map(|f| &f[7..8]).collect();
        v[0] == v[1] && v[1] == v[2]
    });
    assert!((alike.map(|k| all[k]).sum::<f64>() - 6.0 / 216.0).abs() < 1e-12);
    // Throw 1 2 3, then dice 1 and 3 again: die 2 stays, the others are uniform.
    let mut s = g.initial_state();
    for mv in ["(roll 1)", "(roll 2)", "(roll 3)", "(reroll 1 0 1)"] {
        s = child(&g, &s, mv);
    }
    let again = throw_distribution(&g, &s);
    assert_eq!(again.len(), 36);
    for (dice, p) in &again {
        assert!(dice.contains(&"(die 2 2)".to_string()), "{dice:?}");
        assert!((p - 1.0 / 36.0).abs() < 1e-12);
    }
}

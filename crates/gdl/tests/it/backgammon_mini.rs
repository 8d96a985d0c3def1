//! Backgammon, the small variant (`games/backgammon_mini.kif`), against a hand-written model of
//! the same rules, which keeps a board of points rather than the description's progress pairs:
//! along seeded random playouts the description and the model agree on every role's legal moves,
//! the chance outcomes and their probabilities, the successor states and the goals; the game
//! trees agree in size (perft); and the dice give the rolls the probabilities that counting the
//! four equally likely ordered rolls gives.

use std::collections::BTreeMap;

use game_trait::{Game, GeneralGame, Turn};
use gdl::{FluentSet, GdlGame, GdlRound, Loader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{
    assert_even_coin, assert_moves_agree, assert_payoffs_agree, child, choices, Finished,
};

const RULES: &str = include_str!("../../games/backgammon_mini.kif");
const PLAYERS: [&str; 2] = ["white", "black"];
/// Points 1 to 8; a checker's progress is 0 on the bar, 1 to 8 on the board, 9 off.
const POINTS: u8 = 8;
const OFF: u8 = 9;
/// The first progress in the home board (white's points 7 and 8, black's 2 and 1).
const HOME: u8 = 7;

fn game() -> GdlGame {
    Loader::text(RULES).load().unwrap()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    Roll1,
    Roll2,
    Move,
}

/// The game as a player reads the rules: the board is read point by point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    control: usize,
    phase: Phase,
    /// The first die, between the two rolls.
    die: Option<u8>,
    /// The dice still to play, sorted.
    left: Vec<u8>,
    /// Each player's checkers' progress, sorted (back checker first).
    men: [[u8; 2]; 2],
}

/// The point a checker of player `p` with progress `x` stands on, if it is on the board.
fn point(p: usize, x: u8) -> Option<u8> {
    match x {
        1..=POINTS if p == 0 => Some(x),
        1..=POINTS => Some(POINTS + 1 - x),
        _ => None,
    }
}

impl Model {
    fn new() -> Model {
        Model {
            control: 0,
            phase: Phase::Roll1,
            die: None,
            left: Vec::new(),
            men: [[1, 1], [1, 1]],
        }
    }

    fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| self.men[p] == [OFF, OFF])
    }

    /// How many checkers of player `p` stand on point `pt`.
    fn count(&self, p: usize, pt: u8) -> usize {
        self.men[p]
            .iter()
            .filter(|&&x| point(p, x) == Some(pt))
            .count()
    }

    /// The state after the player in control moves checker `c` (0: back, 1: front) by `d`, if
    /// the rules allow it.
    fn moved(&self, c: usize, d: u8) -> Option<Model> {
        let p = self.control;
        let men = self.men[p];
        let x = men[c];
        if x == OFF || (c == 1 && men[0] == men[1]) {
            return None;
        }
        // A checker on the bar enters before any other moves.
        if men.contains(&0) && x != 0 {
            return None;
        }
        let t = x + d;
        if t > POINTS {
            // Bearing off: every checker home; past the edge only from the farthest checker.
            let home = men.iter().all(|&y| y >= HOME);
            let farther = men.iter().any(|&y| y < x);
            if !home || (t > OFF && farther) {
                return None;
            }
        } else if self.count(1 - p, point(p, t).unwrap()) >= 2 {
            return None;
        }
        let mut s = self.clone();
        let t = t.min(OFF);
        s.men[p][c] = t;
        if let Some(pt) = point(p, t) {
            if self.count(1 - p, pt) == 1 {
                let q = 1 - p;
                let blot = (0..2).find(|&i| point(q, s.men[q][i]) == Some(pt)).unwrap();
                s.men[q][blot] = 0;
                s.men[q].sort();
            }
        }
        s.men[p].sort();
        let used = s.left.iter().position(|&e| e == d).unwrap();
        s.left.remove(used);
        if s.left.is_empty() {
            s.end_turn();
        }
        Some(s)
    }

    fn end_turn(&mut self) {
        self.left.clear();
        self.control = 1 - self.control;
        self.phase = Phase::Roll1;
    }

    /// The moves of the player in control in the move phase, and where they lead.
    fn moves(&self) -> BTreeMap<String, Model> {
        let mut out = BTreeMap::new();
        let mut dice = self.left.clone();
        dice.dedup();
        for d in dice {
            for (c, name) in ["back", "front"].iter().enumerate() {
                if let Some(s) = self.moved(c, d) {
                    out.insert(format!("(move {name} {d})"), s);
                }
            }
        }
        if out.is_empty() {
            let mut s = self.clone();
            s.end_turn();
            out.insert("pass".into(), s);
        }
        out
    }

    /// Every role's legal moves (white, black, random), none when the game is over.
    fn legal(&self) -> [Vec<String>; 3] {
        if self.winner().is_some() {
            return Default::default();
        }
        let noop = || vec!["noop".to_string()];
        let (mover, chance) = match self.phase {
            Phase::Move => (self.moves().into_keys().collect(), noop()),
            _ => (noop(), vec!["(roll 1)".into(), "(roll 2)".into()]),
        };
        let mut out = [noop(), noop(), chance];
        out[self.control] = mover;
        out
    }

    /// The state after the move of the role with a choice.
    fn play(&self, mv: &str) -> Model {
        let roll = |mv: &str| if mv == "(roll 1)" { 1 } else { 2 };
        let mut s = self.clone();
        match self.phase {
            Phase::Roll1 => {
                s.die = Some(roll(mv));
                s.phase = Phase::Roll2;
            }
            Phase::Roll2 => {
                let (a, b) = (s.die.take().unwrap(), roll(mv));
                s.left = if a == b {
                    vec![a; 4]
                } else {
                    vec![a.min(b), a.max(b)]
                };
                s.phase = Phase::Move;
            }
            Phase::Move => s = self.moves().remove(mv).expect("a legal move"),
        }
        s
    }

    fn fluents(&self) -> Vec<String> {
        let mut out = vec![
            format!("(control {})", PLAYERS[self.control]),
            match self.phase {
                Phase::Roll1 => "(phase roll1)".into(),
                Phase::Roll2 => "(phase roll2)".into(),
                Phase::Move => "(phase move)".into(),
            },
            format!("(whites (on {} {}))", self.men[0][0], self.men[0][1]),
            format!("(blacks (on {} {}))", self.men[1][0], self.men[1][1]),
        ];
        out.extend(self.die.map(|d| format!("(die {d})")));
        if !self.left.is_empty() {
            let digits: String = self.left.iter().map(|d| d.to_string()).collect();
            out.push(format!("(left {} p{digits})", PLAYERS[self.control]));
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

    /// The moves of the player in control that two checkers of the other player block.
    fn blocked(&self) -> usize {
        let p = self.control;
        let mut dice = self.left.clone();
        dice.dedup();
        let mut n = 0;
        for d in dice {
            for &x in &self.men[p] {
                let t = x + d;
                if t <= POINTS && self.count(1 - p, point(p, t).unwrap()) == 2 {
                    n += 1;
                }
            }
        }
        n
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.winner().is_some() {
            return 1;
        }
        let legal = self.legal();
        let moves = match self.phase {
            Phase::Move => &legal[self.control],
            _ => &legal[2],
        };
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    assert_eq!(g.fluent_names(s), m.fluents());
    assert_moves_agree(g, s, &m.legal(), m);
    assert_eq!(g.is_terminal(s), m.winner().is_some());
    assert_payoffs_agree(g, s, &m.goals(), m);
    match g.turn(s) {
        Turn::Chance => {
            assert_ne!(m.phase, Phase::Move);
            assert_even_coin(g, s);
        }
        Turn::Player(p) => assert_eq!(p, m.control),
        Turn::Over => assert!(m.winner().is_some()),
        Turn::Simultaneous => panic!("simultaneous"),
    }
}

/// Plays `moves` from the start in both.
fn after(g: &GdlGame, moves: &[&str]) -> (FluentSet, Model) {
    let mut s = g.initial_state();
    let mut m = Model::new();
    for mv in moves {
        s = child(g, &s, g.find_move(mv).unwrap());
        m = m.play(mv);
        agree(g, &s, &m);
    }
    (s, m)
}

#[test]
fn the_description_plays_as_the_model_along_random_playouts() {
    let g = game();
    let mut rng = Pcg64::seed_from_u64(1980);
    let (mut states, mut hits, mut passes, mut blocks) = (0, 0, 0, 0);
    let (mut overshoots, mut wins) = (0, [0; 2]);
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
            let next = m.play(&name);
            passes += usize::from(name == "pass");
            blocks += m.blocked();
            let q = 1 - m.control;
            hits += usize::from(
                m.phase == Phase::Move && next.men[q].contains(&0) && !m.men[q].contains(&0),
            );
            let p = m.control;
            let d = name.bytes().rev().nth(1).map_or(0, |b| b - b'0');
            overshoots += usize::from(name.starts_with("(move back") && m.men[p][0] + d > OFF);
            s = child(&g, &s, mv);
            m = next;
        }
    }
    // The playouts went through the rules that matter.
    assert!(states > 10_000, "{states}");
    assert!(hits > 100 && passes > 100, "{hits} hits, {passes} passes");
    assert!(
        blocks > 100 && overshoots > 50,
        "{blocks} blocks, {overshoots} past the edge"
    );
    assert!(wins[0] > 50 && wins[1] > 50, "{wins:?}");
}

#[test]
fn the_game_tree_has_the_models_size() {
    let g = game();
    for depth in [3, 5, 8, 10] {
        assert_eq!(
            common::perft(&g, &g.initial_state(), depth, Finished::Leaf),
            Model::new().perft(depth),
            "depth {depth}"
        );
    }
    // After white's 1-2 (back checkers split to 2 and 3, both blots) and black's roll of 1-2.
    let (s, m) = after(
        &g,
        &[
            "(roll 1)",
            "(roll 2)",
            "(move back 1)",
            "(move back 2)",
            "(roll 2)",
            "(roll 1)",
        ],
    );
    assert_eq!(m.men[0], [2, 3]);
    assert_eq!(common::perft(&g, &s, 9, Finished::Leaf), m.perft(9));
}

#[test]
fn a_blot_is_hit_and_a_checker_on_the_bar_enters_first() {
    let g = game();
    // White rolls 2-2 and spreads to progress 3 and 7 (blots on points 3 and 7); black rolls 1-2
    // and its back checker, one step from point 8, lands on point 7.
    let opening = [
        "(roll 2)",
        "(roll 2)",
        "(move back 2)",
        "(move front 2)",
        "(move front 2)",
        "(move back 2)",
        "(roll 1)",
        "(roll 2)",
        "(move back 1)",
    ];
    let (s, m) = after(&g, &opening);
    assert_eq!(m.men, [[0, 3], [1, 2]]);
    assert!(g
        .fluent_names(&s)
        .contains(&"(whites (on 0 3))".to_string()));
    // White's checker on the bar must enter (on point 1 or 2) before the other one moves.
    let mut moves = opening.to_vec();
    moves.extend(["(move front 2)", "(roll 1)", "(roll 2)"]);
    let (s, m) = after(&g, &moves);
    assert_eq!(m.men, [[0, 3], [1, 4]]);
    let legal: Vec<String> = (g.role_moves(&s, 0).into_iter())
        .map(|mv| g.move_term(mv))
        .collect();
    assert_eq!(legal, ["(move back 1)", "(move back 2)"]);
}

/// The probability of each set of the player's moves once both dice are rolled from `s`,
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
            let mut fluents = g.fluent_names(&s);
            fluents.retain(|f| f.starts_with("(left"));
            *out.entry(fluents).or_insert(0.0) += p;
        }
    }
    out
}

#[test]
fn each_die_shows_each_face_with_probability_one_half() {
    let g = game();
    let mut s = g.initial_state();
    for _ in 0..2 {
        let c = choices(&g, &s);
        let names: Vec<&str> = c.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["(roll 1)", "(roll 2)"]);
        assert!(c.iter().all(|c| c.2 == 0.5));
        s = child(&g, &s, c[0].1);
    }
    assert_eq!(g.turn(&s), Turn::Player(0));
}

#[test]
fn the_rolls_come_up_as_often_as_counting_them_says() {
    let g = game();
    let through_rules = roll_distribution(&g, &g.initial_state());
    // The model: the four ordered rolls, each 1/4.
    let mut by_model: BTreeMap<Vec<String>, f64> = BTreeMap::new();
    for roll in [
        ["(roll 1)", "(roll 1)"],
        ["(roll 1)", "(roll 2)"],
        ["(roll 2)", "(roll 1)"],
        ["(roll 2)", "(roll 2)"],
    ] {
        let m = Model::new().play(roll[0]).play(roll[1]);
        let mut fluents = m.fluents();
        fluents.retain(|f| f.starts_with("(left"));
        *by_model.entry(fluents).or_insert(0.0) += 0.25;
    }
    assert_eq!(through_rules, by_model);
    // By hand: a 1 and a 2 (either order) one time in two; a double of 1s or of 2s (played four
    // times) one time in four each.
    let p = |left: &str| through_rules[&vec![left.to_string()]];
    assert_eq!(p("(left white p12)"), 0.5);
    assert_eq!(p("(left white p1111)"), 0.25);
    assert_eq!(p("(left white p2222)"), 0.25);
}

#[test]
fn the_round_encoding_fits_the_limits() {
    let round = GdlRound::new(game()).unwrap();
    let stats = round.stats();
    eprintln!("backgammon_mini: {stats:?} in {:?}", round.encode_time());
    assert_eq!(stats.max_domain, 55, "{stats:?}");
}

//! Pickomino mini (`games/pickomino_mini.kif`), a GDL-II dice game, against a hand-written model
//! of the same rules (3 dice, tiles 7 to 10, no stealing): along seeded random playouts and over
//! every move sequence of the first plies, both give the same legal moves to every role, the same
//! grill, stacks and worms, the same end and the same goals; optimal play on a grill of one or
//! two tiles wins as often through the description as in the model; each die shows its six faces
//! equally often, and a whole throw falls as the multinomial distribution says.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use game_trait::{ChanceList, Game, GeneralGame, Turn};
use gdl::{FluentSet, GdlGame, GdlMove, Loader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{assert_payoffs_agree, sorted_names, GameModel};

const RULES: &str = include_str!("../../games/pickomino_mini.kif");

fn game() -> GdlGame {
    Loader::text(RULES).load().unwrap()
}

const FACES: [&str; 6] = ["1", "2", "3", "4", "5", "worm"];
const POINTS: [u8; 6] = [1, 2, 3, 4, 5, 5];
const WORM: usize = 5;
const TILES: [u8; 4] = [7, 8, 9, 10];
const DICE: u8 = 3;
const ROLES: [&str; 3] = ["alice", "bob", "random"];

fn tile_worms(t: u8) -> u8 {
    match t {
        7 | 8 => 1,
        9 | 10 => 2,
        _ => unreachable!("no tile {t}"),
    }
}

/// Where a turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    /// Dice still to fall in this throw.
    Throw(u8),
    /// The throw is complete: set aside a new face, or bust.
    Choose,
    /// Throw again, stop, or bust.
    Decide,
}

/// The game as a player reads the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    mover: usize,
    stage: Stage,
    /// Dice not set aside this turn.
    in_hand: u8,
    /// How many dice of this throw show each face.
    thrown: [u8; 6],
    set_aside: [bool; 6],
    sum: u8,
    grill: BTreeSet<u8>,
    /// Each player's tiles, bottom first.
    stacks: [Vec<u8>; 2],
}

impl Model {
    fn new() -> Model {
        Model {
            mover: 0,
            stage: Stage::Throw(DICE),
            in_hand: DICE,
            thrown: [0; 6],
            set_aside: [false; 6],
            sum: 0,
            grill: TILES.into_iter().collect(),
            stacks: [Vec::new(), Vec::new()],
        }
    }

    fn over(&self) -> bool {
        self.grill.is_empty()
    }

    fn worms(&self, p: usize) -> u8 {
        self.stacks[p].iter().map(|&t| tile_worms(t)).sum()
    }

    /// The tile a stop takes now: the highest on the grill not above the sum, once a worm is
    /// set aside.
    fn offer(&self) -> Option<u8> {
        if !self.set_aside[WORM] {
            return None;
        }
        self.grill.iter().copied().filter(|&t| t <= self.sum).max()
    }

    /// The legal moves of role `r` (2 is `random`), none once the game is over.
    fn moves(&self, r: usize) -> Vec<String> {
        if self.over() {
            return Vec::new();
        }
        let noop = vec!["noop".to_string()];
        if r == 2 {
            return match self.stage {
                Stage::Throw(_) => FACES.iter().map(|f| format!("(roll {f})")).collect(),
                _ => noop,
            };
        }
        if r != self.mover {
            return noop;
        }
        match self.stage {
            Stage::Throw(_) => noop,
            Stage::Choose => {
                let keeps: Vec<String> = (0..6)
                    .filter(|&f| self.thrown[f] > 0 && !self.set_aside[f])
                    .map(|f| format!("(keep {} {})", FACES[f], self.thrown[f]))
                    .collect();
                if keeps.is_empty() {
                    vec!["bust".to_string()]
                } else {
                    keeps
                }
            }
            Stage::Decide => {
                let mut v = Vec::new();
                if self.in_hand > 0 {
                    v.push("reroll".to_string());
                }
                match self.offer() {
                    Some(t) => v.push(format!("(take {t})")),
                    None if self.in_hand == 0 => v.push("stuck".to_string()),
                    None => {}
                }
                v
            }
        }
    }

    fn end_turn(&mut self) {
        self.mover = 1 - self.mover;
        self.stage = Stage::Throw(DICE);
        self.in_hand = DICE;
        self.thrown = [0; 6];
        self.set_aside = [false; 6];
        self.sum = 0;
    }
}

impl GameModel for Model {
    /// The role that chooses, and its moves; `None` once over.
    fn chooser(&self) -> Option<(usize, Vec<String>)> {
        if self.over() {
            return None;
        }
        match self.stage {
            Stage::Throw(_) => Some((2, self.moves(2))),
            _ => Some((self.mover, self.moves(self.mover))),
        }
    }

    /// Plays the chooser's move `mv`.
    fn play(&mut self, mv: &str) {
        match self.stage {
            Stage::Throw(k) => {
                let f = FACES.iter().position(|f| mv == format!("(roll {f})"));
                self.thrown[f.expect("a face")] += 1;
                self.stage = if k == 1 {
                    Stage::Choose
                } else {
                    Stage::Throw(k - 1)
                };
            }
            _ if mv.starts_with("(keep ") => {
                let f = FACES
                    .iter()
                    .position(|f| mv.starts_with(&format!("(keep {f} ")))
                    .expect("a face");
                let n = self.thrown[f];
                self.set_aside[f] = true;
                self.in_hand -= n;
                self.sum += n * POINTS[f];
                self.thrown = [0; 6];
                self.stage = Stage::Decide;
            }
            _ if mv == "reroll" => self.stage = Stage::Throw(self.in_hand),
            _ if mv.starts_with("(take ") => {
                let t = self.offer().expect("a tile on offer");
                assert_eq!(mv, format!("(take {t})"));
                self.grill.remove(&t);
                self.stacks[self.mover].push(t);
                self.end_turn();
            }
            _ => {
                assert!(mv == "bust" || mv == "stuck", "{mv}");
                let back = self.stacks[self.mover].pop();
                let highest = self.grill.iter().copied().max();
                if let Some(h) = highest {
                    if back.map_or(true, |b| b < h) {
                        self.grill.remove(&h);
                    }
                }
                if let Some(b) = back {
                    self.grill.insert(b);
                }
                self.end_turn();
            }
        }
    }

    fn payoff(&self, p: usize) -> f64 {
        match self.worms(p).cmp(&self.worms(1 - p)) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }
}

fn names(g: &GdlGame, moves: &[GdlMove]) -> Vec<String> {
    sorted_names(g, moves)
}

/// The fluents of `s` that name the tiles and worms, against the model's. The description moves
/// the tiles one step after a turn ends (while `pending` holds): there only the worms are compared.
fn tiles_agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    let fluents = g.fluent_names(s);
    let pending = fluents.iter().any(|f| f.starts_with("(pending "));
    for (p, name) in ROLES[..2].iter().enumerate() {
        let worms = format!("(worms {name} {})", m.worms(p));
        assert!(fluents.contains(&worms), "{fluents:?} against {m:?}");
    }
    if pending {
        return;
    }
    let grill: BTreeSet<String> = fluents
        .iter()
        .filter(|f| f.starts_with("(grill "))
        .cloned()
        .collect();
    let expected: BTreeSet<String> = m.grill.iter().map(|t| format!("(grill {t})")).collect();
    assert_eq!(grill, expected, "{fluents:?} against {m:?}");
    for (p, name) in ROLES[..2].iter().enumerate() {
        let top = m.stacks[p]
            .last()
            .map_or("none".to_string(), |t| t.to_string());
        assert!(
            fluents.contains(&format!("(top {name} {top})")),
            "{fluents:?} against {m:?}"
        );
    }
}

/// Everything observable in `s` agrees with the model: every role's legal moves, whose turn it
/// is, the tiles, the end and the goals.
fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    for (r, role) in ROLES.iter().enumerate() {
        let mut expected = m.moves(r);
        expected.sort();
        assert_eq!(names(g, &g.role_moves(s, r)), expected, "{role} in {m:?}");
    }
    let turn = g.turn(s);
    match m.chooser() {
        None => {
            assert_eq!(turn, Turn::Over);
            assert_payoffs_agree(g, s, &[m.payoff(0), m.payoff(1)], m);
        }
        Some((2, _)) => assert_eq!(turn, Turn::Chance),
        Some((p, _)) => assert_eq!(turn, Turn::Player(p)),
    }
    tiles_agree(g, s, m);
}

fn child(g: &GdlGame, s: &FluentSet, mv: &str) -> FluentSet {
    let mv = g.find_move(mv).unwrap_or_else(|| panic!("no move {mv}"));
    let mut s = s.clone();
    g.play(&mut s, mv);
    s
}

/// Move sequences `depth` plies long below `s` (a game that ends sooner counts 1), checking that
/// the model agrees at every node.
fn perft(g: &GdlGame, s: &FluentSet, m: &Model, depth: u32) -> u64 {
    agree(g, s, m);
    let Some((_, moves)) = m.chooser() else {
        return 1;
    };
    if depth == 0 {
        return 1;
    }
    moves
        .iter()
        .map(|mv| {
            let mut next = m.clone();
            next.play(mv);
            perft(g, &child(g, s, mv), &next, depth - 1)
        })
        .sum()
}

#[test]
fn the_first_plies_agree_with_the_model() {
    let g = game();
    // Three dice (6^3 throws), a choice of face, then a second throw of what is left.
    let depth = 7;
    let count = perft(&g, &g.initial_state(), &Model::new(), depth);
    assert_eq!(count, common::model_perft(&Model::new(), depth));
    assert!(count > 10_000, "{count}");
}

#[test]
fn random_playouts_agree_with_the_model() {
    let g = game();
    let mut rng = Pcg64::seed_from_u64(2016);
    let (mut steps, mut busts, mut wins) = (0, 0, [0; 3]);
    for _ in 0..300 {
        let mut s = g.initial_state();
        let mut m = Model::new();
        loop {
            agree(&g, &s, &m);
            let Some((_, moves)) = m.chooser() else {
                break;
            };
            let mv = &moves[rng.gen_range(0..moves.len())];
            busts += usize::from(mv == "bust" || mv == "stuck");
            s = child(&g, &s, mv);
            m.play(mv);
            steps += 1;
            assert!(steps < 1_000_000, "a playout that does not end");
        }
        wins[(m.payoff(0) * 2.0) as usize] += 1;
    }
    // The playouts reach busts that put tiles back and games each player wins.
    assert!(busts > 100, "{busts}");
    assert!(wins.iter().all(|&w| w > 10), "{wins:?}");
}

#[test]
fn a_die_shows_six_faces_equally_often() {
    let g = game();
    let s = g.initial_state();
    assert_eq!(g.turn(&s), Turn::Chance);
    let mut outcomes = ChanceList::new();
    g.chance_outcomes(&s, &mut outcomes);
    let moves: Vec<GdlMove> = outcomes.iter().map(|&(m, _)| m).collect();
    let expected: Vec<String> = FACES.iter().map(|f| format!("(roll {f})")).collect();
    assert_eq!(names(&g, &moves), {
        let mut e = expected;
        e.sort();
        e
    });
    assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / 6.0).abs() < 1e-12));
}

/// The distribution of the throw that starts in `s`: the `rolled` fluents once the player is to
/// choose, with their probabilities through the chance outcomes.
fn throw_distribution(g: &GdlGame, s: &FluentSet) -> BTreeMap<Vec<String>, f64> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(s.clone(), 1.0)];
    while let Some((s, p)) = stack.pop() {
        if g.turn(&s) != Turn::Chance {
            let rolled: Vec<String> = g
                .fluent_names(&s)
                .into_iter()
                .filter(|f| f.starts_with("(rolled ") && !f.ends_with(" 0)"))
                .collect();
            *out.entry(rolled).or_insert(0.0) += p;
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

/// The multinomial law of `k` fair dice: each count vector over the six faces with probability
/// `k! / (c_1! ... c_6!) / 6^k`.
fn multinomial(k: u32) -> BTreeMap<Vec<String>, f64> {
    fn fact(n: u32) -> f64 {
        (1..=n).map(f64::from).product()
    }
    let mut out = BTreeMap::new();
    let mut counts = [0u32; 6];
    fn fill(
        face: usize,
        left: u32,
        k: u32,
        counts: &mut [u32; 6],
        out: &mut BTreeMap<Vec<String>, f64>,
    ) {
        if face == 5 {
            counts[5] = left;
            let p =
                fact(k) / counts.iter().map(|&c| fact(c)).product::<f64>() / 6f64.powi(k as i32);
            let mut key: Vec<String> = (0..6)
                .filter(|&f| counts[f] > 0)
                .map(|f| format!("(rolled {} {})", FACES[f], counts[f]))
                .collect();
            key.sort();
            out.insert(key, p);
            return;
        }
        for c in 0..=left {
            counts[face] = c;
            fill(face + 1, left - c, k, counts, out);
        }
    }
    fill(0, k, k, &mut counts, &mut out);
    out
}

fn assert_same_law(through_rules: &BTreeMap<Vec<String>, f64>, exact: &BTreeMap<Vec<String>, f64>) {
    assert_eq!(
        through_rules.keys().collect::<Vec<_>>(),
        exact.keys().collect::<Vec<_>>()
    );
    for (k, p) in exact {
        assert!(
            (through_rules[k] - p).abs() < 1e-12,
            "{k:?}: {} against {p}",
            through_rules[k]
        );
    }
    assert!((exact.values().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn a_throw_falls_as_the_multinomial_law_says() {
    let g = game();
    // Three dice at the start of a turn: 56 count vectors, e.g. three worms with 1/216.
    let start = throw_distribution(&g, &g.initial_state());
    assert_eq!(start.len(), 56);
    assert_same_law(&start, &multinomial(3));
    // Two dice after one is set aside: throw 1 2 4, keep the 4, throw again.
    let mut s = g.initial_state();
    for mv in ["(roll 1)", "(roll 2)", "(roll 4)", "(keep 4 1)", "reroll"] {
        s = child(&g, &s, mv);
    }
    assert_same_law(&throw_distribution(&g, &s), &multinomial(2));
}

/// The rules and the model with only `tiles` on the grill at the start.
fn short_game(tiles: &[u8]) -> (GdlGame, Model) {
    let shipped = "(init (grill 7)) (init (grill 8)) (init (grill 9)) (init (grill 10))";
    let grill: Vec<String> = tiles
        .iter()
        .map(|t| format!("(init (grill {t}))"))
        .collect();
    let text = RULES.replace(shipped, &grill.join(" "));
    assert_ne!(text, RULES);
    let mut m = Model::new();
    m.grill = tiles.iter().copied().collect();
    (Loader::text(&text).load().unwrap(), m)
}

#[test]
fn optimal_play_on_a_short_grill_wins_as_often_as_the_model_says() {
    let mut values = Vec::new();
    for tiles in [&[7][..], &[10], &[8, 10], &[7, 9]] {
        let (g, m) = short_game(tiles);
        let through_rules = common::value_by_rules(&g, &g.initial_state(), 0, &mut HashMap::new());
        let by_model = common::value_by_model(&m, 0, &mut HashMap::new());
        assert!(
            (through_rules - by_model).abs() < 1e-9,
            "{tiles:?}: {through_rules} through the rules, {by_model} by the model"
        );
        assert!(0.0 < by_model && by_model < 1.0, "{tiles:?}: {by_model}");
        values.push(by_model);
    }
    // One tile: alice wins if she takes it, and a bust turns it down for a draw, so a higher
    // tile is worth less to her.
    assert!(values[0] > values[1], "{values:?}");
}

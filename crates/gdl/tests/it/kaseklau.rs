//! Käseklau (`games/kaseklau.kif`), a GDL-II press-your-luck dice game, against a hand-written
//! model of the same rules: along seeded random playouts the description and the model agree on
//! every role's legal moves, the chance outcomes and their probabilities, the successor states,
//! the end and the goals; the game trees agree in size (perft); each die shows its three faces
//! equally often, and the chance that the mouse is caught on a throw is what counting the nine
//! equally likely throws gives.

use std::collections::BTreeMap;

use game_trait::round::VariableKind;
use game_trait::{Game, GeneralGame, RoundGame, Turn};
use gdl::{FluentSet, GdlGame, GdlRound, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{child, choices, Finished};

const RULES: &str = include_str!("../../games/kaseklau.kif");
const PLAYERS: [&str; 2] = ["alice", "bob"];
const ROOMS: u8 = 5;
const CARDS_PER_ROOM: u8 = 6;
/// The game ends when this many rooms are empty.
const EMPTY_ROOMS_TO_END: usize = 3;

fn game() -> GdlGame {
    gdl::Loader::text(RULES).load().unwrap()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// `random` throws the cat's die.
    Cat,
    /// `random` throws the mouse's die.
    Mouse,
    /// The player in control throws again or stops.
    Decide,
}

/// The game as a player reads the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    control: usize,
    phase: Phase,
    /// Rooms 1 to 5, clockwise.
    cat: u8,
    mouse: u8,
    /// The cards left in each room (index 0 is room 1).
    cards: [u8; 5],
    /// The cards taken in this turn and not yet put away.
    open: u8,
    banked: [u8; 2],
}

/// `d` rooms clockwise from room `r`.
fn walk(r: u8, d: u8) -> u8 {
    (r - 1 + d) % ROOMS + 1
}

impl Model {
    fn new() -> Model {
        Model {
            control: 0,
            phase: Phase::Cat,
            cat: 1,
            mouse: 3,
            cards: [CARDS_PER_ROOM; 5],
            open: 0,
            banked: [0, 0],
        }
    }

    fn over(&self) -> bool {
        self.cards.iter().filter(|&&n| n == 0).count() >= EMPTY_ROOMS_TO_END
    }

    /// Every role's legal moves (alice, bob, random), none when the game is over.
    fn legal(&self) -> [Vec<String>; 3] {
        if self.over() {
            return Default::default();
        }
        let noop = || vec!["noop".to_string()];
        let mut out = [noop(), noop(), noop()];
        match self.phase {
            Phase::Cat | Phase::Mouse => out[2] = (1..=3).map(|d| format!("(roll {d})")).collect(),
            Phase::Decide => out[self.control] = vec!["roll".into(), "stop".into()],
        }
        out
    }

    fn end_turn(&mut self) {
        self.open = 0;
        self.control = 1 - self.control;
        self.phase = Phase::Cat;
    }

    /// The state after the move of the role with a choice.
    fn play(&self, mv: &str) -> Model {
        let mut s = self.clone();
        let die = || mv.as_bytes()[6] - b'0';
        match (self.phase, mv) {
            (Phase::Cat, _) => {
                s.cat = walk(self.cat, die());
                s.phase = Phase::Mouse;
            }
            (Phase::Mouse, _) => {
                s.mouse = walk(self.mouse, die());
                if s.mouse == s.cat {
                    s.end_turn();
                    return s;
                }
                s.phase = Phase::Decide;
                let room = usize::from(s.mouse - 1);
                if s.cards[room] > 0 {
                    s.cards[room] -= 1;
                    s.open += 1;
                    if s.over() {
                        // The player on turn puts the turn's cards away at the end.
                        s.banked[s.control] += s.open;
                        s.open = 0;
                    }
                }
            }
            (Phase::Decide, "roll") => s.phase = Phase::Cat,
            (Phase::Decide, "stop") => {
                s.banked[s.control] += s.open;
                s.end_turn();
            }
            _ => panic!("{mv} in {self:?}"),
        }
        s
    }

    fn fluents(&self) -> Vec<String> {
        let mut out = vec![
            format!("(control {})", PLAYERS[self.control]),
            match self.phase {
                Phase::Cat => "(phase cat)".into(),
                Phase::Mouse => "(phase mouse)".into(),
                Phase::Decide => "(phase decide)".into(),
            },
            format!("(cat {})", self.cat),
            format!("(mouse {})", self.mouse),
            format!("(open {})", self.open),
        ];
        for (r, n) in self.cards.iter().enumerate() {
            out.push(format!("(cards {} {n})", r + 1));
        }
        for (p, n) in self.banked.iter().enumerate() {
            out.push(format!("(banked {} {n})", PLAYERS[p]));
        }
        out.sort();
        out
    }

    /// The goals as the rules define them in every state: by the cards put away so far.
    fn goals(&self) -> [f64; 2] {
        let [a, b] = self.banked;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => [1.0, 0.0],
            std::cmp::Ordering::Less => [0.0, 1.0],
            std::cmp::Ordering::Equal => [0.5, 0.5],
        }
    }

    /// The move sequences `depth` moves long (a finished game counts 1).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over() {
            return 1;
        }
        let legal = self.legal();
        let moves = match self.phase {
            Phase::Decide => &legal[self.control],
            _ => &legal[2],
        };
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    assert_eq!(g.fluent_names(s), m.fluents());
    for (role, expected) in m.legal().iter().enumerate() {
        let mut moves: Vec<String> = (g.role_moves(s, role).into_iter())
            .map(|mv| g.move_term(mv))
            .collect();
        moves.sort();
        assert_eq!(&moves, expected, "{}: {:?}", g.roles()[role], m);
    }
    assert_eq!(g.is_terminal(s), m.over());
    for (p, goal) in m.goals().iter().enumerate() {
        assert_eq!(g.payoff(s, p), *goal, "{m:?}");
    }
    match g.turn(s) {
        Turn::Chance => {
            assert_ne!(m.phase, Phase::Decide);
            let c = choices(g, s);
            assert_eq!(c.len(), 3);
            assert!(c.iter().all(|&(_, _, p)| (p - 1.0 / 3.0).abs() < 1e-12));
        }
        Turn::Player(p) => assert_eq!((p, m.phase), (m.control, Phase::Decide)),
        Turn::Over => assert!(m.over()),
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
fn kaseklau_loads_on_the_fast_reasoner() {
    let g = game();
    assert_eq!(
        g.reasoner_kind(),
        ReasonerKind::Fast,
        "{:?}",
        g.fallback_reason()
    );
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    let report = gdl::Loader::file(common::path("kaseklau.kif"))
        .check()
        .unwrap();
    assert!(
        report.fast_reasoner && report.warnings.is_empty(),
        "{report}"
    );
}

#[test]
fn the_description_plays_as_the_model_along_random_playouts() {
    let g = game();
    let mut rng = Pcg64::seed_from_u64(2008);
    let (mut states, mut caught, mut lost, mut stops) = (0, 0, 0, 0);
    let (mut empty_landings, mut wins, mut draws) = (0, [0; 2], 0);
    for _ in 0..300 {
        let mut s = g.initial_state();
        let mut m = Model::new();
        loop {
            agree(&g, &s, &m);
            states += 1;
            if m.over() {
                match m.banked[0].cmp(&m.banked[1]) {
                    std::cmp::Ordering::Greater => wins[0] += 1,
                    std::cmp::Ordering::Less => wins[1] += 1,
                    std::cmp::Ordering::Equal => draws += 1,
                }
                break;
            }
            let c = choices(&g, &s);
            let (name, mv, _) = c[rng.gen_range(0..c.len())].clone();
            let next = m.play(&name);
            if m.phase == Phase::Mouse && next.control != m.control {
                caught += 1;
                lost += usize::from(m.open > 0);
            }
            if m.phase == Phase::Mouse && next.phase == Phase::Decide && next.cards == m.cards {
                empty_landings += 1;
            }
            stops += usize::from(name == "stop");
            s = child(&g, &s, mv);
            m = next;
        }
    }
    // The playouts went through the rules that matter: catches that cost cards, landings in
    // emptied rooms, stops, and every ending.
    assert!(states > 20_000, "{states}");
    assert!(
        caught > 300 && lost > 100,
        "{caught} catches, {lost} with cards"
    );
    assert!(
        empty_landings > 300 && stops > 1000,
        "{empty_landings} empty rooms, {stops} stops"
    );
    assert!(
        wins[0] > 50 && wins[1] > 50 && draws > 0,
        "{wins:?}, {draws}"
    );
}

#[test]
fn the_game_tree_has_the_models_size() {
    let g = game();
    for depth in [1, 2, 3, 6, 9, 12] {
        assert_eq!(
            common::perft(&g, &g.initial_state(), depth, Finished::Leaf),
            Model::new().perft(depth),
            "depth {depth}"
        );
    }
    // Near the end: two rooms emptied by alice's safe throws, so that a third one can end the
    // game within a few throws.
    let mut moves = Vec::new();
    let mut m = Model::new();
    let mut rng = Pcg64::seed_from_u64(7);
    while m.cards.iter().filter(|&&n| n == 0).count() < 2 || m.phase != Phase::Cat {
        let legal = m.legal();
        let options = match m.phase {
            Phase::Decide => vec!["roll".to_string()],
            _ => legal[2].clone(),
        };
        let mv = options[rng.gen_range(0..options.len())].clone();
        m = m.play(&mv);
        moves.push(mv);
    }
    let names: Vec<&str> = moves.iter().map(String::as_str).collect();
    let (s, m) = after(&g, &names);
    assert!(!m.over());
    assert_eq!(common::perft(&g, &s, 9, Finished::Leaf), m.perft(9));
}

#[test]
fn each_die_shows_each_face_with_probability_one_third() {
    let g = game();
    let mut s = g.initial_state();
    for _ in 0..2 {
        let c = choices(&g, &s);
        let names: Vec<&str> = c.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["(roll 1)", "(roll 2)", "(roll 3)"]);
        assert!(c.iter().all(|c| (c.2 - 1.0 / 3.0).abs() < 1e-12));
        s = child(&g, &s, c[0].1);
    }
    // Cat 1 → 2, mouse 3 → 4: a card from room 4, and alice decides.
    assert_eq!(g.turn(&s), Turn::Player(0));
}

/// The probability of each (cat, mouse, control) after the throw of both dice from `s`, through
/// the description's chance outcomes.
fn throw_distribution(g: &GdlGame, s: &FluentSet) -> BTreeMap<Vec<String>, f64> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(s.clone(), 1.0, 0)];
    while let Some((s, p, dice)) = stack.pop() {
        if dice < 2 {
            assert_eq!(g.turn(&s), Turn::Chance);
            for (_, mv, q) in choices(g, &s) {
                stack.push((child(g, &s, mv), p * q, dice + 1));
            }
        } else {
            *out.entry(figures(g.fluent_names(&s))).or_insert(0.0) += p;
        }
    }
    out
}

/// The fluents that say where the figures are and whose turn it is.
fn figures(mut fluents: Vec<String>) -> Vec<String> {
    fluents
        .retain(|f| f.starts_with("(cat") || f.starts_with("(mouse") || f.starts_with("(control"));
    fluents
}

#[test]
fn the_mouse_is_caught_as_often_as_counting_the_throws_says() {
    assert!(RULES.contains("(init (cat 1))") && RULES.contains("(init (mouse 3))"));
    // From each gap between mouse and cat, one throw of both dice.
    for (cat, mouse) in [(1, 3), (2, 3), (5, 3), (4, 3)] {
        let text = RULES
            .replace("(init (cat 1))", &format!("(init (cat {cat}))"))
            .replace("(init (mouse 3))", &format!("(init (mouse {mouse}))"));
        let g = gdl::Loader::text(&text).load().unwrap();
        let through_rules = throw_distribution(&g, &g.initial_state());
        let mut by_model: BTreeMap<Vec<String>, f64> = BTreeMap::new();
        let start = Model {
            cat,
            mouse,
            ..Model::new()
        };
        for c in 1..=3 {
            for d in 1..=3 {
                let m = start
                    .play(&format!("(roll {c})"))
                    .play(&format!("(roll {d})"));
                *by_model.entry(figures(m.fluents())).or_insert(0.0) += 1.0 / 9.0;
            }
        }
        assert_eq!(
            through_rules.len(),
            by_model.len(),
            "cat {cat}, mouse {mouse}"
        );
        for (k, p) in &by_model {
            assert!((through_rules[k] - p).abs() < 1e-12, "{k:?}");
        }
        // By hand: the mouse is caught when its die minus the cat's closes the gap (mod 5). The
        // difference is 0 with probability 3/9, ±1 with 2/9 each, ±2 with 1/9 each: a gap of 1
        // or 4 rooms is closed 2 times in 9, a gap of 2 or 3 rooms once in 9.
        let caught: f64 = (through_rules.iter())
            .filter(|(k, _)| k.contains(&"(control bob)".to_string()))
            .map(|(_, p)| p)
            .sum();
        let gap = (mouse + ROOMS - cat) % ROOMS;
        let expected = if gap == 1 || gap == 4 { 2.0 } else { 1.0 } / 9.0;
        assert!((caught - expected).abs() < 1e-12, "gap {gap}: {caught}");
    }
}

#[test]
fn a_catch_loses_the_turns_cards_and_a_stop_keeps_them() {
    let g = game();
    // alice: cat 1 → 2, mouse 3 → 4 (a card); again: cat 2 → 3, mouse 4 → 5 (a card); stop.
    let (s, m) = after(
        &g,
        &[
            "(roll 1)", "(roll 1)", "roll", "(roll 1)", "(roll 1)", "stop",
        ],
    );
    assert_eq!((m.banked, m.cards), ([2, 0], [6, 6, 6, 5, 5]));
    assert!(g.fluent_names(&s).contains(&"(banked alice 2)".to_string()));
    // bob: cat 3 → 4, mouse 5 → 1 (a card); again: cat 4 → 1, mouse 1 → 2 (a card); again:
    // cat 1 → 3, mouse 2 → 3: caught, both cards lost, and the turn passes to alice.
    let (s, m) = after(
        &g,
        &[
            "(roll 1)", "(roll 1)", "roll", "(roll 1)", "(roll 1)", "stop", "(roll 1)", "(roll 1)",
            "roll", "(roll 2)", "(roll 1)", "roll", "(roll 2)", "(roll 1)",
        ],
    );
    assert_eq!((m.banked, m.open, m.control), ([2, 0], 0, 0));
    assert_eq!(m.cards, [5, 5, 6, 5, 5]);
    assert_eq!(g.payoff(&s, 0), 1.0);
}

#[test]
fn the_round_encoding_has_the_dice_and_the_figures_as_variables() {
    let round = GdlRound::new(game()).unwrap();
    eprintln!("kaseklau: {:?} in {:?}", round.stats(), round.encode_time());
    let r = round.round();
    let values = |kind: VariableKind, name: &str| {
        let found: Vec<Vec<String>> = (r.indices(|k| k == kind).into_iter())
            .filter(|&v| r.variables[v].name == name)
            .map(|v| r.variables[v].values.clone())
            .collect();
        assert_eq!(found.len(), 1, "{name}");
        found[0].clone()
    };
    // One die per chance move: the chance variable is a die's three faces (and `noop` when
    // nobody throws).
    let mut dice = values(VariableKind::Chance, "does(random)");
    dice.sort();
    assert_eq!(dice, ["(roll 1)", "(roll 2)", "(roll 3)", "noop"]);
    // Each figure is in one room: one variable of five values.
    for figure in ["(cat ?)", "(mouse ?)"] {
        assert_eq!(values(VariableKind::State, figure).len(), 5, "{figure}");
    }
}

//! Chinese Checkers for three players on the small star (`games/chinese_checkers3.kif`), against
//! a hand-written model of the same rules that finds the board from the star's shape and follows
//! jump chains by search, however long: along seeded random games the description and the model
//! agree on every role's legal moves, the successor states, the end and the goals; the game trees
//! agree in size (perft); and a chain of four jumps, the longest the board allows, is one move.

use std::collections::BTreeSet;

use game_trait::round::VariableKind;
use game_trait::{Game, GeneralGame, RoundGame, Turn};
use gdl::{FluentSet, GdlGame, GdlRound, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{child, choices, Finished};

const RULES: &str = include_str!("../../games/chinese_checkers3.kif");
const PLAYERS: [&str; 3] = ["red", "green", "blue"];
/// Each player's two forward directions, as steps of (a, b).
const FORWARD: [[(i8, i8); 2]; 3] = [[(-1, 1), (0, 1)], [(1, 0), (1, -1)], [(-1, 0), (0, -1)]];
/// Each player's starting point and target point.
const START: [[(i8, i8); 3]; 3] = [
    [(7, 1), (6, 2), (7, 2)],
    [(1, 7), (2, 6), (2, 7)],
    [(7, 7), (6, 7), (7, 6)],
];
const TARGET: [[(i8, i8); 3]; 3] = [
    [(3, 9), (3, 8), (4, 8)],
    [(9, 3), (8, 3), (8, 4)],
    [(3, 3), (4, 3), (3, 4)],
];
const ROUNDS: u32 = 30;

fn game() -> GdlGame {
    gdl::Loader::text(RULES).load().unwrap()
}

/// Whether (a, b) is a hole: the star is the union of two triangles of 28 holes each.
fn hole(a: i8, b: i8) -> bool {
    (a <= 7 && b <= 7 && a + b >= 8) || (a >= 3 && b >= 3 && a + b <= 12)
}

fn holes() -> Vec<(i8, i8)> {
    let all = (1..=9).flat_map(|b| (1..=9).map(move |a| (a, b)));
    all.filter(|&(a, b)| hole(a, b)).collect()
}

/// The game as a player reads the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    /// The player on each hole, by (a, b); `None` for an empty hole or no hole.
    board: [[Option<usize>; 10]; 10],
    control: usize,
    /// Rounds completed (one ends with blue's move).
    round: u32,
}

impl Model {
    fn new() -> Model {
        Model::with(&START)
    }

    /// Each player's pieces on the given holes, red to move.
    fn with(pieces: &[[(i8, i8); 3]; 3]) -> Model {
        let mut board = [[None; 10]; 10];
        for (p, holes) in pieces.iter().enumerate() {
            for &(a, b) in holes {
                board[a as usize][b as usize] = Some(p);
            }
        }
        Model {
            board,
            control: 0,
            round: 0,
        }
    }

    fn at(&self, a: i8, b: i8) -> Option<usize> {
        self.board[a as usize][b as usize]
    }

    fn empty(&self, a: i8, b: i8) -> bool {
        hole(a, b) && self.at(a, b).is_none()
    }

    fn home(&self, p: usize) -> usize {
        (TARGET[p].iter())
            .filter(|&&(a, b)| self.at(a, b) == Some(p))
            .count()
    }

    fn over(&self) -> bool {
        self.round == ROUNDS || (0..3).any(|p| self.home(p) == 3)
    }

    /// Where player `p`'s piece on (a, b) can go: a step, or any chain of jumps (found by search;
    /// forward moves never come back, so the search ends).
    fn targets(&self, p: usize, a: i8, b: i8) -> BTreeSet<(i8, i8)> {
        let mut out = BTreeSet::new();
        for (da, db) in FORWARD[p] {
            if self.empty(a + da, b + db) {
                out.insert((a + da, b + db));
            }
        }
        let mut stack = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            for (da, db) in FORWARD[p] {
                let (mx, my) = (x + da, y + db);
                let (tx, ty) = (x + 2 * da, y + 2 * db);
                if hole(mx, my) && self.at(mx, my).is_some() && self.empty(tx, ty) {
                    out.insert((tx, ty));
                    stack.push((tx, ty));
                }
            }
        }
        out
    }

    /// The moves of the player in control, as (from, to).
    fn moves(&self) -> Vec<((i8, i8), (i8, i8))> {
        let p = self.control;
        let mut out = Vec::new();
        for (a, b) in holes() {
            if self.at(a, b) == Some(p) {
                for t in self.targets(p, a, b) {
                    out.push(((a, b), t));
                }
            }
        }
        out
    }

    /// Every role's legal moves, sorted; none when the game is over.
    fn legal(&self) -> [Vec<String>; 3] {
        if self.over() {
            return Default::default();
        }
        let mut out = [
            vec!["noop".to_string()],
            vec!["noop".into()],
            vec!["noop".into()],
        ];
        let mut mine: Vec<String> = (self.moves().iter())
            .map(|((a, b), (c, d))| format!("(move {a} {b} {c} {d})"))
            .collect();
        if mine.is_empty() {
            mine.push("pass".into());
        }
        mine.sort();
        out[self.control] = mine;
        out
    }

    fn play(&self, mv: &str) -> Model {
        let mut s = self.clone();
        if mv != "pass" {
            let n: Vec<i8> = (mv.trim_matches(|c| c == '(' || c == ')').split(' ').skip(1))
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(s.at(n[0], n[1]), Some(self.control), "{mv}");
            s.board[n[0] as usize][n[1] as usize] = None;
            s.board[n[2] as usize][n[3] as usize] = Some(self.control);
        }
        if self.control == 2 {
            s.round += 1;
        }
        s.control = (self.control + 1) % 3;
        s
    }

    fn fluents(&self) -> Vec<String> {
        let mut out = vec![
            format!("(control {})", PLAYERS[self.control]),
            format!("(round {})", self.round),
        ];
        for (a, b) in holes() {
            let who = self.at(a, b).map_or("empty", |p| PLAYERS[p]);
            out.push(format!("(cell {a} {b} {who})"));
        }
        out.sort();
        out
    }

    fn goals(&self) -> [f64; 3] {
        [0, 1, 2].map(|p| [0.0, 0.25, 0.5, 1.0][self.home(p)])
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over() {
            return 1;
        }
        let legal = self.legal();
        (legal[self.control].iter())
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
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
        Turn::Player(p) => assert_eq!(p, m.control),
        Turn::Over => assert!(m.over()),
        other => panic!("{other:?} in a turn-taking game"),
    }
}

#[test]
fn chinese_checkers_loads_on_the_fast_reasoner_with_three_players() {
    let g = game();
    assert_eq!(
        g.reasoner_kind(),
        ReasonerKind::Fast,
        "{:?}",
        g.fallback_reason()
    );
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    assert_eq!(g.players(), 3);
    assert!(!g.has_random());
    let report = gdl::Loader::file(common::path("chinese_checkers3.kif"))
        .check()
        .unwrap();
    assert!(
        report.fast_reasoner && report.warnings.is_empty(),
        "{report}"
    );
    // The star has 37 holes, each with one fluent at the start.
    assert_eq!(holes().len(), 37);
    let cells = g.fluent_names(&g.initial_state());
    assert_eq!(cells.iter().filter(|f| f.starts_with("(cell")).count(), 37);
}

#[test]
fn the_description_plays_as_the_model_along_random_games() {
    let g = game();
    let mut rng = Pcg64::seed_from_u64(1892);
    let (mut states, mut jumps, mut chains, mut passes) = (0, 0, 0, 0);
    let (mut finished, mut timeouts) = ([0; 3], 0);
    for _ in 0..300 {
        let mut s = g.initial_state();
        let mut m = Model::new();
        loop {
            agree(&g, &s, &m);
            states += 1;
            if m.over() {
                match (0..3).find(|&p| m.home(p) == 3) {
                    Some(p) => finished[p] += 1,
                    None => timeouts += 1,
                }
                break;
            }
            let c = choices(&g, &s);
            let (name, mv, _) = c[rng.gen_range(0..c.len())].clone();
            passes += usize::from(name == "pass");
            if name != "pass" {
                let n: Vec<i32> = (name.trim_matches(|c| c == '(' || c == ')').split(' '))
                    .skip(1)
                    .map(|x| x.parse().unwrap())
                    .collect();
                // Rows (or columns) travelled: a step goes one, a chain of k jumps 2k.
                let far = (n[2] - n[0]).abs().max((n[3] - n[1]).abs());
                jumps += usize::from(far >= 2);
                chains += usize::from(far >= 4);
            }
            s = child(&g, &s, mv);
            m = m.play(&name);
        }
    }
    // The playouts went through the rules that matter: jumps and chains of them, passes, and
    // both ends of the game.
    assert!(states > 10_000, "{states}");
    assert!(
        jumps > 1000 && chains > 50,
        "{jumps} jumps, {chains} chains"
    );
    assert!(passes > 100, "{passes} passes");
    assert!(
        finished.iter().all(|&n| n > 20) && timeouts > 0,
        "{finished:?} finished, {timeouts} timed out"
    );
}

#[test]
fn the_game_tree_has_the_models_size() {
    let g = game();
    for depth in 1..=5 {
        assert_eq!(
            common::perft(&g, &g.initial_state(), depth, Finished::Leaf),
            Model::new().perft(depth),
            "depth {depth}"
        );
    }
    // From a position ten rounds into a seeded random game.
    let mut rng = Pcg64::seed_from_u64(30);
    let (mut s, mut m) = (g.initial_state(), Model::new());
    while m.round < 10 {
        let legal = m.legal();
        let moves = &legal[m.control];
        let mv = moves[rng.gen_range(0..moves.len())].clone();
        s = child(&g, &s, g.find_move(&mv).unwrap());
        m = m.play(&mv);
    }
    agree(&g, &s, &m);
    assert_eq!(common::perft(&g, &s, 4, Finished::Leaf), m.perft(4));
}

/// The description with each player's pieces on the given holes instead of its start.
fn from(pieces: &[[(i8, i8); 3]; 3]) -> GdlGame {
    let mut text = String::new();
    let mut removed = String::new();
    for line in RULES.lines() {
        // The start: the pieces' `init` facts and the `start` facts that leave the rest empty.
        let start = line.starts_with("(init (cell ") || line.starts_with("(start ");
        let kept = if start { &mut removed } else { &mut text };
        kept.push_str(line);
        kept.push('\n');
    }
    assert_eq!(removed.matches("(init (cell ").count(), 9);
    assert_eq!(removed.matches("(start ").count(), 9);
    for (p, holes) in pieces.iter().enumerate() {
        for (a, b) in holes {
            text.push_str(&format!("(init (cell {a} {b} {})) ", PLAYERS[p]));
            text.push_str(&format!("(start {a} {b})\n"));
        }
    }
    gdl::Loader::text(&text).load().unwrap()
}

#[test]
fn four_jumps_in_a_row_are_one_move() {
    // Red on (7 1) jumps over (6 2) down-left, over (5 4) and (5 6) down-right, and over (4 8)
    // down-left, to the tip of its target point.
    let pieces = [
        [(7, 1), (6, 2), (7, 2)],
        [(5, 4), (4, 8), (1, 7)],
        [(5, 6), (7, 7), (7, 6)],
    ];
    let g = from(&pieces);
    let s = g.initial_state();
    let m = Model::with(&pieces);
    agree(&g, &s, &m);
    let legal = m.legal();
    assert!(
        legal[0].contains(&"(move 7 1 3 9)".to_string()),
        "{legal:?}"
    );
    // Every landing of the chain is a move of its own.
    for stop in ["(move 7 1 5 3)", "(move 7 1 5 5)", "(move 7 1 5 7)"] {
        assert!(legal[0].contains(&stop.to_string()), "{stop}");
    }
    let after = child(&g, &s, g.find_move("(move 7 1 3 9)").unwrap());
    agree(&g, &after, &m.play("(move 7 1 3 9)"));
    assert_eq!(g.payoff(&after, 0), 0.25);
}

#[test]
fn a_player_without_a_forward_move_passes() {
    // Red's pieces are in green's start point, where no forward move is left.
    let pieces = [
        [(1, 7), (2, 7), (2, 6)],
        [(3, 6), (3, 7), (4, 7)],
        [(7, 7), (6, 7), (7, 6)],
    ];
    let g = from(&pieces);
    let s = g.initial_state();
    agree(&g, &s, &Model::with(&pieces));
    let legal: Vec<String> = (g.role_moves(&s, 0).into_iter())
        .map(|mv| g.move_term(mv))
        .collect();
    assert_eq!(legal, ["pass"]);
    assert_eq!(g.turn(&s), Turn::Player(0));
}

#[test]
fn the_round_encoding_has_an_action_per_player_and_no_chance() {
    let round = GdlRound::new(game()).unwrap();
    eprintln!(
        "chinese_checkers3: {:?} in {:?}",
        round.stats(),
        round.encode_time()
    );
    let r = round.round();
    assert_eq!(r.players, 3);
    assert!(r.indices(|k| k == VariableKind::Chance).is_empty());
    let actions = r.indices(|k| matches!(k, VariableKind::Action(_)));
    assert_eq!(actions.len(), 3);
    // Each player's action variable holds every move some position allows it: the model's moves
    // along random games are among them.
    let mut rng = Pcg64::seed_from_u64(5);
    let mut m = Model::new();
    while !m.over() {
        let legal = m.legal();
        let p = m.control;
        let var = actions
            .iter()
            .find(|&&v| r.variables[v].kind == VariableKind::Action(p))
            .unwrap();
        for mv in &legal[p] {
            assert!(r.variables[*var].values.contains(mv), "{mv}");
        }
        m = m.play(&legal[p][rng.gen_range(0..legal[p].len())]);
    }
}

//! Awale (Oware) on a 2×3 board (`games/awale_mini.kif`), against a hand-written model of the
//! same rules that sows seed by seed: along seeded random playouts the description and the model
//! agree on the legal moves, the successor states and the goals; the game trees agree in size
//! (perft); and on smaller starts (fewer seeds, fewer moves) the number of complete games and the
//! minimax value through the description equal the model's.

use std::collections::HashMap;

use game_trait::{Game, GeneralGame, MoveList, Turn};
use gdl::{FluentSet, GdlError, GdlGame, GdlMove, GdlRound, Loader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{assert_moves_agree, assert_payoffs_agree, child, Finished};

const RULES: &str = include_str!("../../games/awale_mini.kif");
const PLAYERS: [&str; 2] = ["south", "north"];
const MAJORITY: u8 = 7;

/// The shipped rules with `seeds` in every pit and the game cut after `limit` moves.
fn awale(seeds: u8, limit: u8) -> GdlGame {
    let mut text = RULES.replace("(true (step 50))", &format!("(true (step {limit}))"));
    for pit in 1..=6 {
        let shipped = format!("(init (pit {pit} 2))");
        assert!(text.contains(&shipped));
        text = text.replace(&shipped, &format!("(init (pit {pit} {seeds}))"));
    }
    Loader::text(&text).load().unwrap()
}

/// The game as a player reads the rules; pits 0 to 5 (the description's 1 to 6).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Model {
    pits: [u8; 6],
    captured: [u8; 2],
    control: usize,
    step: u8,
    limit: u8,
}

fn owner(pit: usize) -> usize {
    pit / 3
}

impl Model {
    fn new(seeds: u8, limit: u8) -> Model {
        Model {
            pits: [seeds; 6],
            captured: [0; 2],
            control: 0,
            step: 0,
            limit,
        }
    }

    fn side(&self, p: usize) -> u8 {
        self.pits[3 * p..3 * p + 3].iter().sum()
    }

    /// Sows pit `i` for the player in control, captures, and passes the turn.
    fn sow(&self, i: usize) -> Model {
        self.sow_slam(i).0
    }

    /// [`sow`](Self::sow), and whether the move was a grand slam.
    fn sow_slam(&self, i: usize) -> (Model, bool) {
        let mut s = self.clone();
        let mut hand = s.pits[i];
        s.pits[i] = 0;
        let mut at = i;
        while hand > 0 {
            at = (at + 1) % 6;
            if at != i {
                s.pits[at] += 1;
                hand -= 1;
            }
        }
        let p = self.control;
        let q = 1 - p;
        let mut chain = Vec::new();
        while owner(at) == q && (2..=3).contains(&s.pits[at]) {
            chain.push(at);
            at = (at + 5) % 6;
        }
        let taken: u8 = chain.iter().map(|&j| s.pits[j]).sum();
        // A grand slam (every seed of the opponent) captures nothing.
        let slam = taken > 0 && taken == s.side(q);
        if !slam {
            for j in chain {
                s.pits[j] = 0;
            }
            s.captured[p] += taken;
        }
        s.control = q;
        s.step += 1;
        (s, slam)
    }

    /// The pits the player in control may sow: non-empty, and giving the opponent a seed if they
    /// have none.
    fn moves(&self) -> Vec<usize> {
        let p = self.control;
        let starving = self.side(1 - p) == 0;
        (3 * p..3 * p + 3)
            .filter(|&i| self.pits[i] > 0)
            .filter(|&i| !starving || self.sow(i).side(1 - p) > 0)
            .collect()
    }

    fn over(&self) -> bool {
        self.captured.iter().any(|&c| c >= MAJORITY)
            || self.step == self.limit
            || self.moves().is_empty()
    }

    fn totals(&self) -> [u8; 2] {
        [0, 1].map(|p| self.captured[p] + self.side(p))
    }

    fn goals(&self) -> [f64; 2] {
        let [a, b] = self.totals();
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => [1.0, 0.0],
            std::cmp::Ordering::Equal => [0.5, 0.5],
            std::cmp::Ordering::Less => [0.0, 1.0],
        }
    }

    fn legal(&self) -> [Vec<String>; 2] {
        if self.over() {
            return Default::default();
        }
        let mut out = [vec!["noop".to_string()], vec!["noop".to_string()]];
        out[self.control] = self
            .moves()
            .iter()
            .map(|i| format!("(sow {})", i + 1))
            .collect();
        out
    }

    fn fluents(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..6)
            .map(|j| format!("(pit {} {})", j + 1, self.pits[j]))
            .collect();
        for (name, captured) in PLAYERS.iter().zip(self.captured) {
            out.push(format!("(captured {name} {captured})"));
        }
        out.push(format!("(control {})", PLAYERS[self.control]));
        out.push(format!("(step {})", self.step));
        out.sort();
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over() {
            return 1;
        }
        self.moves()
            .iter()
            .map(|&i| self.sow(i).perft(depth - 1))
            .sum()
    }

    /// (complete games, south's minimax value).
    fn solve(&self, memo: &mut HashMap<Model, (u64, f64)>) -> (u64, f64) {
        if self.over() {
            return (1, self.goals()[0]);
        }
        if let Some(&v) = memo.get(self) {
            return v;
        }
        let children: Vec<(u64, f64)> = self
            .moves()
            .iter()
            .map(|&i| self.sow(i).solve(memo))
            .collect();
        let games = children.iter().map(|c| c.0).sum();
        let values = children.iter().map(|c| c.1);
        let value = if self.control == 0 {
            values.fold(0.0, f64::max)
        } else {
            values.fold(1.0, f64::min)
        };
        memo.insert(self.clone(), (games, value));
        (games, value)
    }
}

fn moves(g: &GdlGame, s: &FluentSet) -> Vec<GdlMove> {
    match g.turn(s) {
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            g.legal_moves(s, p, &mut moves);
            moves.to_vec()
        }
        Turn::Over => Vec::new(),
        other => panic!("awale has no {other:?} nodes"),
    }
}

/// (complete games, south's minimax value) through the description.
fn solve(g: &GdlGame, s: &FluentSet, memo: &mut HashMap<FluentSet, (u64, f64)>) -> (u64, f64) {
    let Turn::Player(p) = g.turn(s) else {
        return (1, g.payoff(s, 0));
    };
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let children: Vec<(u64, f64)> = moves(g, s)
        .into_iter()
        .map(|m| solve(g, &child(g, s, m), memo))
        .collect();
    let games = children.iter().map(|c| c.0).sum();
    let values = children.iter().map(|c| c.1);
    let value = if p == 0 {
        values.fold(0.0, f64::max)
    } else {
        values.fold(1.0, f64::min)
    };
    memo.insert(s.clone(), (games, value));
    (games, value)
}

fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    assert_eq!(g.fluent_names(s), m.fluents());
    assert_moves_agree(g, s, &m.legal(), m);
    assert_eq!(g.is_terminal(s), m.over(), "{m:?}");
    if m.over() {
        assert_payoffs_agree(g, s, &m.goals(), m);
    }
}

#[test]
fn the_description_plays_as_the_model_along_random_playouts() {
    let g = awale(2, 50);
    let mut rng = Pcg64::seed_from_u64(1000);
    let (mut states, mut captures, mut slams, mut laps, mut fed) = (0, 0, 0, 0, 0);
    let (mut majority, mut stuck, mut limit) = (0, 0, 0);
    for _ in 0..400 {
        let mut s = g.initial_state();
        let mut m = Model::new(2, 50);
        loop {
            agree(&g, &s, &m);
            states += 1;
            if m.over() {
                match () {
                    _ if m.captured.iter().any(|&c| c >= MAJORITY) => majority += 1,
                    _ if m.step == m.limit => limit += 1,
                    _ => stuck += 1,
                }
                break;
            }
            let legal = moves(&g, &s);
            let mv = legal[rng.gen_range(0..legal.len())];
            let pit: usize = g.move_term(mv)[5..6].parse().unwrap();
            let (next, slam) = m.sow_slam(pit - 1);
            let p = m.control;
            // What the move went through: a capture, a grand slam, a pit sown round the board, a
            // move ruled out because it would not feed the opponent.
            captures += usize::from(next.captured[p] > m.captured[p]);
            slams += usize::from(slam);
            laps += usize::from(m.pits[pit - 1] >= 6);
            let sowable = (3 * p..3 * p + 3).filter(|&i| m.pits[i] > 0).count();
            fed += usize::from(m.moves().len() < sowable);
            s = child(&g, &s, mv);
            m = next;
        }
    }
    assert!(states > 5_000, "{states}");
    assert!(
        captures > 500 && laps > 50 && fed > 20,
        "{captures} captures, {laps} laps, {fed} forced feeds"
    );
    assert!(slams > 0, "{slams}");
    assert!(
        majority > 50 && stuck > 10,
        "{majority} by majority, {stuck} stuck, {limit} at the limit"
    );
}

#[test]
fn the_game_tree_has_the_models_size() {
    let g = awale(2, 50);
    for depth in 1..=9 {
        assert_eq!(
            common::perft(&g, &g.initial_state(), depth, Finished::Leaf),
            Model::new(2, 50).perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn smaller_starts_are_solved_alike() {
    // (At most 12 seeds: the description counts up to 12.)
    for (seeds, limit) in [(1, 16), (2, 10)] {
        let g = awale(seeds, limit);
        let through_rules = solve(&g, &g.initial_state(), &mut HashMap::new());
        let by_model = Model::new(seeds, limit).solve(&mut HashMap::new());
        assert_eq!(through_rules, by_model, "{seeds} seeds, {limit} moves");
        assert!(by_model.0 > 100, "{by_model:?}");
    }
}

#[test]
fn the_round_encoder_refuses_it_for_its_whole_board_tables() {
    // See the description's header: the tables span every pit.
    let err = GdlRound::new(awale(2, 50)).unwrap_err();
    assert!(matches!(err, GdlError::Encoding(_)), "{err}");
    assert!(err.to_string().contains("more than the limit"), "{err}");
}

//! Bomberman for two players (`games/bomberman.kif`), a simultaneous game, against a hand-written
//! model of the same rules that walks each blast cell by cell: along seeded random games the
//! description and the model agree round by round on both players' legal moves, whose turn it is,
//! the successor states, the end and the goals; the game trees agree in size (joint-move perft);
//! and a bomb set off by another, a crate that shields a player and a double burning come out as
//! the rules say.

use std::collections::BTreeSet;

use game_trait::round::VariableKind;
use game_trait::{Game, GeneralGame, RoundGame, Turn};
use gdl::{FluentSet, GdlGame, GdlMove, GdlRound, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{legal, Finished};

const RULES: &str = include_str!("../../games/bomberman.kif");
const PLAYERS: [&str; 2] = ["bomberman", "bomberwoman"];
const SIDE: i8 = 7;
const ROUNDS: u32 = 40;
/// Rounds from a drop to the blast, the drop's own round not counted.
const FUSE: u8 = 3;
/// How far a blast reaches from its bomb.
const RANGE: i8 = 2;
const DIRECTIONS: [(&str, (i8, i8)); 4] = [
    ("north", (0, 1)),
    ("south", (0, -1)),
    ("east", (1, 0)),
    ("west", (-1, 0)),
];
const CRATES: [(i8, i8); 20] = [
    (3, 1),
    (5, 1),
    (6, 1),
    (3, 2),
    (7, 2),
    (1, 3),
    (3, 3),
    (4, 3),
    (6, 3),
    (3, 4),
    (5, 4),
    (2, 5),
    (4, 5),
    (5, 5),
    (7, 5),
    (1, 6),
    (5, 6),
    (2, 7),
    (3, 7),
    (5, 7),
];

fn game() -> GdlGame {
    gdl::Loader::text(RULES).load().unwrap()
}

/// Cells a player can stand on: on the board, and not a pillar (both coordinates even).
fn floor(x: i8, y: i8) -> bool {
    (1..=SIDE).contains(&x) && (1..=SIDE).contains(&y) && !(x % 2 == 0 && y % 2 == 0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Bomb {
    x: i8,
    y: i8,
    /// Rounds to go: the bomb goes off at the end of the round in which this is 1.
    fuse: u8,
}

/// The game as a player reads the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Model {
    at: [(i8, i8); 2],
    bombs: [Option<Bomb>; 2],
    crates: BTreeSet<(i8, i8)>,
    round: u32,
    burned: [bool; 2],
}

/// A player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Step(usize),
    Stay,
    Drop,
}

impl Move {
    fn name(self) -> String {
        match self {
            Move::Step(d) => format!("(move {})", DIRECTIONS[d].0),
            Move::Stay => "stay".into(),
            Move::Drop => "drop".into(),
        }
    }
}

impl Model {
    fn new() -> Model {
        Model {
            at: [(1, 1), (SIDE, SIDE)],
            bombs: [None, None],
            crates: CRATES.into_iter().collect(),
            round: 0,
            burned: [false, false],
        }
    }

    fn over(&self) -> bool {
        self.burned.contains(&true) || self.round == ROUNDS
    }

    fn bomb_at(&self, x: i8, y: i8) -> bool {
        self.bombs.iter().flatten().any(|b| (b.x, b.y) == (x, y))
    }

    /// Player `p`'s legal moves, in the order of their names (as the tests compare them).
    fn moves(&self, p: usize) -> Vec<Move> {
        let (x, y) = self.at[p];
        let mut out = vec![Move::Stay];
        for (d, (_, (dx, dy))) in DIRECTIONS.iter().enumerate() {
            let (u, v) = (x + dx, y + dy);
            if floor(u, v) && !self.crates.contains(&(u, v)) && !self.bomb_at(u, v) {
                out.push(Move::Step(d));
            }
        }
        if self.bombs[p].is_none() && !self.bomb_at(x, y) {
            out.push(Move::Drop);
        }
        out.sort_by_key(|m| m.name());
        out
    }

    /// The cells the bombs going off this round reach, walked out from each bomb.
    fn blast(&self) -> BTreeSet<(i8, i8)> {
        let mut out = BTreeSet::new();
        for b in self.bombs.iter().flatten().filter(|b| b.fuse == 1) {
            out.insert((b.x, b.y));
            for (_, (dx, dy)) in DIRECTIONS {
                for k in 1..=RANGE {
                    let cell = (b.x + k * dx, b.y + k * dy);
                    if !floor(cell.0, cell.1) {
                        break;
                    }
                    out.insert(cell);
                    if self.crates.contains(&cell) {
                        break;
                    }
                }
            }
        }
        out
    }

    fn play(&self, moves: [Move; 2]) -> Model {
        let blast = self.blast();
        let mut next = self.clone();
        next.round += 1;
        next.crates.retain(|c| !blast.contains(c));
        for p in 0..2 {
            next.bombs[p] = self.bombs[p].and_then(|b| match b.fuse {
                1 => None,
                _ if blast.contains(&(b.x, b.y)) => Some(Bomb { fuse: 1, ..b }),
                f => Some(Bomb { fuse: f - 1, ..b }),
            });
        }
        for (p, mv) in moves.into_iter().enumerate() {
            let (x, y) = self.at[p];
            match mv {
                Move::Step(d) => {
                    let (dx, dy) = DIRECTIONS[d].1;
                    next.at[p] = (x + dx, y + dy);
                }
                Move::Stay => {}
                Move::Drop => next.bombs[p] = Some(Bomb { x, y, fuse: FUSE }),
            }
            next.burned[p] = blast.contains(&next.at[p]);
        }
        next
    }

    fn fluents(&self) -> Vec<String> {
        let mut out = vec![format!("(step {})", self.round)];
        for (p, name) in PLAYERS.iter().enumerate() {
            let (x, y) = self.at[p];
            out.push(format!("(at {name} (square {x} {y}))"));
            if let Some(b) = self.bombs[p] {
                let (x, y, t) = (b.x, b.y, b.fuse);
                out.push(format!("(bomb {name} (ticking {x} {y} {t}))"));
            }
            if self.burned[p] {
                out.push(format!("(burned {name})"));
            }
        }
        out.extend(self.crates.iter().map(|(x, y)| format!("(crate {x} {y})")));
        out.sort();
        out
    }

    fn goals(&self) -> [u8; 2] {
        match self.burned {
            [true, false] => [0, 100],
            [false, true] => [100, 0],
            _ => [50, 50],
        }
    }

    /// Whose turn it is, by the rules of `GdlGame::turn`: the one player with a choice, or both.
    fn turn(&self) -> Turn {
        if self.over() {
            return Turn::Over;
        }
        let choosers: Vec<usize> = (0..2).filter(|&p| self.moves(p).len() > 1).collect();
        match choosers[..] {
            [p] => Turn::Player(p),
            _ => Turn::Simultaneous,
        }
    }

    /// Joint-move sequences `depth` rounds long (a finished game counts 1).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over() {
            return 1;
        }
        let (a, b) = (self.moves(0), self.moves(1));
        a.iter()
            .flat_map(|&ma| b.iter().map(move |&mb| [ma, mb]))
            .map(|joint| self.play(joint).perft(depth - 1))
            .sum()
    }
}

fn agree(g: &GdlGame, s: &FluentSet, m: &Model) {
    assert_eq!(g.fluent_names(s), m.fluents(), "{m:?}");
    assert_eq!(g.turn(s), m.turn(), "{m:?}");
    for (p, player) in PLAYERS.iter().enumerate() {
        let mut names: Vec<String> = (g.role_moves(s, p).into_iter())
            .map(|mv| g.move_term(mv))
            .collect();
        names.sort();
        let expected: Vec<String> = match m.over() {
            true => Vec::new(),
            false => m.moves(p).into_iter().map(Move::name).collect(),
        };
        assert_eq!(names, expected, "{player}: {m:?}");
    }
    let goals: Vec<Option<u8>> = g.goals(s).to_vec();
    assert_eq!(goals, m.goals().map(Some), "{m:?}");
}

/// The description's move for the model's.
fn gdl_move(g: &GdlGame, mv: Move) -> GdlMove {
    g.find_move(&mv.name()).unwrap()
}

/// Plays the joint move in both.
fn play(g: &GdlGame, s: &mut FluentSet, m: &mut Model, joint: [Move; 2]) {
    g.play_joint(s, &joint.map(|mv| gdl_move(g, mv)));
    *m = m.play(joint);
    agree(g, s, m);
}

#[test]
fn bomberman_loads_on_the_fast_reasoner_as_a_simultaneous_game() {
    let g = game();
    assert_eq!(
        g.reasoner_kind(),
        ReasonerKind::Fast,
        "{:?}",
        g.fallback_reason()
    );
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    assert!(!g.has_random());
    let report = gdl::Loader::file(common::path("bomberman.kif"))
        .check()
        .unwrap();
    assert!(
        report.fast_reasoner && report.warnings.is_empty(),
        "{report}"
    );
    assert_eq!(g.turn(&g.initial_state()), Turn::Simultaneous);
}

#[test]
fn the_description_plays_as_the_model_along_random_games() {
    let g = game();
    let mut rng = Pcg64::seed_from_u64(1983);
    let (mut states, mut blasts, mut crates) = (0, 0, 0);
    let (mut endings, mut single) = ([0; 4], 0);
    for game in 0..300 {
        let mut s = g.initial_state();
        let mut m = Model::new();
        agree(&g, &s, &m);
        // Uniform play drops a bomb one move in four and mostly ends in the first blast: here
        // two games in three drop more rarely, so that play reaches crates, the other player and
        // the end of time.
        let drop_rate = [0.25, 0.05, 0.01][game % 3];
        while !m.over() {
            let joint = [0, 1].map(|p| {
                let moves = m.moves(p);
                let others: Vec<Move> = (moves.iter().copied())
                    .filter(|&mv| mv != Move::Drop)
                    .collect();
                if moves.contains(&Move::Drop) && rng.gen_bool(drop_rate) {
                    Move::Drop
                } else {
                    others[rng.gen_range(0..others.len())]
                }
            });
            let blast = m.blast();
            blasts += usize::from(!blast.is_empty());
            crates += m.crates.iter().filter(|c| blast.contains(c)).count();
            single += usize::from(matches!(m.turn(), Turn::Player(_)));
            // Both players' legal moves through the reasoner, in the description's order.
            for (p, mv) in joint.iter().enumerate() {
                assert!(legal(&g, &s, p).contains(&gdl_move(&g, *mv)));
            }
            play(&g, &mut s, &mut m, joint);
            states += 1;
        }
        assert_eq!(g.turn(&s), Turn::Over);
        endings[match m.burned {
            [false, false] => 0,
            [true, false] => 1,
            [false, true] => 2,
            [true, true] => 3,
        }] += 1;
    }
    // The games went through the rules that matter: blasts, crates blown away, rounds where one
    // player has no choice, and every ending. (Random players seldom meet, so a bomb set off by
    // another has a test of its own.)
    assert!(states > 4_000, "{states}");
    assert!(
        blasts > 200 && crates > 300,
        "{blasts} blasts, {crates} crates"
    );
    assert!(single > 100, "{single} rounds with one chooser");
    assert!(endings.iter().all(|&n| n > 5), "{endings:?}");
}

#[test]
fn the_game_tree_has_the_models_size() {
    let g = game();
    let model: Vec<u64> = (1..=4).map(|d| Model::new().perft(d)).collect();
    assert_eq!(common::perfts(&g, 4, Finished::Leaf), model);
    // At the start each player can step out of the corner two ways, stay or drop a bomb.
    assert_eq!(model[0], 16);
    // Four rounds in: bomberman has dropped a bomb on (2 1) and run to (1 2), which its blast
    // does not reach; bomberwoman has walked to (6 7).
    let mut s = g.initial_state();
    let mut m = Model::new();
    let east = Move::Step(2);
    let (north, west) = (Move::Step(0), Move::Step(3));
    for joint in [
        [east, west],
        [Move::Drop, Move::Stay],
        [west, Move::Stay],
        [north, Move::Stay],
    ] {
        play(&g, &mut s, &mut m, joint);
    }
    assert_eq!(m.bombs[0].map(|b| b.fuse), Some(1));
    assert_eq!(common::perft(&g, &s, 4, Finished::Leaf), m.perft(4));
}

/// The description with the players and the bombs placed as given, the crates kept.
fn from(at: [(i8, i8); 2], bombs: [Option<Bomb>; 2]) -> (GdlGame, Model) {
    let mut text = RULES.to_string();
    for p in 0..2 {
        let start = Model::new().at[p];
        let shipped = format!(
            "(init (at {} (square {} {})))",
            PLAYERS[p], start.0, start.1
        );
        assert!(text.contains(&shipped));
        let (x, y) = at[p];
        let mut placed = format!("(init (at {} (square {x} {y})))", PLAYERS[p]);
        if let Some(b) = bombs[p] {
            let (x, y, t) = (b.x, b.y, b.fuse);
            placed += &format!(" (init (bomb {} (ticking {x} {y} {t})))", PLAYERS[p]);
        }
        text = text.replace(&shipped, &placed);
    }
    let m = Model {
        at,
        bombs,
        ..Model::new()
    };
    (gdl::Loader::text(&text).load().unwrap(), m)
}

#[test]
fn a_blast_sets_off_another_bomb_a_round_later() {
    // bomberman's bomb on (2 1) goes off now; bomberwoman's on (1 1), next to it, has three
    // rounds to go and is set off for the next round. bomberman, on (1 2), is out of the first
    // blast's reach and hemmed in (a crate north, a bomb south, a pillar east): he can only stay.
    let (g, mut m) = from(
        [(1, 2), (7, 7)],
        [
            Some(Bomb {
                x: 2,
                y: 1,
                fuse: 1,
            }),
            Some(Bomb {
                x: 1,
                y: 1,
                fuse: 3,
            }),
        ],
    );
    let mut s = g.initial_state();
    agree(&g, &s, &m);
    assert_eq!(g.turn(&s), Turn::Player(1));
    play(&g, &mut s, &mut m, [Move::Stay, Move::Stay]);
    assert_eq!(
        m.bombs,
        [
            None,
            Some(Bomb {
                x: 1,
                y: 1,
                fuse: 1
            })
        ]
    );
    assert!(!m.over() && !m.crates.contains(&(3, 1)));
    // The second blast reaches (1 2): bomberman, who stays, burns.
    play(&g, &mut s, &mut m, [Move::Stay, Move::Stay]);
    assert_eq!(m.burned, [true, false]);
    assert_eq!(g.goals(&s).to_vec(), [Some(0), Some(100)]);
}

#[test]
fn a_crate_stops_a_blast_and_is_blown_away() {
    // bomberwoman's bomb on (7 3) goes off: north, the blast reaches (7 4) and the crate on
    // (7 5), which shields bomberwoman on (7 6); south, the crate on (7 2), which shields (7 1),
    // where bomberman stands.
    let (g, mut m) = from(
        [(7, 1), (7, 6)],
        [
            None,
            Some(Bomb {
                x: 7,
                y: 3,
                fuse: 1,
            }),
        ],
    );
    let mut s = g.initial_state();
    agree(&g, &s, &m);
    play(&g, &mut s, &mut m, [Move::Stay, Move::Stay]);
    assert_eq!(m.burned, [false, false]);
    assert!(!m.crates.contains(&(7, 5)) && !m.crates.contains(&(7, 2)));
    // Both crates gone, both players may now step towards the bomb's cell.
    assert!(m.moves(0).contains(&Move::Step(0)) && m.moves(1).contains(&Move::Step(1)));
}

#[test]
fn both_players_in_one_blast_draw() {
    let (g, mut m) = from(
        [(1, 4), (1, 5)],
        [
            Some(Bomb {
                x: 1,
                y: 4,
                fuse: 1,
            }),
            None,
        ],
    );
    let mut s = g.initial_state();
    agree(&g, &s, &m);
    // bomberman steps north into (1 5), bomberwoman stays there: both in the blast.
    play(&g, &mut s, &mut m, [Move::Step(0), Move::Stay]);
    assert_eq!(m.burned, [true, true]);
    assert_eq!(g.goals(&s).to_vec(), [Some(50), Some(50)]);
}

#[test]
fn the_round_encoding_gives_each_player_one_position_variable() {
    let round = GdlRound::new(game()).unwrap();
    eprintln!(
        "bomberman: {:?} in {:?}",
        round.stats(),
        round.encode_time()
    );
    let r = round.round();
    assert!(r.indices(|k| k == VariableKind::Chance).is_empty());
    // `(at p (square x y))`: one variable per player, whose values include every cell a player
    // can stand on.
    for p in PLAYERS {
        let name = format!("(at {p} ?)");
        let vars: Vec<usize> = (r.indices(|k| k == VariableKind::State).into_iter())
            .filter(|&v| r.variables[v].name == name)
            .collect();
        assert_eq!(vars.len(), 1, "{name}");
        let values = &r.variables[vars[0]].values;
        for (x, y) in (1..=SIDE).flat_map(|x| (1..=SIDE).map(move |y| (x, y))) {
            if floor(x, y) {
                let cell = format!("(square {x} {y})");
                assert!(values.contains(&cell), "{cell} in {values:?}");
            }
        }
    }
}

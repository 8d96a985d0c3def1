//! perft: hand-counted small games (alternating, simultaneous, chance), copy-make against make/unmake,
//! and quickcheck against a naive recursive reference on random games mixing every kind of node.

use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, Turn};
use quickcheck::{QuickCheck, TestResult};
use search_core::{perft, perft_divide};

/// Take 1 or 2 stones; copy-make.
struct Nim;

impl Game for Nim {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        5
    }
    fn apply(&self, s: &mut u32, take: u32) -> Option<u32> {
        Some(*s - take)
    }
    fn state_hash(&self, s: &u32) -> Option<u64> {
        Some(u64::from(*s))
    }
}

impl GeneralGame for Nim {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, s: &u32) -> Turn {
        if *s == 0 {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }
    fn legal_moves(&self, s: &u32, _: PlayerId, moves: &mut MoveList<u32>) {
        moves.clear();
        moves.extend((1..=2).filter(|&n| n <= *s));
    }
    fn payoff(&self, _: &u32, _: PlayerId) -> f64 {
        0.5
    }
}

/// The same game, make/unmake.
struct NimInPlace;

impl Game for NimInPlace {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        5
    }
    fn apply(&self, s: &mut u32, take: u32) -> Option<u32> {
        *s -= take;
        None
    }
    fn undo(&self, s: &mut u32, take: u32) {
        *s += take;
    }
    fn state_hash(&self, s: &u32) -> Option<u64> {
        Some(u64::from(*s))
    }
}

impl GeneralGame for NimInPlace {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, s: &u32) -> Turn {
        Nim.turn(s)
    }
    fn legal_moves(&self, s: &u32, p: PlayerId, moves: &mut MoveList<u32>) {
        Nim.legal_moves(s, p, moves)
    }
    fn payoff(&self, _: &u32, _: PlayerId) -> f64 {
        0.5
    }
}

/// Fibonacci: perft of Nim with `n` stones at full depth is the number of compositions of `n` into
/// parts 1 and 2, i.e. F(n+1).
#[test]
fn nim_counts_by_hand() {
    // 5 → {4, 3}; 4 → {3, 2}, 3 → {2, 1}; ...
    assert_eq!(perft(&Nim, &5, 0), 1);
    assert_eq!(perft(&Nim, &5, 1), 2);
    assert_eq!(perft(&Nim, &5, 2), 4);
    // depth 3: 3→{2,1}: 2 each for 4's children {3,2}: 3→2, 2→2 ; 3's children {2,1}: 2→2, 1→1
    assert_eq!(perft(&Nim, &5, 3), 7);
    let fib = [1u64, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89];
    for n in 0..10u32 {
        // Deep enough that every line finishes: the count is the number of complete games.
        assert_eq!(perft(&Nim, &n, 20), fib[n as usize], "n = {n}");
    }
}

#[test]
fn finished_game_counts_one_at_every_depth() {
    for depth in 0..5 {
        assert_eq!(perft(&Nim, &0, depth), 1);
        assert_eq!(perft(&NimInPlace, &0, depth), 1);
    }
}

#[test]
fn make_unmake_counts_equal_copy_make() {
    for n in 0..14 {
        for depth in 0..8 {
            assert_eq!(perft(&Nim, &n, depth), perft(&NimInPlace, &n, depth));
        }
    }
}

#[test]
fn make_unmake_leaves_the_state_as_it_found_it() {
    // `perft` takes `&State`; make sure an in-place game sees consistent states throughout by
    // counting the same position twice in a row and through divide.
    let divided = perft_divide(&NimInPlace, &9, 6);
    let sum: u64 = divided.iter().map(|(_, n)| n).sum();
    assert_eq!(sum, perft(&NimInPlace, &9, 6));
    assert_eq!(divided, perft_divide(&Nim, &9, 6));
    assert_eq!(divided.len(), 2);
    assert_eq!(divided[0].0, vec![1]);
    assert_eq!(divided[0].1, perft(&Nim, &8, 5));
}

#[test]
fn divide_is_empty_without_a_first_move() {
    assert!(perft_divide(&Nim, &5, 0).is_empty());
    assert!(perft_divide(&Nim, &0, 3).is_empty());
}

/// Example 1 of Koriche, Lagrue, Piette and Tabary, *General Game Playing with Stochastic CSP*,
/// 2016 (matching pennies against chance): alice and bob place a coin at once, then chance flips
/// one. `stage` 0: simultaneous; 1: chance; 2: over. A last variant flips the chance coin in the
/// same round (`together`).
#[derive(Clone, Copy)]
struct Pennies {
    together: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Table {
    stage: u8,
    coins: [u8; 3],
}

impl Game for Pennies {
    type State = Table;
    type Move = u8;
    fn initial_state(&self) -> Table {
        Table {
            stage: 0,
            coins: [0; 3],
        }
    }
    fn apply(&self, s: &mut Table, mv: u8) -> Option<Table> {
        assert_eq!(s.stage, 1, "apply is for the chance round");
        Some(Table {
            stage: 2,
            coins: [s.coins[0], s.coins[1], mv],
        })
    }
    fn state_hash(&self, s: &Table) -> Option<u64> {
        Some(u64::from(s.stage) | u64::from(s.coins[0]) << 8 | u64::from(s.coins[1]) << 16)
    }
}

impl GeneralGame for Pennies {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, s: &Table) -> Turn {
        match s.stage {
            0 => Turn::Simultaneous,
            1 => Turn::Chance,
            _ => Turn::Over,
        }
    }
    fn legal_moves(&self, s: &Table, p: PlayerId, moves: &mut MoveList<u8>) {
        moves.clear();
        if s.stage == 0 {
            // alice has heads/tails, bob also may put the coin on its edge.
            moves.extend(0..if p == 0 { 2 } else { 3 });
        }
    }
    fn chance_outcomes(&self, s: &Table, outcomes: &mut ChanceList<u8>) {
        outcomes.clear();
        if s.stage == 1 || (s.stage == 0 && self.together) {
            outcomes.extend([(0, 0.5), (1, 0.5)]);
        }
    }
    fn play_joint(&self, s: &mut Table, joint: &[u8]) {
        assert_eq!(joint.len(), if self.together { 3 } else { 2 });
        s.coins[0] = joint[0];
        s.coins[1] = joint[1];
        s.stage = 1;
        if self.together {
            s.coins[2] = joint[2];
            s.stage = 2;
        }
    }
    fn payoff(&self, s: &Table, _: PlayerId) -> f64 {
        f64::from(u8::from(
            s.coins[0] == s.coins[1] && s.coins[1] == s.coins[2],
        ))
    }
}

#[test]
fn simultaneous_and_chance_counts_by_hand() {
    let game = Pennies { together: false };
    let s = game.initial_state();
    // 2 × 3 joint moves, then 2 chance outcomes each, then over.
    assert_eq!(perft(&game, &s, 1), 6);
    assert_eq!(perft(&game, &s, 2), 12);
    assert_eq!(perft(&game, &s, 5), 12);
    let after = Table {
        stage: 1,
        coins: [1, 0, 0],
    };
    assert_eq!(perft(&game, &after, 1), 2);
    assert_eq!(perft(&game, &after, 3), 2);

    // Chance moving together with the players: 2 × 3 × 2 joint moves, each finishing the game.
    let together = Pennies { together: true };
    assert_eq!(perft(&together, &s, 1), 12);
    assert_eq!(perft(&together, &s, 4), 12);
    let divided = perft_divide(&together, &s, 2);
    assert_eq!(divided.len(), 12);
    assert!(divided.iter().all(|(joint, n)| joint.len() == 3 && *n == 1));
    // Player 0's move varies fastest, the chance outcome slowest.
    assert_eq!(divided[0].0, vec![0, 0, 0]);
    assert_eq!(divided[1].0, vec![1, 0, 0]);
    assert_eq!(divided[2].0, vec![0, 1, 0]);
    assert_eq!(divided[11].0, vec![1, 2, 1]);
}

/// One forced move per ply for `len` plies: perft must not recurse on the call stack.
struct Corridor {
    len: u32,
}

impl Game for Corridor {
    type State = u32;
    type Move = u8;
    fn initial_state(&self) -> u32 {
        0
    }
    fn apply(&self, s: &mut u32, _: u8) -> Option<u32> {
        *s += 1;
        None
    }
    fn undo(&self, s: &mut u32, _: u8) {
        *s -= 1;
    }
    fn state_hash(&self, s: &u32) -> Option<u64> {
        Some(u64::from(*s))
    }
}

impl GeneralGame for Corridor {
    fn players(&self) -> usize {
        1
    }
    fn turn(&self, s: &u32) -> Turn {
        if *s == self.len {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }
    fn legal_moves(&self, _: &u32, _: PlayerId, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.push(0);
    }
    fn payoff(&self, _: &u32, _: PlayerId) -> f64 {
        1.0
    }
}

#[test]
fn a_very_deep_line_does_not_overflow_the_stack() {
    let game = Corridor { len: 50_000 };
    assert_eq!(perft(&game, &0, 60_000), 1);
    assert_eq!(perft(&game, &0, 30_000), 1);
    assert_eq!(perft(&game, &49_999, 1), 1);
}

/// A random game mixing every kind of node, defined by hashing the moves played so far: at most
/// `depth` plies, 1 to 3 players, early finishes, player/chance/simultaneous nodes, branching 1..=3.
#[derive(Clone, Copy, Debug)]
struct Random {
    seed: u64,
    depth: u32,
    players: usize,
}

fn mix(h: u64, x: u64) -> u64 {
    game_trait::hash::splitmix64(h ^ x)
}

/// (hash of the moves so far, plies played).
type Pos = (u64, u32);

impl Random {
    fn root(&self) -> Pos {
        (mix(self.seed, 0x5eed), 0)
    }
    fn turn_at(&self, (h, ply): Pos) -> Turn {
        if ply >= self.depth || (ply > 0 && h % 7 == 0) {
            return Turn::Over;
        }
        match (h >> 8) % 4 {
            0 | 1 => Turn::Player(((h >> 12) % self.players as u64) as usize),
            2 => Turn::Chance,
            _ => Turn::Simultaneous,
        }
    }
    fn moves_at(&self, (h, _): Pos, p: PlayerId, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend(0..1 + ((h >> (24 + 4 * p)) % 3) as u8);
    }
    fn outcomes_at(&self, pos: Pos, outcomes: &mut ChanceList<u8>) {
        outcomes.clear();
        let chance = match self.turn_at(pos) {
            Turn::Chance => true,
            Turn::Simultaneous => (pos.0 >> 20) & 1 == 1,
            _ => false,
        };
        if chance {
            let n = 1 + (pos.0 >> 40) % 3;
            outcomes.extend((0..n as u8).map(|o| (o, 1.0 / n as f64)));
        }
    }
    fn next(&self, (h, ply): Pos, joint: &[u8]) -> Pos {
        (
            joint
                .iter()
                .fold(mix(h, 0xabc), |h, &m| mix(h, u64::from(m))),
            ply + 1,
        )
    }
}

/// Copy-make view of [`Random`].
struct RandomCopy(Random);
/// Make/unmake view of [`Random`]: the state is the stack of positions.
struct RandomInPlace(Random);

impl Game for RandomCopy {
    type State = Pos;
    type Move = u8;
    fn initial_state(&self) -> Pos {
        self.0.root()
    }
    fn apply(&self, s: &mut Pos, mv: u8) -> Option<Pos> {
        Some(self.0.next(*s, &[mv]))
    }
    fn state_hash(&self, s: &Pos) -> Option<u64> {
        Some(s.0)
    }
}

impl GeneralGame for RandomCopy {
    fn players(&self) -> usize {
        self.0.players
    }
    fn turn(&self, s: &Pos) -> Turn {
        self.0.turn_at(*s)
    }
    fn legal_moves(&self, s: &Pos, p: PlayerId, moves: &mut MoveList<u8>) {
        self.0.moves_at(*s, p, moves)
    }
    fn chance_outcomes(&self, s: &Pos, outcomes: &mut ChanceList<u8>) {
        self.0.outcomes_at(*s, outcomes)
    }
    fn play_joint(&self, s: &mut Pos, joint: &[u8]) {
        *s = self.0.next(*s, joint);
    }
    fn payoff(&self, s: &Pos, p: PlayerId) -> f64 {
        (mix(s.0, p as u64) % 3) as f64 / 2.0
    }
}

impl Game for RandomInPlace {
    type State = Vec<Pos>;
    type Move = u8;
    fn initial_state(&self) -> Vec<Pos> {
        vec![self.0.root()]
    }
    fn apply(&self, s: &mut Vec<Pos>, mv: u8) -> Option<Vec<Pos>> {
        s.push(self.0.next(*s.last().unwrap(), &[mv]));
        None
    }
    fn undo(&self, s: &mut Vec<Pos>, _: u8) {
        s.pop();
    }
    fn state_hash(&self, s: &Vec<Pos>) -> Option<u64> {
        Some(s.last().unwrap().0)
    }
}

impl GeneralGame for RandomInPlace {
    fn players(&self) -> usize {
        self.0.players
    }
    fn turn(&self, s: &Vec<Pos>) -> Turn {
        self.0.turn_at(*s.last().unwrap())
    }
    fn legal_moves(&self, s: &Vec<Pos>, p: PlayerId, moves: &mut MoveList<u8>) {
        self.0.moves_at(*s.last().unwrap(), p, moves)
    }
    fn chance_outcomes(&self, s: &Vec<Pos>, outcomes: &mut ChanceList<u8>) {
        self.0.outcomes_at(*s.last().unwrap(), outcomes)
    }
    fn play_joint(&self, s: &mut Vec<Pos>, joint: &[u8]) {
        s.push(self.0.next(*s.last().unwrap(), joint));
    }
    fn payoff(&self, s: &Vec<Pos>, p: PlayerId) -> f64 {
        RandomCopy(self.0).payoff(s.last().unwrap(), p)
    }
}

/// The definition, literally: recursion, clones, `play` and `play_joint`, the cartesian product by
/// nested enumeration.
fn reference<G: GeneralGame>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut children = Vec::new();
    match game.turn(state) {
        Turn::Over => return 1,
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            game.legal_moves(state, p, &mut moves);
            for &mv in &moves {
                let mut child = state.clone();
                game.play(&mut child, mv);
                children.push(child);
            }
        }
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            game.chance_outcomes(state, &mut outcomes);
            for &(mv, _) in &outcomes {
                let mut child = state.clone();
                game.play(&mut child, mv);
                children.push(child);
            }
        }
        Turn::Simultaneous => {
            let mut joints: Vec<Vec<G::Move>> = vec![Vec::new()];
            for p in 0..game.players() {
                let mut moves = MoveList::new();
                game.legal_moves(state, p, &mut moves);
                joints = joints
                    .iter()
                    .flat_map(|j| moves.iter().map(move |&m| [j.clone(), vec![m]].concat()))
                    .collect();
            }
            let mut outcomes = ChanceList::new();
            game.chance_outcomes(state, &mut outcomes);
            if !outcomes.is_empty() {
                joints = joints
                    .iter()
                    .flat_map(|j| {
                        outcomes
                            .iter()
                            .map(move |&(m, _)| [j.clone(), vec![m]].concat())
                    })
                    .collect();
            }
            for joint in joints {
                let mut child = state.clone();
                game.play_joint(&mut child, &joint);
                children.push(child);
            }
        }
    }
    children.iter().map(|c| reference(game, c, depth - 1)).sum()
}

#[test]
fn random_games_match_the_reference_in_both_representations() {
    fn prop(seed: u64, depth: u8, players: u8, search_depth: u8) -> TestResult {
        let game = Random {
            seed,
            depth: u32::from(depth % 7),
            players: 1 + usize::from(players % 3),
        };
        let d = u32::from(search_depth % 8);
        let expected = reference(&RandomCopy(game), &game.root(), d);
        let copy = perft(&RandomCopy(game), &game.root(), d);
        let in_place = perft(&RandomInPlace(game), &vec![game.root()], d);
        let divided: u64 = perft_divide(&RandomInPlace(game), &vec![game.root()], d)
            .iter()
            .map(|(_, n)| n)
            .sum();
        let divide_ok = if d == 0 || game.turn_at(game.root()) == Turn::Over {
            true
        } else {
            divided == expected
        };
        TestResult::from_bool(copy == expected && in_place == expected && divide_ok)
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(u64, u8, u8, u8) -> TestResult);
}

#[test]
fn random_games_exercise_every_kind_of_node() {
    // Guard for the property above: the generator really produces simultaneous nodes with and
    // without chance, chance nodes and player nodes, with several moves.
    let mut seen = [false; 4];
    for seed in 0..200u64 {
        let g = Random {
            seed,
            depth: 3,
            players: 3,
        };
        let pos = g.root();
        let mut outcomes = ChanceList::new();
        g.outcomes_at(pos, &mut outcomes);
        match g.turn_at(pos) {
            Turn::Player(_) => seen[0] = true,
            Turn::Chance => seen[1] = true,
            Turn::Simultaneous if outcomes.is_empty() => seen[2] = true,
            Turn::Simultaneous => seen[3] = true,
            Turn::Over => {}
        }
    }
    assert_eq!(seen, [true; 4]);
}

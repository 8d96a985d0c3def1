//! The shipped games: known counts, brute-force outcomes, and the fast reasoner cross-checked
//! against the reference reasoner along seeded random playouts.

use game_trait::{ChanceList, Game, GeneralGame, MoveList, Turn};
use gdl::{FluentSet, GdlGame, GdlMove, Loader, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common::{child, load, perft, Finished};

/// Complete games of a turn-taking game, by depth-first search.
fn complete_games(g: &GdlGame, s: &FluentSet) -> u64 {
    match g.turn(s) {
        Turn::Over => 1,
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            g.legal_moves(s, p, &mut moves);
            moves
                .iter()
                .map(|&m| complete_games(g, &child(g, s, m)))
                .sum()
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn every_shipped_game_is_valid_and_grounds() {
    for name in [
        "tictactoe.kif",
        "connect4.kif",
        "matching_pennies.kif",
        "montyhall.kif",
        "dice_duel.kif",
        "rps3.kif",
        "orchard.kif",
        "pickomino_mini.kif",
        "yahtzee_mini.kif",
        "cant_stop_mini.kif",
        "backgammon_mini.kif",
        "awale_mini.kif",
    ] {
        let g = load(name);
        assert_eq!(
            g.reasoner_kind(),
            ReasonerKind::Fast,
            "{name}: {:?}",
            g.fallback_reason()
        );
        assert!(g.warnings().is_empty(), "{name}: {:?}", g.warnings());
        let report = gdl::Loader::file(format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR")))
            .check()
            .unwrap();
        assert!(
            report.fast_reasoner && report.warnings.is_empty(),
            "{report}"
        );
    }
}

#[test]
fn the_reference_reasoner_counts_its_join_steps_rule_by_rule() {
    let fast = load("tictactoe.kif");
    let reference = fast.clone().with_reasoner(ReasonerKind::Reference).unwrap();
    let mut rng = Pcg64::seed_from_u64(7);
    for g in [&fast, &reference] {
        g.count_rule_steps();
        let end = gdl::random_playout(g, g.initial_state(), &mut rng, 100).state;
        g.goals(&end);
    }
    // The network's queries join nothing.
    assert_eq!(fast.rule_steps(), (0, Vec::new()));
    let (total, rules) = reference.rule_steps();
    assert!(total > 0);
    // Tic-tac-toe's queries join only rules it wrote, each listed once, most steps first.
    assert_eq!(rules.iter().map(|r| r.steps).sum::<u64>(), total);
    assert!(rules.windows(2).all(|w| w[0].steps >= w[1].steps));
    let mut places: Vec<(&str, &str)> = rules.iter().map(|r| (&*r.location, &*r.rule)).collect();
    places.sort_unstable();
    places.dedup();
    assert_eq!(places.len(), rules.len());
    for head in ["(<= (legal", "(<= (next", "(<= terminal", "(<= (goal"] {
        assert!(
            rules.iter().any(|r| r.rule.starts_with(head)),
            "{head}: {rules:?}"
        );
    }
    // Counting again starts from zero.
    reference.count_rule_steps();
    assert_eq!(reference.rule_steps(), (0, Vec::new()));
}

#[test]
fn tic_tac_toe_complete_games_agree_between_the_reasoners() {
    let g = load("tictactoe.kif");
    let r = g.clone().with_reasoner(ReasonerKind::Reference).unwrap();
    // The reference reasoner is much slower: count a subtree three plies deep with both.
    let mut s = g.initial_state();
    for m in ["(mark 1 1)", "(mark 2 2)", "(mark 3 3)"] {
        s = child(&g, &s, g.find_move(m).unwrap());
    }
    assert_eq!(complete_games(&r, &s), complete_games(&g, &s));
}

#[test]
fn tic_tac_toe_outcomes_match_a_brute_force_count() {
    // Independent brute force on a plain array board: (x wins, o wins, draws) over complete games.
    fn brute(board: &mut [u8; 9], mover: u8, tally: &mut [u64; 3]) {
        const LINES: [[usize; 3]; 8] = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        for l in LINES {
            if board[l[0]] != 0 && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]] {
                tally[board[l[0]] as usize - 1] += 1;
                return;
            }
        }
        if board.iter().all(|&c| c != 0) {
            tally[2] += 1;
            return;
        }
        for i in 0..9 {
            if board[i] == 0 {
                board[i] = mover;
                brute(board, 3 - mover, tally);
                board[i] = 0;
            }
        }
    }
    let mut expected = [0u64; 3];
    brute(&mut [0; 9], 1, &mut expected);
    let g = load("tictactoe.kif");
    fn walk(g: &GdlGame, s: &FluentSet, tally: &mut [u64; 3]) {
        match g.turn(s) {
            Turn::Over => {
                let (x, o) = (g.payoff(s, 0), g.payoff(s, 1));
                assert_eq!(x + o, 1.0);
                tally[if x == 1.0 {
                    0
                } else if o == 1.0 {
                    1
                } else {
                    2
                }] += 1;
            }
            Turn::Player(p) => {
                let mut moves = MoveList::new();
                g.legal_moves(s, p, &mut moves);
                for &m in &moves {
                    walk(g, &child(g, s, m), tally);
                }
            }
            other => panic!("{other:?}"),
        }
    }
    let mut got = [0u64; 3];
    walk(&g, &g.initial_state(), &mut got);
    assert_eq!(got, expected);
    assert_eq!(expected, [131_184, 77_904, 46_080]);
}

/// A smoke check: seven drops, then seven replies to each, with both reasoners. (The workspace's
/// `testdata/perft.toml` holds the perft tables of the shipped games, checked by its tests package.)
#[test]
fn connect_four_perft_smoke() {
    let g = load("connect4.kif");
    let s = g.initial_state();
    assert_eq!(perft(&g, &s, 2, Finished::Nothing), 49);
    let r = g.clone().with_reasoner(ReasonerKind::Reference).unwrap();
    assert_eq!(perft(&r, &s, 2, Finished::Nothing), 49);
}

#[test]
fn connect_four_detects_wins_and_full_columns() {
    let g = load("connect4.kif");
    let mut s = g.initial_state();
    let drop = |c: u32| g.find_move(&format!("(drop {c})")).unwrap();
    // red plays column 1 four times, black column 2 three times: red wins vertically.
    for c in [1, 2, 1, 2, 1, 2, 1] {
        assert!(matches!(g.turn(&s), Turn::Player(_)));
        g.play(&mut s, drop(c));
    }
    assert_eq!(g.turn(&s), Turn::Over);
    assert_eq!((g.payoff(&s, 0), g.payoff(&s, 1)), (1.0, 0.0));
    // A full column is no longer legal.
    let mut s = g.initial_state();
    for _ in 0..6 {
        g.play(&mut s, drop(4));
    }
    let mut moves = MoveList::new();
    g.legal_moves(&s, 0, &mut moves);
    assert_eq!(moves.len(), 6);
    assert!(!moves.contains(&drop(4)));
}

/// Expected payoffs of every player under uniformly random play by everyone (chance by its
/// distribution), computed exactly over the whole game tree.
fn expected_random(g: &GdlGame, s: &FluentSet) -> Vec<f64> {
    let n = g.players();
    match g.turn(s) {
        Turn::Over => (0..n).map(|p| g.payoff(s, p)).collect(),
        _ => {
            let mut acc = vec![0.0; n];
            for (joint, prob) in joint_moves(g, s) {
                let mut c = s.clone();
                g.play_joint(&mut c, &joint);
                for (a, v) in acc.iter_mut().zip(expected_random(g, &c)) {
                    *a += prob * v;
                }
            }
            acc
        }
    }
}

/// Every joint move (players' moves, then chance's if it has a choice) with its probability under
/// uniform play.
fn joint_moves(g: &GdlGame, s: &FluentSet) -> Vec<(Vec<GdlMove>, f64)> {
    let mut out = vec![(Vec::new(), 1.0)];
    for p in 0..g.players() {
        let mut moves = MoveList::new();
        g.legal_moves(s, p, &mut moves);
        let n = moves.len() as f64;
        out = out
            .into_iter()
            .flat_map(|(j, q)| {
                moves
                    .iter()
                    .map(|&m| ([j.clone(), vec![m]].concat(), q / n))
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let mut chance = ChanceList::new();
    g.chance_outcomes(s, &mut chance);
    if !chance.is_empty() {
        out = out
            .into_iter()
            .flat_map(|(j, q)| {
                chance
                    .iter()
                    .map(|&(m, pc)| ([j.clone(), vec![m]].concat(), q * pc))
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    out
}

#[test]
fn matching_pennies_as_in_the_paper() {
    let g = load("matching_pennies.kif");
    assert_eq!(g.roles(), ["alice", "bob", "random"]);
    let s = g.initial_state();
    // Round 1: alice and bob choose at once, random can only noop.
    assert_eq!(g.turn(&s), Turn::Simultaneous);
    let mut chance = ChanceList::new();
    g.chance_outcomes(&s, &mut chance);
    assert!(chance.is_empty());
    let heads = g.find_move("(choose heads)").unwrap();
    let tails = g.find_move("(choose tails)").unwrap();
    let mut won = 0;
    for a in [heads, tails] {
        for b in [heads, tails] {
            let mut s1 = s.clone();
            g.play_joint(&mut s1, &[a, b]);
            // Round 2: random flips a fair coin; the players can only noop.
            assert_eq!(g.turn(&s1), Turn::Chance);
            g.chance_outcomes(&s1, &mut chance);
            assert_eq!(chance.len(), 2);
            assert!(chance.iter().all(|&(_, p)| p == 0.5));
            for &(r, _) in &chance {
                let s2 = child(&g, &s1, r);
                assert_eq!(g.turn(&s2), Turn::Over);
                let pay = g.payoff(&s2, 0);
                assert_eq!(pay, g.payoff(&s2, 1));
                won += (pay > 0.0) as u32;
                assert_eq!(
                    pay > 0.0,
                    a == b && g.move_term(r) == g.move_term(a),
                    "{:?}",
                    g.fluent_names(&s2)
                );
            }
        }
    }
    assert_eq!(won, 2); // HHH and TTT
                        // Uniform play wins 1/4 of the time; goal 1 pays 1/100.
    let e = expected_random(&g, &s);
    assert!((e[0] - 0.25 * 0.01).abs() < 1e-12);
}

#[test]
fn matching_pennies_pasted_verbatim_is_a_located_syntax_error() {
    let printed = "role(alice).\nrole(bob).\nrole(random).\nside(tails).\nside(heads).\n\
        init(coin(alice,unset)).\nlegal(P,choose(X)) ← true(control(P), side(X).\n";
    let err = Loader::text(printed).name("fig1").load().unwrap_err();
    let gdl::GdlError::Syntax { location, message } = &err else {
        panic!("{err}")
    };
    // The parser stops at the `.` where `true(` is still open, and says where it was opened.
    assert_eq!((location.line, location.column), (7, 46), "{message}");
    assert!(message.contains("`true` opened at 7:26"), "{message}");
}

#[test]
fn monty_hall_switching_wins_two_thirds() {
    let g = load("montyhall.kif");
    assert_eq!(g.players(), 1);
    let s = g.initial_state();
    assert_eq!(g.turn(&s), Turn::Simultaneous); // the candidate picks while random hides the car
    let switch = g.find_move("switch").unwrap();
    let noop = g.find_move("noop").unwrap();
    // Exact win probability of "pick a door uniformly, then always `last`".
    fn value(g: &GdlGame, s: &FluentSet, last: GdlMove) -> f64 {
        match g.turn(s) {
            Turn::Over => g.payoff(s, 0),
            Turn::Player(_) => value(g, &child(g, s, last), last),
            _ => joint_moves(g, s)
                .into_iter()
                .map(|(j, p)| {
                    let mut c = s.clone();
                    g.play_joint(&mut c, &j);
                    p * value(g, &c, last)
                })
                .sum(),
        }
    }
    assert!((value(&g, &s, noop) - 1.0 / 3.0).abs() < 1e-12);
    assert!((value(&g, &s, switch) - 2.0 / 3.0).abs() < 1e-12);
    // GDL-II percepts: the candidate sees the opened door.
    let mut s1 = s.clone();
    let (choose1, hide2) = (
        g.find_move("(choose 1)").unwrap(),
        g.find_move("(hide_car 2)").unwrap(),
    );
    g.play_joint(&mut s1, &[choose1, hide2]);
    let open3 = g.find_move("(open_door 3)").unwrap();
    assert_eq!(g.turn(&s1), Turn::Simultaneous); // random's only choice is door 3; the candidate noops
    assert_eq!(
        g.percepts(&s1, &[noop, open3]),
        vec![("candidate".to_string(), "(opened 3)".to_string())]
    );
}

#[test]
fn dice_duel_value_matches_a_hand_computation() {
    let g = load("dice_duel.kif");
    // Expectimax: each player maximises its own payoff, chance averages.
    fn value(g: &GdlGame, s: &FluentSet) -> [f64; 2] {
        match g.turn(s) {
            Turn::Over => [g.payoff(s, 0), g.payoff(s, 1)],
            Turn::Player(p) => {
                let mut moves = MoveList::new();
                g.legal_moves(s, p, &mut moves);
                moves
                    .iter()
                    .map(|&m| value(g, &child(g, s, m)))
                    .max_by(|a, b| a[p].total_cmp(&b[p]))
                    .unwrap_or([0.0; 2])
            }
            Turn::Chance => {
                let mut chance = ChanceList::new();
                g.chance_outcomes(s, &mut chance);
                chance.iter().fold([0.0; 2], |acc, &(m, p)| {
                    let v = value(g, &child(g, s, m));
                    [acc[0] + p * v[0], acc[1] + p * v[1]]
                })
            }
            Turn::Simultaneous => panic!("dice duel is turn-taking"),
        }
    }
    // By hand: bob, knowing alice's score a, gambles iff E[gamble] = (6 - a + 1/2) / 6 beats his safe
    // payoff (1 if 3 > a, 1/2 if a = 3, 0 otherwise).
    let bob = |a: u32| {
        let gamble = ((6 - a) as f64 + 0.5) / 6.0;
        let safe = if a < 3 {
            1.0
        } else if a == 3 {
            0.5
        } else {
            0.0
        };
        f64::max(gamble, safe)
    };
    let alice_safe = 1.0 - bob(3);
    let alice_gamble = (1..=6).map(|a| 1.0 - bob(a)).sum::<f64>() / 6.0;
    let v = value(&g, &g.initial_state());
    assert!((v[0] - alice_safe.max(alice_gamble)).abs() < 1e-12, "{v:?}");
    assert!((v[0] + v[1] - 1.0).abs() < 1e-12);
}

#[test]
fn rock_paper_scissors_counts_and_outcomes() {
    let g = load("rps3.kif");
    let s = g.initial_state();
    assert_eq!(g.turn(&s), Turn::Simultaneous);
    // 9 joint moves per round, 3 rounds; left wins when it won more rounds.
    fn walk(g: &GdlGame, s: &FluentSet, tally: &mut [u32; 3]) {
        if g.turn(s) == Turn::Over {
            let l = g.payoff(s, 0);
            tally[if l == 1.0 {
                0
            } else if l == 0.0 {
                1
            } else {
                2
            }] += 1;
            return;
        }
        for (j, _) in joint_moves(g, s) {
            let mut c = s.clone();
            g.play_joint(&mut c, &j);
            walk(g, &c, tally);
        }
    }
    let mut tally = [0; 3];
    walk(&g, &s, &mut tally);
    // Brute force: each round is a left win, right win or tie in 3, 3 and 3 of the 9 joint moves.
    let mut expected = [0; 3];
    for rounds in 0..27u32 {
        let (mut l, mut r) = (0, 0);
        for k in 0..3 {
            match rounds / 3u32.pow(k) % 3 {
                0 => l += 1,
                1 => r += 1,
                _ => {}
            }
        }
        expected[if l > r {
            0
        } else if r > l {
            1
        } else {
            2
        }] += 27;
    }
    assert_eq!(tally, expected);
    assert_eq!(tally.iter().sum::<u32>(), 729);
}

/// Plays seeded random playouts with `fast`, asking `reference` the same questions at every state.
fn cross_check(name: &str, playouts: usize) {
    cross_check_game(name, load(name), playouts);
}

/// [`cross_check`] on a loaded game.
fn cross_check_game(name: &str, fast: GdlGame, playouts: usize) {
    assert_eq!(fast.reasoner_kind(), ReasonerKind::Fast, "{name}");
    let reference = fast.clone().with_reasoner(ReasonerKind::Reference).unwrap();
    let mut rng = Pcg64::seed_from_u64(0x5eed ^ name.len() as u64);
    let (mut moves_f, mut moves_r) = (MoveList::new(), MoveList::new());
    let (mut chance_f, mut chance_r) = (ChanceList::new(), ChanceList::new());
    for _ in 0..playouts {
        let mut s = fast.initial_state();
        assert_eq!(s, reference.initial_state());
        loop {
            let turn = fast.turn(&s);
            assert_eq!(
                turn,
                reference.turn(&s),
                "{name}: {:?}",
                fast.fluent_names(&s)
            );
            assert_eq!(
                fast.goals(&s),
                reference.goals(&s),
                "{name}: goals in {:?}",
                fast.fluent_names(&s)
            );
            if turn == Turn::Over {
                break;
            }
            let mut joint = Vec::new();
            for p in 0..fast.players() {
                fast.legal_moves(&s, p, &mut moves_f);
                reference.legal_moves(&s, p, &mut moves_r);
                assert_eq!(
                    moves_f,
                    moves_r,
                    "{name}: legal moves of {p} in {:?}",
                    fast.fluent_names(&s)
                );
                joint.push(moves_f[rng.gen_range(0..moves_f.len())]);
            }
            fast.chance_outcomes(&s, &mut chance_f);
            reference.chance_outcomes(&s, &mut chance_r);
            assert_eq!(chance_f, chance_r);
            if let Some(m) = gdl::sample(&chance_f, &mut rng) {
                joint.push(m);
            }
            let (mut a, mut b) = (s.clone(), s.clone());
            fast.play_joint(&mut a, &joint);
            reference.play_joint(&mut b, &joint);
            assert_eq!(
                a,
                b,
                "{name}: next of {:?} under {joint:?}",
                fast.fluent_names(&s)
            );
            s = a;
        }
    }
}

#[test]
fn cross_check_tic_tac_toe() {
    cross_check("tictactoe.kif", 1000);
}

#[test]
fn cross_check_connect_four() {
    cross_check("connect4.kif", 1000);
}

/// Output relations whose rules read neither `true` nor `does` (a legal move for every role, a goal
/// every role always has, a fluent `next` always adds): the fast reasoner must still produce them.
#[test]
fn outputs_defined_by_static_rules_agree() {
    let text = "
        (role left) (role right)
        (weapon rock) (weapon paper)
        (init (round 0))
        (succ 0 1) (succ 1 2)
        (<= (legal ?p (throw ?w)) (role ?p) (weapon ?w))
        (<= (next (round ?n)) (true (round ?m)) (succ ?m ?n))
        (next seen)
        (<= (next (threw ?p ?w)) (does ?p (throw ?w)))
        (<= terminal (true (round 2)))
        (<= (goal left 50) (role left))
        (<= (goal right 100) (true (threw right paper)))
        (<= (goal right 0) (not (true (threw right paper))))
    ";
    let fast = Loader::text(text).load().unwrap();
    let mut moves = MoveList::new();
    fast.legal_moves(&fast.initial_state(), 0, &mut moves);
    assert_eq!(moves.len(), 2, "the static legal rule gives both throws");
    assert_eq!(fast.goals(&fast.initial_state())[0], Some(50));
    let mut s = fast.initial_state();
    fast.play_joint(&mut s, &[moves[0], moves[0]]);
    assert!(
        fast.fluent_names(&s).iter().any(|f| f == "seen"),
        "{:?}",
        fast.fluent_names(&s)
    );
    cross_check_game("static outputs", fast, 200);
}

#[test]
fn cross_check_chance_and_simultaneous_games() {
    for name in [
        "matching_pennies.kif",
        "montyhall.kif",
        "dice_duel.kif",
        "rps3.kif",
        "orchard.kif",
    ] {
        cross_check(name, 1000);
    }
}

/// Games with more roles than the inline buffers hold (8) work with both reasoners.
#[test]
fn ten_players_choose_at_once() {
    let mut text = String::from("(init (open))\n(<= (next closed) (true (open)))\n");
    text.push_str(
        "(<= terminal (true closed))\n(<= (legal ?p (pick ?n)) (role ?p) (num ?n) (true (open)))\n",
    );
    text.push_str("(num 0) (num 1)\n(<= (goal ?p 100) (role ?p) (true closed))\n(<= (goal ?p 0) (role ?p) (true (open)))\n");
    for i in 0..10 {
        text.push_str(&format!("(role p{i})\n"));
    }
    let fast = Loader::text(&text).load().unwrap();
    assert_eq!(fast.players(), 10);
    assert_eq!(
        GeneralGame::turn(&fast, &fast.initial_state()),
        Turn::Simultaneous
    );
    cross_check_game("ten players", fast, 50);
}

#[test]
fn guarded_frame_axioms_carry_a_fluent_unless_every_guard_holds() {
    // `lamp` is carried by two guarded frame axioms: it goes off only when both guards hold (a
    // reasoner treating each axiom as a mask of its own would turn it off when either does);
    // `mark` has one, the masked copy the network makes of it.
    let text = "(role p) (init lamp) (init mark) (init (clock 0))
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
        (legal p a) (legal p b) (legal p ab) (legal p none)
        (<= hit_a (does p a)) (<= hit_a (does p ab))
        (<= hit_b (does p b)) (<= hit_b (does p ab))
        (<= (next lamp) (true lamp) (not hit_a))
        (<= (next lamp) (true lamp) (not hit_b))
        (<= (next mark) (true mark) (not hit_a))
        (<= (next (clock ?n)) (true (clock ?m)) (succ ?m ?n))
        (<= terminal (true (clock 6)))
        (<= (goal p 100) (true lamp)) (<= (goal p 0) (not (true lamp)))";
    let g = Loader::text(text).name("guards.kif").load().unwrap();
    let after = |m: &str| {
        let mut s = g.initial_state();
        g.play(&mut s, g.find_move(m).unwrap());
        let mut names = g.fluent_names(&s);
        names.retain(|n| !n.starts_with("(clock"));
        names
    };
    assert_eq!(after("a"), ["lamp"]);
    assert_eq!(after("b"), ["lamp", "mark"]);
    assert_eq!(after("ab"), Vec::<String>::new());
    assert_eq!(after("none"), ["lamp", "mark"]);
    cross_check_game("guards", g, 30);
}

/// A two-player vector race in the style of GGP Base's `racer`: each round both cars choose a new
/// velocity, each component within one of the old, and move by it, onto the track only; a
/// disjunction (`not both components zero`) in the legality rule beside the join of velocity,
/// position and track. `disjuncts` 1 drops the disjunction's second half.
fn vector_race(size: i32, disjuncts: usize) -> String {
    let num = |n: i32| {
        if n < 0 {
            format!("m{}", -n)
        } else {
            format!("p{n}")
        }
    };
    let mut t = String::from("(role red) (role blue)\n(init (step 0))\n");
    for (car, x) in [("red", 0), ("blue", 1)] {
        t += &format!("(init (posx {car} p{x})) (init (posy {car} p0))\n");
        t += &format!("(init (velx {car} p0)) (init (vely {car} p0))\n");
    }
    for v in -2..=2 {
        for w in (v - 1).max(-2)..=(v + 1).min(2) {
            t += &format!("(pmone {} {})\n", num(v), num(w));
        }
        for x in 0..size {
            if (0..size).contains(&(x + v)) {
                t += &format!("(add {} {} {})\n", num(x), num(v), num(x + v));
            }
        }
    }
    for x in 0..size {
        for y in (0..size).filter(|y| (3 * x + 5 * y) % 7 != 6) {
            t += &format!("(track {} {})\n", num(x), num(y));
        }
    }
    for step in 0..6 {
        t += &format!("(succ {step} {})\n", step + 1);
    }
    let either = match disjuncts {
        1 => "(distinct ?ndx p0)",
        _ => "(or (distinct ?ndx p0) (distinct ?ndy p0))",
    };
    t += &format!(
        "(<= (legal_speed ?car ?ndx ?ndy) (true (velx ?car ?dx)) (true (vely ?car ?dy))
             (pmone ?dx ?ndx) (pmone ?dy ?ndy) {either}
             (true (posx ?car ?px)) (true (posy ?car ?py)) (add ?px ?ndx ?x) (add ?py ?ndy ?y)
             (track ?x ?y))
         (<= (legal ?car (speed ?dx ?dy)) (legal_speed ?car ?dx ?dy))
         (<= (legal ?car stay) (role ?car) (not (moves ?car)))
         (<= (moves ?car) (legal_speed ?car ?dx ?dy))
         (<= (next (posx ?car ?x)) (does ?car (speed ?dx ?dy)) (true (posx ?car ?px)) (add ?px ?dx ?x))
         (<= (next (posy ?car ?y)) (does ?car (speed ?dx ?dy)) (true (posy ?car ?py)) (add ?py ?dy ?y))
         (<= (next (posx ?car ?x)) (does ?car stay) (true (posx ?car ?x)))
         (<= (next (posy ?car ?y)) (does ?car stay) (true (posy ?car ?y)))
         (<= (next (velx ?car ?dx)) (does ?car (speed ?dx ?dy)))
         (<= (next (vely ?car ?dy)) (does ?car (speed ?dx ?dy)))
         (<= (next (velx ?car p0)) (does ?car stay))
         (<= (next (vely ?car p0)) (does ?car stay))
         (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
         (<= terminal (true (step 6)))
         (<= (far ?car) (true (posy ?car ?y)) (add p{} ?d ?y) (pmone p2 ?d))
         (<= (goal ?car 100) (far ?car))
         (<= (goal ?car 0) (role ?car) (not (far ?car)))",
        size - 4
    );
    t
}

/// The two rules a disjunction expands into share the join they have in common: grounded once,
/// not once per disjunct (the cause of the slow loads of the racer games), and the fast reasoner
/// still agrees with the reference one.
#[test]
fn the_disjuncts_of_a_rule_are_grounded_with_one_copy_of_their_join() {
    let load = |disjuncts| {
        let text = vector_race(12, disjuncts);
        let game = Loader::text(&text).name("vector race").load().unwrap();
        assert_eq!(game.reasoner_kind(), ReasonerKind::Fast);
        game
    };
    let (one, two) = (load(1), load(2));
    let (r1, r2) = (one.ground_rules().unwrap(), two.ground_rules().unwrap());
    // The second disjunct adds its own rule's instances, a few hundred: without sharing it
    // would add a second copy of the whole join.
    assert!(r2 < r1 + r1 / 10, "one disjunct {r1}, two {r2}");
    cross_check_game("vector race", two, 300);
}

#[test]
fn every_load_is_its_own_game_and_a_clone_the_same() {
    let a = load("tictactoe.kif");
    let b = load("tictactoe.kif");
    assert!(a.identity().is_some());
    assert_ne!(a.identity(), b.identity(), "two loads, two games");
    assert_eq!(
        a.clone().identity(),
        a.identity(),
        "a clone holds the same rules"
    );
}

//! The round encoding of GDL games agrees with the game's own reasoner: along seeded random
//! playouts, the tables give exactly the legal moves, successors, terminal flags and goals.

use std::collections::BTreeSet;

use game_trait::round::{Relation, TableRole, VariableKind};
use game_trait::{Game, GeneralGame, RoundGame};
use gdl::{EncodeOptions, GdlError, GdlGame, GdlMove, GdlRound, Loader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn load(name: &str) -> GdlGame {
    let path = format!("{}/games/{name}.kif", env!("CARGO_MANIFEST_DIR"));
    Loader::file(path).load().expect("a shipped game loads")
}

/// The values of variable `x` that every hard table over `x` and variables with known values
/// allows (`known[v]` the value of round variable `v`, if known).
fn allowed(round: &GdlRound, x: usize, known: &[Option<u32>]) -> BTreeSet<u32> {
    let r = round.round();
    let mut values: BTreeSet<u32> = (0..r.variables[x].values.len() as u32).collect();
    for t in &r.tables {
        let Relation::Allowed(tuples) = &t.relation else {
            continue;
        };
        if !t.scope.contains(&x) || !t.scope.iter().all(|&v| v == x || known[v].is_some()) {
            continue;
        }
        let at = t.scope.iter().position(|&v| v == x).expect("in scope");
        let fits = |tuple: &&Vec<u32>| {
            t.scope
                .iter()
                .zip(tuple.iter())
                .all(|(&v, &value)| v == x || known[v] == Some(value))
        };
        let here: BTreeSet<u32> = tuples.iter().filter(fits).map(|tuple| tuple[at]).collect();
        values.retain(|v| here.contains(v));
    }
    values
}

/// Fixes every helper variable that a hard table determines from the known values, until none
/// is left to fix; asserts that each helper's table is a function of its inputs (exactly one
/// value allowed once they are known).
fn settle(round: &GdlRound, known: &mut [Option<u32>]) {
    let r = round.round();
    loop {
        let mut changed = false;
        for t in &r.tables {
            let Relation::Allowed(tuples) = &t.relation else {
                continue;
            };
            let unknown: Vec<usize> = (0..t.scope.len())
                .filter(|&i| known[t.scope[i]].is_none())
                .collect();
            let [at] = unknown[..] else {
                continue;
            };
            let x = t.scope[at];
            if r.variables[x].kind != VariableKind::Auxiliary {
                continue;
            }
            let fits = |tuple: &&Vec<u32>| {
                (t.scope.iter().zip(tuple.iter()))
                    .all(|(&v, &value)| v == x || known[v] == Some(value))
            };
            let values: BTreeSet<u32> = tuples.iter().filter(fits).map(|tuple| tuple[at]).collect();
            assert_eq!(
                values.len(),
                1,
                "`{}` allows {values:?} for `{}`",
                t.name,
                r.variables[x].name
            );
            known[x] = values.first().copied();
            changed = true;
        }
        if !changed {
            return;
        }
    }
}

/// Each player's reward in a terminal state with these state values, summed over the goal tables.
fn rewards(round: &GdlRound, known: &[Option<u32>]) -> Vec<f64> {
    let r = round.round();
    let mut total = vec![0.0; r.players];
    for t in r.tables.iter().filter(|t| t.role == TableRole::Goal) {
        let Relation::Utility(rows) = &t.relation else {
            panic!("goal table `{}` is not soft", t.name);
        };
        for (tuple, reward) in rows {
            let fits = t
                .scope
                .iter()
                .zip(tuple)
                .all(|(&v, &value)| match r.variables[v].kind {
                    VariableKind::Terminal => value == 1,
                    _ => known[v] == Some(value),
                });
            if fits {
                total.iter_mut().zip(reward).for_each(|(s, r)| *s += r);
            }
        }
    }
    total
}

/// The round index of each role's action variable (`random`'s: the chance variable), by role.
fn action_vars(round: &GdlRound) -> Vec<(usize, Option<usize>)> {
    let r = round.round();
    let game = round.game();
    let mut out = Vec::new();
    for role in 0..game.roles().len() {
        let player = (0..game.players()).find(|&p| game.player_name(p) == game.roles()[role]);
        let kind = player.map_or(VariableKind::Chance, VariableKind::Action);
        let var = r.indices(|k| k == kind);
        out.push((var[0], player));
    }
    out
}

/// Plays `playouts` random games and checks every state; returns the number of states checked.
fn check(round: &GdlRound, seed: u64, playouts: usize) -> usize {
    let game = round.game();
    let r = round.round();
    let state_vars = r.indices(|k| k == VariableKind::State);
    let terminal = r.indices(|k| k == VariableKind::Terminal)[0];
    let actions = action_vars(round);
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..playouts {
        let mut state = game.initial_state();
        loop {
            checked += 1;
            let mut values = Vec::new();
            round.state_values(&state, &mut values);
            let mut known = vec![None; r.variables.len()];
            for (&v, &value) in state_vars.iter().zip(&values) {
                assert!(
                    (value as usize) < r.variables[v].values.len(),
                    "{}",
                    r.variables[v].name
                );
                known[v] = Some(value);
            }
            settle(round, &mut known);
            let over = game.is_terminal(&state);
            assert_eq!(
                allowed(round, terminal, &known),
                BTreeSet::from([u32::from(over)])
            );
            if over {
                let payoffs: Vec<f64> = (0..game.players())
                    .map(|p| game.payoff(&state, p))
                    .collect();
                assert_eq!(
                    rewards(round, &known),
                    payoffs,
                    "{:?}",
                    game.fluent_names(&state)
                );
                break;
            }
            // Legal moves per role, then one drawn at random for each.
            let mut joint = Vec::new();
            for (role, &(var, player)) in actions.iter().enumerate() {
                let rules: BTreeSet<u32> = game
                    .role_moves(&state, role)
                    .into_iter()
                    .map(|m| round.action_value(player, m))
                    .collect();
                assert_eq!(
                    allowed(round, var, &known),
                    rules,
                    "{}",
                    r.variables[var].name
                );
                let pick = *rules
                    .iter()
                    .nth(rng.gen_range(0..rules.len()))
                    .expect("a move");
                known[var] = Some(pick);
                joint.push((player, round.action(player, pick)));
            }
            let mut moves: Vec<GdlMove> = joint
                .iter()
                .filter(|(p, _)| p.is_some())
                .map(|&(_, m)| m)
                .collect();
            moves.extend(joint.iter().filter(|(p, _)| p.is_none()).map(|&(_, m)| m));
            settle(round, &mut known);
            let mut next = state.clone();
            game.play_joint(&mut next, &moves);
            let mut next_values = Vec::new();
            round.state_values(&next, &mut next_values);
            for (i, &s) in state_vars.iter().enumerate() {
                let n = r.indices(|k| k == VariableKind::Next(s))[0];
                assert_eq!(
                    allowed(round, n, &known),
                    BTreeSet::from([next_values[i]]),
                    "{}",
                    r.variables[n].name
                );
            }
            state = next;
        }
    }
    checked
}

/// The shipped games the encoder accepts, with the number of random playouts to check: fewer
/// for games whose tables are large (the check scans every tuple of a table at every state).
const ACCEPTED: [(&str, usize); 10] = [
    ("matching_pennies", 30),
    ("rps3", 30),
    ("montyhall", 30),
    ("dice_duel", 30),
    ("tictactoe", 30),
    ("orchard", 30),
    ("pickomino_mini", 10),
    ("yahtzee_mini", 10),
    ("cant_stop_mini", 30),
    ("backgammon_mini", 10),
];

#[test]
fn the_tables_agree_with_the_reasoner_along_random_playouts() {
    for (name, playouts) in ACCEPTED {
        let round = GdlRound::new(load(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let states = check(&round, 7, playouts);
        assert!(states > playouts, "{name}: {states} states");
    }
}

#[test]
fn so_do_the_tables_of_one_boolean_per_fluent() {
    let options = EncodeOptions {
        groups: false,
        ..EncodeOptions::default()
    };
    for name in ["matching_pennies", "rps3", "montyhall", "dice_duel"] {
        let round = GdlRound::with_options(load(name), &options).unwrap();
        let r = round.round();
        let states = r.indices(|k| k == VariableKind::State);
        assert!(states
            .iter()
            .all(|&v| r.variables[v].values == ["false", "true"]));
        assert_eq!(states.len(), round.game().counts().0, "{name}");
        check(&round, 11, 30);
    }
}

/// The names of the values of state variable `name`.
fn values_of(round: &GdlRound, name: &str) -> Vec<String> {
    let r = round.round();
    let v = r.variables.iter().find(|v| v.name == name);
    v.unwrap_or_else(|| panic!("no variable {name}"))
        .values
        .clone()
}

#[test]
fn exclusive_fluents_become_one_variable() {
    let ttt = GdlRound::new(load("tictactoe")).unwrap();
    assert_eq!(values_of(&ttt, "(cell 2 3 ?)"), ["b", "x", "o"]);
    assert_eq!(values_of(&ttt, "(control ?)"), ["xplayer", "oplayer"]);
    // 9 cells and control, their next variables, terminal and one action per player.
    assert_eq!(ttt.stats().variables, 23);
    // The paper's Figure 3: a coin is heads, tails or unset; both players start in control.
    let pennies = GdlRound::new(load("matching_pennies")).unwrap();
    assert_eq!(
        values_of(&pennies, "(coin bob ?)"),
        ["unset", "tails", "heads"]
    );
    assert_eq!(values_of(&pennies, "(control bob)"), ["false", "true"]);
    // No step holds once the game is over: the group has a value for none.
    let monty = GdlRound::new(load("montyhall")).unwrap();
    assert_eq!(values_of(&monty, "(step ?)"), ["1", "2", "3", "4", "none"]);
}

/// Games whose terminal, goal, legal or next rules read too much of the board for one table:
/// helper variables split them. Fewer playouts: their rounds have thousands of tables.
#[test]
fn helper_variables_split_the_rules_that_read_the_whole_board() {
    for (name, playouts) in [("connect4", 6), ("othello", 1)] {
        let round = GdlRound::new(load(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = round.round();
        let helpers = r.indices(|k| k == VariableKind::Auxiliary);
        assert!(!helpers.is_empty(), "{name}");
        // Every helper is defined by one table of its own, named after the atom it stands for.
        for &x in &helpers {
            let defining = (r.tables.iter())
                .filter(|t| t.scope.last() == Some(&x))
                .count();
            assert_eq!(defining, 1, "{name}: {}", r.variables[x].name);
        }
        let states = check(&round, 3, playouts);
        assert!(states > 10 * playouts, "{name}: {states} states");
    }
}

/// Small games with a limit so low that most tables go through helper variables: negated derived
/// atoms, moves and chance read by gates of the transition, goals of several values, all against
/// the reasoner.
#[test]
fn forced_helper_variables_agree_with_the_reasoner() {
    for (name, max_tuples) in [
        ("tictactoe", 64),
        ("montyhall", 64),
        ("dice_duel", 128),
        ("matching_pennies", 32),
    ] {
        let options = EncodeOptions {
            max_tuples,
            ..EncodeOptions::default()
        };
        let round =
            GdlRound::with_options(load(name), &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = round.round();
        assert!(
            r.indices(|k| k == VariableKind::Auxiliary).len() > 2,
            "{name}"
        );
        let states = check(&round, 13, 20);
        assert!(states > 20, "{name}: {states} states");
    }
}

#[test]
fn without_helper_variables_a_terminal_that_reads_the_whole_board_is_refused() {
    let options = EncodeOptions {
        gates: false,
        ..EncodeOptions::default()
    };
    for name in ["connect4", "othello"] {
        let err = GdlRound::with_options(load(name), &options).unwrap_err();
        assert!(matches!(err, GdlError::Encoding(_)), "{name}: {err}");
        assert!(
            err.to_string().contains("table `terminal`"),
            "{name}: {err}"
        );
    }
}

/// Hex's winner is a path across the board, which its rules define recursively: a helper
/// variable cannot stand for an atom that depends on itself.
#[test]
fn recursive_rules_over_the_whole_board_are_refused_with_the_atom() {
    let err = GdlRound::new(load("hex")).unwrap_err().to_string();
    assert!(
        err.contains("table `terminal`") && err.contains("depends on itself"),
        "{err}"
    );
}

#[test]
fn a_table_past_the_limit_is_refused_with_a_reason() {
    let options = EncodeOptions {
        max_tuples: 4,
        ..EncodeOptions::default()
    };
    let err = GdlRound::with_options(load("matching_pennies"), &options).unwrap_err();
    assert!(matches!(err, GdlError::Encoding(_)), "{err}");
    assert!(
        err.to_string().contains("more than the limit of 4"),
        "{err}"
    );
}

/// The total is estimated from the cones, before any table is enumerated.
#[test]
fn a_round_past_the_total_limit_is_refused_before_any_enumeration() {
    let options = EncodeOptions {
        max_total_tuples: 100,
        ..EncodeOptions::default()
    };
    let err = GdlRound::with_options(load("tictactoe"), &options).unwrap_err();
    assert!(
        err.to_string()
            .contains("in all, more than the limit of 100"),
        "{err}"
    );
    let options = EncodeOptions {
        max_total_tuples: 1_000_000,
        ..EncodeOptions::default()
    };
    assert!(GdlRound::with_options(load("tictactoe"), &options).is_ok());
}

#[test]
fn fluents_that_can_hold_together_stay_booleans() {
    // `(p a)` holds throughout and `(p b)` joins it after one round: no group. `(q ?)` moves from
    // 1 to 2 and then holds nothing: at most one, with a value for none.
    let game = Loader::text(
        "(role solo) (init (p a)) (init (q 1)) (init (t 0))
         (legal solo go)
         (<= (next (p a)) (true (p a)))
         (<= (next (p b)) (true (p a)))
         (<= (next (q 2)) (true (q 1)))
         (<= (next (t 1)) (true (t 0)))
         (<= (next (t 2)) (true (t 1)))
         (<= terminal (true (t 2)))
         (goal solo 100)",
    )
    .load()
    .unwrap();
    let round = GdlRound::new(game).unwrap();
    assert_eq!(values_of(&round, "(p a)"), ["false", "true"]);
    assert_eq!(values_of(&round, "(p b)"), ["false", "true"]);
    assert_eq!(values_of(&round, "(q ?)"), ["1", "2", "none"]);
    // No `(t ?)` follows `(t 2)`; that state is terminal, but the analysis does not use that.
    assert_eq!(values_of(&round, "(t ?)"), ["0", "1", "2", "none"]);
    check(&round, 1, 3);
}

//! `scsp-table2`: Koriche, Lagrue, Piette and Tabary, *General Game Playing with Stochastic CSP*
//! (Constraints 21(1), 2016), Table 2: the size of each game's stochastic-CSP encoding.
//!
//! **The paper's setting.** Fifteen GDL games translated by their C++ compiler; for each, the
//! number of variables, the largest domain and the number of constraints of the network, and the
//! seconds the translation took.
//!
//! **Ours.** Our versions of the paper's fifteen games (the dice games and Awale in small
//! variants, chess twice: GGP Base's description, played by the reference reasoner, and ours
//! written to be grounded), the other games MAC-UCB plays and connect four, each parsed and
//! encoded from its text (compiled into the binary). Our encoder ([`GdlRound`]) builds the
//! network of one round of the game (`μSCSP_t`: state, action, chance and next variables, one
//! variable per fluent group), the paper's translator a network of the game that folds fluents
//! into few variables of large domains (Orchard's 146,410 values are 11⁴·10), so the counts are
//! comparable in order of magnitude only. Rules that read a whole board go through helper
//! variables (connect four, Othello); where the encoder refuses a game (Hex's recursive paths,
//! Pac-Man's goals, checkers' size, a description with no ground program) the table prints its
//! reason and the size of the network MAC-UCB plays it by instead: the one its rules give at the
//! start ([`state_network`], labelled `state`). The built-in games
//! that describe their rounds (nim, pennies, pig) follow, with no time (their round is written by
//! hand, not compiled). [`play`] holds the matches (Tables 3 and 4, Figure 6).

pub mod arena;
pub mod play;

use std::time::Instant;

use gametree::game::{Game, RoundGame};
use gametree::gdl::{GdlError, GdlGame, GdlRound, Loader};
use gametree::scsp::games::{CooperativePennies, Nim, Pig};
use gametree::scsp::{state_network, Network};
use serde_json::{json, Value};

use crate::{ExperimentError, Report, ReproduceOptions};

/// Registered name and description of Table 2.
pub const TABLE2: (&str, &str) = (
    "scsp-table2",
    "Koriche et al. 2016, Table 2: variables, largest domain, constraints and seconds of each game's stochastic-CSP encoding",
);

/// The citation every table of these reproductions starts with.
pub const PAPER: &str =
    "Koriche, Lagrue, Piette, Tabary 2016 (General Game Playing with Stochastic CSP)";

/// The text of the shipped GDL game `name`: a compile-time error if there is none.
const fn shipped(name: &str) -> &'static str {
    match gametree::gdl::shipped(name) {
        Some(text) => text,
        None => panic!("not a shipped GDL game"),
    }
}

/// A GDL game of ours: its name and its text.
pub type GdlText = (&'static str, &'static str);

/// The GDL games of the matches that come first in the tables (all encoded by [`GdlRound`]).
/// A game's matches draw their seeds from its place among [`play::games`]: new games go to
/// [`PLAYED_AFTER`].
pub const PLAYED: &[GdlText] = &[
    ("tictactoe", shipped("tictactoe")),
    ("dice_duel", shipped("dice_duel")),
    ("matching_pennies", shipped("matching_pennies")),
    ("montyhall", shipped("montyhall")),
    ("rps3", shipped("rps3")),
    ("orchard", shipped("orchard")),
    ("pickomino_mini", shipped("pickomino_mini")),
    ("yahtzee_mini", shipped("yahtzee_mini")),
    ("cant_stop_mini", shipped("cant_stop_mini")),
    ("backgammon_mini", shipped("backgammon_mini")),
];

/// The rest of the paper's games, played after the built-in ones: through the round's network
/// where [`GdlRound`] encodes the game, else through the networks its rules give at each state.
/// Chess is ours written to be grounded (GGP Base's description plays a few games a second on
/// the reference reasoner).
pub const PLAYED_AFTER: &[GdlText] = &[
    ("awale_mini", shipped("awale_mini")),
    ("bomberman", shipped("bomberman")),
    ("checkers", shipped("checkers")),
    ("chess_groundable", shipped("chess_groundable")),
    ("chinese_checkers3", shipped("chinese_checkers3")),
    ("hex", shipped("hex")),
    ("kaseklau", shipped("kaseklau")),
    ("othello", shipped("othello")),
    ("pacman", shipped("pacman")),
];

/// Games that only Table 2 shows: GGP Base's chess, and connect four, whose lines the encoder
/// splits through helper variables.
const SIZED_ONLY: &[GdlText] = &[
    ("chess", shipped("chess")),
    ("connect4", shipped("connect4")),
];

/// A row of the paper's Table 2: game, #vars, maxDom, #const, seconds.
type PaperSize = (&'static str, u64, u64, u64, u64);

/// The paper's Table 2, for the games we also have (by our name).
const PAPER_TABLE2: &[(&str, PaperSize)] = &[
    ("tictactoe", ("TicTacToe", 19, 18, 37, 0)),
    ("pickomino_mini", ("Pickomino", 29, 1_679_616, 223, 172)),
    ("yahtzee_mini", ("Yathzee", 12, 30, 8862, 182)),
    ("cant_stop_mini", ("Can't Stop", 16, 1296, 409, 248)),
    ("backgammon_mini", ("Backgammon", 76, 768, 86, 347)),
    ("awale_mini", ("Awale", 19, 37, 73, 94)),
    ("bomberman", ("Bombberman", 145, 64, 42, 31)),
    ("chinese_checkers3", ("Chinese Checkers", 103, 192, 87, 54)),
    ("kaseklau", ("Kaseklau", 18, 7776, 106, 35)),
    ("chess_groundable", ("Chess", 71, 4096, 50, 76)),
    ("orchard", ("Orchard", 9, 146_410, 40, 12)),
    ("checkers", ("Checkers", 86, 262_144, 52, 43)),
    ("chess", ("Chess", 71, 4096, 50, 76)),
    ("hex", ("Hex", 22, 6561, 27, 91)),
    ("othello", ("Othello", 81, 65, 29, 51)),
    ("pacman", ("Pacman", 93, 64, 22, 36)),
];

/// One game's encoding: its size, or why the encoder refused it and the size of its network at
/// the start; and the seconds it took.
struct Encoded {
    game: &'static str,
    source: &'static str,
    size: Result<[u64; 3], String>,
    at_start: Option<[u64; 3]>,
    seconds: Option<f64>,
}

/// Variables, largest domain and tables of a round.
fn round_size(round: &gametree::game::round::Round) -> [u64; 3] {
    let max_domain = round.variables.iter().map(|v| v.values.len()).max();
    [
        round.variables.len() as u64,
        max_domain.unwrap_or(0) as u64,
        round.tables.len() as u64,
    ]
}

/// Variables, largest domain and constraints of a network.
fn network_size(network: &Network) -> [u64; 3] {
    let max_domain = network.variables.iter().map(|v| v.domain.len()).max();
    [
        network.variables.len() as u64,
        max_domain.unwrap_or(0) as u64,
        network.constraints.len() as u64,
    ]
}

/// Parses and encodes `text`, timing both; where the encoder refuses, the size of the network
/// the rules give at the start (not timed).
fn encode_gdl((game, text): GdlText) -> Encoded {
    let start = Instant::now();
    let loaded = Loader::text(text).name(format!("{game}.kif")).load();
    let reason = |e: GdlError| match e {
        GdlError::Encoding(reason) => reason,
        e => e.to_string(),
    };
    let size = match &loaded {
        Ok(rules) => GdlRound::new(rules.clone())
            .map(|round| {
                let s = round.stats();
                [
                    s.variables as u64,
                    s.max_domain as u64,
                    s.constraints as u64,
                ]
            })
            .map_err(reason),
        Err(e) => Err(e.to_string()),
    };
    let seconds = Some(start.elapsed().as_secs_f64());
    let at_start = match (&size, &loaded) {
        (Err(_), Ok(rules)) => start_network_size(rules),
        _ => None,
    };
    Encoded {
        game,
        source: "gdl",
        size,
        at_start,
        seconds,
    }
}

/// The size of the network `game`'s rules give at its initial state.
fn start_network_size(game: &GdlGame) -> Option<[u64; 3]> {
    let network = state_network(game, &game.initial_state()).ok()?;
    Some(network_size(&network.network))
}

/// The built-in games that describe their rounds, at their default parameters.
fn built_in() -> Vec<Encoded> {
    let sizes = [
        ("nim", round_size(Nim::new(15).round())),
        ("pennies", round_size(CooperativePennies::new().round())),
        ("pig", round_size(Pig::new(20).round())),
    ];
    sizes
        .into_iter()
        .map(|(game, size)| Encoded {
            game,
            source: "built-in",
            size: Ok(size),
            at_start: None,
            seconds: None,
        })
        .collect()
}

/// `scsp-table2`. See the [module docs](self).
pub fn table2(
    _options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let gdl: Vec<GdlText> = PLAYED
        .iter()
        .chain(PLAYED_AFTER)
        .chain(SIZED_ONLY)
        .copied()
        .collect();
    let total = gdl.len() as u64 + 1;
    let mut encoded = Vec::new();
    progress(0, total);
    for (i, game) in gdl.into_iter().enumerate() {
        encoded.push(encode_gdl(game));
        progress(i as u64 + 1, total);
    }
    encoded.extend(built_in());
    progress(total, total);
    Ok(Report {
        text: table2_text(&encoded),
        rows: encoded.iter().map(table2_row).collect(),
        svg: None,
    })
}

fn paper_size(game: &str) -> Option<PaperSize> {
    PAPER_TABLE2
        .iter()
        .find(|(ours, _)| *ours == game)
        .map(|(_, p)| *p)
}

fn table2_text(encoded: &[Encoded]) -> String {
    let mut text = format!(
        "{PAPER}, Table 2: the games as stochastic constraint networks.\n\
         Ours: one round's network (state, action, chance and next variables; tables), or where \
         the encoder refuses the game the network its rules give at the start (`state`); the \
         paper's network of the game, compiled by their C++ translator, which folds fluents into \
         few variables of large domains.\n\n\
         {:<17} {:>5} {:>6} {:>7} {:>6} {:>8}   {:<16} {:>6} {:>7} {:>6} {:>5}\n",
        "game",
        "net",
        "#vars",
        "maxDom",
        "#const",
        "seconds",
        "paper",
        "#vars",
        "maxDom",
        "#const",
        "time"
    );
    let mut reasons = String::new();
    for e in encoded {
        let seconds = e.seconds.map_or("-".into(), |s| format!("{s:.3}"));
        let ours = match (&e.size, e.at_start) {
            (Ok([v, d, c]), _) => format!("{:>5} {v:>6} {d:>7} {c:>6} {seconds:>8}", "round"),
            (Err(reason), at_start) => {
                reasons += &format!("  {}: {reason}\n", e.game);
                match at_start {
                    Some([v, d, c]) => format!("{:>5} {v:>6} {d:>7} {c:>6} {seconds:>8}", "state"),
                    None => format!("{:>27} {seconds:>8}", "refused (below)"),
                }
            }
        };
        let paper = paper_size(e.game).map_or(String::new(), |(g, v, d, c, t)| {
            format!("   {g:<16} {v:>6} {d:>7} {c:>6} {t:>5}")
        });
        text += &format!("{:<17} {ours}{paper}\n", e.game);
    }
    if !reasons.is_empty() {
        text += &format!(
            "\nWhy the encoder refused (MAC-UCB plays these through the networks their rules give \
             at each state):\n{reasons}"
        );
    }
    text
}

fn table2_row(e: &Encoded) -> Value {
    let (size, reason) = match &e.size {
        Ok(s) => (Some(s), None),
        Err(r) => (None, Some(r)),
    };
    let paper = paper_size(e.game).map(|(game, v, d, c, t)| {
        json!({"game": game, "variables": v, "max_domain": d, "constraints": c, "seconds": t})
    });
    json!({
        "experiment": TABLE2.0,
        "game": e.game,
        "source": e.source,
        "encoded": size.is_some(),
        "variables": size.map(|s| s[0]),
        "max_domain": size.map(|s| s[1]),
        "constraints": size.map(|s| s[2]),
        "seconds": e.seconds,
        "refused": reason,
        "at_start": e.at_start.map(|[v, d, c]| {
            json!({"variables": v, "max_domain": d, "constraints": c})
        }),
        "paper": paper,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text table shows our network beside the paper's, the state network of a refused game,
    /// and why it was refused. (The CLI's test checks the JSON rows of every game.)
    #[test]
    fn table2_text_shows_ours_the_papers_and_the_reasons_for_refusals() {
        let tictactoe = ("tictactoe", shipped("tictactoe"));
        let hex = ("hex", shipped("hex"));
        let mut encoded = vec![encode_gdl(tictactoe), encode_gdl(hex)];
        encoded.extend(built_in());
        let text = table2_text(&encoded);
        let line = |game: &str| {
            let prefix = format!("{game} ");
            text.lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("no row for {game} in\n{text}"))
                .to_owned()
        };
        let tictactoe = line("tictactoe");
        assert!(tictactoe.contains("round"), "{tictactoe}");
        assert!(tictactoe.contains("TicTacToe"), "{tictactoe}");
        assert!(line("hex").contains("state"), "{text}");
        assert!(line("pig").contains("round"), "{text}");
        assert!(text.contains("Why the encoder refused"), "{text}");
        assert!(text.contains("  hex: "), "{text}");
        assert!(text.starts_with(PAPER), "{text}");
    }
}

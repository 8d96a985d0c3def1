//! `scsp-table2`: Koriche, Lagrue, Piette and Tabary, *General Game Playing with Stochastic CSP*
//! (Constraints 21(1), 2016), Table 2: the size of each game's stochastic-CSP encoding.
//!
//! **The paper's setting.** Fifteen GDL games translated by their C++ compiler; for each, the
//! number of variables, the largest domain and the number of constraints of the network, and the
//! seconds the translation took.
//!
//! **Ours.** Our GDL games that the paper also played (tic-tac-toe, checkers, chess, hex, Othello,
//! Pac-Man), connect four, and the games our encoder ([`GdlRound`]) handles, each parsed and
//! encoded from its text (compiled into the binary). Rules that read a whole board go through
//! helper variables (connect four, Othello); the encoder refuses what they cannot split (Hex's
//! recursive paths, Pac-Man's goals) or what is too large in all (checkers), and the table
//! prints its reason. Our encoding is of one round (`μSCSP_t`: state, action, chance and next variables),
//! the paper's of the game, so the counts are comparable in order of magnitude only. The built-in
//! games that describe their rounds (nim, pennies, pig) follow, with no time (their round is
//! written by hand, not compiled). [`play`] holds the matches (Tables 3 and 4,
//! Figure 6).

pub mod arena;
pub mod play;

use std::time::Instant;

use gametree::game::RoundGame;
use gametree::gdl::{GdlError, GdlRound, Loader};
use gametree::scsp::games::{CooperativePennies, Nim, Pig};
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

/// The GDL games that the encoder handles, in the order of the tables.
pub const ENCODABLE: &[GdlText] = &[
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

/// Games that only Table 2 shows: our versions of the paper's games that the encoder refuses
/// (the table prints why) or that take too long to play at the matches' settings, and connect
/// four, whose lines the encoder splits through helper variables.
const SIZED_ONLY: &[GdlText] = &[
    ("connect4", shipped("connect4")),
    ("awale_mini", shipped("awale_mini")),
    ("checkers", shipped("checkers")),
    ("chess", shipped("chess")),
    ("hex", shipped("hex")),
    ("othello", shipped("othello")),
    ("pacman", shipped("pacman")),
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
    ("orchard", ("Orchard", 9, 146_410, 40, 12)),
    ("checkers", ("Checkers", 86, 262_144, 52, 43)),
    ("chess", ("Chess", 71, 4096, 50, 76)),
    ("hex", ("Hex", 22, 6561, 27, 91)),
    ("othello", ("Othello", 81, 65, 29, 51)),
    ("pacman", ("Pacman", 93, 64, 22, 36)),
];

/// One game's encoding: its size, or why the encoder refused it; and the seconds it took.
struct Encoded {
    game: &'static str,
    source: &'static str,
    size: Result<[u64; 3], String>,
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

/// Parses and encodes `text`, timing both.
fn encode_gdl((game, text): GdlText) -> Encoded {
    let start = Instant::now();
    let size = Loader::text(text)
        .name(format!("{game}.kif"))
        .load()
        .and_then(GdlRound::new)
        .map(|round| {
            let s = round.stats();
            [
                s.variables as u64,
                s.max_domain as u64,
                s.constraints as u64,
            ]
        })
        .map_err(|e| match e {
            GdlError::Encoding(reason) => reason,
            e => e.to_string(),
        });
    Encoded {
        game,
        source: "gdl",
        size,
        seconds: Some(start.elapsed().as_secs_f64()),
    }
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
            seconds: None,
        })
        .collect()
}

/// `scsp-table2`. See the [module docs](self).
pub fn table2(
    _options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let gdl: Vec<GdlText> = ENCODABLE.iter().chain(SIZED_ONLY).copied().collect();
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
         Ours: one round's network (state, action, chance and next variables; tables); the paper's \
         network of the game, compiled by their C++ translator.\n\n\
         {:<17} {:>6} {:>7} {:>6} {:>8}   {:<10} {:>6} {:>7} {:>6} {:>5}\n",
        "game",
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
        let ours = match &e.size {
            Ok([v, d, c]) => format!("{v:>6} {d:>7} {c:>6} {seconds:>8}"),
            Err(reason) => {
                reasons += &format!("  {}: {reason}\n", e.game);
                format!("{:>21} {seconds:>8}", "refused (below)")
            }
        };
        let paper = paper_size(e.game).map_or(String::new(), |(g, v, d, c, t)| {
            format!("   {g:<10} {v:>6} {d:>7} {c:>6} {t:>5}")
        });
        text += &format!("{:<17} {ours}{paper}\n", e.game);
    }
    if !reasons.is_empty() {
        text += &format!("\nWhy the encoder refused:\n{reasons}");
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
        "paper": paper,
    })
}

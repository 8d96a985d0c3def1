//! The Universal Chess Interface: [`parse`] reads what a GUI sends, [`run`] is an engine that
//! answers it with any [`Searcher`] of [`Chess`], searching on a thread of its own so that `stop`,
//! `isready` and `quit` are answered at once.
//!
//! # What is understood
//! | command | what the engine does |
//! |---|---|
//! | `uci` | `id name`, `id author`, `uciok` |
//! | `isready` | `readyok`, at once (also while searching) |
//! | `ucinewgame` | forgets what earlier searches learned (table, killers, history) |
//! | `position startpos [moves …]`, `position fen <FEN> [moves …]` | the position to search, with the moves' history (repetitions count) |
//! | `go` with `wtime btime winc binc movestogo movetime depth nodes mate infinite` | searches, reports `info` after each completed depth, then `bestmove` |
//! | `stop` | ends the search; `bestmove` follows |
//! | `quit` | ends the search and the engine |
//! | `debug`, `setoption`, `register`, `ponderhit` | accepted; the engine has no options and does not ponder |
//!
//! The end of the input is `quit` once a search limited by time, depth or nodes has answered
//! (so that a script piped in gets its moves); a search until `stop` is stopped.
//!
//! Anything else, or a malformed argument, gets one `info string error: …` line saying what is
//! wrong, and the engine goes on: it never stops on bad input. As the protocol asks, unknown
//! words before a command are skipped (`joho isready` is `isready`, with a note).
//!
//! # Searching
//! The engine deepens one ply at a time: depth 1, 2, … each a search of the searcher with
//! [`Limits::depth`] (a searcher with a table answers the shallower plies of the next search
//! from it), and after each completed depth it prints
//! `info depth D score cp V|mate M [lowerbound|upperbound] nodes N nps R time T pv …`.
//!
//! **Time.** `movetime T` stops the search `MOVE_OVERHEAD` before `T` ms. With a clock (`wtime`
//! or `btime` for the side to move), the engine aims at `remaining / movestogo + ¾ increment`
//! (`movestogo` 30 when not given): it starts no new depth after 60% of that, and stops a depth
//! in progress at three times that, never later than the remaining time less a reserve (50 ms,
//! or a tenth of what is left if less). A stopped search returns within about a thousand nodes
//! of the deadline (a millisecond at the speeds of this engine). `depth D`, `nodes N` and
//! `mate M` (depth `2M`) limit the search; `infinite` searches until `stop`.
//!
//! A finished game (mate, stalemate) answers `bestmove 0000`. A position that the draw rules
//! end but where moves remain (a repetition the GUI did not claim) is searched as if its history
//! were forgotten, with an `info string` saying so.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cozy_chess::{Color, Move};
use game_trait::{Bound, Limits, MoveList, Searcher, ZeroSumGame};

use crate::error::ChessError;
use crate::eval::mate_in;
use crate::game::Chess;
use crate::position::Position;

/// Time kept back from `movetime` and from the clock for printing the move and the GUI's lag.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(5);

/// The deepest depth `go` without `depth` searches to.
pub const MAX_DEPTH: u32 = 128;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: a new game starts.
    NewGame,
    /// `position …`: the position to search next.
    Position(Box<Position>),
    /// `go …`: search.
    Go(Go),
    /// `stop`: stop searching and answer the best move.
    Stop,
    /// `quit`: stop and exit.
    Quit,
    /// `ponderhit`: the expected move was played (this engine does not ponder).
    PonderHit,
    /// `debug on|off`, `setoption …`, `register …`: accepted, nothing to do.
    Ignored(&'static str),
}

/// The limits of a `go` command, in milliseconds where they are times.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's remaining time.
    pub wtime: Option<u64>,
    /// Black's remaining time.
    pub btime: Option<u64>,
    /// White's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Exactly this long.
    pub movetime: Option<u64>,
    /// At most this deep.
    pub depth: Option<u32>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves (searched to depth `2 × mate`).
    pub mate: Option<u32>,
    /// Until `stop`.
    pub infinite: bool,
    /// Pondering (searched as `infinite`).
    pub ponder: bool,
}

/// Why a line from the GUI was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// No known command in the line.
    #[error("unknown command `{0}`")]
    Unknown(String),
    /// A `position` command that is not `position startpos|fen <FEN> [moves …]`.
    #[error("position: {0}")]
    Position(String),
    /// A bad FEN or move in a `position` command.
    #[error("position: {0}")]
    Chess(#[from] ChessError),
    /// A `go` argument that is not a number where one is expected, or an unknown word.
    #[error("go: {0}")]
    Go(String),
}

/// Reads one line from the GUI: `Ok(None)` for a blank line; otherwise the command and the words
/// skipped before it (unknown words, which the protocol says to ignore).
pub fn parse(line: &str) -> Result<Option<(Command, Vec<String>)>, UciError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(at) = words.iter().position(|w| is_command(w)) else {
        return match words.first() {
            None => Ok(None),
            Some(_) => Err(UciError::Unknown(words.join(" "))),
        };
    };
    let skipped = words[..at].iter().map(|w| w.to_string()).collect();
    let args = &words[at + 1..];
    let command = match words[at] {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "position" => Command::Position(Box::new(parse_position(args)?)),
        "go" => Command::Go(parse_go(args)?),
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "ponderhit" => Command::PonderHit,
        "debug" => Command::Ignored("debug"),
        "setoption" => Command::Ignored("setoption"),
        _ => Command::Ignored("register"),
    };
    Ok(Some((command, skipped)))
}

fn is_command(word: &str) -> bool {
    matches!(
        word,
        "uci"
            | "isready"
            | "ucinewgame"
            | "position"
            | "go"
            | "stop"
            | "quit"
            | "ponderhit"
            | "debug"
            | "setoption"
            | "register"
    )
}

/// `startpos [moves …]` or `fen <FEN> [moves …]`.
fn parse_position(args: &[&str]) -> Result<Position, UciError> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut position = match setup.split_first() {
        Some((&"startpos", [])) => Position::start(),
        Some((&"startpos", extra)) => {
            return Err(UciError::Position(format!(
                "`{}` after startpos; expected `moves` or nothing",
                extra.join(" ")
            )))
        }
        Some((&"fen", fen)) if !fen.is_empty() => Position::from_fen(&fen.join(" "))?,
        Some((&"fen", _)) => return Err(UciError::Position("fen without a FEN".into())),
        Some((other, _)) => {
            return Err(UciError::Position(format!(
                "`{other}`: expected startpos or fen"
            )))
        }
        None => return Err(UciError::Position("expected startpos or fen".into())),
    };
    for text in moves {
        position.play_uci(text)?;
    }
    Ok(position)
}

/// The words of a `go` command.
fn parse_go(args: &[&str]) -> Result<Go, UciError> {
    let mut go = Go::default();
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let mut number = |name: &str| -> Result<u64, UciError> {
            let text = words
                .next()
                .ok_or_else(|| UciError::Go(format!("{name} without a value")))?;
            // Some GUIs send a negative remaining time when the clock has run out.
            if let Ok(negative) = text.parse::<i64>() {
                return Ok(negative.max(0) as u64);
            }
            Err(UciError::Go(format!(
                "{name} `{text}` is not a whole number"
            )))
        };
        match word {
            "wtime" => go.wtime = Some(number(word)?),
            "btime" => go.btime = Some(number(word)?),
            "winc" => go.winc = Some(number(word)?),
            "binc" => go.binc = Some(number(word)?),
            "movestogo" => go.movestogo = Some(number(word)?),
            "movetime" => go.movetime = Some(number(word)?),
            "depth" => go.depth = Some(small(number(word)?, word)?),
            "nodes" => go.nodes = Some(number(word)?),
            "mate" => go.mate = Some(small(number(word)?, word)?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                return Err(UciError::Go(
                    "searchmoves is not supported: every move is searched".into(),
                ))
            }
            other => return Err(UciError::Go(format!("unknown word `{other}`"))),
        }
    }
    Ok(go)
}

fn small(value: u64, name: &str) -> Result<u32, UciError> {
    match u32::try_from(value) {
        Ok(v) if (1..=MAX_DEPTH).contains(&v) => Ok(v),
        _ => Err(UciError::Go(format!(
            "{name} {value} is out of range 1..={MAX_DEPTH}"
        ))),
    }
}

/// When a search of `go` for `side` should stop: `(soft, hard)`, the time after which no new depth
/// starts and the time at which a depth in progress is stopped (see the [module docs](self)).
pub fn budget(go: &Go, side: Color) -> (Option<Duration>, Option<Duration>) {
    let ms = Duration::from_millis;
    if go.infinite || go.ponder {
        return (None, None);
    }
    if let Some(movetime) = go.movetime {
        let hard = ms(movetime).saturating_sub(MOVE_OVERHEAD).max(ms(1));
        return (None, Some(hard));
    }
    let (time, increment) = match side {
        Color::White => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    let Some(time) = time else {
        return (None, None);
    };
    let increment = increment.unwrap_or(0);
    let moves = go.movestogo.unwrap_or(30).max(1);
    let target = time / moves + increment * 3 / 4;
    let reserve = (time / 10).min(50);
    let hard = (3 * target).min(time.saturating_sub(reserve)).max(1);
    let soft = (target * 6 / 10).min(hard);
    (Some(ms(soft)), Some(ms(hard)))
}

/// A job for the searching thread.
enum Job {
    Go {
        root: Box<Position>,
        go: Go,
        stop: Arc<AtomicBool>,
    },
    NewGame,
}

/// Shared output: every line is written whole and flushed.
struct Out<W>(Arc<Mutex<W>>);

impl<W> Clone for Out<W> {
    fn clone(&self) -> Out<W> {
        Out(Arc::clone(&self.0))
    }
}

impl<W: Write> Out<W> {
    fn line(&self, text: &str) -> io::Result<()> {
        let mut out = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        writeln!(out, "{text}")?;
        out.flush()
    }
}

/// Runs a UCI engine: reads commands from `input` until `quit` or the end of the input, answers
/// on `output`. The searcher is made by `make_searcher` on the engine's search thread (so it
/// need not be `Send`); it should honour [`Limits::depth`] and the other limits, as search-core's
/// α/β searchers do. If it cannot be made, the engine says why in an `info string` at each `go`
/// and answers the first legal move. Returns an error only if `output` cannot be written.
pub fn run<R, W, F>(input: R, output: W, make_searcher: F) -> io::Result<()>
where
    R: BufRead,
    W: Write + Send + 'static,
    F: FnOnce() -> Result<Box<dyn Searcher<Chess>>, String> + Send + 'static,
{
    let out = Out(Arc::new(Mutex::new(output)));
    let searching = Arc::new(AtomicBool::new(false));
    let (jobs, inbox) = mpsc::channel::<Job>();
    let worker = {
        let out = out.clone();
        let searching = Arc::clone(&searching);
        std::thread::Builder::new()
            .name("uci-search".into())
            .spawn(move || -> io::Result<()> {
                let mut searcher = make_searcher();
                for job in inbox {
                    match (job, &mut searcher) {
                        (Job::Go { root, go, stop }, Ok(searcher)) => {
                            let answer = think(&mut **searcher, &root, &go, &stop, &out);
                            // Free before the answer: a GUI may send `go` as soon as it reads it.
                            searching.store(false, Ordering::SeqCst);
                            out.line(&format!("bestmove {}", answer?))?;
                        }
                        (Job::Go { root, .. }, Err(why)) => {
                            let mut moves = MoveList::new();
                            root.legal_moves(&mut moves);
                            let answer = moves.first().map_or("0000".into(), |&m| root.uci(m));
                            out.line(&format!("info string error: no searcher: {why}"))?;
                            searching.store(false, Ordering::SeqCst);
                            out.line(&format!("bestmove {answer}"))?;
                        }
                        (Job::NewGame, Ok(searcher)) => searcher.reset(),
                        (Job::NewGame, Err(_)) => {}
                    }
                }
                Ok(())
            })?
    };
    let mut position = Position::start();
    let mut stop = Arc::new(AtomicBool::new(false));
    // Whether the last `go` searches until `stop` (which the end of the input then stands for).
    let mut endless = false;
    let mut quit = false;
    let result = (|| -> io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                // Bytes that are not UTF-8: say so, and read on.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    out.line("info string error: the line is not UTF-8 text")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let (command, skipped) = match parse(&line) {
                Ok(Some(parsed)) => parsed,
                Ok(None) => continue,
                Err(e) => {
                    out.line(&format!("info string error: {e}"))?;
                    continue;
                }
            };
            if !skipped.is_empty() {
                out.line(&format!("info string ignored `{}`", skipped.join(" ")))?;
            }
            match command {
                Command::Uci => {
                    out.line(&format!(
                        "id name gametree chess {}",
                        env!("CARGO_PKG_VERSION")
                    ))?;
                    out.line("id author gametree developers")?;
                    out.line("uciok")?;
                }
                Command::IsReady => out.line("readyok")?,
                Command::NewGame => {
                    position = Position::start();
                    if jobs.send(Job::NewGame).is_err() {
                        break;
                    }
                }
                Command::Position(p) => position = *p,
                Command::Go(go) => {
                    if searching.load(Ordering::SeqCst) {
                        out.line("info string error: go while searching; send stop first")?;
                        continue;
                    }
                    stop = Arc::new(AtomicBool::new(false));
                    endless = go.infinite || go.ponder;
                    searching.store(true, Ordering::SeqCst);
                    let job = Job::Go {
                        root: Box::new(position.clone()),
                        go,
                        stop: Arc::clone(&stop),
                    };
                    if jobs.send(job).is_err() {
                        break;
                    }
                }
                Command::Stop => stop.store(true, Ordering::SeqCst),
                Command::Quit => {
                    quit = true;
                    break;
                }
                Command::PonderHit => {
                    out.line("info string this engine does not ponder: send stop for a move")?
                }
                Command::Ignored(_) => {}
            }
        }
        Ok(())
    })();
    // `quit` stops the search; the end of the input lets a limited search finish (a script piped
    // in ends with its last command) and stops one that would run until `stop`.
    if quit || endless || result.is_err() {
        stop.store(true, Ordering::SeqCst);
    }
    drop(jobs);
    let searched = worker
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the search thread panicked")));
    result.and(searched)
}

/// One `go`: deepens until a limit, reporting each completed depth, and returns the move to answer
/// in UCI notation (`0000` for none).
fn think<W: Write>(
    searcher: &mut dyn Searcher<Chess>,
    root: &Position,
    go: &Go,
    stop: &Arc<AtomicBool>,
    out: &Out<W>,
) -> io::Result<String> {
    let start = Instant::now();
    let mut moves = MoveList::new();
    root.legal_moves(&mut moves);
    let Some(&first) = moves.first() else {
        let why = root.status().describe();
        out.line(&format!("info string the game is over ({why}): no move"))?;
        wait_if_infinite(go, stop);
        return Ok("0000".into());
    };
    let status = root.status();
    let root = if status.is_over() {
        out.line(&format!(
            "info string the game is drawn by the {}; playing on as if the history were forgotten",
            status.describe()
        ))?;
        let fresh = root.without_history();
        if fresh.status().is_over() {
            // A draw the history does not explain (fifty moves, material): any legal move.
            wait_if_infinite(go, stop);
            return Ok(root.uci(first));
        }
        fresh
    } else {
        root.clone()
    };
    let (soft, hard) = budget(go, root.side());
    let deadline = hard.map(|h| start + h);
    let last = go.depth.or(go.mate.map(|m| 2 * m)).unwrap_or(MAX_DEPTH);
    let mut best: Option<Move> = None;
    let mut nodes = 0u64;
    for depth in 1..=last {
        if stop.load(Ordering::SeqCst) || (depth > 1 && soft.is_some_and(|s| start.elapsed() >= s))
        {
            break;
        }
        let remaining = go.nodes.map(|n| n.saturating_sub(nodes));
        if remaining == Some(0) {
            break;
        }
        let limits = Limits {
            depth: Some(depth),
            nodes: remaining,
            deadline,
            stop: Some(Arc::clone(stop)),
        };
        let result = searcher.search(&Chess, &root, &limits);
        nodes += result.stats.generated;
        let stopped = stop.load(Ordering::SeqCst)
            || deadline.is_some_and(|d| Instant::now() >= d)
            || go.nodes.is_some_and(|n| nodes >= n);
        let complete = result.depth == depth || (!stopped && result.depth > 0);
        if !complete {
            // Stopped within this depth: keep the last completed depth's move.
            best = best.or(result.best_move);
            break;
        }
        best = result.best_move.or(best);
        out.line(&info(&root, depth, &result, nodes, start.elapsed()))?;
        if result.depth < depth {
            // Every line ended the game: deeper searches would find the same.
            break;
        }
    }
    wait_if_infinite(go, stop);
    let mv = best.filter(|m| moves.contains(m)).unwrap_or(first);
    Ok(root.uci(mv))
}

/// Under `go infinite` (or `ponder`) the move may be sent only after `stop`.
fn wait_if_infinite(go: &Go, stop: &AtomicBool) {
    if go.infinite || go.ponder {
        while !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// `info depth … score … nodes … nps … time … pv …` for a completed depth.
fn info(
    root: &Position,
    depth: u32,
    result: &game_trait::SearchResult<Move>,
    nodes: u64,
    elapsed: Duration,
) -> String {
    let score = match mate_in(result.value, root.game_ply()) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {}", result.value),
    };
    let bound = match result.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let ms = elapsed.as_millis().max(1) as u64;
    let nps = nodes.saturating_mul(1000) / ms;
    let mut line =
        format!("info depth {depth} score {score}{bound} nodes {nodes} nps {nps} time {ms} pv");
    let mut position = root.clone();
    let mut legal = MoveList::new();
    for &mv in &result.pv {
        legal.clear();
        if Chess.outcome(&position).is_some() {
            break;
        }
        position.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        line.push(' ');
        line.push_str(&position.uci(mv));
        position = position.after(mv);
    }
    line
}

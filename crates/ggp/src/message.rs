//! [`Message`]: the requests of the GGP protocol (Love, Hinrichs, Haley, Schkufza, Genesereth,
//! *General Game Playing: Game Description Language Specification*, 2008), and those of GDL-II
//! (Thielscher, *A General Game Description Language for Incomplete Information Games*, 2010),
//! parsed from their KIF text. Keywords are case-insensitive; everything else keeps its spelling.

use std::fmt;
use std::time::Duration;

use super::sexp::{self, Sexp, SexpError};

/// What the moves of a `play` or `stop` tell: every role's last move, or (GDL-II) only this
/// player's own last move and what it perceived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moves {
    /// `nil`: no move yet (the first `play`).
    None,
    /// `(m1 … mn)`: every role's last move, in the order the rules declare the roles.
    Joint(Vec<Sexp>),
    /// GDL-II: `TURN LASTMOVE (PERCEPTS…)`.
    Private {
        /// The number of moves made so far.
        turn: u64,
        /// This player's last move (`None` for `nil`).
        last_move: Option<Sexp>,
        /// What this player perceived after it.
        percepts: Vec<Sexp>,
    },
}

/// A request of the game manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `(info)`: who the player is and whether it is free.
    Info,
    /// `(start ID ROLE (GDL…) START PLAY)`.
    Start {
        /// The match id.
        id: String,
        /// The role this player plays.
        role: String,
        /// The rules, one clause per element.
        rules: Vec<Sexp>,
        /// Time to answer `ready`.
        start_clock: Duration,
        /// Time to answer each `play`.
        play_clock: Duration,
    },
    /// `(play ID MOVES)`: choose a move.
    Play {
        /// The match id.
        id: String,
        /// The moves made since the last request.
        moves: Moves,
    },
    /// `(stop ID MOVES)`: the match is over after these moves.
    Stop {
        /// The match id.
        id: String,
        /// The last moves.
        moves: Moves,
    },
    /// `(abort ID)`: the match ended early.
    Abort {
        /// The match id.
        id: String,
    },
    /// `(preview (GDL…) CLOCK)`: GGP Base's notice of a game to come; answered `ready` when idle.
    Preview {
        /// Time to answer.
        clock: Duration,
    },
}

/// Why a text is not a GGP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// Not one s-expression.
    Syntax(SexpError),
    /// An s-expression, but not a message this player knows.
    Shape(String),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::Syntax(e) => write!(f, "not a KIF expression: {e}"),
            MessageError::Shape(m) => write!(f, "not a GGP message: {m}"),
        }
    }
}

fn shape(message: impl Into<String>) -> MessageError {
    MessageError::Shape(message.into())
}

impl Message {
    /// Parses a request body.
    pub fn parse(text: &str) -> Result<Message, MessageError> {
        let sexp = sexp::parse(text).map_err(MessageError::Syntax)?;
        let Sexp::List(items) = sexp else {
            return Err(shape("a message is a list such as `(info)`"));
        };
        let Some(head) = items.first().and_then(Sexp::atom) else {
            return Err(shape("a message starts with its name"));
        };
        let args = &items[1..];
        match head.to_ascii_lowercase().as_str() {
            "info" if args.is_empty() => Ok(Message::Info),
            "start" => start(args),
            "play" => {
                let (id, moves) = play_args("play", args)?;
                Ok(Message::Play { id, moves })
            }
            "stop" => {
                let (id, moves) = play_args("stop", args)?;
                Ok(Message::Stop { id, moves })
            }
            "abort" if args.len() == 1 => Ok(Message::Abort {
                id: atom(&args[0], "match id")?,
            }),
            "preview" if args.len() == 2 => Ok(Message::Preview {
                clock: clock(&args[1], "preview clock")?,
            }),
            other => Err(shape(format!(
                "unknown message `{other}` with {} arguments",
                args.len()
            ))),
        }
    }
}

fn atom(s: &Sexp, what: &str) -> Result<String, MessageError> {
    s.atom()
        .map(str::to_string)
        .ok_or_else(|| shape(format!("the {what} must be a symbol, got `{s}`")))
}

/// A clock in seconds: a non-negative integer (decimals accepted), at most a day.
fn clock(s: &Sexp, what: &str) -> Result<Duration, MessageError> {
    let seconds: f64 = s
        .atom()
        .and_then(|a| a.parse().ok())
        .filter(|v: &f64| v.is_finite() && (0.0..=86_400.0).contains(v))
        .ok_or_else(|| shape(format!("the {what} must be seconds, got `{s}`")))?;
    Ok(Duration::from_secs_f64(seconds))
}

fn start(args: &[Sexp]) -> Result<Message, MessageError> {
    // Arguments after the five standard ones are ignored, as GGP Base's players do, so that a
    // manager that sends more still finds this player.
    let [id, role, rules, start_clock, play_clock, ..] = args else {
        return Err(shape(
            "`start` takes a match id, a role, the rules and two clocks",
        ));
    };
    let Sexp::List(rules) = rules else {
        return Err(shape("the rules of `start` must be a list of clauses"));
    };
    Ok(Message::Start {
        id: atom(id, "match id")?,
        role: atom(role, "role")?,
        rules: rules.clone(),
        start_clock: clock(start_clock, "start clock")?,
        play_clock: clock(play_clock, "play clock")?,
    })
}

/// `ID nil`, `ID (m1 … mn)` or (GDL-II) `ID TURN LASTMOVE (PERCEPTS…)`.
fn play_args(name: &str, args: &[Sexp]) -> Result<(String, Moves), MessageError> {
    match args {
        [id, moves] => {
            let moves = match moves {
                m if m.is("nil") => Moves::None,
                Sexp::List(list) => Moves::Joint(list.clone()),
                other => {
                    return Err(shape(format!(
                        "`{name}` moves must be nil or a list, got `{other}`"
                    )))
                }
            };
            Ok((atom(id, "match id")?, moves))
        }
        [id, turn, last, percepts] => {
            let turn = turn.atom().and_then(|t| t.parse().ok()).ok_or_else(|| {
                shape(format!(
                    "the turn of `{name}` must be a number, got `{turn}`"
                ))
            })?;
            let percepts = match percepts {
                p if p.is("nil") => Vec::new(),
                Sexp::List(list) => list.clone(),
                other => return Err(shape(format!("percepts must be a list, got `{other}`"))),
            };
            let last_move = (!last.is("nil")).then(|| last.clone());
            Ok((
                atom(id, "match id")?,
                Moves::Private {
                    turn,
                    last_move,
                    percepts,
                },
            ))
        }
        _ => Err(shape(format!(
            "`{name}` takes a match id and the moves (GDL), or a match id, a turn, the last move \
             and the percepts (GDL-II)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(a: &str) -> Sexp {
        Sexp::Atom(a.into())
    }

    #[test]
    fn parses_every_message_case_insensitively() {
        assert_eq!(Message::parse("( INFO )"), Ok(Message::Info));
        let Ok(Message::Start {
            id,
            role,
            rules,
            start_clock,
            play_clock,
        }) = Message::parse("(Start M1 White ((role White) (role black)) 30 15)")
        else {
            panic!("start");
        };
        assert_eq!(
            (id.as_str(), role.as_str(), rules.len()),
            ("M1", "White", 2)
        );
        assert_eq!((start_clock.as_secs(), play_clock.as_secs()), (30, 15));
        assert_eq!(
            Message::parse("(play m1 NIL)"),
            Ok(Message::Play {
                id: "m1".into(),
                moves: Moves::None
            })
        );
        let Ok(Message::Stop {
            moves: Moves::Joint(m),
            ..
        }) = Message::parse("(STOP m1 ((mark 1 1) noop))")
        else {
            panic!("stop");
        };
        assert_eq!(m[1], atom("noop"));
        assert!(matches!(
            Message::parse("(start m r ((role r)) 10 5 extra)"),
            Ok(Message::Start { .. })
        ));
        assert_eq!(
            Message::parse("(preview ((role r)) 10)"),
            Ok(Message::Preview {
                clock: Duration::from_secs(10)
            })
        );
        assert_eq!(
            Message::parse("(abort m1)"),
            Ok(Message::Abort { id: "m1".into() })
        );
    }

    #[test]
    fn parses_gdl_ii_play_and_stop() {
        let Ok(Message::Play {
            moves:
                Moves::Private {
                    turn,
                    last_move,
                    percepts,
                },
            ..
        }) = Message::parse("(play m 3 (choose 2) ((coin heads) done))")
        else {
            panic!("gdl-ii play");
        };
        assert_eq!(
            (turn, last_move.unwrap().to_string()),
            (3, "(choose 2)".into())
        );
        assert_eq!(percepts.len(), 2);
        let Ok(Message::Stop {
            moves:
                Moves::Private {
                    last_move: None,
                    percepts,
                    ..
                },
            ..
        }) = Message::parse("(stop m 0 nil nil)")
        else {
            panic!("gdl-ii stop");
        };
        assert!(percepts.is_empty());
    }

    #[test]
    fn refuses_what_is_not_a_message() {
        for text in [
            "",
            "GET / HTTP/1.1",
            "info",
            "(info extra)",
            "((info))",
            "(start m r (rules) ten 5)",
            "(start m r role 10 5)",
            "(play m)",
            "(play m 1 2 3 4)",
            "(play m x nil nil)",
            "(play (m) nil)",
            "(abort)",
            "(launch m)",
            "(start m r () 10 -1)",
        ] {
            assert!(Message::parse(text).is_err(), "{text:?}");
        }
    }
}

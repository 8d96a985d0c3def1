//! Text I/O: move sequences (`f5d6c3d3c4`, pass written `ps`) and the board diagram.

use std::fmt;

use crate::error::OthelloError;
use crate::position::{squares, Position};
use crate::square::Move;

/// Parses a move sequence: two-character tokens (`f5`, `F5`, `ps` for a pass), optionally separated
/// by spaces, commas or dashes, such as `"f5d6c3d3c4"` or `"f5 d6 ps"`. Checks the syntax only; see
/// [`Position::play_moves`] for legality.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, OthelloError> {
    let mut moves = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() || c == ',' || (c == '-' && !text[start..].starts_with("--")) {
            chars.next();
            continue;
        }
        // A token is the next two characters, whatever they are; the square parser judges them.
        chars.next();
        let end = chars.next().map_or(text.len(), |(i, c)| i + c.len_utf8());
        let token = &text[start..end];
        let mv = token.parse::<Move>().map_err(|_| OthelloError::BadMove {
            index: moves.len(),
            column: text[..start].chars().count() + 1,
            text: token.to_string(),
        })?;
        moves.push(mv);
    }
    Ok(moves)
}

/// Writes moves as one word, `f5d6c3`.
pub fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect()
}

impl Position {
    /// The position after playing the move sequence `text` (see [`parse_moves`]) from this one;
    /// the first illegal move is reported with its index and the legal moves at that point.
    ///
    /// ```
    /// use othello_bitboard::Position;
    /// let p = Position::start().play_moves("f5d6c3d3c4").unwrap();
    /// assert_eq!(p.empty_count(), 55);
    /// let err = Position::start().play_moves("f5f5").unwrap_err();
    /// assert_eq!(err.to_string(), "illegal move f5 at index 1 (legal: f4 d6 f6)");
    /// ```
    pub fn play_moves(&self, text: &str) -> Result<Position, OthelloError> {
        let mut position = *self;
        for (index, mv) in parse_moves(text)?.into_iter().enumerate() {
            position = position.play(mv).ok_or_else(|| OthelloError::IllegalMove {
                index,
                mv: mv.to_string(),
                legal: format_moves_spaced(&position.legal_moves()),
            })?;
        }
        Ok(position)
    }

    /// The 64-character board of the OBF form followed by the side to move, e.g.
    /// `---------------------------OX------XO--------------------------- X`.
    pub fn to_obf(&self) -> String {
        let mut text: String = (0..64)
            .map(|sq| {
                let bit = 1u64 << sq;
                if self.black() & bit != 0 {
                    'X'
                } else if self.white() & bit != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        text.push(' ');
        text.push(self.side().letter());
        text
    }
}

fn format_moves_spaced(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A diagram with black `X`, white `O`, empty `-`, and the side to move's legal squares `.`:
///
/// ```text
///   a b c d e f g h
/// 1 - - - - - - - -
/// ...
/// 8 - - - - - - - -
/// X to move, X 2 O 2, 60 empty
/// ```
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for rank in 0..8 {
            write!(f, "{}", rank + 1)?;
            for file in 0..8 {
                let bit = 1u64 << (rank * 8 + file);
                let c = if self.black() & bit != 0 {
                    'X'
                } else if self.white() & bit != 0 {
                    'O'
                } else if self.legal_squares() & bit != 0 {
                    '.'
                } else {
                    '-'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let (black, white) = (self.black().count_ones(), self.white().count_ones());
        let status = if self.is_game_over() {
            "game over".to_string()
        } else if self.must_pass() {
            format!("{} must pass", self.side().letter())
        } else {
            format!("{} to move", self.side().letter())
        };
        write!(
            f,
            "{status}, X {black} O {white}, {} empty",
            self.empty_count()
        )
    }
}

/// Lists the squares of a bitboard as names, `d3 c4 f5 e6`.
pub fn square_names(bits: u64) -> String {
    squares(bits)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_parse_with_and_without_separators() {
        let compact = parse_moves("f5d6C3ps").unwrap();
        assert_eq!(format_moves(&compact), "f5d6c3ps");
        assert_eq!(parse_moves(" f5, d6 - c3 ps ").unwrap(), compact);
        assert_eq!(parse_moves("").unwrap(), vec![]);
    }

    #[test]
    fn bad_tokens_are_named_with_index_and_column() {
        assert_eq!(
            parse_moves("f5d6z9").unwrap_err(),
            OthelloError::BadMove {
                index: 2,
                column: 5,
                text: "z9".into()
            }
        );
        assert_eq!(
            parse_moves("f5 d").unwrap_err(),
            OthelloError::BadMove {
                index: 1,
                column: 4,
                text: "d".into()
            }
        );
    }

    #[test]
    fn illegal_moves_are_named_with_their_index() {
        let err = Position::start().play_moves("f5d6c3c3").unwrap_err();
        let OthelloError::IllegalMove { index, mv, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!((index, mv.as_str()), (3, "c3"));
        // A pass is illegal while a disc can be placed.
        assert!(matches!(
            Position::start().play_moves("ps"),
            Err(OthelloError::IllegalMove { index: 0, .. })
        ));
    }

    #[test]
    fn the_start_position_is_drawn_and_written_as_obf() {
        let start = Position::start();
        assert_eq!(
            start.to_obf(),
            "---------------------------OX------XO--------------------------- X"
        );
        let diagram = start.to_string();
        assert!(diagram.starts_with("  a b c d e f g h\n1 - - - - - - - -\n"));
        assert!(diagram.contains("\n4 - - . O X - - -\n"));
        assert!(diagram.contains("\n3 - - - . - - - -\n"));
        assert!(diagram.ends_with("X to move, X 2 O 2, 60 empty"));
        assert_eq!(square_names(start.legal_squares()), "d3 c4 f5 e6");
    }
}

//! The OBF position form of the FFO endgame suites:
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; B1:-4;
//! ```
//!
//! 64 board characters in the order `a1 b1 … h1 a2 … h8` (`X` black, `O` white, `-` empty; `x`, `*`,
//! `o` and `.` are accepted as in Edax), whitespace, the side to move (`X` or `O`), then optionally `;`
//! and `move:score` entries separated by `;`: the exact final disc difference (empties to the winner)
//! that each listed move leads to under perfect play, from the side to move's view. Blank lines and
//! lines starting with `%` or `#` are skipped.

use std::path::Path;

use crate::error::OthelloError;
use crate::position::{Color, Position};
use crate::square::Move;

/// One position of an OBF file, with the scores it lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    /// The position.
    pub position: Position,
    /// The listed `(move, exact score)` pairs, in file order (the FFO files list the best first).
    pub scores: Vec<(Move, i32)>,
    /// 1-based line number in the file.
    pub line: usize,
}

impl ObfPosition {
    /// The exact score of the position: the best listed move score, if any is listed.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, score)| score).max()
    }

    /// The listed moves that reach the best score.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.best_score();
        self.scores
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|&(mv, _)| mv)
            .collect()
    }
}

/// Parses every position of an OBF text.
pub fn parse_obf(text: &str) -> Result<Vec<ObfPosition>, OthelloError> {
    let mut positions = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(position) = parse_obf_line(line, index + 1)? {
            positions.push(position);
        }
    }
    Ok(positions)
}

/// Reads and parses an OBF file.
pub fn read_obf(path: impl AsRef<Path>) -> Result<Vec<ObfPosition>, OthelloError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| OthelloError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    parse_obf(&text)
}

/// Parses one line (numbered `line` in errors); `Ok(None)` for a blank or comment line.
pub fn parse_obf_line(text: &str, line: usize) -> Result<Option<ObfPosition>, OthelloError> {
    let trimmed = text.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with('#') {
        return Ok(None);
    }
    // Columns are counted in characters, 1-based.
    let mut chars = text.chars().enumerate().map(|(i, c)| (i + 1, c)).peekable();
    while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}

    let (mut black, mut white, mut count) = (0u64, 0u64, 0usize);
    while let Some((column, c)) = chars.next_if(|&(_, c)| !c.is_whitespace() && c != ';') {
        let bit = if count < 64 { 1u64 << count } else { 0 };
        match c {
            'X' | 'x' | '*' => black |= bit,
            'O' | 'o' => white |= bit,
            '-' | '.' => {}
            found => {
                return Err(OthelloError::ObfBoardChar {
                    line,
                    column,
                    found,
                })
            }
        }
        count += 1;
    }
    if count != 64 {
        return Err(OthelloError::ObfBoardLength { line, found: count });
    }

    while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
    let side_column = chars
        .peek()
        .map_or(text.chars().count() + 1, |&(col, _)| col);
    let side_text: String =
        std::iter::from_fn(|| chars.next_if(|&(_, c)| !c.is_whitespace() && c != ';'))
            .map(|(_, c)| c)
            .collect();
    let side = match side_text.as_str() {
        "X" | "x" | "*" => Color::Black,
        "O" | "o" => Color::White,
        _ => {
            return Err(OthelloError::ObfSide {
                line,
                column: side_column,
                found: side_text,
            })
        }
    };
    let position =
        Position::from_colors(black, white, side).expect("each square holds one character");

    let rest: Vec<(usize, char)> = chars.collect();
    let scores = parse_scores(&rest, &position, line)?;
    Ok(Some(ObfPosition {
        position,
        scores,
        line,
    }))
}

/// Parses the `; move:score; …` tail (characters with their columns).
fn parse_scores(
    rest: &[(usize, char)],
    position: &Position,
    line: usize,
) -> Result<Vec<(Move, i32)>, OthelloError> {
    let mut scores = Vec::new();
    for entry in rest.split(|&(_, c)| c == ';') {
        let entry: &[(usize, char)] = trim(entry);
        let Some(&(column, _)) = entry.first() else {
            continue;
        };
        let text: String = entry.iter().map(|&(_, c)| c).collect();
        let bad = |reason| OthelloError::ObfScore {
            line,
            column,
            text: text.clone(),
            reason,
        };
        let (mv, score) = text
            .split_once(':')
            .ok_or_else(|| bad("expected move:score such as G8:+18"))?;
        let mv: Move = mv
            .trim()
            .parse()
            .map_err(|_| bad("not a square a1-h8 or ps"))?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| bad("the score is not an integer"))?;
        if !(-64..=64).contains(&score) {
            return Err(bad("the score is outside -64..64"));
        }
        if !position.is_legal(mv) {
            return Err(bad("the move is not legal in this position"));
        }
        scores.push((mv, score));
    }
    Ok(scores)
}

fn trim(entry: &[(usize, char)]) -> &[(usize, char)] {
    let start = entry
        .iter()
        .position(|&(_, c)| !c.is_whitespace())
        .unwrap_or(entry.len());
    let end = entry
        .iter()
        .rposition(|&(_, c)| !c.is_whitespace())
        .map_or(start, |i| i + 1);
    &entry[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST_FFO: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn the_first_ffo_line_parses() {
        let parsed = parse_obf_line(FIRST_FFO, 1).unwrap().unwrap();
        let p = parsed.position;
        assert_eq!(p.side(), Color::Black);
        assert_eq!(p.to_obf(), FIRST_FFO[..66]);
        assert_eq!(p.empty_count(), 14);
        assert_eq!(parsed.scores.len(), 8);
        assert_eq!(parsed.scores[0], ("g8".parse().unwrap(), 18));
        assert_eq!(parsed.scores[7], ("g2".parse().unwrap(), -24));
        assert_eq!(parsed.best_score(), Some(18));
        assert_eq!(parsed.best_moves(), vec!["g8".parse::<Move>().unwrap()]);
        // Every legal move is listed in this file.
        assert_eq!(p.legal_moves().len(), 8);
    }

    #[test]
    fn blank_and_comment_lines_are_skipped() {
        let text = format!("% comment\n\n{FIRST_FFO}\n# another\n");
        let all = parse_obf(&text).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].line, 3);
    }

    #[test]
    fn positions_without_scores_parse() {
        let start = "---------------------------OX------XO--------------------------- X";
        let parsed = parse_obf_line(start, 1).unwrap().unwrap();
        assert_eq!(parsed.position, Position::start());
        assert!(parsed.scores.is_empty());
        assert_eq!(parsed.best_score(), None);
    }

    #[test]
    fn errors_say_what_and_where() {
        let mut bad_char = FIRST_FFO.to_string();
        bad_char.replace_range(4..5, "Z");
        assert_eq!(
            parse_obf_line(&bad_char, 7).unwrap_err(),
            OthelloError::ObfBoardChar {
                line: 7,
                column: 5,
                found: 'Z'
            }
        );
        assert_eq!(
            parse_obf_line(&FIRST_FFO[1..], 2).unwrap_err(),
            OthelloError::ObfBoardLength { line: 2, found: 63 }
        );
        let no_side = &FIRST_FFO[..64];
        assert_eq!(
            parse_obf_line(no_side, 3).unwrap_err(),
            OthelloError::ObfSide {
                line: 3,
                column: 65,
                found: String::new()
            }
        );
        let bad_side = FIRST_FFO.replacen(" X;", " Q;", 1);
        assert!(matches!(
            parse_obf_line(&bad_side, 4).unwrap_err(),
            OthelloError::ObfSide {
                line: 4,
                column: 66,
                ..
            }
        ));
        let bad_score = FIRST_FFO.replacen("H1:+12", "H1:+1x", 1);
        let err = parse_obf_line(&bad_score, 5).unwrap_err();
        assert_eq!(
            err,
            OthelloError::ObfScore {
                line: 5,
                column: 77,
                text: "H1:+1x".into(),
                reason: "the score is not an integer"
            }
        );
        assert_eq!(
            err.to_string(),
            "line 5, column 77: bad move:score entry \"H1:+1x\": the score is not an integer"
        );
        let illegal = FIRST_FFO.replacen("H1:+12", "A1:+12", 1);
        assert!(matches!(
            parse_obf_line(&illegal, 6).unwrap_err(),
            OthelloError::ObfScore {
                line: 6,
                reason: "the move is not legal in this position",
                ..
            }
        ));
    }

    #[test]
    fn missing_files_are_named() {
        let err = read_obf("/nonexistent/x.obf").unwrap_err();
        assert!(err
            .to_string()
            .starts_with("cannot read /nonexistent/x.obf: "));
    }
}

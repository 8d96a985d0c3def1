//! [`Sexp`]: the KIF s-expressions of GGP messages, read with their spelling kept, so that a move
//! is echoed in the manager's own case. The GDL parser lower-cases symbols and wants every list to
//! start with a constant; messages hold lists of lists (`((role x) (role o))`), hence this reader.

use std::fmt;

/// The deepest nesting of parentheses accepted in a message; real rule sheets stay below 20.
pub const MAX_DEPTH: usize = 256;

/// An s-expression: a symbol as received, or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol or number, spelled as received.
    Atom(String),
    /// A parenthesised list (possibly empty).
    List(Vec<Sexp>),
}

/// Why a text is not one s-expression: what, and the byte offset where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SexpError {
    /// Byte offset into the text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SexpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl Sexp {
    /// The symbol, if this is an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            Sexp::List(_) => None,
        }
    }

    /// Whether this is the atom `word`, ignoring case.
    pub fn is(&self, word: &str) -> bool {
        self.atom().is_some_and(|a| a.eq_ignore_ascii_case(word))
    }

    /// Every atom, depth first.
    pub fn atoms<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Sexp::Atom(a) => out.push(a),
            Sexp::List(items) => items.iter().for_each(|i| i.atoms(out)),
        }
    }

    /// The same expression with every atom replaced by `f(atom)`.
    pub fn map_atoms(&self, f: &impl Fn(&str) -> String) -> Sexp {
        match self {
            Sexp::Atom(a) => Sexp::Atom(f(a)),
            Sexp::List(items) => Sexp::List(items.iter().map(|i| i.map_atoms(f)).collect()),
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom(a) => f.write_str(a),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Reads exactly one s-expression from `text` (`;` comments and surrounding blanks allowed).
/// Iterative: depth is bounded by [`MAX_DEPTH`], never by the stack.
pub fn parse(text: &str) -> Result<Sexp, SexpError> {
    let err = |offset, message: &str| SexpError {
        offset,
        message: message.to_string(),
    };
    let mut stack: Vec<Vec<Sexp>> = Vec::new();
    let mut done: Option<Sexp> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let item = match c {
            _ if c.is_whitespace() => continue,
            ';' => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                continue;
            }
            _ if done.is_some() => return Err(err(i, "text after the message")),
            '(' if stack.len() >= MAX_DEPTH => return Err(err(i, "nesting too deep")),
            '(' => {
                stack.push(Vec::new());
                continue;
            }
            ')' => match stack.pop() {
                Some(items) => Sexp::List(items),
                None => return Err(err(i, "unexpected `)`")),
            },
            _ => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_whitespace() || matches!(d, '(' | ')' | ';') {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                Sexp::Atom(text[i..end].to_string())
            }
        };
        match stack.last_mut() {
            Some(list) => list.push(item),
            None => done = Some(item),
        }
    }
    match (done, stack.is_empty()) {
        (Some(sexp), true) => Ok(sexp),
        (_, false) => Err(err(
            text.len(),
            "unexpected end of the message (missing `)`)",
        )),
        (None, true) => Err(err(text.len(), "empty message")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_of_lists_and_keeps_the_spelling() {
        let s = parse(" (START m1 xPlayer ((role xPlayer) (init (cell 1 1 b))) 10 5) ").unwrap();
        assert_eq!(
            s.to_string(),
            "(START m1 xPlayer ((role xPlayer) (init (cell 1 1 b))) 10 5)"
        );
        assert_eq!(parse("()").unwrap(), Sexp::List(vec![]));
        assert_eq!(parse("; hello\n nil").unwrap(), Sexp::Atom("nil".into()));
    }

    #[test]
    fn rejects_what_is_not_one_expression_with_an_offset() {
        for (text, offset) in [("", 0), ("(a b", 4), ("a)", 1), ("(a) (b)", 4), (")", 0)] {
            assert_eq!(parse(text).unwrap_err().offset, offset, "{text:?}");
        }
        let deep = "(".repeat(100_000);
        assert!(parse(&deep).unwrap_err().message.contains("too deep"));
    }
}

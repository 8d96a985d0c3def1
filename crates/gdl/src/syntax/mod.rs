//! Lexer and parser for both accepted syntaxes, producing a small syntax tree ([`Ast`]).
//!
//! * **KIF** (the GGP standard): `(<= (legal ?p (mark ?x ?y)) (true (cell ?x ?y b)))`. Variables start
//!   with `?`; everything else is a constant, compared case-insensitively (normalised to lower case,
//!   variables too). `;` starts a comment (and `%`, as in the infix form).
//! * **Infix** (the Prolog-like form papers print): `legal(P, choose(X)) :- true(control(P)), side(X).`
//!   The arrow is `:-`, `←`, `<-` or `<=`; literals are separated by `,` or `&`; `not` is written
//!   `not(lit)` or `not lit`; every clause ends with `.` (the last one may omit it). Identifiers that
//!   start with an upper-case letter or `_` are **variables** (case-sensitive, `_` alone is a fresh
//!   anonymous variable), as are `?x` names; all other identifiers are constants, normalised to lower
//!   case. `;` and `%` start comments.
//!
//! The first significant character decides: `(` means KIF, anything else infix.
//!
//! Both parsers are recursive descent with a depth guard: nesting deeper than [`MAX_NESTING`] is a
//! syntax error, not a stack overflow; every other input is either parsed or rejected with a
//! [`GdlError::Syntax`] naming the line and column.

pub mod term;

use crate::error::{GdlError, Location};

/// The deepest nesting of parentheses accepted. Real game descriptions stay below 10.
pub const MAX_NESTING: usize = 200;

/// A parsed term, atom or clause, before interning. `(<= h b…)` and `h :- b…` both become
/// `App("<=", [h, b…])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ast {
    /// What it is.
    pub kind: AstKind,
    /// 1-based line and column of its first character.
    pub pos: (u32, u32),
}

/// The shapes of [`Ast`] nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AstKind {
    /// A constant, lower-cased.
    Const(String),
    /// A variable (KIF: lower-cased with its `?`; infix: as written).
    Var(String),
    /// A compound: functor and arguments (at least one).
    App(String, Vec<Ast>),
}

impl Ast {
    /// The clause printed in KIF (`(<= (p ?x) (q ?x))`), for messages and for sending rules
    /// written in the infix form to GGP players; infix variables get their `?`. Iterative, so
    /// deep terms cannot overflow the stack.
    pub fn to_kif(&self) -> String {
        enum Item<'a> {
            Node(&'a Ast),
            Text(&'static str),
        }
        let mut out = String::new();
        let mut stack = vec![Item::Node(self)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Text(t) => out.push_str(t),
                Item::Node(ast) => match &ast.kind {
                    AstKind::Const(c) => out.push_str(c),
                    // Infix variables (`X`, `_#1`) carry no `?`; KIF needs it.
                    AstKind::Var(v) => {
                        if !v.starts_with('?') {
                            out.push('?');
                        }
                        out.push_str(v);
                    }
                    AstKind::App(f, args) => {
                        out.push('(');
                        out.push_str(f);
                        stack.push(Item::Text(")"));
                        for a in args.iter().rev() {
                            stack.push(Item::Node(a));
                            stack.push(Item::Text(" "));
                        }
                    }
                },
            }
        }
        out
    }
}

/// Which syntax a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Parenthesised KIF.
    Kif,
    /// Prolog-like infix.
    Infix,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Comma,
    Amp,
    Period,
    Arrow,
    Var(String),
    Ident(String),
}

/// A token and the line and column it starts at.
type Spanned = (Tok, (u32, u32));

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    column: u32,
    syntax: Syntax,
    file: &'a str,
}

impl Lexer<'_> {
    fn loc(&self, (line, column): (u32, u32)) -> Location {
        Location {
            file: self.file.to_string(),
            line,
            column,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// `;` starts a comment in both syntaxes; `%` (Prolog's) too, also in KIF, because [`detect`]
    /// skips `%` comments to find the first token: a KIF file opening with a `%` header must not
    /// have its words read as facts.
    fn is_comment(&self, c: char) -> bool {
        c == ';' || c == '%'
    }

    fn is_ident_char(&self, c: char) -> bool {
        match self.syntax {
            Syntax::Kif => !(c.is_whitespace() || c == '(' || c == ')' || c == ';' || c == '%'),
            Syntax::Infix => c.is_alphanumeric() || c == '_' || c == '-' || c == '+' || c == '\'',
        }
    }

    /// The next token and where it starts, `None` at the end of the text.
    fn next(&mut self) -> Result<Option<Spanned>, GdlError> {
        loop {
            let Some(&c) = self.chars.peek() else {
                return Ok(None);
            };
            if c.is_whitespace() {
                self.bump();
            } else if self.is_comment(c) {
                while self.chars.peek().is_some_and(|&c| c != '\n') {
                    self.bump();
                }
            } else {
                break;
            }
        }
        let pos = (self.line, self.column);
        let Some(c) = self.bump() else {
            return Ok(None);
        };
        let tok = match c {
            '(' => Tok::Open,
            ')' => Tok::Close,
            '?' => {
                let name = self.ident_rest(String::from("?"));
                if name.len() == 1 {
                    return Err(self.error(pos, "`?` must be followed by a variable name"));
                }
                Tok::Var(match self.syntax {
                    Syntax::Kif => name.to_lowercase(),
                    Syntax::Infix => name,
                })
            }
            _ if self.syntax == Syntax::Kif => {
                Tok::Ident(self.ident_rest(c.to_string()).to_lowercase())
            }
            ',' => Tok::Comma,
            '&' => Tok::Amp,
            '.' => Tok::Period,
            '←' => Tok::Arrow,
            ':' | '<' => {
                let want = if c == ':' {
                    &['-'][..]
                } else {
                    &['-', '='][..]
                };
                match self.chars.peek() {
                    Some(n) if want.contains(n) => {
                        self.bump();
                        Tok::Arrow
                    }
                    _ => {
                        return Err(
                            self.error(pos, &format!("unexpected `{c}` (did you mean `:-`?)"))
                        )
                    }
                }
            }
            _ if self.is_ident_char(c) => {
                let name = self.ident_rest(c.to_string());
                if c.is_uppercase() || c == '_' {
                    Tok::Var(name)
                } else {
                    Tok::Ident(name.to_lowercase())
                }
            }
            _ => return Err(self.error(pos, &format!("unexpected character `{c}`"))),
        };
        Ok(Some((tok, pos)))
    }

    fn ident_rest(&mut self, mut name: String) -> String {
        while let Some(&c) = self.chars.peek() {
            if !self.is_ident_char(c) {
                break;
            }
            name.push(c);
            self.bump();
        }
        name
    }

    fn error(&self, pos: (u32, u32), message: &str) -> GdlError {
        GdlError::Syntax {
            location: self.loc(pos),
            message: message.to_string(),
        }
    }
}

/// Which syntax `text` is written in (see the module docs).
pub fn detect(text: &str) -> Syntax {
    let mut in_comment = false;
    for c in text.chars() {
        if in_comment {
            in_comment = c != '\n';
        } else if c == ';' || c == '%' {
            in_comment = true;
        } else if !c.is_whitespace() {
            return if c == '(' { Syntax::Kif } else { Syntax::Infix };
        }
    }
    Syntax::Kif
}

/// Parses `text` (from `file`, for messages) into its top-level clauses.
pub fn parse(text: &str, file: &str) -> Result<Vec<Ast>, GdlError> {
    let syntax = detect(text);
    let mut p = Parser {
        lexer: Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
            syntax,
            file,
        },
        peeked: None,
        end: (1, 1),
        anonymous: 0,
    };
    match syntax {
        Syntax::Kif => p.kif_clauses(),
        Syntax::Infix => p.infix_clauses(),
    }
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    peeked: Option<Spanned>,
    /// Position just after the last token, for "unexpected end of input" messages.
    end: (u32, u32),
    anonymous: u32,
}

impl Parser<'_> {
    fn peek(&mut self) -> Result<Option<&Spanned>, GdlError> {
        if self.peeked.is_none() {
            self.peeked = self.lexer.next()?;
            self.end = (self.lexer.line, self.lexer.column);
        }
        Ok(self.peeked.as_ref())
    }

    fn take(&mut self) -> Result<Option<Spanned>, GdlError> {
        self.peek()?;
        Ok(self.peeked.take())
    }

    fn error(&self, pos: (u32, u32), message: &str) -> GdlError {
        self.lexer.error(pos, message)
    }

    fn too_deep(&self, pos: (u32, u32)) -> GdlError {
        self.error(pos, &format!("nesting deeper than {MAX_NESTING} levels"))
    }

    fn kif_clauses(&mut self) -> Result<Vec<Ast>, GdlError> {
        let mut clauses = Vec::new();
        while self.peek()?.is_some() {
            let clause = self.kif_term(0)?;
            if let AstKind::Var(_) = clause.kind {
                return Err(self.error(clause.pos, "a variable cannot be a clause"));
            }
            clauses.push(clause);
        }
        Ok(clauses)
    }

    fn kif_term(&mut self, depth: usize) -> Result<Ast, GdlError> {
        let Some((tok, pos)) = self.take()? else {
            return Err(self.error(self.end, "unexpected end of input (missing `)`?)"));
        };
        let kind = match tok {
            Tok::Var(name) => AstKind::Var(name),
            Tok::Ident(name) => AstKind::Const(name),
            Tok::Close => return Err(self.error(pos, "unexpected `)`")),
            Tok::Open => {
                if depth >= MAX_NESTING {
                    return Err(self.too_deep(pos));
                }
                let functor = match self.take()? {
                    Some((Tok::Ident(name), _)) => name,
                    Some((Tok::Close, p)) => return Err(self.error(p, "empty list `()`")),
                    Some((_, p)) => {
                        return Err(self.error(
                            p,
                            "a list must start with a constant (relation or function name)",
                        ))
                    }
                    None => {
                        return Err(self.error(self.end, "unexpected end of input (missing `)`?)"))
                    }
                };
                let mut args = Vec::new();
                loop {
                    match self.peek()? {
                        Some((Tok::Close, _)) => {
                            self.take()?;
                            break;
                        }
                        None => {
                            return Err(self.error(pos, "this `(` is never closed"));
                        }
                        _ => args.push(self.kif_term(depth + 1)?),
                    }
                }
                if args.is_empty() {
                    AstKind::Const(functor)
                } else {
                    AstKind::App(functor, args)
                }
            }
            other => return Err(self.error(pos, &format!("unexpected {other:?}"))),
        };
        Ok(Ast { kind, pos })
    }

    fn infix_clauses(&mut self) -> Result<Vec<Ast>, GdlError> {
        let mut clauses = Vec::new();
        while self.peek()?.is_some() {
            let head = self.infix_term(0)?;
            if let AstKind::Var(_) = head.kind {
                return Err(self.error(head.pos, "a variable cannot be a clause head"));
            }
            let pos = head.pos;
            let mut parts = vec![head];
            if let Some((Tok::Arrow, _)) = self.peek()? {
                self.take()?;
                loop {
                    parts.push(self.infix_literal()?);
                    match self.peek()? {
                        Some((Tok::Comma | Tok::Amp, _)) => {
                            self.take()?;
                        }
                        _ => break,
                    }
                }
            }
            match self.take()? {
                Some((Tok::Period, _)) | None => {}
                Some((tok, p)) => {
                    return Err(self.error(
                        p,
                        &format!("expected `.`, `,` or `:-`, found {}", describe(&tok)),
                    ))
                }
            }
            clauses.push(if parts.len() == 1 {
                parts.pop().unwrap_or_else(|| unreachable_ast(pos))
            } else {
                Ast {
                    kind: AstKind::App("<=".into(), parts),
                    pos,
                }
            });
        }
        Ok(clauses)
    }

    /// A body literal: a term, or `not` followed by a literal without parentheses.
    fn infix_literal(&mut self) -> Result<Ast, GdlError> {
        let lit = self.infix_term(0)?;
        if lit.kind == AstKind::Const("not".into()) {
            if let Some((Tok::Ident(_) | Tok::Var(_), _)) = self.peek()? {
                let inner = self.infix_term(0)?;
                return Ok(Ast {
                    kind: AstKind::App("not".into(), vec![inner]),
                    pos: lit.pos,
                });
            }
        }
        Ok(lit)
    }

    fn infix_term(&mut self, depth: usize) -> Result<Ast, GdlError> {
        let Some((tok, pos)) = self.take()? else {
            return Err(self.error(self.end, "unexpected end of input"));
        };
        let name = match tok {
            Tok::Var(name) => {
                let name = if name == "_" {
                    self.anonymous += 1;
                    format!("_#{}", self.anonymous)
                } else {
                    name
                };
                return Ok(Ast {
                    kind: AstKind::Var(name),
                    pos,
                });
            }
            Tok::Ident(name) => name,
            other => {
                return Err(self.error(pos, &format!("expected a term, found {}", describe(&other))))
            }
        };
        if !matches!(self.peek()?, Some((Tok::Open, _))) {
            return Ok(Ast {
                kind: AstKind::Const(name),
                pos,
            });
        }
        let (_, open) = self.take()?.unwrap_or((Tok::Open, pos));
        if depth >= MAX_NESTING {
            return Err(self.too_deep(open));
        }
        let mut args = Vec::new();
        loop {
            args.push(self.infix_term(depth + 1)?);
            match self.take()? {
                Some((Tok::Comma, _)) => {}
                Some((Tok::Close, _)) => break,
                Some((tok, p)) => {
                    return Err(self.error(
                        p,
                        &format!("expected `,` or `)` in the arguments of `{name}` opened at {}:{}, found {}", open.0, open.1, describe(&tok)),
                    ))
                }
                None => return Err(self.error(open, &format!("this `(` of `{name}` is never closed"))),
            }
        }
        Ok(Ast {
            kind: AstKind::App(name, args),
            pos,
        })
    }
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Open => "`(`".into(),
        Tok::Close => "`)`".into(),
        Tok::Comma => "`,`".into(),
        Tok::Amp => "`&`".into(),
        Tok::Period => "`.`".into(),
        Tok::Arrow => "`:-`".into(),
        Tok::Var(v) => format!("variable `{v}`"),
        Tok::Ident(i) => format!("`{i}`"),
    }
}

fn unreachable_ast(pos: (u32, u32)) -> Ast {
    Ast {
        kind: AstKind::Const(String::new()),
        pos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str, pos: (u32, u32)) -> Ast {
        Ast {
            kind: AstKind::Const(name.into()),
            pos,
        }
    }

    #[test]
    fn infix_clauses_print_as_kif_that_parses_back_to_the_same_clauses() {
        let infix = "legal(P, choose(X)) :- true(control(P)), side(X), not(q(_)).";
        let kif: Vec<String> = parse(infix, "t").unwrap().iter().map(Ast::to_kif).collect();
        assert_eq!(
            kif,
            ["(<= (legal ?P (choose ?X)) (true (control ?P)) (side ?X) (not (q ?_#1)))"]
        );
        let again = parse(&kif[0], "t").unwrap();
        assert_eq!(again[0].to_kif(), kif[0].to_lowercase());
    }

    #[test]
    fn a_kif_file_may_open_with_a_percent_comment() {
        let text = "% a header in Prolog style\n(role x) % trailing\n";
        assert_eq!(detect(text), Syntax::Kif);
        let asts = parse(text, "t").unwrap();
        assert_eq!(asts.len(), 1, "{asts:?}");
    }

    #[test]
    fn kif_lowercases_constants_and_variables_and_skips_comments() {
        let asts = parse("; tic\n(ROLE XPlayer) ; x\n(<= (p ?X) (q ?x))", "t").unwrap();
        assert_eq!(asts.len(), 2);
        assert_eq!(
            asts[0],
            Ast {
                kind: AstKind::App("role".into(), vec![c("xplayer", (2, 7))]),
                pos: (2, 1)
            }
        );
        let AstKind::App(arrow, parts) = &asts[1].kind else {
            panic!()
        };
        assert_eq!(arrow, "<=");
        let AstKind::App(_, h) = &parts[0].kind else {
            panic!()
        };
        let AstKind::App(_, b) = &parts[1].kind else {
            panic!()
        };
        assert_eq!(h[0].kind, b[0].kind);
    }

    #[test]
    fn infix_reads_arrows_separators_and_prefix_not() {
        let a = parse("p(X) :- q(X), not r(X) & s.\nt ← not(u).\nv <= w", "t").unwrap();
        assert_eq!(a.len(), 3);
        let AstKind::App(_, parts) = &a[0].kind else {
            panic!()
        };
        assert_eq!(parts.len(), 4);
        assert!(matches!(&parts[2].kind, AstKind::App(n, x) if n == "not" && x.len() == 1));
        assert!(
            matches!(&parts[0].kind, AstKind::App(n, x) if n == "p" && x[0].kind == AstKind::Var("X".into()))
        );
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse("(role x)\n  (init (cell 1)", "f.kif").unwrap_err();
        let GdlError::Syntax { location, .. } = err else {
            panic!()
        };
        assert_eq!((location.line, location.column), (2, 3));
        let err = parse("legal(P,choose(X)) ← true(control(P), side(X).", "mp").unwrap_err();
        assert!(matches!(err, GdlError::Syntax { .. }), "{err}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        for text in [
            "(p ".to_string() + &"(".repeat(100_000),
            "(p ".to_string() + &"(f ".repeat(100_000),
            "p :- ".to_string() + &"f(".repeat(100_000),
            "p(".to_string() + &"f(".repeat(100_000) + &")".repeat(100_001) + ".",
        ] {
            assert!(matches!(parse(&text, "deep"), Err(GdlError::Syntax { .. })));
        }
        let deep = format!("(p {}x{})", "(f ".repeat(100_000), ")".repeat(100_000));
        assert!(parse(&deep, "deep")
            .unwrap_err()
            .to_string()
            .contains("nesting"));
        let deep = format!("p({}x{}).", "f(".repeat(100_000), ")".repeat(100_001));
        assert!(parse(&deep, "deep")
            .unwrap_err()
            .to_string()
            .contains("nesting"));
    }
}

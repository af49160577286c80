//! A tokenizer for UPPAAL's C-like declaration and expression language, also
//! good for TChecker's expressions and XTA files.

use super::context::Context;
use std::rc::Rc;
use zeno_ir::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i64),
    /// A decimal literal (`1.5`, `2e3`) or a malformed number (`3x`), as
    /// written: read so that the parser can report it where it stands and
    /// go on with the next declaration (zeno has no `double`).
    Float(String),
    /// Operators and punctuation, longest match first.
    Punct(&'static str),
    Eof,
}

#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "**", ":=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "<<", ">>", "->", "<?", ">?", "(", ")", "[", "]", "{", "}", ",",
    ";", ":", ".", "?", "!", "<", ">", "=", "+", "-", "*", "/", "%", "&", "|", "^", "~", "'", "@",
];

/// Splits `text` into tokens; `map` turns an offset in `text` into an offset
/// in the source file (they differ inside XML, where entities were expanded).
pub(crate) fn tokenize(
    text: &str,
    map: &dyn Fn(usize) -> u32,
) -> Result<Vec<Token>, (Span, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let span = |a: usize, b: usize| Span::new(map(a), map(b));
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // A UTF-8 byte order mark (editors write one at the file's start).
        if text[i..].starts_with('\u{feff}') {
            i += '\u{feff}'.len_utf8();
            continue;
        }
        if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(end) => i = i + 2 + end + 2,
                None => return Err((span(i, i + 2), "unterminated comment `/*`".into())),
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(text[start..i].to_string()),
                span: span(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if let Some(end) = float_end(bytes, i) {
                out.push(Token {
                    tok: Tok::Float(text[start..end].to_string()),
                    span: span(start, end),
                });
                i = end;
                continue;
            }
            if i < bytes.len() && (bytes[i] == b'.' || bytes[i].is_ascii_alphabetic()) {
                // `3x`, `1.2.3`: not a number; the parser reports it where it
                // stands, as a decimal literal.
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Float(text[start..i].to_string()),
                    span: span(start, i),
                });
                continue;
            }
            let value = text[start..i].parse::<i64>().map_err(|_| {
                (
                    span(start, i),
                    format!("integer `{}` is too large", &text[start..i]),
                )
            })?;
            out.push(Token {
                tok: Tok::Int(value),
                span: span(start, i),
            });
            continue;
        }
        match PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            Some(p) => {
                i += p.len();
                out.push(Token {
                    tok: Tok::Punct(p),
                    span: span(start, i),
                });
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err((
                    span(start, start + ch.len_utf8()),
                    format!("unexpected character `{ch}`"),
                ));
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: span(text.len(), text.len()),
    });
    Ok(out)
}

/// A cursor over tokens, shared by the expression and declaration parsers.
/// It carries the context of the import whose text it reads, so that every
/// parser reached through it names and reads things as that file decided.
pub(crate) struct Cursor {
    toks: Vec<Token>,
    pos: usize,
    /// How deeply the expressions and statements being parsed nest.
    pub(crate) depth: u32,
    /// The import's context (shared by all its cursors).
    pub(crate) cx: Rc<Context>,
}

/// How deeply imported expressions and statements may nest. The parsers
/// recurse, so a limit keeps adversarial input (a guard of 50,000
/// parentheses) from overflowing the stack; it is below the depth zeno's
/// own parser accepts, so whatever is imported can be read back.
pub(crate) const MAX_NESTING: u32 = 200;

pub(crate) type PResult<T> = Result<T, (Span, String)>;

impl Cursor {
    pub(crate) fn new(toks: Vec<Token>, cx: &Rc<Context>) -> Cursor {
        Cursor {
            toks,
            pos: 0,
            depth: 0,
            cx: Rc::clone(cx),
        }
    }

    /// Goes one nesting level deeper, or fails at the current token beyond
    /// [`MAX_NESTING`] levels; [`Self::leave`] comes back up.
    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            return Err((
                self.span(),
                format!("nested more than {MAX_NESTING} levels deep: zeno does not read it"),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Comes back up from [`Self::enter`].
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    pub(crate) fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }

    pub(crate) fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    pub(crate) fn span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].span
    }

    /// The span of the previous token.
    pub(crate) fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)].span
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn set_pos(&mut self, pos: usize) {
        self.pos = pos.min(self.toks.len() - 1);
    }

    /// The previous token.
    pub(crate) fn prev_tok(&self) -> Tok {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)]
            .tok
            .clone()
    }

    pub(crate) fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn at(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    pub(crate) fn at_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }

    /// Takes the tokens up to (not including) one of `stop` at bracket depth
    /// 0, as a cursor of their own.
    pub(crate) fn take_until(&mut self, stop: &[&str]) -> Cursor {
        let mut out = Vec::new();
        let mut depth = 0i32;
        loop {
            let t = &self.toks[self.pos.min(self.toks.len() - 1)];
            match &t.tok {
                Tok::Eof => break,
                Tok::Punct(p) if depth == 0 && stop.contains(p) => break,
                Tok::Punct("(") | Tok::Punct("[") | Tok::Punct("{") => depth += 1,
                Tok::Punct(")") | Tok::Punct("]") | Tok::Punct("}") => depth -= 1,
                _ => {}
            }
            out.push(t.clone());
            self.bump();
        }
        let end = self.span();
        out.push(Token {
            tok: Tok::Eof,
            span: Span::new(end.start, end.start),
        });
        Cursor::new(out, &self.cx)
    }

    pub(crate) fn into_tokens(self) -> Vec<Token> {
        self.toks
    }

    pub(crate) fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }

    pub(crate) fn eat(&mut self, p: &str) -> bool {
        let here = self.at(p);
        self.bump_if(here)
    }

    pub(crate) fn eat_kw(&mut self, kw: &str) -> bool {
        let here = self.at_kw(kw);
        self.bump_if(here)
    }

    /// Moves past the current token when `here`; returns `here`.
    fn bump_if(&mut self, here: bool) -> bool {
        if here {
            self.bump();
        }
        here
    }

    pub(crate) fn expect(&mut self, p: &str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            Err((
                self.span(),
                format!("expected `{p}`, found {}", describe(self.peek())),
            ))
        }
    }

    /// Nothing left, or the error "unexpected <token> <place>" (`place`:
    /// "in the invariant", "after the update").
    pub(crate) fn expect_eof(&self, place: &str) -> PResult<()> {
        if self.at_eof() {
            Ok(())
        } else {
            Err((
                self.span(),
                format!("unexpected {} {place}", describe(self.peek())),
            ))
        }
    }

    /// One or more items separated by `,`, each read by `item`.
    pub(crate) fn comma_list<T>(
        &mut self,
        mut item: impl FnMut(&mut Cursor) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut out = Vec::new();
        loop {
            out.push(item(self)?);
            if !self.eat(",") {
                return Ok(out);
            }
        }
    }

    /// A possibly empty [`Self::comma_list`] up to `close`, which is
    /// consumed (arguments, parameters, initialiser lists).
    pub(crate) fn list_until<T>(
        &mut self,
        close: &str,
        item: impl FnMut(&mut Cursor) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let items = if self.at(close) {
            Vec::new()
        } else {
            self.comma_list(item)?
        };
        self.expect(close)?;
        Ok(items)
    }

    /// A name, as zeno names it (see [`Context::name`]).
    pub(crate) fn zeno_name(&mut self) -> PResult<String> {
        let name = self.ident()?;
        Ok(self.cx.name(&name))
    }

    pub(crate) fn ident(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            t => Err((
                self.span(),
                format!("expected a name, found {}", describe(&t)),
            )),
        }
    }
}

/// Where a decimal literal whose integer digits end at `i` ends: a
/// fraction `.5` and/or an exponent `e-3`; `None` when neither follows.
fn float_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    let digits = |bytes: &[u8], mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut seen = false;
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = digits(bytes, i + 1);
        seen = true;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if bytes.get(j).is_some_and(u8::is_ascii_digit) {
            i = digits(bytes, j);
            seen = true;
        }
    }
    // `1.5x` is not a number either: it is read as a malformed one.
    (seen
        && !bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.'))
    .then_some(i)
}

pub(crate) fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Int(n) => format!("`{n}`"),
        Tok::Float(s) => format!("`{s}`"),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Eof => "the end of the text".into(),
    }
}

/// Removes the final `!` or `?` of a synchronisation, returning it.
pub(crate) fn split_direction(mut toks: Vec<Token>) -> PResult<(Vec<Token>, &'static str)> {
    let eof = toks.pop();
    let dir = match toks.last().map(|t| &t.tok) {
        Some(Tok::Punct("!")) => "!",
        Some(Tok::Punct("?")) => "?",
        _ => {
            let span = toks
                .last()
                .map(|t| t.span)
                .or(eof.as_ref().map(|t| t.span))
                .unwrap_or_default();
            return Err((
                span,
                "expected `!` or `?` at the end of the synchronisation".into(),
            ));
        }
    };
    let last = toks.pop();
    if let Some(e) = eof {
        toks.push(Token {
            tok: Tok::Eof,
            span: last.map_or(e.span, |l| l.span),
        });
    }
    Ok((toks, dir))
}

//! Parser infrastructure, in the style of rust-analyzer: the grammar functions
//! see only significant tokens and emit [`Event`]s (start node, token, finish
//! node, error); [`build_tree`] then replays the events together with the
//! trivia into a rowan green tree.

use rowan::{GreenNode, GreenNodeBuilder};

use super::SyntaxKind::{self, *};
use super::lexer::Token;
use zeno_base::diagnostics::Diagnostic;
use zeno_base::text::Span;

/// How deep the parser may recurse (parentheses, prefix operators, nested
/// array initialisers). Beyond this the rest of the construct becomes one
/// `ERROR` node: deeply nested input gives a diagnostic, not a stack overflow.
pub const MAX_RECURSION: u32 = 128;
/// How deep the produced tree may get through operator chains such as
/// `a + a + a + …` (each operator nests the tree one level), so that the
/// recursive walks of later layers stay within a 2 MB thread stack even in
/// debug builds (the semantic analysis overflowed at about 600 levels).
pub const MAX_TREE_DEPTH: u32 = 256;
/// At most this many syntax errors are reported (the last one says so).
pub const MAX_ERRORS: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `forward_parent` makes a later `Start` the parent of this one
    /// (see [`CompletedMarker::precede`]).
    Start {
        kind: SyntaxKind,
        forward_parent: Option<usize>,
    },
    Token,
    Finish,
    Error(Diagnostic),
    /// A `Start` that was abandoned or already replayed.
    Tombstone,
}

/// A set of token kinds (all token kinds are below 128).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenSet(u128);

impl TokenSet {
    pub const fn new(kinds: &[SyntaxKind]) -> TokenSet {
        let mut bits = 0u128;
        let mut i = 0;
        while i < kinds.len() {
            bits |= mask(kinds[i]);
            i += 1;
        }
        TokenSet(bits)
    }

    pub const fn union(self, other: TokenSet) -> TokenSet {
        TokenSet(self.0 | other.0)
    }

    pub const fn contains(self, kind: SyntaxKind) -> bool {
        self.0 & mask(kind) != 0
    }
}

const fn mask(kind: SyntaxKind) -> u128 {
    let raw = kind as u16;
    if raw < 128 { 1u128 << raw } else { 0 }
}

pub struct Parser {
    /// Significant tokens only (no trivia, no unknown characters).
    tokens: Vec<Token>,
    pos: usize,
    events: Vec<Event>,
    /// Current recursion depth and tree depth, see the constants above.
    pub(super) recursion: u32,
    pub(super) tree_depth: u32,
    error_count: usize,
    end: u32,
    /// Per significant token: whether it is the word `sup` or `inf`, which
    /// start a value query in a check (names everywhere else).
    bound_words: Vec<bool>,
}

impl Parser {
    pub fn new(text: &str, all_tokens: &[Token]) -> Parser {
        let tokens: Vec<Token> = all_tokens
            .iter()
            .filter(|t| !t.kind.is_trivia() && t.kind != ERROR)
            .copied()
            .collect();
        let bound_words = tokens
            .iter()
            .map(|t| {
                t.kind == IDENT
                    && matches!(
                        text.get(usize::from(t.range.start())..usize::from(t.range.end())),
                        Some("sup" | "inf")
                    )
            })
            .collect();
        Parser {
            bound_words,
            tokens,
            pos: 0,
            events: Vec::new(),
            recursion: 0,
            tree_depth: 0,
            error_count: 0,
            end: text.len() as u32,
        }
    }

    pub fn finish(self) -> Vec<Event> {
        self.events
    }

    pub fn nth(&self, n: usize) -> SyntaxKind {
        self.tokens.get(self.pos + n).map_or(EOF, |t| t.kind)
    }

    /// Whether the `n`th token ahead is the word `sup` or `inf`.
    pub fn nth_is_bound_word(&self, n: usize) -> bool {
        self.bound_words.get(self.pos + n).copied().unwrap_or(false)
    }

    pub fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    pub fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    pub fn at_set(&self, set: TokenSet) -> bool {
        set.contains(self.current())
    }

    /// Index of the current significant token (to check for progress).
    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn at_eof(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    /// Consumes the current token (no-op at the end of input).
    pub fn bump(&mut self) {
        if self.at_eof() {
            return;
        }
        self.pos += 1;
        self.events.push(Event::Token);
    }

    pub fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) && !self.at_eof() {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes `kind` or reports "expected …" (without consuming anything).
    pub fn expect(&mut self, kind: SyntaxKind) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.error_expected(kind.describe());
        false
    }

    pub fn start(&mut self) -> Marker {
        let pos = self.events.len();
        self.events.push(Event::Tombstone);
        Marker { pos }
    }

    fn current_span(&self) -> Span {
        match self.tokens.get(self.pos) {
            Some(t) => Span::new(t.range.start().into(), t.range.end().into()),
            None => Span::new(self.end, self.end),
        }
    }

    /// Where a missing token belongs: right after the previous token.
    fn missing_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(t) => {
                let end: u32 = t.range.end().into();
                Span::new(end, end)
            }
            None => {
                let start = self.current_span().start;
                Span::new(start, start)
            }
        }
    }

    fn found(&self) -> String {
        format!(", found {}", self.current().describe())
    }

    /// The span of the token consumed last.
    pub fn previous_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(t) => Span::new(t.range.start().into(), t.range.end().into()),
            None => self.missing_span(),
        }
    }

    /// Consumes the `close` token of a group opened at `opened`, or reports
    /// it missing where it belongs, pointing back at the opening bracket (the
    /// place to look when a brace is unbalanced).
    pub fn expect_closing(&mut self, close: SyntaxKind, opened: Span) -> bool {
        if self.eat(close) {
            return true;
        }
        let message = format!("expected {}{}", close.describe(), self.found());
        let open = match close {
            R_CURLY => "`{`",
            R_PAREN => "`(`",
            R_BRACK => "`[`",
            _ => "group",
        };
        let span = self.missing_span();
        self.push_error(
            Diagnostic::error(span, message)
                .with_related(opened, format!("unclosed {open} opened here")),
        );
        false
    }

    /// "expected X, found Y", placed right after the previous token.
    pub fn error_expected(&mut self, what: &str) {
        let message = format!("expected {what}{}", self.found());
        let span = self.missing_span();
        self.push_error(Diagnostic::error(span, message));
    }

    /// Records an error, up to [`MAX_ERRORS`]: pathological input must not
    /// produce millions of diagnostics.
    fn push_error(&mut self, diagnostic: Diagnostic) {
        self.error_count += 1;
        if self.error_count < MAX_ERRORS {
            self.events.push(Event::Error(diagnostic));
        } else if self.error_count == MAX_ERRORS {
            self.events.push(Event::Error(Diagnostic::error(
                diagnostic.range,
                "too many syntax errors; the rest of the file is not checked",
            )));
        }
    }

    /// An error about the current token.
    pub fn error_here(&mut self, message: impl Into<String>) {
        let span = self.current_span();
        self.push_error(Diagnostic::error(span, message.into()));
    }

    /// Enters one level of recursion; `false` (after reporting and skipping
    /// the rest of the construct) when the nesting limit is reached.
    pub fn enter(&mut self) -> bool {
        if self.recursion >= MAX_RECURSION || self.tree_depth >= MAX_TREE_DEPTH {
            self.too_deep();
            return false;
        }
        self.recursion += 1;
        self.tree_depth += 1;
        true
    }

    pub fn leave(&mut self) {
        self.recursion = self.recursion.saturating_sub(1);
        self.tree_depth = self.tree_depth.saturating_sub(1);
    }

    /// Reports that the input nests too deeply and skips, without recursion,
    /// to the end of the current bracketed group (or the next `;`).
    pub fn too_deep(&mut self) {
        self.error_here("nesting too deep: the parser gives up on this construct");
        let m = self.start();
        let mut balance = 0usize;
        while !self.at_eof() {
            match self.current() {
                L_PAREN | L_BRACK | L_CURLY => balance += 1,
                R_PAREN | R_BRACK | R_CURLY => {
                    if balance == 0 {
                        break;
                    }
                    balance -= 1;
                }
                SEMICOLON if balance == 0 => break,
                _ => {}
            }
            self.bump();
        }
        m.complete(self, ERROR);
    }
}

pub struct Marker {
    pos: usize,
}

impl Marker {
    pub fn complete(self, p: &mut Parser, kind: SyntaxKind) -> CompletedMarker {
        if let Some(Event::Start { kind: slot, .. }) = p.events.get_mut(self.pos) {
            *slot = kind;
        } else if let Some(event) = p.events.get_mut(self.pos) {
            *event = Event::Start {
                kind,
                forward_parent: None,
            };
        }
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos }
    }

    /// Forgets the node; its tokens go to the parent.
    pub fn abandon(self, p: &mut Parser) {
        if self.pos + 1 == p.events.len() {
            p.events.pop();
        }
        // Otherwise the slot stays a tombstone, which the builder skips.
    }
}

#[derive(Clone, Copy)]
pub struct CompletedMarker {
    pos: usize,
}

impl CompletedMarker {
    /// Starts a new node that will become the parent of this one
    /// (`a` → `a + b`).
    pub fn precede(self, p: &mut Parser) -> Marker {
        let new = p.start();
        if let Some(Event::Start { forward_parent, .. }) = p.events.get_mut(self.pos) {
            *forward_parent = Some(new.pos);
        }
        new
    }
}

/// Replays the events into a green tree, attaching trivia and unknown
/// characters between significant tokens. Every token of `tokens` ends up in
/// the tree, in order, so the tree's text is exactly the input.
pub fn build_tree(
    text: &str,
    tokens: &[Token],
    mut events: Vec<Event>,
) -> (GreenNode, Vec<Diagnostic>) {
    let mut builder = GreenNodeBuilder::new();
    let mut errors = Vec::new();
    let mut cursor = 0usize; // into `tokens`
    let mut depth = 0usize;
    let mut forward_kinds = Vec::new();

    let emit = |builder: &mut GreenNodeBuilder<'_>, token: &Token| {
        builder.token(token.kind.into(), &text[token.range]);
    };
    // Emits trivia (and unknown characters) up to the next significant token.
    let flush_trivia = |builder: &mut GreenNodeBuilder<'_>, cursor: &mut usize| {
        while let Some(token) = tokens.get(*cursor) {
            if !(token.kind.is_trivia() || token.kind == ERROR) {
                break;
            }
            emit(builder, token);
            *cursor += 1;
        }
    };

    for i in 0..events.len() {
        match std::mem::replace(&mut events[i], Event::Tombstone) {
            Event::Start {
                kind,
                forward_parent,
            } => {
                forward_kinds.push(kind);
                let mut next = forward_parent;
                while let Some(idx) = next {
                    next = None;
                    if let Some(Event::Start {
                        kind,
                        forward_parent,
                    }) = events
                        .get_mut(idx)
                        .map(|e| std::mem::replace(e, Event::Tombstone))
                    {
                        forward_kinds.push(kind);
                        next = forward_parent;
                    }
                }
                for kind in forward_kinds.drain(..).rev() {
                    if depth > 0 {
                        flush_trivia(&mut builder, &mut cursor);
                    }
                    builder.start_node(kind.into());
                    depth += 1;
                }
            }
            Event::Finish => {
                if depth == 1 {
                    // The root takes everything that is left.
                    while let Some(token) = tokens.get(cursor) {
                        emit(&mut builder, token);
                        cursor += 1;
                    }
                }
                if depth > 0 {
                    builder.finish_node();
                    depth -= 1;
                }
            }
            Event::Token => {
                flush_trivia(&mut builder, &mut cursor);
                if let Some(token) = tokens.get(cursor) {
                    emit(&mut builder, token);
                    cursor += 1;
                }
            }
            Event::Error(diagnostic) => errors.push(diagnostic),
            Event::Tombstone => {}
        }
    }
    // Defensive: close whatever is open (the grammar always closes the root).
    while depth > 0 {
        if depth == 1 {
            while let Some(token) = tokens.get(cursor) {
                emit(&mut builder, token);
                cursor += 1;
            }
        }
        builder.finish_node();
        depth -= 1;
    }
    (builder.finish(), errors)
}

//! The lexer: every byte of the input becomes part of exactly one token.
//!
//! Unknown characters become `ERROR` tokens (with a diagnostic); an
//! unterminated block comment runs to the end of the input (with a
//! diagnostic). Token ranges are contiguous and cover the whole text.

use logos::Logos;
use rowan::{TextRange, TextSize};

use super::SyntaxKind;
use zeno_base::diagnostics::Diagnostic;
use zeno_base::text::Span;

/// Unknown characters reported at most (the parser has its own limit).
const MAX_ERRORS: usize = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: SyntaxKind,
    pub range: TextRange,
}

#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum RawToken {
    // U+FEFF: the byte order mark some editors write at the start of a
    // UTF-8 file, read as blank (as C compilers do).
    #[regex(r"[ \t\r\n\x0C\u{FEFF}]+")]
    Whitespace,
    #[regex(r"//[^\n]*", allow_greedy = true)]
    LineComment,
    /// `true` when the comment is closed by `*/`.
    #[token("/*", block_comment)]
    BlockComment(bool),
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    #[regex(r"[0-9]+")]
    Number,
    #[token("const")]
    Const,
    #[token("typedef")]
    Typedef,
    #[token("struct")]
    Struct,
    #[token("meta")]
    Meta,
    #[token("scalar")]
    Scalar,
    #[token("int")]
    Int,
    #[token("bool")]
    Bool,
    #[token("clock")]
    Clock,
    #[token("chan")]
    Chan,
    #[token("urgent")]
    Urgent,
    #[token("broadcast")]
    Broadcast,
    #[token("committed")]
    Committed,
    #[token("template")]
    Template,
    #[token("init")]
    Init,
    #[token("location")]
    Location,
    #[token("invariant")]
    Invariant,
    #[token("when")]
    When,
    #[token("sync")]
    Sync,
    #[token("select")]
    Select,
    #[token("do")]
    Do,
    #[token("system")]
    System,
    #[token("check")]
    Check,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("and")]
    And,
    #[token("or")]
    Or,
    #[token("not")]
    Not,
    #[token("imply")]
    Imply,
    #[token("forall")]
    Forall,
    #[token("exists")]
    Exists,
    #[token("sum")]
    Sum,
    #[token("void")]
    Void,
    #[token("return")]
    Return,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("for")]
    For,
    #[token("priority")]
    Priority,
    #[token("default")]
    Default,
    #[token("deadlock")]
    Deadlock,
    #[token("A[]")]
    ABox,
    #[token("E<>")]
    EDiamond,
    #[token("A<>")]
    ADiamond,
    #[token("E[]")]
    EBox,
    #[token("-->")]
    LeadsTo,
    #[token(";")]
    Semicolon,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("{")]
    LCurly,
    #[token("}")]
    RCurly,
    #[token("->")]
    Arrow,
    #[token("=")]
    Eq,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("++")]
    Plus2,
    #[token("--")]
    Minus2,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    Star2,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("<")]
    Lt,
    #[token("<=")]
    LtEq,
    #[token("==")]
    Eq2,
    #[token("!=")]
    Neq,
    #[token(">=")]
    GtEq,
    #[token(">")]
    Gt,
    #[token("&&")]
    Amp2,
    #[token("||")]
    Pipe2,
    #[token("!")]
    Bang,
    #[token("?")]
    Question,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("%=")]
    PercentEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("<?")]
    LtQuestion,
    #[token(">?")]
    GtQuestion,
    #[token("'")]
    Prime,
}

fn block_comment(lex: &mut logos::Lexer<RawToken>) -> bool {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(end) => {
            lex.bump(end + 2);
            true
        }
        None => {
            lex.bump(rest.len());
            false
        }
    }
}

fn kind_of(raw: RawToken) -> SyntaxKind {
    use SyntaxKind::*;
    match raw {
        RawToken::Whitespace => WHITESPACE,
        RawToken::LineComment | RawToken::BlockComment(_) => COMMENT,
        RawToken::Ident => IDENT,
        RawToken::Number => INT_NUMBER,
        RawToken::Const => CONST_KW,
        RawToken::Typedef => TYPEDEF_KW,
        RawToken::Struct => STRUCT_KW,
        RawToken::Meta => META_KW,
        RawToken::Scalar => SCALAR_KW,
        RawToken::Int => INT_KW,
        RawToken::Bool => BOOL_KW,
        RawToken::Clock => CLOCK_KW,
        RawToken::Chan => CHAN_KW,
        RawToken::Urgent => URGENT_KW,
        RawToken::Broadcast => BROADCAST_KW,
        RawToken::Committed => COMMITTED_KW,
        RawToken::Template => TEMPLATE_KW,
        RawToken::Init => INIT_KW,
        RawToken::Location => LOCATION_KW,
        RawToken::Invariant => INVARIANT_KW,
        RawToken::When => WHEN_KW,
        RawToken::Sync => SYNC_KW,
        RawToken::Select => SELECT_KW,
        RawToken::Do => DO_KW,
        RawToken::System => SYSTEM_KW,
        RawToken::Check => CHECK_KW,
        RawToken::True => TRUE_KW,
        RawToken::False => FALSE_KW,
        RawToken::And => AND_KW,
        RawToken::Or => OR_KW,
        RawToken::Not => NOT_KW,
        RawToken::Imply => IMPLY_KW,
        RawToken::Forall => FORALL_KW,
        RawToken::Exists => EXISTS_KW,
        RawToken::Sum => SUM_KW,
        RawToken::Void => VOID_KW,
        RawToken::Return => RETURN_KW,
        RawToken::If => IF_KW,
        RawToken::Else => ELSE_KW,
        RawToken::While => WHILE_KW,
        RawToken::For => FOR_KW,
        RawToken::Priority => PRIORITY_KW,
        RawToken::Default => DEFAULT_KW,
        RawToken::Deadlock => DEADLOCK_KW,
        RawToken::ABox => A_BOX,
        RawToken::EDiamond => E_DIAMOND,
        RawToken::ADiamond => A_DIAMOND,
        RawToken::EBox => E_BOX,
        RawToken::LeadsTo => LEADS_TO,
        RawToken::Semicolon => SEMICOLON,
        RawToken::Comma => COMMA,
        RawToken::Colon => COLON,
        RawToken::Dot => DOT,
        RawToken::LParen => L_PAREN,
        RawToken::RParen => R_PAREN,
        RawToken::LBrack => L_BRACK,
        RawToken::RBrack => R_BRACK,
        RawToken::LCurly => L_CURLY,
        RawToken::RCurly => R_CURLY,
        RawToken::Arrow => ARROW,
        RawToken::Eq => EQ,
        RawToken::PlusEq => PLUS_EQ,
        RawToken::MinusEq => MINUS_EQ,
        RawToken::StarEq => STAR_EQ,
        RawToken::SlashEq => SLASH_EQ,
        RawToken::Plus2 => PLUS2,
        RawToken::Minus2 => MINUS2,
        RawToken::Plus => PLUS,
        RawToken::Minus => MINUS,
        RawToken::Star => STAR,
        RawToken::Star2 => STAR2,
        RawToken::Slash => SLASH,
        RawToken::Percent => PERCENT,
        RawToken::Lt => LT,
        RawToken::LtEq => LTEQ,
        RawToken::Eq2 => EQ2,
        RawToken::Neq => NEQ,
        RawToken::GtEq => GTEQ,
        RawToken::Gt => GT,
        RawToken::Amp2 => AMP2,
        RawToken::Pipe2 => PIPE2,
        RawToken::Bang => BANG,
        RawToken::Question => QUESTION,
        RawToken::Amp => AMP,
        RawToken::Pipe => PIPE,
        RawToken::Caret => CARET,
        RawToken::Tilde => TILDE,
        RawToken::Shl => SHL,
        RawToken::Shr => SHR,
        RawToken::PercentEq => PERCENT_EQ,
        RawToken::AmpEq => AMP_EQ,
        RawToken::PipeEq => PIPE_EQ,
        RawToken::CaretEq => CARET_EQ,
        RawToken::ShlEq => SHL_EQ,
        RawToken::ShrEq => SHR_EQ,
        RawToken::LtQuestion => LT_QUESTION,
        RawToken::GtQuestion => GT_QUESTION,
        RawToken::Prime => PRIME,
    }
}

fn range(start: usize, end: usize) -> TextRange {
    // Inputs longer than 4 GiB are cut off by the caller (`parse`), so the
    // conversions cannot truncate.
    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start as u32, end as u32)
}

/// Splits `text` into tokens covering every byte, plus lexical diagnostics.
pub fn tokenize(text: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut tokens: Vec<Token> = Vec::new();
    let mut errors = Vec::new();
    let mut pos = 0usize;
    let mut lexer = RawToken::lexer(text);
    while let Some(result) = lexer.next() {
        let logos_span = lexer.span();
        if logos_span.end <= pos {
            continue;
        }
        let start = logos_span.start.max(pos);
        if start > pos {
            // Defensive: never leave a gap, whatever the lexer did.
            push_error(&mut tokens, pos, start);
        }
        match result {
            Ok(raw) => {
                if raw == RawToken::BlockComment(false) {
                    errors.push(Diagnostic::error(
                        span(start, start + 2),
                        "unterminated block comment",
                    ));
                }
                tokens.push(Token {
                    kind: kind_of(raw),
                    range: range(start, logos_span.end),
                });
                pos = logos_span.end;
            }
            Err(()) => {
                let mut end = logos_span.end;
                while end < text.len() && !text.is_char_boundary(end) {
                    end += 1;
                }
                push_error(&mut tokens, start, end);
                pos = end;
            }
        }
    }
    if pos < text.len() {
        push_error(&mut tokens, pos, text.len());
    }
    for token in tokens
        .iter()
        .filter(|t| t.kind == SyntaxKind::ERROR)
        .take(MAX_ERRORS)
    {
        let (s, e) = (
            u32::from(token.range.start()) as usize,
            u32::from(token.range.end()) as usize,
        );
        let shown = text.get(s..e).unwrap_or("?");
        let count = shown.chars().count();
        let what = if count == 1 {
            "unknown character"
        } else {
            "unknown characters"
        };
        // Long runs are abbreviated: the range says where they are.
        let mut quoted: String = shown.chars().take(16).collect::<String>();
        if count > 16 {
            quoted.push('…');
        }
        errors.push(Diagnostic::error(
            span(s, e),
            format!("{what} `{}`", quoted.escape_debug()),
        ));
    }
    (tokens, errors)
}

/// Adds an `ERROR` token, merged with the previous one when adjacent.
fn push_error(tokens: &mut Vec<Token>, start: usize, end: usize) {
    if let Some(last) = tokens.last_mut()
        && last.kind == SyntaxKind::ERROR
        && u32::from(last.range.end()) as usize == start
    {
        last.range = range(u32::from(last.range.start()) as usize, end);
        return;
    }
    tokens.push(Token {
        kind: SyntaxKind::ERROR,
        range: range(start, end),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use SyntaxKind::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let (tokens, _) = tokenize(text);
        tokens
            .iter()
            .map(|t| (t.kind, &text[t.range]))
            .filter(|(k, _)| *k != WHITESPACE)
            .collect()
    }

    #[test]
    fn keywords_idents_and_operators() {
        assert_eq!(
            kinds("int[0, N] x_1 = -3; a->b c-- >= <= == != && || !x"),
            vec![
                (INT_KW, "int"),
                (L_BRACK, "["),
                (INT_NUMBER, "0"),
                (COMMA, ","),
                (IDENT, "N"),
                (R_BRACK, "]"),
                (IDENT, "x_1"),
                (EQ, "="),
                (MINUS, "-"),
                (INT_NUMBER, "3"),
                (SEMICOLON, ";"),
                (IDENT, "a"),
                (ARROW, "->"),
                (IDENT, "b"),
                (IDENT, "c"),
                (MINUS2, "--"),
                (GTEQ, ">="),
                (LTEQ, "<="),
                (EQ2, "=="),
                (NEQ, "!="),
                (AMP2, "&&"),
                (PIPE2, "||"),
                (BANG, "!"),
                (IDENT, "x"),
            ]
        );
        // Keywords are whole words only.
        assert_eq!(kinds("initial"), vec![(IDENT, "initial")]);
    }

    #[test]
    fn path_quantifiers_versus_indexing() {
        assert_eq!(
            kinds("A[] E<> A[i] E<x"),
            vec![
                (A_BOX, "A[]"),
                (E_DIAMOND, "E<>"),
                (IDENT, "A"),
                (L_BRACK, "["),
                (IDENT, "i"),
                (R_BRACK, "]"),
                (IDENT, "E"),
                (LT, "<"),
                (IDENT, "x"),
            ]
        );
    }

    #[test]
    fn comments_and_errors_cover_every_byte() {
        let text = "x // line\n/* block */ y $é€ /* open";
        let (tokens, errors) = tokenize(text);
        let mut pos = 0;
        for t in &tokens {
            assert_eq!(u32::from(t.range.start()) as usize, pos);
            pos = u32::from(t.range.end()) as usize;
        }
        assert_eq!(pos, text.len());
        assert_eq!(
            kinds(text),
            vec![
                (IDENT, "x"),
                (COMMENT, "// line"),
                (COMMENT, "/* block */"),
                (IDENT, "y"),
                (ERROR, "$é€"),
                (COMMENT, "/* open"),
            ]
        );
        let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            vec!["unterminated block comment", "unknown characters `$é€`"]
        );
    }
}

//! Every kind of token and node in the zeno syntax tree.

/// Declares the enum and a table of all its values, so that the raw `u16`
/// rowan stores can be turned back into a kind without `unsafe`.
macro_rules! syntax_kinds {
    ($($kind:ident),* $(,)?) => {
        /// Token kinds come first (they must stay below 128: the parser's
        /// token sets are 128-bit sets), then node kinds.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        pub enum SyntaxKind {
            $(
                #[doc = concat!("`", stringify!($kind), "`.")]
                $kind
            ),*
        }

        const ALL_KINDS: &[SyntaxKind] = &[$(SyntaxKind::$kind),*];
    };
}

syntax_kinds! {
    // Trivia.
    WHITESPACE,
    COMMENT,
    // An unknown character (token), or a node wrapping what the parser could
    // not make sense of.
    ERROR,
    // Literals and names.
    IDENT,
    INT_NUMBER,
    // Keywords.
    CONST_KW,
    TYPEDEF_KW,
    STRUCT_KW,
    META_KW,
    SCALAR_KW,
    INT_KW,
    BOOL_KW,
    CLOCK_KW,
    CHAN_KW,
    URGENT_KW,
    BROADCAST_KW,
    COMMITTED_KW,
    TEMPLATE_KW,
    INIT_KW,
    LOCATION_KW,
    INVARIANT_KW,
    WHEN_KW,
    SYNC_KW,
    SELECT_KW,
    DO_KW,
    SYSTEM_KW,
    CHECK_KW,
    TRUE_KW,
    FALSE_KW,
    AND_KW,
    OR_KW,
    NOT_KW,
    IMPLY_KW,
    FORALL_KW,
    EXISTS_KW,
    SUM_KW,
    // Function bodies.
    VOID_KW,
    RETURN_KW,
    IF_KW,
    ELSE_KW,
    WHILE_KW,
    FOR_KW,
    // Priorities: `priority a < default < b;`.
    PRIORITY_KW,
    DEFAULT_KW,
    DEADLOCK_KW,
    // Path quantifiers of checks: `A[]`, `E<>`, `A<>`, `E[]`.
    A_BOX,
    E_DIAMOND,
    A_DIAMOND,
    E_BOX,
    // `-->` of a leads-to check, `check name: p --> q;`.
    LEADS_TO,
    // Punctuation.
    SEMICOLON,
    COMMA,
    COLON,
    DOT,
    L_PAREN,
    R_PAREN,
    L_BRACK,
    R_BRACK,
    L_CURLY,
    R_CURLY,
    ARROW,
    EQ,
    PLUS_EQ,
    MINUS_EQ,
    STAR_EQ,
    SLASH_EQ,
    PLUS2,
    MINUS2,
    PLUS,
    MINUS,
    STAR,
    STAR2,
    SLASH,
    PERCENT,
    LT,
    LTEQ,
    EQ2,
    NEQ,
    GTEQ,
    GT,
    AMP2,
    PIPE2,
    BANG,
    QUESTION,
    AMP,
    PIPE,
    CARET,
    TILDE,
    SHL,
    SHR,
    PERCENT_EQ,
    AMP_EQ,
    PIPE_EQ,
    CARET_EQ,
    SHL_EQ,
    SHR_EQ,
    // `<?` (minimum) and `>?` (maximum), as UPPAAL writes them.
    LT_QUESTION,
    GT_QUESTION,
    // `'`: a clock's rate, `x'` (stopwatches).
    PRIME,
    // End of input; only the parser sees it, never the tree.
    EOF,

    // Nodes.
    SOURCE_FILE,
    VAR_DECL,
    VAR_DECLARATOR,
    ARRAY_SIZE,
    ARRAY_INIT,
    TYPEDEF_DECL,
    INT_TYPE,
    RANGE,
    BOOL_TYPE,
    CLOCK_TYPE,
    CHAN_TYPE,
    NAMED_TYPE,
    STRUCT_TYPE,
    SCALAR_TYPE,
    TEMPLATE,
    PARAM_LIST,
    PARAM,
    TEMPLATE_BODY,
    LOCATION,
    INVARIANT,
    EDGE,
    SELECT_CLAUSE,
    SELECT_BINDING,
    GUARD,
    SYNC,
    UPDATE,
    INSTANCE,
    ARG_LIST,
    SYSTEM,
    SYNC_VECTOR,
    SYNC_PARTICIPANT,
    PRIORITY_DECL,
    CHECK,
    BOUND_PREDICATE,
    NAME,
    NAME_REF,
    LITERAL,
    PAREN_EXPR,
    PREFIX_EXPR,
    BIN_EXPR,
    COND_EXPR,
    INDEX_EXPR,
    FIELD_EXPR,
    CALL_EXPR,
    POSTFIX_EXPR,
    ASSIGN_EXPR,
    QUANT_EXPR,
    // Functions and their statements.
    FUNCTION,
    BLOCK,
    EXPR_STMT,
    IF_STMT,
    ELSE_BRANCH,
    WHILE_STMT,
    DO_STMT,
    FOR_STMT,
    FOR_INIT,
    FOR_COND,
    FOR_STEP,
    FOR_RANGE_STMT,
    RETURN_STMT,
    EMPTY_STMT,
}

impl SyntaxKind {
    /// The kind rowan stores as `raw`; [`SyntaxKind::ERROR`] for a number
    /// that is no kind.
    pub fn from_raw(raw: u16) -> SyntaxKind {
        ALL_KINDS
            .get(raw as usize)
            .copied()
            .unwrap_or(SyntaxKind::ERROR)
    }

    /// Every kind, in declaration order.
    pub fn all() -> &'static [SyntaxKind] {
        ALL_KINDS
    }

    /// Whitespace and comments: kept in the tree, skipped by the parser.
    pub fn is_trivia(self) -> bool {
        matches!(self, SyntaxKind::WHITESPACE | SyntaxKind::COMMENT)
    }

    /// A keyword of the language.
    pub fn is_keyword(self) -> bool {
        (SyntaxKind::CONST_KW as u16..=SyntaxKind::DEADLOCK_KW as u16).contains(&(self as u16))
    }

    /// The text of a keyword kind (`deadlock` for `DEADLOCK_KW`).
    pub fn keyword_text(self) -> Option<&'static str> {
        if !self.is_keyword() {
            return None;
        }
        self.describe().strip_prefix('`')?.strip_suffix('`')
    }

    /// The text of a token of a fixed spelling (`**` for `STAR2`, `and` for
    /// `AND_KW`); `None` for names, numbers, trivia and nodes.
    pub fn token_text(self) -> Option<&'static str> {
        self.describe().strip_prefix('`')?.strip_suffix('`')
    }

    /// Every keyword of the language, in declaration order.
    pub fn keywords() -> impl Iterator<Item = &'static str> {
        ALL_KINDS.iter().filter_map(|k| k.keyword_text())
    }

    /// Is this a token kind (as opposed to a node kind)?
    pub fn is_token(self) -> bool {
        self <= SyntaxKind::EOF
    }

    /// How the token is written, for messages like "expected `;`".
    pub fn describe(self) -> &'static str {
        use SyntaxKind::*;
        match self {
            WHITESPACE => "whitespace",
            COMMENT => "a comment",
            ERROR => "an unknown character",
            IDENT => "a name",
            INT_NUMBER => "a number",
            CONST_KW => "`const`",
            TYPEDEF_KW => "`typedef`",
            STRUCT_KW => "`struct`",
            META_KW => "`meta`",
            SCALAR_KW => "`scalar`",
            INT_KW => "`int`",
            BOOL_KW => "`bool`",
            CLOCK_KW => "`clock`",
            CHAN_KW => "`chan`",
            URGENT_KW => "`urgent`",
            BROADCAST_KW => "`broadcast`",
            COMMITTED_KW => "`committed`",
            TEMPLATE_KW => "`template`",
            INIT_KW => "`init`",
            LOCATION_KW => "`location`",
            INVARIANT_KW => "`invariant`",
            WHEN_KW => "`when`",
            SYNC_KW => "`sync`",
            SELECT_KW => "`select`",
            DO_KW => "`do`",
            SYSTEM_KW => "`system`",
            CHECK_KW => "`check`",
            TRUE_KW => "`true`",
            FALSE_KW => "`false`",
            AND_KW => "`and`",
            OR_KW => "`or`",
            NOT_KW => "`not`",
            IMPLY_KW => "`imply`",
            FORALL_KW => "`forall`",
            EXISTS_KW => "`exists`",
            SUM_KW => "`sum`",
            VOID_KW => "`void`",
            RETURN_KW => "`return`",
            IF_KW => "`if`",
            ELSE_KW => "`else`",
            WHILE_KW => "`while`",
            FOR_KW => "`for`",
            PRIORITY_KW => "`priority`",
            DEFAULT_KW => "`default`",
            DEADLOCK_KW => "`deadlock`",
            A_BOX => "`A[]`",
            E_DIAMOND => "`E<>`",
            A_DIAMOND => "`A<>`",
            E_BOX => "`E[]`",
            LEADS_TO => "`-->`",
            SEMICOLON => "`;`",
            COMMA => "`,`",
            COLON => "`:`",
            DOT => "`.`",
            L_PAREN => "`(`",
            R_PAREN => "`)`",
            L_BRACK => "`[`",
            R_BRACK => "`]`",
            L_CURLY => "`{`",
            R_CURLY => "`}`",
            ARROW => "`->`",
            EQ => "`=`",
            PLUS_EQ => "`+=`",
            MINUS_EQ => "`-=`",
            STAR_EQ => "`*=`",
            SLASH_EQ => "`/=`",
            PLUS2 => "`++`",
            MINUS2 => "`--`",
            PLUS => "`+`",
            MINUS => "`-`",
            STAR => "`*`",
            STAR2 => "`**`",
            SLASH => "`/`",
            PERCENT => "`%`",
            LT => "`<`",
            LTEQ => "`<=`",
            EQ2 => "`==`",
            NEQ => "`!=`",
            GTEQ => "`>=`",
            GT => "`>`",
            AMP2 => "`&&`",
            PIPE2 => "`||`",
            BANG => "`!`",
            QUESTION => "`?`",
            AMP => "`&`",
            PIPE => "`|`",
            CARET => "`^`",
            TILDE => "`~`",
            SHL => "`<<`",
            SHR => "`>>`",
            PERCENT_EQ => "`%=`",
            AMP_EQ => "`&=`",
            PIPE_EQ => "`|=`",
            CARET_EQ => "`^=`",
            SHL_EQ => "`<<=`",
            SHR_EQ => "`>>=`",
            LT_QUESTION => "`<?`",
            GT_QUESTION => "`>?`",
            PRIME => "`'`",
            EOF => "end of file",
            _ => "a syntax node",
        }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

/// The rowan language of zeno trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ZenoLanguage {}

impl rowan::Language for ZenoLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

/// A node of the lossless tree.
pub type SyntaxNode = rowan::SyntaxNode<ZenoLanguage>;
/// A token of the lossless tree (trivia included).
pub type SyntaxToken = rowan::SyntaxToken<ZenoLanguage>;
/// A node or a token.
pub type SyntaxElement = rowan::SyntaxElement<ZenoLanguage>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_round_trip_and_token_bound() {
        for &kind in ALL_KINDS {
            assert_eq!(SyntaxKind::from_raw(kind as u16), kind);
        }
        assert!((SyntaxKind::EOF as u16) < 128);
        assert_eq!(SyntaxKind::from_raw(u16::MAX), SyntaxKind::ERROR);
    }
}

#[cfg(test)]
mod keyword_tests {
    use super::SyntaxKind;

    #[test]
    fn keywords_are_the_keyword_kinds_texts() {
        let keywords: Vec<&str> = SyntaxKind::keywords().collect();
        // The language description's list: 40 keywords from `const` to
        // `deadlock`, the six of function bodies and the two of priorities
        // among them.
        assert_eq!(keywords.len(), 40, "{keywords:?}");
        assert!(keywords.contains(&"priority") && keywords.contains(&"default"));
        assert!(keywords.contains(&"return") && keywords.contains(&"void"));
        assert_eq!(keywords.first(), Some(&"const"));
        assert_eq!(keywords.last(), Some(&"deadlock"));
        assert!(keywords.contains(&"imply"));
        assert_eq!(SyntaxKind::IDENT.keyword_text(), None);
        assert_eq!(SyntaxKind::A_BOX.keyword_text(), None);
    }
}

//! The grammar: one function per construct, recursive descent for items and
//! a precedence-climbing (Pratt) parser for expressions.
//!
//! Invariants that keep the parser total: every loop either consumes a token
//! or exits, and every recursion goes through [`Parser::enter`].

use super::SyntaxKind::{self, *};
use super::parser::{CompletedMarker, MAX_TREE_DEPTH, Parser, TokenSet};
use zeno_base::operators::{ASSIGNMENTS, Assoc, Prec};

/// The keywords that begin `int`, `bool`, `clock` and channel types: they
/// start a type, a declaration and so an item.
const SIMPLE_TYPE_KEYWORDS: TokenSet =
    TokenSet::new(&[INT_KW, BOOL_KW, CLOCK_KW, CHAN_KW, URGENT_KW, BROADCAST_KW]);

/// Tokens that always begin an item: parsing resumes at them after an error.
const ITEM_KEYWORDS: TokenSet = TokenSet::new(&[
    CONST_KW,
    META_KW,
    TYPEDEF_KW,
    STRUCT_KW,
    COMMITTED_KW,
    TEMPLATE_KW,
    INIT_KW,
    LOCATION_KW,
    SYSTEM_KW,
    CHECK_KW,
    PRIORITY_KW,
    VOID_KW,
])
.union(SIMPLE_TYPE_KEYWORDS);

/// Items that cannot occur in a template body: seeing one there means the
/// body's `}` is missing.
const TOP_LEVEL_ONLY: TokenSet = TokenSet::new(&[TEMPLATE_KW, SYSTEM_KW, CHECK_KW, PRIORITY_KW]);

const PATH_QUANTIFIERS: TokenSet = TokenSet::new(&[A_BOX, E_DIAMOND, A_DIAMOND, E_BOX]);

const LOCATION_MODIFIERS: TokenSet = TokenSet::new(&[INIT_KW, URGENT_KW, COMMITTED_KW]);

const TYPE_START: TokenSet =
    TokenSet::new(&[STRUCT_KW, SCALAR_KW, IDENT]).union(SIMPLE_TYPE_KEYWORDS);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    TopLevel,
    Template,
}

pub fn source_file(p: &mut Parser) {
    let m = p.start();
    while !p.at_eof() {
        let before = p.pos();
        item(p, Context::TopLevel);
        ensure_progress(p, before);
    }
    m.complete(p, SOURCE_FILE);
}

/// A node of `kind`: the current token (a keyword, an opening bracket, a
/// name), then what `rest` parses.
fn bump_node(p: &mut Parser, kind: SyntaxKind, rest: impl FnOnce(&mut Parser)) {
    let m = p.start();
    p.bump();
    rest(p);
    m.complete(p, kind);
}

/// `parse` when the current token is `kind` (the one it starts with);
/// otherwise "expected `what`", with nothing consumed.
fn parse_at(p: &mut Parser, kind: SyntaxKind, what: &str, parse: impl FnOnce(&mut Parser)) {
    if p.at(kind) {
        parse(p);
    } else {
        p.error_expected(what);
    }
}

/// Defensive: if a grammar function consumed nothing, wrap one token in an
/// `ERROR` node so that the enclosing loop cannot spin.
fn ensure_progress(p: &mut Parser, before: usize) {
    if p.pos() == before && !p.at_eof() {
        bump_node(p, ERROR, |_| {});
    }
}

fn at_item_start(p: &Parser) -> bool {
    p.at_set(ITEM_KEYWORDS) || (p.at(IDENT) && matches!(p.nth(1), ARROW | IDENT | EQ))
}

fn item(p: &mut Parser, ctx: Context) {
    match p.current() {
        TEMPLATE_KW => template(p),
        SYSTEM_KW => system(p),
        SYNC_KW => sync_vector(p, ctx),
        PRIORITY_KW => priority_decl(p),
        CHECK_KW => check(p),
        TYPEDEF_KW => typedef_decl(p),
        VOID_KW => {
            let m = p.start();
            p.bump();
            function_rest(p, m);
        }
        INIT_KW | COMMITTED_KW | LOCATION_KW => location(p, ctx),
        URGENT_KW if location_ahead(p) => location(p, ctx),
        CONST_KW | META_KW | STRUCT_KW | SCALAR_KW | INT_KW | BOOL_KW | CLOCK_KW | CHAN_KW
        | URGENT_KW | BROADCAST_KW => var_decl(p),
        IDENT => match p.nth(1) {
            ARROW => edge(p, ctx),
            IDENT => var_decl(p),
            EQ => instance(p, ctx),
            // `P(const id_t i) = T(i, 1);`: partial instantiation.
            L_PAREN if ctx == Context::TopLevel => instance(p, ctx),
            _ => error_item(p, ctx),
        },
        _ => error_item(p, ctx),
    }
}

/// Is this `init`/`urgent`/`committed`… followed by `location`?
fn location_ahead(p: &Parser) -> bool {
    let mut n = 0;
    while LOCATION_MODIFIERS.contains(p.nth(n)) {
        n += 1;
    }
    p.nth(n) == LOCATION_KW
}

/// Skips tokens that cannot start an item, as one `ERROR` node.
fn error_item(p: &mut Parser, ctx: Context) {
    let what = match ctx {
        Context::TopLevel => "a declaration, template, system line or check",
        Context::Template => "a declaration, location or edge",
    };
    if p.at(IDENT)
        && matches!(
            p.nth(1),
            MINUS | MINUS2 | GT | GTEQ | SHR | SHR_EQ | GT_QUESTION
        )
    {
        // `a -` or `a >`: an edge whose arrow is being typed.
        p.error_here("expected `->` after the source location");
    } else {
        p.error_here(format!("expected {what}, found {}", p.current().describe()));
    }
    bump_node(p, ERROR, |p| {
        // At the top level a `}` closes nothing: skip it with the rest.
        let stop_at_curly = ctx == Context::Template;
        skip_past_semi(p, |p| {
            p.at_eof() || at_item_start(p) || (stop_at_curly && p.at(R_CURLY))
        });
    });
}

/// Expects the `;` that ends an item; when it is missing, skips to the next
/// item (or past the next `;`).
fn semi(p: &mut Parser) {
    if p.eat(SEMICOLON) {
        return;
    }
    p.error_expected("`;`");
    recover_past_semi(p, |p| p.at_eof() || at_item_start(p) || p.at(R_CURLY));
}

fn name(p: &mut Parser) -> bool {
    ident_node(p, NAME)
}

fn name_ref(p: &mut Parser) -> bool {
    ident_node(p, NAME_REF)
}

/// An identifier as a node of `kind`: a name, or a use of one.
fn ident_node(p: &mut Parser, kind: SyntaxKind) -> bool {
    if p.at(IDENT) {
        bump_node(p, kind, |_| {});
        true
    } else {
        p.error_expected("a name");
        false
    }
}

/// A name and its postfix operators (`c[e]`, `Station(1).cd`), with calls
/// only when `allow_call` (see [`postfix`]).
fn name_ref_postfix(p: &mut Parser, allow_call: bool) {
    let c = p.start();
    p.bump();
    let c = c.complete(p, NAME_REF);
    postfix(p, c, allow_call);
}

/// `element` once, then again after each separator of `separators`.
fn separated(p: &mut Parser, separators: TokenSet, mut element: impl FnMut(&mut Parser)) {
    loop {
        element(p);
        if !p.at_set(separators) {
            break;
        }
        p.bump();
    }
}

const COMMA_ONLY: TokenSet = TokenSet::new(&[COMMA]);

/// `a, b < c`: a comma separates the entries of one level, `<` starts the next.
const LEVEL_SEPARATORS: TokenSet = TokenSet::new(&[COMMA, LT]);

/// `while p.at(L_BRACK)`: the `[N]` after a declared name, any number of them.
fn array_sizes(p: &mut Parser) {
    while p.at(L_BRACK) {
        array_size(p);
    }
}

/// The current opening bracket, what `inner` parses, and the matching
/// `close`.
fn bracketed(p: &mut Parser, close: SyntaxKind, inner: impl FnOnce(&mut Parser)) {
    p.bump();
    let opened = p.previous_span();
    inner(p);
    p.expect_closing(close, opened);
}

/// The current opening bracket, an expression, and the matching `close`.
fn bracketed_expr(p: &mut Parser, close: SyntaxKind) {
    bracketed(p, close, |p| {
        expr(p);
    });
}

/// Skips tokens up to and including the next `;`, stopping early where
/// `at_stop` holds.
fn skip_past_semi(p: &mut Parser, at_stop: impl Fn(&Parser) -> bool) {
    while !at_stop(p) {
        if p.eat(SEMICOLON) {
            break;
        }
        p.bump();
    }
}

/// After a missing `;`: wraps what lies before the next `;` (and that `;`)
/// in an `ERROR` node, unless `at_stop` holds first.
fn recover_past_semi(p: &mut Parser, at_stop: impl Fn(&Parser) -> bool) {
    if at_stop(p) {
        return;
    }
    let m = p.start();
    skip_past_semi(p, at_stop);
    m.complete(p, ERROR);
}

/// `{ … }`: `element` until the `}`, or until an item that stands only at
/// the top level (the `}` is missing).
fn braced(p: &mut Parser, kind: SyntaxKind, mut element: impl FnMut(&mut Parser)) {
    bump_node(p, kind, |p| {
        let opened = p.previous_span();
        while !p.at_eof() && !p.at(R_CURLY) && !p.at_set(TOP_LEVEL_ONLY) {
            let before = p.pos();
            element(p);
            ensure_progress(p, before);
        }
        p.expect_closing(R_CURLY, opened);
    });
}

// ---------------------------------------------------------------- declarations

fn var_decl(p: &mut Parser) {
    let m = p.start();
    // `meta` (UPPAAL's) and `const` in either order, each at most once.
    for _ in 0..2 {
        if !p.eat(CONST_KW) && !p.eat(META_KW) {
            break;
        }
    }
    if p.at(IDENT) && matches!(p.nth(1), EQ | SEMICOLON | COMMA | L_BRACK) {
        // `const N = 3;`: the name is there, the type is missing.
        p.error_expected("a type");
    } else {
        ty(p);
    }
    if p.at(IDENT) && p.nth(1) == L_PAREN {
        // `int f(...) { ... }`: a function with a result.
        function_rest(p, m);
        return;
    }
    separated(p, COMMA_ONLY, declarator);
    semi(p);
    m.complete(p, VAR_DECL);
}

fn declarator(p: &mut Parser) {
    if !p.at(IDENT) {
        p.error_expected("a name");
        return;
    }
    let m = p.start();
    name(p);
    array_sizes(p);
    if p.eat(EQ) {
        initializer(p);
    }
    m.complete(p, VAR_DECLARATOR);
}

fn array_size(p: &mut Parser) {
    let m = p.start();
    bracketed_expr(p, R_BRACK);
    m.complete(p, ARRAY_SIZE);
}

fn initializer(p: &mut Parser) {
    if p.at(L_CURLY) {
        array_init(p);
    } else {
        expr(p);
    }
}

/// `{ 1, 2, { 3 } }`
fn array_init(p: &mut Parser) {
    if !p.enter() {
        return;
    }
    bump_node(p, ARRAY_INIT, |p| {
        delimited(p, R_CURLY, TokenSet::new(&[SEMICOLON]), initializer);
    });
    p.leave();
}

fn typedef_decl(p: &mut Parser) {
    bump_node(p, TYPEDEF_DECL, |p| {
        ty(p);
        name(p);
        array_sizes(p);
        semi(p);
    });
}

/// A type: `int`, `int[lo, hi]`, `bool`, `clock`, `[urgent] [broadcast] chan`,
/// `struct { … }`, or a typedef name.
fn ty(p: &mut Parser) -> bool {
    if p.at(STRUCT_KW) {
        return struct_type(p);
    }
    let m = p.start();
    let kind = match p.current() {
        // `scalar[N]`: UPPAAL's scalar set, here the integers 0 to N - 1.
        SCALAR_KW => {
            p.bump();
            parse_at(p, L_BRACK, "`[` and the scalar set's size", array_size);
            SCALAR_TYPE
        }
        INT_KW => {
            p.bump();
            if p.at(L_BRACK) {
                range(p);
            }
            INT_TYPE
        }
        BOOL_KW => {
            p.bump();
            BOOL_TYPE
        }
        CLOCK_KW => {
            p.bump();
            CLOCK_TYPE
        }
        URGENT_KW | BROADCAST_KW | CHAN_KW => {
            while p.at(URGENT_KW) || p.at(BROADCAST_KW) {
                p.bump();
            }
            p.expect(CHAN_KW);
            CHAN_TYPE
        }
        IDENT => {
            name_ref(p);
            NAMED_TYPE
        }
        _ => {
            m.abandon(p);
            p.error_expected("a type");
            return false;
        }
    };
    m.complete(p, kind);
    true
}

/// `struct { int a; bool b[2]; }`: the fields are declarations (without
/// initial values, which the semantics reports).
fn struct_type(p: &mut Parser) -> bool {
    if !p.enter() {
        return false;
    }
    let m = p.start();
    p.bump();
    if p.at(L_CURLY) {
        p.bump();
        let opened = p.previous_span();
        while !p.at_eof() && !p.at(R_CURLY) {
            if p.at(CONST_KW) || p.at_set(TYPE_START) {
                var_decl(p);
            } else if p.at_set(TOP_LEVEL_ONLY) || p.at(TYPEDEF_KW) {
                // The `}` is missing: leave the rest to the items.
                break;
            } else {
                p.error_here(format!(
                    "expected a field declaration, found {}",
                    p.current().describe()
                ));
                p.bump();
            }
        }
        p.expect_closing(R_CURLY, opened);
    } else {
        p.error_expected("`{`");
    }
    m.complete(p, STRUCT_TYPE);
    p.leave();
    true
}

/// `[lo, hi]` after `int`.
fn range(p: &mut Parser) {
    let m = p.start();
    bracketed(p, R_BRACK, |p| {
        expr(p);
        p.expect(COMMA);
        expr(p);
    });
    m.complete(p, RANGE);
}

// ------------------------------------------------------------------- functions

/// The rest of a function after its result type (or `void`):
/// `name(params) { statements }`.
fn function_rest(p: &mut Parser, m: super::parser::Marker) {
    name(p);
    parse_at(p, L_PAREN, "`(`", param_list);
    parse_at(p, L_CURLY, "`{`", block);
    m.complete(p, FUNCTION);
}

/// `{ statements }`
fn block(p: &mut Parser) {
    if !p.enter() {
        return;
    }
    braced(p, BLOCK, statement);
    p.leave();
}

/// Tokens that start a local declaration rather than an expression.
const DECL_START: TokenSet = TokenSet::new(&[CONST_KW, TYPEDEF_KW]).union(SIMPLE_TYPE_KEYWORDS);

fn statement(p: &mut Parser) {
    if !p.enter() {
        return;
    }
    match p.current() {
        L_CURLY => block(p),
        IF_KW => if_stmt(p),
        WHILE_KW => {
            bump_node(p, WHILE_STMT, |p| {
                paren_condition(p);
                statement_body(p);
            });
        }
        DO_KW => {
            bump_node(p, DO_STMT, |p| {
                statement_body(p);
                p.expect(WHILE_KW);
                paren_condition(p);
                stmt_semi(p);
            });
        }
        FOR_KW => for_stmt(p),
        RETURN_KW => {
            bump_node(p, RETURN_STMT, |p| {
                if !p.at(SEMICOLON) {
                    expr(p);
                }
                stmt_semi(p);
            });
        }
        SEMICOLON => {
            bump_node(p, EMPTY_STMT, |_| {});
        }
        TYPEDEF_KW => typedef_decl(p),
        _ if p.at_set(DECL_START) || (p.at(IDENT) && p.nth(1) == IDENT) => var_decl(p),
        _ => {
            let m = p.start();
            if expr(p).is_none() {
                // Skip the token the expression could not start with.
                if !p.at(R_CURLY) && !p.at_eof() {
                    p.bump();
                }
            }
            stmt_semi(p);
            m.complete(p, EXPR_STMT);
        }
    }
    p.leave();
}

/// The body of `if`, `else`, `while`, `do` and `for`: one statement (or a
/// block), never a declaration on its own (as in C).
fn statement_body(p: &mut Parser) {
    if p.at(R_CURLY) || p.at_eof() {
        p.error_expected("a statement");
        return;
    }
    statement(p);
}

/// `;` after a statement; when missing, skips to the next `;` or `}`.
fn stmt_semi(p: &mut Parser) {
    if p.eat(SEMICOLON) {
        return;
    }
    p.error_expected("`;`");
    // A `{` starts the next statement: nothing to skip.
    if p.at(L_CURLY) {
        return;
    }
    recover_past_semi(p, |p| {
        p.at_eof() || p.at(R_CURLY) || p.at_set(TOP_LEVEL_ONLY)
    });
}

/// `( e )` after `if` and `while`.
fn paren_condition(p: &mut Parser) {
    if !p.at(L_PAREN) {
        p.error_expected("`(`");
        return;
    }
    bracketed_expr(p, R_PAREN);
}

fn if_stmt(p: &mut Parser) {
    bump_node(p, IF_STMT, |p| {
        paren_condition(p);
        statement_body(p);
        if p.at(ELSE_KW) {
            bump_node(p, ELSE_BRANCH, statement_body);
        }
    });
}

/// `for (init; cond; step) body` (C's) or `for (i : T) body` (UPPAAL's
/// iteration over a bounded type).
fn for_stmt(p: &mut Parser) {
    let m = p.start();
    p.bump();
    if !p.at(L_PAREN) {
        p.error_expected("`(`");
        statement_body(p);
        m.complete(p, FOR_STMT);
        return;
    }
    p.bump();
    let opened = p.previous_span();
    if p.at(IDENT) && p.nth(1) == COLON {
        name(p);
        p.bump();
        ty(p);
        p.expect_closing(R_PAREN, opened);
        statement_body(p);
        m.complete(p, FOR_RANGE_STMT);
        return;
    }
    for (kind, end) in [
        (FOR_INIT, SEMICOLON),
        (FOR_COND, SEMICOLON),
        (FOR_STEP, R_PAREN),
    ] {
        if !p.at(end) {
            let part = p.start();
            loop {
                if expr(p).is_none() || !p.eat(COMMA) {
                    break;
                }
            }
            part.complete(p, kind);
        }
        if end == SEMICOLON {
            p.expect(SEMICOLON);
        }
    }
    p.expect_closing(R_PAREN, opened);
    statement_body(p);
    m.complete(p, FOR_STMT);
}

// ------------------------------------------------------------------- templates

fn template(p: &mut Parser) {
    bump_node(p, TEMPLATE, |p| {
        name(p);
        if p.at(L_PAREN) {
            param_list(p);
        }
        parse_at(p, L_CURLY, "`{`", template_body);
    });
}

fn param_list(p: &mut Parser) {
    bump_node(p, PARAM_LIST, |p| {
        delimited(
            p,
            R_PAREN,
            TokenSet::new(&[L_CURLY, R_CURLY, SEMICOLON]).union(TOP_LEVEL_ONLY),
            param,
        );
    });
}

/// `const T p`, `T &p`, `T p` (UPPAAL's by-value form), `T p[N]`.
fn param(p: &mut Parser) {
    if !p.at(CONST_KW) && !p.at_set(TYPE_START) {
        p.error_expected("a parameter");
        return;
    }
    let m = p.start();
    p.eat(CONST_KW);
    ty(p);
    p.eat(AMP);
    name(p);
    array_sizes(p);
    m.complete(p, PARAM);
}

fn template_body(p: &mut Parser) {
    braced(p, TEMPLATE_BODY, |p| item(p, Context::Template));
}

fn location(p: &mut Parser, ctx: Context) {
    if ctx == Context::TopLevel {
        p.error_here("locations belong inside a template");
    }
    let m = p.start();
    while p.at_set(LOCATION_MODIFIERS) {
        p.bump();
    }
    p.expect(LOCATION_KW);
    name(p);
    if p.at(INVARIANT_KW) {
        bump_node(p, INVARIANT, |p| {
            expr(p);
        });
    }
    semi(p);
    m.complete(p, LOCATION);
}

/// `src -> dst select … when … sync … do …;`
fn edge(p: &mut Parser, ctx: Context) {
    if ctx == Context::TopLevel {
        p.error_here("edges belong inside a template");
    }
    let m = p.start();
    name_ref(p);
    p.bump(); // `->`
    // `a -> ` followed by the next edge `b -> c`: the target is missing,
    // `b` starts the next edge.
    if p.at(IDENT) && p.nth(1) != ARROW {
        name_ref(p);
    } else {
        p.error_expected("a target location");
    }
    let mut last = 0;
    loop {
        let order = match p.current() {
            SELECT_KW => 1,
            WHEN_KW => 2,
            SYNC_KW => 3,
            DO_KW => 4,
            _ => break,
        };
        if order <= last {
            p.error_here(format!(
                "{} is out of place: an edge has at most one of each clause, \
                 in the order select, when, sync, do",
                p.current().describe()
            ));
        }
        last = last.max(order);
        match order {
            1 => select_clause(p),
            2 => guard(p),
            3 => sync(p),
            _ => update(p),
        }
    }
    semi(p);
    m.complete(p, EDGE);
}

fn select_clause(p: &mut Parser) {
    bump_node(p, SELECT_CLAUSE, |p| {
        separated(p, COMMA_ONLY, |p| {
            let b = p.start();
            name(p);
            p.expect(COLON);
            ty(p);
            b.complete(p, SELECT_BINDING);
        });
    });
}

fn guard(p: &mut Parser) {
    bump_node(p, GUARD, |p| {
        expr(p);
    });
}

/// `sync c!`, `sync c[e]?`, or an action label `sync a` (no `!`/`?`)
/// that the system's synchronisation vectors refer to.
fn sync(p: &mut Parser) {
    bump_node(p, SYNC, |p| {
        // Only indexing and fields: `c?` must not start a `?:`.
        parse_at(p, IDENT, "a channel", |p| name_ref_postfix(p, false));
        // Without `!` or `?` the name is an action label.
        if p.at(BANG) || p.at(QUESTION) {
            p.bump();
        }
    });
}

fn update(p: &mut Parser) {
    bump_node(p, UPDATE, |p| {
        separated(p, COMMA_ONLY, |p| {
            expr(p);
        });
    });
}

// ------------------------------------------------------- system line and checks

fn instance(p: &mut Parser, ctx: Context) {
    if ctx == Context::Template {
        p.error_here("instances belong at the top level, not inside a template");
    }
    let m = p.start();
    name(p);
    if p.at(L_PAREN) {
        // The parameters left free, one instance per value of each.
        param_list(p);
    }
    if !p.eat(EQ) {
        p.error_expected("`=`");
    }
    parse_at(p, IDENT, "a template name", |p| {
        name_ref(p);
    });
    if p.at(L_PAREN) {
        arg_list(p);
    }
    semi(p);
    m.complete(p, INSTANCE);
}

fn arg_list(p: &mut Parser) {
    bump_node(p, ARG_LIST, |p| {
        delimited(
            p,
            R_PAREN,
            TokenSet::new(&[SEMICOLON, L_CURLY, R_CURLY]),
            |p| {
                expr(p);
            },
        );
    });
}

/// `system A < B, C;`: `<` separates priority levels, the higher to its right.
fn system(p: &mut Parser) {
    bump_node(p, SYSTEM, |p| {
        separated(p, LEVEL_SEPARATORS, |p| {
            name_ref(p);
        });
        semi(p);
    });
}

/// `priority a, d[0] < default < b;`: channel priority levels, lowest first;
/// `,` separates channels of one level, `<` starts a higher one.
/// Like `system`, it ends a template body whose `}` is missing.
fn priority_decl(p: &mut Parser) {
    let m = p.start();
    p.bump();
    loop {
        if p.at(DEFAULT_KW) {
            p.bump();
        } else if p.at(IDENT) {
            // Indices only: a channel or an element of a channel array.
            name_ref_postfix(p, false);
        } else {
            p.error_expected("a channel or `default`");
            break;
        }
        if !p.at_set(LEVEL_SEPARATORS) {
            break;
        }
        p.bump();
    }
    semi(p);
    m.complete(p, PRIORITY_DECL);
}

/// `sync Bus.cd, Station(1).cd?;`: a synchronisation vector, one
/// participant per process (`?` marks a weak one).
fn sync_vector(p: &mut Parser, ctx: Context) {
    if ctx == Context::Template {
        p.error_here("synchronisation vectors belong at the top level, after the templates");
    }
    bump_node(p, SYNC_VECTOR, |p| {
        separated(p, COMMA_ONLY, |p| {
            let part = p.start();
            // Fields and calls only: the `?` of a weak participant must not
            // start a `?:`.
            parse_at(p, IDENT, "a participant `Process.label`", |p| {
                name_ref_postfix(p, true)
            });
            p.eat(QUESTION);
            part.complete(p, SYNC_PARTICIPANT);
        });
        semi(p);
    });
}

/// Whether a value query (`sup: …`, `inf{pred}: …`) starts `n` tokens
/// ahead; `sup:` before a path quantifier or another value query names a
/// check instead (`check sup: A[] …`, `check inf: sup: …`).
fn at_bound_query(p: &Parser, n: usize) -> bool {
    p.nth_is_bound_word(n)
        && (p.nth(n + 1) == L_CURLY
            || (p.nth(n + 1) == COLON
                && !PATH_QUANTIFIERS.contains(p.nth(n + 2))
                && !(p.nth_is_bound_word(n + 2) && matches!(p.nth(n + 3), COLON | L_CURLY))))
}

/// `check name: A[] phi;`, `check name: p --> q;` or a value query
/// `check name: sup{pred}: e1, e2;` (the name is optional).
fn check(p: &mut Parser) {
    bump_node(p, CHECK, |p| {
        if p.at(IDENT) && p.nth(1) == COLON && !at_bound_query(p, 0) {
            name(p);
            p.bump();
        } else if p.at(IDENT) && PATH_QUANTIFIERS.contains(p.nth(1)) {
            name(p);
            p.error_expected("`:`");
        }
        if at_bound_query(p, 0) {
            // `sup` / `inf`, then `{pred}`, then the expressions.
            p.bump();
            if p.at(L_CURLY) {
                let pred = p.start();
                p.bump();
                let opened = p.previous_span();
                expr(p);
                p.expect_closing(R_CURLY, opened);
                pred.complete(p, BOUND_PREDICATE);
            }
            p.expect(COLON);
            expr(p);
            while p.eat(COMMA) {
                expr(p);
            }
        } else if p.at_set(PATH_QUANTIFIERS) {
            p.bump();
            expr(p);
        } else {
            // `p --> q`: a leads-to check has no quantifier in front.
            expr(p);
            if p.eat(LEADS_TO) {
                expr(p);
            } else {
                p.error_expected("`-->` (or `A[]`, `E<>`, `A<>`, `E[]` before the formula)");
            }
        }
        semi(p);
    });
}

/// A comma-separated list after its opening token, up to `close` (consumed).
/// Stops early at `stop` tokens (a missing closer).
fn delimited(
    p: &mut Parser,
    close: SyntaxKind,
    stop: TokenSet,
    mut element: impl FnMut(&mut Parser),
) {
    // The caller has just consumed the opening bracket.
    let opened = p.previous_span();
    loop {
        if p.at(close) || p.at_eof() || p.at_set(stop) {
            break;
        }
        let before = p.pos();
        element(p);
        if p.pos() == before {
            // The element reported the error; skip the offending token.
            bump_node(p, ERROR, |_| {});
            continue;
        }
        if p.eat(COMMA) || p.at(close) {
            continue;
        }
        p.error_expected(&format!("`,` or {}", close.describe()));
        if p.at_set(stop) {
            break;
        }
    }
    p.expect_closing(close, opened);
}

// ----------------------------------------------------------------- expressions

/// Binding powers of prefix operators' operands (`zeno_base::operators`).
const NOT_OPERAND_BP: u8 = Prec::Not.operand_binding_power();
const UNARY_OPERAND_BP: u8 = Prec::Prefix.operand_binding_power();
/// A quantifier's body extends as far as possible (down to `?:`).
const QUANTIFIER_BODY_BP: u8 = Prec::Cond.operand_binding_power();

/// Infix operators: (left binding power, right binding power, node kind),
/// from the one operator table ([`zeno_base::operators`]).
fn infix(kind: SyntaxKind) -> Option<(u8, u8, SyntaxKind)> {
    if let Some(op) = super::ast::bin_op(kind) {
        let (l, r) = op.prec().infix_binding_power(op.assoc());
        return Some((l, r, BIN_EXPR));
    }
    let text = kind.token_text()?;
    if ASSIGNMENTS.contains(&text) {
        let (l, r) = Prec::Assign.infix_binding_power(Assoc::Right);
        Some((l, r, ASSIGN_EXPR))
    } else if kind == QUESTION {
        let (l, r) = Prec::Cond.infix_binding_power(Assoc::Right);
        Some((l, r, COND_EXPR))
    } else {
        None
    }
}

pub fn expr(p: &mut Parser) -> Option<CompletedMarker> {
    expr_bp(p, 0)
}

fn expr_bp(p: &mut Parser, min_bp: u8) -> Option<CompletedMarker> {
    if !p.enter() {
        return None;
    }
    let result = expr_bp_inner(p, min_bp);
    p.leave();
    result
}

fn expr_bp_inner(p: &mut Parser, min_bp: u8) -> Option<CompletedMarker> {
    let mut lhs = lhs(p)?;
    let mut chain = 0;
    while let Some((left_bp, right_bp, kind)) = infix(p.current()) {
        if left_bp < min_bp {
            break;
        }
        // Each operator nests the tree one level deeper.
        if !deepen_chain(p, &mut chain) {
            break;
        }
        let m = lhs.precede(p);
        p.bump();
        if kind == COND_EXPR {
            expr_bp(p, 0);
            p.expect(COLON);
        }
        expr_bp(p, right_bp);
        lhs = m.complete(p, kind);
    }
    p.tree_depth -= chain;
    Some(lhs)
}

/// One more operator of a chain, which nests the tree one level deeper
/// (`chain` counts the levels, given back when the chain ends); `false`,
/// after reporting, at the depth limit.
fn deepen_chain(p: &mut Parser, chain: &mut u32) -> bool {
    if p.tree_depth >= MAX_TREE_DEPTH {
        p.too_deep();
        return false;
    }
    p.tree_depth += 1;
    *chain += 1;
    true
}

/// An operand: literal, name, parenthesised expression, prefix operator or
/// quantifier, followed by postfix operators.
fn lhs(p: &mut Parser) -> Option<CompletedMarker> {
    let m = p.start();
    let kind = match p.current() {
        INT_NUMBER | TRUE_KW | FALSE_KW | DEADLOCK_KW => {
            p.bump();
            LITERAL
        }
        // `x -> y` is the next edge, not part of this expression.
        IDENT if p.nth(1) != ARROW => {
            p.bump();
            NAME_REF
        }
        L_PAREN => {
            bracketed_expr(p, R_PAREN);
            PAREN_EXPR
        }
        // `++x` and `--x` take a postfix expression (UPPAAL's, and C's, rule):
        // `++a[i]` increments the element.
        MINUS | BANG | PLUS | TILDE | PLUS2 | MINUS2 => {
            p.bump();
            expr_bp(p, UNARY_OPERAND_BP);
            PREFIX_EXPR
        }
        NOT_KW => {
            p.bump();
            expr_bp(p, NOT_OPERAND_BP);
            PREFIX_EXPR
        }
        FORALL_KW | EXISTS_KW | SUM_KW => {
            p.bump();
            p.expect(L_PAREN);
            name(p);
            p.expect(COLON);
            ty(p);
            p.expect(R_PAREN);
            expr_bp(p, QUANTIFIER_BODY_BP);
            QUANT_EXPR
        }
        _ => {
            m.abandon(p);
            p.error_expected("an expression");
            return None;
        }
    };
    let done = m.complete(p, kind);
    Some(postfix(p, done, true))
}

/// `e[i]`, `e.name`, `e(args)` (when `allow_call`), `e++`, `e--`, and a
/// clock's rate `x'`.
fn postfix(p: &mut Parser, mut lhs: CompletedMarker, allow_call: bool) -> CompletedMarker {
    let mut chain = 0;
    loop {
        let kind = match p.current() {
            L_BRACK => INDEX_EXPR,
            DOT => FIELD_EXPR,
            L_PAREN if allow_call => CALL_EXPR,
            PLUS2 | MINUS2 if allow_call => POSTFIX_EXPR,
            PRIME => POSTFIX_EXPR,
            _ => break,
        };
        if !deepen_chain(p, &mut chain) {
            break;
        }
        let m = lhs.precede(p);
        match kind {
            INDEX_EXPR => bracketed_expr(p, R_BRACK),
            FIELD_EXPR => {
                p.bump();
                parse_at(p, IDENT, "a field name", |p| {
                    name_ref(p);
                });
            }
            CALL_EXPR => arg_list(p),
            _ => p.bump(),
        }
        lhs = m.complete(p, kind);
    }
    p.tree_depth -= chain;
    lhs
}

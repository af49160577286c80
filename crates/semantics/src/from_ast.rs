//! Syntax tree → HIR.
//!
//! Reads the lossless tree by node kinds and keeps whatever is there: a
//! missing piece becomes [`ExprKind::Missing`] or an empty name (the parser
//! has already reported it), and nodes inside `ERROR` are skipped. Spans
//! inside a template are made relative to the template's start.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::hir::*;
use zeno_base::diagnostics::Diagnostic;
use zeno_ir::{LocationKind, Span, SyncDir};
use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// Parses a text and lowers it to its item tree, with the syntax diagnostics.
pub fn lower_file(text: &str) -> (ItemTree, Vec<Diagnostic>) {
    lower_parse(&zeno_syntax::parse(text))
}

/// The item tree of a text already parsed (the salsa queries lower each
/// chunk's memoised parse, so a chunk is parsed once), with its syntax
/// diagnostics.
pub fn lower_parse(parse: &zeno_syntax::Parse) -> (ItemTree, Vec<Diagnostic>) {
    let root = parse.syntax_node();
    let mut tree = ItemTree::default();
    let mut diags = parse.errors().to_vec();
    let top = Lowerer::new(0);
    for item in root.children() {
        match item.kind() {
            VAR_DECL => top.var_decl(&item, &mut tree.globals),
            TYPEDEF_DECL => tree.globals.push(Decl::Typedef(top.typedef(&item))),
            FUNCTION => tree
                .globals
                .push(Decl::Function(Arc::new(top.function(&item)))),
            TEMPLATE => {
                let offset = u32::from(item.text_range().start());
                let l = Lowerer::new(offset);
                tree.templates.push(TemplateItem {
                    data: Arc::new(l.template(&item)),
                    offset,
                });
                diags.extend(l.diags.into_inner());
            }
            INSTANCE => tree.instances.push(top.instance(&item)),
            SYSTEM => {
                // The level continues across `system` lines (one line is usual).
                let base = tree.system_levels.last().copied().unwrap_or(0);
                tree.system_span.get_or_insert(top.span(&item));
                if let Some(sys) = ast::System::cast(item.clone()) {
                    for (r, level) in sys.leveled_entries() {
                        tree.system.push(top.name(r.syntax()));
                        tree.system_levels.push(base + level);
                    }
                }
            }
            SYNC_VECTOR => tree.vectors.push(top.vector(&item)),
            PRIORITY_DECL => tree.priorities.push(top.priority(&item)),
            CHECK => {
                if let Some(c) = top.check(&item) {
                    tree.checks.push(c);
                }
            }
            _ => {}
        }
    }
    diags.extend(top.diags.into_inner());
    (tree, diags)
}

fn is_expr(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        LITERAL
            | NAME_REF
            | PAREN_EXPR
            | PREFIX_EXPR
            | BIN_EXPR
            | COND_EXPR
            | INDEX_EXPR
            | FIELD_EXPR
            | CALL_EXPR
            | POSTFIX_EXPR
            | ASSIGN_EXPR
            | QUANT_EXPR
    )
}

/// Whether a node of this kind is a statement of a function body.
fn is_stmt(kind: SyntaxKind) -> bool {
    <zeno_syntax::ast::Stmt as zeno_syntax::ast::AstNode>::can_cast(kind)
}

fn is_type(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        INT_TYPE | BOOL_TYPE | CLOCK_TYPE | CHAN_TYPE | NAMED_TYPE | STRUCT_TYPE | SCALAR_TYPE
    )
}

fn child(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxNode> {
    node.children().find(|c| c.kind() == kind)
}

fn exprs(node: &SyntaxNode) -> impl Iterator<Item = SyntaxNode> {
    node.children().filter(|c| is_expr(c.kind()))
}

fn tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
}

fn has_token(node: &SyntaxNode, kind: SyntaxKind) -> bool {
    tokens(node).any(|t| t.kind() == kind)
}

struct Lowerer {
    /// Subtracted from absolute positions (the template's start).
    offset: u32,
    /// Problems found while reading the tree (nesting too deep).
    diags: RefCell<Vec<Diagnostic>>,
    /// Current expression nesting, and whether too deep was reported.
    depth: Cell<u32>,
    too_deep: Cell<bool>,
}

/// How deeply expressions may nest in the HIR. Every later pass recurses
/// over expressions, so this bounds their stack use; the parser allows far
/// deeper trees.
pub const MAX_EXPR_DEPTH: u32 = 200;

impl Lowerer {
    fn new(offset: u32) -> Lowerer {
        Lowerer {
            offset,
            diags: RefCell::new(Vec::new()),
            depth: Cell::new(0),
            too_deep: Cell::new(false),
        }
    }

    fn error_at(&self, node: &SyntaxNode, message: &str) {
        let r = node.text_range();
        self.diags.borrow_mut().push(Diagnostic::error(
            Span::new(u32::from(r.start()), u32::from(r.end())),
            message,
        ));
    }

    /// The `ARRAY_SIZE` children: the dimensions, outermost first.
    fn array_sizes(&self, node: &SyntaxNode) -> Vec<Expr> {
        node.children()
            .filter(|c| c.kind() == ARRAY_SIZE)
            .map(|size| self.opt_expr(exprs(&size).next(), &size))
            .collect()
    }

    /// An initial value: an expression or a `{ … }` list (nested lists
    /// for arrays of arrays and records).
    fn init(&self, node: &SyntaxNode) -> Expr {
        if node.kind() != ARRAY_INIT {
            return self.expr(node);
        }
        // Lists nest no deeper than the parser allows, which is within
        // the expression depth every later pass is built for.
        let elements = node
            .children()
            .filter(|c| c.kind() == ARRAY_INIT || is_expr(c.kind()))
            .map(|c| self.init(&c))
            .collect();
        Expr::new(ExprKind::List(elements), self.span(node))
    }

    fn span(&self, node: &SyntaxNode) -> Span {
        let r = node.text_range();
        Span::new(
            u32::from(r.start()) - self.offset,
            u32::from(r.end()) - self.offset,
        )
    }

    fn token_span(&self, token: &SyntaxToken) -> Span {
        let r = token.text_range();
        Span::new(
            u32::from(r.start()) - self.offset,
            u32::from(r.end()) - self.offset,
        )
    }

    /// A `NAME` or `NAME_REF` node.
    fn name(&self, node: &SyntaxNode) -> Name {
        let text = tokens(node)
            .find(|t| t.kind() == IDENT)
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        Name::new(text, self.span(node))
    }

    /// The `NAME` child, or an empty name at the node's start when missing.
    fn name_child(&self, node: &SyntaxNode) -> Name {
        match child(node, NAME) {
            Some(n) => self.name(&n),
            None => {
                let s = self.span(node);
                Name::new("", Span::new(s.start, s.start))
            }
        }
    }

    fn missing(&self, node: &SyntaxNode) -> Expr {
        let s = self.span(node);
        Expr::new(ExprKind::Missing, Span::new(s.end, s.end))
    }

    fn opt_expr(&self, node: Option<SyntaxNode>, parent: &SyntaxNode) -> Expr {
        match node {
            Some(n) => self.expr(&n),
            None => self.missing(parent),
        }
    }

    // ---- declarations ----

    fn var_decl(&self, node: &SyntaxNode, out: &mut Vec<Decl>) {
        let is_const = has_token(node, CONST_KW);
        let Some(ty) = node.children().find(|c| is_type(c.kind())) else {
            return;
        };
        let ty = self.ty(&ty);
        for d in node.children().filter(|c| c.kind() == VAR_DECLARATOR) {
            let array = self.array_sizes(&d);
            let init = d
                .children()
                .find(|c| c.kind() == ARRAY_INIT || is_expr(c.kind()))
                .map(|e| self.init(&e));
            out.push(Decl::Var(VarDecl {
                is_const,
                ty: ty.clone(),
                name: self.name_child(&d),
                array,
                init,
                span: self.span(&d),
            }));
        }
    }

    /// The type child of `node`; plain `int` at the node where the text
    /// has none (a half-written model), so lowering goes on.
    fn ty_child(&self, node: &SyntaxNode) -> TypeRef {
        match node.children().find(|c| is_type(c.kind())) {
            Some(t) => self.ty(&t),
            None => TypeRef::Int {
                range: None,
                span: self.span(node),
            },
        }
    }

    fn typedef(&self, node: &SyntaxNode) -> Typedef {
        let ty = self.ty_child(node);
        Typedef {
            ty,
            name: self.name_child(node),
            array: self.array_sizes(node),
            span: self.span(node),
        }
    }

    fn ty(&self, node: &SyntaxNode) -> TypeRef {
        let span = self.span(node);
        match node.kind() {
            INT_TYPE => TypeRef::Int {
                range: child(node, RANGE).map(|r| {
                    let mut es = exprs(&r);
                    let lo = self.opt_expr(es.next(), &r);
                    let hi = self.opt_expr(es.next(), &r);
                    Box::new((lo, hi))
                }),
                span,
            },
            BOOL_TYPE => TypeRef::Bool { span },
            SCALAR_TYPE => {
                let size = match child(node, ARRAY_SIZE) {
                    Some(s) => self.opt_expr(exprs(&s).next(), &s),
                    None => self.missing(node),
                };
                TypeRef::Scalar {
                    size: Box::new(size),
                    span,
                }
            }
            STRUCT_TYPE => {
                let mut decls = Vec::new();
                for field in node.children().filter(|c| c.kind() == VAR_DECL) {
                    self.var_decl(&field, &mut decls);
                }
                let fields = decls
                    .into_iter()
                    .filter_map(|d| match d {
                        Decl::Var(v) => Some(v),
                        Decl::Typedef(_) | Decl::Function(_) => None,
                    })
                    .collect();
                TypeRef::Struct { fields, span }
            }
            CLOCK_TYPE => TypeRef::Clock { span },
            CHAN_TYPE => TypeRef::Chan {
                urgent: has_token(node, URGENT_KW),
                broadcast: has_token(node, BROADCAST_KW),
                span,
            },
            _ => match child(node, NAME_REF) {
                Some(n) => TypeRef::Named(self.name(&n)),
                None => TypeRef::Int { range: None, span },
            },
        }
    }

    // ---- templates ----

    fn template(&self, node: &SyntaxNode) -> Template {
        let params = self.params(node);
        let mut t = Template {
            name: self.name_child(node),
            params,
            decls: Vec::new(),
            locations: Vec::new(),
            edges: Vec::new(),
            span: self.span(node),
        };
        if let Some(body) = child(node, TEMPLATE_BODY) {
            for item in body.children() {
                match item.kind() {
                    VAR_DECL => self.var_decl(&item, &mut t.decls),
                    TYPEDEF_DECL => t.decls.push(Decl::Typedef(self.typedef(&item))),
                    FUNCTION => t.decls.push(Decl::Function(Arc::new(self.function(&item)))),
                    LOCATION => t.locations.push(self.location(&item)),
                    EDGE => t.edges.push(self.edge(&item)),
                    _ => {}
                }
            }
        }
        t
    }

    // ---- functions ----

    fn function(&self, node: &SyntaxNode) -> Function {
        let ret = if has_token(node, VOID_KW) {
            None
        } else {
            Some(self.ty_child(node))
        };
        let params = self.params(node);
        let (body, end) = match child(node, BLOCK) {
            Some(b) => {
                let span = self.span(&b);
                (
                    self.block(&b),
                    Span::new(span.end.saturating_sub(1), span.end),
                )
            }
            None => {
                let span = self.span(node);
                (Vec::new(), Span::new(span.end, span.end))
            }
        };
        Function {
            name: self.name_child(node),
            ret,
            params,
            body,
            end,
            span: self.span(node),
        }
    }

    fn block(&self, node: &SyntaxNode) -> Vec<Stmt> {
        let mut out = Vec::new();
        for c in node.children() {
            self.statement_into(&c, &mut out);
        }
        out
    }

    /// Lowers a statement node (a declaration may declare several
    /// variables, hence `out`).
    fn statement_into(&self, node: &SyntaxNode, out: &mut Vec<Stmt>) {
        let span = self.span(node);
        let kind = match node.kind() {
            VAR_DECL => {
                let mut decls = Vec::new();
                self.var_decl(node, &mut decls);
                out.extend(decls.into_iter().map(|d| Stmt {
                    span,
                    kind: StmtKind::Decl(d),
                }));
                return;
            }
            FUNCTION => {
                self.error_at(node, "functions cannot be declared inside functions");
                return;
            }
            TYPEDEF_DECL => StmtKind::Decl(Decl::Typedef(self.typedef(node))),
            BLOCK => StmtKind::Block(self.block(node)),
            EXPR_STMT => match exprs(node).next() {
                Some(e) => StmtKind::Expr(self.expr(&e)),
                None => StmtKind::Empty,
            },
            IF_STMT => {
                let cond = self.opt_expr(exprs(node).next(), node);
                let then = self.sub_statement(node.children().find(|c| is_stmt(c.kind())), node);
                let els = child(node, ELSE_BRANCH).map(|e| {
                    Box::new(self.sub_statement(e.children().find(|c| is_stmt(c.kind())), &e))
                });
                StmtKind::If(cond, Box::new(then), els)
            }
            WHILE_STMT => {
                let cond = self.opt_expr(exprs(node).next(), node);
                let body = self.sub_statement(node.children().find(|c| is_stmt(c.kind())), node);
                StmtKind::While(cond, Box::new(body))
            }
            DO_STMT => {
                let body = self.sub_statement(node.children().find(|c| is_stmt(c.kind())), node);
                let cond = self.opt_expr(exprs(node).next(), node);
                StmtKind::DoWhile(Box::new(body), cond)
            }
            FOR_STMT => {
                let part = |kind| -> Vec<Expr> {
                    child(node, kind)
                        .map(|p| exprs(&p).map(|e| self.expr(&e)).collect())
                        .unwrap_or_default()
                };
                let body = self.sub_statement(node.children().find(|c| is_stmt(c.kind())), node);
                StmtKind::For {
                    init: part(FOR_INIT),
                    cond: part(FOR_COND).into_iter().next(),
                    step: part(FOR_STEP),
                    body: Box::new(body),
                }
            }
            FOR_RANGE_STMT => {
                let ty = self.ty_child(node);
                let body = self.sub_statement(node.children().find(|c| is_stmt(c.kind())), node);
                StmtKind::ForRange {
                    name: self.name_child(node),
                    ty,
                    body: Box::new(body),
                }
            }
            RETURN_STMT => StmtKind::Return(exprs(node).next().map(|e| self.expr(&e))),
            EMPTY_STMT => StmtKind::Empty,
            _ => return,
        };
        out.push(Stmt { kind, span });
    }

    /// The single statement of an `if`/`while`/`for` body; a declaration
    /// there becomes a block of its own.
    fn sub_statement(&self, node: Option<SyntaxNode>, parent: &SyntaxNode) -> Stmt {
        let Some(node) = node else {
            let s = self.span(parent);
            return Stmt {
                kind: StmtKind::Empty,
                span: Span::new(s.end, s.end),
            };
        };
        let mut out = Vec::new();
        self.statement_into(&node, &mut out);
        if out.len() == 1 && !matches!(out[0].kind, StmtKind::Decl(_)) {
            return out.remove(0);
        }
        Stmt {
            kind: StmtKind::Block(out),
            span: self.span(&node),
        }
    }

    /// The parameters in the parameter list of `node`, if any.
    fn params(&self, node: &SyntaxNode) -> Vec<Param> {
        child(node, PARAM_LIST)
            .map(|pl| {
                pl.children()
                    .filter(|c| c.kind() == PARAM)
                    .map(|p| self.param(&p))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn param(&self, node: &SyntaxNode) -> Param {
        let ty = self.ty_child(node);
        Param {
            is_const: has_token(node, CONST_KW),
            is_ref: has_token(node, AMP),
            array: self.array_sizes(node),
            ty,
            name: self.name_child(node),
            span: self.span(node),
        }
    }

    fn location(&self, node: &SyntaxNode) -> Location {
        let kind = if has_token(node, COMMITTED_KW) {
            LocationKind::Committed
        } else if has_token(node, URGENT_KW) {
            LocationKind::Urgent
        } else {
            LocationKind::Normal
        };
        Location {
            name: self.name_child(node),
            init: has_token(node, INIT_KW),
            kind,
            invariant: child(node, INVARIANT).map(|i| self.opt_expr(exprs(&i).next(), &i)),
            span: self.span(node),
        }
    }

    fn edge(&self, node: &SyntaxNode) -> Edge {
        let mut ends = node.children().filter(|c| c.kind() == NAME_REF);
        let source = ends.next().map(|n| self.name(&n));
        let target = ends.next().map(|n| self.name(&n));
        let empty = || {
            let s = self.span(node);
            Name::new("", Span::new(s.start, s.start))
        };
        let selects = child(node, SELECT_CLAUSE)
            .map(|sc| {
                sc.children()
                    .filter(|c| c.kind() == SELECT_BINDING)
                    .map(|b| Select {
                        name: self.name_child(&b),
                        ty: self.ty_child(&b),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let guard = child(node, GUARD).map(|g| self.opt_expr(exprs(&g).next(), &g));
        let sync_node = child(node, SYNC);
        let is_label = |s: &SyntaxNode| !has_token(s, QUESTION) && !has_token(s, BANG);
        let label =
            sync_node
                .as_ref()
                .filter(|s| is_label(s))
                .and_then(|s| match exprs(s).next() {
                    Some(e) if e.kind() == NAME_REF => Some(self.name(&e)),
                    Some(e) => {
                        self.error_at(
                            &e,
                            "an action label is a plain name; \
                         a channel synchronisation needs `!` or `?`",
                        );
                        None
                    }
                    None => None,
                });
        let sync = sync_node.filter(|s| !is_label(s)).map(|s| SyncHir {
            channel: self.opt_expr(exprs(&s).next(), &s),
            dir: if has_token(&s, QUESTION) {
                SyncDir::Receive
            } else {
                SyncDir::Send
            },
            span: self.span(&s),
        });
        let updates = child(node, UPDATE)
            .map(|u| exprs(&u).map(|e| self.expr(&e)).collect())
            .unwrap_or_default();
        Edge {
            source: source.unwrap_or_else(empty),
            target: target.unwrap_or_else(empty),
            selects,
            guard,
            sync,
            label,
            updates,
            span: self.span(node),
        }
    }

    /// `sync P.a, Q(1).b?;`
    fn vector(&self, node: &SyntaxNode) -> VectorDecl {
        let mut participants = Vec::new();
        for part in node.children().filter(|c| c.kind() == SYNC_PARTICIPANT) {
            let Some(e) = exprs(&part).next() else {
                continue; // the parser reported it
            };
            let weak = has_token(&part, QUESTION);
            match self.expr(&e).kind {
                ExprKind::Field(process, label) => participants.push(ParticipantDecl {
                    process: *process,
                    label,
                    weak,
                    span: self.span(&part),
                }),
                _ => self.error_at(
                    &e,
                    "expected a participant `Process.label` (e.g. `Bus.cd` or `Station(1).cd`)",
                ),
            }
        }
        VectorDecl {
            participants,
            span: self.span(node),
        }
    }

    /// `priority a, d[0] < default < b;`
    fn priority(&self, node: &SyntaxNode) -> PriorityDecl {
        let entries = ast::PriorityDecl::cast(node.clone())
            .map(|d| d.entries())
            .unwrap_or_default()
            .into_iter()
            .map(|(e, level)| {
                let e = match e {
                    ast::PriorityEntry::Default(t) => {
                        let r = t.text_range();
                        PriorityEntry::Default(Span::new(
                            u32::from(r.start()) - self.offset,
                            u32::from(r.end()) - self.offset,
                        ))
                    }
                    ast::PriorityEntry::Channel(e) => PriorityEntry::Channel(self.expr(e.syntax())),
                };
                (e, level)
            })
            .collect();
        PriorityDecl {
            entries,
            span: self.span(node),
        }
    }

    // ---- system line and checks ----

    fn instance(&self, node: &SyntaxNode) -> InstanceDecl {
        InstanceDecl {
            name: self.name_child(node),
            params: self.params(node),
            template: child(node, NAME_REF)
                .map(|n| self.name(&n))
                .unwrap_or_else(|| self.name_child(node)),
            args: child(node, ARG_LIST)
                .map(|a| exprs(&a).map(|e| self.expr(&e)).collect())
                .unwrap_or_default(),
            span: self.span(node),
        }
    }

    fn check(&self, node: &SyntaxNode) -> Option<CheckDecl> {
        let quantifier = tokens(node).find_map(|t| match t.kind() {
            A_BOX => Some(Quantifier::Always),
            E_DIAMOND => Some(Quantifier::Eventually),
            A_DIAMOND => Some(Quantifier::Inevitably),
            E_BOX => Some(Quantifier::Potentially),
            LEADS_TO => Some(Quantifier::LeadsTo),
            _ => None,
        });
        let span = self.span(node);
        let name = match child(node, NAME) {
            Some(n) => self.name(&n),
            // Unnamed checks are numbered when the network is built.
            None => Name::new("", span),
        };
        // `sup{pred}: e, …`: the word is the check's one identifier token
        // of its own (a name sits in its `NAME` node).
        let extremum = tokens(node)
            .find(|t| t.kind() == IDENT)
            .and_then(|t| match t.text() {
                "sup" => Some((Quantifier::Sup, t)),
                "inf" => Some((Quantifier::Inf, t)),
                _ => None,
            });
        if let Some((quantifier, word)) = extremum {
            let formula = match child(node, BOUND_PREDICATE) {
                Some(pred) => self.opt_expr(exprs(&pred).next(), &pred),
                None => Expr::new(ExprKind::Bool(true), self.token_span(&word)),
            };
            return Some(CheckDecl {
                name,
                quantifier,
                formula,
                target: None,
                terms: exprs(node).map(|e| self.expr(&e)).collect(),
                span,
            });
        }
        let quantifier = quantifier?;
        let mut formulas = exprs(node);
        let formula = self.opt_expr(formulas.next(), node);
        let target =
            (quantifier == Quantifier::LeadsTo).then(|| self.opt_expr(formulas.next(), node));
        Some(CheckDecl {
            name,
            quantifier,
            formula,
            target,
            terms: Vec::new(),
            span,
        })
    }

    // ---- expressions ----

    fn expr(&self, node: &SyntaxNode) -> Expr {
        if self.depth.get() >= MAX_EXPR_DEPTH {
            if !self.too_deep.replace(true) {
                let r = node.text_range();
                self.diags.borrow_mut().push(Diagnostic::error(
                    Span::new(u32::from(r.start()), u32::from(r.end())),
                    format!("expression nested more than {MAX_EXPR_DEPTH} levels deep"),
                ));
            }
            return Expr::new(ExprKind::Missing, self.span(node));
        }
        self.depth.set(self.depth.get() + 1);
        let e = self.expr_inner(node);
        self.depth.set(self.depth.get() - 1);
        e
    }

    fn expr_inner(&self, node: &SyntaxNode) -> Expr {
        let span = self.span(node);
        let sub = |i: usize| self.opt_expr(exprs(node).nth(i), node);
        let op_token = || tokens(node).next().map(|t| t.kind());
        let kind = match node.kind() {
            LITERAL => match tokens(node).next() {
                Some(t) if t.kind() == INT_NUMBER => match t.text().parse::<i64>() {
                    Ok(v) => ExprKind::Int(v),
                    // Too long for i64: still reported as "too large".
                    Err(_) => ExprKind::Int(i64::MAX),
                },
                Some(t) if t.kind() == TRUE_KW => ExprKind::Bool(true),
                Some(t) if t.kind() == FALSE_KW => ExprKind::Bool(false),
                Some(t) if t.kind() == DEADLOCK_KW => ExprKind::Deadlock,
                _ => ExprKind::Missing,
            },
            NAME_REF => ExprKind::Name(self.name(node).text),
            PAREN_EXPR => return self.opt_expr(exprs(node).next(), node),
            PREFIX_EXPR => {
                let op = match op_token() {
                    Some(MINUS) => UnaryOp::Neg,
                    Some(PLUS) => UnaryOp::Plus,
                    Some(TILDE) => UnaryOp::BitNot,
                    Some(kind @ (PLUS2 | MINUS2)) => {
                        let op_span = tokens(node)
                            .next()
                            .map(|t| {
                                let r = t.text_range();
                                Span::new(
                                    u32::from(r.start()) - self.offset,
                                    u32::from(r.end()) - self.offset,
                                )
                            })
                            .unwrap_or(span);
                        let op = if kind == PLUS2 {
                            AssignOp::Add
                        } else {
                            AssignOp::Sub
                        };
                        let one = Expr::new(ExprKind::Int(1), op_span);
                        return Expr::new(
                            ExprKind::Assign(op, Box::new(sub(0)), Box::new(one)),
                            span,
                        );
                    }
                    _ => UnaryOp::Not,
                };
                ExprKind::Unary(op, Box::new(sub(0)))
            }
            BIN_EXPR => {
                let op = tokens(node)
                    .next()
                    .and_then(|t| zeno_syntax::ast::bin_op(t.kind()));
                let Some(op) = op else {
                    return Expr::new(ExprKind::Missing, span);
                };
                ExprKind::Binary(op, Box::new(sub(0)), Box::new(sub(1)))
            }
            COND_EXPR => ExprKind::Cond(Box::new(sub(0)), Box::new(sub(1)), Box::new(sub(2))),
            INDEX_EXPR => ExprKind::Index(Box::new(sub(0)), Box::new(sub(1))),
            FIELD_EXPR => {
                let base = sub(0);
                let field = node
                    .children()
                    .filter(|c| c.kind() == NAME_REF)
                    .last()
                    .filter(|_| exprs(node).count() >= 2)
                    .map(|n| self.name(&n))
                    .unwrap_or_else(|| Name::new("", Span::new(span.end, span.end)));
                ExprKind::Field(Box::new(base), field)
            }
            CALL_EXPR => {
                let callee = exprs(node).next();
                let args = child(node, ARG_LIST)
                    .map(|a| exprs(&a).map(|e| self.expr(&e)).collect())
                    .unwrap_or_default();
                match callee {
                    Some(c) if c.kind() == NAME_REF => ExprKind::Call(self.name(&c), args),
                    // `P(1).f()`: the field expression names the process and
                    // the function.
                    Some(c) if c.kind() == FIELD_EXPR => match self.expr(&c).kind {
                        ExprKind::Field(process, function) if !function.text.is_empty() => {
                            ExprKind::ProcessCall(process, function, args)
                        }
                        // `P.` with the name missing: the parser reported it.
                        _ => ExprKind::Missing,
                    },
                    Some(c) => {
                        // `a[0]()`, `(f)()`: nothing to call, and never read as
                        // a value silently.
                        // Located in the chunk, as the parser's errors.
                        let r = c.text_range();
                        self.diags.borrow_mut().push(Diagnostic::error(
                            Span::new(u32::from(r.start()), u32::from(r.end())),
                            "only a function, or a process's function (`P(1).f()`), can be called",
                        ));
                        ExprKind::Missing
                    }
                    None => ExprKind::Missing,
                }
            }
            POSTFIX_EXPR if tokens(node).any(|t| t.kind() == PRIME) => {
                ExprKind::Rate(Box::new(sub(0)))
            }
            POSTFIX_EXPR => {
                let up = tokens(node).any(|t| t.kind() == PLUS2);
                ExprKind::Incr(Box::new(sub(0)), up)
            }
            ASSIGN_EXPR => {
                let op = tokens(node)
                    .next()
                    .and_then(|t| AssignOp::from_token(t.kind()))
                    .unwrap_or(AssignOp::Assign);
                ExprKind::Assign(op, Box::new(sub(0)), Box::new(sub(1)))
            }
            QUANT_EXPR => {
                let kind = match op_token() {
                    Some(EXISTS_KW) => QuantKind::Exists,
                    Some(SUM_KW) => QuantKind::Sum,
                    _ => QuantKind::Forall,
                };
                let name = self.name_child(node);
                let ty = self.ty_child(node);
                ExprKind::Quant(kind, name, ty, Box::new(sub(0)))
            }
            _ => ExprKind::Missing,
        };
        Expr::new(kind, span)
    }
}

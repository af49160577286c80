//! Syntax tree → HIR.
//!
//! Reads the lossless tree through its typed views (`zeno_syntax::ast`)
//! and keeps whatever is there: a missing piece becomes
//! [`ExprKind::Missing`] or an empty name (the parser has already reported
//! it), and nodes inside `ERROR` are skipped. Spans inside a template are
//! made relative to the template's start.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::hir::*;
use zeno_base::diagnostics::Diagnostic;
use zeno_ir::{LocationKind, Span, SyncDir};
use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxNode, SyntaxToken};

/// Parses a text and lowers it to its item tree, with the syntax diagnostics.
pub fn lower_file(text: &str) -> (ItemTree, Vec<Diagnostic>) {
    lower_parse(&zeno_syntax::parse(text))
}

/// The item tree of a text already parsed (the salsa queries lower each
/// chunk's memoised parse, so a chunk is parsed once), with its syntax
/// diagnostics.
pub fn lower_parse(parse: &zeno_syntax::Parse) -> (ItemTree, Vec<Diagnostic>) {
    let mut tree = ItemTree::default();
    let mut diags = parse.errors().to_vec();
    let top = Lowerer::new(0);
    let items = ast::SourceFile::cast(parse.syntax_node()).into_iter();
    for item in items.flat_map(|file| file.items()) {
        match item {
            ast::Item::VarDecl(v) => top.var_decl(&v, &mut tree.globals),
            ast::Item::TypedefDecl(t) => tree.globals.push(Decl::Typedef(top.typedef(&t))),
            ast::Item::Function(f) => tree
                .globals
                .push(Decl::Function(Arc::new(top.function(&f)))),
            ast::Item::Template(t) => {
                let offset = u32::from(t.syntax().text_range().start());
                let l = Lowerer::new(offset);
                tree.templates.push(TemplateItem {
                    data: Arc::new(l.template(&t)),
                    offset,
                });
                diags.extend(l.diags.into_inner());
            }
            ast::Item::Instance(i) => tree.instances.push(top.instance(&i)),
            ast::Item::System(sys) => {
                // The level continues across `system` lines (one line is usual).
                let base = tree.system_levels.last().copied().unwrap_or(0);
                tree.system_span.get_or_insert(top.span(sys.syntax()));
                for (r, level) in sys.leveled_entries() {
                    tree.system.push(top.name_ref(&r));
                    tree.system_levels.push(base + level);
                }
            }
            ast::Item::SyncVector(v) => tree.vectors.push(top.vector(&v)),
            ast::Item::PriorityDecl(p) => tree.priorities.push(top.priority(&p)),
            ast::Item::Check(c) => {
                if let Some(c) = top.check(&c) {
                    tree.checks.push(c);
                }
            }
            // Locations and edges outside a template: the parser reported them.
            ast::Item::Location(_) | ast::Item::Edge(_) => {}
        }
    }
    diags.extend(top.diags.into_inner());
    (tree, diags)
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

    /// An error located in the chunk, as the parser's are.
    fn error_at(&self, node: &SyntaxNode, message: impl Into<String>) {
        let r = node.text_range();
        self.diags.borrow_mut().push(Diagnostic::error(
            Span::new(u32::from(r.start()), u32::from(r.end())),
            message,
        ));
    }

    /// The dimensions, outermost first.
    fn array_sizes(&self, sizes: impl Iterator<Item = ast::ArraySize>) -> Vec<Expr> {
        sizes.map(|size| self.size(&size)).collect()
    }

    fn size(&self, size: &ast::ArraySize) -> Expr {
        self.opt_expr(size.expr(), size.syntax())
    }

    /// An initial value: an expression or a `{ … }` list (nested lists
    /// for arrays of arrays and records).
    fn init(&self, e: &ast::Expr) -> Expr {
        let ast::Expr::ArrayInit(list) = e else {
            return self.expr(e);
        };
        // Lists nest no deeper than the parser allows, which is within
        // the expression depth every later pass is built for.
        let elements = list.elements().map(|c| self.init(&c)).collect();
        Expr::new(ExprKind::List(elements), self.span(list.syntax()))
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

    fn name_ref(&self, n: &ast::NameRef) -> Name {
        Name::new(n.text(), self.span(n.syntax()))
    }

    /// A defined name, or an empty name at `parent`'s start when missing.
    fn name_or_empty(&self, name: Option<ast::Name>, parent: &SyntaxNode) -> Name {
        match name {
            Some(n) => Name::new(n.text(), self.span(n.syntax())),
            None => self.empty_name(parent),
        }
    }

    fn empty_name(&self, node: &SyntaxNode) -> Name {
        let s = self.span(node);
        Name::new("", Span::new(s.start, s.start))
    }

    fn missing(&self, node: &SyntaxNode) -> Expr {
        let s = self.span(node);
        Expr::new(ExprKind::Missing, Span::new(s.end, s.end))
    }

    fn opt_expr(&self, e: Option<ast::Expr>, parent: &SyntaxNode) -> Expr {
        match e {
            Some(e) => self.expr(&e),
            None => self.missing(parent),
        }
    }

    fn exprs(&self, es: impl Iterator<Item = ast::Expr>) -> Vec<Expr> {
        es.map(|e| self.expr(&e)).collect()
    }

    // ---- declarations ----

    fn var_decl(&self, v: &ast::VarDecl, out: &mut Vec<Decl>) {
        let is_const = v.is_const();
        let Some(ty) = v.ty() else {
            return;
        };
        let ty = self.ty(&ty);
        for d in v.declarators() {
            out.push(Decl::Var(VarDecl {
                is_const,
                ty: ty.clone(),
                name: self.name_or_empty(d.name(), d.syntax()),
                array: self.array_sizes(d.array_sizes()),
                init: d.init().map(|e| self.init(&e)),
                span: self.span(d.syntax()),
            }));
        }
    }

    /// The type written, or plain `int` at `node` where the text has none
    /// (a half-written model), so lowering goes on.
    fn ty_or_int(&self, ty: Option<ast::Type>, node: &SyntaxNode) -> TypeRef {
        match ty {
            Some(t) => self.ty(&t),
            None => TypeRef::Int {
                range: None,
                span: self.span(node),
            },
        }
    }

    fn typedef(&self, t: &ast::TypedefDecl) -> Typedef {
        Typedef {
            ty: self.ty_or_int(t.ty(), t.syntax()),
            name: self.name_or_empty(t.name(), t.syntax()),
            array: self.array_sizes(t.array_sizes()),
            span: self.span(t.syntax()),
        }
    }

    fn ty(&self, ty: &ast::Type) -> TypeRef {
        let span = self.span(ty.syntax());
        match ty {
            ast::Type::IntType(t) => TypeRef::Int {
                range: t.range().map(|r| {
                    let lo = self.opt_expr(r.lo(), r.syntax());
                    let hi = self.opt_expr(r.hi(), r.syntax());
                    Box::new((lo, hi))
                }),
                span,
            },
            ast::Type::BoolType(_) => TypeRef::Bool { span },
            ast::Type::ScalarType(t) => {
                let size = match t.size() {
                    Some(s) => self.size(&s),
                    None => self.missing(t.syntax()),
                };
                TypeRef::Scalar {
                    size: Box::new(size),
                    span,
                }
            }
            ast::Type::StructType(t) => {
                let mut decls = Vec::new();
                for field in t.fields() {
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
            ast::Type::ClockType(_) => TypeRef::Clock { span },
            ast::Type::ChanType(t) => TypeRef::Chan {
                urgent: t.is_urgent(),
                broadcast: t.is_broadcast(),
                span,
            },
            ast::Type::NamedType(t) => match t.name_ref() {
                Some(n) => TypeRef::Named(self.name_ref(&n)),
                None => TypeRef::Int { range: None, span },
            },
        }
    }

    // ---- templates ----

    fn template(&self, node: &ast::Template) -> Template {
        let mut t = Template {
            name: self.name_or_empty(node.name(), node.syntax()),
            params: self.params(node.params()),
            decls: Vec::new(),
            locations: Vec::new(),
            edges: Vec::new(),
            span: self.span(node.syntax()),
        };
        for item in node.items() {
            match item {
                ast::Item::VarDecl(v) => self.var_decl(&v, &mut t.decls),
                ast::Item::TypedefDecl(d) => t.decls.push(Decl::Typedef(self.typedef(&d))),
                ast::Item::Function(f) => {
                    t.decls.push(Decl::Function(Arc::new(self.function(&f))));
                }
                ast::Item::Location(l) => t.locations.push(self.location(&l)),
                ast::Item::Edge(e) => t.edges.push(self.edge(&e)),
                // Not template items: the parser reported them.
                ast::Item::Template(_)
                | ast::Item::Instance(_)
                | ast::Item::System(_)
                | ast::Item::SyncVector(_)
                | ast::Item::PriorityDecl(_)
                | ast::Item::Check(_) => {}
            }
        }
        t
    }

    // ---- functions ----

    fn function(&self, f: &ast::Function) -> Function {
        let ret = if f.is_void() {
            None
        } else {
            Some(self.ty_or_int(f.ret_type(), f.syntax()))
        };
        let (body, end) = match f.body() {
            Some(b) => {
                let span = self.span(b.syntax());
                (
                    self.block(&b),
                    Span::new(span.end.saturating_sub(1), span.end),
                )
            }
            None => {
                let span = self.span(f.syntax());
                (Vec::new(), Span::new(span.end, span.end))
            }
        };
        Function {
            name: self.name_or_empty(f.name(), f.syntax()),
            ret,
            params: self.params(f.params()),
            body,
            end,
            span: self.span(f.syntax()),
        }
    }

    fn block(&self, block: &ast::Block) -> Vec<Stmt> {
        let mut out = Vec::new();
        for node in block.syntax().children() {
            if ast::Function::can_cast(node.kind()) {
                self.error_at(&node, "functions cannot be declared inside functions");
            } else if let Some(s) = ast::Stmt::cast(node) {
                self.statement_into(&s, &mut out);
            }
        }
        out
    }

    /// Lowers a statement (a declaration may declare several variables,
    /// hence `out`).
    fn statement_into(&self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        let span = self.span(s.syntax());
        let kind = match s {
            ast::Stmt::VarDecl(v) => {
                let mut decls = Vec::new();
                self.var_decl(v, &mut decls);
                out.extend(decls.into_iter().map(|d| Stmt {
                    span,
                    kind: StmtKind::Decl(d),
                }));
                return;
            }
            ast::Stmt::TypedefDecl(t) => StmtKind::Decl(Decl::Typedef(self.typedef(t))),
            ast::Stmt::Block(b) => StmtKind::Block(self.block(b)),
            ast::Stmt::ExprStmt(e) => match e.expr() {
                Some(e) => StmtKind::Expr(self.expr(&e)),
                None => StmtKind::Empty,
            },
            ast::Stmt::IfStmt(i) => {
                let cond = self.opt_expr(i.condition(), i.syntax());
                let then = self.sub_statement(i.then_branch(), i.syntax());
                let els = i
                    .else_branch()
                    .map(|e| Box::new(self.sub_statement(Some(e), i.syntax())));
                StmtKind::If(cond, Box::new(then), els)
            }
            ast::Stmt::WhileStmt(w) => {
                let cond = self.opt_expr(w.condition(), w.syntax());
                let body = self.sub_statement(w.body(), w.syntax());
                StmtKind::While(cond, Box::new(body))
            }
            ast::Stmt::DoStmt(d) => {
                let body = self.sub_statement(d.body(), d.syntax());
                let cond = self.opt_expr(d.condition(), d.syntax());
                StmtKind::DoWhile(Box::new(body), cond)
            }
            ast::Stmt::ForStmt(f) => StmtKind::For {
                init: self.exprs(f.init().into_iter()),
                cond: f.condition().map(|c| self.expr(&c)),
                step: self.exprs(f.step().into_iter()),
                body: Box::new(self.sub_statement(f.body(), f.syntax())),
            },
            ast::Stmt::ForRangeStmt(f) => {
                let ty = self.ty_or_int(f.ty(), f.syntax());
                let body = self.sub_statement(f.body(), f.syntax());
                StmtKind::ForRange {
                    name: self.name_or_empty(f.name(), f.syntax()),
                    ty,
                    body: Box::new(body),
                }
            }
            ast::Stmt::ReturnStmt(r) => StmtKind::Return(r.expr().map(|e| self.expr(&e))),
            ast::Stmt::EmptyStmt(_) => StmtKind::Empty,
        };
        out.push(Stmt { kind, span });
    }

    /// The single statement of an `if`/`while`/`for` body; a declaration
    /// there becomes a block of its own.
    fn sub_statement(&self, s: Option<ast::Stmt>, parent: &SyntaxNode) -> Stmt {
        let Some(s) = s else {
            let end = self.span(parent).end;
            return Stmt {
                kind: StmtKind::Empty,
                span: Span::new(end, end),
            };
        };
        let mut out = Vec::new();
        self.statement_into(&s, &mut out);
        if out.len() == 1 && !matches!(out[0].kind, StmtKind::Decl(_)) {
            return out.remove(0);
        }
        Stmt {
            kind: StmtKind::Block(out),
            span: self.span(s.syntax()),
        }
    }

    fn params(&self, params: impl Iterator<Item = ast::Param>) -> Vec<Param> {
        params.map(|p| self.param(&p)).collect()
    }

    fn param(&self, p: &ast::Param) -> Param {
        Param {
            is_const: p.is_const(),
            is_ref: p.is_ref(),
            array: self.array_sizes(p.array_sizes()),
            ty: self.ty_or_int(p.ty(), p.syntax()),
            name: self.name_or_empty(p.name(), p.syntax()),
            span: self.span(p.syntax()),
        }
    }

    fn location(&self, l: &ast::Location) -> Location {
        let kind = if l.is_committed() {
            LocationKind::Committed
        } else if l.is_urgent() {
            LocationKind::Urgent
        } else {
            LocationKind::Normal
        };
        Location {
            name: self.name_or_empty(l.name(), l.syntax()),
            init: l.is_init(),
            kind,
            invariant: l.invariant().map(|i| self.opt_expr(i.expr(), i.syntax())),
            span: self.span(l.syntax()),
        }
    }

    fn edge(&self, e: &ast::Edge) -> Edge {
        let end = |n: Option<ast::NameRef>| match n {
            Some(n) => self.name_ref(&n),
            None => self.empty_name(e.syntax()),
        };
        let selects = e
            .select()
            .into_iter()
            .flat_map(|clause| clause.bindings())
            .map(|b| Select {
                name: self.name_or_empty(b.name(), b.syntax()),
                ty: self.ty_or_int(b.ty(), b.syntax()),
            })
            .collect();
        let guard = e.guard().map(|g| self.opt_expr(g.expr(), g.syntax()));
        let (mut sync, mut label) = (None, None);
        if let Some(s) = e.sync() {
            match s.kind() {
                Some(kind) => {
                    sync = Some(SyncHir {
                        channel: self.opt_expr(s.channel(), s.syntax()),
                        dir: match kind {
                            ast::SyncKind::Send => SyncDir::Send,
                            ast::SyncKind::Receive => SyncDir::Receive,
                        },
                        span: self.span(s.syntax()),
                    });
                }
                None => match s.channel() {
                    Some(ast::Expr::NameRef(n)) => label = Some(self.name_ref(&n)),
                    Some(other) => self.error_at(
                        other.syntax(),
                        "an action label is a plain name; \
                         a channel synchronisation needs `!` or `?`",
                    ),
                    None => {}
                },
            }
        }
        let updates = e
            .update()
            .map(|u| self.exprs(u.exprs()))
            .unwrap_or_default();
        Edge {
            source: end(e.source()),
            target: end(e.target()),
            selects,
            guard,
            sync,
            label,
            updates,
            span: self.span(e.syntax()),
        }
    }

    /// `sync P.a, Q(1).b?;`
    fn vector(&self, v: &ast::SyncVector) -> VectorDecl {
        let mut participants = Vec::new();
        for part in v.participants() {
            let Some(e) = part.expr() else {
                continue; // the parser reported it
            };
            match self.expr(&e).kind {
                ExprKind::Field(process, label) => participants.push(ParticipantDecl {
                    process: *process,
                    label,
                    weak: part.is_weak(),
                    span: self.span(part.syntax()),
                }),
                _ => self.error_at(
                    e.syntax(),
                    "expected a participant `Process.label` (e.g. `Bus.cd` or `Station(1).cd`)",
                ),
            }
        }
        VectorDecl {
            participants,
            span: self.span(v.syntax()),
        }
    }

    /// `priority a, d[0] < default < b;`
    fn priority(&self, p: &ast::PriorityDecl) -> PriorityDecl {
        let entries = p
            .entries()
            .into_iter()
            .map(|(e, level)| {
                let e = match e {
                    ast::PriorityEntry::Default(t) => PriorityEntry::Default(self.token_span(&t)),
                    ast::PriorityEntry::Channel(e) => PriorityEntry::Channel(self.expr(&e)),
                };
                (e, level)
            })
            .collect();
        PriorityDecl {
            entries,
            span: self.span(p.syntax()),
        }
    }

    // ---- system line and checks ----

    fn instance(&self, i: &ast::Instance) -> InstanceDecl {
        InstanceDecl {
            name: self.name_or_empty(i.name(), i.syntax()),
            params: self.params(i.params()),
            template: match i.template() {
                Some(n) => self.name_ref(&n),
                None => self.name_or_empty(i.name(), i.syntax()),
            },
            args: self.exprs(i.args()),
            span: self.span(i.syntax()),
        }
    }

    fn check(&self, c: &ast::Check) -> Option<CheckDecl> {
        let span = self.span(c.syntax());
        let name = match c.name() {
            Some(n) => Name::new(n.text(), self.span(n.syntax())),
            // Unnamed checks are numbered when the network is built.
            None => Name::new("", span),
        };
        if let Some(word) = c.extremum_token() {
            let quantifier = if word.text() == "sup" {
                Quantifier::Sup
            } else {
                Quantifier::Inf
            };
            let formula = match c.bound_predicate() {
                Some(pred) => self.opt_expr(pred.expr(), pred.syntax()),
                None => Expr::new(ExprKind::Bool(true), self.token_span(&word)),
            };
            return Some(CheckDecl {
                name,
                quantifier,
                formula,
                target: None,
                terms: self.exprs(c.exprs()),
                span,
            });
        }
        let quantifier = match c.quantifier() {
            Some(ast::PathQuantifier::AlwaysGlobally) => Quantifier::Always,
            Some(ast::PathQuantifier::ExistsEventually) => Quantifier::Eventually,
            Some(ast::PathQuantifier::AlwaysEventually) => Quantifier::Inevitably,
            Some(ast::PathQuantifier::ExistsGlobally) => Quantifier::Potentially,
            None => {
                c.leads_to_token()?;
                Quantifier::LeadsTo
            }
        };
        let mut formulas = c.exprs();
        let formula = self.opt_expr(formulas.next(), c.syntax());
        let target =
            (quantifier == Quantifier::LeadsTo).then(|| self.opt_expr(formulas.next(), c.syntax()));
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

    fn expr(&self, e: &ast::Expr) -> Expr {
        if self.depth.get() >= MAX_EXPR_DEPTH {
            if !self.too_deep.replace(true) {
                self.error_at(
                    e.syntax(),
                    format!("expression nested more than {MAX_EXPR_DEPTH} levels deep"),
                );
            }
            return Expr::new(ExprKind::Missing, self.span(e.syntax()));
        }
        self.depth.set(self.depth.get() + 1);
        let lowered = self.expr_inner(e);
        self.depth.set(self.depth.get() - 1);
        lowered
    }

    fn expr_inner(&self, e: &ast::Expr) -> Expr {
        let node = e.syntax();
        let span = self.span(node);
        let operand = |e: Option<ast::Expr>| Box::new(self.opt_expr(e, node));
        let kind = match e {
            ast::Expr::Literal(l) => match (l.kind(), l.token()) {
                (Some(ast::LiteralKind::Int), Some(t)) => match t.text().parse::<i64>() {
                    Ok(v) => ExprKind::Int(v),
                    // Too long for i64: still reported as "too large".
                    Err(_) => ExprKind::Int(i64::MAX),
                },
                (Some(ast::LiteralKind::True), _) => ExprKind::Bool(true),
                (Some(ast::LiteralKind::False), _) => ExprKind::Bool(false),
                (Some(ast::LiteralKind::Deadlock), _) => ExprKind::Deadlock,
                _ => ExprKind::Missing,
            },
            ast::Expr::NameRef(n) => ExprKind::Name(n.text()),
            ast::Expr::ParenExpr(p) => return self.opt_expr(p.expr(), node),
            ast::Expr::PrefixExpr(p) => {
                let op = match p.op() {
                    Some(ast::PrefixOp::Neg) => UnaryOp::Neg,
                    Some(ast::PrefixOp::Plus) => UnaryOp::Plus,
                    Some(ast::PrefixOp::BitNot) => UnaryOp::BitNot,
                    Some(ast::PrefixOp::Not) => UnaryOp::Not,
                    Some(step @ (ast::PrefixOp::Incr | ast::PrefixOp::Decr)) => {
                        // `++v` is `v += 1`, the `1` spanning the operator.
                        let op_span = p.op_token().map_or(span, |t| self.token_span(&t));
                        let op = if step == ast::PrefixOp::Incr {
                            AssignOp::Add
                        } else {
                            AssignOp::Sub
                        };
                        let one = Expr::new(ExprKind::Int(1), op_span);
                        return Expr::new(
                            ExprKind::Assign(op, operand(p.expr()), Box::new(one)),
                            span,
                        );
                    }
                    None => return Expr::new(ExprKind::Missing, span),
                };
                ExprKind::Unary(op, operand(p.expr()))
            }
            ast::Expr::BinExpr(b) => match b.op() {
                Some(op) => ExprKind::Binary(op, operand(b.lhs()), operand(b.rhs())),
                None => ExprKind::Missing,
            },
            ast::Expr::CondExpr(c) => ExprKind::Cond(
                operand(c.condition()),
                operand(c.then_branch()),
                operand(c.else_branch()),
            ),
            ast::Expr::IndexExpr(i) => ExprKind::Index(operand(i.base()), operand(i.index())),
            ast::Expr::FieldExpr(f) => {
                let field = match f.field() {
                    Some(n) => self.name_ref(&n),
                    None => Name::new("", Span::new(span.end, span.end)),
                };
                ExprKind::Field(operand(f.base()), field)
            }
            ast::Expr::CallExpr(c) => {
                let args = self.exprs(c.args());
                match c.callee() {
                    Some(ast::Expr::NameRef(n)) => ExprKind::Call(self.name_ref(&n), args),
                    // `P(1).f()`: the field expression names the process and
                    // the function.
                    Some(callee @ ast::Expr::FieldExpr(_)) => match self.expr(&callee).kind {
                        ExprKind::Field(process, function) if !function.text.is_empty() => {
                            ExprKind::ProcessCall(process, function, args)
                        }
                        // `P.` with the name missing: the parser reported it.
                        _ => ExprKind::Missing,
                    },
                    Some(callee) => {
                        // `a[0]()`, `(f)()`: nothing to call, and never read as
                        // a value silently.
                        self.error_at(
                            callee.syntax(),
                            "only a function, or a process's function (`P(1).f()`), can be called",
                        );
                        ExprKind::Missing
                    }
                    None => ExprKind::Missing,
                }
            }
            ast::Expr::PostfixExpr(p) => match p.op() {
                Some(ast::PostfixOp::Rate) => ExprKind::Rate(operand(p.expr())),
                Some(ast::PostfixOp::Incr) => ExprKind::Incr(operand(p.expr()), true),
                Some(ast::PostfixOp::Decr) => ExprKind::Incr(operand(p.expr()), false),
                None => ExprKind::Missing,
            },
            ast::Expr::AssignExpr(a) => ExprKind::Assign(
                a.op().unwrap_or(AssignOp::Assign),
                operand(a.lhs()),
                operand(a.rhs()),
            ),
            ast::Expr::QuantExpr(q) => {
                let kind = match q.quantifier() {
                    Some(ast::Quantifier::Exists) => QuantKind::Exists,
                    Some(ast::Quantifier::Sum) => QuantKind::Sum,
                    Some(ast::Quantifier::Forall) | None => QuantKind::Forall,
                };
                ExprKind::Quant(
                    kind,
                    self.name_or_empty(q.name(), node),
                    self.ty_or_int(q.ty(), node),
                    operand(q.body()),
                )
            }
            // Only initial values are lists (`init`).
            ast::Expr::ArrayInit(_) => return self.init(e),
        };
        Expr::new(kind, span)
    }
}

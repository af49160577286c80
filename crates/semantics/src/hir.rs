//! The semantic model of a file before name resolution: the item tree.
//!
//! It mirrors the syntax closely but drops trivia and error nodes, so
//! everything after it works on plain data. Spans inside a [`Template`] are
//! relative to the template's start: a template's HIR does not change when
//! text before it moves, which is what lets its checking be reused by salsa
//! after edits elsewhere. [`TemplateItem::offset`] makes them absolute again.

use std::sync::Arc;

use zeno_ir::{LocationKind, Span, SyncDir};

/// A name together with where it is written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Name {
    /// The name as written.
    pub text: String,
    /// Where it is written.
    pub span: Span,
}

impl Name {
    /// A name with its text and span.
    pub fn new(text: impl Into<String>, span: Span) -> Name {
        Name {
            text: text.into(),
            span,
        }
    }
}

/// A type as written, before typedefs are resolved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// `int` (no range) or `int[lo, hi]`.
    Int {
        /// The bounds `lo` and `hi`; `None` for plain `int`.
        range: Option<Box<(Expr, Expr)>>,
        /// The type as written.
        span: Span,
    },
    /// `bool`.
    Bool {
        /// The type as written.
        span: Span,
    },
    /// `clock`.
    Clock {
        /// The type as written.
        span: Span,
    },
    /// `chan`, with its `urgent` and `broadcast` prefixes.
    Chan {
        /// Whether it is written `urgent chan`.
        urgent: bool,
        /// Whether it is written `broadcast chan`.
        broadcast: bool,
        /// The type as written.
        span: Span,
    },
    /// A typedef name.
    Named(Name),
    /// `scalar[N]`: UPPAAL's scalar set, the integers `0 ..= N - 1` here.
    Scalar {
        /// `N`.
        size: Box<Expr>,
        /// The type as written.
        span: Span,
    },
    /// `struct { … }`: the fields, each declared like a variable.
    Struct {
        /// The fields, in order.
        fields: Vec<VarDecl>,
        /// The type as written.
        span: Span,
    },
}

impl TypeRef {
    /// Where the type is written.
    pub fn span(&self) -> Span {
        match self {
            TypeRef::Int { span, .. }
            | TypeRef::Bool { span }
            | TypeRef::Clock { span }
            | TypeRef::Chan { span, .. }
            | TypeRef::Struct { span, .. }
            | TypeRef::Scalar { span, .. } => *span,
            TypeRef::Named(n) => n.span,
        }
    }
}

/// `[const] T name[size]… = init;`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VarDecl {
    /// Whether it is declared `const`.
    pub is_const: bool,
    /// The element type, without the array dimensions.
    pub ty: TypeRef,
    /// The variable's name.
    pub name: Name,
    /// Array dimensions, outermost first: `int a[2][3]` is `[2, 3]`. A
    /// dimension is a size or the name of a bounded type (`int a[pid_t]`).
    pub array: Vec<Expr>,
    /// The initial value; `{ … }` is an [`ExprKind::List`].
    pub init: Option<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// `typedef T name[size]…;`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Typedef {
    /// The type it names, without the array dimensions.
    pub ty: TypeRef,
    /// The new type name.
    pub name: Name,
    /// Array dimensions, as in [`VarDecl::array`].
    pub array: Vec<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// A declaration: global, in a template, or local to a function body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Decl {
    /// A variable (or constant).
    Var(VarDecl),
    /// A type name.
    Typedef(Typedef),
    /// A function.
    Function(Arc<Function>),
}

impl Decl {
    /// The name it declares.
    pub fn name(&self) -> &Name {
        match self {
            Decl::Var(v) => &v.name,
            Decl::Typedef(t) => &t.name,
            Decl::Function(f) => &f.name,
        }
    }
}

/// `int f(const int a, int &b) { … }`, `void g() { … }`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Function {
    /// The function's name.
    pub name: Name,
    /// The result type; `None` for `void`.
    pub ret: Option<TypeRef>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// The statements of the body.
    pub body: Vec<Stmt>,
    /// The closing `}` of the body: where a missing `return` is reported.
    pub end: Span,
    /// The whole function.
    pub span: Span,
}

/// A statement of a function body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Stmt {
    /// What the statement is.
    pub kind: StmtKind,
    /// The whole statement.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StmtKind {
    /// `{ … }`
    Block(Vec<Stmt>),
    /// A local variable (or typedef), visible to the end of its block.
    Decl(Decl),
    /// `e;`
    Expr(Expr),
    /// `if (cond) then else otherwise`; the `else` branch is optional.
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (cond) body`
    While(Expr, Box<Stmt>),
    /// `do body while (cond);`
    DoWhile(Box<Stmt>, Expr),
    /// C's `for (init; cond; step) body`; a missing condition is `true`.
    For {
        /// The expressions before the first `;`.
        init: Vec<Expr>,
        /// The condition; `None` when left out.
        cond: Option<Expr>,
        /// The expressions after the second `;`.
        step: Vec<Expr>,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `for (i : T) body`
    ForRange {
        /// The loop variable `i`.
        name: Name,
        /// The bounded type `T` it ranges over.
        ty: TypeRef,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `return;` or `return e;`
    Return(Option<Expr>),
    /// `;`
    Empty,
}

/// `const T p` (by value) or `T &p` (by reference).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    /// Whether it is declared `const`.
    pub is_const: bool,
    /// Whether it is passed by reference (`&`).
    pub is_ref: bool,
    /// The element type, without the array dimensions.
    pub ty: TypeRef,
    /// `int &a[N]`: array dimensions, as in [`VarDecl::array`].
    pub array: Vec<Expr>,
    /// The parameter's name.
    pub name: Name,
    /// The whole parameter.
    pub span: Span,
}

/// A location of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The location's name.
    pub name: Name,
    /// Whether it is marked `init`.
    pub init: bool,
    /// Normal, urgent or committed.
    pub kind: LocationKind,
    /// The invariant, if any.
    pub invariant: Option<Expr>,
    /// The whole location.
    pub span: Span,
}

/// `select i : T` on an edge: the edge exists once for each value of `T`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Select {
    /// The bound name `i`.
    pub name: Name,
    /// The bounded type `T`.
    pub ty: TypeRef,
}

/// `sync c!` or `sync c?` on an edge.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyncHir {
    /// A channel name, or an indexed channel array.
    pub channel: Expr,
    /// Send (`!`) or receive (`?`).
    pub dir: SyncDir,
    /// The whole synchronisation.
    pub span: Span,
}

/// An edge of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The location it leaves.
    pub source: Name,
    /// The location it enters.
    pub target: Name,
    /// The `select` bindings, in order.
    pub selects: Vec<Select>,
    /// The guard, if any.
    pub guard: Option<Expr>,
    /// The channel synchronisation, if any.
    pub sync: Option<SyncHir>,
    /// `sync a` without `!`/`?`: an action label for synchronisation vectors.
    pub label: Option<Name>,
    /// Assignment expressions (`Assign`, `Incr`), left to right.
    pub updates: Vec<Expr>,
    /// The whole edge.
    pub span: Span,
}

/// A template, with spans relative to its start.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Template {
    /// The template's name.
    pub name: Name,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// The local declarations, in order.
    pub decls: Vec<Decl>,
    /// The locations, in order.
    pub locations: Vec<Location>,
    /// The edges, in order.
    pub edges: Vec<Edge>,
    /// The whole template.
    pub span: Span,
}

/// A template of the item tree, shared, with where it starts in the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TemplateItem {
    /// The template, with spans relative to `offset`.
    pub data: Arc<Template>,
    /// Absolute offset of the template's start in the file.
    pub offset: u32,
}

/// `P1 = Proc(1);`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstanceDecl {
    /// The instance's name (`P1`).
    pub name: Name,
    /// The parameters a partial instantiation leaves free (`P(const id_t i)
    /// = T(i, 1);`): the instance stands for one process per value.
    pub params: Vec<Param>,
    /// The template it instantiates (`Proc`).
    pub template: Name,
    /// The arguments, in order.
    pub args: Vec<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// The temporal operator of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// `A[] phi`
    Always,
    /// `E<> phi`
    Eventually,
    /// `A<> phi`: every maximal run reaches phi.
    Inevitably,
    /// `E[] phi`: some maximal run keeps phi.
    Potentially,
    /// `p --> q` (the formula is `p`, the target `q`).
    LeadsTo,
    /// `sup{pred}: e, …` (the formula is `pred`, `true` without one; the
    /// expressions are the check's terms).
    Sup,
    /// `inf{pred}: e, …`, as [`Quantifier::Sup`].
    Inf,
}

/// A property to check, declared in the model.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CheckDecl {
    /// The check's name; empty when unnamed (such checks are numbered when
    /// the network is built).
    pub name: Name,
    /// The temporal operator.
    pub quantifier: Quantifier,
    /// `phi`, or `p` in `p --> q`.
    pub formula: Expr,
    /// `q` in `p --> q`; `None` for the other forms.
    pub target: Option<Expr>,
    /// The expressions of `sup`/`inf`; empty for the other forms.
    pub terms: Vec<Expr>,
    /// The whole check.
    pub span: Span,
}

/// Everything a file declares, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ItemTree {
    /// The global declarations.
    pub globals: Vec<Decl>,
    /// The templates.
    pub templates: Vec<TemplateItem>,
    /// The instance declarations (`P1 = Proc(1);`).
    pub instances: Vec<InstanceDecl>,
    /// Every `system` line's entries.
    pub system: Vec<Name>,
    /// The priority level of each entry of `system` (0 unless the line
    /// separates levels with `<`; each `<` starts a higher one).
    pub system_levels: Vec<u32>,
    /// The first `system` line.
    pub system_span: Option<Span>,
    /// The synchronisation vectors (`sync …;`).
    pub vectors: Vec<VectorDecl>,
    /// `priority a < default < b;` declarations (one is allowed).
    pub priorities: Vec<PriorityDecl>,
    /// The checks declared in the model.
    pub checks: Vec<CheckDecl>,
}

/// `priority a, d[0] < default < b;`: channels by level, lowest first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PriorityDecl {
    /// Each entry with its level (0 for the lowest).
    pub entries: Vec<(PriorityEntry, u32)>,
    /// The whole declaration.
    pub span: Span,
}

/// One entry of a `priority` declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PriorityEntry {
    /// `default`, at its span.
    Default(Span),
    /// A channel, or an element of a channel array.
    Channel(Expr),
}

/// `sync Bus.cd, Station(1).cd?;`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VectorDecl {
    /// The participants, in order.
    pub participants: Vec<ParticipantDecl>,
    /// The whole declaration.
    pub span: Span,
}

/// `Station(1).cd?`: `process` is `Station(1)` (a name or a call).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParticipantDecl {
    /// The process, a name or a call.
    pub process: Expr,
    /// The edge label (`cd`).
    pub label: Name,
    /// Whether the process takes part only when it can (`?`).
    pub weak: bool,
    /// The whole participant.
    pub span: Span,
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-e`
    Neg,
    /// `!e` or `not e`
    Not,
    /// `~e`
    BitNot,
    /// `+e`
    Plus,
}

// The infix and assignment operators are the syntax's own; the infix ones
// are also the checker's (`ir::BinOp`): one operator set, in `zeno_base`.
pub use zeno_syntax::ast::{AssignOp, BinOp as BinaryOp};

/// The binders of a quantified expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuantKind {
    /// `forall (i : T) e`
    Forall,
    /// `exists (i : T) e`
    Exists,
    /// `sum (i : T) e`
    Sum,
}

/// An expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// The whole expression.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// Something the parser could not read; already reported as a syntax error.
    Missing,
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A name, not yet resolved.
    Name(String),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `P1.cs`, `Proc(1).x`
    Field(Box<Expr>, Name),
    /// `Proc(1)` (an instance made by `system Proc;`), or `min`/`max` calls.
    Call(Name, Vec<Expr>),
    /// `Proc(1).f(args)`, `P1.f()`: a function of a process's template called
    /// through the process (in checks only): the process, the function and
    /// the arguments.
    ProcessCall(Box<Expr>, Name, Vec<Expr>),
    /// A prefix operator and its operand.
    Unary(UnaryOp, Box<Expr>),
    /// An infix operator and its operands.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `v = e`, `v op= e`; also `++v` and `--v`, which are `v += 1` and
    /// `v -= 1` (the `1` spans the operator), as in C.
    Assign(AssignOp, Box<Expr>, Box<Expr>),
    /// `v++` (true) or `v--` (false).
    Incr(Box<Expr>, bool),
    /// `x'`: a clock's rate (stopwatches), meaningful only in `x' == 0`
    /// or `x' == 1` in a location's invariant.
    Rate(Box<Expr>),
    /// `forall`, `exists` or `sum` over the values of a bounded type: the
    /// binder, the bound name, its type and the body.
    Quant(QuantKind, Name, TypeRef, Box<Expr>),
    /// `deadlock`
    Deadlock,
    /// `{ e, e, … }`: an initialiser of an array or a record (only as an
    /// initial value, possibly nested).
    List(Vec<Expr>),
}

impl Expr {
    /// An expression of the given kind at the given span.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

//! The semantic model of a file before name resolution: the item tree.
//!
//! It mirrors the syntax closely but drops trivia and error nodes, so
//! everything after it works on plain data. Spans inside a [`Template`] are
//! relative to the template's start: a template's HIR does not change when
//! text before it moves, which is what lets its checking be reused by salsa
//! after edits elsewhere. [`TemplateItem::offset`] makes them absolute again.

use std::sync::Arc;

use crate::ir::{LocationKind, Span, SyncDir};

/// A name together with where it is written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

impl Name {
    pub fn new(text: impl Into<String>, span: Span) -> Name {
        Name {
            text: text.into(),
            span,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// `int` (no range) or `int[lo, hi]`.
    Int {
        range: Option<Box<(Expr, Expr)>>,
        span: Span,
    },
    Bool {
        span: Span,
    },
    Clock {
        span: Span,
    },
    Chan {
        urgent: bool,
        broadcast: bool,
        span: Span,
    },
    /// A typedef name.
    Named(Name),
    /// `scalar[N]`: UPPAAL's scalar set, the integers `0 ..= N - 1` here.
    Scalar {
        size: Box<Expr>,
        span: Span,
    },
    /// `struct { … }`: the fields, each declared like a variable.
    Struct {
        fields: Vec<VarDecl>,
        span: Span,
    },
}

impl TypeRef {
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
    pub is_const: bool,
    pub ty: TypeRef,
    pub name: Name,
    /// Array dimensions, outermost first: `int a[2][3]` is `[2, 3]`. A
    /// dimension is a size or the name of a bounded type (`int a[pid_t]`).
    pub array: Vec<Expr>,
    /// The initial value; `{ … }` is an [`ExprKind::List`].
    pub init: Option<Expr>,
    pub span: Span,
}

/// `typedef T name[size]…;`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Typedef {
    pub ty: TypeRef,
    pub name: Name,
    /// Array dimensions, as in [`VarDecl::array`].
    pub array: Vec<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Decl {
    Var(VarDecl),
    Typedef(Typedef),
    Function(Arc<Function>),
}

impl Decl {
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
    pub name: Name,
    /// The result type; `None` for `void`.
    pub ret: Option<TypeRef>,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    /// The closing `}` of the body: where a missing `return` is reported.
    pub end: Span,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StmtKind {
    Block(Vec<Stmt>),
    /// A local variable (or typedef), visible to the end of its block.
    Decl(Decl),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    /// C's `for (init; cond; step) body`; a missing condition is `true`.
    For {
        init: Vec<Expr>,
        cond: Option<Expr>,
        step: Vec<Expr>,
        body: Box<Stmt>,
    },
    /// `for (i : T) body`
    ForRange {
        name: Name,
        ty: TypeRef,
        body: Box<Stmt>,
    },
    Return(Option<Expr>),
    Empty,
}

/// `const T p` (by value) or `T &p` (by reference).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    pub is_const: bool,
    pub is_ref: bool,
    pub ty: TypeRef,
    /// `int &a[N]`: array dimensions, as in [`VarDecl::array`].
    pub array: Vec<Expr>,
    pub name: Name,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    pub name: Name,
    pub init: bool,
    pub kind: LocationKind,
    pub invariant: Option<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Select {
    pub name: Name,
    pub ty: TypeRef,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyncHir {
    /// A channel name, or an indexed channel array.
    pub channel: Expr,
    pub dir: SyncDir,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edge {
    pub source: Name,
    pub target: Name,
    pub selects: Vec<Select>,
    pub guard: Option<Expr>,
    pub sync: Option<SyncHir>,
    /// `sync a` without `!`/`?`: an action label for synchronisation vectors.
    pub label: Option<Name>,
    /// Assignment expressions (`Assign`, `Incr`), left to right.
    pub updates: Vec<Expr>,
    pub span: Span,
}

/// A template, with spans relative to its start.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Template {
    pub name: Name,
    pub params: Vec<Param>,
    pub decls: Vec<Decl>,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TemplateItem {
    pub data: Arc<Template>,
    /// Absolute offset of the template's start in the file.
    pub offset: u32,
}

/// `P1 = Proc(1);`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstanceDecl {
    pub name: Name,
    /// The parameters a partial instantiation leaves free (`P(const id_t i)
    /// = T(i, 1);`): the instance stands for one process per value.
    pub params: Vec<Param>,
    pub template: Name,
    pub args: Vec<Expr>,
    pub span: Span,
}

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
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CheckDecl {
    pub name: Name,
    pub quantifier: Quantifier,
    pub formula: Expr,
    /// `q` in `p --> q`; `None` for the other forms.
    pub target: Option<Expr>,
    pub span: Span,
}

/// Everything a file declares, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ItemTree {
    pub globals: Vec<Decl>,
    pub templates: Vec<TemplateItem>,
    pub instances: Vec<InstanceDecl>,
    /// Every `system` line's entries.
    pub system: Vec<Name>,
    /// The priority level of each entry of `system` (0 unless the line
    /// separates levels with `<`; each `<` starts a higher one).
    pub system_levels: Vec<u32>,
    /// The first `system` line.
    pub system_span: Option<Span>,
    pub vectors: Vec<VectorDecl>,
    /// `priority a < default < b;` declarations (one is allowed).
    pub priorities: Vec<PriorityDecl>,
    pub checks: Vec<CheckDecl>,
}

/// `priority a, d[0] < default < b;`: channels by level, lowest first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PriorityDecl {
    pub entries: Vec<(PriorityEntry, u32)>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PriorityEntry {
    /// `default`, at its span.
    Default(Span),
    Channel(Expr),
}

/// `sync Bus.cd, Station(1).cd?;`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VectorDecl {
    pub participants: Vec<ParticipantDecl>,
    pub span: Span,
}

/// `Station(1).cd?`: `process` is `Station(1)` (a name or a call).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParticipantDecl {
    pub process: Expr,
    pub label: Name,
    pub weak: bool,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
    BitNot,
    Plus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
    And,
    Or,
    Imply,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Min,
    Max,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Ge | BinaryOp::Gt
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssignOp {
    Assign,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuantKind {
    Forall,
    Exists,
    Sum,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// Something the parser could not read; already reported as a syntax error.
    Missing,
    Int(i64),
    Bool(bool),
    Name(String),
    Index(Box<Expr>, Box<Expr>),
    /// `P1.cs`, `Proc(1).x`
    Field(Box<Expr>, Name),
    /// `Proc(1)` (an instance made by `system Proc;`), or `min`/`max` calls.
    Call(Name, Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `v = e`, `v op= e`; also `++v` and `--v`, which are `v += 1` and
    /// `v -= 1` (the `1` spans the operator), as in C.
    Assign(AssignOp, Box<Expr>, Box<Expr>),
    /// `v++` (true) or `v--` (false).
    Incr(Box<Expr>, bool),
    Quant(QuantKind, Name, TypeRef, Box<Expr>),
    Deadlock,
    /// `{ e, e, … }`: an initialiser of an array or a record (only as an
    /// initial value, possibly nested).
    List(Vec<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

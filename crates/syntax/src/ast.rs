//! Typed views over the syntax tree: the only way other layers read syntax.
//!
//! Every wrapper is a cheap handle on a [`SyntaxNode`]; accessors return
//! `Option` because the tree of a half-written model can miss any part.
//! `node.syntax().text_range()` (or [`AstNode::span`]) locates any node.
//! The shapes follow `grammar/zeno.ungram`.

use rowan::TextRange;

use super::{SyntaxElement, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};
use zeno_base::text::Span;

/// A typed view of a syntax node.
pub trait AstNode: Sized {
    /// Whether a node of `kind` is one of these.
    fn can_cast(kind: SyntaxKind) -> bool;
    /// The view of `node`, when it is one of these.
    fn cast(node: SyntaxNode) -> Option<Self>;
    /// The node viewed.
    fn syntax(&self) -> &SyntaxNode;

    /// The node's range, without leading or trailing trivia outside the node.
    fn span(&self) -> Span {
        span_of(self.syntax().text_range())
    }
}

/// Converts a rowan range into the project's [`Span`].
pub fn span_of(range: TextRange) -> Span {
    Span::new(range.start().into(), range.end().into())
}

macro_rules! ast_node {
    ($(#[$attr:meta])* $name:ident, $kind:ident) => {
        $(#[$attr])*
        #[doc = concat!("\n\nThe typed view of a `", stringify!($kind), "` node.")]
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            syntax: SyntaxNode,
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then_some($name { syntax: node })
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.syntax
            }
        }
    };
}

macro_rules! ast_enum {
    ($(#[$attr:meta])* $name:ident { $($variant:ident),* $(,)? }) => {
        $(#[$attr])*
        #[doc = concat!("\n\nOne of: ", $("[`", stringify!($variant), "`] "),*)]
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                #[doc = concat!("A [`", stringify!($variant), "`].")]
                $variant($variant)
            ),*
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                $($variant::can_cast(kind))||*
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                $(if $variant::can_cast(node.kind()) {
                    return $variant::cast(node).map($name::$variant);
                })*
                None
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $($name::$variant(it) => it.syntax()),*
                }
            }
        }
    };
}

/// Accessors that each read one part of a node, one line apiece (the
/// grammar's shapes, `grammar/zeno.ungram`, in a form that reads like it):
///
/// - `fn f: T;` the first child of type `T`;
/// - `fn f: T after K;` / `fn f: T before K;` the first child of type `T`
///   after / before the first token of kind `K`;
/// - `fn f: [T];` the children of type `T`, in text order;
/// - `fn f: [T] in L;` the children of type `T` of the child `L` (none when
///   `L` is absent);
/// - `fn f: has K;` whether the node has a token of kind `K`;
/// - `fn f: token K;` the first token of kind `K`.
macro_rules! accessors {
    () => {};
    ($(#[$doc:meta])* fn $name:ident: has $kind:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> bool {
            has_token(&self.syntax, $kind)
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* fn $name:ident: token $kind:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> Option<SyntaxToken> {
            token(&self.syntax, $kind)
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* fn $name:ident: [$node:ident]; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> impl Iterator<Item = $node> + use<> {
            children(&self.syntax)
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* fn $name:ident: [$node:ident] in $list:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> impl Iterator<Item = $node> + use<> {
            child::<$list>(&self.syntax)
                .into_iter()
                .flat_map(|list| children::<$node>(&list.syntax))
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* fn $name:ident: $node:ident after $kind:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> Option<$node> {
            child_after(&self.syntax, $kind)
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* fn $name:ident: $node:ident before $kind:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> Option<$node> {
            child_before(&self.syntax, $kind)
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* fn $name:ident: $node:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self) -> Option<$node> {
            child(&self.syntax)
        }
        accessors!($($rest)*);
    };
}

fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
    parent.children().find_map(N::cast)
}

fn children<N: AstNode>(parent: &SyntaxNode) -> impl Iterator<Item = N> + use<N> {
    parent.children().filter_map(N::cast)
}

/// The first node of type `N` among `elements`.
fn first_node<N: AstNode>(elements: impl Iterator<Item = SyntaxElement>) -> Option<N> {
    elements
        .filter_map(SyntaxElement::into_node)
        .find_map(N::cast)
}

/// The first child node of type `N` before the first token of kind `before`.
fn child_before<N: AstNode>(parent: &SyntaxNode, before: SyntaxKind) -> Option<N> {
    first_node(
        parent
            .children_with_tokens()
            .take_while(|e| e.kind() != before),
    )
}

fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    parent
        .children_with_tokens()
        .filter_map(SyntaxElement::into_token)
        .find(|t| t.kind() == kind)
}

fn has_token(parent: &SyntaxNode, kind: SyntaxKind) -> bool {
    token(parent, kind).is_some()
}

/// The first child node of type `N` after the first token of kind `after`.
fn child_after<N: AstNode>(parent: &SyntaxNode, after: SyntaxKind) -> Option<N> {
    first_node(
        parent
            .children_with_tokens()
            .skip_while(|e| e.kind() != after),
    )
}

// ------------------------------------------------------------------ names

/// The text of a name's identifier (empty only in a malformed tree).
fn ident_text(ident: Option<SyntaxToken>) -> String {
    ident.map(|t| t.text().to_string()).unwrap_or_default()
}

ast_node!(
    /// A name being defined.
    Name,
    NAME
);
ast_node!(
    /// A use of a name (also an expression).
    NameRef,
    NAME_REF
);

impl Name {
    accessors! {
        /// The `ident` token, when the text has one.
        fn ident_token: token IDENT;
    }
    /// The identifier's text (empty only in a malformed tree).
    pub fn text(&self) -> String {
        ident_text(self.ident_token())
    }
}

impl NameRef {
    accessors! {
        /// The `ident` token, when the text has one.
        fn ident_token: token IDENT;
    }
    /// The text as written.
    pub fn text(&self) -> String {
        ident_text(self.ident_token())
    }
}

// ------------------------------------------------------------------ file and items

ast_node!(SourceFile, SOURCE_FILE);

impl SourceFile {
    accessors! {
        /// Items in text order (error nodes are skipped).
        fn items: [Item];
    }
}

ast_enum!(
    /// Anything that can stand at the top level or in a template body.
    /// (Locations and edges at the top level, or instances inside a
    /// template, are syntax errors but still appear here.)
    Item {
        VarDecl,
        TypedefDecl,
        Template,
        Location,
        Edge,
        Instance,
        System,
        SyncVector,
        PriorityDecl,
        Check,
        Function,
    }
);

ast_node!(
    /// `const int N = 3;`, `int[0, 3] a[N], b;`, `clock x;`, `chan c[N];`
    VarDecl,
    VAR_DECL
);

impl VarDecl {
    accessors! {
        /// The `const` token, when the text has one.
        fn const_token: token CONST_KW;
        /// Whether the node is marked `const`.
        fn is_const: has CONST_KW;
        /// The type ([`Type`]), when the text has it.
        fn ty: Type;
        /// The declarators ([`VarDeclarator`]), in text order.
        fn declarators: [VarDeclarator];
    }
}

ast_node!(
    /// One declared variable: `a[N] = { … }`.
    VarDeclarator,
    VAR_DECLARATOR
);

impl VarDeclarator {
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The array sizes ([`ArraySize`]), in text order.
        fn array_sizes: [ArraySize];
        /// The initial value, after `=` (an [`Expr::ArrayInit`] for arrays).
        fn init: Expr after EQ;
    }
}

ast_node!(
    /// `[N]` after a declared name.
    ArraySize,
    ARRAY_SIZE
);

impl ArraySize {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

ast_node!(
    /// `{ e, e, … }` as an initial value.
    ArrayInit,
    ARRAY_INIT
);

impl ArrayInit {
    accessors! {
        /// The elements ([`Expr`]), in text order.
        fn elements: [Expr];
    }
}

ast_node!(
    /// `typedef int[1, N] pid_t;`
    TypedefDecl,
    TYPEDEF_DECL
);

impl TypedefDecl {
    accessors! {
        /// The type ([`Type`]), when the text has it.
        fn ty: Type;
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The array sizes ([`ArraySize`]), in text order.
        fn array_sizes: [ArraySize];
    }
}

// ------------------------------------------------------------------ types

ast_enum!(Type {
    IntType,
    BoolType,
    ClockType,
    ChanType,
    NamedType,
    StructType,
    ScalarType,
});

ast_node!(
    /// `scalar[N]`: UPPAAL's scalar set, the integers 0 to N - 1 here.
    ScalarType,
    SCALAR_TYPE
);

impl ScalarType {
    accessors! {
        /// The size ([`ArraySize`]), when the text has it.
        fn size: ArraySize;
    }
}

ast_node!(
    /// `struct { int a; bool b[2]; }`: a record type.
    StructType,
    STRUCT_TYPE
);

impl StructType {
    accessors! {
        /// The field declarations.
        fn fields: [VarDecl];
    }
}

ast_node!(
    /// `int` or `int[lo, hi]`.
    IntType,
    INT_TYPE
);

impl IntType {
    accessors! {
        /// The range ([`Range`]), when the text has it.
        fn range: Range;
    }
}

ast_node!(
    /// `[lo, hi]` of a bounded integer type.
    Range,
    RANGE
);

impl Range {
    accessors! {
        /// The lo ([`Expr`]), when the text has it.
        fn lo: Expr before COMMA;
        /// The hi ([`Expr`]), when the text has it.
        fn hi: Expr after COMMA;
    }
}

ast_node!(BoolType, BOOL_TYPE);
ast_node!(ClockType, CLOCK_TYPE);
ast_node!(
    /// `chan`, `urgent chan`, `broadcast chan`, `urgent broadcast chan`.
    ChanType,
    CHAN_TYPE
);

impl ChanType {
    accessors! {
        /// Whether the node is marked `urgent`.
        fn is_urgent: has URGENT_KW;
        /// Whether the node is marked `broadcast`.
        fn is_broadcast: has BROADCAST_KW;
    }
}

ast_node!(
    /// A typedef name used as a type.
    NamedType,
    NAMED_TYPE
);

impl NamedType {
    accessors! {
        /// The name ref ([`NameRef`]), when the text has it.
        fn name_ref: NameRef;
    }
}

// ------------------------------------------------------------------ templates

ast_node!(
    /// `template Name(params) { … }`
    Template,
    TEMPLATE
);

impl Template {
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The param list ([`ParamList`]), when the text has it.
        fn param_list: ParamList;
        /// The parameters (none when the list is absent).
        fn params: [Param] in ParamList;
        /// The body ([`TemplateBody`]), when the text has it.
        fn body: TemplateBody;
        /// The body's items in text order.
        fn items: [Item] in TemplateBody;
        /// The var decls ([`VarDecl`]), in text order.
        fn var_decls: [VarDecl] in TemplateBody;
        /// The locations ([`Location`]), in text order.
        fn locations: [Location] in TemplateBody;
        /// The edges ([`Edge`]), in text order.
        fn edges: [Edge] in TemplateBody;
    }
}

ast_node!(ParamList, PARAM_LIST);

impl ParamList {
    accessors! {
        /// The params ([`Param`]), in text order.
        fn params: [Param];
    }
}

ast_node!(
    /// `const pid_t pid`, `int &x`, or UPPAAL's by-value `pid_t pid`.
    Param,
    PARAM
);

impl Param {
    accessors! {
        /// Whether the node is marked `const`.
        fn is_const: has CONST_KW;
        /// `T &p`: a reference to a global variable or array.
        fn is_ref: has AMP;
        /// The type ([`Type`]), when the text has it.
        fn ty: Type;
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The array sizes ([`ArraySize`]), in text order.
        fn array_sizes: [ArraySize];
    }
}

ast_node!(
    /// `{ … }` of a template.
    TemplateBody,
    TEMPLATE_BODY
);

impl TemplateBody {
    accessors! {
        /// The items ([`Item`]), in text order.
        fn items: [Item];
    }
}

ast_node!(
    /// `init committed location l invariant x <= 3;`
    Location,
    LOCATION
);

impl Location {
    accessors! {
        /// Whether the node is marked `init`.
        fn is_init: has INIT_KW;
        /// Whether the node is marked `urgent`.
        fn is_urgent: has URGENT_KW;
        /// Whether the node is marked `committed`.
        fn is_committed: has COMMITTED_KW;
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The invariant ([`Invariant`]), when the text has it.
        fn invariant: Invariant;
    }
}

ast_node!(Invariant, INVARIANT);

impl Invariant {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

ast_node!(
    /// `src -> dst select i : T when g sync c! do a = 1;`
    Edge,
    EDGE
);

impl Edge {
    accessors! {
        /// The source ([`NameRef`]), when the text has it.
        fn source: NameRef before ARROW;
        /// The `arrow` token, when the text has one.
        fn arrow_token: token ARROW;
        /// The target ([`NameRef`]), when the text has it.
        fn target: NameRef after ARROW;
        /// The select ([`SelectClause`]), when the text has it.
        fn select: SelectClause;
        /// The guard ([`Guard`]), when the text has it.
        fn guard: Guard;
        /// The sync ([`Sync`]), when the text has it.
        fn sync: Sync;
        /// The update ([`Update`]), when the text has it.
        fn update: Update;
    }
}

ast_node!(SelectClause, SELECT_CLAUSE);

impl SelectClause {
    accessors! {
        /// The bindings ([`SelectBinding`]), in text order.
        fn bindings: [SelectBinding];
    }
}

ast_node!(
    /// `i : int[0, N - 1]`
    SelectBinding,
    SELECT_BINDING
);

impl SelectBinding {
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The type ([`Type`]), when the text has it.
        fn ty: Type;
    }
}

ast_node!(
    /// `when e`
    Guard,
    GUARD
);

impl Guard {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

ast_node!(
    /// `sync c[e]!` / `sync c?`
    Sync,
    SYNC
);

/// The direction of a synchronisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SyncKind {
    /// `!`
    Send,
    /// `?`
    Receive,
}

impl Sync {
    accessors! {
        /// The channel: a name, possibly indexed (`c[e]`).
        fn channel: Expr;
    }
    /// `None` for an action label (`sync a`, no `!` or `?`).
    pub fn kind(&self) -> Option<SyncKind> {
        if has_token(&self.syntax, BANG) {
            Some(SyncKind::Send)
        } else if has_token(&self.syntax, QUESTION) {
            Some(SyncKind::Receive)
        } else {
            None
        }
    }
}

ast_node!(
    /// `do a = 1, x = 0`
    Update,
    UPDATE
);

impl Update {
    accessors! {
        /// The updates, in execution order.
        fn exprs: [Expr];
    }
}

// ------------------------------------------------------------------ system and checks

ast_node!(
    /// `P1 = Proc(1);`
    Instance,
    INSTANCE
);

impl Instance {
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The parameters of a partial instantiation, `P(const id_t i) = T(i);`.
        fn params: [Param] in ParamList;
        /// The template ([`NameRef`]), when the text has it.
        fn template: NameRef;
        /// The arg list ([`ArgList`]), when the text has it.
        fn arg_list: ArgList;
        /// The args ([`Expr`]), in text order.
        fn args: [Expr] in ArgList;
    }
}

ast_node!(
    /// `(e, e)` of an instance or a call-like process reference.
    ArgList,
    ARG_LIST
);

impl ArgList {
    accessors! {
        /// The args ([`Expr`]), in text order.
        fn args: [Expr];
    }
}

/// The entries of a list in which each `<` starts a higher level, with
/// their level (0 for the first); `entry` picks the entries out.
fn leveled<T>(
    node: &SyntaxNode,
    mut entry: impl FnMut(SyntaxElement) -> Option<T>,
) -> Vec<(T, u32)> {
    let mut level = 0;
    let mut out = Vec::new();
    for el in node.children_with_tokens() {
        if el.kind() == LT {
            level += 1;
        } else if let Some(e) = entry(el) {
            out.push((e, level));
        }
    }
    out
}

ast_node!(
    /// `system P1, Proc;`
    System,
    SYSTEM
);

impl System {
    accessors! {
        /// The entries ([`NameRef`]), in text order.
        fn entries: [NameRef];
    }

    /// The entries with their priority level: 0 for the first, one more
    /// after each `<` (`system A < B, C;` gives A 0, B 1, C 1).
    pub fn leveled_entries(&self) -> Vec<(NameRef, u32)> {
        leveled(&self.syntax, |el| el.into_node().and_then(NameRef::cast))
    }
}

ast_node!(
    /// `priority a, d[0] < default < b;`: channel priority levels.
    PriorityDecl,
    PRIORITY_DECL
);

/// One entry of a channel priority declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PriorityEntry {
    /// `default`: the level of internal transitions and unlisted channels.
    Default(SyntaxToken),
    /// A channel, a channel array or an element of one.
    Channel(Expr),
}

impl PriorityDecl {
    /// The entries with their level: 0 for the first, one more after each `<`.
    pub fn entries(&self) -> Vec<(PriorityEntry, u32)> {
        leveled(&self.syntax, |el| match el {
            SyntaxElement::Token(t) if t.kind() == DEFAULT_KW => Some(PriorityEntry::Default(t)),
            SyntaxElement::Node(n) => Expr::cast(n).map(PriorityEntry::Channel),
            SyntaxElement::Token(_) => None,
        })
    }
}

ast_node!(
    /// `sync Bus.cd, Station(1).cd?;`
    SyncVector,
    SYNC_VECTOR
);

impl SyncVector {
    accessors! {
        /// The participants ([`SyncParticipant`]), in text order.
        fn participants: [SyncParticipant];
    }
}

ast_node!(
    /// `Station(1).cd?`: a process's action label, `?` when weak.
    SyncParticipant,
    SYNC_PARTICIPANT
);

impl SyncParticipant {
    accessors! {
        /// `Process.label` as written (normally a `FieldExpr`).
        fn expr: Expr;
        /// Whether the node is marked `weak`.
        fn is_weak: has QUESTION;
    }
}

ast_node!(
    /// `check name: A[] phi;`, `check name: p --> q;`
    Check,
    CHECK
);

/// The path quantifier of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathQuantifier {
    /// `A[]`: invariance.
    AlwaysGlobally,
    /// `E<>`: reachability.
    ExistsEventually,
    /// `A<>`: inevitability (parsed; semantics may reject it).
    AlwaysEventually,
    /// `E[]`: potentially always (parsed; semantics may reject it).
    ExistsGlobally,
}

impl Check {
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
    }
    /// The `quantifier` token, when the text has one.
    pub fn quantifier_token(&self) -> Option<SyntaxToken> {
        self.syntax
            .children_with_tokens()
            .filter_map(SyntaxElement::into_token)
            .find(|t| matches!(t.kind(), A_BOX | E_DIAMOND | A_DIAMOND | E_BOX))
    }
    /// The quantifier ([`PathQuantifier`]), when the text has it.
    pub fn quantifier(&self) -> Option<PathQuantifier> {
        Some(match self.quantifier_token()?.kind() {
            A_BOX => PathQuantifier::AlwaysGlobally,
            E_DIAMOND => PathQuantifier::ExistsEventually,
            A_DIAMOND => PathQuantifier::AlwaysEventually,
            _ => PathQuantifier::ExistsGlobally,
        })
    }
    accessors! {
        /// The formula ([`Expr`]), when the text has it.
        fn formula: Expr;
        /// The `-->` token of a leads-to check `p --> q`.
        fn leads_to_token: token LEADS_TO;
    }
    /// `q` in `p --> q` (the second formula).
    pub fn target(&self) -> Option<Expr> {
        self.syntax.children().filter_map(Expr::cast).nth(1)
    }
    /// `sup` or `inf` of a value query `sup{pred}: e, …`: the check's one
    /// identifier token of its own (a check's name sits in its [`Name`]).
    pub fn extremum_token(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT).filter(|t| matches!(t.text(), "sup" | "inf"))
    }
    accessors! {
        /// `{pred}` of a value query, when the text has it.
        fn bound_predicate: BoundPredicate;
        /// The check's expressions in text order: the formula (and the
        /// target of `p --> q`), or a value query's terms.
        fn exprs: [Expr];
    }
}

ast_node!(
    /// `{pred}` of a value query `sup{pred}: e, …`: the states it ranges over.
    BoundPredicate,
    BOUND_PREDICATE
);

impl BoundPredicate {
    accessors! {
        /// The predicate ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

// ------------------------------------------------------------------ functions

ast_node!(
    /// `int f(const int a, int &b) { … }`, `void g() { … }`
    Function,
    FUNCTION
);

impl Function {
    accessors! {
        /// `void`: the function has no result.
        fn is_void: has VOID_KW;
        /// The result type (none for `void`).
        fn ret_type: Type;
        /// Whether the node is marked `const`.
        fn is_const: has CONST_KW;
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The param list ([`ParamList`]), when the text has it.
        fn param_list: ParamList;
        /// The params ([`Param`]), in text order.
        fn params: [Param] in ParamList;
        /// The body ([`Block`]), when the text has it.
        fn body: Block;
    }
}

ast_node!(
    /// `{ statements }`
    Block,
    BLOCK
);

impl Block {
    accessors! {
        /// The statements ([`Stmt`]), in text order.
        fn statements: [Stmt];
    }
}

ast_enum!(
    /// A statement of a function body.
    Stmt {
        Block,
        VarDecl,
        TypedefDecl,
        ExprStmt,
        IfStmt,
        WhileStmt,
        DoStmt,
        ForStmt,
        ForRangeStmt,
        ReturnStmt,
        EmptyStmt,
    }
);

ast_node!(
    /// `e;`
    ExprStmt,
    EXPR_STMT
);

impl ExprStmt {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

ast_node!(
    /// `if (c) s else t`
    IfStmt,
    IF_STMT
);

impl IfStmt {
    accessors! {
        /// The condition ([`Expr`]), when the text has it.
        fn condition: Expr;
        /// The then branch ([`Stmt`]), when the text has it.
        fn then_branch: Stmt;
    }
    /// The else branch ([`Stmt`]), when the text has it.
    pub fn else_branch(&self) -> Option<Stmt> {
        child::<ElseBranch>(&self.syntax)?.stmt()
    }
}

ast_node!(
    /// `else s` of an `if`.
    ElseBranch,
    ELSE_BRANCH
);

impl ElseBranch {
    accessors! {
        /// The statement ([`Stmt`]), when the text has it.
        fn stmt: Stmt;
    }
}

ast_node!(
    /// `while (c) s`
    WhileStmt,
    WHILE_STMT
);

impl WhileStmt {
    accessors! {
        /// The condition ([`Expr`]), when the text has it.
        fn condition: Expr;
        /// The body ([`Stmt`]), when the text has it.
        fn body: Stmt;
    }
}

ast_node!(
    /// `do s while (c);`
    DoStmt,
    DO_STMT
);

impl DoStmt {
    accessors! {
        /// The body ([`Stmt`]), when the text has it.
        fn body: Stmt;
        /// The condition ([`Expr`]), when the text has it.
        fn condition: Expr after WHILE_KW;
    }
}

ast_node!(
    /// `for (init; cond; step) s`; each part may be empty.
    ForStmt,
    FOR_STMT
);

impl ForStmt {
    fn part(&self, kind: SyntaxKind) -> Vec<Expr> {
        self.syntax
            .children()
            .find(|c| c.kind() == kind)
            .map(|n| children(&n).collect())
            .unwrap_or_default()
    }
    /// Every init, in text order.
    pub fn init(&self) -> Vec<Expr> {
        self.part(FOR_INIT)
    }
    /// The condition ([`Expr`]), when the text has it.
    pub fn condition(&self) -> Option<Expr> {
        self.part(FOR_COND).into_iter().next()
    }
    /// Every step, in text order.
    pub fn step(&self) -> Vec<Expr> {
        self.part(FOR_STEP)
    }
    accessors! {
        /// The body ([`Stmt`]), when the text has it.
        fn body: Stmt;
    }
}

ast_node!(
    /// `for (i : T) s`: one iteration per value of the bounded type `T`.
    ForRangeStmt,
    FOR_RANGE_STMT
);

impl ForRangeStmt {
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The type ([`Type`]), when the text has it.
        fn ty: Type;
        /// The body ([`Stmt`]), when the text has it.
        fn body: Stmt;
    }
}

ast_node!(
    /// `return e;` or `return;`
    ReturnStmt,
    RETURN_STMT
);

impl ReturnStmt {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

ast_node!(
    /// `;`
    EmptyStmt,
    EMPTY_STMT
);

// ------------------------------------------------------------------ expressions

ast_enum!(Expr {
    Literal,
    NameRef,
    ParenExpr,
    PrefixExpr,
    BinExpr,
    CondExpr,
    IndexExpr,
    FieldExpr,
    CallExpr,
    PostfixExpr,
    AssignExpr,
    QuantExpr,
    ArrayInit,
});

ast_node!(
    /// `42`, `true`, `false`, `deadlock`.
    Literal,
    LITERAL
);

/// What a literal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralKind {
    /// An integer literal.
    Int,
    /// `true`.
    True,
    /// `false`.
    False,
    /// `deadlock` (in checks).
    Deadlock,
}

impl Literal {
    /// The token token, when the text has one.
    pub fn token(&self) -> Option<SyntaxToken> {
        self.syntax.first_token()
    }
    /// The kind ([`LiteralKind`]), when the text has it.
    pub fn kind(&self) -> Option<LiteralKind> {
        Some(match self.token()?.kind() {
            INT_NUMBER => LiteralKind::Int,
            TRUE_KW => LiteralKind::True,
            FALSE_KW => LiteralKind::False,
            DEADLOCK_KW => LiteralKind::Deadlock,
            _ => return None,
        })
    }
    /// The value of an integer literal; `None` if it is not one or does not
    /// fit in an `i64` (report that as an error).
    pub fn int_value(&self) -> Option<i64> {
        let token = self.token()?;
        if token.kind() != INT_NUMBER {
            return None;
        }
        token.text().parse().ok()
    }
}

ast_node!(ParenExpr, PAREN_EXPR);

impl ParenExpr {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

/// A prefix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrefixOp {
    /// `-e`
    Neg,
    /// `!e` or `not e`
    Not,
    /// `+e`
    Plus,
    /// `~e`
    BitNot,
    /// `++v`
    Incr,
    /// `--v`
    Decr,
}

ast_node!(
    /// `-e`, `!e`, `not e`, `+e`, `~e`, `++v`, `--v`
    PrefixExpr,
    PREFIX_EXPR
);

impl PrefixExpr {
    /// The `op` token, when the text has one.
    pub fn op_token(&self) -> Option<SyntaxToken> {
        self.syntax.first_token()
    }
    /// The op ([`PrefixOp`]), when the text has it.
    pub fn op(&self) -> Option<PrefixOp> {
        Some(match self.op_token()?.kind() {
            MINUS => PrefixOp::Neg,
            BANG | NOT_KW => PrefixOp::Not,
            PLUS => PrefixOp::Plus,
            TILDE => PrefixOp::BitNot,
            PLUS2 => PrefixOp::Incr,
            MINUS2 => PrefixOp::Decr,
            _ => return None,
        })
    }
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
}

pub use zeno_base::operators::BinaryOp as BinOp;

/// The binary operator a token of `kind` spells, if any: the one
/// [`zeno_base::operators::BINARY`] lists under the token's text.
pub fn bin_op(kind: SyntaxKind) -> Option<BinOp> {
    BinOp::from_spelling(kind.token_text()?)
}

ast_node!(
    /// `lhs op rhs`
    BinExpr,
    BIN_EXPR
);

/// The operator token of a binary-like node: the first token child that is
/// not trivia (operands are nodes).
fn op_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(SyntaxElement::into_token)
        .find(|t| !t.kind().is_trivia() && t.kind() != ERROR)
}

/// The left operand of a binary-like node: an expression before any token
/// but trivia (none when the text starts with the operator).
fn operand_before_op(node: &SyntaxNode) -> Option<Expr> {
    first_node(
        node.children_with_tokens()
            .take_while(|e| e.as_token().is_none_or(|t| t.kind().is_trivia())),
    )
}

/// The right operand of a binary-like node: the first expression after its
/// operator token `op`.
fn operand_after(op: SyntaxToken) -> Option<Expr> {
    first_node(op.siblings_with_tokens(rowan::Direction::Next))
}

/// The accessors of a binary-like node (`lhs op rhs`) whose operator is
/// read by `$from`.
macro_rules! binary_accessors {
    ($op:ident, $from:path) => {
        /// The left operand ([`Expr`]), when the text has it.
        pub fn lhs(&self) -> Option<Expr> {
            operand_before_op(&self.syntax)
        }
        /// The right operand ([`Expr`]), when the text has it.
        pub fn rhs(&self) -> Option<Expr> {
            operand_after(self.op_token()?)
        }
        /// The `op` token, when the text has one.
        pub fn op_token(&self) -> Option<SyntaxToken> {
            op_token(&self.syntax)
        }
        #[doc = concat!("The op ([`", stringify!($op), "`]), when the text has it.")]
        pub fn op(&self) -> Option<$op> {
            $from(self.op_token()?.kind())
        }
    };
}

impl BinExpr {
    binary_accessors!(BinOp, bin_op);
}

ast_node!(
    /// `c ? a : b`
    CondExpr,
    COND_EXPR
);

impl CondExpr {
    accessors! {
        /// The condition ([`Expr`]), when the text has it.
        fn condition: Expr before QUESTION;
    }
    /// The then branch ([`Expr`]), when the text has it.
    pub fn then_branch(&self) -> Option<Expr> {
        first_node(
            self.syntax
                .children_with_tokens()
                .skip_while(|e| e.kind() != QUESTION)
                .take_while(|e| e.kind() != COLON),
        )
    }
    accessors! {
        /// The else branch ([`Expr`]), when the text has it.
        fn else_branch: Expr after COLON;
    }
}

ast_node!(
    /// `a[i]`
    IndexExpr,
    INDEX_EXPR
);

impl IndexExpr {
    accessors! {
        /// The base ([`Expr`]), when the text has it.
        fn base: Expr before L_BRACK;
        /// The index ([`Expr`]), when the text has it.
        fn index: Expr after L_BRACK;
    }
}

ast_node!(
    /// `P1.cs`, `Proc(1).x`
    FieldExpr,
    FIELD_EXPR
);

impl FieldExpr {
    accessors! {
        /// The base ([`Expr`]), when the text has it.
        fn base: Expr before DOT;
        /// The field ([`NameRef`]), when the text has it.
        fn field: NameRef after DOT;
    }
}

ast_node!(
    /// `Proc(1)`: an instance reference in a formula.
    CallExpr,
    CALL_EXPR
);

impl CallExpr {
    accessors! {
        /// The callee ([`Expr`]), when the text has it.
        fn callee: Expr;
        /// The arg list ([`ArgList`]), when the text has it.
        fn arg_list: ArgList;
        /// The args ([`Expr`]), in text order.
        fn args: [Expr] in ArgList;
    }
}

/// A postfix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PostfixOp {
    /// `e++`
    Incr,
    /// `e--`
    Decr,
    /// `x'`: a clock's rate (stopwatches)
    Rate,
}

ast_node!(
    /// `v++`, `v--`, `x'`
    PostfixExpr,
    POSTFIX_EXPR
);

impl PostfixExpr {
    accessors! {
        /// The expression ([`Expr`]), when the text has it.
        fn expr: Expr;
    }
    /// The `op` token, when the text has one.
    pub fn op_token(&self) -> Option<SyntaxToken> {
        op_token(&self.syntax)
    }
    /// The op ([`PostfixOp`]), when the text has it.
    pub fn op(&self) -> Option<PostfixOp> {
        Some(match self.op_token()?.kind() {
            PLUS2 => PostfixOp::Incr,
            MINUS2 => PostfixOp::Decr,
            PRIME => PostfixOp::Rate,
            _ => return None,
        })
    }
}

/// An assignment operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssignOp {
    /// `=`
    Assign,
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `*=`
    Mul,
    /// `/=`
    Div,
    /// `%=`
    Rem,
    /// `&=`
    BitAnd,
    /// `|=`
    BitOr,
    /// `^=`
    BitXor,
    /// `<<=`
    Shl,
    /// `>>=`
    Shr,
}

impl AssignOp {
    /// The operator a token of `kind` spells, if any.
    pub fn from_token(kind: SyntaxKind) -> Option<AssignOp> {
        Some(match kind {
            EQ => AssignOp::Assign,
            PLUS_EQ => AssignOp::Add,
            MINUS_EQ => AssignOp::Sub,
            STAR_EQ => AssignOp::Mul,
            SLASH_EQ => AssignOp::Div,
            PERCENT_EQ => AssignOp::Rem,
            AMP_EQ => AssignOp::BitAnd,
            PIPE_EQ => AssignOp::BitOr,
            CARET_EQ => AssignOp::BitXor,
            SHL_EQ => AssignOp::Shl,
            SHR_EQ => AssignOp::Shr,
            _ => return None,
        })
    }
}

ast_node!(
    /// `v = e`, `a[i] += e`
    AssignExpr,
    ASSIGN_EXPR
);

impl AssignExpr {
    binary_accessors!(AssignOp, AssignOp::from_token);
}

/// A quantifier over a bounded type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// `forall (i : T) e`: `e` holds for every `i`.
    Forall,
    /// `exists (i : T) e`: `e` holds for some `i`.
    Exists,
    /// `sum (i : T) e`: the sum of `e` over every `i`.
    Sum,
}

ast_node!(
    /// `forall (i : T) e`, `exists (i : T) e`, `sum (i : T) e`
    QuantExpr,
    QUANT_EXPR
);

impl QuantExpr {
    /// The quantifier ([`Quantifier`]), when the text has it.
    pub fn quantifier(&self) -> Option<Quantifier> {
        Some(match self.syntax.first_token()?.kind() {
            FORALL_KW => Quantifier::Forall,
            EXISTS_KW => Quantifier::Exists,
            SUM_KW => Quantifier::Sum,
            _ => return None,
        })
    }
    accessors! {
        /// The name ([`Name`]), when the text has it.
        fn name: Name;
        /// The type ([`Type`]), when the text has it.
        fn ty: Type;
        /// The body ([`Expr`]), when the text has it.
        fn body: Expr after R_PAREN;
    }
}

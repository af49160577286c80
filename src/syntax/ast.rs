//! Typed views over the syntax tree: the only way other layers read syntax.
//!
//! Every wrapper is a cheap handle on a [`SyntaxNode`]; accessors return
//! `Option` because the tree of a half-written model can miss any part.
//! `node.syntax().text_range()` (or [`AstNode::span`]) locates any node.
//! The shapes follow `grammar/zeno.ungram`.

use rowan::TextRange;

use super::{SyntaxElement, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};
use crate::text::Span;

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

fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
    parent.children().find_map(N::cast)
}

fn children<N: AstNode>(parent: &SyntaxNode) -> impl Iterator<Item = N> + use<N> {
    parent.children().filter_map(N::cast)
}

/// The first child node of type `N` before the first token of kind `before`.
fn child_before<N: AstNode>(parent: &SyntaxNode, before: SyntaxKind) -> Option<N> {
    parent
        .children_with_tokens()
        .take_while(|e| e.kind() != before)
        .filter_map(SyntaxElement::into_node)
        .find_map(N::cast)
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
    parent
        .children_with_tokens()
        .skip_while(|e| e.kind() != after)
        .filter_map(SyntaxElement::into_node)
        .find_map(N::cast)
}

// ------------------------------------------------------------------ names

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
    /// The `ident` token, when the text has one.
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }
    /// The identifier's text (empty only in a malformed tree).
    pub fn text(&self) -> String {
        self.ident_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

impl NameRef {
    /// The `ident` token, when the text has one.
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }
    /// The text as written.
    pub fn text(&self) -> String {
        self.ident_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

// ------------------------------------------------------------------ file and items

ast_node!(SourceFile, SOURCE_FILE);

impl SourceFile {
    /// Items in text order (error nodes are skipped).
    pub fn items(&self) -> impl Iterator<Item = Item> + use<> {
        children(&self.syntax)
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
    /// The `const` token, when the text has one.
    pub fn const_token(&self) -> Option<SyntaxToken> {
        token(&self.syntax, CONST_KW)
    }
    /// Whether the node is marked `const`.
    pub fn is_const(&self) -> bool {
        self.const_token().is_some()
    }
    /// The type ([`Type`]), when the text has it.
    pub fn ty(&self) -> Option<Type> {
        child(&self.syntax)
    }
    /// The declarators ([`VarDeclarator`]), in text order.
    pub fn declarators(&self) -> impl Iterator<Item = VarDeclarator> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// One declared variable: `a[N] = { … }`.
    VarDeclarator,
    VAR_DECLARATOR
);

impl VarDeclarator {
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The array sizes ([`ArraySize`]), in text order.
    pub fn array_sizes(&self) -> impl Iterator<Item = ArraySize> + use<> {
        children(&self.syntax)
    }
    /// The initial value, after `=` (an [`Expr::ArrayInit`] for arrays).
    pub fn init(&self) -> Option<Expr> {
        child_after(&self.syntax, EQ)
    }
}

ast_node!(
    /// `[N]` after a declared name.
    ArraySize,
    ARRAY_SIZE
);

impl ArraySize {
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `{ e, e, … }` as an initial value.
    ArrayInit,
    ARRAY_INIT
);

impl ArrayInit {
    /// The elements ([`Expr`]), in text order.
    pub fn elements(&self) -> impl Iterator<Item = Expr> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `typedef int[1, N] pid_t;`
    TypedefDecl,
    TYPEDEF_DECL
);

impl TypedefDecl {
    /// The type ([`Type`]), when the text has it.
    pub fn ty(&self) -> Option<Type> {
        child(&self.syntax)
    }
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The array sizes ([`ArraySize`]), in text order.
    pub fn array_sizes(&self) -> impl Iterator<Item = ArraySize> + use<> {
        children(&self.syntax)
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
    /// The size ([`ArraySize`]), when the text has it.
    pub fn size(&self) -> Option<ArraySize> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `struct { int a; bool b[2]; }`: a record type.
    StructType,
    STRUCT_TYPE
);

impl StructType {
    /// The field declarations.
    pub fn fields(&self) -> impl Iterator<Item = VarDecl> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `int` or `int[lo, hi]`.
    IntType,
    INT_TYPE
);

impl IntType {
    /// The range ([`Range`]), when the text has it.
    pub fn range(&self) -> Option<Range> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `[lo, hi]` of a bounded integer type.
    Range,
    RANGE
);

impl Range {
    /// The lo ([`Expr`]), when the text has it.
    pub fn lo(&self) -> Option<Expr> {
        child_before(&self.syntax, COMMA)
    }
    /// The hi ([`Expr`]), when the text has it.
    pub fn hi(&self) -> Option<Expr> {
        child_after(&self.syntax, COMMA)
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
    /// Whether the node is marked `urgent`.
    pub fn is_urgent(&self) -> bool {
        has_token(&self.syntax, URGENT_KW)
    }
    /// Whether the node is marked `broadcast`.
    pub fn is_broadcast(&self) -> bool {
        has_token(&self.syntax, BROADCAST_KW)
    }
}

ast_node!(
    /// A typedef name used as a type.
    NamedType,
    NAMED_TYPE
);

impl NamedType {
    /// The name ref ([`NameRef`]), when the text has it.
    pub fn name_ref(&self) -> Option<NameRef> {
        child(&self.syntax)
    }
}

// ------------------------------------------------------------------ templates

ast_node!(
    /// `template Name(params) { … }`
    Template,
    TEMPLATE
);

impl Template {
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The param list ([`ParamList`]), when the text has it.
    pub fn param_list(&self) -> Option<ParamList> {
        child(&self.syntax)
    }
    /// The parameters (none when the list is absent).
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        self.param_list()
            .into_iter()
            .flat_map(|list| children::<Param>(&list.syntax))
    }
    /// The body ([`TemplateBody`]), when the text has it.
    pub fn body(&self) -> Option<TemplateBody> {
        child(&self.syntax)
    }
    /// The body's items in text order.
    pub fn items(&self) -> impl Iterator<Item = Item> + use<> {
        self.body()
            .into_iter()
            .flat_map(|body| children::<Item>(&body.syntax))
    }
    /// The var decls ([`VarDecl`]), in text order.
    pub fn var_decls(&self) -> impl Iterator<Item = VarDecl> + use<> {
        self.items().filter_map(|i| match i {
            Item::VarDecl(d) => Some(d),
            _ => None,
        })
    }
    /// The locations ([`Location`]), in text order.
    pub fn locations(&self) -> impl Iterator<Item = Location> + use<> {
        self.items().filter_map(|i| match i {
            Item::Location(l) => Some(l),
            _ => None,
        })
    }
    /// The edges ([`Edge`]), in text order.
    pub fn edges(&self) -> impl Iterator<Item = Edge> + use<> {
        self.items().filter_map(|i| match i {
            Item::Edge(e) => Some(e),
            _ => None,
        })
    }
}

ast_node!(ParamList, PARAM_LIST);

impl ParamList {
    /// The params ([`Param`]), in text order.
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `const pid_t pid`, `int &x`, or UPPAAL's by-value `pid_t pid`.
    Param,
    PARAM
);

impl Param {
    /// Whether the node is marked `const`.
    pub fn is_const(&self) -> bool {
        has_token(&self.syntax, CONST_KW)
    }
    /// `T &p`: a reference to a global variable or array.
    pub fn is_ref(&self) -> bool {
        has_token(&self.syntax, AMP)
    }
    /// The type ([`Type`]), when the text has it.
    pub fn ty(&self) -> Option<Type> {
        child(&self.syntax)
    }
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The array sizes ([`ArraySize`]), in text order.
    pub fn array_sizes(&self) -> impl Iterator<Item = ArraySize> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `{ … }` of a template.
    TemplateBody,
    TEMPLATE_BODY
);

impl TemplateBody {
    /// The items ([`Item`]), in text order.
    pub fn items(&self) -> impl Iterator<Item = Item> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `init committed location l invariant x <= 3;`
    Location,
    LOCATION
);

impl Location {
    /// Whether the node is marked `init`.
    pub fn is_init(&self) -> bool {
        has_token(&self.syntax, INIT_KW)
    }
    /// Whether the node is marked `urgent`.
    pub fn is_urgent(&self) -> bool {
        has_token(&self.syntax, URGENT_KW)
    }
    /// Whether the node is marked `committed`.
    pub fn is_committed(&self) -> bool {
        has_token(&self.syntax, COMMITTED_KW)
    }
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The invariant ([`Invariant`]), when the text has it.
    pub fn invariant(&self) -> Option<Invariant> {
        child(&self.syntax)
    }
}

ast_node!(Invariant, INVARIANT);

impl Invariant {
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `src -> dst select i : T when g sync c! do a = 1;`
    Edge,
    EDGE
);

impl Edge {
    /// The source ([`NameRef`]), when the text has it.
    pub fn source(&self) -> Option<NameRef> {
        child_before(&self.syntax, ARROW)
    }
    /// The `arrow` token, when the text has one.
    pub fn arrow_token(&self) -> Option<SyntaxToken> {
        token(&self.syntax, ARROW)
    }
    /// The target ([`NameRef`]), when the text has it.
    pub fn target(&self) -> Option<NameRef> {
        child_after(&self.syntax, ARROW)
    }
    /// The select ([`SelectClause`]), when the text has it.
    pub fn select(&self) -> Option<SelectClause> {
        child(&self.syntax)
    }
    /// The guard ([`Guard`]), when the text has it.
    pub fn guard(&self) -> Option<Guard> {
        child(&self.syntax)
    }
    /// The sync ([`Sync`]), when the text has it.
    pub fn sync(&self) -> Option<Sync> {
        child(&self.syntax)
    }
    /// The update ([`Update`]), when the text has it.
    pub fn update(&self) -> Option<Update> {
        child(&self.syntax)
    }
}

ast_node!(SelectClause, SELECT_CLAUSE);

impl SelectClause {
    /// The bindings ([`SelectBinding`]), in text order.
    pub fn bindings(&self) -> impl Iterator<Item = SelectBinding> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `i : int[0, N - 1]`
    SelectBinding,
    SELECT_BINDING
);

impl SelectBinding {
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The type ([`Type`]), when the text has it.
    pub fn ty(&self) -> Option<Type> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `when e`
    Guard,
    GUARD
);

impl Guard {
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
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
    /// The channel: a name, possibly indexed (`c[e]`).
    pub fn channel(&self) -> Option<Expr> {
        child(&self.syntax)
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
    /// The updates, in execution order.
    pub fn exprs(&self) -> impl Iterator<Item = Expr> + use<> {
        children(&self.syntax)
    }
}

// ------------------------------------------------------------------ system and checks

ast_node!(
    /// `P1 = Proc(1);`
    Instance,
    INSTANCE
);

impl Instance {
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The parameters of a partial instantiation, `P(const id_t i) = T(i);`.
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        child::<ParamList>(&self.syntax)
            .into_iter()
            .flat_map(|list| children::<Param>(&list.syntax))
    }
    /// The template ([`NameRef`]), when the text has it.
    pub fn template(&self) -> Option<NameRef> {
        child(&self.syntax)
    }
    /// The arg list ([`ArgList`]), when the text has it.
    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.syntax)
    }
    /// The args ([`Expr`]), in text order.
    pub fn args(&self) -> impl Iterator<Item = Expr> + use<> {
        self.arg_list()
            .into_iter()
            .flat_map(|list| children::<Expr>(&list.syntax))
    }
}

ast_node!(
    /// `(e, e)` of an instance or a call-like process reference.
    ArgList,
    ARG_LIST
);

impl ArgList {
    /// The args ([`Expr`]), in text order.
    pub fn args(&self) -> impl Iterator<Item = Expr> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `system P1, Proc;`
    System,
    SYSTEM
);

impl System {
    /// The entries ([`NameRef`]), in text order.
    pub fn entries(&self) -> impl Iterator<Item = NameRef> + use<> {
        children(&self.syntax)
    }

    /// The entries with their priority level: 0 for the first, one more
    /// after each `<` (`system A < B, C;` gives A 0, B 1, C 1).
    pub fn leveled_entries(&self) -> Vec<(NameRef, u32)> {
        let mut level = 0;
        let mut out = Vec::new();
        for el in self.syntax.children_with_tokens() {
            match el {
                SyntaxElement::Token(t) if t.kind() == LT => level += 1,
                SyntaxElement::Node(n) => {
                    if let Some(r) = NameRef::cast(n) {
                        out.push((r, level));
                    }
                }
                _ => {}
            }
        }
        out
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
        let mut level = 0;
        let mut out = Vec::new();
        for el in self.syntax.children_with_tokens() {
            match el {
                SyntaxElement::Token(t) if t.kind() == LT => level += 1,
                SyntaxElement::Token(t) if t.kind() == DEFAULT_KW => {
                    out.push((PriorityEntry::Default(t), level));
                }
                SyntaxElement::Node(n) => {
                    if let Some(e) = Expr::cast(n) {
                        out.push((PriorityEntry::Channel(e), level));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

ast_node!(
    /// `sync Bus.cd, Station(1).cd?;`
    SyncVector,
    SYNC_VECTOR
);

impl SyncVector {
    /// The participants ([`SyncParticipant`]), in text order.
    pub fn participants(&self) -> impl Iterator<Item = SyncParticipant> + use<> {
        children(&self.syntax)
    }
}

ast_node!(
    /// `Station(1).cd?`: a process's action label, `?` when weak.
    SyncParticipant,
    SYNC_PARTICIPANT
);

impl SyncParticipant {
    /// `Process.label` as written (normally a `FieldExpr`).
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }
    /// Whether the node is marked `weak`.
    pub fn is_weak(&self) -> bool {
        has_token(&self.syntax, QUESTION)
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
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
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
    /// The formula ([`Expr`]), when the text has it.
    pub fn formula(&self) -> Option<Expr> {
        child(&self.syntax)
    }
    /// The `-->` token of a leads-to check `p --> q`.
    pub fn leads_to_token(&self) -> Option<SyntaxToken> {
        self.syntax
            .children_with_tokens()
            .filter_map(SyntaxElement::into_token)
            .find(|t| t.kind() == LEADS_TO)
    }
    /// `q` in `p --> q` (the second formula).
    pub fn target(&self) -> Option<Expr> {
        self.syntax.children().filter_map(Expr::cast).nth(1)
    }
}

// ------------------------------------------------------------------ functions

ast_node!(
    /// `int f(const int a, int &b) { … }`, `void g() { … }`
    Function,
    FUNCTION
);

impl Function {
    /// `void`: the function has no result.
    pub fn is_void(&self) -> bool {
        has_token(&self.syntax, VOID_KW)
    }
    /// The result type (none for `void`).
    pub fn ret_type(&self) -> Option<Type> {
        child(&self.syntax)
    }
    /// Whether the node is marked `const`.
    pub fn is_const(&self) -> bool {
        has_token(&self.syntax, CONST_KW)
    }
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The param list ([`ParamList`]), when the text has it.
    pub fn param_list(&self) -> Option<ParamList> {
        child(&self.syntax)
    }
    /// The params ([`Param`]), in text order.
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        self.param_list()
            .into_iter()
            .flat_map(|list| children::<Param>(&list.syntax))
    }
    /// The body ([`Block`]), when the text has it.
    pub fn body(&self) -> Option<Block> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `{ statements }`
    Block,
    BLOCK
);

impl Block {
    /// The statements ([`Stmt`]), in text order.
    pub fn statements(&self) -> impl Iterator<Item = Stmt> + use<> {
        children(&self.syntax)
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
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `if (c) s else t`
    IfStmt,
    IF_STMT
);

impl IfStmt {
    /// The condition ([`Expr`]), when the text has it.
    pub fn condition(&self) -> Option<Expr> {
        child(&self.syntax)
    }
    /// The then branch ([`Stmt`]), when the text has it.
    pub fn then_branch(&self) -> Option<Stmt> {
        child(&self.syntax)
    }
    /// The else branch ([`Stmt`]), when the text has it.
    pub fn else_branch(&self) -> Option<Stmt> {
        let e = self.syntax.children().find(|c| c.kind() == ELSE_BRANCH)?;
        child(&e)
    }
}

ast_node!(
    /// `while (c) s`
    WhileStmt,
    WHILE_STMT
);

impl WhileStmt {
    /// The condition ([`Expr`]), when the text has it.
    pub fn condition(&self) -> Option<Expr> {
        child(&self.syntax)
    }
    /// The body ([`Stmt`]), when the text has it.
    pub fn body(&self) -> Option<Stmt> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `do s while (c);`
    DoStmt,
    DO_STMT
);

impl DoStmt {
    /// The body ([`Stmt`]), when the text has it.
    pub fn body(&self) -> Option<Stmt> {
        child(&self.syntax)
    }
    /// The condition ([`Expr`]), when the text has it.
    pub fn condition(&self) -> Option<Expr> {
        child_after(&self.syntax, WHILE_KW)
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
    /// The body ([`Stmt`]), when the text has it.
    pub fn body(&self) -> Option<Stmt> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `for (i : T) s`: one iteration per value of the bounded type `T`.
    ForRangeStmt,
    FOR_RANGE_STMT
);

impl ForRangeStmt {
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The type ([`Type`]), when the text has it.
    pub fn ty(&self) -> Option<Type> {
        child(&self.syntax)
    }
    /// The body ([`Stmt`]), when the text has it.
    pub fn body(&self) -> Option<Stmt> {
        child(&self.syntax)
    }
}

ast_node!(
    /// `return e;` or `return;`
    ReturnStmt,
    RETURN_STMT
);

impl ReturnStmt {
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
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
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
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
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `&&` or `and`
    And,
    /// `||` or `or`
    Or,
    /// `imply`
    Imply,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<?`: the smaller operand
    Min,
    /// `>?`: the larger operand
    Max,
}

impl BinOp {
    /// The operator a token of `kind` spells, if any.
    pub fn from_token(kind: SyntaxKind) -> Option<BinOp> {
        Some(match kind {
            PLUS => BinOp::Add,
            MINUS => BinOp::Sub,
            STAR => BinOp::Mul,
            SLASH => BinOp::Div,
            PERCENT => BinOp::Rem,
            LT => BinOp::Lt,
            LTEQ => BinOp::Le,
            EQ2 => BinOp::Eq,
            NEQ => BinOp::Ne,
            GTEQ => BinOp::Ge,
            GT => BinOp::Gt,
            AMP2 | AND_KW => BinOp::And,
            PIPE2 | OR_KW => BinOp::Or,
            IMPLY_KW => BinOp::Imply,
            AMP => BinOp::BitAnd,
            PIPE => BinOp::BitOr,
            CARET => BinOp::BitXor,
            SHL => BinOp::Shl,
            SHR => BinOp::Shr,
            LT_QUESTION => BinOp::Min,
            GT_QUESTION => BinOp::Max,
            _ => return None,
        })
    }

    /// Whether it is one of `<`, `<=`, `==`, `!=`, `>=`, `>`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Eq | BinOp::Ne | BinOp::Ge | BinOp::Gt
        )
    }
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
    node.children_with_tokens()
        .take_while(|e| e.as_token().is_none_or(|t| t.kind().is_trivia()))
        .filter_map(SyntaxElement::into_node)
        .find_map(Expr::cast)
}

/// The right operand of a binary-like node: the first expression after its
/// operator token `op`.
fn operand_after(op: SyntaxToken) -> Option<Expr> {
    op.siblings_with_tokens(rowan::Direction::Next)
        .filter_map(SyntaxElement::into_node)
        .find_map(Expr::cast)
}

impl BinExpr {
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
    /// The op ([`BinOp`]), when the text has it.
    pub fn op(&self) -> Option<BinOp> {
        BinOp::from_token(self.op_token()?.kind())
    }
}

ast_node!(
    /// `c ? a : b`
    CondExpr,
    COND_EXPR
);

impl CondExpr {
    /// The condition ([`Expr`]), when the text has it.
    pub fn condition(&self) -> Option<Expr> {
        child_before(&self.syntax, QUESTION)
    }
    /// The then branch ([`Expr`]), when the text has it.
    pub fn then_branch(&self) -> Option<Expr> {
        self.syntax
            .children_with_tokens()
            .skip_while(|e| e.kind() != QUESTION)
            .take_while(|e| e.kind() != COLON)
            .filter_map(SyntaxElement::into_node)
            .find_map(Expr::cast)
    }
    /// The else branch ([`Expr`]), when the text has it.
    pub fn else_branch(&self) -> Option<Expr> {
        child_after(&self.syntax, COLON)
    }
}

ast_node!(
    /// `a[i]`
    IndexExpr,
    INDEX_EXPR
);

impl IndexExpr {
    /// The base ([`Expr`]), when the text has it.
    pub fn base(&self) -> Option<Expr> {
        child_before(&self.syntax, L_BRACK)
    }
    /// The index ([`Expr`]), when the text has it.
    pub fn index(&self) -> Option<Expr> {
        child_after(&self.syntax, L_BRACK)
    }
}

ast_node!(
    /// `P1.cs`, `Proc(1).x`
    FieldExpr,
    FIELD_EXPR
);

impl FieldExpr {
    /// The base ([`Expr`]), when the text has it.
    pub fn base(&self) -> Option<Expr> {
        child_before(&self.syntax, DOT)
    }
    /// The field ([`NameRef`]), when the text has it.
    pub fn field(&self) -> Option<NameRef> {
        child_after(&self.syntax, DOT)
    }
}

ast_node!(
    /// `Proc(1)`: an instance reference in a formula.
    CallExpr,
    CALL_EXPR
);

impl CallExpr {
    /// The callee ([`Expr`]), when the text has it.
    pub fn callee(&self) -> Option<Expr> {
        child(&self.syntax)
    }
    /// The arg list ([`ArgList`]), when the text has it.
    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.syntax)
    }
    /// The args ([`Expr`]), in text order.
    pub fn args(&self) -> impl Iterator<Item = Expr> + use<> {
        self.arg_list()
            .into_iter()
            .flat_map(|list| children::<Expr>(&list.syntax))
    }
}

/// A postfix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PostfixOp {
    /// `e++`
    Incr,
    /// `e--`
    Decr,
}

ast_node!(
    /// `v++`, `v--`
    PostfixExpr,
    POSTFIX_EXPR
);

impl PostfixExpr {
    /// The expression ([`Expr`]), when the text has it.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
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
    /// The op ([`AssignOp`]), when the text has it.
    pub fn op(&self) -> Option<AssignOp> {
        AssignOp::from_token(self.op_token()?.kind())
    }
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
    /// The name ([`Name`]), when the text has it.
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// The type ([`Type`]), when the text has it.
    pub fn ty(&self) -> Option<Type> {
        child(&self.syntax)
    }
    /// The body ([`Expr`]), when the text has it.
    pub fn body(&self) -> Option<Expr> {
        child_after(&self.syntax, R_PAREN)
    }
}

//! Name resolution: every name written in a file, mapped to the
//! definition it refers to.
//!
//! Lowering reads it for the ends of edges ([`NameIndex::local_def`]) and
//! the symmetry pass for every name ([`Resolutions::def_of`]); the rest of
//! lowering still resolves names in its own scopes, per instance and into
//! `ir` slots, held to this module's answers by the agreement test
//! ([`agreement_with_lowering`]). Editors need the text: go to definition,
//! references, rename, hover and semantic tokens all start from "which
//! declaration does the name at this offset mean". This module answers that
//! once, from the HIR, with the same scoping rules as lowering:
//!
//! - a template body sees its `select` bindings (innermost), then its
//!   parameters and declarations, then the globals; quantifier bindings
//!   (`forall (i : T)`) shadow everything inside their body;
//! - locations are a namespace of their own, read by edges and by
//!   `Proc(1).cs` / `P1.cs` in checks, where the field may also be a local
//!   variable of that process's template;
//! - `system` entries and the processes of checks and synchronisation
//!   vectors are instances or templates; a partial instantiation's
//!   parameters (`P(const id_t i) = T(i);`) are seen by its arguments;
//! - an action label (`sync go` without `!`/`?`) is "declared" by the first
//!   edge of its template that carries it, so that every use (in the
//!   template and in the vectors) resolves to one place.
//!
//! A template's names are resolved on its own HIR (spans relative to its
//! start) by a query memoised on that HIR, so an edit elsewhere reuses it;
//! [`resolutions`] then makes them absolute. That shift, [`absolute`], is
//! the one place where template-relative spans become file positions.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::db::{SourceFile, item_tree};
use super::hir::{self, Decl, Expr, ExprKind, ItemTree, Template, TemplateItem, TypeRef};
use zeno_ir::Span;

/// What a definition declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefKind {
    /// A global or template-local variable (clocks and channels included).
    Variable,
    /// A `const` variable.
    Constant,
    /// A `typedef` name.
    Typedef,
    /// A template.
    Template,
    /// A parameter of a template, a function or a partial instantiation
    /// (`P(const id_t i) = T(i);`).
    Parameter,
    /// A location of a template.
    Location,
    /// A `select` binding of an edge.
    Select,
    /// The bound variable of `forall`, `exists` or `sum`.
    Quantifier,
    /// `P1 = Proc(1);`
    Instance,
    /// An action label (`sync go`), declared by its first edge.
    Label,
    /// A check's name.
    Check,
    /// A function, global or template-local.
    Function,
    /// A local variable of a function (its parameters are `Parameter`s).
    Local,
    /// A field of a record type (`struct { int a; }`).
    Field,
}

/// Index of a definition in [`Resolutions::defs`].
pub type DefId = u32;

/// One definition, with absolute spans.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Def {
    /// The name as written.
    pub name: String,
    /// What it declares.
    pub kind: DefKind,
    /// The defining occurrence of the name.
    pub span: Span,
    /// An index into the item tree's templates: for a parameter, local,
    /// location, select, label or quantifier binding inside a template,
    /// that template; for a template, itself; for an instance, the
    /// template it instantiates (when there is one of that name).
    pub template: Option<u32>,
}

/// One occurrence of a name: a use, or the definition itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NameRef {
    /// The occurrence.
    pub span: Span,
    /// The definition it names.
    pub def: DefId,
    /// This occurrence is the definition.
    pub is_def: bool,
}

/// Every resolved name of a file, in text order. Names that resolve to
/// nothing (unknown names, `min`/`max`) are not in it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolutions {
    /// Every definition, indexed by [`DefId`].
    pub defs: Vec<Def>,
    /// Sorted by start.
    pub names: Vec<NameRef>,
}

impl Resolutions {
    /// The definition with the given index.
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id as usize]
    }

    /// The name at a byte offset: the one containing it, else one ending
    /// exactly there (a cursor just after a name still means that name).
    pub fn at(&self, offset: u32) -> Option<&NameRef> {
        let first = self.names.partition_point(|n| n.span.end < offset);
        let candidates = self.names[first..]
            .iter()
            .take_while(|n| n.span.start <= offset);
        let mut after = None;
        for n in candidates {
            if offset < n.span.end {
                return Some(n);
            }
            after.get_or_insert(n);
        }
        after
    }

    /// The definition the name `text` written exactly at `span` denotes
    /// (lowering's question: it knows where each name it reads is
    /// written). The text is checked too, so that HIR whose names share a
    /// span finds nothing rather than another name's definition.
    pub fn def_of(&self, span: Span, text: &str) -> Option<&Def> {
        let first = self
            .names
            .partition_point(|n| (n.span.start, n.span.end) < (span.start, span.end));
        self.names[first..]
            .iter()
            .take_while(|n| n.span == span)
            .map(|n| self.def(n.def))
            .find(|d| d.name == text)
    }

    /// Every occurrence of a definition (itself included), in text order.
    pub fn occurrences(&self, def: DefId) -> impl Iterator<Item = &NameRef> {
        self.names.iter().filter(move |n| n.def == def)
    }
}

/// `span` of a template's HIR, as a file position.
pub fn absolute(template: &TemplateItem, span: Span) -> Span {
    span.shifted(template.offset)
}

/// A template's HIR as a query key: equal templates share one resolution
/// wherever they are in the file.
#[salsa::interned]
pub struct TemplateSource<'db> {
    /// The template.
    #[returns(ref)]
    pub template: Arc<Template>,
}

/// Where a name inside a template points.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A definition of the template itself: an index into
    /// [`TemplateNames::defs`].
    Local(u32),
    /// A global declaration of this name, if the file has one.
    Global(String),
    /// A field of a record: the fields read from `root`, outermost first
    /// (`r.inner.c` is `[inner, c]`); this name is the last. Records of
    /// global types only: the fields of the template's own record types
    /// are its definitions (`Local`).
    Field {
        /// Where the chain starts.
        root: FieldRoot,
        /// The fields read, outermost first.
        path: Vec<String>,
    },
}

/// Where a chain of field reads inside a template starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldRoot {
    /// A global variable of this name.
    Global(String),
    /// A local variable or parameter whose type is this global type name.
    Type(String),
}

/// A template's names, spans relative to its start.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TemplateNames {
    /// Each definition of the template: its name, kind and defining span;
    /// [`Target::Local`] indexes these.
    pub defs: Vec<(String, DefKind, Span)>,
    /// Each name occurrence of the template with where it points.
    pub refs: Vec<(Span, Target)>,
}

/// A definition of a template, as lowering keys its symbols: the span of
/// its defining name (relative to the template) and what it declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LocalDef {
    /// The defining occurrence of the name.
    pub span: Span,
    /// What it declares.
    pub kind: DefKind,
}

impl TemplateNames {
    /// The index lowering asks: what the name written at each span denotes.
    pub fn index(&self) -> NameIndex<'_> {
        NameIndex {
            names: self,
            at: self.refs.iter().map(|(s, t)| (*s, t)).collect(),
        }
    }
}

/// A template's resolved names by the span of their use
/// ([`TemplateNames::index`]).
pub struct NameIndex<'a> {
    names: &'a TemplateNames,
    at: FxHashMap<Span, &'a Target>,
}

impl NameIndex<'_> {
    /// The template's own definition the name `text` written at `span`
    /// denotes, if it denotes one (a name the template does not define, or
    /// no name the resolver knows there: `None`). The text is checked too,
    /// so HIR whose names share a span (built by hand) finds nothing
    /// rather than another name's definition.
    pub fn local_def(&self, span: Span, text: &str) -> Option<LocalDef> {
        let Target::Local(id) = self.at.get(&span)? else {
            return None;
        };
        let (name, kind, span) = self.names.defs.get(*id as usize)?;
        (name == text).then_some(LocalDef {
            span: *span,
            kind: *kind,
        })
    }
}

/// Resolves one template's names on its own: its own definitions by index,
/// every other name as a global by text.
#[salsa::tracked(returns(ref))]
pub fn template_names<'db>(
    db: &'db dyn salsa::Database,
    key: TemplateSource<'db>,
) -> TemplateNames {
    resolve_template(key.template(db))
}

/// [`template_names`] without a database (lowering outside one).
pub fn resolve_template(t: &Template) -> TemplateNames {
    TemplateWalk::default().run(t)
}

/// `rs[i].c[j].a` taken apart from the outside in: the fields read
/// (outermost first) and the root, with `index` run on each index on the
/// way. A field whose base `has_fields` refuses is the root.
fn chain_parts<'e, W>(
    w: &mut W,
    e: &'e Expr,
    index: fn(&mut W, &Expr),
    has_fields: impl Fn(&W, &Expr) -> bool,
) -> (Vec<&'e hir::Name>, &'e Expr) {
    let mut fields = Vec::new();
    let mut cur = e;
    loop {
        match &cur.kind {
            ExprKind::Field(b, f) if has_fields(w, b) => {
                fields.push(f);
                cur = b;
            }
            ExprKind::Index(b, i) => {
                index(w, i);
                cur = b;
            }
            _ => return (fields, cur),
        }
    }
}

#[derive(Default)]
struct TemplateWalk {
    out: TemplateNames,
    /// The variable scope, innermost last.
    scope: Vec<(String, u32)>,
    /// Locals and parameters declared with a named type: their type's name.
    local_types: FxHashMap<u32, String>,
    /// The fields of the record types written in the template, by the
    /// span of their `struct { … }`: name, definition, type.
    local_fields: FxHashMap<Span, Vec<(String, u32, TypeRef)>>,
    /// Template typedefs of record types, by definition.
    local_typedefs: FxHashMap<u32, TypeRef>,
    /// Locals and parameters whose record type is the template's own.
    local_records: FxHashMap<u32, TypeRef>,
}

impl TemplateWalk {
    fn run(mut self, t: &Template) -> TemplateNames {
        for p in &t.params {
            self.ty(&p.ty);
            for size in &p.array {
                self.expr(size);
            }
            self.bind(&p.name, DefKind::Parameter);
            self.note_type(&p.name, &p.ty);
        }
        for d in &t.decls {
            self.decl(d);
        }
        let mut locations: FxHashMap<&str, u32> = FxHashMap::default();
        for l in &t.locations {
            let id = self.def(&l.name, DefKind::Location);
            locations.entry(&l.name.text).or_insert(id);
        }
        for l in &t.locations {
            if let Some(inv) = &l.invariant {
                self.expr(inv);
            }
        }
        let mut labels: FxHashMap<&str, u32> = FxHashMap::default();
        for e in &t.edges {
            for end in [&e.source, &e.target] {
                if let Some(&id) = locations.get(end.text.as_str()) {
                    self.out.refs.push((end.span, Target::Local(id)));
                }
            }
            let depth = self.scope.len();
            for s in &e.selects {
                self.ty(&s.ty);
                self.bind(&s.name, DefKind::Select);
            }
            if let Some(g) = &e.guard {
                self.expr(g);
            }
            if let Some(s) = &e.sync {
                self.expr(&s.channel);
            }
            for u in &e.updates {
                self.expr(u);
            }
            self.scope.truncate(depth);
            if let Some(label) = &e.label
                && !label.text.is_empty()
            {
                match labels.get(label.text.as_str()) {
                    Some(&id) => self.out.refs.push((label.span, Target::Local(id))),
                    None => {
                        let id = self.def(label, DefKind::Label);
                        labels.insert(&label.text, id);
                    }
                }
            }
        }
        self.out
    }

    /// Records a definition (and its own occurrence) without binding it.
    fn def(&mut self, name: &hir::Name, kind: DefKind) -> u32 {
        let id = self.out.defs.len() as u32;
        self.out.defs.push((name.text.clone(), kind, name.span));
        self.out.refs.push((name.span, Target::Local(id)));
        id
    }

    fn bind(&mut self, name: &hir::Name, kind: DefKind) {
        if name.text.is_empty() {
            return;
        }
        let id = self.def(name, kind);
        // A duplicate in the same template keeps meaning the first (as
        // lowering reports it); select and quantifier bindings shadow.
        let duplicate = matches!(
            kind,
            DefKind::Parameter
                | DefKind::Variable
                | DefKind::Constant
                | DefKind::Typedef
                | DefKind::Function
        ) && self.scope.iter().any(|(n, _)| *n == name.text);
        if !duplicate {
            self.scope.push((name.text.clone(), id));
        }
    }

    fn decl(&mut self, d: &Decl) {
        match d {
            Decl::Var(v) => {
                self.var_decl(v, DefKind::Variable);
                self.note_type(&v.name, &v.ty);
            }
            Decl::Typedef(t) => {
                self.ty(&t.ty);
                for size in &t.array {
                    self.expr(size);
                }
                self.bind(&t.name, DefKind::Typedef);
                if let Some((n, id)) = self.scope.last()
                    && *n == t.name.text
                {
                    self.local_typedefs.insert(*id, t.ty.clone());
                }
            }
            Decl::Function(f) => {
                // Bound before its body: a call of itself means itself.
                self.bind(&f.name, DefKind::Function);
                self.function_body(f);
            }
        }
    }

    /// A variable's type, sizes and initial value, then its name: a
    /// constant, or `mutable` (a global or a local variable).
    fn var_decl(&mut self, v: &hir::VarDecl, mutable: DefKind) {
        self.ty(&v.ty);
        for e in v.array.iter().chain(&v.init) {
            self.expr(e);
        }
        let kind = if v.is_const {
            DefKind::Constant
        } else {
            mutable
        };
        self.bind(&v.name, kind);
    }

    /// A function's result type, parameters and body (not its name).
    fn function_body(&mut self, f: &hir::Function) {
        if let Some(t) = &f.ret {
            self.ty(t);
        }
        let depth = self.scope.len();
        for p in &f.params {
            self.ty(&p.ty);
            for size in &p.array {
                self.expr(size);
            }
            self.bind(&p.name, DefKind::Parameter);
        }
        self.stmts(&f.body);
        self.scope.truncate(depth);
    }

    /// A block: its declarations are visible to its end.
    fn stmts(&mut self, stmts: &[hir::Stmt]) {
        let depth = self.scope.len();
        for s in stmts {
            self.stmt(s);
        }
        self.scope.truncate(depth);
    }

    fn stmt(&mut self, s: &hir::Stmt) {
        use hir::StmtKind;
        match &s.kind {
            StmtKind::Block(b) => self.stmts(b),
            StmtKind::Decl(Decl::Var(v)) => self.var_decl(v, DefKind::Local),
            StmtKind::Decl(d) => self.decl(d),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.stmts(std::slice::from_ref(t));
                if let Some(e) = e {
                    self.stmts(std::slice::from_ref(e));
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.expr(c);
                self.stmts(std::slice::from_ref(b));
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for e in init.iter().chain(cond).chain(step) {
                    self.expr(e);
                }
                self.stmts(std::slice::from_ref(body));
            }
            StmtKind::ForRange { name, ty, body } => {
                self.ty(ty);
                let depth = self.scope.len();
                self.bind(name, DefKind::Local);
                self.stmts(std::slice::from_ref(body));
                self.scope.truncate(depth);
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::Empty => {}
        }
    }

    /// Remembers the type name of the variable just bound as `name`, for
    /// the fields read from it.
    fn note_type(&mut self, name: &hir::Name, ty: &TypeRef) {
        if let Some((n, id)) = self.scope.last()
            && *n == name.text
            && self.local_record_span(ty).is_some()
        {
            self.local_records.insert(*id, ty.clone());
            return;
        }
        if let (TypeRef::Named(t), Some((n, id))) = (ty, self.scope.last())
            && *n == name.text
            && matches!(self.lookup(&t.text), Target::Global(_))
        {
            self.local_types.insert(*id, t.text.clone());
        }
    }

    /// `a.f`, `rs[i].c[j]`: the names in the indices and the root, then
    /// every field read, resolved by the file once the root's type is known.
    fn field_chain(&mut self, e: &Expr) {
        let (mut fields, cur) = chain_parts(self, e, Self::expr, |_, _| true);
        self.expr(cur);
        let ExprKind::Name(n) = &cur.kind else {
            return;
        };
        fields.reverse();
        let root = match self.lookup(n) {
            Target::Global(g) => FieldRoot::Global(g),
            Target::Local(id) => match self.local_types.get(&id) {
                Some(t) => FieldRoot::Type(t.clone()),
                None => return self.local_field_chain(id, &fields),
            },
            Target::Field { .. } => return,
        };
        for k in 0..fields.len() {
            if fields[k].text.is_empty() {
                break;
            }
            let path = fields[..=k].iter().map(|f| f.text.clone()).collect();
            self.out.refs.push((
                fields[k].span,
                Target::Field {
                    root: root.clone(),
                    path,
                },
            ));
        }
    }

    fn lookup(&self, name: &str) -> Target {
        match self.scope.iter().rev().find(|(n, _)| n == name) {
            Some((_, id)) => Target::Local(*id),
            None => Target::Global(name.to_string()),
        }
    }

    fn ty(&mut self, ty: &TypeRef) {
        match ty {
            TypeRef::Int { range: Some(r), .. } => {
                self.expr(&r.0);
                self.expr(&r.1);
            }
            TypeRef::Named(n) if !n.text.is_empty() => {
                let target = self.lookup(&n.text);
                self.out.refs.push((n.span, target));
            }
            TypeRef::Scalar { size, .. } => self.expr(size),
            // The names in the fields' types and sizes, and the fields
            // themselves (once per record type: `struct { … } a, b;`
            // shares one).
            TypeRef::Struct { fields, span } => {
                let new = !self.local_fields.contains_key(span);
                let mut defs = Vec::new();
                for f in fields {
                    self.ty(&f.ty);
                    for size in &f.array {
                        self.expr(size);
                    }
                    if new && !f.name.text.is_empty() {
                        let id = self.def(&f.name, DefKind::Field);
                        defs.push((f.name.text.clone(), id, f.ty.clone()));
                    }
                }
                if new {
                    self.local_fields.insert(*span, defs);
                }
            }
            _ => {}
        }
    }

    /// The `struct` span of a record type written in this template
    /// (directly or through the template's typedefs).
    fn local_record_span<'a>(&'a self, mut ty: &'a TypeRef) -> Option<Span> {
        for _ in 0..16 {
            match ty {
                TypeRef::Struct { span, .. } if self.local_fields.contains_key(span) => {
                    return Some(*span);
                }
                TypeRef::Named(n) => match self.lookup(&n.text) {
                    Target::Local(id) => ty = self.local_typedefs.get(&id)?,
                    _ => return None,
                },
                _ => return None,
            }
        }
        None
    }

    /// `r.inner.c` on a record of the template's own type: each field to
    /// its definition, as far as the types are the template's.
    fn local_field_chain(&mut self, root: u32, fields: &[&hir::Name]) {
        let Some(mut ty) = self.local_records.get(&root).cloned() else {
            return;
        };
        for f in fields {
            let Some(span) = self.local_record_span(&ty) else {
                return;
            };
            let Some((_, id, fty)) = self
                .local_fields
                .get(&span)
                .and_then(|v| v.iter().find(|x| x.0 == f.text))
                .cloned()
            else {
                return;
            };
            self.out.refs.push((f.span, Target::Local(id)));
            ty = fty;
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Name(n) => {
                let target = self.lookup(n);
                self.out.refs.push((e.span, target));
            }
            ExprKind::Quant(_, name, ty, body) => {
                self.ty(ty);
                let depth = self.scope.len();
                self.bind(name, DefKind::Quantifier);
                self.expr(body);
                self.scope.truncate(depth);
            }
            ExprKind::Call(f, args) => {
                let target = self.lookup(&f.text);
                self.out.refs.push((f.span, target));
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Field(..) => self.field_chain(e),
            // `P1.x` has no meaning inside a template; `min`/`max` are
            // built in: only their operands hold names.
            _ => for_each_child(e, |c| self.expr(c)),
        }
    }
}

/// Calls `f` on the direct subexpressions of `e` (a quantifier's body
/// included; its binding is the caller's business).
pub(crate) fn for_each_child(e: &Expr, mut f: impl FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            f(a);
            f(b);
        }
        ExprKind::Field(a, _)
        | ExprKind::Unary(_, a)
        | ExprKind::Incr(a, _)
        | ExprKind::Rate(a) => f(a),
        ExprKind::Call(_, args) => args.iter().for_each(f),
        ExprKind::ProcessCall(a, _, args) => {
            f(a);
            args.iter().for_each(f);
        }
        ExprKind::Cond(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        ExprKind::Quant(_, _, _, body) => f(body),
        ExprKind::List(items) => items.iter().for_each(f),
        // Leaves, and expression kinds added later: no names known here.
        _ => {}
    }
}

/// Every name of the file resolved, with absolute spans.
#[salsa::tracked(returns(ref))]
pub fn resolutions(db: &dyn salsa::Database, file: SourceFile) -> Arc<Resolutions> {
    let tree = item_tree(db, file).tree.clone();
    let templates: Vec<&TemplateNames> = tree
        .templates
        .iter()
        .map(|t| template_names(db, TemplateSource::new(db, t.data.clone())))
        .collect();
    Arc::new(FileWalk::new(&tree).run(&templates))
}

/// [`resolutions`] of an item tree, without a database (lowering).
pub fn resolve_file(tree: &ItemTree) -> Resolutions {
    let templates: Vec<TemplateNames> = tree
        .templates
        .iter()
        .map(|t| resolve_template(&t.data))
        .collect();
    FileWalk::new(tree).run(&templates.iter().collect::<Vec<_>>())
}

struct FileWalk<'a> {
    tree: &'a ItemTree,
    out: Resolutions,
    globals: FxHashMap<&'a str, DefId>,
    templates: FxHashMap<&'a str, (DefId, usize)>,
    instances: FxHashMap<&'a str, DefId>,
    /// Quantifier bindings in a check formula, innermost last.
    scope: Vec<(String, DefId)>,
    /// Per template: its first definition's id, so that a local index
    /// becomes a file-wide one.
    template_base: Vec<DefId>,
    /// The fields of every global record type, by the span of its
    /// `struct { … }`.
    fields: FxHashMap<Span, Vec<(&'a str, DefId, &'a TypeRef)>>,
}

impl<'a> FileWalk<'a> {
    fn new(tree: &'a ItemTree) -> FileWalk<'a> {
        FileWalk {
            tree,
            out: Resolutions::default(),
            globals: FxHashMap::default(),
            templates: FxHashMap::default(),
            instances: FxHashMap::default(),
            scope: Vec::new(),
            template_base: Vec::new(),
            fields: FxHashMap::default(),
        }
    }

    /// Defines the fields of the record types in `ty` (nested ones too).
    fn define_fields(&mut self, ty: &'a TypeRef) {
        let TypeRef::Struct { fields, span } = ty else {
            return;
        };
        let mut defs = Vec::new();
        for f in fields {
            if !f.name.text.is_empty() {
                let id = self.def(&f.name.text, DefKind::Field, f.name.span, None);
                defs.push((f.name.text.as_str(), id, &f.ty));
            }
            self.define_fields(&f.ty);
        }
        self.fields.insert(*span, defs);
    }

    /// The record type `ty` stands for, through global typedefs.
    fn record_of(&self, mut ty: &'a TypeRef) -> Option<Span> {
        // A typedef cycle is an error elsewhere; stop after a few steps.
        for _ in 0..16 {
            match ty {
                TypeRef::Struct { span, .. } => return Some(*span),
                TypeRef::Named(n) => {
                    ty = self.tree.globals.iter().find_map(|d| match d {
                        Decl::Typedef(t) if t.name.text == n.text => Some(&t.ty),
                        _ => None,
                    })?;
                }
                _ => return None,
            }
        }
        None
    }

    /// The field `path` names, read from a value of type `ty`.
    fn field_def(&self, mut ty: &'a TypeRef, path: &[String]) -> Option<DefId> {
        let mut def = None;
        for name in path {
            let record = self.record_of(ty)?;
            let (_, id, fty) = self.fields.get(&record)?.iter().find(|f| f.0 == name)?;
            def = Some(*id);
            ty = fty;
        }
        def
    }

    /// Whether `e` is a name of a global variable or constant (not a
    /// process, not a quantifier binding).
    fn is_global_data(&self, e: &Expr) -> bool {
        let ExprKind::Name(n) = &e.kind else {
            return false;
        };
        !self.scope.iter().any(|(s, _)| s == n)
            && self.globals.get(n.as_str()).is_some_and(|&id| {
                matches!(
                    self.out.defs[id as usize].kind,
                    DefKind::Variable | DefKind::Constant
                )
            })
    }

    /// Whether `e` names data where it is written outside templates (a
    /// quantifier binding or a partial instantiation's parameter in scope,
    /// else a global variable or constant): such a name hides a process of
    /// the same name, as in lowering's scopes, so under `exists (P1 : …)`
    /// `P1.b` reads a field of the binding, not process `P1`'s location.
    fn is_data_name(&self, e: &Expr) -> bool {
        let ExprKind::Name(n) = &e.kind else {
            return false;
        };
        self.lookup(n).is_some_and(|id| {
            matches!(
                self.out.defs[id as usize].kind,
                DefKind::Variable | DefKind::Constant | DefKind::Quantifier | DefKind::Parameter
            )
        })
    }

    /// `r.a`, `rs[i].c[j]` in a check: the names in the indices and the
    /// root, and the fields when the root is a global record. A chain that
    /// starts at a process (`P1.r.a`) resolves its first step only.
    fn field_chain(&mut self, e: &Expr) {
        let is_data = |w: &Self, b: &Expr| {
            !matches!(b.kind, ExprKind::Name(_) | ExprKind::Call(..)) || w.is_data_name(b)
        };
        let (mut fields, cur) = chain_parts(self, e, Self::expr, is_data);
        self.expr(cur);
        if !self.is_global_data(cur) {
            return;
        }
        let ExprKind::Name(n) = &cur.kind else {
            return;
        };
        fields.reverse();
        let root = FieldRoot::Global(n.clone());
        for k in 0..fields.len() {
            let path: Vec<String> = fields[..=k].iter().map(|f| f.text.clone()).collect();
            let def = self.template_field(&root, &path);
            self.refer(fields[k].span, def);
        }
    }

    /// The field a template's `Target::Field` names.
    fn template_field(&self, root: &FieldRoot, path: &[String]) -> Option<DefId> {
        let ty = match root {
            FieldRoot::Global(name) => self.tree.globals.iter().find_map(|d| match d {
                Decl::Var(v) if v.name.text == *name => Some(&v.ty),
                _ => None,
            })?,
            FieldRoot::Type(name) => {
                return self.field_def_from_type(name, path);
            }
        };
        self.field_def(ty, path)
    }

    fn field_def_from_type(&self, name: &str, path: &[String]) -> Option<DefId> {
        let ty = self.tree.globals.iter().find_map(|d| match d {
            Decl::Typedef(t) if t.name.text == name => Some(&t.ty),
            _ => None,
        })?;
        self.field_def(ty, path)
    }

    fn def(&mut self, name: &str, kind: DefKind, span: Span, template: Option<u32>) -> DefId {
        let id = self.out.defs.len() as DefId;
        self.out.defs.push(Def {
            name: name.to_string(),
            kind,
            span,
            template,
        });
        self.out.names.push(NameRef {
            span,
            def: id,
            is_def: true,
        });
        id
    }

    fn refer(&mut self, span: Span, def: Option<DefId>) {
        if let Some(def) = def {
            self.out.names.push(NameRef {
                span,
                def,
                is_def: false,
            });
        }
    }

    fn run(mut self, templates: &[&TemplateNames]) -> Resolutions {
        let tree = self.tree;
        // Definitions first: globals may be used before they are declared
        // in broken text, and templates refer to one another's names only
        // through globals.
        for d in &tree.globals {
            let n = d.name();
            if n.text.is_empty() {
                continue;
            }
            let id = self.def(&n.text, decl_kind(d), n.span, None);
            self.globals.entry(&n.text).or_insert(id);
        }
        for d in &tree.globals {
            match d {
                Decl::Var(v) => self.define_fields(&v.ty),
                Decl::Typedef(t) => self.define_fields(&t.ty),
                Decl::Function(_) => {}
            }
        }
        for (k, t) in tree.templates.iter().enumerate() {
            let n = &t.data.name;
            let id = self.def(
                &n.text,
                DefKind::Template,
                absolute(t, n.span),
                Some(k as u32),
            );
            if !n.text.is_empty() {
                self.templates.entry(&n.text).or_insert((id, k));
            }
        }
        for i in &tree.instances {
            if !i.name.text.is_empty() {
                let t = self
                    .templates
                    .get(i.template.text.as_str())
                    .map(|t| t.1 as u32);
                let id = self.def(&i.name.text, DefKind::Instance, i.name.span, t);
                self.instances.entry(&i.name.text).or_insert(id);
            }
        }
        for c in &tree.checks {
            if !c.name.text.is_empty() {
                self.def(&c.name.text, DefKind::Check, c.name.span, None);
            }
        }
        // Each template's own definitions, then its references.
        for (k, (t, names)) in tree.templates.iter().zip(templates).enumerate() {
            let base = self.out.defs.len() as DefId;
            self.template_base.push(base);
            for (name, kind, span) in &names.defs {
                self.out.defs.push(Def {
                    name: name.clone(),
                    kind: *kind,
                    span: absolute(t, *span),
                    template: Some(k as u32),
                });
            }
            for (span, target) in &names.refs {
                let (def, is_def) = match target {
                    Target::Local(i) => {
                        let def = base + i;
                        (Some(def), names.defs[*i as usize].2 == *span)
                    }
                    Target::Global(name) => (self.globals.get(name.as_str()).copied(), false),
                    Target::Field { root, path } => (self.template_field(root, path), false),
                };
                if let Some(def) = def {
                    self.out.names.push(NameRef {
                        span: absolute(t, *span),
                        def,
                        is_def,
                    });
                }
            }
        }
        for d in &tree.globals {
            match d {
                Decl::Var(v) => {
                    self.ty(&v.ty);
                    for e in v.array.iter().chain(&v.init) {
                        self.expr(e);
                    }
                }
                Decl::Typedef(t) => {
                    self.ty(&t.ty);
                    for e in &t.array {
                        self.expr(e);
                    }
                }
                Decl::Function(f) => self.global_function(f),
            }
        }
        for i in &tree.instances {
            let t = self.templates.get(i.template.text.as_str()).map(|t| t.0);
            self.refer(i.template.span, t);
            // A partial instantiation's parameters, `P(const id_t i) =
            // T(i);`: seen by its arguments.
            let depth = self.scope.len();
            for p in &i.params {
                self.ty(&p.ty);
                for size in &p.array {
                    self.expr(size);
                }
                if !p.name.text.is_empty() {
                    let id = self.def(&p.name.text, DefKind::Parameter, p.name.span, None);
                    self.scope.push((p.name.text.clone(), id));
                }
            }
            for a in &i.args {
                self.expr(a);
            }
            self.scope.truncate(depth);
        }
        for n in &tree.system {
            let def = self.process_def(&n.text).map(|(d, _)| d);
            self.refer(n.span, def);
        }
        for p in &tree.priorities {
            for (e, _) in &p.entries {
                if let hir::PriorityEntry::Channel(e) = e {
                    self.expr(e);
                }
            }
        }
        for v in &tree.vectors {
            for p in &v.participants {
                let t = self.process(&p.process);
                let label = t.and_then(|k| self.label(k, &p.label.text));
                self.refer(p.label.span, label);
            }
        }
        for c in &tree.checks {
            self.expr(&c.formula);
            for e in c.target.iter().chain(&c.terms) {
                self.expr(e);
            }
        }
        self.out.names.sort_by_key(|n| (n.span.start, n.span.end));
        self.out.names.dedup();
        self.out
    }

    /// An instance or a template of this name, with the template's index.
    fn process_def(&self, name: &str) -> Option<(DefId, Option<usize>)> {
        let id = match self.instances.get(name) {
            Some(&id) => id,
            None => self.templates.get(name)?.0,
        };
        Some((id, self.out.defs[id as usize].template.map(|k| k as usize)))
    }

    /// Resolves a process reference (`P1`, `Proc`, `Proc(1)`), returning
    /// the index of its template.
    fn process(&mut self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Name(n) => {
                let found = self.process_def(n);
                self.refer(e.span, found.map(|f| f.0));
                found.and_then(|f| f.1)
            }
            ExprKind::Call(name, args) => {
                // A template's process, or a partial instance's
                // (`P(const id_t i) = T(i);` names them `P(1)`): instances
                // first, as the `system` line reads its names, so a
                // partial instance named like a template is the one whose
                // processes exist.
                let found = self.process_def(&name.text);
                self.refer(name.span, found.map(|f| f.0));
                for a in args {
                    self.expr(a);
                }
                found.and_then(|f| f.1)
            }
            _ => {
                self.expr(e);
                None
            }
        }
    }

    /// A definition of template `k` of the given kinds and name.
    fn member(&self, k: usize, name: &str, kinds: &[DefKind]) -> Option<DefId> {
        let start = *self.template_base.get(k)?;
        let end = self
            .template_base
            .get(k + 1)
            .copied()
            .unwrap_or(self.out.defs.len() as DefId);
        kinds.iter().find_map(|kind| {
            (start..end).find(|&id| {
                let d = &self.out.defs[id as usize];
                d.kind == *kind && d.name == name
            })
        })
    }

    fn label(&self, k: usize, name: &str) -> Option<DefId> {
        self.member(k, name, &[DefKind::Label])
    }

    /// A global function's parameters, locals and the names in its body,
    /// walked as a template's are (spans are already absolute).
    fn global_function(&mut self, f: &hir::Function) {
        let mut walk = TemplateWalk::default();
        walk.function_body(f);
        let names = walk.out;
        let base = self.out.defs.len() as DefId;
        for (name, kind, span) in &names.defs {
            self.out.defs.push(Def {
                name: name.clone(),
                kind: *kind,
                span: *span,
                template: None,
            });
        }
        for (span, target) in &names.refs {
            let (def, is_def) = match target {
                Target::Local(i) => (Some(base + i), names.defs[*i as usize].2 == *span),
                Target::Global(name) => (self.globals.get(name.as_str()).copied(), false),
                Target::Field { root, path } => (self.template_field(root, path), false),
            };
            if let Some(def) = def {
                self.out.names.push(NameRef {
                    span: *span,
                    def,
                    is_def,
                });
            }
        }
    }

    fn lookup(&self, name: &str) -> Option<DefId> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
            .or_else(|| self.globals.get(name).copied())
    }

    fn ty(&mut self, ty: &TypeRef) {
        match ty {
            TypeRef::Int { range: Some(r), .. } => {
                self.expr(&r.0);
                self.expr(&r.1);
            }
            TypeRef::Named(n) => {
                let def = self.globals.get(n.text.as_str()).copied();
                self.refer(n.span, def);
            }
            TypeRef::Scalar { size, .. } => self.expr(size),
            // The names in the fields' types and sizes.
            TypeRef::Struct { fields, .. } => {
                for f in fields {
                    self.ty(&f.ty);
                    for size in &f.array {
                        self.expr(size);
                    }
                }
            }
            _ => {}
        }
    }

    /// An expression outside templates: globals, quantifier bindings, and
    /// `P.x` / `Proc(1).cs` naming a process's location or variable.
    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Name(n) => {
                let def = self.lookup(n);
                self.refer(e.span, def);
            }
            ExprKind::Field(base, _)
                if !matches!(base.kind, ExprKind::Name(_) | ExprKind::Call(..))
                    || self.is_data_name(base) =>
            {
                self.field_chain(e)
            }
            ExprKind::Field(base, field) => {
                let member = self.process(base).and_then(|k| {
                    self.member(
                        k,
                        &field.text,
                        &[
                            DefKind::Location,
                            DefKind::Variable,
                            DefKind::Constant,
                            DefKind::Parameter,
                        ],
                    )
                });
                self.refer(field.span, member);
            }
            ExprKind::ProcessCall(base, function, args) => {
                // `P(1).f()`: the process, then its template's function.
                let member = self
                    .process(base)
                    .and_then(|k| self.member(k, &function.text, &[DefKind::Function]));
                self.refer(function.span, member);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Call(name, args) => {
                // `Proc(1)` alone is a process, `f(x)` a global function's
                // call; `min`/`max` are built in.
                let t = self
                    .templates
                    .get(name.text.as_str())
                    .map(|t| t.0)
                    .or_else(|| self.globals.get(name.text.as_str()).copied());
                self.refer(name.span, t);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Quant(_, name, ty, body) => {
                self.ty(ty);
                let depth = self.scope.len();
                if !name.text.is_empty() {
                    let id = self.def(&name.text, DefKind::Quantifier, name.span, None);
                    self.scope.push((name.text.clone(), id));
                }
                self.expr(body);
                self.scope.truncate(depth);
            }
            _ => for_each_child(e, |c| self.expr(c)),
        }
    }
}

fn decl_kind(d: &Decl) -> DefKind {
    match d {
        Decl::Var(v) if v.is_const => DefKind::Constant,
        Decl::Var(_) => DefKind::Variable,
        Decl::Typedef(_) => DefKind::Typedef,
        Decl::Function(_) => DefKind::Function,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::AnalysisHost;
    use crate::db::Database;

    #[test]
    fn an_edit_in_one_template_resolves_only_that_template_again() {
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let l = log.clone();
        let db = Database::with_event_callback(Box::new(move |event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind
                && let Ok(mut log) = l.lock()
            {
                log.push(format!("{database_key:?}"));
            }
        }));
        let mut host = AnalysisHost::with_database(db);
        let model = |bound: u32| {
            format!(
                "int n;\ntemplate A() {{ init location a; a -> a do n = 1; }}\n\
                 template B() {{ clock x; init location b invariant x <= {bound}; }}\n\
                 system A, B;\n"
            )
        };
        let runs = |log: &Mutex<Vec<String>>| {
            std::mem::take(&mut *log.lock().unwrap())
                .iter()
                .filter(|k| k.starts_with("template_names("))
                .count()
        };
        host.set_text(&model(5));
        let first = host.resolutions();
        assert_eq!(runs(&log), 2);
        // Only B changes (5 becomes 7, same length): only B runs again.
        host.set_text(&model(7));
        let second = host.resolutions();
        assert_eq!(runs(&log), 1);
        // A's names are unchanged, at the same places: `n` in A still
        // points at the global.
        let text = model(7);
        let use_n = text.find("n = 1").unwrap() as u32;
        let def = second.def(second.at(use_n).unwrap().def);
        assert_eq!((def.kind, def.span), (DefKind::Variable, Span::new(4, 5)));
        assert_eq!(first.names.len(), second.names.len());
    }

    /// Lowering and the IDE read one memo: lowering a model with a scalar
    /// set resolves each template once (its check, its instances and the
    /// symmetry pass share it) and the file once, and the IDE's request
    /// afterwards runs nothing again.
    #[test]
    fn lowering_and_the_ide_share_one_resolution() {
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let l = log.clone();
        let db = Database::with_event_callback(Box::new(move |event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind
                && let Ok(mut log) = l.lock()
            {
                log.push(format!("{database_key:?}"));
            }
        }));
        let mut host = AnalysisHost::with_database(db);
        host.set_text(
            "typedef scalar[2] id_t;\nint[0, 1] c[id_t];\n\
             template P(const id_t i) { init location l; l -> l do c[i] = 1; }\n\
             template Q() { init location q; }\nsystem P, Q;\n",
        );
        // How many times each resolving query ran since the last look.
        let runs = || {
            let keys = std::mem::take(&mut *log.lock().unwrap());
            let count = |query: &str| keys.iter().filter(|k| k.starts_with(query)).count();
            (count("template_names("), count("resolutions("))
        };
        assert!(host.network().is_some());
        assert_eq!(runs(), (2, 1));
        assert!(host.resolutions().names.len() > 10);
        assert_eq!(runs(), (0, 0));
    }

    /// The span of `len` bytes at `skip` bytes into the first occurrence of
    /// `pattern` in `text`.
    fn at(text: &str, pattern: &str, skip: u32, len: u32) -> Span {
        let start = text
            .find(pattern)
            .unwrap_or_else(|| panic!("no `{pattern}`")) as u32
            + skip;
        Span::new(start, start + len)
    }

    /// The kind and defining span of what the name at `span` denotes.
    fn denotes(text: &str, span: Span) -> (DefKind, Span) {
        let mut host = AnalysisHost::new();
        host.set_text(text);
        let r = host.resolutions();
        let name = r
            .at(span.start)
            .unwrap_or_else(|| panic!("nothing at {span:?}"));
        assert_eq!(name.span, span, "the name found at {span:?}");
        let def = r.def(name.def);
        (def.kind, def.span)
    }

    // The scoping cases where a name could mean two things, each with the
    // answer worked out from the language's rules (docs/language.md).

    #[test]
    fn a_function_local_shadows_the_template_and_global_variables() {
        let text = "int x;\ntemplate T() {\n  int x;\n  void f() { int x = 1; x = 2; }\n  \
                    init location a;\n  a -> a do f(), x = 3;\n}\nsystem T;\n";
        let local = at(text, "x = 1", 0, 1);
        assert_eq!(
            denotes(text, at(text, "x = 2", 0, 1)),
            (DefKind::Local, local)
        );
        // Outside the function the template's own `x` hides the global.
        let template_x = at(text, "int x;\n  void", 4, 1);
        let edge_x = at(text, "x = 3", 0, 1);
        assert_eq!(denotes(text, edge_x), (DefKind::Variable, template_x));
    }

    #[test]
    fn a_select_named_like_a_global_hides_it_on_its_edge_only() {
        let text = "int j;\nint k;\ntemplate T() {\n  init location a;\n  \
                    a -> a select j : int[0, 1] do k = j;\n  a -> a do k = j + 1;\n}\nsystem T;\n";
        let select = at(text, "j : int", 0, 1);
        assert_eq!(
            denotes(text, at(text, "k = j;", 4, 1)),
            (DefKind::Select, select)
        );
        let global = at(text, "int j", 4, 1);
        assert_eq!(
            denotes(text, at(text, "j + 1", 0, 1)),
            (DefKind::Variable, global)
        );
    }

    #[test]
    fn a_parameter_named_like_a_template_is_the_parameter_inside() {
        let text = "template U() { init location u; }\n\
                    template T(const int[0, 3] U) {\n  int[0, 3] y = U;\n  init location a;\n}\n\
                    T1 = T(1);\nsystem T1, U;\n";
        let param = at(text, "U) {", 0, 1);
        assert_eq!(
            denotes(text, at(text, "= U;", 2, 1)),
            (DefKind::Parameter, param)
        );
        // In the system line it is the template.
        let template = at(text, "U()", 0, 1);
        assert_eq!(
            denotes(text, at(text, ", U;", 2, 1)),
            (DefKind::Template, template)
        );
    }

    #[test]
    fn a_quantifier_inside_a_function_hides_a_global_of_its_name() {
        let text = "int i;\nint a[3];\nbool f() { return forall (i : int[0, 2]) a[i] == i; }\n\
                    template T() { init location l; l -> l when f() do i = 1; }\nsystem T;\n";
        let binding = at(text, "i : int", 0, 1);
        assert_eq!(
            denotes(text, at(text, "a[i]", 2, 1)),
            (DefKind::Quantifier, binding)
        );
        assert_eq!(
            denotes(text, at(text, "== i", 3, 1)),
            (DefKind::Quantifier, binding)
        );
        let global = at(text, "int i", 4, 1);
        assert_eq!(
            denotes(text, at(text, "i = 1", 0, 1)),
            (DefKind::Variable, global)
        );
    }

    #[test]
    fn a_partial_instantiation_parameter_hides_a_global_in_its_arguments() {
        let text = "typedef int[0, 1] id_t;\nint i;\n\
                    template T(const id_t a) { init location l; l -> l do i = a; }\n\
                    P(const id_t i) = T(i);\nsystem P;\n";
        let param = at(text, "id_t i)", 5, 1);
        assert_eq!(
            denotes(text, at(text, "T(i)", 2, 1)),
            (DefKind::Parameter, param)
        );
        let global = at(text, "int i", 4, 1);
        assert_eq!(
            denotes(text, at(text, "i = a", 0, 1)),
            (DefKind::Variable, global)
        );
    }

    #[test]
    fn an_edge_names_the_first_location_of_a_repeated_name() {
        let text = "template T() {\n  init location a;\n  location b;\n  location a;\n  \
                    a -> b;\n  b -> a;\n}\nsystem T;\n";
        let first = at(text, "location a", 9, 1);
        assert_eq!(
            denotes(text, at(text, "a -> b", 0, 1)),
            (DefKind::Location, first)
        );
        assert_eq!(
            denotes(text, at(text, "b -> a", 5, 1)),
            (DefKind::Location, first)
        );
        // The template's own index answers lowering the same, by use span.
        let mut host = AnalysisHost::new();
        host.set_text(text);
        let t = &host.item_tree().templates[0];
        let names = resolve_template(&t.data);
        let edge_end = at(text, "b -> a", 5, 1).start - t.offset;
        let def = names
            .index()
            .local_def(Span::new(edge_end, edge_end + 1), "a");
        let first_rel = Span::new(first.start - t.offset, first.end - t.offset);
        assert_eq!(
            def,
            Some(LocalDef {
                span: first_rel,
                kind: DefKind::Location
            })
        );
    }
}

/// How the resolver's answers compare with lowering's on the names written
/// in a text: the two walk the same HIR with the same scoping rules, and
/// the agreement test holds them to it.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Agreement {
    /// The name references lowering looked up and the resolver answered
    /// the same.
    pub agreed: usize,
    /// Of those, how many per kind of definition.
    pub by_kind: FxHashMap<DefKind, usize>,
    /// Of those, how many per way lowering found them: `scope` (looked up
    /// in its scopes, or a location an edge names), `field` (a record's
    /// field, through the record's type) or `member` (a process's location
    /// or variable in a check, through the process).
    pub by_route: FxHashMap<&'static str, usize>,
    /// Each reference where they differ, described with its place.
    pub disagreements: Vec<String>,
}

/// Lowers `text` as the analysis does, recording which declaration each
/// name that lowering looks up in its scopes resolves to (a global by name,
/// anything else by its defining span), each record field it reads (by its
/// record type's fields) and each process member a check names (by the
/// process's template), and compares each with the
/// resolver's answer ([`Resolutions`]) for the same occurrence: every
/// template checked on its own (its declarations, its functions' bodies,
/// locations, edges with their `select` bindings), and the whole network
/// (the global declarations and functions' bodies, the instances'
/// arguments, the checks with their quantifiers). Names inside a call's
/// inlined body are the called function's text, and are compared where
/// that function is declared.
#[doc(hidden)]
pub fn agreement_with_lowering(text: &str) -> Agreement {
    use crate::lower::{Ctx, LoweredName, Mode};
    let mut host = crate::AnalysisHost::new();
    host.set_text(text);
    let tree = host.item_tree();
    let resolved = host.resolutions();
    // The first global declaration of each name: the one lowering's global
    // scope holds.
    let mut globals: FxHashMap<&str, Span> = FxHashMap::default();
    for d in &tree.globals {
        globals.entry(&d.name().text).or_insert(d.name().span);
    }
    let fields = record_fields(&tree);
    let mut out = Agreement::default();
    let mut compare = |lowered: Vec<(Span, LoweredName)>, offset: u32, place: &str| {
        for (span, found) in lowered {
            let at = span.shifted(offset);
            let written = text.get(at.start as usize..at.end as usize).unwrap_or("");
            // Lowering also looks names up at spans that are not the
            // name's own (an initialiser's); the resolver records names
            // where they are written.
            if matches!(&found, LoweredName::Global(name) if written != name) {
                continue;
            }
            let answer = resolved.names.iter().find(|n| n.span == at);
            let def = answer.map(|n| resolved.def(n.def));
            let same = def.is_some_and(|def| match &found {
                LoweredName::Global(name) => globals.get(name.as_str()) == Some(&def.span),
                LoweredName::Local(span) => def.span == span.shifted(offset),
                // The same field of a record type with the same fields.
                LoweredName::Field {
                    fields: names,
                    index,
                } => {
                    def.kind == DefKind::Field
                        && fields.get(&def.span) == Some(&(names.clone(), *index))
                }
                // A location or variable of the same name of the process's
                // template (a partial instance's: the one it instantiates).
                LoweredName::Member { template, location } => {
                    let template = tree
                        .instances
                        .iter()
                        .find(|i| i.name.text == *template)
                        .map_or(template.as_str(), |i| i.template.text.as_str());
                    let kind_ok = match location {
                        true => def.kind == DefKind::Location,
                        false => matches!(
                            def.kind,
                            DefKind::Variable | DefKind::Constant | DefKind::Parameter
                        ),
                    };
                    kind_ok
                        && def.name == written
                        && def
                            .template
                            .and_then(|k| tree.templates.get(k as usize))
                            .is_some_and(|t| t.data.name.text == template)
                }
            });
            if let (true, Some(def)) = (same, def) {
                out.agreed += 1;
                *out.by_kind.entry(def.kind).or_default() += 1;
                let route = match found {
                    LoweredName::Global(_) | LoweredName::Local(_) => "scope",
                    LoweredName::Field { .. } => "field",
                    LoweredName::Member { .. } => "member",
                };
                *out.by_route.entry(route).or_default() += 1;
            } else {
                out.disagreements.push(format!(
                    "`{written}` at {}..{} in {place}: lowering {found:?}, resolver {def:?}",
                    at.start, at.end
                ));
            }
        }
    };
    let scope = host.global_scope();
    for t in &tree.templates {
        let mut ctx = Ctx::with_globals(&scope);
        ctx.names = Some(Vec::new());
        let names = resolve_template(&t.data);
        ctx.template(&t.data, &names, None, &t.data.name.text, 0);
        let place = format!("template {}", t.data.name.text);
        compare(ctx.names.take().unwrap_or_default(), t.offset, &place);
    }
    let mut ctx = Ctx::new(Mode::Lower);
    ctx.names = Some(Vec::new());
    let resolve = || resolved.clone();
    let lower = &mut |req| Arc::new(crate::system::lower_instance(&req));
    let mut ctx = crate::system::lower_network_in(ctx, &tree, &Default::default(), &resolve, lower);
    compare(ctx.names.take().unwrap_or_default(), 0, "the network");
    out
}

/// Every field of every record type written in the file, by the absolute
/// span of its name: the names of its record's fields, in order, and its
/// place among them (what lowering knows of a field it reads).
fn record_fields(tree: &ItemTree) -> FxHashMap<Span, (Vec<String>, usize)> {
    fn ty(t: &TypeRef, offset: u32, out: &mut FxHashMap<Span, (Vec<String>, usize)>) {
        if let TypeRef::Struct { fields, .. } = t {
            let names: Vec<String> = fields.iter().map(|f| f.name.text.clone()).collect();
            for (index, f) in fields.iter().enumerate() {
                out.insert(f.name.span.shifted(offset), (names.clone(), index));
                ty(&f.ty, offset, out);
            }
        }
    }
    fn decl(d: &Decl, offset: u32, out: &mut FxHashMap<Span, (Vec<String>, usize)>) {
        match d {
            Decl::Var(v) => ty(&v.ty, offset, out),
            Decl::Typedef(t) => ty(&t.ty, offset, out),
            Decl::Function(f) => {
                for t in f.ret.iter().chain(f.params.iter().map(|p| &p.ty)) {
                    ty(t, offset, out);
                }
                stmts(&f.body, offset, out);
            }
        }
    }
    fn stmts(body: &[hir::Stmt], offset: u32, out: &mut FxHashMap<Span, (Vec<String>, usize)>) {
        use hir::StmtKind;
        for s in body {
            match &s.kind {
                StmtKind::Block(b) => stmts(b, offset, out),
                StmtKind::Decl(d) => decl(d, offset, out),
                StmtKind::If(_, t, e) => {
                    stmts(std::slice::from_ref(t), offset, out);
                    if let Some(e) = e {
                        stmts(std::slice::from_ref(e), offset, out);
                    }
                }
                StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
                    stmts(std::slice::from_ref(b), offset, out)
                }
                StmtKind::For { body, .. } | StmtKind::ForRange { body, .. } => {
                    stmts(std::slice::from_ref(body), offset, out)
                }
                _ => {}
            }
        }
    }
    let mut out = FxHashMap::default();
    for d in &tree.globals {
        decl(d, 0, &mut out);
    }
    for t in &tree.templates {
        for p in &t.data.params {
            ty(&p.ty, t.offset, &mut out);
        }
        for d in &t.data.decls {
            decl(d, t.offset, &mut out);
        }
    }
    out
}

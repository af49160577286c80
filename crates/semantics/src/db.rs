//! The salsa database and the queries, from text to network.
//!
//! Query graph: `item_tree(file)` → `global_scope(file)` (symbols without
//! spans) → `check_template(TemplateKey)` per template → `file_diagnostics`,
//! and `lowered(file)` for the network. A [`TemplateKey`] interns a
//! template's HIR (spans relative to its start) with the global scope, so an
//! edit in one template leaves every other template's key, and therefore its
//! memoised check, untouched.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::hir::{ItemTree, Template};
use super::lower::{Ctx, GlobalScope, Mode};
use super::system::{InstanceLowered, InstanceRequest};
use zeno_base::diagnostics::{Diagnostic, Severity};
use zeno_ir::{self as ir, Span};

/// The salsa database that holds the source files and memoises the queries.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
}

impl Database {
    /// A database that reports every salsa event to `callback` (tests use it
    /// to count which queries re-execute).
    pub fn with_event_callback(
        callback: Box<dyn Fn(salsa::Event) + Send + Sync + 'static>,
    ) -> Database {
        Database {
            storage: salsa::Storage::new(Some(callback)),
        }
    }
}

#[salsa::db]
impl salsa::Database for Database {}

/// A model file's text: the input every query starts from.
#[salsa::input]
pub struct SourceFile {
    /// The file's text.
    #[returns(ref)]
    pub text: String,
}

/// The file's item tree with the syntax diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileItems {
    /// The item tree, positions relative to the text read (the chunk, for
    /// [`chunk_items`]).
    pub tree: Arc<ItemTree>,
    /// The syntax diagnostics, positioned like the tree.
    pub syntax_diagnostics: Vec<Diagnostic>,
}

/// The text of one chunk of a file (see [`super::chunks`]).
#[salsa::interned]
pub struct Chunk<'db> {
    /// The chunk's text.
    #[returns(ref)]
    pub text: String,
}

/// Lowers one chunk's parse to HIR, spans relative to the chunk: equal
/// chunk texts share one memo wherever they are in the file, and the
/// parse is the one the tools read ([`super::parsed::chunk_parse`]), so an
/// edited chunk is parsed once.
#[salsa::tracked(returns(ref))]
pub fn chunk_items<'db>(db: &'db dyn salsa::Database, chunk: Chunk<'db>) -> FileItems {
    let (tree, syntax_diagnostics) =
        super::from_ast::lower_parse(super::parsed::chunk_parse(db, chunk));
    FileItems {
        tree: Arc::new(tree),
        syntax_diagnostics,
    }
}

/// The item tree of a file, assembled from its chunks' memoised trees, with
/// the syntax diagnostics.
#[salsa::tracked(returns(ref))]
pub fn item_tree(db: &dyn salsa::Database, file: SourceFile) -> FileItems {
    use super::chunks;
    let text = file.text(db);
    let mut tree = ItemTree::default();
    let mut syntax_diagnostics = Vec::new();
    let pieces = chunks::split(text);
    for (k, &(start, end)) in pieces.iter().enumerate() {
        let piece = text.get(start as usize..end as usize).unwrap_or_default();
        let items = chunk_items(db, Chunk::new(db, piece.to_string()));
        chunks::append(&mut tree, &items.tree, start);
        let last = k + 1 == pieces.len();
        syntax_diagnostics.extend(
            items
                .syntax_diagnostics
                .iter()
                .map(|d| chunks::place_diagnostic(d, start, last)),
        );
    }
    FileItems {
        tree: Arc::new(tree),
        syntax_diagnostics,
    }
}

/// Global declarations: their diagnostics, and the scope templates see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Globals {
    /// The symbols the global declarations make, seen by every template.
    pub scope: Arc<GlobalScope>,
    /// The diagnostics of the global declarations.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks the global declarations of a file.
#[salsa::tracked(returns(ref))]
pub fn globals(db: &dyn salsa::Database, file: SourceFile) -> Globals {
    let tree = &item_tree(db, file).tree;
    let mut ctx = Ctx::new(Mode::Lower);
    ctx.declare(&tree.globals, "");
    Globals {
        scope: Arc::new(ctx.global_scope()),
        diagnostics: ctx.diags,
    }
}

/// Only the symbols: equal across edits that do not change a declaration,
/// so everything that depends on it is backdated.
#[salsa::tracked(returns(ref))]
pub fn global_scope(db: &dyn salsa::Database, file: SourceFile) -> Arc<GlobalScope> {
    globals(db, file).scope.clone()
}

/// A template's HIR interned with the global scope: the key of
/// [`check_template`].
#[salsa::interned]
pub struct TemplateKey<'db> {
    /// The template, spans relative to its start.
    #[returns(ref)]
    pub template: Arc<Template>,
    /// The global scope it is checked in.
    #[returns(ref)]
    pub scope: Arc<GlobalScope>,
}

/// What checking one template on its own finds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TemplateCheck {
    /// Relative to the template's start.
    pub diagnostics: Vec<Diagnostic>,
    /// Global names the template reads or writes.
    pub used_globals: Vec<String>,
}

/// Name resolution and type checking of one template; reads nothing but its
/// key, so it re-runs only when the template or the global scope changes.
#[salsa::tracked(returns(ref))]
pub fn check_template<'db>(db: &'db dyn salsa::Database, key: TemplateKey<'db>) -> TemplateCheck {
    let mut ctx = Ctx::with_globals(key.scope(db));
    let template = key.template(db);
    let names = super::resolve::template_names(
        db,
        super::resolve::TemplateSource::new(db, template.clone()),
    );
    ctx.template(template, names, None, &template.name.text, 0);
    let mut used_globals: Vec<String> = ctx.used_globals.into_iter().collect();
    used_globals.sort();
    TemplateCheck {
        diagnostics: ctx.diags,
        used_globals,
    }
}

/// The per-template checks of a file, with absolute diagnostics.
#[salsa::tracked(returns(ref))]
pub fn template_checks(db: &dyn salsa::Database, file: SourceFile) -> TemplateCheck {
    let tree = item_tree(db, file).tree.clone();
    let scope = global_scope(db, file).clone();
    let mut all = TemplateCheck::default();
    let mut used = FxHashSet::default();
    let named_by_checks = members_named_by_checks(&tree);
    for t in &tree.templates {
        let key = TemplateKey::new(db, t.data.clone(), scope.clone());
        let check = check_template(db, key);
        all.diagnostics.extend(
            check
                .diagnostics
                .iter()
                .filter(|d| !unused_but_named(d, &named_by_checks))
                .map(|d| shift(d, t.offset)),
        );
        used.extend(check.used_globals.iter().cloned());
    }
    all.used_globals = used.into_iter().collect();
    all.used_globals.sort();
    all
}

/// The names that checks read through a process (`P.k`, `P(1).f()`): a
/// template's variable or function used only there is used all the same.
fn members_named_by_checks(tree: &ItemTree) -> FxHashSet<String> {
    fn walk(e: &super::hir::Expr, out: &mut FxHashSet<String>) {
        use super::hir::ExprKind;
        match &e.kind {
            ExprKind::Field(_, n) | ExprKind::ProcessCall(_, n, _) => {
                out.insert(n.text.clone());
            }
            _ => {}
        }
        super::resolve::for_each_child(e, |c| walk(c, out));
    }
    let mut out = FxHashSet::default();
    for c in &tree.checks {
        walk(&c.formula, &mut out);
        if let Some(t) = &c.target {
            walk(t, &mut out);
        }
    }
    out
}

/// Whether `d` is the warning that a template's `name` is never used, for a
/// name that a check reads through a process.
fn unused_but_named(d: &Diagnostic, named: &FxHashSet<String>) -> bool {
    d.severity == Severity::Warning
        && d.message.ends_with("` is never used")
        && d.message
            .split('`')
            .nth(1)
            .is_some_and(|name| named.contains(name))
}

fn shift(d: &Diagnostic, offset: u32) -> Diagnostic {
    let s = |r: Span| r.shifted(offset);
    let mut d = d.clone();
    d.range = s(d.range);
    for r in &mut d.related {
        r.range = s(r.range);
    }
    d
}

/// One instance to lower; see [`super::system::InstanceRequest`].
#[salsa::interned]
pub struct InstanceKey<'db> {
    /// The instance to lower.
    #[returns(ref)]
    pub request: InstanceRequest,
}

/// Lowers one instance, spans relative to its template: re-runs only when
/// the template, the global scope, the arguments or the index bases change.
#[salsa::tracked(returns(ref))]
pub fn lower_instance<'db>(
    db: &'db dyn salsa::Database,
    key: InstanceKey<'db>,
) -> Arc<InstanceLowered> {
    let req = key.request(db);
    let template = super::resolve::TemplateSource::new(db, req.template.clone());
    let names = super::resolve::template_names(db, template);
    Arc::new(super::system::lower_instance_resolved(req, names))
}

/// The network, and the diagnostics only the whole model shows (system line,
/// checks, instance arguments, unused globals).
#[derive(Debug, Clone, PartialEq)]
pub struct Lowered {
    /// The network.
    pub network: Arc<ir::Network>,
    /// The diagnostics of the whole model.
    pub diagnostics: Vec<Diagnostic>,
}

/// Assembles the network from the memoised instances. `no_eq`: comparing
/// two networks costs as much as building one, and nothing downstream is
/// expensive enough to be worth backdating.
#[salsa::tracked(returns(ref), no_eq)]
pub fn lowered(db: &dyn salsa::Database, file: SourceFile) -> Lowered {
    let tree = item_tree(db, file).tree.clone();
    let uses: FxHashSet<String> = template_checks(db, file)
        .used_globals
        .iter()
        .cloned()
        .collect();
    let resolve = || super::resolve::resolutions(db, file).clone();
    let (mut network, diagnostics) =
        super::system::lower_network_with(&tree, &uses, &resolve, &mut |req: InstanceRequest| {
            lower_instance(db, InstanceKey::new(db, req)).clone()
        });
    network.lines = Some(zeno_base::line_index::LineIndex::in_chars(file.text(db)));
    Lowered {
        network: Arc::new(network),
        diagnostics,
    }
}

/// Every diagnostic of the file, sorted by position, without duplicates.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let mut all = item_tree(db, file).syntax_diagnostics.clone();
    all.extend(globals(db, file).diagnostics.iter().cloned());
    all.extend(template_checks(db, file).diagnostics.iter().cloned());
    all.extend(lowered(db, file).diagnostics.iter().cloned());
    sort_dedup(&mut all);
    all
}

/// Sorts by position (errors first at equal positions) and drops repeats:
/// the same problem is found by the per-template check and by every instance.
pub fn sort_dedup(all: &mut Vec<Diagnostic>) {
    all.sort_by(|a, b| {
        (a.range.start, a.range.end, a.severity, &a.message).cmp(&(
            b.range.start,
            b.range.end,
            b.severity,
            &b.message,
        ))
    });
    all.dedup_by(|a, b| a.range == b.range && a.message == b.message);
}

/// The network when the file has no errors.
pub fn network(db: &dyn salsa::Database, file: SourceFile) -> Option<Arc<ir::Network>> {
    let has_errors = file_diagnostics(db, file)
        .iter()
        .any(|d| d.severity == Severity::Error);
    (!has_errors).then(|| lowered(db, file).network.clone())
}

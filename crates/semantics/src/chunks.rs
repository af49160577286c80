//! Splitting a file into independently parsed chunks.
//!
//! A top-level `template` keyword always starts a new item: the parser ends
//! a template body (closed or not) and any item it is in the middle of when
//! it sees one. So the text from one `template` keyword to the next parses
//! to the same items alone as within the whole file, and each chunk can be
//! parsed, lowered to HIR and memoised on its own text: after an edit, only
//! the edited chunk is parsed again. (One broken-input corner differs: a
//! `template` keyword inside an unclosed argument list is a new item here
//! but an error token in a whole-file parse.)

use super::hir::*;
use std::sync::Arc;
use zeno_base::diagnostics::Diagnostic;
use zeno_ir::Span;

/// Byte ranges covering `text`, split before every `template` keyword
/// outside comments.
pub fn split(text: &str) -> Vec<(u32, u32)> {
    let bytes = text.as_bytes();
    let mut starts = vec![0usize];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            c if is_ident(c) => {
                let start = i;
                while i < bytes.len() && is_ident(bytes[i]) {
                    i += 1;
                }
                if &bytes[start..i] == b"template" && start > 0 {
                    starts.push(start);
                }
            }
            _ => i += 1,
        }
    }
    let mut out = Vec::with_capacity(starts.len());
    for (k, s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(text.len());
        out.push((*s as u32, e as u32));
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// Moves a chunk's syntax diagnostic to file positions. A chunk's parse
/// ends where the next chunk's `template` keyword is, so "found end of file"
/// in any chunk but the last really found that keyword.
pub fn place_diagnostic(d: &Diagnostic, start: u32, is_last: bool) -> Diagnostic {
    let mut d = d.clone();
    d.range.shift(start);
    for r in &mut d.related {
        r.range.shift(start);
    }
    if !is_last && let Some(head) = d.message.strip_suffix("found end of file") {
        d.message = format!("{head}found `template`");
    }
    d
}

/// Moves every span of an item by `d` bytes.
pub trait Shift {
    /// Adds `d` to every span.
    fn shift(&mut self, d: u32);
}

impl Shift for Span {
    fn shift(&mut self, d: u32) {
        self.start += d;
        self.end += d;
    }
}

impl<T: Shift + ?Sized> Shift for Box<T> {
    fn shift(&mut self, d: u32) {
        (**self).shift(d);
    }
}

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, d: u32) {
        if let Some(x) = self {
            x.shift(d);
        }
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, d: u32) {
        self.iter_mut().for_each(|x| x.shift(d));
    }
}

/// `Shift` for records: each field listed holds spans.
macro_rules! shift_fields {
    ($($ty:ident { $($field:ident),* })*) => {
        $(impl Shift for $ty {
            fn shift(&mut self, d: u32) {
                $(self.$field.shift(d);)*
            }
        })*
    };
}

shift_fields! {
    Name { span }
    Typedef { ty, name, array, span }
    Param { ty, array, name, span }
    Function { name, ret, params, body, end, span }
    VarDecl { ty, name, array, init, span }
    InstanceDecl { name, params, template, args, span }
    CheckDecl { name, formula, target, terms, span }
    ParticipantDecl { process, label, span }
    VectorDecl { participants, span }
}

impl Shift for Expr {
    fn shift(&mut self, d: u32) {
        self.span.shift(d);
        match &mut self.kind {
            ExprKind::Missing
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Name(_)
            | ExprKind::Deadlock => {}
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                a.shift(d);
                b.shift(d);
            }
            ExprKind::Field(a, n) => {
                a.shift(d);
                n.shift(d);
            }
            ExprKind::Call(n, args) => {
                n.shift(d);
                args.shift(d);
            }
            ExprKind::ProcessCall(p, n, args) => {
                p.shift(d);
                n.shift(d);
                args.shift(d);
            }
            ExprKind::Unary(_, a) | ExprKind::Incr(a, _) | ExprKind::Rate(a) => a.shift(d),
            ExprKind::Cond(a, b, c) => {
                a.shift(d);
                b.shift(d);
                c.shift(d);
            }
            ExprKind::Quant(_, n, t, body) => {
                n.shift(d);
                t.shift(d);
                body.shift(d);
            }
            ExprKind::List(items) => items.shift(d),
        }
    }
}

impl Shift for TypeRef {
    fn shift(&mut self, d: u32) {
        match self {
            TypeRef::Int { range, span } => {
                span.shift(d);
                if let Some(r) = range {
                    r.0.shift(d);
                    r.1.shift(d);
                }
            }
            TypeRef::Bool { span } | TypeRef::Clock { span } | TypeRef::Chan { span, .. } => {
                span.shift(d)
            }
            TypeRef::Named(n) => n.shift(d),
            TypeRef::Scalar { size, span } => {
                span.shift(d);
                size.shift(d);
            }
            TypeRef::Struct { fields, span } => {
                span.shift(d);
                fields.shift(d);
            }
        }
    }
}

impl Shift for Decl {
    fn shift(&mut self, d: u32) {
        match self {
            Decl::Var(v) => v.shift(d),
            Decl::Typedef(t) => t.shift(d),
            Decl::Function(f) => Arc::make_mut(f).shift(d),
        }
    }
}

impl Shift for Stmt {
    fn shift(&mut self, d: u32) {
        self.span.shift(d);
        match &mut self.kind {
            StmtKind::Block(b) => b.shift(d),
            StmtKind::Decl(decl) => decl.shift(d),
            StmtKind::Expr(e) => e.shift(d),
            StmtKind::If(c, t, e) => {
                c.shift(d);
                t.shift(d);
                e.shift(d);
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                c.shift(d);
                b.shift(d);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                init.shift(d);
                cond.shift(d);
                step.shift(d);
                body.shift(d);
            }
            StmtKind::ForRange { name, ty, body } => {
                name.shift(d);
                ty.shift(d);
                body.shift(d);
            }
            StmtKind::Return(e) => e.shift(d),
            StmtKind::Empty => {}
        }
    }
}

impl Shift for PriorityDecl {
    fn shift(&mut self, d: u32) {
        for (e, _) in &mut self.entries {
            match e {
                PriorityEntry::Default(s) => s.shift(d),
                PriorityEntry::Channel(e) => e.shift(d),
            }
        }
        self.span.shift(d);
    }
}

/// Copies of `items` moved by `d` bytes.
fn shifted<T: Shift + Clone>(items: &[T], d: u32) -> impl Iterator<Item = T> + '_ {
    items.iter().map(move |x| {
        let mut x = x.clone();
        x.shift(d);
        x
    })
}

/// Appends a chunk's items (spans relative to the chunk) at `offset`.
pub fn append(tree: &mut ItemTree, chunk: &ItemTree, offset: u32) {
    tree.globals.extend(shifted(&chunk.globals, offset));
    tree.templates
        .extend(chunk.templates.iter().map(|t| TemplateItem {
            data: t.data.clone(),
            offset: t.offset + offset,
        }));
    tree.instances.extend(shifted(&chunk.instances, offset));
    tree.system.extend(shifted(&chunk.system, offset));
    // Levels continue across `system` lines, as in `from_ast`.
    let base = tree.system_levels.last().copied().unwrap_or(0);
    tree.system_levels
        .extend(chunk.system_levels.iter().map(|l| base + l));
    if tree.system_span.is_none()
        && let Some(mut s) = chunk.system_span
    {
        s.shift(offset);
        tree.system_span = Some(s);
    }
    tree.priorities.extend(shifted(&chunk.priorities, offset));
    tree.vectors.extend(shifted(&chunk.vectors, offset));
    tree.checks.extend(shifted(&chunk.checks, offset));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_before_template_keywords_outside_comments() {
        let text =
            "int a; // template x\ntemplate A() {}\n/* template */ templates\ntemplate B() {}";
        let chunks = split(text);
        let pieces: Vec<&str> = chunks
            .iter()
            .map(|(s, e)| &text[*s as usize..*e as usize])
            .collect();
        assert_eq!(
            pieces,
            [
                "int a; // template x\n",
                "template A() {}\n/* template */ templates\n",
                "template B() {}"
            ]
        );
    }

    #[test]
    fn chunked_analysis_matches_whole_file_lowering() {
        for text in [
            include_str!("../../../tests/data/semantics/checks.zeno"),
            include_str!("../../../tests/data/semantics/system_line.zeno"),
            include_str!("../../../tests/data/models/priorities-processes.zeno"),
            include_str!("../../../tests/data/semantics/duplicates.zeno"),
            include_str!("../../../tests/data/semantics/initial_locations.zeno"),
            // Unclosed template body, stray tokens.
            "int a;\ntemplate A() { init location s;\ntemplate B( { ; } system A, B;\ncheck: E<> A.s;",
        ] {
            check_chunked(text);
        }
    }

    fn check_chunked(text: &str) {
        let (whole, whole_diags) = super::super::from_ast::lower_file(text);
        let mut tree = ItemTree::default();
        let mut diags = Vec::new();
        let chunks = split(text);
        for (k, &(s, e)) in chunks.iter().enumerate() {
            let (chunk, d) = super::super::from_ast::lower_file(&text[s as usize..e as usize]);
            append(&mut tree, &chunk, s);
            let last = k + 1 == chunks.len();
            diags.extend(d.iter().map(|d| place_diagnostic(d, s, last)));
        }
        assert_eq!(tree, whole);
        assert_eq!(diags, whole_diags);
        assert!(!tree.templates.is_empty());
    }
}

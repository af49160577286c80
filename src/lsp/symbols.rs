//! The document outline (`textDocument/documentSymbol`) and folding ranges,
//! from the item tree.

use tower_lsp_server::ls_types::{
    DocumentSymbol, FoldingRange, FoldingRangeKind, Location, SymbolInformation, SymbolKind, Uri,
};

use super::line_index::LineIndex;
use super::results::range;
use crate::ir::Span;
use crate::semantics::hir::{Decl, ItemTree, Name};

fn shift(span: Span, by: u32) -> Span {
    Span::new(span.start + by, span.end + by)
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbol(
    index: &LineIndex,
    name: &Name,
    whole: Span,
    kind: SymbolKind,
    detail: Option<String>,
    children: Vec<DocumentSymbol>,
    offset: u32,
) -> DocumentSymbol {
    let selection = range(index, shift(name.span, offset));
    let mut full = range(index, shift(whole, offset));
    // The selection must lie inside the full range.
    if full.start > selection.start || full.end < selection.end {
        full = selection;
    }
    DocumentSymbol {
        name: name.text.clone(),
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: full,
        selection_range: selection,
        children: (!children.is_empty()).then_some(children),
    }
}

fn decl(index: &LineIndex, d: &Decl, offset: u32) -> DocumentSymbol {
    match d {
        Decl::Var(v) => symbol(
            index,
            &v.name,
            v.span,
            if v.is_const {
                SymbolKind::CONSTANT
            } else {
                SymbolKind::VARIABLE
            },
            None,
            Vec::new(),
            offset,
        ),
        Decl::Typedef(t) => symbol(
            index,
            &t.name,
            t.span,
            SymbolKind::TYPE_PARAMETER,
            Some("typedef".to_string()),
            Vec::new(),
            offset,
        ),
    }
}

/// Globals, templates (with their parameters, declarations and locations),
/// instances and checks, in that order.
pub fn document_symbols(index: &LineIndex, tree: &ItemTree) -> Vec<DocumentSymbol> {
    let mut out: Vec<DocumentSymbol> = tree.globals.iter().map(|d| decl(index, d, 0)).collect();
    for t in &tree.templates {
        let (data, offset) = (&t.data, t.offset);
        let mut children = Vec::new();
        for p in &data.params {
            children.push(symbol(
                index,
                &p.name,
                p.span,
                SymbolKind::TYPE_PARAMETER,
                Some("parameter".to_string()),
                Vec::new(),
                offset,
            ));
        }
        children.extend(data.decls.iter().map(|d| decl(index, d, offset)));
        for l in &data.locations {
            children.push(symbol(
                index,
                &l.name,
                l.span,
                SymbolKind::ENUM_MEMBER,
                Some("location".to_string()),
                Vec::new(),
                offset,
            ));
        }
        out.push(symbol(
            index,
            &data.name,
            data.span,
            SymbolKind::CLASS,
            Some("template".to_string()),
            children,
            offset,
        ));
    }
    for i in &tree.instances {
        out.push(symbol(
            index,
            &i.name,
            i.span,
            SymbolKind::OBJECT,
            Some(format!("instance of {}", i.template.text)),
            Vec::new(),
            0,
        ));
    }
    for c in &tree.checks {
        out.push(symbol(
            index,
            &c.name,
            c.span,
            SymbolKind::EVENT,
            Some("check".to_string()),
            Vec::new(),
            0,
        ));
    }
    out
}

/// A folding range per template body spanning several lines.
pub fn folding_ranges(index: &LineIndex, tree: &ItemTree) -> Vec<FoldingRange> {
    tree.templates
        .iter()
        .filter_map(|t| {
            let r = range(index, shift(t.data.span, t.offset));
            (r.end.line > r.start.line).then_some(FoldingRange {
                start_line: r.start.line,
                start_character: None,
                end_line: r.end.line,
                end_character: None,
                kind: Some(FoldingRangeKind::Region),
                collapsed_text: None,
            })
        })
        .collect()
}

/// The symbols of a document whose name contains `query` (lowercase), with
/// their container, for `workspace/symbol`.
#[allow(deprecated)] // `SymbolInformation::deprecated` must still be written.
pub fn flatten(
    uri: &Uri,
    symbols: Vec<DocumentSymbol>,
    container: Option<&str>,
    query: &str,
    out: &mut Vec<SymbolInformation>,
) {
    for s in symbols {
        if s.name.to_lowercase().contains(query) {
            out.push(SymbolInformation {
                name: s.name.clone(),
                kind: s.kind,
                tags: None,
                deprecated: None,
                location: Location::new(uri.clone(), s.selection_range),
                container_name: container.map(str::to_string),
            });
        }
        if let Some(children) = s.children {
            flatten(uri, children, Some(&s.name), query, out);
        }
    }
}

//! `textDocument/documentSymbol` (the outline) and `workspace/symbol`.

use tower_lsp_server::ls_types::{DocumentSymbol, Location, SymbolInformation, SymbolKind};

use crate::snapshot::Snapshot;
use zeno_ide::{DefKind, Symbol};

fn kind(k: DefKind) -> SymbolKind {
    match k {
        DefKind::Constant => SymbolKind::CONSTANT,
        DefKind::Typedef | DefKind::Parameter => SymbolKind::TYPE_PARAMETER,
        DefKind::Template => SymbolKind::CLASS,
        DefKind::Location => SymbolKind::ENUM_MEMBER,
        DefKind::Instance => SymbolKind::OBJECT,
        DefKind::Check => SymbolKind::EVENT,
        DefKind::Function => SymbolKind::FUNCTION,
        _ => SymbolKind::VARIABLE,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn convert(s: &Snapshot, symbol: Symbol) -> DocumentSymbol {
    let children: Vec<DocumentSymbol> =
        symbol.children.into_iter().map(|c| convert(s, c)).collect();
    DocumentSymbol {
        name: symbol.name,
        detail: symbol.detail,
        kind: kind(symbol.kind),
        tags: None,
        deprecated: None,
        range: s.range(symbol.full),
        selection_range: s.range(symbol.selection),
        children: (!children.is_empty()).then_some(children),
    }
}

pub fn document_symbols(s: &Snapshot) -> Vec<DocumentSymbol> {
    s.analysis
        .symbols()
        .into_iter()
        .map(|symbol| convert(s, symbol))
        .collect()
}

/// The symbols of a document whose name contains `query` (lowercase), with
/// their container, for `workspace/symbol`.
pub fn workspace_symbols(s: &Snapshot, query: &str, out: &mut Vec<SymbolInformation>) {
    flatten(s, document_symbols(s), None, query, out);
}

#[allow(deprecated)] // `SymbolInformation::deprecated` must still be written.
fn flatten(
    s: &Snapshot,
    symbols: Vec<DocumentSymbol>,
    container: Option<&str>,
    query: &str,
    out: &mut Vec<SymbolInformation>,
) {
    for symbol in symbols {
        if symbol.name.to_lowercase().contains(query) {
            out.push(SymbolInformation {
                name: symbol.name.clone(),
                kind: symbol.kind,
                tags: None,
                deprecated: None,
                location: Location::new(s.uri.clone(), symbol.selection_range),
                container_name: container.map(str::to_string),
            });
        }
        if let Some(children) = symbol.children {
            flatten(s, children, Some(&symbol.name), query, out);
        }
    }
}

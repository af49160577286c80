//! `textDocument/completion`.

use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, Position,
};

use crate::snapshot::Snapshot;
use zeno_ide::CompletionKind;

pub fn completion(s: &Snapshot, position: Position) -> CompletionResponse {
    let items = s
        .analysis
        .completion(s.offset(position))
        .into_iter()
        .map(|c| CompletionItem {
            label: c.label,
            kind: Some(match c.kind {
                CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                CompletionKind::Variable => CompletionItemKind::VARIABLE,
                CompletionKind::Type => CompletionItemKind::TYPE_PARAMETER,
                CompletionKind::Template => CompletionItemKind::CLASS,
                CompletionKind::Instance => CompletionItemKind::VARIABLE,
                CompletionKind::Location => CompletionItemKind::ENUM_MEMBER,
                CompletionKind::Function => CompletionItemKind::FUNCTION,
            }),
            ..CompletionItem::default()
        })
        .collect();
    CompletionResponse::Array(items)
}

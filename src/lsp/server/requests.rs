//! Requests about a document's contents (outline, navigation, completion,
//! tokens, hover, lenses, trace stepping): each reads the state under its
//! lock and answers at once, never waiting on a check.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use super::{Backend, guarded, internal, lock};
use crate::ir;
use crate::lsp::lenses::{self, Cursor, TraceArgs};
use crate::lsp::{navigate, results, symbols, tokens};

impl Backend {
    pub(super) fn on_document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let symbols = guarded(|| symbols::document_symbols(&d.doc.line_index, &d.host.item_tree()))
            .map_err(|msg| Error {
                message: format!("internal error: {msg}").into(),
                ..Error::internal_error()
            })?;
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    pub(super) fn on_goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let uri = params.text_document_position_params.text_document.uri;
        let position = params.text_document_position_params.position;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let index = &d.doc.line_index;
        let offset = index.offset(position);
        let span = guarded(|| navigate::definition(&d.doc.text, &d.host.item_tree(), offset))
            .ok()
            .flatten();
        Ok(span.map(|s| {
            GotoDefinitionResponse::Scalar(Location::new(uri.clone(), results::range(index, s)))
        }))
    }

    pub(super) fn on_completion(
        &self,
        params: CompletionParams,
    ) -> Result<Option<CompletionResponse>> {
        let uri = params.text_document_position.text_document.uri;
        let position = params.text_document_position.position;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let offset = d.doc.line_index.offset(position);
        let names = guarded(|| navigate::completions(&d.doc.text, &d.host.item_tree(), offset))
            .unwrap_or_default();
        let items = names
            .into_iter()
            .map(|(label, kind)| CompletionItem {
                label,
                kind: Some(match kind {
                    navigate::NameKind::Keyword => CompletionItemKind::KEYWORD,
                    navigate::NameKind::Variable => CompletionItemKind::VARIABLE,
                    navigate::NameKind::Type => CompletionItemKind::TYPE_PARAMETER,
                    navigate::NameKind::Template => CompletionItemKind::CLASS,
                    navigate::NameKind::Instance => CompletionItemKind::VARIABLE,
                    navigate::NameKind::Location => CompletionItemKind::ENUM_MEMBER,
                }),
                ..CompletionItem::default()
            })
            .collect();
        Ok(Some(CompletionResponse::Array(items)))
    }

    pub(super) fn on_references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let uri = params.text_document_position.text_document.uri;
        let position = params.text_document_position.position;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let index = &d.doc.line_index;
        let offset = index.offset(position);
        let tree = guarded(|| d.host.item_tree()).map_err(internal)?;
        let declaration = navigate::definition(&d.doc.text, &tree, offset);
        let spans = navigate::references(&d.doc.text, &tree, offset);
        Ok(Some(
            spans
                .into_iter()
                .filter(|s| params.context.include_declaration || Some(*s) != declaration)
                .map(|s| Location::new(uri.clone(), results::range(index, s)))
                .collect(),
        ))
    }

    pub(super) fn on_rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let uri = params.text_document_position.text_document.uri;
        let position = params.text_document_position.position;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let index = &d.doc.line_index;
        let offset = index.offset(position);
        let tree = guarded(|| d.host.item_tree()).map_err(internal)?;
        if let Some(why) = navigate::rename_conflict(&d.doc.text, &tree, offset, &params.new_name) {
            return Err(Error::invalid_params(why));
        }
        let edits = navigate::references(&d.doc.text, &tree, offset)
            .into_iter()
            .map(|s| TextEdit::new(results::range(index, s), params.new_name.clone()))
            .collect();
        Ok(Some(WorkspaceEdit::new(HashMap::from([(
            uri.clone(),
            edits,
        )]))))
    }

    pub(super) fn on_semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let data = guarded(|| {
            tokens::semantic_tokens(&d.doc.text, &d.doc.line_index, &d.host.item_tree())
        })
        .map_err(internal)?;
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    }

    pub(super) fn on_hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let uri = params.text_document_position_params.text_document.uri;
        let position = params.text_document_position_params.position;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let Some(network) = &d.network else {
            drop(st);
            return self.name_hover(&uri, position);
        };
        let offset = d.doc.line_index.offset(position);
        let Some((i, c)) = network
            .checks
            .iter()
            .enumerate()
            .find(|(_, c)| c.name_span.start <= offset && offset <= c.name_span.end)
        else {
            let uri = uri.clone();
            drop(st);
            return self.name_hover(&uri, position);
        };
        let status = match d.results.get(i) {
            Some(r) => results::check_diagnostics(&uri, &d.doc.line_index, network, i, r)
                .into_iter()
                .next()
                .map_or_else(String::new, |diag| diag.message),
            None if d.job.is_some() => "checking…".to_string(),
            None => "not checked yet".to_string(),
        };
        let kind = match c.kind {
            ir::CheckKind::Invariant(_) => "invariant (A[])",
            ir::CheckKind::Reachable(_) => "reachability (E<>)",
        };
        Ok(Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!("**check `{}`**: {kind}\n\n{status}", c.name),
            }),
            range: Some(results::range(&d.doc.line_index, c.name_span)),
        }))
    }

    pub(super) fn on_folding_range(
        &self,
        params: FoldingRangeParams,
    ) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let ranges = guarded(|| symbols::folding_ranges(&d.doc.line_index, &d.host.item_tree()))
            .unwrap_or_default();
        Ok(Some(ranges))
    }

    pub(super) fn on_inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let (Some(network), Some(cursor)) = (&d.network, &d.cursor) else {
            return Ok(Some(Vec::new()));
        };
        Ok(Some(
            d.results.get(cursor.check).map_or_else(Vec::new, |r| {
                lenses::inlay_hints(&d.doc.line_index, network, r, cursor, params.range)
            }),
        ))
    }

    pub(super) fn on_symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let query = params.query.to_lowercase();
        let st = lock(&self.state);
        let mut out = Vec::new();
        for (uri, d) in &st.docs {
            let Ok(symbols) =
                guarded(|| symbols::document_symbols(&d.doc.line_index, &d.host.item_tree()))
            else {
                continue;
            };
            symbols::flatten(uri, symbols, None, &query, &mut out);
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Some(WorkspaceSymbolResponse::Flat(out)))
    }

    pub(super) fn on_code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let Some(network) = &d.network else {
            return Ok(Some(Vec::new()));
        };
        Ok(Some(lenses::code_lenses(
            &uri,
            &d.doc.line_index,
            network,
            &d.results,
            d.job.is_some(),
            d.cursor.as_ref(),
        )))
    }

    pub(super) fn on_execute_command(
        &self,
        params: ExecuteCommandParams,
    ) -> Result<Option<LSPAny>> {
        let args: TraceArgs = params
            .arguments
            .into_iter()
            .next()
            .and_then(|a| serde_json::from_value(a).ok())
            .ok_or_else(|| Error::invalid_params("expected one argument { uri, check }"))?;
        let report = {
            let mut st = lock(&self.state);
            let d = st
                .docs
                .get_mut(&args.uri)
                .ok_or_else(|| Error::invalid_params("the document is not open"))?;
            let network = d
                .network
                .clone()
                .ok_or_else(|| Error::invalid_params("the model has errors"))?;
            let check = match &args.check {
                Some(name) => network
                    .checks
                    .iter()
                    .position(|c| &c.name == name)
                    .ok_or_else(|| Error::invalid_params(format!("no check named `{name}`")))?,
                None => d
                    .cursor
                    .as_ref()
                    .map(|c| c.check)
                    .ok_or_else(|| Error::invalid_params("no trace is being shown"))?,
            };
            let total = d
                .results
                .get(check)
                .and_then(|r| r.trace.as_ref())
                .map(|t| t.len())
                .filter(|&n| n > 0)
                .ok_or_else(|| Error::invalid_params("the check has no trace"))?;
            let current = d
                .cursor
                .as_ref()
                .filter(|c| c.check == check)
                .map(|c| c.step);
            let step = match params.command.as_str() {
                lenses::SHOW => 1,
                lenses::NEXT => current.map_or(1, |s| (s + 1).min(total)),
                lenses::PREV => current.map_or(1, |s| s.saturating_sub(1).max(1)),
                other => {
                    return Err(Error::invalid_params(format!("unknown command `{other}`")));
                }
            };
            let cursor = Cursor { check, step };
            let report =
                lenses::step_report(&d.doc.line_index, &network, &d.results[check], &cursor);
            d.cursor = Some(cursor);
            report
        };
        Ok(report.and_then(|r| serde_json::to_value(r).ok()))
    }
}

//! Formatting, hover over names and signature help: requests that read the
//! document under the state lock and answer at once.

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use super::{Backend, guarded, internal, lock};
use crate::lsp::{format, hover, results, signature};

impl Backend {
    pub(super) fn on_formatting(
        &self,
        params: DocumentFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let edits = guarded(|| format::format_document(&d.doc.text, &d.doc.line_index))
            .map_err(internal)?;
        Ok(Some(edits))
    }

    /// Hover over a name that is not a check's: its declaration described.
    pub(super) fn name_hover(&self, uri: &Uri, position: Position) -> Result<Option<Hover>> {
        let st = lock(&self.state);
        let d = st
            .docs
            .get(uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let offset = d.doc.line_index.offset(position);
        let found = guarded(|| {
            hover::hover(
                &d.doc.text,
                &d.host.item_tree(),
                &d.host.global_scope(),
                d.network.as_deref(),
                offset,
            )
        })
        .map_err(internal)?;
        Ok(found.map(|(value, span)| Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(results::range(&d.doc.line_index, span)),
        }))
    }

    pub(super) fn on_signature_help(
        &self,
        params: SignatureHelpParams,
    ) -> Result<Option<SignatureHelp>> {
        let uri = params.text_document_position_params.text_document.uri;
        let position = params.text_document_position_params.position;
        let st = lock(&self.state);
        let d = st
            .docs
            .get(&uri)
            .ok_or_else(|| Error::invalid_params("the document is not open"))?;
        let offset = d.doc.line_index.offset(position);
        let found = guarded(|| signature::signature_help(&d.doc.text, &d.host.item_tree(), offset))
            .map_err(internal)?;
        Ok(found.map(|(label, params, active)| SignatureHelp {
            signatures: vec![SignatureInformation {
                label,
                documentation: None,
                parameters: Some(
                    params
                        .into_iter()
                        .map(|p| ParameterInformation {
                            label: ParameterLabel::Simple(p),
                            documentation: None,
                        })
                        .collect(),
                ),
                active_parameter: Some(active),
            }],
            active_signature: Some(0),
            active_parameter: Some(active),
        }))
    }
}

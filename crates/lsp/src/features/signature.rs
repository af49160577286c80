//! `textDocument/signatureHelp` for template instantiation.

use tower_lsp_server::ls_types::{
    ParameterInformation, ParameterLabel, Position, SignatureHelp, SignatureInformation,
};

use crate::snapshot::Snapshot;

pub fn signature_help(s: &Snapshot, position: Position) -> Option<SignatureHelp> {
    let help = s.analysis.signature_help(s.offset(position))?;
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label: help.label,
            documentation: None,
            parameters: Some(
                help.parameters
                    .into_iter()
                    .map(|p| ParameterInformation {
                        label: ParameterLabel::Simple(p),
                        documentation: None,
                    })
                    .collect(),
            ),
            active_parameter: Some(help.active),
        }],
        active_signature: Some(0),
        active_parameter: Some(help.active),
    })
}

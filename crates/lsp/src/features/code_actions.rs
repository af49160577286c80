//! Quick fixes: a diagnostic of zeno's whose message ends ``; did you mean
//! `NAME`?`` (an unknown name, a location or variable a process does not
//! have) offers to replace what it marks with NAME. The fix is read from the
//! diagnostic the client sends back, so it needs no analysis.

use std::collections::HashMap;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, TextEdit, Uri, WorkspaceEdit,
};

/// The name a message suggests: the `NAME` of its closing ``; did you mean
/// `NAME`?``.
pub fn suggestion(message: &str) -> Option<&str> {
    let rest = message.strip_suffix("`?")?;
    let (_, name) = rest.rsplit_once("; did you mean `")?;
    (!name.is_empty() && !name.contains('`')).then_some(name)
}

/// One quick fix per suggesting diagnostic of `diagnostics` in `uri`.
pub fn quick_fixes(uri: &Uri, diagnostics: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    diagnostics
        .iter()
        .filter(|d| d.source.as_deref() == Some("zeno"))
        .filter_map(|d| {
            let name = suggestion(&d.message)?;
            let edit = TextEdit::new(d.range, name.to_string());
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Replace with `{name}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggestion_is_the_messages_last_name() {
        assert_eq!(
            suggestion("unknown name `lenght`; did you mean `length`?"),
            Some("length")
        );
        assert_eq!(suggestion("unknown name `x`"), None);
        assert_eq!(suggestion("; did you mean ``?"), None);
    }
}

//! Quick fixes: a diagnostic of zeno's whose message ends ``; did you mean
//! `NAME`?`` (an unknown name, a location or variable a process does not
//! have) offers to replace what it marks with NAME; that fix is read from
//! the diagnostic the client sends back, so it needs no analysis. An
//! unknown name also offers its declaration, with the type its uses imply
//! (`zeno_ide::Analysis::declare_missing`).

use std::collections::HashMap;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, TextEdit, Uri, WorkspaceEdit,
};
use zeno_ir::Span;

use crate::snapshot::Snapshot;

/// The name a message suggests: the `NAME` of its closing ``; did you mean
/// `NAME`?``.
pub fn suggestion(message: &str) -> Option<&str> {
    let rest = message.strip_suffix("`?")?;
    let (_, name) = rest.rsplit_once("; did you mean `")?;
    (!name.is_empty() && !name.contains('`')).then_some(name)
}

fn zenos(diagnostics: &[Diagnostic]) -> impl Iterator<Item = &Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| d.source.as_deref() == Some("zeno"))
}

fn fix(
    uri: &Uri,
    title: String,
    d: &Diagnostic,
    edit: TextEdit,
    preferred: bool,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(preferred),
        ..CodeAction::default()
    })
}

/// One quick fix per suggesting diagnostic of `diagnostics` in `uri`.
pub fn quick_fixes(uri: &Uri, diagnostics: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    zenos(diagnostics)
        .filter_map(|d| {
            let name = suggestion(&d.message)?;
            let edit = TextEdit::new(d.range, name.to_string());
            Some(fix(uri, format!("Replace with `{name}`"), d, edit, true))
        })
        .collect()
}

/// For each unknown name among `diagnostics`, its declaration, when its
/// uses imply a type. A typo's replacement is the preferred fix where
/// there is one.
pub fn declarations(s: &Snapshot, diagnostics: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    zenos(diagnostics)
        .filter(|d| d.message.starts_with("unknown name `"))
        .filter_map(|d| {
            let span = Span::new(s.offset(d.range.start), s.offset(d.range.end));
            let decl = s.analysis.declare_missing(span)?;
            let at = s.range(Span::new(decl.at, decl.at));
            let edit = TextEdit::new(at, decl.insert.clone());
            let preferred = suggestion(&d.message).is_none();
            Some(fix(&s.uri, decl.title(), d, edit, preferred))
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

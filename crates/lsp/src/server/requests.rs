//! Requests about check results (hover over a check's name, inlay hints,
//! lenses, trace stepping): each reads the state under its lock and answers
//! at once, never waiting on a check. Requests about a document's contents
//! are in [`crate::features`].

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use super::{Backend, lock};
use crate::lenses::{self, Cursor, TraceArgs};
use crate::results;
use zeno_ir as ir;

impl Backend {
    /// Hover over a check's name: its kind and verdict, from the check
    /// results (`None` elsewhere, or without a lowered model).
    pub(super) fn check_hover(&self, uri: &Uri, position: Position) -> Result<Option<Hover>> {
        let st = lock(&self.state);
        let d = st.open(uri)?;
        let (Some(network), None) = (&d.network, &d.translation) else {
            return Ok(None);
        };
        let offset = d.doc.line_index.offset(position);
        let Some((i, c)) = network
            .checks
            .iter()
            .enumerate()
            .find(|(_, c)| c.name_span.start <= offset && offset <= c.name_span.end)
        else {
            return Ok(None);
        };
        let status = match d.results.get(i) {
            Some(r) => {
                let mut found = results::check_diagnostics(uri, &d.doc.line_index, network, i, r);
                results::show_answer(&mut found, d.answers.get(i).and_then(Option::as_ref));
                found
                    .into_iter()
                    .next()
                    .map_or_else(String::new, |diag| diag.message)
            }
            None if d.job.is_some() => "checking…".to_string(),
            None => "not checked yet".to_string(),
        };
        let kind = match c.kind {
            ir::CheckKind::Invariant(_) => "invariant (A[])",
            ir::CheckKind::Reachable(_) => "reachability (E<>)",
            ir::CheckKind::Inevitable(_) => "inevitability (A<>)",
            ir::CheckKind::Potentially(_) => "potentially always (E[])",
            ir::CheckKind::LeadsTo(..) => "leads to (-->)",
            ir::CheckKind::Bound(ref b) => match b.extremum {
                ir::Extremum::Sup => "supremum (sup:)",
                ir::Extremum::Inf => "infimum (inf:)",
            },
        };
        Ok(Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!("**check `{}`**: {kind}\n\n{status}", c.name),
            }),
            range: Some(d.doc.line_index.range(c.name_span)),
        }))
    }

    pub(super) fn on_inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st.open(&uri)?;
        let (Some(network), Some(cursor), None) = (&d.network, &d.cursor, &d.translation) else {
            return Ok(Some(Vec::new()));
        };
        Ok(Some(
            d.results.get(cursor.check).map_or_else(Vec::new, |r| {
                lenses::inlay_hints(&d.doc.line_index, network, r, cursor, params.range)
            }),
        ))
    }

    pub(super) fn on_code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let st = lock(&self.state);
        let d = st.open(&uri)?;
        // An imported document's verdicts are diagnostics at its top; its
        // checks have no place in the file for a lens.
        let (Some(network), None) = (&d.network, &d.translation) else {
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
            let d = st.open_mut(&args.uri)?;
            d.needs_zeno_text("stepping through a trace")?;
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
            let trace = d
                .results
                .get(check)
                .and_then(|r| r.trace.as_ref())
                .filter(|t| !t.is_empty())
                .ok_or_else(|| Error::invalid_params("the check has no trace"))?;
            let total = trace.len();
            let current = d
                .cursor
                .as_ref()
                .filter(|c| c.check == check)
                .map(|c| c.step);
            let step = match params.command.as_str() {
                lenses::SHOW => 1,
                lenses::NEXT => lenses::next_step(trace, current, total),
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

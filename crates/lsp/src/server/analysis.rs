//! A document's analysis, off the notification handler and outside the
//! state lock.
//!
//! An edit is applied under the state lock, in version order; for zeno
//! text the new text is set on the document's salsa host there too (so a
//! request that comes after the edit sees it), and a snapshot taken. The
//! handler then returns: the translation of an imported document (the
//! import), the diagnostics and the lowered network are worked out on a
//! blocking thread, and their result is stored and published only while
//! the text they were worked out for is still the document's last
//! (its generation). A newer edit cancels the snapshot's salsa queries
//! (they unwind with `salsa::Cancelled`), so a slow analysis of an old
//! text never holds up the next edit for long, and is never published.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use super::{Backend, Doc, Outgoing, State, lock};
use crate::foreign::{self, Translation};
use crate::guard::{self, guarded};
use crate::line_index::{Encoding, LineIndex};
use crate::results;
use zeno_base::diagnostics::{Diagnostic as ZenoDiagnostic, Severity};
use zeno_ide as ide;
use zeno_ir as ir;

/// An analysis to run, as `text_changed` left it.
pub(super) struct Pending {
    pub uri: Uri,
    /// The document's generation it is for.
    pub generation: u64,
    pub work: Work,
}

pub(super) enum Work {
    /// zeno text, already set on the host (or why it could not be).
    Zeno(Result<(), String>),
    /// An imported document or a query file: translate it first.
    Translate {
        text: String,
        kind: foreign::Kind,
        model: Option<Result<foreign::Model, String>>,
        encoding: Encoding,
    },
}

/// What the analysis of one text found.
pub(super) struct Found {
    /// The importer's diagnostics, located in the document.
    input: Vec<ZenoDiagnostic>,
    /// The analysis' diagnostics and network, or the message of a panic.
    analysed: Result<(Vec<ZenoDiagnostic>, Option<Arc<ir::Network>>), String>,
}

/// The zeno text of a document that is not zeno text, and how to read the
/// analysis' answers back into the document.
struct Translated {
    zeno: String,
    translation: Option<Translation>,
    input: Vec<ZenoDiagnostic>,
    ignored: bool,
}

fn error_at_top(message: String) -> Vec<ZenoDiagnostic> {
    vec![ZenoDiagnostic::error(ir::Span::new(0, 0), message)]
}

/// Imports the document `text` at `uri` (of kind `kind`, not zeno text).
fn translate(
    uri: &Uri,
    text: &str,
    kind: foreign::Kind,
    model: Option<Result<foreign::Model, String>>,
    encoding: Encoding,
) -> Translated {
    let mut out = Translated {
        zeno: String::new(),
        translation: None,
        input: Vec::new(),
        ignored: false,
    };
    match kind {
        foreign::Kind::Zeno => out.zeno = text.to_string(),
        foreign::Kind::NotAModel => out.ignored = true,
        foreign::Kind::QueryFile => {
            let translated = model
                .unwrap_or_else(|| Err("no model".to_string()))
                .and_then(|model| foreign::query_file_translation(&model, text, encoding));
            match translated {
                Ok((translation, diagnostics)) => {
                    out.input = diagnostics;
                    out.zeno = translation.zeno.clone();
                    out.translation = Some(translation);
                }
                Err(why) => out.input = error_at_top(why),
            }
        }
        foreign::Kind::Foreign(format) => match zeno_load::load(uri.path().as_str(), text, &[]) {
            Ok(loaded) => {
                out.input = loaded.import_warnings;
                out.translation = Some(Translation {
                    format,
                    index: Arc::new(LineIndex::with_encoding(&loaded.zeno, encoding)),
                    zeno: loaded.zeno.clone(),
                    source_map: loaded.source_map,
                    query_file: false,
                    model: None,
                });
                out.zeno = loaded.zeno;
            }
            Err(zeno_load::LoadError::Import { diagnostics, .. }) => out.input = diagnostics,
            Err(other) => out.input = error_at_top(other.to_string()),
        },
    }
    out
}

impl Doc {
    /// Starts analysing the current text: the verdicts of the old text are
    /// kept to show (marked stale) until the new ones come, the results of
    /// the old text and its network dropped, zeno text set on the host.
    pub(super) fn begin_analysis(
        &mut self,
        uri: &Uri,
        model: Option<Result<foreign::Model, String>>,
    ) -> Pending {
        // Results of a version not fully checked leave the older ones.
        if let Some(network) = &self.network
            && !self.results.is_empty()
        {
            self.stale = results::stale_verdicts(network, &self.results);
            // A value query's last answer, rather than its bare verdict.
            for (s, answer) in self.stale.iter_mut().zip(&self.answers) {
                if let Some(answer) = answer {
                    s.message = answer.clone();
                }
            }
        }
        self.results.clear();
        self.answers.clear();
        self.cursor = None;
        // Until the analysis is done there is no model of this text: no
        // request answers about the old one with the new text's positions.
        self.network = None;
        self.generation += 1;
        self.analysing = Some(self.generation);
        let kind = foreign::kind(uri, &self.doc.text);
        let work = if kind == foreign::Kind::Zeno {
            self.translation = None;
            self.ignored = false;
            Work::Zeno(self.set_text(None))
        } else {
            Work::Translate {
                text: self.doc.text.clone(),
                kind,
                model,
                encoding: self.doc.encoding,
            }
        };
        Pending {
            uri: uri.clone(),
            generation: self.generation,
            work,
        }
    }

    /// Sets the text to analyse on the host (the document's own, or
    /// `zeno`). A panic leaves a fresh host (the old one may be
    /// inconsistent).
    fn set_text(&mut self, zeno: Option<&str>) -> Result<(), String> {
        let text = zeno.unwrap_or(&self.doc.text);
        let host = &mut self.host;
        let set = guarded(|| host.set_text(text));
        if set.is_err() {
            self.host = zeno_semantics::AnalysisHost::new();
        }
        set
    }

    /// Stores what the analysis found: the diagnostics, in the document
    /// (mapped through the translation where it covers them), and the
    /// network the checks run on.
    fn store_analysis(&mut self, uri: &Uri, found: Found, out: &mut Outgoing) {
        let index = Arc::clone(&self.doc.line_index);
        let model_index = Arc::clone(match &self.translation {
            Some(t) => &t.index,
            None => &self.doc.line_index,
        });
        match found.analysed {
            Ok((diagnostics, network)) => {
                let ours = ide::cap_diagnostics(diagnostics, ide::MAX_DIAGNOSTICS);
                // A query file shows the model's errors (nothing is checked
                // without them), not its warnings.
                let query_file = self.translation.as_ref().is_some_and(|t| t.query_file);
                let ours: Vec<_> = ours
                    .into_iter()
                    .filter(|d| !query_file || d.severity == Severity::Error)
                    .collect();
                self.diagnostics = found
                    .input
                    .iter()
                    .map(|d| results::frontend_diagnostic(uri, &index, d))
                    .chain(ours.iter().map(|d| {
                        // Mapped into the imported document where the
                        // source map covers it; else at its top.
                        let mapped = self
                            .translation
                            .as_ref()
                            .and_then(|t| t.map(&self.doc.text, d));
                        match mapped {
                            Some(m) => results::frontend_diagnostic(uri, &index, &m),
                            None => {
                                self.located(results::frontend_diagnostic(uri, &model_index, d))
                            }
                        }
                    }))
                    .collect();
                self.network = network;
            }
            Err(msg) => {
                out.log
                    .push(format!("internal error analysing {}: {msg}", uri.as_str()));
                self.host = zeno_semantics::AnalysisHost::new();
                self.network = None;
                self.diagnostics = vec![Diagnostic {
                    range: Range::default(),
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some("zeno".to_string()),
                    message: format!("internal error in the analysis: {msg}"),
                    ..Diagnostic::default()
                }];
            }
        }
    }
}

impl State {
    /// The analysis of generation `generation` of `uri` is done: stored,
    /// checked and published unless a newer text replaced it.
    fn analysed(&mut self, uri: &Uri, generation: u64, found: Found, out: &mut Outgoing) {
        let Some(d) = self.docs.get_mut(uri) else {
            return;
        };
        if d.analysing != Some(generation) {
            return;
        }
        d.analysing = None;
        d.store_analysis(uri, found, out);
        if std::mem::take(&mut d.check_when_analysed) {
            self.schedule_check(uri, out);
        }
        out.publish.extend(self.publish_payload(uri));
        out.status = self.status_change();
    }

    /// For a document that is not zeno text: stores its translation and
    /// sets it on the host, unless a newer text came meanwhile (`None`).
    fn set_translation(
        &mut self,
        uri: &Uri,
        generation: u64,
        t: Translated,
    ) -> Option<(Result<(), String>, Vec<ZenoDiagnostic>)> {
        let d = self.analysing_mut(uri, generation)?;
        d.translation = t.translation;
        d.ignored = t.ignored;
        Some((d.set_text(Some(&t.zeno)), t.input))
    }

    /// The document `uri` while generation `generation` is its last text.
    fn analysing_mut(&mut self, uri: &Uri, generation: u64) -> Option<&mut Doc> {
        self.docs
            .get_mut(uri)
            .filter(|d| d.analysing == Some(generation))
    }
}

impl Backend {
    /// Spawned by `send` for every analysis to run. Boxed with an explicit
    /// `Send` because `send` awaits this future's caller in turn.
    pub(super) fn run_analysis(self, p: Pending) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        Box::pin(async move { self.analyse(p).await })
    }

    async fn analyse(&self, p: Pending) {
        let Pending {
            uri,
            generation,
            work,
        } = p;
        let (set, input) = match work {
            Work::Zeno(set) => (set, Vec::new()),
            Work::Translate {
                text,
                kind,
                model,
                encoding,
            } => {
                let at = uri.clone();
                let translated = tokio::task::spawn_blocking(move || {
                    translate(&at, &text, kind, model, encoding)
                })
                .await;
                let translated = match translated {
                    Ok(t) => t,
                    Err(e) => Translated {
                        zeno: String::new(),
                        translation: None,
                        input: error_at_top(format!("internal error importing the file: {e}")),
                        ignored: false,
                    },
                };
                let set = lock(&self.state).set_translation(&uri, generation, translated);
                match set {
                    Some(set) => set,
                    None => return,
                }
            }
        };
        let analysed = match set {
            Ok(()) => {
                // The snapshot is taken here and moved at once to the
                // blocking thread: a future waiting for the runtime must
                // never hold one, or the next edit's write (which waits
                // for every snapshot to be dropped) could wait on it while
                // holding the state lock that the runtime's threads need.
                let snapshot = {
                    let mut st = lock(&self.state);
                    match st.analysing_mut(&uri, generation) {
                        Some(d) => ide::Analysis::new(&d.host),
                        None => return,
                    }
                };
                let work = move || guard::computed(|| (snapshot.diagnostics(), snapshot.network()));
                match tokio::task::spawn_blocking(work).await {
                    Ok(Some(analysed)) => analysed,
                    // Cancelled by a newer text, whose analysis reports.
                    Ok(None) => return,
                    Err(e) => Err(e.to_string()),
                }
            }
            Err(msg) => Err(msg),
        };
        let found = Found { input, analysed };
        self.update(|st, out| st.analysed(&uri, generation, found, out))
            .await;
        self.analyses_done.send_modify(|n| *n += 1);
    }
}

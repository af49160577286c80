//! The language server: open documents, their analyses and background checks.
//!
//! State lives behind one `std::sync::Mutex` that is never held across an
//! `.await`. An edit is applied under it; the analysis of the new text runs
//! after it is released, on a blocking thread on a salsa snapshot, and is
//! stored only while its text is the last one ([`analysis`]). Checks run on
//! blocking worker threads on an owned `ir::Network`, so no database is held
//! during a search. Messages to the client go through `outbox`, an async lock
//! taken before the state lock, so that they leave in the order in which the
//! state changes they describe happened.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

mod analysis;
mod custom;
mod jobs;
mod requests;

use super::config::Settings;
use super::document::{ChangeOutcome, Document};
use super::features;
use super::foreign::{self, Translation};
use super::guard::{self, guarded};
use super::lenses::{self, Cursor};
use super::line_index::{Encoding, LineIndex};
use super::results::{self, StaleVerdict, Staleness};
use super::snapshot::Snapshot;
use jobs::Job;
use zeno_checker::CheckResult;
use zeno_ide as ide;
use zeno_ir as ir;
use zeno_semantics::AnalysisHost;

/// How long an edit that arrived ahead of its predecessor waits before it is
/// applied anyway (a client may skip version numbers).
const GAP_WAIT: Duration = Duration::from_millis(200);

use super::lsp_ext::{ServerStatus, ServerStatusParams};

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    outbox: Arc<tokio::sync::Mutex<()>>,
    /// Set by the `shutdown` request: `exit` then ends the process with 0.
    shut_down: Arc<AtomicBool>,
    /// Counts the analyses stored: a request about a document's model
    /// waits here for the analysis of its last text ([`Backend::settled`]).
    analyses_done: Arc<tokio::sync::watch::Sender<u64>>,
}

#[derive(Default)]
struct State {
    settings: Settings,
    docs: HashMap<Uri, Doc>,
    next_job: u64,
    /// The last `zeno/serverStatus` sent.
    quiescent_sent: Option<bool>,
    /// The client shows `$/progress` (it said so in `initialize`).
    work_done_progress: bool,
    /// The client accepts `workspace/codeLens/refresh`.
    code_lens_refresh: bool,
    /// The position encoding negotiated in `initialize`.
    encoding: Encoding,
}

struct Doc {
    doc: Document,
    host: AnalysisHost,
    /// Frontend diagnostics of the current version.
    diagnostics: Vec<Diagnostic>,
    /// The lowered model of the current version, shared with check jobs.
    network: Option<Arc<ir::Network>>,
    /// Results of the current version's checks, by check index.
    results: Vec<CheckResult>,
    /// The answers of its `sup:`/`inf:` queries in words, by check index
    /// (`None` for the other checks).
    answers: Vec<Option<String>>,
    /// The last verdicts of an earlier version, shown marked until the
    /// current version's results replace them (empty once they have).
    stale: Vec<StaleVerdict>,
    /// The pending or running check job.
    job: Option<Job>,
    /// The trace step shown by the `zeno.trace.*` commands.
    cursor: Option<Cursor>,
    /// Set when the document is a UPPAAL or TChecker model: the analysed
    /// text is its zeno translation ([`foreign`]).
    translation: Option<Translation>,
    /// An `.xml` file that is not a UPPAAL model: neither reported nor
    /// checked.
    ignored: bool,
    /// The client opened the document. `false` for a query file `MODEL.q`
    /// read from disk because its model is open (as `zeno check MODEL.xml`
    /// reads it): checked and reported all the same, but requests about it
    /// are answered as about a closed document.
    opened: bool,
    /// Counts the texts set for analysis: an analysis is stored and
    /// published only while its text is the last one.
    generation: u64,
    /// The generation whose analysis is running off the lock, if any.
    analysing: Option<u64>,
    /// Check once that analysis is done.
    check_when_analysed: bool,
}

/// Messages computed under the state lock, sent after it is released.
#[derive(Default)]
struct Outgoing {
    /// Diagnostics of a document, with its version (`None` for one the
    /// client has not opened).
    publish: Vec<(Uri, Vec<Diagnostic>, Option<i32>)>,
    analyses: Vec<analysis::Pending>,
    status: Option<bool>,
    jobs: Vec<(Uri, u64)>,
    log: Vec<String>,
    refresh_lenses: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Trigger {
    Open,
    Change,
    Save,
}

fn not_open() -> Error {
    Error::invalid_params("the document is not open")
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic is caught before it can poison the lock, but never let a
    // poisoned lock take the server down.
    state.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    /// An open document, or the error a request about a closed one gets.
    fn open(&self, uri: &Uri) -> Result<&Doc> {
        self.docs.get(uri).filter(|d| d.opened).ok_or_else(not_open)
    }

    /// [`State::open`], to change the document.
    fn open_mut(&mut self, uri: &Uri) -> Result<&mut Doc> {
        self.docs
            .get_mut(uri)
            .filter(|d| d.opened)
            .ok_or_else(not_open)
    }

    /// The text of a document the client has open.
    fn open_text(&self, uri: &Uri) -> Option<String> {
        Some(self.open(uri).ok()?.doc.text.clone())
    }

    fn publish_payload(&self, uri: &Uri) -> Option<(Uri, Vec<Diagnostic>, Option<i32>)> {
        let d = self.docs.get(uri)?;
        let mut all = d.diagnostics.clone();
        let mut checks = Vec::new();
        if !d.stale.is_empty() && d.results.is_empty() {
            checks.extend(d.stale_diagnostics(uri, self.stale_reason(d)));
        }
        if let Some(network) = &d.network {
            for (i, r) in d.results.iter().enumerate() {
                let mut found = results::check_diagnostics(uri, d.model_index(), network, i, r);
                results::show_answer(&mut found, d.answers.get(i).and_then(Option::as_ref));
                checks.extend(found);
            }
        }
        // A query file's trace steps are edges of the model, not of the
        // file: the verdict's related information lists them.
        let query_file = d.translation.as_ref().is_some_and(|t| t.query_file);
        let step = Some(NumberOrString::String("trace-step".to_string()));
        all.extend(
            checks
                .into_iter()
                .filter(|c| !(query_file && c.code == step))
                .map(|c| d.located(c)),
        );
        Some((uri.clone(), all, d.opened.then_some(d.doc.version)))
    }

    fn stale_reason(&self, d: &Doc) -> Staleness {
        if d.job.is_some() {
            Staleness::Rechecking
        } else if d.network.is_none() {
            Staleness::ModelHasErrors
        } else {
            Staleness::UntilSaved
        }
    }

    /// The status to send, if it changed since the last one sent.
    fn status_change(&mut self) -> Option<bool> {
        let quiescent = self
            .docs
            .values()
            // An analysis that a check will follow counts as the check.
            .all(|d| d.job.is_none() && !(d.analysing.is_some() && d.check_when_analysed));
        if self.quiescent_sent == Some(quiescent) {
            return None;
        }
        self.quiescent_sent = Some(quiescent);
        Some(quiescent)
    }

    /// After a document's text changed: starts its analysis (off the
    /// lock, see [`analysis`]) unless it was only saved, drops the results
    /// of the old text, cancels its running check and (depending on the
    /// trigger and the settings) checks it again, once analysed.
    fn text_changed(&mut self, uri: &Uri, trigger: Trigger, out: &mut Outgoing) {
        let check = match trigger {
            Trigger::Open | Trigger::Save => true,
            Trigger::Change => self.settings.check_on_change,
        };
        // A query file's queries are checked on the model beside it, as
        // the editor has it.
        let model = (foreign::kind(uri, "") == foreign::Kind::QueryFile)
            .then(|| foreign::model_of(uri, |m| self.open_text(m)));
        let Some(d) = self.docs.get_mut(uri) else {
            return;
        };
        if let Some(job) = d.job.take() {
            job.stop();
        }
        if trigger != Trigger::Save {
            out.analyses.push(d.begin_analysis(uri, model));
            d.check_when_analysed = check;
        } else if d.analysing.is_some() {
            d.check_when_analysed |= check;
        } else if check {
            self.schedule_check(uri, out);
            out.publish.extend(self.publish_payload(uri));
        }
        self.query_file_follows(uri, trigger, out);
        out.status = self.status_change();
    }

    /// Schedules a check job for an analysed document (none for a file the
    /// server leaves alone).
    fn schedule_check(&mut self, uri: &Uri, out: &mut Outgoing) {
        let job_id = self.next_job;
        let Some(d) = self.docs.get_mut(uri).filter(|d| !d.ignored) else {
            return;
        };
        d.job = Some(Job::new(job_id));
        self.next_job += 1;
        out.jobs.push((uri.clone(), job_id));
    }

    /// The query file `MODEL.q` beside the UPPAAL model `uri`, after the
    /// model's text changed: read from disk when the model is opened (if
    /// the client has not opened it too), then checked again on the
    /// model's new text.
    fn query_file_follows(&mut self, model: &Uri, trigger: Trigger, out: &mut Outgoing) {
        let Some(q) = foreign::query_file_beside(model) else {
            return;
        };
        // An `.xml` file that is not a UPPAAL model has no query file.
        let is_model = self
            .docs
            .get(model)
            .is_some_and(|d| foreign::kind(model, &d.doc.text) != foreign::Kind::NotAModel);
        if !is_model {
            return;
        }
        if trigger == Trigger::Open
            && !self.docs.contains_key(&q)
            && let Some(d) = Doc::from_disk(&q, self.encoding)
        {
            self.docs.insert(q.clone(), d);
        }
        if self.docs.contains_key(&q) {
            self.text_changed(&q, trigger, out);
        }
    }

    /// After the client closed `uri`: a query file whose model is still
    /// open goes on as read from disk; a model's query file read from disk
    /// goes with it. Returns the documents no longer followed.
    fn after_close(&mut self, uri: &Uri, out: &mut Outgoing) -> Vec<Uri> {
        let model_open = foreign::kind(uri, "") == foreign::Kind::QueryFile
            && foreign::model_of(uri, |m| self.open_text(m)).is_ok_and(|m| {
                self.docs
                    .keys()
                    .any(|k| k.to_file_path().as_deref() == Some(&m.path))
            });
        if model_open && let Some(d) = Doc::from_disk(uri, self.encoding) {
            self.docs.insert(uri.clone(), d);
            self.text_changed(uri, Trigger::Open, out);
            return Vec::new();
        }
        let mut gone = Vec::new();
        if let Some(q) = foreign::query_file_beside(uri)
            && self.docs.get(&q).is_some_and(|d| !d.opened)
            && let Some(d) = self.docs.remove(&q)
        {
            if let Some(job) = d.job {
                job.stop();
            }
            gone.push(q);
        }
        gone
    }
}

impl Doc {
    fn new(version: i32, text: String, encoding: Encoding) -> Doc {
        Doc {
            doc: Document::with_encoding(version, text, encoding),
            host: AnalysisHost::new(),
            diagnostics: Vec::new(),
            network: None,
            results: Vec::new(),
            answers: Vec::new(),
            stale: Vec::new(),
            job: None,
            cursor: None,
            translation: None,
            ignored: false,
            opened: true,
            generation: 0,
            analysing: None,
            check_when_analysed: false,
        }
    }

    /// A query file the client has not opened, read from disk; `None` when
    /// it cannot be read (there is then nothing to follow).
    fn from_disk(uri: &Uri, encoding: Encoding) -> Option<Doc> {
        let bytes = std::fs::read(uri.to_file_path()?).ok()?;
        let mut d = Doc::new(0, String::from_utf8_lossy(&bytes).into_owned(), encoding);
        d.opened = false;
        Some(d)
    }

    /// The line index of the analysed text: the document's own, or its
    /// translation's.
    fn model_index(&self) -> &LineIndex {
        match &self.translation {
            Some(t) => &t.index,
            None => &self.doc.line_index,
        }
    }

    /// A diagnostic located in the analysed text, as the client sees it.
    fn located(&self, d: Diagnostic) -> Diagnostic {
        match &self.translation {
            Some(t) => t.place_in_document(&self.doc.text, &self.doc.line_index, d),
            None => d,
        }
    }

    /// The error of a request that needs positions in zeno text, for an
    /// imported document.
    fn needs_zeno_text(&self, what: &str) -> Result<()> {
        match &self.translation {
            Some(t) => Err(t.unsupported(what)),
            None => Ok(()),
        }
    }

    fn snapshot(&self, uri: &Uri) -> Snapshot {
        Snapshot {
            uri: uri.clone(),
            analysis: ide::Analysis::new(&self.host),
            index: self.doc.line_index.clone(),
        }
    }

    /// The stale verdicts moved onto the checks of the same name in the
    /// current text; a verdict whose check is gone is dropped.
    fn stale_diagnostics(&self, uri: &Uri, why: Staleness) -> Vec<Diagnostic> {
        let Ok(tree) = guarded(|| self.host.item_tree()) else {
            return Vec::new();
        };
        self.stale
            .iter()
            .filter_map(|v| {
                let check = tree.checks.iter().find(|c| c.name.text == v.check)?;
                Some(results::stale_diagnostic(
                    uri,
                    self.model_index(),
                    check.name.span,
                    v,
                    why,
                ))
            })
            .collect()
    }
}

impl Backend {
    pub fn new(client: Client, shut_down: Arc<AtomicBool>) -> Backend {
        Backend {
            client,
            state: Arc::new(Mutex::new(State::default())),
            outbox: Arc::new(tokio::sync::Mutex::new(())),
            shut_down,
            analyses_done: Arc::new(tokio::sync::watch::Sender::new(0)),
        }
    }

    fn clone_handle(&self) -> Backend {
        Backend {
            client: self.client.clone(),
            state: self.state.clone(),
            outbox: self.outbox.clone(),
            shut_down: self.shut_down.clone(),
            analyses_done: self.analyses_done.clone(),
        }
    }

    /// Waits until the last text of `uri` is analysed, so that a request
    /// about its model (verdicts, traces, pictures, the simulator) that
    /// came after an edit is answered on the edited text, as the protocol's
    /// order implies. Returns at once for a document that is not open.
    async fn settled(&self, uri: &Uri) {
        let mut done = self.analyses_done.subscribe();
        loop {
            let analysing = lock(&self.state)
                .docs
                .get(uri)
                .is_some_and(|d| d.analysing.is_some());
            // The sender lives in `self`: waiting cannot fail.
            if !analysing || done.changed().await.is_err() {
                return;
            }
        }
    }

    /// Sends what a state change produced and starts its jobs. The caller
    /// holds the outbox lock.
    async fn send(&self, out: Outgoing) {
        for msg in out.log {
            self.client.log_message(MessageType::ERROR, msg).await;
        }
        for (uri, diagnostics, version) in out.publish {
            self.client
                .publish_diagnostics(uri, diagnostics, version)
                .await;
        }
        if let Some(quiescent) = out.status {
            self.client
                .send_notification::<ServerStatus>(ServerStatusParams { quiescent })
                .await;
        }
        if out.refresh_lenses {
            // Not awaited here: the answer may take a while.
            let client = self.client.clone();
            tokio::spawn(async move { client.code_lens_refresh().await });
        }
        for pending in out.analyses {
            tokio::spawn(self.clone_handle().run_analysis(pending));
        }
        for (uri, id) in out.jobs {
            let this = self.clone_handle();
            tokio::spawn(this.run_job(uri, id));
        }
    }

    /// Applies `f` to the state and sends what it produced, in order.
    async fn update(&self, f: impl FnOnce(&mut State, &mut Outgoing) + Send) {
        let _outbox = self.outbox.lock().await;
        let mut out = Outgoing::default();
        f(&mut lock(&self.state), &mut out);
        self.send(out).await;
    }

    /// Applies queued edits that waited too long for a missing version.
    async fn flush_gap(&self, uri: Uri, version: i32) {
        tokio::time::sleep(GAP_WAIT).await;
        self.update(|st, out| {
            let Some(d) = st.docs.get_mut(&uri) else {
                return;
            };
            if d.doc.version < version && d.doc.has_pending() && d.doc.flush_pending() {
                st.text_changed(&uri, Trigger::Change, out);
            }
        })
        .await;
    }
}

impl Backend {
    /// The lowered network and check results of an open document, copied
    /// out of the lock for drawing (`None` when the model does not lower).
    pub(crate) fn picture_snapshot(
        &self,
        uri: &Uri,
        position: Option<Position>,
    ) -> Result<Option<super::pictures::Snapshot>> {
        let st = lock(&self.state);
        let d = st.open(uri)?;
        let offset = position.map_or(0, |p| d.doc.line_index.offset(p));
        // An imported model is drawn too: the cursor found in the
        // translation, a UPPAAL file at its own coordinates.
        let (offset, drawings) = match &d.translation {
            None => (offset, Vec::new()),
            Some(t) if t.query_file => return Err(t.unsupported("drawing")),
            Some(t) => (
                t.back(&d.doc.text, offset).unwrap_or(u32::MAX),
                match t.format {
                    zeno_import::Format::UppaalXml => zeno_import::uppaal_layout(&d.doc.text),
                    _ => Vec::new(),
                },
            ),
        };
        Ok(d.network.as_ref().map(|n| super::pictures::Snapshot {
            network: Arc::clone(n),
            results: d.results.clone(),
            offset,
            drawings,
        }))
    }
}

impl Backend {
    /// What `zeno/simulate` needs of an open document, copied out of the
    /// lock (`None` when the model does not lower): the network, the line
    /// index and, when asked, a check's current trace.
    pub(crate) fn simulation_snapshot(
        &self,
        uri: &Uri,
        check: Option<&str>,
    ) -> Result<Option<super::simulate::SimSnapshot>> {
        let st = lock(&self.state);
        let d = st.open(uri)?;
        // An imported model is simulated too, its places in the file.
        let places = match &d.translation {
            None => super::places::Places::Text(d.doc.line_index.clone()),
            Some(t) if t.query_file => return Err(t.unsupported("the simulator")),
            Some(t) => t.places(&d.doc.text, d.doc.line_index.clone()),
        };
        let Some(network) = &d.network else {
            return Ok(None);
        };
        let trace = check.map(|name| {
            use super::simulate::SimulateError;
            let index = network
                .checks
                .iter()
                .position(|c| c.name == name)
                .ok_or_else(|| SimulateError::NoSuchCheck(name.to_string()))?;
            match d.results.get(index) {
                None => Err(SimulateError::Undecided(name.to_string())),
                Some(r) => r.trace.clone().ok_or_else(|| SimulateError::NoTrace {
                    check: name.to_string(),
                    verdict: zeno_report::summary(network, &network.checks[index], r),
                }),
            }
        });
        Ok(Some(super::simulate::SimSnapshot {
            network: Arc::clone(network),
            places,
            trace,
        }))
    }
}

impl Backend {
    /// A snapshot of an open document, taken under the state lock; `None`
    /// for an imported document, whose analysed text is not the one the
    /// client's positions are in.
    fn snapshot(&self, uri: &Uri) -> Result<Option<Snapshot>> {
        let st = lock(&self.state);
        let d = st.open(uri)?;
        Ok(d.translation.is_none().then(|| d.snapshot(uri)))
    }

    /// Snapshots of every open zeno document.
    fn snapshots(&self) -> Vec<Snapshot> {
        let st = lock(&self.state);
        st.docs
            .iter()
            .filter(|(_, d)| d.translation.is_none() && !d.ignored)
            .map(|(uri, d)| d.snapshot(uri))
            .collect()
    }

    /// Answers a request about an open document's contents: `f` runs on a
    /// snapshot after the state lock is released, under the panic guard.
    /// An imported document gets the empty answer.
    fn on_document<T: Default>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&Snapshot) -> Result<T>,
    ) -> Result<T> {
        guard::request(|| match self.snapshot(uri)? {
            Some(s) => f(&s),
            None => Ok(T::default()),
        })
    }
}

fn apply_settings(st: &mut State, value: &Value, out: &mut Outgoing) {
    let bad = st.settings.update(value);
    if !bad.is_empty() {
        out.log
            .push(format!("ignored settings: {}", bad.join("; ")));
    }
    // Checks run in this process: its budget is theirs.
    zeno_base::memory::set_budget(
        st.settings
            .memory
            .or_else(zeno_base::memory::default_budget),
    );
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        lock(&self.state).work_done_progress = params
            .capabilities
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false);
        lock(&self.state).code_lens_refresh = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false);
        let encoding = super::line_index::negotiate(
            params
                .capabilities
                .general
                .as_ref()
                .and_then(|g| g.position_encodings.as_deref()),
        );
        lock(&self.state).encoding = encoding;
        if let Some(options) = &params.initialization_options {
            let mut out = Outgoing::default();
            apply_settings(&mut lock(&self.state), options, &mut out);
            // The client cannot receive messages before the reply; log to stderr.
            for msg in out.log {
                tracing::warn!("zeno lsp: {msg}");
            }
        }
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(super::line_index::kind(encoding)),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                document_symbol_provider: Some(OneOf::Left(true)),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                signature_help_provider: Some(SignatureHelpOptions {
                    trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
                    ..SignatureHelpOptions::default()
                }),
                semantic_tokens_provider: Some(
                    SemanticTokensServerCapabilities::SemanticTokensOptions(
                        SemanticTokensOptions {
                            legend: features::tokens::legend(),
                            full: Some(SemanticTokensFullOptions::Bool(true)),
                            ..SemanticTokensOptions::default()
                        },
                    ),
                ),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Left(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![".".to_string()]),
                    ..CompletionOptions::default()
                }),
                inlay_hint_provider: Some(OneOf::Left(true)),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                code_lens_provider: Some(CodeLensOptions {
                    resolve_provider: Some(false),
                }),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: lenses::COMMANDS.iter().map(|c| c.to_string()).collect(),
                    ..ExecuteCommandOptions::default()
                }),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "zeno".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::SeqCst);
        let st = lock(&self.state);
        for d in st.docs.values() {
            if let Some(job) = &d.job {
                job.stop();
            }
        }
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        self.update(|st, out| {
            if let Some(old) = st.docs.insert(
                doc.uri.clone(),
                Doc::new(doc.version, doc.text, st.encoding),
            ) && let Some(job) = old.job
            {
                job.stop();
            }
            st.text_changed(&doc.uri, Trigger::Open, out);
        })
        .await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let mut queued = false;
        self.update(|st, out| {
            let Some(d) = st.docs.get_mut(&uri) else {
                out.log
                    .push(format!("didChange for a closed document {}", uri.as_str()));
                return;
            };
            match d.doc.change(version, params.content_changes) {
                ChangeOutcome::Applied => st.text_changed(&uri, Trigger::Change, out),
                ChangeOutcome::Queued => queued = true,
                ChangeOutcome::Resynced { last } => {
                    out.log.push(format!(
                        "didChange for {} has version {version}, not above the last applied \
                         ({last}): applied to the current text, and version {version} adopted",
                        uri.as_str()
                    ));
                    st.text_changed(&uri, Trigger::Change, out);
                }
            }
        })
        .await;
        if queued {
            let this = self.clone_handle();
            tokio::spawn(async move { this.flush_gap(uri, version).await });
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        self.update(|st, out| {
            if st.docs.contains_key(&uri) && !st.settings.check_on_change {
                st.text_changed(&uri, Trigger::Save, out);
            }
        })
        .await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.update(|st, out| {
            if let Some(d) = st.docs.remove(&uri) {
                if let Some(job) = d.job {
                    job.stop();
                }
                out.publish
                    .push((uri.clone(), Vec::new(), Some(d.doc.version)));
            }
            for gone in st.after_close(&uri, out) {
                out.publish.push((gone, Vec::new(), None));
            }
            out.status = st.status_change();
        })
        .await;
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.on_document(&params.text_document.uri, |s| {
            Ok(Some(DocumentSymbolResponse::Nested(
                features::symbols::document_symbols(s),
            )))
        })
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        self.on_document(&p.text_document.uri, |s| {
            Ok(features::definition::definition(s, p.position))
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        self.on_document(&p.text_document.uri, |s| {
            Ok(Some(features::completion::completion(s, p.position)))
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let include_declaration = params.context.include_declaration;
        self.on_document(&p.text_document.uri, |s| {
            Ok(Some(features::references::references(
                s,
                p.position,
                include_declaration,
            )))
        })
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        self.on_document(&p.text_document.uri, |s| {
            features::references::rename(s, p.position, &params.new_name).map(Some)
        })
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        self.on_document(&params.text_document.uri, |s| {
            Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data: features::tokens::semantic_tokens(s),
            })))
        })
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        self.settled(&p.text_document.uri).await;
        if let Some(check) = guard::request(|| self.check_hover(&p.text_document.uri, p.position))?
        {
            return Ok(Some(check));
        }
        self.on_document(&p.text_document.uri, |s| {
            Ok(features::hover::hover(s, p.position))
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = &params.text_document.uri;
        let diagnostics = &params.context.diagnostics;
        let mut fixes = features::code_actions::quick_fixes(uri, diagnostics);
        fixes.extend(self.on_document(uri, |s| {
            Ok(features::code_actions::declarations(s, diagnostics))
        })?);
        Ok((!fixes.is_empty()).then_some(fixes))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.on_document(&params.text_document.uri, |s| {
            Ok(Some(features::format::format(s)))
        })
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let p = params.text_document_position_params;
        self.on_document(&p.text_document.uri, |s| {
            Ok(features::signature::signature_help(s, p.position))
        })
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.on_document(&params.text_document.uri, |s| {
            Ok(Some(features::folding::folding_ranges(s)))
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.settled(&params.text_document.uri).await;
        guard::request(|| self.on_inlay_hint(params))
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let query = params.query.to_lowercase();
        guard::request(|| {
            let mut out = Vec::new();
            for s in self.snapshots() {
                features::symbols::workspace_symbols(&s, &query, &mut out);
            }
            out.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(Some(WorkspaceSymbolResponse::Flat(out)))
        })
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        self.settled(&params.text_document.uri).await;
        guard::request(|| self.on_code_lens(params))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let uri = params.arguments.first().and_then(|a| a.get("uri"));
        if let Some(uri) = uri.and_then(|u| serde_json::from_value::<Uri>(u.clone()).ok()) {
            self.settled(&uri).await;
        }
        guard::request(|| self.on_execute_command(params))
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.update(|st, out| {
            let before = st.settings.clone();
            apply_settings(st, &params.settings, out);
            // New search settings may change the results: check again.
            if st.settings != before {
                let uris: Vec<Uri> = st.docs.keys().cloned().collect();
                for uri in uris {
                    st.text_changed(&uri, Trigger::Save, out);
                }
            }
        })
        .await;
    }
}

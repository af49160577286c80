//! Check jobs: after an edit settles, every check of the document runs in
//! order on a blocking worker thread, each under its own `$/progress` token
//! with a cancel button. Cancelling a token stops only that check (its
//! result is "unknown: cancelled"); a newer edit or closing the document
//! stops the whole job.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Cancellable, OngoingProgress, Unbounded};

use super::{Backend, guarded, lock};
use crate::config::Settings;
use crate::results;
use zeno_checker::{self as checker, Cancel, CheckResult, Limit, Stats, Verdict};
use zeno_ir as ir;

/// How long to wait for the client to accept a progress token before
/// checking without progress reports.
const PROGRESS_CREATE_WAIT: Duration = Duration::from_secs(10);

/// The pending or running check job of a document.
pub(super) struct Job {
    pub(super) id: u64,
    /// Stops the whole job: a newer edit, closing the document, shutdown.
    cancel: Cancel,
    /// One flag per check, set by that check's cancel button. Filled in
    /// (under the state lock) when the job starts checking, so that `stop`
    /// reaches every check that can be running.
    checks: Vec<Cancel>,
}

impl Job {
    pub(super) fn new(id: u64) -> Job {
        Job {
            id,
            cancel: Cancel::new(),
            checks: Vec::new(),
        }
    }

    /// Stops the job and whichever of its checks is running.
    pub(super) fn stop(&self) {
        self.cancel.cancel();
        for c in &self.checks {
            c.cancel();
        }
    }
}

/// The progress token of check `check` of job `job`.
fn progress_token(job: u64, check: usize) -> String {
    format!("zeno/check/{job}/{check}")
}

fn cancelled() -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(Limit::Cancelled),
        stats: Stats::default(),
        trace: None,
    }
}

/// What a job needs, copied out of the state when it starts.
struct JobInput {
    network: Arc<ir::Network>,
    /// The text the network was lowered from (a foreign document's
    /// translation), where a value query's expressions are written.
    text: Arc<str>,
    settings: Settings,
    cancel: Cancel,
    checks: Vec<Cancel>,
    work_done_progress: bool,
}

impl Backend {
    /// Spawned by `send` for every scheduled job. Boxed with an explicit
    /// `Send` because `send` awaits this future's caller in turn.
    pub(super) fn run_job(self, uri: Uri, id: u64) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        Box::pin(async move { self.job(uri, id).await })
    }

    /// One check job: wait for the edits to settle, check, publish unless a
    /// newer job replaced this one.
    async fn job(&self, uri: Uri, id: u64) {
        let debounce = lock(&self.state).settings.debounce;
        tokio::time::sleep(debounce).await;
        let input = {
            let mut guard = lock(&self.state);
            let st = &mut *guard;
            let Some(d) = st.docs.get_mut(&uri) else {
                return;
            };
            let Some(job) = d.job.as_mut().filter(|j| j.id == id) else {
                return;
            };
            d.network.clone().map(|network| {
                job.checks = network.checks.iter().map(|_| Cancel::new()).collect();
                JobInput {
                    text: d
                        .translation
                        .as_ref()
                        .map_or(d.doc.text.as_str(), |t| t.zeno.as_str())
                        .into(),
                    network,
                    settings: st.settings.clone(),
                    cancel: job.cancel.clone(),
                    checks: job.checks.clone(),
                    work_done_progress: st.work_done_progress,
                }
            })
        };
        let (results, answers) = match input {
            Some(input) => self.check_all(input, id).await,
            None => (Vec::new(), Vec::new()),
        };
        self.update(|st, out| {
            let Some(d) = st.docs.get_mut(&uri) else {
                return;
            };
            match &d.job {
                // Replaced by a newer job: that one reports.
                Some(job) if job.id == id => {}
                _ => return,
            }
            d.job = None;
            d.results = results;
            d.answers = answers;
            // The earlier verdicts give way to this version's, unless this
            // version could not be checked at all (the model has errors).
            if d.network.is_some() {
                d.stale.clear();
            }
            d.cursor = None;
            out.refresh_lenses = st.code_lens_refresh;
            out.publish.extend(st.publish_payload(&uri));
            out.status = st.status_change();
        })
        .await;
    }

    /// Runs the checks in order. Once the job is stopped, the remaining
    /// checks are reported as cancelled without running.
    async fn check_all(&self, input: JobInput, id: u64) -> (Vec<CheckResult>, Vec<Option<String>>) {
        let mut work_done_progress = input.work_done_progress;
        let mut out = Vec::new();
        let mut answers = Vec::new();
        for check_id in input.network.check_ids() {
            let (i, check) = (check_id.index(), input.network.check(check_id));
            if input.cancel.is_cancelled() {
                out.push(cancelled());
                answers.push(None);
                continue;
            }
            let progress = if work_done_progress {
                let p = self
                    .begin_progress(progress_token(id, i), &check.name)
                    .await;
                // A client that did not accept one token gets no more
                // requests for this job (each would wait again).
                work_done_progress = p.is_some();
                p
            } else {
                None
            };
            let cancel = input.checks.get(i).cloned().unwrap_or_default();
            let options = input.settings.options().for_check(&input.network, check_id);
            let network = input.network.clone();
            let text = input.text.clone();
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
            let worker = tokio::task::spawn_blocking(move || {
                let _ = tx.send(0);
                guarded(|| {
                    let mut report = |stats: &checker::Stats| {
                        let _ = tx.send(stats.explored);
                    };
                    if matches!(network.check(check_id).kind, ir::CheckKind::Bound(_)) {
                        // A value query: its answer is shown as information.
                        let answer = checker::check_bounds(
                            &network,
                            check_id,
                            &options,
                            &cancel,
                            &mut report,
                        );
                        let words = results::bound_answer(&text, &network, i, &answer);
                        return (answer.result, words);
                    }
                    let result = checker::check(&network, check_id, &options, &cancel, &mut report);
                    (result, None)
                })
            });
            tokio::pin!(worker);
            let result = loop {
                // Reports first: every one sent before the check ended is
                // forwarded before its end.
                tokio::select! {
                    biased;
                    Some(explored) = rx.recv() => {
                        if let Some(p) = &progress {
                            p.report_with_message(format!("{explored} states explored"), None)
                                .await;
                        }
                    }
                    done = &mut worker => break done,
                }
            };
            // A panic is reported as "unknown"; its message went to stderr.
            let (result, answer) = match result {
                Ok(Ok(r)) => r,
                _ => (cancelled(), None),
            };
            if let Some(p) = progress {
                let (_, message) = results::verdict_message(&input.network, check, &result);
                p.finish_with_message(answer.clone().unwrap_or(message))
                    .await;
            }
            out.push(result);
            answers.push(answer);
        }
        (out, answers)
    }

    /// Creates a progress token and begins it (titled with the check's
    /// name, with a cancel button), or `None` when the client refuses it or
    /// does not answer in time.
    async fn begin_progress(
        &self,
        token: String,
        check: &str,
    ) -> Option<OngoingProgress<Unbounded, Cancellable>> {
        let token = NumberOrString::String(token);
        let created = tokio::time::timeout(
            PROGRESS_CREATE_WAIT,
            self.client.create_work_done_progress(token.clone()),
        )
        .await;
        if !matches!(created, Ok(Ok(()))) {
            return None;
        }
        Some(
            self.client
                .progress(token, format!("zeno: checking {check}"))
                .with_cancel_button()
                .begin()
                .await,
        )
    }

    /// `window/workDoneProgress/cancel`: the user stopped one check.
    pub async fn work_done_progress_cancel(&self, params: WorkDoneProgressCancelParams) {
        let NumberOrString::String(token) = params.token else {
            return;
        };
        let st = lock(&self.state);
        for d in st.docs.values() {
            let Some(job) = &d.job else { continue };
            for (i, c) in job.checks.iter().enumerate() {
                if progress_token(job.id, i) == token {
                    c.cancel();
                }
            }
        }
    }
}

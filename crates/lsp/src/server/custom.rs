//! The handlers of zeno's own requests ([`crate::lsp_ext`] declares their
//! names and types; `serve` registers them). Each waits until the
//! document's last text is analysed, copies what it needs out of the state
//! under the lock, and works on the copy after the
//! lock is released: drawing and simulating on a blocking thread, with the
//! features' own modules ([`crate::pictures`], [`crate::simulate`]).
//! (`window/workDoneProgress/cancel` is with the check jobs.)

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::Uri;

use super::{Backend, Doc, guard, lock};
use crate::lsp_ext::{
    Answer, DocumentText, DocumentTextRequest, ErrorTraceRequest, GraphSvgRequest, Params,
    SimulateRequest, TraceSvgRequest,
};
use crate::{pictures, results, simulate};

/// Runs `f` on a blocking thread; a panic there is an internal error
/// about `doing`.
async fn off_thread<T: Send + 'static>(
    doing: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| Error {
        message: format!("internal error while {doing}: {e}").into(),
        ..Error::internal_error()
    })
}

impl Backend {
    /// What a request about the model of the open document `uri` needs,
    /// taken by `f` under the state lock once its last text is analysed,
    /// under the panic guard.
    async fn on_model<T>(&self, uri: &Uri, f: impl FnOnce(&Doc) -> Result<T>) -> Result<T> {
        self.settled(uri).await;
        guard::request(|| f(lock(&self.state).open(uri)?))
    }

    /// `zeno/errorTrace`: the structured trace of a check of an open document.
    pub async fn error_trace(
        &self,
        params: Params<ErrorTraceRequest>,
    ) -> Result<Answer<ErrorTraceRequest>> {
        self.on_model(&params.uri, |d| {
            d.needs_zeno_text("zeno/errorTrace")?;
            let Some(network) = &d.network else {
                return Ok(None);
            };
            let index = network.check_named(&params.check).ok_or_else(|| {
                Error::invalid_params(format!("no check named `{}`", params.check))
            })?;
            let index = index.index();
            Ok(d.results
                .get(index)
                .and_then(|r| results::error_trace(&d.doc.line_index, network, index, r)))
        })
        .await
    }

    /// `zeno/documentText`: the text the server holds for an open document,
    /// so that a client (or a test) can see that it equals its own. It does
    /// not wait for the analysis: the text is there at once.
    pub async fn document_text(
        &self,
        params: Params<DocumentTextRequest>,
    ) -> Result<Answer<DocumentTextRequest>> {
        guard::request(|| {
            let st = lock(&self.state);
            let d = st.open(&params.uri)?;
            Ok(DocumentText {
                version: d.doc.version,
                text: d.doc.text.clone(),
            })
        })
    }

    /// `zeno/traceSvg`: the timeline of a check's current trace, or `null`
    /// when the check is unknown or has no trace (yet).
    pub async fn trace_svg(
        &self,
        params: Params<TraceSvgRequest>,
    ) -> Result<Answer<TraceSvgRequest>> {
        self.settled(&params.uri).await;
        let snap = guard::request(|| self.picture_snapshot(&params.uri, None))?;
        let Some(snap) = snap else {
            return Ok(None);
        };
        off_thread("drawing", move || {
            pictures::draw_trace(&snap, &params.check)
        })
        .await
    }

    /// `zeno/graphSvg`: the automata of the template under the cursor (all
    /// its instances), with the first violated check's trace numbered on
    /// them; `null` outside templates.
    pub async fn graph_svg(
        &self,
        params: Params<GraphSvgRequest>,
    ) -> Result<Answer<GraphSvgRequest>> {
        self.settled(&params.uri).await;
        let snap = guard::request(|| self.picture_snapshot(&params.uri, Some(params.position)))?;
        let Some(snap) = snap else {
            return Ok(None);
        };
        off_thread("drawing", move || pictures::draw_graph(&snap))
            .await?
            .map_err(|msg| Error {
                message: msg.into(),
                ..Error::internal_error()
            })
    }

    /// `zeno/simulate`: replays the steps (or a check's trace) on an open
    /// document's network; `null` while the document has errors (no
    /// network).
    pub async fn simulate(
        &self,
        params: Params<SimulateRequest>,
    ) -> Result<Answer<SimulateRequest>> {
        self.settled(&params.uri).await;
        let snap =
            guard::request(|| self.simulation_snapshot(&params.uri, params.trace.as_deref()))?;
        let Some(snap) = snap else {
            return Ok(None);
        };
        off_thread("simulating", move || {
            guard::request(|| {
                simulate::simulate(&snap, &params)
                    .map(Some)
                    .map_err(|e| Error::invalid_params(e.to_string()))
            })
        })
        .await?
    }
}

//! `zeno/traceSvg` and `zeno/graphSvg`: the pictures of [`zeno_pictures`]
//! for an open document, drawn from the network and traces the server
//! already has (no search is re-run). The state lock is only held to take a
//! snapshot; drawing (which may run Graphviz) happens on a blocking thread.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{Position, Uri};

use crate::lsp_ext::{Answer, GraphSvgRequest, Params, TraceSvgRequest};
use crate::server::Backend;
use zeno_checker::{CheckResult, Trace, Verdict};
use zeno_ir::Network;

/// Parameters of `zeno/traceSvg`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TraceSvgParams {
    /// The document.
    pub uri: Uri,
    /// The check's name.
    pub check: String,
}

/// Answer of `zeno/traceSvg`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceSvg {
    /// The picture, as SVG.
    pub svg: String,
}

/// Parameters of `zeno/graphSvg`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GraphSvgParams {
    /// The document.
    pub uri: Uri,
    /// Where the cursor is: the template around it is drawn.
    pub position: Position,
}

/// Answer of `zeno/graphSvg`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphSvg {
    /// The picture, as SVG.
    pub svg: String,
    /// The template drawn (all its instances).
    pub template: String,
}

/// What the state holds for one document, copied out of the lock.
pub(crate) struct Snapshot {
    pub network: Arc<Network>,
    pub results: Vec<CheckResult>,
    /// The byte offset of the requested position in the analysed text, if
    /// any (`u32::MAX`: in no template).
    pub offset: u32,
    /// The drawing a UPPAAL XML file carries (empty for other documents).
    pub drawings: Vec<zeno_import::TemplateLayout>,
}

/// The template whose body contains `offset` (processes carry their
/// template's span).
pub fn template_at(network: &Network, offset: u32) -> Option<&str> {
    network
        .processes
        .iter()
        .find(|p| p.span.start <= offset && offset < p.span.end)
        .map(|p| p.template.as_str())
}

/// The trace to number on automata: the first violated check's trace.
pub fn highlight_trace(results: &[CheckResult]) -> Option<&Trace> {
    results
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Fails | Verdict::ModelError(_)))
        .find_map(|r| r.trace.as_ref())
}

fn draw_trace(s: &Snapshot, check: &str) -> Option<TraceSvg> {
    let id = s.network.check_named(check)?;
    let trace = s.results.get(id.index())?.trace.as_ref()?;
    Some(TraceSvg {
        svg: zeno_pictures::trace_svg(&s.network, id, trace),
    })
}

fn draw_graph(s: &Snapshot) -> std::result::Result<Option<GraphSvg>, String> {
    let Some(template) = template_at(&s.network, s.offset) else {
        return Ok(None);
    };
    let trace = highlight_trace(&s.results);
    let svg = match s.drawings.is_empty() {
        true => zeno_pictures::graph_svg(&s.network, Some(template), trace),
        false => zeno_pictures::graph_svg_drawn(&s.network, Some(template), trace, &s.drawings),
    }
    .map_err(|e| e.to_string())?;
    Ok(Some(GraphSvg {
        svg,
        template: template.to_owned(),
    }))
}

async fn off_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| Error {
        message: format!("internal error while drawing: {e}").into(),
        ..Error::internal_error()
    })
}

impl Backend {
    /// `zeno/traceSvg`: the timeline of a check's current trace, or `null`
    /// when the check is unknown or has no trace (yet).
    pub async fn trace_svg(
        &self,
        params: Params<TraceSvgRequest>,
    ) -> Result<Answer<TraceSvgRequest>> {
        let Some(snap) = self.picture_snapshot(&params.uri, None)? else {
            return Ok(None);
        };
        off_thread(move || draw_trace(&snap, &params.check)).await
    }

    /// `zeno/graphSvg`: the automata of the template under the cursor (all
    /// its instances), with the first violated check's trace numbered on
    /// them; `null` outside templates.
    pub async fn graph_svg(
        &self,
        params: Params<GraphSvgRequest>,
    ) -> Result<Answer<GraphSvgRequest>> {
        let Some(snap) = self.picture_snapshot(&params.uri, Some(params.position))? else {
            return Ok(None);
        };
        off_thread(move || draw_graph(&snap))
            .await?
            .map_err(|msg| Error {
                message: msg.into(),
                ..Error::internal_error()
            })
    }
}

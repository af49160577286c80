//! `zeno/traceSvg` and `zeno/graphSvg`: the pictures of [`zeno_pictures`]
//! for an open document, drawn from the network and traces the server
//! already has (no search is re-run). The state lock is only held to take a
//! snapshot; drawing (which may run Graphviz) happens on a blocking thread.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{Position, Uri};

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

/// The timeline of check `check`'s current trace (`None` without one).
pub(crate) fn draw_trace(s: &Snapshot, check: &str) -> Option<TraceSvg> {
    let id = s.network.check_named(check)?;
    let trace = s.results.get(id.index())?.trace.as_ref()?;
    Some(TraceSvg {
        svg: zeno_pictures::trace_svg(&s.network, id, trace),
    })
}

/// The automata of the template at the snapshot's offset (`None`
/// outside templates), the first violated check's trace numbered on them.
pub(crate) fn draw_graph(s: &Snapshot) -> std::result::Result<Option<GraphSvg>, String> {
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

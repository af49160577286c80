//! Pictures of models and traces: automata drawn as graphs (DOT or SVG) and
//! traces drawn as timelines (SVG), with text and JSON forms of traces.
//!
//! Graph layout uses Graphviz's `dot` when it is on `PATH`, and otherwise a
//! pure-Rust layered layout; either way the SVG is self-contained (no
//! external fonts, images or DTDs).
//!
//! ```no_run
//! use zeno_checker::{self as checker, Cancel, Options};
//! use zeno_pictures as pictures;
//!
//! let text = std::fs::read_to_string("models/fischer-buggy.zeno").unwrap();
//! let network = zeno_semantics::analyze(&text).network.unwrap();
//! let check = network.check_named("mutex").unwrap();
//! let result = checker::check(&network, check, &Options::default(), &Cancel::new(), &mut checker::no_progress);
//! if let Some(trace) = &result.trace {
//!     // Proc(1) with the edges of the trace numbered, and the timeline.
//!     let graph = pictures::graph_svg(&network, Some("Proc(1)"), Some(trace)).unwrap();
//!     let timeline = pictures::trace_svg(&network, check, trace);
//!     println!("{graph}{timeline}{}", pictures::trace_text(&network, check, trace));
//! }
//! ```
#![warn(missing_docs)]

mod builtin;
mod diagram;
mod dot;
mod drawn;
mod graphviz;
pub mod pretty;
mod selects;
mod style;
mod timeline;
mod trace_text;

use zeno_checker::Trace;
use zeno_ir::Network;

pub use timeline::{run_svg, trace_svg};
pub use trace_text::{trace_json, trace_text};

/// Why a picture could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// No process or template has this name.
    #[error("no process or template named `{name}` (there are: {})", known.join(", "))]
    UnknownProcess {
        /// The name asked for.
        name: String,
        /// The processes and templates there are.
        known: Vec<String>,
    },
    /// The layout engine failed.
    #[error("layout failed: {0}")]
    Layout(String),
}

/// Which engine lays out a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LayoutEngine {
    /// Graphviz when `dot` is on `PATH`, else the built-in layout.
    #[default]
    Auto,
    /// Graphviz only (an error when `dot` is missing).
    Graphviz,
    /// The built-in pure-Rust layout.
    Builtin,
}

/// The DOT text of the processes selected by `template_or_process` (a process
/// name such as `Proc(1)`, or a template name for all its instances; `None`
/// draws every process), one cluster per process. With `highlight`, the edges
/// the trace takes carry their step numbers (`#1 #3`) and are coloured.
pub fn graph_dot(
    network: &Network,
    template_or_process: Option<&str>,
    highlight: Option<&Trace>,
) -> Result<String, PictureError> {
    let graphs = diagram::build(network, template_or_process, highlight)?;
    Ok(dot::write(&graphs))
}

/// [`graph_dot`] laid out as a self-contained SVG, by Graphviz when it is
/// installed (and works) and by the built-in layout otherwise.
pub fn graph_svg(
    network: &Network,
    template_or_process: Option<&str>,
    highlight: Option<&Trace>,
) -> Result<String, PictureError> {
    graph_svg_with(network, template_or_process, highlight, LayoutEngine::Auto)
}

/// [`graph_svg`] with a chosen layout engine.
pub fn graph_svg_with(
    network: &Network,
    template_or_process: Option<&str>,
    highlight: Option<&Trace>,
    engine: LayoutEngine,
) -> Result<String, PictureError> {
    let graphs = diagram::build(network, template_or_process, highlight)?;
    match engine {
        LayoutEngine::Builtin => builtin::svg(&graphs),
        LayoutEngine::Graphviz => graphviz::svg(&dot::write(&graphs))?
            .ok_or_else(|| PictureError::Layout("Graphviz `dot` is not on PATH".to_owned())),
        // A missing or failing `dot` is no reason not to draw.
        LayoutEngine::Auto => match graphviz::svg(&dot::write(&graphs)) {
            Ok(Some(svg)) => Ok(svg),
            Ok(None) | Err(_) => builtin::svg(&graphs),
        },
    }
}

/// [`graph_svg`] of a model imported from a UPPAAL XML file, drawn as the
/// file draws it: each process whose template `drawings` has (every
/// location with coordinates) by the built-in writer at those coordinates,
/// with the file's nails and label places; the others laid out as usual.
pub fn graph_svg_drawn(
    network: &Network,
    template_or_process: Option<&str>,
    highlight: Option<&Trace>,
    drawings: &[zeno_import::TemplateLayout],
) -> Result<String, PictureError> {
    let graphs = diagram::build(network, template_or_process, highlight)?;
    builtin::svg_drawn(&graphs, drawings)
}

/// Whether Graphviz's `dot` can be run.
pub fn graphviz_available() -> bool {
    std::process::Command::new("dot")
        .arg("-V")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

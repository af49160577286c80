//! zeno's own methods of the protocol, one type each with its parameters,
//! its result and its method name (as rust-analyzer's and taplo's
//! `lsp_ext`): the server registers its handlers under these names and
//! declares them with these types ([`Params`], [`Answer`]), so a method's
//! name and types have this one home. The editors' clients (editors/)
//! call them by the same names.

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::ls_types::notification::Notification;
use tower_lsp_server::ls_types::request::Request;

use super::pictures::{GraphSvg, GraphSvgParams, TraceSvg, TraceSvgParams};
use super::results::{ErrorTrace, ErrorTraceParams};
use super::simulate::{SimulateParams, SimulateResult};

/// The parameters of the request `R`.
pub type Params<R> = <R as Request>::Params;

/// The result of the request `R`.
pub type Answer<R> = <R as Request>::Result;

/// `zeno/errorTrace`: a check's trace, step by step, in the document.
pub enum ErrorTraceRequest {}

impl Request for ErrorTraceRequest {
    type Params = ErrorTraceParams;
    type Result = Option<ErrorTrace>;
    const METHOD: &'static str = "zeno/errorTrace";
}

/// `zeno/traceSvg`: a check's trace drawn as a timeline.
pub enum TraceSvgRequest {}

impl Request for TraceSvgRequest {
    type Params = TraceSvgParams;
    type Result = Option<TraceSvg>;
    const METHOD: &'static str = "zeno/traceSvg";
}

/// `zeno/graphSvg`: the template at a position drawn as a graph.
pub enum GraphSvgRequest {}

impl Request for GraphSvgRequest {
    type Params = GraphSvgParams;
    type Result = Option<GraphSvg>;
    const METHOD: &'static str = "zeno/graphSvg";
}

/// `zeno/documentText`: the server's copy of an open document.
pub enum DocumentTextRequest {}

impl Request for DocumentTextRequest {
    type Params = DocumentTextParams;
    type Result = DocumentText;
    const METHOD: &'static str = "zeno/documentText";
}

/// `zeno/simulate`: one step of a simulation of the document's model.
pub enum SimulateRequest {}

impl Request for SimulateRequest {
    type Params = SimulateParams;
    type Result = Option<SimulateResult>;
    const METHOD: &'static str = "zeno/simulate";
}

/// `zeno/serverStatus`: sent when the server becomes busy or quiescent.
pub enum ServerStatus {}

impl Notification for ServerStatus {
    type Params = ServerStatusParams;
    const METHOD: &'static str = "zeno/serverStatus";
}

/// Parameters of `zeno/documentText`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DocumentTextParams {
    /// The open document.
    pub uri: Uri,
}

/// The server's copy of an open document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentText {
    /// The version of `text`: the last one applied (edits waiting for an
    /// earlier version are not in it).
    pub version: i32,
    /// The text.
    pub text: String,
}

/// Parameters of `zeno/serverStatus` ([`ServerStatus`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerStatusParams {
    /// Every check of every open document is done.
    pub quiescent: bool,
}

//! The language server (`zeno lsp`): live diagnostics and background checks.
//!
//! Built on `tower-lsp-server` 0.23 (the maintained community fork of
//! `tower-lsp`, whose last release, 0.20, is no longer maintained; 0.23 is the
//! newest stable release of the fork, 0.24 being only a release candidate).
//! Its LSP types stay inside this module. Its transport stops reading at the
//! first undecodable message, so the `framing` module filters the input
//! first (and answers or logs what it drops). Its handlers run concurrently,
//! so the `order` layer makes messages take effect in the order they came.
//! The server adds no analysis of its own: requests about a document's
//! contents are answered by [`zeno_ide`] (the `features` module only
//! converts to and from LSP types, on a document snapshot, under the panic
//! guard of `guard`), diagnostics and models come from
//! [`zeno_semantics`], and checks from [`zeno_checker`].
//!
//! UPPAAL XML/XTA and TChecker files are imported and checked too; what is
//! located in their translation is shown at the top of the file (see
//! [`foreign`]).
//!
//! Positions count UTF-8 bytes, UTF-16 code units or characters, whichever
//! the client offers first in that order (`general.positionEncodings`; UTF-16
//! when it offers none of them), as negotiated in `initialize`.
//!
//! Custom protocol:
//! - request `zeno/errorTrace` `{ uri, check }` → the structured trace of a
//!   finished check (see [`results::ErrorTrace`]), or `null` when it has none;
//! - requests `zeno/traceSvg` `{ uri, check }` → `{ svg }` (the timeline of
//!   the check's current trace) and `zeno/graphSvg` `{ uri, position }` →
//!   `{ svg, template }` (the template under the cursor), or `null` (see
//!   [`pictures`]);
//! - request `zeno/documentText` `{ uri }` → `{ version, text }`: the
//!   server's copy of an open document, the last version applied (an error
//!   when the document is not open); for tests and for clients that want to
//!   check that the server sees what they see;
//! - request `zeno/simulate` `{ uri, mode, steps, trace }` → the state
//!   reached by replaying `steps` (or a check's current trace) and the
//!   transitions enabled there, or `null` while the document has errors
//!   (see [`simulate`]);
//! - notification `zeno/serverStatus` `{ quiescent }`, sent whenever the
//!   server becomes busy (a check is scheduled) or quiescent (every check of
//!   every open document is done);
//! - `$/progress`: one token per running check, whose cancel button stops
//!   only that check (see `server::jobs`);
//! - commands `zeno.trace.show` / `zeno.trace.next` / `zeno.trace.prev`
//!   (see [`lenses`]), and code lenses over checks and trace edges.
#![warn(missing_docs)]

mod config;
mod document;
mod features;
mod foreign;
mod framing;
mod guard;
pub mod lenses;
mod line_index;
pub mod lsp_ext;
mod order;
pub mod pictures;
mod places;
pub mod results;
mod server;
pub mod simulate;
mod snapshot;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::ls_types::request::Request as _;
use tower_lsp_server::{LspService, Server};

use lsp_ext::{
    DocumentTextRequest, ErrorTraceRequest, GraphSvgRequest, SimulateRequest, TraceSvgRequest,
};
use tower_lsp_server::ls_types::notification::{Notification as _, WorkDoneProgressCancel};

/// Registers each method `TYPE => HANDLER` (a method of `server::Backend`)
/// under `TYPE::METHOD`.
macro_rules! custom_methods {
    ($builder:expr; $($method:ty => $handler:ident),* $(,)?) => {
        $builder$(.custom_method(<$method>::METHOD, server::Backend::$handler))*
    };
}

pub use lsp_ext::ServerStatusParams;

/// The checker options the editors' settings `value` ask for (the object
/// `initializationOptions` and `workspace/didChangeConfiguration` carry),
/// applied to the server's defaults, and the settings it could not read.
/// Each background check runs with [`zeno_checker::Options::for_check`] of
/// them, as `zeno check` runs with that of its flags' options.
pub fn checker_options(value: &serde_json::Value) -> (zeno_checker::Options, Vec<String>) {
    let mut settings = config::Settings::default();
    let bad = settings.update(value);
    (settings.options(), bad)
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    /// The client sent `shutdown` (and it was answered).
    pub shut_down: bool,
    /// The client sent `exit`; otherwise the input ended.
    pub exit: bool,
}

impl Ending {
    /// The process exit code the protocol asks for: 0 when `shutdown` came
    /// before the end, 1 otherwise. The end is `exit` or, for a client that
    /// closes the pipe instead, the end of the input: both count the same.
    pub fn exit_code(&self) -> u8 {
        if self.shut_down { 0 } else { 1 }
    }
}

/// Serves the protocol on the given streams until the client sends `exit`
/// or the input ends.
pub async fn serve<I, O>(input: I, output: O) -> Ending
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite,
{
    let shut_down = Arc::new(AtomicBool::new(false));
    let exit = Arc::new(AtomicBool::new(false));
    // Everything written goes through one writer, as whole frames: the
    // server's messages and the filter's replies and logs.
    let (frames, to_write) = tokio::sync::mpsc::channel(64);
    let input = framing::sanitize(input, frames.clone(), exit.clone());
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    tokio::spawn(framing::forward_server_output(from_server, frames));
    let flag = shut_down.clone();
    let builder = LspService::build(move |client| server::Backend::new(client, flag));
    // zeno's own requests, each under the name its `lsp_ext` type declares.
    let builder = custom_methods!(builder;
        ErrorTraceRequest => error_trace,
        TraceSvgRequest => trace_svg,
        GraphSvgRequest => graph_svg,
        DocumentTextRequest => document_text,
        SimulateRequest => simulate,
        WorkDoneProgressCancel => work_done_progress_cancel,
    );
    let (service, socket) = builder.finish();
    tokio::join!(
        Server::new(input, server_output, socket).serve(order::Ordered::new(service)),
        framing::write_output(to_write, output),
    );
    Ending {
        shut_down: shut_down.load(Ordering::SeqCst),
        exit: exit.load(Ordering::SeqCst),
    }
}

/// Runs the server on stdin/stdout (the `zeno lsp` command) and returns the
/// process exit code. Only protocol messages go to stdout; logs go to the
/// client or to stderr.
pub fn run_stdio() -> std::io::Result<u8> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // The log goes to stderr: stdout carries only the protocol. A
    // subscriber already installed (by an embedding program) is kept.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
    let ending = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    if !ending.shut_down {
        tracing::error!(
            "zeno lsp: {} without a shutdown request before it; exiting with 1",
            if ending.exit {
                "exit"
            } else {
                "the input ended"
            }
        );
    }
    // Reading stdin happens on a blocking thread that only returns when a
    // line arrives; after `exit` nothing more will, so do not wait for it.
    // Checks still running are abandoned the same way.
    runtime.shutdown_background();
    Ok(ending.exit_code())
}

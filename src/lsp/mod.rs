//! The language server (`zeno lsp`): live diagnostics and background checks.
//!
//! Built on `tower-lsp-server` 0.23 (the maintained community fork of
//! `tower-lsp`, whose last release, 0.20, is no longer maintained; 0.23 is the
//! newest stable release of the fork, 0.24 being only a release candidate).
//! Its LSP types stay inside this module. Its transport stops reading at the
//! first undecodable message, so the `framing` module filters the input
//! first. The server adds no checking logic: it calls [`crate::semantics`]
//! and [`crate::checker`] like the CLI does.
//!
//! Custom protocol:
//! - request `zeno/errorTrace` `{ uri, check }` → the structured trace of a
//!   finished check (see [`results::ErrorTrace`]), or `null` when it has none;
//! - requests `zeno/traceSvg` `{ uri, check }` → `{ svg }` (the timeline of
//!   the check's current trace) and `zeno/graphSvg` `{ uri, position }` →
//!   `{ svg, template }` (the template under the cursor), or `null` (see
//!   [`pictures`]);
//! - notification `zeno/serverStatus` `{ quiescent }`, sent whenever the
//!   server becomes busy (a check is scheduled) or quiescent (every check of
//!   every open document is done);
//! - `$/progress`: one token per running check, whose cancel button stops
//!   only that check (see `server::jobs`);
//! - commands `zeno.trace.show` / `zeno.trace.next` / `zeno.trace.prev`
//!   (see [`lenses`]), and code lenses over checks and trace edges.

mod config;
mod document;
mod format;
mod framing;
mod hover;
pub mod lenses;
mod line_index;
mod navigate;
pub mod pictures;
pub mod results;
mod server;
mod signature;
mod symbols;
mod tokens;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::{LspService, Server};

pub use server::ServerStatusParams;

/// Serves the protocol on the given streams until the client exits.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite,
{
    let input = framing::sanitize(input);
    let (service, socket) = LspService::build(server::Backend::new)
        .custom_method("zeno/errorTrace", server::Backend::error_trace)
        .custom_method("zeno/traceSvg", server::Backend::trace_svg)
        .custom_method("zeno/graphSvg", server::Backend::graph_svg)
        .custom_method(
            "window/workDoneProgress/cancel",
            server::Backend::work_done_progress_cancel,
        )
        .finish();
    Server::new(input, output, socket).serve(service).await;
}

/// Runs the server on stdin/stdout (the `zeno lsp` command). Only protocol
/// messages go to stdout; logs go to the client or to stderr.
pub fn run_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // Reading stdin happens on a blocking thread that only returns when a
    // line arrives; after `exit` nothing more will, so do not wait for it.
    runtime.shutdown_background();
    Ok(())
}

//! `zeno lsp`: checks the transport a language client asks for, then runs
//! the language server on stdin/stdout.

use super::args::LspArgs;
use super::{diag, exit};

/// The transport asked for when it is one zeno does not have, as the
/// client wrote it (`--socket=5000`), for the error message.
pub fn unsupported_transport(args: &LspArgs) -> Option<String> {
    if let Some(port) = &args.socket {
        Some(format!("--socket={port}"))
    } else if let Some(port) = &args.port {
        Some(format!("--port={port}"))
    } else if let Some(name) = &args.pipe {
        Some(format!("--pipe={name}"))
    } else if args.node_ipc {
        Some("--node-ipc".to_string())
    } else {
        None
    }
}

pub fn run(args: &LspArgs) -> u8 {
    if let Some(transport) = unsupported_transport(args) {
        diag::error(format!(
            "zeno lsp: the transport {transport} is not supported; \
             zeno speaks the language server protocol over stdin/stdout only \
             (--stdio, the default)"
        ));
        return exit::ERROR;
    }
    match zeno::lsp::run_stdio() {
        Ok(code) => code,
        Err(e) => {
            diag::error(format!("language server: {e}"));
            exit::ERROR
        }
    }
}

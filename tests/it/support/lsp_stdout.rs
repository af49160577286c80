//! Reading `zeno lsp`'s standard output as a client does: Content-Length
//! framed JSON-RPC messages, and anything else reported as garbage.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc;

use serde_json::Value;

/// What the server wrote on stdout: a protocol message, or bytes that are
/// not one (which must never happen).
pub enum Output {
    Message(Value),
    Garbage(String),
}

/// Reads framed messages until end of file.
pub fn read_messages(stdout: impl Read, tx: mpsc::Sender<Output>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut len = None;
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let trimmed = line.trim_end_matches(['\r', '\n']);
            if trimmed.is_empty() && line.ends_with("\r\n") {
                break;
            }
            if let Some(v) = trimmed.strip_prefix("Content-Length: ") {
                len = v.parse::<usize>().ok();
            } else if !trimmed.starts_with("Content-Type: ") {
                let _ = tx.send(Output::Garbage(line));
            }
        }
        let Some(len) = len else {
            let _ = tx.send(Output::Garbage("a header without Content-Length".into()));
            return;
        };
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let msg = match serde_json::from_slice(&body) {
            Ok(v) => Output::Message(v),
            Err(_) => Output::Garbage(String::from_utf8_lossy(&body).into_owned()),
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

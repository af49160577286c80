//! A small JSON-RPC client for the language server tests: it talks to
//! `zeno::lsp::serve` over an in-memory duplex stream, with the same framing
//! as stdio.

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, WriteHalf};
use tokio::sync::mpsc;

/// Guards against a hang (a missing message), not a timing assertion.
pub const HANG: Duration = Duration::from_secs(120);

pub struct TestClient {
    writer: WriteHalf<DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    /// Messages read while waiting for something else.
    backlog: VecDeque<Value>,
    next_id: i64,
}

impl TestClient {
    pub async fn start() -> TestClient {
        let (client_end, server_end) = tokio::io::duplex(1 << 16);
        let (server_in, server_out) = tokio::io::split(server_end);
        tokio::spawn(zeno::lsp::serve(server_in, server_out));
        let (reader, writer) = tokio::io::split(client_end);
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut reader = BufReader::new(reader);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                if reader.read_exact(&mut body).await.is_err() {
                    return;
                }
                let msg: Value = serde_json::from_slice(&body).expect("a JSON message");
                if tx.send(msg).is_err() {
                    return;
                }
            }
        });
        TestClient {
            writer,
            incoming,
            backlog: VecDeque::new(),
            next_id: 1,
        }
    }

    pub async fn write(&mut self, msg: Value) {
        let body = serde_json::to_string(&msg).unwrap();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.writer.write_all(framed.as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// Writes bytes as they are: mis-framed input.
    pub async fn write_bytes(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    pub async fn write_raw(&mut self, body: &str) {
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.writer.write_all(framed.as_bytes()).await.unwrap();
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.write(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    pub async fn next_message(&mut self) -> Value {
        tokio::time::timeout(HANG, self.incoming.recv())
            .await
            .expect("the server went silent")
            .expect("the server closed the stream")
    }

    /// The next message, whatever it is (those read ahead first).
    pub async fn next_pending(&mut self) -> Value {
        match self.backlog.pop_front() {
            Some(m) => m,
            None => self.next_message().await,
        }
    }

    /// The full response (result or error) to a request.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let msg = self.next_message().await;
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                return msg;
            }
            self.backlog.push_back(msg);
        }
    }

    /// The next notification of `method` satisfying `pred`; the others
    /// before it are dropped.
    pub async fn wait_for(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        while let Some(msg) = self.backlog.pop_front() {
            if msg["method"] == method && pred(&msg["params"]) {
                return msg["params"].clone();
            }
        }
        loop {
            let msg = self.next_message().await;
            if msg["method"] == method && pred(&msg["params"]) {
                return msg["params"].clone();
            }
        }
    }

    /// The next request from the server with this method (whole message).
    pub async fn wait_for_request(&mut self, method: &str) -> Value {
        while let Some(msg) = self.backlog.pop_front() {
            if msg["method"] == method && msg.get("id").is_some() {
                return msg;
            }
        }
        loop {
            let msg = self.next_message().await;
            if msg["method"] == method && msg.get("id").is_some() {
                return msg;
            }
        }
    }

    pub async fn respond(&mut self, id: &Value, result: Value) {
        self.write(json!({"jsonrpc": "2.0", "id": id, "result": result}))
            .await;
    }

    /// Waits for quiescence and returns the last diagnostics published for
    /// `uri` before it.
    pub async fn diagnostics_when_quiescent(&mut self, uri: &str) -> Value {
        let mut last = None;
        loop {
            let msg = match self.backlog.pop_front() {
                Some(m) => m,
                None => self.next_message().await,
            };
            if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
                last = Some(msg["params"].clone());
            }
            if msg["method"] == "zeno/serverStatus" && msg["params"]["quiescent"] == true {
                return last.expect("diagnostics before quiescence");
            }
        }
    }

    pub async fn initialize(&mut self, options: Value) {
        let r = self
            .request(
                "initialize",
                json!({"capabilities": {}, "initializationOptions": options}),
            )
            .await;
        assert_eq!(r["result"]["serverInfo"]["name"], "zeno", "{r}");
        self.notify("initialized", json!({})).await;
    }

    pub async fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "zeno", "version": 1, "text": text}}),
        )
        .await;
    }

    pub async fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        )
        .await;
    }
}

/// Line and UTF-16 column of a byte offset (the test's own route: counts
/// characters instead of using the server's line index).
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

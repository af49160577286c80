//! Language-server latencies, measured in process over the protocol: from
//! sending `didChange` to receiving the published frontend diagnostics on the
//! generated ~5,000-line model, and to the published verdict of `mutex` on
//! buggy Fischer with 6 processes.
//!
//! Run with `cargo bench --bench lsp`.

#[path = "support/model.rs"]
mod model;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, WriteHalf};
use tokio::sync::mpsc;

const FISCHER_BUGGY: &str = include_str!("../models/fischer-buggy.zeno");

struct Client {
    writer: WriteHalf<DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
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
                if tx
                    .send(serde_json::from_slice(&body).expect("JSON"))
                    .is_err()
                {
                    return;
                }
            }
        });
        Client {
            writer,
            incoming,
            next_id: 1,
        }
    }

    async fn write(&mut self, msg: Value) {
        let body = msg.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.writer.write_all(framed.as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.write(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// The next message satisfying `pred`; server requests get a null reply.
    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(120), self.incoming.recv())
                .await
                .expect("the server went silent")
                .expect("the server closed the stream");
            if m.get("method").is_some() && m.get("id").is_some() {
                let id = m["id"].clone();
                self.write(json!({"jsonrpc": "2.0", "id": id, "result": null}))
                    .await;
            }
            if pred(&m) {
                return m;
            }
        }
    }

    async fn initialize(&mut self, options: Value) {
        let id = self.next_id;
        self.next_id += 1;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {"capabilities": {}, "initializationOptions": options}}))
            .await;
        self.until(|m| m["id"] == id && m.get("method").is_none())
            .await;
        self.notify("initialized", json!({})).await;
    }

    async fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "zeno", "version": 1, "text": text}}),
        )
        .await;
    }

    async fn replace(
        &mut self,
        uri: &str,
        version: i32,
        line: usize,
        col: usize,
        old: usize,
        new: &str,
    ) {
        let start = json!({"line": line, "character": col});
        let end = json!({"line": line, "character": col + old});
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": start, "end": end}, "text": new}]}),
        )
        .await;
    }
}

/// Line and column (ASCII text) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    (line, offset - before.rfind('\n').map_or(0, |i| i + 1))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn is_publish(m: &Value, uri: &str, version: i32) -> bool {
    m["method"] == "textDocument/publishDiagnostics"
        && m["params"]["uri"] == uri
        && m["params"]["version"] == version
}

async fn large_model() {
    let uri = "file:///large.zeno";
    let base = model::model(5);
    let edited = model::model(6);
    let at = base
        .bytes()
        .zip(edited.bytes())
        .position(|(a, b)| a != b)
        .expect("the models differ");
    let (line, col) = line_col(&base, at);
    let mut c = Client::start();
    // Checks of this model are not what is measured: only on save.
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, &base).await;
    c.until(|m| is_publish(m, uri, 1)).await;
    let mut times = Vec::new();
    for version in 2..22 {
        let digit = if version % 2 == 0 { "6" } else { "5" };
        let t = Instant::now();
        c.replace(uri, version, line, col, 1, digit).await;
        let m = c.until(|m| is_publish(m, uri, version)).await;
        times.push(t.elapsed());
        assert_eq!(m["params"]["diagnostics"], json!([]), "{m}");
    }
    println!(
        "{} lines: didChange → published diagnostics: median {:?} (min {:?}, max {:?}, 20 edits)",
        base.lines().count(),
        median(times.clone()),
        times.iter().min().unwrap(),
        times.iter().max().unwrap()
    );
}

async fn fischer6() {
    let uri = "file:///fischer6.zeno";
    // `no_deadlock` holds, so its check explores the whole state space: not
    // what is measured here, and it would delay quiescence.
    let text = FISCHER_BUGGY
        .replace("const int N = 3;", "const int N = 6;")
        .replace("check no_deadlock: A[] !deadlock;", "");
    assert!(text.contains("N = 6;") && !text.contains("check no_deadlock"));
    let check = text.find("check mutex:").unwrap() + 6;
    let (check_line, check_col) = line_col(&text, check);
    // The edit: a space at the end of the model's first line, added and removed.
    let end_of_first = text.find('\n').unwrap();
    let mut c = Client::start();
    c.initialize(json!({"debounceMs": 0})).await;
    c.open(uri, &text).await;
    let quiescent =
        |m: &Value| m["method"] == "zeno/serverStatus" && m["params"]["quiescent"] == true;
    c.until(quiescent).await;
    let mut times = Vec::new();
    for version in 2..12 {
        let (old, new) = if version % 2 == 0 { (0, " ") } else { (1, "") };
        let t = Instant::now();
        c.replace(uri, version, 0, end_of_first, old, new).await;
        // The publish that carries the verdict on `mutex`.
        let m = c
            .until(|m| {
                is_publish(m, uri, version)
                    && m["params"]["diagnostics"].as_array().is_some_and(|ds| {
                        ds.iter().any(|d| {
                            d["range"]["start"]
                                == json!({"line": check_line, "character": check_col})
                                && d["severity"] == 1
                        })
                    })
            })
            .await;
        times.push(t.elapsed());
        assert_eq!(m["params"]["version"], version);
        c.until(quiescent).await;
    }
    println!(
        "buggy Fischer, 6 processes: didChange → `mutex` violated: median {:?} (min {:?}, max {:?}, 10 edits)",
        median(times.clone()),
        times.iter().min().unwrap(),
        times.iter().max().unwrap()
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(large_model());
    runtime.block_on(fischer6());
}

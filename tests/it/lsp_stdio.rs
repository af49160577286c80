//! `zeno lsp` end to end over stdio: the real binary, spoken to with
//! Content-Length framed JSON-RPC like an editor does.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::lsp_stdout::{Output, read_messages};

const FISCHER_BUGGY: &str = include_str!("../../models/fischer-buggy.zeno");
const URI: &str = "file:///models/fischer-buggy.zeno";

/// Guards against a hang (a missing message), not a timing assertion.
const HANG: Duration = Duration::from_secs(30);

struct Client {
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    next_id: i64,
    garbage: Vec<String>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("zeno starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || read_messages(stdout, tx));
        Client {
            child,
            stdin,
            output,
            next_id: 1,
            garbage: Vec::new(),
        }
    }

    fn write(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.write(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next protocol message; garbage is collected for the final check.
    fn next(&mut self, deadline: Instant) -> Value {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Output::Message(m)) => return m,
                Ok(Output::Garbage(g)) => self.garbage.push(g),
                Err(e) => panic!("no message from the server: {e}"),
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + HANG;
        loop {
            let m = self.next(deadline);
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
            self.answer_server_request(&m);
        }
    }

    /// Server-to-client requests (progress creation, lens refresh) get a
    /// null result so the server never waits on us.
    fn answer_server_request(&mut self, m: &Value) {
        if m.get("method").is_some() && m.get("id").is_some() {
            let id = m["id"].clone();
            self.write(json!({"jsonrpc": "2.0", "id": id, "result": null}));
        }
    }

    /// The diagnostics of `version` last published before the server said
    /// it was quiescent with that version's checks done.
    fn diagnostics_when_quiescent(&mut self, version: i64) -> Value {
        let deadline = Instant::now() + HANG;
        let mut last: Option<Value> = None;
        loop {
            let m = self.next(deadline);
            self.answer_server_request(&m);
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI {
                last = Some(m["params"].clone());
            }
            if m["method"] == "zeno/serverStatus"
                && m["params"]["quiescent"] == true
                && let Some(d) = &last
                && d["version"] == version
            {
                return d.clone();
            }
        }
    }
}

/// Line and UTF-16 column of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

fn mutex_diagnostic(published: &Value) -> Value {
    let at = position(
        FISCHER_BUGGY,
        FISCHER_BUGGY.find("check mutex:").unwrap() + 6,
    );
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["range"]["start"] == at)
        .unwrap_or_else(|| panic!("no diagnostic on `mutex` in {published}"))
        .clone()
}

#[test]
fn buggy_fischer_over_stdio() {
    let mut c = Client::start();
    let r = c.request(
        "initialize",
        json!({"capabilities": {}, "initializationOptions": {"debounceMs": 0}}),
    );
    assert_eq!(r["result"]["serverInfo"]["name"], "zeno", "{r}");
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "zeno", "version": 1, "text": FISCHER_BUGGY}}),
    );

    let done = c.diagnostics_when_quiescent(1);
    let mutex = mutex_diagnostic(&done);
    assert_eq!(mutex["severity"], 1, "{mutex}");
    let message = mutex["message"].as_str().unwrap();
    assert!(message.starts_with("violated: trace of "), "{message}");
    let steps = mutex["relatedInformation"].as_array().unwrap().len();
    assert!(
        steps >= 6,
        "two processes need 6 steps to meet in cs: {message}"
    );

    let r = c.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": URI}}),
    );
    let titles: Vec<&str> = r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .filter_map(|l| l["command"]["title"].as_str())
        .collect();
    assert!(titles.contains(&"Step through"), "{r}");
    assert!(
        titles.contains(&format!("✗ violated — trace of {steps} steps").as_str()),
        "{r}"
    );

    let args = json!([{"uri": URI, "check": "mutex"}]);
    let s = c.request(
        "workspace/executeCommand",
        json!({"command": "zeno.trace.show", "arguments": args}),
    );
    assert_eq!(s["result"]["step"], 1, "{s}");
    let s = c.request(
        "workspace/executeCommand",
        json!({"command": "zeno.trace.next", "arguments": args}),
    );
    assert_eq!(s["result"]["step"], 2, "{s}");
    assert_eq!(s["result"]["total"], steps, "{s}");

    // Fix the bug: wait -> cs only once x > K.
    let ge = FISCHER_BUGGY.find("x >= K && id == pid").unwrap() + 2;
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{
            "range": {"start": position(FISCHER_BUGGY, ge), "end": position(FISCHER_BUGGY, ge + 2)},
            "text": ">"}]}),
    );
    let done = c.diagnostics_when_quiescent(2);
    let mutex = mutex_diagnostic(&done);
    assert_eq!(mutex["severity"], 3, "{mutex}");
    assert!(
        mutex["message"].as_str().unwrap().starts_with("holds"),
        "{mutex}"
    );

    let r = c.request("shutdown", Value::Null);
    assert_eq!(r["result"], Value::Null, "{r}");
    c.notify("exit", Value::Null);
    drop(c.stdin);
    let deadline = Instant::now() + HANG;
    let status = loop {
        if let Some(status) = c.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    // Everything left on stdout must be protocol messages too.
    while let Ok(out) = c.output.recv_timeout(Duration::from_secs(1)) {
        if let Output::Garbage(g) = out {
            c.garbage.push(g);
        }
    }
    assert!(c.garbage.is_empty(), "not protocol: {:?}", c.garbage);
}

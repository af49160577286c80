//! `zeno lsp` over stdio after mis-framed input: the real binary keeps
//! answering (it resynchronises on the next `Content-Length` header), logs
//! what it dropped, answers what JSON-RPC asks it to answer, and ends with
//! the protocol's exit codes.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::lsp_stdout::{Output, read_messages};

/// Guards against a hang (a missing message), not a timing assertion.
const HANG: Duration = Duration::from_secs(60);

/// The server's frame limit (`zeno::lsp` skips larger messages).
const LIMIT: usize = 64 << 20;

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Output>,
    /// Every message read so far.
    seen: Vec<Value>,
}

fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn message(v: Value) -> Vec<u8> {
    framed(&v.to_string())
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("zeno starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || read_messages(stdout, tx));
        Session {
            child,
            stdin,
            output,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for the first message (read now or earlier) that `pred` accepts.
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(m) = self.seen.iter().find(|m| pred(m)) {
            return m.clone();
        }
        let deadline = Instant::now() + HANG;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Output::Message(m)) => {
                    self.seen.push(m.clone());
                    if pred(&m) {
                        return m;
                    }
                }
                Ok(Output::Garbage(g)) => panic!("not a protocol message on stdout: {g:?}"),
                Err(e) => panic!("no {what} from the server: {e}; got {:?}", self.seen),
            }
        }
    }

    fn response(&mut self, id: i64) -> Value {
        self.wait(&format!("response {id}"), |m| {
            m["id"] == id && m.get("method").is_none()
        })
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&message(
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        ));
        self.response(id)
    }

    fn initialize(&mut self, id: i64) {
        let r = self.request(id, "initialize", json!({"capabilities": {}}));
        assert_eq!(r["result"]["serverInfo"]["name"], "zeno", "{r}");
        self.send(&message(
            json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ));
    }

    fn shutdown(&mut self, id: i64) {
        let r = self.request(id, "shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        assert!(r.get("error").is_none(), "{r}");
    }

    fn exit(&mut self) {
        self.send(&message(json!({"jsonrpc": "2.0", "method": "exit"})));
    }

    /// The exit status, waiting at most `HANG`. Stdin stays open unless
    /// closed before: the server must end on `exit` alone.
    fn status(&mut self) -> ExitStatus {
        let deadline = Instant::now() + HANG;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit; got {:?}", self.seen);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The `window/logMessage` texts received so far.
    fn logs(&self) -> Vec<String> {
        self.seen
            .iter()
            .filter(|m| m["method"] == "window/logMessage")
            .map(|m| m["params"]["message"].as_str().unwrap_or("").to_string())
            .collect()
    }
}

fn shutdown_request(id: i64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}).to_string()
}

/// Sends `bad`, then a whole session; the session must go as usual and the
/// process end with 0. Returns the session for further checks.
fn session_after(bad: &[u8]) -> Session {
    let mut s = Session::start();
    s.send(bad);
    s.initialize(1);
    let r = s.request(
        2,
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nope.zeno"}, "position": {"line": 0, "character": 0}}),
    );
    assert!(r.get("error").is_some(), "{r}");
    s.shutdown(3);
    s.exit();
    let status = s.status();
    assert_eq!(status.code(), Some(0), "after shutdown and exit: {status}");
    assert!(
        !s.logs().is_empty(),
        "nothing logged about the dropped input"
    );
    s
}

#[test]
fn a_too_short_content_length() {
    let body = shutdown_request(7);
    let mut bad = format!("Content-Length: {}\r\n\r\n", body.len() - 5).into_bytes();
    bad.extend_from_slice(body.as_bytes());
    let mut s = session_after(&bad);
    // What was read as the body is not JSON: a parse error without an id.
    let e = s.wait("a parse error", |m| m["error"]["code"] == -32700);
    assert_eq!(e["id"], Value::Null, "{e}");
    // The request was not run: no answer under its id, and no shutdown
    // before the real one (which answered normally, see `session_after`).
    assert!(!s.seen.iter().any(|m| m["id"] == 7), "{:?}", s.seen);
    let logs = s.logs();
    assert!(logs.iter().any(|l| l.contains("skipped")), "{logs:?}");
}

#[test]
fn a_too_long_content_length() {
    // The next message's header shows that the body ended early: the
    // request that arrived whole is answered with an error under its id.
    let body = shutdown_request(7);
    let mut bad = format!("Content-Length: {}\r\n\r\n", body.len() + 100).into_bytes();
    bad.extend_from_slice(body.as_bytes());
    let mut s = session_after(&bad);
    let e = s.response(7);
    assert_eq!(e["error"]["code"], -32600, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Content-Length"),
        "{e}"
    );
}

#[test]
fn a_missing_header() {
    let s = session_after(shutdown_request(7).as_bytes());
    assert!(!s.seen.iter().any(|m| m["id"] == 7), "{:?}", s.seen);
    assert!(
        s.logs().iter().any(|l| l.contains("no Content-Length")),
        "{:?}",
        s.logs()
    );
}

#[test]
fn bad_headers_and_bodies() {
    let mut bad = b"Content-Length: twelve\r\n\r\n{}".to_vec();
    bad.extend_from_slice(b"Content-Length: 3\r\nthis is no header\r\n\r\n{}\n");
    bad.extend_from_slice(&framed("{ not json"));
    bad.extend_from_slice(&framed(
        r#"{"jsonrpc":"2.0","id":8,"method":"x","params":7}"#,
    ));
    bad.extend_from_slice(&framed(r#"[{"jsonrpc":"2.0","id":9,"method":"shutdown"}]"#));
    let mut s = session_after(&bad);
    let e = s.wait("a parse error", |m| m["error"]["code"] == -32700);
    assert_eq!(e["id"], Value::Null, "{e}");
    let e = s.response(8);
    assert_eq!(e["error"]["code"], -32600, "{e}");
    let e = s.wait("the batch's error", |m| {
        m["error"]["code"] == -32600 && m["id"].is_null()
    });
    assert!(
        e["error"]["message"].as_str().unwrap().contains("batch"),
        "{e}"
    );
    let logs = s.logs();
    assert!(
        logs.iter().any(|l| l.contains("invalid Content-Length")),
        "{logs:?}"
    );
    assert!(
        logs.iter().any(|l| l.contains("malformed header")),
        "{logs:?}"
    );
}

/// Peak resident memory of a process in KiB (Linux).
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_message_over_the_limit_is_skipped_without_storing_it() {
    let mut s = Session::start();
    let len = LIMIT + 1;
    s.send(format!("Content-Length: {len}\r\n\r\n").as_bytes());
    // The declared bytes, in full (a body of spaces, as a client might pad).
    let chunk = vec![b' '; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len());
        s.send(&chunk[..n]);
        left -= n;
    }
    s.initialize(1);
    let logs = s.logs();
    assert!(
        logs.iter().any(|l| l.contains("over the limit")),
        "{logs:?}"
    );
    // Had the server stored the message, its peak memory would exceed it.
    #[cfg(target_os = "linux")]
    if let Some(kib) = peak_rss_kib(s.child.id()) {
        assert!(
            kib < (LIMIT as u64) / 1024,
            "peak memory {kib} KiB after skipping a {len}-byte message"
        );
    }
    s.shutdown(2);
    s.exit();
    assert_eq!(s.status().code(), Some(0));
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let mut s = Session::start();
    s.initialize(1);
    s.exit();
    assert_eq!(s.status().code(), Some(1));
}

#[test]
fn end_of_input_ends_the_process() {
    // After shutdown: a clean end, 0.
    let mut s = Session::start();
    s.initialize(1);
    s.shutdown(2);
    drop(s.stdin.take());
    assert_eq!(s.status().code(), Some(0));
    // Without shutdown (the client vanished, even mid-message): 1, like
    // `exit` without `shutdown`.
    let mut s = Session::start();
    s.initialize(1);
    s.send(b"Content-Length: 40\r\n\r\n{\"jsonrpc\"");
    drop(s.stdin.take());
    assert_eq!(s.status().code(), Some(1));
}

//! `zeno lsp` and the transport flags language clients pass: `--stdio` (what
//! vscode-languageclient adds for its stdio transport) runs the server; the
//! transports zeno does not have are refused with exit 2 and a message on
//! stderr that names them, and nothing on stdout.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::lsp_stdout::{Output as Message, read_messages};

/// Guards against a hang, not a timing assertion.
const HANG: Duration = Duration::from_secs(30);

fn frame(msg: Value) -> String {
    let body = msg.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// The opening request of a session.
fn initialize() -> String {
    frame(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": null, "rootUri": null, "capabilities": {}}}))
}

/// Runs `zeno lsp ARGS` with `input` on stdin (then closed), killing it
/// when it has not ended within [`HANG`].
fn lsp(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .arg("lsp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zeno starts");
    // A server that refused its arguments may be gone already: a broken
    // pipe here is not the test's business.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    wait(child, args)
}

/// A whole session as a client runs it: initialize, initialized, shutdown,
/// and `exit` once shutdown is answered. The messages the server wrote, its
/// exit code and its stderr.
fn session(args: &[&str]) -> (Vec<Value>, Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .arg("lsp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zeno starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || read_messages(stdout, tx));
    let deadline = Instant::now() + HANG;
    let mut msgs = Vec::new();
    // Each request waits for the answer before it, as clients do.
    let mut exchange = |stdin: &mut std::process::ChildStdin, frames: &[String], id: i64| {
        stdin.write_all(frames.concat().as_bytes()).unwrap();
        stdin.flush().unwrap();
        while answer(&msgs, id).is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(Message::Message(m)) => msgs.push(m),
                Ok(Message::Garbage(g)) => panic!("not a protocol message on stdout: {g:?}"),
                Err(e) => panic!("zeno lsp {args:?}: no answer to request {id}: {e}"),
            }
        }
    };
    exchange(&mut stdin, &[initialize()], 1);
    exchange(
        &mut stdin,
        &[
            frame(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})),
            frame(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})),
        ],
        2,
    );
    stdin
        .write_all(frame(json!({"jsonrpc": "2.0", "method": "exit"})).as_bytes())
        .unwrap();
    drop(stdin);
    let out = wait(child, args);
    reader.join().unwrap();
    for m in rx.try_iter() {
        match m {
            Message::Message(m) => msgs.push(m),
            Message::Garbage(g) => panic!("not a protocol message on stdout: {g:?}"),
        }
    }
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (msgs, out.status.code(), stderr)
}

/// Waits for the server to end, killing it after [`HANG`].
fn wait(mut child: std::process::Child, args: &[&str]) -> Output {
    let deadline = Instant::now() + HANG;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("zeno lsp {args:?} did not end within {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// The server's answer to the client's request `id` (not a request of the
/// server's own, which may carry the same id).
fn answer(msgs: &[Value], id: i64) -> Option<&Value> {
    msgs.iter()
        .find(|m| m["id"] == id && m.get("method").is_none())
}

fn answers_a_whole_session(args: &[&str]) {
    let (msgs, code, stderr) = session(args);
    assert_eq!(code, Some(0), "zeno lsp {args:?}: {stderr}");
    let init = msgs
        .iter()
        .find(|m| m["id"] == 1)
        .expect("initialize answered");
    assert!(
        init["result"]["capabilities"]["textDocumentSync"].is_object(),
        "{init}"
    );
    let shutdown = msgs
        .iter()
        .find(|m| m["id"] == 2)
        .expect("shutdown answered");
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    assert!(shutdown.get("error").is_none(), "{shutdown}");
}

#[test]
fn stdio_is_the_default_transport() {
    answers_a_whole_session(&[]);
}

#[test]
fn stdio_flag_as_vscode_languageclient_passes_it() {
    answers_a_whole_session(&["--stdio"]);
}

#[test]
fn client_process_id_is_accepted_beside_stdio() {
    answers_a_whole_session(&["--stdio", "--clientProcessId=4242"]);
    answers_a_whole_session(&["--clientProcessId", "4242", "--stdio"]);
}

#[test]
fn other_transports_are_refused_by_name() {
    for (args, named) in [
        (&["--socket=5007"][..], "--socket=5007"),
        (&["--socket", "5007"][..], "--socket=5007"),
        (&["--port=5007"][..], "--port=5007"),
        (
            &["--pipe=/tmp/zeno-lsp.sock"][..],
            "--pipe=/tmp/zeno-lsp.sock",
        ),
        (&["--node-ipc"][..], "--node-ipc"),
        // Asking for stdio and another transport at once is still refused.
        (&["--stdio", "--node-ipc"][..], "--node-ipc"),
    ] {
        let out = lsp(args, &initialize());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "zeno lsp {args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("the transport {named} is not supported"))
                && stderr.contains("--stdio"),
            "zeno lsp {args:?} said: {stderr}"
        );
        assert!(out.stdout.is_empty(), "zeno lsp {args:?} wrote to stdout");
    }
}

#[test]
fn an_unknown_flag_is_still_a_usage_error() {
    let out = lsp(&["--tcp"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--tcp"), "{stderr}");
    assert!(out.stdout.is_empty());
}

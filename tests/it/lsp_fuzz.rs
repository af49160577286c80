//! Random language-server sessions: opening, editing (incremental edits in
//! the negotiated position encoding, UTF-8, UTF-16 or UTF-32, on text with
//! multi-byte characters), requests at random (also out-of-range)
//! positions, mis-framed input, `$/cancelRequest` and closing, driven from a
//! seeded generator. Invariants: the server never panics (no internal error
//! anywhere), answers every request (a response with its id, carrying a
//! result or an error), and its copy of the document (`zeno/documentText`)
//! always equals the client's at the version it reports.
//!
//! The default suite runs a short session per encoding. The long run:
//!
//! ```sh
//! cargo test --test it lsp_fuzz::long -- --ignored --nocapture
//! ```
//!
//! `ZENO_LSP_FUZZ_STEPS` sets the steps per encoding (default 10,000 for the
//! long run) and `ZENO_LSP_FUZZ_SEED` the seed (default: a fresh one); the
//! seed is printed, and printed again on failure, to replay a session.

use std::collections::{HashMap, HashSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::support::lsp_client::TestClient;

const FISCHER_BUGGY: &str = include_str!("../../models/fischer-buggy.zeno");
const URI: &str = "file:///fuzz/model.zeno";

/// Steps per encoding in the default suite.
const SHORT: usize = 300;
/// Steps per encoding in the long run.
const LONG: usize = 10_000;

#[derive(Clone, Copy, Debug)]
enum Enc {
    Utf8,
    Utf16,
    Utf32,
}

impl Enc {
    fn name(self) -> &'static str {
        match self {
            Enc::Utf8 => "utf-8",
            Enc::Utf16 => "utf-16",
            Enc::Utf32 => "utf-32",
        }
    }

    fn units(self, c: char) -> usize {
        match self {
            Enc::Utf8 => c.len_utf8(),
            Enc::Utf16 => c.len_utf16(),
            Enc::Utf32 => 1,
        }
    }
}

/// The client's own conversions (the protocol's rules, written
/// independently of the server's line index). Lines end at `\n`; a line's
/// content excludes its `\r\n` or `\n`.
fn line_bounds(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            let end = if i > start && text.as_bytes()[i - 1] == b'\r' {
                i - 1
            } else {
                i
            };
            out.push((start, end));
            start = i + 1;
        }
    }
    out.push((start, text.len()));
    out
}

fn position(text: &str, offset: usize, enc: Enc) -> (usize, usize) {
    let lines = line_bounds(text);
    let line = lines.iter().rposition(|&(s, _)| s <= offset).unwrap();
    let (start, _) = lines[line];
    let character = text[start..offset].chars().map(|c| enc.units(c)).sum();
    (line, character)
}

/// The offset of a position on a line that exists; a character past the
/// end of the line means its end (the protocol's rule).
fn offset(text: &str, line: usize, character: usize, enc: Enc) -> usize {
    let (start, end) = line_bounds(text)[line];
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += enc.units(c);
    }
    end
}

fn pos(line: usize, character: usize) -> Value {
    json!({"line": line, "character": character})
}

/// Pieces edits insert: code, line breaks, and characters of 2, 3 and 4
/// bytes (1 or 2 UTF-16 units).
const PIECES: &[&str] = &[
    "x",
    " ",
    "\n",
    "\r\n",
    "é",
    "日本",
    "😀",
    "ÿ",
    "int a;",
    "clock y;",
    "check c: A[] true;",
    "{",
    "}",
    "(",
    ")",
    ";",
    ",",
    "// ",
    "/* ",
    " */",
    "->",
    "Proc(",
    "K",
    "0",
    "€",
    "🎉x",
];

const NAMES: &[&str] = &["mutex", "can_enter", "no_deadlock", "nope", "c"];

/// The text a session opens: the buggy Fischer model with multi-byte
/// characters in comments and a CRLF line break.
fn opening_text() -> String {
    format!("// é 日本 😀 ÿ €\n{FISCHER_BUGGY}/* 🎉 */\r\n")
}

struct Fuzz {
    rng: ChaCha8Rng,
    enc: Enc,
    c: TestClient,
    open: bool,
    version: i32,
    text: String,
    /// The text of every version of the current opening.
    history: HashMap<i32, String>,
    /// The last version `zeno/documentText` reported.
    seen_version: i32,
    next_id: i64,
    /// Requests sent and not answered yet.
    pending: HashSet<i64>,
    /// Requests a malformed frame was expected to be answered for.
    malformed: usize,
    null_errors: usize,
    requests: usize,
    /// Answers with a non-null result, and with an error.
    results: usize,
    errors: usize,
}

impl Fuzz {
    async fn start(seed: u64, enc: Enc) -> Fuzz {
        let mut c = TestClient::start().await;
        let r = c
            .request(
                "initialize",
                json!({"capabilities": {"general": {"positionEncodings": [enc.name()]}},
                    "initializationOptions": {"debounceMs": 5}}),
            )
            .await;
        assert_eq!(
            r["result"]["capabilities"]["positionEncoding"],
            enc.name(),
            "{r}"
        );
        c.notify("initialized", json!({})).await;
        let mut f = Fuzz {
            rng: ChaCha8Rng::seed_from_u64(seed),
            enc,
            c,
            open: false,
            version: 0,
            text: String::new(),
            history: HashMap::new(),
            seen_version: 0,
            next_id: 1000,
            pending: HashSet::new(),
            malformed: 0,
            null_errors: 0,
            requests: 0,
            results: 0,
            errors: 0,
        };
        f.open().await;
        f
    }

    async fn open(&mut self) {
        let text = opening_text();
        self.version = 1;
        self.text = text.clone();
        self.history = HashMap::from([(1, text.clone())]);
        self.seen_version = 0;
        self.open = true;
        self.c
            .notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": URI, "languageId": "zeno", "version": 1, "text": text}}),
            )
            .await;
    }

    /// A random char boundary of the text (its end included), never
    /// between the `\r` and `\n` of a line break (no position is there).
    fn boundary(&mut self) -> usize {
        let n = self.text.chars().count();
        let k = self.rng.random_range(0..=n);
        let i = self
            .text
            .char_indices()
            .nth(k)
            .map_or(self.text.len(), |(i, _)| i);
        if i > 0 && self.text[..i].ends_with('\r') && self.text[i..].starts_with('\n') {
            i - 1
        } else {
            i
        }
    }

    /// A position anywhere, in range or not, inside characters or not.
    fn any_position(&mut self) -> Value {
        let lines = line_bounds(&self.text).len();
        match self.rng.random_range(0..10) {
            0 => pos(self.rng.random_range(0..lines + 5), u32::MAX as usize),
            1 => pos(u32::MAX as usize, self.rng.random_range(0..5)),
            2 => pos(lines + self.rng.random_range(0..3), 0),
            _ => {
                let line = self.rng.random_range(0..lines);
                let (s, e) = line_bounds(&self.text)[line];
                let width: usize = self.text[s..e].chars().map(|c| self.enc.units(c)).sum();
                pos(line, self.rng.random_range(0..=width + 2))
            }
        }
    }

    async fn edit(&mut self) {
        let mut changes = Vec::new();
        for _ in 0..self.rng.random_range(1..=3) {
            if self.rng.random_ratio(1, 100) {
                // A whole new text: the model again, with a random tail.
                let tail: String = (0..self.rng.random_range(0..40))
                    .map(|_| PIECES[self.rng.random_range(0..PIECES.len())])
                    .collect();
                let text = format!("{}{tail}", opening_text());
                changes.push(json!({"text": text}));
                self.text = text;
                continue;
            }
            let a = self.boundary();
            let b = self.boundary();
            let (start, mut end) = (a.min(b), a.max(b));
            if end - start > 60 {
                end = start;
            }
            let insert: String = (0..self.rng.random_range(0..4))
                .map(|_| PIECES[self.rng.random_range(0..PIECES.len())])
                .collect();
            let (l0, c0) = position(&self.text, start, self.enc);
            let (l1, mut c1) = position(&self.text, end, self.enc);
            if self.rng.random_ratio(1, 8) {
                // Past the end of its line: means the line's end.
                c1 += 1000;
                end = offset(&self.text, l1, c1, self.enc);
            }
            changes
                .push(json!({"range": {"start": pos(l0, c0), "end": pos(l1, c1)}, "text": insert}));
            self.text.replace_range(start..end, &insert);
        }
        self.version += 1;
        self.history.insert(self.version, self.text.clone());
        self.c
            .notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": URI, "version": self.version}, "contentChanges": changes}),
            )
            .await;
    }

    async fn send(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.c
            .write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.pending.insert(id);
        self.requests += 1;
        id
    }

    /// Reads until every pending request is answered.
    async fn drain(&mut self) {
        self.drain_keeping(None).await;
    }

    /// Reads until every pending request is answered; returns the answer to
    /// `keep`.
    async fn drain_keeping(&mut self, keep: Option<i64>) -> Option<Value> {
        let mut kept = None;
        while !self.pending.is_empty() {
            let m = self.c.next_message().await;
            self.look(&m);
            if m.get("method").is_some() {
                if m.get("id").is_some() {
                    // A server request (none is expected): answer it.
                    self.c
                        .write(json!({"jsonrpc": "2.0", "id": m["id"], "result": null}))
                        .await;
                }
                continue;
            }
            if m["id"].is_null() {
                self.null_errors += 1;
                assert!(m.get("error").is_some(), "{m}");
                continue;
            }
            let id = m["id"].as_i64().unwrap_or_else(|| panic!("{m}"));
            assert!(self.pending.remove(&id), "an answer to no request: {m}");
            assert!(
                m.get("result").is_some() != m.get("error").is_some(),
                "neither or both of result and error: {m}"
            );
            if m.get("error").is_some() {
                self.errors += 1;
            } else if !m["result"].is_null() {
                self.results += 1;
            }
            if Some(id) == keep {
                kept = Some(m);
            }
        }
        kept
    }

    /// Every message: nothing may speak of an internal error (a caught
    /// panic) or be the answer to a request with an internal error.
    fn look(&self, m: &Value) {
        assert_ne!(m["error"]["code"], -32603, "internal error: {m}");
        let text = m.to_string();
        assert!(!text.contains("internal error"), "{text}");
    }

    async fn request(&mut self) {
        let td = json!({"uri": URI});
        let p = self.any_position();
        let (method, params) = match self.rng.random_range(0..16) {
            0 => (
                "textDocument/hover",
                json!({"textDocument": td, "position": p}),
            ),
            1 => (
                "textDocument/definition",
                json!({"textDocument": td, "position": p}),
            ),
            2 => (
                "textDocument/completion",
                json!({"textDocument": td, "position": p}),
            ),
            3 => (
                "textDocument/signatureHelp",
                json!({"textDocument": td, "position": p}),
            ),
            4 => (
                "textDocument/references",
                json!({"textDocument": td, "position": p, "context": {"includeDeclaration": true}}),
            ),
            5 => (
                "textDocument/rename",
                json!({"textDocument": td, "position": p, "newName": "ü2"}),
            ),
            6 => (
                "textDocument/formatting",
                json!({"textDocument": td, "options": {"tabSize": 4, "insertSpaces": true}}),
            ),
            7 => (
                "textDocument/semanticTokens/full",
                json!({"textDocument": td}),
            ),
            8 => ("textDocument/documentSymbol", json!({"textDocument": td})),
            9 => ("textDocument/foldingRange", json!({"textDocument": td})),
            10 => (
                "textDocument/inlayHint",
                json!({"textDocument": td, "range": {"start": pos(0, 0), "end": p}}),
            ),
            11 => ("textDocument/codeLens", json!({"textDocument": td})),
            12 => {
                let check = NAMES[self.rng.random_range(0..NAMES.len())];
                ("zeno/errorTrace", json!({"uri": URI, "check": check}))
            }
            13 => {
                let check = NAMES[self.rng.random_range(0..NAMES.len())];
                (
                    "workspace/executeCommand",
                    json!({"command": "zeno.trace.next", "arguments": [{"uri": URI, "check": check}]}),
                )
            }
            14 => ("workspace/symbol", json!({"query": "o"})),
            _ => ("zeno/noSuchRequest", json!({})),
        };
        let id = self.send(method, params).await;
        if self.rng.random_ratio(1, 6) {
            self.c.notify("$/cancelRequest", json!({ "id": id })).await;
        }
    }

    /// Mis-framed input that must not cost any later message.
    async fn malformed(&mut self) {
        let noise = r#"{"jsonrpc":"2.0","method":"zeno/fuzzNoise","params":{}}"#;
        let bytes = match self.rng.random_range(0..6) {
            0 => b"junk without a header\r\n".to_vec(),
            1 => b"Content-Length: 8\r\n\r\n{ nope }".to_vec(),
            2 => format!("Content-Length: {}\r\n\r\n{noise}", noise.len() - 7).into_bytes(),
            // Too long: cut short by the next message's header.
            3 => format!("Content-Length: {}\r\n\r\n{noise}", noise.len() + 40).into_bytes(),
            4 => format!("Content-Length: lots\r\n\r\n{noise}").into_bytes(),
            _ => {
                // A request with unstructured params: an error under its id.
                let id = self.next_id;
                self.next_id += 1;
                self.pending.insert(id);
                self.requests += 1;
                let body = format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":7}}"#
                );
                format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
            }
        };
        self.malformed += 1;
        self.c.write_bytes(&bytes).await;
    }

    /// The server's text equals the client's at the version it reports.
    async fn check_text(&mut self) {
        self.drain().await;
        let id = self.send("zeno/documentText", json!({ "uri": URI })).await;
        let r = self.drain_keeping(Some(id)).await.unwrap();
        let v = r["result"]["version"]
            .as_i64()
            .unwrap_or_else(|| panic!("{r}")) as i32;
        let expected = self
            .history
            .get(&v)
            .unwrap_or_else(|| panic!("the server reports version {v}, never sent"));
        assert_eq!(
            r["result"]["text"].as_str().unwrap(),
            expected,
            "version {v}"
        );
        assert!(
            v >= self.seen_version,
            "version went back from {} to {v}",
            self.seen_version
        );
        self.seen_version = v;
    }

    async fn step(&mut self) {
        match self.rng.random_range(0..100) {
            _ if !self.open => {
                self.drain().await;
                self.open().await;
            }
            0..35 => self.edit().await,
            35..75 => self.request().await,
            75..80 => self.malformed().await,
            80..81 => {
                self.drain().await;
                self.c
                    .notify(
                        "textDocument/didClose",
                        json!({"textDocument": {"uri": URI}}),
                    )
                    .await;
                self.open = false;
            }
            81..83 => {
                self.c
                    .notify(
                        "textDocument/didSave",
                        json!({"textDocument": {"uri": URI}}),
                    )
                    .await
            }
            83..93 => self.check_text().await,
            _ => self.drain().await,
        }
        if self.pending.len() > 8 {
            self.drain().await;
        }
    }

    /// The end: every request answered, the server caught up with the last
    /// version, and a clean shutdown.
    async fn finish(&mut self) {
        if !self.open {
            self.open().await;
        }
        self.drain().await;
        let deadline = std::time::Instant::now() + crate::support::lsp_client::HANG;
        loop {
            self.check_text().await;
            if self.seen_version == self.version {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the server stays at version {}, the client is at {}",
                self.seen_version,
                self.version
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(
            self.null_errors <= self.malformed,
            "{} errors without an id for {} malformed messages",
            self.null_errors,
            self.malformed
        );
        let r = self.c.request("shutdown", Value::Null).await;
        assert_eq!(r["result"], Value::Null, "{r}");
    }
}

/// Prints the seed when a session fails, to replay it.
struct SeedOnFailure(u64, &'static str);

impl Drop for SeedOnFailure {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "lsp fuzz ({}) failed: replay with ZENO_LSP_FUZZ_SEED={}",
                self.1, self.0
            );
        }
    }
}

fn env_number(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    Some(
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, got {v:?}")),
    )
}

async fn run(default_steps: usize) {
    let steps = env_number("ZENO_LSP_FUZZ_STEPS").map_or(default_steps, |n| n as usize);
    let seed = env_number("ZENO_LSP_FUZZ_SEED").unwrap_or_else(|| rand::rng().random());
    eprintln!("lsp fuzz: seed {seed}, {steps} steps per encoding");
    for enc in [Enc::Utf8, Enc::Utf16, Enc::Utf32] {
        let _guard = SeedOnFailure(seed, enc.name());
        let started = std::time::Instant::now();
        let mut f = Fuzz::start(seed, enc).await;
        for _ in 0..steps {
            f.step().await;
        }
        f.finish().await;
        eprintln!(
            "lsp fuzz: {}: {steps} steps, {} requests ({} answered with a result, {} with an error), \
             {} malformed messages, final version {} ({:.1} s)",
            enc.name(),
            f.requests,
            f.results,
            f.errors,
            f.malformed,
            f.version,
            started.elapsed().as_secs_f64()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short() {
    run(SHORT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the long run (10,000 steps per encoding, seconds each); see the module's docs"]
async fn long() {
    run(LONG).await;
}

#[test]
fn the_clients_conversions() {
    let text = "aé😀\r\nb";
    assert_eq!(position(text, 7, Enc::Utf8), (0, 7));
    assert_eq!(position(text, 7, Enc::Utf16), (0, 4));
    assert_eq!(position(text, 7, Enc::Utf32), (0, 3));
    assert_eq!(position(text, 9, Enc::Utf16), (1, 0));
    assert_eq!(offset(text, 0, 4, Enc::Utf16), 7);
    assert_eq!(offset(text, 0, 99, Enc::Utf32), 7);
}

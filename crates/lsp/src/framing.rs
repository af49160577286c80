//! The byte streams around the protocol: a guard in front of the reader of
//! `tower-lsp-server`, and the one writer of the server's output.
//!
//! The transport of `tower-lsp-server` stops reading after the first message
//! it cannot decode (its framed reader ends on an error), and it trusts every
//! `Content-Length`. So the input is re-framed here first, and only messages
//! the transport decodes reach it. Everything else is dropped, logged (stderr
//! and `window/logMessage`, never stdout) and, where JSON-RPC 2.0 asks for
//! one, answered with an error:
//!
//! - junk between messages (a body without a header, the rest of a body
//!   whose `Content-Length` was too short, a malformed header) is skipped up
//!   to the next `Content-Length:` header, wherever it starts;
//! - a body that is not JSON gets a parse error (`-32700`, id `null`), as
//!   JSON-RPC 2.0 §5.1 prescribes for "invalid JSON was received" (LSP adds
//!   nothing to this); a body cut short by the next header (its
//!   `Content-Length` was too long) gets the same, or an invalid-request error
//!   with its id when what arrived is a request;
//! - JSON that is not a JSON-RPC 2.0 message (a batch, a request with a
//!   non-structured `params`, a bad `id`, ...) gets an invalid-request error
//!   (`-32600`) with the request's id when it has a usable one, else `null`;
//!   a malformed *response* (from the client to a server request) is only
//!   logged, since nothing may answer a response;
//! - a message over [`MAX_MESSAGE`] is skipped without being stored.
//!
//! Why a too-long `Content-Length` does not swallow the next message: a JSON
//! text can never contain `Content-Length: DIGITS` followed by a raw line
//! break (outside strings JSON has no letters but `true`/`false`/`null`, and
//! inside strings a raw line break is not allowed), so that pattern inside a
//! body proves the body was mis-framed, and reading starts again at it.
//!
//! Replies and logs from here and the server's own messages share the output
//! through one writer ([`write_output`]) that only ever writes whole frames.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};

/// Largest message body accepted (a model of tens of megabytes plus the
/// protocol around it). A larger one is skipped, never stored.
pub const MAX_MESSAGE: u64 = 64 << 20;

/// A header block (from `Content-Length:` to the empty line) longer than
/// this is not a header.
const MAX_HEADER: usize = 8 << 10;

/// The header that starts a message, compared without regard to case.
const NAME: &[u8] = b"content-length:";

/// How far a header found inside a body may reach past the body's declared
/// end and still be recognised (the name, spaces, digits and line break).
const HEADER_REACH: usize = 64;

/// What the reader found next in the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A message body of the length its header declared.
    Body(Vec<u8>),
    /// A body that a header inside it cut short: its `Content-Length` said
    /// `declared` bytes, the next header came after `bytes`.
    CutShort { declared: u64, bytes: Vec<u8> },
    /// Something that is not a message, skipped; the reason, for the log.
    Skipped(String),
}

/// Reads frames from the input, resynchronising on the next header after
/// anything malformed.
pub struct FrameReader<R> {
    input: R,
    buf: Vec<u8>,
    /// Start of the unread part of `buf`.
    pos: usize,
    eof: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    pub fn new(input: R) -> FrameReader<R> {
        FrameReader {
            input,
            buf: Vec::new(),
            pos: 0,
            eof: false,
        }
    }

    fn avail(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
        // Compact once the read part dominates, so the buffer stays about
        // as large as the message being read.
        if self.pos >= 1 << 16 && self.pos * 2 >= self.buf.len() {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
    }

    /// Reads more input; `false` at the end of it. A read error ends the
    /// input too (it is logged: nothing more can be read).
    async fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        let mut chunk = [0u8; 1 << 16];
        match self.input.read(&mut chunk).await {
            Ok(0) => self.eof = true,
            Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            Err(e) => {
                tracing::error!("zeno lsp: reading the input failed: {e}");
                self.eof = true;
            }
        }
        !self.eof
    }

    /// The next frame, or `None` at the end of the input.
    pub async fn next(&mut self) -> Option<Frame> {
        // Skip to the next header; report junk on the way.
        let mut junk = 0u64;
        let mut visible = false;
        loop {
            let avail = self.avail();
            let found = find_name(avail, 0);
            let skip = match found {
                Some(i) => i,
                // Keep what could be the beginning of a header.
                None if !self.eof => avail.len().saturating_sub(NAME.len() - 1),
                None => avail.len(),
            };
            junk += skip as u64;
            visible |= avail[..skip].iter().any(|b| !b.is_ascii_whitespace());
            self.consume(skip);
            if found.is_some() {
                break;
            }
            if !self.fill().await && self.avail().is_empty() {
                return visible.then(|| Frame::Skipped(junk_reason(junk, "the end of the input")));
            }
        }
        if visible {
            // Whitespace between messages is harmless and not reported.
            return Some(Frame::Skipped(junk_reason(junk, "a header")));
        }

        // The header block, up to its empty line.
        let (len, end) = loop {
            match parse_header(self.avail()) {
                Header::Complete { len, end } => break (len, end),
                Header::Invalid(why) => {
                    // Start looking for the next header after this one's name.
                    self.consume(NAME.len());
                    return Some(Frame::Skipped(why));
                }
                Header::Partial if self.avail().len() > MAX_HEADER => {
                    self.consume(NAME.len());
                    return Some(Frame::Skipped(format!(
                        "skipped a header without an end in its first {MAX_HEADER} bytes"
                    )));
                }
                Header::Partial => {
                    if !self.fill().await {
                        let n = self.avail().len();
                        self.consume(n);
                        return Some(Frame::Skipped(
                            "the input ended inside a message header".to_string(),
                        ));
                    }
                }
            }
        };
        self.consume(end);
        Some(self.body(len).await)
    }

    /// The body of a message of `len` bytes (skipped when over the limit),
    /// stopping early at a header inside it.
    async fn body(&mut self, len: u64) -> Frame {
        let keep = len <= MAX_MESSAGE;
        // Bytes of the body consumed already (only when skipping).
        let mut done = 0u64;
        // Bytes of `avail` searched for a header already.
        let mut scanned = 0usize;
        loop {
            let avail = self.avail();
            let left = len - done;
            let in_body = (avail.len() as u64).min(left) as usize;
            let reach = avail.len().min(in_body + HEADER_REACH);
            let from = scanned.saturating_sub(HEADER_REACH);
            if let Some(k) = find_header(&avail[..reach], from, in_body) {
                let bytes = if keep {
                    avail[..k].to_vec()
                } else {
                    Vec::new()
                };
                self.consume(k);
                let got = done + k as u64;
                return if keep {
                    Frame::CutShort {
                        declared: len,
                        bytes,
                    }
                } else {
                    Frame::Skipped(format!(
                        "skipped a message whose Content-Length ({len}) is over the limit of \
                         {MAX_MESSAGE} bytes; the next header came after {got} bytes"
                    ))
                };
            }
            if in_body as u64 == left {
                let bytes = if keep {
                    avail[..in_body].to_vec()
                } else {
                    Vec::new()
                };
                self.consume(in_body);
                return if keep {
                    Frame::Body(bytes)
                } else {
                    Frame::Skipped(format!(
                        "skipped a message of {len} bytes, over the limit of {MAX_MESSAGE} bytes"
                    ))
                };
            }
            scanned = in_body;
            if !keep {
                // Drop what was searched, but keep enough to recognise a
                // header that starts in it.
                let drop = in_body.saturating_sub(HEADER_REACH);
                self.consume(drop);
                done += drop as u64;
                scanned -= drop;
            }
            if !self.fill().await {
                let n = self.avail().len();
                self.consume(n);
                return Frame::Skipped(format!(
                    "the input ended {} bytes into a message of {len} bytes",
                    done + n as u64
                ));
            }
        }
    }
}

fn junk_reason(bytes: u64, before: &str) -> String {
    format!(
        "skipped {bytes} bytes that are not a message (no Content-Length header) before {before}"
    )
}

/// The first `Content-Length:` (any case) at or after `from`.
fn find_name(bytes: &[u8], from: usize) -> Option<usize> {
    let last = bytes.len().checked_sub(NAME.len())?;
    let mut i = from;
    while i <= last {
        // Every body is searched: look for the first letter first.
        i += bytes[i..=last].iter().position(|&b| b | 0x20 == b'c')?;
        if bytes[i..i + NAME.len()].eq_ignore_ascii_case(NAME) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The start of the first complete header line `Content-Length: DIGITS`
/// followed by a line break that starts at or after `from` and before `before`.
fn find_header(bytes: &[u8], from: usize, before: usize) -> Option<usize> {
    let mut at = from;
    while let Some(i) = find_name(bytes, at) {
        if i >= before {
            return None;
        }
        let mut j = i + NAME.len();
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        let digits = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j > digits {
            if bytes.get(j) == Some(&b'\r') {
                j += 1;
            }
            if bytes.get(j) == Some(&b'\n') {
                return Some(i);
            }
        }
        at = i + 1;
    }
    None
}

enum Header {
    /// The body's length and where the header block ends.
    Complete { len: u64, end: usize },
    /// Not a header; why.
    Invalid(String),
    /// More input is needed.
    Partial,
}

/// Parses the header block at the start of `bytes` (which starts with
/// `Content-Length:`): `Name: value` lines up to an empty line. Lines may end
/// in `\r\n` (as the protocol says) or `\n`.
fn parse_header(bytes: &[u8]) -> Header {
    let mut len = None;
    let mut at = 0;
    loop {
        let Some(nl) = bytes[at..].iter().position(|&b| b == b'\n') else {
            return Header::Partial;
        };
        let raw = &bytes[at..at + nl];
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        at += nl + 1;
        if line.is_empty() {
            return match len {
                Some(len) => Header::Complete { len, end: at },
                None => Header::Invalid("skipped a header without Content-Length".into()),
            };
        }
        let text = String::from_utf8_lossy(line);
        let Some((name, value)) = text.split_once(':') else {
            return Header::Invalid(format!(
                "skipped a malformed header line `{}`",
                shorten(&text)
            ));
        };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return Header::Invalid(format!(
                "skipped a malformed header line `{}`",
                shorten(&text)
            ));
        }
        if name.eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            match value.parse::<u64>() {
                Ok(n) if value.bytes().all(|b| b.is_ascii_digit()) => len = Some(n),
                _ => {
                    return Header::Invalid(format!(
                        "skipped a header with an invalid Content-Length `{}`",
                        shorten(value)
                    ));
                }
            }
        }
        // Content-Type and unknown headers are ignored: the body is read as
        // UTF-8 JSON whatever they say, and fails as such if it is not.
    }
}

fn shorten(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Mirrors the transport's own message type, so that what is forwarded is
/// exactly what it decodes.
#[derive(Deserialize)]
#[serde(untagged)]
#[allow(dead_code)] // only decoded, to test decodability
enum Decodable {
    Response(Response),
    Request(Request),
}

/// What to do with a body.
#[derive(Debug, PartialEq)]
pub enum Action {
    /// Forward it to the server (the method, if it is a request or
    /// notification).
    Forward(Option<String>),
    /// Answer with this error response, and log why.
    Reply(Value, String),
    /// Only log why.
    Drop(String),
}

fn error_response(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The id to answer a bad request with: its own when JSON-RPC allows one.
fn usable_id(v: &Value) -> Value {
    match v.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    }
}

/// JSON-RPC's parse error (-32700, no id) for a body that is `why`.
fn parse_error(why: String) -> Action {
    Action::Reply(
        error_response(Value::Null, -32700, format!("Parse error: {why}")),
        format!("answered a parse error to {why}"),
    )
}

/// Decides about one message body.
pub fn classify(body: &[u8]) -> Action {
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(e) => return parse_error(format!("a message that is not UTF-8: {e}")),
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return parse_error(format!("a message that is not JSON ({e})")),
    };
    let structured_params = matches!(
        value.get("params"),
        None | Some(Value::Null | Value::Object(_) | Value::Array(_))
    );
    if structured_params && serde_json::from_str::<Decodable>(text).is_ok() {
        let method = value
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string);
        return Action::Forward(method);
    }
    let is_response = value.is_object() && value.get("method").is_none();
    let why = match &value {
        Value::Array(_) => "a batch (an array of messages), which LSP does not use".to_string(),
        Value::Object(o) if o.get("jsonrpc") != Some(&json!("2.0")) => {
            "a message without \"jsonrpc\": \"2.0\"".to_string()
        }
        Value::Object(_) if !structured_params => {
            "a request whose params are neither an object nor an array".to_string()
        }
        Value::Object(_) if is_response => {
            "a response without a valid id and exactly one of result and error".to_string()
        }
        Value::Object(_) => "a request with an invalid method or id".to_string(),
        _ => "JSON that is not a JSON-RPC message".to_string(),
    };
    if is_response && value.get("jsonrpc") == Some(&json!("2.0")) {
        return Action::Drop(format!("dropped {why}: {}", shorten(text)));
    }
    let id = usable_id(&value);
    Action::Reply(
        error_response(id.clone(), -32600, format!("Invalid Request: {why}")),
        format!("answered an invalid-request error (id {id}) to {why}"),
    )
}

/// What to do with a body that a header cut short.
pub fn classify_cut_short(declared: u64, bytes: &[u8]) -> Action {
    let why = format!(
        "its Content-Length said {declared} bytes, but the next message's header came after {}",
        bytes.len()
    );
    // A request that arrived whole still gets an answer under its id.
    let id = serde_json::from_slice::<Value>(bytes)
        .ok()
        .filter(|v| v.get("method").is_some())
        .map_or(Value::Null, |v| usable_id(&v));
    if id.is_null() {
        Action::Reply(
            error_response(Value::Null, -32700, format!("Parse error: {why}")),
            format!("answered a parse error to a message cut short: {why}"),
        )
    } else {
        Action::Reply(
            error_response(id.clone(), -32600, format!("Invalid Request: {why}")),
            format!("answered an invalid-request error (id {id}) to a message cut short: {why}"),
        )
    }
}

/// A message with its header.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// What goes to the output writer.
pub enum Out {
    /// A whole frame.
    Frame(Vec<u8>),
    /// The server's output ended: write nothing more.
    End,
}

/// Logs a dropped or answered message: to stderr, and to the client as a
/// `window/logMessage` warning.
async fn log(out: &mpsc::Sender<Out>, message: String) {
    tracing::warn!("zeno lsp: {message}");
    let note = json!({"jsonrpc": "2.0", "method": "window/logMessage",
        "params": {"type": 2, "message": format!("zeno lsp: {message}")}});
    let _ = out
        .send(Out::Frame(frame(note.to_string().as_bytes())))
        .await;
}

/// Returns a stream carrying only messages the transport decodes from
/// `input`; replies and logs about the others go to `out`. `exit` is set
/// when an `exit` notification is forwarded.
pub fn sanitize<I>(input: I, out: mpsc::Sender<Out>, exit: Arc<AtomicBool>) -> DuplexStream
where
    I: AsyncRead + Unpin + Send + 'static,
{
    let (mut to_server, from_filter) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let mut reader = FrameReader::new(input);
        while let Some(frame) = reader.next().await {
            let action = match frame {
                Frame::Body(body) => match classify(&body) {
                    Action::Forward(method) => {
                        if method.as_deref() == Some("exit") {
                            exit.store(true, Ordering::SeqCst);
                        }
                        if to_server.write_all(&self::frame(&body)).await.is_err() {
                            // The server is gone (after `exit`).
                            return;
                        }
                        continue;
                    }
                    other => other,
                },
                Frame::CutShort { declared, bytes } => classify_cut_short(declared, &bytes),
                Frame::Skipped(why) => Action::Drop(why),
            };
            match action {
                Action::Reply(reply, why) => {
                    log(&out, why).await;
                    let _ = out
                        .send(Out::Frame(self::frame(reply.to_string().as_bytes())))
                        .await;
                }
                Action::Drop(why) => log(&out, why).await,
                Action::Forward(_) => unreachable!("forwarded above"),
            }
        }
        // End of input: dropping `to_server` ends the server's input too.
    });
    from_filter
}

/// Reads the server's own output (well-formed frames) and passes each whole
/// frame on to the writer, then `Out::End`.
pub async fn forward_server_output(server_output: DuplexStream, out: mpsc::Sender<Out>) {
    let mut reader = BufReader::new(server_output);
    loop {
        let mut header = Vec::new();
        let mut len = None;
        loop {
            let start = header.len();
            match reader.read_until(b'\n', &mut header).await {
                Ok(0) | Err(_) => {
                    let _ = out.send(Out::End).await;
                    return;
                }
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&header[start..]);
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                len = value.trim().parse::<usize>().ok();
            }
        }
        let Some(len) = len else {
            // The transport always writes Content-Length; nothing to frame.
            continue;
        };
        let mut message = header;
        let start = message.len();
        message.resize(start + len, 0);
        if reader.read_exact(&mut message[start..]).await.is_err() {
            let _ = out.send(Out::End).await;
            return;
        }
        if out.send(Out::Frame(message)).await.is_err() {
            return;
        }
    }
}

/// The one writer of the output: whole frames, in the order they come,
/// until the server's output ends.
pub async fn write_output<O: AsyncWrite>(mut frames: mpsc::Receiver<Out>, output: O) {
    tokio::pin!(output);
    while let Some(Out::Frame(bytes)) = frames.recv().await {
        if output.write_all(&bytes).await.is_err() || output.flush().await.is_err() {
            // The client is gone; nothing more can reach it.
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// Every frame read from `input`.
    fn frames(input: &[u8]) -> Vec<Frame> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut r = FrameReader::new(input);
            let mut out = Vec::new();
            while let Some(f) = r.next().await {
                out.push(f);
            }
            out
        })
    }

    fn body(s: &str) -> Frame {
        Frame::Body(s.as_bytes().to_vec())
    }

    fn is_skipped(f: &Frame) -> bool {
        matches!(f, Frame::Skipped(_))
    }

    const OK: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;

    #[test]
    fn well_framed_messages() {
        let input = format!("{}{}\r\n", framed(OK), framed("{}"));
        assert_eq!(frames(input.as_bytes()), [body(OK), body("{}")]);
        // Lower case, extra headers and bare line feeds.
        let input = format!(
            "content-length: {}\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{OK}",
            OK.len()
        );
        assert_eq!(frames(input.as_bytes()), [body(OK)]);
    }

    #[test]
    fn junk_and_a_missing_header_are_skipped_up_to_the_next_header() {
        let input = format!("{OK}{}", framed(OK));
        let f = frames(input.as_bytes());
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(is_skipped(&f[0]));
        assert_eq!(f[1], body(OK));
        // Junk at the end of the input is reported too.
        let f = frames(format!("{}garbage", framed(OK)).as_bytes());
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(is_skipped(&f[1]));
    }

    #[test]
    fn a_too_short_content_length_leaves_junk_before_the_next_header() {
        let input = format!("Content-Length: 10\r\n\r\n{OK}{}", framed(OK));
        let f = frames(input.as_bytes());
        assert_eq!(f.len(), 3, "{f:?}");
        assert_eq!(f[0], body(&OK[..10]));
        assert!(is_skipped(&f[1]));
        assert_eq!(f[2], body(OK));
    }

    #[test]
    fn a_too_long_content_length_is_cut_short_by_the_next_header() {
        let input = format!("Content-Length: 500\r\n\r\n{OK}{}", framed(OK));
        let f = frames(input.as_bytes());
        assert_eq!(
            f,
            [
                Frame::CutShort {
                    declared: 500,
                    bytes: OK.as_bytes().to_vec()
                },
                body(OK)
            ]
        );
        // The header's line break may lie past the declared end.
        let second = framed(OK);
        let declared = OK.len() + "Content-Length: 5".len();
        let input = format!("Content-Length: {declared}\r\n\r\n{OK}{second}");
        let f = frames(input.as_bytes());
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[1], body(OK));
    }

    #[test]
    fn invalid_headers_are_skipped() {
        for bad in [
            "Content-Length: abc\r\n\r\n",
            "Content-Length: -3\r\n\r\n",
            "Content-Length: 99999999999999999999999\r\n\r\n",
            "Content-Length: 5\r\nno colon here\r\n\r\n",
        ] {
            let input = format!("{bad}{}", framed(OK));
            let f = frames(input.as_bytes());
            assert_eq!(f.last(), Some(&body(OK)), "{bad:?}: {f:?}");
            assert!(f[..f.len() - 1].iter().all(is_skipped), "{bad:?}: {f:?}");
        }
    }

    #[test]
    fn an_oversized_message_is_skipped_without_storing_it() {
        let huge = MAX_MESSAGE + 1;
        // The declared bytes follow in full (zeros, no header inside).
        let mut input = format!("Content-Length: {huge}\r\n\r\n").into_bytes();
        input.resize(input.len() + huge as usize, b' ');
        input.extend_from_slice(framed(OK).as_bytes());
        let f = frames(&input);
        assert_eq!(f.len(), 2);
        match &f[0] {
            Frame::Skipped(why) => assert!(why.contains("over the limit"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(f[1], body(OK));
        // Declared huge but followed by a message at once.
        let input = format!("Content-Length: {huge}\r\n\r\n{}", framed(OK));
        let f = frames(input.as_bytes());
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(is_skipped(&f[0]));
        assert_eq!(f[1], body(OK));
    }

    #[test]
    fn the_end_of_the_input_inside_a_message() {
        let f = frames(b"Content-Length: 50\r\n\r\n{\"a\":");
        assert_eq!(f.len(), 1);
        assert!(is_skipped(&f[0]));
        let f = frames(b"Content-Length: 50\r\n");
        assert_eq!(f.len(), 1);
        assert!(is_skipped(&f[0]));
    }

    #[test]
    fn a_header_inside_a_json_string_is_not_a_header() {
        // An escaped line break inside a string: no raw one follows the digits.
        let text = r#"{"jsonrpc":"2.0","method":"x","params":{"t":"Content-Length: 5\r\n\r\n"}}"#;
        assert_eq!(frames(framed(text).as_bytes()), [body(text)]);
    }

    #[test]
    fn classification() {
        assert_eq!(
            classify(OK.as_bytes()),
            Action::Forward(Some("initialize".into()))
        );
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":3,"result":null}"#),
            Action::Forward(None)
        );
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":null,"method":"shutdown","params":null}"#),
            Action::Forward(Some("shutdown".into()))
        );
        let Action::Reply(r, _) = classify(b"{ not json") else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
        let Action::Reply(r, _) = classify(br#"{"jsonrpc":"2.0","id":4,"method":"x","params":7}"#)
        else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (json!(4), json!(-32600))
        );
        let Action::Reply(r, _) = classify(br#"[{"jsonrpc":"2.0","method":"x"}]"#) else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (Value::Null, json!(-32600))
        );
        let Action::Reply(r, _) = classify(br#"{"jsonrpc":"1.0","id":"a","method":"x"}"#) else {
            panic!()
        };
        assert_eq!(r["id"], "a");
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":{"x":5},"result":1}"#),
            Action::Drop(_)
        ));
        let Action::Reply(r, _) = classify(&[b'"', 0xff, b'"']) else {
            panic!()
        };
        assert_eq!(r["error"]["code"], -32700);
    }

    #[test]
    fn a_request_cut_short_is_answered_under_its_id() {
        let Action::Reply(r, _) = classify_cut_short(500, OK.as_bytes()) else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (json!(1), json!(-32600))
        );
        let Action::Reply(r, _) = classify_cut_short(500, b"{\"jsonrpc") else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
    }
}

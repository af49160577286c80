//! A guard in front of the protocol reader.
//!
//! The transport of `tower-lsp-server` stops reading after the first message
//! it cannot decode (its framed reader ends on an error), so one malformed
//! message from a client would end the session. This filter re-frames the
//! input and forwards only messages the transport can decode: a message that
//! is not JSON-RPC is dropped (and logged to stderr), and a request that is
//! malformed but has a readable id is replaced by a call to a method that does
//! not exist, so the client still gets an error answer to its request.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};

/// Largest message accepted (a model of a few megabytes plus overhead).
const MAX_MESSAGE: usize = 64 << 20;

/// Returns a stream carrying only well-formed messages from `input`.
pub fn sanitize<I>(input: I) -> DuplexStream
where
    I: AsyncRead + Unpin + Send + 'static,
{
    let (mut to_server, from_filter) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let mut reader = BufReader::new(input);
        while let Some(body) = next_frame(&mut reader).await {
            let Some(msg) = check(&body) else {
                continue;
            };
            let framed = format!("Content-Length: {}\r\n\r\n{msg}", msg.len());
            if to_server.write_all(framed.as_bytes()).await.is_err() {
                return;
            }
        }
        // End of input: dropping `to_server` ends the server's input too.
    });
    from_filter
}

/// The next message body, skipping frames without a usable `Content-Length`.
/// `None` at the end of the input.
async fn next_frame<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> Option<Vec<u8>> {
    loop {
        let mut len = None;
        loop {
            let mut line = Vec::new();
            if reader.read_until(b'\n', &mut line).await.ok()? == 0 {
                return None;
            }
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                len = value.trim().parse::<usize>().ok();
            }
        }
        match len {
            Some(n) if n <= MAX_MESSAGE => {
                let mut body = vec![0; n];
                reader.read_exact(&mut body).await.ok()?;
                return Some(body);
            }
            _ => eprintln!("zeno lsp: skipped a message without a valid Content-Length"),
        }
    }
}

/// The message to forward for a body, or `None` to drop it.
fn check(body: &[u8]) -> Option<String> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("zeno lsp: dropped a message that is not JSON: {e}");
            return None;
        }
    };
    if well_formed(&value) {
        return Some(value.to_string());
    }
    match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) if value.get("method").is_some() => {
            eprintln!("zeno lsp: malformed request {id}; answering with an error");
            Some(json!({"jsonrpc": "2.0", "id": id, "method": "zeno/malformedRequest"}).to_string())
        }
        _ => {
            eprintln!("zeno lsp: dropped a malformed JSON-RPC message");
            None
        }
    }
}

/// Whether the transport can decode the message: a request, notification or
/// response of JSON-RPC 2.0.
fn well_formed(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return false;
    }
    let id_ok = match obj.get("id") {
        None | Some(Value::Number(_) | Value::String(_) | Value::Null) => true,
        Some(_) => false,
    };
    match obj.get("method") {
        Some(Value::String(_)) => {
            id_ok
                && matches!(
                    obj.get("params"),
                    None | Some(Value::Null | Value::Object(_) | Value::Array(_))
                )
        }
        Some(_) => false,
        None => id_ok && (obj.contains_key("result") || obj.contains_key("error")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwards_and_rewrites() {
        let ok = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        assert!(check(ok).is_some());
        assert_eq!(check(b"{ not json"), None);
        assert_eq!(check(br#"{"jsonrpc":"2.0","method":"x","params":7}"#), None);
        let bad_request = check(br#"{"jsonrpc":"2.0","id":4,"method":"x","params":7}"#).unwrap();
        let v: Value = serde_json::from_str(&bad_request).unwrap();
        assert_eq!(v["id"], 4);
        assert_eq!(v["method"], "zeno/malformedRequest");
        assert_eq!(check(br#"{"jsonrpc":"1.0","method":"x"}"#), None);
    }
}

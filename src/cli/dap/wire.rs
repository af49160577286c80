//! The Debug Adapter Protocol's framing: `Content-Length: N`, an empty
//! line, then N bytes of JSON, in both directions (the same framing as the
//! language server's, read here synchronously: the adapter answers one
//! request at a time).
//!
//! Nothing malformed ends the session: a header block without a usable
//! `Content-Length` is skipped up to its empty line, an oversized body is
//! read and dropped, and a body that is not a JSON object comes back as
//! [`Incoming::Malformed`], which the server answers with an error
//! response. Only the end of the input (or a read error) ends the loop.

use std::io::{BufRead, Write};

use serde_json::Value;

/// Largest message body accepted; a larger one is read and dropped.
pub const MAX_MESSAGE: usize = 64 << 20;

/// What the reader found next.
#[derive(Debug)]
pub enum Incoming {
    /// A JSON object.
    Message(Value),
    /// Something that is not a message, and why (answered with an error).
    Malformed(String),
    /// The input ended.
    End,
}

/// Reads the next message from `input`.
pub fn read(input: &mut impl BufRead) -> std::io::Result<Incoming> {
    let mut length: Option<Result<usize, String>> = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(Incoming::End);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            // Blank lines between messages are not messages.
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("a Content-Length that is not a number: `{line}`")),
            );
        }
    }
    let length = match length {
        None => {
            return Ok(Incoming::Malformed(
                "a header without Content-Length".to_string(),
            ));
        }
        Some(Err(why)) => return Ok(Incoming::Malformed(why)),
        Some(Ok(n)) => n,
    };
    if length > MAX_MESSAGE {
        std::io::copy(
            &mut std::io::Read::take(&mut *input, length as u64),
            &mut std::io::sink(),
        )?;
        return Ok(Incoming::Malformed(format!(
            "a message of {length} bytes, over the limit of {MAX_MESSAGE}"
        )));
    }
    let mut body = vec![0; length];
    if let Err(e) = input.read_exact(&mut body) {
        return if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Ok(Incoming::End)
        } else {
            Err(e)
        };
    }
    Ok(match serde_json::from_slice::<Value>(&body) {
        Ok(v) if v.is_object() => Incoming::Message(v),
        Ok(_) => Incoming::Malformed("a message that is not a JSON object".to_string()),
        Err(e) => Incoming::Malformed(format!("a message that is not JSON: {e}")),
    })
}

/// Writes one message, framed, and flushes it.
pub fn write(output: &mut impl Write, message: &Value) -> std::io::Result<()> {
    let body = message.to_string();
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &str) -> Vec<String> {
        let mut reader = std::io::BufReader::new(input.as_bytes());
        let mut out = Vec::new();
        loop {
            match read(&mut reader).unwrap() {
                Incoming::Message(v) => out.push(v.to_string()),
                Incoming::Malformed(why) => out.push(format!("malformed: {why}")),
                Incoming::End => return out,
            }
        }
    }

    #[test]
    fn messages_and_malformed_input_in_order() {
        let input = "Content-Length: 7\r\n\r\n{\"a\":1}\n\
                     X-Other: 1\r\n\r\n\
                     Content-Length: 3\r\n\r\n[1]\
                     Content-Length: 2\r\n\r\n{]\
                     content-length: 2\r\nContent-Type: x\r\n\r\n{}\
                     Content-Length: 99\r\n\r\n{}";
        assert_eq!(
            all(input),
            vec![
                "{\"a\":1}".to_string(),
                "malformed: a header without Content-Length".to_string(),
                "malformed: a message that is not a JSON object".to_string(),
                "malformed: a message that is not JSON: key must be a string at line 1 column 2"
                    .to_string(),
                "{}".to_string(),
            ]
        );
    }

    #[test]
    fn a_bad_length_is_reported() {
        assert_eq!(
            all("Content-Length: many\r\n\r\n"),
            vec!["malformed: a Content-Length that is not a number: `Content-Length: many`"]
        );
    }

    #[test]
    fn written_frames_read_back() {
        let mut out = Vec::new();
        write(&mut out, &serde_json::json!({"é": "ü"})).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("Content-Length: 11\r\n\r\n"), "{text}");
        assert_eq!(all(&text), vec!["{\"é\":\"ü\"}".to_string()]);
    }
}

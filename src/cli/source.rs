//! Model files as the CLI sees them: read with located errors, and mapped
//! from byte offsets to line/column positions for every output format.

use std::path::{Path, PathBuf};

use zeno::ir::Span;
use zeno::line_index::{LineIndex, line_col};

/// A model text that was read successfully.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as the user wrote it (shown in messages and reports).
    pub path: PathBuf,
    pub text: String,
    /// Its lines, columns in characters (boxed: a source travels in
    /// errors, which stay small).
    lines: Box<LineIndex>,
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Source {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Source {
        Source {
            path: path.into(),
            lines: Box::new(LineIndex::in_chars(&text)),
            text,
        }
    }

    /// The path for display, with `/` separators on every platform.
    pub fn display_path(&self) -> String {
        self.path.to_string_lossy().replace('\\', "/")
    }

    /// The position of a byte offset; offsets past the end or inside a
    /// character are clamped so that a bad span never panics the CLI.
    pub fn position(&self, offset: u32) -> Position {
        let (line, column) = self.lines.one_based(offset);
        Position {
            line: line as usize,
            column: column as usize,
        }
    }

    /// The text of a span, clamped to the file like [`Source::position`].
    pub fn slice(&self, span: Span) -> &str {
        let clamp = |o: u32| {
            let mut o = (o as usize).min(self.text.len());
            while !self.text.is_char_boundary(o) {
                o -= 1;
            }
            o
        };
        let (start, end) = (clamp(span.start), clamp(span.end));
        &self.text[start..end.max(start)]
    }
}

/// Why a file could not be used as a model text.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read `{path}`: {error}")]
    Io { path: String, error: std::io::Error },
    #[error(
        "`{path}` is not valid UTF-8: invalid byte at offset {offset} (line {line}, column {column})"
    )]
    Utf8 {
        path: String,
        offset: usize,
        line: usize,
        column: usize,
    },
}

/// The name standard input is shown under (`-` on the command line).
pub const STDIN_NAME: &str = "<stdin>";

/// Reads a model file; `-` is standard input, shown as `<stdin>`.
pub fn read_source(path: &Path) -> Result<Source, ReadError> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map_err(|error| {
            ReadError::Io {
                path: STDIN_NAME.to_string(),
                error,
            }
        })?;
        return decode(STDIN_NAME, Path::new(STDIN_NAME), bytes);
    }
    let shown = path.to_string_lossy().into_owned();
    let bytes = std::fs::read(path).map_err(|error| ReadError::Io {
        path: shown.clone(),
        error,
    })?;
    decode(&shown, path, bytes)
}

/// The encoding an XML prolog declares (`<?xml version="1.0"
/// encoding="ISO-8859-1"?>`), lower-cased.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(200)];
    let head: String = head.iter().map(|&b| b as char).collect();
    let prolog = head.strip_prefix("\u{ef}\u{bb}\u{bf}").unwrap_or(&head);
    let prolog = &prolog[..prolog.find("?>")?];
    if !prolog.trim_start().starts_with("<?xml") {
        return None;
    }
    let rest = &prolog[prolog.find("encoding")? + "encoding".len()..];
    let rest = rest.trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    Some(value[..value.find(quote)?].to_ascii_lowercase())
}

/// A UPPAAL file that is not UTF-8 (older files, or ones edited on
/// systems with a single-byte encoding, have `ä` or `µ` in comments):
/// read as ISO-8859-1, which maps every byte to a character. Silent when
/// the file declares a single-byte encoding; said on standard error when
/// an XML or XTA file declares none, or UTF-8, and has such bytes anyway.
fn single_byte(shown: &str, path: &Path, bytes: &[u8]) -> Option<String> {
    let declared = declared_encoding(bytes);
    let single = declared.as_deref().is_some_and(|e| {
        matches!(
            e,
            "iso-8859-1"
                | "iso8859-1"
                | "latin1"
                | "latin-1"
                | "iso-8859-15"
                | "windows-1252"
                | "cp1252"
        )
    });
    let uppaal = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("xml" | "xta" | "q" | "ta")
    );
    if !single && !uppaal {
        return None;
    }
    if !single {
        eprintln!(
            "warning: `{shown}` is not valid UTF-8; read as ISO-8859-1 (Latin-1), as older UPPAAL files are"
        );
    }
    Some(bytes.iter().map(|&b| b as char).collect())
}

fn decode(shown: &str, path: &Path, bytes: Vec<u8>) -> Result<Source, ReadError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(path, text)),
        Err(e) => {
            if let Some(text) = single_byte(shown, path, e.as_bytes()) {
                return Ok(Source::new(path, text));
            }
            let offset = e.utf8_error().valid_up_to();
            // The prefix is valid UTF-8 by definition of `valid_up_to`.
            let (line, column) = std::str::from_utf8(&e.as_bytes()[..offset])
                .map_or((0, 0), |before| line_col(before, offset as u32));
            Err(ReadError::Utf8 {
                path: shown.to_string(),
                offset,
                line: line as usize,
                column: column as usize,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let s = Source::new("m.zeno", "ab\nçd\n\nx".to_string());
        assert_eq!(s.position(0), Position { line: 1, column: 1 });
        assert_eq!(s.position(2), Position { line: 1, column: 3 });
        assert_eq!(s.position(3), Position { line: 2, column: 1 });
        // `ç` is two bytes: offset 5 is `d`, the second character.
        assert_eq!(s.position(5), Position { line: 2, column: 2 });
        assert_eq!(s.position(7), Position { line: 3, column: 1 });
        assert_eq!(s.position(8), Position { line: 4, column: 1 });
    }

    #[test]
    fn bad_offsets_are_clamped() {
        let s = Source::new("m.zeno", "aç".to_string());
        // Offset 2 is inside `ç`; 100 is past the end.
        assert_eq!(s.position(2), Position { line: 1, column: 2 });
        assert_eq!(s.position(100), Position { line: 1, column: 3 });
        assert_eq!(s.slice(Span::new(1, 100)), "ç");
        assert_eq!(s.slice(Span::new(5, 1)), "");
    }

    #[test]
    fn invalid_utf8_names_offset_and_line() {
        let bytes = b"int x;\nab\xffc".to_vec();
        let err = decode("m.zeno", Path::new("m.zeno"), bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`m.zeno` is not valid UTF-8: invalid byte at offset 9 (line 2, column 3)"
        );
    }

    #[test]
    fn xml_in_a_single_byte_encoding_is_read_as_latin1() {
        // `ä` is 0xe4 in ISO-8859-1: one character, in a comment.
        let bytes =
            b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<nta>// \xe4\n</nta>".to_vec();
        let s = decode("m.xml", Path::new("m.xml"), bytes.clone()).unwrap();
        assert!(s.text.contains("// \u{e4}\n</nta>"), "{}", s.text);
        // Declared by the prolog, whatever the file is called.
        assert!(decode("m.zeno", Path::new("m.zeno"), bytes).is_ok());
        // An XML file that declares UTF-8 but is not: read the same way
        // (with a warning); a zeno file is never guessed at.
        let bytes = b"<?xml version='1.0' encoding='utf-8'?><nta>\xb5</nta>".to_vec();
        let s = decode("m.xml", Path::new("m.xml"), bytes.clone()).unwrap();
        assert!(s.text.contains("<nta>\u{b5}</nta>"), "{}", s.text);
        assert!(decode("m.zeno", Path::new("m.zeno"), bytes).is_err());
        assert_eq!(
            declared_encoding(b"\xef\xbb\xbf<?xml version=\"1.0\" encoding = 'Latin1' ?>"),
            Some("latin1".to_string())
        );
        assert_eq!(declared_encoding(b"<nta>"), None);
    }

    #[test]
    fn missing_file_is_named() {
        let err = read_source(Path::new("no/such/file.zeno")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot read `no/such/file.zeno`: ")
        );
    }
}

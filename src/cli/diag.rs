//! Diagnostics as colored source snippets (codespan-reporting) on stderr.

use std::io::{IsTerminal, Write};

use codespan_reporting::diagnostic::{Diagnostic as Snippet, Label, Severity as SnippetSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use zeno::diagnostics::{Diagnostic, Severity, most_severe};

use super::source::Source;

/// Colors only for a terminal, and never when `NO_COLOR` is set (no-color.org).
pub fn stderr_color() -> termcolor::ColorChoice {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if !no_color && std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    }
}

/// Whether the character `c` at `i` in `text` is a control character a
/// diagnostic must not print raw (it could drive the terminal): all but
/// tab, line feed, and a carriage return before a line feed.
fn raw_control(text: &str, i: usize, c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n' && !(c == '\r' && text[i + 1..].starts_with('\n'))
}

/// `c` as an escape: `\x1b`, `\u{85}`.
fn escaped(c: char) -> String {
    if (c as u32) < 0x80 {
        format!("\\x{:02x}", c as u32)
    } else {
        format!("\\u{{{:x}}}", c as u32)
    }
}

/// `text` with its raw control characters ([`raw_control`]) escaped.
fn escape_controls(text: &str) -> String {
    Shown::new(text).text
}

/// A source as a snippet shows it: its text with control characters
/// escaped, and where offsets into the original moved to.
struct Shown {
    text: String,
    /// `(offset in the original, bytes added up to it)` after every escape.
    shifts: Vec<(usize, usize)>,
}

impl Shown {
    fn new(text: &str) -> Shown {
        let mut shown = Shown {
            text: String::with_capacity(text.len()),
            shifts: Vec::new(),
        };
        let mut added = 0;
        for (i, c) in text.char_indices() {
            if raw_control(text, i, c) {
                let e = escaped(c);
                added += e.len() - c.len_utf8();
                shown.text.push_str(&e);
                shown.shifts.push((i + c.len_utf8(), added));
            } else {
                shown.text.push(c);
            }
        }
        shown
    }

    /// Where the original's offset `o` (on a character boundary) is.
    fn map(&self, o: usize) -> usize {
        let k = self.shifts.partition_point(|&(at, _)| at <= o);
        o + if k == 0 { 0 } else { self.shifts[k - 1].1 }
    }
}

fn snippet(source: &Source, shown: &Shown, d: &Diagnostic) -> Snippet<()> {
    let severity = match d.severity {
        Severity::Error => SnippetSeverity::Error,
        Severity::Warning => SnippetSeverity::Warning,
        Severity::Info => SnippetSeverity::Note,
        Severity::Hint => SnippetSeverity::Help,
    };
    let clamp = |o: u32| {
        let mut o = (o as usize).min(source.text.len());
        while !source.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    };
    let range = |s: zeno::ir::Span| {
        let start = clamp(s.start);
        shown.map(start)..shown.map(clamp(s.end).max(start))
    };
    let mut labels = vec![Label::primary((), range(d.range))];
    labels.extend(
        d.related.iter().map(|r| {
            Label::secondary((), range(r.range)).with_message(escape_controls(&r.message))
        }),
    );
    Snippet::new(severity)
        .with_message(escape_controls(&d.message))
        .with_labels(labels)
}

/// The diagnostics as plain text (what stderr shows without colors).
#[cfg(test)]
pub fn render_to_string(source: &Source, diagnostics: &[Diagnostic]) -> String {
    let text = Shown::new(&source.text);
    let file = SimpleFile::new(escape_controls(&source.display_path()), text.text.as_str());
    let config = term::Config::default();
    let mut out = String::new();
    let (shown, note) = capped(source, diagnostics);
    for d in shown {
        // Spans are clamped above, so rendering cannot fail on a bad range.
        let _ = term::emit_to_string(&mut out, &config, &file, &snippet(source, &text, d));
    }
    if let Some(note) = note {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}

/// The most diagnostics shown for one file on stderr; the rest are counted
/// in a closing note (JSON and SARIF still carry them all). A file of junk
/// or a generated model can otherwise bury the terminal under hundreds of
/// thousands of snippets.
pub const MAX_SHOWN: usize = 100;

/// The diagnostics to show ([`zeno::diagnostics::most_severe`]: errors
/// first, up to [`MAX_SHOWN`], in their original order) and the note about
/// the others, if any.
fn capped<'d>(
    source: &Source,
    diagnostics: &'d [Diagnostic],
) -> (Vec<&'d Diagnostic>, Option<String>) {
    let (shown, (more_errors, more_others)) = most_severe(diagnostics, MAX_SHOWN);
    let note = (more_errors + more_others > 0).then(|| {
        format!(
            "{} more diagnostics in `{}` not shown ({more_errors} errors, {more_others} warnings and notes); `--format json` lists them all",
            more_errors + more_others,
            source.display_path()
        )
    });
    (shown, note)
}

pub fn emit(source: &Source, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        return;
    }
    let text = Shown::new(&source.text);
    let file = SimpleFile::new(escape_controls(&source.display_path()), text.text.as_str());
    let config = term::Config::default();
    // Buffered: one write per snippet line costs seconds on long outputs.
    let mut out = termcolor::BufferedStandardStream::stderr(stderr_color());
    let (shown, note) = capped(source, diagnostics);
    for d in shown {
        let _ = term::emit_to_write_style(&mut out, &config, &file, &snippet(source, &text, d));
    }
    let _ = out.flush();
    if let Some(note) = note {
        self::note(&note);
    }
}

/// A one-line error not tied to a model text (unreadable file, bad flag value).
pub fn error(message: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "error: {}",
        escape_controls(&message.to_string())
    );
}

/// The value of `result`, or nothing once its error is printed as
/// [`error`] (the caller then exits with `exit::ERROR`).
pub fn ok<T>(result: Result<T, impl std::fmt::Display>) -> Option<T> {
    result.map_err(error).ok()
}

/// A one-line note (context for the diagnostics that follow).
pub fn note(message: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "note: {}",
        escape_controls(message)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use zeno::ir::Span;

    #[test]
    fn renders_located_snippet_with_related() {
        let text = "int x = 1;\nint x = 2;\n";
        let source = Source::new("m.zeno", text.to_string());
        let d = Diagnostic::error(Span::new(15, 16), "`x` is defined twice")
            .with_related(Span::new(4, 5), "first defined here");
        let out = render_to_string(&source, &[d]);
        assert!(out.starts_with("error: `x` is defined twice"), "{out}");
        assert!(out.contains("m.zeno:2:5"), "{out}");
        assert!(out.contains("first defined here"), "{out}");
        assert!(out.contains("int x = 2;"), "{out}");
    }

    #[test]
    fn control_characters_are_escaped_and_labels_stay_on_their_text() {
        // An escape sequence before the error and one inside the message.
        let text = "int \u{1b}[2J a = 1;\r\nint b = \u{7}c;\r\n";
        let source = Source::new("m.zeno", text.to_string());
        let c = text.find("c;").unwrap() as u32;
        let d = Diagnostic::error(Span::new(c, c + 1), "unknown name `c\u{1b}]0;x\u{7}`")
            .with_related(Span::new(4, 5), "an \u{9b} here");
        let out = render_to_string(&source, &[d]);
        assert!(
            !out.chars()
                .any(|ch| ch.is_control() && ch != '\n' && ch != '\r'),
            "{out:?}"
        );
        assert!(
            out.contains("error: unknown name `c\\x1b]0;x\\x07`"),
            "{out}"
        );
        assert!(out.contains("int \\x1b[2J a = 1;"), "{out}");
        assert!(out.contains("int b = \\x07c;"), "{out}");
        assert!(out.contains("an \\u{9b} here"), "{out}");
        // The primary label is under `c`, past the escape's four characters.
        let line = out.lines().find(|l| l.contains("int b = ")).unwrap();
        let marks = out
            .lines()
            .skip_while(|l| !l.contains("int b = "))
            .nth(1)
            .unwrap();
        let col = line.find('c').unwrap();
        assert_eq!(marks.find('^'), Some(col), "{out}");
        // The column counts the characters as shown (JSON and SARIF carry
        // the original's, 10).
        assert!(out.contains("m.zeno:2:13"), "{out}");
    }

    #[test]
    fn out_of_range_spans_do_not_panic() {
        let source = Source::new("m.zeno", "aç".to_string());
        let d = Diagnostic::warning(Span::new(2, 99), "odd");
        let out = render_to_string(&source, &[d]);
        assert!(out.starts_with("warning: odd"), "{out}");
    }
}

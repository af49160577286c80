//! Importers: read models written for UPPAAL (XML and XTA) or TChecker and
//! write the equivalent zeno text.
//!
//! Every reader goes through the same steps: parse the foreign file into a
//! small [`model::Model`] (templates, locations, edges, declarations as zeno
//! text), then [`model::Model::write`] formats it. Expressions are not copied
//! as text: [`expr`] parses and re-prints them, so that constructs zeno does
//! not have are reported instead of passed through.
//!
//! Anything that cannot be translated produces an [`ImportDiagnostic`] with
//! its position in the source file; nothing is dropped silently.
#![warn(missing_docs)]

mod context;
mod decl;
mod export;
mod export_functions;
mod expr;
mod layout;
mod lex;
mod model;
mod queries;
mod query_file;
mod query_kind;
mod source_map;
mod tchecker;
mod uppaal_xml;
mod xta;

pub use context::Renaming;
pub use export::{export_tchecker, export_xta};
pub use layout::{TemplateLayout, TransitionLayout, uppaal_layout};
pub use query_file::{QueryFile, read_query_file};
pub use query_kind::{OtherEngine, other_engine};
pub use source_map::{Mapped, Piece, SourceMap};

use context::Context;
use std::fmt;
use std::rc::Rc;
use zeno_base::diagnostics::{Diagnostic, Severity};
use zeno_base::line_index::{LineIndex, line_col};
use zeno_ir::Span;

/// Options for [`import`].
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// TChecker labels whose joint reachability becomes
    /// `check labels: E<> (...)` (the `-l cs1,cs2` question of `tck-reach`).
    pub labels: Vec<String>,
}

/// A successful import: the zeno text, and warnings about constructs that
/// were translated approximately or left out (e.g. an untranslatable query).
#[derive(Debug, Clone)]
pub struct Imported {
    /// The model in zeno syntax.
    pub zeno: String,
    /// Where the pieces of `zeno` came from in the source file.
    pub source_map: SourceMap,
    /// What was translated approximately or left out.
    pub warnings: Vec<ImportDiagnostic>,
    /// The model's queries (UPPAAL XML's `<query>` elements), each with
    /// what became of it; empty for the other formats.
    pub queries: Vec<Query>,
    /// The zeno names of the keywords the file used as names, for reading
    /// the model's query files ([`read_query_file`]).
    pub renaming: Renaming,
}

/// One query of a UPPAAL model (an XML `<query>`) or query file (a `.q`
/// line), and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// The name of its check: its comment when that is one word (an
    /// identifier), else `qN` (the N-th `<query>`) or `lineN` (a `.q` line).
    pub name: String,
    /// Its comment, when the comment does not serve as the name.
    pub comment: Option<String>,
    /// The formula as written (on one line: line breaks become spaces).
    pub formula: String,
    /// Where the formula is in the source.
    pub span: Span,
    /// What became of it.
    pub outcome: QueryOutcome,
}

/// What became of a [`Query`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryOutcome {
    /// Translated into the check `Query::name`, with this zeno formula.
    Check(String),
    /// A query for another of UPPAAL's engines (statistical, controller
    /// synthesis, …): not checked, and no error.
    OtherEngine(OtherEngine),
    /// A symbolic query zeno cannot translate: why, and where in the
    /// source the problem is.
    Refused {
        /// What is wrong with it.
        message: String,
        /// Where (inside the query, or the whole formula).
        span: Span,
    },
}

/// The foreign formats [`import`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// UPPAAL's XML format (`.xml`).
    UppaalXml,
    /// UPPAAL's textual XTA format (`.xta`, `.ta`).
    UppaalXta,
    /// TChecker's format (`.tck`).
    TChecker,
}

/// A message about the source file, located by byte range and line:col
/// (both 1-based) in that file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportDiagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// The byte range in the source file.
    pub span: Span,
    /// The line of the range's start, 1-based.
    pub line: u32,
    /// The column of the range's start, 1-based, in characters.
    pub col: u32,
}

impl ImportDiagnostic {
    /// The shared diagnostic type, for rendering with the other layers'.
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic {
            severity: self.severity,
            message: self.message.clone(),
            range: self.span,
            related: Vec::new(),
        }
    }

    /// Whether it is an error (the import fails).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for ImportDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        };
        write!(f, "{}:{}: {}: {}", self.line, self.col, kind, self.message)
    }
}

/// Collects diagnostics while reading one source text, turning byte offsets
/// into line:col.
pub(crate) struct Sink {
    lines: LineIndex,
    pub(crate) diags: Vec<ImportDiagnostic>,
}

impl Sink {
    pub(crate) fn new(text: &str) -> Sink {
        Sink {
            lines: LineIndex::in_chars(text),
            diags: Vec::new(),
        }
    }

    fn push(&mut self, severity: Severity, span: Span, message: String) {
        let (line, col) = self.lines.one_based(span.start);
        self.diags.push(ImportDiagnostic {
            severity,
            message,
            span,
            line,
            col,
        });
    }

    pub(crate) fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Severity::Error, span, message.into());
    }

    pub(crate) fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.push(Severity::Warning, span, message.into());
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.diags.iter().any(ImportDiagnostic::is_error)
    }

    /// `Ok` with the warnings when no error was reported, else all diagnostics.
    pub(crate) fn finish(
        mut self,
        (zeno, source_map, queries): (String, SourceMap, Vec<Query>),
        cx: &Context,
    ) -> Result<Imported, Vec<ImportDiagnostic>> {
        self.diags.sort_by_key(|d| (d.span.start, d.span.end));
        if self.has_errors() {
            Err(self.diags)
        } else {
            Ok(Imported {
                zeno,
                source_map,
                warnings: self.diags,
                queries,
                renaming: cx.renaming().clone(),
            })
        }
    }
}

/// A valid zeno (and C) identifier.
pub(crate) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// How an input's format was decided: its extension, or (without a known
/// extension) its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detection {
    /// `None`: zeno text.
    pub format: Option<Format>,
    /// `None` when the extension decided; otherwise why the content did (for
    /// the note that tells the user which format was assumed).
    pub by_content: Option<&'static str>,
}

/// The extensions that decide an input's format on their own.
pub const KNOWN_EXTENSIONS: &str = ".zeno, .xml, .xta, .ta, .tck";

/// Decides the format of an input: by its extension first (`.zeno`, `.xml`,
/// `.xta`/`.ta`, `.tck`), else by its content, in this order: an XML
/// prolog or `<nta>` is UPPAAL XML; text that the zeno parser reads without
/// a syntax error is zeno; `system:`/`process:`/`edge:` lines are TChecker;
/// the words `process` and `system` outside comments are UPPAAL XTA;
/// anything else is zeno (whose syntax errors then say what is wrong).
/// Trying zeno before the other text formats keeps a zeno model whose
/// comments mention `process` and `system` a zeno model.
pub fn detect(path_or_name: &str, text: &str) -> Detection {
    let by_extension = |format| Detection {
        format,
        by_content: None,
    };
    let lower = path_or_name.to_ascii_lowercase();
    if lower.ends_with(".zeno") {
        return by_extension(None);
    }
    if lower.ends_with(".xml") {
        return by_extension(Some(Format::UppaalXml));
    }
    if lower.ends_with(".xta") || lower.ends_with(".ta") {
        return by_extension(Some(Format::UppaalXta));
    }
    if lower.ends_with(".tck") {
        return by_extension(Some(Format::TChecker));
    }
    let by_content = |format, why| Detection {
        format,
        by_content: Some(why),
    };
    let trimmed = text.trim_start();
    if trimmed.starts_with("<?xml") || trimmed.starts_with("<nta") || trimmed.contains("<nta>") {
        return by_content(Some(Format::UppaalXml), "it starts like UPPAAL XML");
    }
    if zeno_syntax::parse(text).errors().is_empty() {
        return by_content(None, "it parses as zeno text");
    }
    let tck = text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("system:") || l.starts_with("process:") || l.starts_with("edge:")
    });
    if tck {
        return by_content(
            Some(Format::TChecker),
            "it has TChecker `system:`/`process:`/`edge:` lines",
        );
    }
    let code = without_comments(text);
    let word = |w: &str| {
        code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|t| t == w)
    };
    if word("process") && word("system") {
        return by_content(
            Some(Format::UppaalXta),
            "it declares a `process` and a `system` as UPPAAL XTA does",
        );
    }
    by_content(None, "it is no other known format")
}

/// `text` with `//` and `/* */` comments blanked out (strings are not
/// special: none of the formats detected by words has them).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The format of a foreign input (`None` for zeno text), decided as by
/// [`detect`].
pub fn detect_format(path_or_name: &str, text: &str) -> Option<Format> {
    detect(path_or_name, text).format
}

/// Reads a UPPAAL XML, UPPAAL XTA or TChecker model (detected from the name,
/// else from the content) and returns it as formatted zeno text.
pub fn import(
    path_or_name: &str,
    text: &str,
    opts: &ImportOptions,
) -> Result<Imported, Vec<ImportDiagnostic>> {
    match detect_format(path_or_name, text) {
        Some(format) => import_as(format, text, opts),
        None => {
            let mut sink = Sink::new(text);
            sink.error(
                Span::new(0, 0),
                format!(
                    "cannot tell the format of `{path_or_name}`: expected UPPAAL XML (.xml), UPPAAL XTA (.xta) or TChecker (.tck)"
                ),
            );
            Err(sink.diags)
        }
    }
}

/// Like [`import`] with a known format.
pub fn import_as(
    format: Format,
    text: &str,
    opts: &ImportOptions,
) -> Result<Imported, Vec<ImportDiagnostic>> {
    let mut r = match format {
        Format::UppaalXml => import_uppaal_xml(text),
        Format::UppaalXta => import_xta(text),
        Format::TChecker => return import_tchecker(text, &opts.labels),
    };
    // Labels are a TChecker notion: say so rather than ignore them.
    if !opts.labels.is_empty()
        && let Ok(imp) = &mut r
    {
        imp.warnings.insert(
            0,
            ImportDiagnostic {
                severity: Severity::Warning,
                message: "labels only apply to TChecker models; ignored".into(),
                span: Span::new(0, 0),
                line: 1,
                col: 1,
            },
        );
    }
    r
}

/// Translates a UPPAAL query file (`.q`) into zeno check formulas: each
/// `(line, text)` is a query's 1-based line and its zeno form (`A<> P.done`,
/// `p --> q`); every query that cannot be translated has an error located
/// in `text`. Names are renamed as in the model (`Imported::renaming`).
pub fn import_query_file(
    text: &str,
    renaming: &Renaming,
) -> (Vec<(u32, String)>, Vec<ImportDiagnostic>) {
    let file = read_query_file(text, renaming);
    let checks = file
        .queries
        .iter()
        .filter_map(|q| match &q.outcome {
            QueryOutcome::Check(f) => Some((line_col(text, q.span.start).0, f.clone())),
            _ => None,
        })
        .collect();
    (checks, file.diagnostics)
}

/// Reads a UPPAAL 4.x/5.x XML model (`<nta>`).
pub fn import_uppaal_xml(text: &str) -> Result<Imported, Vec<ImportDiagnostic>> {
    let cx = Rc::new(Context::new(text));
    let mut sink = Sink::new(text);
    let model = uppaal_xml::read(text, &cx, &mut sink);
    let written = model.map(|m| m.write()).unwrap_or_default();
    sink.finish(written, &cx)
}

/// Reads a UPPAAL XTA (4.x textual) model.
pub fn import_xta(text: &str) -> Result<Imported, Vec<ImportDiagnostic>> {
    let cx = Rc::new(Context::new(text));
    let mut sink = Sink::new(text);
    let model = xta::read(text, &cx, &mut sink);
    let written = model.map(|m| m.write()).unwrap_or_default();
    sink.finish(written, &cx)
}

/// Reads a TChecker model; `labels` (may be empty) becomes a reachability
/// check of a state carrying all those labels.
pub fn import_tchecker(text: &str, labels: &[String]) -> Result<Imported, Vec<ImportDiagnostic>> {
    let cx = Rc::new(Context::new(text));
    let mut sink = Sink::new(text);
    // A byte order mark is blank, as in the other formats: three spaces of
    // the same length keep every offset.
    let unmarked;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            unmarked = format!("   {rest}");
            &unmarked
        }
        None => text,
    };
    let model = tchecker::read(text, labels, &cx, &mut sink);
    let written = model.map(|m| m.write()).unwrap_or_default();
    sink.finish(written, &cx)
}

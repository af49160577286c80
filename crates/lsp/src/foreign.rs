//! UPPAAL XML/XTA and TChecker files opened in the editor.
//!
//! The server reads them as `zeno check` does ([`zeno_load`]): it imports
//! the file, analyses and checks the zeno translation, and reports against
//! the file the user has open. The importer's errors and warnings are
//! located in that file; so are the semantic diagnostics of the
//! translation, through the import's source map, at the label or
//! declaration they are about; so are the checks' verdicts (at the query's
//! `<formula>`) and their traces' steps (at the transition's first label). What the
//! map does not cover (text the import wrote itself) is shown at the top of
//! the file, its message naming the translation's line. The simulator and
//! the automaton picture work through the map too ([`Places`],
//! [`Translation::back`]). Requests that need positions in zeno text
//! (hover, definition, trace stepping) answer nothing or say why; `zeno
//! import FILE` gives the text they work on.
//!
//! Only the extension decides: an untitled buffer or one without a known
//! extension is zeno text, even while half-typed text looks like something
//! else. An `.xml` file that is not a UPPAAL model (no `<nta>` element) is
//! left alone: the server neither reports nor checks it.

use std::path::PathBuf;
use std::sync::Arc;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{self as lsp, Position, Range, Uri};

use super::line_index::LineIndex;
use super::places::Places;
use zeno_base::diagnostics::Diagnostic;
use zeno_import::{Format, SourceMap};
use zeno_ir::Span;

/// How the server reads an open document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// zeno text.
    Zeno,
    /// A model to import first.
    Foreign(Format),
    /// An `.xml` file that is not a UPPAAL model.
    NotAModel,
    /// A UPPAAL query file (`.q`): its queries are checked on the model
    /// beside it ([`query_file_translation`]).
    QueryFile,
}

/// Decides how to read the document `uri` holding `text`.
pub fn kind(uri: &Uri, text: &str) -> Kind {
    let path = uri.path().as_str().to_ascii_lowercase();
    let format = if path.ends_with(".xml") {
        Format::UppaalXml
    } else if path.ends_with(".xta") || path.ends_with(".ta") {
        Format::UppaalXta
    } else if path.ends_with(".tck") {
        Format::TChecker
    } else if path.ends_with(".q") {
        return Kind::QueryFile;
    } else {
        return Kind::Zeno;
    };
    if format == Format::UppaalXml && !text.contains("<nta") {
        return Kind::NotAModel;
    }
    Kind::Foreign(format)
}

/// The zeno translation of an imported document.
pub struct Translation {
    /// The format the document was imported from.
    pub format: Format,
    /// The line index of the translation, for diagnostics located in it.
    pub index: Arc<LineIndex>,
    /// The translation itself.
    pub zeno: String,
    /// Where its pieces came from in the document.
    pub source_map: Option<SourceMap>,
    /// The document is a query file: only the checks of its queries come
    /// from it, and the model's own warnings are not its business.
    pub query_file: bool,
    /// For a query file: its model's file, where the steps of its checks'
    /// traces are ([`Translation::place_in_document`]).
    pub model: Option<ModelPlaces>,
}

/// Where the pieces of a query file's translation that came from its model
/// are in the model's file.
#[derive(Clone)]
pub struct ModelPlaces {
    /// The model's URI, spelled as the query file's.
    pub uri: Uri,
    /// The model's text and its line index.
    pub text: String,
    pub index: Arc<LineIndex>,
    /// The model's source map, on the query file's translation.
    pub map: SourceMap,
}

/// `uri` with its extension (the text after the last `.` of its last
/// segment) replaced by `ext`; `None` when it has none.
fn with_extension(uri: &Uri, ext: &str) -> Option<Uri> {
    let s = uri.as_str();
    let dot = s.rfind('.').filter(|&d| d > s.rfind('/').unwrap_or(0))?;
    format!("{}.{ext}", &s[..dot]).parse().ok()
}

/// The query file `MODEL.q` beside a UPPAAL model `uri` (`.xml`, `.xta`,
/// `.ta`), whose queries `zeno check` checks with the model's; `None` for
/// any other document.
pub fn query_file_beside(uri: &Uri) -> Option<Uri> {
    match kind(uri, "<nta") {
        Kind::Foreign(Format::UppaalXml | Format::UppaalXta) => with_extension(uri, "q"),
        _ => None,
    }
}

/// The model a query file's queries are checked on.
pub struct Model {
    /// Its path, for the importer and for messages.
    pub path: PathBuf,
    /// Its URI, spelled as the query file's (`None` when that has no
    /// extension to replace).
    pub uri: Option<Uri>,
    /// Its text: the editor's copy when it is open, else the file's.
    pub text: String,
}

/// The model the query file `uri` belongs to: `NAME.xml`, else `NAME.xta`
/// or `NAME.ta`, beside it; the first that is open in the editor (`open`
/// gives its text) or on disk. `Err` with why there is none.
pub fn model_of(uri: &Uri, open: impl Fn(&Uri) -> Option<String>) -> Result<Model, String> {
    let path = uri
        .to_file_path()
        .ok_or("this query file is not a file on disk: no model beside it")?
        .into_owned();
    for ext in ["xml", "xta", "ta"] {
        let model = path.with_extension(ext);
        let model_uri = with_extension(uri, ext);
        if let Some(text) = model_uri.as_ref().and_then(&open) {
            return Ok(Model {
                path: model,
                uri: model_uri,
                text,
            });
        }
        if model.is_file() {
            let shown = model.display();
            let bytes = std::fs::read(&model)
                .map_err(|e| format!("cannot read the model `{shown}`: {e}"))?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            return Ok(Model {
                path: model,
                uri: model_uri,
                text,
            });
        }
    }
    Err(format!(
        "no model beside this query file: its queries are checked on `{}` (or `.xta`), which does not exist",
        path.with_extension("xml").display()
    ))
}

/// The translation of a query file `text` checked on `model`: the model
/// with the file's queries as its checks, in place of the model's own,
/// each check mapped to its query's line; and the diagnostics of the
/// file's queries that are not checked (an error for one zeno refuses, a
/// note for a query of another engine), located in `text`. `Err` with why
/// the model could not be read.
pub fn query_file_translation(
    model: &Model,
    text: &str,
    encoding: super::line_index::Encoding,
) -> Result<(Translation, Vec<Diagnostic>), String> {
    let shown = model.path.display();
    let loaded = zeno_load::load(&model.path.to_string_lossy(), &model.text, &[])
        .map_err(|e| format!("the model `{shown}` beside this file: {e}"))?;
    let format = loaded.imported_from().unwrap_or(Format::UppaalXml);
    let zeno = zeno_load::without_checks(&loaded.zeno);
    let added = zeno_load::add_query_file(&zeno, text, &[], &loaded.renaming);
    let mut map = SourceMap::default();
    for (name, span) in &added.checks {
        if let Some(q) = added.queries.iter().find(|q| q.name == *name) {
            map.record(*span, q.span, format!("in the query `{name}`"));
        }
    }
    let diagnostics = added
        .queries
        .iter()
        .filter_map(|q| match &q.outcome {
            zeno_import::QueryOutcome::Check(_) => None,
            zeno_import::QueryOutcome::Refused { message, span } => Some(Diagnostic::error(
                *span,
                format!("{message}; this query is not checked"),
            )),
            zeno_import::QueryOutcome::OtherEngine(o) => Some(Diagnostic {
                severity: zeno_base::diagnostics::Severity::Info,
                message: format!(
                    "not checked: {} (`{}`): zeno decides symbolic queries",
                    o.kind, o.construct
                ),
                range: q.span,
                related: Vec::new(),
            }),
        })
        .collect();
    // The model's part of the translation is the model's own with its
    // checks commented out: its map follows (the queries come after it).
    let model_places = model.uri.clone().and_then(|uri| {
        Some(ModelPlaces {
            uri,
            text: model.text.clone(),
            index: Arc::new(LineIndex::with_encoding(&model.text, encoding)),
            map: loaded
                .source_map
                .as_ref()?
                .realign(&loaded.zeno, &added.zeno)?,
        })
    });
    let translation = Translation {
        format,
        index: Arc::new(LineIndex::with_encoding(&added.zeno, encoding)),
        zeno: added.zeno,
        source_map: Some(map),
        query_file: true,
        model: model_places,
    };
    Ok((translation, diagnostics))
}

impl Translation {
    /// A diagnostic of the analysis located in the document `text` it was
    /// imported from, when the source map covers it.
    pub fn map(&self, text: &str, d: &Diagnostic) -> Option<Diagnostic> {
        zeno_load::map_diagnostic(self.source_map.as_ref()?, &self.zeno, text, d)
    }

    /// Moves a diagnostic located in the translation to the top of the
    /// imported file, naming the translation's line; so are its related
    /// locations.
    pub fn relocate(&self, mut d: lsp::Diagnostic) -> lsp::Diagnostic {
        d.message = format!("{}: {}", self.place(d.range.start), d.message);
        d.range = Range::default();
        if let Some(related) = &mut d.related_information {
            for r in related {
                r.message = format!("{}: {}", self.place(r.location.range.start), r.message);
                r.location.range = Range::default();
            }
        }
        d
    }

    /// Moves a diagnostic located in the translation into the document
    /// `text` (whose line index is `doc`): each range the source map covers
    /// to its place there (a check's verdict to the query's `<formula>`, a
    /// trace step to its transition's first label); for a query file, a
    /// trace step into its model's file; the others to the top of the
    /// file, naming the translation's line ([`Translation::relocate`]).
    pub fn place_in_document(
        &self,
        text: &str,
        doc: &LineIndex,
        mut d: lsp::Diagnostic,
    ) -> lsp::Diagnostic {
        let Some(map) = &self.source_map else {
            return self.relocate(d);
        };
        let mapped = |r: Range| {
            let span = Span::new(self.index.offset(r.start), self.index.offset(r.end));
            map.map(&self.zeno, text, span).map(|m| doc.range(m.span))
        };
        let Some(range) = mapped(d.range) else {
            return self.relocate(d);
        };
        d.range = range;
        if let Some(related) = &mut d.related_information {
            for r in related {
                if let Some(range) = mapped(r.location.range) {
                    r.location.range = range;
                    continue;
                }
                match self.in_model(r.location.range) {
                    Some((uri, range)) => {
                        r.location.uri = uri;
                        r.location.range = range;
                    }
                    None => {
                        r.message =
                            format!("{}: {}", self.place(r.location.range.start), r.message);
                        r.location.range = Range::default();
                    }
                }
            }
        }
        d
    }

    /// For a query file, where `range` of the translation is in its
    /// model's file, when the model's source map covers it.
    fn in_model(&self, range: Range) -> Option<(Uri, Range)> {
        let m = self.model.as_ref()?;
        let span = Span::new(self.index.offset(range.start), self.index.offset(range.end));
        let placed = m.map.map(&self.zeno, &m.text, span)?;
        Some((m.uri.clone(), m.index.range(placed.span)))
    }

    fn place(&self, at: Position) -> String {
        format!(
            "line {} of the zeno translation (`zeno import` prints it)",
            at.line + 1
        )
    }

    /// Where the translation's spans are in the document `text` (whose
    /// line index is `index`).
    pub fn places(&self, text: &str, index: Arc<LineIndex>) -> Places {
        Places::Imported {
            zeno: self.zeno.clone(),
            map: self.source_map.clone().unwrap_or_default(),
            text: text.to_string(),
            index,
        }
    }

    /// Where the document `text`'s byte `offset` is in the translation: the
    /// start of the innermost piece translated from around it (a label, a
    /// location's name); in a UPPAAL XML file, between
    /// those, the template whose `<template>` the offset is in. `None`
    /// outside every piece and template.
    pub fn back(&self, text: &str, offset: u32) -> Option<u32> {
        let map = self.source_map.as_ref()?;
        if let Some(piece) = map.back(offset) {
            return Some(piece.start);
        }
        if self.format != Format::UppaalXml {
            return None;
        }
        let before = text.get(..offset as usize)?;
        let open = before.rfind("<template")?;
        if before[open..].contains("</template>") {
            return None;
        }
        Some(map.back(open as u32)?.start)
    }

    /// The answer to a request that needs positions in zeno text.
    pub fn unsupported(&self, what: &str) -> jsonrpc::Error {
        jsonrpc::Error::invalid_params(format!(
            "{what} works on zeno text; this document is {} imported for checking (`zeno import` converts it)",
            zeno_load::format_name(self.format)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &str) -> Uri {
        s.parse().unwrap()
    }

    #[test]
    fn only_the_extension_decides_and_foreign_xml_is_left_alone() {
        let xml = "<nta><system>system P;</system></nta>";
        assert_eq!(
            kind(&uri("file:///m/a.xml"), xml),
            Kind::Foreign(Format::UppaalXml)
        );
        assert_eq!(
            kind(&uri("file:///m/pom.XML"), "<project/>"),
            Kind::NotAModel
        );
        assert_eq!(
            kind(&uri("file:///m/a.xta"), ""),
            Kind::Foreign(Format::UppaalXta)
        );
        assert_eq!(
            kind(&uri("file:///m/a.tck"), ""),
            Kind::Foreign(Format::TChecker)
        );
        // Content never decides: an untitled buffer holding XML is zeno text.
        assert_eq!(kind(&uri("untitled:Untitled-1"), xml), Kind::Zeno);
        assert_eq!(kind(&uri("file:///m/a.zeno"), xml), Kind::Zeno);
    }

    #[test]
    fn a_uppaal_model_has_its_query_file_beside_it() {
        let beside = |s: &str| query_file_beside(&uri(s)).map(|u| u.as_str().to_string());
        assert_eq!(
            beside("file:///m/a.b/lock.xml").as_deref(),
            Some("file:///m/a.b/lock.q")
        );
        assert_eq!(
            beside("file:///m/Lock.XTA").as_deref(),
            Some("file:///m/Lock.q")
        );
        assert_eq!(beside("file:///m/x.ta").as_deref(), Some("file:///m/x.q"));
        // TChecker files, zeno text and query files have none.
        assert_eq!(beside("file:///m/a.tck"), None);
        assert_eq!(beside("file:///m/a.zeno"), None);
        assert_eq!(beside("file:///m/a.q"), None);
        assert_eq!(beside("untitled:Untitled-1"), None);
    }

    #[test]
    fn relocated_diagnostics_name_the_translation_line() {
        let t = Translation {
            format: Format::UppaalXta,
            index: Arc::new(LineIndex::new("a\nb\nc\n")),
            zeno: "a\nb\nc\n".to_string(),
            source_map: None,
            query_file: false,
            model: None,
        };
        let d = lsp::Diagnostic {
            range: Range::new(Position::new(2, 4), Position::new(2, 9)),
            message: "`x` is not declared".to_string(),
            ..lsp::Diagnostic::default()
        };
        let moved = t.relocate(d);
        assert_eq!(moved.range, Range::default());
        assert_eq!(
            moved.message,
            "line 3 of the zeno translation (`zeno import` prints it): `x` is not declared"
        );
    }
}

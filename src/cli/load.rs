//! Model files in any format the CLI accepts: `.zeno` text as is, UPPAAL
//! XML/XTA and TChecker files imported first (by extension, else by content).
//!
//! The importer's warnings and errors are located in the *original* file and
//! rendered against it; so are the semantic diagnostics that follow, through
//! the import's source map. Those the map does not cover are located in the
//! imported zeno text, which is shown under the name `FILE (imported)`
//! after a note saying so.

use std::path::Path;
use std::rc::Rc;

use zeno::diagnostics::{Diagnostic, Severity};
use zeno::import::{self, Format, Query, QueryOutcome};
use zeno::ir::Network;
use zeno::semantics;

use super::diag;
use super::exit;
use super::report::{self, CheckReport, EndReport, Range};
use super::source::{ReadError, Source, read_source};
use zeno::ir::Span;

/// A model ready for analysis.
pub struct Model {
    /// The zeno text to analyze: the file itself, or its translation.
    pub source: Source,
    /// The file as read, when it was imported (for reports and messages).
    pub original: Option<(Source, Format)>,
    /// The importer's warnings (already printed), located in `original`.
    pub import_warnings: Vec<Diagnostic>,
    /// Warnings on translated checks set aside because zeno's analysis
    /// rejects them (`zeno::load::set_aside_failing_checks`), located in
    /// `source`.
    pub set_aside: Vec<Diagnostic>,
    /// Where the pieces of `source` came from in `original`.
    pub source_map: Option<zeno::import::SourceMap>,
    /// The queries of the model's file (UPPAAL XML) and of its query
    /// files, in that order, each with what became of it.
    pub queries: Vec<QueryEntry>,
    /// The query files read for the model.
    pub query_files: Vec<QueryFileUse>,
    /// The importer's names for the keywords the file used as names, with
    /// which its query files are read.
    pub renaming: import::Renaming,
}

/// A UPPAAL query of a model, and the file it is in.
pub struct QueryEntry {
    pub query: Query,
    /// The query file holding it; `None`: the model's own file.
    pub file: Option<Rc<Source>>,
}

/// A query file read for a model.
pub struct QueryFileUse {
    pub path: String,
    /// Found beside the model (`MODEL.q`) rather than named by `--queries`.
    pub beside: bool,
}

impl Model {
    /// Analyses the zeno text, with the warnings on checks set aside.
    pub fn analyze(&self) -> semantics::Analysis {
        let mut analysis = semantics::analyze(&self.source.text);
        zeno::load::with_warnings(&mut analysis, &self.set_aside);
        analysis
    }

    /// The diagnostics of the zeno text's analysis, without the warnings on
    /// checks set aside: `zeno check` reports those as refused queries.
    pub fn analyze_checks_apart(&self) -> semantics::Analysis {
        semantics::analyze(&self.source.text)
    }

    /// Adds a query file's queries to the model: each translated query as a
    /// check (renamed `NAME_2`, … where the model has a check of its name),
    /// and those zeno's analysis rejects set aside as refused.
    pub fn add_query_file(&mut self, file: Rc<Source>, beside: bool) {
        let taken: Vec<String> = self.queries.iter().map(|e| e.query.name.clone()).collect();
        let added =
            zeno::load::add_query_file(&self.source.text, &file.text, &taken, &self.renaming);
        self.set_aside.extend(added.set_aside);
        self.source_map = self
            .source_map
            .as_ref()
            .and_then(|m| m.realign(&self.source.text, &added.zeno));
        self.source = Source::new(self.source.path.clone(), added.zeno);
        self.queries
            .extend(added.queries.into_iter().map(|query| QueryEntry {
                query,
                file: Some(Rc::clone(&file)),
            }));
        self.query_files.push(QueryFileUse {
            path: file.display_path(),
            beside,
        });
    }

    /// The query whose check is `name`, when the check was a query.
    pub fn query_of(&self, name: &str) -> Option<&QueryEntry> {
        self.queries
            .iter()
            .find(|e| e.query.name == name && matches!(e.query.outcome, QueryOutcome::Check(_)))
    }

    /// The path to show in reports: always the file the user named.
    pub fn display_path(&self) -> String {
        match &self.original {
            Some((o, _)) => o.display_path(),
            None => self.source.display_path(),
        }
    }

    /// Splits diagnostics on the analysed text into those located in the
    /// original file (mapped, see [`zeno::load::map_diagnostic`]) and those
    /// left in the imported text. All of them are of the second kind for a
    /// zeno file.
    pub fn split_diagnostics(&self, diags: &[Diagnostic]) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        let (Some((original, _)), Some(map)) = (&self.original, &self.source_map) else {
            return (Vec::new(), diags.to_vec());
        };
        let (mut mapped, mut unmapped) = (Vec::new(), Vec::new());
        for d in diags {
            match zeno::load::map_diagnostic(map, &self.source.text, &original.text, d) {
                Some(m) => mapped.push(m),
                None => unmapped.push(d.clone()),
            }
        }
        (mapped, unmapped)
    }

    /// Moves the ranges of a check's report (the check, its trace's edges,
    /// a model error's statement) from the imported text into the original
    /// file: where the source map covers them, else to the file's start,
    /// rather than leave positions of the imported text beside the file's
    /// name. Nothing changes for a zeno file.
    pub fn relocate_check(&self, r: &mut CheckReport) {
        let (Some((original, _)), Some(map)) = (&self.original, &self.source_map) else {
            return;
        };
        let moved = |at: &mut Range| {
            let span = Span::new(at.bytes[0], at.bytes[1]);
            let mapped = map.map(&self.source.text, &original.text, span);
            *at = report::range(original, mapped.map_or(Span::new(0, 0), |m| m.span));
        };
        moved(&mut r.range);
        let Some(trace) = &mut r.trace else { return };
        for step in &mut trace.steps {
            step.edges.iter_mut().for_each(|e| moved(&mut e.range));
        }
        if let EndReport::ModelError {
            edges, statement, ..
        } = &mut trace.end
        {
            edges.iter_mut().for_each(|e| moved(&mut e.range));
            statement.iter_mut().for_each(moved);
        }
    }

    /// Prints diagnostics on the analysed text: in the original file where
    /// they map to it, else in the imported text after the note saying so.
    pub fn emit_analysis(&self, diags: &[Diagnostic]) {
        let (mapped, unmapped) = self.split_diagnostics(diags);
        if let Some((original, _)) = &self.original {
            diag::emit(original, &mapped);
        }
        if !unmapped.is_empty() {
            self.note_imported();
        }
        diag::emit(&self.source, &unmapped);
    }

    /// Says, before diagnostics about the imported text, where that text
    /// comes from.
    pub fn note_imported(&self) {
        if let Some((o, format)) = &self.original {
            diag::note(&format!(
                "`{}` was imported from {}; positions in `{}` are in the imported zeno text (`zeno import {}` prints it)",
                o.display_path(),
                format_name(*format),
                self.source.display_path(),
                o.display_path(),
            ));
        }
    }
}

/// Why a file gave no model.
pub enum LoadError {
    Unreadable(ReadError),
    /// The importer reported errors (already printed), located in `original`.
    Import {
        original: Source,
        diagnostics: Vec<Diagnostic>,
    },
    /// A problem with the request rather than the file (already printed).
    Usage(String),
}

pub use zeno::load::{format_name, formatted};

/// Says which format an input without a known extension was read as, and why.
pub fn note_detection(path: &Path, detection: &import::Detection) {
    let Some(why) = detection.by_content else {
        return;
    };
    let shown = if path == Path::new("-") {
        "standard input".to_string()
    } else {
        format!(
            "`{}` has no known extension ({}), so it",
            path.display(),
            import::KNOWN_EXTENSIONS
        )
    };
    let format = detection.format.map_or("zeno text", format_name);
    diag::note(&format!("{shown} is read as {format}: {why}"));
}

/// Reads `path` and loads it ([`zeno::load`]): importing it when it is a
/// UPPAAL or TChecker model. Notes, import warnings and errors are printed
/// to stderr against the file.
pub fn load(path: &Path, labels: &[String]) -> Result<Model, LoadError> {
    load_with(path, labels, false)
}

/// [`load`] for a caller that reports the queries itself (`zeno check`):
/// the importer's warnings on queries it did not translate are left out,
/// since the report lists each such query with why.
pub fn load_reporting_queries(path: &Path, labels: &[String]) -> Result<Model, LoadError> {
    load_with(path, labels, true)
}

fn load_with(path: &Path, labels: &[String], queries_reported: bool) -> Result<Model, LoadError> {
    let original = read_source(path).map_err(LoadError::Unreadable)?;
    if original.text.trim().is_empty() {
        // In every format: an empty zeno file would otherwise pass as a
        // model without checks, an empty XTA or XML file fail to import.
        let message = format!(
            "`{}` is empty: there is no model in it",
            original.display_path()
        );
        diag::error(&message);
        return Err(LoadError::Usage(message));
    }
    let name = path.to_string_lossy();
    match zeno::load::load(&name, &original.text, labels) {
        Ok(loaded) => {
            note_detection(path, &loaded.detection);
            let Some(format) = loaded.imported_from() else {
                return Ok(Model {
                    source: original,
                    original: None,
                    import_warnings: Vec::new(),
                    set_aside: Vec::new(),
                    source_map: None,
                    queries: Vec::new(),
                    query_files: Vec::new(),
                    renaming: import::Renaming::default(),
                });
            };
            let mut import_warnings = loaded.import_warnings;
            if queries_reported {
                import_warnings.retain(|w| !loaded.queries.iter().any(|q| is_about(w, q)));
            }
            diag::emit(&original, &import_warnings);
            let name = format!("{} (imported)", original.display_path());
            Ok(Model {
                source: Source::new(name, loaded.zeno),
                original: Some((original, format)),
                import_warnings,
                set_aside: loaded.set_aside,
                source_map: loaded.source_map,
                queries: loaded
                    .queries
                    .into_iter()
                    .map(|query| QueryEntry { query, file: None })
                    .collect(),
                query_files: Vec::new(),
                renaming: loaded.renaming,
            })
        }
        Err(zeno::load::LoadError::LabelsForZeno { .. }) => {
            let message = format!(
                "--labels applies to TChecker models; `{}` is zeno text (write the `check` in the file)",
                original.display_path()
            );
            diag::error(&message);
            Err(LoadError::Usage(message))
        }
        Err(zeno::load::LoadError::Import {
            detection,
            diagnostics,
            ..
        }) => {
            note_detection(path, &detection);
            diag::emit(&original, &diagnostics);
            Err(LoadError::Import {
                original,
                diagnostics,
            })
        }
    }
}

/// Whether the importer's warning `w` says why `q` was not translated.
fn is_about(w: &Diagnostic, q: &Query) -> bool {
    match &q.outcome {
        QueryOutcome::Check(_) => false,
        QueryOutcome::OtherEngine(_) => w.range == q.span,
        QueryOutcome::Refused { message, span } => {
            w.range == *span && w.message.starts_with(message)
        }
    }
}

/// Reads, imports if needed, and analyzes `path`, printing every diagnostic;
/// the network when the model has no errors, else the exit code to return.
pub fn load_network(path: &Path, labels: &[String]) -> Result<(Model, Network), u8> {
    let model = match load(path, labels) {
        Ok(m) => m,
        Err(LoadError::Unreadable(e)) => {
            diag::error(&e);
            return Err(exit::ERROR);
        }
        // Already reported.
        Err(LoadError::Import { .. } | LoadError::Usage(_)) => return Err(exit::ERROR),
    };
    let analysis = model.analyze();
    model.emit_analysis(&analysis.diagnostics);
    let has_errors = analysis
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    match analysis.network {
        Some(network) if !has_errors => Ok((model, network)),
        _ => Err(exit::ERROR),
    }
}

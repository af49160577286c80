//! Model inputs in every format zeno reads, for every front end: the
//! format decided (by extension, else by content), foreign formats imported
//! into zeno text, and that text analysed. The CLI, the language server and
//! the benchmark harness all load models through here, so a `.xml` file
//! means the same thing to each of them.
#![warn(missing_docs)]

use zeno_base::diagnostics::{Diagnostic, Severity};
use zeno_import::{
    self as import, Detection, Format, ImportOptions, Query, QueryOutcome, Renaming, SourceMap,
};
use zeno_ir::Span;
use zeno_semantics::{self as semantics, Analysis};
use zeno_syntax as syntax;
use zeno_syntax::ast::{self, AstNode};

/// A model ready for analysis.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The zeno text to analyse: the input itself, or its translation
    /// (formatted as `zeno import` prints it, so that positions in
    /// diagnostics match that output).
    pub zeno: String,
    /// How the input's format was decided.
    pub detection: Detection,
    /// The importer's warnings, located in the input.
    pub import_warnings: Vec<Diagnostic>,
    /// Warnings on translated checks that zeno's analysis rejected and
    /// that were set aside ([`set_aside_failing_checks`]), located in
    /// [`Loaded::zeno`].
    pub set_aside: Vec<Diagnostic>,
    /// For an imported input, where the pieces of [`Loaded::zeno`] came
    /// from in it (see [`map_diagnostic`]); `None` for zeno text, and when
    /// the text could not be followed through formatting.
    pub source_map: Option<SourceMap>,
    /// The input's queries (UPPAAL XML's `<query>` elements) and what
    /// became of each, a check set aside included (see
    /// [`refuse_set_aside`]); empty for the other formats.
    pub queries: Vec<Query>,
    /// The importer's zeno names for the keywords the input used as names
    /// (none for zeno text), with which its query files are read.
    pub renaming: Renaming,
}

impl Loaded {
    /// The format the input was imported from; `None` for zeno text.
    pub fn imported_from(&self) -> Option<Format> {
        self.detection.format
    }

    /// Analyses the zeno text; the warnings on checks set aside come with
    /// the analysis' own diagnostics.
    pub fn analyze(&self) -> Analysis {
        let mut analysis = semantics::analyze(&self.zeno);
        with_warnings(&mut analysis, &self.set_aside);
        analysis
    }
}

/// Why an input gave no model.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadError {
    /// The importer rejected the input; the diagnostics are located in it.
    #[error("the {} model could not be imported", format_name(*.format))]
    Import {
        /// The format the input was read as.
        format: Format,
        /// How the format was decided.
        detection: Detection,
        /// The importer's errors and warnings, located in the input.
        diagnostics: Vec<Diagnostic>,
    },
    /// TChecker labels were given for zeno text, which names its checks.
    #[error(
        "--labels applies to TChecker models; `{name}` is zeno text (write the `check` in the file)"
    )]
    LabelsForZeno {
        /// The input's name.
        name: String,
    },
}

/// The name of a format in messages.
pub fn format_name(format: Format) -> &'static str {
    match format {
        Format::UppaalXml => "UPPAAL XML",
        Format::UppaalXta => "UPPAAL XTA",
        Format::TChecker => "TChecker",
    }
}

/// Zeno text as `zeno fmt` keeps it (unchanged if it does not parse).
pub fn formatted(zeno: String) -> String {
    zeno_fmt::format(&zeno).unwrap_or(zeno)
}

/// Loads the input `text` named `name` (a path or `-`; its extension
/// decides the format when it has a known one). `labels` are TChecker's
/// reachability labels, for TChecker inputs.
pub fn load(name: &str, text: &str, labels: &[String]) -> Result<Loaded, LoadError> {
    let detection = import::detect(name, text);
    let Some(format) = detection.format else {
        if !labels.is_empty() {
            return Err(LoadError::LabelsForZeno {
                name: name.to_string(),
            });
        }
        return Ok(Loaded {
            zeno: text.to_string(),
            detection,
            import_warnings: Vec::new(),
            set_aside: Vec::new(),
            source_map: None,
            queries: Vec::new(),
            renaming: Renaming::default(),
        });
    };
    let opts = ImportOptions {
        labels: labels.to_vec(),
    };
    match import::import_as(format, text, &opts) {
        Ok(imported) => {
            let written = imported.zeno;
            let (zeno, set_aside) = set_aside_failing_checks(&formatted(written.clone()), 0);
            let source_map = imported.source_map.realign(&written, &zeno);
            let mut queries = imported.queries;
            refuse_set_aside(&mut queries, &zeno, &set_aside);
            Ok(Loaded {
                queries,
                renaming: imported.renaming,
                zeno,
                source_map,
                detection,
                import_warnings: imported
                    .warnings
                    .iter()
                    .map(|w| w.to_diagnostic())
                    .collect(),
                set_aside,
            })
        }
        Err(diags) => Err(LoadError::Import {
            format,
            detection,
            diagnostics: diags.iter().map(|d| d.to_diagnostic()).collect(),
        }),
    }
}

/// Sets aside the translated checks that zeno's analysis rejects: `text`'s
/// checks from byte `from` on were translated from another language (a
/// UPPAAL model's queries, a query file), and one query zeno cannot decide
/// (a call of a function with side effects, a type UPPAAL converts and
/// zeno does not) must not cost the model's other checks, as in UPPAAL,
/// which reports the one query. When every error of the analysis lies in
/// such checks, each of them is commented out (`// ` before each of its
/// lines, so no other position moves) and gets a warning with the first
/// error's message; otherwise the text is returned unchanged, and its
/// errors stand. Returns the text and the warnings, located in it.
pub fn set_aside_failing_checks(text: &str, from: usize) -> (String, Vec<Diagnostic>) {
    let analysis = semantics::analyze(text);
    let errors: Vec<&Diagnostic> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if errors.is_empty() {
        return (text.to_string(), Vec::new());
    }
    let checks: Vec<Span> = syntax::parse(text)
        .syntax_node()
        .children()
        .filter_map(ast::Check::cast)
        .map(|c| c.span())
        .filter(|c| c.start as usize >= from)
        .collect();
    // The failing checks, each with its first error, in text order.
    let mut failing: Vec<(Span, &str)> = Vec::new();
    for e in &errors {
        let Some(check) = checks
            .iter()
            .find(|c| c.start <= e.range.start && e.range.end <= c.end)
        else {
            return (text.to_string(), Vec::new());
        };
        if !failing.iter().any(|(c, _)| c == check) {
            failing.push((*check, &e.message));
        }
    }
    failing.sort_by_key(|(c, _)| c.start);
    let mut out = String::with_capacity(text.len() + 8 * failing.len());
    let mut warnings = Vec::new();
    let mut at = 0;
    for (check, message) in failing {
        let (start, end) = (check.start as usize, check.end as usize);
        out.push_str(&text[at..start]);
        let new_start = out.len();
        for (i, line) in text[start..end].split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str("// ");
            out.push_str(line);
        }
        // On the check itself, after the first `// `: the text that was
        // translated, which an imported file's source map covers.
        warnings.push(Diagnostic::warning(
            Span::new(new_start as u32 + 3, out.len() as u32),
            format!("check set aside: {message}; the other checks are decided"),
        ));
        at = end;
    }
    out.push_str(&text[at..]);
    (out, warnings)
}

/// Marks the queries whose checks [`set_aside_failing_checks`] set aside
/// in `zeno` (its warnings are `set_aside`) as refused, with the analysis'
/// message, at the whole query: the query zeno cannot decide is then
/// reported where the user wrote it.
pub fn refuse_set_aside(queries: &mut [Query], zeno: &str, set_aside: &[Diagnostic]) {
    for d in set_aside {
        // The warning covers `check NAME: ...;` (after the `// `).
        let Some(name) = zeno
            .get(d.range.start as usize..d.range.end as usize)
            .and_then(|t| t.strip_prefix("check "))
            .and_then(|t| t.split(':').next())
            .map(str::trim)
        else {
            continue;
        };
        let message = d
            .message
            .strip_prefix("check set aside: ")
            .and_then(|m| m.strip_suffix("; the other checks are decided"))
            .unwrap_or(&d.message);
        for q in queries.iter_mut().filter(|q| q.name == name) {
            if matches!(q.outcome, QueryOutcome::Check(_)) {
                q.outcome = QueryOutcome::Refused {
                    message: message.to_string(),
                    span: q.span,
                };
            }
        }
    }
}

/// `text` with its checks commented out (`// ` before each of their lines,
/// so no other position moves): the model alone, for a query file's
/// checks to take their place.
pub fn without_checks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let root = syntax::parse(text).syntax_node();
    for check in root.children().filter_map(ast::Check::cast) {
        let span = check.span();
        let (start, end) = (span.start as usize, span.end as usize);
        out.push_str(&text[at..start]);
        for (i, line) in text[start..end].split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str("// ");
            out.push_str(line);
        }
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// A model's zeno text with a query file's queries added.
#[derive(Debug, Clone)]
pub struct WithQueries {
    /// The text, each translated query a check at its end (those the
    /// analysis rejects commented out, see [`set_aside_failing_checks`]).
    pub zeno: String,
    /// The file's queries, renamed apart from the model's checks, with what
    /// became of each (a check set aside is refused).
    pub queries: Vec<Query>,
    /// The warnings on the checks set aside, located in `zeno`.
    pub set_aside: Vec<Diagnostic>,
    /// For each query that is a check in `zeno`: its name and the check's
    /// range there.
    pub checks: Vec<(String, Span)>,
}

/// Adds the queries of the query file `queries_text` to the zeno text
/// `zeno` as checks: each translated query as `check NAME: …;` (renamed
/// `NAME_2`, … where `zeno` has a check of its name or `taken` holds it),
/// and those the analysis rejects set aside as refused. The queries' names
/// are renamed as the model's were (`renaming`, see [`Loaded::renaming`]).
pub fn add_query_file(
    zeno: &str,
    queries_text: &str,
    taken: &[String],
    renaming: &Renaming,
) -> WithQueries {
    let read = import::read_query_file(queries_text, renaming);
    let mut taken: std::collections::HashSet<String> = check_names(zeno)
        .into_iter()
        .chain(taken.iter().cloned())
        .collect();
    let mut queries = read.queries;
    let mut text = format!("{zeno}\n");
    let from = text.len();
    let mut checks = Vec::new();
    for q in &mut queries {
        let base = q.name.clone();
        let mut k = 1;
        while taken.contains(&q.name) {
            k += 1;
            q.name = format!("{base}_{k}");
        }
        taken.insert(q.name.clone());
        if let QueryOutcome::Check(f) = &q.outcome {
            let start = text.len() as u32;
            text.push_str(&format!("check {}: {f};", q.name));
            checks.push((q.name.clone(), Span::new(start, text.len() as u32)));
            text.push('\n');
        }
    }
    // Setting aside puts `// ` before a failing check (one line each):
    // the later checks move by 3 bytes per check set aside before them.
    let (set_aside_text, set_aside) = set_aside_failing_checks(&text, from);
    let mut shift = 0u32;
    checks.retain_mut(|(_, span)| {
        let start = span.start + shift;
        let commented = set_aside_text
            .get(start as usize..)
            .is_some_and(|t| t.starts_with("// check "));
        if commented {
            shift += 3;
            return false;
        }
        *span = Span::new(start, span.end + shift);
        true
    });
    refuse_set_aside(&mut queries, &set_aside_text, &set_aside);
    WithQueries {
        zeno: set_aside_text,
        queries,
        set_aside,
        checks,
    }
}

/// The names of the checks declared in zeno `text`, in text order.
pub fn check_names(text: &str) -> Vec<String> {
    syntax::parse(text)
        .tree()
        .items()
        .filter_map(|item| match item {
            syntax::ast::Item::Check(c) => c.name().map(|n| n.text()),
            _ => None,
        })
        .collect()
}

/// A diagnostic on the imported text `zeno` located in the `source` text it
/// was imported from, with where that is in the source's terms added to the
/// message (`… (in the guard of an edge of template Train, from Appr to
/// Cross)`). `None` when its range or one of its related ranges lies in
/// text no piece of `map` covers: it then stays in the imported text,
/// rather than being shown at a place it does not belong.
pub fn map_diagnostic(
    map: &SourceMap,
    zeno: &str,
    source: &str,
    d: &Diagnostic,
) -> Option<Diagnostic> {
    let at = map.map(zeno, source, d.range)?;
    let related = d
        .related
        .iter()
        .map(|r| {
            Some(zeno_base::diagnostics::Related {
                range: map.map(zeno, source, r.range)?.span,
                message: r.message.clone(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Diagnostic {
        severity: d.severity,
        message: format!("{} ({})", d.message, at.what),
        range: at.span,
        related,
    })
}

/// Adds `warnings` to an analysis' diagnostics, keeping them in text order.
pub fn with_warnings(analysis: &mut Analysis, warnings: &[Diagnostic]) {
    if warnings.is_empty() {
        return;
    }
    analysis.diagnostics.extend(warnings.iter().cloned());
    analysis
        .diagnostics
        .sort_by_key(|d| (d.range.start, d.range.end));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_loads_into_zeno_text() {
        let zeno = load(
            "m.zeno",
            "template T() { init location a; }\nsystem T;\n",
            &[],
        )
        .unwrap();
        assert_eq!(zeno.imported_from(), None);
        assert!(zeno.analyze().network.is_some());

        let xta = "process P() { state a; init a; }\nsystem P;\n";
        let loaded = load("m.xta", xta, &[]).unwrap();
        assert_eq!(loaded.imported_from(), Some(Format::UppaalXta));
        assert!(loaded.zeno.contains("template P()"), "{}", loaded.zeno);

        // By content, without an extension: zeno text stays zeno.
        let by_content = load("-", "template T() { init location a; }\nsystem T;\n", &[]).unwrap();
        assert_eq!(by_content.imported_from(), None);
        assert!(by_content.detection.by_content.is_some());

        assert!(matches!(
            load("m.zeno", "system T;", &["x".to_string()]),
            Err(LoadError::LabelsForZeno { .. })
        ));
        assert!(matches!(
            load("m.xml", "<nta><oops", &[]),
            Err(LoadError::Import {
                format: Format::UppaalXml,
                ..
            })
        ));
    }

    #[test]
    fn a_query_file_adds_checks_at_known_ranges() {
        let model = "int a;\nint bump() { a++; return a; }\ntemplate P() { init location l; }\nsystem P;\ncheck ok: A[] a == 0;\n";
        // Line 1 is set aside (a call with an effect), line 2 takes a name
        // the model has (`ok_2`), line 3 is statistical.
        let q = "A[] bump() < 9\n// ok\nE<> a == 0\nPr[<=1](<> a == 1)\nA[] a < 1\n";
        let added = add_query_file(model, q, &[], &Renaming::default());
        let names: Vec<&str> = added.queries.iter().map(|q| q.name.as_str()).collect();
        assert_eq!(names, ["line1", "ok_2", "line4", "line5"]);
        assert!(matches!(
            added.queries[0].outcome,
            QueryOutcome::Refused { .. }
        ));
        let at = |k: usize| {
            let (name, span) = &added.checks[k];
            (
                name.as_str(),
                &added.zeno[span.start as usize..span.end as usize],
            )
        };
        assert_eq!(added.checks.len(), 2);
        assert_eq!(at(0), ("ok_2", "check ok_2: E<> a == 0;"));
        assert_eq!(at(1), ("line5", "check line5: A[] a < 1;"));
    }
}

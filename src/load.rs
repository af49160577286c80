//! Model inputs in every format zeno reads, for every front end: the
//! format decided (by extension, else by content), foreign formats imported
//! into zeno text, and that text analysed. The CLI, the language server and
//! the benchmark harness all load models through here, so a `.xml` file
//! means the same thing to each of them.

use crate::diagnostics::Diagnostic;
use crate::import::{self, Detection, Format, ImportOptions};
use crate::semantics::{self, Analysis};

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
}

impl Loaded {
    /// The format the input was imported from; `None` for zeno text.
    pub fn imported_from(&self) -> Option<Format> {
        self.detection.format
    }

    /// Analyses the zeno text.
    pub fn analyze(&self) -> Analysis {
        semantics::analyze(&self.zeno)
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
    crate::fmt::format(&zeno).unwrap_or(zeno)
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
        });
    };
    let opts = ImportOptions {
        labels: labels.to_vec(),
    };
    match import::import_as(format, text, &opts) {
        Ok(imported) => Ok(Loaded {
            zeno: formatted(imported.zeno),
            detection,
            import_warnings: imported
                .warnings
                .iter()
                .map(|w| w.to_diagnostic())
                .collect(),
        }),
        Err(diags) => Err(LoadError::Import {
            format,
            detection,
            diagnostics: diags.iter().map(|d| d.to_diagnostic()).collect(),
        }),
    }
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
}

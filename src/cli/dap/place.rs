//! Where the model's locations and edges are in the file the user opened:
//! the zeno text itself, or, for an imported UPPAAL or TChecker file, the
//! element the import's source map traces a piece of the translation to
//! (the language server places verdicts and trace steps the same way).

use zeno::import::SourceMap;
use zeno::ir::{EdgeId, LocId, Network, ProcId, Span};
use zeno::line_index::{Encoding, LineIndex};

/// A range in the opened file, 0-based lines and UTF-16 columns (the
/// server converts to the client's bases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// The opened file and how to find the translation's spans in it.
pub struct Places {
    /// The file's path as the client named it.
    pub path: String,
    /// The file's text.
    text: String,
    /// The zeno text analysed (the file itself, or its translation).
    zeno: String,
    /// Whether the file was imported (else `zeno` is the file's text).
    imported: bool,
    /// For an imported file, where the translation came from (`None` when
    /// the import's positions could not be followed through formatting).
    map: Option<SourceMap>,
    /// Lines and UTF-16 columns of `text`.
    index: LineIndex,
}

impl Places {
    pub fn new(
        path: String,
        text: String,
        zeno: String,
        imported: bool,
        map: Option<SourceMap>,
    ) -> Places {
        let index = LineIndex::new(&text, Encoding::Utf16);
        Places {
            path,
            text,
            zeno,
            imported,
            map,
            index,
        }
    }

    /// The zeno text analysed.
    pub fn zeno(&self) -> &str {
        &self.zeno
    }

    /// `span` of the zeno text, on one line, shortened for a label.
    pub fn snippet(&self, span: Span) -> String {
        let text = self
            .zeno
            .get(span.start as usize..span.end as usize)
            .unwrap_or("");
        let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
        match one_line.char_indices().nth(80) {
            Some((cut, _)) => format!("{}…", &one_line[..cut]),
            None => one_line,
        }
    }

    /// Where `span` of the zeno text is in the opened file; `None` for
    /// text the import wrote itself (no element of the file holds it).
    pub fn place(&self, span: Span) -> Option<Place> {
        let in_file = match &self.map {
            Some(map) => map.map(&self.zeno, &self.text, span)?.span,
            None if self.imported => return None,
            None => span,
        };
        let (line, column) = self.position(in_file.start);
        let (end_line, end_column) = self.position(in_file.end);
        Some(Place {
            line,
            column,
            end_line,
            end_column,
        })
    }

    /// The line and UTF-16 column of byte `offset` of the file.
    fn position(&self, offset: u32) -> (u32, u32) {
        let at = self.index.line_col(offset);
        (at.line, at.col)
    }

    /// The locations and edges whose text covers 0-based `line` of the
    /// file (for every process instantiating the template there).
    pub fn on_line(&self, net: &Network, line: u32) -> Vec<Target> {
        let covers = |span: Span| {
            self.place(span)
                .is_some_and(|p| p.line <= line && line <= p.end_line)
        };
        let mut out = Vec::new();
        for (p, process) in net.processes.iter().enumerate() {
            for (l, location) in process.locations.iter().enumerate() {
                if covers(location.span) {
                    out.push(Target::Location(p as ProcId, l as LocId));
                }
            }
            for (e, edge) in process.edges.iter().enumerate() {
                if covers(edge.span) {
                    out.push(Target::Edge(p as ProcId, e as EdgeId));
                }
            }
        }
        out
    }
}

/// A location or an edge of one process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Location(ProcId, LocId),
    Edge(ProcId, EdgeId),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_columns() {
        let text = "ab\nçx€y\n".to_string();
        let places = Places::new("m.zeno".into(), text.clone(), text, false, None);
        // `y` is byte 3 + 2 (ç) + 1 (x) + 3 (€) = 9; columns: ç x € = 3.
        assert_eq!(places.position(9), (1, 3));
        assert_eq!(places.position(0), (0, 0));
        assert_eq!(places.position(3), (1, 0));
    }
}

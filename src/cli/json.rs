//! `zeno check --format json`: one document for the whole run.

use serde::Serialize;

use super::report::FileReport;

/// Version of the document's schema; bumped on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    exit_code: u8,
    files: &'a [FileReport],
}

/// The document, pretty-printed with fields in schema order.
pub fn document(files: &[FileReport], exit_code: u8) -> String {
    let doc = Document {
        version: SCHEMA_VERSION,
        exit_code,
        files,
    };
    // Serializing plain structs of strings and numbers cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

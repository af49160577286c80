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

pub fn document(files: &[FileReport], exit_code: u8) -> serde_json::Value {
    serde_json::to_value(Document {
        version: SCHEMA_VERSION,
        exit_code,
        files,
    })
    .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }))
}

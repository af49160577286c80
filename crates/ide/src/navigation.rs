//! Go to definition, references and rename, read off the resolution map.

use zeno_ir::Span;
use zeno_semantics::resolve::{DefKind, Resolutions};
use zeno_syntax::SyntaxKind;

use super::Analysis;

/// Where a name is declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavTarget {
    /// The name as declared.
    pub name: String,
    /// What it declares.
    pub kind: DefKind,
    /// The declaring occurrence of the name.
    pub range: Span,
}

/// Why a rename is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenameError(pub String);

impl std::fmt::Display for RenameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub(super) fn definition(res: &Resolutions, offset: u32) -> Option<NavTarget> {
    let def = res.def(res.at(offset)?.def);
    Some(NavTarget {
        name: def.name.clone(),
        kind: def.kind,
        range: def.span,
    })
}

pub(super) fn references(res: &Resolutions, offset: u32, include_declaration: bool) -> Vec<Span> {
    let Some(at) = res.at(offset) else {
        return Vec::new();
    };
    res.occurrences(at.def)
        .filter(|n| include_declaration || !n.is_def)
        .map(|n| n.span)
        .collect()
}

fn is_name(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

pub(super) fn rename(a: &Analysis, offset: u32, new_name: &str) -> Result<Vec<Span>, RenameError> {
    if !is_name(new_name) {
        return Err(RenameError(format!("`{new_name}` is not a name")));
    }
    if SyntaxKind::keywords().any(|k| k == new_name) {
        return Err(RenameError(format!("`{new_name}` is a keyword")));
    }
    let res = a.resolutions();
    let sites = references(&res, offset, true);
    if sites.is_empty() {
        return Err(RenameError("nothing to rename here".to_string()));
    }
    let old = res.at(offset).map(|n| res.def(n.def).name.as_str());
    if old == Some(new_name) {
        return Ok(sites);
    }
    // At any occurrence, the new name must not already mean something
    // else there (it would be captured or clash).
    let taken = sites.iter().any(|s| {
        a.completion(s.start)
            .iter()
            .any(|c| c.label == new_name && c.kind != super::CompletionKind::Keyword)
    });
    if taken {
        return Err(RenameError(format!(
            "`{new_name}` is already declared in this scope"
        )));
    }
    Ok(sites)
}

//! Signature help for template instantiation: inside `P1 = Proc(…` the
//! template's parameters, with the one the cursor is on active.

use crate::semantics::hir::ItemTree;

use super::hover;

/// The signature, its parameters and the active parameter's index for the
/// call around `offset`, if the cursor is inside a template's argument list.
pub fn signature_help(
    text: &str,
    tree: &ItemTree,
    offset: u32,
) -> Option<(String, Vec<String>, u32)> {
    let before = text.get(..(offset as usize).min(text.len()))?;
    // Walk back to the unclosed `(`, counting top-level commas.
    let mut depth = 0u32;
    let mut commas = 0u32;
    let mut open = None;
    for (i, c) in before.char_indices().rev() {
        match c {
            ')' | ']' => depth += 1,
            '(' | '[' if depth > 0 => depth -= 1,
            '(' => {
                open = Some(i);
                break;
            }
            '[' => return None,
            ',' if depth == 0 => commas += 1,
            ';' | '{' | '}' => return None,
            _ => {}
        }
    }
    let callee = before[..open?].trim_end();
    let start = callee
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let name = &callee[start..];
    let t = tree.templates.iter().find(|t| t.data.name.text == name)?;
    let (label, params) = hover::signature(text, &t.data, t.offset);
    if params.is_empty() {
        return None;
    }
    let active = commas.min(params.len() as u32 - 1);
    Some((label, params, active))
}

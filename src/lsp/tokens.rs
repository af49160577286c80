//! Semantic tokens: keywords, numbers and comments from the lexer, and names
//! classified by what they resolve to (a location, a template, a type, a
//! parameter or a variable).

use tower_lsp_server::ls_types::{
    Position, SemanticToken, SemanticTokenType, SemanticTokensLegend, SymbolKind,
};

use super::line_index::LineIndex;
use super::navigate;
use super::symbols::document_symbols;
use crate::semantics::hir::ItemTree;
use crate::syntax::SyntaxKind;

const KEYWORD: u32 = 0;
const VARIABLE: u32 = 1;
const PARAMETER: u32 = 2;
const ENUM_MEMBER: u32 = 3;
const CLASS: u32 = 4;
const TYPE: u32 = 5;
const NUMBER: u32 = 6;
const COMMENT: u32 = 7;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![
            SemanticTokenType::KEYWORD,
            SemanticTokenType::VARIABLE,
            SemanticTokenType::PARAMETER,
            SemanticTokenType::ENUM_MEMBER,
            SemanticTokenType::CLASS,
            SemanticTokenType::TYPE,
            SemanticTokenType::NUMBER,
            SemanticTokenType::COMMENT,
        ],
        token_modifiers: Vec::new(),
    }
}

/// The token type of a declaration, from the outline's symbol kinds.
fn declaration_types(index: &LineIndex, tree: &ItemTree) -> Vec<(Position, u32)> {
    fn walk(
        symbols: &[tower_lsp_server::ls_types::DocumentSymbol],
        out: &mut Vec<(Position, u32)>,
    ) {
        for s in symbols {
            let ty = match s.kind {
                SymbolKind::ENUM_MEMBER => ENUM_MEMBER,
                SymbolKind::CLASS => CLASS,
                SymbolKind::TYPE_PARAMETER if s.detail.as_deref() == Some("parameter") => PARAMETER,
                SymbolKind::TYPE_PARAMETER => TYPE,
                _ => VARIABLE,
            };
            out.push((s.selection_range.start, ty));
            walk(s.children.as_deref().unwrap_or(&[]), out);
        }
    }
    let mut out = Vec::new();
    walk(&document_symbols(index, tree), &mut out);
    out
}

/// The tokens of a text, encoded relative to each other as LSP wants them.
/// A token spanning lines (a block comment) is split into one per line.
pub fn semantic_tokens(text: &str, index: &LineIndex, tree: &ItemTree) -> Vec<SemanticToken> {
    let declarations = declaration_types(index, tree);
    let parse = crate::syntax::parse(text);
    let mut absolute: Vec<(Position, u32, u32)> = Vec::new(); // (start, length, type)
    for token in parse
        .syntax_node()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        let range = token.text_range();
        let start = u32::from(range.start());
        let ty = match token.kind() {
            SyntaxKind::COMMENT => COMMENT,
            SyntaxKind::INT_NUMBER => NUMBER,
            SyntaxKind::IDENT => {
                let Some(decl) = navigate::definition(text, tree, start) else {
                    continue;
                };
                let at = index.position(decl.start);
                declarations
                    .iter()
                    .find(|(p, _)| *p == at)
                    .map_or(VARIABLE, |(_, t)| *t)
            }
            kind if kind.is_keyword() => KEYWORD,
            _ => continue,
        };
        // One piece per line.
        let mut offset = start;
        for line in token.text().split_inclusive('\n') {
            let content = line.trim_end_matches(['\n', '\r']);
            let from = index.position(offset);
            let to = index.position(offset + content.len() as u32);
            if to.line == from.line && to.character > from.character {
                absolute.push((from, to.character - from.character, ty));
            }
            offset += line.len() as u32;
        }
    }
    let mut out = Vec::with_capacity(absolute.len());
    let mut prev = Position::new(0, 0);
    for (p, length, ty) in absolute {
        let delta_line = p.line - prev.line;
        let delta_start = if delta_line == 0 {
            p.character - prev.character
        } else {
            p.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: ty,
            token_modifiers_bitset: 0,
        });
        prev = p;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantics::AnalysisHost;

    /// Decoded tokens: (line, UTF-16 column, UTF-16 length, type).
    fn decode(tokens: &[SemanticToken]) -> Vec<(u32, u32, u32, u32)> {
        let (mut line, mut col) = (0, 0);
        tokens
            .iter()
            .map(|t| {
                if t.delta_line > 0 {
                    line += t.delta_line;
                    col = t.delta_start;
                } else {
                    col += t.delta_start;
                }
                (line, col, t.length, t.token_type)
            })
            .collect()
    }

    #[test]
    fn classified_tokens_with_non_ascii_comments() {
        let text = "/* é\n😀 */ const int K = 2;\ntemplate P(const int q) {\n  init location a;\n  a -> a when q < K;\n}\n";
        let mut host = AnalysisHost::new();
        host.set_text(text);
        let index = LineIndex::new(text);
        let got = decode(&semantic_tokens(text, &index, &host.item_tree()));
        let expected = vec![
            (0, 0, 4, COMMENT),   // "/* é"
            (1, 0, 5, COMMENT),   // "😀 */" (the emoji is two units)
            (1, 6, 5, KEYWORD),   // const
            (1, 12, 3, KEYWORD),  // int
            (1, 16, 1, VARIABLE), // K
            (1, 20, 1, NUMBER),
            (2, 0, 8, KEYWORD), // template
            (2, 9, 1, CLASS),   // P
            (2, 11, 5, KEYWORD),
            (2, 17, 3, KEYWORD),
            (2, 21, 1, PARAMETER), // q
            (3, 2, 4, KEYWORD),    // init
            (3, 7, 8, KEYWORD),    // location
            (3, 16, 1, ENUM_MEMBER),
            (4, 2, 1, ENUM_MEMBER),
            (4, 7, 1, ENUM_MEMBER),
            (4, 9, 4, KEYWORD), // when
            (4, 14, 1, PARAMETER),
            (4, 18, 1, VARIABLE),
        ];
        assert_eq!(got, expected);
    }
}

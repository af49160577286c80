//! `textDocument/semanticTokens/full`: the tokens `ide` classifies, in the
//! legend announced in `initialize`, encoded relative to each other. A
//! token spanning lines (a block comment) becomes one per line.

use tower_lsp_server::ls_types::{
    Position, SemanticToken, SemanticTokenType, SemanticTokensLegend,
};

use crate::snapshot::Snapshot;
use zeno_ide::TokenKind;

/// The token types, in the order of their indices in the legend.
const TYPES: [(TokenKind, SemanticTokenType); 9] = [
    (TokenKind::Keyword, SemanticTokenType::KEYWORD),
    (TokenKind::Variable, SemanticTokenType::VARIABLE),
    (TokenKind::Parameter, SemanticTokenType::PARAMETER),
    (TokenKind::Location, SemanticTokenType::ENUM_MEMBER),
    (TokenKind::Template, SemanticTokenType::CLASS),
    (TokenKind::Type, SemanticTokenType::TYPE),
    (TokenKind::Number, SemanticTokenType::NUMBER),
    (TokenKind::Comment, SemanticTokenType::COMMENT),
    (TokenKind::Function, SemanticTokenType::FUNCTION),
];

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.iter().map(|(_, t)| t.clone()).collect(),
        token_modifiers: Vec::new(),
    }
}

fn index_of(kind: TokenKind) -> u32 {
    TYPES.iter().position(|(k, _)| *k == kind).unwrap_or(0) as u32
}

pub fn semantic_tokens(s: &Snapshot) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let mut prev = Position::new(0, 0);
    for token in s.analysis.semantic_tokens() {
        let ty = index_of(token.kind);
        for (p, length) in s.index.line_pieces(token.range) {
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
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::line_index::LineIndex;
    use zeno_ide::Analysis;

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
    fn encoded_in_utf16_one_piece_per_line() {
        let text = "/* é\n😀 */ const int K = 2;\ntemplate P(const int q) {\n  init location a;\n  a -> a when q < K;\n}\n";
        let s = Snapshot {
            uri: "file:///t.zeno".parse().unwrap(),
            analysis: Analysis::from_text(text),
            index: Arc::new(LineIndex::new(text)),
        };
        let (keyword, variable, parameter, location, class, number, comment) =
            (0, 1, 2, 3, 4, 6, 7);
        let expected = vec![
            (0, 0, 4, comment),   // "/* é"
            (1, 0, 5, comment),   // "😀 */" (the emoji is two units)
            (1, 6, 5, keyword),   // const
            (1, 12, 3, keyword),  // int
            (1, 16, 1, variable), // K
            (1, 20, 1, number),
            (2, 0, 8, keyword), // template
            (2, 9, 1, class),   // P
            (2, 11, 5, keyword),
            (2, 17, 3, keyword),
            (2, 21, 1, parameter), // q
            (3, 2, 4, keyword),    // init
            (3, 7, 8, keyword),    // location
            (3, 16, 1, location),
            (4, 2, 1, location),
            (4, 7, 1, location),
            (4, 9, 4, keyword), // when
            (4, 14, 1, parameter),
            (4, 18, 1, variable),
        ];
        assert_eq!(decode(&semantic_tokens(&s)), expected);
        // The legend lists the types in the order of these indices.
        let legend = legend().token_types;
        assert_eq!(legend[3], SemanticTokenType::ENUM_MEMBER);
        assert_eq!(legend[7], SemanticTokenType::COMMENT);
    }
}

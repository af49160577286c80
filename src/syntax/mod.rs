//! Lossless, error-resilient syntax: lexer, parser, rowan tree and typed AST.

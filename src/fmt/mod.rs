//! The formatter: works on the lossless tree, keeps comments, idempotent.

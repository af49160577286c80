//! The ground every zeno crate stands on: positions in a model text
//! ([`text`]) and their lines and columns ([`line_index`]), the diagnostics
//! every layer speaks ([`diagnostics`]), the one table of the language's
//! operators ([`operators`]), the process's memory budget ([`memory`]) and
//! the thread's CPU clock ([`clock`]). It depends on no other zeno crate.
#![warn(missing_docs)]

pub mod clock;
pub mod diagnostics;
pub mod line_index;
pub mod memory;
pub mod operators;
pub mod text;

//! The ground every zeno crate stands on: positions in a model text
//! ([`text`]), the diagnostics every layer speaks ([`diagnostics`]) and the
//! process's memory budget ([`memory`]). It depends on no other zeno crate.
#![warn(missing_docs)]

pub mod diagnostics;
pub mod memory;
pub mod text;

//! The ground every zeno crate stands on: positions in a model text
//! ([`text`]), the diagnostics every layer speaks ([`diagnostics`]), the
//! process's memory budget ([`memory`]) and the thread's CPU clock
//! ([`clock`]). It depends on no other zeno crate.
#![warn(missing_docs)]

pub mod clock;
pub mod diagnostics;
pub mod memory;
pub mod text;

//! Helpers shared by the integration tests (`mod support;`).
#![allow(dead_code, clippy::new_without_default)]

pub mod cli;
pub mod expect;
pub mod lsp_client;
pub mod lsp_stdout;
pub mod net;
pub mod random_net;
pub mod simulator;

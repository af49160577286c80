//! Helpers shared by the integration tests (`mod support;`).
#![allow(dead_code, clippy::new_without_default)]

pub mod expect;
pub mod net;
pub mod simulator;

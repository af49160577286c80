//! Helpers shared by the integration tests (`mod support;`).
#![allow(dead_code)]

pub mod expect;
pub mod simulator;

//! End-to-end tests: each starts the real `colonyd` on free loopback ports and drives the real
//! `colony` binary against it.

mod commands;
mod connector;
mod eval;
mod eval_sealed;
mod mcp;
mod readme;
mod settings;
mod support;
mod views;

//! End-to-end tests: each starts the real `colonyd` on free loopback ports and drives the real
//! `colony` binary against it (`compare` needs none: it reads hand-made results folders).

mod commands;
mod compare;
mod connector;
mod eval;
mod eval_modes;
mod eval_sealed;
mod mcp;
mod mcp_http_limits;
mod playing;
mod readme;
mod readme_eval;
mod replay;
mod results_schema;
mod settings;
mod support;
mod views;

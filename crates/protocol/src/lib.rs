//! Wire types shared by `colonyd` and the `colony` client: the error body format and its codes,
//! the agent state, the WebSocket frame envelope, the route catalogue (`routes`), the replay
//! folder's index (`replay`, written by `colony replay`, served by `colonyd --replay`) and the
//! version of the interface contract.
//!
//! Nothing here does I/O; both sides serialize these with serde.

pub mod agent;
pub mod error;
pub mod frame;
pub mod replay;
pub mod routes;

/// The interface contract version served in `/api/ping` and `/api/openapi.json`.
pub const CONTRACT_VERSION: &str = "1.0.0";

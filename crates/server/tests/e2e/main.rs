//! End-to-end tests: each starts the real `colonyd` on free loopback ports and talks to it over
//! real HTTP and WebSocket.

mod agent;
mod auth_throttle;
mod automation;
mod colony;
mod contract;
mod cross_site;
mod fixture;
mod game;
mod hardening;
mod http_rules;
mod land;
mod limits;
mod openapi_answers;
mod openapi_requests;
mod paths;
mod power;
mod read_cache;
mod replay;
mod science;
mod score;
mod stats;
mod support;
mod websocket;

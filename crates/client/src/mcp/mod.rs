//! `colony mcp`: an MCP (Model Context Protocol) server that hands every action of the colony to
//! an LLM agent as a tool, typed from the route catalogue, with composite tools, resources and
//! a prompt. It speaks to colonyd over HTTP with the client's settings (flags, `COLONY_*`,
//! config file) and serves MCP over stdio, or over Streamable HTTP with `--http PORT`.
//! See docs/mcp.md.

mod advance;
mod answer;
mod api;
mod catalog;
mod composite;
mod overview;
mod resources;
mod schema;
mod serve;
mod server;
mod tools;

use crate::args::{Arg, Cli};
use crate::exit::{CliError, EXIT_OK, EXIT_OTHER};
use std::sync::Arc;

/// `colony help mcp`.
pub const HELP: &str = "\n  Serves MCP over stdio (what Claude Code, Claude Desktop and Cursor start), or with\n  \
     --http PORT over Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only; PORT 0 picks a\n  \
     free port, printed on stderr). With a token configured (--token, COLONY_TOKEN, auth_token),\n  \
     HTTP clients must send Authorization: Bearer <token>, and the token goes to colonyd too.\n  \
     Tools: one per route an agent may use plus colony_overview, map, build, advance and\n  \
     wait_for_events; resources colony://summary, colony://map, colony://prefabs, colony://goal;\n  \
     the prompt play_turn. Tool list and examples: docs/mcp.md.\n  \
     Example: claude mcp add colony -- colony mcp\n";

/// Runs `colony mcp` and returns the exit code.
pub fn run(cli: &Cli) -> Result<i32, CliError> {
    let mut http_port = None;
    for a in &cli.args {
        match a {
            Arg::Named(k, Some(v)) if k == "http" => {
                http_port = Some(v.trim().parse::<u16>().map_err(|_| {
                    CliError::usage(format!("--http needs a port number 0-65535; got {v:?}"))
                })?);
            }
            Arg::Named(k, None) if k == "http" => {
                return Err(CliError::usage(
                    "--http needs a port number 0-65535 (0 picks a free one)",
                ));
            }
            a => {
                return Err(CliError::usage(format!(
                    "unknown argument {} for `mcp`; usage: colony mcp [--http PORT]",
                    crate::show_arg(a)
                )));
            }
        }
    }
    let settings = crate::settings(cli)?;
    let api = api::Api::new(&settings).map_err(|f| CliError::new(EXIT_OTHER, f.0))?;
    let ctx = Arc::new(tools::Ctx { api, settings });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::new(EXIT_OTHER, format!("cannot start the runtime: {e}")))?;
    let outcome = runtime.block_on(async move {
        match http_port {
            Some(port) => serve::http(ctx, port).await,
            None => serve::stdio(ctx).await,
        }
    });
    // A blocking stdin read may still be pending: do not wait for it.
    runtime.shutdown_background();
    match outcome {
        Ok(()) => Ok(EXIT_OK),
        Err(e) => Err(CliError::new(EXIT_OTHER, e)),
    }
}

//! `colony mcp`: an MCP (Model Context Protocol) server that hands every action of the colony to
//! an LLM agent as a tool, typed from the route catalogue, with composite tools, resources and
//! a prompt. It speaks to colonyd over HTTP with the client's settings (flags, `COLONY_*`,
//! config file) and serves MCP over stdio, or over Streamable HTTP with `--http PORT`.
//! See docs/mcp.md.

mod admit;
mod advance;
mod answer;
pub(crate) mod api;
mod budget;
pub(crate) mod build;
mod catalog;
mod composite;
mod overview;
mod profile;
mod record;
mod resources;
pub(crate) mod schema;
mod serve;
mod server;
mod sessions;
mod tools;

use crate::args::{Arg, Cli};
use crate::exit::{CliError, EXIT_OK, EXIT_OTHER};
use std::sync::Arc;
use std::time::Duration;

/// `colony help mcp`.
pub const HELP: &str = "\n  Serves MCP over stdio (what Claude Code, Claude Desktop and Cursor start), or with\n  \
     --http PORT over Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only; PORT 0 picks a\n  \
     free port, printed on stderr). With a token configured (--token, COLONY_TOKEN, auth_token),\n  \
     HTTP clients must send Authorization: Bearer <token>, and the token goes to colonyd too.\n  \
     --tools core|all|NAME,NAME,... picks the tools listed: core (the default, 24: the composite\n  \
     tools and what a turn needs), all (66), or the names given (core among them adds core).\n  \
     --record FILE appends one JSON line per tool call to FILE (tool, arguments, isError,\n  \
     chars, ms; what colony eval puts in its trajectory).\n  \
     --max-sessions N (100) caps the HTTP sessions (a new one closes the least recently used\n  \
     without a request in progress); --session-idle SECONDS (1800) closes an unused session.\n  \
     Tools: one per route an agent may use plus colony_overview, map, build, advance and\n  \
     wait_for_events; resources colony://summary, colony://map, colony://prefabs, colony://goal;\n  \
     the prompt play_turn. Tool list and examples: docs/mcp.md.\n  \
     Example: claude mcp add colony -- colony mcp\n";

/// The most sessions `--max-sessions` may allow, and the longest `--session-idle`.
const MAX_SESSIONS: usize = 100_000;
const MAX_IDLE_SECONDS: u64 = 7 * 24 * 3600;

/// A whole number in `min..=max` for `--flag`.
fn number(flag: &str, v: &str, min: u64, max: u64) -> Result<u64, CliError> {
    v.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            CliError::usage(format!(
                "--{flag} needs a whole number {min}-{max}; got {v:?}"
            ))
        })
}

/// Checks a `--tools` value (for `colony eval --tools`): the error names the valid tools.
pub fn check_tools(spec: &str) -> Result<(), String> {
    profile::Profile::parse(spec, &tools::names()).map(|_| ())
}

/// Runs `colony mcp` and returns the exit code.
pub fn run(cli: &Cli) -> Result<i32, CliError> {
    let mut http_port = None;
    let mut limits = sessions::Limits::default();
    let mut session_flag = None;
    let mut tools_spec = "core".to_owned();
    let mut record = None;
    for a in &cli.args {
        match a {
            Arg::Named(k, Some(v)) if k == "tools" => tools_spec = v.clone(),
            Arg::Named(k, None) if k == "tools" => {
                return Err(CliError::usage(
                    "--tools needs core, all, or tool names separated by commas",
                ));
            }
            Arg::Named(k, Some(v)) if k == "record" && !v.is_empty() => {
                record = Some(record::Recorder::new(v.into()));
            }
            Arg::Named(k, _) if k == "record" => {
                return Err(CliError::usage(
                    "--record needs a file to append one JSON line per tool call to",
                ));
            }
            Arg::Named(k, Some(v)) if k == "max-sessions" => {
                limits.max = number(k, v, 1, MAX_SESSIONS as u64)? as usize;
                session_flag = Some(k);
            }
            Arg::Named(k, Some(v)) if k == "session-idle" => {
                limits.idle = Duration::from_secs(number(k, v, 1, MAX_IDLE_SECONDS)?);
                session_flag = Some(k);
            }
            Arg::Named(k, None) if k == "max-sessions" || k == "session-idle" => {
                return Err(CliError::usage(format!("--{k} needs a number")));
            }
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
                    "unknown argument {} for `mcp`; usage: colony mcp [--tools core|all|NAME,...] \
                     [--record FILE] [--http PORT [--max-sessions N] [--session-idle SECONDS]]",
                    crate::show_arg(a)
                )));
            }
        }
    }
    if let (None, Some(flag)) = (http_port, session_flag) {
        return Err(CliError::usage(format!(
            "--{flag} applies to MCP over HTTP: give --http PORT too"
        )));
    }
    let profile = profile::Profile::parse(&tools_spec, &tools::names()).map_err(CliError::usage)?;
    let settings = crate::settings(cli)?;
    let api = api::Api::new(&settings).map_err(|f| CliError::new(EXIT_OTHER, f.message))?;
    let ctx = Arc::new(tools::Ctx {
        api,
        settings,
        profile,
        record,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::new(EXIT_OTHER, format!("cannot start the runtime: {e}")))?;
    let outcome = runtime.block_on(async move {
        match http_port {
            Some(port) => serve::http(ctx, port, limits).await,
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

//! `colony mcp` end to end, driven by a real MCP client we did not write: the official MCP Python
//! SDK (pinned in `tests/mcp/requirements.txt`, installed into a virtualenv under the Cargo
//! target folder on first use) runs `tests/mcp/play.py` against the real `colony mcp` and a real
//! colonyd, over stdio and over Streamable HTTP with the service's token. The scripts are kept
//! ruff-clean by a test here too.

use crate::support::{Server, colony, colonyd_bin, free_port};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp")
}

/// The virtualenv with the pinned requirements, created (or brought up to date) once.
fn venv() -> PathBuf {
    static READY: Mutex<bool> = Mutex::new(false);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-venv");
    let mut ready = READY.lock().unwrap_or_else(|e| e.into_inner());
    if *ready {
        return dir;
    }
    let wanted = std::fs::read_to_string(scripts().join("requirements.txt")).unwrap();
    let stamp = dir.join("requirements.installed");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        let _ = std::fs::remove_dir_all(&dir);
        run_ok(Command::new("python3").arg("-m").arg("venv").arg(&dir));
        run_ok(
            Command::new(dir.join("bin/pip"))
                .args(["install", "-q", "--disable-pip-version-check", "-r"])
                .arg(scripts().join("requirements.txt")),
        );
        std::fs::write(&stamp, &wanted).unwrap();
    }
    *ready = true;
    dir
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// One of tests/mcp's scripts in the SDK's virtualenv, pointed at `server`, with `home` as the
/// HOME of the `colony mcp` it starts (which must not read a real user's settings).
fn sdk_script(script: &str, server: &Server, home: &Path) -> Command {
    let mut cmd = Command::new(venv().join("bin/python"));
    cmd.arg(scripts().join(script))
        .arg("--colony")
        .arg(env!("CARGO_BIN_EXE_colony"))
        .args(["--port", &server.http_port.to_string()])
        .args(["--ws-port", &server.ws_port.to_string()]);
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("COLONY_") {
            cmd.env_remove(&k);
        }
    }
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"));
    cmd
}

/// Runs play.py with `args` and checks that every check passed.
fn play(server: &Server, extra: &[&str]) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = sdk_script("play.py", server, home.path());
    cmd.args(extra);
    if let Some(t) = &server.token {
        cmd.args(["--token", t]);
    }
    let out = run_ok(&mut cmd);
    let last = out
        .lines()
        .rev()
        .find(|l| l.contains(" passed, "))
        .unwrap_or("");
    assert!(last.ends_with(" 0 failed"), "{out}");
    println!("{out}");
}

#[test]
fn the_python_sdk_plays_through_stdio() {
    let server = Server::start();
    play(&server, &[]);
}

/// A `colony mcp --http 0` child; killed on drop.
pub struct McpHttp {
    child: Child,
    pub url: String,
}

impl McpHttp {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for McpHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn mcp_http(server: &Server, home: &Path) -> McpHttp {
    mcp_http_with(server, home, &[])
}

/// `colony mcp --http 0 EXTRA...` against `server`, once it listens.
pub fn mcp_http_with(server: &Server, home: &Path, extra: &[&str]) -> McpHttp {
    let mut child = server
        .colony(home)
        .args(["mcp", "--http", "0"])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It prints its address on stderr once it listens.
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
                let _ = tx.send(url.trim_end_matches(',').to_owned());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("colony mcp --http printed its address");
    McpHttp { child, url }
}

#[test]
fn the_python_sdk_plays_through_streamable_http_with_the_token() {
    let server = Server::start_with(json!({"authToken": "mcp-s3cret"}));
    let home = tempfile::tempdir().unwrap();
    let mcp = mcp_http_with(&server, home.path(), &["--tools", "all"]);
    assert!(mcp.url.starts_with("http://127.0.0.1:"), "{}", mcp.url);
    play(&server, &["--url", &mcp.url]);
}

/// Without a token configured, an HTTP client needs no header (loopback only); a web page's
/// request (an Origin header) is still refused.
#[test]
fn mcp_http_without_a_token_needs_no_header_and_refuses_web_pages() {
    let server = Server::start();
    let home = tempfile::tempdir().unwrap();
    let mcp = mcp_http(&server, home.path());
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1"}}});
    let http = reqwest::blocking::Client::new();
    let post = |origin: Option<&str>| {
        let mut rb = http
            .post(&mcp.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(initialize.to_string());
        if let Some(o) = origin {
            rb = rb.header("origin", o);
        }
        rb.send().unwrap()
    };
    let ok = post(None);
    assert_eq!(ok.status(), 200);
    assert!(ok.text().unwrap().contains("\"serverInfo\""));
    assert_eq!(post(Some("http://evil.example")).status(), 403);
}

/// `--tools`: `core` (the default) lists at most 25 tools and its prompt names only them, the
/// first 40 tools of `all` hold every tool the prompt names, a comma list gives exactly its
/// tools and refuses the others (tests/mcp/profiles.py, which prints the tools/list sizes).
#[test]
fn the_python_sdk_sees_the_tool_profiles() {
    let server = Server::start();
    let home = tempfile::tempdir().unwrap();
    let out = run_ok(&mut sdk_script("profiles.py", &server, home.path()));
    assert!(out.trim_end().ends_with(" 0 failed"), "{out}");
    println!("{out}");
}

/// An unknown tool name is refused at start-up, by `colony mcp` and by `colony eval`, with the
/// valid names.
#[test]
fn unknown_tool_names_are_refused_at_start_up() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["mcp", "--tools", "get_time,teleport"][..],
        &["mcp", "--http", "0", "--tools=teleport"][..],
        &[
            "eval",
            "--scenario",
            "survive-60",
            "--agent",
            "true",
            "--tools",
            "teleport",
        ][..],
    ] {
        let out = colony(home.path()).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("--tools: unknown tool teleport;"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("Tools: colony_overview, map, build, advance, wait_for_events"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn mcp_http_refuses_a_busy_port_and_bad_flags() {
    let home = tempfile::tempdir().unwrap();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let start = Instant::now();
    let out = colony(home.path())
        .args(["--port", &free_port().to_string(), "mcp", "--http", &port])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on 127.0.0.1:"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(20));
    let out = colony(home.path())
        .args(["mcp", "--http", "eighty"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--http needs a port number"));
    for (args, needle) in [
        (
            &["mcp", "--http", "0", "--max-sessions", "0"][..],
            "--max-sessions needs a whole number 1-100000",
        ),
        (
            &["mcp", "--http", "0", "--session-idle", "soon"][..],
            "--session-idle needs a whole number 1-604800",
        ),
        (
            &["mcp", "--session-idle", "60"][..],
            "applies to MCP over HTTP",
        ),
    ] {
        let out = colony(home.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `colony eval` hands an agent the episode's MCP server: the agent starts it from
/// COLONY_MCP_COMMAND (checked against COLONY_MCP_CONFIG) with the SDK, builds through it (the
/// proxy records the calls), and the harness refuses its advance.
#[test]
fn an_eval_agent_plays_through_the_episode_s_mcp_server() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mcp-short.toml");
    std::fs::write(
        &scenario,
        r#"
id = "mcp-short"
title = "One day through MCP"
goal = "Build a water pump."
horizon_days = 1
turn_hours = 12
[game]
faction = "Folktails"
mode = "Normal"
map = 64
seeds = [7]
[[score]]
metric = "days_survived"
weight = 1
target = 1
"#,
    )
    .unwrap();
    let agent = format!(
        "'{}' '{}'",
        venv().join("bin/python").display(),
        scripts().join("eval_agent.py").display()
    );
    let out = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_colony"))
        .arg("eval")
        .arg("--scenario")
        .arg(&scenario)
        .args(["--agent", &agent, "--out"])
        .arg(&out)
        .arg("--colonyd")
        .arg(colonyd_bin())
        .output()
        .unwrap();
    let episode = out.join("episodes/mcp-short-s7");
    let log = std::fs::read_to_string(episode.join("agent.log")).unwrap_or_default();
    assert!(
        o.status.success(),
        "{}\n{log}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(log.contains("placed WaterPump.Folktails"), "{log}");
    assert!(log.contains("advance: refused disabled: "), "{log}");
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(episode.join("mcp.json")).unwrap()).unwrap();
    assert_eq!(config["mcpServers"]["colony"]["args"][0], "mcp");
    let args = config["mcpServers"]["colony"]["args"].to_string();
    assert!(args.ends_with(r#""--tools","core"]"#), "{args}");
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(episode.join("trajectory.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let requests = first["requests"].as_array().unwrap();
    let sent = |method: &str, path: &str| {
        requests
            .iter()
            .any(|q| q["method"] == method && q["path"].as_str().unwrap_or("").starts_with(path))
    };
    assert!(sent("POST", "/api/building/place"), "{requests:?}");
    assert!(sent("POST", "/api/path/place"), "{requests:?}");
    assert!(sent("POST", "/api/agent/message"), "{requests:?}");
    let advance = requests
        .iter()
        .find(|q| {
            q["path"]
                .as_str()
                .unwrap_or("")
                .starts_with("/api/game/advance")
        })
        .expect("the advance went through the proxy");
    assert_eq!(advance["error"], "disabled");
    // Each MCP tool call is in the turn's trajectory, beside the requests it caused.
    let calls = first["toolCalls"].as_array().expect("toolCalls");
    let named: Vec<(&str, bool)> = calls
        .iter()
        .map(|c| (c["tool"].as_str().unwrap(), c["isError"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        named,
        [
            ("colony_overview", false),
            ("find_placement", false),
            ("place_building", false),
            ("place_path", false),
            ("advance", true),
            ("log_message", false),
        ],
        "{calls:?}"
    );
    assert_eq!(calls[4]["arguments"], serde_json::json!({"days": 1}));
    assert_eq!(
        calls[5]["arguments"]["message"],
        "built a water pump and its path"
    );
    assert!(
        calls
            .iter()
            .all(|c| c["chars"].as_u64().unwrap() > 0 && c["ms"].is_number())
    );
    assert!(args.contains(r#""--record""#), "{args}");
    // The second turn made no call: no toolCalls there.
    let second: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(episode.join("trajectory.jsonl"))
            .unwrap()
            .lines()
            .nth(1)
            .unwrap(),
    )
    .unwrap();
    assert!(second.get("toolCalls").is_none(), "{second}");
}

#[test]
fn the_python_scripts_are_ruff_clean() {
    let ruff = venv().join("bin/ruff");
    let config = scripts().join("ruff.toml");
    run_ok(
        Command::new(&ruff)
            .arg("check")
            .arg("--config")
            .arg(&config)
            .arg(scripts()),
    );
    run_ok(
        Command::new(&ruff)
            .args(["format", "--check", "--config"])
            .arg(&config)
            .arg(scripts()),
    );
}

//! Running the agent for one turn, as the connector hands prompts: `sh -c COMMAND` with the
//! prompt on stdin and in `COLONY_PROMPT`, the service's address in `COLONY_HOST`/`COLONY_PORT`
//! and `COLONY_WS_PORT` (both the recording proxy's), and the turn in `COLONY_*` variables. The
//! command runs in the agent's notes folder (`COLONY_AGENT_STATE_DIR`) under a guard
//! (`guard`) that kills everything it started when it exits or its time is up. An agent driven
//! through MCP gets the command that starts `colony mcp` against the same proxy in
//! `COLONY_MCP_COMMAND`, and an `mcpServers` file with it in `COLONY_MCP_CONFIG`. The other
//! agent mode, one process per episode taking its turns on stdin, is `persistent`.

use crate::guard;
use serde::Serialize;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How the agent command runs (`--agent-mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentMode {
    /// Once per turn: the prompt on stdin, the turn ends when the process exits.
    #[default]
    PerTurn,
    /// Once per episode: one JSON line per turn on stdin, one reply line per turn on stdout.
    Persistent,
}

impl AgentMode {
    /// The mode's name, as the flag, `COLONY_AGENT_MODE` and results.json spell it.
    pub fn name(self) -> &'static str {
        match self {
            AgentMode::PerTurn => "per-turn",
            AgentMode::Persistent => "persistent",
        }
    }
}

/// What the harness tells the agent about a turn.
pub struct TurnEnv<'a> {
    pub prompt: &'a str,
    pub goal: &'a str,
    pub scenario: &'a str,
    pub episode: &'a str,
    pub turn: u32,
    pub turns: u32,
    pub day: u32,
    pub days_left: f64,
    pub turn_hours: f64,
    pub proxy_port: u16,
    pub ws_port: u16,
    /// A folder the agent may keep notes in between its turns.
    pub state_dir: &'a Path,
    /// The episode's `mcpServers` file (see [`mcp_config`]).
    pub mcp_config: &'a Path,
    /// The command that starts that server (`COLONY_MCP_COMMAND`: [`mcp_argv`] joined by
    /// [`shell_join`], made once per episode).
    pub mcp_command: &'a str,
    /// The folder `colony eval` was started in (`COLONY_EVAL_LAUNCH_DIR`).
    pub launch_dir: &'a Path,
}

/// This executable, for the guards it starts: `/proc/self/exe` where there is one (the forked
/// child execs the harness's own running image, even when its file was replaced meanwhile, a
/// `cargo build` during a run: every later turn failed to start before), elsewhere the path it
/// was started from.
fn own_exe() -> Option<std::path::PathBuf> {
    let proc_exe = Path::new("/proc/self/exe");
    if proc_exe.exists() {
        return Some(proc_exe.to_owned());
    }
    std::env::current_exe().ok()
}

/// The command line that starts the MCP server of an episode: `colony mcp --record FILE --tools
/// TOOLS` (this executable, which `colony eval` is) against the recording proxy and colonyd's
/// WebSocket; each tool call is appended to `record`.
pub fn mcp_argv(proxy_port: u16, ws_port: u16, tools: &str, record: &Path) -> Vec<String> {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "colony".into());
    [
        exe.as_str(),
        "mcp",
        "--host",
        "127.0.0.1",
        "--port",
        &proxy_port.to_string(),
        "--ws-port",
        &ws_port.to_string(),
        "--record",
        &record.display().to_string(),
        "--tools",
        tools,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The `mcpServers` configuration (Claude Code's `--mcp-config`, Claude Desktop, Cursor) that
/// starts `argv` as the server `colony`.
pub fn mcp_config(argv: &[String]) -> serde_json::Value {
    serde_json::json!({
        "mcpServers": {"colony": {"command": argv[0], "args": &argv[1..]}}
    })
}

/// Words as one `sh` command line, each quoted when it holds anything but safe characters.
pub fn shell_join(argv: &[String]) -> String {
    argv.iter()
        .map(|w| {
            let safe = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@".contains(c));
            if safe {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a turn's process ended.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TurnRun {
    /// Exit code (None when killed or ended by a signal).
    pub exit: Option<i32>,
    pub seconds: f64,
    pub timed_out: bool,
    /// The agent could not be started, or exited non-zero (persistent mode: exited during the
    /// turn, or replied that it failed).
    pub failed: bool,
    /// Persistent mode only: whether the agent's process was started for this turn (the first
    /// turn, and the turn after one whose process timed out or exited).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
}

/// The agent command as it runs from its notes folder: when the command is plain words (no shell
/// operators, substitutions or globs), each word that names an existing file or folder relative
/// to `launch` is made absolute, so `python3 agents/scripted.py` works from anywhere; any other
/// command is kept as given (its relative paths then resolve in the notes folder).
pub fn resolve_command(command: &str, launch: &Path) -> String {
    const SHELL: &[char] = &[
        '|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[', ']', '{', '}', '~', '\n', '#',
    ];
    let Some(words) = shlex::split(command) else {
        return command.to_owned();
    };
    if words.is_empty() || words.iter().any(|w| w.contains(SHELL)) {
        return command.to_owned();
    }
    let words: Vec<String> = words
        .into_iter()
        .map(|w| {
            let p = Path::new(&w);
            if !w.starts_with('-') && p.is_relative() && launch.join(p).exists() {
                launch.join(p).display().to_string()
            } else {
                w
            }
        })
        .collect();
    shell_join(&words)
}

/// The guard command that runs the agent (`colony eval __turn-guard MS COMMAND`, see `guard`)
/// for at most `limit`, in the notes folder, in its own process group, with the turn's
/// environment (`mode`: `COLONY_AGENT_MODE`). `None` when this executable cannot be found.
pub fn guarded_command(
    command: &str,
    env: &TurnEnv<'_>,
    limit: Duration,
    mode: &str,
) -> Option<Command> {
    // PATH gains the folder of this executable, so the agent can call `colony` itself.
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        let mut p = std::env::join_paths([dir]).unwrap_or_default();
        p.push(":");
        p.push(&path);
        path = p;
    }
    let me = own_exe()?;
    let limit_ms = limit.as_millis().to_string();
    let mut cmd = Command::new(me);
    cmd.args(["eval", guard::ARG, &limit_ms, command])
        .env("PATH", path)
        .env("COLONY_AGENT_MODE", mode)
        .env("COLONY_PROMPT", env.prompt)
        .env("COLONY_GOAL", env.goal)
        .env("COLONY_MODE", "eval")
        .env("COLONY_REQUEST_ID", env.turn.to_string())
        .env("COLONY_EPOCH", env.episode)
        .env("COLONY_HOST", "127.0.0.1")
        .env("COLONY_PORT", env.proxy_port.to_string())
        .env("COLONY_WS_PORT", env.ws_port.to_string())
        .env_remove("COLONY_TOKEN")
        .env_remove("COLONY_CONFIG")
        .env("COLONY_SCENARIO", env.scenario)
        .env("COLONY_EPISODE", env.episode)
        .env("COLONY_TURN", env.turn.to_string())
        .env("COLONY_TURNS", env.turns.to_string())
        .env("COLONY_DAY", env.day.to_string())
        .env("COLONY_DAYS_LEFT", format!("{:.2}", env.days_left))
        .env("COLONY_TURN_HOURS", env.turn_hours.to_string())
        .env("COLONY_AGENT_STATE_DIR", env.state_dir)
        .env("COLONY_MCP_COMMAND", env.mcp_command)
        .env("COLONY_MCP_CONFIG", env.mcp_config)
        .env("COLONY_EVAL_LAUNCH_DIR", env.launch_dir)
        .current_dir(env.state_dir)
        .process_group(0);
    // A harness killed mid-turn: the guard's SIGTERM ends the agent and all it started.
    guard::die_with_harness(&mut cmd, libc::SIGTERM);
    Some(cmd)
}

/// Runs the agent command once, under a guard; its stdout and stderr are appended to `log`.
pub fn run_turn(command: &str, env: &TurnEnv<'_>, timeout: Duration, log: &Path) -> TurnRun {
    let start = Instant::now();
    let open = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
    };
    if let Ok(mut f) = open() {
        let _ = writeln!(f, "--- turn {} (day {}) ---", env.turn, env.day);
    }
    let (Ok(out), Ok(err)) = (open(), open()) else {
        return failed(start);
    };
    let Some(mut cmd) = guarded_command(command, env, timeout, "per-turn") else {
        return failed(start);
    };
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err));
    let Ok(mut child) = guard::spawn_known(&mut cmd) else {
        return failed(start);
    };
    if let Some(mut stdin) = child.stdin.take() {
        // An agent that ignores stdin may close it early; that is fine.
        let _ = stdin.write_all(env.prompt.as_bytes());
    }
    // The guard ends the turn at the time limit; this is the backstop should it not (an agent
    // that killed its guard): the guard is killed, and what it leaves is swept.
    let backstop = timeout + Duration::from_secs(10);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= backstop => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => break None,
        }
    };
    guard::forget(child.id());
    guard::sweep();
    let code = status.and_then(|s| s.code());
    let timed_out =
        status.is_none() || (code == Some(guard::TIMED_OUT) && start.elapsed() >= timeout);
    if timed_out && let Ok(mut f) = open() {
        let _ = writeln!(
            f,
            "--- turn {} cut off after {} s ---",
            env.turn,
            timeout.as_secs_f64()
        );
    }
    TurnRun {
        exit: if timed_out { None } else { code },
        seconds: secs(start),
        timed_out,
        failed: timed_out || code != Some(0),
        started: None,
    }
}

pub(crate) fn secs(start: Instant) -> f64 {
    (start.elapsed().as_secs_f64() * 1000.0).round() / 1000.0
}

fn failed(start: Instant) -> TurnRun {
    TurnRun {
        exit: None,
        seconds: secs(start),
        timed_out: false,
        failed: true,
        started: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mcp_command_points_at_the_proxy_and_quotes_what_sh_would_split() {
        let argv = mcp_argv(4100, 4101, "core", Path::new("/ep/mcp-calls.jsonl"));
        assert_eq!(&argv[1..4], ["mcp", "--host", "127.0.0.1"]);
        assert_eq!(
            &argv[4..],
            [
                "--port",
                "4100",
                "--ws-port",
                "4101",
                "--record",
                "/ep/mcp-calls.jsonl",
                "--tools",
                "core"
            ]
        );
        let words: Vec<String> = ["/opt/my colony/colony", "mcp", "it's"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            shell_join(&words),
            r#"'/opt/my colony/colony' mcp 'it'\''s'"#
        );
        let config = mcp_config(&argv);
        assert_eq!(config["mcpServers"]["colony"]["args"][0], "mcp");
        assert_eq!(config["mcpServers"]["colony"]["command"], argv[0]);
    }

    #[test]
    fn plain_commands_get_absolute_paths_and_shell_commands_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("agents")).unwrap();
        std::fs::write(dir.path().join("agents/a.py"), "").unwrap();
        let abs = dir.path().join("agents/a.py").display().to_string();
        assert_eq!(
            resolve_command("python3 agents/a.py --fast", dir.path()),
            shell_join(&["python3".into(), abs, "--fast".into()])
        );
        let shell = "python3 agents/a.py && echo done";
        assert_eq!(resolve_command(shell, dir.path()), shell);
        assert_eq!(resolve_command("true", dir.path()), "true");
    }
}

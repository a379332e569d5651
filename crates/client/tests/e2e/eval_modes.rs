//! Usage reporting in `colony eval`, end to end: small Python agents (standard library only)
//! play the two-day scenario of `eval` (four half-day turns) against real colonyd; a per-turn
//! agent reports usage in `usage.json`, and bad reports are ignored while the episode goes on.

use crate::eval::{agent, eval, lines, results, scenario};
use serde_json::{Value, json};
use std::path::Path;

/// Plays one episode of the two-day scenario on seed 7 with `agent_py` (persistent unless
/// `per_turn`); returns the results, the trajectory and the episode's folder.
fn play(
    dir: &Path,
    agent_py: &str,
    per_turn: bool,
    extra: &[&str],
) -> (Value, Vec<Value>, std::path::PathBuf) {
    let sc = scenario(dir, "");
    let cmd = agent(dir, "agent.py", agent_py);
    let out = dir.join("out");
    let mut args = vec![
        "--scenario",
        &sc,
        "--agent",
        &cmd,
        "--seeds",
        "7",
        "--quiet",
    ];
    if !per_turn {
        args.extend(["--agent-mode", "persistent"]);
    }
    args.extend(extra);
    let o = eval(&args, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ep = out.join("episodes/test-short-s7");
    (results(&out), lines(&ep.join("trajectory.jsonl")), ep)
}

#[test]
fn a_per_turn_agent_reports_usage_in_a_file_and_bad_reports_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    // Turns 1 and 2 report, turn 3 reports a negative count, turn 4 something that is not JSON.
    let agent_py = r#"
import json, os, sys
sys.stdin.read()
n = int(os.environ["COLONY_TURN"])
path = os.path.join(os.environ["COLONY_AGENT_STATE_DIR"], "usage.json")
assert not os.path.exists(path), "the harness deletes the file after each turn"
reports = {1: {"model": "m", "promptTokens": 5, "completionTokens": 1, "cost": 0.25},
           2: {"model": "m", "promptTokens": 7, "cost": 0.5},
           3: {"promptTokens": -1}}
with open(path, "w") as f:
    f.write(json.dumps(reports[n]) if n in reports else "{not json")
"#;
    let (r, traj, ep) = play(dir.path(), agent_py, true, &[]);
    assert_eq!(r["harness"]["agentMode"], "per-turn");
    let e = &r["episodes"][0];
    assert_eq!(e["status"], "ok", "{e}");
    assert_eq!(e["agentFailures"], 0, "{e}");
    assert!(e.get("agentProcesses").is_none(), "{e}");
    assert_eq!(
        e["agentUsage"],
        json!({"model": "m", "promptTokens": 12, "completionTokens": 1, "cost": 0.75})
    );
    assert_eq!(traj[0]["agentUsage"]["cost"], 0.25);
    assert_eq!(traj[1]["agentUsage"]["promptTokens"], 7);
    assert!(traj[2].get("agentUsage").is_none(), "{}", traj[2]);
    assert!(traj[3].get("agentUsage").is_none(), "{}", traj[3]);
    assert!(
        traj[0]["agent"].get("started").is_none(),
        "per-turn records are as before"
    );
    assert!(!ep.join("agent-state/usage.json").exists());
    let log = std::fs::read_to_string(ep.join("agent.log")).unwrap();
    assert!(
        log.contains("usage.json ignored: `promptTokens` must be a whole number >= 0"),
        "{log}"
    );
    assert!(log.contains("usage.json ignored: not JSON"), "{log}");
}

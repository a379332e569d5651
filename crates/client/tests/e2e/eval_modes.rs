//! `colony eval --agent-mode persistent` and usage reporting, end to end: small Python agents
//! (standard library only) play the two-day scenario of `eval` (four half-day turns) against real
//! colonyd. A persistent agent plays every turn in one process and reports usage on its reply
//! lines; a per-turn agent reports usage in `usage.json`; persistent agents that hang on a turn,
//! exit in the middle of the episode, or send garbage usage are timed out, restarted, failed or
//! ignored while the episode goes on.

use crate::eval::{agent, eval, lines, results, scenario};
use crate::support::running;
use serde_json::{Value, json};
use std::path::Path;

/// A persistent agent: for each turn line it appends what it saw to `turns.jsonl` in its notes
/// folder (its pid, the line, its environment), prints a line to stdout and to stderr, then runs
/// `act` (Python, with `n` the turn and `t` the line; it replies itself).
fn persistent_agent(act: &str) -> String {
    let act: String = act.lines().map(|l| format!("    {l}\n")).collect();
    format!(
        r#"
import json, os, sys, time, subprocess, urllib.request
base = f"http://{{os.environ['COLONY_HOST']}}:{{os.environ['COLONY_PORT']}}"
state = os.environ["COLONY_AGENT_STATE_DIR"]
def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=10) as r:
            return r.read().decode()
    except Exception as e:
        return f"failed: {{e}}"
def note(rec):
    with open(os.path.join(state, "turns.jsonl"), "a") as f:
        f.write(json.dumps(rec) + "\n")
def reply(obj):
    print(json.dumps(obj), flush=True)
for line in sys.stdin:
    t = json.loads(line)
    n = t["turn"]
    note({{"pid": os.getpid(), "line": t, "envTurn": os.environ["COLONY_TURN"],
          "mode": os.environ.get("COLONY_AGENT_MODE"), "read": get("/api/summary?format=json")[:20]}})
    print(f"thinking about turn {{n}}", flush=True)
    print(f"stderr of turn {{n}}", file=sys.stderr, flush=True)
{act}"#
    )
}

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

/// What the agent noted each turn.
fn noted(ep: &Path) -> Vec<Value> {
    lines(&ep.join("agent-state/turns.jsonl"))
}

#[test]
fn a_persistent_agent_plays_every_turn_in_one_process_and_its_usage_is_summed() {
    let dir = tempfile::tempdir().unwrap();
    // Usage on every reply (two models); on the last turn, a request after the reply, which the
    // proxy refuses: the turn is over.
    let act = r#"
reply({"done": True, "turn": n, "usage": {"model": "m-b" if n % 2 else "m-a", "promptTokens": 100 * n, "completionTokens": 10, "cost": 0.01}})
if n == t["turns"]:
    time.sleep(0.5)
    note({"after": get("/api/summary?format=json")})
"#;
    let (r, traj, ep) = play(dir.path(), &persistent_agent(act), false, &[]);
    assert_eq!(r["harness"]["agentMode"], "persistent");
    let e = &r["episodes"][0];
    assert_eq!(e["status"], "ok", "{e}");
    assert_eq!(e["turns"], 4, "{e}");
    assert_eq!(e["agentProcesses"], 1, "{e}");
    assert_eq!(
        (&e["timeouts"], &e["agentFailures"]),
        (&json!(0), &json!(0))
    );
    let want =
        json!({"model": "m-a,m-b", "promptTokens": 1000, "completionTokens": 40, "cost": 0.04});
    assert_eq!(e["agentUsage"], want, "{e}");
    assert_eq!(r["agentUsage"], want, "the run's sum");

    let notes = noted(&ep);
    let turns: Vec<&Value> = notes.iter().filter(|n| n.get("pid").is_some()).collect();
    assert_eq!(turns.len(), 4, "{notes:?}");
    assert!(
        turns.iter().all(|n| n["pid"] == turns[0]["pid"]),
        "one process: {notes:?}"
    );
    for (i, n) in turns.iter().enumerate() {
        let line = &n["line"];
        assert_eq!(line["turn"], i + 1);
        assert_eq!(line["turns"], 4);
        assert_eq!(line["scenario"], "test-short");
        assert_eq!(line["episode"], "test-short-s7");
        assert_eq!(line["turnHours"], 12.0);
        assert!(line["day"].as_u64().unwrap() >= 1);
        assert!(line["daysLeft"].as_f64().unwrap() > 0.0);
        assert!(
            line["prompt"]
                .as_str()
                .unwrap()
                .contains("Build a water pump")
        );
        assert_eq!(n["mode"], "persistent");
        assert_eq!(
            n["envTurn"], "1",
            "the environment is set once, at the start"
        );
        assert!(n["read"].as_str().unwrap().starts_with('{'), "{n}");
    }
    let after = notes.iter().find_map(|n| n.get("after")).unwrap();
    assert!(
        after
            .as_str()
            .unwrap()
            .contains("disabled: the agent's turn is over"),
        "{after}"
    );

    for (i, t) in traj.iter().enumerate() {
        assert_eq!(t["agent"]["started"], i == 0, "{t}");
        assert_eq!(t["agent"]["failed"], false, "{t}");
        assert_eq!(t["agentUsage"]["promptTokens"], 100 * (i + 1), "{t}");
        assert_eq!(t["requests"][0]["path"], "/api/summary?format=json", "{t}");
    }
    let log = std::fs::read_to_string(ep.join("agent.log")).unwrap();
    assert!(log.contains("thinking about turn 3\n"), "{log}");
    assert!(log.contains("stderr of turn 3\n"), "{log}");
    assert!(
        !log.contains("\"done\""),
        "reply lines stay out of the log: {log}"
    );
    assert_eq!(log.matches("agent started").count(), 1, "{log}");
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

#[test]
fn garbage_usage_on_reply_lines_is_ignored_and_a_failed_reply_fails_its_turn() {
    let dir = tempfile::tempdir().unwrap();
    let act = r#"
if n == 1:
    reply({"done": True, "usage": "lots"})
elif n == 2:
    reply({"done": True, "usage": {"cost": -1, "promptTokens": 5}})
elif n == 3:
    reply({"done": True, "turn": 99})
    reply({"done": False, "turn": 3, "usage": {"promptTokens": 7}})
else:
    print('{"done": true, "usage": {"model": 5}} and more', flush=True)
    reply({"done": True, "usage": {"model": 5}})
"#;
    let (r, traj, ep) = play(dir.path(), &persistent_agent(act), false, &[]);
    let e = &r["episodes"][0];
    assert_eq!(e["turns"], 4, "{e}");
    assert_eq!(e["agentProcesses"], 1, "{e}");
    assert_eq!(e["agentFailures"], 1, "the reply done: false: {e}");
    assert_eq!(e["agentUsage"], json!({"promptTokens": 7}), "{e}");
    assert_eq!(traj[2]["agent"]["failed"], true);
    assert_eq!(traj[2]["agent"]["timedOut"], false);
    assert!(traj[0].get("agentUsage").is_none());
    assert!(traj[3].get("agentUsage").is_none());
    let log = std::fs::read_to_string(ep.join("agent.log")).unwrap();
    for want in [
        "the reply's usage ignored: usage must be a JSON object",
        "the reply's usage ignored: `cost` must be a number >= 0",
        "a reply for turn 99 ignored during turn 3",
        "turn 3: the agent replied done: false",
        "the reply's usage ignored: `model` must be a string",
        "{\"done\": true, \"usage\": {\"model\": 5}} and more",
    ] {
        assert!(log.contains(want), "{want}: {log}");
    }
}

#[test]
fn a_persistent_agent_that_hangs_is_cut_off_with_its_children_and_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let act = r#"
if n == 2:
    child = subprocess.Popen(["sleep", "300"])
    note({"child": child.pid})
    time.sleep(300)
reply({"done": True, "turn": n})
"#;
    let (r, traj, ep) = play(
        dir.path(),
        &persistent_agent(act),
        false,
        &["--turn-timeout", "3"],
    );
    let e = &r["episodes"][0];
    assert_eq!(e["turns"], 4, "the episode goes on: {e}");
    assert_eq!(e["timeouts"], 1, "{e}");
    assert_eq!(e["agentFailures"], 1, "{e}");
    assert_eq!(e["agentProcesses"], 2, "{e}");
    assert_eq!(e["status"], "ok", "{e}");
    let t = &traj[1]["agent"];
    assert_eq!((&t["timedOut"], &t["failed"]), (&json!(true), &json!(true)));
    assert!(t["seconds"].as_f64().unwrap() < 10.0, "{t}");
    let started: Vec<bool> = traj
        .iter()
        .map(|t| t["agent"]["started"].as_bool().unwrap())
        .collect();
    assert_eq!(started, [true, false, true, false]);
    let notes = noted(&ep);
    let pids: Vec<&Value> = notes.iter().filter_map(|n| n.get("pid")).collect();
    assert_eq!(pids.len(), 4, "{notes:?}");
    assert!(
        pids[0] == pids[1] && pids[2] == pids[3] && pids[1] != pids[2],
        "{pids:?}"
    );
    let restarted = notes
        .iter()
        .filter(|n| n.get("pid").is_some())
        .nth(2)
        .unwrap();
    assert_eq!(
        restarted["envTurn"], "3",
        "the new process's environment: {restarted}"
    );
    let child = notes
        .iter()
        .find_map(|n| n.get("child"))
        .unwrap()
        .to_string();
    assert!(
        !running(&child),
        "the hung agent's child {child} was killed"
    );
    let log = std::fs::read_to_string(ep.join("agent.log")).unwrap();
    assert!(
        log.contains("turn 2 cut off after 3 s: agent stopped, a new one starts next turn"),
        "{log}"
    );
}

#[test]
fn a_persistent_agent_that_exits_fails_its_turn_and_is_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let act = r#"
if n == 2:
    sys.exit(5)
reply({"done": True, "turn": n})
"#;
    let (r, traj, ep) = play(dir.path(), &persistent_agent(act), false, &[]);
    let e = &r["episodes"][0];
    assert_eq!(e["turns"], 4, "{e}");
    assert_eq!(e["agentFailures"], 1, "{e}");
    assert_eq!(e["timeouts"], 0, "{e}");
    assert_eq!(e["agentProcesses"], 2, "{e}");
    let t = &traj[1]["agent"];
    assert_eq!(t["exit"], 5, "{t}");
    assert_eq!(
        (&t["timedOut"], &t["failed"]),
        (&json!(false), &json!(true))
    );
    assert_eq!(traj[2]["agent"]["started"], true);
    assert_eq!(traj[2]["agent"]["failed"], false);
    let pids: Vec<Value> = noted(&ep)
        .into_iter()
        .filter_map(|n| n.get("pid").cloned())
        .collect();
    assert!(
        pids[0] == pids[1] && pids[2] == pids[3] && pids[1] != pids[2],
        "{pids:?}"
    );
    let log = std::fs::read_to_string(ep.join("agent.log")).unwrap();
    assert!(
        log.contains("agent exited (exit code 5) during turn 2 without a reply"),
        "{log}"
    );
}

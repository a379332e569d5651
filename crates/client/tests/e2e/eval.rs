//! `colony eval` end to end: the real `colony` binary plays short scenarios against real colonyd
//! processes with small script agents (one that builds a pump, one that hangs, one that crashes),
//! in parallel, and twice for determinism; then results.json, the trajectories, the final saves
//! and report.html are checked.

use crate::support::colonyd_bin;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// A two-day scenario on a small map, half-day turns.
pub(crate) fn scenario(dir: &Path, extra: &str) -> String {
    let text = format!(
        r#"
id = "test-short"
title = "Two short days"
goal = "Build a water pump and live."
horizon_days = 2
turn_hours = 12
{extra}
[game]
faction = "Folktails"
mode = "Normal"
map = 64
seeds = [7, 8]

[[score]]
metric = "days_survived"
weight = 1
target = 2

[[score]]
metric = "built.WaterPump"
weight = 1
target = 1
"#
    );
    let path = dir.join("test-short.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// An agent script (Python, standard library only) written into `dir`.
pub(crate) fn agent(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("python3 {}", path.display())
}

/// Builds one water pump on its first turn (a marker file in its state folder remembers it).
const PUMP_AGENT: &str = r#"
import json, os, sys, urllib.request
sys.stdin.read()
base = f"http://{os.environ['COLONY_HOST']}:{os.environ['COLONY_PORT']}"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(), method=method)
    req.add_header("Content-Type", "application/json")
    return json.loads(urllib.request.urlopen(req).read())
marker = os.path.join(os.environ["COLONY_AGENT_STATE_DIR"], "built")
if not os.path.exists(marker):
    dc = [b for b in call("GET", "/api/buildings?limit=0&format=json") if b["name"].startswith("DistrictCenter")][0]
    box = {"x1": dc["x"] - 15, "y1": dc["y"] - 15, "x2": dc["x"] + 15, "y2": dc["y"] + 15}
    spots = call("POST", "/api/placement/find?format=json", {"prefab": "WaterPump.Folktails", **box})["placements"]
    s = [p for p in spots if p["reachable"]][0] if any(p["reachable"] for p in spots) else spots[0]
    r = call("POST", "/api/building/place", {"prefab": "WaterPump.Folktails", "x": s["x"], "y": s["y"], "z": s["z"], "orientation": s["orientation"]})
    print("placed", r)
    call("POST", "/api/game/advance", {"days": 5})  # refused by the harness: it owns time
    open(marker, "w").write("yes")
"#;

pub(crate) fn eval(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colony"))
        .arg("eval")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--colonyd")
        .arg(colonyd_bin())
        .output()
        .expect("run colony eval")
}

pub(crate) fn results(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

/// Removes the members that measure wall time (`wallSeconds`, `seconds`, `ms`), recursively.
fn drop_timings(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for k in ["wallSeconds", "seconds", "ms"] {
                m.remove(k);
            }
            m.values_mut().for_each(drop_timings);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_timings),
        _ => {}
    }
}

pub(crate) fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_pump_agent_plays_two_seeds_in_parallel_and_leaves_results_trajectories_saves_and_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(dir.path(), "");
    let cmd = agent(dir.path(), "pump.py", PUMP_AGENT);
    let out = dir.path().join("out");
    let o = eval(
        &["--scenario", &sc, "--agent", &cmd, "--parallel", "2"],
        &out,
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("[2/2]"), "progress lines: {stderr}");
    let r = results(&out);
    assert_eq!(r["episodesPlayed"], 2);
    let eps = r["episodes"].as_array().unwrap();
    for (e, seed) in eps.iter().zip([7, 8]) {
        assert_eq!(e["seed"], seed);
        assert_eq!(e["scenario"], "test-short");
        assert_eq!(e["turns"], 4, "2 days of 12-hour turns: {e}");
        assert!(e.get("error").is_none(), "{e}");
        // Full marks for the two days, and the pump term when the site was finished in time.
        let built = e["metrics"]["built.WaterPump"].as_f64().unwrap_or(0.0);
        assert_eq!(
            e["score"].as_f64().unwrap(),
            50.0 + 50.0 * built.min(1.0),
            "{e}"
        );
        // Reads, the find, the place and the refused advance were recorded.
        assert!(e["apiCalls"].as_u64().unwrap() >= 4, "{e}");
        assert!(
            e["apiErrors"].as_u64().unwrap() >= 1,
            "the refused advance: {e}"
        );
        assert_eq!(e["daysSurvived"], 2.0, "{e}");
        assert!(e["hazards"].is_array(), "hazard spells listed: {e}");
        let traj = lines(
            &out.join("episodes")
                .join(e["id"].as_str().unwrap())
                .join("trajectory.jsonl"),
        );
        assert_eq!(traj.len(), 4);
        assert!(
            traj[0]["prompt"]
                .as_str()
                .unwrap()
                .contains("Build a water pump")
        );
        let reqs = traj[0]["requests"].as_array().unwrap();
        assert!(reqs.iter().any(|q| q["method"] == "POST"
            && q["path"] == "/api/building/place"
            && q["status"] == 200));
        let refused = reqs
            .iter()
            .find(|q| q["path"] == "/api/game/advance")
            .unwrap();
        assert_eq!(refused["error"], "disabled");
        assert!(
            traj[1]["requests"].as_array().unwrap().is_empty(),
            "second turn does nothing"
        );
        assert_eq!(
            traj[3]["row"]["day"], 3,
            "after 48 hours from hour 4 of day 1 it is day 3"
        );
        let save = out
            .join("episodes")
            .join(e["id"].as_str().unwrap())
            .join("final.colony.json");
        let save: Value = serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
        assert_eq!(save["seed"], seed);
        let placed = save["colony"]["buildings"]
            .as_object()
            .unwrap()
            .values()
            .any(|b| {
                b["prefab"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("WaterPump"))
            });
        assert!(placed, "the final save holds the agent's pump site");
    }
    assert!(
        r["scenarios"]["test-short"]["meanScore"].as_f64().unwrap() >= 50.0,
        "{r}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("data-episode=\"test-short-s7\""));
    // Results are made to be shared: readable by others, not a temporary file's 0600.
    for f in ["results.json", "report.html"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(out.join(f)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{f}");
    }
    assert!(
        !html.contains("<script") && !html.contains("http://") && !html.contains("https://"),
        "self-contained"
    );
}

#[test]
fn the_same_agent_and_seed_give_the_same_world() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(dir.path(), "");
    let cmd = agent(dir.path(), "pump.py", PUMP_AGENT);
    let mut saves = Vec::new();
    let mut stamped = Vec::new();
    for run in ["a", "b"] {
        let out = dir.path().join(run);
        let o = eval(
            &[
                "--scenario",
                &sc,
                "--agent",
                &cmd,
                "--seeds",
                "9",
                "--quiet",
            ],
            &out,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        saves.push(std::fs::read(out.join("episodes/test-short-s9/final.colony.json")).unwrap());
        let mut r = results(&out);
        assert_eq!(r["episodes"][0]["seed"], 9);
        drop_timings(&mut r);
        stamped.push(r);
    }
    assert!(
        saves[0] == saves[1],
        "final saves differ between two identical runs"
    );
    // Apart from timings, the two results files are the same, and both say what made them.
    assert_eq!(stamped[0], stamped[1]);
    let r = &stamped[0];
    let info: Value = serde_json::from_slice(
        &Command::new(colonyd_bin())
            .arg("--build-info")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(r["version"]["rulesDigest"], info["rulesDigest"]);
    assert_eq!(r["version"]["rulesDigest"].as_str().unwrap().len(), 64);
    assert_eq!(r["version"]["colony"], info["version"]);
    let file = std::fs::read(&sc).unwrap();
    let digest = eval::scenario::sha256_hex(&file);
    assert_eq!(r["version"]["scenarios"]["test-short"], digest.as_str());
    assert_eq!(r["split"], "custom");
    assert_eq!(r["seeds"]["test-short"], serde_json::json!([9]));
    assert_eq!(r["harness"]["agentMode"], "per-turn");
    assert_eq!(r["harness"]["turnTimeoutSeconds"], 120.0);
    assert_eq!(
        r["harness"]["mcpTools"], "core",
        "the default tool profile is recorded"
    );
}

#[test]
fn a_hanging_agent_is_cut_off_with_its_children_and_a_crashing_one_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(dir.path(), "");
    let pid_file = dir.path().join("child.pid");
    // The agent starts a child that would outlive it, then hangs.
    let hang = format!(
        "sh -c 'sleep 300 & echo $! > {}; sleep 300'",
        pid_file.display()
    );
    let out = dir.path().join("hang");
    let o = eval(
        &[
            "--scenario",
            &sc,
            "--agent",
            &hang,
            "--seeds",
            "7",
            "--turn-timeout",
            "1",
            "--quiet",
            "--allow-invalid",
        ],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let e = &results(&out)["episodes"][0];
    assert_eq!(
        e["turns"], 4,
        "the episode goes on after each cut-off turn: {e}"
    );
    assert_eq!(e["timeouts"], 4, "{e}");
    assert_eq!(e["status"], "invalid", "{e}");
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    // Gone, or a zombie waiting for whoever inherited it to reap it: either way not running.
    let running = || crate::support::running(&pid);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        !running(),
        "the agent's child {pid} was killed with its process group"
    );
    let traj = lines(&out.join("episodes/test-short-s7/trajectory.jsonl"));
    assert_eq!(traj[0]["agent"]["timedOut"], true);
    assert!(traj[0]["agent"]["seconds"].as_f64().unwrap() < 10.0);

    let out = dir.path().join("crash");
    let crash = agent(dir.path(), "crash.py", "import sys\nsys.exit(3)\n");
    let o = eval(
        &[
            "--scenario",
            &sc,
            "--agent",
            &crash,
            "--seeds",
            "7",
            "--quiet",
        ],
        &out,
    );
    // Every turn failed: the episode is invalid, scored 0, and the run exits 3 saying so.
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("1 invalid") && stderr.contains("test-short-s7"),
        "{stderr}"
    );
    let r = results(&out);
    assert_eq!(r["invalidEpisodes"], 1);
    assert_eq!(r["scenarios"]["test-short"]["invalidEpisodes"], 1);
    let e = &r["episodes"][0];
    assert_eq!(e["status"], "invalid", "{e}");
    assert_eq!(e["score"], 0.0, "{e}");
    assert_eq!(e["agentFailures"], 4, "{e}");
    assert_eq!(e["timeouts"], 0, "{e}");
    let traj = lines(&out.join("episodes/test-short-s7/trajectory.jsonl"));
    assert_eq!(traj[0]["agent"]["exit"], 3);
}

#[test]
fn lab_play_stops_on_success_and_bad_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Success as soon as the colony has lived an hour: the first turn ends the episode.
    let sc = scenario(
        dir.path(),
        "stop_on_success = true\n[[success]]\nmetric = \"days_survived\"\nvalue = 0.01\n",
    );
    let out = dir.path().join("out");
    let o = eval(
        &[
            "--scenario",
            &sc,
            "--agent",
            "true",
            "--seeds",
            "7",
            "--quiet",
        ],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let e = &results(&out)["episodes"][0];
    assert_eq!(e["turns"], 1, "{e}");
    assert_eq!(e["success"], true, "{e}");

    // The test split: seeds 1001 on, disjoint from the file's own.
    let o = eval(
        &[
            "--scenario",
            &sc,
            "--agent",
            "true",
            "--split",
            "test",
            "--episodes",
            "1",
            "--quiet",
        ],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = results(&out);
    assert_eq!(r["split"], "test");
    assert_eq!(r["episodes"][0]["seed"], 1001);

    let o = eval(&["--scenario", "no-such-scenario", "--agent", "true"], &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("survive-60"));
    let o = eval(
        &["--scenario", &sc, "--agent", "true", "--seeds", "x"],
        &out,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1..10"));
    let o = eval(&["--list"], &out);
    assert!(o.status.success());
    let list = String::from_utf8_lossy(&o.stdout);
    assert!(list.lines().count() >= 12, "{list}");
    assert!(
        list.lines().any(|l| l.starts_with("survive-60 ")
            && l.contains("Folktails")
            && l.contains("Normal"))
    );
}

//! The event stream and the agent connector, end to end, including a restart of the service.

use crate::support::{Server, wait_for};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Kills a child process when dropped.
struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Forwards a child's stdout lines to a channel.
fn lines(child: &mut Child) -> Receiver<String> {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Changes the speed until a line arrives (the stream may not be connected yet).
fn next_event_line(s: &Server, rx: &Receiver<String>) -> String {
    for i in 0..200 {
        s.post("/api/speed", json!({"speed": 1 + i % 2}));
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
            return line;
        }
    }
    panic!("no event line within 20 s");
}

#[test]
fn events_stream_filters_and_survives_a_restart() {
    let mut s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let mut child = Kill(
        s.colony(home.path())
            .args(["events", "speed", "--count", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let rx = lines(&mut child.0);
    let first = next_event_line(&s, &rx);
    assert!(first.starts_with("day "), "{first}");
    assert!(first.contains("speed.changed"), "{first}");
    assert!(first.contains(r#"{"speed":"#), "{first}");
    s.restart();
    let second = next_event_line(&s, &rx);
    assert!(second.contains("speed.changed"), "{second}");
    let status = wait_for(10, "events to stop after --count 2", || {
        child.0.try_wait().unwrap()
    });
    assert!(status.success());

    // JSON lines, filtered by a prefix: only speed events pass.
    let mut child = Kill(
        s.colony(home.path())
            .args(["--json", "events", "speed.", "--count", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let rx = lines(&mut child.0);
    s.post("/api/game/advance", json!({"days": 1}));
    let line = next_event_line(&s, &rx);
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["event"], "speed.changed", "{v}");
    assert!(v["data"]["speed"].is_number());
}

/// The agent: records each run, calls back into the service with `colony message`, fails on
/// prompts starting with `fail`, waits for a release file on prompts starting with `hold`, and
/// notes any overlap of two runs.
fn write_agent(dir: &Path) -> String {
    let script = dir.join("agent.sh");
    let text = format!(
        r#"#!/bin/sh
d='{dir}'
stdin=$(cat)
if [ -e "$d/busy" ]; then echo overlap >> "$d/overlap"; fi
touch "$d/busy"
printf '%s|%s|%s|%s|%s\n' "$COLONY_REQUEST_ID" "$COLONY_MODE" "$COLONY_PROMPT" "$stdin" "$COLONY_GOAL" >> "$d/runs"
if [ "$COLONY_REQUEST_ID" = 1 ] && [ "$COLONY_PROMPT" = first ]; then
  '{colony}' message "agent ran $COLONY_REQUEST_ID on port $COLONY_PORT" >/dev/null || echo callback-failed >> "$d/overlap"
fi
case "$COLONY_PROMPT" in
  fail*) rm -f "$d/busy"; echo "agent says no" >&2; exit 3 ;;
  hold*) while [ ! -e "$d/release" ]; do sleep 0.05; done ;;
esac
rm -f "$d/busy"
"#,
        dir = dir.display(),
        colony = env!("CARGO_BIN_EXE_colony"),
    );
    std::fs::write(&script, text).unwrap();
    format!("sh {}", script.display())
}

fn runs(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("runs"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

fn context(s: &Server, dir: &Path) -> String {
    format!(
        "runs {:?}, state {}, log:\n{}",
        runs(dir),
        state(s),
        std::fs::read_to_string(dir.join("connector.log")).unwrap_or_default()
    )
}

fn state(s: &Server) -> Value {
    s.get("/api/agent/state")
}

#[test]
fn connector_runs_each_prompt_once_reports_errors_and_survives_a_restart() {
    let mut s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let agent = write_agent(dir);
    let log = std::fs::File::create(dir.join("connector.log")).unwrap();
    let _connector = Kill(
        s.colony(home.path())
            .args(["connect", "--agent", &agent, "--pause", "0.1"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    );
    let ctx = |s: &Server| context(s, dir);
    wait_for(15, "the connector to report idle", || {
        (state(&s)["agentStatus"] == "idle").then_some(())
    });

    // A prompt runs exactly once, is acknowledged (the slot clears) and idle is reported.
    s.post("/api/agent/request", json!({"prompt": "first"}));
    wait_for(10, "the first run", || {
        let st = state(&s);
        (runs(dir).len() == 1 && st["pendingRequest"].is_null() && st["agentStatus"] == "idle")
            .then_some(())
    });
    assert_eq!(runs(dir)[0], "1|request|first|first|", "{}", ctx(&s));
    let log_lines = s.get("/api/agent/log").to_string();
    assert!(
        log_lines.contains(&format!("agent ran 1 on port {}", s.http_port)),
        "the agent called back: {log_lines}"
    );

    // A failing agent sets lastError.
    s.post("/api/agent/request", json!({"prompt": "fail please"}));
    let err = wait_for(10, "lastError", || {
        state(&s)["lastError"].as_str().map(String::from)
    });
    assert!(
        err.contains("status 3") && err.contains("agent says no"),
        "{err}"
    );

    // A prompt is acknowledged once its run has started; a second prompt waits for the first
    // run to end (never two agents at once); a success clears lastError.
    s.post("/api/agent/request", json!({"prompt": "hold on"}));
    wait_for(10, "the hold run to be running and acked", || {
        let st = state(&s);
        (st["agentStatus"] == "running" && st["pendingRequest"].is_null()).then_some(())
    });
    let r = s.post("/api/agent/request", json!({"prompt": "after hold"}));
    assert!(r.get("error").is_none(), "{r}");
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(runs(dir).len(), 3, "{}", ctx(&s));
    std::fs::write(dir.join("release"), "").unwrap();
    wait_for(10, "the waiting prompt to run after the hold", || {
        let st = state(&s);
        (runs(dir).len() == 4
            && st["agentStatus"] == "idle"
            && st["pendingRequest"].is_null()
            && st["lastError"].is_null())
        .then_some(())
    });
    assert!(
        runs(dir)[3].starts_with("4|request|after hold|"),
        "{}",
        ctx(&s)
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(runs(dir).len(), 4, "each prompt ran once: {}", ctx(&s));

    // The service restarts: the connector reconnects, sees the new epoch and runs request 1 of
    // the new epoch.
    s.restart();
    s.post("/api/agent/request", json!({"prompt": "after restart"}));
    wait_for(20, "a run after the restart", || {
        let st = state(&s);
        (runs(dir).len() == 5 && st["pendingRequest"].is_null() && st["agentStatus"] == "idle")
            .then_some(())
    });
    assert!(
        runs(dir)[4].starts_with("1|request|after restart|after restart|"),
        "{}",
        ctx(&s)
    );

    // Autonomous mode: turns with the goal as prompt until the gate closes or the mode changes.
    s.post(
        "/api/agent/config",
        json!({"mode": "autonomous", "goal": "grow the colony"}),
    );
    let auto = |dir: &Path| {
        runs(dir)
            .iter()
            .filter(|l| l.starts_with("|autonomous|grow the colony|grow the colony|"))
            .count()
    };
    wait_for(10, "two autonomous turns", || {
        (auto(dir) >= 2).then_some(())
    });
    s.post("/api/ready", json!({"ready": false}));
    std::thread::sleep(Duration::from_millis(500));
    let n = auto(dir);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(
        auto(dir),
        n,
        "no turns while the gate is closed: {}",
        ctx(&s)
    );
    s.post("/api/ready", json!({"ready": true}));
    wait_for(10, "turns to resume", || (auto(dir) > n).then_some(()));
    s.post("/api/agent/config", json!({"mode": "request"}));
    std::thread::sleep(Duration::from_millis(500));
    let n = auto(dir);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(auto(dir), n, "no turns in request mode: {}", ctx(&s));

    assert!(
        !dir.join("overlap").exists(),
        "two agents ran at once (or the callback failed): {}",
        ctx(&s)
    );
}

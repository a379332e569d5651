//! The sealed harness, attacked as a hostile agent would: spellings of refused paths (dot
//! segments, percent escapes, method case), colonyd reached directly on its own port with and
//! without a token found on disk, the port learned through the proxy, and processes detached from
//! the turn that would write after the run. Each attack is an agent script played by the real
//! `colony eval` against real colonyd; a test changes the game around the harness with the
//! harness's own token and checks the turn loop's seal catches each change, one kills the harness
//! mid-turn and finds neither its colonyd nor its agent left running, one deletes the harness's
//! file mid-run (as a rebuild does) and finds the next turn's agent started, and the last two
//! stop a run with Ctrl-C (no colonyd, episode folder or results left) and with a second Ctrl-C
//! during a long turn (ended at once).

use crate::support::{colonyd_bin, running, wait_for};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// A one-day scenario on a small map, half-day turns.
fn scenario(dir: &Path) -> String {
    let text = r#"
id = "sealed"
title = "One day"
goal = "Live."
horizon_days = 1
turn_hours = 12
[game]
faction = "Folktails"
mode = "Normal"
map = 48
seeds = [3]
[[score]]
metric = "days_survived"
weight = 1
target = 1
"#;
    let path = dir.join("sealed.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `colony eval` (the executable at `bin`) playing the one-day scenario with `agent_py` (written
/// to DIR/agent.py), `extra` flags, its results in DIR/out.
fn harness(bin: &Path, dir: &Path, agent_py: &str, extra: &[&str]) -> Command {
    let script = dir.join("agent.py");
    std::fs::write(&script, agent_py).unwrap();
    let mut cmd = Command::new(bin);
    cmd.arg("eval")
        .args(["--scenario", &scenario(dir), "--agent"])
        .arg(format!("python3 {}", script.display()))
        .args(["--quiet", "--turn-timeout", "30"])
        .args(extra)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--colonyd")
        .arg(colonyd_bin());
    cmd
}

/// Runs [`harness`] to its end: its output and its results.json (`Null` when none).
fn eval_from(bin: &Path, dir: &Path, agent_py: &str, extra: &[&str]) -> (Output, Value) {
    let o = harness(bin, dir, agent_py, extra)
        .output()
        .expect("run colony eval");
    let results = std::fs::read_to_string(dir.join("out/results.json"))
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or(Value::Null);
    (o, results)
}

fn eval(dir: &Path, agent_py: &str, extra: &[&str]) -> (Output, Value) {
    eval_from(
        Path::new(env!("CARGO_BIN_EXE_colony")),
        dir,
        agent_py,
        extra,
    )
}

fn notes(dir: &Path) -> Value {
    let p = dir.join("out/episodes/sealed-s3/agent-state/notes.json");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

/// Shared by the agents: raw HTTP to the proxy (http.client sends the path exactly as given).
const PRELUDE: &str = r#"
import http.client, json, os, sys
sys.stdin.read()
PORT = int(os.environ["COLONY_PORT"])
def raw(method, path, body=None, port=PORT, token=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    h = {"Content-Type": "application/json"}
    if token: h["Authorization"] = "Bearer " + token
    c.request(method, path, body=None if body is None else json.dumps(body), headers=h)
    r = c.getresponse()
    return r.status, r.read().decode("utf-8", "replace")
notes = {}
def save():
    json.dump(notes, open(os.path.join(os.environ["COLONY_AGENT_STATE_DIR"], "notes.json"), "w"))
"#;

const SPELLINGS_AGENT: &str = r#"
tries = [
    ("POST", "/api/game/./advance", {"days": 2}),
    ("POST", "/api/x/../game/advance", {"days": 2}),
    ("POST", "/api/game/%2e/advance", {"days": 2}),
    ("POST", "/api/game/%2E%2e/game/advance", {"days": 2}),
    ("POST", "//api//game/advance/", {"days": 2}),
    ("post", "/api/game/advance", {"days": 2}),
    ("POST", "/api/game%2fadvance", {"days": 2}),
    ("POST", "/api/x/../speed", {"speed": 3}),
    ("POST", "/api/x/../settings", {"corsOrigin": "http://evil.example"}),
    ("GET", "/api/x/../settings?format=json", None),
    ("POST", "/api/game/%252e/advance", {"days": 2}),
    ("POST", "/api/../../api/game/advance", {"days": 2}),
]
notes["tries"] = [[m, p, *raw(m, p, b)] for m, p, b in tries]
notes["openapi"] = raw("GET", "/api/openapi.json")[1]
notes["ws_port"] = os.environ["COLONY_WS_PORT"]
notes["cwd"] = os.getcwd()
save()
"#;

#[test]
fn refused_routes_stay_refused_however_their_path_is_spelled() {
    let dir = tempfile::tempdir().unwrap();
    let (o, r) = eval(dir.path(), &format!("{PRELUDE}{SPELLINGS_AGENT}"), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let n = notes(dir.path());
    for t in n["tries"].as_array().unwrap() {
        let body = t[3].as_str().unwrap();
        assert!(
            body.contains("\"disabled: ") || body.contains("\"invalid_param: "),
            "{t} got through"
        );
    }
    let e = &r["episodes"][0];
    assert_eq!(e["status"], "ok", "{e}");
    assert_eq!(e["turns"], 2, "{e}");
    assert_eq!(
        e["daysSurvived"], 1.0,
        "no day was advanced by the agent: {e}"
    );
    // The trajectory shows what was sent and what was forwarded.
    let traj = std::fs::read_to_string(dir.path().join("out/episodes/sealed-s3/trajectory.jsonl"))
        .unwrap();
    let first: Value = serde_json::from_str(traj.lines().next().unwrap()).unwrap();
    let dot = first["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["path"] == "/api/game/./advance")
        .unwrap();
    assert_eq!(dot["forwarded"], "/api/game/advance");
    assert_eq!(dot["error"], "disabled");
    // Nothing read through the proxy names colonyd's port: the OpenAPI document's server is
    // the proxy, and the agent's folder is its notes folder.
    let openapi: Value = serde_json::from_str(n["openapi"].as_str().unwrap()).unwrap();
    let url = openapi["servers"][0]["url"].as_str().unwrap();
    let log = std::fs::read_to_string(dir.path().join("out/episodes/sealed-s3/mcp.json")).unwrap();
    let mcp: Value = serde_json::from_str(&log).unwrap();
    let args: Vec<String> = mcp["mcpServers"]["colony"]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    let port = &args[args.iter().position(|a| a == "--port").unwrap() + 1];
    let ws_port = &args[args.iter().position(|a| a == "--ws-port").unwrap() + 1];
    assert_eq!(url, format!("http://127.0.0.1:{port}"), "servers: {url}");
    assert_eq!(n["ws_port"], ws_port.as_str());
    assert!(
        n["cwd"].as_str().unwrap().ends_with("agent-state"),
        "{}",
        n["cwd"]
    );
}

/// Finds its own episode's colonyd (a child of the `colony eval` process above its turn guard),
/// the ports it listens on, and its data folder; reads the settings file for a token; then tries
/// to advance the game and start an Easy game directly, with and without that token.
const DIRECT_AGENT: &str = r#"
def stat(pid):
    s = open(f"/proc/{pid}/stat").read()
    return int(s.rsplit(")", 1)[1].split()[1])
def cmdline(pid):
    try: return open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError: return []
pid = os.getpid()
harness = None
while pid > 1:
    pid = stat(pid)
    c = cmdline(pid)
    if b"eval" in c and b"__turn-guard" not in c:
        harness = pid
        break
inodes = {}
for line in open("/proc/net/tcp").read().splitlines()[1:]:
    f = line.split()
    if f[3] == "0A":
        inodes[f[9]] = int(f[1].split(":")[1], 16)
found = []
for p in os.listdir("/proc"):
    if not p.isdigit(): continue
    try:
        if stat(int(p)) != harness or not cmdline(int(p))[0].endswith(b"colonyd"): continue
    except OSError:
        continue
    c = cmdline(int(p))
    data = c[c.index(b"--data-dir") + 1].decode()
    ports = []
    for fd in os.listdir(f"/proc/{p}/fd"):
        try: link = os.readlink(f"/proc/{p}/fd/{fd}")
        except OSError: continue
        if link.startswith("socket:["):
            port = inodes.get(link[8:-1])
            if port: ports.append(port)
    found.append({"pid": int(p), "data": data, "ports": ports})
notes["found"] = found
answers = []
for f in found:
    settings = open(os.path.join(f["data"], "settings.json")).read()
    token = json.loads(settings).get("authToken") or None
    notes["token_on_disk"] = token
    notes["data_mode"] = oct(os.stat(f["data"]).st_mode & 0o777)
    for port in f["ports"]:
        for tok in [None, token]:
            try:
                answers.append([port, *raw("POST", "/api/game/advance", {"days": 2}, port=port, token=tok)])
                answers.append([port, *raw("POST", "/api/game/new", {"seed": 3, "mode": "Easy"}, port=port, token=tok)])
            except Exception as e:
                answers.append([port, 0, str(e)])
notes["answers"] = answers
save()
"#;

#[test]
fn colonyd_on_its_own_port_refuses_an_agent_without_the_token_and_no_file_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let (o, r) = eval(dir.path(), &format!("{PRELUDE}{DIRECT_AGENT}"), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let n = notes(dir.path());
    let found = n["found"].as_array().unwrap();
    assert_eq!(found.len(), 1, "the agent found its colonyd: {n}");
    assert_eq!(
        found[0]["ports"].as_array().unwrap().len(),
        2,
        "HTTP and WebSocket: {n}"
    );
    assert!(
        n["token_on_disk"].is_null(),
        "the settings file holds no token: {n}"
    );
    assert_eq!(n["data_mode"], "0o700", "{n}");
    let answers = n["answers"].as_array().unwrap();
    assert!(!answers.is_empty());
    for a in answers {
        assert_ne!(a[1], 200, "a direct call got through: {a}");
    }
    let e = &r["episodes"][0];
    assert_eq!(e["status"], "ok", "{e}");
    assert_eq!(e["daysSurvived"], 1.0, "{e}");
}

#[test]
fn processes_an_agent_detaches_are_gone_when_its_turn_ends() {
    let dir = tempfile::tempdir().unwrap();
    let late = dir.path().join("late");
    let agent = format!(
        r#"{PRELUDE}
import subprocess
late = {late:?}
# setsid: a new session and process group; then a double fork whose middle exits at once.
subprocess.Popen(["setsid", "sh", "-c", f"echo $$ > {{late}}.pid1; sleep 3; echo late > {{late}}.1"], start_new_session=True)
subprocess.Popen(["sh", "-c", f"(sh -c 'echo $$ > {{late}}.pid2; sleep 3; echo late > {{late}}.2' &) ; exit 0"])
import time; time.sleep(0.5)
"#,
        late = late.display().to_string()
    );
    let (o, r) = eval(dir.path(), &agent, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(r["episodes"][0]["status"], "ok");
    std::thread::sleep(std::time::Duration::from_secs(4));
    for i in 1..=2 {
        let pid = std::fs::read_to_string(format!("{}.pid{i}", late.display()))
            .unwrap_or_else(|_| panic!("detached process {i} started"));
        assert!(
            !Path::new(&format!("/proc/{}", pid.trim())).exists(),
            "detached process {i} ({}) still exists",
            pid.trim()
        );
        assert!(
            !Path::new(&format!("{}.{i}", late.display())).exists(),
            "detached process {i} wrote after the run"
        );
    }
}

#[test]
fn a_game_changed_around_the_harness_breaks_the_seal() {
    use eval::episode::{check_seal, seal};
    let svc = eval::service::Service::start(&colonyd_bin()).unwrap();
    let json = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    svc.post("/api/speed", &json(r#"{"speed": 0}"#)).unwrap();
    let sealed = seal(&svc).unwrap();
    assert_eq!(check_seal(&svc, &sealed), Ok(()));
    // An agent with the token could advance time, unpause, or start another game.
    svc.post("/api/game/advance", &json(r#"{"hours": 2}"#))
        .unwrap();
    let e = check_seal(&svc, &sealed).unwrap_err();
    assert!(
        e.starts_with("tampered:") && e.contains("clock moved"),
        "{e}"
    );
    let sealed = seal(&svc).unwrap();
    svc.post("/api/speed", &json(r#"{"speed": 1}"#)).unwrap();
    let e = check_seal(&svc, &sealed).unwrap_err();
    assert!(e.contains("speed 1"), "{e}");
    svc.post("/api/speed", &json(r#"{"speed": 0}"#)).unwrap();
    let sealed = seal(&svc).unwrap();
    svc.post(
        "/api/game/new",
        &json(r#"{"seed": 1, "map": 32, "mode": "Easy", "faction": "Folktails"}"#),
    )
    .unwrap();
    svc.post("/api/ready", &json(r#"{"ready": true}"#)).unwrap();
    svc.post("/api/speed", &json(r#"{"speed": 0}"#)).unwrap();
    let e = check_seal(&svc, &sealed).unwrap_err();
    assert!(e.contains("epoch changed"), "{e}");
}

/// The pids whose parent is `parent` and whose command line holds `needle`.
fn children_with(parent: u32, needle: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let ppid = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|st| {
                    st.rsplit_once(')')?
                        .1
                        .split_whitespace()
                        .nth(1)?
                        .parse()
                        .ok()
                });
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            ppid == Some(parent) && String::from_utf8_lossy(&cmd).contains(needle)
        })
        .collect()
}

/// `colony eval` (stdout and stderr dropped) with an agent whose first turn would take a minute
/// (the harness's 30 s timeout cuts it), once that agent has started: the harness and the
/// agent's pid.
fn start_with_a_minute_long_turn(dir: &Path) -> (std::process::Child, i32) {
    let pid_file = dir.join("agent.pid");
    let agent = format!(
        "{PRELUDE}\nopen({:?}, 'w').write(str(os.getpid()))\nimport time; time.sleep(60)\n",
        pid_file.display().to_string()
    );
    let run = harness(Path::new(env!("CARGO_BIN_EXE_colony")), dir, &agent, &[])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start colony eval");
    let agent_pid = wait_for(60, "the agent to start", || {
        std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
    });
    (run, agent_pid)
}

/// SIGINT to the harness, as Ctrl-C in its terminal sends.
fn ctrl_c(run: &std::process::Child) {
    // SAFETY: kill(2) signals our own child, not yet waited for.
    assert_eq!(unsafe { libc::kill(run.id() as i32, libc::SIGINT) }, 0);
}

#[test]
fn a_harness_killed_mid_turn_leaves_no_colonyd_and_no_agent_running() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, agent_pid) = start_with_a_minute_long_turn(dir.path());
    let colonyd = children_with(run.id(), "--data-dir");
    assert_eq!(colonyd.len(), 1, "one colonyd for the episode: {colonyd:?}");
    assert!(running(colonyd[0]) && running(agent_pid));
    run.kill().unwrap(); // SIGKILL: no handler of the harness runs
    run.wait().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while (running(colonyd[0]) || running(agent_pid)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        !running(colonyd[0]),
        "colonyd {} outlived the harness",
        colonyd[0]
    );
    assert!(
        !running(agent_pid),
        "the agent {agent_pid} outlived the harness"
    );
}

#[test]
fn a_harness_whose_file_is_replaced_mid_run_still_starts_its_agents() {
    let dir = tempfile::tempdir().unwrap();
    // The harness runs from a copy, which the agent's first turn deletes (as a rebuild
    // replaces the file); the second turn's guard must still start.
    let copy = dir.path().join("colony-copy");
    std::fs::copy(env!("CARGO_BIN_EXE_colony"), &copy).unwrap();
    let agent = format!(
        "{PRELUDE}\nimport pathlib\np = pathlib.Path({:?})\n\
         notes['turn'] = os.environ['COLONY_TURN']\n\
         p.unlink(missing_ok=True)\n\
         json.dump(notes, open(os.path.join(os.environ['COLONY_AGENT_STATE_DIR'], \
         'turn' + os.environ['COLONY_TURN'] + '.json'), 'w'))\n",
        copy.display().to_string()
    );
    let (o, r) = eval_from(&copy, dir.path(), &agent, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!copy.exists(), "the first turn deleted the harness's file");
    assert_eq!(r["episodes"][0]["agentFailures"], 0, "{r:#}");
    assert!(
        dir.path()
            .join("out/episodes/sealed-s3/agent-state/turn2.json")
            .exists(),
        "the second turn ran"
    );
}

#[test]
fn ctrl_c_stops_the_run_and_leaves_no_colonyd_folder_or_results() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let turns = dir.path().join("turns");
    // 24 one-hour turns; each turn leaves a mark and takes a moment.
    let agent = format!(
        "{PRELUDE}\nopen({:?}, 'a').write('x')\nimport time; time.sleep(0.3)\n",
        turns.display().to_string()
    );
    let mut run = harness(
        Path::new(env!("CARGO_BIN_EXE_colony")),
        dir.path(),
        &agent,
        &["--turn-hours", "1"],
    )
    .env("TMPDIR", &tmp)
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .expect("start colony eval");
    wait_for(60, "two turns", || {
        let n = std::fs::read_to_string(&turns).map_or(0, |t| t.len());
        (n >= 2).then_some(())
    });
    let colonyd = children_with(run.id(), "--data-dir");
    assert_eq!(colonyd.len(), 1, "one colonyd for the episode: {colonyd:?}");
    let leftovers = || {
        std::fs::read_dir(&tmp)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("colony-eval-"))
            .collect::<Vec<_>>()
    };
    assert_eq!(leftovers().len(), 1, "the episode's folder while it runs");
    ctrl_c(&run);
    let status = wait_for(30, "the harness to stop", || run.try_wait().unwrap());
    let mut err = String::new();
    std::io::Read::read_to_string(run.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted; 1 of 1 episodes started"),
        "{err}"
    );
    assert!(
        std::fs::read_to_string(&turns).unwrap().len() < 24,
        "stopped before its last turn"
    );
    assert!(!dir.path().join("out/results.json").exists());
    assert!(
        !running(colonyd[0]),
        "colonyd {} outlived the run",
        colonyd[0]
    );
    assert!(leftovers().is_empty(), "left behind: {:?}", leftovers());
}

#[test]
fn a_second_ctrl_c_ends_the_run_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, agent_pid) = start_with_a_minute_long_turn(dir.path());
    let colonyd = children_with(run.id(), "--data-dir");
    ctrl_c(&run);
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        run.try_wait().unwrap().is_none(),
        "the first Ctrl-C waits for the turn"
    );
    ctrl_c(&run);
    let status = wait_for(10, "the harness to end", || run.try_wait().unwrap());
    assert_eq!(status.code(), Some(130));
    let gone = || !running(agent_pid) && colonyd.iter().all(|p| !running(*p));
    wait_for(10, "its agent and colonyd to end", || gone().then_some(()));
}

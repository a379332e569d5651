//! `colony replay --check` end to end: an agent's episode recorded by the real `colony eval`
//! replays to the recorded state hash at every turn on a fresh colonyd (and exports as a GIF, a
//! frame per turn, and keeps a save per turn with `--keep DIR`), and a trajectory with one write
//! changed is caught at the turn of that write (exit 1, naming the turn).

use crate::eval::{agent, eval, lines, scenario};
use crate::support::{colonyd_bin, free_port, text};
use std::ffi::OsStr;
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Writes on every turn: a pump on the first, the work hours on the second (a rule every
/// beaver follows), and a refused write each turn (an unknown prefab: an error changes nothing,
/// so it replays as one too).
const WRITER: &str = r#"
import json, os, sys, urllib.request
prompt = sys.stdin.read()
turn = int(prompt.split("Turn ")[1].split(" ")[0])
base = f"http://{os.environ['COLONY_HOST']}:{os.environ['COLONY_PORT']}"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(), method=method)
    req.add_header("Content-Type", "application/json")
    return json.loads(urllib.request.urlopen(req).read())
if turn == 1:
    dc = [b for b in call("GET", "/api/buildings?limit=0&format=json") if b["name"].startswith("DistrictCenter")][0]
    box = {"x1": dc["x"] - 15, "y1": dc["y"] - 15, "x2": dc["x"] + 15, "y2": dc["y"] + 15}
    spots = call("POST", "/api/placement/find?format=json", {"prefab": "WaterPump.Folktails", **box})["placements"]
    s = spots[0]
    call("POST", "/api/building/place", {"prefab": "WaterPump.Folktails", "x": s["x"], "y": s["y"], "z": s["z"], "orientation": s["orientation"]})
if turn == 2:
    call("POST", "/api/workhours", {"endHours": 20})
call("POST", "/api/building/place", {"prefab": "NoSuchThing", "x": 1, "y": 1, "z": 1})
"#;

/// `colony replay FLAG EPISODE REST...` against the tests' colonyd.
fn replay(flag: &str, episode: &Path, rest: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colony"))
        .args(["replay", flag])
        .arg(episode)
        .args(rest)
        .arg("--colonyd")
        .arg(colonyd_bin())
        .output()
        .expect("run colony replay")
}

/// `colony replay --check --verbose EPISODE`.
fn check(episode: &Path) -> Output {
    replay("--check", episode, &["--verbose".as_ref()])
}

#[test]
fn a_recorded_episode_replays_hash_for_hash_and_an_edited_write_is_caught_at_its_turn() {
    let dir = tempfile::tempdir().unwrap();
    let sc = scenario(dir.path(), "");
    let cmd = agent(dir.path(), "writer.py", WRITER);
    let out = dir.path().join("out");
    let o = eval(&["--scenario", &sc, "--agent", &cmd, "--seeds", "7"], &out);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let episode = out.join("episodes/test-short-s7");
    let traj_path = episode.join("trajectory.jsonl");
    let traj = lines(&traj_path);
    assert_eq!(traj.len(), 4, "two days of half-day turns");
    for t in &traj {
        let hash = t["stateHash"]
            .as_str()
            .expect("every turn records its hash");
        assert_eq!(hash.len(), 16, "{hash}");
        assert_eq!(t["hours"], 12.0);
    }
    // Writes carry their bodies; reads do not.
    let writes: Vec<_> = traj[0]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("body").is_some())
        .collect();
    assert_eq!(writes.len(), 3, "find, place, the refused place: {traj:?}");
    assert!(
        traj[0]["requests"][0].get("body").is_none(),
        "a GET has none"
    );

    let o = check(&episode);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let said = text(&o.stdout);
    assert!(said.contains("4 turns replayed"), "{said}");
    for t in &traj {
        assert!(said.contains(t["stateHash"].as_str().unwrap()), "{said}");
    }

    // A GIF of the replay: a frame for the start and one per turn, 3 pixels a tile of the 64 map.
    let gif = dir.path().join("replay.gif");
    let o = replay("--export", &episode, &["--out".as_ref(), gif.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("5 frames written"),
        "{}",
        text(&o.stdout)
    );
    let bytes = std::fs::read(&gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    let size = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    assert_eq!((size(6), size(8)), (192, 192));
    assert_eq!(
        bytes.windows(2).filter(|w| *w == [0x21, 0xF9]).count(),
        5,
        "a graphic control block per frame"
    );

    // `--keep DIR`: the game saved after the setup and after every turn, and the index.
    let kept = dir.path().join("kept");
    let o = replay("--check", &episode, &["--keep".as_ref(), kept.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("5 turns saved"),
        "{}",
        text(&o.stdout)
    );
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(kept.join("replay.json")).unwrap()).unwrap();
    assert_eq!(index["episode"], "test-short-s7");
    assert_eq!(index["seed"], 7);
    let turns = index["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 5, "{index}");
    assert_eq!(turns[0]["turn"], 0);
    assert!(turns[0].get("stateHash").is_none(), "turn 0 is the start");
    for (k, t) in traj.iter().enumerate() {
        let kept_turn = &turns[k + 1];
        assert_eq!(kept_turn["turn"], t["turn"]);
        assert_eq!(kept_turn["stateHash"], t["stateHash"]);
        assert_eq!(kept_turn["hours"], 12.0);
        assert_eq!(
            kept_turn["requests"].as_array().unwrap().len(),
            t["requests"].as_array().unwrap().len()
        );
        assert!(
            kept.join(format!("turn-{:04}.colony.json", k + 1))
                .is_file(),
            "turn {k}'s save"
        );
    }
    assert!(kept.join("turn-0000.colony.json").is_file());
    // Half-day turns from hour 4 of day 1: day 1 at 16:00, day 2 at 4:00, ...
    assert_eq!(
        (turns[1]["day"].clone(), turns[1]["hour"].clone()),
        (1.into(), 16.0.into())
    );
    assert_eq!(turns[2]["day"], 2);
    // The refused place of every turn (it lacks its orientation) carries its whole error text,
    // as answered again, not only the recorded code.
    let refused: Vec<&serde_json::Value> = turns[1]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("error").is_some())
        .collect();
    assert_eq!(refused.len(), 1, "{}", turns[1]);
    let error = refused[0]["error"].as_str().unwrap();
    assert!(
        error.starts_with("invalid_param: ") && error.contains("orientation"),
        "{error}"
    );

    // No flag: the same replay, then the dashboard served from its saves until Ctrl-C.
    served(&episode, &traj);

    // One write changed (the work hours of turn 2): caught at turn 2, not before.
    let original = std::fs::read_to_string(&traj_path).unwrap();
    let edited = original.replace(r#"{\"endHours\": 20}"#, r#"{\"endHours\": 12}"#);
    assert_ne!(edited, original, "the trajectory holds the write as sent");
    std::fs::write(&traj_path, edited).unwrap();
    let o = check(&episode);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let err = text(&o.stderr);
    assert!(err.contains("turn 2 differs"), "{err}");
    assert!(err.contains("rules digest is the same"), "{err}");
    assert!(text(&o.stdout).contains("turn 1: "), "turn 1 still matched");
    // Keeping the saves does not change that: exit 1 at turn 2, no index written.
    let kept2 = dir.path().join("kept2");
    let o = replay("--check", &episode, &["--keep".as_ref(), kept2.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("turn 2 differs"));
    assert!(!kept2.join("replay.json").exists());
    assert!(kept2.join("turn-0001.colony.json").is_file());
    assert!(!kept2.join("turn-0002.colony.json").exists());

    // Not an episode folder: a clear error, exit 2.
    let o = check(dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("trajectory.jsonl"),
        "{}",
        text(&o.stderr)
    );
}

/// `colony replay EPISODE --port P`: replays (checking every turn), serves the saves with
/// `colonyd --replay` on the port and says where; the dashboard and `GET /api/replay` answer,
/// writes are refused, a turn loads; Ctrl-C (SIGINT) stops colonyd and the command with exit 0.
fn served(episode: &Path, traj: &[serde_json::Value]) {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_colony"))
        .arg("replay")
        .arg(episode)
        .args(["--port", &port.to_string(), "--colonyd"])
        .arg(colonyd_bin())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut said = String::new();
    while !said.contains("Serving the replay at") {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("colony replay ended: {said}{}", text(&o.stderr));
        }
        said.push_str(&line);
    }
    let url = format!("http://127.0.0.1:{port}/");
    assert!(said.contains(&url), "{said}");
    assert!(said.contains("4 turns replayed"), "{said}");
    let http = reqwest::blocking::Client::new();
    let page = http.get(&url).send().unwrap().text().unwrap();
    assert!(page.contains("replay-bar"), "the dashboard is served");
    let info: serde_json::Value = http
        .get(format!("{url}api/replay?format=json"))
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(info["turnCount"], 4, "{info}");
    assert_eq!(info["turn"], 0);
    assert_eq!(info["turns"][3]["stateHash"], traj[2]["stateHash"]);
    let post = |path: &str, body: serde_json::Value| -> serde_json::Value {
        http.post(format!("{url}{}", path.trim_start_matches('/')))
            .json(&body)
            .send()
            .unwrap()
            .json()
            .unwrap()
    };
    let refused = post(
        "/api/building/pause",
        serde_json::json!({"id": 1, "paused": true}),
    );
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("disabled: this colonyd serves a replay")),
        "{refused}"
    );
    let loaded = post("/api/replay/turn", serde_json::json!({"turn": 3}));
    assert_eq!(loaded["stateHash"], traj[2]["stateHash"], "{loaded}");
    // SAFETY: kill(2) on the child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "colony replay did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    assert!(
        http.get(format!("{url}api/ping")).send().is_err(),
        "colonyd stopped with it"
    );
}

//! `colony replay --check` end to end: an agent's episode recorded by the real `colony eval`
//! replays to the recorded state hash at every turn on a fresh colonyd (and exports as a GIF, a
//! frame per turn), and a trajectory with one write changed is caught at the turn of that write
//! (exit 1, naming the turn).

use crate::eval::{agent, eval, lines, scenario};
use crate::support::{colonyd_bin, text};
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

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

    // Not an episode folder: a clear error, exit 2.
    let o = check(dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("trajectory.jsonl"),
        "{}",
        text(&o.stderr)
    );
}

//! Replay mode end to end (`colonyd --replay DIR`): a replay folder built from a real game (a
//! save per turn, as `colony replay` writes it, and the index), served read-only: turn 0 first,
//! `GET /api/replay`, `POST /api/replay/turn` loading a turn's save (its state hash the
//! recorded one), bad turns as `invalid_param` with the range, every write refused as
//! `disabled`, the POST reads answered, the game never advancing; and both routes `disabled`
//! on a colonyd that plays a game.

use crate::support::{Opts, Server, code};
use serde_json::{Value, json};
use std::time::Duration;

/// A replay folder of `turns` turns of `s`'s game, as `colony replay` writes one: turn 0 now,
/// then per turn a refused write, a read and 12 game hours. Each turn is saved by `s` and
/// copied into the folder; the index holds the real day, hour and state hash of each.
pub async fn replay_folder(s: &Server, turns: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    s.post("/api/speed", json!({"speed": 0})).await;
    let mut index = Vec::new();
    for turn in 0..=turns {
        let mut requests = Vec::new();
        if turn > 0 {
            let (_, refused) = s
                .post(
                    "/api/building/place",
                    json!({"prefab": "NoSuchThing", "x": 1, "y": 1, "z": 1}),
                )
                .await;
            requests.push(json!({"method": "POST", "path": "/api/building/place", "status": 200, "error": refused["error"]}));
            requests.push(json!({"method": "GET", "path": "/api/summary", "status": 200}));
            let (_, adv) = s.post("/api/game/advance", json!({"hours": 12})).await;
            assert!(adv.get("error").is_none(), "{adv}");
        }
        let name = format!("turn-{turn:04}");
        let (_, saved) = s.post("/api/game/save", json!({ "name": name })).await;
        assert!(saved.get("error").is_none(), "{saved}");
        let file = format!("{name}.colony.json");
        std::fs::copy(
            s.data_dir().join("saves").join(&file),
            dir.path().join(&file),
        )
        .unwrap();
        let (_, time) = s.get("/api/time?format=json").await;
        let (_, hash) = s.get("/api/game/hash?format=json").await;
        let mut t = json!({"turn": turn, "day": time["dayNumber"], "hour": time["hour"],
            "stateHash": hash["stateHash"], "requests": requests});
        if turn > 0 {
            t["hours"] = json!(12.0);
        }
        index.push(t);
    }
    let index = json!({"episode": "test-s7", "scenario": "test", "seed": 7, "turns": index});
    std::fs::write(dir.path().join("replay.json"), index.to_string()).unwrap();
    dir
}

/// colonyd serving `dir`.
pub async fn serve(dir: &std::path::Path) -> Server {
    Server::start_with(Opts {
        args: vec!["--replay".into(), dir.to_string_lossy().into_owned()],
        ready: false,
        ..Opts::default()
    })
    .await
}

#[tokio::test]
async fn a_replay_is_served_read_only_turn_by_turn() {
    let game = Server::start().await;
    let folder = replay_folder(&game, 2).await;
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.path().join("replay.json")).unwrap())
            .unwrap();
    drop(game);
    let s = serve(folder.path()).await;

    // Turn 0 first, the gate open without --ready.
    let (_, r) = s.get("/api/replay?format=json").await;
    assert_eq!(r["episode"], "test-s7", "{r}");
    assert_eq!(
        (r["turn"].clone(), r["turnCount"].clone()),
        (json!(0), json!(2))
    );
    assert_eq!(r["turns"], recorded["turns"]);
    let (_, hash) = s.get("/api/game/hash?format=json").await;
    assert_eq!(hash["stateHash"], recorded["turns"][0]["stateHash"]);

    // Another turn: its save, hash for hash; the index says which turn is shown.
    let (_, t) = s.post("/api/replay/turn", json!({"turn": 2})).await;
    assert!(t.get("error").is_none(), "{t}");
    assert_eq!(t["stateHash"], recorded["turns"][2]["stateHash"]);
    assert_eq!(t["day"], recorded["turns"][2]["day"]);
    let (_, hash) = s.get("/api/game/hash?format=json").await;
    assert_eq!(hash["stateHash"], recorded["turns"][2]["stateHash"]);
    let (_, time) = s.get("/api/time?format=json").await;
    assert_eq!(time["dayNumber"], recorded["turns"][2]["day"]);
    assert_eq!(s.get("/api/replay?format=json").await.1["turn"], 2);

    // Turns outside the replay, and a turn that is not a number.
    for bad in [json!({"turn": 3}), json!({"turn": -1})] {
        let (_, e) = s.post("/api/replay/turn", bad.clone()).await;
        assert_eq!(code(&e), "invalid_param", "{bad}: {e}");
        assert!(
            e["error"].as_str().unwrap().contains("turn must be 0-2"),
            "{e}"
        );
    }
    let (_, e) = s.post("/api/replay/turn", json!({"turn": "two"})).await;
    assert_eq!(code(&e), "invalid_param", "{e}");
    assert_eq!(
        s.get("/api/replay?format=json").await.1["turn"],
        2,
        "unchanged"
    );

    // Every write is refused, saying what to do instead; nothing changes.
    for (path, body) in [
        ("/api/speed", json!({"speed": 3})),
        ("/api/game/advance", json!({"hours": 1})),
        ("/api/game/new", json!({"seed": 1})),
        (
            "/api/building/place",
            json!({"prefab": "Path", "x": 1, "y": 1, "z": 1}),
        ),
        ("/api/ready", json!({"ready": false})),
        ("/api/settings", json!({"actionLoggingEnabled": true})),
    ] {
        let (_, e) = s.post(path, body).await;
        assert_eq!(code(&e), "disabled", "{path}: {e}");
        let text = e["error"].as_str().unwrap();
        assert!(
            text.contains("serves a replay (read-only)") && text.contains("POST /api/replay/turn"),
            "{text}"
        );
    }
    let (_, hash) = s.get("/api/game/hash?format=json").await;
    assert_eq!(hash["stateHash"], recorded["turns"][2]["stateHash"]);
    // The POST routes that only read still answer.
    let (_, find) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "Lodge.Folktails", "x1": 0, "y1": 0, "x2": 63, "y2": 63}),
        )
        .await;
    assert!(find.get("placements").is_some(), "{find}");

    // Paused: the clock stands still.
    assert_eq!(s.get("/api/speed?format=json").await.1["speed"], 0);
    let before = s.get("/api/time?format=json").await.1["ticks"].clone();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(s.get("/api/time?format=json").await.1["ticks"], before);
}

#[tokio::test]
async fn a_colonyd_that_plays_refuses_the_replay_routes_and_a_bad_folder_stops_the_start() {
    let s = Server::start().await;
    let (_, e) = s.get("/api/replay").await;
    assert_eq!(code(&e), "disabled", "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("colony replay"),
        "{e}"
    );
    let (_, e) = s.post("/api/replay/turn", json!({"turn": 0})).await;
    assert_eq!(code(&e), "disabled", "{e}");
    // Writes are not refused here.
    let (_, ok) = s.post("/api/speed", json!({"speed": 0})).await;
    assert!(ok.get("error").is_none(), "{ok}");

    let empty = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .arg("--data-dir")
        .arg(empty.path())
        .arg("--replay")
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("replay.json") && err.contains("colony replay"),
        "{err}"
    );
}

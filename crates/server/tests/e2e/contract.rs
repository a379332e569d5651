//! The contract's details that clients rely on, end to end: need points served on 0..1.

use crate::support::{Server, code};
use serde_json::json;

#[tokio::test]
async fn need_points_stay_within_0_and_1_and_critical_follows_the_threshold() {
    let s = Server::start().await;
    // Normal mode starts with no water: after two days Thirst is far below its favourable
    // threshold (the game's own points go negative).
    s.post("/api/game/advance", json!({"days": 2})).await;
    let (_, all) = s.get("/api/beavers?detail=full&limit=0&format=json").await;
    let beavers = all.as_array().unwrap();
    assert!(!beavers.is_empty());
    let mut thirsty = 0;
    for b in beavers {
        for n in b["needs"].as_array().unwrap() {
            let (p, t) = (
                n["points"].as_f64().unwrap(),
                n["threshold"].as_f64().unwrap(),
            );
            assert!((0.0..=1.0).contains(&p), "{} {}: {n}", b["name"], n["id"]);
            assert!((0.0..=1.0).contains(&t), "{n}");
            assert_eq!(
                n["favorable"].as_bool().unwrap(),
                p > t || (p == 1.0 && t == 1.0),
                "{n}"
            );
            if n["id"] == "Thirst" {
                assert_eq!(
                    t, 0.75,
                    "Thirst's range is -3..1, its threshold 0 is 0.75 served"
                );
                if p < t {
                    thirsty += 1;
                    assert_eq!(n["critical"], true, "{n}");
                }
            }
        }
    }
    assert!(thirsty > 0, "two days without water leave beavers thirsty");
}

#[tokio::test]
async fn planting_find_with_a_farmhouse_id_gives_the_spots_in_its_range() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, found) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "EfficientFarmHouse.Folktails", "x1": 20, "y1": 14, "x2": 44, "y2": 34}),
        )
        .await;
    let p = &found["placements"][0];
    let (_, farm) = s
        .post(
            "/api/building/place",
            json!({"prefab": "EfficientFarmHouse.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": p["orientation"]}),
        )
        .await;
    let id = farm["id"].as_i64().unwrap_or_else(|| panic!("{farm}"));
    // An unfinished site: the range is geometric, so it has spots already.
    let (_, range) = s
        .post("/api/building/range?format=json", json!({"id": id}))
        .await;
    let (_, spots) = s
        .post(
            "/api/planting/find?format=json",
            json!({"crop": "Carrot", "id": id}),
        )
        .await;
    let spots = spots["spots"]
        .as_array()
        .unwrap_or_else(|| panic!("{spots}"));
    assert!(
        !spots.is_empty(),
        "a farmhouse on open ground has plantable tiles in range"
    );
    let (ex, ey) = (
        p["entranceX"].as_i64().unwrap(),
        p["entranceY"].as_i64().unwrap(),
    );
    // The bounds are clamped to the map: the radius is the doorstep's farthest reach inside them.
    let bound = |k: &str| range["bounds"][k].as_i64().unwrap();
    let r = (ex - bound("x1"))
        .max(bound("x2") - ex)
        .max(ey - bound("y1"))
        .max(bound("y2") - ey);
    for t in spots {
        let d = (t["x"].as_i64().unwrap() - ex).abs() + (t["y"].as_i64().unwrap() - ey).abs();
        assert!(
            d <= r,
            "{t} is {d} from the doorstep ({ex}, {ey}); range {range}"
        );
        assert_eq!(t["z"], p["z"], "at the farmhouse's level");
    }
    // The same spots as an area scan of its range, minus those beyond the Manhattan radius.
    let b = &range["bounds"];
    let (_, area) = s
        .post(
            "/api/planting/find?format=json",
            json!({"crop": "Carrot", "x1": b["x1"], "y1": b["y1"], "x2": b["x2"], "y2": b["y2"], "z": p["z"]}),
        )
        .await;
    assert!(area["spots"].as_array().unwrap().len() >= spots.len());
    // Not a planter, and no such building.
    let (_, all) = s.get("/api/buildings?limit=0&format=json").await;
    let dc = all
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"].as_str().unwrap().starts_with("DistrictCenter"))
        .unwrap();
    let (_, body) = s
        .post(
            "/api/planting/find",
            json!({"crop": "Carrot", "id": dc["id"]}),
        )
        .await;
    assert_eq!(code(&body), "invalid_type", "{body}");
    let (_, body) = s
        .post("/api/planting/find", json!({"crop": "Carrot", "id": 77}))
        .await;
    assert_eq!(code(&body), "not_found");
}

/// The district center's full view.
async fn district_center(s: &Server) -> serde_json::Value {
    let (_, all) = s
        .get("/api/buildings?limit=0&detail=full&format=json")
        .await;
    all.as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"].as_str().unwrap().starts_with("DistrictCenter"))
        .unwrap()
        .clone()
}

#[tokio::test]
async fn nothing_but_a_path_may_stand_on_the_district_centers_doorstep() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let dc = district_center(&s).await;
    let (ex, ey, ez) = (&dc["entranceX"], &dc["entranceY"], &dc["entranceZ"]);
    let (_, body) = s
        .post(
            "/api/building/place",
            json!({"prefab": "SmallWarehouse.Folktails", "x": ex, "y": ey, "z": ez, "orientation": "south"}),
        )
        .await;
    assert_eq!(body["reason"], "entrance", "{body}");
    assert_eq!(body["blockerId"], dc["id"], "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("doorstep"),
        "{body}"
    );
    // placement/find never offers it either, nor any tile within two of it (the door stays
    // open for paths in every direction).
    let (x, y) = (ex.as_i64().unwrap(), ey.as_i64().unwrap());
    let (_, found) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "SmallWarehouse.Folktails", "x1": x - 3, "y1": y - 3, "x2": x + 3, "y2": y + 3}),
        )
        .await;
    let spots = found["placements"].as_array().unwrap();
    assert!(!spots.is_empty(), "{found}");
    assert!(
        spots.iter().all(|p| {
            (p["x"].as_i64().unwrap() - x).abs() + (p["y"].as_i64().unwrap() - y).abs() > 2
        }),
        "{found}"
    );
    // A path may go there.
    let (_, path) = s
        .post(
            "/api/building/place",
            json!({"prefab": "Path", "x": ex, "y": ey, "z": ez, "orientation": "south"}),
        )
        .await;
    assert!(path["id"].is_i64(), "{path}");
}

#[tokio::test]
async fn placement_find_and_the_placed_part_agree_on_reachability_for_doorless_parts() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let dc = district_center(&s).await;
    let (x, y) = (
        dc["entranceX"].as_i64().unwrap(),
        dc["entranceY"].as_i64().unwrap(),
    );
    // Power shafts have no door: builders reach them from a path within reach.
    let (_, found) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "PowerShaft.Folktails", "x1": x - 3, "y1": y - 3, "x2": x + 3, "y2": y + 3}),
        )
        .await;
    let best = &found["placements"][0];
    assert_eq!(
        best["reachable"], 1,
        "a shaft beside the district's doorstep: {found}"
    );
    assert!(best["distance"].as_f64().unwrap() >= 0.0, "{best}");
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": "PowerShaft.Folktails", "x": best["x"], "y": best["y"], "z": best["z"],
                   "orientation": best["orientation"]}),
        )
        .await;
    let (_, view) = s
        .get_one(&format!("/api/buildings?id={}&format=json", placed["id"]))
        .await;
    assert_eq!(view["reachable"], true, "{view}");
    // Far from any path, both say unreachable.
    let (_, far) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "PowerShaft.Folktails", "x1": 2, "y1": 2, "x2": 6, "y2": 6}),
        )
        .await;
    let lone = &far["placements"][0];
    assert_eq!(
        (&lone["reachable"], &lone["distance"]),
        (&json!(0), &json!(-1.0)),
        "{far}"
    );
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": "PowerShaft.Folktails", "x": lone["x"], "y": lone["y"], "z": lone["z"],
                   "orientation": lone["orientation"]}),
        )
        .await;
    let (_, view) = s
        .get_one(&format!("/api/buildings?id={}&format=json", placed["id"]))
        .await;
    assert_eq!(view["reachable"], false, "{view}");
}

#[tokio::test]
async fn port_flags_override_the_settings_file_for_the_run_and_a_taken_port_names_them() {
    use crate::support::free_port;
    let dir = tempfile::tempdir().unwrap();
    let (file_http, file_ws, http, ws) = (free_port(), free_port(), free_port(), free_port());
    let settings = json!({"httpPort": file_http, "wsPort": file_ws});
    std::fs::write(dir.path().join("settings.json"), settings.to_string()).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .arg("--data-dir")
        .arg(dir.path())
        .args([
            "--map",
            "32",
            "--ready",
            "--http-port",
            &http.to_string(),
            "--ws-port",
            &ws.to_string(),
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let client = reqwest::Client::new();
    let mut config = None;
    for _ in 0..400 {
        if let Ok(r) = client
            .get(format!("http://127.0.0.1:{http}/dashboard/config.json"))
            .send()
            .await
        {
            config = Some(r.json::<serde_json::Value>().await.unwrap());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let config = config.expect("colonyd answers on the --http-port port");
    assert_eq!(
        config["wsPort"], ws,
        "the page is told the port the listener uses"
    );
    let (conn, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{ws}/api/ws"))
        .await
        .expect("the WebSocket listens on --ws-port");
    drop(conn);
    let _ = child.kill();
    let _ = child.wait();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("settings.json")).unwrap())
            .unwrap();
    assert_eq!(
        (&file["httpPort"], &file["wsPort"]),
        (&json!(file_http), &json!(file_ws))
    );

    // A port in use: the error names the flag and the setting.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .arg("--data-dir")
        .arg(dir.path())
        .args(["--map", "32", "--http-port", &port.to_string()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--http-port") && stderr.contains("httpPort"),
        "{stderr}"
    );
}

#[tokio::test]
async fn the_log_written_to_a_file_has_no_colour_codes() {
    use crate::support::free_port;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("colonyd.log");
    let http = free_port();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .arg("--data-dir")
        .arg(dir.path())
        .args(["--map", "32", "--http-port", &http.to_string()])
        .args(["--ws-port", &free_port().to_string()])
        .env_remove("NO_COLOR")
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let client = reqwest::Client::new();
    for _ in 0..400 {
        if client
            .get(format!("http://127.0.0.1:{http}/api/ping"))
            .send()
            .await
            .is_ok()
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("INFO"),
        "the start-up lines are logged: {text:?}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "escape codes in a log file: {text:?}"
    );
}

#[tokio::test]
async fn the_agent_state_says_whether_a_connector_is_attached() {
    use crate::support::send;
    let s = Server::start().await;
    let (_, st) = s.get("/api/agent/state").await;
    assert_eq!(
        (&st["connectorAttached"], &st["lastHeartbeatAt"]),
        (&json!(false), &serde_json::Value::Null)
    );
    let (mut ws, first) = s.ws().await;
    send(&mut ws, json!({"type": "heartbeat", "payload": {"agent_status": "idle", "epoch": first["payload"]["epoch"]}})).await;
    let mut attached = serde_json::Value::Null;
    for _ in 0..100 {
        let (_, st) = s.get("/api/agent/state").await;
        if st["connectorAttached"] == true {
            attached = st;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(attached["agentStatus"], "idle", "{attached}");
    assert!(attached["lastHeartbeatAt"].as_u64().unwrap() > 1_700_000_000);
    // The connector leaves: the state says so at once, and the stale "idle" is gone.
    ws.close(None).await.unwrap();
    drop(ws);
    let mut left = serde_json::Value::Null;
    for _ in 0..100 {
        let (_, st) = s.get("/api/agent/state").await;
        if st["connectorAttached"] == false {
            left = st;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(left["agentStatus"], "", "{left}");
    assert_eq!(left["lastHeartbeatAt"], attached["lastHeartbeatAt"]);
}

#[tokio::test]
async fn wonders_carry_their_flags() {
    let s = Server::start().await;
    s.post(
        "/api/game/new",
        json!({"seed": 7, "map": 64, "setup": {"unlocked": ["EarthRecultivator.Folktails"]}}),
    )
    .await;
    s.post("/api/ready", json!({"ready": true})).await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, found) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "EarthRecultivator.Folktails", "x1": 4, "y1": 4, "x2": 60, "y2": 60}),
        )
        .await;
    let p = &found["placements"][0];
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": "EarthRecultivator.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": p["orientation"]}),
        )
        .await;
    let (_, view) = s
        .get_one(&format!("/api/buildings?id={}&format=json", placed["id"]))
        .await;
    assert_eq!(
        (&view["isWonder"], &view["wonderActive"]),
        (&json!(true), &json!(false)),
        "{view}"
    );
    let dc = district_center(&s).await;
    assert!(
        dc.get("isWonder").is_none() && dc.get("wonderActive").is_none(),
        "{dc}"
    );
}

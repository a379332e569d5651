//! The game slice over HTTP: clock, weather, speed, work hours, settlement, advance, the game
//! lifecycle, the write queue, the OpenAPI document, the benchmark and the settings routes.

use crate::support::{Opts, Server, code, frame_where};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;

#[tokio::test]
async fn clock_weather_and_settlement_read() {
    let s = Server::start_with(Opts {
        args: vec![
            "--seed".into(),
            "3".into(),
            "--map".into(),
            "64".into(),
            "--settlement".into(),
            "Beaverton".into(),
        ],
        ..Default::default()
    })
    .await;
    let t = s.get("/api/time").await.1;
    assert_eq!(t["dayNumber"], 1);
    let p = t["dayProgress"].as_f64().unwrap();
    assert!((0.0..1.0).contains(&p));
    assert!((t["partialDayNumber"].as_f64().unwrap() - (1.0 + p)).abs() < 1e-9);
    let w = s.get("/api/weather").await.1;
    assert_eq!(w["cycle"], 1);
    assert_eq!(w["isHazardous"], false);
    let total = w["temperateWeatherDuration"].as_u64().unwrap()
        + w["hazardousWeatherDuration"].as_u64().unwrap();
    assert_eq!(w["cycleLengthInDays"].as_u64().unwrap(), total);
    assert_eq!(
        s.get("/api/settlement").await.1,
        json!({"name": "Beaverton"})
    );
}

#[tokio::test]
async fn speed_and_workhours_round_trip_and_validate() {
    let s = Server::start().await;
    assert_eq!(s.get("/api/speed").await.1, json!({"speed": 1}));
    assert_eq!(
        s.post("/api/speed", json!({"speed": 0})).await.1,
        json!({"speed": 0})
    );
    assert_eq!(
        s.get("/api/speed").await.1,
        json!({"speed": 0}),
        "read-your-writes"
    );
    let paused = s.get("/api/time").await.1["partialDayNumber"].clone();
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        s.get("/api/time").await.1["partialDayNumber"],
        paused,
        "speed 0 stops the clock"
    );
    s.post("/api/speed", json!({"speed": 3})).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let later = s.get("/api/time").await.1["partialDayNumber"]
        .as_f64()
        .unwrap();
    assert!(
        later > paused.as_f64().unwrap(),
        "speed 3 runs the clock in real time"
    );

    assert_eq!(s.get("/api/workhours").await.1["endHours"], 16.0);
    assert_eq!(
        s.post("/api/workhours", json!({"endHours": 20})).await.1,
        json!({"endHours": 20})
    );
    assert_eq!(s.get("/api/workhours").await.1["endHours"], 20.0);
    for bad in [0, 25, -3] {
        let (_, body) = s.post("/api/workhours", json!({"endHours": bad})).await;
        assert_eq!(code(&body), "invalid_param");
        assert_eq!(body["got"], bad);
    }
    let (_, body) = s.post("/api/workhours", json!({})).await;
    assert!(body["error"].as_str().unwrap().contains("endHours"));
}

async fn advance_events(seed: &str) -> (Value, Vec<(String, Value)>) {
    let s = Server::start_with(Opts {
        args: vec!["--seed".into(), seed.into(), "--map".into(), "64".into()],
        ..Default::default()
    })
    .await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (mut ws, _) = s.ws().await;
    let (_, adv) = s.post("/api/game/advance", json!({"days": 10})).await;
    let mut events = Vec::new();
    loop {
        let f = frame_where(&mut ws, 10_000, |f| f["type"] == "event").await;
        let name = f["payload"]["event"].as_str().unwrap().to_string();
        if name == "speed.changed" {
            continue;
        }
        let done = name == "day.start" && f["payload"]["data"]["day"] == 11;
        events.push((name, f["payload"]["data"].clone()));
        if done {
            break;
        }
    }
    let weather = s.get("/api/weather").await.1;
    (
        json!({"advance_day": adv["day"], "ticks": adv["ticks"], "weather": weather}),
        events,
    )
}

#[tokio::test]
async fn advancing_ten_days_is_deterministic() {
    let (a, ev_a) = advance_events("11").await;
    let (b, ev_b) = advance_events("11").await;
    assert_eq!(a, b);
    assert_eq!(ev_a, ev_b);
    assert_eq!(a["advance_day"], 11);
    assert_eq!(a["ticks"], 7680);
    let names: BTreeSet<&str> = ev_a.iter().map(|(n, _)| n.as_str()).collect();
    for want in [
        "day.start",
        "night.start",
        "cycle.day",
        "workhours.transitioned",
    ] {
        assert!(names.contains(want), "missing {want} in {names:?}");
    }
}

#[tokio::test]
async fn advance_validates_and_reports() {
    let s = Server::start().await;
    for bad in [
        json!({}),
        json!({"days": 1, "hours": 2}),
        json!({"days": 0}),
        json!({"hours": -1}),
        json!({"days": 99999}),
    ] {
        let (_, body) = s.post("/api/game/advance", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}");
    }
    let (_, r) = s.post("/api/game/advance", json!({"hours": 12})).await;
    assert_eq!(r["ticks"], 384);
    assert!(r["wallMs"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        s.get("/api/speed").await.1["speed"],
        1,
        "advance leaves the speed alone"
    );
}

#[tokio::test]
async fn save_load_and_new_game_reset_the_gate_and_epoch() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    s.post("/api/game/advance", json!({"days": 3})).await;
    let (_, saved) = s.post("/api/game/save", json!({"name": "day4"})).await;
    assert_eq!(saved["name"], "day4");
    assert!(saved["bytes"].as_u64().unwrap() > 0);
    assert!(s.has_save("day4").await, "the save is listed");
    let t_saved = s.get("/api/time").await.1;
    s.post("/api/game/advance", json!({"days": 2})).await;
    s.post("/api/agent/request", json!({"prompt": "x"})).await;
    let epoch = s.get("/api/agent/state").await.1["epoch"].clone();

    let (_, loaded) = s.post("/api/game/load", json!({"name": "day4"})).await;
    assert_eq!(loaded["name"], "day4");
    let st = s.get("/api/agent/state").await.1;
    assert_eq!(st["ready"], false);
    assert!(st["pendingRequest"].is_null());
    assert_ne!(st["epoch"], epoch);
    assert_eq!(s.get("/api/time").await.0, 409, "the gate closed on load");
    s.post("/api/ready", json!({"ready": true})).await;
    assert_eq!(
        s.get("/api/time").await.1["partialDayNumber"],
        t_saved["partialDayNumber"]
    );
    // Request ids restart after a load.
    assert_eq!(
        s.post("/api/agent/request", json!({"prompt": "y"})).await.1["pendingRequest"]["id"],
        1
    );

    let (_, body) = s.post("/api/game/load", json!({"name": "missing"})).await;
    assert_eq!(code(&body), "not_found");
    assert!(
        body["available"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == "day4")
    );
    let (_, body) = s.post("/api/game/save", json!({"name": "../evil"})).await;
    assert_eq!(code(&body), "invalid_param");
    // A load comes from the saves folder only: a path, or `..`, is refused, and a bare name is
    // never read from colonyd's working directory (the tests run it in crates/server, which
    // holds a Cargo.toml).
    for name in ["../evil", "/etc/passwd", "a/b", ".."] {
        let (_, body) = s.post("/api/game/load", json!({ "name": name })).await;
        assert_eq!(code(&body), "invalid_param", "{name}: {body}");
    }
    assert!(std::path::Path::new("Cargo.toml").is_file());
    let (_, body) = s
        .post("/api/game/load", json!({"name": "Cargo.toml"}))
        .await;
    assert_eq!(
        code(&body),
        "not_found",
        "not read from the working directory: {body}"
    );
    std::fs::write(
        s.data_dir().join("saves").join("junk.colony.json"),
        b"not a save",
    )
    .unwrap();
    s.post("/api/ready", json!({"ready": true})).await;
    let (_, body) = s.post("/api/game/load", json!({"name": "junk"})).await;
    assert_eq!(code(&body), "operation_failed");

    s.post("/api/ready", json!({"ready": true})).await;
    let (_, info) = s
        .post(
            "/api/game/new",
            json!({"seed": 5, "faction": "IronTeeth", "map": "48x40", "settlement": "Rust Creek"}),
        )
        .await;
    assert_eq!(
        (info["faction"].as_str(), info["seed"].as_u64()),
        (Some("IronTeeth"), Some(5))
    );
    assert_eq!(info["mapSize"], json!({"x": 48, "y": 40}));
    s.post("/api/ready", json!({"ready": true})).await;
    assert_eq!(s.get("/api/settlement").await.1["name"], "Rust Creek");
    assert_eq!(s.get("/api/time").await.1["dayNumber"], 1);
    for bad in [
        json!({"faction": "Otters"}),
        json!({"map": "huge"}),
        json!({"map": 9000}),
        json!({"mode": "Insane"}),
    ] {
        let (_, body) = s.post("/api/game/new", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}");
    }
}

/// One attempt: a long advance occupies the game thread while a burst of writes arrives behind
/// it. Returns the advance's wall time and each write's status and body.
async fn burst_behind_advance(s: &Server, days: u32) -> (f64, Vec<(u16, Value)>) {
    let long = {
        let client = s.client.clone();
        let url = s.url("/api/game/advance");
        tokio::spawn(async move {
            client
                .post(url)
                .json(&json!({"days": days}))
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut handles = Vec::new();
    for i in 0..20 {
        let client = s.client.clone();
        let url = s.url("/api/speed");
        handles.push(tokio::spawn(async move {
            let r = client
                .post(url)
                .json(&json!({"speed": 1 + i % 3}))
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }));
    }
    let mut statuses = Vec::new();
    for h in handles {
        statuses.push(h.await.unwrap());
    }
    let adv = long.await.unwrap();
    (
        adv["wallMs"]
            .as_f64()
            .unwrap_or_else(|| panic!("advance failed: {adv}")),
        statuses,
    )
}

#[tokio::test]
async fn a_full_write_queue_answers_503_and_applies_nothing() {
    let s = Server::start_with(Opts {
        settings: json!({"writeQueueCapacity": 1}),
        ..Default::default()
    })
    .await;
    // The advance must outlast the burst; grow it until it does (the sim's cost changes over time).
    let mut days = 20;
    let (wall_ms, statuses) = loop {
        s.post("/api/speed", json!({"speed": 0})).await;
        let (wall_ms, statuses) = burst_behind_advance(&s, days).await;
        if wall_ms > 400.0 || days >= 3650 {
            break (wall_ms, statuses);
        }
        days = (days * 5).min(3650);
    };
    let refused: Vec<_> = statuses.iter().filter(|(st, _)| *st == 503).collect();
    assert!(
        !refused.is_empty(),
        "advance took {wall_ms} ms: {statuses:?}"
    );
    assert_eq!(code(&refused[0].1), "queue_full");
    // Nothing of a refused write was applied: the speed is the last accepted one's.
    let applied: Vec<i64> = statuses
        .iter()
        .filter(|(st, _)| *st == 200)
        .map(|(_, b)| b["speed"].as_i64().unwrap())
        .collect();
    let speed = s.get("/api/speed").await.1["speed"].as_i64().unwrap();
    assert!(
        applied.is_empty() || applied.contains(&speed),
        "speed {speed} was never accepted: {statuses:?}"
    );
    if applied.is_empty() {
        assert_eq!(speed, 0);
    }
}

#[tokio::test]
async fn openapi_covers_every_served_route() {
    let s = Server::start().await;
    let (_, doc) = s.get("/api/openapi.json").await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(doc["info"]["version"], "1.0.0");
    // What the pipeline adds around the handlers is documented too.
    assert_eq!(doc["servers"][0]["url"], s.url(""));
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let time = &doc["paths"]["/api/time"]["get"];
    let format = time["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "format");
    assert_eq!(
        format.unwrap()["schema"]["enum"],
        json!(["toon", "json", "toon-text"])
    );
    for status in ["400", "401", "403", "409", "413", "415", "503"] {
        assert!(time["responses"][status].is_object(), "{status}");
    }
    let settings = &doc["paths"]["/api/settings"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"];
    assert_eq!(
        settings["properties"]["corsOrigin"]["type"], "string",
        "{settings}"
    );
    assert!(
        settings["properties"].get("changes").is_none(),
        "settings are flat"
    );
    let paths = doc["paths"].as_object().unwrap();
    let (_, listing) = s.get("/api/definitely-unknown").await;
    for (key, method) in [("get_endpoints", "get"), ("post_endpoints", "post")] {
        for route in listing[key].as_array().unwrap() {
            let route = route.as_str().unwrap();
            assert!(
                paths.get(route).and_then(|p| p.get(method)).is_some(),
                "{method} {route} missing from the OpenAPI document"
            );
            // And every documented route is really served.
            let resp = if method == "get" {
                s.get(route).await
            } else {
                s.post(route, json!({})).await
            };
            assert_ne!(code(&resp.1), "unknown_endpoint", "{method} {route}");
        }
    }
    for must in [
        "/api/ping",
        "/api/time",
        "/api/weather",
        "/api/speed",
        "/api/workhours",
        "/api/settlement",
        "/api/agent/state",
        "/api/agent/config",
        "/api/agent/request",
        "/api/agent/message",
        "/api/ready",
        "/api/game/new",
        "/api/game/save",
        "/api/game/load",
        "/api/game/saves",
        "/api/game/advance",
        "/api/benchmark",
    ] {
        assert!(paths.contains_key(must), "{must}");
    }
}

#[tokio::test]
async fn benchmark_is_debug_only_and_measures_routes() {
    let s = Server::start().await;
    let (_, body) = s.post("/api/benchmark", json!({})).await;
    assert_eq!(code(&body), "disabled");
    let s = Server::start_with(Opts {
        settings: json!({"debugEndpointEnabled": true}),
        ..Default::default()
    })
    .await;
    let (_, r) = s
        .post(
            "/api/benchmark",
            json!({"iterations": 20, "routes": ["/api/time", "/api/weather"]}),
        )
        .await;
    assert_eq!(r["iterations"], 20);
    let routes = r["routes"].as_array().unwrap();
    assert_eq!(routes.len(), 2);
    for t in routes {
        let (min, med, max) = (
            t["minUs"].as_f64().unwrap(),
            t["medianUs"].as_f64().unwrap(),
            t["maxUs"].as_f64().unwrap(),
        );
        assert!(min > 0.0 && min <= med && med <= max, "{t}");
        assert!(t["bytes"].as_u64().unwrap() > 10);
    }
    let (_, body) = s
        .post("/api/benchmark", json!({"routes": ["/api/nope"]}))
        .await;
    assert_eq!(code(&body), "invalid_param");
    let (_, body) = s.post("/api/benchmark", json!({"iterations": 0})).await;
    assert_eq!(code(&body), "invalid_param");
}

#[tokio::test]
async fn settings_change_at_run_time_and_are_written_back() {
    let s = Server::start_with(Opts {
        settings: json!({"authToken": "abc"}),
        ..Default::default()
    })
    .await;
    let (_, v) = s.get("/api/settings").await;
    assert_eq!(v["settings"]["authToken"], "***");
    let (_, v) = s
        .post("/api/settings", json!({"corsOrigin": "http://dash"}))
        .await;
    assert_eq!(v["settings"]["corsOrigin"], "http://dash");
    let r = s
        .client
        .get(s.url("/api/time"))
        .bearer_auth("abc")
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://dash",
        "applies at once"
    );
    let (_, body) = s.post("/api/settings", json!({"corsOrigin": 5})).await;
    assert_eq!(code(&body), "invalid_param");
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let file: Value =
        serde_json::from_slice(&std::fs::read(s.data_dir().join("settings.json")).unwrap())
            .unwrap();
    assert_eq!(file["corsOrigin"], "http://dash");
    assert_eq!(file["authToken"], "abc");
}

//! `POST /api/zipline/connect` and `disconnect` end to end: the refusals (no such building, not
//! a tower, a malformed body) answer in the contract's format and change nothing. (Cables
//! between unlocked, built towers are played in `sim::colony::zipline`'s tests.)

use super::lay_street;
use crate::support::{Server, code};
use serde_json::json;

#[tokio::test]
async fn cables_to_what_is_not_a_zipline_tower_are_refused_and_change_nothing() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    lay_street(&s).await;
    let (_, paths) = s.get("/api/buildings?limit=0&format=json&name=Path").await;
    let a = paths[0]["id"].as_i64().expect("a path of the street");
    let b = paths[1]["id"].as_i64().expect("another");
    let hash = |v: serde_json::Value| v["stateHash"].clone();
    let before = hash(s.get("/api/game/hash?format=json").await.1);
    for route in ["/api/zipline/connect", "/api/zipline/disconnect"] {
        for (body, want) in [
            (json!({"from": 12345, "to": a}), "not_found"),
            (json!({"from": a, "to": b}), "invalid_type"),
            (json!({"from": a}), "invalid_param"),
            (json!({"from": "seven", "to": b}), "invalid_param"),
        ] {
            let (_, r) = s.post(route, body.clone()).await;
            assert_eq!(code(&r), want, "{route} {body}: {r}");
        }
    }
    let (_, r) = s
        .post("/api/zipline/connect", json!({"from": a, "to": b}))
        .await;
    let text = r["error"].as_str().unwrap_or_default();
    assert!(text.contains("not a zipline tower"), "{r}");
    assert_eq!(hash(s.get("/api/game/hash?format=json").await.1), before);
}

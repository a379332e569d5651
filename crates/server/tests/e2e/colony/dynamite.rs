//! `POST /api/dynamite/detonate` end to end: the refusals (no such building, not a charge, a
//! malformed body) answer in the contract's format and change nothing. (A detonation itself needs
//! the charge unlocked and its Explosives delivered; `sim::colony::dynamite`'s tests play that.)

use super::lay_street;
use crate::support::{Server, code};
use serde_json::json;

#[tokio::test]
async fn detonating_what_is_not_a_finished_charge_is_refused_and_changes_nothing() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    lay_street(&s).await;
    let (_, paths) = s.get("/api/buildings?limit=0&format=json&name=Path").await;
    let path = paths[0]["id"].as_i64().expect("a path of the street");
    let hash = |v: serde_json::Value| v["stateHash"].clone();
    let before = hash(s.get("/api/game/hash?format=json").await.1);
    for (body, want) in [
        (json!({"id": 12345}), "not_found"),
        (json!({"id": path}), "invalid_type"),
        (json!({}), "invalid_param"),
        (json!({"id": "seven"}), "invalid_param"),
    ] {
        let (_, r) = s.post("/api/dynamite/detonate", body.clone()).await;
        assert_eq!(code(&r), want, "{body}: {r}");
    }
    let (_, r) = s.post("/api/dynamite/detonate", json!({"id": path})).await;
    let text = r["error"].as_str().unwrap_or_default();
    assert!(
        text.contains("not dynamite") && text.contains("TripleDynamite"),
        "{r}"
    );
    assert_eq!(hash(s.get("/api/game/hash?format=json").await.1), before);
}

//! `POST /api/entity/rename` end to end: refusals that change nothing, a beaver's new name in
//! the lists, its `entity.renamed` event and the state hash, the district center naming its
//! district, and the names kept through a save and load.

use crate::support::{Server, code, frame_where};
use serde_json::json;

async fn state_hash(s: &Server) -> serde_json::Value {
    s.get("/api/game/hash?format=json").await.1["stateHash"].clone()
}

#[tokio::test]
async fn renaming_beavers_and_the_district_center() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (mut ws, _) = s.ws().await;
    let (_, all) = s.get("/api/beavers?limit=0&format=json").await;
    let id = all[0]["id"].as_i64().unwrap();
    let old = all[0]["name"].as_str().unwrap().to_owned();
    let before = state_hash(&s).await;
    for (body, want) in [
        (json!({"id": id, "name": "  "}), "invalid_param"),
        (json!({"id": id, "name": "Pump/Crew"}), "invalid_param"),
        (json!({"id": id, "name": "x".repeat(33)}), "invalid_param"),
        (json!({"id": id}), "invalid_param"),
        (json!({"id": 12345, "name": "Nobody"}), "not_found"),
    ] {
        let (_, answer) = s.post("/api/entity/rename", body.clone()).await;
        assert_eq!(code(&answer), want, "{body}: {answer}");
    }
    assert_eq!(state_hash(&s).await, before, "refusals change nothing");

    let (_, r) = s
        .post("/api/entity/rename", json!({"id": id, "name": " Bucky "}))
        .await;
    let want = json!({"id": id, "kind": "character", "name": "Bucky", "previous": old});
    assert_eq!(r, want);
    let f = frame_where(&mut ws, 200, |f| {
        f["type"] == "event" && f["payload"]["event"] == "entity.renamed"
    })
    .await;
    assert_eq!(f["payload"]["data"], want);
    assert_ne!(state_hash(&s).await, before, "the name is game state");
    let (_, rows) = s.get("/api/beavers?limit=0").await;
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == id)
        .unwrap();
    assert_eq!(row["name"], "Bucky");

    // The district center's name is its district's.
    let (_, full) = s
        .get("/api/buildings?detail=full&limit=0&format=json&name=DistrictCenter")
        .await;
    let dc = &full[0];
    assert_eq!(dc["customName"], "District 1", "{dc}");
    let dc_id = dc["id"].as_i64().unwrap();
    let (_, r) = s
        .post(
            "/api/entity/rename",
            json!({"id": dc_id, "name": "Riverside"}),
        )
        .await;
    assert_eq!(r["previous"], "District 1", "{r}");
    let (_, ds) = s.get("/api/districts?format=json").await;
    assert_eq!(ds[0]["name"], "Riverside", "{ds}");

    // Both names survive a save and a load.
    s.post("/api/game/save", json!({"name": "named"})).await;
    let (_, loaded) = s.post("/api/game/load", json!({"name": "named"})).await;
    assert_eq!(loaded["name"], "named", "{loaded}");
    s.post("/api/ready", json!({"ready": true})).await;
    let (_, one) = s
        .get_one(&format!("/api/beavers?id={id}&format=json"))
        .await;
    assert_eq!(one["name"], "Bucky", "{one}");
    let (_, ds) = s.get("/api/districts?format=json").await;
    assert_eq!(ds[0]["name"], "Riverside");
}

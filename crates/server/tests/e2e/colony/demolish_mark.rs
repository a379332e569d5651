//! `POST /api/building/demolish/mark` end to end: refusals, the mark in the building's view and
//! its events, unmarking, and the builders taking a marked building down over game time.

use super::{dc_door, lay_street, place_best};
use crate::support::{Server, code, frame_where};
use serde_json::json;

#[tokio::test]
async fn a_marked_building_is_taken_down_by_the_builders() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (mut ws, _) = s.ws().await;
    // A site goes at once: it is never marked.
    let site = place_best(&s, "GathererFlag.Folktails").await["id"].clone();
    let (_, r) = s
        .post(
            "/api/building/demolish/mark",
            json!({"id": site, "marked": true}),
        )
        .await;
    assert_eq!(code(&r), "invalid_type", "{r}");
    // The far end of a street of paths (finished at once) is what the builders take down.
    lay_street(&s).await;
    let (ex, ey) = dc_door(&s).await;
    let (_, paths) = s.get("/api/buildings?limit=0&format=json&name=Path").await;
    let id = paths
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["x"] == ex && p["y"] == ey - 6)
        .expect("the street's last path")["id"]
        .as_i64()
        .unwrap();
    let (_, b) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(b["markedForDemolition"], false, "{b}");
    for (body, want) in [
        (json!({"id": 12345, "marked": true}), "not_found"),
        (json!({"id": id}), "invalid_param"),
    ] {
        let (_, answer) = s.post("/api/building/demolish/mark", body.clone()).await;
        assert_eq!(code(&answer), want, "{body}: {answer}");
    }
    let (_, r) = s
        .post(
            "/api/building/demolish/mark",
            json!({"id": id, "marked": true}),
        )
        .await;
    assert_eq!(r, json!({"id": id, "name": "Path", "marked": true}));
    let f = frame_where(&mut ws, 500, |f| {
        f["type"] == "event" && f["payload"]["event"] == "demolish.marked"
    })
    .await;
    assert_eq!(f["payload"]["data"]["id"], id);
    let (_, b) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(b["markedForDemolition"], true, "{b}");
    s.post(
        "/api/building/demolish/mark",
        json!({"id": id, "marked": false}),
    )
    .await;
    frame_where(&mut ws, 500, |f| {
        f["type"] == "event" && f["payload"]["event"] == "demolish.unmarked"
    })
    .await;
    s.post("/api/game/advance", json!({"hours": 24})).await;
    let (_, b) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(b["id"], id, "unmarked, it stands: {b}");
    // Marked again, the builders take it down within two days, not at once.
    s.post(
        "/api/building/demolish/mark",
        json!({"id": id, "marked": true}),
    )
    .await;
    let (_, b) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(b["id"], id, "marking removes nothing yet: {b}");
    s.post("/api/game/advance", json!({"hours": 48})).await;
    let (_, gone) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(code(&gone), "not_found", "{gone}");
    frame_where(&mut ws, 20_000, |f| {
        f["type"] == "event"
            && f["payload"]["event"] == "building.deconstructed"
            && f["payload"]["data"]["id"] == id
    })
    .await;
}

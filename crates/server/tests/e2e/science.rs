//! Science and the building catalogue end to end: prefabs in both formats, the science list,
//! unlock errors.

use crate::support::{Server, code};
use serde_json::json;

#[tokio::test]
async fn prefabs_list_the_factions_buildings_in_both_formats() {
    let s = Server::start().await;
    let (_, list) = s.get("/api/prefabs?format=json").await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 152, "151 Folktails buildings and Path");
    assert!(
        list.iter()
            .all(|p| p["name"].as_str().unwrap().ends_with(".Folktails") || p["name"] == "Path")
    );
    let mill = list
        .iter()
        .find(|p| p["name"] == "LumberMill.Folktails")
        .unwrap();
    assert_eq!(
        (
            mill["sizeX"].as_u64(),
            mill["sizeY"].as_u64(),
            mill["sizeZ"].as_u64()
        ),
        (Some(3), Some(2), Some(3))
    );
    assert_eq!(mill["cost"], json!([{"good": "Log", "amount": 15.0}]));
    assert!(
        mill.get("scienceCost").is_none() && mill.get("unlocked").is_none(),
        "omitted without a science cost"
    );
    let costly = list
        .iter()
        .find(|p| p.get("scienceCost").is_some())
        .unwrap();
    assert!(costly["scienceCost"].as_u64().unwrap() > 0);
    assert_eq!(costly["unlocked"], false);
    let (_, rows) = s.get("/api/prefabs").await;
    let rows = rows.as_array().unwrap();
    let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert!(
        rows.iter()
            .all(|r| r.as_object().unwrap().keys().collect::<Vec<_>>() == keys)
    );
    let mill = rows
        .iter()
        .find(|p| p["name"] == "LumberMill.Folktails")
        .unwrap();
    assert_eq!(mill["cost"], "Log:15");
    assert_eq!(mill["scienceCost"], 0);
    // Another faction's game lists its own buildings.
    s.post("/api/game/new", json!({"faction": "IronTeeth", "map": 32}))
        .await;
    s.post("/api/ready", json!({"ready": true})).await;
    let (_, list) = s.get("/api/prefabs?format=json").await;
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "BreedingPod.IronTeeth")
    );
    assert!(
        !list
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"].as_str().unwrap().ends_with(".Folktails"))
    );
}

#[tokio::test]
async fn science_lists_unlockables_and_unlock_checks_points() {
    let s = Server::start().await;
    let (_, sc) = s.get("/api/science").await;
    assert_eq!(sc["points"], 0);
    let items = sc["unlockables"].as_array().unwrap();
    assert!(!items.is_empty());
    assert!(
        items
            .iter()
            .all(|u| u["cost"].as_u64().unwrap() > 0 && u["unlocked"] == false)
    );
    let target = items[0]["name"].as_str().unwrap();
    let (_, body) = s
        .post("/api/science/unlock", json!({"building": target}))
        .await;
    assert_eq!(code(&body), "insufficient_science", "{body}");
    assert_eq!(body["building"], target);
    assert_eq!(body["scienceCost"], items[0]["cost"]);
    assert_eq!(body["currentPoints"], 0);
    let (_, body) = s
        .post(
            "/api/science/unlock",
            json!({"building": "Castle.Folktails"}),
        )
        .await;
    assert_eq!(code(&body), "not_found");
    assert_eq!(body["building"], "Castle.Folktails");
    let (_, body) = s.post("/api/science/unlock", json!({})).await;
    assert_eq!(code(&body), "invalid_param");
    assert_eq!(
        s.get("/api/science").await.1["points"],
        0,
        "nothing was spent"
    );
}

//! Building actions end to end: workplace actions (workers, pause, priority, hauling, range) and
//! production and storage settings (recipes, farmhouse, plantables, storage, floodgates), each
//! write checked in the next read.

use super::{building, keys, place_best, refused};
use crate::support::{Server, code};
use serde_json::json;

#[tokio::test]
async fn workplace_actions_show_in_the_next_read() {
    let s = Server::start().await;
    let flag = place_best(&s, "LumberjackFlag.Folktails").await["id"].clone();
    // Workers clamp to 0..maxWorkers.
    let (_, w) = s
        .post("/api/building/workers", json!({"id": flag, "count": 9}))
        .await;
    assert_eq!(
        w,
        json!({"id": flag, "name": "LumberjackFlag.Folktails", "desiredWorkers": 1,
               "maxWorkers": 1, "assignedWorkers": 0})
    );
    let (_, w) = s
        .post("/api/building/workers", json!({"id": flag, "count": 0}))
        .await;
    assert_eq!(w["desiredWorkers"], 0);
    assert_eq!(building(&s, &flag).await["desiredWorkers"], 0);
    // Pause.
    let (_, p) = s
        .post("/api/building/pause", json!({"id": flag, "paused": true}))
        .await;
    assert_eq!(
        p,
        json!({"id": flag, "name": "LumberjackFlag.Folktails", "paused": true})
    );
    let (_, page) = s.get("/api/buildings?name=Lumberjack").await;
    assert_eq!(page["items"][0]["paused"], true);
    // Priority: the field named is the one set.
    let (_, p) = s
        .post(
            "/api/building/priority",
            json!({"id": flag, "priority": "veryhigh", "type": "workplace"}),
        )
        .await;
    assert_eq!(
        p,
        json!({"id": flag, "name": "LumberjackFlag.Folktails", "workplacePriority": "VeryHigh"})
    );
    let (_, p) = s
        .post(
            "/api/building/priority",
            json!({"id": flag, "priority": "High"}),
        )
        .await;
    assert_eq!(p["constructionPriority"], "High", "an unfinished site");
    let b = building(&s, &flag).await;
    assert_eq!(
        (&b["workplacePriority"], &b["constructionPriority"]),
        (&json!("VeryHigh"), &json!("High"))
    );
    let (_, body) = s
        .post(
            "/api/building/priority",
            json!({"id": flag, "priority": "urgent"}),
        )
        .await;
    assert_eq!(
        (code(&body), &body["got"]),
        ("invalid_param", &json!("urgent"))
    );
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("VeryLow, Low, Normal, High, VeryHigh")
    );
    // A finished building has no construction priority: refused, nothing changes.
    let dc = s.get("/api/buildings?name=District").await.1["items"][0]["id"].clone();
    let before = building(&s, &dc).await;
    let (_, body) = s
        .post(
            "/api/building/priority",
            json!({"id": dc, "priority": "High", "type": "construction"}),
        )
        .await;
    assert_eq!(code(&body), "invalid_param", "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("finished"),
        "{body}"
    );
    assert_eq!(building(&s, &dc).await, before);
    // Hauling and range.
    let (_, h) = s
        .post(
            "/api/building/hauling",
            json!({"id": flag, "prioritized": true}),
        )
        .await;
    assert_eq!(h["haulPrioritized"], true);
    assert_eq!(building(&s, &flag).await["haulPrioritized"], true);
    let (_, r) = s.post("/api/building/range", json!({"id": flag})).await;
    assert_eq!(
        keys(&r),
        ["id", "name", "tiles", "moist", "bounds", "inReach"]
    );
    assert_eq!(keys(&r["bounds"]), ["x1", "y1", "x2", "y2"]);
    assert!(r["tiles"].as_u64().unwrap() > 0);
    // What lies in the lumberjack's reach: the same counts in the range and the building view
    // (placed where placement/find found trees); a list row never carries them.
    assert_eq!(keys(&r["inReach"]), ["trees", "treesMarked", "saplings"]);
    assert!(
        r["inReach"]["trees"].as_u64().unwrap() + r["inReach"]["saplings"].as_u64().unwrap() > 0
    );
    assert_eq!(building(&s, &flag).await["inReach"], r["inReach"]);
    let (_, full) = s
        .get("/api/buildings?detail=full&limit=0&format=json")
        .await;
    assert!(
        full.as_array()
            .unwrap()
            .iter()
            .all(|b| b.get("inReach").is_none())
    );
    // The district center cannot be paused; unknown ids are not_found with the id.
    let dc = s.get("/api/buildings?name=District").await.1["items"][0]["id"].clone();
    let (_, body) = s
        .post("/api/building/pause", json!({"id": dc, "paused": true}))
        .await;
    assert_eq!((code(&body), &body["id"]), ("invalid_type", &dc));
    assert_eq!(body["name"], "DistrictCenter.Folktails");
    for (path, extra) in [
        ("/api/building/pause", json!({"paused": true})),
        ("/api/building/workers", json!({"count": 1})),
        ("/api/building/hauling", json!({"prioritized": true})),
        ("/api/building/range", json!({})),
    ] {
        let mut body = extra.clone();
        body["id"] = 4242.into();
        let (_, e) = s.post(path, body).await;
        assert_eq!((code(&e), &e["id"]), ("not_found", &json!(4242)), "{path}");
        let (_, e) = s.post(path, extra).await;
        assert_eq!(code(&e), "invalid_param", "{path}: id is required");
        assert!(e["error"].as_str().unwrap().contains("id"), "{path}");
    }
    let (_, e) = s.post("/api/building/pause", json!({"id": flag})).await;
    assert!(e["error"].as_str().unwrap().contains("paused"), "{e}");
}

#[tokio::test]
async fn production_and_storage_settings() {
    let s = Server::start().await;
    let mill = place_best(&s, "LumberMill.Folktails").await["id"].clone();
    let farm = place_best(&s, "EfficientFarmHouse.Folktails").await["id"].clone();
    let store = place_best(&s, "SmallWarehouse.Folktails").await["id"].clone();
    // Recipes.
    let (_, r) = s
        .post(
            "/api/building/recipe",
            json!({"id": mill, "recipe": "plank"}),
        )
        .await;
    assert_eq!(
        r,
        json!({"id": mill, "name": "LumberMill.Folktails", "recipe": "Plank"})
    );
    assert_eq!(building(&s, &mill).await["currentRecipe"], "Plank");
    let body = refused(
        &s,
        "/api/building/recipe",
        json!({"id": mill, "recipe": "Bread"}),
        "not_found",
    )
    .await;
    assert_eq!(
        (&body["recipeId"], &body["available"]),
        (&json!("Bread"), &json!(["Plank"]))
    );
    let (_, r) = s
        .post(
            "/api/building/recipe",
            json!({"id": mill, "recipe": "none"}),
        )
        .await;
    assert_eq!(r["recipe"], "");
    refused(
        &s,
        "/api/building/recipe",
        json!({"id": farm, "recipe": "Plank"}),
        "invalid_type",
    )
    .await;
    // Farmhouse action and plantable.
    let (_, f) = s
        .post(
            "/api/building/farmhouse",
            json!({"id": farm, "action": "planting"}),
        )
        .await;
    assert_eq!(
        f,
        json!({"id": farm, "name": "EfficientFarmHouse.Folktails", "action": "planting"})
    );
    let (_, f) = s
        .post(
            "/api/building/farmhouse",
            json!({"id": farm, "action": "harvesting"}),
        )
        .await;
    assert_eq!(f["action"], "default");
    let (_, body) = s
        .post(
            "/api/building/farmhouse",
            json!({"id": farm, "action": "sleeping"}),
        )
        .await;
    assert_eq!(
        (code(&body), &body["got"]),
        ("invalid_param", &json!("sleeping"))
    );
    refused(
        &s,
        "/api/building/farmhouse",
        json!({"id": mill, "action": "planting"}),
        "invalid_type",
    )
    .await;
    let (_, p) = s
        .post(
            "/api/building/plantable",
            json!({"id": farm, "plantable": "carrot"}),
        )
        .await;
    assert_eq!(
        p,
        json!({"id": farm, "name": "EfficientFarmHouse.Folktails", "prioritized": "Carrot"})
    );
    let body = refused(
        &s,
        "/api/building/plantable",
        json!({"id": farm, "plantable": "Pine"}),
        "not_found",
    )
    .await;
    assert_eq!(body["plantableName"], "Pine");
    assert!(
        body["available"]
            .as_array()
            .unwrap()
            .contains(&json!("Carrot"))
    );
    // Storage: good and/or mode.
    let (_, st) = s
        .post(
            "/api/building/storage",
            json!({"id": store, "good": "berries", "mode": "supply"}),
        )
        .await;
    assert_eq!(
        st,
        json!({"id": store, "name": "SmallWarehouse.Folktails", "good": "Berries", "mode": "supply"})
    );
    let (_, st) = s
        .post(
            "/api/building/storage",
            json!({"id": store, "mode": "obtain"}),
        )
        .await;
    assert_eq!(
        (&st["good"], &st["mode"]),
        (&json!("Berries"), &json!("obtain"))
    );
    let b = building(&s, &store).await;
    assert_eq!(
        (&b["allowedGood"], &b["storageMode"]),
        (&json!("Berries"), &json!("obtain"))
    );
    let (_, st) = s
        .post(
            "/api/building/storage",
            json!({"id": store, "good": "none"}),
        )
        .await;
    assert_eq!(st["good"], "");
    for bad in [
        json!({"id": store}),
        json!({"id": store, "mode": "hoard"}),
        json!({"id": store, "good": "Water"}),
    ] {
        let (_, body) = s.post("/api/building/storage", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}");
    }
    refused(
        &s,
        "/api/building/storage",
        json!({"id": mill, "mode": "accept"}),
        "invalid_type",
    )
    .await;
    // Floodgates only.
    let (_, body) = s
        .post(
            "/api/building/floodgate",
            json!({"id": mill, "height": 1.0}),
        )
        .await;
    assert_eq!(
        (code(&body), &body["name"]),
        ("invalid_type", &json!("LumberMill.Folktails"))
    );
    refused(
        &s,
        "/api/building/floodgate",
        json!({"id": mill}),
        "invalid_param",
    )
    .await;
    refused(
        &s,
        "/api/building/range",
        json!({"id": store}),
        "invalid_type",
    )
    .await;
}

//! Land routes end to end: tiles, trees, crops, gatherables, clusters, cutting and planting
//! marks, crop demolition, with their error cases; and the route catalogue against the server.

use crate::support::{Server, code, frame_where};
use serde_json::{Value, json};

#[tokio::test]
async fn tiles_json_and_toon_shapes_and_errors() {
    let s = Server::start().await; // 64x64 map
    let (_, r) = s.get("/api/tiles?x1=60&y1=0&x2=70&y2=3&format=json").await;
    assert_eq!(r["mapSize"]["x"], 64);
    assert_eq!(
        r["region"],
        json!({"x1": 60, "y1": 0, "x2": 63, "y2": 3}),
        "clamped to the map"
    );
    let tiles = r["tiles"].as_array().unwrap();
    assert_eq!(tiles.len(), 16);
    assert!(
        tiles
            .iter()
            .all(|t| t["terrain"].is_u64() && t["water"].is_number())
    );
    assert!(
        tiles
            .iter()
            .all(|t| t.get("moist").is_none() || t["moist"] == true),
        "json omits false flags"
    );
    // toon rows: flat and uniform.
    let (_, r) = s.get("/api/tiles?x1=0&y1=0&x2=63&y2=63").await;
    let rows = r["tiles"].as_array().unwrap();
    assert_eq!(rows.len(), 64 * 64);
    let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert!(
        rows.iter()
            .all(|t| t.as_object().unwrap().keys().collect::<Vec<_>>() == keys)
    );
    assert!(
        rows.iter().any(|t| t["water"].as_f64().unwrap() > 0.0),
        "the river holds water"
    );
    assert!(
        rows.iter()
            .any(|t| !t["occupants"].as_str().unwrap().is_empty()),
        "something grows"
    );
    assert!(rows.iter().all(|t| t["occupants"].is_string()));
    for (query, what) in [
        ("x1=0&y1=0&x2=5", "y2"),
        ("x1=0&y1=0&x2=five&y2=5", "x2"),
        ("x1=9&y1=0&x2=5&y2=5", "x1"),
        ("x1=100&y1=100&x2=120&y2=120", ""),
    ] {
        let (_, body) = s.get(&format!("/api/tiles?{query}")).await;
        assert_eq!(code(&body), "invalid_param", "{query}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(what),
            "{query}: {body}"
        );
    }
}

async fn first_tree(s: &Server) -> Value {
    let (_, trees) = s.get("/api/trees?limit=0").await;
    trees
        .as_array()
        .unwrap()
        .first()
        .cloned()
        .expect("the seeded map has trees")
}

#[tokio::test]
async fn tree_lists_paginate_and_filter() {
    let s = Server::start().await;
    let (_, all) = s.get("/api/trees?limit=0").await;
    let all = all.as_array().unwrap();
    assert!(all.len() > 5);
    let t = &all[0];
    for key in [
        "id", "name", "x", "y", "z", "alive", "marked", "grown", "growth",
    ] {
        assert!(t.get(key).is_some(), "{key}");
    }
    let (_, page) = s.get("/api/trees?limit=2&offset=1").await;
    assert_eq!(page["total"].as_u64().unwrap() as usize, all.len());
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert_eq!(page["items"][0]["id"], all[1]["id"]);
    let name = t["name"].as_str().unwrap();
    let (_, by_name) = s
        .get(&format!("/api/trees?limit=0&name={}", name.to_lowercase()))
        .await;
    assert!(
        by_name
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["name"] == name)
    );
    let (x, y) = (t["x"].as_i64().unwrap(), t["y"].as_i64().unwrap());
    let (_, near) = s
        .get(&format!("/api/trees?limit=0&x={x}&y={y}&radius=3"))
        .await;
    let near = near.as_array().unwrap();
    assert!(near.iter().any(|r| r["id"] == t["id"]));
    assert!(
        near.iter().all(|r| (r["x"].as_i64().unwrap() - x).abs()
            + (r["y"].as_i64().unwrap() - y).abs()
            <= 3)
    );
    let (_, body) = s.get("/api/trees?x=3").await;
    assert_eq!(code(&body), "invalid_param");
    let (_, body) = s.get("/api/trees?limit=-4").await;
    assert_eq!(code(&body), "invalid_param");
    let (_, crops) = s.get("/api/crops").await;
    assert_eq!(crops["total"], 0, "nothing is planted in a new game");
    let (_, g) = s.get("/api/gatherables?limit=0").await;
    for row in g.as_array().unwrap() {
        assert_eq!(row.as_object().unwrap().len(), 6, "{row}");
    }
}

#[tokio::test]
async fn clusters_count_what_they_claim() {
    let s = Server::start().await;
    let (_, c) = s.get("/api/tree_clusters?format=json").await;
    let c = c.as_array().unwrap();
    assert!(!c.is_empty() && c.len() <= 5);
    for cl in c {
        let total: u64 = cl["species"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(total, cl["total"].as_u64().unwrap());
        assert!(cl["grown"].as_u64().unwrap() <= total);
    }
    let (_, toon) = s.get("/api/tree_clusters").await;
    assert!(toon[0]["species"].as_str().unwrap().contains(':'));
    let (_, food) = s.get("/api/food_clusters").await;
    assert!(food.as_array().unwrap().len() <= 5);
}

#[tokio::test]
async fn cutting_marks_read_back_and_emit_events() {
    let s = Server::start().await;
    let (mut ws, _) = s.ws().await;
    let t = first_tree(&s).await;
    let (x, y, z) = (
        t["x"].as_i64().unwrap(),
        t["y"].as_i64().unwrap(),
        t["z"].as_i64().unwrap(),
    );
    let (_, r) = s
        .post(
            "/api/cutting/area",
            json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": z, "marked": true}),
        )
        .await;
    assert_eq!(r["tiles"], 1, "{r}");
    assert_eq!(r["marked"], true);
    let (_, trees) = s.get("/api/trees?limit=0").await;
    let again = trees
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == t["id"])
        .unwrap()
        .clone();
    assert_eq!(again["marked"], true);
    // cutting.area.changed comes first, then tree.marked per tree whose mark changed.
    let f = frame_where(&mut ws, 200, |f| {
        f["payload"]["event"] == "cutting.area.changed"
    })
    .await;
    assert_eq!(f["payload"]["data"]["tiles"], 1);
    let f = frame_where(&mut ws, 200, |f| f["payload"]["event"] == "tree.marked").await;
    assert_eq!(f["payload"]["data"]["id"], t["id"]);
    assert_eq!(f["payload"]["data"]["marked"], true);
    for bad in [
        json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": 99, "marked": true}),
        json!({"x1": 9, "y1": 9, "x2": 1, "y2": 1, "z": z, "marked": true}),
        json!({"x1": 500, "y1": 500, "x2": 600, "y2": 600, "z": z, "marked": true}),
        json!({"x1": x, "y1": y, "x2": x, "z": z, "marked": true}),
        json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": z}),
    ] {
        let (_, body) = s.post("/api/cutting/area", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}: {body}");
    }
    let (_, r) = s
        .post(
            "/api/cutting/area",
            json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": z, "marked": false}),
        )
        .await;
    assert_eq!(r["marked"], false);
}

#[tokio::test]
async fn planting_marks_find_and_clear() {
    let s = Server::start().await;
    let (_, body) = s
        .post(
            "/api/planting/mark",
            json!({"x1": 0, "y1": 0, "x2": 3, "y2": 3, "z": 4, "crop": "Turnip"}),
        )
        .await;
    assert_eq!(code(&body), "invalid_param");
    assert!(
        body["error"].as_str().unwrap().contains("Carrot"),
        "lists the valid crops: {body}"
    );
    // Find free land for carrots anywhere, then mark one spot's tile.
    let (_, found) = s
        .post(
            "/api/planting/find",
            json!({"crop": "Carrot", "x1": 0, "y1": 0, "x2": 63, "y2": 63}),
        )
        .await;
    let spots = found["spots"].as_array().unwrap();
    assert!(!spots.is_empty(), "{found}");
    let sp = &spots[0];
    let (x, y, z) = (
        sp["x"].as_i64().unwrap(),
        sp["y"].as_i64().unwrap(),
        sp["z"].as_i64().unwrap(),
    );
    let (_, r) = s
        .post(
            "/api/planting/mark",
            json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": z, "crop": "Carrot"}),
        )
        .await;
    assert_eq!(
        (
            r["marked"].as_u64(),
            r["planted"].as_u64(),
            r["skipped"].as_u64(),
            r["crop"].as_str()
        ),
        (Some(1), Some(1), Some(0), Some("Carrot")),
        "marked names what happened; planted, the contract's name, stays"
    );
    let (_, found) = s
        .post(
            "/api/planting/find",
            json!({"crop": "Carrot", "x1": x, "y1": y, "x2": x, "y2": y}),
        )
        .await;
    assert_eq!(found["spots"][0]["planted"], true);
    // A wrong level is skipped.
    let (_, r) = s
        .post(
            "/api/planting/mark",
            json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": z + 1, "crop": "Carrot"}),
        )
        .await;
    assert_eq!(
        (r["planted"].as_u64(), r["skipped"].as_u64()),
        (Some(0), Some(1))
    );
    let (_, r) = s
        .post(
            "/api/planting/clear",
            json!({"x1": x, "y1": y, "x2": x, "y2": y, "z": z}),
        )
        .await;
    assert_eq!(
        (r["cleared"].as_bool(), r["tiles"].as_u64()),
        (Some(true), Some(1))
    );
    let (_, body) = s
        .post("/api/planting/find", json!({"crop": "Carrot"}))
        .await;
    assert_eq!(code(&body), "invalid_param");
    let (_, body) = s
        .post("/api/planting/find", json!({"crop": "Carrot", "id": 77}))
        .await;
    assert_eq!(code(&body), "not_found");
}

#[tokio::test]
async fn crop_demolish_errors() {
    let s = Server::start().await;
    let (_, body) = s.post("/api/crop/demolish", json!({"id": 12345})).await;
    assert_eq!(code(&body), "not_found");
    let t = first_tree(&s).await;
    let (_, body) = s.post("/api/crop/demolish", json!({"id": t["id"]})).await;
    assert_eq!(code(&body), "invalid_type", "{body}");
    let (_, body) = s
        .post("/api/crop/demolish", json!({"id": 1i64 << 40}))
        .await;
    assert_eq!(code(&body), "not_found");
}

#[tokio::test]
async fn the_route_catalogue_is_exactly_what_the_server_serves() {
    let s = Server::start().await;
    let (_, doc) = s.get("/api/openapi.json").await;
    let mut served: Vec<(String, String)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in ["get", "post"] {
            if item.get(method).is_some() {
                served.push((method.to_uppercase(), path.clone()));
            }
        }
    }
    served.sort();
    let mut catalogue: Vec<(String, String)> = protocol::routes::method_paths()
        .into_iter()
        .map(|(m, p)| (m.as_str().to_string(), p.to_string()))
        .collect();
    catalogue.sort();
    assert_eq!(served, catalogue);
}

#[tokio::test]
async fn a_large_region_built_off_the_runtime_answers_the_same_bytes() {
    // 64x64 map: the whole map (4,096 tiles) is built inline; the same region asked with far
    // corners (clamped to it, but over 16,384 tiles asked) is built on the blocking pool.
    let s = Server::start().await;
    let client = reqwest::Client::new();
    for format in ["json", "toon", "toon-text"] {
        let body = |x2: u32| {
            let url = s.url(&format!(
                "/api/tiles?x1=0&y1=0&x2={x2}&y2={x2}&format={format}"
            ));
            let client = client.clone();
            async move {
                let r = client.get(url).send().await.unwrap();
                let ct = r.headers()["content-type"].to_str().unwrap().to_owned();
                (r.status().as_u16(), ct, r.bytes().await.unwrap())
            }
        };
        let (small, large) = (body(63).await, body(5000).await);
        assert_eq!(small.0, 200);
        assert_eq!((small.0, &small.1), (large.0, &large.1), "{format}");
        assert!(small.2 == large.2, "{format}: the bytes differ");
    }
    // An error is still an error body with its code.
    let (_, e) = s.get("/api/tiles?x1=0&y1=0&x2=5000&y2=-9000").await;
    assert!(!code(&e).is_empty(), "{e}");
}

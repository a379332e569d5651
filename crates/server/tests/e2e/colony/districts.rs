//! Districts end to end: districts, resources, distribution and migration, with their error
//! cases.

use super::{flat_and_uniform, keys, refused};
use crate::support::{Server, code};
use serde_json::{Value, json};

#[tokio::test]
async fn districts_resources_distribution_and_migration() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, pop) = s.get("/api/population").await;
    assert_eq!(
        pop,
        json!([{"district": "District 1", "adults": 8, "children": 4, "bots": 0}])
    );
    let (_, res) = s.get("/api/resources?format=json").await;
    assert_eq!(
        res["District 1"]["Log"],
        json!({"available": 40, "all": 40})
    );
    let (_, rows) = s.get("/api/resources").await;
    assert!(flat_and_uniform(&rows));
    assert!(rows.as_array().unwrap().contains(
        &json!({"district": "District 1", "good": "Berries", "available": 130, "all": 130})
    ));
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r["all"].as_u64().unwrap() > 0)
    );
    // A second district center costs materials (the prefab list says which) and is a
    // construction site: no district until builders finish it.
    let (_, prefabs) = s.get("/api/prefabs?format=json").await;
    let listed = prefabs
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "DistrictCenter.Folktails")
        .unwrap();
    assert_eq!(
        listed["cost"],
        json!([{"good": "Log", "amount": 60.0}, {"good": "Plank", "amount": 80.0}])
    );
    let (_, spots) = s
        .post(
            "/api/placement/find",
            json!({"prefab": "DistrictCenter.Folktails", "x1": 0, "y1": 0, "x2": 15, "y2": 15}),
        )
        .await;
    let p = &spots[0];
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": "DistrictCenter.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
               "orientation": p["orientation"]}),
        )
        .await;
    let (_, site) = s
        .get(&format!("/api/buildings?id={}&format=json", placed["id"]))
        .await;
    let site = &site["items"][0];
    assert_eq!(
        (&site["finished"], &site["materialProgress"]),
        (&json!(false), &json!(0.0)),
        "{site}"
    );
    let (_, ds) = s.get("/api/districts?format=json").await;
    assert_eq!(ds.as_array().unwrap().len(), 1, "a site founds no district");
    // A colony whose second center was built (prepared with the simulation's commands).
    crate::power::load_prepared(&s, "two-centers", |w| {
        crate::power::place_somewhere(w, "DistrictCenter.Folktails");
    })
    .await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, ds) = s.get("/api/districts?format=json").await;
    assert_eq!(ds.as_array().unwrap().len(), 2);
    assert_eq!(keys(&ds[0]), ["name", "population", "resources"]);
    assert_eq!(
        ds[0]["resources"]["Plank"],
        json!({"available": 20, "all": 20})
    );
    let (_, rows) = s.get("/api/districts").await;
    assert!(flat_and_uniform(&rows), "{rows}");
    assert_eq!(
        rows[1],
        json!({"name": "District 2", "adults": 0, "children": 0, "bots": 0,
               "Berries": 0, "Log": 0, "Plank": 0})
    );
    // Migration.
    let (_, m) = s
        .post(
            "/api/district/migrate",
            json!({"from": "District 1", "to": "District 2", "count": 2}),
        )
        .await;
    assert_eq!(
        m,
        json!({"from": "District 1", "to": "District 2", "migrated": 2})
    );
    let (_, pop) = s.get("/api/population").await;
    assert_eq!(
        (&pop[0]["adults"], &pop[1]["adults"]),
        (&json!(6), &json!(2))
    );
    let body = refused(
        &s,
        "/api/district/migrate",
        json!({"from": "District 9", "to": "District 2", "count": 1}),
        "not_found",
    )
    .await;
    assert_eq!(body["from"], "District 9");
    assert_eq!(body["districts"], json!(["District 1", "District 2"]));
    // An unknown destination is named as `to`, not `from`.
    let body = refused(
        &s,
        "/api/district/migrate",
        json!({"from": "District 1", "to": "District 9", "count": 1}),
        "not_found",
    )
    .await;
    assert_eq!(
        (&body["to"], &body["from"]),
        (&json!("District 9"), &Value::Null)
    );
    // Migrating a district to itself is a bad parameter, not an empty district.
    let body = refused(
        &s,
        "/api/district/migrate",
        json!({"from": "District 1", "to": "district 1", "count": 5}),
        "invalid_param",
    )
    .await;
    assert!(
        body["error"].as_str().unwrap().contains("same district"),
        "{body}"
    );
    let (_, pop2) = s.get("/api/population").await;
    assert_eq!(pop2, pop, "nothing moved");
    let body = refused(
        &s,
        "/api/district/migrate",
        json!({"from": "District 1", "to": "District 2"}),
        "invalid_param",
    )
    .await;
    assert!(body["error"].as_str().unwrap().contains("count"));
    // More adults than the district has: refused, nobody moves.
    let body = refused(
        &s,
        "/api/district/migrate",
        json!({"from": "District 1", "to": "District 2", "count": 7}),
        "invalid_param",
    )
    .await;
    assert_eq!(
        (&body["available"], &body["requested"]),
        (&json!(6), &json!(7)),
        "{body}"
    );
    assert!(body["error"].as_str().unwrap().contains("1 to 6"), "{body}");
    let (_, pop3) = s.get("/api/population").await;
    assert_eq!(pop3, pop, "nothing moved");
    // Distribution.
    let (_, set) = s
        .post(
            "/api/distribution",
            json!({"district": "district 1", "good": "log", "import": "Forced", "exportThreshold": 20}),
        )
        .await;
    assert_eq!(
        set,
        json!({"district": "District 1", "good": "Log", "importOption": "Forced", "exportThreshold": 20.0})
    );
    let (_, set) = s
        .post(
            "/api/distribution",
            json!({"district": "District 1", "good": "Log", "import": "allowed", "exportThreshold": -1}),
        )
        .await;
    assert_eq!(
        (&set["importOption"], &set["exportThreshold"]),
        (&json!("Auto"), &json!(20.0))
    );
    let (_, list) = s.get("/api/distribution?format=json").await;
    let log = list[0]["goods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["good"] == "Log")
        .unwrap()
        .clone();
    assert_eq!(
        log,
        json!({"good": "Log", "importOption": "Auto", "exportThreshold": 20.0})
    );
    let (_, rows) = s.get("/api/distribution").await;
    assert!(flat_and_uniform(&rows));
    assert!(rows.as_array().unwrap().contains(
        &json!({"district": "District 1", "good": "Log", "importOption": "Auto", "exportThreshold": 20.0})
    ));
    let body = refused(
        &s,
        "/api/distribution",
        json!({"district": "Nowhere", "good": "Log"}),
        "not_found",
    )
    .await;
    assert_eq!(body["district"], "Nowhere");
    assert!(body["districts"].is_array());
    for bad in [
        json!({"good": "Log"}),
        json!({"district": "District 1"}),
        json!({"district": "District 1", "good": "Gold"}),
        json!({"district": "District 1", "good": "Log", "import": "maybe"}),
    ] {
        let (_, body) = s.post("/api/distribution", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}");
    }
}

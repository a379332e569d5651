//! Colony routes end to end: the summary, buildings (list, place, find placements, demolish and
//! every action), beavers, population, resources, districts, distribution, migration,
//! wellbeing, alerts and notifications, in both formats and with their error cases; each write
//! is checked in the next read.

use crate::support::{Server, code};
use serde_json::{Value, json};

/// The district center's doorstep.
async fn dc_door(s: &Server) -> (i64, i64) {
    let (_, summary) = s.get("/api/summary?format=json").await;
    let dc = &summary["districts"][0]["dc"];
    (
        dc["entranceX"].as_i64().unwrap(),
        dc["entranceY"].as_i64().unwrap(),
    )
}

/// The area within 12 tiles of the district center's doorstep (clamped to the map by the
/// routes).
async fn near_dc(s: &Server) -> (i64, i64, i64, i64) {
    let (ex, ey) = dc_door(s).await;
    (ex - 12, ey - 12, ex + 12, ey + 12)
}

/// Whether every row of an array has the same keys, all with scalar values.
fn flat_and_uniform(rows: &Value) -> bool {
    let rows = rows.as_array().expect("an array of rows");
    let Some(first) = rows.first() else {
        return true;
    };
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    rows.iter().all(|r| {
        let r = r.as_object().unwrap();
        r.keys().collect::<Vec<_>>() == keys && r.values().all(|v| !v.is_object() && !v.is_array())
    })
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// Finds spots for a prefab near the district center and places it at the best one; returns
/// the place answer.
async fn place_best(s: &Server, prefab: &str) -> Value {
    let (x1, y1, x2, y2) = near_dc(s).await;
    let (_, spots) = s
        .post(
            "/api/placement/find",
            json!({"prefab": prefab, "x1": x1, "y1": y1, "x2": x2, "y2": y2}),
        )
        .await;
    let p = &spots[0];
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": prefab, "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": p["orientation"]}),
        )
        .await;
    assert!(placed["id"].is_i64(), "{prefab}: {placed}");
    placed
}

/// Lays a street of six paths out of the district center's door.
async fn lay_street(s: &Server) {
    let (ex, ey) = dc_door(s).await;
    let (_, street) = s
        .post(
            "/api/path/place",
            json!({"x1": ex, "y1": ey, "x2": ex, "y2": ey - 6}),
        )
        .await;
    assert!(street["placed"]["paths"].as_u64().unwrap() >= 5, "{street}");
}

/// Posts a body that must be refused with `code`; returns the error body.
async fn refused(s: &Server, path: &str, body: Value, code: &str) -> Value {
    let (_, answer) = s.post(path, body.clone()).await;
    assert_eq!(
        crate::support::code(&answer),
        code,
        "{path} {body}: {answer}"
    );
    answer
}

async fn building(s: &Server, id: &Value) -> Value {
    s.get_one(&format!("/api/buildings?id={id}&format=json"))
        .await
        .1
}

#[tokio::test]
async fn summary_json_and_toon_row() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, j) = s.get("/api/summary?format=json").await;
    assert_eq!(
        keys(&j),
        [
            "settlement",
            "faction",
            "time",
            "weather",
            "districts",
            "trees",
            "crops",
            "wellbeing",
            "science",
            "alerts",
            "buildings",
            "treeClusters",
            "foodClusters",
            "projections",
            "flows",
            "gameOver"
        ]
    );
    assert_eq!(j["faction"], "Folktails");
    assert_eq!(j["time"]["speed"], 0);
    assert_eq!(j["time"]["dayNumber"], 1);
    assert!(j["weather"]["cycleLengthInDays"].as_u64().unwrap() > 0);
    let d = &j["districts"][0];
    assert_eq!(
        d["population"],
        json!({"adults": 8, "children": 4, "bots": 0})
    );
    assert_eq!(
        d["resources"],
        json!({"Berries": 130, "Log": 40, "Plank": 20})
    );
    assert_eq!(
        keys(&d["housing"]),
        ["occupiedBeds", "totalBeds", "homeless"]
    );
    assert_eq!(d["housing"]["homeless"], 12);
    assert_eq!(
        keys(&d["employment"]),
        ["assigned", "vacancies", "unemployed"]
    );
    assert_eq!(keys(&d["wellbeing"]), ["average", "miserable", "critical"]);
    assert_eq!(
        keys(&d["dc"]),
        ["x", "y", "z", "orientation", "entranceX", "entranceY"]
    );
    let t = &j["trees"];
    assert!(
        t["unmarkedGrown"].as_u64().unwrap() > 0,
        "the map has trees"
    );
    let per_species: u64 = t["species"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["unmarkedGrown"].as_u64().unwrap())
        .sum();
    assert_eq!(per_species, t["unmarkedGrown"].as_u64().unwrap());
    assert_eq!(j["crops"], json!({"ready": 0, "growing": 0, "species": []}));
    assert!(
        j["wellbeing"]["categories"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| keys(c) == ["group", "current", "max"])
    );
    assert_eq!(
        keys(&j["alerts"]),
        ["unstaffed", "unpowered", "unreachable"]
    );
    assert_eq!(j["buildings"]["others"], 1, "the district center");
    assert!(j["treeClusters"].as_array().unwrap().len() <= 5);
    let dc = &d["dc"];
    for c in j["treeClusters"].as_array().unwrap() {
        assert_eq!(c["z"], dc["z"]);
        let dist = (c["x"].as_i64().unwrap() - dc["x"].as_i64().unwrap()).abs()
            + (c["y"].as_i64().unwrap() - dc["y"].as_i64().unwrap()).abs();
        assert!(dist <= 40 + 8, "{c} is near the district center");
    }
    // 130 berries for 12 beavers eating 2.67 a day each (Normal mode: x1).
    assert_eq!(j["projections"]["foodDays"], 4.1);
    assert_eq!(j["projections"]["waterDays"], 0.0);
    // No hour has passed: nothing flowed yet, so no log use to project from.
    assert_eq!(j["projections"]["logDays"], -1.0, "no logs used yet");
    assert_eq!(j["flows"], json!({}));
    assert_eq!(j["projections"]["foodDaysAtNet"], -1.0);

    let (_, r) = s.get("/api/summary").await;
    let row = r.as_object().expect("one flat row");
    assert!(row.values().all(|v| !v.is_object() && !v.is_array()));
    let order = [
        "settlement",
        "faction",
        "day",
        "dayProgress",
        "speed",
        "cycle",
        "cycleDay",
        "isHazardous",
        "tempDays",
        "hazardDays",
        "markedGrown",
        "markedSeedling",
        "unmarkedGrown",
        "cropReady",
        "cropGrowing",
        "adults",
        "children",
        "bots",
        "Berries",
        "Gear",
        "Log",
        "Plank",
        "Water",
        "foodDays",
        "waterDays",
        "logDays",
        "plankDays",
        "gearDays",
        "foodNetPerDay",
        "waterNetPerDay",
        "foodDaysAtNet",
        "waterDaysAtNet",
        "beds",
        "homeless",
        "workers",
        "unemployed",
        "wellbeing",
        "miserable",
        "critical",
        "science",
        "alerts",
        "food",
        "housing",
        "others",
        "power",
        "storage",
        "water",
        "wood",
        "treeClusters",
        "foodClusters",
        "gameOver",
    ];
    assert_eq!(keys(&r), order);
    assert_eq!(
        (r["adults"].as_u64(), r["Log"].as_u64()),
        (Some(8), Some(40))
    );
    assert_eq!(r["Gear"], 0, "always listed");
    assert_eq!(r["beds"], "0/0");
    assert_eq!(r["unmarkedGrown"], t["unmarkedGrown"]);
    assert_eq!(r["foodDays"], 4.1);
    assert!(
        r["alerts"].as_str().unwrap().starts_with("unstaffed:"),
        "{r}"
    );
    let clusters = r["treeClusters"].as_str().unwrap();
    assert_eq!(
        clusters.split('/').filter(|c| !c.is_empty()).count(),
        j["treeClusters"].as_array().unwrap().len()
    );
}

#[tokio::test]
async fn log_days_project_the_stock_at_the_last_days_use() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    lay_street(&s).await;
    for _ in 0..2 {
        place_best(&s, "Lodge.Folktails").await;
    }
    s.post("/api/game/advance", json!({"days": 1})).await;
    let (_, j) = s.get("/api/summary?format=json").await;
    let used = j["flows"]["Log"]["consumedLastDay"].as_f64().unwrap_or(0.0);
    assert!(used > 0.0, "the lodges used logs: {}", j["flows"]);
    let stock = j["districts"][0]["resources"]["Log"]
        .as_f64()
        .unwrap_or(0.0);
    assert_eq!(
        j["projections"]["logDays"].as_f64().unwrap(),
        (stock / used * 10.0).round() / 10.0,
        "{stock} logs at {used} a day"
    );
    // No gear was used: nothing to project.
    assert_eq!(j["projections"]["gearDays"], -1.0);
}

#[tokio::test]
async fn buildings_list_in_both_formats_with_detail_and_id() {
    let s = Server::start().await;
    let basic = [
        "id",
        "name",
        "x",
        "y",
        "z",
        "orientation",
        "finished",
        "paused",
        "priority",
        "workers",
    ];
    for fmt in ["toon", "json"] {
        let (_, page) = s.get(&format!("/api/buildings?format={fmt}")).await;
        assert_eq!(page["total"], 1, "a new game has its district center");
        let dc = &page["items"][0];
        assert_eq!(keys(dc), basic, "{fmt}");
        assert_eq!(dc["name"], "DistrictCenter.Folktails");
        assert_eq!(dc["finished"], true);
        assert!(dc["workers"].as_str().unwrap().contains('/'));
    }
    let (_, full) = s.get("/api/buildings?detail=full&format=json").await;
    let dc = &full["items"][0];
    assert_eq!(
        dc["inventory"],
        json!({"Berries": 130, "Log": 40, "Plank": 20})
    );
    assert!(dc["statuses"].is_array());
    assert!(
        dc.get("floodgate").is_none(),
        "absent components are absent"
    );
    let (_, rows) = s.get("/api/buildings?detail=full&limit=0").await;
    assert!(flat_and_uniform(&rows));
    assert_eq!(rows[0]["inventory"], "Berries:130/Log:40/Plank:20");
    let id = dc["id"].clone();
    let (_, one) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(&one, dc);
    // "Array or page": an array of one with limit=0, else the page wrapper with one item.
    let (_, arr) = s
        .get(&format!("/api/buildings?id={id}&limit=0&format=json"))
        .await;
    assert_eq!(arr, json!([dc]));
    let (_, page) = s.get(&format!("/api/buildings?id={id}&format=json")).await;
    assert_eq!(
        (&page["total"], &page["offset"], &page["limit"]),
        (&json!(1), &json!(0), &json!(100))
    );
    assert_eq!(page["items"], json!([dc]));
    let (_, one) = s.get_one(&format!("/api/buildings?id={id}")).await;
    assert!(flat_and_uniform(&json!([one])));
    assert_eq!(one["statuses"].as_str().unwrap(), rows[0]["statuses"]);
    // Two more buildings: filters and pages.
    place_best(&s, "LumberjackFlag.Folktails").await;
    place_best(&s, "SmallWarehouse.Folktails").await;
    let (_, rows) = s.get("/api/buildings?detail=full&limit=0").await;
    assert_eq!(rows.as_array().unwrap().len(), 3);
    assert!(flat_and_uniform(&rows), "components differ, keys do not");
    let (_, page) = s.get("/api/buildings?name=FLAG").await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["items"][0]["name"], "LumberjackFlag.Folktails");
    let (_, page) = s.get("/api/buildings?limit=1&offset=1").await;
    assert_eq!(
        (
            page["total"].as_u64(),
            page["items"].as_array().unwrap().len()
        ),
        (Some(3), 1)
    );
    let (_, page) = s.get("/api/buildings?x=5&y=5&radius=3").await;
    assert_eq!(page["total"], 0);
    // Errors.
    let (_, body) = s.get("/api/buildings?id=12345").await;
    assert_eq!(code(&body), "not_found");
    assert_eq!(body["id"], 12345);
    let (_, body) = s.get("/api/buildings?id=99999999999").await;
    assert_eq!(code(&body), "not_found");
    let (_, body) = s.get("/api/buildings?detail=most").await;
    assert_eq!(
        (code(&body), &body["got"]),
        ("invalid_param", &json!("most"))
    );
    let (_, body) = s.get("/api/buildings?x=3").await;
    assert_eq!(code(&body), "invalid_param");
}

#[tokio::test]
async fn placing_finding_and_demolishing() {
    let s = Server::start().await;
    let (x1, y1, x2, y2) = near_dc(&s).await;
    // A street out of the district center's door: spots beside it are reachable (none stands
    // beside the door itself, which stays open).
    lay_street(&s).await;
    let area = json!({"prefab": "Lodge.Folktails", "x1": x1, "y1": y1, "x2": x2, "y2": y2});
    let (_, found) = s
        .post("/api/placement/find?format=json", area.clone())
        .await;
    assert_eq!(
        (&found["prefab"], &found["sizeX"], &found["sizeY"]),
        (&json!("Lodge.Folktails"), &json!(2), &json!(2))
    );
    let spots = found["placements"].as_array().unwrap();
    assert!(!spots.is_empty() && spots.len() <= 10);
    for p in spots {
        for flag in ["pathAccess", "reachable", "nearPower", "flooded"] {
            assert!(p[flag] == 0 || p[flag] == 1, "{flag} is 0/1: {p}");
        }
    }
    assert_eq!(spots[0]["reachable"], 1, "reachable spots come first");
    let (_, rows) = s.post("/api/placement/find", area.clone()).await;
    assert!(rows.is_array(), "toon: a bare array");
    assert!(flat_and_uniform(&rows));
    assert_eq!(rows[0], spots[0]);
    let mut body_format = area.clone();
    body_format["format"] = "json".into();
    assert_eq!(s.post("/api/placement/find", body_format).await.1, found);
    refused(
        &s,
        "/api/placement/find",
        json!({"prefab": "Lodgy.Folktails", "x1": 0, "y1": 0, "x2": 9, "y2": 9}),
        "invalid_prefab",
    )
    .await;
    let body = refused(
        &s,
        "/api/placement/find",
        json!({"prefab": "Lodge.Folktails", "x1": 0}),
        "invalid_param",
    )
    .await;
    assert!(body["error"].as_str().unwrap().contains("y1"), "{body}");

    // A lumberjack's spots say how many trees lie in reach (toon: `trees:N/...` text).
    let wood =
        json!({"prefab": "LumberjackFlag.Folktails", "x1": x1, "y1": y1, "x2": x2, "y2": y2});
    let (_, found) = s
        .post("/api/placement/find?format=json", wood.clone())
        .await;
    let trees = &found["placements"][0]["inReach"];
    assert!(
        trees["trees"].as_u64().is_some() && trees["treesMarked"].is_u64(),
        "{found}"
    );
    let (_, rows) = s.post("/api/placement/find", wood).await;
    assert!(flat_and_uniform(&rows));
    assert!(
        rows[0]["inReach"].as_str().unwrap().starts_with("trees:"),
        "{rows}"
    );
    // No spot: json says why beside the empty list; toon keeps the bare array and says why in
    // headers.
    let locked =
        json!({"prefab": "LargeWarehouse.Folktails", "x1": x1, "y1": y1, "x2": x2, "y2": y2});
    let (_, none) = s
        .post("/api/placement/find?format=json", locked.clone())
        .await;
    assert_eq!(
        (&none["placements"], &none["reason"]),
        (&json!([]), &json!("not_unlocked")),
        "{none}"
    );
    assert!(
        none["detail"]
            .as_str()
            .unwrap()
            .contains("/api/science/unlock")
    );
    assert!(none["blocked"]["not_unlocked"].as_u64().unwrap() > 0);
    let r = s
        .client
        .post(s.url("/api/placement/find"))
        .header("content-type", "application/json")
        .body(locked.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-placement-reason"], "not_unlocked");
    assert!(r.headers().contains_key("x-placement-detail"));
    assert_eq!(r.json::<Value>().await.unwrap(), json!([]));

    // Place at the best spot; the next read shows it.
    let p = &spots[0];
    let want = json!({"prefab": "Lodge.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
                      "orientation": p["orientation"]});
    let (_, placed) = s.post("/api/building/place", want.clone()).await;
    assert_eq!(keys(&placed), ["id", "name", "x", "y", "z", "orientation"]);
    assert_eq!(placed["name"], "Lodge.Folktails");
    let turns = ["south", "west", "north", "east"];
    assert_eq!(
        turns[placed["orientation"].as_u64().unwrap() as usize],
        p["orientation"]
    );
    let (_, page) = s.get("/api/buildings?name=lodge").await;
    assert_eq!(page["items"][0]["id"], placed["id"]);
    assert_eq!(page["items"][0]["finished"], false, "a site first");
    // The same spot again: an uncoded placement error, and nothing left behind.
    let (_, body) = s.post("/api/building/place", want.clone()).await;
    let text = body["error"].as_str().unwrap();
    assert!(
        !text.starts_with("placement:") && text.contains("occupied"),
        "{body}"
    );
    assert_eq!(body["reason"], "occupied");
    for k in ["x", "y", "z", "prefab"] {
        assert_eq!(body[k], want[k], "{k}");
    }
    assert_eq!(s.get("/api/buildings?name=lodge").await.1["total"], 1);
    for (bad, what) in [
        (
            json!({"prefab": "Lodgy", "x": 1, "y": 1, "z": 4, "orientation": "south"}),
            "invalid_prefab",
        ),
        (
            json!({"prefab": "Lodge.Folktails", "x": 1, "y": 1, "z": 4}),
            "invalid_param",
        ),
        (
            json!({"prefab": "Lodge.Folktails", "x": 1, "y": 1, "z": 4, "orientation": "up"}),
            "invalid_param",
        ),
        (
            json!({"prefab": "Floodgate.Folktails", "x": 1, "y": 1, "z": 4, "orientation": "south"}),
            "not_unlocked",
        ),
    ] {
        let (_, body) = s.post("/api/building/place", bad.clone()).await;
        assert_eq!(code(&body), what, "{bad}: {body}");
    }
    let (_, body) = s
        .post(
            "/api/building/place",
            json!({"prefab": "Floodgate.Folktails", "x": 1, "y": 1, "z": 4, "orientation": "south"}),
        )
        .await;
    assert_eq!(body["scienceCost"], 150);
    assert_eq!(body["currentPoints"], 0);

    // Demolish: gone from the list; a second time is not_found.
    let id = placed["id"].clone();
    let (_, gone) = s.post("/api/building/demolish", json!({"id": id})).await;
    assert_eq!(
        gone,
        json!({"id": id, "name": "Lodge.Folktails", "demolished": true})
    );
    assert_eq!(s.get("/api/buildings?name=lodge").await.1["total"], 0);
    let (_, body) = s.post("/api/building/demolish", json!({"id": id})).await;
    assert_eq!((code(&body), &body["id"]), ("not_found", &id));
    refused(&s, "/api/building/demolish", json!({}), "invalid_param").await;
}

/// A placement search answers the same whatever searches ran before it: the service keeps the
/// world copy of the last search, with its navigation and ground-step caches, for the next
/// search of the same snapshot, and that must never show in an answer. Each answer of a run of
/// searches (a gym mask's: several prefabs over a grid of regions) is compared with the same
/// search run again in the opposite order on the same copy, and on a fresh copy (a write
/// publishes a new snapshot).
#[tokio::test]
async fn placement_answers_do_not_depend_on_the_searches_before_them() {
    let s = Server::start().await;
    lay_street(&s).await;
    let (x1, y1, x2, y2) = near_dc(&s).await;
    let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
    let regions = [
        (x1, y1, mx, my),
        (mx + 1, y1, x2, my),
        (x1, my + 1, mx, y2),
        (mx + 1, my + 1, x2, y2),
        (x1, y1, x2, y2),
    ];
    let prefabs = [
        "WaterPump.Folktails",
        "Lodge.Folktails",
        "LumberjackFlag.Folktails",
        "GathererFlag.Folktails",
        "EfficientFarmHouse.Folktails",
        "Path",
    ];
    let searches: Vec<Value> = prefabs
        .iter()
        .flat_map(|p| {
            regions.iter().map(move |(x1, y1, x2, y2)| {
                json!({"prefab": p, "x1": x1, "y1": y1, "x2": x2, "y2": y2})
            })
        })
        .collect();
    let find = |body: Value| async {
        let (status, found) = s.post("/api/placement/find?format=json", body).await;
        assert_eq!(status, 200, "{found}");
        found
    };
    let mut first = Vec::new();
    for b in &searches {
        first.push(find(b.clone()).await);
    }
    assert!(
        first
            .iter()
            .any(|f| f["placements"].as_array().unwrap().len() == 10),
        "the areas have spots"
    );
    for (b, want) in searches.iter().zip(&first).rev() {
        assert_eq!(
            &find(b.clone()).await,
            want,
            "again, in the opposite order: {b}"
        );
    }
    for (b, want) in searches.iter().zip(&first).rev() {
        s.post("/api/speed", json!({"speed": 0})).await;
        assert_eq!(&find(b.clone()).await, want, "on a fresh copy: {b}");
    }
}

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

#[tokio::test]
async fn beavers_in_both_formats() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, all) = s.get("/api/beavers?limit=0&format=json").await;
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 12);
    assert_eq!(all.iter().filter(|b| b["isChild"] == true).count(), 4);
    let b = &all[0];
    for k in [
        "id",
        "name",
        "x",
        "y",
        "z",
        "wellbeing",
        "district",
        "needs",
        "anyCritical",
        "lifeProgress",
        "workplace",
        "isBot",
        "contaminated",
        "activity",
        "hasHome",
    ] {
        assert!(b.get(k).is_some(), "{k}");
    }
    assert!(
        b["needs"][0].get("group").is_none(),
        "basic needs carry no group"
    );
    assert!(b.get("liftingCapacity").is_none());
    let (_, rows) = s.get("/api/beavers?limit=0").await;
    assert!(flat_and_uniform(&rows));
    let row = &rows[0];
    assert_eq!(
        keys(row),
        [
            "id",
            "name",
            "wellbeing",
            "tier",
            "isBot",
            "workplace",
            "critical"
        ]
    );
    let critical: Vec<&str> = b["needs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["critical"] == true)
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(row["critical"], critical.join("+"));
    let tier = |w: f64| match w {
        w if w >= 16.0 => "ecstatic",
        w if w >= 12.0 => "happy",
        w if w >= 8.0 => "okay",
        w if w >= 4.0 => "unhappy",
        _ => "miserable",
    };
    assert_eq!(row["tier"], tier(row["wellbeing"].as_f64().unwrap()));
    // Full detail: every need with its group.
    let (_, full) = s.get("/api/beavers?detail=full&limit=1&format=json").await;
    let f = &full["items"][0];
    assert!(
        f["needs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["group"].is_string())
    );
    assert!(f["liftingCapacity"].is_u64());
    let (_, flat) = s.get("/api/beavers?detail=full&limit=0").await;
    assert!(flat_and_uniform(&flat));
    assert!(flat[0]["needs"].as_str().unwrap().starts_with("Hunger:"));
    let id = b["id"].clone();
    let (_, page) = s.get(&format!("/api/beavers?id={id}&format=json")).await;
    assert_eq!((&page["total"], &page["items"][0]["id"]), (&json!(1), &id));
    let (_, one) = s
        .get_one(&format!("/api/beavers?id={id}&format=json"))
        .await;
    assert_eq!((&one["id"], &one["name"]), (&id, &b["name"]));
    assert!(one["needs"][0]["group"].is_string());
    let (_, body) = s.get("/api/beavers?id=7").await;
    assert_eq!((code(&body), &body["id"]), ("not_found", &json!(7)));
    let name = b["name"].as_str().unwrap();
    let (_, page) = s
        .get(&format!("/api/beavers?name={}", name.to_uppercase()))
        .await;
    assert!(page["total"].as_u64().unwrap() >= 1);
    let (_, body) = s.get("/api/beavers?detail=half").await;
    assert_eq!(code(&body), "invalid_param");
}

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

#[tokio::test]
async fn wellbeing_alerts_and_notifications() {
    let s = Server::start().await;
    let (_, wb) = s.get("/api/wellbeing?format=json").await;
    assert_eq!(wb["beavers"], 12);
    let cats = wb["categories"].as_array().unwrap();
    assert!(cats.iter().any(|c| c["group"] == "BasicNeeds"));
    assert!(cats.iter().all(|c| {
        c["needs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| keys(n) == ["id", "favorableWellbeing", "unfavorableWellbeing"])
    }));
    let (_, wt) = s.get("/api/wellbeing").await;
    assert_eq!(wt["beavers"], 12);
    assert!(flat_and_uniform(&wt["categories"]));
    assert!(
        wt["categories"][0]["needs"]
            .as_str()
            .unwrap()
            .starts_with("Hunger:")
    );
    // An unreachable building raises an alert.
    let (_, spots) = s
        .post(
            "/api/placement/find",
            json!({"prefab": "LumberMill.Folktails", "x1": 0, "y1": 0, "x2": 12, "y2": 12}),
        )
        .await;
    let p = spots
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["reachable"] == 0)
        .expect("far from the center nothing is reachable");
    let (_, mill) = s
        .post(
            "/api/building/place",
            json!({"prefab": "LumberMill.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": p["orientation"]}),
        )
        .await;
    let (_, alerts) = s.get("/api/alerts?limit=0").await;
    assert!(flat_and_uniform(&alerts));
    let rows = alerts.as_array().unwrap();
    assert!(
        rows.iter()
            .any(|a| a["type"] == "unreachable" && a["id"] == mill["id"] && a["workers"] == ""),
        "{alerts}"
    );
    assert_eq!(
        keys(&rows[0]),
        ["type", "id", "name", "x", "y", "z", "workers", "status"]
    );
    let (_, page) = s.get("/api/alerts?name=lumbermill&limit=1").await;
    assert!(page["total"].as_u64().unwrap() >= 1);
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    let (_, page) = s
        .get(&format!("/api/alerts?x={}&y={}&radius=2", p["x"], p["y"]))
        .await;
    assert!(
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["id"] == mill["id"])
    );
    // Notifications: none at first; without water the beavers die, newest first.
    let (_, n) = s.get("/api/notifications").await;
    assert_eq!(
        n,
        json!({"total": 0, "offset": 0, "limit": 100, "items": []})
    );
    let mut list = Value::Null;
    for _ in 0..20 {
        s.post("/api/game/advance", json!({"days": 1})).await;
        list = s.get("/api/notifications?limit=0").await.1;
        if list.as_array().unwrap().len() >= 2 {
            break;
        }
    }
    let list = list.as_array().unwrap();
    assert!(list.len() >= 2, "beavers without water die within 20 days");
    assert_eq!(
        keys(&list[0]),
        ["subject", "description", "cycle", "cycleDay"]
    );
    let at = |n: &Value| {
        (
            n["cycle"].as_u64().unwrap(),
            n["cycleDay"].as_u64().unwrap(),
        )
    };
    assert!(at(&list[0]) >= at(&list[list.len() - 1]), "newest first");
    let word = list[0]["subject"]
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let (_, page) = s.get(&format!("/api/notifications?name={word}")).await;
    assert!(page["total"].as_u64().unwrap() >= 1);
    let (_, body) = s.get("/api/notifications?x=1&y=1").await;
    assert_eq!(code(&body), "invalid_param");
}

#[tokio::test]
async fn an_orientation_may_be_an_integer_as_well_as_a_name_or_a_digit() {
    let s = Server::start().await;
    let (_, found) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "Lodge.Folktails", "x1": 0, "y1": 0, "x2": 63, "y2": 63}),
        )
        .await;
    let p = &found["placements"][0];
    let turns = ["south", "west", "north", "east"];
    let index = turns.iter().position(|t| *t == p["orientation"]).unwrap();
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": "Lodge.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": index}),
        )
        .await;
    assert_eq!(placed["orientation"], index, "{placed}");
    // Neither a name nor a number: the field and what it takes.
    let (_, body) = s
        .post(
            "/api/building/place",
            json!({"prefab": "Lodge.Folktails", "x": 1, "y": 1, "z": 4, "orientation": true}),
        )
        .await;
    assert_eq!(code(&body), "invalid_param", "{body}");
    let e = body["error"].as_str().unwrap();
    assert!(
        e.contains("orientation") && e.contains("a string or an integer"),
        "{e}"
    );
    // 7 is a number but no orientation.
    let (_, body) = s
        .post(
            "/api/building/place",
            json!({"prefab": "Lodge.Folktails", "x": 1, "y": 1, "z": 4, "orientation": 7}),
        )
        .await;
    assert_eq!(code(&body), "invalid_param", "{body}");
}

#[tokio::test]
async fn the_building_list_filters_by_role() {
    let s = Server::start().await;
    lay_street(&s).await;
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, all) = s.get("/api/buildings?limit=0&format=json").await;
    assert!(names(&all).iter().any(|n| n == "Path"));
    let (_, no_paths) = s
        .get("/api/buildings?limit=0&exclude=paths&format=json")
        .await;
    assert_eq!(names(&no_paths), ["DistrictCenter.Folktails"]);
    let (_, paths) = s.get("/api/buildings?limit=0&role=PATHS&format=json").await;
    assert!(!names(&paths).is_empty() && names(&paths).iter().all(|n| n == "Path"));
    let (_, some) = s
        .get("/api/buildings?limit=0&role=district,water&format=json")
        .await;
    assert_eq!(names(&some), ["DistrictCenter.Folktails"]);
    // The page's total counts what the filter kept.
    let (_, page) = s.get("/api/buildings?exclude=paths&format=json").await;
    assert_eq!(page["total"], 1, "{page}");
    let (_, bad) = s.get("/api/buildings?role=roads").await;
    assert_eq!(crate::support::code(&bad), "invalid_param", "{bad}");
    assert!(
        bad["error"].as_str().unwrap().contains("roles: automation"),
        "{bad}"
    );
}

//! Placing buildings end to end: finding spots, placing, demolishing and their error cases;
//! placement answers that do not depend on the searches before them; the forms an orientation
//! may take.

use super::{flat_and_uniform, keys, lay_street, near_dc, refused};
use crate::support::{Server, code};
use serde_json::{Value, json};

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

/// The bytes of one prefab's mask in a `/api/placement/mask` answer.
fn mask_bytes(answer: &Value, i: usize) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(answer["masks"][i]["spots"].as_str().unwrap())
        .unwrap()
}

#[tokio::test]
async fn the_placement_mask_is_what_place_accepts_and_follows_the_game() {
    let s = Server::start().await;
    let body = json!({"prefabs": ["Lodge.Folktails", "SmallTank.Folktails"]});
    let (status, m) = s.post("/api/placement/mask", body.clone()).await;
    assert_eq!(status, 200, "{m}");
    let (w, h) = (m["width"].as_u64().unwrap(), m["height"].as_u64().unwrap());
    assert_eq!(m["orientations"], json!(["south", "west", "north", "east"]));
    assert_eq!(m["masks"][1]["prefab"], "SmallTank.Folktails");
    let lodge = mask_bytes(&m, 0);
    assert_eq!(lodge.len() as u64, w * h * 4);
    let valid = lodge.iter().filter(|z| **z > 0).count();
    assert_eq!(m["masks"][0]["valid"], valid);
    assert!(valid > 100, "a new map has room for a lodge");
    // A valid spot is placed at the height the mask gives; a refused one is refused.
    let i = lodge.iter().position(|z| *z > 0).unwrap();
    let (x, y, o) = ((i / 4) as u64 % w, (i / 4) as u64 / w, i % 4);
    let spot =
        json!({"prefab": "Lodge.Folktails", "x": x, "y": y, "z": lodge[i] - 1, "orientation": o});
    let (_, placed) = s
        .post("/api/building/place?format=json", spot.clone())
        .await;
    assert!(placed["id"].is_i64(), "{placed}");
    // The last tile: a 2 x 2 lodge there runs off the map.
    let j = ((h * w - 1) * 4) as usize;
    assert_eq!(lodge[j], 0);
    let (x, y) = ((j / 4) as u64 % w, (j / 4) as u64 / w);
    let (_, no) = s
        .post(
            "/api/building/place",
            json!({"prefab": "Lodge.Folktails", "x": x, "y": y, "z": 0, "orientation": j % 4}),
        )
        .await;
    assert!(no["error"].is_string(), "{no}");
    // Asked again, the placed lodge's spot is taken.
    let (_, again) = s.post("/api/placement/mask", body).await;
    assert_eq!(mask_bytes(&again, 0)[i], 0);
    assert!(again["masks"][0]["valid"].as_u64().unwrap() < valid as u64);
    // Bad lists change nothing and say what to send.
    refused(
        &s,
        "/api/placement/mask",
        json!({"prefabs": []}),
        "invalid_param",
    )
    .await;
    refused(
        &s,
        "/api/placement/mask",
        json!({"prefabs": ["Castle.Folktails"]}),
        "invalid_prefab",
    )
    .await;
}

//! The contract's details that clients rely on, end to end: need points served on 0..1.

use crate::support::{Server, code};
use serde_json::json;

#[tokio::test]
async fn need_points_stay_within_0_and_1_and_critical_follows_the_threshold() {
    let s = Server::start().await;
    // Normal mode starts with no water: after two days Thirst is far below its favourable
    // threshold (the game's own points go negative).
    s.post("/api/game/advance", json!({"days": 2})).await;
    let (_, all) = s.get("/api/beavers?detail=full&limit=0&format=json").await;
    let beavers = all.as_array().unwrap();
    assert!(!beavers.is_empty());
    let mut thirsty = 0;
    for b in beavers {
        for n in b["needs"].as_array().unwrap() {
            let (p, t) = (
                n["points"].as_f64().unwrap(),
                n["threshold"].as_f64().unwrap(),
            );
            assert!((0.0..=1.0).contains(&p), "{} {}: {n}", b["name"], n["id"]);
            assert!((0.0..=1.0).contains(&t), "{n}");
            assert_eq!(
                n["favorable"].as_bool().unwrap(),
                p > t || (p == 1.0 && t == 1.0),
                "{n}"
            );
            if n["id"] == "Thirst" {
                assert_eq!(
                    t, 0.75,
                    "Thirst's range is -3..1, its threshold 0 is 0.75 served"
                );
                if p < t {
                    thirsty += 1;
                    assert_eq!(n["critical"], true, "{n}");
                }
            }
        }
    }
    assert!(thirsty > 0, "two days without water leave beavers thirsty");
}

#[tokio::test]
async fn planting_find_with_a_farmhouse_id_gives_the_spots_in_its_range() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, found) = s
        .post(
            "/api/placement/find?format=json",
            json!({"prefab": "EfficientFarmHouse.Folktails", "x1": 20, "y1": 14, "x2": 44, "y2": 34}),
        )
        .await;
    let p = &found["placements"][0];
    let (_, farm) = s
        .post(
            "/api/building/place",
            json!({"prefab": "EfficientFarmHouse.Folktails", "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": p["orientation"]}),
        )
        .await;
    let id = farm["id"].as_i64().unwrap_or_else(|| panic!("{farm}"));
    // An unfinished site: the range is geometric, so it has spots already.
    let (_, range) = s
        .post("/api/building/range?format=json", json!({"id": id}))
        .await;
    let (_, spots) = s
        .post(
            "/api/planting/find?format=json",
            json!({"crop": "Carrot", "id": id}),
        )
        .await;
    let spots = spots["spots"]
        .as_array()
        .unwrap_or_else(|| panic!("{spots}"));
    assert!(
        !spots.is_empty(),
        "a farmhouse on open ground has plantable tiles in range"
    );
    let (ex, ey) = (
        p["entranceX"].as_i64().unwrap(),
        p["entranceY"].as_i64().unwrap(),
    );
    let r = range["bounds"]["x2"].as_i64().unwrap() - range["bounds"]["x1"].as_i64().unwrap();
    for t in spots {
        let d = (t["x"].as_i64().unwrap() - ex).abs() + (t["y"].as_i64().unwrap() - ey).abs();
        assert!(
            d * 2 <= r + 1,
            "{t} is {d} from the doorstep ({ex}, {ey}); range {range}"
        );
        assert_eq!(t["z"], p["z"], "at the farmhouse's level");
    }
    // The same spots as an area scan of its range, minus those beyond the Manhattan radius.
    let b = &range["bounds"];
    let (_, area) = s
        .post(
            "/api/planting/find?format=json",
            json!({"crop": "Carrot", "x1": b["x1"], "y1": b["y1"], "x2": b["x2"], "y2": b["y2"], "z": p["z"]}),
        )
        .await;
    assert!(area["spots"].as_array().unwrap().len() >= spots.len());
    // Not a planter, and no such building.
    let (_, all) = s.get("/api/buildings?limit=0&format=json").await;
    let dc = all
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"].as_str().unwrap().starts_with("DistrictCenter"))
        .unwrap();
    let (_, body) = s
        .post(
            "/api/planting/find",
            json!({"crop": "Carrot", "id": dc["id"]}),
        )
        .await;
    assert_eq!(code(&body), "invalid_type", "{body}");
    let (_, body) = s
        .post("/api/planting/find", json!({"crop": "Carrot", "id": 77}))
        .await;
    assert_eq!(code(&body), "not_found");
}

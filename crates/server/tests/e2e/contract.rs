//! The contract's details that clients rely on, end to end: need points served on 0..1.

use crate::support::Server;
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

//! Beavers, wellbeing, alerts and notifications end to end, in both formats.

use super::{flat_and_uniform, keys};
use crate::support::{Server, code};
use serde_json::{Value, json};

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

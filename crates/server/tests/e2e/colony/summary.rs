//! The summary end to end: `/api/summary` as a JSON object and as one flat toon row, and its
//! stock projections (the logs' days left at the last day's use).

use super::{keys, lay_street, place_best};
use crate::support::Server;
use serde_json::json;

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

//! The colony's history end to end: `GET /api/stats` (rows per hour, day filters, formats,
//! errors), the history across save and load, the scenario `setup` of `POST /api/game/new`, and
//! the summary's `gameOver`.

use crate::support::{Server, code};
use serde_json::{Value, json};

#[tokio::test]
async fn stats_serve_one_row_per_hour_filtered_by_day() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, empty) = s.get("/api/stats?format=json").await;
    assert_eq!(
        (&empty["resolution"], &empty["rows"]),
        (&json!("hour"), &json!([]))
    );
    s.post("/api/game/advance", json!({"days": 2})).await;
    let (_, all) = s.get("/api/stats?format=json").await;
    let rows = all["rows"].as_array().unwrap();
    // The game starts at 04:00 of day 1: rows from 05:00 of day 1 to 04:00 of day 3.
    assert_eq!(rows.len(), 48);
    assert_eq!((&rows[0]["day"], &rows[0]["hour"]), (&json!(1), &json!(5)));
    assert_eq!(
        (&rows[47]["day"], &rows[47]["hour"]),
        (&json!(3), &json!(4))
    );
    let (_, summary) = s.get("/api/summary?format=json").await;
    let last = &rows[47];
    let pop: u64 = summary["districts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            d["population"]["adults"].as_u64().unwrap()
                + d["population"]["children"].as_u64().unwrap()
        })
        .sum();
    assert_eq!(
        last["adults"].as_u64().unwrap() + last["children"].as_u64().unwrap(),
        pop
    );
    assert_eq!(last["foodDays"], summary["projections"]["foodDays"]);
    assert_eq!(last["weather"], "temperate");
    assert_eq!(last["gameOver"], false);
    for key in [
        "births",
        "deaths",
        "stock",
        "waterDays",
        "wellbeing",
        "miserable",
        "critical",
        "buildings",
        "sites",
        "science",
        "scienceEarned",
        "unlocked",
        "produced",
        "consumed",
        "powerNetworks",
        "districts",
        "districtLinks",
        "automated",
        "ticks",
    ] {
        assert!(last.get(key).is_some(), "{key} in {last}");
    }
    let eaten: f64 = rows
        .iter()
        .filter_map(|r| r["consumed"]["Berries"].as_f64())
        .sum();
    assert!(eaten > 0.0, "beavers ate over two days");
    // Day filters (inclusive).
    let (_, day2) = s.get("/api/stats?from=2&to=2&format=json").await;
    let d2 = day2["rows"].as_array().unwrap();
    assert_eq!(d2.len(), 24);
    assert!(d2.iter().all(|r| r["day"] == 2));
    assert_eq!((&day2["from"], &day2["to"]), (&json!(2), &json!(2)));
    let (_, from3) = s.get("/api/stats?from=3&format=json").await;
    assert_eq!(
        from3["rows"].as_array().unwrap().len(),
        5,
        "day 3 up to 04:00"
    );
    // toon: flat uniform rows, maps as text.
    let (_, toon) = s.get("/api/stats?from=2&to=2").await;
    let t = toon.as_array().unwrap();
    assert_eq!(t.len(), 24);
    assert!(
        t[0]["stock"].as_str().unwrap().contains("Berries:"),
        "{}",
        t[0]
    );
    // Errors: clear, in the contract's format.
    for bad in ["from=0", "from=x", "to=-1", "from=5&to=4"] {
        let (status, body) = s.get(&format!("/api/stats?{bad}")).await;
        assert_eq!(
            (status, code(&body)),
            (200, "invalid_param"),
            "{bad}: {body}"
        );
    }
}

#[tokio::test]
async fn the_history_survives_save_and_load() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    s.post("/api/game/advance", json!({"hours": 30})).await;
    let (_, before) = s.get("/api/stats?format=json").await;
    s.post("/api/game/save", json!({"name": "h"})).await;
    s.post("/api/game/advance", json!({"hours": 10})).await;
    let (_, loaded) = s.post("/api/game/load", json!({"name": "h"})).await;
    assert!(loaded.get("error").is_none(), "{loaded}");
    s.post("/api/ready", json!({"ready": true})).await;
    let (_, after) = s.get("/api/stats?format=json").await;
    assert_eq!(after["rows"], before["rows"]);
    assert_eq!(before["rows"].as_array().unwrap().len(), 30);
}

#[tokio::test]
async fn a_new_game_takes_a_scenario_setup() {
    let s = Server::start().await;
    let (_, info) = s
        .post(
            "/api/game/new",
            json!({"seed": 7, "map": 64, "setup": {"goods": {"Water": 120, "Gear": 9},
                   "science": 250, "unlocked": ["GearWorkshop.Folktails"]}}),
        )
        .await;
    assert!(info.get("error").is_none(), "{info}");
    s.post("/api/ready", json!({"ready": true})).await;
    let (_, sci) = s.get("/api/science?format=json").await;
    assert_eq!(sci["points"], 250);
    let unlocked: Vec<&Value> = sci["unlockables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["unlocked"] == true)
        .collect();
    assert_eq!(unlocked.len(), 1);
    assert_eq!(unlocked[0]["name"], "GearWorkshop.Folktails");
    let (_, res) = s.get("/api/resources?format=json").await;
    let text = res.to_string();
    assert!(
        text.contains("\"Water\":{\"available\":120,\"all\":120}"),
        "{text}"
    );
    assert!(
        text.contains("\"Gear\":{\"available\":9,\"all\":9}"),
        "{text}"
    );
    // Bad setups change nothing and say what is valid.
    for (setup, needle) in [
        (json!({"goods": {"Gold": 5}}), "unknown good \"Gold\""),
        (
            json!({"unlocked": ["Lodge.Folktails"]}),
            "is not a Folktails building that science unlocks",
        ),
        (json!({"unlocked": ["BreedingPod.IronTeeth"]}), "valid: "),
        (json!({"science": -5}), "science"),
        (json!({"colour": "red"}), "colour"),
    ] {
        let (_, body) = s
            .post("/api/game/new", json!({"seed": 9, "setup": setup}))
            .await;
        assert_eq!(code(&body), "invalid_param", "{setup}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(needle),
            "{setup}: {body}"
        );
    }
    let (_, sci) = s.get("/api/science?format=json").await;
    assert_eq!(sci["points"], 250, "the refused games changed nothing");
}

#[tokio::test]
async fn the_summary_says_when_the_game_is_over() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, before) = s.get("/api/summary?format=json").await;
    assert_eq!(before["gameOver"], false);
    // Normal mode without water: everyone dies of thirst within ten days.
    s.post("/api/game/advance", json!({"days": 10})).await;
    let (_, after) = s.get("/api/summary?format=json").await;
    assert_eq!(after["gameOver"], true);
    let (_, row) = s.get("/api/summary").await;
    assert_eq!(row["gameOver"], true, "toon row too: {row}");
    let (_, stats) = s.get("/api/stats?format=json").await;
    let rows = stats["rows"].as_array().unwrap();
    assert_eq!(rows.last().unwrap()["gameOver"], true);
    let thirst: u64 = rows
        .iter()
        .filter_map(|r| r["deaths"]["thirst"].as_u64())
        .sum();
    assert_eq!(
        thirst,
        before["districts"][0]["population"]["adults"]
            .as_u64()
            .unwrap()
            + before["districts"][0]["population"]["children"]
                .as_u64()
                .unwrap(),
        "every death by thirst is counted"
    );
}

//! The OpenAPI document's answers (issue 32, item 8): sampled answers of every GET route, in
//! json and in the default toon form, on a colony with buildings, beavers, a history, a save and
//! an action log, each validated (`jsonschema`) against the form of the route's 200 answer the
//! document names for that format (`x-formats`).

use crate::colony::{lay_street, near_dc, place_best};
use crate::support::Server;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The form of `path`'s GET answer the document gives for `format` (`json` or `toon`).
fn form(doc: &Value, path: &str, format: &str) -> Value {
    let choices = &doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        ["anyOf"];
    let forms: Vec<&Value> = choices
        .as_array()
        .unwrap_or_else(|| panic!("{path}: no 200 choices"))
        .iter()
        .filter(|c| {
            c["x-formats"]
                .as_array()
                .is_some_and(|f| f.contains(&json!(format)))
        })
        .collect();
    assert_eq!(forms.len(), 1, "{path}: one form for {format}: {choices}");
    forms[0].clone()
}

/// The errors of `answer` against `schema`, whose references point into the document's
/// components.
fn errors(doc: &Value, schema: &Value, answer: &Value) -> Vec<String> {
    let root = json!({"allOf": [schema], "components": doc["components"]});
    let validator = jsonschema::draft202012::new(&root)
        .unwrap_or_else(|e| panic!("the schema compiles: {e}\n{schema}"));
    validator
        .iter_errors(answer)
        .take(5)
        .map(|e| {
            let mut line = format!("{} ({}): {e}", e.instance_path(), e.schema_path());
            // An answer that matches no alternative is quoted whole: its start is enough.
            if line.len() > 400 {
                line.truncate(line.floor_char_boundary(400));
                line.push_str("...");
            }
            line
        })
        .collect()
}

/// A colony a day and a half old with a street, sites and finished buildings, a cutting area,
/// a save, a log line and a pending prompt.
async fn colony() -> Server {
    let s = Server::start().await;
    lay_street(&s).await;
    for prefab in [
        "LumberjackFlag.Folktails",
        "GathererFlag.Folktails",
        "Lodge.Folktails",
        "SmallWarehouse.Folktails",
        "WaterPump.Folktails",
    ] {
        place_best(&s, prefab).await;
    }
    let (x1, y1, x2, y2) = near_dc(&s).await;
    let (_, dc) = s.get("/api/buildings?format=json").await;
    let z = &dc["items"][0]["z"];
    let area =
        json!({"x1": x1.max(0), "y1": y1.max(0), "x2": x2, "y2": y2, "z": z, "marked": true});
    let (_, cut) = s.post("/api/cutting/area", area).await;
    assert!(cut.get("error").is_none(), "{cut}");
    let (_, adv) = s.post("/api/game/advance", json!({"hours": 36})).await;
    assert!(adv.get("error").is_none(), "{adv}");
    let (_, saved) = s.post("/api/game/save", json!({"name": "sample"})).await;
    assert!(saved.get("error").is_none(), "{saved}");
    s.post(
        "/api/agent/message",
        json!({"message": "placed the first buildings"}),
    )
    .await;
    s.post("/api/agent/request", json!({"prompt": "grow"}))
        .await;
    s
}

/// The answers checked so far: the routes sampled and the disagreements found.
#[derive(Default)]
struct Checked {
    covered: BTreeSet<String>,
    failures: Vec<String>,
}

impl Checked {
    /// Asks for each sample (a path and query) in json and toon and validates the answers.
    async fn sample(&mut self, s: &Server, doc: &Value, samples: &[String]) {
        for sample in samples {
            let path = sample.split('?').next().unwrap();
            self.covered.insert(path.to_owned());
            for format in ["json", "toon"] {
                let sep = if sample.contains('?') { '&' } else { '?' };
                let (status, answer) = s.get(&format!("{sample}{sep}format={format}")).await;
                assert_eq!(status, 200, "{sample} {format}: {answer}");
                assert!(answer.get("error").is_none(), "{sample} {format}: {answer}");
                let errs = errors(doc, &form(doc, path, format), &answer);
                if !errs.is_empty() {
                    self.failures
                        .push(format!("{sample} ({format}):\n  {}", errs.join("\n  ")));
                }
            }
        }
    }
}

#[tokio::test]
async fn sampled_answers_of_every_get_route_match_the_document() {
    let s = colony().await;
    let (_, doc) = s.get("/api/openapi.json").await;
    let (_, beavers) = s.get("/api/beavers?format=json&limit=0").await;
    let beaver = &beavers[0]["id"];
    let (_, buildings) = s.get("/api/buildings?format=json&limit=0").await;
    let ids: Vec<&Value> = buildings
        .as_array()
        .unwrap()
        .iter()
        .map(|b| &b["id"])
        .collect();
    assert!(ids.len() >= 6, "{buildings}");
    assert!(
        buildings
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["finished"] == true && b["name"] != "DistrictCenter.Folktails"),
        "a building was finished: {buildings}"
    );
    let (x1, y1, _, _) = near_dc(&s).await;
    let mut samples: Vec<String> = [
        "/api/agent/log",
        "/api/agent/state",
        "/api/alerts",
        "/api/alerts?limit=0",
        "/api/beavers",
        "/api/beavers?detail=full",
        "/api/beavers?limit=0",
        "/api/beavers?limit=0&detail=full",
        "/api/beavers?limit=3&offset=2",
        "/api/buildings",
        "/api/buildings?detail=full",
        "/api/buildings?limit=0",
        "/api/buildings?limit=0&detail=full",
        "/api/buildings?limit=2&offset=1&detail=full",
        "/api/crops",
        "/api/distribution",
        "/api/districts",
        "/api/food_clusters",
        "/api/game/saves",
        "/api/game/hash",
        "/api/gatherables",
        "/api/gatherables?limit=0",
        "/api/notifications",
        "/api/notifications?limit=0",
        "/api/openapi.json",
        "/api/ping",
        "/api/population",
        "/api/power",
        "/api/prefabs",
        "/api/resources",
        "/api/science",
        "/api/settings",
        "/api/settlement",
        "/api/speed",
        "/api/stats",
        "/api/stats?from=2&to=2",
        "/api/summary",
        "/api/time",
        "/api/tree_clusters",
        "/api/trees",
        "/api/trees?limit=0&name=pine",
        "/api/weather",
        "/api/wellbeing",
        "/api/workhours",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    samples.push(format!("/api/beavers?id={beaver}"));
    samples.push(format!("/api/beavers?id={beaver}&limit=0"));
    for id in &ids {
        samples.push(format!("/api/buildings?id={id}"));
    }
    samples.push(format!(
        "/api/tiles?x1={x1}&y1={y1}&x2={}&y2={}",
        x1 + 20,
        y1 + 20
    ));

    let mut checked = Checked::default();
    checked.sample(&s, &doc, &samples).await;
    // The pump is not built: the beavers die of thirst, which gives notifications (and a colony
    // without beavers, sampled as well).
    for _ in 0..40 {
        if s.get("/api/notifications").await.1["total"] != 0 {
            break;
        }
        s.post("/api/game/advance", json!({"hours": 12})).await;
    }
    let after = [
        "/api/notifications",
        "/api/notifications?limit=0",
        "/api/notifications?limit=1&name=died",
        "/api/beavers",
        "/api/beavers?limit=0&detail=full",
        "/api/population",
        "/api/wellbeing",
        "/api/summary",
        "/api/alerts",
    ];
    let after: Vec<String> = after.iter().map(|p| p.to_string()).collect();
    checked.sample(&s, &doc, &after).await;
    let (_, notes) = s.get("/api/notifications").await;
    assert_ne!(
        notes["total"], 0,
        "beavers without water die within 20 days"
    );
    // GET /api/replay answers in replay mode only: a replay folder of this colony, served.
    let folder = crate::replay::replay_folder(&s, 1).await;
    let replaying = crate::replay::serve(folder.path()).await;
    checked
        .sample(&replaying, &doc, &["/api/replay".to_string()])
        .await;
    let (failures, covered) = (checked.failures, checked.covered);
    let gets: BTreeSet<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, item)| item.get("get").is_some())
        .map(|(p, _)| p.clone())
        .collect();
    assert_eq!(
        gets.difference(&covered).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "every GET route is sampled"
    );
    assert!(
        failures.is_empty(),
        "{} answers disagree with the document:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test]
async fn a_list_s_json_form_is_its_page_of_the_detail_level_s_items() {
    let s = Server::start().await;
    let (_, doc) = s.get("/api/openapi.json").await;
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Beaver"]["properties"]["critical"]["type"], "array");
    let json_form = form(&doc, "/api/buildings", "json");
    let wrapper = &json_form["oneOf"][0];
    assert_eq!(
        wrapper["required"],
        json!(["total", "offset", "limit", "items"])
    );
    let details: Vec<&Value> = wrapper["properties"]["items"]["items"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["$ref"])
        .collect();
    assert_eq!(
        details,
        [
            "#/components/schemas/BuildingRow",
            "#/components/schemas/Building"
        ]
    );
    // A full building is not a basic row, and a basic row is not a full building.
    let (_, full) = s.get("/api/buildings?detail=full&format=json").await;
    let (_, basic) = s.get("/api/buildings?format=json").await;
    let row = json!({"$ref": "#/components/schemas/BuildingRow"});
    let building = json!({"$ref": "#/components/schemas/Building"});
    assert!(!errors(&doc, &row, &full["items"][0]).is_empty());
    assert!(!errors(&doc, &building, &basic["items"][0]).is_empty());
    assert!(errors(&doc, &building, &full["items"][0]).is_empty());
    // The toon answers list their keys.
    let toon = form(&doc, "/api/population", "toon");
    assert!(toon["items"].is_object(), "{toon}");
    let summary = form(&doc, "/api/summary", "toon");
    assert!(
        summary["required"].as_array().unwrap().len() > 30,
        "{summary}"
    );
}

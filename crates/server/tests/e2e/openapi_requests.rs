//! The OpenAPI document's request side (issue 32, item 7): what the handlers check is declared,
//! so a request the document calls valid is taken; whole numbers written as floats fill integer
//! members.

use crate::support::{Server, code};
use serde_json::{Value, json};

fn body_prop<'a>(doc: &'a Value, schema: &str, prop: &str) -> &'a Value {
    let s = &doc["components"]["schemas"][schema];
    if s["properties"].get(prop).is_some() {
        return &s["properties"][prop];
    }
    s["allOf"]
        .as_array()
        .and_then(|parts| parts.iter().find_map(|p| p["properties"].get(prop)))
        .unwrap_or(&Value::Null)
}

fn query_param<'a>(doc: &'a Value, path: &str, name: &str) -> Option<&'a Value> {
    doc["paths"][path]["get"]["parameters"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| &p["schema"])
}

#[tokio::test]
async fn the_document_declares_what_the_handlers_check() {
    let s = Server::start().await;
    let (_, doc) = s.get("/api/openapi.json").await;
    let range = |v: &Value| (v["minimum"].as_i64(), v["maximum"].as_i64());
    assert_eq!(
        range(body_prop(&doc, "SpeedBody", "speed")),
        (Some(0), Some(3))
    );
    assert_eq!(
        range(body_prop(&doc, "EndHoursBody", "endHours")),
        (Some(1), Some(24))
    );
    assert_eq!(range(body_prop(&doc, "Area", "z")), (Some(0), Some(22)));
    assert_eq!(
        body_prop(&doc, "ConfigBody", "mode")["enum"],
        json!(["request", "autonomous"])
    );
    assert_eq!(
        body_prop(&doc, "PathPlaceBody", "style")["enum"],
        json!(["direct", "straight", null])
    );
    assert_eq!(body_prop(&doc, "MessageBody", "message")["minLength"], 1);
    assert!(body_prop(&doc, "SaveBody", "name")["pattern"].is_string());
    // The game's own names: its faction's prefabs and crops.
    let prefabs = body_prop(&doc, "PlaceBody", "prefab")["enum"].clone();
    assert!(
        prefabs
            .as_array()
            .unwrap()
            .contains(&json!("Lodge.Folktails")),
        "{prefabs}"
    );
    let crops = body_prop(&doc, "PlantingMarkBody", "crop")["enum"].clone();
    assert!(
        crops.as_array().unwrap().contains(&json!("Carrot")),
        "{crops}"
    );
    // A body that is a flattened struct with required members is required.
    assert_eq!(
        doc["paths"]["/api/cutting/area"]["post"]["requestBody"]["required"],
        true
    );
    assert_eq!(
        query_param(&doc, "/api/trees", "limit").unwrap()["minimum"],
        0
    );
    assert_eq!(
        query_param(&doc, "/api/stats", "from").unwrap()["minimum"],
        1
    );
    assert!(
        query_param(&doc, "/api/notifications", "x").is_none(),
        "no position"
    );
    // The default answer of placement/find (flat rows) is one of the documented answers.
    let choices = &doc["paths"]["/api/placement/find"]["post"]["responses"]["200"]["content"]["application/json"]
        ["schema"]["anyOf"];
    let rows = choices
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "array")
        .expect("the toon rows");
    let required = rows["items"]["required"].as_array().unwrap().clone();
    let (_, found) = s
        .post(
            "/api/placement/find",
            json!({"prefab": "Lodge.Folktails", "x1": 40, "y1": 40, "x2": 90, "y2": 90}),
        )
        .await;
    let found = found.as_array().expect("an array of rows");
    assert!(!found.is_empty());
    for key in required {
        assert!(
            found[0].get(key.as_str().unwrap()).is_some(),
            "{key} in {}",
            found[0]
        );
    }
}

#[tokio::test]
async fn whole_numbers_written_as_floats_fill_integer_members() {
    let s = Server::start().await;
    let (status, v) = s.post("/api/speed", json!({"speed": 2.0})).await;
    assert_eq!((status, v["speed"].as_i64()), (200, Some(2)), "{v}");
    let (_, v) = s.post("/api/workhours", json!({"endHours": 1.6e1})).await;
    assert_eq!(v["endHours"].as_f64(), Some(16.0), "{v}");
    // A fraction is still no integer.
    let (_, v) = s.post("/api/speed", json!({"speed": 1.5})).await;
    assert_eq!(code(&v), "invalid_param", "{v}");
}

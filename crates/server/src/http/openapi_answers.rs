//! The answer side of the OpenAPI document: what every GET route answers in each format.
//!
//! A GET's 200 answer (`application/json`) is `anyOf` its forms and the error body. Each form
//! names the formats it is the answer of in `x-formats` (`json`: `format=json`; `toon`: the
//! default, flat rows), so a client (and the answer test, `tests/e2e/openapi_answers.rs`) can
//! pick the one it asked for. A list's form is its page wrapper `{total, offset, limit, items}`
//! or, with `limit=0`, the bare array of items. The toon rows of a list are derived from its
//! json items by the flattening rule of `rows`: scalars stay, nested members become one text
//! value.

use super::openapi_views::{
    self, count, described, flag, int, list_of, map_of, num, object, reference, text,
};
use serde_json::{Map, Value, json};

/// How a route answers in toon, given its json answer.
enum Toon {
    /// The same as json.
    Same,
    /// The json answer with its items (of a page or an array) as flat rows.
    FlatItems,
    /// Its own schema.
    Own(Value),
}

/// Both forms of a route's answer: `json: None` keeps the schema the handler declared.
struct Answer {
    json: Option<Value>,
    toon: Toon,
}

fn answer(json: Value, toon: Toon) -> Answer {
    Answer {
        json: Some(json),
        toon,
    }
}

fn declared(toon: Toon) -> Answer {
    Answer { json: None, toon }
}

/// Every GET route's answer; `None` for a path this table does not know (a new route: the
/// unit test below fails until it is added).
fn answer_of(path: &str, schemas: &Map<String, Value>) -> Option<Answer> {
    let flat = |name: &str| flat_row(&reference(name), schemas);
    Some(match path {
        "/api/agent/log" | "/api/agent/state" | "/api/game/hash" | "/api/game/saves"
        | "/api/ping" | "/api/replay" | "/api/science" | "/api/settings" | "/api/settlement"
        | "/api/speed" | "/api/time" | "/api/weather" | "/api/workhours" => declared(Toon::Same),
        "/api/food_clusters" | "/api/tree_clusters" | "/api/power" | "/api/prefabs" => {
            declared(Toon::FlatItems)
        }
        "/api/openapi.json" => answer(
            json!({
                "type": "object",
                "description": "This document (OpenAPI 3.1).",
                "required": ["openapi", "info", "paths", "components"],
                "properties": {"openapi": {"type": "string"}, "paths": {"type": "object"}}
            }),
            Toon::Same,
        ),
        "/api/alerts" => answer(page(reference("Alert")), Toon::Same),
        "/api/notifications" => answer(page(reference("Notification")), Toon::Same),
        "/api/trees" | "/api/crops" => answer(page(reference("PlantRow")), Toon::Same),
        "/api/gatherables" => answer(page(reference("GatherableRow")), Toon::Same),
        "/api/beavers" => answer(
            page(reference("Beaver")),
            Toon::Own(page(json!({"oneOf": [
                described(reference("BeaverRow"), "detail=basic"),
                described(flat("Beaver"), "detail=full or id=N: every member, `needs` as Need:points/..., `critical` joined by +")
            ]}))),
        ),
        "/api/buildings" => answer(
            page(json!({"oneOf": [
                described(reference("BuildingRow"), "detail=basic"),
                described(reference("Building"), "detail=full or id=N")
            ]})),
            Toon::Own(page(json!({"oneOf": [
                described(reference("BuildingRow"), "detail=basic"),
                described(flat("Building"), "detail=full or id=N: every member any row of the page has (a component a building lacks: 0, false or empty)")
            ]}))),
        ),
        "/api/population" => answer(list_of(reference("DistrictPopulation")), Toon::Same),
        "/api/resources" => answer(
            described(
                map_of(reference("Stock")),
                "district -> good -> {available, all}",
            ),
            Toon::Own(list_of(object(
                "A good a district holds (stock above 0).",
                &[
                    ("district", text()),
                    ("good", text()),
                    ("available", count()),
                    ("all", count()),
                ],
                &[],
            ))),
        ),
        "/api/districts" => answer(
            list_of(reference("District")),
            Toon::Own(list_of(described(
                json!({
                    "type": "object",
                    "required": ["name", "adults", "children", "bots"],
                    "properties": {"name": text(), "adults": count(), "children": count(), "bots": count()},
                    "additionalProperties": count()
                }),
                "A district as a row: population, then one key per good any district holds (its total; 0 where this one has none).",
            ))),
        ),
        "/api/distribution" => answer(
            list_of(reference("Distribution")),
            Toon::Own(list_of(object(
                "One good of a district.",
                &[
                    ("district", text()),
                    ("good", text()),
                    ("importOption", text()),
                    ("exportThreshold", num()),
                ],
                &[],
            ))),
        ),
        "/api/wellbeing" => {
            let mut toon = resolved(&reference("Wellbeing"), schemas);
            toon["properties"]["categories"] = list_of(described(
                flat("WellbeingCategory"),
                "`needs` as Need:favorable:unfavorable/...",
            ));
            answer(reference("Wellbeing"), Toon::Own(toon))
        }
        "/api/stats" => answer(
            reference("Stats"),
            Toon::Own(list_of(described(
                flat("HistoryRow"),
                "One game hour, the maps as key:n/key:n.",
            ))),
        ),
        "/api/summary" => declared(Toon::Own(summary_row())),
        "/api/tiles" => {
            let region = |tiles: Value| {
                object(
                    "The map's size, the region given and its tiles, row by row.",
                    &[
                        (
                            "mapSize",
                            object("", &[("x", count()), ("y", count()), ("z", count())], &[]),
                        ),
                        (
                            "region",
                            object(
                                "",
                                &[("x1", int()), ("y1", int()), ("x2", int()), ("y2", int())],
                                &[],
                            ),
                        ),
                        ("tiles", list_of(tiles)),
                    ],
                    &[],
                )
            };
            let mut row = flat("TileJson");
            row["required"] = json!([
                "x",
                "y",
                "terrain",
                "water",
                "badwater",
                "occupants",
                "entrance",
                "seedling",
                "dead",
                "contaminated",
                "moist"
            ]);
            row["description"] = "A tile with every key, occupants as name:z/...".into();
            answer(region(reference("TileJson")), Toon::Own(region(row)))
        }
        _ => return None,
    })
}

/// A list's answer: the page wrapper, or with `limit=0` the bare array.
pub fn page(item: Value) -> Value {
    json!({"oneOf": [
        {
            "type": "object",
            "description": "A page (limit above 0): `total` items pass the filters, `items` are those from `offset` on, at most `limit`.",
            "required": ["total", "offset", "limit", "items"],
            "properties": {
                "total": count(),
                "offset": count(),
                "limit": {"type": "integer", "minimum": 1},
                "items": list_of(item.clone())
            },
            "additionalProperties": false
        },
        described(list_of(item), "limit=0: every item")
    ]})
}

/// `schema` with `$ref`s followed and `allOf` parts merged into one object schema.
fn resolved(schema: &Value, schemas: &Map<String, Value>) -> Value {
    if let Some(name) = schema["$ref"].as_str() {
        let name = name.trim_start_matches("#/components/schemas/");
        return resolved(schemas.get(name).unwrap_or(&Value::Null), schemas);
    }
    let Some(parts) = schema["allOf"].as_array() else {
        return schema.clone();
    };
    let mut props = Map::new();
    let mut required = Vec::new();
    for part in parts {
        let part = resolved(part, schemas);
        if let Some(p) = part["properties"].as_object() {
            props.extend(p.clone());
        }
        required.extend(part["required"].as_array().cloned().unwrap_or_default());
    }
    json!({"type": "object", "required": required, "properties": props})
}

/// Whether a value of `schema` is a scalar a row keeps as it is.
fn is_scalar(schema: &Value, schemas: &Map<String, Value>) -> bool {
    let s = resolved(schema, schemas);
    let scalar = |t: &Value| {
        matches!(
            t.as_str(),
            Some("string" | "integer" | "number" | "boolean" | "null")
        )
    };
    match &s["type"] {
        Value::String(_) => scalar(&s["type"]),
        Value::Array(ts) => ts.iter().all(scalar),
        _ => ["oneOf", "anyOf"].iter().any(|k| {
            s[*k]
                .as_array()
                .is_some_and(|alts| alts.iter().all(|a| is_scalar(a, schemas)))
        }),
    }
}

/// The flat toon row of an object schema (`rows`' rule): the same keys, scalars as they are,
/// nested members (objects, arrays) as one text value.
pub fn flat_row(schema: &Value, schemas: &Map<String, Value>) -> Value {
    let s = resolved(schema, schemas);
    let mut props = Map::new();
    for (key, member) in s["properties"].as_object().cloned().unwrap_or_default() {
        let cell = if is_scalar(&member, schemas) {
            resolved(&member, schemas)
        } else {
            json!({"type": "string", "description": "nested: joined into one value"})
        };
        props.insert(key, cell);
    }
    let mut row = json!({
        "type": "object",
        "required": s["required"].clone(),
        "properties": props
    });
    if let Some(why) = s.get("description") {
        row["description"] = why.clone();
    }
    if s["additionalProperties"] == false {
        row["additionalProperties"] = false.into();
    }
    if row["required"].is_null() {
        row["required"] = json!([]);
    }
    row
}

/// `GET /api/summary` in toon: one flat row.
fn summary_row() -> Value {
    let mut required: Vec<(&str, Value)> = vec![
        ("settlement", text()),
        ("faction", text()),
        ("day", count()),
        ("dayProgress", num()),
        ("speed", count()),
        ("cycle", count()),
        ("cycleDay", count()),
        ("isHazardous", flag()),
        ("tempDays", count()),
        ("hazardDays", count()),
        ("markedGrown", count()),
        ("markedSeedling", count()),
        ("unmarkedGrown", count()),
        ("cropReady", count()),
        ("cropGrowing", count()),
        ("adults", count()),
        ("children", count()),
        ("bots", count()),
    ];
    for good in super::summary::ALWAYS_LISTED {
        required.push((good, count()));
    }
    for days in [
        "foodDays",
        "waterDays",
        "logDays",
        "plankDays",
        "gearDays",
        "foodNetPerDay",
        "waterNetPerDay",
        "foodDaysAtNet",
        "waterDaysAtNet",
    ] {
        required.push((days, num()));
    }
    required.extend([
        ("beds", described(text(), "occupied/total")),
        ("homeless", count()),
        ("workers", described(text(), "assigned/desired")),
        ("unemployed", count()),
        ("wellbeing", num()),
        ("miserable", count()),
        ("critical", count()),
        ("science", count()),
        (
            "alerts",
            described(text(), "unstaffed:N/unpowered:N/unreachable:N"),
        ),
        ("treeClusters", described(text(), "x,y,z:grown/...")),
        ("foodClusters", described(text(), "x,y,z:grown/...")),
        ("gameOver", flag()),
    ]);
    let mut row = object(
        "The colony at a glance as one flat row; besides these keys one per good in stock (its colony-wide total) and one per building role (its count).",
        &required,
        &[],
    );
    row["additionalProperties"] = count();
    row
}

/// Adds the read models' schemas and sets every GET's 200 answer to its forms and the error
/// body. Runs after `openapi_doc::complete`.
pub fn describe(doc: &mut Value) {
    let Some(schemas) = doc["components"]["schemas"].as_object_mut() else {
        return;
    };
    for (name, schema) in openapi_views::schemas() {
        schemas.insert(name.to_owned(), schema);
    }
    // The rows of a basic list have exactly these keys (so a full row is not taken for one).
    for row in ["BeaverRow", "BuildingRow"] {
        if let Some(s) = schemas.get_mut(row) {
            s["additionalProperties"] = false.into();
        }
    }
    let schemas = schemas.clone();
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(op) = item.get_mut("get") else {
            continue;
        };
        let media = &mut op["responses"]["200"]["content"]["application/json"]["schema"];
        let declared = media["anyOf"][0].clone();
        let error = reference("Error");
        let Some(a) = answer_of(path, &schemas) else {
            continue;
        };
        let json_form = a.json.unwrap_or(declared);
        let toon_form = match a.toon {
            Toon::Same => None,
            Toon::FlatItems => Some(flat_items(&json_form, &schemas)),
            Toon::Own(s) => Some(s),
        };
        let forms = match toon_form {
            None => vec![formats(json_form, &["json", "toon"])],
            Some(t) => vec![formats(json_form, &["json"]), formats(t, &["toon"])],
        };
        let mut choices = forms;
        choices.push(error);
        *media = json!({"anyOf": choices});
    }
}

/// `schema` marked as the answer of `formats`.
fn formats(schema: Value, formats: &[&str]) -> Value {
    let mut s = if schema.get("$ref").is_some() {
        json!({"allOf": [schema]})
    } else {
        schema
    };
    s["x-formats"] = json!(formats);
    s
}

/// A json answer whose items (an array's, or each page form's) are flat rows.
fn flat_items(json_form: &Value, schemas: &Map<String, Value>) -> Value {
    if let Some(alts) = json_form["oneOf"].as_array() {
        let alts: Vec<Value> = alts.iter().map(|a| flat_items(a, schemas)).collect();
        return json!({"oneOf": alts});
    }
    let mut s = json_form.clone();
    if s["type"] == "array" {
        s["items"] = flat_row(&s["items"], schemas);
    } else if s["properties"]["items"]["type"] == "array" {
        let item = s["properties"]["items"]["items"].clone();
        s["properties"]["items"]["items"] = flat_row(&item, schemas);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_get_route_has_its_answer() {
        let (_, api) = super::super::routes().split_for_parts();
        let doc = serde_json::to_value(&api).unwrap();
        let schemas = doc["components"]["schemas"].as_object().cloned().unwrap();
        for (path, item) in doc["paths"].as_object().unwrap() {
            if item.get("get").is_some() {
                assert!(answer_of(path, &schemas).is_some(), "no answer for {path}");
            }
        }
    }

    #[test]
    fn flat_rows_keep_scalars_and_join_nested_members() {
        let schemas = Map::from_iter(
            openapi_views::schemas()
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v)),
        );
        let row = flat_row(&reference("Beaver"), &schemas);
        assert_eq!(row["properties"]["critical"]["type"], "string");
        assert_eq!(row["properties"]["needs"]["type"], "string");
        assert_eq!(row["properties"]["x"]["type"], "integer");
        assert_eq!(row["additionalProperties"], false);
        assert!(
            row["required"]
                .as_array()
                .unwrap()
                .contains(&json!("isChild"))
        );
    }
}

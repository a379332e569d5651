//! The request side of the OpenAPI document: the ranges, enumerations and patterns the handlers
//! check, declared on the request bodies and query parameters utoipa generates, so that a
//! request the document calls valid is one the service takes (schemathesis checks it in CI with
//! `positive_data_acceptance`). Two kinds:
//!
//! - fixed by the service ([`constrain`], once, when the document is built): speed 0-3,
//!   `endHours` 1-24, `z` 0 to the highest terrain, list paging `>= 0`, stats days `>= 1`, path
//!   `style`, agent `mode`, non-blank prompts and messages, save names, the score's horizon;
//! - fixed by the game being played ([`for_game`], each time the document is served): the
//!   prefab and crop names of its faction.
//!
//! What JSON Schema cannot say stays in the descriptions and is refused with `invalid_param`:
//! an area's corners in order (`x1 <= x2`, `y1 <= y2`) and not wholly off the map, stats' `to`
//! not before `from`. Ids that do not exist answer `not_found` (404 with `strictHttpStatus`);
//! what the world refuses (an occupied spot, a locked building) answers 422.

use serde_json::{Value, json};

/// A save name: 1-64 letters, digits, `-`, `_`, `.` or spaces, not starting with a dot
/// (`saves::validate_name`).
pub const SAVE_NAME_PATTERN: &str = "^[A-Za-z0-9_ -][A-Za-z0-9._ -]{0,63}$";

/// An entity's new name as the document declares it: ASCII letters, digits, spaces and the
/// punctuation names may hold, something besides spaces (`sim::colony::naming::check_name` also
/// takes letters of any script; JSON Schema patterns have no portable letter class).
const ENTITY_NAME_PATTERN: &str =
    "^[A-Za-z0-9 '._#()!?&-]*[A-Za-z0-9'._#()!?&-][A-Za-z0-9 '._#()!?&-]*$";

/// Text with something in it besides whitespace (the handlers trim before they check).
const NOT_BLANK: &str = "\\S";

/// `(component schema, property, what to merge into the property's schema)`.
fn body_constraints() -> Vec<(&'static str, &'static str, Value)> {
    let max_z = sim::catalog::world_rules().map.max_terrain_height.value;
    vec![
        ("SpeedBody", "speed", json!({"minimum": 0, "maximum": 3})),
        (
            "EndHoursBody",
            "endHours",
            json!({"minimum": 1, "maximum": 24}),
        ),
        ("Area", "z", json!({"minimum": 0, "maximum": max_z})),
        (
            "PathPlaceBody",
            "style",
            json!({"enum": ["direct", "straight", null]}),
        ),
        (
            "ConfigBody",
            "mode",
            json!({"type": "string", "enum": ["request", "autonomous"]}),
        ),
        (
            "MessageBody",
            "message",
            json!({"minLength": 1, "pattern": NOT_BLANK}),
        ),
        (
            "RequestBody",
            "prompt",
            json!({"minLength": 1, "pattern": NOT_BLANK}),
        ),
        (
            "ConfigBody",
            "lastError",
            json!({"type": "null", "description": "Only null: dismisses the connector's last error."}),
        ),
        (
            "PathPlaceBody",
            "sections",
            json!({"type": ["integer", "null"], "format": null, "minimum": 0, "maximum": u32::MAX}),
        ),
        (
            "PlacementFindBody",
            "format",
            json!({"enum": ["json", "toon", "toon-text", null]}),
        ),
        ("ScoreBody", "terms", json!({"minItems": 1})),
        ("TermBody", "metric", json!({"pattern": metric_pattern()})),
        ("TermBody", "weight", json!({"exclusiveMinimum": 0})),
        ("TermBody", "target", json!({"exclusiveMinimum": 0})),
        (
            "ConditionBody",
            "metric",
            json!({"pattern": metric_pattern()}),
        ),
        (
            "ConditionBody",
            "op",
            json!({"enum": [">=", ">", "<=", "<", "==", "!="]}),
        ),
        (
            "PlantingFindBody",
            "z",
            json!({"minimum": 0, "maximum": max_z}),
        ),
        (
            "RenameBody",
            "name",
            json!({"minLength": 1, "maxLength": sim::colony::naming::MAX_NAME_CHARS, "pattern": ENTITY_NAME_PATTERN}),
        ),
        ("SaveBody", "name", json!({"pattern": SAVE_NAME_PATTERN})),
        ("LoadBody", "name", json!({"pattern": SAVE_NAME_PATTERN})),
        (
            "ScoreBody",
            "horizonDays",
            json!({"exclusiveMinimum": 0, "maximum": 3650}),
        ),
    ]
}

/// A score metric (`score::metrics`): a plain one, or one with a parameter (`produced.Plank`).
fn metric_pattern() -> String {
    let names = |list: &[(&str, &str)]| {
        list.iter()
            .map(|(n, _)| n.replace('.', "\\."))
            .collect::<Vec<_>>()
            .join("|")
    };
    format!(
        "^(?:{})$|^(?:{})\\..+$",
        names(score::metrics::METRICS),
        names(score::metrics::PARAM_METRICS)
    )
}

/// Letters matched in either case (JSON Schema patterns have no case-insensitive flag).
fn any_case(word: &str) -> String {
    word.chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
            } else if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("[{c}]")
            }
        })
        .collect()
}

/// The building list's `role` and `exclude`: roles, comma-separated, any case, blanks around.
fn roles_pattern() -> String {
    let roles: std::collections::BTreeSet<&str> = sim::content::content()
        .buildings
        .values()
        .map(|b| b.role.as_str())
        .collect();
    let one = roles
        .iter()
        .map(|r| any_case(r))
        .collect::<Vec<_>>()
        .join("|");
    format!("^\\s*(?:{one})?\\s*(?:,\\s*(?:{one})?\\s*)*$")
}

/// `(query parameter, what to merge into its schema)`, on every operation that has it.
fn query_constraints(path: &str) -> Vec<(&'static str, Value)> {
    if path == "/api/stats" {
        return vec![
            ("from", json!({"minimum": 1})),
            ("to", json!({"minimum": 1})),
        ];
    }
    vec![
        ("limit", json!({"minimum": 0})),
        ("offset", json!({"minimum": 0})),
        ("radius", json!({"minimum": 0})),
        ("detail", json!({"enum": ["basic", "full"]})),
        ("role", json!({"pattern": roles_pattern()})),
        ("exclude", json!({"pattern": roles_pattern()})),
    ]
}

/// Query parameters a list does not take: notifications have no position.
const NOT_TAKEN: &[(&str, &str)] = &[
    ("/api/notifications", "x"),
    ("/api/notifications", "y"),
    ("/api/notifications", "radius"),
];

/// Declares the service's fixed constraints on `doc` (the utoipa document as JSON).
pub fn constrain(doc: &mut Value) {
    for (schema, prop, patch) in body_constraints() {
        if let Some(target) = property(&mut doc["components"]["schemas"][schema], prop) {
            merge(target, &patch);
        }
    }
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let constraints = query_constraints(path);
        let Some(ops) = item.as_object_mut() else {
            continue;
        };
        for op in ops.values_mut() {
            let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) else {
                continue;
            };
            params.retain(|p| {
                !NOT_TAKEN
                    .iter()
                    .any(|(at, n)| at == path && p["name"] == *n)
            });
            for p in params.iter_mut() {
                if let Some((_, patch)) = constraints.iter().find(|(n, _)| p["name"] == *n) {
                    merge(&mut p["schema"], patch);
                }
            }
        }
    }
}

/// Declares the names the game being played takes: its faction's placeable prefabs (`prefab`
/// of building/place and placement/find, the `prefabs` list of placement/mask) and what it
/// plants (`crop` of planting/mark and planting/find).
pub fn for_game(doc: &mut Value, world: &sim::World) {
    let names = world.placeable_prefab_names();
    let prefabs = json!({"enum": names});
    let prefab_list = json!({
        "items": {"type": "string", "enum": names},
        "minItems": 1,
        "maxItems": super::placement_mask::MAX_PREFABS,
    });
    let crops = json!({"enum": world.plantable_names()});
    let schemas = &mut doc["components"]["schemas"];
    for (schema, prop, names) in [
        ("PlaceBody", "prefab", &prefabs),
        ("PlacementFindBody", "prefab", &prefabs),
        ("MaskBody", "prefabs", &prefab_list),
        ("PlantingMarkBody", "crop", &crops),
        ("PlantingFindBody", "crop", &crops),
    ] {
        if let Some(target) = property(&mut schemas[schema], prop) {
            merge(target, names);
        }
    }
}

/// The schema of property `prop` of an object schema: among its own `properties`, or those of
/// an inline part of its `allOf` (a flattened struct).
fn property<'a>(schema: &'a mut Value, prop: &str) -> Option<&'a mut Value> {
    if schema["properties"].get(prop).is_some() {
        return schema["properties"].get_mut(prop);
    }
    schema
        .get_mut("allOf")?
        .as_array_mut()?
        .iter_mut()
        .find_map(|part| part.get_mut("properties")?.get_mut(prop))
}

/// Merges the members of `patch` into the object `target`; a `null` member is removed.
fn merge(target: &mut Value, patch: &Value) {
    if let (Some(t), Some(p)) = (target.as_object_mut(), patch.as_object()) {
        for (k, v) in p {
            if v.is_null() && k != "const" {
                t.remove(k);
            } else {
                t.insert(k.clone(), v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_constraints_land_on_bodies_and_query_parameters() {
        let mut doc = json!({
            "paths": {
                "/api/trees": {"get": {"parameters": [
                    {"name": "limit", "in": "query", "schema": {"type": ["integer", "null"]}},
                    {"name": "name", "in": "query", "schema": {"type": ["string", "null"]}}
                ]}},
                "/api/stats": {"get": {"parameters": [
                    {"name": "from", "in": "query", "schema": {"type": ["integer", "null"]}}
                ]}}
            },
            "components": {"schemas": {
                "SpeedBody": {"type": "object", "properties": {"speed": {"type": "integer"}}},
                "ConfigBody": {"type": "object", "properties": {"mode": {"type": ["string", "null"]}}}
            }}
        });
        constrain(&mut doc);
        let s = &doc["components"]["schemas"];
        assert_eq!(
            s["SpeedBody"]["properties"]["speed"],
            json!({"type": "integer", "minimum": 0, "maximum": 3})
        );
        assert_eq!(s["ConfigBody"]["properties"]["mode"]["type"], "string");
        let trees = &doc["paths"]["/api/trees"]["get"]["parameters"];
        assert_eq!(trees[0]["schema"]["minimum"], 0);
        assert!(trees[1]["schema"].get("minimum").is_none());
        assert_eq!(
            doc["paths"]["/api/stats"]["get"]["parameters"][0]["schema"]["minimum"],
            1
        );
    }

    #[test]
    fn the_declared_name_pattern_takes_only_names_the_game_takes() {
        // Every character the pattern lists besides letters, digits and the space is one a
        // name may hold, and the game takes all of them.
        let listed: String = ENTITY_NAME_PATTERN
            .split(['[', ']'])
            .nth(1)
            .unwrap()
            .replace("A-Za-z0-9 ", "");
        for c in listed.chars() {
            assert!(
                sim::colony::naming::NAME_PUNCTUATION.contains(c),
                "{c:?} is not taken by the game"
            );
        }
        assert!(sim::colony::naming::check_name(&format!("A{listed}")).is_ok());
    }
}

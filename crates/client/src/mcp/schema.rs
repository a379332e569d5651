//! JSON Schemas (draft 2020-12) of the tools' parameters, built from the route catalogue's
//! parameter types and the value lists the README and the game define (orientations,
//! priorities, crops, modes...), and the check of a call's arguments against them before
//! anything is sent: unknown and missing parameters are refused, and numbers, booleans and
//! lists that arrive as text are read as the type the route wants.

use protocol::routes::{self, Param, ParamType, Route};
use serde_json::{Map, Value, json};

/// Everything the game plants: the service's crops, then trees and bushes (foresters plant
/// trees and bushes). Checked against `data/nature.json` by a test.
pub const PLANTABLES: &[&str] = &[
    "Kohlrabi",
    "Cassava",
    "Carrot",
    "Potato",
    "Wheat",
    "Sunflower",
    "Corn",
    "Eggplant",
    "Soybean",
    "Birch",
    "Pine",
    "Oak",
    "Maple",
    "ChestnutTree",
    "Mangrove",
    "BlueberryBush",
    "Dandelion",
    "CoffeeBush",
];

pub const ORIENTATIONS: &[&str] = &["south", "west", "north", "east"];
const PRIORITIES: &[&str] = &["VeryLow", "Low", "Normal", "High", "VeryHigh"];
const INPUTS: &[&str] = &["a", "b", "c", "d", "e", "f", "g", "h", "reset"];

/// Value lists of string parameters: (route path or `*` for every route with the parameter,
/// parameter, values).
pub const ENUMS: &[(&str, &str, &[&str])] = &[
    ("*", "orientation", ORIENTATIONS),
    ("*", "detail", &["basic", "full"]),
    ("/api/building/priority", "priority", PRIORITIES),
    (
        "/api/building/priority",
        "type",
        &["construction", "workplace"],
    ),
    (
        "/api/building/farmhouse",
        "action",
        &["planting", "harvesting"],
    ),
    (
        "/api/building/storage",
        "mode",
        &["accept", "obtain", "supply", "empty"],
    ),
    (
        "/api/distribution",
        "import",
        &["None", "Auto", "Allowed", "Forced"],
    ),
    ("/api/path/place", "style", &["direct", "straight"]),
    ("/api/automation/link", "input", INPUTS),
    ("/api/automation/unlink", "input", INPUTS),
    ("/api/planting/mark", "crop", PLANTABLES),
    ("/api/planting/find", "crop", PLANTABLES),
];

/// Bounds of integer and number parameters: (path or `*`, parameter, minimum, maximum).
pub const RANGES: &[(&str, &str, Option<f64>, Option<f64>)] = &[
    ("/api/speed", "speed", Some(0.0), Some(3.0)),
    ("/api/workhours", "endHours", Some(1.0), Some(24.0)),
    ("*", "z", Some(0.0), Some(22.0)),
    ("*", "limit", Some(0.0), None),
    ("*", "offset", Some(0.0), None),
    ("*", "radius", Some(0.0), None),
    ("/api/building/workers", "count", Some(0.0), None),
    ("/api/district/migrate", "count", Some(1.0), None),
    ("/api/path/place", "sections", Some(0.0), None),
    ("/api/building/floodgate", "height", Some(0.0), None),
    ("/api/stats", "from", Some(1.0), None),
    ("/api/stats", "to", Some(1.0), None),
    ("/api/game/advance", "hours", Some(0.0), Some(24.0 * 60.0)),
    ("/api/game/advance", "days", Some(0.0), Some(60.0)),
];

fn applies(path_rule: &str, route: &Route) -> bool {
    path_rule == "*" || path_rule == route.path
}

/// The schema of one parameter of a route.
pub fn param_schema(route: &Route, p: &Param) -> Value {
    let mut s = match p.ty {
        ParamType::Int => json!({"type": "integer"}),
        ParamType::Float => json!({"type": "number"}),
        ParamType::Bool => json!({"type": "boolean"}),
        ParamType::String => json!({"type": "string"}),
        ParamType::Null => json!({"type": "null"}),
        ParamType::List => json!({"type": "array", "items": {"type": "string"}}),
        ParamType::Json => json!({}),
    };
    s["description"] = p.help.into();
    if let Some((_, _, values)) = ENUMS
        .iter()
        .find(|(path, name, _)| *name == p.name && applies(path, route))
    {
        s["enum"] = json!(values);
    }
    if route.path == "/api/building/plantable" && p.name == "plantable" {
        let mut values: Vec<&str> = PLANTABLES.to_vec();
        values.push("none");
        s["enum"] = json!(values);
    }
    if let Some((_, _, min, max)) = RANGES
        .iter()
        .find(|(path, name, _, _)| *name == p.name && applies(path, route))
    {
        if let Some(m) = min {
            s["minimum"] = number(*m);
        }
        if let Some(m) = max {
            s["maximum"] = number(*m);
        }
    }
    s
}

/// Whole numbers as integers (`0`, not `0.0`), so integer schemas stay integer.
fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// The input schema of a route tool.
pub fn route_schema(route: &Route) -> Map<String, Value> {
    let props: Map<String, Value> = route
        .params
        .iter()
        .map(|p| (p.name.to_owned(), param_schema(route, p)))
        .collect();
    let required: Vec<&str> = route
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name)
        .collect();
    object_schema(props, &required)
}

/// `{"type": "object", "properties": ..., "required": [...], "additionalProperties": false}`.
pub fn object_schema(props: Map<String, Value>, required: &[&str]) -> Map<String, Value> {
    let mut s = Map::new();
    s.insert("type".into(), "object".into());
    s.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        s.insert("required".into(), json!(required));
    }
    s.insert("additionalProperties".into(), false.into());
    s
}

/// The parameters of a route, looked up by path (composite tools borrow a route's parameters).
pub fn route_param(method: routes::Method, path: &str, name: &str) -> Value {
    let route = routes::find(method, path).expect("a catalogue route");
    let p = route.param(name).expect("a parameter of the route");
    param_schema(route, p)
}

/// Checks a call's arguments against a schema's `properties` and `required` and reads
/// text-typed values as the declared type. The error says what was wrong and what is known.
pub fn check_args(
    schema: &Map<String, Value>,
    args: Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    let empty = Map::new();
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut out = Map::new();
    for (k, v) in args {
        let Some(ps) = props.get(&k) else {
            let known: Vec<&str> = props.keys().map(String::as_str).collect();
            return Err(format!(
                "unknown parameter {k:?}; this tool takes {}",
                if known.is_empty() {
                    "no parameters".to_owned()
                } else {
                    known.join(", ")
                }
            ));
        };
        let v = coerce(ps, v).map_err(|want| format!("{k}: expected {want}"))?;
        out.insert(k, v);
    }
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        let missing: Vec<&str> = required
            .iter()
            .filter_map(Value::as_str)
            .filter(|r| !out.contains_key(*r))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "missing required parameter(s): {}",
                missing.join(", ")
            ));
        }
    }
    Ok(out)
}

/// Reads a value as the schema's type when it came as text (`"5"` for an integer); other
/// mismatches are left for the service to refuse with its own message, except a value that
/// cannot be the type at all.
fn coerce(schema: &Value, v: Value) -> Result<Value, String> {
    let ty = schema.get("type").and_then(Value::as_str).unwrap_or("");
    let text = v.as_str().map(str::trim);
    let out = match (ty, text) {
        ("integer", Some(s)) => s
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| "an integer".to_owned())?,
        ("number", Some(s)) => s
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(number)
            .ok_or_else(|| "a number".to_owned())?,
        ("boolean", Some(s)) => match s.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err("true or false".into()),
        },
        ("array", Some(s)) => Value::from(
            s.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(String::from)
                .collect::<Vec<_>>(),
        ),
        _ => v,
    };
    check_bounds(schema, &out)?;
    Ok(out)
}

/// Refuses a number outside the schema's `minimum`/`maximum` and a text outside its `enum`,
/// naming what is allowed.
fn check_bounds(schema: &Value, v: &Value) -> Result<(), String> {
    if let Some(n) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            return Err(format!("a number of at least {min}; got {v}"));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            return Err(format!("a number of at most {max}; got {v}"));
        }
    }
    if let (Some(s), Some(allowed)) = (v.as_str(), schema.get("enum").and_then(Value::as_array))
        && !allowed.iter().any(|a| a.as_str() == Some(s))
    {
        let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
        return Err(format!("one of {}; got {s:?}", names.join(", ")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::routes::ROUTES;

    #[test]
    fn every_value_list_and_range_names_a_real_parameter() {
        let names = ENUMS
            .iter()
            .map(|(p, n, _)| (*p, *n))
            .chain(RANGES.iter().map(|(p, n, _, _)| (*p, *n)));
        for (path, name) in names {
            let hits = ROUTES
                .iter()
                .filter(|r| applies(path, r) && r.param(name).is_some())
                .count();
            assert!(hits > 0, "{path} {name}: no route has this parameter");
        }
    }

    #[test]
    fn the_plantables_are_the_games() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nature.json"
        ))
        .unwrap();
        let nature: Value = serde_json::from_str(&text).unwrap();
        let ids = |k: &str| -> Vec<String> {
            nature[k]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["id"].as_str().unwrap().to_owned())
                .collect()
        };
        let crops = ids("crops");
        let mut want: Vec<String> = nature["modifiers"]["apiCropNames"]["value"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|n| crops.iter().any(|c| c == n))
            .map(String::from)
            .collect();
        want.extend(ids("trees"));
        want.extend(ids("bushes"));
        assert_eq!(PLANTABLES, want.as_slice());
    }

    #[test]
    fn schemas_carry_types_enums_ranges_and_required() {
        let place = routes::find(routes::Method::Post, "/api/building/place").unwrap();
        let s = Value::Object(route_schema(place));
        assert_eq!(s["properties"]["orientation"]["enum"][3], "east");
        assert_eq!(s["properties"]["z"]["type"], "integer");
        assert_eq!(s["properties"]["z"]["maximum"], 22);
        assert_eq!(s["required"].as_array().unwrap().len(), 5);
        assert_eq!(s["additionalProperties"], false);
        let speed = routes::find(routes::Method::Post, "/api/speed").unwrap();
        assert_eq!(route_schema(speed)["properties"]["speed"]["maximum"], 3);
    }

    #[test]
    fn arguments_are_checked_and_text_is_read_as_the_type() {
        let place = routes::find(routes::Method::Post, "/api/building/place").unwrap();
        let schema = route_schema(place);
        let args = json!({"prefab": "Lodge.Folktails", "x": "3", "y": 4, "z": " 4 ", "orientation": "west"});
        let out = check_args(&schema, args.as_object().unwrap().clone()).unwrap();
        assert_eq!(out["x"], 3);
        assert_eq!(out["z"], 4);
        let e = check_args(&schema, json!({"prefab": "A"}).as_object().unwrap().clone());
        assert!(
            e.unwrap_err()
                .contains("missing required parameter(s): x, y, z, orientation")
        );
        let e = check_args(&schema, json!({"colour": 1}).as_object().unwrap().clone());
        assert!(e.unwrap_err().contains("unknown parameter \"colour\""));
        let e = check_args(&schema, json!({"x": "three"}).as_object().unwrap().clone());
        assert_eq!(e.unwrap_err(), "x: expected an integer");
        let e = check_args(&schema, json!({"z": 23}).as_object().unwrap().clone());
        assert_eq!(e.unwrap_err(), "z: expected a number of at most 22; got 23");
        let e = check_args(
            &schema,
            json!({"orientation": "up"}).as_object().unwrap().clone(),
        );
        assert_eq!(
            e.unwrap_err(),
            "orientation: expected one of south, west, north, east; got \"up\""
        );
    }
}

//! Completes the OpenAPI document utoipa generates from the handlers with what the pipeline does
//! around them, so the document describes the service as it answers (schemathesis checks it in
//! CI):
//!
//! - `servers`: this colonyd's own address; the optional bearer token (`securitySchemes`).
//! - `format` on every GET (`toon`, the default, flat rows; `json`, nested; `toon-text`, TOON text
//!   as `text/toon`); the answer of each format is `openapi_answers`'.
//! - The error body (`Error`) on every operation: with the transport statuses the pipeline uses
//!   (400, 401, 403, 408, 409, 413, 415, 500, 503), the statuses domain errors get with
//!   `strictHttpStatus` (400, 404, 405, 422), and inside the 200 answer, because domain errors
//!   answer 200 by default.
//! - `POST /api/settings`: a flat object of setting keys, typed from the settings themselves.

use crate::settings::Settings;
use serde_json::{Map, Value, json};

/// The statuses every operation may answer with the error body, and why.
const ERROR_STATUSES: &[(&str, &str)] = &[
    (
        "400",
        "malformed body or invalid_host; with strictHttpStatus also invalid_* domain errors",
    ),
    ("401", "unauthorized: missing or wrong bearer token"),
    (
        "403",
        "forbidden_origin (a browser page of another origin); with strictHttpStatus also disabled",
    ),
    ("404", "with strictHttpStatus: not_found, unknown_endpoint"),
    (
        "405",
        "with strictHttpStatus: a known path called with another method (Allow names it)",
    ),
    (
        "409",
        "game_not_ready (the ready gate is closed); with strictHttpStatus also request_pending",
    ),
    (
        "408",
        "request_timeout: the body did not arrive within httpBodySeconds of the head",
    ),
    ("413", "body_too_large: body over maxBodyBytes"),
    ("415", "unsupported_media_type: a body that is not JSON"),
    (
        "422",
        "with strictHttpStatus: placement failures, not_unlocked, insufficient_science, no_population",
    ),
    ("500", "internal_error; nothing was applied"),
    (
        "503",
        "queue_full or game_loading (Retry-After: 1); /api/ping: host_stopped",
    ),
];

/// Completes `doc` (the utoipa document as JSON) for a service answering at `base_url`.
pub fn complete(doc: &mut Value, base_url: &str) {
    doc["servers"] = json!([{ "url": base_url, "description": "this colonyd" }]);
    let components = ensure_object(doc, "components");
    let schemes = ensure_object(components, "securitySchemes");
    schemes["bearer"] = json!({
        "type": "http",
        "scheme": "bearer",
        "description": "Needed on every /api route but /api/ping when the server's authToken is set (none by default on loopback)"
    });
    let schemas = ensure_object(components, "schemas");
    schemas["Error"] = error_schema();
    // The token is optional: `{}` is "no security needed".
    doc["security"] = json!([{}, { "bearer": [] }]);

    let schemas = doc["components"]["schemas"].clone();
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, op) in item.iter_mut() {
            let is_get = method == "get";
            complete_operation(op, is_get);
            body_optional_unless_required(op, &schemas);
            if method == "post" && path == "/api/placement/find" {
                placement_rows(op);
            }
            if method == "post" && path == "/api/settings" {
                op["requestBody"] = json!({
                    "required": true,
                    "content": {"application/json": {"schema": settings_schema()}}
                });
            }
        }
    }
}

fn complete_operation(op: &mut Value, is_get: bool) {
    if is_get {
        let params = op
            .as_object_mut()
            .map(|o| o.entry("parameters").or_insert_with(|| json!([])));
        if let Some(Value::Array(params)) = params
            && !params.iter().any(|p| p["name"] == "format")
        {
            params.push(json!({
                "name": "format",
                "in": "query",
                "required": false,
                "description": "toon (default): the answer as flat rows, JSON on the wire; json: nested JSON; toon-text: TOON text (text/toon). Also Accept: text/toon.",
                "schema": {"type": "string", "enum": ["toon", "json", "toon-text"]}
            }));
        }
    }
    let responses = ensure_object(op, "responses");
    let error_ref = json!({"$ref": "#/components/schemas/Error"});
    if let Some(ok) = responses.get_mut("200") {
        let content = ensure_object(ok, "content");
        let json_media = ensure_object(content, "application/json");
        let declared = json_media
            .get("schema")
            .cloned()
            .unwrap_or_else(|| json!({}));
        // A GET's forms (json, toon) are set by `openapi_answers::describe`.
        json_media["schema"] = json!({ "anyOf": [declared, error_ref.clone()] });
        if is_get {
            content["text/toon"] = json!({"schema": {"type": "string"}});
        }
    }
    for (status, why) in ERROR_STATUSES {
        if responses.get(*status).is_none() {
            let mut content = json!({"application/json": {"schema": error_ref}});
            if is_get {
                content["text/toon"] = json!({"schema": {"type": "string"}});
            }
            responses[*status] = json!({ "description": why, "content": content });
        }
    }
}

/// `POST /api/placement/find` answers the bare array of placement rows unless json is asked
/// for (the contract's shape): its 200 lists that alternative with the rows' keys.
fn placement_rows(op: &mut Value) {
    let row = json!({
        "type": "object",
        "description": "One spot as a flat row (`inReach` members, when the building works an area, as `inReach.<key>` columns)",
        "required": ["x", "y", "z", "orientation", "entranceX", "entranceY", "pathAccess",
            "reachable", "nearPower", "flooded", "distance", "groundSteps"],
        "properties": {
            "x": {"type": "integer", "minimum": 0},
            "y": {"type": "integer", "minimum": 0},
            "z": {"type": "integer", "minimum": 0},
            "orientation": {"type": "string", "enum": ["south", "west", "north", "east"]},
            "entranceX": {"type": "integer"},
            "entranceY": {"type": "integer"},
            "pathAccess": {"type": "integer", "enum": [0, 1]},
            "reachable": {"type": "integer", "enum": [0, 1]},
            "nearPower": {"type": "integer", "enum": [0, 1]},
            "flooded": {"type": "integer", "enum": [0, 1]},
            "waterDepth": {"type": "number"},
            "distance": {"type": "number"},
            "groundSteps": {"type": "integer"}
        }
    });
    if let Some(choices) =
        op["responses"]["200"]["content"]["application/json"]["schema"]["anyOf"].as_array_mut()
    {
        choices.push(json!({
            "description": "format toon (the default): the spots, best first, as flat rows; none found: an empty array with headers X-Placement-Reason and X-Placement-Detail",
            "type": "array",
            "items": row
        }));
    }
}

/// A body whose members are all optional may be left out altogether (the service treats no body
/// as `{}`), so its `requestBody` is not required.
fn body_optional_unless_required(op: &mut Value, schemas: &Value) {
    let Some(body) = op.get_mut("requestBody") else {
        return;
    };
    let schema = &body["content"]["application/json"]["schema"];
    let resolved = match schema["$ref"].as_str() {
        Some(r) => &schemas[r.trim_start_matches("#/components/schemas/")],
        None => schema,
    };
    let requires = |s: &Value| {
        s["required"].as_array().is_some_and(|r| !r.is_empty())
            || s["minProperties"].as_u64().is_some_and(|n| n > 0)
    };
    // A flattened struct is an `allOf` of its parts (references or inline objects).
    let parts = resolved["allOf"].as_array().cloned().unwrap_or_default();
    let has_required = requires(resolved)
        || parts.iter().any(|part| match part["$ref"].as_str() {
            Some(r) => requires(&schemas[r.trim_start_matches("#/components/schemas/")]),
            None => requires(part),
        });
    body["required"] = Value::Bool(has_required);
}

/// The contract's error body.
fn error_schema() -> Value {
    json!({
        "type": "object",
        "description": "An error: `<code>: <detail>` (placement failures have no code prefix); extra members carry context (e.g. `got`, `limit`, `hint`, `get_endpoints`).",
        "required": ["error"],
        "properties": {"error": {"type": "string"}},
        "additionalProperties": true
    })
}

/// `POST /api/settings`: any of the setting keys, each with the type its default has.
fn settings_schema() -> Value {
    let mut props = Map::new();
    for (key, value) in Settings::default().to_json() {
        let schema = match (key.as_str(), &value) {
            ("widgetLeft" | "widgetTop", _) => json!({"type": ["string", "null"]}),
            (_, Value::Bool(_)) => json!({"type": "boolean"}),
            (_, Value::Number(n)) if n.is_f64() => json!({"type": "number"}),
            (_, Value::Number(_)) => json!({"type": "integer"}),
            _ => json!({"type": "string"}),
        };
        props.insert(key, schema);
    }
    json!({
        "type": "object",
        "description": "Setting keys to change with their new values (flat, as GET /api/settings shows them under `settings`); an unknown key or a value out of range refuses the whole change.",
        "minProperties": 1,
        "properties": props,
        "additionalProperties": false
    })
}

/// `v[key]` as an object, created (or replaced, if not an object) when needed.
fn ensure_object<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    if !v[key].is_object() {
        v[key] = json!({});
    }
    &mut v[key]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gets_take_format_and_every_operation_documents_errors() {
        let mut doc = json!({
            "openapi": "3.1.0",
            "paths": {
                "/api/time": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
                "/api/settings": {"post": {"responses": {"200": {"description": "ok"}}}}
            }
        });
        complete(&mut doc, "http://127.0.0.1:8085");
        let get = &doc["paths"]["/api/time"]["get"];
        assert_eq!(get["parameters"][0]["name"], "format");
        assert_eq!(
            get["responses"]["200"]["content"]["application/json"]["schema"]["anyOf"][1]["$ref"],
            "#/components/schemas/Error"
        );
        assert!(get["responses"]["415"].is_object());
        let post = &doc["paths"]["/api/settings"]["post"];
        assert!(post["parameters"].is_null());
        let props = &post["requestBody"]["content"]["application/json"]["schema"]["properties"];
        assert_eq!(props["httpPort"]["type"], "integer");
        assert_eq!(props["writeBudgetMs"]["type"], "number");
        assert_eq!(doc["servers"][0]["url"], "http://127.0.0.1:8085");
        assert_eq!(
            doc["components"]["securitySchemes"]["bearer"]["scheme"],
            "bearer"
        );
    }
}

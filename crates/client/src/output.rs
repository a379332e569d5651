//! Output: TOON text (the default, rendered from the service's JSON with the `toon-format` crate)
//! or the JSON itself (`--json`), and errors as the contract's code and detail.

use crate::http::Answer;
use protocol::error::ApiError;
use serde_json::Value;

/// Renders a value as TOON text, falling back to pretty JSON if it cannot be encoded.
pub fn toon(value: &Value) -> String {
    toon_format::encode_default(value)
        .unwrap_or_else(|_| serde_json::to_string_pretty(value).unwrap_or_default())
}

/// Makes a write's answer readable as text (TOON only; `--json` prints the contract's answer
/// as it is): `place` names its orientation (the contract answers 0-3: south, west, north,
/// east) and `path` leaves out `connectorEdgesInGrid`, the size of the service's path graph.
pub fn readable(route_path: &str, value: &mut Value) {
    let Some(obj) = value.as_object_mut() else {
        return;
    };
    match route_path {
        "/api/building/place" => {
            const NAMES: [&str; 4] = ["south", "west", "north", "east"];
            if let Some(name) = obj
                .get("orientation")
                .and_then(Value::as_u64)
                .and_then(|o| NAMES.get(o as usize))
            {
                obj.insert("orientation".into(), Value::from(*name));
            }
        }
        "/api/path/place" => {
            obj.remove("connectorEdgesInGrid");
        }
        _ => {}
    }
}

/// Renders a value in the chosen format.
pub fn render(value: &Value, json: bool) -> String {
    if json {
        serde_json::to_string_pretty(value).unwrap_or_default()
    } else {
        toon(value)
    }
}

/// Prints a successful value to stdout.
pub fn print_value(value: &Value, json: bool) {
    let text = render(value, json);
    if !text.is_empty() {
        println!("{text}");
    }
}

/// Prints an answer and returns its exit code. Errors go to stderr as `error: <code>: <detail>`
/// with their extra members as TOON; with `--json` the error body also goes to stdout.
pub fn print_answer(answer: &Answer, json: bool) -> i32 {
    match answer {
        Answer::Ok(v) => print_value(v, json),
        Answer::Error {
            error,
            body,
            status,
        } => {
            if json {
                println!("{}", serde_json::to_string_pretty(body).unwrap_or_default());
            }
            eprintln!("{}", error_text(error));
            if *status == 401 {
                eprintln!(
                    "hint: give the token with --token, COLONY_TOKEN or auth_token in the config file (see `colony config`)"
                );
            }
        }
    }
    answer.exit_code()
}

/// `error: <code>: <detail>` and the extras, indented.
pub fn error_text(error: &ApiError) -> String {
    let mut out = format!("error: {}", error.message());
    if !error.extras.is_empty() {
        let extras = toon(&Value::Object(error.extras.clone()));
        for line in extras.lines() {
            out.push_str("\n  ");
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_names_orientations_and_drops_the_graph_size() {
        let mut placed = serde_json::json!({"id": 5, "orientation": 2});
        readable("/api/building/place", &mut placed);
        assert_eq!(placed["orientation"], "north");
        let mut path = serde_json::json!({"placed": {"paths": 3}, "connectorEdgesInGrid": 43388});
        readable("/api/path/place", &mut path);
        assert!(path.get("connectorEdgesInGrid").is_none());
        assert_eq!(path["placed"]["paths"], 3);
        // Other answers, and out-of-range values, are left alone.
        let mut other = serde_json::json!({"orientation": 7});
        readable("/api/building/place", &mut other);
        assert_eq!(other["orientation"], 7);
    }
    use serde_json::json;

    #[test]
    fn toon_round_trips() {
        let v = json!({"dayNumber": 3, "dayProgress": 0.25, "items": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]});
        let text = toon(&v);
        assert!(text.contains("items[2]{a,b}:"), "{text}");
        let back: Value = toon_format::decode_default(&text).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn errors_show_code_detail_and_extras() {
        let e =
            ApiError::from_body(&json!({"error": "invalid_param: bad; got 9", "got": 9})).unwrap();
        assert_eq!(error_text(&e), "error: invalid_param: bad; got 9\n  got: 9");
    }
}

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

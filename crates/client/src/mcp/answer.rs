//! Tool results: the answer as TOON text (what the CLI prints) in the text content and the JSON
//! in `structuredContent`; errors as tool errors (`isError: true`) whose text is the service's
//! `code: detail` with its extra members, so a model reads what to do next.

use super::api::Failure;
use crate::http::Answer;
use crate::output;
use protocol::error::{ApiError, ErrorCode};
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

/// `structuredContent` must be an object: lists go under `items`, other values under `value`.
pub fn as_object(v: Value) -> Value {
    match v {
        Value::Object(_) => v,
        Value::Array(_) => json!({ "items": v }),
        other => json!({ "value": other }),
    }
}

/// A successful result: `text` for the model, `structured` as the JSON.
pub fn success(text: String, structured: Value) -> CallToolResult {
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(as_object(structured));
    r
}

/// A successful result whose text is the TOON form of the value itself.
pub fn value(v: Value) -> CallToolResult {
    success(output::toon(&v), v)
}

/// The code a tool error shows: the service's, or `placement` for the uncoded placement
/// refusals (their `reason` extra says which rule refused).
pub fn code_of(error: &ApiError) -> &'static str {
    match error.code {
        ErrorCode::Placement => "placement",
        c => c.as_str(),
    }
}

/// A tool error from the service's error answer.
pub fn service_error(status: u16, error: &ApiError) -> CallToolResult {
    build_error(
        code_of(error),
        &error.detail,
        &error.extras,
        status,
        error.message(),
    )
}

/// A tool error of our own (bad arguments, an unreachable service, a step of a composite
/// tool that failed), with a code in the service's style.
pub fn error(code: &str, detail: impl Into<String>) -> CallToolResult {
    error_with(code, detail, Map::new())
}

/// [`error`] with extra members.
pub fn error_with(
    code: &str,
    detail: impl Into<String>,
    extras: Map<String, Value>,
) -> CallToolResult {
    let detail = detail.into();
    let message = format!("{code}: {detail}");
    build_error(code, &detail, &extras, 200, message)
}

/// Text `code: detail` with the extras as indented TOON; structured `{code, error, ...extras}`
/// where `error` is the service's own `error` member.
fn build_error(
    code: &str,
    detail: &str,
    extras: &Map<String, Value>,
    status: u16,
    message: String,
) -> CallToolResult {
    let mut text = format!("{code}: {detail}");
    if !extras.is_empty() {
        for line in output::toon(&Value::Object(extras.clone())).lines() {
            text.push_str("\n  ");
            text.push_str(line);
        }
    }
    if status == 401 {
        text.push_str(
            "\nhint: start `colony mcp` with the service's token (--token, COLONY_TOKEN or \
             auth_token in the config file)",
        );
    }
    let mut body = Map::new();
    body.insert("code".into(), code.into());
    body.insert("error".into(), message.into());
    for (k, v) in extras {
        body.insert(k.clone(), v.clone());
    }
    let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
    r.structured_content = Some(Value::Object(body));
    r
}

/// The service could not be reached, or gave no usable answer (`unreachable`, `body_too_large`...).
pub fn failure(f: &Failure) -> CallToolResult {
    error(f.code, f.message.clone())
}

/// The JSON of a successful answer, or the tool result that reports why there is none (the
/// service's error, or an unreachable service): for composite tools that go on with the JSON.
pub fn json_or_result(sent: Result<Answer, Failure>) -> Result<Value, Box<CallToolResult>> {
    match sent {
        Ok(Answer::Ok(v)) => Ok(v),
        Ok(other) => Err(Box::new(from_answer(other))),
        Err(f) => Err(Box::new(failure(&f))),
    }
}

/// A result from one answer of the service: its TOON text and JSON, or its error.
pub fn from_answer(answer: Answer) -> CallToolResult {
    match answer {
        Answer::Ok(v) => value(v),
        Answer::Error { status, error, .. } => service_error(status, &error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(r: &CallToolResult) -> String {
        r.content[0].as_text().unwrap().text.clone()
    }

    #[test]
    fn errors_carry_code_detail_and_extras() {
        let e = ApiError::from_body(
            &json!({"error": "invalid_param: speed must be 0-3; got 9", "got": 9}),
        )
        .unwrap();
        let r = service_error(200, &e);
        assert_eq!(r.is_error, Some(true));
        assert_eq!(
            text(&r),
            "invalid_param: speed must be 0-3; got 9\n  got: 9"
        );
        let s = r.structured_content.unwrap();
        assert_eq!(s["code"], "invalid_param");
        assert_eq!(s["got"], 9);
    }

    #[test]
    fn placement_refusals_are_labelled_placement() {
        let e =
            ApiError::from_body(&json!({"error": "tile 3,4 is occupied", "reason": "occupied"}))
                .unwrap();
        let r = service_error(200, &e);
        assert!(text(&r).starts_with("placement: tile 3,4 is occupied\n  reason: occupied"));
        assert_eq!(r.structured_content.unwrap()["reason"], "occupied");
    }

    #[test]
    fn own_codes_and_values() {
        let r = error("unreachable", "cannot reach the Colony service");
        assert_eq!(text(&r), "unreachable: cannot reach the Colony service");
        assert_eq!(r.structured_content.unwrap()["code"], "unreachable");
        let mut extras = Map::new();
        extras.insert("step".into(), "place".into());
        let r = error_with("invalid_param", "bad", extras);
        assert_eq!(text(&r), "invalid_param: bad\n  step: place");
        let r = value(json!([1, 2]));
        assert_eq!(r.structured_content.unwrap(), json!({"items": [1, 2]}));
        assert_eq!(r.is_error, Some(false));
    }
}

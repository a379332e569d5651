//! What `colony mcp --http` checks in a JSON POST before rmcp sees it: the body is at most
//! [`MAX_BODY_BYTES`] (else 413) and one JSON-RPC message (else 400 with a JSON-RPC error of no
//! id: `-32700` parse error for text that is not JSON, `-32600` invalid request for JSON that is
//! not a JSON-RPC message, as the MCP Streamable HTTP transport asks; rmcp itself answers 415,
//! which says the media type was wrong when it was not), and an `initialize` that would open a
//! session finds room under the session cap (else 503 with `Retry-After`).

use super::sessions::{CappedSessions, full_text};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use serde_json::{Value, json};
use std::sync::Arc;

/// The largest request body taken (rmcp's own default limit, which it is given too).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// A JSON-RPC error answer with HTTP `status`.
fn rpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    (status, axum::Json(body)).into_response()
}

fn is_json(req: &Request) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/json")
        })
}

/// Reads the body, at most [`MAX_BODY_BYTES`]; `Err` is the answer.
async fn read_body(body: Body) -> Result<Bytes, Response> {
    match http_body_util::Limited::new(body, MAX_BODY_BYTES)
        .collect()
        .await
    {
        Ok(c) => Ok(c.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(rpc_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            Value::Null,
            -32600,
            format!(
                "Invalid Request: the body is larger than {MAX_BODY_BYTES} bytes, the most this \
                 server takes; send a smaller message"
            ),
        )),
        Err(e) => Err(rpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            -32700,
            format!("Parse error: the request body could not be read: {e}"),
        )),
    }
}

/// What is wrong with a body that is not one JSON-RPC message; `None` when it is one.
pub fn refusal(bytes: &[u8]) -> Option<Response> {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return Some(rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                -32700,
                format!(
                    "Parse error: the body is not JSON ({e}); send one JSON-RPC 2.0 message, \
                     e.g. {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}"
                ),
            ));
        }
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let what = if value.is_array() {
        Some("a batch (a JSON array) is not accepted; send one message per request".to_string())
    } else if !value.is_object() {
        Some("the body must be a JSON-RPC 2.0 message (a JSON object)".to_string())
    } else if value.get("jsonrpc") != Some(&json!("2.0")) {
        Some("\"jsonrpc\": \"2.0\" is missing".to_string())
    } else {
        serde_json::from_value::<ClientJsonRpcMessage>(value)
            .err()
            .map(|e| format!("not a JSON-RPC 2.0 message this server takes ({e})"))
    }?;
    // An id that is not a string or a number cannot be echoed.
    let id = if id.is_string() || id.is_number() {
        id
    } else {
        Value::Null
    };
    Some(rpc_error(
        StatusCode::BAD_REQUEST,
        id,
        -32600,
        format!("Invalid Request: {what}"),
    ))
}

/// Whether a message opens a session: an `initialize` without `Mcp-Session-Id`.
fn opens_session(bytes: &[u8], req: &Request) -> Option<Value> {
    if req.headers().contains_key("mcp-session-id") {
        return None;
    }
    match serde_json::from_slice::<ClientJsonRpcMessage>(bytes).ok()? {
        ClientJsonRpcMessage::Request(r)
            if matches!(r.request, ClientRequest::InitializeRequest(_)) =>
        {
            Some(serde_json::to_value(&r.id).unwrap_or(Value::Null))
        }
        _ => None,
    }
}

/// The middleware: checks a JSON POST's body and the session cap, then hands the request on with
/// its body.
pub async fn admit(
    State(sessions): State<Arc<CappedSessions>>,
    req: Request,
    next: Next,
) -> Response {
    if req.method() != Method::POST || !is_json(&req) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let bytes = match read_body(body).await {
        Ok(b) => b,
        Err(resp) => return resp,
    };
    if let Some(resp) = refusal(&bytes) {
        return resp;
    }
    let req = Request::from_parts(parts, Body::from(bytes.clone()));
    if let Some(id) = opens_session(&bytes, &req)
        && !sessions.has_room()
    {
        let mut resp = rpc_error(
            StatusCode::SERVICE_UNAVAILABLE,
            id,
            -32000,
            full_text(sessions.limits().max),
        );
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return resp;
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(resp: Response) -> (u16, Value) {
        let status = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn malformed_bodies_get_a_json_rpc_error_saying_what_is_wrong() {
        let (status, v) = body_of(refusal(b"{\"jsonrpc\": \"2.0\", \"id\": 1,").unwrap()).await;
        assert_eq!(status, 400);
        assert_eq!(v["error"]["code"], -32700);
        assert_eq!(v["id"], Value::Null);
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Parse error: the body is not JSON")
        );
        let (status, v) = body_of(refusal(br#"{"id": 7, "method": "tools/list"}"#).unwrap()).await;
        assert_eq!((status, v["error"]["code"].as_i64()), (400, Some(-32600)));
        assert_eq!(v["id"], 7);
        assert!(v["error"]["message"].as_str().unwrap().contains("jsonrpc"));
        let (_, v) = body_of(refusal(b"[1, 2]").unwrap()).await;
        assert!(v["error"]["message"].as_str().unwrap().contains("batch"));
        let (_, v) =
            body_of(refusal(br#"{"jsonrpc": "2.0", "id": {}, "method": 3}"#).unwrap()).await;
        assert_eq!(
            (v["id"].clone(), v["error"]["code"].as_i64()),
            (Value::Null, Some(-32600))
        );
        assert!(refusal(br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#).is_none());
        assert!(refusal(br#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#).is_none());
    }
}

//! The recording proxy between an agent and its episode's colonyd. The agent is given the
//! proxy's port as `COLONY_PORT`; every request it makes is forwarded unchanged and recorded
//! (method, path, status, the error code of an error body, time), which is how the trajectory
//! lists "every API request the agent made" without the agent's cooperation.
//!
//! The harness owns time and the game itself, so the proxy refuses the routes that would take
//! them over (new game, load, advance, speed, ready gate, settings, benchmark) with the contract's
//! error format: `{"error": "disabled: ..."}` (HTTP 200, as domain errors are answered).

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, Method, StatusCode};
use axum::response::Response;
use serde::Serialize;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Largest request body forwarded (the service's own default limit is 1 MiB).
const MAX_BODY: usize = 16 << 20;

/// One request the agent made.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ApiCall {
    pub method: String,
    /// Path and query as sent.
    pub path: String,
    pub status: u16,
    /// The code of an error answer (`invalid_param`, ...), if the answer was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub ms: f64,
}

/// Routes an agent may not call during an evaluation: (method, path, why).
const REFUSED: &[(&str, &str, &str)] = &[
    ("POST", "/api/game/new", "the harness starts the game"),
    ("POST", "/api/game/load", "the harness starts the game"),
    (
        "POST",
        "/api/game/advance",
        "the harness advances time between turns",
    ),
    (
        "POST",
        "/api/speed",
        "the harness keeps the game paused between turns",
    ),
    ("POST", "/api/ready", "the harness opens the ready gate"),
    (
        "POST",
        "/api/settings",
        "the service's settings belong to the harness",
    ),
    (
        "POST",
        "/api/benchmark",
        "benchmarks would skew the episode's wall time",
    ),
];

struct Shared {
    upstream: String,
    client: reqwest::Client,
    calls: Mutex<Vec<ApiCall>>,
}

/// A running proxy; dropped with the runtime that serves it.
#[derive(Clone)]
pub struct Proxy {
    shared: Arc<Shared>,
    pub port: u16,
}

impl Proxy {
    /// Starts a proxy on a free loopback port in front of `127.0.0.1:upstream_port`.
    pub async fn start(upstream_port: u16) -> std::io::Result<Proxy> {
        let shared = Arc::new(Shared {
            upstream: format!("http://127.0.0.1:{upstream_port}"),
            client: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(600))
                .build()
                .map_err(std::io::Error::other)?,
            calls: Mutex::new(Vec::new()),
        });
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let port = listener.local_addr()?.port();
        let app = axum::Router::new()
            .fallback(forward)
            .with_state(shared.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Proxy { shared, port })
    }

    /// Takes the calls recorded since the last take.
    pub fn take_calls(&self) -> Vec<ApiCall> {
        std::mem::take(&mut *self.shared.calls.lock().expect("not poisoned"))
    }
}

/// Headers not passed on (hop-by-hop, and those the client recomputes).
fn passes(name: &HeaderName) -> bool {
    !matches!(
        name.as_str(),
        "host" | "content-length" | "connection" | "transfer-encoding" | "keep-alive" | "upgrade"
    )
}

fn error_code(body: &[u8]) -> Option<String> {
    if !body.starts_with(b"{") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    let e = v.get("error")?.as_str()?;
    Some(e.split_once(':').map_or(e, |(c, _)| c).trim().to_owned())
}

fn json_response(status: StatusCode, body: String) -> Response {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("valid response")
}

async fn forward(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.uri().path().to_owned(), |p| p.as_str().to_owned());
    let plain = req.uri().path().trim_end_matches('/').to_ascii_lowercase();
    let refused = REFUSED
        .iter()
        .find(|(m, p, _)| method.as_str() == *m && plain == *p);
    let (status, body, headers) = if let Some((_, p, why)) = refused {
        let body = serde_json::json!({
            "error": format!("disabled: {method} {p} is not available to an agent during an evaluation ({why}); act on the colony and end your turn"),
        })
        .to_string();
        (StatusCode::OK, Bytes::from(body), HeaderMap::new())
    } else {
        match send(&shared, method.clone(), &path, req).await {
            Ok(r) => r,
            Err(e) => {
                let body = serde_json::json!({
                    "error": format!("operation_failed: the evaluation proxy could not reach colonyd: {e}"),
                })
                .to_string();
                (StatusCode::BAD_GATEWAY, Bytes::from(body), HeaderMap::new())
            }
        }
    };
    shared.calls.lock().expect("not poisoned").push(ApiCall {
        method: method.to_string(),
        path,
        status: status.as_u16(),
        error: error_code(&body),
        ms: (start.elapsed().as_secs_f64() * 1e4).round() / 10.0,
    });
    let mut resp = json_response(status, String::new());
    if !headers.is_empty() {
        resp.headers_mut().clear();
        for (k, v) in &headers {
            if passes(k) {
                resp.headers_mut().append(k, v.clone());
            }
        }
    }
    *resp.body_mut() = Body::from(body);
    resp
}

async fn send(
    shared: &Shared,
    method: Method,
    path: &str,
    req: Request,
) -> Result<(StatusCode, Bytes, HeaderMap), String> {
    let headers = req.headers().clone();
    let body = axum::body::to_bytes(req.into_body(), MAX_BODY)
        .await
        .map_err(|e| format!("reading the request body: {e}"))?;
    let mut out = shared
        .client
        .request(method, format!("{}{path}", shared.upstream));
    for (k, v) in &headers {
        if passes(k) {
            out = out.header(k, v);
        }
    }
    let r = out.body(body).send().await.map_err(|e| e.to_string())?;
    let status = r.status();
    let headers = r.headers().clone();
    let bytes = r.bytes().await.map_err(|e| e.to_string())?;
    Ok((status, bytes, headers))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_come_from_error_bodies_only() {
        assert_eq!(
            error_code(br#"{"error": "invalid_param: x must be 1"}"#),
            Some("invalid_param".into())
        );
        assert_eq!(error_code(br#"{"ok": true}"#), None);
        assert_eq!(error_code(b"day: 3"), None);
    }
}

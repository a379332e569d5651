//! The recording proxy between an agent and its episode's colonyd. The agent is given the
//! proxy's ports as `COLONY_PORT` and `COLONY_WS_PORT`; every HTTP request it makes is recorded
//! (method, path, status, the error code of an error body, time), which is how the trajectory
//! lists "every API request the agent made" without the agent's cooperation.
//!
//! The harness owns time and the game itself, so the proxy refuses the routes that would take
//! them over (new game, load, advance, speed, ready gate, settings, benchmark) with the contract's
//! error format: `{"error": "disabled: ..."}` (HTTP 200, as domain errors are answered). The
//! decision is made once, on the normalised request (`proxy_path`), and exactly that request is
//! forwarded, so no spelling of a path reaches colonyd past the list. colonyd runs with a token
//! only the proxy holds (added to each forwarded request); colonyd's own ports are replaced by the
//! proxy's in every answer (the OpenAPI document's `servers`, error texts).
//!
//! The proxy forwards only while the agent's turn is open ([`Proxy::open_turn`]): between turns,
//! while the harness checks and advances the game, every request is refused with
//! `{"error": "disabled: ..."}` (and recorded with the next turn), and closing the turn waits for
//! the requests already forwarded. A persistent agent that acts after its reply therefore cannot
//! race the advance, and the episode's world depends on the agent's turns alone.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, Method, StatusCode};
use axum::response::Response;
use serde::Serialize;
use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::proxy_path::Target;

/// Largest request body forwarded (the service's own default limit is 1 MiB).
const MAX_BODY: usize = 16 << 20;

/// One request the agent made.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ApiCall {
    pub method: String,
    /// Path and query as sent.
    pub path: String,
    /// Path and query as forwarded, when normalising changed them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwarded: Option<String>,
    pub status: u16,
    /// The code of an error answer (`invalid_param`, ...), if the answer was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub ms: f64,
    /// A write forwarded to colonyd (any method but GET, HEAD and OPTIONS): its body exactly as
    /// sent (UTF-8, lossily), which `colony replay` sends again. Absent for reads and refusals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// Whether a request of this method may change the game (everything but GET, HEAD, OPTIONS).
pub fn is_write(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
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
        "GET",
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
    /// `Bearer TOKEN` for colonyd.
    auth: String,
    client: reqwest::Client,
    calls: Mutex<Vec<ApiCall>>,
    /// (colonyd's address text, the proxy's) pairs replaced in answers.
    scrub: Scrub,
    /// Whether the agent's turn is open, and the requests being forwarded.
    gate: Mutex<Gate>,
    /// Signalled when a forwarded request ends.
    idle: Condvar,
    /// Held by a write from before it is forwarded until it is recorded, so writes reach colonyd
    /// one at a time, in the order the trajectory lists them (replays apply them in that order).
    writes: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Gate {
    open: bool,
    in_flight: usize,
}

/// A forwarded request, counted in flight until dropped (also when the agent hangs up).
struct InFlight(Arc<Shared>);

impl InFlight {
    /// Counts a request in, if the turn is open.
    fn enter(shared: &Arc<Shared>) -> Option<InFlight> {
        let mut g = shared.gate.lock().expect("not poisoned");
        if !g.open {
            return None;
        }
        g.in_flight += 1;
        Some(InFlight(shared.clone()))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut g = self.0.gate.lock().expect("not poisoned");
        g.in_flight -= 1;
        if g.in_flight == 0 {
            self.0.idle.notify_all();
        }
    }
}

/// A running proxy; dropped with the runtime that serves it.
#[derive(Clone)]
pub struct Proxy {
    shared: Arc<Shared>,
    /// The HTTP port the agent is given.
    pub port: u16,
    /// The WebSocket port the agent is given.
    pub ws_port: u16,
}

impl Proxy {
    /// Starts the proxy on free loopback ports in front of colonyd's HTTP and WebSocket ports,
    /// speaking to colonyd with `token`.
    pub async fn start(
        upstream_port: u16,
        upstream_ws_port: u16,
        token: &str,
    ) -> std::io::Result<Proxy> {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let port = listener.local_addr()?.port();
        let ws_port = crate::proxy_ws::start(upstream_ws_port, token.to_owned()).await?;
        let scrub = Scrub {
            ports: vec![(upstream_port, port), (upstream_ws_port, ws_port)],
        };
        let shared = Arc::new(Shared {
            upstream: format!("http://127.0.0.1:{upstream_port}"),
            auth: format!("Bearer {token}"),
            client: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(600))
                .build()
                .map_err(std::io::Error::other)?,
            calls: Mutex::new(Vec::new()),
            scrub,
            gate: Mutex::new(Gate::default()),
            idle: Condvar::new(),
            writes: tokio::sync::Mutex::new(()),
        });
        let app = axum::Router::new()
            .fallback(forward)
            .with_state(shared.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Proxy {
            shared,
            port,
            ws_port,
        })
    }

    /// Opens the agent's turn: requests are forwarded until [`Proxy::close_turn`].
    pub fn open_turn(&self) {
        self.shared.gate.lock().expect("not poisoned").open = true;
    }

    /// Closes the agent's turn: later requests are refused; waits (at most `wait`) for the
    /// requests already being forwarded. Not to be called on the runtime's threads.
    pub fn close_turn(&self, wait: Duration) {
        let mut g = self.shared.gate.lock().expect("not poisoned");
        g.open = false;
        let _ = self
            .shared
            .idle
            .wait_timeout_while(g, wait, |g| g.in_flight > 0)
            .expect("not poisoned");
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
        "host"
            | "content-length"
            | "connection"
            | "transfer-encoding"
            | "keep-alive"
            | "upgrade"
            | "authorization"
    )
}

/// colonyd's ports replaced by the proxy's wherever an answer names a loopback address.
struct Scrub {
    /// (colonyd's port, the proxy's).
    ports: Vec<(u16, u16)>,
}

impl Scrub {
    /// The hosts an address of colonyd is written with, each with its colon.
    const HOSTS: [&'static [u8]; 2] = [b"127.0.0.1:", b"localhost:"];

    /// `body` with every `HOST:PORT` naming one of colonyd's ports (the whole run of digits, so
    /// `:40001` is not `:4000`) naming the proxy's instead; the body itself when none does. One
    /// search per host over the body, and a copy only when something is replaced.
    fn apply(&self, body: Bytes) -> Bytes {
        let mut hits: Vec<(usize, usize, u16)> = Vec::new();
        for host in Self::HOSTS {
            for at in memchr::memmem::find_iter(&body, host) {
                let start = at + host.len();
                let digits = body[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let port = std::str::from_utf8(&body[start..start + digits])
                    .ok()
                    .and_then(|d| d.parse::<u16>().ok());
                if let Some(&(_, ours)) = self.ports.iter().find(|(t, _)| Some(*t) == port) {
                    hits.push((start, start + digits, ours));
                }
            }
        }
        if hits.is_empty() {
            return body;
        }
        hits.sort_unstable();
        let mut out = Vec::with_capacity(body.len());
        let mut from = 0;
        for (start, end, ours) in hits {
            out.extend_from_slice(&body[from..start]);
            out.extend_from_slice(ours.to_string().as_bytes());
            from = end;
        }
        out.extend_from_slice(&body[from..]);
        Bytes::from(out)
    }
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

fn error_body(text: String) -> Bytes {
    Bytes::from(serde_json::json!({ "error": text }).to_string())
}

async fn forward(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.uri().path().to_owned(), |p| p.as_str().to_owned());
    let target = crate::proxy_path::normalise(&method, req.uri());
    let forwarded = target.as_ref().ok().map(Target::forwarded);
    let refused = target.as_ref().ok().and_then(|t| {
        let plain = t.path.to_ascii_lowercase();
        REFUSED
            .iter()
            .find(|(m, p, _)| t.method.as_str() == *m && plain == *p)
    });
    let admitted = InFlight::enter(&shared);
    let mut sent = None;
    let in_order = if is_write(&method) {
        Some(shared.writes.lock().await)
    } else {
        None
    };
    let (status, body, headers) = if admitted.is_none() {
        let body = error_body(
            "disabled: the agent's turn is over (the harness is advancing the game); act during \
             your next turn"
                .into(),
        );
        (StatusCode::OK, body, HeaderMap::new())
    } else if let Err(why) = &target {
        let body = error_body(format!(
            "invalid_param: {why}; send the route's path as the API lists it (GET /api/openapi.json)"
        ));
        (StatusCode::BAD_REQUEST, body, HeaderMap::new())
    } else if let Some((m, p, why)) = refused {
        let body = error_body(format!(
            "disabled: {m} {p} is not available to an agent during an evaluation ({why}); act on the colony and end your turn"
        ));
        (StatusCode::OK, body, HeaderMap::new())
    } else {
        let t = target.as_ref().expect("checked above");
        let fwd = forwarded.as_deref().unwrap_or(&path);
        let keep = in_order.is_some().then_some(&mut sent);
        match send(&shared, t.method.clone(), fwd, req, keep).await {
            Ok((status, body, headers)) => (status, shared.scrub.apply(body), headers),
            Err(e) => {
                let body = error_body(format!(
                    "operation_failed: the evaluation proxy could not reach colonyd: {e}"
                ));
                (StatusCode::BAD_GATEWAY, body, HeaderMap::new())
            }
        }
    };
    shared.calls.lock().expect("not poisoned").push(ApiCall {
        method: method.to_string(),
        forwarded: forwarded.filter(|f| *f != path),
        path,
        status: status.as_u16(),
        error: error_code(&body),
        ms: (start.elapsed().as_secs_f64() * 1e4).round() / 10.0,
        body: sent,
    });
    drop(in_order);
    // Recorded before the turn may close on it.
    drop(admitted);
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
    keep_body: Option<&mut Option<String>>,
) -> Result<(StatusCode, Bytes, HeaderMap), String> {
    let headers = req.headers().clone();
    let body = axum::body::to_bytes(req.into_body(), MAX_BODY)
        .await
        .map_err(|e| format!("reading the request body: {e}"))?;
    if let Some(keep) = keep_body {
        *keep = Some(String::from_utf8_lossy(&body).into_owned());
    }
    let mut out = shared
        .client
        .request(method, format!("{}{path}", shared.upstream));
    for (k, v) in &headers {
        if passes(k) {
            out = out.header(k, v);
        }
    }
    out = out.header("authorization", &shared.auth);
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

    #[test]
    fn colonyd_addresses_are_replaced_by_the_proxys() {
        let scrub = Scrub {
            ports: vec![(4000, 51234)],
        };
        let body = Bytes::from_static(br#"{"url":"http://127.0.0.1:4000","b":"127.0.0.1:40001"}"#);
        assert_eq!(
            &scrub.apply(body)[..],
            br#"{"url":"http://127.0.0.1:51234","b":"127.0.0.1:40001"}"#
        );
        let body = Bytes::from_static(b"ws://localhost:4000/api/ws and localhost:9");
        assert_eq!(
            &scrub.apply(body)[..],
            b"ws://localhost:51234/api/ws and localhost:9"
        );
    }
}

//! The request pipeline that wraps the router, in the order decisions.md fixes: Host check,
//! lenient path normalization, OPTIONS preflight, bearer auth (401, slowed for a peer that keeps
//! failing: `http::auth_throttle`), ready gate (409), replay mode's refusal of writes
//! (`disabled`, `crate::replay`), loading guard (503), then routing and the handler (a GET of a snapshot-only route through the
//! per-snapshot read cache, `http::cache`, at most one rendering per core at once); afterwards
//! the strict-status switch, CORS headers and panic containment (500 `internal_error`, never a
//! dropped connection).

use super::AppState;
use super::error::{DomainError, error_response, strict_status};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;
use protocol::error::{ApiError, ErrorCode};
use subtle::ConstantTimeEq;

/// Routes that pass a closed gate (decisions.md).
pub fn gate_exempt(path: &str) -> bool {
    path == "/api/ping"
        || path == "/api/ready"
        || path == "/api/agent"
        || path.starts_with("/api/agent/")
}

/// Routes that answer while a game is loading.
fn loading_exempt(path: &str, method: &Method) -> bool {
    gate_exempt(path)
        || (method == Method::GET && (path == "/api/speed" || path == "/api/settlement"))
}

/// The Host-header rule for a bind address: `Some(form)` when bound to a literal loopback
/// address (or `localhost`), which the Host header's host part must then equal.
pub fn host_form(listen_address: &str) -> Option<String> {
    let a = listen_address.trim();
    if a.eq_ignore_ascii_case("localhost") {
        return Some("localhost".into());
    }
    let bare = a.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<std::net::IpAddr>() {
        Ok(ip) if ip.is_loopback() => Some(match ip {
            std::net::IpAddr::V4(v4) => v4.to_string(),
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
        }),
        _ => None,
    }
}

/// The host part of a Host header value (port removed, brackets kept for IPv6).
fn host_part(value: &str) -> &str {
    if value.starts_with('[') {
        match value.find(']') {
            Some(end) => &value[..=end],
            None => value,
        }
    } else {
        value.rsplit_once(':').map_or(value, |(h, _)| h)
    }
}

/// Checks the Host header against the bind form; `Err` is the 400 response.
pub fn check_host(headers: &HeaderMap, form: Option<&str>) -> Result<(), ApiError> {
    let Some(form) = form else { return Ok(()) };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if host_part(host).eq_ignore_ascii_case(form) {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::InvalidHost,
        format!(
            "Host header {host:?} does not match the bind address; this server is bound to {form}, so use http://{form}:<port>"
        ),
    ))
}

/// Checks a bearer token (header, or `?token=` when `allow_query`). Constant-time.
pub fn check_token(
    headers: &HeaderMap,
    uri: &Uri,
    token: &str,
    allow_query: bool,
) -> Result<(), ApiError> {
    if token.is_empty() {
        return Ok(());
    }
    let from_header = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, rest) = v.trim_start().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then_some(rest)
        })
        .map(str::trim);
    let from_query = || {
        form_urlencoded::parse(uri.query()?.as_bytes())
            .find(|(k, _)| k == "token")
            .map(|(_, v)| v.into_owned())
    };
    let presented = from_header
        .map(str::to_string)
        .or_else(|| if allow_query { from_query() } else { None });
    let ok = presented.is_some_and(|p| bool::from(p.as_bytes().ct_eq(token.as_bytes())));
    if ok {
        return Ok(());
    }
    let how = if allow_query {
        "an Authorization: Bearer <token> header or ?token=<token>"
    } else {
        "an Authorization: Bearer <token> header"
    };
    Err(ApiError::new(
        ErrorCode::Unauthorized,
        format!("missing or wrong token; send {how} with the server's authToken"),
    ))
}

/// Lower-cases an `/api` path and drops a trailing slash, keeping the query.
pub fn normalize(uri: &Uri) -> Option<Uri> {
    let path = uri.path();
    if !path
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("/api"))
    {
        return None;
    }
    let mut norm = path.to_ascii_lowercase();
    while norm.len() > 1 && norm.ends_with('/') {
        norm.pop();
    }
    if norm == path {
        return None;
    }
    let pq = match uri.query() {
        Some(q) => format!("{norm}?{q}"),
        None => norm,
    };
    pq.parse().ok()
}

fn add_cors(resp: &mut Response, origin: &str) {
    if origin.is_empty() {
        return;
    }
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(origin) {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, v);
    }
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, OPTIONS"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("Authorization, Content-Type, Accept"),
    );
    h.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    h.insert(header::VARY, HeaderValue::from_static("Origin"));
}

/// The middleware function.
pub async fn pipeline(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let settings = state.settings.get();
    if let Err(e) = check_host(req.headers(), state.host_form.as_deref()) {
        return error_response(&e);
    }
    if let Some(uri) = normalize(req.uri()) {
        *req.uri_mut() = uri;
    }
    let path = req.uri().path().to_string();
    let is_api = path == "/api" || path.starts_with("/api/");
    let format = super::format::requested(req.uri(), req.headers());
    let mut resp = if !is_api {
        run_contained(req, next).await
    } else if req.method() == Method::OPTIONS {
        StatusCode::NO_CONTENT.into_response()
    } else if let Err(e) = check_cross_site(&req, &settings.cors_origin) {
        error_response(&e)
    } else if path != "/api/ping"
        && let Err(e) = check_token(req.headers(), req.uri(), &settings.auth_token, false)
    {
        super::auth_throttle::refuse(req.extensions(), &e).await
    } else if !gate_exempt(&path) && !state.agent.is_ready() {
        let mut body = ApiError::new(
            ErrorCode::GameNotReady,
            "the ready gate is closed; the game is not ready for agent commands yet".to_string(),
        )
        .to_body();
        body["hint"] = "POST /api/ready {\"ready\":true} opens the gate (start colonyd with --ready to open it at start-up)".into();
        (StatusCode::CONFLICT, axum::Json(body)).into_response()
    } else if state.replay.is_some() && crate::replay::refuses(req.method(), &path) {
        error_response(&crate::replay::refusal(req.method(), &path))
    } else if state.host.is_loading() && !loading_exempt(&path, req.method()) {
        error_response(&ApiError::new(
            ErrorCode::GameLoading,
            "a game is loading; retry in a moment (GET /api/ping, /api/speed and /api/settlement answer meanwhile)",
        ))
    } else {
        match &format {
            Ok(f) => {
                req.extensions_mut().insert(*f);
                if req.method() == Method::GET && super::cache::cacheable(&path) {
                    // `text/toon` answers are encoded before they are cached, so the encoding
                    // too is done once per snapshot (the step below leaves them as they are).
                    let text = *f == super::format::Format::ToonText;
                    let render = move |req, next| async move {
                        let resp = run_render(req, next).await;
                        if text {
                            super::format::to_toon_text(resp).await
                        } else {
                            resp
                        }
                    };
                    state.cache.serve(&state.host, *f, req, next, render).await
                } else if path == "/api/score" {
                    // A read of the whole history that is not cached (a POST): it renders
                    // under the same permits as the snapshot reads.
                    run_render(req, next).await
                } else {
                    run_contained(req, next).await
                }
            }
            Err(e) => error_response(e),
        }
    };
    if is_api {
        if settings.strict_http_status
            && let Some(DomainError(code)) = resp.extensions().get::<DomainError>().copied()
        {
            *resp.status_mut() = strict_status(code);
        }
        add_cors(&mut resp, &settings.cors_origin);
        if format == Ok(super::format::Format::ToonText) {
            resp = super::format::to_toon_text(resp).await;
        }
    }
    resp
}

/// The cross-site checks of a state-changing request (everything but GET and HEAD): its
/// `Origin`, if any, and a JSON body (`http::origin`).
fn check_cross_site(req: &Request, cors_origin: &str) -> Result<(), ApiError> {
    if req.method() == Method::GET || req.method() == Method::HEAD {
        return Ok(());
    }
    let headers = req.headers();
    let own: Vec<String> = super::origin::own_origin(headers).into_iter().collect();
    super::origin::check_origin(headers, &own, cors_origin)?;
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0);
    super::origin::check_content_type(headers, has_body)
}

/// Renders a snapshot read (the rest of the stack, [`run_contained`]) holding one of as many
/// permits as the machine has cores. colonyd's runtime has one core thread more than that
/// (`main`), so however many long reads arrive at once (the large colony's full building list
/// takes about 100 ms afresh), a core thread stays free: a write or a cached read arriving
/// meanwhile is not queued behind them (docs/performance.md, "WebSocket fan-out and writes").
async fn run_render(req: Request, next: Next) -> Response {
    static PERMITS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    let permits = PERMITS.get_or_init(|| tokio::sync::Semaphore::new(crate::cores()));
    let _permit = permits.acquire().await.ok();
    run_contained(req, next).await
}

/// Runs the rest of the stack, turning a panic into a 500 `internal_error` response.
async fn run_contained(req: Request, next: Next) -> Response {
    match std::panic::AssertUnwindSafe(next.run(req))
        .catch_unwind()
        .await
    {
        Ok(resp) => resp,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            tracing::error!("handler panicked: {what}");
            error_response(&ApiError::new(
                ErrorCode::InternalError,
                "the server hit an internal error; the request was not applied",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_forms() {
        assert_eq!(host_form("127.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(host_form("::1").as_deref(), Some("[::1]"));
        assert_eq!(host_form("localhost").as_deref(), Some("localhost"));
        assert_eq!(host_form("0.0.0.0"), None);
        assert_eq!(host_part("127.0.0.1:8085"), "127.0.0.1");
        assert_eq!(host_part("[::1]:8085"), "[::1]");
        assert_eq!(host_part("localhost"), "localhost");
    }

    #[test]
    fn normalization_lowercases_api_paths_and_strips_slashes() {
        let u: Uri = "/API/Time/?format=json".parse().unwrap();
        assert_eq!(normalize(&u).unwrap().to_string(), "/api/time?format=json");
        assert!(normalize(&"/api/time".parse().unwrap()).is_none());
        assert!(normalize(&"/Dashboard".parse().unwrap()).is_none());
    }
}

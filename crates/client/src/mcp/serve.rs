//! The two transports of `colony mcp`: stdio (what desktop clients start) and Streamable HTTP
//! on a loopback port at `/mcp`, which asks for `Authorization: Bearer <token>` when a token is
//! configured (the service's token, compared in constant time; the scheme in any case) and
//! refuses requests from web pages (any `Origin` header) and foreign `Host` headers. Its
//! sessions are capped and expire when unused (`sessions`); a POST's body is checked first
//! (`admit`).

use super::admit::{self, MAX_BODY_BYTES};
use super::server::ColonyServer;
use super::sessions::{CappedSessions, Limits};
use super::tools::Ctx;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::ServiceExt;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use subtle::ConstantTimeEq;

/// Serves one client over stdin/stdout until it closes them.
pub async fn stdio(ctx: Arc<Ctx>) -> Result<(), String> {
    let running = ColonyServer::new(ctx)
        .serve(rmcp::transport::stdio_pipes())
        .await
        .map_err(|e| format!("the MCP session could not start: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("the MCP session ended with an error: {e}"))?;
    Ok(())
}

/// The configured token, if any.
#[derive(Clone)]
struct Token(Option<Arc<str>>);

/// Serves Streamable HTTP on 127.0.0.1:`port` (0: a free port) until SIGINT or SIGTERM, with at
/// most `limits.max` sessions, each closed after `limits.idle` unused.
pub async fn http(ctx: Arc<Ctx>, port: u16, limits: Limits) -> Result<(), String> {
    let token = Token(ctx.settings.token().map(Arc::from));
    let guarded = token.0.is_some();
    let sessions = Arc::new(CappedSessions::new(limits));
    let service = StreamableHttpService::new(
        move || Ok(ColonyServer::new(ctx.clone())),
        sessions.clone(),
        StreamableHttpServerConfig::default()
            .enforce_origin_validation()
            .with_max_request_body_bytes(MAX_BODY_BYTES),
    );
    // The token is checked first (outermost), so nothing else is read without it.
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(
            sessions.clone(),
            admit::admit,
        ))
        .layer(middleware::from_fn_with_state(token, require_token));
    let sweeper = tokio::spawn(expire_idle(sessions, limits.idle));
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    eprintln!(
        "colony mcp: serving MCP (Streamable HTTP) at http://{addr}/mcp{}",
        if guarded {
            ", bearer token required"
        } else {
            ""
        }
    );
    let served = axum::serve(listener, router)
        .with_graceful_shutdown(shutdown())
        .await
        .map_err(|e| format!("the HTTP server failed: {e}"));
    sweeper.abort();
    served
}

/// Closes unused sessions, looking a few times per idle limit (at least every 30 s).
async fn expire_idle(sessions: Arc<CappedSessions>, idle: Duration) {
    let every = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        sessions.expire_idle().await;
    }
}

async fn shutdown() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Whether the `Authorization` header carries the token (`Bearer`, any case).
fn authorized(headers: &HeaderMap, token: &str) -> bool {
    let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let Some((scheme, given)) = value.trim().split_once(' ') else {
        return false;
    };
    // Constant time: the comparison does not stop at the first difference.
    scheme.eq_ignore_ascii_case("bearer")
        && bool::from(given.trim().as_bytes().ct_eq(token.as_bytes()))
}

async fn require_token(State(token): State<Token>, req: Request<Body>, next: Next) -> Response {
    match &token.0 {
        Some(t) if !authorized(req.headers(), t) => {
            let body = serde_json::json!({
                "error": "unauthorized: missing or wrong token; send Authorization: Bearer <token> \
                          (the Colony service's token)"
            });
            let mut resp = (StatusCode::UNAUTHORIZED, axum::Json(body)).into_response();
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"colony\""),
            );
            resp
        }
        _ => next.run(req).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_token_matches_in_any_scheme_case() {
        let mut h = HeaderMap::new();
        assert!(!authorized(&h, "s3cret"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cret"),
        );
        assert!(authorized(&h, "s3cret"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  s3cret "),
        );
        assert!(authorized(&h, "s3cret"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cre"),
        );
        assert!(!authorized(&h, "s3cret"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic s3cret"),
        );
        assert!(!authorized(&h, "s3cret"));
    }
}

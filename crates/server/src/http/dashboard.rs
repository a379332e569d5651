//! The web dashboard (`GET /`): static files from `web/` embedded in the binary, served under
//! `/dashboard/...`, and `GET /dashboard/config.json`, which tells the page where the WebSocket
//! listens. None of this is under `/api`, so it is neither gated nor behind the token (the page
//! itself asks for the token when the API needs one) and it stays out of the OpenAPI document.

use super::AppState;
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

/// One embedded file: its name under `/dashboard/`, content type and bytes.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $type:expr) => {
        Asset {
            name: $name,
            content_type: $type,
            bytes: include_bytes!(concat!("../../../../web/", $name)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// The dashboard's Content-Security-Policy: its scripts are module files from this origin (no
/// inline script, no eval); its markup uses inline `style` attributes; it talks to the API on
/// its own origin and to the WebSocket on another port (`ws:`/`wss:`); and no page may frame it
/// (with `X-Frame-Options: DENY` for older browsers).
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; \
form-action 'none'; frame-ancestors 'none'";

/// Every file the page loads. A file added to `web/` must be listed here.
const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("dashboard.css", "text/css; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
    asset!("js/app.js", JS),
    asset!("js/api.js", JS),
    asset!("js/ws.js", JS),
    asset!("js/colony.js", JS),
    asset!("js/agent.js", JS),
    asset!("js/settings.js", JS),
    asset!("js/map.js", JS),
    asset!("js/building.js", JS),
    asset!("js/summary.js", JS),
    asset!("js/notes.js", JS),
    asset!("js/charts.js", JS),
    asset!("js/health.js", JS),
    asset!("js/replay.js", JS),
    asset!("js/util.js", JS),
];

/// The dashboard's routes; merged into the application outside the OpenAPI router. Built once
/// at start-up, so `wsPort` and `wsEnabled` are the values the WebSocket listener started with
/// (both take effect only after a restart, whatever the settings say now).
pub fn routes(state: &AppState) -> Router<AppState> {
    let listening = state.ws_listening;
    Router::new()
        .route("/", get(index))
        .route("/dashboard", get(index))
        .route("/dashboard/", get(index))
        .route(
            "/dashboard/config.json",
            get(move |state: State<AppState>| config(state, listening)),
        )
        .route("/dashboard/{*file}", get(file))
}

fn serve(asset: &Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            // The files are compiled in; a new binary may bring new ones.
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        asset.bytes,
    )
        .into_response()
}

fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

async fn index() -> Response {
    serve(find("index.html").expect("index.html is embedded"))
}

async fn file(Path(file): Path<String>) -> Response {
    match find(&file) {
        Some(asset) => serve(asset),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("/dashboard/{file} is not a dashboard file"),
        )
            .into_response(),
    }
}

/// What the page needs before it can talk to the API: the WebSocket port (a different port than
/// the page's), whether it listens, whether the API wants a token (live: the token is checked
/// against the current settings), and the widget's own settings, so the widget is placed and its
/// action log shown even while the ready gate keeps `GET /api/settings` closed. Nothing secret.
async fn config(State(state): State<AppState>, listening: super::WsListening) -> Response {
    let s = state.settings.get();
    (
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({
            "wsPort": listening.port,
            "wsEnabled": listening.enabled,
            "authRequired": !s.auth_token.is_empty(),
            "actionLoggingEnabled": s.action_logging_enabled,
            "widgetLeft": s.widget_left,
            "widgetTop": s.widget_top,
        })),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_embedded_and_typed() {
        for a in ASSETS {
            assert!(!a.bytes.is_empty(), "{} is empty", a.name);
            assert!(!a.content_type.is_empty());
        }
        assert!(find("index.html").is_some());
        assert!(find("../Cargo.toml").is_none());
    }

    #[test]
    fn index_references_only_embedded_files() {
        let html = std::str::from_utf8(find("index.html").unwrap().bytes).unwrap();
        for part in html.split("/dashboard/").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| !matches!(c, '"' | '\'' | '?' | ' '))
                .collect();
            assert!(
                find(&name).is_some(),
                "index.html loads {name}, not embedded"
            );
        }
    }
}

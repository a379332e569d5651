//! Service routes: the OpenAPI document, the settings (read and change at run time) and the
//! debug-only in-process benchmark.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError, invalid_param};
use crate::settings::Settings;
use axum::Json;
use axum::body::Body as HttpBody;
use axum::extract::State;
use axum::http::{Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::Instant;
use tower_service::Service;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(openapi))
        .routes(routes!(get_settings, set_settings))
        .routes(routes!(benchmark))
}

/// The service's OpenAPI 3.1 document, generated from the code.
#[utoipa::path(get, path = "/api/openapi.json", tag = "service", responses((status = 200, description = "OpenAPI document")))]
async fn openapi(State(state): State<AppState>, headers: axum::http::HeaderMap) -> Response {
    match state.built.get() {
        Some(b) => {
            // `servers` names the address this client reached the service at.
            let base = super::origin::own_origin(&headers)
                .unwrap_or_else(|| "http://127.0.0.1:8085".to_string());
            let mut doc = b.openapi.clone();
            doc["servers"] = serde_json::json!([{ "url": base, "description": "this colonyd" }]);
            // The names the game being played takes (its faction's prefabs and crops).
            super::openapi_requests::for_game(&mut doc, &state.host.snapshot());
            Json(doc).into_response()
        }
        None => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}

/// The settings with the token hidden, and where they are stored.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsView {
    /// Every setting by its file key; `authToken` shows `"***"` when set.
    #[schema(value_type = Object)]
    pub settings: Map<String, Value>,
    pub path: String,
    /// Keys that take effect only after a restart.
    pub restart_keys: Vec<&'static str>,
}

fn view(state: &AppState, s: &Settings) -> SettingsView {
    let mut settings = s.to_json();
    if !s.auth_token.is_empty() {
        settings.insert("authToken".into(), "***".into());
    }
    SettingsView {
        settings,
        path: state.settings.path().display().to_string(),
        restart_keys: Settings::RESTART_KEYS.to_vec(),
    }
}

/// Current settings (extension).
#[utoipa::path(get, path = "/api/settings", tag = "service", responses((status = 200, body = SettingsView)))]
async fn get_settings(State(state): State<AppState>) -> Json<SettingsView> {
    Json(view(&state, &state.settings.get()))
}

/// A partial settings object.
#[derive(Deserialize, ToSchema)]
#[serde(transparent)]
pub struct SettingsBody {
    /// Setting keys to change, with their new values.
    #[schema(value_type = Object)]
    pub changes: Map<String, Value>,
}

impl BodySpec for SettingsBody {
    const EXAMPLE: &'static str = r#"{"corsOrigin": "http://localhost:3000"}"#;
}

/// Changes settings at run time; the file is rewritten atomically after 1 s without further
/// changes. An unknown key or a wrong type rejects the whole change.
#[utoipa::path(post, path = "/api/settings", tag = "service", request_body = SettingsBody, responses((status = 200, body = SettingsView)))]
async fn set_settings(
    State(state): State<AppState>,
    Body(body): Body<SettingsBody>,
) -> ApiResult<SettingsView> {
    let mut changes = body.changes;
    changes.remove("format");
    if changes.is_empty() {
        return Err(invalid_param(
            format!("send at least one setting, e.g. {}", SettingsBody::EXAMPLE),
            Value::Object(changes),
        ));
    }
    let s = state
        .settings
        .update(&changes)
        .map_err(|e| invalid_param(e, Value::Object(changes.clone())))?;
    Ok(Json(view(&state, &s)))
}

/// `POST /api/benchmark`.
#[derive(Deserialize, ToSchema)]
pub struct BenchmarkBody {
    /// Runs per route, 1-10000 (default 100).
    pub iterations: Option<i64>,
    /// GET routes to measure (default: every GET route but the OpenAPI document).
    pub routes: Option<Vec<String>>,
}

impl BodySpec for BenchmarkBody {
    const EXAMPLE: &'static str = r#"{"iterations": 100, "routes": ["/api/time"]}"#;
}

/// One route's figures.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RouteTiming {
    pub route: String,
    pub min_us: f64,
    pub median_us: f64,
    pub max_us: f64,
    /// Response body size.
    pub bytes: usize,
}

/// Answer of the benchmark.
#[derive(Serialize, ToSchema)]
pub struct BenchmarkResult {
    pub iterations: u32,
    pub routes: Vec<RouteTiming>,
}

/// Runs read routes inside the server (no network) and reports their timings. Needs
/// `debugEndpointEnabled`.
#[utoipa::path(post, path = "/api/benchmark", tag = "service", request_body = BenchmarkBody, responses((status = 200, body = BenchmarkResult)))]
async fn benchmark(
    State(state): State<AppState>,
    Body(body): Body<BenchmarkBody>,
) -> ApiResult<BenchmarkResult> {
    if !state.settings.get().debug_endpoint_enabled {
        return Err(AppError(ApiError::new(
            ErrorCode::Disabled,
            "POST /api/benchmark is off; set debugEndpointEnabled to true in the settings",
        )));
    }
    let iterations = match body.iterations.unwrap_or(100) {
        n @ 1..=10_000 => n as u32,
        n => {
            return Err(invalid_param(
                format!("iterations must be 1-10000; got {n}"),
                n,
            ));
        }
    };
    let built = state
        .built
        .get()
        .ok_or_else(|| AppError(ApiError::new(ErrorCode::InternalError, "router not built")))?;
    let all: Vec<String> = built
        .get_routes
        .iter()
        .filter(|r| r.as_str() != "/api/openapi.json")
        .cloned()
        .collect();
    let routes = match body.routes {
        None => all,
        Some(list) => {
            if let Some(bad) = list.iter().find(|r| !built.get_routes.contains(r)) {
                return Err(invalid_param(
                    format!(
                        "{bad} is not a GET route; choose from {}",
                        built.get_routes.join(", ")
                    ),
                    bad.clone(),
                ));
            }
            list
        }
    };
    let mut router = built.router.clone();
    let mut out = Vec::new();
    for route in routes {
        let mut samples = Vec::with_capacity(iterations as usize);
        let mut bytes = 0;
        for _ in 0..iterations {
            let req = Request::builder()
                .method(Method::GET)
                .uri(&route)
                .body(HttpBody::empty())
                .expect("valid request");
            let start = Instant::now();
            let resp = router.call(req).await.expect("infallible router");
            let body = resp
                .into_body()
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            samples.push(start.elapsed().as_secs_f64() * 1e6);
            bytes = body.len();
        }
        samples.sort_by(f64::total_cmp);
        out.push(RouteTiming {
            route,
            min_us: samples[0],
            median_us: samples[samples.len() / 2],
            max_us: samples[samples.len() - 1],
            bytes,
        });
    }
    Ok(Json(BenchmarkResult {
        iterations,
        routes: out,
    }))
}

//! The HTTP side of the service: shared state, the router (built together with its OpenAPI
//! document, so a served route cannot be missing from it), the unknown-endpoint answer and the
//! listener.

pub mod admin;
pub mod agent_routes;
pub mod auth_throttle;
pub mod automation;
pub mod body;
pub mod buildings;
pub mod cache;
pub mod colony;
pub mod dashboard;
pub mod dynamite;
pub mod error;
pub mod format;
pub mod game;
pub mod land;
pub mod lifecycle;
pub mod list;
pub mod naming;
pub mod openapi_answers;
pub mod openapi_doc;
pub mod openapi_requests;
mod openapi_views;
pub mod origin;
pub mod paths;
pub mod pipeline;
pub mod placement_mask;
pub mod power;
pub mod replay;
pub mod rows;
pub mod science;
pub mod score;
pub mod stats;
pub mod summary;
mod toon_text;
pub mod zipline;

use crate::agent::AgentStore;
use crate::host::HostHandle;
use crate::hub::Hub;
use crate::settings::SettingsStore;
use axum::Router;
use axum::extract::{Request, State};
use axum::response::Response;
use error::error_response;
use protocol::error::{ApiError, ErrorCode};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

/// Everything a handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub settings: SettingsStore,
    pub agent: AgentStore,
    pub hub: Hub,
    pub host: HostHandle,
    pub saves_dir: Arc<PathBuf>,
    pub host_form: Option<Arc<str>>,
    pub built: Arc<OnceLock<Built>>,
    /// The WebSocket listener as started (flags and settings at start-up; `wsPort` and
    /// `wsEnabled` changes wait for a restart).
    pub ws_listening: WsListening,
    /// Rendered answers of the snapshot-only reads, per snapshot generation (`cache`).
    pub cache: cache::ReadCache,
    /// The world copy of the last placement search, for the next one of the same snapshot.
    pub search_world: buildings::SearchWorld,
    /// The placement masks of the last list asked for (`POST /api/placement/mask`).
    pub kept_masks: placement_mask::KeptMasks,
    /// The replay served (`colonyd --replay DIR`): writes are refused, turns are loaded.
    pub replay: Option<Arc<crate::replay::Replay>>,
}

/// The WebSocket listener as started.
#[derive(Clone, Copy, Debug)]
pub struct WsListening {
    pub port: u16,
    pub enabled: bool,
}

/// What exists only once the router is built.
pub struct Built {
    /// The routes without the pipeline (used by the in-process benchmark).
    pub router: Router,
    /// `GET` and `POST` paths, sorted.
    pub get_routes: Vec<String>,
    pub post_routes: Vec<String>,
    /// The OpenAPI document, completed with what the pipeline does (`openapi_doc`).
    pub openapi: serde_json::Value,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Colony game control service",
        version = "1.0.0",
        description = "HTTP/JSON interface of colonyd. Domain errors answer 200 with {\"error\": \"<code>: <detail>\"} unless strictHttpStatus is set; see README."
    ),
    components(schemas(
        protocol::agent::AgentState,
        protocol::agent::PendingRequest,
        protocol::agent::AgentMode,
        colony::BeaverRow,
        buildings::BuildingRow,
        land::PlantRow,
        land::GatherableRow,
        land::TileJson,
        land::Occupant
    ))
)]
struct ApiDoc;

/// Builds the routes and their document.
fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(game::routes())
        .merge(agent_routes::routes())
        .merge(land::routes())
        .merge(lifecycle::routes())
        .merge(replay::routes())
        .merge(science::routes())
        .merge(paths::routes())
        .merge(summary::routes())
        .merge(stats::routes())
        .merge(score::routes())
        .merge(colony::routes())
        .merge(buildings::routes())
        .merge(dynamite::routes())
        .merge(zipline::routes())
        .merge(naming::routes())
        .merge(placement_mask::routes())
        .merge(power::routes())
        .merge(automation::routes())
        .merge(admin::routes())
}

/// Builds the full HTTP application: pipeline around router around handlers.
pub fn app(state: AppState) -> Router {
    let (router, openapi) = routes().split_for_parts();
    let mut get_routes = Vec::new();
    let mut post_routes = Vec::new();
    for (path, item) in &openapi.paths.paths {
        if item.get.is_some() {
            get_routes.push(path.clone());
        }
        if item.post.is_some() {
            post_routes.push(path.clone());
        }
    }
    get_routes.sort();
    post_routes.sort();
    let mut openapi = serde_json::to_value(&openapi).expect("the OpenAPI document serializes");
    openapi_doc::complete(&mut openapi, "http://127.0.0.1:8085");
    openapi_requests::constrain(&mut openapi);
    openapi_answers::describe(&mut openapi);
    let router = router
        .merge(dashboard::routes(&state))
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(unknown_endpoint)
        .with_state(state.clone());
    let _ = state.built.set(Built {
        router: router.clone(),
        get_routes,
        post_routes,
        openapi,
    });
    // The outer router only forwards, so the pipeline runs before the inner router matches
    // (it normalizes paths and answers auth, gate and loading itself).
    Router::new()
        .fallback_service(router)
        .layer(axum::middleware::from_fn_with_state(
            state,
            pipeline::pipeline,
        ))
}

async fn unknown_endpoint(State(state): State<AppState>, req: Request) -> Response {
    let (get, post) = state
        .built
        .get()
        .map(|b| (b.get_routes.clone(), b.post_routes.clone()))
        .unwrap_or_default();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let known_path = get.contains(&path) || post.contains(&path);
    let detail = if known_path {
        format!(
            "{method} {path} does not exist; {path} takes {}",
            match (get.contains(&path), post.contains(&path)) {
                (true, true) => "GET and POST",
                (true, false) => "GET",
                _ => "POST",
            }
        )
    } else {
        format!(
            "{method} {path} does not exist; see get_endpoints and post_endpoints for the routes"
        )
    };
    let allow = match (get.contains(&path), post.contains(&path)) {
        (true, true) => "GET, POST",
        (true, false) => "GET",
        _ => "POST",
    };
    let mut resp = error_response(
        &ApiError::new(ErrorCode::UnknownEndpoint, detail)
            .with("get_endpoints", get)
            .with("post_endpoints", post),
    );
    // With strictHttpStatus, a known path called with another method is 405 with `Allow`.
    if known_path && state.settings.get().strict_http_status {
        resp.extensions_mut().remove::<error::DomainError>();
        *resp.status_mut() = axum::http::StatusCode::METHOD_NOT_ALLOWED;
        resp.headers_mut().insert(
            axum::http::header::ALLOW,
            axum::http::HeaderValue::from_static(allow),
        );
    }
    resp
}

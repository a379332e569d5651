//! `POST /api/zipline/connect` and `POST /api/zipline/disconnect` (extensions): string or take
//! down a zipline cable between two towers (`sim::colony::zipline`). Writes through the game
//! host; `zipline.activated` follows when a cable joins two finished towers.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError, entity_id};
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use sim::colony::zipline::ConnectView;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(connect))
        .routes(routes!(disconnect))
}

/// `POST /api/zipline/connect` and `disconnect` body.
#[derive(Deserialize, ToSchema)]
pub struct CableBody {
    /// A zipline tower's building id (`ZiplineStation`, `ZiplinePylon` or `ZiplineBeam`).
    pub from: i64,
    /// The tower at the cable's other end.
    pub to: i64,
}

impl CableBody {
    /// The two towers' ids (`not_found` for an id no building can have).
    fn towers(&self) -> Result<(i32, i32), AppError> {
        Ok((
            entity_id(self.from, "zipline tower", "/api/buildings")?,
            entity_id(self.to, "zipline tower", "/api/buildings")?,
        ))
    }
}

impl BodySpec for CableBody {
    const EXAMPLE: &'static str = r#"{"from": 123456, "to": 123457}"#;
}

/// Extension (the game strings a cable from a tower's panel): joins two zipline towers, sites or
/// finished, with a cable. Beavers ride it at 2.5x walking speed once both are finished
/// (`zipline.activated` then), getting on and off at stations only. Answers `{from, to, length,
/// connected, usable}` (tiles between the towers' tops). Errors: `not_found`, `invalid_type`
/// (not a tower), `invalid_param` (the same tower twice, already joined, longer than the longest
/// cable, the line blocked by terrain or a building, a tower holding its most cables).
#[utoipa::path(post, path = "/api/zipline/connect", tag = "colony",
    request_body = CableBody,
    responses((status = 200, description = "{from, to, length, connected, usable}")))]
async fn connect(
    State(state): State<AppState>,
    Body(b): Body<CableBody>,
) -> ApiResult<ConnectView> {
    let (from, to) = b.towers()?;
    let v = state
        .host
        .write(move |w| w.zipline_connect(from, to))
        .await??;
    Ok(Json(v))
}

/// Extension: takes down the cable between two zipline towers. Answers `{from, to, length,
/// connected: false, usable: false}`. Errors: `not_found`, `invalid_type` (not a tower),
/// `invalid_param` (not joined).
#[utoipa::path(post, path = "/api/zipline/disconnect", tag = "colony",
    request_body = CableBody,
    responses((status = 200, description = "{from, to, length, connected, usable}")))]
async fn disconnect(
    State(state): State<AppState>,
    Body(b): Body<CableBody>,
) -> ApiResult<ConnectView> {
    let (from, to) = b.towers()?;
    let v = state
        .host
        .write(move |w| w.zipline_disconnect(from, to))
        .await??;
    Ok(Json(v))
}

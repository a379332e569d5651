//! `POST /api/dynamite/detonate` (extension): detonates a finished dynamite charge
//! (`sim::colony::dynamite`): its tile loses one, two or three blocks of terrain and what stood
//! there dies. A write through the game host; `explosion`, `terrain.destroyed` and any
//! `explosion.kill` follow.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, entity_id};
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use sim::colony::dynamite::Detonation;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(detonate))
}

/// `POST /api/dynamite/detonate` body.
#[derive(Deserialize, ToSchema)]
pub struct DetonateBody {
    /// The charge's building id (`GET /api/buildings`: `Dynamite`, `DoubleDynamite` or
    /// `TripleDynamite`, finished).
    pub id: i64,
}

impl BodySpec for DetonateBody {
    const EXAMPLE: &'static str = r#"{"id": 123456}"#;
}

/// Extension (the game fires dynamite from its own button or a detonator): detonates the
/// finished charge `id`. It is consumed (no refund) and its tile's terrain drops by 1
/// (`Dynamite`), 2 (`DoubleDynamite`) or 3 (`TripleDynamite`) blocks, never below 0; beavers
/// and bots on the tile die and a plant there is destroyed. Water runs into the hole from the
/// next water step. Answers `{id, prefab, x, y, from, to, killed, plant?}` (terrain heights
/// before and after, the ids killed). Errors: `not_found` (no building with the id),
/// `invalid_type` (not a charge), `operation_failed` (still a site: its Explosives have not all
/// arrived).
#[utoipa::path(post, path = "/api/dynamite/detonate", tag = "colony",
    request_body = DetonateBody,
    responses((status = 200, description = "{id, prefab, x, y, from, to, killed, plant?}")))]
async fn detonate(
    State(state): State<AppState>,
    Body(b): Body<DetonateBody>,
) -> ApiResult<Detonation> {
    let id = entity_id(b.id, "dynamite", "/api/buildings")?;
    let d = state.host.write(move |w| w.detonate(id)).await??;
    Ok(Json(d))
}

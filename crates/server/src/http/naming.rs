//! `POST /api/entity/rename` (extension): renames a beaver, a bot, a district center (and so its
//! district) or an automation device, as the game's name field does (`sim::colony::naming`).
//! A write through the game host; `entity.renamed` follows.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, entity_id};
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(rename))
}

/// `POST /api/entity/rename` body.
#[derive(Deserialize, ToSchema)]
pub struct RenameBody {
    /// A beaver's or bot's id (`GET /api/beavers`) or a building's (`GET /api/buildings`).
    pub id: i64,
    /// The new name, trimmed of surrounding spaces: 1-32 characters, letters (any script),
    /// digits, spaces and `-'._#()!?&`.
    pub name: String,
}

impl BodySpec for RenameBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "name": "Pump Crew"}"#;
}

/// Extension: renames a beaver or bot (the beaver lists show the new name), a district center
/// (its district takes the name, which no other district may have) or an automation device
/// (sensors, levers, relays, memory cells, timers, indicators, counters: `customName` in the
/// building's full view). Answers `{id, kind, name, previous}` (`kind` `character` or
/// `building`; `previous` null for a building never named) and emits `entity.renamed` with the
/// same data when the name changed. Errors: `invalid_param` (an empty name, over 32
/// characters, a character names may not hold, a district's name taken), `not_found` (no
/// beaver, bot or building with the id), `invalid_type` (a building the game gives no name).
#[utoipa::path(post, path = "/api/entity/rename", tag = "colony", request_body = RenameBody,
    responses((status = 200, description = "{id, kind, name, previous}")))]
async fn rename(State(state): State<AppState>, Body(b): Body<RenameBody>) -> ApiResult<Value> {
    let id = entity_id(
        b.id,
        "beaver, bot or building",
        "/api/beavers or /api/buildings",
    )?;
    let r = state
        .host
        .write(move |w| w.rename_entity(id, &b.name))
        .await??;
    Ok(Json(json!({
        "id": r.id, "kind": r.kind, "name": r.name, "previous": r.previous,
    })))
}

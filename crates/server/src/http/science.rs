//! Science and the building catalogue: `GET /api/prefabs`, `GET /api/science`,
//! `POST /api/science/unlock`.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::ApiResult;
use super::format::Format;
use axum::Json;
use axum::extract::State;
use axum::http::Extensions;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(prefabs))
        .routes(routes!(science))
        .routes(routes!(unlock))
}

/// A good and an amount.
#[derive(Serialize, ToSchema)]
pub struct GoodAmount {
    pub good: String,
    pub amount: f64,
}

/// A prefab (json): `scienceCost` omitted when 0, `unlocked` omitted when there is no science cost.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrefabJson {
    pub name: String,
    pub size_x: u32,
    pub size_y: u32,
    pub size_z: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub science_cost: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unlocked: Option<bool>,
    /// What placing one costs in materials. A district center you place costs materials and is
    /// built like any site (the one the game places at the start was free).
    pub cost: Vec<GoodAmount>,
}

/// A prefab as a flat toon row: every key present, `cost` as `Good:N/Good:N`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrefabRow {
    pub name: String,
    pub size_x: u32,
    pub size_y: u32,
    pub size_z: u32,
    pub science_cost: u32,
    pub unlocked: bool,
    pub cost: String,
}

/// Either shape.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Prefabs {
    Json(Vec<PrefabJson>),
    Toon(Vec<PrefabRow>),
}

/// The buildings of the game's faction (names carry the faction suffix, as placement wants them).
#[utoipa::path(get, path = "/api/prefabs", tag = "colony", responses((status = 200, body = Vec<PrefabJson>)))]
async fn prefabs(State(state): State<AppState>, ext: Extensions) -> Json<Prefabs> {
    let list = state.host.snapshot().prefabs();
    let json = Format::of(&ext).is_json();
    Json(if json {
        Prefabs::Json(
            list.into_iter()
                .map(|p| PrefabJson {
                    name: p.name,
                    size_x: p.size_x,
                    size_y: p.size_y,
                    size_z: p.size_z,
                    science_cost: (p.science_cost > 0).then_some(p.science_cost),
                    unlocked: (p.science_cost > 0).then_some(p.unlocked),
                    cost: p
                        .cost
                        .into_iter()
                        .map(|(good, amount)| GoodAmount { good, amount })
                        .collect(),
                })
                .collect(),
        )
    } else {
        Prefabs::Toon(
            list.into_iter()
                .map(|p| PrefabRow {
                    cost: super::rows::pairs_text(p.cost.iter().map(|(g, a)| (g, a))),
                    name: p.name,
                    size_x: p.size_x,
                    size_y: p.size_y,
                    size_z: p.size_z,
                    science_cost: p.science_cost,
                    unlocked: p.unlocked,
                })
                .collect(),
        )
    })
}

/// One unlockable building.
#[derive(Serialize, ToSchema)]
pub struct Unlockable {
    pub name: String,
    pub cost: u32,
    pub unlocked: bool,
}

/// `GET /api/science`.
#[derive(Serialize, ToSchema)]
pub struct ScienceResponse {
    pub points: u32,
    pub unlockables: Vec<Unlockable>,
}

/// Science points and the buildings they unlock.
#[utoipa::path(get, path = "/api/science", tag = "colony", responses((status = 200, body = ScienceResponse)))]
async fn science(State(state): State<AppState>) -> Json<ScienceResponse> {
    let w = state.host.snapshot();
    Json(ScienceResponse {
        points: w.science_points(),
        unlockables: w
            .unlockables()
            .into_iter()
            .map(|u| Unlockable {
                name: u.name,
                cost: u.cost,
                unlocked: u.unlocked,
            })
            .collect(),
    })
}

/// `POST /api/science/unlock`.
#[derive(Deserialize, ToSchema)]
pub struct UnlockBody {
    /// A prefab name from the science list, e.g. `Observatory.Folktails`.
    pub building: String,
}

impl BodySpec for UnlockBody {
    const EXAMPLE: &'static str = r#"{"building": "Observatory.Folktails"}"#;
}

/// Spends science points to unlock a building; emits `building.unlocked`.
#[utoipa::path(post, path = "/api/science/unlock", tag = "colony", request_body = UnlockBody, responses((status = 200, description = "{building, unlocked: true, remaining, note?}")))]
async fn unlock(State(state): State<AppState>, Body(body): Body<UnlockBody>) -> ApiResult<Value> {
    let name = body.building;
    let u = state.host.write(move |w| w.unlock(&name)).await??;
    let mut out =
        serde_json::json!({"building": u.building, "unlocked": true, "remaining": u.remaining});
    if u.already {
        out["note"] = "already unlocked; no points were spent".into();
    }
    Ok(Json(out))
}

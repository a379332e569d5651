//! Power routes: `GET /api/power` (the networks with their buildings) and
//! `POST /api/building/clutch`. The rules live in the simulation (`sim::power`); reads answer
//! from the published snapshot, the clutch goes through the game host.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError};
use super::format::Format;
use axum::Json;
use axum::extract::State;
use axum::http::Extensions;
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(power))
        .routes(routes!(clutch))
}

/// A building of a network.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkBuilding {
    pub name: String,
    pub id: i32,
    pub is_generator: bool,
    /// hp (catalogue figure).
    pub nominal_output: i64,
    pub nominal_input: i64,
}

/// A power network (json). `stored` and `capacity` (hp·h in its gravity batteries) are
/// extensions.
#[derive(Serialize, ToSchema)]
pub struct NetworkJson {
    /// The network's identity: its smallest building id.
    pub id: i32,
    /// hp its generators give.
    pub supply: f64,
    /// hp its working consumers ask.
    pub demand: f64,
    pub stored: f64,
    pub capacity: f64,
    pub buildings: Vec<NetworkBuilding>,
}

/// A power network as a flat toon row: `buildings` as `Name:id/Name:id`.
#[derive(Serialize)]
pub struct NetworkRow {
    pub id: i32,
    pub supply: f64,
    pub demand: f64,
    pub stored: f64,
    pub capacity: f64,
    pub buildings: String,
}

/// Either shape.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Networks {
    Json(Vec<NetworkJson>),
    Toon(Vec<NetworkRow>),
}

/// The power networks: each with its supply, demand and buildings. A power building with no
/// power chain is a network of its own with supply 0.
#[utoipa::path(get, path = "/api/power", tag = "colony", responses((status = 200, body = Vec<NetworkJson>)))]
async fn power(State(state): State<AppState>, ext: Extensions) -> Json<Networks> {
    let nets = state.host.snapshot().power_networks();
    let json = ext.get::<Format>().copied().unwrap_or_default() == Format::Json;
    Json(if json {
        Networks::Json(
            nets.into_iter()
                .map(|n| NetworkJson {
                    id: n.id,
                    supply: n.supply,
                    demand: n.demand,
                    stored: n.stored,
                    capacity: n.capacity,
                    buildings: n
                        .buildings
                        .into_iter()
                        .map(|b| NetworkBuilding {
                            name: b.name,
                            id: b.id,
                            is_generator: b.is_generator,
                            nominal_output: b.nominal_output,
                            nominal_input: b.nominal_input,
                        })
                        .collect(),
                })
                .collect(),
        )
    } else {
        Networks::Toon(
            nets.into_iter()
                .map(|n| NetworkRow {
                    id: n.id,
                    supply: n.supply,
                    demand: n.demand,
                    stored: n.stored,
                    capacity: n.capacity,
                    buildings: n
                        .buildings
                        .iter()
                        .map(|b| format!("{}:{}", b.name, b.id))
                        .collect::<Vec<_>>()
                        .join("/"),
                })
                .collect(),
        )
    })
}

/// `POST /api/building/clutch`.
#[derive(Deserialize, ToSchema)]
pub struct ClutchBody {
    /// A clutch's building id.
    pub id: i64,
    /// true joins the networks on both sides, false cuts them apart.
    pub engaged: bool,
}

impl BodySpec for ClutchBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "engaged": false}"#;
}

/// `{id, name, engaged}`.
#[derive(Serialize, ToSchema)]
pub struct ClutchResponse {
    pub id: i32,
    pub name: String,
    pub engaged: bool,
}

/// Engages or disengages a clutch: disengaged, it cuts its power network in two. Not a clutch:
/// `invalid_type`; unknown id: `not_found`.
#[utoipa::path(post, path = "/api/building/clutch", tag = "colony", request_body = ClutchBody, responses((status = 200, body = ClutchResponse)))]
async fn clutch(
    State(state): State<AppState>,
    Body(body): Body<ClutchBody>,
) -> ApiResult<ClutchResponse> {
    let id = body.id;
    let id = i32::try_from(id).map_err(|_| {
        AppError(
            ApiError::new(
                ErrorCode::NotFound,
                format!("no building with id {id}; ids are 32-bit, GET /api/buildings lists them"),
            )
            .with("id", id),
        )
    })?;
    let engaged = body.engaged;
    let c = state
        .host
        .write(move |w| w.set_clutch(id, engaged))
        .await??;
    Ok(Json(ClutchResponse {
        id: c.id,
        name: c.name,
        engaged: c.engaged,
    }))
}

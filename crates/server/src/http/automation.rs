//! Automation routes: `POST /api/automation/link`, `/unlink` and `/configure`. The rules (input
//! letters, modes, transmitters, what automated buildings do) live in the simulation
//! (`sim::automation`); these handlers only read bodies and go through the game host.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError};
use axum::Json;
use axum::extract::State;
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(link))
        .routes(routes!(unlink))
        .routes(routes!(configure))
}

/// A building id as the simulation keeps it (32-bit); anything else names no building.
fn building_id(id: i64) -> Result<i32, AppError> {
    i32::try_from(id).map_err(|_| {
        AppError(
            ApiError::new(
                ErrorCode::NotFound,
                format!("no building with id {id}; ids are 32-bit, GET /api/buildings lists them"),
            )
            .with("id", id),
        )
    })
}

/// `POST /api/automation/link`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkBody {
    /// A transmitter: sensor, counter, power meter, chronometer, lever, relay or memory cell.
    pub source_id: i64,
    /// A relay, a memory cell, or an automatable building (floodgate, clutch, indicator,
    /// detonator, pausable building).
    pub target_id: i64,
    /// Relays `a`-`h`, memory cells `a`, `b`, `reset`; single-input targets always use `a`.
    #[serde(default)]
    pub input: Option<String>,
}

impl BodySpec for LinkBody {
    const EXAMPLE: &'static str = r#"{"sourceId": 123, "targetId": 456, "input": "a"}"#;
}

/// `{id, name, input, sourceId, sourceName, connected}`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkResponse {
    pub id: i32,
    pub name: String,
    pub input: String,
    /// The source linked, or (unlink) the one removed; 0 when the input was empty.
    pub source_id: i32,
    pub source_name: String,
    pub connected: bool,
}

impl From<sim::LinkView> for LinkResponse {
    fn from(l: sim::LinkView) -> Self {
        LinkResponse {
            id: l.id,
            name: l.name,
            input: l.input,
            source_id: l.source_id,
            source_name: l.source_name,
            connected: l.connected,
        }
    }
}

/// Links a transmitter to an input. Past a relay's last input adds it (skipped letters stay
/// empty); b-h need a relay in And, Or or Xor mode, b a memory cell in Latch or FlipFlop mode.
#[utoipa::path(post, path = "/api/automation/link", tag = "automation", request_body = LinkBody, responses((status = 200, body = LinkResponse)))]
async fn link(
    State(state): State<AppState>,
    Body(body): Body<LinkBody>,
) -> ApiResult<LinkResponse> {
    let (source, target) = (building_id(body.source_id)?, building_id(body.target_id)?);
    let input = body.input;
    let l = state
        .host
        .write(move |w| w.automation_link(source, target, input.as_deref()))
        .await??;
    Ok(Json(l.into()))
}

/// `POST /api/automation/unlink`.
#[derive(Deserialize, ToSchema)]
pub struct UnlinkBody {
    pub id: i64,
    /// Default `a`.
    #[serde(default)]
    pub input: Option<String>,
}

impl BodySpec for UnlinkBody {
    const EXAMPLE: &'static str = r#"{"id": 456, "input": "b"}"#;
}

/// Empties an input; never removes it (later letters keep theirs). An empty input answers
/// `connected: false` with `sourceId` 0.
#[utoipa::path(post, path = "/api/automation/unlink", tag = "automation", request_body = UnlinkBody, responses((status = 200, body = LinkResponse)))]
async fn unlink(
    State(state): State<AppState>,
    Body(body): Body<UnlinkBody>,
) -> ApiResult<LinkResponse> {
    let id = building_id(body.id)?;
    let input = body.input;
    let l = state
        .host
        .write(move |w| w.automation_unlink(id, input.as_deref()))
        .await??;
    Ok(Json(l.into()))
}

/// `POST /api/automation/configure`.
#[derive(Deserialize, ToSchema)]
pub struct ConfigureBody {
    pub id: i64,
    /// A property of the device (see the README's configure table).
    pub property: String,
    /// The value as text (`"0.5"`, `"Greater"`, `"true"`); numbers and booleans are taken too.
    #[schema(value_type = String)]
    pub value: Value,
}

impl BodySpec for ConfigureBody {
    const EXAMPLE: &'static str = r#"{"id": 123, "property": "threshold", "value": "0.5"}"#;
}

/// `{id, property, value, name, automationType}`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigureResponse {
    pub id: i32,
    pub property: String,
    /// The value as stored (normalized: canonical names, plain numbers).
    pub value: String,
    pub name: String,
    pub automation_type: String,
}

/// Sets one property of a sensor, counter, power meter, chronometer, lever, relay or memory cell.
#[utoipa::path(post, path = "/api/automation/configure", tag = "automation", request_body = ConfigureBody, responses((status = 200, body = ConfigureResponse)))]
async fn configure(
    State(state): State<AppState>,
    Body(body): Body<ConfigureBody>,
) -> ApiResult<ConfigureResponse> {
    let id = building_id(body.id)?;
    let value = match body.value {
        Value::String(s) => s,
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => {
            return Err(AppError(
                ApiError::new(
                    ErrorCode::InvalidParam,
                    format!(
                        "value must be a string (or a number or boolean); got {other}; e.g. {}",
                        ConfigureBody::EXAMPLE
                    ),
                )
                .with("got", other),
            ));
        }
    };
    let property = body.property;
    let c = state
        .host
        .write(move |w| w.automation_configure(id, &property, &value))
        .await??;
    Ok(Json(ConfigureResponse {
        id: c.id,
        property: c.property,
        value: c.value,
        name: c.name,
        automation_type: c.automation_type,
    }))
}

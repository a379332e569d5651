//! Game-state routes: ping, time, weather, speed, work hours, settlement (the summary is in
//! `summary`).

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, invalid_param};
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ping))
        .routes(routes!(get_time))
        .routes(routes!(get_weather))
        .routes(routes!(get_speed, set_speed))
        .routes(routes!(get_workhours, set_workhours))
        .routes(routes!(get_settlement))
}

/// `GET /api/ping`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ping {
    /// Always `ok`.
    pub status: &'static str,
    /// Always true: liveness, not the gate.
    pub ready: bool,
    pub openapi_version: &'static str,
}

/// Liveness. Never gated, never needs a token, answers while a game loads. If the game-host
/// thread has stopped (it should never), `status` is `"host_stopped"`, `ready` false, and the
/// HTTP status 503: the service cannot apply writes until it is restarted.
#[utoipa::path(get, path = "/api/ping", tag = "game", responses((status = 200, body = Ping), (status = 503, body = Ping)))]
async fn ping(State(state): State<AppState>) -> (axum::http::StatusCode, Json<Ping>) {
    let alive = state.host.alive();
    (
        if alive {
            axum::http::StatusCode::OK
        } else {
            axum::http::StatusCode::SERVICE_UNAVAILABLE
        },
        Json(Ping {
            status: if alive { "ok" } else { "host_stopped" },
            ready: alive,
            openapi_version: protocol::CONTRACT_VERSION,
        }),
    )
}

/// The Time object.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimeResponse {
    /// Current day, from 1.
    pub day_number: u32,
    /// 0.0-1.0 through the day.
    pub day_progress: f64,
    /// Day plus fraction.
    pub partial_day_number: f64,
    /// Hour of the day, 0.0-24.0 (extension).
    pub hour: f64,
    /// Ticks since the game began (extension).
    pub ticks: u64,
}

/// The game clock.
#[utoipa::path(get, path = "/api/time", tag = "game", responses((status = 200, body = TimeResponse)))]
async fn get_time(State(state): State<AppState>) -> Json<TimeResponse> {
    Json(TimeResponse::of(&state.host.snapshot()))
}

impl TimeResponse {
    /// The clock of a world.
    pub fn of(world: &sim::World) -> TimeResponse {
        let t = world.time();
        TimeResponse {
            day_number: t.day_number,
            day_progress: t.day_progress,
            partial_day_number: t.partial_day_number,
            hour: t.hour,
            ticks: world.ticks(),
        }
    }
}

/// The Weather object.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WeatherResponse {
    pub cycle: u32,
    pub cycle_day: u32,
    /// Drought or badtide active.
    pub is_hazardous: bool,
    pub temperate_weather_duration: u32,
    pub hazardous_weather_duration: u32,
    pub cycle_length_in_days: u32,
    /// This cycle's hazard: `drought` or `badtide` (extension).
    pub hazard: String,
    /// Game hours until this cycle's hazard begins; null while it is under way (extension).
    pub hours_until_hazard: Option<f64>,
}

/// The weather cycle.
#[utoipa::path(get, path = "/api/weather", tag = "game", responses((status = 200, body = WeatherResponse)))]
async fn get_weather(State(state): State<AppState>) -> Json<WeatherResponse> {
    Json(state.host.snapshot().weather().into())
}

impl From<sim::WeatherView> for WeatherResponse {
    fn from(w: sim::WeatherView) -> Self {
        WeatherResponse {
            cycle: w.cycle,
            cycle_day: w.cycle_day,
            is_hazardous: w.is_hazardous,
            temperate_weather_duration: w.temperate_weather_duration,
            hazardous_weather_duration: w.hazardous_weather_duration,
            cycle_length_in_days: w.cycle_length_in_days,
            hazard: w.hazard.map(|h| h.to_string()).unwrap_or_default(),
            hours_until_hazard: w.hours_until_hazard,
        }
    }
}

/// `{speed}`.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct SpeedBody {
    /// 0 pause, 1 normal, 2 fast, 3 fastest.
    pub speed: i64,
}

impl BodySpec for SpeedBody {
    const EXAMPLE: &'static str = r#"{"speed": 1}"#;
}

/// The speed level. Answers while a game loads.
#[utoipa::path(get, path = "/api/speed", tag = "game", responses((status = 200, body = SpeedBody)))]
async fn get_speed(State(state): State<AppState>) -> Json<SpeedBody> {
    Json(SpeedBody {
        speed: state.host.speed() as i64,
    })
}

/// Sets the speed level; emits `speed.changed`.
#[utoipa::path(post, path = "/api/speed", tag = "game", request_body = SpeedBody, responses((status = 200, body = SpeedBody)))]
async fn set_speed(
    State(state): State<AppState>,
    Body(body): Body<SpeedBody>,
) -> ApiResult<SpeedBody> {
    let speed = match u8::try_from(body.speed) {
        Ok(s @ 0..=3) => s,
        _ => {
            return Err(invalid_param(
                format!(
                    "speed must be an integer 0-3 (0 pause, 1 normal, 2 fast, 3 fastest); got {}",
                    body.speed
                ),
                body.speed,
            ));
        }
    };
    state.host.write(move |w| w.set_speed(speed)).await??;
    Ok(Json(SpeedBody {
        speed: speed as i64,
    }))
}

/// `GET /api/workhours`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkHours {
    /// Hour at which work ends.
    pub end_hours: f64,
    pub are_working_hours: bool,
}

/// Working hours.
#[utoipa::path(get, path = "/api/workhours", tag = "game", responses((status = 200, body = WorkHours)))]
async fn get_workhours(State(state): State<AppState>) -> Json<WorkHours> {
    let w = state.host.snapshot();
    Json(WorkHours {
        end_hours: w.end_hours() as f64,
        are_working_hours: w.are_working_hours(),
    })
}

/// `{endHours}`.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndHoursBody {
    /// 1-24.
    pub end_hours: i64,
}

impl BodySpec for EndHoursBody {
    const EXAMPLE: &'static str = r#"{"endHours": 16}"#;
}

/// Sets the hour work ends; emits `workhours.changed`.
#[utoipa::path(post, path = "/api/workhours", tag = "game", request_body = EndHoursBody, responses((status = 200, body = EndHoursBody)))]
async fn set_workhours(
    State(state): State<AppState>,
    Body(body): Body<EndHoursBody>,
) -> ApiResult<EndHoursBody> {
    let hours = match u8::try_from(body.end_hours) {
        Ok(h @ 1..=24) => h,
        _ => {
            return Err(invalid_param(
                format!("endHours must be an integer 1-24; got {}", body.end_hours),
                body.end_hours,
            ));
        }
    };
    state.host.write(move |w| w.set_end_hours(hours)).await??;
    Ok(Json(EndHoursBody {
        end_hours: hours as i64,
    }))
}

/// `{name}`.
#[derive(Serialize, ToSchema)]
pub struct Settlement {
    pub name: String,
}

/// The settlement's name. Answers while a game loads.
#[utoipa::path(get, path = "/api/settlement", tag = "game", responses((status = 200, body = Settlement)))]
async fn get_settlement(State(state): State<AppState>) -> Json<Settlement> {
    Json(Settlement {
        name: state.host.settlement(),
    })
}

//! Game lifecycle routes (extension, decisions.md): new game, save, load, list saves, advance.
//! New games and loads are built off the game thread and swapped in by one write; both reset the
//! ready gate and the memory-only agent fields.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError, invalid_param};
use crate::saves::{self, SaveInfo};
use axum::Json;
use axum::extract::State;
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sim::MAX_ADVANCE_DAYS;
use std::time::Instant;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(new_game))
        .routes(routes!(save_game))
        .routes(routes!(load_game))
        .routes(routes!(list_saves))
        .routes(routes!(advance))
        .routes(routes!(state_hash))
}

/// `POST /api/game/new`; every member optional.
#[derive(Deserialize, ToSchema, Default)]
pub struct NewGameBody {
    /// Seed of the map and the game's randomness (default: random).
    pub seed: Option<u64>,
    /// `Folktails` (default) or `IronTeeth`.
    pub faction: Option<String>,
    /// Map size: an integer for a square map or `"WIDTHxHEIGHT"` (default 128).
    #[schema(value_type = Option<String>)]
    pub map: Option<Value>,
    /// Settlement name.
    pub settlement: Option<String>,
    /// Game mode: `Easy`, `Normal` (default) or `Hard`.
    pub mode: Option<String>,
    /// Extension: what the game starts with beyond the mode's defaults (scenarios):
    /// `{"goods": {"Log": 50}, "science": 300, "unlocked": ["GearWorkshop.Folktails"]}`.
    pub setup: Option<SetupBody>,
}

/// The `setup` member of `POST /api/game/new`.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct SetupBody {
    /// Goods added to the district center, good -> units.
    #[serde(default)]
    pub goods: std::collections::BTreeMap<String, u32>,
    /// Science points to start with.
    #[serde(default)]
    pub science: u32,
    /// Buildings unlocked without spending science (names with the faction suffix).
    #[serde(default)]
    pub unlocked: Vec<String>,
}

impl BodySpec for NewGameBody {
    const EXAMPLE: &'static str =
        r#"{"seed": 42, "faction": "IronTeeth", "map": "128x128", "settlement": "Dam Town"}"#;
}

/// Reads a map size: `128`, `"128"` or `"128x96"`.
pub fn parse_map_size(v: &Value) -> Result<(u32, u32), ApiError> {
    let bad = || {
        ApiError::new(
            ErrorCode::InvalidParam,
            format!("map must be a size such as 128 or \"128x96\"; got {v}"),
        )
        .with("got", v.clone())
    };
    match v {
        Value::Number(n) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(|n| (n, n))
            .ok_or_else(bad),
        Value::String(s) => {
            let s = s.trim().to_ascii_lowercase();
            match s.split_once('x') {
                Some((w, h)) => Ok((
                    w.trim().parse().map_err(|_| bad())?,
                    h.trim().parse().map_err(|_| bad())?,
                )),
                None => s.parse().map(|n| (n, n)).map_err(|_| bad()),
            }
        }
        _ => Err(bad()),
    }
}

/// Turns the request into the simulation's new-game settings.
pub fn new_game_config(body: NewGameBody) -> Result<sim::NewGame, ApiError> {
    let mut cfg = sim::NewGame {
        seed: body.seed.unwrap_or_else(random_seed),
        ..Default::default()
    };
    if let Some(s) = body.setup {
        cfg.setup = sim::Setup {
            goods: s.goods,
            science: s.science,
            unlocked: s.unlocked,
        };
    }
    if let Some(f) = body.faction {
        cfg.faction = f.parse().map_err(|_| {
            ApiError::new(
                ErrorCode::InvalidParam,
                format!("faction must be Folktails or IronTeeth; got {f:?}"),
            )
            .with("got", f.clone())
        })?;
    }
    if let Some(m) = body.mode {
        cfg.mode = match m.to_ascii_lowercase().as_str() {
            "easy" => sim::GameMode::Easy,
            "normal" => sim::GameMode::Normal,
            "hard" => sim::GameMode::Hard,
            _ => {
                return Err(ApiError::new(
                    ErrorCode::InvalidParam,
                    format!("mode must be Easy, Normal or Hard; got {m:?}"),
                )
                .with("got", m));
            }
        };
    }
    if let Some(v) = body.map {
        (cfg.map_width, cfg.map_height) = parse_map_size(&v)?;
    }
    if let Some(s) = body.settlement {
        let s = s.trim().to_string();
        if s.is_empty() || s.len() > 80 {
            return Err(ApiError::new(
                ErrorCode::InvalidParam,
                "settlement must be 1-80 characters",
            )
            .with("got", s));
        }
        cfg.settlement = s;
    }
    Ok(cfg)
}

/// A seed from the OS.
pub fn random_seed() -> u64 {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).expect("the OS random source is available");
    u64::from_le_bytes(buf) >> 1
}

/// Answer of new and load.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    pub settlement: String,
    pub faction: String,
    pub seed: u64,
    pub mode: String,
    pub map_size: MapSize,
    pub day: u32,
    /// The agent-state epoch after the reset.
    pub epoch: String,
    /// Save name (load only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Map dimensions.
#[derive(Serialize, ToSchema)]
pub struct MapSize {
    pub x: u32,
    pub y: u32,
}

fn game_info(state: &AppState, name: Option<String>) -> GameInfo {
    let w = state.host.snapshot();
    GameInfo {
        settlement: w.settlement().to_string(),
        faction: w.faction().to_string(),
        seed: w.seed(),
        mode: format!("{:?}", w.mode()),
        map_size: MapSize {
            x: w.map().width(),
            y: w.map().height(),
        },
        day: w.time().day_number,
        epoch: state.agent.state().epoch,
        name,
    }
}

/// Swaps a prepared world in and resets the agent fields a load resets.
async fn swap_in(state: &AppState, world: sim::World) -> Result<(), AppError> {
    state.host.write(move |w| *w = world).await?;
    state.agent.reset_for_load();
    Ok(())
}

pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, AppError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| {
            AppError(ApiError::new(
                ErrorCode::InternalError,
                format!("background task failed: {e}"),
            ))
        })?
        .map_err(AppError)
}

/// Starts a new game; closes the ready gate; emits `game.new`.
#[utoipa::path(post, path = "/api/game/new", tag = "lifecycle", request_body = NewGameBody, responses((status = 200, body = GameInfo)))]
async fn new_game(
    State(state): State<AppState>,
    Body(body): Body<NewGameBody>,
) -> ApiResult<GameInfo> {
    let cfg = new_game_config(body)?;
    let _loading = state.host.loading_guard();
    let world =
        blocking(move || sim::World::try_new(&cfg).map_err(crate::host::command_error)).await?;
    swap_in(&state, world).await?;
    Ok(Json(game_info(&state, None)))
}

/// `POST /api/game/save`.
#[derive(Deserialize, ToSchema, Default)]
pub struct SaveBody {
    /// Save name (default `quicksave`).
    pub name: Option<String>,
}

impl BodySpec for SaveBody {
    const EXAMPLE: &'static str = r#"{"name": "before-drought"}"#;
}

/// Answer of save.
#[derive(Serialize, ToSchema)]
pub struct SaveResult {
    pub name: String,
    pub bytes: u64,
    pub day: u32,
}

/// Saves the whole world (atomic write).
#[utoipa::path(post, path = "/api/game/save", tag = "lifecycle", request_body = SaveBody, responses((status = 200, body = SaveResult)))]
async fn save_game(
    State(state): State<AppState>,
    Body(body): Body<SaveBody>,
) -> ApiResult<SaveResult> {
    let name = body.name.unwrap_or_else(|| "quicksave".into());
    saves::validate_name(&name)?;
    let (bytes, day) = state
        .host
        .write(|w| (w.save_to_bytes(), w.time().day_number))
        .await?;
    let path = saves::path_of(&state.saves_dir, &name);
    let len = bytes.len() as u64;
    blocking(move || {
        crate::fsutil::write_atomic(&path, &bytes).map_err(|e| {
            ApiError::new(
                ErrorCode::OperationFailed,
                format!("cannot write {}: {e}", path.display()),
            )
        })
    })
    .await?;
    Ok(Json(SaveResult {
        name,
        bytes: len,
        day,
    }))
}

/// `POST /api/game/load`.
#[derive(Deserialize, ToSchema)]
pub struct LoadBody {
    /// A save name from `GET /api/game/saves`.
    pub name: String,
}

impl BodySpec for LoadBody {
    const EXAMPLE: &'static str = r#"{"name": "quicksave"}"#;
}

/// Loads a save; closes the ready gate, clears the pending slot and changes the epoch.
#[utoipa::path(post, path = "/api/game/load", tag = "lifecycle", request_body = LoadBody, responses((status = 200, body = GameInfo)))]
async fn load_game(
    State(state): State<AppState>,
    Body(body): Body<LoadBody>,
) -> ApiResult<GameInfo> {
    saves::validate_name(&body.name)?;
    let _loading = state.host.loading_guard();
    let dir = state.saves_dir.clone();
    let name = body.name.clone();
    let world = blocking(move || saves::read_named(&dir, &name)).await?;
    swap_in(&state, world).await?;
    Ok(Json(game_info(&state, Some(body.name))))
}

/// The saves, newest first.
#[utoipa::path(get, path = "/api/game/saves", tag = "lifecycle", responses((status = 200, body = Vec<SaveInfo>)))]
async fn list_saves(State(state): State<AppState>) -> Json<Vec<SaveInfo>> {
    Json(saves::list(&state.saves_dir))
}

/// `POST /api/game/advance`: exactly one of hours or days.
#[derive(Deserialize, ToSchema)]
pub struct AdvanceBody {
    pub hours: Option<f64>,
    pub days: Option<f64>,
}

impl BodySpec for AdvanceBody {
    const EXAMPLE: &'static str = r#"{"days": 10}"#;
}

/// Answer of advance.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdvanceResult {
    pub day: u32,
    pub day_progress: f64,
    /// Ticks advanced by this call.
    pub ticks: u64,
    /// Ticks since the game began.
    pub total_ticks: u64,
    /// Wall-clock milliseconds the simulation took.
    pub wall_ms: f64,
}

/// Runs the simulation as fast as the machine allows; the speed setting is unchanged.
#[utoipa::path(post, path = "/api/game/advance", tag = "lifecycle", request_body = AdvanceBody, responses((status = 200, body = AdvanceResult)))]
async fn advance(
    State(state): State<AppState>,
    Body(body): Body<AdvanceBody>,
) -> ApiResult<AdvanceResult> {
    let days = match (body.hours, body.days) {
        (Some(h), None) => h / 24.0,
        (None, Some(d)) => d,
        (h, d) => {
            return Err(invalid_param(
                "send exactly one of hours or days, e.g. {\"days\": 10}",
                serde_json::json!({"hours": h, "days": d}),
            ));
        }
    };
    if !(days > 0.0 && days <= MAX_ADVANCE_DAYS) {
        let got = body.hours.or(body.days).unwrap_or_default();
        return Err(invalid_param(
            format!("advance must be more than 0 and at most {MAX_ADVANCE_DAYS} days; got {got}"),
            got,
        ));
    }
    let ticks = sim::ticks_for_days(days);
    let result = state
        .host
        .write(move |w| {
            let start = Instant::now();
            w.advance_ticks(ticks);
            let t = w.time();
            AdvanceResult {
                day: t.day_number,
                day_progress: t.day_progress,
                ticks,
                total_ticks: w.ticks(),
                wall_ms: start.elapsed().as_secs_f64() * 1000.0,
            }
        })
        .await?;
    Ok(Json(result))
}

/// Answer of `GET /api/game/hash`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateHash {
    /// The game's state hash: 16 hex digits of FNV-1a 64 over the save without its history.
    pub state_hash: String,
    /// Ticks since the game began.
    pub ticks: u64,
}

/// Extension: a hash of the whole game state (the save's bytes without the history, which only
/// records what the rest determines). Equal games hash equal, across runs and save/load: the same
/// seed and the same writes give the same hash, which is how `colony replay --check` verifies a
/// recorded episode turn by turn.
#[utoipa::path(get, path = "/api/game/hash", tag = "lifecycle", responses((status = 200, body = StateHash)))]
async fn state_hash(State(state): State<AppState>) -> ApiResult<StateHash> {
    let world = state.host.snapshot();
    let (hash, ticks) = blocking(move || Ok((world.state_hash(), world.ticks()))).await?;
    Ok(Json(StateHash {
        state_hash: format!("{hash:016x}"),
        ticks,
    }))
}

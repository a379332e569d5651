//! Replay mode's routes (extensions; `crate::replay`): `GET /api/replay` (the episode, the turns
//! with their day, hours, state hash and the agent's requests, and the turn shown) and
//! `POST /api/replay/turn {"turn": N}` (loads that turn's save). Without `--replay` both answer
//! `disabled`.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError};
use super::lifecycle::blocking;
use axum::Json;
use axum::extract::State;
use protocol::error::{ApiError, ErrorCode};
use protocol::replay::ReplayTurn;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_replay))
        .routes(routes!(set_turn))
}

/// Answer of `GET /api/replay`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplayView {
    /// The episode's id.
    pub episode: String,
    pub scenario: String,
    pub seed: u64,
    /// The agent's turns replayed (the last turn's number).
    pub turn_count: u32,
    /// The turn the game holds now (0: the start, after the scenario's setup).
    pub turn: u32,
    /// Turn 0, then every turn: the game's day and hour after it, the hours advanced, the state
    /// hash, and the requests the agent made during the turn.
    pub turns: Vec<ReplayTurn>,
}

/// `POST /api/replay/turn`.
#[derive(Deserialize, ToSchema)]
pub struct TurnBody {
    /// The turn to show, 0 (the start) to `turnCount`.
    pub turn: i64,
}

impl BodySpec for TurnBody {
    const EXAMPLE: &'static str = r#"{"turn": 3}"#;
}

/// Answer of `POST /api/replay/turn`: the game now loaded.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TurnLoaded {
    pub turn: u32,
    /// The game's day and hour.
    pub day: u32,
    pub hour: f64,
    /// `GET /api/game/hash` of the loaded game (the recording's hash of the turn).
    pub state_hash: String,
}

fn replay_of(state: &AppState) -> Result<Arc<crate::replay::Replay>, AppError> {
    state.replay.clone().ok_or_else(|| {
        AppError(ApiError::new(
            ErrorCode::Disabled,
            "this colonyd plays a game, not a replay; `colony replay OUT/episodes/ID` serves an episode (colonyd --replay DIR)",
        ))
    })
}

/// Extension: the replay this colonyd serves (`colonyd --replay DIR`, started by `colony replay
/// OUT/episodes/ID`): the episode, its turns (turn 0 is the start; each other turn's save is the
/// game after the agent's requests of that turn and the harness's advance) and the turn shown.
/// `disabled` when colonyd plays a game.
#[utoipa::path(get, path = "/api/replay", tag = "lifecycle", responses((status = 200, body = ReplayView)))]
async fn get_replay(State(state): State<AppState>) -> ApiResult<ReplayView> {
    let r = replay_of(&state)?;
    let index = r.index();
    Ok(Json(ReplayView {
        episode: index.episode.clone(),
        scenario: index.scenario.clone(),
        seed: index.seed,
        turn_count: r.range().1,
        turn: r.current(),
        turns: index.turns.clone(),
    }))
}

/// Extension, replay mode only: loads the save of a turn (the one write a replay takes; the game
/// stays paused). A turn outside the replay is `invalid_param` with the valid range.
#[utoipa::path(post, path = "/api/replay/turn", tag = "lifecycle", request_body = TurnBody, responses((status = 200, body = TurnLoaded)))]
async fn set_turn(
    State(state): State<AppState>,
    Body(body): Body<TurnBody>,
) -> ApiResult<TurnLoaded> {
    let r = replay_of(&state)?;
    let turn = u32::try_from(body.turn).map_err(|_| {
        let (first, last) = r.range();
        AppError(
            ApiError::new(
                ErrorCode::InvalidParam,
                format!(
                    "turn must be {first}-{last} (the turns of this replay); got {}",
                    body.turn
                ),
            )
            .with("got", body.turn),
        )
    })?;
    let _one_at_a_time = r.loading.lock().await;
    let _loading = state.host.loading_guard();
    let reader = r.clone();
    let (world, day, hour, hash) = blocking(move || {
        let world = reader.read(turn)?;
        let t = world.time();
        let (day, hour) = (t.day_number, t.hour);
        let hash = format!("{:016x}", world.state_hash());
        Ok((world, day, hour, hash))
    })
    .await?;
    state.host.write(move |w| *w = world).await?;
    r.set_current(turn);
    Ok(Json(TurnLoaded {
        turn,
        day,
        hour,
        state_hash: hash,
    }))
}

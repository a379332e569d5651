//! Agent routes (`/api/agent/*`, `/api/ready`): all of them pass a closed gate.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError};
use crate::agent::LogLine;
use axum::Json;
use axum::extract::State;
use protocol::agent::{AgentMode, AgentState, PendingRequest};
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_state))
        .routes(routes!(config))
        .routes(routes!(request))
        .routes(routes!(message))
        .routes(routes!(get_log))
        .routes(routes!(ready))
}

/// The agent state.
#[utoipa::path(get, path = "/api/agent/state", tag = "agent", responses((status = 200, body = AgentState)))]
async fn get_state(State(state): State<AppState>) -> Json<AgentState> {
    Json(state.agent.state())
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// `POST /api/agent/config`; omitted fields are left unchanged.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigBody {
    /// `request` or `autonomous`.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub mode: Option<Value>,
    pub goal: Option<String>,
    /// Only `null` is accepted: it dismisses the last error.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub last_error: Option<Value>,
}

impl BodySpec for ConfigBody {
    const EXAMPLE: &'static str = r#"{"mode": "autonomous", "goal": "grow to 50 beavers"}"#;
}

/// Changes mode, goal or dismisses lastError; persisted; broadcasts a state frame.
#[utoipa::path(post, path = "/api/agent/config", tag = "agent", request_body = ConfigBody, responses((status = 200, body = AgentState)))]
async fn config(
    State(state): State<AppState>,
    Body(body): Body<ConfigBody>,
) -> ApiResult<AgentState> {
    let mode = match &body.mode {
        None => None,
        Some(v) => match v.as_str().and_then(AgentMode::parse) {
            Some(m) => Some(m),
            None => {
                return Err(AppError(
                    ApiError::new(
                        ErrorCode::InvalidMode,
                        format!("mode must be \"request\" or \"autonomous\"; got {v}"),
                    )
                    .with("got", v.clone()),
                ));
            }
        },
    };
    let last_error = match &body.last_error {
        None => None,
        Some(Value::Null) => Some(None),
        Some(v) => {
            return Err(super::error::invalid_param(
                format!(
                    "lastError can only be dismissed with null; got {v} (the connector reports errors in its heartbeat)"
                ),
                v.clone(),
            ));
        }
    };
    if let Some(goal) = &body.goal {
        check_len(
            "goal",
            goal,
            crate::agent::MAX_GOAL_BYTES,
            ErrorCode::InvalidParam,
        )?;
    }
    Ok(Json(
        state.agent.configure(mode, body.goal, last_error).await?,
    ))
}

/// `POST /api/agent/request`.
#[derive(Deserialize, ToSchema)]
pub struct RequestBody {
    /// Non-empty prompt text.
    pub prompt: String,
    /// Replace a waiting prompt instead of being refused (extension).
    #[serde(default)]
    pub replace: bool,
}

impl BodySpec for RequestBody {
    const CODE: ErrorCode = ErrorCode::InvalidPrompt;
    const EXAMPLE: &'static str = r#"{"prompt": "build a water pump"}"#;
}

/// Answer of `POST /api/agent/request`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestResponse {
    pub pending_request: PendingRequest,
    /// The prompt this one replaced (only with `replace: true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<PendingRequest>,
}

/// Fills the pending slot; refused with `request_pending` while it is full.
#[utoipa::path(post, path = "/api/agent/request", tag = "agent", request_body = RequestBody, responses((status = 200, body = RequestResponse)))]
async fn request(
    State(state): State<AppState>,
    Body(body): Body<RequestBody>,
) -> ApiResult<RequestResponse> {
    if body.prompt.trim().is_empty() {
        return Err(AppError(
            ApiError::new(
                ErrorCode::InvalidPrompt,
                "prompt must be a non-empty string; send {\"prompt\": \"...\"}",
            )
            .with("got", body.prompt),
        ));
    }
    check_len(
        "prompt",
        &body.prompt,
        crate::agent::MAX_PROMPT_BYTES,
        ErrorCode::InvalidPrompt,
    )?;
    let (pending_request, replaced) = state.agent.request(body.prompt, body.replace)?;
    Ok(Json(RequestResponse {
        pending_request,
        replaced,
    }))
}

/// `POST /api/agent/message`.
#[derive(Deserialize, ToSchema)]
pub struct MessageBody {
    /// The line to append to the action log.
    pub message: String,
}

impl BodySpec for MessageBody {
    const EXAMPLE: &'static str = r#"{"message": "placed a lumberjack"}"#;
}

/// Appends a line to the action log shown on the dashboard (extension).
#[utoipa::path(post, path = "/api/agent/message", tag = "agent", request_body = MessageBody, responses((status = 200, body = LogLine)))]
async fn message(
    State(state): State<AppState>,
    Body(body): Body<MessageBody>,
) -> ApiResult<LogLine> {
    if !state.settings.get().action_logging_enabled {
        return Err(AppError(ApiError::new(
            ErrorCode::Disabled,
            "the action log is off; set actionLoggingEnabled to true to use it",
        )));
    }
    if body.message.trim().is_empty() {
        return Err(super::error::invalid_param(
            "message must be a non-empty string",
            body.message,
        ));
    }
    check_len(
        "message",
        &body.message,
        crate::agent::MAX_LOG_LINE_BYTES,
        ErrorCode::InvalidParam,
    )?;
    Ok(Json(state.agent.log_message(body.message)))
}

/// Refuses a text over its size cap, saying the cap and the size sent.
fn check_len(what: &str, text: &str, max: usize, code: ErrorCode) -> Result<(), AppError> {
    if text.len() <= max {
        return Ok(());
    }
    Err(AppError(
        ApiError::new(
            code,
            format!(
                "{what} is {} bytes; at most {max} bytes are kept: shorten it (write long notes to a file of your own)",
                text.len()
            ),
        )
        .with("limit", max),
    ))
}

/// The action log, oldest first (extension; the last 500 lines).
#[utoipa::path(get, path = "/api/agent/log", tag = "agent", responses((status = 200, body = Vec<LogLine>)))]
async fn get_log(State(state): State<AppState>) -> Json<Vec<LogLine>> {
    Json(state.agent.log())
}

/// `{ready}`.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ReadyBody {
    pub ready: bool,
}

impl BodySpec for ReadyBody {
    const CODE: ErrorCode = ErrorCode::InvalidReady;
    const EXAMPLE: &'static str = r#"{"ready": true}"#;
}

/// Opens or closes the ready gate.
#[utoipa::path(post, path = "/api/ready", tag = "agent", request_body = ReadyBody, responses((status = 200, body = ReadyBody)))]
async fn ready(State(state): State<AppState>, Body(body): Body<ReadyBody>) -> ApiResult<ReadyBody> {
    Ok(Json(ReadyBody {
        ready: state.agent.set_ready(body.ready),
    }))
}

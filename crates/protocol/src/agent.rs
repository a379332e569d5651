//! The agent-state record: mode, goal, ready gate, the single pending prompt, the connector's
//! reported status and last error, and the epoch that scopes request ids to one game load.

use serde::{Deserialize, Serialize};

/// How the connector dispatches prompts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum AgentMode {
    /// One dispatch per launch prompt (the default).
    #[default]
    Request,
    /// Keep dispatching until stopped.
    Autonomous,
}

impl AgentMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AgentMode::Request => "request",
            AgentMode::Autonomous => "autonomous",
        }
    }

    /// Exact, case-sensitive parse of the two contract values.
    pub fn parse(s: &str) -> Option<AgentMode> {
        match s {
            "request" => Some(AgentMode::Request),
            "autonomous" => Some(AgentMode::Autonomous),
            _ => None,
        }
    }
}

/// The prompt waiting in the single pending slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingRequest {
    /// Monotonic within one epoch, starting at 1.
    pub id: u64,
    pub prompt: String,
}

/// The full agent state, as served by `GET /api/agent/state` and pushed in `state` frames.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AgentState {
    pub mode: AgentMode,
    pub goal: String,
    pub ready: bool,
    /// Always present: `null` or `{id, prompt}`.
    pub pending_request: Option<PendingRequest>,
    pub agent_status: String,
    pub last_error: Option<String>,
    /// A random 64-bit value (decimal string), new on every start-up and load.
    pub epoch: String,
    /// Extension: an agent connector is attached: a WebSocket connection that sent a heartbeat
    /// in the last 75 s and is still open. Without one, prompts wait in the pending slot.
    #[serde(default)]
    pub connector_attached: bool,
    /// Extension: Unix seconds of the newest heartbeat (null before the first).
    #[serde(default)]
    pub last_heartbeat_at: Option<u64>,
}

/// The parts of the agent state that survive restarts (the state file).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PersistedAgentState {
    pub mode: AgentMode,
    pub goal: String,
    pub last_error: Option<String>,
}

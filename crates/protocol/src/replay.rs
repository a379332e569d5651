//! The replay folder's index, `replay.json`: what `colony replay` writes beside the per-turn saves
//! of an episode it rebuilt (`turn-0000.colony.json` after the setup, `turn-NNNN.colony.json`
//! after turn N's writes and advance), and what `colonyd --replay DIR` serves as
//! `GET /api/replay`. Shared so both sides read and write one format.

use serde::{Deserialize, Serialize};

/// The name of the index file in a replay folder.
pub const INDEX_FILE: &str = "replay.json";

/// The save name of a turn in a replay folder (`turn-0007`; the file adds `.colony.json`).
pub fn save_name(turn: u32) -> String {
    format!("turn-{turn:04}")
}

/// `replay.json`: the episode and every turn that has a save in the folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplayIndex {
    /// The episode's id (its folder name, e.g. `survive-60-s1`).
    pub episode: String,
    /// The scenario id.
    pub scenario: String,
    pub seed: u64,
    /// Turn 0 (after the setup), then every turn replayed, in order.
    pub turns: Vec<ReplayTurn>,
}

/// One turn of a replay: the game after it, and the agent's requests of the turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplayTurn {
    /// 0 for the start (after the scenario's setup), then the episode's turn numbers from 1.
    pub turn: u32,
    /// The game day after the turn (from 1).
    pub day: u32,
    /// The hour of that day, 0.0-24.0.
    pub hour: f64,
    /// Game hours the harness advanced after the agent's requests (absent for turn 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours: Option<f64>,
    /// `GET /api/game/hash` after the turn, equal to the recording's (absent for turn 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_hash: Option<String>,
    /// The requests the agent made during the turn, in order (none for turn 0).
    #[serde(default)]
    pub requests: Vec<ReplayRequest>,
}

/// One request the agent made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplayRequest {
    pub method: String,
    /// Path and query as the agent sent them.
    pub path: String,
    /// The HTTP status it was answered with.
    pub status: u16,
    /// The error of a refused request: the whole error text of a write (`code: detail`, as
    /// answered again during the replay), the recorded error code of anything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ReplayRequest {
    /// Whether the request was refused (an error answer or an HTTP error status).
    pub fn refused(&self) -> bool {
        self.error.is_some() || self.status >= 400
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_round_trips_and_omits_what_turn_0_lacks() {
        let index = ReplayIndex {
            episode: "survive-60-s1".into(),
            scenario: "survive-60".into(),
            seed: 1,
            turns: vec![
                ReplayTurn {
                    turn: 0,
                    day: 1,
                    hour: 4.0,
                    hours: None,
                    state_hash: None,
                    requests: vec![],
                },
                ReplayTurn {
                    turn: 1,
                    day: 2,
                    hour: 4.0,
                    hours: Some(24.0),
                    state_hash: Some("00ff00ff00ff00ff".into()),
                    requests: vec![ReplayRequest {
                        method: "POST".into(),
                        path: "/api/building/place".into(),
                        status: 200,
                        error: Some("placement: occupied".into()),
                    }],
                },
            ],
        };
        let text = serde_json::to_string(&index).unwrap();
        assert!(!text.contains("\"hours\":null"), "{text}");
        assert!(
            text.contains("\"stateHash\":\"00ff00ff00ff00ff\""),
            "{text}"
        );
        let back: ReplayIndex = serde_json::from_str(&text).unwrap();
        assert_eq!(back, index);
        assert!(back.turns[1].requests[0].refused());
        assert_eq!(save_name(7), "turn-0007");
    }
}

//! The WebSocket envelope `{type, payload}` and the payloads of each frame type.
//!
//! Types are matched case-insensitively on input; the server always writes them lowercase.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Inbound frames bigger than this get a `message_too_large` error frame.
pub const MAX_INBOUND_FRAME_BYTES: usize = 64 * 1024;
/// Outbound frames queued per connection before it is closed as a slow consumer.
pub const SEND_QUEUE_FRAMES: usize = 256;
/// The close reason sent to a consumer that fell behind.
pub const SLOW_CONSUMER_REASON: &str = "slow_consumer";

/// One frame: exactly `type` and `payload`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
}

impl Frame {
    pub fn new(kind: &str, payload: Value) -> Frame {
        Frame {
            kind: kind.to_string(),
            payload: Some(payload),
        }
    }

    /// The frame as JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("frames always serialize")
    }
}

/// Payload of an `event` frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventPayload {
    pub event: String,
    /// In-game day at emission.
    pub day: u32,
    /// Unix seconds.
    pub timestamp: i64,
    pub data: Value,
}

/// Payload of an inbound `heartbeat` frame. Every member is optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HeartbeatPayload {
    /// Reserved for version negotiation.
    pub version: Option<String>,
    /// Empty or absent means no update.
    pub agent_status: Option<String>,
    /// Clears the pending slot when >= the pending request's id.
    pub acked_request_id: Option<u64>,
    /// The epoch the ack belongs to; an ack from another epoch is ignored.
    pub epoch: Option<String>,
    /// Absent: unchanged; a string sets `lastError`; JSON null clears it.
    #[serde(
        default,
        deserialize_with = "present_or_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_error: Option<Option<String>>,
}

fn present_or_null<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn heartbeat_distinguishes_absent_null_and_set_last_error() {
        let h: HeartbeatPayload = serde_json::from_value(json!({})).unwrap();
        assert_eq!(h.last_error, None);
        let h: HeartbeatPayload = serde_json::from_value(json!({"last_error": null})).unwrap();
        assert_eq!(h.last_error, Some(None));
        let h: HeartbeatPayload =
            serde_json::from_value(json!({"last_error": "boom", "acked_request_id": 3})).unwrap();
        assert_eq!(h.last_error, Some(Some("boom".into())));
        assert_eq!(h.acked_request_id, Some(3));
    }

    #[test]
    fn frame_text_has_type_and_payload() {
        let f = Frame::new("pong", json!({}));
        assert_eq!(f.to_text(), r#"{"type":"pong","payload":{}}"#);
    }
}

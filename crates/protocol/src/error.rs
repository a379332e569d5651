//! The contract's error body: `{"error": "<code>: <detail>", ...extras}`.
//!
//! Clients switch on the text before the first colon; the detail is human text that echoes the
//! input and says what to do instead. Extra members carry machine-readable context.

use serde_json::{Map, Value};

/// Every error code the service emits, with the contract's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    NotFound,
    InvalidPrefab,
    InvalidType,
    InvalidParam,
    NotUnlocked,
    InsufficientScience,
    NoPopulation,
    Disabled,
    UnknownEndpoint,
    InvalidBody,
    OperationFailed,
    InternalError,
    InvalidMode,
    InvalidPrompt,
    InvalidReady,
    GameNotReady,
    /// Extension (decisions.md): the pending-request slot is full.
    RequestPending,
    /// Transport: the Host header does not match the bind address.
    InvalidHost,
    /// Transport: missing or wrong bearer token.
    Unauthorized,
    /// Transport: the body exceeds `maxBodyBytes`.
    BodyTooLarge,
    /// Transport: the game host's write queue is full.
    QueueFull,
    /// Transport: a game is being loaded; only ping, speed and settlement answer.
    GameLoading,
    /// Placement failures carry no code prefix (interface.md); this variant marks them.
    Placement,
    /// WebSocket: an inbound frame that is not a JSON object with a `type`.
    InvalidMessage,
    /// WebSocket: an inbound frame type the server does not know.
    UnknownType,
    /// WebSocket: an inbound frame over 64 KiB.
    MessageTooLarge,
    /// Transport: a state-changing request (or a WebSocket upgrade) from a web page of another
    /// origin than the service's own or `corsOrigin`.
    ForbiddenOrigin,
    /// Transport: a POST body whose `Content-Type` is not JSON.
    UnsupportedMediaType,
    /// Transport: a WebSocket upgrade while `maxConnections` WebSockets are open.
    TooManyConnections,
    /// Transport: a request body that did not arrive within `httpBodySeconds` of its head.
    RequestTimeout,
}

impl ErrorCode {
    /// The code as written before the colon.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::InvalidPrefab => "invalid_prefab",
            ErrorCode::InvalidType => "invalid_type",
            ErrorCode::InvalidParam => "invalid_param",
            ErrorCode::NotUnlocked => "not_unlocked",
            ErrorCode::InsufficientScience => "insufficient_science",
            ErrorCode::NoPopulation => "no_population",
            ErrorCode::Disabled => "disabled",
            ErrorCode::UnknownEndpoint => "unknown_endpoint",
            ErrorCode::InvalidBody => "invalid_body",
            ErrorCode::OperationFailed => "operation_failed",
            ErrorCode::InternalError => "internal_error",
            ErrorCode::InvalidMode => "invalid_mode",
            ErrorCode::InvalidPrompt => "invalid_prompt",
            ErrorCode::InvalidReady => "invalid_ready",
            ErrorCode::GameNotReady => "game_not_ready",
            ErrorCode::RequestPending => "request_pending",
            ErrorCode::InvalidHost => "invalid_host",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::BodyTooLarge => "body_too_large",
            ErrorCode::QueueFull => "queue_full",
            ErrorCode::GameLoading => "game_loading",
            ErrorCode::Placement => "",
            ErrorCode::InvalidMessage => "invalid_message",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::MessageTooLarge => "message_too_large",
            ErrorCode::ForbiddenOrigin => "forbidden_origin",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::TooManyConnections => "too_many_connections",
            ErrorCode::RequestTimeout => "request_timeout",
        }
    }

    /// Parses the code part of an error string (the text before the first colon).
    pub fn parse(code: &str) -> Option<ErrorCode> {
        ALL_CODES
            .iter()
            .copied()
            .find(|c| c.as_str() == code && !code.is_empty())
    }
}

/// Every code, for look-ups and documentation.
pub const ALL_CODES: &[ErrorCode] = &[
    ErrorCode::NotFound,
    ErrorCode::InvalidPrefab,
    ErrorCode::InvalidType,
    ErrorCode::InvalidParam,
    ErrorCode::NotUnlocked,
    ErrorCode::InsufficientScience,
    ErrorCode::NoPopulation,
    ErrorCode::Disabled,
    ErrorCode::UnknownEndpoint,
    ErrorCode::InvalidBody,
    ErrorCode::OperationFailed,
    ErrorCode::InternalError,
    ErrorCode::InvalidMode,
    ErrorCode::InvalidPrompt,
    ErrorCode::InvalidReady,
    ErrorCode::GameNotReady,
    ErrorCode::RequestPending,
    ErrorCode::InvalidHost,
    ErrorCode::Unauthorized,
    ErrorCode::BodyTooLarge,
    ErrorCode::QueueFull,
    ErrorCode::GameLoading,
    ErrorCode::InvalidMessage,
    ErrorCode::UnknownType,
    ErrorCode::MessageTooLarge,
    ErrorCode::ForbiddenOrigin,
    ErrorCode::UnsupportedMediaType,
    ErrorCode::TooManyConnections,
    ErrorCode::RequestTimeout,
];

/// An error as the service reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub code: ErrorCode,
    pub detail: String,
    pub extras: Map<String, Value>,
}

impl ApiError {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        ApiError {
            code,
            detail: detail.into(),
            extras: Map::new(),
        }
    }

    /// Adds an extra member to the body.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extras.insert(key.to_string(), value.into());
        self
    }

    /// The `error` member's text: `<code>: <detail>`, or the bare detail for placement failures.
    pub fn message(&self) -> String {
        match self.code {
            ErrorCode::Placement => self.detail.clone(),
            code => format!("{}: {}", code.as_str(), self.detail),
        }
    }

    /// The whole body: `{"error": ..., ...extras}`.
    pub fn to_body(&self) -> Value {
        let mut body = Map::new();
        body.insert("error".into(), Value::String(self.message()));
        for (k, v) in &self.extras {
            body.insert(k.clone(), v.clone());
        }
        Value::Object(body)
    }

    /// Reads an error body back (client side). `None` when the value has no `error` string.
    pub fn from_body(body: &Value) -> Option<ApiError> {
        let obj = body.as_object()?;
        let text = obj.get("error")?.as_str()?;
        let (code, detail) = match text.split_once(": ") {
            Some((c, d)) if ErrorCode::parse(c).is_some() => (ErrorCode::parse(c)?, d.to_string()),
            _ => (ErrorCode::Placement, text.to_string()),
        };
        let extras = obj
            .iter()
            .filter(|(k, _)| k.as_str() != "error")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Some(ApiError {
            code,
            detail,
            extras,
        })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for ApiError {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn body_has_code_detail_and_extras() {
        let e = ApiError::new(ErrorCode::InvalidParam, "speed must be 0-3; got 7").with("got", 7);
        assert_eq!(
            e.to_body(),
            json!({"error": "invalid_param: speed must be 0-3; got 7", "got": 7})
        );
    }

    #[test]
    fn placement_errors_have_no_prefix_and_round_trip() {
        let e = ApiError::new(ErrorCode::Placement, "tile 3,4 is occupied by Lodge").with("x", 3);
        assert_eq!(e.message(), "tile 3,4 is occupied by Lodge");
        let back = ApiError::from_body(&e.to_body()).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn codes_parse_back() {
        for c in ALL_CODES {
            assert_eq!(ErrorCode::parse(c.as_str()), Some(*c));
        }
        assert_eq!(ErrorCode::parse("nonsense"), None);
        let e = ApiError::from_body(&json!({"error": "game_not_ready: gate closed", "hint": "x"}))
            .unwrap();
        assert_eq!(e.code, ErrorCode::GameNotReady);
        assert_eq!(e.detail, "gate closed");
    }
}

//! Errors of the simulation: command errors with the contract's codes, and save-loading errors.

use std::fmt;

use serde_json::{Map, Value};

/// The contract's error codes (interface.md section 7) that the simulation can produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    NotFound,
    InvalidPrefab,
    InvalidType,
    InvalidParam,
    NotUnlocked,
    InsufficientScience,
    NoPopulation,
    OperationFailed,
    /// A placement refused by the terrain, occupancy or water: the error text carries no code
    /// prefix (the contract's uncoded placement errors) and the extras name a `reason`.
    Placement,
}

impl ErrorCode {
    /// The snake_case code clients switch on, e.g. `"invalid_param"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::InvalidPrefab => "invalid_prefab",
            ErrorCode::InvalidType => "invalid_type",
            ErrorCode::InvalidParam => "invalid_param",
            ErrorCode::NotUnlocked => "not_unlocked",
            ErrorCode::InsufficientScience => "insufficient_science",
            ErrorCode::NoPopulation => "no_population",
            ErrorCode::OperationFailed => "operation_failed",
            ErrorCode::Placement => "placement",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused command. Nothing in the world changed.
///
/// `detail` is human text that echoes the input and suggests a fix; `extras` are the extra members
/// of the error body (e.g. `got` for `invalid_param`).
#[derive(Debug, Clone, PartialEq)]
pub struct CommandError {
    pub code: ErrorCode,
    pub detail: String,
    pub extras: Map<String, Value>,
}

impl CommandError {
    /// `not_found` for a building id no building has (ids go with their buildings).
    pub fn building_not_found(id: i32) -> Self {
        CommandError::new(
            ErrorCode::NotFound,
            format!(
                "no building with id {id}; ids change when buildings go, re-query GET \
                 /api/buildings"
            ),
        )
        .with("id", id)
    }

    /// An error with no extra members.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        CommandError {
            code,
            detail: detail.into(),
            extras: Map::new(),
        }
    }

    /// `invalid_param` with the offending value in `got`.
    pub fn invalid_param(detail: impl Into<String>, got: impl Into<Value>) -> Self {
        CommandError::new(ErrorCode::InvalidParam, detail).with("got", got)
    }

    /// Adds an extra member.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extras.insert(key.to_owned(), value.into());
        self
    }
}

impl fmt::Display for CommandError {
    /// The contract's `"<code>: <detail>"` text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.code == ErrorCode::Placement {
            return f.write_str(&self.detail);
        }
        write!(f, "{}: {}", self.code, self.detail)
    }
}

impl std::error::Error for CommandError {}

/// Why a save could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveError {
    /// The bytes are not a JSON object.
    NotJson(String),
    /// A JSON object, but not a colony save (the `format` member is missing or different).
    WrongFormat { found: Option<String> },
    /// A colony save of a version this build cannot read.
    UnsupportedVersion { found: Value, supported: u32 },
    /// A colony save of the right version whose contents are missing, malformed or inconsistent.
    Corrupt(String),
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::NotJson(e) => write!(f, "not a colony save: the file is not JSON ({e})"),
            SaveError::WrongFormat { found: None } => write!(
                f,
                "not a colony save: the JSON has no \"format\": \"{}\" member",
                crate::save::FORMAT
            ),
            SaveError::WrongFormat { found: Some(other) } => write!(
                f,
                "not a colony save: format is {other:?}, expected \"{}\"",
                crate::save::FORMAT
            ),
            SaveError::UnsupportedVersion { found, supported } => write!(
                f,
                "unsupported save version {found}; this build reads version {supported}"
            ),
            SaveError::Corrupt(e) => write!(f, "corrupt colony save: {e}"),
        }
    }
}

impl std::error::Error for SaveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_code_prefix_and_extras_carry_got() {
        let e = CommandError::invalid_param("speed must be 0-3; got 7", 7);
        assert_eq!(e.to_string(), "invalid_param: speed must be 0-3; got 7");
        assert_eq!(e.extras["got"], 7);
        assert_eq!(
            ErrorCode::InsufficientScience.as_str(),
            "insufficient_science"
        );
    }
}

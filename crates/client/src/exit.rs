//! Exit codes, one per class of failure, and the client's own error type.

use protocol::error::ErrorCode;

/// Success.
pub const EXIT_OK: i32 = 0;
/// Any other failure: internal_error, operation_failed, disabled, request_pending, game rule
/// refusals (not_unlocked, insufficient_science, no_population, placement), unexpected answers.
pub const EXIT_OTHER: i32 = 1;
/// Bad input: a usage error caught before sending, or invalid_param, invalid_body, invalid_mode,
/// invalid_prompt, invalid_ready, invalid_prefab, invalid_type, invalid_host, body_too_large.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Not found: not_found, unknown_endpoint.
pub const EXIT_NOT_FOUND: i32 = 3;
/// Not ready or busy, try again later: game_not_ready (409), game_loading, queue_full,
/// too_many_connections (503), request_timeout (408: the body came too slowly).
pub const EXIT_NOT_READY: i32 = 4;
/// Authentication: missing or wrong token (401 unauthorized).
pub const EXIT_AUTH: i32 = 5;
/// Connection failure: the service could not be reached or did not answer in time.
pub const EXIT_CONNECTION: i32 = 6;

/// The exit code for an error the service reported.
pub fn for_code(code: ErrorCode) -> i32 {
    use ErrorCode::*;
    match code {
        InvalidParam | InvalidBody | InvalidMode | InvalidPrompt | InvalidReady | InvalidPrefab
        | InvalidType | InvalidHost | BodyTooLarge | InvalidMessage | MessageTooLarge
        | UnsupportedMediaType => EXIT_BAD_INPUT,
        NotFound | UnknownEndpoint | UnknownType => EXIT_NOT_FOUND,
        GameNotReady | GameLoading | QueueFull | TooManyConnections | RequestTimeout => {
            EXIT_NOT_READY
        }
        Unauthorized | ForbiddenOrigin => EXIT_AUTH,
        NotUnlocked | InsufficientScience | NoPopulation | Disabled | OperationFailed
        | InternalError | RequestPending | Placement => EXIT_OTHER,
    }
}

/// A failure of the client itself (bad usage, unreachable service, ...), with its exit code.
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    pub fn new(code: i32, message: impl Into<String>) -> CliError {
        CliError {
            code,
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::new(EXIT_BAD_INPUT, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::error::ALL_CODES;

    #[test]
    fn every_code_has_a_class() {
        for c in ALL_CODES {
            assert!((1..=5).contains(&for_code(*c)), "{c:?}");
        }
        assert_eq!(for_code(ErrorCode::InvalidParam), 2);
        assert_eq!(for_code(ErrorCode::UnknownEndpoint), 3);
        assert_eq!(for_code(ErrorCode::GameNotReady), 4);
        assert_eq!(for_code(ErrorCode::Unauthorized), 5);
    }
}

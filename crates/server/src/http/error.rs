//! Errors as responses. Domain errors answer HTTP 200 with the error body (compatibility with
//! the original's clients); transport failures carry their real status. With the setting
//! `strictHttpStatus` the pipeline switches domain errors to proper statuses (see [`strict_status`]).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use protocol::error::{ApiError, ErrorCode};

/// An error a handler returns; it becomes the contract's body.
#[derive(Debug)]
pub struct AppError(pub ApiError);

impl From<ApiError> for AppError {
    fn from(e: ApiError) -> Self {
        AppError(e)
    }
}

impl From<sim::CommandError> for AppError {
    fn from(e: sim::CommandError) -> Self {
        AppError(crate::host::command_error(e))
    }
}

/// Marker placed in a response's extensions: the body is a domain error of this code.
#[derive(Clone, Copy, Debug)]
pub struct DomainError(pub ErrorCode);

/// The status of a transport-level error, or `None` for a domain error (200 unless strict).
pub fn transport_status(code: ErrorCode) -> Option<StatusCode> {
    Some(match code {
        ErrorCode::InvalidBody | ErrorCode::InvalidHost => StatusCode::BAD_REQUEST,
        ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
        ErrorCode::ForbiddenOrigin => StatusCode::FORBIDDEN,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::GameNotReady => StatusCode::CONFLICT,
        ErrorCode::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
        ErrorCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::QueueFull | ErrorCode::GameLoading | ErrorCode::TooManyConnections => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        _ => return None,
    })
}

/// The status a domain error gets when `strictHttpStatus` is on.
pub fn strict_status(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::NotFound | ErrorCode::UnknownEndpoint => StatusCode::NOT_FOUND,
        ErrorCode::InvalidParam
        | ErrorCode::InvalidType
        | ErrorCode::InvalidPrefab
        | ErrorCode::InvalidMode
        | ErrorCode::InvalidPrompt
        | ErrorCode::InvalidReady => StatusCode::BAD_REQUEST,
        ErrorCode::NotUnlocked
        | ErrorCode::InsufficientScience
        | ErrorCode::NoPopulation
        | ErrorCode::Placement => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::Disabled => StatusCode::FORBIDDEN,
        ErrorCode::RequestPending => StatusCode::CONFLICT,
        ErrorCode::OperationFailed => StatusCode::INTERNAL_SERVER_ERROR,
        other => transport_status(other).unwrap_or(StatusCode::BAD_REQUEST),
    }
}

/// Builds the response for an error.
pub fn error_response(e: &ApiError) -> Response {
    let body = axum::Json(e.to_body());
    match transport_status(e.code) {
        Some(status) => {
            let mut resp = (status, body).into_response();
            if e.code == ErrorCode::Unauthorized {
                resp.headers_mut().insert(
                    axum::http::header::WWW_AUTHENTICATE,
                    axum::http::HeaderValue::from_static("Bearer realm=\"colony\""),
                );
            }
            if matches!(
                e.code,
                ErrorCode::QueueFull | ErrorCode::GameLoading | ErrorCode::TooManyConnections
            ) {
                resp.headers_mut().insert(
                    axum::http::header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static("1"),
                );
            }
            resp
        }
        None => {
            let mut resp = (StatusCode::OK, body).into_response();
            resp.extensions_mut().insert(DomainError(e.code));
            resp
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        error_response(&self.0)
    }
}

/// Handler result type.
pub type ApiResult<T> = Result<axum::Json<T>, AppError>;

/// Shorthand for an `invalid_param` error with `got`.
pub fn invalid_param(detail: impl Into<String>, got: impl Into<serde_json::Value>) -> AppError {
    AppError(ApiError::new(ErrorCode::InvalidParam, detail).with("got", got))
}

/// A 32-bit entity id from a request, or `not_found` naming the kind and the list that has them
/// (ids are 32-bit hashes; a wider number cannot name anything).
pub fn entity_id(id: i64, kind: &str, list: &str) -> Result<i32, AppError> {
    i32::try_from(id).map_err(|_| not_found_id(id, kind, list))
}

/// `not_found` for an id: `{"error": "not_found: no <kind> with id N; ...", "id": N}`.
pub fn not_found_id(id: i64, kind: &str, list: &str) -> AppError {
    AppError(
        ApiError::new(
            ErrorCode::NotFound,
            format!(
                "no {kind} with id {id}; ids change as things come and go, GET {list} lists them"
            ),
        )
        .with("id", id),
    )
}

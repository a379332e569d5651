//! Cross-site request checks (docs/security.md): a web page the user visits must not drive the
//! service. Browsers mark every cross-origin POST and every WebSocket upgrade with an `Origin`
//! header, so a state-changing request whose `Origin` is present must come from the service's own
//! origin (the dashboard) or from `corsOrigin`; and a POST body must be JSON, because the "simple"
//! content types a page may send without a CORS preflight (`text/plain`, forms) are refused.
//!
//! Clients that are not browsers (curl, the `colony` client, agents) send no `Origin` and pass.

use axum::http::{HeaderMap, header};
use protocol::error::{ApiError, ErrorCode};

/// Checks the `Origin` header of a state-changing request or WebSocket upgrade.
///
/// `own` lists the origins of the service itself (e.g. `http://127.0.0.1:8085`); `cors_origin`
/// is the setting (`*` allows any origin, empty allows none besides the own).
pub fn check_origin(
    headers: &HeaderMap,
    own: &[String],
    cors_origin: &str,
) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = value.to_str().unwrap_or("").trim();
    let allowed = own.iter().any(|o| o.eq_ignore_ascii_case(origin))
        || cors_origin == "*"
        || (!cors_origin.is_empty()
            && cors_origin
                .trim_end_matches('/')
                .eq_ignore_ascii_case(origin));
    if allowed {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::ForbiddenOrigin,
        format!(
            "requests from the web origin {origin:?} are refused: only the service's own pages ({}) may change the game from a browser; to allow another page, set corsOrigin to its origin",
            own.join(", ")
        ),
    )
    .with("origin", origin))
}

/// The service's own origin for a request that arrived with this `Host` header.
pub fn own_origin(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST)?.to_str().ok()?.trim();
    (!host.is_empty()).then(|| format!("http://{host}"))
}

/// Checks that a POST body is JSON: a `Content-Type` that is absent (clients that send raw
/// bytes) or `application/json` / `*+json`, with or without parameters. `has_body` is false for
/// an empty body, which passes whatever its type.
pub fn check_content_type(headers: &HeaderMap, has_body: bool) -> Result<(), ApiError> {
    if !has_body {
        return Ok(());
    }
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    let text = value.to_str().unwrap_or("");
    let essence = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
    {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::UnsupportedMediaType,
        format!(
            "Content-Type {text:?} is not accepted: send the body as JSON with Content-Type: application/json (with curl: curl --json '{{...}}' URL)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn origins() {
        let own = vec!["http://127.0.0.1:8085".to_string()];
        assert!(check_origin(&headers(&[]), &own, "").is_ok());
        assert!(
            check_origin(
                &headers(&[(header::ORIGIN, "http://127.0.0.1:8085")]),
                &own,
                ""
            )
            .is_ok()
        );
        let evil = headers(&[(header::ORIGIN, "http://127.0.0.1:9999")]);
        assert_eq!(
            check_origin(&evil, &own, "").unwrap_err().code,
            ErrorCode::ForbiddenOrigin
        );
        assert!(check_origin(&evil, &own, "http://127.0.0.1:9999").is_ok());
        assert!(check_origin(&evil, &own, "*").is_ok());
        let null = headers(&[(header::ORIGIN, "null")]);
        assert!(check_origin(&null, &own, "").is_err());
    }

    #[test]
    fn content_types() {
        assert!(check_content_type(&headers(&[]), true).is_ok());
        let json = headers(&[(header::CONTENT_TYPE, "application/json; charset=utf-8")]);
        assert!(check_content_type(&json, true).is_ok());
        let plain = headers(&[(header::CONTENT_TYPE, "text/plain;charset=UTF-8")]);
        assert_eq!(
            check_content_type(&plain, true).unwrap_err().code,
            ErrorCode::UnsupportedMediaType
        );
        assert!(check_content_type(&plain, false).is_ok());
        let form = headers(&[(header::CONTENT_TYPE, "application/x-www-form-urlencoded")]);
        assert!(check_content_type(&form, true).is_err());
    }
}

//! The JSON body extractor: enforces `maxBodyBytes` (413, never keeping past the limit) and
//! answers a body that came too slowly with 408 `request_timeout` (`httpBodySeconds`), reports
//! malformed JSON as 400 `invalid_body` with the expected format, and turns a missing or
//! wrong-typed field into the route's error code naming the field and echoing what was sent.
//! A number written with a fraction that is whole (`-428.0`, `1e3`) counts as the integer it
//! is, so an integer member takes it, as JSON Schema's `integer` does.

use super::error::AppError;
use crate::http::AppState;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_LENGTH;
use http_body_util::BodyExt;
use protocol::error::{ApiError, ErrorCode};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A request body type: its error code for bad fields and an example of the expected format.
pub trait BodySpec: DeserializeOwned {
    /// The code for a missing or wrong-typed field.
    const CODE: ErrorCode = ErrorCode::InvalidParam;
    /// An example body, quoted in error details.
    const EXAMPLE: &'static str;
}

/// The parsed, validated body.
pub struct Body<T>(pub T);

fn too_large(limit: u64) -> AppError {
    AppError(ApiError::new(
        ErrorCode::BodyTooLarge,
        format!("limit {limit} bytes; send a smaller body (the limit is the maxBodyBytes setting)"),
    ))
}

/// A body that could not be read: 408 `request_timeout` when it came too slowly
/// (`httpBodySeconds`, `listen`), else `invalid_body`.
fn unreadable(e: &(dyn std::error::Error + 'static)) -> AppError {
    if let Some(t) = crate::listen::body_timeout(e) {
        return AppError(ApiError::new(
            ErrorCode::RequestTimeout,
            format!(
                "the request body did not arrive within {} s of its head (the httpBodySeconds setting); send the whole body right after the head, on a new connection (this one is closed)",
                t.seconds
            ),
        ));
    }
    AppError(ApiError::new(
        ErrorCode::InvalidBody,
        format!("the request body could not be read: {e}"),
    ))
}

/// How much of a body over `maxBodyBytes` is read and thrown away before the 413 is sent, so
/// the client, still sending, reads the answer instead of a broken connection (a body declared
/// larger is refused unread and the connection closed). The body's deadline
/// (`httpBodySeconds`) still applies while it is drained.
pub const DRAIN_BYTES: u64 = 8 << 20;

/// Reads and discards what is left of `body`, up to `left` bytes; gives up (the connection is
/// then closed) at an error or past that. A body over the limit without a Content-Length is
/// drained the same way, up to [`DRAIN_BYTES`] in all.
async fn drain(mut body: axum::body::Body, mut left: u64) {
    while let Some(Ok(frame)) = body.frame().await {
        let n = frame.data_ref().map_or(0, |d| d.len() as u64);
        if n > left {
            return;
        }
        left -= n;
    }
}

/// Reads the raw body, at most `limit` bytes (`maxBodyBytes`, which settings keep between 1 B
/// and 64 MiB). A body over it is answered 413 after draining up to [`DRAIN_BYTES`] of it.
pub async fn read_limited(req: Request, limit: u64) -> Result<axum::body::Bytes, AppError> {
    if let Some(len) = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        && len > limit
    {
        if len <= DRAIN_BYTES {
            drain(req.into_body(), len).await;
        }
        return Err(too_large(limit));
    }
    // Read frame by frame: past the limit (a body sent without a Content-Length), the rest is
    // drained like a declared one before the 413.
    let mut body = req.into_body();
    let mut data = Vec::new();
    let mut seen = 0u64;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| unreadable(&e))?;
        let Some(chunk) = frame.data_ref() else {
            continue;
        };
        seen += chunk.len() as u64;
        if seen > limit {
            if seen < DRAIN_BYTES {
                drain(body, DRAIN_BYTES - seen).await;
            }
            return Err(too_large(limit));
        }
        data.extend_from_slice(chunk);
    }
    Ok(axum::body::Bytes::from(data))
}

/// Parses body bytes as a JSON object; an empty body counts as `{}`. Whole numbers written
/// as floats become integers ([`whole_floats_as_integers`]).
pub fn parse_object(bytes: &[u8], example: &str) -> Result<Value, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Default::default()));
    }
    let mut value: Value = serde_json::from_slice(bytes).map_err(|e| {
        AppError(ApiError::new(
            ErrorCode::InvalidBody,
            format!("malformed JSON ({e}); expected a JSON object such as {example}"),
        ))
    })?;
    if !value.is_object() {
        return Err(AppError(ApiError::new(
            ErrorCode::InvalidBody,
            format!(
                "the body must be a JSON object, not {}; expected a JSON object such as {example}",
                kind_of(&value)
            ),
        )));
    }
    whole_floats_as_integers(&mut value);
    Ok(value)
}

/// Turns every float in `v` whose value is a whole number of magnitude below 2^53 (`-428.0`,
/// `2e3`) into that integer, so members typed as integers take it: JSON Schema's `integer` is
/// any number without a fraction, however it is written. Larger floats stay floats: from 2^53
/// on, a float no longer tells which integer was written (an integer beyond the 64-bit range
/// arrives as one, and must still be refused).
pub fn whole_floats_as_integers(v: &mut Value) {
    // 2^53: every integer of smaller magnitude is exactly one f64.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match v {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.abs() < EXACT {
                *v = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_floats_as_integers),
        Value::Object(members) => members.values_mut().for_each(whole_floats_as_integers),
        _ => {}
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads a JSON string or integer as text, for members the contract writes either way: an
/// orientation is `"north"`, `"2"` or `2`.
pub fn text_or_integer<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string or an integer")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
    }
    d.deserialize_any(Text)
}

/// Deserializes a JSON object into `T`, mapping failures to `T::CODE` with the field's name.
pub fn from_object<T: BodySpec>(value: Value) -> Result<T, AppError> {
    let got_source = value.clone();
    serde_path_to_error::deserialize::<_, T>(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.inner().to_string();
        let (detail, got) = if let Some(rest) = inner.strip_prefix("missing field `") {
            let field = rest.trim_end_matches('`');
            (
                format!(
                    "missing required field {field}; expected a body such as {}",
                    T::EXAMPLE
                ),
                Value::Null,
            )
        } else {
            let got = path
                .split('.')
                .try_fold(&got_source, |v, seg| v.get(seg))
                .cloned()
                .unwrap_or(Value::Null);
            (
                format!(
                    "field {path}: {inner}; expected a body such as {}",
                    T::EXAMPLE
                ),
                got,
            )
        };
        AppError(ApiError::new(T::CODE, detail).with("got", got))
    })
}

impl<T: BodySpec> FromRequest<AppState> for Body<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        let limit = state.settings.get().max_body_bytes;
        let bytes = read_limited(req, limit).await?;
        let value = parse_object(&bytes, T::EXAMPLE)?;
        Ok(Body(from_object(value)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Debug)]
    struct Speed {
        speed: i64,
    }
    impl BodySpec for Speed {
        const EXAMPLE: &'static str = r#"{"speed": 1}"#;
    }

    #[test]
    fn missing_and_wrong_typed_fields_name_the_field() {
        let e = from_object::<Speed>(json!({})).unwrap_err().0;
        assert_eq!(e.code, ErrorCode::InvalidParam);
        assert!(
            e.detail.contains("missing required field speed"),
            "{}",
            e.detail
        );
        let e = from_object::<Speed>(json!({"speed": "fast"}))
            .unwrap_err()
            .0;
        assert!(e.detail.starts_with("field speed:"), "{}", e.detail);
        assert_eq!(e.extras["got"], "fast");
        assert_eq!(
            from_object::<Speed>(json!({"speed": 2, "format": "json"}))
                .unwrap()
                .speed,
            2
        );
    }

    #[test]
    fn whole_floats_fill_integer_fields() {
        let v = parse_object(br#"{"speed": -428.0}"#, "{}").unwrap();
        assert_eq!(from_object::<Speed>(v).unwrap().speed, -428);
        let v = parse_object(
            br#"{"speed": 2e3, "n": [1.0, 0.5, -0.0, 1e19, 1e300]}"#,
            "{}",
        )
        .unwrap();
        assert_eq!(v, json!({"speed": 2000, "n": [1, 0.5, 0, 1e19, 1e300]}));
        // An integer beyond the 64-bit range is parsed as a float: still refused.
        let v = parse_object(br#"{"speed": -9223372036854775809}"#, "{}").unwrap();
        assert!(from_object::<Speed>(v).is_err());
        // A fraction is still refused by an integer field.
        let v = parse_object(br#"{"speed": 1.5}"#, "{}").unwrap();
        assert!(from_object::<Speed>(v).is_err());
    }

    #[test]
    fn malformed_and_non_object_bodies_are_invalid_body() {
        assert_eq!(
            parse_object(b"{nope", "{}").unwrap_err().0.code,
            ErrorCode::InvalidBody
        );
        assert_eq!(
            parse_object(b"[1]", "{}").unwrap_err().0.code,
            ErrorCode::InvalidBody
        );
        assert_eq!(parse_object(b"  ", "{}").unwrap(), json!({}));
    }
}

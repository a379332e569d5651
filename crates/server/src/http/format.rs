//! Output formats. `format=toon` (the default) and `format=json` are both JSON on the wire
//! (toon rows are flat, the client renders TOON text); `format=toon-text` or `Accept: text/toon`
//! asks the server itself for TOON text (spec v3+, `toon_text`, with the `toon-format` crate's
//! rules).

use axum::body::Body;
use axum::http::{Extensions, HeaderMap, HeaderValue, Uri, header};
use axum::response::Response;
use http_body_util::BodyExt;
use protocol::error::{ApiError, ErrorCode};

/// Answers larger than this are turned into TOON text off the runtime's core threads.
const BLOCKING_ENCODE_BYTES: usize = 64 * 1024;

/// Large encodings running at once: one core fewer than the machine has (at least one), so
/// however many clients ask for whole maps as text, a core stays free for everyone else.
fn heavy_encodes() -> &'static tokio::sync::Semaphore {
    static PERMITS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    PERMITS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        tokio::sync::Semaphore::new(cores.saturating_sub(1).max(1))
    })
}

/// The media type of TOON text.
pub const TOON_MEDIA_TYPE: &str = "text/toon; charset=utf-8";

/// The requested output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// Flat rows, JSON on the wire (the contract's default).
    #[default]
    Toon,
    /// Nested JSON.
    Json,
    /// TOON text rendered by the server.
    ToonText,
}

impl Format {
    /// The format the pipeline put in a request's extensions (toon when absent).
    pub fn of(ext: &Extensions) -> Format {
        ext.get::<Format>().copied().unwrap_or_default()
    }

    /// Whether the answer is nested json (else flat toon rows).
    pub fn is_json(self) -> bool {
        self == Format::Json
    }
}

/// The `format` query parameter, if any.
fn query_format(uri: &Uri) -> Option<String> {
    uri.query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("format="))
        .map(|v| v.to_ascii_lowercase())
}

/// Reads the format of a request: the query parameter, else the Accept header.
pub fn requested(uri: &Uri, headers: &HeaderMap) -> Result<Format, ApiError> {
    match query_format(uri).as_deref() {
        Some("toon") => Ok(Format::Toon),
        Some("json") => Ok(Format::Json),
        Some("toon-text") => Ok(Format::ToonText),
        Some(other) => Err(ApiError::new(
            ErrorCode::InvalidParam,
            format!("format must be toon, json or toon-text; got {other:?}"),
        )
        .with("got", other)),
        None => {
            let accept = headers
                .get(header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            Ok(if accept.contains("text/toon") {
                Format::ToonText
            } else {
                Format::Toon
            })
        }
    }
}

/// Builds a large answer and serializes it as JSON on the blocking pool, under the same bound
/// as the large TOON encodings, so the runtime's core threads keep answering meanwhile.
pub async fn json_off_runtime<T, F>(build: F) -> Result<Response, ApiError>
where
    T: serde::Serialize,
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
{
    let _permit = heavy_encodes().acquire().await.ok();
    let bytes = tokio::task::spawn_blocking(move || {
        build().and_then(|v| {
            serde_json::to_vec(&v)
                .map_err(|e| ApiError::new(ErrorCode::InternalError, format!("cannot encode: {e}")))
        })
    })
    .await
    .map_err(|e| ApiError::new(ErrorCode::InternalError, format!("the encoder failed: {e}")))??;
    Ok(super::list::json_response(bytes))
}

/// Re-encodes a JSON response as TOON text. Non-JSON responses pass through unchanged.
pub async fn to_toon_text(resp: Response) -> Response {
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let bytes = match body.collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return Response::from_parts(parts, Body::empty()),
    };
    let encode = |bytes: &[u8]| super::toon_text::encode(bytes);
    // A large answer (a whole map's tiles takes a second) is encoded on the blocking pool, a
    // bounded number at once, so the runtime's core threads keep answering other requests.
    let text = if bytes.len() > BLOCKING_ENCODE_BYTES {
        let owned = bytes.clone();
        let _permit = heavy_encodes().acquire().await.ok();
        tokio::task::spawn_blocking(move || encode(&owned))
            .await
            .ok()
            .flatten()
    } else {
        encode(&bytes)
    };
    match text {
        Some(mut t) => {
            t.push('\n');
            parts.headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(TOON_MEDIA_TYPE),
            );
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(t))
        }
        None => Response::from_parts(parts, Body::from(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_comes_from_query_then_accept() {
        let h = HeaderMap::new();
        assert_eq!(
            requested(&"/api/time".parse().unwrap(), &h).unwrap(),
            Format::Toon
        );
        assert_eq!(
            requested(&"/api/time?format=JSON".parse().unwrap(), &h).unwrap(),
            Format::Json
        );
        assert!(requested(&"/api/time?format=xml".parse().unwrap(), &h).is_err());
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT, HeaderValue::from_static("text/toon"));
        assert_eq!(
            requested(&"/api/time".parse().unwrap(), &h).unwrap(),
            Format::ToonText
        );
        assert_eq!(
            requested(&"/api/time?format=json".parse().unwrap(), &h).unwrap(),
            Format::Json
        );
    }
}

//! Rendered answers of the snapshot-only reads, cached per snapshot generation.
//!
//! A GET of a route whose answer depends only on the published world and the request (path,
//! query string, format) is rendered once per snapshot generation (`HostHandle::generation`) and
//! query shape; every later identical request of that generation gets the same bytes. Concurrent
//! identical requests wait for the one rendering instead of each building it. Read-your-writes
//! holds: a write is answered after its snapshot is published and the generation bumped, so a
//! read sent after the reply keys on that generation or a newer one, and the generation read
//! before rendering is never newer than the snapshot the handler loads. Only plain successes
//! (200, JSON or the `text/toon` encoded from it, no domain error) are cached; a new generation
//! drops the old entries.
//!
//! Compression: a cached answer of at least [`GZIP_MIN_BYTES`] is sent gzip-compressed to a
//! request that accepts `gzip` (`Accept-Encoding`), compressed once per answer (fastest level)
//! and kept beside it; such answers carry `Vary: Accept-Encoding`. A client on the same machine
//! gains nothing from it (our Python client asks for `identity` on loopback).

use super::error::DomainError;
use super::format::Format;
use crate::host::HostHandle;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Routes whose answer is a function of the published snapshot and the request alone.
const SNAPSHOT_ROUTES: &[&str] = &[
    "/api/alerts",
    "/api/beavers",
    "/api/buildings",
    "/api/crops",
    "/api/distribution",
    "/api/districts",
    "/api/food_clusters",
    "/api/gatherables",
    "/api/notifications",
    "/api/population",
    "/api/power",
    "/api/prefabs",
    "/api/resources",
    "/api/science",
    "/api/stats",
    "/api/summary",
    "/api/tiles",
    "/api/time",
    "/api/tree_clusters",
    "/api/trees",
    "/api/weather",
    "/api/wellbeing",
    "/api/workhours",
];

/// Distinct answers kept for one generation; requests beyond it are answered uncached.
const MAX_ENTRIES: usize = 64;

/// Bytes of answers kept for one generation (a few whole-colony lists); an answer that would go
/// beyond it is sent uncached.
const MAX_BYTES: usize = 32 << 20;

/// Answers smaller than this are never compressed (the gain would not pay for the work).
pub const GZIP_MIN_BYTES: usize = 64 << 10;

/// Whether a GET of `path` may be served from the cache.
pub fn cacheable(path: &str) -> bool {
    SNAPSHOT_ROUTES.binary_search(&path).is_ok()
}

/// A rendered answer, and its gzip form once a client asked for it.
#[derive(Clone)]
struct Rendered {
    headers: HeaderMap,
    body: Bytes,
    gzip: Arc<std::sync::OnceLock<Bytes>>,
}

impl Rendered {
    fn new(headers: HeaderMap, body: Bytes) -> Rendered {
        Rendered {
            headers,
            body,
            gzip: Arc::default(),
        }
    }

    /// The answer, gzip-compressed when `gzip` (the client accepts it) and it is big enough.
    fn response(&self, gzip: bool) -> Response {
        let big = self.body.len() >= GZIP_MIN_BYTES;
        let body = if gzip && big {
            self.gzip.get_or_init(|| compress(&self.body)).clone()
        } else {
            self.body.clone()
        };
        let mut resp = Response::new(Body::from(body));
        *resp.headers_mut() = self.headers.clone();
        if big {
            let h = resp.headers_mut();
            h.remove(header::CONTENT_LENGTH);
            h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
            if gzip {
                h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
        }
        resp
    }
}

/// `body` gzip-compressed at the fastest level.
fn compress(body: &[u8]) -> Bytes {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::fast(),
    );
    enc.write_all(body)
        .and_then(|_| enc.finish())
        .map(Bytes::from)
        .expect("compressing into memory does not fail")
}

/// Whether an `Accept-Encoding` header accepts gzip: `gzip` (or `x-gzip`, or `*`) listed with a
/// quality above 0.
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    let mut any = false;
    let mut gzip = None;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .filter_map(|q| q.trim().parse::<f32>().ok())
                .next_back()
                .unwrap_or(1.0);
            match coding.as_str() {
                "gzip" | "x-gzip" => gzip = Some(q > 0.0),
                "*" => any = q > 0.0,
                _ => {}
            }
        }
    }
    gzip.unwrap_or(any)
}

type Key = (String, String, Format);
type Slot = Arc<OnceCell<Option<Rendered>>>;

#[derive(Default)]
struct Inner {
    generation: u64,
    slots: HashMap<Key, Slot>,
    /// Bytes of the answers kept for this generation.
    bytes: usize,
}

/// The cache, shared by every request (cheap to clone).
#[derive(Clone, Default)]
pub struct ReadCache {
    inner: Arc<Mutex<Inner>>,
}

impl ReadCache {
    /// The slot of a query shape in generation `generation` (None when the generation is already
    /// stale or the cache is full).
    fn slot(&self, generation: u64, key: Key) -> Option<Slot> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if generation > inner.generation {
            inner.generation = generation;
            inner.slots.clear();
            inner.bytes = 0;
        } else if generation < inner.generation {
            return None;
        }
        if let Some(slot) = inner.slots.get(&key) {
            return Some(slot.clone());
        }
        if inner.slots.len() >= MAX_ENTRIES {
            return None;
        }
        let slot = Slot::default();
        inner.slots.insert(key, slot.clone());
        Some(slot)
    }

    /// Takes room for an answer of `n` bytes in generation `generation`; false when it does not
    /// fit (or the generation is gone).
    fn reserve(&self, generation: u64, n: usize) -> bool {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.generation != generation || inner.bytes + n > MAX_BYTES {
            return false;
        }
        inner.bytes += n;
        true
    }

    /// Answers a GET of a snapshot route (`cacheable`) from the cache, rendering it with `run`
    /// (the rest of the stack) when this generation has not rendered it yet.
    pub async fn serve<F, Fut>(
        &self,
        host: &HostHandle,
        format: Format,
        req: Request,
        next: Next,
        run: F,
    ) -> Response
    where
        F: FnOnce(Request, Next) -> Fut,
        Fut: Future<Output = Response>,
    {
        let generation = host.generation();
        let gzip = accepts_gzip(req.headers());
        let key = (
            req.uri().path().to_owned(),
            req.uri().query().unwrap_or("").to_owned(),
            format,
        );
        let Some(slot) = self.slot(generation, key) else {
            return run(req, next).await;
        };
        let mut mine = Some((req, next, run));
        let mut own: Option<Response> = None;
        let rendered = slot
            .get_or_init(|| async {
                let (req, next, run) = mine.take().expect("initialised once per caller");
                let resp = run(req, next).await;
                let (mut kept, resp) = capture(resp).await;
                if kept
                    .as_ref()
                    .is_some_and(|r| !self.reserve(generation, r.body.len()))
                {
                    kept = None;
                }
                if kept.is_none() {
                    own = Some(resp);
                }
                kept
            })
            .await;
        match (rendered, own, mine) {
            (Some(r), _, _) => r.response(gzip),
            (None, Some(resp), _) => resp,
            // Another request rendered an answer that is not cached (an error): render our own.
            (None, None, Some((req, next, run))) => run(req, next).await,
            (None, None, None) => unreachable!("a caller that initialised keeps its answer"),
        }
    }
}

/// Reads a response's body when it is a plain success (JSON, or the `text/toon` made from
/// it); returns it for the cache (or None) and the response to send.
async fn capture(resp: Response) -> (Option<Rendered>, Response) {
    let json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/toon"));
    if resp.status() != StatusCode::OK || !json || resp.extensions().get::<DomainError>().is_some()
    {
        return (None, resp);
    }
    let (parts, body) = resp.into_parts();
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => {
            let rendered = Rendered::new(parts.headers.clone(), body.clone());
            (
                Some(rendered),
                Response::from_parts(parts, Body::from(body)),
            )
        }
        Err(e) => {
            tracing::warn!("cannot read an answer to cache it: {e}");
            let mut resp = Response::new(Body::empty());
            *resp.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            (None, resp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_sorted_for_the_search() {
        let mut sorted = SNAPSHOT_ROUTES.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, SNAPSHOT_ROUTES);
        assert!(cacheable("/api/buildings"));
        assert!(!cacheable("/api/speed"), "answered from the host status");
        assert!(!cacheable("/api/agent/state"));
    }

    #[test]
    fn gzip_is_accepted_by_name_or_star_with_a_quality_above_zero() {
        let h = |v: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::ACCEPT_ENCODING, v.parse().unwrap());
            accepts_gzip(&m)
        };
        assert!(h("gzip, deflate"));
        assert!(h("br;q=1.0, GZIP;q=0.5"));
        assert!(h("*"));
        assert!(!h("gzip;q=0"));
        assert!(!h("*, gzip;q=0"), "gzip named with q=0 beats the star");
        assert!(!h("identity"));
        assert!(!h("br, zstd"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn a_big_answer_is_sent_compressed_to_who_accepts_it() {
        use std::io::Read;
        let body: Bytes = serde_json::to_vec(&vec!["row"; GZIP_MIN_BYTES])
            .unwrap()
            .into();
        let r = Rendered::new(HeaderMap::new(), body.clone());
        let plain = r.response(false);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(plain.headers()[header::VARY], "accept-encoding");
        let zipped = r.response(true);
        assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
        let bytes = r.gzip.get().expect("kept after the first").clone();
        assert!(bytes.len() < body.len() / 10);
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, body);
        let small = Rendered::new(HeaderMap::new(), Bytes::from_static(b"{}"));
        let resp = small.response(true);
        assert!(resp.headers().get(header::CONTENT_ENCODING).is_none());
        assert!(resp.headers().get(header::VARY).is_none());
    }

    #[test]
    fn a_new_generation_drops_the_old_answers() {
        let c = ReadCache::default();
        let key = || ("/api/time".to_owned(), String::new(), Format::Json);
        let a = c.slot(1, key()).unwrap();
        assert!(Arc::ptr_eq(&a, &c.slot(1, key()).unwrap()));
        let b = c.slot(2, key()).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
        assert!(
            c.slot(1, key()).is_none(),
            "a stale generation is not cached"
        );
    }

    #[test]
    fn answers_beyond_the_byte_budget_are_not_kept() {
        let c = ReadCache::default();
        let _ = c.slot(3, ("/api/trees".to_owned(), String::new(), Format::Json));
        assert!(c.reserve(3, MAX_BYTES - 10));
        assert!(!c.reserve(3, 11));
        assert!(c.reserve(3, 10));
        assert!(!c.reserve(2, 0), "another generation");
        let _ = c.slot(4, ("/api/trees".to_owned(), String::new(), Format::Json));
        assert!(c.reserve(4, MAX_BYTES), "a new generation starts empty");
    }
}

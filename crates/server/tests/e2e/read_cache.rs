//! The per-snapshot read cache (`http::cache`): repeated reads of a paused game are served from
//! it, and a write's effect shows in the first read sent after its reply (read-your-writes).

use crate::support::Server;
use serde_json::json;

#[tokio::test]
async fn a_cached_read_shows_the_write_answered_before_it() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    for h in [10, 11, 12, 11, 10, 20, 20, 19] {
        let before = s.get("/api/workhours?format=json").await.1;
        assert_eq!(before, s.get("/api/workhours?format=json").await.1);
        let (_, set) = s.post("/api/workhours", json!({"endHours": h})).await;
        assert_eq!(set["endHours"].as_f64(), Some(f64::from(h)), "{set}");
        let after = s.get("/api/workhours?format=json").await.1;
        assert_eq!(after["endHours"].as_f64(), Some(f64::from(h)), "{after}");
    }
}

#[tokio::test]
async fn concurrent_identical_reads_get_the_same_answer() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let reads = (0..8).map(|_| s.get("/api/buildings?limit=0&detail=full"));
    let answers = futures_util::future::join_all(reads).await;
    let first = &answers[0];
    assert_eq!(first.0, 200);
    assert!(
        first.1.as_array().is_some_and(|a| !a.is_empty()),
        "{first:?}"
    );
    for a in &answers {
        assert_eq!(a, first);
    }
    // Another format or query is another answer.
    let toon = s
        .get("/api/buildings?limit=0&detail=full&format=toon")
        .await
        .1;
    let json = s
        .get("/api/buildings?limit=0&detail=full&format=json")
        .await
        .1;
    assert_ne!(toon, json);
}

/// An event goes out after the snapshot holding its cause is published: a client that reads as
/// soon as the event arrives, before the write's reply, sees the write. The write is queued
/// behind a day's advance and followed by another in the same frame, so an event sent before the
/// publish would reach the client a whole advance before its cause could be read.
#[tokio::test]
async fn a_read_on_an_event_sees_its_cause() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (mut ws, _) = s.ws().await;
    let after = |ms: u64| tokio::time::sleep(std::time::Duration::from_millis(ms));
    for h in [10, 14, 18] {
        let busy = s.post("/api/game/advance", json!({"days": 3}));
        let write = async {
            after(5).await;
            s.post("/api/workhours", json!({"endHours": h})).await
        };
        let next = async {
            after(10).await;
            s.post("/api/game/advance", json!({"days": 3})).await
        };
        let read = async {
            let f = crate::support::frame_where(&mut ws, 500, |f| {
                f["type"] == "event" && f["payload"]["event"] == "workhours.changed"
            })
            .await;
            (f, s.get("/api/workhours?format=json").await.1)
        };
        let (_, (status, _), _, (event, seen)) = tokio::join!(busy, write, next, read);
        assert_eq!(status, 200);
        let h = Some(f64::from(h));
        assert_eq!(event["payload"]["data"]["endHours"].as_f64(), h, "{event}");
        assert_eq!(seen["endHours"].as_f64(), h, "read on the event: {seen}");
    }
}

/// A big snapshot answer goes gzip-compressed to a client that accepts gzip, and plain to one
/// that does not; both hold the same bytes.
#[tokio::test]
async fn big_answers_are_compressed_for_clients_that_accept_gzip() {
    use std::io::Read;
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let get = |encoding: &'static str| {
        let url = s.url("/api/tiles?x1=0&y1=0&x2=63&y2=63&format=json");
        async move {
            let r = reqwest::Client::new()
                .get(url)
                .header("accept-encoding", encoding)
                .send()
                .await
                .unwrap();
            let headers = r.headers().clone();
            (headers, r.bytes().await.unwrap())
        }
    };
    let (plain_headers, plain) = get("identity").await;
    assert!(
        plain.len() >= 64 << 10,
        "a big answer: {} bytes",
        plain.len()
    );
    assert!(plain_headers.get("content-encoding").is_none());
    assert_eq!(plain_headers["vary"], "accept-encoding");
    for _ in 0..2 {
        let (headers, zipped) = get("gzip, deflate").await;
        assert_eq!(headers["content-encoding"], "gzip");
        assert!(
            zipped.len() < plain.len() / 4,
            "{} of {}",
            zipped.len(),
            plain.len()
        );
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&zipped[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, plain);
    }
    let (small, _) = get("gzip").await;
    assert_eq!(small["content-encoding"], "gzip");
    let (headers, _) = {
        let url = s.url("/api/time");
        let r = reqwest::Client::new()
            .get(url)
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        (r.headers().clone(), ())
    };
    assert!(
        headers.get("content-encoding").is_none(),
        "small answers stay plain"
    );
}

/// `text/toon` answers are encoded once per snapshot and cached like the JSON ones: repeated
/// reads get the same text, and a write shows in the next read.
#[tokio::test]
async fn text_toon_answers_are_cached_and_show_writes() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let text = |path: &'static str| {
        let url = s.url(path);
        async move {
            let r = reqwest::Client::new()
                .get(url)
                .header("accept", "text/toon")
                .send()
                .await
                .unwrap();
            let ctype = r.headers()["content-type"].to_str().unwrap().to_owned();
            (ctype, r.text().await.unwrap())
        }
    };
    for h in [11, 12] {
        let (ctype, first) = text("/api/workhours").await;
        assert!(ctype.starts_with("text/toon"), "{ctype}");
        assert_eq!(text("/api/workhours").await.1, first);
        s.post("/api/workhours", json!({"endHours": h})).await;
        let (_, after) = text("/api/workhours").await;
        assert!(after.contains(&format!("endHours: {h}")), "{after}");
    }
    let (ctype, list) = text("/api/buildings?limit=0&detail=full").await;
    assert!(ctype.starts_with("text/toon"), "{ctype}");
    assert!(list.starts_with('['), "tabular rows: {list}");
    assert_eq!(text("/api/buildings?limit=0&detail=full").await.1, list);
    // An error is still TOON text, and not cached.
    let (ctype, err) = text("/api/buildings?limit=-1").await;
    assert!(
        ctype.starts_with("text/toon") && err.contains("invalid_param"),
        "{err}"
    );
}

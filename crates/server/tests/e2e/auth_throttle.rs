//! Slow repeated 401s: a peer that keeps sending a wrong token waits longer and longer for its
//! 401s (HTTP and the WebSocket upgrade alike), while the right token from the same address and
//! any other address (127.0.0.2 here) are answered at once.

use crate::support::{Opts, Server};
use serde_json::json;
use std::net::IpAddr;
use std::time::{Duration, Instant};

const TOKEN: &str = "throttle-test-token-0123";

fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(ip.parse::<IpAddr>().unwrap())
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// GET /api/time with `token`: the status and how long the answer took.
async fn timed(c: &reqwest::Client, url: &str, token: &str) -> (u16, Duration) {
    let t = Instant::now();
    let r = c.get(url).bearer_auth(token).send().await.unwrap();
    (r.status().as_u16(), t.elapsed())
}

#[tokio::test]
async fn repeated_401s_from_one_peer_are_slowed_but_not_the_token_or_other_peers() {
    let s = Server::start_with(Opts {
        settings: json!({"authToken": TOKEN}),
        ..Opts::default()
    })
    .await;
    let url = s.url("/api/time");
    let here = client_from("127.0.0.1");
    let other = client_from("127.0.0.2");
    // Ten failures are answered at once (a person mistyping is not slowed).
    for i in 0..10 {
        let (status, took) = timed(&here, &url, "wrong").await;
        assert_eq!(status, 401);
        assert!(took < Duration::from_secs(1), "failure {i} took {took:?}");
    }
    // Then each 401 waits: 100 ms, 200, 400, 800.
    for i in 0..4u32 {
        let (status, took) = timed(&here, &url, "wrong").await;
        assert_eq!(status, 401);
        let floor = Duration::from_millis(100) * 2u32.pow(i);
        assert!(
            took >= floor,
            "slowed failure {i} took {took:?}, less than {floor:?}"
        );
    }
    // The next waits 1.6 s; meanwhile the right token from the same address, and a wrong one from
    // another address, are answered at once.
    let slowed = tokio::spawn({
        let (here, url) = (here.clone(), url.clone());
        async move { timed(&here, &url, "wrong").await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (status, took) = timed(&here, &url, TOKEN).await;
    assert_eq!(status, 200);
    assert!(
        took < Duration::from_millis(800),
        "the right token took {took:?}"
    );
    let (status, took) = timed(&other, &url, "wrong").await;
    assert_eq!(status, 401);
    assert!(
        took < Duration::from_millis(800),
        "another peer took {took:?}"
    );
    let (status, took) = slowed.await.unwrap();
    assert_eq!(status, 401);
    assert!(took >= Duration::from_millis(1600), "took {took:?}");
    // The WebSocket upgrade counts the same peer's failures: its 401 waits 3.2 s.
    let ws_url = format!("http://127.0.0.1:{}/api/ws?token=wrong", s.ws_port);
    let t = Instant::now();
    let r = here
        .get(&ws_url)
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert!(
        t.elapsed() >= Duration::from_millis(3200),
        "{:?}",
        t.elapsed()
    );
}

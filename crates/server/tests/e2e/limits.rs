//! Connection limits and shutdown: idle and slow-header connections are closed after
//! `httpIdleSeconds`; a request body that does not arrive within `httpBodySeconds` is answered
//! 408 and closed; at `maxConnections` a fresh client is still served (even with few file
//! descriptors, or with every connection holding a request whose body never comes); SIGTERM writes an acknowledged settings change; leftover temporary files of a
//! crash are removed at start-up.

use crate::support::{Opts, Server};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Waits until the server closes `sock` (EOF or reset), failing `limit` after `start`; returns
/// the time from `start` to the close.
async fn closed_within(sock: &mut TcpStream, start: Instant, limit: Duration) -> Duration {
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(limit.saturating_sub(start.elapsed()), sock.read(&mut buf)).await
        {
            Ok(Ok(0)) | Ok(Err(_)) => return start.elapsed(),
            Ok(Ok(_)) => continue, // an answer (e.g. 408); keep reading until the close
            Err(_) => panic!("the connection was still open after {limit:?}"),
        }
    }
}

#[tokio::test]
async fn silent_slow_and_idle_connections_are_closed() {
    let s = Server::start_with(Opts {
        settings: json!({"httpIdleSeconds": 1}),
        ..Default::default()
    })
    .await;
    let addr = format!("127.0.0.1:{}", s.http_port);
    let t0 = Instant::now();
    // Silent from the start.
    let mut silent = TcpStream::connect(&addr).await.unwrap();
    // Sends half a request head, then nothing.
    let mut slow = TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"GET /api/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    // Keep-alive after one answered request.
    let mut idle = TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET /api/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let n = idle.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    for sock in [&mut silent, &mut slow, &mut idle] {
        let took = closed_within(sock, t0, Duration::from_secs(10)).await;
        assert!(
            took >= Duration::from_millis(500),
            "closed too early: {took:?}"
        );
    }
    // The service itself is fine. A fresh connection: the shared client's pooled one has been
    // idle past the 1 s limit, and the server may close it just as the client reuses it.
    let fresh = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let r = fresh.get(s.url("/api/ping")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test]
async fn at_the_connection_cap_a_fresh_client_is_served_with_few_file_descriptors() {
    // 64 file descriptors in all; 200 silent sockets would exhaust them without the cap.
    let s = Server::start_with(Opts {
        settings: json!({"maxConnections": 24, "httpIdleSeconds": 300}),
        fd_limit: Some(64),
        ..Default::default()
    })
    .await;
    let addr = format!("127.0.0.1:{}", s.http_port);
    let mut held = Vec::new();
    for _ in 0..200 {
        held.push(TcpStream::connect(&addr).await.unwrap());
    }
    // Give the accept loop time to take them all in (each one evicting an older one).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    for _ in 0..5 {
        let r = client
            .get(s.url("/api/ping"))
            .send()
            .await
            .expect("ping answers at the cap");
        assert_eq!(r.status().as_u16(), 200);
    }
    let (_, time) = s.get("/api/time").await;
    assert!(time["ticks"].is_u64(), "{time}");
    // The oldest silent sockets were the ones closed.
    closed_within(&mut held[0], Instant::now(), Duration::from_secs(5)).await;
}

/// A POST head promising a 100,000-byte body.
const SLOW_HEAD: &[u8] = b"POST /api/speed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";

/// Reads what the server sends until it closes the connection.
async fn read_to_close(sock: &mut TcpStream, limit: Duration) -> String {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(limit, sock.read_to_end(&mut out))
        .await
        .expect("the connection was closed");
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn slow_request_bodies_get_408_and_cannot_lock_out_fresh_clients() {
    let s = Server::start_with(Opts {
        settings: json!({"maxConnections": 16, "httpBodySeconds": 2, "httpIdleSeconds": 300}),
        ..Default::default()
    })
    .await;
    let addr = format!("127.0.0.1:{}", s.http_port);
    // Far more requests than the cap whose body never comes: their handlers wait for it.
    let mut held = Vec::new();
    for _ in 0..48 {
        let mut c = TcpStream::connect(&addr).await.unwrap();
        c.write_all(SLOW_HEAD).await.unwrap();
        held.push(c);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t0 = Instant::now();
    // One that trickles its body, a byte every 200 ms: it makes progress, but the deadline is
    // for the whole body.
    let mut trickle = TcpStream::connect(&addr).await.unwrap();
    trickle.write_all(SLOW_HEAD).await.unwrap();
    let trickler = tokio::spawn(async move {
        let mut answer = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            tokio::select! {
                r = trickle.read(&mut buf) => match r {
                    Ok(0) | Err(_) => break,
                    Ok(n) => answer.extend_from_slice(&buf[..n]),
                },
                _ = tokio::time::sleep(Duration::from_millis(200)) => {
                    if trickle.write_all(b" ").await.is_err() { break }
                }
            }
        }
        (String::from_utf8_lossy(&answer).into_owned(), t0.elapsed())
    });
    // Fresh clients are served at once, a read and a write, on new connections each.
    let fresh = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    for speed in [2, 3] {
        let ping = fresh
            .get(s.url("/api/ping"))
            .send()
            .await
            .expect("ping answers");
        assert_eq!(ping.status().as_u16(), 200);
        let write = fresh
            .post(s.url("/api/speed"))
            .json(&json!({ "speed": speed }))
            .send()
            .await
            .expect("a write answers");
        let body: Value = write.json().await.unwrap();
        assert_eq!(body["speed"], speed, "{body}");
        // Served while the slow bodies are still held, not after their deadline freed room:
        // the trickled body's 408 (about 2 s after its head) has not come yet.
        assert!(
            !trickler.is_finished(),
            "ping and a write were answered only after the slow bodies' deadline"
        );
    }
    // The newest held request still waits for its body (the older ones made room): it is
    // answered 408 with the contract's error and closed, about 2 s after its head.
    let answer = read_to_close(held.last_mut().unwrap(), Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
    assert!(
        answer.contains(r#"{"error":"request_timeout: the request body did not arrive within 2 s"#),
        "{answer}"
    );
    let (answer, took) = trickler.await.unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 408"),
        "a trickled body: {answer}"
    );
    assert!(
        took >= Duration::from_millis(1500) && took < Duration::from_secs(6),
        "the whole body had 2 s: {took:?}"
    );
    // The oldest were closed to make room, without an answer.
    assert_eq!(
        read_to_close(&mut held[0], Duration::from_secs(5)).await,
        ""
    );
}

#[tokio::test]
async fn the_idle_and_cap_settings_are_range_checked() {
    let s = Server::start().await;
    for (key, value, needle) in [
        ("httpIdleSeconds", json!(0), "1-3600"),
        ("maxConnections", json!(1), "8-65536"),
        ("maxConnections", json!(1e12), "8-65536"),
        ("httpBodySeconds", json!(0), "1-3600"),
        ("httpBodySeconds", json!(3601), "1-3600"),
    ] {
        let (_, body) = s.post("/api/settings", json!({ key: value })).await;
        assert_eq!(
            crate::support::code(&body),
            "invalid_param",
            "{key}: {body}"
        );
        assert!(body["error"].as_str().unwrap().contains(needle), "{body}");
    }
    let (_, view) = s.get("/api/settings?format=json").await;
    assert_eq!(view["settings"]["httpIdleSeconds"], 30);
    assert_eq!(view["settings"]["maxConnections"], 512);
    assert_eq!(view["settings"]["httpBodySeconds"], 10);
}

#[tokio::test]
async fn sigterm_right_after_a_change_keeps_it() {
    let s = Server::start().await;
    let (status, _) = s.post("/api/settings", json!({"wsPingSeconds": 7})).await;
    assert_eq!(status, 200);
    // Within the 1 s debounce.
    let dir = s.terminate();
    let file: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("settings.json")).unwrap()).unwrap();
    assert_eq!(file["wsPingSeconds"], 7, "{file}");
}

#[tokio::test]
async fn leftover_temporary_files_are_removed_at_start() {
    let s = Server::start().await;
    let dir = s.stop();
    std::fs::create_dir_all(dir.path().join("saves")).unwrap();
    std::fs::write(dir.path().join(".tmp-Ab12Cd"), b"half a settings file").unwrap();
    std::fs::write(dir.path().join("saves").join(".tmp-Xy34Zw"), b"half a save").unwrap();
    let s = Server::start_in(dir, Opts::default()).await;
    let d = s.data_dir();
    assert!(!d.join(".tmp-Ab12Cd").exists());
    assert!(!d.join("saves").join(".tmp-Xy34Zw").exists());
    assert!(d.join("settings.json").exists());
}

#[tokio::test]
async fn websockets_beyond_max_connections_are_refused_until_one_closes() {
    let s = Server::start_with(Opts {
        settings: json!({"maxConnections": 8}),
        ..Default::default()
    })
    .await;
    let mut open = Vec::new();
    for _ in 0..8 {
        open.push(s.ws().await.0);
    }
    // The ninth upgrade is refused with the error body, before the upgrade.
    let err = tokio_tungstenite::connect_async(s.ws_url(""))
        .await
        .expect_err("a ninth WebSocket");
    let tokio_tungstenite::tungstenite::Error::Http(resp) = err else {
        panic!("not an HTTP refusal: {err}");
    };
    assert_eq!(resp.status().as_u16(), 503);
    assert_eq!(resp.headers()["retry-after"], "1");
    let body: Value = serde_json::from_slice(resp.body().as_deref().unwrap_or_default()).unwrap();
    let e = body["error"].as_str().unwrap();
    assert!(
        e.starts_with("too_many_connections: 8 WebSockets are open")
            && e.contains("maxConnections"),
        "{e}"
    );
    // HTTP is still served, and a closed WebSocket makes room.
    let (status, _) = s.get("/api/time").await;
    assert_eq!(status, 200);
    let mut gone = open.pop().unwrap();
    gone.close(None).await.unwrap();
    drop(gone);
    let mut ok = false;
    for _ in 0..50 {
        if tokio_tungstenite::connect_async(s.ws_url("")).await.is_ok() {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ok, "a WebSocket opens once one closed");
}

#[tokio::test]
async fn slow_consumers_count_against_the_websocket_cap_until_their_socket_is_gone() {
    let s = Server::start_with(Opts {
        settings: json!({"maxConnections": 8, "wsPingSeconds": 1}),
        ..Default::default()
    })
    .await;
    // Eight clients that never read and flood pings: each is closed as a slow consumer (the
    // hub lets it go at once), but its socket stays open while its close frame waits to be read.
    let mut flooders = Vec::new();
    for _ in 0..8 {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.set_recv_buffer_size(2048).unwrap();
        let stream = sock
            .connect(format!("127.0.0.1:{}", s.ws_port).parse().unwrap())
            .await
            .unwrap();
        let (mut ws, _) = tokio_tungstenite::client_async(s.ws_url(""), stream)
            .await
            .unwrap();
        flooders.push(tokio::spawn(async move {
            use futures_util::SinkExt;
            let ping =
                tokio_tungstenite::tungstenite::Message::text(json!({"type": "ping"}).to_string());
            loop {
                for _ in 0..1000 {
                    if ws.feed(ping.clone()).await.is_err() {
                        return;
                    }
                }
                if ws.flush().await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    // Their sockets are open: a ninth WebSocket is refused.
    let err = tokio_tungstenite::connect_async(s.ws_url(""))
        .await
        .expect_err("a ninth WebSocket while eight sockets are open");
    let tokio_tungstenite::tungstenite::Error::Http(resp) = err else {
        panic!("not an HTTP refusal: {err}");
    };
    assert_eq!(resp.status().as_u16(), 503);
    // Once their sockets are closed (three 1 s intervals at most), a WebSocket opens again.
    let t0 = Instant::now();
    while tokio_tungstenite::connect_async(s.ws_url(""))
        .await
        .is_err()
    {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the slow consumers' sockets were never closed"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for f in flooders {
        f.abort();
    }
}

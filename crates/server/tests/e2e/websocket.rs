//! The WebSocket channel: auth before upgrade, state frames, heartbeats, ping, error frames,
//! the inbound cap, events, and the slow-consumer close that never stalls others.

use crate::support::{Opts, Server, code, frame_where, next_frame, send};
use futures_util::StreamExt;
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn upgrade_needs_the_token_by_header_or_query() {
    let s = Server::start_with(Opts {
        settings: json!({"authToken": "tok"}),
        ..Default::default()
    })
    .await;
    match tokio_tungstenite::connect_async(s.ws_url("")).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 401);
            assert_eq!(
                resp.headers()["www-authenticate"],
                "Bearer realm=\"colony\""
            );
        }
        other => panic!("expected 401, got {:?}", other.map(|_| ())),
    }
    assert!(
        tokio_tungstenite::connect_async(s.ws_url("?token=nope"))
            .await
            .is_err()
    );
    let (_ws, first) = s.ws().await; // ?token=tok
    assert_eq!(first["payload"]["mode"], "request");
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        s.ws_url(""),
    )
    .unwrap();
    req.headers_mut()
        .insert("authorization", "Bearer tok".parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert_eq!(next_frame(&mut ws).await["type"], "state");
}

#[tokio::test]
async fn heartbeat_acks_the_pending_request_and_sets_status() {
    let s = Server::start().await;
    let (mut ws, first) = s.ws().await;
    let epoch = first["payload"]["epoch"].as_str().unwrap().to_string();
    s.post("/api/agent/request", json!({"prompt": "go"})).await;
    let f = frame_where(&mut ws, 20, |f| {
        f["type"] == "state" && !f["payload"]["pendingRequest"].is_null()
    })
    .await;
    assert_eq!(f["payload"]["pendingRequest"]["id"], 1);
    // A heartbeat without changes is answered with a state frame.
    send(
        &mut ws,
        json!({"type": "heartbeat", "payload": {"agent_status": ""}}),
    )
    .await;
    let f = frame_where(&mut ws, 20, |f| f["type"] == "state").await;
    assert_eq!(f["payload"]["agentStatus"], "");
    // An ack from another epoch is ignored.
    send(
        &mut ws,
        json!({"type": "HeartBeat", "payload": {"acked_request_id": 1, "epoch": "1"}}),
    )
    .await;
    let f = frame_where(&mut ws, 20, |f| f["type"] == "state").await;
    assert!(!f["payload"]["pendingRequest"].is_null());
    send(&mut ws, json!({"type": "heartbeat", "payload": {"acked_request_id": 1, "epoch": epoch, "agent_status": "running", "last_error": "boom"}})).await;
    let f = frame_where(&mut ws, 20, |f| f["type"] == "state").await;
    assert!(f["payload"]["pendingRequest"].is_null());
    assert_eq!(f["payload"]["agentStatus"], "running");
    assert_eq!(f["payload"]["lastError"], "boom");
    let st = s.get("/api/agent/state").await.1;
    assert!(st["pendingRequest"].is_null());
    assert_eq!(st["lastError"], "boom");
    send(
        &mut ws,
        json!({"type": "heartbeat", "payload": {"last_error": null}}),
    )
    .await;
    let f = frame_where(&mut ws, 20, |f| f["type"] == "state").await;
    assert!(f["payload"]["lastError"].is_null());
}

#[tokio::test]
async fn bad_frames_get_error_frames_and_the_socket_stays_open() {
    let s = Server::start().await;
    let (mut ws, _) = s.ws().await;
    let cases = [
        ("not json".to_string(), "invalid_message"),
        (json!([1]).to_string(), "invalid_message"),
        (json!({"type": "dance"}).to_string(), "unknown_type"),
        (
            json!({"type": "heartbeat", "payload": {"acked_request_id": -1}}).to_string(),
            "invalid_param",
        ),
        (
            json!({"type": "heartbeat", "payload": {"pad": "x".repeat(70 * 1024)}}).to_string(),
            "message_too_large",
        ),
    ];
    for (text, want) in cases {
        ws.send_text(text).await;
        let f = frame_where(&mut ws, 20, |f| f["type"] == "error").await;
        assert_eq!(code(&f["payload"]), want);
    }
    send(&mut ws, json!({"type": "PING"})).await;
    let f = frame_where(&mut ws, 20, |f| f["type"] == "pong").await;
    assert_eq!(f["payload"], json!({}));
}

trait SendText {
    async fn send_text(&mut self, t: String);
}
impl SendText for crate::support::Ws {
    async fn send_text(&mut self, t: String) {
        futures_util::SinkExt::send(self, Message::Text(t.into()))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn state_changes_and_game_events_reach_every_client() {
    let s = Server::start().await;
    let (mut a, _) = s.ws().await;
    let (mut b, _) = s.ws().await;
    s.post("/api/agent/config", json!({"goal": "dams"})).await;
    for ws in [&mut a, &mut b] {
        let f = frame_where(ws, 20, |f| f["type"] == "state").await;
        assert_eq!(f["payload"]["goal"], "dams");
    }
    s.post("/api/speed", json!({"speed": 3})).await;
    let f = frame_where(&mut a, 50, |f| {
        f["type"] == "event" && f["payload"]["event"] == "speed.changed"
    })
    .await;
    assert_eq!(f["payload"]["data"]["speed"], 3);
    assert!(f["payload"]["timestamp"].as_i64().unwrap() > 1_600_000_000);
    assert!(f["payload"]["day"].as_u64().unwrap() >= 1);
    assert_eq!(
        f.as_object().unwrap().len(),
        2,
        "envelope has exactly type and payload"
    );
    s.post("/api/game/advance", json!({"days": 1})).await;
    let f = frame_where(&mut b, 200, |f| {
        f["type"] == "event" && f["payload"]["event"] == "day.start"
    })
    .await;
    assert!(f["payload"]["data"]["day"].as_u64().unwrap() >= 2);
}

#[tokio::test]
async fn a_slow_consumer_is_closed_without_stalling_others() {
    let s = Server::start().await;
    // A client with a tiny receive buffer that never reads.
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(2048).unwrap();
    let stream = sock
        .connect(format!("127.0.0.1:{}", s.ws_port).parse().unwrap())
        .await
        .unwrap();
    let (mut slow, _) = tokio_tungstenite::client_async(s.ws_url(""), stream)
        .await
        .unwrap();
    let (mut fast, _) = s.ws().await;
    // Flood: every heartbeat asks for a state frame back, far more than the socket buffers and
    // the 256-frame queue hold, while the slow client reads nothing.
    let hb = json!({"type": "heartbeat", "payload": {}}).to_string();
    'flood: for _ in 0..40 {
        for _ in 0..1000 {
            if futures_util::SinkExt::feed(&mut slow, Message::Text(hb.clone().into()))
                .await
                .is_err()
            {
                break 'flood;
            }
        }
        if futures_util::SinkExt::flush(&mut slow).await.is_err() {
            break;
        }
        // The fast client still gets its answers promptly, and so does HTTP.
        send(&mut fast, json!({"type": "ping"})).await;
        let f = frame_where(&mut fast, 50, |f| f["type"] == "pong").await;
        assert_eq!(f["type"], "pong");
        assert_eq!(s.get("/api/ping").await.0, 200, "server stalled");
    }
    // Drain what the slow client was sent: it ends with a close frame saying why.
    let mut reason = None;
    let mut end = String::from("stream ended");
    let drained = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(msg) = slow.next().await {
            match msg {
                Ok(Message::Close(Some(cf))) => {
                    reason = Some(cf.reason.to_string());
                    break;
                }
                Ok(Message::Close(None)) => {
                    end = "close frame without a reason".into();
                    break;
                }
                Ok(_) => continue,
                Err(e) => {
                    end = format!("error: {e}");
                    break;
                }
            }
        }
    })
    .await;
    assert!(drained.is_ok(), "the slow connection was not closed");
    assert_eq!(reason.as_deref(), Some("slow_consumer"), "{end}");
    send(&mut fast, json!({"type": "ping"})).await;
    frame_where(&mut fast, 50, |f| f["type"] == "pong").await;
}

#[tokio::test]
async fn the_server_pings_and_closes_a_silent_connection() {
    let s = Server::start_with(Opts {
        settings: json!({"wsPingSeconds": 1}),
        ..Default::default()
    })
    .await;
    // A raw client that never answers: tokio-tungstenite would answer pings while reading, so
    // this one only reads after the silence limit has passed.
    let (mut ws, _) = tokio_tungstenite::connect_async(s.ws_url(""))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let mut pings = 0;
    let mut reason = None;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
        match msg {
            Ok(Message::Ping(_)) => pings += 1,
            Ok(Message::Close(Some(cf))) => {
                reason = Some(cf.reason.to_string());
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    assert!(pings >= 2, "pings: {pings}");
    assert_eq!(reason.as_deref(), Some("no response to pings"));
    // A client that keeps reading (and so answers pings) stays connected past the limit.
    let (mut live, _) = s.ws().await;
    let until = std::time::Instant::now() + Duration::from_millis(4500);
    while std::time::Instant::now() < until {
        match tokio::time::timeout(Duration::from_millis(200), live.next()).await {
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) => panic!("a live client was closed"),
            _ => {}
        }
    }
    send(&mut live, json!({"type": "ping"})).await;
    frame_where(&mut live, 20, |f| f["type"] == "pong").await;
}

#[tokio::test]
async fn fast_readers_survive_whole_map_marks_and_long_advances() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    // Readers that read as fast as they can, counting event frames until a marker event.
    let mut readers = Vec::new();
    for _ in 0..3 {
        let (ws, _) = s.ws().await;
        readers.push(ws);
    }
    // A whole-map planting mark and clear: one event per tile (thousands), and a 30-day advance.
    // At the district center's level: the flat start area is the largest stretch of one level.
    let (_, dc) = s.get("/api/buildings?format=json").await;
    let z = dc["items"][0]["z"].clone();
    let (_, marked) = s
        .post(
            "/api/planting/mark",
            json!({"x1": 0, "y1": 0, "x2": 63, "y2": 63, "z": z, "crop": "Carrot"}),
        )
        .await;
    let tiles = marked["planted"].as_u64().unwrap();
    assert!(
        tiles > 300,
        "the mark alone is more than the 256-entry queue: {marked}"
    );
    s.post(
        "/api/planting/clear",
        json!({"x1": 0, "y1": 0, "x2": 63, "y2": 63, "z": z}),
    )
    .await;
    s.post("/api/game/advance", json!({"days": 30})).await;
    // The end marker: a speed change after everything else.
    s.post("/api/speed", json!({"speed": 1})).await;
    for ws in &mut readers {
        let (mut set, mut unset) = (0u64, 0u64);
        let ended = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(Ok(msg)) = ws.next().await {
                let Message::Text(t) = msg else {
                    assert!(
                        !matches!(msg, Message::Close(_)),
                        "a fast reader was closed: {msg:?}"
                    );
                    continue;
                };
                let f: serde_json::Value = serde_json::from_str(&t).unwrap();
                match f["payload"]["event"].as_str() {
                    Some("planting.coords.set") => set += 1,
                    Some("planting.coords.unset") => unset += 1,
                    Some("speed.changed") if f["payload"]["data"]["speed"] == 1 => return true,
                    _ => {}
                }
            }
            false
        })
        .await;
        assert_eq!(
            ended,
            Ok(true),
            "the reader saw every frame up to the marker"
        );
        assert_eq!(
            (set, unset),
            (tiles, tiles),
            "no event of the bursts was lost"
        );
    }
    assert_eq!(s.get("/api/ping").await.0, 200);
}

/// Reads until a Close frame arrives (skipping the state frame and pings); `None` if the
/// connection ended without one (a reset or a bare EOF).
async fn close_frame(ws: &mut crate::support::Ws) -> Option<(u16, String)> {
    loop {
        match tokio::time::timeout(Duration::from_secs(15), ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(f))))) => {
                return Some((f.code.into(), f.reason.to_string()));
            }
            Ok(Some(Ok(Message::Close(None)))) => return Some((1005, String::new())),
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(_))) | Ok(None) => return None,
            Err(_) => panic!("no close within 15 s"),
        }
    }
}

#[tokio::test]
async fn a_client_close_is_answered_with_a_close_frame() {
    let s = Server::start().await;
    let (mut ws, _) = s.ws().await;
    futures_util::SinkExt::send(
        &mut ws,
        Message::Close(Some(tokio_tungstenite::tungstenite::protocol::CloseFrame {
            code: 1000u16.into(),
            reason: "bye".into(),
        })),
    )
    .await
    .unwrap();
    let (code, _) = close_frame(&mut ws)
        .await
        .expect("the server answers the Close");
    assert_eq!(code, 1000, "the answer echoes the client's code");
}

#[tokio::test]
async fn a_frame_over_4_mib_closes_with_1009() {
    let s = Server::start().await;
    let (mut ws, _) = s.ws().await;
    let big = json!({"type": "heartbeat", "payload": {"pad": "x".repeat(5 * 1024 * 1024)}});
    // The server may close before the client finished writing; either way a 1009 must arrive.
    let _ = futures_util::SinkExt::send(&mut ws, Message::Text(big.to_string().into())).await;
    let (code, reason) = close_frame(&mut ws)
        .await
        .expect("a close frame, not a reset");
    assert_eq!(code, 1009, "{reason}");
    assert!(reason.starts_with("message_too_large"), "{reason}");
    // The service goes on.
    let (mut other, _) = s.ws().await;
    send(&mut other, json!({"type": "ping"})).await;
    let f = frame_where(&mut other, 20, |f| f["type"] == "pong").await;
    assert_eq!(f["type"], "pong");
}

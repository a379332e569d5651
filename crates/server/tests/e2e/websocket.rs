//! The WebSocket channel: auth before upgrade, state frames, heartbeats, ping, error frames,
//! the inbound cap, events, the slow-consumer close that never stalls others, and the deadlines
//! that close a client that never reads.

use crate::support::{Opts, Server, code, frame_where, next_frame, send};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::AsyncReadExt;
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

/// The one event the service sends and the game does not: `autosave {name, day}`, once the
/// autosave of a day that is a multiple of `autosaveDays` (1 by default) is written; the save it
/// names is listed by then.
#[tokio::test]
async fn an_autosave_is_announced_once_it_is_written() {
    let s = Server::start().await;
    let (mut ws, _) = s.ws().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (_, t) = s.get("/api/time").await;
    let day = t["dayNumber"].as_u64().unwrap();
    s.post("/api/game/advance", json!({"days": 1})).await;
    let f = frame_where(&mut ws, 20_000, |f| {
        f["type"] == "event" && f["payload"]["event"] == "autosave"
    })
    .await;
    assert_eq!(
        f["payload"]["data"],
        json!({"name": "autosave", "day": day + 1})
    );
    assert_eq!(f["payload"]["day"], day + 1);
    assert!(s.has_save("autosave").await, "the autosave is listed");
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
    // A client that never answers: tokio-tungstenite would answer pings while reading, so this
    // one reads the raw bytes under the WebSocket, which answers nothing, until the server
    // closes the socket.
    let (mut ws, _) = tokio_tungstenite::connect_async(s.ws_url(""))
        .await
        .unwrap();
    let t0 = std::time::Instant::now();
    let tokio_tungstenite::MaybeTlsStream::Plain(sock) = ws.get_mut() else {
        panic!("a plain socket");
    };
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), sock.read_to_end(&mut raw))
        .await
        .expect("the server closes a silent connection")
        .unwrap();
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(2500) && took < Duration::from_secs(6),
        "closed after three 1 s intervals without an answer: {took:?}"
    );
    // Unmasked server frames: pings with no payload (0x89 0x00), then a Close with code 1001.
    let pings = raw.windows(2).filter(|w| w == b"\x89\x00").count();
    assert!(pings >= 2, "pings: {pings}");
    let close = b"\x03\xe9no response to pings";
    assert!(
        raw.windows(close.len()).any(|w| w == close),
        "a close frame with its reason: {:?}",
        String::from_utf8_lossy(&raw)
    );
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

/// A WebSocket on a socket with a tiny receive buffer, never read from here on.
async fn tiny_buffer_ws(s: &Server) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(2048).unwrap();
    let stream = sock
        .connect(format!("127.0.0.1:{}", s.ws_port).parse().unwrap())
        .await
        .unwrap();
    tokio_tungstenite::client_async(s.ws_url(""), stream)
        .await
        .unwrap()
        .0
}

#[tokio::test]
async fn websockets_that_never_read_are_closed_and_their_descriptors_freed() {
    let s = Server::start_with(Opts {
        settings: json!({"wsPingSeconds": 1}),
        ..Default::default()
    })
    .await;
    let before = s.open_fds();
    // Clients that never read and never send: only the reader's deadline can notice them.
    let mut silent = Vec::new();
    for _ in 0..12 {
        silent.push(tiny_buffer_ws(&s).await);
    }
    // Clients that never read but keep sending: the server's writes to them block once the
    // socket buffers are full, so only a deadline on the writes can notice them. Each heartbeat
    // is answered with the state, which holds a 60 KB prompt: 200 answers are 12 MB, more than
    // the socket buffers take and less than the outbound queue holds (no slow_consumer close).
    let (_, req) = s
        .post("/api/agent/request", json!({"prompt": "p".repeat(60_000)}))
        .await;
    assert_eq!(req["pendingRequest"]["id"], 1, "{req}");
    let mut talkers = Vec::new();
    for _ in 0..4 {
        let mut ws = tiny_buffer_ws(&s).await;
        talkers.push(tokio::spawn(async move {
            let hb = json!({"type": "heartbeat", "payload": {}}).to_string();
            for _ in 0..200 {
                if ws.feed(Message::Text(hb.clone().into())).await.is_err() {
                    return;
                }
            }
            if ws.flush().await.is_err() {
                return;
            }
            loop {
                tokio::time::sleep(Duration::from_millis(200)).await;
                if ws.send(Message::Text(hb.clone().into())).await.is_err() {
                    return;
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let open = s.open_fds();
    assert!(open >= before + 16, "{before} -> {open}");
    // Three ping intervals (3 s) and the close: every one is closed and its descriptor freed.
    let t0 = std::time::Instant::now();
    loop {
        let now = s.open_fds();
        if now <= before {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(12),
            "{} of 16 never-reading WebSockets still open after {:?}",
            now - before,
            t0.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for t in talkers {
        t.abort();
    }
    // HTTP and WebSocket clients are served.
    assert_eq!(s.get("/api/ping").await.0, 200);
    let (mut live, _) = s.ws().await;
    send(&mut live, json!({"type": "ping"})).await;
    frame_where(&mut live, 20, |f| f["type"] == "pong").await;
}

#[tokio::test]
async fn one_clients_status_changes_cannot_make_another_reader_slow() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    let (sender, _) = s.ws().await;
    let (mut sink, mut answers) = sender.split();
    // The sender reads its own answers, a state frame per heartbeat (it keeps no more than 150
    // unread, so it is not closed as a slow consumer itself), and keeps the error frames.
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = answered.clone();
    let errors = tokio::spawn(async move {
        let mut errors = Vec::new();
        while let Some(Ok(msg)) = answers.next().await {
            if let Message::Text(t) = msg {
                let f: Value = serde_json::from_str(t.as_str()).unwrap();
                if f["type"] == "error" {
                    errors.push(f["payload"]["error"].as_str().unwrap_or("").to_string());
                } else if f["type"] == "state" {
                    counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }
        errors
    });
    // A reader that reads as fast as it can: the state frames it gets, until 1.5 s of quiet.
    let (mut reader, _) = s.ws().await;
    let reading = tokio::spawn(async move {
        let (mut states, mut last, mut end) = (0usize, Value::Null, None);
        loop {
            match tokio::time::timeout(Duration::from_millis(1500), reader.next()).await {
                Err(_) => break,
                Ok(Some(Ok(Message::Text(t)))) => {
                    let f: Value = serde_json::from_str(t.as_str()).unwrap();
                    if f["type"] == "state" {
                        states += 1;
                        last = f;
                    }
                }
                Ok(Some(Ok(Message::Close(cf)))) => {
                    end = Some(format!("closed: {cf:?}"));
                    break;
                }
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(e))) => {
                    end = Some(format!("error: {e}"));
                    break;
                }
                Ok(None) => {
                    end = Some("stream ended".into());
                    break;
                }
            }
        }
        (states, last, end, reader)
    });
    let t0 = std::time::Instant::now();
    let heartbeat = |status: String| {
        Message::Text(
            json!({"type": "heartbeat", "payload": {"agent_status": status}})
                .to_string()
                .into(),
        )
    };
    // Statuses of 60 KB, each new: over the cap, so ignored with an error frame.
    for i in 0..50 {
        sink.feed(heartbeat(format!("{i:05}{}", "s".repeat(60_000))))
            .await
            .unwrap();
    }
    sink.flush().await.unwrap();
    // Then 2 s of new 3 KB statuses, as fast as the sender can: coalesced for the others.
    let mut sent = 0usize;
    let mut last_status = String::new();
    while t0.elapsed() < Duration::from_secs(2) {
        for _ in 0..50 {
            last_status = format!("{sent:06}{}", "t".repeat(3000));
            sink.feed(heartbeat(last_status.clone())).await.unwrap();
            sent += 1;
        }
        sink.flush().await.unwrap();
        // (50 answers to the 60 KB statuses came before.)
        while sent + 50 > answered.load(std::sync::atomic::Ordering::Relaxed) + 150 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    let flood = t0.elapsed();
    let (states, last, end, mut reader) = reading.await.unwrap();
    assert_eq!(end, None, "the reader was dropped");
    assert!(sent > 200, "the sender sent {sent} statuses");
    // At most one state frame per 100 ms (and the first ones), however many changes.
    let most = (flood.as_millis() / 100) as usize + 10;
    assert!(
        states <= most,
        "{states} state frames for {sent} changes in {flood:?} (at most {most})"
    );
    assert_eq!(
        last["payload"]["agentStatus"].as_str(),
        Some(last_status.as_str()),
        "the newest state wins"
    );
    send(&mut reader, json!({"type": "ping"})).await;
    frame_where(&mut reader, 20, |f| f["type"] == "pong").await;
    drop(sink);
    // The 60 KB statuses got error frames and were not taken.
    let (_, agent) = s.get("/api/agent/state?format=json").await;
    assert_eq!(agent["agentStatus"].as_str(), Some(last_status.as_str()));
    drop(s);
    let errors = errors.await.unwrap();
    assert_eq!(errors.len(), 50, "{:?}", errors.first());
    assert!(
        errors[0].starts_with(
            "invalid_param: heartbeat agent_status of 60005 bytes exceeds the 4096-byte limit"
        ),
        "{}",
        errors[0]
    );
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

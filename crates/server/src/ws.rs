//! The WebSocket channel on `wsPort` at `/api/ws`: Host check and token (header or `?token=`; a
//! peer that keeps failing is slowed as on HTTP, `http::auth_throttle`) before the upgrade, a
//! `state` frame right after it, inbound `heartbeat` and `ping` frames, `error` frames for
//! anything malformed (never fatal), the 64 KiB inbound cap, server pings for liveness (every
//! `wsPingSeconds`; a connection silent for three intervals is closed with reason `no response to
//! pings`), and the close with reason `slow_consumer` when the hub finds the queue full. Both
//! directions have a deadline of three ping intervals: the reader's wait for the next frame, and
//! each write (a client that has not taken a frame within that time, its socket buffers full
//! because it never reads, is dropped), so a connection's socket and descriptor are always freed.

use crate::agent::{AgentStore, MAX_LAST_ERROR_BYTES, MAX_STATUS_BYTES};
use crate::http::error::error_response;
use crate::http::origin::{check_origin, own_origin};
use crate::http::pipeline::{check_host, check_token, normalize};
use crate::hub::{CloseReason, Hub, Outgoing, STATE_INTERVAL};
use crate::settings::SettingsStore;
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use protocol::error::{ApiError, ErrorCode};
use protocol::frame::{Frame, HeartbeatPayload, MAX_INBOUND_FRAME_BYTES, SLOW_CONSUMER_REASON};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long a closing connection waits for its close frame to be written (it queues behind
/// frames a slow client has not read yet).
const CLOSE_WAIT: Duration = Duration::from_secs(10);
/// A connection silent (no frame, no pong) for this many ping intervals is closed.
pub const SILENT_INTERVALS: u32 = 3;
/// How long a connection closed for a protocol error stays open after its close frame.
const CLOSE_LINGER: Duration = Duration::from_millis(500);
/// Frames above this size are refused by the WebSocket layer itself: the connection is closed
/// with code 1009 (message too big); frames between 64 KiB and this get a `message_too_large`
/// error frame and the socket stays open.
const PROTOCOL_MAX_MESSAGE: usize = 4 * 1024 * 1024;

/// State of the WebSocket listener.
#[derive(Clone)]
pub struct WsState {
    pub settings: SettingsStore,
    pub agent: AgentStore,
    pub hub: Hub,
    pub host_form: Option<Arc<str>>,
    /// The HTTP port the dashboard is served on: its origin may open the WebSocket.
    pub http_port: u16,
}

/// The router served on `wsPort`.
pub fn router(state: WsState) -> Router {
    Router::new().fallback(upgrade).with_state(state)
}

async fn upgrade(State(state): State<WsState>, req: Request) -> Response {
    if let Err(e) = check_host(req.headers(), state.host_form.as_deref()) {
        return error_response(&e);
    }
    let uri = normalize(req.uri()).unwrap_or_else(|| req.uri().clone());
    if uri.path() != "/api/ws" {
        let body = ApiError::new(
            ErrorCode::UnknownEndpoint,
            format!(
                "{} is not served on the WebSocket port; connect to /api/ws",
                uri.path()
            ),
        );
        return (StatusCode::NOT_FOUND, axum::Json(body.to_body())).into_response();
    }
    let settings = state.settings.get();
    if let Err(e) = check_token(req.headers(), &uri, &settings.auth_token, true) {
        return crate::http::auth_throttle::refuse(req.extensions(), &e).await;
    }
    if let Err(e) = check_origin(
        req.headers(),
        &own_origins(&req, state.http_port),
        &settings.cors_origin,
    ) {
        return error_response(&e);
    }
    // Upgraded WebSockets leave the listener's connection accounting (`listen`); they have a cap
    // of their own, refused before the upgrade so the client reads why.
    let open = state.hub.open_sockets();
    if open >= settings.max_connections {
        return error_response(&ApiError::new(
            ErrorCode::TooManyConnections,
            format!(
                "{open} WebSockets are open, as many as maxConnections ({}) allows; close one (one per client is enough: it carries every event) or raise maxConnections",
                settings.max_connections
            ),
        ));
    }
    let (mut parts, _body) = req.into_parts();
    let ws =
        match <WebSocketUpgrade as axum::extract::FromRequestParts<WsState>>::from_request_parts(
            &mut parts, &state,
        )
        .await
        {
            Ok(ws) => ws,
            Err(rejection) => {
                let body = ApiError::new(
                    ErrorCode::InvalidParam,
                    format!(
                        "not a WebSocket upgrade request ({rejection}); connect with a WebSocket client"
                    ),
                );
                return (StatusCode::BAD_REQUEST, axum::Json(body.to_body())).into_response();
            }
        };
    ws.max_message_size(PROTOCOL_MAX_MESSAGE)
        .max_frame_size(PROTOCOL_MAX_MESSAGE)
        .on_upgrade(move |socket| serve(socket, state))
}

/// The origins of this service as a page would have them: the dashboard's (the HTTP port) and the
/// WebSocket listener's own, on the host the client connected to.
fn own_origins(req: &Request, http_port: u16) -> Vec<String> {
    let Some(own) = own_origin(req.headers()) else {
        return Vec::new();
    };
    let host = match own.rfind(':') {
        Some(i) if !own[i..].contains(']') && i > "http:".len() => &own[..i],
        _ => own.as_str(),
    };
    vec![format!("{host}:{http_port}"), own.clone()]
}

/// The Close frame for an error of the WebSocket layer: 1009 for a message or frame over the
/// limit, 1002 for anything else.
fn protocol_close(e: axum::Error) -> CloseFrame {
    let inner = e.into_inner();
    let too_big = matches!(
        inner.downcast_ref::<tungstenite::Error>(),
        Some(tungstenite::Error::Capacity(_))
    );
    tracing::debug!("websocket protocol error: {inner}");
    if too_big {
        CloseFrame {
            code: 1009,
            reason: "message_too_large: frames over 4 MiB are refused (the limit is 64 KiB)".into(),
        }
    } else {
        let mut reason = format!("protocol error: {inner}");
        // A close reason is at most 123 bytes.
        while reason.len() > 120 {
            reason.pop();
        }
        CloseFrame {
            code: 1002,
            reason: reason.into(),
        }
    }
}

fn error_frame(code: ErrorCode, detail: impl Into<String>) -> Utf8Bytes {
    Frame::new(
        "error",
        json!({"error": ApiError::new(code, detail).message()}),
    )
    .to_text()
    .into()
}

/// Waits until `at`, then for a new agent state.
async fn state_changed(
    rx: &mut tokio::sync::watch::Receiver<Utf8Bytes>,
    at: tokio::time::Instant,
) -> Result<(), tokio::sync::watch::error::RecvError> {
    tokio::time::sleep_until(at).await;
    rx.changed().await
}

/// How the writer of a connection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriterEnd {
    /// Our Close frame went out (slow consumer, shutdown): the client may still answer it.
    SentClose,
    /// Nothing more to exchange: the client's Close was answered, the reader asked for the
    /// close, or a write failed or made no progress within the deadline.
    Done,
}

/// Sends one message, failing when the client has not taken it within `limit` (a client that
/// does not read blocks the write once the socket buffers are full).
async fn send_within(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    msg: Message,
    limit: Duration,
) -> Result<(), &'static str> {
    match tokio::time::timeout(limit, sink.send(msg)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err("the write failed"),
        Err(_) => Err("the client did not take a frame within the deadline"),
    }
}

async fn serve(socket: WebSocket, state: WsState) {
    let reg = state.hub.register();
    let id = reg.id;
    // Counted among the open sockets until this function returns and the socket is dropped.
    let _socket = reg.socket;
    // The first frame: the current state.
    state.hub.send_state_to(id);
    let (mut sink, mut stream) = socket.split();

    let ping_seconds = state.settings.get().ws_ping_seconds;
    let interval = Duration::from_secs(u64::from(ping_seconds));
    // A client that sent nothing (no frame, no pong) for this long is closed, and so is one
    // that has not taken a frame sent to it within as long: both waits have this deadline.
    let silence_limit = interval * SILENT_INTERVALS;
    let close_limit = CLOSE_WAIT.min(silence_limit);
    // The reader asks the writer (which owns the sink) to close: `None` answers the client's own
    // Close, `Some` sends ours (a protocol error, a frame over the limit, silence).
    let (close_tx, mut close_rx) = tokio::sync::mpsc::channel::<Option<CloseFrame>>(1);
    let mut frames = reg.frames;
    let queued = reg.queued;
    let mut close = reg.close;
    let mut agent_state = reg.state;
    let mut writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(interval);
        ping.tick().await;
        // Broadcast states go out at most once per STATE_INTERVAL, the newest winning.
        let mut next_state = tokio::time::Instant::now();
        loop {
            tokio::select! {
                biased;
                changed = close.changed() => {
                    let reason = if changed.is_ok() { *close.borrow() } else { Some(CloseReason::Shutdown) };
                    let frame = match reason {
                        Some(CloseReason::SlowConsumer) => CloseFrame { code: 1008, reason: SLOW_CONSUMER_REASON.into() },
                        _ => CloseFrame { code: 1001, reason: "server shutting down".into() },
                    };
                    // The close frame queues behind what the client has not read yet; give it time.
                    return match send_within(&mut sink, Message::Close(Some(frame)), close_limit).await {
                        Ok(()) => WriterEnd::SentClose,
                        Err(_) => WriterEnd::Done,
                    };
                }
                asked = close_rx.recv() => {
                    let _ = tokio::time::timeout(close_limit, async {
                        match asked.flatten() {
                            Some(frame) => sink.send(Message::Close(Some(frame))).await,
                            // The WebSocket layer queued the answer to the client's Close:
                            // closing the sink flushes it.
                            None => sink.close().await,
                        }
                    })
                    .await;
                    return WriterEnd::Done;
                }
                changed = state_changed(&mut agent_state, next_state) => {
                    if changed.is_err() {
                        return WriterEnd::Done;
                    }
                    let text = agent_state.borrow_and_update().clone();
                    if let Err(why) = send_within(&mut sink, Message::Text(text), silence_limit).await {
                        tracing::debug!("websocket {id}: {why} ({silence_limit:?}); closing it");
                        return WriterEnd::Done;
                    }
                    next_state = tokio::time::Instant::now() + STATE_INTERVAL;
                }
                next = frames.recv() => match next {
                    Some(Outgoing::State { bytes }) => {
                        // The newest state, which also stands for a broadcast one not sent yet.
                        let text = agent_state.borrow_and_update().clone();
                        if let Err(why) = send_within(&mut sink, Message::Text(text), silence_limit).await {
                            tracing::debug!("websocket {id}: {why} ({silence_limit:?}); closing it");
                            return WriterEnd::Done;
                        }
                        queued.fetch_sub(bytes, Ordering::Relaxed);
                        next_state = tokio::time::Instant::now() + STATE_INTERVAL;
                    }
                    Some(Outgoing::Frames(batch)) => {
                        for text in batch {
                            let n = text.len();
                            if let Err(why) = send_within(&mut sink, Message::Text(text), silence_limit).await {
                                tracing::debug!("websocket {id}: {why} ({silence_limit:?}); closing it");
                                return WriterEnd::Done;
                            }
                            queued.fetch_sub(n, Ordering::Relaxed);
                        }
                    }
                    None => return WriterEnd::Done,
                },
                _ = ping.tick() => {
                    if let Err(why) = send_within(&mut sink, Message::Ping(Default::default()), silence_limit).await {
                        tracing::debug!("websocket {id}: ping: {why} ({silence_limit:?}); closing it");
                        return WriterEnd::Done;
                    }
                }
            }
        }
    });

    // Whether the writer has ended (its handle must not be awaited again), how, and why the
    // reader stopped.
    let mut writer_end = None;
    let (mut closing, mut linger) = (false, false);
    loop {
        let next = tokio::select! {
            end = &mut writer => {
                writer_end = Some(end.unwrap_or(WriterEnd::Done));
                break;
            }
            next = tokio::time::timeout(silence_limit, stream.next()) => next,
        };
        let msg = match next {
            Err(_) => {
                // Nothing came, not even a pong, for three ping intervals.
                let _ = close_tx.try_send(Some(CloseFrame {
                    code: 1001,
                    reason: "no response to pings".into(),
                }));
                closing = true;
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                // A frame over the protocol limit or broken framing: say so with a Close code
                // (RFC 6455: 1009 too big, 1002 protocol error) instead of dropping the socket.
                let _ = close_tx.try_send(Some(protocol_close(e)));
                closing = true;
                linger = true;
                break;
            }
            Ok(Some(Ok(msg))) => msg,
        };
        match msg {
            Message::Text(text) => handle_text(&state, id, text.as_str()).await,
            Message::Binary(bytes) => {
                if bytes.len() > MAX_INBOUND_FRAME_BYTES {
                    state.hub.send_to(
                        id,
                        error_frame(
                            ErrorCode::MessageTooLarge,
                            format!("frame of {} bytes exceeds the 64 KiB limit", bytes.len()),
                        ),
                    );
                } else {
                    match std::str::from_utf8(&bytes) {
                        Ok(text) => handle_text(&state, id, text).await,
                        Err(_) => state.hub.send_to(
                            id,
                            error_frame(
                                ErrorCode::InvalidMessage,
                                "binary frames must hold UTF-8 JSON; send text frames",
                            ),
                        ),
                    }
                }
            }
            Message::Close(_) => {
                let _ = close_tx.try_send(None);
                closing = true;
                break;
            }
            Message::Ping(_) | Message::Pong(_) => {}
        }
    }
    if closing {
        // Let the writer send the close frame (it queues behind unread frames; the writer gives
        // up on a client that takes nothing), then, after a protocol error, give the client a
        // moment to read it before the socket goes: a socket dropped with unread input is reset,
        // and a reset can discard the close frame on the client's side.
        if writer_end.is_none() && tokio::time::timeout(CLOSE_WAIT, &mut writer).await.is_err() {
            writer.abort();
        }
        if linger {
            tokio::time::sleep(CLOSE_LINGER).await;
        }
        state.hub.unregister(id);
        state.agent.connector_left(Some(id));
        return;
    }
    state.hub.unregister(id);
    // If this connection was the agent connector, it is gone now.
    state.agent.connector_left(Some(id));
    if writer_end == Some(WriterEnd::SentClose) {
        // Our close frame is out (slow consumer, shutdown): read and drop what the client still
        // sends until it answers the close or the wait ends. Dropping a socket with unread data
        // resets it, and a reset can discard the close frame before the client reads it.
        let _ = tokio::time::timeout(close_limit, async {
            while let Some(Ok(m)) = stream.next().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    // Dropping both halves closes the socket and frees its descriptor.
    writer.abort();
}

/// The error frame for a heartbeat text over its limit.
fn too_long(field: &str, len: usize, limit: usize) -> Utf8Bytes {
    error_frame(
        ErrorCode::InvalidParam,
        format!(
            "heartbeat {field} of {len} bytes exceeds the {limit}-byte limit; it was ignored (the rest of the heartbeat applied), send a shorter one"
        ),
    )
}

/// Parses and dispatches one inbound text frame.
async fn handle_text(state: &WsState, id: u64, text: &str) {
    if text.len() > MAX_INBOUND_FRAME_BYTES {
        state.hub.send_to(
            id,
            error_frame(
                ErrorCode::MessageTooLarge,
                format!("frame of {} bytes exceeds the 64 KiB limit", text.len()),
            ),
        );
        return;
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            state.hub.send_to(
                id,
                error_frame(
                    ErrorCode::InvalidMessage,
                    format!(
                        "not JSON ({e}); send {{\"type\": \"heartbeat\", \"payload\": {{...}}}}"
                    ),
                ),
            );
            return;
        }
    };
    let Some(kind) = value.get("type").and_then(Value::as_str) else {
        state.hub.send_to(
            id,
            error_frame(
                ErrorCode::InvalidMessage,
                "a frame must be a JSON object with a string \"type\" (heartbeat or ping)",
            ),
        );
        return;
    };
    let payload = value.get("payload").cloned().unwrap_or(Value::Null);
    match kind.to_ascii_lowercase().as_str() {
        "ping" => state
            .hub
            .send_to(id, Frame::new("pong", json!({})).to_text().into()),
        "heartbeat" => {
            let payload = if payload.is_null() {
                json!({})
            } else {
                payload
            };
            let mut hb: HeartbeatPayload = match serde_path_to_error::deserialize(payload) {
                Ok(hb) => hb,
                Err(e) => {
                    let detail = format!(
                        "heartbeat payload field {}: {}; expected {{\"agent_status\": string, \"acked_request_id\": int >= 0, \"epoch\": string, \"last_error\": string or null}}",
                        e.path(),
                        e.inner()
                    );
                    state
                        .hub
                        .send_to(id, error_frame(ErrorCode::InvalidParam, detail));
                    return;
                }
            };
            // Over-long texts are ignored (with an error frame); the rest of the heartbeat
            // applies, so an ack is never lost to a long status.
            if let Some(status) = &hb.agent_status
                && status.len() > MAX_STATUS_BYTES
            {
                state
                    .hub
                    .send_to(id, too_long("agent_status", status.len(), MAX_STATUS_BYTES));
                hb.agent_status = None;
            }
            if let Some(Some(error)) = &hb.last_error
                && error.len() > MAX_LAST_ERROR_BYTES
            {
                state.hub.send_to(
                    id,
                    too_long("last_error", error.len(), MAX_LAST_ERROR_BYTES),
                );
                hb.last_error = None;
            }
            // A change is published to every connection (coalesced, `hub`); the sender's answer
            // is the newest state, queued behind what it was sent before.
            state.agent.heartbeat(&hb, id).await;
            state.hub.send_state_to(id);
        }
        other => state.hub.send_to(
            id,
            error_frame(
                ErrorCode::UnknownType,
                format!("unknown frame type {other:?}; the server accepts heartbeat and ping"),
            ),
        ),
    }
}

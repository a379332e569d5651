//! The WebSocket half of the recording proxy: the agent connects to the proxy's own WebSocket
//! port (`COLONY_WS_PORT`), and each connection is joined to a connection of its own to the
//! episode's colonyd, opened with the token only the harness holds. Text and binary frames and
//! closes pass both ways; pings are answered by each side itself. The frames a client may send
//! (`heartbeat`, `ping`) cannot change the game, so they are passed on without a refusal list.

use axum::extract::State;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest};

struct Upstream {
    url: String,
    token: String,
}

/// Starts the WebSocket proxy on a free loopback port in front of colonyd's WebSocket port;
/// returns the port.
pub async fn start(upstream_ws_port: u16, token: String) -> std::io::Result<u16> {
    let up = Arc::new(Upstream {
        url: format!("ws://127.0.0.1:{upstream_ws_port}/api/ws"),
        token,
    });
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let port = listener.local_addr()?.port();
    let app = axum::Router::new()
        .route("/api/ws", axum::routing::get(upgrade))
        .with_state(up);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(port)
}

async fn upgrade(State(up): State<Arc<Upstream>>, wsu: WebSocketUpgrade) -> Response {
    wsu.on_upgrade(move |socket| join(socket, up))
}

/// Opens colonyd's side and pumps frames both ways until either side closes.
async fn join(mut agent: WebSocket, up: Arc<Upstream>) {
    let upstream = match open_upstream(&up).await {
        Ok(s) => s,
        Err(e) => {
            let text = serde_json::json!({
                "type": "error",
                "payload": {"error": format!("operation_failed: the evaluation proxy could not reach colonyd's WebSocket: {e}")},
            })
            .to_string();
            let _ = agent.send(ws::Message::Text(text.into())).await;
            let _ = agent.send(ws::Message::Close(None)).await;
            return;
        }
    };
    let (mut up_tx, mut up_rx) = upstream.split();
    let (mut ag_tx, mut ag_rx) = agent.split();
    let to_upstream = async {
        while let Some(Ok(m)) = ag_rx.next().await {
            let out = match m {
                ws::Message::Text(t) => tungstenite::Message::text(t.as_str()),
                ws::Message::Binary(b) => tungstenite::Message::binary(b),
                ws::Message::Close(c) => {
                    let frame = c.map(|c| tungstenite::protocol::CloseFrame {
                        code: c.code.into(),
                        reason: c.reason.as_str().into(),
                    });
                    let _ = up_tx.send(tungstenite::Message::Close(frame)).await;
                    break;
                }
                ws::Message::Ping(_) | ws::Message::Pong(_) => continue,
            };
            if up_tx.send(out).await.is_err() {
                break;
            }
        }
    };
    let to_agent = async {
        while let Some(Ok(m)) = up_rx.next().await {
            let out = match m {
                tungstenite::Message::Text(t) => ws::Message::Text(t.as_str().into()),
                tungstenite::Message::Binary(b) => ws::Message::Binary(b),
                tungstenite::Message::Close(c) => {
                    let frame = c.map(|c| ws::CloseFrame {
                        code: c.code.into(),
                        reason: c.reason.as_str().into(),
                    });
                    let _ = ag_tx.send(ws::Message::Close(frame)).await;
                    break;
                }
                _ => continue,
            };
            if ag_tx.send(out).await.is_err() {
                break;
            }
        }
    };
    tokio::select! {
        () = to_upstream => {}
        () = to_agent => {}
    }
}

async fn open_upstream(
    up: &Upstream,
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    String,
> {
    let mut req = up
        .url
        .as_str()
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let auth = format!("Bearer {}", up.token)
        .parse()
        .map_err(|_| "the token is not a header value".to_string())?;
    req.headers_mut().insert("authorization", auth);
    let (s, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| e.to_string())?;
    Ok(s)
}

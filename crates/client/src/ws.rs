//! A blocking WebSocket connection to the service (`tungstenite`, polled with a short read
//! timeout so callers can do other work between frames) and the reconnect backoff.

use crate::config::Settings;
use protocol::frame::Frame;
use std::hash::{BuildHasher, Hasher};
use std::io::ErrorKind;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// How long one `recv` waits for a frame.
pub const POLL: Duration = Duration::from_millis(100);

/// An open connection.
pub struct Conn {
    ws: WebSocket<TcpStream>,
}

/// What one `recv` saw.
pub enum Recv {
    /// A JSON frame.
    Frame(Frame),
    /// Traffic that is not a frame for us (ping, pong, a frame we could not parse).
    Other,
    /// Nothing within the poll interval.
    Idle,
    /// The connection is gone.
    Closed(String),
}

/// Opens a connection to `ws://host:ws_port/api/ws`, with the token in an `Authorization`
/// header when one is set.
pub fn connect(settings: &Settings) -> Result<Conn, String> {
    let url = settings.ws_url();
    let addr = (settings.host.value.as_str(), settings.ws_port.value)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {}: {e}", settings.host.value))?
        .next()
        .ok_or_else(|| format!("cannot resolve {}", settings.host.value))?;
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .map_err(|e| format!("cannot connect to {url}: {e}"))?;
    let _ = stream.set_nodelay(true);
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let mut req = url
        .as_str()
        .into_client_request()
        .map_err(|e| format!("bad WebSocket address {url}: {e}"))?;
    if let Some(t) = settings.token() {
        let value = format!("Bearer {t}")
            .parse()
            .map_err(|_| "the token is not a valid header value".to_string())?;
        req.headers_mut().insert("authorization", value);
    }
    let (ws, _) = tungstenite::client(req, stream).map_err(|e| match e {
        tungstenite::HandshakeError::Failure(tungstenite::Error::Http(resp)) => {
            format!("{url} refused the upgrade: HTTP {}", resp.status())
        }
        e => format!("WebSocket handshake with {url} failed: {e}"),
    })?;
    ws.get_ref()
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(Conn { ws })
}

impl Conn {
    /// Waits up to `POLL` for the next message.
    pub fn recv(&mut self) -> Recv {
        match self.ws.read() {
            Ok(Message::Text(t)) => match serde_json::from_str::<Frame>(t.as_str()) {
                Ok(f) => Recv::Frame(f),
                Err(_) => Recv::Other,
            },
            Ok(Message::Close(c)) => Recv::Closed(
                c.map(|c| format!("closed by the service ({})", c.reason))
                    .unwrap_or_else(|| "closed by the service".into()),
            ),
            Ok(_) => Recv::Other,
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                Recv::Idle
            }
            Err(e) => Recv::Closed(format!("connection lost: {e}")),
        }
    }

    /// Sends a frame.
    pub fn send(&mut self, frame: &Frame) -> Result<(), String> {
        self.ws
            .send(Message::text(frame.to_text()))
            .map_err(|e| format!("send failed: {e}"))
    }
}

/// Reconnect delays: from 1 s doubling to 30 s, each with ±20% jitter.
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            next: Backoff::FIRST,
        }
    }
}

impl Backoff {
    pub const FIRST: Duration = Duration::from_secs(1);
    pub const MAX: Duration = Duration::from_secs(30);

    /// The delay before the next attempt.
    pub fn next_delay(&mut self) -> Duration {
        let base = self.next;
        self.next = (self.next * 2).min(Backoff::MAX);
        jitter(base)
    }

    /// After a successful connection.
    pub fn reset(&mut self) {
        self.next = Backoff::FIRST;
    }
}

/// `d` times a random factor in [0.8, 1.2].
pub fn jitter(d: Duration) -> Duration {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|t| t.as_nanos())
            .unwrap_or_default(),
    );
    let unit = (h.finish() >> 11) as f64 / (1u64 << 53) as f64;
    d.mul_f64(0.8 + 0.4 * unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_thirty_seconds_with_jitter() {
        let mut b = Backoff::default();
        let bases = [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0];
        for base in bases {
            let d = b.next_delay().as_secs_f64();
            assert!(
                d >= base * 0.8 - 1e-9 && d <= base * 1.2 + 1e-9,
                "{d} vs {base}"
            );
        }
        b.reset();
        assert!(b.next_delay() <= Duration::from_millis(1200));
    }
}

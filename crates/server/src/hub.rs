//! The WebSocket hub: every open connection's bounded outbound queue, and broadcasting to all of
//! them without ever waiting. A connection whose queue is full is told to close as a slow consumer.

use axum::extract::ws::Utf8Bytes;
use protocol::frame::{EventPayload, Frame, SEND_QUEUE_FRAMES};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, watch};

/// Why the hub wants a connection closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    SlowConsumer,
    Shutdown,
}

/// What a connection task holds: its queue's receiving end and the close signal.
pub struct Registration {
    pub id: u64,
    pub frames: mpsc::Receiver<Utf8Bytes>,
    pub close: watch::Receiver<Option<CloseReason>>,
}

struct Conn {
    tx: mpsc::Sender<Utf8Bytes>,
    close: watch::Sender<Option<CloseReason>>,
}

/// Shared registry of connections.
#[derive(Clone, Default)]
pub struct Hub {
    conns: Arc<Mutex<BTreeMap<u64, Conn>>>,
    next_id: Arc<AtomicU64>,
}

impl Hub {
    /// Registers a new connection with a queue of [`SEND_QUEUE_FRAMES`] frames.
    pub fn register(&self) -> Registration {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, frames) = mpsc::channel(SEND_QUEUE_FRAMES);
        let (close_tx, close) = watch::channel(None);
        self.lock().insert(
            id,
            Conn {
                tx,
                close: close_tx,
            },
        );
        Registration { id, frames, close }
    }

    pub fn unregister(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Number of open connections.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Conn>> {
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a frame for one connection; a full queue closes it as a slow consumer.
    pub fn send_to(&self, id: u64, text: Utf8Bytes) {
        let mut conns = self.lock();
        if let Some(conn) = conns.get(&id)
            && !Self::offer(conn, text)
        {
            conns.remove(&id);
        }
    }

    /// Queues a frame for every connection. Never blocks.
    pub fn broadcast(&self, text: Utf8Bytes) {
        self.lock()
            .retain(|_, conn| Self::offer(conn, text.clone()));
    }

    /// Tries to queue; false when the connection is gone or was closed for being slow.
    fn offer(conn: &Conn, text: Utf8Bytes) -> bool {
        match conn.tx.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                let _ = conn.close.send(Some(CloseReason::SlowConsumer));
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Broadcasts a `state` frame.
    pub fn broadcast_state(&self, state: &protocol::agent::AgentState) {
        self.broadcast(state_frame(state));
    }

    /// Broadcasts one game event as an `event` frame.
    pub fn broadcast_event(&self, name: &str, day: u32, data: Option<Value>) {
        let payload = EventPayload {
            event: name.to_string(),
            day,
            timestamp: unix_now(),
            data: data.unwrap_or(Value::Null),
        };
        let frame = Frame::new(
            "event",
            serde_json::to_value(payload).expect("event payload serializes"),
        );
        self.broadcast(frame.to_text().into());
    }

    /// Asks every connection to close (server shutdown).
    pub fn close_all(&self) {
        for conn in self.lock().values() {
            let _ = conn.close.send(Some(CloseReason::Shutdown));
        }
    }
}

/// A `state` frame's text.
pub fn state_frame(state: &protocol::agent::AgentState) -> Utf8Bytes {
    Frame::new(
        "state",
        serde_json::to_value(state).expect("state serializes"),
    )
    .to_text()
    .into()
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_closes_only_that_connection() {
        let hub = Hub::default();
        let mut fast = hub.register();
        let slow = hub.register();
        for i in 0..SEND_QUEUE_FRAMES {
            hub.broadcast(format!("{i}").into());
            // The fast consumer keeps up.
            assert_eq!(fast.frames.try_recv().unwrap().as_str(), format!("{i}"));
        }
        assert_eq!(hub.len(), 2);
        hub.broadcast("overflow".into());
        assert_eq!(*slow.close.borrow(), Some(CloseReason::SlowConsumer));
        assert_eq!(hub.len(), 1);
        assert_eq!(fast.frames.try_recv().unwrap().as_str(), "overflow");
        assert_eq!(*fast.close.borrow(), None);
    }
}

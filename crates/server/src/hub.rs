//! The WebSocket hub: every open connection's bounded outbound queue, and broadcasting to all of
//! them without ever waiting. A connection whose queue is full is told to close as a slow consumer.
//!
//! The queue holds bursts, not single frames: the events one write or one frame of the game
//! causes (a whole-map planting mark, a 30-day advance) go in as one entry, so a client that
//! reads as fast as it can survives any single write. The queue holds [`SEND_QUEUE_FRAMES`]
//! entries and at most [`MAX_QUEUED_BYTES`] (one burst may be bigger when the queue is empty);
//! past either, the connection is closed, so a client
//! that never reads is dropped within a few bursts and its memory is bounded.
//!
//! The agent state does not go through the queues: the hub keeps the newest `state` frame, and
//! each connection's writer sends it when it changed, at most once per [`STATE_INTERVAL`], the
//! newest winning (the states in between are skipped). So however fast one client changes the
//! state (heartbeats with a new `agent_status` each), every other reader gets at most ten state
//! frames a second and never falls behind for them. An answer to a connection's own heartbeat,
//! and its first frame, are queued as a marker that the writer turns into the newest state when
//! it gets there, so a client never gets a state older than one it already has.

use axum::extract::ws::Utf8Bytes;
use protocol::frame::{EventPayload, Frame, SEND_QUEUE_FRAMES};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// Why the hub wants a connection closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    SlowConsumer,
    Shutdown,
}

/// Bytes a connection may have queued before it is closed as a slow consumer.
pub const MAX_QUEUED_BYTES: usize = 16 << 20;

/// The shortest time between two broadcast `state` frames to one connection.
pub const STATE_INTERVAL: Duration = Duration::from_millis(100);

/// Frames queued together: the events of one write or one game frame, or one other frame.
pub type Batch = Vec<Utf8Bytes>;

/// One entry of a connection's queue.
#[derive(Debug)]
pub enum Outgoing {
    /// Frames sent in this order.
    Frames(Batch),
    /// The newest `state` frame, as it is when the writer gets to this entry (the answer to the
    /// connection's heartbeat, its first frame). `bytes`: what the entry counts for in the
    /// queue's byte budget.
    State { bytes: usize },
}

/// What a connection task holds: its queue's receiving end, the bytes still queued (the
/// writer takes off what it sent) and the close signal.
pub struct Registration {
    pub id: u64,
    pub frames: mpsc::Receiver<Outgoing>,
    pub queued: Arc<AtomicUsize>,
    pub close: watch::Receiver<Option<CloseReason>>,
    /// The newest `state` frame (marked seen at registration).
    pub state: watch::Receiver<Utf8Bytes>,
    /// Counts the connection's socket as open until dropped (keep it until the socket is).
    pub socket: OpenSocket,
}

/// One open WebSocket socket in [`Hub::open_sockets`], for as long as it lives.
pub struct OpenSocket(Arc<AtomicUsize>);

impl Drop for OpenSocket {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

struct Conn {
    tx: mpsc::Sender<Outgoing>,
    queued: Arc<AtomicUsize>,
    close: watch::Sender<Option<CloseReason>>,
}

/// Shared registry of connections.
#[derive(Clone)]
pub struct Hub {
    conns: Arc<Mutex<BTreeMap<u64, Conn>>>,
    next_id: Arc<AtomicU64>,
    /// The newest agent state as a `state` frame.
    state: Arc<watch::Sender<Utf8Bytes>>,
    /// Open sockets: registered connections, and the ones closed by the hub (slow consumers)
    /// whose socket is not closed yet.
    sockets: Arc<AtomicUsize>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            conns: Arc::default(),
            next_id: Arc::default(),
            state: Arc::new(watch::channel(Utf8Bytes::default()).0),
            sockets: Arc::default(),
        }
    }
}

impl Hub {
    /// Registers a new connection with a queue of [`SEND_QUEUE_FRAMES`] bursts.
    pub fn register(&self) -> Registration {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, frames) = mpsc::channel(SEND_QUEUE_FRAMES);
        let (close_tx, close) = watch::channel(None);
        let queued = Arc::new(AtomicUsize::new(0));
        self.lock().insert(
            id,
            Conn {
                tx,
                queued: queued.clone(),
                close: close_tx,
            },
        );
        Registration {
            id,
            frames,
            queued,
            close,
            state: self.state.subscribe(),
            socket: {
                self.sockets.fetch_add(1, Ordering::AcqRel);
                OpenSocket(self.sockets.clone())
            },
        }
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

    /// Open WebSocket sockets, including those the hub already let go (a slow consumer's socket
    /// stays open until its close frame is out or its writes' deadline passes).
    pub fn open_sockets(&self) -> usize {
        self.sockets.load(Ordering::Acquire)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Conn>> {
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a frame for one connection; a full queue closes it as a slow consumer.
    pub fn send_to(&self, id: u64, text: Utf8Bytes) {
        let bytes = text.len();
        self.offer_to(id, Outgoing::Frames(vec![text]), bytes);
    }

    /// Queues the newest state for one connection (its first frame, the answer to its
    /// heartbeat); a full queue closes it as a slow consumer.
    pub fn send_state_to(&self, id: u64) {
        let bytes = self.state.borrow().len();
        self.offer_to(id, Outgoing::State { bytes }, bytes);
    }

    fn offer_to(&self, id: u64, item: Outgoing, bytes: usize) {
        let mut conns = self.lock();
        if let Some(conn) = conns.get(&id)
            && !Self::offer(conn, item, bytes)
        {
            conns.remove(&id);
        }
    }

    /// Queues a frame for every connection. Never blocks.
    pub fn broadcast(&self, text: Utf8Bytes) {
        self.broadcast_batch(vec![text]);
    }

    /// Queues frames as one burst for every connection. Never blocks.
    pub fn broadcast_batch(&self, batch: Batch) {
        if batch.is_empty() {
            return;
        }
        let bytes: usize = batch.iter().map(|t| t.len()).sum();
        self.lock()
            .retain(|_, conn| Self::offer(conn, Outgoing::Frames(batch.clone()), bytes));
    }

    /// Tries to queue `item` of `bytes`; false when the connection is gone or was closed for
    /// being slow (its queue holds [`SEND_QUEUE_FRAMES`] bursts or [`MAX_QUEUED_BYTES`]).
    fn offer(conn: &Conn, item: Outgoing, bytes: usize) -> bool {
        let slow = |conn: &Conn| {
            let _ = conn.close.send(Some(CloseReason::SlowConsumer));
            false
        };
        // A burst bigger than the budget is still taken into an empty queue (a reader that
        // keeps up survives even a years-long advance); anything on top of it is not.
        let queued = conn.queued.load(Ordering::Relaxed);
        if queued > 0 && queued + bytes > MAX_QUEUED_BYTES {
            return slow(conn);
        }
        match conn.tx.try_send(item) {
            Ok(()) => {
                conn.queued.fetch_add(bytes, Ordering::Relaxed);
                true
            }
            Err(mpsc::error::TrySendError::Full(_)) => slow(conn),
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Publishes a new agent state: every connection's writer sends the newest one, at most
    /// once per [`STATE_INTERVAL`]. Callers publish in the order the states were made
    /// (`AgentStore` does so under its lock), so the newest is the last one.
    pub fn broadcast_state(&self, state: &protocol::agent::AgentState) {
        self.state.send_replace(state_frame(state));
    }

    /// Broadcasts one game event as an `event` frame.
    pub fn broadcast_event(&self, name: &str, day: u32, data: Option<Value>) {
        self.broadcast(event_frame(name, day, data));
    }

    /// Broadcasts game events, one `event` frame each, as one burst.
    pub fn broadcast_events<'a>(
        &self,
        events: impl IntoIterator<Item = (&'a str, u32, Option<Value>)>,
    ) {
        self.broadcast_batch(
            events
                .into_iter()
                .map(|(name, day, data)| event_frame(name, day, data))
                .collect(),
        );
    }

    /// Asks every connection to close (server shutdown).
    pub fn close_all(&self) {
        for conn in self.lock().values() {
            let _ = conn.close.send(Some(CloseReason::Shutdown));
        }
    }
}

/// An `event` frame's text.
fn event_frame(name: &str, day: u32, data: Option<Value>) -> Utf8Bytes {
    let payload = EventPayload {
        event: name.to_string(),
        day,
        timestamp: unix_now(),
        data: data.unwrap_or(Value::Null),
    };
    Frame::new(
        "event",
        serde_json::to_value(payload).expect("event payload serializes"),
    )
    .to_text()
    .into()
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

    /// The frames of a queue entry (panics on a state marker).
    fn frames(item: Outgoing) -> Batch {
        match item {
            Outgoing::Frames(batch) => batch,
            Outgoing::State { .. } => panic!("a state marker"),
        }
    }

    #[test]
    fn a_full_queue_closes_only_that_connection() {
        let hub = Hub::default();
        let mut fast = hub.register();
        let slow = hub.register();
        for i in 0..SEND_QUEUE_FRAMES {
            hub.broadcast(format!("{i}").into());
            // The fast consumer keeps up.
            assert_eq!(
                frames(fast.frames.try_recv().unwrap())[0].as_str(),
                format!("{i}")
            );
        }
        assert_eq!(hub.len(), 2);
        hub.broadcast("overflow".into());
        assert_eq!(*slow.close.borrow(), Some(CloseReason::SlowConsumer));
        assert_eq!(hub.len(), 1);
        assert_eq!(
            frames(fast.frames.try_recv().unwrap())[0].as_str(),
            "overflow"
        );
        assert_eq!(*fast.close.borrow(), None);
    }

    #[test]
    fn a_burst_is_one_entry_and_a_never_reader_is_closed_by_bytes() {
        let hub = Hub::default();
        let mut fast = hub.register();
        let never = hub.register();
        // One write's thousand events: one entry for the reader.
        let burst: Vec<(&str, u32, Option<Value>)> = (0..1000)
            .map(|i| ("planting.coords.set", 1, Some(serde_json::json!({"x": i}))))
            .collect();
        hub.broadcast_events(burst);
        let got = frames(fast.frames.try_recv().unwrap());
        assert_eq!(got.len(), 1000);
        fast.queued
            .fetch_sub(got.iter().map(|t| t.len()).sum(), Ordering::Relaxed);
        assert_eq!(hub.len(), 2, "nobody is closed by one burst");
        // A reader that never reads fills its byte budget and is closed; the reader stays.
        let big: Utf8Bytes = "x".repeat(1 << 20).into();
        for _ in 0..(MAX_QUEUED_BYTES >> 20) + 1 {
            hub.broadcast(big.clone());
            let b = frames(fast.frames.try_recv().unwrap());
            fast.queued.fetch_sub(b[0].len(), Ordering::Relaxed);
        }
        assert_eq!(*never.close.borrow(), Some(CloseReason::SlowConsumer));
        assert_eq!(*fast.close.borrow(), None);
        assert_eq!(hub.len(), 1);
    }

    #[test]
    fn states_skip_the_queues_and_the_newest_wins() {
        let hub = Hub::default();
        let mut reader = hub.register();
        let mut state = protocol::agent::AgentState {
            mode: Default::default(),
            goal: String::new(),
            ready: true,
            pending_request: None,
            agent_status: String::new(),
            last_error: None,
            epoch: "1".into(),
            connector_attached: true,
            last_heartbeat_at: None,
        };
        // A thousand state changes queue nothing and close nobody...
        for i in 0..1000 {
            state.agent_status = format!("status {i}");
            hub.broadcast_state(&state);
        }
        assert!(reader.frames.try_recv().is_err());
        assert_eq!(*reader.close.borrow(), None);
        // ... and the reader sees one change: the newest.
        assert!(reader.state.has_changed().unwrap());
        let newest = reader.state.borrow_and_update().clone();
        assert!(newest.as_str().contains("status 999"), "{newest}");
        assert!(!reader.state.has_changed().unwrap());
        // An answer to its own heartbeat is a marker in its queue, counted in its budget.
        hub.send_state_to(reader.id);
        match reader.frames.try_recv().unwrap() {
            Outgoing::State { bytes } => assert_eq!(bytes, newest.len()),
            other => panic!("{other:?}"),
        }
        assert_eq!(reader.queued.load(Ordering::Relaxed), newest.len());
    }
}

//! The agent-state store: mode, goal and lastError (persisted atomically to the state file), the
//! ready gate, the single pending-request slot with its epoch-scoped ids, the connector's status
//! and the action log. Every change is published to the hub (under the store's lock, so the
//! newest state is the last published), which sends it as a `state` frame.

use crate::hub::Hub;
use protocol::agent::{AgentMode, AgentState, PendingRequest, PersistedAgentState};
use protocol::error::{ApiError, ErrorCode};
use protocol::frame::HeartbeatPayload;
use serde::Serialize;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines kept in the action log.
pub const ACTION_LOG_LINES: usize = 500;
/// Longest action-log line in bytes (so the log holds at most 500 x 4 KiB).
pub const MAX_LOG_LINE_BYTES: usize = 4096;
/// Longest goal in bytes.
pub const MAX_GOAL_BYTES: usize = 4096;
/// Longest prompt in bytes.
pub const MAX_PROMPT_BYTES: usize = 65536;
/// Longest `agent_status` a heartbeat may set, in bytes (a longer one is ignored with an error
/// frame).
pub const MAX_STATUS_BYTES: usize = 4096;
/// Longest `last_error` a heartbeat may set, in bytes (likewise).
pub const MAX_LAST_ERROR_BYTES: usize = 4096;
/// Heartbeats write the state file at most once in this long: a change within it is written
/// when it ends (the newest state), and at shutdown. `POST /api/agent/config` always writes
/// before it answers.
pub const HEARTBEAT_WRITE_INTERVAL: Duration = Duration::from_secs(1);

/// One line of the action log.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct LogLine {
    /// Unix seconds.
    pub timestamp: i64,
    pub message: String,
}

struct Inner {
    state: AgentState,
    /// The id the next request gets (ids restart at 1 each epoch).
    next_id: u64,
    log: VecDeque<LogLine>,
    /// The attached connector: its WebSocket connection and its newest heartbeat.
    connector: Option<(u64, std::time::Instant)>,
}

/// The agent state shared by the HTTP routes and the WebSocket connections.
#[derive(Clone)]
pub struct AgentStore {
    inner: Arc<Mutex<Inner>>,
    /// Serializes file writes so the newest state always lands last.
    file_lock: Arc<Mutex<()>>,
    path: Arc<PathBuf>,
    hub: Hub,
    /// When the state file was last written.
    last_write: Arc<Mutex<Option<Instant>>>,
    /// A heartbeat's change waits for a deferred write (which takes the newest state).
    deferred: Arc<AtomicBool>,
    /// State-file writes so far.
    writes: Arc<AtomicU64>,
}

/// A connector that sent no heartbeat for this long is taken as gone (it sends one every 30 s;
/// the same silence makes it reconnect, `colony connect`).
pub const CONNECTOR_SILENCE: std::time::Duration = std::time::Duration::from_secs(75);

/// A fresh random epoch.
fn new_epoch() -> String {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).expect("the OS random source is available");
    u64::from_le_bytes(buf).to_string()
}

impl AgentStore {
    /// Opens the store, reading the persisted fields from `path` when the file exists.
    pub fn open(path: PathBuf, hub: Hub, ready: bool) -> (AgentStore, Option<String>) {
        let mut warning = None;
        let persisted = match std::fs::read(&path) {
            Ok(bytes) => {
                serde_json::from_slice::<PersistedAgentState>(&bytes).unwrap_or_else(|e| {
                    warning = Some(format!(
                        "agent state file {} is unreadable ({e}); starting from defaults",
                        path.display()
                    ));
                    PersistedAgentState::default()
                })
            }
            Err(_) => PersistedAgentState::default(),
        };
        let state = AgentState {
            mode: persisted.mode,
            goal: persisted.goal,
            ready,
            pending_request: None,
            agent_status: String::new(),
            last_error: persisted.last_error,
            epoch: new_epoch(),
            connector_attached: false,
            last_heartbeat_at: None,
        };
        let store = AgentStore {
            inner: Arc::new(Mutex::new(Inner {
                state,
                next_id: 1,
                log: VecDeque::new(),
                connector: None,
            })),
            file_lock: Arc::new(Mutex::new(())),
            path: Arc::new(path),
            hub,
            last_write: Arc::new(Mutex::new(None)),
            deferred: Arc::new(AtomicBool::new(false)),
            writes: Arc::new(AtomicU64::new(0)),
        };
        store.publish();
        (store, warning)
    }

    /// Publishes the current state to the WebSocket clients (`Hub::broadcast_state`), under the
    /// lock, so states are published in the order they were made and the hub's is the newest.
    pub fn publish(&self) {
        let inner = self.lock();
        self.hub.broadcast_state(&inner.state);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current state.
    pub fn state(&self) -> AgentState {
        self.lock().state.clone()
    }

    pub fn is_ready(&self) -> bool {
        self.lock().state.ready
    }

    /// Writes the persisted fields (atomic file write), newest state last.
    fn persist(&self) -> std::io::Result<()> {
        let _guard = self.file_lock.lock().unwrap_or_else(|e| e.into_inner());
        let state = self.state();
        let p = PersistedAgentState {
            mode: state.mode,
            goal: state.goal,
            last_error: state.last_error,
        };
        let bytes = serde_json::to_vec_pretty(&p).expect("agent state serializes");
        crate::fsutil::write_atomic(&self.path, &bytes)?;
        self.writes.fetch_add(1, Ordering::Relaxed);
        *self.last_write.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        Ok(())
    }

    /// How many times the state file has been written.
    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }

    /// Writes a heartbeat's change: now when the last write is [`HEARTBEAT_WRITE_INTERVAL`] old,
    /// else once when that interval ends, with the newest state then (one deferred write however
    /// many changes come meanwhile).
    async fn persist_coalesced(&self) {
        let since = *self.last_write.lock().unwrap_or_else(|e| e.into_inner());
        let wait = since.map_or(Duration::ZERO, |t| {
            HEARTBEAT_WRITE_INTERVAL.saturating_sub(t.elapsed())
        });
        if wait.is_zero() && !self.deferred.load(Ordering::SeqCst) {
            if let Err(e) = self.persist_async().await {
                tracing::error!("{e}");
            }
            return;
        }
        if self.deferred.swap(true, Ordering::SeqCst) {
            return;
        }
        let store = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            // Cleared before the write reads the state: a later change schedules its own.
            store.deferred.store(false, Ordering::SeqCst);
            if let Err(e) = store.persist_async().await {
                tracing::error!("{e}");
            }
        });
    }

    /// Writes a change still waiting for its deferred write (at shutdown).
    pub fn flush(&self) -> std::io::Result<()> {
        if self.deferred.swap(false, Ordering::SeqCst) {
            self.persist()?;
        }
        Ok(())
    }

    /// Persists on a blocking thread; the caller's response waits for the write to be durable.
    async fn persist_async(&self) -> Result<(), ApiError> {
        let store = self.clone();
        match tokio::task::spawn_blocking(move || store.persist()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(ApiError::new(
                ErrorCode::OperationFailed,
                format!(
                    "the agent state could not be saved to {}: {e}",
                    self.path.display()
                ),
            )),
            Err(e) => Err(ApiError::new(
                ErrorCode::InternalError,
                format!("agent state writer failed: {e}"),
            )),
        }
    }

    /// Applies `POST /api/agent/config`. `last_error`: `Some(None)` clears it.
    pub async fn configure(
        &self,
        mode: Option<AgentMode>,
        goal: Option<String>,
        last_error: Option<Option<String>>,
    ) -> Result<AgentState, ApiError> {
        let (state, changed) = {
            let mut inner = self.lock();
            let before = inner.state.clone();
            if let Some(m) = mode {
                inner.state.mode = m;
            }
            if let Some(g) = goal {
                inner.state.goal = g;
            }
            if let Some(e) = last_error {
                inner.state.last_error = e;
            }
            (inner.state.clone(), inner.state != before)
        };
        if changed {
            self.persist_async().await?;
            self.publish();
        }
        Ok(state)
    }

    /// Applies `POST /api/agent/request`: fills the slot, or refuses when it is full unless
    /// `replace` is set. Returns the new request and the one it replaced, if any.
    pub fn request(
        &self,
        prompt: String,
        replace: bool,
    ) -> Result<(PendingRequest, Option<PendingRequest>), ApiError> {
        let (req, replaced) = {
            let mut inner = self.lock();
            let waiting = inner.state.pending_request.clone();
            if let Some(w) = &waiting
                && !replace
            {
                return Err(ApiError::new(
                    ErrorCode::RequestPending,
                    format!(
                        "request {} is still waiting for the connector; wait for its ack, or send \"replace\": true to replace it",
                        w.id
                    ),
                )
                .with("pendingRequest", serde_json::to_value(w).expect("serializes")));
            }
            let req = PendingRequest {
                id: inner.next_id,
                prompt,
            };
            inner.next_id += 1;
            inner.state.pending_request = Some(req.clone());
            self.hub.broadcast_state(&inner.state);
            (req, waiting)
        };
        Ok((req, replaced))
    }

    /// Opens or closes the ready gate.
    pub fn set_ready(&self, ready: bool) -> bool {
        let mut inner = self.lock();
        if inner.state.ready != ready {
            inner.state.ready = ready;
            self.hub.broadcast_state(&inner.state);
        }
        ready
    }

    /// Applies a heartbeat from WebSocket connection `conn`, which becomes the attached
    /// connector, and publishes the state if it changed. Returns the state afterwards and
    /// whether it changed (the heartbeat's time alone is no change).
    pub async fn heartbeat(&self, hb: &HeartbeatPayload, conn: u64) -> (AgentState, bool) {
        let (state, changed, persist) = {
            let mut inner = self.lock();
            let mut before = inner.state.clone();
            inner.connector = Some((conn, std::time::Instant::now()));
            inner.state.connector_attached = true;
            inner.state.last_heartbeat_at = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .ok()
                .map(|d| d.as_secs());
            before.last_heartbeat_at = inner.state.last_heartbeat_at;
            if let Some(status) = hb.agent_status.as_deref().filter(|s| !s.is_empty()) {
                inner.state.agent_status = status.to_string();
            }
            let epoch_ok = hb.epoch.as_deref().is_none_or(|e| e == inner.state.epoch);
            if let (Some(ack), Some(pending), true) =
                (hb.acked_request_id, &inner.state.pending_request, epoch_ok)
                && ack >= pending.id
            {
                inner.state.pending_request = None;
            }
            if let Some(e) = &hb.last_error {
                inner.state.last_error = e.clone();
            }
            let persist = inner.state.last_error != before.last_error;
            let changed = inner.state != before;
            if changed {
                self.hub.broadcast_state(&inner.state);
            }
            (inner.state.clone(), changed, persist)
        };
        if persist {
            self.persist_coalesced().await;
        }
        (state, changed)
    }

    /// The connector is gone: its connection `conn` closed (or, with `conn` None, it sent no
    /// heartbeat for [`CONNECTOR_SILENCE`]). Its status is cleared so no stale "idle" stays.
    pub fn connector_left(&self, conn: Option<u64>) {
        let mut inner = self.lock();
        let gone = match (inner.connector, conn) {
            (Some((c, _)), Some(closed)) => c == closed,
            (Some((_, at)), None) => at.elapsed() > CONNECTOR_SILENCE,
            (None, _) => false,
        };
        if !gone {
            return;
        }
        inner.connector = None;
        inner.state.connector_attached = false;
        inner.state.agent_status.clear();
        self.hub.broadcast_state(&inner.state);
    }

    /// After a game load (or new game): gate closed, slot empty, status cleared, ids restart,
    /// new epoch, and the action log (memory-only, about the game that was) emptied. Persisted
    /// fields are kept.
    pub fn reset_for_load(&self) {
        let mut inner = self.lock();
        inner.log.clear();
        inner.state.ready = false;
        inner.state.pending_request = None;
        inner.state.agent_status.clear();
        inner.state.epoch = new_epoch();
        inner.next_id = 1;
        self.hub.broadcast_state(&inner.state);
    }

    /// Appends a line to the action log (when enabled).
    pub fn log_message(&self, message: String) -> LogLine {
        let line = LogLine {
            timestamp: crate::hub::unix_now(),
            message,
        };
        let mut inner = self.lock();
        inner.log.push_back(line.clone());
        while inner.log.len() > ACTION_LOG_LINES {
            inner.log.pop_front();
        }
        line
    }

    /// The action log, oldest first.
    pub fn log(&self) -> Vec<LogLine> {
        self.lock().log.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (AgentStore, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let (s, _) = AgentStore::open(dir.path().join("agent.json"), Hub::default(), false);
        (s, dir)
    }

    #[tokio::test]
    async fn pending_slot_refuses_then_replaces_and_acks_clear_it() {
        let (s, _d) = store();
        let (r1, none) = s.request("first".into(), false).unwrap();
        assert_eq!((r1.id, none), (1, None));
        let err = s.request("second".into(), false).unwrap_err();
        assert_eq!(err.code, ErrorCode::RequestPending);
        assert_eq!(err.extras["pendingRequest"]["id"], 1);
        let (r2, replaced) = s.request("second".into(), true).unwrap();
        assert_eq!(r2.id, 2);
        assert_eq!(replaced.unwrap().prompt, "first");
        // The first heartbeat attaches the connector (a change).
        let (st, changed) = s.heartbeat(&HeartbeatPayload::default(), 1).await;
        assert!(changed && st.connector_attached && st.last_heartbeat_at.is_some());
        // An ack below the id or from another epoch does not clear.
        let (st, changed) = s
            .heartbeat(
                &HeartbeatPayload {
                    acked_request_id: Some(1),
                    ..Default::default()
                },
                1,
            )
            .await;
        assert!(!changed && st.pending_request.is_some());
        let other = HeartbeatPayload {
            acked_request_id: Some(2),
            epoch: Some("0".into()),
            ..Default::default()
        };
        assert!(s.heartbeat(&other, 1).await.0.pending_request.is_some());
        let ok = HeartbeatPayload {
            acked_request_id: Some(2),
            epoch: Some(st.epoch.clone()),
            ..Default::default()
        };
        let (st, changed) = s.heartbeat(&ok, 1).await;
        assert!(changed && st.pending_request.is_none());
    }

    #[tokio::test]
    async fn a_connector_is_attached_by_its_heartbeats_and_detached_when_its_connection_closes() {
        let dir = tempfile::tempdir().unwrap();
        let (s, _) = AgentStore::open(dir.path().join("agent.json"), Hub::default(), true);
        assert!(!s.state().connector_attached);
        let hb = HeartbeatPayload {
            agent_status: Some("idle".into()),
            ..Default::default()
        };
        s.heartbeat(&hb, 7).await;
        assert!(s.state().connector_attached);
        assert_eq!(s.state().agent_status, "idle");
        // Another connection closing, or a recent heartbeat, changes nothing.
        s.connector_left(Some(8));
        s.connector_left(None);
        assert!(s.state().connector_attached);
        // Its own connection closing detaches it and clears the stale status.
        s.connector_left(Some(7));
        let st = s.state();
        assert!(!st.connector_attached && st.agent_status.is_empty());
        assert!(
            st.last_heartbeat_at.is_some(),
            "when it was last heard stays known"
        );
    }

    #[tokio::test]
    async fn heartbeat_errors_are_written_at_most_once_an_interval_and_the_newest_lands() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agent.json");
        let (s, _) = AgentStore::open(path.clone(), Hub::default(), false);
        let beat = |i: usize| HeartbeatPayload {
            last_error: Some(Some(format!("error {i}"))),
            ..Default::default()
        };
        let read = || {
            let p: PersistedAgentState =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            p.last_error
        };
        for i in 0..200 {
            s.heartbeat(&beat(i), 1).await;
        }
        // The first change is written at once, the other 199 by one deferred write.
        assert_eq!(s.writes(), 1, "a burst of changes is not written each time");
        assert_eq!(read(), Some("error 0".into()));
        tokio::time::sleep(HEARTBEAT_WRITE_INTERVAL + Duration::from_millis(300)).await;
        assert_eq!(s.writes(), 2);
        assert_eq!(read(), Some("error 199".into()), "the newest state lands");
        // A change waiting for its interval is written by a flush (shutdown).
        s.heartbeat(&beat(500), 1).await;
        s.flush().unwrap();
        assert_eq!(read(), Some("error 500".into()));
        let after = s.writes();
        tokio::time::sleep(HEARTBEAT_WRITE_INTERVAL + Duration::from_millis(300)).await;
        assert!(s.writes() <= after + 1);
        assert_eq!(read(), Some("error 500".into()));
    }

    #[tokio::test]
    async fn persisted_fields_survive_reopen_and_memory_fields_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agent.json");
        let (s, _) = AgentStore::open(path.clone(), Hub::default(), false);
        s.configure(Some(AgentMode::Autonomous), Some("grow".into()), None)
            .await
            .unwrap();
        s.heartbeat(
            &HeartbeatPayload {
                agent_status: Some("running".into()),
                last_error: Some(Some("boom".into())),
                ..Default::default()
            },
            1,
        )
        .await;
        s.set_ready(true);
        s.request("p".into(), false).unwrap();
        // The heartbeat came within a write interval of the configure: its change is written
        // when the interval ends, or at shutdown, as here.
        s.flush().unwrap();
        let (again, warn) = AgentStore::open(path, Hub::default(), false);
        assert!(warn.is_none());
        let st = again.state();
        assert_eq!(
            (st.mode, st.goal.as_str(), st.last_error.as_deref()),
            (AgentMode::Autonomous, "grow", Some("boom"))
        );
        assert!(!st.ready && st.pending_request.is_none() && st.agent_status.is_empty());
        assert_ne!(st.epoch, s.state().epoch);
    }

    #[tokio::test]
    async fn reset_for_load_restarts_ids_and_changes_epoch() {
        let (s, _d) = store();
        s.set_ready(true);
        s.request("a".into(), false).unwrap();
        s.log_message("placed a pump".into());
        let epoch = s.state().epoch;
        s.reset_for_load();
        let st = s.state();
        assert!(!st.ready && st.pending_request.is_none());
        assert!(s.log().is_empty(), "the old game's action log is gone");
        assert_ne!(st.epoch, epoch);
        assert_eq!(s.request("b".into(), false).unwrap().0.id, 1);
    }
}

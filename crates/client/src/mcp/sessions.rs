//! The sessions of `colony mcp --http`, bounded: rmcp's `LocalSessionManager` keeps every session
//! until its client deletes it or it has been idle for `keep_alive` (which also ends a session in
//! the middle of a tool call longer than that), and has no cap. This wrapper keeps at most
//! `max` sessions (a new one closes the session used least recently that has no request in
//! progress; when every session has one, the new one is refused) and closes a session nobody has
//! used for `idle` (never while one of its requests is in progress). A closed session's client
//! gets 404 for its next request and, per the MCP specification, starts a new session.

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use rmcp::transport::streamable_http_server::{RestoreOutcome, SessionManager};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// How many sessions, and for how long an unused one is kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub max: usize,
    pub idle: Duration,
}

impl Limits {
    pub const DEFAULT_MAX: usize = 100;
    pub const DEFAULT_IDLE: Duration = Duration::from_secs(30 * 60);
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max: Limits::DEFAULT_MAX,
            idle: Limits::DEFAULT_IDLE,
        }
    }
}

/// What a session's use looks like to the cap and the expiry.
struct Use {
    /// Requests whose answer stream is open.
    open: AtomicUsize,
    /// The last request, or the end of one, in microseconds since the manager's `epoch`.
    last: AtomicU64,
}

/// Why a session could not be made or used.
#[derive(Debug)]
pub enum SessionsError {
    Local(LocalSessionManagerError),
    /// Every one of the `max` sessions has a request in progress.
    Full {
        max: usize,
    },
}

impl std::fmt::Display for SessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionsError::Local(e) => e.fmt(f),
            SessionsError::Full { max } => write!(f, "{}", full_text(*max)),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(e: LocalSessionManagerError) -> SessionsError {
        SessionsError::Local(e)
    }
}

/// The refusal of a new session at the cap.
pub fn full_text(max: usize) -> String {
    format!(
        "too many MCP sessions: all {max} (--max-sessions) have a request in progress; retry \
         in a moment, or close a session you no longer use (HTTP DELETE with its Mcp-Session-Id)"
    )
}

/// rmcp's local session manager with a cap and an idle expiry.
pub struct CappedSessions {
    inner: LocalSessionManager,
    limits: Limits,
    epoch: Instant,
    table: Mutex<HashMap<SessionId, Arc<Use>>>,
}

impl CappedSessions {
    pub fn new(limits: Limits) -> CappedSessions {
        let mut inner = LocalSessionManager::default();
        // The expiry is ours (`expire_idle`): rmcp's keep-alive would also end a session whose
        // tool call takes longer than it.
        inner.session_config.keep_alive = None;
        CappedSessions {
            inner,
            limits,
            epoch: Instant::now(),
            table: Mutex::new(HashMap::new()),
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn now_us(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Arc<Use>>> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many sessions are open.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether a new session can be made now (under the cap, or a session without a request in
    /// progress can be closed for it).
    pub fn has_room(&self) -> bool {
        let table = self.lock();
        table.len() < self.limits.max || table.values().any(|u| u.open.load(Ordering::Acquire) == 0)
    }

    fn touch(&self, id: &SessionId) {
        if let Some(u) = self.lock().get(id) {
            u.last.store(self.now_us(), Ordering::Relaxed);
        }
    }

    /// Counts a request in progress until the returned guard is dropped.
    fn enter(&self, id: &SessionId) -> Option<Busy> {
        let u = self.lock().get(id).cloned()?;
        u.open.fetch_add(1, Ordering::AcqRel);
        u.last.store(self.now_us(), Ordering::Relaxed);
        Some(Busy {
            session: u,
            epoch: self.epoch,
        })
    }

    /// Takes out of the table, least recently used first, the sessions without a request in
    /// progress (other than `new`) that must go to bring the count down to `keep`; returns them.
    fn pick_victims(
        table: &mut HashMap<SessionId, Arc<Use>>,
        keep: usize,
        new: &SessionId,
    ) -> Vec<SessionId> {
        if table.len() <= keep {
            return Vec::new();
        }
        let mut idle: Vec<(u64, SessionId)> = table
            .iter()
            .filter(|(id, u)| *id != new && u.open.load(Ordering::Acquire) == 0)
            .map(|(id, u)| (u.last.load(Ordering::Relaxed), id.clone()))
            .collect();
        idle.sort();
        let victims: Vec<SessionId> = idle
            .into_iter()
            .take(table.len() - keep)
            .map(|(_, id)| id)
            .collect();
        for id in &victims {
            table.remove(id);
        }
        victims
    }

    async fn close_all(&self, ids: Vec<SessionId>) {
        for id in ids {
            if let Err(e) = self.inner.close_session(&id).await {
                eprintln!("colony mcp: closing session {id}: {e}");
            }
        }
    }

    /// Closes the sessions unused for longer than the idle limit (none with a request in
    /// progress); returns how many.
    pub async fn expire_idle(&self) -> usize {
        let limit = self.limits.idle.as_micros() as u64;
        let now = self.now_us();
        let expired: Vec<SessionId> = {
            let mut table = self.lock();
            let ids: Vec<SessionId> = table
                .iter()
                .filter(|(_, u)| {
                    u.open.load(Ordering::Acquire) == 0
                        && now.saturating_sub(u.last.load(Ordering::Relaxed)) >= limit
                })
                .map(|(id, _)| id.clone())
                .collect();
            for id in &ids {
                table.remove(id);
            }
            ids
        };
        let n = expired.len();
        self.close_all(expired).await;
        n
    }
}

/// A request in progress in a session (its answer stream is open).
struct Busy {
    session: Arc<Use>,
    epoch: Instant,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.session
            .last
            .store(self.epoch.elapsed().as_micros() as u64, Ordering::Relaxed);
        self.session.open.fetch_sub(1, Ordering::AcqRel);
    }
}

type SseStream = Pin<Box<dyn Stream<Item = ServerSseMessage> + Send + Sync + 'static>>;

/// An answer stream that counts as a request in progress while it is open.
struct Tracked {
    inner: SseStream,
    _busy: Option<Busy>,
}

impl Stream for Tracked {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl SessionManager for CappedSessions {
    type Error = SessionsError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionsError> {
        let (id, transport) = self.inner.create_session().await?;
        let (victims, full) = {
            let mut table = self.lock();
            table.insert(
                id.clone(),
                Arc::new(Use {
                    open: AtomicUsize::new(0),
                    last: AtomicU64::new(self.now_us()),
                }),
            );
            let victims = Self::pick_victims(&mut table, self.limits.max, &id);
            let full = table.len() > self.limits.max;
            if full {
                table.remove(&id);
            }
            (victims, full)
        };
        self.close_all(victims).await;
        if full {
            // Every other session has a request in progress: the new one goes.
            self.close_all(vec![id]).await;
            return Err(SessionsError::Full {
                max: self.limits.max,
            });
        }
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, SessionsError> {
        let _busy = self.enter(id);
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionsError> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), SessionsError> {
        self.lock().remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        let busy = self.enter(id);
        let inner = self.inner.create_stream(id, message).await?;
        Ok(Tracked {
            inner: Box::pin(inner),
            _busy: busy,
        })
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), SessionsError> {
        self.touch(id);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        // A client may hold this stream open for the whole session: it is use, not work in
        // progress.
        self.touch(id);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        let busy = self.enter(id);
        let inner = self.inner.resume(id, last_event_id).await?;
        Ok(Tracked {
            inner: Box::pin(inner),
            _busy: busy,
        })
    }

    async fn restore_session(
        &self,
        _id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, SessionsError> {
        // No external session store is configured: a session lives in this process only.
        Ok(RestoreOutcome::NotSupported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sessions(max: usize, idle_ms: u64) -> CappedSessions {
        CappedSessions::new(Limits {
            max,
            idle: Duration::from_millis(idle_ms),
        })
    }

    #[tokio::test]
    async fn the_cap_closes_the_least_recently_used_session_without_a_request_in_progress() {
        let s = sessions(2, 60_000);
        let (a, _ta) = s.create_session().await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let (b, _tb) = s.create_session().await.unwrap();
        // `a` is the oldest, but has a request in progress: `b` goes instead.
        let busy = s.enter(&a);
        let (c, _tc) = s.create_session().await.unwrap();
        assert!(s.inner.has_session(&a).await.unwrap());
        assert!(!s.inner.has_session(&b).await.unwrap());
        assert!(s.inner.has_session(&c).await.unwrap());
        assert_eq!(s.len(), 2);
        // Both left have a request in progress: a new session is refused.
        let _busy_c = s.enter(&c);
        assert!(!s.has_room());
        assert!(matches!(
            s.create_session().await,
            Err(SessionsError::Full { max: 2 })
        ));
        assert_eq!(s.len(), 2);
        assert_eq!(s.inner.sessions.read().await.len(), 2);
        drop(busy);
        assert!(s.has_room());
        let (d, _td) = s.create_session().await.unwrap();
        assert!(!s.inner.has_session(&a).await.unwrap());
        assert!(s.inner.has_session(&d).await.unwrap());
    }

    #[tokio::test]
    async fn idle_sessions_expire_but_not_while_a_request_is_in_progress() {
        let s = sessions(10, 30);
        let (a, _ta) = s.create_session().await.unwrap();
        let (b, _tb) = s.create_session().await.unwrap();
        let busy = s.enter(&b);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(s.expire_idle().await, 1);
        assert!(!s.inner.has_session(&a).await.unwrap());
        assert!(s.inner.has_session(&b).await.unwrap());
        // The end of its request counts as use.
        drop(busy);
        assert_eq!(s.expire_idle().await, 0);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(s.expire_idle().await, 1);
        assert_eq!(s.len(), 0);
    }
}

//! The accept loop of both listeners, with the connection limits of docs/security.md:
//!
//! - **Idle and slow-header timeout** (`httpIdleSeconds`): a connection must send a whole request
//!   head within that time of opening or of finishing its previous request, or it is closed. So
//!   neither a silent socket nor a keep-alive connection left open holds a file descriptor
//!   forever.
//! - **Slow-body timeout** (`httpBodySeconds`): a request's whole body must arrive within that
//!   time of its head. A handler still waiting for it then gets a [`BodyTimeout`] error, which
//!   `http::body` answers with 408 `request_timeout`, and the connection closes after that answer.
//! - **Connection cap** (`maxConnections`, per listener): at the cap, a new connection evicts the
//!   connection that has waited longest for its client: one with no request in flight (idle, or
//!   not yet sent its first request head) or one whose handler waits for the rest of a request
//!   body, whichever made progress (opened, sent a head or body bytes, got its answer) longest
//!   ago. So a fresh client is always served while sockets that only sit there, or trickle a body,
//!   are the ones to go. A connection whose request is being worked on is never evicted; if every
//!   connection is, the new one is closed at once.
//!
//! Every request carries its peer's address (`ConnectInfo<SocketAddr>`) and a [`Stall`] handle:
//! a 401 slowed for repeated failures (`http::auth_throttle`) marks its connection as waiting for
//! its client while it waits, so the cap may close it.
//!
//! A WebSocket leaves this accounting once it is upgraded (the hub and its pings look after it;
//! `ws` refuses an upgrade while `maxConnections` WebSockets are open).

use crate::settings::SettingsStore;
use axum::Router;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderValue, header};
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower_service::Service;

/// What the cap knows of one open connection, kept up to date by its task and its request bodies.
struct Activity {
    /// Requests of this connection being answered right now.
    busy: AtomicUsize,
    /// The request's handler waits for more of its body (the connection may be evicted then).
    body_wait: AtomicBool,
    /// The request's body came too late: its answer closes the connection.
    body_timed_out: AtomicBool,
    /// The request's answer is held back on purpose (a slowed 401): nothing is being worked on.
    stalled: AtomicBool,
    /// When the client last made progress (opened the connection, sent a request head or body
    /// bytes, got its answer), in milliseconds since `epoch`.
    last_progress: AtomicU64,
    /// The listener's start.
    epoch: Instant,
}

impl Activity {
    fn new(epoch: Instant) -> Activity {
        let a = Activity {
            busy: AtomicUsize::new(0),
            body_wait: AtomicBool::new(false),
            body_timed_out: AtomicBool::new(false),
            stalled: AtomicBool::new(false),
            last_progress: AtomicU64::new(0),
            epoch,
        };
        a.touch();
        a
    }

    fn touch(&self) {
        self.last_progress
            .store(self.epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// Idle, waiting for its client to send the rest of a body, or holding back a slowed
    /// answer: closing it loses no work.
    fn evictable(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0
            || self.body_wait.load(Ordering::Acquire)
            || self.stalled.load(Ordering::Acquire)
    }
}

/// A request's handle on its connection's accounting, in the request's extensions: a handler that
/// holds its answer back on purpose says so, and the connection may then be closed to make room.
#[derive(Clone)]
pub struct Stall(Arc<Activity>);

impl Stall {
    /// The connection counts as waiting for its client until the guard is dropped.
    pub fn begin(&self) -> StallGuard {
        self.0.stalled.store(true, Ordering::Release);
        StallGuard(self.0.clone())
    }
}

/// Ends a [`Stall`] when dropped.
pub struct StallGuard(Arc<Activity>);

impl Drop for StallGuard {
    fn drop(&mut self) {
        self.0.stalled.store(false, Ordering::Release);
    }
}

/// One open connection as the cap sees it.
struct Entry {
    activity: Arc<Activity>,
    /// Notified to close the connection (eviction).
    evict: Arc<Notify>,
}

/// The open connections of one listener (ids grow with the opening order).
#[derive(Clone, Default)]
struct Registry {
    open: Arc<Mutex<BTreeMap<u64, Entry>>>,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes room for one more connection under `cap`: when at the cap, takes the connection
    /// that has waited longest for its client out of the count and tells it to close. False when
    /// every connection has a request being worked on.
    fn make_room(&self, cap: usize) -> bool {
        let mut open = self.lock();
        if open.len() < cap {
            return true;
        }
        self.evict_most_stalled(&mut open)
    }

    /// Closes the evictable connection (idle, or waiting for a request body) whose client made
    /// progress longest ago, the oldest first among equals; false if there is none.
    fn evict_most_stalled(&self, open: &mut BTreeMap<u64, Entry>) -> bool {
        let Some(id) = open
            .iter()
            .filter(|(_, e)| e.activity.evictable())
            .min_by_key(|(id, e)| (e.activity.last_progress.load(Ordering::Relaxed), **id))
            .map(|(id, _)| *id)
        else {
            return false;
        };
        if let Some(e) = open.remove(&id) {
            e.evict.notify_one();
        }
        true
    }
}

/// Serves `router` on `listener` until the task is dropped.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    settings: SettingsStore,
    what: &'static str,
) {
    let registry = Registry::default();
    let epoch = Instant::now();
    let mut next_id: u64 = 0;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(conn) => conn,
            Err(e) => {
                // Out of file descriptors (the cap is above the process's limit): free one held
                // by an idle or stalled connection, and wait a little instead of spinning.
                let freed = registry.evict_most_stalled(&mut registry.lock());
                tracing::warn!(
                    "{what}: accept failed: {e}{}",
                    if freed {
                        "; closed the connection that waited longest for its client (lower maxConnections below the open-files limit)"
                    } else {
                        ""
                    }
                );
                tokio::time::sleep(Duration::from_millis(if freed { 1 } else { 50 })).await;
                continue;
            }
        };
        let s = settings.get();
        let cap = s.max_connections;
        let idle = Duration::from_secs(u64::from(s.http_idle_seconds));
        let body_limit = Duration::from_secs(u64::from(s.http_body_seconds));
        drop(s);
        if !registry.make_room(cap) {
            tracing::warn!(
                "{what}: {cap} connections, all with a request being answered; closing a new one (maxConnections)"
            );
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        next_id += 1;
        let id = next_id;
        let activity = Arc::new(Activity::new(epoch));
        let evict = Arc::new(Notify::new());
        registry.lock().insert(
            id,
            Entry {
                activity: activity.clone(),
                evict: evict.clone(),
            },
        );
        let registry = registry.clone();
        let router = router.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                let mut router = router.clone();
                let guard = BusyGuard::enter(activity.clone());
                let activity = activity.clone();
                let mut req = req.map(|body| {
                    if body.is_end_stream() {
                        axum::body::Body::new(body)
                    } else {
                        axum::body::Body::new(DeadlineBody::new(body, activity.clone(), body_limit))
                    }
                });
                req.extensions_mut().insert(ConnectInfo(peer));
                req.extensions_mut().insert(Stall(activity.clone()));
                async move {
                    let mut resp = router.call(req).await;
                    if activity.body_timed_out.load(Ordering::Acquire)
                        && let Ok(resp) = &mut resp
                    {
                        resp.headers_mut()
                            .insert(header::CONNECTION, HeaderValue::from_static("close"));
                    }
                    drop(guard);
                    resp
                }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(idle);
            let conn = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::select! {
                r = conn => {
                    if let Err(e) = r {
                        tracing::debug!("{what}: connection ended: {e}");
                    }
                }
                _ = evict.notified() => {
                    tracing::debug!("{what}: stalled connection closed to make room (maxConnections)");
                }
            }
            registry.lock().remove(&id);
        });
    }
}

/// Counts a request in flight for as long as it lives (a dropped future counts as done); its
/// start and its end are progress of the client.
struct BusyGuard(Arc<Activity>);

impl BusyGuard {
    fn enter(activity: Arc<Activity>) -> BusyGuard {
        activity.body_timed_out.store(false, Ordering::Release);
        activity.touch();
        activity.busy.fetch_add(1, Ordering::AcqRel);
        BusyGuard(activity)
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The error a request body gives when it did not arrive whole within `httpBodySeconds` of the
/// request head.
#[derive(Debug)]
pub struct BodyTimeout {
    pub seconds: u64,
}

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body did not arrive within {} s of its head",
            self.seconds
        )
    }
}

impl std::error::Error for BodyTimeout {}

/// The [`BodyTimeout`] in an error's chain of sources, if any.
pub fn body_timeout<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a BodyTimeout> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(t) = err.downcast_ref::<BodyTimeout>() {
            return Some(t);
        }
        cur = err.source();
    }
    None
}

/// A request body that must arrive whole by a deadline set when its head came. While its reader
/// waits for more, the connection counts as waiting for its client (evictable at the cap); bytes
/// arriving count as the client's progress.
struct DeadlineBody {
    inner: Incoming,
    activity: Arc<Activity>,
    deadline: tokio::time::Instant,
    seconds: u64,
    /// Started the first time the reader has to wait.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    finished: bool,
}

impl DeadlineBody {
    fn new(inner: Incoming, activity: Arc<Activity>, limit: Duration) -> DeadlineBody {
        DeadlineBody {
            inner,
            activity,
            deadline: tokio::time::Instant::now() + limit,
            seconds: limit.as_secs(),
            timer: None,
            finished: false,
        }
    }

    fn finish(&mut self) {
        self.finished = true;
        self.activity.body_wait.store(false, Ordering::Release);
    }
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if this.finished {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                this.activity.touch();
                if this.inner.is_end_stream() {
                    this.finish();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.finish();
                Poll::Ready(Some(Err(e.into())))
            }
            Poll::Ready(None) => {
                this.finish();
                Poll::Ready(None)
            }
            Poll::Pending => {
                this.activity.body_wait.store(true, Ordering::Release);
                let deadline = this.deadline;
                let timer = this
                    .timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
                if timer.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                this.finish();
                this.activity.body_timed_out.store(true, Ordering::Release);
                Poll::Ready(Some(Err(Box::new(BodyTimeout {
                    seconds: this.seconds,
                }))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.finished || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        if self.finished {
            SizeHint::with_exact(0)
        } else {
            self.inner.size_hint()
        }
    }
}

impl Drop for DeadlineBody {
    fn drop(&mut self) {
        // A handler that drops the body unread no longer waits for it.
        self.activity.body_wait.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_evicts_the_most_stalled_idle_or_body_waiting_connection_never_a_busy_one() {
        let registry = Registry::default();
        let epoch = Instant::now();
        // (id, requests in flight, waits for its body, last progress in ms)
        for (id, busy, body_wait, at) in [(1, 0, false, 100), (2, 1, false, 0), (3, 1, true, 50)] {
            let activity = Arc::new(Activity::new(epoch));
            activity.busy.store(busy, Ordering::Relaxed);
            activity.body_wait.store(body_wait, Ordering::Relaxed);
            activity.last_progress.store(at, Ordering::Relaxed);
            let evict = Arc::new(Notify::new());
            registry.lock().insert(id, Entry { activity, evict });
        }
        // 2 is busy (its request is being answered) though stalled longest: never evicted. 3
        // waits for its body since 50 ms, 1 is idle since 100 ms.
        assert!(registry.make_room(3));
        assert_eq!(registry.lock().keys().copied().collect::<Vec<_>>(), [1, 2]);
        assert!(registry.make_room(2));
        assert_eq!(registry.lock().keys().copied().collect::<Vec<_>>(), [2]);
        assert!(!registry.make_room(1), "only a busy connection is left");
        assert!(registry.make_room(2), "under the cap");
    }

    #[test]
    fn a_connection_whose_answer_is_held_back_on_purpose_may_be_evicted() {
        let activity = Arc::new(Activity::new(Instant::now()));
        activity.busy.store(1, Ordering::Relaxed);
        assert!(!activity.evictable());
        let guard = Stall(activity.clone()).begin();
        assert!(activity.evictable(), "a slowed 401 is not work in progress");
        drop(guard);
        assert!(!activity.evictable());
    }
}

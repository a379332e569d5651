//! The accept loop of both listeners, with the connection limits of docs/security.md:
//!
//! - **Idle and slow-header timeout** (`httpIdleSeconds`): a connection must send a whole request
//!   head within that time of opening or of finishing its previous request, or it is closed. So
//!   neither a silent socket nor a keep-alive connection left open holds a file descriptor
//!   forever.
//! - **Connection cap** (`maxConnections`, per listener): at the cap, a new connection evicts the
//!   longest-open connection that has no request in flight, so a fresh client is always served
//!   while sockets that only sit there are the ones to go. If every connection is busy the new one
//!   is closed at once.
//!
//! A WebSocket leaves this accounting once it is upgraded (the hub and its pings look after it;
//! `ws` refuses an upgrade while `maxConnections` WebSockets are open).

use crate::settings::SettingsStore;
use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower_service::Service;

/// One open connection as the cap sees it.
struct Entry {
    /// Requests of this connection being answered right now.
    busy: Arc<AtomicUsize>,
    /// Notified to close the connection (eviction).
    evict: Arc<Notify>,
}

/// The open connections of one listener, oldest first (ids grow).
#[derive(Clone, Default)]
struct Registry {
    open: Arc<Mutex<BTreeMap<u64, Entry>>>,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes room for one more connection under `cap`: when at the cap, takes the oldest idle
    /// connection out of the count and tells it to close. False when every connection is busy.
    fn make_room(&self, cap: usize) -> bool {
        let mut open = self.lock();
        if open.len() < cap {
            return true;
        }
        self.evict_oldest_idle(&mut open)
    }

    /// Closes the oldest connection with no request in flight; false if there is none.
    fn evict_oldest_idle(&self, open: &mut BTreeMap<u64, Entry>) -> bool {
        let Some(id) = open
            .iter()
            .find(|(_, e)| e.busy.load(Ordering::Acquire) == 0)
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
    let mut next_id: u64 = 0;
    loop {
        let (stream, _peer) = match listener.accept().await {
            Ok(conn) => conn,
            Err(e) => {
                // Out of file descriptors (the cap is above the process's limit): free one held
                // by an idle connection, and wait a little instead of spinning.
                let freed = registry.evict_oldest_idle(&mut registry.lock());
                tracing::warn!(
                    "{what}: accept failed: {e}{}",
                    if freed {
                        "; closed the oldest idle connection (lower maxConnections below the open-files limit)"
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
        drop(s);
        if !registry.make_room(cap) {
            tracing::warn!(
                "{what}: {cap} connections, all busy; closing a new one (maxConnections)"
            );
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        next_id += 1;
        let id = next_id;
        let busy = Arc::new(AtomicUsize::new(0));
        let evict = Arc::new(Notify::new());
        registry.lock().insert(
            id,
            Entry {
                busy: busy.clone(),
                evict: evict.clone(),
            },
        );
        let registry = registry.clone();
        let router = router.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                let mut router = router.clone();
                let guard = BusyGuard::enter(busy.clone());
                async move {
                    let resp = router.call(req.map(axum::body::Body::new)).await;
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
                    tracing::debug!("{what}: idle connection closed to make room (maxConnections)");
                }
            }
            registry.lock().remove(&id);
        });
    }
}

/// Counts a request in flight for as long as it lives (a dropped future counts as done).
struct BusyGuard(Arc<AtomicUsize>);

impl BusyGuard {
    fn enter(busy: Arc<AtomicUsize>) -> BusyGuard {
        busy.fetch_add(1, Ordering::AcqRel);
        BusyGuard(busy)
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

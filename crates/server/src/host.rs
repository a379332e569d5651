//! The game host thread (the contract's "main thread"). It alone owns the [`World`]. Writes
//! arrive as jobs through a bounded queue (full: 503, nothing applied) and are applied within
//! `writeBudgetMs` per frame; due ticks run by the wall clock and the speed level; then the
//! snapshot is published, events are broadcast, and only then are the writers answered, so a
//! caller's next read sees its write (read-your-writes). Reads never wait on this thread: they
//! load the latest published snapshot.

use crate::hub::Hub;
use crate::settings::SettingsStore;
use arc_swap::ArcSwap;
use protocol::error::{ApiError, ErrorCode};
use sim::World;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Most ticks run in one frame of real-time pacing (a stalled host catches up gradually).
const MAX_TICKS_PER_FRAME: u64 = 256;
/// Longest sleep while paused, so settings changes and shutdown are noticed.
const IDLE_WAIT: Duration = Duration::from_millis(200);

/// A reply sender, called after the snapshot with the job's effect is published.
type Deliver = Box<dyn FnOnce() + Send>;
/// One queued write.
type Job = Box<dyn FnOnce(&mut World) -> Deliver + Send>;

/// What readers can see without touching the world: answered even while loading.
pub struct HostStatus {
    speed: AtomicU8,
    settlement: RwLock<String>,
    loading: AtomicUsize,
    /// False once the game-host thread has ended (it never should: jobs and ticks that panic
    /// are contained); `/api/ping` then says so.
    alive: std::sync::atomic::AtomicBool,
    /// Bumped after every publish: answers cached for one generation are that snapshot's (or a
    /// newer one's, never an older one's).
    generation: std::sync::atomic::AtomicU64,
}

/// Marks the host dead when its thread ends, however it ends.
struct AliveGuard(Arc<HostStatus>);

impl Drop for AliveGuard {
    fn drop(&mut self) {
        self.0.alive.store(false, Ordering::SeqCst);
        tracing::error!("the game host thread has stopped; writes fail until colonyd restarts");
    }
}

/// The handle the HTTP and WebSocket tasks use.
#[derive(Clone)]
pub struct HostHandle {
    jobs: SyncSender<Job>,
    snapshot: Arc<ArcSwap<World>>,
    status: Arc<HostStatus>,
}

/// Converts a simulation command error into the contract's error.
pub fn command_error(e: sim::CommandError) -> ApiError {
    let code = match e.code {
        sim::ErrorCode::NotFound => ErrorCode::NotFound,
        sim::ErrorCode::InvalidPrefab => ErrorCode::InvalidPrefab,
        sim::ErrorCode::InvalidType => ErrorCode::InvalidType,
        sim::ErrorCode::InvalidParam => ErrorCode::InvalidParam,
        sim::ErrorCode::NotUnlocked => ErrorCode::NotUnlocked,
        sim::ErrorCode::InsufficientScience => ErrorCode::InsufficientScience,
        sim::ErrorCode::NoPopulation => ErrorCode::NoPopulation,
        sim::ErrorCode::OperationFailed => ErrorCode::OperationFailed,
        sim::ErrorCode::Placement => ErrorCode::Placement,
    };
    ApiError {
        code,
        detail: e.detail,
        extras: e.extras,
    }
}

impl HostHandle {
    /// The latest published world. Never waits on the game thread.
    pub fn snapshot(&self) -> Arc<World> {
        self.snapshot.load_full()
    }

    pub fn speed(&self) -> u8 {
        self.status.speed.load(Ordering::Relaxed)
    }

    /// The generation of the published snapshot: bumped after each publish, so a snapshot loaded
    /// after reading generation `g` is the one of `g` or a newer one.
    pub fn generation(&self) -> u64 {
        self.status.generation.load(Ordering::SeqCst)
    }

    pub fn settlement(&self) -> String {
        self.status
            .settlement
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn is_loading(&self) -> bool {
        self.status.loading.load(Ordering::SeqCst) > 0
    }

    /// Marks a load in progress until the guard drops.
    pub fn loading_guard(&self) -> LoadingGuard {
        self.status.loading.fetch_add(1, Ordering::SeqCst);
        LoadingGuard(self.status.clone())
    }

    /// Queues a write and waits for its result, which arrives after the snapshot holding its
    /// effect is published. A full queue fails at once with `queue_full` and applies nothing.
    pub async fn write<R, F>(&self, f: F) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&mut World) -> R + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |world| {
            let result = f(world);
            Box::new(move || {
                let _ = tx.send(result);
            })
        });
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                return Err(ApiError::new(
                    ErrorCode::QueueFull,
                    "the game's write queue is full; nothing was applied, retry after a moment",
                ));
            }
            Err(TrySendError::Disconnected(_)) => {
                return Err(ApiError::new(
                    ErrorCode::InternalError,
                    "the game host has stopped",
                ));
            }
        }
        rx.await.map_err(|_| {
            ApiError::new(
                ErrorCode::InternalError,
                "the game host failed while applying this write; it was not applied",
            )
        })
    }
}

impl HostHandle {
    /// Whether the game-host thread is running.
    pub fn alive(&self) -> bool {
        self.status.alive.load(Ordering::SeqCst)
    }
}

/// Keeps the loading flag raised while alive.
pub struct LoadingGuard(Arc<HostStatus>);

impl Drop for LoadingGuard {
    fn drop(&mut self) {
        self.0.loading.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Starts the host thread with `world`. Events go to `hub`.
pub fn spawn(
    world: World,
    settings: SettingsStore,
    hub: Hub,
    autosave: crate::saves::Autosaver,
) -> HostHandle {
    let capacity = settings.get().write_queue_capacity.max(1);
    let (tx, rx) = sync_channel::<Job>(capacity);
    let snapshot = Arc::new(ArcSwap::from_pointee(world.clone()));
    let status = Arc::new(HostStatus {
        speed: AtomicU8::new(world.speed()),
        settlement: RwLock::new(world.settlement().to_string()),
        loading: AtomicUsize::new(0),
        alive: std::sync::atomic::AtomicBool::new(true),
        generation: std::sync::atomic::AtomicU64::new(0),
    });
    let host = Host {
        world,
        rx,
        snapshot: snapshot.clone(),
        status: status.clone(),
        settings,
        hub,
        autosave,
        unsent: Vec::new(),
        autosave_due: false,
    };
    std::thread::Builder::new()
        .name("game-host".into())
        .spawn(move || {
            let _alive = AliveGuard(host.status.clone());
            host.run()
        })
        .expect("spawn the game host thread");
    HostHandle {
        jobs: tx,
        snapshot,
        status,
    }
}

struct Host {
    world: World,
    rx: Receiver<Job>,
    snapshot: Arc<ArcSwap<World>>,
    status: Arc<HostStatus>,
    settings: SettingsStore,
    hub: Hub,
    autosave: crate::saves::Autosaver,
    /// The events of this frame's changes, one burst per change, broadcast once the snapshot
    /// holding the changes is published (a client that reads on an event sees its cause).
    unsent: Vec<Vec<sim::Event>>,
    /// A change reached a new day on which an autosave is due: the world is saved at the next
    /// publish, after the events (the `autosave` event follows the events of its day).
    autosave_due: bool,
}

impl Host {
    fn run(mut self) {
        let mut last = Instant::now();
        let mut debt = 0.0f64; // ticks owed by real-time pacing
        let mut pending: Option<Job> = None;
        loop {
            // 1. Wait for a job or the next due tick.
            let wait = self.until_next_tick(debt);
            if pending.is_none() {
                match self.rx.recv_timeout(wait) {
                    Ok(job) => pending = Some(job),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            // 2. Apply queued jobs within the per-frame budget (settings are range-checked; the
            // clamp keeps a bad value from ever stopping the loop).
            let budget = Duration::from_secs_f64(
                (self.settings.get().write_budget_ms / 1000.0).clamp(1e-6, 1.0),
            );
            let frame_start = Instant::now();
            let mut delivers: Vec<Deliver> = Vec::new();
            while let Some(job) = pending.take() {
                let day_before = self.world.time().day_number;
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                    || job(&mut self.world),
                )) {
                    Ok(deliver) => delivers.push(deliver),
                    Err(_) => {
                        // The job may have left the world half-changed: go back to the last
                        // published world. Writes applied earlier in this frame go with it, so
                        // their callers are told so too (their replies are dropped: internal_error,
                        // "not applied"), and nothing half-applied remains.
                        tracing::error!(
                            "a write panicked in the game host; the world goes back to the last published state and the frame's writes ({} before it) are refused",
                            delivers.len()
                        );
                        self.world = (**self.snapshot.load()).clone();
                        delivers.clear();
                        self.unsent.clear();
                        self.autosave_due = false;
                    }
                }
                self.after_change(day_before);
                if frame_start.elapsed() >= budget {
                    break;
                }
                pending = self.rx.try_recv().ok();
            }
            let job_time = frame_start.elapsed();
            // 3. Real-time ticks, not counting the time spent applying jobs.
            let now = Instant::now();
            let elapsed = now.saturating_duration_since(last).saturating_sub(job_time);
            last = now;
            let speed = self.world.speed();
            if speed == 0 {
                debt = 0.0;
            } else {
                debt += elapsed.as_secs_f64() * sim::speed_multiplier(speed)
                    / sim::real_seconds_per_tick_at_1x();
                let due = (debt.floor() as u64).min(MAX_TICKS_PER_FRAME);
                if due > 0 {
                    let day_before = self.world.time().day_number;
                    let ticked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.world.advance_ticks(due)
                    }));
                    if ticked.is_err() {
                        // A tick that panics would panic again: keep the last published world and
                        // pause, so the service stays up and the state can be saved or inspected.
                        tracing::error!(
                            "a game tick panicked; the game is paused at its last published state"
                        );
                        self.world = (**self.snapshot.load()).clone();
                        self.unsent.clear();
                        self.autosave_due = false;
                        let _ = self.world.set_speed(0);
                        debt = 0.0;
                        self.publish();
                        continue;
                    }
                    debt = (debt - due as f64).min(MAX_TICKS_PER_FRAME as f64);
                    self.after_change(day_before);
                }
            }
            // 4. Publish, broadcast, then answer the writers. The snapshot the new one replaces
            // is freed after the answers (when no reader holds it): after a write that copied a
            // table, freeing the old copy costs about half as much as the copy did.
            let replaced =
                (!delivers.is_empty() || speed > 0 || !self.unsent.is_empty() || self.autosave_due)
                    .then(|| self.publish());
            for d in delivers {
                d();
            }
            drop(replaced);
            if pending.is_none() {
                pending = self.rx.try_recv().ok();
            }
        }
    }

    /// Time until the next tick is due (or the idle wait when paused).
    fn until_next_tick(&self, debt: f64) -> Duration {
        let speed = self.world.speed();
        if speed == 0 {
            return IDLE_WAIT;
        }
        let per_tick = sim::real_seconds_per_tick_at_1x() / sim::speed_multiplier(speed);
        Duration::from_secs_f64(((1.0 - debt) * per_tick).clamp(0.0, IDLE_WAIT.as_secs_f64()))
    }

    /// Keeps the events of a change for the next publish, and notes an autosave due at a new day.
    fn after_change(&mut self, day_before: u32) {
        let events = self.world.take_events();
        for ev in &events {
            tracing::debug!("event {} {:?}", ev.name, ev.data);
        }
        if !events.is_empty() {
            self.unsent.push(events);
        }
        let day = self.world.time().day_number;
        let every = self.settings.get().autosave_days;
        if day != day_before && every > 0 && day.is_multiple_of(every) {
            self.autosave_due = true;
        }
    }

    /// Publishes the world as the new snapshot, broadcasts the events and autosaves if due;
    /// returns the snapshot it replaced (for the caller to drop when it suits).
    fn publish(&mut self) -> Arc<World> {
        self.status
            .speed
            .store(self.world.speed(), Ordering::Relaxed);
        {
            let mut name = self
                .status
                .settlement
                .write()
                .unwrap_or_else(|e| e.into_inner());
            if name.as_str() != self.world.settlement() {
                *name = self.world.settlement().to_string();
            }
        }
        let replaced = self.snapshot.swap(Arc::new(self.world.clone()));
        self.status.generation.fetch_add(1, Ordering::SeqCst);
        // One burst per change: however many events one write or one frame causes, a reader
        // that keeps up is never closed for it (see `hub`).
        for events in self.unsent.drain(..) {
            self.hub
                .broadcast_events(events.into_iter().map(|ev| (ev.name, ev.day, ev.data)));
        }
        if std::mem::take(&mut self.autosave_due) {
            self.autosave.save(&self.world);
        }
        replaced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> (HostHandle, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let settings = SettingsStore::new(
            dir.path().join("settings.json"),
            crate::settings::resolve(&serde_json::Map::new()),
        );
        let world = World::new(&sim::NewGame {
            map_width: 32,
            map_height: 32,
            ..Default::default()
        });
        let hub = Hub::default();
        let saver = crate::saves::Autosaver::start(dir.path().join("saves"), hub.clone());
        (spawn(world, settings, hub, saver), dir)
    }

    #[tokio::test]
    async fn a_panicking_write_is_refused_and_leaves_the_world_as_it_was() {
        let (h, _dir) = host();
        h.write(|w| w.set_speed(0)).await.unwrap().unwrap();
        let before = h.snapshot().state_hash();
        // Changes the world, then panics half-way.
        let r = h
            .write(|w| {
                w.set_end_hours(20).unwrap();
                w.set_speed(3).unwrap();
                panic!("a bug in a command");
            })
            .await;
        let e = r.expect_err("refused");
        assert_eq!(e.code, ErrorCode::InternalError);
        assert!(e.message().contains("not applied"), "{}", e.message());
        // The host lives on, with the world as before the panicking write.
        assert!(h.alive());
        let after = h.write(|w| (w.end_hours(), w.speed())).await.unwrap();
        assert_eq!(after, (16, 0));
        assert_eq!(h.snapshot().state_hash(), before);
    }
}

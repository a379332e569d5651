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
    });
    let host = Host {
        world,
        rx,
        snapshot: snapshot.clone(),
        status: status.clone(),
        settings,
        hub,
        autosave,
    };
    std::thread::Builder::new()
        .name("game-host".into())
        .spawn(move || host.run())
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
            // 2. Apply queued jobs within the per-frame budget.
            let budget = Duration::from_secs_f64(self.settings.get().write_budget_ms / 1000.0);
            let frame_start = Instant::now();
            let mut delivers: Vec<Deliver> = Vec::new();
            while let Some(job) = pending.take() {
                let day_before = self.world.time().day_number;
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                    || job(&mut self.world),
                )) {
                    Ok(deliver) => delivers.push(deliver),
                    Err(_) => tracing::error!(
                        "a write panicked in the game host; its caller gets internal_error"
                    ),
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
                    self.world.advance_ticks(due);
                    debt = (debt - due as f64).min(MAX_TICKS_PER_FRAME as f64);
                    self.after_change(day_before);
                }
            }
            // 4. Publish, broadcast, then answer the writers.
            if !delivers.is_empty() || speed > 0 {
                self.publish();
            }
            for d in delivers {
                d();
            }
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

    /// Broadcasts the events of a change and autosaves at a new day when due.
    fn after_change(&mut self, day_before: u32) {
        for ev in self.world.take_events() {
            tracing::debug!("event {} {:?}", ev.name, ev.data);
            self.hub.broadcast_event(ev.name, ev.day, ev.data);
        }
        let day = self.world.time().day_number;
        let every = self.settings.get().autosave_days;
        if day != day_before && every > 0 && day.is_multiple_of(every) {
            self.autosave.save(&self.world);
        }
    }

    fn publish(&self) {
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
        self.snapshot.store(Arc::new(self.world.clone()));
    }
}

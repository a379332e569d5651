//! The live settings shared by the server ([`SettingsStore`]): reads, validated run-time
//! changes and the debounced atomic rewrite of the file.

use super::*;

/// The live settings, shared by every part of the server, with the debounced file writer.
#[derive(Clone)]
pub struct SettingsStore {
    inner: Arc<RwLock<StoreInner>>,
    path: Arc<PathBuf>,
    changed: Arc<Notify>,
    /// A change is acknowledged but not yet in the file (the debounce is running).
    unsaved: Arc<std::sync::atomic::AtomicBool>,
    /// The address the listeners were bound to at start-up (restart keys wait for a restart).
    started_address: Arc<str>,
}

struct StoreInner {
    /// Shared, so a read (every request) is a pointer copy, not a clone of every string.
    settings: Arc<Settings>,
    raw: Map<String, Value>,
}

impl SettingsStore {
    pub fn new(path: PathBuf, loaded: Loaded) -> SettingsStore {
        SettingsStore {
            started_address: Arc::from(loaded.settings.listen_address.as_str()),
            inner: Arc::new(RwLock::new(StoreInner {
                settings: Arc::new(loaded.settings),
                raw: loaded.raw,
            })),
            path: Arc::new(path),
            changed: Arc::new(Notify::new()),
            unsaved: Arc::default(),
        }
    }

    /// The current settings.
    pub fn get(&self) -> Arc<Settings> {
        self.inner
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .settings
            .clone()
    }

    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Applies changed members (contract key names). Rejects the whole change, applying nothing,
    /// when any member is unknown or has the wrong type. Schedules a debounced rewrite.
    pub fn update(&self, changes: &Map<String, Value>) -> Result<Settings, String> {
        let mut guard = self.inner.write().unwrap_or_else(|e| e.into_inner());
        let known = guard.settings.to_json();
        for (key, value) in changes {
            if !known.contains_key(key) {
                let keys: Vec<&str> = known.keys().map(String::as_str).collect();
                return Err(format!(
                    "unknown setting {key}; settings are {}",
                    keys.join(", ")
                ));
            }
            let mut probe = Map::new();
            probe.insert(key.clone(), value.clone());
            let checked = resolve(&probe);
            if let Some(w) = checked.warnings.first() {
                return Err(w.replace("; ignored, using the default", ""));
            }
        }
        let mut raw = guard.raw.clone();
        for (k, v) in changes {
            raw.insert(k.clone(), v.clone());
        }
        let resolved = resolve(&raw);
        // The start-up guard holds at run time too: no token while the service listens beyond
        // this machine (now, or at the next start).
        let listening = [
            &self.started_address,
            resolved.settings.listen_address.as_str(),
        ];
        if resolved.settings.auth_token.is_empty()
            && let Some(open) = listening.iter().find(|a| !crate::is_loopback(a))
        {
            return Err(format!(
                "authToken may not be empty while listenAddress is {open} (beyond loopback): anyone on the network could drive the game; set a token, or listen on 127.0.0.1 and restart first"
            ));
        }
        let chars = resolved.settings.auth_token.chars().count();
        if chars > 0
            && chars < MIN_NETWORK_TOKEN_CHARS
            && let Some(open) = listening.iter().find(|a| !crate::is_loopback(a))
        {
            return Err(format!(
                "authToken must be at least {MIN_NETWORK_TOKEN_CHARS} characters while listenAddress is {open} (beyond loopback), got {chars}; set a longer token (e.g. 32 random letters and digits)"
            ));
        }
        guard.raw = raw;
        guard.settings = Arc::new(resolved.settings.clone());
        drop(guard);
        self.unsaved
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.changed.notify_one();
        Ok(resolved.settings)
    }

    /// The file content for the current state: the file's own members updated with ours.
    fn file_bytes(&self) -> Vec<u8> {
        let guard = self.inner.read().unwrap_or_else(|e| e.into_inner());
        let mut out = guard.raw.clone();
        for (k, v) in guard.settings.to_json() {
            out.insert(k, v);
        }
        serde_json::to_vec_pretty(&Value::Object(out)).expect("settings serialize")
    }

    /// Writes the file now (atomically). Used at start-up to create a missing file.
    pub fn write_now(&self) -> std::io::Result<()> {
        self.unsaved
            .store(false, std::sync::atomic::Ordering::SeqCst);
        crate::fsutil::write_atomic(&self.path, &self.file_bytes())
    }

    /// Writes an acknowledged change the debounce has not written yet (at shutdown, so a SIGTERM
    /// right after a change loses nothing).
    pub fn flush(&self) -> std::io::Result<()> {
        if self.unsaved.load(std::sync::atomic::Ordering::SeqCst) {
            self.write_now()?;
            tracing::info!("settings written to {} at shutdown", self.path.display());
        }
        Ok(())
    }

    /// Runs forever: after each change, waits until no change came for the debounce interval
    /// (or, while changes keep coming, at most [`REWRITE_MAX_WAIT`] since the first), then
    /// rewrites the file atomically.
    pub async fn run_writer(self) {
        self.run_writer_with(REWRITE_DEBOUNCE, REWRITE_MAX_WAIT)
            .await
    }

    pub(super) async fn run_writer_with(self, debounce: Duration, max_wait: Duration) {
        loop {
            self.changed.notified().await;
            let deadline = tokio::time::Instant::now() + max_wait;
            // Another change within the interval restarts the wait, up to the deadline.
            loop {
                let wait =
                    debounce.min(deadline.saturating_duration_since(tokio::time::Instant::now()));
                if wait.is_zero()
                    || tokio::time::timeout(wait, self.changed.notified())
                        .await
                        .is_err()
                {
                    break;
                }
            }
            let store = self.clone();
            let res = tokio::task::spawn_blocking(move || store.write_now()).await;
            match res {
                Ok(Ok(())) => tracing::info!("settings written to {}", self.path.display()),
                Ok(Err(e)) => {
                    tracing::error!("cannot write settings to {}: {e}", self.path.display())
                }
                Err(e) => tracing::error!("settings writer failed: {e}"),
            }
        }
    }
}

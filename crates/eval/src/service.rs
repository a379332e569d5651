//! One episode's colonyd: started on free loopback ports with its own temporary data folder,
//! spoken to over HTTP like any client, stopped and cleaned up when dropped.

use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Finds colonyd: `--colonyd`, else `$COLONYD`, else beside the running executable (a cargo
/// build puts both binaries in one folder), else `colonyd` on PATH.
pub fn find_colonyd(flag: Option<&Path>) -> PathBuf {
    if let Some(p) = flag {
        return p.to_owned();
    }
    if let Some(p) = std::env::var_os("COLONYD") {
        return PathBuf::from(p);
    }
    if let Ok(me) = std::env::current_exe()
        && let Some(dir) = me.parent()
    {
        let p = dir.join("colonyd");
        if p.is_file() {
            return p;
        }
    }
    PathBuf::from("colonyd")
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A running colonyd.
pub struct Service {
    child: Child,
    pub http_port: u16,
    pub ws_port: u16,
    /// The data folder (settings, saves); removed on drop.
    pub dir: tempfile::TempDir,
    http: reqwest::blocking::Client,
}

/// An answer that is an error body (`{"error": "code: detail"}`) or a failed request.
#[derive(Debug, Clone)]
pub struct CallError(pub String);

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Service {
    /// Starts colonyd (a small throwaway game; the episode's game is made with `game/new`).
    /// A port taken between the pick and the bind is retried on fresh ports.
    pub fn start(bin: &Path) -> Result<Service, String> {
        let mut last = String::new();
        for _ in 0..5 {
            let dir = tempfile::Builder::new()
                .prefix("colony-eval-")
                .tempdir()
                .map_err(|e| format!("cannot make a data folder: {e}"))?;
            let (http_port, ws_port) = (
                free_port().map_err(|e| e.to_string())?,
                free_port().map_err(|e| e.to_string())?,
            );
            let settings = json!({
                "httpPort": http_port, "wsPort": ws_port, "autosaveDays": 0,
            });
            std::fs::write(dir.path().join("settings.json"), settings.to_string())
                .map_err(|e| format!("cannot write settings: {e}"))?;
            let log =
                std::fs::File::create(dir.path().join("colonyd.log")).map_err(|e| e.to_string())?;
            let child = Command::new(bin)
                .arg("--data-dir")
                .arg(dir.path())
                .args(["--map", "32", "--seed", "1", "--ready"])
                .env_remove("COLONY_LOG")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::from(log))
                .spawn()
                .map_err(|e| format!("cannot start colonyd ({}): {e}", bin.display()))?;
            let mut s = Service {
                child,
                http_port,
                ws_port,
                dir,
                http: reqwest::blocking::Client::builder()
                    .timeout(Duration::from_secs(900))
                    .build()
                    .map_err(|e| e.to_string())?,
            };
            match s.wait_ready() {
                Ok(()) => return Ok(s),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(r) = self.http.get(self.url("/api/ping")).send()
                && r.status().is_success()
            {
                return Ok(());
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                let log = std::fs::read_to_string(self.dir.path().join("colonyd.log"))
                    .unwrap_or_default();
                return Err(format!("colonyd exited at start-up ({status}): {log}"));
            }
            std::thread::sleep(Duration::from_millis(30));
        }
        Err("colonyd did not answer /api/ping within 60 s".into())
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http_port)
    }

    fn answer(r: reqwest::blocking::Response) -> Result<Value, CallError> {
        let status = r.status();
        let text = r.text().map_err(|e| CallError(e.to_string()))?;
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        if let Some(e) = v.get("error").and_then(Value::as_str) {
            return Err(CallError(e.to_owned()));
        }
        if !status.is_success() {
            return Err(CallError(format!("HTTP {status}: {v}")));
        }
        Ok(v)
    }

    /// `GET path` (nested json), or the error.
    pub fn get(&self, path: &str) -> Result<Value, CallError> {
        let sep = if path.contains('?') { '&' } else { '?' };
        let r = self
            .http
            .get(self.url(&format!("{path}{sep}format=json")))
            .send()
            .map_err(|e| CallError(e.to_string()))?;
        Service::answer(r)
    }

    /// `GET path` as text (e.g. `format=toon-text`).
    pub fn get_text(&self, path: &str) -> Result<String, CallError> {
        self.http
            .get(self.url(path))
            .send()
            .and_then(|r| r.text())
            .map_err(|e| CallError(e.to_string()))
    }

    /// `POST path body` (nested json answer), or the error.
    pub fn post(&self, path: &str, body: &Value) -> Result<Value, CallError> {
        let sep = if path.contains('?') { '&' } else { '?' };
        let r = self
            .http
            .post(self.url(&format!("{path}{sep}format=json")))
            .json(body)
            .send()
            .map_err(|e| CallError(e.to_string()))?;
        Service::answer(r)
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

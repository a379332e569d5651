//! One episode's colonyd: started on free loopback ports with its own temporary data folder
//! (readable by this user only), spoken to over HTTP like any client, stopped and cleaned up
//! when dropped. Each colonyd gets a fresh random token: it is written into the settings file
//! only for colonyd's start-up and removed from the file as soon as colonyd answers with it, so
//! from then on only colonyd and the harness (its recording proxy) hold it.

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
    /// The token colonyd requires (only the harness and its proxy hold it).
    pub token: String,
    http: reqwest::blocking::Client,
}

/// A fresh random token: 32 bytes from the OS, as hex.
fn new_token() -> Result<String, String> {
    let mut buf = [0u8; 32];
    getrandom::fill(&mut buf).map_err(|e| format!("no OS random source for the token: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Writes `text` to `path`, readable and writable by this user only.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
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
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
                    .map_err(|e| format!("cannot make the data folder private: {e}"))?;
            }
            let (http_port, ws_port) = (
                free_port().map_err(|e| e.to_string())?,
                free_port().map_err(|e| e.to_string())?,
            );
            let token = new_token()?;
            let settings = |token: Option<&str>| {
                let mut v = json!({"httpPort": http_port, "wsPort": ws_port, "autosaveDays": 0});
                if let Some(t) = token {
                    v["authToken"] = json!(t);
                }
                v.to_string()
            };
            let settings_path = dir.path().join("settings.json");
            write_private(&settings_path, &settings(Some(&token)))
                .map_err(|e| format!("cannot write settings: {e}"))?;
            let log =
                std::fs::File::create(dir.path().join("colonyd.log")).map_err(|e| e.to_string())?;
            let mut cmd = Command::new(bin);
            cmd.arg("--data-dir")
                .arg(dir.path())
                .args(["--map", "32", "--seed", "1", "--ready"])
                .env_remove("COLONY_LOG")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::from(log));
            let child =
                crate::guard::spawn_known(crate::guard::die_with_harness(&mut cmd, libc::SIGTERM))
                    .map_err(|e| format!("cannot start colonyd ({}): {e}", bin.display()))?;
            let mut headers = reqwest::header::HeaderMap::new();
            headers.insert(
                "authorization",
                format!("Bearer {token}")
                    .parse()
                    .map_err(|_| "the token is not a header value".to_string())?,
            );
            let mut s = Service {
                child,
                http_port,
                ws_port,
                dir,
                token,
                http: reqwest::blocking::Client::builder()
                    .timeout(Duration::from_secs(900))
                    .default_headers(headers)
                    .build()
                    .map_err(|e| e.to_string())?,
            };
            match s.wait_ready() {
                Ok(()) => {
                    // colonyd has read its token; the file no longer needs it.
                    write_private(&settings_path, &settings(None))
                        .map_err(|e| format!("cannot rewrite settings: {e}"))?;
                    return Ok(s);
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            // /api/time needs the token, so an answer means colonyd holds it.
            if let Ok(r) = self.http.get(self.url("/api/time")).send()
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

    /// Sends a write the recording proxy forwarded, again as it was: `method path` (no `format`
    /// added) with `body` as the agent sent it; the answer's HTTP status and, when the answer is
    /// an error body, its `error` text.
    pub fn send_as_recorded(
        &self,
        method: &str,
        path: &str,
        body: &str,
    ) -> Result<(u16, Option<String>), CallError> {
        let m = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes())
            .map_err(|e| CallError(format!("method {method:?}: {e}")))?;
        let r = self
            .http
            .request(m, self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .map_err(|e| CallError(e.to_string()))?;
        let status = r.status().as_u16();
        let text = r.text().map_err(|e| CallError(e.to_string()))?;
        Ok((status, error_text(&text)))
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

/// The `error` member of an answer that is a JSON object (toon answers to errors are JSON too).
fn error_text(answer: &str) -> Option<String> {
    if !answer.trim_start().starts_with('{') {
        return None;
    }
    let v: Value = serde_json::from_str(answer).ok()?;
    v.get("error")?.as_str().map(str::to_owned)
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        crate::guard::forget(self.child.id());
    }
}

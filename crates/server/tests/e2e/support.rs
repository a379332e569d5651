//! Test support: starts the real `colonyd` binary on free loopback ports with its own data
//! folder and settings, and talks to it over real HTTP and WebSocket.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A running `colonyd`.
pub struct Server {
    child: Option<Child>,
    pub http_port: u16,
    pub ws_port: u16,
    pub dir: tempfile::TempDir,
    pub token: Option<String>,
    pub client: reqwest::Client,
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs colonyd in a fresh data folder holding `settings` (free ports added) until it exits;
/// for start-ups that must be refused. Returns whether it succeeded and its stderr.
pub fn run_to_exit(settings: Value) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings;
    settings["httpPort"] = free_port().into();
    settings["wsPort"] = free_port().into();
    std::fs::write(dir.path().join("settings.json"), settings.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .arg("--data-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs colonyd in `dir` (free ports given by flag) with the settings file as it is, for
/// start-ups that must be refused: whether it exited with success and its stderr, or `None` when
/// it was still running after `limit` (it is then killed).
pub fn run_in_to_exit(dir: &std::path::Path, limit: Duration) -> Option<(bool, String)> {
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .arg("--data-dir")
        .arg(dir)
        .args(["--http-port", &free_port().to_string()])
        .args(["--ws-port", &free_port().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::from(log.reopen().unwrap()))
        .spawn()
        .unwrap();
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = std::fs::read_to_string(log.path()).unwrap_or_default();
    status.map(|s| (s.success(), stderr))
}

/// Options for a start.
pub struct Opts {
    pub settings: Value,
    pub args: Vec<String>,
    pub ready: bool,
    /// A limit on open files (`prlimit --nofile`), for the connection-cap test.
    pub fd_limit: Option<u64>,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            settings: json!({}),
            args: vec!["--seed".into(), "7".into(), "--map".into(), "64".into()],
            ready: true,
            fd_limit: None,
        }
    }
}

impl Server {
    /// Starts with the defaults: gate open, seed 7, a 64x64 map.
    pub async fn start() -> Server {
        Server::start_with(Opts::default()).await
    }

    pub async fn start_with(opts: Opts) -> Server {
        let dir = tempfile::tempdir().unwrap();
        Server::start_in(dir, opts).await
    }

    /// Starts in an existing data folder (to test persistence across restarts). Ports are picked
    /// free but another test can take one between the pick and colonyd's bind: a start that fails
    /// to listen is retried on fresh ports.
    pub async fn start_in(mut dir: tempfile::TempDir, opts: Opts) -> Server {
        for _attempt in 0..5 {
            let http_port = free_port();
            let ws_port = free_port();
            let mut settings = json!({"httpPort": http_port, "wsPort": ws_port});
            for (k, v) in opts.settings.as_object().unwrap() {
                settings[k] = v.clone();
            }
            let token = settings
                .get("authToken")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
                .map(String::from);
            std::fs::write(dir.path().join("settings.json"), settings.to_string()).unwrap();
            let log = tempfile::NamedTempFile::new().unwrap();
            let mut cmd = match opts.fd_limit {
                Some(n) => {
                    let mut c = Command::new("prlimit");
                    c.arg(format!("--nofile={n}:{n}"))
                        .arg(env!("CARGO_BIN_EXE_colonyd"));
                    c
                }
                None => Command::new(env!("CARGO_BIN_EXE_colonyd")),
            };
            cmd.arg("--data-dir").arg(dir.path()).args(&opts.args);
            if opts.ready {
                cmd.arg("--ready");
            }
            // The server's stderr goes to a log shown when a start fails; E2E_SERVER_LOG=1 (with
            // COLONY_LOG=debug) shows it live while debugging a test.
            cmd.stdout(Stdio::null())
                .stderr(if std::env::var("E2E_SERVER_LOG").is_ok() {
                    Stdio::inherit()
                } else {
                    Stdio::from(log.reopen().unwrap())
                });
            let child = cmd.spawn().expect("start colonyd");
            let mut server = Server {
                child: Some(child),
                http_port,
                ws_port,
                dir,
                token,
                client: reqwest::Client::builder()
                    .timeout(Duration::from_secs(120))
                    .build()
                    .unwrap(),
            };
            match server.wait_ready().await {
                Ok(()) => return server,
                Err(exit) => {
                    let text = std::fs::read_to_string(log.path()).unwrap_or_default();
                    if !text.contains("cannot listen") {
                        panic!("colonyd exited at start-up ({exit}): {text}");
                    }
                    server.child = None;
                    dir = server.stop();
                }
            }
        }
        panic!("colonyd could not listen on free ports in 5 attempts");
    }

    /// Waits for `/api/ping`; returns the exit status if the server ends first.
    async fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(r) = self.client.get(self.url("/api/ping")).send().await
                && r.status().is_success()
            {
                // Another test's colonyd may hold the port ours failed to bind (it then exits
                // at once): the answer counts only if ours is still running a moment later.
                tokio::time::sleep(Duration::from_millis(100)).await;
                if let Some(status) = self.child.as_mut().and_then(|c| c.try_wait().unwrap()) {
                    return Err(status.to_string());
                }
                return Ok(());
            }
            if let Some(status) = self.child.as_mut().and_then(|c| c.try_wait().unwrap()) {
                return Err(status.to_string());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("colonyd did not answer /api/ping within 60 s");
    }

    /// The file descriptors colonyd has open now (Linux: `/proc/PID/fd`).
    pub fn open_fds(&self) -> usize {
        let pid = self.child.as_ref().expect("running").id();
        std::fs::read_dir(format!("/proc/{pid}/fd"))
            .expect("/proc/PID/fd")
            .count()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http_port)
    }

    pub fn ws_url(&self, query: &str) -> String {
        format!("ws://127.0.0.1:{}/api/ws{query}", self.ws_port)
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    fn auth(&self, rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => rb.bearer_auth(t),
            None => rb,
        }
    }

    /// GET with the token (if any); returns status and JSON body.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .auth(self.client.get(self.url(path)))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// Whether `GET /api/game/saves` lists a save named `name`.
    pub async fn has_save(&self, name: &str) -> bool {
        let saves = self.get("/api/game/saves").await.1;
        let list = saves.as_array().expect("the saves are a list");
        list.iter().any(|e| e["name"] == name)
    }

    /// GET one entity of a list by `id` (`/api/buildings?id=N...`) with `limit=0`: the array of
    /// one is unwrapped; an error body comes back as it is.
    pub async fn get_one(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.get(&format!("{path}&limit=0")).await;
        match body {
            Value::Array(mut a) if a.len() == 1 => (status, a.remove(0)),
            other => (status, other),
        }
    }

    /// POST a JSON body with the token (if any).
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.post_raw(path, body.to_string()).await
    }

    pub async fn post_raw(&self, path: &str, body: String) -> (u16, Value) {
        let r = self
            .auth(self.client.post(self.url(path)))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// Opens a WebSocket with the token (if any) and returns it after the first `state` frame.
    pub async fn ws(&self) -> (Ws, Value) {
        let query = self
            .token
            .as_ref()
            .map(|t| format!("?token={t}"))
            .unwrap_or_default();
        let (mut ws, _) = tokio_tungstenite::connect_async(self.ws_url(&query))
            .await
            .expect("ws connect");
        let first = next_frame(&mut ws).await;
        assert_eq!(first["type"], "state", "first frame must be state: {first}");
        (ws, first)
    }

    /// Stops the server as a service manager would (SIGTERM), waits for it to exit, and returns
    /// its data folder.
    pub fn terminate(mut self) -> tempfile::TempDir {
        if let Some(mut c) = self.child.take() {
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(c.id().to_string())
                .status();
            let deadline = Instant::now() + Duration::from_secs(20);
            while c.try_wait().unwrap().is_none() {
                assert!(Instant::now() < deadline, "colonyd did not stop on SIGTERM");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let dir = tempfile::tempdir().unwrap();
        std::mem::replace(&mut self.dir, dir)
    }

    /// Stops the server (SIGKILL) and returns its data folder.
    pub fn stop(mut self) -> tempfile::TempDir {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let dir = tempfile::tempdir().unwrap();
        std::mem::replace(&mut self.dir, dir)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The next text frame as JSON (skipping pings), failing after 10 s.
pub async fn next_frame(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame within 10 s");
        match msg.expect("stream open").expect("frame") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("frames are JSON"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

/// Reads frames until one matches, failing after `limit` frames.
pub async fn frame_where(ws: &mut Ws, limit: usize, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..limit {
        let f = next_frame(ws).await;
        if pred(&f) {
            return f;
        }
    }
    panic!("no matching frame within {limit} frames");
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The error code of a body (text before the first colon).
pub fn code(body: &Value) -> &str {
    body["error"]
        .as_str()
        .and_then(|e| e.split(':').next())
        .unwrap_or("")
}

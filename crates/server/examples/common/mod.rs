//! What the benchmark examples share (`loadbench`, `wsbench`, `membench`; included with
//! `#[path]`): their target options, a keep-alive client, writing
//! a benchmark colony's save with `colonyd --fixture`, starting a release colonyd on a save on
//! free loopback ports and waiting until it answers, and percentiles.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The colonyd a benchmark starts and the save it loads (every benchmark's first options).
#[derive(clap::Args)]
pub struct Target {
    /// The colonyd binary to start.
    #[arg(long, default_value = "target/release/colonyd")]
    pub colonyd: PathBuf,
    /// The save to load (default: the benchmark's fixture, written first).
    #[arg(long)]
    pub save: Option<PathBuf>,
}

/// A client that keeps one connection open (a benchmark connection).
pub fn keep_alive_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .build()
        .expect("a client")
}

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Writes the benchmark colony `kind` (`large` or `small`) as a save at `path` with
/// `colonyd --fixture KIND --save PATH`.
pub fn write_fixture(colonyd: &Path, kind: &str, path: &Path) {
    let st = Command::new(colonyd)
        .args(["--fixture", kind, "--save"])
        .arg(path)
        .status()
        .expect("run colonyd --fixture");
    assert!(st.success(), "colonyd --fixture {kind} failed");
}

/// A running colonyd child, killed on drop.
pub struct Colonyd {
    child: Child,
    pub http_port: u16,
    pub ws_port: u16,
}

impl Colonyd {
    /// Starts `colonyd` on `save` with `data_dir` as its data folder, on free loopback ports,
    /// and waits until `/api/ping` answers.
    pub async fn start(colonyd: &Path, data_dir: &Path, save: &Path) -> Colonyd {
        let (http_port, ws_port) = (free_port(), free_port());
        let child = Command::new(colonyd)
            .arg("--data-dir")
            .arg(data_dir)
            .arg("--load")
            .arg(save)
            .args(["--ready", "--http-port", &http_port.to_string()])
            .args(["--ws-port", &ws_port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start colonyd");
        let c = Colonyd {
            child,
            http_port,
            ws_port,
        };
        let client = reqwest::Client::new();
        let start = Instant::now();
        while client
            .get(format!("{}/api/ping", c.base()))
            .send()
            .await
            .is_err()
        {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "colonyd did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        c
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.http_port)
    }

    /// `ws://127.0.0.1:PORT/api/ws`.
    pub fn ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}/api/ws", self.ws_port)
    }

    /// The child's process id (for `perf record -p`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Colonyd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The save to benchmark: `save` when given, else the fixture `kind` written into `dir`.
pub fn save_or_fixture(colonyd: &Path, save: Option<&Path>, kind: &str, dir: &Path) -> PathBuf {
    match save {
        Some(s) => s.to_path_buf(),
        None => {
            let s = dir.join(format!("{kind}.colony.json"));
            write_fixture(colonyd, kind, &s);
            s
        }
    }
}

/// The `p` quantile (0-1) of sorted durations, in milliseconds.
pub fn pct(v: &[Duration], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i].as_secs_f64() * 1e3
}

/// The routes of issue 17's table (loadbench's rows, membench's reads).
pub const TABLE_ROUTES: &[&str] = &[
    "/api/trees?limit=0",
    "/api/buildings?limit=0",
    "/api/buildings?limit=0&detail=full",
    "/api/beavers?limit=0&detail=full",
    "/api/summary?format=json",
];

/// GETs `url` and returns the body; panics when there is no answer.
pub async fn get_bytes(client: &reqwest::Client, url: &str) -> axum::body::Bytes {
    let r = client.get(url).send().await.expect("an answer");
    r.bytes().await.expect("the body")
}

/// POSTs `body` as JSON to `url` and returns the answer's text; panics when there is no answer.
pub async fn post_text(client: &reqwest::Client, url: &str, body: &serde_json::Value) -> String {
    let r = client.post(url).json(body).send().await.expect("an answer");
    r.text().await.expect("the body")
}

/// [`post_text`], panicking on an error answer.
pub async fn post_ok(client: &reqwest::Client, url: &str, body: &serde_json::Value) -> String {
    let text = post_text(client, url, body).await;
    assert!(!text.contains("\"error\""), "{url}: {text}");
    text
}

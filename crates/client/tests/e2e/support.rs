//! Test support: starts the real `colonyd` on free loopback ports with its own data folder, and
//! runs the real `colony` binary against it with a clean environment.
//!
//! `colonyd` belongs to another package, so Cargo gives no `CARGO_BIN_EXE_colonyd` here. It is
//! looked up beside the `colony` binary (both land in `target/<profile>/`), or at `$COLONYD_BIN`.
//! `cargo test --workspace` builds it; alone, run `cargo build -p colony-server --bin colonyd`
//! first.

use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The `colonyd` binary.
pub fn colonyd_bin() -> PathBuf {
    let path = std::env::var_os("COLONYD_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_BIN_EXE_colony"))
                .with_file_name(format!("colonyd{}", std::env::consts::EXE_SUFFIX))
        });
    assert!(
        path.exists(),
        "colonyd is not built at {}: run `cargo build -p colony-server --bin colonyd` \
         (`cargo test --workspace` builds it too), or point COLONYD_BIN at it",
        path.display()
    );
    path
}

/// A running `colonyd`.
pub struct Server {
    child: Option<Child>,
    pub http_port: u16,
    pub ws_port: u16,
    pub dir: tempfile::TempDir,
    pub token: Option<String>,
    extra_settings: Value,
    /// The game's arguments (seed and map).
    game_args: Vec<&'static str>,
    http: reqwest::blocking::Client,
}

impl Server {
    /// Gate open, seed 7, a 64x64 map.
    pub fn start() -> Server {
        Server::start_with(json!({}))
    }

    /// With extra settings (e.g. `{"authToken": "s3cret"}`).
    pub fn start_with(settings: Value) -> Server {
        Server::start_game(settings, vec!["--seed", "7", "--map", "64"])
    }

    /// With extra settings and the game's own arguments (e.g. `["--seed", "7"]` for the
    /// default map size).
    pub fn start_game(settings: Value, game_args: Vec<&'static str>) -> Server {
        let mut s = Server {
            child: None,
            http_port: free_port(),
            ws_port: free_port(),
            dir: tempfile::tempdir().unwrap(),
            token: settings
                .get("authToken")
                .and_then(Value::as_str)
                .map(String::from),
            extra_settings: settings,
            game_args,
            http: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
        };
        // Another test can take a picked port before colonyd binds it: retry on fresh ports.
        for _attempt in 0..5 {
            match s.launch() {
                Ok(()) => return s,
                Err(log) if log.contains("cannot listen") => {
                    s.http_port = free_port();
                    s.ws_port = free_port();
                }
                Err(log) => panic!("colonyd exited at start-up: {log}"),
            }
        }
        panic!("colonyd could not listen on free ports in 5 attempts");
    }

    /// Starts colonyd and waits for `/api/ping`; returns its stderr if it exits first.
    fn launch(&mut self) -> Result<(), String> {
        let mut settings = json!({"httpPort": self.http_port, "wsPort": self.ws_port});
        for (k, v) in self.extra_settings.as_object().unwrap() {
            settings[k] = v.clone();
        }
        std::fs::write(self.dir.path().join("settings.json"), settings.to_string()).unwrap();
        let log = tempfile::NamedTempFile::new().unwrap();
        let child = Command::new(colonyd_bin())
            .arg("--data-dir")
            .arg(self.dir.path())
            .arg("--ready")
            .args(&self.game_args)
            .env_remove("COLONY_DATA_DIR")
            .stdout(Stdio::null())
            .stderr(Stdio::from(log.reopen().unwrap()))
            .spawn()
            .expect("start colonyd");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(r) = self.http.get(self.url("/api/ping")).send()
                && r.status().is_success()
            {
                return Ok(());
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                let text = std::fs::read_to_string(log.path()).unwrap_or_default();
                return Err(format!("({status}) {text}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("colonyd did not answer /api/ping within 30 s");
    }

    /// Kills the service (SIGKILL).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on the same ports and data folder.
    pub fn restart(&mut self) {
        self.kill();
        if let Err(log) = self.launch() {
            panic!("colonyd exited at restart: {log}");
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http_port)
    }

    fn auth(&self, rb: reqwest::blocking::RequestBuilder) -> reqwest::blocking::RequestBuilder {
        match &self.token {
            Some(t) => rb.bearer_auth(t),
            None => rb,
        }
    }

    /// GET straight from the service (not through `colony`).
    pub fn get(&self, path: &str) -> Value {
        self.auth(self.http.get(self.url(path)))
            .send()
            .unwrap()
            .json()
            .unwrap()
    }

    pub fn post(&self, path: &str, body: Value) -> Value {
        self.auth(self.http.post(self.url(path)))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .unwrap()
            .json()
            .unwrap()
    }

    /// `colony` with a clean environment (see [`colony`]) and this service's ports in the
    /// environment.
    pub fn colony(&self, home: &Path) -> Command {
        let mut c = colony(home);
        c.env("COLONY_PORT", self.http_port.to_string())
            .env("COLONY_WS_PORT", self.ws_port.to_string());
        if let Some(t) = &self.token {
            c.env("COLONY_TOKEN", t);
        }
        c
    }

    /// Runs `colony ARGS` against this service.
    pub fn run(&self, home: &Path, args: &[&str]) -> Run {
        Run::of(self.colony(home).args(args).output().unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `colony` with no `COLONY_*` variables and `HOME`/`XDG_CONFIG_HOME` in `home`, so no real
/// user config is read.
pub fn colony(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_colony"));
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("COLONY_") {
            c.env_remove(&k);
        }
    }
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .stdin(Stdio::null());
    c
}

/// A finished `colony` run.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn of(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    /// Asserts success and returns stdout.
    pub fn ok(&self) -> &str {
        assert_eq!(self.code, 0, "colony failed: {self:?}");
        &self.stdout
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(self.ok()).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }

    /// Parses the TOON text on stdout back into JSON.
    pub fn toon(&self) -> Value {
        toon_format::decode_default(self.ok())
            .unwrap_or_else(|e| panic!("not TOON ({e}): {self:?}"))
    }
}

/// A process's output as text (lossily).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// JSON equality where numbers compare by value (TOON writes `1.0` as `1`).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Whether process `pid` runs: gone, or a zombie waiting for whoever inherited it to reap it,
/// is not running.
pub fn running(pid: impl std::fmt::Display) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|st| st.rsplit(')').next().map(|r| r.trim_start().to_owned()))
        .is_some_and(|r| !r.starts_with('Z') && !r.starts_with('X'))
}

/// Polls `f` until it returns `Some`, failing with `what` after `secs` seconds.
pub fn wait_for<T>(secs: u64, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The Markdown section headed `## heading`, up to the next `## ` heading.
pub fn section<'a>(markdown: &'a str, heading: &str) -> &'a str {
    let start = markdown
        .find(&format!("## {heading}\n"))
        .unwrap_or_else(|| panic!("a {heading} section"));
    let section = &markdown[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    &section[..end]
}

/// The fenced `sh` blocks of a Markdown text, in order, each as its lines.
pub fn sh_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in markdown.lines() {
        if line.starts_with("```") {
            match block.take() {
                Some(b) => blocks.push(b),
                None if line.trim() == "```sh" => block = Some(String::new()),
                None => {}
            }
            continue;
        }
        if let Some(b) = block.as_mut() {
            b.push_str(line);
            b.push('\n');
        }
    }
    blocks
}

/// Runs `script` with bash in `home` (also its HOME and config folder), as a reader's shell
/// would: the built `colony` first on PATH, the client pointed at `s` through `COLONY_PORT`.
pub fn shell(s: &Server, home: &Path, script: &str) -> std::process::Output {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_colony")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(home)
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("COLONY_PORT", s.http_port.to_string())
        .env("COLONY_WS_PORT", s.ws_port.to_string())
        .output()
        .unwrap()
}

//! `colony replay OUT/episodes/ID` (no `--check`, no `--export`): after the replay has saved
//! every turn into its folder (`replay_saves`), a colonyd in replay mode (`colonyd --replay DIR`)
//! serves the folder on a loopback port with its own temporary data folder and no token; the
//! command prints the dashboard's address and stays until Ctrl-C (or until colonyd ends), then
//! removes what it made.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

/// A port is free when it can be bound now.
fn check_port(port: u16) -> Result<u16, String> {
    TcpListener::bind(("127.0.0.1", port))
        .map(|_| port)
        .map_err(|e| format!("port {port} cannot be used ({e}): give another with --port, or leave it out for a free one"))
}

/// Serves `folder` with `colonyd` on `port` (a free one when `None`) until colonyd ends; 0 when
/// it ended on Ctrl-C or SIGTERM.
pub fn serve(colonyd: &Path, folder: &Path, port: Option<u16>) -> Result<i32, String> {
    let data = tempfile::Builder::new()
        .prefix("colony-replay-")
        .tempdir()
        .map_err(|e| format!("cannot make a data folder: {e}"))?;
    let http_port = match port {
        Some(p) => check_port(p)?,
        None => free_port()?,
    };
    let mut ws_port = free_port()?;
    while ws_port == http_port {
        ws_port = free_port()?;
    }
    let settings = serde_json::json!({
        "httpPort": http_port,
        "wsPort": ws_port,
        "listenAddress": "127.0.0.1",
        "authToken": "",
        "autosaveDays": 0,
    });
    std::fs::write(data.path().join("settings.json"), settings.to_string())
        .map_err(|e| format!("cannot write settings: {e}"))?;
    let log_path = data.path().join("colonyd.log");
    let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(colonyd);
    cmd.arg("--data-dir")
        .arg(data.path())
        .arg("--replay")
        .arg(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log));
    // Killed outright (no handler runs), this command takes colonyd with it.
    let mut child = crate::guard::die_with_harness(&mut cmd, libc::SIGTERM)
        .spawn()
        .map_err(|e| format!("cannot start colonyd ({}): {e}", colonyd.display()))?;
    // Ctrl-C or SIGTERM: colonyd is stopped, and this command then cleans up instead of dying
    // first. Set after the start, so colonyd keeps the default handling.
    crate::interrupt::catch();
    if let Err(e) = wait_serving(&mut child, http_port) {
        let _ = child.kill();
        let _ = child.wait();
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        return Err(format!("{e}: {log}"));
    }
    println!(
        "Serving the replay at http://127.0.0.1:{http_port}/ (the dashboard: a timeline of the turns; no token needed). Ctrl-C stops it."
    );
    let mut asked = false;
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| format!("waiting for colonyd: {e}"))?
        {
            break status;
        }
        if !asked && crate::interrupt::stopped() {
            asked = true;
            // SAFETY: kill(2) on our own child's pid; no memory is involved.
            unsafe {
                libc::kill(child.id() as i32, libc::SIGTERM);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ok(if status.success() || asked { 0 } else { 1 })
}

/// Waits until colonyd answers `GET /api/replay` on `port`.
fn wait_serving(child: &mut Child, port: u16) -> Result<(), String> {
    let http = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| e.to_string())?;
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Ok(r) = http
            .get(format!("http://127.0.0.1:{port}/api/replay?format=json"))
            .send()
            && r.status().is_success()
        {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("colonyd --replay exited at start-up ({status})"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err("colonyd --replay did not answer within 60 s".into())
}

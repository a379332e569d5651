//! Starting a release `colonyd` for the benchmark examples (`loadbench`, `membench`): writing the
//! large colony's save with `--fixture large --save`, free ports, the child process (killed on
//! drop) and waiting until it answers `/api/ping`.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A free local TCP port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Writes the large benchmark colony's save to `path` (`colonyd --fixture large --save`).
pub fn write_large_save(colonyd: &Path, path: &Path) {
    let st = Command::new(colonyd)
        .args(["--fixture", "large", "--save"])
        .arg(path)
        .status()
        .expect("run colonyd --fixture");
    assert!(st.success(), "colonyd --fixture large failed");
}

/// A colonyd child, killed on drop.
pub struct Colonyd {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Colonyd {
    /// Starts `colonyd` with its data in `data_dir`, loading `save`, the ready gate open, and
    /// waits (up to a minute) until it answers `/api/ping`.
    pub async fn start(colonyd: &Path, data_dir: &Path, save: &Path) -> Colonyd {
        let port = free_port();
        let child = Command::new(colonyd)
            .arg("--data-dir")
            .arg(data_dir)
            .arg("--load")
            .arg(save)
            .args(["--ready", "--http-port", &port.to_string()])
            .args(["--ws-port", &free_port().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start colonyd");
        let c = Colonyd {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let client = reqwest::Client::new();
        let start = Instant::now();
        while client
            .get(format!("{}/api/ping", c.base))
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

    /// The child's process id.
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

//! Memory benchmark of colonyd (issue 17's memory goal; docs/performance.md, "Memory").
//!
//! Writes the large benchmark colony's save (`colonyd --fixture large --save`) into a fresh data
//! folder's `saves/large.colony.json`, starts a release `colonyd` on it, and samples its resident
//! size (`VmRSS`, and the peak `VmHWM`, from `/proc/PID/status`):
//!
//! 1. idle after the load (`--idle` seconds);
//! 2. per round (`--rounds`, default 1): after `--seconds` of mixed reads (the five routes of
//!    loadbench's table from `--connections` keep-alive connections, every `--cold-every`th
//!    request with a distinct `&cold=N` so it is rendered afresh), then after `--cycles` new/load
//!    cycles (`POST /api/game/new {"seed": N}`, then `POST /api/game/load {"name": "large"}`, each
//!    followed by `POST /api/ready`, and the speed set again) while the readers keep reading;
//! 3. after the readers stop, and again after `--idle` seconds without requests.
//!
//! Prints a markdown table. With `--advance-days D` it then loads the save afresh
//! `--advance-repeats` times and times `POST /api/game/advance {"days": D}` (the game's speed
//! through the server, for allocator comparisons).
//!
//! Run: `cargo build --release -p colony-server --bin colonyd --example membench &&
//! target/release/examples/membench [--colonyd target/release/colonyd] [--save FILE]
//! [--seconds 20] [--cycles 10] [--rounds 1] [--connections 4] [--cold-every 3] [--idle 5]
//! [--speed 0] [--advance-days 0] [--advance-repeats 3]`. The 10-minute run:
//! `--rounds 10 --seconds 45 --cycles 5` (reads continue through the cycles).

#[path = "common/mod.rs"]
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Memory benchmark of colonyd (see the file's docs).
#[derive(clap::Parser)]
struct Opts {
    #[command(flatten)]
    target: common::Target,
    /// Seconds of mixed reads per round.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// New/load cycles per round.
    #[arg(long, default_value_t = 10)]
    cycles: usize,
    /// Rounds of reads and cycles.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Reading connections.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Every Nth read uncached (0: never).
    #[arg(long, default_value_t = 3)]
    cold_every: u64,
    /// Idle seconds before the last sample.
    #[arg(long, default_value_t = 5.0)]
    idle: f64,
    /// Game speed (0 paused .. 3).
    #[arg(long, default_value_t = 0)]
    speed: u8,
    /// Days of each timed `game/advance` (0: none).
    #[arg(long, default_value_t = 0.0)]
    advance_days: f64,
    /// How many timed advances.
    #[arg(long, default_value_t = 3)]
    advance_repeats: usize,
}

fn opts() -> Opts {
    clap::Parser::parse()
}

/// `VmRSS` and `VmHWM` of `pid` in MB (MiB).
fn rss(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Posts `body` to `base` + `path`; panics on an error answer.
async fn post(client: &reqwest::Client, base: &str, path: &str, body: serde_json::Value) {
    let r = client
        .post(format!("{base}{path}"))
        .json(&body)
        .send()
        .await
        .expect("an answer");
    let status = r.status();
    let text = r.text().await.expect("the body");
    assert!(status.is_success(), "{path}: {status} {text}");
}

/// Reads counted by the readers.
#[derive(Default)]
struct Counts {
    /// Answered 200.
    ok: AtomicU64,
    /// Of those, with `&cold=N`.
    cold: AtomicU64,
    /// Answered 503 `game_loading` (a new game or load under way) or 409 `game_not_ready` (the
    /// gate closed by a new game or load, until the benchmark opens it); the reader waits 20 ms.
    loading: AtomicU64,
    /// Anything else.
    failed: AtomicU64,
}

/// One reader: the table's routes round-robin over one keep-alive connection until `stop`.
async fn reader(base: String, n: usize, every: u64, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    static COLD: AtomicU64 = AtomicU64::new(0);
    let client = common::keep_alive_client();
    let mut i = n;
    while !stop.load(Ordering::Relaxed) {
        let route = common::TABLE_ROUTES[i % common::TABLE_ROUTES.len()];
        i += 1;
        let cold = every > 0 && (i as u64).is_multiple_of(every);
        let url = if cold {
            let c = COLD.fetch_add(1, Ordering::Relaxed);
            format!("{base}{route}&cold={c}")
        } else {
            format!("{base}{route}")
        };
        match client.get(&url).send().await {
            Ok(r) if r.status().is_success() => {
                let _ = r.bytes().await;
                counts.ok.fetch_add(1, Ordering::Relaxed);
                if cold {
                    counts.cold.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(r) => {
                let busy = matches!(r.status().as_u16(), 503 | 409);
                let _ = r.bytes().await;
                let n = if busy {
                    &counts.loading
                } else {
                    &counts.failed
                };
                n.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(_) => {
                counts.failed.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// The readers at work; `stop` ends them.
struct Readers {
    stop: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Readers {
    fn start(base: &str, o: &Opts, counts: &Arc<Counts>) -> Readers {
        let stop = Arc::new(AtomicBool::new(false));
        let tasks = (0..o.connections)
            .map(|n| {
                tokio::spawn(reader(
                    base.to_owned(),
                    n,
                    o.cold_every,
                    stop.clone(),
                    counts.clone(),
                ))
            })
            .collect();
        Readers { stop, tasks }
    }

    async fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.tasks {
            t.await.expect("a reader");
        }
    }
}

/// A table row.
fn row(phase: &str, t0: Instant, pid: u32, counts: &Counts) {
    let (rss, hwm) = rss(pid);
    println!(
        "| {phase} | {:.0} s | {rss:.1} MB | {hwm:.1} MB | {} | {} | {} | {} |",
        t0.elapsed().as_secs_f64(),
        counts.ok.load(Ordering::Relaxed),
        counts.cold.load(Ordering::Relaxed),
        counts.loading.load(Ordering::Relaxed),
        counts.failed.load(Ordering::Relaxed),
    );
}

#[tokio::main]
async fn main() {
    let o = opts();
    let dir = tempfile::tempdir().expect("a temp folder");
    let saves = dir.path().join("saves");
    std::fs::create_dir_all(&saves).expect("the saves folder");
    let save = saves.join("large.colony.json");
    match &o.target.save {
        Some(s) => {
            std::fs::copy(s, &save).expect("copy the save");
        }
        None => common::write_fixture(&o.target.colonyd, "large", &save),
    }
    let server = common::Colonyd::start(&o.target.colonyd, dir.path(), &save).await;
    let base = server.base();
    let pid = server.pid();
    let client = reqwest::Client::new();
    let speed = serde_json::json!({ "speed": o.speed });
    // New and load close the ready gate (docs/api.md); the benchmark opens it again each time.
    let ready = serde_json::json!({ "ready": true });
    post(&client, &base, "/api/speed", speed.clone()).await;
    println!(
        "colonyd (pid {pid}) on the large colony at speed {}: {} round(s) of {} s of reads ({} \
         connections, every {}th request cold) then {} new/load cycles; {} s idle\n",
        o.speed, o.rounds, o.seconds, o.connections, o.cold_every, o.cycles, o.idle
    );
    println!("| phase | time | VmRSS | VmHWM | reads | cold | refused (loading) | failed |");
    println!("|---|---|---|---|---|---|---|---|");
    let t0 = Instant::now();
    let counts = Arc::new(Counts::default());
    tokio::time::sleep(Duration::from_secs_f64(o.idle)).await;
    row("idle after the load", t0, pid, &counts);
    let mut cycles_done = 0;
    for round in 1..=o.rounds {
        let readers = Readers::start(&base, &o, &counts);
        tokio::time::sleep(Duration::from_secs_f64(o.seconds)).await;
        row(&format!("round {round}: after the reads"), t0, pid, &counts);
        let mut per_cycle = Vec::new();
        for _ in 0..o.cycles {
            cycles_done += 1;
            let seed = serde_json::json!({ "seed": cycles_done });
            post(&client, &base, "/api/game/new", seed).await;
            post(&client, &base, "/api/ready", ready.clone()).await;
            let large = serde_json::json!({ "name": "large" });
            post(&client, &base, "/api/game/load", large).await;
            post(&client, &base, "/api/ready", ready.clone()).await;
            post(&client, &base, "/api/speed", speed.clone()).await;
            per_cycle.push(format!("{:.0}", rss(pid).0));
        }
        if o.cycles > 0 {
            row(
                &format!(
                    "round {round}: after {} cycles ({cycles_done} in all)",
                    o.cycles
                ),
                t0,
                pid,
                &counts,
            );
            eprintln!(
                "round {round}: VmRSS after each cycle (MB): {}",
                per_cycle.join(" ")
            );
        }
        readers.stop().await;
    }
    row("readers stopped", t0, pid, &counts);
    tokio::time::sleep(Duration::from_secs_f64(o.idle)).await;
    row(&format!("after {} s idle", o.idle), t0, pid, &counts);
    if o.advance_days > 0.0 {
        println!("\n| advance | days | wallMs (server) | round trip |");
        println!("|---|---|---|---|");
        for n in 1..=o.advance_repeats {
            let large = serde_json::json!({ "name": "large" });
            post(&client, &base, "/api/game/load", large).await;
            post(&client, &base, "/api/ready", ready.clone()).await;
            post(
                &client,
                &base,
                "/api/speed",
                serde_json::json!({ "speed": 0 }),
            )
            .await;
            let t = Instant::now();
            let r: serde_json::Value = client
                .post(format!("{base}/api/game/advance"))
                .json(&serde_json::json!({ "days": o.advance_days }))
                .send()
                .await
                .expect("an answer")
                .json()
                .await
                .expect("the advance answer");
            println!(
                "| {n} | {} | {:.0} ms | {:.0} ms |",
                o.advance_days,
                r["wallMs"].as_f64().unwrap_or(f64::NAN),
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        let (rss_now, hwm) = rss(pid);
        println!("\nafter the advances: VmRSS {rss_now:.1} MB, VmHWM {hwm:.1} MB");
    }
}

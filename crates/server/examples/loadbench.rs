//! Load benchmark of colonyd's headline reads (issue 17; docs/performance.md).
//!
//! Starts a release `colonyd` on a save (by default the large benchmark colony, written first
//! with `colonyd --fixture large --save`), sets the game speed (`--speed`, default 0: paused),
//! then for each route of the table fetches its answer once, starts a minimal static HTTP/1.1
//! server (hyper) that sends those very bytes, and times the route against both servers at 1
//! and 16 keep-alive connections for `--seconds` each. Prints a markdown table: route, bytes,
//! connections, p50 and p99 of both, and the ratio of the p50s. Then the mixed load: at 1 and 32
//! connections (`--mixed`), each sends the burst of seven reads an agent sends per step (ping,
//! summary, buildings, beavers, trees, weather, time) over and over; single reads' and whole
//! bursts' p50 and p99. Then it times single writes at
//! one connection: a building's pause toggled (`POST /api/building/pause` on a warehouse) and
//! the speed set (`POST /api/speed`). With `--cold` every request
//! carries a distinct extra query parameter (`&cold=N`, ignored by the routes), so none is
//! answered from colonyd's per-snapshot cache: it measures rendering an answer afresh.
//!
//! Run: `cargo build --release -p colony-server && cargo run --release -p colony-server
//! --example loadbench -- [--colonyd target/release/colonyd] [--save FILE] [--speed 0]
//! [--seconds 2] [--connections 1,16] [--mixed 1,32] [--cold]`.

#[path = "common/mod.rs"]
mod common;

use axum::body::Bytes;
use common::{Colonyd, pct, save_or_fixture};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// A page of the full building list (paging before views), measured after issue 17's table.
const PAGE_ROUTE: &str = "/api/buildings?offset=3000&detail=full";

/// Load benchmark of colonyd's headline reads (see the file's docs).
#[derive(clap::Parser)]
struct Opts {
    #[command(flatten)]
    target: common::Target,
    /// Game speed while measuring (0 paused .. 3).
    #[arg(long, default_value_t = 0)]
    speed: u8,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Connections of the route rows.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 16])]
    connections: Vec<usize>,
    /// Connections of the mixed-load rows (the burst of reads).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 32])]
    mixed: Vec<usize>,
    /// Every request with a distinct `cold=N` parameter (no answer from the cache).
    #[arg(long)]
    cold: bool,
}

fn opts() -> Opts {
    clap::Parser::parse()
}

/// Serves `body` as `application/json` to every request, over HTTP/1.1 keep-alive.
async fn static_server(body: Bytes) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the static server");
    let addr = listener.local_addr().expect("its address");
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let body = body.clone();
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(move |_req| {
                    let body = body.clone();
                    async move {
                        Ok::<_, Infallible>(
                            hyper::Response::builder()
                                .header("content-type", "application/json")
                                .body(http_body_util::Full::new(body))
                                .expect("a response"),
                        )
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    addr
}

/// Latencies of `url` with `conns` connections, each sending requests back to back for `secs`.
async fn measure(url: &str, conns: usize, secs: f64, cold: bool) -> Vec<Duration> {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let mut tasks = Vec::new();
    for _ in 0..conns {
        let url = url.to_owned();
        tasks.push(tokio::spawn(async move {
            let client = common::keep_alive_client();
            let mut out = Vec::new();
            while Instant::now() < deadline || out.len() < 3 {
                let url = if cold {
                    let n = COLD.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let sep = if url.contains('?') { '&' } else { '?' };
                    format!("{url}{sep}cold={n}")
                } else {
                    url.clone()
                };
                let t = Instant::now();
                common::get_bytes(&client, &url).await;
                out.push(t.elapsed());
            }
            out
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("a measuring task"));
    }
    all.sort();
    all
}

/// The burst of reads an agent sends each step (issue 17: "a burst of 7 reads").
const BURST: &[&str] = &[
    "/api/ping",
    "/api/summary",
    "/api/buildings",
    "/api/beavers",
    "/api/trees",
    "/api/weather",
    "/api/time",
];

/// Mixed load: `conns` connections each sending the [`BURST`] over and over for `secs`; the
/// latencies of single reads and of whole bursts.
async fn mixed(base: &str, conns: usize, secs: f64, cold: bool) -> (Vec<Duration>, Vec<Duration>) {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let mut tasks = Vec::new();
    for _ in 0..conns {
        let base = base.to_owned();
        tasks.push(tokio::spawn(async move {
            let client = common::keep_alive_client();
            let (mut reads, mut bursts) = (Vec::new(), Vec::new());
            while Instant::now() < deadline || bursts.len() < 3 {
                let b = Instant::now();
                for route in BURST {
                    let mut url = format!("{base}{route}");
                    if cold {
                        let n = COLD.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        url.push_str(&format!("?cold={n}"));
                    }
                    let t = Instant::now();
                    common::get_bytes(&client, &url).await;
                    reads.push(t.elapsed());
                }
                bursts.push(b.elapsed());
            }
            (reads, bursts)
        }));
    }
    let (mut reads, mut bursts) = (Vec::new(), Vec::new());
    for t in tasks {
        let (r, b) = t.await.expect("a measuring task");
        reads.extend(r);
        bursts.extend(b);
    }
    reads.sort();
    bursts.sort();
    (reads, bursts)
}

/// The distinct parameter of `--cold` requests.
static COLD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Latencies of `n` writes, one after another: `body(i)` posted to `url`.
async fn writes(url: &str, n: usize, body: impl Fn(usize) -> serde_json::Value) -> Vec<Duration> {
    let client = reqwest::Client::new();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        common::post_ok(&client, url, &body(i)).await;
        out.push(t.elapsed());
    }
    out.sort();
    out
}

#[tokio::main]
async fn main() {
    let o = opts();
    let dir = tempfile::tempdir().expect("a temp folder");
    let save = save_or_fixture(
        &o.target.colonyd,
        o.target.save.as_deref(),
        "large",
        dir.path(),
    );
    let colonyd = Colonyd::start(&o.target.colonyd, dir.path(), &save).await;
    let base = colonyd.base();
    let client = reqwest::Client::new();
    client
        .post(format!("{base}/api/speed"))
        .json(&serde_json::json!({ "speed": o.speed }))
        .send()
        .await
        .expect("set the speed");
    println!(
        "colonyd on {} at speed {}, {} s per measurement{}\n",
        save.display(),
        o.speed,
        o.seconds,
        if o.cold { ", cold (uncached)" } else { "" }
    );
    println!(
        "| route | bytes | connections | colonyd p50 | static p50 | ratio | colonyd p99 | static p99 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for route in common::TABLE_ROUTES.iter().chain([&PAGE_ROUTE]) {
        let url = format!("{base}{route}");
        let body = common::get_bytes(&client, &url).await;
        let addr = static_server(body.clone()).await;
        let static_url = format!("http://{addr}{route}");
        for &conns in &o.connections {
            let ours = measure(&url, conns, o.seconds, o.cold).await;
            let theirs = measure(&static_url, conns, o.seconds, o.cold).await;
            println!(
                "| `{route}` | {} | {conns} | {:.2} ms | {:.2} ms | {:.1}x | {:.2} ms | {:.2} ms |",
                body.len(),
                pct(&ours, 0.5),
                pct(&theirs, 0.5),
                pct(&ours, 0.5) / pct(&theirs, 0.5),
                pct(&ours, 0.99),
                pct(&theirs, 0.99),
            );
        }
    }
    println!(
        "\n| mixed load: the burst of {} reads | connections | read p50 | read p99 | burst p50 | burst p99 |",
        BURST.len()
    );
    println!("|---|---|---|---|---|---|");
    for &conns in &o.mixed {
        let (reads, bursts) = mixed(&base, conns, o.seconds, o.cold).await;
        println!(
            "| {} | {conns} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |",
            BURST.join(" "),
            pct(&reads, 0.5),
            pct(&reads, 0.99),
            pct(&bursts, 0.5),
            pct(&bursts, 0.99),
        );
    }
    let page: serde_json::Value = client
        .get(format!(
            "{base}/api/buildings?name=SmallWarehouse&limit=1&format=json"
        ))
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("a page");
    let id = page["items"][0]["id"].clone();
    println!("\n| write | requests | p50 | p99 |");
    println!("|---|---|---|---|");
    let n = 300;
    let pause = writes(
        &format!("{base}/api/building/pause"),
        n,
        |i| serde_json::json!({"id": id, "paused": i % 2 == 0}),
    )
    .await;
    let speed = writes(
        &format!("{base}/api/speed"),
        n,
        |_| serde_json::json!({ "speed": o.speed }),
    )
    .await;
    for (name, v) in [("building pause toggle", pause), ("speed", speed)] {
        println!(
            "| {name} | {n} | {:.2} ms | {:.2} ms |",
            pct(&v, 0.5),
            pct(&v, 0.99)
        );
    }
}

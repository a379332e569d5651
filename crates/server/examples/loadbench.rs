//! Load benchmark of colonyd's headline reads (issue 17; docs/performance.md).
//!
//! Starts a release `colonyd` on a save (by default the large benchmark colony, written first
//! with `colonyd --fixture large --save`), sets the game speed (`--speed`, default 0: paused),
//! then for each route of the table fetches its answer once, starts a minimal static HTTP/1.1
//! server (hyper) that sends those very bytes, and times the route against both servers at 1
//! and 16 keep-alive connections for `--seconds` each. Prints a markdown table: route, bytes,
//! connections, p50 and p99 of both, and the ratio of the p50s. Then it times single writes at
//! one connection: a building's pause toggled (`POST /api/building/pause` on a warehouse) and
//! the speed set (`POST /api/speed`). With `--cold` every request
//! carries a distinct extra query parameter (`&cold=N`, ignored by the routes), so none is
//! answered from colonyd's per-snapshot cache: it measures rendering an answer afresh.
//!
//! Run: `cargo build --release -p colony-server && cargo run --release -p colony-server
//! --example loadbench -- [--colonyd target/release/colonyd] [--save FILE] [--speed 0]
//! [--seconds 2] [--connections 1,16] [--cold]`.

#[path = "common/colonyd.rs"]
#[allow(dead_code)]
mod colonyd;

use axum::body::Bytes;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The routes of issue 17's table.
const ROUTES: &[&str] = &[
    "/api/trees?limit=0",
    "/api/buildings?limit=0",
    "/api/buildings?limit=0&detail=full",
    "/api/beavers?limit=0&detail=full",
    "/api/summary?format=json",
];

struct Opts {
    colonyd: PathBuf,
    save: Option<PathBuf>,
    speed: u8,
    seconds: f64,
    connections: Vec<usize>,
    cold: bool,
}

fn opts() -> Opts {
    let mut o = Opts {
        colonyd: PathBuf::from("target/release/colonyd"),
        save: None,
        speed: 0,
        seconds: 2.0,
        connections: vec![1, 16],
        cold: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--colonyd" => o.colonyd = value().into(),
            "--save" => o.save = Some(value().into()),
            "--cold" => o.cold = true,
            "--speed" => o.speed = value().parse().expect("--speed 0-3"),
            "--seconds" => o.seconds = value().parse().expect("--seconds N"),
            "--connections" => {
                o.connections = value()
                    .split(',')
                    .map(|c| c.trim().parse().expect("--connections 1,16"))
                    .collect()
            }
            other => panic!("unknown argument {other}"),
        }
    }
    o
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
            let client = reqwest::Client::builder()
                .pool_max_idle_per_host(1)
                .build()
                .expect("a client");
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
                let r = client.get(&url).send().await.expect("an answer");
                let _ = r.bytes().await.expect("the body");
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

/// The distinct parameter of `--cold` requests.
static COLD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Latencies of `n` writes, one after another: `body(i)` posted to `url`.
async fn writes(url: &str, n: usize, body: impl Fn(usize) -> serde_json::Value) -> Vec<Duration> {
    let client = reqwest::Client::new();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        let r = client
            .post(url)
            .json(&body(i))
            .send()
            .await
            .expect("an answer");
        let text = r.text().await.expect("the body");
        assert!(!text.contains("\"error\""), "{url}: {text}");
        out.push(t.elapsed());
    }
    out.sort();
    out
}

fn pct(v: &[Duration], p: f64) -> f64 {
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i].as_secs_f64() * 1e3
}

#[tokio::main]
async fn main() {
    let o = opts();
    let dir = tempfile::tempdir().expect("a temp folder");
    let save = match &o.save {
        Some(s) => s.clone(),
        None => {
            let s = dir.path().join("large.colony.json");
            colonyd::write_large_save(&o.colonyd, &s);
            s
        }
    };
    let colonyd = colonyd::Colonyd::start(&o.colonyd, dir.path(), &save).await;
    let base = colonyd.base.clone();
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
    for route in ROUTES {
        let url = format!("{base}{route}");
        let body = client
            .get(&url)
            .send()
            .await
            .expect("an answer")
            .bytes()
            .await
            .expect("the body");
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

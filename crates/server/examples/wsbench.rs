//! WebSocket fan-out and write benchmark of colonyd (issue 17; docs/performance.md, "WebSocket
//! fan-out and writes").
//!
//! Starts a release `colonyd` on a save (by default the small benchmark colony, written first
//! with `colonyd --fixture small --save`), pauses it (`--speed`, default 0), then:
//!
//! - **fan-out**: opens `--clients` WebSockets (default 200) on `/api/ws` (every connection gets
//!   every event; no subscription step), then makes `--events` writes (default 200, after 10 not
//!   counted) that each cause one `workhours.changed` event (`POST /api/workhours`, the end hour
//!   toggled), one after another, each once every client got the previous one. Per client and
//!   event: the delay from just before the write was sent (and from its reply) to the client's
//!   receipt of the event frame (`Instant` taken as the frame comes out of the stream); per event:
//!   until the first and the last client had it. Also the receive loops' own time per frame and
//!   the CPU time of colonyd and of the benchmark during the fan-out.
//! - **writes**: at each of `--connections` (default 1,16) keep-alive connections (reqwest) for
//!   `--seconds` each: building pause toggles, then speed sets (alternating `--speed-pair`, default
//!   2,3, so the game runs during those); writes/s, p50, p99. Then read-your-writes: every
//!   connection writes and at once reads back what it wrote (its own building's pause through
//!   `/api/buildings?id=`, one connection the speed through `/api/speed`), counting violations.
//! - **longreads**: a writer's pause toggles alone, and again while `--readers` (default 4)
//!   connections fetch `/api/buildings?limit=0&detail=full&cold=N` back to back (a distinct
//!   `cold` each, so nothing comes from the read cache).
//!
//! The pause toggles need as many pausable buildings as connections; when the save has fewer
//! (the small colony has only its district center), free lumberjack flags are placed as
//! construction sites next to the first building.
//!
//! Run: `cargo build --release -p colony-server --bin colonyd --example wsbench &&
//! target/release/examples/wsbench [--colonyd target/release/colonyd] [--save FILE | --fixture
//! small|large] [--clients 200] [--events 200] [--seconds 2] [--connections 1,16] [--readers 4]
//! [--speed 0] [--speed-pair 2,3] [--only fanout|writes|longreads] [--threads N]`.

#[path = "common/mod.rs"]
mod common;

use common::{Colonyd, pct, save_or_fixture};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Writes made before the counted ones (connections and caches warm up).
const WARMUP: usize = 10;

/// WebSocket fan-out and write benchmark of colonyd (see the file's docs).
#[derive(clap::Parser)]
struct Opts {
    #[command(flatten)]
    target: common::Target,
    /// The fixture written when no save is given (`small` or `large`).
    #[arg(long, default_value = "small")]
    fixture: String,
    /// WebSocket clients of the fan-out.
    #[arg(long, default_value_t = 200)]
    clients: usize,
    /// Timed events of the fan-out.
    #[arg(long, default_value_t = 200)]
    events: usize,
    /// Seconds per write measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Connections of the write rows.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 16])]
    connections: Vec<usize>,
    /// Connections reading the full building list beside the writes.
    #[arg(long, default_value_t = 4)]
    readers: usize,
    /// Game speed (0 paused .. 3).
    #[arg(long, default_value_t = 0)]
    speed: u8,
    /// The two speeds the speed writes alternate between (distinct).
    #[arg(long, value_delimiter = ',', default_values_t = [2, 3])]
    speed_pair: Vec<u8>,
    /// Run one phase only: fanout, writes or longreads.
    #[arg(long)]
    only: Option<String>,
    /// The bench's own worker threads (default: the cores).
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(2, |n| n.get()))]
    threads: usize,
}

fn opts() -> Opts {
    let o: Opts = clap::Parser::parse();
    assert!(
        o.speed_pair.len() == 2 && o.speed_pair[0] != o.speed_pair[1],
        "--speed-pair A,B (distinct)"
    );
    o
}

fn main() {
    let o = opts();
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(o.threads.max(1))
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(run(o));
}

async fn run(o: Opts) {
    let dir = tempfile::tempdir().expect("a temp folder");
    let save = save_or_fixture(
        &o.target.colonyd,
        o.target.save.as_deref(),
        &o.fixture,
        dir.path(),
    );
    let c = Colonyd::start(&o.target.colonyd, dir.path(), &save).await;
    let http = reqwest::Client::new();
    let speed = json!({"speed": o.speed});
    common::post_ok(&http, &format!("{}/api/speed", c.base()), &speed).await;
    println!(
        "colonyd (pid {}) on {} at speed {}; the benchmark on {} runtime threads\n",
        c.pid(),
        save.display(),
        o.speed,
        o.threads
    );
    let run = |phase: &str| o.only.as_deref().is_none_or(|only| only == phase);
    if run("fanout") {
        fanout(&c, &http, &o).await;
    }
    if run("writes") || run("longreads") {
        let need = o.connections.iter().copied().max().unwrap_or(1).max(1);
        let pausable = pausable_buildings(&http, &c.base(), need).await;
        assert!(!pausable.is_empty(), "no pausable building");
        if run("writes") {
            writes(&c, &http, &o, &pausable).await;
        }
        if run("longreads") {
            long_reads(&c, &o, pausable[0]).await;
        }
    }
}

async fn get_json(client: &reqwest::Client, url: &str) -> Value {
    client
        .get(url)
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("json")
}

/// User plus system CPU time of a process so far, in milliseconds (`/proc/PID/stat`, at the
/// usual 100 clock ticks a second).
fn cpu_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of the line; `after` starts at field 3.
    (ticks(11) + ticks(12)) * 10.0
}

/// What one WebSocket client saw: when each `workhours.changed` frame arrived, and the time its
/// receive loop spent per frame (from receipt to ready for the next).
struct Seen {
    stamps: Vec<Instant>,
    frames: usize,
    busy: Duration,
    busy_max: Duration,
}

/// One client: reads frames until `stop`, stamping the `workhours.changed` ones.
async fn client(
    url: String,
    ready: Arc<AtomicUsize>,
    seen_events: Arc<AtomicUsize>,
    n_clients: usize,
    all_seen: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
) -> Seen {
    // A small read buffer: tungstenite zeroes the free part of it before every read, which with
    // the default 128 KiB took a quarter of the benchmark's CPU (frames here are ~150 bytes).
    let config = WebSocketConfig::default().read_buffer_size(4096);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(&url, Some(config), true)
        .await
        .expect("a WebSocket");
    let (_sink, mut stream) = ws.split();
    let mut seen = Seen {
        stamps: Vec::new(),
        frames: 0,
        busy: Duration::ZERO,
        busy_max: Duration::ZERO,
    };
    let mut first = true;
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = stop.changed() => break,
        };
        let at = Instant::now();
        let Some(Ok(msg)) = msg else { break };
        if let Message::Text(text) = msg {
            seen.frames += 1;
            if first {
                // The `state` frame sent on connect.
                first = false;
                ready.fetch_add(1, Ordering::SeqCst);
            } else if text.as_str().contains("\"workhours.changed\"") {
                seen.stamps.push(at);
                if (seen_events.fetch_add(1, Ordering::SeqCst) + 1).is_multiple_of(n_clients) {
                    all_seen.notify_one();
                }
            }
        }
        let busy = at.elapsed();
        seen.busy += busy;
        seen.busy_max = seen.busy_max.max(busy);
    }
    seen
}

/// Fan-out: `clients` WebSockets, `events` writes each causing one event every client gets.
async fn fanout(c: &Colonyd, http: &reqwest::Client, o: &Opts) {
    let n = o.clients;
    let ready = Arc::new(AtomicUsize::new(0));
    let seen_events = Arc::new(AtomicUsize::new(0));
    let all_seen = Arc::new(Notify::new());
    let (stop_tx, stop) = watch::channel(false);
    let mut tasks = Vec::with_capacity(n);
    for _ in 0..n {
        tasks.push(tokio::spawn(client(
            c.ws_url(),
            ready.clone(),
            seen_events.clone(),
            n,
            all_seen.clone(),
            stop.clone(),
        )));
        // Connect a few at a time (the accept queue is finite).
        if tasks.len() % 20 == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let start = Instant::now();
    while ready.load(Ordering::SeqCst) < n {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "only {} of {n} WebSockets connected",
            ready.load(Ordering::SeqCst)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let url = format!("{}/api/workhours", c.base());
    let hours = get_json(http, &url).await["endHours"]
        .as_f64()
        .expect("endHours") as u8;
    let other = if hours >= 24 { 23 } else { hours + 1 };
    let total = WARMUP + o.events;
    let mut sent = Vec::with_capacity(total);
    let mut missing = 0;
    let (cpu_server, cpu_bench, wall) =
        (cpu_ms(c.pid()), cpu_ms(std::process::id()), Instant::now());
    for k in 0..total {
        let value = if k.is_multiple_of(2) { other } else { hours };
        let t0 = Instant::now();
        common::post_ok(http, &url, &json!({ "endHours": value })).await;
        sent.push((t0, Instant::now()));
        let target = n * (k + 1);
        let waited = tokio::time::timeout(Duration::from_secs(2), async {
            while seen_events.load(Ordering::SeqCst) < target {
                all_seen.notified().await;
            }
        })
        .await;
        if waited.is_err() {
            missing += target - seen_events.load(Ordering::SeqCst);
            break;
        }
    }
    let wall = wall.elapsed();
    let cpu_server = cpu_ms(c.pid()) - cpu_server;
    let cpu_bench = cpu_ms(std::process::id()) - cpu_bench;
    let _ = stop_tx.send(true);
    let mut seen = Vec::with_capacity(n);
    for t in tasks {
        seen.push(t.await.expect("a client task"));
    }
    // Per client and counted event: from just before the write was sent, and from its reply
    // (negative when the frame came before the reply).
    let (mut from_send, mut from_reply) = (Vec::new(), Vec::new());
    let (mut first, mut last) = (Vec::new(), Vec::new());
    for (k, &(t0, t1)) in sent.iter().enumerate().skip(WARMUP) {
        let (mut earliest, mut latest) = (Duration::MAX, Duration::ZERO);
        for s in &seen {
            let Some(&at) = s.stamps.get(k) else { continue };
            let d = at.saturating_duration_since(t0);
            earliest = earliest.min(d);
            latest = latest.max(d);
            from_send.push(d);
            from_reply.push(if at >= t1 {
                (at - t1).as_secs_f64() * 1e3
            } else {
                -(t1 - at).as_secs_f64() * 1e3
            });
        }
        first.push(earliest);
        last.push(latest);
    }
    from_send.sort();
    first.sort();
    last.sort();
    from_reply.sort_by(f64::total_cmp);
    let q = |v: &[f64], p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    let frames: usize = seen.iter().map(|s| s.frames).sum();
    let busy: Duration = seen.iter().map(|s| s.busy).sum();
    let busy_max = seen.iter().map(|s| s.busy_max).max().unwrap_or_default();
    println!(
        "## Fan-out: {n} WebSocket clients, {} workhours.changed events ({} samples, {missing} missing)\n",
        o.events,
        from_send.len()
    );
    println!("| measure | p50 | p99 | max |");
    println!("|---|---|---|---|");
    let row = |what: String, [p50, p99, max]: [f64; 3]| {
        println!("| {what} | {p50:.2} ms | {p99:.2} ms | {max:.2} ms |");
    };
    let ms = |v: &[Duration]| [pct(v, 0.5), pct(v, 0.99), pct(v, 1.0)];
    row(
        "write sent -> client got the event (every client x event)".into(),
        ms(&from_send),
    );
    row(
        "write reply -> client got the event".into(),
        [
            q(&from_reply, 0.5),
            q(&from_reply, 0.99),
            q(&from_reply, 1.0),
        ],
    );
    row(
        "write sent -> the first client got it (per event)".into(),
        ms(&first),
    );
    row(
        format!("write sent -> the last of {n} clients got it (per event)"),
        ms(&last),
    );
    println!(
        "\nBenchmark receive loops: {frames} frames, {:.2} µs per frame on average, {:.1} µs at most. CPU during the {} writes ({:.0} ms wall): colonyd {cpu_server:.0} ms, benchmark {cpu_bench:.0} ms.\n",
        busy.as_secs_f64() * 1e6 / frames.max(1) as f64,
        busy_max.as_secs_f64() * 1e6,
        sent.len(),
        wall.as_secs_f64() * 1e3,
    );
}

/// A write the benchmark makes: a building's pause or the speed.
#[derive(Clone, Copy)]
enum Write {
    Pause(i64),
    Speed(u8, u8),
}

impl Write {
    /// The `i`-th write of a connection: URL path and body.
    fn request(self, i: usize) -> (&'static str, Value) {
        match self {
            Write::Pause(id) => (
                "/api/building/pause",
                json!({"id": id, "paused": i.is_multiple_of(2)}),
            ),
            Write::Speed(a, b) => (
                "/api/speed",
                json!({"speed": if i.is_multiple_of(2) { a } else { b }}),
            ),
        }
    }

    /// Whether the read-back answer shows the `i`-th write.
    fn shows(self, i: usize, answer: &Value) -> bool {
        let (_, body) = self.request(i);
        match self {
            Write::Pause(_) => answer["items"][0]["paused"] == body["paused"],
            Write::Speed(..) => answer["speed"] == body["speed"],
        }
    }

    /// Where its effect is read back.
    fn read_back(self) -> String {
        match self {
            Write::Pause(id) => format!("/api/buildings?id={id}&format=json"),
            Write::Speed(..) => "/api/speed".into(),
        }
    }
}

/// Per connection, writes back to back until `secs` have passed; with `verify`, each write is
/// followed by a read of what it wrote. Returns the write latencies (sorted), the violations of
/// read-your-writes and the wall time.
async fn hammer(
    base: &str,
    per_conn: &[Write],
    secs: f64,
    verify: bool,
) -> (Vec<Duration>, usize, Duration) {
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(secs);
    let mut tasks = Vec::new();
    for &w in per_conn {
        let base = base.to_owned();
        tasks.push(tokio::spawn(async move {
            let client = common::keep_alive_client();
            let (mut lat, mut bad) = (Vec::new(), 0);
            let mut i = 0;
            while Instant::now() < deadline {
                let (path, body) = w.request(i);
                let t = Instant::now();
                common::post_ok(&client, &format!("{base}{path}"), &body).await;
                lat.push(t.elapsed());
                if verify {
                    let answer = get_json(&client, &format!("{base}{}", w.read_back())).await;
                    if !w.shows(i, &answer) {
                        bad += 1;
                    }
                }
                i += 1;
            }
            (lat, bad)
        }));
    }
    let (mut all, mut bad) = (Vec::new(), 0);
    for t in tasks {
        let (l, b) = t.await.expect("a writer");
        all.extend(l);
        bad += b;
    }
    let wall = start.elapsed();
    all.sort();
    (all, bad, wall)
}

/// Fetches `path&cold=N` (a fresh N each time) back to back until `stop`; the latencies.
async fn reader(base: String, path: &'static str, stop: watch::Receiver<bool>) -> Vec<Duration> {
    static COLD: AtomicU64 = AtomicU64::new(0);
    let client = common::keep_alive_client();
    let mut out = Vec::new();
    while !*stop.borrow() {
        let n = COLD.fetch_add(1, Ordering::Relaxed);
        let t = Instant::now();
        let body = common::get_bytes(&client, &format!("{base}{path}&cold={n}")).await;
        assert!(!body.is_empty());
        out.push(t.elapsed());
    }
    out.sort();
    out
}

/// The ids of buildings that can be paused: the save's, and when it has fewer than `need`, free
/// lumberjack flags placed (as construction sites) where `/api/placement/find` suggests, near
/// the first building (the district center).
async fn pausable_buildings(http: &reqwest::Client, base: &str, need: usize) -> Vec<i64> {
    let list = get_json(
        http,
        &format!("{base}/api/buildings?limit=0&format=json&exclude=paths"),
    )
    .await;
    let list = list.as_array().expect("a list");
    let try_pause = |id: i64| async move {
        let url = format!("{base}/api/building/pause");
        let answer = common::post_text(http, &url, &json!({"id": id, "paused": false})).await;
        !answer.contains("\"error\"")
    };
    let mut out = Vec::new();
    for b in list {
        if out.len() >= need {
            break;
        }
        let id = b["id"].as_i64().expect("an id");
        if try_pause(id).await {
            out.push(id);
        }
    }
    let first = &list[0];
    let faction = first["name"]
        .as_str()
        .and_then(|n| n.split_once('.'))
        .map_or("Folktails", |(_, f)| f)
        .to_owned();
    let prefab = format!("LumberjackFlag.{faction}");
    let (x, y) = (
        first["x"].as_i64().unwrap_or(0),
        first["y"].as_i64().unwrap_or(0),
    );
    let mut placed = 0;
    for _ in 0..need * 2 {
        if out.len() >= need {
            break;
        }
        let found = client_post_json(
            http,
            &format!("{base}/api/placement/find?format=json"),
            json!({"prefab": prefab, "x1": x - 20, "y1": y - 20, "x2": x + 20, "y2": y + 20}),
        )
        .await;
        let Some(spot) = found["placements"].as_array().and_then(|p| p.first()) else {
            break;
        };
        let done = client_post_json(
            http,
            &format!("{base}/api/building/place?format=json"),
            json!({"prefab": prefab, "x": spot["x"], "y": spot["y"], "z": spot["z"],
                   "orientation": spot["orientation"]}),
        )
        .await;
        if let Some(id) = done["id"].as_i64() {
            out.push(id);
            placed += 1;
        }
    }
    if placed > 0 {
        println!("(placed {placed} {prefab} construction sites to have buildings to pause)\n");
    }
    out
}

/// Posts `body` and parses the answer (errors included).
async fn client_post_json(http: &reqwest::Client, url: &str, body: Value) -> Value {
    http.post(url)
        .json(&body)
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("json")
}

/// Writes: throughput at each connection count, read-your-writes, writes behind long reads.
async fn writes(c: &Colonyd, http: &reqwest::Client, o: &Opts, pausable: &[i64]) {
    let base = c.base();
    let (a, b) = (o.speed_pair[0], o.speed_pair[1]);
    println!(
        "## Writes ({} pausable buildings; speed sets alternate {a} and {b}, so the game runs during them)\n",
        pausable.len()
    );
    println!("| write | connections | writes | writes/s | p50 | p99 |");
    println!("|---|---|---|---|---|---|");
    let restore = json!({"speed": o.speed});
    for &conns in &o.connections {
        for (name, w) in [
            ("building pause toggle", Write::Pause(pausable[0])),
            ("speed set", Write::Speed(a, b)),
        ] {
            let (lat, _, wall) = hammer(&base, &vec![w; conns], o.seconds, false).await;
            println!(
                "| {name} | {conns} | {} | {:.0} | {:.2} ms | {:.2} ms |",
                lat.len(),
                lat.len() as f64 / wall.as_secs_f64(),
                pct(&lat, 0.5),
                pct(&lat, 0.99)
            );
            common::post_ok(http, &format!("{base}/api/speed"), &restore).await;
        }
    }

    // Read-your-writes: one connection per pausable building (its own), one on the speed.
    let conns = o.connections.iter().copied().max().unwrap_or(1);
    let mut per_conn = vec![Write::Speed(a, b)];
    per_conn.extend(
        pausable
            .iter()
            .take(conns.saturating_sub(1))
            .map(|&id| Write::Pause(id)),
    );
    let (lat, bad, wall) = hammer(&base, &per_conn, o.seconds, true).await;
    common::post_ok(http, &format!("{base}/api/speed"), &restore).await;
    println!(
        "\nRead-your-writes: {} connections ({} on their own building's pause, read back with `/api/buildings?id=`; 1 on the speed, read back with `/api/speed`), {} writes each followed by its read in {:.1} s: {bad} violations; write p50 {:.2} ms, p99 {:.2} ms.\n",
        per_conn.len(),
        per_conn.len() - 1,
        lat.len(),
        wall.as_secs_f64(),
        pct(&lat, 0.5),
        pct(&lat, 0.99)
    );
}

/// A writer's pause toggles alone, then beside readers of the whole building list rendered
/// afresh.
async fn long_reads(c: &Colonyd, o: &Opts, building: i64) {
    let base = c.base();
    const LONG_READ: &str = "/api/buildings?limit=0&detail=full";
    let w = [Write::Pause(building)];
    let (quiet, _, _) = hammer(&base, &w, o.seconds, false).await;
    let (stop_tx, stop) = watch::channel(false);
    let readers: Vec<_> = (0..o.readers)
        .map(|_| tokio::spawn(reader(base.clone(), LONG_READ, stop.clone())))
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (loaded, _, _) = hammer(&base, &w, o.seconds, false).await;
    let _ = stop_tx.send(true);
    let mut reads = Vec::new();
    for r in readers {
        reads.extend(r.await.expect("a reader"));
    }
    reads.sort();
    println!(
        "Writes beside long reads: {} connections fetching `{LONG_READ}&cold=N` back to back ({} reads, p50 {:.2} ms, p99 {:.2} ms), one connection toggling a building's pause:\n",
        o.readers,
        reads.len(),
        pct(&reads, 0.5),
        pct(&reads, 0.99)
    );
    println!("| case | writes | p50 | p99 | max |");
    println!("|---|---|---|---|---|");
    for (name, v) in [("quiet", quiet), ("beside the readers", loaded)] {
        println!(
            "| {name} | {} | {:.2} ms | {:.2} ms | {:.2} ms |",
            v.len(),
            pct(&v, 0.5),
            pct(&v, 0.99),
            pct(&v, 1.0)
        );
    }
}

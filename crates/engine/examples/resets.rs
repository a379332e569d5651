//! Times `Colony-v0` resets to seeds not played before (each one generated: the terrain, the
//! water run to rest, the placement masks), the benchmark's 64 map by default; for profiling.
//!
//! `cargo run --release -p colony-engine --example resets [resets] [map side]`

use engine::{Env, EnvConfig};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let side: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let mut env = Env::new(EnvConfig::benchmark(side, 1.0)).expect("settings");
    let mut times: Vec<f64> = Vec::new();
    for seed in 0..n {
        let t = Instant::now();
        // Far from any seed kept by an earlier reset of this process.
        env.reset(1_000_000 + seed).expect("reset");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "{n} resets to new seeds, {side} map: mean {mean:.2} ms, p50 {:.2} ms, p90 {:.2} ms, max {:.2} ms",
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        times[times.len() - 1]
    );
}

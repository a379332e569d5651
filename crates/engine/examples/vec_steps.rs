//! Times the vector environment in-process (no Python): `n` worlds on `threads` threads, a masked
//! random agent, environment steps per second; for measuring how stepping scales with threads.
//!
//! `cargo run --release -p colony-engine --example vec_steps [rounds] [n] [threads]`; also prints
//! the mean time of a batch step with and without a world's reset among its steps.

use engine::{EnvConfig, VecEnv};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(n);
    let cfg = EnvConfig::benchmark(64, 1.0);
    let mut vec = VecEnv::new(&cfg, n, threads).expect("settings");
    vec.reset(1).expect("reset");
    let mut state = 0x2545_f491_4f6c_dd1du64;
    // Batch steps without and with a world's reset: how many, and their milliseconds.
    let mut batches = [(0u32, 0.0f64); 2];
    let t = Instant::now();
    for _ in 0..rounds {
        let actions: Vec<i64> = vec
            .envs()
            .map(|e| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let allowed = e.mask().iter().filter(|m| **m == 1).count() as u64;
                let k = (state % allowed) as usize;
                e.mask()
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| **m == 1)
                    .nth(k)
                    .map_or(0, |(i, _)| i as i64)
            })
            .collect();
        let st = Instant::now();
        let out = vec.step(&actions).expect("step");
        let took = st.elapsed().as_secs_f64() * 1e3;
        let i = usize::from(out.iter().any(|o| o.action == "reset"));
        batches[i].0 += 1;
        batches[i].1 += took;
    }
    let wall = t.elapsed().as_secs_f64();
    println!(
        "{n} worlds on {threads} threads: {} environment steps in {wall:.2} s = {:.0} steps/s",
        rounds * n,
        (rounds * n) as f64 / wall
    );
    let mean = |(k, ms): (u32, f64)| if k > 0 { ms / f64::from(k) } else { 0.0 };
    println!(
        "  batch steps without a reset: {} at {:.2} ms; with one: {} at {:.2} ms",
        batches[0].0,
        mean(batches[0]),
        batches[1].0,
        mean(batches[1])
    );
}

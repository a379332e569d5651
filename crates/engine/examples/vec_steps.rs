//! Times the vector environment in-process (no Python): `n` worlds on `threads` threads, a masked
//! random agent, environment steps per second; for measuring how stepping scales with threads.
//!
//! `cargo run --release -p colony-engine --example vec_steps [rounds] [n] [threads]`

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
        vec.step(&actions).expect("step");
    }
    let wall = t.elapsed().as_secs_f64();
    println!(
        "{n} worlds on {threads} threads: {} environment steps in {wall:.2} s = {:.0} steps/s",
        rounds * n,
        (rounds * n) as f64 / wall
    );
}

//! Times `Colony-v0` steps in-process (no Python): a masked random agent on a 64 map with
//! one-hour turns, as `python/examples/throughput.py` plays it; for profiling the step.
//!
//! `cargo run --release -p colony-engine --example env_steps [steps] [map side] [turn hours]`

use engine::{Env, EnvConfig};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let steps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3000);
    let side: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let turn: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let cfg = EnvConfig::benchmark(side, turn);
    let mut env = Env::new(cfg).expect("settings");
    let t = Instant::now();
    env.reset(1).expect("reset");
    let reset = t.elapsed();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut allowed = Vec::new();
    let (mut resets, mut refused) = (0, 0);
    let t = Instant::now();
    for i in 0..steps {
        allowed.clear();
        allowed.extend(
            env.mask()
                .iter()
                .enumerate()
                .filter(|(_, m)| **m == 1)
                .map(|(i, _)| i as i64),
        );
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let out = env.step(allowed[(state % allowed.len() as u64) as usize]);
        refused += usize::from(out.error.is_some());
        if out.terminated || out.truncated {
            env.reset(100 + i as u64).expect("reset");
            resets += 1;
        }
    }
    let wall = t.elapsed();
    // The last world's hash: a change that should only be faster must leave it as it was.
    let hash = env.world().map_or(0, sim::World::state_hash);
    println!(
        "{steps} steps in {:.2} s: {:.3} ms a step, {:.0} steps/s ({resets} resets, {refused} refused); first reset {:.1} ms; last world's hash {hash:016x}",
        wall.as_secs_f64(),
        wall.as_secs_f64() * 1000.0 / steps as f64,
        steps as f64 / wall.as_secs_f64(),
        reset.as_secs_f64() * 1000.0,
    );
}

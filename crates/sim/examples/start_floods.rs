//! Measures how many seeds flood their start area: for each seed of the default map, 30 days of
//! water with nobody building, the deepest water seen on the land of the 11x11 square around the
//! start spot (sampled hourly; the river's own channel does not count). Prints the seeds deeper
//! than the placement limit (0.1) and than the flooded-building limit (0.3).
//!
//! `cargo run --release -p colony-sim --example start_floods [FIRST LAST]` (default 1 200).

#[path = "../tests/common/start_land.rs"]
mod start_land;

use start_land::deepest_at_start;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (first, last) = match args[..] {
        [a, b] => (a, b),
        _ => (1, 200),
    };
    let deepest: Vec<(u64, f32)> = (first..=last)
        .map(|seed| (seed, deepest_at_start(seed, 30)))
        .collect();
    // Deeper than 0.1 refuses placement there (waterBlocksPlacement); deeper than 0.3 stops a
    // building standing there (floodedDepth).
    for limit in [0.1, 0.3] {
        let wet: Vec<String> = deepest
            .iter()
            .filter(|(_, d)| *d > limit)
            .map(|(s, d)| format!("{s} ({d:.2})"))
            .collect();
        println!(
            "{} of {} seeds: water deeper than {limit} at the start within 30 days: {}",
            wet.len(),
            deepest.len(),
            wet.join(", ")
        );
    }
}

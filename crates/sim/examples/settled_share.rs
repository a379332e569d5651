//! Measures whether standing water comes to rest: for each seed of the default map, after `DAYS`
//! game days of temperate weather with nobody building, the share of wet tiles (depth at least
//! 0.05) whose depth changes by more than 1 mm in one water step, over the next day's steps
//! sampled every game hour. Prints the share per seed and over all seeds (the goal: at most 5%
//! after 3 days), with the worst seeds.
//!
//! `cargo run --release -p colony-sim --example settled_share [FIRST LAST [DAYS]]` (default 1 40 3).

#[path = "../tests/common/settled.rs"]
mod settled;

use settled::{MOVING, step_and_count_moving};
use sim::{NewGame, World, ticks_per_day, water_step_ticks};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (first, last, days) = match args[..] {
        [a, b, d] => (a, b, d),
        [a, b] => (a, b, 3),
        _ => (1, 40, 3),
    };
    let step = u64::from(water_step_ticks());
    let (mut wet_all, mut moving_all) = (0usize, 0usize);
    let mut per_seed = Vec::new();
    let mut hazards = Vec::new();
    for seed in first..=last {
        let mut w = World::new(&NewGame {
            seed,
            ..NewGame::default()
        });
        w.advance_ticks(days * ticks_per_day());
        let (mut wet, mut moving) = (0usize, 0usize);
        for _ in 0..24 {
            if w.weather().is_hazardous {
                hazards.push(seed);
                break;
            }
            let (w_wet, w_moving) = step_and_count_moving(&mut w);
            wet += w_wet;
            moving += w_moving;
            w.advance_ticks(ticks_per_day() / 24 - step);
        }
        wet_all += wet;
        moving_all += moving;
        per_seed.push((seed, moving as f64 / wet.max(1) as f64));
    }
    per_seed.sort_by(|a, b| b.1.total_cmp(&a.1));
    let worst: Vec<String> = per_seed
        .iter()
        .take(5)
        .map(|(s, f)| format!("{s} ({:.1}%)", 100.0 * f))
        .collect();
    println!(
        "seeds {first}-{last}, after {days} days: {:.1}% of wet tile-steps move more than {MOVING} m \
         ({moving_all} of {wet_all}); worst seeds {}",
        100.0 * moving_all as f64 / wet_all.max(1) as f64,
        worst.join(", ")
    );
    if !hazards.is_empty() {
        hazards.dedup();
        println!(
            "(a hazard began during the sampled day on seeds {hazards:?}; sampling stopped there)"
        );
    }
}

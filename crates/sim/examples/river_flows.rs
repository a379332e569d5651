//! Measures the current in the generated rivers, the basis of the water wheel's minimum flow
//! (`data/power.json` `waterWheelMinFlow`): for each seed of the default map, after 10 temperate
//! days with nobody building, the flux (m3/s) through every river tile holding water, and through
//! every river tile after the first drought has run 2 days (pools left standing). Prints the
//! shares of tiles under the minimum and the distribution of the flux.
//!
//! `cargo run --release -p colony-sim --example river_flows [FIRST LAST]` (default 1 40).

use sim::{NewGame, World, ticks_per_day};

/// Depth (m) below which a tile counts as dry.
const WET: f32 = 0.05;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (first, last) = match args[..] {
        [a, b] => (a, b),
        _ => (1, 40),
    };
    let min_flow = 0.05f32;
    let (mut flowing, mut drought) = (Vec::new(), Vec::new());
    for seed in first..=last {
        let mut w = World::new(&NewGame {
            seed,
            ..NewGame::default()
        });
        w.advance_ticks(10 * ticks_per_day());
        flowing.extend(river_fluxes(&w));
        // On to the second day of the first drought.
        while !w.weather().is_hazardous {
            w.advance_ticks(ticks_per_day() / 24);
        }
        w.advance_ticks(2 * ticks_per_day());
        drought.extend(river_fluxes(&w));
    }
    for (label, v) in [
        ("day 10, temperate", &mut flowing),
        ("drought day 2", &mut drought),
    ] {
        v.sort_by(f32::total_cmp);
        let under = v.iter().filter(|f| **f < min_flow).count();
        let q = |p: f64| v[((v.len() - 1) as f64 * p) as usize];
        println!(
            "{label}: {} wet river tiles on seeds {first}-{last}; {under} ({:.1}%) under {min_flow} m3/s; \
             flux p5 {:.3}, p10 {:.3}, median {:.3}, p90 {:.3}",
            v.len(),
            100.0 * under as f64 / v.len().max(1) as f64,
            q(0.05),
            q(0.10),
            q(0.5),
            q(0.9)
        );
    }
}

/// The flux magnitude through each river tile holding water.
fn river_fluxes(w: &World) -> Vec<f32> {
    let (mw, mh) = (w.map().width(), w.map().height());
    let mut out = Vec::new();
    for y in 0..mh {
        for x in 0..mw {
            if w.map().is_river(x, y) && w.water_depth(x, y) > WET {
                let f = w.water_flow(x, y);
                out.push(f.x.hypot(f.y));
            }
        }
    }
    out
}

//! Measures the rivers: the current in them (the basis of the water wheel's minimum flow,
//! `data/power.json` `waterWheelMinFlow`), how the first drought dries them and how fast they
//! fill again after it. For each seed of the default map, nobody building:
//! - after 10 temperate days, the flux (m3/s) through every river tile holding water;
//! - the river tiles holding water at each of the first drought's days, as a share of those
//!   holding water when it began, and the flux through them on its second day;
//! - the hours after the drought's end until the map stores 95% of the water it stored when the
//!   drought began (the refill).
//!
//! `cargo run --release -p colony-sim --example river_flows [FIRST LAST]` (default 1 40).

use sim::{NewGame, World, ticks_per_day};

/// Depth (m) below which a tile counts as dry.
const WET: f32 = 0.05;
/// Days of the drought whose wet river tiles are counted.
const DROUGHT_DAYS: usize = 4;

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
    let hour = ticks_per_day() / 24;
    let (mut flowing, mut drought) = (Vec::new(), Vec::new());
    // Per drought day, the wet river tiles' shares (seeds whose drought lasted that long).
    let mut drying: Vec<Vec<f64>> = vec![Vec::new(); DROUGHT_DAYS];
    let mut refill_hours = Vec::new();
    for seed in first..=last {
        let mut w = World::new(&NewGame {
            seed,
            ..NewGame::default()
        });
        w.advance_ticks(10 * ticks_per_day());
        flowing.extend(river_fluxes(&w));
        while !w.weather().is_hazardous {
            w.advance_ticks(hour);
        }
        let (stored, wet) = (w.water_stored(), river_fluxes(&w).len().max(1));
        for (day, shares) in drying.iter_mut().enumerate() {
            w.advance_ticks(ticks_per_day());
            if !w.weather().is_hazardous {
                break;
            }
            let fluxes = river_fluxes(&w);
            shares.push(fluxes.len() as f64 / wet as f64);
            if day == 1 {
                drought.extend(fluxes);
            }
        }
        while w.weather().is_hazardous {
            w.advance_ticks(hour);
        }
        let hours = (0..24 * 10).find(|_| {
            w.advance_ticks(hour);
            w.water_stored() >= 0.95 * stored
        });
        refill_hours.push(hours.map_or(f64::INFINITY, |h| (h + 1) as f64));
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
    let shares: Vec<String> = drying
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty())
        .map(|(d, v)| {
            format!(
                "day {}: {:.0}% ({} seeds)",
                d + 1,
                100.0 * median(v),
                v.len()
            )
        })
        .collect();
    println!(
        "drought: median share of river tiles still wet, {}",
        shares.join(", ")
    );
    let never = refill_hours.iter().filter(|h| h.is_infinite()).count();
    println!(
        "refill after the drought to 95% of the water stored before it: median {:.0} h, max {:.0} h \
         (not within 10 days on {never} seeds)",
        median(&refill_hours),
        refill_hours
            .iter()
            .copied()
            .filter(|h| h.is_finite())
            .fold(0.0, f64::max)
    );
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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

//! A study of the settle (ignored tests, run by hand): how a new map's water comes to rest, and
//! how far other ways to run it to rest land from the rules' own. `cargo test -p colony-sim --lib
//! settle_study -- --ignored --nocapture`.

use super::{SourceMode, Water, WaterParams, WaterTotals};
use crate::land::LAND_STREAM;
use crate::land::generate::{river_water, settle_river, settle_river_with};
use crate::map::Map;
use crate::rng::WorldRng;
use std::time::Instant;

fn start(seed: u64, side: u32) -> (Map, Water) {
    let map = crate::map::generate(seed, side, side);
    let mut rng = WorldRng::new(seed, LAND_STREAM);
    let water = river_water(&mut rng, &map);
    (map, water)
}

/// Another way to run the water to rest.
#[derive(Clone, Copy, Debug)]
struct Variant {
    /// Damping (the data's 0.1) of a first run to rest, before the rules' own.
    pre_damping: Option<f32>,
    /// Steps between checks (tolerance scaled to the same drift a step).
    cadence: usize,
}

fn settle_variant(
    v: Variant,
    water: &mut Water,
    terrain: &[u8],
    p: &WaterParams,
    tolerance: f32,
    max_steps: usize,
) -> usize {
    let tol = tolerance * v.cadence as f32 / 16.0;
    let mut steps = 0;
    let run = |water: &mut Water, p: &WaterParams, steps: &mut usize| {
        let mut last = water.depth.clone();
        while *steps < max_steps {
            for _ in 0..v.cadence {
                water.step(terrain, SourceMode::Temperate, p);
            }
            *steps += v.cadence;
            let moved = water
                .depth
                .iter()
                .zip(&last)
                .any(|(d, l)| (d - l).abs() > tol);
            if !moved {
                break;
            }
            last.copy_from_slice(&water.depth);
        }
    };
    if let Some(d) = v.pre_damping {
        let mut pre = *p;
        pre.damp_dt = p.damp_dt * d / 0.1;
        run(water, &pre, &mut steps);
    }
    run(water, p, &mut steps);
    water.drop_stranded();
    water.totals = WaterTotals {
        initial: water.stored(),
        ..WaterTotals::default()
    };
    steps
}

#[test]
#[ignore]
fn compare_variants() {
    let variants = [
        Variant {
            pre_damping: None,
            cadence: 16,
        },
        Variant {
            pre_damping: Some(0.14),
            cadence: 16,
        },
        Variant {
            pre_damping: None,
            cadence: 8,
        },
        Variant {
            pre_damping: Some(0.14),
            cadence: 8,
        },
    ];
    for side in [64u32, 128] {
        let mut rows = vec![(0usize, 0usize, 0f32, 0f64, 0i64, 0f64, 0f64); variants.len()];
        let mut base_steps = 0;
        let mut base_time = 0.0;
        for seed in 1..=40u64 {
            let (map, filled) = start(seed, side);
            let mut base = filled.clone();
            let t = Instant::now();
            base_steps += settle_river(&mut base, &map);
            base_time += t.elapsed().as_secs_f64();
            let wet = |w: &Water| w.depth.iter().filter(|d| **d > 0.0).count() as i64;
            for (k, v) in variants.iter().enumerate() {
                let mut w = filled.clone();
                let t = Instant::now();
                let steps = settle_river_with(&mut w, &map, |w, t, p, tol, m| {
                    settle_variant(*v, w, t, p, tol, m)
                });
                let r = &mut rows[k];
                r.0 += steps;
                r.5 += t.elapsed().as_secs_f64();
                let diffs: Vec<f32> = w
                    .depth
                    .iter()
                    .zip(&base.depth)
                    .map(|(a, b)| (a - b).abs())
                    .collect();
                r.2 = r.2.max(diffs.iter().copied().fold(0.0, f32::max));
                r.3 += diffs.iter().map(|d| f64::from(*d)).sum::<f64>() / diffs.len() as f64;
                r.4 += (wet(&w) - wet(&base)).abs();
                r.6 = r.6.max((wet(&w) - wet(&base)).abs() as f64);
                r.1 += usize::from(diffs.iter().any(|d| *d > 0.01));
            }
        }
        println!(
            "{side} map, seeds 1-40: rules' settle {base_steps} steps ({:.1} a map), {:.1} ms a map",
            base_steps as f64 / 40.0,
            base_time * 1000.0 / 40.0
        );
        for (v, r) in variants.iter().zip(&rows) {
            println!(
                "  {v:?}: {:.1} steps a map, {:.1} ms a map; depth max diff {:.4} m, mean {:.6} m; maps with a tile >1 cm off {}; wet tiles off {:.1} a map (max {})",
                r.0 as f64 / 40.0,
                r.5 * 1000.0 / 40.0,
                r.2,
                r.3 / 40.0,
                r.1,
                r.4 as f64 / 40.0,
                r.6
            );
        }
    }
}

/// The weakened river settled on from the water as it stands (not again from the filled
/// channel).
fn settle_warm(water: &mut Water, map: &Map) -> (usize, usize) {
    use crate::land::generate::{
        SETTLE_MAX_DAYS, SETTLE_TOLERANCE, WEAKEN, WEAKEN_TRIES, start_land_wet, steps_per_day,
    };
    let (mut steps, mut tries) = (0, 0);
    for attempt in 0..=WEAKEN_TRIES {
        tries += 1;
        steps += water.settle(
            map.terrain(),
            &WaterParams::from_rules(),
            SETTLE_TOLERANCE,
            SETTLE_MAX_DAYS * steps_per_day(),
        );
        if attempt == WEAKEN_TRIES || !start_land_wet(water, map) {
            break;
        }
        for s in water.sources.iter_mut() {
            s.strength = ((s.strength * WEAKEN * 100.0).round() / 100.0).max(0.01);
        }
    }
    (steps, tries)
}

#[test]
#[ignore]
fn weakened_rivers() {
    for side in [64u32, 128] {
        let (mut base_steps, mut base_tries, mut warm_steps, mut warm_tries) = (0, 0, 0, 0);
        let (mut max_diff, mut mean_diff, mut wet_off, mut wet_max, mut off_maps) =
            (0f32, 0f64, 0i64, 0i64, 0);
        let (mut same_strength, mut hist) = (0, [0usize; 6]);
        let (mut tb, mut tw) = (0.0, 0.0);
        for seed in 1..=40u64 {
            let (map, filled) = start(seed, side);
            let mut base = filled.clone();
            let mut tries = 0;
            let t = Instant::now();
            base_steps += settle_river_with(&mut base, &map, |w, t, p, tol, m| {
                tries += 1;
                w.settle(t, p, tol, m)
            });
            tb += t.elapsed().as_secs_f64();
            base_tries += tries;
            hist[tries] += 1;
            let mut warm = filled.clone();
            let t = Instant::now();
            let (s, k) = settle_warm(&mut warm, &map);
            tw += t.elapsed().as_secs_f64();
            warm_steps += s;
            warm_tries += k;
            same_strength += usize::from(
                warm.sources
                    .iter()
                    .zip(&base.sources)
                    .all(|(a, b)| a.strength == b.strength),
            );
            let diffs: Vec<f32> = warm
                .depth
                .iter()
                .zip(&base.depth)
                .map(|(a, b)| (a - b).abs())
                .collect();
            max_diff = max_diff.max(diffs.iter().copied().fold(0.0, f32::max));
            mean_diff += diffs.iter().map(|d| f64::from(*d)).sum::<f64>() / diffs.len() as f64;
            off_maps += usize::from(diffs.iter().any(|d| *d > 0.01));
            let wet = |w: &Water| w.depth.iter().filter(|d| **d > 0.0).count() as i64;
            wet_off += (wet(&warm) - wet(&base)).abs();
            wet_max = wet_max.max((wet(&warm) - wet(&base)).abs());
        }
        println!(
            "{side} map, seeds 1-40: rules' settle {:.1} steps a map, {:.2} settles a map (maps by settles 1-5: {:?}), {:.1} ms a map",
            base_steps as f64 / 40.0,
            base_tries as f64 / 40.0,
            &hist[1..],
            tb * 1000.0 / 40.0
        );
        println!(
            "  weakened river settled on: {:.1} steps a map, {:.2} settles, {:.1} ms a map; same strengths on {same_strength}/40 maps; depth max diff {max_diff:.4} m, mean {:.6} m; maps with a tile >1 cm off {off_maps}; wet tiles off {:.1} a map (max {wet_max})",
            warm_steps as f64 / 40.0,
            warm_tries as f64 / 40.0,
            tw * 1000.0 / 40.0,
            mean_diff / 40.0,
            wet_off as f64 / 40.0
        );
    }
}

/// [`Water::settle`] that gives up (returns `true`, the water left as it stands) at the first
/// check whose drift is at most `loose` and whose start area is wet.
fn settle_or_give_up(water: &mut Water, map: &Map, loose: f32, steps: &mut usize) -> bool {
    use crate::land::generate::{SETTLE_MAX_DAYS, SETTLE_TOLERANCE, start_land_wet, steps_per_day};
    let p = WaterParams::from_rules();
    let max_steps = SETTLE_MAX_DAYS * steps_per_day();
    let mut last = water.depth.clone();
    let mut n = 0;
    while n < max_steps {
        for _ in 0..16 {
            water.step(map.terrain(), SourceMode::Temperate, &p);
        }
        n += 16;
        let drift = water
            .depth
            .iter()
            .zip(&last)
            .fold(0.0f32, |m, (d, l)| m.max((d - l).abs()));
        if drift <= SETTLE_TOLERANCE {
            break;
        }
        if drift <= loose && start_land_wet(water, map) {
            *steps += n;
            return true;
        }
        last.copy_from_slice(&water.depth);
    }
    *steps += n;
    water.drop_stranded();
    water.totals = WaterTotals {
        initial: water.stored(),
        ..WaterTotals::default()
    };
    false
}

/// The rules' weakening, a flooding river given up on once its water moves less than `loose`.
fn settle_early(filled: &Water, map: &Map, loose: f32) -> (Water, usize, usize) {
    use crate::land::generate::{WEAKEN, WEAKEN_TRIES, start_land_wet};
    let mut water = filled.clone();
    let (mut steps, mut tries) = (0, 0);
    for attempt in 0..=WEAKEN_TRIES {
        tries += 1;
        if attempt == WEAKEN_TRIES {
            let mut s = 0;
            settle_or_give_up(&mut water, map, -1.0, &mut s);
            steps += s;
            break;
        }
        let gave_up = settle_or_give_up(&mut water, map, loose, &mut steps);
        if !gave_up && !start_land_wet(&water, map) {
            break;
        }
        let sources = water.sources.clone();
        water = filled.clone();
        for (s, before) in water.sources.iter_mut().zip(sources) {
            s.strength = ((before.strength * WEAKEN * 100.0).round() / 100.0).max(0.01);
        }
    }
    (water, steps, tries)
}

#[test]
#[ignore]
fn flooding_rivers_given_up_early() {
    for side in [64u32, 128] {
        for loose in [0.1f32, 0.05, 0.02, 0.01] {
            let (mut base_steps, mut steps, mut same, mut off_maps) = (0, 0, 0, 0);
            let (mut max_diff, mut wet_off) = (0f32, 0i64);
            for seed in 1..=40u64 {
                let (map, filled) = start(seed, side);
                let mut base = filled.clone();
                base_steps += settle_river(&mut base, &map);
                let (w, s, _) = settle_early(&filled, &map, loose);
                steps += s;
                let identical = w.depth == base.depth
                    && w.sources
                        .iter()
                        .zip(&base.sources)
                        .all(|(a, b)| a.strength == b.strength);
                same += usize::from(identical);
                let d = w
                    .depth
                    .iter()
                    .zip(&base.depth)
                    .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
                max_diff = max_diff.max(d);
                off_maps += usize::from(d > 0.01);
                let wet = |w: &Water| w.depth.iter().filter(|d| **d > 0.0).count() as i64;
                wet_off += (wet(&w) - wet(&base)).abs();
            }
            println!(
                "{side} map, loose {loose}: {:.1} steps a map (rules' {:.1}); maps identical {same}/40; depth max diff {max_diff:.4} m; maps >1 cm off {off_maps}; wet tiles off {:.1} a map",
                steps as f64 / 40.0,
                base_steps as f64 / 40.0,
                wet_off as f64 / 40.0
            );
        }
    }
}

#[test]
#[ignore]
fn flooding_rivers_given_up_early_many_seeds() {
    for (side, seeds) in [(64u32, 1..=300u64), (48, 1..=100), (96, 1..=60)] {
        for loose in [0.01f32, 0.005] {
            let (mut base_steps, mut steps, mut n, mut differ) = (0, 0, 0, Vec::new());
            for seed in seeds.clone().chain(1_000_000..1_000_100) {
                let (map, filled) = start(seed, side);
                let mut base = filled.clone();
                base_steps += settle_river(&mut base, &map);
                let (w, s, _) = settle_early(&filled, &map, loose);
                steps += s;
                n += 1;
                let identical = w.depth == base.depth
                    && w.sources
                        .iter()
                        .zip(&base.sources)
                        .all(|(a, b)| a.strength == b.strength);
                if !identical {
                    differ.push(seed);
                }
            }
            println!(
                "{side} map, loose {loose}, {n} seeds: {:.1} steps a map (rules' {:.1}); maps that differ: {differ:?}",
                steps as f64 / n as f64,
                base_steps as f64 / n as f64,
            );
        }
    }
}

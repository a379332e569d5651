//! Tests of the soil: moisture, contamination and the hourly update around changes.

use super::*;

/// A flat map of height 4 with a wide lake (a band of water tiles) along the west side.
fn lake(w: u32, h: u32, lake_cols: u32) -> (Vec<u8>, Water) {
    let terrain = vec![4u8; (w * h) as usize];
    let mut water = Water::new(w, h, &[]);
    for y in 0..h {
        for x in 0..lake_cols {
            water.depth[(y * w + x) as usize] = 1.0;
        }
    }
    (terrain, water)
}

/// The tiles whose inputs differ, found by comparing every tile.
fn changed_tiles(a: &SpreadInputs, b: &SpreadInputs) -> Vec<usize> {
    (0..a.wet.len())
        .filter(|&i| {
            a.wet[i] != b.wet[i]
                || a.barrier[i] != b.barrier[i]
                || a.level[i] != b.level[i]
                || a.seed[i] != b.seed[i]
        })
        .collect()
}

#[test]
fn moisture_reaches_about_fifteen_tiles_from_a_large_body_on_flat_land() {
    let (terrain, water) = lake(40, 20, 10);
    let mut soil = Soil::new(800);
    soil.recompute(&terrain, &water);
    let row = 10 * 40;
    let moist_cols: Vec<u32> = (10..40)
        .filter(|x| soil.is_moist(row + *x as usize))
        .collect();
    assert_eq!(moist_cols.first(), Some(&10));
    let reach = moist_cols.len();
    assert!((14..=16).contains(&reach), "reach {reach}");
    // Water tiles themselves are not moist soil.
    assert!(!soil.is_moist(row + 5));
    // Monotone decreasing away from the shore.
    for x in 10..24 {
        assert!(soil.moisture[row + x] >= soil.moisture[row + x + 1]);
    }
}

#[test]
fn climbing_costs_six_per_level_and_dry_land_dries() {
    let (mut terrain, mut water) = lake(40, 20, 10);
    for y in 0..20 {
        for x in 15..40 {
            terrain[y * 40 + x] = 6;
        }
    }
    let mut soil = Soil::new(800);
    soil.recompute(&terrain, &water);
    let row = 10 * 40;
    // The lake's surface (level 5) is above the flat land (4): no climb to tile 10, which gets
    // 16 - 1 = 15 and tile 14 gets 11; climbing 2 levels to the terrace at 15 costs 13 more.
    assert!(soil.is_moist(row + 14));
    let terrace: usize = (15..40).filter(|x| soil.is_moist(row + x)).count();
    assert!(terrace <= 2, "terrace moist tiles {terrace}");
    water.depth.fill(0.0);
    soil.recompute(&terrain, &water);
    assert!(soil.moisture.iter().all(|m| *m == 0));
}

#[test]
fn recomputing_around_changes_gives_the_moisture_of_a_full_spread() {
    // Rolling terrain, a lake and scattered ponds; then hours in which a few water tiles
    // come and go and surfaces rise and fall, near each other or far apart.
    let (w, h) = (90usize, 70usize);
    let terrain: Vec<u8> = (0..w * h)
        .map(|i| (4 + (i % w) / 23 + (i / w) / 31 + (i * 7 % 13 == 0) as usize) as u8)
        .collect();
    let mut water = Water::new(w as u32, h as u32, &[]);
    for y in 0..h {
        for x in 0..12 {
            water.depth[y * w + x] = 1.2;
        }
    }
    let mut soil = Soil::new(w * h);
    soil.recompute(&terrain, &water);
    let mut next = crate::testutil::lcg(12345);
    let reach = Model::from_rules().reach();
    let mut locals = 0;
    for hour in 0..60 {
        for _ in 0..1 + hour % 7 {
            let i = next(w * h);
            water.depth[i] = match next(4) {
                0 => 0.0,
                1 => 0.06,
                2 => 0.9,
                _ => water.depth[i] + 1.0,
            };
        }
        let last = soil.last.clone();
        soil.recompute(&terrain, &water);
        let mut fresh = Soil::new(w * h);
        fresh.recompute(&terrain, &water);
        assert_eq!(soil.moisture, fresh.moisture, "hour {hour}");
        let changed = changed_tiles(&last.unwrap(), soil.last.as_ref().unwrap());
        let areas = changed_areas(&changed, w, h, reach);
        let tiles: usize = areas.iter().map(|a| a.grown(1, w, h).tiles()).sum();
        locals += usize::from(!areas.is_empty() && tiles < w * h / 2);
    }
    assert!(locals > 30, "only {locals} hours recomputed locally");
}

#[test]
fn badwater_contaminates_soil_which_recovers_later() {
    let (terrain, mut water) = lake(30, 10, 6);
    for i in 0..300 {
        water.bad[i] = water.depth[i] * 0.8;
    }
    let mut soil = Soil::new(300);
    let c = soil.recompute(&terrain, &water);
    assert!(c.contaminated > 0 && c.cleaned == 0);
    // Too dirty to irrigate.
    assert!(soil.moisture.iter().all(|m| *m == 0));
    assert!(soil.is_contaminated(5 * 30 + 8));
    water.depth.fill(0.0);
    water.bad.fill(0.0);
    let hours = world_rules()
        .contamination
        .soil_spread
        .value
        .decontamination_hours;
    let mut cleaned = 0;
    for _ in 0..hours {
        cleaned += soil.recompute(&terrain, &water).cleaned;
    }
    assert_eq!(cleaned, c.contaminated);
    assert!(soil.contamination.iter().all(|c| *c == 0));
}

/// The inputs of every tile computed directly from the terrain and the water (no rows, no
/// update), as `(wet, level, seed)`.
fn inputs_of(terrain: &[u8], water: &Water, barrier: &[bool]) -> (Vec<bool>, Vec<u8>, Vec<u16>) {
    let m = Model::from_rules();
    let (w, h) = (water.width as usize, water.height as usize);
    let wet: Vec<bool> = water.depth.iter().map(|d| *d >= m.min_depth).collect();
    let mut level = terrain.to_vec();
    let mut seed = vec![0u16; w * h];
    let r = m.window / 2;
    for i in (0..w * h).filter(|i| wet[*i]) {
        let floor = f32::from(terrain[i]).max(water.barrier[i]);
        level[i] = (floor + water.depth[i]).floor().clamp(0.0, 255.0) as u8;
        let (x, y) = (i % w, i / w);
        let count = (y.saturating_sub(r)..(y + r + 1).min(h))
            .flat_map(|yy| (x.saturating_sub(r)..(x + r + 1).min(w)).map(move |xx| (xx, yy)))
            .filter(|(xx, yy)| wet[yy * w + xx])
            .count()
            - 1;
        let sat = (m.per_wet * count as f64).min(m.max_sat);
        let e = (m.emit * sat * 10.0).round() as u16;
        if water.share(i) <= m.max_irrigation_share && !barrier[i] {
            seed[i] = e;
        }
    }
    (wet, level, seed)
}

/// The water as a load leaves it: the same depths, flows, barriers and sources, with its active
/// spans not yet known.
fn reloaded(water: &Water) -> Water {
    let mut fresh = Water::new(water.width, water.height, &[]);
    fresh.depth = water.depth.clone();
    fresh.bad = water.bad.clone();
    fresh.fx = water.fx.clone();
    fresh.fy = water.fy.clone();
    fresh.barrier = water.barrier.clone();
    fresh.sources = water.sources.clone();
    fresh.totals = water.totals;
    fresh
}

#[test]
fn updating_within_the_water_rows_keeps_the_inputs_and_moisture_of_the_whole_map() {
    use crate::land::water::{SourceMode, WaterParams, WaterSource};
    // A valley with a stream from a clean source and a badwater spring; the water runs as in
    // the game (its active spans known) and between hours the terrain changes near and far from
    // water, barriers come and go, sources appear in dry rows and go, and the world is reloaded.
    let (w, h) = (120usize, 90usize);
    let mut terrain: Vec<u8> = (0..w * h)
        .map(|i| (3 + (i % w).abs_diff(30) / 6 + (i / w) / 20 + usize::from(i * 7 % 11 == 0)) as u8)
        .collect();
    let mut water = Water::new(w as u32, h as u32, &[]);
    let source = WaterSource::at;
    water.sources.push(source(30, 4, 1.2, false));
    water.sources.push(source(90, 60, 0.5, true));
    let p = WaterParams::from_rules();
    let r = world_rules();
    let steps = r.irrigation.simulation.value.recompute_ticks / r.water.simulation.value.step_ticks;
    let m = Model::from_rules();
    let mut soil = Soil::new(w * h);
    let mut full = Soil::new(w * h);
    let mut next = crate::testutil::lcg(777);
    let (mut far_changes, mut local_hours, mut contaminated_hours) = (0, 0, 0);
    for hour in 0..150 {
        let mode = match hour % 40 {
            25..=32 => SourceMode::Badtide(0.8),
            _ => SourceMode::Temperate,
        };
        for _ in 0..steps {
            water.step(&terrain, mode, &p);
        }
        // The spans hold every tile with water.
        let spans = water.water_columns().expect("spans after a step").to_vec();
        for (i, d) in water.depth.iter().enumerate() {
            let (lo, hi) = spans[i / w];
            assert!(
                *d == 0.0 || (lo..hi).contains(&(i % w)),
                "water outside the spans"
            );
        }
        let rows = water_rows(&m, &water, w, h);
        // Terrain changes on dry land outside the water rows, where the moisture reaches.
        let far: Vec<usize> = (0..w * h)
            .filter(|&i| soil.moisture[i] > 0 && !(rows[i / w].0..rows[i / w].1).contains(&(i % w)))
            .collect();
        for _ in 0..hour % 3 {
            if !far.is_empty() {
                let i = far[next(far.len())];
                terrain[i] = (terrain[i] + 1 + next(2) as u8 * 2).min(20) - 1;
                far_changes += 1;
            }
        }
        match next(8) {
            0 => {
                let i = next(w * h);
                terrain[i] = (terrain[i] + next(3) as u8).max(1) - 1 + next(2) as u8;
            }
            1 => {
                let (x, y) = (next(w) as u32, next(h) as u32);
                let height = (next(3) > 0).then(|| 4.0 + next(6) as f32);
                water.set_barrier(x, y, height);
            }
            2 => water
                .sources
                .push(source(next(w) as u32, next(h) as u32, 0.4, false)),
            3 if water.sources.len() > 2 => {
                water.sources.pop();
            }
            4 => {
                water = reloaded(&water);
                soil.last = None;
            }
            5 => {
                // A soil barrier comes or goes, near the water or far from it.
                let mut barrier = soil.barrier.clone();
                let i = next(w * h);
                barrier[i] = !barrier[i];
                soil.set_barriers(barrier);
            }
            _ => {}
        }
        // The update finds exactly the tiles that changed.
        if let Some(last) = &soil.last {
            let mut now = last.clone();
            let rows = water_rows(&m, &water, w, h);
            let update = now.update(&m, &terrain, &water, &soil.barrier, rows, w, h);
            assert_eq!(update.changed, changed_tiles(last, &now), "hour {hour}");
            let areas = changed_areas(&update.changed, w, h, m.reach());
            let tiles: usize = areas.iter().map(|a| a.grown(1, w, h).tiles()).sum();
            local_hours += usize::from(!areas.is_empty() && tiles < w * h / 2);
        }
        let change = soil.recompute(&terrain, &water);
        full.last = None;
        full.set_barriers(soil.barrier.clone());
        assert_eq!(change, full.recompute(&terrain, &water), "hour {hour}");
        assert_eq!(soil.moisture, full.moisture, "hour {hour}");
        assert_eq!(soil.contamination, full.contamination, "hour {hour}");
        let inputs = soil.last.as_ref().unwrap();
        let (wet, level, seed) = inputs_of(&terrain, &water, &soil.barrier);
        assert!(inputs.wet == wet && inputs.level == level, "hour {hour}");
        assert!(inputs.seed == seed, "hour {hour}");
        let contaminated = soil.contamination.iter().filter(|c| **c > 0).count();
        assert_eq!(inputs.contaminated, contaminated, "hour {hour}");
        contaminated_hours += usize::from(contaminated > 0);
    }
    assert!(
        far_changes > 100,
        "{far_changes} terrain changes away from water"
    );
    assert!(
        local_hours > 25,
        "only {local_hours} hours recomputed locally"
    );
    assert!(
        contaminated_hours > 50,
        "{contaminated_hours} hours with contamination"
    );
}

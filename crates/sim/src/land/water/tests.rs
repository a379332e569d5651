//! Tests of the water step: spreading, barriers, sources by weather, the clean-water pass, edges.

use super::*;

fn params() -> WaterParams {
    WaterParams::from_rules()
}

/// A closed basin of `w x h` flat tiles at height 2 with walls of height 9 around.
fn basin(w: u32, h: u32) -> (Water, Vec<u8>) {
    let mut terrain = vec![9u8; (w * h) as usize];
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            terrain[(y * w + x) as usize] = 2;
        }
    }
    (Water::new(w, h, &[]), terrain)
}

#[test]
fn a_heap_of_water_spreads_level_and_keeps_its_volume() {
    let (mut water, terrain) = basin(12, 12);
    water.depth[5 * 12 + 5] = 100.0;
    water.totals.initial = water.stored();
    let p = WaterParams {
        normal_evap: 0.0,
        shallow_evap: 0.0,
        ..params()
    };
    for _ in 0..6000 {
        water.step(&terrain, SourceMode::Temperate, &p);
        assert!(water.depth.iter().all(|d| *d >= 0.0));
    }
    let t = water.totals;
    let expect = t.initial + t.added - t.evaporated - t.edge_lost;
    assert!(
        (water.stored() - expect).abs() < 1e-3,
        "{} vs {expect}",
        water.stored()
    );
    assert_eq!(t.edge_lost, 0.0);
    // Level: 100 m3 over 100 tiles (evaporation off).
    let inner: Vec<f32> = (1..11)
        .flat_map(|y| (1..11).map(move |x| (y, x)))
        .map(|(y, x)| water.depth[y * 12 + x])
        .collect();
    let (lo, hi) = inner
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), d| (a.min(*d), b.max(*d)));
    assert!(
        hi - lo < 0.03,
        "not level: {lo}..{hi}: {:?}",
        water.depth.chunks(12).collect::<Vec<_>>()
    );
    assert!(lo > 0.98 && hi < 1.02, "{lo}..{hi}");
}

#[test]
fn a_barrier_holds_water_below_its_height_and_spills_above() {
    // A 1-wide channel: source at the west end, barrier in the middle.
    let (w, h) = (20u32, 3u32);
    let mut terrain = vec![9u8; (w * h) as usize];
    for x in 1..w - 1 {
        terrain[(w + x) as usize] = 2;
    }
    let mut water = Water::new(w, h, &[]);
    water.set_barrier(10, 1, Some(3.0));
    water.sources.push(WaterSource::at(2, 1, 0.05, false));
    let p = params();
    let mut spilled = false;
    for _ in 0..4000 {
        water.step(&terrain, SourceMode::Temperate, &p);
        let upstream = water.depth[(w + 9) as usize] + 2.0;
        let downstream: f32 = (11..w - 1).map(|x| water.depth[(w + x) as usize]).sum();
        if upstream < 3.0 && !spilled {
            assert_eq!(downstream, 0.0, "water passed below the barrier");
        } else if downstream > 0.0 {
            spilled = true;
        }
    }
    assert!(spilled, "water never spilled over the barrier");
    water.set_barrier(10, 1, None);
    assert_eq!(water.barrier[(w + 10) as usize], f32::NEG_INFINITY);
}

#[test]
fn droughts_stop_clean_sources_and_badtides_foul_them() {
    let (mut water, terrain) = basin(8, 8);
    water.sources.push(WaterSource::at(3, 3, 1.0, false));
    water.sources.push(WaterSource::at(5, 5, 1.0, true));
    let p = params();
    water.step(&terrain, SourceMode::Drought, &p);
    assert_eq!(water.totals.added, 0.0);
    water.step(&terrain, SourceMode::Temperate, &p);
    assert!((water.totals.added - f64::from(p.dt)).abs() < 1e-6);
    assert_eq!(water.stored_bad(), 0.0);
    water.step(&terrain, SourceMode::Badtide(0.5), &p);
    assert!((water.stored_bad() - 1.5 * f64::from(p.dt)).abs() < 1e-3);
}

#[test]
fn the_clean_water_pass_moves_water_as_the_full_pass_does() {
    // The same basin twice; in the second, one tile holds -0.0 badwater: no badwater at
    // all, but not the +0 the clean pass needs, so every step there takes the full pass.
    let (mut clean, terrain) = basin(16, 12);
    clean.sources.push(WaterSource::at(4, 5, 0.5, false));
    clean.depth[8 * 16 + 10] = 3.0;
    let mut full = clean.clone();
    full.bad[5 * 16 + 4] = -0.0;
    let p = params();
    for step in 0..400 {
        clean.step(&terrain, SourceMode::Temperate, &p);
        full.step(&terrain, SourceMode::Temperate, &p);
        full.bad[5 * 16 + 4] = -0.0;
        let bits = |w: &Water| w.depth.iter().map(|d| d.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&clean), bits(&full), "step {step}");
        assert_eq!(clean.totals, full.totals, "step {step}");
    }
    assert!(clean.bad.iter().all(|b| b.to_bits() == 0));
}

#[test]
fn water_runs_off_open_edges_only() {
    let (w, h) = (6u32, 6u32);
    let terrain = vec![2u8; (w * h) as usize];
    let closed: Vec<usize> = (0..w as usize).collect();
    let mut water = Water::new(w, h, &closed);
    water.depth.fill(1.0);
    water.totals.initial = water.stored();
    let p = params();
    for _ in 0..200 {
        water.step(&terrain, SourceMode::Temperate, &p);
    }
    let t = water.totals;
    assert!(t.edge_lost > 1.0);
    let expect = t.initial + t.added - t.evaporated - t.edge_lost;
    assert!((water.stored() - expect).abs() < 1e-3);
    // The closed south row drains only sideways and north, so it is not drier than the north row.
    assert!(water.depth[2] >= water.depth[(5 * w + 2) as usize]);
}

//! Water buildings in play: impermeable floors closing the soil, aquifer drills, valves.

use crate::testutil::{HOUR, build, world};
use crate::world::World;

/// A dry, moist, free land tile whose 3x3 ring is dry, free land at its height (so floors can
/// stand all around it), nearest the start spot but clear of the district center.
fn moist_tile_with_free_ring(w: &World) -> (u32, u32, u32) {
    let (sx, sy, _) = w.map.start_spot();
    let mut best: Option<(u32, u32, u32)> = None;
    for y in 2..w.map.height() - 2 {
        for x in 2..w.map.width() - 2 {
            let z = w.map.terrain_height(x, y);
            let free = |tx: u32, ty: u32| {
                w.map.terrain_height(tx, ty) == z
                    && w.water_depth(tx, ty) == 0.0
                    && w.land.occupant[w.land.idx(tx, ty)].is_none()
                    && !w
                        .colony
                        .blocks
                        .contains_key(&crate::colony::geometry::voxel(tx, ty, u32::from(z)))
            };
            let ok = w.is_moist(x, y)
                && (x - 1..=x + 1).all(|tx| (y - 1..=y + 1).all(|ty| free(tx, ty)));
            let d = x.abs_diff(sx) + y.abs_diff(sy);
            // (Away from the district center and its doorstep.)
            if ok && d > 8 && best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, x, y));
            }
        }
    }
    let (_, x, y) = best.expect("a moist tile with a free ring near the river");
    (x, y, u32::from(w.map.terrain_height(x, y)))
}

#[test]
fn impermeable_floors_close_the_soil_to_moisture_through_saves_until_demolished() {
    let mut w = world();
    w.advance_ticks(2 * HOUR);
    let (x, y, z) = moist_tile_with_free_ring(&w);
    let ring: Vec<(u32, u32)> = (x - 1..=x + 1)
        .flat_map(|tx| (y - 1..=y + 1).map(move |ty| (tx, ty)))
        .filter(|t| *t != (x, y))
        .collect();
    let floors: Vec<i32> = ring
        .iter()
        .map(|&(tx, ty)| build(&mut w, "ImpermeableFloor.Folktails", tx, ty, z, "south"))
        .collect();
    w.advance_ticks(2 * HOUR);
    // Moisture neither enters the floors nor reaches the tile they enclose.
    assert!(
        !w.is_moist(x, y),
        "({x}, {y}) stayed moist inside the floors"
    );
    for &(tx, ty) in &ring {
        assert!(!w.is_moist(tx, ty), "the floor at ({tx}, {ty}) is moist");
    }
    // A load derives the closed tiles from the floors again.
    let mut loaded = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(loaded.state_hash(), w.state_hash());
    loaded.advance_ticks(2 * HOUR);
    w.advance_ticks(2 * HOUR);
    assert!(!loaded.is_moist(x, y), "the loaded game forgot the floors");
    assert_eq!(loaded.state_hash(), w.state_hash());
    // With the floors gone the tile is moist again.
    for f in floors {
        w.demolish_building(f).unwrap();
    }
    w.advance_ticks(2 * HOUR);
    assert!(
        w.is_moist(x, y),
        "({x}, {y}) stayed dry after the floors were demolished"
    );
}

/// Unlocks `prefab` and places it at `(x, y)` on the ground there (plants on its tiles removed),
/// finished; `None` where placement refuses the spot.
fn try_build(w: &mut World, prefab: &str, x: u32, y: u32) -> Option<i32> {
    let s = crate::colony::building::spec(prefab);
    if s.science_cost > 0 && !w.science.unlocked.contains(prefab) {
        w.add_science(s.science_cost);
        w.unlock(prefab).unwrap();
    }
    if x + s.size.x >= w.map.width() || y + s.size.y >= w.map.height() {
        return None;
    }
    for tx in x..x + s.size.x {
        for ty in y..y + s.size.y {
            if let Some(p) = w.land.occupant[w.land.idx(tx, ty)]
                && w.land.plants.contains_key(&p)
            {
                w.land.remove_plant(p);
            }
        }
    }
    let z = w.map.terrain_height(x, y);
    let id = w
        .place_building(prefab, x.into(), y.into(), z.into(), "south")
        .ok()?;
    w.finish_building(id);
    Some(id)
}

/// A finished aquifer drill on the map's first aquifer patch where a geothermal engine (400 hp,
/// the drill's input) stands beside it: the drill, the engine and the engine's spot.
fn powered_drill(w: &mut World) -> (i32, i32, (u32, u32)) {
    for (px, py) in w.aquifer_patches() {
        let Some(drill) = try_build(w, "AquiferDrill.Folktails", px, py) else {
            continue;
        };
        let beside = [
            (px + 3, py),
            (px, py + 3),
            (px.wrapping_sub(3), py),
            (px, py.wrapping_sub(3)),
        ];
        for (ex, ey) in beside {
            if let Some(engine) = try_build(w, "GeothermalEngine.Folktails", ex, ey) {
                return (drill, engine, (ex, ey));
            }
        }
        w.demolish_building(drill).unwrap();
    }
    panic!("no aquifer patch with room for a drill and an engine beside it");
}

#[test]
fn a_powered_aquifer_drill_pours_water_through_a_drought_and_an_unpowered_one_nothing() {
    let mut w = world();
    // Off an aquifer a drill is refused, saying where the aquifers are.
    let (fx, fy, fz) = crate::testutil::flat_area(&mut w, 3, 3);
    assert!(!w.is_aquifer(fx, fy));
    w.add_science(400);
    w.unlock("AquiferDrill.Folktails").unwrap();
    let e = w
        .place_building(
            "AquiferDrill.Folktails",
            fx.into(),
            fy.into(),
            fz.into(),
            "south",
        )
        .unwrap_err();
    assert_eq!(e.extras["reason"], "terrain", "{e:?}");
    assert!(e.detail.contains("aquifer"), "{}", e.detail);
    let (drill, engine, (ex, ey)) = powered_drill(&mut w);
    let b = &w.colony.buildings[&drill];
    let (cx, cy) = (b.x + 1, b.y + 1);
    // A drought from the next dawn.
    let today = w.day();
    w.weather.temperate_days = today - w.weather.start_day + 1;
    w.weather.hazardous_days = 10;
    w.weather.hazard = crate::weather::HazardKind::Drought;
    // Unpowered (its engine gone), the drill gives nothing.
    w.demolish_building(engine).unwrap();
    w.advance_ticks(crate::testutil::DAY + 2 * HOUR);
    assert!(w.weather().is_hazardous, "a drought is under way");
    let added = w.water_totals().added;
    w.advance_ticks(6 * HOUR);
    assert_eq!(
        w.water_totals().added,
        added,
        "an unpowered drill added water"
    );
    assert_eq!(w.water_depth(cx, cy), 0.0);
    assert_eq!(w.building_view(drill).unwrap().water_output, Some(0.0));
    assert_eq!(w.building_view(drill).unwrap().powered, Some(false));
    // Powered, it pours its strength in the drought: a pond stands around it.
    try_build(&mut w, "GeothermalEngine.Folktails", ex, ey).expect("the engine's spot");
    w.advance_ticks(4);
    let strength = crate::catalog::world_rules()
        .water
        .buildings
        .value
        .aquifer_drill_strength;
    assert_eq!(
        w.building_view(drill).unwrap().water_output,
        Some(strength as f32)
    );
    let added = w.water_totals().added;
    let ticks = 12 * HOUR;
    w.advance_ticks(ticks);
    let poured = w.water_totals().added - added;
    let expected = strength * ticks as f64 * crate::clock::real_seconds_per_tick_at_1x();
    assert!(
        (poured - expected).abs() < expected * 1e-3,
        "poured {poured} m3 in 12 h, expected {expected}"
    );
    assert!(w.weather().is_hazardous, "still the drought");
    assert!(w.water_depth(cx, cy) > 0.05, "{}", w.water_depth(cx, cy));
    // A save carries the output: the loaded game pours the same.
    let mut loaded = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(loaded.state_hash(), w.state_hash());
    loaded.advance_ticks(3 * HOUR + 1);
    w.advance_ticks(3 * HOUR + 1);
    assert_eq!(loaded.state_hash(), w.state_hash());
}

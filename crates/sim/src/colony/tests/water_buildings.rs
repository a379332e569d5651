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

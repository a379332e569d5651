//! Scenario and benchmark fixtures: shortcuts a test or benchmark uses to set up a colony that
//! the game itself would take many days to reach. Not reachable from the service (no route calls
//! them); the game's rules never call them either.

use std::collections::{BTreeSet, VecDeque};

use crate::world::World;

/// Adds `n` adult beavers at the first district center's doorstep (as if they had arrived).
pub fn add_adults(w: &mut World, n: u32) {
    let Some(dc) = w.colony.centers().first().copied() else {
        return;
    };
    let door = w.colony.door(dc).expect("the center exists");
    for _ in 0..n {
        let progress = w.colony.rng.range_f64(0.1, 0.5);
        w.spawn_beaver(door, false, progress, Some(dc));
    }
    w.population_changed();
}

/// Finishes every construction site at once (materials taken as delivered).
pub fn finish_all(w: &mut World) {
    let ids: Vec<i32> = w
        .colony
        .buildings
        .iter()
        .filter(|(_, b)| !b.finished)
        .map(|(id, _)| *id)
        .collect();
    for id in ids {
        w.finish_building(id);
    }
}

/// Tiles at the district center's level joined to its doorstep over dry, free ground, nearest
/// first (breadth-first), up to `max`.
pub fn reachable_ground(w: &World, max: usize) -> Vec<(u32, u32)> {
    let Some(dc) = w.colony.centers().first().copied() else {
        return Vec::new();
    };
    let door = w.colony.door(dc).expect("the center exists");
    let z = door[2];
    let mut seen = BTreeSet::from([(door[0], door[1])]);
    let mut q = VecDeque::from([(door[0], door[1])]);
    let mut out = Vec::new();
    while let Some((x, y)) = q.pop_front() {
        out.push((x, y));
        if out.len() >= max {
            break;
        }
        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
            if !w.map.contains(nx, ny) {
                continue;
            }
            let (nx, ny) = (nx as u32, ny as u32);
            if seen.contains(&(nx, ny))
                || u32::from(w.map.terrain_height(nx, ny)) != z
                || w.water_depth(nx, ny) > 0.05
            {
                continue;
            }
            seen.insert((nx, ny));
            q.push_back((nx, ny));
        }
    }
    out
}

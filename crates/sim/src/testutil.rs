//! Helpers of the scenario tests: a game without hazards, buildings placed and finished at once,
//! free flat ground, path routes (and paths laid to the district center), events by name.

use std::collections::{BTreeSet, VecDeque};

use crate::colony::building::spec;
use crate::colony::geometry::{Orientation, voxel};
use crate::config::NewGame;
use crate::world::World;

pub const DAY: u64 = 768;
pub const HOUR: u64 = 32;

/// A small seeded generator for a test's random choices: each call gives a number below its
/// argument (a linear congruential generator, the same sequence on every machine).
pub fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |below| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % below
    }
}

pub fn world() -> World {
    let mut w = World::new(&NewGame::default());
    // No hazard unless a test asks for one.
    w.weather.temperate_days = 100;
    w
}

/// Unlocks (if needed), places and finishes a building. An aquifer drill (the power tests' 400 hp
/// consumer) gets an aquifer under its footprint first, so it stands anywhere.
pub fn build(w: &mut World, prefab: &str, x: u32, y: u32, z: u32, o: &str) -> i32 {
    let s = spec(prefab);
    if s.science_cost > 0 && !w.science.unlocked.contains(prefab) {
        w.add_science(s.science_cost);
        w.unlock(prefab).unwrap();
    }
    if crate::colony::water_buildings::is_aquifer_drill(s) {
        let o = crate::colony::geometry::Orientation::parse(o).unwrap();
        for (tx, ty) in crate::colony::geometry::footprint(s, x.into(), y.into(), o) {
            if w.map.contains(tx, ty) {
                let i = w.land.idx(tx as u32, ty as u32);
                w.land.aquifer[i] = true;
            }
        }
    }
    let id = w
        .place_building(prefab, x.into(), y.into(), z.into(), o)
        .unwrap_or_else(|e| panic!("{prefab} at ({x}, {y}, {z}): {e:?}"));
    w.finish_building(id);
    id
}

/// The origin and height of a dry, flat rectangle with no building in it or around it and no
/// ruin, nearest the start spot; plants on it are removed.
pub fn flat_area(w: &mut World, wide: u32, deep: u32) -> (u32, u32, u32) {
    flat_area_at(w, wide, deep, None)
}

/// `flat_area`, at a given height if asked and there is room there (else at any height).
pub fn flat_area_at(w: &mut World, wide: u32, deep: u32, at: Option<u8>) -> (u32, u32, u32) {
    let (sx, sy, _) = w.map.start_spot();
    let mut best: Option<(u32, u32, u32)> = None;
    for y in 2..w.map.height() - deep - 2 {
        for x in 2..w.map.width() - wide - 2 {
            let z = w.map.terrain_height(x, y);
            if at.is_some_and(|a| a != z) {
                continue;
            }
            let ok = (x - 1..x + wide + 1).all(|tx| {
                (y - 1..y + deep + 1).all(|ty| {
                    let inside = (x..x + wide).contains(&tx) && (y..y + deep).contains(&ty);
                    let occ = w.land.occupant[w.land.idx(tx, ty)];
                    (0..8).all(|dz| {
                        !w.colony
                            .blocks
                            .contains_key(&voxel(tx, ty, u32::from(z) + dz))
                    }) && (!inside
                        || w.map.terrain_height(tx, ty) == z
                            && w.water_depth(tx, ty) == 0.0
                            && occ.is_none_or(|o| w.land.plants.contains_key(&o)))
                })
            });
            let d = x.abs_diff(sx) + y.abs_diff(sy);
            if ok && best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, x, y));
            }
        }
    }
    if best.is_none() && at.is_some() {
        return flat_area_at(w, wide, deep, None);
    }
    let (_, x, y) = best.expect("a free flat area");
    for tx in x..x + wide {
        for ty in y..y + deep {
            if let Some(p) = w.land.occupant[w.land.idx(tx, ty)] {
                w.land.remove_plant(p);
            }
        }
    }
    (x, y, u32::from(w.map.terrain_height(x, y)))
}

pub fn events_named(w: &mut World, name: &str) -> Vec<serde_json::Value> {
    w.take_events()
        .into_iter()
        .filter(|e| e.name == name)
        .map(|e| e.data.unwrap_or_default())
        .collect()
}

/// Lays paths from the first district center's doorstep to a building's doorstep (at the
/// doorstep's height) and checks the building is reachable from the center.
pub fn connect(w: &mut World, id: i32) {
    let dc = w.colony.centers()[0];
    let from = w.colony.door(dc).unwrap();
    let to = w.colony.door(id).unwrap();
    let z = from[2];
    let route = path_route(w, (from[0], from[1]), (to[0], to[1]), z).unwrap_or_else(|| {
        panic!(
            "no route {from:?} -> {to:?}: {:?}",
            w.check_placement(
                "Path",
                to[0].into(),
                to[1].into(),
                to[2].into(),
                Orientation::South
            )
            .err()
        )
    });
    for (x, y) in route {
        if [x, y, z] != from && !w.colony.blocks.contains_key(&voxel(x, y, z)) {
            w.place_building("Path", x.into(), y.into(), z.into(), "south")
                .unwrap();
        }
    }
    w.colony.refresh_districts();
    assert!(w.building_view(id).unwrap().reachable);
}

/// Tiles from `from` to `to` at height `z` where a path can go (breadth first).
pub fn path_route(w: &World, from: (u32, u32), to: (u32, u32), z: u32) -> Option<Vec<(u32, u32)>> {
    path_route_avoiding(w, from, to, z, |_| false)
}

/// As [`path_route`], never through a tile `avoid` names.
pub fn path_route_avoiding(
    w: &World,
    from: (u32, u32),
    to: (u32, u32),
    z: u32,
    avoid: impl Fn((u32, u32)) -> bool,
) -> Option<Vec<(u32, u32)>> {
    let mut prev = std::collections::BTreeMap::new();
    let mut q = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(t) = q.pop_front() {
        if t == to {
            let mut out = vec![t];
            let mut c = t;
            while let Some(p) = prev.get(&c) {
                out.push(*p);
                c = *p;
            }
            out.reverse();
            return Some(out);
        }
        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (i64::from(t.0) + dx, i64::from(t.1) + dy);
            if !w.map.contains(nx, ny) {
                continue;
            }
            let n = (nx as u32, ny as u32);
            if avoid(n) {
                continue;
            }
            let path_there = w
                .colony
                .blocks
                .get(&voxel(n.0, n.1, z))
                .is_some_and(|b| w.colony.buildings[b].prefab == "Path");
            let ok = path_there
                || w.check_placement("Path", nx, ny, z.into(), Orientation::South)
                    .is_ok();
            if ok && seen.insert(n) {
                prev.insert(n, t);
                q.push_back(n);
            }
        }
    }
    None
}

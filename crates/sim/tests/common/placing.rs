//! Placing buildings in scenario tests through the world's commands only: the district center's
//! doorstep, paths laid over free flat land, spots near a target that a path can join, water
//! pumps by the river, lumberjacks by forests. Shared by `colony_scenarios` and `mechanics`.
#![allow(dead_code)]

use std::collections::{BTreeSet, VecDeque};

use sim::World;

/// The district center's doorstep.
pub fn dc_door(w: &World) -> (i64, i64, i64) {
    let dc = w
        .buildings()
        .into_iter()
        .find(|b| b.name.starts_with("DistrictCenter"))
        .expect("a district center");
    (
        i64::from(dc.entrance_x.unwrap()),
        i64::from(dc.entrance_y.unwrap()),
        i64::from(dc.z),
    )
}

/// Lays paths from `from` to `to` (both at level z) over free, dry, flat tiles; existing paths
/// are reused. Returns false when there is no way.
pub fn connect(w: &mut World, from: (i64, i64), to: (i64, i64), z: i64) -> bool {
    let walkable = |w: &World, x: i64, y: i64| -> Option<bool> {
        let t = w.tiles(x, y, x, y).ok()?;
        let t = &t.tiles[0];
        if i64::from(t.terrain) != z || t.water > 0.05 {
            return None;
        }
        let path = t.occupants.iter().any(|o| o.name == "Path");
        let blocked = t.occupants.iter().any(|o| o.name != "Path") && !t.dead;
        if blocked { None } else { Some(path) }
    };
    let mut prev = std::collections::HashMap::new();
    let mut q = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(p) = q.pop_front() {
        if p == to {
            break;
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = (p.0 + dx, p.1 + dy);
            if !w.map().contains(n.0, n.1) || seen.contains(&n) {
                continue;
            }
            if walkable(w, n.0, n.1).is_none() {
                continue;
            }
            seen.insert(n);
            prev.insert(n, p);
            q.push_back(n);
        }
    }
    if !seen.contains(&to) {
        return false;
    }
    let mut p = to;
    loop {
        if walkable(w, p.0, p.1) == Some(false) {
            w.place_building("Path", p.0, p.1, z, "south")
                .expect("path placed");
        }
        if p == from {
            break;
        }
        p = prev[&p];
    }
    true
}

/// Places a prefab at the free spot of an area whose doorstep is nearest the district center's,
/// then joins its doorstep to the network. Returns its id.
pub fn place_near(w: &mut World, prefab: &str, area: (i64, i64, i64, i64)) -> i32 {
    let door = dc_door(w);
    place_toward(w, prefab, area, (door.0, door.1))
}

/// Places a prefab at the free spot of an area whose doorstep is nearest `target`, joined to the
/// network. Returns its id.
pub fn place_toward(
    w: &mut World,
    prefab: &str,
    area: (i64, i64, i64, i64),
    target: (i64, i64),
) -> i32 {
    try_place_toward(w, prefab, area, target)
        .unwrap_or_else(|| panic!("no connected spot for {prefab} in {area:?}"))
}

/// As [`place_toward`], or `None` when no spot of the area can be joined to the network.
pub fn try_place_toward(
    w: &mut World,
    prefab: &str,
    area: (i64, i64, i64, i64),
    target: (i64, i64),
) -> Option<i32> {
    let door = dc_door(w);
    // Keep the district center's doorstep and its neighbours clear.
    let at_door = |w: &World| {
        w.tiles(door.0 - 1, door.1 - 1, door.0 + 1, door.1 + 1)
            .unwrap()
            .tiles
            .iter()
            .map(|t| t.occupants.iter().filter(|o| o.name != "Path").count())
            .sum::<usize>()
    };
    let before = at_door(w);
    let mut spots: Vec<(i64, i64, i64, String, i64, i64)> = Vec::new();
    for y in area.1..=area.3 {
        for x in area.0..=area.2 {
            for o in ["south", "west", "north", "east"] {
                let mut probe = w.clone();
                if let Ok(id) = probe.place_building(prefab, x, y, door.2, o) {
                    if at_door(&probe) > before {
                        continue;
                    }
                    let b = probe.building_view(id).unwrap();
                    let (ex, ey) = (
                        b.entrance_x.map_or(x, i64::from),
                        b.entrance_y.map_or(y, i64::from),
                    );
                    spots.push((x, y, door.2, o.to_owned(), ex, ey));
                }
            }
        }
    }
    spots.sort_by_key(|s| ((s.4 - target.0).abs() + (s.5 - target.1).abs(), s.1, s.0));
    for (x, y, z, o, ex, ey) in spots {
        let mut trial = w.clone();
        let id = trial.place_building(prefab, x, y, z, &o).unwrap();
        if connect(&mut trial, (door.0, door.1), (ex, ey), z) && room_at_door(&trial) >= 200 {
            *w = trial;
            return Some(id);
        }
    }
    None
}

/// How many free, dry tiles at the district center's level (paths included) the doorstep reaches
/// within 20 tiles: placements that wall the doorstep in are refused.
pub fn room_at_door(w: &World) -> usize {
    let door = dc_door(w);
    let (x0, y0) = (door.0 - 20, door.1 - 20);
    let region = w.tiles(x0, y0, door.0 + 20, door.1 + 20).unwrap();
    let free: std::collections::HashSet<(i64, i64)> = region
        .tiles
        .iter()
        .filter(|t| {
            i64::from(t.terrain) == door.2
                && t.water <= 0.05
                && t.occupants.iter().all(|o| o.name == "Path")
        })
        .map(|t| (i64::from(t.x), i64::from(t.y)))
        .collect();
    let mut seen = BTreeSet::from([(door.0, door.1)]);
    let mut q = VecDeque::from([(door.0, door.1)]);
    while let Some(p) = q.pop_front() {
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = (p.0 + dx, p.1 + dy);
            if free.contains(&n) && seen.insert(n) {
                q.push_back(n);
            }
        }
    }
    seen.len()
}

/// Places a water pump at the deepest spot by the river whose doorstep the paths can reach,
/// first in the construction queue. Returns its id.
pub fn place_pump(w: &mut World, prefab: &str) -> i32 {
    let door = dc_door(w);
    // Search 10x10 blocks nearest the district center first (each answer holds 10 spots).
    let mut blocks: Vec<(i64, i64)> = (-3..3)
        .flat_map(|by| (-3..3).map(move |bx| (door.0 + bx * 10, door.1 + by * 10)))
        .collect();
    blocks.sort_by_key(|(x, y)| (x + 5 - door.0).abs() + (y + 5 - door.1).abs());
    for (bx, by) in blocks {
        let Ok((_, _, _, pumps)) = w.find_placements(prefab, bx, by, bx + 9, by + 9) else {
            continue;
        };
        for p in pumps {
            let mut trial = w.clone();
            let id = trial
                .place_building(prefab, p.x.into(), p.y.into(), p.z.into(), p.orientation)
                .unwrap();
            if connect(
                &mut trial,
                (door.0, door.1),
                (p.entrance_x, p.entrance_y),
                door.2,
            ) {
                trial.set_priority(id, "VeryHigh", "construction").unwrap();
                *w = trial;
                return id;
            }
        }
    }
    panic!("no reachable pump spot for {prefab}");
}

/// Places a Folktails lumberjack flag by the densest forest within 40 tiles of the district
/// center that a path can reach, joined to the network. Returns its id.
pub fn lumberjack_by_nearest_forest(w: &mut World) -> i32 {
    let door = dc_door(w);
    let (dx, dy, dz) = (door.0 as u32, door.1 as u32, door.2 as u32);
    let clusters = w.tree_clusters_near(dx, dy, dz, 40);
    clusters
        .iter()
        .find_map(|c| {
            let (tx, ty) = (i64::from(c.x), i64::from(c.y));
            try_place_toward(
                w,
                "LumberjackFlag.Folktails",
                (tx - 6, ty - 6, tx + 6, ty + 6),
                (tx, ty),
            )
        })
        .expect("a forest a path can reach")
}

/// Marks every tree within 20 tiles of a lumberjack's flag, at level `z`, for cutting.
pub fn mark_trees_around(w: &mut World, lumberjack: i32, z: i64) {
    let l = w.building_view(lumberjack).unwrap();
    let (x, y) = (i64::from(l.x), i64::from(l.y));
    w.set_cutting_area(x - 20, y - 20, x + 20, y + 20, z, true)
        .unwrap();
}

pub fn stock(w: &World, good: &str) -> u32 {
    w.colony_stock().get(good).map_or(0, |(_, all)| *all)
}

/// Every unit of every good in the colony: building inventories (stores, sites, workshops)
/// and what beavers carry.
pub fn all_goods(w: &World) -> std::collections::BTreeMap<String, i64> {
    let mut out = std::collections::BTreeMap::new();
    for b in w.buildings() {
        for (g, n) in &b.inventory {
            *out.entry(g.clone()).or_default() += i64::from(*n);
        }
    }
    for v in w.beavers(true) {
        if let (Some(g), Some(n)) = (&v.carrying, v.carry_amount) {
            *out.entry(g.clone()).or_default() += i64::from(n);
        }
    }
    out
}

/// Places `prefabs` side by side facing south, left to right on one row near the district center
/// (touching, so once built they form one power network), where every doorstep can be joined to
/// the district center's. Returns their ids, or `None` when no row fits.
pub fn place_power_row(w: &mut World, prefabs: &[&str]) -> Option<Vec<i32>> {
    let door = dc_door(w);
    let widths: Vec<i64> = prefabs
        .iter()
        .map(|p| {
            let v = w.prefabs().into_iter().find(|v| v.name == *p).unwrap();
            i64::from(v.size_x)
        })
        .collect();
    let mut origins: Vec<(i64, i64)> = (door.1 - 20..=door.1 + 20)
        .flat_map(|y| (door.0 - 20..=door.0 + 20).map(move |x| (x, y)))
        .collect();
    origins.sort_by_key(|(x, y)| ((x - door.0).abs() + (y - door.1).abs(), *y, *x));
    for (x0, y0) in origins {
        let mut trial = w.clone();
        let mut ids = Vec::new();
        let mut x = x0;
        for (p, wide) in prefabs.iter().zip(&widths) {
            let Ok(id) = trial.place_building(p, x, y0, door.2, "south") else {
                break;
            };
            x += wide;
            ids.push(id);
        }
        if ids.len() < prefabs.len() {
            continue;
        }
        let joined = ids.iter().all(|id| {
            let b = trial.building_view(*id).unwrap();
            let (ex, ey) = (
                i64::from(b.entrance_x.unwrap()),
                i64::from(b.entrance_y.unwrap()),
            );
            connect(&mut trial, (door.0, door.1), (ex, ey), door.2)
        });
        if joined && room_at_door(&trial) >= 200 {
            *w = trial;
            return Some(ids);
        }
    }
    None
}

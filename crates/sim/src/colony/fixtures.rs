//! Scenario and benchmark fixtures: shortcuts a test or benchmark uses to set up a colony that
//! the game itself would take many days to reach, and the two benchmark colonies
//! ([`large_colony`], [`small_colony`]) that the sim benches and `colonyd --fixture` build. No
//! route calls them; the game's rules never call them either.

use std::collections::{BTreeSet, VecDeque};

use crate::config::NewGame;
use crate::world::World;

/// Ticks in one game day.
const DAY: u64 = 768;

/// A young colony on the default 128x128 map: seed 42, the founders after one game day.
pub fn small_colony() -> World {
    let mut w = World::new(&NewGame {
        seed: 42,
        ..NewGame::default()
    });
    w.advance_ticks(DAY);
    w.take_events();
    w
}

/// The large benchmark colony: a 256x256 map (seed 42) with about 1,600 buildings besides
/// paths (small warehouses, piles and tanks, lumberjack and gatherer flags, shrubs) on a path
/// grid around the district center (most of it outside the district: the grid's levels are
/// joined only in part), 300 adults besides the founders, 10,000 pines and the whole map marked
/// for cutting, after two game days. It has no water or food production: [`fill_stores`] gives
/// it about twelve days of water and berries, so a benchmark of several days measures a living
/// colony.
pub fn large_colony() -> World {
    colony_of(&ColonySize::LARGE)
}

/// How big a benchmark colony [`colony_of`] builds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColonySize {
    /// The path grid covers the tiles within this (Chebyshev) distance of the center's doorstep.
    pub radius: i64,
    /// Buildings besides paths and stairs (at most: as many as the grid has room for).
    pub buildings: usize,
    /// Adults added to the founders.
    pub adults: u32,
    /// Pines on the map.
    pub trees: usize,
}

impl ColonySize {
    /// [`large_colony`]'s size.
    pub const LARGE: ColonySize = ColonySize {
        radius: 60,
        buildings: 1_600,
        adults: 300,
        trees: 10_000,
    };

    /// The large colony scaled by `f` (0 < f <= 1): a `f` share of its buildings, adults and
    /// trees on a grid of `f` of its area.
    pub fn scaled(f: f64) -> ColonySize {
        let l = ColonySize::LARGE;
        ColonySize {
            radius: ((l.radius as f64) * f.sqrt()).round() as i64,
            buildings: (l.buildings as f64 * f).round() as usize,
            adults: (f64::from(l.adults) * f).round() as u32,
            trees: (l.trees as f64 * f).round() as usize,
        }
    }
}

/// A benchmark colony of `size` on the large colony's 256x256 map (seed 42), built the way
/// [`large_colony`] describes.
pub fn colony_of(size: &ColonySize) -> World {
    let mut w = World::new(&NewGame {
        seed: 42,
        map_width: 256,
        map_height: 256,
        ..NewGame::default()
    });
    w.advance_ticks(DAY);
    let dc = w
        .buildings()
        .into_iter()
        .find(|b| b.name.starts_with("DistrictCenter"))
        .expect("a district center");
    let (dx, dy) = (
        i64::from(dc.entrance_x.expect("a doorstep")),
        i64::from(dc.entrance_y.expect("a doorstep")),
    );
    // Every dry tile within 60 of the doorstep, on any level: paths on every third row,
    // 1x1 buildings facing them; then stairs and paths join each level's grid to the center.
    let (mw, mh) = (i64::from(w.map().width()), i64::from(w.map().height()));
    let mut ground = Vec::new();
    let r = size.radius;
    for y in (dy - r).max(0)..(dy + r).min(mh) {
        for x in (dx - r).max(0)..(dx + r).min(mw) {
            ground.push((x, y));
        }
    }
    let level = |w: &World, x: i64, y: i64| i64::from(w.map().terrain_height(x as u32, y as u32));
    for &(x, y) in &ground {
        if (y - dy).rem_euclid(3) == 0 || x == dx {
            let _ = w.place_building("Path", x, y, level(&w, x, y), "south");
        }
    }
    let prefabs = [
        "SmallWarehouse.Folktails",
        "SmallPile.Folktails",
        "SmallTank.Folktails",
        "LumberjackFlag.Folktails",
        "GathererFlag.Folktails",
        "Shrub.Folktails",
    ];
    let mut placed = 0;
    for &(x, y) in &ground {
        if placed >= size.buildings {
            break;
        }
        let facing = match (y - dy).rem_euclid(3) {
            1 => "south",
            2 => "north",
            _ => continue,
        };
        let z = level(&w, x, y);
        if w.place_building(prefabs[placed % prefabs.len()], x, y, z, facing)
            .is_ok()
        {
            placed += 1;
        }
    }
    w.add_science(1_000);
    let _ = w.unlock("Stairs.Folktails");
    let mut joined = BTreeSet::new();
    for b in w.buildings() {
        if b.name == "Path" && !b.reachable && joined.insert(b.z) {
            let _ = w.place_path(dx, dy, b.x.into(), b.y.into(), "direct", 0);
        }
    }
    finish_all(&mut w);
    fill_stores(
        &mut w,
        f64::from(size.adults) / f64::from(ColonySize::LARGE.adults),
    );
    add_adults(&mut w, size.adults);
    // Trees: pines on free land until there are 10,000.
    // (Counted as they are planted: each `plant` that succeeds adds one tree.)
    let (mw, mh) = (w.map().width(), w.map().height());
    let mut trees = w.trees().len();
    'plant: for stride in [3u32, 2, 1] {
        for y in (0..mh).step_by(stride as usize) {
            for x in (0..mw).step_by(stride as usize) {
                if trees >= size.trees {
                    break 'plant;
                }
                if w.plant(x.into(), y.into(), "Pine").is_ok() {
                    trees += 1;
                }
            }
        }
    }
    debug_assert_eq!(w.trees().len(), trees);
    for z in 0..16 {
        let _ = w.set_cutting_area(0, 0, i64::from(mw) - 1, i64::from(mh) - 1, z, true);
    }
    w.advance_ticks(DAY);
    w.take_events();
    w
}

/// Water and berries for about twelve days of 312 beavers (2.12 water and 2.67 food a day each,
/// `data/colony.json`), times `share`: the district's small tanks filled with water, its small
/// warehouses with berries and its small piles with logs, the rest into the district center.
fn fill_stores(w: &mut World, share: f64) {
    let amount = |n: f64| (n * share).round() as u32;
    let mut left = [
        ("Water", amount(8_000.0)),
        ("Berries", amount(10_000.0)),
        ("Log", 0),
    ];
    let fills = [
        ("SmallTank.Folktails", 0),
        ("SmallWarehouse.Folktails", 1),
        ("SmallPile.Folktails", 2),
    ];
    let ids: Vec<(i32, usize)> = w
        .colony
        .buildings
        .iter()
        .filter(|(_, b)| b.finished && b.district.is_some())
        .filter_map(|(id, b)| {
            fills
                .iter()
                .find(|(prefab, _)| b.prefab == *prefab)
                .map(|(_, good)| (*id, *good))
        })
        .collect();
    for (id, good) in ids {
        let name = left[good].0;
        if w.set_storage(id, Some(name), None).is_err() {
            continue;
        }
        let b = w.colony.buildings.get_mut(&id).expect("exists");
        let room = super::building::storage_capacity(b.spec()).map_or(0, |(_, n)| n);
        let n = if name == "Log" {
            room
        } else {
            room.min(left[good].1)
        };
        b.add(name, n);
        left[good].1 = left[good].1.saturating_sub(n);
    }
    let Some(dc) = w.colony.centers().first().copied() else {
        return;
    };
    let b = w.colony.buildings.get_mut(&dc).expect("the center exists");
    for (good, n) in left {
        b.add(good, n);
    }
}

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

//! Plants (trees, bushes, crops) and ruins: the entities standing on land tiles.
//!
//! A plant has a stable id, a species (`data/nature.json`), its tile and `z` (the terrain height
//! it stands on), `growth` 0-1 over its `growthDays`, and timers. Each hour, for each living plant
//! in id order:
//! - it is *watered* when its soil is moist (aquatic species: when its tile holds at least
//!   `aquaticMinWaterDepth`), *flooded* when its tile holds more water than its
//!   `flooding.maxWaterHeight` (and at least a 0.05 film), *poisoned* when its soil is contaminated;
//! - it grows `1 / (24 x growthDays)` while watered and neither flooded nor poisoned (growth is
//!   binary on moisture); a grown bush refills its fruit over `regrowDays`;
//! - its dry, flooded and poisoned hours count up while the condition lasts and reset when it ends;
//!   it dies (a dead stump, `alive = false`) after `daysToDieDry`, `flooding.daysToDie` or the
//!   contamination days, each times its own tolerance (rolled 0.9-1.1 when it appeared).
//!   A tree that died grown stands with its logs (`deadTreesGiveLogs`): lumberjacks cut it like a
//!   living one, and the tree tallies, clusters and reach counts count it as grown.
//!
//! At each dawn every grown living tree (chance `treeChancePerDay`) and bush (`bushChancePerDay`),
//! in id order, may drop a seedling of its species on a random tile within `radius`: on the map,
//! free (no plant, ruin or building on its ground: paths, stairs and every footprint count,
//! `Land::built`), not water, moist, not marked for planting and outside the start area.
//!
//! A ruin holds an amount of `ScrapMetal` that scavengers will take later.

use serde::Serialize;

use crate::catalog::{PlantKind, nature, world_rules};
use crate::map::Map;

use super::Land;

/// Water thinner than this never floods a plant.
const FLOOD_FILM: f32 = 0.05;

/// A tree, bush or crop.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plant {
    pub species: u16,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub growth: f32,
    pub alive: bool,
    /// Bushes: fruit 0-1; 1 means ready to gather.
    pub fruit: f32,
    pub dry_hours: u16,
    pub flood_hours: u16,
    pub poison_hours: u16,
    /// Multiplies the days the plant survives dry, flooded or poisoned (0.9-1.1).
    pub tolerance: f32,
}

/// A ruin with scrap metal.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ruin {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub scrap: u32,
}

/// The name every ruin shows.
pub(crate) const RUIN_NAME: &str = "RuinColumn";

/// A tree or crop as `/api/trees` and `/api/crops` show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlantView {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    /// Not a dead stump.
    pub alive: bool,
    /// Marked for cutting (trees; crops always false).
    pub marked: bool,
    pub grown: bool,
    /// 0.0-1.0.
    pub growth: f32,
}

impl Plant {
    pub(crate) fn grown(&self) -> bool {
        self.growth >= 1.0
    }

    /// A grown tree, living or dead, that a lumberjack can cut for its logs. The plant's own
    /// fields are tested before the catalogue lookups (the reach grid asks this of every plant).
    pub(crate) fn has_logs(&self) -> bool {
        self.grown()
            && (self.alive || nature().rules.modifiers.dead_trees_give_logs.value)
            && self.kind() == PlantKind::Tree
    }

    /// Counted by the plant tallies and clusters: living, or a dead tree still holding its logs.
    pub(crate) fn standing(&self) -> bool {
        self.alive || self.has_logs()
    }

    pub(crate) fn kind(&self) -> PlantKind {
        nature().get(self.species).kind
    }

    pub(crate) fn name(&self) -> &'static str {
        &nature().get(self.species).name
    }
}

impl Land {
    /// Adds a plant on a free tile (the caller checked); returns its id.
    pub(crate) fn add_plant(&mut self, species: u16, x: u32, y: u32, z: u32, growth: f32) -> i32 {
        let id = self.ids.next_id();
        let [lo, hi] = nature().rules.modifiers.dry_tolerance_jitter.value;
        let tolerance = self.rng.range_f64(lo, hi) as f32;
        let grown = growth >= 1.0;
        let bush = nature().get(species).kind == PlantKind::Bush;
        self.plants.insert(
            id,
            Plant {
                species,
                x,
                y,
                z,
                growth: growth.clamp(0.0, 1.0),
                alive: true,
                fruit: if bush && grown { 1.0 } else { 0.0 },
                dry_hours: 0,
                flood_hours: 0,
                poison_hours: 0,
                tolerance,
            },
        );
        let i = self.idx(x, y);
        self.occupant[i] = Some(id);
        id
    }

    /// Adds a ruin on a free tile; returns its id.
    pub(crate) fn add_ruin(&mut self, x: u32, y: u32, z: u32, scrap: u32) -> i32 {
        let id = self.ids.next_id();
        self.ruins.insert(id, Ruin { x, y, z, scrap });
        let i = self.idx(x, y);
        self.occupant[i] = Some(id);
        id
    }

    /// Removes a plant (cut, harvested crop, cleared stump) and frees its tile.
    pub(crate) fn remove_plant(&mut self, id: i32) -> Option<Plant> {
        let p = self.plants.remove(&id)?;
        let i = self.idx(p.x, p.y);
        self.occupant[i] = None;
        Some(p)
    }

    /// Whether the tile counts as water for placing things (at least a 0.05 film).
    pub(crate) fn is_water(&self, i: usize) -> bool {
        self.water.depth[i] >= FLOOD_FILM
    }

    /// The view of a plant.
    pub(crate) fn plant_view(&self, id: i32, p: &Plant) -> PlantView {
        PlantView {
            id,
            name: p.name().to_owned(),
            x: p.x,
            y: p.y,
            z: p.z,
            alive: p.alive,
            marked: p.kind() == PlantKind::Tree && self.cutting[self.idx(p.x, p.y)],
            grown: p.grown(),
            growth: p.growth,
        }
    }
}

/// One hour of plant life (see the module docs).
pub(crate) fn hour(land: &mut Land, _map: &Map) {
    let cat = nature();
    let aquatic_min = cat.rules.modifiers.aquatic_min_water_depth.value as f32;
    let [c_lo, c_hi] = cat
        .rules
        .modifiers
        .contaminated_soil_kills_plants
        .value
        .days_to_die;
    let w = land.w();
    let hive_factor = cat.rules.modifiers.beehive.value.growth_time_multiplier;
    let Land {
        plants,
        water,
        soil,
        hive_boost,
        ..
    } = land;
    for (id, p) in plants.iter_mut() {
        if !p.alive {
            continue;
        }
        let s = cat.get(p.species);
        let i = p.y as usize * w + p.x as usize;
        let depth = water.depth[i];
        let watered = if s.aquatic {
            depth >= aquatic_min
        } else {
            soil.is_moist(i)
        };
        let flooded = depth >= FLOOD_FILM && f64::from(depth) > s.flooding.max_water_height;
        let poisoned = soil.is_contaminated(i);
        let tol = f64::from(p.tolerance);
        let limit = |hours: u16, days: f64| reaches_limit(hours, days * 24.0 * tol);
        p.flood_hours = if flooded {
            p.flood_hours.saturating_add(1)
        } else {
            0
        };
        p.poison_hours = if poisoned {
            p.poison_hours.saturating_add(1)
        } else {
            0
        };
        p.dry_hours = if watered || flooded {
            0
        } else {
            p.dry_hours.saturating_add(1)
        };
        // (Every limit is at least 1: a count of 0 reaches none, so most plants, watered and
        // neither flooded nor poisoned, work out no limit at all.)
        let poison_days = || c_lo + (c_hi - c_lo) * ((tol - 0.9) / 0.2).clamp(0.0, 1.0);
        if (p.flood_hours > 0 && limit(p.flood_hours, s.flooding.days_to_die))
            || (p.dry_hours > 0 && limit(p.dry_hours, s.days_to_die_dry))
            || (p.poison_hours > 0 && limit(p.poison_hours, poison_days()))
        {
            p.alive = false;
            continue;
        }
        if watered && !flooded && !poisoned {
            if p.growth < 1.0 {
                let days = if s.kind == PlantKind::Crop && hive_boost.contains(id) {
                    s.growth_days * hive_factor
                } else {
                    s.growth_days
                };
                p.growth = hour_step(p.growth, days);
                if p.growth >= 1.0 && s.kind == PlantKind::Bush {
                    p.fruit = 1.0;
                }
            } else if s.kind == PlantKind::Bush && p.fruit < 1.0 {
                p.fruit = hour_step(p.fruit, s.regrow_days.max(1e-3));
            }
        }
    }
}

/// Whether `hours` (at least 1) reach a limit of `limit_hours`, rounded to whole hours (half
/// away from zero) and at least 1: `hours >= round(limit_hours).max(1)`. For a limit below
/// 60,000 hours that is `limit_hours < hours + 0.5`, which needs no call to `round` (this runs
/// for every dry plant every hour).
fn reaches_limit(hours: u16, limit_hours: f64) -> bool {
    if (0.0..60_000.0).contains(&limit_hours) {
        limit_hours < f64::from(hours) + 0.5
    } else {
        hours >= limit_hours.round().max(1.0) as u16
    }
}

/// One hour of a 0-1 share that fills over `days`. Hourly steps of `1 / (24 x days)` add up in
/// f32 to a hair under 1 for most lengths (168 steps of 1/168 make 0.99999994), which would cost a
/// 7-day Birch a 169th hour: a share within half a step of 1 is full.
fn hour_step(share: f32, days: f64) -> f32 {
    let step = (1.0 / (24.0 * days)) as f32;
    let next = share + step;
    if next >= 1.0 - step / 2.0 { 1.0 } else { next }
}

/// Whether `(x, y)` lies in the start area kept clear of nature.
pub(crate) fn in_start_area(map: &Map, x: u32, y: u32) -> bool {
    let r = world_rules().map.land_generation.value.start_clear_radius;
    let (sx, sy, _) = map.start_spot();
    x.abs_diff(sx) <= r && y.abs_diff(sy) <= r
}

/// The tiles of the start area ([`in_start_area`]) on the map, row by row.
pub(crate) fn start_area_tiles(map: &Map) -> impl Iterator<Item = (u32, u32)> + '_ {
    let r = world_rules().map.land_generation.value.start_clear_radius;
    let (sx, sy, _) = map.start_spot();
    let xs = sx.saturating_sub(r)..=(sx + r).min(map.width() - 1);
    (sy.saturating_sub(r)..=(sy + r).min(map.height() - 1))
        .flat_map(move |y| xs.clone().map(move |x| (x, y)))
}

/// The dawn spread of grown trees and bushes (see the module docs).
pub(crate) fn spread(land: &mut Land, map: &Map) {
    let rules = &nature().rules.modifiers.spread.value;
    let r = rules.radius as i64;
    let parents: Vec<(u16, u32, u32, PlantKind)> = land
        .plants
        .values()
        .filter(|p| p.alive && p.grown() && p.kind() != PlantKind::Crop)
        .map(|p| (p.species, p.x, p.y, p.kind()))
        .collect();
    for (species, x, y, kind) in parents {
        let chance = match kind {
            PlantKind::Tree => rules.tree_chance_per_day,
            _ => rules.bush_chance_per_day,
        };
        if !land.rng.chance(chance) {
            continue;
        }
        let dx = i64::from(land.rng.range_u32(0, (2 * r) as u32)) - r;
        let dy = i64::from(land.rng.range_u32(0, (2 * r) as u32)) - r;
        let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
        if (dx, dy) == (0, 0) || !map.contains(nx, ny) {
            continue;
        }
        let (nx, ny) = (nx as u32, ny as u32);
        let i = land.idx(nx, ny);
        if land.occupant[i].is_some()
            || land.is_water(i)
            || (rules.needs_moisture && !land.soil.is_moist(i))
            || land.planting.contains_key(&(i as u32))
            || land.built.get(i).copied().unwrap_or(false)
            || in_start_area(map, nx, ny)
            || map.is_river(nx, ny)
        {
            continue;
        }
        let z = u32::from(map.terrain_height(nx, ny));
        land.add_plant(species, nx, ny, z, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::reaches_limit;

    /// The shortcut agrees with rounding the limit, at whole and half hours and in between.
    #[test]
    fn a_limit_is_reached_as_when_rounded() {
        let rounded = |hours: u16, limit: f64| hours >= limit.round().max(1.0) as u16;
        let mut limits = vec![0.0, 0.2, 0.5, 0.9999, 1.0, 1.5, 2.4999999, 2.5, 2.5000001];
        limits.extend((0..4000).map(|k| f64::from(k) * 0.125 + 0.3 * f64::from(k % 7)));
        limits.extend([59_999.5, 60_000.0, 65_534.5, 65_535.4, 70_000.0, 1e9]);
        for limit in limits {
            for hours in [1u16, 2, 3, 7, 100, 499, 500, 501, 59_999, 60_000, 65_535] {
                assert_eq!(
                    reaches_limit(hours, limit),
                    rounded(hours, limit),
                    "{hours} hours against a limit of {limit}"
                );
            }
        }
    }
}

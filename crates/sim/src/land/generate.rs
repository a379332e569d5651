//! Land features of a new map, drawn from the land RNG stream ([`super::LAND_STREAM`]) in this
//! order: water sources, the dormant badwater source, forests, berry bushes, ruins, then the wind.
//!
//! - The river's upstream end is its `t = 0` end (west for rivers along x, south along y). Its edge
//!   tiles are closed to outflow, and `water.sourceGeneration.count` sources of rolled strength
//!   stand spread across it. The channel starts filled to 0.3 above its banks.
//! - One dormant badwater source stands on land at least `badwaterMinDistanceFromStart` tiles
//!   (Chebyshev) from the start spot (the farthest land tile on maps too small for that).
//! - Soil moisture is computed from that water; forests (several species, each forest mostly of one),
//!   then BlueberryBush patches within `bushMaxDistanceFromWater` tiles of water, grow only on moist
//!   land no higher than `featureMaxHeightAboveRiver` above the riverbed (the start's patches on
//!   its bank of the river, then bushes on the nearest free moist tiles there until that bank
//!   holds `startBushesMin` within `startBushReach` of the start spot); ruins stand anywhere on
//!   dry land. Counts are per 128x128 and scale with the map's area.
//! - Nothing stands within `startClearRadius` of the start spot or in the river.

use std::collections::BTreeMap;

use crate::catalog::{PlantKind, nature, world_rules};
use crate::ids::IdGen;
use crate::map::{Map, RiverAxis};
use crate::rng::WorldRng;

use super::plants::{in_start_area, start_area_tiles};
use super::{LAND_STREAM, Land, PlantTable, Soil, Water, WaterParams, WaterSource, Wind};

/// Depth above the river banks the channel is filled to before the water is run to rest.
const PREFILL_ABOVE_BANK: f32 = 0.3;
/// The water counts as at rest when no tile's depth changed more than this (m) over the
/// settle check's 16 steps (a tenth of a millimetre a step: a faster drift would still dry
/// the films on the banks that moisten the land above them within days).
const SETTLE_TOLERANCE: f32 = 0.0016;
/// Game days of water the settling runs at most.
const SETTLE_MAX_DAYS: usize = 12;

/// How many times a river flooding the start area is weakened at most, and by how much each
/// time.
const WEAKEN_TRIES: usize = 4;
const WEAKEN: f32 = 0.75;
/// Water on the start area's land deeper than this (m) counts as flooding it.
const START_WET: f32 = 0.02;

/// Whether water stands on the start area's land (its square around the start spot, the
/// river's channel excluded).
fn start_land_wet(water: &Water, map: &Map) -> bool {
    let w = map.width() as usize;
    start_area_tiles(map)
        .any(|(x, y)| !map.is_river(x, y) && water.depth[y as usize * w + x as usize] > START_WET)
}

/// Water steps in a game day.
fn steps_per_day() -> usize {
    (crate::clock::ticks_per_day() / u64::from(super::water::water_step_ticks())) as usize
}

/// The edge tiles of the river's upstream end (tile indexes), closed to outflow.
pub(crate) fn upstream_edge(map: &Map) -> Vec<usize> {
    let w = map.width() as usize;
    let river = map.river();
    let [lo, hi] = river.spans[0];
    (lo..=hi)
        .map(|s| match river.axis {
            RiverAxis::AlongX => s as usize * w,
            RiverAxis::AlongY => s as usize,
        })
        .collect()
}

fn scaled_count(rng: &mut WorldRng, range: [u32; 2], map: &Map) -> u32 {
    let base = f64::from(rng.range_u32(range[0], range[1]));
    let area = f64::from(map.width()) * f64::from(map.height()) / (128.0 * 128.0);
    (base * area).round().max(1.0) as u32
}

/// Generates the land of a new map.
pub(crate) fn generate(seed: u64, map: &Map) -> Land {
    let rules = world_rules();
    let lg = &rules.map.land_generation.value;
    let mut rng = WorldRng::new(seed, LAND_STREAM);
    let (w, h) = (map.width(), map.height());
    let n = w as usize * h as usize;
    let mut water = river_water(&mut rng, map);
    settle_river(&mut water, map);
    let mut soil = Soil::new(n);
    soil.recompute(map.terrain(), &water);
    let mut land = Land {
        aquifer: super::aquifer::aquifers(seed, map),
        water,
        soil,
        plants: PlantTable::default(),
        ruins: BTreeMap::new(),
        occupant: vec![None; n],
        cutting: vec![false; n],
        planting: BTreeMap::new(),
        wind: Wind {
            strength: 0.0,
            direction: 0.0,
            target_strength: 0.0,
            target_direction: 0.0,
            hours_left: 0,
            reported_strength: 0.0,
            reported_direction: 0.0,
        },
        rng,
        ids: IdGen::default(),
        hive_boost: Default::default(),
        built: Vec::new(),
    };
    let riverbed = rules.map.generation.value.riverbed_height;
    let max_h = riverbed.saturating_add(lg.feature_max_height_above_river);
    let free = |land: &Land, x: u32, y: u32| {
        let i = land.idx(x, y);
        land.occupant[i].is_none()
            && !map.is_river(x, y)
            && !land.is_water(i)
            && !in_start_area(map, x, y)
    };
    // Forests.
    let moist: Vec<(u32, u32)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let i = land.idx(x, y);
            land.soil.is_moist(i) && map.terrain_height(x, y) <= max_h && free(&land, x, y)
        })
        .collect();
    let cat = nature();
    let species: Vec<(u16, f64)> = lg
        .tree_species
        .iter()
        .filter_map(|(name, wgt)| cat.index(name).map(|i| (i, *wgt)))
        .collect();
    let total_w: f64 = species.iter().map(|s| s.1).sum();
    let pick_species = |rng: &mut WorldRng| {
        let mut r = rng.range_f64(0.0, total_w);
        for (i, wgt) in &species {
            if r < *wgt {
                return *i;
            }
            r -= wgt;
        }
        species
            .last()
            .map(|s| s.0)
            .expect("tree species configured")
    };
    let forests = scaled_count(&mut land.rng, lg.forests_per128_square, map);
    // The first `startForests` forests and `startBushPatches` patches grow near the start spot
    // (centred on one of the 24 candidate tiles nearest it beyond the clear radius), so every
    // colony has wood and berries within a flag's reach.
    let (sx, sy, _) = map.start_spot();
    let near_start = |cands: &[(u32, u32)], rng: &mut WorldRng| -> Option<(u32, u32)> {
        let min = i64::from(lg.start_clear_radius) + 4;
        let mut by_dist: Vec<(i64, (u32, u32))> = cands
            .iter()
            .map(|&(x, y)| {
                (
                    (i64::from(x) - i64::from(sx)).abs() + (i64::from(y) - i64::from(sy)).abs(),
                    (x, y),
                )
            })
            .filter(|(d, _)| *d >= min)
            .collect();
        by_dist.sort_unstable();
        by_dist.truncate(24);
        (!by_dist.is_empty())
            .then(|| by_dist[rng.range_u32(0, by_dist.len() as u32 - 1) as usize].1)
    };
    let grow = |land: &mut Land, kind: u16, x: u32, y: u32| {
        let growth = if land.rng.chance(lg.grown_share) {
            1.0
        } else {
            land.rng.range_f64(0.1, 0.95) as f32
        };
        let z = u32::from(map.terrain_height(x, y));
        land.add_plant(kind, x, y, z, growth);
    };
    if !moist.is_empty() {
        for f in 0..forests + lg.start_forests {
            let (cx, cy) = match (f < lg.start_forests)
                .then(|| near_start(&moist, &mut land.rng))
                .flatten()
            {
                Some(c) => c,
                None => moist[land.rng.range_u32(0, moist.len() as u32 - 1) as usize],
            };
            let r = land.rng.range_u32(lg.forest_radius[0], lg.forest_radius[1]) as i64;
            let dominant = pick_species(&mut land.rng);
            for dy in -r..=r {
                for dx in -r..=r {
                    let (x, y) = (i64::from(cx) + dx, i64::from(cy) + dy);
                    if dx * dx + dy * dy > r * r || !map.contains(x, y) {
                        continue;
                    }
                    let (x, y) = (x as u32, y as u32);
                    let i = land.idx(x, y);
                    if !land.rng.chance(lg.forest_density)
                        || !free(&land, x, y)
                        || !land.soil.is_moist(i)
                        || map.terrain_height(x, y) > max_h
                    {
                        continue;
                    }
                    let kind = if land.rng.chance(0.7) {
                        dominant
                    } else {
                        pick_species(&mut land.rng)
                    };
                    grow(&mut land, kind, x, y);
                }
            }
        }
    }
    // Berry bushes near water.
    let bush = cat
        .index("BlueberryBush")
        .expect("BlueberryBush in data/nature.json");
    debug_assert_eq!(cat.get(bush).kind, PlantKind::Bush);
    let reach = lg.bush_max_distance_from_water as i64;
    let shore: Vec<(u32, u32)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let i = land.idx(x, y);
            land.soil.is_moist(i) && free(&land, x, y) && near_water(&land, map, x, y, reach)
        })
        .collect();
    // (The start's patches grow on its bank: bushes across the river are out of a gatherer's
    // reach until a bridge stands.)
    let start_side = map.river_side(sx, sy);
    let start_shore: Vec<(u32, u32)> = shore
        .iter()
        .copied()
        .filter(|&(x, y)| map.river_side(x, y) == start_side)
        .collect();
    let patches = scaled_count(&mut land.rng, lg.bush_patches_per128_square, map);
    if !shore.is_empty() {
        for p in 0..patches + lg.start_bush_patches {
            let (cx, cy) = match (p < lg.start_bush_patches)
                .then(|| near_start(&start_shore, &mut land.rng))
                .flatten()
            {
                Some(c) => c,
                None => shore[land.rng.range_u32(0, shore.len() as u32 - 1) as usize],
            };
            let r = land
                .rng
                .range_u32(lg.bush_patch_radius[0], lg.bush_patch_radius[1])
                as i64;
            for dy in -r..=r {
                for dx in -r..=r {
                    let (x, y) = (i64::from(cx) + dx, i64::from(cy) + dy);
                    if dx * dx + dy * dy > r * r || !map.contains(x, y) {
                        continue;
                    }
                    let (x, y) = (x as u32, y as u32);
                    let i = land.idx(x, y);
                    if land.rng.chance(lg.bush_density)
                        && free(&land, x, y)
                        && land.soil.is_moist(i)
                        && near_water(&land, map, x, y, reach)
                    {
                        grow(&mut land, bush, x, y);
                    }
                }
            }
        }
    }
    // At least `startBushesMin` bushes on the start's bank within `startBushReach` of it: the
    // nearest free moist tiles there (shore tiles first) take the bushes missing.
    let reach_start = i64::from(lg.start_bush_reach);
    let start_dist = |x: u32, y: u32| {
        (i64::from(x) - i64::from(sx)).abs() + (i64::from(y) - i64::from(sy)).abs()
    };
    let near_bank =
        |x: u32, y: u32| start_dist(x, y) <= reach_start && map.river_side(x, y) == start_side;
    let have = land
        .plants
        .values()
        .filter(|p| p.species == bush && near_bank(p.x, p.y))
        .count();
    let missing = (lg.start_bushes_min as usize).saturating_sub(have);
    if missing > 0 {
        let mut spots: Vec<(bool, i64, u32, u32)> = (sy.saturating_sub(lg.start_bush_reach)
            ..=(sy + lg.start_bush_reach).min(h - 1))
            .flat_map(|y| {
                (sx.saturating_sub(lg.start_bush_reach)..=(sx + lg.start_bush_reach).min(w - 1))
                    .map(move |x| (x, y))
            })
            .filter(|&(x, y)| {
                let i = land.idx(x, y);
                near_bank(x, y)
                    && free(&land, x, y)
                    && land.soil.is_moist(i)
                    && map.terrain_height(x, y) <= max_h
            })
            .map(|(x, y)| (!near_water(&land, map, x, y, reach), start_dist(x, y), y, x))
            .collect();
        spots.sort_unstable();
        for &(_, _, y, x) in spots.iter().take(missing) {
            grow(&mut land, bush, x, y);
        }
    }
    // Ruins.
    let clusters = scaled_count(&mut land.rng, lg.ruin_clusters_per128_square, map);
    for _ in 0..clusters {
        let (cx, cy) = (land.rng.range_u32(0, w - 1), land.rng.range_u32(0, h - 1));
        let count = land
            .rng
            .range_u32(lg.ruins_per_cluster[0], lg.ruins_per_cluster[1]);
        for _ in 0..count {
            let dx = i64::from(land.rng.range_u32(0, 6)) - 3;
            let dy = i64::from(land.rng.range_u32(0, 6)) - 3;
            let scrap = land.rng.range_u32(lg.ruin_scrap[0], lg.ruin_scrap[1]);
            let (x, y) = (i64::from(cx) + dx, i64::from(cy) + dy);
            if !map.contains(x, y) {
                continue;
            }
            let (x, y) = (x as u32, y as u32);
            if free(&land, x, y) {
                let z = u32::from(map.terrain_height(x, y));
                land.add_ruin(x, y, z, scrap);
            }
        }
    }
    land.wind = Wind::roll(&mut land.rng);
    land
}

/// The water of a new map before it is run to rest: the river's sources across its upstream
/// end, its channel filled, and the dormant badwater source (drawn from `rng`).
fn river_water(rng: &mut WorldRng, map: &Map) -> Water {
    let rules = world_rules();
    let gen_rules = &rules.water.source_generation.value;
    let (w, h) = (map.width(), map.height());
    let closed = if rules.water.upstream_edge_closed.value {
        upstream_edge(map)
    } else {
        Vec::new()
    };
    let mut water = Water::new(w, h, &closed);
    // Sources across the upstream end.
    let river = map.river();
    let [lo, hi] = river.spans[0];
    let count = rng.range_u32(gen_rules.count[0], gen_rules.count[1]);
    let strengths: Vec<f64> = (0..count)
        .map(|_| rng.range_f64(gen_rules.strength[0], gen_rules.strength[1]))
        .collect();
    // No more water than the channel carries below the valley floor.
    let total: f64 = strengths.iter().sum();
    let scale = (gen_rules.total_strength_max / total).min(1.0);
    for (k, strength) in (0..count).zip(strengths) {
        let across = lo + ((hi - lo) * (2 * k + 1)) / (2 * count);
        let (x, y) = match river.axis {
            RiverAxis::AlongX => (0, across),
            RiverAxis::AlongY => (across, 0),
        };
        let strength = strength * scale;
        water.sources.push(WaterSource {
            x,
            y,
            strength: ((strength * 100.0).round() / 100.0) as f32,
            badwater: false,
            capped: false,
        });
    }
    // Prefill the channel.
    let bank = f32::from(rules.map.generation.value.river_bank_height);
    for y in 0..h {
        for x in 0..w {
            if map.is_river(x, y) {
                let i = y as usize * w as usize + x as usize;
                water.depth[i] = (bank + PREFILL_ABOVE_BANK - f32::from(map.terrain()[i])).max(0.0);
            }
        }
    }
    // The dormant badwater source.
    let (sx, sy, _) = map.start_spot();
    let far = |x: u32, y: u32| x.abs_diff(sx).max(y.abs_diff(sy));
    for _ in 0..gen_rules.badwater_count {
        let mut spot = None;
        for _ in 0..200 {
            let (x, y) = (rng.range_u32(0, w - 1), rng.range_u32(0, h - 1));
            if !map.is_river(x, y) && far(x, y) >= gen_rules.badwater_min_distance_from_start {
                spot = Some((x, y));
                break;
            }
        }
        let (x, y) = spot.unwrap_or_else(|| {
            (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .filter(|(x, y)| !map.is_river(*x, *y))
                .max_by_key(|(x, y)| (far(*x, *y), std::cmp::Reverse((*y, *x))))
                .unwrap_or((0, 0))
        });
        let strength = rng.range_f64(
            gen_rules.badwater_strength[0],
            gen_rules.badwater_strength[1],
        );
        water.sources.push(WaterSource {
            x,
            y,
            strength: ((strength * 100.0).round() / 100.0) as f32,
            badwater: true,
            capped: false,
        });
    }
    water
}

/// Runs a new map's water to rest (a river too strong for its channel beside the start area is
/// weakened and settled again from the filled channel).
fn settle_river(water: &mut Water, map: &Map) {
    // The water at rest: the river as it will flow, before the soil and plants read it. A river
    // too strong for its channel beside the start area would flood the start: its sources are
    // weakened and the water settled again from the filled channel.
    let filled = water.clone();
    for attempt in 0..=WEAKEN_TRIES {
        water.settle(
            map.terrain(),
            &WaterParams::from_rules(),
            SETTLE_TOLERANCE,
            SETTLE_MAX_DAYS * steps_per_day(),
        );
        if attempt == WEAKEN_TRIES || !start_land_wet(water, map) {
            break;
        }
        let sources = water.sources.clone();
        *water = filled.clone();
        for (s, before) in water.sources.iter_mut().zip(sources) {
            s.strength = ((before.strength * WEAKEN * 100.0).round() / 100.0).max(0.01);
        }
    }
}

/// Whether a water tile lies within `reach` tiles (Chebyshev) of `(x, y)`.
fn near_water(land: &Land, map: &Map, x: u32, y: u32, reach: i64) -> bool {
    (-reach..=reach).any(|dy| {
        (-reach..=reach).any(|dx| {
            let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
            map.contains(nx, ny) && land.is_water(land.idx(nx as u32, ny as u32))
        })
    })
}

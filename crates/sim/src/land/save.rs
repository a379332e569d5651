//! The save layout of the land (the `land` member of a save, format version 2).
//!
//! `{water: {depth, bad, fx, fy, barriers: [{x, y, height}], sources, totals}, moisture,
//! contamination, plants: [{id, species, x, y, z, growth, alive, fruit, dryHours, floodHours,
//! poisonHours, tolerance}], ruins: [{id, x, y, z, scrap}], cutting: [[x, y]],
//! planting: [{x, y, crop}], wind, rng, nextId}`. Per-tile arrays are row by row; floats are written
//! in their shortest exact form, so a load continues exactly where the save left off. Species are
//! saved by name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::nature;
use crate::ids::IdGen;
use crate::map::Map;
use crate::rng::{RngState, WorldRng};

use super::generate::upstream_edge;
use super::{Land, Plant, PlantTable, Ruin, Soil, Water, WaterSource, WaterTotals, Wind};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WaterSave {
    depth: Vec<f32>,
    bad: Vec<f32>,
    fx: Vec<f32>,
    fy: Vec<f32>,
    barriers: Vec<BarrierSave>,
    sources: Vec<WaterSource>,
    totals: WaterTotals,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BarrierSave {
    x: u32,
    y: u32,
    height: f32,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlantSave {
    id: i32,
    species: String,
    x: u32,
    y: u32,
    z: u32,
    growth: f32,
    alive: bool,
    fruit: f32,
    dry_hours: u16,
    flood_hours: u16,
    poison_hours: u16,
    tolerance: f32,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RuinSave {
    id: i32,
    x: u32,
    y: u32,
    z: u32,
    scrap: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlantingSave {
    x: u32,
    y: u32,
    crop: String,
}

/// The saved land.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct LandSave {
    water: WaterSave,
    moisture: Vec<u8>,
    contamination: Vec<u8>,
    plants: Vec<PlantSave>,
    ruins: Vec<RuinSave>,
    cutting: Vec<[u32; 2]>,
    planting: Vec<PlantingSave>,
    wind: Wind,
    rng: RngState,
    next_id: IdGen,
}

impl LandSave {
    pub(crate) fn from_land(land: &Land) -> LandSave {
        let w = land.w();
        let xy = |i: usize| ((i % w) as u32, (i / w) as u32);
        let water = &land.water;
        LandSave {
            water: WaterSave {
                depth: water.depth.clone(),
                bad: water.bad.clone(),
                fx: water.fx.clone(),
                fy: water.fy.clone(),
                barriers: water
                    .barrier
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.is_finite())
                    .map(|(i, b)| {
                        let (x, y) = xy(i);
                        BarrierSave { x, y, height: *b }
                    })
                    .collect(),
                sources: water.sources.clone(),
                totals: water.totals,
            },
            moisture: land.soil.moisture.clone(),
            contamination: land.soil.contamination.clone(),
            plants: land
                .plants
                .iter()
                .map(|(id, p)| PlantSave {
                    id: *id,
                    species: p.name().to_owned(),
                    x: p.x,
                    y: p.y,
                    z: p.z,
                    growth: p.growth,
                    alive: p.alive,
                    fruit: p.fruit,
                    dry_hours: p.dry_hours,
                    flood_hours: p.flood_hours,
                    poison_hours: p.poison_hours,
                    tolerance: p.tolerance,
                })
                .collect(),
            ruins: land
                .ruins
                .iter()
                .map(|(id, r)| RuinSave {
                    id: *id,
                    x: r.x,
                    y: r.y,
                    z: r.z,
                    scrap: r.scrap,
                })
                .collect(),
            cutting: (0..land.cutting.len())
                .filter(|i| land.cutting[*i])
                .map(|i| {
                    let (x, y) = xy(i);
                    [x, y]
                })
                .collect(),
            planting: land
                .planting
                .iter()
                .map(|(i, s)| {
                    let (x, y) = xy(*i as usize);
                    PlantingSave {
                        x,
                        y,
                        crop: nature().get(*s).name.clone(),
                    }
                })
                .collect(),
            wind: land.wind.clone(),
            rng: land.rng.state(),
            next_id: land.ids.clone(),
        }
    }

    /// Rebuilds the land for `map`, checking that everything fits.
    pub(crate) fn into_land(self, map: &Map, seed: u64) -> Result<Land, String> {
        let (w, h) = (map.width(), map.height());
        let n = w as usize * h as usize;
        let ws = self.water;
        let lens = [
            ("water.depth", ws.depth.len(), n),
            ("water.bad", ws.bad.len(), n),
            ("water.fx", ws.fx.len(), (w as usize + 1) * h as usize),
            ("water.fy", ws.fy.len(), w as usize * (h as usize + 1)),
            ("moisture", self.moisture.len(), n),
            ("contamination", self.contamination.len(), n),
        ];
        for (name, got, want) in lens {
            if got != want {
                return Err(format!(
                    "land.{name} has {got} values, the map needs {want}"
                ));
            }
        }
        let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
        if !finite(&ws.fx)
            || !finite(&ws.fy)
            || ws
                .depth
                .iter()
                .chain(&ws.bad)
                .any(|d| !(d.is_finite() && *d >= 0.0))
        {
            return Err("land.water holds a negative or non-finite value".into());
        }
        let on_map = |x: u32, y: u32, what: &str| {
            if x < w && y < h {
                Ok(y as usize * w as usize + x as usize)
            } else {
                Err(format!("{what} at ({x}, {y}) lies off the {w}x{h} map"))
            }
        };
        let mut water = Water::new(w, h, &upstream_edge(map));
        water.depth = ws.depth;
        water.bad = ws.bad;
        water.fx = ws.fx;
        water.fy = ws.fy;
        for b in ws.barriers {
            let i = on_map(b.x, b.y, "a water barrier")?;
            if !b.height.is_finite() {
                return Err(format!(
                    "water barrier at ({}, {}) has no finite height",
                    b.x, b.y
                ));
            }
            water.barrier[i] = b.height;
        }
        for s in &ws.sources {
            on_map(s.x, s.y, "a water source")?;
            if !(s.strength.is_finite() && s.strength >= 0.0) {
                return Err(format!(
                    "water source at ({}, {}) has strength {}",
                    s.x, s.y, s.strength
                ));
            }
        }
        water.sources = ws.sources;
        water.totals = ws.totals;
        let mut occupant = vec![None; n];
        let mut place = |id: i32, i: usize| -> Result<(), String> {
            match occupant[i].replace(id) {
                Some(other) => Err(format!("entities {other} and {id} stand on the same tile")),
                None => Ok(()),
            }
        };
        let cat = nature();
        let mut plants = PlantTable::default();
        for p in self.plants {
            let i = on_map(p.x, p.y, "a plant")?;
            let species = cat
                .index(&p.species)
                .ok_or_else(|| format!("plant {} has unknown species {:?}", p.id, p.species))?;
            if !(0.0..=1.0).contains(&p.growth) || !(0.0..=1.0).contains(&p.fruit) {
                return Err(format!("plant {} has growth or fruit outside 0-1", p.id));
            }
            place(p.id, i)?;
            let plant = Plant {
                species,
                x: p.x,
                y: p.y,
                z: p.z,
                growth: p.growth,
                alive: p.alive,
                fruit: p.fruit,
                dry_hours: p.dry_hours,
                flood_hours: p.flood_hours,
                poison_hours: p.poison_hours,
                tolerance: p.tolerance,
            };
            if plants.insert(p.id, plant).is_some() {
                return Err(format!("plant id {} appears twice", p.id));
            }
        }
        let mut ruins = BTreeMap::new();
        for r in self.ruins {
            let i = on_map(r.x, r.y, "a ruin")?;
            place(r.id, i)?;
            if plants.contains_key(&r.id)
                || ruins
                    .insert(
                        r.id,
                        Ruin {
                            x: r.x,
                            y: r.y,
                            z: r.z,
                            scrap: r.scrap,
                        },
                    )
                    .is_some()
            {
                return Err(format!("ruin id {} is used twice", r.id));
            }
        }
        let mut cutting = vec![false; n];
        for [x, y] in self.cutting {
            cutting[on_map(x, y, "a cutting mark")?] = true;
        }
        let mut planting = BTreeMap::new();
        for p in self.planting {
            let i = on_map(p.x, p.y, "a planting mark")?;
            let s = cat
                .index(&p.crop)
                .ok_or_else(|| format!("planting mark has unknown crop {:?}", p.crop))?;
            planting.insert(i as u32, s);
        }
        Ok(Land {
            aquifer: super::aquifer::aquifers_of_seed(seed, map.width(), map.height()),
            water,
            soil: Soil {
                moisture: self.moisture,
                barrier: vec![false; self.contamination.len()],
                contamination: self.contamination,
                last: None,
            },
            plants,
            ruins,
            occupant,
            cutting,
            planting,
            wind: self.wind,
            rng: WorldRng::from_state(&self.rng)?,
            ids: self.next_id,
            hive_boost: Default::default(),
            built: Vec::new(),
        })
    }
}

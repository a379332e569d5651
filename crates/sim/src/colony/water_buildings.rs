//! Water buildings' effects on the land: soil barriers (impermeable floors, levees, contamination
//! and irrigation barriers) close their tiles to the soil; aquifer drills add clean water.
//!
//! A building with the `soilBarrier` flag closes the tiles of its footprint when it is finished
//! and stands on the ground there (its base at the tile's terrain height; one standing on a
//! platform or a stack of levees closes nothing below it). The closed tiles are derived from the
//! buildings whenever one is finished or removed and after a load, so saves need carry nothing.
//!
//! An aquifer drill (the game's `UndergroundWaterSourceDrillSpec`: AquiferDrill, the map's
//! AncientAquiferDrill) stands on aquifer tiles (`land::aquifer`; placement refuses it elsewhere).
//! Finished and not paused, it gives `water.buildings.aquiferDrillStrength` m3/s of clean water
//! times its power efficiency (the share of its 400 hp its network gives it, as underpowered
//! workshops slow down: `power`), spread evenly over its footprint, whatever the weather (the
//! water comes from below: droughts do not stop it, badtides do not foul it). Its output is set
//! after the power step of the tick before each water step and kept on the building
//! (`Building::water_output`, saved), and the water's inflows are derived from those outputs, so a
//! loaded game pours exactly what the saved one would have.

use super::building::Building;
use super::geometry::footprint;
use crate::catalog::world_rules;
use crate::content::Building as Spec;
use crate::world::World;

/// Whether a prefab is an aquifer drill.
pub(crate) fn is_aquifer_drill(s: &Spec) -> bool {
    s.components
        .iter()
        .any(|c| c == "UndergroundWaterSourceDrillSpec")
}

impl World {
    /// Works out the tiles soil barriers close from the finished buildings and hands them to the
    /// soil (the next recompute spreads moisture and contamination around them).
    pub(crate) fn refresh_soil_barriers(&mut self) {
        let (w, h) = (self.map.width(), self.map.height());
        let mut closed = vec![false; (w * h) as usize];
        for b in self.colony.buildings.values() {
            let s = b.spec();
            if !b.finished || !s.flag("soilBarrier") {
                continue;
            }
            for (x, y) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
                let (x, y) = (x as u32, y as u32);
                if x < w && y < h && u32::from(self.map.terrain_height(x, y)) == b.z {
                    closed[(y * w + x) as usize] = true;
                }
            }
        }
        if closed != self.land.soil.barrier {
            self.land.soil.set_barriers(closed);
        }
    }

    /// Whether a tile is an aquifer tile (false off the map).
    pub(crate) fn is_aquifer(&self, x: u32, y: u32) -> bool {
        x < self.map.width()
            && y < self.map.height()
            && self.land.aquifer[(y * self.map.width() + x) as usize]
    }

    /// The south-west corner of every aquifer patch (an aquifer tile with none west or south of
    /// it), row by row.
    pub(crate) fn aquifer_patches(&self) -> Vec<(u32, u32)> {
        let (w, h) = (self.map.width(), self.map.height());
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let west = x > 0 && self.is_aquifer(x - 1, y);
                let south = y > 0 && self.is_aquifer(x, y - 1);
                if self.is_aquifer(x, y) && !west && !south {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// Sets every aquifer drill's output from this tick's power, then the water's inflows from
    /// the outputs. Runs after the power step of the tick before each water step.
    pub(crate) fn aquifer_drills_tick(&mut self) {
        let strength = world_rules().water.buildings.value.aquifer_drill_strength as f32;
        let drills: Vec<i32> = self
            .colony
            .buildings
            .iter()
            .filter(|(_, b)| b.finished && is_aquifer_drill(b.spec()))
            .map(|(id, _)| *id)
            .collect();
        if drills.is_empty() && self.land.water.inflows.is_empty() {
            return;
        }
        for id in drills {
            let paused = self.colony.buildings[&id].paused;
            let out = if paused {
                0.0
            } else {
                strength * self.power_efficiency(id) as f32
            };
            self.colony
                .buildings
                .get_mut(&id)
                .expect("listed above")
                .water_output = out;
        }
        self.refresh_inflows();
    }

    /// The water's inflows from the drills' outputs (after each drill update and after a load).
    pub(crate) fn refresh_inflows(&mut self) {
        let w = self.map.width() as usize;
        let mut inflows = Vec::new();
        for b in self.colony.buildings.values() {
            inflows.extend(drill_inflows(b, w));
        }
        self.land.water.inflows = inflows;
    }
}

/// A drill's output spread over its footprint: (tile index, m3/s); nothing from another
/// building or a drill giving nothing.
fn drill_inflows(b: &Building, w: usize) -> Vec<(usize, f32)> {
    let s = b.spec();
    if b.water_output <= 0.0 || !is_aquifer_drill(s) {
        return Vec::new();
    }
    let tiles = footprint(s, b.x.into(), b.y.into(), b.orientation);
    let each = b.water_output / tiles.len().max(1) as f32;
    tiles
        .into_iter()
        .map(|(x, y)| (y as usize * w + x as usize, each))
        .collect()
}

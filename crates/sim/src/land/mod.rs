//! The land: water, soil, plants, ruins, wind and the per-tile marks (cutting area, planting), with
//! the land step the world runs each tick.
//!
//! Submodules: `water` (the water model), `soil` (moisture and contamination), `aquifer` (where
//! aquifer drills may stand), `plants` (trees,
//! bushes, crops and ruins; growth, death, spreading), `wind`, `generate` (land features of a new
//! map), `commands` (the land commands of [`World`]), `views` (read models), `save` (the save
//! layout of the land).
//!
//! Cadence (ticks are absolute time, from hour 0 of day 1): water every `stepTicks` (4); soil,
//! plants and wind at each full hour, in that order; plants spread at each dawn. Water runs before
//! the hourly systems in the same tick.
//!
//! [`World`]: crate::World

mod aquifer;
mod commands;
mod generate;
mod grid;
mod plant_summary;
mod plant_table;
mod plants;
mod save;
mod soil;
mod views;
mod water;
mod wind;

use std::collections::BTreeMap;

use serde_json::json;

use crate::catalog::world_rules;
use crate::clock::{day_at, ticks_per_day, ticks_per_hour};
use crate::event::{EventQueue, names};
use crate::ids::IdGen;
use crate::map::Map;
use crate::rng::WorldRng;
use crate::weather::{HazardKind, WeatherState};

pub use commands::{Area, HarvestYield, Spot};
pub use grid::{TileGrid, TilePlant};
pub use plant_summary::{Near, PlantSummary};
pub use plants::PlantView;
pub(crate) use save::LandSave;
pub use views::{
    ClusterView, FlowView, GatherableView, Occupant, PlantTally, RuinView, TileRegion, TileView,
};
pub use water::{WaterSource, WaterTotals, water_step_ticks};
pub use wind::WindView;

pub(crate) use generate::generate;
pub(crate) use plant_table::PlantTable;
pub(crate) use plants::{Plant, Ruin};
pub(crate) use soil::Soil;
pub(crate) use water::{SourceMode, Water, WaterParams};
pub(crate) use wind::Wind;

/// The ChaCha8 stream of the game seed that drives the land (features, spreading, wind).
pub const LAND_STREAM: u64 = 0x6c61_6e64; // "land"

/// All land state of a world.
#[derive(Debug, Clone)]
pub(crate) struct Land {
    pub water: Water,
    pub soil: Soil,
    pub plants: PlantTable,
    pub ruins: BTreeMap<i32, Ruin>,
    /// Entity standing on each tile (plant or ruin id), if any.
    pub occupant: Vec<Option<i32>>,
    /// Tiles marked as cutting area.
    pub cutting: Vec<bool>,
    /// Planting marks: tile index -> species index.
    pub planting: BTreeMap<u32, u16>,
    pub wind: Wind,
    pub rng: WorldRng,
    pub ids: IdGen,
    /// Crops a beehive speeds up this hour (derived from the colony each hour; not saved).
    pub hive_boost: std::collections::BTreeSet<i32>,
    /// Aquifer tiles (drawn from the seed and the map, not saved; see `aquifer`).
    pub aquifer: Vec<bool>,
    /// Tiles whose ground a building stands on (paths included), where nothing spreads
    /// (derived from the colony before each dawn's spread; not saved; empty: none).
    pub built: Vec<bool>,
}

impl Land {
    /// Map width in tiles, as usize.
    pub(crate) fn w(&self) -> usize {
        self.water.width as usize
    }

    /// The tile index of `(x, y)`.
    pub(crate) fn idx(&self, x: u32, y: u32) -> usize {
        y as usize * self.w() + x as usize
    }

    /// Runs the land for the tick that reached absolute time `t`.
    pub(crate) fn tick(
        &mut self,
        t: u64,
        map: &Map,
        weather: &WeatherState,
        events: &mut EventQueue,
    ) {
        let step = u64::from(water::water_step_ticks());
        if t.is_multiple_of(step) {
            let mode = source_mode(weather, t);
            self.water
                .step(map.terrain(), mode, &WaterParams::from_rules());
        }
        let recompute = u64::from(
            world_rules()
                .irrigation
                .simulation
                .value
                .recompute_ticks
                .max(1),
        );
        let day = day_at(t);
        if t.is_multiple_of(recompute) {
            let change = self.soil.recompute(map.terrain(), &self.water);
            if change.contaminated > 0 || change.cleaned > 0 {
                let total = self.soil.contamination.iter().filter(|c| **c > 0).count();
                events.push(
                    names::CONTAMINATION_CHANGED,
                    day,
                    json!({
                        "scope": "soil",
                        "contaminated": change.contaminated,
                        "cleaned": change.cleaned,
                        "total": total,
                    }),
                );
            }
        }
        if t.is_multiple_of(ticks_per_hour()) {
            plants::hour(self, map);
            if t.is_multiple_of(ticks_per_day()) {
                plants::spread(self, map);
            }
            if let Some(v) = self.wind.hour(&mut self.rng) {
                events.push(
                    names::WIND_CHANGED,
                    day,
                    json!({ "strength": v.strength, "direction": v.direction }),
                );
            }
        }
    }
}

/// What the sources do at absolute time `t`.
pub(crate) fn source_mode(weather: &WeatherState, t: u64) -> SourceMode {
    if !weather.is_hazardous_at(t) {
        return SourceMode::Temperate;
    }
    match weather.hazard {
        HazardKind::Drought => SourceMode::Drought,
        HazardKind::Badtide => {
            let b = &world_rules().weather.badtide_contamination.value;
            let tph = ticks_per_hour() as f64;
            let into = (t - weather.hazard_start()) as f64 / tph;
            let left = (weather.cycle_end() - t) as f64 / tph;
            let up = b.start_share
                + (1.0 - b.start_share) * (into / b.ramp_to_full_hours.max(1e-9)).min(1.0);
            let down = b.end_share
                + (1.0 - b.end_share) * (left / b.ramp_down_last_hours.max(1e-9)).min(1.0);
            SourceMode::Badtide(up.min(down).clamp(0.0, 1.0) as f32)
        }
    }
}

#[cfg(test)]
mod tests;

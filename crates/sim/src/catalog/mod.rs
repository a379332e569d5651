//! The content catalogue: the world rules in `data/world.json` (land rules typed in `land`) and
//! the plants in `data/nature.json` (`nature`), parsed once into typed structs.
//!
//! Every fact in the data file is wrapped as `{value, confidence, source|basis, note?}`; [`Fact`]
//! mirrors that wrapper so the provenance stays visible in code. The file is embedded at compile
//! time (`include_str!`), so loading it is pure: no I/O at run time.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::config::GameMode;

mod land;
mod nature;

pub use land::*;
pub use nature::{
    BushSpec, CropSpec, Flooding, GoodAmount, Nature, NatureModifiers, NatureRules, PlantKind,
    Species, Spread, TreeSpec, nature, parse_nature,
};

/// The embedded world-rules data file.
const WORLD_JSON: &str = include_str!("../../../../data/world.json");

/// Where a value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Found in a public source.
    Source,
    /// A reasoned guess; the fact's `basis` explains it.
    Estimate,
}

/// One fact of the data file: the value plus its provenance.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact<T> {
    pub value: T,
    pub confidence: Confidence,
    /// Source ids (for `confidence: source`).
    #[serde(default)]
    pub source: Option<String>,
    /// Reasoning (for `confidence: estimate`).
    #[serde(default)]
    pub basis: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

/// All world rules the simulation uses.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldRules {
    pub time: TimeRules,
    pub work_hours: WorkHourRules,
    pub weather: WeatherRules,
    pub map: MapRules,
    pub population: PopulationRules,
    pub water: WaterRules,
    pub irrigation: IrrigationRules,
    pub contamination: ContaminationRules,
}

/// Day length, day/night split and game speeds.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeRules {
    pub hours_per_day: Fact<u32>,
    pub ticks_per_day: Fact<u64>,
    pub real_seconds_per_day_at1x: Fact<f64>,
    /// Hours 0..daytimeHours are day, the rest night.
    pub daytime_hours: Fact<u32>,
    pub new_game_start_hour: Fact<u32>,
    /// Time-scale multiplier per speed level ("0".."3").
    pub speed_levels: Fact<BTreeMap<String, f64>>,
}

/// Working hours: from hour 0 to the end hour.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkHourRules {
    pub default_end_hour: Fact<u8>,
    pub min_end_hour: Fact<u8>,
    pub max_end_hour: Fact<u8>,
}

/// Weather cycle rules.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeatherRules {
    pub game_modes: Fact<BTreeMap<String, GameModeRules>>,
    pub cycle: Fact<String>,
    pub hazard_duration_formula: Fact<String>,
    pub minimum_hazard_days: Fact<u32>,
    pub hazard_choice: Fact<String>,
    pub hazard_streak_push: Fact<f64>,
    pub hazard_warning_lead_hours: Fact<u32>,
    pub warning_before_hazard: Fact<bool>,
    pub drought_effect: DroughtEffect,
    pub badtide_contamination: Fact<BadtideContamination>,
    pub wind: Fact<WindRules>,
}

/// The handicap of the hazard duration formula: early cycles are shortened by `multiplier`,
/// rising linearly to full length over `cycles` cycles.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Handicap {
    pub multiplier: f64,
    pub cycles: u32,
}

/// The numbers of one game mode (Easy, Normal, Hard).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GameModeRules {
    /// Inclusive range of temperate days per cycle.
    pub temperate_days: [u32; 2],
    /// Inclusive range of drought days before the handicap.
    pub drought_days: [u32; 2],
    pub drought_handicap: Handicap,
    pub badtide_days: [u32; 2],
    pub badtide_handicap: Handicap,
    /// Cycles 1..=this never have a badtide.
    pub cycles_without_badtide: u32,
    pub badtide_chance: f64,
    pub food_consumption: f64,
    pub water_consumption: f64,
    pub starting_food: u32,
    pub starting_water: u32,
    pub injury_chance: f64,
    pub refund_rate: f64,
}

/// Map size limits and generator tunables.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MapRules {
    pub default_size: Fact<[u32; 2]>,
    pub min_size: Fact<u32>,
    pub max_size: Fact<u32>,
    pub max_terrain_height: Fact<u8>,
    pub max_height_above_terrain: Fact<u8>,
    pub generation: Fact<MapGeneration>,
    pub land_generation: Fact<LandGeneration>,
}

/// Tunables of the heightmap generator (see `map::generate`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapGeneration {
    pub riverbed_height: u8,
    pub river_bank_height: u8,
    pub lowest_land_height: u8,
    pub highest_land_height: u8,
    pub terrace_step: u8,
    pub valley_rise: f64,
    pub valley_width_fraction: f64,
    pub noise_amplitude: f64,
    pub river_half_width_fraction: f64,
    pub river_min_half_width: f64,
    pub start_area_size: u32,
    pub start_area_ramp: u32,
    pub start_area_along: f64,
    pub start_area_jitter: f64,
}

/// Population facts (used by later systems).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PopulationRules {
    pub starting_colony: Fact<StartingColony>,
}

/// The colony a new game starts with.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StartingColony {
    pub adults: u32,
    pub children: u32,
    pub adult_age_progress: [f64; 2],
    pub child_age_progress: [f64; 2],
}

impl WorldRules {
    /// The numbers of a game mode.
    pub fn mode(&self, mode: GameMode) -> &GameModeRules {
        self.weather
            .game_modes
            .value
            .get(mode.as_str())
            .unwrap_or_else(|| panic!("data/world.json lacks weather.gameModes.{mode}"))
    }

    /// Ticks in one game hour (ticksPerDay / hoursPerDay).
    pub fn ticks_per_hour(&self) -> u64 {
        self.time.ticks_per_day.value / u64::from(self.time.hours_per_day.value)
    }
}

/// Parses the world rules from JSON text.
pub fn parse_world_rules(text: &str) -> Result<WorldRules, serde_json::Error> {
    serde_json::from_str(text)
}

/// The world rules, parsed on first use from the embedded data file.
///
/// # Panics
/// If the embedded file does not parse; the crate's tests guarantee it does.
pub fn world_rules() -> &'static WorldRules {
    static RULES: OnceLock<WorldRules> = OnceLock::new();
    RULES.get_or_init(|| {
        parse_world_rules(WORLD_JSON).unwrap_or_else(|e| panic!("data/world.json is invalid: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provenance_ok<T>(f: &Fact<T>) -> bool {
        match f.confidence {
            Confidence::Source => f.source.as_deref().is_some_and(|s| !s.is_empty()),
            Confidence::Estimate => f.basis.as_deref().is_some_and(|s| !s.is_empty()),
        }
    }

    #[test]
    fn data_file_loads_with_sane_values() {
        let r = world_rules();
        assert_eq!(r.time.hours_per_day.value, 24);
        assert_eq!(r.time.ticks_per_day.value, 768);
        assert_eq!(
            r.time.ticks_per_day.value % u64::from(r.time.hours_per_day.value),
            0
        );
        assert_eq!(r.ticks_per_hour(), 32);
        assert!(r.time.daytime_hours.value < r.time.hours_per_day.value);
        assert!(r.time.new_game_start_hour.value < r.time.hours_per_day.value);
        let speeds = &r.time.speed_levels.value;
        assert_eq!(speeds.len(), 4);
        assert_eq!(speeds["0"], 0.0);
        assert!(speeds["1"] < speeds["2"] && speeds["2"] < speeds["3"]);
        assert_eq!(r.work_hours.default_end_hour.value, 16);
        assert!(r.work_hours.min_end_hour.value >= 1);
        assert_eq!(r.work_hours.max_end_hour.value, 24);
        for mode in [GameMode::Easy, GameMode::Normal, GameMode::Hard] {
            let m = r.mode(mode);
            for range in [m.temperate_days, m.drought_days, m.badtide_days] {
                assert!(range[0] >= 1 && range[0] <= range[1], "{mode}: {range:?}");
            }
            for h in [m.drought_handicap, m.badtide_handicap] {
                assert!(h.multiplier > 0.0 && h.multiplier <= 1.0 && h.cycles >= 1);
            }
            assert!((0.0..=1.0).contains(&m.badtide_chance));
        }
        assert_eq!(r.map.default_size.value, [128, 128]);
        assert!(r.map.min_size.value <= 128 && r.map.max_size.value == 256);
        let g = &r.map.generation.value;
        assert!(g.riverbed_height < g.river_bank_height);
        assert!(g.river_bank_height < g.lowest_land_height);
        assert!(g.lowest_land_height < g.highest_land_height);
        assert!(g.highest_land_height <= r.map.max_terrain_height.value);
        // Saves write one base-36 digit per terrain column.
        assert!(r.map.max_terrain_height.value < 36);
        assert!(g.terrace_step >= 1);
        assert!((0.0..=1.0).contains(&g.start_area_along));
        assert!((0.0..0.5).contains(&g.start_area_jitter));
        assert_eq!(r.population.starting_colony.value.adults, 8);
    }

    #[test]
    fn every_fact_names_its_provenance() {
        let r = world_rules();
        let t = &r.time;
        assert!(provenance_ok(&t.hours_per_day) && provenance_ok(&t.ticks_per_day));
        assert!(provenance_ok(&t.real_seconds_per_day_at1x) && provenance_ok(&t.daytime_hours));
        assert!(provenance_ok(&t.new_game_start_hour) && provenance_ok(&t.speed_levels));
        let w = &r.weather;
        assert!(provenance_ok(&w.game_modes) && provenance_ok(&w.hazard_streak_push));
        assert!(provenance_ok(&w.hazard_warning_lead_hours));
        assert_eq!(w.hazard_warning_lead_hours.confidence, Confidence::Estimate);
        assert!(provenance_ok(&r.map.min_size) && provenance_ok(&r.map.generation));
    }

    #[test]
    fn land_rules_load_with_sane_values() {
        let r = world_rules();
        let w = &r.water;
        assert_eq!(w.source_strength_max.value, 8.0);
        let sim = &w.simulation.value;
        assert!(
            sim.step_ticks >= 1
                && r.time
                    .ticks_per_day
                    .value
                    .is_multiple_of(u64::from(sim.step_ticks))
        );
        assert!(sim.pipe_stability > 0.0 && sim.pipe_stability <= 0.25);
        assert!((0.0..1.0).contains(&sim.friction));
        let g = &w.source_generation.value;
        assert!(g.strength[1] <= w.source_strength_max.value && g.count[0] >= 1);
        assert!(w.evaporation.value.shallow_per_second > w.evaporation.value.normal_per_second);
        let m = &r.irrigation.moisture_model.value;
        assert_eq!((m.emit_per_saturation, m.max_saturation), (2.0, 8));
        assert_eq!(r.irrigation.practical_range_tiles.value, 15);
        assert_eq!(
            r.contamination
                .soil_contaminated_when_water_share_at_least
                .value,
            0.5
        );
        let b = &r.weather.badtide_contamination.value;
        assert!(b.start_share > 0.0 && b.start_share <= 1.0);
        let lg = &r.map.land_generation.value;
        assert!(lg.tree_species.keys().all(|k| nature().index(k).is_some()));
        assert!(provenance_ok(&r.map.land_generation) && provenance_ok(&w.simulation));
        assert!(provenance_ok(&r.weather.wind) && provenance_ok(&r.contamination.soil_spread));
    }

    #[test]
    fn a_fact_without_confidence_is_rejected() {
        let bad = WORLD_JSON.replacen("\"confidence\": \"source\"", "\"confidence\": \"maybe\"", 1);
        assert!(parse_world_rules(&bad).is_err());
    }
}

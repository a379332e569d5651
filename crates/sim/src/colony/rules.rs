//! The colony's rules, typed from `data/colony.json` (population, consumption, movement, hauling,
//! districts, wellbeing and construction facts copied from the shared catalogue, plus the project's
//! own estimates under `colony`). Parsed once; every tunable of the colony lives there.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::catalog::Fact;

const COLONY_JSON: &str = include_str!("../../../../data/colony.json");

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColonyRules {
    pub population: PopulationRules,
    pub consumption: ConsumptionRules,
    pub movement: MovementRules,
    pub hauling: HaulingRules,
    pub districts: DistrictRules,
    pub wellbeing: WellbeingRules,
    pub construction: ConstructionRules,
    pub ailments: super::ailments::AilmentRules,
    pub colony: Estimates,
    pub ways: WaysRules,
}

/// Ways of moving and charges fired from afar: the detonator's reach, ziplines, tunnels (all
/// estimates where the catalogue gives nothing).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaysRules {
    /// Finished charges within this many tiles (each way, on the map's plane) of a detonator fire
    /// when its input turns on.
    pub detonator_reach_tiles: Fact<u32>,
    /// The longest zipline cable, in tiles between the two towers' tops.
    pub zipline_max_cable_tiles: Fact<f64>,
    /// Cables a tower takes, by the tower's base name.
    pub zipline_max_connections: Fact<BTreeMap<String, u32>>,
    /// Tiles of walking that getting on or off a cable at a station counts for.
    pub zipline_boarding_tiles: Fact<f64>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartingColony {
    pub adults: u32,
    pub children: u32,
    pub adult_age_progress: [f64; 2],
    pub child_age_progress: [f64; 2],
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FolktailsReproduction {
    pub chance_per_qualifying_entry: f64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PopulationRules {
    pub average_lifespan_days: Fact<f64>,
    pub childhood_days: Fact<f64>,
    pub folktails_reproduction: Fact<FolktailsReproduction>,
    pub starting_colony: Fact<StartingColony>,
    pub bot_lifespan_days: Fact<f64>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsumptionRules {
    pub food_per_beaver_per_day: Fact<f64>,
    pub water_per_beaver_per_day: Fact<f64>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Carrying {
    pub speed_while_carrying: f64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MovementRules {
    /// Tiles per second at 1x.
    pub adult_walk_speed: Fact<f64>,
    pub child_walk_speed: Fact<f64>,
    pub bot_walk_speed: Fact<f64>,
    pub carrying_slowdown: Fact<Carrying>,
    /// Share of a tile one step between two tubeway tiles costs.
    pub tubeway_edge_cost: Fact<f64>,
    /// How many times walking speed a beaver rides a zipline cable at.
    pub zipline_multiplier: Fact<f64>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HaulingRules {
    pub lifting_capacity: Fact<u32>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DistrictRules {
    pub builder_reach_off_path: Fact<u32>,
    pub dc_builders: Fact<u32>,
    pub crossing_trips_per_hour: Fact<f64>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdultTiers {
    #[serde(rename = "WorkingSpeed")]
    pub working_speed: Tiers,
    #[serde(rename = "MovementSpeed")]
    pub movement_speed: Tiers,
    #[serde(rename = "LifeExpectancy")]
    pub life_expectancy: Tiers,
}

/// Bonuses of a bot's wellbeing (added to the base 1.0 like the adult tiers).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BotTiers {
    #[serde(rename = "WorkingSpeed")]
    pub working_speed: Tiers,
    #[serde(rename = "MovementSpeed")]
    pub movement_speed: Tiers,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WellbeingRules {
    pub adult_tiers: Fact<AdultTiers>,
    pub bot_tiers: Fact<BotTiers>,
    pub child_growth_speed_tiers: Fact<Tiers>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConstructionRules {
    pub instant_buildings: Fact<Vec<String>>,
    /// Cost of a prefab (by base name) the player places, instead of its catalogue cost (the
    /// catalogue's describes the free one the game places at the start: the district center).
    pub placed_cost: Fact<BTreeMap<String, Vec<crate::content::GoodAmount>>>,
    pub build_hours_per_material_unit: Fact<f64>,
    /// Builder-hours to take a marked building down, as a share of its build time.
    pub deconstruct_share: Fact<f64>,
    #[serde(flatten)]
    pub _rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimates {
    pub starting_goods: Fact<BTreeMap<String, u32>>,
    pub starting_food_good: Fact<BTreeMap<String, String>>,
    pub seek_water_below: Fact<f64>,
    pub seek_food_below: Fact<f64>,
    pub thirst_per_water_unit: Fact<f64>,
    pub hunger_per_food_unit: Fact<f64>,
    pub sleep_per_hour_housing: Fact<f64>,
    pub sleep_per_hour_outside: Fact<f64>,
    pub shelter_per_hour_housing: Fact<f64>,
    pub attraction_per_hour: Fact<f64>,
    pub visit_hours: Fact<f64>,
    pub work_chunk_hours: Fact<f64>,
    pub cut_hours: Fact<f64>,
    pub gather_hours: Fact<f64>,
    pub plant_hours: Fact<f64>,
    pub harvest_hours: Fact<f64>,
    pub scavenge_hours: Fact<f64>,
    pub scrap_per_trip: Fact<u32>,
    pub eat_hours: Fact<f64>,
    pub min_build_hours: Fact<f64>,
    pub flag_output_capacity: Fact<u32>,
    pub input_buffer_cycles: Fact<f64>,
    pub workplace_output_capacity: Fact<u32>,
    pub dc_starting_capacity_override: Fact<bool>,
    pub storage_capacity_estimates: Fact<BTreeMap<String, u32>>,
    pub default_storage_capacity: Fact<BTreeMap<String, u32>>,
    pub default_child_slots_per_beds: Fact<u32>,
    pub attraction_radius_tiles: Fact<u32>,
    pub flooded_depth: Fact<f32>,
    pub water_blocks_placement: Fact<f32>,
    pub pump_min_depth: Fact<f32>,
    pub pump_volume_per_unit: Fact<f32>,
    pub off_path_range: Fact<u32>,
    pub baby_names: Fact<Vec<String>>,
    pub beehive_radius_tiles: Fact<u32>,
    /// A bot goes to satisfy a need (fetch its good, recharge) once its points fall under this.
    pub bot_seek_need_below: Fact<f64>,
    /// Bot need id (catalogue id, `Bot.` prefix included) -> the good that satisfies it and the
    /// points one unit restores.
    pub bot_need_goods: Fact<BTreeMap<String, BotNeedGood>>,
    /// Points of the need a charging station serves that a bot regains per hour there while the
    /// station is powered.
    pub bot_recharge_per_hour: Fact<f64>,
}

/// The good that satisfies a bot need.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BotNeedGood {
    pub good: String,
    pub per_unit: f64,
}

/// The colony rules (parsed once from the embedded data file).
pub fn colony_rules() -> &'static ColonyRules {
    static RULES: OnceLock<ColonyRules> = OnceLock::new();
    RULES.get_or_init(|| {
        serde_json::from_str(COLONY_JSON).expect("data/colony.json is valid colony rules")
    })
}

/// A tier table (`{"threshold": delta}`), its thresholds parsed once: (threshold, delta) in the
/// table's key order, keys that are no number left out.
#[derive(Debug, Deserialize)]
#[serde(from = "BTreeMap<String, f64>")]
pub struct Tiers {
    pub table: BTreeMap<String, f64>,
    parsed: Vec<(f64, f64)>,
}

impl From<BTreeMap<String, f64>> for Tiers {
    fn from(table: BTreeMap<String, f64>) -> Tiers {
        let parsed = table
            .iter()
            .filter_map(|(k, v)| Some((k.parse::<f64>().ok()?, *v)))
            .collect();
        Tiers { table, parsed }
    }
}

/// The bonus of a tier table at `score`: the delta of the highest threshold reached, 0 below
/// the lowest.
pub fn tier_bonus(tiers: &Tiers, score: f64) -> f64 {
    let mut best: Option<(f64, f64)> = None;
    for &(t, v) in &tiers.parsed {
        if score >= t && best.is_none_or(|(bt, _)| t > bt) {
            best = Some((t, v));
        }
    }
    best.map_or(0.0, |(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_tiers_pick_the_highest_threshold() {
        let r = colony_rules();
        assert_eq!(r.hauling.lifting_capacity.value, 14);
        assert_eq!(r.population.starting_colony.value.adults, 8);
        let ws = &r.wellbeing.adult_tiers.value.working_speed;
        assert_eq!(tier_bonus(ws, 0.0), 0.0);
        assert_eq!(tier_bonus(ws, 12.0), 0.4);
        assert_eq!(tier_bonus(ws, 100.0), 3.0);
        let bot = &r.wellbeing.bot_tiers.value.working_speed;
        assert_eq!(tier_bonus(bot, 0.0), 0.65);
        assert_eq!(tier_bonus(bot, 2.0), 1.7);
        let goods = &r.colony.bot_need_goods.value;
        assert_eq!(goods["Bot.Grease"].good, "Grease");
        assert_eq!(goods["Bot.Biofuel"].per_unit, 0.3);
        let dc = &r.construction.placed_cost.value["DistrictCenter"];
        assert!(
            dc.iter()
                .all(|c| crate::content::content().goods.contains_key(&c.good))
        );
    }
}

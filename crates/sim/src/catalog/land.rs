//! Typed world rules of the land: water, irrigation, soil contamination, wind and the generation of
//! land features (sources, forests, bushes, ruins). Part of `data/world.json`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Fact;

/// Water rules (`water`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaterRules {
    pub unit: Fact<String>,
    /// Largest source strength in m3/s.
    pub source_strength_max: Fact<f64>,
    pub flow_factor: Fact<f64>,
    pub evaporation: Fact<Evaporation>,
    pub flows_off_map_edge: Fact<bool>,
    pub dam_spill_height: Fact<f64>,
    pub simulation: Fact<WaterSimulation>,
    pub source_generation: Fact<SourceGeneration>,
    pub upstream_edge_closed: Fact<bool>,
    /// What the water buildings do (`water.buildings`).
    pub buildings: Fact<WaterBuildings>,
    /// Where a new map's aquifers lie (`water.aquiferGeneration`).
    pub aquifer_generation: Fact<AquiferGeneration>,
}

/// The water buildings' figures (`water.buildings`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaterBuildings {
    /// m3/s of clean water a fully powered aquifer drill adds.
    pub aquifer_drill_strength: f64,
    /// The most m3/s a valve can be set to let through (and an open fill valve passes).
    pub valve_max_flow: f64,
    /// How far above its base a fill valve can be set to fill the tile in front of it.
    pub fill_valve_max_height: f64,
}

/// How a new map's aquifers are drawn (`water.aquiferGeneration`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AquiferGeneration {
    /// Patches per 128x128 (scaled with the map's area, at least 1).
    pub count: [u32; 2],
    /// Side of a square patch, in tiles.
    pub size: u32,
    /// Least Chebyshev distance of a patch's tiles from the start spot.
    pub min_distance_from_start: u32,
    /// Least Chebyshev distance of a patch's tiles from the river's channel.
    pub min_distance_from_river: u32,
}

/// Evaporation rates in depth per second (real seconds at 1x: 0.6 s per tick).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaporation {
    pub normal_per_second: f64,
    pub shallow_per_second: f64,
    pub shallow_below_depth: f64,
    pub cluster_modifier: String,
    pub approx_large_body_per_day: f64,
}

/// Tunables of the water model (`water.simulation`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaterSimulation {
    /// Ticks per water step.
    pub step_ticks: u32,
    /// Pipe acceleration x step^2 (dimensionless).
    pub pipe_stability: f64,
    /// Share of pipe flow lost per step.
    pub friction: f64,
    /// Drive per metre of the difference of the two tiles' last rises (dimensionless, like
    /// `pipe_stability`): damps oscillations, nothing in steady flow.
    pub damping: f64,
    /// Water thinner than this evaporates at once.
    pub min_depth: f64,
    /// Below this depth the shallow evaporation rate applies.
    pub shallow_depth: f64,
}

/// How map generation places water sources (`water.sourceGeneration`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SourceGeneration {
    pub count: [u32; 2],
    pub strength: [f64; 2],
    pub total_strength_max: f64,
    pub badwater_count: u32,
    pub badwater_strength: [f64; 2],
    pub badwater_min_distance_from_start: u32,
}

/// What a drought does to sources (`weather.droughtEffect`, descriptive).
pub type DroughtEffect = Fact<String>;

/// The badwater share clean sources emit during a badtide (`weather.badtideContamination`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BadtideContamination {
    pub start_share: f64,
    pub ramp_to_full_hours: f64,
    pub ramp_down_last_hours: f64,
    pub end_share: f64,
    pub drops_to_zero_at_temperate: bool,
}

/// Wind (`weather.wind`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WindRules {
    pub change_every_hours: [u32; 2],
    pub strength_range: [f64; 2],
    pub max_direction_turn_degrees: f64,
    pub hours_to_settle: u32,
    pub event_strength_delta: f64,
    pub event_direction_delta_degrees: f64,
}

/// Irrigation (`irrigation`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IrrigationRules {
    pub model: Fact<String>,
    pub practical_range_tiles: Fact<u32>,
    pub max_water_contamination_for_irrigation: Fact<f64>,
    pub drying_speed: Fact<String>,
    pub moisture_model: Fact<MoistureModel>,
    pub simulation: Fact<IrrigationSimulation>,
}

/// The numbers of the irrigation model.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoistureModel {
    pub emit_per_saturation: f64,
    pub max_saturation: u32,
    pub orthogonal_step: f64,
    pub diagonal_step: f64,
    pub climb_per_level: f64,
}

/// How this simulation applies the irrigation model.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IrrigationSimulation {
    pub recompute_ticks: u32,
    pub water_tile_min_depth: f64,
    pub saturation_window: u32,
    pub saturation_per_wet_neighbour: f64,
}

/// Contamination (`contamination`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContaminationRules {
    pub soil_contaminated_when_water_share_at_least: Fact<f64>,
    pub beaver_exposure_threshold: Fact<f64>,
    pub soil_spread: Fact<SoilSpread>,
}

/// How contamination reaches and leaves soil.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SoilSpread {
    pub same_model_as_moisture: bool,
    pub decontamination_hours: u32,
}

/// Land features of a generated map (`map.landGeneration`); counts are per 128x128, scaled by area.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LandGeneration {
    pub forests_per128_square: [u32; 2],
    pub forest_radius: [u32; 2],
    pub forest_density: f64,
    /// Relative weights of the species of natural forests.
    pub tree_species: BTreeMap<String, f64>,
    pub grown_share: f64,
    pub bush_patches_per128_square: [u32; 2],
    pub bush_patch_radius: [u32; 2],
    pub bush_density: f64,
    pub bush_max_distance_from_water: u32,
    pub ruin_clusters_per128_square: [u32; 2],
    pub ruins_per_cluster: [u32; 2],
    pub ruin_scrap: [u32; 2],
    pub start_clear_radius: u32,
    /// Extra forests grown near the start spot.
    pub start_forests: u32,
    /// Extra berry patches grown near the start spot, on its bank of the river.
    pub start_bush_patches: u32,
    /// Berry bushes the start spot's bank holds at least within `start_bush_reach` tiles
    /// (Manhattan) of it; bushes are added on the nearest free shore tiles where it has fewer.
    pub start_bushes_min: u32,
    pub start_bush_reach: u32,
    pub feature_max_height_above_river: u8,
}

//! Placed buildings: their state (construction, workers, inventory, settings) and the behaviour
//! class each catalogue prefab belongs to, read from its components and flags.
//!
//! Every placed thing is a building, paths, stairs and platforms included (they are also blocks:
//! `block.set` / `block.unset`). A building's goods live in one inventory: construction materials
//! while it is a site, then its stock (storage), its recipe inputs and outputs (workplaces), or its
//! nutrients (breeding pods).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::geometry::Orientation;
use super::prefab::Prefab;
use super::rules::colony_rules;
use crate::content::{Building as Spec, GoodAmount, content};
use crate::error::CommandError;

/// The five priority values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub enum Priority {
    VeryLow,
    Low,
    #[default]
    Normal,
    High,
    VeryHigh,
}

impl Priority {
    pub const ALL: [Priority; 5] = [
        Priority::VeryLow,
        Priority::Low,
        Priority::Normal,
        Priority::High,
        Priority::VeryHigh,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Priority::VeryLow => "VeryLow",
            Priority::Low => "Low",
            Priority::Normal => "Normal",
            Priority::High => "High",
            Priority::VeryHigh => "VeryHigh",
        }
    }

    /// Case-insensitive parse of the five names.
    pub fn parse(s: &str) -> Result<Priority, CommandError> {
        Priority::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                CommandError::invalid_param(
                    format!(
                        "priority must be one of VeryLow, Low, Normal, High, VeryHigh; got {s:?}"
                    ),
                    s,
                )
            })
    }
}

/// Storage modes of storage buildings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum StorageMode {
    /// Haulers bring goods here (the default).
    #[default]
    Accept,
    /// Haulers fetch the good here from other storage.
    Obtain,
    /// Haulers take goods from here to other storage.
    Supply,
    /// Haulers remove everything; nothing new is accepted.
    Empty,
}

impl StorageMode {
    pub fn as_str(self) -> &'static str {
        match self {
            StorageMode::Accept => "accept",
            StorageMode::Obtain => "obtain",
            StorageMode::Supply => "supply",
            StorageMode::Empty => "empty",
        }
    }

    pub fn parse(s: &str) -> Result<StorageMode, CommandError> {
        [
            StorageMode::Accept,
            StorageMode::Obtain,
            StorageMode::Supply,
            StorageMode::Empty,
        ]
        .into_iter()
        .find(|m| m.as_str().eq_ignore_ascii_case(s.trim()))
        .ok_or_else(|| {
            CommandError::invalid_param(
                format!("mode must be accept, obtain, supply or empty; got {s:?}"),
                s,
            )
        })
    }
}

/// What a prefab does, from its catalogue components and flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Path,
    Stairs,
    /// Solid blocks something can stand on (platforms, levees, dams, vertical power shafts).
    Solid,
    DistrictCenter,
    /// A district crossing: goods cross it between two districts (see `distribute`).
    Crossing,
    Dwelling,
    Storage,
    Lumberjack,
    Gatherer,
    Scavenger,
    /// Farmhouses and foresters: plant marked tiles, harvest what grew.
    Planter,
    /// Buildings running recipes (pumps, mills, the inventor...).
    Manufactory,
    BreedingPod,
    /// Workplaces whose workers build (builders' huts).
    BuilderHub,
    /// Workplaces whose workers haul (hauling posts).
    HaulingPost,
    /// Beavers visit it to satisfy a need (campfires, shower...); bots recharge at charging
    /// stations.
    Attraction,
    /// Satisfies a need of beavers passing within range (decorations, monuments), or of bots
    /// (the control tower).
    AreaEffect,
    /// Anything else (power parts, automation, water control...): it stands and exists.
    Other,
}

pub fn kind_of(spec: &Spec) -> Kind {
    let has = |c: &str| spec.components.iter().any(|x| x == c);
    // Walkways: paths, suspension bridges, gates and tubeways (not stairs, spiral stairs,
    // vertical tubes or zipline towers, which move beavers between levels their own way, nor
    // buildings that carry a path, such as the district center).
    let walkway = has("PathSpec")
        && (has("DrivewayModelSpec") || has("GateSpec") || has("TubeSpec"))
        && ![
            "TubePlatformSpec",
            "BuildingAccessibleSpec",
            "EnterableSpec",
        ]
        .iter()
        .any(|c| has(c));
    // A tunnel is a walkway inside the terrain (`is_tunnel`).
    if spec.base_name == "Path" || walkway || has("TunnelSpec") {
        Kind::Path
    } else if has("StraightStairsSpec") || has("SpiralStairsSpec") {
        Kind::Stairs
    } else if spec.base_name.contains("Platform")
        || spec.base_name.starts_with("Overhang")
        || has("GroundRaiserSpec")
        || spec.base_name == "VerticalPowerShaft"
        || spec.flag("waterObstacle") && !spec.flag("floodgate")
    {
        Kind::Solid
    } else if has("DistrictCenterSpec") {
        Kind::DistrictCenter
    } else if has("DistrictCrossingSpec") {
        Kind::Crossing
    } else if spec.flag("dwelling") {
        Kind::Dwelling
    } else if spec.flag("stockpile") {
        Kind::Storage
    } else if has("LumberjackFlagSpec") {
        Kind::Lumberjack
    } else if has("GathererFlagSpec") {
        Kind::Gatherer
    } else if has("ScavengerSpec") {
        Kind::Scavenger
    } else if spec.flag("planter") {
        Kind::Planter
    } else if spec.breeding.is_some() {
        Kind::BreedingPod
    } else if spec.flag("manufactory") && !spec.recipes.is_empty() {
        Kind::Manufactory
    } else if has("BuilderHubSpec") {
        Kind::BuilderHub
    } else if has("HaulingCenterSpec") {
        Kind::HaulingPost
    } else if spec.flag("attraction") && need_effect(spec).is_some() {
        Kind::Attraction
    } else if need_effect(spec).is_some() {
        Kind::AreaEffect
    } else {
        Kind::Other
    }
}

/// Whether a prefab is a tunnel (the catalogue's `TunnelSpec`): a walkway block placed inside a
/// terrain column, walkable once finished (see `place` and `nav`).
pub fn is_tunnel(spec: &Spec) -> bool {
    spec.components.iter().any(|c| c == "TunnelSpec")
}

/// The catalogue entry of a prefab name.
pub fn spec(name: &str) -> &'static Spec {
    &content().buildings[name]
}

/// A storage building's good kind (`pile`, `warehouse`, `tank`) and capacity: the catalogue's,
/// else the project's estimate for that building (`storageCapacityEstimates`), else the kind's
/// default.
pub fn storage_capacity(spec: &Spec) -> Option<(String, u32)> {
    let cap = spec.capacity.as_ref()?;
    let kind = cap.get("kind")?.as_str()?.to_owned();
    let rules = &colony_rules().colony;
    let units = cap
        .get("units")
        .and_then(|u| u.as_u64())
        .map(|u| u as u32)
        .or_else(|| {
            rules
                .storage_capacity_estimates
                .value
                .get(&spec.base_name)
                .copied()
        })
        .or_else(|| rules.default_storage_capacity.value.get(&kind).copied())?;
    Some((kind, units))
}

/// Beds and child slots of a dwelling.
pub fn dwelling_capacity(spec: &Spec) -> (u32, u32) {
    let Some(cap) = spec.capacity.as_ref() else {
        return (0, 0);
    };
    let beds = cap.get("beds").and_then(|v| v.as_u64()).unwrap_or(0) as u32;
    let per = colony_rules()
        .colony
        .default_child_slots_per_beds
        .value
        .max(1);
    let kids = cap
        .get("childSlots")
        .and_then(|v| v.as_u64())
        .map_or(beds / per, |v| v as u32);
    (beds, kids)
}

/// The effect of a building that serves a need: its `wellbeingEffect` (attractions, decorations),
/// else an `effect` naming a `needId` (bots' charging stations and control towers).
fn need_effect(spec: &Spec) -> Option<&serde_json::Value> {
    spec.wellbeing_effect
        .as_ref()
        .or_else(|| spec.effect.as_ref().filter(|e| e.get("needId").is_some()))
}

/// The need a building serves (the catalogue id, `Bot.`-prefixed for bots' needs) and how much
/// wellbeing it gives (attractions, decorations, bot stations and towers).
pub fn need_served(spec: &Spec) -> Option<(&str, f64)> {
    let e = need_effect(spec)?;
    Some((
        e.get("needId")?.as_str()?,
        e.get("wellbeing").and_then(|v| v.as_f64()).unwrap_or(1.0),
    ))
}

/// The reach (Manhattan tiles) of an area effect: its catalogue `effect.radius`, else
/// `attractionRadiusTiles`.
pub fn effect_radius(spec: &Spec) -> u32 {
    need_effect(spec)
        .and_then(|e| e.get("radius"))
        .and_then(|v| v.as_u64())
        .map_or(colony_rules().colony.attraction_radius_tiles.value, |v| {
            v.min(u64::from(u32::MAX)) as u32
        })
}

/// Science points an area effect burns each hour it works (`effect.sciencePerHour`; 0 if none).
pub fn effect_science_per_hour(spec: &Spec) -> u32 {
    need_effect(spec)
        .and_then(|e| e.get("sciencePerHour"))
        .and_then(|v| v.as_u64())
        .map_or(0, |v| v.min(u64::from(u32::MAX)) as u32)
}

/// Bots a station (an attraction serving a bot need) holds at once (`effect.visitors`, else the
/// building's `visitors`; 1 if neither is set).
pub fn effect_visitors(spec: &Spec) -> usize {
    need_effect(spec)
        .and_then(|e| e.get("visitors"))
        .and_then(|v| v.as_u64())
        .or(spec.visitors.map(u64::from))
        .map_or(1, |v| v.clamp(1, 1000) as usize)
}

/// `construction.placedCost` for this prefab's base name, when it has one (the district center).
fn placed_cost_rule(spec: &Spec) -> Option<&'static [GoodAmount]> {
    colony_rules()
        .construction
        .placed_cost
        .value
        .get(&spec.base_name)
        .map(Vec::as_slice)
}

/// Whether the player pays `construction.placedCost` for this prefab (it has one).
pub fn has_placed_cost(spec: &Spec) -> bool {
    placed_cost_rule(spec).is_some()
}

/// What the player pays to place this prefab: `construction.placedCost` for its base name (the
/// district center), else the catalogue's cost.
pub fn placed_cost(spec: &'static Spec) -> &'static [GoodAmount] {
    placed_cost_rule(spec).unwrap_or(&spec.cost)
}

/// Work range (Manhattan tiles from the doorstep) of flags and planters.
pub fn work_range(spec: &Spec) -> u32 {
    spec.range
        .as_ref()
        .and_then(|r| r.get("navmeshTiles"))
        .and_then(|v| v.as_u64())
        .map_or(colony_rules().colony.off_path_range.value, |v| v as u32)
}

/// Farmhouse action setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FarmAction {
    /// Plant and harvest alike.
    #[default]
    Default,
    /// Planting first.
    Planting,
    /// Harvesting first.
    Harvesting,
}

/// A placed building.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Building {
    pub prefab: Prefab,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: Orientation,
    pub finished: bool,
    pub paused: bool,
    pub construction_priority: Priority,
    pub workplace_priority: Priority,
    pub desired_workers: u32,
    /// Beavers employed here, in hiring order.
    pub workers: Vec<i32>,
    /// Beavers living here.
    pub dwellers: Vec<i32>,
    /// Builder-hours spent on the site.
    pub build_hours: f64,
    /// Goods held: materials while a site; stock, inputs and outputs once finished.
    pub inventory: BTreeMap<String, u32>,
    /// Goods on their way here (reserved by haulers).
    pub incoming: BTreeMap<String, u32>,
    /// Goods promised to haulers who will take them from here.
    pub outgoing: BTreeMap<String, u32>,
    pub storage_mode: StorageMode,
    /// The good a storage building is set to hold (`None`: any good of its kind, one at a time).
    pub allowed_good: Option<String>,
    pub recipe: Option<String>,
    /// Work-hours into the current recipe cycle (or breeding cycle; for a treating building
    /// that uses a good, the share of its next unit used up).
    pub progress: f64,
    /// Inputs of the current cycle were taken.
    pub cycle_started: bool,
    pub haul_prioritized: bool,
    pub farm_action: FarmAction,
    /// The prioritised plantable (planters).
    pub plantable: Option<String>,
    pub floodgate_height: f32,
    /// Id of the district (its center's building id) the building belongs to.
    pub district: Option<i32>,
    /// Placement order (work of equal priority goes oldest first).
    #[serde(default)]
    pub seq: u32,
    /// A wonder that was launched (see `wonder`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wonder_active: bool,
    /// Placed by the player and costs `construction.placedCost` instead of its catalogue cost
    /// (a second district center; the starting one, placed free, and saves from before leave
    /// this false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub charged: bool,
    /// The name the player gave it (`colony::naming`; only buildings the game lets the player
    /// name). Saved only when given, so games without names hash as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_name: Option<String>,
    /// An aquifer drill's m3/s of water now (`colony::water_buildings`). Saved only when above 0,
    /// so games without drills hash as before.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub water_output: f32,
    /// A valve's or fill valve's settings and state (`colony::water_buildings`); absent for
    /// every other building, so games without valves hash as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valve: Option<ValveState>,
}

/// A valve's or fill valve's settings and state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValveState {
    /// Valves: the most m3/s it lets through while open (0 up to `water.buildings.valveMaxFlow`).
    pub limit: f32,
    /// Closed (by an Off signal or the API): nothing passes.
    pub closed: bool,
    /// Fill valves: how far above the valve's base the tile in front of it is filled (0 up to
    /// `water.buildings.fillValveMaxHeight`).
    pub fill_height: f32,
    /// Fill valves: passing water now (the front's surface stood below the fill height at the
    /// last check, before the water step).
    pub passing: bool,
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

impl Building {
    /// A new site of a catalogue prefab (panics if the catalogue has no such prefab).
    pub fn new(prefab: &str, x: u32, y: u32, z: u32, orientation: Orientation) -> Building {
        let prefab = Prefab::get(prefab).unwrap_or_else(|| panic!("unknown prefab {prefab:?}"));
        let s = prefab.spec();
        let k = prefab.kind();
        Building {
            prefab,
            x,
            y,
            z,
            orientation,
            finished: false,
            paused: false,
            construction_priority: Priority::Normal,
            workplace_priority: Priority::Normal,
            desired_workers: if k == Kind::DistrictCenter {
                2.min(s.max_workers)
            } else {
                s.max_workers
            },
            workers: Vec::new(),
            dwellers: Vec::new(),
            build_hours: 0.0,
            inventory: BTreeMap::new(),
            incoming: BTreeMap::new(),
            outgoing: BTreeMap::new(),
            storage_mode: StorageMode::Accept,
            allowed_good: None,
            recipe: if s.recipes.len() == 1 {
                Some(s.recipes[0].clone())
            } else {
                None
            },
            progress: 0.0,
            cycle_started: false,
            haul_prioritized: false,
            farm_action: FarmAction::Default,
            plantable: None,
            floodgate_height: 0.0,
            district: None,
            seq: 0,
            wonder_active: false,
            charged: false,
            custom_name: None,
            water_output: 0.0,
            valve: super::water_buildings::is_any_valve(s).then(|| {
                let r = &crate::catalog::world_rules().water.buildings.value;
                ValveState {
                    limit: r.valve_max_flow as f32,
                    closed: false,
                    fill_height: 1.0f32.min(r.fill_valve_max_height as f32),
                    passing: false,
                }
            }),
        }
    }

    /// A finished path or stairs holding no goods: no producer, and no hauling job's target
    /// (walkways take no inputs, and a site's deliveries never exceed its cost, which finishing
    /// takes), so it never holds goods again.
    pub(crate) fn bare_walkway(&self) -> bool {
        self.finished
            && matches!(self.kind(), Kind::Path | Kind::Stairs)
            && self.inventory.is_empty()
    }

    /// Whether the building has an entrance (`geometry::has_entrance` of its prefab).
    pub fn has_entrance(&self) -> bool {
        self.prefab.has_entrance()
    }

    pub fn spec(&self) -> &'static Spec {
        self.prefab.spec()
    }

    pub fn kind(&self) -> Kind {
        self.prefab.kind()
    }

    /// Units held of one good.
    pub fn has(&self, good: &str) -> u32 {
        self.inventory.get(good).copied().unwrap_or(0)
    }

    /// Units of a good free to be taken (held minus promised).
    pub fn available(&self, good: &str) -> u32 {
        self.has(good)
            .saturating_sub(self.outgoing.get(good).copied().unwrap_or(0))
    }

    pub fn incoming_of(&self, good: &str) -> u32 {
        self.incoming.get(good).copied().unwrap_or(0)
    }

    /// Total units held.
    pub fn stock(&self) -> u32 {
        self.inventory.values().sum()
    }

    pub fn add(&mut self, good: &str, n: u32) {
        // (The hauling search skips finished walkways holding nothing: none ever gains goods.)
        debug_assert!(
            n == 0 || !self.bare_walkway(),
            "goods put into a finished {}",
            self.prefab
        );
        if n > 0 {
            *self.inventory.entry(good.to_owned()).or_default() += n;
        }
    }

    /// Takes up to `n` units; returns how many were taken.
    pub fn take(&mut self, good: &str, n: u32) -> u32 {
        let Some(have) = self.inventory.get_mut(good) else {
            return 0;
        };
        let t = (*have).min(n);
        *have -= t;
        if *have == 0 {
            self.inventory.remove(good);
        }
        t
    }

    /// The materials this building costs: its prefab's placed cost when the player placed it
    /// (`charged`), else the catalogue's (nothing for the free starting district center).
    pub fn cost(&self) -> &'static [GoodAmount] {
        if self.charged {
            placed_cost(self.spec())
        } else {
            &self.spec().cost
        }
    }

    /// Total material units the building costs.
    pub fn cost_units(&self) -> u32 {
        self.cost().iter().map(|c| c.amount as u32).sum()
    }

    /// Builder-hours the site needs.
    pub fn build_hours_needed(&self) -> f64 {
        let r = colony_rules();
        (f64::from(self.cost_units()) * r.construction.build_hours_per_material_unit.value)
            .max(r.colony.min_build_hours.value)
    }

    /// 0-1: share of the materials delivered.
    pub fn material_progress(&self) -> f64 {
        if self.finished {
            return 1.0;
        }
        let total = self.cost_units();
        if total == 0 {
            return 1.0;
        }
        let have: u32 = self
            .cost()
            .iter()
            .map(|c| self.has(&c.good).min(c.amount as u32))
            .sum();
        f64::from(have) / f64::from(total)
    }

    /// 0-1: share of the builder-hours done.
    pub fn build_progress(&self) -> f64 {
        if self.finished {
            1.0
        } else {
            (self.build_hours / self.build_hours_needed()).clamp(0.0, 1.0)
        }
    }

    /// Units of a material the site still needs delivered (not counting goods on their way).
    pub fn material_missing(&self, good: &str) -> u32 {
        if self.finished {
            return 0;
        }
        let need: u32 = self
            .cost()
            .iter()
            .filter(|c| c.good == good)
            .map(|c| c.amount as u32)
            .sum();
        need.saturating_sub(self.has(good) + self.incoming_of(good))
    }

    /// Storage: capacity in units.
    pub fn capacity(&self) -> u32 {
        match self.kind() {
            Kind::Storage => storage_capacity(self.spec()).map_or(0, |(_, u)| u),
            Kind::DistrictCenter => self.spec().output_inventory.unwrap_or(20),
            Kind::Lumberjack | Kind::Gatherer | Kind::Scavenger | Kind::Planter => {
                colony_rules().colony.flag_output_capacity.value
            }
            Kind::Manufactory => self
                .spec()
                .internal_storage
                .or(self.spec().output_inventory)
                .unwrap_or(colony_rules().colony.workplace_output_capacity.value),
            _ => 0,
        }
    }

    /// Whether a storage building takes `good` now: its kind matches, its mode accepts, its
    /// allowed good (if set) is this one, it holds no other good, and it has room.
    pub fn storage_accepts(&self, good: &str) -> u32 {
        if self.kind() != Kind::Storage
            || !self.finished
            || matches!(self.storage_mode, StorageMode::Empty | StorageMode::Supply)
        {
            return 0;
        }
        let Some((kind, cap)) = storage_capacity(self.spec()) else {
            return 0;
        };
        let fits_kind = content().goods.get(good).is_some_and(|g| g.storage == kind);
        if !fits_kind || self.allowed_good.as_deref().is_some_and(|a| a != good) {
            return 0;
        }
        let other = self
            .inventory
            .keys()
            .chain(self.incoming.keys())
            .any(|g| g != good);
        if other {
            return 0;
        }
        cap.saturating_sub(self.stock() + self.incoming.values().sum::<u32>())
    }

    pub fn is_workplace(&self) -> bool {
        self.spec().max_workers > 0
    }
}

/// How vital a workplace's role is when workers are short (lower first): the district's builders
/// and haulers (nothing moves without them), water, food, wood, then the rest.
pub fn vital_rank(spec: &Spec) -> u8 {
    match spec.role.as_str() {
        "district" => 0,
        "water" => 1,
        "food" => 2,
        "wood" => 3,
        _ => 4,
    }
}

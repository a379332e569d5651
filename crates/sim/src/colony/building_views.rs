//! Read models of buildings: the basic rows of a list ([`BuildingBrief`]), the full view
//! ([`BuildingView`]) one at a time or for a page, the keys lists filter by, and the counts by
//! summary role.

use std::collections::BTreeMap;

use serde::Serialize;

use super::building::{Building, Kind, dwelling_capacity};
use super::views::ListKey;
use crate::world::World;

/// The fields of a building a basic list shows, read straight from the building (no statuses,
/// power or storage looked up): the first fields of its [`BuildingView`], the same values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildingBrief {
    pub id: i32,
    pub name: &'static str,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: &'static str,
    pub finished: bool,
    pub paused: bool,
    pub priority: &'static str,
    pub workers: Workers,
}

/// Workers assigned and desired, shown (and serialized) as `assigned/desired`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Workers {
    pub assigned: u32,
    pub desired: u32,
}

impl std::fmt::Display for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.assigned, self.desired)
    }
}

impl std::fmt::Debug for Workers {
    /// As the text it is shown as (`"1/2"`), the form the views always printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{self}\"")
    }
}

impl Serialize for Workers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl BuildingBrief {
    fn of(id: i32, b: &Building) -> BuildingBrief {
        BuildingBrief {
            id,
            name: b.prefab.name(),
            x: b.x,
            y: b.y,
            z: b.z,
            orientation: b.orientation.as_str(),
            finished: b.finished,
            paused: b.paused,
            // Construction priority while a site, workplace priority when finished.
            priority: if b.finished {
                b.workplace_priority
            } else {
                b.construction_priority
            }
            .as_str(),
            workers: Workers {
                assigned: b.workers.len() as u32,
                desired: b.desired_workers,
            },
        }
    }
}

/// A building as `/api/buildings` shows it (`detail=full`; absent fields are components the
/// building lacks).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildingView {
    pub id: i32,
    pub name: &'static str,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: &'static str,
    pub finished: bool,
    pub pausable: bool,
    pub paused: bool,
    /// `Normal` etc.: construction priority while a site, workplace priority when finished.
    pub priority: &'static str,
    pub workers: Workers,
    pub role: &'static str,
    /// Buildings the game lets the player name (`colony::naming`): the given name (a finished
    /// center's, its district's), empty when none; absent for the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_name: Option<String>,
    /// Finished buildings that can be demolished (all but district centers): marked for
    /// demolition (`colony::deconstruct`); absent for sites and centers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marked_for_demolition: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floodgate: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_height: Option<f32>,
    pub construction_priority: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workplace_priority: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_workers: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_workers: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_workers: Option<u32>,
    pub reachable: bool,
    pub district: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub powered: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_consumer: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nominal_power_input: Option<i64>,
    /// Power buildings only (see `power`): role, nominal output, the network's demand and supply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_generator: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nominal_power_output: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_demand: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_supply: Option<i64>,
    /// Wonders only: always true there (see `colony::wonder`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_wonder: Option<bool>,
    /// Wonders only: launched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wonder_active: Option<bool>,
    /// Aquifer drills only: m3/s of clean water it gives now (`water.buildings`
    /// `aquiferDrillStrength` times its power efficiency; 0 while a site, paused or unpowered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub water_output: Option<f32>,
    /// Valves and fill valves: open (not closed by a signal or the API).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valve_open: Option<bool>,
    /// Valves: the most m3/s it lets through while open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow_limit: Option<f32>,
    /// Fill valves: how far above its base it fills the tile in front of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_height: Option<f32>,
    /// Fill valves: passing water now (the front stood below the fill height at the last check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passing: Option<bool>,
    /// Valves and fill valves: m3/s that left the valve's tile in the last water step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valve_flow: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_clutch: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clutch_engaged: Option<bool>,
    /// Automation devices and automated buildings (see `automation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub automation: Option<crate::automation::AutomationView>,
    /// Zipline towers: whether beavers board there, and their cables (see `zipline`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zipline: Option<super::zipline::TowerView>,
    pub build_progress: f64,
    pub material_progress: f64,
    pub has_materials: bool,
    pub inventory: BTreeMap<String, u32>,
    pub statuses: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dwellers: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_dwellers: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stock: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_good: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipes: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_recipe: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_nutrients: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nutrients: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub haul_prioritized: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entrance_x: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entrance_y: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entrance_z: Option<u32>,
    /// What lies in reach for buildings that work with something there (`colony::reach`):
    /// lumberjacks grown trees, marked ones and saplings; gatherers bushes and ripe ones;
    /// farmhouses crops growing and ready, plantable soil and planting marks; foresters saplings,
    /// trees, plantable soil and marks; scavengers ruins; water wheels the flow. Only in the
    /// single-building view (`GET /api/buildings?id=N`), never in lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_reach: Option<super::reach::InReach>,
}

impl World {
    /// A building as the full building view.
    /// With what lies in its reach (`in_reach`).
    pub fn building_view(&self, id: i32) -> Option<BuildingView> {
        self.building_view_with(id, &super::status::StatusScan::single(), true)
    }

    /// [`World::building_view`] with the statuses' facts shared through `scan`; `reach` counts
    /// what lies in reach (the single view only: lists skip it).
    fn building_view_with(
        &self,
        id: i32,
        scan: &super::status::StatusScan,
        reach: bool,
    ) -> Option<BuildingView> {
        let b = self.colony.buildings.get(&id)?;
        let s = b.spec();
        let kind = b.kind();
        let workplace = b.is_workplace();
        let door = super::geometry::doorstep(s, b.x.into(), b.y.into(), b.orientation);
        let storage = kind == Kind::Storage;
        let floodgate = s.flag("floodgate");
        let (beds, _) = dwelling_capacity(s);
        let has_inventory = b.capacity() > 0 || kind == Kind::BreedingPod || !b.finished;
        let p = self.power_state(id);
        let fill_valve = b.valve.filter(|_| super::water_buildings::is_fill_valve(s));
        let brief = BuildingBrief::of(id, b);
        Some(BuildingView {
            id,
            name: brief.name,
            x: b.x,
            y: b.y,
            z: b.z,
            orientation: brief.orientation,
            finished: b.finished,
            pausable: pausable(b),
            paused: b.paused,
            priority: brief.priority,
            workers: brief.workers,
            role: s.role.as_str(),
            custom_name: super::naming::nameable(s)
                .then(|| self.building_given_name(id).unwrap_or_default()),
            marked_for_demolition: (b.finished && kind != Kind::DistrictCenter)
                .then(|| self.colony.marked.contains_key(&id)),
            floodgate: floodgate.then_some(true),
            height: floodgate.then_some(b.floodgate_height),
            max_height: floodgate.then_some(s.size.z.saturating_sub(1).max(1) as f32),
            construction_priority: b.construction_priority.as_str(),
            workplace_priority: workplace.then(|| b.workplace_priority.as_str()),
            max_workers: workplace.then_some(s.max_workers),
            desired_workers: workplace.then_some(b.desired_workers),
            assigned_workers: workplace.then_some(b.workers.len() as u32),
            reachable: b.district.is_some(),
            district: self.district_name(b.district),
            powered: p.as_ref().map(|p| p.powered),
            is_consumer: p.as_ref().map(|p| p.is_consumer),
            nominal_power_input: p.as_ref().map(|p| p.nominal_input.round() as i64),
            is_generator: p.as_ref().map(|p| p.is_generator),
            nominal_power_output: p.as_ref().map(|p| p.nominal_output.round() as i64),
            power_demand: p.as_ref().map(|p| p.demand.round() as i64),
            power_supply: p.as_ref().map(|p| p.supply.round() as i64),
            is_wonder: super::wonder::is_wonder(s).then_some(true),
            wonder_active: super::wonder::is_wonder(s).then_some(b.wonder_active),
            water_output: super::water_buildings::is_aquifer_drill(s).then_some(b.water_output),
            valve_open: b.valve.map(|v| !v.closed),
            flow_limit: b
                .valve
                .filter(|_| super::water_buildings::is_valve(s))
                .map(|v| v.limit),
            fill_height: fill_valve.map(|v| v.fill_height),
            passing: fill_valve.map(|v| v.passing),
            valve_flow: b
                .valve
                .map(|_| self.land.water.outflow(self.land.idx(b.x, b.y))),
            is_clutch: p.as_ref().map(|p| p.is_clutch),
            clutch_engaged: p.as_ref().and_then(|p| p.clutch_engaged),
            automation: self.automation_view(id),
            zipline: self.zipline_view(id),
            build_progress: b.build_progress(),
            material_progress: b.material_progress(),
            has_materials: b.finished || b.material_progress() >= 1.0,
            inventory: b.inventory.clone(),
            statuses: self.statuses_of(id, b, scan),
            dwellers: (kind == Kind::Dwelling).then_some(b.dwellers.len() as u32),
            max_dwellers: (kind == Kind::Dwelling).then_some(beds),
            stock: (storage || has_inventory).then(|| b.stock()),
            capacity: (storage || has_inventory).then(|| b.capacity()),
            storage_mode: storage.then(|| b.storage_mode.as_str().to_owned()),
            allowed_good: storage.then(|| b.allowed_good.clone().unwrap_or_default()),
            recipes: (!s.recipes.is_empty()).then(|| s.recipes.clone()),
            current_recipe: (!s.recipes.is_empty()).then(|| b.recipe.clone().unwrap_or_default()),
            needs_nutrients: (kind == Kind::BreedingPod)
                .then_some(b.inventory.is_empty() && !b.cycle_started),
            nutrients: (kind == Kind::BreedingPod).then(|| b.stock()),
            haul_prioritized: has_inventory.then_some(b.haul_prioritized),
            entrance_x: door.map(|d| d.0 as u32),
            entrance_y: door.map(|d| d.1 as u32),
            entrance_z: door.map(|_| b.z),
            in_reach: if reach {
                self.building_in_reach(id)
            } else {
                None
            },
        })
    }

    /// Every building, in id order.
    pub fn buildings(&self) -> Vec<BuildingView> {
        let ids: Vec<i32> = self.colony.buildings.keys().copied().collect();
        self.buildings_of(&ids)
    }

    /// The basic rows of the buildings `ids` (in that order; ids with no building are skipped).
    pub fn building_briefs(&self, ids: &[i32]) -> Vec<BuildingBrief> {
        ids.iter()
            .filter_map(|id| Some(BuildingBrief::of(*id, self.colony.buildings.get(id)?)))
            .collect()
    }

    /// What lists filter buildings by, cheaply and in id order, without building any view:
    /// one [`ListKey`] per building, with its prefab name and role.
    pub fn building_keys(&self) -> impl Iterator<Item = (ListKey<'_>, &str)> {
        self.colony.buildings.iter().map(|(id, b)| {
            let key = ListKey {
                id: *id,
                name: &b.prefab,
                x: b.x,
                y: b.y,
            };
            (key, b.spec().role.as_str())
        })
    }

    /// The views of the buildings `ids` (in that order; ids with no building are skipped),
    /// as lists show them (no `inReach`): a list builds the views of its page only.
    pub fn buildings_of(&self, ids: &[i32]) -> Vec<BuildingView> {
        let scan = super::status::StatusScan::batch();
        // Sized up front: a `filter_map` gives no lower bound, and thousands of views grown by
        // doubling are copied over and over into fresh memory.
        let mut views = Vec::with_capacity(ids.len());
        views.extend(
            ids.iter()
                .filter_map(|id| self.building_view_with(*id, &scan, false)),
        );
        views
    }

    /// Building counts by summary role (housing, wood, storage, power, food, water, others).
    pub fn building_roles(&self) -> BTreeMap<String, u32> {
        let mut out: BTreeMap<String, u32> = [
            "housing", "wood", "storage", "power", "food", "water", "others",
        ]
        .iter()
        .map(|r| ((*r).to_owned(), 0))
        .collect();
        for b in self.colony.buildings.values() {
            let role = b.spec().role.as_str();
            let key = match role {
                "housing" | "wood" | "storage" | "power" | "food" | "water" => role,
                "paths" => continue,
                _ => "others",
            };
            *out.get_mut(key).expect("seeded") += 1;
        }
        out
    }
}

/// Whether a building can be paused (workplaces, breeding pods, attractions, storage...).
pub(crate) fn pausable(b: &Building) -> bool {
    !matches!(
        b.kind(),
        Kind::Path | Kind::Stairs | Kind::Solid | Kind::DistrictCenter | Kind::Dwelling
    ) && (b.is_workplace()
        || matches!(
            b.kind(),
            Kind::BreedingPod | Kind::Attraction | Kind::Storage
        )
        || b.spec().power.input > 0.0)
}

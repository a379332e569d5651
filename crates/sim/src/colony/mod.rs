//! The colony: buildings, beavers and bots, districts, goods and work, with the systems the
//! world runs each tick and the commands and read models of the colony routes.
//!
//! Submodules: `rules` (data/colony.json), `geometry` (orientations, footprints, doorsteps),
//! `building` (building state and behaviour classes), `prefab` (a building's interned catalogue
//! prefab), `beaver` (beavers, needs, wellbeing), `nav` (navigation graph), `place` (placement
//! rules), `build_demolish` (placing, finishing construction, demolishing), `path_place` (A*
//! path routing and placement for `/api/path/place`), `behave` (what each
//! beaver does: plans of steps), `steps` (starting and completing steps, what each step does),
//! `life` (hourly needs, housing, employment, ageing, births and deaths), `views` (read models:
//! districts, wellbeing, notifications; `building_views` and `beaver_views` for those two),
//! `commands` (building actions), `water_buildings` (soil barriers, aquifer drills, valves).
//!
//! Cadence: each tick, every beaver whose current step has ended completes it and starts the next
//! (planning anew when its plan is empty); at each full hour the `life` systems run; at dawn
//! beavers age and bots wear. Bot assemblers make bots (`production`), which then live through the
//! same systems as beavers, with their own needs. Order is always by id, so the colony is
//! deterministic.

pub mod ailments;
pub mod beaver;
mod behave;
pub use behave::is_food;
mod beaver_views;
mod build_demolish;
pub mod building;
mod building_views;
mod commands;
mod deconstruct;
mod distribute;
pub mod dynamite;
#[cfg(test)]
mod fair_tests;
pub mod fixtures;
pub mod geometry;
mod haul;
mod hives;
mod homes_jobs;
mod life;
mod lists;
pub mod naming;
pub mod nav;
mod path_place;
pub mod piles;
mod place;
mod placement_mask;
mod placement_search;
mod plant_lists;
pub mod prefab;
mod production;
pub mod reach;
pub mod rules;
mod status;
mod steps;
mod summary;
pub use summary::{ColonySummary, GroupWellbeing, SUMMARY_ROLES};
mod views;
pub(crate) mod water_buildings;
pub mod wonder;
mod work_plans;
pub mod zipline;

use crate::shards::Shards;
use crate::shared::Shared;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::IdGen;
use crate::rng::WorldRng;

pub use beaver::{Beaver, Step, need_defs, tier_label};
pub use beaver_views::{BeaverView, NeedView};
pub use building::{Building, FarmAction, Kind, Priority, StorageMode};
pub use building_views::{BuildingBrief, BuildingView, Workers};
pub use commands::RangeView;
pub use geometry::Orientation;
pub use path_place::{
    MAX_EXPANDED, PathError, PathGraph, PathPlan, PathRole, PathRoute, PathSnapshot, PathStep,
    PathStyle,
};
pub use placement_mask::{PlacementMask, PlacementMasks};
pub use placement_search::{NoSpot, PlacementSearch, PlacementSpot};
pub use views::{
    AlertCounts, AlertView, DistributionView, DistrictView, ListKey, NotificationView,
    PopulationView, WellbeingView,
};

pub(crate) use building_views::pausable;

/// The block index's map: voxel key (`geometry::voxel`) -> building id.
pub type BlockIndex = std::collections::HashMap<u64, i32, foldhash::fast::FixedState>;

/// Goods a finished building takes as inputs (recipe inputs, nutrients, fuel).
pub(crate) fn input_goods(b: &Building) -> Vec<String> {
    behave::input_wants(b).into_iter().map(|(g, _)| g).collect()
}

/// The ChaCha8 stream of the game seed the colony draws from.
pub const COLONY_STREAM: u64 = 0x636f_6c6f; // "colo"

/// First id counter of colony entities (apart from the land's ids).
const FIRST_ID: u32 = 1 << 24;

/// A district: its center and distribution settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct District {
    pub name: String,
    /// Good -> (import option, export threshold).
    pub distribution: BTreeMap<String, (String, f64)>,
}

/// An announced building status: `((building id, status), (building name, position))`.
pub type DynamicAlert = ((i32, String), (String, [u32; 3]));

/// Whether no dynamic alert was announced (then the save leaves the list out).
fn no_dynamic_alerts(alerts: &Shared<Vec<DynamicAlert>>) -> bool {
    alerts.is_empty()
}

/// A message for the player: deaths, births, hazards and milestones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    pub subject: String,
    pub description: String,
    pub cycle: u32,
    pub cycle_day: u32,
}

/// All colony state of a world.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Colony {
    pub(crate) ids: IdGen,
    pub rng: WorldRng,
    /// Tables are copy-on-write per table (`Shared`): a snapshot shares the tables a write or a
    /// tick did not touch; the building table per 64th of its ids (`Shards`), so a write to one
    /// building copies a 64th of it. (Per-entity sharing made a game day of the large colony
    /// 30-45% slower; see docs/performance.md.)
    pub buildings: Shards<Building>,
    pub beavers: Shared<BTreeMap<i32, Beaver>>,
    pub districts: Shared<BTreeMap<i32, District>>,
    pub notifications: Shared<Vec<Notification>>,
    /// Beavers ever named (for new names).
    pub named: u32,
    /// Bots ever made (for their names).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bots_made: u32,
    /// Best average wellbeing reached (for `wellbeing.highscore`).
    pub wellbeing_high: f64,
    /// A building was placed by the player already (`game.starting.building`).
    pub started_building: bool,
    pub game_over: bool,
    /// Science points earned (fractional part carried between hours).
    pub science_carry: f64,
    /// Buildings ever placed (each building's `seq`).
    #[serde(default)]
    pub placed: u32,
    /// Finished buildings marked for demolition, with the builder-hours spent taking each down
    /// (`deconstruct`). Saved only when some are marked.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub marked: BTreeMap<i32, f64>,
    /// Zipline cables: the pairs of towers joined (lower id first; `zipline`). Saved only when
    /// some are strung.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub ziplines: std::collections::BTreeSet<(i32, i32)>,
    /// Alert counts (unstaffed, unpowered, unreachable, status) last announced by `status.alert`.
    #[serde(default)]
    pub alert_counts: [u32; 4],
    /// Building statuses (id, status) last announced by `status.dynamic.alert`, with the
    /// building's name and position (announced again when the status goes).
    /// Kept as a sorted list (JSON maps need string keys); shared with the snapshots until the
    /// next change (a large colony has a thousand of them).
    #[serde(default, skip_serializing_if = "no_dynamic_alerts")]
    pub dynamic_alerts: Shared<Vec<DynamicAlert>>,
    /// Goods left on tiles beyond a load (a felled tree's logs), by the id of the plant that
    /// made them. See `piles`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub piles: BTreeMap<i32, piles::Pile>,
    /// Power: battery charge, clutches, engine fuel (saved); the networks (derived). See `power`.
    #[serde(default, skip_serializing_if = "crate::power::Power::is_blank")]
    pub power: crate::power::Power,
    /// Automation: device settings and outputs, links (see `automation`).
    #[serde(
        default,
        skip_serializing_if = "crate::automation::Automation::is_blank"
    )]
    pub automation: crate::automation::Automation,
    /// Voxel -> building id (derived; rebuilt on load). A hash map with a fixed seed: it is
    /// only looked up (the placement checks ask it for every tile of thousands of spots), never
    /// walked, so its order cannot reach the world.
    #[serde(skip)]
    pub blocks: Shared<BlockIndex>,
    /// Bumped on every block change.
    #[serde(skip)]
    pub block_version: u64,
    #[serde(skip)]
    pub nav: Shared<nav::Nav>,
    /// Ground steps of recent placement searches (derived; a cache).
    #[serde(skip)]
    pub(crate) ground_cache: path_place::GroundCache,
    /// The finished aquifer drills, valves and fill valves, in the buildings' order (derived:
    /// after each of them is finished or demolished, and after a load): all the water step's
    /// tick and the water's inflows and caps read, without a walk over every building.
    #[serde(skip)]
    pub(crate) water_works: Vec<i32>,
    /// No beaver's step ends before this tick (a lower bound; derived, 0 after a load): the
    /// beavers' tick skips its scan of every beaver until then. Lowered wherever a step's end
    /// is set outside that scan (a plan abandoned, a beaver added).
    #[serde(skip)]
    pub(crate) next_due: u64,
    /// District -> the tick a hauling search there last found nothing (derived; a cache).
    #[serde(skip)]
    pub no_haul: BTreeMap<i32, u64>,
    /// Bumped whenever a building is placed, removed, finished or changes district.
    #[serde(skip)]
    pub layout_version: u64,
    /// District -> its finished stores, valid while `stores_for == layout_version`.
    #[serde(skip)]
    pub stores: Shared<BTreeMap<i32, Vec<i32>>>,
    #[serde(skip)]
    pub stores_for: u64,
    /// District -> every building in it (finished or not), in id order; valid with `stores`.
    #[serde(skip)]
    pub members: Shared<BTreeMap<i32, Vec<i32>>>,
    /// (Layout version, finished buildings by role but paths, unfinished sites) for the
    /// history's rows (derived; a cache).
    #[serde(skip)]
    pub(crate) role_counts: Option<(u64, BTreeMap<String, u32>, u32)>,
    /// District -> its members but bare walkways (`Building::bare_walkway`), which no hauling
    /// job involves; valid with `stores`.
    #[serde(skip)]
    pub(crate) haul_members: Shared<BTreeMap<i32, Vec<i32>>>,
    /// The buildings of each `lists::List` (any district, finished or not), in id order; valid
    /// with `stores`.
    #[serde(skip)]
    pub(crate) lists: Shared<Vec<Vec<i32>>>,
    /// Each building's `lists::List` bits, in id order; valid with `stores`.
    #[serde(skip)]
    pub(crate) list_flags: Shared<Vec<u16>>,
    /// Buildings by the summary's roles (`summary::SUMMARY_ROLES`; paths not counted), counted
    /// with the lists; valid with `stores`.
    #[serde(skip)]
    pub(crate) summary_roles: lists::RoleCounts,
}

impl Colony {
    /// The building `id`, or `not_found` (ids go with their buildings).
    pub(crate) fn building(&self, id: i32) -> Result<&Building, crate::error::CommandError> {
        self.buildings
            .get(&id)
            .ok_or_else(|| crate::error::CommandError::building_not_found(id))
    }

    /// An empty colony (the world places the starting settlement).
    pub fn empty(seed: u64) -> Colony {
        Colony {
            ids: IdGen::starting_at(FIRST_ID),
            rng: WorldRng::new(seed, COLONY_STREAM),
            buildings: Shards::default(),
            beavers: Shared::default(),
            districts: Shared::default(),
            notifications: Shared::default(),
            named: 0,
            bots_made: 0,
            wellbeing_high: 0.0,
            started_building: false,
            game_over: false,
            science_carry: 0.0,
            placed: 0,
            marked: BTreeMap::new(),
            ziplines: Default::default(),
            alert_counts: [0; 4],
            dynamic_alerts: Shared::default(),
            piles: BTreeMap::new(),
            power: Default::default(),
            automation: Default::default(),
            blocks: Shared::default(),
            block_version: 1,
            nav: Shared::default(),
            ground_cache: Default::default(),
            water_works: Vec::new(),
            next_due: 0,
            no_haul: BTreeMap::new(),
            layout_version: 1,
            stores: Shared::default(),
            stores_for: 0,
            members: Default::default(),
            lists: Default::default(),
            list_flags: Default::default(),
            summary_roles: Default::default(),
            haul_members: Default::default(),
            role_counts: None,
        }
    }

    /// Checks that every building of a colony's save (its `colony` object) names a catalogue
    /// prefab, before it is read into buildings (whose `Prefab` holds only catalogue prefabs).
    pub(crate) fn check_prefabs(save: &serde_json::Value) -> Result<(), String> {
        let Some(buildings) = save.get("buildings").and_then(|b| b.as_object()) else {
            return Ok(());
        };
        for (id, b) in buildings {
            if let Some(name) = b.get("prefab").and_then(|p| p.as_str())
                && prefab::Prefab::get(name).is_none()
            {
                return Err(format!("building {id} has unknown prefab {name:?}"));
            }
        }
        Ok(())
    }

    /// Checks a loaded colony fits its map and refers only to things it holds (its prefabs are
    /// checked before it is read: `check_prefabs`).
    pub fn check(&self, map: &crate::map::Map) -> Result<(), String> {
        for (id, b) in &self.buildings {
            if !map.contains(b.x.into(), b.y.into()) {
                return Err(format!("building {id} lies off the map"));
            }
            for w in b.workers.iter().chain(&b.dwellers) {
                if !self.beavers.contains_key(w) {
                    return Err(format!("building {id} lists unknown beaver {w}"));
                }
            }
        }
        for (id, b) in &self.beavers {
            for r in [b.home, b.workplace, b.district].into_iter().flatten() {
                if !self.buildings.contains_key(&r) {
                    return Err(format!("beaver {id} refers to unknown building {r}"));
                }
            }
        }
        Ok(())
    }

    /// Rebuilds the derived block index (after loading).
    pub fn reindex(&mut self) {
        self.blocks.clear();
        let ids: Vec<i32> = self.buildings.keys().copied().collect();
        for id in ids {
            self.index_building(id);
        }
        self.block_version += 1;
    }

    /// Adds a building's voxels to the block index.
    pub(crate) fn index_building(&mut self, id: i32) {
        let b = &self.buildings[&id];
        for v in place::voxels_of(b) {
            self.blocks.insert(v, id);
        }
        self.block_version += 1;
        self.layout_version += 1;
    }

    /// Removes a building's voxels from the block index.
    pub(crate) fn unindex_building(&mut self, id: i32) {
        if let Some(b) = self.buildings.get(&id) {
            for v in place::voxels_of(b) {
                if self.blocks.get(&v) == Some(&id) {
                    self.blocks.remove(&v);
                }
            }
        }
        self.block_version += 1;
        self.layout_version += 1;
    }

    /// The navigation graph, rebuilt if blocks changed since.
    pub(crate) fn nav(&mut self) -> &mut nav::Nav {
        if self.nav.built_for != self.block_version {
            let v = self.block_version;
            let (cables, boarding) = self.zipline_links();
            self.nav
                .rebuild(self.buildings.values(), &cables, &boarding, v);
        }
        &mut self.nav
    }

    /// The doorstep voxel of a building (its own origin voxel when it has no door).
    pub(crate) fn door(&self, id: i32) -> Option<[u32; 3]> {
        let b = self.buildings.get(&id)?;
        if !b.has_entrance() {
            // (No doorstep without an entrance.)
            return Some([b.x, b.y, b.z]);
        }
        Some(
            match b.prefab.doorstep(b.x.into(), b.y.into(), b.orientation) {
                Some((x, y)) if x >= 0 && y >= 0 => [x as u32, y as u32, b.z],
                _ => [b.x, b.y, b.z],
            },
        )
    }

    /// The district center ids, in id order.
    pub(crate) fn centers(&self) -> Vec<i32> {
        self.districts.keys().copied().collect()
    }

    /// The district whose network reaches this building's doorstep (district centers are their
    /// own district).
    pub(crate) fn district_reaching(&mut self, id: i32) -> Option<i32> {
        if self.districts.contains_key(&id) {
            return Some(id);
        }
        let door = self.door(id)?;
        let b = self.buildings.get(&id)?;
        let has_door = geometry::has_entrance(b.spec());
        let kind = b.kind();
        // (A tunnel still a site is no node yet: builders reach it as a doorless building.)
        let node = b.finished || !building::is_tunnel(b.spec());
        if has_door || node && matches!(kind, Kind::Path | Kind::Stairs) {
            self.district_at(door)
        } else {
            let roots: Vec<(i32, [u32; 3])> = self
                .centers()
                .iter()
                .filter_map(|c| Some((*c, self.door(*c)?)))
                .collect();
            let nav = self.nav();
            // Doorless buildings: builders reach them from a connected path within range.
            let reach = rules::colony_rules().districts.builder_reach_off_path.value;
            let mut best: Option<(u32, i32)> = None;
            for (c, r) in &roots {
                let Some(comp) = nav.component(geometry::voxel(r[0], r[1], r[2])) else {
                    continue;
                };
                for n in nav.nodes_of(comp) {
                    let (x, y, z) = geometry::unvoxel(n);
                    let d = nav::manhattan([x, y, z], door);
                    if d <= reach && best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, *c));
                    }
                }
            }
            best.map(|(_, c)| c)
        }
    }

    /// The district whose network holds a voxel: the center nearest it along the network (ties
    /// to the lower id).
    pub(crate) fn district_at(&mut self, v: [u32; 3]) -> Option<i32> {
        let roots: Vec<(i32, u64)> = self
            .centers()
            .iter()
            .filter_map(|c| {
                let d = self.door(*c)?;
                Some((*c, geometry::voxel(d[0], d[1], d[2])))
            })
            .collect();
        self.nav()
            .nearest_root(geometry::voxel(v[0], v[1], v[2]), &roots)
    }

    /// Recomputes every building's district (after the network changed); returns how many
    /// buildings joined or left a district.
    pub(crate) fn refresh_districts(&mut self) -> u32 {
        let ids: Vec<i32> = self.buildings.keys().copied().collect();
        let mut changed = 0;
        for id in ids {
            let d = self.district_reaching(id);
            if let Some(b) = self.buildings.get_mut(&id) {
                if b.district != d {
                    changed += 1;
                }
                b.district = d;
            }
        }
        self.layout_version += 1;
        changed
    }

    /// Walking distance between two voxels: along the network when both are on it and joined,
    /// else Manhattan.
    pub(crate) fn travel(&mut self, a: [u32; 3], b: [u32; 3]) -> u32 {
        let (va, vb) = (
            geometry::voxel(a[0], a[1], a[2]),
            geometry::voxel(b[0], b[1], b[2]),
        );
        self.nav()
            .distance(va, vb)
            .unwrap_or_else(|| nav::manhattan(a, b))
    }

    /// The next free beaver name.
    pub(crate) fn next_name(&mut self) -> String {
        let names = &rules::colony_rules().colony.baby_names.value;
        let n = self.named as usize;
        self.named += 1;
        let base = &names[n % names.len()];
        if n < names.len() {
            base.clone()
        } else {
            format!("{base} {}", n / names.len() + 1)
        }
    }

    /// The next bot name (`Bot 1`, `Bot 2`...).
    pub(crate) fn next_bot_name(&mut self) -> String {
        self.bots_made += 1;
        format!("Bot {}", self.bots_made)
    }

    /// Finished storage buildings (and centers) of a district, in id order.
    pub(crate) fn stores_of(&self, district: i32) -> Vec<i32> {
        if self.stores_for == self.layout_version {
            return self.stores.get(&district).cloned().unwrap_or_default();
        }
        self.scan_stores(district)
    }

    fn scan_stores(&self, district: i32) -> Vec<i32> {
        self.buildings
            .iter()
            .filter(|(_, b)| {
                b.finished
                    && b.district == Some(district)
                    && matches!(b.kind(), Kind::Storage | Kind::DistrictCenter)
            })
            .map(|(id, _)| *id)
            .collect()
    }

    /// Refreshes the cached store, member and building lists when buildings changed (called each
    /// tick).
    pub(crate) fn refresh_store_cache(&mut self) {
        if self.stores_for == self.layout_version {
            return;
        }
        let mut m: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        for d in self.districts.keys() {
            m.insert(*d, self.scan_stores(*d));
        }
        self.stores = m.into();
        let mut members: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        for (id, b) in self.buildings.iter() {
            if let Some(d) = b.district {
                members.entry(d).or_default().push(*id);
            }
        }
        let haul: BTreeMap<i32, Vec<i32>> = members
            .iter()
            .map(|(d, ids)| {
                let ids = ids.iter().copied();
                (
                    *d,
                    ids.filter(|id| !self.buildings[id].bare_walkway())
                        .collect(),
                )
            })
            .collect();
        self.members = members.into();
        self.haul_members = haul.into();
        self.rebuild_lists();
        self.stores_for = self.layout_version;
    }

    /// The buildings of a district (finished or not) with their ids, in id order: from the
    /// cached member lists while they are valid, else by scanning every building.
    pub(crate) fn buildings_in(
        &self,
        district: i32,
    ) -> Box<dyn Iterator<Item = (&i32, &Building)> + '_> {
        if self.stores_for == self.layout_version {
            let ids = self.members.get(&district).map_or(&[][..], Vec::as_slice);
            return Box::new(ids.iter().map(|id| (id, &self.buildings[id])));
        }
        Box::new(
            self.buildings
                .iter()
                .filter(move |(_, b)| b.district == Some(district)),
        )
    }

    /// The buildings of a district a hauling job can involve ([`Colony::buildings_in`] but bare
    /// walkways, which never hold goods nor want any), in id order.
    pub(crate) fn haul_members_in(
        &self,
        district: i32,
    ) -> Box<dyn Iterator<Item = (&i32, &Building)> + '_> {
        if self.stores_for == self.layout_version {
            let ids = self
                .haul_members
                .get(&district)
                .map_or(&[][..], Vec::as_slice);
            return Box::new(ids.iter().map(|id| (id, &self.buildings[id])));
        }
        self.buildings_in(district)
    }

    /// A district's stock of every good: (available, all).
    pub(crate) fn district_stock(&self, district: i32) -> BTreeMap<String, (u32, u32)> {
        let mut out: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        for id in self.stores_of(district) {
            let b = &self.buildings[&id];
            for (g, n) in &b.inventory {
                let e = out.entry(g.clone()).or_default();
                e.0 += b.available(g);
                e.1 += n;
            }
        }
        out
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests;

//! Read models of the colony: buildings, beavers, population, districts, resources,
//! distribution, wellbeing, alerts and notifications, shaped as the contract's json objects.

use std::collections::BTreeMap;

use serde::Serialize;

use super::beaver::{need_defs, tier_label};
use super::building::{Building, Kind, dwelling_capacity};
use crate::world::World;

/// Buildings with each alert kind the summary counts ([`World::alert_counts`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AlertCounts {
    pub unstaffed: u32,
    pub unpowered: u32,
    pub unreachable: u32,
}

/// The fields of a building a basic list shows, read straight from the building (no statuses,
/// power or storage looked up): the first fields of its [`BuildingView`], the same values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildingBrief {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: &'static str,
    pub finished: bool,
    pub paused: bool,
    pub priority: &'static str,
    pub workers: String,
}

impl BuildingBrief {
    fn of(id: i32, b: &Building) -> BuildingBrief {
        BuildingBrief {
            id,
            name: b.prefab.to_string(),
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
            workers: format!("{}/{}", b.workers.len(), b.desired_workers),
        }
    }
}

/// What a list filters an entity by before it builds any view: id, name (a building's prefab,
/// a beaver's name) and tile position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListKey<'a> {
    pub id: i32,
    pub name: &'a str,
    pub x: u32,
    pub y: u32,
}

/// A building as `/api/buildings` shows it (`detail=full`; absent fields are components the
/// building lacks).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildingView {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: String,
    pub finished: bool,
    pub pausable: bool,
    pub paused: bool,
    /// `Normal` etc.: construction priority while a site, workplace priority when finished.
    pub priority: String,
    /// `assigned/desired`.
    pub workers: String,
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floodgate: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_height: Option<f32>,
    pub construction_priority: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workplace_priority: Option<String>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_clutch: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clutch_engaged: Option<bool>,
    /// Automation devices and automated buildings (see `automation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub automation: Option<crate::automation::AutomationView>,
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

/// One need of a beaver.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeedView {
    pub id: &'static str,
    /// 0-1, higher is more satisfied: the game's own points (a range per need, such as -3..1 for
    /// Hunger and Thirst) scaled as `(points - min) / (max - min)`. 0 is the range's bottom, where
    /// Hunger and Thirst kill.
    pub points: f64,
    /// The served value at which the need turns favourable (the game's 0 on the same scale, e.g.
    /// 0.75 for Hunger and Thirst): above it the need adds wellbeing, at or below it it takes
    /// some, and a need with a critical state is then `critical`.
    pub threshold: f64,
    pub wellbeing: i32,
    pub favorable: bool,
    pub critical: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<&'static str>,
}

/// A beaver or bot as `/api/beavers` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BeaverView {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub wellbeing: f64,
    pub tier: String,
    pub district: String,
    pub needs: Vec<NeedView>,
    pub any_critical: bool,
    /// Critical need ids.
    pub critical: Vec<String>,
    pub life_progress: f64,
    pub workplace: String,
    pub is_bot: bool,
    pub is_child: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carrying: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carry_amount: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifting_capacity: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overburdened: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deterioration: Option<f64>,
    pub contaminated: bool,
    pub activity: String,
    pub has_home: bool,
}

/// Population of a district.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PopulationView {
    pub district: String,
    pub adults: u32,
    pub children: u32,
    pub bots: u32,
}

/// A district with its population, stock, housing, employment, wellbeing and center.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DistrictView {
    pub id: i32,
    pub name: String,
    pub adults: u32,
    pub children: u32,
    pub bots: u32,
    /// Good -> (available, all).
    pub resources: BTreeMap<String, (u32, u32)>,
    pub occupied_beds: u32,
    pub total_beds: u32,
    pub homeless: u32,
    pub assigned: u32,
    pub vacancies: u32,
    pub unemployed: u32,
    pub wellbeing_average: f64,
    pub miserable: u32,
    pub critical: u32,
    pub dc: [u32; 3],
    pub dc_orientation: String,
    pub entrance: [u32; 3],
}

/// One good's distribution setting.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DistributionGood {
    pub good: String,
    pub import_option: String,
    pub export_threshold: f64,
}

/// The distribution settings of a district.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DistributionView {
    pub district: String,
    pub goods: Vec<DistributionGood>,
}

/// A wellbeing category.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WellbeingCategory {
    pub group: String,
    pub current: f64,
    pub max: f64,
    pub needs: Vec<WellbeingNeed>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WellbeingNeed {
    pub id: String,
    pub favorable_wellbeing: f64,
    pub unfavorable_wellbeing: f64,
}

/// `/api/wellbeing`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WellbeingView {
    pub beavers: u32,
    pub average: f64,
    pub miserable: u32,
    pub critical: u32,
    pub categories: Vec<WellbeingCategory>,
}

/// An alert.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertView {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub workers: String,
    pub status: String,
}

/// A notification.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationView {
    pub subject: String,
    pub description: String,
    pub cycle: u32,
    pub cycle_day: u32,
}

impl World {
    fn district_name(&self, d: Option<i32>) -> String {
        d.and_then(|d| self.colony.districts.get(&d))
            .map(|d| d.name.clone())
            .unwrap_or_default()
    }

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
        let brief = BuildingBrief::of(id, b);
        Some(BuildingView {
            id,
            name: brief.name,
            x: b.x,
            y: b.y,
            z: b.z,
            orientation: brief.orientation.to_owned(),
            finished: b.finished,
            pausable: pausable(b),
            paused: b.paused,
            priority: brief.priority.to_owned(),
            workers: brief.workers,
            role: s.role.clone(),
            floodgate: floodgate.then_some(true),
            height: floodgate.then_some(b.floodgate_height),
            max_height: floodgate.then_some(s.size.z.saturating_sub(1).max(1) as f32),
            construction_priority: b.construction_priority.as_str().to_owned(),
            workplace_priority: workplace.then(|| b.workplace_priority.as_str().to_owned()),
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
            is_clutch: p.as_ref().map(|p| p.is_clutch),
            clutch_engaged: p.as_ref().and_then(|p| p.clutch_engaged),
            automation: self.automation_view(id),
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
        ids.iter()
            .filter_map(|id| self.building_view_with(*id, &scan, false))
            .collect()
    }

    /// A beaver as the beaver view; `full` lists every need with its group.
    pub fn beaver_view(&self, id: i32, full: bool) -> Option<BeaverView> {
        let b = self.colony.beavers.get(&id)?;
        let faction = self.faction;
        let defs = need_defs(faction, b.is_bot);
        let wb = b.wellbeing(faction);
        let mut needs = Vec::with_capacity(defs.len());
        let shown = defs
            .iter()
            .zip(&b.needs)
            .filter(|(d, p)| full || b.is_bot || d.group == "BasicNeeds" || **p > 0.0);
        needs.extend(shown.map(|(d, p)| NeedView {
            id: d.id.as_str(),
            points: round3(served_points(d, *p)),
            threshold: round3(served_points(d, 0.0)),
            wellbeing: if d.favorable_at(*p) {
                d.favorable
            } else {
                d.unfavorable
            } as i32,
            favorable: d.favorable_at(*p),
            critical: d.critical && !d.favorable_at(*p),
            group: full.then_some(d.group.as_str()),
        }));
        let critical: Vec<String> = b
            .critical_needs(faction)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let pos = b.position(self.ticks);
        let cap = super::rules::colony_rules().hauling.lifting_capacity.value;
        let carried_weight = b.carrying.as_ref().map_or(0.0, |(g, n)| {
            crate::content::content()
                .goods
                .get(g)
                .and_then(|g| g.carry_weight)
                .unwrap_or(1.0)
                * f64::from(*n)
        });
        Some(BeaverView {
            id,
            name: b.name.clone(),
            x: pos[0],
            y: pos[1],
            z: pos[2],
            wellbeing: wb,
            tier: tier_label(wb).to_owned(),
            district: self.district_name(b.district),
            needs,
            any_critical: !critical.is_empty(),
            critical,
            life_progress: ((b.age_days / b.lifespan_days).clamp(0.0, 1.0) * 1000.0).round()
                / 1000.0,
            workplace: b
                .workplace
                .and_then(|w| self.colony.buildings.get(&w))
                .map(|w| w.spec().base_name.clone())
                .unwrap_or_default(),
            is_bot: b.is_bot,
            is_child: b.child,
            carrying: b.carrying.as_ref().map(|(g, _)| g.clone()),
            carry_amount: b.carrying.as_ref().map(|(_, n)| *n),
            lifting_capacity: full.then_some(cap),
            overburdened: full.then_some(carried_weight > f64::from(cap)),
            deterioration: b.is_bot.then_some(b.deterioration),
            contaminated: b.contaminated,
            activity: b
                .plan
                .front()
                .map_or_else(|| "idle".to_owned(), |s| s.activity()),
            has_home: b.home.is_some(),
        })
    }

    /// Every beaver and bot, in id order.
    pub fn beavers(&self, full: bool) -> Vec<BeaverView> {
        let ids: Vec<i32> = self.colony.beavers.keys().copied().collect();
        self.beavers_of(&ids, full)
    }

    /// What lists filter beavers and bots by (name and position now), in id order, without
    /// building any view.
    pub fn beaver_keys(&self) -> impl Iterator<Item = ListKey<'_>> {
        self.colony.beavers.iter().map(|(id, b)| {
            let [x, y, _] = b.position(self.ticks);
            ListKey {
                id: *id,
                name: &b.name,
                x,
                y,
            }
        })
    }

    /// The views of the beavers and bots `ids` (in that order; unknown ids are skipped).
    pub fn beavers_of(&self, ids: &[i32], full: bool) -> Vec<BeaverView> {
        ids.iter()
            .filter_map(|id| self.beaver_view(*id, full))
            .collect()
    }

    /// Population per district.
    pub fn population(&self) -> Vec<PopulationView> {
        self.colony
            .districts
            .iter()
            .map(|(id, d)| {
                let (a, c, b) = self.colony.counts(Some(*id));
                PopulationView {
                    district: d.name.clone(),
                    adults: a,
                    children: c,
                    bots: b,
                }
            })
            .collect()
    }

    /// Districts with their numbers.
    pub fn districts(&self) -> Vec<DistrictView> {
        let faction = self.faction;
        self.colony
            .districts
            .iter()
            .map(|(id, d)| {
                let (a, c, b) = self.colony.counts(Some(*id));
                let beavers: Vec<_> = self
                    .colony
                    .beavers
                    .values()
                    .filter(|bv| bv.district == Some(*id))
                    .collect();
                let (mut beds, mut occupied, mut assigned, mut vacancies) = (0, 0, 0, 0);
                for bl in self
                    .colony
                    .buildings
                    .values()
                    .filter(|bl| bl.district == Some(*id) && bl.finished)
                {
                    if bl.kind() == Kind::Dwelling {
                        beds += dwelling_capacity(bl.spec()).0;
                        occupied += bl.dwellers.len() as u32;
                    }
                    if bl.is_workplace() && !bl.paused {
                        assigned += bl.workers.len() as u32;
                        vacancies += bl.desired_workers.saturating_sub(bl.workers.len() as u32);
                    }
                }
                let homeless = beavers
                    .iter()
                    .filter(|bv| !bv.is_bot && bv.home.is_none())
                    .count() as u32;
                // Ailing beavers (injured, contaminated) are unemployable, not unemployed.
                let unemployed = beavers
                    .iter()
                    .filter(|bv| {
                        !bv.child && bv.workplace.is_none() && !bv.kept_from_work(self.faction)
                    })
                    .count() as u32;
                let n = beavers.iter().filter(|bv| !bv.is_bot).count();
                let wb: Vec<f64> = beavers
                    .iter()
                    .filter(|bv| !bv.is_bot)
                    .map(|bv| bv.wellbeing(faction))
                    .collect();
                let dc = &self.colony.buildings[id];
                DistrictView {
                    id: *id,
                    name: d.name.clone(),
                    adults: a,
                    children: c,
                    bots: b,
                    resources: self.colony.district_stock(*id),
                    occupied_beds: occupied,
                    total_beds: beds,
                    homeless,
                    assigned,
                    vacancies,
                    unemployed,
                    wellbeing_average: if n == 0 {
                        0.0
                    } else {
                        round2(wb.iter().sum::<f64>() / n as f64)
                    },
                    miserable: wb.iter().filter(|w| **w < 4.0).count() as u32,
                    critical: beavers
                        .iter()
                        .filter(|bv| !bv.critical_needs(faction).is_empty())
                        .count() as u32,
                    dc: [dc.x, dc.y, dc.z],
                    dc_orientation: dc.orientation.as_str().to_owned(),
                    entrance: self.colony.door(*id).unwrap_or([dc.x, dc.y, dc.z]),
                }
            })
            .collect()
    }

    /// Distribution settings per district (every good the faction knows, `Auto` unless set).
    pub fn distribution(&self) -> Vec<DistributionView> {
        self.colony
            .districts
            .values()
            .map(|d| DistributionView {
                district: d.name.clone(),
                goods: crate::content::content()
                    .goods
                    .values()
                    .filter(|g| g.factions == "both" || g.factions == self.faction.as_str())
                    .map(|g| {
                        let (opt, thr) = d
                            .distribution
                            .get(&g.id)
                            .cloned()
                            .unwrap_or_else(|| ("Auto".to_owned(), 0.0));
                        DistributionGood {
                            good: g.id.clone(),
                            import_option: opt,
                            export_threshold: thr,
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// Wellbeing of the colony's beavers by need group.
    pub fn wellbeing(&self) -> WellbeingView {
        let faction = self.faction;
        let beavers: Vec<_> = self.colony.beavers.values().filter(|b| !b.is_bot).collect();
        let n = beavers.len();
        let defs = need_defs(faction, false);
        let mut groups: Vec<String> = Vec::new();
        for d in defs {
            if !groups.contains(&d.group) {
                groups.push(d.group.clone());
            }
        }
        let categories = groups
            .iter()
            .map(|g| {
                let idx: Vec<usize> = defs
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.group == *g)
                    .map(|(i, _)| i)
                    .collect();
                let max: f64 = idx.iter().map(|i| defs[*i].favorable.max(0.0)).sum();
                let current = if n == 0 {
                    0.0
                } else {
                    beavers
                        .iter()
                        .map(|b| {
                            idx.iter()
                                .map(|i| {
                                    if defs[*i].favorable_at(b.needs[*i]) {
                                        defs[*i].favorable
                                    } else {
                                        defs[*i].unfavorable
                                    }
                                })
                                .sum::<f64>()
                        })
                        .sum::<f64>()
                        / n as f64
                };
                WellbeingCategory {
                    group: g.clone(),
                    current: round2(current),
                    max,
                    needs: idx
                        .iter()
                        .map(|i| WellbeingNeed {
                            id: defs[*i].id.clone(),
                            favorable_wellbeing: defs[*i].favorable,
                            unfavorable_wellbeing: defs[*i].unfavorable,
                        })
                        .collect(),
                }
            })
            .collect();
        let (average, miserable, critical) = self.wellbeing_totals();
        WellbeingView {
            beavers: n as u32,
            average,
            miserable,
            critical,
            categories,
        }
    }

    /// The [`World::wellbeing`] totals alone (the hourly history's): the average wellbeing of
    /// the beavers (not bots), how many are miserable (under 4) and how many have a critical
    /// need unfavourable.
    pub(crate) fn wellbeing_totals(&self) -> (f64, u32, u32) {
        let faction = self.faction;
        // One pass, summing in beaver order as the average always has.
        let (mut n, mut sum, mut miserable, mut critical) = (0usize, 0.0f64, 0u32, 0u32);
        for b in self.colony.beavers.values().filter(|b| !b.is_bot) {
            let wb = b.wellbeing(faction);
            n += 1;
            sum += wb;
            miserable += u32::from(wb < 4.0);
            critical += u32::from(b.any_critical(faction));
        }
        (
            if n == 0 { 0.0 } else { round2(sum / n as f64) },
            miserable,
            critical,
        )
    }

    /// Notifications, oldest first.
    pub fn notifications(&self) -> Vec<NotificationView> {
        self.colony
            .notifications
            .iter()
            .map(|n| NotificationView {
                subject: n.subject.clone(),
                description: n.description.clone(),
                cycle: n.cycle,
                cycle_day: n.cycle_day,
            })
            .collect()
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

    /// District stock of every good, whole colony: good -> (available, all).
    pub fn colony_stock(&self) -> BTreeMap<String, (u32, u32)> {
        let mut out: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        for d in self.colony.districts.keys() {
            for (g, (a, t)) in self.colony.district_stock(*d) {
                let e = out.entry(g).or_default();
                e.0 += a;
                e.1 += t;
            }
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

/// A need's points on the served 0-1 scale (see [`NeedView::points`]).
fn served_points(d: &super::beaver::NeedDef, p: f64) -> f64 {
    if d.max > d.min {
        ((p - d.min) / (d.max - d.min)).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

//! Building statuses: why a building does not work or what it waits for (`statuses` of the
//! building view, and the alerts the colony announces every hour).
//!
//! A status depends on the building and on colony-wide facts (a district's stock and able
//! adults, the plants in a work range). Asked for one building, those facts are looked up
//! directly; [`StatusScan::batch`] is for asking about every building at once (the hourly
//! alerts, the building list): it works each fact out once per district or per plant kind and
//! shares it between the buildings, with the same answers. The alerts (every building's
//! statuses sorted into kinds) live here too, with their hourly announcement.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

use super::building::{Building, Kind};
use super::lists::List;
use super::prefab::Prefab;
use super::views::{AlertCounts, AlertView};
use crate::catalog::PlantKind;
use crate::event::names;
use crate::land::Plant;
use crate::shared::Shared;
use crate::world::World;
use serde_json::json;

/// A dynamic alert as the hourly announcement gathers it: (id, status), (prefab, position).
type PendingAlert = ((i32, Cow<'static, str>), (Prefab, [u32; 3]));

/// What the statuses of many buildings share, worked out on first use.
pub(crate) struct StatusScan {
    batch: bool,
    /// Only the statuses alerts are counted by (`unreachable`, `unpowered`, `unstaffed`): the
    /// costlier checks that can give none of them (materials, stalls, science, nutrients, why
    /// a place is unstaffed) are skipped.
    alert_kinds_only: bool,
    /// Able adults (not children, not kept from work) per district.
    adults: OnceCell<BTreeMap<Option<i32>, usize>>,
    /// Tiles of the trees a lumberjack can cut now (grown, in the cutting area) and of the
    /// bushes a gatherer can pick now, by map cell.
    plants: OnceCell<[PlantGrid; 2]>,
    /// District -> good -> whether it has none available (for sites lacking materials).
    out_of: RefCell<BTreeMap<i32, BTreeMap<String, bool>>>,
    /// District -> good -> whether a store of the district takes the good.
    stored: RefCell<BTreeMap<i32, BTreeMap<String, bool>>>,
}

/// The plants a producer's workers wait for; the index of their [`PlantGrid`] in a batch.
#[derive(Clone, Copy)]
enum Ready {
    Trees = 0,
    Bushes = 1,
}

/// Side of the square cells [`PlantGrid`] sorts plants into (tiles).
const CELL: u32 = 16;

/// The tiles of the plants of one kind a batch asks about, sorted into square cells of the map,
/// so a work range looks only at the cells it overlaps.
struct PlantGrid {
    cols: u32,
    rows: u32,
    cells: Vec<Vec<[u32; 2]>>,
}

impl PlantGrid {
    fn new(width: u32, height: u32) -> PlantGrid {
        let (cols, rows) = (width.div_ceil(CELL).max(1), height.div_ceil(CELL).max(1));
        PlantGrid {
            cols,
            rows,
            cells: vec![Vec::new(); (cols * rows) as usize],
        }
    }

    fn add(&mut self, [x, y]: [u32; 2]) {
        let (cx, cy) = ((x / CELL).min(self.cols - 1), (y / CELL).min(self.rows - 1));
        self.cells[(cy * self.cols + cx) as usize].push([x, y]);
    }

    /// Whether a tile lies within `range` (Manhattan) of `door`.
    fn any_within(&self, door: [u32; 3], range: u32) -> bool {
        let (x0, x1) = (door[0].saturating_sub(range), door[0].saturating_add(range));
        let (y0, y1) = (door[1].saturating_sub(range), door[1].saturating_add(range));
        let (cx0, cx1) = (x0 / CELL, (x1 / CELL).min(self.cols - 1));
        let (cy0, cy1) = (y0 / CELL, (y1 / CELL).min(self.rows - 1));
        (cy0..=cy1).any(|cy| {
            (cx0..=cx1).any(|cx| {
                self.cells[(cy * self.cols + cx) as usize]
                    .iter()
                    .any(|[x, y]| x.abs_diff(door[0]) + y.abs_diff(door[1]) <= range)
            })
        })
    }
}

impl StatusScan {
    /// For one building: nothing is gathered ahead.
    pub(crate) fn single() -> StatusScan {
        StatusScan {
            batch: false,
            alert_kinds_only: false,
            adults: OnceCell::new(),
            plants: OnceCell::new(),
            out_of: RefCell::default(),
            stored: RefCell::default(),
        }
    }

    /// For many buildings of one world (use it with that world only).
    pub(crate) fn batch() -> StatusScan {
        StatusScan {
            batch: true,
            ..StatusScan::single()
        }
    }

    /// For counting the alerts of every building ([`StatusScan::alert_kinds_only`]).
    pub(crate) fn alert_kinds() -> StatusScan {
        StatusScan {
            alert_kinds_only: true,
            ..StatusScan::batch()
        }
    }
}

/// A tree a lumberjack can cut now (grown and marked, living or dead: `Plant::has_logs`); the
/// lumberjack's work plan picks its tree by the same test.
pub(super) fn cuttable(w: &World, p: &Plant) -> bool {
    p.has_logs() && w.land.cutting[w.land.idx(p.x, p.y)]
}

/// A bush with fruit to gather now (the gatherer's work plan picks its bush by the same test).
pub(super) fn gatherable(_: &World, p: &Plant) -> bool {
    p.alive && p.fruit >= 1.0 && p.kind() == PlantKind::Bush
}

impl World {
    /// How many buildings have each alert kind counted by the summary (`unstaffed`,
    /// `unpowered`, `unreachable`): the same as counting [`World::alerts`] by kind, without the
    /// statuses that cannot give one.
    pub fn alert_counts(&self) -> AlertCounts {
        let mut n = AlertCounts::default();
        self.alerts_in(&StatusScan::alert_kinds(), |_, _, kind, _| match kind {
            "unstaffed" => n.unstaffed += 1,
            "unpowered" => n.unpowered += 1,
            "unreachable" => n.unreachable += 1,
            _ => {}
        });
        n
    }

    /// Alerts: unstaffed, unpowered, unreachable buildings and other statuses.
    pub fn alerts(&self) -> Vec<AlertView> {
        let mut out = Vec::new();
        self.each_alert(|id, b, kind, status| {
            out.push(AlertView {
                kind: kind.to_owned(),
                id,
                name: b.prefab.to_string(),
                x: b.x,
                y: b.y,
                z: b.z,
                workers: if kind == "unstaffed" {
                    format!("{}/{}", b.workers.len(), b.desired_workers)
                } else {
                    String::new()
                },
                status: status.to_owned(),
            });
        });
        out
    }

    /// Queues `status.alert {unstaffed, unpowered, unreachable, status, total}` when the alert
    /// counts changed since the last announcement (checked hourly).
    /// Also queues `status.dynamic.alert {id, name, x, y, z, status, active}` per building status
    /// alert (lacks inputs, output full, no water to pump, ...) that appeared (`active: true`) or
    /// went (`false`) since the last hour.
    pub(crate) fn announce_alerts(&mut self) {
        let mut counts = [0u32; 4];
        // The status texts as the statuses gave them (fixed texts borrowed) and the prefab as
        // its handle: owned copies are made only when the list differs from the last hour's.
        let mut dynamic: Vec<PendingAlert> = Vec::new();
        self.alerts_in(&StatusScan::batch(), |id, b, kind, status| {
            let i = match kind {
                "unstaffed" => 0,
                "unpowered" => 1,
                "unreachable" => 2,
                _ => 3,
            };
            counts[i] += 1;
            if i == 3 {
                dynamic.push(((id, status.clone()), (b.prefab, [b.x, b.y, b.z])));
            }
        });
        // Sorted by (id, status), one entry a key: the announced list's order.
        dynamic.sort_by(|a, b| a.0.cmp(&b.0));
        dynamic.dedup_by(|a, b| a.0 == b.0);
        let unchanged = dynamic.len() == self.colony.dynamic_alerts.len()
            && dynamic.iter().zip(self.colony.dynamic_alerts.iter()).all(
                |(((id, status), (prefab, at)), ((was_id, was_status), (was_name, was_at)))| {
                    id == was_id
                        && status == was_status
                        && prefab.name() == was_name
                        && at == was_at
                },
            );
        // (Unchanged since the last hour, the usual case: nothing to announce.)
        if !unchanged {
            let dynamic: BTreeMap<_, _> = dynamic
                .into_iter()
                .map(|((id, status), (prefab, at))| {
                    ((id, status.into_owned()), (prefab.name().to_owned(), at))
                })
                .collect();
            let old: BTreeMap<_, _> = self.colony.dynamic_alerts.iter().cloned().collect();
            if dynamic != old {
                let day = self.day();
                let gone = old.iter().filter(|(k, _)| !dynamic.contains_key(*k));
                let came = dynamic.iter().filter(|(k, _)| !old.contains_key(*k));
                let changes = gone.map(|e| (e, false)).chain(came.map(|e| (e, true)));
                for (((id, status), (name, [x, y, z])), active) in changes {
                    self.events.push(
                        names::STATUS_DYNAMIC_ALERT,
                        day,
                        json!({ "id": id, "name": name, "x": x, "y": y, "z": z,
                                "status": status, "active": active }),
                    );
                }
                self.colony.dynamic_alerts = Shared::new(dynamic.into_iter().collect());
            }
        }
        if counts != self.colony.alert_counts {
            self.colony.alert_counts = counts;
            let day = self.day();
            self.events.push(
                names::STATUS_ALERT,
                day,
                json!({
                    "unstaffed": counts[0],
                    "unpowered": counts[1],
                    "unreachable": counts[2],
                    "status": counts[3],
                    "total": counts.iter().sum::<u32>(),
                }),
            );
        }
    }

    /// Calls `f(id, building, kind, status)` for every alert, in the order of
    /// [`World::alerts`]: kind `unstaffed`, `unpowered` or `unreachable` with an empty status,
    /// or `status` with the building's status.
    pub(crate) fn each_alert(&self, mut f: impl FnMut(i32, &Building, &'static str, &str)) {
        self.alerts_in(&StatusScan::batch(), |id, b, kind, status| {
            f(id, b, kind, status);
        });
    }

    /// [`World::each_alert`] over the statuses `scan` gives, each status as the building's
    /// statuses hold it (a fixed text borrowed).
    fn alerts_in(
        &self,
        scan: &StatusScan,
        mut f: impl FnMut(i32, &Building, &'static str, &Cow<'static, str>),
    ) {
        const NONE: Cow<'static, str> = Cow::Borrowed("");
        let mut statuses = Vec::new();
        // (The other buildings have no status.)
        for (id, b) in self.colony.listed(List::MayHaveStatus) {
            statuses.clear();
            self.status_list(*id, b, scan, &mut statuses);
            for s in &statuses {
                match s.as_ref() {
                    "unstaffed" => f(*id, b, "unstaffed", &NONE),
                    "unpowered" => f(*id, b, "unpowered", &NONE),
                    "unreachable" => f(*id, b, "unreachable", &NONE),
                    "paused" | "waiting for builders" | "waiting for materials" => {}
                    _ => f(*id, b, "status", s),
                }
            }
        }
    }

    /// The statuses of a building (why it does not work, or what it waits for).
    pub fn building_statuses(&self, id: i32) -> Vec<String> {
        self.statuses_with(id, &StatusScan::single())
    }

    /// [`World::building_statuses`] with what `scan` shares between buildings.
    pub(crate) fn statuses_with(&self, id: i32, scan: &StatusScan) -> Vec<String> {
        match self.colony.buildings.get(&id) {
            Some(b) => self.statuses_of(id, b, scan),
            None => Vec::new(),
        }
    }

    /// The statuses of building `id`, `b`.
    pub(crate) fn statuses_of(&self, id: i32, b: &Building, scan: &StatusScan) -> Vec<String> {
        let mut out = Vec::new();
        self.status_list(id, b, scan, &mut out);
        out.into_iter().map(Cow::into_owned).collect()
    }

    /// [`World::statuses_of`] appended to `out`, without copying the fixed texts.
    pub(crate) fn status_list(
        &self,
        id: i32,
        b: &Building,
        scan: &StatusScan,
        out: &mut Vec<Cow<'static, str>>,
    ) {
        let kind = b.kind();
        let all = !scan.alert_kinds_only;
        if !b.finished {
            if !all {
                // (The materials' status is no alert.)
            } else if b.material_progress() < 1.0 {
                let lacking = b.cost().iter().any(|c| {
                    b.material_missing(&c.good) > 0
                        && self.none_available(b.district, &c.good, scan)
                });
                if lacking {
                    out.push("lacks materials".into());
                } else {
                    out.push("waiting for materials".into());
                }
            } else {
                out.push("waiting for builders".into());
            }
            if b.district.is_none() && !matches!(kind, Kind::Path | Kind::Stairs) {
                out.push("unreachable".into());
            }
            return;
        }
        if b.paused {
            out.push("paused".into());
        }
        if b.district.is_none() && b.has_entrance() {
            out.push("unreachable".into());
        }
        if kind == Kind::Manufactory
            && let Some(why) = self.manufactory_blocker(id)
        {
            out.push(why.into());
        }
        if all
            && kind == Kind::AreaEffect
            && b.prefab.effect_science_per_hour() > self.science.points
        {
            out.push("lacks science".into());
        }
        if all && kind == Kind::BreedingPod && b.inventory.is_empty() && !b.cycle_started {
            out.push("lacks nutrients".into());
        }
        // (Only a finished, working building drawing power has a power status.)
        if b.spec().power.input > 0.0
            && !b.paused
            && let Some(s) = self.power_status(id)
        {
            out.push(s.into());
        }
        if all {
            self.producer_stalls(id, b, scan, out);
        }
        if b.is_workplace() && b.workers.is_empty() && b.desired_workers > 0 && !b.paused {
            out.push("unstaffed".into());
            if !all {
                return;
            }
            // Why: every adult works somewhere ranked at least as high (priority, then water,
            // food, the rest), or the district has no adult able to work at all.
            let adults = self.able_adults(b.district, scan);
            out.push(if adults == 0 {
                "unstaffed: no one able to work in the district".into()
            } else {
                "unstaffed: lower priority".into()
            });
        }
    }

    /// Whether `district` (none: no district) has no unit of `good` available in its stores.
    fn none_available(&self, district: Option<i32>, good: &str, scan: &StatusScan) -> bool {
        let Some(d) = district else {
            return true;
        };
        let mut cache = scan.out_of.borrow_mut();
        let stock = cache.entry(d).or_insert_with(|| {
            let stock = self.colony.district_stock(d);
            stock
                .into_iter()
                .map(|(g, (avail, _))| (g, avail == 0))
                .collect()
        });
        // (A good the district holds none of is not in its stock at all.)
        stock.get(good).copied().unwrap_or(true)
    }

    /// Whether a store of `district` takes `good` now.
    fn store_takes(&self, district: Option<i32>, good: &str, scan: &StatusScan) -> bool {
        let Some(d) = district else {
            return false;
        };
        if let Some(taken) = scan.stored.borrow().get(&d).and_then(|g| g.get(good)) {
            return *taken;
        }
        let taken = self
            .colony
            .stores_of(d)
            .iter()
            .any(|s| self.colony.buildings[s].storage_accepts(good) > 0);
        let mut cache = scan.stored.borrow_mut();
        cache.entry(d).or_default().insert(good.to_owned(), taken);
        taken
    }

    /// Adults of a district able to work (not children, not kept from work).
    fn able_adults(&self, district: Option<i32>, scan: &StatusScan) -> usize {
        let faction = self.faction;
        let able = |v: &super::beaver::Beaver| !v.child && !v.kept_from_work(faction);
        if !scan.batch {
            return self
                .colony
                .beavers
                .values()
                .filter(|v| v.district == district && able(v))
                .count();
        }
        let counts = scan.adults.get_or_init(|| {
            let mut counts = BTreeMap::new();
            for v in self.colony.beavers.values().filter(|v| able(v)) {
                *counts.entry(v.district).or_insert(0) += 1;
            }
            counts
        });
        counts.get(&district).copied().unwrap_or(0)
    }

    /// Whether a `ready` plant ([`cuttable`] trees or [`gatherable`] bushes) stands within
    /// `range` (ground Manhattan distance) of `door`. In a batch, the ready plants (those on
    /// their own tile) are sorted into map cells once and the cells the range overlaps are
    /// searched: the same plants the tile search finds.
    fn plant_in_range(&self, door: [u32; 3], range: u32, scan: &StatusScan, ready: Ready) -> bool {
        if scan.batch {
            let grids = scan.plants.get_or_init(|| {
                let (w, h) = (self.map.width(), self.map.height());
                let mut grids = [PlantGrid::new(w, h), PlantGrid::new(w, h)];
                for (id, p) in self.land.plants.iter() {
                    let (tree, bush) = (cuttable(self, p), gatherable(self, p));
                    if (tree || bush) && self.land.occupant[self.land.idx(p.x, p.y)] == Some(*id) {
                        let ready = if tree { Ready::Trees } else { Ready::Bushes };
                        grids[ready as usize].add([p.x, p.y]);
                    }
                }
                grids
            });
            return grids[ready as usize].any_within(door, range);
        }
        let ok = match ready {
            Ready::Trees => cuttable,
            Ready::Bushes => gatherable,
        };
        self.nearest_plant(door, range, &BTreeSet::new(), ok)
            .is_some()
    }

    /// Why a producer's workers may stand idle: its output is full, no store of its district
    /// takes a good it holds (`no storage for Log`), nothing ready in its reach (`no trees
    /// marked in range`, `no bushes ready in range`).
    fn producer_stalls(
        &self,
        id: i32,
        b: &Building,
        scan: &StatusScan,
        out: &mut Vec<Cow<'static, str>>,
    ) {
        let kind = b.kind();
        let flag = matches!(
            kind,
            Kind::Lumberjack | Kind::Gatherer | Kind::Scavenger | Kind::Planter
        );
        if b.paused || !(flag || kind == Kind::Manufactory) {
            return;
        }
        if flag && b.capacity() > 0 && b.stock() >= b.capacity() {
            out.push("output full".into());
        }
        let recipe = match b.recipe.as_deref() {
            Some(r) if !b.inventory.is_empty() => crate::content::content().recipes.get(r),
            _ => None,
        };
        let input = |g: &str| recipe.is_some_and(|r| r.inputs.iter().any(|i| i.good == g));
        for good in b.inventory.keys().filter(|g| !input(g)) {
            if !self.store_takes(b.district, good, scan) {
                out.push(format!("no storage for {good}").into());
            }
        }
        // (Only lumberjacks and gatherers look at their range.)
        if !matches!(kind, Kind::Lumberjack | Kind::Gatherer) {
            return;
        }
        let (Some(door), range) = (self.colony.door(id), b.prefab.work_range()) else {
            return;
        };
        match kind {
            Kind::Lumberjack if !self.plant_in_range(door, range, scan, Ready::Trees) => {
                out.push("no trees marked in range".into());
            }
            Kind::Gatherer if !self.plant_in_range(door, range, scan, Ready::Bushes) => {
                out.push("no bushes ready in range".into());
            }
            _ => {}
        }
    }
}

//! Building statuses: why a building does not work or what it waits for (`statuses` of the
//! building view, and the alerts the colony announces every hour).
//!
//! A status depends on the building and on colony-wide facts (a district's stock and able
//! adults, the plants in a work range). Asked for one building, those facts are looked up
//! directly; [`StatusScan::batch`] is for asking about every building at once (the hourly
//! alerts, the building list): it works each fact out once per district or per plant kind and
//! shares it between the buildings, with the same answers.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use super::building::{Building, Kind};
use crate::catalog::PlantKind;
use crate::land::Plant;
use crate::world::World;

/// What the statuses of many buildings share, worked out on first use.
pub(crate) struct StatusScan {
    batch: bool,
    /// Only the statuses alerts are counted by (`unreachable`, `unpowered`, `unstaffed`): the
    /// costlier checks that can give none of them (materials, stalls, science, nutrients, why
    /// a place is unstaffed) are skipped.
    alert_kinds_only: bool,
    /// Able adults (not children, not kept from work) per district.
    adults: OnceCell<BTreeMap<Option<i32>, usize>>,
    /// Tiles of the trees a lumberjack can cut now (grown, in the cutting area), row by row.
    trees: OnceCell<Vec<[u32; 2]>>,
    /// Tiles of the bushes a gatherer can pick now, row by row.
    bushes: OnceCell<Vec<[u32; 2]>>,
}

impl StatusScan {
    /// For one building: nothing is gathered ahead.
    pub(crate) fn single() -> StatusScan {
        StatusScan {
            batch: false,
            alert_kinds_only: false,
            adults: OnceCell::new(),
            trees: OnceCell::new(),
            bushes: OnceCell::new(),
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

/// A tree a lumberjack can cut now.
fn cuttable(w: &World, p: &Plant) -> bool {
    p.alive && p.grown() && p.kind() == PlantKind::Tree && w.land.cutting[w.land.idx(p.x, p.y)]
}

/// A bush with fruit to gather now.
fn gatherable(_: &World, p: &Plant) -> bool {
    p.alive && p.kind() == PlantKind::Bush && p.fruit >= 1.0
}

impl World {
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
        let kind = b.kind();
        let all = !scan.alert_kinds_only;
        if !b.finished {
            if !all {
                // (The materials' status is no alert.)
            } else if b.material_progress() < 1.0 {
                let stock = b
                    .district
                    .map(|d| self.colony.district_stock(d))
                    .unwrap_or_default();
                let lacking = b.cost().iter().any(|c| {
                    b.material_missing(&c.good) > 0
                        && stock.get(&c.good).is_none_or(|(avail, _)| *avail == 0)
                });
                if lacking {
                    out.push("lacks materials".to_owned());
                } else {
                    out.push("waiting for materials".to_owned());
                }
            } else {
                out.push("waiting for builders".to_owned());
            }
            if b.district.is_none() && !matches!(kind, Kind::Path | Kind::Stairs) {
                out.push("unreachable".to_owned());
            }
            return out;
        }
        if b.paused {
            out.push("paused".to_owned());
        }
        if b.district.is_none() && super::geometry::has_entrance(b.spec()) {
            out.push("unreachable".to_owned());
        }
        if kind == Kind::Manufactory
            && let Some(why) = self.manufactory_blocker(id)
        {
            out.push(why.to_owned());
        }
        if all
            && kind == Kind::AreaEffect
            && super::building::effect_science_per_hour(b.spec()) > self.science.points
        {
            out.push("lacks science".to_owned());
        }
        if all && kind == Kind::BreedingPod && b.inventory.is_empty() && !b.cycle_started {
            out.push("lacks nutrients".to_owned());
        }
        // (Only a finished, working building drawing power has a power status.)
        if b.spec().power.input > 0.0
            && !b.paused
            && let Some(s) = self.power_status(id)
        {
            out.push(s.to_owned());
        }
        if all {
            out.extend(self.producer_stalls(id, b, scan));
        }
        if b.is_workplace() && b.workers.is_empty() && b.desired_workers > 0 && !b.paused {
            out.push("unstaffed".to_owned());
            if !all {
                return out;
            }
            // Why: every adult works somewhere ranked at least as high (priority, then water,
            // food, the rest), or the district has no adult able to work at all.
            let adults = self.able_adults(b.district, scan);
            out.push(if adults == 0 {
                "unstaffed: no one able to work in the district".to_owned()
            } else {
                "unstaffed: lower priority".to_owned()
            });
        }
        out
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

    /// Whether a plant `ok` accepts stands within `range` (ground Manhattan distance) of `door`.
    /// In a batch, the accepted plants are listed once (`list`); while they are fewer than the
    /// tiles in range, the list is searched instead of the tiles.
    fn plant_in_range(
        &self,
        door: [u32; 3],
        range: u32,
        list: Option<&OnceCell<Vec<[u32; 2]>>>,
        ok: fn(&World, &Plant) -> bool,
    ) -> bool {
        if let Some(list) = list {
            let list = list.get_or_init(|| {
                self.land
                    .plants
                    .iter()
                    .filter(|(id, p)| {
                        ok(self, p) && self.land.occupant[self.land.idx(p.x, p.y)] == Some(**id)
                    })
                    .map(|(_, p)| [p.x, p.y])
                    .collect()
            });
            let area = 2 * u64::from(range) * u64::from(range + 1) + 1;
            if (list.len() as u64) < area {
                return list
                    .iter()
                    .any(|[x, y]| x.abs_diff(door[0]) + y.abs_diff(door[1]) <= range);
            }
        }
        self.nearest_plant(door, range, &BTreeSet::new(), ok)
            .is_some()
    }

    /// Why a producer's workers may stand idle: its output is full, no store of its district
    /// takes a good it holds (`no storage for Log`), nothing ready in its reach (`no trees
    /// marked in range`, `no bushes ready in range`).
    fn producer_stalls(&self, id: i32, b: &Building, scan: &StatusScan) -> Vec<String> {
        let kind = b.kind();
        let flag = matches!(
            kind,
            Kind::Lumberjack | Kind::Gatherer | Kind::Scavenger | Kind::Planter
        );
        if b.paused || !(flag || kind == Kind::Manufactory) {
            return Vec::new();
        }
        let mut out = Vec::new();
        if flag && b.capacity() > 0 && b.stock() >= b.capacity() {
            out.push("output full".to_owned());
        }
        let inputs: Vec<&str> = b
            .recipe
            .as_deref()
            .and_then(|r| crate::content::content().recipes.get(r))
            .map(|r| r.inputs.iter().map(|i| i.good.as_str()).collect())
            .unwrap_or_default();
        let stores = b
            .district
            .map(|d| self.colony.stores_of(d))
            .unwrap_or_default();
        for good in b.inventory.keys().filter(|g| !inputs.contains(&g.as_str())) {
            let taken = stores
                .iter()
                .any(|s| self.colony.buildings[s].storage_accepts(good) > 0);
            if !taken {
                out.push(format!("no storage for {good}"));
            }
        }
        let (Some(door), range) = (self.colony.door(id), super::building::work_range(b.spec()))
        else {
            return out;
        };
        let batch = |cell| scan.batch.then_some(cell);
        match kind {
            Kind::Lumberjack if !self.plant_in_range(door, range, batch(&scan.trees), cuttable) => {
                out.push("no trees marked in range".to_owned());
            }
            Kind::Gatherer
                if !self.plant_in_range(door, range, batch(&scan.bushes), gatherable) =>
            {
                out.push("no bushes ready in range".to_owned());
            }
            _ => {}
        }
        out
    }
}

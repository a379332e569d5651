//! Lists of the buildings a pass concerns (workplaces, area effects, attractions, dwellings,
//! breeding pods, beds that suspend needs, beehives, wonders, the buildings that may have a
//! status, construction sites), kept beside the district member lists and rebuilt with them when
//! the layout changes, so a pass visits its few buildings instead of every path; and the
//! buildings counted by the summary's roles, counted in the same rebuild. Each list is in
//! id order, as a walk of all buildings would visit them. Also [`Reach`]: ranges sorted into map
//! cells.

use super::Colony;
use super::building::{Building, Kind};
use super::summary::SUMMARY_ROLES;

/// Buildings counted by each of [`SUMMARY_ROLES`].
pub(crate) type RoleCounts = [u32; SUMMARY_ROLES.len()];

/// Counts `b` under its summary role, if it has one (paths have none).
fn count_role(roles: &mut RoleCounts, b: &Building) {
    if let Some(r) = b.prefab.summary_role() {
        roles[r] += 1;
    }
}

/// A list of buildings kept by [`Colony::listed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum List {
    /// Buildings that can have workers: a workplace (`maxWorkers` > 0), or one with desired or
    /// assigned workers (workers are hired only where `desired_workers` > 0, and desired
    /// workers are set only on workplaces, so no other building gains any between rebuilds).
    Workplaces,
    AreaEffects,
    Attractions,
    Dwellings,
    BreedingPods,
    /// Beds holding Sleep and Shelter while a patient lies in them (Medical Bed, pods).
    NeedSuspending,
    Beehives,
    Wonders,
    /// Every building but finished paths and stairs that can have no status (not paused, no
    /// entrance, no power input, no workers; a walkway cannot be paused, and the rest comes
    /// with the prefab): those the alerts ask about.
    MayHaveStatus,
    /// Construction sites (not finished; finishing a building moves the layout version).
    Sites,
}

impl List {
    pub(crate) const ALL: [List; 10] = [
        List::Workplaces,
        List::AreaEffects,
        List::Attractions,
        List::Dwellings,
        List::BreedingPods,
        List::NeedSuspending,
        List::Beehives,
        List::Wonders,
        List::MayHaveStatus,
        List::Sites,
    ];

    /// Whether building `b` belongs to this list (decided by what changes only with the layout:
    /// the prefab, and for workplaces what only a workplace can gain).
    pub(crate) fn holds(self, b: &Building) -> bool {
        match self {
            List::Workplaces => {
                b.spec().max_workers > 0 || b.desired_workers > 0 || !b.workers.is_empty()
            }
            List::AreaEffects => b.kind() == Kind::AreaEffect,
            List::Attractions => b.kind() == Kind::Attraction,
            List::Dwellings => b.kind() == Kind::Dwelling,
            List::BreedingPods => b.kind() == Kind::BreedingPod,
            List::NeedSuspending => b
                .spec()
                .components
                .iter()
                .any(|c| c == "EntererNeedSuspendingBuildingSpec"),
            List::Beehives => b.spec().base_name == "Beehive",
            List::Wonders => super::wonder::is_wonder(b.spec()),
            List::MayHaveStatus => !quiet_walkway(b),
            List::Sites => !b.finished,
        }
    }
}

/// A finished path or stairs that can have no status: not paused, no entrance, no power input,
/// no workers.
fn quiet_walkway(b: &Building) -> bool {
    b.finished
        && matches!(b.kind(), Kind::Path | Kind::Stairs)
        && !b.paused
        && !b.has_entrance()
        && b.spec().power.input <= 0.0
        && !b.is_workplace()
}

impl Colony {
    /// Rebuilds every list (with the member lists, when the layout changed).
    pub(crate) fn rebuild_lists(&mut self) {
        let mut lists = vec![Vec::new(); List::ALL.len()];
        let mut flags = Vec::with_capacity(self.buildings.len());
        let mut roles = RoleCounts::default();
        for (id, b) in self.buildings.iter() {
            count_role(&mut roles, b);
            let mut f = 0u16;
            for l in List::ALL {
                if l.holds(b) {
                    lists[l as usize].push(*id);
                    f |= 1 << l as u16;
                }
            }
            flags.push(f);
        }
        self.lists = lists.into();
        self.list_flags = flags.into();
        self.summary_roles = roles;
    }

    /// Buildings counted by [`SUMMARY_ROLES`] (finished or not; paths not counted): from the
    /// count made with the lists while they are valid, else by scanning every building.
    pub(crate) fn summary_roles(&self) -> RoleCounts {
        if self.stores_for == self.layout_version {
            return self.summary_roles;
        }
        let mut roles = RoleCounts::default();
        for b in self.buildings.values() {
            count_role(&mut roles, b);
        }
        roles
    }

    /// The buildings of a list with their ids, in id order: from the cached list while it is
    /// valid, else by scanning every building. A list of more than an eighth of the buildings
    /// is read by walking the building table with each building's list flags (the same
    /// buildings while the layout is unchanged), without looking each one up.
    pub(crate) fn listed(&self, list: List) -> Box<dyn Iterator<Item = (&i32, &Building)> + '_> {
        if self.stores_for == self.layout_version
            && let Some(ids) = self.lists.get(list as usize)
        {
            if ids.len() * 8 > self.buildings.len() && self.list_flags.len() == self.buildings.len()
            {
                let bit = 1u16 << list as u16;
                return Box::new(
                    self.buildings
                        .iter()
                        .zip(self.list_flags.iter())
                        .filter(move |(_, f)| **f & bit != 0)
                        .map(|(e, _)| e),
                );
            }
            return Box::new(ids.iter().map(|id| (id, &self.buildings[id])));
        }
        Box::new(self.buildings.iter().filter(move |(_, b)| list.holds(b)))
    }
}

/// Side of the square map cells [`Reach`] sorts ranges into (tiles).
const CELL: u32 = 16;

/// Which of some ranges (origin, Manhattan radius) may hold a position: each range is listed in
/// every map cell its bounding square overlaps, in the order given, so a position looks only at
/// the ranges of its cell (a superset of those that reach it, in the same order).
pub(crate) struct Reach {
    cols: u32,
    rows: u32,
    cells: Vec<Vec<usize>>,
}

impl Reach {
    /// `ranges` on a map of `width` x `height` tiles.
    pub(crate) fn new(
        ranges: impl Iterator<Item = ([u32; 3], u32)>,
        width: u32,
        height: u32,
    ) -> Reach {
        let (cols, rows) = (width.div_ceil(CELL).max(1), height.div_ceil(CELL).max(1));
        let mut cells = vec![Vec::new(); (cols * rows) as usize];
        for (i, (at, r)) in ranges.enumerate() {
            let cx0 = (at[0].saturating_sub(r) / CELL).min(cols - 1);
            let cx1 = (at[0].saturating_add(r) / CELL).min(cols - 1);
            let cy0 = (at[1].saturating_sub(r) / CELL).min(rows - 1);
            let cy1 = (at[1].saturating_add(r) / CELL).min(rows - 1);
            for cy in cy0..=cy1 {
                for cx in cx0..=cx1 {
                    cells[(cy * cols + cx) as usize].push(i);
                }
            }
        }
        Reach { cols, rows, cells }
    }

    /// The indices of the ranges that may hold `pos`, ascending (check each range's distance).
    pub(crate) fn near(&self, pos: [u32; 3]) -> &[usize] {
        let cx = (pos[0] / CELL).min(self.cols - 1);
        let cy = (pos[1] / CELL).min(self.rows - 1);
        &self.cells[(cy * self.cols + cx) as usize]
    }
}

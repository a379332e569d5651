//! The colony's part of the summary in one walk over the beavers and one over the dwellings and
//! the workplaces (the building counts by role kept with the building lists):
//! what [`World::districts`], [`World::wellbeing`], [`World::colony_stock`] and
//! [`World::building_roles`] give, each of which walks the colony on its own (the districts'
//! wellbeing, the colony's and its categories each evaluated every beaver's needs again).

use std::collections::BTreeMap;

use super::beaver::need_defs;
use super::building::dwelling_capacity;
use super::lists::List;
use super::views::{DistrictView, round2};
use crate::world::World;

/// The roles the summary counts buildings by, in its order (paths are not counted; any other
/// role counts as `others`).
pub const SUMMARY_ROLES: [&str; 7] = [
    "housing", "wood", "storage", "power", "food", "water", "others",
];

/// The [`SUMMARY_ROLES`] index of a catalogue role (`None`: paths, not counted).
pub(super) fn summary_role(role: &str) -> Option<u8> {
    if role == "paths" {
        return None;
    }
    let i = SUMMARY_ROLES[..6].iter().position(|r| *r == role);
    Some(i.unwrap_or(6) as u8)
}

/// A need group's wellbeing, colony-wide: the average of the beavers' points in it (two
/// decimals) and the most it can give.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupWellbeing {
    pub group: &'static str,
    pub current: f64,
    pub max: f64,
}

/// The colony's part of the summary ([`World::colony_summary`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ColonySummary {
    /// As [`World::districts`].
    pub districts: Vec<DistrictView>,
    /// Colony-wide stock, good to total (as [`World::colony_stock`]'s totals).
    pub stock: BTreeMap<String, u32>,
    /// As [`World::wellbeing`]: average, miserable, critical, and by need group.
    pub average: f64,
    pub miserable: u32,
    pub critical: u32,
    pub categories: Vec<GroupWellbeing>,
    /// Building counts by [`SUMMARY_ROLES`] (as [`World::building_roles`]), in that order.
    pub roles: [u32; 7],
}

/// A district's running numbers.
#[derive(Default)]
struct Tally {
    adults: u32,
    children: u32,
    bots: u32,
    beds: u32,
    occupied: u32,
    assigned: u32,
    vacancies: u32,
    homeless: u32,
    unemployed: u32,
    beavers: usize,
    wellbeing: f64,
    miserable: u32,
    critical: u32,
}

impl World {
    /// The summary's districts, stock, wellbeing and building roles, each the same as its own
    /// read model gives, from one walk over the beavers and one over the dwellings and workplaces.
    pub fn colony_summary(&self) -> ColonySummary {
        let faction = self.faction;
        let ids: Vec<i32> = self.colony.districts.keys().copied().collect();
        let at = |d: Option<i32>| d.and_then(|d| ids.iter().position(|i| *i == d));
        let mut tallies: Vec<Tally> = ids.iter().map(|_| Tally::default()).collect();

        // Need groups in the order of the need table, with their needs' indexes.
        let defs = need_defs(faction, false);
        let mut groups: Vec<(&'static str, Vec<usize>)> = Vec::new();
        for (i, d) in defs.iter().enumerate() {
            match groups.iter_mut().find(|(g, _)| *g == d.group) {
                Some((_, idx)) => idx.push(i),
                None => groups.push((d.group.as_str(), vec![i])),
            }
        }
        let mut group_sums = vec![0.0f64; groups.len()];
        let (mut n, mut sum, mut miserable, mut critical) = (0usize, 0.0f64, 0u32, 0u32);
        for b in self.colony.beavers.values() {
            let district = at(b.district);
            let any_critical = b.any_critical(faction);
            if let Some(t) = district.map(|i| &mut tallies[i]) {
                if b.is_bot {
                    t.bots += 1;
                } else if b.child {
                    t.children += 1;
                } else {
                    t.adults += 1;
                }
                t.homeless += u32::from(!b.is_bot && b.home.is_none());
                // Ailing beavers (injured, contaminated) are unemployable, not unemployed.
                t.unemployed +=
                    u32::from(!b.child && b.workplace.is_none() && !b.kept_from_work(faction));
                t.critical += u32::from(any_critical);
            }
            if b.is_bot {
                continue;
            }
            let wb = b.wellbeing(faction);
            if let Some(t) = district.map(|i| &mut tallies[i]) {
                t.beavers += 1;
                t.wellbeing += wb;
                t.miserable += u32::from(wb < 4.0);
            }
            n += 1;
            sum += wb;
            miserable += u32::from(wb < 4.0);
            critical += u32::from(any_critical);
            for ((_, idx), total) in groups.iter().zip(&mut group_sums) {
                let mut points = 0.0;
                for i in idx {
                    let d = &defs[*i];
                    points += if d.favorable_at(b.needs[*i]) {
                        d.favorable
                    } else {
                        d.unfavorable
                    };
                }
                *total += points;
            }
        }

        // Beds from the dwellings, workers from the workplaces: their lists, not every path.
        let finished_in = |b: &super::Building| if b.finished { at(b.district) } else { None };
        for (_, b) in self.colony.listed(List::Dwellings) {
            if let Some(t) = finished_in(b).map(|i| &mut tallies[i]) {
                t.beds += dwelling_capacity(b.spec()).0;
                t.occupied += b.dwellers.len() as u32;
            }
        }
        for (_, b) in self.colony.listed(List::Workplaces) {
            if !b.is_workplace() || b.paused {
                continue;
            }
            if let Some(t) = finished_in(b).map(|i| &mut tallies[i]) {
                t.assigned += b.workers.len() as u32;
                t.vacancies += b.desired_workers.saturating_sub(b.workers.len() as u32);
            }
        }
        let roles = self.colony.summary_roles();

        let mut stock: BTreeMap<String, u32> = BTreeMap::new();
        let districts = ids
            .iter()
            .zip(tallies)
            .map(|(id, t)| {
                let d = &self.colony.districts[id];
                let resources = self.colony.district_stock(*id);
                for (g, (_, all)) in &resources {
                    *stock.entry(g.clone()).or_default() += all;
                }
                let dc = &self.colony.buildings[id];
                DistrictView {
                    id: *id,
                    name: d.name.clone(),
                    adults: t.adults,
                    children: t.children,
                    bots: t.bots,
                    resources,
                    occupied_beds: t.occupied,
                    total_beds: t.beds,
                    homeless: t.homeless,
                    assigned: t.assigned,
                    vacancies: t.vacancies,
                    unemployed: t.unemployed,
                    wellbeing_average: if t.beavers == 0 {
                        0.0
                    } else {
                        round2(t.wellbeing / t.beavers as f64)
                    },
                    miserable: t.miserable,
                    critical: t.critical,
                    dc: [dc.x, dc.y, dc.z],
                    dc_orientation: dc.orientation.as_str().to_owned(),
                    entrance: self.colony.door(*id).unwrap_or([dc.x, dc.y, dc.z]),
                }
            })
            .collect();
        let categories = groups
            .iter()
            .zip(group_sums)
            .map(|((group, idx), total)| GroupWellbeing {
                group,
                current: if n == 0 {
                    0.0
                } else {
                    round2(total / n as f64)
                },
                max: idx.iter().map(|i| defs[*i].favorable.max(0.0)).sum(),
            })
            .collect();
        ColonySummary {
            districts,
            stock,
            average: if n == 0 { 0.0 } else { round2(sum / n as f64) },
            miserable,
            critical,
            categories,
            roles,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::world::World;

    /// The fused walk gives what each read model gives on its own.
    fn same_as_the_read_models(w: &World) {
        let s = w.colony_summary();
        assert_eq!(s.districts, w.districts());
        let stock: std::collections::BTreeMap<String, u32> = w
            .colony_stock()
            .into_iter()
            .map(|(g, (_, all))| (g, all))
            .collect();
        assert_eq!(s.stock, stock);
        let wb = w.wellbeing();
        assert_eq!(
            (s.average, s.miserable, s.critical),
            (wb.average, wb.miserable, wb.critical)
        );
        let groups: Vec<(&str, f64, f64)> = s
            .categories
            .iter()
            .map(|c| (c.group, c.current, c.max))
            .collect();
        let expected: Vec<(&str, f64, f64)> = wb
            .categories
            .iter()
            .map(|c| (c.group.as_str(), c.current, c.max))
            .collect();
        assert_eq!(groups, expected);
        let roles: Vec<(String, u32)> = super::SUMMARY_ROLES
            .iter()
            .map(|r| {
                (
                    (*r).to_owned(),
                    s.roles[super::SUMMARY_ROLES.iter().position(|x| x == r).unwrap()],
                )
            })
            .collect();
        let mut expected: Vec<(String, u32)> = w.building_roles().into_iter().collect();
        expected.sort_by_key(|(r, _)| super::SUMMARY_ROLES.iter().position(|x| x == r));
        assert_eq!(roles, expected);
    }

    /// Through the building lists while they are valid (an advance leaves them so), and by the
    /// fallback scans once a placement made them stale (until the next tick refreshes them).
    #[test]
    fn the_colony_summary_is_the_read_models_in_one_walk() {
        use crate::testutil::{build, flat_area};
        let mut w = crate::colony::fixtures::small_colony();
        same_as_the_read_models(&w);
        w.advance_ticks(30 * crate::clock::ticks_per_hour());
        assert_eq!(
            w.colony.stores_for, w.colony.layout_version,
            "valid after an advance"
        );
        same_as_the_read_models(&w);
        let (x, y, z) = flat_area(&mut w, 3, 3);
        build(&mut w, "Lodge.Folktails", x, y, z, "south");
        let (x, y, z) = flat_area(&mut w, 3, 3);
        build(&mut w, "LumberjackFlag.Folktails", x, y, z, "south");
        assert_ne!(w.colony.stores_for, w.colony.layout_version, "lists stale");
        same_as_the_read_models(&w);
        let stale = w.colony_summary();
        w.colony.refresh_store_cache();
        assert_eq!(w.colony_summary(), stale);
        same_as_the_read_models(&w);
    }
}

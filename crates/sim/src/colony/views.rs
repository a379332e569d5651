//! Read models of the colony, shaped as the contract's json objects: population, districts,
//! resources, distribution, wellbeing, alerts and notifications, and the list keys every entity
//! list filters by. Buildings' views are in `building_views`, beavers' in `beaver_views`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::beaver::need_defs;
use super::building::{Kind, dwelling_capacity};
use crate::world::World;

/// Buildings with each alert kind the summary counts ([`World::alert_counts`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AlertCounts {
    pub unstaffed: u32,
    pub unpowered: u32,
    pub unreachable: u32,
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
    pub(super) fn district_name(&self, d: Option<i32>) -> String {
        d.and_then(|d| self.colony.districts.get(&d))
            .map(|d| d.name.clone())
            .unwrap_or_default()
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

/// A need's points on the served 0-1 scale (see [`NeedView::points`]).
pub(super) fn served_points(d: &super::beaver::NeedDef, p: f64) -> f64 {
    if d.max > d.min {
        ((p - d.min) / (d.max - d.min)).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

pub(super) fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

pub(super) fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

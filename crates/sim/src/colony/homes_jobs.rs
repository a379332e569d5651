//! Homes and jobs, each hour: homeless beavers move into free beds of their district (adults
//! leaving a dwelling's child slots free while other room exists), workers leave workplaces
//! that stopped (paused, unfinished, unreachable, fewer desired), and unemployed adults and bots
//! fill vacancies by workplace priority, then distance from the district center, then id (food
//! producers first while the district runs short of food).

use std::collections::BTreeMap;

use super::beaver::Step;
use super::building::{Kind, dwelling_capacity};
use super::lists::List;
use super::nav::manhattan;
use super::rules::colony_rules;
use crate::world::World;

/// Below this many days of food, farms and gatherers may take workers from less vital places.
const FOOD_SHORT_DAYS: f64 = 2.0;

impl World {
    /// Homeless beavers move into free beds of their district (children first with family).
    pub(super) fn house_beavers(&mut self) {
        self.rebalance_homes();
        let homeless: Vec<i32> = self
            .colony
            .beavers
            .iter()
            .filter(|(_, b)| b.home.is_none() && !b.is_bot)
            .map(|(id, _)| *id)
            .collect();
        let any_bed = self.colony.listed(List::Dwellings).any(|(_, h)| {
            h.finished
                && h.kind() == Kind::Dwelling
                && h.dwellers.len() < dwelling_capacity(h.spec()).0 as usize
        });
        if homeless.is_empty() || !any_bed {
            return;
        }
        for id in homeless {
            let district = self.colony.beavers[&id].district;
            let is_child = self.colony.beavers[&id].child;
            // The home with the most free beds (so families have room for kits), oldest first.
            let home = self
                .colony
                .listed(List::Dwellings)
                .filter(|(_, h)| h.finished && h.kind() == Kind::Dwelling && h.district == district)
                .filter(|(_, h)| h.dwellers.len() < dwelling_capacity(h.spec()).0 as usize)
                .map(|(hid, h)| {
                    // Adults leave the child slots free while they can (room for a family).
                    let (beds, kid_slots) = dwelling_capacity(h.spec());
                    let reserve = if is_child { 0 } else { i64::from(kid_slots) };
                    let room = i64::from(beds) - reserve - h.dwellers.len() as i64;
                    (room, std::cmp::Reverse(h.seq), *hid)
                })
                .max()
                .map(|(_, _, hid)| hid);
            if let Some(h) = home {
                self.colony
                    .buildings
                    .get_mut(&h)
                    .expect("exists")
                    .dwellers
                    .push(id);
                self.colony.beavers.get_mut(&id).expect("exists").home = Some(h);
            }
        }
    }

    /// One adult a hour moves from a full dwelling without kits to a dwelling of its district
    /// that still has a family's room (beds beyond its child slots), so every home can raise kits.
    fn rebalance_homes(&mut self) {
        let mut full: Option<(i32, i32)> = None;
        let mut roomy: Option<i32> = None;
        for (hid, h) in self.colony.listed(List::Dwellings) {
            if !h.finished || h.kind() != Kind::Dwelling {
                continue;
            }
            let (beds, kid_slots) = dwelling_capacity(h.spec());
            let kids = h
                .dwellers
                .iter()
                .filter(|d| self.colony.beavers.get(d).is_some_and(|b| b.child))
                .count();
            if full.is_none() && h.dwellers.len() >= beds as usize && kids == 0 && kid_slots > 0 {
                if let Some(last) = h.dwellers.last() {
                    full = Some((*hid, *last));
                }
            } else if roomy.is_none() && (h.dwellers.len() as u32) + kid_slots < beds {
                roomy = Some(*hid);
            }
        }
        let (Some((from, who)), Some(to)) = (full, roomy) else {
            return;
        };
        if self.colony.buildings[&from].district != self.colony.buildings[&to].district {
            return;
        }
        self.colony
            .buildings
            .get_mut(&from)
            .expect("exists")
            .dwellers
            .retain(|d| *d != who);
        self.colony
            .buildings
            .get_mut(&to)
            .expect("exists")
            .dwellers
            .push(who);
        if let Some(b) = self.colony.beavers.get_mut(&who) {
            b.home = Some(to);
        }
    }

    /// Releases workers from workplaces that stopped and fills vacancies.
    pub(super) fn employ_beavers(&mut self) {
        let faction = self.faction;
        // Release: ailing workers (injured, contaminated) are unemployable until well. Only
        // buildings with workers have any to release (and releasing hires no one).
        let ids: Vec<i32> = self
            .colony
            .listed(List::Workplaces)
            .filter(|(_, b)| !b.workers.is_empty())
            .map(|(id, _)| *id)
            .collect();
        for bid in &ids {
            let b = &self.colony.buildings[bid];
            let ailing: Vec<i32> = b
                .workers
                .iter()
                .copied()
                .filter(|w| {
                    self.colony
                        .beavers
                        .get(w)
                        .is_some_and(|v| v.kept_from_work(faction))
                })
                .collect();
            if !ailing.is_empty() {
                let b = self.colony.buildings.get_mut(bid).expect("exists");
                b.workers.retain(|w| !ailing.contains(w));
                for w in ailing {
                    if let Some(bv) = self.colony.beavers.get_mut(&w) {
                        bv.workplace = None;
                    }
                }
            }
            let b = &self.colony.buildings[bid];
            let keep = if !b.finished || b.paused || b.district.is_none() {
                0
            } else {
                b.desired_workers as usize
            };
            if b.workers.len() > keep {
                let gone: Vec<i32> = b.workers[keep..].to_vec();
                self.colony
                    .buildings
                    .get_mut(bid)
                    .expect("exists")
                    .workers
                    .truncate(keep);
                for w in gone {
                    if let Some(bv) = self.colony.beavers.get_mut(&w) {
                        bv.workplace = None;
                    }
                    if self.colony.beavers[&w]
                        .plan
                        .iter()
                        .any(|s| matches!(s, Step::Work { building, .. } if building == bid))
                    {
                        self.abort_plan(w);
                    }
                }
            }
        }
        // Hire.
        let mut open: Vec<(std::cmp::Reverse<super::Priority>, u8, u32, i32)> = Vec::new();
        for (bid, b) in self.colony.listed(List::Workplaces) {
            if !b.finished || b.paused || b.workers.len() as u32 >= b.desired_workers {
                continue;
            }
            let Some(d) = b.district else { continue };
            let dc_door = self.colony.door(d).unwrap_or([b.x, b.y, b.z]);
            let door = self.colony.door(*bid).unwrap_or([b.x, b.y, b.z]);
            open.push((
                std::cmp::Reverse(b.workplace_priority),
                super::building::vital_rank(b.spec()),
                manhattan(dc_door, door),
                *bid,
            ));
        }
        open.sort();
        if open.is_empty() {
            return;
        }
        let mut idle: std::collections::BTreeMap<Option<i32>, std::collections::VecDeque<i32>> =
            std::collections::BTreeMap::new();
        for (id, bv) in &self.colony.beavers {
            if !bv.child && bv.workplace.is_none() && !bv.kept_from_work(faction) {
                idle.entry(bv.district).or_default().push_back(*id);
            }
        }
        // Searches for a worker to take that found none, by (district, rank, short): vacancies
        // come best-first, so a later one of the same kind would find none either.
        let mut dry = std::collections::BTreeSet::new();
        let mut food_short: BTreeMap<i32, bool> = BTreeMap::new();
        for (_, _, _, bid) in open {
            loop {
                let b = &self.colony.buildings[&bid];
                if b.workers.len() as u32 >= b.desired_workers {
                    break;
                }
                let district = b.district;
                let idle_one = idle.get_mut(&district).and_then(|q| q.pop_front());
                let w = match idle_one {
                    Some(w) => Some(w),
                    None => {
                        let short = match b.spec().role.as_str() {
                            "water" => true,
                            "food" => district.is_some_and(|d| {
                                *food_short
                                    .entry(d)
                                    .or_insert_with(|| self.food_days(d) < FOOD_SHORT_DAYS)
                            }),
                            _ => false,
                        };
                        let key = (
                            district,
                            b.workplace_priority,
                            super::building::vital_rank(b.spec()),
                            short,
                        );
                        if dry.contains(&key) {
                            None
                        } else {
                            let taken = self.take_worker_for(bid, short);
                            if taken.is_none() {
                                dry.insert(key);
                            }
                            taken
                        }
                    }
                };
                let Some(w) = w else {
                    break;
                };
                self.colony
                    .buildings
                    .get_mut(&bid)
                    .expect("exists")
                    .workers
                    .push(w);
                let bv = self.colony.beavers.get_mut(&w).expect("exists");
                bv.workplace = Some(bid);
            }
        }
    }

    /// A worker moved to workplace `to` from the lowest-ranked staffed workplace of its district
    /// (rank: workplace priority, then how vital its role is: water, food, wood, the rest). Any
    /// workplace of a lower priority gives way; at the same priority only a less vital one, and
    /// only when the district is `short` of what `to` makes (the caller decides: always for
    /// water, so a pump is never left empty while a lumberjack works; for food when the district
    /// holds less than [`FOOD_SHORT_DAYS`] of eating). `None` when no workplace gives way.
    fn take_worker_for(&mut self, to: i32, short: bool) -> Option<i32> {
        let rank = |b: &super::building::Building| {
            (
                std::cmp::Reverse(b.workplace_priority),
                super::building::vital_rank(b.spec()),
            )
        };
        let target = &self.colony.buildings[&to];
        let (want, district) = (rank(target), target.district);
        let priority = target.workplace_priority;
        let donor = self
            .colony
            .listed(List::Workplaces)
            .filter(|(id, b)| {
                **id != to
                    && b.district == district
                    && !b.workers.is_empty()
                    && b.kind() != Kind::DistrictCenter
                    && rank(b) > want
                    && (b.workplace_priority < priority || short)
            })
            .max_by_key(|(id, b)| (rank(b), std::cmp::Reverse(**id)))
            .map(|(id, _)| *id)?;
        let w = self
            .colony
            .buildings
            .get_mut(&donor)
            .expect("exists")
            .workers
            .pop()?;
        if let Some(bv) = self.colony.beavers.get_mut(&w) {
            bv.workplace = None;
        }
        if self.colony.beavers[&w]
            .plan
            .iter()
            .any(|s| matches!(s, Step::Work { building, .. } if *building == donor))
        {
            self.abort_plan(w);
        }
        Some(w)
    }

    /// Days the district's food stock lasts its beavers.
    fn food_days(&self, district: i32) -> f64 {
        let food: u32 = self
            .colony
            .district_stock(district)
            .iter()
            .filter(|(g, _)| super::behave::is_food(g))
            .map(|(_, (avail, _))| *avail)
            .sum();
        let eaters = self
            .colony
            .beavers
            .values()
            .filter(|b| !b.is_bot && b.district == Some(district))
            .count();
        let per_day = colony_rules().consumption.food_per_beaver_per_day.value;
        f64::from(food) / (eaters.max(1) as f64 * per_day)
    }
}

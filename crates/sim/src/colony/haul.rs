//! Hauling: a hauler's next trip, from stores and producers' outputs to construction sites,
//! buildings with inputs and stores obtaining goods (targets by haul priority, then distance),
//! reserved on both ends (`outgoing`, `incoming`) from planning until delivery, so two haulers
//! never count on the same units.

use super::beaver::Step;
use super::behave::{carry_units, input_wants, is_food, walk, wants_any, wants_good};
use super::building::{Kind, StorageMode};
use super::nav::manhattan;
use crate::world::World;

impl World {
    /// A hauling job in the district (see the module docs), reserved on both ends.
    pub(crate) fn haul_plan(&mut self, district: i32, here: [u32; 3]) -> Vec<Step> {
        // A search that found nothing is not repeated by other haulers in the same tick.
        if self.colony.no_haul.get(&district) == Some(&self.ticks) {
            return Vec::new();
        }
        match self.find_haul(district, here) {
            Some(job) => self.reserve_trip(job),
            None => {
                self.colony.no_haul.insert(district, self.ticks);
                Vec::new()
            }
        }
    }

    /// Reserves a hauling job on both ends and plans the trip.
    pub(super) fn reserve_trip(
        &mut self,
        (from, to, good, amount): (i32, i32, String, u32),
    ) -> Vec<Step> {
        let (Some(fd), Some(td)) = (self.colony.door(from), self.colony.door(to)) else {
            return Vec::new();
        };
        *self
            .colony
            .buildings
            .get_mut(&from)
            .expect("source exists")
            .outgoing
            .entry(good.clone())
            .or_default() += amount;
        *self
            .colony
            .buildings
            .get_mut(&to)
            .expect("target exists")
            .incoming
            .entry(good.clone())
            .or_default() += amount;
        vec![
            walk(fd),
            Step::Pickup {
                from,
                to,
                good: good.clone(),
                amount,
            },
            walk(td),
            Step::Deliver { to, good, amount },
        ]
    }

    /// Finds (source, target, good, amount) for a hauler.
    fn find_haul(&self, district: i32, here: [u32; 3]) -> Option<(i32, i32, String, u32)> {
        let c = &self.colony;
        let stores = c.stores_of(district);
        // Sources: stores (not those obtaining for themselves) and the outputs of producers.
        // Targets: only buildings some kind of job can involve: sites, buildings with inputs,
        // buildings holding goods, stores obtaining goods. Both from one pass over the district.
        type Target = (bool, std::cmp::Reverse<super::building::Priority>, u32, i32);
        let mut producers: Vec<i32> = Vec::new();
        let mut targets: Vec<Target> = Vec::new();
        for (id, b) in c.haul_members_in(district) {
            if b.finished
                && !b.inventory.is_empty()
                && !matches!(
                    b.kind(),
                    Kind::Storage | Kind::DistrictCenter | Kind::BreedingPod | Kind::Dwelling
                )
            {
                producers.push(*id);
            }
            if !b.finished
                || !b.inventory.is_empty()
                || (b.kind() == Kind::Storage && b.storage_mode == StorageMode::Obtain)
                || wants_any(b)
            {
                let p = if b.finished {
                    b.workplace_priority
                } else {
                    b.construction_priority
                };
                targets.push((!b.haul_prioritized, std::cmp::Reverse(p), b.seq, *id));
            }
        }
        let source_for = |good: &str, exclude: i32, near: [u32; 3]| -> Option<(i32, u32)> {
            stores
                .iter()
                .chain(&producers)
                .filter(|s| **s != exclude)
                .filter_map(|s| {
                    let b = &c.buildings[s];
                    let is_input = wants_good(b, good);
                    let n = b.available(good);
                    (n > 0
                        && !is_input
                        && (b.storage_mode != StorageMode::Obtain
                            || b.kind() == Kind::DistrictCenter))
                        .then(|| (*s, n, manhattan(near, c.door(*s).unwrap_or(near))))
                })
                .min_by_key(|(s, _, d)| (*d, *s))
                .map(|(s, n, _)| (s, n))
        };
        targets.sort();
        // 0. Water and food short in stock (under a day's need) move to storage before anything.
        let stock = c.district_stock(district);
        let people = c
            .beavers
            .values()
            .filter(|b| b.district == Some(district) && !b.is_bot)
            .count() as u32;
        let short = |good: &str| {
            (good == "Water" || is_food(good))
                && stock.get(good).map_or(0, |(avail, _)| *avail) < people * 3
        };
        for (_, _, _, id) in &targets {
            if let Some(job) = self.output_job_in(&stores, district, *id, here, &short) {
                return Some(job);
            }
        }
        // 1. Construction materials.
        for (_, _, _, id) in &targets {
            let b = &c.buildings[id];
            if b.finished {
                continue;
            }
            let door = c.door(*id).unwrap_or(here);
            for cost in b.cost() {
                let missing = b.material_missing(&cost.good);
                if missing == 0 {
                    continue;
                }
                if let Some((src, n)) = source_for(&cost.good, *id, door) {
                    let amount = missing.min(n).min(carry_units(&cost.good));
                    return Some((src, *id, cost.good.clone(), amount));
                }
            }
        }
        // 2. Recipe inputs and breeding-pod nutrients.
        for (_, _, _, id) in &targets {
            let b = &c.buildings[id];
            if !b.finished || b.paused {
                continue;
            }
            let door = c.door(*id).unwrap_or(here);
            for (good, want) in input_wants(b) {
                let have = b.has(&good) + b.incoming_of(&good);
                if have >= want {
                    continue;
                }
                if let Some((src, n)) = source_for(&good, *id, door) {
                    let amount = (want - have).min(n).min(carry_units(&good));
                    return Some((src, *id, good, amount));
                }
            }
        }
        // 3. Outputs of workplaces (and stores being emptied or supplying) to storage.
        for (_, _, _, id) in &targets {
            if let Some(job) = self.output_job_in(&stores, district, *id, here, &|_| true) {
                return Some(job);
            }
        }
        // 4. Stores in obtain mode pull their good from other stores.
        for (_, _, _, id) in &targets {
            let b = &c.buildings[id];
            if b.kind() != Kind::Storage || b.storage_mode != StorageMode::Obtain || !b.finished {
                continue;
            }
            let Some(good) = b.allowed_good.clone() else {
                continue;
            };
            let room = {
                let mut t = b.clone();
                t.storage_mode = StorageMode::Accept;
                t.storage_accepts(&good)
            };
            if room == 0 {
                continue;
            }
            let door = c.door(*id).unwrap_or(here);
            if let Some((src, n)) = source_for(&good, *id, door) {
                let amount = room.min(n).min(carry_units(&good));
                return Some((src, *id, good, amount));
            }
        }
        None
    }

    /// Moving a building's output (or a supplying store's goods) of a good `pick` accepts to the
    /// nearest store of the district with room: (source, target, good, amount).
    pub(super) fn output_job(
        &self,
        district: i32,
        id: i32,
        here: [u32; 3],
        pick: &dyn Fn(&str) -> bool,
    ) -> Option<(i32, i32, String, u32)> {
        let stores = self.colony.stores_of(district);
        self.output_job_in(&stores, district, id, here, pick)
    }

    /// [`Self::output_job`] with the district's stores already listed.
    fn output_job_in(
        &self,
        stores: &[i32],
        district: i32,
        id: i32,
        here: [u32; 3],
        pick: &dyn Fn(&str) -> bool,
    ) -> Option<(i32, i32, String, u32)> {
        let c = &self.colony;
        let b = c.buildings.get(&id)?;
        if !b.finished || b.district != Some(district) {
            return None;
        }
        let moving_out = match b.kind() {
            Kind::Storage => matches!(b.storage_mode, StorageMode::Empty | StorageMode::Supply),
            Kind::DistrictCenter => true,
            Kind::Dwelling | Kind::BreedingPod | Kind::Path | Kind::Stairs | Kind::Solid => false,
            _ => true,
        };
        if !moving_out {
            return None;
        }
        let door = c.door(id).unwrap_or(here);
        for good in b.inventory.keys() {
            if !pick(good) || wants_good(b, good) {
                continue;
            }
            let n = b.available(good);
            if n == 0 {
                continue;
            }
            let dest = stores
                .iter()
                .filter(|s| **s != id && c.buildings[s].kind() == Kind::Storage)
                .filter_map(|s| {
                    let room = c.buildings[s].storage_accepts(good);
                    (room > 0).then(|| (*s, room, manhattan(door, c.door(*s).unwrap_or(door))))
                })
                .min_by_key(|(s, _, d)| (*d, *s));
            if let Some((dst, room, _)) = dest {
                let amount = n.min(room).min(carry_units(good));
                return Some((id, dst, good.clone(), amount));
            }
        }
        None
    }
}

//! What beavers and bots do: each follows a plan of steps (walk, work, fetch, deliver, eat,
//! sleep, visit, charge...). When a step's time is up it takes effect and the next starts; an
//! empty plan is planned anew from the beaver's needs, the hour and its job.
//!
//! Planning order: drink when Thirst is under `seekWaterBelow` and the district has water; eat
//! when Hunger is under `seekFoodBelow` and it has food; outside working hours sleep (at home, or
//! outdoors without one) until Sleep is full, then visit the attraction whose need is lowest, else
//! rest; in working hours work the workplace (production, cutting, gathering, planting, building,
//! hauling by its kind) or, without one, build and haul for the district. Children only eat,
//! drink, sleep and play. Bots work and haul at every hour; a bot whose need is under
//! `botSeekNeedBelow` first fetches the good that restores it (`botNeedGoods`) or goes to
//! recharge at a powered station of its district, needs that stop work first; a bot out of such
//! a need with nothing to restore it stands stopped. Goods moved by haulers are reserved on both
//! ends (`outgoing`, `incoming`) from planning until delivery, so two haulers never count on the
//! same units.
//!
//! A bot assembler's `Bot.*` recipe (no outputs) makes a bot at its doorstep when a cycle ends.
//!
//! Starting and completing steps (durations, each step's effect, eating and drinking, breeding)
//! are in `steps`, workplace plans in `work_plans`, haulers' trips in `haul`, what a shift
//! produces and construction progress in `production`.

use super::beaver::Step;
use super::building::Kind;
use super::nav::manhattan;
use super::rules::colony_rules;
use crate::clock::{self, ticks_per_hour};
use crate::content::content;
use crate::world::World;

/// Ticks a span of hours lasts (at least one).
pub(crate) fn hours_to_ticks(h: f64) -> u64 {
    ((h * ticks_per_hour() as f64).ceil() as u64).max(1)
}

/// Units of a good one trip carries.
pub(crate) fn carry_units(good: &str) -> u32 {
    let cap = f64::from(colony_rules().hauling.lifting_capacity.value);
    let w = content()
        .goods
        .get(good)
        .and_then(|g| g.carry_weight)
        .unwrap_or(1.0)
        .max(0.1);
    ((cap / w).floor() as u32).max(1)
}

/// Whether a good is food (eaten for Hunger).
pub fn is_food(good: &str) -> bool {
    content()
        .goods
        .get(good)
        .is_some_and(|g| g.category == "food")
}

impl World {
    /// Plans a beaver's next steps.
    pub(super) fn plan_for(&mut self, id: i32) {
        let faction = self.faction;
        let now = self.ticks;
        let working = self.are_working_hours();
        let r = &colony_rules().colony;
        let b = &self.colony.beavers[&id];
        let (is_bot, child, district, home, workplace) =
            (b.is_bot, b.child, b.district, b.home, b.workplace);
        let here = b.to;
        let thirst = b.need(faction, "Thirst").unwrap_or(1.0);
        let hunger = b.need(faction, "Hunger").unwrap_or(1.0);
        let sleep = b.need(faction, "Sleep").unwrap_or(1.0);
        let mut plan: Vec<Step> = Vec::new();
        if !is_bot && let Some(d) = district {
            if thirst < r.seek_water_below.value
                && let Some(src) = self.nearest_with(d, here, |g| g == "Water")
            {
                plan = self.fetch_plan(
                    src.0,
                    Step::Consume {
                        building: src.0,
                        good: src.1,
                    },
                );
            } else if hunger < r.seek_food_below.value
                && let Some(src) = self.nearest_with(d, here, is_food)
            {
                plan = self.fetch_plan(
                    src.0,
                    Step::Consume {
                        building: src.0,
                        good: src.1,
                    },
                );
            } else if let Some(cure) = self.cure_plan(id, d) {
                plan = cure;
            }
        }
        let ailing = self.colony.beavers[&id].kept_from_work(faction);
        if is_bot {
            if let Some(d) = district {
                plan = self.bot_care_plan(id, d, here);
            }
            if plan.is_empty()
                && let Some(need) = self.colony.beavers[&id].stopped_by(faction)
            {
                // Out of a need that stops work, with nothing to restore it: no work, no hauling.
                plan.push(Step::Stopped {
                    need: need.to_owned(),
                    hours: 0.5,
                });
            }
        }
        if plan.is_empty() && (!working || child) && !is_bot {
            let max_sleep = super::beaver::need_defs(faction, false)
                .iter()
                .find(|d| d.id == "Sleep")
                .map_or(0.8, |d| d.max);
            let next_work = clock::dawn_of(self.day() + 1) - clock::start_offset();
            if sleep < max_sleep - 0.05 && !working {
                let until = (now + hours_to_ticks(4.0)).min(next_work.max(now + 1));
                match home.and_then(|h| self.colony.door(h)) {
                    Some(door) => {
                        plan.push(walk(door));
                        plan.push(Step::Sleep { home, until });
                    }
                    None => plan.push(Step::Sleep { home: None, until }),
                }
            } else if let Some((a, need)) = district.and_then(|d| self.attraction_for(id, d)) {
                let door = self.colony.door(a).expect("exists");
                plan.push(walk(door));
                plan.push(Step::Visit {
                    building: a,
                    need,
                    hours: r.visit_hours.value,
                });
            } else {
                plan.push(Step::Idle { hours: 1.0 });
            }
        }
        if plan.is_empty() && !ailing {
            plan = match workplace {
                Some(w) if working || is_bot => self.work_plan(id, w),
                _ => Vec::new(),
            };
        }
        if plan.is_empty()
            && (working || is_bot)
            && !child
            && !ailing
            && let Some(d) = district
        {
            plan = self.haul_plan(d, here);
        }
        if plan.is_empty() {
            plan.push(Step::Idle { hours: 0.5 });
        }
        let b = self.colony.beavers.get_mut(&id).expect("exists");
        b.plan = plan.into();
    }

    /// A bot's trip to restore its most pressing need under `botSeekNeedBelow` (needs that stop
    /// work first, then the lowest): fetch its good from the nearest store, or recharge at the
    /// nearest powered station of the district with room. Empty when nothing is low or nothing
    /// can restore what is.
    fn bot_care_plan(&mut self, id: i32, district: i32, here: [u32; 3]) -> Vec<Step> {
        let faction = self.faction;
        let r = &colony_rules().colony;
        let b = &self.colony.beavers[&id];
        let defs = super::beaver::need_defs(faction, true);
        let mut low: Vec<(bool, f64, usize)> = defs
            .iter()
            .zip(&b.needs)
            .enumerate()
            .filter(|(_, (_, p))| **p < r.bot_seek_need_below.value)
            .map(|(i, (d, p))| (!d.stops_work, *p, i))
            .collect();
        low.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        for (_, points, i) in low {
            let d = &defs[i];
            if let Some((good, _)) = &d.good {
                if let Some((src, g)) = self.nearest_with(district, here, |g| g == good) {
                    return self.fetch_plan(
                        src,
                        Step::Consume {
                            building: src,
                            good: g,
                        },
                    );
                }
            } else if let Some(st) = self.charger_for(district, &d.id, here)
                && let Some(door) = self.colony.door(st)
            {
                let rate = r.bot_recharge_per_hour.value.max(0.01);
                let hours = ((d.max - points) / rate).ceil().clamp(1.0, 24.0);
                return vec![
                    walk(door),
                    Step::Charge {
                        building: st,
                        need: d.id.clone(),
                        hours,
                    },
                ];
            }
        }
        Vec::new()
    }

    /// The nearest finished, unpaused, powered station of a district that recharges a bot need
    /// and has room (`effect.visitors`, counting bots whose plans charge there).
    fn charger_for(&self, district: i32, need: &str, here: [u32; 3]) -> Option<i32> {
        let mut best: Option<(u32, i32)> = None;
        for (bid, bl) in self.open_attractions(district) {
            let serves = bl
                .prefab
                .need_served()
                .is_some_and(|(n, _)| super::beaver::need_id_for(true, n) == Some(need));
            if !serves || !self.is_powered(*bid) {
                continue;
            }
            let using = self
                .colony
                .beavers
                .values()
                .filter(|v| {
                    v.plan
                        .iter()
                        .any(|s| matches!(s, Step::Charge { building, .. } if building == bid))
                })
                .count();
            if using >= bl.prefab.effect_visitors() {
                continue;
            }
            let d = manhattan(here, self.colony.door(*bid).unwrap_or(here));
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, *bid));
            }
        }
        best.map(|(_, b)| b)
    }

    /// `[walk to the building's door, then the step]`.
    fn fetch_plan(&self, building: i32, then: Step) -> Vec<Step> {
        match self.colony.door(building) {
            Some(d) => vec![walk(d), then],
            None => Vec::new(),
        }
    }

    /// The nearest store of a district holding an available good that `pick` accepts: (store,
    /// good). Foods are chosen by the largest stock within the store.
    pub(crate) fn nearest_with(
        &self,
        district: i32,
        here: [u32; 3],
        pick: impl Fn(&str) -> bool,
    ) -> Option<(i32, String)> {
        let mut best: Option<(u32, i32, String)> = None;
        for id in self.colony.stores_of(district) {
            let b = &self.colony.buildings[&id];
            let good = b
                .inventory
                .keys()
                .filter(|g| pick(g) && b.available(g) > 0)
                .max_by_key(|g| b.available(g));
            let Some(g) = good else { continue };
            let d = manhattan(here, self.colony.door(id).unwrap_or(here));
            if best.as_ref().is_none_or(|(bd, _, _)| d < *bd) {
                best = Some((d, id, g.clone()));
            }
        }
        best.map(|(_, id, g)| (id, g))
    }

    /// The finished, unpaused attractions of a district, in id order.
    fn open_attractions(
        &self,
        district: i32,
    ) -> impl Iterator<Item = (&i32, &super::building::Building)> + '_ {
        // The district's attractions, from the list of all attractions (the same, in id order).
        self.colony
            .listed(super::lists::List::Attractions)
            .filter(move |(_, b)| {
                b.district == Some(district)
                    && b.finished
                    && !b.paused
                    && b.kind() == Kind::Attraction
            })
    }

    /// The finished attraction of the district serving the beaver's lowest leisure need.
    fn attraction_for(&self, id: i32, district: i32) -> Option<(i32, String)> {
        let faction = self.faction;
        let b = &self.colony.beavers[&id];
        let mut best: Option<(f64, i32, String)> = None;
        for (bid, bl) in self.open_attractions(district) {
            let Some((need, _)) = bl.prefab.need_served() else {
                continue;
            };
            let Some(need) = super::beaver::need_id_for(false, need).map(str::to_owned) else {
                continue;
            };
            let Some(p) = b.need(faction, &need) else {
                continue;
            };
            if p < 0.7 && best.as_ref().is_none_or(|(bp, _, _)| p < *bp) {
                best = Some((p, *bid, need));
            }
        }
        best.map(|(_, b, n)| (b, n))
    }
}

/// Whether a recipe makes a bot rather than goods: no outputs and a `Bot.` id (the bot
/// assemblers' `Bot.Folktails` and `Bot.IronTeeth`).
pub(crate) fn makes_bot(r: &crate::content::Recipe) -> bool {
    r.outputs.is_empty() && r.id.starts_with("Bot.")
}

/// `Walk` to a voxel.
pub(crate) fn walk(v: [u32; 3]) -> Step {
    Step::Walk {
        x: v[0],
        y: v[1],
        z: v[2],
    }
}

/// Releases a reservation.
pub(crate) fn release(map: &mut std::collections::BTreeMap<String, u32>, good: &str, n: u32) {
    if let Some(v) = map.get_mut(good) {
        *v = v.saturating_sub(n);
        if *v == 0 {
            map.remove(good);
        }
    }
}

/// Goods a finished building wants delivered and how many: recipe inputs for
/// `inputBufferCycles` cycles, breeding-pod nutrients up to its nutrient storage.
pub(crate) fn input_wants(b: &super::building::Building) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    each_input_want(b, |g, n| out.push((g.to_owned(), n)));
    out
}

/// Whether a building wants any input ([`input_wants`] not empty), without listing them.
pub(crate) fn wants_any(b: &super::building::Building) -> bool {
    let mut any = false;
    each_input_want(b, |_, _| any = true);
    any
}

/// Whether `good` is one of a building's inputs ([`input_wants`]).
pub(crate) fn wants_good(b: &super::building::Building, good: &str) -> bool {
    let mut found = false;
    each_input_want(b, |g, _| found |= g == good);
    found
}

/// Calls `f(good, units)` for each of [`input_wants`], in its order.
fn each_input_want(b: &super::building::Building, mut f: impl FnMut(&str, u32)) {
    let s = b.spec();
    if b.kind() == Kind::BreedingPod {
        if let Some(ns) = s.nutrient_storage.as_ref().and_then(|v| v.as_object()) {
            for (g, n) in ns {
                f(g, n.as_u64().unwrap_or(2) as u32);
            }
        }
        return;
    }
    if let Some(r) = b.recipe.as_deref().and_then(|r| content().recipes.get(r)) {
        let cycles = colony_rules().colony.input_buffer_cycles.value;
        for i in &r.inputs {
            f(&i.good, (i.amount * cycles).ceil() as u32);
        }
        if let Some(fu) = r.fuel.as_ref()
            && let Some(g) = fu.get("good").and_then(|g| g.as_str())
        {
            f(g, 1);
        }
    }
    if let Some((g, n)) = crate::power::fuel_want(b) {
        f(&g, n);
    }
    if let Some((g, n)) = super::ailments::supply_want(b) {
        f(&g, n);
    }
    for (g, n) in super::wonder::launch_want(b) {
        f(&g, n);
    }
}

impl super::Colony {
    /// The beavers whose plan uses building `id`.
    pub(crate) fn plans_touching(&self, id: i32) -> Vec<i32> {
        self.beavers
            .iter()
            .filter(|(_, b)| {
                b.plan.iter().any(|s| match s {
                    Step::Work { building, .. }
                    | Step::Consume { building, .. }
                    | Step::Visit { building, .. }
                    | Step::Charge { building, .. } => *building == id,
                    Step::Build { site, .. } => *site == id,
                    Step::Pickup { from, to, .. } => *from == id || *to == id,
                    Step::Deliver { to, .. } => *to == id,
                    Step::Sleep { home, .. } => *home == Some(id),
                    _ => false,
                })
            })
            .map(|(id, _)| *id)
            .collect()
    }
}

impl World {
    /// Abandons the plans of beavers that use a building (before it goes).
    pub(crate) fn drop_plans_using(&mut self, id: i32) {
        for b in self.colony.plans_touching(id) {
            self.abort_plan(b);
        }
    }

    /// Abandons a beaver's plan: reservations are released and carried goods go back to the
    /// district's center.
    pub(crate) fn abort_plan(&mut self, id: i32) {
        let Some(b) = self.colony.beavers.get_mut(&id) else {
            return;
        };
        let plan: Vec<Step> = b.plan.drain(..).collect();
        let carried = b.carrying.take();
        let district = b.district;
        b.step_until = 0;
        b.arrive = b.depart.min(b.arrive);
        self.colony.next_due = 0;
        for s in plan {
            match s {
                Step::Pickup {
                    from, good, amount, ..
                } => {
                    // Its Deliver step follows and releases the target's reservation.
                    if let Some(f) = self.colony.buildings.get_mut(&from) {
                        release(&mut f.outgoing, &good, amount);
                    }
                }
                Step::Deliver { to, good, amount } => {
                    if let Some(t) = self.colony.buildings.get_mut(&to) {
                        release(&mut t.incoming, &good, amount);
                    }
                }
                _ => {}
            }
        }
        if let Some((g, n)) = carried
            && let Some(dc) = district.and_then(|d| self.colony.buildings.get_mut(&d))
        {
            dc.add(&g, n);
        }
    }
}

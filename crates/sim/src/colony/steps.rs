//! Running the plans: each tick, every beaver whose current step has ended completes it (the
//! step's effect: building progress, pickups and deliveries, eating and drinking, visits,
//! cutting, gathering, planting, scavenging, collecting from a pile, each yield one load at most)
//! and starts the next, planning anew (`behave`) when its plan is empty. Entering its dwelling to sleep, a Folktails beaver may breed.
//!
//! Durations: walks take their distance (network or Manhattan) over the walker's speed; work
//! steps are hour-long chunks (`workChunkHours`) during which the workplace advances tick by
//! tick at the worker's working speed (`work_tick`).

use serde_json::json;

use super::beaver::{Beaver, Step};
use super::behave::{hours_to_ticks, release};
use super::rules::colony_rules;
use crate::world::World;

impl World {
    /// Runs every beaver whose current step has ended.
    pub(crate) fn colony_beavers_tick(&mut self) {
        let now = self.ticks;
        // (No step ends yet: nothing to scan for. The bound is the earliest end among the
        // beavers not due now, lowered by what the due ones start.)
        if now < self.colony.next_due {
            return;
        }
        let mut next = u64::MAX;
        let mut due = Vec::new();
        for (id, b) in self.colony.beavers.iter() {
            if b.step_until <= now {
                due.push(*id);
            } else {
                next = next.min(b.step_until);
            }
        }
        self.colony.next_due = next;
        for id in due {
            for _ in 0..6 {
                let Some(b) = self.colony.beavers.get(&id) else {
                    break;
                };
                if b.step_until > now {
                    break;
                }
                if b.step_until != 0 {
                    self.complete_step(id);
                }
                let Some(b) = self.colony.beavers.get(&id) else {
                    break;
                };
                if b.plan.is_empty() {
                    self.plan_for(id);
                }
                self.start_step(id, now);
            }
        }
    }

    /// A tick of work at every workplace with workers in a `Work` step under way: each adds a
    /// tick's hours at its working speed (`work_done`), so a workshop runs on exactly the ticks
    /// it has a worker, its inputs and power, and stops on the others (no hour is credited or
    /// lost whole by what holds at a step's end).
    pub(crate) fn work_tick(&mut self) {
        let now = self.ticks;
        let faction = self.faction;
        let tick = 1.0 / crate::clock::ticks_per_hour() as f64;
        let mut at: std::collections::BTreeMap<i32, f64> = std::collections::BTreeMap::new();
        for b in self.colony.beavers.values() {
            if b.step_until > now
                && let Some(Step::Work { building, .. }) = b.plan.front()
            {
                *at.entry(*building).or_default() += tick * b.working_speed(faction);
            }
        }
        for (w, hours) in at {
            self.work_done(w, hours);
        }
    }

    /// Starts the first step of a beaver's plan, lowering the beavers' next scan
    /// (`Colony::next_due`) to the step's end (or to now, with no step to start).
    fn start_step(&mut self, id: i32, now: u64) {
        let faction = self.faction;
        let Some(b) = self.colony.beavers.get(&id) else {
            return;
        };
        let Some(step) = b.plan.front().cloned() else {
            let until = b.step_until;
            self.colony.next_due = self.colony.next_due.min(until);
            return;
        };
        // (Only the steps of work done in place take the working speed.)
        let speed = if matches!(
            step,
            Step::Cut { .. }
                | Step::Gather { .. }
                | Step::Harvest { .. }
                | Step::Plant { .. }
                | Step::Scavenge { .. }
        ) {
            b.working_speed(faction)
        } else {
            1.0
        };
        let ticks = match &step {
            Step::Walk { x, y, z } => {
                let here = b.to;
                let tpt = b.tiles_per_tick(faction);
                let d = self.colony.travel(here, [*x, *y, *z]);
                let t = ((f64::from(d) / tpt.max(0.01)).ceil() as u64).max(1);
                let b = self.colony.beavers.get_mut(&id).expect("exists");
                b.from = here;
                b.to = [*x, *y, *z];
                b.depart = now;
                b.arrive = now + t;
                t
            }
            Step::Work { hours, .. } | Step::Build { hours, .. } | Step::Visit { hours, .. } => {
                hours_to_ticks(*hours)
            }
            Step::Idle { hours } | Step::Charge { hours, .. } | Step::Stopped { hours, .. } => {
                hours_to_ticks(*hours)
            }
            Step::Sleep { home, until } => {
                if let Some(h) = home {
                    self.on_enter_dwelling(id, *h);
                }
                until.saturating_sub(now).max(1)
            }
            Step::Cut { .. } => hours_to_ticks(colony_rules().colony.cut_hours.value / speed),
            Step::Gather { .. } => hours_to_ticks(colony_rules().colony.gather_hours.value / speed),
            Step::Harvest { .. } => {
                hours_to_ticks(colony_rules().colony.harvest_hours.value / speed)
            }
            Step::Plant { .. } => hours_to_ticks(colony_rules().colony.plant_hours.value / speed),
            Step::Scavenge { .. } => {
                hours_to_ticks(colony_rules().colony.scavenge_hours.value / speed)
            }
            Step::Consume { .. } => hours_to_ticks(colony_rules().colony.eat_hours.value),
            Step::Pickup { .. } | Step::Deliver { .. } | Step::Collect { .. } => 1,
        };
        if let Some(b) = self.colony.beavers.get_mut(&id) {
            b.step_until = now + ticks;
        }
        self.colony.next_due = self.colony.next_due.min(now + ticks);
    }

    /// Applies the effect of the step that just ended and drops it from the plan.
    fn complete_step(&mut self, id: i32) {
        let faction = self.faction;
        let Some(b) = self.colony.beavers.get_mut(&id) else {
            return;
        };
        b.step_until = 0;
        let Some(step) = b.plan.pop_front() else {
            return;
        };
        // (Only building output scales with the working speed here; work accrues per tick.)
        let speed = if matches!(step, Step::Build { .. }) {
            b.working_speed(faction)
        } else {
            1.0
        };
        if !matches!(
            step,
            Step::Walk { .. }
                | Step::Idle { .. }
                | Step::Sleep { .. }
                | Step::Visit { .. }
                | Step::Charge { .. }
                | Step::Stopped { .. }
        ) {
            // Goods may have moved: hauling searches must look again.
            self.colony.no_haul.clear();
        }
        match step {
            // Charging works hourly (see `life`).
            Step::Walk { .. }
            | Step::Idle { .. }
            | Step::Sleep { .. }
            | Step::Charge { .. }
            | Step::Stopped { .. } => {}
            // The work itself accrues tick by tick (`work_tick`).
            Step::Work { building, hours } => self.injury_roll(id, building, hours),
            Step::Build { site, hours } => self.build_done(site, hours * speed),
            Step::Pickup {
                from,
                to,
                good,
                amount,
            } => {
                let taken = match self.colony.buildings.get_mut(&from) {
                    Some(src) => {
                        release(&mut src.outgoing, &good, amount);
                        src.take(&good, amount)
                    }
                    None => 0,
                };
                let b = self.colony.beavers.get_mut(&id).expect("exists");
                if taken > 0 {
                    b.carrying = Some((good, taken));
                } else {
                    // Nothing to carry: the delivery falls through.
                    b.plan.clear();
                    if let Some(dst) = self.colony.buildings.get_mut(&to) {
                        release(&mut dst.incoming, &good, amount);
                    }
                }
            }
            Step::Deliver { to, good, amount } => {
                let carried = b.carrying.take();
                let district = b.district;
                if let Some(dst) = self.colony.buildings.get_mut(&to) {
                    release(&mut dst.incoming, &good, amount);
                }
                if let Some((g, n)) = carried {
                    self.put_goods(to, district, &g, n);
                    if let Some(dst) = self.colony.buildings.get(&to)
                        && !dst.finished
                        && dst.material_progress() > 0.0
                        && dst.build_hours == 0.0
                        && dst.stock() == n
                    {
                        let day = self.day();
                        let data = self.building_event_data(to);
                        self.events
                            .push(crate::event::names::CONSTRUCTION_STARTED, day, data);
                    }
                }
            }
            Step::Consume { building, good } => self.consume(id, building, &good),
            Step::Visit {
                building,
                need,
                hours,
            } => {
                let per = self.visit_rate(building, &need);
                if let Some(b) = self.colony.beavers.get_mut(&id) {
                    b.set_need(faction, &need, |p| p + per * hours);
                }
                self.use_treatment_supply(building, hours);
            }
            // A load each: the rest stays where it was made (`piles`).
            Step::Cut { plant } => {
                if let Ok(y) = self.cut_tree(plant)
                    && y.amount > 0
                {
                    self.history.produced(&y.good, y.amount);
                    self.take_yield(id, plant, y.good, y.amount);
                }
            }
            Step::Gather { plant } | Step::Harvest { plant } => {
                if let Ok(y) = self.harvest(plant)
                    && y.amount > 0
                {
                    self.history.produced(&y.good, y.amount);
                    self.take_yield(id, plant, y.good, y.amount);
                }
            }
            Step::Collect { pile, .. } => self.collect_pile(id, pile),
            Step::Plant { x, y, species } => {
                let _ = self.plant(x.into(), y.into(), &species);
            }
            Step::Scavenge { ruin } => {
                // A load at most: the rest stays in the ruin.
                let max = colony_rules()
                    .colony
                    .scrap_per_trip
                    .value
                    .min(super::behave::carry_units("ScrapMetal"));
                if let Ok(y) = self.take_scrap(ruin, max)
                    && y.amount > 0
                {
                    self.history.produced(&y.good, y.amount);
                    self.colony.beavers.get_mut(&id).expect("exists").carrying =
                        Some((y.good, y.amount));
                }
            }
        }
    }

    /// Puts goods into a building, or into its district's center when it is gone.
    fn put_goods(&mut self, to: i32, district: Option<i32>, good: &str, n: u32) {
        if let Some(dst) = self.colony.buildings.get_mut(&to) {
            dst.add(good, n);
        } else if let Some(dc) = district.and_then(|d| self.colony.buildings.get_mut(&d)) {
            dc.add(good, n);
        }
    }

    /// Eats or drinks from a building until the need is full or the good runs out (bots take
    /// the good of their need that it restores). Goods leave the store in whole units; what a
    /// meal leaves of its last unit the beaver keeps ([`Beaver::spare`]) and uses first at the
    /// next, so no part of a unit is lost to a need already full and a beaver uses the
    /// catalogue's daily amount (`waterPerBeaverPerDay`, `foodPerBeaverPerDay`).
    fn consume(&mut self, id: i32, building: i32, good: &str) {
        if self.take_dose(id, building, good) {
            return;
        }
        let faction = self.faction;
        let r = &colony_rules().colony;
        let Some(b) = self.colony.beavers.get(&id) else {
            return;
        };
        let defs = super::beaver::need_defs(faction, b.is_bot);
        let (need, per) = if b.is_bot {
            let Some((d, per)) = defs.iter().find_map(|d| {
                d.good
                    .as_ref()
                    .filter(|(g, _)| g == good)
                    .map(|(_, p)| (d, *p))
            }) else {
                return;
            };
            (d.id.as_str(), per)
        } else if good == "Water" {
            ("Thirst", r.thirst_per_water_unit.value)
        } else {
            ("Hunger", r.hunger_per_food_unit.value)
        };
        if per <= 0.0 {
            return;
        }
        let Some(i) = super::beaver::need_index(faction, b.is_bot, need) else {
            return;
        };
        let max = defs[i].max;
        let points = b.needs[i];
        let spare = b.spare.get(i).copied().unwrap_or(0.0);
        // The units that fill the need, in parts of a unit, and the whole ones to take for it.
        let fill = ((max - points) / per).max(0.0);
        let want = (fill - spare).max(0.0).ceil() as u32;
        let Some(src) = self.colony.buildings.get_mut(&building) else {
            return;
        };
        let got = src.take(good, want.min(src.available(good)));
        self.history.consumed(good, got);
        let b = self.colony.beavers.get_mut(&id).expect("exists");
        let eaten = fill.min(spare + f64::from(got));
        if b.spare.len() <= i {
            b.spare.resize(i + 1, 0.0);
        }
        b.spare[i] = spare + f64::from(got) - eaten;
        b.set_need(faction, need, |p| p + per * eaten);
        if got > 0 && good != "Water" && !b.is_bot {
            // Eating a food also feeds the nutrition need of the same name, if any.
            let nut = nutrition_need_of(good);
            if let Some(n) = nut {
                b.set_need(faction, n, |_| 1.0);
            }
        }
    }

    /// Called when a beaver enters its dwelling to sleep: Folktails may breed (catalogue rule).
    fn on_enter_dwelling(&mut self, id: i32, home: i32) {
        if self.faction != crate::config::Faction::Folktails {
            return;
        }
        let day = self.day();
        let faction = self.faction;
        let Some(b) = self.colony.beavers.get(&id) else {
            return;
        };
        if b.child || b.is_bot || b.last_roll_day == day || !b.critical_needs(faction).is_empty() {
            return;
        }
        let Some(h) = self.colony.buildings.get(&home) else {
            return;
        };
        let (_, kid_slots) = super::building::dwelling_capacity(h.spec());
        let dwellers: Vec<&Beaver> = h
            .dwellers
            .iter()
            .filter_map(|d| self.colony.beavers.get(d))
            .collect();
        let kids_here = dwellers.iter().filter(|d| d.child).count() as u32;
        let partner = dwellers
            .iter()
            .any(|d| !d.child && !d.is_bot && d.critical_needs(faction).is_empty() && **d != *b);
        let adults = self
            .colony
            .beavers
            .values()
            .filter(|b| !b.child && !b.is_bot)
            .count();
        let kids = self.colony.beavers.values().filter(|b| b.child).count();
        let door = self.colony.door(home).expect("home exists");
        self.colony
            .beavers
            .get_mut(&id)
            .expect("exists")
            .last_roll_day = day;

        let bed_free = h.dwellers.len() < super::building::dwelling_capacity(h.spec()).0 as usize;
        if kids_here < kid_slots && partner && kids * 2 < adults && bed_free {
            let chance = colony_rules()
                .population
                .folktails_reproduction
                .value
                .chance_per_qualifying_entry;
            if self.colony.rng.chance(chance) {
                let district = h.district;
                let kid = self.spawn_beaver(door, true, 0.0, district);
                self.population_changed();
                // The kit takes the free bed of the dwelling it was born in.
                if let Some(hb) = self.colony.buildings.get_mut(&home) {
                    hb.dwellers.push(kid);
                }
                if let Some(k) = self.colony.beavers.get_mut(&kid) {
                    k.home = Some(home);
                }
                let data = json!({ "id": kid, "name": self.colony.beavers[&kid].name, "isBot": false, "home": home });
                self.events
                    .push(crate::event::names::BEAVER_BORN_EVENT, day, data);
            }
        }
    }
}

/// The nutrition need a food satisfies (e.g. `Bread` -> `Bread`, `Carrot` -> `Carrots`).
fn nutrition_need_of(good: &str) -> Option<&'static str> {
    let defs = super::beaver::need_defs(crate::config::Faction::Folktails, false)
        .iter()
        .chain(super::beaver::need_defs(
            crate::config::Faction::IronTeeth,
            false,
        ));
    for d in defs {
        if d.group == "Nutrition"
            && (d.id == good || d.id.trim_end_matches('s') == good.trim_end_matches('s'))
        {
            return Some(d.id.as_str());
        }
    }
    None
}

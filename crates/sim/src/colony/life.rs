//! The colony's hourly and daily life: needs decay and recover, beavers find homes and jobs, age,
//! grow up, breed (IronTeeth pods), visit nothing they cannot reach, and die of thirst, hunger or
//! old age; bots wear out. Also births, bots joining, deaths and the population events.
//!
//! Each full hour, in id order: needs move by their daily delta over 24 (Hunger and Thirst scaled
//! by the game mode's consumption); sleeping beavers recover Sleep (and Shelter at home); bots
//! charging at a powered station regain `botRechargePerHour`; decorations and monuments fill their
//! need for beavers within their `effect.radius` (else `attractionRadiusTiles`), and the control
//! tower fills its bot need the same way while it can burn its `sciencePerHour` from the colony's
//! points; a beaver whose Hunger or Thirst reaches its `diesAtPoints` dies (bots never die of
//! needs); ailments follow (`ailments`); Sleep and Shelter hold while a beaver lies in a
//! Medical Bed or Decontamination Pod. Then homeless beavers move into the
//! dwelling of their district with a free bed, adults leaving a dwelling's child slots free while
//! other room exists (so families have space for kits; kits take beds too), workers leave workplaces that stopped (paused, unfinished, unreachable,
//! fewer desired) and unemployed adults and bots fill vacancies by workplace priority, then
//! distance from the district center, then id (`homes_jobs`). Goods cross district crossings
//! (`distribute`).
//! Breeding pods with nutrients advance. Each hour a child's unfavourable needs add their
//! `GrowthSpeed` penalties (Hunger: -0.4) over 24 to its day's penalty. At dawn every
//! beaver ages a day: children grow by `1 + growth tier bonus + the day's penalty` (within the
//! GrowthSpeed clamps) over `childhoodDays` and grow up at 1, and a beaver past its lifespan dies
//! of old age; a bot's deterioration is its age over `botLifespanDays`, and at 1 it dies
//! (`deterioration`). Bots have no home, sleep, food, water or breeding.

use serde_json::json;

use super::beaver::{Beaver, Step, need_defs, need_id_for, need_index};
use super::building::Kind;
use crate::catalog::GameModeRules;
use crate::config::Faction;

use super::lists::List;
use super::nav::manhattan;
use super::rules::colony_rules;
use crate::clock::{ticks_per_day, ticks_per_hour};
use crate::event::names;
use crate::world::World;

/// The hourly change of a faction's beavers' or bots' needs that depends on the need alone:
/// the multiplier of each need's daily change, `mult[0]` out of bed and `mult[1]` in a bed
/// that holds Sleep and Shelter (food and water by the mode's consumption).
struct HourlyNeeds {
    mult: [Vec<f64>; 2],
}

impl HourlyNeeds {
    fn of(faction: Faction, bot: bool, mode: &GameModeRules) -> HourlyNeeds {
        let mult = [false, true].map(|in_bed| {
            need_defs(faction, bot)
                .iter()
                .map(|d| match d.id.as_str() {
                    "Hunger" => mode.food_consumption,
                    "Thirst" => mode.water_consumption,
                    "Sleep" | "Shelter" if in_bed => 0.0,
                    _ => 1.0,
                })
                .collect()
        });
        HourlyNeeds { mult }
    }
}

impl World {
    /// Runs the colony for the tick that reached absolute time `t`.
    pub(crate) fn colony_tick(&mut self, t: u64) {
        if self.colony.beavers.is_empty() && self.colony.buildings.is_empty() {
            return;
        }
        self.colony.refresh_store_cache();
        self.colony_beavers_tick();
        self.work_tick();
        if t.is_multiple_of(ticks_per_hour()) {
            self.colony_hour();
            if t.is_multiple_of(ticks_per_day()) {
                self.colony_dawn();
            }
        }
    }

    /// Creates a beaver (or a child) at a voxel; `life_progress` 0-1 of its childhood (children)
    /// or its lifespan (adults). Returns the id.
    pub(crate) fn spawn_beaver(
        &mut self,
        at: [u32; 3],
        child: bool,
        life_progress: f64,
        district: Option<i32>,
    ) -> i32 {
        let r = colony_rules();
        let lifespan =
            r.population.average_lifespan_days.value * self.colony.rng.range_f64(0.9, 1.1);
        let childhood = r.population.childhood_days.value;
        let name = self.colony.next_name();
        let mut b = self.newcomer(name, false, at, district);
        b.child = child;
        b.age_days = if child {
            life_progress * childhood
        } else {
            childhood + life_progress * (lifespan - childhood)
        };
        b.lifespan_days = lifespan;
        b.growth = if child { life_progress } else { 1.0 };
        self.add_character(b)
    }

    /// Creates a new bot (adult, its needs at their start values, `botLifespanDays` to live) at a
    /// voxel. Returns the id.
    pub(crate) fn spawn_bot(&mut self, at: [u32; 3], district: Option<i32>) -> i32 {
        let name = self.colony.next_bot_name();
        let mut b = self.newcomer(name, true, at, district);
        b.lifespan_days = colony_rules().population.bot_lifespan_days.value;
        self.add_character(b)
    }

    /// A new adult beaver or bot standing at a voxel: needs at their catalogue start values, no
    /// age, home or job.
    fn newcomer(&self, name: String, is_bot: bool, at: [u32; 3], district: Option<i32>) -> Beaver {
        Beaver {
            name,
            is_bot,
            child: false,
            age_days: 0.0,
            lifespan_days: 1.0,
            growth: 1.0,
            needs: need_defs(self.faction, is_bot)
                .iter()
                .map(|d| d.start)
                .collect(),
            from: at,
            to: at,
            depart: self.ticks,
            arrive: self.ticks,
            home: None,
            workplace: None,
            district,
            plan: Default::default(),
            step_until: 0,
            carrying: None,
            contaminated: false,
            deterioration: 0.0,
            last_roll_day: 0,
            last_dose: 0,
            growth_penalty: 0.0,
            spare: Vec::new(),
        }
    }

    /// Queues the low-level `entity.created {id, kind, name}` (kind `building` or `character`),
    /// before the entity's own events.
    pub(crate) fn announce_entity(&mut self, id: i32, kind: &str, name: &str) {
        let day = self.day();
        self.events.push(
            names::ENTITY_CREATED,
            day,
            json!({ "id": id, "kind": kind, "name": name }),
        );
    }

    /// Adds a new beaver or bot to the colony with `character.created` and `beaver.born`
    /// (`{id, name, isBot, child}`). Returns its id.
    fn add_character(&mut self, b: Beaver) -> i32 {
        let id = self.colony.ids.next_id();
        let data = json!({ "id": id, "name": b.name, "isBot": b.is_bot, "child": b.child });
        self.announce_entity(id, "character", &b.name);
        self.colony.beavers.insert(id, b);
        // (Its first step starts at the next beavers' tick.)
        self.colony.next_due = 0;
        let day = self.day();
        self.events
            .push(names::CHARACTER_CREATED, day, data.clone());
        self.events.push(names::BEAVER_BORN, day, data);
        self.history.born();
        id
    }

    /// Queues `population.changed` with the current counts.
    pub(crate) fn population_changed(&mut self) {
        let (a, c, b) = self.colony.counts(None);
        let day = self.day();
        self.events.push(
            names::POPULATION_CHANGED,
            day,
            json!({ "adults": a, "children": c, "bots": b, "total": a + c + b }),
        );
    }

    /// A beaver dies: it leaves its home and job, its plan is dropped, the events and a
    /// notification say why.
    pub(crate) fn kill_beaver(&mut self, id: i32, cause: &str) {
        self.abort_plan(id);
        let Some(b) = self.colony.beavers.remove(&id) else {
            return;
        };
        for bid in [b.home, b.workplace].into_iter().flatten() {
            if let Some(bl) = self.colony.buildings.get_mut(&bid) {
                bl.workers.retain(|w| *w != id);
                bl.dwellers.retain(|w| *w != id);
            }
        }
        self.history.died(cause);
        let day = self.day();
        let data = json!({ "id": id, "name": b.name, "isBot": b.is_bot, "cause": cause });
        self.events.push(names::BEAVER_DIED, day, data.clone());
        self.events.push(names::CHARACTER_KILLED, day, data);
        let what = if b.is_bot {
            "bot"
        } else if b.child {
            "kit"
        } else {
            "beaver"
        };
        let how = match cause {
            "thirst" => "died of thirst".to_owned(),
            "hunger" => "starved".to_owned(),
            "oldAge" => "died of old age".to_owned(),
            "deterioration" => "wore out".to_owned(),
            other => format!("died ({other})"),
        };
        self.notify(
            format!("{} {how}", b.name),
            format!("The {what} {} {how}.", b.name),
        );
        self.population_changed();
        if self.colony.beavers.is_empty() && !self.colony.game_over {
            self.colony.game_over = true;
            self.events
                .push(names::GAME_OVER, day, json!({ "day": day }));
            self.notify(
                "Game over".into(),
                "Every beaver of the colony has died.".into(),
            );
        }
    }

    /// Adds a notification stamped with the cycle and cycle day.
    pub(crate) fn notify(&mut self, subject: String, description: String) {
        let w = self.weather();
        self.colony.notifications.push(super::Notification {
            subject,
            description,
            cycle: w.cycle,
            cycle_day: w.cycle_day,
        });
    }

    /// The hourly systems (see the module docs).
    fn colony_hour(&mut self) {
        let faction = self.faction;
        let mode = crate::catalog::world_rules().mode(self.mode);
        let r = colony_rules();
        let area = self.working_area_effects();
        let reach = super::lists::Reach::new(
            area.iter().map(|(at, _, radius)| (*at, *radius)),
            self.map.width(),
            self.map.height(),
        );
        let chargers = self.powered_chargers();
        let now = self.ticks;
        let mut dead: Vec<(i32, &'static str)> = Vec::new();
        // Beds that hold Sleep and Shelter while a patient lies in them (Medical Bed, pods).
        let suspending: std::collections::BTreeSet<i32> = self
            .colony
            .listed(List::NeedSuspending)
            .map(|(id, _)| *id)
            .collect();
        // What the hour does to each need, worked out once for beavers and bots (index 0 and 1):
        // the multiplier of its daily change (out of bed, in a suspending bed), and the need
        // each working area effect raises (its index, if it is one of theirs).
        let hourly = [false, true].map(|bot| HourlyNeeds::of(faction, bot, mode));
        let area_need: Vec<[Option<usize>; 2]> = area
            .iter()
            .map(|(_, need, _)| {
                [false, true]
                    .map(|bot| need_id_for(bot, need).and_then(|n| need_index(faction, bot, n)))
            })
            .collect();
        for (id, b) in self.colony.beavers.iter_mut() {
            let defs = need_defs(faction, b.is_bot);
            let hour = &hourly[usize::from(b.is_bot)];
            let in_bed = b.step_until > 0
                && matches!(b.plan.front(), Some(Step::Visit { building, .. }) if suspending.contains(building));
            let mults = &hour.mult[usize::from(in_bed)];
            for ((p, d), mult) in b.needs.iter_mut().zip(defs).zip(mults) {
                *p = (*p + d.daily_delta * mult / 24.0).clamp(d.min, d.max);
            }
            if let Some(Step::Sleep { home, .. }) = b.plan.front()
                && b.step_until > 0
            {
                let at_home = home.is_some();
                let per = if at_home {
                    r.colony.sleep_per_hour_housing.value
                } else {
                    r.colony.sleep_per_hour_outside.value
                };
                b.set_need(faction, "Sleep", |p| p + per);
                if at_home {
                    b.set_need(faction, "Shelter", |p| {
                        p + r.colony.shelter_per_hour_housing.value
                    });
                }
            }
            if let Some(Step::Charge { building, need, .. }) = b.plan.front()
                && b.step_until > 0
                && chargers.contains(building)
            {
                let need = need.clone();
                b.set_need(faction, &need, |p| p + r.colony.bot_recharge_per_hour.value);
            }
            let pos = b.position(now);
            // (The area effects whose cell holds the position, in id order: all that reach it.)
            for &k in reach.near(pos) {
                let (at, _, radius) = &area[k];
                if let Some(i) = area_need[k][usize::from(b.is_bot)]
                    && manhattan(pos, *at) <= *radius
                {
                    let d = &defs[i];
                    b.needs[i] =
                        (b.needs[i] + r.colony.attraction_per_hour.value).clamp(d.min, d.max);
                }
            }
            if b.is_bot {
                continue;
            }
            if b.child {
                // Unfavourable needs slow growth (data/needs.json: Hunger's GrowthSpeed -0.4).
                b.growth_penalty += b.penalty(faction, "GrowthSpeed") / 24.0;
            }
            for (i, d) in defs.iter().enumerate() {
                if let Some(limit) = d.dies_at
                    && b.needs[i] <= limit + 1e-9
                {
                    dead.push((*id, if d.id == "Thirst" { "thirst" } else { "hunger" }));
                    break;
                }
            }
        }
        for (id, cause) in dead {
            self.kill_beaver(id, cause);
        }
        self.ailments_hour();
        self.house_beavers();
        self.employ_beavers();
        self.distribute_goods();
        self.breed_in_pods();
        self.launch_wonders();
        self.check_wellbeing_record();
        self.announce_alerts();
    }

    /// The finished area effects working this hour, in id order: (origin, catalogue need id,
    /// radius). One that burns science (`effect.sciencePerHour`, the control tower) spends it
    /// now, and does not work this hour when the colony lacks the points.
    fn working_area_effects(&mut self) -> Vec<([u32; 3], &'static str, u32)> {
        let mut out = Vec::new();
        for (_, b) in self.colony.listed(List::AreaEffects) {
            if !b.finished || b.kind() != Kind::AreaEffect {
                continue;
            }
            let Some((need, _)) = b.prefab.need_served() else {
                continue;
            };
            let cost = b.prefab.effect_science_per_hour();
            if cost > 0 {
                if self.science.points < cost {
                    continue;
                }
                self.science.points -= cost;
            }
            out.push(([b.x, b.y, b.z], need, b.prefab.effect_radius()));
        }
        out
    }

    /// Finished, unpaused, powered stations where bots recharge a need (attractions serving a
    /// bot need).
    fn powered_chargers(&self) -> std::collections::BTreeSet<i32> {
        self.colony
            .listed(List::Attractions)
            .filter(|(id, b)| {
                b.finished
                    && !b.paused
                    && b.kind() == Kind::Attraction
                    && b.prefab
                        .need_served()
                        .is_some_and(|(n, _)| need_id_for(true, n).is_some())
                    && self.is_powered(**id)
            })
            .map(|(id, _)| *id)
            .collect()
    }

    /// Breeding pods with nutrients advance one hour; each full cycle day eats its nutrients and
    /// after `cyclesPerBeaver` cycles a kit is born.
    fn breed_in_pods(&mut self) {
        let pods: Vec<i32> = self
            .colony
            .listed(List::BreedingPods)
            .filter(|(_, b)| {
                b.finished && !b.paused && b.kind() == Kind::BreedingPod && b.district.is_some()
            })
            .map(|(id, _)| *id)
            .collect();
        for id in pods {
            let b = &self.colony.buildings[&id];
            let Some(spec) = b.spec().breeding.as_ref() else {
                continue;
            };
            let per_cycle: Vec<(String, u32)> = spec
                .get("nutrientsPerCycle")
                .and_then(|v| v.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|n| {
                            Some((
                                n.get("good")?.as_str()?.to_owned(),
                                n.get("amount")?.as_u64()? as u32,
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let cycles = spec
                .get("cyclesPerBeaver")
                .and_then(|v| v.as_f64())
                .unwrap_or(5.0);
            let cycle_days = spec
                .get("cycleDays")
                .and_then(|v| v.as_f64())
                .unwrap_or(1.0);
            let fed = b.cycle_started || per_cycle.iter().all(|(g, n)| b.has(g) >= *n);
            if !fed {
                continue;
            }
            let district = b.district;
            let door = self.colony.door(id).expect("exists");
            let b = self.colony.buildings.get_mut(&id).expect("exists");
            if !b.cycle_started {
                for (g, n) in &per_cycle {
                    let got = b.take(g, *n);
                    self.history.consumed(g, got);
                }
                b.cycle_started = true;
            }
            let before = (b.progress / cycle_days).floor();
            b.progress += 1.0 / 24.0;
            let after = (b.progress / cycle_days).floor();
            if after > before {
                b.cycle_started = false;
            }
            if b.progress + 1e-9 >= cycles * cycle_days {
                b.progress = 0.0;
                b.cycle_started = false;
                let kid = self.spawn_beaver(door, true, 0.0, district);
                self.population_changed();
                let day = self.day();
                let data = json!({ "id": kid, "name": self.colony.beavers[&kid].name, "isBot": false, "pod": id });
                self.events.push(names::BEAVER_BORN_EVENT, day, data);
            }
        }
    }

    /// Queues `wellbeing.highscore` when the colony's average wellbeing beats its record.
    fn check_wellbeing_record(&mut self) {
        let faction = self.faction;
        let n = self.colony.beavers.values().filter(|b| !b.is_bot).count();
        if n == 0 {
            return;
        }
        let avg: f64 = self
            .colony
            .beavers
            .values()
            .filter(|b| !b.is_bot)
            .map(|b| b.wellbeing(faction))
            .sum::<f64>()
            / n as f64;
        if avg >= self.colony.wellbeing_high + 1.0 {
            self.colony.wellbeing_high = avg.floor();
            let day = self.day();
            self.events.push(
                names::WELLBEING_HIGHSCORE,
                day,
                json!({ "wellbeing": avg.floor() }),
            );
        }
    }

    /// Dawn: beavers age; children grow up; the old die; bots wear.
    fn colony_dawn(&mut self) {
        let faction = self.faction;
        let r = colony_rules();
        let childhood = r.population.childhood_days.value;
        let tiers = &r.wellbeing.child_growth_speed_tiers.value;
        let (lo, hi) = growth_speed_clamps();
        let mut dead: Vec<(i32, &'static str)> = Vec::new();
        let mut grown: Vec<i32> = Vec::new();
        for (id, b) in self.colony.beavers.iter_mut() {
            b.age_days += 1.0;
            if b.is_bot {
                b.deterioration = (b.age_days / b.lifespan_days).min(1.0);
                if b.deterioration >= 1.0 {
                    dead.push((*id, "deterioration"));
                }
                continue;
            }
            if b.child {
                // The wellbeing tier's bonus plus the day's mean need penalty, within the
                // GrowthSpeed clamps (data/colony.json bonusClamps).
                let speed = (1.0
                    + super::rules::tier_bonus(tiers, b.wellbeing(faction))
                    + b.growth_penalty)
                    .clamp(lo, hi);
                b.growth_penalty = 0.0;
                b.growth += speed / childhood;
                // Six dawns of 1/6 add up to 0.9999999999999999: a hair under 1 is grown.
                if b.growth >= 1.0 - 1e-9 {
                    b.child = false;
                    b.growth = 1.0;
                    grown.push(*id);
                }
            } else {
                let bonus = super::rules::tier_bonus(
                    &r.wellbeing.adult_tiers.value.life_expectancy,
                    b.wellbeing(faction),
                );
                if b.age_days >= b.lifespan_days * (1.0 + bonus) {
                    dead.push((*id, "oldAge"));
                }
            }
        }
        for (id, cause) in dead {
            self.kill_beaver(id, cause);
        }
        if !grown.is_empty() {
            self.population_changed();
        }
    }
}

/// The GrowthSpeed clamps of `data/colony.json` (`wellbeing.bonusClamps`).
fn growth_speed_clamps() -> (f64, f64) {
    let c = &colony_rules().wellbeing._rest["bonusClamps"]["value"]["GrowthSpeed"];
    (c[0].as_f64().unwrap_or(0.1), c[1].as_f64().unwrap_or(2.0))
}

impl super::Colony {
    /// (adults, children, bots), of one district or all.
    pub(crate) fn counts(&self, district: Option<i32>) -> (u32, u32, u32) {
        let mut c = (0, 0, 0);
        for b in self.beavers.values() {
            if district.is_some() && b.district != district {
                continue;
            }
            if b.is_bot {
                c.2 += 1;
            } else if b.child {
                c.1 += 1;
            } else {
                c.0 += 1;
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::world;

    #[test]
    fn a_kit_growing_at_speed_one_comes_of_age_at_the_childhood_days_dawn() {
        let mut w = world();
        let faction = w.faction;
        let (x, y, z) = w.map.start_spot();
        let kit = w.spawn_beaver([x, y, z], true, 0.0, None);
        // Every need at 0 points: unfavourable, so the wellbeing is under the first growth tier
        // and the kit grows at speed 1 (nobody dies of 0 Hunger or Thirst).
        let b = w.colony.beavers.get_mut(&kit).unwrap();
        b.needs.iter_mut().for_each(|p| *p = 0.0);
        let tiers = &colony_rules().wellbeing.child_growth_speed_tiers.value;
        assert_eq!(
            crate::colony::rules::tier_bonus(tiers, b.wellbeing(faction)),
            0.0
        );
        let days = colony_rules().population.childhood_days.value as u32;
        for dawn in 1..=days {
            assert!(w.colony.beavers[&kit].child, "grown before dawn {dawn}");
            w.colony_dawn();
        }
        assert!(!w.colony.beavers[&kit].child, "a child after {days} dawns");
    }

    #[test]
    fn hunger_slows_a_kits_growth_by_its_growth_speed_penalty() {
        // data/needs.json: Hunger, while unfavourable, gives GrowthSpeed -0.4. Two kits live a
        // day, one starving (Hunger at 0 points, unfavourable all day), one fed: at dawn the
        // starving one grows by the penalty less.
        let mut w = world();
        let faction = w.faction;
        let (x, y, z) = w.map.start_spot();
        let starving = w.spawn_beaver([x, y, z], true, 0.0, None);
        let fed = w.spawn_beaver([x, y, z], true, 0.0, None);
        let hunger = crate::colony::beaver::need_defs(faction, false)
            .iter()
            .find(|d| d.id == "Hunger")
            .unwrap();
        let penalty = hunger.penalties["GrowthSpeed"];
        assert!(penalty < 0.0, "Hunger slows growth in the data");
        for _ in 0..24 {
            w.colony
                .beavers
                .get_mut(&starving)
                .unwrap()
                .set_need(faction, "Hunger", |_| 0.0);
            w.colony
                .beavers
                .get_mut(&fed)
                .unwrap()
                .set_need(faction, "Hunger", |_| 1.0);
            w.colony_hour();
        }
        let r = colony_rules();
        let tiers = &r.wellbeing.child_growth_speed_tiers.value;
        let childhood = r.population.childhood_days.value;
        let speed = |w: &World, id: i32| {
            1.0 + crate::colony::rules::tier_bonus(tiers, w.colony.beavers[&id].wellbeing(faction))
        };
        let (s_starving, s_fed) = (speed(&w, starving), speed(&w, fed));
        w.colony_dawn();
        let grown = |id: i32| w.colony.beavers[&id].growth;
        assert!(
            (grown(fed) - s_fed / childhood).abs() < 1e-9,
            "fed: {} after a day, {} expected",
            grown(fed),
            s_fed / childhood
        );
        assert!(
            (grown(starving) - (s_starving + penalty) / childhood).abs() < 1e-9,
            "starving: {} after a day, {} expected (speed {s_starving} {penalty:+})",
            grown(starving),
            (s_starving + penalty) / childhood
        );
    }
}

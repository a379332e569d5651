//! Ailments of beavers: injuries at dangerous workplaces, badwater contamination, and their cures.
//!
//! Ailment needs (Injury, BadwaterContamination, ...) range from -1 to 0 and are favourable at 0.
//! While one the catalogue marks `preventsWork` is below 0 the beaver takes neither work nor
//! hauling (`Beaver::kept_from_work`); the catalogue's `penaltiesWhileUnfavorable` (movement and
//! working speed) apply meanwhile. Bots have none of these needs (the catalogue says they are
//! immune to contamination).
//!
//! - Injury: a work step at a workplace the injury table names (`ailments.injuries` in
//!   `data/colony.json`, by base name) rolls its chance per hour x hours worked x the game mode's
//!   `injuryChance`; the injured beaver's need drops to the table's points. It heals by the need's
//!   daily delta (0.1 a day) and `medicalBedPerHour` more while it lies in a Medical Bed.
//! - Contamination: each hour, a beaver standing in water at least `exposureMinDepth` deep whose
//!   badwater share is above the world's `beaverExposureThreshold` is contaminated with
//!   `contaminationChancePerHour`: the need drops to -1, the beaver's `contaminated` flag is set
//!   and `contamination.changed {scope: "beaver", id, name, contaminated: true}` fires. It never
//!   heals alone. Folktails take an Antidote from district stock (`antidoteDose` points, at most
//!   one dose every `antidoteIntervalHours`); IronTeeth rest in a finished, powered
//!   Decontamination Pod (the catalogue's `effect.approxDaysToCure`) that holds Extract (its
//!   `effect.consumes`; haulers keep `treatmentGoodStock` in it and treatment uses
//!   `treatmentGoodPerHour`). Once the need is back at 0
//!   the flag clears and the event fires with `contaminated: false`.
//!
//! The RNG is drawn only when a beaver is exposed or works at a dangerous workplace, so colonies
//! without either keep the same random stream.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::json;

use super::beaver::{Step, need_defs};
use super::behave::{hours_to_ticks, walk};
use super::rules::colony_rules;
use crate::catalog::{Fact, world_rules};
use crate::config::Faction;
use crate::event::names;
use crate::world::World;

pub(crate) const INJURY: &str = "Injury";
pub(crate) const CONTAMINATION: &str = "BadwaterContamination";

/// One row of the injury table.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InjuryRisk {
    /// Need points after the injury (-1 to 0).
    pub points: f64,
    /// Chance per hour worked (before the game mode's factor).
    pub chance_per_hour: f64,
}

/// `ailments` in `data/colony.json`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AilmentRules {
    pub injuries: Fact<BTreeMap<String, InjuryRisk>>,
    pub medical_bed_per_hour: Fact<f64>,
    pub contamination_chance_per_hour: Fact<f64>,
    pub exposure_min_depth: Fact<f32>,
    pub antidote_dose: Fact<f64>,
    pub antidote_interval_hours: Fact<f64>,
    pub treatment_good_per_hour: Fact<f64>,
    pub treatment_good_stock: Fact<u32>,
}

/// The good a treating building uses up while it treats (the pod's `effect.consumes`), with the
/// stock it keeps hauled in.
pub(crate) fn supply_want(b: &super::building::Building) -> Option<(String, u32)> {
    // The effect first: most buildings have none, and this runs in every haul search.
    let good = b.spec().effect.as_ref()?.get("consumes")?.as_str()?;
    treatment(b)?;
    Some((
        good.to_owned(),
        colony_rules().ailments.treatment_good_stock.value,
    ))
}

/// The building that treats a need: `(need, points per hour)` for Medical Beds and
/// Decontamination Pods, from the catalogue.
fn treatment(b: &super::building::Building) -> Option<(&'static str, f64)> {
    let s = b.spec();
    let comps = |c: &str| s.components.iter().any(|x| x == c);
    if !comps("EntererNeedSuspendingBuildingSpec") {
        return None;
    }
    if let Some(days) = s
        .effect
        .as_ref()
        .filter(|e| e.get("cures").and_then(|c| c.as_str()) == Some("Beaver.BadwaterContamination"))
        .and_then(|e| e.get("approxDaysToCure"))
        .and_then(|d| d.as_f64())
    {
        return Some((CONTAMINATION, 1.0 / (days.max(0.1) * 24.0)));
    }
    if s.base_name == "MedicalBed" {
        return Some((INJURY, colony_rules().ailments.medical_bed_per_hour.value));
    }
    None
}

impl World {
    /// The hourly step: exposure to badwater, and cured beavers losing their flag.
    pub(crate) fn ailments_hour(&mut self) {
        let faction = self.faction;
        if super::beaver::need_index(faction, false, CONTAMINATION).is_none() {
            return;
        }
        let a = &colony_rules().ailments;
        let threshold = world_rules().contamination.beaver_exposure_threshold.value as f32;
        let now = self.ticks;
        let ids: Vec<i32> = self.colony.beavers.keys().copied().collect();
        for id in ids {
            let b = &self.colony.beavers[&id];
            if b.is_bot {
                continue;
            }
            let [x, y, _] = b.position(now);
            let exposed = self.map.contains(x.into(), y.into())
                && self.water_depth(x, y) >= a.exposure_min_depth.value
                && self.badwater_share(x, y) > threshold;
            let flagged = b.contaminated;
            let healthy = b.need(faction, CONTAMINATION).is_none_or(|p| p >= 0.0);
            if exposed
                && healthy
                && self
                    .colony
                    .rng
                    .chance(a.contamination_chance_per_hour.value)
            {
                let b = self.colony.beavers.get_mut(&id).expect("exists");
                b.set_need(faction, CONTAMINATION, |_| -1.0);
                b.contaminated = true;
                self.announce_contamination(id, true);
            } else if flagged && healthy {
                self.colony
                    .beavers
                    .get_mut(&id)
                    .expect("exists")
                    .contaminated = false;
                self.announce_contamination(id, false);
            }
        }
    }

    fn announce_contamination(&mut self, id: i32, contaminated: bool) {
        let name = self.colony.beavers[&id].name.clone();
        let day = self.day();
        self.events.push(
            names::CONTAMINATION_CHANGED,
            day,
            json!({ "scope": "beaver", "id": id, "name": name, "contaminated": contaminated }),
        );
        if contaminated {
            self.notify(
                format!("{name} was contaminated by badwater"),
                "Contaminated beavers do not work until cured (Antidote, Decontamination Pod)."
                    .to_owned(),
            );
        }
    }

    /// After `hours` of work at `building`: the injury roll of a dangerous workplace.
    pub(crate) fn injury_roll(&mut self, id: i32, building: i32, hours: f64) {
        let faction = self.faction;
        let Some(b) = self.colony.beavers.get(&id) else {
            return;
        };
        if b.is_bot || b.need(faction, INJURY).is_none_or(|p| p < 0.0) {
            return;
        }
        let Some(base) = self
            .colony
            .buildings
            .get(&building)
            .map(|w| &w.spec().base_name)
        else {
            return;
        };
        let Some(risk) = colony_rules().ailments.injuries.value.get(base) else {
            return;
        };
        let mode = crate::catalog::world_rules().mode(self.mode).injury_chance;
        let chance = (risk.chance_per_hour * hours * mode).clamp(0.0, 1.0);
        if chance > 0.0 && self.colony.rng.chance(chance) {
            let b = self.colony.beavers.get_mut(&id).expect("exists");
            b.set_need(faction, INJURY, |_| risk.points);
            let name = b.name.clone();
            self.notify(
                format!("{name} was injured at work"),
                "Injured beavers rest until healed; a Medical Bed speeds recovery.".to_owned(),
            );
        }
    }

    /// What an ailing beaver does about it: an Antidote from stock, or a stay in a treating
    /// building of its district. `None` when it is well or nothing can help now.
    pub(crate) fn cure_plan(&self, id: i32, district: i32) -> Option<Vec<Step>> {
        let faction = self.faction;
        let b = &self.colony.beavers[&id];
        if b.is_bot {
            return None;
        }
        let a = &colony_rules().ailments;
        let ailing = |need: &str| b.need(faction, need).is_some_and(|p| p < 0.0);
        if ailing(CONTAMINATION)
            && faction == Faction::Folktails
            && self.ticks >= b.last_dose + hours_to_ticks(a.antidote_interval_hours.value)
            && let Some((src, good)) = self.nearest_with(district, b.to, |g| g == "Antidote")
        {
            let door = self.colony.door(src)?;
            return Some(vec![
                walk(door),
                Step::Consume {
                    building: src,
                    good,
                },
            ]);
        }
        for need in [CONTAMINATION, INJURY] {
            if !ailing(need) {
                continue;
            }
            let bed = self
                .colony
                .buildings
                .iter()
                .filter(|(bid, t)| {
                    t.finished
                        && !t.paused
                        && t.district == Some(district)
                        && treatment(t).is_some_and(|(n, _)| n == need)
                        && supply_want(t).is_none_or(|(g, _)| t.has(&g) > 0)
                        && self.is_powered(**bid)
                })
                .map(|(bid, _)| *bid)
                .min_by_key(|bid| {
                    let d = self.colony.door(*bid).unwrap_or(b.to);
                    (super::nav::manhattan(b.to, d), *bid)
                });
            if let Some(bed) = bed {
                let door = self.colony.door(bed)?;
                return Some(vec![
                    walk(door),
                    Step::Visit {
                        building: bed,
                        need: need.to_owned(),
                        hours: colony_rules().colony.visit_hours.value,
                    },
                ]);
            }
        }
        None
    }

    /// Takes a cure good (an Antidote) from a building; `false` when the good cures nothing.
    pub(crate) fn take_dose(&mut self, id: i32, building: i32, good: &str) -> bool {
        if good != "Antidote" {
            return false;
        }
        let faction = self.faction;
        let now = self.ticks;
        let got = self
            .colony
            .buildings
            .get_mut(&building)
            .map_or(0, |s| s.take(good, 1));
        self.history.consumed(good, got);
        if got > 0
            && let Some(b) = self.colony.beavers.get_mut(&id)
        {
            let dose = colony_rules().ailments.antidote_dose.value;
            b.set_need(faction, CONTAMINATION, |p| p + dose);
            b.last_dose = now;
        }
        true
    }

    /// After `hours` of treatment: a building that uses a good up takes its share
    /// (`treatmentGoodPerHour`), a whole unit at a time.
    pub(crate) fn use_treatment_supply(&mut self, building: i32, hours: f64) {
        let Some(b) = self.colony.buildings.get_mut(&building) else {
            return;
        };
        let Some((good, _)) = supply_want(b) else {
            return;
        };
        b.progress += colony_rules().ailments.treatment_good_per_hour.value * hours;
        while b.progress >= 1.0 && b.has(&good) > 0 {
            b.take(&good, 1);
            self.history.consumed(&good, 1);
            b.progress -= 1.0;
        }
    }

    /// Points per hour a visit gives its need: a treating building's rate, else the attraction
    /// rate.
    pub(crate) fn visit_rate(&self, building: i32, need: &str) -> f64 {
        self.colony
            .buildings
            .get(&building)
            .and_then(treatment)
            .filter(|(n, _)| *n == need)
            .map_or(colony_rules().colony.attraction_per_hour.value, |(_, r)| r)
    }
}

/// The sum of a bonus key's penalties (`MovementSpeed`, `WorkingSpeed`) over a beaver's
/// unfavourable needs.
pub(crate) fn penalty(faction: Faction, points: &[f64], key: &str) -> f64 {
    need_defs(faction, false)
        .iter()
        .zip(points)
        .filter(|(d, p)| !d.favorable_at(**p))
        .filter_map(|(d, _)| d.penalties.get(key))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colony::building::spec;
    use crate::testutil::{DAY, HOUR, build, events_named, flat_area, path_route, world};

    /// The first adult of the colony, standing at the district center's doorstep.
    fn an_adult(w: &mut World) -> i32 {
        let dc = w.colony.centers()[0];
        let door = w.colony.door(dc).unwrap();
        let id = *w
            .colony
            .beavers
            .iter()
            .find(|(_, b)| !b.child)
            .map(|(id, _)| id)
            .unwrap();
        let now = w.ticks;
        let b = w.colony.beavers.get_mut(&id).unwrap();
        (b.from, b.to, b.depart, b.arrive) = (door, door, now, now);
        id
    }

    fn need(w: &World, id: i32, need: &str) -> f64 {
        w.colony.beavers[&id].need(w.faction, need).unwrap()
    }

    #[test]
    fn the_injury_table_names_real_buildings_and_cures_have_their_rates() {
        for name in colony_rules().ailments.injuries.value.keys() {
            assert!(
                crate::content::content()
                    .buildings
                    .values()
                    .any(|b| &b.base_name == name),
                "{name} is no building"
            );
        }
        let bed = super::super::building::Building::new(
            "MedicalBed.Folktails",
            0,
            0,
            0,
            Default::default(),
        );
        assert_eq!(treatment(&bed), Some((INJURY, 0.015)));
        let pod = super::super::building::Building::new(
            "DecontaminationPod.IronTeeth",
            0,
            0,
            0,
            Default::default(),
        );
        let (n, rate) = treatment(&pod).unwrap();
        assert_eq!(n, CONTAMINATION);
        assert!((rate * 48.0 - 1.0).abs() < 1e-9, "two days to cure: {rate}");
        assert!(spec("LumberMill.Folktails").base_name == "LumberMill");
    }

    #[test]
    fn a_decontamination_pod_keeps_extract_and_uses_it_while_treating() {
        let mut w = World::new(&crate::config::NewGame {
            faction: Faction::IronTeeth,
            ..Default::default()
        });
        let (x, y, z) = flat_area(&mut w, 3, 3);
        let pod = build(&mut w, "DecontaminationPod.IronTeeth", x, y, z, "south");
        let b = &w.colony.buildings[&pod];
        assert_eq!(
            crate::colony::behave::input_wants(b),
            vec![("Extract".to_owned(), 4)],
            "haulers keep Extract in the pod"
        );
        w.colony.buildings.get_mut(&pod).unwrap().add("Extract", 2);
        // 25 patient-hours at 0.1 an hour: two units used, half of the next one owed.
        w.use_treatment_supply(pod, 25.0);
        let b = &w.colony.buildings[&pod];
        assert_eq!(b.has("Extract"), 0);
        assert!((b.progress - 0.5).abs() < 1e-9, "{}", b.progress);
        // A medical bed uses nothing.
        let (bx, by, bz) = flat_area(&mut w, 2, 3);
        let bed = build(&mut w, "MedicalBed.IronTeeth", bx, by, bz, "south");
        assert!(crate::colony::behave::input_wants(&w.colony.buildings[&bed]).is_empty());
    }

    #[test]
    fn an_injured_beaver_stops_working_heals_and_heals_faster_in_a_medical_bed() {
        let mut w = world();
        let id = an_adult(&mut w);
        let (x, y, z) = flat_area(&mut w, 3, 3);
        let mill = build(&mut w, "LumberMill.Folktails", x, y, z, "south");
        // A long enough shift makes the roll certain (chance clamps at 1).
        w.injury_roll(id, mill, 10_000.0);
        assert!(
            (need(&w, id, INJURY) + 0.1).abs() < 1e-9,
            "the mill's injury"
        );
        assert!(w.colony.beavers[&id].kept_from_work(w.faction));
        assert!(
            w.notifications()
                .iter()
                .any(|n| n.subject.contains("injured"))
        );
        // No work and no hauling while injured; the job goes to someone else.
        w.colony.beavers.get_mut(&id).unwrap().plan.clear();
        for _ in 0..8 {
            w.advance_ticks(HOUR);
            let b = &w.colony.beavers[&id];
            assert_eq!(b.workplace, None, "an injured beaver is unemployable");
            assert!(
                w.colony
                    .buildings
                    .values()
                    .all(|t| !t.workers.contains(&id))
            );
            assert!(
                !b.plan.iter().any(|s| matches!(
                    s,
                    Step::Work { .. } | Step::Build { .. } | Step::Pickup { .. }
                )),
                "an injured beaver works: {:?}",
                b.plan
            );
        }
        // The need's own healing (0.1 a day) ends it within a day.
        w.advance_ticks(DAY);
        assert_eq!(need(&w, id, INJURY), 0.0);
        assert!(!w.colony.beavers[&id].kept_from_work(w.faction));

        // A bad injury heals 0.1 a day alone; a medical bed of the district adds 0.015 an hour.
        let dc = w.colony.centers()[0];
        let dc_door = w.colony.door(dc).unwrap();
        let (bx, by, bz) = flat_area(&mut w, 2, 3);
        let bed = build(&mut w, "MedicalBed.Folktails", bx, by, bz, "south");
        let door = w.colony.door(bed).unwrap();
        for (px, py) in path_route(&w, (dc_door[0], dc_door[1]), (door[0], door[1]), bz)
            .expect("a path to the bed")
        {
            if !w
                .colony
                .blocks
                .contains_key(&crate::colony::geometry::voxel(px, py, bz))
            {
                build(&mut w, "Path", px, py, bz, "south");
            }
        }
        assert_eq!(w.colony.buildings[&bed].district, Some(dc));
        let s = crate::content::content().buildings["BotAssembler.Folktails"].size;
        let (bx, by, bz) = flat_area(&mut w, s.x, s.y);
        let bot_assembler = build(&mut w, "BotAssembler.Folktails", bx, by, bz, "south");
        w.injury_roll(id, bot_assembler, 10_000.0);
        assert_eq!(need(&w, id, INJURY), -1.0);
        w.colony.beavers.get_mut(&id).unwrap().plan.clear();
        let mut visited = false;
        for _ in 0..24 {
            let sleep = need(&w, id, "Sleep");
            w.advance_ticks(HOUR);
            let b = &w.colony.beavers[&id];
            if b.step_until > 0
                && b.plan
                    .front()
                    .is_some_and(|s| matches!(s, Step::Visit { building, .. } if *building == bed))
            {
                visited = true;
                assert!(need(&w, id, "Sleep") >= sleep, "Sleep holds in the bed");
            }
        }
        assert!(visited, "the injured beaver lay in the bed");
        let healed = need(&w, id, INJURY) + 1.0;
        assert!(
            healed > 0.2,
            "a day with the bed healed {healed} (0.1 alone)"
        );
    }

    #[test]
    fn badwater_contaminates_and_antidotes_cure_folktails() {
        let mut w = world();
        let id = an_adult(&mut w);
        // A river tile turned to badwater under the beaver's feet.
        let (rx, ry) = (0..w.map.height())
            .flat_map(|y| (0..w.map.width()).map(move |x| (x, y)))
            .find(|&(x, y)| w.water_depth(x, y) >= 0.3)
            .expect("a river tile");
        let i = w.land.idx(rx, ry);
        w.land.water.bad[i] = w.land.water.depth[i];
        let z = u32::from(w.map.terrain_height(rx, ry));
        let now = w.ticks;
        {
            let b = w.colony.beavers.get_mut(&id).unwrap();
            (b.from, b.to, b.depart, b.arrive) = ([rx, ry, z], [rx, ry, z], now, now);
        }
        w.take_events();
        let mut hours = 0;
        while !w.colony.beavers[&id].contaminated {
            w.ailments_hour();
            hours += 1;
            assert!(hours < 100, "standing in badwater never contaminated");
        }
        assert_eq!(need(&w, id, CONTAMINATION), -1.0);
        assert!(w.colony.beavers[&id].kept_from_work(w.faction));
        let ev = events_named(&mut w, names::CONTAMINATION_CHANGED);
        assert_eq!(ev.len(), 1);
        assert_eq!(
            (
                ev[0]["scope"].as_str(),
                ev[0]["id"].as_i64(),
                ev[0]["contaminated"].as_bool()
            ),
            (Some("beaver"), Some(i64::from(id)), Some(true))
        );
        // Clean water never contaminates; bots never are.
        w.land.water.bad[i] = 0.0;
        let other = *w.colony.beavers.keys().find(|b| **b != id).unwrap();
        {
            let b = w.colony.beavers.get_mut(&other).unwrap();
            (b.from, b.to, b.depart, b.arrive) = ([rx, ry, z], [rx, ry, z], now, now);
        }
        for _ in 0..50 {
            w.ailments_hour();
        }
        assert!(!w.colony.beavers[&other].contaminated);
        // Back home, Antidotes in stock: one dose every 12 hours, eight doses cure.
        let dc = w.colony.centers()[0];
        let door = w.colony.door(dc).unwrap();
        {
            let b = w.colony.beavers.get_mut(&id).unwrap();
            (b.from, b.to, b.depart, b.arrive) = (door, door, now, now);
            b.plan.clear();
        }
        w.colony.buildings.get_mut(&dc).unwrap().add("Antidote", 20);
        w.advance_ticks(2 * DAY);
        let taken = 20 - w.colony.buildings[&dc].has("Antidote");
        assert!((3..=5).contains(&taken), "doses in two days: {taken}");
        assert!(w.colony.beavers[&id].contaminated, "not cured yet");
        w.advance_ticks(3 * DAY);
        assert_eq!(20 - w.colony.buildings[&dc].has("Antidote"), 8);
        assert_eq!(need(&w, id, CONTAMINATION), 0.0);
        assert!(!w.colony.beavers[&id].contaminated);
        let ev = events_named(&mut w, names::CONTAMINATION_CHANGED);
        assert!(
            ev.iter()
                .any(|e| e["scope"] == "beaver" && e["contaminated"] == false && e["id"] == id)
        );
    }
}

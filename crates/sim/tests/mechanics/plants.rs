//! Plants: crop and tree growth in their growth days, the berries a gatherer brings from each
//! gather, the logs each tree cut makes and the loads a lumberjack carries (within the lifting
//! limit, the rest of a tree fetched from its stump).

use std::collections::{BTreeMap, BTreeSet};

use sim::catalog::{nature, world_rules};
use sim::colony::rules::colony_rules;
use sim::content::content;
use sim::{GameMode, World, event_names, ticks_per_day};

use super::placing::{
    all_goods, dc_door, lumberjack_by_nearest_forest, mark_trees_around, try_place_toward,
};
use super::{game, hour, hours_per_day, produced, provenance, report};

/// Plants `species` on up to `count` moist tiles near the start spot of seed 11, just after an
/// hour began, and reads the plants and their tiles every hour for up to `max_days`. Returns the
/// hours from planting until each plant was grown, for the plants whose tile was moist and
/// unflooded at every reading (growth is binary on moisture).
fn hours_to_grow(species: &str, count: usize, max_days: u64) -> Vec<u64> {
    let mut w = World::new(&game(11));
    let (sx, sy, _) = w.map().start_spot();
    let (sx, sy) = (i64::from(sx), i64::from(sy));
    let mut spots = w
        .find_planting_spots(species, sx - 30, sy - 30, sx + 30, sy + 30, None)
        .unwrap();
    // The wettest soil first: it stays moist while the river's level moves.
    spots.retain(|s| s.moist);
    spots.sort_by(|a, b| w.moisture(b.x, b.y).total_cmp(&w.moisture(a.x, a.y)));
    w.advance_ticks(1);
    let mut plants: Vec<(i32, u32, u32)> = Vec::new();
    for s in &spots {
        if plants.len() == count {
            break;
        }
        if let Ok(id) = w.plant(s.x.into(), s.y.into(), species) {
            plants.push((id, s.x, s.y));
        }
    }
    assert!(!plants.is_empty(), "moist land for {species}");
    let flood = nature()
        .species
        .iter()
        .find(|s| s.name == species)
        .unwrap()
        .flooding
        .max_water_height
        .max(0.05);
    let mut grown: BTreeMap<i32, u64> = BTreeMap::new();
    let mut watered: BTreeSet<i32> = plants.iter().map(|p| p.0).collect();
    for h in 1..=max_days * 24 {
        w.advance_ticks(hour());
        for &(id, x, y) in &plants {
            if grown.contains_key(&id) {
                continue;
            }
            let t = &w
                .tiles(x.into(), y.into(), x.into(), y.into())
                .unwrap()
                .tiles[0];
            if !t.moist || f64::from(t.water) >= flood {
                watered.remove(&id);
            }
            let p = w.plant_by_id(id).expect("the plant stands");
            assert!(p.alive, "{species} {id} died");
            if p.grown {
                grown.insert(id, h);
            }
        }
        if grown.len() == plants.len() {
            break;
        }
    }
    grown.retain(|id, _| watered.contains(id));
    assert!(!grown.is_empty(), "no {species} grew on moist land");
    grown.into_values().collect()
}

/// Growth steps come at full hours and the plants were planted just after one, so a plant that
/// grows in `growthDays` is grown at the reading `growthDays x 24` hours later: no tolerance.
fn check_growth(mechanic: &str, species: &[&str], max_days: u64) {
    let cat = &nature().rules;
    let (mut measured, mut data, mut prov) = (Vec::new(), Vec::new(), BTreeSet::new());
    for name in species {
        let fact = cat
            .trees
            .iter()
            .find(|t| t.id == *name)
            .map(|t| &t.growth_days)
            .or_else(|| {
                cat.crops
                    .iter()
                    .find(|c| c.id == *name)
                    .map(|c| &c.growth_days)
            })
            .unwrap();
        let hours = hours_to_grow(name, 3, max_days);
        let expected = (fact.value * hours_per_day()).round() as u64;
        measured.push(format!(
            "{name} {} ({} h)",
            hours[0] as f64 / hours_per_day(),
            hours
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join("/")
        ));
        data.push(format!("{name} {} ({expected} h)", fact.value));
        prov.insert(provenance(fact));
        for h in &hours {
            assert_eq!(
                *h, expected,
                "{name} grew in {h} h, growthDays {}",
                fact.value
            );
        }
    }
    report(
        mechanic,
        measured.join(", "),
        format!("growthDays {}", data.join(", ")),
        &prov.into_iter().collect::<Vec<_>>().join("; "),
    );
}

#[test]
fn a_planted_carrot_grows_in_its_growth_days() {
    check_growth("crop growth (days, planted on moist soil)", &["Carrot"], 6);
}

#[test]
fn planted_trees_grow_in_their_growth_days() {
    // Both can grow before the first drought begins (the shortest temperate season of Normal).
    let days = world_rules().mode(GameMode::Normal).temperate_days[0];
    check_growth(
        "tree growth (days, planted on moist soil)",
        &["Birch", "Pine"],
        days.into(),
    );
}

/// One finished cut or gather: what the worker carried away and, for a cut, the tree's species
/// (from the `tree.cut` event of that tick, when only one tree was cut then).
struct Act {
    amount: u32,
    good: String,
}

/// Follows the workers of `workplace` (base name) tick by tick for `ticks` and returns every
/// `activity` step they finished, with the load they carried away right after it.
fn follow_acts(w: &mut World, workplace: &str, activity: &str, ticks: u64) -> Vec<Act> {
    let mut doing: BTreeMap<i32, bool> = BTreeMap::new();
    let mut acts = Vec::new();
    for _ in 0..ticks {
        w.tick();
        for b in w.beavers(false) {
            if b.workplace != workplace {
                continue;
            }
            let now = b.activity == activity;
            let was = doing.insert(b.id, now).unwrap_or(false);
            if was && !now {
                acts.push(Act {
                    amount: b.carry_amount.unwrap_or(0),
                    good: b.carrying.clone().unwrap_or_default(),
                });
            }
        }
    }
    acts
}

#[test]
fn a_gatherer_brings_a_bush_yield_from_each_gather() {
    let mut w = World::new(&game(8));
    let door = dc_door(&w);
    let (dx, dy, dz) = (door.0 as u32, door.1 as u32, door.2 as u32);
    let flag = w
        .food_clusters_near(dx, dy, dz, 40)
        .iter()
        .find_map(|f| {
            let (fx, fy) = (i64::from(f.x), i64::from(f.y));
            try_place_toward(
                &mut w,
                "GathererFlag.Folktails",
                (fx - 6, fy - 6, fx + 6, fy + 6),
                (fx, fy),
            )
        })
        .expect("bushes a path can reach");
    let start = produced(&w, "Berries");
    let acts = follow_acts(&mut w, "GathererFlag", "gathering", ticks_per_day());
    assert!(w.building_view(flag).unwrap().finished);
    // The bushes ripe within the flag's reach at the start (they take regrowDays to bear again).
    assert!(acts.len() >= 3, "{} gathers in a day", acts.len());
    let total: u32 = acts.iter().map(|a| a.amount).sum();
    assert_eq!(f64::from(total), produced(&w, "Berries") - start);
    // Each gather takes a bush's whole yield at once: no tolerance.
    let bushes = &nature().rules.bushes;
    let mut names = BTreeSet::new();
    for a in &acts {
        let bush = bushes
            .iter()
            .find(|b| b.yields.value.good == a.good)
            .unwrap_or_else(|| panic!("a bush yields {}", a.good));
        assert_eq!(a.amount, bush.yields.value.amount, "{}", bush.id);
        names.insert(bush.id.as_str());
    }
    let bush = bushes
        .iter()
        .find(|b| names.contains(b.id.as_str()))
        .unwrap();
    assert_eq!(names.len(), 1);
    report(
        &format!("{} yield (per gather, a gatherer's first day)", bush.id),
        format!(
            "{} {} ({total} from {} gathers)",
            f64::from(total) / acts.len() as f64,
            bush.yields.value.good,
            acts.len()
        ),
        format!("yield {}", bush.yields.value.amount),
        &provenance(&bush.yields),
    );
}

/// The weight of a load of `n` units of a good (`data/goods.json` carryWeight).
fn load_weight(good: &str, n: u32) -> f64 {
    content().goods[good].carry_weight.unwrap_or(1.0) * f64::from(n)
}

#[test]
fn a_lumberjack_carries_within_the_lifting_limit_and_fetches_every_log_of_each_tree() {
    let mut w = World::new(&game(11));
    let door = dc_door(&w);
    let lj = lumberjack_by_nearest_forest(&mut w);
    // The flag first (its logs come from the district center), then the count starts: nothing
    // else in the colony makes or uses logs.
    while !w.building_view(lj).unwrap().finished {
        w.tick();
    }
    mark_trees_around(&mut w, lj, door.2);
    let cap = f64::from(colony_rules().hauling.lifting_capacity.value);
    let logs = |w: &World| all_goods(w).get("Log").copied().unwrap_or(0) as f64;
    let (start_made, start_held) = (produced(&w, "Log"), logs(&w));
    let trees = &nature().rules.trees;
    let mut per: BTreeMap<&str, (u32, f64, u32)> = BTreeMap::new();
    let mut prov = BTreeSet::new();
    let mut heaviest = 0.0f64;
    let mut trips = 0u32;
    let mut carrying: BTreeMap<i32, bool> = BTreeMap::new();
    // A day of cutting, then a day with the marks lifted: the logs left at the stumps are
    // fetched.
    for t in 0..2 * ticks_per_day() {
        if t == ticks_per_day() {
            let l = w.building_view(lj).unwrap();
            let (x, y) = (i64::from(l.x), i64::from(l.y));
            w.set_cutting_area(x - 20, y - 20, x + 20, y + 20, door.2, false)
                .unwrap();
        }
        let made = produced(&w, "Log");
        w.tick();
        let cut: Vec<String> = w
            .take_events()
            .into_iter()
            .filter(|e| e.name == event_names::TREE_CUT)
            .map(|e| e.data.unwrap()["name"].as_str().unwrap().to_owned())
            .collect();
        // A tree's whole logYield is made when it falls (one tree at a time: by species).
        if let [name] = cut.as_slice() {
            let t = trees.iter().find(|t| t.id == *name).unwrap();
            let e = per
                .entry(t.id.as_str())
                .or_insert((0, 0.0, t.log_yield.value));
            e.0 += 1;
            e.1 += produced(&w, "Log") - made;
            prov.insert(provenance(&t.log_yield));
        }
        // Every carrier (lumberjack, hauler, builder) within the lifting limit (a single unit
        // heavier than the limit may still be carried).
        for b in w.beavers(true) {
            let load = match (&b.carrying, b.carry_amount) {
                (Some(g), Some(n)) if n > 0 => Some((g.clone(), n)),
                _ => None,
            };
            if let Some((g, n)) = &load {
                let kg = load_weight(g, *n);
                assert!(
                    *n == 1 || kg <= cap + 1e-9,
                    "{} ({}) carries {n} {g} weighing {kg} over the lifting limit {cap}",
                    b.name,
                    b.activity
                );
                if b.workplace == "LumberjackFlag" && g == "Log" {
                    heaviest = heaviest.max(kg);
                    if !carrying.get(&b.id).copied().unwrap_or(false) {
                        trips += 1;
                    }
                }
            }
            carrying.insert(
                b.id,
                b.workplace == "LumberjackFlag" && load.is_some_and(|(g, _)| g == "Log"),
            );
        }
    }
    assert!(!per.is_empty(), "trees were cut");
    let made = produced(&w, "Log") - start_made;
    for (name, (cuts, logs, y)) in &per {
        assert_eq!(*logs, f64::from(cuts * y), "{name}: logs made per cut");
    }
    // Nothing lost: every log made is in an inventory, a load or a pile at a stump; piles are
    // left only while the flag has no room for them (this colony has no log storage).
    let piled: u32 = w.piles().values().map(|p| p.amount).sum();
    assert_eq!(
        logs(&w) + f64::from(piled) - start_held,
        made,
        "logs made but not in the colony"
    );
    let flag = w.building_view(lj).unwrap();
    assert!(
        piled == 0 || flag.stock >= flag.capacity,
        "{piled} logs left at stumps with room at the flag: {flag:?}"
    );
    let log_w = load_weight("Log", 1);
    report(
        "logs per tree cut (a lumberjack's first day)",
        per.iter()
            .map(|(n, (cuts, logs, _))| format!("{n} {} x{cuts}", logs / f64::from(*cuts)))
            .collect::<Vec<_>>()
            .join(", "),
        format!(
            "logYield {}",
            per.iter()
                .map(|(n, (_, _, y))| format!("{n} {y}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &prov.into_iter().collect::<Vec<_>>().join("; "),
    );
    report(
        "a lumberjack's load (weight, two days)",
        format!(
            "at most {heaviest} ({} Log); {made} logs in {trips} trips, {piled} left at stumps \
             (the flag full)",
            heaviest / log_w
        ),
        format!(
            "liftingCapacity {cap} / Log carryWeight {log_w}: {} Log",
            (cap / log_w).floor()
        ),
        &provenance(&colony_rules().hauling.lifting_capacity),
    );
}

//! Ten mechanics measured in seeded games through the world's commands, each compared with the
//! value the catalogue holds: need decay (thirst and hunger), drought length, crop growth, tree
//! growth, berries per gather, logs per cut tree, pump and inventor output per working hour,
//! building costs, builder-hours per material unit and the days a kit takes to grow up.
//!
//! Expected values are read at run time from the catalogue (`sim::catalog`, `sim::content`,
//! `sim::colony::rules`, i.e. `data/*.json`), never copied here. Each test prints one line per
//! mechanic, `mechanic | measured | data | source-or-estimate`, visible with `--nocapture`.

#[path = "common/placing.rs"]
mod placing;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;

use placing::{
    all_goods, dc_door, lumberjack_by_nearest_forest, mark_trees_around, place_near, place_pump,
    try_place_toward,
};
use sim::catalog::{Confidence, Fact, nature, world_rules};
use sim::colony::BeaverView;
use sim::colony::rules::{colony_rules, tier_bonus};
use sim::content::content;
use sim::{Faction, GameMode, HazardKind, NewGame, Setup, World, event_names, ticks_per_day};

fn game(seed: u64) -> NewGame {
    NewGame {
        seed,
        faction: Faction::Folktails,
        mode: GameMode::Normal,
        ..NewGame::default()
    }
}

/// Ticks in one game hour.
fn hour() -> u64 {
    world_rules().ticks_per_hour()
}

fn hours_per_day() -> f64 {
    f64::from(world_rules().time.hours_per_day.value)
}

/// One line of the report.
fn report(mechanic: &str, measured: impl Display, data: impl Display, provenance: &str) {
    println!("{mechanic} | {measured} | {data} | {provenance}");
}

/// `source (ids)` or `estimate` for a fact of world.json, nature.json or colony.json.
fn provenance<T>(f: &Fact<T>) -> String {
    match f.confidence {
        Confidence::Source => format!("source ({})", f.source.as_deref().unwrap_or("-")),
        Confidence::Estimate => "estimate".to_owned(),
    }
}

/// The provenance of a field of the content catalogue (buildings, recipes, needs), whose entries
/// name their estimated fields.
fn content_provenance(estimated: bool) -> String {
    if estimated {
        "estimate".to_owned()
    } else {
        "source (shared game-data catalogue)".to_owned()
    }
}

/// Everything made of a good since the game began: the history's rows and the hour under way.
fn produced(w: &World, good: &str) -> f64 {
    let h = w.history();
    h.rows
        .iter()
        .filter_map(|r| r.produced.get(good))
        .sum::<f64>()
        + h.counters.produced.get(good).copied().unwrap_or(0.0)
}

/// Every unit of every good consumed since the game began.
fn consumed_anything(w: &World) -> f64 {
    let h = w.history();
    h.rows
        .iter()
        .flat_map(|r| r.consumed.values())
        .chain(h.counters.consumed.values())
        .sum()
}

/// Science earned since the game began.
fn science_earned(w: &World) -> f64 {
    let h = w.history();
    h.rows.iter().map(|r| r.science_earned).sum::<f64>() + h.counters.science_earned
}

/// A beaver's working speed from the catalogue: 1 plus the adult tier bonus of its wellbeing plus
/// the penalties of its unfavourable needs, within the bonus clamps (colony.json, needs.json).
fn working_speed(b: &BeaverView) -> f64 {
    let w = &colony_rules().wellbeing;
    let penalty: f64 = b
        .needs
        .iter()
        .filter(|n| !n.favorable)
        .filter_map(|n| {
            let def = content().beaver_needs.iter().find(|d| d.id == n.id)?;
            def.penalties_while_unfavorable
                .as_ref()?
                .get("WorkingSpeed")
                .copied()
        })
        .sum();
    let clamp = &w._rest["bonusClamps"]["value"]["WorkingSpeed"];
    let (lo, hi) = (clamp[0].as_f64().unwrap(), clamp[1].as_f64().unwrap());
    (1.0 + tier_bonus(&w.adult_tiers.value.working_speed, b.wellbeing) + penalty).clamp(lo, hi)
}

/// The game's point range of a beaver need (needs.json `range`).
fn need_range(id: &str) -> (f64, f64) {
    let def = content().beaver_needs.iter().find(|n| n.id == id).unwrap();
    let r = def.range.as_ref().unwrap();
    (r["min"].as_f64().unwrap(), r["max"].as_f64().unwrap())
}

/// Served points (0-1) of every beaver's need `id`, by beaver.
fn need_points(w: &World, id: &str) -> BTreeMap<i32, f64> {
    w.beavers(true)
        .iter()
        .filter(|b| !b.is_bot)
        .map(|b| (b.id, b.needs.iter().find(|n| n.id == id).unwrap().points))
        .collect()
}

#[test]
fn thirst_and_hunger_fall_at_their_daily_rates() {
    let mut w = World::new(&game(11));
    // A Normal game starts without water, and nobody eats before Hunger falls under
    // seekFoodBelow (about 15 hours from full): for 12 hours the needs only decay.
    assert!(!w.colony_stock().contains_key("Water"));
    let mode = world_rules().mode(GameMode::Normal);
    // Half an hour in, so the window holds exactly 12 of the hourly need steps.
    w.advance_ticks(hour() / 2);
    let hours = 12;
    let before = [need_points(&w, "Thirst"), need_points(&w, "Hunger")];
    w.advance_ticks(hours * hour());
    let after = [need_points(&w, "Thirst"), need_points(&w, "Hunger")];
    assert_eq!(consumed_anything(&w), 0.0, "nobody ate or drank");
    let days = hours as f64 / hours_per_day();
    for (i, (need, factor, key)) in [
        ("Thirst", mode.water_consumption, "waterConsumption"),
        ("Hunger", mode.food_consumption, "foodConsumption"),
    ]
    .into_iter()
    .enumerate()
    {
        let def = content()
            .beaver_needs
            .iter()
            .find(|n| n.id == need)
            .unwrap();
        let (lo, hi) = need_range(need);
        let expected = def.daily_delta.unwrap() * factor;
        // The view rounds served points (0-1 over the range) to 0.001: a change read from two
        // views is off by at most 0.001 of the range.
        let tolerance = 0.001 * (hi - lo) / days + 1e-9;
        let rates: Vec<f64> = before[i]
            .iter()
            .map(|(id, p)| (after[i][id] - p) * (hi - lo) / days)
            .collect();
        assert_eq!(rates.len(), 12, "the founders are all alive");
        for r in &rates {
            assert!(
                (r - expected).abs() <= tolerance,
                "{need}: {r} a day against {expected}"
            );
        }
        let mean = rates.iter().sum::<f64>() / rates.len() as f64;
        report(
            &format!("{need} decay (points/day, 12 beavers over {hours} h, Normal)"),
            format!("{mean:.3}"),
            format!("dailyDelta {} x {key} {factor}", def.daily_delta.unwrap()),
            &content_provenance(def.estimated.contains_key("dailyDelta")),
        );
    }
}

#[test]
fn droughts_last_the_days_the_mode_rolls() {
    let rules = world_rules();
    let m = rules.mode(GameMode::Normal);
    // Weather does not depend on the map: a small one runs fast.
    let mut w = World::new(&NewGame {
        map_width: 32,
        map_height: 32,
        ..game(8)
    });
    let days = 60;
    let mut dry_hours: BTreeMap<u32, u64> = BTreeMap::new();
    let mut announced: BTreeMap<u32, u64> = BTreeMap::new();
    let mut ended = BTreeSet::new();
    for _ in 0..days * 24 {
        w.advance_ticks(hour());
        let v = w.weather();
        if v.is_hazardous && v.hazard == Some(HazardKind::Drought) {
            *dry_hours.entry(v.cycle).or_default() += 1;
        }
        for e in w.take_events() {
            let d = e.data.as_ref();
            let cycle = d.and_then(|d| d["cycle"].as_u64()).unwrap_or(0) as u32;
            if e.name == event_names::DROUGHT_START {
                announced.insert(cycle, d.unwrap()["duration"].as_u64().unwrap());
            } else if e.name == event_names::DROUGHT_END {
                ended.insert(cycle);
            }
        }
    }
    // Only droughts that ended within the run.
    dry_hours.retain(|c, _| ended.contains(c));
    assert!(
        dry_hours.len() >= 3,
        "droughts in {days} days: {dry_hours:?}"
    );
    let h = m.drought_handicap;
    let min_days = rules.weather.minimum_hazard_days.value;
    let (mut measured, mut data) = (Vec::new(), Vec::new());
    for (&cycle, &hours) in &dry_hours {
        // hazardDurationFormula: handicap = lerp(multiplier, 1, clamp01((cycle-1)/cycles)),
        // days = round(U(handicap x min, handicap x max)), at least minimumHazardDays.
        let k = h.multiplier
            + (1.0 - h.multiplier)
                * (f64::from(cycle - 1) / f64::from(h.cycles.max(1))).clamp(0.0, 1.0);
        let bound = |d: u32| ((k * f64::from(d)).round() as u32).max(min_days);
        let (lo, hi) = (bound(m.drought_days[0]), bound(m.drought_days[1]));
        // Hazards begin and end at a dawn, and the weather was read every hour: whole days.
        assert_eq!(hours % 24, 0, "cycle {cycle}: {hours} h");
        let d = (hours / 24) as u32;
        assert!((lo..=hi).contains(&d), "cycle {cycle}: {d} days, {lo}-{hi}");
        assert_eq!(
            u64::from(d),
            announced[&cycle],
            "cycle {cycle} as announced"
        );
        measured.push(format!("c{cycle} {d}"));
        data.push(format!("c{cycle} {lo}-{hi}"));
    }
    report(
        &format!("drought length (days, Normal, seed 8, {days} days)"),
        measured.join(", "),
        format!(
            "droughtDays {}-{} x handicap {} rising to 1 over {} cycles: {}",
            m.drought_days[0],
            m.drought_days[1],
            h.multiplier,
            h.cycles,
            data.join(", ")
        ),
        &provenance(&rules.weather.game_modes),
    );
}

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
    species: Option<String>,
}

/// Follows the workers of `workplace` (base name) tick by tick for `ticks` and returns every
/// `activity` step they finished, with the load they carried away right after it.
fn follow_acts(w: &mut World, workplace: &str, activity: &str, ticks: u64) -> Vec<Act> {
    let mut doing: BTreeMap<i32, bool> = BTreeMap::new();
    let mut acts = Vec::new();
    for _ in 0..ticks {
        w.tick();
        let cut: Vec<String> = w
            .take_events()
            .into_iter()
            .filter(|e| e.name == event_names::TREE_CUT)
            .map(|e| e.data.unwrap()["name"].as_str().unwrap().to_owned())
            .collect();
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
                    species: (cut.len() == 1).then(|| cut[0].clone()),
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

#[test]
fn a_lumberjack_brings_the_log_yield_of_each_tree_cut() {
    let mut w = World::new(&game(11));
    let door = dc_door(&w);
    let lj = lumberjack_by_nearest_forest(&mut w);
    mark_trees_around(&mut w, lj, door.2);
    let start = produced(&w, "Log");
    let acts = follow_acts(&mut w, "LumberjackFlag", "cutting a tree", ticks_per_day());
    assert!(acts.len() >= 4, "{} trees cut in a day", acts.len());
    let total: u32 = acts.iter().map(|a| a.amount).sum();
    assert_eq!(f64::from(total), produced(&w, "Log") - start);
    // Each cut gives the tree's whole logYield at once: no tolerance.
    let trees = &nature().rules.trees;
    let mut per: BTreeMap<&str, (u32, u32, u32)> = BTreeMap::new();
    let mut prov = BTreeSet::new();
    for a in &acts {
        assert_eq!(a.good, "Log");
        let Some(name) = &a.species else { continue };
        let t = trees.iter().find(|t| t.id == *name).unwrap();
        assert_eq!(a.amount, t.log_yield.value, "{name}");
        let e = per
            .entry(t.id.as_str())
            .or_insert((0, 0, t.log_yield.value));
        e.0 += 1;
        e.1 += a.amount;
        prov.insert(provenance(&t.log_yield));
    }
    assert!(!per.is_empty());
    report(
        "logs per tree cut (a lumberjack's first day)",
        per.iter()
            .map(|(n, (cuts, logs, _))| {
                format!("{n} {} x{cuts}", f64::from(*logs) / f64::from(*cuts))
            })
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
}

/// Work-hours a workplace's workers finished: for each `working` step that ended, the work chunk
/// times the worker's working speed read on the last tick of the step (the speed the step's
/// output is scaled by).
#[derive(Default)]
struct Shift {
    chunks: u32,
    hours: f64,
}

#[test]
fn a_staffed_pump_and_inventor_make_their_recipe_per_working_hour() {
    let mut w = World::new(&game(11));
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    let pump = place_pump(&mut w, "WaterPump.Folktails");
    place_near(&mut w, "SmallTank.Folktails", near);
    let inventor = place_near(&mut w, "Inventor.Folktails", near);
    // Build and staff them by 20:00 on day 2, then read from there to 20:00 on day 3: a whole
    // working day, no work step under way at either end.
    let start_hour = u64::from(world_rules().time.new_game_start_hour.value);
    w.advance_ticks((24 - start_hour + 20) * hour());
    for id in [pump, inventor] {
        let b = w.building_view(id).unwrap();
        assert!(b.finished && b.assigned_workers == Some(1), "{b:?}");
    }
    let chunk = colony_rules().colony.work_chunk_hours.value;
    let (water0, science0) = (produced(&w, "Water"), science_earned(&w));
    let mut shifts: BTreeMap<&str, Shift> = BTreeMap::new();
    let mut last: BTreeMap<i32, Option<f64>> = BTreeMap::new();
    for _ in 0..ticks_per_day() {
        w.tick();
        for b in w.beavers(true) {
            let place = match b.workplace.as_str() {
                "WaterPump" => "WaterPump",
                "Inventor" => "Inventor",
                _ => continue,
            };
            let now = (b.activity == "working").then(|| working_speed(&b));
            if let Some(Some(speed)) = last.insert(b.id, now)
                && now.is_none()
            {
                let s = shifts.entry(place).or_default();
                s.chunks += 1;
                s.hours += chunk * speed;
            }
        }
    }
    let made = [
        ("WaterPump", "Water", produced(&w, "Water") - water0),
        ("Inventor", "science", science_earned(&w) - science0),
    ];
    for (place, good, amount) in made {
        let s = &shifts[place];
        let prefab = &content().buildings[&format!("{place}.Folktails")];
        let recipe = &content().recipes[&prefab.recipes[0]];
        let per_cycle = match good {
            "science" => f64::from(recipe.science_points.unwrap()),
            _ => {
                recipe
                    .outputs
                    .iter()
                    .find(|o| o.good == good)
                    .unwrap()
                    .amount
            }
        };
        let expected = s.hours / recipe.cycle_hours * per_cycle;
        // A cycle's progress carries over from one work step to the next, so the window may
        // begin and end mid-cycle: at most one cycle's output either way.
        assert!(
            (amount - expected).abs() <= per_cycle + 1e-9,
            "{place}: {amount} {good} in {} worker-hours, expected {expected}",
            s.hours
        );
        report(
            &format!("{place} {good} per worker-hour (a working day)"),
            format!(
                "{:.2} ({amount} in {} chunks, {:.2} speed-weighted h)",
                amount / s.hours,
                s.chunks,
                s.hours
            ),
            format!(
                "{per_cycle} per {} h cycle = {:.2}",
                recipe.cycle_hours,
                per_cycle / recipe.cycle_hours
            ),
            &content_provenance(recipe.estimated.is_some()),
        );
    }
}

/// One construction site, read tick by tick from placement to finish.
struct Site {
    prefab: &'static str,
    /// Goods the colony lost (inventories and loads) between placing and finishing.
    used: BTreeMap<String, i64>,
    /// For each tick in which builders ended work chunks on the site without finishing it: the
    /// speed-weighted builder-hours of those chunks over the build progress they made.
    hours_per_progress: Vec<f64>,
    /// Speed-weighted builder-hours of every chunk ended until the site was finished, the most
    /// any chunk was worth, and the builders who took part.
    spent: f64,
    top_chunk: f64,
    builders: BTreeSet<i32>,
    /// cost x buildHoursPerMaterialUnit (at least minBuildHours).
    needed: f64,
}

fn build_one(w: &mut World, prefab: &'static str, near: (i64, i64, i64, i64)) -> Site {
    let r = colony_rules();
    let chunk = r.colony.work_chunk_hours.value;
    let spec = &content().buildings[prefab];
    let units: f64 = spec.cost.iter().map(|c| c.amount).sum();
    let before = all_goods(w);
    let id = place_near(w, prefab, near);
    let mut site = Site {
        prefab,
        used: BTreeMap::new(),
        hours_per_progress: Vec::new(),
        spent: 0.0,
        top_chunk: 0.0,
        builders: BTreeSet::new(),
        needed: (units * r.construction.build_hours_per_material_unit.value)
            .max(r.colony.min_build_hours.value),
    };
    // Each builder's speed on the last tick it was seen building (a chunk's work is scaled by
    // the speed when it ends, which is the speed read after the tick before).
    let mut building: BTreeMap<i32, f64> = BTreeMap::new();
    for tick in 0.. {
        assert!(tick < 2 * ticks_per_day(), "{prefab} unfinished");
        let progress = w.building_view(id).unwrap().build_progress;
        w.tick();
        // Only this site is under construction: every builder works on it.
        let mut ended = 0.0;
        for b in w.beavers(true) {
            let was = building.remove(&b.id);
            if b.activity == "building" {
                building.insert(b.id, working_speed(&b));
                site.builders.insert(b.id);
            } else if let Some(speed) = was {
                ended += chunk * speed;
                site.top_chunk = site.top_chunk.max(chunk * speed);
            }
        }
        site.spent += ended;
        let v = w.building_view(id).unwrap();
        if v.finished {
            break;
        }
        if ended > 0.0 && v.build_progress > progress {
            site.hours_per_progress
                .push(ended / (v.build_progress - progress));
        }
    }
    let after = all_goods(w);
    site.used = before
        .iter()
        .map(|(g, n)| (g.clone(), n - after.get(g).copied().unwrap_or(0)))
        .filter(|(_, n)| *n != 0)
        .collect();
    site
}

fn cost_of(prefab: &str) -> BTreeMap<String, i64> {
    content().buildings[prefab]
        .cost
        .iter()
        .map(|c| (c.good.clone(), c.amount as i64))
        .collect()
}

fn show_goods(m: &BTreeMap<String, i64>) -> String {
    m.iter()
        .map(|(g, n)| format!("{n} {g}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

#[test]
fn construction_uses_the_cost_and_the_builder_hours_per_unit() {
    let mut w = World::new(&NewGame {
        setup: Setup {
            goods: BTreeMap::from([("Log".to_owned(), 20)]),
            ..Setup::default()
        },
        ..game(11)
    });
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    // One site at a time, so every builder works on the site measured.
    let sites: Vec<Site> = [
        "Lodge.Folktails",
        "SmallTank.Folktails",
        "EfficientFarmHouse.Folktails",
    ]
    .into_iter()
    .map(|p| build_one(&mut w, p, near))
    .collect();
    let join = |f: &dyn Fn(&Site) -> String| sites.iter().map(f).collect::<Vec<_>>().join(", ");
    let estimated = sites
        .iter()
        .any(|s| content().buildings[s.prefab].estimated.contains_key("cost"));
    report(
        "building cost (goods used up by a finished site)",
        join(&|s| format!("{} {}", s.prefab, show_goods(&s.used))),
        join(&|s| format!("{} {}", s.prefab, show_goods(&cost_of(s.prefab)))),
        &content_provenance(estimated),
    );
    let per_unit = &colony_rules().construction.build_hours_per_material_unit;
    let data = format!(
        "cost x buildHoursPerMaterialUnit {}: {}",
        per_unit.value,
        join(&|s| format!("{} {}", s.prefab, s.needed))
    );
    report(
        "builder-hours a site needs (speed-weighted hours per whole build progress)",
        join(&|s| {
            let m = s.hours_per_progress.iter().sum::<f64>() / s.hours_per_progress.len() as f64;
            format!("{} {m:.2}", s.prefab)
        }),
        &data,
        &provenance(per_unit),
    );
    report(
        "builder-hours spent to finish a site (speed-weighted, hour-long chunks)",
        join(&|s| {
            format!(
                "{} {:.2} ({} builders)",
                s.prefab,
                s.spent,
                s.builders.len()
            )
        }),
        &data,
        &provenance(per_unit),
    );
    for s in &sites {
        // Nothing else in the colony makes or uses these goods: what is gone is the cost.
        assert_eq!(s.used, cost_of(s.prefab), "{}", s.prefab);
        // A chunk's work is credited whole when it ends (only the last is cut to what is left),
        // so hours over progress give the hours the site needs, up to rounding.
        assert!(!s.hours_per_progress.is_empty(), "{}", s.prefab);
        for h in &s.hours_per_progress {
            assert!(
                (h - s.needed).abs() < 1e-6 * s.needed,
                "{}: {h} builder-hours per whole progress, {} needed",
                s.prefab,
                s.needed
            );
        }
        // Each builder's last chunk may run past the finish (its work is cut to what is left, or
        // lost when another builder finishes first): at most one chunk per builder.
        assert!(
            s.spent >= s.needed - 1e-9
                && s.spent <= s.needed + s.builders.len() as f64 * s.top_chunk + 1e-9,
            "{}: {} builder-hours spent by {} builders, {} needed",
            s.prefab,
            s.spent,
            s.builders.len(),
            s.needed
        );
    }
}

/// A kit followed from birth.
struct Kit {
    born: u64,
    /// Days of childhood the dawns since birth made up: each dawn counts as its growth speed,
    /// 1 + childGrowthSpeedTiers at the kit's wellbeing.
    grown_days: f64,
    /// The tick at which that growth reached 1, and the tick the kit was first seen adult.
    predicted: Option<u64>,
    adult: Option<u64>,
    /// Its wellbeing at each dawn.
    wellbeing: Vec<f64>,
}

#[test]
fn kits_grow_up_in_the_childhood_days() {
    let mut w = World::new(&NewGame {
        setup: Setup {
            goods: BTreeMap::from([
                ("Log".to_owned(), 40),
                ("Water".to_owned(), 500),
                ("Berries".to_owned(), 500),
            ]),
            ..Setup::default()
        },
        ..game(11)
    });
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    for _ in 0..6 {
        place_near(&mut w, "Lodge.Folktails", near);
    }
    let childhood = &colony_rules().population.childhood_days;
    let tiers = &colony_rules().wellbeing.child_growth_speed_tiers.value;
    let tpd = ticks_per_day();
    // Dawn comes at absolute hour 0; the game began at newGameStartHour.
    let offset = u64::from(world_rules().time.new_game_start_hour.value) * hour();
    let mut kits: BTreeMap<i32, Kit> = BTreeMap::new();
    for _ in 0..25 * 24 {
        w.advance_ticks(hour());
        for e in w.take_events() {
            if e.name == event_names::BEAVER_BORN_EVENT {
                let id = e.data.unwrap()["id"].as_i64().unwrap() as i32;
                let kit = Kit {
                    born: w.ticks(),
                    grown_days: 0.0,
                    predicted: None,
                    adult: None,
                    wellbeing: Vec::new(),
                };
                kits.insert(id, kit);
            }
        }
        let now = w.ticks();
        let dawn = (now + offset).is_multiple_of(tpd);
        for (id, k) in kits.iter_mut() {
            if k.adult.is_some() {
                continue;
            }
            let Some(b) = w.beaver_view(*id, true) else {
                continue;
            };
            if dawn && k.born < now {
                // The dawn's growth step uses the wellbeing read right after it.
                k.wellbeing.push(b.wellbeing);
                k.grown_days += 1.0 + tier_bonus(tiers, b.wellbeing);
                if k.grown_days >= childhood.value - 1e-9 && k.predicted.is_none() {
                    k.predicted = Some(now);
                }
            }
            if !b.is_child {
                k.adult = Some(now);
            }
        }
        if kits.values().filter(|k| k.adult.is_some()).count() >= 2 {
            break;
        }
    }
    let grown: Vec<(&i32, &Kit)> = kits.iter().filter(|(_, k)| k.adult.is_some()).collect();
    assert!(!grown.is_empty(), "no kit grew up: {}", kits.len());
    let days = |t: u64, born: u64| (t - born) as f64 / tpd as f64;
    let dawns = |t: u64, born: u64| (t + offset) / tpd - (born + offset) / tpd;
    let wellbeing: Vec<f64> = grown
        .iter()
        .flat_map(|(_, k)| k.wellbeing.clone())
        .collect();
    let (lo, hi) = (
        wellbeing.iter().copied().fold(f64::MAX, f64::min),
        wellbeing.iter().copied().fold(f64::MIN, f64::max),
    );
    report(
        &format!(
            "childhood (days from birth to adult, {} Folktails kits)",
            grown.len()
        ),
        grown
            .iter()
            .map(|(_, k)| {
                let a = k.adult.unwrap();
                format!("{:.2} ({} dawns)", days(a, k.born), dawns(a, k.born))
            })
            .collect::<Vec<_>>()
            .join(", "),
        format!(
            "childhoodDays {} at growth speed 1 + childGrowthSpeedTiers(wellbeing {lo}-{hi}): {}",
            childhood.value,
            grown
                .iter()
                .map(|(_, k)| k.predicted.map_or("-".to_owned(), |p| {
                    format!("{:.2} ({} dawns)", days(p, k.born), dawns(p, k.born))
                }))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &provenance(childhood),
    );
    for (id, k) in &grown {
        // Kits grow at dawn only: they come of age at the dawn where the growth speeds of the
        // dawns since birth add up to childhoodDays.
        assert_eq!(k.adult, k.predicted, "kit {id}");
    }
}

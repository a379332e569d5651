//! Scenario tests of the colony (game.md "How the game proves itself"), driven only through the
//! world's commands with fixed seeds: the idle colony dies of thirst; a sensible opening lives and
//! grows; drought with and without water stored; materials gate construction; IronTeeth pods;
//! determinism and save/load/continue; science reaching gears, power and automation.

#[path = "common/placing.rs"]
mod placing;

use placing::{
    all_goods, dc_door, lumberjack_by_nearest_forest, mark_trees_around, place_near,
    place_power_row, place_pump, place_toward, stock, try_place_toward,
};
use sim::{Faction, GameMode, NewGame, World, ticks_per_day};

fn game(seed: u64, faction: Faction) -> NewGame {
    NewGame {
        seed,
        faction,
        mode: GameMode::Normal,
        ..NewGame::default()
    }
}

/// The starting prefabs of a faction.
struct Names {
    pump: &'static str,
    tank: &'static str,
    warehouse: &'static str,
    pile: &'static str,
    gatherer: &'static str,
    farm: &'static str,
    crop: &'static str,
    lumberjack: &'static str,
    /// Lodges (Folktails breed in them) or breeding pods (IronTeeth).
    home: &'static str,
    homes: usize,
}

impl Names {
    fn of(f: Faction) -> Names {
        match f {
            Faction::Folktails => Names {
                pump: "WaterPump.Folktails",
                tank: "SmallTank.Folktails",
                warehouse: "SmallWarehouse.Folktails",
                pile: "SmallPile.Folktails",
                gatherer: "GathererFlag.Folktails",
                farm: "EfficientFarmHouse.Folktails",
                crop: "Carrot",
                lumberjack: "LumberjackFlag.Folktails",
                home: "Lodge.Folktails",
                homes: 5,
            },
            Faction::IronTeeth => Names {
                pump: "DeepWaterPump.IronTeeth",
                tank: "SmallTank.IronTeeth",
                warehouse: "SmallWarehouse.IronTeeth",
                pile: "SmallIndustrialPile.IronTeeth",
                gatherer: "GathererFlag.IronTeeth",
                farm: "FarmHouse.IronTeeth",
                crop: "Kohlrabi",
                lumberjack: "LumberjackFlag.IronTeeth",
                home: "BreedingPod.IronTeeth",
                homes: 2,
            },
        }
    }
}

/// The sensible opening of game.md: a water pump at the river, paths, gatherers, a lumberjack
/// with marked trees, lodges and storage.
fn sensible_opening(w: &mut World) {
    let n = Names::of(w.faction());
    let door = dc_door(w);
    place_pump(w, n.pump);
    place_pump(w, n.pump);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    place_near(w, n.tank, near);
    for _ in 0..2 {
        place_near(w, n.warehouse, near);
    }
    place_near(w, n.pile, near);
    // Food: a gatherer by the nearest bushes, a farm with carrots on moist land, first in line.
    let (dx, dy, dz) = (door.0 as u32, door.1 as u32, door.2 as u32);
    // The densest bushes whose surroundings the paths can reach (some lie across the river).
    let food = w.food_clusters_near(dx, dy, dz, 40);
    let (fx, fy) = food
        .iter()
        .map(|f| (i64::from(f.x), i64::from(f.y)))
        .find(|&(fx, fy)| {
            try_place_toward(w, n.gatherer, (fx - 6, fy - 6, fx + 6, fy + 6), (fx, fy)).is_some()
        })
        .expect("reachable bushes near the start");
    let wide = (door.0 - 14, door.1 - 14, door.0 + 14, door.1 + 14);
    let farm = place_toward(w, n.farm, wide, (fx, fy));
    w.set_priority(farm, "High", "construction").unwrap();
    // Homes, then more storage.
    for _ in 0..n.homes {
        place_near(w, n.home, near);
    }
    for _ in 0..4 {
        place_near(w, n.warehouse, near);
    }
    place_near(w, n.pile, near);
    // Lumberjacks at the two biggest forests within reach, every tree around them marked.
    let trees = w.tree_clusters_near(dx, dy, dz, 60);
    assert!(!trees.is_empty(), "trees near the start");
    let mut placed = 0;
    for t in &trees {
        if placed == 2 {
            break;
        }
        let (tx, ty) = (i64::from(t.x), i64::from(t.y));
        let Some(lj) =
            try_place_toward(w, n.lumberjack, (tx - 6, ty - 6, tx + 6, ty + 6), (tx, ty))
        else {
            continue;
        };
        placed += 1;
        mark_trees_around(w, lj, door.2);
    }
    // The farm's plots last, on the moist land the buildings and paths left free.
    mark_farm_plots(w, farm, n.crop, door.2);
}

/// Marks up to 160 free, moist tiles within 20 steps of a farm's door (its reach) for `crop`.
fn mark_farm_plots(w: &mut World, farm: i32, crop: &str, z: i64) {
    let f = w.building_view(farm).unwrap();
    let (fx, fy) = (
        i64::from(f.entrance_x.unwrap()),
        i64::from(f.entrance_y.unwrap()),
    );
    let spots = w
        .find_planting_spots(crop, fx - 20, fy - 20, fx + 20, fy + 20, Some(z))
        .unwrap();
    let mut marked = 0;
    for s in spots.iter().filter(|s| s.moist) {
        let (x, y) = (i64::from(s.x), i64::from(s.y));
        if (x - fx).abs() + (y - fy).abs() <= 20 && marked < 160 {
            w.mark_planting(x, y, x, y, z, crop).unwrap();
            marked += 1;
        }
    }
    assert!(
        marked >= 20,
        "moist land for carrots near the farm: {marked}"
    );
}

/// The sensible opening, then `extra` more small water tanks (built last).
fn opening_with_tanks(w: &mut World, extra: usize) {
    sensible_opening(w);
    let n = Names::of(w.faction());
    let door = dc_door(w);
    for _ in 0..extra {
        place_near(
            w,
            n.tank,
            (door.0 - 14, door.1 - 14, door.0 + 14, door.1 + 14),
        );
    }
}

/// The ids of the colony's Folktails water pumps.
fn water_pumps(w: &World) -> Vec<i32> {
    w.buildings()
        .iter()
        .filter(|b| b.name.starts_with("WaterPump"))
        .map(|b| b.id)
        .collect()
}

#[test]
fn an_idle_colony_dies_of_thirst_within_days() {
    let mut w = World::new(&game(11, Faction::Folktails));
    w.take_events();
    let mut deaths = Vec::new();
    for _ in 0..10 {
        w.advance_ticks(ticks_per_day());
        deaths.extend(
            w.take_events()
                .into_iter()
                .filter(|e| e.name == "beaver.died"),
        );
    }
    assert_eq!(deaths.len(), 12, "every beaver died");
    assert!(
        deaths
            .iter()
            .all(|e| e.data.as_ref().unwrap()["cause"] == "thirst")
    );
    assert!(w.population()[0].adults == 0);
    assert!(
        w.notifications()
            .iter()
            .any(|n| n.subject.contains("thirst"))
    );
}

#[test]
fn a_sensible_opening_is_alive_and_growing_at_day_30() {
    let mut w = World::new(&game(8, Faction::Folktails));
    sensible_opening(&mut w);
    for day in 0..30 {
        w.advance_ticks(ticks_per_day());
        if std::env::var("COLONY_DEBUG").is_ok() && day == 9 {
            for b in w.buildings() {
                if b.name != "Path" {
                    eprintln!(
                        "  {} #{} fin {} mat {:.2} build {:.2} workers {} inv {:?} st {:?} reach {}",
                        b.name,
                        b.id,
                        b.finished,
                        b.material_progress,
                        b.build_progress,
                        b.workers,
                        b.inventory,
                        b.statuses,
                        b.reachable
                    );
                }
            }
            for b in w.beavers(false) {
                eprintln!(
                    "  {} {} at {:?} {} carrying {:?}",
                    b.name,
                    b.workplace,
                    (b.x, b.y),
                    b.activity,
                    b.carrying
                );
            }
        }
        let p = &w.population()[0];
        if std::env::var("COLONY_DEBUG").is_err() {
            continue;
        }
        eprintln!(
            "day {} adults {} children {} water {} berries {} carrots {} logs {}",
            day + 1,
            p.adults,
            p.children,
            stock(&w, "Water"),
            stock(&w, "Berries"),
            stock(&w, "Carrot"),
            stock(&w, "Log")
        );
        if std::env::var("COLONY_DEBUG").is_ok() {
            let crops = w.crops();
            eprintln!(
                "   crops {} grown {} dead {}; bushes ready {}",
                crops.len(),
                crops.iter().filter(|c| c.grown).count(),
                crops.iter().filter(|c| !c.alive).count(),
                w.gatherables().iter().filter(|g| g.alive).count()
            );
            let trees = w.trees();
            eprintln!(
                "   trees marked grown {} unfinished {:?}",
                trees
                    .iter()
                    .filter(|t| t.marked && t.grown && t.alive)
                    .count(),
                w.buildings()
                    .iter()
                    .filter(|b| !b.finished)
                    .map(|b| (b.name, b.material_progress))
                    .collect::<Vec<_>>()
            );
            for b in w.beavers(false).iter().filter(|b| !b.workplace.is_empty()) {
                eprintln!(
                    "   worker {} {} {} {:?}",
                    b.name,
                    b.workplace,
                    b.activity,
                    (b.x, b.y)
                );
            }
        }
    }
    let p = &w.population()[0];
    assert!(p.adults + p.children > 12, "the colony grew: {p:?}");
    assert!(stock(&w, "Water") > 0, "water in stock");
    assert!(
        stock(&w, "Berries") + stock(&w, "Carrot") > 0,
        "food in stock"
    );
    assert!(stock(&w, "Log") > 0, "logs in stock");
}

#[test]
fn a_lumberjack_cuts_only_marked_trees_in_range() {
    let mut w = World::new(&game(11, Faction::Folktails));
    let door = dc_door(&w);
    let lj = lumberjack_by_nearest_forest(&mut w);
    w.advance_ticks(ticks_per_day() / 4);
    assert!(
        w.building_view(lj).unwrap().finished,
        "a free flag is built in moments"
    );
    w.advance_ticks(ticks_per_day() / 4);
    assert!(
        w.building_view(lj).unwrap().inventory.is_empty(),
        "no marked trees, no logs"
    );
    mark_trees_around(&mut w, lj, door.2);
    w.advance_ticks(ticks_per_day() / 2);
    let logs = w
        .building_view(lj)
        .unwrap()
        .inventory
        .get("Log")
        .copied()
        .unwrap_or(0)
        + stock(&w, "Log").saturating_sub(40);
    let cut = w
        .take_events()
        .iter()
        .filter(|e| e.name == "tree.cut")
        .count();
    assert!(cut > 0 && logs > 0, "cut {cut} trees, {logs} logs");
}

#[test]
fn materials_gate_construction() {
    let mut w = World::new(&game(11, Faction::Folktails));
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    // 40 starting logs: three lodges (12 logs each) can be built, the fourth cannot.
    let lodges: Vec<i32> = (0..4)
        .map(|_| place_near(&mut w, "Lodge.Folktails", near))
        .collect();
    w.advance_ticks(2 * ticks_per_day());
    let views: Vec<_> = lodges
        .iter()
        .map(|id| w.building_view(*id).unwrap())
        .collect();
    assert_eq!(
        views.iter().filter(|v| v.finished).count(),
        3,
        "three lodges built"
    );
    let last = views.iter().find(|v| !v.finished).expect("one lodge waits");
    assert!(!last.has_materials && last.material_progress < 1.0);
    assert!(
        last.statuses.iter().any(|s| s == "lacks materials"),
        "{:?}",
        last.statuses
    );
    assert!(
        w.alerts()
            .iter()
            .any(|a| a.id == last.id && a.status == "lacks materials")
    );
    // Logs from a lumberjack let it finish.
    let lj = lumberjack_by_nearest_forest(&mut w);
    mark_trees_around(&mut w, lj, door.2);
    w.take_events();
    w.advance_ticks(3 * ticks_per_day());
    let v = w.building_view(last.id).unwrap();
    assert!(v.finished && v.has_materials, "{v:?}");
    assert!(
        w.take_events()
            .iter()
            .any(|e| e.name == "building.finished" && e.data.as_ref().unwrap()["id"] == last.id)
    );
}

#[test]
fn iron_teeth_breeding_pods_grow_the_colony() {
    let mut w = World::new(&game(10, Faction::IronTeeth));
    sensible_opening(&mut w);
    let pods: Vec<i32> = w
        .buildings()
        .iter()
        .filter(|b| b.name == "BreedingPod.IronTeeth")
        .map(|b| b.id)
        .collect();
    assert_eq!(pods.len(), 2);
    w.take_events();
    let start = w.population()[0].adults + w.population()[0].children;
    let mut pod_births = 0;
    for _ in 0..16 {
        w.advance_ticks(ticks_per_day());
        pod_births += w
            .take_events()
            .iter()
            .filter(|e| {
                e.name == "beaver.born.event"
                    && pods.iter().any(|p| e.data.as_ref().unwrap()["pod"] == *p)
            })
            .count();
    }
    let p = &w.population()[0];
    assert!(pod_births >= 2, "the pods bred {pod_births} kits");
    assert!(p.adults + p.children > start, "{p:?} from {start}");
    let view = w.building_view(pods[0]).unwrap();
    assert!(view.needs_nutrients.is_some() && view.nutrients.is_some());
}

#[test]
fn a_busy_colony_is_deterministic_and_survives_save_load_continue() {
    let mut a = World::new(&game(12, Faction::Folktails));
    sensible_opening(&mut a);
    let mut b = a.clone();
    let mut c = World::new(&game(12, Faction::Folktails));
    sensible_opening(&mut c);
    assert_eq!(a.state_hash(), c.state_hash(), "same seed, same commands");
    a.advance_ticks(4 * ticks_per_day());
    let saved = a.save_to_bytes();
    let mut loaded = World::load_from_bytes(&saved).expect("the save loads");
    assert_eq!(
        loaded.state_hash(),
        a.state_hash(),
        "load gives the saved world"
    );
    loaded.advance_ticks(3 * ticks_per_day());
    b.advance_ticks(7 * ticks_per_day());
    c.advance_ticks(7 * ticks_per_day());
    assert_eq!(
        loaded.state_hash(),
        b.state_hash(),
        "save, load, continue = uninterrupted"
    );
    assert_eq!(b.state_hash(), c.state_hash());
    assert!(b.beavers(false).iter().any(|v| v.activity != "idle"));
    assert!(b.buildings().iter().filter(|v| v.finished).count() > 5);
    // The hourly history: the same for the same commands, and through save/load/continue.
    assert_eq!(loaded.history(), b.history());
    assert_eq!(b.history(), c.history());
    let rows = &b.history().rows;
    assert_eq!(rows.len() as u64, b.ticks() / (ticks_per_day() / 24));
    assert_eq!(
        (rows[0].day, rows[0].hour),
        (1, 5),
        "the first full hour after 04:00"
    );
    assert!(
        rows.windows(2)
            .all(|w| w[1].ticks - w[0].ticks == ticks_per_day() / 24)
    );
    let sum = |f: &dyn Fn(&sim::history::HistoryRow) -> f64| rows.iter().map(f).sum::<f64>();
    assert!(
        sum(&|r| r.produced.get("Water").copied().unwrap_or(0.0)) > 0.0,
        "pumps pumped"
    );
    assert!(
        sum(&|r| r.consumed.get("Water").copied().unwrap_or(0.0)) > 0.0,
        "beavers drank"
    );
    assert!(
        sum(&|r| r.produced.get("Log").copied().unwrap_or(0.0)) > 0.0,
        "trees were cut"
    );
}

#[test]
fn the_history_balances_every_good_produced_and_consumed() {
    let mut w = World::new(&game(12, Faction::Folktails));
    sensible_opening(&mut w);
    // Start counting at a full hour, so the rows cover exactly the span.
    let hour = ticks_per_day() / 24;
    w.advance_ticks(hour - w.ticks() % hour);
    let (before, first) = (all_goods(&w), w.history().rows.len());
    w.advance_ticks(3 * ticks_per_day());
    let after = all_goods(&w);
    let flows = w.flows();
    let rows = &w.history().rows[first..];
    assert_eq!(rows.len(), 72);
    let goods: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for g in goods {
        let made: f64 = rows.iter().filter_map(|r| r.produced.get(g)).sum();
        let used: f64 = rows.iter().filter_map(|r| r.consumed.get(g)).sum();
        let change = after.get(g).copied().unwrap_or(0) - before.get(g).copied().unwrap_or(0);
        assert_eq!(
            change as f64,
            made - used,
            "{g}: stock change {change}, produced {made}, consumed {used}"
        );
        // The flows an agent reads: the three days' net per day, the last day's made and used.
        let flow = flows.get(g).cloned().unwrap_or_default();
        assert!(
            (flow.net_per_day * 3.0 - (made - used)).abs() <= 0.15 * 3.0,
            "{g}: {flow:?} against {made} - {used} over three days"
        );
        let last_made: f64 = rows[48..].iter().filter_map(|r| r.produced.get(g)).sum();
        assert_eq!(flow.produced_last_day, last_made, "{g}");
    }
    let last = rows.last().unwrap();
    assert_eq!(last.adults + last.children, w.beavers(false).len() as u32);
    assert!(
        last.buildings.values().sum::<u32>() >= 5,
        "{:?}",
        last.buildings
    );
}

#[test]
fn a_drought_dries_the_pumps_and_stored_water_carries_the_colony() {
    // Seed 6: the first drought dries the river at the opening's pumps. On most maps since the
    // start area moved downstream (issue 15) pools stay under the pumps through a short drought.
    let mut w = World::new(&game(6, Faction::Folktails));
    sensible_opening(&mut w);
    let pumps = water_pumps(&w);
    let (mut dry_days, mut water_in_drought, mut resumed) = (0, 0, false);
    let mut seen_hazard = false;
    for _ in 0..26 {
        w.advance_ticks(ticks_per_day());
        let hazard = w.weather().is_hazardous;
        let dry = pumps.iter().all(|p| {
            w.building_view(*p)
                .unwrap()
                .statuses
                .iter()
                .any(|s| s == "no water to pump")
        });
        if hazard {
            seen_hazard = true;
            if !dry {
                water_in_drought = water_in_drought.max(stock(&w, "Water"));
            }
        }
        if dry {
            dry_days += 1;
        } else if seen_hazard && dry_days > 0 && !hazard {
            resumed = true;
        }
    }
    assert!(seen_hazard, "a drought came");
    assert!(dry_days >= 1, "the drought dried the river at the pumps");
    assert!(water_in_drought > 0, "stored water lasted into the drought");
    assert!(resumed, "the pumps worked again after the drought");
    assert!(w.population()[0].adults > 0);
}

/// How a colony fared through the long drought of [`long_drought`].
struct DroughtRun {
    /// Thirst deaths before the long drought began, and from then to the end of the run.
    thirst_before: usize,
    thirst_after: usize,
    /// Water in stock on the eve of the long drought, and the least while it lasted (and the day
    /// after, while the river refills).
    eve: u32,
    least: u32,
    alive: u32,
}

/// Hard mode, seed 8: the opening (with `extra` more tanks) meets a 3-day drought from day 8, then
/// a 7-day one in cycle 2, through which the pumps stand paused as if the river had run dry under
/// them (on most generated maps pools stay under the pumps through a drought: the test is about
/// stored water, not the river). Runs to day 28. The seed has a long second drought (weather rolls
/// do not depend on the map) and an opening whose food holds.
fn long_drought(extra: usize) -> DroughtRun {
    let mut w = World::new(&NewGame {
        mode: GameMode::Hard,
        // Seed 8: a short first drought (3 days), then a long one (7 days) in cycle 2.
        ..game(8, Faction::Folktails)
    });
    opening_with_tanks(&mut w, extra);
    let pumps = water_pumps(&w);
    let mut run = DroughtRun {
        thirst_before: 0,
        thirst_after: 0,
        eve: 0,
        least: u32::MAX,
        alive: 0,
    };
    let mut long_began = false;
    for day in 1..=28 {
        w.advance_ticks(ticks_per_day());
        let thirst = w
            .take_events()
            .iter()
            .filter(|e| e.name == "beaver.died" && e.data.as_ref().unwrap()["cause"] == "thirst")
            .count();
        let wx = w.weather();
        let water = stock(&w, "Water");
        if wx.cycle == 2 && wx.is_hazardous {
            long_began = true;
        }
        // The river runs dry at the pumps through the long drought.
        if long_began {
            for p in &pumps {
                w.set_paused(*p, wx.is_hazardous).unwrap();
            }
        }
        if long_began {
            run.thirst_after += thirst;
            if day <= 26 {
                run.least = run.least.min(water);
            }
        } else {
            run.thirst_before += thirst;
            run.eve = water;
        }
        if std::env::var("COLONY_DEBUG").is_ok() {
            eprintln!(
                "day {day} cycle {} hazard {} water {water} thirst deaths {thirst}",
                wx.cycle, wx.is_hazardous
            );
        }
    }
    assert!(long_began, "the long drought came");
    let p = &w.population()[0];
    run.alive = p.adults + p.children;
    run
}

#[test]
fn a_long_drought_kills_without_water_storage_and_not_with_full_tanks() {
    // The opening's single tank holds about a day of water: the long drought empties it and
    // beavers die of thirst.
    let without = long_drought(0);
    assert_eq!(
        without.thirst_before, 0,
        "no thirst before the long drought"
    );
    assert_eq!(without.least, 0, "the stock ran dry");
    assert!(
        without.thirst_after >= 1,
        "the long drought killed: {}",
        without.thirst_after
    );
    // Eleven more tanks, full on the eve of the drought, carry the colony through it.
    let with = long_drought(11);
    assert!(with.eve >= 300, "the tanks were full: {}", with.eve);
    assert!(with.least > 0, "water lasted through the drought");
    assert_eq!(
        with.thirst_before + with.thirst_after,
        0,
        "nobody died of thirst"
    );
    assert!(with.alive >= 12, "the colony lives: {}", with.alive);
}

/// Issue 15, item 9: with the catalogue's science rate (one point per inventor working hour),
/// costs and power figures, a colony that builds two inventors after the sensible opening
/// unlocks the gear workshop, powers it and a lumber mill with beaver-driven power wheels, makes
/// gears, and builds its first automation building (a lever) within 60 days.
#[test]
fn science_reaches_gears_power_and_automation_within_60_days() {
    let mut w = World::new(&game(8, Faction::Folktails));
    sensible_opening(&mut w);
    let door = dc_door(&w);
    let near = (door.0 - 10, door.1 - 10, door.0 + 10, door.1 + 10);
    for _ in 0..2 {
        place_near(&mut w, "Inventor.Folktails", near);
    }
    let cost = |w: &World, name: &str| {
        w.unlockables()
            .into_iter()
            .find(|u| u.name == name)
            .map(|u| u.cost)
            .unwrap()
    };
    let (mut unlocked_day, mut gear_day, mut lever_day) = (None, None, None);
    let mut lever = None;
    // The power row: six workers while it runs, so it stops once the lever's gears are made.
    let mut industry: Vec<i32> = Vec::new();
    for day in 1..=60u32 {
        w.advance_ticks(ticks_per_day());
        assert!(
            w.population()[0].adults > 0,
            "the colony lives on day {day}"
        );
        if unlocked_day.is_none() && w.science_points() >= cost(&w, "GearWorkshop.Folktails") {
            w.unlock("GearWorkshop.Folktails").unwrap();
            // The workshop takes 120 hp and the mill (planks for gears and for the workshop
            // itself) 50: three wheels of 50 hp for one, one for the other.
            let wheel = "PowerWheel.Folktails";
            let rows: [&[&str]; 2] = [
                &[wheel, "LumberMill.Folktails"],
                &[wheel, wheel, "GearWorkshop.Folktails", wheel],
            ];
            for row in rows {
                let ids = place_power_row(&mut w, row).expect("room for a power row");
                industry.extend(&ids);
                for id in ids {
                    w.set_priority(id, "High", "construction").unwrap();
                    w.set_priority(id, "High", "workplace").unwrap();
                }
            }
            // The mill needs logs: the lumberjacks keep their workers while the row runs (a
            // lumberjack carries 2 logs a trip since issue 38, and the row's six High-priority
            // jobs would otherwise leave the flags unstaffed and the mill without logs).
            for b in w.buildings() {
                if b.name.starts_with("LumberjackFlag") {
                    w.set_priority(b.id, "High", "workplace").unwrap();
                }
            }
            // The opening's piles hold logs: planks need a pile of their own.
            let pile = place_near(&mut w, "SmallPile.Folktails", near);
            w.set_storage(pile, Some("Plank"), None).unwrap();
            unlocked_day = Some(day);
        }
        if gear_day.is_none() && stock(&w, "Gear") > 0 {
            gear_day = Some(day);
        }
        if gear_day.is_some() && stock(&w, "Gear") >= 4 && stock(&w, "Plank") >= 10 {
            for id in industry.drain(..) {
                w.set_paused(id, true).unwrap();
            }
        }
        let lever_cost = cost(&w, "Lever.Folktails");
        if lever.is_none() && gear_day.is_some() && w.science_points() >= lever_cost {
            w.unlock("Lever.Folktails").unwrap();
            // A lever has no doorstep: builders reach it from the paths nearby.
            let (_, _, _, spots) = w
                .find_placements("Lever.Folktails", near.0, near.1, near.2, near.3)
                .unwrap();
            let s = spots.first().expect("a spot for the lever");
            let id = w
                .place_building(
                    "Lever.Folktails",
                    s.x.into(),
                    s.y.into(),
                    s.z.into(),
                    s.orientation,
                )
                .unwrap();
            lever = Some(id);
        }
        if let Some(id) = lever
            && lever_day.is_none()
            && w.building_view(id).unwrap().finished
        {
            lever_day = Some(day);
            break;
        }
    }
    eprintln!(
        "gear workshop unlocked on day {unlocked_day:?}, first gear on day {gear_day:?}, \
         lever built on day {lever_day:?}"
    );
    assert!(unlocked_day.is_some(), "100 science in 60 days");
    assert!(gear_day.is_some(), "a powered gear workshop made a gear");
    assert!(
        lever_day.is_some(),
        "an automation building stands by day 60"
    );
}

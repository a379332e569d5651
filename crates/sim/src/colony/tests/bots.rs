//! Bots: assemblers making them from parts, their needs (grease, energy, biofuel) and how they
//! restore them, control towers keeping them in range, wear at their lifespan, hiring around the
//! clock, and saves keeping them.

use crate::colony::Step;
use crate::config::{Faction, NewGame};
use crate::event::names;
use crate::testutil::{DAY, HOUR, build, connect, events_named, flat_area, flat_area_at};
use crate::world::World;

/// A hazard-free game of a faction.
fn world_of(faction: Faction) -> World {
    let mut w = World::new(&NewGame {
        faction,
        ..NewGame::default()
    });
    w.weather.temperate_days = 100;
    w
}

fn center(w: &World) -> (i32, [u32; 3]) {
    let dc = w.colony.centers()[0];
    (dc, w.colony.door(dc).unwrap())
}

fn need(w: &World, bot: i32, id: &str) -> f64 {
    w.colony.beavers[&bot].need(w.faction, id).unwrap()
}

fn set_need(w: &mut World, bot: i32, id: &str, v: f64) {
    let f = w.faction;
    w.colony
        .beavers
        .get_mut(&bot)
        .unwrap()
        .set_need(f, id, |_| v);
}

fn bots(w: &World) -> u32 {
    w.colony.counts(None).2
}

fn add_parts(w: &mut World, asm: i32) {
    let b = w.colony.buildings.get_mut(&asm).unwrap();
    b.add("BotChassis", 1);
    b.add("BotHead", 1);
    b.add("BotLimb", 4);
}

#[test]
fn an_assembler_makes_a_bot_after_36_work_hours() {
    let mut w = world_of(Faction::IronTeeth);
    let (x, y, z) = flat_area(&mut w, 6, 3);
    build(&mut w, "GeothermalEngine.IronTeeth", x, y, z, "south");
    let asm = build(&mut w, "BotAssembler.IronTeeth", x + 3, y, z, "south");
    assert!(w.is_powered(asm));
    assert_eq!(
        w.colony.buildings[&asm].recipe.as_deref(),
        Some("Bot.IronTeeth")
    );
    add_parts(&mut w, asm);
    w.take_events();
    w.work_done(asm, 35.0);
    assert_eq!(bots(&w), 0);
    assert!(w.colony.buildings[&asm].inventory.is_empty(), "parts taken");
    w.work_done(asm, 1.0);
    assert_eq!(bots(&w), 1);
    let (id, bot) = w.colony.beavers.iter().find(|(_, b)| b.is_bot).unwrap();
    let door = w.colony.door(asm).unwrap();
    assert!(!bot.child && bot.home.is_none());
    assert_eq!(bot.to, door);
    assert_eq!(bot.district, w.colony.buildings[&asm].district);
    assert_eq!(bot.lifespan_days, 70.0);
    assert_eq!(bot.name, "Bot 1");
    assert_eq!(
        bot.needs,
        vec![0.5, 1.0, 1.0],
        "Energy, ControlTower, Grease"
    );
    let id = *id;
    let events = w.take_events();
    let names: Vec<&str> = events.iter().map(|e| e.name).collect();
    assert_eq!(
        names,
        [
            names::ENTITY_CREATED,
            names::CHARACTER_CREATED,
            names::BEAVER_BORN,
            names::BOT_MANUFACTURED,
            names::POPULATION_CHANGED
        ]
    );
    assert_eq!(
        events[0].data.clone().unwrap(),
        serde_json::json!({"id": id, "kind": "character", "name": "Bot 1"})
    );
    let made = events[3].data.clone().unwrap();
    assert_eq!(made["id"], id);
    assert_eq!(made["name"], "Bot 1");
    assert_eq!(made["buildingId"], asm);
    assert_eq!(
        [&made["x"], &made["y"], &made["z"]],
        [door[0], door[1], door[2]]
    );
    assert_eq!(events[2].data.as_ref().unwrap()["isBot"], true);
    assert_eq!(events[4].data.as_ref().unwrap()["bots"], 1);
    // Without parts nothing more is made.
    w.work_done(asm, 40.0);
    assert_eq!(bots(&w), 1);
}

#[test]
fn workers_assemble_a_bot_which_then_works() {
    let mut w = world_of(Faction::IronTeeth);
    let dc_z = center(&w).1[2] as u8;
    let (x, y, z) = flat_area_at(&mut w, 6, 4, Some(dc_z));
    build(&mut w, "GeothermalEngine.IronTeeth", x, y + 1, z, "south");
    let asm = build(&mut w, "BotAssembler.IronTeeth", x + 3, y + 1, z, "south");
    connect(&mut w, asm);
    add_parts(&mut w, asm);
    let mut made = Vec::new();
    for _ in 0..4 * DAY {
        w.advance_ticks(1);
        made.extend(events_named(&mut w, names::BOT_MANUFACTURED));
        if !made.is_empty() {
            break;
        }
    }
    assert_eq!(made.len(), 1, "a bot within four days");
    assert_eq!(made[0]["buildingId"], asm);
    let bot = made[0]["id"].as_i64().unwrap() as i32;
    // Bots need no home and are hired like adults (the district center wants builders).
    w.advance_ticks(2 * HOUR);
    let b = &w.colony.beavers[&bot];
    assert!(b.home.is_none());
    let summary = w.districts();
    assert_eq!(summary[0].bots, 1);
    let v = w.beaver_view(bot, true).unwrap();
    assert!(v.is_bot && v.deterioration == Some(0.0));
    assert_eq!(v.needs.len(), 3);
    assert!(!v.activity.is_empty());
}

#[test]
fn a_bot_low_on_grease_takes_grease_from_a_store() {
    let mut w = world_of(Faction::IronTeeth);
    let (dc, door) = center(&w);
    w.colony.buildings.get_mut(&dc).unwrap().add("Grease", 5);
    let bot = w.spawn_bot(door, Some(dc));
    set_need(&mut w, bot, "Grease", 0.1);
    let mut refuelled = false;
    for _ in 0..4 * HOUR {
        w.advance_ticks(1);
        refuelled |= w.beaver_view(bot, false).unwrap().activity == "refuelling with Grease";
        if need(&w, bot, "Grease") > 0.5 {
            break;
        }
    }
    assert!(refuelled);
    assert!(need(&w, bot, "Grease") > 0.9);
    // Two units: 0.1 + 2 x 0.5 fills it.
    assert_eq!(w.colony.buildings[&dc].has("Grease"), 3);
    assert!(w.colony.beavers.contains_key(&bot));
}

#[test]
fn a_control_tower_keeps_bots_in_range_and_burns_science() {
    let mut w = world_of(Faction::IronTeeth);
    let (x, y, z) = flat_area(&mut w, 3, 3);
    let tower = build(&mut w, "ControlTower.IronTeeth", x + 1, y + 1, z, "south");
    w.add_science(7);
    // Without a district the bots stand where they are.
    let near = w.spawn_bot([x + 1, y, z], None);
    let far_spot = [x.saturating_sub(20), y, z];
    let far = w.spawn_bot(far_spot, None);
    w.advance_ticks(HOUR - w.ticks() % HOUR);
    assert_eq!(need(&w, near, "ControlTower"), 1.0);
    assert_eq!(need(&w, far, "ControlTower"), 0.0);
    assert_eq!(w.science_points(), 4, "3 points an hour");
    assert!(
        w.beaver_view(near, false).unwrap().wellbeing
            > w.beaver_view(far, false).unwrap().wellbeing
    );
    w.advance_ticks(HOUR);
    assert_eq!(
        (need(&w, near, "ControlTower"), w.science_points()),
        (1.0, 1)
    );
    // Out of science the tower stops: the need drains and the tower says why.
    w.advance_ticks(HOUR);
    assert_eq!(
        (need(&w, near, "ControlTower"), w.science_points()),
        (0.0, 1)
    );
    assert!(
        w.building_statuses(tower)
            .contains(&"lacks science".to_owned())
    );
}

#[test]
fn a_bot_out_of_energy_stops_then_recharges_and_works_again() {
    let mut w = world_of(Faction::IronTeeth);
    let (dc, door) = center(&w);
    let (x, y, z) = flat_area_at(&mut w, 8, 4, Some(door[2] as u8));
    build(&mut w, "GeothermalEngine.IronTeeth", x, y + 1, z, "south");
    let asm = build(&mut w, "BotAssembler.IronTeeth", x + 3, y + 1, z, "south");
    connect(&mut w, asm);
    add_parts(&mut w, asm);
    let bot = w.spawn_bot(door, Some(dc));
    // The bot is the assembler's only worker.
    {
        let b = w.colony.buildings.get_mut(&asm).unwrap();
        b.desired_workers = 1;
        b.workers = vec![bot];
    }
    w.colony.beavers.get_mut(&bot).unwrap().workplace = Some(asm);
    set_need(&mut w, bot, "Energy", 0.0);
    w.advance_ticks(3 * HOUR);
    let asm_b = &w.colony.buildings[&asm];
    assert!(asm_b.progress == 0.0 && !asm_b.cycle_started, "no work");
    assert_eq!(
        w.beaver_view(bot, false).unwrap().activity,
        "stopped: out of Energy"
    );
    assert!(
        w.colony.beavers[&bot]
            .plan
            .iter()
            .all(|s| !matches!(s, Step::Work { .. } | Step::Pickup { .. }))
    );
    assert!(w.colony.beavers[&bot].critical_needs(w.faction) == ["Energy"]);

    // A powered charging station beside the assembler.
    let station = build(
        &mut w,
        "ChargingStation.IronTeeth",
        x + 6,
        y + 1,
        z,
        "south",
    );
    connect(&mut w, station);
    assert!(w.is_powered(station) && w.is_powered(asm));
    let mut charging = false;
    for _ in 0..8 * HOUR {
        w.advance_ticks(1);
        charging |= w.beaver_view(bot, false).unwrap().activity == "recharging (Energy)";
        if w.colony.buildings[&asm].progress > 0.0 {
            break;
        }
    }
    assert!(charging);
    assert!(need(&w, bot, "Energy") > 0.8);
    assert!(
        w.colony.buildings[&asm].progress > 0.0,
        "the bot works again"
    );
}

#[test]
fn a_folktails_bot_runs_on_biofuel() {
    let mut w = world_of(Faction::Folktails);
    let (dc, door) = center(&w);
    let bot = w.spawn_bot(door, Some(dc));
    assert_eq!(w.colony.beavers[&bot].needs.len(), 3);
    set_need(&mut w, bot, "Biofuel", 0.0);
    w.advance_ticks(2 * HOUR);
    assert_eq!(
        w.beaver_view(bot, false).unwrap().activity,
        "stopped: out of Biofuel"
    );
    w.colony.buildings.get_mut(&dc).unwrap().add("Biofuel", 10);
    for _ in 0..2 * HOUR {
        w.advance_ticks(1);
        if need(&w, bot, "Biofuel") > 0.5 {
            break;
        }
    }
    // Empty to full: four units of 0.3.
    assert!(need(&w, bot, "Biofuel") > 0.9);
    assert_eq!(w.colony.buildings[&dc].has("Biofuel"), 6);
    assert_ne!(
        w.beaver_view(bot, false).unwrap().activity,
        "stopped: out of Biofuel"
    );
}

#[test]
fn bots_wear_out_at_their_lifespan_and_keep_out_of_homes() {
    let mut w = world_of(Faction::IronTeeth);
    let (dc, door) = center(&w);
    let bot = w.spawn_bot(door, Some(dc));
    let old = w.spawn_bot(door, Some(dc));
    w.colony.beavers.get_mut(&old).unwrap().age_days = 69.0;
    w.take_events();
    w.advance_ticks(DAY);
    assert!((w.colony.beavers[&bot].deterioration - 1.0 / 70.0).abs() < 1e-9);
    assert!(!w.colony.beavers.contains_key(&old));
    let died = w
        .take_events()
        .into_iter()
        .find(|e| e.name == names::BEAVER_DIED)
        .and_then(|e| e.data)
        .unwrap();
    assert_eq!(
        (&died["id"], &died["isBot"], &died["cause"]),
        (&old.into(), &true.into(), &"deterioration".into())
    );
    let b = &w.colony.beavers[&bot];
    assert!(b.home.is_none() && b.needs.len() == 3);
    assert!(b.plan.iter().all(|s| !matches!(s, Step::Sleep { .. })));
}

#[test]
fn bots_are_hired_like_adults_and_work_around_the_clock() {
    let mut w = world_of(Faction::IronTeeth);
    let (dc, door) = center(&w);
    let adults: Vec<i32> = w
        .colony
        .beavers
        .iter()
        .filter(|(_, b)| !b.child)
        .map(|(id, _)| *id)
        .collect();
    for id in adults {
        w.kill_beaver(id, "test");
    }
    let bot = w.spawn_bot(door, Some(dc));
    w.advance_ticks(HOUR);
    assert_eq!(w.colony.beavers[&bot].workplace, Some(dc));
    assert!(w.colony.buildings[&dc].workers.contains(&bot));
    assert!(!w.colony.game_over);
    // Out of working hours the bot still plans work, never sleep.
    while w.are_working_hours() {
        w.advance_ticks(HOUR);
    }
    w.advance_ticks(2 * HOUR);
    let b = &w.colony.beavers[&bot];
    assert!(
        b.plan
            .iter()
            .all(|s| !matches!(s, Step::Sleep { .. } | Step::Visit { .. }))
    );
    assert!(b.home.is_none());
    assert_eq!(w.districts()[0].bots, 1);
}

#[test]
fn saves_keep_bots() {
    let mut w = world_of(Faction::IronTeeth);
    let (dc, door) = center(&w);
    let bot = w.spawn_bot(door, Some(dc));
    set_need(&mut w, bot, "Grease", 0.25);
    w.advance_ticks(HOUR);
    let loaded = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(loaded.colony.beavers[&bot], w.colony.beavers[&bot]);
    assert_eq!(loaded.colony.bots_made, 1);
    assert_eq!(loaded.state_hash(), w.state_hash());
    let mut a = w.clone();
    let mut b = loaded;
    a.advance_ticks(DAY);
    b.advance_ticks(DAY);
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(b.spawn_bot(door, Some(dc)), a.spawn_bot(door, Some(dc)));
    assert_eq!(
        b.colony
            .beavers
            .values()
            .filter(|v| v.name == "Bot 2")
            .count(),
        1
    );
}

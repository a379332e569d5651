//! Scenario tests of the fair-game rules, driven through the commands an agent has: placement
//! search that ranks the spots a path can join first, workers that go where the colony needs
//! them most and say why a place stands empty, and producers that say why they stall.

use crate::testutil::HOUR;
use crate::world::World;

/// The district center's doorstep.
fn dc_door(w: &World) -> [u32; 3] {
    let dc = w.colony.centers()[0];
    w.colony.door(dc).expect("a doorstep")
}

/// Places `prefab` on the best joinable spot `find_placements` offers within `r` tiles of the
/// district center's doorstep moved by `off`, joins its doorstep to the center with
/// `place_path` and finishes it. Returns its id.
fn place_joined(w: &mut World, prefab: &str, off: (i64, i64), r: i64) -> i32 {
    let d = dc_door(w);
    let (cx, cy) = (i64::from(d[0]) + off.0, i64::from(d[1]) + off.1);
    let (x1, y1, x2, y2) = (cx - r, cy - r, cx + r, cy + r);
    let (_, _, _, spots) = w.find_placements(prefab, x1, y1, x2, y2).unwrap();
    let s = spots
        .iter()
        .find(|s| s.ground_steps >= 0)
        .unwrap_or_else(|| panic!("a joinable spot for {prefab}: {spots:?}"));
    let id = w
        .place_building(prefab, s.x.into(), s.y.into(), s.z.into(), &s.orientation)
        .unwrap();
    let route = w
        .place_path(
            i64::from(d[0]),
            i64::from(d[1]),
            s.entrance_x,
            s.entrance_y,
            "direct",
            1,
        )
        .unwrap();
    assert!(
        route.errors.is_empty() && route.stopped_at.is_none(),
        "{prefab}: {route:?}"
    );
    // The building and its path, so it is in the district at once.
    super::fixtures::finish_all(w);
    id
}

#[test]
fn the_best_pump_spot_is_one_a_path_can_join() {
    // Seed 1: the deepest water near the district center lies by the far bank, whose spots no
    // path from the center can reach; they rank after the near bank's.
    let mut w = crate::testutil::world();
    let d = dc_door(&w);
    let (x1, y1) = (i64::from(d[0] - 24), i64::from(d[1] - 24));
    let (_, _, _, spots) = w
        .find_placements("WaterPump.Folktails", x1, y1, x1 + 48, i64::from(d[1] + 24))
        .unwrap();
    assert!(spots[0].ground_steps > 0, "{:?}", spots[0]);
    assert!(spots[0].water_depth.unwrap() > 0.0);
    place_joined(&mut w, "WaterPump.Folktails", (0, 0), 24);
}

#[test]
fn a_pump_takes_a_worker_from_a_lumberjack_when_no_one_is_idle() {
    let mut w = crate::testutil::world();
    // Every adult at work: the center's two, six lumberjacks.
    // Spread out in front of the center (its door faces south, towards lower y).
    let flags: Vec<i32> = [(4, -8), (8, -5), (12, -3), (2, -5), (6, -9), (10, -7)]
        .into_iter()
        .map(|off| place_joined(&mut w, "LumberjackFlag.Folktails", off, 2))
        .collect();
    w.advance_ticks(2 * HOUR);
    let idle = w
        .colony
        .beavers
        .values()
        .filter(|b| !b.child && b.workplace.is_none())
        .count();
    assert_eq!(idle, 0, "everyone works");
    let pump = place_joined(&mut w, "WaterPump.Folktails", (0, 0), 24);
    w.advance_ticks(2 * HOUR);
    assert_eq!(
        w.colony.buildings[&pump].workers.len(),
        1,
        "the pump is staffed"
    );
    let empty: Vec<i32> = flags
        .iter()
        .copied()
        .filter(|f| w.colony.buildings[f].workers.is_empty())
        .collect();
    assert_eq!(empty.len(), 1, "one lumberjack gave its worker");
    let why = w.building_statuses(empty[0]);
    assert!(
        why.contains(&"unstaffed".to_owned())
            && why.contains(&"unstaffed: lower priority".to_owned()),
        "{why:?}"
    );
    // A higher priority outranks vitality: the lumberjack raised to VeryHigh takes a worker
    // back, from another lumberjack (the lowest rank), never from the pump.
    w.set_priority(empty[0], "VeryHigh", "workplace").unwrap();
    w.advance_ticks(2 * HOUR);
    assert_eq!(w.colony.buildings[&empty[0]].workers.len(), 1);
    assert_eq!(w.colony.buildings[&pump].workers.len(), 1);
    let empty_now = flags
        .iter()
        .filter(|f| w.colony.buildings[f].workers.is_empty())
        .count();
    assert_eq!(empty_now, 1);
}

#[test]
fn producers_say_why_they_stall() {
    let mut w = crate::testutil::world();
    let flag = place_joined(&mut w, "LumberjackFlag.Folktails", (0, -8), 3);
    assert!(
        w.building_statuses(flag)
            .contains(&"no trees marked in range".to_owned()),
        "{:?}",
        w.building_statuses(flag)
    );
    let b = w.colony.buildings.get_mut(&flag).unwrap();
    b.inventory.insert("Log".to_owned(), 4);
    let why = w.building_statuses(flag);
    assert!(why.contains(&"no storage for Log".to_owned()), "{why:?}");
    assert!(!why.contains(&"output full".to_owned()), "{why:?}");
    let cap = w.colony.buildings[&flag].capacity();
    w.colony
        .buildings
        .get_mut(&flag)
        .unwrap()
        .inventory
        .insert("Log".to_owned(), cap);
    assert!(
        w.building_statuses(flag)
            .contains(&"output full".to_owned())
    );
    // A pile takes logs: that stall is gone, and the alert says the rest.
    place_joined(&mut w, "LargePile.Folktails", (6, -6), 4);
    let why = w.building_statuses(flag);
    assert!(!why.contains(&"no storage for Log".to_owned()), "{why:?}");
    assert!(
        w.alerts()
            .iter()
            .any(|a| a.id == flag && a.status == "output full"),
        "alerts show stalls"
    );
}

#[test]
fn a_pump_over_a_dry_bank_draws_from_the_river_beyond() {
    // Seed 6: the river runs below its banks beside the start area; the only pumps on the near
    // side stand on the valley floor with their intake row hanging over the dry bank.
    let mut w = World::new(&crate::NewGame {
        seed: 6,
        ..crate::NewGame::default()
    });
    w.advance_ticks(24 * HOUR);
    let d = dc_door(&w);
    let (x, y) = (i64::from(d[0]), i64::from(d[1]));
    let (_, _, _, spots) = w
        .find_placements("WaterPump.Folktails", x - 12, y - 12, x + 12, y + 12)
        .unwrap();
    let s = spots
        .iter()
        .find(|s| s.ground_steps >= 0)
        .unwrap_or_else(|| panic!("a joinable pump spot: {spots:?}"));
    assert!(
        w.map.terrain_height(s.x, s.y) < s.z as u8,
        "its origin (the intake row) hangs over lower ground: {s:?}"
    );
    assert!(s.water_depth.unwrap() > 0.0);
    let id = place_joined(&mut w, "WaterPump.Folktails", (0, 0), 12);
    w.advance_ticks(12 * HOUR);
    let b = w.building_view(id).unwrap();
    assert!(
        !b.statuses.iter().any(|t| t == "no water to pump"),
        "{:?}",
        b.statuses
    );
}

//! Demolition: where a demolished building's goods and refunded cost go (nothing is ever stored
//! past a store's capacity: what finds no room is lost, with a notification), and marking a
//! finished building for the builders to take down over time.

use crate::colony::fair_tests::place_joined;
use crate::error::ErrorCode;
use crate::event::names;
use crate::testutil::{HOUR, events_named, flat_area, world};
use crate::world::World;

/// A finished, joined small tank holding its full capacity of water. Returns (id, capacity).
fn full_tank(w: &mut World, off: (i64, i64)) -> (i32, u32) {
    let tank = place_joined(w, "SmallTank.Folktails", off, 4);
    let cap = w.colony.buildings[&tank].capacity();
    assert!(cap > 0);
    w.colony.buildings.get_mut(&tank).unwrap().add("Water", cap);
    (tank, cap)
}

#[test]
fn demolishing_a_full_tank_never_stores_goods_past_a_capacity() {
    let mut w = world();
    let dc = w.colony.centers()[0];
    let (tank, cap) = full_tank(&mut w, (4, -6));
    let center = &w.colony.buildings[&dc];
    let (listed, held, water) = (center.capacity(), center.stock(), center.has("Water"));
    // The starting goods already fill the center past its listed capacity.
    assert!(held >= listed, "{held} held, {listed} listed");
    w.demolish_building(tank).unwrap();
    let center = &w.colony.buildings[&dc];
    assert_eq!(
        center.has("Water"),
        water,
        "the tank's water went into a full center"
    );
    assert!(center.stock() <= held, "{} > {held}", center.stock());
    let lost = w
        .notifications()
        .into_iter()
        .find(|n| n.subject == "Goods lost")
        .expect("a notification for the goods that found no room");
    assert!(
        lost.description.contains(&format!("{cap} Water"))
            && lost.description.contains("SmallTank"),
        "{}",
        lost.description
    );
}

#[test]
fn a_demolished_tanks_water_goes_to_a_store_with_room_up_to_its_capacity() {
    let mut w = world();
    let (full, cap) = full_tank(&mut w, (4, -6));
    let spare = place_joined(&mut w, "SmallTank.Folktails", (-4, -6), 4);
    w.colony
        .buildings
        .get_mut(&spare)
        .unwrap()
        .add("Water", cap / 3);
    w.demolish_building(full).unwrap();
    let spare = &w.colony.buildings[&spare];
    assert_eq!(
        spare.has("Water"),
        cap,
        "the spare tank filled to its capacity"
    );
    let lost = w
        .notifications()
        .into_iter()
        .find(|n| n.subject == "Goods lost")
        .expect("the rest is lost, with a notification");
    assert!(
        lost.description.contains(&format!("{} Water", cap / 3)),
        "{}",
        lost.description
    );
}

#[test]
fn a_marked_building_is_taken_down_by_builders_over_time_and_unmarking_cancels() {
    let mut w = world();
    let dc = w.colony.centers()[0];
    let (tank, _) = full_tank(&mut w, (4, -6));
    // A site goes at once and a finished center never: neither is marked.
    let (x, y, z) = flat_area(&mut w, 3, 3);
    let site = w
        .place_building("SmallTank.Folktails", x.into(), y.into(), z.into(), "south")
        .unwrap();
    for id in [site, dc] {
        let e = w.mark_demolition(id, true).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidType, "{e:?}");
    }
    assert_eq!(
        w.mark_demolition(404, true).unwrap_err().code,
        ErrorCode::NotFound
    );
    w.take_events();
    let hash = w.state_hash();
    w.mark_demolition(tank, true).unwrap();
    assert_ne!(w.state_hash(), hash, "the mark is game state");
    let marked = events_named(&mut w, names::DEMOLISH_MARKED);
    assert_eq!(marked.len(), 1);
    assert_eq!(
        (marked[0]["id"].as_i64(), marked[0]["name"].as_str()),
        (Some(tank.into()), Some("SmallTank.Folktails"))
    );
    assert_eq!(
        w.building_view(tank).unwrap().marked_for_demolition,
        Some(true)
    );
    let loaded = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(loaded.state_hash(), w.state_hash());
    // Unmarking cancels: the tank stands after a day.
    w.mark_demolition(tank, false).unwrap();
    assert_eq!(events_named(&mut w, names::DEMOLISH_UNMARKED).len(), 1);
    assert_eq!(w.state_hash(), hash, "unmarking leaves the game as it was");
    w.advance_ticks(24 * HOUR);
    assert!(w.colony.buildings.contains_key(&tank));
    // Marked again, the builders take it down: not at once, within two days.
    w.mark_demolition(tank, true).unwrap();
    w.take_events();
    let mut hours = 0;
    while w.colony.buildings.contains_key(&tank) && hours < 48 {
        w.advance_ticks(HOUR);
        hours += 1;
    }
    assert!(
        !w.colony.buildings.contains_key(&tank),
        "still standing after {hours} h"
    );
    assert!(hours >= 1);
    assert!(w.colony.marked.is_empty());
    let gone = events_named(&mut w, names::BUILDING_DECONSTRUCTED);
    assert!(gone.iter().any(|e| e["id"] == tank), "{gone:?}");
    // Its water found no room in the full center: lost, with a notification.
    assert!(w.notifications().iter().any(|n| n.subject == "Goods lost"));
}

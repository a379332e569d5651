//! Demolition: where a demolished building's goods and refunded cost go. Nothing is ever stored
//! past a store's capacity: what finds no room is lost, with a notification.

use crate::colony::fair_tests::place_joined;
use crate::testutil::world;
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

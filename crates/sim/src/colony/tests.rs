//! Unit tests of the colony (scenario tests through the public commands live in
//! `crates/sim/tests/colony_scenarios.rs`).

use crate::config::NewGame;
use crate::world::World;

#[test]
fn a_new_game_founds_a_district_with_beavers_and_stock() {
    let w = World::new(&NewGame::default());
    assert_eq!(w.colony.districts.len(), 1);
    assert_eq!(w.colony.beavers.len(), 12);
    let d = &w.districts()[0];
    assert_eq!((d.adults, d.children), (8, 4));
    assert!(d.resources.get("Berries").is_some_and(|(_, all)| *all > 0));
    let dc = w
        .buildings()
        .into_iter()
        .find(|b| b.name.starts_with("DistrictCenter"))
        .unwrap();
    assert!(dc.finished && dc.reachable);
}

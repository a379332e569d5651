//! Renaming beavers, bots and the buildings the game lets the player name (`colony::naming`).

use crate::error::ErrorCode;
use crate::event::names;
use crate::testutil::{build, events_named, flat_area, world};
use crate::world::World;

fn first_beaver(w: &World) -> i32 {
    *w.colony.beavers.keys().next().expect("a beaver")
}

#[test]
fn a_renamed_beaver_shows_its_name_everywhere_and_keeps_it_through_a_save() {
    let mut w = world();
    let id = first_beaver(&w);
    let old = w.colony.beavers[&id].name.clone();
    let hash = w.state_hash();
    w.take_events();
    let r = w.rename_entity(id, "  Bucky Dam-Builder  ").unwrap();
    assert_eq!(
        r.name, "Bucky Dam-Builder",
        "surrounding spaces are trimmed"
    );
    assert_eq!(
        (r.kind, r.previous.as_deref()),
        ("character", Some(old.as_str()))
    );
    let listed = w.beavers(false).into_iter().find(|b| b.id == id).unwrap();
    assert_eq!(listed.name, "Bucky Dam-Builder");
    assert_eq!(w.beaver_view(id, true).unwrap().name, "Bucky Dam-Builder");
    let ev = events_named(&mut w, names::ENTITY_RENAMED);
    assert_eq!(
        ev,
        [
            serde_json::json!({"id": id, "kind": "character", "name": "Bucky Dam-Builder", "previous": old})
        ]
    );
    assert_ne!(w.state_hash(), hash, "the name is game state");
    let loaded = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(loaded.colony.beavers[&id].name, "Bucky Dam-Builder");
    assert_eq!(loaded.state_hash(), w.state_hash());
    // The same name again changes nothing and announces nothing.
    w.rename_entity(id, "Bucky Dam-Builder").unwrap();
    assert!(events_named(&mut w, names::ENTITY_RENAMED).is_empty());
}

#[test]
fn bad_names_are_refused_and_change_nothing() {
    let mut w = world();
    let id = first_beaver(&w);
    let hash = w.state_hash();
    w.take_events();
    for (bad, says) in [
        ("", "must not be empty"),
        ("   ", "must not be empty"),
        (&"x".repeat(33), "at most 32 characters"),
        ("Pump/Crew", "must not contain '/'"),
        ("Tab\there", "must not contain '\\t'"),
    ] {
        let e = w.rename_entity(id, bad).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam, "{bad:?}");
        assert!(e.detail.contains(says), "{bad:?}: {}", e.detail);
        assert_eq!(e.extras["got"], bad);
    }
    let e = w.rename_entity(12345, "Nobody").unwrap_err();
    assert_eq!(e.code, ErrorCode::NotFound);
    assert_eq!(w.state_hash(), hash, "refusals change nothing");
    assert!(w.take_events().is_empty());
    // 32 characters, letters of any script, digits and the allowed punctuation pass.
    assert!(w.rename_entity(id, &"y".repeat(32)).is_ok());
    assert!(w.rename_entity(id, "Zoë #2 (the O'Brien)").is_ok());
}

#[test]
fn only_buildings_the_game_names_take_a_name() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 4, 4);
    let path = build(&mut w, "Path", x, y, z, "south");
    let e = w.rename_entity(path, "Main Street").unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidType);
    assert!(e.detail.contains("takes no name"), "{}", e.detail);
    assert!(w.building_view(path).unwrap().custom_name.is_none());
    let lever = build(&mut w, "Lever.Folktails", x + 2, y + 2, z, "south");
    assert_eq!(
        w.building_view(lever).unwrap().custom_name.as_deref(),
        Some("")
    );
    w.take_events();
    let r = w.rename_entity(lever, "Flood Switch").unwrap();
    assert_eq!((r.kind, r.previous), ("building", None));
    assert_eq!(
        w.building_view(lever).unwrap().custom_name.as_deref(),
        Some("Flood Switch")
    );
    let ev = events_named(&mut w, names::ENTITY_RENAMED);
    assert_eq!(ev[0]["previous"], serde_json::Value::Null);
    let loaded = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(
        loaded.building_view(lever).unwrap().custom_name.as_deref(),
        Some("Flood Switch")
    );
}

#[test]
fn a_district_centers_name_is_its_districts() {
    let mut w = world();
    let dc = w.colony.centers()[0];
    assert_eq!(
        w.building_view(dc).unwrap().custom_name.as_deref(),
        Some("District 1")
    );
    let r = w.rename_entity(dc, "Riverside").unwrap();
    assert_eq!(r.previous.as_deref(), Some("District 1"));
    assert_eq!(w.districts()[0].name, "Riverside");
    assert_eq!(w.building_view(dc).unwrap().district, "Riverside");
    // A second center (a site) may not take a name a district has.
    let (x, y, z) = flat_area(&mut w, 3, 3);
    let site = w
        .place_building(
            "DistrictCenter.Folktails",
            x.into(),
            y.into(),
            z.into(),
            "south",
        )
        .unwrap();
    let e = w.rename_entity(site, "riverside").unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParam);
    assert!(e.detail.contains("another district"), "{}", e.detail);
    // Named as a site, it founds its district under that name.
    w.rename_entity(site, "Uplands").unwrap();
    w.finish_building(site);
    let names: Vec<String> = w.districts().into_iter().map(|d| d.name).collect();
    assert!(names.contains(&"Uplands".to_owned()), "{names:?}");
}

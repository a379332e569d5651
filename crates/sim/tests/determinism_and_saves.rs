//! Determinism and saves through the public API: same seed and calls give the same world, save ->
//! load -> continue equals an uninterrupted run, and bad saves are refused with clear errors.

use sim::{Event, Faction, GameMode, NewGame, SaveError, World};

const DAY: u64 = 768;

fn game(seed: u64) -> NewGame {
    NewGame {
        seed,
        map_width: 64,
        map_height: 64,
        ..NewGame::default()
    }
}

fn ten_days(cfg: &NewGame) -> (Vec<Event>, u64) {
    let mut w = World::new(cfg);
    w.set_speed(2).unwrap();
    w.advance_ticks(5 * DAY);
    w.set_end_hours(12).unwrap();
    w.advance_ticks(5 * DAY);
    (w.take_events(), w.state_hash())
}

#[test]
fn same_seed_same_events_and_hash() {
    let cfg = game(77);
    let a = ten_days(&cfg);
    let b = ten_days(&cfg);
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
    assert!(a.0.len() > 30, "ten days produce plenty of events");
}

#[test]
fn different_seeds_differ() {
    let (_, h1) = ten_days(&game(1));
    let (_, h2) = ten_days(&game(2));
    assert_ne!(h1, h2);
    let w1 = World::new(&game(1));
    let w2 = World::new(&game(2));
    assert_ne!(w1.map().terrain(), w2.map().terrain());
}

#[test]
fn settings_are_part_of_the_world() {
    let base = World::new(&game(5)).state_hash();
    let other_faction = NewGame {
        faction: Faction::IronTeeth,
        ..game(5)
    };
    let other_mode = NewGame {
        mode: GameMode::Hard,
        ..game(5)
    };
    assert_ne!(base, World::new(&other_faction).state_hash());
    assert_ne!(base, World::new(&other_mode).state_hash());
    let mut w = World::new(&game(5));
    w.set_speed(3).unwrap();
    assert_ne!(base, w.state_hash());
}

#[test]
fn save_load_continue_equals_straight_run() {
    let cfg = NewGame {
        mode: GameMode::Hard,
        ..game(9)
    };
    let mut straight = World::new(&cfg);
    straight.advance_ticks(7 * DAY + 123);
    let bytes = straight.save_to_bytes();
    let mut loaded = World::load_from_bytes(&bytes).expect("loads");
    assert_eq!(loaded.state_hash(), straight.state_hash());
    assert_eq!(
        loaded.save_to_bytes(),
        bytes,
        "a load re-saves to the same bytes"
    );
    assert_eq!(loaded.time(), straight.time());
    assert_eq!(loaded.weather(), straight.weather());
    assert_eq!(
        (loaded.settlement(), loaded.faction(), loaded.mode()),
        ("New Colony", cfg.faction, cfg.mode)
    );

    straight.take_events();
    // Long enough to cross several cycles, so the RNG state must have been restored exactly.
    straight.advance_ticks(40 * DAY);
    loaded.advance_ticks(40 * DAY);
    assert_eq!(loaded.take_events(), straight.take_events());
    assert_eq!(loaded.state_hash(), straight.state_hash());
    assert!(straight.weather().cycle >= 3);
}

#[test]
fn save_format_is_versioned_json() {
    let w = World::new(&game(3));
    let v: serde_json::Value = serde_json::from_slice(&w.save_to_bytes()).unwrap();
    assert_eq!(v["format"], "colony-save");
    assert_eq!(v["version"], 4);
    assert_eq!(v["science"]["points"], 0);
    assert!(v["colony"]["buildings"].is_object());
    assert!(v["colony"]["beavers"].is_object());
    assert!(v["land"]["water"]["depth"].is_array());
    assert!(v["land"]["plants"].is_array());
    assert_eq!(v["map"]["terrain"].as_array().unwrap().len(), 64);
    assert!(v["rng"]["key"].is_string());
}

#[test]
fn bad_saves_are_refused_clearly() {
    let good = World::new(&game(4)).save_to_bytes();
    let text = String::from_utf8(good.clone()).unwrap();

    let e = World::load_from_bytes(b"not json at all").unwrap_err();
    assert!(matches!(e, SaveError::NotJson(_)));
    assert!(e.to_string().contains("not JSON"), "{e}");

    let e = World::load_from_bytes(br#"{"hello": 1}"#).unwrap_err();
    assert_eq!(e, SaveError::WrongFormat { found: None });
    let e = World::load_from_bytes(br#"{"format": "other-game", "version": 1}"#).unwrap_err();
    assert!(e.to_string().contains("other-game"), "{e}");

    let v5 = text.replacen("\"version\":4", "\"version\":5", 1);
    let e = World::load_from_bytes(v5.as_bytes()).unwrap_err();
    assert!(matches!(e, SaveError::UnsupportedVersion { .. }));
    assert!(
        e.to_string().contains("version 5") && e.to_string().contains("reads version 4"),
        "{e}"
    );
    // Version 3 (before the colony) loads and founds the colony on the start spot.
    let colony_at = text.find(",\"colony\"").expect("the save has a colony");
    let v3 = format!("{}}}", &text[..colony_at]).replacen("\"version\":4", "\"version\":3", 1);
    let w3 = World::load_from_bytes(v3.as_bytes()).expect("a version 3 save loads");
    assert_eq!(w3.population()[0].adults, 8);
    // Version 2 (before science) still loads, with no points and nothing unlocked.
    let science_at = text.find(",\"science\"").expect("the save has science");
    let v2 = format!("{}}}", &text[..science_at]).replacen("\"version\":4", "\"version\":2", 1);
    let w2 = World::load_from_bytes(v2.as_bytes()).expect("a version 2 save loads");
    assert_eq!(w2.science_points(), 0);
    // Saves from before the land (version 1) are refused clearly.
    let v1 = text.replacen("\"version\":4", "\"version\":1", 1);
    let e = World::load_from_bytes(v1.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("version 1"), "{e}");

    let truncated = &good[..good.len() / 2];
    assert!(matches!(
        World::load_from_bytes(truncated).unwrap_err(),
        SaveError::NotJson(_)
    ));

    for (from, to) in [
        ("\"speed\":1", "\"speed\":9"),
        ("\"endHours\":16", "\"endHours\":0"),
        ("\"width\":64", "\"width\":65"),
        ("\"ticks\":0", "\"ticks\":99999999"),
        ("\"faction\":\"Folktails\"", "\"faction\":\"Gophers\""),
    ] {
        assert!(text.contains(from), "fixture lacks {from}");
        let bad = text.replacen(from, to, 1);
        let e = World::load_from_bytes(bad.as_bytes()).unwrap_err();
        assert!(matches!(e, SaveError::Corrupt(_)), "{from} -> {to}: {e:?}");
        assert!(e.to_string().starts_with("corrupt colony save"), "{e}");
    }
}

#[test]
fn clones_share_terrain_until_written() {
    let w = World::new(&game(6));
    let snapshot = w.clone();
    assert!(std::ptr::eq(
        w.map().terrain().as_ptr(),
        snapshot.map().terrain().as_ptr()
    ));
    let mut map = w.map().clone();
    let before = map.terrain_height(10, 10);
    map.set_terrain_height(10, 10, before + 1).unwrap();
    assert_eq!(map.terrain_height(10, 10), before + 1);
    assert_eq!(
        w.map().terrain_height(10, 10),
        before,
        "the original is untouched"
    );
    assert!(map.set_terrain_height(10, 10, 23).is_err());
    assert!(map.set_terrain_height(64, 0, 5).is_err());
}

/// The hash of a fixed game is pinned, so a change in the RNG, the generator, the weather rolls or
/// the save format that alters existing worlds shows up here. If such a change is intended, update
/// the constant (and bump the save version when old saves no longer load the same way).
#[test]
fn hash_of_a_fixed_game_is_pinned() {
    let mut w = World::new(&game(2024));
    w.advance_ticks(3 * DAY);
    assert_eq!(format!("{:016x}", w.state_hash()), GOLDEN);
}

// Changed by the map generator (issue 15): the start area lies downstream beside a wider river
// fed by at most 1.6 m3/s. Old saves hold their terrain and sources, so they load as before.
// Changed again by the damped water (issue 33): the map's water is settled at generation.
// Changed again by issue 38's holes: the start's berry patches grow on its bank of the river,
// and bushes are added there up to `startBushesMin` within `startBushReach` of the start.
// Changed again by rules revision 5: beavers keep the part of a unit a meal leaves over (a new
// beaver field, absent from older saves, which load with none kept).
const GOLDEN: &str = "63c96d671a13a81f";

#[test]
fn world_and_events_can_cross_threads() {
    fn send_sync<T: Send + Sync + Clone + 'static>() {}
    send_sync::<World>();
    send_sync::<Event>();
    send_sync::<sim::Map>();
}

#[test]
fn a_save_with_an_unknown_prefab_is_refused() {
    let text = String::from_utf8(World::new(&game(4)).save_to_bytes()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (id, b) = v["colony"]["buildings"]
        .as_object()
        .and_then(|b| b.iter().next())
        .expect("the save has a building");
    let from = format!("\"prefab\":\"{}\"", b["prefab"].as_str().unwrap());
    let bad = text.replacen(&from, "\"prefab\":\"Nope\"", 1);
    let e = World::load_from_bytes(bad.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("corrupt colony save: colony: building {id} has unknown prefab \"Nope\"")
    );
}

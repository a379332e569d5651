//! The clock through the public API: day/night and working-hour events at the right ticks, and
//! the speed and work-hours commands with their validation and events.

use serde_json::json;
use sim::{ErrorCode, Event, NewGame, World, event_names as names};

const HOUR: u64 = 32;

fn world() -> World {
    let mut w = World::new(&NewGame::default());
    w.take_events();
    w
}

/// Advances one tick at a time, collecting `(tick, event)` pairs.
fn run(w: &mut World, ticks: u64) -> Vec<(u64, Event)> {
    let mut out = Vec::new();
    for _ in 0..ticks {
        w.tick();
        out.extend(w.take_events().into_iter().map(|e| (w.ticks(), e)));
    }
    out
}

fn at(events: &[(u64, Event)], name: &str) -> Vec<(u64, Option<serde_json::Value>)> {
    events
        .iter()
        .filter(|(_, e)| e.name == name)
        .map(|(t, e)| (*t, e.data.clone()))
        .collect()
}

#[test]
fn new_game_starts_at_hour_four_of_day_one_at_speed_one() {
    let mut w = World::new(&NewGame::default());
    let t = w.time();
    assert_eq!((t.day_number, w.ticks()), (1, 0));
    assert!((t.hour - 4.0).abs() < 1e-9);
    assert_eq!(w.speed(), 1);
    assert_eq!(w.end_hours(), 16);
    assert!(w.are_working_hours());
    let first = w.take_events();
    assert_eq!(first[0].name, names::GAME_NEW);
    let data = first[0].data.as_ref().unwrap();
    assert_eq!(data["faction"], "Folktails");
    assert_eq!(data["mapWidth"], 128);
    assert_eq!(data["settlement"], "New Colony");
    let rest: Vec<&str> = first[1..].iter().map(|e| e.name).take(3).collect();
    assert_eq!(
        rest,
        [
            names::CYCLE_START,
            names::WEATHER_SELECTED,
            names::CYCLE_DAY
        ]
    );
    assert!(w.take_events().is_empty(), "take_events drains the queue");
}

#[test]
fn day_night_and_work_events_fire_at_their_hours() {
    let mut w = world();
    let events = run(&mut w, 2 * 768);
    // Dusk of day 1 is hour 16, 12 hours after the start; dawn of day 2 comes 20 hours in.
    let dusk1 = 12 * HOUR;
    let dawn2 = 20 * HOUR;
    assert_eq!(
        at(&events, names::NIGHT_START),
        [
            (dusk1, Some(json!({"day": 1}))),
            (dusk1 + 768, Some(json!({"day": 2})))
        ]
    );
    assert_eq!(
        at(&events, names::DAY_START),
        [
            (dawn2, Some(json!({"day": 2}))),
            (dawn2 + 768, Some(json!({"day": 3})))
        ]
    );
    let work = at(&events, names::WORKHOURS_TRANSITIONED);
    assert_eq!(
        work,
        [
            (dusk1, Some(json!({"working": false, "endHours": 16}))),
            (dawn2, Some(json!({"working": true, "endHours": 16}))),
            (dusk1 + 768, Some(json!({"working": false, "endHours": 16}))),
            (dawn2 + 768, Some(json!({"working": true, "endHours": 16}))),
        ]
    );
    // Event day numbers follow the clock.
    for (t, e) in &events {
        let expected = 1 + (4 * HOUR + t) / 768;
        assert_eq!(u64::from(e.day), expected, "{} at tick {t}", e.name);
    }
    let dawn_events: Vec<&str> = events
        .iter()
        .filter(|(t, e)| {
            *t == dawn2 && !e.name.starts_with("population") && !e.name.starts_with("wind")
        })
        .map(|(_, e)| e.name)
        .collect();
    assert_eq!(
        dawn_events,
        [
            names::DAY_START,
            names::WORKHOURS_TRANSITIONED,
            names::CYCLE_DAY
        ]
    );
}

#[test]
fn clock_rolls_over_at_dawn() {
    let mut w = world();
    w.advance_ticks(20 * HOUR - 1);
    let before = w.time();
    assert_eq!(before.day_number, 1);
    assert!(before.hour > 23.9 && before.day_progress < 1.0);
    w.tick();
    let after = w.time();
    assert_eq!(
        (after.day_number, after.hour, after.day_progress),
        (2, 0.0, 0.0)
    );
    assert_eq!(after.partial_day_number, 2.0);
    w.advance_ticks(12 * HOUR);
    assert!((w.time().partial_day_number - 2.5).abs() < 1e-12);
    assert!(w.are_working_hours(), "hour 12 is working time");
    w.advance_ticks(4 * HOUR);
    assert!(!w.are_working_hours(), "hour 16 is not");
}

#[test]
fn set_speed_validates_and_reports_changes() {
    let mut w = world();
    let e = w.set_speed(7).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParam);
    assert_eq!(e.code.as_str(), "invalid_param");
    assert_eq!(e.extras["got"], 7);
    assert!(
        e.detail.contains("0-3") && e.detail.contains("got 7"),
        "{}",
        e.detail
    );
    assert_eq!(w.speed(), 1);
    assert!(w.take_events().is_empty());

    w.set_speed(1).unwrap();
    assert!(
        w.take_events().is_empty(),
        "no event when the speed does not change"
    );
    w.set_speed(3).unwrap();
    w.set_speed(0).unwrap();
    let ev = w.take_events();
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[0].name, names::SPEED_CHANGED);
    assert_eq!(ev[0].data, Some(json!({"speed": 3, "previous": 1})));
    assert_eq!(ev[1].data, Some(json!({"speed": 0, "previous": 3})));
    assert_eq!(w.speed(), 0);
    // Speed is pacing for the host: ticking still works when paused.
    w.advance_ticks(10);
    assert_eq!(w.ticks(), 10);
}

#[test]
fn set_end_hours_validates_and_flips_working_state() {
    let mut w = world(); // hour 4, working
    for bad in [0u8, 25, 255] {
        let e = w.set_end_hours(bad).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam);
        assert_eq!(e.extras["got"], bad);
        assert!(e.detail.contains("1-24"), "{}", e.detail);
    }
    assert_eq!(w.end_hours(), 16);
    assert!(w.take_events().is_empty());

    w.set_end_hours(3).unwrap();
    assert!(!w.are_working_hours());
    let ev = w.take_events();
    let names_: Vec<&str> = ev.iter().map(|e| e.name).collect();
    assert_eq!(
        names_,
        [names::WORKHOURS_CHANGED, names::WORKHOURS_TRANSITIONED]
    );
    assert_eq!(ev[0].data, Some(json!({"endHours": 3, "previous": 16})));
    assert_eq!(ev[1].data, Some(json!({"working": false, "endHours": 3})));

    w.set_end_hours(3).unwrap();
    assert!(w.take_events().is_empty());
    w.set_end_hours(2).unwrap(); // still not working: no transition
    let ev = w.take_events();
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].name, names::WORKHOURS_CHANGED);

    w.set_end_hours(20).unwrap();
    assert!(w.are_working_hours());
    assert_eq!(
        w.take_events()[1].data,
        Some(json!({"working": true, "endHours": 20}))
    );
    // Work now ends at hour 20, 16 hours after the start; no transition at dusk.
    let events = run(&mut w, 20 * HOUR);
    assert_eq!(
        at(&events, names::WORKHOURS_TRANSITIONED),
        [
            (16 * HOUR, Some(json!({"working": false, "endHours": 20}))),
            (20 * HOUR, Some(json!({"working": true, "endHours": 20})))
        ]
    );

    w.set_end_hours(24).unwrap();
    w.take_events();
    let events = run(&mut w, 768);
    assert!(
        at(&events, names::WORKHOURS_TRANSITIONED).is_empty(),
        "24 means work never stops"
    );
}

#[test]
fn invalid_new_games_are_refused() {
    let bad = NewGame {
        map_width: 16,
        ..NewGame::default()
    };
    let e = World::try_new(&bad).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParam);
    assert_eq!(e.extras["got"], 16);
    assert!(e.detail.contains("32-256"), "{}", e.detail);
    assert!(
        World::try_new(&NewGame {
            map_height: 300,
            ..NewGame::default()
        })
        .is_err()
    );
}

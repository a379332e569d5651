//! Weather through the public API: durations per game mode, badtide timing and the order of the
//! weather events in each cycle.

use sim::{Event, GameMode, HazardKind, NewGame, World, event_names as names, hazard_days_bounds};

const DAY: u64 = 768;

fn data(e: &Event, key: &str) -> u64 {
    e.data.as_ref().unwrap()[key].as_u64().unwrap()
}

#[test]
fn durations_and_hazards_follow_the_mode_over_many_cycles() {
    let rules = sim::catalog::world_rules();
    for mode in GameMode::ALL {
        let m = rules.mode(mode);
        for seed in [1, 8, 31] {
            let mut w = World::new(&NewGame {
                seed,
                mode,
                map_width: 32,
                map_height: 32,
                ..NewGame::default()
            });
            let mut selected = Vec::new();
            while w.weather().cycle <= 15 {
                w.advance_ticks(DAY);
                selected.extend(
                    w.take_events()
                        .into_iter()
                        .filter(|e| e.name == names::WEATHER_SELECTED),
                );
            }
            assert!(selected.len() >= 14);
            for e in &selected {
                let cycle = data(e, "cycle") as u32;
                let temperate = data(e, "temperateDays") as u32;
                let hazardous = data(e, "hazardousDays") as u32;
                let hazard = match e.data.as_ref().unwrap()["hazard"].as_str().unwrap() {
                    "drought" => HazardKind::Drought,
                    "badtide" => HazardKind::Badtide,
                    other => panic!("unknown hazard {other}"),
                };
                assert!((m.temperate_days[0]..=m.temperate_days[1]).contains(&temperate));
                let (lo, hi) = hazard_days_bounds(mode, hazard, cycle);
                assert!(
                    (lo..=hi).contains(&hazardous),
                    "{mode} cycle {cycle}: {hazardous}"
                );
                if cycle <= m.cycles_without_badtide {
                    assert_eq!(
                        hazard,
                        HazardKind::Drought,
                        "{mode} seed {seed} cycle {cycle}"
                    );
                }
            }
        }
    }
}

#[test]
fn each_cycle_runs_its_events_in_order() {
    let mut w = World::new(&NewGame {
        seed: 4,
        map_width: 32,
        map_height: 32,
        ..NewGame::default()
    });
    let mut events = w.take_events();
    while w.weather().cycle <= 6 {
        w.advance_ticks(DAY);
        events.extend(w.take_events());
    }
    let order = [
        names::CYCLE_START,
        names::WEATHER_SELECTED,
        names::DROUGHT_APPROACHING,
        names::DROUGHT_START,
        names::DROUGHT_END,
        names::CYCLE_END,
    ];
    for cycle in 1..=6u64 {
        let seq: Vec<&str> = events
            .iter()
            .filter(|e| order.contains(&e.name) && data(e, "cycle") == cycle)
            .map(|e| e.name)
            .collect();
        assert_eq!(seq, order, "cycle {cycle}");
    }
    // cycle.end of one cycle is followed directly by cycle.start of the next.
    let ends: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.name == names::CYCLE_END)
        .map(|(i, _)| i)
        .collect();
    for i in ends {
        assert_eq!(events[i + 1].name, names::CYCLE_START);
        assert_eq!(data(&events[i + 1], "cycle"), data(&events[i], "cycle") + 1);
        assert_eq!(events[i - 1].name, names::DROUGHT_END);
    }
}

#[test]
fn weather_view_follows_the_season() {
    let mut w = World::new(&NewGame {
        seed: 12,
        map_width: 32,
        map_height: 32,
        ..NewGame::default()
    });
    let v = w.weather();
    assert_eq!((v.cycle, v.cycle_day, v.is_hazardous), (1, 1, false));
    assert_eq!(v.hazard, Some(HazardKind::Drought));
    assert_eq!(
        v.cycle_length_in_days,
        v.temperate_weather_duration + v.hazardous_weather_duration
    );
    // Walk to the hazard's first dawn.
    let hours = v.hours_until_hazard.unwrap();
    w.advance_ticks((hours * 32.0) as u64 - 1);
    assert!(!w.weather().is_hazardous);
    w.tick();
    let h = w.weather();
    assert!(h.is_hazardous);
    assert_eq!(h.cycle_day, v.temperate_weather_duration + 1);
    let start: Vec<Event> = w
        .take_events()
        .into_iter()
        .filter(|e| e.name == names::DROUGHT_START)
        .collect();
    assert_eq!(start.len(), 1);
    assert_eq!(
        data(&start[0], "duration"),
        u64::from(v.hazardous_weather_duration)
    );
    w.advance_ticks(u64::from(v.hazardous_weather_duration) * DAY);
    let next = w.weather();
    assert_eq!(
        (next.cycle, next.cycle_day, next.is_hazardous),
        (2, 1, false)
    );
}

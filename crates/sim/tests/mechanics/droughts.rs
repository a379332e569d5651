//! Drought length: the days each drought lasts, against the days the game mode rolls.

use std::collections::{BTreeMap, BTreeSet};

use sim::catalog::world_rules;
use sim::{GameMode, HazardKind, NewGame, World, event_names};

use super::{game, hour, provenance, report};

#[test]
fn droughts_last_the_days_the_mode_rolls() {
    let rules = world_rules();
    let m = rules.mode(GameMode::Normal);
    // Weather does not depend on the map: a small one runs fast.
    let mut w = World::new(&NewGame {
        map_width: 32,
        map_height: 32,
        ..game(8)
    });
    let days = 60;
    let mut dry_hours: BTreeMap<u32, u64> = BTreeMap::new();
    let mut announced: BTreeMap<u32, u64> = BTreeMap::new();
    let mut ended = BTreeSet::new();
    for _ in 0..days * 24 {
        w.advance_ticks(hour());
        let v = w.weather();
        if v.is_hazardous && v.hazard == Some(HazardKind::Drought) {
            *dry_hours.entry(v.cycle).or_default() += 1;
        }
        for e in w.take_events() {
            let d = e.data.as_ref();
            let cycle = d.and_then(|d| d["cycle"].as_u64()).unwrap_or(0) as u32;
            if e.name == event_names::DROUGHT_START {
                announced.insert(cycle, d.unwrap()["duration"].as_u64().unwrap());
            } else if e.name == event_names::DROUGHT_END {
                ended.insert(cycle);
            }
        }
    }
    // Only droughts that ended within the run.
    dry_hours.retain(|c, _| ended.contains(c));
    assert!(
        dry_hours.len() >= 3,
        "droughts in {days} days: {dry_hours:?}"
    );
    let h = m.drought_handicap;
    let min_days = rules.weather.minimum_hazard_days.value;
    let (mut measured, mut data) = (Vec::new(), Vec::new());
    for (&cycle, &hours) in &dry_hours {
        // hazardDurationFormula: handicap = lerp(multiplier, 1, clamp01((cycle-1)/cycles)),
        // days = round(U(handicap x min, handicap x max)), at least minimumHazardDays.
        let k = h.multiplier
            + (1.0 - h.multiplier)
                * (f64::from(cycle - 1) / f64::from(h.cycles.max(1))).clamp(0.0, 1.0);
        let bound = |d: u32| ((k * f64::from(d)).round() as u32).max(min_days);
        let (lo, hi) = (bound(m.drought_days[0]), bound(m.drought_days[1]));
        // Hazards begin and end at a dawn, and the weather was read every hour: whole days.
        assert_eq!(hours % 24, 0, "cycle {cycle}: {hours} h");
        let d = (hours / 24) as u32;
        assert!((lo..=hi).contains(&d), "cycle {cycle}: {d} days, {lo}-{hi}");
        assert_eq!(
            u64::from(d),
            announced[&cycle],
            "cycle {cycle} as announced"
        );
        measured.push(format!("c{cycle} {d}"));
        data.push(format!("c{cycle} {lo}-{hi}"));
    }
    report(
        &format!("drought length (days, Normal, seed 8, {days} days)"),
        measured.join(", "),
        format!(
            "droughtDays {}-{} x handicap {} rising to 1 over {} cycles: {}",
            m.drought_days[0],
            m.drought_days[1],
            h.multiplier,
            h.cycles,
            data.join(", ")
        ),
        &provenance(&rules.weather.game_modes),
    );
}

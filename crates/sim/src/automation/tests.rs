//! Scenario tests of automation through the world's commands, on fixed seeds.

use std::collections::BTreeSet;

use super::Signal::{self, Error, Off, On};
use super::config::{self, Ty};
use super::{Device, device_of};
use crate::error::ErrorCode;
use crate::testutil::{DAY, HOUR, build, connect, flat_area, flat_area_at, world};
use crate::world::World;

fn lever(w: &mut World, id: i32, on: bool) {
    w.automation_configure(id, "on", if on { "true" } else { "false" })
        .unwrap();
}

fn state(w: &World, id: i32) -> Signal {
    w.automation_state(id).unwrap_or_default()
}

/// Builds 1x1 devices side by side on flat ground near the district center (so they belong to
/// its district); returns their ids.
fn devices(w: &mut World, prefabs: &[&str]) -> Vec<i32> {
    let level = w.map.start_spot().2 as u8;
    // Three rows: the devices in the middle, their doorsteps (south) on flat ground too.
    let (x, y, z) = flat_area_at(w, prefabs.len() as u32, 3, Some(level));
    prefabs
        .iter()
        .enumerate()
        .map(|(i, p)| build(w, p, x + i as u32, y + 1, z, "south"))
        .collect()
}

#[test]
fn relays_combine_levers_and_drive_a_building() {
    let mut w = world();
    let ids = devices(
        &mut w,
        &["Lever.Folktails", "Lever.Folktails", "Relay.Folktails"],
    );
    let (l1, l2, relay) = (ids[0], ids[1], ids[2]);
    let (x, y, z) = flat_area(&mut w, 3, 2);
    let mill = build(&mut w, "LumberMill.Folktails", x, y, z, "south");
    w.automation_link(l1, relay, None).unwrap();
    // Input b needs a mode that reads it.
    let e = w.automation_link(l2, relay, Some("b")).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParam);
    assert!(e.detail.contains("Passthrough"), "{}", e.detail);
    assert_eq!(
        w.automation_configure(relay, "MODE", "and").unwrap().value,
        "And"
    );
    let l = w.automation_link(l2, relay, Some("B")).unwrap();
    assert_eq!(
        (l.input.as_str(), l.source_id, l.connected),
        ("b", l2, true)
    );
    // A single-input target reports input a whatever was asked.
    let l = w.automation_link(relay, mill, Some("c")).unwrap();
    assert_eq!(
        (l.id, l.input.as_str(), l.source_name.as_str()),
        (mill, "a", "Relay.Folktails")
    );

    let table: [(&str, [Signal; 4]); 5] = [
        ("And", [Off, Off, Off, On]),
        ("Or", [Off, On, On, On]),
        ("Xor", [Off, On, On, Off]),
        ("Not", [On, On, Off, Off]),
        ("Passthrough", [Off, Off, On, On]),
    ];
    for (mode, expect) in table {
        w.automation_configure(relay, "mode", mode).unwrap();
        for (i, (a, b)) in [(false, false), (false, true), (true, false), (true, true)]
            .into_iter()
            .enumerate()
        {
            lever(&mut w, l1, a);
            lever(&mut w, l2, b);
            w.advance_ticks(1);
            assert_eq!(state(&w, relay), expect[i], "{mode} {a} {b}");
            // The mill runs while the relay is On and is paused while it is Off.
            assert_eq!(
                w.colony.buildings[&mill].paused,
                expect[i] == Off,
                "{mode} {a} {b}"
            );
        }
    }
    let v = w.automation_view(mill).unwrap();
    assert_eq!(
        (v.kind.as_str(), v.is_automated, v.has_automator),
        ("Automatable", true, true)
    );
    assert_eq!(v.inputs[0].id, relay);
    let v = w.automation_view(relay).unwrap();
    assert_eq!(v.kind, "Relay");
    assert_eq!(
        v.inputs.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(v.outputs.iter().map(|o| o.id).collect::<Vec<_>>(), [mill]);
    assert!(v.is_transmitter);
    // The history's `automated` counts the mill (linked), not the relay (a device, no effect).
    let automated = w.automated_buildings();
    assert_eq!(
        automated.into_iter().collect::<Vec<_>>(),
        [("LumberMill".to_owned(), 1)]
    );
    // In the building view too.
    let bv = w.building_view(relay).unwrap();
    assert_eq!(bv.automation.unwrap().config["mode"], "Passthrough");
    // A relay with no input is in error.
    w.automation_unlink(relay, Some("a")).unwrap();
    w.automation_unlink(relay, Some("b")).unwrap();
    w.automation_configure(relay, "mode", "Or").unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, relay), Error);
    // Unlinked, the mill is no longer automated.
    w.automation_unlink(mill, None).unwrap();
    assert!(w.automated_buildings().is_empty());
}

#[test]
fn memory_cells_remember() {
    let mut w = world();
    let ids = devices(
        &mut w,
        &[
            "Lever.Folktails",
            "Lever.Folktails",
            "Lever.Folktails",
            "Memory.Folktails",
        ],
    );
    let (a, b, r, m) = (ids[0], ids[1], ids[2], ids[3]);
    w.automation_link(a, m, Some("a")).unwrap();
    assert_eq!(
        w.automation_link(b, m, Some("b")).unwrap_err().code,
        ErrorCode::InvalidParam,
        "SetReset has no b"
    );
    assert_eq!(
        w.automation_link(b, m, Some("c")).unwrap_err().code,
        ErrorCode::InvalidParam
    );
    w.automation_link(r, m, Some("reset")).unwrap();
    let step = |w: &mut World, av: bool, bv: bool, rv: bool| {
        lever(w, a, av);
        lever(w, b, bv);
        lever(w, r, rv);
        w.advance_ticks(1);
        state(w, m)
    };
    // SetReset: a sets, the cell remembers, reset clears.
    assert_eq!(step(&mut w, false, false, false), Off);
    assert_eq!(step(&mut w, true, false, false), On);
    assert_eq!(step(&mut w, false, false, false), On, "a latch remembers");
    w.advance_ticks(DAY / 4);
    assert_eq!(state(&w, m), On);
    assert_eq!(step(&mut w, true, false, true), Off, "reset wins");
    assert_eq!(step(&mut w, false, false, false), Off);
    // It survives a save and load.
    assert_eq!(step(&mut w, true, false, false), On);
    assert_eq!(step(&mut w, false, false, false), On);
    let mut l = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    l.advance_ticks(HOUR);
    w.advance_ticks(HOUR);
    assert_eq!(state(&l, m), On);
    assert_eq!(l.state_hash(), w.state_hash());
    // Toggle: each rise of a flips it.
    step(&mut w, false, false, true);
    w.automation_configure(m, "mode", "Toggle").unwrap();
    assert_eq!(step(&mut w, true, false, false), On);
    assert_eq!(step(&mut w, true, false, false), On, "held high: no flip");
    assert_eq!(step(&mut w, false, false, false), On);
    assert_eq!(step(&mut w, true, false, false), Off);
    // Latch: follows a while b is On, holds while b is Off.
    w.automation_configure(m, "mode", "Latch").unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, m), Error, "Latch needs b");
    w.automation_link(b, m, Some("b")).unwrap();
    assert_eq!(step(&mut w, true, true, false), On);
    assert_eq!(step(&mut w, false, true, false), Off);
    assert_eq!(step(&mut w, true, true, false), On);
    assert_eq!(step(&mut w, false, false, false), On, "held");
    assert_eq!(step(&mut w, false, true, false), Off);
    // FlipFlop: stores a when b rises.
    w.automation_configure(m, "mode", "FlipFlop").unwrap();
    assert_eq!(step(&mut w, true, false, false), Off);
    assert_eq!(step(&mut w, true, true, false), On, "b rose with a On");
    assert_eq!(
        step(&mut w, false, true, false),
        On,
        "b stays high: no store"
    );
    assert_eq!(step(&mut w, false, false, false), On);
    assert_eq!(step(&mut w, false, true, false), Off);
    // Without a, a cell is in error (and keeps its bit).
    w.automation_unlink(m, None).unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, m), Error);
}

#[test]
fn link_and_unlink_follow_the_contract() {
    let mut w = world();
    let ids = devices(
        &mut w,
        &[
            "Lever.Folktails",
            "Relay.Folktails",
            "Memory.Folktails",
            "DepthSensor.Folktails",
        ],
    );
    let (lev, relay, mem, sensor) = (ids[0], ids[1], ids[2], ids[3]);
    let (x, y, z) = flat_area(&mut w, 3, 2);
    let mill = build(&mut w, "LumberMill.Folktails", x, y, z, "south");
    let dc = *w.colony.districts.keys().next().unwrap();
    let code = |r: Result<super::LinkView, crate::error::CommandError>| r.unwrap_err().code;
    // Sources must be transmitters; targets need an input.
    assert_eq!(
        code(w.automation_link(mill, relay, None)),
        ErrorCode::InvalidType
    );
    assert_eq!(
        code(w.automation_link(lev, sensor, None)),
        ErrorCode::InvalidType
    );
    assert_eq!(
        code(w.automation_link(lev, dc, None)),
        ErrorCode::InvalidType
    );
    assert_eq!(code(w.automation_link(lev, -1, None)), ErrorCode::NotFound);
    assert_eq!(
        code(w.automation_link(-1, relay, None)),
        ErrorCode::NotFound
    );
    assert_eq!(
        code(w.automation_link(relay, relay, None)),
        ErrorCode::InvalidParam
    );
    // Relay letters: a-h only; past the last input adds it, skipped letters stay empty.
    w.automation_configure(relay, "mode", "Or").unwrap();
    assert_eq!(
        code(w.automation_link(lev, relay, Some("i"))),
        ErrorCode::InvalidParam
    );
    assert_eq!(w.automation_link(lev, relay, Some("d")).unwrap().input, "d");
    assert_eq!(
        w.colony.automation.nodes[&relay].inputs,
        vec![None, None, None, Some(lev)]
    );
    let keys: Vec<String> = w
        .automation_view(relay)
        .unwrap()
        .inputs
        .into_iter()
        .map(|i| i.key)
        .collect();
    assert_eq!(keys, ["d"]);
    // Unlink: an empty input answers connected false and sourceId 0; never removes it.
    let u = w.automation_unlink(relay, Some("b")).unwrap();
    assert_eq!((u.connected, u.source_id), (false, 0));
    let u = w.automation_unlink(relay, Some("d")).unwrap();
    assert_eq!(
        (u.input.as_str(), u.source_id, u.connected),
        ("d", lev, false)
    );
    assert_eq!(w.colony.automation.nodes[&relay].inputs.len(), 4);
    assert_eq!(
        w.automation_unlink(relay, Some("x")).unwrap_err().code,
        ErrorCode::InvalidParam
    );
    assert_eq!(
        w.automation_unlink(lev, None).unwrap_err().code,
        ErrorCode::InvalidType
    );
    assert_eq!(
        w.automation_unlink(-7, None).unwrap_err().code,
        ErrorCode::NotFound
    );
    assert!(!w.automation_unlink(mem, Some("reset")).unwrap().connected);
    // Unlinking an automated building's only input leaves it as it was, unautomated.
    w.automation_link(lev, mill, None).unwrap();
    w.advance_ticks(1);
    assert!(w.colony.buildings[&mill].paused, "the lever is off");
    w.automation_unlink(mill, None).unwrap();
    assert!(w.automation_view(mill).is_none());
    w.advance_ticks(1);
    assert!(w.colony.buildings[&mill].paused);
    // Links to a demolished source are dropped.
    w.automation_link(lev, relay, Some("a")).unwrap();
    w.demolish_building(lev).unwrap();
    w.advance_ticks(1);
    assert!(
        w.colony.automation.nodes[&relay]
            .inputs
            .iter()
            .all(Option::is_none)
    );
}

/// A value other than the default, valid for the property.
fn other_value(p: &config::Prop) -> &'static str {
    match p.ty {
        Ty::Float { max, .. } if max <= 1.0 => "0.25",
        Ty::Float { max, .. } if max <= 24.0 => "7.5",
        Ty::Float { .. } => "42.5",
        Ty::Int => "17",
        Ty::Bool => {
            if p.default == "true" {
                "false"
            } else {
                "true"
            }
        }
        Ty::Enum(names) => names.iter().find(|n| **n != p.default).expect("two names"),
        Ty::Good => "Plank",
    }
}

#[test]
fn every_property_of_the_configure_table_round_trips() {
    let mut w = world();
    let prefabs = [
        "DepthSensor.Folktails",
        "ContaminationSensor.Folktails",
        "FlowSensor.Folktails",
        "ResourceCounter.Folktails",
        "PopulationCounter.Folktails",
        "PowerMeter.Folktails",
        "Relay.Folktails",
        "Memory.Folktails",
        "Chronometer.Folktails",
        "Lever.Folktails",
    ];
    let ids = devices(&mut w, &prefabs);
    let mut count = 0;
    for (id, prefab) in ids.iter().zip(prefabs) {
        let d = device_of(prefab).unwrap();
        for p in config::props(d) {
            let view = w.automation_view(*id).unwrap();
            assert_eq!(view.kind, d.name());
            assert_eq!(
                view.config[p.name],
                config::to_json(p, p.default),
                "{prefab} {}",
                p.name
            );
            let v = other_value(p);
            // Names are case-insensitive; answers carry the canonical spelling.
            let c = w
                .automation_configure(*id, &p.name.to_uppercase(), &v.to_lowercase())
                .unwrap();
            assert_eq!(
                (c.id, c.property.as_str(), c.name.as_str()),
                (*id, p.name, prefab)
            );
            assert_eq!(c.automation_type, d.name());
            assert_eq!(c.value, v, "{prefab} {}", p.name);
            let view = w.automation_view(*id).unwrap();
            assert_eq!(
                view.config[p.name],
                config::to_json(p, v),
                "{prefab} {}",
                p.name
            );
            // A wrong value is refused and changes nothing.
            let bad = match p.ty {
                Ty::Enum(_) | Ty::Good => "Nonsense",
                Ty::Float { .. } => "-1",
                _ => "x1",
            };
            let e = w.automation_configure(*id, p.name, bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParam, "{prefab} {} {bad}", p.name);
            assert_eq!(
                w.automation_view(*id).unwrap().config[p.name],
                config::to_json(p, v)
            );
            count += 1;
        }
        let e = w.automation_configure(*id, "colour", "red").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam);
    }
    assert_eq!(
        count, 30,
        "the 29 properties of the contract's table and the lever's `on`"
    );
    let dc = *w.colony.districts.keys().next().unwrap();
    assert_eq!(
        w.automation_configure(dc, "mode", "Or").unwrap_err().code,
        ErrorCode::InvalidType
    );
    assert_eq!(
        w.automation_configure(-3, "mode", "Or").unwrap_err().code,
        ErrorCode::NotFound
    );
    // Settings survive a save and load.
    let l = World::load_from_bytes(&w.save_to_bytes()).unwrap();
    assert_eq!(l.automation_view(ids[3]), w.automation_view(ids[3]));
}

#[test]
fn sensors_and_counters_read_the_world() {
    let mut w = world();
    w.advance_ticks(2 * DAY);
    // A depth sensor standing in the river.
    w.add_science(500);
    w.unlock("DepthSensor.Folktails").unwrap();
    let (sx, sy, _) = w.map.start_spot();
    let mut spot = None;
    'find: for r in 0..30u32 {
        for y in sy.saturating_sub(r)..=sy + r {
            for x in sx.saturating_sub(r)..=sx + r {
                if w.water_depth(x, y) > 0.8
                    && w.check_placement(
                        "DepthSensor.Folktails",
                        x.into(),
                        y.into(),
                        w.map.terrain_height(x, y).into(),
                        crate::colony::Orientation::South,
                    )
                    .is_ok()
                {
                    spot = Some((x, y));
                    break 'find;
                }
            }
        }
    }
    let (x, y) = spot.expect("deep water near the start");
    let z = u32::from(w.map.terrain_height(x, y));
    let depth = build(&mut w, "DepthSensor.Folktails", x, y, z, "south");
    let d = f64::from(w.water_depth(x, y));
    for (mode, t, expect) in [
        ("Greater", d - 0.2, On),
        ("Less", d - 0.2, Off),
        ("LessOrEqual", d + 0.2, On),
        ("NotEqual", d + 0.2, On),
    ] {
        w.automation_configure(depth, "mode", mode).unwrap();
        w.automation_configure(depth, "threshold", &t.to_string())
            .unwrap();
        w.advance_ticks(1);
        assert_eq!(state(&w, depth), expect, "{mode} {t} (depth {d})");
    }
    let ids = devices(
        &mut w,
        &[
            "Chronometer.Folktails",
            "PopulationCounter.Folktails",
            "ResourceCounter.Folktails",
            "Lever.Folktails",
        ],
    );
    let (chrono, pop, res, lev) = (ids[0], ids[1], ids[2], ids[3]);
    // Counters with a door belong to a district once a path reaches it.
    for id in [pop, res] {
        connect(&mut w, id);
        assert!(w.colony.buildings[&id].district.is_some());
    }
    // The chronometer: a time range wrapping past midnight, working hours.
    w.automation_configure(chrono, "startTime", "22").unwrap();
    w.automation_configure(chrono, "endTime", "2").unwrap();
    let mut on_hours = 0;
    for _ in 0..24 {
        w.advance_ticks(HOUR);
        let h = w.time().hour;
        assert_eq!(
            state(&w, chrono) == On,
            !(2.0..22.0).contains(&h),
            "hour {h}"
        );
        on_hours += u32::from(state(&w, chrono) == On);
    }
    assert_eq!(on_hours, 4);
    w.automation_configure(chrono, "mode", "WorkingHours")
        .unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, chrono) == On, w.are_working_hours());
    // The population counter: the district's beavers, then adults only, then bots only.
    let n = w.colony.beavers.len();
    w.automation_configure(pop, "threshold", &n.to_string())
        .unwrap();
    w.automation_configure(pop, "comparisonMode", "Equal")
        .unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, pop), On, "{n} beavers");
    w.automation_configure(pop, "mode", "Children").unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, pop), Off);
    w.automation_configure(pop, "countBeavers", "false")
        .unwrap();
    w.automation_configure(pop, "threshold", "0").unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, pop), On, "no bots, no children counted");
    // The resource counter: no good set is an error; then the district's logs.
    w.advance_ticks(1);
    assert_eq!(state(&w, res), Error);
    w.automation_configure(res, "goodId", "log").unwrap();
    let logs = w.colony_stock().get("Log").map_or(0, |(_, all)| *all);
    w.automation_configure(res, "threshold", &logs.to_string())
        .unwrap();
    w.automation_configure(res, "comparisonMode", "GreaterOrEqual")
        .unwrap();
    w.advance_ticks(1);
    let logs_now = w.colony_stock().get("Log").map_or(0, |(_, all)| *all);
    assert_eq!(state(&w, res), Signal::of(logs_now >= logs), "{logs} logs");
    // Fill rate needs storage for the good in the district.
    w.automation_configure(res, "mode", "FillRate").unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, res), Error, "no log pile yet");
    // A lever with spring return is On for one tick.
    w.automation_configure(lev, "springReturn", "true").unwrap();
    lever(&mut w, lev, true);
    w.advance_ticks(1);
    assert_eq!(state(&w, lev), On);
    w.advance_ticks(1);
    assert_eq!(state(&w, lev), Off);
}

#[test]
fn a_power_meter_reads_its_network() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 8, 3);
    let engine = build(&mut w, "GeothermalEngine.Folktails", x, y, z, "south");
    let meter = build(&mut w, "PowerMeter.Folktails", x + 3, y, z, "south");
    let drill = build(&mut w, "AquiferDrill.Folktails", x + 4, y, z, "south");
    w.advance_ticks(1);
    w.automation_configure(meter, "intThreshold", "399")
        .unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, meter), On, "400 hp > 399");
    w.automation_configure(meter, "mode", "Percent").unwrap();
    w.automation_configure(meter, "percentThreshold", "100")
        .unwrap();
    w.automation_configure(meter, "comparisonMode", "GreaterOrEqual")
        .unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, meter), On, "400 of 400: full load");
    w.set_paused(drill, true).unwrap();
    w.advance_ticks(2);
    assert_eq!(state(&w, meter), Off, "no load");
    // Cut off from the engine, the meter's own network has no supply.
    w.demolish_building(engine).unwrap();
    w.advance_ticks(1);
    w.automation_configure(meter, "mode", "Power").unwrap();
    w.automation_configure(meter, "intThreshold", "0").unwrap();
    w.automation_configure(meter, "comparisonMode", "Greater")
        .unwrap();
    w.advance_ticks(1);
    assert_eq!(state(&w, meter), Off);
}

#[test]
fn cycles_resolve_deterministically() {
    let mut w = world();
    let ids = devices(
        &mut w,
        &["Relay.Folktails", "Relay.Folktails", "Relay.Folktails"],
    );
    for r in &ids {
        w.automation_configure(*r, "mode", "Not").unwrap();
    }
    for i in 0..3 {
        w.automation_link(ids[i], ids[(i + 1) % 3], None).unwrap();
    }
    let mut seen = Vec::new();
    for _ in 0..6 {
        w.advance_ticks(1);
        seen.push(ids.iter().map(|r| state(&w, *r)).collect::<Vec<_>>());
    }
    // A ring of three inverters never settles, and runs the same way every time.
    assert!(seen.windows(2).all(|p| p[0] != p[1]), "{seen:?}");
    let mut again = world();
    let ids2 = devices(
        &mut again,
        &["Relay.Folktails", "Relay.Folktails", "Relay.Folktails"],
    );
    assert_eq!(ids, ids2);
    for r in &ids {
        again.automation_configure(*r, "mode", "Not").unwrap();
    }
    for i in 0..3 {
        again
            .automation_link(ids[i], ids[(i + 1) % 3], None)
            .unwrap();
    }
    again.advance_ticks(6);
    assert_eq!(
        ids.iter().map(|r| state(&again, *r)).collect::<Vec<_>>(),
        seen[5]
    );
    assert_eq!(Device::Relay.name(), "Relay");
}

/// Depth at a tile, sampled every tick for `ticks`: (min, max, mean).
fn depth_over(w: &mut World, x: u32, y: u32, ticks: u64) -> (f64, f64, f64) {
    let (mut lo, mut hi, mut sum) = (f64::MAX, f64::MIN, 0.0);
    for _ in 0..ticks {
        w.advance_ticks(1);
        let d = f64::from(w.water_depth(x, y));
        lo = lo.min(d);
        hi = hi.max(d);
        sum += d;
    }
    (lo, hi, sum / ticks as f64)
}

#[test]
fn a_depth_sensor_through_a_relay_holds_a_reservoir_level_with_a_floodgate() {
    let mut w = world();
    w.advance_ticks(2 * DAY);
    w.add_science(10_000);
    for p in [
        "Levee.Folktails",
        "Floodgate.Folktails",
        "DepthSensor.Folktails",
        "Relay.Folktails",
    ] {
        w.unlock(p).unwrap();
    }
    // A row across the river near the colony, from land of height 4 to land of height 4.
    let (sx, sy, _) = w.map.start_spot();
    let mut crossing = None;
    'rows: for y in sy - 12..(sy + 12).min(w.map.height() - 9) {
        let wet: Vec<u32> = (sx.saturating_sub(30)..sx + 6)
            .filter(|x| w.water_depth(*x, y) > 0.05)
            .collect();
        let (Some(&(mut x0)), Some(&(mut x1))) = (wet.first(), wet.last()) else {
            continue;
        };
        if wet.len() as u32 != x1 - x0 + 1 {
            continue;
        }
        // The dry bank tiles beside the water belong to the crossing too.
        while x0 > 1 && w.map.terrain_height(x0 - 1, y) < 4 {
            x0 -= 1;
        }
        while w.map.terrain_height(x1 + 1, y) < 4 {
            x1 += 1;
        }
        if x1 - x0 + 1 > 12
            || w.map.terrain_height(x0 - 1, y) < 4
            || w.map.terrain_height(x1 + 1, y) < 4
        {
            continue;
        }
        let f = w.water_flow((x0 + x1) / 2, y);
        if f.y.abs() < 0.05 {
            continue;
        }
        crossing = Some((x0, x1, y, if f.y > 0.0 { 1i64 } else { -1 }));
        break 'rows;
    }
    let (x0, x1, y, dir) = crossing.expect("a river crossing");
    // A dam up to the banks' height (levees stacked on the bed), with floodgates on the first
    // layer across the bed: shut, they hold the water to the banks; open, it spills a block
    // lower.
    let bed = (x0..=x1).map(|x| w.map.terrain_height(x, y)).min().unwrap();
    let mut gates = Vec::new();
    for x in x0..=x1 {
        let mut h = u32::from(w.map.terrain_height(x, y));
        while h < 3 {
            build(&mut w, "Levee.Folktails", x, y, h, "south");
            h += 1;
        }
        if u32::from(w.map.terrain_height(x, y)) == u32::from(bed) {
            gates.push(build(&mut w, "Floodgate.Folktails", x, y, h, "south"));
        } else {
            build(&mut w, "Levee.Folktails", x, y, h, "south");
        }
    }
    // The sensor three tiles upstream, on the bed.
    let up = (i64::from(y) - 8 * dir) as u32;
    let sxp = (x0..=x1)
        .find(|x| w.map.terrain_height(*x, up) == bed && w.water_depth(*x, up) > 0.3)
        .expect("a bed tile upstream");
    let sensor = build(
        &mut w,
        "DepthSensor.Folktails",
        sxp,
        up,
        bed.into(),
        "south",
    );
    // How high the water stands with the gates shut and open.
    for g in &gates {
        w.set_floodgate(*g, 1.0).unwrap();
    }
    w.advance_ticks(DAY / 2);
    let (_, _, closed) = depth_over(&mut w, sxp, up, 2 * HOUR);
    for g in &gates {
        w.set_floodgate(*g, 0.0).unwrap();
    }
    w.advance_ticks(DAY / 2);
    let (_, _, open) = depth_over(&mut w, sxp, up, 2 * HOUR);
    assert!(closed > open + 0.2, "closed {closed} open {open}");
    // Hold the midpoint: above it the sensor is On, the relay (Not) Off, and the gates open.
    let target = (closed + open) / 2.0;
    w.automation_configure(sensor, "threshold", &target.to_string())
        .unwrap();
    w.automation_configure(sensor, "mode", "Greater").unwrap();
    let relay = devices(&mut w, &["Relay.Folktails"])[0];
    w.automation_configure(relay, "mode", "Not").unwrap();
    w.automation_link(sensor, relay, None).unwrap();
    for g in &gates {
        w.automation_link(relay, *g, None).unwrap();
    }
    w.advance_ticks(DAY / 2);
    // A day under automation: the gates open and shut, and every quarter of the day the level
    // stays between the gates-open and gates-shut levels, around the target (the water model's
    // surges make it swing a few tenths either side of it).
    let mut heights = BTreeSet::new();
    let span = closed - open;
    for quarter in 0..4 {
        let mut sum = 0.0;
        for _ in 0..DAY / 4 {
            w.advance_ticks(1);
            sum += f64::from(w.water_depth(sxp, up));
            heights.insert((w.colony.buildings[&gates[0]].floodgate_height * 10.0) as i32);
        }
        let mean = sum / (DAY / 4) as f64;
        assert!(
            mean > open + 0.15 * span && mean < closed - 0.15 * span,
            "quarter {quarter}: mean {mean:.3}, open {open:.3}, shut {closed:.3}"
        );
        assert!(
            (mean - target).abs() < 0.35 * span,
            "quarter {quarter}: {mean:.3} vs {target:.3}"
        );
    }
    assert_eq!(
        heights,
        BTreeSet::from([0, 10]),
        "the gates moved both ways"
    );
    assert_eq!(w.automation_state(gates[0]), w.automation_state(relay));
}

//! Scenario tests of power through the world's commands, on fixed seeds. Buildings are finished
//! directly (`finish_building`) where construction is not what a test is about.

use std::collections::BTreeSet;

use crate::colony::building::{Building, spec};
use crate::colony::geometry::{Orientation, doorstep, footprint, voxel};
use crate::config::NewGame;
use crate::error::ErrorCode;
use crate::event::names;
use crate::weather::HazardKind;
use crate::world::World;

use crate::testutil::{DAY, HOUR, build, events_named, flat_area, flat_area_at, path_route, world};

/// The placement spots of a prefab in an area (`POST /api/placement/find`).
fn spots_in(
    w: &mut World,
    prefab: &str,
    x1: u32,
    y1: u32,
    x2: u32,
    y2: u32,
) -> Vec<crate::colony::PlacementSpot> {
    w.find_placements(prefab, x1.into(), y1.into(), x2.into(), y2.into())
        .unwrap()
        .3
}

fn net_of(w: &World, id: i32) -> crate::power::PowerNetworkView {
    w.power_networks()
        .into_iter()
        .find(|n| n.buildings.iter().any(|b| b.id == id))
        .unwrap_or_else(|| panic!("building {id} is in no network"))
}

#[test]
fn a_building_with_no_power_chain_is_its_own_network_with_supply_0() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 3, 2);
    let mill = build(&mut w, "LumberMill.Folktails", x, y, z, "south");
    w.advance_ticks(1);
    let net = net_of(&w, mill);
    assert_eq!((net.id, net.supply, net.demand), (mill, 0.0, 0.0));
    // The district center passes power on, so it is a network of its own too.
    let dc = *w.colony.districts.keys().next().unwrap();
    assert_eq!(net_of(&w, dc).buildings.len(), 1);
    assert_eq!(net.buildings.len(), 1);
    assert_eq!(
        (
            net.buildings[0].nominal_input,
            net.buildings[0].is_generator
        ),
        (50, false)
    );
    let st = w.power_state(mill).unwrap();
    assert!(!st.powered && st.is_consumer && !st.is_generator);
    assert_eq!(st.network_id, Some(mill));
    assert!(!w.is_powered(mill));
    assert_eq!(w.manufactory_blocker(mill), Some("unpowered"));
    let v = w.building_view(mill).unwrap();
    assert_eq!(
        (v.powered, v.is_consumer, v.nominal_power_input),
        (Some(false), Some(true), Some(50))
    );
    assert_eq!((v.power_supply, v.is_clutch), (Some(0), Some(false)));
    assert!(v.statuses.contains(&"unpowered".to_owned()));
    // Buildings outside the power system have no power fields.
    let path = w.place_building("Path", x.into(), (y + 3).into(), z.into(), "south");
    if let Ok(p) = path {
        assert!(w.power_state(p).is_none());
        assert_eq!(w.building_view(p).unwrap().powered, None);
    }
    // A construction site is in no network.
    let (x2, y2, z2) = flat_area(&mut w, 3, 2);
    let site = w
        .place_building(
            "LumberMill.Folktails",
            x2.into(),
            y2.into(),
            z2.into(),
            "south",
        )
        .unwrap();
    w.advance_ticks(1);
    assert_eq!(w.power_state(site).unwrap().network_id, None);
    assert!(
        !w.power_networks()
            .iter()
            .any(|n| n.buildings.iter().any(|b| b.id == site))
    );
}

#[test]
fn two_networks_joined_by_a_shaft_share_supply() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 10, 3);
    let engine = build(&mut w, "GeothermalEngine.Folktails", x, y, z, "south");
    let drill = build(&mut w, "AquiferDrill.Folktails", x + 4, y, z, "south");
    w.advance_ticks(1);
    let created = events_named(&mut w, names::POWER_NETWORK_CREATED);
    assert!(created.iter().any(|d| d["id"] == engine));
    assert!(
        created
            .iter()
            .any(|d| d["id"] == drill && d["demand"] == 400.0)
    );
    assert_ne!(net_of(&w, engine).id, net_of(&w, drill).id);
    assert_eq!(net_of(&w, engine).supply, 400.0);
    assert_eq!(net_of(&w, drill).supply, 0.0);
    assert!(!w.power_state(drill).unwrap().powered);
    assert!(w.building_statuses(drill).contains(&"unpowered".to_owned()));

    // A shaft in the gap joins them; read models see it before the next tick.
    let shaft = build(&mut w, "PowerShaft.Folktails", x + 3, y, z, "south");
    let joined = engine.min(drill).min(shaft);
    let st = w.power_state(drill).unwrap();
    assert_eq!((st.network_id, st.powered), (Some(joined), true));
    w.advance_ticks(1);
    let net = net_of(&w, drill);
    assert_eq!((net.id, net.supply, net.demand), (joined, 400.0, 400.0));
    let ids: Vec<i32> = net.buildings.iter().map(|b| b.id).collect();
    let mut expect = vec![engine, drill, shaft];
    expect.sort();
    assert_eq!(ids, expect);
    assert_eq!(w.power_efficiency(drill), 1.0);
    assert!(w.building_statuses(drill).is_empty());
    let v = w.building_view(drill).unwrap();
    assert_eq!(
        (v.powered, v.power_supply, v.power_demand),
        (Some(true), Some(400), Some(400))
    );
    // Three networks became one: the two whose ids lost are removed.
    let removed: BTreeSet<i64> = events_named(&mut w, names::POWER_NETWORK_REMOVED)
        .iter()
        .map(|d| d["id"].as_i64().unwrap())
        .collect();
    let lost: BTreeSet<i64> = [engine, drill]
        .into_iter()
        .filter(|i| *i != joined)
        .map(i64::from)
        .collect();
    assert_eq!(removed, lost);

    // A second drill on the same network: 400 hp for 800 asked, both at half speed.
    let drill2 = build(&mut w, "AquiferDrill.Folktails", x + 7, y, z, "south");
    w.advance_ticks(1);
    let net = net_of(&w, drill2);
    assert_eq!((net.supply, net.demand), (400.0, 800.0));
    assert_eq!(w.power_efficiency(drill), 0.5);
    assert!(w.is_powered(drill2));
    assert!(
        w.building_statuses(drill2)
            .contains(&"underpowered".to_owned())
    );
    // Pausing one leaves the other fully powered.
    w.set_paused(drill2, true).unwrap();
    w.advance_ticks(1);
    assert_eq!(net_of(&w, drill).demand, 400.0);
    assert_eq!(w.power_efficiency(drill), 1.0);

    // Demolishing the shaft splits the network again.
    w.events.take();
    w.demolish_building(shaft).unwrap();
    w.advance_ticks(1);
    assert_eq!(net_of(&w, drill).id, drill.min(drill2));
    assert_eq!(net_of(&w, drill).supply, 0.0);
    assert_eq!(net_of(&w, engine).id, engine);
    let created = events_named(&mut w, names::POWER_NETWORK_CREATED);
    assert!(!created.is_empty());
}

#[test]
fn a_clutch_cuts_a_network_and_a_battery_bridges_the_gap() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 8, 3);
    let engine = build(&mut w, "GeothermalEngine.Folktails", x, y, z, "south");
    let clutch = build(&mut w, "Clutch.Folktails", x + 3, y, z, "south");
    let battery = build(&mut w, "GravityBattery.Folktails", x + 4, y, z, "south");
    let drill = build(&mut w, "AquiferDrill.Folktails", x + 5, y, z, "south");
    w.advance_ticks(1);
    let all = engine.min(clutch).min(battery).min(drill);
    assert_eq!(net_of(&w, drill).id, all);
    let v = w.building_view(clutch).unwrap();
    assert_eq!((v.is_clutch, v.clutch_engaged), (Some(true), Some(true)));

    // Errors: not a clutch, no such building; nothing changes.
    let e = w.set_clutch(drill, false).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidType);
    let e = w.set_clutch(-5, false).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotFound);
    assert_eq!(net_of(&w, drill).id, all);

    // Paused, the drill asks nothing: the surplus charges the battery.
    w.set_paused(drill, true).unwrap();
    w.advance_ticks(2 * HOUR);
    let charge = w.colony.power.charge[&battery];
    assert!((charge - 800.0).abs() < 1e-6, "{charge}");
    assert_eq!(net_of(&w, battery).stored, 800.0);
    assert_eq!(net_of(&w, battery).capacity, 4000.0);

    // Disengaged, the clutch cuts the drill off the engine: the battery runs it for 2 hours.
    let c = w.set_clutch(clutch, false).unwrap();
    assert_eq!((c.id, c.engaged), (clutch, false));
    w.set_paused(drill, false).unwrap();
    w.advance_ticks(1);
    let net = net_of(&w, drill);
    assert_eq!(
        (net.id, net.supply, net.demand),
        (battery.min(drill), 0.0, 400.0)
    );
    assert_eq!(
        net_of(&w, clutch).buildings.len(),
        1,
        "a cut clutch stands alone"
    );
    assert_eq!(net_of(&w, engine).buildings.len(), 1);
    assert!(w.is_powered(drill));
    assert_eq!(w.power_efficiency(drill), 1.0);
    assert_eq!(w.building_view(clutch).unwrap().clutch_engaged, Some(false));
    w.advance_ticks(2 * HOUR - 2);
    assert!(w.is_powered(drill), "still running on the battery");
    w.advance_ticks(2);
    assert!(!w.colony.power.charge.contains_key(&battery));
    assert!(!w.is_powered(drill));
    assert!(w.building_statuses(drill).contains(&"unpowered".to_owned()));

    // Engaged again, the engine powers it.
    w.set_clutch(clutch, true).unwrap();
    w.advance_ticks(1);
    assert_eq!(net_of(&w, drill).id, all);
    assert!(w.is_powered(drill));

    // Battery charge and clutch settings survive a save and load.
    w.set_paused(drill, true).unwrap();
    w.advance_ticks(HOUR);
    w.set_clutch(clutch, false).unwrap();
    let bytes = w.save_to_bytes();
    let mut l = World::load_from_bytes(&bytes).unwrap();
    assert_eq!(l.state_hash(), w.state_hash());
    assert_eq!(l.colony.power.charge, w.colony.power.charge);
    assert_eq!(l.power_networks(), w.power_networks());
    w.take_events();
    w.advance_ticks(HOUR);
    l.advance_ticks(HOUR);
    assert_eq!(l.state_hash(), w.state_hash());
    assert_eq!(l.take_events(), w.take_events());
}

#[test]
fn engines_burn_fuel_only_while_their_network_has_demand() {
    let mut w = World::new(&NewGame {
        faction: crate::config::Faction::IronTeeth,
        ..NewGame::default()
    });
    w.weather.temperate_days = 100;
    let (x, y, z) = flat_area(&mut w, 7, 3);
    let engine = build(&mut w, "SteamEngine.IronTeeth", x, y, z, "south");
    let drill = build(&mut w, "AquiferDrill.IronTeeth", x + 3, y, z, "south");
    w.set_paused(drill, true).unwrap();
    w.colony.buildings.get_mut(&engine).unwrap().add("Log", 2);
    w.advance_ticks(HOUR);
    assert_eq!(net_of(&w, engine).supply, 0.0, "idle without demand");
    assert_eq!(w.colony.buildings[&engine].has("Log"), 2);
    w.set_paused(drill, false).unwrap();
    w.advance_ticks(1);
    assert_eq!(net_of(&w, engine).supply, 400.0);
    assert_eq!(
        w.colony.buildings[&engine].has("Log"),
        1,
        "a log on the fire"
    );
    assert!(w.is_powered(drill));
    // 0.2 logs an hour: two logs last 10 hours.
    w.advance_ticks(10 * HOUR - 2);
    assert!(w.is_powered(drill));
    w.advance_ticks(2);
    assert!(!w.is_powered(drill));
    assert_eq!(w.colony.buildings[&engine].has("Log"), 0);
    // Haulers are asked to keep it fuelled.
    let wants = crate::power::fuel_want(&w.colony.buildings[&engine]);
    assert_eq!(wants, Some(("Log".to_owned(), 10)));
}

/// The colony's planks: in buildings and in beavers' paws.
fn planks(w: &World) -> u32 {
    w.colony
        .buildings
        .values()
        .map(|b| b.has("Plank"))
        .sum::<u32>()
        + w.colony
            .beavers
            .values()
            .filter_map(|b| b.carrying.as_ref())
            .filter(|(g, _)| g == "Plank")
            .map(|(_, n)| *n)
            .sum::<u32>()
}

#[test]
fn a_water_wheel_on_the_river_powers_a_lumber_mill_until_a_drought_stops_the_flow() {
    let mut w = world();
    // The generated river starts at rest and runs steadily after about a day.
    w.advance_ticks(2 * DAY);
    // The wheel where the river runs strongest near the colony. The river's edge is a strip of
    // shallow water one block above its bed, so the wheel reaches the bank through a vertical
    // shaft standing in that water with a shaft on top at the bank's height, and the mill
    // stands on the bank beside the shaft.
    let (sx, sy, _) = w.map.start_spot();
    let dc = *w.colony.districts.keys().next().unwrap();
    let mut wheels = Vec::new();
    for y in sy.saturating_sub(30)..(sy + 30).min(w.map.height()) {
        for x in sx.saturating_sub(30)..(sx + 30).min(w.map.width()) {
            let z = u32::from(w.map.terrain_height(x, y));
            for o in [Orientation::South, Orientation::West] {
                if w.water_depth(x, y) < 0.5
                    || w.check_placement("WaterWheel.Folktails", x.into(), y.into(), z.into(), o)
                        .is_err()
                {
                    continue;
                }
                let q = w.flow_through(&Building::new("WaterWheel.Folktails", x, y, z, o));
                wheels.push((q, x, y, z, o));
            }
        }
    }
    wheels.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut found = None;
    'search: for &(q, x, y, z, o) in &wheels {
        let tiles = footprint(spec("WaterWheel.Folktails"), x.into(), y.into(), o);
        let beside: BTreeSet<(i64, i64)> = tiles
            .iter()
            .flat_map(|(a, b)| [(a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)])
            .filter(|t| !tiles.contains(t) && w.map.contains(t.0, t.1))
            .collect();
        for (tx, ty) in beside {
            if w.map.terrain_height(tx as u32, ty as u32) != 3 {
                continue;
            }
            let ms = spec("LumberMill.Folktails");
            for my in ty - 3..=ty + 3 {
                for mx in tx - 3..=tx + 3 {
                    for mo in Orientation::ALL {
                        let mt = footprint(ms, mx, my, mo);
                        let touches = mt.iter().any(|(a, b)| (a - tx).abs() + (b - ty).abs() == 1);
                        let Some(door) = doorstep(ms, mx, my, mo) else {
                            continue;
                        };
                        if !touches
                            || mt.contains(&(tx, ty))
                            || door == (tx, ty)
                            || tiles.contains(&door)
                            || mt.iter().any(|t| tiles.contains(&t))
                        {
                            continue;
                        }
                        let mut t = w.clone();
                        let ok = t
                            .place_building(
                                "WaterWheel.Folktails",
                                x.into(),
                                y.into(),
                                z.into(),
                                o.as_str(),
                            )
                            .and_then(|_| {
                                t.place_building("VerticalPowerShaft.Folktails", tx, ty, 3, "south")
                                    .map(|_| ())
                                    .or_else(|_| {
                                        t.add_science(40);
                                        t.unlock("VerticalPowerShaft.Folktails")?;
                                        t.place_building(
                                            "VerticalPowerShaft.Folktails",
                                            tx,
                                            ty,
                                            3,
                                            "south",
                                        )
                                        .map(|_| ())
                                    })
                            })
                            .and_then(|_| {
                                t.place_building("PowerShaft.Folktails", tx, ty, 4, "south")
                            })
                            .and_then(|_| {
                                t.place_building("LumberMill.Folktails", mx, my, 4, mo.as_str())
                            })
                            .is_ok();
                        let dc_door = t.colony.door(dc).unwrap();
                        if ok
                            && path_route(
                                &t,
                                (dc_door[0], dc_door[1]),
                                (door.0 as u32, door.1 as u32),
                                4,
                            )
                            .is_some()
                        {
                            found = Some((
                                q,
                                (x, y, z, o),
                                (tx as u32, ty as u32),
                                (mx as u32, my as u32, mo),
                            ));
                            break 'search;
                        }
                    }
                }
            }
        }
    }
    let (q, (x, y, z, o), (tx, ty), (mx, my, mo)) =
        found.expect("a wheel spot with a mill on the bank beside it");
    assert!(q > 0.37, "flow {q} m3/s: enough for the mill's 50 hp");
    let dc_door = w.colony.door(dc).unwrap();
    let wheel = build(&mut w, "WaterWheel.Folktails", x, y, z, o.as_str());
    let vshaft = build(&mut w, "VerticalPowerShaft.Folktails", tx, ty, 3, "south");
    let shaft = build(&mut w, "PowerShaft.Folktails", tx, ty, 4, "south");
    let mill = build(&mut w, "LumberMill.Folktails", mx, my, 4, mo.as_str());
    let door = w.colony.door(mill).unwrap();
    let route = path_route(&w, (dc_door[0], dc_door[1]), (door[0], door[1]), 4)
        .expect("a path from the district center to the mill");
    for (px, py) in route {
        if [px, py, 4] != dc_door {
            w.place_building("Path", px.into(), py.into(), 4, "south")
                .unwrap();
        }
    }
    assert!(w.building_view(mill).unwrap().reachable);
    w.colony.buildings.get_mut(&mill).unwrap().add("Log", 10);
    w.advance_ticks(1);
    let added = events_named(&mut w, names::POWER_GENERATOR_ADDED);
    assert_eq!(added.len(), 1);
    assert_eq!(added[0]["id"], wheel);
    let st = w.power_state(wheel).unwrap();
    let expect = 135.0 * q.min(1.0);
    assert!(
        (st.output - expect).abs() < 15.0,
        "{} vs {expect}",
        st.output
    );
    assert_eq!(st.network_id, w.power_state(mill).unwrap().network_id);
    let members: Vec<i32> = net_of(&w, mill).buildings.iter().map(|b| b.id).collect();
    for id in [wheel, vshaft, shaft, mill] {
        assert!(members.contains(&id), "{members:?}");
    }
    assert!(w.is_powered(mill));

    // A worker comes, the mill runs at full power and makes planks.
    let before = planks(&w);
    w.advance_ticks(DAY);
    assert_eq!(w.colony.buildings[&mill].workers.len(), 1);
    let made = planks(&w) - before;
    assert!(made >= 2, "made {made} planks");
    assert!(w.colony.buildings[&mill].has("Log") < 10);
    // The hourly history records the mill as powered by water while it works.
    assert!(
        w.history()
            .rows
            .iter()
            .any(|r| r.water_powered.get("LumberMill") == Some(&1)),
        "waterPowered names the mill"
    );

    // A drought: the river stops, the wheel stands still, the mill stops.
    w.weather.temperate_days = w.day() + 1 - w.weather.start_day;
    w.weather.hazard = HazardKind::Drought;
    w.weather.hazardous_days = 20;
    w.take_events();
    let mut stopped_at = None;
    for day in 0..12 {
        w.advance_ticks(DAY);
        if w.power_state(wheel).unwrap().output == 0.0 {
            stopped_at = Some(day);
            break;
        }
    }
    assert!(w.weather().is_hazardous);
    let stopped = stopped_at.expect("the drought stops the wheel");
    let updates = events_named(&mut w, names::POWER_GENERATOR_UPDATED);
    assert!(
        updates
            .iter()
            .any(|d| d["id"] == wheel && d["output"] == 0.0)
    );
    // Topped up with logs so only power can stop it.
    w.colony.buildings.get_mut(&mill).unwrap().add("Log", 10);
    let logs = w.colony.buildings[&mill].has("Log");
    let before = planks(&w);
    w.advance_ticks(DAY);
    assert_eq!(w.power_state(wheel).unwrap().output, 0.0, "day {stopped}");
    assert!(!w.is_powered(mill));
    assert_eq!(w.manufactory_blocker(mill), Some("unpowered"));
    assert!(w.building_statuses(mill).contains(&"unpowered".to_owned()));
    assert!(w.colony.buildings[&mill].has("Log") >= logs - 1);
    assert!(
        planks(&w) <= before + 1,
        "at most a cycle under way finishes"
    );
}

#[test]
fn wind_turbines_follow_the_wind_above_their_minimum() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 7, 3);
    let turbine = build(&mut w, "WindTurbine.Folktails", x, y, z, "south");
    let large = build(&mut w, "LargeWindTurbine.Folktails", x + 4, y, z, "south");
    let calm = |w: &mut World, s: f64| {
        w.land.wind.strength = s;
        w.land.wind.target_strength = s;
        w.land.wind.hours_left = 1000;
    };
    calm(&mut w, 0.5);
    w.advance_ticks(1);
    assert_eq!(w.power_state(turbine).unwrap().output, 34.0);
    assert_eq!(w.power_state(large).unwrap().output, 72.0);
    let added = events_named(&mut w, names::POWER_GENERATOR_ADDED);
    assert_eq!(added.len(), 2);
    // Separate networks (a gap between them).
    assert_eq!(net_of(&w, turbine).supply, 34.0);
    // Below 0.3 the small turbine stops; the large one turns down to 0.2.
    calm(&mut w, 0.25);
    w.advance_ticks(1);
    assert_eq!(w.power_state(turbine).unwrap().output, 0.0);
    assert_eq!(w.power_state(large).unwrap().output, 36.0);
    let updated = events_named(&mut w, names::POWER_GENERATOR_UPDATED);
    assert_eq!(updated.len(), 2, "{updated:?}");
    let small = updated.iter().find(|d| d["id"] == turbine).unwrap();
    assert_eq!(
        (&small["output"], &small["previous"]),
        (&0.0.into(), &34.0.into())
    );
    // A small change (under 10% of nominal) is not announced.
    calm(&mut w, 0.27);
    w.advance_ticks(1);
    assert_eq!(w.power_state(large).unwrap().output, 38.88);
    assert!(events_named(&mut w, names::POWER_GENERATOR_UPDATED).is_empty());
}

#[test]
fn placements_beside_a_powered_network_are_near_power() {
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 9, 7);
    let engine = build(
        &mut w,
        "GeothermalEngine.Folktails",
        x + 3,
        y + 2,
        z,
        "south",
    );
    w.advance_ticks(1);
    let spots = spots_in(&mut w, "PowerShaft.Folktails", x + 1, y, x + 7, y + 6);
    assert!(!spots.is_empty());
    let touches = |sx: u32, sy: u32| {
        (x + 3..x + 6).contains(&sx) && (sy + 1 == y + 2 || sy == y + 5)
            || (y + 2..y + 5).contains(&sy) && (sx + 1 == x + 3 || sx == x + 6)
    };
    for s in &spots {
        assert_eq!(s.near_power, u8::from(touches(s.x, s.y)), "{s:?}");
    }
    // Near power sorts first among spots equal on the earlier keys (reachability and distance
    // come first: a doorless shaft is reached from the district's paths within builders' reach).
    for pair in spots.windows(2) {
        let key = |s: &crate::colony::PlacementSpot| {
            (s.flooded, s.reachable, s.distance.to_bits(), s.path_access)
        };
        if key(&pair[0]) == key(&pair[1]) {
            assert!(
                pair[0].near_power >= pair[1].near_power,
                "near power sorts first among equals: {pair:?}"
            );
        }
    }
    // A pile is not a power building: never near power (a lodge would be: housing passes
    // power on in the game).
    let spots = spots_in(&mut w, "SmallPile.Folktails", x, y, x + 8, y + 6);
    assert!(!spots.is_empty() && spots.iter().all(|s| s.near_power == 0));
    let spots = spots_in(&mut w, "Lodge.Folktails", x, y, x + 8, y + 6);
    assert!(spots.iter().any(|s| s.near_power == 1));
    // A network without power to give is not "power".
    w.demolish_building(engine).unwrap();
    let drill = build(&mut w, "AquiferDrill.Folktails", x + 3, y + 2, z, "south");
    w.advance_ticks(1);
    assert_eq!(net_of(&w, drill).supply, 0.0);
    let spots = spots_in(&mut w, "PowerShaft.Folktails", x + 1, y, x + 7, y + 6);
    assert!(spots.iter().all(|s| s.near_power == 0));
}

#[test]
fn a_power_wheel_turns_while_a_beaver_works_it() {
    let mut w = world();
    let dc_z = w.map.start_spot().2 as u8;
    let (x, y, z) = flat_area_at(&mut w, 6, 4, Some(dc_z));
    let wheel = build(&mut w, "PowerWheel.Folktails", x, y + 1, z, "south");
    let mill = build(&mut w, "LumberMill.Folktails", x + 3, y + 1, z, "south");
    let dc = *w.colony.districts.keys().next().unwrap();
    let dc_door = w.colony.door(dc).unwrap();
    assert_eq!(
        dc_door[2], z,
        "the test area is on the district center's level"
    );
    for b in [wheel, mill] {
        let door = w.colony.door(b).unwrap();
        let route = path_route(&w, (dc_door[0], dc_door[1]), (door[0], door[1]), z)
            .expect("a path to the workplace");
        for (px, py) in route {
            if [px, py, z] != dc_door && !w.colony.blocks.contains_key(&voxel(px, py, z)) {
                w.place_building("Path", px.into(), py.into(), z.into(), "south")
                    .unwrap();
            }
        }
    }
    assert_eq!(net_of(&w, wheel).id, wheel.min(mill));
    let (mut turning, mut at_night) = (0u32, 0u32);
    for _ in 0..DAY {
        w.advance_ticks(1);
        let out = w.power_state(wheel).unwrap().output;
        if out > 0.0 {
            assert_eq!(out, 50.0);
            turning += 1;
            if !w.are_working_hours() {
                at_night += 1;
            }
        }
    }
    assert_eq!(w.colony.buildings[&wheel].workers.len(), 1);
    assert!(turning > 4 * HOUR as u32, "turned {turning} ticks");
    // Walked power is not water power: the history never names the mill as water-powered.
    assert!(
        w.history().rows.iter().all(|r| r.water_powered.is_empty()),
        "a power wheel is not a water wheel"
    );
    assert!(
        at_night <= HOUR as u32,
        "a shift may end after hours: {at_night}"
    );
}

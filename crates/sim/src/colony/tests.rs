//! Unit tests of the colony (scenario tests through the public commands live in
//! `crates/sim/tests/colony_scenarios.rs`); the bots' tests are in `bots`.

use crate::colony::building::Kind;
use crate::config::NewGame;
use crate::world::World;

mod bots;
mod demolish;
mod every_event;
mod naming;
mod water_buildings;
mod ways;

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

#[test]
fn building_status_alerts_come_and_go_as_events() {
    use crate::testutil::{HOUR, build, events_named, flat_area, world};
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 3, 3);
    let herbalist = build(&mut w, "Herbalist.Folktails", x, y, z, "south");
    let status = w
        .alerts()
        .into_iter()
        .find(|a| a.id == herbalist && a.kind == "status")
        .expect("a status alert for the idle herbalist")
        .status;
    w.take_events();
    w.advance_ticks(HOUR);
    let came = events_named(&mut w, crate::event::names::STATUS_DYNAMIC_ALERT);
    assert!(
        came.iter().any(|e| e["id"] == herbalist
            && e["status"] == status.as_str()
            && e["active"] == true
            && e["name"] == "Herbalist.Folktails"),
        "{came:?}"
    );
    // Nothing new: no event.
    w.advance_ticks(HOUR);
    assert!(
        !events_named(&mut w, crate::event::names::STATUS_DYNAMIC_ALERT)
            .iter()
            .any(|e| e["id"] == herbalist)
    );
    w.demolish_building(herbalist).unwrap();
    w.advance_ticks(HOUR);
    let gone = events_named(&mut w, crate::event::names::STATUS_DYNAMIC_ALERT);
    assert!(
        gone.iter()
            .any(|e| e["id"] == herbalist && e["active"] == false && e["x"] == x),
        "{gone:?}"
    );
}

#[test]
fn two_centers_on_one_network_split_it_by_distance() {
    use crate::colony::geometry::voxel;
    use crate::testutil::{build, flat_area, path_route, world};
    let mut w = world();
    let first = w.colony.centers()[0];
    let d1 = w.colony.door(first).unwrap();
    let (x, y, z) = flat_area(&mut w, 3, 4);
    let second = build(&mut w, "DistrictCenter.Folktails", x, y + 1, z, "south");
    let d2 = w.colony.door(second).unwrap();
    let route = path_route(&w, (d1[0], d1[1]), (d2[0], d2[1]), z).expect("a route");
    assert!(route.len() >= 6, "the centers stand apart: {}", route.len());
    for &(px, py) in &route {
        if !w.colony.blocks.contains_key(&voxel(px, py, z)) && (px, py) != (d2[0], d2[1]) {
            build(&mut w, "Path", px, py, z, "south");
        }
    }
    // One network, two districts: each path tile belongs to the nearer center.
    let near_first = route[1];
    let near_second = route[route.len() - 2];
    let district_of = |w: &mut World, (px, py): (u32, u32)| w.colony.district_at([px, py, z]);
    assert_eq!(district_of(&mut w, near_first), Some(first));
    assert_eq!(district_of(&mut w, near_second), Some(second));
    assert_eq!(w.colony.district_at(d2), Some(second));
}

#[test]
fn a_suspension_bridge_spans_a_gap_and_joins_both_sides() {
    use crate::colony::geometry::{Orientation, voxel};
    use crate::testutil::{build, world};
    let mut w = world();
    let t = |w: &World, x: u32, y: u32| u32::from(w.map.terrain_height(x, y));
    // A row crossing lower ground (the river's channel) between two tiles at one height that take
    // a path, at most six tiles apart, water in the gap.
    let mut found = None;
    'search: for y in 2..w.map.height() - 2 {
        for x0 in 2..w.map.width() - 10 {
            let h = t(&w, x0, y);
            for len in 2..=6u32 {
                let x1 = x0 + len + 1;
                let gap = (x0 + 1..x1).all(|x| t(&w, x, y) < h);
                let wet = (x0 + 1..x1).any(|x| w.water_depth(x, y) > 0.2);
                let ends_free = [x0, x1].iter().all(|&x| {
                    w.check_placement("Path", x.into(), y.into(), h.into(), Orientation::South)
                        .is_ok()
                });
                if t(&w, x1, y) == h && gap && wet && ends_free {
                    found = Some((x0, x1, y, h, len));
                    break 'search;
                }
            }
        }
    }
    let (x0, x1, y, h, len) = found.expect("a river crossing of at most six tiles");
    let prefab = format!("SuspensionBridge{len}x1.Folktails");
    w.add_science(crate::colony::building::spec(&prefab).science_cost);
    w.unlock(&prefab).unwrap();
    // Shifted one tile, one end hangs over the gap: refused, nothing placed.
    assert!(len > 1, "a gap of {len}");
    let err = w
        .check_placement(
            &prefab,
            i64::from(x0 + 2),
            y.into(),
            h.into(),
            Orientation::South,
        )
        .unwrap_err();
    assert_eq!(err.extras["reason"], "no_support", "{err:?}");
    build(&mut w, "Path", x0, y, h, "south");
    build(&mut w, "Path", x1, y, h, "south");
    let (a, b) = (voxel(x0, y, h), voxel(x1, y, h));
    assert_eq!(w.colony.nav().distance(a, b), None, "the banks are apart");
    let bridge = build(&mut w, &prefab, x0 + 1, y, h, "south");
    assert_eq!(w.colony.buildings[&bridge].kind(), Kind::Path);
    assert_eq!(
        w.colony.nav().distance(a, b),
        Some(len + 1),
        "the bridge joins them"
    );
}

#[test]
fn every_platform_holds_what_stands_on_it() {
    use crate::colony::geometry::Orientation;
    use crate::testutil::{build, flat_area, world};
    let mut w = world();
    for (prefab, high) in [
        ("Platform.Folktails", 1),
        ("DoublePlatform.Folktails", 2),
        ("TriplePlatform.Folktails", 3),
    ] {
        let (x, y, z) = flat_area(&mut w, 1, 1);
        let on_top = (i64::from(x), i64::from(y), i64::from(z + high));
        let p = w.check_placement("Path", on_top.0, on_top.1, on_top.2, Orientation::South);
        assert_eq!(p.unwrap_err().extras["reason"], "no_support", "{prefab}");
        let id = build(&mut w, prefab, x, y, z, "south");
        assert_eq!(w.colony.buildings[&id].kind(), Kind::Solid, "{prefab}");
        w.check_placement("Path", on_top.0, on_top.1, on_top.2, Orientation::South)
            .unwrap_or_else(|e| panic!("a path on {prefab}: {e:?}"));
    }
}

#[test]
fn a_badwater_rig_stands_on_a_badwater_source_and_caps_it() {
    use crate::colony::geometry::Orientation;
    use crate::testutil::{build, world};
    let mut w = world();
    let src = w
        .land
        .water
        .sources
        .iter()
        .find(|s| s.badwater)
        .cloned()
        .expect("the map has a badwater source");
    let prefab = "BadwaterRig.Folktails";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    let z = i64::from(w.map.terrain_height(src.x, src.y));
    // Away from the source: refused, naming it.
    let (fx, fy, _) = crate::testutil::flat_area(&mut w, 4, 4);
    let err = w
        .check_placement(prefab, fx.into(), fy.into(), z, Orientation::South)
        .unwrap_err();
    assert_eq!(err.extras["reason"], "terrain");
    assert!(
        err.detail.contains(&format!("({}, {})", src.x, src.y)),
        "{}",
        err.detail
    );
    // Over it: placed, and once finished the source is capped.
    let spot = (0..4i64)
        .flat_map(|dy| (0..4i64).map(move |dx| (dx, dy)))
        .find_map(|(dx, dy)| {
            let (x, y) = (i64::from(src.x) - dx, i64::from(src.y) - dy);
            w.check_placement(prefab, x, y, z, Orientation::South)
                .ok()
                .map(|_| (x as u32, y as u32))
        })
        .expect("a rig fits over the source");
    let rig = build(&mut w, prefab, spot.0, spot.1, z as u32, "south");
    let capped = |w: &World| {
        w.land
            .water
            .sources
            .iter()
            .find(|s| s.x == src.x && s.y == src.y)
            .unwrap()
            .capped
    };
    assert!(capped(&w));
    w.demolish_building(rig).unwrap();
    assert!(!capped(&w), "demolishing the rig uncaps the source");
}

#[test]
fn crops_near_a_beehive_grow_faster() {
    use crate::colony::geometry::Orientation;
    use crate::testutil::{DAY, build, world};
    let mut w = world();
    let (sx, sy, _) = w.map.start_spot();
    let (sx, sy) = (i64::from(sx), i64::from(sy));
    let spots = w
        .find_planting_spots("Carrot", sx - 40, sy - 40, sx + 40, sy + 40, None)
        .unwrap();
    let moist: Vec<(i64, i64, i64)> = spots
        .iter()
        .filter(|s| s.moist)
        .map(|s| (i64::from(s.x), i64::from(s.y), i64::from(s.z)))
        .collect();
    let prefab = "Beehive.Folktails";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    // A hive beside one moist tile, and a second moist tile at least 8 tiles from the hive.
    let (hive, near) = moist
        .iter()
        .find_map(|&(x, y, z)| {
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .find_map(|(dx, dy)| {
                    w.check_placement(prefab, x + dx, y + dy, z, Orientation::South)
                        .ok()
                        .map(|_| ((x + dx, y + dy, z), (x, y)))
                })
        })
        .expect("a hive spot beside moist soil");
    let far = *moist
        .iter()
        .find(|(x, y, _)| (x - hive.0).abs().max((y - hive.1).abs()) >= 8)
        .expect("moist soil away from the hive");
    build(
        &mut w,
        prefab,
        hive.0 as u32,
        hive.1 as u32,
        hive.2 as u32,
        "south",
    );
    let boosted = w.plant(near.0, near.1, "Carrot").unwrap();
    let plain = w.plant(far.0, far.1, "Carrot").unwrap();
    w.advance_ticks(2 * DAY);
    let growth = |w: &World, id| w.land.plants[&id].growth;
    let (a, b) = (growth(&w, boosted), growth(&w, plain));
    assert!(b > 0.0, "the far carrot grows");
    let ratio = f64::from(a) / f64::from(b);
    assert!(
        (ratio - 1.0 / 0.7).abs() < 0.05,
        "hive {a} vs plain {b}: {ratio}"
    );
}

#[test]
fn tubeways_are_four_times_as_fast_as_paths() {
    use crate::colony::geometry::voxel;
    use crate::testutil::{build, flat_area};
    let mut w = World::new(&NewGame {
        faction: crate::config::Faction::IronTeeth,
        ..NewGame::default()
    });
    let prefab = "Tubeway.IronTeeth";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    let (x, y, z) = flat_area(&mut w, 10, 3);
    // Two rows of ten: paths, and a path, eight tubeways, a path.
    for dx in 0..10 {
        build(&mut w, "Path", x + dx, y, z, "south");
        let row = if (1..9).contains(&dx) { prefab } else { "Path" };
        build(&mut w, row, x + dx, y + 2, z, "south");
    }
    let nav = w.colony.nav();
    let plain = nav.distance(voxel(x, y, z), voxel(x + 9, y, z));
    // 1 tile onto the tube, 7 tube steps at a quarter, 1 tile off: 3.75, rounded up.
    let tube = nav.distance(voxel(x, y + 2, z), voxel(x + 9, y + 2, z));
    assert_eq!((plain, tube), (Some(9), Some(4)));
}

#[test]
fn spiral_stairs_climb_a_level_from_any_side() {
    use crate::colony::geometry::voxel;
    use crate::testutil::{build, flat_area, world};
    let mut w = world();
    let prefab = "SpiralStairs.Folktails";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    let (x, y, z) = flat_area(&mut w, 5, 3);
    // Ground path, spiral stairs, then a platform with a path on top, one level up.
    build(&mut w, "Path", x, y + 1, z, "south");
    build(&mut w, prefab, x + 1, y + 1, z, "south");
    build(&mut w, "Platform.Folktails", x + 2, y + 1, z, "south");
    build(&mut w, "Path", x + 2, y + 1, z + 1, "south");
    // A second path beside the stairs at their own level, entered from the side.
    build(&mut w, "Path", x + 1, y, z, "south");
    let nav = w.colony.nav();
    let top = voxel(x + 2, y + 1, z + 1);
    assert_eq!(nav.distance(voxel(x, y + 1, z), top), Some(2));
    assert_eq!(nav.distance(voxel(x + 1, y, z), top), Some(2));
}

#[test]
fn placement_find_never_offers_a_spot_whose_doorstep_a_building_stands_on() {
    use crate::testutil::{build, flat_area, world};
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 8, 8);
    let area = (
        i64::from(x),
        i64::from(y),
        i64::from(x + 7),
        i64::from(y + 7),
    );
    let spots = |w: &mut World| {
        w.find_placements("Lodge.Folktails", area.0, area.1, area.2, area.3)
            .unwrap()
            .3
    };
    let first = spots(&mut w)[0].clone();
    // A gatherer flag on the best spot's doorstep: no spot with that doorstep is offered now.
    let (ex, ey) = (first.entrance_x as u32, first.entrance_y as u32);
    build(&mut w, "GathererFlag.Folktails", ex, ey, z, "south");
    let after = spots(&mut w);
    assert!(!after.is_empty());
    assert!(
        after
            .iter()
            .all(|s| (s.entrance_x, s.entrance_y) != (i64::from(ex), i64::from(ey))),
        "a spot behind the flag: {after:?}"
    );
}

#[test]
fn a_plant_in_the_way_says_how_that_kind_of_plant_is_cleared() {
    use crate::colony::geometry::Orientation;
    use crate::testutil::{flat_area, world};
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 3, 1);
    for (dx, species, how) in [
        (0, "Carrot", "POST /api/crop/demolish"),
        (1, "Pine", "POST /api/cutting/area"),
        (2, "BlueberryBush", "bushes stay"),
    ] {
        w.plant(i64::from(x + dx), i64::from(y), species).unwrap();
        let e = w
            .check_placement(
                "Path",
                i64::from(x + dx),
                i64::from(y),
                i64::from(z),
                Orientation::South,
            )
            .unwrap_err();
        assert_eq!(e.extras["reason"], "occupied", "{species}");
        assert!(e.detail.contains(how), "{species}: {}", e.detail);
    }
}

#[test]
fn every_storage_building_has_a_capacity_and_big_piles_hold_more_than_small_ones() {
    use crate::colony::building::storage_capacity;
    use crate::content::content;
    let cap = |name: &str| storage_capacity(&content().buildings[name]).unwrap().1;
    // IronTeeth's industrial piles hold what the Folktails piles of the same size hold.
    assert_eq!(
        cap("SmallIndustrialPile.IronTeeth"),
        cap("SmallPile.Folktails")
    );
    assert_eq!(
        cap("LargeIndustrialPile.IronTeeth"),
        cap("LargePile.Folktails")
    );
    assert!(cap("LargeIndustrialPile.IronTeeth") > cap("SmallIndustrialPile.IronTeeth"));
    // No storage building falls back to a default: each has its catalogue value or an estimate.
    let rules = &crate::colony::rules::colony_rules().colony;
    for b in content().buildings.values() {
        let Some(c) = b.capacity.as_ref() else {
            continue;
        };
        if c.get("kind").is_some() && c.get("units").and_then(|u| u.as_u64()).is_none() {
            assert!(
                rules
                    .storage_capacity_estimates
                    .value
                    .contains_key(&b.base_name),
                "{} has no capacity and no estimate",
                b.name
            );
        }
    }
}

#[test]
fn nothing_is_planted_under_a_building_or_a_path() {
    use crate::testutil::{build, flat_area, world};
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 4, 1);
    build(&mut w, "Path", x, y, z, "south");
    let (xi, yi, zi) = (i64::from(x), i64::from(y), i64::from(z));
    // Marking skips the path's tile.
    let (marked, skipped) = w.mark_planting(xi, yi, xi + 3, yi, zi, "Carrot").unwrap();
    assert_eq!((marked, skipped), (3, 1));
    // A building placed on a marked tile takes the mark away.
    build(&mut w, "GathererFlag.Folktails", x + 1, y, z, "south");
    let i = |dx: u32| w.land.idx(x + dx, y) as u32;
    assert!(
        !w.land.planting.contains_key(&i(1)),
        "no mark under the flag"
    );
    assert!(w.land.planting.contains_key(&i(2)) && w.land.planting.contains_key(&i(3)));
    assert!(
        w.events
            .take()
            .iter()
            .any(|e| e.name == crate::event::names::PLANTING_COORDS_UNSET),
        "the mark's removal is announced"
    );
}

#[test]
fn each_faction_plants_its_own_crops_and_trees() {
    use crate::error::ErrorCode;
    use crate::testutil::{flat_area, world};
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 2, 1);
    let (xi, yi, zi) = (i64::from(x), i64::from(y), i64::from(z));
    for other in ["Kohlrabi", "Mangrove", "CoffeeBush"] {
        let e = w.mark_planting(xi, yi, xi, yi, zi, other).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam, "{other}");
        assert!(
            e.detail.contains("IronTeeth") && e.detail.contains("Carrot"),
            "{other}: {}",
            e.detail
        );
        let valid = e.extras["valid"].as_array().unwrap();
        assert!(!valid.iter().any(|v| v == other), "{other} listed as valid");
    }
    for own in ["Carrot", "Pine", "Maple", "BlueberryBush"] {
        w.mark_planting(xi, yi, xi, yi, zi, own)
            .unwrap_or_else(|e| panic!("{own}: {e:?}"));
    }
    let mut it = World::new(&NewGame {
        faction: crate::config::Faction::IronTeeth,
        ..NewGame::default()
    });
    let (x, y, z) = flat_area(&mut it, 1, 1);
    let (xi, yi, zi) = (i64::from(x), i64::from(y), i64::from(z));
    let e = it.mark_planting(xi, yi, xi, yi, zi, "Carrot").unwrap_err();
    assert!(e.detail.contains("Folktails"), "{}", e.detail);
    it.mark_planting(xi, yi, xi, yi, zi, "Kohlrabi").unwrap();
    it.mark_planting(xi, yi, xi, yi, zi, "Mangrove").unwrap();
}

#[test]
fn alert_counts_and_plant_tallies_match_the_full_read_models() {
    use crate::testutil::{HOUR, build, flat_area, world};
    let mut w = world();
    let (x, y, z) = flat_area(&mut w, 3, 3);
    build(&mut w, "Herbalist.Folktails", x, y, z, "south");
    let (x, y, z) = flat_area(&mut w, 4, 4);
    build(&mut w, "LumberMill.Folktails", x, y, z, "south");
    w.advance_ticks(3 * HOUR);
    let count = |kind: &str| w.alerts().iter().filter(|a| a.kind == kind).count() as u32;
    let n = w.alert_counts();
    assert_eq!(
        (n.unstaffed, n.unpowered, n.unreachable),
        (count("unstaffed"), count("unpowered"), count("unreachable"))
    );
    assert!(
        n.unstaffed + n.unpowered + n.unreachable > 0,
        "the test world has alerts to count: {n:?}"
    );
    let trees = w.trees();
    let tallies = w.tree_tallies();
    for (name, t) in &tallies {
        let of = |grown: bool, marked: bool| {
            trees
                .iter()
                .filter(|p| p.alive && p.name == *name && p.grown == grown && p.marked == marked)
                .count() as u32
        };
        assert_eq!(
            (
                t.grown_marked,
                t.grown_unmarked,
                t.growing_marked,
                t.growing_unmarked
            ),
            (
                of(true, true),
                of(true, false),
                of(false, true),
                of(false, false)
            ),
            "{name}"
        );
    }
    let living = trees.iter().filter(|p| p.alive).count() as u32;
    let tallied: u32 = tallies
        .values()
        .map(|t| t.grown_marked + t.grown_unmarked + t.growing_marked + t.growing_unmarked)
        .sum();
    assert_eq!(tallied, living);
}

#[test]
fn skipping_the_beavers_scan_until_a_step_ends_changes_nothing() {
    // The beavers' tick scans every beaver only from the earliest tick a step can end
    // (`Colony::next_due`). A copy that scans on every tick, as before the bound, must reach
    // the very same world, also when plans are abandoned from outside the beavers' tick (a
    // workplace's workers sent away) and when a beaver is added: the bound must not make them
    // wait.
    let send_workers_away = |w: &mut World| {
        let staffed: Vec<i32> = w
            .colony
            .buildings
            .iter()
            .filter(|(_, b)| !b.workers.is_empty())
            .map(|(id, _)| *id)
            .collect();
        assert!(!staffed.is_empty(), "a workplace with workers");
        for id in staffed {
            w.set_workers(id, 0).expect("a workplace");
        }
    };
    let add_beaver = |w: &mut World| {
        let at = w.colony.beavers.values().next().expect("a beaver").to;
        w.spawn_beaver(at, false, 0.2, w.colony.centers().first().copied());
    };
    let mut bounded = crate::colony::fixtures::small_colony();
    let mut every = bounded.clone();
    let ticks = 3 * crate::ticks_per_day();
    let (away, added) = (ticks / 3 + 20, ticks / 2 + 20);
    let mut skipped = 0;
    for t in 0..ticks {
        for (at, disturb) in [
            (away, &send_workers_away as &dyn Fn(&mut World)),
            (added, &add_beaver),
        ] {
            if t == at {
                assert!(
                    bounded.ticks + 1 < bounded.colony.next_due,
                    "a scan to skip at {t}"
                );
                disturb(&mut bounded);
                disturb(&mut every);
            }
        }
        bounded.advance_ticks(1);
        // (The next tick runs at `ticks + 1`.)
        skipped += u32::from(every.ticks + 1 < every.colony.next_due);
        every.colony.next_due = 0;
        every.advance_ticks(1);
        // Right after each, where a late start would show before the night's long sleeps line
        // the beavers up again.
        if (away..away + 24).contains(&t) || (added..added + 24).contains(&t) {
            assert_eq!(bounded.state_hash(), every.state_hash(), "tick {t}");
        }
    }
    assert!(
        skipped > ticks as u32 / 2,
        "the bound skips most ticks' scans: {skipped} of {ticks}"
    );
    assert_eq!(bounded.colony.beavers.len(), 13);
    assert_eq!(bounded.state_hash(), every.state_hash());
}

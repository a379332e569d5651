//! Scenario tests of the fair-game rules, driven through the commands an agent has: placement
//! search that ranks the spots a path can join first, workers that go where the colony needs
//! them most and say why a place stands empty, and producers that say why they stall.

use crate::testutil::HOUR;
use crate::world::World;

/// The district center's doorstep.
fn dc_door(w: &World) -> [u32; 3] {
    let dc = w.colony.centers()[0];
    w.colony.door(dc).expect("a doorstep")
}

/// The world with stairs and platforms unlocked: on seed 1 the pumps' best spots lie a level
/// below the district center. (Without them `place_path` plans routes it then cannot lay, for
/// want of the unlock, though `ground_steps` counted such spots as joinable: noted in issue 33.)
fn with_stairs(mut w: World) -> World {
    w.add_science(1000);
    w.unlock("Stairs.Folktails").unwrap();
    w.unlock("Platform.Folktails").unwrap();
    w
}

/// Places `prefab` on the best joinable spot `find_placements` offers within `r` tiles of the
/// district center's doorstep moved by `off`, joins its doorstep to the center with
/// `place_path` and finishes it. Returns its id.
pub(super) fn place_joined(w: &mut World, prefab: &str, off: (i64, i64), r: i64) -> i32 {
    let d = dc_door(w);
    let (cx, cy) = (i64::from(d[0]) + off.0, i64::from(d[1]) + off.1);
    let (x1, y1, x2, y2) = (cx - r, cy - r, cx + r, cy + r);
    let (_, _, _, spots) = w.find_placements(prefab, x1, y1, x2, y2).unwrap();
    // The joinable spots best first; a route `place_path` cannot lay in one leg (it says to
    // route in shorter legs) passes to the next spot.
    let mut joinable = spots.iter().filter(|s| s.ground_steps >= 0).peekable();
    assert!(
        joinable.peek().is_some(),
        "a joinable spot for {prefab}: {spots:?}"
    );
    let id = joinable
        .find_map(|s| {
            let id = w
                .place_building(prefab, s.x.into(), s.y.into(), s.z.into(), s.orientation)
                .unwrap();
            // A route that climbs stops at each landing; the next leg goes on from there.
            let mut from = (d[0], d[1]);
            for leg in 0..4 {
                let route = w
                    .place_path(
                        i64::from(from.0),
                        i64::from(from.1),
                        s.entrance_x,
                        s.entrance_y,
                        "direct",
                        1,
                    )
                    .unwrap();
                if leg == 0
                    && route.paths + route.stairs + route.platforms == 0
                    && !route.errors.is_empty()
                {
                    w.demolish_building(id).unwrap();
                    return None;
                }
                assert!(route.errors.is_empty(), "{prefab}: {route:?}");
                match route.stopped_at {
                    Some(at) => from = at,
                    None => return Some(id),
                }
            }
            panic!("{prefab}: the path to {s:?} took more than 4 legs")
        })
        .unwrap_or_else(|| panic!("no joinable spot for {prefab} takes a path: {spots:?}"));
    // The building and its path, so it is in the district at once.
    super::fixtures::finish_all(w);
    id
}

/// Marks every level for cutting within `r` tiles of a building's doorstep.
fn mark_cutting_around(w: &mut World, id: i32, r: i64) {
    let door = w.colony.door(id).unwrap();
    let (dx, dy) = (i64::from(door[0]), i64::from(door[1]));
    for z in 0..=i64::from(w.map.max_height()) {
        w.set_cutting_area(dx - r, dy - r, dx + r, dy + r, z, true)
            .unwrap();
    }
}

#[test]
fn the_best_pump_spot_is_one_a_path_can_join() {
    // Seed 1: the deepest water near the district center lies by the far bank, whose spots no
    // path from the center can reach; they rank after the near bank's.
    let mut w = with_stairs(crate::testutil::world());
    let d = dc_door(&w);
    let (x1, y1) = (i64::from(d[0] - 24), i64::from(d[1] - 24));
    let (_, _, _, spots) = w
        .find_placements("WaterPump.Folktails", x1, y1, x1 + 48, i64::from(d[1] + 24))
        .unwrap();
    assert!(spots[0].ground_steps > 0, "{:?}", spots[0]);
    assert!(spots[0].water_depth.unwrap() > 0.0);
    place_joined(&mut w, "WaterPump.Folktails", (0, 0), 24);
}

#[test]
fn a_pump_takes_a_worker_from_a_lumberjack_when_no_one_is_idle() {
    let mut w = with_stairs(crate::testutil::world());
    // Every adult at work: the center's two, six lumberjacks.
    // Spread out in front of the center (its door faces south, towards lower y).
    let flags: Vec<i32> = [(4, -8), (8, -5), (12, -3), (2, -5), (6, -9), (10, -7)]
        .into_iter()
        .map(|off| place_joined(&mut w, "LumberjackFlag.Folktails", off, 2))
        .collect();
    w.advance_ticks(2 * HOUR);
    let idle = w
        .colony
        .beavers
        .values()
        .filter(|b| !b.child && b.workplace.is_none())
        .count();
    assert_eq!(idle, 0, "everyone works");
    let pump = place_joined(&mut w, "WaterPump.Folktails", (0, 0), 24);
    w.advance_ticks(2 * HOUR);
    assert_eq!(
        w.colony.buildings[&pump].workers.len(),
        1,
        "the pump is staffed"
    );
    let empty: Vec<i32> = flags
        .iter()
        .copied()
        .filter(|f| w.colony.buildings[f].workers.is_empty())
        .collect();
    assert_eq!(empty.len(), 1, "one lumberjack gave its worker");
    let why = w.building_statuses(empty[0]);
    assert!(
        why.contains(&"unstaffed".to_owned())
            && why.contains(&"unstaffed: lower priority".to_owned()),
        "{why:?}"
    );
    // A higher priority outranks vitality: the lumberjack raised to VeryHigh takes a worker
    // back, from another lumberjack (the lowest rank), never from the pump.
    w.set_priority(empty[0], "VeryHigh", "workplace").unwrap();
    w.advance_ticks(2 * HOUR);
    assert_eq!(w.colony.buildings[&empty[0]].workers.len(), 1);
    assert_eq!(w.colony.buildings[&pump].workers.len(), 1);
    let empty_now = flags
        .iter()
        .filter(|f| w.colony.buildings[f].workers.is_empty())
        .count();
    assert_eq!(empty_now, 1);
}

#[test]
fn producers_say_why_they_stall() {
    let mut w = crate::testutil::world();
    let flag = place_joined(&mut w, "LumberjackFlag.Folktails", (0, -8), 3);
    assert!(
        w.building_statuses(flag)
            .contains(&"no trees marked in range".to_owned()),
        "{:?}",
        w.building_statuses(flag)
    );
    let b = w.colony.buildings.get_mut(&flag).unwrap();
    b.inventory.insert("Log".to_owned(), 4);
    let why = w.building_statuses(flag);
    assert!(why.contains(&"no storage for Log".to_owned()), "{why:?}");
    assert!(!why.contains(&"output full".to_owned()), "{why:?}");
    let cap = w.colony.buildings[&flag].capacity();
    w.colony
        .buildings
        .get_mut(&flag)
        .unwrap()
        .inventory
        .insert("Log".to_owned(), cap);
    assert!(
        w.building_statuses(flag)
            .contains(&"output full".to_owned())
    );
    // A pile takes logs: that stall is gone, and the alert says the rest.
    place_joined(&mut w, "LargePile.Folktails", (6, -6), 4);
    let why = w.building_statuses(flag);
    assert!(!why.contains(&"no storage for Log".to_owned()), "{why:?}");
    assert!(
        w.alerts()
            .iter()
            .any(|a| a.id == flag && a.status == "output full"),
        "alerts show stalls"
    );
}

#[test]
fn a_pump_over_a_dry_bank_draws_from_the_river_beyond() {
    // Seed 6: the river runs below its banks beside the start area; the only pumps on the near
    // side stand on the valley floor with their intake row hanging over the dry bank.
    let mut w = World::new(&crate::NewGame {
        seed: 6,
        ..crate::NewGame::default()
    });
    w.advance_ticks(24 * HOUR);
    let d = dc_door(&w);
    let (x, y) = (i64::from(d[0]), i64::from(d[1]));
    let (_, _, _, spots) = w
        .find_placements("WaterPump.Folktails", x - 12, y - 12, x + 12, y + 12)
        .unwrap();
    let s = spots
        .iter()
        .find(|s| s.ground_steps >= 0)
        .unwrap_or_else(|| panic!("a joinable pump spot: {spots:?}"));
    assert!(
        w.map.terrain_height(s.x, s.y) < s.z as u8,
        "its origin (the intake row) hangs over lower ground: {s:?}"
    );
    assert!(s.water_depth.unwrap() > 0.0);
    let id = place_joined(&mut w, "WaterPump.Folktails", (0, 0), 12);
    w.advance_ticks(12 * HOUR);
    let b = w.building_view(id).unwrap();
    assert!(
        !b.statuses.iter().any(|t| t == "no water to pump"),
        "{:?}",
        b.statuses
    );
}

/// A world whose district center holds `goods` besides the starting ones (a scenario's setup),
/// without hazards.
fn world_with(goods: &[(&str, u32)]) -> World {
    let mut w = World::new(&crate::config::NewGame {
        setup: crate::config::Setup {
            goods: goods.iter().map(|(g, n)| ((*g).to_owned(), *n)).collect(),
            ..Default::default()
        },
        ..Default::default()
    });
    w.weather.temperate_days = 100;
    w
}

/// Places a second district center on flat ground near the first and joins its doorstep to the
/// first district's network with paths (finished at once, as paths are). Returns its id.
fn second_center_joined(w: &mut World) -> i32 {
    use crate::colony::geometry::voxel;
    use crate::testutil::{build, flat_area, path_route};
    let d1 = dc_door(w);
    let (x, y, z) = flat_area(w, 3, 4);
    let id = w
        .place_building(
            "DistrictCenter.Folktails",
            x.into(),
            (y + 1).into(),
            z.into(),
            "south",
        )
        .unwrap();
    let d2 = w.colony.door(id).unwrap();
    let route = path_route(w, (d1[0], d1[1]), (d2[0], d2[1]), z).expect("a route");
    for &(px, py) in &route {
        if !w.colony.blocks.contains_key(&voxel(px, py, z)) && (px, py) != (d2[0], d2[1]) {
            build(w, "Path", px, py, z, "south");
        }
    }
    id
}

#[test]
fn a_second_district_center_is_built_like_any_site() {
    let mut w = world_with(&[("Log", 100), ("Plank", 100)]);
    let first = w.colony.centers()[0];
    let stock = |w: &World, g: &str| w.colony.district_stock(first).get(g).map_or(0, |s| s.1);
    // The starting center was free and finished at once.
    let start = w.building_view(first).unwrap();
    assert!(start.finished && w.colony.buildings[&first].cost().is_empty());
    let (log0, plank0) = (stock(&w, "Log"), stock(&w, "Plank"));
    // The prefab list shows what placing one costs.
    let listed = w
        .prefabs()
        .into_iter()
        .find(|p| p.name == "DistrictCenter.Folktails")
        .unwrap();
    assert_eq!(
        listed.cost,
        [("Log".to_owned(), 60.0), ("Plank".to_owned(), 80.0)]
    );
    let second = second_center_joined(&mut w);
    let site = w.building_view(second).unwrap();
    assert!(!site.finished && site.material_progress == 0.0, "{site:?}");
    assert!(site.reachable && site.district == "District 1", "{site:?}");
    assert_eq!(w.colony.centers(), [first], "a site founds no district");
    assert_eq!(w.districts().len(), 1);
    // Haulers bring the materials, then builders work; it is no district until finished.
    let mut seen_partial = false;
    for _ in 0..(6 * 24) {
        w.advance_ticks(HOUR);
        let b = &w.colony.buildings[&second];
        if b.finished {
            break;
        }
        assert_eq!(w.colony.centers(), [first]);
        seen_partial |= b.material_progress() > 0.0 && b.material_progress() < 1.0;
    }
    assert!(seen_partial, "the materials came in loads");
    let done = w.building_view(second).unwrap();
    assert!(done.finished, "built within six days: {done:?}");
    assert_eq!(w.colony.centers(), [first, second]);
    assert_eq!(w.districts().len(), 2);
    // Its materials were used up: the first district's stock paid 60 logs and 80 planks.
    assert_eq!(stock(&w, "Plank"), plank0 - 80);
    assert!(stock(&w, "Log") <= log0 - 60, "{}", stock(&w, "Log"));
}

#[test]
fn a_center_site_waits_for_materials_and_gives_them_back_only_into_room() {
    // The starting goods (40 logs, 20 planks) are not enough.
    let mut w = crate::testutil::world();
    let first = w.colony.centers()[0];
    let total = |w: &World| -> u32 { w.colony.district_stock(first).values().map(|s| s.1).sum() };
    let second = second_center_joined(&mut w);
    w.advance_ticks(12 * HOUR);
    let site = w.building_view(second).unwrap();
    assert!(!site.finished && site.material_progress > 0.0, "{site:?}");
    assert!(site.material_progress < 1.0);
    assert!(
        site.statuses.iter().any(|s| s == "lacks materials"),
        "{:?}",
        site.statuses
    );
    assert_eq!(w.colony.centers(), [first]);
    // Demolishing the site gives back what was delivered, nothing more, as far as the stores
    // have room: the starting goods fill the center past its listed capacity and there is no
    // storage, so the materials are lost, with a notification naming them.
    let held = w.colony.buildings[&second].inventory.clone();
    assert!(!held.is_empty());
    let before = total(&w);
    w.demolish_building(second).unwrap();
    assert_eq!(total(&w), before);
    let lost = w
        .notifications()
        .into_iter()
        .find(|n| n.subject == "Goods lost")
        .expect("a notification for the materials");
    for (good, n) in &held {
        assert!(
            lost.description.contains(&format!("{n} {good}")),
            "{}",
            lost.description
        );
    }
    // The starting center cannot be demolished, and so refunds nothing for the cost it never had.
    let e = w.demolish_building(first).unwrap_err();
    assert_eq!(e.code, crate::error::ErrorCode::InvalidType);
    assert_eq!(total(&w), before);
}

/// The spots of a search within `r` tiles of the district center's doorstep.
fn search_near(w: &mut World, prefab: &str, r: i64) -> super::PlacementSearch {
    let d = dc_door(w);
    let (cx, cy) = (i64::from(d[0]), i64::from(d[1]));
    w.search_placements(prefab, cx - r, cy - r, cx + r, cy + r)
        .unwrap()
}

/// Among spots of one standing (flooded, reachable, joinable), the ranking key never rises.
fn assert_ranked(
    spots: &[super::PlacementSpot],
    key: impl Fn(&super::PlacementSpot) -> (u64, u64),
) {
    let standing = |p: &super::PlacementSpot| {
        (
            p.flooded,
            p.reachable,
            p.reachable == 1 || p.ground_steps >= 0,
        )
    };
    for pair in spots.windows(2) {
        if standing(&pair[0]) == standing(&pair[1]) {
            assert!(key(&pair[0]) >= key(&pair[1]), "{pair:?}");
        }
    }
}

#[test]
fn lumberjacks_and_gatherers_are_offered_where_trees_and_bushes_are() {
    let mut w = crate::testutil::world();
    let wood = search_near(&mut w, "LumberjackFlag.Folktails", 20);
    assert!(wood.none.is_none() && !wood.placements.is_empty());
    let trees = |p: &super::PlacementSpot| {
        let r = p.in_reach.as_ref().expect("inReach for a lumberjack");
        (u64::from(r.trees.unwrap()), u64::from(r.saplings.unwrap()))
    };
    assert!(wood.placements.iter().all(|p| trees(p) != (0, 0)));
    assert_ranked(&wood.placements, trees);
    // The best spot has at least as many grown trees in range as any other joinable spot.
    let best = trees(&wood.placements[0]).0;
    assert!(best > 0);
    // Counted as a lumberjack would cut: within its range of the doorstep, heights included.
    let p = &wood.placements[0];
    let door = [p.entrance_x as u32, p.entrance_y as u32, p.z];
    let r = super::building::work_range(super::building::spec("LumberjackFlag.Folktails"));
    let grown = w
        .land
        .plants
        .values()
        .filter(|t| {
            t.alive
                && t.grown()
                && t.kind() == crate::catalog::PlantKind::Tree
                && super::nav::manhattan(door, [t.x, t.y, t.z]) <= r
        })
        .count() as u64;
    assert_eq!(best, grown);
    // Distinct tiles.
    let mut tiles: Vec<(u32, u32)> = wood.placements.iter().map(|p| (p.x, p.y)).collect();
    tiles.dedup();
    assert_eq!(tiles.len(), wood.placements.len());

    let food = search_near(&mut w, "GathererFlag.Folktails", 20);
    let bushes = |p: &super::PlacementSpot| {
        let r = p.in_reach.as_ref().expect("inReach for a gatherer");
        (
            u64::from(r.bushes_ripe.unwrap()),
            u64::from(r.bushes.unwrap()),
        )
    };
    assert!(!food.placements.is_empty());
    assert!(food.placements.iter().all(|p| bushes(p).1 > 0));
    assert_ranked(&food.placements, bushes);
    // A farmhouse counts its field; a lodge has nothing in reach to count.
    let farm = search_near(&mut w, "EfficientFarmHouse.Folktails", 12);
    let f = farm.placements[0].in_reach.as_ref().unwrap();
    assert!(f.plantable.unwrap() > 0 && f.crops_ready.is_some(), "{f:?}");
    let lodge = search_near(&mut w, "Lodge.Folktails", 8);
    assert!(lodge.placements.iter().all(|p| p.in_reach.is_none()));
}

#[test]
fn a_water_wheel_is_offered_only_where_water_flows() {
    let mut w = crate::testutil::world();
    // The generated river runs steadily after about a day.
    w.advance_ticks(2 * crate::testutil::DAY);
    let min = crate::power::power_rules().water_wheel_min_flow.value;
    let wheels = search_near(&mut w, "WaterWheel.Folktails", 30);
    assert!(!wheels.placements.is_empty(), "{:?}", wheels.none);
    let flow = |p: &super::PlacementSpot| p.in_reach.as_ref().unwrap().flow.unwrap();
    for p in &wheels.placements {
        assert!(flow(p) >= min, "{p:?}");
        assert_eq!(p.flooded, 0, "a wheel belongs in water");
    }
    assert_ranked(&wheels.placements, |p| ((flow(p) * 1e6) as u64, 0));
    // Dry land near the center: no spot, and the answer says why.
    let (x, y, _) = crate::testutil::flat_area(&mut w, 6, 6);
    let dry = w
        .search_placements(
            "WaterWheel.Folktails",
            x.into(),
            y.into(),
            (x + 3).into(),
            (y + 3).into(),
        )
        .unwrap();
    assert!(dry.placements.is_empty());
    let none = dry.none.expect("a reason");
    assert_eq!(none.reason, "no_water", "{none:?}");
    assert!(none.detail.contains("river"), "{}", none.detail);
    assert!(none.blocked["no_water"] > 0);
}

#[test]
fn an_empty_search_says_what_blocked_and_what_to_do() {
    let mut w = crate::testutil::world();
    // Locked.
    let locked = search_near(&mut w, "LargeWarehouse.Folktails", 6);
    let none = locked.none.unwrap();
    assert_eq!(none.reason, "not_unlocked");
    assert!(
        none.detail.contains("/api/science/unlock"),
        "{}",
        none.detail
    );
    // Off the map: a 2x2 lodge at the map's far corner.
    let (mw, mh) = (i64::from(w.map.width()), i64::from(w.map.height()));
    let edge = w
        .search_placements("Lodge.Folktails", mw - 1, mh - 1, mw - 1, mh - 1)
        .unwrap();
    assert_eq!(edge.none.unwrap().reason, "out_of_bounds");
    // On the district center itself: occupied.
    let dc = w.colony.centers()[0];
    let b = &w.colony.buildings[&dc];
    let (bx, by) = (i64::from(b.x), i64::from(b.y));
    let taken = w
        .search_placements("Lodge.Folktails", bx, by, bx + 1, by + 1)
        .unwrap();
    let none = taken.none.unwrap();
    assert_eq!(none.reason, "occupied", "{none:?}");
    assert!(none.detail.contains("wider"), "{}", none.detail);
    // Nowhere near a bush: nothing in reach.
    let bushes: Vec<[u32; 3]> = w
        .land
        .plants
        .values()
        .filter(|p| p.alive && p.kind() == crate::catalog::PlantKind::Bush)
        .map(|p| [p.x, p.y, p.z])
        .collect();
    let far = (4..w.map.height() - 4)
        .flat_map(|y| (4..w.map.width() - 4).map(move |x| (x, y)))
        .find(|&(x, y)| {
            let at = [x, y, u32::from(w.map.terrain_height(x, y))];
            w.check_placement(
                "GathererFlag.Folktails",
                x.into(),
                y.into(),
                at[2].into(),
                super::Orientation::South,
            )
            .is_ok()
                && bushes.iter().all(|b| super::nav::manhattan(*b, at) > 30)
        })
        .expect("a spot far from every bush");
    let bare = w
        .search_placements(
            "GathererFlag.Folktails",
            far.0.into(),
            far.1.into(),
            far.0.into(),
            far.1.into(),
        )
        .unwrap();
    let none = bare.none.unwrap();
    assert_eq!(none.reason, "nothing_in_reach", "{none:?}");
    assert!(none.detail.contains("bushes"), "{}", none.detail);
}

#[test]
fn a_building_says_what_lies_in_its_reach() {
    let mut w = crate::testutil::world();
    let flag = place_joined(&mut w, "LumberjackFlag.Folktails", (0, 0), 20);
    let view = w.building_view(flag).unwrap();
    let reach = view.in_reach.clone().expect("a lumberjack counts trees");
    assert_eq!(
        w.building_range(flag).unwrap().in_reach,
        Some(reach.clone())
    );
    assert!(reach.trees.unwrap() > 0, "{reach:?}");
    assert_eq!(reach.trees_marked, Some(0), "nothing marked yet");
    // Marking the land around it for cutting: the grown trees in reach are now marked.
    mark_cutting_around(&mut w, flag, 25);
    let marked = w.building_view(flag).unwrap().in_reach.unwrap();
    assert_eq!(marked.trees_marked, marked.trees, "{marked:?}");
    // Lists never count it (they are measured for speed).
    assert!(w.buildings().iter().all(|b| b.in_reach.is_none()));
    // A farmhouse counts its field; a lodge has no such thing (sites count as well).
    let place_first = |w: &mut World, prefab: &str, r: i64| {
        let p = search_near(w, prefab, r).placements[0].clone();
        w.place_building(prefab, p.x.into(), p.y.into(), p.z.into(), p.orientation)
            .unwrap()
    };
    let farm = place_first(&mut w, "EfficientFarmHouse.Folktails", 12);
    let f = w.building_view(farm).unwrap().in_reach.unwrap();
    assert!(
        f.plantable.unwrap() > 0 && f.crops_growing == Some(0),
        "{f:?}"
    );
    let lodge = place_first(&mut w, "Lodge.Folktails", 8);
    assert_eq!(w.building_view(lodge).unwrap().in_reach, None);
    // Planting marks, then crops growing and ready on free soil in reach.
    let fd = w.colony.door(farm).unwrap();
    let (fx, fy) = (i64::from(fd[0]), i64::from(fd[1]));
    w.mark_planting(fx - 4, fy - 4, fx + 4, fy + 4, fd[2].into(), "Carrot")
        .unwrap();
    let marks = w.building_view(farm).unwrap().in_reach.unwrap();
    assert!(marks.marked_for_planting.unwrap() > 0, "{marks:?}");
    let carrot = crate::catalog::nature().index("Carrot").unwrap();
    let free: Vec<(u32, u32)> = (fd[1].saturating_sub(6)..fd[1] + 6)
        .flat_map(|y| (fd[0].saturating_sub(6)..fd[0] + 6).map(move |x| (x, y)))
        .filter(|&(x, y)| w.free_soil(x, y) && u32::from(w.map.terrain_height(x, y)) == fd[2])
        .take(5)
        .collect();
    assert_eq!(free.len(), 5);
    for (i, &(x, y)) in free.iter().enumerate() {
        w.land
            .add_plant(carrot, x, y, fd[2], if i < 3 { 0.2 } else { 1.0 });
    }
    let crops = w.building_view(farm).unwrap().in_reach.unwrap();
    assert_eq!(
        (crops.crops_growing, crops.crops_ready),
        (Some(3), Some(2)),
        "{crops:?}"
    );
}

#[test]
fn an_unreachable_spot_never_outranks_a_reachable_one() {
    // Issue 32's case: seed 7, a path from (96,83) to (84,83), then gatherer and lumberjack flags
    // searched in (66,53)-(126,113). Spots off the network had more in reach and ranked first.
    let mut w = World::new(&crate::config::NewGame {
        seed: 7,
        ..Default::default()
    });
    w.place_path(96, 83, 84, 83, "direct", 0).unwrap();
    for prefab in [
        "GathererFlag.Folktails",
        "LumberjackFlag.Folktails",
        "WaterPump.Folktails",
    ] {
        let found = w.search_placements(prefab, 66, 53, 126, 113).unwrap();
        let reachable: Vec<u8> = found.placements.iter().map(|p| p.reachable).collect();
        if !prefab.starts_with("WaterPump") {
            assert!(reachable.contains(&1), "{prefab}: {reachable:?}");
        }
        assert!(
            reachable.windows(2).all(|p| p[0] >= p[1]),
            "{prefab}: reachable spots first: {:?}",
            found.placements
        );
    }
}

#[test]
fn a_lumberjack_cuts_the_dead_grown_trees_for_their_logs() {
    // `deadTreesGiveLogs`: a grown tree that died (of drought, flooding or badwater) keeps its
    // logs. The flag still counts it, does not say it has nothing to cut, and its lumberjack
    // cuts it like a living one.
    let mut w = crate::testutil::world();
    let flag = place_joined(&mut w, "LumberjackFlag.Folktails", (0, 0), 20);
    mark_cutting_around(&mut w, flag, 25);
    let living = w.building_view(flag).unwrap().in_reach.unwrap();
    let grown_tallied = |w: &World| -> u32 {
        w.tree_tallies()
            .values()
            .map(|t| t.grown_marked + t.grown_unmarked)
            .sum()
    };
    let (tallied, clusters) = (grown_tallied(&w), w.tree_clusters());
    // Every tree on the map dies where it stands; only the grown ones keep logs to cut.
    let mut dead_grown = std::collections::BTreeSet::new();
    for (id, p) in w.land.plants.iter_mut() {
        if p.kind() == crate::catalog::PlantKind::Tree {
            p.alive = false;
            if p.grown() {
                dead_grown.insert(*id);
            }
        }
    }
    let after = w.building_view(flag).unwrap().in_reach.unwrap();
    assert!(living.trees_marked.unwrap() > 0, "{living:?}");
    assert_eq!(
        (after.trees, after.trees_marked, after.saplings),
        (living.trees, living.trees_marked, Some(0)),
        "the dead grown trees still count, the dead saplings not"
    );
    assert_eq!(
        grown_tallied(&w),
        tallied,
        "the tallies count them as grown"
    );
    assert_eq!(
        w.tree_clusters().iter().map(|c| c.grown).sum::<u32>(),
        clusters.iter().map(|c| c.grown).sum::<u32>()
    );
    let why = w.building_statuses(flag);
    assert!(
        !why.contains(&"no trees marked in range".to_owned()),
        "{why:?}"
    );
    // Half a day: the dead trees fall, each with its logs.
    let made = |w: &World| -> f64 {
        let h = w.history();
        h.rows
            .iter()
            .map(|r| &r.produced)
            .chain([&h.counters.produced])
            .filter_map(|m| m.get("Log"))
            .sum()
    };
    let before = made(&w);
    w.take_events();
    w.advance_ticks(12 * HOUR);
    let cut: Vec<i32> = w
        .take_events()
        .into_iter()
        .filter(|e| e.name == crate::event::names::TREE_CUT)
        .map(|e| e.data.unwrap()["id"].as_i64().unwrap() as i32)
        .collect();
    assert!(!cut.is_empty(), "no dead tree was cut");
    assert!(
        cut.iter().all(|id| dead_grown.contains(id)),
        "a dead sapling was cut: {cut:?}"
    );
    let logs = made(&w) - before;
    assert!(
        logs >= cut.len() as f64,
        "{} dead trees cut, {logs} logs",
        cut.len()
    );
}

/// A spot `find_placements` offers for `prefab` near the district center with its doorstep over
/// lower ground that a path could reach: on a tile where the prefab may stand (the placement
/// mask) facing that way, the doorsteps of its other ways blocked by a SmallWarehouse each (as a
/// played colony's buildings block them).
fn ledge_spot(w: &mut World, prefab: &str) -> super::PlacementSpot {
    use super::geometry::Orientation;
    let mask = w.placement_mask(prefab).unwrap();
    let d = dc_door(w);
    let spec = super::building::spec(prefab);
    let window = super::path_place::Window {
        x0: d[0].saturating_sub(40),
        y0: d[1].saturating_sub(40),
        x1: (d[0] + 40).min(w.map.width() - 1),
        y1: (d[1] + 40).min(w.map.height() - 1),
    };
    let ground = w.ground_steps((d[0], d[1]), window);
    let mut tiles = Vec::new();
    for y in window.y0..=window.y1 {
        for x in window.x0..=window.x1 {
            let doors: Vec<[u32; 3]> = Orientation::ALL
                .into_iter()
                .enumerate()
                .filter_map(|(k, o)| {
                    let z = mask.spots[((y * mask.width + x) * 4) as usize + k];
                    let (ex, ey) = super::geometry::doorstep(spec, x.into(), y.into(), o)?;
                    (z > 0).then(|| [ex as u32, ey as u32, u32::from(z) - 1])
                })
                .collect();
            let ledge = |door: &[u32; 3]| {
                !w.on_ground(*door) && ground.to(door[0].into(), door[1].into()).is_some()
            };
            if doors.iter().any(ledge) {
                tiles.push(((x, y), doors));
            }
        }
    }
    tiles.sort_by_key(|((x, y), _)| x.abs_diff(d[0]) + y.abs_diff(d[1]));
    for ((x, y), doors) in tiles {
        let mut blockers = Vec::new();
        let on_ground: Vec<[u32; 3]> = doors.into_iter().filter(|d| w.on_ground(*d)).collect();
        for door in on_ground {
            let (bx, by) = (i64::from(door[0]), i64::from(door[1]));
            for o in ["south", "west", "north", "east"] {
                if let Ok(id) =
                    w.place_building("SmallWarehouse.Folktails", bx, by, door[2].into(), o)
                {
                    blockers.push(id);
                    break;
                }
            }
        }
        let (x, y) = (i64::from(x), i64::from(y));
        let found = w.search_placements(prefab, x, y, x, y).unwrap();
        if let Some(s) = found.placements.into_iter().next()
            && !w.on_ground([s.entrance_x as u32, s.entrance_y as u32, s.z])
            && ground.to(s.entrance_x, s.entrance_y).is_some()
        {
            return s;
        }
        for id in blockers {
            w.demolish_building(id).unwrap();
        }
    }
    panic!("no {prefab} spot on a ledge over joinable ground near the center")
}

#[test]
fn a_doorstep_over_lower_ground_is_not_offered_as_joinable_and_no_path_claims_to_join_it() {
    // Seed 44: DoubleLodges on the ledges north of the district center (an agent's site there
    // stood `unreachable` from day 39 to the end, its path laid under the doorstep).
    let mut w = World::new(&crate::NewGame {
        seed: 44,
        ..crate::NewGame::default()
    });
    w.add_science(1000);
    w.unlock("DoubleLodge.Folktails").unwrap();
    let s = ledge_spot(&mut w, "DoubleLodge.Folktails");
    let door = [s.entrance_x as u32, s.entrance_y as u32, s.z];
    assert_eq!(s.ground_steps, -1, "offered as joinable: {s:?}");
    assert_eq!(s.reachable, 0, "{s:?}");
    let id = w
        .place_building(
            "DoubleLodge.Folktails",
            s.x.into(),
            s.y.into(),
            s.z.into(),
            s.orientation,
        )
        .unwrap();
    let d = dc_door(&w);
    let before = w.colony.buildings.len();
    let route = w
        .place_path(
            d[0].into(),
            d[1].into(),
            s.entrance_x,
            s.entrance_y,
            "direct",
            0,
        )
        .unwrap();
    assert_eq!(route.paths + route.stairs + route.platforms, 0, "{route:?}");
    assert!(
        route
            .errors
            .iter()
            .any(|e| e.error.contains("doorstep") && e.error.contains(&format!("{id}"))),
        "{route:?}"
    );
    assert_eq!(w.colony.buildings.len(), before, "nothing placed");
    assert!(!w.on_ground(door));
}

//! Issue 38's ways: zipline cables between towers (`colony::zipline`).

use crate::colony::geometry::voxel;
use crate::colony::rules::colony_rules;
use crate::error::ErrorCode;
use crate::testutil::{build, flat_area, world};
use crate::world::World;

/// Two finished stations `gap` tiles apart on flat ground (facing south, side by side), a path
/// tile on each doorstep; returns their ids and doorsteps.
fn two_stations(w: &mut World, gap: u32) -> ([i32; 2], [[u32; 3]; 2]) {
    let (x, y, z) = flat_area(w, gap + 4, 6);
    let a = build(w, "ZiplineStation.Folktails", x, y + 2, z, "south");
    let b = build(w, "ZiplineStation.Folktails", x + gap, y + 2, z, "south");
    let doors = [w.colony.door(a).unwrap(), w.colony.door(b).unwrap()];
    for d in doors {
        build(w, "Path", d[0], d[1], d[2], "south");
    }
    ([a, b], doors)
}

fn v(p: [u32; 3]) -> u64 {
    voxel(p[0], p[1], p[2])
}

/// The tiles a beaver's walk from `a` to `b` takes, and its ticks (one walk step, as planned).
fn walk(w: &mut World, a: [u32; 3], b: [u32; 3]) -> u64 {
    let id = *w.colony.beavers.keys().next().unwrap();
    let now = w.ticks;
    {
        let bv = w.colony.beavers.get_mut(&id).unwrap();
        bv.from = a;
        bv.to = a;
        bv.plan.clear();
        bv.plan.push_back(crate::colony::beaver::Step::Walk {
            x: b[0],
            y: b[1],
            z: b[2],
        });
        // (No step under way: the walk starts at the next tick.)
        bv.step_until = 0;
    }
    w.colony.next_due = now;
    w.advance_ticks(1);
    let bv = &w.colony.beavers[&id];
    assert_eq!(bv.to, b, "the beaver set off for the far station");
    bv.arrive - bv.depart
}

/// A zipline across a gorge (no walkway between the stations) carries beavers at 2.5x walking
/// speed: the nav's distance is the cable over the multiplier plus boarding, the walk takes
/// that share of the time, and `zipline.activated` fires once the cable joins two finished
/// towers.
#[test]
fn a_zipline_across_a_gorge_is_faster_than_the_walk() {
    let mut w = world();
    let gap = 20;
    let ([a, b], [da, db]) = two_stations(&mut w, gap);
    assert_eq!(w.colony.nav().distance(v(da), v(db)), None, "apart");
    let walked = walk(&mut w, da, db);
    w.take_events();
    let c = w.zipline_connect(a, b).expect("connects");
    assert!(
        c.usable && (c.length - f64::from(gap)).abs() < 1e-9,
        "{c:?}"
    );
    let activated: Vec<_> = w
        .take_events()
        .into_iter()
        .filter(|e| e.name == "zipline.activated")
        .collect();
    assert_eq!(activated.len(), 1);
    let ways = &colony_rules().ways;
    let speed = colony_rules().movement.zipline_multiplier.value;
    // The cable over the multiplier, plus getting on and off.
    let expected = (f64::from(gap) / speed + 2.0 * ways.zipline_boarding_tiles.value).ceil() as u32;
    assert_eq!(w.colony.nav().distance(v(da), v(db)), Some(expected));
    assert!(expected * 2 <= gap, "{expected} against the walk's {gap}");
    let ridden = walk(&mut w, da, db);
    assert!(
        ridden * 2 <= walked,
        "the ride takes {ridden} ticks, the walk {walked}"
    );
    let view = w
        .building_view(a)
        .expect("a view")
        .zipline
        .expect("a tower");
    assert!(view.boarding);
    assert_eq!(view.connections.len(), 1);
    assert_eq!(
        (view.connections[0].id, view.connections[0].usable),
        (b, true)
    );
}

/// Beside a straight path the nav takes the cable where it is shorter, by the expected factor;
/// disconnecting or demolishing a tower takes the edge away; the cables are saved.
#[test]
fn a_cable_shortens_the_path_and_goes_with_its_towers() {
    let mut w = world();
    let gap = 24;
    let ([a, b], [da, db]) = two_stations(&mut w, gap);
    for x in da[0] + 1..db[0] {
        build(&mut w, "Path", x, da[1], da[2], "south");
    }
    let walk_tiles = db[0] - da[0];
    assert_eq!(w.colony.nav().distance(v(da), v(db)), Some(walk_tiles));
    w.zipline_connect(a, b).unwrap();
    let speed = colony_rules().movement.zipline_multiplier.value;
    let board = colony_rules().ways.zipline_boarding_tiles.value;
    let ride = (f64::from(gap) / speed + 2.0 * board).ceil() as u32;
    assert_eq!(w.colony.nav().distance(v(da), v(db)), Some(ride));
    // Saved and loaded with the world.
    let loaded = World::load_from_bytes(&w.save_to_bytes()).expect("loads");
    assert_eq!(loaded.state_hash(), w.state_hash());
    assert_eq!(loaded.colony.ziplines, w.colony.ziplines);
    // Disconnected: the walk again.
    w.zipline_disconnect(b, a).expect("disconnects");
    assert_eq!(w.colony.nav().distance(v(da), v(db)), Some(walk_tiles));
    assert!(w.zipline_view(a).unwrap().connections.is_empty());
    // Connected again, then a tower demolished: the cable goes with it.
    w.zipline_connect(a, b).unwrap();
    assert_eq!(w.colony.nav().distance(v(da), v(db)), Some(ride));
    w.remove_building(b).expect("demolished");
    assert!(w.colony.ziplines.is_empty());
    assert!(!w.colony.nav().is_node(v(db)) || w.colony.nav().distance(v(da), v(db)).is_some());
    assert_eq!(w.colony.nav().distance(v(da), v(db)), Some(walk_tiles));
}

/// A cable strung to a tower still a site is not ridden until it is finished; then
/// `zipline.activated` fires. Refusals name the reason and change nothing.
#[test]
fn cables_wait_for_their_towers_and_refusals_change_nothing() {
    let mut w = world();
    let ([a, _], [da, _]) = two_stations(&mut w, 12);
    let (x, y, z) = (da[0] + 6, da[1], da[2]);
    let prefab = "ZiplinePylon.Folktails";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    let site = w
        .place_building(prefab, x.into(), y.into(), z.into(), "south")
        .expect("a pylon site");
    w.take_events();
    let c = w.zipline_connect(site, a).expect("a cable to a site");
    assert!(!c.usable);
    assert!(
        w.take_events()
            .iter()
            .all(|e| e.name != "zipline.activated")
    );
    w.finish_building(site);
    let names: Vec<&str> = w.take_events().into_iter().map(|e| e.name).collect();
    assert!(names.contains(&"zipline.activated"), "{names:?}");
    let before = w.state_hash();
    let dc = *w.colony.districts.keys().next().unwrap();
    let code = |r: Result<crate::colony::zipline::ConnectView, crate::error::CommandError>| {
        r.expect_err("refused").code
    };
    assert_eq!(code(w.zipline_connect(a, dc)), ErrorCode::InvalidType);
    assert_eq!(code(w.zipline_connect(a, 9_999_999)), ErrorCode::NotFound);
    assert_eq!(code(w.zipline_connect(a, a)), ErrorCode::InvalidParam);
    assert_eq!(code(w.zipline_connect(a, site)), ErrorCode::InvalidParam);
    assert_eq!(code(w.zipline_disconnect(dc, a)), ErrorCode::InvalidType);
    assert_eq!(w.state_hash(), before);
    // A pylon beyond the longest cable.
    let max = colony_rules().ways.zipline_max_cable_tiles.value as u32;
    let far = (0..w.map.height())
        .flat_map(|fy| (0..w.map.width()).map(move |fx| (fx, fy)))
        .filter(|&(fx, fy)| fx.abs_diff(da[0]).max(fy.abs_diff(da[1])) > max + 2)
        .find_map(|(fx, fy)| {
            let fz = u32::from(w.map.terrain_height(fx, fy));
            w.check_placement(
                prefab,
                fx.into(),
                fy.into(),
                fz.into(),
                crate::colony::Orientation::South,
            )
            .ok()
            .map(|_| (fx, fy, fz))
        })
        .expect("room for a far pylon");
    let far = build(&mut w, prefab, far.0, far.1, far.2, "south");
    let before = w.state_hash();
    let e = w.zipline_connect(a, far).expect_err("too long");
    assert_eq!(e.code, ErrorCode::InvalidParam);
    assert!(e.detail.contains("at most"), "{}", e.detail);
    // A line through another tower: pylons two tiles apart with a third between them.
    build(&mut w, prefab, x - 1, y, z, "south");
    let other = build(&mut w, prefab, x - 2, y, z, "south");
    let before_blocked = w.state_hash();
    let e = w.zipline_connect(site, other).expect_err("blocked");
    assert!(e.detail.contains("blocked"), "{}", e.detail);
    assert_eq!(w.state_hash(), before_blocked);
    let _ = before;
}

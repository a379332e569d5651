//! Tests of path routing and placement on walled test fields (flat ground of a chosen height,
//! cleared of plants, ruins and water, ringed by terrain four levels higher so no route leaves it)
//! and on the generated map.

use super::*;
use crate::colony::geometry::doorstep;
use crate::config::NewGame;
use crate::world::World;

/// Field size (inside the wall).
const FW: u32 = 20;
const FH: u32 = 12;

fn world() -> World {
    World::new(&NewGame {
        seed: 7,
        map_width: 64,
        map_height: 64,
        ..NewGame::default()
    })
}

/// Sets a tile's terrain height and clears what stands or flows on it.
fn set_tile(w: &mut World, x: u32, y: u32, h: u8) {
    w.map.set_terrain_height(x, y, h).unwrap();
    let i = w.land.idx(x, y);
    if let Some(id) = w.land.occupant[i]
        && w.land.remove_plant(id).is_none()
    {
        w.land.ruins.remove(&id);
        w.land.occupant[i] = None;
    }
    w.land.water.depth[i] = 0.0;
    w.land.water.bad[i] = 0.0;
}

/// A world with a walled field at height `h` away from the district center; returns the
/// field's bottom-left tile.
fn field(h: u8) -> (World, u32, u32) {
    field_in(world(), h)
}

/// `field` in a given world.
fn field_in(mut w: World, h: u8) -> (World, u32, u32) {
    let (sx, sy, _) = w.map.start_spot();
    let x0 = if sx < 32 { 38 } else { 4 };
    let y0 = if sy < 32 { 44 } else { 6 };
    for y in y0 - 1..=y0 + FH {
        for x in x0 - 1..=x0 + FW {
            let ring = x == x0 - 1 || y == y0 - 1 || x == x0 + FW || y == y0 + FH;
            set_tile(&mut w, x, y, if ring { h + 4 } else { h });
            for z in 0..32 {
                assert!(
                    !w.colony.blocks.contains_key(&voxel(x, y, z)),
                    "a building in the field"
                );
            }
        }
    }
    (w, x0, y0)
}

/// Sets the interior of the field from column `x` eastwards to height `h`.
fn raise_from(w: &mut World, x0: u32, y0: u32, x: u32, h: u8) {
    for y in y0..y0 + FH {
        for tx in x..x0 + FW {
            set_tile(w, tx, y, h);
        }
    }
}

fn route(w: &mut World, a: (u32, u32), b: (u32, u32), style: &str, sections: u32) -> PathRoute {
    w.place_path(
        a.0.into(),
        a.1.into(),
        b.0.into(),
        b.1.into(),
        style,
        sections,
    )
    .unwrap()
}

/// The prefab and orientation of the block at a voxel.
fn block(w: &World, x: u32, y: u32, z: u32) -> Option<(String, Orientation)> {
    let id = w.colony.blocks.get(&voxel(x, y, z))?;
    let b = &w.colony.buildings[id];
    Some((b.prefab.to_string(), b.orientation))
}

fn is_path(w: &World, x: u32, y: u32, z: u32) -> bool {
    block(w, x, y, z).is_some_and(|(p, _)| p == "Path")
}

fn unlock_stairs(w: &mut World) {
    w.add_science(70);
    w.unlock("Stairs.Folktails").unwrap();
}

fn plan(w: &World, a: (u32, u32), b: (u32, u32), style: &str) -> PathPlan {
    w.path_snapshot(a.0.into(), a.1.into(), b.0.into(), b.1.into(), style, 0)
        .unwrap()
        .graph()
        .search()
}

fn turns(steps: &[PathStep]) -> usize {
    steps
        .windows(3)
        .filter(|s| {
            let d1 = (s[1].x as i64 - s[0].x as i64, s[1].y as i64 - s[0].y as i64);
            let d2 = (s[2].x as i64 - s[1].x as i64, s[2].y as i64 - s[1].y as i64);
            d1 != d2
        })
        .count()
}

#[test]
fn a_straight_path_on_flat_ground() {
    let (mut w, x0, y0) = field(5);
    let r = route(&mut w, (x0 + 2, y0 + 3), (x0 + 12, y0 + 3), "direct", 0);
    assert_eq!((r.paths, r.stairs, r.platforms, r.skipped), (11, 0, 0, 0));
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.stopped_at, None);
    assert_eq!((r.path_nodes, r.placements_attempted), (11, 11));
    assert!(r.graph_nodes as usize >= (FW * FH) as usize);
    for x in x0 + 2..=x0 + 12 {
        assert!(is_path(&w, x, y0 + 3, 5), "({x}, {})", y0 + 3);
    }
    // One tile: a path on it.
    let r = route(&mut w, (x0 + 2, y0 + 6), (x0 + 2, y0 + 6), "direct", 0);
    assert_eq!((r.paths, r.path_nodes), (1, 1));
}

#[test]
fn a_path_goes_around_a_building() {
    let (mut w, x0, y0) = field(5);
    let pile = w
        .place_building(
            "LargePile.Folktails",
            (x0 + 6).into(),
            (y0 + 2).into(),
            5,
            "south",
        )
        .unwrap();
    let r = route(&mut w, (x0 + 2, y0 + 3), (x0 + 12, y0 + 3), "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.paths, 15, "around the 3x3 pile: four tiles longer");
    for y in y0 + 2..y0 + 5 {
        for x in x0 + 6..x0 + 9 {
            assert_eq!(w.colony.blocks.get(&voxel(x, y, 5)), Some(&pile));
        }
    }
    assert!(is_path(&w, x0 + 12, y0 + 3, 5));
}

#[test]
fn living_plants_ruins_and_water_are_avoided_and_stumps_cleared() {
    let (mut w, x0, y0) = field(5);
    let y = y0 + 3;
    // A living tree, a dead stump, a ruin and a pool on the straight line.
    let tree = w.land.plants.iter().next().map(|(id, _)| *id).unwrap();
    let mut stump = w.land.plants[&tree].clone();
    let mut live = stump.clone();
    live.x = x0 + 4;
    live.y = y;
    live.z = 5;
    live.alive = true;
    stump.x = x0 + 5;
    stump.y = y;
    stump.z = 5;
    stump.alive = false;
    for p in [live, stump] {
        let id = w.land.ids.next_id();
        let i = w.land.idx(p.x, p.y);
        w.land.plants.insert(id, p);
        w.land.occupant[i] = Some(id);
    }
    w.land.add_ruin(x0 + 7, y, 5, 10);
    let i = w.land.idx(x0 + 9, y);
    w.land.water.depth[i] = 1.0;
    let r = route(&mut w, (x0 + 2, y), (x0 + 12, y), "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    for x in [x0 + 4, x0 + 7, x0 + 9] {
        assert!(!is_path(&w, x, y, 5), "({x}, {y}) should be avoided");
    }
    // Ending on the stump: the path clears it.
    let r = route(&mut w, (x0 + 5, y0 + 8), (x0 + 5, y), "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert!(is_path(&w, x0 + 5, y, 5));
    assert_eq!(
        w.land.occupant[w.land.idx(x0 + 5, y)],
        None,
        "the stump was cleared"
    );
}

#[test]
fn existing_paths_are_reused_and_not_placed_again() {
    let (mut w, x0, y0) = field(5);
    let first = route(&mut w, (x0 + 2, y0 + 3), (x0 + 12, y0 + 3), "direct", 0);
    assert_eq!(first.paths, 11);
    let blocks = w.colony.buildings.len();
    let again = route(&mut w, (x0 + 2, y0 + 3), (x0 + 12, y0 + 3), "direct", 0);
    assert_eq!(
        (again.paths, again.skipped, again.placements_attempted),
        (0, 0, 0)
    );
    assert_eq!(again.path_nodes, 11);
    assert!(again.errors.is_empty());
    assert_eq!(w.colony.buildings.len(), blocks);
    // Extending reuses the old stretch: only the new tiles are placed.
    let longer = route(&mut w, (x0 + 2, y0 + 3), (x0 + 15, y0 + 3), "direct", 0);
    assert_eq!(longer.paths, 3);
    // A route that could cut a corner prefers the existing path when it costs fewer new tiles.
    let bend = route(&mut w, (x0 + 2, y0 + 6), (x0 + 15, y0 + 4), "direct", 0);
    assert!(
        bend.paths < 13,
        "joins the existing path instead of laying a parallel one: {bend:?}"
    );
}

#[test]
fn a_straight_route_beside_a_parallel_path_goes_straight() {
    let (mut w, x0, y0) = field(5);
    // An existing street on row 3, and a street asked for on row 5, two rows beside it.
    route(&mut w, (x0 + 1, y0 + 3), (x0 + 16, y0 + 3), "direct", 0);
    let (a, b) = ((x0 + 2, y0 + 5), (x0 + 15, y0 + 5));
    // The direct style bends onto the existing street (reuse is nearly free)...
    let direct = plan(&w, a, b, "direct");
    assert!(
        direct.steps.iter().any(|s| s.y != y0 + 5),
        "direct bends toward the network: {:?}",
        direct.steps
    );
    // ...the straight one draws the street asked for.
    let r = route(&mut w, a, b, "straight", 0);
    assert_eq!((r.paths, r.path_nodes, r.skipped), (14, 14, 0), "{r:?}");
    for x in a.0..=b.0 {
        assert!(is_path(&w, x, y0 + 5, 5), "({x}, {})", y0 + 5);
    }
    // Crossing the existing street, its tile is reused, not placed twice.
    let cross = route(&mut w, (x0 + 8, y0 + 1), (x0 + 8, y0 + 7), "straight", 0);
    assert_eq!((cross.path_nodes, cross.paths), (7, 5), "{cross:?}");
    for y in y0 + 1..=y0 + 7 {
        assert!(is_path(&w, x0 + 8, y, 5), "({}, {y})", x0 + 8);
    }
}

/// The edges worked out on demand: the up edges among them are the connectors the graph counts,
/// and every edge is one `Nav` walks (a level step, up stairs from behind, down onto stairs).
#[test]
fn edges_on_demand_agree_with_the_connector_count() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 6);
    unlock_stairs(&mut w);
    let (a, b) = (
        (i64::from(x0) + 2, i64::from(y0) + 5),
        (i64::from(x0) + 15, i64::from(y0) + 5),
    );
    let g = w
        .path_snapshot(a.0, a.1, b.0, b.1, "direct", 0)
        .unwrap()
        .graph();
    let (mut up, mut level, mut down) = (0u32, 0u32, 0u32);
    for u in 0..g.nodes.len() {
        g.neighbours(u, |v, _| {
            let (zu, zv) = (g.nodes[u].z, g.nodes[v].z);
            match zv.cmp(&zu) {
                std::cmp::Ordering::Greater => {
                    assert_eq!(zv, zu + 1);
                    assert!(g.nodes[u].role.stairs().is_some(), "up only by stairs");
                    up += 1;
                }
                std::cmp::Ordering::Equal => level += 1,
                std::cmp::Ordering::Less => {
                    assert!(g.nodes[v].role.stairs().is_some(), "down onto stairs");
                    down += 1;
                }
            }
        });
    }
    assert!(up > 0 && level > 0 && down > 0, "{up} {level} {down}");
    assert_eq!(g.connector_edges(), up);
}

#[test]
fn stairs_climb_a_one_level_step_when_unlocked() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 6);
    unlock_stairs(&mut w);
    let (a, b) = ((x0 + 2, y0 + 5), (x0 + 15, y0 + 5));
    let r = route(&mut w, a, b, "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!((r.paths, r.stairs, r.skipped), (13, 1, 0));
    assert!(r.connector_edges > 0);
    // On the lower tile, its front facing away from the higher tile.
    assert_eq!(
        block(&w, x0 + 9, y0 + 5, 5),
        Some(("Stairs.Folktails".to_owned(), Orientation::West))
    );
    assert!(
        block(&w, x0 + 9, y0 + 5, 6).is_some(),
        "stairs are two voxels tall"
    );
    assert!(is_path(&w, x0 + 10, y0 + 5, 6));
    let (va, vb) = (voxel(a.0, a.1, 5), voxel(b.0, b.1, 6));
    assert!(
        w.colony.nav().distance(va, vb).is_some(),
        "walkable end to end"
    );

    // Downhill the stairs face the same way.
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 6);
    unlock_stairs(&mut w);
    let r = route(&mut w, (x0 + 15, y0 + 5), (x0 + 2, y0 + 5), "direct", 0);
    assert_eq!((r.paths, r.stairs), (13, 1));
    assert_eq!(
        block(&w, x0 + 9, y0 + 5, 5),
        Some(("Stairs.Folktails".to_owned(), Orientation::West))
    );
}

#[test]
fn a_slope_of_one_level_per_tile_takes_a_flight_of_stairs() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 8, 6);
    raise_from(&mut w, x0, y0, x0 + 9, 7);
    raise_from(&mut w, x0, y0, x0 + 10, 8);
    unlock_stairs(&mut w);
    let (a, b) = ((x0 + 2, y0 + 5), (x0 + 14, y0 + 5));
    let r = route(&mut w, a, b, "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.stairs, 3);
    for (x, z) in [(x0 + 7, 5), (x0 + 8, 6), (x0 + 9, 7)] {
        assert_eq!(
            block(&w, x, y0 + 5, z),
            Some(("Stairs.Folktails".to_owned(), Orientation::West)),
            "({x}, {z})"
        );
    }
    let (va, vb) = (voxel(a.0, a.1, 5), voxel(b.0, b.1, 8));
    assert_eq!(w.colony.nav().distance(va, vb), Some(12));
}

fn unlock_platforms(w: &mut World) {
    w.add_science(100);
    w.unlock("Platform.Folktails").unwrap();
}

#[test]
fn a_two_level_step_is_climbed_on_platforms() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 7);
    unlock_stairs(&mut w);
    unlock_platforms(&mut w);
    let (a, b) = ((x0 + 2, y0 + 5), (x0 + 15, y0 + 5));
    let r = route(&mut w, a, b, "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!((r.stairs, r.platforms, r.skipped), (2, 1, 0), "{r:?}");
    // A flight: stairs on the ground, then stairs on a platform up to the top.
    let y = y0 + 5;
    assert_eq!(
        block(&w, x0 + 8, y, 5),
        Some(("Stairs.Folktails".to_owned(), Orientation::West))
    );
    assert_eq!(block(&w, x0 + 9, y, 5).unwrap().0, "Platform.Folktails");
    assert_eq!(
        block(&w, x0 + 9, y, 6),
        Some(("Stairs.Folktails".to_owned(), Orientation::West))
    );
    assert!(is_path(&w, x0 + 10, y, 7));
    let (va, vb) = (voxel(a.0, a.1, 5), voxel(b.0, b.1, 7));
    assert!(
        w.colony.nav().distance(va, vb).is_some(),
        "walkable end to end"
    );
}

#[test]
fn steps_of_more_levels_than_platforms_lift_are_impassable() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 5 + MAX_LIFT as u8 + 2);
    unlock_stairs(&mut w);
    unlock_platforms(&mut w);
    let r = route(&mut w, (x0 + 2, y0 + 5), (x0 + 15, y0 + 5), "direct", 0);
    assert_eq!((r.paths, r.stairs, r.platforms), (0, 0, 0));
    assert!(r.errors[0].error.starts_with("no_route:"), "{:?}", r.errors);
}

#[test]
fn locked_platforms_stop_the_route_at_the_first_one() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 7);
    unlock_stairs(&mut w);
    let r = route(&mut w, (x0 + 2, y0 + 5), (x0 + 15, y0 + 5), "direct", 0);
    assert_eq!((r.stairs, r.platforms), (1, 0), "{r:?}");
    let e = r.errors.last().unwrap();
    assert_eq!(e.prefab.as_deref(), Some("Platform.Folktails"));
    assert!(e.error.starts_with("not_unlocked: "), "{}", e.error);
    assert_eq!(r.stopped_at, Some((x0 + 8, y0 + 5)), "at the stairs");
}

#[test]
fn a_route_never_puts_two_things_on_one_tile() {
    // Seed 7's default map. Before the map generator's start area moved downstream (issue 15),
    // the route (35, 88)->(38, 88) here planned stairs and a path on one tile; the routes below
    // include such repairs (`repaired`).
    let mut w = World::new(&NewGame {
        seed: 7,
        ..NewGame::default()
    });
    unlock_stairs(&mut w);
    unlock_platforms(&mut w);
    // Many routes on the generated map: every planned route can be placed whole.
    let (mw, mh) = (w.map.width() as i64, w.map.height() as i64);
    let mut lcg = crate::testutil::lcg(12345);
    let mut next = |n: i64| lcg(n as usize) as i64;
    let (mut routed, mut repaired) = (0, 0);
    for _ in 0..60 {
        let (x1, y1) = (next(mw), next(mh));
        let (x2, y2) = (
            (x1 + next(30) - 15).clamp(0, mw - 1),
            (y1 + next(30) - 15).clamp(0, mh - 1),
        );
        let plan = w
            .path_snapshot(x1, y1, x2, y2, "direct", 0)
            .unwrap()
            .graph()
            .search();
        let mut tiles = std::collections::BTreeSet::new();
        for s in plan.steps.iter().filter(|s| !s.existing) {
            assert!(
                tiles.insert((s.x, s.y)),
                "({x1},{y1})->({x2},{y2}) twice on ({}, {})",
                s.x,
                s.y
            );
        }
        let r = w.apply_path_plan(&plan);
        repaired += usize::from(plan.searches > 1);
        routed += usize::from(!plan.steps.is_empty());
        assert_eq!(r.skipped, 0, "({x1},{y1})->({x2},{y2}): {r:?}");
    }
    assert!(routed > 20, "only {routed} of 60 routes found");
    assert!(repaired > 0, "no route needed a repair");
}

#[test]
fn locked_stairs_stop_the_route_at_the_step() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 10, 6);
    let r = route(&mut w, (x0 + 2, y0 + 5), (x0 + 15, y0 + 5), "direct", 0);
    assert_eq!((r.paths, r.stairs), (7, 0), "paths up to the step");
    assert_eq!(r.stopped_at, Some((x0 + 8, y0 + 5)));
    let e = r.errors.last().unwrap();
    assert_eq!(e.prefab.as_deref(), Some("Stairs.Folktails"));
    assert!(e.error.starts_with("not_unlocked: "), "{}", e.error);
    assert!(block(&w, x0 + 9, y0 + 5, 5).is_none());

    // A flat detour is taken rather than locked stairs.
    let (mut w, x0, y0) = field(5);
    for y in y0..y0 + FH - 2 {
        set_tile(&mut w, x0 + 10, y, 6);
    }
    let r = route(&mut w, (x0 + 2, y0 + 5), (x0 + 15, y0 + 5), "direct", 0);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.stairs, 0);
    assert!(is_path(&w, x0 + 10, y0 + FH - 2, 5) || is_path(&w, x0 + 10, y0 + FH - 1, 5));
}

#[test]
fn sections_stop_at_the_landing_after_n_crossings() {
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 8, 6);
    raise_from(&mut w, x0, y0, x0 + 14, 7);
    unlock_stairs(&mut w);
    let y = y0 + 5;
    let r = route(&mut w, (x0 + 2, y), (x0 + 18, y), "direct", 1);
    assert_eq!(r.stairs, 1);
    assert_eq!(
        r.stopped_at,
        Some((x0 + 8, y)),
        "the landing above the first stairs"
    );
    assert!(is_path(&w, x0 + 8, y, 6));
    assert!(!is_path(&w, x0 + 9, y, 6));
    let rest = route(&mut w, (x0 + 8, y), (x0 + 18, y), "direct", 0);
    assert_eq!((rest.stairs, rest.stopped_at), (1, None));
    assert!(is_path(&w, x0 + 18, y, 7));
    // Unlimited: both crossings at once.
    let (mut w, x0, y0) = field(5);
    raise_from(&mut w, x0, y0, x0 + 8, 6);
    raise_from(&mut w, x0, y0, x0 + 14, 7);
    unlock_stairs(&mut w);
    let r = route(&mut w, (x0 + 2, y), (x0 + 18, y), "direct", 0);
    assert_eq!((r.stairs, r.stopped_at), (2, None));
}

#[test]
fn no_route_places_nothing_and_says_why() {
    let (mut w, x0, y0) = field(5);
    for y in y0..y0 + FH {
        set_tile(&mut w, x0 + 10, y, 9);
    }
    let before = w.colony.buildings.len();
    let r = route(&mut w, (x0 + 2, y0 + 5), (x0 + 15, y0 + 5), "direct", 0);
    assert_eq!((r.paths, r.stairs, r.path_nodes), (0, 0, 0));
    assert_eq!(r.errors.len(), 1);
    assert!(
        r.errors[0].error.starts_with("no_route: "),
        "{:?}",
        r.errors
    );
    assert_eq!(r.errors[0].prefab, None);
    assert_eq!(w.colony.buildings.len(), before);

    // An end under water cannot hold a path.
    let i = w.land.idx(x0 + 4, y0 + 5);
    w.land.water.depth[i] = 1.0;
    let r = route(&mut w, (x0 + 2, y0 + 5), (x0 + 4, y0 + 5), "direct", 0);
    assert_eq!(r.paths, 0);
    assert_eq!(r.errors[0].prefab.as_deref(), Some("Path"));
    assert!(
        r.errors[0].error.contains("cannot hold a path") && r.errors[0].error.contains("water"),
        "{:?}",
        r.errors
    );
}

#[test]
fn routing_is_deterministic_and_straight_turns_once() {
    let (a, b) = ((2, 2), (12, 9));
    let run = |style: &str| {
        let (mut w, x0, y0) = field(5);
        let (a, b) = ((x0 + a.0, y0 + a.1), (x0 + b.0, y0 + b.1));
        let p = plan(&w, a, b, style);
        let r = route(&mut w, a, b, style, 0);
        (p.steps, r, w.state_hash())
    };
    let (s1, r1, h1) = run("direct");
    let (s2, r2, h2) = run("direct");
    assert_eq!((&s1, &r1, h1), (&s2, &r2, h2));
    assert_eq!(
        s1.len(),
        18,
        "a shortest route: Manhattan distance + 1 tiles"
    );
    let (st, rt, _) = run("Straight");
    assert_eq!(st.len(), 18);
    assert_eq!(turns(&st), 1, "straight style: one turn");
    assert_eq!(rt.paths, 18);
}

#[test]
fn bad_input_is_refused_with_the_value() {
    let mut w = world();
    for (x1, y1, x2, y2, got) in [(-1, 0, 5, 5, -1), (0, 0, 64, 5, 64), (0, 70, 5, 5, 70)] {
        let e = w.place_path(x1, y1, x2, y2, "direct", 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam);
        assert_eq!(e.extras["got"], got);
        assert!(e.detail.contains("off the 64x64 map"), "{}", e.detail);
    }
    let e = w.place_path(0, 0, 5, 5, "zigzag", 0).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParam);
    assert!(e.detail.contains("direct or straight"), "{}", e.detail);
    assert_eq!(e.extras["got"], "zigzag");
}

#[test]
fn the_snapshot_agrees_with_the_placement_rules() {
    let mut w = world();
    unlock_stairs(&mut w);
    let snap = w.path_snapshot(0, 0, 63, 63, "direct", 0).unwrap();
    assert_eq!((snap.w, snap.h), (64, 64));
    for y in 0..64u32 {
        for x in 0..64u32 {
            let z = i64::from(w.map.terrain_height(x, y));
            let f = snap.clear[(y * 64 + x) as usize];
            let path = w
                .check_placement("Path", x.into(), y.into(), z, Orientation::South)
                .is_ok();
            let stairs = w
                .check_placement(
                    "Stairs.Folktails",
                    x.into(),
                    y.into(),
                    z,
                    Orientation::South,
                )
                .is_ok();
            assert_eq!((f >= 1, f >= 2), (path, stairs), "({x}, {y})");
        }
    }
}

#[test]
fn a_path_from_the_district_center_makes_a_building_reachable() {
    let mut w = world();
    let dc = *w.colony.districts.keys().next().unwrap();
    let door = w.colony.door(dc).unwrap();
    // A lodge some way off, on the center's level, whose doorstep is free ground.
    let spec = &crate::content::content().buildings["Lodge.Folktails"];
    let mut lodge = None;
    'find: for r in 3..20i64 {
        for dy in -r..=r {
            for dx in -r..=r {
                let (x, y) = (i64::from(door[0]) + dx, i64::from(door[1]) + dy);
                if !w.map.contains(x, y) || dx.abs().max(dy.abs()) != r {
                    continue;
                }
                let z = i64::from(w.map.terrain_height(x as u32, y as u32));
                if z != i64::from(door[2]) {
                    continue;
                }
                if let Ok(p) = w.check_placement("Lodge.Folktails", x, y, z, Orientation::South)
                    && doorstep(spec, x, y, Orientation::South).is_some_and(|(ex, ey)| {
                        w.check_placement("Path", ex, ey, z, Orientation::South)
                            .is_ok()
                    })
                {
                    lodge = Some(w.apply_placement(p));
                    break 'find;
                }
            }
        }
    }
    let lodge = lodge.expect("a spot for a lodge");
    assert!(!w.building_view(lodge).unwrap().reachable);
    let ld = w.colony.door(lodge).unwrap();
    let r = w
        .place_path(
            door[0].into(),
            door[1].into(),
            ld[0].into(),
            ld[1].into(),
            "direct",
            0,
        )
        .unwrap();
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert!(r.paths > 0);
    assert!(w.building_view(lodge).unwrap().reachable);
}

#[test]
#[ignore = "timing probe"]
fn timing_probe() {
    let mut w = World::new(&NewGame {
        seed: 3,
        map_width: 256,
        map_height: 256,
        ..NewGame::default()
    });
    unlock_stairs(&mut w);
    let dc = *w.colony.districts.keys().next().unwrap();
    let door = w.colony.door(dc).unwrap();
    for (gx, gy, style) in [
        (10i64, 10i64, "direct"),
        (245, 240, "straight"),
        (200, 30, "direct"),
    ] {
        let t0 = std::time::Instant::now();
        let snap = w
            .path_snapshot(door[0].into(), door[1].into(), gx, gy, style, 0)
            .unwrap();
        let t1 = std::time::Instant::now();
        let g = snap.graph();
        let t2 = std::time::Instant::now();
        let p = g.search();
        let t3 = std::time::Instant::now();
        let r = w.apply_path_plan(&p);
        let t4 = std::time::Instant::now();
        eprintln!(
            "to ({gx},{gy}) {style}: snap {:?} graph {:?} astar {:?} place {:?}; nodes {} explored {} steps {} paths {} stairs {} skipped {} errors {:?}",
            t1 - t0,
            t2 - t1,
            t3 - t2,
            t4 - t3,
            r.graph_nodes,
            r.explored,
            r.path_nodes,
            r.paths,
            r.stairs,
            r.skipped,
            r.errors
        );
    }
}

/// Issue 38: a ridge splits the field in two; a tunnel cut through it at the field's level joins
/// the halves: the walking graph walks through it once it is finished, and the path search
/// routes through it (no stairs, no climb).
#[test]
fn a_tunnel_joins_two_areas_split_by_a_ridge() {
    let (mut w, x0, y0) = field(5);
    let ridge = x0 + 10;
    for y in y0..y0 + FH {
        set_tile(&mut w, ridge, y, 9);
    }
    let (west, east) = ((x0 + 7, y0 + 5), (x0 + 13, y0 + 5));
    let (vw, ve) = (voxel(west.0, west.1, 5), voxel(east.0, east.1, 5));
    // On the surface a tunnel is refused: it goes inside the ground.
    let prefab = "Tunnel.Folktails";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    let e = w
        .check_placement(
            prefab,
            (x0 + 3).into(),
            (y0 + 3).into(),
            5,
            Orientation::South,
        )
        .expect_err("not on the surface");
    assert!(e.detail.contains("inside the ground"), "{}", e.detail);
    let site = w
        .place_building(prefab, ridge.into(), (y0 + 5).into(), 5, "south")
        .expect("a tunnel inside the ridge");
    for (x, y) in [west, east] {
        w.place_building("Path", x.into(), y.into(), 5, "south")
            .unwrap();
    }
    let r = route(&mut w, west, east, "direct", 0);
    assert_eq!((r.stairs, r.skipped), (0, 0), "{r:?}");
    assert!(is_path(&w, ridge - 1, y0 + 5, 5) && is_path(&w, ridge + 1, y0 + 5, 5));
    assert_eq!(
        w.colony.nav().distance(vw, ve),
        None,
        "a tunnel still a site is not walked through"
    );
    w.finish_building(site);
    assert_eq!(w.colony.nav().distance(vw, ve), Some(east.0 - west.0));
    // Demolished, the halves are apart again.
    w.remove_building(site).unwrap();
    assert_eq!(w.colony.nav().distance(vw, ve), None);
}

/// Issue 38: the path search routes over existing tubeways (they are walkways: nothing is placed
/// on them) and the walking graph counts a tube step as a quarter of a tile
/// (`movement.tubewayEdgeCost`, the catalogue's 4x tubeway multiplier).
#[test]
fn the_path_search_reuses_tubeways_and_the_graph_counts_them_at_a_quarter() {
    let w = World::new(&NewGame {
        seed: 7,
        map_width: 64,
        map_height: 64,
        faction: crate::config::Faction::IronTeeth,
        ..NewGame::default()
    });
    let (mut w, x0, y0) = field_in(w, 5);
    let prefab = "Tubeway.IronTeeth";
    w.add_science(crate::colony::building::spec(prefab).science_cost);
    w.unlock(prefab).unwrap();
    let y = y0 + 5;
    for x in x0 + 4..=x0 + 8 {
        w.place_building(prefab, x.into(), y.into(), 5, "south")
            .unwrap();
    }
    let r = route(&mut w, (x0 + 2, y), (x0 + 10, y), "direct", 0);
    assert_eq!((r.paths, r.stairs, r.skipped), (4, 0, 0), "{r:?}");
    // Four tile steps on paths and onto or off the tube, four tube steps at a quarter.
    let quarter = crate::colony::rules::colony_rules()
        .movement
        .tubeway_edge_cost
        .value;
    assert!((quarter - 1.0 / 4.0).abs() < 1e-9, "4x: {quarter}");
    assert_eq!(
        w.colony
            .nav()
            .distance(voxel(x0 + 2, y, 5), voxel(x0 + 10, y, 5)),
        Some(5)
    );
}

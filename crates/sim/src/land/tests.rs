//! Scenario and property tests of the land systems through the world.

use crate::catalog::{PlantKind, world_rules};
use crate::config::{GameMode, NewGame};
use crate::error::ErrorCode;
use crate::event::names;
use crate::weather::HazardKind;
use crate::world::World;

const DAY: u64 = 768;

fn world(seed: u64, size: u32) -> World {
    World::new(&NewGame {
        seed,
        map_width: size,
        map_height: size,
        ..NewGame::default()
    })
}

fn balance_error(w: &World) -> (f64, f64) {
    let t = w.water_totals();
    let expect = t.initial + t.added - t.evaporated - t.edge_lost - t.pumped;
    ((w.water_stored() - expect).abs(), t.initial + t.added)
}

/// Moves the first hazard to the dawn of day 2, with the given kind and length.
fn hazard_tomorrow(w: &mut World, kind: HazardKind, days: u32) {
    w.weather.temperate_days = 1;
    w.weather.hazard = kind;
    w.weather.hazardous_days = days;
}

#[test]
fn depths_stay_non_negative_and_the_balance_closes_on_random_worlds() {
    for seed in [1u64, 2, 3, 4] {
        let mut w = world(seed, 48);
        // Random barriers across the river.
        let mut rng = crate::rng::WorldRng::new(seed, 99);
        for _ in 0..20 {
            let (x, y) = (rng.range_u32(0, 47), rng.range_u32(0, 47));
            let h = rng.range_f64(2.0, 6.0) as f32;
            w.set_water_barrier(i64::from(x), i64::from(y), Some(h))
                .unwrap();
        }
        for day in 0..6 {
            w.advance_ticks(DAY / 2);
            if day == 3 {
                hazard_tomorrow(&mut w, HazardKind::Badtide, 2);
            }
            w.advance_ticks(DAY / 2);
            assert!(
                w.land
                    .water
                    .depth
                    .iter()
                    .all(|d| *d >= 0.0 && d.is_finite())
            );
            assert!(w.land.water.bad.iter().all(|d| *d >= 0.0 && d.is_finite()));
            let (err, through) = balance_error(&w);
            assert!(
                err <= 1e-4 * through.max(1.0),
                "seed {seed} day {day}: off by {err} of {through}"
            );
        }
    }
}

#[test]
fn a_drought_lowers_the_river_and_shallow_tiles_dry_out() {
    let mut w = world(7, 64);
    w.advance_ticks(DAY);
    let wet = |w: &World| w.land.water.depth.iter().filter(|d| **d > 0.0).count();
    let (stored, wet_before) = (w.water_stored(), wet(&w));
    hazard_tomorrow(&mut w, HazardKind::Drought, 4);
    w.weather.start_day = w.day() - 1;
    w.advance_ticks(3 * DAY);
    assert!(w.weather().is_hazardous);
    assert!(
        w.water_stored() < 0.5 * stored,
        "{} vs {stored}",
        w.water_stored()
    );
    assert!(wet(&w) < wet_before, "{} vs {wet_before}", wet(&w));
}

#[test]
fn a_badtide_fouls_downstream_water_and_then_soil() {
    let mut w = world(11, 64);
    w.advance_ticks(DAY / 2);
    assert_eq!(w.badwater_stored(), 0.0);
    hazard_tomorrow(&mut w, HazardKind::Badtide, 5);
    w.weather.start_day = w.day();
    w.advance_ticks(3 * DAY);
    assert!(w.weather().is_hazardous);
    // Downstream river tiles (the far half) carry badwater.
    let river = w.map.river().clone();
    let along = river.spans.len();
    let mut shares = Vec::new();
    for t in along / 2..along {
        let [lo, hi] = river.spans[t];
        let mid = (lo + hi) / 2;
        let (x, y) = match river.axis {
            crate::map::RiverAxis::AlongX => (t as u32, mid),
            crate::map::RiverAxis::AlongY => (mid, t as u32),
        };
        if w.water_depth(x, y) > 0.05 {
            shares.push(w.badwater_share(x, y));
        }
    }
    assert!(!shares.is_empty());
    assert!(shares.iter().all(|s| *s > 0.4), "{shares:?}");
    let contaminated = (0..64)
        .flat_map(|y| (0..64).map(move |x| (x, y)))
        .filter(|(x, y)| w.is_contaminated(*x, *y))
        .count();
    assert!(contaminated > 20, "{contaminated} contaminated tiles");
    assert!(
        w.take_events()
            .iter()
            .any(|e| e.name == names::CONTAMINATION_CHANGED)
    );
}

#[test]
fn moist_tiles_lie_near_water_and_dry_when_it_leaves() {
    let mut w = world(5, 64);
    w.advance_ticks(DAY);
    let range = crate::catalog::world_rules()
        .irrigation
        .practical_range_tiles
        .value as i64
        + 1;
    let wet: Vec<(i64, i64)> = (0..64i64)
        .flat_map(|y| (0..64i64).map(move |x| (x, y)))
        .filter(|(x, y)| w.water_depth(*x as u32, *y as u32) >= 0.05)
        .collect();
    let mut moist = 0;
    for y in 0..64i64 {
        for x in 0..64i64 {
            if w.is_moist(x as u32, y as u32) {
                moist += 1;
                assert!(
                    wet.iter()
                        .any(|(wx, wy)| (wx - x).abs().max((wy - y).abs()) <= range),
                    "({x},{y}) moist far from water"
                );
            }
        }
    }
    assert!(moist > 50, "{moist} moist tiles");
    // Take the water away.
    w.land.water.sources.clear();
    w.land.water.depth.fill(0.0);
    w.land.water.bad.fill(0.0);
    w.land.water.fx.fill(0.0);
    w.land.water.fy.fill(0.0);
    w.land.water.refresh_spans();
    w.advance_ticks(32);
    assert!((0..64).all(|y| (0..64).all(|x| !w.is_moist(x, y))));
}

#[test]
fn a_tree_on_dry_land_dies_after_its_days_and_leaves_a_stump() {
    let mut w = world(3, 64);
    let (x, y) = (0..64u32)
        .flat_map(|y| (0..64u32).map(move |x| (x, y)))
        .find(|&(x, y)| {
            let i = w.land.idx(x, y);
            w.land.soil.moisture[i] == 0 && w.land.occupant[i].is_none() && !w.land.is_water(i)
        })
        .expect("dry land");
    let id = w.plant(i64::from(x), i64::from(y), "Birch").unwrap();
    let days = 11.0; // Birch daysToDieDry
    w.advance_ticks((days * 0.85 * DAY as f64) as u64);
    let t = w.plant_by_id(id).unwrap();
    assert!(t.alive && t.growth == 0.0, "no growth while dry: {t:?}");
    w.advance_ticks((days * 0.3 * DAY as f64) as u64);
    let t = w.plant_by_id(id).unwrap();
    assert!(!t.alive, "dead after its dry days");
    let tiles = w
        .tiles(i64::from(x), i64::from(y), i64::from(x), i64::from(y))
        .unwrap();
    assert!(tiles.tiles[0].dead);
    assert_eq!(tiles.tiles[0].occupants[0].name, "Birch");
    assert!(w.trees().iter().any(|p| p.id == id && !p.alive));
    w.remove_stump(id).unwrap();
    assert!(w.plant_by_id(id).is_none());
}

#[test]
fn trees_grow_where_moist_and_forests_spread() {
    let mut w = world(8, 96);
    let before = w.trees().len();
    let grown_before = w.trees().iter().filter(|t| t.grown).count();
    w.advance_ticks(20 * DAY);
    let trees = w.trees();
    assert!(trees.iter().filter(|t| t.grown).count() > grown_before);
    assert!(
        trees.len() > before,
        "no spreading: {} vs {before}",
        trees.len()
    );
}

#[test]
fn generated_land_has_sources_forests_bushes_ruins_and_a_clear_start() {
    let w = world(21, 128);
    let sources = w.water_sources();
    assert!(sources.iter().filter(|s| !s.badwater).count() >= 2);
    assert_eq!(sources.iter().filter(|s| s.badwater).count(), 1);
    let species: std::collections::BTreeSet<String> =
        w.trees().into_iter().map(|t| t.name).collect();
    assert!(species.len() >= 2, "{species:?}");
    assert!(w.gatherables().len() > 10);
    assert!(w.gatherables().iter().all(|g| g.name == "BlueberryBush"));
    assert!(!w.ruins().is_empty() && w.ruins().iter().all(|r| r.scrap >= 20));
    let (sx, sy, _) = w.map.start_spot();
    let r = crate::catalog::world_rules()
        .map
        .land_generation
        .value
        .start_clear_radius;
    for p in w.land.plants.values() {
        assert!(p.x.abs_diff(sx) > r || p.y.abs_diff(sy) > r);
    }
    let other = world(22, 128);
    assert_ne!(w.trees(), other.trees());
    assert_eq!(w.trees(), world(21, 128).trees());
}

#[test]
fn a_marked_area_reads_back_marked_and_emits_events() {
    let mut w = world(21, 128);
    let t = w.trees().into_iter().find(|t| t.alive).unwrap();
    let (x, y, z) = (i64::from(t.x), i64::from(t.y), i64::from(t.z));
    w.take_events();
    let tiles = w
        .set_cutting_area(x - 3, y - 3, x + 3, y + 3, z, true)
        .unwrap();
    assert!(tiles >= 1);
    let marked: Vec<_> = w.trees().into_iter().filter(|p| p.marked).collect();
    assert!(marked.iter().any(|p| p.id == t.id));
    assert!(
        marked
            .iter()
            .all(|p| p.x.abs_diff(t.x) <= 3 && p.y.abs_diff(t.y) <= 3 && p.z == t.z)
    );
    let ev = w.take_events();
    assert_eq!(ev[0].name, names::CUTTING_AREA_CHANGED);
    assert_eq!(ev[0].data.as_ref().unwrap()["tiles"], tiles);
    assert_eq!(
        ev.iter().filter(|e| e.name == names::TREE_MARKED).count(),
        marked.len()
    );
    // Again: nothing changes, no tree.marked.
    w.set_cutting_area(x - 3, y - 3, x + 3, y + 3, z, true)
        .unwrap();
    assert_eq!(w.take_events().len(), 1);
    let yielded = w.cut_tree(t.id).unwrap();
    assert_eq!(yielded.good, "Log");
    let ev = w.take_events();
    assert_eq!(
        ev.iter().map(|e| e.name).collect::<Vec<_>>(),
        [names::TREE_CUT, names::CUTTABLE_CUT]
    );
    assert_eq!(ev[0].data.as_ref().unwrap()["id"], t.id);
    assert_eq!(w.cut_tree(t.id).unwrap_err().code, ErrorCode::NotFound);
}

#[test]
fn area_commands_refuse_bad_input_and_change_nothing() {
    let mut w = world(21, 64);
    let before = w.state_hash();
    w.take_events(); // the founding of the colony
    let cases = [
        w.set_cutting_area(10, 5, 2, 8, 4, true).unwrap_err(),
        w.set_cutting_area(2, 8, 10, 5, 4, true).unwrap_err(),
        w.set_cutting_area(64, 0, 70, 5, 4, true).unwrap_err(),
        w.set_cutting_area(-9, -9, -1, -1, 4, true).unwrap_err(),
        w.set_cutting_area(0, 0, 5, 5, 23, true).unwrap_err(),
        w.set_cutting_area(0, 0, 5, 5, -1, true).unwrap_err(),
        w.mark_planting(0, 0, 5, 5, 4, "Banana").unwrap_err(),
        w.mark_planting(5, 0, 0, 5, 4, "Carrot").unwrap_err(),
        w.clear_planting(0, 0, 5, 5, 99).unwrap_err(),
        w.find_planting_spots("carrot", 0, 0, 5, 5, None)
            .unwrap_err(),
        w.tiles(3, 3, 2, 2).unwrap_err(),
    ];
    for e in &cases {
        assert_eq!(e.code, ErrorCode::InvalidParam, "{e}");
        assert!(e.extras.contains_key("got"), "{e}");
    }
    assert!(cases[0].detail.contains("swap"), "{}", cases[0].detail);
    assert!(cases[2].detail.contains("outside"), "{}", cases[2].detail);
    let unknown = &cases[6];
    // The faction's own names (a Folktails game): its crops, trees and bushes.
    assert!(unknown.detail.contains("Carrot") && unknown.detail.contains("Potato"));
    assert!(!unknown.detail.contains("Kohlrabi"), "{}", unknown.detail);
    assert_eq!(unknown.extras["got"], "Banana");
    assert!(unknown.extras["valid"].as_array().unwrap().len() >= 5);
    assert_eq!(w.state_hash(), before);
    assert!(w.take_events().iter().all(|e| !e.name.contains('.')
        || e.name == "game.new"
        || e.name.starts_with("cycle")
        || e.name.starts_with("weather")
        || e.name.starts_with("drought")));
    // Partly off the map is clamped.
    let r = w.tiles(-5, -5, 2, 3).unwrap();
    assert_eq!(
        (r.region.x1, r.region.y1, r.region.x2, r.region.y2),
        (0, 0, 2, 3)
    );
    assert_eq!(r.tiles.len(), 12);
}

#[test]
fn planting_marks_skip_unsuitable_tiles_and_clear() {
    let mut w = world(21, 64);
    // Flat, free land beside the start (the district center's own tiles are not free soil).
    let (ox, oy, sz) = crate::testutil::flat_area(&mut w, 5, 5);
    let (sx, sy) = (ox + 2, oy + 2);
    let (x, y, z) = (i64::from(sx), i64::from(sy), i64::from(sz));
    w.take_events();
    let (planted, skipped) = w
        .mark_planting(x - 2, y - 2, x + 2, y + 2, z, "Carrot")
        .unwrap();
    assert_eq!((planted, skipped), (25, 0), "flat, free land");
    let ev = w.take_events();
    assert_eq!(ev[0].name, names::PLANTING_MARKED);
    assert_eq!(
        ev.iter()
            .filter(|e| e.name == names::PLANTING_COORDS_SET)
            .count(),
        25
    );
    assert_eq!(w.planting_mark(sx, sy), Some("Carrot"));
    let spots = w
        .find_planting_spots("Carrot", x - 2, y - 2, x + 2, y + 2, Some(z))
        .unwrap();
    assert_eq!(spots.len(), 25);
    assert!(spots.iter().all(|s| s.planted));
    // Wrong height: everything skipped.
    assert_eq!(
        w.mark_planting(x - 2, y - 2, x + 2, y + 2, z + 1, "Wheat")
            .unwrap(),
        (0, 25)
    );
    let id = w.plant(x, y, "Carrot").unwrap();
    assert_eq!(w.crops().len(), 1);
    assert_eq!(w.take_events().last().unwrap().name, names::CROP_PLANTED);
    assert_eq!(w.demolish_crop(id).unwrap(), (id, "Carrot".to_owned()));
    let tree = w.plant(x + 3, y + 3, "Pine").unwrap();
    assert_eq!(
        w.demolish_crop(tree).unwrap_err().code,
        ErrorCode::InvalidType
    );
    assert_eq!(
        w.demolish_crop(12345).unwrap_err().code,
        ErrorCode::NotFound
    );
    assert_eq!(w.clear_planting(x - 2, y - 2, x + 2, y + 2, z).unwrap(), 25);
    let ev = w.take_events();
    assert_eq!(
        ev.iter()
            .filter(|e| e.name == names::PLANTING_COORDS_UNSET)
            .count(),
        25
    );
    assert_eq!(w.planting_mark(sx, sy), None);
}

#[test]
fn bushes_give_berries_and_regrow() {
    let mut w = world(21, 128);
    let bush = w
        .land
        .plants
        .iter()
        .find(|(_, p)| p.kind() == PlantKind::Bush && p.alive && p.fruit >= 1.0)
        .map(|(id, _)| *id)
        .unwrap();
    let y = w.harvest(bush).unwrap();
    assert_eq!((y.good.as_str(), y.amount), ("Berries", 3));
    assert_eq!(
        w.harvest(bush).unwrap_err().code,
        ErrorCode::OperationFailed
    );
    w.advance_ticks(13 * DAY);
    if w.land.plants[&bush].alive {
        assert!(w.harvest(bush).is_ok(), "berries regrow in 12 days");
    }
    assert!(!w.food_clusters().is_empty());
}

#[test]
fn clusters_count_correctly() {
    let w = world(21, 128);
    let clusters = w.tree_clusters();
    assert!(!clusters.is_empty() && clusters.len() <= 5);
    for c in &clusters {
        assert_eq!(c.species.values().sum::<u32>(), c.total);
        assert!(c.grown <= c.total);
    }
    assert!(clusters.windows(2).all(|p| p[0].grown >= p[1].grown));
    let best = &clusters[0];
    let near = w.tree_clusters_near(best.x, best.y, best.z, 40);
    assert!(!near.is_empty());
    let all_grown = w.trees().iter().filter(|t| t.alive && t.grown).count() as u32;
    assert!(clusters.iter().map(|c| c.grown).sum::<u32>() <= all_grown);
}

#[test]
fn save_load_continue_equals_an_uninterrupted_run_with_land_changes() {
    let mut a = World::new(&NewGame {
        seed: 31,
        map_width: 64,
        map_height: 64,
        mode: GameMode::Normal,
        ..NewGame::default()
    });
    a.advance_ticks(DAY + 77);
    let (sx, sy, sz) = a.map.start_spot();
    a.mark_planting(
        i64::from(sx),
        i64::from(sy),
        i64::from(sx) + 1,
        i64::from(sy),
        i64::from(sz),
        "Carrot",
    )
    .unwrap();
    a.set_cutting_area(0, 0, 63, 63, 4, true).unwrap();
    a.set_water_barrier(3, 3, Some(5.5)).unwrap();
    let mut b = World::load_from_bytes(&a.save_to_bytes()).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    a.advance_ticks(3 * DAY + 5);
    b.advance_ticks(3 * DAY + 5);
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a.trees(), b.trees());
    assert_eq!(b.water_barrier(3, 3), Some(5.5));
}

#[test]
fn starting_trees_grow_on_soil_that_stays_moist() {
    // The water is at rest from generation on, so the forests stand where the soil stays moist
    // in temperate weather: at most 5% of the starting trees die in 20 days without a hazard
    // (before the water was settled at generation, 99 of 230 died on seed 1 as the land dried).
    for seed in 1..=4 {
        let mut w = world(seed, 128);
        w.weather.temperate_days = 1000;
        let start: Vec<i32> = w.trees().iter().filter(|t| t.alive).map(|t| t.id).collect();
        w.advance_ticks(20 * DAY);
        let alive: std::collections::BTreeSet<i32> =
            w.trees().iter().filter(|t| t.alive).map(|t| t.id).collect();
        let died = start.iter().filter(|id| !alive.contains(id)).count();
        assert!(
            died * 20 <= start.len(),
            "seed {seed}: {died} of {} starting trees died in 20 temperate days",
            start.len()
        );
    }
}

/// Berry bushes on the start spot's bank of the river within `reach` tiles (Manhattan) of it.
fn bushes_near_start(w: &World, reach: u32) -> usize {
    let (sx, sy, _) = w.map.start_spot();
    let side = w.map.river_side(sx, sy);
    w.land
        .plants
        .values()
        .filter(|p| p.alive && p.kind() == PlantKind::Bush)
        .filter(|p| p.x.abs_diff(sx) + p.y.abs_diff(sy) <= reach)
        .filter(|p| w.map.river_side(p.x, p.y) == side)
        .count()
}

#[test]
fn every_start_has_berry_bushes_on_its_bank_within_a_gatherers_reach() {
    // IronTeeth breeding pods eat Berries (data/buildings.json nutrientsPerCycle), which only
    // bushes give: a seed whose bushes all stood across the river or far away bred nothing
    // (issue 38; before: seeds 3 and 36 had none within 35 tiles on the start's bank).
    let lg = &world_rules().map.land_generation.value;
    let (min, reach) = (lg.start_bushes_min as usize, lg.start_bush_reach);
    let short: Vec<(u64, usize)> = [36]
        .into_iter()
        .chain(1..=12)
        .map(|seed| (seed, bushes_near_start(&world(seed, 128), reach)))
        .filter(|(_, n)| *n < min)
        .collect();
    assert!(
        short.is_empty(),
        "seeds with fewer than {min} bushes within {reach} tiles on the start's bank: {short:?}"
    );
}

#[test]
#[ignore = "a measurement: prints the berry bushes near the start of seeds 1-40"]
fn measure_bushes_near_start() {
    for seed in 1..=40 {
        let w = world(seed, 128);
        eprintln!(
            "seed {seed}: {} within 15, {} within 25, {} within 35",
            bushes_near_start(&w, 15),
            bushes_near_start(&w, 25),
            bushes_near_start(&w, 35)
        );
    }
}

#[test]
fn nothing_spreads_onto_a_path_or_under_a_building() {
    // Every free, moist tile a grown tree or bush could seed (within the spread radius) holds a
    // path: in 40 days the forests seed none of them (before, trees and bushes spread onto paths
    // and under lodges and warehouses; a Pine on a path stood in a played colony's road).
    let mut w = world(8, 96);
    let radius = i64::from(crate::catalog::nature().rules.modifiers.spread.value.radius);
    let parents: Vec<(u32, u32)> = w
        .land
        .plants
        .values()
        .filter(|p| p.alive && p.grown() && p.kind() != PlantKind::Crop)
        .map(|p| (p.x, p.y))
        .collect();
    let mut paths = std::collections::BTreeSet::new();
    for (px, py) in &parents {
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                let (x, y) = (i64::from(*px) + dx, i64::from(*py) + dy);
                if !w.map.contains(x, y) || paths.contains(&(x, y)) {
                    continue;
                }
                let (x, y) = (x as u32, y as u32);
                let i = w.land.idx(x, y);
                if w.land.occupant[i].is_some() || w.land.is_water(i) || !w.land.soil.is_moist(i) {
                    continue;
                }
                let z = w.map.terrain_height(x, y);
                if w.place_building("Path", x.into(), y.into(), z.into(), "south")
                    .is_ok()
                {
                    paths.insert((i64::from(x), i64::from(y)));
                }
            }
        }
    }
    assert!(paths.len() > 200, "{} paths", paths.len());
    w.advance_ticks(40 * DAY);
    let on_paths: Vec<(u32, u32)> = w
        .land
        .plants
        .values()
        .filter(|p| paths.contains(&(i64::from(p.x), i64::from(p.y))))
        .map(|p| (p.x, p.y))
        .collect();
    assert!(on_paths.is_empty(), "plants on paths: {on_paths:?}");
    // The same 40 days with no paths: the forests seed some of those tiles.
    let mut bare = world(8, 96);
    bare.advance_ticks(40 * DAY);
    let seeded = bare
        .land
        .plants
        .values()
        .filter(|p| paths.contains(&(i64::from(p.x), i64::from(p.y))))
        .count();
    assert!(
        seeded > 0,
        "no spreading onto those tiles without paths either"
    );
}

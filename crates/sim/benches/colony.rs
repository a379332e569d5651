//! Benchmarks of the colony on a large settlement: a 256x256 map with at least 1,500 buildings
//! (besides paths), 300 beavers and 10,000 trees. `colony_day` is one game day of the whole world
//! (days per second = 1 / its time); the view benches are the read models behind
//! `/api/buildings?limit=0`, `/api/beavers?detail=full&limit=0` and `/api/summary`.
//!
//! Run: `cargo bench -p colony-sim --bench colony`. With `COLONY_BENCH_SAVE=path` the fixture is
//! also written as a save file, to load into `colonyd` and time the HTTP routes.

use std::sync::OnceLock;

use divan::Bencher;
use sim::colony::fixtures;
use sim::{NewGame, World};

const DAY: u64 = 768;

fn main() {
    divan::main();
}

/// The large colony (built once).
fn large() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| {
        let mut w = World::new(&NewGame {
            seed: 42,
            map_width: 256,
            map_height: 256,
            ..NewGame::default()
        });
        w.advance_ticks(DAY);
        let dc = w
            .buildings()
            .into_iter()
            .find(|b| b.name.starts_with("DistrictCenter"))
            .expect("a district center");
        let (dx, dy, z) = (
            i64::from(dc.entrance_x.unwrap()),
            i64::from(dc.entrance_y.unwrap()),
            i64::from(dc.z),
        );
        // Every dry tile within 60 of the doorstep, on any level: paths on every third row,
        // 1x1 buildings facing them; then stairs and paths join each level's grid to the center.
        let (mw, mh) = (w.map().width() as i64, w.map().height() as i64);
        let mut ground = Vec::new();
        for y in (dy - 60).max(0)..(dy + 60).min(mh) {
            for x in (dx - 60).max(0)..(dx + 60).min(mw) {
                ground.push((x, y));
            }
        }
        let level =
            |w: &World, x: i64, y: i64| i64::from(w.map().terrain_height(x as u32, y as u32));
        for &(x, y) in &ground {
            if (y - dy).rem_euclid(3) == 0 || x == dx {
                let _ = w.place_building("Path", x, y, level(&w, x, y), "south");
            }
        }
        let prefabs = [
            "SmallWarehouse.Folktails",
            "SmallPile.Folktails",
            "SmallTank.Folktails",
            "LumberjackFlag.Folktails",
            "GathererFlag.Folktails",
            "Shrub.Folktails",
        ];
        let mut placed = 0;
        for &(x, y) in &ground {
            if placed >= 1_600 {
                break;
            }
            let facing = match (y - dy).rem_euclid(3) {
                1 => "south",
                2 => "north",
                _ => continue,
            };
            let z = level(&w, x, y);
            if w.place_building(prefabs[placed % prefabs.len()], x, y, z, facing)
                .is_ok()
            {
                placed += 1;
            }
        }
        w.add_science(1_000);
        let _ = w.unlock("Stairs.Folktails");
        let mut joined = std::collections::BTreeSet::new();
        for b in w.buildings() {
            if b.name == "Path" && !b.reachable && joined.insert(b.z) {
                let _ = w.place_path(dx, dy, b.x.into(), b.y.into(), "direct", 0);
            }
        }
        let _ = z;
        fixtures::finish_all(&mut w);
        fixtures::add_adults(&mut w, 300);
        // Trees: pines on free land until there are 10,000.
        let (mw, mh) = (w.map().width(), w.map().height());
        'plant: for stride in [3u32, 2, 1] {
            for y in (0..mh).step_by(stride as usize) {
                for x in (0..mw).step_by(stride as usize) {
                    if w.trees().len() >= 10_000 {
                        break 'plant;
                    }
                    let _ = w.plant(x.into(), y.into(), "Pine");
                }
            }
        }
        for zz in 0..16 {
            let _ = w.set_cutting_area(0, 0, i64::from(mw) - 1, i64::from(mh) - 1, zz, true);
        }
        w.advance_ticks(DAY);
        w.take_events();
        let n = w.buildings().iter().filter(|b| b.name != "Path").count();
        eprintln!(
            "large colony: {n} buildings besides paths, {} beavers, {} trees",
            w.beavers(false).len(),
            w.trees().len()
        );
        if let Ok(path) = std::env::var("COLONY_BENCH_SAVE") {
            std::fs::write(&path, w.save_to_bytes()).expect("write the fixture save");
        }
        w
    })
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn colony_day(bencher: Bencher) {
    let w = large();
    bencher
        .with_inputs(|| w.clone())
        .bench_local_values(|mut w| {
            w.advance_ticks(DAY);
            w
        });
}

#[divan::bench(sample_count = 20)]
fn buildings_all(bencher: Bencher) {
    let w = large();
    bencher.bench_local(|| w.buildings());
}

#[divan::bench(sample_count = 20)]
fn beavers_full(bencher: Bencher) {
    let w = large();
    bencher.bench_local(|| w.beavers(true));
}

#[divan::bench(sample_count = 20)]
fn summary_parts(bencher: Bencher) {
    let w = large();
    bencher.bench_local(|| {
        (
            w.districts(),
            w.wellbeing(),
            w.alerts(),
            w.building_roles(),
            w.colony_stock(),
        )
    });
}

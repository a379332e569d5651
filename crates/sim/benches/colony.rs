//! Benchmarks of the colony on a large settlement: a 256x256 map with at least 1,500 buildings
//! (besides paths), 300 beavers and 10,000 trees. `colony_day` is one game day of the whole world
//! (days per second = 1 / its time); the view benches are the read models behind
//! `/api/buildings?limit=0`, `/api/beavers?detail=full&limit=0` and `/api/summary`;
//! `world_clone` and `pause_then_clone` what the service's snapshot publish costs; `fresh_day`
//! and `small_colony_day` a game day of a fresh colony by map size and of the young 128 colony.
//!
//! The colony is `sim::colony::fixtures::large_colony` (`colonyd --fixture large --save FILE`
//! writes it as a save, to load into `colonyd` and time the HTTP routes).
//!
//! Run: `cargo bench -p colony-sim --bench colony`.

use std::sync::OnceLock;

use divan::Bencher;
use sim::World;
use sim::colony::fixtures;

const DAY: u64 = 768;

fn main() {
    divan::main();
}

/// The large colony (built once).
fn large() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| {
        let w = fixtures::large_colony();
        let n = w.buildings().iter().filter(|b| b.name != "Path").count();
        eprintln!(
            "large colony: {n} buildings besides paths, {} beavers, {} trees",
            w.beavers(false).len(),
            w.trees().len()
        );
        w
    })
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn colony_day(bencher: Bencher) {
    time_a_day(bencher, large());
}

/// Times one game day of `w`. One tick runs outside the timing: the clone shares its tables
/// with the fixture, and the first tick's copy of them is what a publish used to cost, not a
/// game day.
fn time_a_day(bencher: Bencher, w: &World) {
    bencher
        .with_inputs(|| {
            let mut w = w.clone();
            w.advance_ticks(1);
            w
        })
        .bench_local_values(|mut w| {
            w.advance_ticks(DAY);
            w
        });
}

/// One game day of the large colony scaled down (`fixtures::ColonySize::scaled`): how the cost
/// grows with the colony on one map (1.0 is `colony_day`).
#[divan::bench(args = [0.125, 0.25, 0.5], sample_count = 5, sample_size = 1)]
fn colony_size_day(bencher: Bencher, share: f64) {
    time_a_day(
        bencher,
        &fixtures::colony_of(&fixtures::ColonySize::scaled(share)),
    );
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

/// The read models `/api/summary` is built from, one by one (`colony_summary`: districts,
/// wellbeing, stock and roles in one walk, and `plant_summary`: the tallies and clusters in two,
/// what the summary uses).
#[divan::bench(args = ["colony_summary", "districts", "wellbeing", "alerts", "alert_counts", "roles", "stock", "flows", "trees", "tree_tallies", "crop_tallies", "tree_clusters", "food_clusters", "plant_summary"], sample_count = 20)]
fn summary_part(bencher: Bencher, part: &str) {
    let w = large();
    let [x, y, z] = w.districts()[0].dc;
    bencher.bench_local(|| match part {
        "colony_summary" => w.colony_summary().districts.len(),
        "districts" => w.districts().len(),
        "wellbeing" => w.wellbeing().categories.len(),
        "alerts" => w.alerts().len(),
        "alert_counts" => w.alert_counts().unstaffed as usize,
        "roles" => w.building_roles().len(),
        "stock" => w.colony_stock().len(),
        "flows" => w.flows().len(),
        "trees" => w.trees().len(),
        "crops" => w.crops().len(),
        "tree_tallies" => w.tree_tallies().len(),
        "crop_tallies" => w.crop_tallies().len(),
        "tree_clusters" => w.tree_clusters_near(x, y, z, 40).len(),
        "food_clusters" => w.food_clusters_near(x, y, z, 40).len(),
        "plant_summary" => {
            let near = sim::Near {
                x,
                y,
                z,
                radius: 40,
            };
            w.plant_summary(Some(near)).tree_clusters.len()
        }
        _ => unreachable!("a listed part"),
    });
}

/// A page of 100 buildings, as `/api/buildings` builds it: the keys of every building filtered,
/// then the views of the page.
#[divan::bench(sample_count = 20)]
fn buildings_page(bencher: Bencher) {
    let w = large();
    bencher.bench_local(|| {
        let ids: Vec<i32> = w
            .building_keys()
            .map(|(k, _)| k.id)
            .skip(1000)
            .take(100)
            .collect();
        w.buildings_of(&ids)
    });
}

/// What the service's snapshot publish costs: one clone of the whole world.
#[divan::bench(sample_count = 20)]
fn world_clone(bencher: Bencher) {
    let w = large();
    bencher.bench_local(|| w.clone());
}

/// A write as the service runs it: the host's world shares its tables with the published
/// snapshot, a pause toggle changes one building, then the next snapshot is cloned.
#[divan::bench(sample_count = 20)]
fn pause_then_clone(bencher: Bencher) {
    let w = large();
    let id = w
        .buildings()
        .into_iter()
        .find(|b| b.name.starts_with("SmallWarehouse"))
        .expect("a warehouse")
        .id;
    let paused = w.building_view(id).expect("the warehouse").paused;
    bencher
        .with_inputs(|| {
            let host = w.clone();
            (host.clone(), host)
        })
        .bench_local_values(|(published, mut host)| {
            host.set_paused(id, !paused).expect("a pausable building");
            let next = host.clone();
            (published, host, next)
        });
}

/// One game day of a fresh colony (seed 42, the founders only) by map size, to see how the
/// land's cost grows with the map; 128 is `fixtures::small_colony`'s map.
#[divan::bench(args = [64, 128, 192, 256], sample_count = 5, sample_size = 1)]
fn fresh_day(bencher: Bencher, size: u32) {
    let w = World::new(&sim::NewGame {
        seed: 42,
        map_width: size,
        map_height: size,
        ..sim::NewGame::default()
    });
    bencher
        .with_inputs(|| w.clone())
        .bench_local_values(|mut w| {
            w.advance_ticks(DAY);
            w
        });
}

/// One game day of `fixtures::small_colony` (the young colony on the default 128 map).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn small_colony_day(bencher: Bencher) {
    let w = fixtures::small_colony();
    bencher
        .with_inputs(|| w.clone())
        .bench_local_values(|mut w| {
            w.advance_ticks(DAY);
            w
        });
}

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
    let w = large();
    bencher
        // One tick outside the timing: the clone shares its tables with the fixture, and the
        // first tick's copy of them is what a publish used to cost, not a game day.
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

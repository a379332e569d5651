//! Benchmarks of the land systems: one game day (768 ticks: clock, weather, water, soil, plants,
//! wind) on 128x128 and 256x256 maps, `tiles()` over a 64x64 region and `trees()` with ~5,000
//! trees. Game days per second = 1 / the time of `land_day`.
//!
//! Run: `cargo bench -p colony-sim --bench land`.

use divan::Bencher;
use sim::{NewGame, World};

const DAY: u64 = 768;

fn main() {
    divan::main();
}

fn world(size: u32) -> World {
    let mut w = World::new(&NewGame {
        seed: 42,
        map_width: size,
        map_height: size,
        ..NewGame::default()
    });
    // Let the river settle first.
    w.advance_ticks(2 * DAY);
    w
}

#[divan::bench(args = [128, 256], sample_count = 10, sample_size = 1)]
fn land_day(bencher: Bencher, size: u32) {
    let w = world(size);
    bencher
        .with_inputs(|| w.clone())
        .bench_local_values(|mut w| {
            w.advance_ticks(DAY);
            w
        });
}

#[divan::bench(sample_count = 50)]
fn tiles_64x64(bencher: Bencher) {
    let w = world(128);
    bencher.bench_local(|| w.tiles(32, 32, 95, 95).unwrap());
}

#[divan::bench(sample_count = 50)]
fn trees_5000(bencher: Bencher) {
    let mut w = world(256);
    let mut planted = w.trees().len();
    'fill: for y in 0..256 {
        for x in 0..256 {
            if planted >= 5000 {
                break 'fill;
            }
            if (x + y) % 2 == 0 && w.plant(x, y, "Pine").is_ok() {
                planted += 1;
            }
        }
    }
    assert!(w.trees().len() >= 5000);
    bencher.bench_local(|| w.trees());
}

//! Advances a benchmark world by whole game days and prints the time of each, for profiling one
//! system at a time (`perf record -D MS` past the build of the world, which is printed first).
//!
//! `cargo run --release -p colony-sim --example advance_days -- large|small|fresh128|fresh256 [DAYS]
//! [--again]`: with `--again`, every timed day starts again from (a clone of) the built world, as
//! the benches do, so a profile shows that first day only; with `--hash`, prints at the end the
//! world's state hash and digests of the events of the days and of the history (to check a
//! change over more days than `day_hashes` runs).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use sim::colony::fixtures;
use sim::{NewGame, World, ticks_per_day};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("small", String::as_str);
    let days: u64 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(3);
    let again = args.iter().any(|a| a == "--again");
    let hash = args.iter().any(|a| a == "--hash");
    let mut events = DefaultHasher::new();
    let start = Instant::now();
    let mut w = match which {
        "large" => {
            let mut w = fixtures::large_colony();
            w.advance_ticks(1);
            w
        }
        "small" => fixtures::small_colony(),
        fresh => {
            let size = fresh.trim_start_matches("fresh").parse().unwrap_or(128);
            World::new(&NewGame {
                seed: 42,
                map_width: size,
                map_height: size,
                ..NewGame::default()
            })
        }
    };
    eprintln!(
        "built {which} in {:.0} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let built = again.then(|| w.clone());
    for _ in 0..days {
        if let Some(b) = &built {
            w = b.clone();
            // The clone's first tick copies the tables it shares (not a game day's cost).
            w.advance_ticks(1);
        }
        let t = Instant::now();
        w.advance_ticks(ticks_per_day());
        eprintln!("day {}: {:.2} ms", w.day(), t.elapsed().as_secs_f64() * 1e3);
        if hash {
            format!("{:?}", w.take_events()).hash(&mut events);
        }
    }
    if hash {
        let mut history = DefaultHasher::new();
        format!("{:?}", w.history()).hash(&mut history);
        println!(
            "state {:016x} events {:016x} history {:016x}",
            w.state_hash(),
            events.finish(),
            history.finish()
        );
    }
}

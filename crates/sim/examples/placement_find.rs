//! Times `World::find_placements` the way the Gymnasium environment's action mask asks for it:
//! each of the faction's starting prefabs over each region of a fresh map (`R x R` regions),
//! and prints the time of each round and a digest of the answers (to check a change keeps them;
//! every round asks the same, so one digest is printed unless a round answered differently).
//!
//! `cargo run --release -p colony-sim --example placement_find -- [MAP] [REGIONS] [ROUNDS]
//! [HOURS]` (defaults: 64, 2, 5, 0). With `HOURS`, the game runs that many hours before each
//! round and the round searches a fresh copy of the world, as the service does for each new
//! snapshot (the Gymnasium environment's default step is 24 hours): the time then includes the
//! copy and every cache the searches rebuild; the digests differ from round to round.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use sim::{NewGame, World};

/// The Folktails starting prefabs the environment offers by default.
const PREFABS: [&str; 7] = [
    "WaterPump.Folktails",
    "SmallTank.Folktails",
    "Lodge.Folktails",
    "GathererFlag.Folktails",
    "LumberjackFlag.Folktails",
    "EfficientFarmHouse.Folktails",
    "SmallWarehouse.Folktails",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let regions: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let rounds: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(5);
    let hours: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut w = World::new(&NewGame {
        seed: 42,
        map_width: size,
        map_height: size,
        ..NewGame::default()
    });
    w.advance_ticks(sim::ticks_per_day() / 24);
    let side = size / regions;
    let mut digests = Vec::new();
    for round in 0..rounds {
        let mut digest = DefaultHasher::new();
        let mut copy = None;
        if hours > 0 {
            w.advance_ticks(hours * sim::ticks_per_day() / 24);
        }
        let t = Instant::now();
        let w = if hours > 0 {
            copy.insert(w.clone())
        } else {
            &mut w
        };
        let mut calls = 0;
        for p in PREFABS {
            for ry in 0..regions {
                for rx in 0..regions {
                    let (x1, y1) = (i64::from(rx * side), i64::from(ry * side));
                    let (x2, y2) = (x1 + i64::from(side) - 1, y1 + i64::from(side) - 1);
                    let found = w.find_placements(p, x1, y1, x2, y2);
                    calls += 1;
                    format!("{found:?}").hash(&mut digest);
                }
            }
        }
        let ms = t.elapsed().as_secs_f64() * 1e3;
        eprintln!(
            "round {round}: {calls} calls in {ms:.1} ms ({:.2} ms a call)",
            ms / f64::from(calls)
        );
        digests.push(digest.finish());
    }
    // (Without HOURS every round asks the same of the same world: one digest.)
    digests.dedup();
    let digests: Vec<String> = digests.iter().map(|d| format!("{d:016x}")).collect();
    println!("answers {}", digests.join(" "));
}

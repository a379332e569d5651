//! Prints `state_hash()` of a few worlds after some game days (fresh colonies of several seeds,
//! factions and map sizes after 10 days, the young 128 colony after 5 and the large benchmark
//! colony after 1), with a digest of the events they queued and of their building list and
//! alerts. Run before and after a performance change: a change that keeps the world, its events
//! and its read models bit-identical prints the same lines.
//!
//! `cargo run --release -p colony-sim --example day_hashes [--no-large]`

use std::hash::{DefaultHasher, Hash, Hasher};

use sim::colony::fixtures;
use sim::{Faction, NewGame, World, ticks_per_day};

/// Advances `days` game days; returns the world's state hash, a digest of the events queued
/// meanwhile and one of the building list and alerts at the end.
fn run(w: &mut World, days: u64) -> String {
    let mut events = DefaultHasher::new();
    for _ in 0..days {
        w.advance_ticks(ticks_per_day());
        format!("{:?}", w.take_events()).hash(&mut events);
    }
    let mut views = DefaultHasher::new();
    format!("{:?}{:?}", w.buildings(), w.alerts()).hash(&mut views);
    format!(
        "{:016x} events {:016x} views {:016x}",
        w.state_hash(),
        events.finish(),
        views.finish()
    )
}

fn main() {
    let skip_large = std::env::args().any(|a| a == "--no-large");
    for (seed, faction, size) in [
        (1, Faction::Folktails, 128),
        (42, Faction::IronTeeth, 128),
        (7, Faction::Folktails, 64),
        (3, Faction::IronTeeth, 192),
    ] {
        let mut w = World::new(&NewGame {
            seed,
            faction,
            map_width: size,
            map_height: size,
            ..NewGame::default()
        });
        println!(
            "fresh seed {seed} {faction:?} {size}: day 10 {}",
            run(&mut w, 10)
        );
    }
    let mut w = fixtures::small_colony();
    w.take_events();
    println!("small colony +5 days: {}", run(&mut w, 5));
    if !skip_large {
        let mut w = fixtures::large_colony();
        w.take_events();
        println!("large colony +1 day: {}", run(&mut w, 1));
    }
}

//! Mechanics measured in seeded games through the world's commands, each compared with the
//! value the catalogue holds: need decay (thirst and hunger), drought length, crop growth, tree
//! growth, berries per gather, logs per cut tree, a lumberjack's load against the lifting limit,
//! pump and inventor output per working hour, a powered lumber mill's and gear workshop's output
//! per day, building costs, builder-hours per material unit (needed and spent) and the days a
//! kit takes to grow up.
//!
//! Expected values are read at run time from the catalogue (`sim::catalog`, `sim::content`,
//! `sim::colony::rules`, i.e. `data/*.json`), never copied here. Each test prints one line per
//! mechanic, `mechanic | measured | data | source-or-estimate`, visible with `--nocapture`.
//!
//! By module: `beavers` (need decay, childhood), `droughts` (drought length), `plants` (crop and
//! tree growth, berries per gather, logs per cut tree, a lumberjack's load), `work` (pump and inventor output per
//! working hour, building costs and builder-hours per material unit), `workshops` (a powered
//! lumber mill's and gear workshop's output per day); the helpers they share are here.

#[path = "../common/placing.rs"]
mod placing;

mod beavers;
mod droughts;
mod plants;
mod work;
mod workshops;

use std::collections::BTreeMap;
use std::fmt::Display;

use sim::catalog::{Confidence, Fact, world_rules};
use sim::{Faction, GameMode, NewGame, World};

fn game(seed: u64) -> NewGame {
    NewGame {
        seed,
        faction: Faction::Folktails,
        mode: GameMode::Normal,
        ..NewGame::default()
    }
}

/// Ticks in one game hour.
fn hour() -> u64 {
    world_rules().ticks_per_hour()
}

fn hours_per_day() -> f64 {
    f64::from(world_rules().time.hours_per_day.value)
}

/// One line of the report.
fn report(mechanic: &str, measured: impl Display, data: impl Display, provenance: &str) {
    println!("{mechanic} | {measured} | {data} | {provenance}");
}

/// `source (ids)` or `estimate` for a fact of world.json, nature.json or colony.json.
fn provenance<T>(f: &Fact<T>) -> String {
    match f.confidence {
        Confidence::Source => format!("source ({})", f.source.as_deref().unwrap_or("-")),
        Confidence::Estimate => "estimate".to_owned(),
    }
}

/// The provenance of a field of the content catalogue (buildings, recipes, needs), whose entries
/// name their estimated fields.
fn content_provenance(estimated: bool) -> String {
    if estimated {
        "estimate".to_owned()
    } else {
        "source (shared game-data catalogue)".to_owned()
    }
}

/// Everything made of a good since the game began: the history's rows and the hour under way.
fn produced(w: &World, good: &str) -> f64 {
    let h = w.history();
    since_start(
        h.rows.iter().map(|r| &r.produced),
        &h.counters.produced,
        good,
    )
}

/// Everything eaten, drunk or used of a good since the game began.
fn consumed(w: &World, good: &str) -> f64 {
    let h = w.history();
    since_start(
        h.rows.iter().map(|r| &r.consumed),
        &h.counters.consumed,
        good,
    )
}

/// A good's total over the history's hourly counts and the hour under way.
fn since_start<'a>(
    hours: impl Iterator<Item = &'a BTreeMap<String, f64>>,
    under_way: &'a BTreeMap<String, f64>,
    good: &str,
) -> f64 {
    hours.chain([under_way]).filter_map(|m| m.get(good)).sum()
}

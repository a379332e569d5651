//! docs/playing.md works as written: every line of its `sh` blocks, in order, against a fresh
//! colonyd on each seed the walk-through names, leaves a colony alive and grown at day 20.
//!
//! "Grown" is: the game is not over, more beavers live than the 12 it starts with, and at least
//! one was born. Old age may take a starting adult within 20 days, so the count is compared
//! with the start, not with the population before the last step.

use crate::support::{Server, sh_blocks, shell};
use serde_json::{Value, json};
use std::path::Path;

/// The beavers a Normal game starts with (`data/world.json`).
const START: u64 = 12;

fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/playing.md"))
        .unwrap()
}

/// The seeds of "tested on seeds 7, 11 and 1".
fn seeds(doc: &str) -> Vec<u64> {
    let flat = doc.replace('\n', " ");
    let at = flat
        .find("tested on seeds ")
        .expect("the walk-through names the seeds it is tested on");
    flat[at + "tested on seeds ".len()..]
        .split_whitespace()
        .take(4)
        .map(|w| w.trim_end_matches([',', '.']))
        .take_while(|w| *w == "and" || w.parse::<u64>().is_ok())
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Runs every command line of `blocks` against a fresh game on `seed`; the summary at the end.
fn play(seed: u64, blocks: &[String]) -> (Value, Value) {
    let seed_arg: &'static str = Box::leak(seed.to_string().into_boxed_str());
    let s = Server::start_game(json!({}), vec!["--seed", seed_arg]);
    let home = tempfile::tempdir().unwrap();
    for line in blocks.iter().flat_map(|b| b.lines()).map(str::trim) {
        let out = shell(&s, home.path(), &format!("set -o pipefail; {line}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stderr.contains("warning"),
            "seed {seed}: {line}\nexit {:?}\n{}\n{stderr}",
            out.status.code(),
            stdout.chars().take(600).collect::<String>(),
        );
    }
    (
        s.get("/api/summary?format=json"),
        s.get("/api/stats?format=json"),
    )
}

#[test]
fn the_walk_through_grows_a_colony_on_every_seed_it_names() {
    let doc = doc();
    let seeds = seeds(&doc);
    assert_eq!(seeds.len(), 3, "three seeds named: {seeds:?}");
    assert_eq!(seeds[0], 7, "seed 7 first, as the README's quick start");
    let blocks = sh_blocks(&doc);
    // The first block starts colonyd with the first seed; the test starts its own.
    assert!(
        blocks[0].trim().ends_with("colonyd -- --ready --seed 7"),
        "{blocks:?}"
    );
    let steps = &blocks[1..];
    for line in steps.iter().flat_map(|b| b.lines()) {
        assert!(
            line.starts_with("colony "),
            "every step is a colony command: {line:?}"
        );
    }
    assert!(
        steps.concat().contains("colony advance days:"),
        "the walk-through runs the game"
    );
    let results: Vec<(u64, Value, Value)> = std::thread::scope(|scope| {
        let runs: Vec<_> = seeds
            .iter()
            .map(|&seed| scope.spawn(move || (seed, play(seed, steps))))
            .collect();
        runs.into_iter()
            .map(|r| {
                let (seed, (summary, stats)) = r.join().unwrap();
                (seed, summary, stats)
            })
            .collect()
    });
    for (seed, summary, stats) in results {
        let day = summary["time"]["dayNumber"].as_u64().unwrap();
        assert!(
            day > 20,
            "seed {seed}: the walk-through reaches day 20: {day}"
        );
        assert_eq!(summary["gameOver"], false, "seed {seed}: {summary}");
        let pop = &summary["districts"][0]["population"];
        let beavers = pop["adults"].as_u64().unwrap() + pop["children"].as_u64().unwrap();
        let rows = stats["rows"].as_array().unwrap();
        let births: u64 = rows.iter().map(|r| r["births"].as_u64().unwrap()).sum();
        let deaths: u64 = rows
            .iter()
            .flat_map(|r| r["deaths"].as_object().unwrap().values())
            .map(|n| n.as_u64().unwrap())
            .sum();
        eprintln!("seed {seed}: day {day}, {beavers} beavers, {births} born, {deaths} dead");
        assert!(
            beavers > START && births > 0,
            "seed {seed}: the colony grew from {START}: {beavers} beavers, {births} born, \
             {deaths} dead; {summary}"
        );
    }
}

#[test]
fn the_seeds_are_read_from_the_sentence() {
    assert_eq!(
        seeds("is tested on seeds 7, 11 and\n1 (`crates"),
        vec![7, 11, 1]
    );
}

//! `colony eval compare` and `colony eval leaderboard` end to end: hand-made results folders in a
//! temp dir, read by the real `colony` binary (no colonyd needed). Two runs compared (the
//! difference and its interval's signs, unpaired and not-ok episodes), different rules refused
//! and accepted with `--force`, missing or malformed input refused with its path, and a
//! leaderboard in Markdown and HTML.

use crate::support::text;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const RULES: &str = "9c1e2a4b5d6f70819a2b3c4d5e6f7081";

/// A score per seed that wobbles without a pattern (another for each `base`): `base` plus or
/// minus 11.
fn score(base: f64, scenario: &str, seed: u64) -> f64 {
    let h = scenario.len() as u64 * 11 + seed * 37 + base as u64 * 3;
    base + ((h * 7919) % 23) as f64 - 11.0
}

/// Writes DIR/NAME/results.json for `agent`: seeds `seeds` of each scenario scored around `base`
/// (`survive-60` 5 points lower), `status` for the listed episode ids, `rules` as the digest
/// (`None`: an old file without a version stamp).
fn results(
    dir: &Path,
    name: &str,
    agent: &str,
    base: f64,
    seeds: std::ops::RangeInclusive<u64>,
    rules: Option<&str>,
    status: &[(&str, &str)],
) -> PathBuf {
    let mut episodes = Vec::new();
    for scenario in ["planks-lab", "survive-60"] {
        for seed in seeds.clone() {
            let id = format!("{scenario}-s{seed}");
            let b = if scenario == "survive-60" {
                base - 5.0
            } else {
                base
            };
            let s = score(b, scenario, seed);
            let mut e = json!({
                "id": id, "scenario": scenario, "seed": seed, "score": s, "success": s >= 50.0,
                "achievements": ["first-water"], "daysSurvived": 10.0, "turns": 10, "metrics": {},
            });
            if let Some((_, st)) = status.iter().find(|(i, _)| *i == id) {
                e["status"] = json!(st);
            }
            episodes.push(e);
        }
    }
    let mut r = json!({
        "agent": agent, "score": base / 10.0, "episodesPlayed": episodes.len(), "split": "dev",
        "episodes": episodes, "scenarios": {}, "achievements": {"first-water": 1.0},
    });
    if let Some(d) = rules {
        r["version"] = json!({
            "colony": "0.1.0", "commit": "3f01d06b7e2aa", "rulesDigest": d,
            "scenarios": {"planks-lab": "aa11", "survive-60": "bb22"},
        });
    }
    let out = dir.join(name);
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(
        out.join("results.json"),
        serde_json::to_string_pretty(&r).unwrap(),
    )
    .unwrap();
    out
}

fn colony(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colony"))
        .arg("eval")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run colony eval")
}

#[test]
fn two_matching_runs_give_the_difference_and_its_interval() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A: seeds 1-9; B: seeds 1-8, about 30 points better, one episode tampered.
    results(
        d,
        "a",
        "python3 agents/random_agent.py",
        30.0,
        1..=9,
        Some(RULES),
        &[],
    );
    let tampered = [("survive-60-s2", "tampered")];
    results(
        d,
        "b",
        "python3 agents/scripted.py",
        60.0,
        1..=8,
        Some(RULES),
        &tampered,
    );

    let o = colony(&["compare", "a", "b/results.json", "--json"], d);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let c: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(c["a"]["agent"], "python3 agents/random_agent.py");
    assert_eq!(c["b"]["rulesDigest"], RULES);
    assert_eq!(c["resamples"], 10000);
    let rows = c["scenarios"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r["pairs"], 8, "{r}");
        let (v, lo, hi) = (
            r["diff"]["value"].as_f64().unwrap(),
            r["diff"]["lo"].as_f64().unwrap(),
            r["diff"]["hi"].as_f64().unwrap(),
        );
        assert!(
            0.0 < lo && lo <= v && v <= hi,
            "B is better, the interval above 0: {r}"
        );
        let want = r["meanB"].as_f64().unwrap() - r["meanA"].as_f64().unwrap();
        assert!((v - want).abs() < 0.01, "{r}");
        assert_eq!(r["sign"], 1);
    }
    // The tampered episode counts as 0 and is marked; seed 9 is in A only.
    let surv = &rows[1];
    assert_eq!(surv["scenario"], "survive-60");
    assert_eq!(surv["notOkB"], 1);
    assert_eq!(c["notOk"][0]["id"], "survive-60-s2");
    assert_eq!(c["notOk"][0]["status"], "tampered");
    let unpaired: Vec<&str> = c["unpaired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(unpaired, ["planks-lab-s9", "survive-60-s9"]);
    assert_eq!(c["overall"]["pairs"], 16);

    // The table says the same; the other way round the difference turns negative.
    let o = colony(&["compare", "a", "b"], d);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let t = text(&o.stdout);
    assert!(
        t.lines()
            .any(|l| l.starts_with("survive-60") && l.contains("8*") && l.ends_with("B better")),
        "{t}"
    );
    assert!(t.contains("B survive-60-s2 (tampered)"), "{t}");
    assert!(
        t.contains("unpaired (in one run only, not compared): A planks-lab-s9; A survive-60-s9"),
        "{t}"
    );
    let o = colony(&["compare", "b", "a", "--json"], d);
    let back: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        back["scenarios"][0]["diff"]["hi"].as_f64().unwrap() < 0.0,
        "{back}"
    );
    assert_eq!(back["scenarios"][0]["sign"], -1);
    // Deterministic: the same inputs, the same bytes.
    let again = colony(&["compare", "a", "b/results.json", "--json"], d);
    let first = colony(&["compare", "a", "b/results.json", "--json"], d);
    assert_eq!(again.stdout, first.stdout);
}

#[test]
fn different_rules_are_refused_naming_both_digests_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    results(
        d,
        "a",
        "python3 agents/random_agent.py",
        30.0,
        1..=5,
        Some(RULES),
        &[],
    );
    results(
        d,
        "b",
        "python3 agents/random_agent.py",
        35.0,
        1..=5,
        Some("0ddba11"),
        &[],
    );
    let o = colony(&["compare", "a", "b"], d);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: rules differ"), "{err}");
    assert!(
        err.contains(RULES) && err.contains("0ddba11") && err.contains("--force"),
        "{err}"
    );
    assert!(o.stdout.is_empty());

    let o = colony(&["compare", "a", "b", "--force"], d);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.starts_with("warning: rules differ") && err.contains("0ddba11"),
        "{err}"
    );
    assert!(text(&o.stdout).contains("planks-lab"));

    // A scenario file that differs is named; an old file without a stamp is unknown rules.
    let b = d.join("b/results.json");
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(&b).unwrap()).unwrap();
    r["version"]["rulesDigest"] = json!(RULES);
    r["version"]["scenarios"]["survive-60"] = json!("cc33");
    std::fs::write(&b, r.to_string()).unwrap();
    let err = text(&colony(&["compare", "a", "b"], d).stderr);
    assert!(
        err.contains("scenario survive-60 differs") && err.contains("cc33"),
        "{err}"
    );
    assert!(!err.contains("planks-lab"), "{err}");
    results(d, "old", "python3 agents/idle.py", 5.0, 1..=5, None, &[]);
    let o = colony(&["compare", "old", "a"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("old/results.json has no rules digest"));
    assert!(
        colony(&["compare", "old", "a", "--force"], d)
            .status
            .success()
    );
}

#[test]
fn a_missing_folder_or_malformed_results_are_refused_with_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    results(
        d,
        "a",
        "python3 agents/random_agent.py",
        30.0,
        1..=3,
        Some(RULES),
        &[],
    );
    let o = colony(&["compare", "a", "no-such-run"], d);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr).trim(),
        "error: no results at no-such-run: no such folder or file"
    );
    std::fs::create_dir_all(d.join("empty")).unwrap();
    let o = colony(&["leaderboard", "a", "empty"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("empty holds no results.json"));
    std::fs::create_dir_all(d.join("broken")).unwrap();
    std::fs::write(
        d.join("broken/results.json"),
        "{\"agent\": \"x\", \"episodes\": [",
    )
    .unwrap();
    let o = colony(&["compare", "broken", "a"], d);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("broken/results.json is not a readable results.json"),
        "{err}"
    );
    // No arguments: clap's usage, exit 2.
    assert_eq!(colony(&["compare", "a"], d).status.code(), Some(2));
}

#[test]
fn a_leaderboard_in_markdown_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    results(
        d,
        "idle",
        "python3 agents/idle.py",
        12.0,
        1..=6,
        Some(RULES),
        &[],
    );
    results(
        d,
        "scripted",
        "python3 agents/scripted.py",
        70.0,
        1..=6,
        Some(RULES),
        &[],
    );
    results(
        d,
        "random",
        "python3 agents/random_agent.py",
        40.0,
        1..=6,
        Some(RULES),
        &[],
    );

    let o = colony(
        &["leaderboard", "idle", "scripted", "random/results.json"],
        d,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let md = text(&o.stdout);
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[0].starts_with("| # | agent | version | episodes | overall IQM | Crafter | planks-lab mean | planks-lab IQM | planks-lab success | survive-60 mean |"), "{md}");
    assert!(lines[1].starts_with("|---:|---|"), "{md}");
    // Best first, each with its stamp and 12 episodes.
    for (line, (rank, agent)) in lines[2..5].iter().zip([
        (1, "python3 agents/scripted.py"),
        (2, "python3 agents/random_agent.py"),
        (3, "python3 agents/idle.py"),
    ]) {
        assert!(
            line.starts_with(&format!(
                "| {rank} | {agent} | colony 0.1.0 3f01d06 rules 9c1e2a4b (dev) | 12 | "
            )),
            "{line}"
        );
        assert_eq!(line.matches('|').count(), 13, "{line}");
    }
    assert!(md.contains("Agarwal et al. 2021"), "{md}");

    // --out x.md writes the same text; --out x.html a page with the same rows.
    let o = colony(
        &[
            "leaderboard",
            "idle",
            "scripted",
            "random",
            "--out",
            "board.md",
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(d.join("board.md")).unwrap(), md);
    let o = colony(
        &[
            "leaderboard",
            "idle",
            "scripted",
            "random",
            "--out",
            "board.html",
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let html = std::fs::read_to_string(d.join("board.html")).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    let ranks: Vec<&str> = html
        .match_indices("data-agent=\"")
        .map(|(i, _)| {
            let rest = &html[i + 12..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(
        ranks,
        [
            "python3 agents/scripted.py",
            "python3 agents/random_agent.py",
            "python3 agents/idle.py"
        ]
    );
    assert!(html.contains("data-scenario=\"survive-60\" data-stat=\"iqm\""));
    assert!(
        !html.contains("<script") && !html.contains("http://") && !html.contains("https://"),
        "self-contained"
    );
    // No temp files left beside it.
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["board.html", "board.md", "idle", "random", "scripted"]
    );

    // Mixed rules are refused; --force ranks them anyway.
    results(
        d,
        "other",
        "python3 agents/other.py",
        50.0,
        1..=6,
        Some("0ddba11"),
        &[],
    );
    let o = colony(&["leaderboard", "idle", "other"], d);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains(RULES) && err.contains("0ddba11"), "{err}");
    assert!(
        colony(&["leaderboard", "idle", "other", "--force"], d)
            .status
            .success()
    );
    let o = colony(&["leaderboard", "idle", "--out", "board.txt"], d);
    assert_eq!(o.status.code(), Some(2));
}

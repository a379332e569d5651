//! Reading a finished run's `results.json` back for `colony eval compare` and `leaderboard`: only
//! the members they use, unknown members ignored, the newer ones (`version`, `split`, an
//! episode's `status`) optional, so files of older and newer harnesses both load. Also the check
//! that runs were played under the same rules (the version stamp's digests).

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The version stamp of a run: which harness and which rules and scenario files played it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Version {
    #[serde(default)]
    pub colony: Option<String>,
    #[serde(default)]
    pub commit: Option<String>,
    /// Digest of the game rules and data.
    #[serde(default)]
    pub rules_digest: Option<String>,
    /// Scenario id -> digest of its file.
    #[serde(default)]
    pub scenarios: BTreeMap<String, String>,
}

/// results.json as read here.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct File {
    agent: String,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    version: Option<Version>,
    #[serde(default)]
    split: Option<String>,
    episodes: Vec<RawEpisode>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawEpisode {
    id: String,
    scenario: String,
    seed: u64,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    success: bool,
    #[serde(default)]
    status: Option<String>,
    /// Older files mark an episode that could not be played with `error` only.
    #[serde(default)]
    error: Option<String>,
}

/// One episode as the comparisons count it.
#[derive(Clone, Debug, PartialEq)]
pub struct Episode {
    pub id: String,
    pub scenario: String,
    pub seed: u64,
    /// The episode's score, or 0 when its status is not `ok`.
    pub score: f64,
    /// Whether it succeeded (false when its status is not `ok`).
    pub success: bool,
    /// `ok`, `invalid`, `tampered`, `error`, ...: absent in the file means `ok` (or `error` when
    /// an older file gives the episode an `error`).
    pub status: String,
}

impl Episode {
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// A run loaded from its results.json.
#[derive(Clone, Debug)]
pub struct Run {
    /// The results.json file.
    pub path: PathBuf,
    pub agent: String,
    /// The run's Crafter score.
    pub crafter: Option<f64>,
    pub version: Option<Version>,
    pub split: Option<String>,
    /// In the file's order.
    pub episodes: Vec<Episode>,
}

/// Loads the results of a run from its folder or from a results.json path. Errors name the path:
/// a missing folder or file, unreadable or malformed JSON, a member of the wrong type, an
/// episode listed twice.
pub fn load(arg: &Path) -> Result<Run, String> {
    let path = if arg.is_dir() {
        arg.join("results.json")
    } else {
        arg.to_path_buf()
    };
    if !path.exists() {
        return Err(if arg.is_dir() {
            format!("{} holds no results.json", arg.display())
        } else {
            format!("no results at {}: no such folder or file", arg.display())
        });
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file: File = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a readable results.json: {e}", path.display()))?;
    let mut seen = BTreeSet::new();
    let mut episodes = Vec::with_capacity(file.episodes.len());
    for e in file.episodes {
        if !seen.insert((e.scenario.clone(), e.seed)) {
            return Err(format!(
                "{} lists scenario {} seed {} twice",
                path.display(),
                e.scenario,
                e.seed
            ));
        }
        let status = match (e.status, &e.error) {
            (Some(s), _) => s,
            (None, Some(_)) => "error".to_owned(),
            (None, None) => "ok".to_owned(),
        };
        let ok = status == "ok";
        let score = match e.score {
            Some(s) if s.is_finite() => s,
            _ if !ok => 0.0,
            _ => {
                return Err(format!("{}: episode {} has no score", path.display(), e.id));
            }
        };
        episodes.push(Episode {
            id: e.id,
            scenario: e.scenario,
            seed: e.seed,
            score: if ok { score } else { 0.0 },
            success: ok && e.success,
            status,
        });
    }
    Ok(Run {
        path,
        agent: file.agent,
        crafter: file.score,
        version: file.version,
        split: file.split,
        episodes,
    })
}

impl Run {
    pub fn rules_digest(&self) -> Option<&str> {
        self.version.as_ref()?.rules_digest.as_deref()
    }

    pub fn scenario_digest(&self, id: &str) -> Option<&str> {
        self.version.as_ref()?.scenarios.get(id).map(String::as_str)
    }

    /// The scenarios it played, sorted.
    pub fn scenarios(&self) -> BTreeSet<&str> {
        self.episodes.iter().map(|e| e.scenario.as_str()).collect()
    }

    /// Its episodes of one scenario.
    pub fn of<'a>(&'a self, scenario: &'a str) -> impl Iterator<Item = &'a Episode> + 'a {
        self.episodes.iter().filter(move |e| e.scenario == scenario)
    }

    /// The version stamp in a few characters: `colony 0.1.0 3f01d06 rules 9c1e2a4b` (commit
    /// and digest shortened), `unversioned` without a stamp.
    pub fn stamp(&self) -> String {
        let Some(v) = &self.version else {
            return "unversioned".to_owned();
        };
        let mut s = format!("colony {}", v.colony.as_deref().unwrap_or("?"));
        if let Some(c) = &v.commit {
            s.push(' ');
            s.push_str(short(c, 7));
        }
        s.push_str(" rules ");
        s.push_str(v.rules_digest.as_deref().map_or("?", |d| short(d, 8)));
        s
    }
}

/// The first `n` characters of a digest.
pub fn short(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// Why these runs may not be set side by side: runs without a version stamp or rules digest
/// (unknown rules), different rules digests, and, for each of `scenarios` that more than one run
/// played, scenario files that differ or are unknown. Empty when they agree.
pub fn rule_differences(runs: &[&Run], scenarios: &BTreeSet<&str>) -> Vec<String> {
    let mut out = Vec::new();
    for r in runs {
        if r.rules_digest().is_none() {
            out.push(format!(
                "{} has no rules digest (no version stamp: rules unknown)",
                r.path.display()
            ));
        }
    }
    // Each distinct digest once, with the first run that has it.
    let mut digests: Vec<(&str, &Run)> = Vec::new();
    for r in runs {
        if let Some(d) = r.rules_digest()
            && !digests.iter().any(|(x, _)| *x == d)
        {
            digests.push((d, r));
        }
    }
    if digests.len() > 1 {
        let parts: Vec<String> = digests
            .iter()
            .enumerate()
            .map(|(i, (d, r))| {
                let what = if i == 0 { "rules digest " } else { "" };
                format!("{} has {what}{d}", r.path.display())
            })
            .collect();
        out.push(format!("rules differ: {}", parts.join(", ")));
    }
    for s in scenarios {
        let players: Vec<&&Run> = runs.iter().filter(|r| r.of(s).next().is_some()).collect();
        if players.len() < 2 {
            continue;
        }
        let mut seen: Vec<(&str, &Run)> = Vec::new();
        for r in &players {
            match r.scenario_digest(s) {
                None if r.version.is_some() => out.push(format!(
                    "scenario {s}: {} has no digest of its file",
                    r.path.display()
                )),
                Some(d) if !seen.iter().any(|(x, _)| *x == d) => seen.push((d, r)),
                _ => {}
            }
        }
        if seen.len() > 1 {
            let parts: Vec<String> = seen
                .iter()
                .enumerate()
                .map(|(i, (d, r))| {
                    let what = if i == 0 { "scenario digest " } else { "" };
                    format!("{} has {what}{d}", r.path.display())
                })
                .collect();
            out.push(format!("scenario {s} differs: {}", parts.join(", ")));
        }
    }
    out
}

/// Applies [`rule_differences`]: with `force`, each as a warning line on stderr; without, an
/// error (one line) saying how to go on anyway.
pub fn check_rules(runs: &[&Run], scenarios: &BTreeSet<&str>, force: bool) -> Result<(), String> {
    let problems = rule_differences(runs, scenarios);
    if problems.is_empty() {
        return Ok(());
    }
    if force {
        for p in &problems {
            eprintln!("warning: {p} (--force: set side by side anyway)");
        }
        return Ok(());
    }
    Err(format!(
        "{}; these runs were not played under the same rules (--force sets them side by side anyway)",
        problems.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("results.json"), text).unwrap();
        d
    }

    const NEW: &str = r#"{"agent": "a", "score": 3.5, "extra": [1, 2],
      "version": {"colony": "0.1.0", "commit": "3f01d06aaaa", "rulesDigest": "abcdef0123456789",
                  "scenarios": {"s": "d1"}},
      "split": "dev",
      "episodes": [
        {"id": "s-s1", "scenario": "s", "seed": 1, "score": 60, "success": true, "status": "ok", "more": {}},
        {"id": "s-s2", "scenario": "s", "seed": 2, "score": 70, "success": true, "status": "tampered"},
        {"id": "s-s3", "scenario": "s", "seed": 3, "score": 50, "success": false}
      ]}"#;

    #[test]
    fn new_and_old_files_load() {
        let dir = tempfile::tempdir().unwrap();
        let d = write(dir.path(), "new", NEW);
        let r = load(&d).unwrap();
        assert_eq!(r.path, d.join("results.json"));
        assert_eq!(r.crafter, Some(3.5));
        assert_eq!(r.split.as_deref(), Some("dev"));
        assert_eq!(r.stamp(), "colony 0.1.0 3f01d06 rules abcdef01");
        let e: Vec<(f64, bool, &str)> = r
            .episodes
            .iter()
            .map(|e| (e.score, e.success, e.status.as_str()))
            .collect();
        // Not ok: counted as 0 and failed; no status: ok.
        assert_eq!(
            e,
            vec![
                (60.0, true, "ok"),
                (0.0, false, "tampered"),
                (50.0, false, "ok")
            ]
        );
        // A path to the file itself works too.
        assert_eq!(load(&d.join("results.json")).unwrap().episodes.len(), 3);

        let old = write(
            dir.path(),
            "old",
            r#"{"agent": "b", "score": 1, "episodes": [
                {"id": "s-s1", "scenario": "s", "seed": 1, "score": 0, "success": false, "error": "colonyd died"}]}"#,
        );
        let r = load(&old).unwrap();
        assert!(r.version.is_none());
        assert_eq!(r.stamp(), "unversioned");
        assert_eq!(r.episodes[0].status, "error");
    }

    #[test]
    fn bad_input_names_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        assert!(load(&missing).unwrap_err().contains("nope"));
        let empty = dir.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        assert!(
            load(&empty)
                .unwrap_err()
                .ends_with("empty holds no results.json")
        );
        let bad = write(dir.path(), "bad", "{\"agent\": ");
        let e = load(&bad).unwrap_err();
        assert!(
            e.contains("bad/results.json is not a readable results.json"),
            "{e}"
        );
        let twice = write(
            dir.path(),
            "twice",
            r#"{"agent": "a", "episodes": [{"id": "x", "scenario": "s", "seed": 1, "score": 1},
                                          {"id": "y", "scenario": "s", "seed": 1, "score": 2}]}"#,
        );
        assert!(load(&twice).unwrap_err().contains("seed 1 twice"));
    }

    #[test]
    fn rules_are_compared_by_digest() {
        let dir = tempfile::tempdir().unwrap();
        let a = load(&write(dir.path(), "a", NEW)).unwrap();
        let b = load(&write(
            dir.path(),
            "b",
            &NEW.replace("abcdef0123456789", "9999"),
        ))
        .unwrap();
        let c = load(&write(dir.path(), "c", &NEW.replace("\"d1\"", "\"d2\""))).unwrap();
        let s: BTreeSet<&str> = ["s"].into();
        assert!(rule_differences(&[&a, &a.clone()], &s).is_empty());
        let d = rule_differences(&[&a, &b], &s);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("rules differ: "), "{d:?}");
        assert!(
            d[0].contains("abcdef0123456789") && d[0].contains("9999"),
            "{d:?}"
        );
        let d = rule_differences(&[&a, &c], &s);
        assert!(
            d[0].starts_with("scenario s differs") && d[0].contains("d2"),
            "{d:?}"
        );
        // Only the scenarios asked about count.
        assert!(rule_differences(&[&a, &c], &BTreeSet::new()).is_empty());
        let mut old = a.clone();
        old.version = None;
        let d = rule_differences(&[&a, &old], &s);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].contains("rules unknown"));
        assert!(check_rules(&[&a, &b], &s, false).is_err());
        assert!(check_rules(&[&a, &b], &s, true).is_ok());
    }
}

//! Scenarios: the tasks an agent is evaluated on, as TOML data files (`scenarios/*.toml`, schema in
//! `docs/evaluation.md`). A scenario names the new game (seeds, faction, mode, map), an optional
//! setup (starting goods, science, unlocked buildings, then API commands), the horizon and turn
//! length, the success conditions and the weighted score over metrics of the colony's history.
//!
//! Loading validates everything a run would trip over later (unknown members, metric names,
//! operators, weights, faction and mode names, routes of setup commands) and says what was wrong
//! and what to write instead, naming the file.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The scenarios shipped in `scenarios/`, embedded at build time: (file name, text).
pub const SHIPPED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// A validated scenario.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short stable id (lowercase letters, digits and dashes), e.g. `survive-60`.
    pub id: String,
    pub title: String,
    /// How hard the task is: `intro`, `standard` (the default) or `hard`.
    #[serde(default)]
    pub tier: Tier,
    /// What the agent is told to achieve (its prompt carries it every turn).
    pub goal: String,
    /// Game days the episode lasts.
    pub horizon_days: f64,
    /// Game hours the harness advances after each agent turn.
    #[serde(default = "default_turn_hours")]
    pub turn_hours: f64,
    /// End the episode as soon as every success condition holds (lab-play quotas).
    #[serde(default)]
    pub stop_on_success: bool,
    pub game: GameSpec,
    #[serde(default)]
    pub setup: Setup,
    /// Conditions that must all hold at the end for the episode to count as a success.
    #[serde(default)]
    pub success: Vec<Condition>,
    /// The score: weighted metrics, each scaled against its target to 0..1.
    pub score: Vec<ScoreTerm>,
    /// Achievement ids this scenario counts (default: all of them).
    #[serde(default)]
    pub achievements: Option<Vec<String>>,
    /// The scenario file's text (each episode's folder keeps a copy, `scenario.toml`).
    #[serde(skip)]
    pub text: String,
}

/// How hard a scenario is.
#[derive(Clone, Copy, Debug, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Intro,
    #[default]
    Standard,
    Hard,
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Tier::Intro => "intro",
            Tier::Standard => "standard",
            Tier::Hard => "hard",
        })
    }
}

/// The seed sets of a scenario: `dev` (its `seeds`, for tuning agents and the project's own
/// reference solutions) and `test` (its `test_seeds`, by default 1001-1010; never used for
/// tuning). The two are disjoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    Dev,
    Test,
}

/// The test seeds of a scenario that names none.
pub const DEFAULT_TEST_SEEDS: std::ops::RangeInclusive<u64> = 1001..=1010;

fn default_turn_hours() -> f64 {
    24.0
}

/// The new game of every episode.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// `Folktails` or `IronTeeth`.
    pub faction: String,
    /// `Easy`, `Normal` or `Hard`.
    pub mode: String,
    /// Map side (square) or `"WIDTHxHEIGHT"`.
    #[serde(default = "default_map")]
    pub map: Value,
    /// The `dev` seeds episodes are played on (one episode each), unless `--seeds` replaces
    /// them.
    pub seeds: Vec<u64>,
    /// The `test` seeds (`--split test`); default 1001-1010. Disjoint from `seeds`.
    #[serde(default)]
    pub test_seeds: Option<Vec<u64>>,
    #[serde(default)]
    pub settlement: Option<String>,
}

fn default_map() -> Value {
    Value::from(128)
}

/// What the game starts with beyond the mode's defaults.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Goods added to the district center.
    #[serde(default)]
    pub goods: BTreeMap<String, u32>,
    /// Science points to start with.
    #[serde(default)]
    pub science: u32,
    /// Buildings unlocked without spending science.
    #[serde(default)]
    pub unlocked: Vec<String>,
    /// API commands run in order after the game starts (e.g. pre-placed buildings).
    #[serde(default)]
    pub commands: Vec<Command>,
}

impl Setup {
    /// Whether the `setup` member of `POST /api/game/new` is needed.
    pub fn needs_game_setup(&self) -> bool {
        !self.goods.is_empty() || self.science > 0 || !self.unlocked.is_empty()
    }
}

/// One API command of a setup: `route = "POST /api/building/place"` with its JSON body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    pub route: String,
    #[serde(default)]
    pub body: Option<toml::Value>,
}

impl Command {
    /// The method and path of the route.
    pub fn method_path(&self) -> (&str, &str) {
        self.route
            .split_once(' ')
            .map_or(("", ""), |(m, p)| (m, p.trim()))
    }
}

/// A success condition and a score term: `colony-score`'s, which read the TOML's `[[success]]`
/// and `[[score]]`.
pub use ::score::terms::{Condition, ScoreTerm};

/// A problem with a scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// The file (or shipped name) the problem is in.
    pub source: String,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for ScenarioError {}

impl Scenario {
    /// Parses and validates a scenario's TOML text; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<Scenario, ScenarioError> {
        let err = |message: String| ScenarioError {
            source: source.to_owned(),
            message,
        };
        let mut s: Scenario = toml::from_str(text).map_err(|e| err(format!("{e}")))?;
        s.validate().map_err(err)?;
        s.text = text.to_owned();
        Ok(s)
    }

    /// Reads a scenario file.
    pub fn from_file(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
            source: path.display().to_string(),
            message: format!("cannot read the file: {e}"),
        })?;
        Scenario::parse(&text, &path.display().to_string())
    }

    /// Every shipped scenario, sorted by id.
    pub fn shipped() -> Result<Vec<Scenario>, ScenarioError> {
        let mut out = SHIPPED
            .iter()
            .map(|(name, text)| Scenario::parse(text, &format!("scenarios/{name}")))
            .collect::<Result<Vec<_>, _>>()?;
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    /// SHA-256 of the scenario file's text (hex), for the results' version stamp.
    pub fn digest(&self) -> String {
        sha256_hex(self.text.as_bytes())
    }

    /// A shipped scenario by id, or a scenario file by path.
    pub fn find(id_or_file: &str) -> Result<Scenario, ScenarioError> {
        let path = Path::new(id_or_file);
        if id_or_file.ends_with(".toml") || path.is_file() {
            return Scenario::from_file(path);
        }
        let all = Scenario::shipped()?;
        all.iter()
            .find(|s| s.id == id_or_file)
            .cloned()
            .ok_or_else(|| ScenarioError {
                source: id_or_file.to_owned(),
                message: format!(
                    "no shipped scenario has this id and no such file exists; ids: {} (or give a path to a .toml file)",
                    all.iter().map(|s| s.id.as_str()).collect::<Vec<_>>().join(", ")
                ),
            })
    }

    /// Whether this scenario counts an achievement (all of them unless it lists its own).
    pub fn counts(&self, achievement: &str) -> bool {
        self.achievements
            .as_ref()
            .is_none_or(|l| l.iter().any(|x| x == achievement))
    }

    /// The seeds of a split.
    pub fn split_seeds(&self, split: Split) -> Vec<u64> {
        match split {
            Split::Dev => self.game.seeds.clone(),
            Split::Test => self
                .game
                .test_seeds
                .clone()
                .unwrap_or_else(|| DEFAULT_TEST_SEEDS.collect()),
        }
    }

    /// How many turns an episode has.
    pub fn turns(&self, turn_hours: f64) -> u32 {
        (self.horizon_days * 24.0 / turn_hours).ceil() as u32
    }

    fn validate(&self) -> Result<(), String> {
        let test = self.split_seeds(Split::Test);
        if let Some(seed) = self.game.seeds.iter().find(|s| test.contains(s)) {
            return Err(format!(
                "seed {seed} is both a dev seed (game.seeds) and a test seed (game.test_seeds, \
                 default 1001-1010); the two sets must be disjoint"
            ));
        }
        if test.is_empty() {
            return Err("game.test_seeds must list at least one seed".into());
        }
        if self.id.is_empty()
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(format!(
                "id must be lowercase letters, digits and dashes (e.g. \"survive-60\"); got {:?}",
                self.id
            ));
        }
        if self.title.trim().is_empty() || self.goal.trim().is_empty() {
            return Err("title and goal must not be empty".into());
        }
        ::score::terms::check_horizon(self.horizon_days)
            .map_err(|e| format!("horizon_days {e}"))?;
        check_turn_hours(self.turn_hours)?;
        if !["Folktails", "IronTeeth"].contains(&self.game.faction.as_str()) {
            return Err(format!(
                "game.faction must be \"Folktails\" or \"IronTeeth\"; got {:?}",
                self.game.faction
            ));
        }
        if !["Easy", "Normal", "Hard"].contains(&self.game.mode.as_str()) {
            return Err(format!(
                "game.mode must be \"Easy\", \"Normal\" or \"Hard\"; got {:?}",
                self.game.mode
            ));
        }
        match &self.game.map {
            Value::Number(n) if n.as_u64().is_some_and(|n| (32..=256).contains(&n)) => {}
            Value::String(s) if s.contains('x') => {}
            other => {
                return Err(format!(
                    "game.map must be a side from 32 to 256 (e.g. 128) or \"WIDTHxHEIGHT\"; got {other}"
                ));
            }
        }
        if self.game.seeds.is_empty() {
            return Err("game.seeds must list at least one seed, e.g. seeds = [1, 2, 3]".into());
        }
        for c in &self.setup.commands {
            let (m, p) = c.method_path();
            if !matches!(m, "GET" | "POST") || !p.starts_with("/api/") {
                return Err(format!(
                    "setup.commands route must be \"POST /api/...\" or \"GET /api/...\"; got {:?}",
                    c.route
                ));
            }
            if matches!(
                p,
                "/api/game/new" | "/api/game/load" | "/api/ready" | "/api/settings"
            ) {
                return Err(format!(
                    "setup.commands may not call {p}: the harness starts the game itself"
                ));
            }
        }
        for c in &self.success {
            c.check()
                .map_err(|e| format!("success {:?}: {e}", c.metric))?;
        }
        if self.score.is_empty() {
            return Err(
                "score must have at least one term, e.g. [[score]] metric = \"days_survived\" target = 60"
                    .into(),
            );
        }
        for t in &self.score {
            t.check()
                .map_err(|e| format!("score term {:?}: {e}", t.metric))?;
        }
        if let Some(ids) = &self.achievements {
            for id in ids {
                if crate::achievements::find(id).is_none() {
                    return Err(format!(
                        "achievements: unknown id {id:?}; valid ids: {}",
                        crate::achievements::ALL
                            .iter()
                            .map(|a| a.id)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Checks a turn length in game hours.
pub fn check_turn_hours(h: f64) -> Result<(), String> {
    if h.is_finite() && (0.25..=240.0).contains(&h) {
        Ok(())
    } else {
        Err(format!(
            "turn_hours must be from 0.25 to 240 game hours; got {h}"
        ))
    }
}

/// SHA-256 of `bytes` as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Parses a seed list: `7,8,9`, ranges `1..10` (inclusive) and mixes (`1..3,9`).
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad =
            || format!("--seeds takes numbers and ranges such as 7,8,9 or 1..10; got {part:?}");
        if let Some((a, b)) = part.split_once("..") {
            let a: u64 = a.trim().parse().map_err(|_| bad())?;
            let b: u64 = b
                .trim()
                .trim_start_matches('=')
                .parse()
                .map_err(|_| bad())?;
            if b < a || b - a >= 10_000 {
                return Err(format!(
                    "--seeds range {part:?} must go up and hold at most 10000 seeds"
                ));
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad())?);
        }
    }
    if out.is_empty() {
        return Err("--seeds must name at least one seed, e.g. 1..10".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
id = "t"
title = "T"
goal = "Live."
horizon_days = 2
[game]
faction = "Folktails"
mode = "Normal"
seeds = [1]
[[score]]
metric = "days_survived"
target = 2
"#;

    #[test]
    fn every_shipped_scenario_loads_and_ids_are_unique() {
        let all = Scenario::shipped().expect("shipped scenarios are valid");
        assert!(all.len() >= 12, "{} scenarios", all.len());
        let mut ids: Vec<_> = all.iter().map(|s| s.id.clone()).collect();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        for id in ["survive-60", "survive-60-it", "survive-60-hard"] {
            assert!(ids.iter().any(|i| i == id), "{id} shipped");
        }
        assert!(all.iter().any(|s| s.game.faction == "IronTeeth"));
        assert!(all.iter().any(|s| s.game.faction == "Folktails"));
    }

    #[test]
    fn a_minimal_scenario_gets_the_defaults() {
        let s = Scenario::parse(MINIMAL, "t.toml").unwrap();
        assert_eq!(s.turn_hours, 24.0);
        assert_eq!(s.game.map, Value::from(128));
        assert_eq!(s.turns(24.0), 2);
        assert_eq!(s.turns(5.0), 10);
        assert!(!s.setup.needs_game_setup());
    }

    fn error_of(text: &str) -> String {
        Scenario::parse(text, "bad.toml").unwrap_err().to_string()
    }

    #[test]
    fn bad_files_say_what_is_wrong_and_where() {
        let e = error_of(&MINIMAL.replace("faction = \"Folktails\"", "faction = \"Otters\""));
        assert!(e.starts_with("bad.toml: game.faction must be"), "{e}");
        let e = error_of(&MINIMAL.replace("metric = \"days_survived\"", "metric = \"happiness\""));
        assert!(e.contains("unknown metric \"happiness\""), "{e}");
        assert!(e.contains("days_survived"), "lists valid metrics: {e}");
        let e = error_of(&MINIMAL.replace("horizon_days = 2", "horizon_days = 2\ncolour = 3"));
        assert!(e.contains("unknown field `colour`"), "{e}");
        let e = error_of(&MINIMAL.replace("seeds = [1]", "seeds = []"));
        assert!(e.contains("game.seeds must list"), "{e}");
        let e = error_of(&MINIMAL.replace("target = 2", "target = 0"));
        assert!(e.contains("must be positive"), "{e}");
        let e = error_of(&format!(
            "{MINIMAL}\n[[success]]\nmetric = \"alive\"\nop = \"=>\"\nvalue = 1\n"
        ));
        assert!(e.contains("success \"alive\": op must be one of"), "{e}");
        let e = error_of(&MINIMAL.replace("id = \"t\"", "id = \"Bad Id\""));
        assert!(e.contains("id must be lowercase"), "{e}");
        let e = error_of(&MINIMAL.replace(
            "goal = \"Live.\"",
            "goal = \"Live.\"\nachievements = [\"fly\"]",
        ));
        assert!(e.contains("unknown id \"fly\""), "{e}");
        let e = error_of(&format!(
            "{MINIMAL}\n[[setup.commands]]\nroute = \"POST /api/game/load\"\n"
        ));
        assert!(e.contains("may not call /api/game/load"), "{e}");
        let e = error_of("id = ");
        assert!(e.starts_with("bad.toml: "), "{e}");
    }

    #[test]
    fn unknown_ids_list_the_shipped_ones() {
        let e = Scenario::find("survive-6").unwrap_err().to_string();
        assert!(e.contains("survive-60"), "{e}");
        assert_eq!(Scenario::find("survive-60").unwrap().id, "survive-60");
    }

    #[test]
    fn seed_lists_take_numbers_and_ranges() {
        assert_eq!(parse_seeds("7,8,9").unwrap(), vec![7, 8, 9]);
        assert_eq!(parse_seeds("1..4").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_seeds("1..2, 9").unwrap(), vec![1, 2, 9]);
        assert!(parse_seeds("x").unwrap_err().contains("1..10"));
        assert!(parse_seeds("5..1").is_err());
        assert!(parse_seeds("").is_err());
    }
}

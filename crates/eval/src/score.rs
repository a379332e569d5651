//! Scores: an episode's scenario score (weighted metric terms, 0-100) and success, computed by
//! `colony-score` (crates/score, which colonyd's `POST /api/score` shares), and the
//! aggregates of a run: per scenario the mean score with its standard error and the success
//! rate, and overall the Crafter score, the geometric mean of the achievements' success rates:
//! `exp(mean(ln(1 + rate%))) - 1` over every achievement (rates in percent, 0-100).

use crate::achievements;
use crate::metrics::{Outcome, round3};
use crate::scenario::Scenario;
use serde::Serialize;
use std::collections::BTreeMap;

/// One term's part of an episode's score (`colony-score`'s).
pub use ::score::terms::TermScore;

/// The score's terms for an episode of the scenario: each term's value, and its points of 100
/// (`colony-score` with the scenario's terms and horizon).
pub fn score_terms(s: &Scenario, o: &Outcome) -> Vec<TermScore> {
    ::score::score_terms(&s.score, s.horizon_days, o)
}

/// The scenario score of an episode, 0-100: the weighted mean of its terms' fractions (each
/// survival-scaled term's fraction times the share of the horizon the colony lived).
pub fn episode_score(s: &Scenario, o: &Outcome) -> f64 {
    ::score::episode_score(&s.score, s.horizon_days, o)
}

/// Whether every success condition holds (a scenario without conditions succeeds when the colony
/// is alive at the end).
pub fn episode_success(s: &Scenario, o: &Outcome) -> bool {
    ::score::episode_success(&s.success, o)
}

/// The achievements an episode of this scenario counts that it unlocked.
pub fn episode_achievements(s: &Scenario, o: &Outcome) -> Vec<String> {
    achievements::unlocked(o)
        .into_iter()
        .filter(|id| s.counts(id))
        .map(str::to_owned)
        .collect()
}

/// Mean and standard error of the mean (0 with fewer than two values).
pub fn mean_stderr(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (round3(mean), 0.0);
    }
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (round3(mean), round3((var / n).sqrt()))
}

/// Crafter's score from success rates in 0..1: the geometric mean of (1 + percent), minus 1.
pub fn crafter_score(rates: &[f64]) -> f64 {
    if rates.is_empty() {
        return 0.0;
    }
    let mean_ln = rates.iter().map(|r| (1.0 + 100.0 * r).ln()).sum::<f64>() / rates.len() as f64;
    round3(mean_ln.exp() - 1.0)
}

/// What results.json says of one scenario.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioSummary {
    pub title: String,
    pub faction: String,
    pub mode: String,
    pub episodes: usize,
    /// Of them, invalid (the agent failed on more than half its turns; scored 0).
    pub invalid_episodes: usize,
    /// Of them, tampered (the game was changed around the harness; scored 0).
    pub tampered_episodes: usize,
    pub mean_score: f64,
    pub stderr: f64,
    pub success_rate: f64,
    pub mean_days_survived: f64,
    /// Achievement id -> share of this scenario's episodes that unlocked it.
    pub achievements: BTreeMap<String, f64>,
}

/// Share of `episodes` whose achievement lists hold each achievement a scenario counts.
pub fn achievement_rates<'a>(
    counted: impl Iterator<Item = &'static str>,
    episodes: impl Iterator<Item = &'a [String]> + Clone,
) -> BTreeMap<String, f64> {
    let n = episodes.clone().count().max(1) as f64;
    counted
        .map(|id| {
            let k = episodes
                .clone()
                .filter(|got| got.iter().any(|g| g == id))
                .count();
            (id.to_owned(), round3(k as f64 / n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Row;
    use crate::metrics::tests::row;

    fn scenario(extra: &str) -> Scenario {
        Scenario::parse(
            &format!(
                r#"
id = "t"
title = "T"
goal = "Live."
horizon_days = 2
{extra}
[game]
faction = "Folktails"
mode = "Normal"
seeds = [1]
[[score]]
metric = "days_survived"
weight = 3
target = 2
[[score]]
metric = "deaths"
weight = 1
target = 4
lower_is_better = true
"#
            ),
            "t.toml",
        )
        .unwrap()
    }

    #[test]
    fn a_score_by_hand() {
        // Alive one day (of a 2-day target) with one death (of 4 allowed):
        // (3 * 0.5 + 1 * 0.75) / 4 = 0.5625.
        let mut rows: Vec<Row> = (0..24)
            .map(|i| row(1 + (5 + i) / 24, (5 + i) % 24, 3))
            .collect();
        rows[10].deaths.insert("Thirst".into(), 1);
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(o.days_survived(), 1.0);
        assert_eq!(episode_score(&scenario(""), &o), 56.25);
        // Without conditions, success is being alive at the end.
        assert!(episode_success(&scenario(""), &o));
    }

    #[test]
    fn scenarios_count_only_their_achievements() {
        let mut rows = vec![row(2, 5, 3)];
        rows[0].produced.insert("Water".into(), 1.0);
        rows[0].births = 1;
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(
            episode_achievements(&scenario(""), &o),
            vec!["first-water", "first-birth"]
        );
        let only = scenario("achievements = [\"first-birth\"]");
        assert_eq!(episode_achievements(&only, &o), vec!["first-birth"]);
    }

    #[test]
    fn aggregates() {
        assert_eq!(mean_stderr(&[]), (0.0, 0.0));
        assert_eq!(mean_stderr(&[5.0]), (5.0, 0.0));
        // Sample sd of 2, 4, 6 is 2; stderr 2 / sqrt(3).
        assert_eq!(
            mean_stderr(&[2.0, 4.0, 6.0]),
            (4.0, round3(2.0 / 3f64.sqrt()))
        );
        // Crafter: all zero gives 0, all 100% gives 100, a mix lies between (geometric mean).
        assert_eq!(crafter_score(&[0.0, 0.0]), 0.0);
        assert_eq!(crafter_score(&[1.0, 1.0]), 100.0);
        assert_eq!(crafter_score(&[1.0, 0.0]), round3((101f64).sqrt() - 1.0));
        let eps: Vec<Vec<String>> = vec![vec!["a".into()], vec![]];
        let rates = achievement_rates(["a", "b"].into_iter(), eps.iter().map(Vec::as_slice));
        assert_eq!(rates["a"], 0.5);
        assert_eq!(rates["b"], 0.0);
    }
}

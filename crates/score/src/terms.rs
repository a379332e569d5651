//! Score terms and success conditions, and an episode's score (0-100) and success over what it
//! left ([`Outcome`]): the one computation `colony eval` scores scenarios with and colonyd's
//! `POST /api/score` (the Gym reward) answers with.
//!
//! A term scales a metric against its target to a fraction in 0..1 (`value / target`, or
//! `1 - value / target` when lower is better, clamped); a survival-scaled term's fraction is
//! multiplied by the share of the horizon the colony lived (`days_survived / horizon_days`). The
//! score is the weighted mean of the fractions, times 100. The types read a scenario's TOML
//! (`[[score]]`, `[[success]]`, snake case); the service reads its own camel-case body.

use crate::metrics::{MetricName, Outcome, round3};
use serde::{Deserialize, Serialize};

/// The comparison operators of a success condition.
pub const OPS: &[&str] = &[">=", ">", "<=", "<", "==", "!="];

/// A comparison of a metric with a value.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub metric: String,
    #[serde(default = "default_op")]
    pub op: String,
    pub value: f64,
}

/// The operator of a condition that names none.
pub fn default_op() -> String {
    ">=".into()
}

impl Condition {
    /// Whether `m` satisfies the condition.
    pub fn holds(&self, m: f64) -> bool {
        match self.op.as_str() {
            ">=" => m >= self.value,
            ">" => m > self.value,
            "<=" => m <= self.value,
            "<" => m < self.value,
            "==" => (m - self.value).abs() < 1e-9,
            "!=" => (m - self.value).abs() >= 1e-9,
            _ => false,
        }
    }

    /// `Ok` when the metric exists and the operator is one of [`OPS`], else what is wrong and
    /// what to write instead.
    pub fn check(&self) -> Result<(), String> {
        MetricName::parse(&self.metric)?;
        if !OPS.contains(&self.op.as_str()) {
            return Err(format!(
                "op must be one of {}; got {:?}",
                OPS.join(" "),
                self.op
            ));
        }
        if !self.value.is_finite() {
            return Err(format!("value must be a finite number; got {}", self.value));
        }
        Ok(())
    }
}

/// One term of the score.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreTerm {
    pub metric: String,
    /// Relative weight (> 0).
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// The metric value worth full marks (> 0).
    pub target: f64,
    /// Lower is better: full marks at 0, none at `target` or above.
    #[serde(default)]
    pub lower_is_better: bool,
    /// The term counts in proportion to the share of the horizon the colony lived
    /// (`days_survived / horizon_days`): a quality such as wellbeing earns its points only for
    /// the time it was held, so a colony that dies early cannot score it in full.
    #[serde(default)]
    pub survival_scaled: bool,
}

/// The weight of a term that names none.
pub fn default_weight() -> f64 {
    1.0
}

impl ScoreTerm {
    /// The term's share in 0..1 for a metric value.
    pub fn fraction(&self, m: f64) -> f64 {
        let f = if self.lower_is_better {
            1.0 - m / self.target
        } else {
            m / self.target
        };
        if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) }
    }

    /// `Ok` when the metric exists and the weight and target are positive, else what is wrong
    /// and what to write instead.
    pub fn check(&self) -> Result<(), String> {
        MetricName::parse(&self.metric)?;
        let positive = |v: f64| v > 0.0 && v.is_finite();
        if !(positive(self.weight) && positive(self.target)) {
            return Err(format!(
                "weight and target must be positive numbers; got weight {} target {}",
                self.weight, self.target
            ));
        }
        Ok(())
    }
}

/// `Ok` when `days` is a horizon an episode can have (more than 0, at most 3650 days).
pub fn check_horizon(days: f64) -> Result<(), String> {
    if days > 0.0 && days <= 3650.0 {
        Ok(())
    } else {
        Err(format!(
            "must be more than 0 and at most 3650 days; got {days}"
        ))
    }
}

/// One term's part of an episode's score.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TermScore {
    pub metric: String,
    /// The metric's value.
    pub value: f64,
    pub target: f64,
    pub weight: f64,
    pub lower_is_better: bool,
    /// The share of the horizon the colony lived, when the term is survival-scaled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub survival_scale: Option<f64>,
    /// The term's points of the 0-100 score (the terms' points sum to the score).
    pub points: f64,
}

/// The score's terms for an episode of `horizon_days`: each term's value, and its points of 100
/// (unrounded). The terms must have passed [`ScoreTerm::check`].
pub fn score_terms(terms: &[ScoreTerm], horizon_days: f64, o: &Outcome) -> Vec<TermScore> {
    // Weights relative to the largest: their sum stays finite however large they are (weights
    // near f64::MAX summed to infinity and made every part NaN).
    let max = terms.iter().map(|t| t.weight).fold(0.0, f64::max);
    let total: f64 = terms.iter().map(|t| t.weight / max).sum();
    let lived = (o.days_survived() / horizon_days).clamp(0.0, 1.0);
    terms
        .iter()
        .map(|t| {
            let m = o.metric(&MetricName::parse(&t.metric).expect("a checked term"));
            let scale = t.survival_scaled.then_some(lived);
            let f = t.fraction(m) * scale.unwrap_or(1.0);
            TermScore {
                metric: t.metric.clone(),
                value: round3(m),
                target: t.target,
                weight: t.weight,
                lower_is_better: t.lower_is_better,
                survival_scale: scale.map(round3),
                points: 100.0 * (t.weight / max) * f / total,
            }
        })
        .collect()
}

/// The score of an episode, 0-100 (three decimals): the weighted mean of its terms' fractions
/// (each survival-scaled term's fraction times the share of the horizon the colony lived).
pub fn episode_score(terms: &[ScoreTerm], horizon_days: f64, o: &Outcome) -> f64 {
    round3(
        score_terms(terms, horizon_days, o)
            .iter()
            .map(|t| t.points)
            .sum(),
    )
}

/// Whether every condition holds (without conditions: whether the colony is alive at the end).
/// The conditions must have passed [`Condition::check`].
pub fn episode_success(conditions: &[Condition], o: &Outcome) -> bool {
    if conditions.is_empty() {
        return o.metric(&MetricName::Plain("alive")) > 0.0;
    }
    conditions
        .iter()
        .all(|c| c.holds(o.metric(&MetricName::parse(&c.metric).expect("a checked condition"))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Row;
    use crate::metrics::tests::row;

    #[test]
    fn weights_near_the_largest_float_still_score() {
        let o = Outcome::default();
        let terms = [term("alive", f64::MAX, 1.0), term("alive", f64::MAX, 1.0)];
        let parts = score_terms(&terms, 10.0, &o);
        assert!(parts.iter().all(|t| t.points.is_finite()), "{parts:?}");
        assert!(episode_score(&terms, 10.0, &o).is_finite());
    }

    fn term(metric: &str, weight: f64, target: f64) -> ScoreTerm {
        ScoreTerm {
            metric: metric.into(),
            weight,
            target,
            lower_is_better: false,
            survival_scaled: false,
        }
    }

    /// Days survived (3, target 2) and deaths (1, 4 allowed, lower is better).
    fn two_terms() -> Vec<ScoreTerm> {
        vec![
            term("days_survived", 3.0, 2.0),
            ScoreTerm {
                lower_is_better: true,
                ..term("deaths", 1.0, 4.0)
            },
        ]
    }

    /// A day of hourly rows from day 1 hour 5 with three adults.
    fn a_day() -> Vec<Row> {
        (0..24)
            .map(|i| row(1 + (5 + i) / 24, (5 + i) % 24, 3))
            .collect()
    }

    #[test]
    fn a_score_by_hand() {
        // Alive one day (of a 2-day target) with one death (of 4 allowed):
        // (3 * 0.5 + 1 * 0.75) / 4 = 0.5625.
        let mut rows = a_day();
        rows[10].deaths.insert("Thirst".into(), 1);
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(o.days_survived(), 1.0);
        assert_eq!(episode_score(&two_terms(), 2.0, &o), 56.25);
        // Without conditions, success is being alive at the end.
        assert!(episode_success(&[], &o));
    }

    #[test]
    fn survival_scaled_terms_count_for_the_days_lived_and_old_age_is_not_a_premature_death() {
        // Wellbeing 8 of 8, survival-scaled; premature deaths 1 of 4 allowed, survival-scaled.
        let mut terms = two_terms();
        terms[1].metric = "deaths_premature".into();
        terms[1].survival_scaled = true;
        terms.push(ScoreTerm {
            survival_scaled: true,
            ..term("wellbeing", 2.0, 8.0)
        });
        // Alive one day of the two, then everyone dead: half the horizon lived.
        let mut rows = a_day();
        rows.iter_mut().for_each(|r| r.wellbeing = 8.0);
        rows[3].deaths.insert("oldAge".into(), 2);
        rows[10].deaths.insert("thirst".into(), 1);
        rows.push(row(2, 6, 0));
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(o.metric(&MetricName::Plain("deaths")), 3.0);
        assert_eq!(o.metric(&MetricName::Plain("deaths_premature")), 1.0);
        let scored = score_terms(&terms, 2.0, &o);
        let days = o.days_survived() / 2.0;
        // days 3 * days, deaths 1 * 0.75 * days, wellbeing 2 * 1 * days; of a weight of 6.
        let want = [3.0 * days, 0.75 * days, 2.0 * days].map(|w| 100.0 * w / 6.0);
        for (t, w) in scored.iter().zip(want) {
            assert!((t.points - w).abs() < 1e-9, "{t:?} want {w}");
        }
        assert_eq!(scored[2].survival_scale, Some(round3(days)));
        assert_eq!(scored[0].survival_scale, None);
        let sum: f64 = scored.iter().map(|t| t.points).sum();
        assert_eq!(episode_score(&terms, 2.0, &o), round3(sum));
        // A longer horizon scales the same colony's qualities down.
        let longer = score_terms(&terms, 4.0, &o);
        assert!((longer[2].points - scored[2].points / 2.0).abs() < 1e-9);
    }

    #[test]
    fn success_needs_every_condition() {
        let conditions = vec![
            Condition {
                metric: "alive".into(),
                op: ">=".into(),
                value: 1.0,
            },
            Condition {
                metric: "produced.Plank".into(),
                op: ">=".into(),
                value: 10.0,
            },
        ];
        let mut rows = vec![row(1, 5, 3), row(1, 6, 3)];
        rows[1].produced.insert("Plank".into(), 9.0);
        let mut o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert!(!episode_success(&conditions, &o));
        o.rows[0].produced.insert("Plank".into(), 1.0);
        assert!(episode_success(&conditions, &o));
        o.rows[1].adults = 0;
        assert!(!episode_success(&conditions, &o));
    }

    #[test]
    fn conditions_and_terms() {
        let c = Condition {
            metric: "alive".into(),
            op: ">=".into(),
            value: 1.0,
        };
        assert!(c.holds(1.0) && !c.holds(0.0));
        let t = ScoreTerm {
            lower_is_better: true,
            ..term("deaths", 1.0, 10.0)
        };
        assert_eq!(t.fraction(0.0), 1.0);
        assert_eq!(t.fraction(5.0), 0.5);
        assert_eq!(t.fraction(20.0), 0.0);
        let t = ScoreTerm {
            lower_is_better: false,
            ..t
        };
        assert_eq!(t.fraction(5.0), 0.5);
        assert_eq!(t.fraction(50.0), 1.0);
    }

    #[test]
    fn checks_say_what_is_wrong() {
        assert_eq!(term("built.Lodge", 1.0, 2.0).check(), Ok(()));
        let e = term("happiness", 1.0, 2.0).check().unwrap_err();
        assert!(e.contains("unknown metric \"happiness\"") && e.contains("days_survived"));
        let e = term("deaths", 0.0, 2.0).check().unwrap_err();
        assert!(
            e.contains("must be positive numbers; got weight 0 target 2"),
            "{e}"
        );
        assert!(term("deaths", 1.0, -1.0).check().is_err());
        let c = Condition {
            metric: "alive".into(),
            op: "=>".into(),
            value: 1.0,
        };
        assert_eq!(
            c.check().unwrap_err(),
            "op must be one of >= > <= < == !=; got \"=>\""
        );
        assert!(check_horizon(60.0).is_ok());
        assert!(check_horizon(0.0).is_err() && check_horizon(f64::NAN).is_err());
    }
}

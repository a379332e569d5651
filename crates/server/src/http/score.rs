//! `POST /api/score` (extension): the game so far scored as `colony eval` scores a scenario, by
//! the same code (`colony-score`, crates/score): weighted metric terms over the colony's hourly
//! history and the finished buildings, and success conditions. The Gym reward reads it, so an
//! episode's rewards sum to the score the harness gives the same game.
//!
//! A read: it scores the published snapshot and never goes through the write queue. The history
//! rows become `score::Row`s through the JSON `GET /api/stats` serves them in, and `built.*`
//! metrics count the finished buildings as `GET /api/buildings` lists them, as the harness does
//! (`engine::scoring`, the bridge the in-process engine's reward uses too).

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError, invalid_param};
use axum::Json;
use axum::extract::State;
use score::metrics::Outcome;
use score::terms::{Condition, ScoreTerm, TermScore};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(score_game))
}

/// One term of the score: a metric scaled against its target to 0..1.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TermBody {
    /// A metric (docs/evaluation.md, "Metrics"), e.g. `days_survived`, `produced.Plank`,
    /// `built.Lodge`.
    pub metric: String,
    /// Relative weight (> 0; default 1).
    #[serde(default = "score::terms::default_weight")]
    pub weight: f64,
    /// The metric value worth full marks (> 0).
    pub target: f64,
    /// Full marks at 0, none at `target` or above.
    #[serde(default)]
    pub lower_is_better: bool,
    /// The fraction counts for the share of `horizonDays` the colony lived.
    #[serde(default)]
    pub survival_scaled: bool,
}

/// A success condition: a metric compared with a value.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConditionBody {
    pub metric: String,
    /// `>=` (default), `>`, `<=`, `<`, `==` or `!=`.
    #[serde(default = "score::terms::default_op")]
    pub op: String,
    pub value: f64,
}

/// `POST /api/score`: what to score the game by, as a scenario's `horizon_days`, `[[score]]`
/// and `[[success]]` say it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScoreBody {
    /// The episode's length in game days (more than 0, at most 3650): survival-scaled terms
    /// count the share of it the colony lived.
    pub horizon_days: f64,
    /// The score's terms (at least one).
    pub terms: Vec<TermBody>,
    /// Conditions that must all hold for `success` (default none: success is anyone alive).
    #[serde(default)]
    pub success: Vec<ConditionBody>,
}

impl BodySpec for ScoreBody {
    const EXAMPLE: &'static str = r#"{"horizonDays": 60, "terms": [{"metric": "days_survived", "weight": 4, "target": 60}, {"metric": "deaths_premature", "weight": 1, "target": 12, "lowerIsBetter": true, "survivalScaled": true}], "success": [{"metric": "days_survived", "op": ">=", "value": 60}]}"#;
}

/// The game's score: the total, each term's part and whether the conditions hold.
#[derive(Serialize, ToSchema)]
pub struct ScoreAnswer {
    /// 0-100, three decimals: the weighted mean of the terms' fractions.
    pub score: f64,
    /// Each term's value and points, in the order asked (points to three decimals).
    #[schema(value_type = Vec<TermScoreDoc>)]
    pub terms: Vec<TermScore>,
    /// Whether every condition holds (without conditions: anyone alive).
    pub success: bool,
}

// The schema of `score::TermScore` as it serializes, under its name (a test holds the two
// together).
/// One term's part of the score.
#[derive(ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TermScore)]
#[allow(dead_code)]
pub struct TermScoreDoc {
    pub metric: String,
    /// The metric's value.
    pub value: f64,
    pub target: f64,
    pub weight: f64,
    pub lower_is_better: bool,
    /// The share of the horizon the colony lived; only on survival-scaled terms.
    #[schema(required = false, value_type = f64)]
    pub survival_scale: Option<f64>,
    /// The term's points of the 0-100 score.
    pub points: f64,
}

/// Scores the game so far as `colony eval` scores a scenario over the same game (read-only):
/// `{score, terms: [{metric, value, target, weight, lowerIsBetter, survivalScale?, points}],
/// success}`. An unknown metric, a weight or target that is not positive, an unknown `op` or a
/// horizon out of range is `invalid_param` naming the term.
#[utoipa::path(post, path = "/api/score", tag = "colony", request_body = ScoreBody,
    responses((status = 200, body = ScoreAnswer)))]
async fn score_game(
    State(state): State<AppState>,
    Body(body): Body<ScoreBody>,
) -> ApiResult<ScoreAnswer> {
    let (terms, success) = checked(body.terms, body.success, body.horizon_days)?;
    let w = state.host.snapshot();
    let outcome = engine::scoring::outcome(&w, &terms, &success);
    Ok(Json(answer(&terms, &success, body.horizon_days, &outcome)))
}

/// The terms and conditions as `colony-score` takes them, or `invalid_param` naming the first
/// one that is wrong (with what was sent as `got`).
fn checked(
    terms: Vec<TermBody>,
    success: Vec<ConditionBody>,
    horizon_days: f64,
) -> Result<(Vec<ScoreTerm>, Vec<Condition>), AppError> {
    score::terms::check_horizon(horizon_days)
        .map_err(|e| invalid_param(format!("horizonDays {e}"), horizon_days))?;
    if terms.is_empty() {
        return Err(invalid_param(
            "terms must list at least one term, e.g. [{\"metric\": \"days_survived\", \"weight\": 1, \"target\": 60}]",
            serde_json::json!([]),
        ));
    }
    let mut out_terms = Vec::with_capacity(terms.len());
    for (i, t) in terms.into_iter().enumerate() {
        let term = ScoreTerm {
            metric: t.metric.clone(),
            weight: t.weight,
            target: t.target,
            lower_is_better: t.lower_is_better,
            survival_scaled: t.survival_scaled,
        };
        term.check().map_err(|e| {
            invalid_param(format!("terms[{i}]: {e}"), serde_json::to_value(&t).ok())
        })?;
        out_terms.push(term);
    }
    let mut out_success = Vec::with_capacity(success.len());
    for (i, c) in success.into_iter().enumerate() {
        let cond = Condition {
            metric: c.metric.clone(),
            op: c.op.clone(),
            value: c.value,
        };
        cond.check().map_err(|e| {
            invalid_param(format!("success[{i}]: {e}"), serde_json::to_value(&c).ok())
        })?;
        out_success.push(cond);
    }
    Ok((out_terms, out_success))
}

/// The answer for checked terms and conditions, with the points rounded as results.json has
/// them.
fn answer(
    terms: &[ScoreTerm],
    success: &[Condition],
    horizon_days: f64,
    o: &Outcome,
) -> ScoreAnswer {
    let mut scored = score::score_terms(terms, horizon_days, o);
    scored
        .iter_mut()
        .for_each(|t| t.points = score::metrics::round3(t.points));
    ScoreAnswer {
        score: score::episode_score(terms, horizon_days, o),
        terms: scored,
        success: score::episode_success(success, o),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::PartialSchema;

    #[test]
    fn the_documented_term_score_has_the_members_term_score_serializes() {
        let t = TermScore {
            metric: "wellbeing".into(),
            value: 1.0,
            target: 8.0,
            weight: 1.0,
            lower_is_better: false,
            survival_scale: Some(0.5),
            points: 6.25,
        };
        let sent: Vec<String> = serde_json::to_value(&t)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let doc = serde_json::to_value(TermScoreDoc::schema()).unwrap();
        let documented: Vec<String> = doc["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(sent, documented);
        let required = doc["required"].as_array().unwrap();
        assert_eq!(
            required.len(),
            sent.len() - 1,
            "all but survivalScale: {doc}"
        );
    }
}

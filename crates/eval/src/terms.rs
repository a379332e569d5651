//! One term of an episode's score as results.json gives it (`scoreTerms`): the metric's value
//! against its target and weight, and the term's points of the 0-100 score (the terms' points
//! sum to the episode's `score`). The report draws them as each episode's score breakdown.

use serde::{Deserialize, Serialize};

/// One scenario `score` term of an episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TermScore {
    /// The metric's name (`days_survived`, `produced.Plank`, ...).
    pub metric: String,
    /// The metric's value at the end of the episode.
    pub value: f64,
    /// The value worth full marks.
    pub target: f64,
    pub weight: f64,
    pub lower_is_better: bool,
    /// The term's share of the 0-100 score.
    pub points: f64,
}

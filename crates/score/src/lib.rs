//! Scores of Colony episodes, in one place: the colony's hourly history rows (`history`, as
//! `GET /api/stats` serves them), named metrics over a history (`metrics`), and weighted score
//! terms with success conditions (`terms`). `colony eval` scores scenarios with it, and colonyd
//! answers `POST /api/score` with it over its own game, which is what the Gymnasium reward reads:
//! an episode's rewards sum to the score the harness gives the same game. Depends on serde
//! alone (no simulation, no runtime). `docs/evaluation.md` lists the metrics for users.

pub mod history;
pub mod metrics;
pub mod terms;

pub use history::Row;
pub use metrics::{MetricName, Outcome};
pub use terms::{Condition, ScoreTerm, TermScore, episode_score, episode_success, score_terms};

//! A game scored as `colony eval` scores a scenario, from the world itself: its hourly history
//! rows as `score::Row`s (each serialized as `GET /api/stats` serializes it and read back as the
//! harness reads that answer) and the finished buildings by prefab base name. colonyd's
//! `POST /api/score` and the engine's reward use this one bridge; the engine keeps the rows it
//! has already read ([`ScoreRows`]), so a step reads only the hours it added.

use score::metrics::{MetricName, Outcome};
use score::terms::{Condition, ScoreTerm};
use sim::World;
use sim::history::HistoryRow;
use std::collections::BTreeMap;

/// The history rows as `score::Row`s.
pub fn score_rows(rows: &[HistoryRow]) -> Vec<score::Row> {
    let mut buf = Vec::with_capacity(1024);
    rows.iter().map(|r| score_row(r, &mut buf)).collect()
}

fn score_row(r: &HistoryRow, buf: &mut Vec<u8>) -> score::Row {
    buf.clear();
    serde_json::to_writer(&mut *buf, r).expect("history rows serialize");
    serde_json::from_slice(buf).expect("a history row reads as a score row")
}

/// Finished buildings by prefab base name (`LumberMill.Folktails` -> `LumberMill`), from the
/// rows `GET /api/buildings` lists.
pub fn built(w: &World) -> BTreeMap<String, u32> {
    let ids: Vec<i32> = w.building_keys().map(|(k, _)| k.id).collect();
    let mut out = BTreeMap::new();
    for b in w.building_briefs(&ids).into_iter().filter(|b| b.finished) {
        let base = b.name.split('.').next().unwrap_or(b.name);
        *out.entry(base.to_owned()).or_insert(0) += 1;
    }
    out
}

/// Whether any of these metrics counts finished buildings (`built.*`).
pub fn needs_built<'a>(metrics: impl IntoIterator<Item = &'a String>) -> bool {
    metrics
        .into_iter()
        .any(|m| matches!(MetricName::parse(m), Ok(MetricName::Param("built", _))))
}

/// What the game left to measure for these terms and conditions: its history from the first
/// row, and the finished buildings when a metric needs them.
pub fn outcome(w: &World, terms: &[ScoreTerm], success: &[Condition]) -> Outcome {
    let metrics = terms
        .iter()
        .map(|t| &t.metric)
        .chain(success.iter().map(|c| &c.metric));
    let mut rows = ScoreRows::default();
    rows.outcome(w, needs_built(metrics));
    rows.outcome
}

/// A game's rows as `score::Row`s, kept from call to call: history rows are only ever added, so
/// each call converts only the new ones.
#[derive(Default, Clone)]
pub struct ScoreRows {
    outcome: Outcome,
    buf: Vec<u8>,
}

impl ScoreRows {
    /// The outcome of `w` (its rows; the finished buildings when `built` is asked for).
    pub fn outcome(&mut self, w: &World, with_built: bool) -> &Outcome {
        let rows = &w.history().rows;
        if rows.len() < self.outcome.rows.len() {
            self.outcome.rows.clear();
        }
        for r in &rows[self.outcome.rows.len()..] {
            let row = score_row(r, &mut self.buf);
            self.outcome.rows.push(row);
        }
        self.outcome.built = if with_built {
            built(w)
        } else {
            BTreeMap::new()
        };
        &self.outcome
    }

    /// Forgets the rows (a new game).
    pub fn clear(&mut self) {
        self.outcome.rows.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_row_reads_back_whole() {
        let mut r = HistoryRow {
            day: 3,
            hour: 7,
            ticks: 1500,
            adults: 4,
            food_days: 2.5,
            weather: "drought".into(),
            game_over: true,
            ..HistoryRow::default()
        };
        r.deaths.insert("thirst".into(), 1);
        r.produced.insert("Water".into(), 12.0);
        r.buildings.insert("water".into(), 2);
        let [got] = score_rows(std::slice::from_ref(&r)).try_into().unwrap();
        assert_eq!((got.day, got.hour, got.ticks, got.adults), (3, 7, 1500, 4));
        assert_eq!(
            (got.food_days, got.weather.as_str(), got.game_over),
            (2.5, "drought", true)
        );
        assert_eq!(got.deaths["thirst"], 1);
        assert_eq!(got.produced["Water"], 12.0);
        assert_eq!(got.buildings["water"], 2);
        // Every member of the served row is one the score row reads (none dropped).
        let served = serde_json::to_value(&r).unwrap();
        let read = serde_json::to_value(&got).unwrap();
        assert_eq!(served, read);
    }
}

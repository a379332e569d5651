//! Hazard spells of an episode: each drought or badtide with what the colony had stored when it
//! began and what it cost, for results.json (`hazards`). An agent that lost its colony in the
//! second drought shows here whether it went in with two days of water or twenty.

use crate::history::Row;
use crate::metrics::round3;
use serde::Serialize;
use std::collections::BTreeMap;

/// One spell of drought or badtide (consecutive hourly rows with the same hazard).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HazardSpell {
    /// `drought` or `badtide`.
    pub hazard: String,
    /// Game time of its first hour, in days since the start (day 1 hour 0 is 0.0).
    pub start_day: f64,
    /// Hours of it the history holds (less than its length when the episode ended inside it).
    pub hours: u32,
    /// Whether a later hour without it followed (false: the episode ended, or everyone died, in it).
    pub ended: bool,
    /// Days of food and of water in store in the hour before it began (the first hour's, when
    /// it began the episode).
    pub food_days_before: f64,
    pub water_days_before: f64,
    /// Adults, children and bots alive in the hour before it began, and in its last hour.
    pub population_before: u32,
    pub population_after: u32,
    /// Fewest days of food and of water in store during it.
    pub food_days_min: f64,
    pub water_days_min: f64,
    /// Births and deaths by cause during it.
    pub births: u32,
    pub deaths: BTreeMap<String, u32>,
}

/// The hazard spells of a history, in order.
pub fn spells(rows: &[Row]) -> Vec<HazardSpell> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let Some(h) = rows[i].hazard() else {
            i += 1;
            continue;
        };
        let mut j = i;
        while j + 1 < rows.len() && rows[j + 1].hazard() == Some(h) {
            j += 1;
        }
        let before = &rows[i.saturating_sub(1)];
        let during = &rows[i..=j];
        let mut deaths: BTreeMap<String, u32> = BTreeMap::new();
        for r in during {
            for (cause, n) in &r.deaths {
                *deaths.entry(cause.clone()).or_default() += n;
            }
        }
        let least = |f: fn(&Row) -> f64| {
            round3(
                during
                    .iter()
                    .map(|r| f(r).max(0.0))
                    .fold(f64::INFINITY, f64::min),
            )
        };
        out.push(HazardSpell {
            hazard: h.to_owned(),
            start_day: round3(rows[i].time_days()),
            hours: during.len() as u32,
            ended: j + 1 < rows.len(),
            food_days_before: round3(before.food_days.max(0.0)),
            water_days_before: round3(before.water_days.max(0.0)),
            population_before: before.population(),
            population_after: rows[j].population(),
            food_days_min: least(|r| r.food_days),
            water_days_min: least(|r| r.water_days),
            births: during.iter().map(|r| r.births).sum(),
            deaths,
        });
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::row;

    #[test]
    fn two_droughts_with_stores_before_and_deaths_during() {
        // Hours 0-9 of day 1: temperate 0-2, drought 3-5, temperate 6-7, drought 8-9 (the
        // episode ends inside the second).
        let mut rows: Vec<Row> = (0..10).map(|h| row(1, h, 4)).collect();
        for (h, r) in rows.iter_mut().enumerate() {
            r.food_days = 10.0 - h as f64;
            r.water_days = 5.0 - h as f64 * 0.5;
            if (3..=5).contains(&h) || h >= 8 {
                r.weather = "drought".into();
            }
        }
        rows[4].deaths.insert("thirst".into(), 1);
        rows[5].adults = 3;
        rows[5].deaths.insert("thirst".into(), 1);
        rows[5].births = 1;
        let s = spells(&rows);
        assert_eq!(s.len(), 2);
        let a = &s[0];
        assert_eq!(a.hazard, "drought");
        assert_eq!(a.start_day, round3(3.0 / 24.0));
        assert_eq!((a.hours, a.ended), (3, true));
        // Stores of hour 2, the hour before it began.
        assert_eq!((a.food_days_before, a.water_days_before), (8.0, 4.0));
        assert_eq!((a.population_before, a.population_after), (4, 3));
        assert_eq!((a.food_days_min, a.water_days_min), (5.0, 2.5));
        assert_eq!(a.births, 1);
        assert_eq!(a.deaths, [("thirst".to_owned(), 2)].into());
        let b = &s[1];
        assert_eq!((b.hours, b.ended), (2, false));
        assert_eq!(b.water_days_before, 1.5);
        // Days below zero (no consumption) count as none.
        assert_eq!(b.water_days_min, 0.5);
        assert!(b.deaths.is_empty());
    }

    #[test]
    fn a_hazard_from_the_first_hour_takes_that_hours_stores() {
        let mut rows: Vec<Row> = (0..3).map(|h| row(1, h, 2)).collect();
        rows[0].weather = "badtide".into();
        rows[0].water_days = 7.0;
        let s = spells(&rows);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].hazard.as_str(), s[0].hours), ("badtide", 1));
        assert_eq!(s[0].water_days_before, 7.0);
        assert!(spells(&rows[1..]).is_empty());
    }
}

//! The colony's history: one row per in-game hour, kept in the world and in saves, served by
//! `GET /api/stats` and scored by `colony eval`.
//!
//! Hourly rather than daily: evaluation turns can be a few hours long, hazards start and end
//! within a day, and a day's row would hide a colony dying between two dawns. A row is small
//! (counts and a few maps of goods), so a 100-day game holds 2,400 of them.
//!
//! Each row is recorded at a full hour, after the colony's hourly systems. Counters of what
//! happened during the hour (births, deaths by cause, goods produced and consumed, science
//! earned) accumulate in [`Counters`] from the places where it happens: recipe inputs and
//! outputs, cutting, gathering, harvesting and scavenging, eating and drinking, construction
//! materials used, fuel, breeding-pod nutrients, treatment supplies and wonder launches. Hauling
//! between buildings moves goods and is neither. The counters are saved too, so a game loaded
//! mid-hour continues the same history.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One hour of the colony.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryRow {
    /// Day number (from 1) and hour of the day (0-23) at the row.
    pub day: u32,
    pub hour: u32,
    pub ticks: u64,
    pub adults: u32,
    pub children: u32,
    pub bots: u32,
    /// Beavers born and bots made during the hour.
    pub births: u32,
    /// Deaths during the hour by cause (`thirst`, `hunger`, `oldAge`, ...).
    pub deaths: BTreeMap<String, u32>,
    /// Goods in store over the whole colony (nonzero only).
    pub stock: BTreeMap<String, u32>,
    /// Days the food and water in store last at the colony's consumption (as `/api/summary`
    /// projects them; -1 when nobody eats).
    pub food_days: f64,
    pub water_days: f64,
    /// Average wellbeing and the counts of miserable beavers and beavers with a critical need.
    pub wellbeing: f64,
    pub miserable: u32,
    pub critical: u32,
    /// Finished buildings by catalogue role (paths not counted).
    pub buildings: BTreeMap<String, u32>,
    /// Unfinished buildings (construction sites, paths not counted).
    pub sites: u32,
    /// Unspent science points, points earned during the hour, buildings unlocked so far.
    pub science: u32,
    pub science_earned: f64,
    pub unlocked: u32,
    /// Goods produced and consumed during the hour.
    pub produced: BTreeMap<String, f64>,
    pub consumed: BTreeMap<String, f64>,
    /// `temperate`, `drought` or `badtide`: the weather in force at the row.
    pub weather: String,
    /// Power networks with supply.
    pub power_networks: u32,
    /// Consumers at work in a network water wheels feed, by prefab base name (at the row's
    /// moment): whether water, not beavers or wind, powers a building.
    #[serde(default)]
    pub water_powered: BTreeMap<String, u32>,
    pub districts: u32,
    /// Finished district crossings whose two sides reach two different districts (links).
    #[serde(default)]
    pub district_links: u32,
    /// Finished automated buildings (floodgates, clutches, pausable buildings...) whose input is
    /// linked to a standing transmitter, by prefab base name (at the row's moment).
    #[serde(default)]
    pub automated: BTreeMap<String, u32>,
    pub game_over: bool,
}

/// What happened since the last row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counters {
    #[serde(default)]
    pub births: u32,
    #[serde(default)]
    pub deaths: BTreeMap<String, u32>,
    #[serde(default)]
    pub produced: BTreeMap<String, f64>,
    #[serde(default)]
    pub consumed: BTreeMap<String, f64>,
    #[serde(default)]
    pub science_earned: f64,
}

/// The rows so far and the counters of the hour under way.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct History {
    #[serde(default)]
    pub rows: Vec<HistoryRow>,
    #[serde(default)]
    pub counters: Counters,
}

impl History {
    /// Whether nothing was recorded yet (a save then leaves the member out).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.counters == Counters::default()
    }

    /// Goods made (a recipe output, a harvest, a cut tree, scrap).
    pub(crate) fn produced(&mut self, good: &str, n: u32) {
        if n > 0 {
            *self.counters.produced.entry(good.to_owned()).or_default() += f64::from(n);
        }
    }

    /// Goods used up (eaten, drunk, a recipe input, building material, fuel, supplies).
    pub(crate) fn consumed(&mut self, good: &str, n: u32) {
        if n > 0 {
            *self.counters.consumed.entry(good.to_owned()).or_default() += f64::from(n);
        }
    }

    pub(crate) fn born(&mut self) {
        self.counters.births += 1;
    }

    pub(crate) fn died(&mut self, cause: &str) {
        *self.counters.deaths.entry(cause.to_owned()).or_default() += 1;
    }

    pub(crate) fn science(&mut self, points: u32) {
        self.counters.science_earned += f64::from(points);
    }

    /// Rows whose day lies in `from..=to`.
    pub fn between(&self, from: u32, to: u32) -> &[HistoryRow] {
        let start = self.rows.partition_point(|r| r.day < from);
        let end = self.rows.partition_point(|r| r.day <= to);
        &self.rows[start..end.max(start)]
    }
}

/// Days the stock of `good` lasts at the last day's use of it (`World::flows`), one decimal; -1
/// when nothing used it (the summary's log, plank and gear days).
pub fn days_at_use(
    stock: &BTreeMap<String, u32>,
    flows: &BTreeMap<String, Flow>,
    good: &str,
) -> f64 {
    let used = flows.get(good).map_or(0.0, |f| f.consumed_last_day);
    days_of_stock(stock.get(good).copied().unwrap_or(0), used)
}

/// Days a stock lasts at `per_day`, one decimal; -1 when nothing uses it.
pub fn days_of_stock(stock: u32, per_day: f64) -> f64 {
    if per_day <= 0.0 {
        return -1.0;
    }
    (f64::from(stock) / per_day * 10.0).round() / 10.0
}

impl crate::world::World {
    /// The colony's history (one row per hour).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether everyone has died (`game.over` was announced).
    pub fn colony_game_over(&self) -> bool {
        self.colony.game_over
    }

    /// Records the hour's row and starts new counters (at each full hour).
    pub(crate) fn record_history(&mut self) {
        let counters = std::mem::take(&mut self.history.counters);
        let (adults, children, bots) = self.colony.counts(None);
        let stock: BTreeMap<String, u32> = self
            .colony_stock()
            .into_iter()
            .map(|(g, (_, all))| (g, all))
            .filter(|(_, n)| *n > 0)
            .collect();
        let (food_days, water_days) = self.stock_days(&stock, adults + children);
        let (wellbeing, miserable, critical) = self.wellbeing_totals();
        // (Counted again only when the layout changed: places, removals, finishes.)
        let layout = self.colony.layout_version;
        if self
            .colony
            .role_counts
            .as_ref()
            .is_none_or(|(v, _, _)| *v != layout)
        {
            let mut buildings: BTreeMap<String, u32> = BTreeMap::new();
            let mut sites = 0;
            for b in self.colony.buildings.values() {
                let role = b.spec().role.as_str();
                if role == "paths" {
                    continue;
                }
                if b.finished {
                    *buildings.entry(role.to_owned()).or_default() += 1;
                } else {
                    sites += 1;
                }
            }
            self.colony.role_counts = Some((layout, buildings, sites));
        }
        let (_, buildings, sites) = self.colony.role_counts.clone().expect("counted");
        let weather = self.weather();
        let t = self.time();
        let row = HistoryRow {
            day: t.day_number,
            hour: (t.hour.round() as u32) % 24,
            ticks: self.ticks,
            adults,
            children,
            bots,
            births: counters.births,
            deaths: counters.deaths,
            stock,
            food_days,
            water_days,
            wellbeing: (wellbeing * 100.0).round() / 100.0,
            miserable,
            critical,
            buildings,
            sites,
            science: self.science.points,
            science_earned: counters.science_earned,
            unlocked: self.science.unlocked.len() as u32,
            produced: counters.produced,
            consumed: counters.consumed,
            weather: match weather.hazard {
                Some(h) if weather.is_hazardous => h.as_str().to_owned(),
                _ => "temperate".to_owned(),
            },
            power_networks: self.supplied_network_count(),
            water_powered: self.water_powered(),
            districts: self.colony.districts.len() as u32,
            // (Reads the navigation caches only; with one district nothing can link.)
            district_links: if self.colony.districts.len() < 2 {
                0
            } else {
                self.crossing_links().len() as u32
            },
            automated: self.automated_buildings(),
            game_over: self.colony.game_over,
        };
        self.history.rows.push(row);
    }

    /// Days the food and the water in store last: stock / (beavers x daily need x the mode's
    /// consumption factor), one decimal; -1 when no beaver eats.
    pub fn stock_days(&self, stock: &BTreeMap<String, u32>, beavers: u32) -> (f64, f64) {
        let consumption = &crate::colony::rules::colony_rules().consumption;
        let mode = crate::catalog::world_rules().mode(self.mode);
        let food: u32 = stock
            .iter()
            .filter(|(g, _)| crate::colony::is_food(g))
            .map(|(_, n)| n)
            .sum();
        let water = stock.get("Water").copied().unwrap_or(0);
        let days = |n: u32, daily: f64| days_of_stock(n, f64::from(beavers) * daily);
        (
            days(
                food,
                consumption.food_per_beaver_per_day.value * mode.food_consumption,
            ),
            days(
                water,
                consumption.water_per_beaver_per_day.value * mode.water_consumption,
            ),
        )
    }
}

/// How a good moves: units made and used over the last game day, and the mean net change per
/// day over the last three (from the hourly history; fewer when the game is younger).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Flow {
    pub produced_last_day: f64,
    pub consumed_last_day: f64,
    /// (made - used) per day, averaged over up to the last 72 hours; negative when falling.
    pub net_per_day: f64,
}

/// Hours in the flows' last day and in their moving average.
const FLOW_DAY_HOURS: usize = 24;
const FLOW_AVERAGE_HOURS: usize = 72;

impl crate::world::World {
    /// Every good made or used in the last three days, with its [`Flow`].
    pub fn flows(&self) -> BTreeMap<String, Flow> {
        let rows = &self.history.rows;
        let mut out: BTreeMap<String, Flow> = BTreeMap::new();
        let avg = &rows[rows.len().saturating_sub(FLOW_AVERAGE_HOURS)..];
        let day_from = rows.len().saturating_sub(FLOW_DAY_HOURS);
        let days = avg.len().max(1) as f64 / FLOW_DAY_HOURS as f64;
        for (i, r) in avg.iter().enumerate() {
            let last_day = rows.len() - avg.len() + i >= day_from;
            for (g, n) in &r.produced {
                let f = out.entry(g.clone()).or_default();
                f.net_per_day += n / days;
                if last_day {
                    f.produced_last_day += n;
                }
            }
            for (g, n) in &r.consumed {
                let f = out.entry(g.clone()).or_default();
                f.net_per_day -= n / days;
                if last_day {
                    f.consumed_last_day += n;
                }
            }
        }
        for f in out.values_mut() {
            f.net_per_day = (f.net_per_day * 10.0).round() / 10.0;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::days_of_stock;

    #[test]
    fn days_round_to_a_tenth_and_say_minus_one_without_users() {
        assert_eq!(days_of_stock(100, 0.0), -1.0);
        assert_eq!(days_of_stock(100, 3.0), 33.3);
        assert_eq!(days_of_stock(0, 3.0), 0.0);
    }
}

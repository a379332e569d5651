//! Named metrics over an episode: numbers computed from the colony's hourly history (and, for
//! `built.*`, the finished buildings at the end). Scores and success conditions name them; the
//! list with their meaning is [`METRICS`] (and `docs/evaluation.md`).

use crate::history::Row;
use std::collections::BTreeMap;

/// Plain metrics: (name, meaning).
pub const METRICS: &[(&str, &str)] = &[
    (
        "days_survived",
        "game days from the start until everyone died, or until the last hour if the colony lives",
    ),
    ("alive", "1 when anyone is alive at the end, else 0"),
    ("population", "adults, children and bots alive at the end"),
    (
        "population_max",
        "the most adults, children and bots alive at once",
    ),
    ("beavers", "adults and children alive at the end"),
    ("beavers_max", "the most adults and children alive at once"),
    ("bots_max", "the most bots alive at once"),
    ("births", "beavers born (and bots made) over the episode"),
    ("deaths", "deaths over the episode, all causes"),
    (
        "deaths_premature",
        "deaths over the episode of any cause but old age and a bot's wear (oldAge, deterioration)",
    ),
    (
        "beavers_start",
        "adults and children alive in the first hour",
    ),
    (
        "beavers_kept",
        "adults and children alive at the end less those of the first hour (negative when fewer)",
    ),
    (
        "wellbeing",
        "average wellbeing over the hours anyone was alive",
    ),
    ("wellbeing_end", "average wellbeing at the end"),
    (
        "food_days_min",
        "fewest days of food in store over the hours beavers lived (after the first day)",
    ),
    (
        "water_days_min",
        "fewest days of water in store over the hours beavers lived (after the first day)",
    ),
    ("food_days", "days of food in store at the end"),
    ("water_days", "days of water in store at the end"),
    (
        "buildings",
        "finished buildings at the end (paths not counted)",
    ),
    (
        "buildings_built",
        "finished buildings at the end less those of the first hour (paths not counted; never below 0)",
    ),
    ("science_earned", "science points earned over the episode"),
    ("unlocked", "buildings unlocked with science at the end"),
    (
        "power_networks_max",
        "the most power networks with supply at once",
    ),
    ("districts_max", "the most districts at once"),
    (
        "districts_founded",
        "districts founded beyond those at the start (the most at once, less the first hour's)",
    ),
    (
        "district_links_max",
        "the most district crossings linking two districts at once",
    ),
    (
        "droughts_survived",
        "droughts that ended with someone alive",
    ),
    (
        "badtides_survived",
        "badtides that ended with someone alive",
    ),
    (
        "hazard_hours_alive",
        "hours of drought or badtide during which someone was alive",
    ),
];

/// Metrics with a parameter after a dot: (prefix, meaning).
pub const PARAM_METRICS: &[(&str, &str)] = &[
    (
        "produced",
        "units of the good produced over the episode, e.g. produced.Plank",
    ),
    (
        "consumed",
        "units of the good consumed over the episode, e.g. consumed.Water",
    ),
    (
        "stock",
        "units of the good in store at the end, e.g. stock.Water",
    ),
    ("stock_max", "the most units of the good in store at once"),
    (
        "deaths_by",
        "deaths of the cause over the episode (thirst, hunger, oldAge, deterioration), e.g. deaths_by.thirst",
    ),
    (
        "water_powered",
        "the most buildings of the prefab at work at once in a network water wheels fed, e.g. water_powered.LumberMill",
    ),
    (
        "automated",
        "the most finished buildings of the prefab at once whose automation input is linked to a transmitter, e.g. automated.Floodgate",
    ),
    (
        "buildings_role",
        "finished buildings of the role at the end, e.g. buildings_role.water",
    ),
    (
        "built",
        "finished buildings of the prefab at the end (name without the faction), e.g. built.Floodgate",
    ),
];

/// Causes of death that come with time, not with play: old age, and a bot's wear.
pub const NATURAL_DEATHS: &[&str] = &["oldAge", "deterioration"];

/// A parsed metric name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetricName {
    Plain(&'static str),
    Param(&'static str, String),
}

impl MetricName {
    /// Parses a name, or says which names exist.
    pub fn parse(name: &str) -> Result<MetricName, String> {
        if let Some((p, _)) = METRICS.iter().find(|(n, _)| *n == name) {
            return Ok(MetricName::Plain(p));
        }
        if let Some((prefix, arg)) = name.split_once('.')
            && let Some((p, _)) = PARAM_METRICS.iter().find(|(n, _)| *n == prefix)
            && !arg.is_empty()
        {
            return Ok(MetricName::Param(p, arg.to_owned()));
        }
        Err(format!(
            "unknown metric {name:?}; metrics: {}; with a parameter: {}",
            METRICS.iter().map(|m| m.0).collect::<Vec<_>>().join(", "),
            PARAM_METRICS
                .iter()
                .map(|m| format!("{}.NAME", m.0))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// What an episode left to measure: its history and the finished buildings at the end
/// (prefab base name -> count).
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub rows: Vec<Row>,
    pub built: BTreeMap<String, u32>,
}

impl Outcome {
    /// The metric's value (0 when the history is empty).
    pub fn metric(&self, name: &MetricName) -> f64 {
        let rows = &self.rows;
        let alive_rows = || rows.iter().filter(|r| r.population() > 0);
        let max = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).fold(0.0, f64::max);
        let sum = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>();
        let last = rows.last();
        let end = |f: &dyn Fn(&Row) -> f64| last.map_or(0.0, f);
        match name {
            MetricName::Plain(n) => match *n {
                "days_survived" => self.days_survived(),
                "alive" => end(&|r| f64::from(u8::from(r.population() > 0))),
                "population" => end(&|r| r.population().into()),
                "population_max" => max(&|r| r.population().into()),
                "beavers" => end(&|r| r.beavers().into()),
                "beavers_max" => max(&|r| r.beavers().into()),
                "bots_max" => max(&|r| r.bots.into()),
                "births" => sum(&|r| r.births.into()),
                "deaths" => sum(&|r| r.deaths_total().into()),
                "deaths_premature" => sum(&|r| {
                    r.deaths
                        .iter()
                        .filter(|(c, _)| !NATURAL_DEATHS.contains(&c.as_str()))
                        .map(|(_, n)| f64::from(*n))
                        .sum()
                }),
                "beavers_start" => rows.first().map_or(0.0, |r| r.beavers().into()),
                "beavers_kept" => {
                    let first = rows.first().map_or(0.0, |r| f64::from(r.beavers()));
                    end(&|r| r.beavers().into()) - first
                }
                "wellbeing" => mean(alive_rows().map(|r| r.wellbeing)),
                "wellbeing_end" => end(&|r| r.wellbeing),
                "food_days_min" => min_days(rows, |r| r.food_days),
                "water_days_min" => min_days(rows, |r| r.water_days),
                "food_days" => end(&|r| r.food_days.max(0.0)),
                "water_days" => end(&|r| r.water_days.max(0.0)),
                "buildings" => end(&|r| r.buildings.values().sum::<u32>().into()),
                "buildings_built" => {
                    let total = |r: &Row| f64::from(r.buildings.values().sum::<u32>());
                    (end(&total) - rows.first().map_or(0.0, total)).max(0.0)
                }
                "science_earned" => sum(&|r| r.science_earned),
                "unlocked" => end(&|r| r.unlocked.into()),
                "power_networks_max" => max(&|r| r.power_networks.into()),
                "districts_max" => max(&|r| r.districts.into()),
                "districts_founded" => {
                    let first = rows.first().map_or(0.0, |r| f64::from(r.districts));
                    (max(&|r| r.districts.into()) - first).max(0.0)
                }
                "district_links_max" => max(&|r| r.district_links.into()),
                "droughts_survived" => self.hazards_survived("drought").into(),
                "badtides_survived" => self.hazards_survived("badtide").into(),
                "hazard_hours_alive" => {
                    alive_rows().filter(|r| r.hazard().is_some()).count() as f64
                }
                other => unreachable!("metric {other} is listed but not computed"),
            },
            MetricName::Param(p, arg) => match *p {
                "produced" => sum(&|r| r.produced.get(arg).copied().unwrap_or(0.0)),
                "consumed" => sum(&|r| r.consumed.get(arg).copied().unwrap_or(0.0)),
                "stock" => end(&|r| r.stock.get(arg).copied().unwrap_or(0).into()),
                "stock_max" => max(&|r| r.stock.get(arg).copied().unwrap_or(0).into()),
                "deaths_by" => sum(&|r| r.deaths.get(arg).copied().unwrap_or(0).into()),
                "water_powered" => max(&|r| r.water_powered.get(arg).copied().unwrap_or(0).into()),
                "automated" => max(&|r| r.automated.get(arg).copied().unwrap_or(0).into()),
                "buildings_role" => end(&|r| r.buildings.get(arg).copied().unwrap_or(0).into()),
                "built" => self.built.get(arg).copied().unwrap_or(0).into(),
                other => unreachable!("metric {other}.* is listed but not computed"),
            },
        }
    }

    /// Every plain metric and the parameter metrics the history mentions, for results.json.
    pub fn all_metrics(&self) -> BTreeMap<String, f64> {
        let mut out: BTreeMap<String, f64> = METRICS
            .iter()
            .map(|(n, _)| ((*n).to_owned(), self.metric(&MetricName::Plain(n))))
            .collect();
        let mut goods: Vec<&String> = self
            .rows
            .iter()
            .flat_map(|r| r.produced.keys().chain(r.consumed.keys()))
            .collect();
        goods.sort();
        goods.dedup();
        for g in goods {
            for p in ["produced", "consumed"] {
                let v = self.metric(&MetricName::Param(p, g.clone()));
                if v > 0.0 {
                    out.insert(format!("{p}.{g}"), round3(v));
                }
            }
        }
        let mut causes: Vec<&String> = self.rows.iter().flat_map(|r| r.deaths.keys()).collect();
        causes.sort();
        causes.dedup();
        for c in causes {
            let v = self.metric(&MetricName::Param("deaths_by", c.clone()));
            if v > 0.0 {
                out.insert(format!("deaths_by.{c}"), v);
            }
        }
        for (k, v) in &self.built {
            out.insert(format!("built.{k}"), (*v).into());
        }
        type Counts = fn(&Row) -> &BTreeMap<String, u32>;
        let families: [(&str, Counts); 2] = [
            ("water_powered", |r| &r.water_powered),
            ("automated", |r| &r.automated),
        ];
        for (family, counts) in families {
            let keys: std::collections::BTreeSet<&String> =
                self.rows.iter().flat_map(|r| counts(r).keys()).collect();
            for p in keys {
                let v = self.metric(&MetricName::Param(family, p.clone()));
                out.insert(format!("{family}.{p}"), v);
            }
        }
        out.values_mut().for_each(|v| *v = round3(*v));
        out
    }

    /// Days from the start to the first hour with nobody alive, else to the last row.
    pub fn days_survived(&self) -> f64 {
        let Some(first) = self.rows.first() else {
            return 0.0;
        };
        let start = first.time_days() - 1.0 / 24.0;
        let end = self
            .rows
            .iter()
            .find(|r| r.population() == 0 || r.game_over)
            .or(self.rows.last())
            .expect("not empty");
        round3((end.time_days() - start.max(0.0)).max(0.0))
    }

    /// Spells of the hazard that ended (a later hour without it) with someone alive.
    pub fn hazards_survived(&self, hazard: &str) -> u32 {
        let mut n = 0;
        for w in self.rows.windows(2) {
            if w[0].weather == hazard && w[1].weather != hazard && w[1].population() > 0 {
                n += 1;
            }
        }
        n
    }
}

fn mean(it: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = it.fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        round3(s / f64::from(n))
    }
}

/// The fewest days of a store over hours with beavers, from the second day on (the first day's
/// stores are the mode's start, not play). 0 when there is no such hour.
fn min_days(rows: &[Row], f: impl Fn(&Row) -> f64) -> f64 {
    rows.iter()
        .filter(|r| r.beavers() > 0 && r.day >= 2)
        .map(|r| f(r).max(0.0))
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))))
        .unwrap_or(0.0)
}

/// Rounds to three decimals, as metrics and scores are reported (a sum of nothing, -0.0, as 0).
pub fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0 + 0.0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An hourly row for tests.
    pub fn row(day: u32, hour: u32, adults: u32) -> Row {
        Row::temperate(day, hour, adults)
    }

    fn m(o: &Outcome, name: &str) -> f64 {
        o.metric(&MetricName::parse(name).unwrap())
    }

    #[test]
    fn hand_computed_history() {
        // Day 1 hours 5..=8 alive (4 hours), 2 births at hour 6, a death by thirst at hour 8,
        // then everyone dead at hour 9.
        let mut rows: Vec<Row> = (5..=9).map(|h| row(1, h, 3)).collect();
        rows[1].births = 2;
        rows[1].children = 2;
        rows[3].deaths.insert("Thirst".into(), 1);
        rows[4].adults = 0;
        rows[4].deaths.insert("Hunger".into(), 2);
        rows[0].produced.insert("Water".into(), 4.0);
        rows[2].produced.insert("Water".into(), 6.0);
        rows[2].consumed.insert("Water".into(), 3.5);
        rows[2].stock.insert("Water".into(), 7);
        rows[4].stock.insert("Water".into(), 2);
        rows[2].weather = "drought".into();
        rows[1].wellbeing = 4.0;
        rows[2].wellbeing = 2.0;
        let o = Outcome {
            rows,
            built: [("WaterPump".to_owned(), 2)].into(),
        };
        assert_eq!(m(&o, "days_survived"), round3(5.0 / 24.0));
        assert_eq!(m(&o, "alive"), 0.0);
        assert_eq!(m(&o, "births"), 2.0);
        assert_eq!(m(&o, "deaths"), 3.0);
        assert_eq!(m(&o, "deaths_by.Thirst"), 1.0);
        assert_eq!(m(&o, "districts_founded"), 0.0);
        assert_eq!(m(&o, "produced.Water"), 10.0);
        assert_eq!(m(&o, "consumed.Water"), 3.5);
        assert_eq!(m(&o, "stock.Water"), 2.0);
        assert_eq!(m(&o, "stock_max.Water"), 7.0);
        assert_eq!(m(&o, "population_max"), 5.0);
        // Wellbeing averages the four hours anyone lived: (0 + 4 + 2 + 0) / 4.
        assert_eq!(m(&o, "wellbeing"), 1.5);
        // The drought hour was followed by a non-drought hour with people alive.
        assert_eq!(m(&o, "droughts_survived"), 1.0);
        assert_eq!(m(&o, "hazard_hours_alive"), 1.0);
        assert_eq!(m(&o, "built.WaterPump"), 2.0);
        assert_eq!(m(&o, "built.Lodge"), 0.0);
        let all = o.all_metrics();
        assert_eq!(all["produced.Water"], 10.0);
        assert_eq!(all["built.WaterPump"], 2.0);
        assert_eq!(all["deaths_by.Hunger"], 2.0);
        assert!(!all.contains_key("deaths_by.oldAge"));
    }

    #[test]
    fn automated_is_the_most_linked_buildings_of_a_prefab_at_once() {
        let mut rows: Vec<Row> = (0..3).map(|h| row(1, h, 4)).collect();
        rows[1].automated.insert("Floodgate".into(), 2);
        rows[2].automated.insert("Floodgate".into(), 1);
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(m(&o, "automated.Floodgate"), 2.0);
        assert_eq!(m(&o, "automated.LumberMill"), 0.0);
        assert_eq!(o.all_metrics()["automated.Floodgate"], 2.0);
        // A row from an older colonyd (no automated member) reads as nothing automated.
        let old: Row = serde_json::from_str("{}").unwrap();
        assert!(old.automated.is_empty());
    }

    #[test]
    fn district_links_max_is_the_most_links_at_once() {
        let mut rows: Vec<Row> = (0..5).map(|h| row(1, h, 4)).collect();
        rows[1].districts = 2;
        rows[2].districts = 2;
        rows[2].district_links = 1;
        rows[3].districts = 3;
        rows[3].district_links = 2;
        rows[4].districts = 3;
        rows[4].district_links = 1;
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(m(&o, "district_links_max"), 2.0);
        assert_eq!(o.all_metrics()["district_links_max"], 2.0);
        // No crossing ever linked anything: 0.
        assert_eq!(m(&Outcome::default(), "district_links_max"), 0.0);
        // A row from an older colonyd (no districtLinks member) reads as 0 links.
        let old: Row = serde_json::from_str(r#"{"day": 1, "hour": 5, "districts": 2}"#).unwrap();
        assert_eq!(old.district_links, 0);
        let new: Row = serde_json::from_str(r#"{"districtLinks": 1}"#).unwrap();
        assert_eq!(new.district_links, 1);
    }

    #[test]
    fn a_living_colony_survives_to_its_last_row() {
        let rows: Vec<Row> = (1..=3)
            .flat_map(|d| (0..24).map(move |h| row(d, h, 5)))
            .skip(4)
            .collect();
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        // From day 1 hour 4 (the game's start) to day 3 hour 23.
        assert_eq!(
            m(&o, "days_survived"),
            round3(2.0 + 23.0 / 24.0 - 3.0 / 24.0)
        );
        assert_eq!(m(&o, "alive"), 1.0);
        // No deaths: 0, not the -0.0 of an empty float sum.
        let none = o.all_metrics()["deaths_premature"];
        assert!(none == 0.0 && none.is_sign_positive(), "{none}");
    }

    #[test]
    fn food_days_min_skips_the_first_day_and_dead_hours() {
        let mut rows = vec![row(1, 10, 3), row(2, 0, 3), row(2, 1, 3), row(2, 2, 0)];
        rows[0].food_days = 0.5;
        rows[1].food_days = 4.0;
        rows[2].food_days = 3.0;
        rows[3].food_days = -1.0;
        let o = Outcome {
            rows,
            ..Outcome::default()
        };
        assert_eq!(m(&o, "food_days_min"), 3.0);
    }

    #[test]
    fn unknown_metrics_list_the_known_ones() {
        let e = MetricName::parse("produced.").unwrap_err();
        assert!(e.contains("produced.NAME"), "{e}");
        assert!(MetricName::parse("built.Lodge").is_ok());
    }
}

//! The colony's history as `GET /api/stats` serves it: one row per in-game hour. The harness reads
//! rows over HTTP (it never links the simulation); colonyd's `POST /api/score` turns its own rows
//! into these through the same JSON. Every member defaults, so a row from an older or newer
//! colonyd still reads.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One hour of the colony (`GET /api/stats?format=json`'s `rows`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Row {
    pub day: u32,
    pub hour: u32,
    pub ticks: u64,
    pub adults: u32,
    pub children: u32,
    pub bots: u32,
    pub births: u32,
    pub deaths: BTreeMap<String, u32>,
    pub stock: BTreeMap<String, u32>,
    pub food_days: f64,
    pub water_days: f64,
    pub wellbeing: f64,
    pub miserable: u32,
    pub critical: u32,
    pub buildings: BTreeMap<String, u32>,
    pub sites: u32,
    pub science: u32,
    pub science_earned: f64,
    pub unlocked: u32,
    pub produced: BTreeMap<String, f64>,
    pub consumed: BTreeMap<String, f64>,
    pub weather: String,
    pub power_networks: u32,
    pub water_powered: BTreeMap<String, u32>,
    pub districts: u32,
    /// District crossings linking two districts (absent from older histories: 0).
    pub district_links: u32,
    /// Automated buildings whose input is linked, by prefab (absent from older histories).
    pub automated: BTreeMap<String, u32>,
    pub game_over: bool,
}

impl Row {
    /// A temperate hour with `adults` alive and nothing else recorded: the start of a row in
    /// tests and examples (`Row { deaths, .., ..Row::temperate(1, 5, 3) }`).
    pub fn temperate(day: u32, hour: u32, adults: u32) -> Row {
        Row {
            day,
            hour,
            adults,
            weather: "temperate".into(),
            ..Row::default()
        }
    }

    /// Everyone alive: adults, children and bots.
    pub fn population(&self) -> u32 {
        self.adults + self.children + self.bots
    }

    /// Beavers alive (adults and children).
    pub fn beavers(&self) -> u32 {
        self.adults + self.children
    }

    /// Deaths during the row's hour, all causes.
    pub fn deaths_total(&self) -> u32 {
        self.deaths.values().sum()
    }

    /// Game time of the row in days since the start (day 1 hour 0 is 0.0).
    pub fn time_days(&self) -> f64 {
        f64::from(self.day.saturating_sub(1)) + f64::from(self.hour) / 24.0
    }

    /// Whether a hazard is in force.
    pub fn hazard(&self) -> Option<&str> {
        match self.weather.as_str() {
            "drought" | "badtide" => Some(self.weather.as_str()),
            _ => None,
        }
    }
}

/// The answer of `GET /api/stats?format=json`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Stats {
    pub rows: Vec<Row>,
}

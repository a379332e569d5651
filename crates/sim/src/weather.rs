//! Weather cycles: temperate days, then a hazardous season (drought or badtide), per game mode.
//!
//! A cycle begins at game start (cycle 1) or at the dawn its predecessor's hazard ends. At that
//! moment its weather is rolled with the world RNG, in this order:
//! 1. temperate days: uniform integer in the mode's `temperateDays` range;
//! 2. hazard kind: cycles `1..=cyclesWithoutBadtide` always get a drought; later cycles a badtide
//!    with probability `badtideChance`, pushed toward switching by long streaks: after `s >= 2`
//!    consecutive eligible cycles of the same hazard, `hazardStreakPush * (s - 1)` of probability
//!    moves to the other hazard (clamped to 0..1);
//! 3. hazard days: `handicap = lerp(multiplier, 1, clamp01((cycle - 1) / handicapCycles))`,
//!    `days = round(U(handicap * min, handicap * max))`, at least `minimumHazardDays` (1), with
//!    the drought or badtide range and handicap of the mode.
//!
//! Day 1 of a cycle is the day it begins. The hazard begins at the dawn of cycle day
//! `temperateDays + 1` and lasts `hazardousDays` whole days; the next cycle begins at the dawn it
//! ends. Events (all data objects also carry what is listed in `event.rs`):
//! - `cycle.start {cycle}`, `weather.selected {cycle, hazard, temperateDays, hazardousDays}`,
//!   `cycle.day {cycle, cycleDay: 1}` when a cycle begins, in that order;
//! - `cycle.day {cycle, cycleDay}` at every later dawn of the cycle;
//! - `drought.approaching {cycle, hazard, startsInHours}` `hazardWarningLeadHours` before the hazard
//!   begins, or right at cycle start if the temperate season is shorter than that;
//! - `drought.start {cycle, hazard, duration}` at the hazard's first dawn (after its `cycle.day`);
//! - `drought.end {cycle, hazard}` then `cycle.end {cycle}` at the dawn the hazard ends, followed by
//!   the next cycle's `cycle.start`.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::catalog::{GameModeRules, Handicap, world_rules};
use crate::clock::{dawn_of, day_at, ticks_per_day, ticks_per_hour};
use crate::config::GameMode;
use crate::event::{EventQueue, names};
use crate::rng::WorldRng;

/// The kind of hazardous weather.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HazardKind {
    Drought,
    Badtide,
}

impl HazardKind {
    /// `"drought"` or `"badtide"`, as in event data.
    pub fn as_str(self) -> &'static str {
        match self {
            HazardKind::Drought => "drought",
            HazardKind::Badtide => "badtide",
        }
    }
}

impl fmt::Display for HazardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The weather, as the `/api/weather` resource shows it (plus a few extras).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WeatherView {
    /// Cycle number, from 1.
    pub cycle: u32,
    /// Day within the cycle, from 1.
    pub cycle_day: u32,
    /// A drought or badtide is under way.
    pub is_hazardous: bool,
    pub temperate_weather_duration: u32,
    pub hazardous_weather_duration: u32,
    pub cycle_length_in_days: u32,
    /// This cycle's hazard (under way or upcoming); `None` only before any weather is chosen.
    pub hazard: Option<HazardKind>,
    /// Game hours until the hazard begins; `None` while it is under way.
    pub hours_until_hazard: Option<f64>,
    /// Game hours until the cycle (and its hazard) ends.
    pub hours_until_cycle_end: f64,
}

/// The weather state of the current cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct WeatherState {
    pub cycle: u32,
    /// Day number of the cycle's day 1.
    pub start_day: u32,
    /// Absolute tick the cycle began (game start for cycle 1, otherwise a dawn).
    pub started_at: u64,
    pub temperate_days: u32,
    pub hazardous_days: u32,
    pub hazard: HazardKind,
    /// Consecutive badtide-eligible cycles, ending with this one, that had this hazard
    /// (0 while badtides are not yet possible).
    pub streak: u32,
}

/// `lerp(multiplier, 1, clamp01((cycle - 1) / cycles))`.
pub(crate) fn handicap(h: Handicap, cycle: u32) -> f64 {
    let t = (f64::from(cycle.saturating_sub(1)) / f64::from(h.cycles.max(1))).clamp(0.0, 1.0);
    h.multiplier + (1.0 - h.multiplier) * t
}

/// The inclusive range of hazard days the formula can give for a cycle.
pub fn hazard_days_bounds(mode: GameMode, hazard: HazardKind, cycle: u32) -> (u32, u32) {
    let m = world_rules().mode(mode);
    let (range, h) = hazard_params(m, hazard);
    let k = handicap(h, cycle);
    let min_days = world_rules().weather.minimum_hazard_days.value;
    let lo = (k * f64::from(range[0])).round() as u32;
    let hi = (k * f64::from(range[1])).round() as u32;
    (lo.max(min_days), hi.max(min_days))
}

fn hazard_params(m: &GameModeRules, hazard: HazardKind) -> ([u32; 2], Handicap) {
    match hazard {
        HazardKind::Drought => (m.drought_days, m.drought_handicap),
        HazardKind::Badtide => (m.badtide_days, m.badtide_handicap),
    }
}

impl WeatherState {
    /// Rolls cycle `cycle`, beginning at absolute tick `t`, and queues its start events.
    /// `previous` is the cycle before it (None for cycle 1).
    pub(crate) fn begin(
        cycle: u32,
        t: u64,
        previous: Option<&WeatherState>,
        mode: GameMode,
        rng: &mut WorldRng,
        events: &mut EventQueue,
    ) -> WeatherState {
        let rules = world_rules();
        let m = rules.mode(mode);
        let temperate_days = rng.range_u32(m.temperate_days[0], m.temperate_days[1]);
        let eligible = cycle > m.cycles_without_badtide;
        let prev_streak = previous.map_or((HazardKind::Drought, 0), |p| (p.hazard, p.streak));
        let hazard = if eligible {
            let mut p_badtide = m.badtide_chance;
            let (prev, s) = prev_streak;
            if s >= 2 {
                let push = rules.weather.hazard_streak_push.value * f64::from(s - 1);
                p_badtide += if prev == HazardKind::Drought {
                    push
                } else {
                    -push
                };
            }
            if rng.chance(p_badtide) {
                HazardKind::Badtide
            } else {
                HazardKind::Drought
            }
        } else {
            HazardKind::Drought
        };
        let streak = match (eligible, prev_streak) {
            (false, _) => 0,
            (true, (prev, s)) if s > 0 && prev == hazard => s + 1,
            (true, _) => 1,
        };
        let (range, h) = hazard_params(m, hazard);
        let k = handicap(h, cycle);
        let rolled = rng
            .range_f64(k * f64::from(range[0]), k * f64::from(range[1]))
            .round();
        let hazardous_days = (rolled as u32).max(rules.weather.minimum_hazard_days.value);
        let state = WeatherState {
            cycle,
            start_day: day_at(t),
            started_at: t,
            temperate_days,
            hazardous_days,
            hazard,
            streak,
        };
        let day = state.start_day;
        events.push(names::CYCLE_START, day, json!({ "cycle": cycle }));
        events.push(
            names::WEATHER_SELECTED,
            day,
            json!({
                "cycle": cycle,
                "hazard": hazard.as_str(),
                "temperateDays": temperate_days,
                "hazardousDays": hazardous_days,
            }),
        );
        events.push(
            names::CYCLE_DAY,
            day,
            json!({ "cycle": cycle, "cycleDay": 1 }),
        );
        if state.warn_at() == t {
            state.push_approaching(t, events);
        }
        state
    }

    /// Absolute tick the hazard begins.
    pub(crate) fn hazard_start(&self) -> u64 {
        dawn_of(self.start_day + self.temperate_days)
    }

    /// Absolute tick the hazard (and the cycle) ends.
    pub(crate) fn cycle_end(&self) -> u64 {
        self.hazard_start() + u64::from(self.hazardous_days) * ticks_per_day()
    }

    /// Absolute tick of the `drought.approaching` warning.
    fn warn_at(&self) -> u64 {
        let lead =
            u64::from(world_rules().weather.hazard_warning_lead_hours.value) * ticks_per_hour();
        self.hazard_start()
            .saturating_sub(lead)
            .max(self.started_at)
    }

    fn push_approaching(&self, t: u64, events: &mut EventQueue) {
        let hours = (self.hazard_start() - t) / ticks_per_hour();
        events.push(
            names::DROUGHT_APPROACHING,
            day_at(t),
            json!({ "cycle": self.cycle, "hazard": self.hazard.as_str(), "startsInHours": hours }),
        );
    }

    /// Whether the hazard is under way at absolute tick `t`.
    pub(crate) fn is_hazardous_at(&self, t: u64) -> bool {
        t >= self.hazard_start() && t < self.cycle_end()
    }

    /// Runs the weather for the tick that reached absolute time `t`; may begin the next cycle.
    pub(crate) fn step(
        &mut self,
        t: u64,
        mode: GameMode,
        rng: &mut WorldRng,
        events: &mut EventQueue,
    ) {
        let day = day_at(t);
        if t == self.cycle_end() {
            let hazard = self.hazard.as_str();
            events.push(
                names::DROUGHT_END,
                day,
                json!({ "cycle": self.cycle, "hazard": hazard }),
            );
            events.push(names::CYCLE_END, day, json!({ "cycle": self.cycle }));
            *self = WeatherState::begin(self.cycle + 1, t, Some(self), mode, rng, events);
            return;
        }
        if t.is_multiple_of(ticks_per_day()) {
            let cycle_day = day - self.start_day + 1;
            events.push(
                names::CYCLE_DAY,
                day,
                json!({ "cycle": self.cycle, "cycleDay": cycle_day }),
            );
            if t == self.hazard_start() {
                events.push(
                    names::DROUGHT_START,
                    day,
                    json!({
                        "cycle": self.cycle,
                        "hazard": self.hazard.as_str(),
                        "duration": self.hazardous_days,
                    }),
                );
            }
        }
        if t == self.warn_at() && t > self.started_at {
            self.push_approaching(t, events);
        }
    }

    /// The view at absolute tick `t`.
    pub(crate) fn view(&self, t: u64) -> WeatherView {
        let tph = ticks_per_hour() as f64;
        let hazardous = self.is_hazardous_at(t);
        WeatherView {
            cycle: self.cycle,
            cycle_day: day_at(t).saturating_sub(self.start_day) + 1,
            is_hazardous: hazardous,
            temperate_weather_duration: self.temperate_days,
            hazardous_weather_duration: self.hazardous_days,
            cycle_length_in_days: self.temperate_days + self.hazardous_days,
            hazard: Some(self.hazard),
            hours_until_hazard: (t < self.hazard_start())
                .then(|| (self.hazard_start() - t) as f64 / tph),
            hours_until_cycle_end: self.cycle_end().saturating_sub(t) as f64 / tph,
        }
    }

    /// Checks a loaded state for consistency with absolute time `t`.
    pub(crate) fn check(&self, t: u64) -> Result<(), String> {
        if self.cycle == 0
            || self.start_day == 0
            || self.temperate_days == 0
            || self.hazardous_days == 0
        {
            return Err("weather: cycle, startDay and durations must be at least 1".into());
        }
        if self.started_at > t || t >= self.cycle_end() || day_at(self.started_at) != self.start_day
        {
            return Err(format!(
                "weather: cycle {} (days {}..{}) does not contain the save's time",
                self.cycle,
                self.start_day,
                self.start_day + self.temperate_days + self.hazardous_days
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::start_offset;
    use crate::event::Event;

    /// Runs the weather alone from game start for `cycles` cycles; returns events and states.
    fn run(seed: u64, mode: GameMode, cycles: u32) -> (Vec<Event>, Vec<WeatherState>) {
        let mut rng = WorldRng::new(seed, 0);
        let mut q = EventQueue::default();
        let mut t = start_offset();
        let mut w = WeatherState::begin(1, t, None, mode, &mut rng, &mut q);
        let mut states = vec![w.clone()];
        while w.cycle <= cycles {
            t += 1;
            w.step(t, mode, &mut rng, &mut q);
            if states.last().unwrap().cycle != w.cycle {
                states.push(w.clone());
            }
        }
        states.pop();
        (q.take(), states)
    }

    #[test]
    fn handicap_rises_to_one() {
        let h = Handicap {
            multiplier: 0.38,
            cycles: 5,
        };
        assert!((handicap(h, 1) - 0.38).abs() < 1e-12);
        assert!((handicap(h, 6) - 1.0).abs() < 1e-12);
        assert!((handicap(h, 50) - 1.0).abs() < 1e-12);
        assert!(handicap(h, 3) > 0.38 && handicap(h, 3) < 1.0);
    }

    #[test]
    fn durations_stay_in_the_modes_ranges() {
        for mode in GameMode::ALL {
            let m = world_rules().mode(mode);
            for seed in [1, 2, 3, 99, 12345] {
                let (_, states) = run(seed, mode, 40);
                assert_eq!(states.len(), 40);
                for (i, s) in states.iter().enumerate() {
                    assert_eq!(s.cycle, i as u32 + 1);
                    assert!(
                        (m.temperate_days[0]..=m.temperate_days[1]).contains(&s.temperate_days)
                    );
                    let (lo, hi) = hazard_days_bounds(mode, s.hazard, s.cycle);
                    assert!(
                        (lo..=hi).contains(&s.hazardous_days),
                        "{mode} seed {seed} cycle {}: {} {} not in {lo}..={hi}",
                        s.cycle,
                        s.hazard,
                        s.hazardous_days
                    );
                    if s.cycle <= m.cycles_without_badtide {
                        assert_eq!(s.hazard, HazardKind::Drought, "badtide too early");
                    }
                }
            }
        }
    }

    #[test]
    fn badtides_do_come_later_and_both_hazards_occur() {
        let (_, states) = run(7, GameMode::Normal, 60);
        let late: Vec<_> = states.iter().filter(|s| s.cycle > 4).collect();
        assert!(late.iter().any(|s| s.hazard == HazardKind::Badtide));
        assert!(late.iter().any(|s| s.hazard == HazardKind::Drought));
    }

    #[test]
    fn early_hazards_are_shorter_than_late_ones() {
        // Normal drought: cycle 1 handicap 0.38 gives at most round(0.38*9) = 3 days.
        assert_eq!(
            hazard_days_bounds(GameMode::Normal, HazardKind::Drought, 1),
            (2, 3)
        );
        assert_eq!(
            hazard_days_bounds(GameMode::Normal, HazardKind::Drought, 20),
            (5, 9)
        );
        assert_eq!(
            hazard_days_bounds(GameMode::Normal, HazardKind::Badtide, 1).0,
            1
        );
    }

    #[test]
    fn events_of_each_cycle_come_in_order_at_the_right_days() {
        let (events, states) = run(5, GameMode::Normal, 8);
        let weather_names = [
            names::CYCLE_START,
            names::WEATHER_SELECTED,
            names::DROUGHT_APPROACHING,
            names::DROUGHT_START,
            names::DROUGHT_END,
            names::CYCLE_END,
        ];
        for s in &states {
            let mine: Vec<&Event> = events
                .iter()
                .filter(|e| e.data.as_ref().unwrap()["cycle"] == s.cycle)
                .collect();
            let order: Vec<&str> = mine
                .iter()
                .map(|e| e.name)
                .filter(|n| weather_names.contains(n))
                .collect();
            assert_eq!(order, weather_names, "cycle {}", s.cycle);
            let days: Vec<u64> = mine
                .iter()
                .filter(|e| e.name == names::CYCLE_DAY)
                .map(|e| e.data.as_ref().unwrap()["cycleDay"].as_u64().unwrap())
                .collect();
            let len = u64::from(s.temperate_days + s.hazardous_days);
            assert_eq!(days, (1..=len).collect::<Vec<_>>(), "cycle {}", s.cycle);
            let start = mine
                .iter()
                .find(|e| e.name == names::DROUGHT_START)
                .unwrap();
            assert_eq!(start.day, s.start_day + s.temperate_days);
            assert_eq!(start.data.as_ref().unwrap()["duration"], s.hazardous_days);
            assert_eq!(start.data.as_ref().unwrap()["hazard"], s.hazard.as_str());
            let end = mine.iter().find(|e| e.name == names::CYCLE_END).unwrap();
            assert_eq!(end.day, s.start_day + s.temperate_days + s.hazardous_days);
            let warn = mine
                .iter()
                .find(|e| e.name == names::DROUGHT_APPROACHING)
                .unwrap();
            assert_eq!(warn.data.as_ref().unwrap()["startsInHours"], 24);
            assert_eq!(warn.day, start.day - 1);
        }
    }

    #[test]
    fn view_tracks_the_season() {
        let mut rng = WorldRng::new(3, 0);
        let mut q = EventQueue::default();
        let t0 = start_offset();
        let w = WeatherState::begin(1, t0, None, GameMode::Normal, &mut rng, &mut q);
        let v = w.view(t0);
        assert_eq!((v.cycle, v.cycle_day, v.is_hazardous), (1, 1, false));
        assert_eq!(v.cycle_length_in_days, w.temperate_days + w.hazardous_days);
        assert_eq!(
            v.hours_until_hazard,
            Some(f64::from(w.temperate_days) * 24.0 - 4.0)
        );
        let h = w.view(w.hazard_start());
        assert!(h.is_hazardous && h.hours_until_hazard.is_none());
        assert_eq!(h.cycle_day, w.temperate_days + 1);
        assert!(!w.view(w.hazard_start() - 1).is_hazardous);
        assert!(w.check(t0).is_ok());
        assert!(w.check(w.cycle_end()).is_err());
    }
}

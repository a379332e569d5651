//! Wind: strength 0-1 and direction, changing over time.
//!
//! Every 6-18 hours (`weather.wind.changeEveryHours`, rolled) the wind picks a new target: a
//! strength uniform in `strengthRange` and a direction turned by up to `maxDirectionTurnDegrees`
//! either way. Each hour it moves `1 / hoursToSettle` of the way there (direction along the short
//! arc). Direction is in degrees, 0-360: the way the wind blows toward, 0 = north (+y), 90 = east
//! (+x). `wind.changed {strength, direction}` fires when, since the last event, strength moved by
//! at least `eventStrengthDelta` (0.1) or direction by at least `eventDirectionDeltaDegrees` (22.5).

use serde::{Deserialize, Serialize};

use crate::catalog::world_rules;
use crate::rng::WorldRng;

/// The wind state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Wind {
    pub strength: f64,
    pub direction: f64,
    pub target_strength: f64,
    pub target_direction: f64,
    /// Hours until the next target is rolled.
    pub hours_left: u32,
    /// The values of the last `wind.changed` event (or the start).
    pub reported_strength: f64,
    pub reported_direction: f64,
}

/// The wind, as read models show it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindView {
    /// 0-1.
    pub strength: f64,
    /// Degrees 0-360, the way the wind blows toward; 0 = north (+y), 90 = east (+x).
    pub direction: f64,
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (b - a).rem_euclid(360.0);
    if d > 180.0 { d - 360.0 } else { d }
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

impl Wind {
    /// A starting wind.
    pub(crate) fn roll(rng: &mut WorldRng) -> Wind {
        let r = &world_rules().weather.wind.value;
        let strength = round3(rng.range_f64(r.strength_range[0], r.strength_range[1]));
        let direction = round3(rng.range_f64(0.0, 360.0));
        Wind {
            strength,
            direction,
            target_strength: strength,
            target_direction: direction,
            hours_left: rng.range_u32(r.change_every_hours[0], r.change_every_hours[1]),
            reported_strength: strength,
            reported_direction: direction,
        }
    }

    pub(crate) fn view(&self) -> WindView {
        WindView {
            strength: self.strength,
            direction: self.direction,
        }
    }

    /// One hour of wind; returns the new view when a `wind.changed` event is due.
    pub(crate) fn hour(&mut self, rng: &mut WorldRng) -> Option<WindView> {
        let r = &world_rules().weather.wind.value;
        if self.hours_left == 0 {
            self.target_strength = rng.range_f64(r.strength_range[0], r.strength_range[1]);
            let turn = rng.range_f64(-r.max_direction_turn_degrees, r.max_direction_turn_degrees);
            self.target_direction = (self.direction + turn).rem_euclid(360.0);
            self.hours_left = rng.range_u32(r.change_every_hours[0], r.change_every_hours[1]);
        }
        self.hours_left -= 1;
        let k = 1.0 / f64::from(r.hours_to_settle.max(1));
        self.strength = round3(self.strength + (self.target_strength - self.strength) * k);
        let d = angle_diff(self.direction, self.target_direction);
        self.direction = round3((self.direction + d * k).rem_euclid(360.0));
        let moved = (self.strength - self.reported_strength).abs() >= r.event_strength_delta
            || angle_diff(self.reported_direction, self.direction).abs()
                >= r.event_direction_delta_degrees;
        if moved {
            self.reported_strength = self.strength;
            self.reported_direction = self.direction;
            Some(self.view())
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wind_changes_within_bounds_and_reports_noticeable_changes() {
        let mut rng = WorldRng::new(3, 9);
        let mut wind = Wind::roll(&mut rng);
        let mut events = 0;
        for _ in 0..24 * 20 {
            let before = wind.view();
            if let Some(v) = wind.hour(&mut rng) {
                events += 1;
                assert_eq!(v, wind.view());
            }
            let now = wind.view();
            assert!((0.0..=1.0).contains(&now.strength));
            assert!((0.0..360.0).contains(&now.direction));
            assert!(angle_diff(before.direction, now.direction).abs() <= 61.0);
        }
        assert!(events > 5, "wind.changed fired {events} times in 20 days");
        assert!(events < 24 * 20 / 2);
    }
}

//! The game clock: ticks to days and hours, day and night, working hours, and the time events.
//!
//! A day has `ticksPerDay` (768) ticks and `hoursPerDay` (24) hours, so an hour is 32 ticks. A new
//! game starts at hour `newGameStartHour` (4) of day 1, so "absolute time" (ticks since hour 0 of
//! day 1) is the world's tick count plus that offset. Day is hours `0..daytimeHours` (0-16),
//! night the rest. Working hours run from hour 0 to `endHours`.
//!
//! Time events for the tick that reaches absolute time `t` (at the start of that tick's hour):
//! - `day.start {day}` when `t` is hour 0 (dawn) of day `day`;
//! - `night.start {day}` when `t` is hour `daytimeHours` (dusk);
//! - `workhours.transitioned {working, endHours}` when working hours begin (hour 0) or end
//!   (hour `endHours`); never with `endHours` 24, when work never stops.

use serde::Serialize;
use serde_json::json;

use crate::catalog::world_rules;
use crate::event::{EventQueue, names};

/// The current time, as the `/api/time` resource shows it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeView {
    /// Current day, starting at 1.
    pub day_number: u32,
    /// 0.0 (dawn, hour 0) up to but excluding 1.0.
    pub day_progress: f64,
    /// `day_number + day_progress`.
    pub partial_day_number: f64,
    /// Hour of the day, 0.0 up to but excluding 24.0.
    pub hour: f64,
    /// Ticks since the game started.
    pub ticks: u64,
}

/// Ticks in one day (768).
pub fn ticks_per_day() -> u64 {
    world_rules().time.ticks_per_day.value
}

/// The longest advance one command may ask for, in game days (`POST /api/game/advance`, the
/// engine's turns).
pub const MAX_ADVANCE_DAYS: f64 = 3650.0;

/// The ticks an advance of `days` game days runs: rounded to the tick, at least one.
pub fn ticks_for_days(days: f64) -> u64 {
    ((days * ticks_per_day() as f64).round() as u64).max(1)
}

/// Ticks in one hour (32).
pub(crate) fn ticks_per_hour() -> u64 {
    world_rules().ticks_per_hour()
}

/// Real seconds one tick lasts at speed 1 (460.8 s per day / 768 ticks = 0.6 s).
pub fn real_seconds_per_tick_at_1x() -> f64 {
    world_rules().time.real_seconds_per_day_at1x.value / ticks_per_day() as f64
}

/// The time-scale multiplier of a speed level (0 -> 0, 1 -> 1, 2 -> 3, 3 -> 7).
/// Levels without a multiplier in the data (above 3) give 0.0, i.e. no time passes.
pub fn speed_multiplier(level: u8) -> f64 {
    world_rules()
        .time
        .speed_levels
        .value
        .get(&level.to_string())
        .copied()
        .unwrap_or(0.0)
}

/// Ticks from hour 0 of day 1 to the start of a new game.
pub(crate) fn start_offset() -> u64 {
    u64::from(world_rules().time.new_game_start_hour.value) * ticks_per_hour()
}

/// Absolute time (ticks since hour 0 of day 1) after `ticks` ticks of play.
pub(crate) fn absolute(ticks: u64) -> u64 {
    start_offset() + ticks
}

/// The day number (from 1) at absolute time `t`.
pub(crate) fn day_at(t: u64) -> u32 {
    u32::try_from(t / ticks_per_day() + 1).unwrap_or(u32::MAX)
}

/// Absolute time of hour 0 of day `day` (from 1).
pub(crate) fn dawn_of(day: u32) -> u64 {
    u64::from(day.saturating_sub(1)) * ticks_per_day()
}

/// Whether absolute time `t` lies in working hours ending at `end_hours`.
pub(crate) fn working_at(t: u64, end_hours: u8) -> bool {
    t % ticks_per_day() < u64::from(end_hours) * ticks_per_hour()
}

/// The time view after `ticks` ticks of play.
pub(crate) fn view(ticks: u64) -> TimeView {
    let t = absolute(ticks);
    let tpd = ticks_per_day();
    let day_number = day_at(t);
    let day_progress = (t % tpd) as f64 / tpd as f64;
    TimeView {
        day_number,
        day_progress,
        partial_day_number: f64::from(day_number) + day_progress,
        hour: day_progress * f64::from(world_rules().time.hours_per_day.value),
        ticks,
    }
}

/// Queues the time events of the tick that reached absolute time `t` (`t >= 1`).
pub(crate) fn emit_time_events(t: u64, end_hours: u8, events: &mut EventQueue) {
    let tpd = ticks_per_day();
    let day = day_at(t);
    let tick_of_day = t % tpd;
    if tick_of_day == 0 {
        events.push(names::DAY_START, day, json!({ "day": day }));
    }
    let dusk = u64::from(world_rules().time.daytime_hours.value) * ticks_per_hour();
    if tick_of_day == dusk {
        events.push(names::NIGHT_START, day, json!({ "day": day }));
    }
    let working = working_at(t, end_hours);
    if working != working_at(t - 1, end_hours) {
        events.push(
            names::WORKHOURS_TRANSITIONED,
            day,
            json!({ "working": working, "endHours": end_hours }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_follow_the_data() {
        assert_eq!(ticks_per_day(), 768);
        assert_eq!(ticks_per_hour(), 32);
        assert!((real_seconds_per_tick_at_1x() - 0.6).abs() < 1e-12);
        assert_eq!(speed_multiplier(0), 0.0);
        assert_eq!(speed_multiplier(1), 1.0);
        assert_eq!(speed_multiplier(2), 3.0);
        assert_eq!(speed_multiplier(3), 7.0);
        assert_eq!(speed_multiplier(4), 0.0);
    }

    #[test]
    fn a_new_game_starts_at_hour_four_of_day_one() {
        let v = view(0);
        assert_eq!(v.day_number, 1);
        assert!((v.hour - 4.0).abs() < 1e-9);
        assert!((v.partial_day_number - (1.0 + 4.0 / 24.0)).abs() < 1e-9);
    }

    #[test]
    fn day_rolls_over_after_twenty_hours_of_play() {
        let to_dawn = 20 * 32;
        assert_eq!(view(to_dawn - 1).day_number, 1);
        let v = view(to_dawn);
        assert_eq!(v.day_number, 2);
        assert_eq!(v.day_progress, 0.0);
        assert_eq!(v.hour, 0.0);
        assert!(view(to_dawn - 1).day_progress < 1.0);
        assert_eq!(view(to_dawn + 768).day_number, 3);
    }

    #[test]
    fn working_hours_end_at_end_hour() {
        assert!(working_at(0, 16));
        assert!(working_at(16 * 32 - 1, 16));
        assert!(!working_at(16 * 32, 16));
        assert!(!working_at(767, 16));
        assert!(working_at(768, 16));
        assert!(working_at(767, 24));
        assert!(!working_at(32, 1));
    }
}

//! The world: all game state, the tick loop that runs the systems in a fixed order, and the
//! commands and read models of this slice (time, speed, work hours, weather, map). The land's
//! commands and read models live in `land`.

use serde_json::json;

use crate::catalog::world_rules;
use crate::clock::{self, TimeView};
use crate::config::{Faction, GameMode, NewGame};
use crate::error::CommandError;
use crate::event::{Event, EventQueue, names};
use crate::land::{self, Land};
use crate::map::{self, Map};
use crate::rng::WorldRng;
use crate::weather::{WeatherState, WeatherView};

/// The ChaCha8 stream of the game seed that the world RNG uses.
pub const WORLD_STREAM: u64 = 0;

/// A whole game world. Cloning is cheap: the big tables sit behind `Arc` and are copied on write.
#[derive(Debug, Clone)]
pub struct World {
    pub(crate) seed: u64,
    pub(crate) faction: Faction,
    pub(crate) mode: GameMode,
    pub(crate) settlement: String,
    /// Ticks since the game started.
    pub(crate) ticks: u64,
    pub(crate) speed: u8,
    pub(crate) end_hours: u8,
    pub(crate) rng: WorldRng,
    pub(crate) weather: WeatherState,
    pub(crate) map: Map,
    /// Copy-on-write as a whole: land code works on a plain `Land` (a `Shared` per grid put an
    /// indirection into the water and soil loops and cost a third of a game day).
    pub(crate) land: crate::shared::Shared<Land>,
    pub(crate) science: crate::science::Science,
    pub(crate) colony: crate::colony::Colony,
    pub(crate) history: crate::shared::Shared<crate::history::History>,
    pub(crate) events: EventQueue,
}

impl World {
    /// Starts a new game and queues `game.new`, then the first cycle's `cycle.start`,
    /// `weather.selected` and `cycle.day`. The game starts at hour 4 of day 1, at speed 1, with
    /// the data's default end of work hours (16).
    ///
    /// # Panics
    /// If `cfg` is invalid; check it with [`NewGame::validate`] or use [`World::try_new`].
    pub fn new(cfg: &NewGame) -> World {
        World::try_new(cfg).unwrap_or_else(|e| panic!("invalid new game: {e}"))
    }

    /// Starts a new game, or says why the settings are invalid (`invalid_param`).
    pub fn try_new(cfg: &NewGame) -> Result<World, CommandError> {
        cfg.validate()?;
        let rules = world_rules();
        let map = map::generate(cfg.seed, cfg.map_width, cfg.map_height);
        let land = land::generate(cfg.seed, &map);
        let mut rng = WorldRng::new(cfg.seed, WORLD_STREAM);
        let mut events = EventQueue::default();
        let t = clock::absolute(0);
        events.push(
            names::GAME_NEW,
            clock::day_at(t),
            json!({
                "seed": cfg.seed,
                "faction": cfg.faction.as_str(),
                "mode": cfg.mode.as_str(),
                "settlement": cfg.settlement.trim(),
                "mapWidth": cfg.map_width,
                "mapHeight": cfg.map_height,
            }),
        );
        let weather = WeatherState::begin(1, t, None, cfg.mode, &mut rng, &mut events);
        let mut world = World {
            seed: cfg.seed,
            faction: cfg.faction,
            mode: cfg.mode,
            settlement: cfg.settlement.trim().to_owned(),
            ticks: 0,
            speed: 1,
            end_hours: rules.work_hours.default_end_hour.value,
            rng,
            weather,
            map,
            land: land.into(),
            science: crate::science::Science::default(),
            colony: crate::colony::Colony::empty(cfg.seed),
            history: Default::default(),
            events,
        };
        world.found_colony();
        world.apply_setup(&cfg.setup);
        // The founders and the setup are the start, not births or production.
        world.history = Default::default();
        Ok(world)
    }

    /// Advances exactly one tick: the clock, the weather, the land (water, soil, plants, wind),
    /// power (networks, generators, batteries), automation (signals), then the colony (beavers' steps; hourly needs, homes, jobs and births). Queues the events
    /// it causes.
    pub fn tick(&mut self) {
        self.ticks += 1;
        let t = clock::absolute(self.ticks);
        clock::emit_time_events(t, self.end_hours, &mut self.events);
        self.weather
            .step(t, self.mode, &mut self.rng, &mut self.events);
        if t.is_multiple_of(clock::ticks_per_hour()) {
            self.land.hive_boost = self.hive_crops();
        }
        if t.is_multiple_of(clock::ticks_per_day()) {
            // Nothing spreads onto a building's or a path's ground at dawn.
            self.land.built = self.built_ground();
        }
        self.land
            .tick(t, &self.map, &self.weather, &mut self.events);
        self.power_tick();
        if (t + 1).is_multiple_of(u64::from(crate::land::water_step_ticks())) {
            self.water_buildings_tick();
        }
        self.automation_tick();
        self.colony_tick(t);
        if t.is_multiple_of(clock::ticks_per_hour()) {
            self.record_history();
        }
    }

    /// Advances `n` ticks back to back (whatever the speed setting).
    pub fn advance_ticks(&mut self, n: u64) {
        for _ in 0..n {
            self.tick();
        }
        // The derived building lists brought up to date with the layout now rather than at the
        // next tick's start (the same rebuild, made once): the reads of the world after an
        // advance (the summary's beds, workers and roles) walk the lists, not every building.
        // A placement between advances leaves them stale; reads then scan.
        if n > 0 {
            self.colony.refresh_store_cache();
        }
    }

    /// Drains the queued events, oldest first.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.events.take()
    }

    /// Ticks since the game started.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// The current day number (from 1).
    pub fn day(&self) -> u32 {
        clock::day_at(clock::absolute(self.ticks))
    }

    /// The current time.
    pub fn time(&self) -> TimeView {
        clock::view(self.ticks)
    }

    /// The current weather.
    pub fn weather(&self) -> WeatherView {
        self.weather.view(clock::absolute(self.ticks))
    }

    /// The speed level, 0 (paused) to 3. A new game starts at 1. The host paces real time by it;
    /// the simulation only stores it.
    pub fn speed(&self) -> u8 {
        self.speed
    }

    /// Sets the speed level 0-3; queues `speed.changed {speed, previous}` when it changes.
    pub fn set_speed(&mut self, s: u8) -> Result<(), CommandError> {
        if !world_rules()
            .time
            .speed_levels
            .value
            .contains_key(&s.to_string())
        {
            return Err(CommandError::invalid_param(
                format!(
                    "speed must be an integer 0-3 (0 pause, 1 normal, 2 fast, 3 fastest); got {s}"
                ),
                s,
            ));
        }
        if s != self.speed {
            let previous = std::mem::replace(&mut self.speed, s);
            let day = self.day();
            self.events.push(
                names::SPEED_CHANGED,
                day,
                json!({ "speed": s, "previous": previous }),
            );
        }
        Ok(())
    }

    /// The hour working hours end (1-24; 24 means they never end).
    pub fn end_hours(&self) -> u8 {
        self.end_hours
    }

    /// Whether it is now working hours (hour 0 up to `end_hours`).
    pub fn are_working_hours(&self) -> bool {
        clock::working_at(clock::absolute(self.ticks), self.end_hours)
    }

    /// Sets the end of working hours (1-24). When it changes, queues
    /// `workhours.changed {endHours, previous}`, then `workhours.transitioned {working, endHours}`
    /// if the change starts or ends working hours right now.
    pub fn set_end_hours(&mut self, h: u8) -> Result<(), CommandError> {
        let rules = &world_rules().work_hours;
        let (min, max) = (rules.min_end_hour.value, rules.max_end_hour.value);
        if !(min..=max).contains(&h) {
            return Err(CommandError::invalid_param(
                format!(
                    "endHours must be an integer {min}-{max} (the hour work ends; default {}); got {h}",
                    rules.default_end_hour.value
                ),
                h,
            ));
        }
        if h == self.end_hours {
            return Ok(());
        }
        let was_working = self.are_working_hours();
        let previous = std::mem::replace(&mut self.end_hours, h);
        let day = self.day();
        self.events.push(
            names::WORKHOURS_CHANGED,
            day,
            json!({ "endHours": h, "previous": previous }),
        );
        let working = self.are_working_hours();
        if working != was_working {
            self.events.push(
                names::WORKHOURS_TRANSITIONED,
                day,
                json!({ "working": working, "endHours": h }),
            );
        }
        Ok(())
    }

    /// A scenario's start: goods into the (first) district center, science points, unlocks.
    fn apply_setup(&mut self, setup: &crate::config::Setup) {
        if let Some(dc) = self.colony.districts.keys().next().copied()
            && let Some(b) = self.colony.buildings.get_mut(&dc)
        {
            for (g, n) in &setup.goods {
                b.add(g, *n);
            }
        }
        self.science.points = self.science.points.saturating_add(setup.science);
        self.science.unlocked.extend(setup.unlocked.iter().cloned());
    }

    pub fn settlement(&self) -> &str {
        &self.settlement
    }

    pub fn faction(&self) -> Faction {
        self.faction
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn mode(&self) -> GameMode {
        self.mode
    }

    pub fn map(&self) -> &Map {
        &self.map
    }
}

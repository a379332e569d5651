//! The embedded colony game: a pure, deterministic, single-threaded simulation.
//!
//! No I/O (the data files are embedded at compile time), no threads, no clock, no async. One
//! seeded ChaCha8 RNG drives the world; iteration order is always stable. The host (`colonyd`)
//! owns a [`World`], calls [`World::tick`] as real time passes (pacing by [`World::speed`] and
//! [`speed_multiplier`]), applies commands, and drains events with [`World::take_events`].
//!
//! Modules: `automation` (signals, relays, memory, automated buildings), `catalog` (world rules from `data/world.json`), `config` (new-game settings),
//! `clock` (time), `weather` (cycles and hazards), `map` (terrain generation), `land` (water,
//! soil, plants, ruins, wind; land commands and read models), `world` (state, tick loop,
//! commands), `power` (power networks), `save` (save format and hash), `ids` (entity ids), `event`, `error`, `rng`.

mod automation;
pub mod catalog;
mod clock;
pub mod colony;
mod config;
pub mod content;
mod error;
mod event;
pub mod history;
mod ids;
mod land;
pub mod map;
mod power;
mod rng;
pub mod rules;
mod save;
mod science;
pub mod shards;
pub mod shared;
#[cfg(test)]
mod testutil;
mod weather;
mod world;

pub use automation::{
    AutomationView, ConfigureView, InputView, LinkView, OutputView, Signal as AutomationSignal,
};
pub use clock::{
    MAX_ADVANCE_DAYS, TimeView, real_seconds_per_tick_at_1x, speed_multiplier, ticks_for_days,
    ticks_per_day,
};
pub use config::{Faction, GameMode, MAX_SETTLEMENT_NAME_CHARS, NewGame, Setup};
pub use error::{CommandError, ErrorCode, SaveError};
pub use event::{Event, names as event_names};
pub use land::{
    Area, ClusterView, FlowView, GatherableView, HarvestYield, LAND_STREAM, Near, Occupant,
    PlantSummary, PlantTally, PlantView, RuinView, Spot, TileGrid, TilePlant, TileRegion, TileView,
    WaterSource, WaterTotals, WindView, water_step_ticks,
};
pub use map::{Map, River, RiverAxis};
pub use power::{ClutchView, PowerNetworkBuilding, PowerNetworkView, PowerState};
pub use save::{FORMAT as SAVE_FORMAT, VERSION as SAVE_VERSION, fnv1a64};
pub use science::{PrefabView, Science, UnlockableView, Unlocked};
pub use weather::{HazardKind, WeatherView, hazard_days_bounds};
pub use world::World;
